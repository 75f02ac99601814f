//! Shapes a case holds that some rule decides on, each named with the clause whose rule it meets:
//! the shapes of reviewer replies each reader rule refuses or accepts (chapters 4 and 10), and the
//! states a session carries from one call to the next (chapters 9 and 11). A rule a generator
//! never meets on one of its sides is a rule whose defects no run can find, so fixed and
//! generated cases are both held to every shape of their profile, as they are to clauses and
//! limits.
//!
//! A shape names what the input holds, not what the reference made of it: "an allow written
//! twice" is met whether the reader accepts it (AR-TOL-10, a byte-identical copy) or refuses it
//! (AR-PARSE-4, two values). A rule is met on each side when the list holds a shape of each side.

use crate::outcome::{Outcome, SessionOutcome};
use crate::parse::Reply;
use crate::profile::Profile;
use crate::scenario::Scenario;
use crate::scenario::session::SessionScenario;

use crate::engine::review::Settlement;
use crate::generate::numbers::NumberClass;
use crate::scenario::Attempt;

/// A shape a case holds, with the clause whose rule decides on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shape {
    /// The clause whose rule the shape meets.
    pub clause: &'static str,
    /// What the case holds, in a few words.
    pub name: &'static str,
}

/// Which profiles a shape is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum In {
    /// Both.
    Both,
    /// The baseline only.
    Baseline,
    /// The resilient profile only.
    Resilient,
}

impl In {
    fn holds(self, profile: Profile) -> bool {
        match self {
            In::Both => true,
            In::Baseline => profile == Profile::Baseline,
            In::Resilient => profile == Profile::Resilient,
        }
    }
}

/// A shape of one reviewer reply the review read.
pub const ALLOW_TWICE: Shape = Shape {
    clause: "AR-TOL-10",
    name: "an allow written twice",
};

/// Every shape, with the profiles that are held to it.
pub const ALL: &[(Shape, In)] = &[
    (ALLOW_TWICE, In::Both),
    // Numbers a failure message shows, by class (`generate::numbers`): AR-REVIEW-5 in the
    // baseline, AR-RES-NORM-1 in the resilient profile.
    (
        number(NumberClass::Integer, Profile::Baseline),
        In::Baseline,
    ),
    (
        number(NumberClass::Fraction, Profile::Baseline),
        In::Baseline,
    ),
    (
        number(NumberClass::WholeDecimal, Profile::Baseline),
        In::Baseline,
    ),
    (
        number(NumberClass::NegativeZero, Profile::Baseline),
        In::Baseline,
    ),
    (number(NumberClass::Micro, Profile::Baseline), In::Baseline),
    (
        number(NumberClass::BelowMicro, Profile::Baseline),
        In::Baseline,
    ),
    (
        number(NumberClass::SafeEdge, Profile::Baseline),
        In::Baseline,
    ),
    (number(NumberClass::Large, Profile::Baseline), In::Baseline),
    (number(NumberClass::Huge, Profile::Baseline), In::Baseline),
    (
        number(NumberClass::Integer, Profile::Resilient),
        In::Resilient,
    ),
    (
        number(NumberClass::Fraction, Profile::Resilient),
        In::Resilient,
    ),
    (
        number(NumberClass::WholeDecimal, Profile::Resilient),
        In::Resilient,
    ),
    (
        number(NumberClass::NegativeZero, Profile::Resilient),
        In::Resilient,
    ),
    (
        number(NumberClass::Micro, Profile::Resilient),
        In::Resilient,
    ),
    (
        number(NumberClass::BelowMicro, Profile::Resilient),
        In::Resilient,
    ),
    (
        number(NumberClass::SafeEdge, Profile::Resilient),
        In::Resilient,
    ),
    (
        number(NumberClass::Large, Profile::Resilient),
        In::Resilient,
    ),
    (number(NumberClass::Huge, Profile::Resilient), In::Resilient),
    // End of the numbers.
];

/// The shapes `profile`'s cases are held to.
pub fn possible(profile: Profile) -> Vec<Shape> {
    ALL.iter()
        .filter(|(_, i)| i.holds(profile))
        .map(|(s, _)| *s)
        .collect()
}

/// The shapes one reply the review read holds, under `profile`.
pub fn of_reply(reply: &Reply<'_>, profile: Profile) -> Vec<Shape> {
    let _ = profile;
    let mut out = Vec::new();
    let text: String = reply
        .blocks
        .iter()
        .filter(|b| b.kind == crate::scenario::BlockKind::Text)
        .map(|b| b.text)
        .collect();
    if crate::generate::BARE_OBJECTS
        .iter()
        .filter(|o| o.contains("allow"))
        .any(|o| text.matches(o).count() >= 2)
    {
        out.push(ALLOW_TWICE);
    }
    out
}

/// The shapes the call `s` holds beyond its replies, given its outcome under `profile`.
pub fn of_call(s: &Scenario, profile: Profile, outcome: &Outcome) -> Vec<Shape> {
    let mut out = Vec::new();
    out.extend(numbers_of_call(s, profile, outcome));
    out
}

// Numbers: the shapes of the numbers a failure message shows.

/// The shape of a number of `class` in a failure message under `profile`: its text is
/// JavaScript's `String(value)` in the baseline (AR-REVIEW-5), `JSON.stringify`'s in the resilient
/// profile (AR-RES-NORM-1).
pub const fn number(class: NumberClass, profile: Profile) -> Shape {
    Shape {
        clause: match profile {
            Profile::Baseline => "AR-REVIEW-5",
            Profile::Resilient => "AR-RES-NORM-1",
        },
        name: class.name(),
    }
}

/// The classes of the numbers the failure message of `s`'s review shows: the message of its last
/// request, a failed finish or a thrown value, when the review's failure is that request's (a
/// message a later request or the deadline replaced shows none of its numbers).
fn numbers_of_call(s: &Scenario, profile: Profile, outcome: &Outcome) -> Vec<Shape> {
    let (Some(failure), Some(last)) = (
        &outcome.review.failure,
        (outcome.review.attempts as usize).checked_sub(1),
    ) else {
        return Vec::new();
    };
    let attempt = s.reviewer.attempt(last);
    let value = match attempt {
        Attempt::Finish { finish, .. } => &finish.message,
        Attempt::Throw { throw, .. } => throw,
        _ => return Vec::new(),
    };
    match crate::engine::review::settle(attempt, profile) {
        Settlement::Failed(f) if f.message.text == failure.message => {}
        _ => return Vec::new(),
    }
    let mut out = Vec::new();
    for n in crate::generate::numbers::shown(value, profile) {
        let shape = number(NumberClass::of(n), profile);
        if !out.contains(&shape) {
            out.push(shape);
        }
    }
    out
}

/// The states the session `s` carries from call to call, given its outcome under `profile`.
pub fn of_session(s: &SessionScenario, profile: Profile, outcome: &SessionOutcome) -> Vec<Shape> {
    let _ = (s, profile, outcome);
    Vec::new()
}

/// How a shape reads in a tally: its clause and its words.
pub fn name(s: &Shape) -> String {
    format!("{} {}", s.clause.trim_start_matches("AR-"), s.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allow_written_twice_is_met_and_one_allow_is_not() {
        let twice = r#"{"risk":"low","decision":"allow"} {"risk":"low","decision":"allow"}"#;
        assert_eq!(
            of_reply(&Reply::text(twice), Profile::Baseline),
            [ALLOW_TWICE]
        );
        assert_eq!(
            of_reply(
                &Reply::text(r#"{"risk":"low","decision":"allow"}"#),
                Profile::Resilient
            ),
            []
        );
    }

    /// A number in the failure message is met in its class when the message shows it: a thrown
    /// `100.0` in both profiles; inside an object only in the resilient profile (the baseline shows
    /// `[object Object]`); not at all when a later request decides.
    #[test]
    fn numbers_are_met_where_the_failure_message_shows_them() {
        let call = |reviewer: serde_json::Value| -> Scenario {
            serde_json::from_value(
                serde_json::json!({"tool": {"name": "pwsh"}, "reviewer": reviewer}),
            )
            .unwrap()
        };
        let met = |s: &Scenario, p: Profile| {
            let o = crate::engine::decide(s, p);
            of_call(s, p, &o)
        };
        let whole = call(serde_json::json!({"throw": 100.0}));
        for p in Profile::ALL {
            assert_eq!(
                met(&whole, p),
                [number(NumberClass::WholeDecimal, p)],
                "{p}"
            );
        }
        let inside = call(
            serde_json::json!({"finish": {"kind": "error", "code": "UNKNOWN",
            "message": {"status": -0.0, "at": [1e-7]}}}),
        );
        assert_eq!(met(&inside, Profile::Baseline), []);
        assert_eq!(
            met(&inside, Profile::Resilient),
            [
                number(NumberClass::NegativeZero, Profile::Resilient),
                number(NumberClass::BelowMicro, Profile::Resilient)
            ]
        );
        let retried = call(serde_json::json!([
            {"finish": {"kind": "error", "code": "TRANSPORT", "message": 1e20}},
            {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}
        ]));
        assert_eq!(met(&retried, Profile::Resilient), []);
        assert_eq!(
            met(&retried, Profile::Baseline),
            [number(NumberClass::Large, Profile::Baseline)]
        );
    }

    #[test]
    fn every_shape_is_named_once() {
        let mut seen = std::collections::BTreeSet::new();
        for (s, _) in ALL {
            assert!(seen.insert((s.clause, s.name)), "{s:?} twice");
            assert!(crate::spec::clause_ids().contains(s.clause), "{s:?}");
        }
    }
}
