//! A profile of the user's own (`--profile-file`): a file that recombines the rules, clauses and
//! configuration of the shipped ones, loaded at run time with the shipped files' validation, runs
//! under `decide`, `check` and `serve` with no change to the suite.

use crate::common::process::autoreview;
use crate::common::profiles::{fixed_cases, recombined};
use serde_json::{Value, json};

/// A fourth profile, written as a file only: the resilient profile whose reviewer failures are
/// denials (`failures: deny`), with the clauses that rule brings instead of the ones it drops.
fn resilient_that_denies(name: &str) -> Value {
    recombined(
        autoreview::Profile::RESILIENT,
        name,
        "failures",
        json!("deny"),
    )
}

/// `check` of the profile in `file` against the async gate: its fixed cases and 200 generated.
fn against_the_async_gate(file: &str, seed: u64) -> std::process::Output {
    let seed = seed.to_string();
    autoreview(
        &[
            "check",
            "--profile-file",
            file,
            "--implementation",
            "async-gate",
            "--generated",
            "200",
            "--seed",
            &seed,
        ],
        "",
    )
}

fn write(dir: &std::path::Path, file: &str, profile: &Value) -> String {
    let path = dir.join(file);
    std::fs::write(&path, serde_json::to_string_pretty(profile).unwrap()).unwrap();
    path.display().to_string()
}

/// A transport failure under `ask`: the resilient profile asks the human, the recombined one
/// denies, as its `failures` rule says.
#[test]
fn a_recombined_profile_decides_by_its_rules() {
    let dir = crate::shared_dir::fresh("profile-file-decide");
    let file = write(&dir, "p.json", &resilient_that_denies("resilient-deny"));
    let line = r#"{"tool":{"name":"pwsh"},"policy":"ask","reviewer":{"finish":{"kind":"error","code":"TRANSPORT","message":"down"}}}"#;
    let kind = |args: &[&str]| {
        let out = autoreview(args, &format!("{line}\n"));
        assert!(out.status.success(), "{args:?}: {out:?}");
        let o: Value = serde_json::from_slice(&out.stdout).unwrap();
        o["listener"]["kind"].as_str().unwrap().to_owned()
    };
    assert_eq!(kind(&["decide", "--profile", "resilient"]), "ask");
    assert_eq!(kind(&["decide", "--profile-file", &file]), "deny");
    // It counts failures (AR-RES-HINT-1), so the failure denial carries the hint once due
    // (AR-RES-HINT-2), though the shipped rules decide the denial.
    let line = r#"{"tool":{"name":"pwsh"},"policy":"ask","config":{"failure_hint_after":1},"reviewer":{"finish":{"kind":"error","code":"TRANSPORT","message":"down"}}}"#;
    let out = autoreview(&["decide", "--profile-file", &file], &format!("{line}\n"));
    let o: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(o["listener"]["kind"], "deny", "{o}");
    assert_eq!(o["review"]["consecutive_failures"], 1, "{o}");
    let reason = o["listener"]["reason"].as_str().unwrap();
    assert!(
        reason.ends_with("\nAuto review has failed 1 times in a row on route default/default; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write."),
        "{reason}"
    );
}

/// `check --profile-file` runs the fixed cases whose clauses the profile holds and generated ones
/// against the async gate and against the engine served over the protocol, saying plainly what a
/// profile loaded from a file does not get; the engine is not checked against expectations
/// written for other profiles.
#[test]
fn check_runs_a_recombined_profile_against_the_async_gate_and_an_adapter() {
    let dir = crate::shared_dir::fresh("profile-file-check");
    let file = write(&dir, "p.json", &resilient_that_denies("resilient-deny"));
    let out = against_the_async_gate(&file, 3);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains(
            "resilient-deny is loaded from a file: it has no decision table, so no table rows run"
        ),
        "{stderr}"
    );
    assert!(stdout.contains("profile resilient-deny"), "{stdout}");
    let fixed = fixed_cases(&stdout);
    assert!(fixed > 100, "{fixed} fixed cases: {stdout}");
    let bin = env!("CARGO_BIN_EXE_autoreview");
    let out = autoreview(
        &[
            "check",
            "--profile-file",
            &file,
            "--generated",
            "100",
            "--seed",
            "3",
            "--",
            bin,
            "serve",
            "--profile-file",
            &file,
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let out = autoreview(&["check", "--profile-file", &file], "");
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("check an implementation against the engine instead"),
        "{out:?}"
    );
}

/// A profile file is refused before anything runs, saying where and what is allowed: an unknown
/// rule value, a name a shipped profile has, a decision table, a clause the spec does not have.
#[test]
fn a_profile_file_that_cannot_be_used_is_refused_naming_what_to_change() {
    let dir = crate::shared_dir::fresh("profile-file-bad");
    let refused = |profile: Value, says: &str| {
        let file = write(&dir, "bad.json", &profile);
        let out = autoreview(&["decide", "--profile-file", &file], "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    };
    let mut p = resilient_that_denies("mine");
    p["rules"]["failures"] = json!("lenient");
    refused(
        p,
        "rules.failures: unknown variant `lenient`, expected `deny` or `ask`",
    );
    refused(
        resilient_that_denies("baseline"),
        "`name` \"baseline\" is a shipped profile's: give your profile a name of its own",
    );
    let mut p = resilient_that_denies("mine");
    p["decision_table"] = json!("decision-table/resilient.json");
    refused(p, "remove `decision_table`");
    let mut p = resilient_that_denies("mine");
    p["clauses"]
        .as_array_mut()
        .unwrap()
        .push(json!("AR-NOPE-*"));
    refused(
        p,
        "`clauses` entry \"AR-NOPE-*\" names no clause of spec/auto-review.md",
    );
}

/// Every rule is honoured on its own: for each shipped profile and each rule, the profile with that
/// one rule set to another profile's value, as a file, is decided alike by the async gate and the
/// engine on every fixed case that applies to it and on generated ones. A gate written by rule
/// rather than by profile (the example gates, the async gate) must agree with the engine on any
/// recombination, not only on the two the suite ships.
#[test]
fn the_async_gate_agrees_with_the_engine_on_every_single_rule_change() {
    let dir = crate::shared_dir::fresh("profile-file-flips");
    let shipped = autoreview::Profile::all();
    // Every rule, with every value a shipped profile gives it (`reader` is one of them).
    let names: Vec<String> = shipped[0]
        .wire_rules()
        .values()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let value = |p: autoreview::Profile, name: &str| -> Value {
        p.wire_rules()
            .values()
            .into_iter()
            .find(|(n, _)| n == name)
            .unwrap()
            .1
    };
    let mut variants = 0;
    for base in &shipped {
        for rule in &names {
            // Another profile's value, or a flag's other value where every shipped profile
            // gives it the same (a rule the next profile will flip).
            let mine = value(*base, rule);
            let mut others: Vec<Value> = shipped.iter().map(|p| value(*p, rule)).collect();
            if let Some(flag) = mine.as_bool() {
                others.push(Value::Bool(!flag));
            }
            others.retain(|v| *v != mine);
            others.dedup();
            for other in others {
                // The rule changed, and the clauses with it, as a file of one's own.
                let name = format!("{base}-{rule}-{other}").replace(['"', '_'], "");
                let file = write(
                    &dir,
                    &format!("{name}.json"),
                    &recombined(*base, &name, rule, other),
                );
                let out = against_the_async_gate(&file, 5);
                let stdout = String::from_utf8_lossy(&out.stdout);
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success(), "{name}:\n{stdout}\n{stderr}");
                variants += 1;
            }
        }
    }
    // Every rule has two values among the shipped profiles, or is a flag, except `asks_again`,
    // which has three (never, repair-and-retry, json-retry): each profile meets each other value.
    let values = |rule: &str| {
        let mut v: Vec<Value> = shipped.iter().map(|p| value(*p, rule)).collect();
        v.sort_by_key(|v| v.to_string());
        v.dedup();
        v.len().max(2)
    };
    let expected: usize = names.iter().map(|r| shipped.len() * (values(r) - 1)).sum();
    assert_eq!(variants, expected, "each profile, each rule changed once");
}
