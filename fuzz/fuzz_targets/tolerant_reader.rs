//! The tolerant reader (AR-TOL-3..10) on arbitrary bytes read as lossy UTF-8: it never panics, a
//! text over the bound is too large, and an allow is read only when it stands alone (AR-TOL-10).
#![no_main]

use autoreview::parse::{ReplyError, tolerant};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/oracles/stands_alone.rs"]
mod oracle;
use oracle::{is_allow, stands_alone_as_allow};

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
