//! Who let a body run (`spec/protocol.md`, "Severities"). The comparison marks every body run the
//! reference did not make as a SAFETY difference; here each one where the reference ran the body
//! not at all is rated by what preceded it in the implementation's own run of the scripted world:
//!
//! - a human's allow where the reference asked too, or a reviewer's allow the reference accepted
//!   (the reference then stopped the call for another reason: downstream, a signal): someone the
//!   spec lets allow did, and the call went on where it should have stopped — a DECISION;
//! - a human's allow where the reference asked nobody, or a reviewer's allow the reference did not
//!   accept (read past the reader's size bound, or the reply to a request the reference does not
//!   make or reads no allow from): someone allowed outside the bounds the spec sets — BOUNDS;
//! - nothing that allows: SAFETY.
//!
//! A body run again where the reference ran it once stays SAFETY: one allow runs a body once.

use crate::difference::{Difference, Severity};
use crate::engine::review::{Settlement, settle};
use crate::outcome::{InputOutcome, ItemOutcome, Outcome};
use crate::parse::{Reply, ReviewerDecision};
use crate::profile::Profile;
use crate::scenario::session::{Input, Item};
use crate::scenario::{ApprovalAnswer, Attempt, Scenario};

/// What preceded a body run the reference did not make, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    /// Nothing that allows.
    Nobody,
    /// A human's allow where the reference's question reached nobody.
    HumanUnasked,
    /// A reviewer's allow read past the reader's size bound.
    PastBound,
    /// A reviewer's allow in reply to a request the reference does not make.
    Unrequested,
    /// A reviewer's allow the reference's reading of the same reply does not accept as the
    /// review's decision (a deadline, a signal).
    Unaccepted,
    /// A human's allow where the reference's question reached a human too.
    Human,
    /// A reviewer's allow the reference accepted.
    Reviewer,
}

impl Cause {
    /// The severity of a body run so caused, and what the difference says of it.
    fn rated(self) -> (Severity, &'static str) {
        match self {
            Cause::Nobody => (
                Severity::Safety,
                "the body ran where it must not, and nothing allowed it: no reviewer's allow the \
                 spec accepts, no human's allow where the spec asks one",
            ),
            Cause::HumanUnasked => (
                Severity::Bounds,
                "the body ran on a human's allow where the spec asks nobody",
            ),
            Cause::PastBound => (
                Severity::Bounds,
                "the body ran on a reviewer's allow read past the reader's size bound",
            ),
            Cause::Unrequested => (
                Severity::Bounds,
                "the body ran on a reviewer's allow to a request the spec does not make",
            ),
            Cause::Unaccepted => (
                Severity::Bounds,
                "the body ran on a reviewer's allow the spec does not accept as the review's \
                 decision",
            ),
            Cause::Human => (
                Severity::Decision,
                "the body ran on a human's allow the spec asks for, where the call should then \
                 have stopped",
            ),
            Cause::Reviewer => (
                Severity::Decision,
                "the body ran on the reviewer's allow, where the call should then have stopped",
            ),
        }
    }
}

/// Rates each SAFETY difference of `differences` that is a body run the reference did not make
/// at all: `input` as scripted, `reference` and `answer` the two outcomes of it (neither
/// projected to a level), under `profile`.
pub fn rate(
    differences: &mut [Difference],
    input: &Input,
    reference: &InputOutcome,
    answer: &InputOutcome,
    profile: Profile,
) {
    for d in differences.iter_mut() {
        if d.severity != Severity::Safety {
            continue;
        }
        let Some((call, want, got)) = at(&d.pointer, input, reference, answer) else {
            continue;
        };
        if runs(want) > 0 {
            continue;
        }
        let cause = cause(call, want, got, profile);
        let (severity, rule) = cause.rated();
        d.severity = severity;
        d.rule = Some(match cause {
            Cause::Reviewer | Cause::Human => format!("{rule} ({})", stopped_by(want)),
            _ => rule.to_owned(),
        });
    }
}

/// The call a difference at `pointer` is about: its scripted scenario and its two outcomes.
fn at<'a>(
    pointer: &str,
    input: &'a Input,
    reference: &'a InputOutcome,
    answer: &'a InputOutcome,
) -> Option<(&'a Scenario, &'a Outcome, &'a Outcome)> {
    match (input, reference, answer) {
        (Input::One(s), InputOutcome::One(want), InputOutcome::One(got)) => Some((s, want, got)),
        (Input::Session(s), InputOutcome::Session(want), InputOutcome::Session(got)) => {
            let k: usize = pointer
                .strip_prefix("/calls/")?
                .split('/')
                .next()?
                .parse()
                .ok()?;
            match (s.calls.get(k)?, want.calls.get(k)?, got.calls.get(k)?) {
                (Item::Call(call), ItemOutcome::Call(want), ItemOutcome::Call(got)) => {
                    Some((call, want, got))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// What stopped the reference's call after an allow it accepted.
fn stopped_by(want: &Outcome) -> &'static str {
    use crate::outcome::Decision;
    if want
        .approval
        .as_ref()
        .is_some_and(|a| a.answer != ApprovalAnswer::AllowedOnce)
    {
        return "the reference then asked the approval service, which did not allow it";
    }
    match &want.listener {
        Some(Decision::Deny { .. }) => "the rest of the pre-execute chain denied it",
        Some(Decision::Cancel) => "the call was cancelled",
        _ => "a signal ended the call",
    }
}

/// How often an outcome's body ran.
fn runs(o: &Outcome) -> usize {
    let in_trace = o
        .trace
        .iter()
        .filter(|e| **e == crate::outcome::Event::Body)
        .count();
    in_trace.max(usize::from(o.result.executed))
}

/// What preceded the body run of `got` where `want`, the reference's outcome of `call`, ran none.
fn cause(call: &Scenario, want: &Outcome, got: &Outcome, profile: Profile) -> Cause {
    let allowed = |o: &Outcome| {
        o.approval
            .as_ref()
            .is_some_and(|a| a.answer == ApprovalAnswer::AllowedOnce)
    };
    // An `allowed-once` the scenario's human does not give came from nobody: the gate or the
    // service answered for them (a grant remembered from another call, say).
    if allowed(got) && call.approval == ApprovalAnswer::AllowedOnce {
        // The reference's question reached a human too; one the approval service answered by
        // itself (the `never` policy, a cancelled signal) asked nobody.
        return if want.approval.as_ref().is_some_and(|a| a.prompted) {
            Cause::Human
        } else {
            Cause::HumanUnasked
        };
    }
    // The replies the implementation's requests met, as scripted: the last attempt repeats.
    let scripted = call.reviewer.attempts();
    let Some(last) = scripted.len().checked_sub(1) else {
        return Cause::Nobody;
    };
    let reply = |i: usize| &scripted[i.min(last)];
    let made = want.review.attempts as usize;
    // The reference's review settled on an allow: its last request's reply, with no failure.
    let accepted =
        made > 0 && want.review.failure.is_none() && allows(&settle(reply(made - 1), profile));
    let mut worst = None;
    for i in 0..got.review.attempts as usize {
        let read = settle(reply(i), profile);
        let found = if allows(&read) {
            if i >= made {
                Cause::Unrequested
            } else if accepted {
                Cause::Reviewer
            } else {
                Cause::Unaccepted
            }
        } else if past_the_bound(reply(i), profile) {
            Cause::PastBound
        } else {
            continue;
        };
        // The allow the reference accepts, where there is one; else the first found.
        if found == Cause::Reviewer {
            return found;
        }
        worst.get_or_insert(found);
    }
    worst.unwrap_or(Cause::Nobody)
}

/// Whether a settled reply is an allow.
fn allows(s: &Settlement) -> bool {
    matches!(s, Settlement::Decided(ReviewerDecision::Allow { .. }))
}

/// Whether the reply an attempt delivers is an allow the profile's reader refuses only for its
/// size bound.
fn past_the_bound(attempt: &Attempt, profile: Profile) -> bool {
    let Some(reply) = Reply::delivered(attempt) else {
        return false;
    };
    matches!(
        profile.reader().past_the_bound(&reply),
        Some(Ok(ReviewerDecision::Allow { .. }))
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::conformance::Level;
    use crate::outcome::{ApprovalRecord, Event, ToolResult};
    use crate::runner::judge::differences;

    const ALLOW: &str = r#"{"risk":"low","decision":"allow"}"#;
    const DENY: &str = r#"{"risk":"high","decision":"deny","reason":"uploads a key"}"#;

    /// The scenario of `v`, the reference's outcome of it under `profile`, and the differences
    /// from it of that outcome changed by `change`, at the weakest level (where every body run
    /// still counts).
    fn judged(
        v: serde_json::Value,
        profile: Profile,
        change: impl FnOnce(&mut Outcome),
    ) -> Vec<Difference> {
        let s = Scenario::from_value(&v).expect("a scenario");
        let want = crate::engine::decide(&s, profile);
        let mut got = want.clone();
        change(&mut got);
        let input = Input::One(Box::new(s));
        let (want, got) = (
            InputOutcome::One(Box::new(want)),
            InputOutcome::One(Box::new(got)),
        );
        differences(&input, &want, &got, false, profile, Level::Effects)
    }

    /// The body ran once more than in `o`.
    fn runs_the_body(o: &mut Outcome) {
        o.result = ToolResult::executed();
        o.trace.push(Event::Body);
    }

    /// The severity and rule of the one difference at `/result/executed`.
    fn at_executed(found: &[Difference]) -> (Severity, String) {
        let d = found
            .iter()
            .find(|d| d.pointer == "/result/executed")
            .unwrap_or_else(|| panic!("no difference at /result/executed: {found:?}"));
        (d.severity, d.rule.clone().unwrap_or_default())
    }

    /// A body run after a reviewer's denial, with nobody asked: SAFETY, and every other body
    /// difference (the trace) at the same severity.
    #[test]
    fn a_body_run_nothing_allowed_is_safety() {
        let found = judged(
            json!({"tool": {"name": "pwsh"}, "policy": "never", "reviewer": {"text": DENY}}),
            Profile::BASELINE,
            runs_the_body,
        );
        let (severity, rule) = at_executed(&found);
        assert_eq!(severity, Severity::Safety, "{found:?}");
        assert!(rule.contains("nothing allowed it"), "{rule}");
        assert!(
            found
                .iter()
                .filter(|d| d.pointer == "/trace")
                .all(|d| d.severity == Severity::Safety),
            "{found:?}"
        );
    }

    /// The same run on a human's allow, where the `never` policy asks nobody: BOUNDS.
    #[test]
    fn a_body_run_on_a_human_asked_where_nobody_is_is_bounds() {
        let found = judged(
            json!({"tool": {"name": "pwsh"}, "policy": "never", "reviewer": {"text": DENY},
                   "approval": "allowed-once"}),
            Profile::RESILIENT,
            |o| {
                o.approval = Some(ApprovalRecord {
                    reason: None,
                    display_reason: None,
                    answer: ApprovalAnswer::AllowedOnce,
                    prompted: true,
                });
                runs_the_body(o);
            },
        );
        let (severity, rule) = at_executed(&found);
        assert_eq!(severity, Severity::Bounds, "{found:?}");
        assert!(
            rule.contains("a human's allow where the spec asks nobody"),
            "{rule}"
        );
    }

    /// An allow padded past the tolerant reader's size bound, run: the reviewer did allow, past
    /// the bound (BOUNDS). The strict reader has no bound: the same reply is an allow the
    /// reference takes, and running it is no difference at all.
    #[test]
    fn a_body_run_on_an_allow_past_the_bound_is_bounds() {
        let padded = format!(
            "{}{ALLOW}",
            " ".repeat(crate::parse::tolerant::MAX_TEXT_BYTES)
        );
        let scenario = json!({"tool": {"name": "pwsh"}, "policy": "never",
                              "reviewer": {"text": padded}});
        let found = judged(scenario.clone(), Profile::RESILIENT, |o| {
            o.review.failure = None;
            runs_the_body(o);
        });
        let (severity, rule) = at_executed(&found);
        assert_eq!(severity, Severity::Bounds, "{found:?}");
        assert!(rule.contains("past the reader's size bound"), "{rule}");
        let s = Scenario::from_value(&scenario).unwrap();
        assert!(crate::engine::decide(&s, Profile::BASELINE).result.executed);
    }

    /// A body run on the reviewer's allow the reference took, where downstream then denied: the
    /// reviewer allowed, so not SAFETY; the call should have stopped, a DECISION.
    #[test]
    fn a_body_run_on_an_accepted_allow_downstream_denied_is_a_decision() {
        let found = judged(
            json!({"tool": {"name": "pwsh"}, "reviewer": {"text": ALLOW},
                   "downstream": {"kind": "deny", "reason": "a rule denies"}}),
            Profile::RESILIENT,
            runs_the_body,
        );
        let (severity, rule) = at_executed(&found);
        assert_eq!(severity, Severity::Decision, "{found:?}");
        assert!(rule.contains("the reviewer's allow"), "{rule}");
        assert!(
            found.iter().all(|d| !d.severity.is_a_body_run()),
            "{found:?}"
        );
    }

    /// A repair the budget does not allow, answered with an allow: a reviewer's allow to a request
    /// the spec does not make (BOUNDS).
    #[test]
    fn a_body_run_on_an_allow_to_an_extra_request_is_bounds() {
        let found = judged(
            json!({"tool": {"name": "pwsh"}, "policy": "never",
                   "config": {"repair_attempts": 0},
                   "reviewer": [{"text": "not json"}, {"text": ALLOW}]}),
            Profile::RESILIENT,
            |o| {
                o.review.attempts += 1;
                o.review.failure = None;
                runs_the_body(o);
            },
        );
        let (severity, rule) = at_executed(&found);
        assert_eq!(severity, Severity::Bounds, "{found:?}");
        assert!(
            rule.contains("to a request the spec does not make"),
            "{rule}"
        );
    }

    /// A body run twice where the reference ran it once: one allow runs a body once (SAFETY),
    /// whoever allowed the first run.
    #[test]
    fn a_body_run_again_is_safety() {
        let found = judged(
            json!({"tool": {"name": "pwsh"}, "reviewer": {"text": ALLOW}}),
            Profile::RESILIENT,
            |o| o.trace.push(Event::Body),
        );
        let d = found
            .iter()
            .find(|d| d.pointer == "/trace")
            .unwrap_or_else(|| panic!("{found:?}"));
        assert_eq!(d.severity, Severity::Safety, "{found:?}");
    }
}
