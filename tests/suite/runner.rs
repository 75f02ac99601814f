//! The runner against adapters the suite serves itself (`autoreview serve`): the reference served
//! over the protocol passes everything, and what an adapter observes decides which cases it is
//! sent. Broken adapters written in Node.js — crashing, stalling, printing garbage, speaking
//! another protocol — are in the second tier (`tests/external/runner.rs`).

use crate::common::runner::{check, every_case_passes, mixed_cases, quick};

use autoreview::runner::subprocess::{Limits, Subprocess};
use autoreview::runner::{Severity, Status};
use autoreview::{Profile, cases};

const BIN: &str = env!("CARGO_BIN_EXE_autoreview");

#[test]
fn the_reference_served_over_the_protocol_passes_every_case() {
    for profile in Profile::all() {
        let all = cases::all(profile).unwrap();
        assert!(
            all.iter().any(|c| c.call().is_none()),
            "{profile}: the fixed cases hold session cases"
        );
        let report = check(
            vec![BIN.into(), "serve".into()],
            profile,
            &all,
            Limits::default(),
        );
        let bad: Vec<_> = report
            .results
            .iter()
            .filter(|r| r.status != Status::Pass)
            .collect();
        assert!(bad.is_empty(), "{profile}: {bad:#?}");
        assert_eq!(report.passed(), all.len());
        assert!(report.implementation.contains("autoreview-reference"));
    }
}

/// `--only`/`--skip` select by ID (with `*`), area, clause ID and decision-table feature; a clause
/// selects exactly the cases that cite it, not those of a longer clause ID.
#[test]
fn selectors_name_ids_areas_clauses_and_features() {
    use autoreview::runner::select::{Selector, select};
    let profile = Profile::RESILIENT;
    let all = cases::all(profile).unwrap();
    let pick = |only: &[&str], skip: &[&str]| -> Vec<String> {
        let p = |v: &[&str]| {
            v.iter()
                .map(|s| Selector::parse(s).unwrap())
                .collect::<Vec<_>>()
        };
        select(all.clone(), &p(only), &p(skip), profile)
            .unwrap()
            .into_iter()
            .map(|c| c.id)
            .collect()
    };
    assert_eq!(pick(&["RS-7"], &[]), ["RS-7"]);
    let clause = pick(&["AR-TOL-1"], &[]);
    let citing: Vec<String> = all
        .iter()
        .filter(|c| c.clauses.iter().any(|k| k == "AR-TOL-1"))
        .map(|c| c.id.clone())
        .collect();
    assert!(!citing.is_empty());
    assert_eq!(clause, citing, "AR-TOL-1 must not select AR-TOL-10's cases");
    let incidents = pick(&["incidents"], &[]);
    assert!(!incidents.is_empty());
    assert!(
        all.iter()
            .filter(|c| c.area == "incidents")
            .all(|c| incidents.contains(&c.id))
    );
    assert_eq!(
        incidents.len(),
        all.iter().filter(|c| c.area == "incidents").count()
    );
    let failures = pick(&["reviewer=failure"], &["RS-*"]);
    assert!(!failures.is_empty() && failures.iter().all(|id| !id.starts_with("RS-")));
    for id in &failures {
        let c = all.iter().find(|c| &c.id == id).unwrap();
        assert_eq!(
            autoreview::table::features::of(c.call().unwrap(), profile).reviewer,
            autoreview::table::ReviewerClass::Failure,
            "{id}"
        );
    }
    let everything = pick(&[], &[]);
    assert_eq!(everything.len(), all.len());
    assert_eq!(pick(&[], &["incidents"]).len(), all.len() - incidents.len());
}

#[test]
fn a_body_run_recorded_only_in_the_trace_is_a_safety_difference() {
    use autoreview::outcome::Event;
    use autoreview::runner::compare::compare;
    let denied: autoreview::Scenario = serde_json::from_value(serde_json::json!({
        "tool": {"name": "pwsh"}, "policy": "ask", "approval": "rejected",
        "reviewer": {"text": "{\"risk\":\"high\",\"decision\":\"deny\"}"}
    }))
    .unwrap();
    let reference = autoreview::decide(&denied, Profile::BASELINE);
    assert!(!reference.result.executed);
    let mut ran = reference.clone();
    ran.trace.push(Event::Body);
    let d = compare(&reference, &ran);
    assert_eq!(
        (d[0].severity, d[0].pointer.as_str()),
        (Severity::Safety, "/trace"),
        "{d:#?}"
    );

    let allowed_once: autoreview::Scenario = serde_json::from_value(serde_json::json!({
        "tool": {"name": "pwsh"}, "policy": "ask", "approval": "allowed-once",
        "reviewer": {"text": "{\"risk\":\"high\",\"decision\":\"deny\"}"}
    }))
    .unwrap();
    let reference = autoreview::decide(&allowed_once, Profile::BASELINE);
    assert!(reference.result.executed);
    let mut twice = reference.clone();
    twice.trace.push(Event::Body);
    let d = compare(&reference, &twice);
    assert_eq!(
        d[0].severity,
        Severity::Safety,
        "a second run of the body: {d:#?}"
    );
    // Reordering alone stays an ORDER difference.
    let mut reordered = reference.clone();
    reordered.trace.swap(0, 1);
    let d = compare(&reference, &reordered);
    assert_eq!(d[0].severity, Severity::Order, "{d:#?}");
}

#[test]
fn a_member_a_decision_kind_does_not_have_is_refused() {
    let outcome = |listener: serde_json::Value| {
        let mut o = serde_json::to_value(autoreview::decide(
            &serde_json::from_value(
                serde_json::json!({"tool": {"name": "a"}, "reviewer": {"text": ""}}),
            )
            .unwrap(),
            Profile::BASELINE,
        ))
        .unwrap();
        o["listener"] = listener;
        serde_json::from_value::<autoreview::Outcome>(o)
    };
    assert!(outcome(serde_json::json!({"kind": "deny", "reason": "r"})).is_ok());
    for bad in [
        serde_json::json!({"kind": "allow", "note": "unknown member"}),
        serde_json::json!({"kind": "allow", "reason": "allows have none"}),
        serde_json::json!({"kind": "cancel", "reason": "cancels have none"}),
        serde_json::json!({"kind": "deny", "reason": "r", "display_reason": {"en": "e", "zh": "z"}}),
        serde_json::json!({"kind": "ask", "info": {}}),
        serde_json::json!({"kind": "deny"}),
    ] {
        assert!(outcome(bad.clone()).is_err(), "{bad} should be refused");
    }
}

/// Difference paths are RFC 6901 pointers: `~` in a member name is written `~0` and `/` is
/// written `~1`, so a pointer leads back to the one member it names.
#[test]
fn difference_pointers_escape_tilde_and_slash() {
    use autoreview::runner::compare::compare;
    let key = "a/b~1c";
    let scenario: autoreview::Scenario = serde_json::from_value(serde_json::json!({
        "tool": {"name": "a"},
        "downstream": {"kind": "deny", "reason": "r", "info": {key: 1}},
        "reviewer": {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}
    }))
    .unwrap();
    let reference = autoreview::decide(&scenario, Profile::BASELINE);
    let mut actual = serde_json::to_value(&reference).unwrap();
    actual["listener"]["info"][key] = 2.into();
    let actual: autoreview::Outcome = serde_json::from_value(actual).unwrap();
    let d = compare(&reference, &actual);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].pointer, "/listener/info/a~1b~01c");
    assert_eq!(d[0].severity, Severity::Info);
    let actual_json = serde_json::to_value(&actual).unwrap();
    assert_eq!(actual_json.pointer(&d[0].pointer), Some(&2.into()));
    // A case's partial expectation names the same pointer.
    let want = serde_json::json!({"result": {"info": {key: 1}}});
    assert_eq!(
        cases::matches_partial(&want, &actual_json),
        Ok(()),
        "only the listener's info changed"
    );
    let want = serde_json::json!({"listener": {"info": {key: 1}}});
    assert_eq!(
        cases::matches_partial(&want, &actual_json),
        Err("/listener/info/a~1b~01c".to_owned())
    );
}

/// A reply the runner cannot read is named with what to do, as a scenario is: a hello written
/// with a byte-order mark (as some UTF-8 encoders write by default), a reply that is an array.
#[test]
fn a_reply_line_that_is_not_readable_json_is_named() {
    let hello = r#"{"type":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"sh"},"profiles":["baseline"]}"#;
    let adapter = |first: &str| {
        vec![
            "sh".into(),
            "-c".into(),
            format!("printf '%s\\n' '{first}'; read line; sleep 5"),
        ]
    };
    let err = Subprocess::start(
        adapter(&format!("\u{feff}{hello}")),
        Profile::BASELINE,
        quick(),
    )
    .err()
    .expect("the handshake fails")
    .to_string();
    assert!(
        err.contains(
            "its first line is not a hello reply (the text starts with a byte-order mark (U+FEFF); remove it"
        ),
        "{err}"
    );
    let err = Subprocess::start(adapter(&format!("[{hello}]")), Profile::BASELINE, quick())
        .err()
        .expect("the handshake fails")
        .to_string();
    assert!(
        err.contains(
            "its first line is not a hello reply (a reply is a JSON object, not an array)"
        ),
        "{err}"
    );
}

/// Case files are read with the scenario's messages too: a byte-order mark, a negative number.
#[test]
fn case_files_name_unreadable_text_and_negative_numbers() {
    let file = |scenario: &str| {
        format!(
            r#"{{"area":"x","about":"","cases":[{{"id":"X-1","title":"t","clauses":["AR-DECIDE-4"],"profiles":["baseline"],"scenario":{scenario},"expect":{{}}}}]}}"#
        )
    };
    let good = file(r#"{"tool":{"name":"a"},"reviewer":{"text":""}}"#);
    assert_eq!(
        cases::file_cases("x.json", &good, Profile::BASELINE)
            .unwrap()
            .len(),
        1
    );
    let err = cases::file_cases("x.json", &format!("\u{feff}{good}"), Profile::BASELINE)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("x.json: the text starts with a byte-order mark (U+FEFF)"),
        "{err}"
    );
    let err = cases::file_cases(
        "x.json",
        &file(
            r#"{"tool":{"name":"a"},"reviewer":{"text":""},"session":{"consecutive_failures":-4}}"#,
        ),
        Profile::BASELINE,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with(
            "x.json: cases[0].scenario (case X-1): session.consecutive_failures: -4 is negative; give a whole number"
        ),
        "{err}"
    );
    let err = cases::file_cases(
        "x.json",
        &file(r#"{"tool":{"name":"\ud800"},"reviewer":{"text":""}}"#),
        Profile::BASELINE,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with(r"x.json: cases[0].scenario.tool.name: \ud800 is a lone surrogate escape"),
        "{err}"
    );
}

/// `serve` observes everything: the same cases all pass over protocol 2, the session cases'
/// outcomes compared item by item and the requests compared where a case pins them.
#[test]
fn serve_passes_session_log_fact_and_requests_cases() {
    for profile in Profile::all() {
        let cases = mixed_cases(profile);
        let report = check(vec![BIN.into(), "serve".into()], profile, &cases, quick());
        assert_eq!(report.protocol, Some(2));
        every_case_passes(&report, profile.as_str());
        assert_eq!(report.passed(), cases.len());
    }
}

/// An adapter started by `sh -c`: its hello answers `hello` (a JSON object without `type` and
/// `protocol`, which are added), after writing the runner's hello line to `heard`.
fn answering(hello: &str, heard: &std::path::Path) -> Vec<String> {
    vec![
        "sh".into(),
        "-c".into(),
        format!(
            "read line; printf '%s\\n' \"$line\" > '{}'; printf '%s\\n' '{{\"type\":\"hello\",\"protocol\":2,\"implementation\":{{\"name\":\"x\",\"version\":\"1\",\"language\":\"sh\"}},{}}}'; read line; sleep 5",
            heard.display(),
            hello
        ),
    ]
}

/// The runner's hello tells the adapter the profile's reader, rules and the configuration it
/// reads (spec/protocol.md, "Rules"), so that a gate decides by rule; an adapter that lists the
/// rule values it implements is checked against every profile whose values it lists, whatever
/// the profile's name, and one that lacks a value is told which.
#[test]
fn a_gate_that_decides_by_rule_is_told_the_rules_and_checked_against_any_profile_it_covers() {
    let dir = crate::shared_dir::fresh("handshake-rules");
    let heard = dir.join("hello.json");
    let every: std::collections::BTreeMap<String, Vec<serde_json::Value>> = {
        let mut every = std::collections::BTreeMap::<String, Vec<serde_json::Value>>::new();
        for p in Profile::all() {
            for (name, value) in p.wire_rules().values() {
                let values = every.entry(name).or_default();
                if !values.contains(&value) {
                    values.push(value);
                }
            }
        }
        every
    };
    let rules = serde_json::to_string(&every).unwrap();
    for profile in Profile::all() {
        // No profile by name: the rules alone admit it.
        Subprocess::start(
            answering(&format!(r#""profiles":[],"rules":{rules}"#), &heard),
            profile,
            quick(),
        )
        .unwrap_or_else(|e| panic!("{profile}: {e}"));
        let line: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&heard).unwrap()).unwrap();
        assert_eq!(line["profile"], profile.as_str());
        assert_eq!(
            line["rules"],
            serde_json::to_value(profile.wire_rules()).unwrap(),
            "{profile}"
        );
        assert_eq!(
            line["rules"]["reader"],
            serde_json::to_value(profile.reader()).unwrap()
        );
        assert_eq!(line["rules"]["config"], serde_json::json!(profile.config));
    }
    // The baseline's reader alone: the resilient profile's tolerant reader is what it lacks.
    let mut strict_only = every.clone();
    strict_only.insert("reader".into(), vec![serde_json::json!("strict")]);
    let strict_only = serde_json::to_string(&strict_only).unwrap();
    Subprocess::start(
        answering(&format!(r#""profiles":[],"rules":{strict_only}"#), &heard),
        Profile::BASELINE,
        quick(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let err = Subprocess::start(
        answering(&format!(r#""profiles":[],"rules":{strict_only}"#), &heard),
        Profile::RESILIENT,
        quick(),
    )
    .err()
    .expect("the handshake fails")
    .to_string();
    assert!(
        err.contains(
            "or implement and list in its `rules` what resilient needs and it lacks: reader \"tolerant\""
        ),
        "{err}"
    );
    // Named, the profile needs no rules.
    Subprocess::start(
        answering(
            &format!(r#""profiles":["resilient"],"rules":{strict_only}"#),
            &heard,
        ),
        Profile::RESILIENT,
        quick(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // A rule no profile has is named, with the ones there are.
    let err = Subprocess::start(
        answering(
            r#""profiles":["baseline"],"rules":{"colour":["blue"]}"#,
            &heard,
        ),
        Profile::BASELINE,
        quick(),
    )
    .err()
    .expect("the handshake fails")
    .to_string();
    assert!(
        err.contains("its hello's `rules` names the rule \"colour\", which no profile has (expected some of reader, failure_text, "),
        "{err}"
    );
}
