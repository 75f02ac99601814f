//! Generated differential checking in process and over the protocol with the built binary: the
//! reference served over the protocol and the async gate agree with the engine on generated
//! scenarios, the same seed draws the same scenarios, the generator draws only realizable ones,
//! and repro lines reproduce under sh. Tampered Node.js adapters and the rc.3 model under
//! generated cases are in the second tier (`tests/external/generated.rs`).

use crate::common::process::{cli, piped, sh, start};
use autoreview::runner::generated::{self, Plan};
use autoreview::runner::{AsyncGate, Implementation, Verdict, known_failures::Expected};
use autoreview::{Profile, Scenario};
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_autoreview");

/// How many of generated cases `ks` of `seed` also draw a session (for an implementation that
/// observes sessions).
fn sessions_among(seed: u64, ks: impl IntoIterator<Item = usize>) -> usize {
    ks.into_iter()
        .filter(|&k| autoreview::runner::generated_sessions::draws_session(seed, k))
        .count()
}

fn passes_everything(imp: &mut dyn Implementation, profile: Profile, count: usize, seed: u64) {
    let sessions = if imp
        .capabilities()
        .observes(autoreview::capability::Observable::Sessions)
    {
        sessions_among(seed, 0..count)
    } else {
        0
    };
    let run = generated::run(
        imp,
        profile,
        &Plan::new(count, seed),
        &Expected::none(),
        &mut |_, _| {},
    );
    let failed: Vec<_> = run.results.iter().filter(|r| !r.verdict.passed()).collect();
    assert!(failed.is_empty(), "{profile}: {:#?}", failed.first());
    assert!(
        run.results.is_empty(),
        "passing cases are counted, not kept"
    );
    assert_eq!(
        (run.cases, run.passed),
        (count + sessions, count + sessions)
    );
    assert!(run.counterexamples.is_empty());
}

#[test]
fn the_reference_over_the_protocol_agrees_with_the_engine_on_generated_cases() {
    for profile in Profile::all() {
        let mut served = start(vec![BIN.into(), "serve".into()], profile);
        passes_everything(&mut served, profile, 300, 11);
    }
}

#[test]
fn the_async_gate_agrees_with_the_engine_on_generated_cases() {
    for profile in Profile::all() {
        passes_everything(&mut AsyncGate::new().unwrap(), profile, 2000, 12);
    }
}

#[test]
fn the_same_seed_draws_the_same_scenarios() {
    for k in [0, 1, 999] {
        assert_eq!(generated::draw(42, k), generated::draw(42, k));
    }
    let differ = (0..20).filter(|&k| generated::draw(42, k) != generated::draw(43, k));
    assert!(differ.count() > 15, "another seed draws other scenarios");
}

#[test]
fn check_generated_passes_the_reference_and_reports_shards() {
    let json = std::env::temp_dir()
        .join(format!("autoreview-shard-{}.json", std::process::id()))
        .to_string_lossy()
        .into_owned();
    let (code, out) = cli(&[
        "check",
        "--generated",
        "500",
        "--seed",
        "8",
        "--shard",
        "2/3",
        "--report-json",
        &json,
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("shard 2/3"), "{out}");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).unwrap();
    assert_eq!(r["shard"], json!({"index": 2, "of": 3}));
    assert_eq!((&r["generated"], &r["command"]), (&json!(500), &json!([])));
    assert_eq!(
        r["implementation_info"]["name"],
        "autoreview reference engine"
    );
    // Fixed cases and generated ones are both split: about a third of each.
    let total: usize = out
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("PASS — "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let fixed = autoreview::cases::all(Profile::RESILIENT).unwrap().len();
    // Case numbers 0..n with number % 3 == 1 (shard 2 of 3): (n + 1) / 3 of them, and the
    // sessions some of the generated ones draw (the reference observes sessions).
    let sessions = sessions_among(8, (0..500).filter(|k| k % 3 == 1));
    assert!(sessions > 0);
    assert_eq!(total, (fixed + 1) / 3 + (500 + 1) / 3 + sessions, "{out}");
}

/// The generator draws only scenarios the runtime can produce (scenario.md, RZ-1..3), and every
/// rule's neighbourhood is actually drawn, so the check cannot pass by never coming near it. The
/// runner checks every draw too; CI draws a million (`.ci/run`). The properties' strategy draws
/// with the same function (`generate::shrink`'s tests hold it to it).
#[test]
fn the_generator_draws_only_realizable_scenarios() {
    use autoreview::scenario::{CallKind, SchemaCount, realizable};
    let (mut run_code, mut ptc_missing_header, mut unlisted, mut incomplete_route) = (0, 0, 0, 0);
    for k in 0..20_000 {
        let s = generated::draw(5, k);
        assert_eq!(realizable::check(&s), Ok(()), "draw {k}: {s:?}");
        run_code += usize::from(s.tool.call == CallKind::RunCode);
        ptc_missing_header += usize::from(
            s.tool.call == CallKind::PtcInner && s.schema.header == SchemaCount::Missing,
        );
        unlisted += usize::from(!s.session.listed);
        incomplete_route +=
            usize::from(s.session.route.provider.is_empty() || s.session.route.model.is_empty());
    }
    for (what, n) in [
        ("run-code calls", run_code),
        ("ptc-inner calls without a bound schema", ptc_missing_header),
        ("unlisted sessions", unlisted),
        ("incomplete session routes", incomplete_route),
    ] {
        assert!(n > 100, "only {n} {what} in 20000 draws");
    }
}

/// Case loading, `decide` and `serve` read scenarios through one door, which refuses each
/// unrealizable combination by the rule's name.
#[test]
fn unrealizable_scenarios_are_refused_by_rule() {
    for (text, rule) in [
        (
            r#"{"tool":{"name":"bash","call":"run-code"},"reviewer":{"text":""}}"#,
            "RZ-1",
        ),
        (
            r#"{"tool":{"name":"run_code"},"reviewer":{"text":""}}"#,
            "RZ-2",
        ),
        (
            r#"{"tool":{"name":"run_code","call":"ptc-inner"},"reviewer":{"text":""}}"#,
            "RZ-2",
        ),
        (
            r#"{"tool":{"name":"x","call":"ptc-inner"},"schema":"ambiguous","reviewer":{"text":""}}"#,
            "RZ-3",
        ),
        (
            r#"{"tool":{"name":"x","call":"ptc-inner"},"schema":{"header":"ambiguous"},"reviewer":{"text":""}}"#,
            "RZ-3",
        ),
        (
            r#"{"tool":{"name":"x"},"reviewer":{"blocks":[],"finish":null,"data_after_finish":true}}"#,
            "RZ-9",
        ),
    ] {
        let e = Scenario::from_json(text).expect_err(text);
        assert!(e.to_string().contains(rule), "{text}: {e}");
        let e = Scenario::from_value(&serde_json::from_str(text).unwrap()).expect_err(text);
        assert!(e.to_string().contains(rule), "{text}: {e}");
    }
    // Their realizable neighbours are accepted.
    for text in [
        r#"{"tool":{"name":"run_code","call":"run-code"},"reviewer":{"text":""}}"#,
        r#"{"tool":{"name":"x","call":"ptc-inner"},"schema":{"registry":"ambiguous"},"reviewer":{"text":""}}"#,
        r#"{"tool":{"name":"x"},"schema":"ambiguous","reviewer":{"text":""}}"#,
        r#"{"tool":{"name":"x"},"reviewer":{"blocks":[],"finish":null}}"#,
    ] {
        Scenario::from_json(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// The generated run CI makes (20 000 cases, `.ci/run`'s seed) falls under every row of each
/// profile's table, so every clause a row restates is exercised by generated cases; beyond the
/// rows it reaches every other clause of the profile, every side of each numeric limit, every
/// message template and every hostile kind of tool name on each template that inserts a name.
/// The run reports the count of each and names anything left out.
#[test]
fn the_ci_run_exercises_every_clause_limit_and_message_path() {
    for profile in Profile::all() {
        let run = generated::run(
            &mut autoreview::runner::Reference,
            profile,
            &Plan::new(20_000, 20_260_828),
            &Expected::none(),
            &mut |_, _| {},
        );
        let d = &run.distribution;
        let unreached: Vec<&String> = d
            .table_clauses
            .iter()
            .filter(|c| !d.clauses.contains_key(*c))
            .collect();
        assert!(unreached.is_empty(), "{profile}: {unreached:?}");
        assert!(
            d.table_clauses.len() > 20,
            "{profile}: {:?}",
            d.table_clauses
        );
        let rows: std::collections::BTreeSet<String> = d.clauses.keys().cloned().collect();
        let missing = d.reach.missing(profile, &rows);
        assert!(missing.is_empty(), "{profile}: {missing:#?}");
        // Beyond the rows: every reader rule and the review's own rules at least.
        assert!(
            d.reach.clauses.len() >= 40,
            "{profile}: {:?}",
            d.reach.clauses
        );
        let all = autoreview::generate::coverage::profile_clauses(profile)
            .iter()
            .filter(|c| autoreview::generate::coverage::vacuous(c, profile).is_none())
            .count();
        let render = d.render();
        assert!(
            render.contains(&format!(
                "all         {all} of the profile's {all} clauses\n"
            )),
            "{render}"
        );
        let templates = autoreview::generate::coverage::profile_templates(profile).len();
        assert!(
            render.contains(&format!(
                "templates   {templates} of the {templates} message templates\n"
            )),
            "{render}"
        );
        // Every reply shape a reader rule decides on, each whitespace class next to an allow
        // among them, and every session state: said so in the rendered distribution.
        let shapes = autoreview::generate::coverage::shapes::possible(profile).len();
        assert!(
            render.contains(&format!(
                "shapes      {shapes} of the {shapes} reply shapes and session states a rule \
                 decides on\n"
            )),
            "{render}"
        );
        assert!(shapes > 40, "{profile}: {shapes}");
    }
}

/// Both repro lines, pasted into `sh` (dash, whose `echo` reads backslash escapes), give what the
/// reference and the adapter give for the counterexample itself: a tool name and a reviewer
/// reason full of backslashes reach them unchanged.
#[test]
fn both_repro_lines_reproduce_under_sh_with_backslashes() {
    let minimal = json!({
        "tool": {"name": "back\\\\slash\\n"},
        "policy": "ask",
        "reviewer": {"text": r#"{"risk":"high","decision":"deny","reason":"C:\\temp\\new \\u0041"}"#},
        "approval": "rejected",
    });
    let command = [BIN.to_owned(), "serve".to_owned()];
    let f = generated::found(
        generated::FoundKind::Call,
        "GEN-1-0",
        0,
        minimal.clone(),
        &Verdict::Pass,
        Profile::BASELINE,
        &command,
        None,
    );
    let direct = piped(
        &["decide", "--profile", "baseline"],
        &format!("{minimal}\n"),
    );
    assert!(direct.contains(r"back\\\\slash\\n"), "{direct}");
    assert_eq!(sh(&f.repro.reference), direct, "{}", f.repro.reference);
    let implementation = f.repro.implementation.as_deref().unwrap();
    let hello = json!({"type": "hello", "protocol": autoreview::protocol::VERSION, "profile": "baseline", "runner": "repro"});
    let decide = json!({"type": "decide", "seq": 1, "scenario": minimal});
    let direct = piped(&["serve"], &format!("{hello}\n{decide}\n"));
    assert_eq!(direct.lines().count(), 2, "{direct}");
    assert_eq!(sh(implementation), direct, "{implementation}");
}
