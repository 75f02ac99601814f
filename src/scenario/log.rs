//! The session-log facts a review reads before its request (AR-REVIEW-11): which one, if any, the
//! log lacks or contradicts for the pending call, each with the message the gate fails with.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::CallKind;
use crate::messages::{self, Template};

/// The one session-log fact a call's log breaks, or `consistent` (AR-REVIEW-11). The variants are
/// in the order the checks run; a scenario names at most one, so only the order against the route,
/// the working directory and the schema is observable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LogFact {
    /// The log supports the call.
    #[default]
    Consistent,
    /// A PTC start was logged while no step was open.
    PtcStartWithoutStep,
    /// Two PTC starts share one identity in one step.
    PtcIdentityAmbiguous,
    /// No step is open.
    NoOpenStep,
    /// The pending root call is not logged exactly once in the open step.
    RootNotLoggedOnce,
    /// The pending PTC call's start is not logged in the open step (`ptc-inner` calls only).
    PtcStartMissing,
    /// The pending root call appears twice in the visible surface.
    RootTwiceInSurface,
    /// A visible call's identity is logged twice.
    NativeIdentityAmbiguous,
    /// A visible call before the pending root was never logged.
    VisibleCallUnlogged,
    /// A visible call that never started has logged PTC dispatches.
    UnstartedCallDispatched,
    /// A started call follows an unstarted one in the same message.
    NotAStartedPrefix,
    /// A visible call's name or arguments differ from its log.
    VisibleCallDisagrees,
    /// The pending root call is not in the visible surface.
    RootNotInSurface,
    /// The pending native call's name or arguments differ from its log (`native` calls only).
    NativeCallDisagrees,
    /// The pending PTC call's parent, root, name or arguments differ from its logged start
    /// (`ptc-inner` calls only).
    PtcCallDisagrees,
}

impl LogFact {
    /// Every value, in the order the checks run.
    pub const ALL: [LogFact; 15] = [
        LogFact::Consistent,
        LogFact::PtcStartWithoutStep,
        LogFact::PtcIdentityAmbiguous,
        LogFact::NoOpenStep,
        LogFact::RootNotLoggedOnce,
        LogFact::PtcStartMissing,
        LogFact::RootTwiceInSurface,
        LogFact::NativeIdentityAmbiguous,
        LogFact::VisibleCallUnlogged,
        LogFact::UnstartedCallDispatched,
        LogFact::NotAStartedPrefix,
        LogFact::VisibleCallDisagrees,
        LogFact::RootNotInSurface,
        LogFact::NativeCallDisagrees,
        LogFact::PtcCallDisagrees,
    ];

    /// Whether the log supports the call (serde's `skip_serializing_if`).
    pub fn is_consistent(&self) -> bool {
        *self == LogFact::Consistent
    }

    /// The message the review fails with, `None` for a consistent log (AR-REVIEW-11).
    pub fn message(self) -> Option<Template> {
        Some(match self {
            LogFact::Consistent => return None,
            LogFact::PtcStartWithoutStep => messages::ERR_LOG_PTC_NO_STEP,
            LogFact::PtcIdentityAmbiguous => messages::ERR_LOG_PTC_IDENTITY,
            LogFact::NoOpenStep => messages::ERR_LOG_NO_OPEN_STEP,
            LogFact::RootNotLoggedOnce => messages::ERR_LOG_ROOT,
            LogFact::PtcStartMissing => messages::ERR_LOG_PTC_CALL,
            LogFact::RootTwiceInSurface => messages::ERR_LOG_ROOT_SURFACE_AMBIGUOUS,
            LogFact::NativeIdentityAmbiguous => messages::ERR_LOG_NATIVE_IDENTITY,
            LogFact::VisibleCallUnlogged => messages::ERR_LOG_VISIBLE_MISSING,
            LogFact::UnstartedCallDispatched => messages::ERR_LOG_UNSTARTED_DISPATCHES,
            LogFact::NotAStartedPrefix => messages::ERR_LOG_STARTED_PREFIX,
            LogFact::VisibleCallDisagrees => messages::ERR_LOG_VISIBLE_DISAGREES,
            LogFact::RootNotInSurface => messages::ERR_LOG_ROOT_SURFACE_MISSING,
            LogFact::NativeCallDisagrees => messages::ERR_LOG_NATIVE_DISAGREES,
            LogFact::PtcCallDisagrees => messages::ERR_LOG_PTC_DISAGREES,
        })
    }

    /// The call kinds whose review can meet this fact: a native call has no PTC start of its own
    /// and a PTC call is never compared as a native one (RZ-4).
    pub fn applies_to(self, call: CallKind) -> bool {
        match self {
            LogFact::PtcStartMissing | LogFact::PtcCallDisagrees => {
                matches!(call, CallKind::PtcInner | CallKind::RunCode)
            }
            LogFact::NativeCallDisagrees => matches!(call, CallKind::Native | CallKind::RunCode),
            _ => true,
        }
    }

    /// The value's name in the contract.
    pub fn as_str(self) -> &'static str {
        match self {
            LogFact::Consistent => "consistent",
            LogFact::PtcStartWithoutStep => "ptc-start-without-step",
            LogFact::PtcIdentityAmbiguous => "ptc-identity-ambiguous",
            LogFact::NoOpenStep => "no-open-step",
            LogFact::RootNotLoggedOnce => "root-not-logged-once",
            LogFact::PtcStartMissing => "ptc-start-missing",
            LogFact::RootTwiceInSurface => "root-twice-in-surface",
            LogFact::NativeIdentityAmbiguous => "native-identity-ambiguous",
            LogFact::VisibleCallUnlogged => "visible-call-unlogged",
            LogFact::UnstartedCallDispatched => "unstarted-call-dispatched",
            LogFact::NotAStartedPrefix => "not-a-started-prefix",
            LogFact::VisibleCallDisagrees => "visible-call-disagrees",
            LogFact::RootNotInSurface => "root-not-in-surface",
            LogFact::NativeCallDisagrees => "native-call-disagrees",
            LogFact::PtcCallDisagrees => "ptc-call-disagrees",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_serde_and_every_broken_fact_has_its_own_message() {
        let mut seen = std::collections::HashSet::new();
        for f in LogFact::ALL {
            assert_eq!(serde_json::to_value(f).unwrap(), f.as_str());
            if let Some(t) = f.message() {
                assert!(seen.insert(t.id), "{} shares {}", f.as_str(), t.id);
            }
        }
        assert_eq!(seen.len(), LogFact::ALL.len() - 1);
    }
}
