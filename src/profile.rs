//! Profiles: named sets of clauses a gate can conform to (AR-CONV-2).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A conformance profile.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    JsonSchema,
    Default,
)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// The shipped gate as decided on 2026-08-28.
    #[default]
    Baseline,
    /// A reviewer that is unavailable is not a reviewer that denied: tolerant reading, bounded
    /// retries, failures asked about under `ask`, readable errors, a recovery hint.
    Resilient,
}

impl Profile {
    /// Every profile, in the order reports list them.
    pub const ALL: [Profile; 2] = [Profile::Baseline, Profile::Resilient];

    /// The profile's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Baseline => "baseline",
            Profile::Resilient => "resilient",
        }
    }

    /// What the profile is, in one line (`--help` lists it beside the name).
    pub fn summary(self) -> &'static str {
        match self {
            Profile::Baseline => "The shipped gate as decided on 2026-08-28",
            Profile::Resilient => {
                "A reviewer that is unavailable is not a reviewer that denied: tolerant reading, \
                 bounded retries, failures asked about under `ask`, readable errors, a recovery hint"
            }
        }
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
