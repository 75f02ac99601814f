//! How a gate written in JavaScript treats text, in one place: `String(value)` (AR-REVIEW-5,
//! baseline), compact `JSON.stringify(value)` (AR-RES-NORM-1, resilient), with numbers written as
//! ECMAScript's Number::toString writes them (via `ryu-js`), and `String.prototype.trim`
//! (AR-TOL-10).

use serde_json::{Number, Value};
use std::fmt::Write as _;

/// Whether ECMAScript's `trim` removes `c`: its WhiteSpace (the byte-order mark U+FEFF and the
/// space separators included) and its LineTerminators. U+0085 is not among them.
pub fn is_trimmed(c: char) -> bool {
    crate::normalize::is_space(c) || c == '\u{feff}'
}

/// `text.trim()` as ECMAScript defines it.
pub fn trim(text: &str) -> &str {
    text.trim_matches(is_trimmed)
}

/// `String(value)` for a JSON value, as ECMAScript defines it: arrays join their elements with
/// `,` (null elements become empty), objects become `[object Object]`.
pub fn js_string(v: &Value) -> String {
    let mut out = String::new();
    push_js_string(&mut out, v);
    out
}

fn push_js_string(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&js_number(number_value(n))),
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            // Array.prototype.join(","): null and undefined elements become "".
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !item.is_null() {
                    push_js_string(out, item);
                }
            }
        }
        Value::Object(_) => out.push_str("[object Object]"),
    }
}

/// ECMAScript `Number::toString(x)`: shortest round-trip digits, decimal notation for decimal
/// exponents in [-7, 21), exponent notation (`1e+21`, `1.5e-7`) otherwise, `-0` as `0`, and
/// `NaN`, `Infinity`, `-Infinity`.
pub fn js_number(x: f64) -> String {
    ryu_js::Buffer::new().format(x).to_owned()
}

/// The array index a property name denotes in ECMAScript: the canonical decimal text of an integer
/// below 2^32 − 1 (no sign, no leading zero but `0` itself).
fn array_index(name: &str) -> Option<u32> {
    let canonical = !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_digit())
        && (name == "0" || !name.starts_with('0'));
    name.parse::<u32>()
        .ok()
        .filter(|n| canonical && *n < u32::MAX)
}

/// Compact `JSON.stringify(value)`: no whitespace, object members in the order an ECMAScript object
/// keeps them (array-index names first, ascending, then the others in the order the value gives
/// them), strings escaped as JSON.stringify escapes them, numbers as [`js_number`].
pub fn json_stringify(v: &Value) -> String {
    let mut out = String::new();
    push_json(&mut out, v);
    out
}

fn push_json(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&json_number(number_value(n))),
        Value::String(s) => push_json_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json(out, item);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            // OrdinaryOwnPropertyKeys: integer indices ascending, then insertion order. A gate
            // that parses the value and stringifies it sees this order, so the reference does too.
            let mut ordered: Vec<(&String, &Value)> = members.iter().collect();
            ordered.sort_by_key(|(name, _)| array_index(name).unwrap_or(u32::MAX));
            for (i, (name, value)) in ordered.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, name);
                out.push(':');
                push_json(out, value);
            }
            out.push('}');
        }
    }
}

/// `JSON.stringify` of a number: non-finite numbers become `null`, finite ones as
/// Number::toString writes them.
pub fn json_number(x: f64) -> String {
    if x.is_finite() {
        js_number(x)
    } else {
        "null".into()
    }
}

/// ECMAScript QuoteJSONString: only `"`, `\` and controls below U+0020 are escaped (`\b \t \n \f
/// \r` by name, the rest as lowercase `\u00xx`); lone surrogates, the only other escapes, cannot
/// occur in a Rust string.
fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The double a JSON number denotes, as `JSON.parse` reads it: integers beyond 2^53 round to the
/// nearest double, as the decimal text would.
fn number_value(n: &Number) -> f64 {
    // Without serde_json's `arbitrary_precision` every number has an f64 form; u64 and i64 convert
    // with round-to-nearest-even, which is what parsing their decimal text gives.
    n.as_f64().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_follow_ecmascript() {
        // Expected strings are what `String(x)` prints in any ECMAScript engine.
        for (x, want) in [
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
            (123456789.0, "123456789"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (1e20, "100000000000000000000"),
            (0.000001, "0.000001"),
            (0.0000001, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (12345678901234567890.0, "12345678901234567000"),
            (-0.0, "0"),
            // A tie in the shortest digits: ECMAScript picks the digit closest to the exact value.
            (197176774147147.62, "197176774147147.62"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ] {
            assert_eq!(js_number(x), want, "String({x})");
        }
        assert_eq!(json_number(f64::INFINITY), "null");
        assert_eq!(json_number(-0.0), "0");
    }

    #[test]
    fn values_follow_ecmascript() {
        assert_eq!(js_string(&json!({"message": "x"})), "[object Object]");
        assert_eq!(
            js_string(&json!([1, null, "a", [2, 3], {}, 100.0, [null]])),
            "1,,a,2,3,[object Object],100,"
        );
        assert_eq!(js_string(&json!(null)), "null");
        assert_eq!(js_string(&json!(true)), "true");
        assert_eq!(
            js_string(&json!("middleware refused")),
            "middleware refused"
        );
        assert_eq!(js_string(&json!([])), "");
    }

    #[test]
    fn json_stringify_is_compact_and_keeps_member_order() {
        // Expected strings are what `JSON.stringify` prints for the same value in Node.
        let v: Value =
            serde_json::from_str(r#"{"z":100.0,"a":[1.0,-0.0,1e21,{"b":null,"c":[]}],"m":{}}"#)
                .unwrap();
        assert_eq!(
            json_stringify(&v),
            r#"{"z":100,"a":[1,0,1e+21,{"b":null,"c":[]}],"m":{}}"#
        );
        assert_eq!(json_stringify(&json!([])), "[]");
        assert_eq!(json_stringify(&json!(false)), "false");
        assert_eq!(json_stringify(&json!(0.000001)), "0.000001");
        assert_eq!(json_stringify(&json!(1.5e-7)), "1.5e-7");
    }

    #[test]
    fn json_stringify_escapes_as_javascript() {
        let s = "q\"b\\s/\u{8}\t\n\u{b}\u{c}\r\u{0}\u{1f}\u{7f}\u{80}\u{2028}\u{feff}é😀";
        assert_eq!(
            json_stringify(&json!(s)),
            "\"q\\\"b\\\\s/\\b\\t\\n\\u000b\\f\\r\\u0000\\u001f\u{7f}\u{80}\u{2028}\u{feff}é😀\""
        );
        assert_eq!(
            json_stringify(&json!({"a\nb": ["\u{1b}[31m"]})),
            r#"{"a\nb":["\u001b[31m"]}"#
        );
    }
}

#[cfg(test)]
mod key_order {
    use super::*;

    #[test]
    fn array_index_names_come_first_as_in_javascript() {
        // Node: JSON.stringify(JSON.parse(text)) for the same text.
        let v: Value = serde_json::from_str(
            r#"{"b":1,"10":2,"2":3,"01":4,"-1":5,"4294967295":6,"4294967294":7,"0":8}"#,
        )
        .unwrap();
        assert_eq!(
            json_stringify(&v),
            r#"{"0":8,"2":3,"10":2,"4294967294":7,"b":1,"01":4,"-1":5,"4294967295":6}"#
        );
    }

    #[test]
    fn trim_removes_exactly_what_ecmascript_trim_removes() {
        // Every code point for which `String.fromCodePoint(c).trim() === ""` in Node.js 20
        // (Unicode 17): WhiteSpace and LineTerminator.
        let js: &[u32] = &[
            0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
            0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
            0xfeff,
        ];
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            assert_eq!(
                is_trimmed(c),
                js.contains(&(c as u32)),
                "U+{:04X}",
                c as u32
            );
        }
        assert_eq!(trim("\u{feff} \u{3000}x\u{85}\u{2028}"), "x\u{85}");
    }
}
