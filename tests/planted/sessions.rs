//! Session plants: a mistake in what a gate carries from one item of a session to the next.

use super::*;
use autoreview::outcome::EventOutcome;

/// One mistake in how a gate carries a session's state; the reference's fold otherwise.
pub(super) struct Carry {
    /// Whether disposal finds the session listed, given whether it is.
    pub(super) listed: fn(bool) -> bool,
    /// The count a call leaves, given the count before it, the review the gate made and the
    /// count the reference leaves.
    pub(super) count: fn(u32, Option<&Review>, u32) -> u32,
    /// Whether a selection of Auto writes the preset and policy (AR-SCOPE-5).
    pub(super) selects: bool,
    /// What a lifecycle event item does to the session and reports, given whether disposal finds
    /// it listed: the reference's [`State::apply`] unless the mistake is in an event.
    pub(super) apply: fn(&mut State, &Event, bool) -> EventOutcome,
    /// Whether a call at a lifecycle abort point leaves the integration disposed of for the items
    /// after it (AR-SESSION-2).
    pub(super) disposes: bool,
}

/// The reference's carried state, nothing changed.
pub(super) const CARRY: Carry = Carry {
    listed: |listed| listed,
    count: |_, _, n| n,
    selects: true,
    apply: State::apply,
    disposes: true,
};

/// A session decided item by item as [`session::walk`] does, carrying the state with `m`'s
/// mistake.
pub(super) fn carried(s: &SessionScenario, profile: Profile, m: &Carry) -> Vec<Step> {
    let mut state = State::start(s, profile);
    let listed = (m.listed)(s.session.listed);
    s.calls
        .iter()
        .map(|item| {
            let before = state.clone();
            match item {
                Item::Call(c) => {
                    let (mut o, review) =
                        engine::decide_keeping_review(&state.scenario_for(s, c), profile);
                    // The mode the call left, as the reference carries it (AR-SESSION-2).
                    if c.agent {
                        state.mode = o.sandbox.after;
                    }
                    if let Some(n) = o.review.consecutive_failures {
                        let n = (m.count)(before.consecutive_failures, review.as_ref(), n);
                        o.review.consecutive_failures = Some(n);
                        state.consecutive_failures = n;
                    }
                    if c.abort.is_lifecycle() && m.disposes {
                        let dispose = Event::of(EventKind::Dispose);
                        state.apply(&dispose, listed);
                    }
                    // The preset its body selected, as the reference carries it (AR-RESULT-7).
                    let left = autoreview::scenario::body::left_to(&c.body);
                    state.select_from_body(left.filter(|_| o.result.executed));
                    Step {
                        before,
                        outcome: ItemOutcome::Call(Box::new(o)),
                        review,
                    }
                }
                Item::Event(e) => {
                    let outcome = if e.event == EventKind::SelectAuto && !m.selects {
                        // Reports the selection as the reference does, and forgets it.
                        state.clone().apply(e, listed)
                    } else {
                        (m.apply)(&mut state, e, listed)
                    };
                    Step {
                        before,
                        outcome: ItemOutcome::Event(outcome),
                        review: None,
                    }
                }
            }
        })
        .collect()
}

/// Generated cases for the session plants: a session is drawn for one case in eight.
pub(super) const SESSION_CASES: usize = 3000;

/// The harness's own fold, with no mistake, passes both kinds of case: what the plants below
/// are caught for is their mistake alone.
#[test]
fn the_carrying_fold_without_a_mistake_passes() {
    let mut none = Planted::carrying("nothing", |s, p| carried(s, p, &CARRY));
    for profile in Profile::all() {
        assert_eq!(by_fixed(&mut none, profile), None, "{profile}");
        assert_eq!(by_generated(&mut none, profile, 1000), None, "{profile}");
    }
}

/// A gate that resets the failure count on an allow only, not on a deny (AR-RES-HINT-1): the
/// count and the hint after a deny are wrong. The hint changes only texts (AR-RES-HINT-3), so no
/// body runs that must not: TEXT, from either kind of case.
#[test]
fn a_count_a_deny_does_not_reset_is_found_at_text() {
    let plant = Planted::carrying("a deny keeps the failure count", |s, p| {
        carried(
            s,
            p,
            &Carry {
                count: |before, review, n| match review.map(|r| &r.settlement) {
                    Some(Settlement::Decided(ReviewerDecision::Deny { .. })) => before,
                    _ => n,
                },
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-RES-HINT-1",
        &[Profile::RESILIENT],
        Severity::Text,
        SESSION_CASES,
    );
}

/// A gate that counts a failure a signal produced (AR-CANCEL-6, AR-RES-HINT-1): TEXT at worst,
/// as above.
#[test]
fn a_count_a_signal_raises_is_found_at_text() {
    let plant = Planted::carrying("a signal's failure is counted", |s, p| {
        carried(
            s,
            p,
            &Carry {
                count: |before, review, n| match review {
                    Some(r) if r.signal_ended => before + 1,
                    _ => n,
                },
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-RES-HINT-1",
        &[Profile::RESILIENT],
        Severity::Text,
        SESSION_CASES,
    );
}

/// A gate that moves every Auto session at disposal, listed or not (AR-DISPOSE-1, AR-DISPOSE-4):
/// an unlisted session is out of Auto once the integration is installed again, so a call the
/// reviewer denies passes through and its body runs: SAFETY, from either kind of case.
#[test]
fn disposal_that_moves_an_unlisted_session_is_found_at_safety() {
    let plant = Planted::carrying("disposal moves unlisted sessions too", |s, p| {
        carried(
            s,
            p,
            &Carry {
                listed: |_| true,
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-DISPOSE-1",
        &Profile::all(),
        Severity::Safety,
        SESSION_CASES,
    );
}

/// The gate that ignores a selection of Auto, below.
fn ignored_selection() -> Planted {
    Planted::carrying("a selection of Auto is ignored", |s, p| {
        carried(
            s,
            p,
            &Carry {
                selects: false,
                ..CARRY
            },
        )
    })
}

/// A gate that ignores a selection of Auto (AR-SCOPE-5): a session under another preset stays
/// out of Auto, so a call the reviewer denies passes through and its body runs: SAFETY.
#[test]
fn an_ignored_selection_of_auto_is_found_at_safety() {
    found_leading(
        ignored_selection(),
        "AR-SCOPE-5",
        &Profile::all(),
        Severity::Safety,
        SESSION_CASES,
    );
}

/// A gate that lets the transport ignore a disposal that began before it, passing it through
/// under the policy its session had rather than the `never` disposal wrote (AR-DISPOSE-3,
/// AR-RES-DISPOSE-1): a later check's question reaches a human who allows it, and the body runs
/// where the approval service answers by itself and asks nobody: BOUNDS.
#[test]
fn a_transport_that_ignores_disposal_is_found_at_bounds() {
    let plant = Planted::writing("run_code ignores a disposal begun before it", |s, o| {
        if s.tool.call == CallKind::RunCode && s.abort == AbortPoint::LifecycleBeforeReview {
            let mut undisposed = s.clone();
            undisposed.abort = AbortPoint::None;
            // What the call comes to without the disposal; the review it never made is as the
            // reference records it.
            let u = engine::decide(&undisposed, Profile::BASELINE);
            (o.listener, o.approval, o.result, o.trace) =
                (u.listener, u.approval, u.result, u.trace);
        }
    });
    found_leading(
        plant,
        "AR-DISPOSE-3",
        &Profile::all(),
        Severity::Bounds,
        SESSION_CASES,
    );
}

/// A harness whose session ends with the integration: once it reports a `dispose` event it
/// reports no item after it (AR-SESSION-1: one entry per item, in order, each item after the
/// one before). The items it leaves out are missing: DECISION, from either kind of case.
#[test]
fn a_session_reported_up_to_its_disposal_is_found_at_decision() {
    let plant = Planted::carrying("a session reported up to its disposal", |s, p| {
        let mut steps = session::walk(s, p);
        let disposal = s
            .calls
            .iter()
            .position(|i| matches!(i, Item::Event(e) if e.event == EventKind::Dispose));
        if let Some(k) = disposal {
            steps.truncate(k + 1);
        }
        steps
    });
    found_leading(
        plant,
        "AR-SESSION-1",
        &Profile::all(),
        Severity::Decision,
        SESSION_CASES,
    );
}

/// A harness that decides a call at a lifecycle abort point as the reference does, disposal and
/// all, but forgets afterwards that the integration was disposed of during it: the items after
/// it find the integration installed and the session where it was (AR-SESSION-2: such a call
/// leaves the integration disposed of for the items after it). A later call in a session
/// disposal moved is reviewed where it must pass through under `never`, so a later check's
/// question reaches a human whose allow runs the body where the approval service answers by
/// itself: BOUNDS, from either kind of case (SES-12; generated sessions meet it in the CI's
/// 20,000 cases, not in 3,000). Whether the later call is reviewed at all rests on the state the
/// call before it left, so the run leads with AR-SESSION-2.
#[test]
fn a_disposal_during_a_call_forgotten_is_found_at_bounds() {
    let plant = Planted::carrying("a disposal during a call forgotten", |s, p| {
        carried(
            s,
            p,
            &Carry {
                disposes: false,
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-SESSION-2",
        &Profile::all(),
        Severity::Bounds,
        autoreview::requirements::GENERATED,
    );
}

/// A resilient gate that keeps the failure count per call rather than per session: each call
/// starts from the count the session had before its first call, not from the count the call
/// before it left (AR-SESSION-3). The hint changes only texts: TEXT, from either kind of case.
#[test]
fn a_count_not_carried_from_call_to_call_is_found_at_text() {
    let plant = Planted::carrying("the failure count not carried", |s, p| {
        let mut steps = session::walk(s, p);
        for (step, item) in steps.iter_mut().zip(&s.calls) {
            if let Item::Call(c) = item {
                let mut from = step.before.clone();
                from.consecutive_failures = s.session.consecutive_failures;
                let (o, review) = engine::decide_keeping_review(&from.scenario_for(s, c), p);
                (step.outcome, step.review) = (ItemOutcome::Call(Box::new(o)), review);
            }
        }
        steps
    });
    found_leading(
        plant,
        "AR-SESSION-3",
        &[Profile::RESILIENT],
        Severity::Text,
        SESSION_CASES,
    );
}

/// A harness that decides each call of a session as that call alone in the session's starting
/// state, not in the state the items before it left (AR-SESSION-2): a session the user moved to
/// Auto, or disposal moved out of it, is reviewed or passed through as it was at the start, and a
/// call that must be reviewed passes through to downstream's allow: SAFETY, from either kind of
/// case. AR-SESSION-2 is among its violations, where disposal moved a session out of Auto.
#[test]
fn a_session_decided_from_its_start_is_found_at_safety() {
    let mut plant = Planted::carrying("each call decided in the starting state", |s, p| {
        let start = State::start(s, p);
        let mut steps = session::walk(s, p);
        for (step, item) in steps.iter_mut().zip(&s.calls) {
            if let Item::Call(c) = item {
                let (o, review) = engine::decide_keeping_review(&start.scenario_for(s, c), p);
                (step.outcome, step.review) = (ItemOutcome::Call(Box::new(o)), review);
            }
        }
        steps
    });
    found_at(
        &mut plant,
        Profile::BASELINE,
        Severity::Safety,
        SESSION_CASES,
    );
    // A case tells it from a gate that ignores a selection of Auto: BA-12, whose second call
    // arrives in the preset and mode the first call's body selected (AR-RESULT-7), which a
    // harness deciding from the start does not have (SAFETY: its body then runs with full
    // access). The run leads with that selection; AR-SESSION-2 is among its violations.
    let (worst, first) = fixed_run(&mut plant, Profile::BASELINE);
    assert_eq!(worst, Some(Severity::Safety));
    assert_eq!(first.as_deref(), Some("AR-RESULT-7"));
    let (_, report) = fixed_report(&mut plant, Profile::BASELINE);
    let violations = runner::violations::of(&report.results, &[]);
    assert!(violations.iter().any(|v| v.clause == "AR-SESSION-2"));
    // In the resilient profile a case does tell the two apart: CF-16, whose last call arrives
    // with the mode an earlier call's narrowing left, which a gate deciding from the start does
    // not have (SAFETY: its body then runs with full access). The run still leads with AR-SCOPE-5,
    // which more cases show, so the plant is indexed for neither clause.
    let (worst, first) = fixed_run(&mut plant, Profile::RESILIENT);
    assert_eq!(worst, Some(Severity::Safety));
    assert_eq!(first.as_deref(), Some("AR-SCOPE-5"));
    assert_eq!(
        by_generated(&mut plant, Profile::RESILIENT, SESSION_CASES),
        Some(Severity::Safety)
    );
}

/// A gate that remembers a human's `allowed-once` for the tool it was given for, and answers the
/// next ask about that tool in the same session by itself, as an "allow for this session"
/// shortcut does (AR-APPROVAL-6: every ask is answered for one call; no grant is remembered): a
/// later call of the tool runs its body without the human being asked, where the human would
/// have rejected it: SAFETY, from either kind of case, in either profile (SES-11; generated
/// sessions that ask about one tool again after a grant, `Plan::Grant`).
#[test]
fn a_gate_that_remembers_an_allowed_once_grant_is_found_at_safety() {
    use autoreview::scenario::ApprovalAnswer;
    let plant = Planted::carrying("an allowed-once answer remembered", |s, p| {
        let mut granted: Vec<String> = Vec::new();
        session::walk(s, p)
            .into_iter()
            .zip(&s.calls)
            .map(|(mut step, item)| {
                if let (ItemOutcome::Call(o), Item::Call(c)) = (&mut step.outcome, item) {
                    let asked = o.approval.as_ref().is_some_and(|a| a.prompted);
                    if asked && granted.contains(&c.tool.name) {
                        let mut one = step.before.scenario_for(s, c);
                        one.approval = ApprovalAnswer::AllowedOnce;
                        let mut again = engine::decide(&one, p);
                        if let Some(a) = &mut again.approval {
                            a.prompted = false;
                        }
                        **o = again;
                    }
                    if o.approval
                        .as_ref()
                        .is_some_and(|a| a.answer == ApprovalAnswer::AllowedOnce)
                    {
                        granted.push(c.tool.name.clone());
                    }
                }
                step
            })
            .collect()
    });
    found_leading(
        plant,
        "AR-APPROVAL-6",
        &Profile::all(),
        Severity::Safety,
        SESSION_CASES,
    );
}
