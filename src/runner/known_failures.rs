//! Expected failures, for adopting the suite gradually: a file lists the cases an implementation
//! is known to fail, each with a reason (and, from version 2, a link and the one clause it
//! excuses). Listed cases that fail as listed do not fail the run; listed cases that pass are
//! reported (and, with `--strict`, fail the run, so the list cannot rot). An entry that excuses
//! one clause excuses only the differences attributed to it ([`super::violations`]): the rest of
//! the case is still judged, as a conformance suite baselines a single check.

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

/// The expectation file's newest format version: 2 lets an entry carry a link and excuse one
/// clause. A file whose entries are all plain reasons is written as version 1, which every
/// runner reads.
pub const VERSION: u32 = 2;

/// One listed case: why it is expected to fail, where to read more, and the one clause it
/// excuses (every difference of the case when none). Written as the bare reason when it has
/// neither link nor clause: `"reason"`, else `{"reason", "link"?, "clause"?}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "EntryWire", into = "EntryWire")]
pub struct Entry {
    /// Why the case is expected to fail.
    pub reason: String,
    /// Where to read more: an issue, a pull request.
    pub link: Option<String>,
    /// The one clause it excuses: only differences attributed to it are expected.
    pub clause: Option<String>,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum EntryWire {
    Reason(String),
    Full {
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        link: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clause: Option<String>,
    },
}

impl From<EntryWire> for Entry {
    fn from(w: EntryWire) -> Entry {
        match w {
            EntryWire::Reason(reason) => Entry::because(reason),
            EntryWire::Full {
                reason,
                link,
                clause,
            } => Entry {
                reason,
                link,
                clause,
            },
        }
    }
}

impl From<Entry> for EntryWire {
    fn from(e: Entry) -> EntryWire {
        match (e.link, e.clause) {
            (None, None) => EntryWire::Reason(e.reason),
            (link, clause) => EntryWire::Full {
                reason: e.reason,
                link,
                clause,
            },
        }
    }
}

impl Entry {
    /// An entry of a reason alone.
    pub fn because(reason: impl Into<String>) -> Entry {
        Entry {
            reason: reason.into(),
            ..Entry::default()
        }
    }

    /// Whether the entry excuses a case that failed as `verdict` shows: any failure when it names
    /// no clause; when it names one, a failure whose every difference is attributed to that
    /// clause. A broken case is never a clause's, and a case that passed needs no excuse.
    pub fn excuses(&self, verdict: &super::Verdict) -> bool {
        match (&self.clause, verdict) {
            (_, super::Verdict::Pass | super::Verdict::NotApplicable { .. }) => false,
            (None, _) => true,
            (Some(clause), super::Verdict::Fail { differences }) => {
                super::violations::attributed_in_case(differences)
                    .iter()
                    .all(|c| c == clause)
            }
            (Some(_), super::Verdict::Broken { .. }) => false,
        }
    }

    /// As the reports show it: the reason, then the clause it excuses and the link.
    pub fn describe(&self) -> String {
        let mut out = self.reason.clone();
        if let Some(c) = &self.clause {
            out.push_str(&format!(" (excuses {c} only)"));
        }
        if let Some(l) = &self.link {
            out.push_str(&format!(" <{l}>"));
        }
        out
    }
}

/// An expectation file: `{"version": 1, "failures": {"<case id>": "<reason>", ...}}`; from
/// version 2 an entry may instead be `{"reason", "link"?, "clause"?}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// 1, or [`VERSION`] when an entry needs it.
    pub version: u32,
    /// Known failures by case ID.
    pub failures: BTreeMap<String, Entry>,
}

/// Why an expectation file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ExpectError {
    /// Not JSON, or not the format.
    #[error(
        "{path}: {message} (expected {{\"version\": 2, \"failures\": {{\"CASE-ID\": \"reason\", \"CASE-2\": {{\"reason\": \"...\", \"link\": \"https://...\", \"clause\": \"AR-...\"}}, ...}}}})"
    )]
    Format {
        /// The file.
        path: String,
        /// What was wrong.
        message: String,
    },
    /// Another version.
    #[error("{path}: version {found} is not supported; this runner reads versions 1 and {VERSION}")]
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
        if !(1..=VERSION).contains(&e.version) {
            return Err(ExpectError::Version {
                path: path.to_owned(),
                found: e.version,
            });
        }
        for (id, entry) in &e.failures {
            let at = |message: String| ExpectError::Format {
                path: path.to_owned(),
                message: format!("failures.{id}: {message}"),
            };
            if e.version == 1 && (entry.link.is_some() || entry.clause.is_some()) {
                return Err(at(
                    "a link or a clause needs version 2 (write \"version\": 2)".to_owned(),
                ));
            }
            if let Some(c) = &entry.clause
                && !crate::spec::clause_ids().contains(c)
                && crate::messages::by_id(c).is_none()
            {
                return Err(at(format!(
                    "clause {c:?} is neither a clause nor a template of the spec \
                     (`autoreview requirements` lists the clauses)"
                )));
            }
        }
        Ok(e)
    }

    /// The reason a case is expected to fail, if it is listed.
    pub fn reason(&self, id: &str) -> Option<&str> {
        self.entry(id).map(|e| e.reason.as_str())
    }

    /// The entry of a listed case.
    pub fn entry(&self, id: &str) -> Option<&Entry> {
        self.failures.get(id)
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
                let entry = previous.entry(&r.id).cloned().unwrap_or_else(|| {
                    Entry::because(match &r.verdict {
                        // The worst difference, and the clause the case's root cause is
                        // attributed to (what the report leads with).
                        super::Verdict::Fail { differences } => format!(
                            "fails with {} at {} ({}); recorded by --write-expect",
                            differences
                                .first()
                                .map(|d| d.severity.as_str())
                                .unwrap_or("?"),
                            differences
                                .first()
                                .map(|d| d.pointer.as_str())
                                .unwrap_or("?"),
                            super::violations::attributed_in_case(differences)
                                .first()
                                .copied()
                                .unwrap_or("?"),
                        ),
                        super::Verdict::Broken { error } => {
                            format!("{}; recorded by --write-expect", error.kind.as_str())
                        }
                        super::Verdict::Pass | super::Verdict::NotApplicable { .. } => {
                            String::new()
                        }
                    })
                });
                (r.id.clone(), entry)
            })
            .chain(elsewhere)
            .collect();
        Expected::of(failures)
    }

    /// The file of these entries: version 1 when each is a reason alone, which every runner
    /// reads; [`VERSION`] when one needs it.
    pub fn of(failures: BTreeMap<String, Entry>) -> Expected {
        let plain = failures
            .values()
            .all(|e| e.link.is_none() && e.clause.is_none());
        Expected {
            version: if plain { 1 } else { VERSION },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::difference::{Difference, Severity};
    use crate::runner::Verdict;
    use serde_json::json;

    fn parse(text: &str) -> Result<Expected, String> {
        Expected::parse("x.json", text).map_err(|e| e.to_string())
    }

    /// A failure with a difference at each pointer, decided by its clause.
    fn failing(differences: &[(&str, &str)]) -> Verdict {
        Verdict::Fail {
            differences: differences
                .iter()
                .map(|(pointer, clause)| Difference {
                    severity: Severity::Decision,
                    pointer: (*pointer).to_owned(),
                    expected: json!(1),
                    actual: json!(2),
                    rule: None,
                    clauses: vec![(*clause).to_owned()],
                })
                .collect(),
        }
    }

    #[test]
    fn version_1_reasons_and_version_2_entries_are_read() {
        let one = parse(r#"{"version": 1, "failures": {"A-1": "slow"}}"#).unwrap();
        assert_eq!(one.entry("A-1"), Some(&Entry::because("slow")));
        let two = parse(
            r#"{"version": 2, "failures": {"A-1": "slow", "B-2": {"reason": "fenced", "link": "https://example.org/7", "clause": "AR-TOL-9"}}}"#,
        )
        .unwrap();
        let b = two.entry("B-2").unwrap();
        assert_eq!(
            (b.reason.as_str(), b.link.as_deref(), b.clause.as_deref()),
            ("fenced", Some("https://example.org/7"), Some("AR-TOL-9"))
        );
        assert_eq!(
            b.describe(),
            "fenced (excuses AR-TOL-9 only) <https://example.org/7>"
        );
        // Written back as it was read: the reason alone stays a string.
        assert_eq!(parse(&two.to_text()).unwrap(), two);
        assert!(
            two.to_text().contains("\"A-1\": \"slow\""),
            "{}",
            two.to_text()
        );
    }

    #[test]
    fn a_file_is_written_as_version_1_unless_an_entry_needs_2() {
        let plain = Expected::of(BTreeMap::from([("A-1".to_owned(), Entry::because("x"))]));
        assert_eq!(plain.version, 1);
        let linked = Expected::of(BTreeMap::from([(
            "A-1".to_owned(),
            Entry {
                link: Some("https://example.org".into()),
                ..Entry::because("x")
            },
        )]));
        assert_eq!(linked.version, 2);
    }

    #[test]
    fn a_bad_entry_says_where_and_how_to_fix_it() {
        let e =
            parse(r#"{"version": 1, "failures": {"A-1": {"reason": "x", "clause": "AR-TOL-9"}}}"#)
                .unwrap_err();
        assert!(
            e.contains("failures.A-1: a link or a clause needs version 2"),
            "{e}"
        );
        let e =
            parse(r#"{"version": 2, "failures": {"A-1": {"reason": "x", "clause": "AR-TOL-99"}}}"#)
                .unwrap_err();
        assert!(
            e.contains("failures.A-1: clause \"AR-TOL-99\" is neither a clause nor a template"),
            "{e}"
        );
        let e = parse(r#"{"version": 3, "failures": {}}"#).unwrap_err();
        assert!(e.contains("reads versions 1 and 2"), "{e}");
        let e = parse(r#"{"version": 2, "failures": {"A-1": {"why": "x"}}}"#).unwrap_err();
        assert!(e.contains("x.json: failures"), "{e}");
    }

    #[test]
    fn an_entry_naming_a_clause_excuses_only_that_clauses_differences() {
        let tol9 = Entry {
            clause: Some("AR-TOL-9".into()),
            ..Entry::because("x")
        };
        // The root cause is the clause, and what it explains after it: excused.
        let root = ("/review/failure", "AR-TOL-9");
        assert!(tol9.excuses(&failing(&[root, ("/listener/kind", "AR-DECIDE-1")])));
        // A difference of its own before the root (what a request carried): still judged.
        let leaf = ("/review/requests/0/session_id", "AR-RES-REQUEST-1");
        assert!(!tol9.excuses(&failing(&[leaf, root])));
        // Another root cause: still judged.
        assert!(!tol9.excuses(&failing(&[("/review/failure", "AR-DECIDE-1")])));
        assert!(!tol9.excuses(&Verdict::Pass));
        // Without a clause, any failure.
        assert!(Entry::because("x").excuses(&failing(&[leaf, root])));
    }

    #[test]
    fn a_listed_case_fails_as_expected_only_as_its_entry_says() {
        use crate::runner::{CaseResult, Status, Subject};
        let status = |entry: Option<&Entry>, verdict: Verdict| {
            let subject = Subject {
                id: "A-1".into(),
                area: String::new(),
                title: String::new(),
                clauses: Vec::new(),
                row: None,
            };
            CaseResult::new(subject, verdict, entry, std::time::Duration::ZERO).status
        };
        let tol9 = Entry {
            clause: Some("AR-TOL-9".into()),
            ..Entry::because("x")
        };
        let by_tol9 = || failing(&[("/review/failure", "AR-TOL-9")]);
        let by_other = || failing(&[("/review/failure", "AR-DECIDE-1")]);
        assert_eq!(status(Some(&tol9), by_tol9()), Status::ExpectedFail);
        assert_eq!(status(Some(&tol9), by_other()), Status::Fail);
        assert_eq!(status(Some(&tol9), Verdict::Pass), Status::UnexpectedPass);
        assert_eq!(
            status(Some(&Entry::because("x")), by_other()),
            Status::ExpectedFail
        );
        assert_eq!(status(None, by_tol9()), Status::Fail);
        assert_eq!(status(None, Verdict::Pass), Status::Pass);
    }
}
