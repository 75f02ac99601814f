//! Spec chapter 6, approval (AR-APPROVAL-1..6): how the approval service answers an ask.

use super::{Run, cancellation, disposal};
use crate::messages::{Text, reference};
use crate::outcome::{ApprovalRecord, DisplayReason, Event};
use crate::scenario::{ApprovalAnswer, ApprovalPolicy};

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
