//! Invariants the spec states, checked over generated scenarios (`autoreview::generate`) in every
//! profile they hold for. Each property names the clauses it restates.

use autoreview::generate::{Recorded, scenario_recorded};
use autoreview::outcome::{Decision, Event};
use autoreview::profile::{AsksAgain, PresetRead};
use autoreview::scenario::{
    AbortPoint, ApprovalAnswer, ApprovalPolicy, Attempt, CallKind, Downstream, OnFailure, Preset,
    Scenario,
};
use autoreview::table::{ReviewerClass, features};
use autoreview::{Outcome, Profile, decide};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};

/// Cases per property: `PROPTEST_CASES` when set, else 1500 (ProptestConfig::with_cases would
/// ignore the variable).
fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/properties.txt",
        ))),
        ..Config::default()
    }
}

/// The scenarios the properties failed on when engine mutants were planted, as proptest shrank
/// them, each with the seed `proptest-regressions/properties.txt` recorded for it: the proptest
/// strategies the generator had before it drew from its seeded stream alone drew them from those
/// seeds, which now draw other scenarios; the strategy gives these for their seeds instead, so
/// replaying the file runs them again, in every property.
fn recorded() -> Recorded<Scenario> {
    let recorded = [
        (
            "fdb655052bcc2f7b18b374638f4ce12c12daea69cca114bbdef9ae24ac66fc9e",
            r#"{"tool":{"name":"pwsh"},"agent":false,"approval":"allowed-once",
            "reviewer":[{"finish":{"kind":"error","code":"TRANSPORT","message":{"a":9.164882562976065e24}}}]}"#,
        ),
        (
            "4833b5d57d1e90752d3c0b208460acbfc044fbdd4f32d1fcb9f25b9438db8377",
            r#"{"tool":{"name":"pwsh"},"abort":"lifecycle-before-review",
            "reviewer":{"text":"{\"risk\":\"low\",\"decision\":\"allow\"}"}}"#,
        ),
    ];
    scenario_recorded(&recorded)
}

/// The values proptest gives a property when it only replays the failures `config` persisted.
pub(crate) fn replayed(strategy: &Recorded<Scenario>, config: Config) -> Vec<Scenario> {
    let seen = std::cell::RefCell::new(Vec::new());
    let mut runner = proptest::test_runner::TestRunner::new(Config { cases: 0, ..config });
    runner
        .run(strategy, |s| {
            seen.borrow_mut().push(s);
            Ok(())
        })
        .unwrap();
    seen.into_inner()
}

/// Replaying the regression file runs each recorded scenario, and nothing else.
#[test]
fn replaying_the_regression_file_runs_the_recorded_scenarios() {
    let mut seen = replayed(&recorded(), config());
    seen.sort_by_key(|s| serde_json::to_string(s).unwrap());
    let mut expected = recorded().values();
    expected.sort_by_key(|s| serde_json::to_string(s).unwrap());
    assert_eq!(seen.len(), 2);
    assert_eq!(seen, expected);
}

/// Whether the gate reviews the call as it finds it: where the preset is read at the call's start
/// (the baseline, the 0.2.x gate), disposal that began before the call has moved a listed Auto
/// session out of Auto (AR-DISPOSE-2); the resilient gate cancels such a call instead, which still
/// counts as a call in scope (AR-RES-DISPOSE-1).
fn reviewed(s: &Scenario, profile: Profile) -> bool {
    let moved = profile.preset_read() == PresetRead::AtStart
        && s.session.listed
        && s.abort == AbortPoint::LifecycleBeforeReview;
    s.agent && s.tool.call != CallKind::RunCode && s.preset == Preset::Auto && !moved
}

fn texts(o: &Outcome) -> Vec<&str> {
    let mut t = Vec::new();
    match &o.listener {
        Some(Decision::Deny { reason, .. }) => t.push(reason.as_str()),
        Some(Decision::Ask {
            reason,
            display_reason,
        }) => {
            t.extend(reason.as_deref());
            if let Some(d) = display_reason {
                t.push(&d.en);
                t.push(&d.zh);
            }
        }
        _ => {}
    }
    if let Some(a) = &o.approval {
        t.extend(a.reason.as_deref());
    }
    t.extend(o.result.text.as_deref());
    t
}

proptest! {
    #![proptest_config(config())]

    /// AR-DECIDE-4/5, AR-APPROVAL-3, AR-RESULT-1: the body runs only after the gate allowed (for
    /// a reviewed call: the review obtained an allow and downstream allowed) or the human answered
    /// `allowed-once`.
    #[test]
    fn the_body_runs_only_after_an_allow_or_allowed_once(s in recorded()) {
        for profile in Profile::all() {
            let o = decide(&s, profile);
            prop_assert_eq!(o.trace.contains(&Event::Body), o.result.executed);
            if !o.result.executed {
                continue;
            }
            // The body's own requests follow it, one `raised` event each (AR-RESULT-7).
            let after_body: Vec<&Event> = o.trace.iter().skip_while(|e| **e != Event::Body).skip(1).collect();
            prop_assert!(after_body.iter().all(|e| **e == Event::Raised), "trace {:?}", o.trace);
            prop_assert_eq!(after_body.len(), o.body_approvals.len());
            match &o.approval {
                None => {
                    prop_assert_eq!(&o.listener, &Some(Decision::Allow));
                    if reviewed(&s, profile) {
                        prop_assert_eq!(features::of(&s, profile).reviewer, ReviewerClass::Allow);
                        prop_assert_eq!(&s.downstream, &Downstream::Allow);
                    }
                }
                Some(a) => {
                    prop_assert_eq!(a.answer, ApprovalAnswer::AllowedOnce);
                    prop_assert!(a.prompted);
                }
            }
        }
    }

    /// AR-APPROVAL-7, AR-APPROVAL-8: a request a body raised is answered by the gate only for the
    /// call it allowed after its reviewer's and downstream's allow, naming itself, in a profile
    /// whose gate answers, and then `allowed-once`; under `never` the service answers it alone.
    #[test]
    fn the_gate_answers_only_its_own_allowed_call(s in recorded()) {
        use autoreview::outcome::AnsweredBy;
        use autoreview::profile::BodyApprovals;
        use autoreview::scenario::{Answer, CallIdOf};
        for profile in Profile::all() {
            let o = decide(&s, profile);
            for b in &o.body_approvals {
                if b.answered_by == AnsweredBy::Gate {
                    prop_assert_eq!(profile.body_approvals(), BodyApprovals::AllowedCall);
                    prop_assert_eq!(b.call_id, CallIdOf::Own);
                    prop_assert_eq!(b.answer, Answer::AllowedOnce);
                    prop_assert!(o.approval.is_none() && reviewed(&s, profile), "{profile}: {o:?}");
                }
                if s.policy.effective() == ApprovalPolicy::Never && s.body.iter().all(|st| matches!(st, autoreview::scenario::Step::Raise(_))) {
                    prop_assert_eq!(b.answered_by, AnsweredBy::Service);
                }
            }
        }
    }

    /// AR-APPROVAL-2: under the effective policy `never` the approval service prompts nobody.
    #[test]
    fn never_prompts_nobody(s in recorded()) {
        for profile in Profile::all() {
            let o = decide(&s, profile);
            if s.policy.effective() == ApprovalPolicy::Never {
                prop_assert!(o.approval.as_ref().is_none_or(|a| !a.prompted), "{profile}: {:?}", o.approval);
            }
        }
    }

    /// AR-ORDER-2: a downstream deny or cancel is never followed by an approval request.
    #[test]
    fn a_downstream_deny_or_cancel_is_never_followed_by_approval(s in recorded()) {
        for profile in Profile::all() {
            let o = decide(&s, profile);
            if o.trace.contains(&Event::Downstream) && matches!(s.downstream, Downstream::Deny { .. } | Downstream::Cancel) {
                prop_assert!(o.approval.is_none());
                prop_assert!(!o.trace.contains(&Event::Approval));
            }
        }
    }

    /// AR-REVIEW-1, AR-ORDER-1, AR-RES-RETRY-1: reviewer requests come before any downstream
    /// listener; then downstream, approval and body, each at most once. The baseline makes at most
    /// one request; the resilient profile at most one plus its repair and retry budgets; the 0.2.x
    /// profile at most one plus its JSON retries (AR-JSON-RETRY-1).
    #[test]
    fn events_keep_their_order_and_requests_stay_within_budget(s in recorded()) {
        for profile in Profile::all() {
            let o = decide(&s, profile);
            let order = [Event::Review, Event::Downstream, Event::Approval, Event::Body, Event::Raised];
            let ranks: Vec<usize> = o.trace.iter().map(|e| order.iter().position(|x| x == e).unwrap()).collect();
            // Requests repeat (reviews; the body's raised requests), nothing else does.
            let repeats = |r: usize| r == 0 || r == 4;
            prop_assert!(ranks.windows(2).all(|w| w[0] < w[1] || (w[0] == w[1] && repeats(w[0]))), "trace {:?}", o.trace);
            let requests = o.trace.iter().filter(|e| **e == Event::Review).count();
            prop_assert_eq!(o.review.attempts as usize, requests);
            prop_assert_eq!(o.review.routes.len(), requests);
            let budget = match profile.asks_again() {
                AsksAgain::Never => 1,
                AsksAgain::RepairAndRetry => 1 + s.config.repair_attempts + s.config.transport_retries,
                AsksAgain::JsonRetry => 1 + s.config.max_json_retries,
            };
            prop_assert!(o.review.attempts <= budget, "{profile}: {} requests, budget {budget}", o.review.attempts);
            if !reviewed(&s, profile) {
                prop_assert_eq!(o.review.attempts, 0);
            }
        }
    }

    /// The review the gate made, handed to the feature tagging, tags the call as a fresh review
    /// would, and keeping it changes nothing about the outcome.
    #[test]
    fn a_kept_review_tags_the_call_as_a_fresh_one(s in recorded()) {
        for profile in Profile::all() {
            let (outcome, review) = autoreview::engine::decide_keeping_review(&s, profile);
            prop_assert_eq!(&outcome, &decide(&s, profile));
            prop_assert_eq!(
                autoreview::table::features::of_reviewed(&s, profile, review.as_ref()),
                autoreview::table::features::of(&s, profile)
            );
        }
    }

    /// The engine is a function of its input: same scenario, same outcome, also after a JSON round
    /// trip of both.
    #[test]
    fn the_outcome_is_deterministic(s in recorded()) {
        let text = serde_json::to_string(&s).unwrap();
        let again = Scenario::from_json(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&again, &s);
        for profile in Profile::all() {
            let a = decide(&s, profile);
            prop_assert_eq!(&decide(&s, profile), &a);
            prop_assert_eq!(&decide(&again, profile), &a);
            let round: Outcome = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
            prop_assert_eq!(round, a);
        }
    }

    /// AR-MSG-1: every text that names the tool quotes its name exactly as given.
    #[test]
    fn every_text_quotes_the_tool_name_verbatim(s in recorded()) {
        for profile in Profile::all() {
            let o = decide(&s, profile);
            let quoted = format!("tool \"{}\"", s.tool.name);
            for t in texts(&o) {
                let from_downstream = matches!(&s.downstream, Downstream::Deny { reason, .. } | Downstream::Ask { reason } if t == reason.as_str());
                if t.contains("tool \"") && !from_downstream {
                    prop_assert!(t.contains(&quoted), "{t:?} does not quote {quoted:?}");
                }
            }
        }
    }

    /// AR-CANCEL-7: no cancelled call runs its body; only a profile without a deadline leaves a
    /// call pending, and only when its review never settles.
    #[test]
    fn cancelled_calls_never_run(s in recorded()) {
        for profile in Profile::all() {
            let o = decide(&s, profile);
            let caller = matches!(s.abort, AbortPoint::CallerBeforeDispatch | AbortPoint::CallerDuringReview);
            if caller || (reviewed(&s, profile) && s.abort != AbortPoint::None) {
                prop_assert!(!o.result.executed);
            }
            if !o.settled {
                prop_assert!(!profile.has_deadline(), "{profile} has a deadline");
                prop_assert!(reviewed(&s, profile));
                // The last request made is the one that never settles (the first, or one the
                // profile asked again with, AR-JSON-RETRY-1).
                let last = (o.review.attempts as usize).saturating_sub(1);
                let hangs = matches!(s.reviewer.attempt(last), Attempt::Hang { .. });
                prop_assert!(hangs, "a call is pending although its reviewer does not hang");
                prop_assert!(o.result.text.is_none() && !o.result.executed);
            }
        }
    }

    /// AR-RESULT-2, AR-RESULT-4: every refused call's text starts with `Error: `.
    #[test]
    fn refused_calls_read_error(s in recorded()) {
        for profile in Profile::all() {
            let o = decide(&s, profile);
            if o.settled && !o.result.executed {
                let text = o.result.text.as_deref().unwrap_or_default();
                prop_assert!(text.starts_with("Error: "), "{text:?}");
            }
        }
    }

    /// AR-RES-FAIL-2: under the effective policy `ask` with `on_failure` `ask`, a reviewer failure
    /// never ends in a denial the gate made itself: downstream decided, or the human was asked.
    #[test]
    fn no_silent_terminal_denial_of_a_failure_under_ask(s in recorded()) {
        let o = decide(&s, Profile::RESILIENT);
        let failed = o.review.failure.is_some();
        if failed && s.policy.effective() == ApprovalPolicy::Ask && s.config.on_failure == OnFailure::Ask
            && !matches!(s.abort, AbortPoint::LifecycleAfterReview | AbortPoint::LifecycleDuringDownstream)
        {
            prop_assert!(o.trace.contains(&Event::Downstream), "downstream was not consulted: {o:?}");
            let gate_denied = matches!(&o.listener, Some(Decision::Deny { info: Some(i), .. }) if i.get("code").and_then(|c| c.as_str()) == Some("AUTO_REVIEW_FAILED"));
            prop_assert!(!gate_denied, "the gate denied a failure itself: {o:?}");
        }
    }

    /// AR-RES-NORM-1..4: resilient failure texts never show `[object Object]`, hidden characters
    /// or more than 400 characters of message.
    #[test]
    fn resilient_failure_messages_are_normalized(s in recorded()) {
        let o = decide(&s, Profile::RESILIENT);
        if let Some(f) = &o.review.failure {
            prop_assert!(!f.message.contains("[object Object]"), "{:?}", f.message);
            prop_assert!(f.message.chars().count() <= 400, "{} chars", f.message.chars().count());
            prop_assert!(!f.message.chars().any(autoreview::normalize::is_hidden), "{:?}", f.message);
            prop_assert!(!f.message.contains("  ") && f.message.trim() == f.message);
        }
    }

    /// AR-RES-HINT-1: a decision resets the count, a counted failure adds one, anything else leaves
    /// it; the baseline keeps no count.
    #[test]
    fn the_failure_count_follows_the_review(s in recorded()) {
        prop_assert_eq!(decide(&s, Profile::BASELINE).review.consecutive_failures, None);
        let o = decide(&s, Profile::RESILIENT);
        let before = s.session.consecutive_failures;
        let after = o.review.consecutive_failures.unwrap();
        prop_assert!(after == 0 || after == before || after == before + 1);
        if o.review.attempts > 0 && o.review.failure.is_none() && o.settled {
            prop_assert_eq!(after, 0);
        }
        if !reviewed(&s, Profile::RESILIENT) {
            prop_assert_eq!(after, before);
        }
    }
}
