//! The tolerant reader (AR-TOL-3..10) on arbitrary bytes read as lossy UTF-8: it never panics, a
//! text over the bound is too large, and an allow is read only when it stands alone (AR-TOL-10).
#![no_main]

use autoreview::jsstring::trim;
use autoreview::parse::{ReplyError, ReviewerDecision, strict, tolerant};
use libfuzzer_sys::fuzz_target;

fn is_allow(r: &Result<ReviewerDecision, ReplyError>) -> bool {
    matches!(r, Ok(ReviewerDecision::Allow { .. }))
}

/// AR-TOL-10's oracle, as in the suite's parser tests: the text, trimmed as ECMAScript trims, is
/// the allow object alone or inside one plain fence.
fn stands_alone_as_allow(text: &str) -> bool {
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

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let read = tolerant::parse_text(&text);
    if text.len() > tolerant::MAX_TEXT_BYTES {
        assert_eq!(read, Err(ReplyError::TooLarge));
        return;
    }
    if is_allow(&read) {
        assert!(stands_alone_as_allow(&text), "{text:?} read as {read:?}");
    }
});
