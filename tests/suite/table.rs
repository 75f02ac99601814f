//! The decision table: loads, lints (IDs, clause links, examples), covers the whole input space
//! with exactly one row per point, and prescribes exactly the engine's outcome.

use std::collections::{BTreeMap, BTreeSet};

use autoreview::table::{self, ApprovalForm, Cond, Table, expand, features, render, space};
use autoreview::{Profile, decide, spec};

fn tables() -> Vec<Table> {
    Profile::all()
        .iter()
        .map(|p| Table::load(*p).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Each table file once, read for the profile it is written for: a profile that decides as an
/// earlier one does names that profile's table (the 0.2.x gate, the baseline's).
fn table_files() -> Vec<Table> {
    tables()
        .into_iter()
        .filter(|t| {
            t.profile.decision_table.as_deref()
                == Some(&format!("decision-table/{}.json", t.profile))
        })
        .collect()
}

#[test]
fn row_ids_are_unique_and_clauses_exist() {
    let clauses = spec::clause_ids();
    assert!(
        clauses.len() > 40,
        "the spec's clause list looks truncated: {}",
        clauses.len()
    );
    let mut seen = BTreeSet::new();
    for t in table_files() {
        for r in &t.rows {
            assert!(seen.insert(r.id.clone()), "row ID {} is used twice", r.id);
            assert!(!r.clauses.is_empty(), "row {} names no clause", r.id);
            for c in &r.clauses {
                assert!(
                    clauses.contains(c),
                    "row {} cites {c}, which the spec does not define",
                    r.id
                );
            }
        }
    }
}

#[test]
fn answerer_rows_never_admit_a_throwing_request() {
    for t in tables() {
        for r in &t.rows {
            if r.then.approval == ApprovalForm::Answerer {
                match &r.when.approval {
                    Cond::OneOf(v) => assert!(
                        !v.contains(&autoreview::scenario::ApprovalAnswer::Throws),
                        "row {} lets answerers answer a request that throws",
                        r.id
                    ),
                    Cond::Any => panic!("row {} must restrict the approval answer", r.id),
                }
            }
        }
    }
}

#[test]
fn every_example_falls_under_its_own_row_only_and_the_engine_agrees() {
    for t in tables() {
        for r in &t.rows {
            let f = features::of(&r.example.scenario, t.profile);
            let ids: Vec<&str> = t.matching(&f).iter().map(|m| m.id.as_str()).collect();
            assert_eq!(
                ids,
                vec![r.id.as_str()],
                "example of {} has features {f:?}",
                r.id
            );
            let want =
                expand::expected(&t, r, &r.example.scenario).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(decide(&r.example.scenario, t.profile), want, "row {}", r.id);
        }
    }
}

#[test]
fn the_baseline_table_lists_the_reference_behaviours() {
    // The shipped gate's 29 behaviours: pass-through P1–P3, admission P4, caller-before-dispatch
    // P5, the numbered rows 1–24 and the caller-cancellation overlays.
    let t = Table::load(Profile::BASELINE).unwrap();
    let ids: BTreeSet<&str> = t.rows.iter().map(|r| r.id.as_str()).collect();
    for n in 1..=24 {
        let id = format!("BL-{n}");
        assert!(ids.contains(id.as_str()), "missing {id}");
    }
    for id in [
        "BL-P1", "BL-P2", "BL-P3", "BL-P4U", "BL-P5", "BL-C1", "BL-C2", "BL-C3", "BL-C4",
    ] {
        assert!(ids.contains(id), "missing {id}");
    }
}

/// Every point of a profile's input space matches exactly one row, and the row's outcome is the
/// engine's. The points are split over the machine's cores (each thread takes every n-th point), so
/// this, the suite's longest test, does not leave a core idle at the end of `cargo test`.
#[test]
fn every_point_of_the_input_space_matches_exactly_one_row_and_the_engine_agrees() {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    for t in tables() {
        let size = space::size(t.profile);
        let parts: Vec<(BTreeMap<String, usize>, usize)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    let t = &t;
                    scope.spawn(move || {
                        let mut hits: BTreeMap<String, usize> = BTreeMap::new();
                        let mut checked = 0usize;
                        for n in (k..size).step_by(threads) {
                            let (_, s) = space::point(t.profile, n);
                            check_point(t, &s, &mut hits);
                            checked += 1;
                        }
                        (hits, checked)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let checked: usize = parts.iter().map(|(_, c)| c).sum();
        assert_eq!(checked, size);
        let mut hits: BTreeMap<String, usize> = BTreeMap::new();
        for (part, _) in parts {
            for (id, n) in part {
                *hits.entry(id).or_default() += n;
            }
        }
        for r in &t.rows {
            assert!(
                hits.contains_key(&r.id),
                "row {} is never reached by the input space",
                r.id
            );
        }
    }
}

/// One point: exactly one row matches, and its expected outcome is the engine's.
fn check_point(t: &Table, s: &autoreview::Scenario, hits: &mut BTreeMap<String, usize>) {
    let f = features::of(s, t.profile);
    let rows = t.matching(&f);
    match rows.as_slice() {
        [row] => {
            *hits.entry(row.id.clone()).or_default() += 1;
            let want = expand::expected(t, row, s).unwrap_or_else(|e| panic!("{e}"));
            let got = decide(s, t.profile);
            if got != want {
                panic!(
                    "row {} disagrees with the engine for\n{}\nwant {}\ngot  {}",
                    row.id,
                    serde_json::to_string(s).unwrap(),
                    serde_json::to_string(&want).unwrap(),
                    serde_json::to_string(&got).unwrap()
                );
            }
        }
        [] => panic!("no row covers {f:?}"),
        many => panic!(
            "{f:?} matches {} rows: {:?}",
            many.len(),
            many.iter().map(|r| &r.id).collect::<Vec<_>>()
        ),
    }
}

#[test]
fn every_representative_script_settles_in_its_class_under_every_profile() {
    use autoreview::scenario::{Reviewer, Scenario, Tool};
    for profile in Profile::all() {
        for class in space::REVIEWER_CLASSES {
            for rep in space::representatives(class) {
                let s = Scenario {
                    id: None,
                    tool: Tool {
                        name: "probe".into(),
                        call: Default::default(),
                    },
                    agent: true,
                    preset: Default::default(),
                    policy: Default::default(),
                    schema: rep.schema,
                    log: rep.log,
                    reviewer: Reviewer::One(rep.attempt),
                    downstream: Default::default(),
                    approval: Default::default(),
                    abort: Default::default(),
                    session: autoreview::scenario::Session {
                        route: rep.route,
                        ..Default::default()
                    },
                    config: Default::default(),
                    body: Vec::new(),
                };
                let got = features::of(&s, profile).reviewer;
                // With no signal, only the baseline leaves a review pending; the resilient
                // profile's deadline turns it into a failure (AR-RES-RETRY-4).
                let want = match (class, profile) {
                    (table::ReviewerClass::Pending, Profile::RESILIENT) => {
                        table::ReviewerClass::Failure
                    }
                    _ => class,
                };
                assert_eq!(got, want, "{profile}: {s:?}");
            }
        }
    }
}

#[test]
fn the_committed_markdown_rendering_is_fresh() {
    for t in table_files() {
        let path = format!(
            "{}/spec/decision-table/{}.md",
            env!("CARGO_MANIFEST_DIR"),
            t.profile
        );
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == render::markdown(&t),
            "{path} is stale; regenerate it with `cargo run -- table --profile {} --format markdown > {path}`",
            t.profile
        );
    }
}

#[test]
fn a_table_with_a_typo_is_rejected_with_its_path() {
    let src = Table::source(Profile::BASELINE).unwrap().replacen(
        "\"downstream\": \"allow\"",
        "\"downstraem\": \"allow\"",
        1,
    );
    let err = Table::parse(Profile::BASELINE, &src)
        .unwrap_err()
        .to_string();
    assert!(err.contains("downstraem"), "{err}");
    let _ = table::Row::clone;
}

#[test]
fn every_lifecycle_point_matches_exactly_one_row_and_the_engine_agrees() {
    use autoreview::table::lifecycle::{self, LifecycleTable};
    let table = LifecycleTable::load().unwrap_or_else(|e| panic!("lifecycle.json: {e}"));
    let mut problems = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    let space = lifecycle::space();
    // 4 events (a dispose with and without re-selection) meet 48 session states, each in one
    // of the two installation states its event allows, except select-auto, which meets both.
    assert_eq!(space.len(), 5 * 48);
    for p in &space {
        match table.matching(p).as_slice() {
            [row] => {
                used.insert(row.id.clone());
                if let Err(e) = lifecycle::check(row, p) {
                    problems.push(e);
                }
            }
            rows => problems.push(format!(
                "{p:?} matches {:?}",
                rows.iter().map(|r| &r.id).collect::<Vec<_>>()
            )),
        }
    }
    for row in &table.rows {
        if !used.contains(&row.id) {
            problems.push(format!("{} matches no realizable point", row.id));
        }
        for c in &row.clauses {
            assert!(spec::clause_ids().contains(c), "{}: no clause {c}", row.id);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
