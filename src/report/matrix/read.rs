//! The JSON report as the matrix and `compare` read it: the one report type
//! ([`crate::report::JsonReport`]), read by [`crate::report::read`] (which
//! upgrades reports 3 and 4), and what these readers ask of it. Nothing here parses a command line
//! or draws a generated case: what a run was asked, its report records.

use crate::report::JsonReport;
pub use crate::report::ReadError;
use crate::runner::generated::{Found, GeneratedId};
use crate::runner::shard::Shard;
use crate::runner::{CaseResult, Difference, ImplError, Verdict};

/// One run's report, as read.
pub type RunReport = JsonReport;

/// One case's result, as read.
pub type CaseRecord = CaseResult;

/// A generated difference shrunk to a minimal scenario, as read.
pub type FoundRecord = Found;

pub use crate::difference::Worst;

impl CaseResult {
    /// Its differences, when it failed with some.
    pub fn differences(&self) -> &[Difference] {
        differences(&self.verdict)
    }

    /// Why it gave no outcome, when it gave none.
    pub fn error(&self) -> Option<&ImplError> {
        error(&self.verdict)
    }

    /// What it needs that the implementation lacks, when not applicable, by name.
    pub fn missing_names(&self) -> Vec<String> {
        match &self.verdict {
            Verdict::NotApplicable { missing } => {
                missing.iter().map(|m| m.as_str().to_owned()).collect()
            }
            _ => Vec::new(),
        }
    }
}

impl Found {
    /// The differences on the minimal scenario.
    pub fn differences(&self) -> &[Difference] {
        differences(&self.verdict)
    }
}

/// The differences of a verdict that failed with some.
fn differences(v: &Verdict) -> &[Difference] {
    match v {
        Verdict::Fail { differences } => differences,
        _ => &[],
    }
}

/// Why a verdict has no outcome, when it has none.
fn error(v: &Verdict) -> Option<&ImplError> {
    match v {
        Verdict::Broken { error } => Some(error),
        _ => None,
    }
}

impl JsonReport {
    /// Reads a report's text, of any version [`crate::report::read`] reads.
    pub fn parse(text: &str) -> Result<RunReport, ReadError> {
        crate::report::read(text)
    }

    /// The implementation's name: its handshake's, or else its description.
    pub fn name(&self) -> &str {
        match &self.run.implementation_info {
            Some(i) => &i.name,
            None => &self.run.implementation,
        }
    }

    /// The implementation's version, when known.
    pub fn version(&self) -> &str {
        self.run
            .implementation_info
            .as_ref()
            .map_or("", |i| i.version.as_str())
    }

    /// The shard this report holds, `None` for a whole run (a shard `1/1` is the whole run).
    pub fn shard(&self) -> Option<Shard> {
        self.run.shard.filter(|s| s.of > 1)
    }

    /// Whether the implementation observes session scenarios.
    pub fn observes_sessions(&self) -> bool {
        self.run
            .observes
            .contains(&crate::capability::Observable::Sessions)
    }

    /// Whether generated case `id` passed in this run without being listed: its seed is the
    /// run's, its number is among the run's and in this report's shard (all of `shards` when
    /// given: the shards merged), and a session case is one the run records drawing and asking
    /// (a report that does not record its draws knows of no session case). A listed case is not
    /// asked about here. A run that left generated cases unasked for a capability its
    /// implementation lacks lists neither them nor its passes, so no unlisted case is known to
    /// have passed there.
    pub fn passed_unlisted(&self, id: &str, shards: Option<&[Shard]>) -> bool {
        let Some(g) = GeneratedId::parse(id) else {
            return false;
        };
        let run = &self.run;
        if run.generated_not_applicable > 0 || run.seed != Some(g.seed) || g.k >= run.generated {
            return false;
        }
        let session_asked = || {
            self.observes_sessions() && run.session_draws.as_ref().is_some_and(|d| d.contains(g.k))
        };
        if g.session && !session_asked() {
            return false;
        }
        match (shards, self.shard()) {
            (Some(all), _) => all.iter().any(|s| s.contains(g.k)),
            (None, Some(s)) => s.contains(g.k),
            (None, None) => true,
        }
    }
}

/// The seed, number and kind (session or not) of a generated case ID: `GEN-7-12`, `GEN-7-S12`.
pub fn generated_case(id: &str) -> Option<(u64, usize, bool)> {
    GeneratedId::parse(id).map(|g| (g.seed, g.k, g.session))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(version: u32, extra: &str) -> String {
        format!(
            r#"{{"report_version": {version}, "profile": "baseline", "implementation": "x"{extra}, "results": []}}"#
        )
    }

    /// An older report says its shard, command, generated count, in-process implementation and
    /// selection only on its command line, which its upgrade reads.
    #[test]
    fn an_older_report_is_read_from_its_command_line() {
        let r = RunReport::parse(&report(
            3,
            r#", "argv": ["autoreview", "check", "--shard=2/4", "--only", "RS-*", "--skip=RS-F1", "--generated", "100", "--", "node", "--shard", "9/9"]"#,
        ))
        .unwrap();
        assert_eq!(r.report_version, crate::report::REPORT_VERSION);
        assert_eq!(r.shard(), Some(Shard { index: 2, of: 4 }));
        assert_eq!(r.generated, 100);
        assert_eq!(r.command, ["node", "--shard", "9/9"]);
        assert_eq!(r.in_process, None);
        assert_eq!(
            (r.selection.only.as_slice(), r.selection.skip.as_slice()),
            (&["RS-*".to_owned()][..], &["RS-F1".to_owned()][..])
        );
        assert_eq!(r.session_draws, None);
        assert_eq!((r.name(), r.version()), ("x", ""));
        let r = RunReport::parse(&report(
            4,
            r#", "argv": ["autoreview", "check", "--implementation", "async-gate", "--no-fixed"]"#,
        ))
        .unwrap();
        assert_eq!(
            r.in_process,
            Some(crate::runner::check::InProcess::AsyncGate)
        );
        assert!(r.selection.no_fixed);
        // Recorded members win, and a recorded null shard is a whole run.
        let r = RunReport::parse(&report(
            4,
            r#", "argv": ["autoreview", "check", "--shard", "2/4"], "shard": null, "command": ["a"], "generated": 0"#,
        ))
        .unwrap();
        assert_eq!((r.shard(), r.generated, r.in_process), (None, 0, None));
        // A report of this version is read as it is: its command line is not read.
        let r = RunReport::parse(&report(
            5,
            r#", "argv": ["autoreview", "check", "--shard", "2/4"]"#,
        ))
        .unwrap();
        assert_eq!((r.shard(), r.in_process), (None, None));
    }

    /// Reports of version 4 that this runner wrote (`tests/reports/`) read, their plan taken
    /// from what they record and, for what they do not, their command lines.
    #[test]
    fn committed_reports_of_version_4_read() {
        use crate::runner::check::InProcess;
        let rc3 = RunReport::parse(include_str!(
            "../../../tests/reports/v4-rc3-model-shard-1-of-2.json"
        ))
        .unwrap();
        assert_eq!(rc3.shard(), Some(Shard { index: 1, of: 2 }));
        assert_eq!((rc3.generated, rc3.seed), (40, Some(7)));
        assert_eq!(rc3.command, ["node", "adapters/node/rc3-model.js"]);
        assert_eq!(
            (rc3.in_process, rc3.selection.only.as_slice()),
            (None, &["RS-F*".to_owned()][..])
        );
        assert_eq!(rc3.results.len(), 16);
        assert_eq!(rc3.generated_passed, 11);
        // Case 0 is in shard 1 and not listed: it passed. Its session draw is not recorded.
        assert!(rc3.results.iter().all(|r| r.id != "GEN-7-0"));
        assert!(rc3.passed_unlisted("GEN-7-0", None));
        assert!(!rc3.passed_unlisted("GEN-7-1", None), "shard 2's");
        assert_eq!(rc3.session_draws, None);
        assert!(!rc3.passed_unlisted("GEN-7-S0", None));
        let gate =
            RunReport::parse(include_str!("../../../tests/reports/v4-async-gate.json")).unwrap();
        assert_eq!(gate.in_process, Some(InProcess::AsyncGate));
        assert_eq!(
            (gate.shard(), gate.generated, gate.seed),
            (None, 16, Some(3))
        );
        assert_eq!(gate.selection.only, ["BL-P1*"]);
        assert!(gate.command.is_empty());
        assert!(gate.passed_unlisted("GEN-3-15", None));
    }

    #[test]
    fn other_versions_and_shapes_are_refused_with_the_reason() {
        let e = RunReport::parse(r#"{"report_version": 2, "results": []}"#).unwrap_err();
        assert!(e.to_string().starts_with("report_version 2: "), "{e}");
        let e = RunReport::parse("[1]").unwrap_err();
        assert!(e.to_string().contains("no numeric report_version"), "{e}");
        let e = RunReport::parse(&report(3, r#", "profile": "nope""#)).unwrap_err();
        assert!(e.to_string().contains("profile"), "{e}");
        let e = RunReport::parse("{").unwrap_err();
        assert!(matches!(e, ReadError::Json(_)), "{e}");
        // What a hostile report could make a reader divide by, or count back from, is refused.
        for (extra, what) in [
            (r#", "shard": {"index": 0, "of": 0}"#, "shard"),
            (r#", "shard": {"index": 3, "of": 2}"#, "shard"),
            (r#", "duration_ms": -1"#, "duration_ms"),
            (r#", "started": "yesterday""#, "started"),
        ] {
            let e = RunReport::parse(&report(5, extra)).unwrap_err();
            assert!(e.to_string().contains(what), "{extra}: {e}");
        }
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

    /// A generated case that is not listed passed, when the run (or this shard of it) drew it,
    /// and a session case when the report records its draw and the implementation observes
    /// sessions.
    #[test]
    fn an_unlisted_generated_case_passed_when_the_run_drew_it() {
        // Cases 1 and 6 of 8 draw a session.
        let run = |observes: &str, draws: &str| {
            RunReport::parse(&report(
                5,
                &format!(
                    r#", "seed": 7, "generated": 8, "shard": {{"index": 2, "of": 2}}, "observes": [{observes}]{draws}"#
                ),
            ))
            .unwrap()
        };
        let r = run(r#""sessions""#, r#", "session_draws": "24""#);
        assert!(r.passed_unlisted("GEN-7-1", None));
        assert!(!r.passed_unlisted("GEN-7-2", None), "another shard's");
        assert!(!r.passed_unlisted("GEN-7-9", None), "beyond the count");
        assert!(!r.passed_unlisted("GEN-8-1", None), "another seed");
        let all = [Shard { index: 1, of: 2 }, Shard { index: 2, of: 2 }];
        assert!(r.passed_unlisted("GEN-7-2", Some(&all)));
        assert!(r.passed_unlisted("GEN-7-S1", None));
        assert!(r.passed_unlisted("GEN-7-S6", Some(&all)));
        assert!(
            !r.passed_unlisted("GEN-7-S3", Some(&all)),
            "no session drawn"
        );
        assert!(
            !run("", r#", "session_draws": "24""#).passed_unlisted("GEN-7-S1", None),
            "no sessions without observing them"
        );
        assert!(
            !run(r#""sessions""#, "").passed_unlisted("GEN-7-S1", None),
            "no sessions known without their draws"
        );
    }
}
