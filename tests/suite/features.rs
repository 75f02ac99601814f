//! The Gherkin features as data: every decision-table row of both profiles, every clause of the
//! spec and every field-report incident is exercised by at least one scenario; every ID a feature
//! names exists; every scenario runs under exactly one profile; every example has a permanent ID,
//! locked with a hash of its content in `features/ids.json` (the cucumber run, `tests/features/`,
//! checks what the scenarios say).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use autoreview::table::Table;
use autoreview::{Profile, cases, ids, spec};
use cucumber::gherkin::{self, GherkinEnv};
use serde::{Deserialize, Serialize};

const FEATURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/features");
const LOCK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/features/ids.json");

/// One scenario as it runs: a plain scenario, or one example row of an outline.
#[derive(Debug)]
struct Instance {
    /// `file:line` for messages.
    at: String,
    /// Every tag that applies, without `@`.
    tags: BTreeSet<String>,
    /// The example's columns (empty for a plain scenario).
    columns: BTreeMap<String, String>,
    /// The steps with the example's values substituted, one per line, with doc strings and
    /// tables: what the content hash covers.
    content: String,
}

impl Instance {
    fn profiles(&self) -> Vec<Profile> {
        Profile::all()
            .into_iter()
            .filter(|p| self.tags.contains(p.as_str()))
            .collect()
    }

    /// Row IDs, from tags and from a `row` column.
    fn rows(&self) -> BTreeSet<String> {
        let mut rows: BTreeSet<String> =
            self.tags.iter().filter(|t| is_row_id(t)).cloned().collect();
        if let Some(v) = self.columns.get("row") {
            rows.extend(
                v.split([',', ' '])
                    .filter(|r| !r.is_empty())
                    .map(str::to_owned),
            );
        }
        rows
    }

    /// The example's permanent ID: an `F-…` tag or the `id` column.
    fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .tags
            .iter()
            .filter(|t| t.starts_with("F-"))
            .cloned()
            .collect();
        ids.extend(self.columns.get("id").cloned());
        ids
    }
}

fn is_row_id(s: &str) -> bool {
    (s.starts_with("BL-") || s.starts_with("RS-")) && s.len() > 3
}

fn is_case_id(s: &str) -> bool {
    let mut parts = s.splitn(3, '-');
    matches!(
        (parts.next(), parts.next(), parts.next()),
        (Some("F"), Some(area), Some(n))
            if !area.is_empty()
                && area.chars().all(|c| c.is_ascii_uppercase())
                && !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
    )
}

fn feature_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(FEATURES)
        .unwrap_or_else(|e| panic!("{FEATURES}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "feature"))
        .collect();
    files.sort();
    files
}

fn substitute(text: &str, columns: &BTreeMap<String, String>) -> String {
    let mut out = text.to_owned();
    for (k, v) in columns {
        out = out.replace(&format!("<{k}>"), v);
    }
    out
}

fn step_lines(steps: &[gherkin::Step], columns: &BTreeMap<String, String>) -> String {
    let mut content = String::new();
    for step in steps {
        content.push_str(&substitute(
            &format!("{} {}\n", step.keyword.trim(), step.value),
            columns,
        ));
        if let Some(d) = &step.docstring {
            content.push_str(&substitute(d, columns));
            content.push('\n');
        }
        for row in step.table.iter().flat_map(|t| &t.rows) {
            content.push_str(&substitute(&format!("| {} |\n", row.join(" | ")), columns));
        }
    }
    content
}

fn instances() -> Vec<Instance> {
    let mut out = Vec::new();
    for path in feature_files() {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        let feature = gherkin::Feature::parse_path(&path, GherkinEnv::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let background = |rule: Option<&gherkin::Rule>| {
            let mut steps = feature
                .background
                .as_ref()
                .map(|b| b.steps.clone())
                .unwrap_or_default();
            if let Some(b) = rule.and_then(|r| r.background.as_ref()) {
                steps.extend(b.steps.clone());
            }
            steps
        };
        let scenarios = feature.scenarios.iter().map(|s| (None, s)).chain(
            feature
                .rules
                .iter()
                .flat_map(|r| r.scenarios.iter().map(move |s| (Some(r), s))),
        );
        for (rule, scenario) in scenarios {
            let mut tags: BTreeSet<String> = feature
                .tags
                .iter()
                .chain(rule.iter().flat_map(|r| r.tags.iter()))
                .chain(&scenario.tags)
                .map(|t| t.trim_start_matches('@').to_owned())
                .collect();
            let mut steps = background(rule);
            steps.extend(scenario.steps.clone());
            if scenario.examples.is_empty() {
                out.push(Instance {
                    at: format!("{name}:{}", scenario.position.line),
                    tags: tags.clone(),
                    columns: BTreeMap::new(),
                    content: step_lines(&steps, &BTreeMap::new()),
                });
                continue;
            }
            for examples in &scenario.examples {
                let Some(table) = &examples.table else {
                    continue;
                };
                let Some((header, rows)) = table.rows.split_first() else {
                    continue;
                };
                let mut example_tags = tags.clone();
                example_tags.extend(
                    examples
                        .tags
                        .iter()
                        .map(|t| t.trim_start_matches('@').to_owned()),
                );
                for (i, row) in rows.iter().enumerate() {
                    let columns: BTreeMap<String, String> =
                        header.iter().cloned().zip(row.iter().cloned()).collect();
                    out.push(Instance {
                        at: format!("{name}:{}", examples.position.line + i + 2),
                        tags: example_tags.clone(),
                        content: step_lines(&steps, &columns),
                        columns,
                    });
                }
            }
            tags.clear();
        }
    }
    out
}

fn tables() -> BTreeMap<Profile, Table> {
    Profile::all()
        .into_iter()
        .map(|p| (p, Table::load(p).unwrap()))
        .collect()
}

/// Incident case IDs with the profiles they run under.
fn incidents() -> BTreeMap<String, BTreeSet<Profile>> {
    let mut out: BTreeMap<String, BTreeSet<Profile>> = BTreeMap::new();
    for p in Profile::all() {
        for c in cases::all(p).unwrap() {
            if c.area == "incidents" {
                out.entry(c.id).or_default().insert(p);
            }
        }
    }
    out
}

#[test]
fn every_scenario_runs_under_one_profile_and_names_only_ids_that_exist() {
    let clauses = spec::clause_ids();
    let tables = tables();
    let incidents = incidents();
    let mut problems = Vec::new();
    for i in instances() {
        let profiles = i.profiles();
        let [profile] = profiles.as_slice() else {
            problems.push(format!(
                "{}: profile tags {profiles:?}, expected exactly one",
                i.at
            ));
            continue;
        };
        for tag in &i.tags {
            let known = Profile::named(tag).is_some()
                || clauses.contains(tag)
                || is_row_id(tag)
                || incidents.contains_key(tag)
                || is_case_id(tag);
            if !known {
                problems.push(format!(
                    "{}: tag @{tag} is neither a profile, a clause, a table row, an incident nor a feature case ID",
                    i.at
                ));
            }
            if let Some(profiles) = incidents.get(tag)
                && !profiles.contains(profile)
            {
                problems.push(format!(
                    "{}: incident {tag} does not run under {profile}",
                    i.at
                ));
            }
        }
        for row in i.rows() {
            if !tables[profile].rows.iter().any(|r| r.id == row) {
                problems.push(format!("{}: row {row} is not in the {profile} table", i.at));
            }
        }
        match i.ids().as_slice() {
            [id] if is_case_id(id) => {}
            ids => problems.push(format!(
                "{}: {ids:?}; each example needs one ID of the form F-AREA-N (a tag, or an `id` column)",
                i.at
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Clauses no scenario can show, and why; the coverage test accepts no scenario for them (and
/// refuses a scenario that claims one).
const NO_SCENARIO: &[(&str, &str)] = &[(
    "AR-CONV-1",
    "it is about the spec's own wording and clause IDs, which the ID lints enforce",
)];

#[test]
fn every_row_clause_and_incident_is_exercised() {
    let instances = instances();
    let tables = tables();
    let mut problems = Vec::new();
    // Profiles that share a table share its rows: a scenario under one of them exercises the row
    // for all (the exhaustive check holds the table to each profile's engine).
    let same_table = |p: &autoreview::Profile, q: &autoreview::Profile| {
        p.decision_table.is_some() && p.decision_table == q.decision_table
    };
    for (profile, table) in &tables {
        for row in &table.rows {
            let covered = instances.iter().any(|i| {
                matches!(i.profiles().as_slice(), [p] if same_table(p, profile))
                    && i.rows().contains(&row.id)
            });
            if !covered {
                problems.push(format!("row {} ({profile}): {}", row.id, row.title));
            }
        }
    }
    let tagged: BTreeSet<&String> = instances.iter().flat_map(|i| &i.tags).collect();
    // A scenario runs under a shipped profile: every clause one of them holds has one. (A clause
    // of a rule value no shipped profile takes yet is checked by the profile files that do.)
    let held = |id: &str| autoreview::Profile::all().iter().any(|p| p.has_clause(id));
    for clause in spec::clause_ids().into_iter().filter(|c| held(c)) {
        if !tagged.contains(&clause) && !NO_SCENARIO.iter().any(|(c, _)| *c == clause) {
            problems.push(format!("clause {clause}"));
        }
    }
    for (clause, why) in NO_SCENARIO {
        if tagged.contains(&clause.to_string()) {
            problems.push(format!(
                "clause {clause} is listed as having no scenario ({why}), but a scenario names it"
            ));
        }
    }
    for id in incidents().keys() {
        if !tagged.contains(id) {
            problems.push(format!("incident {id}"));
        }
    }
    assert!(
        problems.is_empty(),
        "no scenario exercises:\n{}",
        problems.join("\n")
    );
}

/// `features/ids.json`.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Lock {
    about: String,
    ids: BTreeMap<String, String>,
    retired: BTreeMap<String, String>,
}

#[test]
fn feature_case_ids_are_unique_and_locked() {
    let mut current: BTreeMap<String, String> = BTreeMap::new();
    let mut problems = Vec::new();
    for i in instances() {
        let Some(id) = i.ids().into_iter().next() else {
            continue;
        };
        let tags: Vec<&String> = i.tags.iter().filter(|t| **t != id).collect();
        let hash = ids::text_hash(&format!("{tags:?}\n{}", i.content));
        if current.insert(id.clone(), hash).is_some() {
            problems.push(format!("{}: {id} is used twice", i.at));
        }
    }
    let committed: Lock = std::fs::read_to_string(LOCK)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    for (id, hash) in &current {
        if committed.retired.contains_key(id) {
            problems.push(format!("{id} was retired and may not be used again"));
        }
        match committed.ids.get(id) {
            None => problems.push(format!("{id} is new: lock it")),
            Some(h) if h != hash => problems.push(format!(
                "{id} changed under the same ID: give the changed example a new ID and retire this one, or lock the change if it keeps the example's meaning"
            )),
            Some(_) => {}
        }
    }
    for id in committed.ids.keys() {
        if !current.contains_key(id) {
            problems.push(format!(
                "{id} is locked but no longer in the features: retire it"
            ));
        }
    }
    if !problems.is_empty() {
        let proposed = Lock {
            about: "Permanent IDs of the feature examples (features/*.feature), each with a hash of its steps and tags. An ID is never reused; retired IDs stay listed.".into(),
            ids: current,
            retired: committed.retired,
        };
        let text = serde_json::to_string_pretty(&proposed).unwrap() + "\n";
        let hint = if std::env::var_os("CI").is_none() {
            let new = Path::new(LOCK).with_extension("json.new");
            std::fs::write(&new, text).unwrap();
            format!(
                "a proposed lock is in {}: read it, then move it over features/ids.json (add retired IDs by hand, with a reason)",
                new.display()
            )
        } else {
            "run the tests outside CI to get a proposed lock".into()
        };
        panic!("{}\n{hint}", problems.join("\n"));
    }
}
