//! The table's input space: the features of a call that the rows' conditions range over, and how a
//! scenario maps to them.

use serde::{Deserialize, Serialize};

use crate::engine::review::{self, Settlement};
use crate::parse::ReviewerDecision;
use crate::profile::Profile;
use crate::scenario::{
    AbortPoint, ApprovalAnswer, ApprovalPolicy, CallKind, Downstream, Preset, Scenario, SchemaView,
};

/// Why the gate does or does not review the call (AR-SCOPE-1..3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScopeFeature {
    /// No agent.
    NoAgent,
    /// The outer run-code transport.
    OuterRunCode,
    /// The preset is not Auto.
    NotAuto,
    /// Reviewed.
    Reviewed,
}

/// The session's recorded override.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OverrideFeature {
    /// Override `ask`.
    Ask,
    /// Override `never`.
    Never,
    /// No override recorded.
    None,
}

/// The review's outcome class (AR-REVIEW-4), split where the table needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReviewerClass {
    /// A legal allow.
    Allow,
    /// A legal deny without reason.
    Deny,
    /// A legal deny with a reason.
    DenyReason,
    /// A failure after a reviewer request.
    Failure,
    /// A failure before any request: the schema did not resolve (AR-REVIEW-2).
    SchemaFailure,
    /// The request never settles on its own.
    Hang,
}

/// Downstream's decision kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DownstreamKind {
    /// `allow`.
    Allow,
    /// `deny`.
    Deny,
    /// `cancel`.
    Cancel,
    /// `ask`.
    Ask,
}

/// One point of the table's input space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Features {
    /// Scope.
    pub scope: ScopeFeature,
    /// Recorded override.
    #[serde(rename = "override")]
    pub override_: OverrideFeature,
    /// Effective policy.
    pub effective: ApprovalPolicy,
    /// Review outcome class.
    pub reviewer: ReviewerClass,
    /// Downstream kind.
    pub downstream: DownstreamKind,
    /// Scripted approval answer.
    pub approval: ApprovalAnswer,
    /// Abort point.
    pub abort: AbortPoint,
}

/// A scenario's features. The scope is restated here from AR-SCOPE-1..3 (agent first, then the
/// transport, then the preset); the reviewer class comes from reading the first attempt with the
/// profile's reader (chapter 4), which the parser's own tests and corpus verify.
pub fn of(s: &Scenario, profile: Profile) -> Features {
    let scope = if !s.agent {
        ScopeFeature::NoAgent
    } else if s.tool.call == CallKind::RunCode {
        ScopeFeature::OuterRunCode
    } else if s.preset != Preset::Auto {
        ScopeFeature::NotAuto
    } else {
        ScopeFeature::Reviewed
    };
    let reviewer = if s.schema != SchemaView::Present {
        ReviewerClass::SchemaFailure
    } else {
        match review::settle(s.reviewer.attempt(0), profile) {
            Settlement::Pending => ReviewerClass::Hang,
            Settlement::Failed(_) => ReviewerClass::Failure,
            Settlement::Decided(ReviewerDecision::Allow { .. }) => ReviewerClass::Allow,
            Settlement::Decided(ReviewerDecision::Deny { reason: None, .. }) => ReviewerClass::Deny,
            Settlement::Decided(ReviewerDecision::Deny {
                reason: Some(_), ..
            }) => ReviewerClass::DenyReason,
        }
    };
    Features {
        scope,
        override_: match s.policy.override_ {
            Some(ApprovalPolicy::Ask) => OverrideFeature::Ask,
            Some(ApprovalPolicy::Never) => OverrideFeature::Never,
            None => OverrideFeature::None,
        },
        effective: s.policy.effective(),
        reviewer,
        downstream: match s.downstream {
            Downstream::Allow => DownstreamKind::Allow,
            Downstream::Deny { .. } => DownstreamKind::Deny,
            Downstream::Cancel => DownstreamKind::Cancel,
            Downstream::Ask { .. } => DownstreamKind::Ask,
        },
        approval: s.approval,
        abort: s.abort,
    }
}
