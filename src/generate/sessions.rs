//! Session scenarios for generated checking (AR-SESSION-1..3): several drawn calls in one session
//! with lifecycle events between them, and the ways to make one simpler while shrinking (drop an
//! item, put a session member back to its default, simplify one call).

use super::direct::{self, Rng};
use super::{BARE_OBJECTS, EVENTS, NOISE, PRESETS, SESSION_LENGTHS, SESSION_PLANS};
use crate::scenario::session::{Event, EventKind, Item, SessionScenario};
use crate::scenario::{
    AbortPoint, ApprovalAnswer, ApprovalPolicy, Attempt, CallIdOf, CallKind, Config, Downstream,
    FailedFinish, FailedFinishKind, HangFlag, LogFact, Policy, Preset, Reviewer, Scenario,
    SchemaView, Session, Step,
};

/// Draws one session scenario: the session's members, then 2 to 6 items, mostly calls, and one
/// time in four a backend event among them. Every
/// draw is realizable: events and lifecycle abort points follow whether the integration is
/// installed (RZ-5, RZ-6).
pub fn session_scenario(r: &mut Rng) -> SessionScenario {
    let first = direct::scenario(r);
    let (session, config, policy) = (first.session.clone(), first.config.clone(), first.policy);
    let preset = r.weighted(&PRESETS);
    let n = r.weighted(&SESSION_LENGTHS);
    let mut installed = true;
    let mut calls = Vec::with_capacity(n);
    for i in 0..n {
        let kind = r.weighted(&EVENTS);
        let item = match kind {
            None => {
                let mut call = if i == 0 {
                    first.clone()
                } else {
                    direct::scenario(r)
                };
                if !installed && call.abort.is_lifecycle() {
                    call.abort = AbortPoint::None;
                }
                // RZ-7: a call that may never settle ends its session.
                if i + 1 < n && call.may_stay_pending() {
                    call.abort = AbortPoint::CallerDuringReview;
                }
                if call.abort.is_lifecycle() {
                    installed = false;
                }
                Item::Call(Box::new(as_item(call)))
            }
            Some(kind) => {
                let event = match kind {
                    EventKind::Dispose | EventKind::Install if installed => EventKind::Dispose,
                    EventKind::Dispose | EventKind::Install => EventKind::Install,
                    other => other,
                };
                let reselect = event == EventKind::Dispose && r.chance(1, 4);
                match event {
                    EventKind::Dispose => installed = false,
                    EventKind::Install => installed = true,
                    EventKind::SelectAuto | EventKind::Backend => {}
                }
                Item::Event(Event {
                    event,
                    reselect,
                    confines_reads: None,
                })
            }
        };
        calls.push(item);
    }
    let mut session = session;
    // RZ-10: a mode of its own only in Auto.
    if preset != Preset::Auto {
        session.sandbox.mode = Default::default();
    }
    let drawn = SessionScenario {
        id: None,
        session,
        config,
        preset,
        policy,
        calls,
    };
    // Drawn last, so that the session drawn above stays as it was when no plan is drawn.
    let drawn = match r.weighted(&SESSION_PLANS) {
        Some(plan) => planned(r, &drawn, plan).realizable().unwrap_or(drawn),
        None => drawn,
    };
    // From streams beside the session's, so that every other choice stays as it was.
    let drawn = with_backend(&mut r.beside(4), drawn);
    naming_finished_calls(&mut r.beside(6), drawn)
}

/// `s` with, one time in two, a request a later call's body raises naming the call before it,
/// which has finished (AR-APPROVAL-7, RZ-11: only after an earlier call); and each body keeping
/// only the steps its call, as the session's plan left it, can take (RZ-12). A drawn session's
/// bodies raise requests and select no preset: a selection would change what every later item
/// meets, which the session's own draws (its events and plans) decide; the fixed cases hold a
/// body's selection carried to later calls (BA-11, BA-12).
fn naming_finished_calls(r: &mut Rng, mut s: SessionScenario) -> SessionScenario {
    let mut earlier = false;
    for item in &mut s.calls {
        let Item::Call(call) = item else { continue };
        crate::scenario::realizable::realize_body(call);
        call.body.retain(|step| matches!(step, Step::Raise(_)));
        if earlier
            && r.chance(1, 2)
            && let Some(Step::Raise(raise)) =
                call.body.iter_mut().find(|s| matches!(s, Step::Raise(_)))
        {
            raise.call_id = CallIdOf::Finished;
        }
        earlier = true;
    }
    s
}

/// `s` with, one time in four, its backend starting or stopping to confine reads before one of
/// its items (AR-CONFINE-1), where the session stays realizable.
fn with_backend(r: &mut Rng, s: SessionScenario) -> SessionScenario {
    if !r.chance(1, 4) {
        return s;
    }
    let at = r.below(s.calls.len() as u64) as usize;
    let mut t = s.clone();
    t.calls.insert(
        at,
        Item::Event(Event {
            confines_reads: Some(r.chance(1, 2)),
            ..Event::of(EventKind::Backend)
        }),
    );
    t.realizable().unwrap_or(s)
}

/// A state a session carries that a drawn session seldom reaches by chance (chapter 12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Failing calls raise the count (AR-RES-HINT-1) up to the hint (AR-SESSION-3); a call the
    /// gate does not review or a failure a signal produced keeps it; an allow or a deny resets it.
    Count,
    /// The integration is disposed of (an event or a lifecycle abort) while the session is in
    /// Auto, listed or not, then installed again, and a call follows (AR-DISPOSE-1, AR-DISPOSE-4,
    /// AR-INSTALL-1, AR-RES-HINT-4).
    Disposal,
    /// Auto is selected in a session under another preset or under `never`, and a call follows
    /// (AR-SCOPE-5).
    Selection,
    /// A human allows one call of a tool once, and is asked about the same tool again later in
    /// the session and answers otherwise (AR-APPROVAL-6: no grant is remembered).
    Grant,
}

/// `drawn` rewritten to carry `plan`'s state: its session members kept where the state allows,
/// its calls drawn afresh and set to what the state needs.
fn planned(r: &mut Rng, drawn: &SessionScenario, plan: Plan) -> SessionScenario {
    let mut s = drawn.clone();
    // A session whose calls the gate reviews: in Auto, with a route and a working directory.
    s.preset = Preset::Auto;
    if s.session.route.provider.is_empty() || s.session.route.model.is_empty() {
        s.session.route = Session::default().route;
    }
    s.session.working_directory = true;
    let mut items = Vec::new();
    match plan {
        Plan::Count => {
            for _ in 0..r.range(1, 4) {
                items.push(failing(r));
            }
            match r.below(3) {
                0 => items.push(unreviewed(r)),
                1 => items.push(signalled(r)),
                _ => {}
            }
            let mut decided = reviewed(drawn_call(r));
            decided.reviewer = Reviewer::One(Attempt::Text {
                text: r.pick(&BARE_OBJECTS).to_owned(),
                delay_ms: 0,
            });
            items.push(decided);
            if r.chance(1, 2) {
                items.push(failing(r));
            }
        }
        Plan::Disposal => {
            s.session.listed = r.chance(1, 2);
            for _ in 0..r.below(2) {
                items.push(failing(r));
            }
            let mut rest = Vec::new();
            if r.chance(1, 3) {
                let mut c = failing(r);
                c.abort = r.pick(&[
                    AbortPoint::LifecycleBeforeReview,
                    AbortPoint::LifecycleAfterReview,
                    AbortPoint::LifecycleDuringDownstream,
                ]);
                items.push(c);
            } else {
                rest.push(Item::Event(Event {
                    event: EventKind::Dispose,
                    reselect: r.chance(1, 4),
                    confines_reads: None,
                }));
            }
            if r.chance(1, 3) {
                rest.push(Item::Call(Box::new(settling(drawn_call(r)))));
            }
            rest.push(Item::Event(Event::of(EventKind::Install)));
            if r.chance(1, 2) {
                rest.push(Item::Event(Event::of(EventKind::SelectAuto)));
            }
            rest.push(Item::Call(Box::new(reviewed(drawn_call(r)))));
            return SessionScenario {
                calls: items
                    .into_iter()
                    .map(|c| Item::Call(Box::new(c)))
                    .chain(rest)
                    .collect(),
                ..s
            };
        }
        Plan::Selection => {
            if r.chance(1, 2) {
                s.preset = r.pick(&PRESETS[1..]).1;
            } else {
                s.policy.override_ = Some(ApprovalPolicy::Never);
            }
            let mut calls = Vec::new();
            if r.chance(1, 3) {
                calls.push(Item::Call(Box::new(settling(drawn_call(r)))));
            }
            calls.push(Item::Event(Event::of(EventKind::SelectAuto)));
            let next = drawn_call(r);
            let next = if r.chance(1, 2) {
                reviewed(next)
            } else {
                settling(next)
            };
            calls.push(Item::Call(Box::new(next)));
            return SessionScenario { calls, ..s };
        }
        Plan::Grant => {
            // Asked in every profile: the reviewer denies, downstream allows, under `ask`
            // (AR-DECIDE-5). The first answer grants; the same tool is asked about again.
            s.policy = Policy::default();
            let first = asked(drawn_call(r), ApprovalAnswer::AllowedOnce);
            let mut again = asked(drawn_call(r), r.pick(&OTHER_ANSWERS));
            again.tool = first.tool.clone();
            let mut calls = vec![Item::Call(Box::new(first))];
            if r.chance(1, 2) {
                calls.push(Item::Call(Box::new(settling(drawn_call(r)))));
            }
            calls.push(Item::Call(Box::new(again)));
            return SessionScenario { calls, ..s };
        }
    }
    s.calls = items.into_iter().map(|c| Item::Call(Box::new(c))).collect();
    s
}

/// The answers other than a grant a human gives when asked again (AR-APPROVAL-2).
const OTHER_ANSWERS: [ApprovalAnswer; 3] = [
    ApprovalAnswer::Rejected,
    ApprovalAnswer::Cancelled,
    ApprovalAnswer::Unavailable,
];

/// `c` reviewed and asked about: the reviewer denies, downstream allows (AR-DECIDE-5), and the
/// human answers `answer`.
fn asked(c: Scenario, answer: ApprovalAnswer) -> Scenario {
    let mut c = reviewed(c);
    c.reviewer = Reviewer::One(Attempt::Text {
        text: r#"{"risk":"high","decision":"deny","reason":"asks first"}"#.into(),
        delay_ms: 0,
    });
    c.downstream = Downstream::Allow;
    c.approval = answer;
    c
}

/// A call drawn as any generated call is, as a session item.
fn drawn_call(r: &mut Rng) -> Scenario {
    as_item(direct::scenario(r))
}

/// `c` as a call the gate reviews in an Auto session: a tool call with an agent, a consistent
/// log and its schema, no signal.
fn reviewed(mut c: Scenario) -> Scenario {
    if c.tool.call == CallKind::RunCode {
        c.tool.call = CallKind::Native;
    }
    c.agent = true;
    c.log = LogFact::Consistent;
    c.schema = SchemaView::PRESENT;
    c.abort = AbortPoint::None;
    as_item(crate::scenario::realizable::realize(c))
}

/// `c` reviewed, with a reviewer that fails every attempt.
fn failing(r: &mut Rng) -> Scenario {
    let c = drawn_call(r);
    let mut c = reviewed(c);
    c.reviewer = Reviewer::One(match r.below(3) {
        0 => Attempt::Throw {
            throw: "x".into(),
            delay_ms: 0,
        },
        1 => Attempt::Text {
            text: r.pick(&NOISE).to_owned(),
            delay_ms: 0,
        },
        _ => Attempt::Finish {
            finish: FailedFinish {
                kind: FailedFinishKind::Error,
                code: "QUOTA_EXCEEDED".into(),
                message: "quota exceeded".into(),
            },
            delay_ms: 0,
        },
    });
    c
}

/// `c` as a call the gate does not review: the caller aborted before dispatch, the transport, or
/// a call without an agent (AR-CANCEL-1, AR-SCOPE-2, AR-SCOPE-1).
fn unreviewed(r: &mut Rng) -> Scenario {
    let c = drawn_call(r);
    let mut c = settling(c);
    match r.below(3) {
        0 => c.abort = AbortPoint::CallerBeforeDispatch,
        1 => c.tool.call = CallKind::RunCode,
        _ => c.agent = false,
    }
    as_item(crate::scenario::realizable::realize(c))
}

/// `c` reviewed, its first request ended by the caller's signal: a request that hangs, or an
/// `aborted` finish that settles after the signal (AR-CANCEL-6).
fn signalled(r: &mut Rng) -> Scenario {
    let c = drawn_call(r);
    let mut c = reviewed(c);
    c.abort = AbortPoint::CallerDuringReview;
    c.reviewer = Reviewer::One(if r.chance(1, 2) {
        Attempt::Hang { hang: HangFlag }
    } else {
        Attempt::Finish {
            finish: FailedFinish {
                kind: FailedFinishKind::Aborted,
                code: "ABORTED".into(),
                message: "This operation was aborted".into(),
            },
            delay_ms: 0,
        }
    });
    c
}

/// `c` as a call that is not the session's last and does not dispose of the integration: one
/// that settles, with no lifecycle abort (RZ-5, RZ-7).
fn settling(mut c: Scenario) -> Scenario {
    if c.abort.is_lifecycle() {
        c.abort = AbortPoint::None;
    }
    if c.may_stay_pending() {
        c.abort = AbortPoint::CallerDuringReview;
    }
    c
}

/// A call as a session item: the members that belong to the session at their defaults.
fn as_item(mut call: Scenario) -> Scenario {
    call.session = Session::default();
    call.config = Config::default();
    call.preset = Preset::default();
    call.policy = Policy::default();
    call.id = None;
    call
}

/// Simpler sessions than `s`, simplest first: without one of its items (a session keeps at least
/// one), with one session member back at its default, with an event that does not re-select, or
/// with one call simplified by `simpler_call`. Only realizable candidates are returned.
pub fn simpler_session(
    s: &SessionScenario,
    simpler_call: &dyn Fn(&Scenario) -> Vec<Scenario>,
) -> Vec<SessionScenario> {
    let mut out = Vec::new();
    if s.calls.len() > 1 {
        for i in 0..s.calls.len() {
            let mut t = s.clone();
            t.calls.remove(i);
            out.push(t);
        }
    }
    let defaults = SessionScenario {
        id: s.id.clone(),
        session: Session::default(),
        config: Config::default(),
        preset: Preset::default(),
        policy: Policy::default(),
        calls: s.calls.clone(),
    };
    if s.session != defaults.session {
        out.push(SessionScenario {
            session: Session::default(),
            ..s.clone()
        });
    }
    if s.config != defaults.config {
        out.push(SessionScenario {
            config: Config::default(),
            ..s.clone()
        });
    }
    if s.preset != defaults.preset {
        out.push(SessionScenario {
            preset: Preset::default(),
            ..s.clone()
        });
    }
    if s.policy != defaults.policy {
        out.push(SessionScenario {
            policy: Policy::default(),
            ..s.clone()
        });
    }
    // An event that re-selects Auto after a disposal, as a plain disposal.
    for (i, item) in s.calls.iter().enumerate() {
        if let Item::Event(e) = item
            && e.reselect
        {
            let mut t = s.clone();
            t.calls[i] = Item::Event(Event {
                reselect: false,
                ..*e
            });
            out.push(t);
        }
    }
    for (i, item) in s.calls.iter().enumerate() {
        if let Item::Call(call) = item {
            for simpler in simpler_call(call) {
                let mut t = s.clone();
                t.calls[i] = Item::Call(Box::new(as_item(simpler)));
                out.push(t);
            }
        }
    }
    out.into_iter()
        .filter_map(|t| t.realizable().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_sessions_are_realizable_and_have_their_members_once() {
        for k in 0..2000 {
            let s = session_scenario(&mut Rng::for_case(11, k));
            // 2 to 6 items drawn, and now and then a backend event among them.
            assert!((2..=7).contains(&s.calls.len()));
            let s = s.realizable().expect("a drawn session is realizable");
            for item in &s.calls {
                if let Item::Call(c) = item {
                    assert_eq!(c.session, Session::default());
                    assert_eq!(c.config, Config::default());
                }
            }
            // What is written can be read back as the same session.
            let text = serde_json::to_string(&s).unwrap();
            let back = SessionScenario::from_json(&text).expect("reads back");
            assert_eq!(back, s);
        }
    }

    #[test]
    fn shrinking_drops_items_first_and_keeps_sessions_realizable() {
        let mut r = Rng::for_case(3, 1);
        let s = loop {
            let s = session_scenario(&mut r);
            if s.calls.len() >= 3 {
                break s;
            }
        };
        let candidates = simpler_session(&s, &|_| Vec::new());
        assert!(candidates.len() >= s.calls.len().saturating_sub(1));
        assert!(
            candidates
                .iter()
                .take(2)
                .all(|c| c.calls.len() == s.calls.len() - 1)
        );
        // A disposal dropped before a call with a lifecycle abort or an install would leave an
        // unrealizable session; such candidates are not offered.
        for c in &candidates {
            assert!(c.clone().realizable().is_ok());
        }
    }
}
