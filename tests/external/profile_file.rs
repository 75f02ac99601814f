//! A fourth profile, added as a file and nothing else: both example gates, which decide by the
//! rules the runner's hello tells them and never by a profile's name, pass it with every fixed case
//! that applies to it and generated ones. No Rust, kit or CI edit stands behind it.

use crate::common::process::autoreview;
use crate::common::profiles::{fixed_cases, recombined};
use autoreview::Profile;
use serde_json::json;

#[test]
fn both_example_gates_pass_a_profile_that_recombines_rules() {
    let dir = crate::shared_dir::fresh("external-profile-file");
    // Each written from a shipped profile with one rule changed and its clauses with it.
    let mut baseline_repair = recombined(
        Profile::BASELINE,
        "baseline-repair",
        "asks_again",
        json!("repair-and-retry"),
    );
    // The baseline that asks its reviewer again reads the budgets: one repair, one retry.
    baseline_repair["config"] = json!(["repair_attempts", "transport_retries"]);
    let profiles = [
        // The resilient profile whose reviewer failures are denials.
        recombined(
            Profile::RESILIENT,
            "resilient-deny",
            "failures",
            json!("deny"),
        ),
        baseline_repair,
    ];
    let root = env!("CARGO_MANIFEST_DIR");
    // Each runtime is required: a missing one fails here, naming how to install it.
    crate::tools::node();
    crate::tools::python3();
    let gates: [(&str, Vec<String>); 2] = [
        (
            "node",
            vec![
                "node".to_owned(),
                format!("{root}/adapters/node/skeleton.js"),
            ],
        ),
        (
            "python",
            vec![
                "python3".to_owned(),
                format!("{root}/adapters/python/example_adapter.py"),
            ],
        ),
    ];
    for profile in &profiles {
        let name = profile["name"].as_str().unwrap();
        let file = dir.join(format!("{name}.json"));
        std::fs::write(&file, serde_json::to_string_pretty(profile).unwrap()).unwrap();
        let file = file.display().to_string();
        for (gate, command) in &gates {
            let mut args = vec![
                "check",
                "--profile-file",
                &file,
                "--generated",
                "1000",
                "--seed",
                "11",
                "--",
            ];
            args.extend(command.iter().map(String::as_str));
            let out = autoreview(&args, "");
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{name}, {gate}:\n{stdout}\n{stderr}");
            let last = stdout.lines().last().unwrap_or_default();
            assert!(
                last.starts_with("PASS — ") && last.contains(" 0 failed"),
                "{name}, {gate}: {last}"
            );
            let fixed = fixed_cases(&stdout);
            assert!(fixed > 100, "{name}, {gate}: {fixed} fixed cases");
        }
    }
}
