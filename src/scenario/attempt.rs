//! The reviewer's script (`spec/scenario.md`, "Reviewer attempts"): what the reviewer does on each
//! request, read shape by shape so that a mistyped attempt names the shape it did not fit.

use schemars::JsonSchema;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::kind_of;
use super::portable::MAX_SAFE_INTEGER;
use super::whole_number::Whole;

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
    /// Every attempt it scripts, in request order.
    pub fn attempts(&self) -> &[Attempt] {
        match self {
            Reviewer::One(a) => std::slice::from_ref(a),
            Reviewer::Many(list) => list,
        }
    }

    /// Every attempt it scripts, in request order, to rewrite.
    pub fn attempts_mut(&mut self) -> &mut [Attempt] {
        match self {
            Reviewer::One(a) => std::slice::from_mut(a),
            Reviewer::Many(list) => list,
        }
    }

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
        /// The finish kind: `stop`, or another kind such as `max-tokens`; `null` for a stream
        /// that ends after its blocks without a terminal finish (AR-PARSE-1, AR-TOL-1). Default
        /// `stop`.
        #[serde(default = "stop")]
        #[schemars(with = "Option<String>")]
        finish: Option<String>,
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

fn stop() -> Option<String> {
    Some("stop".to_owned())
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

    /// Whether the attempt is a stream that ends without a terminal finish (AR-PARSE-1).
    pub fn unfinished(&self) -> bool {
        matches!(self, Attempt::Blocks { finish: None, .. })
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
            Some(v) => Whole::new("milliseconds", 0, MAX_SAFE_INTEGER)
                .from_value(&v)
                .map_err(|e| format!("delay_ms: {e}"))?,
        };
        // The members are moved out, never copied: a reply can be a megabyte of text.
        if let Some(blocks) = map.remove("blocks") {
            let blocks_map_check =
                |map: &Map<String, Value>| only(map, "blocks, finish, data_after_finish, delay_ms");
            let blocks: Vec<Block> =
                serde_json::from_value(blocks).map_err(|e| format!("blocks: {e}"))?;
            let finish = match map.remove("finish") {
                None => stop(),
                // A stream that ends without a terminal finish (AR-PARSE-1).
                Some(Value::Null) => None,
                Some(Value::String(f)) if !f.is_empty() => Some(f),
                Some(_) => {
                    return Err("finish must name a kind such as \"stop\" or \"max-tokens\", or be null for a stream that ends without one".into());
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
