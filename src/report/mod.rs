//! Every report of a run, in one place. A run renders as a terminal summary (the violated clauses
//! worst first, the failures worst first, a per-area and per-severity table, and last the verdict
//! the exit code gives, `PASS — N passed, N failed, …`), a versioned JSON report, JUnit XML and a
//! Markdown summary for CI step pages, each opening with the violated clauses
//! ([`crate::runner::violations`]). Each counts not-applicable cases apart from passes and
//! failures. The JSON report is one type, [`JsonReport`], written by [`json`] and read back by
//! [`read`], which upgrades the older reports it reads in one place ([`upgrade`]). Many runs side
//! by side, read from their JSON reports, are the [`matrix`].

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::SystemTime;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::capability::Need;
use crate::difference::Worst;
use crate::runner::shard::Shard;
use crate::runner::violations::Violation;
use crate::runner::{Broken, CaseResult, Difference, Report, Severity, Status, Verdict, worddiff};

pub mod matrix;

/// The JSON report's format version. 2: `results` lists the generated cases that did not pass,
/// and `generated_passed` counts the others. 3: a result's `verdict` and `status` may be
/// `not-applicable`, with the observables the implementation lacks (`missing`); each tally counts
/// `not_applicable`; the run's facts add `observes`; `succeeded` is false when nothing ran.
/// 4: `missing` may name capabilities the implementation lacks as well as observables; the run's
/// facts add `lacks`; `generated_not_applicable` counts the generated cases that needed one.
/// 5: the report records the plan of the run: `in_process`, `selection` and `session_draws`
/// join `shard`, `generated`, `seed` and `command`, which every report now has, so that no
/// reader parses `argv` or draws the generated cases again.
/// 6: the report leads with `violations`, the clauses its failed cases break, worst first
/// ([`crate::runner::violations`]); a counterexample names the clauses it was shrunk for (`clauses`), and
/// one may come from a fixed case.
pub const REPORT_VERSION: u32 = 6;

/// The report versions [`read`] reads: older ones are upgraded ([`upgrade`]).
pub const READS: [u32; 4] = [3, 4, 5, REPORT_VERSION];

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
                    Some(color) => terminal_difference(d, color),
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
    let _ = md_verdict(verdict);
}

/// One difference for the terminal: texts as a word-level difference, other values in full.
fn terminal_difference(d: &Difference, color: bool) -> String {
    #[cfg(test)]
    tests::panic_if_marked(d);
    let Some(pieces) = worddiff::of_difference(d) else {
        return worddiff::visible(&d.to_string());
    };
    let mut out = format!(
        "{} {}: {}",
        d.severity,
        worddiff::visible(&d.pointer),
        worddiff::terminal(&pieces, color)
    );
    if let Some(rule) = &d.rule {
        let _ = write!(out, " ({})", worddiff::visible(rule));
    }
    out
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
    const COLUMNS: [&'static str; 12] = [
        "cases", "pass", "fail", "n/a", "SAFETY", "DECISION", "ORDER", "TEXT", "INFO", "broken",
        "xfail", "xpass",
    ];

    /// What the columns of [`StatusCounts::COLUMNS`] count, the lines under each summary table.
    const LEGEND: [&'static str; 3] = [
        "fail: failures that fail the run; n/a: not applicable, not sent (needs what the \
         implementation does not observe or lacks)",
        "SAFETY, DECISION, ORDER, TEXT, INFO: failed cases by their worst difference; broken: \
         failed cases with no outcome (a crash, a timeout, a protocol error)",
        "xfail: failures --expect lists; xpass: passes of cases --expect lists as failures",
    ];

    /// The counts a summary table shows for this tally, in [`StatusCounts::COLUMNS`] order.
    fn columns(&self) -> [usize; 12] {
        let sev = |s: Severity| self.by_severity.get(&s).copied().unwrap_or(0);
        [
            self.cases,
            self.passed,
            self.failed,
            self.not_applicable,
            sev(Severity::Safety),
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

/// The terminal summary, opening with the violated clauses; `color` marks removed and added
/// words red and green instead of `[-removed-]{+added+}`.
pub fn text(report: &Report, strict: bool, color: bool) -> String {
    let v = worddiff::visible;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "autoreview check — profile {} at level {}\nimplementation: {}\n",
        report.profile,
        report.level,
        v(&report.implementation)
    );
    let violations = report.violations();
    if !violations.is_empty() {
        let rows: Vec<[String; 6]> = violation_rows(report, &violations)
            .into_iter()
            .map(|r| r.map(|c| v(&c)))
            .collect();
        let _ = writeln!(
            out,
            "{} violated clause{}, worst first:",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        );
        let mut widths = VIOLATION_COLUMNS.map(|h| h.chars().count());
        for r in &rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        let heading = VIOLATION_COLUMNS.map(str::to_owned);
        for r in std::iter::once(&heading).chain(&rows) {
            let mut line = String::from(" ");
            for (i, (c, w)) in r.iter().zip(widths).enumerate() {
                // The count right-aligned; the last column unpadded.
                match i {
                    3 => {
                        let _ = write!(line, " {c:>w$}");
                    }
                    5 => {
                        let _ = write!(line, " {c}");
                    }
                    _ => {
                        let _ = write!(line, " {c:<w$}");
                    }
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out.push('\n');
    }
    let mut failing: Vec<&CaseResult> = report
        .results
        .iter()
        .filter(|r| matches!(r.status, Status::Fail | Status::UnexpectedPass))
        .collect();
    failing.sort_by_key(|r| rank(r));
    for r in &failing {
        if r.status == Status::UnexpectedPass {
            let _ = writeln!(
                out,
                "UNEXPECTED PASS {} [{}] {} (listed as failing: {})",
                v(&r.id),
                v(&r.area),
                v(&r.title),
                v(r.expected_failure.as_deref().unwrap_or_default())
            );
            continue;
        }
        let _ = writeln!(
            out,
            "{} {} [{}] {}",
            r.label(),
            v(&r.id),
            v(&r.area),
            v(&r.title)
        );
        for l in r.detail_lines(6, Some(color)) {
            let _ = writeln!(out, "    {l}");
        }
    }
    if !failing.is_empty() {
        out.push('\n');
    }
    let (areas, total) = tallies(report);
    let width = areas.iter().map(|(a, _)| a.len()).max().unwrap_or(5).max(5);
    // Right-aligned columns; a wider gap before the counts, the severities and `broken`.
    let line = |name: &str, cells: [String; 12]| {
        let mut l = format!("{name:width$}");
        const WIDTHS: [usize; 12] = [5, 5, 5, 4, 6, 8, 5, 4, 4, 6, 5, 5];
        for (i, (cell, w)) in cells.iter().zip(WIDTHS).enumerate() {
            let gap = if i == 0 || i == 4 || i == 9 {
                "  "
            } else {
                " "
            };
            l.push_str(&format!("{gap}{cell:>w$}"));
        }
        l
    };
    let _ = writeln!(
        out,
        "{}",
        line("area", StatusCounts::COLUMNS.map(str::to_owned))
    );
    let mut row = |name: &str, t: &StatusCounts| {
        let _ = writeln!(out, "{}", line(name, t.columns().map(|n| n.to_string())));
    };
    for (a, t) in &areas {
        row(a, t);
    }
    row("total", &total);
    for l in StatusCounts::LEGEND {
        let _ = writeln!(out, "  {l}");
    }
    out.push('\n');
    if let Some(line) = not_applicable_line(report, &|id| v(id)) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(line) = crate::features::not_implemented_line(&report.features) {
        let _ = writeln!(out, "{line}");
    }
    if !report.stale_expectations.is_empty() {
        let _ = writeln!(
            out,
            "expected failures listed for IDs that name no case of this run{}: {}",
            if strict {
                " (fails the run under --strict)"
            } else {
                ""
            },
            report.stale_expectations.join(", ")
        );
    }
    let _ = writeln!(out, "{}", comparison(report, &v));
    let _ = writeln!(out, "{}", headline(report, strict));
    out
}

/// What the run compared with what: the implementation, the oracle and the profile, and how
/// many cases of each kind, so that the last lines of a run say what its verdict is about.
fn comparison(report: &Report, show: &dyn Fn(&str) -> String) -> String {
    let (areas, total) = tallies(report);
    let generated = areas
        .iter()
        .find(|(a, _)| a == "generated")
        .map_or(0, |(_, t)| t.cases);
    let fixed = total.cases - generated;
    let mut s = format!(
        "compared: {} with {}, profile {}, level {}: {fixed} fixed case{}",
        show(&report.implementation),
        report.oracle.describe(),
        report.profile,
        report.level,
        if fixed == 1 { "" } else { "s" },
    );
    if let Some(seed) = report.seed {
        let _ = write!(s, " and {generated} generated (seed {seed})");
    }
    if let Some(shard) = report.shard {
        let _ = write!(s, " in shard {shard}");
    }
    s
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
    let verdict = if report.ran() == 0 {
        "NOTHING RUN"
    } else if report.succeeded(strict) {
        "PASS"
    } else {
        "FAIL"
    };
    format!("{verdict} — {}", parts.join(", "))
}

/// The JSON report of `autoreview check --report-json`: what the run was asked (its plan), what
/// it checked, its tallies and every listed case's result. `matrix` and `compare` read it; they
/// read report versions 3 and 4 too, upgraded.
// The one type written and read (`spec/report.schema.json`, `autoreview schema report`): `R` is
// the run, a `Report` read back or a borrowed one written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct JsonReport<R = Report> {
    /// The report's format version: 6.
    pub report_version: u32,
    /// The runner that wrote it: `autoreview <version>`.
    #[serde(default)]
    pub runner: String,
    /// The version of the spec text the cases are written from.
    #[serde(default)]
    pub spec: String,
    /// Whether unexpected passes and stale expectations failed the run (`--strict`).
    #[serde(default)]
    pub strict: bool,
    /// Whether the run succeeded, as its exit code says.
    #[serde(default)]
    pub succeeded: bool,
    /// The tallies, per area and in total.
    #[serde(default)]
    pub summary: Summary,
    /// The clauses the failed cases break, worst first: what a reader looks at first, before the
    /// cases (`runner::violations`).
    #[serde(default)]
    pub violations: Vec<Violation>,
    /// The run: what it was asked, what it checked, and every case's result.
    #[serde(flatten)]
    pub run: R,
}

/// The tallies of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    /// All cases.
    #[serde(default)]
    pub total: StatusCounts,
    /// Each area's, in the order areas first appear.
    #[serde(default)]
    pub areas: Vec<AreaTally>,
}

/// One area's tally.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AreaTally {
    /// The area.
    pub area: String,
    /// Its counts.
    pub tally: StatusCounts,
}

impl<R> std::ops::Deref for JsonReport<R> {
    type Target = R;

    fn deref(&self) -> &R {
        &self.run
    }
}

impl<R> JsonReport<R> {
    /// The same report around another form of its run.
    fn with_run<S>(self, run: S) -> JsonReport<S> {
        JsonReport {
            report_version: self.report_version,
            runner: self.runner,
            spec: self.spec,
            strict: self.strict,
            succeeded: self.succeeded,
            summary: self.summary,
            violations: self.violations,
            run,
        }
    }
}

impl<'a> JsonReport<&'a Report> {
    /// The JSON report of `report`, judged `strict` or not.
    pub fn of(report: &'a Report, strict: bool) -> JsonReport<&'a Report> {
        let (areas, total) = tallies(report);
        JsonReport {
            report_version: REPORT_VERSION,
            runner: format!("autoreview {}", env!("CARGO_PKG_VERSION")),
            spec: crate::table::Table::load(report.profile)
                .map(|t| t.spec)
                .unwrap_or_default(),
            strict,
            succeeded: report.succeeded(strict),
            summary: Summary {
                total,
                areas: areas
                    .into_iter()
                    .map(|(area, tally)| AreaTally { area, tally })
                    .collect(),
            },
            violations: report.violations(),
            run: report,
        }
    }
}

/// The JSON report of a run ([`JsonReport`]), pretty-printed with a trailing newline.
pub fn json(report: &Report, strict: bool) -> String {
    let mut s = serde_json::to_string_pretty(&JsonReport::of(report, strict)).unwrap_or_default();
    s.push('\n');
    s
}

/// Why a JSON report cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Not a JSON report of the expected shape.
    #[error("not an autoreview JSON report: {0}")]
    Json(String),
    /// A report version this build does not read.
    #[error(
        "report_version {found}: this autoreview reads report_version 3, 4, 5 and {REPORT_VERSION} (write the report again with this autoreview's `check --report-json`)"
    )]
    Version {
        /// The version the report states.
        found: u64,
    },
}

/// Reads a JSON report of any version in [`READS`], upgraded to the current one.
pub fn read(text: &str) -> Result<JsonReport, ReadError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ReadError::Json(e.to_string()))?;
    // The run is read apart from the members around it: through serde's `flatten` an error
    // would lose the path that says where it is.
    fn deserialize<T: serde::de::DeserializeOwned>(
        value: serde_json::Value,
    ) -> Result<T, ReadError> {
        serde_path_to_error::deserialize(value)
            .map_err(|e| ReadError::Json(format!("{}: {}", e.path(), e.inner())))
    }
    let mut head: JsonReport<serde_json::Map<String, serde_json::Value>> =
        deserialize(upgrade(value)?)?;
    let run: Report = deserialize(serde_json::Value::Object(std::mem::take(&mut head.run)))?;
    Ok(head.with_run(run))
}

/// A report of an older version as the current version writes it; the one place that knows how
/// reports changed. Report 3 lacks what 4 added (`lacks`, `generated_not_applicable`: it lacked
/// nothing); both lack what 5 records of the plan, and say some of it only on their command line
/// (`argv`), which is read here and nowhere else: the adapter command after `--`, `--shard`,
/// `--generated`, `--implementation`, `--only`, `--skip`, `--no-fixed`. Which generated cases
/// drew a session they do not record, and it is not drawn again (the generator may have changed
/// since): `session_draws` stays unknown, and none of their unlisted session cases is known to
/// have passed. Reports before 6 have no `violations`: their differences name no clause, so the
/// violations computed from their results are the one [`crate::runner::violations::UNATTRIBUTED`] entry
/// (none when no case failed with differences), and each counterexample that failed with
/// differences stands for it.
pub fn upgrade(mut value: serde_json::Value) -> Result<serde_json::Value, ReadError> {
    use serde_json::{Value, json};
    let found = value
        .get("report_version")
        .and_then(Value::as_u64)
        .ok_or_else(|| ReadError::Json("it has no numeric report_version".to_owned()))?;
    if !READS.iter().any(|v| u64::from(*v) == found) {
        return Err(ReadError::Version { found });
    }
    if found == u64::from(REPORT_VERSION) {
        return Ok(value);
    }
    let Some(report) = value.as_object_mut() else {
        return Err(ReadError::Json("it is not a JSON object".to_owned()));
    };
    if found < 5 {
        plan_from_argv(report);
    }
    if let Some(Value::Array(found)) = report.get_mut("counterexamples") {
        for f in found.iter_mut().filter_map(Value::as_object_mut) {
            if f.get("verdict").and_then(Value::as_str) == Some("fail") {
                f.entry("clauses".to_owned())
                    .or_insert(json!([crate::runner::violations::UNATTRIBUTED]));
            }
        }
    }
    if !report.contains_key("violations") {
        let member = |report: &serde_json::Map<String, Value>, key: &str| {
            report.get(key).cloned().unwrap_or(json!([]))
        };
        let results: Vec<CaseResult> = member_of(member(report, "results"), "results")?;
        let found: Vec<crate::runner::generated::Found> =
            member_of(member(report, "counterexamples"), "counterexamples")?;
        let violations = crate::runner::violations::of(&results, &found);
        report.insert(
            "violations".to_owned(),
            serde_json::to_value(violations).unwrap_or(json!([])),
        );
    }
    report.insert("report_version".to_owned(), json!(REPORT_VERSION));
    Ok(value)
}

/// A member of a report read as `T`, an error naming the member and the path inside it.
fn member_of<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
    key: &str,
) -> Result<T, ReadError> {
    serde_path_to_error::deserialize(value)
        .map_err(|e| ReadError::Json(format!("{key}{}: {}", path_suffix(&e), e.inner())))
}

fn path_suffix<E>(e: &serde_path_to_error::Error<E>) -> String {
    match e.path().to_string().as_str() {
        "." => String::new(),
        p if p.starts_with('[') => p.to_owned(),
        p => format!(".{p}"),
    }
}

/// What reports 3 and 4 lack of their plan, read from their command line (`argv`): the one place
/// that reads it.
fn plan_from_argv(report: &mut serde_json::Map<String, serde_json::Value>) {
    use serde_json::{Value, json};
    let argv: Vec<String> = match report.get("argv") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_owned())
            .collect(),
        _ => Vec::new(),
    };
    // The options before `--`, the adapter command after it.
    let split = argv.iter().position(|a| a == "--");
    let (own, command) = match split {
        Some(i) => (&argv[..i], &argv[i + 1..]),
        None => (&argv[..], &argv[argv.len()..]),
    };
    // Every value of an option, written `--x v` or `--x=v`.
    let values = |name: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut next = false;
        for a in own {
            if next {
                out.push(a.clone());
                next = false;
            } else if a == name {
                next = true;
            } else if let Some(v) = a.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
                out.push(v.to_owned());
            }
        }
        out
    };
    let last = |name: &str| values(name).pop();
    let mut fill = |key: &str, v: Value| {
        report.entry(key.to_owned()).or_insert(v);
    };
    fill("command", json!(command));
    fill(
        "shard",
        match last("--shard").map(|s| Shard::parse(&s)) {
            Some(Ok(s)) if s.of > 1 => json!({"index": s.index, "of": s.of}),
            _ => Value::Null,
        },
    );
    fill(
        "generated",
        json!(
            last("--generated")
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0)
        ),
    );
    fill(
        "selection",
        json!({
            "only": values("--only"),
            "skip": values("--skip"),
            "no_fixed": own.iter().any(|a| a == "--no-fixed"),
        }),
    );
    // In process when the report names no adapter command (recorded, or on its command line).
    let adapter = report
        .get("command")
        .and_then(Value::as_array)
        .is_some_and(|c| !c.is_empty());
    let in_process = match (adapter, last("--implementation").as_deref()) {
        (true, _) => Value::Null,
        (false, Some("async-gate")) => json!("async-gate"),
        (false, _) => json!("engine"),
    };
    report.entry("in_process".to_owned()).or_insert(in_process);
}

/// A report's members a reader may miss: the oracle of a report that does not say.
pub(crate) fn oracle_reference() -> crate::runner::Oracle {
    crate::runner::Oracle::Reference
}

/// A report's members a reader may miss: the start of a report that does not say.
pub(crate) fn epoch() -> SystemTime {
    SystemTime::UNIX_EPOCH
}

/// Reads a moment written as [`timestamp`] text (any RFC 3339 moment).
pub(crate) fn deserialize_timestamp<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<SystemTime, D::Error> {
    let text = String::deserialize(d)?;
    chrono::DateTime::parse_from_rfc3339(&text)
        .map(SystemTime::from)
        .map_err(|e| {
            serde::de::Error::custom(format!(
                "{text:?} is not an RFC 3339 moment ({e}); expected e.g. \"2026-08-28T09:15:02.117Z\""
            ))
        })
}

/// Reads a duration written as milliseconds ([`crate::runner::millis`]): a number, not negative.
pub(crate) fn deserialize_millis<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<std::time::Duration, D::Error> {
    // Written to the microsecond, and read back so.
    let ms = f64::deserialize(d)?;
    let micros = (ms * 1000.0).round();
    if !(0.0..=u64::MAX as f64).contains(&micros) {
        return Err(serde::de::Error::custom(format!(
            "{ms} is not a duration in milliseconds (expected a number, 0 or more)"
        )));
    }
    Ok(std::time::Duration::from_micros(micros as u64))
}

/// Reads what a not-applicable case needs: observables and capabilities by their names in a
/// `hello`.
pub(crate) fn deserialize_needs<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<Need>, D::Error> {
    use crate::capability::Capability;
    use crate::capability::Observable;
    let names = Vec::<String>::deserialize(d)?;
    names
        .iter()
        .map(|n| {
            let v = serde_json::Value::String(n.clone());
            serde_json::from_value::<Observable>(v.clone())
                .map(Need::Observable)
                .or_else(|_| serde_json::from_value::<Capability>(v).map(Need::Capability))
                .map_err(|_| {
                    serde::de::Error::custom(format!(
                        "{n:?} is neither an observable nor a capability a `hello` names"
                    ))
                })
        })
        .collect()
}

/// A moment as RFC 3339 text in UTC, to the millisecond (`2026-08-28T09:15:02.117Z`).
pub fn timestamp(t: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(t).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Serializes a moment as [`timestamp`] text.
pub(crate) fn serialize_timestamp<S: serde::Serializer>(
    t: &SystemTime,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(&timestamp(*t))
}

/// Text XML 1.0 can hold, and that quick-junit keeps as it is: the characters XML forbids (C0
/// controls but line feed, U+FFFE, U+FFFF) and those quick-junit would drop (tab, carriage return,
/// DEL, C1 controls, and the escape that starts terminal colour codes) are written as `\t`, `\r`
/// or `\u{XXXX}`, so a report shows what the adapter sent instead of losing it.
pub fn xml_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}' => {
                let _ = write!(out, "\\u{{{:04x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The run's facts every JUnit test suite carries as properties.
fn junit_properties(report: &Report) -> Vec<quick_junit::Property> {
    let mut p = vec![
        ("profile", report.profile.to_string()),
        ("level", report.level.to_string()),
        ("implementation", report.implementation.clone()),
        ("compared_with", report.oracle.describe().to_owned()),
        (
            "runner",
            format!("autoreview {}", env!("CARGO_PKG_VERSION")),
        ),
    ];
    if let Some(v) = report.protocol {
        p.push(("protocol", v.to_string()));
    }
    if let Some(seed) = report.seed {
        p.push(("seed", seed.to_string()));
    }
    p.into_iter()
        .map(|(k, v)| quick_junit::Property::new(k, xml_text(&v)))
        .collect()
}

/// One case as a JUnit test case. Unexpected failures are failures, or errors when the
/// implementation gave no outcome; expected failures are skipped tests; an unexpected pass is a
/// failure under `strict` and a passing test with a note otherwise.
fn junit_case(r: &CaseResult, strict: bool) -> quick_junit::TestCase {
    use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus};
    let body = || xml_text(&r.detail_lines(50, None).join("\n"));
    let mut note = None;
    let status = match (r.status, &r.verdict) {
        (Status::Pass, _) => TestCaseStatus::success(),
        (Status::NotApplicable, verdict) => {
            let mut s = TestCaseStatus::skipped();
            let missing = match verdict {
                Verdict::NotApplicable { missing } => missing.as_slice(),
                _ => &[],
            };
            s.set_message(format!("not applicable: {}", needs_text(missing)));
            s
        }
        (Status::ExpectedFail, _) => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(xml_text(&format!(
                "expected failure: {}",
                r.expected_failure.as_deref().unwrap_or_default()
            )))
            .set_description(body());
            s
        }
        (Status::UnexpectedPass, _) if strict => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_type("UNEXPECTED-PASS")
                .set_message("passes but is listed as an expected failure");
            s
        }
        (Status::UnexpectedPass, _) => {
            note = Some("passes but is listed as an expected failure");
            TestCaseStatus::success()
        }
        (Status::Fail, Verdict::Broken { error }) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_type(error.kind.as_str())
                .set_message(xml_text(&error.message))
                .set_description(body());
            s
        }
        (Status::Fail, _) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            let first = r
                .detail_lines(1, None)
                .into_iter()
                .next()
                .unwrap_or_default();
            s.set_type(r.label())
                .set_message(xml_text(&first))
                .set_description(body());
            s
        }
    };
    let name = if r.title.is_empty() {
        r.id.clone()
    } else {
        format!("{}: {}", r.id, r.title)
    };
    let mut case = TestCase::new(xml_text(&name), status);
    case.set_classname(xml_text(&r.area)).set_time(r.duration);
    if let Some(note) = note {
        case.set_system_out(note);
    }
    case
}

/// JUnit XML, as cargo-nextest writes it (quick-junit): first a `violations` suite, one test case
/// per violated clause (a failure typed by its worst severity, or skipped when only expected
/// failures break it), then one test suite per area, one test case per case with its duration; each suite carries the run's start and facts (profile, implementation,
/// protocol, seed) as properties. Under `strict`, stale expectations fail the run, so each is a
/// failed test case of an `expectations` suite. Fails only if XML cannot be written to memory.
pub fn junit(report: &Report, strict: bool) -> Result<String, quick_junit::SerializeError> {
    use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
    let started = chrono::DateTime::<chrono::Utc>::from(report.started);
    let properties = junit_properties(report);
    let mut out = quick_junit::Report::new(xml_text(&format!("autoreview {}", report.profile)));
    out.set_timestamp(started).set_time(report.duration);
    // Suites in the order their areas first appear, after the violated clauses.
    let mut areas: Vec<&str> = Vec::new();
    let mut suites: Vec<TestSuite> = Vec::new();
    let violations = report.violations();
    let mut violated = None;
    if !violations.is_empty() {
        let mut suite = TestSuite::new("violations");
        suite
            .set_timestamp(started)
            .add_properties(properties.clone());
        for (v, row) in violations.iter().zip(violation_rows(report, &violations)) {
            let [clause, severity, level, cases, first, counterexample] = row;
            let message = format!(
                "{cases} case{} break it, first {first}; at level {level} and above",
                if v.cases == 1 { "" } else { "s" }
            );
            let status = if v.fails_the_run() {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                s.set_type(severity)
                    .set_message(xml_text(&message))
                    .set_description(xml_text(&format!("counterexample: {counterexample}")));
                s
            } else {
                let mut s = TestCaseStatus::skipped();
                s.set_message(xml_text(&format!("expected failures only: {message}")));
                s
            };
            let mut case = TestCase::new(xml_text(&clause), status);
            case.set_classname("violations");
            suite.add_test_case(case);
        }
        violated = Some(suite);
    }
    for r in &report.results {
        let i = match areas.iter().position(|a| *a == r.area) {
            Some(i) => i,
            None => {
                let mut suite = TestSuite::new(xml_text(&r.area));
                suite
                    .set_timestamp(started)
                    .add_properties(properties.clone());
                areas.push(&r.area);
                suites.push(suite);
                suites.len() - 1
            }
        };
        let suite = &mut suites[i];
        suite.time = Some(suite.time.unwrap_or_default() + r.duration);
        suite.add_test_case(junit_case(r, strict));
    }
    // Generated cases that passed, or were not applicable, are counted, not kept: one test case
    // stands for each kind.
    let mut not_applicable = TestCaseStatus::skipped();
    not_applicable.set_message("not applicable: needs a capability the implementation lacks");
    let counted = [
        (report.generated_passed, "passed", TestCaseStatus::success()),
        (
            report.generated_not_applicable,
            "not applicable",
            not_applicable,
        ),
    ];
    for (n, what, status) in counted {
        if n == 0 {
            continue;
        }
        let i = match areas.iter().position(|a| *a == "generated") {
            Some(i) => i,
            None => {
                let mut suite = TestSuite::new("generated");
                suite
                    .set_timestamp(started)
                    .add_properties(properties.clone());
                areas.push("generated");
                suites.push(suite);
                suites.len() - 1
            }
        };
        let mut case = TestCase::new(format!("{n} generated cases {what}"), status);
        case.set_classname("generated");
        suites[i].add_test_case(case);
    }
    if strict && !report.stale_expectations.is_empty() {
        let mut suite = TestSuite::new("expectations");
        suite
            .set_timestamp(started)
            .add_properties(properties.clone());
        for id in &report.stale_expectations {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_type("STALE-EXPECTATION")
                .set_message("listed as an expected failure but names no case of this run");
            let mut case = TestCase::new(xml_text(id), status);
            case.set_classname("expectations");
            suite.add_test_case(case);
        }
        suites.push(suite);
    }
    out.add_test_suites(violated.into_iter().chain(suites));
    out.to_string()
}

/// Free text as GitHub-flavoured Markdown shows it literally: each character that can start
/// markup inside a line is backslash-escaped (so `<tool_call> *x*` is neither HTML nor emphasis,
/// `&amp;` no entity, `|` does not end a table cell, `$`, `:` and `@` start no math, emoji or
/// mention), control characters and line breaks are written `\n`, `\t`, `\r` or `\u{XXXX}`, and
/// text longer than `max` characters is cut with `…`. The text never starts a line, so
/// line-start markup (`#`, `-`, `1.`) needs no escape there.
pub fn md_text(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max.saturating_mul(2)) + 8);
    for (i, c) in s.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\\\n"),
            '\t' => out.push_str("\\\\t"),
            '\r' => out.push_str("\\\\r"),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                let _ = write!(out, "\\\\u\\{{{:04x}\\}}", c as u32);
            }
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~' | '&' | '$' | ':'
            | '@' | '!' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Text as a Markdown code span, shown literally: the fence is one backtick longer than the
/// longest run of backticks inside, and a space pads text that starts or ends with a backtick or a
/// space (which a code span would otherwise eat). Control characters are written as in
/// [`md_text`]. Not for table cells, where `|` would end the cell even inside a code span.
pub fn code_span(s: &str) -> String {
    let mut text = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => text.push_str("\\n"),
            '\t' => text.push_str("\\t"),
            '\r' => text.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                let _ = write!(text, "\\u{{{:04x}}}", c as u32);
            }
            c => text.push(c),
        }
    }
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// How a failing case's first detail reads in Markdown.
fn md_detail(r: &CaseResult) -> String {
    match r.status {
        Status::UnexpectedPass => format!(
            "passes but is listed as an expected failure: {}",
            md_text(r.expected_failure.as_deref().unwrap_or_default(), 300)
        ),
        _ => md_verdict(&r.verdict),
    }
}

/// How a verdict's first detail reads in Markdown.
fn md_verdict(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Fail { differences } => {
            let more = match differences.len() {
                0 | 1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            differences
                .first()
                .map(|d| md_difference(d) + &more)
                .unwrap_or_default()
        }
        Verdict::Broken { error } => md_text(&error.message, 300),
        Verdict::NotApplicable { missing } => needs_text(missing),
        Verdict::Pass => String::new(),
    }
}

/// One difference in Markdown: where, then texts as a word-level difference (removed words struck
/// through, added ones underlined, with HTML tags GitHub keeps) and other values in full.
fn md_difference(d: &Difference) -> String {
    let mut out = format!("{}: ", code_span(&d.pointer));
    match worddiff::of_difference(d) {
        Some(pieces) => {
            for p in &pieces {
                match p {
                    worddiff::Piece::Same(t) => out.push_str(&md_text(t, usize::MAX)),
                    worddiff::Piece::Elided => out.push('…'),
                    worddiff::Piece::Removed(t) => {
                        let _ = write!(out, "<del>{}</del>", md_text(t, usize::MAX));
                    }
                    worddiff::Piece::Added(t) => {
                        let _ = write!(out, "<ins>{}</ins>", md_text(t, usize::MAX));
                    }
                }
            }
        }
        None => {
            let _ = write!(
                out,
                "expected {}, got {}",
                md_text(&d.expected.to_string(), 300),
                md_text(&d.actual.to_string(), 300)
            );
        }
    }
    if let Some(rule) = &d.rule {
        let _ = write!(out, " ({})", md_text(rule, 200));
    }
    out
}

/// A Markdown summary for CI step pages (`$GITHUB_STEP_SUMMARY`): the verdict the exit code gives,
/// the run's facts, the violated clauses worst first, the table, then the failures worst first.
/// Every text from a case or an
/// implementation is escaped ([`md_text`], [`code_span`]), so it shows as it was sent.
pub fn markdown(report: &Report, strict: bool) -> String {
    let (areas, total) = tallies(report);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## autoreview check — {} at level {}\n\n**{}**\n",
        code_span(report.profile.as_str()),
        code_span(report.level.as_str()),
        headline(report, strict)
    );
    let mut facts = vec![format!(
        "implementation: {}, compared with {} at level {} ({})",
        md_text(&report.implementation, 300),
        report.oracle.describe(),
        report.level,
        report.level.summary()
    )];
    if let Some(v) = report.protocol {
        facts.push(format!("protocol {v}"));
    }
    if !report.observes.is_empty() {
        let names: Vec<&str> = report.observes.iter().map(|o| o.as_str()).collect();
        facts.push(format!("observes {}", names.join(", ")));
    }
    if !report.lacks.is_empty() {
        let names: Vec<&str> = report.lacks.iter().map(|c| c.as_str()).collect();
        facts.push(format!("lacks {}", names.join(", ")));
    }
    if let Some(seed) = report.seed {
        facts.push(format!("seed {seed}"));
    }
    facts.push(format!(
        "started {}",
        md_text(&timestamp(report.started), 40)
    ));
    facts.push(format!("{:.1} s", report.duration.as_secs_f64()));
    let _ = writeln!(out, "{}\n", facts.join(" · "));
    let violations = report.violations();
    if !violations.is_empty() {
        let _ = writeln!(out, "**Violated clauses, worst first**\n");
        let _ = writeln!(out, "| {} |", VIOLATION_COLUMNS.join(" | "));
        let _ = writeln!(out, "|---|---|---|---:|---|---|");
        for r in violation_rows(report, &violations) {
            let cells: Vec<String> = r.iter().map(|c| md_text(c, 500)).collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "| area | {} |", StatusCounts::COLUMNS.join(" | "));
    let _ = writeln!(out, "|---|{}", "---:|".repeat(StatusCounts::COLUMNS.len()));
    let rows = areas
        .iter()
        .map(|(a, t)| (md_text(a, 100), t))
        .chain([("**total**".to_owned(), &total)]);
    for (a, t) in rows {
        let cells: Vec<String> = t.columns().iter().map(|n| n.to_string()).collect();
        let _ = writeln!(out, "| {a} | {} |", cells.join(" | "));
    }
    out.push('\n');
    for l in StatusCounts::LEGEND {
        let _ = writeln!(out, "- {}", md_text(l, l.len()));
    }
    if let Some(line) = not_applicable_line(report, &|id| code_span(id)) {
        let _ = writeln!(out, "\n{line}");
    }
    if let Some(line) = crate::features::not_implemented_line(&report.features) {
        let _ = writeln!(out, "\n{}", md_text(&line, line.len()));
    }
    let mut failing: Vec<&CaseResult> = report
        .results
        .iter()
        .filter(|r| matches!(r.status, Status::Fail | Status::UnexpectedPass))
        .collect();
    failing.sort_by_key(|r| rank(r));
    if !failing.is_empty() {
        out.push_str("\n<details><summary>Failures, worst first</summary>\n\n");
        for r in failing.iter().take(100) {
            let label = if r.status == Status::UnexpectedPass {
                "UNEXPECTED PASS".to_owned()
            } else {
                r.label()
            };
            let _ = writeln!(
                out,
                "- **{}** {} {} — {}",
                md_text(&label, 40),
                code_span(&r.id),
                md_text(&r.title, 300),
                md_detail(r)
            );
        }
        if failing.len() > 100 {
            let _ = writeln!(out, "- … and {} more", failing.len() - 100);
        }
        out.push_str("\n</details>\n");
    }
    if strict && !report.stale_expectations.is_empty() {
        let ids: Vec<String> = report
            .stale_expectations
            .iter()
            .take(100)
            .map(|id| code_span(id))
            .collect();
        let _ = writeln!(
            out,
            "\nExpected failures listed for IDs that name no case of this run (they fail the run under `--strict`): {}",
            ids.join(", ")
        );
    }
    out
}

/// Appends a Markdown summary to `path`, creating the file if needed: a CI step that runs `check`
/// twice keeps both summaries in `$GITHUB_STEP_SUMMARY`. A blank line separates it from what the
/// file already holds.
pub fn append_markdown(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let separator = if file.metadata()?.len() > 0 { "\n" } else { "" };
    file.write_all(format!("{separator}{text}").as_bytes())
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
        listed.then(|| "listed".to_owned()),
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

/// When the terminal report is coloured: removed words red and added ones green; without colour
/// `[-removed-]{+added+}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    /// When stdout is a terminal and NO_COLOR is unset or empty.
    Auto,
    /// Always, whatever stdout is and NO_COLOR says.
    Always,
    /// Never.
    Never,
}

impl Color {
    /// Every choice, in the order `--help` lists them.
    pub const ALL: [Color; 3] = [Color::Auto, Color::Always, Color::Never];

    /// The choice's name on a command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Color::Auto => "auto",
            Color::Always => "always",
            Color::Never => "never",
        }
    }

    /// What the choice means, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            Color::Auto => "When stdout is a terminal and NO_COLOR is unset or empty",
            Color::Always => "Always, whatever stdout is and NO_COLOR says",
            Color::Never => "Never",
        }
    }

    /// Whether to colour, given whether stdout is a terminal and the value of NO_COLOR
    /// (no-color.org: set and not empty disables colour, unless asked for explicitly).
    pub fn enabled(self, terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => terminal && no_color.is_none_or(|v| v.is_empty()),
        }
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
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
        let [sessions, requests, session_log] = Observable::ALL.map(Need::Observable);
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

    /// JUnit XML parses with a strict parser whatever text an adapter sends; forbidden characters
    /// show as `\u{XXXX}`, markup characters come back as they were sent.
    #[test]
    fn junit_is_valid_xml_for_any_text() {
        let r = hostile_report();
        for strict in [false, true] {
            let xml = junit(&r, strict).unwrap();
            let doc = roxmltree::Document::parse(&xml)
                .unwrap_or_else(|e| panic!("invalid XML ({e}):\n{xml}"));
            let texts: String = doc
                .descendants()
                .filter_map(|n| n.text())
                .collect::<Vec<_>>()
                .join("\n");
            for shown in [
                "\\u{0000}",
                "\\u{001f}",
                "\\u{fffe}",
                "\\u{ffff}",
                "\\u{001b}[31mred",
            ] {
                assert!(texts.contains(shown), "{shown} in {texts}");
            }
            assert!(
                texts.contains("]]> <tool_call> *x* _y_ ~~z~~ $a$"),
                "{texts}"
            );
            assert!(texts.contains("&amp; & \" '"), "{texts}");
        }
    }

    /// JUnit keeps the run's facts: durations, the start, and the properties of each suite.
    #[test]
    fn junit_carries_times_the_start_and_the_runs_facts() {
        let r = hostile_report();
        let xml = junit(&r, true).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        assert_eq!(root.attribute("time"), Some("0.010"));
        assert_eq!(
            root.attribute("timestamp"),
            Some("1970-01-01T00:00:00.000+00:00")
        );
        let suites: Vec<_> = root
            .children()
            .filter(|n| n.has_tag_name("testsuite"))
            .collect();
        let names: Vec<_> = suites
            .iter()
            .map(|s| s.attribute("name").unwrap())
            .collect();
        assert_eq!(names, ["violations", "area", "expectations"]);
        let area = suites[1];
        assert_eq!(area.attribute("timestamp"), root.attribute("timestamp"));
        // Five cases of 3 ms each.
        assert_eq!(area.attribute("time"), Some("0.015"));
        let props: Vec<(&str, &str)> = area
            .descendants()
            .filter(|n| n.has_tag_name("property"))
            .map(|n| (n.attribute("name").unwrap(), n.attribute("value").unwrap()))
            .collect();
        let prop = |k: &str| props.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
        assert_eq!(prop("profile"), Some("baseline"));
        assert_eq!(prop("level"), Some("full"));
        assert_eq!(prop("seed"), Some("7"));
        assert_eq!(prop("protocol"), Some("1"));
        assert!(
            prop("implementation")
                .unwrap()
                .starts_with("gate \\u{0000}"),
            "{props:?}"
        );
        let cases: Vec<_> = area
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(cases.len(), 5);
        assert!(cases.iter().all(|c| c.attribute("time") == Some("0.003")));
        // Today's semantics: failures, errors, skipped expected failures, unexpected passes.
        let kind = |c: &roxmltree::Node| {
            c.children()
                .find(|n| n.is_element())
                .map(|n| n.tag_name().name().to_owned())
                .unwrap_or_default()
        };
        let kinds: Vec<String> = cases.iter().map(kind).collect();
        assert_eq!(kinds, ["", "failure", "error", "skipped", "failure"]);
        assert_eq!(
            (
                area.attribute("failures"),
                area.attribute("errors"),
                area.attribute("skipped")
            ),
            (Some("2"), Some("1"), Some("1"))
        );
        let lenient = junit(&r, false).unwrap();
        let doc = roxmltree::Document::parse(&lenient).unwrap();
        let kinds: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .map(|c| kind(&c))
            .collect();
        assert_eq!(
            kinds,
            ["failure", "", "failure", "error", "skipped", "system-out"],
            "the violated clause, then the cases; no stale suite"
        );
    }

    /// A run whose cases break two clauses, one only in an expected failure, and a third case
    /// whose difference names none; one counterexample, shrunk for the first clause.
    fn violating() -> Report {
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

    /// A report 5 reads as a report 6: its differences name no clause, so its violations are the
    /// unattributed entry, and the counterexample that failed with differences stands for it.
    #[test]
    fn a_report_5_reads_with_its_violations_unattributed() {
        let mut r = violating();
        for res in &mut r.results {
            if let Verdict::Fail { differences } = &mut res.verdict {
                differences.iter_mut().for_each(|d| d.clauses.clear());
            }
        }
        r.counterexamples[0].clauses.clear();
        r.counterexamples[0].verdict = Verdict::Fail {
            differences: Vec::new(),
        };
        let mut v: serde_json::Value = serde_json::from_str(&json(&r, false)).unwrap();
        v["report_version"] = 5.into();
        v.as_object_mut().unwrap().remove("violations");
        let back = read(&v.to_string()).unwrap();
        assert_eq!(back.report_version, REPORT_VERSION);
        assert_eq!(back.counterexamples[0].clauses, ["unattributed"]);
        let found: Vec<(&str, usize, usize, Option<usize>)> = back
            .violations
            .iter()
            .map(|v| {
                (
                    v.clause.as_str(),
                    v.cases,
                    v.expected_failures,
                    v.counterexample,
                )
            })
            .collect();
        assert_eq!(found, [("unattributed", 4, 1, Some(0))]);
        assert_eq!(back.violations[0].severity, Severity::Decision);
        // No failure, no violation.
        let mut v: serde_json::Value =
            serde_json::from_str(&json(&report(vec![case("A", Status::Pass)], &[]), false))
                .unwrap();
        v["report_version"] = 5.into();
        v.as_object_mut().unwrap().remove("violations");
        assert!(read(&v.to_string()).unwrap().violations.is_empty());
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
                && rows[violations..].iter().all(|n| *n == 13),
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

    /// Every text from a case or an adapter shows literally in the Markdown: no HTML, emphasis,
    /// strikethrough, link or entity made of it, and a `|` in an area does not split its cell.
    #[test]
    fn markdown_shows_any_text_literally() {
        let mut r = hostile_report();
        r.results[1].area = format!("a|b {}", hostile());
        r.results[1].id = "ID-`1`".into();
        for strict in [false, true] {
            let shown = [
                "<tool_call> *x* _y_ ~~z~~ $a$ [l](u) :+1: @user #1 &amp; & \" '",
                "\\u{0000}\\u{0001}",
                "\\u{fffe}\\u{ffff}",
                "\\u{001b}[31mred\\u{001b}[0m\\t\\r\\n`x`|",
                "title \\u{0000}",
                "message \\u{0000}",
                "implementation: gate \\u{0000}",
                "ID-`1`",
                // The difference, removed and added words in tags.
                "/result/text: expectedactual \\u{0000}",
            ];
            markdown_holds(&markdown(&r, strict), &shown.map(str::to_owned));
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

    /// The JSON report reads back as the report it was written from, and as what its schema
    /// describes.
    #[test]
    fn the_json_report_reads_back_as_written() {
        let mut r = specimen("e", "a");
        r.selection.only = vec!["RS-*".to_owned()];
        r.in_process = Some(crate::runner::check::InProcess::AsyncGate);
        r.shard = Some(Shard { index: 2, of: 3 });
        r.generated = 9;
        r.seed = Some(4);
        r.session_draws = Some(crate::runner::check::SessionDraws::of(9, |k| k == 7));
        r.started = SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(1_700_000_000_123);
        for strict in [false, true] {
            let back = read(&json(&r, strict)).unwrap();
            assert_eq!(back.run, r);
            assert_eq!((back.strict, back.succeeded), (strict, r.succeeded(strict)));
            assert_eq!(back.report_version, REPORT_VERSION);
            assert_eq!(back.summary.total, tallies(&r).1);
        }
    }

    #[test]
    fn every_writer_shows_the_hostile_text() {
        specimen_holds(&hostile(), &hostile());
    }
}
