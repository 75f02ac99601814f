//! The runner's reading of one adapter reply line (`protocol::Reply::parse`, then
//! `protocol::unreadable_line` for the report when it fails) on arbitrary bytes read as lossy
//! UTF-8: it never panics, and an accepted reply writes and reads back equal.
#![no_main]

use autoreview::protocol::{self, Reply};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    // Replacing lone surrogates leaves none behind.
    let replaced = protocol::lone_surrogates_replaced(&line);
    assert!(
        matches!(
            protocol::lone_surrogates_replaced(&replaced),
            std::borrow::Cow::Borrowed(_)
        ),
        "{line:?}"
    );
    match Reply::parse(&line) {
        Ok(reply) => {
            let written = serde_json::to_string(&reply).expect("a reply serializes");
            let again = Reply::parse(&written)
                .unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
            assert_eq!(again, reply, "{written}");
        }
        Err(_) => {
            let _ = protocol::unreadable_line(&line, protocol::Line::Reply);
        }
    }
});
