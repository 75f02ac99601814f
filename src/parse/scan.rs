//! One linear, string-aware pass over reviewer text that finds the balanced top-level `{...}`
//! spans (AR-TOL-5). It keeps a depth counter and a string flag, never recurses and never
//! backtracks, so hostile text (a megabyte of `{` or of `"`) costs one pass. Stretches that cannot
//! change the answer (prose, string bodies, braces far from depth zero) are crossed a block of
//! bytes at a time.

use std::ops::Range;

/// Bytes looked at together on the fast paths: wide enough for the compiler to compare them as
/// vectors, and small enough that a count of one byte value fits in a `u8`.
const BLOCK: usize = 64;

/// The byte ranges of the balanced top-level objects in `text`, in order.
///
/// Outside any object, quotes are prose and not tracked (a reply may say `the "safe" option`);
/// inside an object, strings are tracked with their escapes so braces in strings do not count.
/// An object that is still open when the text ends is not a span, and neither is anything nested
/// in it.
pub fn top_level_objects(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut from = 0usize;
    // Prose: jump to the next `{` with a byte search, not a loop over every character. `from` is 0
    // or just past a `}`, so always a character boundary.
    while let Some(at) = text.get(from..).and_then(|rest| rest.find('{')) {
        let start = from + at;
        match span_end(bytes, start) {
            Some(end) => {
                spans.push(start..end);
                from = end;
            }
            // Still open at the end of the text: nothing after `start` is a span either.
            None => break,
        }
    }
    spans
}

/// Whether braces inside strings decide where the spans of `text` lie (AR-TOL-5: inside a span,
/// braces in strings do not count): a pass that counted every brace, in strings too, would find
/// other spans than [`top_level_objects`] does.
pub fn braces_in_strings_decide(text: &str) -> bool {
    // Without a quote after the first brace, no brace stands in a string.
    let quoted = text.find('{').is_some_and(|at| text[at..].contains('"'));
    quoted && top_level_objects(text) != spans_counting_every_brace(text).0
}

/// The balanced top-level brace spans of `text` as a pass finds them that counts every brace and
/// tracks no string, and where the first brace still open at the end of the text stands: what a
/// reader that breaks AR-TOL-5 that way reads.
pub fn spans_counting_every_brace(text: &str) -> (Vec<Range<usize>>, Option<usize>) {
    let mut spans = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'{' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    spans.push(start..i + 1);
                }
            }
            _ => {}
        }
    }
    (spans, (depth > 0).then_some(start))
}

/// The end (exclusive) of the balanced object that opens at `start`, or `None` when the text ends
/// first.
fn span_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = start;
    loop {
        // One byte at a time to the end of this block (or of a string that crosses it). Most
        // objects are small and end here without a block ever being counted.
        let stop = i + BLOCK;
        while i < stop {
            let b = *bytes.get(i)?;
            i += 1;
            match b {
                b'"' => i = string_end(bytes, i)?,
                b'{' => depth += 1,
                b'}' => {
                    // `depth` is at least 1 here: the span opens with `{` at `start`.
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        // Braces only: with no quote in the next block and fewer `}` than the depth, the depth
        // cannot reach zero inside it, so the block changes the depth by its count of `{` less its
        // count of `}`. A run of `{` goes this way.
        while let Some(block) = block_at(bytes, i) {
            let (open, close, quote) = count_block(block);
            if quote != 0 || depth <= usize::from(close) {
                break;
            }
            depth = depth + usize::from(open) - usize::from(close);
            i += BLOCK;
        }
    }
}

/// The block of bytes that starts at `i`, if the text is that long.
fn block_at(bytes: &[u8], i: usize) -> Option<&[u8; BLOCK]> {
    bytes.get(i..i + BLOCK)?.try_into().ok()
}

/// The counts of `{`, `}` and `"` in one block, written so that the compiler compares the block
/// as vectors.
fn count_block(block: &[u8; BLOCK]) -> (u8, u8, u8) {
    let (mut open, mut close, mut quote) = (0u8, 0u8, 0u8);
    for &b in block {
        open += u8::from(b == b'{');
        close += u8::from(b == b'}');
        quote += u8::from(b == b'"');
    }
    (open, close, quote)
}

/// The index just past the quote that closes the string whose body starts at `i`, skipping
/// escaped characters; `None` when the text ends first.
fn string_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    // Most strings inside an object are short: their first bytes are looked at one by one.
    let mut stop = i + 16;
    loop {
        while i < stop {
            match *bytes.get(i)? {
                b'"' => return Some(i + 1),
                // Whatever follows a backslash is taken as escaped, as the scan has always done.
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        // A long string: blocks with neither a quote nor a backslash are crossed whole; a block
        // that holds one is then read byte by byte.
        while let Some(block) = block_at(bytes, i) {
            if block
                .iter()
                .fold(false, |hit, &b| hit | (b == b'"') | (b == b'\\'))
            {
                break;
            }
            i += BLOCK;
        }
        stop = i + BLOCK;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(t: &str) -> Vec<&str> {
        top_level_objects(t).into_iter().map(|r| &t[r]).collect()
    }

    #[test]
    fn finds_top_level_objects_only() {
        assert_eq!(
            spans(r#"a {"x":{"y":1}} b {"z":"}"} c"#),
            vec![r#"{"x":{"y":1}}"#, r#"{"z":"}"}"#]
        );
        assert_eq!(
            spans(r#"say "{" then {"a":"\"}"}"#),
            vec!["{\" then {\"a\":\"\\\"}\"}"]
        );
        assert_eq!(spans("{ never closed {\"a\":1}"), Vec::<&str>::new());
        assert_eq!(spans("}} {} {"), vec!["{}"]);
    }

    /// Braces in a string decide the spans only where counting them would end a span elsewhere
    /// or leave it open.
    #[test]
    fn braces_in_strings_decide_only_where_counting_them_moves_a_span() {
        for (text, decide) in [
            (r#"{"risk":"high","decision":"deny"}"#, false),
            (r#"{"reason":"{\"a\":1}","decision":"deny"}"#, false),
            (r#"say "}" {"decision":"deny"}"#, false),
            (r#"{"reason":"f() {","decision":"deny"}"#, true),
            (r#"{"reason":"}","decision":"deny"}"#, true),
            (r#"{"reason":"{"} {"decision":"deny"}"#, true),
        ] {
            assert_eq!(braces_in_strings_decide(text), decide, "{text}");
        }
    }

    /// The scan as it was written first, one byte at a time: the block-wise fast paths must find
    /// exactly the same spans.
    fn byte_by_byte(text: &str) -> Vec<Range<usize>> {
        let bytes = text.as_bytes();
        let (mut spans, mut depth, mut start) = (Vec::new(), 0usize, 0usize);
        let (mut in_string, mut escaped) = (false, false);
        for (i, &b) in bytes.iter().enumerate() {
            if depth == 0 {
                if b == b'{' {
                    depth = 1;
                    start = i;
                }
                continue;
            }
            if in_string {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_string = false;
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        spans.push(start..i + 1);
                    }
                }
                _ => {}
            }
        }
        spans
    }

    #[test]
    fn block_paths_agree_with_the_byte_by_byte_scan() {
        // Long runs put the block boundaries everywhere: braces, quotes and escapes meet a block
        // edge at every offset, at depths near and far from zero.
        let mut texts = vec![
            "{".repeat(1000),
            format!("{}{}", "{".repeat(300), "}".repeat(300)),
            format!("{}{}x{}", "{".repeat(300), "}".repeat(299), "}"),
            format!("{{\"a\":\"{}\"}}", "\\\"".repeat(200)),
            format!("{{\"a\":\"{}\\\\\"}} {{}}", "x".repeat(200)),
            format!(
                "{}\"{}\"{}",
                "{".repeat(100),
                "}".repeat(150),
                "}".repeat(100)
            ),
            format!("{} {{{}}} tail", "{\"k\":1} ".repeat(40), "{".repeat(70)),
            // A string long enough for the block path whose next block holds an even number of
            // quotes: the closing one and one in the prose after the object.
            format!("{{\"a\":\"{}\"}} \"{}{{}}", "x".repeat(20), " ".repeat(80)),
            format!(
                "{{\"a\":\"{}\\\\\"}} \"\"\"{}{{}}",
                "x".repeat(20),
                " ".repeat(80)
            ),
        ];
        // Every prefix of a mixed text, so that each kind of byte ends a text at each offset.
        let mixed = format!(
            "pro\"se {{{}\"s}}\\\"{{\"{}}} {{}} {}{{\"a\":\"\\\\\"}}",
            "{".repeat(70),
            "}".repeat(71),
            "x".repeat(65)
        );
        for end in 0..=mixed.len() {
            texts.push(mixed[..end].to_owned());
        }
        for t in &texts {
            assert_eq!(top_level_objects(t), byte_by_byte(t), "{t:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_the_byte_by_byte_scan_on_any_text(t in "[{}\"\\\\ax]{0,400}") {
            proptest::prop_assert_eq!(top_level_objects(&t), byte_by_byte(&t));
        }

        /// Quotes and backslashes kept rare, so that long quote-free blocks at every depth occur.
        #[test]
        fn agrees_where_blocks_are_crossed_whole(
            picks in proptest::collection::vec(0u8..28, 0..700)
        ) {
            let bytes = picks.iter().map(|&p| match p {
                0..12 => b'{',
                12..20 => b'}',
                20 => b'"',
                21 => b'\\',
                _ => b'a',
            });
            let t: String = bytes.map(char::from).collect();
            proptest::prop_assert_eq!(top_level_objects(&t), byte_by_byte(&t));
        }

        #[test]
        fn agrees_on_brace_runs(open in 0usize..300, close in 0usize..300, tail in "[{}\"a]{0,80}") {
            let t = format!("{}{}{tail}", "{".repeat(open), "}".repeat(close));
            proptest::prop_assert_eq!(top_level_objects(&t), byte_by_byte(&t));
        }
    }
}
