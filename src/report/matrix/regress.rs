//! Two reports of one implementation compared case by case (`autoreview compare OLD NEW`): the
//! regressions (a case that passed, or failed as listed, and fails the run now), the new failures
//! (a case the old run did not have that fails the new run: a generated case of another seed or
//! beyond the old count, a fixed case the old suite lacked), the new passes, changed worst
//! severities and texts, cases added or removed, and cases whose applicability changed. Not [`crate::runner::compare`], which compares two outcomes of one case.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::read::{CaseRecord, RunReport, Worst};
use crate::runner::{Severity, Status, worddiff};

/// A case's state in one report.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    /// Listed with this status and worst failure.
    Listed(Status, Option<Worst>),
    /// A generated case the run drew and passed: counted, not listed.
    PassedUnlisted,
    /// Not in the run.
    Absent,
}

impl State {
    fn of(report: &RunReport, listed: Option<&CaseRecord>, id: &str) -> State {
        match listed {
            Some(r) => State::Listed(r.status, r.worst()),
            None if report.passed_unlisted(id, None) => State::PassedUnlisted,
            None => State::Absent,
        }
    }

    fn passed(&self) -> bool {
        matches!(
            self,
            State::PassedUnlisted | State::Listed(Status::Pass | Status::UnexpectedPass, _)
        )
    }

    fn failed(&self) -> bool {
        matches!(self, State::Listed(Status::Fail | Status::ExpectedFail, _))
    }

    /// `pass`, `fail DECISION`, `expected-fail TEXT`, `not-applicable`, `absent`.
    pub fn label(&self) -> String {
        match self {
            State::PassedUnlisted => "pass".to_owned(),
            State::Absent => "absent".to_owned(),
            State::Listed(s, w) => {
                let name = super::html::status_name(Some(*s));
                match w {
                    Some(w) => format!("{name} {}", w.label()),
                    None => name.to_owned(),
                }
            }
        }
    }
}

/// One case that changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The case.
    pub id: String,
    /// Its title (the new report's, else the old one's).
    pub title: String,
    /// Before.
    pub old: State,
    /// After.
    pub new: State,
    /// What the new report shows for it: its differences or error, one line each.
    pub now: Vec<String>,
}

/// A text that differs from the expected one, and how, in one report and the other.
#[derive(Debug, Clone, PartialEq)]
pub struct TextChange {
    /// The case.
    pub id: String,
    /// Where in the outcome.
    pub pointer: String,
    /// The value the old report's implementation gave; `None` when it matched.
    pub old: Option<serde_json::Value>,
    /// The value the new one gave; `None` when it matches.
    pub new: Option<serde_json::Value>,
}

/// What changed from one report to another.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changes {
    /// Passed or failed as listed, and fails the run now.
    pub regressions: Vec<Change>,
    /// Not in the old run (it could not have drawn or held the case), and fails the new run.
    pub new_failures: Vec<Change>,
    /// Failed, and passes now.
    pub new_passes: Vec<Change>,
    /// Failed in both, with another worst severity.
    pub severities: Vec<Change>,
    /// Failed in both, with other texts.
    pub texts: Vec<TextChange>,
    /// In the new run only, and not failing it.
    pub added: Vec<Change>,
    /// In the old run only.
    pub removed: Vec<Change>,
    /// Applicable in one run and not in the other.
    pub applicability: Vec<Change>,
}

impl Changes {
    /// Whether anything changed.
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }

    /// Whether the comparison fails: a regression, or a new failure unless new failures are
    /// allowed (`--allow-new-failures`).
    pub fn fails(&self, allow_new_failures: bool) -> bool {
        !self.regressions.is_empty() || (!allow_new_failures && !self.new_failures.is_empty())
    }
}

/// The TEXT differences of a failure, by pointer: what the implementation gave.
fn texts(r: Option<&CaseRecord>) -> BTreeMap<String, serde_json::Value> {
    r.map(|r| {
        r.differences()
            .iter()
            .filter(|d| d.severity == Severity::Text)
            .map(|d| (d.pointer.clone(), d.actual.clone()))
            .collect()
    })
    .unwrap_or_default()
}

/// What a report shows for a failing case, one line each.
fn now_lines(r: Option<&CaseRecord>) -> Vec<String> {
    let Some(r) = r else { return Vec::new() };
    let mut lines: Vec<String> = r.differences().iter().map(|d| d.to_string()).collect();
    if let Some(e) = r.error() {
        lines.push(format!("{}: {}", e.kind.as_str(), e.message));
    }
    lines
}

/// Compares `old` with `new`, case by case, in the order the new report lists them and then the
/// cases only the old one lists.
pub fn compare(old: &RunReport, new: &RunReport) -> Changes {
    let old_by: BTreeMap<&str, &CaseRecord> =
        old.results.iter().map(|r| (r.id.as_str(), r)).collect();
    let new_by: BTreeMap<&str, &CaseRecord> =
        new.results.iter().map(|r| (r.id.as_str(), r)).collect();
    let mut ids: Vec<&str> = Vec::new();
    let mut seen = BTreeSet::new();
    for r in new.results.iter().chain(&old.results) {
        if seen.insert(r.id.as_str()) {
            ids.push(&r.id);
        }
    }
    let mut out = Changes::default();
    for id in ids {
        let (o, n) = (old_by.get(id).copied(), new_by.get(id).copied());
        let (old_state, new_state) = (State::of(old, o, id), State::of(new, n, id));
        let change = || Change {
            id: id.to_owned(),
            title: n.or(o).map(|r| r.title.clone()).unwrap_or_default(),
            old: old_state.clone(),
            new: new_state.clone(),
            now: now_lines(n),
        };
        let na = |s: &State| matches!(s, State::Listed(Status::NotApplicable, _));
        match (&old_state, &new_state) {
            (State::Absent, State::Absent) => {}
            (State::Absent, State::Listed(Status::Fail, _)) => out.new_failures.push(change()),
            (State::Absent, _) => out.added.push(change()),
            (_, State::Absent) => out.removed.push(change()),
            (a, b) if na(a) != na(b) => out.applicability.push(change()),
            (a, State::Listed(Status::Fail, _))
                if a.passed() || matches!(a, State::Listed(Status::ExpectedFail, _)) =>
            {
                out.regressions.push(change())
            }
            (a, b) if a.failed() && b.passed() => out.new_passes.push(change()),
            _ => {}
        }
        if old_state.failed() && new_state.failed() {
            let (State::Listed(_, wo), State::Listed(_, wn)) = (&old_state, &new_state) else {
                continue;
            };
            if wo != wn {
                out.severities.push(change());
            }
            let (to, tn) = (texts(o), texts(n));
            let pointers: BTreeSet<&String> = to.keys().chain(tn.keys()).collect();
            for p in pointers {
                if to.get(p) != tn.get(p) {
                    out.texts.push(TextChange {
                        id: id.to_owned(),
                        pointer: p.clone(),
                        old: to.get(p).cloned(),
                        new: tn.get(p).cloned(),
                    });
                }
            }
        }
    }
    out
}

/// How a report is named in the output: implementation, version, profile, seed and shard.
fn describe(r: &RunReport, file: &str) -> String {
    let mut s = r.name().to_owned();
    if !r.version().is_empty() {
        let _ = write!(s, " {}", r.version());
    }
    let _ = write!(s, " · {}", r.profile);
    if let Some(seed) = r.seed {
        let _ = write!(s, " · seed {seed}, {} generated", r.generated);
    }
    if let Some(shard) = r.shard() {
        let _ = write!(s, " · shard {shard}");
    }
    format!("{} ({})", worddiff::visible(&s), worddiff::visible(file))
}

/// The terminal text: both runs, each kind of change, and last the verdict the exit code gives
/// ([`headline`]); `allow_new_failures` as for [`Changes::fails`].
pub fn text(
    old: &RunReport,
    new: &RunReport,
    files: (&str, &str),
    c: &Changes,
    allow_new_failures: bool,
) -> String {
    let v = worddiff::visible;
    let mut out = format!(
        "autoreview compare\n  old: {}\n  new: {}\n",
        describe(old, files.0),
        describe(new, files.1)
    );
    if (old.name(), old.version()) != (new.name(), new.version()) {
        out.push_str("note: the runs are of different implementations or versions\n");
    }
    if old.profile != new.profile {
        let _ = writeln!(
            out,
            "note: the runs check different profiles ({} and {}): a difference may be the profile's",
            old.profile, new.profile
        );
    }
    if old.seed != new.seed && (old.generated > 0 || new.generated > 0) {
        out.push_str(
            "note: the runs' generated cases have different seeds, so they are different cases: a generated failure of the new run is a new failure, never a regression\n",
        );
    }
    let section = |out: &mut String, title: &str, list: &[Change], detail: bool| {
        if list.is_empty() {
            return;
        }
        let _ = writeln!(out, "\n{title} ({}):", list.len());
        for ch in list {
            let _ = writeln!(
                out,
                "  {}  {} → {}  {}",
                v(&ch.id),
                v(&ch.old.label()),
                v(&ch.new.label()),
                v(&ch.title)
            );
            if detail {
                for l in ch.now.iter().take(4) {
                    let _ = writeln!(out, "      {}", v(l));
                }
                if ch.now.len() > 4 {
                    let _ = writeln!(out, "      … and {} more", ch.now.len() - 4);
                }
            }
        }
    };
    section(
        &mut out,
        "REGRESSIONS — passed or failed as listed before, fail now",
        &c.regressions,
        true,
    );
    section(
        &mut out,
        "NEW FAILURES — not in the old run, fail now",
        &c.new_failures,
        true,
    );
    section(&mut out, "NEW PASSES", &c.new_passes, false);
    section(&mut out, "WORST SEVERITY CHANGED", &c.severities, true);
    if !c.texts.is_empty() {
        let _ = writeln!(out, "\nTEXTS CHANGED ({}):", c.texts.len());
        let shown = |t: &Option<serde_json::Value>| match t {
            Some(serde_json::Value::String(t)) => format!("{:?}", v(t)),
            Some(other) => v(&other.to_string()),
            None => "(as expected)".to_owned(),
        };
        for t in &c.texts {
            let _ = writeln!(
                out,
                "  {} {}: {} → {}",
                v(&t.id),
                v(&t.pointer),
                shown(&t.old),
                shown(&t.new)
            );
        }
    }
    section(&mut out, "APPLICABILITY CHANGED", &c.applicability, false);
    section(&mut out, "ADDED", &c.added, false);
    section(&mut out, "REMOVED", &c.removed, false);
    out.push('\n');
    out.push_str(&headline(c, allow_new_failures));
    out.push('\n');
    out
}

/// The last line, with the verdict the exit code gives: `REGRESSION — 2 regressions, 1 new pass,
/// …`; `NEW FAILURES — 0 regressions, 3 new failures, …` when only new failures fail the
/// comparison; `NO REGRESSION — …` when nothing fails it (new failures allowed are counted
/// `(allowed)`).
pub fn headline(c: &Changes, allow_new_failures: bool) -> String {
    let counted = |n: usize, one: &str, many: &str| {
        (n > 0).then(|| format!("{n} {}", if n == 1 { one } else { many }))
    };
    let mut parts = vec![format!(
        "{} regression{}",
        c.regressions.len(),
        if c.regressions.len() == 1 { "" } else { "s" }
    )];
    parts.extend(
        counted(c.new_failures.len(), "new failure", "new failures").map(|p| {
            if allow_new_failures {
                format!("{p} (allowed)")
            } else {
                p
            }
        }),
    );
    parts.extend(counted(c.new_passes.len(), "new pass", "new passes"));
    parts.extend(counted(
        c.severities.len(),
        "worst severity changed",
        "worst severities changed",
    ));
    parts.extend(counted(c.texts.len(), "text changed", "texts changed"));
    parts.extend(counted(
        c.applicability.len(),
        "applicability changed",
        "applicabilities changed",
    ));
    parts.extend(counted(c.added.len(), "case added", "cases added"));
    parts.extend(counted(c.removed.len(), "case removed", "cases removed"));
    if parts.len() == 1 {
        parts.push("nothing else changed".to_owned());
    }
    let verdict = if !c.regressions.is_empty() {
        "REGRESSION"
    } else if c.fails(allow_new_failures) {
        "NEW FAILURES"
    } else {
        "NO REGRESSION"
    };
    format!("{verdict} — {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(results: &str, extra: &str) -> RunReport {
        RunReport::parse(&format!(
            r#"{{"report_version": 3, "profile": "resilient", "implementation": "x", "results": [{results}]{extra}}}"#
        ))
        .unwrap()
    }

    fn case(id: &str, status: &str, diffs: &str) -> String {
        let verdict = match status {
            "pass" | "unexpected-pass" => "pass",
            "not-applicable" => "not-applicable",
            _ => "fail",
        };
        format!(
            r#"{{"id": "{id}", "area": "a", "title": "t {id}", "clauses": [], "verdict": "{verdict}", "status": "{status}", "differences": [{diffs}]}}"#
        )
    }

    fn diff(severity: &str, pointer: &str, actual: &str) -> String {
        format!(
            r#"{{"severity": "{severity}", "pointer": "{pointer}", "expected": "e", "actual": "{actual}"}}"#
        )
    }

    fn ids(list: &[Change]) -> Vec<&str> {
        list.iter().map(|c| c.id.as_str()).collect()
    }

    /// Each kind of change is found, and only where it happened.
    #[test]
    fn each_kind_of_change_is_found() {
        let words = diff("TEXT", "/result/text", "old words");
        let old = report(
            &[
                case("SAME", "pass", ""),
                case("REG", "pass", ""),
                case("XREG", "expected-fail", &words),
                case("FIXED", "fail", &words),
                case("WORSE", "fail", &words),
                case("RETEXT", "fail", &words),
                case("GONE", "pass", ""),
                case("NA", "not-applicable", ""),
                case("STILL", "expected-fail", &words),
                case("GEN-7-3", "fail", &words),
            ]
            .join(","),
            r#", "seed": 7, "generated": 10"#,
        );
        let new = report(
            &[
                case("SAME", "pass", ""),
                case("REG", "fail", &diff("DECISION", "/listener/kind", "deny")),
                case("XREG", "fail", &words),
                case("FIXED", "pass", ""),
                case(
                    "WORSE",
                    "fail",
                    &[words.clone(), diff("SAFETY", "/result/executed", "true")].join(","),
                ),
                case("RETEXT", "fail", &diff("TEXT", "/result/text", "new words")),
                case("NEW", "fail", &words),
                case("XNEW", "expected-fail", &words),
                case("NA", "pass", ""),
                case("STILL", "expected-fail", &words),
                case("GEN-7-4", "fail", &words),
                case("GEN-7-10", "fail", &words),
            ]
            .join(","),
            r#", "seed": 7, "generated": 11"#,
        );
        let c = compare(&old, &new);
        assert_eq!(ids(&c.regressions), ["REG", "XREG", "GEN-7-4"]);
        assert_eq!(
            c.regressions[0].now,
            ["DECISION /listener/kind: expected \"e\", got \"deny\""]
        );
        assert_eq!(
            c.regressions[2].old,
            State::PassedUnlisted,
            "drawn, passed, not listed"
        );
        assert_eq!(ids(&c.new_passes), ["FIXED", "GEN-7-3"]);
        assert_eq!(ids(&c.severities), ["WORSE"]);
        assert_eq!(
            (c.severities[0].old.label(), c.severities[0].new.label()),
            ("fail TEXT".to_owned(), "fail SAFETY".to_owned())
        );
        assert_eq!(
            c.texts,
            [TextChange {
                id: "RETEXT".into(),
                pointer: "/result/text".into(),
                old: Some("old words".into()),
                new: Some("new words".into()),
            }]
        );
        assert_eq!(
            ids(&c.new_failures),
            ["NEW", "GEN-7-10"],
            "a fixed case the old run lacked, a generated case beyond its count"
        );
        assert_eq!(ids(&c.added), ["XNEW"], "added, failing only as listed");
        assert_eq!(ids(&c.removed), ["GONE"]);
        assert_eq!(ids(&c.applicability), ["NA"]);
        let line = headline(&c, false);
        assert_eq!(
            line,
            "REGRESSION — 3 regressions, 2 new failures, 2 new passes, 1 worst severity changed, 1 text changed, 1 applicability changed, 1 case added, 1 case removed"
        );
        let shown = super::text(&old, &new, ("old.json", "new.json"), &c, false);
        assert!(shown.ends_with(&format!("\n{line}\n")), "{shown}");
        assert!(
            shown.contains("\n  REG  pass → fail DECISION  t REG\n      DECISION /listener/kind"),
            "{shown}"
        );
        assert!(
            shown.contains("  RETEXT /result/text: \"old words\" → \"new words\"\n"),
            "{shown}"
        );
    }

    #[test]
    fn a_run_compared_with_itself_changes_nothing() {
        let r = report(
            &[
                case("A", "pass", ""),
                case("B", "fail", &diff("TEXT", "/x", "y")),
            ]
            .join(","),
            "",
        );
        let c = compare(&r, &r);
        assert!(c.is_empty(), "{c:?}");
        assert_eq!(
            headline(&c, false),
            "NO REGRESSION — 0 regressions, nothing else changed"
        );
    }

    /// Across seeds no generated case of one run is a case of the other: the new run's generated
    /// failures are new failures, which fail the comparison unless allowed.
    #[test]
    fn generated_failures_of_another_seed_are_new_failures() {
        let words = diff("TEXT", "/result/text", "w");
        let old = report(
            &[case("A", "pass", ""), case("GEN-7-3", "fail", &words)].join(","),
            r#", "seed": 7, "generated": 10"#,
        );
        let new = report(
            &[case("A", "pass", ""), case("GEN-8-3", "fail", &words)].join(","),
            r#", "seed": 8, "generated": 10"#,
        );
        let c = compare(&old, &new);
        assert!(c.regressions.is_empty(), "{c:?}");
        assert_eq!(ids(&c.new_failures), ["GEN-8-3"]);
        assert_eq!(ids(&c.removed), ["GEN-7-3"]);
        assert!(c.fails(false) && !c.fails(true));
        assert_eq!(
            headline(&c, false),
            "NEW FAILURES — 0 regressions, 1 new failure, 1 case removed"
        );
        assert_eq!(
            headline(&c, true),
            "NO REGRESSION — 0 regressions, 1 new failure (allowed), 1 case removed"
        );
        let shown = text(&old, &new, ("old.json", "new.json"), &c, false);
        assert!(
            shown.contains(
                "\nNEW FAILURES — not in the old run, fail now (1):\n  GEN-8-3  absent → fail TEXT"
            ),
            "{shown}"
        );
    }

    /// Control characters in a report's texts do not reach the terminal.
    #[test]
    fn texts_are_shown_without_control_characters() {
        let old = report(&case("A\\u001b[31m", "pass", ""), "");
        let new = report(&case("A\\u001b[31m", "fail", &diff("TEXT", "/x", "y")), "");
        let c = compare(&old, &new);
        let shown = text(&old, &new, ("o\u{7}", "n"), &c, false);
        assert!(
            !shown.contains('\u{1b}') && !shown.contains('\u{7}'),
            "{shown:?}"
        );
        assert!(shown.contains("A\\u{001b}[31m"), "{shown}");
    }
}
