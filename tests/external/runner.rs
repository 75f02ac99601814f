//! The runner against adapters written in Node.js: broken ones — crashing, stalling, printing
//! garbage, speaking another protocol — are reported as broken, never as passing, without stopping
//! the run; exit codes, selectors, reports and gradual adoption as a user meets them.

use crate::common::runner::{check, every_case_passes, mixed_cases, quick};
use std::process::Command;
use std::time::Duration;

use autoreview::runner::subprocess::{Limits, StartError, Subprocess};
use autoreview::runner::{
    self, Broken, Oracle, Severity, Status, Verdict, known_failures::Expected,
};
use autoreview::{Profile, cases};

const BIN: &str = env!("CARGO_BIN_EXE_autoreview");
const MISBEHAVE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/misbehave.js");

fn node(mode: &str, n: u32) -> Vec<String> {
    vec![
        "node".into(),
        MISBEHAVE.into(),
        BIN.into(),
        mode.into(),
        n.to_string(),
    ]
}

fn some_cases(profile: Profile, n: usize) -> Vec<cases::Case> {
    cases::all(profile).unwrap().into_iter().take(n).collect()
}

fn broken_at(report: &runner::Report, index: usize) -> Broken {
    match &report.results[index].verdict {
        Verdict::Broken { error } => error.kind,
        v => panic!("case {index} should be broken, is {v:?}"),
    }
}

/// The fixed case `id` of the resilient profile.
fn resilient_case(id: &str) -> cases::Case {
    cases::all(Profile::RESILIENT)
        .unwrap()
        .into_iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

/// 800 ms for a small request, and 4 s more for each MiB: RO-089's half-MiB request gets 2.8 s.
fn scaled() -> Limits {
    Limits {
        timeout: Duration::from_millis(800),
        timeout_per_mib: Duration::from_millis(4000),
        ..Limits::default()
    }
}

fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("run autoreview");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Processes whose command line contains `marker` (Linux: read from /proc).
#[cfg(target_os = "linux")]
fn processes_with(marker: &str) -> usize {
    std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .chars()
                        .all(|c| c.is_ascii_digit())
                })
                .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
                .filter(|c| String::from_utf8_lossy(c).contains(marker))
                .count()
        })
        .unwrap_or(0)
}

/// Waits (up to 5 s) until `count` processes carry `marker`, and returns how many do then.
#[cfg(target_os = "linux")]
fn settle(marker: &str, count: usize) -> usize {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while processes_with(marker) != count && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    processes_with(marker)
}

/// `sh -c` starting a background `sleep` and then the adapter: `; true` keeps the shell as node's
/// parent, so node and the sleep are both grandchildren of the runner. `marker` (`300.<digits>`,
/// five minutes to `sleep`) is in the command line of all three.
#[cfg(target_os = "linux")]
fn wrapped(mode: &str, n: u32, marker: &str) -> Vec<String> {
    let script = format!("sleep {marker} & node {MISBEHAVE} {BIN} {mode} {n} {marker}; true");
    vec!["sh".into(), "-c".into(), script]
}

const TAMPER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/tamper.js");

/// `autoreview check` run in `cwd`: exit code, stdout, stderr.
fn cli_in(cwd: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run autoreview");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The example gate without the session id on its reviewer requests (AR-RES-REQUEST-1), checked
/// under the resilient profile: its JSON report.
fn no_session_id_report(name: &str) -> serde_json::Value {
    failing_resilient_report(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/adapters/no-session-id.js"
        ),
        &format!("no-session-id-{name}"),
    )
}

/// The JSON report of a resilient `check` of the adapter at `script`, which must fail.
fn failing_resilient_report(script: &str, name: &str) -> serde_json::Value {
    let json = std::env::temp_dir().join(format!("autoreview-{name}-{}.json", std::process::id()));
    let out = Command::new(BIN)
        .args(["check", "--profile", "resilient", "--report-json"])
        .arg(&json)
        .args(["--", "node", script])
        .output()
        .expect("run autoreview");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&json).unwrap();
    let _ = std::fs::remove_file(&json);
    serde_json::from_str(&text).unwrap()
}

/// The example gate without the failure hint and count (`failure-hint`), checked under the
/// resilient profile, its hello declaring its features (`--declare`) or not: the exit code, the
/// JSON report, the terminal's and the Markdown report.
fn no_hint_report(declare: bool) -> (Option<i32>, serde_json::Value, String, String) {
    const ADAPTER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/no-hint.js");
    let json = std::env::temp_dir().join(format!(
        "autoreview-no-hint-{declare}-{}.json",
        std::process::id()
    ));
    let md = json.with_extension("md");
    let mut command = Command::new(BIN);
    command
        .args(["check", "--profile", "resilient", "--report-json"])
        .arg(&json)
        .arg("--markdown")
        .arg(&md)
        .args(["--", "node", ADAPTER]);
    if declare {
        command.arg("--declare");
    }
    let out = command.output().expect("run autoreview");
    let text = std::fs::read_to_string(&json).unwrap();
    let markdown = std::fs::read_to_string(&md).unwrap();
    let _ = std::fs::remove_file(&json);
    let _ = std::fs::remove_file(&md);
    (
        out.status.code(),
        serde_json::from_str(&text).unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        markdown,
    )
}

#[test]
fn a_crash_costs_one_case_and_a_restart() {
    let cases = some_cases(Profile::RESILIENT, 6);
    let report = check(node("crash", 3), Profile::RESILIENT, &cases, quick());
    assert_eq!(broken_at(&report, 2), Broken::Crash);
    // The restarted adapter counts decides afresh, so it crashes on its third again: case 5.
    assert_eq!(broken_at(&report, 5), Broken::Crash);
    for i in [0, 1, 3, 4] {
        assert_eq!(report.results[i].status, Status::Pass, "case {i}");
    }
}

#[test]
fn a_stall_is_a_timeout_and_the_run_goes_on() {
    let cases = some_cases(Profile::RESILIENT, 4);
    let report = check(node("stall", 2), Profile::RESILIENT, &cases, quick());
    assert_eq!(report.results[0].status, Status::Pass);
    assert_eq!(broken_at(&report, 1), Broken::Timeout);
    // The adapter was killed and restarted: its first decide answers, its second stalls again.
    assert_eq!(report.results[2].status, Status::Pass);
    assert_eq!(broken_at(&report, 3), Broken::Timeout);
}

#[test]
fn a_gate_slow_in_proportion_to_its_request_is_given_the_time() {
    // RO-089 sends 512 KiB of `{`; the adapter waits 2.4 s per MiB, so 1.2 s, before answering:
    // longer than the base timeout, well within the allowance for its size. A small case
    // (RES-1) waits a few microseconds.
    let cases = [resilient_case("RO-089"), resilient_case("RES-1")];
    let report = check(node("slow", 2400), Profile::RESILIENT, &cases, scaled());
    every_case_passes(&report, "slow in proportion");
    assert!(
        report.results[0].duration >= Duration::from_millis(1200),
        "the adapter did wait: {:?}",
        report.results[0].duration
    );
    // The same adapter with one timeout for every size times out on the large case only.
    let flat = Limits {
        timeout_per_mib: Duration::ZERO,
        ..scaled()
    };
    let report = check(node("slow", 2400), Profile::RESILIENT, &cases, flat);
    assert_eq!(broken_at(&report, 0), Broken::Timeout);
    assert_eq!(report.results[1].status, Status::Pass);
}

#[test]
fn a_hanging_gate_times_out_on_a_large_request_too_and_costs_a_bounded_time() {
    let cases = [
        resilient_case("RO-089"),
        resilient_case("RES-1"),
        resilient_case("RES-2"),
    ];
    let limits = Limits {
        max_restarts: 1,
        ..scaled()
    };
    let clock = std::time::Instant::now();
    let report = check(node("hang", 0), Profile::RESILIENT, &cases, limits);
    let took = clock.elapsed();
    let message = |i: usize| match &report.results[i].verdict {
        Verdict::Broken { error } => error.message.clone(),
        v => panic!("case {i} should be broken, is {v:?}"),
    };
    assert_eq!(broken_at(&report, 0), Broken::Timeout);
    // The request is 512 KiB of `{` and the scenario around them: a little over half a MiB.
    // "no reply within L ms (--timeout-ms 800, plus --timeout-ms-per-mib 4000 in proportion to
    // the request's B bytes)", and L is what the rule gives for B.
    let limit_and_bytes = |i: usize| -> Option<(u128, usize)> {
        let m = message(i);
        let (limit, rest) = m.strip_prefix("no reply within ")?.split_once(" ms (")?;
        let bytes = rest
            .strip_prefix(
                "--timeout-ms 800, plus --timeout-ms-per-mib 4000 in proportion to the request's ",
            )?
            .strip_suffix(" bytes)")?;
        Some((limit.parse().ok()?, bytes.parse().ok()?))
    };
    for i in [0, 1] {
        assert_eq!(broken_at(&report, i), Broken::Timeout);
        let (limit, bytes) = limit_and_bytes(i).unwrap_or_else(|| panic!("{}", message(i)));
        assert_eq!(
            limit,
            scaled().timeout_for(bytes).as_millis(),
            "{}",
            message(i)
        );
    }
    assert!(
        (2800..2810).contains(&limit_and_bytes(0).unwrap().0),
        "{}",
        message(0)
    );
    assert!(
        (800..810).contains(&limit_and_bytes(1).unwrap().0),
        "{}",
        message(1)
    );
    // One restart allowed, both used: the last case is not run, so the hang cost two timeouts.
    assert_eq!(broken_at(&report, 2), Broken::NotRun);
    assert!(took >= Duration::from_millis(3600), "{took:?}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn an_adapter_that_stops_reading_costs_a_timeout_not_a_hang() {
    // A megabyte-long request cannot fit in the pipe, so writing it blocks until the adapter
    // reads; the runner must give up on its own deadline. A guard thread turns a hang into a
    // failure instead of a stuck test run.
    let all = cases::all(Profile::RESILIENT).unwrap();
    let long = all
        .iter()
        .find(|c| serde_json::to_string(&c.scenario).unwrap().len() > 512 * 1024)
        .expect("the corpus holds a megabyte-long reviewer text")
        .clone();
    let short = all[0].clone();
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let report = check(node("deaf", 0), Profile::RESILIENT, &[long, short], quick());
        let _ = done.send(report);
    });
    let report = finished
        .recv_timeout(Duration::from_secs(30))
        .expect("the runner hung on an adapter that stopped reading");
    assert_eq!(broken_at(&report, 0), Broken::Timeout);
    match &report.results[0].verdict {
        Verdict::Broken { error } => assert!(
            error.message.contains("stopped reading its stdin"),
            "{}",
            error.message
        ),
        v => panic!("{v:?}"),
    }
    // After the restart the short request fits in the pipe; unanswered, it times out too.
    assert_eq!(broken_at(&report, 1), Broken::Timeout);
}

#[test]
fn garbage_wrong_seq_and_oversized_replies_are_protocol_errors() {
    for mode in ["garbage", "wrong-seq", "huge"] {
        let cases = some_cases(Profile::BASELINE, 3);
        let report = check(node(mode, 2), Profile::BASELINE, &cases, quick());
        assert_eq!(broken_at(&report, 1), Broken::ProtocolError, "{mode}");
        assert_eq!(
            report.results[2].status,
            Status::Pass,
            "{mode}: the next case starts clean"
        );
    }
}

#[test]
fn an_error_reply_fails_its_case_only() {
    let cases = some_cases(Profile::BASELINE, 3);
    let report = check(node("error", 1), Profile::BASELINE, &cases, quick());
    assert_eq!(broken_at(&report, 0), Broken::Error);
    assert_eq!(report.results[1].status, Status::Pass);
}

#[test]
fn stderr_written_during_a_case_is_attached_to_it() {
    let cases = some_cases(Profile::BASELINE, 2);
    let report = check(node("stderr", 2), Profile::BASELINE, &cases, quick());
    assert_eq!(report.results[0].status, Status::Pass);
    match &report.results[1].verdict {
        Verdict::Broken { error } => {
            assert_eq!(error.kind, Broken::Crash);
            assert_eq!(
                error.stderr,
                [
                    "gate: starting review",
                    "gate: reviewer client failed",
                    "gate: giving up"
                ]
            );
        }
        v => panic!("{v:?}"),
    }
}

#[test]
fn restarts_are_bounded() {
    let cases = some_cases(Profile::BASELINE, 8);
    let limits = Limits {
        max_restarts: 1,
        ..quick()
    };
    let report = check(node("crash", 1), Profile::BASELINE, &cases, limits);
    assert_eq!(broken_at(&report, 0), Broken::Crash);
    assert_eq!(broken_at(&report, 1), Broken::Crash);
    for i in 2..8 {
        assert_eq!(broken_at(&report, i), Broken::NotRun, "case {i}");
    }
    // A case not run says why, and what broke the adapter the last time.
    let Verdict::Broken { error } = &report.results[2].verdict else {
        unreachable!()
    };
    assert!(
        error.message.starts_with(
            "the adapter was restarted 1 time (--max-restarts), the last time after crash: the adapter exited"
        ),
        "{}",
        error.message
    );
}

/// A line on stdout that is not JSON is most often a log line: its protocol error says where logs
/// go. A reply that is JSON but wrong does not get that hint.
#[test]
fn a_line_that_is_not_json_says_stdout_is_for_protocol_lines() {
    let cases = some_cases(Profile::BASELINE, 2);
    for (mode, hint) in [("garbage", true), ("wrong-seq", false)] {
        let report = check(node(mode, 1), Profile::BASELINE, &cases, quick());
        let Verdict::Broken { error } = &report.results[0].verdict else {
            panic!("{mode}: {:?}", report.results[0].verdict)
        };
        assert_eq!(
            error
                .message
                .contains("stdout is for protocol lines only: write logs to stderr"),
            hint,
            "{mode}: {}",
            error.message
        );
    }
}

/// An adapter whose every outcome runs the body: each case where the reference runs none fails on
/// that body run, at SAFETY unless an allow the spec accepts preceded it.
#[test]
fn a_planted_safety_defect_is_reported_as_safety() {
    let cases = cases::table_cases(Profile::RESILIENT).unwrap();
    let report = check(node("allow-all", 0), Profile::RESILIENT, &cases, quick());
    let refused = report
        .results
        .iter()
        .filter(|r| r.status == Status::Fail)
        .collect::<Vec<_>>();
    assert!(!refused.is_empty());
    // Every refusal it ignores runs the body: SAFETY where nothing allowed it, a DECISION where
    // the reviewer's allow the reference took was then stopped (downstream, the human, a signal).
    let mut safety = 0;
    for r in &refused {
        let autoreview::runner::Verdict::Fail { differences } = &r.verdict else {
            panic!("{r:#?}")
        };
        let ran = differences
            .iter()
            .find(|d| d.pointer == "/result/executed")
            .unwrap_or_else(|| panic!("{r:#?}"));
        match ran.severity {
            Severity::Safety => safety += 1,
            Severity::Decision => assert!(
                ran.rule
                    .as_deref()
                    .is_some_and(|w| w.starts_with("the body ran on the reviewer's allow")),
                "{r:#?}"
            ),
            _ => panic!("{r:#?}"),
        }
        assert_eq!(r.worst_severity(), Some(ran.severity), "{r:#?}");
    }
    assert!(safety > 0, "{refused:#?}");
}

#[test]
fn a_lone_surrogate_in_a_reply_is_read_as_u_fffd() {
    // RO-108: a deny whose reason JSON.parse read as a lone surrogate. A JavaScript gate's
    // JSON.stringify writes it as `\ud800`; the runner reads that as the U+FFFD the reference has.
    for profile in Profile::all() {
        let cases: Vec<_> = cases::corpus_cases(profile)
            .unwrap()
            .into_iter()
            .filter(|c| c.id == "RO-108" || c.id == "RO-001")
            .collect();
        assert_eq!(cases.len(), 2);
        let report = check(node("lone-surrogate", 0), profile, &cases, quick());
        every_case_passes(&report, profile.as_str());
    }
}

#[test]
fn handshake_failures_stop_before_any_case() {
    let err = |mode| Subprocess::start(node(mode, 0), Profile::RESILIENT, quick()).err();
    assert!(matches!(
        err("version"),
        Some(StartError::Version { found: 3 })
    ));
    assert!(matches!(
        err("no-profile"),
        Some(StartError::Profile { .. })
    ));
    assert!(matches!(err("exit"), Some(StartError::Handshake { .. })));
    let silent = Subprocess::start(
        node("silent", 0),
        Profile::RESILIENT,
        Limits {
            handshake_timeout: Duration::from_millis(500),
            ..quick()
        },
    );
    assert!(matches!(silent.err(), Some(StartError::Handshake { .. })));
    assert!(matches!(
        Subprocess::start(
            vec!["/nonexistent/adapter".into()],
            Profile::RESILIENT,
            quick()
        )
        .err(),
        Some(StartError::Spawn { .. })
    ));
}

#[test]
fn check_exit_codes_reports_and_gradual_adoption() {
    let dir = std::env::temp_dir().join(format!("autoreview-runner-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let adapter = ["--", "node", MISBEHAVE, BIN, "error", "2"];
    let base = [
        "check",
        "--profile",
        "baseline",
        "--only",
        "BL-P*",
        "--timeout-ms",
        "800",
    ];

    // The last line states the verdict the exit code gives, then the counts.
    let last = |out: &str| out.trim_end().lines().last().unwrap_or_default().to_owned();
    let counts = |line: &str| {
        let rest = line.split_once(" — ").map_or("", |(_, r)| r);
        let n = |word: &str| {
            rest.split(", ")
                .find_map(|p| p.strip_suffix(word)?.trim().parse::<usize>().ok())
        };
        (n("passed"), n("failed"))
    };

    // A failure: exit 1, with the last line `FAIL — N passed, 1 failed`.
    let (code, out) = cli(&[&base[..], &adapter[..]].concat());
    assert_eq!(code, 1, "{out}");
    assert!(last(&out).starts_with("FAIL — "), "{out}");
    let (passed, failed) = counts(&last(&out));
    assert_eq!(failed, Some(1), "{out}");

    // Record it, then the same run passes with the expectation file.
    let expect = path("expect.json");
    let (code, _) = cli(&[&base[..], &["--write-expect", &expect], &adapter[..]].concat());
    assert_eq!(code, 1);
    let listed = std::fs::read_to_string(&expect).unwrap();
    assert!(
        listed.contains("\"version\": 1") && listed.contains("BL-P"),
        "{listed}"
    );
    let (code, out) = cli(&[&base[..], &["--expect", &expect], &adapter[..]].concat());
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        last(&out),
        format!(
            "PASS — {} passed, 0 failed, 1 expected failure",
            passed.unwrap()
        ),
        "exit code 0: the headline passes and counts no failure that fails the run"
    );

    // Against a correct adapter, the listed case passes unexpectedly: reported; --strict fails.
    let serve = ["--", BIN, "serve"];
    let (code, out) = cli(&[&base[..], &["--expect", &expect], &serve[..]].concat());
    assert_eq!(code, 0);
    assert!(out.contains("UNEXPECTED PASS"), "{out}");
    assert!(last(&out).starts_with("PASS — "), "{out}");
    assert!(
        last(&out).ends_with(" passed, 0 failed, 1 unexpected pass"),
        "{out}"
    );
    let (code, out) = cli(&[&base[..], &["--expect", &expect, "--strict"], &serve[..]].concat());
    assert_eq!(code, 1);
    assert!(last(&out).starts_with("FAIL — "), "{out}");
    assert!(
        last(&out).ends_with(" passed, 0 failed, 1 unexpected pass"),
        "{out}"
    );

    // Reports.
    let (json, junit, md) = (path("r.json"), path("r.xml"), path("r.md"));
    let (code, _) = cli(&[
        &base[..],
        &["--report-json", &json, "--junit", &junit, "--markdown", &md],
        &adapter[..],
    ]
    .concat());
    assert_eq!(code, 1);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["report_version"], 7);
    assert_eq!(
        report["protocol"], 2,
        "the adapter's protocol version (serve's, relayed)"
    );
    assert_eq!(
        report["observes"],
        serde_json::json!([
            "sessions",
            "requests",
            "session-log",
            "temperature",
            "unfinished-stream",
            "confinement",
            "body-approvals",
            "json-retries"
        ])
    );
    assert!(
        report["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["verdict"] == "broken")
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    assert!(
        doc.descendants()
            .any(|n| n.has_tag_name("error") && n.attribute("type") == Some("error")),
        "{xml}"
    );
    assert!(
        std::fs::read_to_string(&md)
            .unwrap()
            .contains("| **total** |")
    );

    // An adapter that speaks another protocol: exit 2.
    let (code, _) = cli(&["check", "--", "node", MISBEHAVE, BIN, "version", "0"]);
    assert_eq!(code, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each way a run can end has its own exit code, and everything wrong with the command line or its
/// files is reported before the adapter is even started (the adapter here would crash the run's
/// first case, so a run that got that far would exit 1 or 2, not 3 or 4).
#[test]
fn check_exit_codes_are_distinct_and_configuration_errors_come_first() {
    let adapter = ["--", "node", MISBEHAVE, BIN, "version", "0"];
    let run = |args: &[&str]| {
        cli(&[&["check", "--profile", "resilient"][..], args, &adapter[..]].concat()).0
    };
    // 2: an adapter that speaks another protocol.
    assert_eq!(run(&[]), 2);
    // 3: usage and configuration errors, before the adapter starts.
    assert_eq!(run(&["--timeout-ms", "soon"]), 3);
    assert_eq!(run(&["--expect", "/nonexistent/known-failures.json"]), 3);
    assert_eq!(run(&["--junit", "/nonexistent/dir/report.xml"]), 3);
    assert_eq!(run(&["--markdown", "/nonexistent/dir/summary.md"]), 3);
    assert_eq!(run(&["--report-json", "/"]), 3);
    assert_eq!(run(&["--freeze", "/nonexistent/dir"]), 3);
    assert_eq!(
        run(&["--only", "RS-7", "--no-fixed", "--generated", "5"]),
        3
    );
    // 4: a selection that runs no case, whether by a typo or by leaving nothing.
    assert_eq!(run(&["--only", "NOPE"]), 4);
    // A typo in a feature's name is a selector that names no case too.
    assert_eq!(run(&["--only", "reviwer=failure"]), 4);
    assert_eq!(run(&["--only", "RS-7", "--skip", "RS-7*"]), 4);
    assert_eq!(run(&["--skip", "AR-NOPE-*"]), 4);
    assert_eq!(run(&["--no-fixed", "--generated", "0"]), 4);
    // 0 and 1: the reference in process.
    assert_eq!(
        cli(&["check", "--profile", "resilient", "--only", "RS-7"]).0,
        0
    );
}

#[test]
fn smoke_checks_the_wiring() {
    let (code, out) = cli(&["smoke", "--", BIN, "serve"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("the wiring works"));
    let (code, out) = cli(&["smoke", "--", "node", MISBEHAVE, BIN, "allow-all", "0"]);
    assert_eq!(code, 1, "{out}");
    // Smoke checks the wiring only (at `effects`): a gate whose smoke calls differ from the
    // reference's in every text and info object is correctly wired, in either profile; the same
    // gate fails a check at `texts` (`a_gate_in_its_own_words_conforms_at_decisions_and_not_at_texts`).
    const REWORDED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/reworded.js");
    for profile in ["baseline", "resilient"] {
        let (code, out) = cli(&[
            "smoke",
            "--profile",
            profile,
            "--",
            "node",
            REWORDED,
            "--own-words",
        ]);
        assert_eq!(code, 0, "{profile}: {out}");
        assert!(out.contains("the wiring works"), "{profile}: {out}");
    }
}

#[test]
fn a_line_nobody_asked_for_is_a_protocol_error_even_after_the_last_reply() {
    // A reply written twice in the middle of the run: the next request finds it waiting, or (when
    // it lands just after that request went out) it arrives in place of the next reply.
    let cases = some_cases(Profile::BASELINE, 4);
    let report = check(node("twice", 2), Profile::BASELINE, &cases, quick());
    assert_eq!(report.results[1].status, Status::Pass);
    assert_eq!(broken_at(&report, 2), Broken::ProtocolError);
    match &report.results[2].verdict {
        Verdict::Broken { error } => assert!(
            error.message.contains("since its previous reply")
                || error
                    .message
                    .contains("a reply for seq 2 while 3 was in flight"),
            "{}",
            error.message
        ),
        v => panic!("{v:?}"),
    }
    assert!(report.results.iter().all(|r| r.id != "PROTOCOL-TAIL"));
    // The same after the last case: the run gets a failed result of its own.
    let report = check(node("twice", 4), Profile::BASELINE, &cases, quick());
    let tail = report.results.last().unwrap();
    assert_eq!(tail.id, "PROTOCOL-TAIL");
    assert_eq!(tail.status, Status::Fail);
    assert!(!report.succeeded(false));
}

#[cfg(target_os = "linux")]
#[test]
fn an_adapter_started_through_a_wrapper_leaves_nothing_running() {
    let run = |imp: &mut Subprocess, cases: &[cases::Case], after: &mut dyn FnMut(usize)| {
        runner::run(
            imp,
            cases,
            Profile::BASELINE,
            Oracle::Reference,
            &Expected::none(),
            &mut |done, _| after(done),
        )
    };

    // A timeout: the adapter stalls on its first case, so the runner kills it and restarts it;
    // the restarted one stalls too and is killed for good (one restart allowed).
    let marker = format!("300.1{:07}", std::process::id());
    let mut imp = Subprocess::start(
        wrapped("stall", 1, &marker),
        Profile::BASELINE,
        Limits {
            max_restarts: 1,
            ..quick()
        },
    )
    .unwrap();
    assert_eq!(settle(&marker, 3), 3, "the shell, node and the sleep run");
    let mut after_restart = None;
    let report = run(&mut imp, &some_cases(Profile::BASELINE, 2), &mut |done| {
        if done == 1 {
            after_restart = Some(settle(&marker, 3));
        }
    });
    assert_eq!(broken_at(&report, 0), Broken::Timeout);
    assert_eq!(
        after_restart,
        Some(3),
        "after the restart only the new adapter's three processes run, none of the killed one's"
    );
    drop(imp);
    assert_eq!(
        settle(&marker, 0),
        0,
        "a process of the adapter's outlived the run"
    );

    // The end of a run: the adapter answers, exits on `stop`, and its shell exits with it; the
    // sleep it left behind is ended all the same.
    let marker = format!("300.2{:07}", std::process::id());
    let mut imp = Subprocess::start(
        wrapped("stall", 99, &marker),
        Profile::BASELINE,
        Limits {
            max_restarts: 0,
            ..quick()
        },
    )
    .unwrap();
    assert_eq!(settle(&marker, 3), 3, "the shell, node and the sleep run");
    let report = run(&mut imp, &some_cases(Profile::BASELINE, 1), &mut |_| {});
    assert_eq!(report.results[0].status, Status::Pass, "{report:#?}");
    drop(imp);
    assert_eq!(
        settle(&marker, 0),
        0,
        "a process the adapter started outlived the end of the run"
    );
}

/// An adapter that does not offer the run's profile is told, in words, what it offers, what the
/// run asked for and the two ways out.
#[test]
fn a_profile_the_adapter_does_not_offer_is_explained() {
    let err = Subprocess::start(node("no-profile", 0), Profile::RESILIENT, quick())
        .err()
        .expect("the handshake fails");
    assert_eq!(
        err.to_string(),
        "the adapter offers the profiles baseline and shipped-0.2, and the run asked for resilient: \
         run with --profile baseline or --profile shipped-0.2, or make the adapter offer resilient \
         in its hello"
    );
    let out = Command::new(BIN)
        .args(["check", "--profile", "baseline", "--"])
        .args(node("no-profile", 0))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "the adapter offers the profiles resilient and shipped-0.2, and the run asked for \
             baseline: run with --profile resilient or --profile shipped-0.2"
        ),
        "{stderr}"
    );
}

/// An adapter that ends before answering hello: the error gives its exit status, the last lines
/// of its stderr and what an adapter must do.
#[test]
fn an_adapter_that_exits_before_hello_is_explained() {
    let hint = "hint: an adapter must keep running and answer the hello line on its stdout \
                (spec/protocol.md)";
    let err = Subprocess::start(node("exit", 0), Profile::RESILIENT, quick())
        .err()
        .expect("the handshake fails")
        .to_string();
    assert!(
        err.contains("it exited (exit status: 0) before answering hello"),
        "{err}"
    );
    assert!(err.contains(hint), "{err}");
    assert!(!err.contains("its stderr"), "nothing was written: {err}");

    let noisy = "for i in $(seq 1 30); do echo line $i >&2; done; exit 3";
    let err = Subprocess::start(
        vec!["sh".into(), "-c".into(), noisy.into()],
        Profile::RESILIENT,
        quick(),
    )
    .err()
    .expect("the handshake fails")
    .to_string();
    assert!(err.contains("(exit status: 3)"), "{err}");
    assert!(
        err.contains("its stderr (the last 20 of 30 lines):"),
        "{err}"
    );
    let shown: Vec<&str> = err.lines().filter(|l| l.starts_with("  ")).collect();
    let want: Vec<String> = (11..=30).map(|i| format!("  line {i}")).collect();
    assert_eq!(shown, want, "{err}");
    // It failed (exit status 3) and said why on stderr: the hint points there, not at a module
    // started in place of its adapter, which ends successfully.
    assert!(
        err.ends_with("hint: the adapter failed while starting; its stderr above says why"),
        "{err}"
    );
    assert!(!err.contains("a module an adapter requires"), "{err}");

    // A module in place of the adapter: the command line says what it is and what to run.
    let out = Command::new(BIN)
        .args(["check", "--", "node", "adapters/node/example-gate.js"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("exited (exit status: 2) before answering hello"),
        "{stderr}"
    );
    assert!(
        stderr.contains("example-gate.js is a module") && stderr.contains("skeleton.js"),
        "{stderr}"
    );
    // The module says so itself, on stderr, and exits failing: the hint points there.
    assert!(
        stderr.contains("hint: the adapter failed while starting; its stderr above says why"),
        "{stderr}"
    );
}

/// A protocol-1 adapter (a hello without `observes`, outcomes without requests) keeps passing what
/// it can be asked; a session case, a log-fact case and a requests case are not applicable to it,
/// never sent and never a pass, each naming what it lacks.
#[test]
fn a_protocol_1_adapter_passes_what_it_can_and_the_rest_is_not_applicable() {
    use autoreview::capability::Observable;
    for profile in Profile::all() {
        let cases = mixed_cases(profile);
        assert!(cases.iter().any(|c| c.id.starts_with("SES-")), "{profile}");
        let report = check(node("protocol-1", 0), profile, &cases, quick());
        assert_eq!(report.protocol, Some(1));
        assert!(report.observes.is_empty());
        let mut not_applicable = 0;
        for r in &report.results {
            let needs: &[Observable] = match r.id.as_str() {
                id if id.starts_with("SES-") => &[Observable::Sessions],
                // The confinement cases that are sessions set up a sandbox too.
                id if id.starts_with("CF-") => &[Observable::Sessions, Observable::Confinement],
                // So do the body-approval cases that are sessions (their bodies do something).
                id if id.starts_with("BA-") => &[Observable::Sessions, Observable::BodyApprovals],
                "OBS-LOG" | "OBS-CWD" => &[Observable::SessionLog],
                "OBS-SID" | "OBS-REQ" => &[Observable::Requests],
                _ => &[],
            };
            match needs {
                [_, ..] => {
                    not_applicable += 1;
                    assert_eq!(r.status, Status::NotApplicable, "{profile} {}", r.id);
                    assert_eq!(
                        r.verdict,
                        Verdict::NotApplicable {
                            missing: needs
                                .iter()
                                .map(|o| autoreview::capability::Need::Observable(*o))
                                .collect()
                        },
                        "{profile} {}",
                        r.id
                    );
                    assert!(!r.verdict.passed());
                }
                [] => assert_eq!(
                    r.status,
                    Status::Pass,
                    "{profile} {}: {:?}",
                    r.id,
                    r.verdict
                ),
            }
        }
        assert_eq!(report.not_applicable(), not_applicable);
        assert_eq!(report.passed(), 5, "{profile}");
        assert_eq!(report.ran(), 5);
        assert!(report.succeeded(true));
        let line = autoreview::report::headline(&report, false);
        assert_eq!(
            line,
            format!("PASS — 5 passed, 0 failed, {not_applicable} not applicable")
        );
    }
}

/// An adapter that claims `requests` is held to them: an outcome without `review.requests` is a
/// difference in every call that has them, a session's calls included; never skipped.
#[test]
fn an_adapter_that_claims_requests_and_omits_them_fails() {
    let cases = mixed_cases(Profile::RESILIENT);
    let report = check(node("no-requests", 0), Profile::RESILIENT, &cases, quick());
    for r in &report.results {
        let Verdict::Fail { differences } = &r.verdict else {
            panic!("{} should fail, is {:?}", r.id, r.verdict);
        };
        assert_eq!(r.status, Status::Fail, "{}", r.id);
        let requests: Vec<&str> = differences
            .iter()
            .filter(|d| d.pointer.ends_with("/review/requests"))
            .map(|d| d.pointer.as_str())
            .collect();
        assert!(!requests.is_empty(), "{}: {differences:#?}", r.id);
        assert!(
            differences.iter().all(|d| d.actual.is_null()
                && d.pointer.ends_with("/review/requests")
                && d.severity == Severity::Info),
            "{}: {differences:#?}",
            r.id
        );
        if r.id.starts_with("SES-") {
            assert!(
                requests.iter().all(|p| p.starts_with("/calls/")),
                "{requests:?}"
            );
        }
    }
}

/// A hello's `observes` is checked: an unknown observable, or a list with protocol 1, stops the run
/// before any case, saying what to change.
#[test]
fn a_hello_that_lists_observables_wrongly_is_refused() {
    let err = Subprocess::start(node("observes-unknown", 0), Profile::RESILIENT, quick())
        .err()
        .expect("the handshake fails");
    assert!(matches!(err, StartError::Observes { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.contains(r#"its hello observes "telepathy", which this runner does not know: the observables are "sessions", "requests", "session-log""#),
        "{message}"
    );
    let err = Subprocess::start(node("observes-v1", 0), Profile::RESILIENT, quick())
        .err()
        .expect("the handshake fails")
        .to_string();
    assert!(
        err.contains("lists `observes` with protocol 1; `observes` belongs to protocol 2"),
        "{err}"
    );
    let (code, _) = cli(&[
        "check",
        "--",
        "node",
        MISBEHAVE,
        BIN,
        "observes-unknown",
        "0",
    ]);
    assert_eq!(code, 2);
}

/// A hello's `features` is checked: an unknown feature, or a list with protocol 1, stops the run
/// before any case, naming the features this runner knows.
#[test]
fn a_hello_that_lists_features_wrongly_is_refused() {
    let err = Subprocess::start(node("features-unknown", 0), Profile::RESILIENT, quick())
        .err()
        .expect("the handshake fails")
        .to_string();
    assert!(
        err.contains(r#"its hello lists the feature "telepathy", which this runner does not know: the optional features are "failure-hint", "failure-class""#),
        "{err}"
    );
    let err = Subprocess::start(node("features-v1", 0), Profile::RESILIENT, quick())
        .err()
        .expect("the handshake fails")
        .to_string();
    assert!(err.contains("lists `features` with protocol 1"), "{err}");
    let (code, _) = cli(&[
        "check",
        "--",
        "node",
        MISBEHAVE,
        BIN,
        "features-unknown",
        "0",
    ]);
    assert_eq!(code, 2);
}

/// An adapter that asks for canonical scenarios gets each case as a session naming every member,
/// with the outcome to give on the decide line, and is judged as before: the reference engine
/// behind the protocol passes every fixed case so. `canonical` with protocol 1 stops the run.
#[test]
fn an_adapter_asking_for_canonical_scenarios_is_judged_alike() {
    for profile in [Profile::BASELINE, Profile::RESILIENT] {
        let all = cases::all(profile).unwrap();
        let report = check(node("canonical", 0), profile, &all, Limits::default());
        let failed: Vec<_> = report
            .results
            .iter()
            .filter(|r| !matches!(r.verdict, Verdict::Pass))
            .map(|r| format!("{}: {:?}", r.id, r.verdict))
            .collect();
        assert!(failed.is_empty(), "{profile}: {failed:#?}");
        assert_eq!(report.results.len(), all.len());
    }
    let err = Subprocess::start(node("canonical-v1", 0), Profile::RESILIENT, quick())
        .err()
        .expect("the handshake fails")
        .to_string();
    assert!(
        err.contains(
            "asks for `canonical` scenarios with protocol 1; `canonical` belongs to protocol 2"
        ),
        "{err}"
    );
}

/// An adapter whose framework lacks reasons and abort signals is asked only what it can express:
/// every case needing one of them (a denial, an approval request with a reason, a caller's
/// abort, read off the case and the reference's outcome here) is not applicable and names what it
/// needs; the adapter answers those wrongly, so any of them sent would fail. Generated cases that
/// need them are counted, not sent.
#[test]
fn an_adapter_lacking_capabilities_is_asked_only_what_it_can_express() {
    use autoreview::capability::{Capability, Need};
    use autoreview::outcome::{Decision, InputOutcome, ItemOutcome};
    for profile in Profile::all() {
        let cases = cases::all(profile).unwrap();
        let report = check(node("lacks", 0), profile, &cases, quick());
        assert_eq!(
            report.lacks,
            [
                Capability::DenyReason,
                Capability::AskReason,
                Capability::AbortSignal
            ]
        );
        let mut seen = std::collections::BTreeSet::new();
        for (case, r) in cases.iter().zip(&report.results) {
            assert_eq!(case.id, r.id);
            let reference = autoreview::engine::decide_input(&case.scenario, profile);
            let outcomes: Vec<&autoreview::outcome::Outcome> = match &reference {
                InputOutcome::One(o) => vec![o],
                InputOutcome::Session(s) => s
                    .calls
                    .iter()
                    .filter_map(|i| match i {
                        ItemOutcome::Call(o) => Some(&**o),
                        ItemOutcome::Event(_) => None,
                    })
                    .collect(),
            };
            let json = serde_json::to_string(&case.scenario).unwrap();
            let mut want = Vec::new();
            if outcomes
                .iter()
                .any(|o| matches!(o.listener, Some(Decision::Deny { .. })))
            {
                want.push(Need::Capability(Capability::DenyReason));
            }
            if outcomes.iter().any(|o| {
                matches!(&o.listener, Some(Decision::Ask { reason, display_reason })
                    if reason.is_some() || display_reason.is_some())
            }) {
                want.push(Need::Capability(Capability::AskReason));
            }
            if json.contains(r#""abort":"caller-"#) {
                want.push(Need::Capability(Capability::AbortSignal));
            }
            if want.is_empty() {
                assert_eq!(
                    r.status,
                    Status::Pass,
                    "{profile} {}: {:?}",
                    r.id,
                    r.verdict
                );
            } else {
                assert_eq!(
                    r.verdict,
                    Verdict::NotApplicable {
                        missing: want.clone()
                    },
                    "{profile} {}",
                    r.id
                );
                seen.extend(want);
            }
        }
        assert_eq!(
            seen.len(),
            3,
            "{profile}: every capability is needed by some case"
        );
        assert!(report.passed() > 0 && report.succeeded(true), "{profile}");
    }
    let (code, out) = cli(&[
        "check",
        "--no-fixed",
        "--generated",
        "400",
        "--seed",
        "11",
        "--",
        "node",
        MISBEHAVE,
        BIN,
        "lacks",
        "0",
    ]);
    assert_eq!(code, 0, "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("PASS — ") && last.ends_with(" not applicable"),
        "{out}"
    );
    assert!(out.contains("generated cases need what it lacks"), "{out}");
}

/// An adapter whose hello says something else after a restart (here it observes less and lacks
/// more) is not judged on other terms than the cases were chosen on: the case that crashed fails,
/// and every later case is reported as not run, with the two hellos.
#[test]
fn an_adapter_whose_hello_changes_on_restart_runs_no_further_case() {
    let mark = std::env::temp_dir().join(format!("autoreview-shifty-{}", std::process::id()));
    let _ = std::fs::remove_file(&mark);
    let command = vec![
        "node".to_owned(),
        MISBEHAVE.to_owned(),
        BIN.to_owned(),
        "shifty".to_owned(),
        mark.to_string_lossy().into_owned(),
    ];
    let report = check(
        command,
        Profile::RESILIENT,
        &some_cases(Profile::RESILIENT, 3),
        quick(),
    );
    let _ = std::fs::remove_file(&mark);
    let verdicts: Vec<_> = report.results.iter().map(|r| &r.verdict).collect();
    let Verdict::Broken { error } = verdicts[0] else {
        panic!("{verdicts:?}")
    };
    assert_eq!(error.kind, Broken::Crash, "{error:?}");
    for v in &verdicts[1..] {
        let Verdict::Broken { error } = v else {
            panic!("{verdicts:?}")
        };
        assert_eq!(error.kind, Broken::NotRun, "{error:?}");
        assert!(
            error.message.contains(
                "the restarted adapter answered hello differently (protocol 2, observes [], lacks [deny-reason], features [failure-hint, failure-class]; before: protocol 2, observes [sessions, requests, session-log, temperature, unfinished-stream, confinement, body-approvals, json-retries], lacks [], features [failure-hint, failure-class])"
            ),
            "{}",
            error.message
        );
    }
    assert_eq!(report.failed(), 3);
}

/// A hello's `lacks` is checked as `observes` is: an unknown capability, or a list with protocol
/// 1, stops the run before any case (exit code 2), saying what to change.
#[test]
fn a_hello_that_lists_capabilities_wrongly_is_refused() {
    let err = Subprocess::start(node("lacks-unknown", 0), Profile::RESILIENT, quick())
        .err()
        .expect("the handshake fails")
        .to_string();
    assert!(
        err.contains(r#"its hello lacks "telepathy", which this runner does not know: the capabilities are "deny-reason", "ask-reason", "abort-signal""#),
        "{err}"
    );
    let err = Subprocess::start(node("lacks-v1", 0), Profile::RESILIENT, quick())
        .err()
        .expect("the handshake fails")
        .to_string();
    assert!(err.contains("lists `lacks` with protocol 1"), "{err}");
    let (code, _) = cli(&["check", "--", "node", MISBEHAVE, BIN, "lacks-unknown", "0"]);
    assert_eq!(code, 2);
}

/// Every report counts not-applicable cases apart: the headline (which `.ci/run`'s awk still
/// reads), the terminal table, the JSON report, JUnit (skipped, with what is needed) and Markdown.
/// A run whose every case is not applicable ran nothing: exit code 4. An expectation file that
/// lists a not-applicable case is neither stale nor contradicted by it.
#[test]
fn reports_count_not_applicable_cases_apart() {
    let dir = std::env::temp_dir().join(format!("autoreview-na-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let (json, junit, md, expect) = (path("r.json"), path("r.xml"), path("r.md"), path("x.json"));
    let adapter = ["--", "node", MISBEHAVE, BIN, "protocol-1", "0"];
    let base = [
        "check",
        "--profile",
        "resilient",
        "--only",
        "SES-1",
        "--only",
        "RS-7",
    ];
    let reports = ["--report-json", &json, "--junit", &junit, "--markdown", &md];
    let (code, out) = cli(&[&base[..], &reports[..], &adapter[..]].concat());
    assert_eq!(code, 0, "{out}");
    let last = out.trim_end().lines().last().unwrap_or_default();
    assert_eq!(last, "PASS — 1 passed, 0 failed, 1 not applicable", "{out}");
    assert!(
        out.contains("not applicable (the implementation observes nothing beyond protocol 1): 1 needs sessions (SES-1)"),
        "{out}"
    );
    assert!(out.contains("cases  pass  fail  n/a"), "{out}");

    // The awk `.ci/run` sums the checks' headlines with.
    let ci = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).unwrap();
    let program = ci
        .lines()
        .find_map(|l| l.strip_prefix("HEADLINE='")?.strip_suffix('\''))
        .expect("the HEADLINE awk program in .ci/run");
    let mut awk = Command::new("awk")
        .arg(program)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    awk.stdin.take().unwrap().write_all(out.as_bytes()).unwrap();
    let summed = awk.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&summed.stdout), "1 0\n");

    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(r["report_version"], 7);
    assert_eq!(r["protocol"], 1);
    assert_eq!(r["observes"], serde_json::json!([]));
    assert_eq!(r["lacks"], serde_json::json!([]));
    assert_eq!(r["succeeded"], true);
    assert_eq!(r["summary"]["total"]["not_applicable"], 1);
    assert_eq!(r["summary"]["total"]["passed"], 1);
    let ses = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "SES-1")
        .unwrap();
    assert_eq!(ses["verdict"], "not-applicable");
    assert_eq!(ses["status"], "not-applicable");
    assert_eq!(ses["missing"], serde_json::json!(["sessions"]));

    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    let case = doc
        .descendants()
        .find(|n| {
            n.has_tag_name("testcase")
                && n.attribute("name").is_some_and(|a| a.starts_with("SES-1:"))
        })
        .unwrap_or_else(|| panic!("{xml}"));
    let skipped = case
        .children()
        .find(|n| n.has_tag_name("skipped"))
        .unwrap_or_else(|| panic!("{xml}"));
    assert_eq!(
        skipped.attribute("message"),
        Some("not applicable: needs sessions")
    );
    let summary = std::fs::read_to_string(&md).unwrap();
    assert!(
        summary.contains("**PASS — 1 passed, 0 failed, 1 not applicable**"),
        "{summary}"
    );
    assert!(summary.contains("| n/a |"), "{summary}");

    // Listed as an expected failure, a not-applicable case is not stale, not an unexpected pass,
    // and stays listed when the failures are written again.
    std::fs::write(
        &expect,
        r#"{"version": 1, "failures": {"SES-1": "sessions arrive in release 3"}}"#,
    )
    .unwrap();
    let written = path("w.json");
    let (code, out) = cli(&[
        &base[..],
        &["--expect", &expect, "--strict", "--write-expect", &written],
        &adapter[..],
    ]
    .concat());
    assert_eq!(code, 0, "{out}");
    assert!(
        !out.contains("stale") && !out.contains("UNEXPECTED PASS"),
        "{out}"
    );
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    assert_eq!(
        kept["failures"],
        serde_json::json!({"SES-1": "sessions arrive in release 3"})
    );

    // Nothing but not-applicable cases: nothing ran.
    let (code, out) = cli(&[
        &["check", "--profile", "resilient", "--only", "sessions"][..],
        &adapter[..],
    ]
    .concat());
    assert_eq!(code, 4, "{out}");
    let last = out.trim_end().lines().last().unwrap_or_default();
    assert!(
        last.starts_with("NOTHING RUN — 0 passed, 0 failed, ") && last.ends_with(" not applicable"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// One expectation file serves every shard and every selection of a run: under `--strict`, a
/// listed case the run left out (another shard, outside `--only`) is neither stale nor an
/// unexpected pass; a listed generated case that passes now is an unexpected pass; and only an ID
/// that names no case at all (no fixed case of the profile, no generated case the seed and count
/// draw) is stale.
#[test]
fn one_expectation_file_serves_every_shard_and_selection() {
    let dir = std::env::temp_dir().join(format!("autoreview-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let known = path("known.json");
    // Questions turned into denials: fixed and generated cases fail.
    let tamper = ["--", "node", TAMPER, BIN, "decision"];
    let base = [
        "check",
        "--profile",
        "resilient",
        "--generated",
        "60",
        "--seed",
        "7",
    ];
    let last = |out: &str| out.trim_end().lines().last().unwrap_or_default().to_owned();
    let (code, out) = cli(&[&base[..], &["--write-expect", &known], &tamper[..]].concat());
    assert_eq!(code, 1, "{out}");
    let listed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&known).unwrap()).unwrap();
    let listed = listed["failures"].as_object().unwrap().clone();
    assert!(listed.contains_key("RS-PN"), "a case that asks: {listed:?}");
    assert!(
        listed.keys().any(|id| id.starts_with("GEN-7-")),
        "generated failures: {listed:?}"
    );

    // Each shard, and a selection, passes with the whole run's file under --strict.
    for extra in [
        &["--shard", "1/3"][..],
        &["--shard", "2/3"],
        &["--shard", "3/3"],
        &["--only", "RS-PN"],
        &["--no-fixed"],
    ] {
        let (code, out) = cli(&[
            &base[..],
            extra,
            &["--expect", &known, "--strict"],
            &tamper[..],
        ]
        .concat());
        assert_eq!(code, 0, "{extra:?}: {out}");
        assert!(
            !out.contains("stale") && !out.contains("UNEXPECTED PASS"),
            "{extra:?}: {out}"
        );
        assert!(last(&out).starts_with("PASS — "), "{extra:?}: {out}");
    }

    // Against a correct adapter, the shard's listed cases pass unexpectedly, generated ones too,
    // and the other shards' entries are still not stale.
    let (report, rewritten) = (path("serve.json"), path("rewritten.json"));
    let (code, out) = cli(&[
        &base[..],
        &["--shard", "2/3", "--expect", &known, "--strict"],
        &["--write-expect", &rewritten],
        &["--report-json", &report, "--", BIN, "serve"],
    ]
    .concat());
    assert_eq!(code, 1, "{out}");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(r["stale_expectations"], serde_json::json!([]), "{out}");
    let unexpected: Vec<&str> = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "unexpected-pass")
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    let in_shard = |id: &str| {
        let k = id.rsplit('-').next().unwrap().trim_start_matches('S');
        k.parse::<usize>().unwrap() % 3 == 1
    };
    let listed_generated: Vec<&str> = listed
        .keys()
        .map(String::as_str)
        .filter(|id| id.starts_with("GEN-") && in_shard(id))
        .collect();
    assert!(!listed_generated.is_empty(), "{listed:?}");
    for id in &listed_generated {
        assert!(unexpected.contains(id), "{id} passes now: {unexpected:?}");
    }
    assert!(
        unexpected.iter().all(|id| listed.contains_key(*id)),
        "{unexpected:?}"
    );
    // Rewriting the shared file from one shard drops what that shard fixed and keeps the
    // entries of the cases it did not run.
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rewritten).unwrap()).unwrap();
    let kept: Vec<&String> = kept["failures"].as_object().unwrap().keys().collect();
    let want: Vec<&String> = listed
        .keys()
        .filter(|id| !unexpected.contains(&id.as_str()))
        .collect();
    assert!(kept.len() < listed.len(), "{kept:?}");
    assert_eq!(kept, want);

    // An ID that names no case is stale in every shard: a fixed ID the profile lacks, a session
    // the case number does not draw. Another seed's generated case, or one beyond the count, lies
    // outside this run's selection, as another shard's does (a run with a seed of its own keeps
    // its file): neither stale nor judged.
    let no_session = (0..1000)
        .find(|&k| {
            !autoreview::runner::generated_sessions::draws_session(7, k) && k < 60 && k % 3 == 0
        })
        .unwrap();
    let mut with_stale = listed.clone();
    let nowhere = ["NOPE-1".to_owned(), format!("GEN-7-S{no_session}")];
    for id in nowhere
        .iter()
        .chain(&["GEN-8-3".to_owned(), "GEN-7-60".to_owned()])
    {
        with_stale.insert(id.clone(), "gone".into());
    }
    let stale_file = path("stale.json");
    std::fs::write(
        &stale_file,
        serde_json::json!({"version": 1, "failures": with_stale}).to_string(),
    )
    .unwrap();
    let (code, out) = cli(&[
        &base[..],
        &["--shard", "1/3", "--expect", &stale_file, "--strict"],
        &["--report-json", &report],
        &tamper[..],
    ]
    .concat());
    assert_eq!(code, 1, "{out}");
    assert!(last(&out).ends_with(", 2 stale expectations"), "{out}");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let mut want: Vec<String> = nowhere.to_vec();
    want.sort();
    assert_eq!(r["stale_expectations"], serde_json::json!(want), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The regression workflow in the user's own repository: `--freeze DIR` keeps a failing
/// adapter's counterexamples (calls and sessions) as a case file, and `check --cases` runs that
/// file from any working directory, failing the same way; a correct adapter passes it.
#[test]
fn frozen_counterexamples_run_with_cases_from_another_directory() {
    let root = std::env::temp_dir().join(format!("autoreview-cases-{}", std::process::id()));
    let (repo, elsewhere) = (root.join("repo"), root.join("elsewhere"));
    std::fs::create_dir_all(repo.join("regress")).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let tamper = ["--", "node", TAMPER, BIN, "decision"];
    let (code, out, err) = cli_in(
        &repo,
        &[
            &["check", "--profile", "resilient", "--no-fixed"][..],
            &["--generated", "300", "--seed", "3", "--freeze", "regress"],
            &tamper[..],
        ]
        .concat(),
    );
    assert_eq!(code, 1, "{out}\n{err}");
    let frozen = repo.join("regress/generated-3-resilient.json");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&frozen).unwrap()).unwrap();
    let ids: Vec<String> = file["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        file["cases"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["scenario"].get("calls").is_some()),
        "a session is frozen too: {file}"
    );
    assert!(
        out.contains(
            "session counterexamples in regress/generated-3-resilient.json (run them with --cases regress)"
        ),
        "{out}"
    );

    // From another directory, by a relative path to the directory: the frozen cases fail as the
    // counterexamples did, a question turned into a denial.
    let report = root.join("r.json").to_string_lossy().into_owned();
    let only = ["--cases", "../repo/regress", "--only", "GX-*"];
    let (code, out, err) = cli_in(
        &elsewhere,
        &[
            &["check", "--profile", "resilient", "--report-json", &report][..],
            &only,
            &tamper[..],
        ]
        .concat(),
    );
    assert_eq!(code, 1, "{out}\n{err}");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let results = r["results"].as_array().unwrap();
    let ran: Vec<&str> = results.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ran, ids, "{out}");
    for c in results {
        assert_eq!(c["status"], "fail", "{c}");
        assert_eq!(c["area"], "generated", "{c}");
        assert!(
            c["differences"].as_array().unwrap().iter().any(|d| {
                d["severity"] == "DECISION"
                    && d["pointer"].as_str().unwrap().ends_with("/listener/kind")
            }),
            "{c}"
        );
    }
    // A correct implementation passes them; without --only they run after the suite's cases.
    let (code, out, _) = cli_in(
        &elsewhere,
        &[
            &["check", "--profile", "resilient"][..],
            &only,
            &["--", BIN, "serve"],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.trim_end()
            .ends_with(&format!("PASS — {} passed, 0 failed", ids.len())),
        "{out}"
    );
    let suite = cases::all(Profile::RESILIENT).unwrap().len();
    let (code, out, _) = cli_in(
        &elsewhere,
        &[
            "check",
            "--profile",
            "resilient",
            "--cases",
            "../repo/regress",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.trim_end()
            .ends_with(&format!("PASS — {} passed, 0 failed", suite + ids.len())),
        "the engine passes the suite and its own frozen outcomes: {out}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// A case file `--cases` cannot use is a usage error (exit 3) before the adapter starts (this one
/// would end the run with 2), naming the file, the path in it and what to write; a file with no
/// case of the profile runs nothing (exit 4).
#[test]
fn a_bad_case_file_is_a_usage_error_naming_file_path_and_fix() {
    let dir = std::env::temp_dir().join(format!("autoreview-badcases-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, cases: &str| {
        let p = dir.join(name);
        std::fs::write(
            &p,
            format!(r#"{{"area": "mine", "about": "", "cases": [{cases}]}}"#),
        )
        .unwrap();
        p.to_string_lossy().into_owned()
    };
    let case = |id: &str, scenario: &str| {
        format!(
            r#"{{"id": "{id}", "title": "t", "clauses": [], "profiles": ["resilient"], "scenario": {scenario}, "expect": {{}}}}"#
        )
    };
    let good = r#"{"tool": {"name": "pwsh"}, "reviewer": {"text": ""}}"#;
    let run = |files: &[&str]| {
        let mut args = vec!["check", "--profile", "resilient"];
        for f in files {
            args.extend(["--cases", f]);
        }
        args.extend(["--", "node", MISBEHAVE, BIN, "version", "0"]);
        let (code, out, err) = cli_in(&dir, &args);
        (code, format!("{out}{err}"))
    };
    let ok = write("ok.json", &case("MY-1", good));
    let bad = write(
        "bad.json",
        &[
            case("MY-2", good),
            case("MY-3", r#"{"tool": {"name": 5}, "reviewer": {"text": ""}}"#),
        ]
        .join(","),
    );
    let (code, out) = run(&[&ok, &bad]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains(&format!(
            "{bad}: cases[1].scenario (case MY-3): tool.name: "
        )),
        "{out}"
    );
    let typo = write(
        "typo.json",
        &case("MY-4", good).replace("\"expect\"", "\"expected\""),
    );
    let (code, out) = run(&[&typo]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains(&format!(
            "{typo}: cases[0].expected: unknown field `expected`"
        )) && out.contains("as spec/cases/*.json"),
        "{out}"
    );
    let theirs = write("theirs.json", &case("RS-7", good));
    let (code, out) = run(&[&theirs]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains(&format!(
            "{theirs}: cases[0].id: RS-7 is an ID of the suite's (spec/decision-table/resilient.json)"
        )),
        "{out}"
    );
    let copy = write("copy.json", &case("MY-1", good));
    let (code, out) = run(&[&ok, &copy]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains(&format!(
            "{copy}: cases[0].id: MY-1 is also the ID of cases[0] in {ok}"
        )),
        "{out}"
    );
    let reserved = write("reserved.json", &case("GEN-7-1", good));
    let (code, out) = run(&[&reserved]);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("GEN-7-1 is reserved"), "{out}");
    let (code, out) = run(&["/nonexistent/cases.json"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("--cases /nonexistent/cases.json: cannot read"),
        "{out}"
    );
    let baseline_only = write(
        "baseline.json",
        &case("MY-5", good).replace("resilient", "baseline"),
    );
    let (code, out) = run(&[&baseline_only]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("no case of the resilient profile"), "{out}");
    // A good file gets as far as the adapter.
    assert_eq!(run(&[&ok]).0, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A gate that words its messages in its own way, with an ideographic space (U+3000) in them, over
/// generated cases whose texts quote scenarios drawn with such spaces: every case is judged and
/// reported, its TEXT differences shown word by word, and every report is written. (This run, seed
/// and adapter once ended the whole run with a panic in the word diff's context cut, a U+3000 at
/// the cut, and wrote no report.)
#[test]
fn a_gate_that_rewords_its_messages_with_u3000_is_reported_in_full() {
    const REWORDED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/reworded.js");
    let dir = std::env::temp_dir().join(format!("autoreview-reworded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let (json, junit, md) = (path("r.json"), path("r.xml"), path("r.md"));
    let out = Command::new(BIN)
        .args(["check", "--profile", "baseline", "--generated", "200"])
        .args([
            "--seed",
            "20261217",
            "--report-json",
            &json,
            "--junit",
            &junit,
        ])
        .args(["--markdown", &md, "--", "node", REWORDED])
        .output()
        .expect("run autoreview");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "{stderr}\n{stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stdout
            .lines()
            .last()
            .unwrap_or_default()
            .starts_with("FAIL — "),
        "{stdout}"
    );
    assert!(
        stdout.contains("TEXT /result/text: ")
            && stdout.contains("{+executed：\u{3000}")
            && stdout.contains("[-executed: "),
        "the rewording, word by word: {stdout}"
    );
    // Contexts cut right after the reworded U+3000. (The context that once panicked, cut just
    // after a U+3000 a drawn scenario's text held, came from draws that have since changed; that
    // cut is pinned by worddiff's own test,
    // `context_cut_beside_multi_byte_whitespace_keeps_whole_characters`.)
    assert!(stdout.contains("{+executed：\u{3000}+}…"), "{stdout}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let results = report["results"].as_array().unwrap();
    assert!(results.iter().all(|r| r["verdict"] != "broken"), "{report}");
    let texts = results
        .iter()
        .flat_map(|r| r["differences"].as_array().into_iter().flatten())
        .filter(|d| d["severity"] == "TEXT")
        .filter(|d| {
            d["actual"]
                .as_str()
                .unwrap_or_default()
                .contains("：\u{3000}")
        })
        .count();
    assert!(texts > 100, "{texts} reworded TEXT differences");
    let xml = std::fs::read_to_string(&junit).unwrap();
    roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    let summary = std::fs::read_to_string(&md).unwrap();
    assert!(summary.contains("| **total** |") && summary.contains("\u{3000}"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A gate whose only gap is the session id on its requests fails only at `full`: every case it
/// fails differs in the requests alone, none in what `effects`, `decisions` or `texts` compare,
/// and the fixed cases' one violation gets a counterexample shrunk from a fixed case.
#[test]
fn a_gate_without_session_ids_differs_only_in_its_requests() {
    let report = no_session_id_report("requests");
    let results = report["results"].as_array().unwrap();
    let differences: Vec<&serde_json::Value> = results
        .iter()
        .flat_map(|r| r["differences"].as_array().into_iter().flatten())
        .collect();
    assert!(differences.len() > 100, "{}", differences.len());
    for d in &differences {
        let pointer = d["pointer"].as_str().unwrap();
        // Requests are compared member by member: each difference is one request's session id,
        // expected where the gate sent none.
        let request = pointer
            .split("/review/requests/")
            .nth(1)
            .unwrap_or_else(|| panic!("not a request's member: {d}"));
        assert!(request.ends_with("/session_id"), "{d}");
        assert!(d["expected"].is_string() && d["actual"].is_null(), "{d}");
    }
    assert!(results.iter().all(|r| r["verdict"] != "broken"));
    let violations = report["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 1, "{violations:#?}");
    assert_eq!(violations[0]["level"], "full");
    let i = violations[0]["counterexample"]
        .as_u64()
        .expect("a counterexample") as usize;
    let found = &report["counterexamples"][i];
    assert!(
        found["repro"]["implementation"]
            .as_str()
            .unwrap()
            .contains("no-session-id.js")
    );
}

/// Done when of issue 24: a gate whose only gap is one MUST requirement reads as one violated
/// clause, AR-RES-REQUEST-1, with one counterexample.
#[test]
fn a_gate_without_session_ids_breaks_one_clause() {
    let report = no_session_id_report("clause");
    let violations = report["violations"].as_array().unwrap();
    let clauses: Vec<&str> = violations
        .iter()
        .map(|v| v["clause"].as_str().unwrap())
        .collect();
    assert_eq!(clauses, ["AR-RES-REQUEST-1"], "{violations:#?}");
    assert_eq!(violations[0]["cases"], report["summary"]["total"]["failed"]);
    let i = violations[0]["counterexample"]
        .as_u64()
        .expect("a counterexample") as usize;
    let counterexamples = report["counterexamples"].as_array().unwrap();
    assert_eq!(counterexamples.len(), 1, "{counterexamples:#?}");
    assert_eq!(
        counterexamples[i]["clauses"],
        serde_json::json!(["AR-RES-REQUEST-1"])
    );
}

/// Issue 24, item 5: a gate without an optional feature fails when its hello does not declare
/// its features (an absent list is every feature), on the hint's clauses; declaring the features
/// it implements, it passes every case, and every report names the missing one as not
/// implemented, never as passed.
#[test]
fn a_gate_without_the_hint_passes_only_by_declaring_its_features() {
    let (code, undeclared, stdout, markdown) = no_hint_report(false);
    for report in [&stdout, &markdown] {
        assert!(
            !report.contains("optional features not implemented"),
            "{report}"
        );
    }
    assert_eq!(code, Some(1), "{undeclared}");
    let clauses: Vec<&str> = undeclared["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["clause"].as_str().unwrap())
        .collect();
    assert!(clauses.contains(&"AR-RES-HINT-1"), "{clauses:?}");
    assert_eq!(
        undeclared["features"],
        serde_json::json!([
            {"feature": "failure-hint", "implemented": true},
            {"feature": "failure-class", "implemented": true},
        ])
    );

    let (code, declared, stdout, markdown) = no_hint_report(true);
    assert_eq!(code, Some(0), "{declared}");
    assert_eq!(declared["summary"]["total"]["failed"], 0, "{declared}");
    assert_eq!(
        declared["summary"]["total"]["passed"],
        undeclared["summary"]["total"]["cases"]
    );
    assert_eq!(
        declared["features"],
        serde_json::json!([
            {"feature": "failure-hint", "implemented": false},
            {"feature": "failure-class", "implemented": true},
        ])
    );
    assert!(
        stdout.contains(
            "optional features not implemented (not compared, never passed): failure-hint (SHOULD: AR-RES-HINT-1"
        ),
        "{stdout}"
    );
    assert!(
        markdown.contains(
            r"optional features not implemented (not compared, never passed)\: failure-hint (SHOULD\: AR-RES-HINT-1"
        ),
        "{markdown}"
    );
}

/// Done when of issue 24: the rc.3 model's resilient report names the clause of each of the field
/// report's five defects, each with a counterexample shrunk while that clause stays violated; the
/// reviewer route's keeps the configured route that shows it.
#[test]
fn the_rc3_report_names_each_defect_with_a_counterexample() {
    let report = failing_resilient_report(
        concat!(env!("CARGO_MANIFEST_DIR"), "/adapters/node/rc3-model.js"),
        "rc3-violations",
    );
    let violations = report["violations"].as_array().unwrap();
    let counterexamples = report["counterexamples"].as_array().unwrap();
    let minimal = |clause: &str| -> serde_json::Value {
        let v = violations
            .iter()
            .find(|v| v["clause"] == clause)
            .unwrap_or_else(|| panic!("{clause} is not named: {violations:#?}"));
        let i = v["counterexample"]
            .as_u64()
            .unwrap_or_else(|| panic!("{clause} has no counterexample: {v}"));
        let found = &counterexamples[i as usize];
        assert!(
            found["clauses"]
                .as_array()
                .is_some_and(|c| c.iter().any(|c| c == clause)),
            "{clause}: {found}"
        );
        found["minimal"].clone()
    };
    // (1) A reviewer failure is denied before downstream, never asked about.
    assert!(minimal("AR-RES-FAIL-2")["reviewer"].is_object());
    // (2) The zero-tolerance reader: a fenced reply is a failure, not a decision.
    let fenced = minimal("AR-TOL-4");
    assert!(
        fenced["reviewer"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("```")),
        "{fenced}"
    );
    // (3) The reviewer route is the session's: the configured route stays in the counterexample.
    let routed = minimal("AR-RES-ROUTE-1");
    assert!(routed["config"]["reviewer_route"].is_object(), "{routed}");
    // (4) The schema only from the latest request header.
    let drift = minimal("AR-RES-SCHEMA-1");
    assert_eq!(drift["schema"]["header"], "missing", "{drift}");
    // (5) A non-string failure message is not normalized.
    let thrown = minimal("AR-RES-NORM-1");
    assert!(thrown["reviewer"]["throw"].is_object(), "{thrown}");
}

/// Done when of issue 24: the gate without session ids passes every case at `effects`,
/// `decisions` and `texts`, which do not compare the requests.
#[test]
fn a_gate_without_session_ids_conforms_below_full() {
    let adapter = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/adapters/no-session-id.js"
    );
    for level in ["effects", "decisions", "texts"] {
        let out = Command::new(BIN)
            .args(["check", "--profile", "resilient", "--level", level])
            .args(["--", "node", adapter])
            .output()
            .expect("run autoreview");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{level}: {stdout}");
        assert!(
            stdout.contains(&format!("level {level}")),
            "{level}: {stdout}"
        );
    }
}
