//! Spec chapter 5, the decision (AR-DECIDE-1..6, AR-ORDER-1..2), and the resilient profile's
//! decision rules (AR-RES-DECIDE, AR-RES-FAIL, AR-RES-ASK, AR-RES-HINT): what the gate returns once
//! the review settled, by the session's policy, the configuration and downstream's decision. Each
//! decision cites the clause of the branch that made it.

use super::review::{FailureNote, Review};
use super::{Decided, Run, cancellation, compose};
use crate::messages::Text;
use crate::outcome::{Decision, Event};
use crate::parse::ReviewerDecision;
use crate::profile::FailureRules;
use crate::scenario::{ApprovalPolicy, OnFailure};

/// A review that settled: the only input the decision rules take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// The reviewer returned a legal decision.
    Decided(ReviewerDecision),
    /// No decision was obtained.
    Failed(FailureNote),
}

/// Decides a call whose review settled.
pub fn decide(run: &mut Run<'_>, review: &Review, settled: Settled) -> Decided {
    // AR-RES-HINT-2: due wherever failures are counted, whichever rules then decide.
    let hint = review.hint_due(run.s).then(|| {
        compose::hint_lines(
            review.consecutive_failures.unwrap_or_default(),
            review.last_route(),
        )
    });
    match run.profile.failures() {
        // AR-DECIDE-1, AR-DECIDE-2, AR-DECIDE-6
        FailureRules::Deny => baseline(run, settled, hint),
        // AR-RES-FAIL-1..3, AR-RES-DECIDE-1, AR-RES-ASK-1
        FailureRules::Ask => resilient(run, settled, hint),
    }
}

/// The baseline's rules (AR-DECIDE-1..6); `hint` is the failure hint when it is due (the
/// baseline counts no failures, so it never is; a profile that counts them under these rules
/// appends it to the failure denial, AR-RES-HINT-2).
fn baseline(run: &mut Run<'_>, settled: Settled, hint: Option<(Text, Text)>) -> Decided {
    let s = run.s;
    let name = s.tool.name.as_str();
    let decision = match settled {
        Settled::Failed(failure) => {
            return compose::failed(name, &failure, hint.as_ref().map(|h| &h.0), false);
        }
        Settled::Decided(d) => d,
    };
    if let ReviewerDecision::Deny { reason, .. } = &decision {
        // AR-DECIDE-2 reads the recorded override, not the effective policy (AR-DECIDE-6).
        if run.s.policy.override_ == Some(ApprovalPolicy::Never) {
            return compose::final_deny(name, reason.as_deref(), "AR-DECIDE-2");
        }
    }
    let downstream = consult_downstream(run);
    if cancellation::lifecycle_aborts_during_downstream(run.s.abort) {
        return Decided::exact(Decision::Cancel).because("AR-CANCEL-4");
    }
    match decision {
        ReviewerDecision::Allow { .. } => Decided::exact(downstream).because("AR-DECIDE-4"),
        ReviewerDecision::Deny { reason, .. } => {
            if downstream == Decision::Allow {
                // The second case of AR-DECIDE-5.
                let d = compose::ask(compose::review_ask(name, reason.as_deref()), None);
                if s.policy.override_.is_none() && s.policy.effective() == ApprovalPolicy::Never {
                    d.because("AR-DECIDE-5").because("AR-DECIDE-6")
                } else {
                    d.because("AR-DECIDE-5")
                }
            } else {
                // The first case of AR-DECIDE-5: downstream's decision unchanged.
                Decided::exact(downstream).because("AR-DECIDE-5")
            }
        }
    }
}

/// The resilient profile's rules: the effective policy decides (AR-RES-DECIDE-1); a failure is
/// asked about like a denial unless the policy is `never` or the configuration fails closed
/// (AR-RES-FAIL-1..3); a downstream ask carries the gate's objection (AR-RES-ASK-1).
fn resilient(run: &mut Run<'_>, settled: Settled, hint: Option<(Text, Text)>) -> Decided {
    let s = run.s;
    let name = s.tool.name.as_str();
    let never = s.policy.effective() == ApprovalPolicy::Never;
    let (objection, why) = match settled {
        Settled::Failed(failure) => {
            if never || s.config.on_failure == OnFailure::Deny {
                let failed = compose::failed(name, &failure, hint.as_ref().map(|h| &h.0), true);
                return compose::failure_denied(failed, &s.policy, s.config.on_failure);
            }
            (Some(compose::failure_ask(name, &failure)), "AR-RES-FAIL-2")
        }
        Settled::Decided(ReviewerDecision::Deny { reason, .. }) => {
            if never {
                let denied = compose::final_deny(name, reason.as_deref(), "AR-RES-DECIDE-1");
                return compose::never_by(denied, &s.policy);
            }
            (
                Some(compose::review_ask(name, reason.as_deref())),
                "AR-DECIDE-5",
            )
        }
        Settled::Decided(ReviewerDecision::Allow { .. }) => (None, "AR-DECIDE-4"),
    };
    let downstream = consult_downstream(run);
    if cancellation::lifecycle_aborts_during_downstream(run.s.abort) {
        return Decided::exact(Decision::Cancel).because("AR-CANCEL-4");
    }
    let Some(objection) = objection else {
        return Decided::exact(downstream).because(why);
    };
    match downstream {
        Decision::Allow => compose::asked_because(compose::ask(objection, hint.as_ref()), why),
        Decision::Ask {
            reason: Some(r), ..
        } => compose::asked_because(
            compose::ask(compose::combine(objection, &r), hint.as_ref()),
            why,
        )
        .because("AR-RES-ASK-1"),
        other => Decided::exact(other).because(why),
    }
}

/// Consults the rest of the pre-execute chain once (AR-DECIDE-3) and returns its decision as given.
pub fn consult_downstream(run: &mut Run<'_>) -> Decision {
    run.event(Event::Downstream);
    // The event itself, so that a trace with more or fewer consultations breaks this clause.
    let at = format!("/trace/{}", run.trace.len() - 1);
    run.cite(&at, "AR-DECIDE-3");
    run.cite("/trace", "AR-DECIDE-3");
    compose::downstream_decision(&run.s.downstream)
}
