//! Planted defects: the reference engine with one mistake a harness author could plausibly make,
//! checked by the fixed cases alone and by generated cases alone. Each class of defect the suite
//! claims to find has a plant here, and the test says at which severity each kind of case finds
//! it: SAFETY wherever the mistake can run a body that must not run.

use autoreview::cases;
use autoreview::engine;
use autoreview::engine::review::{Review, Settlement};
use autoreview::engine::session::{self, State, Step};
use autoreview::outcome::{InputOutcome, ItemOutcome, Outcome, SessionOutcome};
use autoreview::parse::ReviewerDecision;
use autoreview::profile::Profile;
use autoreview::runner::generated::{self, Plan};
use autoreview::runner::known_failures::Expected;
use autoreview::runner::{self, Ask, ImplError, Implementation, Oracle, Severity, Verdict};
use autoreview::scenario::session::{Event, EventKind, Input, Item, SessionScenario};
use autoreview::scenario::{AbortPoint, CallKind, Scenario};

/// The reference engine with a mistake planted: each call of an input is rewritten by `before`
/// and decided as the reference decides it, and its outcome is then rewritten by `after` (given
/// the call as the runner sent it).
pub struct Planted {
    /// What the mistake is, for messages.
    pub name: &'static str,
    /// How the defective gate sees a call: a reader that trims a reply, say, sees it trimmed.
    pub before: fn(&mut Scenario),
    /// How the defective gate writes an outcome: a gate that writes numbers its own way, say.
    /// A session's call is given as it was decided, with the state its session reached.
    pub after: fn(&Scenario, &mut Outcome),
    /// How the defective gate carries a session's state from item to item: the reference's
    /// [`session::walk`] unless the mistake is in what a session carries.
    pub walk: fn(&SessionScenario, Profile) -> Vec<Step>,
}

impl Planted {
    /// A mistake in how the gate reads a call.
    pub fn reading(name: &'static str, before: fn(&mut Scenario)) -> Planted {
        Planted {
            name,
            before,
            after: |_, _| {},
            walk: session::walk,
        }
    }

    /// A mistake in how the gate writes an outcome.
    pub fn writing(name: &'static str, after: fn(&Scenario, &mut Outcome)) -> Planted {
        Planted {
            name,
            before: |_| {},
            after,
            walk: session::walk,
        }
    }

    /// A mistake in what the gate carries from one item of a session to the next.
    pub fn carrying(
        name: &'static str,
        walk: fn(&SessionScenario, Profile) -> Vec<Step>,
    ) -> Planted {
        Planted {
            name,
            before: |_| {},
            after: |_, _| {},
            walk,
        }
    }
}

impl Implementation for Planted {
    fn describe(&self) -> String {
        format!("a planted defect: {}", self.name)
    }

    fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
        let mut input = ask.input.clone();
        match &mut input {
            Input::One(s) => (self.before)(s),
            Input::Session(s) => {
                for item in &mut s.calls {
                    if let Item::Call(c) = item {
                        (self.before)(c);
                    }
                }
            }
        }
        let out = match &input {
            Input::One(s) => {
                let mut o = engine::decide(s, ask.profile);
                if let Input::One(sent) = ask.input {
                    (self.after)(sent, &mut o);
                }
                InputOutcome::One(Box::new(o))
            }
            Input::Session(s) => {
                let Input::Session(sent) = ask.input else {
                    unreachable!("an input is decided as what it is")
                };
                let calls = (self.walk)(s, ask.profile)
                    .into_iter()
                    .zip(&sent.calls)
                    .map(|(step, item)| match (step.outcome, item) {
                        (ItemOutcome::Call(mut o), Item::Call(c)) => {
                            (self.after)(&step.before.scenario_for(sent, c), &mut o);
                            ItemOutcome::Call(o)
                        }
                        (o, _) => o,
                    })
                    .collect();
                InputOutcome::Session(SessionOutcome {
                    id: s.id.clone(),
                    calls,
                })
            }
        };
        Ok(out)
    }
}

/// The worst severity the fixed cases of `profile` find in `imp`, `None` when every case passes.
pub fn by_fixed(imp: &mut dyn Implementation, profile: Profile) -> Option<Severity> {
    let all = cases::all(profile).unwrap();
    let report = runner::run(
        imp,
        &all,
        profile,
        Oracle::Reference,
        &Expected::none(),
        &mut |_, _| {},
    );
    worst(report.results.iter().map(|r| &r.verdict))
}

/// The worst severity `count` generated cases of `profile` (the CI seed) find in `imp`, search
/// toward SAFETY included; `None` when every case passes.
pub fn by_generated(
    imp: &mut dyn Implementation,
    profile: Profile,
    count: usize,
) -> Option<Severity> {
    let run = generated::run(
        imp,
        profile,
        &Plan::new(count, 20_260_828),
        &Expected::none(),
        &mut |_, _| {},
    );
    worst(
        run.results
            .iter()
            .map(|r| &r.verdict)
            .chain(run.counterexamples.iter().map(|c| &c.verdict)),
    )
}

/// The worst severity among `verdicts`; a broken case counts as SAFETY, as a crash is never a
/// pass.
fn worst<'a>(verdicts: impl Iterator<Item = &'a Verdict>) -> Option<Severity> {
    verdicts
        .filter_map(|v| match v {
            Verdict::Broken { .. } => Some(Severity::Safety),
            v => v.worst(),
        })
        .min()
}

/// A plant that changes nothing passes both kinds of case: the harness itself plants nothing.
#[test]
fn the_harness_without_a_mistake_passes() {
    for profile in Profile::ALL {
        let mut none = Planted::reading("nothing", |_| {});
        assert_eq!(by_fixed(&mut none, profile), None, "{profile}");
        assert_eq!(by_generated(&mut none, profile, 300), None, "{profile}");
    }
}

/// A mistake in how a text is written is found at TEXT by each kind of case, and no worse: the
/// harness rates what it plants, not more.
#[test]
fn a_reworded_result_is_found_at_text_by_each_kind_of_case() {
    let mut reworded = Planted::writing("every result text reworded", |_, o| {
        if let Some(t) = &mut o.result.text {
            t.push_str(" (reworded)");
        }
    });
    let profile = Profile::Resilient;
    assert_eq!(by_fixed(&mut reworded, profile), Some(Severity::Text));
    assert_eq!(
        by_generated(&mut reworded, profile, 300),
        Some(Severity::Text)
    );
}

/// One mistake in how a gate carries a session's state; the reference's fold otherwise.
struct Carry {
    /// Whether disposal finds the session listed, given whether it is.
    listed: fn(bool) -> bool,
    /// The count a call leaves, given the count before it, the review the gate made and the
    /// count the reference leaves.
    count: fn(u32, Option<&Review>, u32) -> u32,
    /// Whether a selection of Auto writes the preset and policy (AR-SCOPE-5).
    selects: bool,
}

/// The reference's carried state, nothing changed.
const CARRY: Carry = Carry {
    listed: |listed| listed,
    count: |_, _, n| n,
    selects: true,
};

/// A session decided item by item as [`session::walk`] does, carrying the state with `m`'s
/// mistake.
fn carried(s: &SessionScenario, profile: Profile, m: &Carry) -> Vec<Step> {
    let mut state = State::start(s);
    let listed = (m.listed)(s.session.listed);
    s.calls
        .iter()
        .map(|item| {
            let before = state.clone();
            match item {
                Item::Call(c) => {
                    let (mut o, review) =
                        engine::decide_keeping_review(&state.scenario_for(s, c), profile);
                    if let Some(n) = o.review.consecutive_failures {
                        let n = (m.count)(before.consecutive_failures, review.as_ref(), n);
                        o.review.consecutive_failures = Some(n);
                        state.consecutive_failures = n;
                    }
                    if c.abort.is_lifecycle() {
                        let dispose = Event {
                            event: EventKind::Dispose,
                            reselect: false,
                        };
                        state.apply(&dispose, listed);
                    }
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
                        state.apply(e, listed)
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
const SESSION_CASES: usize = 3000;

/// The harness's own fold, with no mistake, passes both kinds of case: what the plants below
/// are caught for is their mistake alone.
#[test]
fn the_carrying_fold_without_a_mistake_passes() {
    let mut none = Planted::carrying("nothing", |s, p| carried(s, p, &CARRY));
    for profile in Profile::ALL {
        assert_eq!(by_fixed(&mut none, profile), None, "{profile}");
        assert_eq!(by_generated(&mut none, profile, 1000), None, "{profile}");
    }
}

/// A gate that resets the failure count on an allow only, not on a deny (AR-RES-HINT-1): the
/// count and the hint after a deny are wrong. The hint changes only texts (AR-RES-HINT-3), so no
/// body runs that must not: TEXT, from either kind of case.
#[test]
fn a_count_a_deny_does_not_reset_is_found_at_text() {
    let mut plant = Planted::carrying("a deny keeps the failure count", |s, p| {
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
    let profile = Profile::Resilient;
    assert_eq!(by_fixed(&mut plant, profile), Some(Severity::Text));
    assert_eq!(
        by_generated(&mut plant, profile, SESSION_CASES),
        Some(Severity::Text)
    );
}

/// A gate that counts a failure a signal produced (AR-CANCEL-6, AR-RES-HINT-1): TEXT at worst,
/// as above.
#[test]
fn a_count_a_signal_raises_is_found_at_text() {
    let mut plant = Planted::carrying("a signal's failure is counted", |s, p| {
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
    let profile = Profile::Resilient;
    assert_eq!(by_fixed(&mut plant, profile), Some(Severity::Text));
    assert_eq!(
        by_generated(&mut plant, profile, SESSION_CASES),
        Some(Severity::Text)
    );
}

/// A gate that moves every Auto session at disposal, listed or not (AR-DISPOSE-1, AR-DISPOSE-4):
/// an unlisted session is out of Auto once the integration is installed again, so a call the
/// reviewer denies passes through and its body runs: SAFETY, from either kind of case.
#[test]
fn disposal_that_moves_an_unlisted_session_is_found_at_safety() {
    let mut plant = Planted::carrying("disposal moves unlisted sessions too", |s, p| {
        carried(
            s,
            p,
            &Carry {
                listed: |_| true,
                ..CARRY
            },
        )
    });
    for profile in Profile::ALL {
        assert_eq!(
            by_fixed(&mut plant, profile),
            Some(Severity::Safety),
            "{profile}"
        );
        assert_eq!(
            by_generated(&mut plant, profile, SESSION_CASES),
            Some(Severity::Safety),
            "{profile}"
        );
    }
}

/// A gate that ignores a selection of Auto (AR-SCOPE-5): a session under another preset stays
/// out of Auto, so a call the reviewer denies passes through and its body runs: SAFETY.
#[test]
fn an_ignored_selection_of_auto_is_found_at_safety() {
    let mut plant = Planted::carrying("a selection of Auto is ignored", |s, p| {
        carried(
            s,
            p,
            &Carry {
                selects: false,
                ..CARRY
            },
        )
    });
    for profile in Profile::ALL {
        assert_eq!(
            by_fixed(&mut plant, profile),
            Some(Severity::Safety),
            "{profile}"
        );
        assert_eq!(
            by_generated(&mut plant, profile, SESSION_CASES),
            Some(Severity::Safety),
            "{profile}"
        );
    }
}

/// A gate that lets the transport ignore a disposal that began before it, passing it through
/// under the policy its session had rather than the `never` disposal wrote (AR-DISPOSE-3,
/// AR-RES-DISPOSE-1): a later check's question reaches a human who allows it, and the body runs:
/// SAFETY.
#[test]
fn a_transport_that_ignores_disposal_is_found_at_safety() {
    let mut plant = Planted::writing("run_code ignores a disposal begun before it", |s, o| {
        if s.tool.call == CallKind::RunCode && s.abort == AbortPoint::LifecycleBeforeReview {
            let mut undisposed = s.clone();
            undisposed.abort = AbortPoint::None;
            // What the call comes to without the disposal; the review it never made is as the
            // reference records it.
            let u = engine::decide(&undisposed, Profile::Baseline);
            (o.listener, o.approval, o.result, o.trace) =
                (u.listener, u.approval, u.result, u.trace);
        }
    });
    for profile in Profile::ALL {
        assert_eq!(
            by_fixed(&mut plant, profile),
            Some(Severity::Safety),
            "{profile}"
        );
        assert_eq!(
            by_generated(&mut plant, profile, SESSION_CASES),
            Some(Severity::Safety),
            "{profile}"
        );
    }
}
