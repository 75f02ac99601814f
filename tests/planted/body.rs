//! Plants of the requests a call's body raises (AR-APPROVAL-7, AR-APPROVAL-8, AR-RESULT-7): a gate
//! that answers for more calls than the one it allowed, or for longer, or while the session has
//! left Auto; a service that asks the human under `never`; a runtime that does not record them.
//! Only the resilient profile's gate answers any (`body_approvals: allowed-call`).

use super::*;
use autoreview::outcome::{AnsweredBy, BodyApproval, Decision};
use autoreview::scenario::{Answer, CallIdOf, Raise, Step};

/// Each request `o`'s body raised, with its step in `s` and whether the body had selected
/// another preset by then, for `f` to rewrite.
fn each_raised(s: &Scenario, o: &mut Outcome, mut f: impl FnMut(&Raise, bool, &mut BodyApproval)) {
    let mut left_auto = false;
    let mut entries = o.body_approvals.iter_mut();
    for step in &s.body {
        match step {
            Step::LeaveAuto(_) => left_auto = true,
            Step::Raise(raise) => match entries.next() {
                Some(b) => f(raise, left_auto, b),
                None => return,
            },
        }
    }
}

/// The gate answers `allowed-once` for each request of `o`'s body the human answered where
/// `answers(call_id, left_auto)` says the defective gate takes it.
fn granted_where(s: &Scenario, o: &mut Outcome, answers: fn(CallIdOf, bool) -> bool) {
    each_raised(s, o, |raise, left_auto, b| {
        if b.answered_by == AnsweredBy::Human && answers(raise.call_id, left_auto) {
            b.answered_by = AnsweredBy::Gate;
            b.answer = Answer::AllowedOnce;
        }
    });
}

/// Asserts that a gate answering for more than AR-APPROVAL-7 lets is found at `severity` in the
/// profiles whose gate answers (the resilient one, and the 0.2.x one unless `resilient_only`; the
/// baseline's answers none), by the fixed cases and `count` generated ones (the shapes these plants
/// need are a few in a thousand draws). A body that leaves Auto, and a session naming a finished
/// call, meet an allowed call too rarely where failures are denials for the generated cases to
/// find them in the 0.2.x profile: those two plants are held to the resilient profile only.
fn answers_for_more(plant: Planted, severity: Severity, count: usize, resilient_only: bool) {
    let shipped = shipped();
    let profiles: &[Profile] = if resilient_only {
        &[Profile::RESILIENT]
    } else {
        &[Profile::RESILIENT, shipped]
    };
    found_leading(plant, "AR-APPROVAL-7", profiles, severity, count);
}

/// Whether the gate reviewed the call and allowed it, downstream allowing too: the call it
/// covers (AR-APPROVAL-7).
fn allowed_by_the_gate(o: &Outcome) -> bool {
    o.listener == Some(Decision::Allow) && o.review.attempts > 0 && o.approval.is_none()
}

/// A gate that remembers the call once its reviewer allowed, before downstream is consulted, so
/// it answers the escalations of a call downstream asked about and the human allowed
/// (AR-APPROVAL-7): the escalation is granted where the human was to answer: SAFETY.
#[test]
fn a_gate_that_covers_a_call_before_downstream_allows_is_found_at_safety() {
    let plant = Planted::writing("covered before downstream allowed", |s, o| {
        let asked_by_downstream = matches!(&o.listener, Some(Decision::Ask { reason, .. })
            if matches!(&s.downstream, autoreview::scenario::Downstream::Ask { reason: r } if reason.as_deref() == Some(r.as_str())));
        if asked_by_downstream && o.review.attempts > 0 && o.review.failure.is_none() {
            granted_where(s, o, |id, left| id == CallIdOf::Own && !left);
        }
    });
    answers_for_more(plant, Severity::Safety, 20_000, false);
}

/// A gate that keys what it covers by session and never forgets a call, so a later call's body
/// naming a finished one is answered by the gate (AR-APPROVAL-7, AR-APPROVAL-6): SAFETY.
#[test]
fn a_gate_that_never_forgets_a_call_is_found_at_safety() {
    let plant = Planted::writing("finished calls still covered", |s, o| {
        if s.preset == autoreview::scenario::Preset::Auto {
            granted_where(s, o, |id, left| id == CallIdOf::Finished && !left);
        }
    });
    answers_for_more(
        plant,
        Severity::Safety,
        super::sessions::SESSION_CASES,
        true,
    );
}

/// A gate that answers every request its allowed call's body raises, with or without a call id
/// (AR-APPROVAL-7): SAFETY.
#[test]
fn a_gate_that_answers_requests_without_a_call_id_is_found_at_safety() {
    let plant = Planted::writing("requests without a call id answered", |s, o| {
        if allowed_by_the_gate(o) {
            granted_where(s, o, |id, left| {
                matches!(id, CallIdOf::Own | CallIdOf::None) && !left
            });
        }
    });
    answers_for_more(plant, Severity::Safety, 20_000, false);
}

/// A gate that does not look at the session's preset again when it answers, so it answers after
/// the body left Auto (AR-APPROVAL-7): the escalation is granted on its reviewer's allow of the
/// call, which the spec does not let answer it once the session left Auto: BOUNDS.
#[test]
fn a_gate_that_answers_after_the_session_left_auto_is_found_at_bounds() {
    let plant = Planted::writing("answered out of Auto", |s, o| {
        if allowed_by_the_gate(o) {
            granted_where(s, o, |id, _| id == CallIdOf::Own);
        }
    });
    answers_for_more(plant, Severity::Bounds, 20_000, true);
}

/// An approval service that puts a body's request to its answerers under `never`
/// (AR-APPROVAL-8): the human's scripted answer stands where the service was to reject, and an
/// `allowed-once` grants it on an allow the spec does not let count there: BOUNDS, in both
/// profiles.
#[test]
fn a_service_that_asks_under_never_is_found_at_bounds() {
    let plant = Planted::writing("a body's requests asked under never", |s, o| {
        each_raised(s, o, |raise, _, b| {
            if b.answered_by == AnsweredBy::Service {
                b.answered_by = AnsweredBy::Human;
                b.answer = raise
                    .human_answer(s.approval)
                    .unwrap_or(Answer::Unavailable);
            }
        });
    });
    found(
        plant,
        "AR-APPROVAL-8",
        &[Profile::BASELINE, Profile::RESILIENT, shipped()],
        Severity::Bounds,
    );
}

/// A tool runtime that runs the body's requests but keeps no record of them (AR-RESULT-7): what
/// the service answered is lost: DECISION.
#[test]
fn a_runtime_that_records_no_body_request_is_found_at_decision() {
    let plant = Planted::writing("the body's requests unrecorded", |_, o| {
        o.body_approvals.clear();
        o.trace.retain(|e| *e != autoreview::outcome::Event::Raised);
    });
    found(
        plant,
        "AR-RESULT-7",
        &[Profile::BASELINE, Profile::RESILIENT, shipped()],
        Severity::Decision,
    );
}
