//! An implementation's own wording (`check --messages`): a Node.js gate that differs from the
//! reference only in its words passes both profiles with its mapping and fails without it on its
//! words alone.

use crate::common::wording::check;

use serde_json::Value;

const ADAPTER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/own-wording.js");
const MAPPING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/adapters/own-wording.json"
);

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

/// The clauses whose tables hold the spec's templates (chapter 9 and the resilient profile's).
const TEMPLATE_TABLES: [&str; 4] = ["AR-MSG-1", "AR-MSG-2", "AR-MSG-5", "AR-RES-MSG-1"];

#[test]
fn a_gate_in_its_own_words_passes_with_its_mapping_and_fails_on_words_alone_without_it() {
    for profile in ["baseline", "resilient"] {
        // One counterexample: what is judged here is every case's differences, not shrinking,
        // which asks the adapter again at every step (this test took 52 s when every violated
        // clause was shrunk, 6.5 s with one).
        let run = |mapping: bool| {
            let mut args = vec!["--profile", profile, "--generated", "150", "--seed", "24"];
            args.extend(["--max-counterexamples", "1"]);
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
