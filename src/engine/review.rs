//! Spec chapter 3, the review (AR-REVIEW-1..8): resolving the pending tool's schema, making the
//! reviewer request, and turning what the reviewer did into an outcome class with a failure class.

use serde_json::Value;

use super::Run;
use crate::jsstring::js_string;
use crate::messages::{self, Text};
use crate::outcome::{Event, Failure, FailureClass, ReviewRecord};
use crate::parse::{self, BlockRef, Finish, Reply, ReplyError, ReviewerDecision};
use crate::profile::Profile;
use crate::scenario::{Attempt, CallKind, FailedFinishKind, SchemaView};

/// A failure as the engine carries it: its class and its message with the message's normative
/// extent (AR-REVIEW-5, AR-REVIEW-6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureNote {
    /// The failure class.
    pub class: FailureClass,
    /// The failure message.
    pub message: Text,
}

impl FailureNote {
    /// The outcome's view of the failure.
    pub fn to_failure(&self) -> Failure {
        Failure {
            class: self.class,
            message: self.message.text.clone(),
        }
    }
}

/// How a review settled (AR-REVIEW-4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settlement {
    /// The reviewer returned a legal decision.
    Decided(ReviewerDecision),
    /// No decision was obtained.
    Failed(FailureNote),
    /// The request never settles on its own (AR-CANCEL-6).
    Pending,
}

/// The review's settlement and how many reviewer requests it made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    /// How it settled.
    pub settlement: Settlement,
    /// How many reviewer requests were made.
    pub attempts: u32,
}

impl Review {
    /// The outcome's view of the review.
    pub fn record(&self) -> ReviewRecord {
        ReviewRecord {
            attempts: self.attempts,
            failure: match &self.settlement {
                Settlement::Failed(f) => Some(f.to_failure()),
                _ => None,
            },
        }
    }
}

/// Reviews an admitted call: resolves the schema (AR-REVIEW-2), then makes the reviewer request
/// (AR-REVIEW-1, one request in the baseline).
pub fn review(run: &mut Run<'_>) -> Review {
    if let Err(failure) = resolve_schema(run) {
        return Review {
            settlement: Settlement::Failed(failure),
            attempts: 0,
        };
    }
    run.event(Event::Review);
    let settlement = match run.profile {
        Profile::Baseline => settle(run.s.reviewer.attempt(0), run.profile),
    };
    Review {
        settlement,
        attempts: 1,
    }
}

/// AR-REVIEW-2: the pending tool's schema must resolve to exactly one.
fn resolve_schema(run: &Run<'_>) -> Result<(), FailureNote> {
    if run.s.schema == SchemaView::Present {
        return Ok(());
    }
    let template = match run.s.tool.call {
        CallKind::PtcInner => messages::ERR_SCHEMA_PTC,
        CallKind::Native | CallKind::RunCode => messages::ERR_SCHEMA_NATIVE,
    };
    Err(FailureNote {
        class: FailureClass::Schema,
        message: Text::exact(template.text),
    })
}

/// What one reviewer attempt comes to under a profile's reader.
pub fn settle(attempt: &Attempt, profile: Profile) -> Settlement {
    match attempt {
        Attempt::Hang { .. } => Settlement::Pending,
        Attempt::Throw { throw } => Settlement::Failed(FailureNote {
            class: FailureClass::Internal,
            message: Text::exact(js_string(throw)),
        }),
        Attempt::Text { text } => read_reply(&Reply::text(text), profile),
        Attempt::Blocks {
            blocks,
            finish,
            data_after_finish,
        } => {
            let reply = Reply {
                blocks: blocks
                    .iter()
                    .map(|b| BlockRef {
                        kind: b.kind,
                        text: &b.text,
                    })
                    .collect(),
                finish: if finish == "stop" {
                    Finish::Stop
                } else {
                    Finish::Other(finish)
                },
                data_after_finish: *data_after_finish,
            };
            read_reply(&reply, profile)
        }
        Attempt::Finish { finish } => {
            let reply = Reply {
                blocks: Vec::new(),
                finish: Finish::Failed {
                    kind: finish.kind,
                    code: &finish.code,
                    message: &finish.message,
                },
                data_after_finish: false,
            };
            read_reply(&reply, profile)
        }
    }
}

/// Reads a delivered reply with the profile's reader (chapter 4).
fn read_reply(reply: &Reply<'_>, profile: Profile) -> Settlement {
    let read = match profile {
        Profile::Baseline => parse::strict::read(reply),
    };
    match read {
        Ok(d) => Settlement::Decided(d),
        Err(e) => Settlement::Failed(FailureNote {
            class: class_of(&e),
            message: e.text(),
        }),
    }
}

/// The failure class of a reply that carried no decision (AR-REVIEW-6).
pub fn class_of(e: &ReplyError) -> FailureClass {
    match e {
        ReplyError::FinishFailed {
            kind,
            code,
            message,
        } => classify_finish(*kind, code, message),
        ReplyError::FinishOther { .. } => FailureClass::Provider,
        _ => FailureClass::Protocol,
    }
}

/// AR-REVIEW-7: classifies a failed finish by its kind, its code, then its message.
pub fn classify_finish(kind: FailedFinishKind, code: &str, message: &Value) -> FailureClass {
    if kind == FailedFinishKind::Aborted {
        return FailureClass::Aborted;
    }
    match code {
        "TIMEOUT" | "DEADLINE_EXCEEDED" => return FailureClass::Timeout,
        "QUOTA_EXCEEDED" | "RATE_LIMITED" | "INSUFFICIENT_QUOTA" | "HTTP_402" | "HTTP_429" => {
            return FailureClass::Quota;
        }
        "TRANSPORT" | "CONNECTION" | "NETWORK" => return FailureClass::Transport,
        _ => {}
    }
    let text = js_string(message).to_lowercase();
    let has = |needles: &[&str]| needles.iter().any(|n| text.contains(n));
    if has(&[
        "http 402",
        "http 429",
        "status 402",
        "status 429",
        "quota",
        "rate limit",
    ]) {
        FailureClass::Quota
    } else if has(&[
        "transport error",
        "connection error",
        "econnreset",
        "econnrefused",
        "socket hang up",
        "network error",
    ]) {
        FailureClass::Transport
    } else if has(&["timed out", "timeout"]) {
        FailureClass::Timeout
    } else {
        FailureClass::Provider
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finish_classification_follows_the_rule_order() {
        use FailedFinishKind::{Aborted, Error};
        use FailureClass::{Provider, Quota, Timeout, Transport};
        let cases = [
            (Aborted, "TIMEOUT", json!("x"), FailureClass::Aborted),
            (Error, "TIMEOUT", json!("quota"), Timeout),
            (Error, "QUOTA_EXCEEDED", json!("HTTP 402"), Quota),
            (Error, "TRANSPORT", json!("Connection error"), Transport),
            (
                Error,
                "UNKNOWN",
                json!("sse transport error: terminated"),
                Transport,
            ),
            (
                Error,
                "UNKNOWN",
                json!("provider rate limit, HTTP 429"),
                Quota,
            ),
            (Error, "UNKNOWN", json!("request timed out"), Timeout),
            (Error, "UNKNOWN", json!({"message": "x"}), Provider),
            (Error, "BAD_REQUEST", json!("context too long"), Provider),
        ];
        for (kind, code, message, want) in cases {
            assert_eq!(
                classify_finish(kind, code, &message),
                want,
                "{code} {message}"
            );
        }
    }
}
