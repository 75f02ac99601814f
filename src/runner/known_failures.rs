//! Expected failures, for adopting the suite gradually: a file lists the cases an implementation
//! is known to fail, each with a reason. Listed cases that fail do not fail the run; listed cases
//! that pass are reported (and, with `--strict`, fail the run, so the list cannot rot).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// The cases a run could have taken, for judging an expectation file against a run that took only
/// some of them (`--only`, `--skip`, `--shard`, `--no-fixed`). A listed case is one of three:
///
/// - run: a fixed case of the selection and shard, or a generated case of this seed within the
///   count and shard; its result is judged, and a listed case that passes is an unexpected pass;
/// - elsewhere: a case this run left out but that exists — a fixed case of the profile outside the
///   selection or shard, a generated case of this seed and count in another shard; neither stale
///   nor judged, so every shard and every selection of one run can share one expectation file;
/// - nowhere: an ID that names no case at all — not a fixed case of the profile, not a generated
///   case the run's seed and count draw; this is a stale entry.
///
/// What ran is judged by its result; `--write-expect` keeps the entries of what ran elsewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// Every fixed case ID of the profile, selected or not, in any shard.
    pub fixed: BTreeSet<String>,
    /// The fixed case IDs this process ran: the selection, in its shard.
    pub ran: BTreeSet<String>,
    /// The generated cases of the whole run, all shards together: seed and count.
    pub generated: Option<(u64, usize)>,
    /// This process's shard of the generated cases.
    pub shard: super::shard::Shard,
    /// Whether the implementation is asked the generated sessions (it observes sessions).
    pub sessions: bool,
}

impl Scope {
    /// The scope of a run of exactly `fixed` and no generated cases.
    pub fn of_fixed<'a>(fixed: impl IntoIterator<Item = &'a str>) -> Scope {
        let fixed: BTreeSet<String> = fixed.into_iter().map(str::to_owned).collect();
        Scope {
            ran: fixed.clone(),
            fixed,
            generated: None,
            shard: super::shard::Shard::ALL,
            sessions: true,
        }
    }

    /// With only `ran` of the fixed cases run here.
    pub fn running<'a>(self, ran: impl IntoIterator<Item = &'a str>) -> Scope {
        Scope {
            ran: ran.into_iter().map(str::to_owned).collect(),
            ..self
        }
    }

    /// Whether `id` is a case this process ran (or asked and found not applicable): a fixed case
    /// of the selection and shard, a generated case of this seed and count in this shard (a
    /// session only for an implementation that observes sessions), or the tail.
    pub fn ran(&self, id: &str) -> bool {
        id == super::TAIL_ID
            || self.ran.contains(id)
            || self.generated.is_some_and(|(seed, count)| {
                super::generated::GeneratedId::parse(id).is_some_and(|g| {
                    g.drawn_by(seed, count)
                        && self.shard.contains(g.k)
                        && (!g.session || self.sessions)
                })
            })
    }

    /// With the generated cases of `seed`, `count` of them in the whole run.
    pub fn with_generated(self, seed: u64, count: usize) -> Scope {
        Scope {
            generated: (count > 0).then_some((seed, count)),
            ..self
        }
    }

    /// Whether `id` names a case, in this process's part of the run or outside it: a fixed case of
    /// the profile, a generated case, or what the implementation wrote after its last reply
    /// ([`super::TAIL_ID`]), which any run can show. A generated ID of another seed, beyond the
    /// count, or in a run that draws none lies outside this run's selection, as another shard
    /// does; one within this run's seed and count names a case only where the run draws it (a
    /// session case where its number draws one).
    pub fn names(&self, id: &str) -> bool {
        id == super::TAIL_ID
            || self.fixed.contains(id)
            || super::generated::GeneratedId::parse(id).is_some_and(|g| match self.generated {
                Some((seed, count)) if g.seed == seed && g.k < count => g.drawn_by(seed, count),
                _ => true,
            })
    }
}

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

    /// The listed IDs that name no case `scope` knows ([`Scope::names`]): the stale entries.
    pub fn stale(&self, scope: &Scope) -> Vec<String> {
        self.failures
            .keys()
            .filter(|id| !scope.names(id))
            .cloned()
            .collect()
    }

    /// The current failures of a run, as a new expectation file; entries already listed keep
    /// their reason. A not-applicable case is not a failure, but one already listed stays listed:
    /// whether it fails is not known. So does a listed case of the run that `scope` says this
    /// process did not run (another shard, outside the selection): each shard of a run can
    /// rewrite the file it shares without dropping the others' entries.
    pub fn from_report(report: &super::Report, previous: &Expected, scope: &Scope) -> Expected {
        let elsewhere = previous
            .failures
            .iter()
            .filter(|(id, _)| scope.names(id) && !scope.ran(id))
            .map(|(id, why)| (id.clone(), why.clone()));
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
            .chain(elsewhere)
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
