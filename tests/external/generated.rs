//! Generated differential checking against Node.js adapters: tampered adapters, one per severity
//! and one wrong only in a rare corner, are caught within a stated number of cases and shrunk to
//! scenarios that name only what matters; the rc.3 model's five defects are each found by
//! generated cases alone; shards are disjoint; repro lines send what they say.

use crate::common::process::{cli, piped, sh, start};
use std::collections::BTreeSet;

use autoreview::runner::generated::{self, Plan};
use autoreview::runner::shard::Shard;
use autoreview::runner::subprocess::Subprocess;
use autoreview::runner::{self, Oracle, Severity, Verdict, known_failures::Expected};
use autoreview::{Profile, Scenario, cases};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_autoreview");
const TAMPER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/tamper.js");
const RC3: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/adapters/node/rc3-model.js");

/// `autoreview serve` behind `tests/adapters/tamper.js` in one of its modes.
fn tamper(mode: &str, profile: Profile) -> Subprocess {
    start(
        vec!["node".into(), TAMPER.into(), BIN.into(), mode.into()],
        profile,
    )
}

/// The top-level members of a shrunk scenario.
fn members(s: &Scenario) -> BTreeSet<String> {
    match generated::sparse(s) {
        Value::Object(m) => m.keys().cloned().collect(),
        _ => BTreeSet::new(),
    }
}

/// Runs `count` generated cases against a tampered adapter: the tampering must be caught with
/// `severity` as the worst difference of some counterexample, whose members are all in `allowed`.
fn caught(mode: &str, severity: Severity, count: usize, allowed: &[&str]) {
    let profile = Profile::RESILIENT;
    let mut imp = tamper(mode, profile);
    let run = generated::run(
        &mut imp,
        profile,
        &Plan::new(count, 3),
        &Expected::none(),
        &mut |_, _| {},
    );
    let failures = run.results.iter().filter(|r| !r.verdict.passed()).count();
    assert!(
        failures > 0,
        "{mode}: not caught in {count} generated cases"
    );
    // One counterexample per violated clause: the defect's own clause is shrunk to what it
    // needs, while another clause the same cases break may need more of the scenario.
    let allowed: BTreeSet<String> = allowed.iter().map(|s| (*s).to_owned()).collect();
    let with_severity: Vec<_> = run
        .counterexamples
        .iter()
        .filter(|c| c.verdict.worst() == Some(severity))
        .collect();
    assert!(
        !with_severity.is_empty(),
        "{mode}: no counterexample with {severity}: {:#?}",
        run.counterexamples
    );
    assert!(
        with_severity
            .iter()
            .any(|c| members(c.call().expect("a call")).is_subset(&allowed)),
        "{mode}: every counterexample with {severity} names more than {allowed:?}: {:?}",
        with_severity
            .iter()
            .map(|c| c.minimal_json().to_string())
            .collect::<Vec<_>>()
    );
}

/// The case that first shows the defect differs in the decision on its own input, and is
/// reported at `severity` by the difference the search found beside it, which says what it
/// changed and who let the body run (`who`).
fn shown_at(first: &autoreview::runner::CaseResult, severity: Severity, who: &str) {
    let autoreview::runner::Verdict::Fail { differences } = &first.verdict else {
        panic!("{first:#?}")
    };
    let (own, shown): (Vec<_>, Vec<_>) = differences.iter().partition(|d| {
        !d.rule
            .as_deref()
            .is_some_and(|r| r.starts_with("shown when "))
    });
    assert_eq!(
        own.iter().map(|d| d.severity).min(),
        Some(Severity::Decision),
        "the first case that shows it only differs in the decision: {first:#?}"
    );
    assert!(
        !shown.is_empty()
            && shown
                .iter()
                .all(|d| d.severity == severity
                    && d.rule.as_deref().is_some_and(|r| r.contains(who))),
        "{first:#?}"
    );
    assert_eq!(first.verdict.worst(), Some(severity));
}

/// A difference at `pointer` in a verdict.
fn difference<'a>(v: &'a Verdict, pointer: &str) -> Option<&'a autoreview::runner::Difference> {
    match v {
        Verdict::Fail { differences } => differences.iter().find(|d| d.pointer == pointer),
        _ => None,
    }
}

#[test]
fn shards_are_disjoint_and_cover_the_run() {
    let plan = |shard: Shard| Plan {
        shard,
        ..Plan::new(1000, 5)
    };
    let ids = |shard: Shard| -> BTreeSet<usize> { plan(shard).cases().collect() };
    let whole = ids(Shard::ALL);
    let parts: Vec<_> = (1..=3).map(|i| ids(Shard { index: i, of: 3 })).collect();
    assert_eq!(whole, (0..1000).collect());
    let union: BTreeSet<usize> = parts.iter().flatten().copied().collect();
    assert_eq!(union, whole);
    assert_eq!(
        parts.iter().map(BTreeSet::len).sum::<usize>(),
        1000,
        "shards overlap"
    );
    // A run takes exactly its shard's cases: a tampered adapter fails some, and every failure
    // it reports is one of the shard's, counted with the passes to the shard's size.
    for i in 1..=3 {
        let shard = Shard { index: i, of: 3 };
        let mut imp = tamper("decision", Profile::RESILIENT);
        let run = generated::run(
            &mut imp,
            Profile::RESILIENT,
            &Plan {
                max_counterexamples: 0,
                ..plan(shard)
            },
            &Expected::none(),
            &mut |_, _| {},
        );
        // The shard's single calls, and the sessions some of the same cases draw.
        let mine: BTreeSet<String> = ids(shard)
            .into_iter()
            .flat_map(|k| {
                let session = autoreview::runner::generated_sessions::draws_session(5, k)
                    .then(|| autoreview::runner::generated_sessions::case_id(5, k));
                std::iter::once(generated::case_id(5, k)).chain(session)
            })
            .collect();
        assert!(!run.results.is_empty());
        assert!(run.results.iter().all(|r| mine.contains(&r.id)));
        assert_eq!(run.cases, mine.len());
        assert_eq!(run.passed + run.results.len(), mine.len());
    }
}

#[test]
fn a_tampered_adapter_of_each_severity_is_caught_and_shrunk() {
    // Each within 400 generated cases (seed 3), each shrunk to the members its region needs.
    // A final denial comes from the policy never or from `on_failure: deny`: either is minimal.
    caught(
        "safety",
        Severity::Safety,
        400,
        &["tool", "reviewer", "policy", "downstream", "config"],
    );
    caught(
        "decision",
        Severity::Decision,
        400,
        &["tool", "reviewer", "downstream"],
    );
    caught(
        "order",
        Severity::Order,
        400,
        &["tool", "reviewer", "downstream", "approval"],
    );
    caught(
        "text",
        Severity::Text,
        400,
        &["tool", "reviewer", "downstream", "approval"],
    );
    caught("info", Severity::Info, 400, &["tool", "reviewer", "policy"]);
}

/// AR-TOL-10: a gate that extracts an allow from the words around it runs bodies that a refusal
/// in words should have guarded. The fixed cases written for it and generated cases alone both
/// catch it at SAFETY, and shrinking keeps only the reply.
#[test]
fn a_gate_that_extracts_an_allow_from_prose_is_caught_at_safety() {
    let profile = Profile::RESILIENT;
    let mut imp = tamper("extract-allow", profile);
    let report = runner::run(
        &mut imp,
        &cases::all(profile).unwrap(),
        profile,
        Oracle::Reference,
        &Expected::none(),
        &mut |_, _| {},
    );
    for id in ["RES-29", "RES-30"] {
        let r = report.results.iter().find(|r| r.id == id).unwrap();
        assert_eq!(
            r.verdict.worst(),
            Some(Severity::Safety),
            "{id}: {:?}",
            r.verdict
        );
    }
    caught(
        "extract-allow",
        Severity::Safety,
        400,
        &["tool", "reviewer"],
    );
}

/// A defect that can run a body is reported as the body run it is, even when the case that first
/// shows it only differs in the decision: a gate that asks the user where the reviewer's denial
/// must be final runs the body once the user allows, and shrinking goes there before it shrinks.
/// Someone allowed, where the spec asks nobody: BOUNDS, not SAFETY.
#[test]
fn a_defect_that_can_run_a_body_is_reported_as_the_body_run_it_is() {
    const WHO: &str = "a human's allow where the spec asks nobody";
    let profile = Profile::RESILIENT;
    let mut imp = tamper("ask-not-deny", profile);
    let run = generated::run(
        &mut imp,
        profile,
        &Plan {
            max_counterexamples: 1,
            ..Plan::new(400, 1)
        },
        &Expected::none(),
        &mut |_, _| {},
    );
    let first = run
        .results
        .iter()
        .find(|r| !r.verdict.passed())
        .expect("the defect is found");
    shown_at(first, Severity::Bounds, WHO);
    let c = &run.counterexamples[0];
    assert_eq!(c.verdict.worst(), Some(Severity::Bounds), "{c:#?}");
    assert_eq!(
        c.call().expect("a call").approval,
        autoreview::scenario::ApprovalAnswer::AllowedOnce
    );
    // A session that shows it is taken to BOUNDS the same way, and shrunk from there.
    let first = run
        .results
        .iter()
        .find(|r| r.id.contains("-S") && !r.verdict.passed())
        .expect("a session shows the defect");
    shown_at(first, Severity::Bounds, WHO);
    let c = run
        .counterexamples
        .iter()
        .find(|c| c.session().is_some())
        .expect("a session counterexample");
    assert_eq!(c.verdict.worst(), Some(Severity::Bounds), "{c:#?}");
    assert!(
        c.session().unwrap().calls.iter().any(|i| matches!(i,
            autoreview::scenario::session::Item::Call(c)
                if c.approval == autoreview::scenario::ApprovalAnswer::AllowedOnce)),
        "{}",
        c.minimal_json()
    );
}

#[test]
fn a_defect_in_a_rare_corner_is_found_and_shrunk_to_that_corner() {
    // never + a caller cancelling during the review + a denial with a reason: about one case in
    // three hundred; 3000 cases find it.
    let profile = Profile::RESILIENT;
    let mut imp = tamper("rare", profile);
    let wanted = |_: &Scenario, v: &Verdict| {
        difference(v, "/result/text")
            .is_some_and(|d| d.actual.as_str().is_some_and(|t| t.ends_with("(tampered)")))
    };
    let (k, c) = generated::search(&mut imp, profile, 9, 3000, &wanted, 2000)
        .expect("the rare defect is found within 3000 generated cases");
    let minimal = c.minimal_json();
    assert_eq!(minimal["abort"], json!("caller-during-review"), "{minimal}");
    assert!(
        minimal["reviewer"].to_string().contains("reason"),
        "{minimal}"
    );
    let allowed: BTreeSet<String> = ["tool", "reviewer", "policy", "abort"]
        .map(str::to_owned)
        .into();
    assert!(
        members(c.call().expect("a call")).is_subset(&allowed),
        "case {k}: {minimal}"
    );
}

#[test]
fn generated_cases_alone_find_each_of_the_rc3_defects() {
    let profile = Profile::RESILIENT;
    let mut rc3 = start(vec!["node".into(), RC3.into()], profile);
    type Wanted = Box<dyn Fn(&Scenario, &Verdict) -> bool>;
    let defects: Vec<(&str, Wanted)> = vec![
        (
            "1: a reviewer failure denies before anyone is asked",
            Box::new(|s, v| {
                difference(v, "/listener/kind")
                    .is_some_and(|d| d.expected == json!("ask") && d.actual == json!("deny"))
                    && autoreview::decide(s, Profile::RESILIENT)
                        .review
                        .failure
                        .is_some()
            }),
        ),
        (
            "2: a fenced or prose-wrapped decision is a parse failure",
            Box::new(|s, v| {
                difference(v, "/review/failure")
                    .is_some_and(|d| d.expected.is_null() && d.actual["class"] == json!("protocol"))
                    && autoreview::decide(s, Profile::RESILIENT).listener.is_some()
            }),
        ),
        (
            "3: the configured reviewer route is ignored",
            Box::new(|s, v| {
                s.config.reviewer_route.is_some() && difference(v, "/review/routes").is_some()
            }),
        ),
        (
            "4: a schema missing from the header is terminal though the registry has it",
            Box::new(|_, v| {
                difference(v, "/review/failure")
                    .is_some_and(|d| d.expected.is_null() && d.actual["class"] == json!("schema"))
            }),
        ),
        (
            "5: an object message becomes [object Object]",
            Box::new(|_, v| {
                difference(v, "/review/failure/message").is_some_and(|d| {
                    d.actual
                        .as_str()
                        .is_some_and(|m| m.contains("[object Object]"))
                })
            }),
        ),
    ];
    for (defect, wanted) in &defects {
        let (k, c) = generated::search(&mut rc3, profile, 2024, 3000, wanted.as_ref(), 2000)
            .unwrap_or_else(|| panic!("defect {defect}: not found in 3000 generated cases"));
        let minimal = c.minimal_json();
        assert!(
            members(c.call().expect("a call")).len() <= 5,
            "defect {defect}: case {k} shrank only to {minimal}"
        );
        eprintln!(
            "defect {defect}: case {k}, shrunk in {} steps to {minimal}",
            c.steps
        );
    }
}

#[test]
fn check_generated_prints_the_distribution_counterexamples_repro_lines_and_freezes_them() {
    let dir = std::env::temp_dir().join(format!("autoreview-freeze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dir_arg = dir.to_string_lossy().into_owned();
    let json = dir.join("r.json").to_string_lossy().into_owned();
    let (code, out) = cli(&[
        "check",
        "--profile",
        "resilient",
        "--generated",
        "300",
        "--seed",
        "3",
        "--no-fixed",
        "--max-counterexamples",
        "1",
        "--freeze",
        &dir_arg,
        "--report-json",
        &json,
        "--",
        "node",
        TAMPER,
        BIN,
        "decision",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("generated: seed 3"), "{out}");
    assert!(out.contains("rows"), "the distribution summary: {out}");
    assert!(out.contains("counterexample from GEN-3-"), "{out}");
    assert!(out.contains("DECISION /listener/kind"), "{out}");
    assert!(
        out.contains("| autoreview decide --profile resilient"),
        "a repro line: {out}"
    );
    assert!(out.contains("tamper.js"), "the adapter's repro line: {out}");
    assert!(out.lines().last().unwrap().starts_with("FAIL — "), "{out}");
    // The JSON report keeps the counterexample with the repro lines the terminal printed, and
    // what tells this run apart from another: the command, the generated count, no shard.
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(
        r["command"],
        serde_json::json!(["node", TAMPER, BIN, "decision"])
    );
    assert_eq!((&r["generated"], &r["shard"]), (&json!(300), &json!(null)));
    // One call and one session (at most one of each kind of difference, each of them).
    let found = r["counterexamples"].as_array().unwrap();
    let kinds: Vec<&Value> = found.iter().map(|f| &f["kind"]).collect();
    assert_eq!(kinds, [&json!("call"), &json!("session")], "{found:?}");
    for f in found {
        assert_eq!(f["verdict"], "fail");
        let label = if f["kind"] == "call" { "" } else { "session " };
        let id = f["id"].as_str().unwrap();
        assert!(
            out.contains(&format!("\n{label}counterexample from {id} ")),
            "{out}"
        );
        for line in ["reference", "implementation"] {
            let repro = f["repro"][line].as_str().unwrap();
            assert!(
                out.contains(&format!("  {line}: {repro}\n")),
                "{repro}\n{out}"
            );
        }
        assert!(
            f["differences"]
                .as_array()
                .unwrap()
                .iter()
                .any(
                    |d| d["pointer"].as_str().unwrap().ends_with("/listener/kind")
                        && d["severity"] == "DECISION"
                ),
            "{f}"
        );
    }
    // A failing generated call names the table row it falls under, and that row's clauses; a
    // session names none.
    let table = autoreview::table::Table::load(Profile::RESILIENT).unwrap();
    for res in r["results"].as_array().unwrap() {
        if res["id"].as_str().unwrap().contains("-S") {
            assert_eq!(res.get("row"), None, "{res}");
            continue;
        }
        let row = table
            .rows
            .iter()
            .find(|row| res["row"] == row.id.as_str())
            .unwrap_or_else(|| panic!("a row for {res}"));
        assert_eq!(res["clauses"], json!(row.clauses), "{res}");
    }
    // The frozen file is a case file the fixed-case loader reads, its case the shrunk scenario.
    let frozen = dir.join("generated-3-resilient.json");
    let text = std::fs::read_to_string(&frozen).unwrap();
    let cases =
        autoreview::cases::file_cases("generated-3-resilient.json", &text, Profile::RESILIENT)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(cases.len(), 2, "the call and the session: {text}");
    assert!(cases.iter().all(|c| c.id.starts_with("GX-")), "{text}");
    assert!(!cases[0].clauses.is_empty());
    assert!(cases[0].call().is_some());
    assert!(
        cases[1].call().is_none()
            && cases[1]
                .needs()
                .observes(autoreview::capability::Observable::Sessions),
        "the session is frozen too: {text}"
    );
    assert_eq!(cases[1].clauses, ["AR-SESSION-2"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A gate that counts failures per call instead of per session passes every single call; only
/// generated sessions catch it, and shrinking drops items down to the two calls that show it.
#[test]
fn generated_sessions_catch_a_count_that_is_not_carried_and_shrink_by_dropping_items() {
    use autoreview::scenario::session::Item;
    let mut imp = tamper("forget-count", Profile::RESILIENT);
    let run = generated::run(
        &mut imp,
        Profile::RESILIENT,
        &Plan::new(400, 11),
        &Expected::none(),
        &mut |_, _| {},
    );
    let failed: Vec<&str> = run
        .results
        .iter()
        .filter(|r| !r.verdict.passed())
        .map(|r| r.id.as_str())
        .collect();
    assert!(!failed.is_empty(), "no generated session caught it");
    assert!(
        failed.iter().all(|id| id.contains("-S")),
        "a single call failed: {failed:?}"
    );
    let c = run
        .counterexamples
        .first()
        .expect("a shrunk session counterexample");
    assert!(
        run.counterexamples.iter().all(|c| c.session().is_some()),
        "a single call was shrunk: {:#?}",
        run.counterexamples
    );
    let session = c.session().expect("a session");
    let calls = session
        .calls
        .iter()
        .filter(|i| matches!(i, Item::Call(_)))
        .count();
    assert_eq!((session.calls.len(), calls), (2, 2), "{}", c.minimal_json());
    // Items were dropped: some session shrunk to two calls was drawn with more.
    let drawn_len = |c: &generated::Counterexample| {
        let k: usize = c.id.rsplit("-S").next().unwrap().parse().unwrap();
        autoreview::runner::generated_sessions::draw(11, k)
            .calls
            .len()
    };
    assert!(
        run.counterexamples
            .iter()
            .any(|c| drawn_len(c) > 2 && c.session().is_some_and(|s| s.calls.len() == 2)),
        "{:?}",
        run.counterexamples
            .iter()
            .map(|c| (&c.id, drawn_len(c)))
            .collect::<Vec<_>>()
    );
    let rendered = generated::render(c, Profile::RESILIENT, &[]);
    assert!(
        rendered.contains("/calls/1/review/consecutive_failures"),
        "{rendered}"
    );
}

/// The implementation's repro line sends an adapter that reads canonical scenarios (both kits do)
/// the decide line a run sends it: the kit answers it with an outcome deciding as the reference
/// does, not with an error for a scenario it cannot read.
#[test]
fn the_repro_line_of_a_canonical_adapter_sends_the_canonical_scenario() {
    let minimal = json!({"tool": {"name": "pwsh"}, "reviewer": {"text": "not json"}});
    let input = autoreview::scenario::session::Input::from_json(&minimal.to_string()).unwrap();
    let command = [
        "node".to_owned(),
        concat!(env!("CARGO_MANIFEST_DIR"), "/adapters/node/skeleton.js").to_owned(),
    ];
    let repro = |canonical| {
        generated::found(
            generated::FoundKind::Call,
            "GEN-1-0",
            0,
            minimal.clone(),
            &Verdict::Pass,
            Profile::RESILIENT,
            &command,
            canonical,
        )
        .repro
        .implementation
        .unwrap()
    };
    let reply = |line: &str| -> serde_json::Value {
        let out = sh(line);
        let last = out.lines().last().unwrap_or_default().to_owned();
        serde_json::from_str(&last).unwrap_or_else(|e| panic!("{e}: {out}"))
    };
    let sent = reply(&repro(Some(&input)));
    assert_eq!(sent["type"], "outcome", "{sent}");
    let reference = piped(
        &["decide", "--profile", "resilient"],
        &format!("{minimal}\n"),
    );
    let reference: serde_json::Value = serde_json::from_str(reference.trim()).unwrap();
    // The gate decided it as the reference does; its texts are its own to word.
    assert_eq!(
        sent["outcome"]["listener"]["kind"], reference["listener"]["kind"],
        "{sent}"
    );
    assert_eq!(reference["listener"]["kind"], "ask", "{reference}");
    // As written, the kit cannot read it: what the repro line used to send.
    assert_eq!(reply(&repro(None))["type"], "error");
}
