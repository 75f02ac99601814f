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
    // Reader shapes (chapters 4 and 10): each rule of both readers on each side, every class of
    // whitespace next to an allow, fences, the size bound, lone surrogates, failure codes.
    (refuses("AR-PARSE-1"), In::Baseline),
    (passes("AR-PARSE-1"), In::Baseline),
    (refuses("AR-PARSE-2"), In::Baseline),
    (passes("AR-PARSE-2"), In::Baseline),
    (refuses("AR-PARSE-3"), In::Baseline),
    (passes("AR-PARSE-3"), In::Baseline),
    (refuses("AR-PARSE-4"), In::Baseline),
    (passes("AR-PARSE-4"), In::Baseline),
    (refuses("AR-PARSE-5"), In::Baseline),
    (passes("AR-PARSE-5"), In::Baseline),
    (refuses("AR-PARSE-6"), In::Baseline),
    (passes("AR-PARSE-6"), In::Baseline),
    (refuses("AR-PARSE-7"), In::Baseline),
    (passes("AR-PARSE-7"), In::Baseline),
    (refuses("AR-TOL-1"), In::Resilient),
    (passes("AR-TOL-1"), In::Resilient),
    (refuses("AR-TOL-2"), In::Resilient),
    (passes("AR-TOL-2"), In::Resilient),
    (refuses("AR-TOL-3"), In::Resilient),
    (passes("AR-TOL-3"), In::Resilient),
    (refuses("AR-TOL-5"), In::Resilient),
    (passes("AR-TOL-5"), In::Resilient),
    (refuses("AR-TOL-6"), In::Resilient),
    (passes("AR-TOL-6"), In::Resilient),
    (refuses("AR-TOL-7"), In::Resilient),
    (passes("AR-TOL-7"), In::Resilient),
    (refuses("AR-TOL-8"), In::Resilient),
    (passes("AR-TOL-8"), In::Resilient),
    (refuses("AR-TOL-9"), In::Resilient),
    (passes("AR-TOL-9"), In::Resilient),
    (refuses("AR-TOL-10"), In::Resilient),
    (passes("AR-TOL-10"), In::Resilient),
    (SPACES[0].before, In::Both),
    (SPACES[0].after, In::Both),
    (SPACES[1].before, In::Both),
    (SPACES[1].after, In::Both),
    (SPACES[2].before, In::Both),
    (SPACES[2].after, In::Both),
    (SPACES[3].before, In::Both),
    (SPACES[3].after, In::Both),
    (SPACES[4].before, In::Both),
    (SPACES[4].after, In::Both),
    (SPACES[5].before, In::Both),
    (SPACES[5].after, In::Both),
    (SPACES[6].before, In::Both),
    (SPACES[6].after, In::Both),
    (SPACES[7].before, In::Both),
    (SPACES[7].after, In::Both),
    (SPACES[8].before, In::Both),
    (SPACES[8].after, In::Both),
    (FENCE_LANGUAGE, In::Both),
    (FENCE_NO_INFO, In::Both),
    (FENCE_OTHER_INFO, In::Both),
    (FENCE_SAME_LINE, In::Both),
    (FENCE_MARKERS_DIFFER, In::Both),
    (ALLOW_PADDED_WITHIN_BOUND, In::Both),
    (ALLOW_PADDED_OVER_BOUND, In::Both),
    (LONE_SURROGATE_VALUE, In::Both),
    (LONE_SURROGATE_NAME, In::Both),
    (CODE_MEETS_MESSAGE_PATTERN, In::Both),
    // End of the reader shapes.
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
    let mut out = reader::of_reply(reply, profile);
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
    let _ = profile;
    reader::of_call(s, outcome)
}

/// The states the session `s` carries from call to call, given its outcome under `profile`.
pub fn of_session(s: &SessionScenario, profile: Profile, outcome: &SessionOutcome) -> Vec<Shape> {
    let _ = (s, profile, outcome);
    Vec::new()
}

mod reader;
pub use reader::{
    ALLOW_PADDED_OVER_BOUND, ALLOW_PADDED_WITHIN_BOUND, CODE_MEETS_MESSAGE_PATTERN, FENCE_LANGUAGE,
    FENCE_MARKERS_DIFFER, FENCE_NO_INFO, FENCE_OTHER_INFO, FENCE_SAME_LINE, LONE_SURROGATE_NAME,
    LONE_SURROGATE_VALUE, SPACES, Space, passes, refuses,
};

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
        assert!(of_reply(&Reply::text(twice), Profile::Baseline).contains(&ALLOW_TWICE));
        assert!(
            !of_reply(
                &Reply::text(r#"{"risk":"low","decision":"allow"}"#),
                Profile::Resilient
            )
            .contains(&ALLOW_TWICE)
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
