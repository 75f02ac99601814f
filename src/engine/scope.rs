//! Spec chapter 1, scope and pass-through (AR-SCOPE-1..4): which calls the gate reviews.

use super::disposal;
use crate::profile::{PresetRead, Profile};
use crate::scenario::{CallKind, Preset, Scenario};

/// Whether and why a call passes through the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// AR-SCOPE-1: the call has no agent.
    NoAgent,
    /// AR-SCOPE-2: the outer `run-code` transport call.
    OuterRunCode,
    /// AR-SCOPE-3: the session is not in Auto.
    NotAuto,
    /// The call is reviewed.
    Reviewed,
}

impl Scope {
    /// Whether the gate reviews the call.
    pub fn is_reviewed(self) -> bool {
        self == Scope::Reviewed
    }
}

/// The preset the gate reads for the call: as disposal left it in the baseline (AR-DISPOSE-2),
/// the session's own while the resilient gate refuses admission to a call disposal moved
/// (AR-RES-DISPOSE-1).
pub fn preset_read(s: &Scenario, profile: Profile) -> Preset {
    match profile.preset_read() {
        // AR-DISPOSE-2
        PresetRead::AtStart => disposal::preset_at_start(s, profile),
        // AR-RES-DISPOSE-1
        PresetRead::Current => s.preset,
    }
}

/// Classifies a call, checking the agent first, then the transport, then the preset, as the
/// shipped listener does. The baseline reads the preset as disposal left it (AR-DISPOSE-2); the
/// resilient gate cancels a call that disposal moved out of Auto instead (AR-RES-DISPOSE-1), so it
/// classifies by the preset the session had when disposal began and refuses admission.
pub fn classify(s: &Scenario, profile: Profile) -> Scope {
    let preset = preset_read(s, profile);
    if !s.agent {
        Scope::NoAgent
    } else if s.tool.call == CallKind::RunCode {
        Scope::OuterRunCode
    } else if preset != Preset::Auto {
        Scope::NotAuto
    } else {
        Scope::Reviewed
    }
}
