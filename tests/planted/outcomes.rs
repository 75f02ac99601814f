//! Outcome plants: the tool runtime's part of a call, after the gate decided: how an ask is put to
//! the approval service, how its answer is acted on, and how a decision becomes the tool result
//! the model receives (spec chapters 6 and 8).

use super::*;
use autoreview::engine::compose;
use autoreview::messages;
use autoreview::outcome::{ApprovalRecord, Decision, Event, ToolResult};
use autoreview::scenario::{AbortPoint, ApprovalAnswer, ApprovalPolicy};

/// `Error: <template>` for the tool of `s`: a refusal by the tool runtime or the approval service.
fn refused_with(s: &Scenario, template: messages::Template) -> ToolResult {
    let text = compose::named(template, &s.tool.name).text;
    ToolResult::refused(format!("Error: {text}"), None)
}

/// The body runs: the result says so and the trace records it.
fn runs_the_body(o: &mut Outcome) {
    o.result = ToolResult::executed();
    o.trace.push(Event::Body);
}

/// A tool runtime that dispatches the stage's `allow` without looking at the caller's signal
/// again (AR-RESULT-1: an allow dispatches unless the caller's signal is aborted by then, and
/// then it is the pre-dispatch cancellation): when the user pressed stop while the review was in
/// flight and the review then allowed, the body runs anyway.
#[test]
fn a_runtime_that_dispatches_an_allow_after_the_caller_aborted_is_found_at_safety() {
    let plant = Planted::writing(
        "an allow dispatched whatever the caller's signal",
        |_, o| {
            if o.settled
                && o.listener == Some(Decision::Allow)
                && o.approval.is_none()
                && !o.result.executed
            {
                runs_the_body(o);
            }
        },
    );
    found(plant, "AR-RESULT-1", &Profile::all(), Severity::Safety);
}

/// A tool runtime that materializes a `deny` as its text alone, dropping the deny's structured
/// info (AR-RESULT-2: the deny's info is kept as the result's info): the model reads the same
/// text, the logs lose `AutoReviewDeniedError` (and, in the resilient profile,
/// `AutoReviewFailedError`) and downstream's own info. Only information is lost: INFO.
#[test]
fn a_runtime_that_drops_a_denials_info_is_found_at_info() {
    let plant = Planted::writing("a deny materialized without its info", |_, o| {
        if let Some(Decision::Deny {
            info: Some(info), ..
        }) = &o.listener
            && o.result.info.as_ref() == Some(info)
        {
            o.result.info = None;
        }
    });
    found(plant, "AR-RESULT-2", &Profile::all(), Severity::Info);
}

/// A tool runtime that keeps the reviewer's identity on the human's refusal of the review's ask:
/// a rejected, cancelled or unavailable approval after a reviewer denial is materialized with
/// `AutoReviewDeniedError`, as if the reviewer had denied it finally (AR-RESULT-3: an approval
/// service's denial carries no structured info). The text is right; the info is not: INFO.
#[test]
fn a_runtime_that_gives_a_human_refusal_the_reviewers_identity_is_found_at_info() {
    let plant = Planted::writing("a human's refusal with the reviewer's identity", |_, o| {
        let after_review = o.review.attempts > 0
            && o.review.failure.is_none()
            && matches!(
                &o.listener,
                Some(Decision::Ask {
                    display_reason: Some(_),
                    ..
                })
            );
        let refused = o.approval.as_ref().is_some_and(|a| {
            matches!(
                a.answer,
                ApprovalAnswer::Rejected | ApprovalAnswer::Cancelled | ApprovalAnswer::Unavailable
            )
        });
        if after_review && refused && !o.result.executed && o.result.info.is_none() {
            o.result.info = Some(messages::info_denied(None));
        }
    });
    found(plant, "AR-RESULT-3", &Profile::all(), Severity::Info);
}

/// A tool runtime that catches the approval request's throw and goes on to dispatch, as if a
/// question nobody could be asked were no question (AR-RESULT-5, AR-APPROVAL-4: the call ends
/// with `Error: <message>` and the body does not run): the body runs on nobody's allow: SAFETY.
#[test]
fn a_runtime_that_dispatches_when_the_approval_request_throws_is_found_at_safety() {
    let plant = Planted::writing("a thrown approval request let through", |_, o| {
        if o.approval
            .as_ref()
            .is_some_and(|a| a.answer == ApprovalAnswer::Throws)
        {
            runs_the_body(o);
        }
    });
    found(plant, "AR-RESULT-5", &Profile::all(), Severity::Safety);
}

/// A tool runtime that catches the approval request's throw and reads it as `unavailable`
/// (AR-APPROVAL-4: the request that throws ends the call with its own message, and no answer is
/// given): the model still reads `Error: …` and no body runs, but the approval's answer is one
/// the service never gave: a DECISION.
#[test]
fn a_runtime_that_reads_a_thrown_approval_request_as_unavailable_is_found_at_decision() {
    let plant = Planted::writing("a thrown approval request read as unavailable", |s, o| {
        if let Some(a) = &mut o.approval
            && a.answer == ApprovalAnswer::Throws
        {
            a.answer = ApprovalAnswer::Unavailable;
            o.result = refused_with(s, messages::APPROVAL_UNAVAILABLE);
        }
    });
    found(plant, "AR-APPROVAL-4", &Profile::all(), Severity::Decision);
}

/// A tool runtime that puts every `ask` to the approval service, without first checking that
/// the call has an agent to route the question through (AR-APPROVAL-1: such a call is denied
/// with `MSG-NO-AGENT` and nobody is asked). The service answers as it would for any call:
/// `cancelled` when the caller's signal is aborted, `rejected` under `never`, else the human's
/// answer; when the human allows, the body runs on a human's allow where the spec asks nobody:
/// BOUNDS.
#[test]
fn a_runtime_that_asks_for_a_call_without_an_agent_is_found_at_bounds() {
    let plant = Planted::writing(
        "an ask without an agent put to the approval service",
        |s, o| {
            let Some(Decision::Ask {
                reason,
                display_reason,
            }) = &o.listener
            else {
                return;
            };
            if s.agent || o.approval.is_some() {
                return;
            }
            let (answer, prompted, result) = if s.approval == ApprovalAnswer::Throws {
                let threw = format!("Error: {}", messages::reference::APPROVAL_OUTSIDE_TURN);
                (s.approval, false, ToolResult::refused(threw, None))
            } else if s.abort == AbortPoint::CallerDuringReview {
                let aborted = autoreview::engine::materialize::aborted();
                (ApprovalAnswer::Cancelled, false, aborted)
            } else if s.policy.effective() == ApprovalPolicy::Never {
                let rejected = refused_with(s, messages::USER_REJECTED);
                (ApprovalAnswer::Rejected, false, rejected)
            } else {
                let result = match s.approval {
                    ApprovalAnswer::AllowedOnce => ToolResult::executed(),
                    ApprovalAnswer::Rejected => refused_with(s, messages::USER_REJECTED),
                    ApprovalAnswer::Cancelled => refused_with(s, messages::APPROVAL_CANCELLED),
                    _ => refused_with(s, messages::APPROVAL_UNAVAILABLE),
                };
                (s.approval, true, result)
            };
            o.approval = Some(ApprovalRecord {
                reason: reason.clone(),
                display_reason: display_reason.clone(),
                answer,
                prompted,
            });
            o.trace.push(Event::Approval);
            if result.executed {
                o.trace.push(Event::Body);
            }
            o.result = result;
        },
    );
    found(plant, "AR-APPROVAL-1", &Profile::all(), Severity::Bounds);
}

/// A tool runtime that lets the call through when no approval channel is available, as a
/// headless runner that approves what it cannot ask about (AR-APPROVAL-3: `unavailable` denies
/// with `MSG-APPROVAL-UNAVAILABLE`): the body runs on nobody's allow: SAFETY.
#[test]
fn a_runtime_that_reads_unavailable_as_allowed_once_is_found_at_safety() {
    let plant = Planted::writing("unavailable read as allowed-once", |_, o| {
        if o.approval
            .as_ref()
            .is_some_and(|a| a.answer == ApprovalAnswer::Unavailable)
        {
            runs_the_body(o);
        }
    });
    found(plant, "AR-APPROVAL-3", &Profile::all(), Severity::Safety);
}

/// A tool runtime that tells the model why the human was asked: a refusal by the approval
/// service quotes the ask's audited reason after its template (AR-APPROVAL-5: the model sees only
/// the resulting tool result). No decision changes; the model reads a text it must not: TEXT.
#[test]
fn a_runtime_that_shows_the_audited_reason_to_the_model_is_found_at_text() {
    let plant = Planted::writing("the audited reason shown to the model", |_, o| {
        let Some(a) = &o.approval else { return };
        if let (Some(r), Some(t), false) = (&a.reason, &mut o.result.text, o.result.executed)
            && a.answer != ApprovalAnswer::Throws
        {
            t.push_str(&format!(": {r}"));
        }
    });
    found(plant, "AR-APPROVAL-5", &Profile::all(), Severity::Text);
}

/// A tool runtime that materializes a `cancel` without its structured info, as a plain error
/// (AR-RESULT-4: the canonical pre-dispatch cancellation carries `INFO-ABORTED`): the model reads
/// the same text, the logs cannot tell a cancellation from a denial: INFO.
#[test]
fn a_runtime_that_cancels_without_the_abort_info_is_found_at_info() {
    let plant = Planted::writing("a cancel without its AbortError info", |_, o| {
        if o.result.info == Some(messages::info_aborted()) {
            o.result.info = None;
        }
    });
    found(plant, "AR-RESULT-4", &Profile::all(), Severity::Info);
}

/// A tool runtime that appends the structured info's `reason` to the text the model sees
/// (AR-RESULT-6: it is for logs and interfaces only): a final denial quotes the reviewer's
/// reason: TEXT.
#[test]
fn a_runtime_that_shows_the_infos_reason_to_the_model_is_found_at_text() {
    let plant = Planted::writing("the info's reason shown to the model", |_, o| {
        let reason = o
            .result
            .info
            .as_ref()
            .and_then(|i| i.get("reason"))
            .and_then(|r| r.as_str())
            .map(str::to_owned);
        if let (Some(r), Some(t)) = (reason, &mut o.result.text) {
            t.push_str(&format!(": {r}"));
        }
    });
    found(plant, "AR-RESULT-6", &Profile::all(), Severity::Text);
}

/// A gate whose final denial's info carries a code of its own, `AUTO_REVIEW_REJECTED` for
/// `AUTO_REVIEW_DENIED` (AR-MSG-4: the structured infos are fixed): information only: INFO.
#[test]
fn a_gate_with_its_own_denial_code_is_found_at_info() {
    let plant = Planted::writing("INFO-DENIED with a code of its own", |_, o| {
        each_info(o, |i| {
            if i.get("code").and_then(|c| c.as_str()) == Some("AUTO_REVIEW_DENIED") {
                i.insert("code".into(), "AUTO_REVIEW_REJECTED".into());
            }
        })
    });
    found(plant, "AR-MSG-4", &Profile::all(), Severity::Info);
}

/// A resilient gate that throws one error class for every refusal, so that the denial of a
/// failed review carries the denial's identity, `AutoReviewDeniedError` / `AUTO_REVIEW_DENIED`
/// (AR-RES-MSG-2: a structured name and code that tell a failure from a denial): a log or an
/// interface that reads the code takes a broken reviewer route for a reviewer's refusal. The
/// info decides nothing after it: INFO.
#[test]
fn a_resilient_gate_that_names_a_failure_as_a_denial_is_found_at_info() {
    let plant = Planted::writing("INFO-FAILED named as INFO-DENIED", |_, o| {
        each_info(o, |i| {
            if i.get("code").and_then(|c| c.as_str()) == Some("AUTO_REVIEW_FAILED") {
                i.insert("name".into(), "AutoReviewDeniedError".into());
                i.insert("code".into(), "AUTO_REVIEW_DENIED".into());
            }
        })
    });
    found(plant, "AR-RES-MSG-2", &[Profile::RESILIENT], Severity::Info);
}

/// A tool runtime that records the approval when the call completes, after the body it let run
/// (AR-ORDER-1: the approval request comes before the body): ORDER.
#[test]
fn a_runtime_that_records_the_approval_after_the_body_is_found_at_order() {
    let plant = Planted::writing("the approval recorded after the body", |_, o| {
        if o.trace.ends_with(&[Event::Approval, Event::Body]) {
            let n = o.trace.len();
            o.trace.swap(n - 2, n - 1);
        }
    });
    found(plant, "AR-ORDER-1", &Profile::all(), Severity::Order);
}
