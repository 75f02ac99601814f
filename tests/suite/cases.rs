//! Fixed cases: unique IDs, links to clauses that exist, and the reference engine passes every one.
//! The judge itself is checked to fail on a wrong outcome.

use std::collections::BTreeSet;

use autoreview::capability::{Capabilities, Need, Observable};
use autoreview::cases::{self, Expectation, matches_partial};
use autoreview::outcome::InputOutcome;
use autoreview::runner::{self, Reference, Verdict};
use autoreview::{Profile, spec};
use serde_json::json;

#[test]
fn case_ids_are_unique_and_link_to_existing_clauses() {
    let clauses = spec::clause_ids();
    for profile in Profile::all() {
        let all = cases::all(profile).unwrap_or_else(|e| panic!("{e}"));
        assert!(all.len() > 60, "only {} cases for {profile}", all.len());
        let mut ids = BTreeSet::new();
        for c in &all {
            assert!(ids.insert(c.id.clone()), "case ID {} is used twice", c.id);
            assert!(!c.clauses.is_empty(), "case {} names no clause", c.id);
            for cl in &c.clauses {
                assert!(
                    clauses.contains(cl),
                    "case {} cites {cl}, which the spec does not define",
                    c.id
                );
            }
        }
    }
}

/// The fixed cases of each profile exercise every clause of the profile (those its cases cite,
/// and those their outcomes show), every side of each numeric limit, every message template the
/// profile's cases can show, and every hostile kind of tool name on each template that inserts a
/// name: the same accounting generated runs are held to (`generate::coverage`).
#[test]
fn every_clause_limit_and_message_path_is_exercised_by_fixed_cases() {
    use autoreview::generate::coverage;
    use autoreview::scenario::session::Input;
    let mut gaps = Vec::new();
    for profile in Profile::all() {
        let mut tally = coverage::Coverage::default();
        let mut cited = BTreeSet::new();
        for c in cases::all(profile).unwrap() {
            cited.extend(c.clauses.iter().cloned());
            tally.add(&match &c.scenario {
                Input::One(s) => coverage::call(s, profile).2,
                Input::Session(s) => coverage::session(s, profile).1,
            });
        }
        let missing = tally.missing(profile, &cited);
        if !missing.is_empty() {
            gaps.push(format!("{profile}: {missing:?}"));
        }
        assert!(tally.cases > 60, "{profile}: {} cases", tally.cases);
    }
    assert!(gaps.is_empty(), "{}", gaps.join("\n"));
}

#[test]
fn the_reference_passes_every_fixed_case() {
    for profile in Profile::all() {
        let all = cases::all(profile).unwrap();
        let report = runner::run(
            &mut Reference,
            &all,
            profile,
            runner::Oracle::CaseExpectation,
            &runner::known_failures::Expected::none(),
            &mut |_, _| {},
        );
        let failures: Vec<_> = report
            .results
            .iter()
            .filter(|r| !r.verdict.passed())
            .collect();
        assert!(failures.is_empty(), "{failures:#?}");
        assert_eq!(report.passed(), all.len());
    }
}

#[test]
fn the_judge_reports_a_wrong_text_with_its_pointer_and_severity() {
    use autoreview::runner::{Oracle, Severity};
    let all = cases::all(Profile::BASELINE).unwrap();
    let case = all
        .iter()
        .find(|c| c.id == "BL-15")
        .expect("row BL-15")
        .clone();
    let mut outcome = autoreview::decide(case.call().unwrap(), Profile::BASELINE);
    let judge = |case: &cases::Case, outcome: &autoreview::Outcome, oracle| {
        let outcome = InputOutcome::One(Box::new(outcome.clone()));
        runner::judge(case, &outcome, Profile::BASELINE, oracle, Capabilities::ALL)
    };
    for oracle in [Oracle::CaseExpectation, Oracle::Reference] {
        assert_eq!(judge(&case, &outcome, oracle), Verdict::Pass);
    }
    outcome.result.text = Some("Error: the user rejected tool \"other\"".into());
    for oracle in [Oracle::CaseExpectation, Oracle::Reference] {
        match judge(&case, &outcome, oracle) {
            Verdict::Fail { differences } => {
                assert_eq!(differences.len(), 1, "{differences:?}");
                assert_eq!(differences[0].pointer, "/result/text");
                assert_eq!(differences[0].severity, Severity::Text);
            }
            v => panic!("expected a failure, got {v:?}"),
        }
    }
    outcome.result.executed = true;
    match judge(&case, &outcome, Oracle::Reference) {
        Verdict::Fail { differences } => assert_eq!(differences[0].severity, Severity::Safety),
        v => panic!("expected a failure, got {v:?}"),
    }
    let partial = cases::Case {
        expect: Expectation::Partial(json!({"result": {"executed": false}})),
        ..case
    };
    assert!(matches!(
        judge(&partial, &outcome, Oracle::CaseExpectation),
        Verdict::Fail { .. }
    ));
}

#[test]
fn partial_expectations_match_subsets_arrays_and_prefixes() {
    let actual = json!({"a": {"b": 1, "c": "Error: boom"}, "t": ["x", "y"]});
    assert_eq!(matches_partial(&json!({"a": {"b": 1}}), &actual), Ok(()));
    assert_eq!(
        matches_partial(&json!({"a": {"c": {"$prefix": "Error: "}}}), &actual),
        Ok(())
    );
    assert_eq!(
        matches_partial(&json!({"a": {"c": {"$prefix": "Fail"}}}), &actual),
        Err("/a/c".into())
    );
    assert_eq!(
        matches_partial(&json!({"t": ["x"]}), &actual),
        Err("/t".into())
    );
    assert_eq!(
        matches_partial(&json!({"t": ["x", "z"]}), &actual),
        Err("/t/1".into())
    );
    assert_eq!(
        matches_partial(&json!({"missing": null}), &actual),
        Err("/missing".into())
    );
}

#[test]
fn a_case_file_with_a_typo_names_the_file_and_the_field() {
    let text = r#"{"area": "x", "about": "y", "cases": [{"id": "X-1", "title": "t", "clauses": [], "profiles": ["baseline"], "scenaro": {}, "expect": {}}]}"#;
    let err = cases::file_cases("spec/cases/x.json", text, Profile::BASELINE)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("spec/cases/x.json: "), "{err}");
    assert!(err.contains("scenaro"), "{err}");
}

#[test]
fn case_ids_are_locked_and_a_changed_case_is_caught() {
    use autoreview::ids;
    let current = ids::current().unwrap_or_else(|e| panic!("{e}"));
    let lock = ids::Lock::committed().unwrap();
    let problems = ids::problems(&lock, &current);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        lock.retired.contains_key("BL-1H"),
        "retired IDs stay listed"
    );
    // Same ID, changed content: caught, with the way out named.
    let mut tampered = lock.clone();
    tampered
        .cases
        .insert("RS-F1".into(), "fnv1a64:0000000000000000".into());
    let p = ids::problems(&tampered, &current);
    assert!(
        p.len() == 1 && p[0].starts_with("RS-F1 changed under the same ID"),
        "{p:?}"
    );
    // A retired ID may not come back.
    let mut reused = lock.clone();
    reused.retired.insert("RS-F1".into(), "test".into());
    assert!(
        ids::problems(&reused, &current)
            .iter()
            .any(|p| p.contains("was retired"))
    );
}

/// A session case expects one partial outcome per item, `{"calls": [...]}`: another shape or
/// another number of entries does not load, so an item the outcome lacks cannot go unnoticed.
#[test]
fn a_session_case_expects_one_entry_per_item() {
    let file = |expect: &str| {
        format!(
            r#"{{"area": "s", "about": "", "cases": [{{"id": "S-1", "title": "t", "clauses": ["AR-SESSION-1"], "profiles": ["baseline"],
              "scenario": {{"calls": [{{"tool": {{"name": "a"}}, "reviewer": {{"text": ""}}}}, {{"event": "dispose"}}]}},
              "expect": {expect}}}]}}"#
        )
    };
    let ok = cases::file_cases(
        "s.json",
        &file(r#"{"calls": [{}, {"error": null}]}"#),
        Profile::BASELINE,
    )
    .unwrap();
    assert_eq!(ok.len(), 1);
    assert!(ok[0].call().is_none());
    assert!(ok[0].needs().has(Need::Observable(Observable::Sessions)));
    for (expect, why) in [
        (
            r#"{"calls": [{}]}"#,
            "the session has 2 items and the expectation 1 entries",
        ),
        (
            r#"{"listener": {"kind": "allow"}}"#,
            "a session case expects {\"calls\": [",
        ),
        (
            r#"{"calls": [{}, {}], "id": "S-1"}"#,
            "a session case expects {\"calls\": [",
        ),
    ] {
        let err = cases::file_cases("s.json", &file(expect), Profile::BASELINE)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("s.json: cases[0].expect (case S-1): "),
            "{err}"
        );
        assert!(err.contains(why), "{expect}: {err}");
    }
}

/// A session scenario is written as it is read: its calls without the members that belong to the
/// session, so that the runner sends an adapter a session it can read back.
#[test]
fn a_session_scenario_reads_back_as_written() {
    use autoreview::scenario::session::Input;
    for profile in Profile::all() {
        for case in cases::all(profile).unwrap() {
            let text = serde_json::to_string(&case.scenario).unwrap();
            let back =
                Input::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}: {text}", case.id));
            assert_eq!(back, case.scenario, "{}", case.id);
        }
    }
}

/// No case and no corpus entry names a profile: a case applies to every profile that holds the
/// clauses it cites and follows the rule values it names, a corpus entry to every profile with one
/// of its readers. A case about the baseline's failure denials (AR-DECIDE-1, which the resilient
/// profile replaces) or its requests without a session id (a rule, since the resilient profile
/// keeps AR-REVIEW-12 and amends that part of it) is the baseline's alone; a decision-record fact
/// that holds in both runs in both.
#[test]
fn cases_name_no_profile_and_apply_by_clause_and_rule() {
    for (file, text) in autoreview::embedded::CASE_FILES {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        for c in v["cases"].as_array().unwrap() {
            assert!(
                c.get("profiles").is_none(),
                "{file}: {} names profiles",
                c["id"]
            );
        }
    }
    let index = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/spec/corpus/reviewer-output/index.json"
    ))
    .unwrap();
    let index: serde_json::Value = serde_json::from_str(&index).unwrap();
    for e in index["entries"].as_array().unwrap() {
        assert!(e.get("profiles").is_none(), "{} names profiles", e["id"]);
        assert!(
            e["readers"].as_array().is_some_and(|r| !r.is_empty()),
            "{}",
            e["id"]
        );
    }
    let ids = |p: Profile| -> BTreeSet<String> {
        cases::all(p).unwrap().into_iter().map(|c| c.id).collect()
    };
    let (baseline, resilient) = (ids(Profile::BASELINE), ids(Profile::RESILIENT));
    for only_baseline in ["RN-17", "NUM-1", "SF-22", "RN-25"] {
        assert!(baseline.contains(only_baseline), "{only_baseline}");
        assert!(!resilient.contains(only_baseline), "{only_baseline}");
    }
    for both in ["DR-1", "BD-N1", "SES-9"] {
        assert!(
            baseline.contains(both) && resilient.contains(both),
            "{both}"
        );
    }
    for only_resilient in ["RES-1", "BD-1"] {
        assert!(resilient.contains(only_resilient) && !baseline.contains(only_resilient));
    }
}
