//! Invariants the spec states, checked over generated scenarios (`autoreview::generate`). Each
//! property names the clauses it restates.

use autoreview::generate::scenario;
use autoreview::outcome::{Decision, Event};
use autoreview::parse::{self, ReviewerDecision};
use autoreview::scenario::{
    AbortPoint, ApprovalAnswer, ApprovalPolicy, Attempt, CallKind, Downstream, Preset, Scenario,
};
use autoreview::{Outcome, Profile, decide};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};

/// Cases per property: `PROPTEST_CASES` when set, else 2000 (ProptestConfig::with_cases would
/// ignore the variable).
fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/properties.txt",
        ))),
        ..Config::default()
    }
}

fn reviewed(s: &Scenario) -> bool {
    s.agent && s.tool.call != CallKind::RunCode && s.preset == Preset::Auto
}

fn first_attempt_allows(s: &Scenario) -> bool {
    match s.reviewer.attempt(0) {
        Attempt::Text { text } => matches!(
            parse::strict::parse_text(text),
            Ok(ReviewerDecision::Allow { .. })
        ),
        Attempt::Blocks { .. } => {
            // Recompute through the engine's reader only for the verdict's class.
            let o = decide(
                &Scenario {
                    downstream: Downstream::Allow,
                    abort: AbortPoint::None,
                    policy: autoreview::scenario::Policy {
                        override_: Some(ApprovalPolicy::Never),
                        default: ApprovalPolicy::Never,
                    },
                    ..s.clone()
                },
                Profile::Baseline,
            );
            o.result.executed
        }
        _ => false,
    }
}

fn texts(o: &Outcome) -> Vec<&str> {
    let mut t = Vec::new();
    if let Some(Decision::Deny { reason, .. }) = &o.listener {
        t.push(reason.as_str());
    }
    if let Some(Decision::Ask {
        reason: Some(r), ..
    }) = &o.listener
    {
        t.push(r.as_str());
    }
    if let Some(a) = &o.approval {
        t.extend(a.reason.as_deref());
    }
    t.extend(o.result.text.as_deref());
    t
}

proptest! {
    #![proptest_config(config())]

    /// AR-DECIDE-4/5, AR-APPROVAL-3, AR-RESULT-1: the body runs only after the gate allowed (a
    /// reviewed call: the reviewer allowed and downstream allowed) or the human answered
    /// `allowed-once`.
    #[test]
    fn the_body_runs_only_after_an_allow_or_allowed_once(s in scenario()) {
        let o = decide(&s, Profile::Baseline);
        prop_assert_eq!(o.trace.contains(&Event::Body), o.result.executed);
        if o.result.executed {
            prop_assert_eq!(o.trace.last(), Some(&Event::Body));
            match &o.approval {
                None => {
                    prop_assert_eq!(&o.listener, &Some(Decision::Allow));
                    if reviewed(&s) {
                        prop_assert!(first_attempt_allows(&s), "a reviewed call ran without a reviewer allow");
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

    /// AR-APPROVAL-2: under the effective policy `never` the approval service prompts nobody.
    #[test]
    fn never_prompts_nobody(s in scenario()) {
        let o = decide(&s, Profile::Baseline);
        if s.policy.effective() == ApprovalPolicy::Never {
            prop_assert!(o.approval.as_ref().is_none_or(|a| !a.prompted), "{:?}", o.approval);
        }
    }

    /// AR-ORDER-2: a downstream deny or cancel is never followed by an approval request.
    #[test]
    fn a_downstream_deny_or_cancel_is_never_followed_by_approval(s in scenario()) {
        let o = decide(&s, Profile::Baseline);
        if o.trace.contains(&Event::Downstream) && matches!(s.downstream, Downstream::Deny { .. } | Downstream::Cancel) {
            prop_assert!(o.approval.is_none());
            prop_assert!(!o.trace.contains(&Event::Approval));
        }
    }

    /// AR-REVIEW-1, AR-ORDER-1: the reviewer is consulted before any downstream listener, at most
    /// once; events follow review, downstream, approval, body without repeats.
    #[test]
    fn events_keep_their_order_and_the_reviewer_comes_first_once(s in scenario()) {
        let o = decide(&s, Profile::Baseline);
        let order = [Event::Review, Event::Downstream, Event::Approval, Event::Body];
        let ranks: Vec<usize> = o.trace.iter().map(|e| order.iter().position(|x| x == e).unwrap()).collect();
        prop_assert!(ranks.windows(2).all(|w| w[0] < w[1]), "trace {:?}", o.trace);
        prop_assert_eq!(o.review.attempts as usize, o.trace.iter().filter(|e| **e == Event::Review).count());
        if !reviewed(&s) {
            prop_assert_eq!(o.review.attempts, 0);
        }
    }

    /// The engine is a function of its input: same scenario, same outcome, also after a JSON round
    /// trip of both.
    #[test]
    fn the_outcome_is_deterministic(s in scenario()) {
        let a = decide(&s, Profile::Baseline);
        let b = decide(&s, Profile::Baseline);
        prop_assert_eq!(&a, &b);
        let text = serde_json::to_string(&s).unwrap();
        let again = Scenario::from_json(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&again, &s);
        prop_assert_eq!(&decide(&again, Profile::Baseline), &a);
        let round: Outcome = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        prop_assert_eq!(round, a);
    }

    /// AR-MSG-1: every text that names the tool quotes its name exactly as given.
    #[test]
    fn every_text_quotes_the_tool_name_verbatim(s in scenario()) {
        let o = decide(&s, Profile::Baseline);
        let quoted = format!("tool \"{}\"", s.tool.name);
        for t in texts(&o) {
            let from_downstream = matches!(&s.downstream, Downstream::Deny { reason, .. } | Downstream::Ask { reason } if t.ends_with(reason.as_str()));
            if t.contains("tool \"") && !from_downstream {
                prop_assert!(t.contains(&quoted), "{t:?} does not quote {quoted:?}");
            }
        }
    }

    /// AR-CANCEL-7: no cancelled call runs its body, and only a review that never settles leaves a
    /// call pending.
    #[test]
    fn cancelled_calls_never_run(s in scenario()) {
        let o = decide(&s, Profile::Baseline);
        let caller = matches!(s.abort, AbortPoint::CallerBeforeDispatch | AbortPoint::CallerDuringReview);
        if caller || (reviewed(&s) && s.abort != AbortPoint::None) {
            prop_assert!(!o.result.executed);
        }
        if !o.settled {
            prop_assert!(reviewed(&s));
            let hangs = matches!(s.reviewer.attempt(0), Attempt::Hang { .. });
            prop_assert!(hangs, "a call is pending although its reviewer does not hang");
            prop_assert!(o.result.text.is_none() && !o.result.executed);
        }
    }

    /// AR-RESULT-2, AR-RESULT-4: every refused call's text starts with `Error: `.
    #[test]
    fn refused_calls_read_error(s in scenario()) {
        let o = decide(&s, Profile::Baseline);
        if o.settled && !o.result.executed {
            let text = o.result.text.as_deref().unwrap_or_default();
            prop_assert!(text.starts_with("Error: "), "{text:?}");
        }
    }
}
