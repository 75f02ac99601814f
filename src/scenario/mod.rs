//! The scenario: everything a conformance case says about one tool call, as data (`spec/scenario.md`).
//!
//! Scenarios arrive from files and from other processes, so every type here rejects unknown fields and
//! every shape that can be mistyped has a deserializer with an error message a person can act on. The
//! reviewer's script lives in [`attempt`], the resilient configuration in [`config`], and the rules
//! that refuse calls the real runtime cannot produce in [`realizable`].

pub mod attempt;
pub mod body;
pub mod canonical;
pub mod config;
pub mod log;
pub mod portable;
pub mod realizable;
pub mod sandbox;
pub mod session;
pub mod whole_number;

use schemars::JsonSchema;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use attempt::{Attempt, Block, BlockKind, FailedFinish, FailedFinishKind, HangFlag, Reviewer};
pub use body::{Answer, CallIdOf, LeftPreset, Raise, Step};
pub use config::{Config, OnFailure, Temperature};
pub use log::LogFact;
pub use realizable::Unrealizable;
pub use sandbox::{Narrowing, Sandbox, SandboxMode};

/// One tool call and the world around it: session, reviewer script, downstream listeners, the human.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Free identifier echoed into the outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The pending call.
    pub tool: Tool,
    /// Whether the call belongs to an agent (AR-SCOPE-1). Default `true`.
    #[serde(default = "default_true")]
    pub agent: bool,
    /// The session's current permission preset (AR-SCOPE-3). Default `auto`.
    #[serde(default)]
    pub preset: Preset,
    /// The session's approval policy: a string is the session's override, an object gives both the
    /// override and the deployment default (AR-CONV-5). Default: no override, default `ask`.
    #[serde(default)]
    pub policy: Policy,
    /// How many schemas of the call's name the request header and the live tool registry hold
    /// (AR-REVIEW-2, AR-RES-SCHEMA-1). Default `present`.
    #[serde(default)]
    pub schema: SchemaView,
    /// Which fact, if any, the session log lacks or contradicts for this call (AR-REVIEW-11).
    /// Default `consistent`.
    #[serde(default, skip_serializing_if = "LogFact::is_consistent")]
    pub log: LogFact,
    /// What the reviewer does on each request, in order; the last attempt repeats when the gate asks
    /// more often than the script is long.
    pub reviewer: Reviewer,
    /// What the rest of the pre-execute chain returns when consulted. Default `{"kind":"allow"}`.
    #[serde(default)]
    pub downstream: Downstream,
    /// How the approval service answers if it is asked. Default `unavailable`.
    #[serde(default)]
    pub approval: ApprovalAnswer,
    /// When, if ever, a signal aborts the call (chapter 7). Default `none`.
    #[serde(default)]
    pub abort: AbortPoint,
    /// The session's route and its recent reviewer failures.
    #[serde(default)]
    pub session: Session,
    /// The gate's configuration (resilient profile; the baseline has none).
    #[serde(default)]
    pub config: Config,
    /// What the body does when it runs, in order: approval requests it raises and presets it
    /// selects (AR-APPROVAL-7, AR-APPROVAL-8). Default: nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub body: Vec<Step>,
}

/// What the gate knows about the session beyond its policy and preset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Session {
    /// The session's id (AR-RES-REQUEST-1). Default `session-1`.
    #[serde(
        default = "default_session_id",
        skip_serializing_if = "is_default_session_id"
    )]
    pub id: String,
    /// The provider and model of the session's latest request header. Default `default/default`.
    #[serde(default)]
    pub route: Route,
    /// Reviewer failures in a row in this session before this call (AR-RES-HINT-1). Default 0.
    #[serde(default, deserialize_with = "failure_count")]
    pub consecutive_failures: u32,
    /// Whether the session is in the session list that disposing of the integration walks
    /// (AR-DISPOSE-1). Default `true`, as for every live session.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub listed: bool,
    /// Whether the session's header names a working directory (AR-REVIEW-10). Default `true`.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub working_directory: bool,
    /// The session's sandbox as its backend keeps it (AR-CONFINE-1..4). Default: full access on
    /// a backend that confines no reads.
    #[serde(default, skip_serializing_if = "Sandbox::is_default")]
    pub sandbox: Sandbox,
}

/// The session id a scenario that names none has.
pub const DEFAULT_SESSION_ID: &str = "session-1";

fn default_session_id() -> String {
    DEFAULT_SESSION_ID.to_owned()
}

#[allow(clippy::ptr_arg)] // serde hands the member over as `&String`
fn is_default_session_id(id: &String) -> bool {
    id == DEFAULT_SESSION_ID
}

impl Default for Session {
    fn default() -> Self {
        Session {
            id: default_session_id(),
            route: Route::default(),
            consecutive_failures: 0,
            listed: true,
            working_directory: true,
            sandbox: Sandbox::default(),
        }
    }
}

/// A provider and model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Route {
    /// The provider.
    pub provider: String,
    /// The model.
    pub model: String,
}

impl Default for Route {
    fn default() -> Self {
        Route {
            provider: "default".into(),
            model: "default".into(),
        }
    }
}

impl std::fmt::Display for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.provider, self.model)
    }
}
fn failure_count<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    whole_number::Whole::new("failures", 0, u64::from(u32::MAX)).read_u32(d)
}

fn default_true() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// The pending tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    /// The tool's name, verbatim; every text quotes it exactly.
    pub name: String,
    /// The call kind (AR-CONV-4). Default `native`.
    #[serde(default)]
    pub call: CallKind,
}

/// How the call was made (AR-CONV-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CallKind {
    /// A tool the agent calls directly.
    #[default]
    Native,
    /// A call started from inside a programmatic tool-calling program.
    PtcInner,
    /// The outer transport call that starts such a program.
    RunCode,
}

/// The session's current permission preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Auto review is active.
    #[default]
    Auto,
    /// Full access without review.
    DangerFullAccess,
    /// Workspace-write sandbox without review.
    WorkspaceWrite,
    /// Read-only sandbox without review.
    ReadOnly,
}

/// An approval policy value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ApprovalPolicy {
    /// Approval requests may reach an answerer.
    Ask,
    /// Approval requests are rejected before any answerer.
    Never,
}

/// The session's override and the deployment default (AR-CONV-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// The session's recorded override, if any.
    #[serde(rename = "override", default)]
    pub override_: Option<ApprovalPolicy>,
    /// The deployment default. Default `ask`.
    #[serde(default = "default_ask")]
    pub default: ApprovalPolicy,
}

fn default_ask() -> ApprovalPolicy {
    ApprovalPolicy::Ask
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            override_: None,
            default: ApprovalPolicy::Ask,
        }
    }
}

impl Policy {
    /// The override if recorded, otherwise the deployment default (AR-CONV-5).
    pub fn effective(&self) -> ApprovalPolicy {
        self.override_.unwrap_or(self.default)
    }
}

/// The object form of a policy: the session's override and the deployment default.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read through serde only
struct PolicyObject {
    /// The session's recorded override; `null` or absent when none was recorded.
    #[serde(rename = "override", default)]
    override_: Option<ApprovalPolicy>,
    /// The deployment default. Default `ask`.
    #[serde(default = "default_ask")]
    default: ApprovalPolicy,
}

impl JsonSchema for Policy {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Policy".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let object = generator.subschema_for::<PolicyObject>();
        schemars::json_schema!({
            "description": "The session's approval policy: a string is the session's override (with the deployment default `ask`); an object gives the override and the deployment default (AR-CONV-5).",
            "anyOf": [
                { "type": "string", "enum": ["ask", "never"] },
                object
            ]
        })
    }
}

impl<'de> Deserialize<'de> for Policy {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        type Full = PolicyObject;
        match Value::deserialize(d)? {
            Value::String(s) => match s.as_str() {
                "ask" => Ok(Policy {
                    override_: Some(ApprovalPolicy::Ask),
                    default: ApprovalPolicy::Ask,
                }),
                "never" => Ok(Policy {
                    override_: Some(ApprovalPolicy::Never),
                    default: ApprovalPolicy::Ask,
                }),
                other => Err(de::Error::custom(format!(
                    "unknown policy {other:?}: expected \"ask\", \"never\" or {{\"override\": ..., \"default\": ...}}"
                ))),
            },
            v @ Value::Object(_) => {
                let f: Full = serde_json::from_value(v).map_err(de::Error::custom)?;
                Ok(Policy {
                    override_: f.override_,
                    default: f.default,
                })
            }
            other => Err(de::Error::custom(format!(
                "policy must be \"ask\", \"never\" or an object {{\"override\", \"default\"}}, not {}",
                kind_of(&other)
            ))),
        }
    }
}

/// How many schemas with one name a source holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SchemaCount {
    /// Exactly one.
    #[default]
    Present,
    /// None.
    Missing,
    /// More than one.
    Ambiguous,
}

/// Where the pending tool's schema can be found (AR-REVIEW-2, AR-RES-SCHEMA-1): the latest request
/// header (for a `ptc-inner` call, the schema bound at program start) and the live tool registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaView {
    /// What the request header (or the program's binding) holds.
    pub header: SchemaCount,
    /// What the live tool registry holds.
    pub registry: SchemaCount,
}

impl SchemaView {
    /// Both sources hold exactly one schema.
    pub const PRESENT: SchemaView = SchemaView {
        header: SchemaCount::Present,
        registry: SchemaCount::Present,
    };
}

/// The object form of a schema view.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read through serde only
struct SchemaObject {
    /// What the request header (or the program's binding) holds. Default `present`.
    #[serde(default)]
    header: SchemaCount,
    /// What the live tool registry holds. Default `present`.
    #[serde(default)]
    registry: SchemaCount,
}

impl JsonSchema for SchemaView {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SchemaView".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let object = generator.subschema_for::<SchemaObject>();
        schemars::json_schema!({
            "description": "A string is shorthand: `present` (both hold one), `missing` (neither holds one), `ambiguous` (both hold several), `registry-only` (only the registry holds one); an object gives both sources.",
            "anyOf": [
                { "type": "string", "enum": ["present", "missing", "ambiguous", "registry-only"] },
                object
            ]
        })
    }
}

impl<'de> Deserialize<'de> for SchemaView {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use SchemaCount::*;
        let both = |c| SchemaView {
            header: c,
            registry: c,
        };
        match Value::deserialize(d)? {
            Value::String(s) => match s.as_str() {
                "present" => Ok(both(Present)),
                "missing" => Ok(both(Missing)),
                "ambiguous" => Ok(both(Ambiguous)),
                "registry-only" => Ok(SchemaView {
                    header: Missing,
                    registry: Present,
                }),
                other => Err(de::Error::custom(format!(
                    "unknown schema view {other:?}: expected \"present\", \"missing\", \"ambiguous\", \"registry-only\" or {{\"header\": ..., \"registry\": ...}}"
                ))),
            },
            v @ Value::Object(_) => {
                let o: SchemaObject = serde_json::from_value(v).map_err(de::Error::custom)?;
                Ok(SchemaView {
                    header: o.header,
                    registry: o.registry,
                })
            }
            other => Err(de::Error::custom(format!(
                "schema must be a string or an object {{\"header\", \"registry\"}}, not {}",
                kind_of(&other)
            ))),
        }
    }
}

// Deserialized through `DownstreamWire`, so that a member a kind does not have is refused like
// any unknown member.
/// What the rest of the pre-execute chain returns (AR-CONV-4).
#[derive(Debug, Clone, PartialEq, Default, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Downstream {
    /// Downstream allows.
    #[default]
    Allow,
    /// Downstream denies with its own reason and optional structured info.
    Deny {
        /// The denial's reason.
        reason: String,
        /// Structured info kept on the tool result.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        info: Option<Map<String, Value>>,
    },
    /// Downstream cancels.
    Cancel,
    /// Downstream asks the human itself.
    Ask {
        /// The ask's reason.
        reason: String,
    },
}

/// Every member any downstream kind may have; [`Downstream`] is read through it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DownstreamWire {
    kind: DownstreamWireKind,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    info: Option<Map<String, Value>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum DownstreamWireKind {
    Allow,
    Deny,
    Cancel,
    Ask,
}

impl TryFrom<DownstreamWire> for Downstream {
    type Error = String;

    fn try_from(w: DownstreamWire) -> Result<Downstream, String> {
        let no = |member: &str, here: bool| {
            if here {
                Err(format!(
                    "unknown field `{member}` for this kind of downstream result"
                ))
            } else {
                Ok(())
            }
        };
        match w.kind {
            DownstreamWireKind::Allow | DownstreamWireKind::Cancel => {
                no("reason", w.reason.is_some())?;
                no("info", w.info.is_some())?;
                Ok(match w.kind {
                    DownstreamWireKind::Allow => Downstream::Allow,
                    _ => Downstream::Cancel,
                })
            }
            DownstreamWireKind::Deny => Ok(Downstream::Deny {
                reason: w.reason.ok_or("missing field `reason`")?,
                info: w.info,
            }),
            DownstreamWireKind::Ask => {
                no("info", w.info.is_some())?;
                Ok(Downstream::Ask {
                    reason: w.reason.ok_or("missing field `reason`")?,
                })
            }
        }
    }
}

/// How the approval service answers, if asked (AR-APPROVAL-2..4).
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
pub enum ApprovalAnswer {
    /// The human allows this one call.
    AllowedOnce,
    /// The human rejects.
    Rejected,
    /// The question was cancelled.
    Cancelled,
    /// No answerer could decide.
    #[default]
    Unavailable,
    /// The approval request itself throws.
    Throws,
}

impl ApprovalAnswer {
    /// The answer's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalAnswer::AllowedOnce => "allowed-once",
            ApprovalAnswer::Rejected => "rejected",
            ApprovalAnswer::Cancelled => "cancelled",
            ApprovalAnswer::Unavailable => "unavailable",
            ApprovalAnswer::Throws => "throws",
        }
    }
}

/// When a signal aborts the call (chapter 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AbortPoint {
    /// No signal aborts.
    #[default]
    None,
    /// The integration is closing before the call is admitted (AR-CANCEL-2).
    LifecycleBeforeReview,
    /// The integration aborts after the review started, before the gate acts on it (AR-CANCEL-3).
    LifecycleAfterReview,
    /// The integration aborts while downstream is consulted (AR-CANCEL-4).
    LifecycleDuringDownstream,
    /// The caller aborts before the pre-execute stage starts (AR-CANCEL-1).
    CallerBeforeDispatch,
    /// The caller aborts while the review is in flight (AR-CANCEL-5).
    CallerDuringReview,
}

/// A short name for a JSON value's type, for error messages.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Why a scenario could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}{sep}{message}", sep = if path.is_empty() { "" } else { ": " })]
pub struct ScenarioError {
    /// Where in the scenario the problem is (`reviewer`, `tool.name`, ...), empty at the top level.
    pub path: String,
    /// What was wrong and what was expected.
    pub message: String,
}

impl From<portable::Inexact> for ScenarioError {
    fn from(e: portable::Inexact) -> Self {
        ScenarioError {
            path: e.path,
            message: e.message,
        }
    }
}

impl Scenario {
    /// Reads one scenario from JSON text, with the path of the offending field in the error.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        if let Some(kind) = portable::not_an_object(text) {
            return Err(ScenarioError::not_an_object(kind));
        }
        portable::check(text).map_err(ScenarioError::from)?;
        let mut de = serde_json::Deserializer::from_str(text);
        let scenario: Scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let inner = e.inner();
            ScenarioError::at(
                &e.path().to_string(),
                if inner.is_syntax() || inner.is_eof() {
                    format!("invalid JSON: {}", placed(inner))
                } else {
                    placed(inner)
                },
            )
        })?;
        de.end().map_err(|e| ScenarioError {
            path: String::new(),
            message: placed(&e),
        })?;
        scenario.realizable()
    }

    /// Reads one scenario from an already parsed JSON value. A parsed value has lost any member
    /// its text named twice: callers holding the text check it with `portable::check` first.
    pub fn from_value(v: &Value) -> Result<Scenario, ScenarioError> {
        if !v.is_object() {
            return Err(ScenarioError::not_an_object(kind_of(v)));
        }
        Scenario::read_value(v)?.realizable()
    }

    /// Reads a call from a parsed JSON object without checking that the runtime can produce it.
    pub(crate) fn read_value(v: &Value) -> Result<Scenario, ScenarioError> {
        serde_path_to_error::deserialize(v)
            .map_err(|e| ScenarioError::at(&e.path().to_string(), e.inner().to_string()))
    }

    /// The scenario itself, unless the real runtime cannot produce it (`realizable::check`).
    pub fn realizable(self) -> Result<Scenario, ScenarioError> {
        match realizable::check(&self) {
            Ok(()) => Ok(self),
            Err(rule) => Err(rule.into()),
        }
    }

    /// The call itself, unless the runtime cannot produce it wherever it is
    /// (`realizable::check_call`): a session's item, whose earlier items the session checks.
    pub fn realizable_call(self) -> Result<Scenario, ScenarioError> {
        match realizable::check_call(&self) {
            Ok(()) => Ok(self),
            Err(rule) => Err(rule.into()),
        }
    }
}

impl From<Unrealizable> for ScenarioError {
    fn from(rule: Unrealizable) -> Self {
        ScenarioError {
            path: rule.path().to_owned(),
            message: rule.to_string(),
        }
    }
}

/// serde_json's message with its place in the text set apart (`… (line 1, column 76)`), so that
/// a message ending in a number (`≥ 1`) does not run into the line number.
fn placed(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&place) {
        Some(message) if e.line() > 0 => {
            format!("{message} (line {}, column {})", e.line(), e.column())
        }
        _ => text,
    }
}

impl ScenarioError {
    /// A scenario text or value that is not an object: `kind` says what it is instead.
    fn not_an_object(kind: &str) -> ScenarioError {
        ScenarioError {
            path: String::new(),
            message: format!(
                "a scenario is a JSON object ({{\"tool\": ..., \"reviewer\": ...}}), not {kind}"
            ),
        }
    }

    /// An error at a serde path (`.` for the top level), with a retired configuration member
    /// explained rather than reported as unknown.
    fn at(path: &str, message: String) -> ScenarioError {
        let retired = config::RETIRED
            .iter()
            .find(|(name, _)| message.starts_with(&format!("unknown field `{name}`")));
        ScenarioError {
            path: clean_path(path),
            message: match retired {
                Some((name, why)) if path == format!("config.{name}") => (*why).to_owned(),
                _ => message,
            },
        }
    }
}

/// A serde path as the error shows it: empty at the top level, and where serde_path_to_error
/// could not tell (`?`, a syntax error between members).
fn clean_path(p: &str) -> String {
    if p == "." || p == "?" {
        String::new()
    } else {
        p.to_owned()
    }
}

impl<'de> Deserialize<'de> for Downstream {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Downstream, D::Error> {
        Downstream::try_from(DownstreamWire::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
