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

/// Whitespace as the resilient profile reads it (AR-RES-NORM-2, AR-TOL-10): Unicode White_Space
/// without U+0085, which is the same set as ECMAScript's `\s` without U+FEFF. U+0085 is a C1
/// control and U+FEFF a hidden character: both are escaped (AR-RES-NORM-3), never collapsed.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() && c != '\u{85}'
}

/// Normalizes a message: whitespace runs become one space and the ends are trimmed
/// (AR-RES-NORM-2), hidden characters are written as `\u{XXXX}` (AR-RES-NORM-3), and a result
/// longer than [`MAX_CHARS`] characters is cut to `MAX_CHARS - 1` of them followed by `…`
/// (AR-RES-NORM-4), wherever the cut falls, an escape included. Linear; the work past the cut is
/// only counted.
pub fn message(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_CHARS * 4));
    let mut count = 0usize;
    let mut pending_space = false;
    let push = |out: &mut String, count: &mut usize, c: char| {
        if *count < MAX_CHARS + 1 {
            out.push(c);
        }
        *count += 1;
    };
    for c in text.chars() {
        if is_space(c) {
            pending_space = count > 0;
            continue;
        }
        if pending_space {
            push(&mut out, &mut count, ' ');
            pending_space = false;
        }
        if is_hidden(c) {
            for e in format!("\\u{{{:04x}}}", c as u32).chars() {
                push(&mut out, &mut count, e);
            }
        } else {
            push(&mut out, &mut count, c);
        }
        if count > MAX_CHARS {
            break; // longer than the bound: the cut below decides the rest
        }
    }
    if count > MAX_CHARS {
        out = out.chars().take(MAX_CHARS - 1).collect();
        out.push('…');
    }
    out
}

/// The length in characters of `text` normalized before any cut (AR-RES-NORM-2, AR-RES-NORM-3):
/// [`message`] cuts `text` when this is over [`MAX_CHARS`] (AR-RES-NORM-4).
pub fn normalized_chars(text: &str) -> usize {
    let mut count = 0usize;
    let mut pending_space = false;
    for c in text.chars() {
        if is_space(c) {
            pending_space = count > 0;
            continue;
        }
        count += usize::from(pending_space);
        pending_space = false;
        count += if is_hidden(c) {
            format!("\\u{{{:04x}}}", c as u32).chars().count()
        } else {
            1
        };
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `normalized_chars` is the length `message` gives a text it does not cut, and over the bound
    /// exactly when `message` cuts: around the bound, with escapes and spaces.
    #[test]
    fn normalized_chars_agrees_with_message() {
        let texts = [
            "y".repeat(400),
            "y".repeat(401),
            format!("{}\u{7}", "y".repeat(393)),
            format!("{}\u{7}", "y".repeat(394)),
            format!("  {}  ", "y ".repeat(200)),
            format!("{} y", "y".repeat(398)),
        ];
        for t in &texts {
            let m = message(t);
            let cut = m.chars().count() == MAX_CHARS && m.ends_with('…');
            let n = normalized_chars(t);
            assert_eq!(n > MAX_CHARS, cut, "{t:?}");
            if !cut {
                assert_eq!(n, m.chars().count(), "{t:?}");
            }
        }
        assert_eq!(normalized_chars(&"y".repeat(401)), 401);
        assert_eq!(normalized_chars(" a \t\u{7}b "), "a \\u{0007}b".len());
    }

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
        // Exactly at the bound nothing is cut; one past it is cut to 399 and the ellipsis.
        assert_eq!(message(&"z".repeat(MAX_CHARS)), "z".repeat(MAX_CHARS));
        let m = message(&format!("{} y", "z".repeat(MAX_CHARS - 2)));
        assert_eq!(
            m.chars().count(),
            MAX_CHARS,
            "a collapsed space counts once: {m}"
        );
        assert!(m.ends_with(" y"));
        assert_eq!(
            message(&"z".repeat(MAX_CHARS + 1)).chars().count(),
            MAX_CHARS
        );
        // The cut is literal, even inside an escape.
        let m = message(&format!("{}\u{202e}", "z".repeat(MAX_CHARS - 3)));
        assert_eq!(m, format!("{}\\u…", "z".repeat(MAX_CHARS - 3)));
        // U+0085 is a control to escape, not whitespace; U+00A0 is whitespace.
        assert_eq!(message("a\u{85}b\u{a0}c"), "a\\u{0085}b c");
    }
}
