//! The scenario: everything a conformance case says about one tool call, as data (`spec/scenario.md`).
//!
//! Scenarios arrive from files and from other processes, so every type here rejects unknown fields and
//! every shape that can be mistyped has a deserializer with an error message a person can act on.

use schemars::JsonSchema;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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
}

/// What the gate knows about the session beyond its policy and preset.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Session {
    /// The provider and model of the session's latest request header. Default `default/default`.
    #[serde(default)]
    pub route: Route,
    /// Reviewer failures in a row in this session before this call (AR-RES-HINT-1). Default 0.
    #[serde(default)]
    pub consecutive_failures: u32,
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

/// The resilient gate's configuration (AR-RES-CONFIG-1); every member is optional.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// What a reviewer failure does under the effective policy `ask`. Default `ask`.
    #[serde(default)]
    pub on_failure: OnFailure,
    /// How many times a protocol failure is repaired by asking again. Default 1, at most 5.
    #[serde(default = "one", deserialize_with = "at_most_5")]
    #[schemars(range(max = 5))]
    pub repair_attempts: u32,
    /// How many times a transport failure is retried. Default 1, at most 5.
    #[serde(default = "one", deserialize_with = "at_most_5")]
    #[schemars(range(max = 5))]
    pub transport_retries: u32,
    /// The one deadline all attempts share, in milliseconds. Default 60000, at least 1.
    #[serde(default = "sixty_seconds", deserialize_with = "positive_ms")]
    #[schemars(range(min = 1))]
    pub review_timeout_ms: u64,
    /// The route every reviewer request uses; `null` for the session's route. Default `null`.
    #[serde(default)]
    pub reviewer_route: Option<Route>,
    /// From which consecutive failure on the hint is shown. Default 3, at least 1.
    #[serde(default = "three", deserialize_with = "at_least_1")]
    #[schemars(range(min = 1))]
    pub failure_hint_after: u32,
    /// Whether an allow must stand alone in the reviewer's text (AR-TOL-10). Default `false`.
    #[serde(default)]
    pub strict_allow: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            on_failure: OnFailure::Ask,
            repair_attempts: 1,
            transport_retries: 1,
            review_timeout_ms: 60_000,
            reviewer_route: None,
            failure_hint_after: 3,
            strict_allow: false,
        }
    }
}

fn one() -> u32 {
    1
}
fn three() -> u32 {
    3
}
fn sixty_seconds() -> u64 {
    60_000
}

fn at_most_5<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = u32::deserialize(d)?;
    if n > 5 {
        return Err(de::Error::custom(format!(
            "{n} is too many; at most 5 extra attempts fit in one review"
        )));
    }
    Ok(n)
}

fn at_least_1<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = u32::deserialize(d)?;
    if n == 0 {
        return Err(de::Error::custom("must be at least 1"));
    }
    Ok(n)
}

fn positive_ms<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let n = u64::deserialize(d)?;
    if n == 0 {
        return Err(de::Error::custom(
            "a deadline of 0 ms leaves no time for any request",
        ));
    }
    Ok(n)
}

/// What a reviewer failure does under the effective policy `ask` (AR-RES-FAIL-1).
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
pub enum OnFailure {
    /// Consult downstream, then ask the human.
    #[default]
    Ask,
    /// Deny before downstream (fail closed).
    Deny,
}

fn default_true() -> bool {
    true
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

/// The reviewer's script: one attempt, or a list of attempts in request order.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Reviewer {
    /// The same attempt answers every request.
    One(Attempt),
    /// Attempts in request order; the last one repeats.
    Many(Vec<Attempt>),
}

impl Reviewer {
    /// The attempt that answers the `n`th request (0-based): the last attempt repeats.
    pub fn attempt(&self, n: usize) -> &Attempt {
        match self {
            Reviewer::One(a) => a,
            Reviewer::Many(list) => &list[n.min(list.len() - 1)],
        }
    }
}

impl<'de> Deserialize<'de> for Reviewer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Array(items) => {
                if items.is_empty() {
                    return Err(de::Error::custom(
                        "reviewer must script at least one attempt",
                    ));
                }
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    out.push(
                        Attempt::from_value(item)
                            .map_err(|e| de::Error::custom(format!("attempt [{i}]: {e}")))?,
                    );
                }
                Ok(Reviewer::Many(out))
            }
            v => Attempt::from_value(v)
                .map(Reviewer::One)
                .map_err(de::Error::custom),
        }
    }
}

/// What the reviewer does on one request.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum Attempt {
    /// One text block, then a normal `stop` finish.
    Text {
        /// The text block's content.
        text: String,
        /// How long the request takes to settle, in milliseconds. Default 0.
        #[serde(default, skip_serializing_if = "is_zero")]
        delay_ms: u64,
    },
    /// Explicit content blocks and a finish kind.
    Blocks {
        /// The content blocks in order.
        blocks: Vec<Block>,
        /// The finish kind: `stop`, or another kind such as `max-tokens`. Default `stop`.
        #[serde(default = "stop")]
        finish: String,
        /// Whether the stream sends data after its terminal finish (AR-PARSE-2). Default `false`.
        #[serde(default, skip_serializing_if = "is_false")]
        data_after_finish: bool,
        /// How long the request takes to settle, in milliseconds. Default 0.
        #[serde(default, skip_serializing_if = "is_zero")]
        delay_ms: u64,
    },
    /// The response ends with an error or aborted finish.
    Finish {
        /// The failed finish.
        finish: FailedFinish,
        /// How long the request takes to settle, in milliseconds. Default 0.
        #[serde(default, skip_serializing_if = "is_zero")]
        delay_ms: u64,
    },
    /// The review request throws this value.
    Throw {
        /// Any JSON value.
        throw: Value,
        /// How long the request takes to settle, in milliseconds. Default 0.
        #[serde(default, skip_serializing_if = "is_zero")]
        delay_ms: u64,
    },
    /// The request never settles on its own.
    Hang {
        /// Always `true`.
        hang: HangFlag,
    },
}

/// The literal `true` of a hanging attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "bool", into = "bool")]
pub struct HangFlag;

impl JsonSchema for HangFlag {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HangFlag".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "const": true })
    }
}

impl TryFrom<bool> for HangFlag {
    type Error = &'static str;
    fn try_from(b: bool) -> Result<Self, Self::Error> {
        if b {
            Ok(HangFlag)
        } else {
            Err("hang must be true")
        }
    }
}

impl From<HangFlag> for bool {
    fn from(_: HangFlag) -> bool {
        true
    }
}

fn stop() -> String {
    "stop".to_owned()
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A finish that reports an error or an abort.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FailedFinish {
    /// `error` or `aborted`.
    pub kind: FailedFinishKind,
    /// The provider's failure code, e.g. `TRANSPORT`, `QUOTA_EXCEEDED`, `UNKNOWN`.
    pub code: String,
    /// The provider's message: any JSON value (objects occur in the field).
    pub message: Value,
}

/// The kind of a failed finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FailedFinishKind {
    /// The provider reported an error.
    Error,
    /// The request was aborted.
    Aborted,
}

impl FailedFinishKind {
    /// The kind's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            FailedFinishKind::Error => "error",
            FailedFinishKind::Aborted => "aborted",
        }
    }
}

/// One content block of a reviewer response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Block {
    /// The block type.
    #[serde(rename = "type")]
    pub kind: BlockKind,
    /// The block's text.
    pub text: String,
}

/// Content block types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BlockKind {
    /// Model reasoning; never read for a decision.
    Reasoning,
    /// Visible text.
    Text,
    /// A tool call the reviewer emitted (it declares no tools, so this is a protocol violation).
    ToolCall,
}

const ATTEMPT_SHAPES: &str = "expected one of {\"text\": string}, {\"blocks\": [...], \"finish\"?: string}, \
{\"finish\": {\"kind\", \"code\", \"message\"}}, {\"throw\": value}, {\"hang\": true}";

impl Attempt {
    /// A text attempt that settles at once.
    pub fn text(text: impl Into<String>) -> Attempt {
        Attempt::Text {
            text: text.into(),
            delay_ms: 0,
        }
    }

    /// How long the attempt takes to settle; `None` for an attempt that never settles.
    pub fn delay_ms(&self) -> Option<u64> {
        match self {
            Attempt::Text { delay_ms, .. }
            | Attempt::Blocks { delay_ms, .. }
            | Attempt::Finish { delay_ms, .. }
            | Attempt::Throw { delay_ms, .. } => Some(*delay_ms),
            Attempt::Hang { .. } => None,
        }
    }

    /// Reads one attempt, naming the shape that did not fit.
    pub fn from_value(v: Value) -> Result<Attempt, String> {
        let Value::Object(mut map) = v else {
            return Err(format!(
                "an attempt must be an object, not {}; {ATTEMPT_SHAPES}",
                kind_of(&v)
            ));
        };
        // Called once the shape's own members are taken out: whatever is left is unknown.
        let only = |map: &Map<String, Value>, allowed: &str| -> Result<(), String> {
            match map.keys().next() {
                Some(k) => Err(format!(
                    "unknown field {k:?} in this attempt (allowed: {allowed})"
                )),
                None => Ok(()),
            }
        };
        let had_delay = map.contains_key("delay_ms");
        let delay_ms = match map.remove("delay_ms") {
            None => 0,
            Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64().unwrap_or(0),
            Some(other) => {
                return Err(format!(
                    "delay_ms must be a whole number of milliseconds, not {}",
                    kind_of(&other)
                ));
            }
        };
        // The members are moved out, never copied: a reply can be a megabyte of text.
        if let Some(blocks) = map.remove("blocks") {
            let blocks_map_check =
                |map: &Map<String, Value>| only(map, "blocks, finish, data_after_finish, delay_ms");
            let blocks: Vec<Block> =
                serde_json::from_value(blocks).map_err(|e| format!("blocks: {e}"))?;
            let finish = match map.remove("finish") {
                None => stop(),
                Some(Value::String(f)) if !f.is_empty() => f,
                Some(_) => {
                    return Err("finish must name a kind such as \"stop\" or \"max-tokens\"".into());
                }
            };
            let data_after_finish = match map.remove("data_after_finish") {
                None => false,
                Some(Value::Bool(b)) => b,
                Some(other) => {
                    return Err(format!(
                        "data_after_finish must be a boolean, not {}",
                        kind_of(&other)
                    ));
                }
            };
            blocks_map_check(&map)?;
            Ok(Attempt::Blocks {
                blocks,
                finish,
                data_after_finish,
                delay_ms,
            })
        } else if let Some(text) = map.remove("text") {
            only(&map, "text, delay_ms")?;
            match text {
                Value::String(text) => Ok(Attempt::Text { text, delay_ms }),
                other => Err(format!("text must be a string, not {}", kind_of(&other))),
            }
        } else if let Some(finish) = map.remove("finish") {
            only(&map, "finish, delay_ms")?;
            let finish: FailedFinish = serde_json::from_value(finish)
                .map_err(|e| format!("finish: {e}; a finish without blocks is {{\"kind\": \"error\"|\"aborted\", \"code\": string, \"message\": any}}"))?;
            Ok(Attempt::Finish { finish, delay_ms })
        } else if let Some(throw) = map.remove("throw") {
            only(&map, "throw, delay_ms")?;
            Ok(Attempt::Throw { throw, delay_ms })
        } else if let Some(hang) = map.remove("hang") {
            only(&map, "hang")?;
            if had_delay {
                return Err("a hanging attempt never settles, so it takes no delay_ms".into());
            }
            match hang {
                Value::Bool(true) => Ok(Attempt::Hang { hang: HangFlag }),
                _ => Err("hang must be true".into()),
            }
        } else {
            Err(format!("unrecognized attempt; {ATTEMPT_SHAPES}"))
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

impl Scenario {
    /// Reads one scenario from JSON text, with the path of the offending field in the error.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let scenario: Scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let inner = e.inner();
            ScenarioError {
                path: clean_path(&e.path().to_string()),
                message: if inner.is_syntax() || inner.is_eof() {
                    format!("invalid JSON: {inner}")
                } else {
                    inner.to_string()
                },
            }
        })?;
        de.end().map_err(|e| ScenarioError {
            path: String::new(),
            message: e.to_string(),
        })?;
        Ok(scenario)
    }

    /// Reads one scenario from an already parsed JSON value.
    pub fn from_value(v: &Value) -> Result<Scenario, ScenarioError> {
        serde_path_to_error::deserialize(v).map_err(|e| ScenarioError {
            path: clean_path(&e.path().to_string()),
            message: e.inner().to_string(),
        })
    }
}

fn clean_path(p: &str) -> String {
    if p == "." {
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
