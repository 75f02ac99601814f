//! One linear, string-aware pass over reviewer text that finds the balanced top-level `{...}`
//! spans (AR-TOL-5). It keeps a depth counter and two flags, never recurses and never backtracks,
//! so hostile text (a megabyte of `{` or of `"`) costs one pass.

/// The byte ranges of the balanced top-level objects in `text`, in order.
///
/// Outside any object, quotes are prose and not tracked (a reply may say `the "safe" option`);
/// inside an object, strings are tracked with their escapes so braces in strings do not count.
/// An object that is still open when the text ends is not a span, and neither is anything nested
/// in it.
pub fn top_level_objects(text: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut depth = 0usize;
    let mut start = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut i = 0usize;
    while i < bytes.len() {
        if depth == 0 {
            // Prose: jump to the next `{` (a byte search, not a loop over every character).
            // `i` always follows an ASCII byte here, so it is a character boundary.
            let next = match text.get(i..) {
                Some(rest) => rest.find('{'),
                None => bytes[i..].iter().position(|&b| b == b'{'),
            };
            match next {
                Some(at) => {
                    depth = 1;
                    start = i + at;
                    i = start + 1;
                    continue;
                }
                None => break,
            }
        }
        let b = bytes[i];
        i += 1;
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
                    spans.push(start..i);
                }
            }
            _ => {}
        }
    }
    spans
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
}
