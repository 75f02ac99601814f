//! Word-level differences between an expected and an actual text, shortened for a report line:
//! unchanged runs keep a few words of context beside each change and lose the rest to an ellipsis,
//! removed and added words are marked (`[-removed-]{+added+}`, terminal colours, or HTML tags in
//! Markdown). Bounded: texts are trimmed to their differing middle in linear time, and a middle too
//! long to diff word by word is shown as one replacement.

use std::fmt::Write as _;

use serde_json::Value;
use similar::{ChangeTag, TextDiff};

use super::{Difference, Severity};

/// Characters of unchanged text kept on each side of a change.
const CONTEXT: usize = 24;
/// Characters of one removed or added run kept (the middle gives way to an ellipsis).
const CHANGE: usize = 160;
/// The longest differing middle, in bytes per side, diffed word by word.
const DIFF_LIMIT: usize = 8 * 1024;
/// The longest a word diff may take.
const DIFF_TIME: std::time::Duration = std::time::Duration::from_millis(50);

/// One run of a word-level difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Text both sides share.
    Same(String),
    /// Text only the expected side has.
    Removed(String),
    /// Text only the actual side has.
    Added(String),
    /// Unchanged text left out of the report.
    Elided,
}

/// The word-level difference between `expected` and `actual`, each unchanged run shortened to
/// [`CONTEXT`] characters beside a change and each change to [`CHANGE`] characters.
pub fn diff(expected: &str, actual: &str) -> Vec<Piece> {
    let (head, old, new, tail) = split_common(expected, actual);
    let mut raw = Vec::new();
    if !head.is_empty() {
        raw.push(Piece::Same(head.to_owned()));
    }
    if old.len() > DIFF_LIMIT || new.len() > DIFF_LIMIT {
        raw.push(Piece::Removed(old.to_owned()));
        raw.push(Piece::Added(new.to_owned()));
    } else {
        // The deadline bounds pathological inputs (thousands of one-letter words on each side);
        // past it the diff is coarser, never wrong.
        let words = TextDiff::configure()
            .timeout(DIFF_TIME)
            .diff_words(old, new);
        for change in words.iter_all_changes() {
            let text = change.value();
            let piece = match change.tag() {
                ChangeTag::Equal => Piece::Same(text.to_owned()),
                ChangeTag::Delete => Piece::Removed(text.to_owned()),
                ChangeTag::Insert => Piece::Added(text.to_owned()),
            };
            raw.push(piece);
        }
    }
    if !tail.is_empty() {
        raw.push(Piece::Same(tail.to_owned()));
    }
    shorten(group(raw))
}

/// `expected` and `actual` as their common head, their differing middles and their common tail,
/// the head ending and the tail starting at a word boundary.
fn split_common<'a>(expected: &'a str, actual: &'a str) -> (&'a str, &'a str, &'a str, &'a str) {
    let mut head = expected
        .char_indices()
        .zip(actual.chars())
        .find(|((_, a), b)| a != b)
        .map_or(expected.len().min(actual.len()), |((i, _), _)| i);
    // A shared head never ends inside a word, so the diff sees whole words.
    if !at_boundary(expected, head) || !at_boundary(actual, head) {
        head = expected[..head].rfind(char::is_whitespace).map_or(0, |i| {
            i + expected[i..].chars().next().map_or(1, char::len_utf8)
        });
    }
    let (e, a) = (&expected[head..], &actual[head..]);
    let mut tail = e
        .chars()
        .rev()
        .zip(a.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum::<usize>();
    if !at_boundary(e, e.len() - tail) || !at_boundary(a, a.len() - tail) {
        let shared = &e[e.len() - tail..];
        tail = shared
            .find(char::is_whitespace)
            .map_or(0, |i| shared.len() - i);
    }
    (
        &expected[..head],
        &e[..e.len() - tail],
        &a[..a.len() - tail],
        &e[e.len() - tail..],
    )
}

/// Whether byte `i` of `s` lies between words: at either end, or beside whitespace.
fn at_boundary(s: &str, i: usize) -> bool {
    i == 0
        || i == s.len()
        || s[..i].ends_with(char::is_whitespace)
        || s[i..].starts_with(char::is_whitespace)
}

/// Merges neighbouring pieces of one kind, and folds whitespace between two replacements into
/// them: `[-a b-]{+c d+}` reads better than `[-a-]{+c+} [-b-]{+d+}`.
fn group(raw: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    let mut removed = String::new();
    let mut added = String::new();
    let mut pending_space: Option<String> = None;
    let flush = |out: &mut Vec<Piece>, removed: &mut String, added: &mut String| {
        if !removed.is_empty() {
            out.push(Piece::Removed(std::mem::take(removed)));
        }
        if !added.is_empty() {
            out.push(Piece::Added(std::mem::take(added)));
        }
    };
    for piece in raw {
        match piece {
            Piece::Removed(t) | Piece::Added(t) if t.is_empty() => {}
            Piece::Removed(t) => {
                if let Some(space) = pending_space.take() {
                    removed.push_str(&space);
                    added.push_str(&space);
                }
                removed.push_str(&t);
            }
            Piece::Added(t) => {
                if let Some(space) = pending_space.take() {
                    removed.push_str(&space);
                    added.push_str(&space);
                }
                added.push_str(&t);
            }
            Piece::Same(t) => {
                let replacing = !removed.is_empty() && !added.is_empty();
                if replacing && pending_space.is_none() && t.chars().all(char::is_whitespace) {
                    pending_space = Some(t);
                    continue;
                }
                flush(&mut out, &mut removed, &mut added);
                let t = match pending_space.take() {
                    Some(space) => space + &t,
                    None => t,
                };
                match out.last_mut() {
                    Some(Piece::Same(prev)) => prev.push_str(&t),
                    _ => out.push(Piece::Same(t)),
                }
            }
            Piece::Elided => {}
        }
    }
    flush(&mut out, &mut removed, &mut added);
    if let Some(space) = pending_space {
        out.push(Piece::Same(space));
    }
    out
}

/// Shortens unchanged runs to their context beside changes, and long changes to their ends.
fn shorten(pieces: Vec<Piece>) -> Vec<Piece> {
    let n = pieces.len();
    let mut out = Vec::with_capacity(n + 2);
    for (i, piece) in pieces.into_iter().enumerate() {
        match piece {
            Piece::Same(t) => {
                let (first, last) = (i == 0, i + 1 == n);
                let chars = t.chars().count();
                if first && last {
                    // No change at all: nothing to show around.
                    out.push(Piece::Same(t));
                } else if first && chars > CONTEXT {
                    out.push(Piece::Elided);
                    out.push(Piece::Same(last_chars(&t, CONTEXT)));
                } else if last && chars > CONTEXT {
                    out.push(Piece::Same(first_chars(&t, CONTEXT)));
                    out.push(Piece::Elided);
                } else if !first && !last && chars > 2 * CONTEXT + 8 {
                    out.push(Piece::Same(first_chars(&t, CONTEXT)));
                    out.push(Piece::Elided);
                    out.push(Piece::Same(last_chars(&t, CONTEXT)));
                } else {
                    out.push(Piece::Same(t));
                }
            }
            Piece::Removed(t) => out.push(Piece::Removed(clip(&t))),
            Piece::Added(t) => out.push(Piece::Added(clip(&t))),
            Piece::Elided => out.push(Piece::Elided),
        }
    }
    out
}

/// About the first `n` characters of `s`, ending just after a whitespace character when one is
/// among the last half of them.
fn first_chars(s: &str, n: usize) -> String {
    let cut: String = s.chars().take(n).collect();
    let space = cut
        .char_indices()
        .enumerate()
        .filter(|(_, (_, c))| c.is_whitespace())
        .last();
    match space {
        Some((k, (i, c))) if k >= n / 2 => cut[..i + c.len_utf8()].to_owned(),
        _ => cut,
    }
}

/// About the last `n` characters of `s`, starting at a whitespace character when one is among the
/// first half of them.
fn last_chars(s: &str, n: usize) -> String {
    let skip = s.chars().count().saturating_sub(n);
    let cut: String = s.chars().skip(skip).collect();
    let space = cut
        .char_indices()
        .enumerate()
        .find(|(_, (_, c))| c.is_whitespace());
    match space {
        Some((k, (i, _))) if k <= n / 2 => cut[i..].to_owned(),
        _ => cut,
    }
}

/// A change of more than [`CHANGE`] characters as its two ends around an ellipsis.
fn clip(s: &str) -> String {
    let chars = s.chars().count();
    if chars <= CHANGE {
        return s.to_owned();
    }
    let head: String = s.chars().take(CHANGE / 2).collect();
    let tail: String = s.chars().skip(chars - CHANGE / 4).collect();
    format!("{head}…{tail}")
}

/// The word-level difference a report shows for `d`: for a TEXT difference, or any between two
/// texts of several words; `None` for other values, which read well as they are. A text compared
/// only up to its normative prefix is compared up to that length, and the rest elided.
pub fn of_difference(d: &Difference) -> Option<Vec<Piece>> {
    let (Value::String(e), Value::String(a)) = (&d.expected, &d.actual) else {
        return None;
    };
    let words = |s: &str| s.trim().contains(char::is_whitespace);
    if d.severity != Severity::Text && !words(e) && !words(a) {
        return None;
    }
    Some(match d.normative_chars() {
        Some(n) => {
            let cut: String = a.chars().take(n).collect();
            let mut pieces = diff(e, &cut);
            if a.chars().nth(n).is_some() {
                pieces.push(Piece::Elided);
            }
            pieces
        }
        None => diff(e, a),
    })
}

/// Control characters as `\n`, `\t`, `\r` or `\u{XXXX}`: a report line stays one line, and an
/// adapter's text cannot drive the terminal.
pub fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                let _ = write!(out, "\\u{{{:04x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The difference for a terminal: removed text red and added text green with `color`, otherwise
/// `[-removed-]{+added+}`.
pub fn terminal(pieces: &[Piece], color: bool) -> String {
    let mut out = String::new();
    for p in pieces {
        match (p, color) {
            (Piece::Same(t), _) => out.push_str(&visible(t)),
            (Piece::Elided, _) => out.push('…'),
            (Piece::Removed(t), true) => {
                let _ = write!(out, "\x1b[31m{}\x1b[0m", visible(t));
            }
            (Piece::Added(t), true) => {
                let _ = write!(out, "\x1b[32m{}\x1b[0m", visible(t));
            }
            (Piece::Removed(t), false) => {
                let _ = write!(out, "[-{}-]", visible(t));
            }
            (Piece::Added(t), false) => {
                let _ = write!(out, "{{+{}+}}", visible(t));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(e: &str, a: &str) -> String {
        terminal(&diff(e, a), false)
    }

    #[test]
    fn a_changed_word_is_marked_with_context_around_it() {
        assert_eq!(
            plain(
                "Error: the user rejected tool \"pwsh\"",
                "Error: the user declined tool \"pwsh\""
            ),
            "Error: the user [-rejected-]{+declined+} tool \"pwsh\""
        );
        assert_eq!(plain("a b c", "a x y c"), "a [-b-]{+x y+} c");
        assert_eq!(plain("same", "same"), "same");
        assert_eq!(plain("", "added"), "{+added+}");
        assert_eq!(plain("removed words", ""), "[-removed words-]");
        // A change inside a word shows the whole word.
        assert_eq!(
            plain("tool pwsh ran", "tool pwshx ran"),
            "tool [-pwsh-]{+pwshx+} ran"
        );
    }

    #[test]
    fn long_unchanged_runs_shrink_to_an_ellipsis() {
        let lead = "word ".repeat(60);
        let trail = " more".repeat(60);
        let e = format!("{lead}the reviewer said deny{trail}");
        let a = format!("{lead}the reviewer said allow{trail}");
        let shown = plain(&e, &a);
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert!(shown.contains("said [-deny-]{+allow+} more"), "{shown}");
        assert!(shown.chars().count() < 80, "{shown}");
        // Two changes far apart keep their contexts and elide the middle.
        let e = format!("alpha {lead}omega");
        let a = format!("ALPHA {lead}OMEGA");
        let shown = plain(&e, &a);
        assert_eq!(shown.matches('…').count(), 1, "{shown}");
        assert!(shown.starts_with("[-alpha-]{+ALPHA+} word"), "{shown}");
        assert!(shown.ends_with("word [-omega-]{+OMEGA+}"), "{shown}");
    }

    #[test]
    fn long_or_hostile_texts_stay_bounded_and_on_one_line() {
        let e = "x ".repeat(200_000);
        let a = "y ".repeat(200_000);
        let start = std::time::Instant::now();
        let shown = plain(&e, &a);
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
        assert!(shown.chars().count() < 2 * CHANGE + 16, "{}", shown.len());
        // One-letter words up to the limit: as many tokens as a middle can hold.
        let e = "a ".repeat(DIFF_LIMIT / 2);
        let b = "b ".repeat(DIFF_LIMIT / 2);
        let start = std::time::Instant::now();
        let shown = plain(&e, &b);
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
        assert!(shown.chars().count() < 2 * CHANGE + 16, "{}", shown.len());
        let shown = terminal(&diff("a\n\u{1b}[2J b", "a\n\u{7} b"), false);
        assert!(!shown.contains(['\n', '\u{1b}', '\u{7}']), "{shown}");
        assert!(shown.contains("\\u{001b}[2J"), "{shown}");
        // Multi-byte text splits on character boundaries.
        assert_eq!(plain("é à ü", "é ö ü"), "é [-à-]{+ö+} ü");
    }

    #[test]
    fn a_normative_prefix_is_compared_up_to_its_length() {
        let d = Difference {
            clauses: Vec::new(),
            severity: Severity::Text,
            pointer: "/result/text".into(),
            expected: "Error: the user rejected".into(),
            actual: "Error: the user declined tool \"pwsh\" and more".into(),
            rule: Some("the case's expectation".into()),
        };
        // Another rule: the whole text is compared.
        let whole = terminal(&of_difference(&d).unwrap(), false);
        assert!(whole.contains("{+declined tool"), "{whole}");
        let d = Difference {
            rule: Some("only the first 24 characters are normative".into()),
            ..d
        };
        assert_eq!(d.normative_chars(), Some(24));
        assert_eq!(
            terminal(&of_difference(&d).unwrap(), false),
            "Error: the user [-rejected-]{+declined+}…"
        );
        // Short values of other severities read as they are.
        let kind = Difference {
            clauses: Vec::new(),
            severity: Severity::Decision,
            pointer: "/listener/kind".into(),
            expected: "deny".into(),
            actual: "allow".into(),
            rule: None,
        };
        assert_eq!(of_difference(&kind), None);
    }

    /// A multi-byte whitespace character (the ideographic space of Chinese text, U+3000) where
    /// the context beside a change is cut: the cut falls on a character boundary.
    #[test]
    fn context_cut_beside_multi_byte_whitespace_keeps_whole_characters() {
        let lead = format!("{}\u{3000}的文字内容很长的文字", "很长".repeat(12));
        let tail = "用户拒绝了工具调用之后的所有\u{3000}文字内容都很长很长很长很长";
        let e = format!("{lead} 拒绝 {tail}");
        let a = format!("{lead} 允许 {tail}");
        // Each side keeps its context up to the space nearest the cut, the space included.
        assert_eq!(
            plain(&e, &a),
            "…\u{3000}的文字内容很长的文字 [-拒绝-]{+允许+} 用户拒绝了工具调用之后的所有\u{3000}…"
        );
    }

    #[test]
    fn colour_marks_changes_without_brackets() {
        let shown = terminal(&diff("a b c", "a x c"), true);
        assert_eq!(shown, "a \u{1b}[31mb\u{1b}[0m\u{1b}[32mx\u{1b}[0m c");
    }

    /// Checks `pieces`, the difference of `e` and `a`: each unchanged or removed run is text of
    /// `e` and each added run text of `a` (up to an ellipsis of its own), each is bounded when
    /// something changed, and the terminal line holds no control character.
    fn holds(pieces: &[Piece], e: &str, a: &str) {
        let changed = pieces
            .iter()
            .any(|p| matches!(p, Piece::Removed(_) | Piece::Added(_)));
        for p in pieces {
            let (t, side, max) = match p {
                Piece::Same(t) => (t, e, 2 * CONTEXT + 8),
                Piece::Removed(t) => (t, e, CHANGE + 1),
                Piece::Added(t) => (t, a, CHANGE + 1),
                Piece::Elided => continue,
            };
            let head = t.split('…').next().unwrap_or_default();
            assert!(side.contains(head), "{head:?} is not in {side:?}");
            assert!(
                !changed || t.chars().count() <= max,
                "{} characters: {t:?}",
                t.chars().count()
            );
        }
        let shown = terminal(pieces, false);
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Any two texts, and two texts that differ between long shared runs of any text (so that
        /// the context is cut): the difference never panics and holds.
        #[test]
        fn any_texts_diff_within_bounds(
            e in crate::report::tests::any_text(),
            a in crate::report::tests::any_text(),
            around in crate::report::tests::any_text(),
        ) {
            holds(&diff(&e, &a), &e, &a);
            let (e, a) = (format!("{around}{e}{around}"), format!("{around}{a}{around}"));
            holds(&diff(&e, &a), &e, &a);
            for rule in ["only the first 0 characters are normative", "only the first 30 characters are normative"] {
                let d = Difference {
                    clauses: Vec::new(),
                    severity: Severity::Text,
                    pointer: "/result/text".into(),
                    expected: e.clone().into(),
                    actual: a.clone().into(),
                    rule: Some(rule.into()),
                };
                let pieces = of_difference(&d).unwrap();
                holds(&pieces, &e, &a);
            }
        }
    }
}
