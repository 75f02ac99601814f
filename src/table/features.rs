//! The table's input space: the features of a call that the rows' conditions range over, and how a
//! scenario maps to them.

use serde::{Deserialize, Serialize};

use crate::engine::review::{self, Settlement};
use crate::outcome::FailureClass;
use crate::parse::ReviewerDecision;
use crate::profile::Profile;
use crate::scenario::{
    AbortPoint, ApprovalAnswer, ApprovalPolicy, CallKind, Downstream, OnFailure, Preset, Scenario,
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

/// How the review settled (AR-REVIEW-4), split where the table needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReviewerClass {
    /// A legal allow.
    Allow,
    /// A legal deny without reason.
    Deny,
    /// A legal deny with a reason.
    DenyReason,
    /// A failure after at least one reviewer request (a signal that ended a request included).
    Failure,
    /// A failure before any request: the schema did not resolve (AR-REVIEW-2).
    SchemaFailure,
    /// The review never settles (AR-CANCEL-6).
    Pending,
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
    /// How the review settled.
    pub reviewer: ReviewerClass,
    /// The configured reaction to a failure.
    pub on_failure: OnFailure,
    /// Downstream kind.
    pub downstream: DownstreamKind,
    /// Scripted approval answer.
    pub approval: ApprovalAnswer,
    /// Abort point.
    pub abort: AbortPoint,
}

/// A scenario's features. The scope is restated here from AR-SCOPE-1..3 (agent first, then the
/// transport, then the preset); how the review settles is the review chapter's business (requests,
/// retries, deadline, readers), so the class is taken from it.
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
    let r = review::review(s, profile);
    let reviewer = match &r.settlement {
        Settlement::Pending => ReviewerClass::Pending,
        Settlement::Failed(f) if f.class == FailureClass::Schema && r.attempts() == 0 => {
            ReviewerClass::SchemaFailure
        }
        Settlement::Failed(_) => ReviewerClass::Failure,
        Settlement::Decided(ReviewerDecision::Allow { .. }) => ReviewerClass::Allow,
        Settlement::Decided(ReviewerDecision::Deny { reason: None, .. }) => ReviewerClass::Deny,
        Settlement::Decided(ReviewerDecision::Deny {
            reason: Some(_), ..
        }) => ReviewerClass::DenyReason,
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
        on_failure: s.config.on_failure,
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
