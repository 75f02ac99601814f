//! One rstest case per decision-table row (generated from the table by build.rs): the engine's
//! outcome for the row's example equals the row's prescription and is snapshotted under the
//! top-level `snapshots/`, so every text a model or a person sees is reviewed as a diff.

use autoreview::table::{Table, expand};
use autoreview::{Profile, decide};

fn row_snapshot(profile: &str, id: &str) {
    let profile: Profile = serde_json::from_value(serde_json::Value::String(profile.into()))
        .unwrap_or_else(|e| panic!("profile {profile}: {e}"));
    let table = Table::load(profile).unwrap_or_else(|e| panic!("{e}"));
    let row = table
        .rows
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("row {id} is generated but no longer in the table"));
    let outcome = decide(&row.example.scenario, profile);
    let want =
        expand::expected(&table, row, &row.example.scenario).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outcome, want, "row {id}");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_description(format!("{id}: {}", row.title));
    settings.set_info(&row.example.raw);
    settings.bind(|| insta::assert_json_snapshot!(format!("table-{id}"), outcome));
}

mod generated {
    include!(concat!(env!("OUT_DIR"), "/table_rows.rs"));
}
