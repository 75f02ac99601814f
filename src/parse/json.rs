//! The JSON reader both reviewer-output readers use (AR-PARSE-4, AR-TOL-5): exactly the grammar
//! ECMAScript `JSON.parse` accepts, read in one pass with an explicit stack of one bit per open
//! container (so any nesting depth memory allows), linear in the text and never panicking. Nothing
//! is built: the top-level object is summed up as its member count and where the values of `risk`,
//! `decision` and `reason` stand in the text; strings are decoded from the text when asked for.

use std::fmt;

use super::repeated_names;

/// A decoded JSON string exactly as a JavaScript string holds it, stored as WTF-8: UTF-8 in which
/// an unpaired surrogate escape (`\ud800`) keeps its own three-byte encoding. Two of them are
/// equal exactly when their UTF-16 code units are (AR-PARSE-6).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct JsString(Vec<u8>);

impl JsString {
    /// The string with each unpaired surrogate replaced by U+FFFD, as outcome texts carry it.
    pub fn to_string_lossy(&self) -> String {
        self.clone().into_string_lossy()
    }

    /// [`Self::to_string_lossy`] in the string's own buffer: U+FFFD takes as many bytes as a
    /// surrogate's three-byte encoding, so nothing is copied.
    pub fn into_string_lossy(self) -> String {
        let mut bytes = match String::from_utf8(self.0) {
            Ok(s) => return s,
            Err(e) => e.into_bytes(),
        };
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            // In WTF-8, 0xED followed by 0xA0..=0xBF can only open an unpaired surrogate: valid
            // UTF-8 follows 0xED with 0x80..=0x9F, and pairs are written as four-byte characters.
            if b == 0xED
                && matches!(bytes.get(i + 1), Some(0xA0..=0xBF))
                && let Some(surrogate) = bytes.get_mut(i..i + 3)
            {
                surrogate.copy_from_slice("\u{fffd}".as_bytes());
                i += 3;
            } else {
                i += 1;
            }
        }
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// A string in a text the reader has accepted, named by the offset of its opening quote: it ends
/// at its first unescaped quote, and its escapes are well formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrAt(pub(crate) usize);

/// The value of a top-level member, as far as the protocol looks at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberValue {
    /// A string, where it stands in the text.
    String(StrAt),
    /// Any other JSON value (checked, not kept).
    Other,
}

/// The member names the protocol reads (AR-PARSE-7, AR-TOL-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// `risk`.
    Risk,
    /// `decision`.
    Decision,
    /// `reason`.
    Reason,
}

impl Known {
    const ALL: [Known; 3] = [Known::Risk, Known::Decision, Known::Reason];

    fn name(self) -> &'static str {
        match self {
            Known::Risk => "risk",
            Known::Decision => "decision",
            Known::Reason => "reason",
        }
    }
}

/// How many member names the reader remembers while it reads; an object with more is checked
/// for repeats by a second reading with a table sized for all of them (see [`names`]).
const FIRST_NAMES: usize = 8;

/// The top-level object of a JSON text, summed up in a few words whatever its size: how many
/// members it has (repeats included), where its first names stand, and the first value of each
/// name the protocol reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object<'t> {
    text: &'t str,
    members: usize,
    first: [usize; FIRST_NAMES],
    known: [Option<MemberValue>; 3],
}

impl<'t> Object<'t> {
    /// The number of top-level members, repeated names counted each time.
    pub fn len(&self) -> usize {
        self.members
    }

    /// Whether the object has no member.
    pub fn is_empty(&self) -> bool {
        self.members == 0
    }

    /// The value of the first member named `name`, if there is one.
    pub fn get(&self, name: Known) -> Option<MemberValue> {
        self.known.get(name as usize).copied().flatten()
    }

    /// The text the object was read from.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// Whether two top-level members have the same name, compared decoded as UTF-16 code units
    /// (AR-PARSE-6). Linear in the text in expectation; exact whatever the hashes do.
    pub fn has_repeated_name(&self) -> bool {
        match self.first.get(..self.members) {
            Some(first) => repeated_names::any_repeated(self.text, first),
            None => repeated_names::any_repeated_in_text(self.text, self.members),
        }
    }

    /// The decoded string at `at`.
    pub fn decode(&self, at: StrAt) -> JsString {
        let mut out = Vec::new();
        decode_into(self.text.as_bytes(), at, &mut out);
        JsString(out)
    }

    /// Whether the string at `at` decodes to exactly `s`.
    pub fn string_is(&self, at: StrAt, s: &str) -> bool {
        Decoded::new(self.text.as_bytes(), at).eq(s.bytes())
    }
}

/// The one value of a JSON text, as far as the readers need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopLevel<'t> {
    /// An object.
    Object(Object<'t>),
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
pub fn read(text: &str) -> Result<TopLevel<'_>, JsonError> {
    let mut summary = Summary {
        members: 0,
        first: [0; FIRST_NAMES],
        known: [None; 3],
        current: None,
    };
    let read = Reader::new(text, &mut summary).value()?;
    Ok(match read {
        Read::Object => TopLevel::Object(Object {
            text,
            members: summary.members,
            first: summary.first,
            known: summary.known,
        }),
        // The summary never stops a reading.
        Read::Other | Read::Stopped => TopLevel::Other,
    })
}

/// Reads a text already accepted by [`read`] again, handing each name of its top-level object,
/// at its opening quote, to `on_name` until that returns `false`. Returns whether every name was
/// handed over.
pub(crate) fn each_top_level_name(text: &str, on_name: impl FnMut(usize) -> bool) -> bool {
    let mut visit = Names(on_name);
    matches!(Reader::new(text, &mut visit).value(), Ok(Read::Object))
}

/// What the reader tells its visitor about the top-level object.
trait Visit {
    /// A member name of the top-level object, at its opening quote; `false` stops the reading.
    fn name(&mut self, text: &[u8], quote: usize) -> bool;
    /// A string value of a top-level member, at its opening quote.
    fn string_value(&mut self, quote: usize);
}

/// The first reading: counts the members, remembers where the first names stand and keeps the
/// first value of each name the protocol reads.
struct Summary {
    members: usize,
    first: [usize; FIRST_NAMES],
    known: [Option<MemberValue>; 3],
    /// The known name whose value comes next, when it is that name's first member.
    current: Option<Known>,
}

impl Visit for Summary {
    fn name(&mut self, text: &[u8], quote: usize) -> bool {
        if let Some(slot) = self.first.get_mut(self.members) {
            *slot = quote;
        }
        self.members += 1;
        self.current = Known::ALL.into_iter().find(|k| {
            Decoded::new(text, StrAt(quote)).eq(k.name().bytes())
                && self.known.get(*k as usize) == Some(&None)
        });
        if let Some(k) = self.current
            && let Some(slot) = self.known.get_mut(k as usize)
        {
            *slot = Some(MemberValue::Other);
        }
        true
    }

    fn string_value(&mut self, quote: usize) {
        if let Some(k) = self.current.take()
            && let Some(slot) = self.known.get_mut(k as usize)
        {
            *slot = Some(MemberValue::String(StrAt(quote)));
        }
    }
}

/// A later reading that only hands the names on.
struct Names<F>(F);

impl<F: FnMut(usize) -> bool> Visit for Names<F> {
    fn name(&mut self, _: &[u8], quote: usize) -> bool {
        (self.0)(quote)
    }

    fn string_value(&mut self, _: usize) {}
}

/// How a reading ended.
enum Read {
    /// The text is one object.
    Object,
    /// The text is one value of another kind.
    Other,
    /// The visitor stopped the reading.
    Stopped,
}

/// An open container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Array,
    Object,
}

/// The open containers, one bit each (set for an object), so that a text that is nothing but
/// `[` costs an eighth of itself.
#[derive(Default)]
struct Stack {
    bits: Vec<u64>,
    len: usize,
}

impl Stack {
    fn push(&mut self, open: Open) {
        let (word, bit) = (self.len / 64, self.len % 64);
        if word == self.bits.len() {
            self.bits.push(0);
        }
        if let Some(w) = self.bits.get_mut(word) {
            match open {
                Open::Object => *w |= 1 << bit,
                Open::Array => *w &= !(1 << bit),
            }
        }
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    fn last(&self) -> Option<Open> {
        let top = self.len.checked_sub(1)?;
        let w = self.bits.get(top / 64)?;
        Some(if w >> (top % 64) & 1 == 1 {
            Open::Object
        } else {
            Open::Array
        })
    }

    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

struct Reader<'a, V> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    /// Whether the top-level value is an object (known once its first byte is read).
    object: bool,
    visit: &'a mut V,
}

impl<'a, V: Visit> Reader<'a, V> {
    fn new(text: &'a str, visit: &'a mut V) -> Self {
        Reader {
            text,
            b: text.as_bytes(),
            pos: 0,
            object: false,
            visit,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn error_at(&self, offset: usize, expected: &'static str) -> JsonError {
        // This reader's offsets fall on character boundaries, so no character is only past the
        // end.
        let found = match self.text.get(offset..).and_then(|s| s.chars().next()) {
            Some(c) => Found::Char(c),
            None => Found::End,
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

    /// Whether a value or name read now belongs to the top-level object itself.
    fn at_top(&self, stack: &Stack) -> bool {
        self.object && stack.len() == 1
    }

    /// The whole text: one value, then only whitespace. The loop expects a value at its top; when
    /// a value ends, the inner loop closes containers until one continues with `,`.
    fn value(mut self) -> Result<Read, JsonError> {
        let mut stack = Stack::default();
        'value: loop {
            self.skip_ws();
            match self.peek() {
                Some(b'{') => {
                    self.pos += 1;
                    if stack.is_empty() {
                        self.object = true;
                    }
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                    } else {
                        stack.push(Open::Object);
                        if !self.member_name(&stack)? {
                            return Ok(Read::Stopped);
                        }
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
                Some(b'"') => {
                    let quote = self.pos;
                    self.string()?;
                    if self.at_top(&stack) {
                        self.visit.string_value(quote);
                    }
                }
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
                        return Ok(if self.object {
                            Read::Object
                        } else {
                            Read::Other
                        });
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
                            if !self.member_name(&stack)? {
                                return Ok(Read::Stopped);
                            }
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
    /// is shown to the visitor; `false` when the visitor stops the reading.
    fn member_name(&mut self, stack: &Stack) -> Result<bool, JsonError> {
        if self.peek() != Some(b'"') {
            return Err(self.error("a member name in double quotes"));
        }
        let quote = self.pos;
        self.string()?;
        if self.at_top(stack) && !self.visit.name(self.b, quote) {
            return Ok(false);
        }
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.error("':'"));
        }
        self.pos += 1;
        Ok(true)
    }

    /// A string at its opening quote, checked (escapes and unescaped control characters) and
    /// left in the text.
    fn string(&mut self) -> Result<(), JsonError> {
        self.pos += 1;
        loop {
            let Some(at) = plain_run_end(self.b, self.pos, true) else {
                self.pos = self.b.len();
                return Err(self.error("'\"' to close the string"));
            };
            self.pos = at;
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => self.escape()?,
                _ => {
                    return Err(
                        self.error("a string character (control characters must be escaped)")
                    );
                }
            }
        }
    }

    /// One escape at its backslash, checked: a one-letter escape, or `\u` and four hexadecimal
    /// digits (a surrogate pair is two such escapes; decoding pairs them, see [`escape_at`]).
    fn escape(&mut self) -> Result<(), JsonError> {
        match self.b.get(self.pos + 1) {
            Some(&e) if simple_escape(e).is_some() => self.pos += 2,
            Some(b'u') => {
                hex4(self.b, self.pos + 2)
                    .map_err(|at| self.error_at(at, "a hexadecimal digit"))?;
                self.pos += 6;
            }
            _ => {
                return Err(self.error_at(
                    self.pos + 1,
                    "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits)",
                ));
            }
        }
        Ok(())
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

/// The character a one-letter escape stands for.
fn simple_escape(e: u8) -> Option<u8> {
    Some(match e {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => 0x08,
        b'f' => 0x0c,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        _ => return None,
    })
}

/// Four hexadecimal digits (either case) starting at `at`; on failure, the offset of the first
/// byte that is not one.
fn hex4(b: &[u8], at: usize) -> Result<u16, usize> {
    let mut unit = 0u16;
    for i in at..at + 4 {
        let digit = match b.get(i) {
            Some(c @ b'0'..=b'9') => c - b'0',
            Some(c @ b'a'..=b'f') => c - b'a' + 10,
            Some(c @ b'A'..=b'F') => c - b'A' + 10,
            _ => return Err(i),
        };
        unit = unit << 4 | u16::from(digit);
    }
    Ok(unit)
}

/// The escape whose backslash is at `i`: the bytes it decodes to (WTF-8, up to four), how many,
/// and where the string goes on. A high surrogate escape directly followed by a low one is one
/// character; any other surrogate escape stands alone, in its generalized three-byte encoding.
/// `None` when no escape the grammar accepts is there.
fn escape_at(b: &[u8], i: usize) -> Option<([u8; 4], usize, usize)> {
    if b.get(i) != Some(&b'\\') {
        return None;
    }
    let e = *b.get(i + 1)?;
    if let Some(c) = simple_escape(e) {
        return Some(([c, 0, 0, 0], 1, i + 2));
    }
    if e != b'u' {
        return None;
    }
    let unit = hex4(b, i + 2).ok()?;
    let mut next = i + 6;
    let code = if (0xD800..0xDC00).contains(&unit)
        && b.get(next) == Some(&b'\\')
        && b.get(next + 1) == Some(&b'u')
        && let Ok(low @ 0xDC00..=0xDFFF) = hex4(b, next + 2)
    {
        next += 6;
        0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
    } else {
        u32::from(unit)
    };
    let mut out = [0; 4];
    let len = match char::from_u32(code) {
        Some(c) => c.encode_utf8(&mut out).len(),
        // An unpaired surrogate: its generalized three-byte encoding (WTF-8).
        None => {
            out = [
                0xE0 | (code >> 12) as u8,
                0x80 | ((code >> 6) & 0x3F) as u8,
                0x80 | (code & 0x3F) as u8,
                0,
            ];
            3
        }
    };
    Some((out, len, next))
}

/// The end of the unescaped run of a string body that starts at `i`: the next quote or backslash.
fn run_end(b: &[u8], i: usize) -> Option<usize> {
    plain_run_end(b, i, false)
}

/// The first quote or backslash at or after `i` (or, with `controls`, control character): where
/// a run of plain string characters ends. The first bytes are looked at one by one, as most
/// strings are short; then blocks without one are crossed whole, compared as vectors.
fn plain_run_end(b: &[u8], mut i: usize, controls: bool) -> Option<usize> {
    const BLOCK: usize = 64;
    let ends = |c: u8| c == b'"' || c == b'\\' || (controls && c < 0x20);
    let near = (i + 16).min(b.len());
    if let Some(at) = b.get(i..near)?.iter().position(|&c| ends(c)) {
        return Some(i + at);
    }
    i = near;
    while let Some(block) = b
        .get(i..i + BLOCK)
        .and_then(|s| <&[u8; BLOCK]>::try_from(s).ok())
    {
        if block.iter().fold(false, |hit, &c| hit | ends(c)) {
            break;
        }
        i += BLOCK;
    }
    Some(i + b.get(i..)?.iter().position(|&c| ends(c))?)
}

/// The offset of the first byte at or after `i` that is not JSON whitespace.
pub(crate) fn after_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Just past the closing quote of the string at `at`, in accepted text, and whether the string
/// is also well-formed UTF-16 (no unpaired surrogate escape), as a Rust string must be.
pub(crate) fn string_end(b: &[u8], at: StrAt) -> Option<(usize, bool)> {
    let (mut i, mut well_formed) = (at.0 + 1, true);
    loop {
        let end = run_end(b, i)?;
        match escape_at(b, end) {
            Some((c, n, next)) => {
                // An unpaired surrogate's three-byte encoding: 0xED, then 0xA0..=0xBF.
                well_formed &= !(n == 3 && c[0] == 0xED && c[1] >= 0xA0);
                i = next;
            }
            None => return (b.get(end) == Some(&b'"')).then_some((end + 1, well_formed)),
        }
    }
}

/// Just past the value that starts at `i`, in accepted text (whitespace before it skipped), and
/// whether a `serde_json::Value` can hold it: every string well-formed UTF-16, every number
/// finite as a double.
pub(crate) fn value_end(b: &[u8], i: usize) -> Option<(usize, bool)> {
    let (mut depth, mut j, mut holdable) = (0usize, i, true);
    loop {
        match *b.get(j)? {
            b'"' => {
                let (end, ok) = string_end(b, StrAt(j))?;
                (j, holdable) = (end, holdable && ok);
            }
            b'{' | b'[' => {
                depth += 1;
                j += 1;
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                j += 1;
            }
            b'-' | b'0'..=b'9' => {
                let len = b
                    .get(j..)?
                    .iter()
                    .position(|c| !matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                    .unwrap_or(b.len() - j);
                let number = std::str::from_utf8(b.get(j..j + len)?).ok()?;
                holdable &= number.parse::<f64>().is_ok_and(f64::is_finite);
                j += len;
            }
            b'a'..=b'z' => {
                j += b
                    .get(j..)?
                    .iter()
                    .position(|c| !c.is_ascii_lowercase())
                    .unwrap_or(b.len() - j);
            }
            // Whitespace, `,` or `:` inside a container.
            _ => j += 1,
        }
        // A scalar at the top ends the value; a container ends when its bracket closes it.
        if depth == 0 {
            return Some((j, holdable));
        }
    }
}

/// Appends the decoded string at `at` (WTF-8) to `out`.
fn decode_into(b: &[u8], at: StrAt, out: &mut Vec<u8>) {
    let mut i = at.0 + 1;
    while let Some(end) = run_end(b, i) {
        out.extend_from_slice(b.get(i..end).unwrap_or_default());
        match escape_at(b, end) {
            Some((c, n, next)) => {
                out.extend_from_slice(c.get(..n).unwrap_or_default());
                i = next;
            }
            // The closing quote.
            None => return,
        }
    }
}

/// The string at `at` of `text`, decoded in the text's own buffer (a decoded string is never
/// longer than its escaped form), with unpaired surrogates replaced by U+FFFD: a long reason
/// costs no second copy of itself.
pub fn decode_in_place(text: String, at: StrAt) -> String {
    let mut b = text.into_bytes();
    let (mut read, mut write) = (at.0 + 1, 0);
    while let Some(end) = run_end(&b, read) {
        b.copy_within(read..end, write);
        write += end - read;
        match escape_at(&b, end) {
            Some((c, n, next)) => {
                if let (Some(to), Some(from)) = (b.get_mut(write..write + n), c.get(..n)) {
                    to.copy_from_slice(from);
                }
                write += n;
                read = next;
            }
            None => break,
        }
    }
    b.truncate(write);
    b.shrink_to_fit();
    JsString(b).into_string_lossy()
}

/// The decoded bytes (WTF-8) of a string in an accepted text, one at a time, without copying
/// the string anywhere.
#[derive(Debug, Clone)]
pub struct Decoded<'t> {
    b: &'t [u8],
    /// The next undecoded byte of the text.
    i: usize,
    /// The rest of the escape being handed out.
    pending: [u8; 4],
    from: usize,
    to: usize,
}

impl<'t> Decoded<'t> {
    /// The decoded bytes of the string at `at` of the text `b`.
    pub fn new(b: &'t [u8], at: StrAt) -> Self {
        Decoded {
            b,
            i: at.0 + 1,
            pending: [0; 4],
            from: 0,
            to: 0,
        }
    }
}

impl Iterator for Decoded<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.from < self.to {
            self.from += 1;
            return self.pending.get(self.from - 1).copied();
        }
        match *self.b.get(self.i)? {
            b'"' => None,
            b'\\' => {
                let (c, n, next) = escape_at(self.b, self.i)?;
                (self.pending, self.from, self.to, self.i) = (c, 1, n, next);
                c.first().copied()
            }
            c => {
                self.i += 1;
                Some(c)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(text: &str) -> Object<'_> {
        match read(text) {
            Ok(TopLevel::Object(o)) => o,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn decoded(o: &Object<'_>, k: Known) -> Option<String> {
        match o.get(k) {
            Some(MemberValue::String(at)) => Some(o.decode(at).to_string_lossy()),
            _ => None,
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
    fn counts_top_level_members_only_with_repeats() {
        let o = object(r#"{"a":{"b":1,"c":{"d":2}},"e":[{"f":3}],"a":"x"}"#);
        assert_eq!(o.len(), 3);
        assert!(o.has_repeated_name());
        let o = object(r#"{"a":{"a":1,"a":{"a":2}},"e":[{"a":3}]}"#);
        assert_eq!(o.len(), 2);
        assert!(!o.has_repeated_name() && !o.is_empty());
        assert_eq!(read("[{\"a\":1}]"), Ok(TopLevel::Other));
        assert_eq!(read("\"{}\""), Ok(TopLevel::Other));
        let empty = object(" {} ");
        assert!(empty.is_empty() && !empty.has_repeated_name());
    }

    #[test]
    fn keeps_the_first_value_of_each_protocol_name() {
        let o = object(
            r#"{"d\u0065cision":"\u0061llow\/","n":1,"reason":"\ud83d\ude00\ud800\u0041\udc00","risk":{"risk":"low"},"decision":"deny"}"#,
        );
        assert_eq!(decoded(&o, Known::Decision).as_deref(), Some("allow/"));
        assert_eq!(
            decoded(&o, Known::Reason).as_deref(),
            Some("\u{1f600}\u{fffd}A\u{fffd}")
        );
        assert_eq!(o.get(Known::Risk), Some(MemberValue::Other));
        let o = object(r#"{"x":[{"risk":"low"}],"reason":7}"#);
        assert_eq!(o.get(Known::Risk), None);
        assert_eq!(o.get(Known::Decision), None);
        assert_eq!(o.get(Known::Reason), Some(MemberValue::Other));
    }

    #[test]
    fn surrogate_names_compare_as_utf16_code_units() {
        let repeats =
            |a: &str, b: &str| object(&format!("{{\"{a}\":1,\"{b}\":2}}")).has_repeated_name();
        assert!(!repeats("\\ud800", "\\udc00"));
        assert!(!repeats("\\ud800", "\\ufffd"));
        assert!(!repeats("\\ud800", "\u{fffd}"));
        assert!(repeats("\\ud800", "\\uD800"));
        assert!(repeats("\\ud800\\udc00", "𐀀"));
        assert!(repeats("d\\u0065cision", "decision"));
        assert!(repeats("\\/", "/"));
        assert!(!repeats("a", "a\\u0000"));
        let o = object("{\"\\ud800\":\"\\ud800\"}");
        let at = StrAt(o.text().find(':').expect("a member") + 1);
        assert!(!o.string_is(at, "\u{fffd}"));
        assert_eq!(o.decode(at).to_string_lossy(), "\u{fffd}");
    }

    #[test]
    fn any_depth_is_read_without_recursion() {
        let n = 1_000_000;
        let deep = format!("{{\"x\":{}{}}}", "[".repeat(n), "]".repeat(n));
        assert_eq!(object(&deep).len(), 1);
        let mixed = format!("{{\"x\":{}1{}}}", "[{\"y\":".repeat(n), "}]".repeat(n));
        assert_eq!(object(&mixed).len(), 1);
        let open = "[".repeat(n);
        assert_eq!(read(&open).unwrap_err().found, Found::End);
    }

    /// A string is well-formed UTF-16 unless it holds an unpaired surrogate escape: an escaped
    /// character of three UTF-8 bytes, or a pair, is not one.
    #[test]
    fn only_an_unpaired_surrogate_escape_makes_a_string_ill_formed() {
        for (text, well_formed) in [
            (r#""\u4e2d""#, true),
            (r#""\uffff""#, true),
            (r#""\ud83d\ude00""#, true),
            (r#""a\ud800""#, false),
            (r#""\udfff b""#, false),
            ("\"中\"", true),
        ] {
            assert_eq!(
                string_end(text.as_bytes(), StrAt(0)),
                Some((text.len(), well_formed)),
                "{text}"
            );
        }
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
        assert_eq!(
            err("[\"\\ud800\\u12\"]"),
            "expected a hexadecimal digit at byte 12, found '\"'"
        );
        // A bad escape is reported at the character after its backslash.
        assert_eq!(
            err("[\"ab\\q\"]"),
            "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits) at byte 5, found 'q'"
        );
        // A literal is named by the word it starts, at the first byte that differs.
        assert_eq!(err("[tru]"), "expected 'true' at byte 4, found ']'");
        assert_eq!(err("[falsy]"), "expected 'false' at byte 5, found 'y'");
        assert_eq!(err("[nul]"), "expected 'null' at byte 4, found ']'");
    }

    #[test]
    fn value_end_finds_the_end_and_what_a_serde_value_holds() {
        for text in [
            "0",
            "-12.5e-3",
            "1e400",
            "-1E+309",
            "1e-400",
            "true",
            "null",
            r#""a\"b""#,
            r#""\ud800""#,
            r#""\ud83d\ude00""#,
            r#"[1, {"a": [true, "x\"]"]}, -0]"#,
            r#"{"a": [1e999]}"#,
            r#"{"a": {"b": "\udc00"}}"#,
            "[[[[]]], {}]",
        ] {
            assert!(read(text).is_ok(), "{text}");
            let holdable = serde_json::from_str::<serde_json::Value>(text).is_ok();
            let padded = format!("{text}, 7]");
            assert_eq!(
                value_end(padded.as_bytes(), 0),
                Some((text.len(), holdable)),
                "{text}"
            );
            // A value that runs to the end of the text, read from past its start.
            let after = format!("[{text}");
            assert_eq!(
                value_end(after.as_bytes(), 1),
                Some((after.len(), holdable)),
                "{text}"
            );
        }
    }

    /// Decodes the JSON string `quoted` with each decoder: byte by byte, appended, in place.
    fn decoders(quoted: &str) -> [Vec<u8>; 3] {
        let b = quoted.as_bytes();
        let mut appended = Vec::new();
        decode_into(b, StrAt(0), &mut appended);
        let in_place = decode_in_place(quoted.to_owned(), StrAt(0));
        let lossy = JsString(appended.clone()).into_string_lossy().into_bytes();
        assert_eq!(in_place.as_bytes(), lossy, "{quoted}");
        [Decoded::new(b, StrAt(0)).collect(), appended, lossy]
    }

    #[test]
    fn the_decoders_agree() {
        for (quoted, wtf8) in [
            (r#""""#, &b""[..]),
            (r#""plain""#, b"plain"),
            (r#""\"\\\/\b\f\n\r\t""#, b"\"\\/\x08\x0c\n\r\t"),
            (r#""\u0041\u00e9\u20AC""#, "Aé€".as_bytes()),
            (r#""\ud83d\ude00x""#, "😀x".as_bytes()),
            (r#""\ud800""#, b"\xed\xa0\x80"),
            (r#""\udc00\ud800""#, b"\xed\xb0\x80\xed\xa0\x80"),
            (r#""\ud800\u0041""#, b"\xed\xa0\x80A"),
            (r#""\ud800\ud800\udc00""#, b"\xed\xa0\x80\xf0\x90\x80\x80"),
        ] {
            let [bytewise, appended, _] = decoders(quoted);
            assert_eq!(bytewise, wtf8, "{quoted}");
            assert_eq!(appended, wtf8, "{quoted}");
        }
    }

    /// One piece of a JSON string: its text in the JSON and the UTF-16 code units it stands for.
    fn piece() -> impl proptest::strategy::Strategy<Value = (String, Vec<u16>)> {
        use proptest::strategy::{Just, Strategy};
        let units = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
        proptest::prop_oneof![
            "[a-z€😀]{0,3}".prop_map(move |s| (s.clone(), units(&s))),
            Just(("\\\"".to_owned(), vec![0x22])),
            Just(("\\\\".to_owned(), vec![0x5C])),
            Just(("\\n".to_owned(), vec![0x0A])),
            (0xD7F0u16..0xE010).prop_map(|u| (format!("\\u{u:04x}"), vec![u])),
            (0u16..=0xFFFF).prop_map(|u| (format!("\\u{u:04X}"), vec![u])),
        ]
    }

    proptest::proptest! {
        /// Whatever the escapes, the three decoders give the same bytes, and with U+FFFD for
        /// each unpaired surrogate they give what UTF-16 decoding gives.
        #[test]
        fn the_decoders_agree_on_any_string(pieces in proptest::collection::vec(piece(), 0..12)) {
            let quoted = format!("\"{}\"", pieces.iter().map(|p| p.0.as_str()).collect::<String>());
            proptest::prop_assert!(read(&quoted).is_ok());
            let [bytewise, appended, lossy] = decoders(&quoted);
            proptest::prop_assert_eq!(&bytewise, &appended);
            let units: Vec<u16> = pieces.iter().flat_map(|p| p.1.iter().copied()).collect();
            proptest::prop_assert_eq!(lossy, String::from_utf16_lossy(&units).into_bytes());
        }
    }
}
