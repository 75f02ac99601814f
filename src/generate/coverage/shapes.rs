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

use crate::engine::session::Step;
use crate::outcome::{ItemOutcome, Outcome};
use crate::parse::{Reply, ReplyError, ReviewerDecision};
use crate::profile::{FailureText, Profile, Reader};
use crate::scenario::Scenario;
use crate::scenario::session::{Item, SessionScenario};

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

/// Which profiles a shape is held to, by the rule that decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum In {
    /// Every profile.
    All,
    /// Profiles that read replies with this reader (chapter 4, chapter 10).
    Reader(Reader),
    /// Profiles whose failure messages render provider values this way (AR-REVIEW-5,
    /// AR-RES-NORM-1).
    FailureText(FailureText),
    /// Profiles whose sessions count reviewer failures in a row (AR-RES-HINT-1).
    CountsFailures,
    /// Profiles that repair a reply they could not read (AR-RES-RETRY-1).
    Repairs,
}

impl In {
    fn holds(self, profile: Profile) -> bool {
        match self {
            In::All => true,
            In::Reader(r) => profile.reader() == r,
            In::FailureText(t) => profile.failure_text() == t,
            In::CountsFailures => profile.counts_failures(),
            In::Repairs => profile.asks_again() == crate::profile::AsksAgain::RepairAndRetry,
        }
    }
}

/// Shapes the strict reader's rules decide.
const STRICT: In = In::Reader(Reader::Strict);
/// Shapes the tolerant reader's rules decide.
const TOLERANT: In = In::Reader(Reader::Tolerant);
/// Numbers as JavaScript's `String(value)` writes them (AR-REVIEW-5).
const JAVASCRIPT: In = In::FailureText(FailureText::Javascript);
/// Numbers as a normalized message writes them (AR-RES-NORM-1).
const NORMALIZED: In = In::FailureText(FailureText::Normalized);

/// A shape of one reviewer reply the review read.
pub const ALLOW_TWICE: Shape = Shape {
    clause: "AR-TOL-10",
    name: "an allow written twice",
};

/// A reviewed call's allow sets a count above 0 back to 0.
pub const COUNT_RESET_BY_ALLOW: Shape = Shape {
    clause: "AR-RES-HINT-1",
    name: "a failure count reset by an allow",
};

/// A reviewed call's deny sets a count above 0 back to 0.
pub const COUNT_RESET_BY_DENY: Shape = Shape {
    clause: "AR-RES-HINT-1",
    name: "a failure count reset by a deny",
};

/// A call the gate does not review (passed through, refused admission, aborted before dispatch)
/// leaves a count above 0 as it was.
pub const COUNT_KEPT_UNREVIEWED: Shape = Shape {
    clause: "AR-RES-HINT-1",
    name: "a failure count kept past a call the gate does not review",
};

/// A failure a signal produced leaves a count above 0 as it was (AR-CANCEL-6).
pub const COUNT_KEPT_SIGNAL: Shape = Shape {
    clause: "AR-RES-HINT-1",
    name: "a failure count kept past a failure a signal produced",
};

/// The hint shows on a call whose count earlier calls of the session raised.
pub const COUNT_TO_HINT: Shape = Shape {
    clause: "AR-SESSION-3",
    name: "a failure count carried from call to call up to the hint",
};

/// A count above 0 when the integration is disposed of, and a call reviewed after it is
/// installed again, which counts from 0.
pub const COUNT_FORGOTTEN: Shape = Shape {
    clause: "AR-RES-HINT-4",
    name: "a failure count held at disposal, then a call reviewed after reinstall",
};

/// The hint names the configured reviewer route where the session's route is another.
pub const HINT_ON_CONFIGURED_ROUTE: Shape = Shape {
    clause: "AR-RES-HINT-2",
    name: "the hint while a configured reviewer route differs from the session's",
};

/// A listed Auto session disposal moved, the integration installed again, then a call.
pub const LISTED_REINSTALLED: Shape = Shape {
    clause: "AR-INSTALL-1",
    name: "a listed Auto session disposed of, installed again, then a call",
};

/// An unlisted Auto session disposal left in Auto, the integration installed again, then a call.
pub const UNLISTED_REINSTALLED: Shape = Shape {
    clause: "AR-DISPOSE-4",
    name: "an unlisted Auto session disposed of, installed again, then a call",
};

/// Selecting Auto in a session under another preset changes what the next call comes to.
pub const SELECTION_FROM_PRESET: Shape = Shape {
    clause: "AR-SCOPE-5",
    name: "a selection of Auto from another preset that changes the next call's outcome",
};

/// Selecting Auto again in an Auto session under `never` writes `ask`, and that changes what the
/// next call comes to.
pub const SELECTION_OVER_NEVER: Shape = Shape {
    clause: "AR-SCOPE-5",
    name: "a selection of Auto over the policy never that changes the next call's outcome",
};

/// A failed finish of kind `aborted` that settles after a signal aborted the review: the
/// signal's doing though no request hung.
pub const ABORTED_FINISH_AFTER_SIGNAL: Shape = Shape {
    clause: "AR-CANCEL-6",
    name: "an aborted finish that settles after a signal aborted the review",
};

/// A `run_code` call in an Auto session that starts while the integration is being disposed of.
pub const RUN_CODE_DISPOSAL_BEGUN: Shape = Shape {
    clause: "AR-CANCEL-2",
    name: "a run_code call in an Auto session after disposal began",
};

/// A request under a temperature configured to a number other than the default 0, which the
/// baseline reads no configuration to send (AR-REVIEW-3) and the resilient profile sends
/// (AR-RES-CONFIG-1).
pub const TEMPERATURE_NUMBER: Shape = Shape {
    clause: "AR-REVIEW-3",
    name: "a request under a temperature configured other than 0",
};

/// A request under the temperature `provider-default`, which leaves the parameter out where the
/// profile reads it (AR-REVIEW-3).
pub const TEMPERATURE_PROVIDER_DEFAULT: Shape = Shape {
    clause: "AR-REVIEW-3",
    name: "a request under the temperature provider-default",
};

/// A repair under a temperature configured other than 0: it carries the review's, not 0
/// (AR-RES-RETRY-2).
pub const TEMPERATURE_REPAIR: Shape = Shape {
    clause: "AR-RES-RETRY-2",
    name: "a repair under a temperature configured other than 0",
};

/// Every shape, with the profiles that are held to it.
pub const ALL: &[(Shape, In)] = &[
    (ALLOW_TWICE, In::All),
    // Reader shapes (chapters 4 and 10): each rule of both readers on each side, every class of
    // whitespace next to an allow, fences, the size bound, lone surrogates, failure codes.
    (refuses("AR-PARSE-1"), STRICT),
    (passes("AR-PARSE-1"), STRICT),
    (refuses("AR-PARSE-2"), STRICT),
    (passes("AR-PARSE-2"), STRICT),
    (refuses("AR-PARSE-3"), STRICT),
    (passes("AR-PARSE-3"), STRICT),
    (refuses("AR-PARSE-4"), STRICT),
    (passes("AR-PARSE-4"), STRICT),
    (refuses("AR-PARSE-5"), STRICT),
    (passes("AR-PARSE-5"), STRICT),
    (refuses("AR-PARSE-6"), STRICT),
    (passes("AR-PARSE-6"), STRICT),
    (refuses("AR-PARSE-7"), STRICT),
    (passes("AR-PARSE-7"), STRICT),
    (refuses("AR-TOL-1"), TOLERANT),
    (passes("AR-TOL-1"), TOLERANT),
    (refuses("AR-TOL-2"), TOLERANT),
    (passes("AR-TOL-2"), TOLERANT),
    (refuses("AR-TOL-3"), TOLERANT),
    (passes("AR-TOL-3"), TOLERANT),
    (refuses("AR-TOL-5"), TOLERANT),
    (passes("AR-TOL-5"), TOLERANT),
    (refuses("AR-TOL-6"), TOLERANT),
    (passes("AR-TOL-6"), TOLERANT),
    (refuses("AR-TOL-7"), TOLERANT),
    (passes("AR-TOL-7"), TOLERANT),
    (refuses("AR-TOL-8"), TOLERANT),
    (passes("AR-TOL-8"), TOLERANT),
    (refuses("AR-TOL-9"), TOLERANT),
    (passes("AR-TOL-9"), TOLERANT),
    (refuses("AR-TOL-10"), TOLERANT),
    (passes("AR-TOL-10"), TOLERANT),
    (SPACES[0].before, In::All),
    (SPACES[0].after, In::All),
    (SPACES[1].before, In::All),
    (SPACES[1].after, In::All),
    (SPACES[2].before, In::All),
    (SPACES[2].after, In::All),
    (SPACES[3].before, In::All),
    (SPACES[3].after, In::All),
    (SPACES[4].before, In::All),
    (SPACES[4].after, In::All),
    (SPACES[5].before, In::All),
    (SPACES[5].after, In::All),
    (SPACES[6].before, In::All),
    (SPACES[6].after, In::All),
    (SPACES[7].before, In::All),
    (SPACES[7].after, In::All),
    (SPACES[8].before, In::All),
    (SPACES[8].after, In::All),
    (FENCE_LANGUAGE, In::All),
    (FENCE_NO_INFO, In::All),
    (FENCE_OTHER_INFO, In::All),
    (FENCE_SAME_LINE, In::All),
    (FENCE_MARKERS_DIFFER, In::All),
    (ALLOW_PADDED_WITHIN_BOUND, In::All),
    (ALLOW_PADDED_OVER_BOUND, In::All),
    (LONE_SURROGATE_VALUE, In::All),
    (LONE_SURROGATE_NAME, In::All),
    (CODE_MEETS_MESSAGE_PATTERN, In::All),
    (NO_FINISH_STRICT, STRICT),
    (NO_FINISH_TOLERANT, TOLERANT),
    // End of the reader shapes.
    // The states a session carries, and the call shapes its lifecycle decides on.
    (COUNT_RESET_BY_ALLOW, In::CountsFailures),
    (COUNT_RESET_BY_DENY, In::CountsFailures),
    (COUNT_KEPT_UNREVIEWED, In::CountsFailures),
    (COUNT_KEPT_SIGNAL, In::CountsFailures),
    (COUNT_TO_HINT, In::CountsFailures),
    (COUNT_FORGOTTEN, In::CountsFailures),
    (HINT_ON_CONFIGURED_ROUTE, In::CountsFailures),
    (LISTED_REINSTALLED, In::All),
    (UNLISTED_REINSTALLED, In::All),
    (SELECTION_FROM_PRESET, In::All),
    (SELECTION_OVER_NEVER, In::All),
    (ABORTED_FINISH_AFTER_SIGNAL, In::All),
    (RUN_CODE_DISPOSAL_BEGUN, In::All),
    // The temperature requests carry.
    (TEMPERATURE_NUMBER, In::All),
    (TEMPERATURE_PROVIDER_DEFAULT, In::All),
    (TEMPERATURE_REPAIR, In::Repairs),
    // Numbers a failure message shows, by class (`generate::numbers`): AR-REVIEW-5 where messages
    // render values as JavaScript does, AR-RES-NORM-1 where they are normalized.
    (
        number(NumberClass::Integer, FailureText::Javascript),
        JAVASCRIPT,
    ),
    (
        number(NumberClass::Fraction, FailureText::Javascript),
        JAVASCRIPT,
    ),
    (
        number(NumberClass::WholeDecimal, FailureText::Javascript),
        JAVASCRIPT,
    ),
    (
        number(NumberClass::NegativeZero, FailureText::Javascript),
        JAVASCRIPT,
    ),
    (
        number(NumberClass::Micro, FailureText::Javascript),
        JAVASCRIPT,
    ),
    (
        number(NumberClass::BelowMicro, FailureText::Javascript),
        JAVASCRIPT,
    ),
    (
        number(NumberClass::SafeEdge, FailureText::Javascript),
        JAVASCRIPT,
    ),
    (
        number(NumberClass::Large, FailureText::Javascript),
        JAVASCRIPT,
    ),
    (
        number(NumberClass::Huge, FailureText::Javascript),
        JAVASCRIPT,
    ),
    (
        number(NumberClass::Integer, FailureText::Normalized),
        NORMALIZED,
    ),
    (
        number(NumberClass::Fraction, FailureText::Normalized),
        NORMALIZED,
    ),
    (
        number(NumberClass::WholeDecimal, FailureText::Normalized),
        NORMALIZED,
    ),
    (
        number(NumberClass::NegativeZero, FailureText::Normalized),
        NORMALIZED,
    ),
    (
        number(NumberClass::Micro, FailureText::Normalized),
        NORMALIZED,
    ),
    (
        number(NumberClass::BelowMicro, FailureText::Normalized),
        NORMALIZED,
    ),
    (
        number(NumberClass::SafeEdge, FailureText::Normalized),
        NORMALIZED,
    ),
    (
        number(NumberClass::Large, FailureText::Normalized),
        NORMALIZED,
    ),
    (
        number(NumberClass::Huge, FailureText::Normalized),
        NORMALIZED,
    ),
    // End of the numbers.
];

/// The shapes `profile`'s cases are held to.
pub fn possible(profile: Profile) -> Vec<Shape> {
    ALL.iter()
        .filter(|(_, i)| i.holds(profile))
        .map(|(s, _)| in_profile(*s, profile))
        .collect()
}

/// `shape` named with the clause that decides it under `profile`: a shape of a reply's text that
/// a tolerant reader's rule names (whitespace around an allow, a fence, padding, a second copy) is
/// decided in the baseline by AR-PARSE-4, the strict reader's one rule for the text.
fn in_profile(shape: Shape, profile: Profile) -> Shape {
    if profile.reader() == Reader::Strict && shape.clause.starts_with("AR-TOL-") {
        Shape {
            clause: "AR-PARSE-4",
            ..shape
        }
    } else {
        shape
    }
}

/// The shapes one reply the review read holds, under `profile`.
/// `read` is what the profile's reader made of it.
pub fn of_reply(
    reply: &Reply<'_>,
    profile: Profile,
    read: &Result<ReviewerDecision, ReplyError>,
) -> Vec<Shape> {
    let mut out = reader::of_reply(reply, profile, read);
    let texts = crate::parse::tolerant::text_blocks(reply);
    // Only a text that names an allow can hold two: most replies are not joined at all.
    if texts.iter().any(|t| t.contains("allow")) {
        let text = texts.concat();
        if crate::generate::BARE_OBJECTS
            .iter()
            .filter(|o| o.contains("allow"))
            .any(|o| text.matches(o).count() >= 2)
        {
            out.push(ALLOW_TWICE);
        }
    }
    out.into_iter().map(|s| in_profile(s, profile)).collect()
}

/// The shapes the call `s` holds beyond its replies, given its outcome under `profile`.
pub fn of_call(s: &Scenario, profile: Profile, outcome: &Outcome) -> Vec<Shape> {
    let mut out = reader::of_call(s, outcome);
    out.extend(lifecycle_of_call(s, profile, outcome));
    out.extend(numbers_of_call(s, profile, outcome));
    out.extend(temperature_of_call(s, outcome));
    out
}

/// The temperature the call's requests were made under, where it is not the default 0 and a
/// request was made: a number, or `provider-default`; and a repair under either.
fn temperature_of_call(s: &Scenario, outcome: &Outcome) -> Vec<Shape> {
    use crate::scenario::Temperature;
    let requests = outcome.review.requests.as_deref().unwrap_or_default();
    if requests.is_empty() || s.config.temperature.is_default() {
        return Vec::new();
    }
    let mut out = vec![match s.config.temperature {
        Temperature::ProviderDefault => TEMPERATURE_PROVIDER_DEFAULT,
        Temperature::Value(_) => TEMPERATURE_NUMBER,
    }];
    if requests.iter().any(|r| r.repair) {
        out.push(TEMPERATURE_REPAIR);
    }
    out
}

// Numbers: the shapes of the numbers a failure message shows.

/// The shape of a number of `class` in a failure message rendered by `text`: JavaScript's
/// `String(value)` (AR-REVIEW-5), or `JSON.stringify`'s in a normalized message (AR-RES-NORM-1).
pub const fn number(class: NumberClass, text: FailureText) -> Shape {
    Shape {
        clause: text.number_clause(),
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
        let shape = number(NumberClass::of(n), profile.failure_text());
        if !out.contains(&shape) {
            out.push(shape);
        }
    }
    out
}

/// The states the session `s` carries from call to call, given its outcome under `profile`.
/// `steps` are the session's items as the reference met them ([`session::walk`]).
pub fn of_session(s: &SessionScenario, profile: Profile, steps: &[Step]) -> Vec<Shape> {
    let mut out = Vec::new();
    out.extend(carried_by_session(s, profile, steps));
    out
}

/// The call shapes the lifecycle and the failure count decide on. `s` is the call as decided,
/// a session's call with the state its session reached.
fn lifecycle_of_call(s: &Scenario, profile: Profile, outcome: &Outcome) -> Vec<Shape> {
    use crate::engine::cancellation::{caller_aborts_in_flight, lifecycle_aborts_after_review};
    use crate::outcome::FailureClass;
    use crate::scenario::{AbortPoint, Attempt, CallKind, FailedFinishKind, Preset};
    let mut out = Vec::new();
    // AR-CANCEL-2 (with AR-SCOPE-2, AR-RES-DISPOSE-1): the transport is never reviewed, so it
    // passes through while disposal runs, under the policy disposal wrote.
    if s.tool.call == CallKind::RunCode
        && s.abort == AbortPoint::LifecycleBeforeReview
        && s.preset == Preset::Auto
    {
        out.push(RUN_CODE_DISPOSAL_BEGUN);
    }
    // AR-CANCEL-6: the first request settled as an `aborted` finish after the signal aborted it.
    let signal = caller_aborts_in_flight(s.abort) || lifecycle_aborts_after_review(s.abort);
    if signal
        && outcome.review.attempts == 1
        && matches!(
            s.reviewer.attempt(0),
            Attempt::Finish { finish, .. } if finish.kind == FailedFinishKind::Aborted
        )
        && outcome
            .review
            .failure
            .as_ref()
            .is_some_and(|f| f.class == FailureClass::Aborted)
    {
        out.push(ABORTED_FINISH_AFTER_SIGNAL);
    }
    // AR-RES-HINT-2: the failure counted (the count rose by one) and reached the threshold, on a
    // configured route that is not the session's.
    let before = s.session.consecutive_failures;
    if profile.counts_failures()
        && outcome.review.failure.is_some()
        && outcome.review.consecutive_failures == Some(before.saturating_add(1))
        && before.saturating_add(1) >= s.config.failure_hint_after
        && s.config
            .reviewer_route
            .as_ref()
            .is_some_and(|r| *r != s.session.route)
    {
        out.push(HINT_ON_CONFIGURED_ROUTE);
    }
    out
}

/// The states a session carries from item to item (chapter 12): each reset and keep of the
/// failure count, disposal followed by reinstall, and selections of Auto that change what
/// follows.
fn carried_by_session(s: &SessionScenario, profile: Profile, steps: &[Step]) -> Vec<Shape> {
    use crate::engine::review::Settlement;
    use crate::parse::ReviewerDecision;
    use crate::scenario::Preset;
    use crate::scenario::session::EventKind;
    let mut out = Vec::new();
    let mut add = |shape: Shape, when: bool| {
        if when && !out.contains(&shape) {
            out.push(shape);
        }
    };
    // AR-RES-HINT-1: the count's states, where sessions count failures.
    let resilient = profile.counts_failures();
    // Whether a call of this session raised the count since it was last 0.
    let mut raised = false;
    // A disposal of the session while in Auto: whether the count was above 0 then, and whether
    // the integration was installed again since.
    let mut disposed: Option<(bool, bool)> = None;
    for (i, (item, step)) in s.calls.iter().zip(steps).enumerate() {
        let before = step.before.consecutive_failures;
        if before == 0 {
            raised = false;
        }
        let disposes = match item {
            Item::Call(call) => call.abort.is_lifecycle(),
            Item::Event(e) => e.event == EventKind::Dispose,
        };
        match (item, &step.outcome) {
            (Item::Call(call), ItemOutcome::Call(o)) => {
                let after = o.review.consecutive_failures;
                let review = step.review.as_ref();
                let decided = review.and_then(|r| match &r.settlement {
                    Settlement::Decided(d) => Some(d),
                    _ => None,
                });
                // AR-RES-HINT-1: a decision resets the count, whichever it is.
                add(
                    COUNT_RESET_BY_ALLOW,
                    resilient
                        && before > 0
                        && matches!(decided, Some(ReviewerDecision::Allow { .. })),
                );
                add(
                    COUNT_RESET_BY_DENY,
                    resilient
                        && before > 0
                        && matches!(decided, Some(ReviewerDecision::Deny { .. })),
                );
                // AR-RES-HINT-1: unreviewed calls, and failures a signal produced, keep it.
                add(
                    COUNT_KEPT_UNREVIEWED,
                    resilient && before > 0 && review.is_none(),
                );
                add(
                    COUNT_KEPT_SIGNAL,
                    resilient && before > 0 && review.is_some_and(|r| r.signal_ended),
                );
                // AR-SESSION-3: the hint on a count earlier calls raised.
                let one = step.before.scenario_for(s, call);
                add(
                    COUNT_TO_HINT,
                    resilient && raised && review.is_some_and(|r| r.hint_due(&one)),
                );
                if after.is_some_and(|n| n > before) {
                    raised = true;
                }
                // AR-INSTALL-1, AR-DISPOSE-4, AR-RES-HINT-4: a call after disposal and reinstall.
                if let Some((count_held, true)) = disposed {
                    add(LISTED_REINSTALLED, s.session.listed);
                    add(UNLISTED_REINSTALLED, !s.session.listed);
                    add(COUNT_FORGOTTEN, resilient && count_held && review.is_some());
                }
            }
            (Item::Event(e), ItemOutcome::Event(_)) => match e.event {
                EventKind::Install => {
                    if let Some((_, reinstalled)) = &mut disposed {
                        *reinstalled = true;
                    }
                }
                // AR-SCOPE-5: a selection whose absence changes the next call's outcome.
                EventKind::SelectAuto if step.before.installed => {
                    let changes = next_call_changes_without(s, profile, steps, i);
                    let over_never = step.before.preset == Preset::Auto;
                    add(SELECTION_FROM_PRESET, changes && !over_never);
                    add(SELECTION_OVER_NEVER, changes && over_never);
                }
                _ => {}
            },
            _ => {}
        }
        if disposes && step.before.installed && step.before.preset == Preset::Auto {
            // The count disposal forgets: the one this item leaves.
            let held = match &step.outcome {
                ItemOutcome::Call(o) => o.review.consecutive_failures.unwrap_or(before),
                ItemOutcome::Event(_) => before,
            };
            disposed = Some((held > 0, false));
        }
    }
    out
}

/// Whether the first call after item `i` comes to another decision or another execution when the
/// session goes on without item `i`: that call decided in the state the items between left,
/// from the state before item `i`.
fn next_call_changes_without(
    s: &SessionScenario,
    profile: Profile,
    steps: &[Step],
    i: usize,
) -> bool {
    let Some(j) = (i + 1..s.calls.len()).find(|&j| matches!(s.calls[j], Item::Call(_))) else {
        return false;
    };
    let (Item::Call(call), ItemOutcome::Call(with)) = (&s.calls[j], &steps[j].outcome) else {
        return false;
    };
    let mut state = steps[i].before.clone();
    for item in &s.calls[i + 1..j] {
        if let Item::Event(e) = item {
            state.apply(e, s.session.listed);
        }
    }
    let other = crate::engine::decide(&state.scenario_for(s, call), profile);
    let kind = |o: &Outcome| o.listener.as_ref().map(std::mem::discriminant);
    kind(with) != kind(&other) || with.result.executed != other.result.executed
}

mod reader;
pub use reader::{
    ALLOW_PADDED_OVER_BOUND, ALLOW_PADDED_WITHIN_BOUND, CODE_MEETS_MESSAGE_PATTERN, FENCE_LANGUAGE,
    FENCE_MARKERS_DIFFER, FENCE_NO_INFO, FENCE_OTHER_INFO, FENCE_SAME_LINE, LONE_SURROGATE_NAME,
    LONE_SURROGATE_VALUE, NO_FINISH_STRICT, NO_FINISH_TOLERANT, SPACES, Space, passes, refuses,
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
        let shapes = |t: &str, p: Profile| {
            let reply = Reply::text(t);
            of_reply(&reply, p, &p.reader().read(&reply))
        };
        let twice = r#"{"risk":"low","decision":"allow"} {"risk":"low","decision":"allow"}"#;
        // The baseline decides it by AR-PARSE-4 (two values), the resilient profile by AR-TOL-10.
        assert!(
            shapes(twice, Profile::BASELINE).contains(&in_profile(ALLOW_TWICE, Profile::BASELINE))
        );
        assert_eq!(
            in_profile(ALLOW_TWICE, Profile::BASELINE).clause,
            "AR-PARSE-4"
        );
        assert!(shapes(twice, Profile::RESILIENT).contains(&ALLOW_TWICE));
        assert!(
            !shapes(r#"{"risk":"low","decision":"allow"}"#, Profile::RESILIENT)
                .contains(&ALLOW_TWICE)
        );
    }

    fn session_shapes(json: &str, profile: Profile) -> Vec<Shape> {
        let s = SessionScenario::from_json(json).unwrap();
        of_session(&s, profile, &crate::engine::session::walk(&s, profile))
    }

    #[test]
    fn a_reset_is_met_only_on_a_count_above_zero_and_by_its_own_decision() {
        let deny = r#"{"text":"{\"risk\":\"high\",\"decision\":\"deny\"}"}"#;
        let after_failure = format!(
            r#"{{"calls":[{{"tool":{{"name":"bash"}},"reviewer":{{"throw":"x"}}}},{{"tool":{{"name":"bash"}},"reviewer":{deny}}}]}}"#
        );
        assert_eq!(
            session_shapes(&after_failure, Profile::RESILIENT),
            [COUNT_RESET_BY_DENY]
        );
        // The baseline keeps no count; a count at 0 is not reset.
        assert_eq!(session_shapes(&after_failure, Profile::BASELINE), []);
        let from_zero = format!(
            r#"{{"calls":[{{"tool":{{"name":"bash"}},"reviewer":{deny}}},{{"tool":{{"name":"bash"}},"reviewer":{deny}}}]}}"#
        );
        assert_eq!(session_shapes(&from_zero, Profile::RESILIENT), []);
    }

    #[test]
    fn a_selection_is_met_only_when_the_next_call_changes() {
        let deny = r#"{"text":"{\"risk\":\"high\",\"decision\":\"deny\"}"}"#;
        let allow = r#"{"text":"{\"risk\":\"low\",\"decision\":\"allow\"}"}"#;
        let session = |preset: &str, reply: &str| {
            format!(
                r#"{{"preset":"{preset}","calls":[{{"event":"select-auto"}},{{"tool":{{"name":"bash"}},"reviewer":{reply}}}]}}"#
            )
        };
        // Reviewed, the denial stops what passed through before.
        assert_eq!(
            session_shapes(&session("read-only", deny), Profile::BASELINE),
            [SELECTION_FROM_PRESET]
        );
        // An allow comes to downstream's allow either way.
        assert_eq!(
            session_shapes(&session("read-only", allow), Profile::BASELINE),
            []
        );
        // Auto under `ask` already: the selection writes nothing.
        assert_eq!(
            session_shapes(&session("auto", deny), Profile::BASELINE),
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
        for p in Profile::all() {
            assert_eq!(
                met(&whole, p),
                [number(NumberClass::WholeDecimal, p.failure_text())],
                "{p}"
            );
        }
        let inside = call(
            serde_json::json!({"finish": {"kind": "error", "code": "UNKNOWN",
            "message": {"status": -0.0, "at": [1e-7]}}}),
        );
        assert_eq!(met(&inside, Profile::BASELINE), []);
        assert_eq!(
            met(&inside, Profile::RESILIENT),
            [
                number(NumberClass::NegativeZero, FailureText::Normalized),
                number(NumberClass::BelowMicro, FailureText::Normalized)
            ]
        );
        let retried = call(serde_json::json!([
            {"finish": {"kind": "error", "code": "TRANSPORT", "message": 1e20}},
            {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}
        ]));
        assert_eq!(met(&retried, Profile::RESILIENT), []);
        assert_eq!(
            met(&retried, Profile::BASELINE),
            [number(NumberClass::Large, FailureText::Javascript)]
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
