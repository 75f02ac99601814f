//! The async tokio gate agrees with the pure `decide` (issue: the same clauses, two control flows):
//! on every fixed case and on generated scenarios, with the clock paused so no test sleeps.

use autoreview::async_gate::scripted;
use autoreview::generate::scenario;
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

#[test]
fn the_async_gate_agrees_on_every_fixed_case() {
    for profile in Profile::ALL {
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
    fn the_async_gate_agrees_with_decide(s in scenario()) {
        for profile in Profile::ALL {
            prop_assert_eq!(scripted::decide(&s, profile), decide(&s, profile), "{}", profile);
        }
    }
}
