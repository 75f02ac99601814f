//! The table's input space: the features of a call that the rows' conditions range over, and how a
//! scenario maps to them.

use serde::{Deserialize, Serialize};

use crate::engine::review::{self, Settlement};
use crate::outcome::FailureClass;
use crate::parse::ReviewerDecision;
use crate::profile::{PresetRead, Profile};
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

impl OverrideFeature {
    /// The feature of a recorded override, or of none.
    pub fn of(o: Option<ApprovalPolicy>) -> OverrideFeature {
        match o {
            Some(ApprovalPolicy::Ask) => OverrideFeature::Ask,
            Some(ApprovalPolicy::Never) => OverrideFeature::Never,
            None => OverrideFeature::None,
        }
    }
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
    /// A failure before any request: the route or the schema did not resolve (AR-REVIEW-9,
    /// AR-REVIEW-2).
    PreRequestFailure,
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
    /// Whether disposal finds the session in the session list (AR-DISPOSE-1).
    pub listed: bool,
}

/// A scenario's features. The scope is restated here from AR-SCOPE-1..3 (agent first, then the
/// transport, then the preset); how the review settles is the review chapter's business (requests,
/// retries, deadline, readers), so the class is taken from it.
///
/// Disposal (AR-DISPOSE-1..3) is restated too: it moves a listed Auto session to Full access with
/// the policy `never` when the lifecycle aborts. The baseline gate then sees a call that starts
/// afterwards as not in Auto (the resilient gate still cancels it, AR-RES-DISPOSE-1), and an
/// approval asked after the abort meets `never`. So `scope` is the scope the gate sees, and for a
/// call the gate does not review `override`/`effective` are the policy the approval service applies.
pub fn of(s: &Scenario, profile: Profile) -> Features {
    of_reviewed(s, profile, None)
}

/// [`of`], with the review of `s` under `profile` when it is already known (the one
/// [`crate::engine::decide_keeping_review`] returns); otherwise it is made here.
pub fn of_reviewed(s: &Scenario, profile: Profile, known: Option<&review::Review>) -> Features {
    let moved = s.agent && s.preset == Preset::Auto && s.session.listed;
    let moved_before_start = moved && s.abort == AbortPoint::LifecycleBeforeReview;
    // AR-DISPOSE-2: a gate that reads the preset as the call started sees disposal's.
    let preset = if moved_before_start && profile.preset_read() == PresetRead::AtStart {
        Preset::DangerFullAccess
    } else {
        s.preset
    };
    let scope = if !s.agent {
        ScopeFeature::NoAgent
    } else if s.tool.call == CallKind::RunCode {
        ScopeFeature::OuterRunCode
    } else if preset != Preset::Auto {
        ScopeFeature::NotAuto
    } else {
        ScopeFeature::Reviewed
    };
    // Only a call the gate passes through reaches the approval service after a lifecycle abort:
    // a reviewed call is cancelled instead (AR-CANCEL-3/4, AR-ADMIT-2).
    let policy = if scope != ScopeFeature::Reviewed
        && moved
        && matches!(
            s.abort,
            AbortPoint::LifecycleBeforeReview | AbortPoint::LifecycleDuringDownstream
        ) {
        crate::scenario::Policy {
            override_: Some(ApprovalPolicy::Never),
            ..s.policy
        }
    } else {
        s.policy
    };
    let made;
    let r = match known {
        Some(r) => r,
        None => {
            made = review::review(s, profile);
            &made
        }
    };
    let reviewer = match &r.settlement {
        Settlement::Pending => ReviewerClass::Pending,
        Settlement::Failed(f)
            if matches!(
                f.class,
                FailureClass::Schema | FailureClass::Route | FailureClass::Session
            ) && r.attempts() == 0 =>
        {
            ReviewerClass::PreRequestFailure
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
        override_: OverrideFeature::of(policy.override_),
        effective: policy.effective(),
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
        listed: s.session.listed,
    }
}
