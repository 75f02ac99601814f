//! Compares an implementation's outcome with the expected one, field by field by the spec's rules
//! (exact, or only up to the normative prefix where the reference marks a text's tail as
//! implementation-defined), and classifies each difference by how much it matters. A session's
//! outcome is compared item by item, each call as a single call's outcome.

use serde::Serialize;
use serde_json::Value;

use crate::capability::{Capabilities, Observable};
use crate::outcome::{AnsweredBy, BodyApproval};
use crate::outcome::{
    Citations, Event, EventOutcome, InputOutcome, ItemOutcome, Outcome, Withheld,
};
use crate::scenario::{Answer, CallIdOf};

/// True when two outcomes are equal in every compared field (all but `id`, `prefix_only` and
/// `citations`), so that no rule can find a difference. The pattern names every field: a new one
/// cannot be forgotten here.
fn agree(expected: &Outcome, actual: &Outcome) -> bool {
    let Outcome {
        id: _,
        prefix_only: _,
        citations: _,
        settled,
        listener,
        approval,
        result,
        review,
        trace,
        sandbox,
        body_approvals,
    } = expected;
    *settled == actual.settled
        && *listener == actual.listener
        && *approval == actual.approval
        && *result == actual.result
        && *review == actual.review
        && *trace == actual.trace
        && *sandbox == actual.sandbox
        && *body_approvals == actual.body_approvals
}

/// An outcome as far as an implementation with the capabilities `has` can show it: without
/// `review.requests` in every call when it does not observe requests (AR-REVIEW-12), and with the
/// default `sandbox` when it does not observe `confinement` (AR-CONFINE-1). Applied to the
/// expected outcome and to the implementation's, so each is compared exactly when it observes
/// it; one that does is held to it, and a missing `requests` is then a difference, never skipped.
pub fn observed(mut expected: InputOutcome, has: Capabilities) -> InputOutcome {
    let call = |o: &mut Outcome| {
        if !has.observes(Observable::Requests) {
            o.review.requests = None;
        }
        if !has.observes(Observable::Confinement) {
            o.sandbox = Default::default();
        }
    };
    match &mut expected {
        InputOutcome::One(o) => call(o),
        InputOutcome::Session(s) => {
            for item in &mut s.calls {
                if let ItemOutcome::Call(o) = item {
                    call(o);
                }
            }
        }
    }
    expected
}

pub use crate::difference::{Difference, Severity};

/// The rule of a text compared only up to its first `n` characters.
fn prefix_rule(n: usize) -> String {
    format!("only the first {n} characters are normative")
}

/// The rule of a text normative by prefix that stops at its prefix.
const EMPTY_TAIL: &str = "the implementation-defined tail after the normative prefix is not empty";

/// How `got` breaks a text normative by prefix whose reference is `want` and whose first `n`
/// characters are fixed (AR-CONV-3), if it does: the text it should have shown and the rule. It
/// does not start with them (the prefix, and the rule that only it is normative), or it stops
/// there where the reference's implementation-defined tail is not empty (the reference's text,
/// and [`EMPTY_TAIL`]: the tail MUST NOT be empty unless the template says so, and then the
/// reference's is).
fn breaks_prefix(want: &str, got: &str, n: usize) -> Option<(String, String)> {
    let prefix: String = want.chars().take(n).collect();
    if !got.starts_with(&prefix) {
        Some((prefix, prefix_rule(n)))
    } else if got.len() == prefix.len() && want.len() > prefix.len() {
        Some((want.to_owned(), EMPTY_TAIL.to_owned()))
    } else {
        None
    }
}

/// The severity of a difference at `pointer`.
pub fn severity_of(pointer: &str) -> Severity {
    let text = [
        "/listener/reason",
        "/listener/display_reason",
        "/approval/reason",
        "/approval/display_reason",
        "/result/text",
    ];
    let decision = [
        "/settled",
        "/listener",
        "/approval",
        "/result/executed",
        "/sandbox",
        "/body_approvals",
    ];
    if text.iter().any(|p| pointer.starts_with(p)) {
        Severity::Text
    } else if pointer.starts_with("/listener/info") || pointer.starts_with("/result/info") {
        Severity::Info
    } else if pointer == "/listener/kind"
        || decision
            .iter()
            .any(|p| pointer == *p || pointer.starts_with(&format!("{p}/")))
    {
        Severity::Decision
    } else if pointer.starts_with("/trace") || pointer == "/review/attempts" {
        Severity::Order
    } else {
        Severity::Info
    }
}

/// The pointer inside item `k` of a session's outcome: `(k, "/listener/kind")` for
/// `/calls/3/listener/kind`; `None` for a pointer outside the items.
fn within_item(pointer: &str) -> Option<(usize, &str)> {
    let rest = pointer.strip_prefix("/calls/")?;
    let (k, inner) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    Some((k.parse().ok()?, inner))
}

/// The severity of a difference at `pointer` in a single call's or a session's outcome, where
/// `expected` and `actual` are the values found there. Inside a session item it is the severity of
/// the pointer inside the item; a missing, extra or other kind of item, and an event that went
/// otherwise (an error where none was due, or none where one was), are decisions; an event's error
/// worded otherwise is a text.
pub fn severity_at(pointer: &str, expected: &Value, actual: &Value) -> Severity {
    if pointer == "/calls" {
        return Severity::Decision;
    }
    match within_item(pointer) {
        None => severity_of(pointer),
        Some((_, "" | "/event")) => Severity::Decision,
        Some((_, "/error")) if actual.is_string() && !expected.is_null() => Severity::Text,
        Some((_, "/error")) => Severity::Decision,
        Some((_, inner)) => severity_of(inner),
    }
}

/// The differences between `expected` (a reference outcome, whose `prefix_only` marks the texts
/// compared only up to their normative prefix) and `actual`, worst first. `id` and
/// `prefix_only` are not compared.
pub fn compare(expected: &Outcome, actual: &Outcome) -> Vec<Difference> {
    let mut out = Vec::new();
    if agree(expected, actual) {
        // The common case, decided without building JSON trees.
        return out;
    }
    // The two safety rules first: they are about what ran, not about one field.
    if actual.result.executed && !expected.result.executed {
        out.push(Difference {
            clauses: Vec::new(),
            severity: Severity::Safety,
            pointer: "/result/executed".into(),
            expected: false.into(),
            actual: true.into(),
            rule: Some("the body ran where it must not".into()),
        });
    }
    // The trace records the body's run as its own event: more runs than the reference made are
    // runs that must not happen, whatever `executed` says.
    let runs = |o: &Outcome| o.trace.iter().filter(|e| **e == Event::Body).count();
    if runs(actual) > runs(expected) {
        out.push(Difference {
            clauses: Vec::new(),
            severity: Severity::Safety,
            pointer: "/trace".into(),
            expected: serde_json::to_value(&expected.trace).unwrap_or(Value::Null),
            actual: serde_json::to_value(&actual.trace).unwrap_or(Value::Null),
            rule: Some(match runs(expected) {
                0 => "the body ran where it must not".to_owned(),
                n => format!("the body ran {} times where it must run {n}", runs(actual)),
            }),
        });
    }
    // A body that ran under a wider sandbox mode than the spec leaves it ran with access nobody
    // allowed it (AR-CONFINE-1): the reviewer's allow was for a confined run.
    if actual.result.executed
        && expected.result.executed
        && actual.sandbox.after.is_wider_than(expected.sandbox.after)
    {
        out.push(Difference {
            clauses: Vec::new(),
            severity: Severity::Safety,
            pointer: "/sandbox/after".into(),
            expected: expected.sandbox.after.as_str().into(),
            actual: actual.sandbox.after.as_str().into(),
            rule: Some("the body ran under a wider sandbox mode than the spec leaves it".into()),
        });
    }
    // An approval request a body raised, granted where the spec does not grant it: the body
    // went on with an escalation (AR-APPROVAL-7, AR-APPROVAL-8), rated by who granted it. Where
    // the reference ran no body, the run itself is the difference, rated as such.
    let both_ran = actual.result.executed && expected.result.executed;
    for (k, got) in actual
        .body_approvals
        .iter()
        .enumerate()
        .filter(|_| both_ran)
    {
        let want = expected.body_approvals.get(k);
        if got.answer == Answer::AllowedOnce && want.map(|w| w.answer) != Some(Answer::AllowedOnce)
        {
            let (severity, rule) = escalation(actual, want, got);
            out.push(Difference {
                clauses: Vec::new(),
                severity,
                pointer: format!("/body_approvals/{k}/answer"),
                expected: serde_json::to_value(want.map(|w| w.answer)).unwrap_or(Value::Null),
                actual: serde_json::to_value(got.answer).unwrap_or(Value::Null),
                rule: Some(rule.into()),
            });
        }
    }
    // Nothing else is a safety difference (`spec/protocol.md`, "Severities"): a gate that allows
    // where the reference asks, and whose call then runs as the human's answer ran it in the
    // reference, decided otherwise (a DECISION at `/listener/kind`), and ran nothing it must not.
    let mut e = expected.written_out();
    let mut a = actual.written_out();
    for v in [&mut e, &mut a] {
        if let Value::Object(m) = v {
            m.remove("id");
            m.remove("prefix_only");
        }
    }
    walk(&e, &a, &mut String::new(), expected, &mut out);
    // A field already reported as a safety (or bounds) difference is not reported again.
    let ran = |d: &Difference| matches!(d.severity, Severity::Safety | Severity::Bounds);
    let safety: Vec<String> = out
        .iter()
        .filter(|d| ran(d))
        .map(|d| d.pointer.clone())
        .collect();
    out.retain(|d| ran(d) || !safety.contains(&d.pointer));
    attribute(&mut out, &expected.citations);
    out.sort_by(|x, y| {
        x.severity
            .cmp(&y.severity)
            .then_with(|| x.pointer.cmp(&y.pointer))
    });
    out
}

/// How much a body's request granted where the reference's answer is another matters
/// (`spec/protocol.md`, "Severities"): BOUNDS where someone allowed, but the spec does not let
/// that allow answer it — the human, where the spec has the service refuse by itself (`never`),
/// or the gate, on its reviewer's allow of the very call that raised it; SAFETY where nobody did:
/// the scenario's human gives another answer, or the gate answered for another call, or for one
/// no reviewer's allow let run.
fn escalation(
    actual: &Outcome,
    want: Option<&BodyApproval>,
    got: &BodyApproval,
) -> (Severity, &'static str) {
    let refused_alone = want.is_some_and(|w| w.answered_by == AnsweredBy::Service);
    let allowed_by_its_reviewer = actual.listener == Some(crate::outcome::Decision::Allow)
        && actual.approval.is_none()
        && actual.review.attempts > 0;
    match got.answered_by {
        AnsweredBy::Human if refused_alone => (
            Severity::Bounds,
            "a request the body raised was granted on a human's allow where the spec has the \
             approval service refuse it by itself",
        ),
        AnsweredBy::Gate if allowed_by_its_reviewer && got.call_id == CallIdOf::Own => (
            Severity::Bounds,
            "a request the body raised was granted on the reviewer's allow of its own call, \
             which the spec does not let answer it",
        ),
        _ => (
            Severity::Safety,
            "a request the body raised was granted, and nobody the spec lets allow it did",
        ),
    }
}

/// The differences between two outcomes of one scenario line, worst first: single calls as
/// [`compare`] compares them; sessions item by item ([`compare_session`]).
pub fn compare_input(expected: &InputOutcome, actual: &InputOutcome) -> Vec<Difference> {
    let kind = |o: &InputOutcome| match o {
        InputOutcome::One(_) => "a single call's outcome",
        InputOutcome::Session(_) => "a session's outcome (`calls`)",
    };
    match (expected, actual) {
        (InputOutcome::One(e), InputOutcome::One(a)) => compare(e, a),
        (InputOutcome::Session(e), InputOutcome::Session(a)) => compare_session(e, a),
        _ => vec![Difference {
            // A single-call scenario is a session of one call: the kinds of outcome differ.
            clauses: vec!["AR-SESSION-1".to_owned()],
            severity: Severity::Decision,
            pointer: "/".into(),
            expected: kind(expected).into(),
            actual: kind(actual).into(),
            rule: Some("the outcome of another kind of scenario".into()),
        }],
    }
}

/// The differences between two session outcomes, item by item, worst first and in item order
/// within a severity (AR-SESSION-1). A call's differences are [`compare`]'s, under
/// `/calls/<k>` and with the severity of the pointer inside the call; a missing or extra item, or
/// a call where an event was due, is a DECISION difference at `/calls/<k>`.
pub fn compare_session(
    expected: &crate::outcome::SessionOutcome,
    actual: &crate::outcome::SessionOutcome,
) -> Vec<Difference> {
    let mut out = Vec::new();
    for (k, e, a) in aligned(&expected.calls, &actual.calls) {
        let at = format!("/calls/{k}");
        match (e, a) {
            (Some(ItemOutcome::Call(e)), Some(ItemOutcome::Call(a))) => {
                out.extend(compare(e, a).into_iter().map(|mut d| {
                    d.pointer = if d.pointer == "/" {
                        at.clone()
                    } else {
                        format!("{at}{}", d.pointer)
                    };
                    d
                }));
            }
            (Some(ItemOutcome::Event(e)), Some(ItemOutcome::Event(a))) => {
                compare_event(e, a, &at, &mut out);
            }
            (e, a) => {
                let value = |i: Option<&ItemOutcome>| {
                    i.map_or(Value::Null, |i| {
                        serde_json::to_value(i).unwrap_or(Value::Null)
                    })
                };
                // The expected item's own clauses, or for an item it does not have, the
                // order of a session's items.
                let clauses = match e {
                    Some(ItemOutcome::Call(c)) => c.citations.behind(""),
                    Some(ItemOutcome::Event(ev)) => ev.citations.behind(""),
                    None => &["AR-SESSION-1"],
                };
                out.push(Difference {
                    clauses: clauses.iter().map(|c| (*c).to_owned()).collect(),
                    severity: Severity::Decision,
                    pointer: at,
                    expected: value(e),
                    actual: value(a),
                    rule: Some(
                        match (e, a) {
                            (_, None) => "the session has fewer items than it was given",
                            (None, _) => "an item the session was not given",
                            _ => "a call where an event was given, or an event where a call was",
                        }
                        .into(),
                    ),
                });
            }
        }
    }
    // Stable: within a severity, items stay in order.
    out.sort_by_key(|d| d.severity);
    out
}

/// The items of a session's two outcomes paired for comparison, each with the index its pointer
/// names: position by position when both have as many items; otherwise along the longest common
/// subsequence of their kinds (a call by the scenario id it echoes where both echo one, an event
/// by its kind), so that
/// a report that leaves an item out, or adds one, is one missing or extra item and every other
/// call is still compared with its own counterpart, never with its neighbour (whose body run would
/// read as SAFETY). An item left out is paired with nothing at the reference's index; the items
/// added are paired with nothing at the indices after the reference's last, in their order. A report far longer than the session (more than
/// a million pairs to weigh) is compared by position.
fn aligned<'o>(
    expected: &'o [ItemOutcome],
    actual: &'o [ItemOutcome],
) -> Vec<(usize, Option<&'o ItemOutcome>, Option<&'o ItemOutcome>)> {
    let (n, m) = (expected.len(), actual.len());
    if n == m || n.saturating_mul(m) > 1_000_000 {
        return (0..n.max(m))
            .map(|k| (k, expected.get(k), actual.get(k)))
            .collect();
    }
    let same = |e: &ItemOutcome, a: &ItemOutcome| match (e, a) {
        // An id tells calls apart only where both sides echo one.
        (ItemOutcome::Call(e), ItemOutcome::Call(a)) => {
            e.id.is_none() || a.id.is_none() || e.id == a.id
        }
        (ItemOutcome::Event(e), ItemOutcome::Event(a)) => e.event == a.event,
        _ => false,
    };
    // lcs[i][j]: the longest common subsequence of expected[i..] and actual[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if same(&expected[i], &actual[j]) {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::with_capacity(n.max(m)));
    let mut added = n;
    while i < n || j < m {
        if i < n && j < m && same(&expected[i], &actual[j]) && lcs[i][j] == lcs[i + 1][j + 1] + 1 {
            out.push((i, Some(&expected[i]), Some(&actual[j])));
            (i, j) = (i + 1, j + 1);
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push((i, Some(&expected[i]), None));
            i += 1;
        } else {
            out.push((added, None, Some(&actual[j])));
            (added, j) = (added + 1, j + 1);
        }
    }
    out
}

/// The differences between two events' outcomes at `at`: another event, or an error where none
/// was due (or none where one was), is a DECISION; an error worded otherwise is a TEXT, compared
/// only up to its normative prefix where the expected outcome marks one (`/error`, AR-MSG-5).
fn compare_event(e: &EventOutcome, a: &EventOutcome, at: &str, out: &mut Vec<Difference>) {
    let from = out.len();
    compare_event_members(e, a, at, out);
    for d in &mut out[from..] {
        let inner = d.pointer.strip_prefix(at).unwrap_or_default().to_owned();
        cite(d, &e.citations, &inner);
    }
}

fn compare_event_members(e: &EventOutcome, a: &EventOutcome, at: &str, out: &mut Vec<Difference>) {
    fn json<T: Serialize>(v: &T) -> Value {
        serde_json::to_value(v).unwrap_or(Value::Null)
    }
    if e.event != a.event {
        out.push(Difference {
            clauses: Vec::new(),
            severity: Severity::Decision,
            pointer: format!("{at}/event"),
            expected: json(&e.event),
            actual: json(&a.event),
            rule: None,
        });
    }
    let pointer = format!("{at}/error");
    match (&e.error, &a.error) {
        (None, None) => {}
        (Some(want), Some(got)) => {
            let (want, rule) = match e.prefix_only.get("/error") {
                Some(&n) => match breaks_prefix(want, got, n) {
                    Some((shown, rule)) => (Some(shown), Some(rule)),
                    None => (None, None),
                },
                None => ((got != want).then(|| want.clone()), None),
            };
            if let Some(want) = want {
                out.push(Difference {
                    clauses: Vec::new(),
                    severity: Severity::Text,
                    pointer,
                    expected: want.into(),
                    actual: got.clone().into(),
                    rule,
                });
            }
        }
        (want, got) => out.push(Difference {
            clauses: Vec::new(),
            severity: Severity::Decision,
            pointer,
            expected: json(want),
            actual: json(got),
            rule: None,
        }),
    }
}

/// The clauses behind the member at `pointer` of an expected outcome that cites `citations`.
fn clauses_behind(citations: &Citations, pointer: &str) -> Vec<String> {
    let pointer = if pointer == "/" { "" } else { pointer };
    citations
        .behind(pointer)
        .iter()
        .map(|c| (*c).to_owned())
        .collect()
}

/// Fills each difference's `clauses` from the expected outcome's citations: those of the longest
/// cited pointer that is the difference's pointer or a prefix of it.
fn attribute(out: &mut [Difference], citations: &Citations) {
    for d in out {
        let pointer = d.pointer.clone();
        cite(d, citations, &pointer);
    }
}

/// Gives the difference `d` at the member `pointer` of an expected outcome that cites
/// `citations` the clauses it breaks: those behind the member, or for a text that stops at its
/// normative prefix ([`EMPTY_TAIL`]) AR-CONV-3 alone, the one requirement it breaks (every word
/// it shows is the reference's). A text that shows, where the reference's shows nothing, a value
/// the spec keeps out of it ([`shows_withheld`]) breaks that clause alone, and its rule says what
/// it shows; a list holding an element more or fewer times than the reference's names first the
/// clauses cited for that element ([`first_miscounted`]).
fn cite(d: &mut Difference, citations: &Citations, pointer: &str) {
    d.clauses = if d.rule.as_deref() == Some(EMPTY_TAIL) {
        vec!["AR-CONV-3".to_owned()]
    } else if let Some(w) = shows_withheld(d, citations, pointer) {
        let value: String = w.value.chars().take(60).collect();
        let cut = if value.len() < w.value.len() {
            "…"
        } else {
            ""
        };
        d.rule = Some(format!(
            "the text shows what {} keeps out of it: {value:?}{cut}",
            w.clause
        ));
        vec![w.clause.to_owned()]
    } else {
        let mut clauses = clauses_behind(citations, pointer);
        // A list that holds an element more or fewer often than the reference's (a trace that
        // consults downstream twice): first the clauses cited for that element itself.
        let lists = d.expected.as_array().zip(d.actual.as_array());
        if let Some(k) = lists.and_then(|(e, a)| first_miscounted(e, a)) {
            for id in citations.at(&format!("{pointer}/{k}")).iter().rev() {
                clauses.retain(|c| c != id);
                clauses.insert(0, (*id).to_owned());
            }
        }
        clauses
    };
}

/// The position in the reference's list `expected` of the first element the implementation's
/// list `actual` holds more or fewer times; `None` when it holds each as often (in another order,
/// say, or with elements the reference never holds besides).
pub(crate) fn first_miscounted(expected: &[Value], actual: &[Value]) -> Option<usize> {
    let count = |list: &[Value], v: &Value| list.iter().filter(|x| *x == v).count();
    expected
        .iter()
        .position(|v| count(expected, v) != count(actual, v))
}

/// What the spec keeps out of the text at `pointer` that the implementation's text `d` shows:
/// its text is the reference's with one span inserted (everything else kept, compared by plain
/// equality), and that span holds the value as a word of its own (not inside a longer word, so
/// a risk level `low` is not found in `allow`). `None` for any other difference.
fn shows_withheld<'c>(
    d: &Difference,
    citations: &'c Citations,
    pointer: &str,
) -> Option<&'c Withheld> {
    let (expected, actual) = (d.expected.as_str()?, d.actual.as_str()?);
    if d.rule.is_some() {
        return None;
    }
    let (from, to) = inserted(expected, actual)?;
    let span = &actual[from..to];
    let alone = |at: usize, len: usize| {
        let before = actual[..from + at].chars().next_back();
        let after = actual[from + at + len..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    };
    citations.withheld().iter().find(|w| {
        w.text == pointer
            && span
                .match_indices(w.value.as_str())
                .any(|(at, v)| alone(at, v.len()))
    })
}

/// Where `actual` is `expected` with one span inserted: the byte range of that span in `actual`;
/// `None` when `actual` changes or removes any of `expected`, or is the same.
fn inserted(expected: &str, actual: &str) -> Option<(usize, usize)> {
    if actual.len() <= expected.len() {
        return None;
    }
    let prefix: usize = expected
        .chars()
        .zip(actual.chars())
        .take_while(|(e, a)| e == a)
        .map(|(e, _)| e.len_utf8())
        .sum();
    let (e_rest, a_rest) = (&expected[prefix..], &actual[prefix..]);
    let suffix: usize = e_rest
        .chars()
        .rev()
        .zip(a_rest.chars().rev())
        .take_while(|(e, a)| e == a)
        .map(|(e, _)| e.len_utf8())
        .sum();
    (suffix == e_rest.len()).then(|| (prefix, actual.len() - suffix))
}

pub use crate::outcome::push_token;

fn walk(e: &Value, a: &Value, at: &mut String, reference: &Outcome, out: &mut Vec<Difference>) {
    match (e, a) {
        (Value::Object(em), Value::Object(am)) if !at.is_empty() || em.contains_key("settled") => {
            let mut keys: Vec<&String> = em.keys().collect();
            for k in am.keys() {
                if !em.contains_key(k) {
                    keys.push(k);
                }
            }
            for k in keys {
                let len = at.len();
                push_token(at, k);
                walk(
                    em.get(k).unwrap_or(&Value::Null),
                    am.get(k).unwrap_or(&Value::Null),
                    at,
                    reference,
                    out,
                );
                at.truncate(len);
            }
        }
        // Lists of objects of one length (the requests) are compared element by element, so that
        // a difference names the member that differs.
        (Value::Array(ea), Value::Array(aa))
            if ea.len() == aa.len()
                && ea.iter().chain(aa).all(Value::is_object)
                && !ea.is_empty() =>
        {
            for (k, (ev, av)) in ea.iter().zip(aa).enumerate() {
                let len = at.len();
                push_token(at, &k.to_string());
                walk(ev, av, at, reference, out);
                at.truncate(len);
            }
        }
        (Value::String(es), Value::String(as_))
            if reference.prefix_only.contains_key(at.as_str()) =>
        {
            let n = reference.prefix_only[at.as_str()];
            if let Some((shown, rule)) = breaks_prefix(es, as_, n) {
                out.push(Difference {
                    clauses: Vec::new(),
                    severity: severity_of(at),
                    pointer: at.clone(),
                    expected: Value::String(shown),
                    actual: a.clone(),
                    rule: Some(rule),
                });
            }
        }
        _ if e == a => {}
        _ => out.push(Difference {
            clauses: Vec::new(),
            severity: severity_of(at),
            pointer: if at.is_empty() {
                "/".into()
            } else {
                at.clone()
            },
            expected: e.clone(),
            actual: a.clone(),
            rule: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text worded `actual` where the reference has `expected`, its member keeping `value` out
    /// under `clause`: the clauses the difference names.
    fn named(expected: &str, actual: &str, value: &str, clause: &'static str) -> Vec<String> {
        let mut c = Citations::default();
        c.cite("/result/text", "MSG-ERROR-PREFIX");
        c.withhold("/result/text", value, clause);
        let mut d = Difference {
            severity: Severity::Text,
            pointer: "/result/text".into(),
            expected: expected.into(),
            actual: actual.into(),
            rule: None,
            clauses: Vec::new(),
        };
        cite(&mut d, &c, "/result/text");
        d.clauses
    }

    #[test]
    fn a_text_that_shows_a_withheld_value_names_the_clause_that_keeps_it_out() {
        // The reference's text, the implementation's, the value kept out and the clause named
        // first: the withholding clause for a span inserted that holds the value as a word; the
        // template for a value inside a longer word, a text changed besides, a value the
        // reference shows too, or another value.
        let cases = [
            ("Error: no.", "Error: no.: rm", "rm", "AR-RESULT-6"),
            ("Error: no.", "Error: (rm) no.", "rm", "AR-RESULT-6"),
            ("Error: no.", "Error: no. allow", "low", "MSG-ERROR-PREFIX"),
            ("Error: no.", "Error: No. low", "low", "MSG-ERROR-PREFIX"),
            ("Error: low.", "Error: low.", "low", "MSG-ERROR-PREFIX"),
            ("Error: no.", "Error: no. high", "low", "MSG-ERROR-PREFIX"),
        ];
        for (expected, actual, value, first) in cases {
            let clauses = named(expected, actual, value, "AR-RESULT-6");
            assert_eq!(clauses[0], first, "{actual:?} keeping {value:?} out");
        }
    }

    #[test]
    fn an_inserted_span_is_found_on_char_boundaries() {
        assert_eq!(inserted("ab", "ab"), None);
        assert_eq!(inserted("abc", "ac"), None);
        assert_eq!(inserted("abc", "axc"), None);
        assert_eq!(inserted("aé", "aXé"), Some((1, 2)));
        assert_eq!(inserted("é", "éé"), Some((2, 4)));
        assert_eq!(inserted("", "x"), Some((0, 1)));
    }

    #[test]
    fn a_list_holding_an_element_once_more_names_that_elements_clauses_first() {
        let mut c = Citations::default();
        c.cite_all("/trace", &["AR-ORDER-1", "AR-REVIEW-1", "AR-DECIDE-3"]);
        c.cite("/trace/1", "AR-DECIDE-3");
        let trace = |t: &[&str]| Value::from(t.to_vec());
        let named = |actual: Value| {
            let mut d = Difference {
                severity: Severity::Order,
                pointer: "/trace".into(),
                expected: trace(&["review", "downstream", "body"]),
                actual,
                rule: None,
                clauses: Vec::new(),
            };
            cite(&mut d, &c, "/trace");
            d.clauses[0].clone()
        };
        assert_eq!(
            named(trace(&["review", "downstream", "downstream", "body"])),
            "AR-DECIDE-3"
        );
        assert_eq!(named(trace(&["review", "body"])), "AR-DECIDE-3");
        assert_eq!(
            named(trace(&["downstream", "review", "body"])),
            "AR-ORDER-1"
        );
        assert_eq!(
            named(trace(&["review", "review", "downstream", "body"])),
            "AR-ORDER-1"
        );
    }

    #[test]
    fn pointers_map_to_severities() {
        assert_eq!(severity_of("/listener/kind"), Severity::Decision);
        assert_eq!(severity_of("/listener/reason"), Severity::Text);
        assert_eq!(severity_of("/listener/info/code"), Severity::Info);
        assert_eq!(severity_of("/approval"), Severity::Decision);
        assert_eq!(severity_of("/approval/answer"), Severity::Decision);
        assert_eq!(severity_of("/approval/display_reason/zh"), Severity::Text);
        assert_eq!(severity_of("/result/executed"), Severity::Decision);
        assert_eq!(severity_of("/result/text"), Severity::Text);
        assert_eq!(severity_of("/result/info"), Severity::Info);
        assert_eq!(severity_of("/trace"), Severity::Order);
        assert_eq!(severity_of("/review/attempts"), Severity::Order);
        assert_eq!(severity_of("/review/failure/class"), Severity::Info);
        assert_eq!(severity_of("/settled"), Severity::Decision);
        assert_eq!(severity_of("/sandbox/after"), Severity::Decision);
    }

    /// AR-CONFINE-1: a body that ran under full access where the reference ran it confined is a
    /// SAFETY difference at `/sandbox/after`; a mode that differs where the body ran in neither,
    /// or ran narrower, is a DECISION; and a `sandbox` left out reads as full access throughout.
    #[test]
    fn a_body_run_under_a_wider_mode_is_a_safety_difference() {
        use crate::scenario::SandboxMode::{DangerFullAccess as Full, WorkspaceWrite as Confined};
        let scenario = r#"{"tool": {"name": "probe"}, "reviewer": {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}, "session": {"sandbox": {"confines_reads": true}}}"#;
        let s: crate::scenario::Scenario = serde_json::from_str(scenario).unwrap();
        // The resilient profile confines.
        let profile = crate::profile::Profile::RESILIENT;
        let want = crate::engine::decide(&s, profile);
        assert_eq!((want.sandbox.before, want.sandbox.after), (Full, Confined));
        assert!(compare(&want, &want).is_empty());
        let mut got = want.clone();
        got.sandbox.after = Full;
        let d = compare(&want, &got);
        let found: Vec<(Severity, &str)> =
            d.iter().map(|d| (d.severity, d.pointer.as_str())).collect();
        assert_eq!(found, [(Severity::Safety, "/sandbox/after")]);
        // The same mode where the body did not run is another decision, not a safety one.
        let (mut want, mut got) = (want.clone(), got);
        want.result.executed = false;
        got.result.executed = false;
        let d = compare(&want, &got);
        assert_eq!(d.len(), 1);
        assert_eq!(
            (d[0].severity, d[0].pointer.as_str()),
            (Severity::Decision, "/sandbox/after")
        );
        // A narrower mode than the reference's is a decision too.
        let (want, got) = (got, want);
        let d = compare(&want, &got);
        assert_eq!(
            (d[0].severity, d[0].pointer.as_str()),
            (Severity::Decision, "/sandbox/after")
        );
        // Read from the wire, an outcome without `sandbox` ran under full access throughout.
        let mut wire = serde_json::to_value(&want).unwrap();
        wire.as_object_mut().unwrap().remove("sandbox");
        let read: Outcome = serde_json::from_value(wire).unwrap();
        assert_eq!(read.sandbox, crate::outcome::SandboxRecord::kept(Full));
    }

    fn session(json: &str) -> crate::scenario::session::Input {
        crate::scenario::session::Input::from_json(json).unwrap()
    }

    fn decided(json: &str) -> crate::outcome::SessionOutcome {
        match crate::engine::decide_input(&session(json), crate::profile::Profile::RESILIENT) {
            InputOutcome::Session(s) => s,
            InputOutcome::One(_) => panic!("a session decides to a session's outcome"),
        }
    }

    const SESSION: &str = r#"{"calls": [
        {"tool": {"name": "a"}, "reviewer": {"throw": "x"}},
        {"event": "dispose"},
        {"event": "select-auto"}
    ]}"#;

    /// A session's outcome is compared item by item: each call's differences under its pointer and
    /// with the severity of the pointer inside the call; a missing or extra item, another kind of
    /// item, another event or an error where none was due are decisions; an error worded
    /// otherwise is a text, compared only up to its normative prefix.
    #[test]
    fn sessions_are_compared_item_by_item() {
        let want = decided(SESSION);
        assert!(compare_session(&want, &want).is_empty());

        let mut got = want.clone();
        if let ItemOutcome::Call(c) = &mut got.calls[0] {
            c.review.consecutive_failures = Some(7);
            c.result.executed = true;
        }
        let d = compare_session(&want, &got);
        let found: Vec<(Severity, &str)> =
            d.iter().map(|d| (d.severity, d.pointer.as_str())).collect();
        assert_eq!(
            found,
            [
                (Severity::Safety, "/calls/0/result/executed"),
                (Severity::Info, "/calls/0/review/consecutive_failures"),
            ]
        );

        let mut got = want.clone();
        got.calls.pop();
        let d = compare_session(&want, &got);
        assert_eq!((d.len(), d[0].severity), (1, Severity::Decision));
        assert_eq!(d[0].pointer, "/calls/2");
        assert!(d[0].actual.is_null());
        let mut extra = want.clone();
        extra.calls.push(want.calls[1].clone());
        let d = compare_session(&want, &extra);
        assert_eq!(
            (d.len(), d[0].severity, d[0].pointer.as_str()),
            (1, Severity::Decision, "/calls/3")
        );
        // A report that leaves an event out is one missing item: each call after it is still
        // compared with its own counterpart, not with its neighbour.
        // (By position, the denied call would meet the allowed one after it: a SAFETY.)
        let twice = decided(
            r#"{"calls": [
            {"event": "select-auto"},
            {"tool": {"name": "a"}, "reviewer": {"throw": "x"}},
            {"tool": {"name": "b"}, "reviewer": {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}}
        ]}"#,
        );
        let ran = |o: &ItemOutcome| matches!(o, ItemOutcome::Call(c) if c.result.executed);
        assert!(!ran(&twice.calls[1]) && ran(&twice.calls[2]));
        let mut dropped = twice.clone();
        dropped.calls.remove(0);
        let d = compare_session(&twice, &dropped);
        assert_eq!(
            d.iter()
                .map(|d| (d.severity, d.pointer.as_str()))
                .collect::<Vec<_>>(),
            [(Severity::Decision, "/calls/0")],
            "{d:#?}"
        );
        assert!(d[0].actual.is_null());
        // The same where the implementation echoes ids the reference's calls do not carry.
        for c in &mut dropped.calls {
            if let ItemOutcome::Call(c) = c {
                c.id = Some("echoed".into());
            }
        }
        let d = compare_session(&twice, &dropped);
        assert_eq!(
            d.iter()
                .map(|d| (d.severity, d.pointer.as_str()))
                .collect::<Vec<_>>(),
            [(Severity::Decision, "/calls/0")],
            "{d:#?}"
        );
        let mut swapped = want.clone();
        swapped.calls.swap(0, 1);
        let d = compare_session(&want, &swapped);
        assert!(
            d.iter().all(|d| d.severity == Severity::Decision) && d.len() == 2,
            "{d:#?}"
        );

        // The refusal's known presets are the deployment's: only the prefix is compared.
        let ItemOutcome::Event(refused) = &want.calls[2] else {
            panic!("an event");
        };
        assert!(refused.error.is_some() && !refused.prefix_only.is_empty());
        let with_error = |error: Option<&str>| {
            let mut got = want.clone();
            if let ItemOutcome::Event(e) = &mut got.calls[2] {
                e.error = error.map(str::to_owned);
                e.prefix_only.clear();
            }
            compare_session(&want, &got)
        };
        assert!(
            with_error(Some(
                r#"permission: unknown preset "auto" (known: plan, yolo)"#
            ))
            .is_empty()
        );
        // MSG-ERR-NO-AUTO is worded by the deployment: any text is accepted, but not none.
        assert!(with_error(Some("permission: no such preset")).is_empty());
        // Nor the prefix alone: the implementation-defined tail may not be empty (AR-CONV-3).
        let prefix: String = refused
            .error
            .as_deref()
            .unwrap()
            .chars()
            .take(refused.prefix_only["/error"])
            .collect();
        let d = with_error(Some(&prefix));
        assert_eq!(
            (d.len(), d[0].severity, d[0].pointer.as_str()),
            (1, Severity::Text, "/calls/2/error"),
            "{prefix:?}"
        );
        assert_eq!(d[0].clauses, ["AR-CONV-3"]);
        assert!(with_error(Some(&format!("{prefix}x"))).is_empty());
        let d = with_error(None);
        assert_eq!(
            (d[0].severity, d[0].pointer.as_str()),
            (Severity::Decision, "/calls/2/error")
        );
        // A session's outcome in place of a call's.
        let one = InputOutcome::One(Box::new(crate::engine::decide(
            &crate::scenario::Scenario::from_json(
                r#"{"tool": {"name": "a"}, "reviewer": {"text": ""}}"#,
            )
            .unwrap(),
            crate::profile::Profile::BASELINE,
        )));
        let d = compare_input(&one, &InputOutcome::Session(want.clone()));
        assert_eq!(
            (d[0].severity, d[0].pointer.as_str()),
            (Severity::Decision, "/")
        );
    }

    /// The requests are compared when the implementation observes them, a missing list
    /// included; otherwise the expected outcome leaves them out, in every call of a session.
    #[test]
    fn requests_are_compared_by_capability() {
        let want = InputOutcome::Session(decided(SESSION));
        let mut got = want.clone();
        if let InputOutcome::Session(s) = &mut got {
            for item in &mut s.calls {
                if let ItemOutcome::Call(c) = item {
                    c.review.requests = None;
                }
            }
        }
        let d = compare_input(&want, &got);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(d[0].pointer, "/calls/0/review/requests");
        assert!(d[0].actual.is_null() && d[0].expected.is_array());
        let lacking = observed(want.clone(), Capabilities::PROTOCOL_1);
        assert!(compare_input(&lacking, &got).is_empty());
        assert_eq!(observed(want.clone(), Capabilities::ALL), want);
    }

    #[test]
    fn severities_inside_a_session_are_the_items() {
        let s = |p: &str| severity_at(p, &Value::Null, &Value::Null);
        assert_eq!(s("/calls/2/listener/kind"), Severity::Decision);
        assert_eq!(s("/calls/12/listener/reason"), Severity::Text);
        assert_eq!(s("/calls/0/trace"), Severity::Order);
        assert_eq!(s("/calls/0"), Severity::Decision);
        assert_eq!(s("/calls"), Severity::Decision);
        assert_eq!(s("/calls/1/event"), Severity::Decision);
        assert_eq!(s("/calls/1/error"), Severity::Decision);
        assert_eq!(
            severity_at("/calls/1/error", &"closing".into(), &"closed".into()),
            Severity::Text
        );
        assert_eq!(s("/result/text"), Severity::Text);
    }
}
