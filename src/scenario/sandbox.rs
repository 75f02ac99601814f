//! The session's sandbox as its backend keeps it (AR-CONFINE-1..4, `spec/scenario.md`,
//! "Sandbox"): the mode an Auto session runs its calls under, whether the backend confines reads,
//! and what a change of the mode meets.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A sandbox mode an Auto session can hold: Auto resolves only for these two.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum SandboxMode {
    /// Commands run with the host's full access.
    #[default]
    DangerFullAccess,
    /// The backend confines commands to the workspace.
    WorkspaceWrite,
}

impl SandboxMode {
    /// The name the wire gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            SandboxMode::DangerFullAccess => "danger-full-access",
            SandboxMode::WorkspaceWrite => "workspace-write",
        }
    }

    /// Whether a run under this mode may do more than one under `other`.
    pub fn is_wider_than(self, other: SandboxMode) -> bool {
        self == SandboxMode::DangerFullAccess && other == SandboxMode::WorkspaceWrite
    }
}

impl std::fmt::Display for SandboxMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a change of the session's sandbox mode meets.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Narrowing {
    /// The mode changes.
    #[default]
    Accepted,
    /// The change is rejected with this message (a thrown error's, verbatim), and the mode stays.
    Rejected(String),
}

/// The session's sandbox. Default: full access, on a backend that confines no reads, where a
/// change of the mode is accepted, which no profile narrows.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sandbox {
    /// The session's sandbox mode when the call arrives. Default `danger-full-access`.
    #[serde(default)]
    pub mode: SandboxMode,
    /// Whether the session's backend confines reads (AR-CONFINE-1). Default `false`.
    #[serde(default)]
    pub confines_reads: bool,
    /// What a change of the mode meets (AR-CONFINE-3). Default `accepted`.
    #[serde(default)]
    pub narrowing: Narrowing,
}

impl Sandbox {
    /// Whether every member has its default.
    pub fn is_default(&self) -> bool {
        *self == Sandbox::default()
    }
}
