//! The resilient profile's tolerant reader (AR-TOL-1..8): forgiving about where the decision sits,
//! strict about what it says. Prose, fences and a byte-order mark around the object are tolerated;
//! the object itself must still be exactly one of the six legal shapes, and any doubt — a tool
//! call, no object, two different objects, a malformed object that mentions a decision — fails
//! closed.

use std::borrow::Cow;

use super::{Reply, ReplyError, ReviewerDecision, json, object, scan};
use crate::scenario::BlockKind;

/// The largest reviewer text the reader looks at, in bytes (AR-TOL-3). Larger text fails closed
/// before any scanning.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// Reads a reply tolerantly.
pub fn read(reply: &Reply<'_>, options: Options) -> Result<ReviewerDecision, ReplyError> {
    // AR-TOL-1: a failed or truncated response carries no decision, as in the strict reader.
    reply.stopped()?;
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
    parse_text_with(&text, options)
}

/// What a deployment can tighten in the tolerant reader (AR-RES-CONFIG-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// An allow must stand alone: only whitespace, a byte-order mark and one fence around it
    /// (AR-TOL-10).
    pub strict_allow: bool,
}

/// Reads one reviewer text tolerantly with the default options (AR-TOL-3..10).
pub fn parse_text(text: &str) -> Result<ReviewerDecision, ReplyError> {
    parse_text_with(text, Options::default())
}

/// Reads one reviewer text tolerantly (AR-TOL-3..10).
pub fn parse_text_with(text: &str, options: Options) -> Result<ReviewerDecision, ReplyError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(ReplyError::TooLarge);
    }
    let whole = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (inner, fenced) = unwrap_fence(whole);
    // `inner` lies within `whole`; spans found in it are mapped back to `whole` so that AR-TOL-9
    // sees every character outside the candidates, fence lines included.
    let base = inner.as_ptr() as usize - whole.as_ptr() as usize;
    let mut candidate: Option<(&str, Vec<json::Member>)> = None;
    let mut taken: Vec<std::ops::Range<usize>> = Vec::new();
    for range in scan::top_level_objects(inner) {
        let span = &inner[range.clone()];
        match object::members_with_repeats(span) {
            Ok(members) => {
                if !members.iter().any(|m| m.name.is("decision")) {
                    continue; // AR-TOL-5: an object without a decision is prose.
                }
                taken.push(base + range.start..base + range.end);
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
    let Some((_, members)) = candidate else {
        return Err(ReplyError::NoDecision);
    };
    // AR-TOL-8: the one decision must still be exactly a legal shape.
    let decision = object::shape(&object::without_repeats(members)?)?;
    if matches!(decision, ReviewerDecision::Allow { .. }) {
        // AR-TOL-9: no brace may stand outside the decision, so a deny in any structured form —
        // nested, quoted, left open, missing a brace, with an odd key — keeps an allow from
        // standing.
        if outside(whole, &taken, 0)
            .iter()
            .any(|t| t.contains('{') || t.contains('}'))
        {
            return Err(ReplyError::Conflict);
        }
        // AR-TOL-10: where configured, nothing but whitespace and one fence may surround it.
        if options.strict_allow {
            let prose = |t: &&str| !t.trim_matches(crate::normalize::is_space).is_empty();
            if outside(inner, &taken, base).iter().any(prose)
                || fenced.is_some_and(|info| !is_plain_info(info))
            {
                return Err(ReplyError::AllowBesideProse);
            }
        }
    }
    Ok(decision)
}

/// The parts of `text`, which starts `base` bytes into the whole text, outside the `taken`
/// ranges of the whole text.
fn outside<'a>(text: &'a str, taken: &[std::ops::Range<usize>], base: usize) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(taken.len() + 1);
    let mut from = 0;
    for r in taken {
        out.push(&text[from..r.start - base]);
        from = r.end - base;
    }
    out.push(&text[from..]);
    out
}

/// A fence's info string that names a language and says nothing else (AR-TOL-10).
fn is_plain_info(info: &str) -> bool {
    info.trim_matches(crate::normalize::is_space)
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '.' | '-'))
}

/// AR-TOL-4: one outer Markdown fence (```` ``` ```` or `~~~`, with an optional info string on the
/// opening line) is removed. An opening line that holds a `{` is not an info string, so a fence is
/// then left alone rather than cutting into the object. Returns the text inside and, when a fence
/// was removed, its info string.
fn unwrap_fence(text: &str) -> (&str, Option<&str>) {
    let t = text.trim_matches(|c: char| c.is_ascii_whitespace());
    for marker in ["```", "~~~"] {
        if t.len() >= 2 * marker.len() && t.starts_with(marker) && t.ends_with(marker) {
            let inner = &t[marker.len()..t.len() - marker.len()];
            let (info, body) = inner.split_once('\n').unwrap_or(("", inner));
            return if info.contains('{') {
                (text, None)
            } else {
                (body, Some(info))
            };
        }
    }
    (text, None)
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
