//! Disposal of the integration (AR-DISPOSE-1..3): when the lifecycle aborts, disposal moves every
//! listed Auto session to Full access with the approval policy `never`. What a call sees of its
//! session therefore depends on when the lifecycle aborted and whether the session was listed.

use crate::scenario::{AbortPoint, ApprovalPolicy, Policy, Preset, Scenario};

/// AR-DISPOSE-1: whether disposal moves this call's session out of Auto when the lifecycle aborts:
/// the call has an agent (so a session), and the session is in Auto and in the session list.
fn moves_session(s: &Scenario) -> bool {
    s.agent && s.preset == Preset::Auto && s.session.listed
}

/// AR-DISPOSE-2: the preset the gate reads when the call starts. Disposal that began before the
/// call moved a listed Auto session to `danger-full-access`.
pub fn preset_at_start(s: &Scenario) -> Preset {
    if moves_session(s) && s.abort == AbortPoint::LifecycleBeforeReview {
        Preset::DangerFullAccess
    } else {
        s.preset
    }
}

/// AR-DISPOSE-3: the policy the approval service applies when the tool runtime asks it. Disposal
/// that began before the call, or while downstream was consulted (the only lifecycle point a
/// call that is not reviewed reaches), wrote the override `never`.
pub fn policy_at_approval(s: &Scenario) -> Policy {
    let disposed = matches!(
        s.abort,
        AbortPoint::LifecycleBeforeReview | AbortPoint::LifecycleDuringDownstream
    );
    if moves_session(s) && disposed {
        Policy {
            override_: Some(ApprovalPolicy::Never),
            ..s.policy
        }
    } else {
        s.policy
    }
}
