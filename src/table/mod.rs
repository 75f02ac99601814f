//! The decision table (`spec/decision-table/<profile>.json`): the spec's rules restated as rows of
//! conditions over a call's *features* and the outcome each row prescribes. The table is data; the
//! engine does not read it. Tests prove every point of the input space matches exactly one row and
//! that the engine's outcome equals the row's.

pub mod expand;
pub mod features;
pub mod lifecycle;
pub mod render;
pub mod space;

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::profile::Profile;
use crate::scenario::{AbortPoint, ApprovalAnswer, ApprovalPolicy, OnFailure, Scenario};
pub use features::{DownstreamKind, Features, OverrideFeature, ReviewerClass, ScopeFeature};

/// A whole decision table for one profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// The profile the table states.
    pub profile: Profile,
    /// The spec text version the table restates.
    pub spec: String,
    /// What the approval service's ordinary answers come to (AR-APPROVAL-3), used by the result
    /// form `by-answer`.
    pub answers: BTreeMap<ApprovalAnswer, ResultForm>,
    /// The rows, in reading order.
    pub rows: Vec<Row>,
}

/// One rule: its conditions and the outcome it prescribes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// Permanent row ID, e.g. `BL-14`.
    pub id: String,
    /// The clauses the row restates.
    pub clauses: Vec<String>,
    /// One line saying what the row is about.
    pub title: String,
    /// Conditions; an absent condition matches every value.
    pub when: When,
    /// The prescribed outcome.
    pub then: Then,
    /// A concrete scenario that falls under this row and no other.
    pub example: Example,
}

/// A row's example: the scenario as written in the table (kept for rendering) and as read.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// The JSON as written.
    pub raw: serde_json::Value,
    /// The scenario it describes.
    pub scenario: Scenario,
}

impl Serialize for Example {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Example {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = serde_json::Value::deserialize(d)?;
        let scenario = Scenario::from_value(&raw).map_err(serde::de::Error::custom)?;
        Ok(Example { raw, scenario })
    }
}

/// Conditions over features; absent means "any value".
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    /// Why the gate does or does not review the call.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub scope: Cond<ScopeFeature>,
    /// The recorded override.
    #[serde(rename = "override", default, skip_serializing_if = "Cond::is_any")]
    pub override_: Cond<OverrideFeature>,
    /// The effective policy.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub effective: Cond<ApprovalPolicy>,
    /// The review's outcome class.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub reviewer: Cond<ReviewerClass>,
    /// The configured reaction to a reviewer failure.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub on_failure: Cond<OnFailure>,
    /// Downstream's decision kind.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub downstream: Cond<DownstreamKind>,
    /// The approval answer the scenario scripts.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub approval: Cond<ApprovalAnswer>,
    /// The abort point.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub abort: Cond<AbortPoint>,
    /// Whether disposal finds the session in the session list (AR-DISPOSE-1).
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub listed: Cond<bool>,
}

/// A condition on one feature: any value, or one of a set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Cond<T> {
    /// Every value matches.
    #[default]
    Any,
    /// One of these values matches.
    OneOf(Vec<T>),
}

impl<T: PartialEq> Cond<T> {
    /// Whether the condition matches every value.
    pub fn is_any(&self) -> bool {
        matches!(self, Cond::Any)
    }

    /// Whether `v` satisfies the condition.
    pub fn matches(&self, v: &T) -> bool {
        match self {
            Cond::Any => true,
            Cond::OneOf(set) => set.contains(v),
        }
    }
}

impl<T: Serialize> Serialize for Cond<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Cond::Any => s.serialize_str("*"),
            Cond::OneOf(v) if v.len() == 1 => v[0].serialize(s),
            Cond::OneOf(v) => v.serialize(s),
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Cond<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) if s == "*" => Ok(Cond::Any),
            serde_json::Value::Array(items) => {
                if items.is_empty() {
                    return Err(D::Error::custom(
                        "an empty condition matches nothing; use \"*\" or leave it out for any value",
                    ));
                }
                items
                    .into_iter()
                    .map(|i| serde_json::from_value(i).map_err(D::Error::custom))
                    .collect::<Result<Vec<T>, _>>()
                    .map(Cond::OneOf)
            }
            v => serde_json::from_value(v)
                .map(|one| Cond::OneOf(vec![one]))
                .map_err(D::Error::custom),
        }
    }
}

/// The outcome a row prescribes, in symbolic forms that `expand` expands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Then {
    /// Whether the review ran; what it did (requests, failure, routes, count) is the review
    /// chapter's and is taken from there.
    pub review: bool,
    /// Whether downstream was consulted.
    pub downstream: bool,
    /// What the gate returned.
    pub listener: ListenerForm,
    /// What the approval service was asked and answered.
    pub approval: ApprovalForm,
    /// The tool result.
    pub result: ResultForm,
}

/// What the gate returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ListenerForm {
    /// The gate did not run (AR-CANCEL-1).
    None,
    /// The gate never returned (AR-CANCEL-6).
    Pending,
    /// Downstream's decision, unchanged.
    Downstream,
    /// The final denial (AR-DECIDE-2).
    FinalDeny,
    /// The failure denial without info (AR-DECIDE-1).
    Failed,
    /// The failure denial with `INFO-FAILED` and the hint when due (AR-RES-FAIL-3).
    FailedDeny,
    /// The ask after a reviewer denial (AR-DECIDE-5).
    AskReview,
    /// The ask after a reviewer failure, with the hint when due (AR-RES-FAIL-2).
    AskFailure,
    /// Downstream's ask carrying the gate's objection, with the hint when due (AR-RES-ASK-1).
    AskCombined,
    /// `cancel`.
    Cancel,
}

/// What the approval service was asked and answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApprovalForm {
    /// Not asked.
    None,
    /// Asked; the answerers gave the scenario's answer.
    Answerer,
    /// Asked; rejected under the effective policy `never` before any answerer.
    PolicyRejected,
    /// Asked; cancelled because the caller's signal was aborted, before any answerer.
    SignalCancelled,
    /// The request threw.
    Threw,
}

/// The tool result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResultForm {
    /// The body ran.
    Body,
    /// The pre-dispatch cancellation (AR-RESULT-4).
    Aborted,
    /// `Error: ` + the gate's deny reason, with its info (AR-RESULT-2).
    ListenerDeny,
    /// `MSG-NO-AGENT` (AR-APPROVAL-1).
    NoAgent,
    /// `MSG-USER-REJECTED`.
    UserRejected,
    /// `MSG-APPROVAL-CANCELLED`.
    ApprovalCancelled,
    /// `MSG-APPROVAL-UNAVAILABLE`.
    ApprovalUnavailable,
    /// `Error: ` + the thrown message (AR-APPROVAL-4).
    ApprovalThrew,
    /// As the table's `answers` map the scenario's approval answer.
    ByAnswer,
    /// The call never completed.
    Pending,
}

/// Why a table could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The JSON did not match the table format.
    #[error("decision table for {profile}: {message}")]
    Format {
        /// Which table.
        profile: Profile,
        /// What was wrong, with its path.
        message: String,
    },
    /// The profile has no decision table: one loaded from a file at run time.
    #[error(
        "the profile {profile} has no decision table: a profile loaded from a file runs the fixed cases of the case files and the corpus it applies to, and generated cases, but no table rows"
    )]
    None {
        /// Which profile.
        profile: Profile,
    },
}

impl Table {
    /// The committed table text of a profile, embedded at build time: the file its profile file
    /// names (`decision_table`, relative to `spec/`); none for a profile loaded at run time.
    pub fn source(profile: Profile) -> Result<&'static str, TableError> {
        Table::embedded(profile).ok_or(TableError::None { profile })
    }

    /// The embedded text of the table `profile`'s file names, if one was embedded.
    pub fn embedded(profile: Profile) -> Option<&'static str> {
        let path = format!("spec/{}", profile.decision_table.as_deref()?);
        crate::embedded::DECISION_TABLE_FILES
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, text)| *text)
    }

    /// Loads the committed table of a profile. Profiles that decide alike share one table (the
    /// 0.2.x gate's decisions are the baseline's): the table is read for `profile`, whichever
    /// profile it was written for, so its rows expand under `profile`'s rules and the exhaustive
    /// check holds it to `profile`'s engine.
    pub fn load(profile: Profile) -> Result<Table, TableError> {
        let mut table = Table::parse(profile, Table::source(profile)?)?;
        table.profile = profile;
        Ok(table)
    }

    /// Parses table text, with the path of any offending field.
    pub fn parse(profile: Profile, text: &str) -> Result<Table, TableError> {
        crate::scenario::portable::check(text).map_err(|e| TableError::Format {
            profile,
            message: crate::scenario::ScenarioError::from(e).to_string(),
        })?;
        let mut de = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(&mut de).map_err(|e| TableError::Format {
            profile,
            message: format!("{}: {}", e.path(), e.inner()),
        })
    }

    /// The rows whose conditions all hold for `f`.
    pub fn matching(&self, f: &Features) -> Vec<&Row> {
        self.rows.iter().filter(|r| r.when.matches(f)).collect()
    }
}

impl When {
    /// Whether every condition holds for `f`.
    pub fn matches(&self, f: &Features) -> bool {
        self.scope.matches(&f.scope)
            && self.override_.matches(&f.override_)
            && self.effective.matches(&f.effective)
            && self.reviewer.matches(&f.reviewer)
            && self.on_failure.matches(&f.on_failure)
            && self.downstream.matches(&f.downstream)
            && self.approval.matches(&f.approval)
            && self.abort.matches(&f.abort)
            && self.listed.matches(&f.listed)
    }
}
