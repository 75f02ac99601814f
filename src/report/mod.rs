//! Every report of a run, in one place. A run renders as a terminal summary (the violated clauses
//! worst first, the failures worst first, a per-area and per-severity table, and last the verdict
//! the exit code gives, `PASS — N passed, N failed, …`), a versioned JSON report, JUnit XML and a
//! Markdown summary for CI step pages, each opening with the violated clauses
//! ([`crate::runner::violations`]). Each counts not-applicable cases apart from passes and
//! failures. The JSON report is one type, [`JsonReport`], written by [`json`] and read back by
//! [`read`], which upgrades the older reports it reads in one place ([`upgrade`]). Many runs side
//! by side, read from their JSON reports, are the [`matrix`].
//!
//! Each format has its file: `terminal.rs`, `json.rs`, `junit.rs`, `markdown.rs`. What they share
//! is here: the tallies, the table of violated clauses, the headline, and the one worst-first
//! order of failures ([`Worst::rank`], the order every report and the matrix list by).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::SystemTime;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::capability::Need;
use crate::difference::Worst;
use crate::runner::violations::Violation;
use crate::runner::{Broken, CaseResult, Difference, Report, Severity, Status, Verdict, worddiff};

mod json;
mod junit;
mod markdown;
pub mod matrix;
mod terminal;

pub use json::{
    AreaTally, JsonReport, READS, REPORT_VERSION, ReadError, Summary, json, read, timestamp,
    upgrade,
};
pub(crate) use json::{
    deserialize_millis, deserialize_needs, deserialize_timestamp, epoch, oracle_reference,
    serialize_timestamp,
};
pub use junit::{junit, xml_text};
pub use markdown::{append_markdown, code_span, markdown, md_text};
pub use terminal::{Color, text};

/// What a not-applicable case needs: `needs sessions`, `needs sessions and deny-reason`.
pub fn needs_text(missing: &[Need]) -> String {
    let names: Vec<&str> = missing.iter().map(|o| o.as_str()).collect();
    match names.as_slice() {
        [] => "needs nothing it lacks".to_owned(),
        [one] => format!("needs {one}"),
        [rest @ .., last] => format!("needs {} and {last}", rest.join(", ")),
    }
}

/// The order failures are listed in: the one worst-first order ([`Worst::rank`]), unexpected
/// passes last.
fn rank(r: &CaseResult) -> u8 {
    r.worst().map_or(u8::MAX, |w| w.rank())
}

/// The results a report lists as failures (those that fail the run, and unexpected passes), in
/// the order of [`rank`]: what the terminal and Markdown reports both list.
fn failing_worst_first(report: &Report) -> Vec<&CaseResult> {
    let mut failing: Vec<&CaseResult> = report
        .results
        .iter()
        .filter(|r| matches!(r.status, Status::Fail | Status::UnexpectedPass))
        .collect();
    failing.sort_by_key(|r| rank(r));
    failing
}

impl CaseResult {
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
        if let Some(s) = self.worst_severity() {
            return Some(Worst::Severity(s));
        }
        match &self.verdict {
            Verdict::Broken { error } => Some(Worst::Broken(error.kind.as_str().to_owned())),
            _ => None,
        }
    }

    /// The worst severity of the case's differences, if it failed with differences.
    pub fn worst_severity(&self) -> Option<Severity> {
        self.verdict.worst()
    }

    /// A short label: `PASS`, the worst severity, or the kind of breakage.
    pub fn label(&self) -> String {
        match &self.verdict {
            Verdict::Pass => "PASS".into(),
            Verdict::Fail { .. } => self
                .worst_severity()
                .map(|s| s.to_string())
                .unwrap_or_default(),
            Verdict::Broken { error } => error.kind.as_str().to_uppercase(),
            Verdict::NotApplicable { .. } => "NOT APPLICABLE".into(),
        }
    }

    /// The lines that say why the case failed ([`detail_lines`]).
    fn detail_lines(&self, max: usize, terminal: Option<bool>) -> Vec<String> {
        detail_lines(&self.verdict, max, terminal)
    }
}

/// The lines that say why a case failed with `verdict`, at most `max` differences or stderr lines.
/// With `terminal`, texts show as word-level differences (coloured when `terminal` is
/// `Some(true)`) and control characters as escapes; without, in full.
fn detail_lines(verdict: &Verdict, max: usize, terminal: Option<bool>) -> Vec<String> {
    let shown = |s: &str| match terminal {
        Some(_) => worddiff::visible(s),
        None => s.to_owned(),
    };
    let mut out = Vec::new();
    match verdict {
        Verdict::Pass => {}
        Verdict::NotApplicable { missing } => {
            out.push(format!("not applicable: {}", needs_text(missing)));
        }
        Verdict::Fail { differences } => {
            for d in differences.iter().take(max) {
                out.push(match terminal {
                    Some(color) => terminal::terminal_difference(d, color),
                    None => d.to_string(),
                });
            }
            if differences.len() > max {
                out.push(format!("… and {} more", differences.len() - max));
            }
        }
        Verdict::Broken { error } => {
            out.push(shown(&error.message));
            for l in error.stderr.iter().take(max) {
                out.push(format!("stderr: {}", shown(l)));
            }
            if error.stderr.len() > max {
                out.push(format!(
                    "… and {} more stderr lines",
                    error.stderr.len() - max
                ));
            }
        }
    }
    out
}

/// Renders `verdict` as every report renders a case's verdict (the terminal's lines, plain and
/// coloured, the JUnit body, the Markdown line), every difference and stderr line of it, and
/// drops the text. Judging a case ends with it ([`crate::runner::judged`]), so that a verdict whose
/// rendering panics is caught with its case instead of ending the run when a report is written.
pub(crate) fn render_verdict(verdict: &Verdict) {
    for terminal in [Some(false), Some(true)] {
        let _ = detail_lines(verdict, usize::MAX, terminal);
    }
    let _ = xml_text(&detail_lines(verdict, usize::MAX, None).join("\n"));
    let _ = markdown::md_verdict(verdict);
}

/// Counts for one area (or the total).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct StatusCounts {
    /// Cases.
    pub cases: usize,
    /// Passed.
    pub passed: usize,
    /// Failed, not expected.
    pub failed: usize,
    /// Failed as expected.
    pub expected_failures: usize,
    /// Passed although expected to fail.
    pub unexpected_passes: usize,
    /// Not run: the implementation does not observe what they need.
    pub not_applicable: usize,
    /// Failures by worst severity.
    pub by_severity: BTreeMap<Severity, usize>,
    /// Cases without an outcome, by kind.
    pub broken: BTreeMap<Broken, usize>,
}

impl StatusCounts {
    /// The headings of [`StatusCounts::columns`], as the terminal and Markdown tables show them.
    const COLUMNS: [&'static str; 13] = [
        "cases", "pass", "fail", "n/a", "SAFETY", "BOUNDS", "DECISION", "ORDER", "TEXT", "INFO",
        "broken", "xfail", "xpass",
    ];

    /// Where the severities' columns begin in [`StatusCounts::COLUMNS`]: one per severity, worst
    /// first, as [`Severity::ALL`] has them.
    const FIRST_SEVERITY: usize = 4;

    /// What the columns of [`StatusCounts::COLUMNS`] count, the lines under each summary table.
    const LEGEND: [&'static str; 3] = [
        "fail: failures that fail the run; n/a: not applicable, not sent (needs what the \
         implementation does not observe or lacks)",
        "SAFETY, BOUNDS, DECISION, ORDER, TEXT, INFO: failed cases by their worst difference \
         (SAFETY: a body ran that nothing allowed; BOUNDS: one ran on an allow the spec does not \
         let count there); broken: failed cases with no outcome (a crash, a timeout, a protocol \
         error)",
        "xfail: failures --expect lists; xpass: passes of cases --expect lists as failures",
    ];

    /// The counts a summary table shows for this tally, in [`StatusCounts::COLUMNS`] order.
    fn columns(&self) -> [usize; 13] {
        let sev = |s: Severity| self.by_severity.get(&s).copied().unwrap_or(0);
        [
            self.cases,
            self.passed,
            self.failed,
            self.not_applicable,
            sev(Severity::Safety),
            sev(Severity::Bounds),
            sev(Severity::Decision),
            sev(Severity::Order),
            sev(Severity::Text),
            sev(Severity::Info),
            self.broken.values().sum(),
            self.expected_failures,
            self.unexpected_passes,
        ]
    }

    fn add(&mut self, r: &CaseResult) {
        self.cases += 1;
        match r.status {
            Status::Pass => self.passed += 1,
            Status::Fail => self.failed += 1,
            Status::ExpectedFail => self.expected_failures += 1,
            Status::UnexpectedPass => self.unexpected_passes += 1,
            Status::NotApplicable => self.not_applicable += 1,
        }
        if let Some(s) = r.worst_severity() {
            *self.by_severity.entry(s).or_default() += 1;
        }
        if let Verdict::Broken { error } = &r.verdict {
            *self.broken.entry(error.kind).or_default() += 1;
        }
    }
}

/// Per-area tallies in the order areas first appear, and the total.
pub fn tallies(report: &Report) -> (Vec<(String, StatusCounts)>, StatusCounts) {
    let mut areas: Vec<(String, StatusCounts)> = Vec::new();
    let mut total = StatusCounts::default();
    for r in &report.results {
        let i = match areas.iter().position(|(a, _)| a == &r.area) {
            Some(i) => i,
            None => {
                areas.push((r.area.clone(), StatusCounts::default()));
                areas.len() - 1
            }
        };
        areas[i].1.add(r);
        total.add(r);
    }
    // Generated cases that passed, or needed a capability the implementation lacks, are only
    // counted (memory stays flat over a million of them).
    for (n, applicable) in [
        (report.generated_passed, true),
        (report.generated_not_applicable, false),
    ] {
        if n == 0 {
            continue;
        }
        let i = match areas.iter().position(|(a, _)| a == "generated") {
            Some(i) => i,
            None => {
                areas.push(("generated".to_owned(), StatusCounts::default()));
                areas.len() - 1
            }
        };
        for t in [&mut areas[i].1, &mut total] {
            t.cases += n;
            match applicable {
                true => t.passed += n,
                false => t.not_applicable += n,
            }
        }
    }
    (areas, total)
}

/// The headings of the table of violated clauses every report opens with.
const VIOLATION_COLUMNS: [&str; 6] = [
    "clause",
    "severity",
    "level",
    "cases",
    "first case",
    "counterexample",
];

/// The table of violated clauses, worst first, as plain cells in [`VIOLATION_COLUMNS`] order:
/// the clause, its worst severity, the weakest level at which it shows, how many cases break it
/// (the expected failures among them apart), the first of them, and how to repeat its
/// counterexample (the implementation's repro line, or the reference's for one in process).
fn violation_rows(report: &Report, violations: &[Violation]) -> Vec<[String; 6]> {
    violations
        .iter()
        .map(|v| {
            let cases = match v.expected_failures {
                0 => v.cases.to_string(),
                n => format!("{} ({n} expected)", v.cases),
            };
            let counterexample = v
                .counterexample
                .and_then(|i| report.counterexamples.get(i))
                .map(|f| {
                    let line = f
                        .repro
                        .implementation
                        .as_ref()
                        .unwrap_or(&f.repro.reference);
                    format!("from {}: {line}", f.id)
                })
                .unwrap_or_else(|| "none".to_owned());
            [
                v.clause.clone(),
                v.severity.to_string(),
                v.level.to_string(),
                cases,
                v.first_case.clone(),
                counterexample,
            ]
        })
        .collect()
}

/// The cases not applicable to the implementation, by what they need, with their IDs (at most
/// ten per need), each ID shown through `show`; `None` when every case applied.
fn not_applicable_line(report: &Report, show: &dyn Fn(&str) -> String) -> Option<String> {
    let mut by_need: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for r in &report.results {
        if let Verdict::NotApplicable { missing } = &r.verdict {
            by_need.entry(needs_text(missing)).or_default().push(&r.id);
        }
    }
    if by_need.is_empty() && report.generated_not_applicable == 0 {
        return None;
    }
    let observes = match report.observes.as_slice() {
        [] => "nothing beyond protocol 1".to_owned(),
        o => o.iter().map(|o| o.as_str()).collect::<Vec<_>>().join(", "),
    };
    let lacks = match report.lacks.as_slice() {
        [] => String::new(),
        l => format!(
            " and lacks {}",
            l.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", ")
        ),
    };
    let mut groups: Vec<String> = by_need
        .iter()
        .map(|(need, ids)| {
            let mut shown: Vec<String> = ids.iter().take(10).map(|id| show(id)).collect();
            if ids.len() > 10 {
                shown.push(format!("… {} more", ids.len() - 10));
            }
            format!("{} {need} ({})", ids.len(), shown.join(", "))
        })
        .collect();
    if report.generated_not_applicable > 0 {
        groups.push(format!(
            "{} generated cases need what it lacks",
            report.generated_not_applicable
        ));
    }
    Some(format!(
        "not applicable (the implementation observes {observes}{lacks}): {}",
        groups.join("; ")
    ))
}

/// What the run covered, in one line: `covered (resilient profile): judged 88 of the 101 MUST
/// clauses (87.1%); not judged: AR-…, …, … 3 more (the JSON report's coverage.unjudged lists
/// them all)`.
pub fn coverage_line(report: &Report) -> String {
    let c = report.coverage();
    let mut line = format!("covered ({} profile): {c}", report.profile);
    if !c.unjudged.is_empty() {
        const SHOWN: usize = 10;
        let mut shown = c.unjudged[..c.unjudged.len().min(SHOWN)].join(", ");
        if c.unjudged.len() > SHOWN {
            let _ = write!(
                shown,
                ", … {} more (the JSON report's coverage.unjudged lists them all)",
                c.unjudged.len() - SHOWN
            );
        }
        let _ = write!(line, "; not judged: {shown}");
    }
    line
}

/// The run's verdict as the exit code gives it, then the counts behind it:
/// `PASS — 45 passed, 0 failed, 12 not applicable, 151 expected failures` or `FAIL — …`, or
/// `NOTHING RUN — 0 passed, 0 failed, 12 not applicable` when every case was not applicable (exit
/// code 4). "failed" counts only the failures that fail the run; not-applicable cases, expected
/// failures and unexpected passes follow when there are any, and stale expectations under
/// `strict`, where they fail the run.
pub fn headline(report: &Report, strict: bool) -> String {
    let counted = |n: usize, one: &str, many: &str| {
        (n > 0).then(|| format!("{n} {}", if n == 1 { one } else { many }))
    };
    let mut parts = vec![
        format!("{} passed", report.passed()),
        format!("{} failed", report.failed()),
    ];
    parts.extend(counted(
        report.not_applicable(),
        "not applicable",
        "not applicable",
    ));
    parts.extend(counted(
        report.count(Status::ExpectedFail),
        "expected failure",
        "expected failures",
    ));
    parts.extend(counted(
        report.count(Status::UnexpectedPass),
        "unexpected pass",
        "unexpected passes",
    ));
    if strict {
        parts.extend(counted(
            report.stale_expectations.len(),
            "stale expectation",
            "stale expectations",
        ));
    }
    let coverage = report.coverage();
    if let (false, Some(required)) = (coverage.met(), coverage.required) {
        parts.push(format!(
            "{} of the MUST clauses judged, below the required {required}",
            coverage.share()
        ));
    }
    let verdict = if report.ran() == 0 {
        "NOTHING RUN"
    } else if report.succeeded(strict) {
        "PASS"
    } else {
        "FAIL"
    };
    format!("{verdict} — {}", parts.join(", "))
}

/// A case with `status` of a [`specimen`] run, failing with a broken verdict unless it passes.
fn specimen_case(id: &str, status: Status) -> CaseResult {
    let passed = matches!(status, Status::Pass | Status::UnexpectedPass);
    let verdict = if passed {
        Verdict::Pass
    } else {
        Verdict::Broken {
            error: crate::runner::ImplError::new(Broken::Error, "no outcome"),
        }
    };
    let listed = matches!(status, Status::ExpectedFail | Status::UnexpectedPass);
    specimen_result(id, verdict, listed)
}

/// A case of a [`specimen`] run with `verdict`, `listed` as an expected failure or not.
pub(crate) fn specimen_result(id: &str, verdict: Verdict, listed: bool) -> CaseResult {
    let subject = crate::runner::Subject {
        id: id.into(),
        area: "area".into(),
        title: format!("case {id}"),
        clauses: Vec::new(),
        row: None,
    };
    CaseResult::new(
        subject,
        verdict,
        listed
            .then(|| crate::runner::known_failures::Entry::because("listed"))
            .as_ref(),
        std::time::Duration::from_millis(3),
    )
}

/// A [`specimen`] run of `results`, listing `stale` expectations.
fn specimen_run(results: Vec<CaseResult>, stale: &[&str]) -> Report {
    Report {
        profile: crate::profile::Profile::BASELINE,
        implementation: "test".into(),
        implementation_info: None,
        command: Vec::new(),
        canonical: false,
        in_process: None,
        oracle: crate::runner::Oracle::Reference,
        level: crate::conformance::Level::Full,
        selection: crate::runner::check::Selection::default(),
        shard: None,
        generated: 0,
        session_draws: None,
        protocol: None,
        observes: Vec::new(),
        lacks: Vec::new(),
        features: Vec::new(),
        started: SystemTime::UNIX_EPOCH,
        duration: std::time::Duration::from_millis(10),
        seed: None,
        argv: Vec::new(),
        results,
        generated_passed: 0,
        generated_not_applicable: 0,
        generated_clauses: Vec::new(),
        required_coverage: None,
        stale_expectations: stale.iter().map(|s| (*s).to_owned()).collect(),
        messages: None,
        counterexamples: Vec::new(),
    }
}

/// A run of five cases (`PASS-1`, `FAIL-1` with one TEXT difference at `/result/text` naming the
/// clause `clause <expected>`,
/// `BROKEN-1`, `XFAIL-1` and `XPASS-1`) and a stale expectation, whose free texts hold
/// `expected` (the implementation's description, the failing case's title, its difference's
/// expected text and rule, the broken case's message, the expected failure's reason) or `actual`
/// (the difference's actual text, the broken case's stderr): what the report writers are tested
/// and fuzzed on (`fuzz/fuzz_targets/report_writers.rs`).
#[doc(hidden)]
pub fn specimen(expected: &str, actual: &str) -> Report {
    let mut fail = specimen_case("FAIL-1", Status::Fail);
    fail.title = format!("title {expected}");
    fail.verdict = Verdict::Fail {
        differences: vec![Difference {
            clauses: vec![format!("clause {expected}")],
            severity: Severity::Text,
            pointer: "/result/text".into(),
            expected: serde_json::Value::String(format!("expected {expected}")),
            actual: serde_json::Value::String(format!("actual {actual}")),
            rule: Some(format!("rule {expected}")),
        }],
    };
    let mut broken = specimen_case("BROKEN-1", Status::Fail);
    broken.verdict = Verdict::Broken {
        error: crate::runner::ImplError {
            kind: Broken::ProtocolError,
            message: format!("message {expected}"),
            stderr: vec![format!("stderr {actual}")],
        },
    };
    let mut xfail = specimen_case("XFAIL-1", Status::ExpectedFail);
    xfail.expected_failure = Some(format!("reason {expected}"));
    let mut r = specimen_run(
        vec![
            specimen_case("PASS-1", Status::Pass),
            fail,
            broken,
            xfail,
            specimen_case("XPASS-1", Status::UnexpectedPass),
        ],
        &["STALE-1"],
    );
    r.implementation = format!("gate {expected}");
    r.protocol = Some(1);
    r.seed = Some(7);
    r
}

#[cfg(test)]
pub(crate) mod tests {
    use std::cell::RefCell;

    use proptest::prelude::*;

    use super::{specimen_case as case, specimen_run as report, *};
    use crate::runner::Verdict;

    thread_local! {
        /// A text whose rendering as a difference panics on this thread, to test what such a
        /// panic costs.
        static PANICS: RefCell<Option<String>> = const { RefCell::new(None) };
    }

    /// Until the guard is dropped, a difference whose actual value holds `text` panics when it is
    /// rendered for the terminal (on this thread).
    pub(crate) fn panics_rendering(text: &str) -> impl Drop {
        struct Unmark;
        impl Drop for Unmark {
            fn drop(&mut self) {
                PANICS.with(|p| p.borrow_mut().take());
            }
        }
        PANICS.with(|p| *p.borrow_mut() = Some(text.to_owned()));
        Unmark
    }

    /// Panics if `d` holds the text [`panics_rendering`] set.
    pub(super) fn panic_if_marked(d: &Difference) {
        let marked = PANICS.with(|p| {
            p.borrow()
                .as_deref()
                .is_some_and(|t| d.actual.as_str().is_some_and(|a| a.contains(t)))
        });
        if marked {
            panic!("a panic injected into the rendering of a difference");
        }
    }

    /// Every column a summary table shows but `cases` and `pass` is explained in the legend under
    /// it, in the terminal and in Markdown, and the terminal's last lines say what was compared
    /// with what.
    #[test]
    fn the_summary_explains_its_columns_and_what_was_compared() {
        // One column per severity, in the one worst-first order.
        let at = StatusCounts::FIRST_SEVERITY;
        assert_eq!(
            StatusCounts::COLUMNS[at..at + Severity::ALL.len()],
            Severity::ALL.map(Severity::as_str)
        );
        let r = report(vec![case("A", Status::Pass)], &[]);
        let (terminal, md) = (text(&r, false, false), markdown(&r, false));
        let legend = StatusCounts::LEGEND.join(" ");
        for column in &StatusCounts::COLUMNS[2..] {
            assert!(
                legend.contains(&format!("{column}:")) || legend.contains(&format!("{column},")),
                "{column}"
            );
        }
        for l in StatusCounts::LEGEND {
            assert!(terminal.contains(l), "{terminal}");
            assert!(md.contains(&md_text(l, l.len())), "{md}");
        }
        let last: Vec<&str> = terminal.lines().rev().take(2).collect();
        assert_eq!(
            last[1],
            "compared: test with the reference engine's outcome for the same scenario, profile \
             baseline, level full: 1 fixed case"
        );
        assert!(
            md.contains("compared with the reference engine's outcome"),
            "{md}"
        );
    }

    /// The headline says what the exit code says, and "failed" counts only what fails the run.
    #[test]
    fn the_headline_states_the_exit_codes_verdict() {
        use Status::*;
        let xfail = report(
            vec![
                case("A", Pass),
                case("B", ExpectedFail),
                case("C", ExpectedFail),
            ],
            &[],
        );
        assert_eq!(
            headline(&xfail, false),
            "PASS — 1 passed, 0 failed, 2 expected failures"
        );
        let failing = report(vec![case("A", Pass), case("B", Fail)], &[]);
        assert_eq!(headline(&failing, false), "FAIL — 1 passed, 1 failed");
        let xpass = report(vec![case("A", Pass), case("B", UnexpectedPass)], &["GONE"]);
        assert_eq!(
            headline(&xpass, false),
            "PASS — 1 passed, 0 failed, 1 unexpected pass"
        );
        assert_eq!(
            headline(&xpass, true),
            "FAIL — 1 passed, 0 failed, 1 unexpected pass, 1 stale expectation"
        );
        let stale = report(vec![case("A", Pass)], &["GONE", "OLD"]);
        assert_eq!(
            headline(&stale, true),
            "FAIL — 1 passed, 0 failed, 2 stale expectations"
        );
        // The terminal's last line and the Markdown say the same.
        for strict in [false, true] {
            for r in [&xfail, &failing, &xpass, &stale] {
                let line = headline(r, strict);
                assert_eq!(text(r, strict, false).lines().last(), Some(line.as_str()));
                assert!(markdown(r, strict).contains(&format!("**{line}**")));
                assert_eq!(line.starts_with("PASS"), r.succeeded(strict));
            }
        }
    }

    /// A case not applicable to the implementation, lacking `missing`.
    fn not_applicable(id: &str, missing: &[Need]) -> CaseResult {
        let verdict = Verdict::NotApplicable {
            missing: missing.to_vec(),
        };
        super::specimen_result(id, verdict, false)
    }

    /// Not-applicable cases are counted apart: neither passed nor failed, and a run of nothing
    /// else ran nothing, which no report calls a pass.
    #[test]
    fn not_applicable_cases_are_counted_apart_in_every_report() {
        use crate::capability::Observable;
        let [sessions, requests, session_log, _, _, _, _, _] =
            Observable::ALL.map(Need::Observable);
        let mixed = report(
            vec![
                case("A", Status::Pass),
                not_applicable("S-1", &[sessions]),
                not_applicable("S-2", &[sessions, requests]),
                case("B", Status::ExpectedFail),
            ],
            &[],
        );
        assert_eq!((mixed.passed(), mixed.failed()), (1, 0));
        assert_eq!(
            (mixed.not_applicable(), mixed.ran(), mixed.cases()),
            (2, 2, 4)
        );
        assert!(mixed.succeeded(true));
        assert_eq!(
            headline(&mixed, false),
            "PASS — 1 passed, 0 failed, 2 not applicable, 1 expected failure"
        );
        let (_, total) = tallies(&mixed);
        assert_eq!((total.cases, total.not_applicable, total.passed), (4, 2, 1));
        let terminal = text(&mixed, false, false);
        assert!(
            terminal.contains(
                "not applicable (the implementation observes nothing beyond protocol 1): \
                 1 needs sessions (S-1); 1 needs sessions and requests (S-2)"
            ),
            "{terminal}"
        );
        assert!(
            !terminal.contains("NOT APPLICABLE S-1"),
            "not listed as a failure"
        );
        let md = markdown(&mixed, false);
        assert!(md.contains("1 needs sessions (`S-1`)"), "{md}");
        let xml = junit(&mixed, false).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let skipped: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("skipped"))
            .filter_map(|n| n.attribute("message"))
            .collect();
        assert_eq!(
            skipped,
            [
                "not applicable: needs sessions",
                "not applicable: needs sessions and requests",
                "expected failure: listed"
            ]
        );
        let v: serde_json::Value = serde_json::from_str(&json(&mixed, false)).unwrap();
        assert_eq!(v["summary"]["total"]["not_applicable"], 2);
        assert_eq!(
            v["results"][2]["missing"],
            serde_json::json!(["sessions", "requests"])
        );

        let none_ran = report(vec![not_applicable("S-1", &[session_log])], &[]);
        assert!(!none_ran.succeeded(false));
        for strict in [false, true] {
            let line = headline(&none_ran, strict);
            assert_eq!(line, "NOTHING RUN — 0 passed, 0 failed, 1 not applicable");
            assert_eq!(
                text(&none_ran, strict, false).lines().last(),
                Some(line.as_str())
            );
            assert!(markdown(&none_ran, strict).contains(&format!("**{line}**")));
        }
    }

    /// Cases needing a capability the implementation lacks are not applicable too, whether fixed
    /// (listed, with the capability named) or generated (counted in every report).
    #[test]
    fn capabilities_lacked_are_named_and_generated_cases_counted() {
        use crate::capability::Capability;
        let mut r = report(
            vec![
                case("A", Status::Pass),
                not_applicable("RS-1", &[Need::Capability(Capability::DenyReason)]),
            ],
            &[],
        );
        r.lacks = vec![Capability::DenyReason, Capability::AbortSignal];
        r.generated_passed = 5;
        r.generated_not_applicable = 3;
        assert_eq!((r.passed(), r.not_applicable(), r.cases()), (6, 4, 10));
        assert_eq!(
            headline(&r, false),
            "PASS — 6 passed, 0 failed, 4 not applicable"
        );
        let terminal = text(&r, false, false);
        assert!(
            terminal.contains(
                "not applicable (the implementation observes nothing beyond protocol 1 and lacks \
                 deny-reason, abort-signal): 1 needs deny-reason (RS-1); 3 generated cases need \
                 what it lacks"
            ),
            "{terminal}"
        );
        let v: serde_json::Value = serde_json::from_str(&json(&r, false)).unwrap();
        assert_eq!(v["report_version"], REPORT_VERSION);
        assert_eq!(
            v["lacks"],
            serde_json::json!(["deny-reason", "abort-signal"])
        );
        assert_eq!(v["generated_not_applicable"], 3);
        assert_eq!(
            v["results"][1]["missing"],
            serde_json::json!(["deny-reason"])
        );
        assert_eq!(v["summary"]["total"]["not_applicable"], 4);
        let xml = junit(&r, false).unwrap();
        assert!(
            xml.contains("3 generated cases not applicable"),
            "one skipped case stands for the generated ones: {xml}"
        );
        assert!(markdown(&r, false).contains("lacks deny-reason, abort-signal"));
    }

    /// Every character XML 1.0 forbids, and the text that breaks hand-written XML.
    pub(super) fn hostile() -> String {
        let mut s: String = (0u32..0x20)
            .filter(|c| !matches!(c, 0x09 | 0x0A | 0x0D))
            .filter_map(char::from_u32)
            .collect();
        s.push_str("\u{FFFE}\u{FFFF} ]]> <tool_call> *x* _y_ ~~z~~ $a$ [l](u) :+1: @user #1 ");
        s.push_str("&amp; & \" ' \x1b[31mred\x1b[0m\t\r\n`x`|");
        s
    }

    /// A report whose every free text (titles, reasons, differences, adapter messages and stderr,
    /// the implementation's description) carries [`hostile`] text.
    pub(super) fn hostile_report() -> Report {
        specimen(&hostile(), &hostile())
    }

    /// A run whose cases break two clauses, one only in an expected failure, and a third case
    /// whose difference names none; one counterexample, shrunk for the first clause.
    pub(super) fn violating() -> Report {
        use crate::runner::violations::tests::difference;
        let fail = |id: &str, listed: bool, d: Vec<Difference>| {
            super::specimen_result(id, Verdict::Fail { differences: d }, listed)
        };
        let mut r = report(
            vec![
                fail(
                    "RS-1",
                    false,
                    vec![difference(
                        Severity::Info,
                        "/review/requests",
                        &["AR-RES-REQUEST-1"],
                    )],
                ),
                fail(
                    "RS-2",
                    false,
                    vec![difference(
                        Severity::Info,
                        "/review/requests",
                        &["AR-RES-REQUEST-1"],
                    )],
                ),
                fail(
                    "RS-3",
                    true,
                    vec![difference(
                        Severity::Decision,
                        "/listener/kind",
                        &["AR-RES-4"],
                    )],
                ),
                fail(
                    "RS-4",
                    false,
                    vec![difference(Severity::Text, "/result/text", &[])],
                ),
                case("PASS-1", Status::Pass),
            ],
            &[],
        );
        let mut found: crate::runner::generated::Found = serde_json::from_value(serde_json::json!({
            "id": "RS-1", "verdict": "pass", "clauses": ["AR-RES-REQUEST-1"],
            "repro": {"reference": "printf '%s\\n' '{}' | autoreview decide --profile resilient",
                      "implementation": "printf '%s\\n' hello decide | ./gate"}
        }))
        .unwrap();
        found.steps = 4;
        r.counterexamples = vec![found];
        r
    }

    /// Every report opens with the violated clauses, worst first, before the cases: the JSON's
    /// `violations`, the terminal's and the Markdown's table, JUnit's `violations` suite (a
    /// clause only expected failures break is skipped there).
    #[test]
    fn every_report_leads_with_the_violated_clauses() {
        let r = violating();
        let v: serde_json::Value = serde_json::from_str(&json(&r, false)).unwrap();
        assert_eq!(
            v["violations"],
            serde_json::json!([
                {"clause": "AR-RES-4", "level": "decisions", "severity": "DECISION", "cases": 1,
                 "expected_failures": 1, "first_case": "RS-3", "counterexample": null},
                {"clause": "unattributed", "level": "texts", "severity": "TEXT", "cases": 1,
                 "expected_failures": 0, "first_case": "RS-4", "counterexample": null},
                {"clause": "AR-RES-REQUEST-1", "level": "full", "severity": "INFO", "cases": 2,
                 "expected_failures": 0, "first_case": "RS-1", "counterexample": 0},
            ])
        );
        let back = read(&json(&r, false)).unwrap();
        assert_eq!(back.violations, r.violations());

        let terminal = text(&r, false, false);
        let head: Vec<&str> = terminal.lines().skip(3).take(5).collect();
        assert_eq!(
            head,
            [
                "3 violated clauses, worst first:",
                "  clause           severity level              cases first case counterexample",
                "  AR-RES-4         DECISION decisions 1 (1 expected) RS-3       none",
                "  unattributed     TEXT     texts                  1 RS-4       none",
                "  AR-RES-REQUEST-1 INFO     full                   2 RS-1       from RS-1: printf '%s\\n' hello decide | ./gate",
            ],
            "{terminal}"
        );
        assert!(
            terminal.find("AR-RES-REQUEST-1").unwrap() < terminal.find("INFO RS-1").unwrap(),
            "the clauses before the cases:\n{terminal}"
        );

        let md = markdown(&r, false);
        markdown_holds(&md, &[]);
        let table = md
            .find("| clause | severity |")
            .expect("the clauses' table");
        assert!(table < md.find("| area |").unwrap(), "{md}");
        assert!(
            md.contains(
                "| AR-RES-REQUEST-1 | INFO | full | 2 | RS-1 | from RS-1\\: printf '%s\\\\n' hello decide \\| ./gate |"
            ),
            "{md}"
        );

        let xml = junit(&r, false).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let suite = doc
            .descendants()
            .find(|n| n.has_tag_name("testsuite"))
            .unwrap();
        assert_eq!(suite.attribute("name"), Some("violations"));
        let cases: Vec<(&str, String)> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .map(|c| {
                let status = c.children().find(|n| n.is_element()).unwrap();
                (
                    c.attribute("name").unwrap(),
                    format!(
                        "{} {}",
                        status.tag_name().name(),
                        status.attribute("type").unwrap_or_default()
                    ),
                )
            })
            .collect();
        assert_eq!(
            cases,
            [
                ("AR-RES-4", "skipped ".to_owned()),
                ("unattributed", "failure TEXT".to_owned()),
                ("AR-RES-REQUEST-1", "failure INFO".to_owned()),
            ]
        );
        assert!(xml.contains("2 cases break it, first RS-1; at level full and above"));
        assert!(xml.contains("counterexample: from RS-1: printf"), "{xml}");
    }

    /// Markdown as GitHub renders it (tables and strikethrough on): the events of `md`, and its
    /// text with code spans, as a reader sees it.
    fn rendered(md: &str) -> (Vec<pulldown_cmark::Event<'_>>, String) {
        use pulldown_cmark::{Event, Options, Parser};
        let events: Vec<Event> =
            Parser::new_ext(md, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH).collect();
        let text = events
            .iter()
            .filter_map(|e| match e {
                Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                _ => None,
            })
            .collect::<String>();
        (events, text)
    }

    /// Checks that `md`, as GitHub renders it, shows each of `shown` literally, makes no markup of
    /// any text (no HTML but the tags the writer uses, no emphasis, strikethrough, link or image),
    /// holds no terminal colour, and gives every table row the area cell and the 12 counts.
    pub(crate) fn markdown_holds(md: &str, shown: &[String]) {
        use pulldown_cmark::{Event, Tag, TagEnd};
        let (events, text) = rendered(md);
        for shown in shown {
            assert!(
                text.contains(shown.as_str()),
                "{shown:?} not shown in {text:?}\n{md}"
            );
        }
        let allowed = [
            "<details>",
            "<summary>",
            "</summary>",
            "</details>",
            "<del>",
            "</del>",
            "<ins>",
            "</ins>",
        ];
        let mut cells = 0;
        let mut rows = Vec::new();
        for e in &events {
            match e {
                Event::Html(h) | Event::InlineHtml(h) => assert!(
                    allowed.iter().any(|t| h.trim().starts_with(t)),
                    "HTML from text: {h:?}\n{md}"
                ),
                Event::Start(
                    Tag::Emphasis | Tag::Strikethrough | Tag::Link { .. } | Tag::Image { .. },
                ) => panic!("markup from text: {e:?}\n{md}"),
                Event::Start(Tag::TableCell) => cells += 1,
                Event::End(TagEnd::TableRow | TagEnd::TableHead) => {
                    rows.push(cells);
                    cells = 0;
                }
                _ => {}
            }
        }
        assert!(!md.contains('\u{1b}'), "no terminal colours in Markdown");
        // The summary's rows, after those of the violated clauses when some are.
        let violations = rows.iter().take_while(|n| **n == 6).count();
        assert!(
            violations != 1
                && rows.len() >= violations + 3
                && rows[violations..]
                    .iter()
                    .all(|n| *n == StatusCounts::COLUMNS.len() + 1),
            "{rows:?}\n{md}"
        );
    }

    /// Checks that `xml` parses with a strict parser and that its texts or attributes hold each
    /// of `shown` (in an attribute, a line feed reads as a space, as XML normalizes it).
    fn junit_holds(xml: &str, shown: &[String]) {
        let doc =
            roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("invalid XML ({e}):\n{xml}"));
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        let attributes: Vec<&str> = doc
            .descendants()
            .flat_map(|n| n.attributes())
            .map(|a| a.value())
            .collect();
        for shown in shown {
            let attribute = shown.replace('\n', " ");
            assert!(
                texts.iter().any(|t| t.contains(shown.as_str()))
                    || attributes.iter().any(|a| a.contains(&attribute)),
                "{shown:?} in {texts:?} {attributes:?}"
            );
        }
    }

    /// Arbitrary text as an implementation could send it: any character, weighted toward every
    /// class of whitespace (U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F,
    /// U+205F, U+3000, U+FEFF), combining marks, U+FFFD (what a lone surrogate half is read as),
    /// control characters, markup characters and CJK; now and then a very long line.
    pub(crate) fn any_text() -> impl Strategy<Value = String> {
        static SPACES: [char; 22] = [
            ' ', '\t', '\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{a0}', '\u{1680}', '\u{2000}',
            '\u{2003}', '\u{2007}', '\u{200a}', '\u{200b}', '\u{2028}', '\u{2029}', '\u{202f}',
            '\u{205f}', '\u{3000}', '\u{feff}', '\u{180e}', '\u{fffd}',
        ];
        static MARKUP: [char; 20] = [
            '<', '>', '&', '*', '_', '[', ']', '(', ')', '`', '|', '~', '$', ':', '@', '!', '#',
            '\\', '"', '\'',
        ];
        let ch = prop_oneof![
            4 => any::<char>(),
            4 => proptest::sample::select(&SPACES[..]),
            2 => proptest::char::range('\u{300}', '\u{36f}'),
            2 => proptest::char::range('\u{0}', '\u{1f}'),
            1 => proptest::char::range('\u{7f}', '\u{9f}'),
            2 => proptest::sample::select(&MARKUP[..]),
            3 => proptest::char::range('\u{4e00}', '\u{9fff}'),
            4 => proptest::char::range('a', 'z'),
        ];
        let short = proptest::collection::vec(ch, 0..40).prop_map(String::from_iter);
        prop_oneof![
            12 => short.clone(),
            1 => (short, 50usize..500).prop_map(|(s, n)| s.repeat(n)),
        ]
    }

    /// Checks every writer on `r`: the terminal text holds no control character but line feeds
    /// (and colour codes when coloured) and shows each of `shown` (a title or message, shown in
    /// full); the Markdown shows them literally (up to its 300 characters); the JUnit parses and
    /// holds them; the JSON reads back with every result as it is, and the matrix reads it and
    /// writes its page, Markdown, badges and comparison.
    pub(crate) fn writers_hold(r: &Report, shown: &[String]) {
        let v = worddiff::visible;
        // Markdown drops the spaces that end a line.
        let md_shown: Vec<String> = shown
            .iter()
            .map(|s| {
                v(&s.chars().take(300).collect::<String>())
                    .trim_end_matches(' ')
                    .to_owned()
            })
            .collect();
        let xml_shown: Vec<String> = shown.iter().map(|s| xml_text(s)).collect();
        for strict in [false, true] {
            for color in [false, true] {
                let t = text(r, strict, color);
                let plain = ["\u{1b}[31m", "\u{1b}[32m", "\u{1b}[0m"]
                    .iter()
                    .fold(t.clone(), |t, code| t.replace(code, ""));
                assert!(
                    !plain.chars().any(|c| c.is_control() && c != '\n'),
                    "{plain:?}"
                );
                for s in shown {
                    assert!(t.contains(&v(s)), "{s:?} in {t}");
                }
            }
            markdown_holds(&markdown(r, strict), &md_shown);
            junit_holds(&junit(r, strict).unwrap(), &xml_shown);
            let json = json(r, strict);
            let back: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(back["results"], serde_json::to_value(&r.results).unwrap());
            let read = crate::report::matrix::RunReport::parse(&json).unwrap();
            crate::report::matrix::html::tests::matrix_writers_hold(&[("r.json".to_owned(), read)]);
        }
    }

    /// [`writers_hold`] for a [`specimen`] of `e` and `a`, with the texts it holds.
    fn specimen_holds(e: &str, a: &str) {
        let r = specimen(e, a);
        writers_hold(&r, &[format!("title {e}"), format!("message {e}")]);
        // The adapter's stderr, which the Markdown leaves out.
        let stderr = format!("stderr: stderr {a}");
        assert!(text(&r, false, false).contains(&worddiff::visible(&stderr)));
        junit_holds(&junit(&r, false).unwrap(), &[xml_text(&stderr)]);
        let back: serde_json::Value = serde_json::from_str(&json(&r, false)).unwrap();
        let d = &back["results"][1]["differences"][0];
        assert_eq!(d["expected"], format!("expected {e}"));
        assert_eq!(d["actual"], format!("actual {a}"));
    }

    proptest::proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Every writer shows any text an implementation sends, whole and literally.
        #[test]
        fn every_writer_shows_any_text(e in any_text(), a in any_text()) {
            specimen_holds(&e, &a);
        }
    }

    #[test]
    fn every_writer_shows_the_hostile_text() {
        specimen_holds(&hostile(), &hostile());
    }
}
