//! Disposal of the integration (AR-DISPOSE-1..3): when the lifecycle aborts, disposal moves every
//! listed Auto session to Full access with the approval policy `never`. What a call sees of its
//! session therefore depends on when the lifecycle aborted and whether the session was listed.

use crate::profile::Profile;
use crate::scenario::{AbortPoint, ApprovalPolicy, Policy, Preset, SandboxMode, Scenario};

/// AR-DISPOSE-1: whether disposal moves this call's session out of Auto when the lifecycle aborts:
/// the call has an agent (so a session), and the session is in Auto and in the session list.
fn moves_session(s: &Scenario) -> bool {
    s.agent && s.preset == Preset::Auto && s.session.listed
}

/// AR-DISPOSE-1: where disposal moves a listed Auto session in `mode`, under a profile that
/// confines (`confinement`) or not: the preset, the approval policy override it writes (`None`:
/// the session's own stays) and the mode. Full access under `never` with its mode; a profile
/// that confines moves a confined session to Workspace Write with its own policy, and keeps every
/// session's mode (AR-CONFINE-2, AR-CONFINE-5).
pub fn moved_to(
    mode: SandboxMode,
    confinement: bool,
) -> (Preset, Option<ApprovalPolicy>, SandboxMode) {
    match (confinement, mode) {
        (true, SandboxMode::WorkspaceWrite) => (Preset::WorkspaceWrite, None, mode),
        (true, _) => (Preset::DangerFullAccess, Some(ApprovalPolicy::Never), mode),
        (false, _) => (
            Preset::DangerFullAccess,
            Some(ApprovalPolicy::Never),
            SandboxMode::DangerFullAccess,
        ),
    }
}

/// AR-DISPOSE-2: the preset the gate reads when the call starts. Disposal that began before the
/// call moved a listed Auto session out of Auto.
pub fn preset_at_start(s: &Scenario, profile: Profile) -> Preset {
    if moves_session(s) && s.abort == AbortPoint::LifecycleBeforeReview {
        moved_to(s.session.sandbox.mode, profile.confinement()).0
    } else {
        s.preset
    }
}

/// AR-DISPOSE-3: the policy the approval service applies when the tool runtime asks it. Disposal
/// that began before the call, or while downstream was consulted (the only lifecycle point a
/// call that is not reviewed reaches), wrote the override `never`, unless it moved a confined
/// session to Workspace Write, which keeps its own policy.
pub fn policy_at_approval(s: &Scenario, profile: Profile) -> Policy {
    let disposed = matches!(
        s.abort,
        AbortPoint::LifecycleBeforeReview | AbortPoint::LifecycleDuringDownstream
    );
    if moves_session(s) && disposed {
        let written = moved_to(
            super::confinement::mode_in_call(s, profile),
            profile.confinement(),
        )
        .1;
        Policy {
            override_: written.or(s.policy.override_),
            ..s.policy
        }
    } else {
        s.policy
    }
}

/// AR-DISPOSE-1: the sandbox mode of the call's session once the call settled, `mode` being the
/// one the gate left. Disposal during or before the call wrote Full access, and its mode, into a
/// session it moved; a profile that confines keeps the session's mode instead (AR-CONFINE-2).
pub fn mode_after(s: &Scenario, profile: Profile, mode: SandboxMode) -> SandboxMode {
    if moves_session(s) && s.abort.is_lifecycle() {
        moved_to(mode, profile.confinement()).2
    } else {
        mode
    }
}
