//! Spec chapter 5, the decision (AR-DECIDE-1..6, AR-ORDER-1..2): what the gate returns once the
//! review settled, by the session's policy and downstream's decision.

use super::review::FailureNote;
use super::{Decided, Run, cancellation};
use crate::messages::{self, Text};
use crate::outcome::{Decision, DisplayReason, Event};
use crate::parse::ReviewerDecision;
use crate::scenario::{ApprovalPolicy, Downstream};

/// A review that settled: the only input the decision rules take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// The reviewer returned a legal decision.
    Decided(ReviewerDecision),
    /// No decision was obtained.
    Failed(FailureNote),
}

/// Decides a call whose review settled with a decision or a failure.
pub fn decide(run: &mut Run<'_>, settled: Settled) -> Decided {
    let decision = match settled {
        Settled::Failed(failure) => return failed(run, &failure),
        Settled::Decided(d) => d,
    };
    if let ReviewerDecision::Deny { reason, .. } = &decision {
        // AR-DECIDE-2 reads the recorded override, not the effective policy (AR-DECIDE-6).
        if run.s.policy.override_ == Some(ApprovalPolicy::Never) {
            return Decided::exact(final_deny(run, reason.as_deref()));
        }
    }
    // AR-DECIDE-3
    let downstream = consult_downstream(run);
    if cancellation::lifecycle_aborts_during_downstream(run.s.abort) {
        return Decided::exact(Decision::Cancel); // AR-CANCEL-4
    }
    match decision {
        ReviewerDecision::Allow { .. } => Decided::exact(downstream), // AR-DECIDE-4
        ReviewerDecision::Deny { reason, .. } => {
            if downstream != Decision::Allow {
                Decided::exact(downstream) // AR-DECIDE-5, first case
            } else {
                Decided::exact(ask_user(run, reason.as_deref())) // AR-DECIDE-5, second case
            }
        }
    }
}

/// AR-DECIDE-1: a failure denies with `MSG-FAILED` and no info.
fn failed(run: &Run<'_>, failure: &FailureNote) -> Decided {
    let name = Text::exact(run.s.tool.name.as_str());
    let reason = messages::FAILED.fill(&[("name", &name), ("error", &failure.message)]);
    Decided {
        decision: Decision::Deny {
            reason: reason.text,
            info: None,
        },
        reason_prefix: reason.prefix,
    }
}

/// AR-DECIDE-2: the final denial with `INFO-DENIED`.
fn final_deny(run: &Run<'_>, reason: Option<&str>) -> Decision {
    Decision::Deny {
        reason: messages::FINAL_DENY.render(&[("name", &run.s.tool.name)]),
        info: Some(messages::info_denied(reason)),
    }
}

/// AR-DECIDE-5: the ask after a reviewer denial that downstream allowed.
fn ask_user(run: &Run<'_>, reason: Option<&str>) -> Decision {
    let name = run.s.tool.name.as_str();
    let (audited, en, zh) = match reason {
        None => (
            messages::ASK_REVIEW.render(&[("name", name)]),
            messages::DISPLAY_EN.render(&[]),
            messages::DISPLAY_ZH.render(&[]),
        ),
        Some(r) => (
            messages::ASK_REVIEW_REASON.render(&[("name", name), ("reason", r)]),
            messages::DISPLAY_EN_REASON.render(&[("reason", r)]),
            messages::DISPLAY_ZH_REASON.render(&[("reason", r)]),
        ),
    };
    Decision::Ask {
        reason: Some(audited),
        display_reason: Some(DisplayReason { en, zh }),
    }
}

/// Consults the rest of the pre-execute chain once (AR-DECIDE-3) and returns its decision as given.
pub fn consult_downstream(run: &mut Run<'_>) -> Decision {
    run.event(Event::Downstream);
    match &run.s.downstream {
        Downstream::Allow => Decision::Allow,
        Downstream::Deny { reason, info } => Decision::Deny {
            reason: reason.clone(),
            info: info.clone(),
        },
        Downstream::Cancel => Decision::Cancel,
        Downstream::Ask { reason } => Decision::Ask {
            reason: Some(reason.clone()),
            display_reason: None,
        },
    }
}
