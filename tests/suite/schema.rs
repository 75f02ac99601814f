//! The committed JSON Schemas are exactly what the types generate.

use autoreview::schema;
use autoreview::schema::Format as SchemaKind;

#[test]
fn committed_schemas_are_fresh() {
    for (kind, file) in [
        (SchemaKind::Scenario, "scenario"),
        (SchemaKind::Session, "session"),
        (SchemaKind::Outcome, "outcome"),
        (SchemaKind::Protocol, "protocol"),
    ] {
        let path = format!("{}/spec/{file}.schema.json", env!("CARGO_MANIFEST_DIR"));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == schema::text(kind),
            "{path} is stale; regenerate it with `cargo run -- schema {file} > spec/{file}.schema.json`"
        );
    }
}

#[test]
fn the_scenario_schema_names_every_documented_member() {
    let s: serde_json::Value = serde_json::from_str(&schema::text(SchemaKind::Scenario)).unwrap();
    let props = s["properties"].as_object().unwrap();
    for m in [
        "id",
        "tool",
        "agent",
        "preset",
        "policy",
        "schema",
        "reviewer",
        "downstream",
        "approval",
        "abort",
    ] {
        assert!(props.contains_key(m), "scenario schema lacks {m}");
    }
    assert_eq!(s["additionalProperties"], serde_json::json!(false));
}

/// A call item of a session scenario takes a single call's members except the session's.
#[test]
fn a_session_call_item_lacks_only_the_session_members() {
    let session: serde_json::Value =
        serde_json::from_str(&schema::text(SchemaKind::Session)).unwrap();
    let scenario: serde_json::Value =
        serde_json::from_str(&schema::text(SchemaKind::Scenario)).unwrap();
    let call = &session["$defs"]["Call"];
    let mut expected = scenario["properties"].clone();
    for k in ["session", "config", "preset", "policy"] {
        expected.as_object_mut().unwrap().remove(k).expect(k);
    }
    assert_eq!(call["properties"], expected);
    assert_eq!(call["required"], serde_json::json!(["tool", "reviewer"]));
    assert_eq!(call["additionalProperties"], serde_json::json!(false));
    assert_eq!(session["properties"]["calls"]["minItems"], 1);
}
