//! Spec chapter 6, approval (AR-APPROVAL-1..8): how the approval service answers an ask, and
//! the requests a call's body raises while it runs.

use super::{Run, cancellation, disposal};
use crate::messages::{Text, reference};
use crate::outcome::{AnsweredBy, ApprovalRecord, BodyApproval, DisplayReason, Event};
use crate::profile::BodyApprovals;
use crate::scenario::{Answer, ApprovalAnswer, ApprovalPolicy, CallIdOf, Policy, Preset, Raise};

/// What the approval request came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answered {
    /// `allowed-once`.
    AllowedOnce,
    /// `rejected`.
    Rejected,
    /// `cancelled`.
    Cancelled,
    /// `unavailable`.
    Unavailable,
    /// The request itself threw, with this message (AR-APPROVAL-4).
    Threw(Text),
}

/// Puts an ask to the approval service (AR-APPROVAL-2, AR-APPROVAL-4).
pub fn request(
    run: &mut Run<'_>,
    reason: Option<&str>,
    display_reason: Option<&DisplayReason>,
) -> (ApprovalRecord, Answered) {
    run.event(Event::Approval);
    run.cite("/trace", "AR-APPROVAL-1");
    let mut cite = |by: &[&'static str]| {
        for member in ["/approval/answer", "/approval/prompted"] {
            run.citations.cite_all(member, by);
        }
    };
    let record = |answer, prompted| ApprovalRecord {
        reason: reason.map(str::to_owned),
        display_reason: display_reason.cloned(),
        answer,
        prompted,
    };
    // The request's own precondition fails before the service decides anything.
    let answered = match run.s.approval {
        ApprovalAnswer::Throws => {
            cite(&["AR-APPROVAL-4"]);
            let message = Text::implementation_defined(reference::APPROVAL_OUTSIDE_TURN);
            return (
                record(ApprovalAnswer::Throws, false),
                Answered::Threw(message),
            );
        }
        ApprovalAnswer::AllowedOnce => Answered::AllowedOnce,
        ApprovalAnswer::Rejected => Answered::Rejected,
        ApprovalAnswer::Cancelled => Answered::Cancelled,
        ApprovalAnswer::Unavailable => Answered::Unavailable,
    };
    if cancellation::caller_aborts_in_flight(run.s.abort) {
        cite(&["AR-APPROVAL-2", "AR-CANCEL-5"]);
        return (
            record(ApprovalAnswer::Cancelled, false),
            Answered::Cancelled,
        );
    }
    // AR-DISPOSE-3: the policy in force when the service is asked.
    let policy = disposal::policy_at_approval(run.s, run.profile);
    if policy.effective() == ApprovalPolicy::Never {
        // The clause that decided the answer first: disposal's `never` where disposal wrote it
        // (AR-DISPOSE-3), the deployment default's where no override was recorded (AR-CONV-5),
        // the service's rule for `never` (AR-APPROVAL-2) after it.
        if policy != run.s.policy {
            cite(&["AR-DISPOSE-3"]);
        } else if policy.override_.is_none() {
            // AR-CONV-5: no override was recorded, so the deployment default is the policy.
            cite(&["AR-CONV-5"]);
        }
        cite(&["AR-APPROVAL-2"]);
        return (record(ApprovalAnswer::Rejected, false), Answered::Rejected);
    }
    cite(&["AR-APPROVAL-2"]);
    // AR-APPROVAL-6: the human's answer is for this call alone, whatever they answered before.
    run.citations
        .cite_first("/approval/answer", "AR-APPROVAL-6");
    (record(run.s.approval, true), answered)
}

/// How the approval service answers a request the call's body raised, the session being under
/// `preset` and `policy` by then (a body may have left Auto, AR-RESULT-7), with the clauses that
/// decided who answered, first the one that decided it.
pub fn raised(
    run: &Run<'_>,
    raise: &Raise,
    preset: Preset,
    policy: Policy,
) -> (BodyApproval, Vec<&'static str>) {
    let entry = |answered_by, answer| BodyApproval {
        call_id: raise.call_id,
        reason: raise.reason.clone(),
        answered_by,
        answer,
    };
    // AR-APPROVAL-8: the service's own answers come first. (A caller's abort would be the other,
    // but a call whose caller aborted never runs its body, AR-RESULT-1.)
    if policy.effective() == ApprovalPolicy::Never {
        let by = vec!["AR-APPROVAL-8", "AR-APPROVAL-2"];
        return (entry(AnsweredBy::Service, Answer::Rejected), by);
    }
    let mut by = Vec::with_capacity(3);
    if run.profile.body_approvals() == BodyApprovals::AllowedCall {
        // AR-APPROVAL-7: the call the gate allowed, naming itself, while the session is in Auto.
        by.push("AR-APPROVAL-7");
        if run.covered && raise.call_id == CallIdOf::Own && preset == Preset::Auto {
            return (entry(AnsweredBy::Gate, Answer::AllowedOnce), by);
        }
    }
    // AR-APPROVAL-8: every other request goes on to the human, whose answer is for this request
    // alone (AR-APPROVAL-6).
    by.extend(["AR-APPROVAL-8", "AR-APPROVAL-6"]);
    let answer = raise
        .human_answer(run.s.approval)
        .expect("RZ-12: a body raises requests only in a call whose approval does not throw");
    (entry(AnsweredBy::Human, answer), by)
}
