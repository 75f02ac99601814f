//! The binary as a user runs it: `decide` streams outcomes and reports bad lines by number,
//! `check` ends with the summary line, `table` renders both formats. The README's CI recipe and
//! the word diffs of a tampered Node.js gate are in the second tier (`tests/external/cli.rs`).

use crate::common::process::autoreview;
use autoreview::Profile;
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn decide_reports_bad_lines_by_number_and_keeps_going() {
    let input = concat!(
        r#"{"id":"a","tool":{"name":"pwsh"},"policy":"never","reviewer":{"text":"{\"risk\":\"high\",\"decision\":\"deny\"}"}}"#,
        "\n\n",
        r#"{"tool":{"name":"x"},"reviewer":{"txt":"oops"}}"#,
        "\n",
        "not json\r\n",
        r#"{"id":"b","tool":{"name":"x"},"agent":false,"reviewer":{"hang":true}}"#,
        "\n"
    );
    let out = autoreview(&["decide", "--profile", "baseline"], input);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        4,
        "one output line per non-blank input line: {lines:?}"
    );
    assert_eq!(lines[0]["id"], "a");
    assert_eq!(
        lines[0]["result"]["text"],
        "Error: Auto review rejected tool \"pwsh\"; its body was not executed"
    );
    assert_eq!(lines[1]["line"], 3);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .starts_with("reviewer: unrecognized attempt")
    );
    assert_eq!(lines[2]["line"], 4);
    assert!(
        lines[2]["error"]
            .as_str()
            .unwrap()
            .starts_with("invalid JSON")
    );
    assert_eq!(lines[3]["id"], "b");
    assert_eq!(lines[3]["result"]["executed"], true);
}

/// A configuration member that was retired is refused with why, not as an unknown member; other
/// unknown members keep serde's message.
#[test]
fn decide_explains_a_retired_configuration_member() {
    let input = concat!(
        r#"{"tool":{"name":"pwsh"},"reviewer":{"text":"x"},"config":{"strict_allow":false}}"#,
        "\n",
        r#"{"tool":{"name":"pwsh"},"reviewer":{"text":"x"},"config":{"strict":true}}"#,
        "\n",
    );
    let out = autoreview(&["decide", "--profile", "resilient"], input);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines[0]["error"],
        "config.strict_allow: `strict_allow` was retired: an allow now always stands alone in the \
         reviewer's text (AR-TOL-10), so remove this member"
    );
    let other = lines[1]["error"].as_str().unwrap();
    assert!(
        other.starts_with("config.strict: unknown field `strict`"),
        "{other}"
    );
}

#[test]
fn decide_exits_zero_when_every_line_is_good() {
    let out = autoreview(
        &["decide"],
        r#"{"tool":{"name":"t"},"reviewer":{"text":"{\"risk\":\"low\",\"decision\":\"allow\"}"}}"#,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn check_ends_with_the_summary_line() {
    let out = autoreview(&["check", "--profile", "baseline"], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().unwrap();
    let (passed, failed) = last
        .strip_prefix("PASS — ")
        .and_then(|l| l.split_once(" passed, "))
        .expect("PASS — N passed, N failed");
    assert!(passed.parse::<usize>().unwrap() > 60, "{last}");
    assert_eq!(failed, "0 failed");
    assert!(text.contains("decision-table"), "per-area summary: {text}");
}

#[test]
fn table_json_lists_rows_with_clauses() {
    let out = autoreview(&["table", "--profile", "baseline", "--format", "json"], "");
    assert_eq!(out.status.code(), Some(0));
    let t: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = t["rows"].as_array().unwrap();
    assert!(rows.len() >= 29);
    assert!(
        rows.iter()
            .all(|r| !r["clauses"].as_array().unwrap().is_empty())
    );
}

#[test]
fn usage_errors_exit_three_and_help_teaches() {
    let out = autoreview(&["decide", "--profile", "nonsense"], "");
    assert_eq!(out.status.code(), Some(3));
    let help = autoreview(&["--help"], "");
    let text = String::from_utf8(help.stdout).unwrap();
    assert!(
        text.contains("Examples:") && text.contains("spec/scenario.md"),
        "{text}"
    );
}

/// `check -- $ADAPTER` with the variable unset or empty is a usage error naming the likely
/// cause, never a green check of the in-process engine; so is an empty program for `smoke`.
/// Without `--` the engine is checked, as before.
#[test]
fn an_adapter_command_that_is_missing_or_empty_is_a_usage_error() {
    for args in [
        &["check", "--profile", "baseline", "--"][..],
        &["check", "--profile", "baseline", "--only", "BL-P1", "--"],
        &["check", "--profile", "baseline", "--", ""],
        &["check", "--profile", "baseline", "--", " ", "adapter.js"],
        &["smoke", "--profile", "baseline", "--", ""],
    ] {
        let out = autoreview(args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert!(err.contains("unset or empty"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: no case ran");
    }
    let out = autoreview(&["check", "--profile", "baseline", "--only", "BL-P1"], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("compared: autoreview ") && text.contains("with each case's own expectation"),
        "{text}"
    );
}

/// An adapter command given as one quoted word (`-- "$ADAPTER"` with `ADAPTER="node gate.js"`)
/// names a program that does not exist: the error says the whole string was taken as one
/// program's name and how to give the command, and no case runs.
#[test]
fn a_command_quoted_as_one_word_is_named_as_such() {
    let out = autoreview(
        &[
            "check",
            "--profile",
            "baseline",
            "--",
            "no-such-runtime gate.js",
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("the whole of \"no-such-runtime gate.js\" was taken as one program's name"),
        "{err}"
    );
    assert!(err.contains("as separate words"), "{err}");
    assert!(out.stdout.is_empty(), "no case ran");
    // A program not found whose name has no space gets the OS's word alone.
    let out = autoreview(
        &["check", "--profile", "baseline", "--", "no-such-runtime"],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("one program's name"), "{err}");
}

/// The count of generated cases a run shows is the one it announces: `--generated N` draws N calls,
/// and the sessions some of them draw too are counted apart.
#[test]
fn a_generated_run_says_its_calls_and_sessions_apart() {
    let out = autoreview(
        &[
            "check",
            "--profile",
            "resilient",
            "--generated",
            "60",
            "--seed",
            "3",
        ],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("compared: "))
        .unwrap_or_else(|| panic!("{text}"));
    let counts = line
        .split_once(" fixed cases and ")
        .and_then(|(_, rest)| rest.split_once("; seed 3)"))
        .map(|(counts, _)| counts)
        .unwrap_or_else(|| panic!("{line}"));
    let number = |s: &str| -> usize { s.trim().parse().unwrap_or_else(|_| panic!("{line}")) };
    let (all, rest) = counts
        .split_once(" generated (")
        .unwrap_or_else(|| panic!("{line}"));
    let (calls, sessions) = rest
        .split_once(" calls, ")
        .unwrap_or_else(|| panic!("{line}"));
    let sessions = sessions
        .trim_end_matches(" sessions")
        .trim_end_matches(" session");
    assert_eq!(number(calls), 60, "{line}");
    assert_eq!(number(all), 60 + number(sessions), "{line}");
    assert!(number(sessions) > 0, "{line}");
}

/// A selector that names no case suggests selectors that name cases of the profile run: no
/// resilient-only ID in a baseline run.
#[test]
fn a_selector_naming_nothing_suggests_the_profiles_own_cases() {
    for (profile, own, other) in [("baseline", "BL-", "RS-"), ("resilient", "RS-", "BL-")] {
        let out = autoreview(&["check", "--profile", profile, "--only", "NOPE-1"], "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{err}");
        let examples = err.split_once("(examples: ").expect("examples").1;
        assert!(examples.starts_with(own), "{profile}: {err}");
        assert!(!examples.contains(other), "{profile}: {err}");
    }
}

/// An output path that is empty, as an unset variable gives it, is refused before any case runs,
/// saying that it is empty and how to give a default.
#[test]
fn an_empty_output_path_is_named_as_empty() {
    for flag in [
        "--markdown",
        "--junit",
        "--report-json",
        "--write-expect",
        "--freeze",
        "--cases",
    ] {
        let out = autoreview(&["check", "--profile", "baseline", flag, ""], "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{flag}: {err}");
        assert!(
            err.contains(&format!("{flag} was given an empty path")),
            "{flag}: {err}"
        );
        assert!(out.stdout.is_empty(), "{flag}: no case ran");
    }
}

/// Scenario text every reader reads alike (scenario.md): `decide` and `serve` refuse a member
/// named twice anywhere and an integer a JavaScript reader cannot hold, naming where, and refuse
/// the runtime's impossible calls by rule.
#[test]
fn decide_and_serve_refuse_ambiguous_and_unrealizable_scenarios() {
    let lines = [
        r#"{"tool":{"name":"a"},"reviewer":{"blocks":[{"type":"text","text":"x","text":"{\"risk\":\"low\",\"decision\":\"allow\"}"}]}}"#,
        r#"{"tool":{"name":"a"},"reviewer":{"throw":{"n":-9007199254740992}}}"#,
        r#"{"tool":{"name":"a"},"reviewer":{"text":"","delay_ms":9007199254740992}}"#,
        r#"{"tool":{"name":"bash","call":"run-code"},"reviewer":{"text":""}}"#,
        r#"{"tool":{"name":"a"},"reviewer":{"throw":9007199254740991}}"#,
    ];
    let out = autoreview(
        &["decide", "--profile", "baseline"],
        &(lines.join("\n") + "\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let got: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let error = |i: usize| got[i]["error"].as_str().unwrap_or_default().to_owned();
    assert!(
        error(0).starts_with("reviewer.blocks[0]: the member \"text\" appears twice"),
        "{}",
        error(0)
    );
    assert!(
        error(1).starts_with("reviewer.throw.n: the integer -9007199254740992 is beyond"),
        "{}",
        error(1)
    );
    assert!(
        error(2).starts_with("reviewer.delay_ms: the integer 9007199254740992"),
        "{}",
        error(2)
    );
    assert!(error(3).contains("(RZ-1)"), "{}", error(3));
    assert_eq!(
        got[4]["result"]["text"]
            .as_str()
            .map(|t| t.ends_with(": 9007199254740991")),
        Some(true)
    );

    let session = concat!(
        r#"{"type":"hello","protocol":1,"profile":"baseline","runner":"test"}"#,
        "\n",
        r#"{"type":"decide","seq":1,"scenario":{"tool":{"name":"a","name":"b"},"reviewer":{"text":""}}}"#,
        "\n",
        r#"{"type":"stop"}"#,
        "\n"
    );
    let out = autoreview(&["serve"], session);
    let replies = String::from_utf8(out.stdout).unwrap();
    let decide: serde_json::Value = serde_json::from_str(replies.lines().nth(1).unwrap()).unwrap();
    assert_eq!(decide["type"], "error", "{replies}");
    assert!(
        decide["message"]
            .as_str()
            .unwrap()
            .contains("scenario.tool: the member \"name\" appears twice"),
        "{decide}"
    );
}

/// `decide` answers each line as soon as it is read, so it can run as a co-process: one line in,
/// stdin still open, one outcome out.
#[test]
fn decide_answers_each_line_before_the_input_ends() {
    use std::io::{BufRead as _, BufReader};
    use std::sync::mpsc;
    use std::time::Duration;
    let mut child = Command::new(env!("CARGO_BIN_EXE_autoreview"))
        .args(["decide", "--profile", "baseline"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn autoreview");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let ask = |stdin: &mut std::process::ChildStdin, id: &str| {
        writeln!(
            stdin,
            r#"{{"id":"{id}","tool":{{"name":"t"}},"reviewer":{{"text":"{{\"risk\":\"low\",\"decision\":\"allow\"}}"}}}}"#
        )
        .unwrap();
        stdin.flush().unwrap();
    };
    for id in ["first", "second"] {
        ask(&mut stdin, id);
        let line = rx.recv_timeout(Duration::from_secs(5));
        let Ok(line) = line else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no outcome for {id} while stdin stayed open: {line:?}");
        };
        let outcome: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(outcome["id"], id, "{line}");
        assert_eq!(outcome["listener"]["kind"], "allow", "{line}");
    }
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// `serve` takes `--profile` as every other command does, and `--profiles` as before.
#[test]
fn serve_takes_profile_and_profiles() {
    let hello = concat!(
        r#"{"type":"hello","protocol":1,"profile":"baseline","runner":"test"}"#,
        "\n",
        r#"{"type":"stop"}"#,
        "\n"
    );
    for args in [
        &["serve", "--profile", "baseline"][..],
        &["serve", "--profiles", "baseline"][..],
        &["serve", "--profile", "baseline", "resilient"][..],
        &["serve"][..],
    ] {
        let out = autoreview(args, hello);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let reply: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let want: Vec<&str> = match args.len() {
            3 => vec!["baseline"],
            4 => vec!["baseline", "resilient"],
            // Every profile the suite ships.
            _ => Profile::all().iter().map(|p| p.as_str()).collect(),
        };
        assert_eq!(reply["profiles"], serde_json::json!(want), "{args:?}");
    }
}

/// A zero timeout or reply cap would fail every case as the adapter's fault: the options refuse
/// it, saying the minimum, before anything runs.
#[test]
fn zero_limits_are_refused_when_the_options_are_read() {
    for (args, option) in [
        (&["check", "--timeout-ms", "0"][..], "--timeout-ms"),
        (
            &["check", "--max-reply-bytes", "0"][..],
            "--max-reply-bytes",
        ),
        (
            &["smoke", "--timeout-ms", "0", "--", "true"][..],
            "--timeout-ms",
        ),
    ] {
        let out = autoreview(args, "");
        assert_eq!(out.status.code(), Some(3), "{args:?}: a usage error");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("invalid value '0' for '{option}"))
                && stderr.contains("the minimum is 1"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: nothing ran");
    }
    // 1 is a valid limit.
    let out = autoreview(
        &[
            "check",
            "--profile",
            "baseline",
            "--timeout-ms",
            "1",
            "--only",
            "BL-1",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The error of each line `decide` refuses, in input order.
fn decide_errors(lines: &[&str]) -> Vec<String> {
    let out = autoreview(&["decide"], &(lines.join("\n") + "\n"));
    assert_eq!(out.status.code(), Some(1));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["error"].as_str().unwrap_or_default().to_owned()
        })
        .collect()
}

/// Every integer member of the scenario contract says that a negative number is negative and
/// what to give instead, at the member's path (never `expected u32`).
#[test]
fn decide_says_a_negative_number_is_negative_for_every_integer_member() {
    let rows = [
        (
            r#"{"tool":{"name":"a"},"reviewer":{"text":""},"session":{"consecutive_failures":-1}}"#,
            "session.consecutive_failures: -1 is negative; give a whole number of failures from 0 to 4294967295",
        ),
        (
            r#"{"tool":{"name":"a"},"reviewer":{"text":""},"config":{"repair_attempts":-1}}"#,
            "config.repair_attempts: -1 is negative; give a whole number from 0 to 5",
        ),
        (
            r#"{"tool":{"name":"a"},"reviewer":{"text":""},"config":{"transport_retries":-2}}"#,
            "config.transport_retries: -2 is negative; give a whole number from 0 to 5",
        ),
        (
            r#"{"tool":{"name":"a"},"reviewer":{"text":""},"config":{"review_timeout_ms":-1}}"#,
            "config.review_timeout_ms: -1 is negative; give a whole number of milliseconds ≥ 1",
        ),
        (
            r#"{"tool":{"name":"a"},"reviewer":{"text":""},"config":{"failure_hint_after":-1}}"#,
            "config.failure_hint_after: -1 is negative; give a whole number of failures from 1 to 4294967295",
        ),
        (
            r#"{"tool":{"name":"a"},"reviewer":{"text":""},"config":{"max_json_retries":-1}}"#,
            "config.max_json_retries: -1 is negative; give a whole number from 0 to 5",
        ),
        (
            r#"{"tool":{"name":"a"},"reviewer":{"text":"","delay_ms":-1}}"#,
            "reviewer: delay_ms: -1 is negative; give a whole number of milliseconds ≥ 0",
        ),
        (
            r#"{"tool":{"name":"a"},"reviewer":[{"text":""},{"blocks":[],"delay_ms":-5}]}"#,
            "reviewer: attempt [1]: delay_ms: -5 is negative; give a whole number of milliseconds ≥ 0",
        ),
        (
            r#"{"tool":{"name":"a"},"reviewer":{"finish":{"kind":"error","code":"X","message":""},"delay_ms":-1}}"#,
            "reviewer: delay_ms: -1 is negative;",
        ),
        (
            r#"{"tool":{"name":"a"},"reviewer":{"throw":-1,"delay_ms":-1.5}}"#,
            "reviewer: delay_ms: -1.5 is negative;",
        ),
    ];
    let lines: Vec<&str> = rows.iter().map(|(l, _)| *l).collect();
    for (got, (line, want)) in decide_errors(&lines).iter().zip(&rows) {
        assert!(got.starts_with(want), "{line}\n got: {got}\nwant: {want}");
    }
    // Those are all the integer members the contract has: a new one needs a row here.
    let schema = autoreview::schema::text(autoreview::schema::Format::Scenario);
    assert_eq!(
        schema.matches("\"type\": \"integer\"").count(),
        rows.len(),
        "the scenario schema's integer members"
    );
}

/// Text no JSON reader takes as it stands is named with its remedy, and the path where there is
/// one: a lone surrogate escape, a byte-order mark, a scenario that is not an object.
#[test]
fn decide_names_unreadable_text_and_what_to_do() {
    let bom = "\u{feff}{\"tool\":{\"name\":\"a\"},\"reviewer\":{\"text\":\"\"}}";
    let lines = [
        r#"{"tool":{"name":"\ud800"},"reviewer":{"text":""}}"#,
        r#"{"tool":{"name":"a"},"reviewer":[{"text":"x"},{"blocks":[{"type":"text","text":"a\uDC00"}]}]}"#,
        r#"{"tool":{"name":"a"},"reviewer":{"text":"\ud83d\ude00 \\ud800 \ud800\u0041"}}"#,
        r#"{"tool":{"name":"a","\udfffx":1},"reviewer":{"text":""}}"#,
        bom,
        r#"[{"tool":{"name":"a"},"reviewer":{"text":""}}]"#,
        "42",
        r#""{\"tool\":{}}""#,
        " null ",
        "not json",
        r#"{"tool":{"name":"a"} "reviewer":{"text":""}}"#,
    ];
    let got = decide_errors(&lines);
    let want = [
        r"tool.name: \ud800 is a lone surrogate escape, which a scenario cannot carry (a string must be valid Unicode)",
        r"reviewer[1].blocks[0].text: \uDC00 is a lone surrogate escape",
        // A pair and an escaped backslash are not lone; the third escape is.
        r"reviewer.text: \ud800 is a lone surrogate escape",
        r"tool: a member name holds \udfff, a lone surrogate escape",
        "the text starts with a byte-order mark (U+FEFF); remove it",
        "a scenario is a JSON object ({\"tool\": ..., \"reviewer\": ...}), not an array",
        "a scenario is a JSON object ({\"tool\": ..., \"reviewer\": ...}), not a number",
        "a scenario is a JSON object ({\"tool\": ..., \"reviewer\": ...}), not a string",
        "a scenario is a JSON object ({\"tool\": ..., \"reviewer\": ...}), not null",
        "invalid JSON: expected ident (line 1, column 2)",
        "invalid JSON: expected `,` or `}` (line 1, column 22)",
    ];
    assert_eq!(got.len(), want.len());
    for ((got, want), line) in got.iter().zip(want).zip(lines) {
        assert!(got.starts_with(want), "{line}\n got: {got}\nwant: {want}");
    }
}

/// `serve` reads its request lines with the same reader: a lone surrogate in a scenario gets an
/// error reply carrying the request's seq, instead of no reply at all, and a line that is not an
/// object or starts with a byte-order mark is named as such.
#[test]
fn serve_names_unreadable_request_lines() {
    let session = [
        "\u{feff}{\"type\":\"hello\",\"protocol\":1,\"profile\":\"baseline\",\"runner\":\"t\"}",
        r#"{"type":"hello","protocol":1,"profile":"baseline","runner":"t"}"#,
        r#"{"type":"decide","seq":7,"scenario":{"tool":{"name":"\ud800"},"reviewer":{"text":""}}}"#,
        r#"{"type":"decide","seq":8,"scenario":"pwsh"}"#,
        r#"{"type":"decide","seq":9,"scenario":{"tool":{"name":"a"},"reviewer":{"text":""},"config":{"review_timeout_ms":-1}}}"#,
        "[7]",
        r#"{"type":"stop"}"#,
    ];
    let out = autoreview(&["serve"], &(session.join("\n") + "\n"));
    assert_eq!(out.status.code(), Some(0));
    let replies: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 4, "{replies:#?}");
    assert_eq!(replies[0]["type"], "hello");
    let error = |i: usize, seq: u64| {
        assert_eq!(replies[i]["type"], "error", "{}", replies[i]);
        assert_eq!(replies[i]["seq"], seq, "{}", replies[i]);
        replies[i]["message"].as_str().unwrap().to_owned()
    };
    assert_eq!(
        error(1, 7),
        r"not a request: scenario.tool.name: \ud800 is a lone surrogate escape, which a scenario cannot carry (a string must be valid Unicode)"
    );
    assert_eq!(
        error(2, 8),
        "invalid scenario: a scenario is a JSON object ({\"tool\": ..., \"reviewer\": ...}), not a string"
    );
    assert_eq!(
        error(3, 9),
        "invalid scenario: config.review_timeout_ms: -1 is negative; give a whole number of milliseconds ≥ 1"
    );
    let log = String::from_utf8(out.stderr).unwrap();
    assert!(
        log.contains("not a request: the text starts with a byte-order mark (U+FEFF)"),
        "{log}"
    );
    assert!(
        log.contains("not a request: a request is a JSON object, not an array"),
        "{log}"
    );
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("autoreview-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `--markdown` appends, as `$GITHUB_STEP_SUMMARY` needs when a step runs `check` twice, and the
/// summary's headline is the verdict the exit code gives.
#[test]
fn the_markdown_summary_is_appended_and_states_the_verdict() {
    let dir = temp_dir("markdown");
    let md = dir.join("summary.md");
    std::fs::write(&md, "earlier output of the step\n").unwrap();
    let path = md.to_string_lossy().into_owned();
    let mut lines = Vec::new();
    for (profile, only) in [("baseline", "BL-P*"), ("resilient", "RS-P*")] {
        let out = autoreview(
            &[
                "check",
                "--profile",
                profile,
                "--only",
                only,
                "--markdown",
                &path,
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(0));
        let stdout = String::from_utf8(out.stdout).unwrap();
        lines.push(stdout.lines().last().unwrap().to_owned());
    }
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.starts_with("earlier output of the step\n\n## "),
        "{text}"
    );
    let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        [
            "## autoreview check — `baseline` at level `full`",
            "## autoreview check — `resilient` at level `full`"
        ]
    );
    for line in &lines {
        assert!(line.starts_with("PASS — "), "{line}");
        assert!(
            text.contains(&format!("\n**{line}**\n")),
            "{line} in {text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The JSON report records the run: its start, its duration and each case's, its plan (the seed
/// and count of the generated cases, the selection, the implementation) and the command line,
/// beside every result.
#[test]
fn the_json_report_records_the_run() {
    let dir = temp_dir("json");
    let json = dir.join("r.json").to_string_lossy().into_owned();
    let before = std::time::SystemTime::now();
    let args = [
        "check",
        "--profile",
        "baseline",
        "--only",
        "BL-P*",
        "--generated",
        "3",
        "--seed",
        "7",
        "--report-json",
        &json,
    ];
    let out = autoreview(&args, "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(r["report_version"], 7);
    assert_eq!(r["seed"], 7);
    // What the run covered: the MUST clauses the cases it judged cite, the generated ones too.
    let coverage = &r["coverage"];
    let (judged, must) = (coverage["judged"].as_u64(), coverage["must"].as_u64());
    assert!(judged.is_some_and(|j| j > 0) && must > judged, "{coverage}");
    assert_eq!(
        coverage["unjudged"].as_array().map(Vec::len),
        must.zip(judged).map(|(m, j)| (m - j) as usize)
    );
    assert!(
        r["generated_clauses"]
            .as_array()
            .is_some_and(|c| !c.is_empty())
    );
    assert_eq!(r["protocol"], serde_json::Value::Null, "in process");
    assert_eq!(r["succeeded"], true);
    assert_eq!(
        r["implementation_info"],
        serde_json::json!({"name": "autoreview reference engine", "version": env!("CARGO_PKG_VERSION"), "language": "rust"})
    );
    assert_eq!(r["command"], serde_json::json!([]), "no adapter");
    assert_eq!(r["shard"], serde_json::Value::Null, "not split");
    assert_eq!(r["generated"], 3);
    // The plan of the run, so that no reader parses the command line.
    assert_eq!(r["in_process"], "engine");
    assert_eq!(
        r["selection"],
        serde_json::json!({"only": ["BL-P*"], "skip": [], "no_fixed": false})
    );
    let draws = r["session_draws"].as_str().expect("the session draws");
    assert!(
        draws.len() == 1 && draws.chars().all(|c| c.is_ascii_hexdigit()),
        "one hexadecimal digit for 3 cases: {draws}"
    );
    assert_eq!(r["counterexamples"], serde_json::json!([]));
    // A decision-table row's case falls under its own row.
    for c in r["results"].as_array().unwrap() {
        assert_eq!(c["row"], c["id"], "{c}");
    }
    let argv: Vec<&str> = r["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(&argv[1..], &args[..], "the command line after the program");
    let started = chrono::DateTime::parse_from_rfc3339(r["started"].as_str().unwrap())
        .expect("an RFC 3339 start");
    let before = chrono::DateTime::<chrono::Utc>::from(before);
    let lag = started.signed_duration_since(before).num_milliseconds();
    assert!(
        (-1..60_000).contains(&lag),
        "started {started}, {lag} ms after the test began"
    );
    let results = r["results"].as_array().unwrap();
    // The fixed cases are listed; the three generated cases passed, so they are only counted.
    assert!(
        results.iter().all(|c| c["area"] == "decision-table") && results.len() > 3,
        "{results:?}"
    );
    // And the sessions some of them draw, for the reference, which observes sessions.
    let generated = 3
        + (0..3)
            .filter(|&k| autoreview::runner::generated_sessions::draws_session(7, k))
            .count();
    assert_eq!(r["generated_passed"], generated);
    assert_eq!(r["summary"]["total"]["cases"], results.len() + generated);
    let cases: f64 = results
        .iter()
        .map(|c| c["duration_ms"].as_f64().expect("each case's duration"))
        .sum();
    let total = r["duration_ms"].as_f64().unwrap();
    assert!(
        total > 0.0 && cases <= total,
        "cases {cases} ms, run {total} ms"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn color_auto_needs_a_terminal_and_no_no_color() {
    use autoreview::report::Color;
    use std::ffi::OsStr;
    let set = Some(OsStr::new("1"));
    let empty = Some(OsStr::new(""));
    assert!(Color::Auto.enabled(true, None));
    assert!(
        Color::Auto.enabled(true, empty),
        "an empty NO_COLOR is unset"
    );
    assert!(!Color::Auto.enabled(true, set));
    assert!(!Color::Auto.enabled(false, None));
    assert!(Color::Always.enabled(false, set));
    assert!(!Color::Never.enabled(true, None));
}

/// `requirements` prints the trace; a reader that stops early (`| head -1`) ends the listing
/// quietly, with success and no error, as a pipe's writer should.
#[test]
fn requirements_lists_each_clause_and_stops_quietly_when_the_reader_does() {
    use std::io::Read as _;
    let out = Command::new(env!("CARGO_BIN_EXE_autoreview"))
        .args([
            "requirements",
            "--profile",
            "baseline",
            "--generated",
            "0",
            "--gaps",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("baseline: ") && text.contains(" MUST clauses"),
        "{text}"
    );
    // With no generated cases every MUST clause lacks reach, so each is listed.
    assert!(text.contains("AR-SCOPE-1"), "{text}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_autoreview"))
        .args(["requirements", "--generated", "0", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe is closed now; the rest (far more than a pipe holds) finds no reader.
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// `--require-coverage` fails a run that judged less than the share of the profile's MUST clauses
/// it names, saying the share, the requirement and the clauses left unjudged; a run that judged
/// enough passes, and every report states the share.
#[test]
fn a_run_that_judged_too_few_must_clauses_fails_its_coverage_requirement() {
    let dir = temp_dir("coverage");
    let json = dir.join("r.json").to_string_lossy().into_owned();
    let narrow = [
        "check",
        "--profile",
        "baseline",
        "--only",
        "BL-P1",
        "--require-coverage",
        "50",
        "--report-json",
        &json,
    ];
    let out = autoreview(&narrow, "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains(
            "below the required 50% (--require-coverage): no case it judged cites AR-CONV-3, "
        ),
        "{stderr}"
    );
    assert!(
        stdout.contains("\ncovered (baseline profile): judged "),
        "{stdout}"
    );
    assert!(
        stdout.contains(" MUST clauses (")
            && stdout.contains("), required 50%: NOT met; not judged: AR-CONV-3, "),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("FAIL — 1 passed, 0 failed, ")
                && l.ends_with(" of the MUST clauses judged, below the required 50%")),
        "{stdout}"
    );
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(r["succeeded"], false);
    assert_eq!(r["required_coverage"], 50.0);
    assert_eq!(r["coverage"]["required"], 50.0);
    // The whole suite judges more than half of them.
    let whole = autoreview(
        &[
            "check",
            "--profile",
            "baseline",
            "--require-coverage",
            "50%",
        ],
        "",
    );
    assert_eq!(
        whole.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&whole.stdout)
    );
}

/// A `--require-coverage` that is not a percentage is refused before any case runs, naming the
/// option, what it expects and an example.
#[test]
fn a_bad_coverage_requirement_is_refused_with_the_fix() {
    for bad in ["150", "eighty", "-5"] {
        let out = autoreview(&["check", &format!("--require-coverage={bad}")], "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{bad}: {stderr}");
        assert!(stderr.contains("--require-coverage"), "{stderr}");
        assert!(
            stderr.contains("expected a percentage from 0 to 100, such as 80 or 62.5%"),
            "{stderr}"
        );
    }
}
