//! Inputs that match two rules of the failure classification at once (AR-REVIEW-7). The rules are
//! ordered: only an input that two rules with different classes both match tells a gate that
//! tries them in another order from one that follows the spec, so fixed and generated cases are
//! held to every such pair.

use crate::engine::review::{CLASSIFICATION_RULES, Condition};
use crate::outcome::FailureClass;
use crate::scenario::FailedFinishKind;

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
pub fn possible() -> Vec<(Rule, Rule)> {
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
        let all = possible();
        assert_eq!(all.len(), 6 + 6 + 3);
        assert!(all.contains(&(3, 4)) && all.contains(&(5, 6)) && !all.contains(&(1, 2)));
        assert!(!all.contains(&(1, 6)) && !all.contains(&(2, 4)) && !all.contains(&(3, 5)));
    }
}
