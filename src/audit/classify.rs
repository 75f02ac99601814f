//! How a recorded call is classified (`spec/audit.md`, "How a call is classified"): by the
//! profile's own templates, a genuine failure (the tool result *starts with* the failure text)
//! told from a text that only quotes one, and a failure's class read from its message.

use serde::Serialize;

use super::CallRecord;
use crate::engine::review::classify_finish;
use crate::messages::{self, Template};
use crate::outcome::FailureClass;
use crate::scenario::FailedFinishKind;

/// What a recorded call came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Classification {
    /// The body ran, or the gate let the call through (the result is not the gate's refusal).
    Allowed,
    /// The reviewer denied and the denial was final (`MSG-FINAL-DENY`).
    Denied,
    /// The human was asked about a reviewer's denial (`MSG-ASK-REVIEW`, `MSG-ASK-REVIEW-REASON`).
    Asked,
    /// The review failed (`MSG-FAILED`, `MSG-ASK-FAILED`).
    Failure {
        /// The failure's class.
        class: FailureKind,
        /// The failure message, as recorded.
        message: String,
    },
    /// The record carries no result to decide from.
    Undecidable,
}

impl Classification {
    /// Whether the call was refused by the gate (a failure or a final denial).
    pub fn refused(&self) -> bool {
        matches!(
            self,
            Classification::Denied | Classification::Failure { .. }
        )
    }

    /// The name tables use.
    pub fn name(&self) -> &'static str {
        match self {
            Classification::Allowed => "allowed",
            Classification::Denied => "denied",
            Classification::Asked => "asked",
            Classification::Failure { .. } => "failure",
            Classification::Undecidable => "undecidable",
        }
    }
}

/// A reviewer failure's class, as the field report classes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The reviewer's text was tool-call markup (`<tool_call`, the DSML sentinel).
    ToolCallMarkup,
    /// Any other text that is no decision.
    Prose,
    /// The request itself failed; the sub-class is AR-REVIEW-7's for the finish.
    RequestFailed(RequestClass),
    /// The pending tool's schema could not be resolved (AR-REVIEW-2).
    Schema,
    /// Anything else.
    Other,
}

impl FailureKind {
    /// Every class as a table's columns name it, in order.
    pub const COLUMNS: [&'static str; 5] = [
        "tool-call-markup",
        "prose",
        "request-failed",
        "schema",
        "other",
    ];

    /// The column of the class.
    pub fn column(self) -> &'static str {
        match self {
            FailureKind::ToolCallMarkup => "tool-call-markup",
            FailureKind::Prose => "prose",
            FailureKind::RequestFailed(_) => "request-failed",
            FailureKind::Schema => "schema",
            FailureKind::Other => "other",
        }
    }
}

/// How a reviewer request failed (AR-REVIEW-7's classes of a finish, and the deadline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestClass {
    /// The connection or the stream broke.
    Transport,
    /// The provider refused for quota or rate.
    Quota,
    /// The provider or the gate gave up waiting.
    Timeout,
    /// The request was aborted.
    Abort,
    /// Any other provider failure.
    Provider,
}

impl RequestClass {
    /// Every sub-class, in order.
    pub const ALL: [RequestClass; 5] = [
        RequestClass::Transport,
        RequestClass::Quota,
        RequestClass::Timeout,
        RequestClass::Abort,
        RequestClass::Provider,
    ];

    /// Its name.
    pub fn as_str(self) -> &'static str {
        match self {
            RequestClass::Transport => "transport",
            RequestClass::Quota => "quota",
            RequestClass::Timeout => "timeout",
            RequestClass::Abort => "abort",
            RequestClass::Provider => "provider",
        }
    }
}

/// The text of `template` up to its first placeholder other than `<name>`, with `<name>` filled by
/// `tool` (`Auto review of tool "pwsh" failed; its body was not executed: `).
fn prefix(template: Template, tool: &str) -> String {
    let text = template.text;
    let mut cut = text.len();
    let mut from = 0;
    while let Some(k) = text[from..].find('<') {
        let at = from + k;
        if !text[at..].starts_with("<name>") {
            cut = at;
            break;
        }
        from = at + 1;
    }
    Template {
        id: template.id,
        text: &text[..cut],
    }
    .render(&[("name", tool)])
}

/// `MSG-ERROR-PREFIX` around `message`: what the model reads of a refused call.
fn as_error(message: &str) -> String {
    messages::ERROR_PREFIX.render(&[("message", message)])
}

/// What the tool runtime writes before a refusal's message (`MSG-ERROR-PREFIX` up to it).
pub fn error_prefix() -> String {
    prefix(messages::ERROR_PREFIX, "")
}

/// Whether a tool result's text is a refusal the tool runtime wrote (`MSG-ERROR-PREFIX`).
pub fn is_error(text: &str) -> bool {
    text.starts_with(&error_prefix())
}

/// Classifies a recorded call (`spec/audit.md`) by the templates of every profile: a log is read
/// for what its gate wrote, whichever profile that gate follows.
pub fn classify(call: &CallRecord) -> Classification {
    let Some(result) = &call.result else {
        return Classification::Undecidable;
    };
    let text = result.text.as_deref().unwrap_or_default();
    let tool = call.tool.as_str();
    // A failure the gate denied: the result starts with MSG-FAILED.
    if let Some(message) = text.strip_prefix(&as_error(&prefix(messages::FAILED, tool))) {
        return failure(message);
    }
    let question = question(call);
    // A failure put to the human (AR-RES-FAIL-2): the prompt's reason starts with MSG-ASK-FAILED.
    if let Some(Question::Failed(message)) = question {
        return failure(message);
    }
    if text == as_error(&messages::FINAL_DENY.render(&[("name", tool)])) {
        return Classification::Denied;
    }
    if question == Some(Question::Denied) {
        return Classification::Asked;
    }
    Classification::Allowed
}

/// Whether the call's result carries `INFO-FAILED`'s code: a reviewer failure the gate denied on
/// purpose (under `never`, or configured to fail closed, AR-RES-FAIL-1, AR-RES-FAIL-3), which a
/// record without the gate's configuration cannot tell apart.
pub fn marked_failed(call: &CallRecord) -> bool {
    let code = messages::info_failed(FailureClass::Internal).remove("code");
    call.result
        .as_ref()
        .and_then(|r| r.error.as_ref())
        .and_then(|e| e.get("code"))
        .is_some_and(|c| Some(c) == code.as_ref())
}

/// The gate's question to the human, when a recorded approval prompt is one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question<'r> {
    /// About a reviewer's denial (`MSG-ASK-REVIEW`, `MSG-ASK-REVIEW-REASON`).
    Denied,
    /// About a failed review (`MSG-ASK-FAILED`), with the failure's message.
    Failed(&'r str),
}

/// The gate's question, when the call's recorded approval prompt is one by its reason; `None`
/// for no prompt, or a prompt another part of the chain (a hook, the body) raised.
pub fn question(call: &CallRecord) -> Option<Question<'_>> {
    let reason = call
        .approval
        .as_ref()?
        .reason
        .as_deref()
        .unwrap_or_default();
    let tool = call.tool.as_str();
    if let Some(message) = reason.strip_prefix(&prefix(messages::ASK_FAILED, tool)) {
        return Some(Question::Failed(message));
    }
    let asked = messages::ASK_REVIEW.render(&[("name", tool)]);
    (reason == asked || reason.starts_with(&prefix(messages::ASK_REVIEW_REASON, tool)))
        .then_some(Question::Denied)
}

/// The failure of `message`, with its class.
fn failure(message: &str) -> Classification {
    Classification::Failure {
        class: class_of(message),
        message: message.to_owned(),
    }
}

/// The class of a failure message (`spec/audit.md`, the class table).
pub fn class_of(message: &str) -> FailureKind {
    let exact = |t: Template| message == t.text;
    if exact(messages::ERR_SCHEMA_NATIVE) || exact(messages::ERR_SCHEMA_PTC) {
        return FailureKind::Schema;
    }
    if let Some(request) = request_failed(message) {
        return FailureKind::RequestFailed(request);
    }
    if exact(messages::ERR_TOOL_CALL) {
        return FailureKind::ToolCallMarkup;
    }
    if let Some(quoted) = parser_quote(message) {
        return if quoted.starts_with("<tool_call") || quoted.contains("DSML") {
            FailureKind::ToolCallMarkup
        } else {
            FailureKind::Prose
        };
    }
    let prose = [
        messages::ERR_NOT_JSON,
        messages::ERR_NO_DECISION,
        messages::ERR_NOT_OBJECT,
        messages::ERR_REPEATED,
        messages::ERR_PROTOCOL,
        messages::ERR_BLOCKS,
        messages::ERR_AFTER_FINISH,
        messages::ERR_AMBIGUOUS,
        messages::ERR_MALFORMED,
        messages::ERR_CONFLICT,
        messages::ERR_ALLOW_PROSE,
        messages::ERR_TOO_LARGE,
    ];
    if prose.iter().any(|t| exact(*t)) || message.contains("is not valid JSON") {
        return FailureKind::Prose;
    }
    FailureKind::Other
}

/// The text a JSON parser's error quotes (`Unexpected token '<', "<tool_call"... is not valid
/// JSON` quotes `<tool_call`), when the message is one.
fn parser_quote(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("Unexpected token ")?;
    let start = rest.find(", \"")? + 3;
    let quoted = &rest[start..];
    Some(quoted.split("\"...").next().unwrap_or(quoted))
}

/// How a request failed, when the message is a finish's (`MSG-ERR-ENDED-DETAIL`,
/// `MSG-ERR-ENDED`), a stream without a finish (`MSG-ERR-NO-FINISH`) or the deadline
/// (`MSG-ERR-DEADLINE`).
fn request_failed(message: &str) -> Option<RequestClass> {
    if message == messages::ERR_NO_FINISH.text {
        return Some(RequestClass::Transport);
    }
    if message.starts_with(&prefix(messages::ERR_DEADLINE, "")) {
        return Some(RequestClass::Timeout);
    }
    let rest = message.strip_prefix(&prefix(messages::ERR_ENDED, ""))?;
    let (kind, detail) = rest.split_once(' ').unwrap_or((rest, ""));
    let (code, text) = detail.split_once(": ").unwrap_or((detail, ""));
    let class = match kind {
        "aborted" => return Some(RequestClass::Abort),
        "error" => classify_finish(FailedFinishKind::Error, code, text),
        _ => return Some(RequestClass::Provider),
    };
    Some(match class {
        FailureClass::Transport => RequestClass::Transport,
        FailureClass::Quota => RequestClass::Quota,
        FailureClass::Timeout => RequestClass::Timeout,
        FailureClass::Aborted => RequestClass::Abort,
        _ => RequestClass::Provider,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field report's failure texts, each in the class the report gives it.
    #[test]
    fn the_field_reports_messages_fall_in_its_classes() {
        let cases = [
            (
                "Unexpected token '<', \"<tool_call\"... is not valid JSON",
                FailureKind::ToolCallMarkup,
            ),
            (
                "Unexpected token '<', \"<｜｜DSML｜｜ \"... is not valid JSON",
                FailureKind::ToolCallMarkup,
            ),
            (
                "Unexpected token '根', \"根据之前的侦察，我已\"... is not valid JSON",
                FailureKind::Prose,
            ),
            (
                "Unexpected token '`', \"```toolCal\"... is not valid JSON",
                FailureKind::Prose,
            ),
            (
                "auto-review: reviewer ended with error TRANSPORT: Connection error",
                FailureKind::RequestFailed(RequestClass::Transport),
            ),
            (
                "auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required",
                FailureKind::RequestFailed(RequestClass::Quota),
            ),
            (
                "auto-review: reviewer ended with aborted UNKNOWN: [object Object]",
                FailureKind::RequestFailed(RequestClass::Abort),
            ),
            (
                "auto-review: reviewer ended with error UNKNOWN: sse transport error: terminated",
                FailureKind::RequestFailed(RequestClass::Transport),
            ),
            (
                "auto-review: reviewer ended with max-tokens",
                FailureKind::RequestFailed(RequestClass::Provider),
            ),
            (
                "auto-review: the pending native tool schema is missing or ambiguous",
                FailureKind::Schema,
            ),
            (
                "auto-review: reviewer output must be valid JSON",
                FailureKind::Prose,
            ),
            (
                "auto-review: reviewer emitted a tool call instead of a decision",
                FailureKind::ToolCallMarkup,
            ),
            (
                "auto-review: the session has no working directory",
                FailureKind::Other,
            ),
        ];
        for (message, class) in cases {
            assert_eq!(class_of(message), class, "{message}");
        }
    }

    fn call(text: &str) -> CallRecord {
        CallRecord {
            tool: "pwsh".into(),
            result: Some(super::super::ResultRecord {
                text: Some(text.into()),
                error: None,
            }),
            ..CallRecord::default()
        }
    }

    /// A tool result that starts with the failure text is a failure; one that only quotes it (a
    /// session reading an earlier error) is not.
    #[test]
    fn a_quoted_failure_is_not_a_failure() {
        let failed = "Error: Auto review of tool \"pwsh\" failed; its body was not executed: auto-review: reviewer ended with error TIMEOUT: slow";
        assert!(matches!(
            classify(&call(failed)),
            Classification::Failure {
                class: FailureKind::RequestFailed(RequestClass::Timeout),
                ..
            }
        ));
        let quoted = format!("log.txt:12: {failed}");
        assert_eq!(classify(&call(&quoted)), Classification::Allowed);
        // Another tool's failure text is not this call's.
        let other = failed.replace("\"pwsh\"", "\"bash\"");
        assert_eq!(classify(&call(&other)), Classification::Allowed);
        let denied = "Error: Auto review rejected tool \"pwsh\"; its body was not executed";
        assert_eq!(classify(&call(denied)), Classification::Denied);
        let none = CallRecord {
            tool: "pwsh".into(),
            ..CallRecord::default()
        };
        assert_eq!(classify(&none), Classification::Undecidable);
    }
}
