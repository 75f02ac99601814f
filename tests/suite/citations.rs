//! The reference cites the clauses behind each member of its outcomes, and every difference is
//! attributed to the clauses behind its member in the reference's outcome: cited IDs exist, a
//! gate without session ids breaks one clause only, and no difference goes without a clause.

use std::collections::BTreeSet;

use autoreview::async_gate::scripted;
use autoreview::engine::decide_input;
use autoreview::outcome::{Citations, InputOutcome, ItemOutcome, Outcome};
use autoreview::runner::compare::compare_input;
use autoreview::{Profile, cases, decide, messages};
use serde_json::Value;

/// Every reference outcome of the fixed cases of `profile`, with its case ID.
fn references(profile: Profile) -> Vec<(String, InputOutcome)> {
    cases::all(profile)
        .unwrap()
        .into_iter()
        .map(|c| (c.id.clone(), decide_input(&c.scenario, profile)))
        .collect()
}

/// Every call's outcome and event's citations within an outcome.
fn citations(o: &InputOutcome) -> Vec<&Citations> {
    match o {
        InputOutcome::One(o) => vec![&o.citations],
        InputOutcome::Session(s) => s
            .calls
            .iter()
            .map(|i| match i {
                ItemOutcome::Call(c) => &c.citations,
                ItemOutcome::Event(e) => &e.citations,
            })
            .collect(),
    }
}

#[test]
fn every_cited_clause_and_template_exists_in_the_spec() {
    let spec = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/auto-review.md"))
        .unwrap();
    let mut cited = BTreeSet::new();
    for profile in Profile::all() {
        for (id, outcome) in references(profile) {
            let all = citations(&outcome);
            assert!(all.iter().all(|c| !c.is_empty()), "{id}: nothing cited");
            for c in all {
                for (_, ids) in c.iter() {
                    cited.extend(ids.iter().copied());
                }
            }
        }
    }
    for id in &cited {
        if id.starts_with("MSG-") {
            assert!(messages::by_id(id).is_some(), "{id} is no template");
        }
        let defined = [format!("**{id}.**"), format!("| `{id}` |")];
        assert!(
            defined.iter().any(|d| spec.contains(d.as_str())),
            "{id} is cited but the spec defines no such clause or template"
        );
    }
    // What the task names is cited somewhere.
    for id in [
        "AR-RES-REQUEST-1",
        "AR-RES-FAIL-2",
        "AR-RES-ROUTE-1",
        "AR-RES-SCHEMA-1",
        "AR-RES-NORM-1",
        "AR-TOL-4",
        "AR-REVIEW-12",
        "AR-RES-HINT-2",
        "MSG-FAILED",
        "AR-SESSION-3",
        "AR-DISPOSE-5",
    ] {
        assert!(cited.contains(id), "{id} is never cited");
    }
}

/// The reference's outcome of a case with every request's session id taken away.
fn without_session_ids(o: &InputOutcome) -> InputOutcome {
    let mut o = o.clone();
    let strip = |c: &mut Outcome| {
        for r in c.review.requests.iter_mut().flatten() {
            r.session_id = None;
        }
    };
    match &mut o {
        InputOutcome::One(c) => strip(c),
        InputOutcome::Session(s) => {
            for i in &mut s.calls {
                if let ItemOutcome::Call(c) = i {
                    strip(c);
                }
            }
        }
    }
    o
}

/// A gate whose requests carry no session id breaks AR-RES-REQUEST-1 and nothing else, wherever
/// a resilient case makes a request.
#[test]
fn a_gate_without_session_ids_breaks_only_ar_res_request_1() {
    let mut failing = 0;
    for (id, reference) in references(Profile::RESILIENT) {
        let differences = compare_input(&reference, &without_session_ids(&reference));
        if !differences.is_empty() {
            failing += 1;
        }
        for d in &differences {
            assert!(
                d.pointer.ends_with("/session_id"),
                "{id}: {} is not a session id",
                d.pointer
            );
            assert_eq!(d.clauses, ["AR-RES-REQUEST-1"], "{id}: {d}");
        }
    }
    assert!(failing > 100, "only {failing} cases make a request");
}

/// Every member of `v` that is not an object or a list of objects, with its pointer.
fn leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                if at.is_empty() && (k == "id" || k == "prefix_only") {
                    continue;
                }
                leaves(v, format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_object) => {
            for (k, v) in a.iter().enumerate() {
                leaves(v, format!("{at}/{k}"), out);
            }
        }
        _ => out.push(at),
    }
}

/// Another value of the same member, as close to the first as can be.
fn mutated(v: &Value) -> Value {
    match v {
        Value::Null => Value::String("x".into()),
        Value::Bool(b) => Value::Bool(!b),
        Value::Number(n) => (n.as_u64().unwrap_or(0) + 1).into(),
        Value::String(s) => Value::String(format!("{s}x")),
        Value::Array(a) if a.is_empty() => Value::Array(vec![Value::String("review".into())]),
        Value::Array(_) => Value::Array(Vec::new()),
        Value::Object(_) => Value::Null,
    }
}

/// Mutated member by member, every fixed case's reference outcome differs only in differences
/// that name at least one clause.
#[test]
fn every_difference_of_a_mutated_outcome_names_a_clause() {
    let mut seen = 0;
    for profile in Profile::all() {
        for (id, reference) in references(profile) {
            let json = serde_json::to_value(&reference).unwrap();
            let mut members = Vec::new();
            leaves(&json, String::new(), &mut members);
            for pointer in members {
                let mut changed = json.clone();
                let Some(slot) = changed.pointer_mut(&pointer) else {
                    continue;
                };
                *slot = mutated(slot);
                let Ok(actual) = serde_json::from_value::<InputOutcome>(changed) else {
                    continue;
                };
                for d in compare_input(&reference, &actual) {
                    seen += 1;
                    assert!(
                        !d.clauses.is_empty(),
                        "{id} under {profile}, {pointer} changed: {d} names no clause"
                    );
                }
            }
        }
    }
    assert!(seen > 1000, "only {seen} differences");
}

/// The async gate cites what it decides itself as the engine does: the listener's decision, and
/// the review's members of a call it reviewed to a settlement (the tool runtime's
/// materialization, and the review record of a call it did not review, it does not cite).
#[test]
fn the_async_gate_cites_the_listener_and_the_review_as_the_engine_does() {
    let own = |c: &Citations, reviewed: bool| -> Vec<(String, Vec<&'static str>)> {
        c.iter()
            .filter(|(p, _)| p.starts_with("/listener") || reviewed && p.starts_with("/review/"))
            .map(|(p, ids)| (p.to_owned(), ids.to_vec()))
            .collect()
    };
    let mut compared = 0;
    for profile in Profile::all() {
        for case in cases::all(profile).unwrap() {
            let Some(scenario) = case.call() else {
                continue;
            };
            let engine = decide(scenario, profile);
            let gate = scripted::decide(scenario, profile);
            let reviewed =
                engine.settled && (engine.review.attempts > 0 || engine.review.failure.is_some());
            compared += usize::from(reviewed);
            assert_eq!(
                own(&gate.citations, reviewed),
                own(&engine.citations, reviewed),
                "{} under {profile}",
                case.id
            );
        }
    }
    assert!(compared > 100, "only {compared} reviewed calls compared");
}
