//! The resilient profile's tolerant reader (AR-TOL-1..8): forgiving about where the decision sits,
//! strict about what it says. Prose, fences and a byte-order mark around the object are tolerated;
//! the object itself must still be exactly one of the six legal shapes, and any doubt — a tool
//! call, no object, two different objects, a malformed object that mentions a decision — fails
//! closed.

use std::borrow::Cow;

use super::{Finish, Reply, ReplyError, ReviewerDecision, object, scan};
use crate::scenario::BlockKind;

/// The largest reviewer text the reader looks at, in bytes (AR-TOL-3). Larger text fails closed
/// before any scanning.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// Reads a reply tolerantly.
pub fn read(reply: &Reply<'_>) -> Result<ReviewerDecision, ReplyError> {
    // AR-TOL-1: a failed or truncated response carries no decision, as in the strict reader.
    match &reply.finish {
        Finish::Stop => {}
        Finish::Failed {
            kind,
            code,
            message,
        } => {
            return Err(ReplyError::FinishFailed {
                kind: *kind,
                code: (*code).to_owned(),
                message: (*message).clone(),
            });
        }
        Finish::Other(kind) => {
            return Err(ReplyError::FinishOther {
                kind: (*kind).to_owned(),
            });
        }
    }
    // AR-TOL-2: a tool call is never a decision; reasoning is never read; texts join in order.
    if reply.blocks.iter().any(|b| b.kind == BlockKind::ToolCall) {
        return Err(ReplyError::ToolCall);
    }
    let texts: Vec<&str> = reply
        .blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Text)
        .map(|b| b.text)
        .collect();
    let total: usize = texts.iter().map(|t| t.len()).sum();
    if total > MAX_TEXT_BYTES {
        return Err(ReplyError::TooLarge);
    }
    let text: Cow<'_, str> = match texts.as_slice() {
        [one] => Cow::Borrowed(one),
        many => Cow::Owned(many.concat()),
    };
    parse_text(&text)
}

/// Reads one reviewer text tolerantly (AR-TOL-3..8).
pub fn parse_text(text: &str) -> Result<ReviewerDecision, ReplyError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(ReplyError::TooLarge);
    }
    let text = unwrap_fence(text.strip_prefix('\u{feff}').unwrap_or(text));
    let mut candidate: Option<(&str, Vec<(String, serde_json::Value)>)> = None;
    let mut outside = Vec::new(); // the text around the candidates, for AR-TOL-9
    let mut from = 0;
    for range in scan::top_level_objects(text) {
        let span = &text[range.clone()];
        match object::members_with_repeats(span) {
            Ok(members) => {
                if !members.iter().any(|(k, _)| k == "decision") {
                    continue; // AR-TOL-5: an object without a decision is prose.
                }
                outside.push(&text[from..range.start]);
                from = range.end;
                match &candidate {
                    None => candidate = Some((span, members)),
                    Some((first, _)) if *first == span => {}
                    Some(_) => return Err(ReplyError::Ambiguous), // AR-TOL-6
                }
            }
            // AR-TOL-7: a malformed object that mentions a decision is never skipped over.
            Err(_) if span.contains("decision") => return Err(ReplyError::Malformed),
            Err(_) => {}
        }
    }
    outside.push(&text[from..]);
    let Some((_, members)) = candidate else {
        return Err(ReplyError::NoDecision);
    };
    // AR-TOL-8: the one decision must still be exactly a legal shape.
    let decision = object::shape(&object::without_repeats(members)?)?;
    // AR-TOL-9: an allow stands only when nothing around it could be read as another decision.
    if matches!(decision, ReviewerDecision::Allow { .. })
        && outside.iter().any(|t| mentions_a_decision(t))
    {
        return Err(ReplyError::Conflict);
    }
    Ok(decision)
}

/// AR-TOL-9: whether text outside the decision could carry another one: it names `deny` or
/// `decision` in any letter case, or holds a `\u` escape that could spell them.
pub fn mentions_a_decision(text: &str) -> bool {
    let bytes = text.as_bytes();
    let has = |word: &[u8]| {
        bytes
            .windows(word.len())
            .any(|w| w.eq_ignore_ascii_case(word))
    };
    has(b"deny") || has(b"decision") || bytes.windows(2).any(|w| w == b"\\u")
}

/// AR-TOL-4: one outer Markdown fence (```` ``` ```` or `~~~`, with an optional info string on the
/// opening line) is removed. An opening line that holds a `{` is not an info string, so a fence is
/// then left alone rather than cutting into the object.
fn unwrap_fence(text: &str) -> &str {
    let t = text.trim_matches(|c: char| c.is_ascii_whitespace());
    for marker in ["```", "~~~"] {
        if t.len() >= 2 * marker.len() && t.starts_with(marker) && t.ends_with(marker) {
            let inner = &t[marker.len()..t.len() - marker.len()];
            let (info, body) = inner.split_once('\n').unwrap_or(("", inner));
            return if info.contains('{') { text } else { body };
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Risk;

    #[test]
    fn reads_the_one_decision_in_noise() {
        let allow = Ok(ReviewerDecision::Allow { risk: Risk::Low });
        assert_eq!(parse_text(r#"{"risk":"low","decision":"allow"}"#), allow);
        assert_eq!(
            parse_text("\u{feff}```json\n{\"risk\":\"low\",\"decision\":\"allow\"}\n```"),
            allow
        );
        assert_eq!(
            parse_text("I checked. {\"decision\":\"allow\",\"risk\":\"low\"} Done."),
            allow
        );
        assert_eq!(
            parse_text(
                r#"{"risk":"low","decision":"allow"} again {"risk":"low","decision":"allow"}"#
            ),
            allow
        );
        // An object on the opening fence line is not an info string to be cut away.
        assert_eq!(
            parse_text("```text {\"risk\":\"low\",\"decision\":\"allow\"}\nok```"),
            allow
        );
    }

    #[test]
    fn fails_closed_on_doubt() {
        assert_eq!(
            parse_text(r#"{"risk":"low","decision":"allow"} {"risk":"high","decision":"deny"}"#),
            Err(ReplyError::Ambiguous)
        );
        assert_eq!(parse_text("no object here"), Err(ReplyError::NoDecision));
        assert_eq!(
            parse_text(r#"{"risk":"high","decision":"deny",} {"risk":"low","decision":"allow"}"#),
            Err(ReplyError::Malformed)
        );
        assert_eq!(
            parse_text(r#"{"decision":"deny","decision":"allow","risk":"low"}"#),
            Err(ReplyError::Repeated)
        );
        assert_eq!(
            parse_text(r#"{"risk":"low","decision":"Allow"}"#),
            Err(ReplyError::Protocol)
        );
        assert_eq!(
            parse_text(&"{".repeat(MAX_TEXT_BYTES + 1)),
            Err(ReplyError::TooLarge)
        );
    }
}
