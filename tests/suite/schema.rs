//! What the JSON Schemas say: the documented members, and the TypeScript declarations generated
//! from them (that the committed schemas are fresh is a library test in `src/schema.rs`).

use autoreview::schema;
use autoreview::schema::Format as SchemaKind;

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

// ---- TypeScript declarations (src/typescript.rs) ----------------------------------------------

const DECLARATIONS: &str = "adapters/node/types/contract.d.ts";

/// The Node kit's declarations are exactly what the committed schemas generate, so the types a
/// TypeScript adapter compiles against follow every change of the contract.
#[test]
fn committed_typescript_declarations_are_fresh() {
    let path = format!("{}/{DECLARATIONS}", env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = autoreview::typescript::declarations().expect("the schemas translate");
    assert!(
        committed == generated,
        "{path} is stale; regenerate it with `cargo run -q -- schema --typescript > {DECLARATIONS}`"
    );
}

/// Every schema's root and definitions are declared, under their own names.
#[test]
fn the_declarations_name_every_definition_of_every_schema() {
    let ts = autoreview::typescript::declarations().unwrap();
    for kind in [
        SchemaKind::Scenario,
        SchemaKind::Session,
        SchemaKind::Outcome,
        SchemaKind::Protocol,
    ] {
        let s: serde_json::Value = serde_json::from_str(&schema::text(kind)).unwrap();
        let mut names = vec![s["title"].as_str().unwrap().to_owned()];
        names.extend(s["$defs"].as_object().unwrap().keys().cloned());
        for name in names {
            let declared = [
                format!("export interface {name} {{"),
                format!("export type {name} ="),
            ];
            assert_eq!(
                declared
                    .iter()
                    .map(|d| ts.matches(d.as_str()).count())
                    .sum::<usize>(),
                1,
                "{name} is declared once"
            );
        }
    }
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

/// The translation, over a schema written here: each construct as TypeScript writes it.
#[test]
fn the_translation_writes_each_construct() {
    let schema = serde_json::json!({
        "title": "Root",
        "description": "A root.",
        "type": "object",
        "properties": {
            "kind": {"type": "string", "const": "a"},
            "count": {"description": "How many.", "type": ["integer", "null"], "minimum": 0},
            "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}, "uniqueItems": true, "maxItems": 3},
            "any": {"description": "Two lines\nof text."},
            "extra": {"type": "object", "additionalProperties": {"type": "boolean"}},
            "odd-name": {"enum": ["x", 1, null]}
        },
        "required": ["kind", "tags"],
        "additionalProperties": false,
        "$defs": {
            "Tag": {
                "oneOf": [
                    {"description": "The first.", "type": "string", "const": "one"},
                    {"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]}
                ]
            },
            "Plain": {"anyOf": [{"type": "string"}, {"type": "null"}]}
        }
    });
    let ts = autoreview::typescript::from_schemas(&[("test", schema)]).unwrap();
    let body = ts.split_once("\n\n").map(|(_, b)| b).unwrap();
    let expected = r#"/** A root. */
export interface Root {
  kind: "a";
  /** How many. */
  count?: number | null;
  tags: Tag[];
  /**
   * Two lines
   * of text.
   */
  any?: unknown;
  extra?: {
    [key: string]: boolean;
  };
  "odd-name"?: "x" | 1 | null;
}

export type Tag =
  /** The first. */
  | "one"
  | {
    n: number;
  };

export type Plain = string | null;
"#;
    assert_eq!(body, expected);
}

/// What the translation cannot express exactly is refused with where it is, not dropped.
#[test]
fn the_translation_refuses_what_it_cannot_express() {
    use autoreview::typescript::{Error, from_schemas};
    let unsupported = |schema: serde_json::Value| match from_schemas(&[("test", schema)]) {
        Err(Error::Unsupported {
            pointer, message, ..
        }) => format!("{pointer}: {message}"),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        unsupported(serde_json::json!({
            "title": "T", "type": "object",
            "properties": {"name": {"allOf": [{"type": "string"}, {"pattern": "^a"}]}}
        })),
        "/properties/name: the keyword `allOf` is not translated"
    );
    assert_eq!(
        unsupported(serde_json::json!({
            "title": "T", "type": "object", "patternProperties": {"^x-": {"type": "string"}}
        })),
        ": the keyword `patternProperties` is not translated"
    );
    let refused = from_schemas(&[("test", serde_json::json!({"title": "T", "not": {}}))]);
    assert_eq!(
        refused.map_err(|e| e.to_string()),
        Err("test schema, at the root: the keyword `not` is not translated".to_owned())
    );
    assert_eq!(
        unsupported(serde_json::json!({"title": "T", "$ref": "#/$defs/Missing"})),
        "/$ref: no definition `Missing`"
    );
    assert_eq!(
        unsupported(serde_json::json!({"title": "T", "$defs": {"U": {"$ref": "other.json#/U"}}})),
        "/$defs/U/$ref: only `#/$defs/<name>` references are translated"
    );
    assert_eq!(
        unsupported(serde_json::json!({"title": "T", "type": "object", "required": ["a"]})),
        "/required: `a` is not a property"
    );
    assert_eq!(
        unsupported(serde_json::json!({"title": "T", "$defs": {"not-a-name": {}}})),
        "/$defs/not-a-name: \"not-a-name\" cannot name a TypeScript type"
    );

    // One name, two definitions: one declaration cannot stand for both.
    let a = serde_json::json!({"title": "A", "$defs": {"Shared": {"type": "string"}}});
    let b = serde_json::json!({"title": "B", "$defs": {"Shared": {"type": "number"}}});
    assert_eq!(
        from_schemas(&[("first", a.clone()), ("second", b)]),
        Err(Error::Conflict {
            name: "Shared".into(),
            first: "first".into(),
            second: "second".into()
        })
    );
    // Defined alike, it is declared once.
    let ts = from_schemas(&[("first", a.clone()), ("second", a)]).unwrap();
    assert_eq!(ts.matches("export type Shared = string;").count(), 1);
}
