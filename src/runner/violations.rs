//! The violations of a run: the requirements its failed cases break, computed once from the
//! results and the counterexamples, in the order every report leads with them. A difference
//! names the clauses behind its member ([`Difference::clauses`]) and is attributed to the clause
//! of its case's root cause ([`attributed_in_case`]); a violation is one clause with every failed case that
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
use crate::engine::{review, session};

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

/// Clauses that stand behind every member of a kind (every trace, every text of a table, every
/// review's failure and its message): cited after the clause that decided the member, they
/// explain no one difference, and a difference is attributed to them only when its member cites
/// nothing else.
const UNDER_EVERY_MEMBER: [&str; 7] = [
    "AR-ORDER-1",
    "AR-MSG-1",
    "AR-MSG-2",
    "AR-RES-MSG-1",
    "AR-REVIEW-4",
    "AR-REVIEW-5",
    "AR-REVIEW-6",
];

/// Where the member `inner` of a call's outcome, differing as `d` shows, stands in the order the
/// gate decides it: the mode the call arrived with and the one it was narrowed to (the first
/// thing the gate does, AR-CONFINE-1), what was sent, then requests the reference did not make,
/// whether and how the review failed, how often it asked, the count it leaves, then the
/// decision, the approval, the result, the requests its body raised and the trace that records
/// them.
fn causal_rank(inner: &str, d: &Difference, unreviewed: bool) -> u8 {
    const ORDER: [&str; 15] = [
        "/sandbox/before",
        "/sandbox/after",
        "/review/routes",
        "/review/requests",
        "/review/failure",
        "/review/attempts",
        "/review/consecutive_failures",
        "/settled",
        "/listener",
        "/approval",
        "/result",
        "/body_approvals",
        "/trace",
        "/event",
        "/error",
    ];
    let place = |member: &str| {
        ORDER
            .iter()
            .position(|p| member == *p || member.starts_with(&format!("{p}/")))
            .unwrap_or(ORDER.len()) as u8
    };
    // More requests than the reference made: the first of them is where the gate went another
    // way (the reference had stopped), just before anything it read from their replies.
    let asked_again = inner == "/review/attempts"
        && matches!((d.expected.as_u64(), d.actual.as_u64()), (Some(e), Some(a)) if a > e);
    if unreviewed {
        // Whether the call was reviewed at all comes before anything its review did.
        0
    } else if asked_again {
        2 * place("/review/failure")
    } else {
        2 * place(inner) + 1
    }
}

/// A difference's item (a single call is item 0) and its member within the item.
fn item_of(d: &Difference) -> (usize, &str) {
    match d.pointer.strip_prefix("/calls/") {
        Some(rest) => {
            let (k, inner) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            (k.parse().unwrap_or(usize::MAX), inner)
        }
        None => (0, d.pointer.as_str()),
    }
}

/// A difference's place in the order a session is decided: its item, then its member's
/// [`causal_rank`].
fn causal_order(d: &Difference, unreviewed: bool) -> (usize, u8) {
    let (k, inner) = item_of(d);
    (k, causal_rank(inner, d, unreviewed))
}

/// Whether a difference is a text worded otherwise: present on both sides and not the same.
fn worded(d: &Difference) -> bool {
    d.expected.is_string() && d.actual.is_string()
}

/// Whether a difference is information about a call that explains nothing after it (what the
/// requests carried, the routes, an info object): it is its own cause, never another's.
fn leaf(d: &Difference) -> bool {
    [
        "/review/routes",
        "/review/requests",
        "/listener/info",
        "/result/info",
    ]
    .iter()
    .any(|m| d.pointer.contains(m))
}

/// Whether a difference is one side reviewing a call the other did not review at all: a count
/// of requests that is 0 on one side only, where that side's review did not fail either (a
/// review that failed before its first request, for want of a schema or a working directory,
/// was made, and its failure says why). `item` holds the differences of the same item.
fn reviewed_or_not(d: &Difference, item: &[&Difference]) -> bool {
    let zero = |v: &serde_json::Value| v.as_u64() == Some(0);
    if !d.pointer.ends_with("/review/attempts") || zero(&d.expected) == zero(&d.actual) {
        return false;
    }
    let failed_without_a_request = item.iter().any(|f| {
        let inner = item_of(f).1;
        // Both sides failed where a member of the failure differs; where the failure itself
        // differs, the side that made no request tells.
        inner.starts_with("/review/failure/")
            || (inner == "/review/failure"
                && !(if zero(&d.expected) {
                    &f.expected
                } else {
                    &f.actual
                })
                .is_null())
    });
    !failed_without_a_request
}

/// The clause a difference's own member breaks: for one side reviewing a call the other did not,
/// the item of its session that decided the call's preset, where one did
/// ([`session::PRESET_DECIDED_BY`]: a selection of Auto, a disposal, a call during which the
/// integration was disposed of, an installation after a disposal moved it), else, where the reference
/// reviewed it, the clause that requires the review ([`review::REVIEWED_BY`]), and where it did
/// not, the clause by which it passed through (the first it cites); for a trace holding the
/// reference's events in another order, AR-ORDER-1 ([`reordered`]); for a text worded otherwise,
/// the template or value it lies in ([`provenance`]; a text that cites no template is a value
/// whole; a text wholly another template's, [`Span::Another`], is the member's deciding clause
/// below), else the first template the member cites;
/// otherwise the first
/// clause its member cites that is not one of those behind every member of a kind
/// ([`UNDER_EVERY_MEMBER`]) nor a session's preset, the first cited when there is none;
/// [`UNATTRIBUTED`] when it cites nothing.
fn own_clause(d: &Difference, unreviewed: bool) -> &str {
    let carried = |c: &str| session::PRESET_DECIDED_BY.contains(&c);
    if unreviewed {
        if let Some(c) = d.clauses.iter().find(|c| carried(c)) {
            return c;
        }
        if d.expected.as_u64() != Some(0)
            && let Some(c) = d.clauses.iter().find(|c| *c == review::REVIEWED_BY)
        {
            return c;
        }
    }
    if reordered(d) && d.clauses.iter().any(|c| c == "AR-ORDER-1") {
        return "AR-ORDER-1";
    }
    let template = || {
        d.clauses
            .iter()
            .find(|c| c.starts_with("MSG-"))
            .map(String::as_str)
    };
    let specific = || {
        d.clauses
            .iter()
            .find(|c| !UNDER_EVERY_MEMBER.contains(&c.as_str()) && !carried(c))
            .map(String::as_str)
    };
    let found = if worded(d) {
        match provenance(d) {
            Some(Span::Template(id)) => Some(id),
            // Another template's text whole: the rule that chose the text, not a wording.
            Some(Span::Another(_)) => specific(),
            Some(Span::Value(e, a)) => value_clause(d, e, a).or_else(specific),
            // A text no template renders at all (a thrown value's message): a value whole.
            None if template().is_none() => d
                .expected
                .as_str()
                .zip(d.actual.as_str())
                .and_then(|(e, a)| value_clause(d, e, a))
                .or_else(specific),
            None => template().or_else(specific),
        }
    } else {
        specific()
    };
    found
        .or_else(|| d.clauses.first().map(String::as_str))
        .unwrap_or(UNATTRIBUTED)
}

/// Whether a difference is a trace holding the very events the reference's holds, in another
/// order: what breaks is the order AR-ORDER-1 fixes, not a clause that put an event there.
fn reordered(d: &Difference) -> bool {
    let lists = d.expected.as_array().zip(d.actual.as_array());
    // As many events, each as often: the same events.
    d.pointer.ends_with("/trace")
        && lists.is_some_and(|(e, a)| {
            e.len() == a.len() && super::compare::first_miscounted(e, a).is_none()
        })
}

/// Where in a worded text a difference lies, as far as the templates its member cites tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Span<'t> {
    /// In the literal text of this template: the implementation does not keep its words.
    Template(&'static str),
    /// Where the reference's text is rendered from one template, the implementation's is wholly
    /// another template's rendering (this one): not the same text worded otherwise, but another
    /// text chosen, by a rule of its own (the conflict's message where the reference's reader
    /// found a malformed object, the cancellation where it kept a denial).
    Another(&'static str),
    /// In a value inserted into the templates, which every one of them keeps on both sides: the
    /// reference's value and the implementation's.
    Value(&'t str, &'t str),
}

/// Where the worded difference `d` lies: each template the member cites that the reference's text
/// is rendered from (outermost first) is matched against both texts; the first whose literal
/// words the implementation's text does not keep is where it lies ([`Span::Template`]), and where
/// both keep them, the search goes on inside the one inserted value that differs, with the
/// templates cited after it. A difference inside a value no cited template renders is
/// [`Span::Value`]. `None` when no cited template renders the reference's text (a text in an
/// implementation's own wording, say): the member's citations then decide.
fn provenance(d: &Difference) -> Option<Span<'_>> {
    let (expected, actual) = (d.expected.as_str()?, d.actual.as_str()?);
    let templates: Vec<crate::messages::Template> = d
        .clauses
        .iter()
        .filter_map(|c| crate::messages::by_id(c))
        .collect();
    span_in(expected, actual, &templates)
}

/// [`provenance`] of the texts `expected` and `actual` among `templates`.
fn span_in<'t>(
    expected: &'t str,
    actual: &'t str,
    templates: &[crate::messages::Template],
) -> Option<Span<'t>> {
    for (k, t) in templates.iter().enumerate() {
        let Some(ours) = filled(t, expected) else {
            continue;
        };
        let Some(theirs) = filled(t, actual) else {
            return Some(match another(templates, actual) {
                Some(other) => Span::Another(other.id),
                None => Span::Template(t.id),
            });
        };
        let (e, a) = ours.into_iter().zip(theirs).find(|(e, a)| e != a)?;
        return Some(span_in(e, a, &templates[k + 1..]).unwrap_or(Span::Value(e, a)));
    }
    None
}

/// The template outside `cited` whose rendering `text` wholly is, where one is: a template of
/// [`crate::messages::ALL`] with a literal word of its own (not a bare placeholder, which any text
/// fills), whose words `text` keeps, first, last and in order. A template the member cites is
/// none: a text that is one of the reference's inner texts alone is that text worded otherwise
/// (its wrapper dropped).
fn another(cited: &[crate::messages::Template], text: &str) -> Option<crate::messages::Template> {
    let literal = |u: &crate::messages::Template| {
        let names = u.placeholders();
        let bare = names
            .iter()
            .fold(u.text.to_owned(), |t, p| t.replace(&format!("<{p}>"), ""));
        bare.trim().chars().count()
    };
    crate::messages::ALL.iter().copied().find(|u| {
        !cited.iter().any(|c| c.id == u.id) && literal(u) >= 3 && filled(u, text).is_some()
    })
}

/// The values of `template`'s placeholders in `text`, in order, when `text` keeps the template's
/// literal words: it starts with the first, ends with the last, and holds the others in order
/// between them (each found at its first place after the one before). `None` when it does not.
/// Linear in the text's length for each literal word.
fn filled<'t>(template: &crate::messages::Template, text: &'t str) -> Option<Vec<&'t str>> {
    // The literal words between the placeholders, each `<name>` of one a boundary.
    let names = template.placeholders();
    let mut words: Vec<&str> = Vec::new();
    let (mut rest, mut from) = (template.text, 0);
    while let Some(open) = rest[from..].find('<').map(|k| from + k) {
        let close = rest[open..].find('>').map(|k| open + k);
        match close.filter(|&c| names.contains(&&rest[open + 1..c])) {
            Some(c) => {
                words.push(&rest[..open]);
                rest = &rest[c + 1..];
                from = 0;
            }
            None => from = open + 1,
        }
    }
    words.push(rest);
    let (first, last) = (words[0], words[words.len() - 1]);
    if words.len() == 1 {
        return (text == first).then(Vec::new);
    }
    let inner = text.strip_prefix(first)?;
    let inner = inner.strip_suffix(last)?;
    let mut values = Vec::with_capacity(words.len() - 1);
    let mut at = inner;
    for word in &words[1..words.len() - 1] {
        let k = at.find(word)?;
        values.push(&at[..k]);
        at = &at[k + word.len()..];
    }
    values.push(at);
    Some(values)
}

/// The clause that turned a value into the text of a failure message, for a difference inside
/// such a value ([`Span::Value`]: `expected` and `actual`): in the resilient profile the normalization rule the
/// implementation's text visibly breaks (a hidden character shown or an escape written otherwise:
/// AR-RES-NORM-3; whitespace not collapsed: AR-RES-NORM-2; cut elsewhere: AR-RES-NORM-4), else the
/// value's text itself (AR-RES-NORM-1); in the baseline, `String(value)` (AR-REVIEW-5). `None`
/// for any other text: the member's citations then decide.
fn value_clause(d: &Difference, expected: &str, actual: &str) -> Option<&'static str> {
    let cites = |id: &str| d.clauses.iter().any(|c| c == id);
    if cites("AR-RES-NORM-1") {
        // The escapes a text holds, each `\u{…}` whole.
        let escapes = |t: &str| -> Vec<String> {
            t.match_indices("\\u{")
                .map(|(k, _)| t[k..].chars().take_while(|&c| c != '}').collect())
                .collect()
        };
        let spaced = actual.starts_with(' ')
            || actual.ends_with(' ')
            || actual.contains("  ")
            || actual
                .chars()
                .any(|c| c != ' ' && crate::normalize::is_space(c));
        Some(
            if actual.chars().any(crate::normalize::is_hidden)
                || escapes(expected) != escapes(actual)
            {
                "AR-RES-NORM-3"
            } else if spaced {
                "AR-RES-NORM-2"
            } else if expected.ends_with('…') != actual.ends_with('…')
                || actual.chars().count() > crate::normalize::MAX_CHARS
            {
                "AR-RES-NORM-4"
            } else if prefixed(expected, actual) {
                "AR-REVIEW-5"
            } else {
                "AR-RES-NORM-1"
            },
        )
    } else if cites("AR-REVIEW-5") {
        Some("AR-REVIEW-5")
    } else {
        None
    }
}

/// Whether `actual` is the value's text `expected`, as the reference renders it, with words the
/// implementation put before it, up to a `: ` (`auto-review: boom` for `boom`): the value is
/// converted and normalized as the spec says, and what breaks is what AR-REVIEW-5 says the message
/// is, the value's text and nothing before it (a thrown value), not how the value became text.
/// Where both texts are cut at the bound (AR-RES-NORM-4), the words before push the cut earlier,
/// so what follows them is a beginning of the reference's text. Linear in the texts' lengths.
fn prefixed(expected: &str, actual: &str) -> bool {
    let Some(k) = actual.find(": ") else {
        return false;
    };
    let rest = &actual[k + 2..];
    match (expected.strip_suffix('…'), rest.strip_suffix('…')) {
        (Some(whole), Some(shown)) => !shown.is_empty() && whole.starts_with(shown),
        _ => !expected.is_empty() && rest == expected,
    }
}

/// The clause each of a failed case's `differences` is attributed to, in their order: the
/// clause of its root cause. The differences are taken in the order the gate decides
/// ([`causal_order`]); the first one that is not a [`leaf`] is the case's root, attributed to its
/// own clause ([`own_clause`]: the rule that decided it, a worded text's template), and every
/// difference after it — which that first one explains (a body that ran because the review read
/// an allow, a text that quotes a reworded failure message) — is attributed to the root too.
/// A leaf before the root counts for its own clause. So a gate that breaks one requirement reads
/// as that one clause, whatever else its mistake changes.
pub fn attributed_in_case(differences: &[Difference]) -> Vec<&str> {
    let mut out = vec![UNATTRIBUTED; differences.len()];
    // The differences found on the case's own input, and those the search toward a body run
    // found on it changed: each input has its own root.
    for changed in [false, true] {
        let of_input: Vec<usize> = (0..differences.len())
            .filter(|&k| differences[k].shown_on_a_changed_input() == changed)
            .collect();
        attribute_from_root(differences, of_input, &mut out);
    }
    out
}

/// [`attributed_in_case`] for the differences `of_input` of one input, written to `out`.
fn attribute_from_root<'d>(
    differences: &'d [Difference],
    mut order: Vec<usize>,
    out: &mut [&'d str],
) {
    // Which differences are a call one side did not review at all, each judged among the
    // differences of its own item.
    let mut unreviewed = vec![false; differences.len()];
    for &k in &order {
        let d = &differences[k];
        if d.pointer.ends_with("/review/attempts") {
            let item: Vec<&Difference> = order
                .iter()
                .map(|&j| &differences[j])
                .filter(|f| item_of(f).0 == item_of(d).0)
                .collect();
            unreviewed[k] = reviewed_or_not(d, &item);
        }
    }
    order.sort_by_key(|&k| causal_order(&differences[k], unreviewed[k]));
    let mut root: Option<&str> = None;
    for k in order {
        let d = &differences[k];
        out[k] = match root {
            Some(r) => r,
            None if leaf(d) => own_clause(d, unreviewed[k]),
            None => {
                let own = own_clause(d, unreviewed[k]);
                root = Some(own);
                own
            }
        };
    }
}

/// The worst severity of the differences of `verdict` attributed to `clause`, if any is.
fn attributed_to(verdict: &Verdict, clause: &str) -> Option<Severity> {
    let Verdict::Fail { differences } = verdict else {
        return None;
    };
    differences
        .iter()
        .zip(attributed_in_case(differences))
        .filter(|(_, c)| *c == clause)
        .map(|(d, _)| d.severity)
        .min()
}

/// The one clause each difference of a run's failed `results` is attributed to, by result and
/// difference ([`attributed_in_case`]).
pub fn attributed(results: &[CaseResult]) -> Vec<Vec<&str>> {
    let failed = |r: &CaseResult| matches!(r.status, Status::Fail | Status::ExpectedFail);
    results
        .iter()
        .map(|r| match &r.verdict {
            Verdict::Fail { differences } if failed(r) => attributed_in_case(differences),
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
        // A counterexample stands for the clause it was shrunk for, and for the clause its own
        // differences are attributed to.
        let worst = counterexamples
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let as_root = attributed_to(&f.verdict, &v.clause);
                let shrunk_for = f.clauses.contains(&v.clause).then(|| {
                    broken_by(&f.verdict)
                        .get(v.clause.as_str())
                        .map(|(s, _)| *s)
                });
                match (as_root, shrunk_for) {
                    (Some(s), _) => Some((i, Some(s))),
                    (None, Some(s)) => Some((i, s)),
                    (None, None) => None,
                }
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
    use crate::report::specimen_result;
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

    /// Words put before a value's text up to a `: ` are what AR-REVIEW-5 says the message is,
    /// whole or cut at the bound; a value's text converted otherwise (its object's JSON for its
    /// `message`) or with words after it is not.
    #[test]
    fn words_before_a_value_text_are_told_from_its_conversion() {
        for (expected, actual, prefixed_) in [
            ("boom", "auto-review: boom", true),
            ("a: b", "reviewer request failed: a: b", true),
            ("abcdef…", "auto-review: abc…", true),
            ("abcdef…", "auto-review: abx…", false),
            ("boom", r#"{"message":"boom"}"#, false),
            ("boom", "boom: auto-review", false),
            ("boom", "auto-review:boom", false),
            ("", "auto-review: ", false),
        ] {
            assert_eq!(
                prefixed(expected, actual),
                prefixed_,
                "{expected:?} {actual:?}"
            );
        }
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

    /// A difference counts for the first clause its member cites that does not stand behind
    /// every member of a kind (as AR-ORDER-1 stands behind every trace), and for that general
    /// clause only when its member cites nothing else.
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

    /// A difference with these values.
    fn valued(
        severity: Severity,
        pointer: &str,
        expected: serde_json::Value,
        actual: serde_json::Value,
        clauses: &[&str],
    ) -> Difference {
        Difference {
            expected,
            actual,
            ..difference(severity, pointer, clauses)
        }
    }

    /// A case's differences count for its root cause: the first of them in the order the gate
    /// decides that is not mere information. A reader that strips what it should not reads an
    /// allow where the reference's review fails by AR-TOL-10: the body that then runs, the
    /// decision and the texts all count for AR-TOL-10, which the run leads with at SAFETY,
    /// although the decision's clause is cited by more members.
    #[test]
    fn a_case_counts_for_its_root_cause() {
        use serde_json::{Value, json};
        let strip = vec![
            valued(
                Severity::Safety,
                "/result/executed",
                json!(false),
                json!(true),
                &["AR-RESULT-2", "AR-RES-FAIL-3"],
            ),
            valued(
                Severity::Decision,
                "/listener/kind",
                json!("ask"),
                json!("allow"),
                &["AR-RES-FAIL-3"],
            ),
            valued(
                Severity::Text,
                "/listener/reason",
                json!("Auto review failed"),
                Value::Null,
                &["AR-RES-FAIL-3", "MSG-ASK-FAILED", "AR-RES-MSG-1"],
            ),
            valued(
                Severity::Info,
                "/review/failure",
                json!({"class": "protocol"}),
                Value::Null,
                &["AR-TOL-10", "AR-REVIEW-4"],
            ),
        ];
        assert_eq!(attributed_in_case(&strip), ["AR-TOL-10"; 4]);
        let other = vec![valued(
            Severity::Decision,
            "/listener/kind",
            json!("ask"),
            json!("deny"),
            &["AR-RES-FAIL-3"],
        )];
        let results = vec![failed("A", false, strip), failed("B", false, other.clone())];
        let v = of(&results, &[]);
        assert_eq!(
            (v[0].clause.as_str(), v[0].severity),
            ("AR-TOL-10", Severity::Safety)
        );
        assert_eq!(
            (v[1].clause.as_str(), v[1].severity),
            ("AR-RES-FAIL-3", Severity::Decision)
        );

        // A text worded otherwise counts for its template, not for the decision behind it; what
        // the requests carried counts for itself and explains nothing after it.
        let worded = vec![
            valued(
                Severity::Info,
                "/review/requests",
                json!([]),
                json!([{}]),
                &["AR-RES-REQUEST-1"],
            ),
            valued(
                Severity::Text,
                "/listener/reason",
                json!("Auto review failed for tool \"pwsh\": x"),
                json!("review failed: x"),
                &[
                    "AR-DECIDE-1",
                    "MSG-FAILED",
                    "AR-MSG-1",
                    "MSG-ERR-ENDED-DETAIL",
                ],
            ),
            valued(
                Severity::Text,
                "/result/text",
                json!("Error: Auto review failed for tool \"pwsh\": x"),
                json!("Error: review failed: x"),
                &["AR-RESULT-2", "MSG-ERROR-PREFIX", "AR-MSG-1"],
            ),
        ];
        assert_eq!(
            attributed_in_case(&worded),
            ["AR-RES-REQUEST-1", "MSG-FAILED", "MSG-FAILED"]
        );

        // More requests than the reference made come before what their replies did: one repair
        // too many counts for the budget, not for the failure the reference ended with.
        let repaired = vec![
            valued(
                Severity::Info,
                "/review/failure",
                json!({"class": "protocol"}),
                Value::Null,
                &["AR-TOL-5", "AR-REVIEW-4"],
            ),
            valued(
                Severity::Order,
                "/review/attempts",
                json!(2),
                json!(3),
                &["AR-RES-RETRY-1"],
            ),
        ];
        assert_eq!(attributed_in_case(&repaired), ["AR-RES-RETRY-1"; 2]);
        // Fewer: the gate stopped where the reference read a failure, which is the cause.
        let mut stopped = repaired.clone();
        stopped[1].actual = json!(1);
        assert_eq!(attributed_in_case(&stopped), ["AR-TOL-5"; 2]);
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

    /// A worded difference reads as the template whose literal words the implementation changed,
    /// or, where it keeps every template's words, as the clause that turned the inserted value
    /// into text: `String(value)` in the baseline, the normalization rule the text breaks in the
    /// resilient profile.
    #[test]
    fn a_worded_difference_reads_as_the_span_it_lies_in() {
        let worded = |expected: &str, actual: &str, clauses: &[&str]| {
            let mut d = difference(Severity::Text, "/review/failure/message", clauses);
            d.expected = expected.into();
            d.actual = actual.into();
            own_clause(&d, false).to_owned()
        };
        let detail = [
            "AR-REVIEW-5",
            "AR-PARSE-1",
            "MSG-ERR-ENDED-DETAIL",
            "AR-MSG-2",
        ];
        let ended = "auto-review: reviewer ended with error UNKNOWN: ";
        // The value written otherwise, the template kept.
        assert_eq!(
            worded(&format!("{ended}100"), &format!("{ended}100.0"), &detail),
            "AR-REVIEW-5"
        );
        // The template's words changed.
        assert_eq!(
            worded(
                &format!("{ended}100"),
                "auto-review: the reviewer failed with error UNKNOWN: 100",
                &detail
            ),
            "MSG-ERR-ENDED-DETAIL"
        );
        // Inside the outer template, the inner one reworded.
        let failed = [
            "AR-DECIDE-1",
            "MSG-FAILED",
            "AR-MSG-1",
            "MSG-ERR-ENDED-DETAIL",
        ];
        let outer = "Auto review of tool \"pwsh\" failed; its body was not executed: ";
        assert_eq!(
            worded(
                &format!("{outer}{ended}100"),
                &format!("{outer}auto-review: ended with error UNKNOWN: 100"),
                &failed
            ),
            "MSG-ERR-ENDED-DETAIL"
        );
        // The resilient normalization: each rule by what the implementation's text breaks.
        let norm = [
            "AR-REVIEW-5",
            "AR-RES-NORM-1",
            "AR-RES-NORM-2",
            "AR-RES-NORM-3",
            "AR-RES-NORM-4",
            "MSG-ERR-ENDED-DETAIL",
        ];
        let pair = |e: &str, a: &str| worded(&format!("{ended}{e}"), &format!("{ended}{a}"), &norm);
        assert_eq!(pair("[1,-0]", "[1.0,-0.0]"), "AR-RES-NORM-1");
        assert_eq!(pair("a b", "a  b"), "AR-RES-NORM-2");
        assert_eq!(pair("a\\u{001b}b", "a\u{1b}b"), "AR-RES-NORM-3");
        assert_eq!(pair("a\\u{001b}b", "a\\u{001B}b"), "AR-RES-NORM-3");
        assert_eq!(
            pair(&format!("{}…", "a".repeat(351)), &"a".repeat(420)),
            "AR-RES-NORM-4"
        );
        // A thrown value's message cites no template: the value whole.
        let thrown = &norm[..5];
        assert_eq!(worded("a b", "a  b", thrown), "AR-RES-NORM-2");
        assert_eq!(worded("[1]", "[1.0]", thrown), "AR-RES-NORM-1");
        // A text no cited template renders is left to the member's citations: its template.
        assert_eq!(worded("one", "two", &detail), "MSG-ERR-ENDED-DETAIL");
    }

    /// A text that is wholly another template's rendering was chosen by another rule: it reads as
    /// the member's deciding clause, not as the template it replaced; a reference's inner text
    /// alone (its wrapper dropped) is that wrapper worded otherwise.
    #[test]
    fn another_templates_text_reads_as_the_rule_that_chose_it() {
        let worded = |expected: &str, actual: &str, clauses: &[&str]| {
            let mut d = difference(Severity::Text, "/result/text", clauses);
            d.expected = expected.into();
            d.actual = actual.into();
            own_clause(&d, false).to_owned()
        };
        let malformed = ["AR-REVIEW-5", "AR-TOL-7", "MSG-ERR-MALFORMED"];
        let text = |t: crate::messages::Template| t.text.to_owned();
        assert_eq!(
            worded(
                &text(crate::messages::ERR_MALFORMED),
                &text(crate::messages::ERR_CONFLICT),
                &malformed
            ),
            "AR-TOL-7"
        );
        // The same template's words changed: still the template.
        assert_eq!(
            worded(
                &text(crate::messages::ERR_MALFORMED),
                "auto-review: the reviewer's output holds a broken decision",
                &malformed
            ),
            "MSG-ERR-MALFORMED"
        );
        // Inside the prefix, the cancellation where the reference kept the denial.
        let kept = [
            "AR-CANCEL-5",
            "AR-RESULT-2",
            "MSG-ERROR-PREFIX",
            "MSG-FINAL-DENY",
        ];
        let deny = "Error: Auto review rejected tool \"pwsh\"; its body was not executed";
        assert_eq!(
            worded(deny, "Error: tool call aborted before dispatch", &kept),
            "AR-CANCEL-5"
        );
        // The prefix dropped: the inner text alone is the prefix's template worded otherwise.
        assert_eq!(
            worded(deny, &deny["Error: ".len()..], &kept),
            "MSG-ERROR-PREFIX"
        );
    }

    /// A template's values are read from a text that keeps its literal words, a placeholder that
    /// occurs twice and a `<` that opens none included; a text that drops a word gives none.
    #[test]
    fn a_template_is_read_back_from_a_text_that_keeps_its_words() {
        let t = crate::messages::Template {
            id: "MSG-T",
            text: "<a> and <b> < <a>!",
        };
        assert_eq!(filled(&t, "x and y < x!"), Some(vec!["x", "y", "x"]));
        assert_eq!(filled(&t, "x and y <= x!"), None);
        assert_eq!(filled(&t, "x or y < x!"), None);
        let plain = crate::messages::Template {
            id: "MSG-P",
            text: "no value",
        };
        assert_eq!(filled(&plain, "no value"), Some(vec![]));
        assert_eq!(filled(&plain, "no values"), None);
    }
}
