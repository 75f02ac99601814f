//! What a call's body does when it runs (`spec/scenario.md`, "Body"): the approval requests it
//! raises (AR-APPROVAL-7, AR-APPROVAL-8) and the presets it selects for its session, in order.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ApprovalAnswer, ApprovalPolicy, SandboxMode};

/// One step of a call's body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// The body requests approval from the approval service.
    Raise(Raise),
    /// The body selects another preset for its session through the presets service.
    LeaveAuto(LeftPreset),
}

/// An approval request a body raises.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Raise {
    /// Which call the request names.
    pub call_id: CallIdOf,
    /// The request's reason, verbatim.
    pub reason: String,
    /// What the human answers if asked. Default: the call's `approval` (never `throws` where a body
    /// raises a request, RZ-12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
}

impl Raise {
    /// What the human answers if the request reaches them: the step's answer, else the call's
    /// `approval` (`None` only where that throws, which RZ-12 refuses).
    pub fn human_answer(&self, approval: ApprovalAnswer) -> Option<Answer> {
        self.answer.or(Answer::of_approval(approval))
    }
}

/// The call id a body's approval request carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CallIdOf {
    /// The running call's own id.
    Own,
    /// No call id.
    None,
    /// An id no call of the session has.
    Unreviewed,
    /// The id of the session's most recent earlier call, which has finished (RZ-11).
    Finished,
}

/// What an approval request came to, as the service returns it to the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// Allowed for this one request.
    AllowedOnce,
    /// Rejected.
    Rejected,
    /// Cancelled.
    Cancelled,
    /// No answerer could decide.
    Unavailable,
}

impl From<Answer> for ApprovalAnswer {
    fn from(a: Answer) -> ApprovalAnswer {
        match a {
            Answer::AllowedOnce => ApprovalAnswer::AllowedOnce,
            Answer::Rejected => ApprovalAnswer::Rejected,
            Answer::Cancelled => ApprovalAnswer::Cancelled,
            Answer::Unavailable => ApprovalAnswer::Unavailable,
        }
    }
}

impl Answer {
    /// An approval service's answer as a body receives it: `None` for a request that threw.
    pub fn of_approval(approval: ApprovalAnswer) -> Option<Answer> {
        match approval {
            ApprovalAnswer::AllowedOnce => Some(Answer::AllowedOnce),
            ApprovalAnswer::Rejected => Some(Answer::Rejected),
            ApprovalAnswer::Cancelled => Some(Answer::Cancelled),
            ApprovalAnswer::Unavailable => Some(Answer::Unavailable),
            ApprovalAnswer::Throws => None,
        }
    }
}

/// A preset a body selects, leaving Auto: one of the deployment's default table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LeftPreset {
    /// `workspace-write`: the sandbox of that name, under `ask`.
    WorkspaceWrite,
    /// `danger-full-access`: full access, under `never`.
    DangerFullAccess,
}

impl LeftPreset {
    /// The preset.
    pub fn preset(self) -> super::Preset {
        match self {
            LeftPreset::WorkspaceWrite => super::Preset::WorkspaceWrite,
            LeftPreset::DangerFullAccess => super::Preset::DangerFullAccess,
        }
    }

    /// The approval policy selecting it writes as the session's override (the default table:
    /// `workspace-write` with `ask`, `danger-full-access` with `never`).
    pub fn policy(self) -> ApprovalPolicy {
        match self {
            LeftPreset::WorkspaceWrite => ApprovalPolicy::Ask,
            LeftPreset::DangerFullAccess => ApprovalPolicy::Never,
        }
    }

    /// The sandbox mode selecting it writes.
    pub fn mode(self) -> SandboxMode {
        match self {
            LeftPreset::WorkspaceWrite => SandboxMode::WorkspaceWrite,
            LeftPreset::DangerFullAccess => SandboxMode::DangerFullAccess,
        }
    }
}

/// The preset a body that ran left its session in: its last `leave_auto`, if any.
pub fn left_to(body: &[Step]) -> Option<LeftPreset> {
    body.iter().rev().find_map(|step| match step {
        Step::LeaveAuto(p) => Some(*p),
        Step::Raise(_) => None,
    })
}

/// Whether a body raises a request naming a finished call (RZ-11).
pub fn names_finished(body: &[Step]) -> bool {
    raises(body).any(|r| r.call_id == CallIdOf::Finished)
}

/// The body's approval requests, in order.
pub fn raises(body: &[Step]) -> impl Iterator<Item = &Raise> {
    body.iter().filter_map(|step| match step {
        Step::Raise(r) => Some(r),
        Step::LeaveAuto(_) => None,
    })
}
