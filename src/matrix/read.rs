//! The JSON report of `autoreview check --report-json` as the matrix and `compare` read it:
//! `report_version` 3 or 4, members added since 3 read when present and derived from the command
//! line when not (an older report's shard, adapter command and generated count), unknown members
//! ignored, and the needs of a not-applicable case kept as plain names.

use serde::Deserialize;

use crate::profile::Profile;
use crate::runner::generated::{GeneratedId, Shard};
use crate::runner::report::REPORT_VERSION;
use crate::runner::{Difference, Severity, Status};

/// Why a report cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Not a JSON report of the expected shape.
    #[error("not an autoreview JSON report: {0}")]
    Json(String),
    /// A report version this build does not read.
    #[error(
        "report_version {found}: this autoreview reads report_version 3 and {REPORT_VERSION} (write the report again with this autoreview's `check --report-json`)"
    )]
    Version {
        /// The version the report states.
        found: u64,
    },
}

/// One run's report.
#[derive(Debug, Clone, Deserialize)]
pub struct RunReport {
    /// The profile checked.
    pub profile: Profile,
    /// The implementation as it described itself.
    pub implementation: String,
    /// Its name, version and language, when the report records them.
    #[serde(default)]
    pub implementation_info: Option<Info>,
    /// The adapter command, when the report records it.
    #[serde(default)]
    command: Option<Vec<String>>,
    /// The shard, when the report records it (`null` for a whole run).
    #[serde(default, deserialize_with = "some_shard")]
    shard: Option<Option<ShardNo>>,
    /// The generated count of the whole run, when the report records it.
    #[serde(default)]
    generated: Option<usize>,
    /// The seed of the generated cases.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The command line of the run.
    #[serde(default)]
    pub argv: Vec<String>,
    /// What the implementation observes beyond protocol 1.
    #[serde(default)]
    pub observes: Vec<String>,
    /// The spec text version.
    #[serde(default)]
    pub spec: String,
    /// The runner that wrote the report.
    #[serde(default)]
    pub runner: String,
    /// When the run started.
    #[serde(default)]
    pub started: String,
    /// Generated cases that passed: counted, not listed.
    #[serde(default)]
    pub generated_passed: usize,
    /// Generated cases not sent because they needed a capability the implementation lacks:
    /// counted, not listed (report 4).
    #[serde(default)]
    pub generated_not_applicable: usize,
    /// Every listed case's result.
    pub results: Vec<CaseRecord>,
    /// Generated differences shrunk to minimal scenarios.
    #[serde(default)]
    pub counterexamples: Vec<FoundRecord>,
}

/// An implementation's name, version and language.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Info {
    /// Its name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its language.
    #[serde(default)]
    pub language: String,
}

/// A shard as the report writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
struct ShardNo {
    index: usize,
    of: usize,
}

/// Tells a `shard` written as `null` (a whole run) from one not written at all (an older report).
fn some_shard<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<ShardNo>>, D::Error> {
    Option::<ShardNo>::deserialize(d).map(Some)
}

/// One case's result.
#[derive(Debug, Clone, Deserialize)]
pub struct CaseRecord {
    /// The case ID.
    pub id: String,
    /// Its area.
    #[serde(default)]
    pub area: String,
    /// Its title.
    #[serde(default)]
    pub title: String,
    /// The clauses it cites.
    #[serde(default)]
    pub clauses: Vec<String>,
    /// The decision-table row its call falls under.
    #[serde(default)]
    pub row: Option<String>,
    /// Its status after expected failures.
    pub status: Status,
    /// Its differences, when it failed with some.
    #[serde(default)]
    pub differences: Vec<Difference>,
    /// Why it gave no outcome, when it gave none.
    #[serde(default)]
    pub error: Option<ErrorRecord>,
    /// What it needs that the implementation lacks, when not applicable: observables or
    /// capabilities, by name.
    #[serde(default)]
    pub missing: Vec<String>,
    /// Why it is listed as an expected failure.
    #[serde(default)]
    pub expected_failure: Option<String>,
}

/// Why an implementation gave no outcome.
#[derive(Debug, Clone, Deserialize)]
pub struct ErrorRecord {
    /// The kind of breakage (`crash`, `timeout`, ...).
    pub kind: String,
    /// What happened.
    #[serde(default)]
    pub message: String,
    /// What the implementation wrote to stderr meanwhile.
    #[serde(default)]
    pub stderr: Vec<String>,
}

/// A generated difference shrunk to a minimal scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct FoundRecord {
    /// The generated case it was found in.
    pub id: String,
    /// `call` or `session`.
    #[serde(default)]
    pub kind: String,
    /// The minimal scenario.
    #[serde(default)]
    pub minimal: serde_json::Value,
    /// The differences on it.
    #[serde(default)]
    pub differences: Vec<Difference>,
    /// Why it gave no outcome, when it gave none.
    #[serde(default)]
    pub error: Option<ErrorRecord>,
    /// The lines that repeat it.
    #[serde(default)]
    pub repro: ReproRecord,
}

/// The lines that repeat a counterexample.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ReproRecord {
    /// With the reference engine.
    #[serde(default)]
    pub reference: String,
    /// With the implementation, through its adapter.
    #[serde(default)]
    pub implementation: Option<String>,
}

/// The worst thing a failing case shows: a severity, or an outcome it did not give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Worst {
    /// The worst severity of its differences.
    Severity(Severity),
    /// It gave no outcome, for this reason (`crash`, `timeout`, ...).
    Broken(String),
}

impl Worst {
    /// Worst first, as the check's report lists failures: SAFETY, then no outcome, then the
    /// other severities.
    pub fn rank(&self) -> u8 {
        match self {
            Worst::Severity(Severity::Safety) => 0,
            Worst::Broken(_) => 1,
            Worst::Severity(s) => 1 + *s as u8,
        }
    }

    /// `SAFETY`, `DECISION`, ..., or the breakage in capitals (`CRASH`).
    pub fn label(&self) -> String {
        match self {
            Worst::Severity(s) => s.as_str().to_owned(),
            Worst::Broken(kind) => kind.to_uppercase(),
        }
    }

    /// The worse of two.
    pub fn worse(a: Option<Worst>, b: Option<Worst>) -> Option<Worst> {
        match (a, b) {
            (Some(a), Some(b)) => Some(if b.rank() < a.rank() { b } else { a }),
            (a, b) => a.or(b),
        }
    }
}

impl CaseRecord {
    /// Whether it passed (an unexpected pass passed too).
    pub fn passed(&self) -> bool {
        matches!(self.status, Status::Pass | Status::UnexpectedPass)
    }

    /// Whether it failed, listed as expected or not.
    pub fn failed(&self) -> bool {
        matches!(self.status, Status::Fail | Status::ExpectedFail)
    }

    /// The worst of a failure: its worst severity, or the breakage that left it without outcome.
    pub fn worst(&self) -> Option<Worst> {
        if !self.failed() {
            return None;
        }
        if let Some(s) = self.differences.iter().map(|d| d.severity).min() {
            return Some(Worst::Severity(s));
        }
        self.error.as_ref().map(|e| Worst::Broken(e.kind.clone()))
    }
}

impl RunReport {
    /// Reads a report's text.
    pub fn parse(text: &str) -> Result<RunReport, ReadError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ReadError::Json(e.to_string()))?;
        match value
            .get("report_version")
            .and_then(serde_json::Value::as_u64)
        {
            // 4 added what a capability-lacking adapter was not asked; 3 reads as lacking nothing.
            Some(v) if v == 3 || v == u64::from(REPORT_VERSION) => {}
            Some(found) => return Err(ReadError::Version { found }),
            None => {
                return Err(ReadError::Json(
                    "it has no numeric report_version".to_owned(),
                ));
            }
        }
        serde_path_to_error::deserialize(value)
            .map_err(|e| ReadError::Json(format!("{}: {}", e.path(), e.inner())))
    }

    /// The implementation's name: its handshake's, or else its description.
    pub fn name(&self) -> &str {
        match &self.implementation_info {
            Some(i) => &i.name,
            None => &self.implementation,
        }
    }

    /// The implementation's version, when known.
    pub fn version(&self) -> &str {
        self.implementation_info
            .as_ref()
            .map_or("", |i| i.version.as_str())
    }

    /// The adapter command (empty in process): recorded, or what follows `--` on the command line.
    pub fn command(&self) -> Vec<String> {
        match &self.command {
            Some(c) => c.clone(),
            None => self
                .argv
                .iter()
                .position(|a| a == "--")
                .map(|i| self.argv[i + 1..].to_vec())
                .unwrap_or_default(),
        }
    }

    /// The shard this report holds, `None` for a whole run: recorded, or read from `--shard` on
    /// the command line. A shard `1/1` is the whole run.
    pub fn shard(&self) -> Option<Shard> {
        let shard = match self.shard {
            Some(recorded) => recorded.map(|s| Shard {
                index: s.index,
                of: s.of,
            }),
            None => self.option("--shard").and_then(|s| Shard::parse(&s).ok()),
        };
        shard.filter(|s| s.of > 1)
    }

    /// How many generated cases the whole run draws: recorded, or read from `--generated`.
    pub fn generated(&self) -> usize {
        self.generated.unwrap_or_else(|| {
            self.option("--generated")
                .and_then(|n| n.parse().ok())
                .unwrap_or(0)
        })
    }

    /// The value of an option on the command line before `--`, written `--x v` or `--x=v`.
    fn option(&self, name: &str) -> Option<String> {
        let own = self.argv.iter().take_while(|a| *a != "--");
        let mut value = None;
        let mut next = false;
        for a in own {
            if next {
                value = Some(a.clone());
                next = false;
            } else if a == name {
                next = true;
            } else if let Some(v) = a.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
                value = Some(v.to_owned());
            }
        }
        value
    }

    /// The in-process implementation `--implementation` chose, when the command line names one.
    pub fn implementation_option(&self) -> Option<String> {
        self.option("--implementation")
    }

    /// Whether the implementation observes session scenarios.
    pub fn observes_sessions(&self) -> bool {
        self.observes.iter().any(|o| o == "sessions")
    }

    /// Whether generated case `id` passed in this run without being listed: its seed is the
    /// run's, its number is among the run's and in this report's shard (all of `shards` when
    /// given: the shards merged), and a session case is one the run drew. A listed case is not
    /// asked about here. A run that left generated cases unasked for a capability its
    /// implementation lacks lists neither them nor its passes, so no unlisted case is known to
    /// have passed there.
    pub fn passed_unlisted(&self, id: &str, shards: Option<&[Shard]>) -> bool {
        let Some(g) = GeneratedId::parse(id) else {
            return false;
        };
        if self.generated_not_applicable > 0 {
            return false;
        }
        let Some(seed) = self.seed else {
            return false;
        };
        if !g.drawn_by(seed, self.generated()) {
            return false;
        }
        let in_shard = match (shards, self.shard()) {
            (Some(all), _) => all.iter().any(|s| s.contains(g.k)),
            (None, Some(s)) => s.contains(g.k),
            (None, None) => true,
        };
        in_shard && (!g.session || self.observes_sessions())
    }
}

/// The seed, number and kind (session or not) of a generated case ID: `GEN-7-12`, `GEN-7-S12`.
pub fn generated_case(id: &str) -> Option<(u64, usize, bool)> {
    GeneratedId::parse(id).map(|g| (g.seed, g.k, g.session))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(extra: &str) -> String {
        format!(
            r#"{{"report_version": 3, "profile": "baseline", "implementation": "x"{extra}, "results": []}}"#
        )
    }

    /// An older report says its shard, command and generated count only on its command line.
    #[test]
    fn an_older_report_is_read_from_its_command_line() {
        let r = RunReport::parse(&report(
            r#", "argv": ["autoreview", "check", "--shard=2/4", "--generated", "100", "--", "node", "--shard", "9/9"]"#,
        ))
        .unwrap();
        assert_eq!(r.shard(), Some(Shard { index: 2, of: 4 }));
        assert_eq!(r.generated(), 100);
        assert_eq!(r.command(), ["node", "--shard", "9/9"]);
        assert_eq!((r.name(), r.version()), ("x", ""));
        // Recorded members win, and a recorded null shard is a whole run.
        let r = RunReport::parse(&report(
            r#", "argv": ["autoreview", "check", "--shard", "2/4"], "shard": null, "command": [], "generated": 0"#,
        ))
        .unwrap();
        assert_eq!((r.shard(), r.generated()), (None, 0));
    }

    #[test]
    fn other_versions_and_shapes_are_refused_with_the_reason() {
        let e = RunReport::parse(r#"{"report_version": 2, "results": []}"#).unwrap_err();
        assert!(e.to_string().starts_with("report_version 2: "), "{e}");
        let e = RunReport::parse("[1]").unwrap_err();
        assert!(e.to_string().contains("no numeric report_version"), "{e}");
        let e = RunReport::parse(&report(r#", "profile": "nope""#)).unwrap_err();
        assert!(e.to_string().contains("profile"), "{e}");
        let e = RunReport::parse("{").unwrap_err();
        assert!(matches!(e, ReadError::Json(_)), "{e}");
    }

    #[test]
    fn generated_case_ids_are_read_strictly() {
        assert_eq!(generated_case("GEN-7-12"), Some((7, 12, false)));
        assert_eq!(generated_case("GEN-7-S12"), Some((7, 12, true)));
        for id in [
            "GEN-7-",
            "GEN--1",
            "GEN-7-1x",
            "RS-1",
            "GEN-7-S",
            "GEN-99999999999999999999999-1",
        ] {
            assert_eq!(generated_case(id), None, "{id}");
        }
    }

    /// A generated case that is not listed passed, when the run (or this shard of it) drew it.
    #[test]
    fn an_unlisted_generated_case_passed_when_the_run_drew_it() {
        let r = RunReport::parse(&report(
            r#", "seed": 7, "generated": 40, "shard": {"index": 2, "of": 2}, "observes": []"#,
        ))
        .unwrap();
        assert!(r.passed_unlisted("GEN-7-1", None));
        assert!(!r.passed_unlisted("GEN-7-2", None), "another shard's");
        assert!(!r.passed_unlisted("GEN-7-41", None), "beyond the count");
        assert!(!r.passed_unlisted("GEN-8-1", None), "another seed");
        let all = [Shard { index: 1, of: 2 }, Shard { index: 2, of: 2 }];
        assert!(r.passed_unlisted("GEN-7-2", Some(&all)));
        let session = (0..40)
            .find(|&k| crate::runner::sessions::draws_session(7, k))
            .expect("a session among 40 cases");
        assert!(
            !r.passed_unlisted(&format!("GEN-7-S{session}"), Some(&all)),
            "no sessions without observing them"
        );
    }
}
