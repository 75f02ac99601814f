//! An implementation's own wording (`check --messages`): the async gate renders through the same
//! templates as the engine; a bad mapping stops the run before any case. A Node.js gate in its own
//! words is in the second tier (`tests/external/wording.rs`).

use crate::common::wording::check;

use serde_json::Value;

const ADAPTER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/own-wording.js");
const MAPPING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/adapters/own-wording.json"
);

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
