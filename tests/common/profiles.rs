//! Profiles of one's own, written as files from a shipped one, and what a check of them reports.

use autoreview::Profile;
use serde_json::Value;

/// The file of shipped profile `from` with `rule` set to `value` and its clauses changed with it
/// (`ProfileSpec::with_rule`), named `name`, without a decision table: a profile of one's own.
pub fn recombined(from: Profile, name: &str, rule: &str, value: Value) -> Value {
    let mut spec = from
        .spec()
        .with_rule(rule, &value)
        .unwrap_or_else(|e| panic!("{from} with {rule} {value}: {e}"));
    spec.name = name.to_owned();
    spec.decision_table = None;
    serde_json::to_value(&spec).unwrap()
}

/// How many fixed cases a check ran, from its `compared: … N fixed cases and …` line.
pub fn fixed_cases(stdout: &str) -> usize {
    stdout
        .split(" fixed cases")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of fixed cases in:\n{stdout}"))
}
