//! Reply shapes the two readers decide on (chapters 4 and 10), and failure codes the
//! classification reads (AR-REVIEW-7): each reader rule on the side it refuses and the side it
//! lets through, every class of whitespace before and after an allow, fenced allows, whitespace
//! around an allow on either side of the tolerant reader's size bound, lone surrogate escapes,
//! and failure codes a message pattern matches.
//!
//! A shape is met only where the rule is in play: the whitespace, fence and surrogate shapes are
//! judged on the text the profile's reader reads, and only when the reply gets that far (a
//! stopped reply; in the baseline one text block after reasoning and nothing after the finish, in
//! the resilient profile no tool call).

use std::borrow::Cow;

use super::Shape;
use crate::engine::review::{CLASSIFICATION_RULES, Condition};
use crate::outcome::Outcome;
use crate::parse::{Finish, Reply, ReplyError, ReviewerDecision, strict, tolerant};
use crate::profile::{Profile, Reader};
use crate::scenario::{Attempt, BlockKind, FailedFinishKind, Scenario};

/// A reply the rule `clause` refuses.
pub const fn refuses(clause: &'static str) -> Shape {
    Shape {
        clause,
        name: "a reply the rule refuses",
    }
}

/// A reply that reaches the rule `clause` and that the rule lets through.
pub const fn passes(clause: &'static str) -> Shape {
    Shape {
        clause,
        name: "a reply the rule lets through",
    }
}

/// A class of characters that may stand next to an allow, as the readers and the languages'
/// trimming functions tell them apart. The baseline's strict reader lets only JSON whitespace
/// through (AR-PARSE-4); the tolerant reader trims what ECMAScript's `trim` trims (AR-TOL-10,
/// with one leading byte-order mark removed first by AR-TOL-4): every class below but U+0085
/// and the information separators. Python's `str.strip` removes U+0085 and the separators too,
/// and keeps U+FEFF.
#[derive(Debug, Clone, Copy)]
pub struct Space {
    /// Whether `c` is of the class.
    pub holds: fn(char) -> bool,
    /// Characters of the class the generator draws.
    pub drawn: &'static [char],
    /// Characters of the class before an allow, and nothing else but whitespace.
    pub before: Shape,
    /// Characters of the class after an allow, and nothing else but whitespace.
    pub after: Shape,
}

macro_rules! space {
    ($words:literal, $drawn:expr, $holds:expr) => {
        Space {
            holds: $holds,
            drawn: $drawn,
            before: Shape {
                clause: "AR-TOL-10",
                name: concat!($words, " before an allow"),
            },
            after: Shape {
                clause: "AR-TOL-10",
                name: concat!($words, " after an allow"),
            },
        }
    };
}

/// The classes of whitespace next to an allow, each on its own.
pub const SPACES: [Space; 9] = [
    space!("JSON whitespace", &[' ', '\t', '\n', '\r'], |c| matches!(
        c,
        ' ' | '\t' | '\n' | '\r'
    )),
    space!("a form feed or vertical tab", &['\u{c}', '\u{b}'], |c| {
        matches!(c, '\u{b}' | '\u{c}')
    }),
    space!("U+0085", &['\u{85}'], |c| c == '\u{85}'),
    space!("U+00A0", &['\u{a0}'], |c| c == '\u{a0}'),
    space!("U+3000", &['\u{3000}'], |c| c == '\u{3000}'),
    space!("U+FEFF", &['\u{feff}'], |c| c == '\u{feff}'),
    space!("U+2028 or U+2029", &['\u{2028}', '\u{2029}'], |c| matches!(
        c,
        '\u{2028}' | '\u{2029}'
    )),
    space!(
        "another space separator",
        &['\u{1680}', '\u{2003}', '\u{202f}', '\u{205f}'],
        |c| matches!(
            c,
            '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}'
        )
    ),
    space!(
        "an information separator (U+001C..U+001F)",
        &['\u{1c}', '\u{1f}'],
        |c| matches!(c, '\u{1c}'..='\u{1f}')
    ),
];

/// The classes of [`SPACES`] the characters of `text` belong to, bit `i` for class `i`, or `None`
/// when one belongs to none: one pass, a character like the one before it skipped, so padding a
/// megabyte long costs one comparison a character.
fn classes(text: &str) -> Option<u32> {
    let mut found = 0;
    let mut last = None;
    for c in text.chars() {
        if last == Some(c) {
            continue;
        }
        last = Some(c);
        let mut any = false;
        for (i, s) in SPACES.iter().enumerate() {
            if (s.holds)(c) {
                found |= 1 << i;
                any = true;
            }
        }
        if !any {
            return None;
        }
    }
    Some(found)
}

/// A fence around an allow whose opening line names a language (AR-TOL-10: it stands).
pub const FENCE_LANGUAGE: Shape = Shape {
    clause: "AR-TOL-10",
    name: "a fenced allow, its info string a language name",
};
/// A fence around an allow with nothing after the opening marker (AR-TOL-4: it stands).
pub const FENCE_NO_INFO: Shape = Shape {
    clause: "AR-TOL-4",
    name: "a fenced allow without an info string",
};
/// A fence around an allow whose opening line says more than a language name (AR-TOL-10: the
/// allow does not stand).
pub const FENCE_OTHER_INFO: Shape = Shape {
    clause: "AR-TOL-10",
    name: "a fenced allow, its info string not a language name",
};
/// A fence whose closing marker follows the allow on the object's own line (AR-TOL-4: the
/// marker ends the text whatever precedes it on its line).
pub const FENCE_SAME_LINE: Shape = Shape {
    clause: "AR-TOL-4",
    name: "a fenced allow, its closing marker on the object's line",
};
/// An allow between a backtick fence marker and a tilde one (AR-TOL-10: not one fence).
pub const FENCE_MARKERS_DIFFER: Shape = Shape {
    clause: "AR-TOL-10",
    name: "an allow between two different fence markers",
};
/// Whitespace around an allow, the text within the tolerant reader's bound but less than 64 KiB
/// under it (AR-TOL-3: read).
pub const ALLOW_PADDED_WITHIN_BOUND: Shape = Shape {
    clause: "AR-TOL-3",
    name: "whitespace around an allow, at the bound",
};
/// Whitespace around an allow, the text over the tolerant reader's bound (AR-TOL-3: refused
/// unread; the strict reader has no bound and reads the allow).
pub const ALLOW_PADDED_OVER_BOUND: Shape = Shape {
    clause: "AR-TOL-3",
    name: "whitespace around an allow, over the bound",
};
/// A lone surrogate escape in a string value (AR-PARSE-4: valid JSON).
pub const LONE_SURROGATE_VALUE: Shape = Shape {
    clause: "AR-PARSE-4",
    name: "a lone surrogate escape in a string value",
};
/// A lone surrogate escape in a member name (AR-PARSE-6: names compare as UTF-16 code units).
pub const LONE_SURROGATE_NAME: Shape = Shape {
    clause: "AR-PARSE-6",
    name: "a lone surrogate escape in a member name",
};
/// A failed finish whose code no code rule names but whose text a message pattern matches
/// (AR-REVIEW-7: patterns are matched against the message only).
pub const CODE_MEETS_MESSAGE_PATTERN: Shape = Shape {
    clause: "AR-REVIEW-7",
    name: "a failure code a message pattern matches",
};

/// A stream that ends without a terminal finish, which the strict reader refuses first
/// (AR-PARSE-1).
pub const NO_FINISH_STRICT: Shape = Shape {
    clause: "AR-PARSE-1",
    name: "a stream without a terminal finish",
};
/// A stream that ends without a terminal finish, from which the tolerant reader reads no
/// decision (AR-TOL-1).
pub const NO_FINISH_TOLERANT: Shape = Shape {
    clause: "AR-TOL-1",
    name: "a stream without a terminal finish",
};

/// The reader shapes of one reply under `profile`, given what the profile's reader made of it.
pub fn of_reply(
    reply: &Reply<'_>,
    profile: Profile,
    read: &Result<ReviewerDecision, ReplyError>,
) -> Vec<Shape> {
    let mut out = rule_sides(read, profile);
    if reply.finish == Finish::Missing {
        out.push(match profile.reader() {
            Reader::Strict => NO_FINISH_STRICT,
            Reader::Tolerant => NO_FINISH_TOLERANT,
        });
    }
    if let Some(text) = read_text(reply, profile) {
        of_text(&text, &mut out);
    }
    out
}

/// Each rule of `profile`'s reader that `reply` reaches, on the side it meets: the rule that
/// refuses it, and every rule before that one (all of them when the reply is read).
fn rule_sides(read: &Result<ReviewerDecision, ReplyError>, profile: Profile) -> Vec<Shape> {
    let mut out = Vec::new();
    match profile.reader() {
        // AR-PARSE-1..7, in order.
        Reader::Strict => {
            const RULES: [&str; 7] = [
                "AR-PARSE-1",
                "AR-PARSE-2",
                "AR-PARSE-3",
                "AR-PARSE-4",
                "AR-PARSE-5",
                "AR-PARSE-6",
                "AR-PARSE-7",
            ];
            let refused = read.as_ref().err().map(|e| e.clause(profile));
            for rule in RULES {
                if Some(rule) == refused {
                    out.push(refuses(rule));
                    break;
                }
                out.push(passes(rule));
            }
        }
        // AR-TOL-1..10, in order.
        Reader::Tolerant => {
            // AR-TOL-5..7 are judged in one pass over the text: a reply one of them refuses
            // has not been let through by the others.
            const STEPS: [&[&str]; 6] = [
                &["AR-TOL-1"],
                &["AR-TOL-2"],
                &["AR-TOL-3"],
                &["AR-TOL-5", "AR-TOL-6", "AR-TOL-7"],
                &["AR-TOL-8"],
                &["AR-TOL-9", "AR-TOL-10"],
            ];
            let refused = read.as_ref().err().map(|e| e.clause(profile));
            let allow = matches!(read, Ok(ReviewerDecision::Allow { .. }));
            'steps: for step in STEPS {
                if let Some(r) = refused.filter(|r| step.contains(r)) {
                    // AR-TOL-9 comes before AR-TOL-10: an allow AR-TOL-10 refuses got past 9.
                    if r == "AR-TOL-10" {
                        out.push(passes("AR-TOL-9"));
                    }
                    out.push(refuses(r));
                    break 'steps;
                }
                if step.contains(&"AR-TOL-9") && !allow {
                    break; // AR-TOL-9 and -10 judge allows only.
                }
                out.extend(step.iter().map(|r| passes(r)));
            }
        }
    }
    out
}

/// The text `profile`'s reader judges as a decision, when `reply` gets that far.
fn read_text<'r>(reply: &Reply<'r>, profile: Profile) -> Option<Cow<'r, str>> {
    reply.stopped().ok()?;
    match profile.reader() {
        // AR-PARSE-2, AR-PARSE-3: one text block, nothing after the finish.
        Reader::Strict => {
            if reply.data_after_finish {
                return None;
            }
            strict::lone_text(&reply.blocks).map(Cow::Borrowed)
        }
        // AR-TOL-2: the text blocks joined; a tool call is not read.
        Reader::Tolerant => {
            if reply.blocks.iter().any(|b| b.kind == BlockKind::ToolCall) {
                return None;
            }
            let texts = tolerant::text_blocks(reply);
            Some(match texts.as_slice() {
                [one] => Cow::Borrowed(*one),
                many => Cow::Owned(many.concat()),
            })
        }
    }
}

/// Whether `text` is exactly one legal allow object (AR-PARSE-4..7).
fn is_allow(text: &str) -> bool {
    matches!(strict::parse_text(text), Ok(ReviewerDecision::Allow { .. }))
}

/// The shapes of one text a reader judges.
fn of_text(text: &str, out: &mut Vec<Shape>) {
    // Every shape below is of an object: a text without a brace holds none.
    if !text.contains('{') {
        return;
    }
    if let Some((before, after)) = around_allow(text) {
        for (i, s) in SPACES.iter().enumerate() {
            if before & (1 << i) != 0 {
                out.push(s.before);
            }
            if after & (1 << i) != 0 {
                out.push(s.after);
            }
        }
        let bound = tolerant::MAX_TEXT_BYTES;
        if text.len() > bound {
            out.push(ALLOW_PADDED_OVER_BOUND);
        } else if text.len() > bound - (64 << 10) {
            out.push(ALLOW_PADDED_WITHIN_BOUND);
        }
    }
    out.extend(fence(text));
    if !text.contains("\\u") {
        return;
    }
    for (in_name, _) in lone_surrogates(text) {
        let shape = if in_name {
            LONE_SURROGATE_NAME
        } else {
            LONE_SURROGATE_VALUE
        };
        if !out.contains(&shape) {
            out.push(shape);
        }
    }
}

/// When `text` is an allow object with nothing but characters of [`SPACES`] around it, the
/// classes of what stands before and after it ([`classes`]).
fn around_allow(text: &str) -> Option<(u32, u32)> {
    let start = text.find('{')?;
    let end = text.rfind('}')? + 1;
    if start >= end {
        return None;
    }
    let before = classes(&text[..start])?;
    let after = classes(&text[end..])?;
    is_allow(&text[start..end]).then_some((before, after))
}

/// The fence shape of `text`, when it is an allow inside fence markers: the text trimmed as
/// ECMAScript trims it starts with a marker, whose line ends before the allow, and ends with a
/// marker.
fn fence(text: &str) -> Option<Shape> {
    if !text.contains("```") && !text.contains("~~~") {
        return None;
    }
    let t = crate::jsstring::trim(text);
    let open = ["```", "~~~"].into_iter().find(|m| t.starts_with(m))?;
    let (info, rest) = t[open.len()..].split_once('\n')?;
    if info.contains('{') {
        return None; // AR-TOL-4: an opening line with a brace is no fence.
    }
    let close = ["```", "~~~"].into_iter().find(|m| rest.ends_with(m))?;
    let body = &rest[..rest.len() - close.len()];
    if !is_allow(crate::jsstring::trim(body)) {
        return None;
    }
    Some(if open != close {
        FENCE_MARKERS_DIFFER
    } else if !body.rsplit('\n').next().unwrap_or(body).trim().is_empty() {
        FENCE_SAME_LINE
    } else if crate::jsstring::trim(info).is_empty() {
        FENCE_NO_INFO
    } else if tolerant::is_plain_info(info) {
        FENCE_LANGUAGE
    } else {
        FENCE_OTHER_INFO
    })
}

/// The lone surrogate escapes (`\ud800` with no low surrogate escape after it, `\udc00` with
/// no high one before) in `text`, each with whether the string that holds it is a member name
/// (a `:` follows it) and the escape's offset. The scan tracks JSON strings only roughly (from
/// a quote to the next unescaped quote); it names what a text holds, and a reader decides.
fn lone_surrogates(text: &str) -> Vec<(bool, usize)> {
    let b = text.as_bytes();
    let unit = |at: usize| -> Option<u16> {
        (b.get(at) == Some(&b'\\') && b.get(at + 1) == Some(&b'u'))
            .then(|| std::str::from_utf8(b.get(at + 2..at + 6)?).ok())
            .flatten()
            .and_then(|h| u16::from_str_radix(h, 16).ok())
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'"' {
            i += 1;
            continue;
        }
        // A string from `i`: find its end, and the lone surrogates in it.
        let mut j = i + 1;
        let mut lone = Vec::new();
        let mut pending_high: Option<usize> = None;
        while j < b.len() && b[j] != b'"' {
            if b[j] == b'\\' {
                if let Some(u) = unit(j) {
                    match u {
                        0xd800..=0xdbff => {
                            lone.extend(pending_high.replace(j));
                        }
                        0xdc00..=0xdfff if pending_high.take().is_some() => {}
                        0xdc00..=0xdfff => lone.push(j),
                        _ => lone.extend(pending_high.take()),
                    }
                    j += 6;
                    continue;
                }
                lone.extend(pending_high.take());
                j += 2;
                continue;
            }
            lone.extend(pending_high.take());
            j += 1;
        }
        lone.extend(pending_high);
        let after = text.get(j + 1..).unwrap_or("").trim_start();
        let in_name = after.starts_with(':');
        out.extend(lone.into_iter().map(|at| (in_name, at)));
        i = j + 1;
    }
    out
}

/// The failure-code shapes of the attempts the review of `s` made.
pub fn of_call(s: &Scenario, outcome: &Outcome) -> Vec<Shape> {
    let mut out = Vec::new();
    for n in 0..outcome.review.attempts as usize {
        if let Attempt::Finish { finish, .. } = s.reviewer.attempt(n)
            && finish.kind == FailedFinishKind::Error
            && code_meets_message_pattern(&finish.code)
            && !out.contains(&CODE_MEETS_MESSAGE_PATTERN)
        {
            out.push(CODE_MEETS_MESSAGE_PATTERN);
        }
    }
    out
}

/// Whether `code`, read as a message, meets a message pattern of AR-REVIEW-7 while no code rule
/// names it: a gate that matched patterns against the code would classify it differently.
pub fn code_meets_message_pattern(code: &str) -> bool {
    let lowercase = code.to_lowercase();
    CLASSIFICATION_RULES
        .iter()
        .all(|(c, _)| !matches!(c, Condition::Code(_)) || !c.holds(code, ""))
        && CLASSIFICATION_RULES
            .iter()
            .any(|(c, _)| matches!(c, Condition::Message(_)) && c.holds("", &lowercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALLOW: &str = r#"{"risk":"low","decision":"allow"}"#;

    fn shapes(text: &str, profile: Profile) -> Vec<Shape> {
        let mut out = Vec::new();
        of_text(text, &mut out);
        let _ = profile;
        out
    }

    #[test]
    fn each_class_draws_its_own_characters_only() {
        for (i, s) in SPACES.iter().enumerate() {
            for c in s.drawn {
                let classes: Vec<usize> = (0..SPACES.len())
                    .filter(|j| (SPACES[*j].holds)(*c))
                    .collect();
                assert_eq!(classes, [i], "{c:?}");
            }
        }
    }

    #[test]
    fn each_class_of_whitespace_is_told_apart_on_its_side() {
        assert_eq!(
            shapes(&format!("\u{feff}{ALLOW}\u{85}"), Profile::RESILIENT),
            [SPACES[2].after, SPACES[5].before]
        );
        assert_eq!(
            shapes(
                &format!("\u{1c}\u{2003}{ALLOW} \u{2029}"),
                Profile::BASELINE
            ),
            [
                SPACES[0].after,
                SPACES[6].after,
                SPACES[7].before,
                SPACES[8].before
            ]
        );
        // A word beside the allow is prose, not whitespace.
        assert!(shapes(&format!("ok {ALLOW}"), Profile::BASELINE).is_empty());
        // A deny is read whatever surrounds it: no whitespace shape.
        assert!(
            shapes(
                "\u{a0}{\"risk\":\"high\",\"decision\":\"deny\"}",
                Profile::BASELINE
            )
            .is_empty()
        );
    }

    #[test]
    fn fences_are_told_apart_by_their_opening_line_and_markers() {
        let f = |t: &str| fence(t);
        assert_eq!(f(&format!("```json\n{ALLOW}\n```")), Some(FENCE_LANGUAGE));
        assert_eq!(f(&format!("~~~ c++ \n{ALLOW}\n~~~")), Some(FENCE_LANGUAGE));
        assert_eq!(f(&format!("```\n{ALLOW}\n```")), Some(FENCE_NO_INFO));
        assert_eq!(
            f(&format!("```json title=\"x\"\n{ALLOW}\n```")),
            Some(FENCE_OTHER_INFO)
        );
        assert_eq!(f(&format!("```json\n{ALLOW}```")), Some(FENCE_SAME_LINE));
        assert_eq!(
            f(&format!("```json\n{ALLOW}\n~~~")),
            Some(FENCE_MARKERS_DIFFER)
        );
        assert_eq!(f(&format!("```json {ALLOW}\n```")), None);
        assert_eq!(
            f("```json\n{\"risk\":\"high\",\"decision\":\"deny\"}\n```"),
            None
        );
    }

    #[test]
    fn lone_surrogates_are_found_in_names_and_values() {
        assert_eq!(lone_surrogates(r#"{"a":"\ud800"}"#), [(false, 6)]);
        assert_eq!(lone_surrogates(r#"{"\udc00" : 1}"#), [(true, 2)]);
        // A pair is no lone surrogate; a high one before a plain character is.
        assert!(lone_surrogates(r#"{"a":"\ud83d\ude00"}"#).is_empty());
        assert_eq!(lone_surrogates(r#""\uD800x\\u0000""#).len(), 1);
        assert_eq!(lone_surrogates(r#""\ud800\ud800""#).len(), 2);
    }

    #[test]
    fn a_code_meets_a_message_pattern_only_when_no_code_rule_names_it() {
        assert!(code_meets_message_pattern("rate limit"));
        assert!(code_meets_message_pattern("Socket Hang Up"));
        assert!(!code_meets_message_pattern("QUOTA_EXCEEDED"));
        assert!(!code_meets_message_pattern("TIMEOUT"));
        assert!(!code_meets_message_pattern("BAD_REQUEST"));
    }

    #[test]
    fn each_rule_is_met_on_the_side_the_reader_decides() {
        let r = |t: &str, p: Profile| {
            let reply = Reply::text(t);
            rule_sides(&p.reader().read(&reply), p)
        };
        assert_eq!(
            r(ALLOW, Profile::BASELINE).len(),
            7,
            "an allow passes every strict rule"
        );
        assert_eq!(
            r(&format!("\u{a0}{ALLOW}"), Profile::BASELINE).last(),
            Some(&refuses("AR-PARSE-4"))
        );
        assert_eq!(
            r(&format!("\u{a0}{ALLOW}"), Profile::RESILIENT).last(),
            Some(&passes("AR-TOL-10"))
        );
        assert_eq!(
            r(&format!("\u{85}{ALLOW}"), Profile::RESILIENT)[7..],
            [passes("AR-TOL-9"), refuses("AR-TOL-10")]
        );
        // A deny never reaches AR-TOL-9 or -10.
        assert_eq!(
            r(
                "x {\"risk\":\"high\",\"decision\":\"deny\"}",
                Profile::RESILIENT
            )
            .last(),
            Some(&passes("AR-TOL-8"))
        );
        assert_eq!(
            r("none", Profile::RESILIENT).last(),
            Some(&refuses("AR-TOL-5"))
        );
    }
}
