//! JSON Schemas of the scenario and outcome formats and of the runner's JSON report, generated from
//! the Rust types so the contract and the code cannot drift (committed as
//! `spec/scenario.schema.json`, `spec/session.schema.json`, `spec/outcome.schema.json`,
//! `spec/protocol.schema.json`, `spec/report.schema.json`, `spec/audit.schema.json`).

use crate::outcome::Outcome;
use crate::scenario::Scenario;
use crate::scenario::session::SessionScenario;

/// The formats with a committed schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The scenario format (`spec/scenario.schema.json`).
    Scenario,
    /// The session scenario format (`spec/session.schema.json`).
    Session,
    /// The outcome format (`spec/outcome.schema.json`).
    Outcome,
    /// The adapter protocol's messages (`spec/protocol.schema.json`).
    Protocol,
    /// The JSON report `check --report-json` writes (`spec/report.schema.json`).
    Report,
    /// A line of an audit log `autoreview audit` reads (`spec/audit.schema.json`).
    Audit,
}

/// The schema of one format, pretty-printed with a trailing newline.
pub fn text(which: Format) -> String {
    let schema = match which {
        Format::Scenario => schemars::schema_for!(Scenario),
        Format::Session => schemars::schema_for!(SessionScenario),
        Format::Outcome => schemars::schema_for!(Outcome),
        Format::Protocol => return crate::protocol::schema_text(),
        Format::Report => schemars::schema_for!(crate::report::JsonReport),
        Format::Audit => schemars::schema_for!(crate::audit::RecordLine),
    };
    let mut s = serde_json::to_string_pretty(&schema).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed schemas are exactly what the types generate (a library test, so that the
    /// scenario's mutants meet it without the whole suite).
    #[test]
    fn committed_schemas_are_fresh() {
        for (kind, file) in [
            (Format::Scenario, "scenario"),
            (Format::Session, "session"),
            (Format::Outcome, "outcome"),
            (Format::Protocol, "protocol"),
            (Format::Report, "report"),
            (Format::Audit, "audit"),
        ] {
            let path = format!("{}/spec/{file}.schema.json", env!("CARGO_MANIFEST_DIR"));
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == text(kind),
                "{path} is stale; regenerate it with `cargo run -- schema {file} > spec/{file}.schema.json`"
            );
        }
    }
}
