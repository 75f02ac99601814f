//! Scenario text every JSON reader reads alike (`spec/scenario.md`, numbers and members): no member
//! named twice in any object, and no integer beyond ±(2^53 − 1). A JSON reader keeps either the
//! first or the last of two same-named members, and a JavaScript adapter reads a larger integer as
//! the nearest double, so such a scenario would mean one thing to the reference and another to the
//! implementation under test. Text no reader takes as it stands (a leading byte-order mark, a
//! lone surrogate escape) is named here too, with where it is and what to do.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// The largest integer every JSON implementation reads exactly (I-JSON, RFC 7493).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Why a scenario text is not one every reader reads alike: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inexact {
    /// The member's path (`session.route`, `reviewer[1].throw`), empty at the top level.
    pub path: String,
    /// What was wrong.
    pub message: String,
}

/// The characters JSON allows between tokens.
const JSON_WHITESPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// Checks a whole JSON text. A text that is not JSON passes, unless it starts with a byte-order
/// mark or holds a lone surrogate escape, which are named here with their remedy; any other
/// syntax error is left to the scenario reader, which reports it with its own message.
pub fn check(text: &str) -> Result<(), Inexact> {
    if text
        .trim_start_matches(JSON_WHITESPACE)
        .starts_with('\u{feff}')
    {
        return Err(Inexact {
            path: String::new(),
            message: "the text starts with a byte-order mark (U+FEFF); remove it (write UTF-8 \
                      without a BOM)"
                .to_owned(),
        });
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let mut found = None;
    let _ = Walk {
        path: String::new(),
        found: &mut found,
    }
    .deserialize(&mut de);
    match found {
        Some(Found::Problem(e)) => Err(e),
        Some(Found::Unreadable {
            path,
            in_name,
            error,
        }) if is_surrogate_error(&error) => match lone_surrogates(text).next() {
            Some(at) => {
                let escape = text.get(at..at + 6).unwrap_or("\\u");
                Err(Inexact {
                    path,
                    message: if in_name {
                        format!(
                            "a member name holds {escape}, a lone surrogate escape, which a \
                             scenario cannot carry (a member name must be valid Unicode)"
                        )
                    } else {
                        format!(
                            "{escape} is a lone surrogate escape, which a scenario cannot carry \
                             (a string must be valid Unicode)"
                        )
                    },
                })
            }
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// Whether serde_json stopped at a lone surrogate escape: these are the two messages it gives for
/// one, and it gives them for nothing else.
fn is_surrogate_error(message: &str) -> bool {
    message.starts_with("lone leading surrogate in hex escape")
        || message.starts_with("unexpected end of hex escape")
}

/// The kind of a JSON text that is plainly not an object (`an array`, `a string`, `a number`,
/// `a boolean`, `null`), judged by its first character (or, for a literal, the whole text); `None`
/// for an object or for text this cannot tell.
pub fn not_an_object(text: &str) -> Option<&'static str> {
    let t = text.trim_matches(JSON_WHITESPACE);
    match t.as_bytes().first()? {
        b'[' => Some("an array"),
        b'"' => Some("a string"),
        b'-' | b'0'..=b'9' => Some("a number"),
        _ => match t {
            "true" | "false" => Some("a boolean"),
            "null" => Some("null"),
            _ => None,
        },
    }
}

/// The byte offsets of the `\uXXXX` escapes inside JSON strings that are not half of a surrogate
/// pair, in order. A high surrogate escape directly followed by a low one is a pair; an escaped
/// backslash (`\\ud800`) is not an escape of `u`. One pass, no allocation.
pub fn lone_surrogates(text: &str) -> LoneSurrogates<'_> {
    LoneSurrogates {
        text,
        at: 0,
        in_string: false,
    }
}

/// The iterator of [`lone_surrogates`].
pub struct LoneSurrogates<'t> {
    text: &'t str,
    at: usize,
    in_string: bool,
}

impl LoneSurrogates<'_> {
    /// The UTF-16 unit of a `\uXXXX` escape starting at `at`, if there is one.
    fn unit(&self, at: usize) -> Option<u16> {
        let b = self.text.as_bytes();
        if b.get(at) != Some(&b'\\') || b.get(at + 1) != Some(&b'u') {
            return None;
        }
        let hex = self.text.get(at + 2..at + 6)?;
        if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        u16::from_str_radix(hex, 16).ok()
    }
}

impl Iterator for LoneSurrogates<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let b = self.text.as_bytes();
        while let Some(&c) = b.get(self.at) {
            let i = self.at;
            match c {
                b'"' => {
                    self.in_string = !self.in_string;
                    self.at += 1;
                }
                b'\\' if self.in_string => match self.unit(i) {
                    Some(0xD800..=0xDBFF) if matches!(self.unit(i + 6), Some(0xDC00..=0xDFFF)) => {
                        self.at += 12;
                    }
                    Some(0xD800..=0xDFFF) => {
                        self.at += 6;
                        return Some(i);
                    }
                    Some(_) => self.at += 6,
                    // Any other escape is two bytes; `\\` must not start an escape of what follows.
                    None => self.at += 2,
                },
                _ => self.at += 1,
            }
        }
        None
    }
}

/// What the walk found first: a problem of this module's, or the place where the text stopped
/// being readable JSON (whose reason [`check`] names when it is a lone surrogate).
enum Found {
    Problem(Inexact),
    Unreadable {
        path: String,
        /// The text stopped inside a member name, not a value.
        in_name: bool,
        error: String,
    },
}

/// One value at `path`; the first problem found is kept in `found` and ends the walk.
struct Walk<'f> {
    path: String,
    found: &'f mut Option<Found>,
}

/// The visitor of one value: it borrows the path, which the value's [`Walk`] keeps, so that the
/// walk still knows where it was when the text turns out not to be JSON.
struct Visit<'a> {
    path: &'a str,
    found: &'a mut Option<Found>,
}

impl Visit<'_> {
    fn fail<E: de::Error>(self, message: String) -> Result<(), E> {
        *self.found = Some(Found::Problem(Inexact {
            path: self.path.to_owned(),
            message,
        }));
        Err(E::custom("stop"))
    }

    fn integer<E: de::Error>(self, magnitude: u64, text: impl fmt::Display) -> Result<(), E> {
        if magnitude > MAX_SAFE_INTEGER {
            return self.fail(format!(
                "the integer {text} is beyond ±(2^53 − 1), which a JavaScript reader cannot hold exactly; write a smaller one, or a decimal"
            ));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let Walk { path, found } = self;
        let result = d.deserialize_any(Visit {
            path: &path,
            found: &mut *found,
        });
        if let Err(e) = &result
            && found.is_none()
        {
            *found = Some(Found::Unreadable {
                path,
                in_name: false,
                error: e.to_string(),
            });
        }
        result
    }
}

impl<'de> Visitor<'de> for Visit<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.integer(v, v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.integer(v.unsigned_abs(), v)
    }

    // A number serde_json reads as a double is read as the same double by every reader.
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        loop {
            let item = Walk {
                path: format!("{}[{i}]", self.path),
                found: &mut *self.found,
            };
            if seq.next_element_seed(item)?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        loop {
            let key = match map.next_key::<String>() {
                Ok(Some(key)) => key,
                Ok(None) => return Ok(()),
                Err(e) => {
                    if self.found.is_none() {
                        *self.found = Some(Found::Unreadable {
                            path: self.path.to_owned(),
                            in_name: true,
                            error: e.to_string(),
                        });
                    }
                    return Err(e);
                }
            };
            let path = if self.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.path)
            };
            if !seen.insert(key.clone()) {
                return self.fail(format!(
                    "the member {key:?} appears twice; JSON readers disagree on which one counts, so name each member once"
                ));
            }
            map.next_value_seed(Walk {
                path,
                found: &mut *self.found,
            })?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> Option<(String, String)> {
        check(text).err().map(|e| (e.path, e.message))
    }

    #[test]
    fn duplicates_are_found_at_any_depth_with_their_path() {
        assert_eq!(problem(r#"{"a":1,"b":{"c":[{"d":1}]}}"#), None);
        let (path, message) = problem(r#"{"tool":{"name":"a","name":"b"}}"#).unwrap();
        assert_eq!(path, "tool");
        assert!(message.contains("\"name\" appears twice"), "{message}");
        let (path, _) = problem(
            r#"{"reviewer":[{"text":"a"},{"blocks":[{"type":"text","text":"x","text":"y"}]}]}"#,
        )
        .unwrap();
        assert_eq!(path, "reviewer[1].blocks[0]");
        // Names are compared after decoding: an escape does not make a second name.
        assert!(problem(r#"{"decision":1,"d\u0065cision":2}"#).is_some());
    }

    #[test]
    fn integers_beyond_the_safe_range_are_refused_and_doubles_are_not() {
        assert_eq!(problem("9007199254740991"), None);
        assert_eq!(problem("-9007199254740991"), None);
        let (_, message) = problem(r#"{"x":9007199254740992}"#).unwrap();
        assert!(message.contains("9007199254740992"), "{message}");
        assert!(problem("-9007199254740992").is_some());
        assert!(problem(r#"{"delay_ms":18446744073709551615}"#).is_some());
        // Beyond u64 serde_json reads a double, as every reader does.
        assert_eq!(
            problem("1e400"),
            None,
            "not JSON a scenario accepts, but not this check's"
        );
        assert_eq!(problem("9007199254740993.5"), None);
        assert_eq!(problem("1e19"), None);
    }

    #[test]
    fn text_that_is_not_json_is_left_to_the_reader() {
        assert_eq!(problem("{"), None);
        assert_eq!(problem(""), None);
        assert_eq!(
            problem(r#"{"a":1 "b":"\ud800"}"#),
            None,
            "it stops before the escape"
        );
    }

    #[test]
    fn a_byte_order_mark_is_named_wherever_the_text_starts() {
        for text in ["\u{feff}{}", " \r\n\u{feff}{\"a\":1}", "\u{feff}"] {
            let (path, message) = problem(text).unwrap();
            assert_eq!(path, "");
            assert!(message.starts_with("the text starts with a byte-order mark (U+FEFF)"));
        }
        assert_eq!(
            problem("{\"a\":\"\u{feff}\"}"),
            None,
            "inside a string it is a character"
        );
    }

    #[test]
    fn a_lone_surrogate_is_named_at_its_path() {
        let lone =
            |text: &str| problem(text).map(|(p, m)| (p, m.split(' ').next().unwrap().to_owned()));
        let at = |p: &str, e: &str| Some((p.to_owned(), e.to_owned()));
        assert_eq!(
            lone(r#"{"a":{"b":["x","\ud800"]}}"#),
            at("a.b[1]", r"\ud800")
        );
        assert_eq!(lone(r#"{"a":"\uDBFF\n"}"#), at("a", r"\uDBFF"));
        assert_eq!(lone(r#"{"a":"\udc00\ud800"}"#), at("a", r"\udc00"));
        assert_eq!(lone(r#""\ud800""#), at("", r"\ud800"));
        // In a member name, the path is the object's.
        let (path, message) = problem(r#"{"a":{"\ud800":1}}"#).unwrap();
        assert_eq!(path, "a");
        assert!(message.starts_with(r"a member name holds \ud800, a lone surrogate escape"));
        // Pairs and escaped backslashes are not lone surrogates.
        assert_eq!(problem(r#"{"a":"\ud83d\ude00 \\ud800 \\\"\\udc00"}"#), None);
    }

    #[test]
    fn lone_surrogate_escapes_are_found_in_strings_only() {
        let found = |t: &str| lone_surrogates(t).collect::<Vec<_>>();
        assert_eq!(
            found(r#"["\ud800","\ud83d\ude00","\\udc00","x\udfff"]"#),
            [2, 37]
        );
        assert_eq!(found(r#"\ud800 "\"" \ud800"#), Vec::<usize>::new());
        assert_eq!(found(r#""\ud800\ud800\udc00""#), [1]);
        assert_eq!(found(r#""\ud80""#), Vec::<usize>::new());
        // An escape is a backslash and a `u`: neither alone starts one.
        assert_eq!(found(r#""\nd800""#), Vec::<usize>::new());
        assert_eq!(found(r#""\ud800xudc00""#), [1]);
        // Another `\u` escape is six bytes, read past as a whole.
        assert_eq!(found(r#""xx\u0041\ud800""#), [9]);
    }

    #[test]
    fn texts_that_are_plainly_not_objects_are_told_apart() {
        assert_eq!(not_an_object(" [1"), Some("an array"));
        assert_eq!(not_an_object("\"x"), Some("a string"));
        assert_eq!(not_an_object("-"), Some("a number"));
        assert_eq!(not_an_object("7 "), Some("a number"));
        assert_eq!(not_an_object("\tfalse\n"), Some("a boolean"));
        assert_eq!(not_an_object("null"), Some("null"));
        for unsure in ["{", "", "nul", "trueish", "\u{feff}[", "x"] {
            assert_eq!(not_an_object(unsure), None, "{unsure:?}");
        }
    }

    proptest::proptest! {
        /// Any text: no panic; a text serde_json reads holds no lone surrogate; a lone surrogate
        /// named is one serde_json refuses.
        #[test]
        fn check_agrees_with_serde_json_on_any_text(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "\"", "\\", "\\u", "d800", "DC00", "d83d", "de00", "0041", "{", "}", ":", ",",
                "[", "]", "a", "1", "-", " ", "\u{feff}", "\"k\":",
            ]), 0..24)
        ) {
            let text: String = parts.concat();
            let problem = check(&text).err();
            let _ = not_an_object(&text);
            let reads = serde_json::from_str::<serde_json::Value>(&text).is_ok();
            let lone = problem.as_ref().is_some_and(|p| p.message.contains("lone surrogate"));
            if reads {
                proptest::prop_assert!(!lone, "{text}: {problem:?}");
                proptest::prop_assert_eq!(lone_surrogates(&text).count(), 0, "{}", text);
            }
            if lone {
                proptest::prop_assert!(!reads);
            }
        }
    }
}
