//! Reading the reviewer's response (spec chapter 4): the reply as the gate receives it, the decision
//! it may carry, and the ways it can break the protocol.

pub mod blocks;
pub mod json;
pub mod object;
mod reader;
mod repeated_names;
pub mod scan;
pub mod strict;
pub mod tolerant;

use serde_json::Value;

use crate::messages::{self, Text};
use crate::scenario::{Block, BlockKind, FailedFinish, FailedFinishKind};

/// One content block, borrowed from the scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockRef<'a> {
    /// The block type.
    pub kind: BlockKind,
    /// The block's text.
    pub text: &'a str,
}

/// How the response ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Finish<'a> {
    /// A normal stop.
    Stop,
    /// Another finish kind without failure detail, e.g. `max-tokens`.
    Other(&'a str),
    /// None: the stream ended after its blocks without a terminal finish (AR-PARSE-1).
    Missing,
    /// A finish of kind `error` or `aborted`, with the provider's code and message.
    Failed {
        /// `error` or `aborted`.
        kind: FailedFinishKind,
        /// The provider's code.
        code: &'a str,
        /// The provider's message, any JSON value.
        message: &'a Value,
    },
}

/// A complete reviewer response.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply<'a> {
    /// The content blocks in order.
    pub blocks: Vec<BlockRef<'a>>,
    /// The terminal finish.
    pub finish: Finish<'a>,
    /// Whether data followed the terminal finish.
    pub data_after_finish: bool,
}

impl<'a> Reply<'a> {
    /// A reply of one text block and a normal stop.
    pub fn text(text: &'a str) -> Reply<'a> {
        Reply {
            blocks: vec![BlockRef {
                kind: BlockKind::Text,
                text,
            }],
            finish: Finish::Stop,
            data_after_finish: false,
        }
    }

    /// The reply a scripted attempt delivers to the reader: its text, its blocks and finish, or
    /// its failed finish; `None` for a request that threw or never settled.
    pub fn delivered(attempt: &'a crate::scenario::Attempt) -> Option<Reply<'a>> {
        use crate::scenario::Attempt;
        match attempt {
            Attempt::Text { text, .. } => Some(Reply::text(text)),
            Attempt::Blocks {
                blocks,
                finish,
                data_after_finish,
                ..
            } => Some(Reply::blocks(blocks, finish.as_deref(), *data_after_finish)),
            Attempt::Finish { finish, .. } => Some(Reply::failed(finish)),
            Attempt::Throw { .. } | Attempt::Hang { .. } => None,
        }
    }

    /// A reply of content blocks ending with the finish kind `finish` (`stop` or another), or
    /// without a terminal finish (`None`).
    pub fn blocks(
        blocks: &'a [Block],
        finish: Option<&'a str>,
        data_after_finish: bool,
    ) -> Reply<'a> {
        Reply {
            blocks: blocks
                .iter()
                .map(|b| BlockRef {
                    kind: b.kind,
                    text: &b.text,
                })
                .collect(),
            finish: match finish {
                Some("stop") => Finish::Stop,
                Some(kind) => Finish::Other(kind),
                None => Finish::Missing,
            },
            data_after_finish,
        }
    }

    /// `Ok` for a normal stop; otherwise the failure the finish itself is, or its absence
    /// (AR-PARSE-1, AR-TOL-1: a failed or truncated response carries no decision, in either
    /// reader, and neither does a stream that never said it ended normally).
    pub fn stopped(&self) -> Result<(), ReplyError> {
        match &self.finish {
            Finish::Stop => Ok(()),
            Finish::Failed {
                kind,
                code,
                message,
            } => Err(ReplyError::FinishFailed {
                kind: *kind,
                code: (*code).to_owned(),
                message: (*message).clone(),
            }),
            Finish::Other(kind) => Err(ReplyError::FinishOther {
                kind: (*kind).to_owned(),
            }),
            Finish::Missing => Err(ReplyError::NoFinish),
        }
    }

    /// A reply with no content that ended in a failed finish.
    pub fn failed(finish: &'a FailedFinish) -> Reply<'a> {
        Reply {
            blocks: Vec::new(),
            finish: Finish::Failed {
                kind: finish.kind,
                code: &finish.code,
                message: &finish.message,
            },
            data_after_finish: false,
        }
    }
}

/// The risk level of a legal decision (AR-PARSE-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Risk {
    /// Ordinary project work.
    Low,
    /// Needs explicit authorization.
    Medium,
    /// Always denied.
    High,
}

impl Risk {
    /// The level as the reply writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
        }
    }
}

impl ReviewerDecision {
    /// The risk level the reviewer gave.
    pub fn risk(&self) -> Risk {
        match self {
            ReviewerDecision::Allow { risk } | ReviewerDecision::Deny { risk, .. } => *risk,
        }
    }
}

/// One of the six legal reviewer decisions (AR-PARSE-7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewerDecision {
    /// `low` or `medium` allow.
    Allow {
        /// The risk level.
        risk: Risk,
    },
    /// `medium` or `high` deny, with the reviewer's reason when given.
    Deny {
        /// The risk level.
        risk: Risk,
        /// The raw reason, kept exactly.
        reason: Option<String>,
    },
}

/// Why a reply carried no decision.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplyError {
    /// The response ended with an `error` or `aborted` finish (AR-PARSE-1).
    #[error("{}", messages::ERR_ENDED_DETAIL.render(&[("kind", kind.as_str()), ("code", code), ("message", &crate::jsstring::js_string(message))]))]
    FinishFailed {
        /// `error` or `aborted`.
        kind: FailedFinishKind,
        /// The provider's code.
        code: String,
        /// The provider's message.
        message: Value,
    },
    /// The response ended with another non-stop finish (AR-PARSE-1).
    #[error("{}", messages::ERR_ENDED.render(&[("kind", kind)]))]
    FinishOther {
        /// The finish kind.
        kind: String,
    },
    /// The stream ended without a terminal finish (AR-PARSE-1, AR-TOL-1).
    #[error("{}", messages::ERR_NO_FINISH.plain())]
    NoFinish,
    /// Data followed the terminal finish (AR-PARSE-2).
    #[error("{}", messages::ERR_AFTER_FINISH.plain())]
    AfterFinish,
    /// The block sequence is not reasoning* text (AR-PARSE-3).
    #[error("{}", messages::ERR_BLOCKS.plain())]
    Blocks,
    /// The text is not one JSON value; the message is implementation-defined (AR-PARSE-4). The
    /// reference names the rule and adds where its JSON reader stopped and what it expected.
    #[error("auto-review: reviewer output is not valid JSON ({0})")]
    InvalidJson(String),
    /// The value is not an object (AR-PARSE-5).
    #[error("{}", messages::ERR_NOT_OBJECT.plain())]
    NotObject,
    /// A member is repeated (AR-PARSE-6).
    #[error("{}", messages::ERR_REPEATED.plain())]
    Repeated,
    /// The object is not one of the six shapes (AR-PARSE-7).
    #[error("{}", messages::ERR_PROTOCOL.plain())]
    Protocol,
    /// The reply holds a tool call (AR-TOL-2).
    #[error("{}", messages::ERR_TOOL_CALL.plain())]
    ToolCall,
    /// The text is larger than the tolerant reader reads (AR-TOL-3).
    #[error("{}", messages::ERR_TOO_LARGE.plain())]
    TooLarge,
    /// No top-level object carries a decision (AR-TOL-5).
    #[error("{}", messages::ERR_NO_DECISION.plain())]
    NoDecision,
    /// Two different objects carry a decision (AR-TOL-6).
    #[error("{}", messages::ERR_AMBIGUOUS.plain())]
    Ambiguous,
    /// A malformed object mentions a decision (AR-TOL-7).
    #[error("{}", messages::ERR_MALFORMED.plain())]
    Malformed,
    /// An allow sits beside braces that could carry another decision (AR-TOL-9).
    #[error("{}", messages::ERR_CONFLICT.plain())]
    Conflict,
    /// An allow sits beside prose where allows must stand alone (AR-TOL-10).
    #[error("{}", messages::ERR_ALLOW_PROSE.plain())]
    AllowBesideProse,
}

impl ReplyError {
    /// The clause whose rule refused the reply, under the reader of `profile`: the strict
    /// reader's AR-PARSE rules, or the tolerant reader's AR-TOL rules (which hold a candidate to
    /// AR-PARSE-6 and AR-PARSE-7 through AR-TOL-8).
    pub fn clause(&self, profile: crate::profile::Profile) -> &'static str {
        let tolerant = profile.reader() == crate::profile::Reader::Tolerant;
        match self {
            ReplyError::FinishFailed { .. }
            | ReplyError::FinishOther { .. }
            | ReplyError::NoFinish
                if tolerant =>
            {
                "AR-TOL-1"
            }
            ReplyError::FinishFailed { .. }
            | ReplyError::FinishOther { .. }
            | ReplyError::NoFinish => "AR-PARSE-1",
            ReplyError::AfterFinish => "AR-PARSE-2",
            ReplyError::Blocks => "AR-PARSE-3",
            ReplyError::InvalidJson(_) => "AR-PARSE-4",
            ReplyError::NotObject => "AR-PARSE-5",
            ReplyError::Repeated | ReplyError::Protocol if tolerant => "AR-TOL-8",
            ReplyError::Repeated => "AR-PARSE-6",
            ReplyError::Protocol => "AR-PARSE-7",
            ReplyError::ToolCall => "AR-TOL-2",
            ReplyError::TooLarge => "AR-TOL-3",
            ReplyError::NoDecision => "AR-TOL-5",
            ReplyError::Ambiguous => "AR-TOL-6",
            ReplyError::Malformed => "AR-TOL-7",
            ReplyError::Conflict => "AR-TOL-9",
            ReplyError::AllowBesideProse => "AR-TOL-10",
        }
    }

    /// The failure message with its normative extent: a JSON parser's message is
    /// implementation-defined (AR-PARSE-4), every other message is normative in full.
    pub fn text(&self) -> Text {
        match self {
            e @ ReplyError::InvalidJson(_) => Text::implementation_defined(e.to_string()),
            other => Text::exact(other.to_string()),
        }
    }
}

/// A reader's verdict on one reply, as `autoreview parse` prints it and the corpus snapshots hold
/// it: `{"ok": true, "risk", "decision", "reason"?}` or `{"ok": false, "error"}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Verdict {
    /// A legal decision.
    Decision {
        /// Always `true`.
        ok: bool,
        /// `low`, `medium` or `high`.
        risk: String,
        /// `allow` or `deny`.
        decision: String,
        /// The reviewer's reason, when a deny gives one.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// No decision: the failure message the gate would report.
    Failure {
        /// Always `false`.
        ok: bool,
        /// The failure message.
        error: String,
    },
}

impl Verdict {
    /// The verdict of a decision.
    pub fn of_decision(d: &ReviewerDecision) -> Verdict {
        Verdict::from_decision(d.clone())
    }

    /// The verdict of a decision, taking its reason rather than copying it.
    pub fn from_decision(d: ReviewerDecision) -> Verdict {
        let risk = Risk::as_str;
        match d {
            ReviewerDecision::Allow { risk: r } => Verdict::Decision {
                ok: true,
                risk: risk(r).into(),
                decision: "allow".into(),
                reason: None,
            },
            ReviewerDecision::Deny { risk: r, reason } => Verdict::Decision {
                ok: true,
                risk: risk(r).into(),
                decision: "deny".into(),
                reason,
            },
        }
    }

    /// Whether the verdict is an allow.
    pub fn allows(&self) -> bool {
        matches!(self, Verdict::Decision { decision, .. } if decision == "allow")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a legal allow allows: a deny, or a reply read as no decision at all, never does.
    #[test]
    fn only_an_allow_allows() {
        let allow = ReviewerDecision::Allow { risk: Risk::Low };
        let deny = ReviewerDecision::Deny {
            risk: Risk::High,
            reason: Some("allow".into()),
        };
        assert!(Verdict::of_decision(&allow).allows());
        assert!(!Verdict::of_decision(&deny).allows());
        let failure = Verdict::Failure {
            ok: false,
            error: "allow".into(),
        };
        assert!(!failure.allows());
    }
}
