//! Session scenarios for generated checking (AR-SESSION-1..3): several drawn calls in one session
//! with lifecycle events between them, and the ways to make one simpler while shrinking (drop an
//! item, put a session member back to its default, simplify one call).

use super::direct::{self, Rng};
use super::{EVENTS, PRESETS, SESSION_LENGTHS};
use crate::scenario::session::{Event, EventKind, Item, SessionScenario};
use crate::scenario::{AbortPoint, Config, Policy, Preset, Scenario, Session};

/// Draws one session scenario: the session's members, then 2 to 6 items, mostly calls. Every
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
                    EventKind::SelectAuto => EventKind::SelectAuto,
                };
                let reselect = event == EventKind::Dispose && r.chance(1, 4);
                match event {
                    EventKind::Dispose => installed = false,
                    EventKind::Install => installed = true,
                    EventKind::SelectAuto => {}
                }
                Item::Event(Event { event, reselect })
            }
        };
        calls.push(item);
    }
    SessionScenario {
        id: None,
        session,
        config,
        preset,
        policy,
        calls,
    }
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
            assert!((2..=6).contains(&s.calls.len()));
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
