//! Expected failures, for adopting the suite gradually: a file lists the cases an implementation
//! is known to fail, each with a reason. Listed cases that fail do not fail the run; listed cases
//! that pass are reported (and, with `--strict`, fail the run, so the list cannot rot).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The expectation file's format version.
pub const VERSION: u32 = 1;

/// An expectation file: `{"version": 1, "failures": {"<case id>": "<reason>", ...}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// Always [`VERSION`].
    pub version: u32,
    /// Known failures by case ID, with the reason each is expected to fail.
    pub failures: BTreeMap<String, String>,
}

/// Why an expectation file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ExpectError {
    /// Not JSON, or not the format.
    #[error(
        "{path}: {message} (expected {{\"version\": 1, \"failures\": {{\"CASE-ID\": \"reason\", ...}}}})"
    )]
    Format {
        /// The file.
        path: String,
        /// What was wrong.
        message: String,
    },
    /// Another version.
    #[error("{path}: version {found} is not supported; this runner reads version {VERSION}")]
    Version {
        /// The file.
        path: String,
        /// The version found.
        found: u32,
    },
}

impl Expected {
    /// No expected failures.
    pub fn none() -> Expected {
        Expected {
            version: VERSION,
            failures: BTreeMap::new(),
        }
    }

    /// Reads an expectation file's text.
    pub fn parse(path: &str, text: &str) -> Result<Expected, ExpectError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let e: Expected =
            serde_path_to_error::deserialize(&mut de).map_err(|e| ExpectError::Format {
                path: path.to_owned(),
                message: format!("{}: {}", e.path(), e.inner()),
            })?;
        if e.version != VERSION {
            return Err(ExpectError::Version {
                path: path.to_owned(),
                found: e.version,
            });
        }
        Ok(e)
    }

    /// The reason a case is expected to fail, if it is listed.
    pub fn reason(&self, id: &str) -> Option<&str> {
        self.failures.get(id).map(String::as_str)
    }

    /// The listed IDs that are not among `run`.
    pub fn stale<'a>(&self, run: impl Iterator<Item = &'a str>) -> Vec<String> {
        let run: std::collections::BTreeSet<&str> = run.collect();
        self.failures
            .keys()
            .filter(|id| !run.contains(id.as_str()))
            .cloned()
            .collect()
    }

    /// The current failures of a run, as a new expectation file; entries already listed keep
    /// their reason. A not-applicable case is not a failure, but one already listed stays listed:
    /// whether it fails is not known.
    pub fn from_report(report: &super::Report, previous: &Expected) -> Expected {
        let failures = report
            .results
            .iter()
            .filter(|r| match r.verdict {
                super::Verdict::NotApplicable { .. } => previous.reason(&r.id).is_some(),
                ref v => !v.passed(),
            })
            .map(|r| {
                let reason = previous
                    .reason(&r.id)
                    .map(str::to_owned)
                    .unwrap_or_else(|| match &r.verdict {
                        super::Verdict::Fail { differences } => format!(
                            "fails with {} ({}); recorded by --write-expect",
                            differences
                                .first()
                                .map(|d| d.severity.as_str())
                                .unwrap_or("?"),
                            differences
                                .first()
                                .map(|d| d.pointer.as_str())
                                .unwrap_or("?")
                        ),
                        super::Verdict::Broken { error } => {
                            format!("{}; recorded by --write-expect", error.kind.as_str())
                        }
                        super::Verdict::Pass | super::Verdict::NotApplicable { .. } => {
                            String::new()
                        }
                    });
                (r.id.clone(), reason)
            })
            .collect();
        Expected {
            version: VERSION,
            failures,
        }
    }

    /// The file's text, pretty-printed.
    pub fn to_text(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}
