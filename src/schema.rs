//! JSON Schemas of the scenario and outcome formats, generated from the Rust types so the contract
//! and the code cannot drift (committed as `spec/scenario.schema.json`, `spec/outcome.schema.json`).

use crate::cli::SchemaKind;
use crate::outcome::Outcome;
use crate::scenario::Scenario;

/// The schema of one format, pretty-printed with a trailing newline.
pub fn text(which: SchemaKind) -> String {
    let schema = match which {
        SchemaKind::Scenario => schemars::schema_for!(Scenario),
        SchemaKind::Outcome => schemars::schema_for!(Outcome),
        SchemaKind::Protocol => return crate::protocol::schema_text(),
    };
    let mut s = serde_json::to_string_pretty(&schema).unwrap_or_default();
    s.push('\n');
    s
}
