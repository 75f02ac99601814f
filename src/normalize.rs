//! Failure messages made readable and safe (AR-RES-NORM-1..4, resilient profile): any JSON value
//! becomes a string without `[object Object]`, whitespace runs collapse, control and bidirectional
//! formatting characters are escaped, and the text is capped.

use crate::jsstring::json_stringify;
use serde_json::Value;

/// The longest normalized message, in characters, ellipsis included (AR-RES-NORM-4).
pub const MAX_CHARS: usize = 400;

/// AR-RES-NORM-1: a string stays itself; an object with a string `message` member gives that
/// member; anything else gives its compact JSON as `JSON.stringify` writes it.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(m) => match m.get("message") {
            Some(Value::String(s)) => s.clone(),
            _ => json_stringify(v),
        },
        other => json_stringify(other),
    }
}

/// Whether `c` is escaped rather than shown (AR-RES-NORM-3): C0 and C1 controls, DEL, and the
/// characters that reorder or hide text (bidirectional embeddings, overrides, isolates and marks,
/// zero-width joiners, the byte-order mark).
pub fn is_hidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// Normalizes a message: whitespace runs become one space and the ends are trimmed
/// (AR-RES-NORM-2), hidden characters are written as `\u{XXXX}` (AR-RES-NORM-3), and the result is
/// cut to [`MAX_CHARS`] characters ending in `…` (AR-RES-NORM-4).
pub fn message(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_CHARS * 4));
    let mut count = 0usize;
    let mut pending_space = false;
    let mut truncated = false;
    for c in text.chars() {
        if c.is_whitespace() {
            pending_space = count > 0;
            continue;
        }
        let mut piece = String::new();
        if pending_space {
            piece.push(' ');
            pending_space = false;
        }
        if is_hidden(c) {
            piece.push_str(&format!("\\u{{{:04x}}}", c as u32));
        } else {
            piece.push(c);
        }
        let n = piece.chars().count();
        if count + n > MAX_CHARS - 1 {
            truncated = true;
            break;
        }
        out.push_str(&piece);
        count += n;
    }
    if truncated {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_become_readable_text() {
        assert_eq!(
            value_text(&json!({"message": "socket closed", "code": 1})),
            "socket closed"
        );
        assert_eq!(
            value_text(&json!({"code": "ECONNRESET"})),
            r#"{"code":"ECONNRESET"}"#
        );
        assert_eq!(value_text(&json!([1, "a"])), r#"[1,"a"]"#);
        // Numbers as JSON.stringify writes them, not as serde_json does (`100.0`, `-0.0`).
        assert_eq!(
            value_text(&json!({"status": 100.0, "retry": -0.0, "big": 1e21})),
            r#"{"status":100,"retry":0,"big":1e+21}"#
        );
        assert_eq!(value_text(&json!(1.0)), "1");
        assert_eq!(value_text(&json!({"message": 5})), r#"{"message":5}"#);
        assert_eq!(value_text(&json!(null)), "null");
        assert_eq!(value_text(&json!("plain")), "plain");
    }

    #[test]
    fn whitespace_collapses_and_hidden_characters_are_escaped() {
        assert_eq!(message("  a \n\t b  "), "a b");
        assert_eq!(message("x\u{202e}y\u{7}"), "x\\u{202e}y\\u{0007}");
        let long = "z".repeat(1000);
        let m = message(&long);
        assert_eq!(m.chars().count(), MAX_CHARS);
        assert!(m.ends_with('…'));
        assert_eq!(
            message(&"z".repeat(MAX_CHARS - 1)).chars().count(),
            MAX_CHARS - 1
        );
    }
}
