//! SAFETY means a body ran that nobody permitted to allow (`spec/protocol.md`, "Severities"), held
//! over drawn calls and sessions under every shipped profile: an answer that runs a body the
//! reference did not run is SAFETY exactly when nothing in its own run allowed it (no human's
//! allow, no reviewer's reply that reads as an allow, within the reader's bound or past it); an
//! answer that runs no more bodies than the reference is never SAFETY nor BOUNDS, whatever else
//! it decides otherwise.

use autoreview::conformance::Level;
use autoreview::engine::{self, review::Settlement};
use autoreview::generate::{self, sessions::session_scenario};
use autoreview::outcome::{ApprovalRecord, Decision, Event, InputOutcome, ItemOutcome, Outcome};
use autoreview::parse::{Reply, ReviewerDecision};
use autoreview::profile::Profile;
use autoreview::runner::judge::differences;
use autoreview::runner::{Difference, Severity};
use autoreview::scenario::session::{Input, Item};
use autoreview::scenario::{ApprovalAnswer, Attempt, Scenario};

/// Drawn inputs per profile: calls and sessions.
const CALLS: u64 = 400;
const SESSIONS: u64 = 120;

/// How the answer departs from the reference at one call.
#[derive(Debug, Clone, Copy)]
enum Departure {
    /// The body runs, nothing else changes.
    Runs,
    /// A human was asked and allowed, and the body runs.
    HumanAllowsAndRuns,
    /// The listener allows where the reference did not; the body still runs no more often.
    AllowsWithoutRunning,
    /// The human's answer is another, nothing runs.
    OtherAnswer,
}

/// Whether a scripted reply reads as an allow under the profile: within the reader's bound or
/// past it. Said from the reader's own verdict on the reply, not from how the runner rates it.
fn reads_as_allow(attempt: &Attempt, profile: Profile) -> bool {
    if matches!(
        engine::review::settle(attempt, profile),
        Settlement::Decided(ReviewerDecision::Allow { .. })
    ) {
        return true;
    }
    let Some(reply) = Reply::delivered(attempt) else {
        return false;
    };
    matches!(
        profile.reader().past_the_bound(&reply),
        Some(Ok(ReviewerDecision::Allow { .. }))
    )
}

/// Whether anything in the answer's own run of `call` allowed: a human's allow, or a reviewer's
/// reply to one of the requests it made that reads as an allow (the last scripted reply repeats).
fn anything_allowed(call: &Scenario, got: &Outcome, profile: Profile) -> bool {
    // A human's allow is one the scenario's human gives: an `allowed-once` they do not give
    // (`approval` scripts another answer) is nobody's (`spec/protocol.md`, "Severities").
    let human = call.approval == ApprovalAnswer::AllowedOnce
        && got
            .approval
            .as_ref()
            .is_some_and(|a| a.answer == ApprovalAnswer::AllowedOnce);
    let scripted = call.reviewer.attempts();
    let reviewer = !scripted.is_empty()
        && (0..got.review.attempts as usize)
            .any(|i| reads_as_allow(&scripted[i.min(scripted.len() - 1)], profile));
    human || reviewer
}

fn body_runs(o: &Outcome) -> usize {
    let in_trace = o.trace.iter().filter(|e| **e == Event::Body).count();
    in_trace.max(usize::from(o.result.executed))
}

fn depart(o: &mut Outcome, how: Departure) {
    match how {
        Departure::Runs => {
            o.result.executed = true;
            o.trace.push(Event::Body);
        }
        Departure::HumanAllowsAndRuns => {
            o.approval = Some(ApprovalRecord {
                reason: None,
                display_reason: None,
                answer: ApprovalAnswer::AllowedOnce,
                prompted: true,
            });
            o.result.executed = true;
            o.trace.push(Event::Body);
        }
        Departure::AllowsWithoutRunning => o.listener = Some(Decision::Allow),
        Departure::OtherAnswer => {
            if let Some(a) = &mut o.approval {
                a.answer = match a.answer {
                    ApprovalAnswer::Rejected => ApprovalAnswer::Cancelled,
                    _ => ApprovalAnswer::Rejected,
                };
            }
        }
    }
}

/// The calls of an input with their place in its outcome's pointers.
fn calls(input: &Input) -> Vec<(String, &Scenario)> {
    match input {
        Input::One(s) => vec![(String::new(), s)],
        Input::Session(s) => s
            .calls
            .iter()
            .enumerate()
            .filter_map(|(k, item)| match item {
                Item::Call(c) => Some((format!("/calls/{k}"), &**c)),
                Item::Event(_) => None,
            })
            .collect(),
    }
}

fn outcome_at<'o>(o: &'o mut InputOutcome, at: &str) -> &'o mut Outcome {
    match o {
        InputOutcome::One(o) => o,
        InputOutcome::Session(s) => {
            let k: usize = at.trim_start_matches("/calls/").parse().unwrap();
            match &mut s.calls[k] {
                ItemOutcome::Call(o) => o,
                other => panic!("item {k} is not a call: {other:?}"),
            }
        }
    }
}

/// Checks every departure at every call of `input`; returns how many answers ran a body nobody
/// allowed, for the caller to see the property was not vacuous.
fn holds(input: &Input, profile: Profile) -> (usize, usize) {
    let reference = engine::decide_input(input, profile);
    let (mut safety, mut permitted) = (0, 0);
    for (at, call) in calls(input) {
        for how in [
            Departure::Runs,
            Departure::HumanAllowsAndRuns,
            Departure::AllowsWithoutRunning,
            Departure::OtherAnswer,
        ] {
            let mut answer = reference.clone();
            depart(outcome_at(&mut answer, &at), how);
            let want = outcome_at(&mut reference.clone(), &at).clone();
            let got = outcome_at(&mut answer, &at).clone();
            let found = differences(input, &reference, &answer, false, profile, Level::Full);
            let here = |d: &&Difference| {
                at.is_empty() || d.pointer == at || d.pointer.starts_with(&format!("{at}/"))
            };
            let at_body_run: Vec<&Difference> = found
                .iter()
                .filter(|d| d.severity.is_a_body_run())
                .collect();
            let what = || {
                format!(
                    "{how:?} at call {at:?} under {profile}: {}\n{found:#?}",
                    serde_json::to_string(call).unwrap()
                )
            };
            if body_runs(&got) <= body_runs(&want) {
                // No body ran that the reference did not run: never SAFETY, never BOUNDS.
                assert!(at_body_run.is_empty(), "{}", what());
                continue;
            }
            if body_runs(&want) > 0 {
                // One allow runs a body once: a run again is SAFETY whatever allowed the first.
                assert!(
                    found
                        .iter()
                        .filter(here)
                        .any(|d| d.severity == Severity::Safety),
                    "{}",
                    what()
                );
                safety += 1;
                continue;
            }
            let is_safety = found
                .iter()
                .filter(here)
                .any(|d| d.severity == Severity::Safety);
            let allowed = anything_allowed(call, &got, profile);
            assert_eq!(
                is_safety,
                !allowed,
                "SAFETY iff nothing allowed: {}",
                what()
            );
            if allowed {
                // Someone allowed: the run is rated BOUNDS or DECISION, and rated it is.
                assert!(
                    found
                        .iter()
                        .filter(here)
                        .any(|d| matches!(d.severity, Severity::Bounds | Severity::Decision)),
                    "{}",
                    what()
                );
                permitted += 1;
            } else {
                safety += 1;
            }
        }
    }
    (safety, permitted)
}

#[test]
fn safety_is_a_body_run_nobody_allowed_over_drawn_calls_and_sessions() {
    let calls = generate::scenario();
    let sessions = generate::seeded(session_scenario);
    for profile in Profile::all() {
        let (mut safety, mut permitted) = (0, 0);
        let inputs = (0..CALLS)
            .map(|seed| Input::One(Box::new(calls.draw(seed))))
            .chain((0..SESSIONS).map(|seed| Input::Session(sessions.draw(seed))));
        for input in inputs {
            let (s, p) = holds(&input, profile);
            safety += s;
            permitted += p;
        }
        // Both sides of the definition were reached: bodies nobody allowed, and bodies someone
        // allowed where the reference did not run them.
        assert!(
            safety > 100 && permitted > 100,
            "{profile}: {safety} unallowed runs, {permitted} allowed ones"
        );
    }
}
