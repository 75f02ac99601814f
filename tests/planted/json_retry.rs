//! JSON-retry plants: a 0.2.x gate that asks again after invalid JSON otherwise than
//! AR-JSON-RETRY-1..3 say, each found by fixed and by generated cases leading with the clause.

use super::*;
use std::sync::LazyLock;

/// A 0.2.x gate that never asks again, as the rc.3 bundle read (AR-JSON-RETRY-1): a reply in
/// prose that the next request would have answered with an allow is a denial: a DECISION.
#[test]
fn a_gate_that_never_asks_again_after_invalid_json_is_found_at_decision() {
    let plant = Planted::reading("no retry after invalid JSON", |s| {
        s.config.max_json_retries = 0;
    });
    found(plant, "AR-JSON-RETRY-1", &[shipped()], Severity::Decision);
}

/// The 0.2.x profile with its reviewer asked again after every protocol and transport failure,
/// as a repair-and-retry gate asks: a profile of the process's own, from the shipped file with the
/// one rule changed.
static ASKS_AFTER_EVERY_FAILURE: LazyLock<Profile> = LazyLock::new(|| {
    let spec = shipped()
        .spec()
        .with_rule("asks_again", &serde_json::json!("repair-and-retry"))
        .expect("a value the rule has");
    let mut v = serde_json::to_value(&spec).expect("a profile writes");
    v["name"] = serde_json::json!("shipped-0.2-asks-after-every-failure");
    v.as_object_mut()
        .expect("an object")
        .remove("decision_table");
    let dir = std::env::temp_dir().join(format!("autoreview-planted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("asks-after-every-failure.json");
    std::fs::write(&path, v.to_string()).expect("the file writes");
    Profile::load_file(&path).unwrap_or_else(|e| panic!("{e}"))
});

/// A 0.2.x gate that asks again after any failure of a reply, not only invalid JSON
/// (AR-JSON-RETRY-2): JSON that breaks the protocol, or a broken stream, earns another request,
/// whose allow runs a body the reference denied on a reply the spec does not let it ask for:
/// BOUNDS.
#[test]
fn a_gate_that_asks_again_after_any_failure_is_found_at_bounds() {
    let plant = Planted::deciding("asked again after any failure", |s, p| {
        if p != shipped() {
            return engine::decide(s, p);
        }
        let mut s = s.clone();
        // Its one budget: as many requests as the 0.2.x gate would allow after invalid JSON.
        s.config.repair_attempts = s.config.max_json_retries.min(5);
        s.config.transport_retries = s.config.max_json_retries.min(5);
        engine::decide(&s, *ASKS_AFTER_EVERY_FAILURE)
    });
    found(plant, "AR-JSON-RETRY-2", &[shipped()], Severity::Bounds);
}

/// A 0.2.x gate that retries as it should but reports the parser's own words once its retries
/// are spent (AR-JSON-RETRY-3: `MSG-ERR-NOT-JSON` in full): a TEXT, headed by the template.
#[test]
fn a_gate_that_keeps_the_parsers_message_is_found_at_text() {
    let plant = Planted::writing("the parser's message kept after the retries", |_, o| {
        let fixed = "auto-review: reviewer output must be valid JSON";
        let own = "auto-review: Unexpected token 'T', \"The pendin\"... is not valid JSON";
        each_outcome_text(o, |t| t.replace(fixed, own));
        if let Some(f) = &mut o.review.failure {
            f.message = f.message.replace(fixed, own);
        }
    });
    found(plant, "MSG-ERR-NOT-JSON", &[shipped()], Severity::Text);
}
