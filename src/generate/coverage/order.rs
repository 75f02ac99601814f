//! Inputs that match two rules of an ordered rule list at once. The rules are ordered: only an
//! input that two rules with different results both match tells a gate that tries them in another
//! order from one that follows the spec, so fixed and generated cases are held to every such pair
//! of two lists: the failure classification (AR-REVIEW-7) and the strict reader's rules
//! (AR-PARSE-1..7, "the first rule violated is the failure").

use crate::engine::review::{CLASSIFICATION_RULES, Condition};
use crate::outcome::FailureClass;
use crate::parse::{Reply, ReplyError, object, strict};
use crate::profile::{Profile, Reader};
use crate::scenario::{BlockKind, FailedFinishKind};

/// The ordered rule lists whose pairs are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum List {
    /// The failure classification of AR-REVIEW-7, numbered as [`Rule`] says.
    Classification,
    /// The strict reader's rules, AR-PARSE-1 to AR-PARSE-7 by their number (baseline only).
    Strict,
}

/// Two rules of one list that one input matches, the earlier first.
pub type Pair = (List, Rule, Rule);

/// Every pair either list can meet in `profile`'s cases.
pub fn possible(profile: Profile) -> Vec<Pair> {
    let classification = classification_possible()
        .into_iter()
        .map(|(a, b)| (List::Classification, a, b));
    // AR-PARSE-1..7: the strict reader's rules, in order.
    let strict = match profile.reader() {
        Reader::Strict => strict_possible(),
        Reader::Tolerant => Vec::new(),
    };
    classification
        .chain(strict.into_iter().map(|(a, b)| (List::Strict, a, b)))
        .collect()
}

/// A pair as the terminal shows it.
pub fn name(p: &Pair) -> String {
    match p {
        (List::Classification, a, b) => format!("classification rules {a} and {b}"),
        (List::Strict, a, b) => format!("AR-PARSE-{a} and -{b}"),
    }
}

/// A rule of AR-REVIEW-7: `0` for the finish kind `aborted` (which decides before any rule), then
/// the table's rules 1 to 6 (rule 7, "otherwise", matches nothing on its own).
pub type Rule = u8;

/// The engine's rules, numbered as the spec's table numbers them.
fn rules() -> impl Iterator<Item = (Rule, Condition, FailureClass)> {
    (1..)
        .zip(CLASSIFICATION_RULES)
        .map(|(n, (c, class))| (n, c, class))
}

/// The class each rule gives.
fn class(rule: Rule) -> FailureClass {
    rules()
        .find(|(n, _, _)| *n == rule)
        .map_or(FailureClass::Aborted, |(_, _, class)| class)
}

/// The rules a failed finish matches, each tested on its own (codes compare exactly, message
/// patterns case-insensitively against `message`, the text form of the provider's message).
pub fn matching(kind: FailedFinishKind, code: &str, message: &str) -> Vec<Rule> {
    let lowercase = message.to_lowercase();
    let aborted = (kind == FailedFinishKind::Aborted).then_some(0);
    aborted
        .into_iter()
        .chain(
            rules()
                .filter(|(_, c, _)| c.holds(code, &lowercase))
                .map(|(n, _, _)| n),
        )
        .collect()
}

/// The pairs of rules with different classes that a failed finish matches together, the earlier
/// rule first.
pub fn pairs(kind: FailedFinishKind, code: &str, message: &str) -> Vec<(Rule, Rule)> {
    let m = matching(kind, code, message);
    let mut out = Vec::new();
    for (i, a) in m.iter().enumerate() {
        for b in &m[i + 1..] {
            if class(*a) != class(*b) {
                out.push((*a, *b));
            }
        }
    }
    out
}

/// Every pair of rules with different classes that one finish can match: the kind `aborted` with
/// each rule, and any rule with a later message rule. Two code rules never meet, since a code is
/// one string.
pub fn classification_possible() -> Vec<(Rule, Rule)> {
    let mut out: Vec<(Rule, Rule)> = rules().map(|(n, _, _)| (0, n)).collect();
    for (a, _, class_a) in rules() {
        for (b, c, class_b) in rules() {
            if b > a && matches!(c, Condition::Message(_)) && class_a != class_b {
                out.push((a, b));
            }
        }
    }
    out
}

/// The strict reader's rules (AR-PARSE-1..7) `reply` breaks, each judged on its own: the finish
/// (1), data after it (2), the block sequence (3), and, when the reply holds exactly one text
/// block, that text as JSON (4), as an object (5), its repeated names (6) and its shape (7).
pub fn strict_matching(reply: &Reply<'_>) -> Vec<Rule> {
    let mut out = Vec::new();
    if reply.stopped().is_err() {
        out.push(1);
    }
    if reply.data_after_finish {
        out.push(2);
    }
    if strict::lone_text(&reply.blocks).is_none() {
        out.push(3);
    }
    let mut texts = reply.blocks.iter().filter(|b| b.kind == BlockKind::Text);
    if let (Some(text), None) = (texts.next(), texts.next()) {
        match object::object(text.text) {
            Err(ReplyError::NotObject) => out.push(5),
            Err(_) => out.push(4),
            Ok(o) => {
                if o.has_repeated_name() {
                    out.push(6);
                }
                if object::shape_of(&o).is_err() {
                    out.push(7);
                }
            }
        }
    }
    out
}

/// The pairs of strict reader rules `reply` breaks together. Each rule has a message of its own,
/// so every pair is one whose order decides.
pub fn strict_pairs(reply: &Reply<'_>) -> Vec<(Rule, Rule)> {
    let m = strict_matching(reply);
    let mut out = Vec::new();
    for (i, a) in m.iter().enumerate() {
        for b in &m[i + 1..] {
            out.push((*a, *b));
        }
    }
    out
}

/// Every pair of strict reader rules one reply can break: the finish, data after it and the
/// blocks each with any later rule, and a repeated name with a shape that fits none. A text that
/// is not JSON (4) has no value for 5 to 7, and a value that is not an object (5) none for 6
/// and 7.
pub fn strict_possible() -> Vec<(Rule, Rule)> {
    let mut out = Vec::new();
    for a in 1..=3 {
        for b in a + 1..=7 {
            out.push((a, b));
        }
    }
    out.push((6, 7));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classification the engine makes is the first matching rule's class, so the pairs
    /// stand for exactly the inputs on which the order decides.
    #[test]
    fn the_first_matching_rule_decides_as_the_engine_classifies() {
        let codes = [
            "TIMEOUT",
            "HTTP_429",
            "NETWORK",
            "UNKNOWN",
            "DEADLINE_EXCEEDED",
        ];
        let messages = [
            "quota exceeded, connection error, timed out",
            "socket hang up after TIMEOUT",
            "Rate limit reached",
            "plain",
            "",
        ];
        for kind in [FailedFinishKind::Error, FailedFinishKind::Aborted] {
            for code in codes {
                for message in messages {
                    let first = matching(kind, code, message).first().map(|r| class(*r));
                    assert_eq!(
                        first.unwrap_or(FailureClass::Provider),
                        crate::engine::review::classify_finish(kind, code, message),
                        "{kind:?} {code} {message:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn pairs_are_rules_with_different_classes_matched_together() {
        assert_eq!(
            pairs(FailedFinishKind::Error, "TIMEOUT", "quota gone"),
            [(1, 4)]
        );
        // Rules 3 and 5 both say transport: the order cannot matter.
        assert!(pairs(FailedFinishKind::Error, "NETWORK", "connection error").is_empty());
        assert_eq!(pairs(FailedFinishKind::Aborted, "HTTP_429", "x"), [(0, 2)]);
        let all = classification_possible();
        assert_eq!(all.len(), 6 + 6 + 3);
        assert!(all.contains(&(3, 4)) && all.contains(&(5, 6)) && !all.contains(&(1, 2)));
        assert!(!all.contains(&(1, 6)) && !all.contains(&(2, 4)) && !all.contains(&(3, 5)));
    }

    fn blocks(list: &[(BlockKind, &str)]) -> Vec<crate::scenario::Block> {
        list.iter()
            .map(|(kind, text)| crate::scenario::Block {
                kind: *kind,
                text: (*text).to_owned(),
            })
            .collect()
    }

    #[test]
    fn each_strict_rule_is_judged_on_its_own() {
        use BlockKind::{Reasoning, Text, ToolCall};
        let text = |t: &str| strict_matching(&Reply::text(t));
        assert!(text(r#"{"risk":"low","decision":"allow"}"#).is_empty());
        assert_eq!(text("Sure."), [4]);
        assert_eq!(text("[1]"), [5]);
        assert_eq!(
            text(r#"{"risk":"high","decision":"deny","risk":"high"}"#),
            [6, 7]
        );
        assert_eq!(text(r#"{"risk":"low","decision":"deny"}"#), [7]);
        let finish = crate::scenario::FailedFinish {
            kind: FailedFinishKind::Error,
            code: "TRANSPORT".into(),
            message: "reset".into(),
        };
        // A failed finish has no blocks: the finish and the block rule both refuse it.
        assert_eq!(strict_matching(&Reply::failed(&finish)), [1, 3]);
        let of = |list: &[(BlockKind, &str)], finish: &str, after: bool| {
            strict_matching(&Reply::blocks(&blocks(list), Some(finish), after))
        };
        assert_eq!(
            of(&[(Text, "x"), (Reasoning, "r")], "max-tokens", true),
            [1, 2, 3, 4]
        );
        assert_eq!(of(&[(ToolCall, "t"), (Text, "[]")], "stop", false), [3, 5]);
        // Two text blocks: no single text for the later rules to read.
        assert_eq!(of(&[(Text, "x"), (Text, "y")], "stop", false), [3]);
        assert_eq!(of(&[(Reasoning, "r"), (Text, "{}")], "stop", true), [2, 7]);
        assert_eq!(strict_pairs(&Reply::text(r#"{"a":1,"a":2}"#)), [(6, 7)]);
        assert_eq!(strict_possible().len(), 6 + 5 + 4 + 1);
    }

    /// The first rule a reply breaks on its own is the one the strict reader refuses it by, for
    /// the replies the generator draws: the pairs stand for exactly the replies on which the
    /// order decides.
    #[test]
    fn the_first_broken_rule_is_the_strict_reader_s_failure() {
        use crate::generate::direct::{Rng, attempt};
        let mut met = std::collections::BTreeSet::new();
        for k in 0..3_000 {
            let a = attempt(&mut Rng::for_case(7, k));
            let Some(reply) = Reply::delivered(&a) else {
                continue;
            };
            let first = strict_matching(&reply)
                .first()
                .map(|r| format!("AR-PARSE-{r}"));
            let read = strict::read(&reply)
                .err()
                .map(|e| e.clause(Profile::BASELINE));
            assert_eq!(first.as_deref(), read, "{a:?}");
            met.extend(strict_pairs(&reply));
        }
        assert!(met.len() > 8, "the draws met only {met:?}");
    }
}
