//! Spec chapter 2, confinement (AR-CONFINE-1..4): in a profile that confines, an Auto session that
//! still has full access on a backend that confines reads is narrowed to `workspace-write` before
//! anything else the gate does for a call, and a rejected narrowing fails the call.

use super::{admission, scope};
use crate::profile::Profile;
use crate::scenario::{Narrowing, Preset, SandboxMode, Scenario};

/// What confinement did with a call's session before the gate went on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confined {
    /// The mode stayed as it was, by the clause that kept it, if one of this chapter did.
    Kept(Option<&'static str>),
    /// AR-CONFINE-1: the mode is `workspace-write` now.
    Narrowed,
    /// AR-CONFINE-3: the change was rejected with this message, and the call ends.
    Rejected(String),
}

/// AR-CONFINE-1..4: what confinement does for the call `s` under `profile`. Nothing in a profile
/// that does not confine, for a call without an agent, or in a session out of Auto.
pub fn confine(s: &Scenario, profile: Profile) -> Confined {
    let sandbox = &s.session.sandbox;
    if !profile.confinement() || !s.agent || scope::preset_read(s, profile) != Preset::Auto {
        return Confined::Kept(None);
    }
    if !admission::admits(s) {
        // AR-CONFINE-4: not while the integration closes.
        return Confined::Kept(Some("AR-CONFINE-4"));
    }
    if sandbox.mode != SandboxMode::DangerFullAccess {
        // AR-CONFINE-2: never widens.
        return Confined::Kept(Some("AR-CONFINE-2"));
    }
    if !sandbox.confines_reads {
        // AR-CONFINE-1: a backend that confines no reads keeps full access.
        return Confined::Kept(Some("AR-CONFINE-1"));
    }
    match &sandbox.narrowing {
        Narrowing::Accepted => Confined::Narrowed,
        Narrowing::Rejected(message) => Confined::Rejected(message.clone()),
    }
}

/// The session's mode once confinement acted for the call `s`, before anything else did.
pub fn mode_in_call(s: &Scenario, profile: Profile) -> SandboxMode {
    match confine(s, profile) {
        Confined::Narrowed => SandboxMode::WorkspaceWrite,
        Confined::Kept(_) | Confined::Rejected(_) => s.session.sandbox.mode,
    }
}
