//! An implementation's own wording (`check --messages`): a gate that differs from the reference only
//! in its words passes both profiles with its mapping and fails without it on its words alone; the
//! async gate renders through the same templates as the engine; a bad mapping stops the run before
//! any case.

use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_autoreview");
const ADAPTER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/own-wording.js");
const MAPPING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/adapters/own-wording.json"
);

/// Runs `check` with `args` and returns its exit code, its report and its terminal output.
fn check(name: &str, args: &[&str]) -> (Option<i32>, Value, String) {
    let dir = crate::shared_dir::fresh(&format!("wording-{name}"));
    let json = dir.join("report.json").to_string_lossy().into_owned();
    let out = Command::new(BIN)
        .arg("check")
        .args(["--report-json", &json])
        .args(args)
        .output()
        .expect("run autoreview");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    let report = std::fs::read_to_string(&json)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    (out.status.code(), report, text)
}

/// Whether a difference at `pointer` is one of wording: a text a model or a person sees, or the
/// failure message a gate logs (the `<error>` those texts quote).
fn is_wording(pointer: &str) -> bool {
    let member = pointer
        .strip_prefix("/calls/")
        .and_then(|p| p.split_once('/').map(|(_, rest)| rest))
        .map_or(pointer, |rest| rest);
    let member = member.trim_start_matches('/');
    [
        "result/text",
        "listener/reason",
        "listener/display_reason/en",
        "listener/display_reason/zh",
        "approval/reason",
        "approval/display_reason/en",
        "approval/display_reason/zh",
        "review/failure/message",
    ]
    .contains(&member)
        || member == "error"
}

#[test]
fn a_gate_in_its_own_words_passes_with_its_mapping_and_fails_on_words_alone_without_it() {
    for profile in ["baseline", "resilient"] {
        let run = |mapping: bool| {
            let mut args = vec!["--profile", profile, "--generated", "150", "--seed", "24"];
            if mapping {
                args.extend(["--messages", MAPPING]);
            }
            args.extend(["--", "node", ADAPTER]);
            check(&format!("{profile}-{mapping}"), &args)
        };
        let (code, report, text) = run(true);
        assert_eq!(code, Some(0), "{profile} with the mapping: {text}");
        assert_eq!(report["messages"]["path"], MAPPING, "{profile}");
        assert_eq!(
            report["messages"]["templates"]["MSG-FAILED"],
            "Could not review \"<name>\", so it was not run (<error>)"
        );
        let (code, report, text) = run(false);
        assert_eq!(code, Some(1), "{profile} without the mapping: {text}");
        assert!(report.get("messages").is_none(), "{profile}");
        let results = report["results"].as_array().unwrap();
        let mut failed = 0;
        for r in results {
            assert_ne!(r["verdict"], "broken", "{profile}: {r}");
            let Some(differences) = r["differences"].as_array() else {
                continue;
            };
            failed += 1;
            for d in differences {
                let pointer = d["pointer"].as_str().unwrap();
                assert!(is_wording(pointer), "{profile} {}: {d}", r["id"]);
                let severity = d["severity"].as_str().unwrap();
                assert!(
                    severity == "TEXT" || pointer.ends_with("/failure/message"),
                    "{profile} {}: {d}",
                    r["id"]
                );
                // Each names the template the reference rendered the text from, and the
                // clause whose table holds that template.
                let clauses: Vec<&str> = d["clauses"]
                    .as_array()
                    .map(|c| c.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                assert!(
                    clauses.iter().any(|c| c.starts_with("MSG-"))
                        && clauses.iter().any(|c| TEMPLATE_TABLES.contains(c)),
                    "{profile} {}: {d}",
                    r["id"]
                );
            }
        }
        assert!(failed > 200, "{profile}: {failed} cases fail on wording");
        // A pass at `full` is a pass at every level below it (each compares less of the same
        // outcomes); words alone fail `texts` and nothing below it.
        let (code, report, text) = check(
            &format!("{profile}-decisions"),
            &[
                "--profile",
                profile,
                "--generated",
                "150",
                "--seed",
                "24",
                "--level",
                "decisions",
                "--",
                "node",
                ADAPTER,
            ],
        );
        assert_eq!(code, Some(0), "{profile} at decisions: {text}");
        assert_eq!(report["level"], "decisions");
    }
}

/// The clauses whose tables hold the spec's templates (chapter 9 and the resilient profile's).
const TEMPLATE_TABLES: [&str; 4] = ["AR-MSG-1", "AR-MSG-2", "AR-MSG-5", "AR-RES-MSG-1"];

/// The async gate renders through the templates the engine renders with: under the same wording,
/// every text of theirs agrees, in both profiles.
#[test]
fn the_async_gate_renders_with_the_wording_the_engine_renders_with() {
    for profile in ["baseline", "resilient"] {
        let (code, report, text) = check(
            &format!("async-{profile}"),
            &[
                "--profile",
                profile,
                "--implementation",
                "async-gate",
                "--generated",
                "300",
                "--seed",
                "24",
                "--messages",
                MAPPING,
            ],
        );
        assert_eq!(code, Some(0), "{profile}: {text}");
        assert_eq!(report["messages"]["path"], MAPPING);
    }
}

#[test]
fn a_bad_mapping_stops_the_run_before_any_case_saying_where_and_the_fix() {
    let dir = crate::shared_dir::fresh("wording-mapping");
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        "{\"version\": 1, \"templates\": {\n  \"MSG-FAILED\": \"<name> failed\"\n}}",
    )
    .unwrap();
    let bad = bad.to_string_lossy().into_owned();
    let (code, report, text) = check("bad", &["--messages", &bad, "--", "node", ADAPTER]);
    assert_eq!(code, Some(3), "{text}");
    assert_eq!(report, Value::Null, "no case ran: {text}");
    assert!(
        text.contains(&format!("--messages {bad}"))
            && text.contains("MSG-FAILED: the text drops the placeholder <error>")
            && text.contains(" at line "),
        "{text}"
    );
    // The engine is held to the cases' own expectations: a wording has nothing to word there.
    let (code, _, text) = check("engine", &["--messages", MAPPING]);
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("--messages words the texts of an implementation"),
        "{text}"
    );
}
