//! Sessions (spec chapter 12) over drawn session scenarios: each call comes to what it would
//! alone, holding the state the items before it left (AR-SESSION-2), restated here from the
//! outcomes and events themselves rather than from the engine's own state.

use autoreview::engine::decide_session;
use autoreview::generate::direct::Rng;
use autoreview::generate::sessions::session_scenario;
use autoreview::outcome::ItemOutcome;
use autoreview::scenario::session::{EventKind, Item};
use autoreview::scenario::{ApprovalPolicy, Preset, SandboxMode};
use autoreview::{Profile, decide};

/// Draws per profile.
const DRAWS: u64 = 3000;

#[test]
fn each_call_of_a_session_is_that_call_alone_in_the_state_the_session_reached() {
    for profile in Profile::all() {
        for k in 0..DRAWS {
            let s = session_scenario(&mut Rng::for_case(0x5e55, k));
            let outcome = decide_session(&s, profile);
            assert_eq!(outcome.calls.len(), s.calls.len());
            // The state, folded here from the items and the outcomes already seen.
            let mut preset = s.preset;
            let mut override_ = s.policy.override_;
            // The sandbox: the mode the last call left or an event wrote, and the backend's fact.
            let confines = profile.confinement();
            let mut mode = s.session.sandbox.mode;
            let mut backend = s.session.sandbox.confines_reads;
            let mut installed = true;
            let mut count = s.session.consecutive_failures;
            for (i, (item, got)) in s.calls.iter().zip(&outcome.calls).enumerate() {
                match (item, got) {
                    (Item::Call(call), ItemOutcome::Call(got)) => {
                        let mut alone = (**call).clone();
                        alone.preset = if preset == Preset::Auto && !installed {
                            // No gate and no Auto preset once the integration is gone.
                            Preset::DangerFullAccess
                        } else {
                            preset
                        };
                        alone.policy.override_ = override_;
                        alone.policy.default = s.policy.default;
                        alone.session = s.session.clone();
                        alone.session.consecutive_failures = count;
                        alone.session.sandbox.mode = mode;
                        alone.session.sandbox.confines_reads = backend;
                        alone.config = s.config.clone();
                        let want = decide(&alone, profile);
                        assert_eq!(**got, want, "draw {k}, item {i}, {profile}");
                        if let Some(n) = got.review.consecutive_failures {
                            count = n;
                        }
                        if call.agent {
                            mode = got.sandbox.after;
                        }
                        if call.abort.is_lifecycle() {
                            (preset, override_, installed, count, mode) =
                                disposed(preset, override_, s.session.listed, mode, confines);
                        }
                        // A body that ran and selected a preset wrote its bundle, after any
                        // disposal (AR-RESULT-7).
                        if let Some(p) = autoreview::scenario::body::left_to(&call.body)
                            .filter(|_| got.result.executed)
                        {
                            (preset, override_, mode) = (p.preset(), Some(p.policy()), p.mode());
                        }
                    }
                    (Item::Event(e), ItemOutcome::Event(got)) => {
                        assert_eq!(got.event, e.event);
                        match e.event {
                            EventKind::Dispose => {
                                (preset, override_, installed, count, mode) =
                                    disposed(preset, override_, s.session.listed, mode, confines);
                                assert_eq!(got.error.is_some(), e.reselect);
                            }
                            EventKind::Install => {
                                installed = true;
                                count = 0;
                                assert_eq!(got.error, None);
                            }
                            EventKind::SelectAuto if installed => {
                                preset = Preset::Auto;
                                // AR-SCOPE-5, AR-CONFINE-5.
                                mode = match confines && backend {
                                    true => SandboxMode::WorkspaceWrite,
                                    false => SandboxMode::DangerFullAccess,
                                };
                                if override_.unwrap_or(s.policy.default) != ApprovalPolicy::Ask {
                                    override_ = Some(ApprovalPolicy::Ask);
                                }
                                assert_eq!(got.error, None);
                            }
                            EventKind::SelectAuto => assert!(got.error.is_some()),
                            EventKind::Backend => {
                                backend = e.confines_reads.expect("a backend event says it");
                                assert_eq!(got.error, None);
                            }
                        }
                    }
                    _ => panic!("draw {k}, item {i}: a call answered by an event or the reverse"),
                }
            }
        }
    }
}

/// AR-DISPOSE-1, AR-RES-HINT-4, AR-CONFINE-2, AR-CONFINE-5: what disposal leaves of the state,
/// under a profile that confines (`confines`) or not.
fn disposed(
    preset: Preset,
    override_: Option<ApprovalPolicy>,
    listed: bool,
    mode: SandboxMode,
    confines: bool,
) -> (Preset, Option<ApprovalPolicy>, bool, u32, SandboxMode) {
    if !(listed && preset == Preset::Auto) {
        return (preset, override_, false, 0, mode);
    }
    match (confines, mode) {
        (true, SandboxMode::WorkspaceWrite) => (Preset::WorkspaceWrite, override_, false, 0, mode),
        (true, _) => (
            Preset::DangerFullAccess,
            Some(ApprovalPolicy::Never),
            false,
            0,
            mode,
        ),
        (false, _) => (
            Preset::DangerFullAccess,
            Some(ApprovalPolicy::Never),
            false,
            0,
            SandboxMode::DangerFullAccess,
        ),
    }
}

#[test]
fn a_resilient_session_counts_failures_and_shows_the_hint_where_the_count_reaches_the_threshold() {
    let line = r#"{"config":{"failure_hint_after":3},"calls":[
        {"tool":{"name":"pwsh"},"reviewer":{"text":"<tool_call>"}},
        {"tool":{"name":"pwsh"},"reviewer":{"text":"<tool_call>"}},
        {"tool":{"name":"list_agents"},"reviewer":{"text":"<tool_call>"}},
        {"tool":{"name":"pwsh"},"reviewer":{"text":"{\"risk\":\"low\",\"decision\":\"allow\"}"}},
        {"tool":{"name":"pwsh"},"reviewer":{"text":"<tool_call>"}}]}"#
        .replace('\n', "");
    let s = autoreview::scenario::session::SessionScenario::from_json(&line).unwrap();
    let o = decide_session(&s, Profile::RESILIENT);
    let counts: Vec<Option<u32>> = o
        .calls
        .iter()
        .map(|c| match c {
            ItemOutcome::Call(c) => c.review.consecutive_failures,
            ItemOutcome::Event(_) => None,
        })
        .collect();
    // Two requests each (a repair after the unreadable reply), one failure each; the allow resets.
    assert_eq!(counts, [Some(1), Some(2), Some(3), Some(0), Some(1)]);
    let hinted: Vec<bool> = o
        .calls
        .iter()
        .map(|c| match c {
            ItemOutcome::Call(c) => serde_json::to_string(&c.listener)
                .unwrap()
                .contains("3 times in a row on route default/default"),
            ItemOutcome::Event(_) => false,
        })
        .collect();
    assert_eq!(hinted, [false, false, true, false, false]);
    // The baseline keeps no count and shows no hint.
    let b = decide_session(&s, Profile::BASELINE);
    for c in &b.calls {
        let ItemOutcome::Call(c) = c else {
            unreachable!()
        };
        assert_eq!(c.review.consecutive_failures, None);
        assert!(!serde_json::to_string(c).unwrap().contains("in a row"));
    }
}

#[test]
fn sessions_no_runtime_produces_are_refused_with_the_rule_and_the_item() {
    use autoreview::scenario::session::SessionScenario;
    let refused = |line: &str| SessionScenario::from_json(line).unwrap_err().to_string();
    let call = r#"{"tool":{"name":"pwsh"},"reviewer":{"text":"{}"}}"#;
    let hang = r#"{"tool":{"name":"pwsh"},"reviewer":{"hang":true}}"#;
    let cases = [
        (
            r#"{"calls":[{"event":"dispose"},{"event":"dispose"}]}"#.to_owned(),
            "calls[1].event: unrealizable (RZ-5)",
        ),
        (
            r#"{"calls":[{"event":"dispose"},{"tool":{"name":"x"},"reviewer":{"text":"{}"},"abort":"lifecycle-after-review"}]}"#.to_owned(),
            "calls[1].abort: unrealizable (RZ-5)",
        ),
        (
            format!(r#"{{"calls":[{call},{{"event":"install"}}]}}"#),
            "calls[1].event: unrealizable (RZ-6)",
        ),
        (
            format!(r#"{{"calls":[{hang},{call}]}}"#),
            "calls[0].reviewer: unrealizable (RZ-7)",
        ),
        (
            r#"{"calls":[{"tool":{"name":"x"},"policy":"never","reviewer":{"text":"{}"}}]}"#.to_owned(),
            "calls[0].policy: `policy` belongs to the session",
        ),
        (
            r#"{"calls":[]}"#.to_owned(),
            "calls: a session holds at least one",
        ),
        (
            r#"{"calls":[{"event":"select-auto","reselect":true}]}"#.to_owned(),
            "calls[0].reselect: only a dispose event",
        ),
    ];
    for (line, want) in cases {
        let got = refused(&line);
        assert!(
            got.starts_with(want),
            "{line}\n  gave {got}\n  wanted {want}"
        );
    }
    // The last item may stay pending, and a caller's signal lets the session go on.
    assert!(SessionScenario::from_json(&format!(r#"{{"calls":[{call},{hang}]}}"#)).is_ok());
    let ended =
        r#"{"tool":{"name":"pwsh"},"reviewer":{"hang":true},"abort":"caller-during-review"}"#;
    assert!(SessionScenario::from_json(&format!(r#"{{"calls":[{ended},{call}]}}"#)).is_ok());
}

#[test]
fn what_the_generator_draws_for_an_implementation_is_what_it_observes() {
    use autoreview::capability::{Capabilities, Need, Observable};
    use autoreview::scenario::session::Input;
    let sessions = Need::Observable(Observable::Sessions);
    for with_sessions in [false, true] {
        for requests in [false, true] {
            for session_log in [false, true] {
                let observes = [
                    (with_sessions, sessions),
                    (requests, Need::Observable(Observable::Requests)),
                    (session_log, Need::Observable(Observable::SessionLog)),
                ]
                .into_iter()
                .fold(
                    Capabilities::PROTOCOL_1,
                    |has, (on, n)| {
                        if on { has.with(n) } else { has }
                    },
                );
                for k in 0..3000 {
                    let one = observes.restrict(Input::One(Box::new(
                        autoreview::generate::direct::scenario(&mut Rng::for_case(21, k)),
                    )));
                    let needs = Capabilities::needed_by(&one);
                    assert_eq!(observes.missing(needs), [], "{observes:?}, draw {k}");
                    let s = observes
                        .restrict(Input::Session(session_scenario(&mut Rng::for_case(22, k))));
                    // Drawn only for those that observe sessions.
                    let needs = Capabilities::needed_by(&s).without(sessions);
                    assert_eq!(observes.missing(needs), [], "{observes:?}, session {k}");
                }
            }
        }
    }
}
