//! The resilient profile's tolerant reader (AR-TOL-1..10): forgiving about where a deny sits,
//! strict about what a decision says and about what may surround an allow. Prose, fences and a
//! byte-order mark around a deny are tolerated; an allow stands only alone (AR-TOL-10). The object
//! itself must still be exactly one of the six legal shapes, and any doubt — a tool call, no
//! object, two different objects, a malformed object that mentions a decision — fails closed.

use std::borrow::Cow;

use super::json::{Known, Object};
use super::{Reply, ReplyError, ReviewerDecision, object, scan};
use crate::jsstring;
use crate::scenario::BlockKind;

/// The largest reviewer text the reader looks at, in bytes (AR-TOL-3). Larger text fails closed
/// before any scanning.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// Reads a reply tolerantly.
pub fn read(reply: &Reply<'_>) -> Result<ReviewerDecision, ReplyError> {
    // AR-TOL-1: a failed or truncated response carries no decision, as in the strict reader.
    reply.stopped()?;
    // AR-TOL-2: a tool call is never a decision; reasoning is never read; texts join in order.
    if reply.blocks.iter().any(|b| b.kind == BlockKind::ToolCall) {
        return Err(ReplyError::ToolCall);
    }
    let texts = text_blocks(reply);
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

/// What a reply refused as too large (AR-TOL-3) says when read by the rest of the reader's rules
/// (AR-TOL-4..10), the bound lifted: not a decision a gate may take, but what the judge needs to
/// tell a body run on an allow read past the bound from one nobody allowed (`spec/protocol.md`,
/// "Severities"). Linear like the bounded reading; `None` for a reply the bound did not refuse.
pub fn past_the_bound(reply: &Reply<'_>) -> Option<Result<ReviewerDecision, ReplyError>> {
    if read(reply) != Err(ReplyError::TooLarge) {
        return None;
    }
    Some(unbounded(&text_blocks(reply).concat()))
}

/// The texts of `reply`'s text blocks, in order: what AR-TOL-2 joins.
pub fn text_blocks<'r>(reply: &Reply<'r>) -> Vec<&'r str> {
    reply
        .blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Text)
        .map(|b| b.text)
        .collect()
}

/// Reads one reviewer text tolerantly (AR-TOL-3..10).
pub fn parse_text(text: &str) -> Result<ReviewerDecision, ReplyError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(ReplyError::TooLarge);
    }
    unbounded(text)
}

/// [`parse_text`] without the size bound (AR-TOL-4..10).
fn unbounded(text: &str) -> Result<ReviewerDecision, ReplyError> {
    let whole = text.strip_prefix('\u{feff}').unwrap_or(text);
    let inner = unwrap_fence(whole);
    // `inner` lies within `whole`; spans found in it are mapped back to `whole` so that AR-TOL-9
    // sees every character outside the candidates, fence lines included.
    let base = inner.as_ptr() as usize - whole.as_ptr() as usize;
    let mut candidate: Option<(&str, Object<'_>)> = None;
    let mut taken: Vec<std::ops::Range<usize>> = Vec::new();
    for range in scan::top_level_objects(inner) {
        let span = &inner[range.clone()];
        match object::object(span) {
            Ok(members) => {
                if members.get(Known::Decision).is_none() {
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
    let Some((candidate_span, members)) = candidate else {
        return Err(ReplyError::NoDecision);
    };
    // AR-TOL-8: the one decision must still be exactly a legal shape.
    let decision = object::shape(&object::without_repeats(members)?)?;
    if matches!(decision, ReviewerDecision::Allow { .. }) {
        // AR-TOL-9: no brace may stand outside the decision, so a deny in any structured form —
        // nested, quoted, left open, missing a brace, with an odd key — keeps an allow from
        // standing.
        if outside(whole, &taken)
            .iter()
            .any(|t| t.contains('{') || t.contains('}'))
        {
            return Err(ReplyError::Conflict);
        }
        // AR-TOL-10: an allow stands alone. Words are never read, so a refusal written around a
        // quoted allow must not become that allow.
        if !stands_alone(text, candidate_span) {
            return Err(ReplyError::AllowBesideProse);
        }
    }
    Ok(decision)
}

/// The parts of `text` outside its `taken` ranges (in order, disjoint).
fn outside<'a>(text: &'a str, taken: &[std::ops::Range<usize>]) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(taken.len() + 1);
    let mut from = 0;
    for r in taken {
        out.push(&text[from..r.start]);
        from = r.end;
    }
    out.push(&text[from..]);
    out
}

/// AR-TOL-10: the text, trimmed as ECMAScript's `trim` trims, is the allow object itself, or one
/// fence — ```` ``` ```` or `~~~`, a plain language name on its opening line — around nothing but
/// the allow object and whitespace. Written once: a second copy is something else.
fn stands_alone(text: &str, object: &str) -> bool {
    let t = jsstring::trim(text);
    if t == object {
        return true;
    }
    ["```", "~~~"].iter().any(|marker| {
        t.len() >= 2 * marker.len()
            && t.starts_with(marker)
            && t.ends_with(marker)
            && t[marker.len()..t.len() - marker.len()]
                .split_once('\n')
                .is_some_and(|(info, body)| is_plain_info(info) && jsstring::trim(body) == object)
    })
}

/// A fence's info string that names a language and says nothing else (AR-TOL-10): letters,
/// digits, `_`, `+`, `.` and `-`, perhaps with whitespace around.
pub(crate) fn is_plain_info(info: &str) -> bool {
    jsstring::trim(info)
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '.' | '-'))
}

/// AR-TOL-4: one outer Markdown fence (```` ``` ```` or `~~~`, with an optional info string on the
/// opening line) is removed. An opening line that holds a `{` is not an info string, so a fence is
/// then left alone rather than cutting into the object. Returns the text inside.
pub(crate) fn unwrap_fence(text: &str) -> &str {
    match fence(text) {
        Some((info, body)) if !info.contains('{') => body,
        _ => text,
    }
}

/// The opening line (after the marker) and the body of the outer fence of `text`, when `text`
/// trimmed of ASCII whitespace starts and ends with the same fence marker (AR-TOL-4), whatever its
/// opening line holds.
fn fence(text: &str) -> Option<(&str, &str)> {
    let t = text.trim_matches(|c: char| c.is_ascii_whitespace());
    ["```", "~~~"].into_iter().find_map(|marker| {
        (t.len() >= 2 * marker.len() && t.starts_with(marker) && t.ends_with(marker)).then(|| {
            let inner = &t[marker.len()..t.len() - marker.len()];
            inner.split_once('\n').unwrap_or(("", inner))
        })
    })
}

/// Whether AR-TOL-4's proviso decides how `text` reads: its outer fence is left as it stands
/// because the opening line holds a `{`, and a reader that removed that fence with its opening
/// line anyway would read the text otherwise (another decision, or another failure, or none). A
/// text over the bound is refused before any fence is looked at (AR-TOL-3).
pub fn fence_line_with_brace_decides(text: &str) -> bool {
    if text.len() > MAX_TEXT_BYTES {
        return false;
    }
    let whole = text.strip_prefix('\u{feff}').unwrap_or(text);
    match fence(whole) {
        Some((info, body)) if info.contains('{') => parse_text(text) != parse_text(body),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Risk;

    /// Fence markers that overlap (five backticks both start and end with three) are no fence
    /// to take apart (AR-TOL-4): the text is read as it is and holds no decision.
    #[test]
    fn overlapping_fence_markers_are_read_as_they_stand() {
        for text in ["`````", "~~~~~", "````", "``````", " ````` "] {
            assert_eq!(parse_text(text), Err(ReplyError::NoDecision), "{text:?}");
        }
    }

    /// The proviso decides only where the opening line holds a `{` and reading the text without
    /// that line would come to something else.
    #[test]
    fn a_fence_line_with_a_brace_decides_only_where_cutting_it_reads_otherwise() {
        let deny = r#"{"risk":"high","decision":"deny"}"#;
        let allow = r#"{"risk":"low","decision":"allow"}"#;
        for (text, decides) in [
            // No fence, or one whose opening line holds no brace: the fence is removed.
            (format!("{deny}\n{allow}"), false),
            (format!("```json\n{allow}\n```"), false),
            (format!("\u{feff}~~~\n{deny}\n~~~"), false),
            // The deny on the opening line stays and makes two candidates; cut, the allow stands.
            (format!("```{deny}\n{allow}\n```"), true),
            (format!("\u{feff} ~~~json {deny}\n{allow}\n~~~ "), true),
            // Cut, the one deny would be gone.
            (format!("```{deny}\n```"), true),
            // The same deny either way.
            (format!("```{{}}\n{deny}\n```"), false),
            (format!("```{deny}\n{deny}\n```"), false),
            // Different markers are no fence.
            (format!("```{deny}\n{allow}\n~~~"), false),
        ] {
            assert_eq!(fence_line_with_brace_decides(&text), decides, "{text:?}");
        }
    }

    #[test]
    fn reads_the_one_decision_in_noise() {
        let allow = Ok(ReviewerDecision::Allow { risk: Risk::Low });
        assert_eq!(parse_text(r#"{"risk":"low","decision":"allow"}"#), allow);
        assert_eq!(
            parse_text("\u{feff}```json\n{\"risk\":\"low\",\"decision\":\"allow\"}\n```"),
            allow
        );
        assert_eq!(
            parse_text(" \u{3000}\n{\"decision\":\"allow\",\"risk\":\"low\"}\t"),
            allow
        );
        let deny = Ok(ReviewerDecision::Deny {
            risk: Risk::High,
            reason: None,
        });
        assert_eq!(
            parse_text(r#"I refuse. {"risk":"high","decision":"deny"} Done."#),
            deny
        );
        assert_eq!(
            parse_text(
                r#"{"risk":"high","decision":"deny"} again {"risk":"high","decision":"deny"}"#
            ),
            deny
        );
    }

    #[test]
    fn an_allow_stands_only_alone() {
        let beside = Err(ReplyError::AllowBesideProse);
        assert_eq!(
            parse_text("I checked. {\"decision\":\"allow\",\"risk\":\"low\"} Done."),
            beside
        );
        assert_eq!(
            parse_text(r#"{"risk":"low","decision":"allow"} {"risk":"low","decision":"allow"}"#),
            beside
        );
        assert_eq!(
            parse_text("```json title=x\n{\"risk\":\"low\",\"decision\":\"allow\"}\n```"),
            beside
        );
        // An object on the opening fence line is not an info string to be cut away, so the fence
        // markers stay in the text as prose.
        assert_eq!(
            parse_text("```text {\"risk\":\"low\",\"decision\":\"allow\"}\nok```"),
            beside
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
