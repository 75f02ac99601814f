//! A fourth profile, added as a file and nothing else: both example gates, which decide by the
//! rules the runner's hello tells them and never by a profile's name, pass it with every fixed case
//! that applies to it and generated ones. No Rust, kit or CI edit stands behind it.

use crate::common::process::autoreview;
use serde_json::{Value, json};

/// A shipped profile's file, renamed and without its decision table (a profile of one's own has
/// none), with `change` made.
fn recombined(from: &str, name: &str, change: impl FnOnce(&mut Value)) -> Value {
    let text = std::fs::read_to_string(format!(
        "{}/spec/profiles/{from}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut p: Value = serde_json::from_str(&text).unwrap();
    p["name"] = json!(name);
    p.as_object_mut().unwrap().remove("decision_table");
    change(&mut p);
    p
}

#[test]
fn both_example_gates_pass_a_profile_that_recombines_rules() {
    let dir = crate::shared_dir::fresh("external-profile-file");
    let profiles = [
        // The resilient profile whose reviewer failures are denials.
        recombined("resilient", "resilient-deny", |p| {
            p["rules"]["failures"] = json!("deny");
            for kept in ["AR-DECIDE-1", "AR-DECIDE-2", "AR-DECIDE-6"] {
                p["replaces"].as_object_mut().unwrap().remove(kept);
            }
            p["without"] = json!({
                "AR-RES-FAIL-1": "denials", "AR-RES-FAIL-2": "denials", "AR-RES-FAIL-3": "denials",
                "AR-RES-DECIDE-1": "AR-DECIDE-2 decides", "AR-RES-ASK-1": "denials"
            });
        }),
        // The baseline that asks its reviewer again: one repair, one retry.
        recombined("baseline", "baseline-repair", |p| {
            p["rules"]["asks_again"] = json!("repair-and-retry");
            // The clauses that rule rests on (autoreview::profile::RULE_CLAUSES).
            for id in ["AR-RES-RETRY-1", "AR-RES-RETRY-2", "AR-RES-RETRY-3"] {
                p["clauses"].as_array_mut().unwrap().push(json!(id));
            }
            p["config"] = json!(["repair_attempts", "transport_retries"]);
        }),
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
            let fixed: usize = stdout
                .split(" fixed cases")
                .next()
                .and_then(|s| s.rsplit(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{stdout}"));
            assert!(fixed > 100, "{name}, {gate}: {fixed} fixed cases");
        }
    }
}
