//! AR-TOL-10 stated independently of the tolerant reader, as a JavaScript gate would write it:
//! `text.trim()` is one legal allow, or one fence with a plain language name around one legal allow
//! and whitespace. The allow itself is judged by the strict reader, which is `JSON.parse`. Shared by
//! the suite's parser properties and the `tolerant_reader` fuzz target.

use autoreview::parse::{ReplyError, ReviewerDecision, strict};

/// Whether a reader's result is an allow.
pub fn is_allow(r: &Result<ReviewerDecision, ReplyError>) -> bool {
    matches!(r, Ok(ReviewerDecision::Allow { .. }))
}

/// Whether `text` is an allow standing alone (AR-TOL-10).
pub fn stands_alone_as_allow(text: &str) -> bool {
    let trim = autoreview::jsstring::trim;
    let t = trim(text);
    let fenced = ["```", "~~~"].iter().find_map(|m| {
        let inner = t.strip_prefix(m)?.strip_suffix(m)?;
        let (info, body) = inner.split_once('\n')?;
        let plain = trim(info)
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_+.-".contains(c));
        plain.then_some(body)
    });
    is_allow(&strict::parse_text(t))
        || fenced.is_some_and(|b| is_allow(&strict::parse_text(trim(b))))
}
