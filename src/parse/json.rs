//! The JSON reader both reviewer-output readers use (AR-PARSE-4, AR-TOL-5): exactly the grammar
//! ECMAScript `JSON.parse` accepts, read in one pass with an explicit stack (so any nesting depth
//! memory allows), linear in the text and never panicking. Only the top-level object's members are
//! kept; nested values are checked, never built.

use std::fmt;

/// A decoded JSON string exactly as a JavaScript string holds it, stored as WTF-8: UTF-8 in which
/// an unpaired surrogate escape (`\ud800`) keeps its own three-byte encoding. Two of them are
/// equal exactly when their UTF-16 code units are (AR-PARSE-6).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct JsString(Vec<u8>);

impl JsString {
    /// Whether this string is exactly `s` (an unpaired surrogate never equals any `str`).
    pub fn is(&self, s: &str) -> bool {
        self.0 == s.as_bytes()
    }

    /// The string with each unpaired surrogate replaced by U+FFFD, as outcome texts carry it.
    pub fn to_string_lossy(&self) -> String {
        if let Ok(s) = std::str::from_utf8(&self.0) {
            return s.to_owned();
        }
        let mut out = Vec::with_capacity(self.0.len());
        let mut i = 0;
        while let Some(&b) = self.0.get(i) {
            // In WTF-8, 0xED followed by 0xA0..=0xBF can only open an unpaired surrogate: valid
            // UTF-8 follows 0xED with 0x80..=0x9F, and pairs are written as four-byte characters.
            if b == 0xED && matches!(self.0.get(i + 1), Some(0xA0..=0xBF)) {
                out.extend_from_slice("\u{fffd}".as_bytes());
                i += 3;
            } else {
                out.push(b);
                i += 1;
            }
        }
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// The value of a top-level member, as far as the protocol looks at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberValue {
    /// A string, decoded.
    String(JsString),
    /// Any other JSON value (checked, not kept).
    Other,
}

impl MemberValue {
    /// The decoded string, if the value is one.
    pub fn as_js_str(&self) -> Option<&JsString> {
        match self {
            MemberValue::String(s) => Some(s),
            MemberValue::Other => None,
        }
    }
}

/// One top-level member of an object: its decoded name and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The name, decoded.
    pub name: JsString,
    /// The value.
    pub value: MemberValue,
}

/// The one value of a JSON text, as far as the readers need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopLevel {
    /// An object: its members in text order, repeated names kept.
    Object(Vec<Member>),
    /// An array, string, number, `true`, `false` or `null`.
    Other,
}

/// Where a text stops being JSON and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected} at byte {offset}, found {found}")]
pub struct JsonError {
    /// The byte offset of the first byte that does not fit.
    pub offset: usize,
    /// What the grammar allows there.
    pub expected: &'static str,
    /// What stands there instead.
    pub found: Found,
}

/// What stands where the grammar stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A character: written `'x'` when it is printable ASCII, otherwise `U+XXXX`, so that no
    /// control, bidirectional or invisible character reaches a message.
    Char(char),
    /// The text ended.
    End,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::End => f.write_str("the end of the text"),
            Found::Char('\'') => f.write_str("\"'\""),
            Found::Char(c) if c.is_ascii_graphic() => write!(f, "'{c}'"),
            Found::Char(c) => write!(f, "U+{:04X}", u32::from(*c)),
        }
    }
}

/// Reads `text` as exactly one JSON value with only JSON whitespace (space, tab, line feed,
/// carriage return) around it, as `JSON.parse` does: any depth, unpaired surrogate escapes
/// accepted, numbers checked against the grammar and never converted (AR-PARSE-4).
pub fn read(text: &str) -> Result<TopLevel, JsonError> {
    Reader {
        text,
        b: text.as_bytes(),
        pos: 0,
    }
    .value()
}

/// An open container on the explicit stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Array,
    Object,
}

struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn error_at(&self, offset: usize, expected: &'static str) -> JsonError {
        let found = match self.text.get(offset..).and_then(|s| s.chars().next()) {
            Some(c) => Found::Char(c),
            // Past the end, or (never for this reader's offsets) inside a character.
            None if offset >= self.b.len() => Found::End,
            None => Found::Char(char::REPLACEMENT_CHARACTER),
        };
        JsonError {
            offset,
            expected,
            found,
        }
    }

    fn error(&self, expected: &'static str) -> JsonError {
        self.error_at(self.pos, expected)
    }

    /// JSON whitespace only: not a byte-order mark, form feed, U+00A0 or any other space.
    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// The whole text: one value, then only whitespace. The loop expects a value at its top; when
    /// a value ends, the inner loop closes containers until one continues with `,`.
    fn value(mut self) -> Result<TopLevel, JsonError> {
        let mut stack: Vec<Open> = Vec::new();
        // Some once the top-level value is known to be an object.
        let mut members: Option<Vec<Member>> = None;
        'value: loop {
            self.skip_ws();
            match self.peek() {
                Some(b'{') => {
                    self.pos += 1;
                    if stack.is_empty() {
                        members = Some(Vec::new());
                    }
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                    } else {
                        stack.push(Open::Object);
                        self.member_name(&stack, &mut members)?;
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                    } else {
                        stack.push(Open::Array);
                        continue 'value;
                    }
                }
                Some(b'"') => match top_member(&stack, &mut members) {
                    Some(member) => member.value = MemberValue::String(self.string()?),
                    None => self.skip_string()?,
                },
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b't') => self.literal("true")?,
                Some(b'f') => self.literal("false")?,
                Some(b'n') => self.literal("null")?,
                _ => return Err(self.error("a JSON value")),
            }
            loop {
                self.skip_ws();
                match stack.last() {
                    None if self.pos == self.b.len() => {
                        return Ok(members.map_or(TopLevel::Other, TopLevel::Object));
                    }
                    None => return Err(self.error("the end of the text")),
                    Some(Open::Array) => match self.peek() {
                        Some(b',') => {
                            self.pos += 1;
                            continue 'value;
                        }
                        Some(b']') => {
                            self.pos += 1;
                            stack.pop();
                        }
                        _ => return Err(self.error("',' or ']'")),
                    },
                    Some(Open::Object) => match self.peek() {
                        Some(b',') => {
                            self.pos += 1;
                            self.skip_ws();
                            self.member_name(&stack, &mut members)?;
                            continue 'value;
                        }
                        Some(b'}') => {
                            self.pos += 1;
                            stack.pop();
                        }
                        _ => return Err(self.error("',' or '}'")),
                    },
                }
            }
        }
    }

    /// A member's name and its `:`, at whitespace already skipped. A name of the top-level object
    /// is decoded and opens a member whose value is filled in when it is read.
    fn member_name(
        &mut self,
        stack: &[Open],
        members: &mut Option<Vec<Member>>,
    ) -> Result<(), JsonError> {
        if self.peek() != Some(b'"') {
            return Err(self.error("a member name in double quotes"));
        }
        match members {
            Some(m) if stack.len() == 1 => {
                let name = self.string()?;
                m.push(Member {
                    name,
                    value: MemberValue::Other,
                });
            }
            _ => self.skip_string()?,
        }
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.error("':'"));
        }
        self.pos += 1;
        Ok(())
    }

    /// A string at its opening quote, checked without being kept.
    fn skip_string(&mut self) -> Result<(), JsonError> {
        self.string_into(None)
    }

    /// A string at its opening quote, decoded.
    fn string(&mut self) -> Result<JsString, JsonError> {
        let mut out = Vec::new();
        self.string_into(Some(&mut out))?;
        Ok(JsString(out))
    }

    fn string_into(&mut self, mut out: Option<&mut Vec<u8>>) -> Result<(), JsonError> {
        self.pos += 1;
        loop {
            let run = self.b.get(self.pos..).unwrap_or_default();
            let Some(at) = run
                .iter()
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
            else {
                self.pos = self.b.len();
                return Err(self.error("'\"' to close the string"));
            };
            if let Some(o) = out.as_deref_mut() {
                o.extend_from_slice(run.get(..at).unwrap_or_default());
            }
            self.pos += at;
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => self.escape(out.as_deref_mut())?,
                _ => {
                    return Err(
                        self.error("a string character (control characters must be escaped)")
                    );
                }
            }
        }
    }

    /// One escape at its backslash. A high surrogate escape followed by a low one is a pair; any
    /// other surrogate escape stands alone and is kept as such.
    fn escape(&mut self, out: Option<&mut Vec<u8>>) -> Result<(), JsonError> {
        let simple = match self.b.get(self.pos + 1) {
            Some(b'"') => Some(b'"'),
            Some(b'\\') => Some(b'\\'),
            Some(b'/') => Some(b'/'),
            Some(b'b') => Some(0x08),
            Some(b'f') => Some(0x0c),
            Some(b'n') => Some(b'\n'),
            Some(b'r') => Some(b'\r'),
            Some(b't') => Some(b'\t'),
            Some(b'u') => None,
            _ => {
                return Err(self.error_at(
                    self.pos + 1,
                    "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits)",
                ));
            }
        };
        if let Some(c) = simple {
            self.pos += 2;
            if let Some(o) = out {
                o.push(c);
            }
            return Ok(());
        }
        let unit = self.hex4(self.pos + 2)?;
        self.pos += 6;
        let code = if (0xD800..0xDC00).contains(&unit)
            && self.b.get(self.pos) == Some(&b'\\')
            && self.b.get(self.pos + 1) == Some(&b'u')
            && let Ok(low @ 0xDC00..=0xDFFF) = self.hex4(self.pos + 2)
        {
            self.pos += 6;
            0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
        } else {
            u32::from(unit)
        };
        if let Some(o) = out {
            match char::from_u32(code) {
                Some(c) => o.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                // An unpaired surrogate: its generalized three-byte encoding (WTF-8).
                None => o.extend_from_slice(&[
                    0xE0 | (code >> 12) as u8,
                    0x80 | ((code >> 6) & 0x3F) as u8,
                    0x80 | (code & 0x3F) as u8,
                ]),
            }
        }
        Ok(())
    }

    /// Four hexadecimal digits (either case) starting at `at`.
    fn hex4(&self, at: usize) -> Result<u16, JsonError> {
        let mut unit = 0u16;
        for i in at..at + 4 {
            let digit = match self.b.get(i) {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.error_at(i, "a hexadecimal digit")),
            };
            unit = unit << 4 | u16::from(digit);
        }
        Ok(unit)
    }

    fn digits(&mut self) -> Result<(), JsonError> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.error("a digit"));
        }
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        Ok(())
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, never converted: `1e400` is as
    /// good a number as `1`.
    fn number(&mut self) -> Result<(), JsonError> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            // A leading zero stands alone; a digit after it is left for the caller to refuse.
            Some(b'0') => self.pos += 1,
            _ => self.digits()?,
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            self.digits()?;
        }
        Ok(())
    }

    fn literal(&mut self, word: &'static str) -> Result<(), JsonError> {
        for (i, w) in word.bytes().enumerate() {
            if self.b.get(self.pos + i) != Some(&w) {
                let expected = match word {
                    "true" => "'true'",
                    "false" => "'false'",
                    _ => "'null'",
                };
                return Err(self.error_at(self.pos + i, expected));
            }
        }
        self.pos += word.len();
        Ok(())
    }
}

/// The member whose value comes next, when that value belongs to the top-level object.
fn top_member<'m>(stack: &[Open], members: &'m mut Option<Vec<Member>>) -> Option<&'m mut Member> {
    match members {
        Some(m) if stack.len() == 1 => m.last_mut(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        match read(text) {
            Ok(TopLevel::Object(m)) => m.iter().map(|m| m.name.to_string_lossy()).collect(),
            other => panic!("{text}: {other:?}"),
        }
    }

    fn err(text: &str) -> String {
        read(text).expect_err(text).to_string()
    }

    #[test]
    fn reads_the_grammar_json_parse_reads() {
        for ok in [
            "0",
            "-0",
            "1.5e+3",
            "1E-2",
            "1e400",
            "-123",
            "true",
            "false",
            "null",
            "\"\"",
            "[]",
            "{}",
            " \t\r\n[1,[2,{}],\"x\"] \n",
            "\"\\ud800\"",
            "\"\\udc00\\ud800\"",
            "\"\u{7f}\u{2028}\"",
        ] {
            assert!(read(ok).is_ok(), "{ok:?}: {:?}", read(ok));
        }
        for bad in [
            "",
            " ",
            "01",
            "-",
            "1.",
            ".5",
            "+1",
            "1e",
            "1e+",
            "0x1",
            "tru",
            "nul",
            "[1,]",
            "{\"a\":1,}",
            "{'a':1}",
            "{a:1}",
            "[1 2]",
            "\u{feff}{}",
            "\u{a0}{}",
            "\x0c{}",
            "{}\x0b",
            "\"\t\"",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\U0041\"",
            "\"abc",
            "/**/{}",
            "{} {}",
            "NaN",
            "Infinity",
            "[",
            "{\"a\"}",
            "{\"a\" 1}",
            "{1:1}",
        ] {
            assert!(read(bad).is_err(), "{bad:?} read as {:?}", read(bad));
        }
    }

    #[test]
    fn keeps_top_level_members_only_with_repeats() {
        assert_eq!(
            names(r#"{"a":{"b":1,"c":{"d":2}},"e":[{"f":3}],"a":"x"}"#),
            ["a", "e", "a"]
        );
        assert_eq!(read("[{\"a\":1}]"), Ok(TopLevel::Other));
        assert_eq!(read("{}"), Ok(TopLevel::Object(Vec::new())));
    }

    #[test]
    fn decodes_names_and_string_values() {
        let Ok(TopLevel::Object(m)) =
            read(r#"{"d\u0065cision":"\u0061llow\/","n":1,"r":"\ud83d\ude00\ud800\u0041\udc00"}"#)
        else {
            panic!()
        };
        assert!(m[0].name.is("decision"));
        assert_eq!(
            m[0].value
                .as_js_str()
                .map(JsString::to_string_lossy)
                .as_deref(),
            Some("allow/")
        );
        assert_eq!(m[1].value, MemberValue::Other);
        assert_eq!(
            m[2].value
                .as_js_str()
                .map(JsString::to_string_lossy)
                .as_deref(),
            Some("\u{1f600}\u{fffd}A\u{fffd}")
        );
    }

    #[test]
    fn surrogate_names_compare_as_utf16_code_units() {
        let Ok(TopLevel::Object(m)) =
            read(r#"{"\ud800":1,"\udc00":2,"\ufffd":3,"\uD800":4,"\ud800\udc00":5,"𐀀":6}"#)
        else {
            panic!()
        };
        assert_ne!(m[0].name, m[1].name);
        assert_ne!(m[0].name, m[2].name);
        assert_eq!(m[0].name, m[3].name);
        assert_eq!(m[4].name, m[5].name);
        assert!(!m[0].name.is("\u{fffd}"));
    }

    #[test]
    fn any_depth_is_read_without_recursion() {
        let n = 1_000_000;
        let deep = format!("{{\"x\":{}{}}}", "[".repeat(n), "]".repeat(n));
        assert_eq!(names(&deep), ["x"]);
        let open = "[".repeat(n);
        assert_eq!(read(&open).unwrap_err().found, Found::End);
    }

    #[test]
    fn errors_say_where_and_what() {
        assert_eq!(
            err("{\"a\":1,}"),
            "expected a member name in double quotes at byte 7, found '}'"
        );
        assert_eq!(
            err("\u{feff}{}"),
            "expected a JSON value at byte 0, found U+FEFF"
        );
        assert_eq!(
            err("[1"),
            "expected ',' or ']' at byte 2, found the end of the text"
        );
        assert_eq!(
            err("\"\\u12\""),
            "expected a hexadecimal digit at byte 5, found '\"'"
        );
        assert_eq!(
            err("{} x"),
            "expected the end of the text at byte 3, found 'x'"
        );
        assert_eq!(
            err("\"a\nb\""),
            "expected a string character (control characters must be escaped) at byte 2, found U+000A"
        );
        assert_eq!(
            err("\u{202e}{}"),
            "expected a JSON value at byte 0, found U+202E"
        );
        assert_eq!(
            err("{'a':1}"),
            "expected a member name in double quotes at byte 1, found \"'\""
        );
    }
}
