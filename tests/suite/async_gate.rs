//! The async tokio gate agrees with the pure `decide` (issue: the same clauses, two control flows):
//! on every fixed case and on generated scenarios, with the clock paused so no test sleeps.

use autoreview::async_gate::scripted;
use autoreview::generate::{Recorded, scenario_recorded};
use autoreview::scenario::Scenario;
use autoreview::{Profile, cases, decide};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/async_gate.txt",
        ))),
        ..Config::default()
    }
}

/// The scenarios the async gate once disagreed on, as proptest shrank them, each with the seed
/// `proptest-regressions/async_gate.txt` recorded for it: the proptest strategies the generator
/// had before it drew from its seeded stream alone drew them from those seeds, which now draw
/// other scenarios; the strategy gives these for their seeds instead, so replaying the file runs
/// them again.
fn recorded() -> Recorded<Scenario> {
    let recorded = [
        (
            "09f7a7b57d3e7176e15d1a229ffc4ef41d19ea6fe6b7b41f8b24d2d4d34e8293",
            r#"{"tool":{"name":"pwsh"},"session":{"route":{"provider":"","model":"qfmodel"}},
            "reviewer":{"text":"{\"risk\":\"low\",\"decision\":\"allow\"}"}}"#,
        ),
        (
            "bce7898fdf965176bfbcfcf2fc5381c642779929e981f37cfa46cfe0b9acb555",
            r#"{"tool":{"name":"pwsh"},
            "reviewer":{"text":"<tool_call>{\"name\": \"list_agents\", \"arguments\": {}}</tool_call>"}}"#,
        ),
        (
            "fe8a7edbc7b7dc0f9058f3b6daf9942df53ba6537152f48a31e027277ddd0720",
            r#"{"tool":{"name":"pwsh"},"abort":"caller-during-review",
            "reviewer":{"finish":{"kind":"aborted","code":"TRANSPORT","message":"Connection error"}}}"#,
        ),
        (
            // A disposal during downstream that a failed review never reached still moves the
            // session: its mode is read once it happened.
            "04d61d639da414107d049af9d18e103da4469f5ca6ec604ce91f33f810ca80f0",
            r#"{"tool":{"name":"pwsh"},"abort":"lifecycle-during-downstream",
            "session":{"sandbox":{"mode":"workspace-write","confines_reads":true}},
            "reviewer":{"text":""}}"#,
        ),
    ];
    scenario_recorded(&recorded)
}

/// Replaying the regression file runs each recorded scenario, and nothing else.
#[test]
fn replaying_the_regression_file_runs_the_recorded_scenarios() {
    let mut seen = crate::properties::replayed(&recorded(), config());
    seen.sort_by_key(|s| serde_json::to_string(s).unwrap());
    let mut expected = recorded().values();
    expected.sort_by_key(|s| serde_json::to_string(s).unwrap());
    assert_eq!(seen.len(), 4);
    assert_eq!(seen, expected);
}

#[test]
fn the_async_gate_agrees_on_every_fixed_case() {
    for profile in Profile::all() {
        // The async gate decides single calls; session cases are not applicable to it.
        for case in cases::all(profile).unwrap() {
            let Some(scenario) = case.call() else {
                continue;
            };
            assert_eq!(
                scripted::decide(scenario, profile),
                decide(scenario, profile),
                "{} under {profile}",
                case.id
            );
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_async_gate_agrees_with_decide(s in recorded()) {
        for profile in Profile::all() {
            prop_assert_eq!(scripted::decide(&s, profile), decide(&s, profile), "{}", profile);
        }
    }
}

/// A reviewer whose every request throws.
struct Throwing;

impl autoreview::async_gate::ReviewerClient for Throwing {
    fn request(
        &self,
        _request: autoreview::async_gate::ReviewRequest,
    ) -> autoreview::async_gate::BoxFuture<'_, autoreview::async_gate::ReviewerResponse> {
        Box::pin(async { autoreview::async_gate::ReviewerResponse::Threw("quota".into()) })
    }
}

/// Whoever answers approvals: always rejects.
struct Rejecting;

impl autoreview::async_gate::Answerer for Rejecting {
    fn turn_open(&self) -> bool {
        true
    }
    fn answer(
        &self,
        _request: &autoreview::async_gate::ApprovalRequest,
    ) -> autoreview::async_gate::BoxFuture<'_, autoreview::scenario::ApprovalAnswer> {
        Box::pin(async { autoreview::scenario::ApprovalAnswer::Rejected })
    }
}

struct NoBody;

impl autoreview::async_gate::Body for NoBody {
    fn run<'a>(
        &'a self,
        _exec: &'a autoreview::async_gate::Exec,
    ) -> autoreview::async_gate::BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

#[test]
fn the_gate_counts_failures_per_session_and_a_gate_installed_again_starts_at_zero() {
    use autoreview::async_gate::{
        AbortController, AutoReview, Exec, ReferenceApproval, Session, ToolRuntime,
    };
    use autoreview::scenario::{Config, Policy, Preset, Route, SchemaView};
    use std::sync::{Arc, Mutex};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    rt.block_on(async {
        let counts = Arc::new(Mutex::new(Vec::new()));
        let install = || {
            let seen = counts.clone();
            Arc::new(AutoReview::new(
                Profile::RESILIENT,
                Config::default(),
                Throwing,
                AbortController::new(),
                move |r| seen.lock().unwrap().push(r.record.consecutive_failures),
            ))
        };
        let mut one = Session::new(Preset::Auto, Policy::default(), Route::default());
        one.id = "a".into();
        let mut two = Session::new(Preset::Auto, Policy::default(), Route::default());
        two.id = "b".into();
        let (one, two) = (Arc::new(one), Arc::new(two));
        let call = |session: &Arc<Session>| Exec {
            name: "pwsh".into(),
            call: Default::default(),
            session: Some(session.clone()),
            schema: SchemaView::PRESENT,
            log: Default::default(),
            caller: AbortController::new().signal(),
            call_id: "call-1".into(),
        };
        let runtime = |gate: Arc<AutoReview<Throwing>>| ToolRuntime {
            listeners: vec![gate],
            approval: Arc::new(ReferenceApproval::new(Rejecting)),
            body: Arc::new(NoBody),
            post_execute: Vec::new(),
        };
        let first = runtime(install());
        for s in [&one, &one, &two, &one] {
            first.execute(&call(s)).await;
        }
        // The same gate, installed again: a new integration counts from 0 (AR-RES-HINT-4).
        let again = runtime(install());
        again.execute(&call(&one)).await;
        assert_eq!(
            *counts.lock().unwrap(),
            [Some(1), Some(2), Some(1), Some(3), Some(1)]
        );
    });
}
