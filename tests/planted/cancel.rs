//! Cancellation plants: a mistake in how a gate or its tool runtime meets a signal (chapter 7,
//! AR-CANCEL-1..7): a check of the caller's or the lifecycle's signal made at another point than
//! the spec's, or a request a signal ended recorded as something else.

use super::*;
use autoreview::engine::disposal;
use autoreview::outcome::{Decision, FailureClass};
use autoreview::scenario::{FailedFinish, FailedFinishKind};

/// The profile an outcome was decided under, read off the outcome (a writing plant is not told):
/// the resilient profile reports a failure count on every call, the baseline none.
fn profile_of(o: &Outcome) -> Profile {
    if o.review.consecutive_failures.is_some() {
        Profile::RESILIENT
    } else {
        Profile::BASELINE
    }
}

/// The outcome `s` comes to once `change` is made to it, under the profile `o` was decided in;
/// the id stays the one sent.
fn decided_as(s: &Scenario, o: &mut Outcome, change: impl FnOnce(&mut Scenario, Profile)) {
    let mut other = s.clone();
    let profile = profile_of(o);
    change(&mut other, profile);
    *o = engine::decide(&other, profile);
    o.id.clone_from(&s.id);
}

/// A tool runtime that looks at the caller's signal only once the pre-execute stage has
/// answered, not before it starts (AR-CANCEL-1): a call the user stopped before dispatch is still
/// reviewed, downstream consulted and the approval service asked, as for a signal that comes
/// while the review runs (AR-CANCEL-5). The runtime's check at dispatch still keeps every body
/// from running, so no body runs that must not; the listener decided, the reviewer was asked and
/// a denial is materialized as a denial where nothing may run at all: DECISION, from either kind
/// of case.
#[test]
fn a_runtime_that_checks_the_caller_only_at_dispatch_is_found_at_decision() {
    let plant = Planted::reading("the caller's signal checked only at dispatch", |s| {
        if s.abort == AbortPoint::CallerBeforeDispatch {
            s.abort = AbortPoint::CallerDuringReview;
        }
    });
    found(plant, "AR-CANCEL-1", &Profile::all(), Severity::Decision);
}

/// A gate that looks at the lifecycle signal when it admits a call and never again until it
/// returns (AR-CANCEL-3): a review the integration's disposal interrupted is acted on as if
/// nothing had happened. The review is the one the reference made (its one request, a hung one
/// ended by the signal as an `aborted` failure); what the gate does with it is not: a late allow
/// goes to downstream, a late deny or failure is decided as usual, where the gate must cancel.
/// A body that then runs ran on the reviewer's allow the reference read too, where the call
/// should have stopped: a DECISION (spec/protocol.md, "Severities"), from either kind of baseline
/// case. The resilient gate asks a human about a failure, so a failure in a session disposal did
/// not move (it keeps its policy `ask`) reaches a human whose allow runs the body where the
/// reference asks nobody: BOUNDS, from either kind of resilient case (RES-34).
#[test]
fn a_gate_that_acts_on_a_review_the_lifecycle_interrupted_is_found_at_decision_or_bounds() {
    let plant = || {
        Planted::writing("a review the lifecycle interrupted acted on", |s, o| {
            if s.abort == AbortPoint::LifecycleAfterReview {
                acted_on_without_the_signal(s, o);
            }
        })
    };
    found_leading(
        plant(),
        "AR-CANCEL-3",
        &[Profile::BASELINE],
        Severity::Decision,
        READER_CASES,
    );
    found_leading(
        plant(),
        "AR-CANCEL-3",
        &[Profile::RESILIENT],
        Severity::Bounds,
        READER_CASES,
    );
}

/// A gate that, when the lifecycle aborts while downstream is consulted, cancels downstream's
/// answer only where it would let the call go on (an allow, an ask) and passes a denial through as
/// it came, reasoning that a denial stops the call anyway (AR-CANCEL-4: `cancel` whatever
/// downstream returned, a deny with its info included). No body runs; the decision and the
/// result the model reads are another: DECISION, from either kind of case.
#[test]
fn a_gate_that_keeps_downstreams_denial_through_disposal_is_found_at_decision() {
    let plant = Planted::writing("downstream's denial kept through a disposal", |s, o| {
        let consulted = o.trace.contains(&autoreview::outcome::Event::Downstream);
        if s.abort == AbortPoint::LifecycleDuringDownstream
            && consulted
            && matches!(o.listener, Some(Decision::Cancel))
        {
            let mut kept = o.clone();
            decided_as(s, &mut kept, |c, p| {
                c.policy = disposal::policy_at_approval(c, p);
                c.abort = AbortPoint::None;
            });
            if matches!(kept.listener, Some(Decision::Deny { .. })) {
                *o = kept;
            }
        }
    });
    found(plant, "AR-CANCEL-4", &Profile::all(), Severity::Decision);
}

/// A resilient gate that records a reviewer request its signal ended as a `timeout` failure,
/// reading the abort its controller raised as its deadline (AR-CANCEL-6: class `aborted`). The
/// class is information, and the gate decides nothing otherwise: INFO, from either kind of case.
/// (The baseline compares no failure class.)
#[test]
fn a_request_a_signal_ended_recorded_as_a_timeout_is_found_at_info() {
    let plant = Planted::writing("a request a signal ended recorded as a timeout", |s, o| {
        let signalled = matches!(
            s.abort,
            AbortPoint::CallerDuringReview | AbortPoint::LifecycleAfterReview
        );
        if let Some(f) = &mut o.review.failure
            && signalled
            && f.class == FailureClass::Aborted
        {
            f.class = FailureClass::Timeout;
        }
    });
    found(plant, "AR-CANCEL-6", &[Profile::RESILIENT], Severity::Info);
}

/// A baseline gate that does not hand the lifecycle's or the caller's signal to its reviewer
/// request (AR-CANCEL-6: a signal ends a request that never settles on its own): a hung request
/// stays hung, and the call with it, where the signal should have settled the review as an
/// `aborted` failure and the gate decided (a cancel, a denial). Nothing runs: DECISION.
#[test]
fn a_reviewer_request_no_signal_ends_is_found_at_decision() {
    let plant = Planted::writing("the signals not handed to the reviewer request", |s, o| {
        let signalled = matches!(
            s.abort,
            AbortPoint::CallerDuringReview | AbortPoint::LifecycleAfterReview
        );
        let reviewed = o.review.attempts > 0;
        let mut hung = s.clone();
        if signalled
            && reviewed
            && matches!(attempts(&mut hung).first(), Some(Attempt::Hang { .. }))
        {
            decided_as(s, o, |c, _| c.abort = AbortPoint::None);
        }
    });
    found(
        plant,
        "AR-CANCEL-6",
        &[Profile::BASELINE],
        Severity::Decision,
    );
}

/// `o`, the outcome of a call whose review the lifecycle interrupted, as a gate that does not look
/// at the signal once the review settles comes to it: the review is the one the reference made (its
/// one request, a hung one ended by the signal as an `aborted` failure); what the gate does with it
/// follows as if no signal had come, under the policy disposal wrote.
fn acted_on_without_the_signal(s: &Scenario, o: &mut Outcome) {
    let review = o.review.clone();
    decided_as(s, o, |c, p| {
        // Disposal began: it moved the session as it does before a downstream abort.
        c.policy = disposal::policy_at_approval(
            &Scenario {
                abort: AbortPoint::LifecycleDuringDownstream,
                ..c.clone()
            },
            p,
        );
        c.abort = AbortPoint::None;
        // The one request the review made, as it settled.
        let first = match attempts(c).first() {
            Some(Attempt::Hang { .. }) => Attempt::Finish {
                finish: FailedFinish {
                    kind: FailedFinishKind::Aborted,
                    code: "ABORTED".into(),
                    message: "This operation was aborted".into(),
                },
                delay_ms: 0,
            },
            Some(a) => a.clone(),
            None => return,
        };
        c.reviewer = Reviewer::One(first);
        (c.config.repair_attempts, c.config.transport_retries) = (0, 0);
    });
    // The review is the one the reference made: the mistake is in what follows it.
    o.review = review;
}

/// A tool runtime whose switch on the stage's decision lets every kind but a denial and an ask
/// through to dispatch, a `cancel` included (AR-CANCEL-7: no cancelled call ever runs its body):
/// the body of a call a signal or a refused admission cancelled runs, and nobody allowed it:
/// SAFETY, from either kind of case.
#[test]
fn a_runtime_that_dispatches_a_cancel_is_found_at_safety() {
    let plant = Planted::writing("a cancel dispatched", |_, o| {
        if matches!(o.listener, Some(Decision::Cancel)) && !o.result.executed {
            o.result = autoreview::outcome::ToolResult::executed();
            o.trace.push(autoreview::outcome::Event::Body);
        }
    });
    found(plant, "AR-CANCEL-7", &Profile::all(), Severity::Safety);
}

/// A tool runtime that, the caller's signal having aborted while the review ran, turns every
/// decision into the pre-dispatch cancellation, a final denial included (AR-CANCEL-5: a final
/// `deny` is materialized as that denial). Nothing runs; the model reads another text: TEXT, from
/// either kind of case. The result's text is wholly another template's (the cancellation's), a
/// text chosen by another rule, not one worded otherwise, so the run leads with the rule that
/// chose it: AR-CANCEL-5.
#[test]
fn a_runtime_that_cancels_a_denial_the_caller_aborted_is_found_at_text() {
    let plant = Planted::writing(
        "a denial the caller aborted materialized as a cancel",
        |s, o| {
            if s.abort == AbortPoint::CallerDuringReview && o.settled && !o.result.executed {
                o.result = autoreview::engine::materialize::aborted();
            }
        },
    );
    found(plant, "AR-CANCEL-5", &Profile::all(), Severity::Text);
}
