//! The violations of a run: the requirements its failed cases break, computed once from the
//! results and the counterexamples, in the order every report leads with them. A difference
//! names the clauses behind its member ([`Difference::clauses`]) and is attributed to the most
//! specific of them ([`attributed`]); a violation is one clause with every failed case that
//! breaks it, the worst severity and the weakest conformance level at which it
//! shows, and the counterexample shrunk for it. Differences that name no clause are grouped under
//! one explicit entry, [`UNATTRIBUTED`], never dropped. A case without an outcome (a crash, a
//! timeout, a protocol error) breaks no clause: the reports list it apart, as a broken case.
//!
//! Expected failures count: a gate's requirements do not change with what `--expect` lists.
//! They are shown apart ([`Violation::expected_failures`]), so a reader can tell the violations
//! that fail the run from those its expectation file already accepts.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::generated::Found;
use super::{CaseResult, Difference, Severity, Status, Verdict};
use crate::conformance::{Level, level_of};

/// The entry that groups the differences naming no clause.
pub const UNATTRIBUTED: &str = "unattributed";

/// One violated requirement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Violation {
    /// The clause ID (or template ID) the differences name; `unattributed` for those that name
    /// none.
    pub clause: String,
    /// The weakest conformance level at which it shows: a run at this level or above fails on it.
    pub level: Level,
    /// The worst severity of its differences, or of its counterexample's where the search toward
    /// SAFETY took it further.
    pub severity: Severity,
    /// How many failed cases break it, fixed and generated together, expected failures included.
    pub cases: usize,
    /// Of those, how many the expectation file lists as expected failures.
    #[serde(default)]
    pub expected_failures: usize,
    /// The first case that breaks it, in the order of the results.
    pub first_case: String,
    /// Its shrunk counterexample: the position of it in the report's `counterexamples`; `None`
    /// when it has none (the cap was reached, or the run shrank nothing).
    #[serde(default)]
    pub counterexample: Option<usize>,
}

impl Violation {
    /// Whether a case breaking it fails the run (is not listed as an expected failure).
    pub fn fails_the_run(&self) -> bool {
        self.cases > self.expected_failures
    }
}

/// The clauses a difference breaks: those it names, or [`UNATTRIBUTED`].
pub fn clauses_of(d: &Difference) -> Vec<&str> {
    if d.clauses.is_empty() {
        vec![UNATTRIBUTED]
    } else {
        d.clauses.iter().map(String::as_str).collect()
    }
}

/// The clauses a verdict breaks, each with the worst severity and the weakest level of its
/// differences there, by clause ID; empty for a pass, a case without an outcome or one not run.
pub fn broken_by(verdict: &Verdict) -> BTreeMap<&str, (Severity, Level)> {
    let mut out: BTreeMap<&str, (Severity, Level)> = BTreeMap::new();
    if let Verdict::Fail { differences } = verdict {
        for d in differences {
            let level = level_of(d);
            for c in clauses_of(d) {
                let e = out.entry(c).or_insert((d.severity, level));
                e.0 = e.0.min(d.severity);
                e.1 = e.1.min(level);
            }
        }
    }
    out
}

/// Whether `verdict` breaks `clause` at `severity` or worse.
pub fn breaks(verdict: &Verdict, clause: &str, severity: Severity) -> bool {
    broken_by(verdict)
        .get(clause)
        .is_some_and(|(s, _)| *s <= severity)
}

/// The one clause each difference of a run's failed `results` is attributed to, by result and
/// difference. Of the clauses behind a member, most also stand behind many members that did not
/// differ, or that differ for another reason (AR-ORDER-1 behind every trace, AR-MSG-1 behind
/// every text): the difference is attributed to the most specific of its clauses, the one the
/// fewest failed cases of the run name, the first cited on a tie. So a gate that breaks one
/// requirement reads as that one clause, and the general clauses its differences also name
/// stand only for the differences nothing more specific explains.
pub fn attributed(results: &[CaseResult]) -> Vec<Vec<&str>> {
    let failed = |r: &&CaseResult| matches!(r.status, Status::Fail | Status::ExpectedFail);
    let mut support: BTreeMap<&str, usize> = BTreeMap::new();
    for r in results.iter().filter(failed) {
        for clause in broken_by(&r.verdict).into_keys() {
            *support.entry(clause).or_default() += 1;
        }
    }
    results
        .iter()
        .map(|r| match &r.verdict {
            Verdict::Fail { differences } if failed(&r) => differences
                .iter()
                .map(|d| {
                    let clauses = clauses_of(d);
                    clauses
                        .iter()
                        .enumerate()
                        .min_by_key(|(k, c)| (support.get(**c).copied().unwrap_or(0), *k))
                        .map_or(UNATTRIBUTED, |(_, c)| *c)
                })
                .collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// The violations of a run with these `results` and `counterexamples`, worst first: by severity,
/// then the weakest level, then the most cases, then the clause ID. Each difference counts for
/// the one clause it is [`attributed`] to.
pub fn of(results: &[CaseResult], counterexamples: &[Found]) -> Vec<Violation> {
    let mut by_clause: BTreeMap<&str, Violation> = BTreeMap::new();
    for (r, clauses) in results.iter().zip(attributed(results)) {
        let Verdict::Fail { differences } = &r.verdict else {
            continue;
        };
        // This case's clauses, each with the worst severity and weakest level of its differences.
        let mut here: BTreeMap<&str, (Severity, Level)> = BTreeMap::new();
        for (d, clause) in differences.iter().zip(clauses) {
            let level = level_of(d);
            let e = here.entry(clause).or_insert((d.severity, level));
            e.0 = e.0.min(d.severity);
            e.1 = e.1.min(level);
        }
        for (clause, (severity, level)) in here {
            let v = by_clause.entry(clause).or_insert_with(|| Violation {
                clause: clause.to_owned(),
                level,
                severity,
                cases: 0,
                expected_failures: 0,
                first_case: r.id.clone(),
                counterexample: None,
            });
            v.severity = v.severity.min(severity);
            v.level = v.level.min(level);
            v.cases += 1;
            if r.status == Status::ExpectedFail {
                v.expected_failures += 1;
            }
        }
    }
    let mut out: Vec<Violation> = by_clause.into_values().collect();
    for v in &mut out {
        // Of the counterexamples naming the clause, the one that breaks it worst, the first on a
        // tie: one may have been taken toward SAFETY from the case it was found in, and the
        // violation is then reported at the worst severity any input shows it, with that input.
        let worst = counterexamples
            .iter()
            .enumerate()
            .filter(|(_, f)| f.clauses.contains(&v.clause))
            .map(|(i, f)| {
                let severity = broken_by(&f.verdict)
                    .get(v.clause.as_str())
                    .map(|(s, _)| *s);
                (i, severity)
            })
            .min_by_key(|(i, severity)| (severity.unwrap_or(Severity::Info), *i));
        v.counterexample = worst.map(|(i, _)| i);
        if let Some((_, Some(severity))) = worst {
            v.severity = v.severity.min(severity);
        }
    }
    out.sort_by(|a, b| {
        a.severity
            .cmp(&b.severity)
            .then(a.level.cmp(&b.level))
            .then(b.cases.cmp(&a.cases))
            .then_with(|| a.clause.cmp(&b.clause))
    });
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::runner::report::specimen_result;
    use crate::runner::{Broken, ImplError};

    /// A difference of `severity` at `pointer` naming `clauses`.
    pub(crate) fn difference(severity: Severity, pointer: &str, clauses: &[&str]) -> Difference {
        Difference {
            severity,
            pointer: pointer.into(),
            expected: 1.into(),
            actual: 2.into(),
            rule: None,
            clauses: clauses.iter().map(|c| (*c).to_owned()).collect(),
        }
    }

    fn failed(id: &str, listed: bool, differences: Vec<Difference>) -> CaseResult {
        specimen_result(id, Verdict::Fail { differences }, listed)
    }

    /// Each clause once, with every case that breaks it (a case once however many of its
    /// differences name it), its worst severity and weakest level; the differences naming none
    /// under one entry; broken cases and passes in none; worst first.
    #[test]
    fn violations_group_cases_by_clause_worst_first() {
        let d = difference;
        let results = vec![
            failed(
                "A",
                false,
                vec![
                    d(Severity::Info, "/review/requests", &["AR-RES-REQUEST-1"]),
                    d(
                        Severity::Info,
                        "/review/consecutive_failures",
                        &["AR-RES-REQUEST-1"],
                    ),
                ],
            ),
            failed(
                "B",
                true,
                vec![
                    d(Severity::Info, "/review/requests", &["AR-RES-REQUEST-1"]),
                    d(
                        Severity::Text,
                        "/listener/reason",
                        &["MSG-FAILED", "AR-MSG-2"],
                    ),
                ],
            ),
            failed(
                "C",
                false,
                vec![d(Severity::Decision, "/listener/kind", &[])],
            ),
            failed(
                "D",
                false,
                vec![d(Severity::Decision, "/settled", &["AR-RES-REQUEST-1"])],
            ),
            specimen_result(
                "E",
                Verdict::Broken {
                    error: ImplError::new(Broken::Crash, "gone"),
                },
                false,
            ),
            specimen_result("F", Verdict::Pass, false),
        ];
        let v = of(&results, &[]);
        let found: Vec<(&str, Severity, Level, usize, usize, &str)> = v
            .iter()
            .map(|v| {
                (
                    v.clause.as_str(),
                    v.severity,
                    v.level,
                    v.cases,
                    v.expected_failures,
                    v.first_case.as_str(),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                // Effects before decisions within DECISION.
                (
                    "AR-RES-REQUEST-1",
                    Severity::Decision,
                    Level::Effects,
                    3,
                    1,
                    "A"
                ),
                (
                    UNATTRIBUTED,
                    Severity::Decision,
                    Level::Decisions,
                    1,
                    0,
                    "C"
                ),
                // Named by as many failed cases as AR-MSG-2: the first cited stands for it.
                ("MSG-FAILED", Severity::Text, Level::Texts, 1, 1, "B"),
            ]
        );
        assert!(v[0].fails_the_run() && !v[2].fails_the_run());
        assert!(v.iter().all(|v| v.counterexample.is_none()));
    }

    /// A difference counts for the most specific of its clauses: a general clause that many
    /// failed cases name (as AR-ORDER-1 stands behind every trace) does not stand for a
    /// difference that a clause fewer cases name explains, and stands for the differences
    /// nothing more specific explains.
    #[test]
    fn a_difference_counts_for_its_most_specific_clause() {
        let d = |clauses: &[&str]| difference(Severity::Order, "/trace", clauses);
        let results = vec![
            failed("A", false, vec![d(&["AR-ORDER-1", "AR-TOL-4"])]),
            failed("B", false, vec![d(&["AR-ORDER-1", "AR-RES-RETRY-1"])]),
            failed("C", false, vec![d(&["AR-ORDER-1", "AR-RES-RETRY-1"])]),
            failed("D", false, vec![d(&["AR-ORDER-1"])]),
        ];
        let found: Vec<(String, usize)> = of(&results, &[])
            .into_iter()
            .map(|v| (v.clause, v.cases))
            .collect();
        assert_eq!(
            found,
            [
                ("AR-RES-RETRY-1".to_owned(), 2),
                ("AR-ORDER-1".to_owned(), 1),
                ("AR-TOL-4".to_owned(), 1),
            ]
        );
        let by_case = attributed(&results);
        assert_eq!(by_case[0], ["AR-TOL-4"]);
        assert_eq!(by_case[3], ["AR-ORDER-1"]);
    }

    /// Within a severity and level, the clause more cases break comes first.
    #[test]
    fn more_cases_come_first_within_a_severity_and_level() {
        let d = |c: &str| difference(Severity::Info, "/review/requests", &[c]);
        let results = vec![
            failed("A", false, vec![d("AR-A-1")]),
            failed("B", false, vec![d("AR-B-1")]),
            failed("C", false, vec![d("AR-B-1")]),
        ];
        let clauses: Vec<String> = of(&results, &[]).into_iter().map(|v| v.clause).collect();
        assert_eq!(clauses, ["AR-B-1", "AR-A-1"]);
    }

    /// A violation's counterexample is the first one shrunk for its clause.
    #[test]
    fn a_violation_points_at_its_counterexample() {
        let results = vec![failed(
            "A",
            false,
            vec![
                difference(Severity::Info, "/review/requests", &["AR-X-1"]),
                difference(Severity::Info, "/result/info", &[]),
            ],
        )];
        let found = |clauses: &[&str]| -> Found {
            serde_json::from_value(
                serde_json::json!({"id": "GEN-1-0", "verdict": "pass", "clauses": clauses}),
            )
            .unwrap()
        };
        let cs = [found(&[]), found(&[UNATTRIBUTED]), found(&["AR-X-1"])];
        let v = of(&results, &cs);
        let pointed: Vec<(&str, Option<usize>)> = v
            .iter()
            .map(|v| (v.clause.as_str(), v.counterexample))
            .collect();
        assert_eq!(pointed, [("AR-X-1", Some(2)), (UNATTRIBUTED, Some(1))]);
        assert!(breaks(&results[0].verdict, "AR-X-1", Severity::Info));
        assert!(!breaks(&results[0].verdict, "AR-X-1", Severity::Text));
        assert!(!breaks(&results[0].verdict, "AR-Y-1", Severity::Info));
    }
}
