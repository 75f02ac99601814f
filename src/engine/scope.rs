//! Spec chapter 1, scope and pass-through (AR-SCOPE-1..4): which calls the gate reviews.

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

/// Classifies a call, checking the agent first, then the transport, then the preset, as the
/// shipped listener does.
pub fn classify(s: &Scenario) -> Scope {
    if !s.agent {
        Scope::NoAgent
    } else if s.tool.call == CallKind::RunCode {
        Scope::OuterRunCode
    } else if s.preset != Preset::Auto {
        Scope::NotAuto
    } else {
        Scope::Reviewed
    }
}
