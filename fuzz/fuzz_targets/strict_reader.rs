//! The strict reader (AR-PARSE-4..7) on arbitrary bytes read as lossy UTF-8: it never panics, and
//! what it reads is JSON that serde_json reads the same way.
#![no_main]

use autoreview::parse::{ReviewerDecision, Risk, strict};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let read = strict::parse_text(&text);
    let Ok(decision) = read else { return };
    // An allow has exactly two string members whose decoded values are fixed, so no lone
    // surrogate, number or nesting (where JSON.parse and serde_json differ) can be in it.
    if let ReviewerDecision::Allow { risk } = decision {
        let risk = match risk {
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => panic!("an allow read at high risk: {text:?}"),
        };
        let value: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("an allow serde_json rejects ({e}): {text:?}"));
        assert_eq!(
            value,
            json!({"decision": "allow", "risk": risk}),
            "{text:?}"
        );
    } else {
        // A deny's reason may hold a lone surrogate escape, which JSON.parse accepts and serde_json
        // does not; written as U+FFFD, as the runner reads an adapter's line, it is an object.
        let line = autoreview::protocol::lone_surrogates_replaced(&text);
        let value: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("a deny serde_json rejects ({e}): {text:?}"));
        assert!(value.is_object(), "{text:?}");
    }
});
