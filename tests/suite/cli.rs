//! The binary as a user runs it: `decide` streams outcomes and reports bad lines by number,
//! `check` ends with the summary line, `table` renders both formats.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn autoreview(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_autoreview"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn autoreview");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(data.as_bytes());
    });
    let out = child.wait_with_output().expect("wait for autoreview");
    writer.join().unwrap();
    out
}

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
fn usage_errors_exit_two_and_help_teaches() {
    let out = autoreview(&["decide", "--profile", "nonsense"], "");
    assert_eq!(out.status.code(), Some(2));
    let help = autoreview(&["--help"], "");
    let text = String::from_utf8(help.stdout).unwrap();
    assert!(
        text.contains("Examples:") && text.contains("spec/scenario.md"),
        "{text}"
    );
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

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("autoreview-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The JSON report records the run: its start, its duration and each case's, the seed of the
/// generated cases and the command line, beside every result.
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
        "BL-P",
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
    assert_eq!(r["report_version"], 1);
    assert_eq!(r["seed"], 7);
    assert_eq!(r["protocol"], serde_json::Value::Null, "in process");
    assert_eq!(r["succeeded"], true);
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
    assert!(
        results.iter().any(|c| c["id"] == "GEN-7-0") && results.len() > 3,
        "{results:?}"
    );
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

/// `--markdown` appends, as `$GITHUB_STEP_SUMMARY` needs when a step runs `check` twice, and the
/// summary's headline is the verdict the exit code gives.
#[test]
fn the_markdown_summary_is_appended_and_states_the_verdict() {
    let dir = temp_dir("markdown");
    let md = dir.join("summary.md");
    std::fs::write(&md, "earlier output of the step\n").unwrap();
    let path = md.to_string_lossy().into_owned();
    let mut lines = Vec::new();
    for (profile, only) in [("baseline", "BL-P"), ("resilient", "RS-P")] {
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
            "## autoreview check — `baseline`",
            "## autoreview check — `resilient`"
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

/// A TEXT difference shows as a word-level difference: coloured when `--color` allows, marked
/// `[-removed-]{+added+}` otherwise, and with HTML tags (never terminal colours) in Markdown.
#[test]
fn text_differences_show_the_changed_words() {
    let dir = temp_dir("worddiff");
    let md = dir.join("summary.md").to_string_lossy().into_owned();
    let bin = env!("CARGO_BIN_EXE_autoreview");
    let tamper = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/tamper.js");
    let run = |color: &str, no_color: Option<&str>| {
        let mut cmd = Command::new(bin);
        cmd.args(["check", "--profile", "baseline", "--only", "BL-11"])
            .args(["--color", color, "--markdown", &md])
            .args(["--", "node", tamper, bin, "text"])
            .env_remove("NO_COLOR");
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        let out = cmd.output().expect("run autoreview");
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stdout).unwrap()
    };
    let marked = "Error: the user [-rejected-]{+declined+} tool \"pwsh\"";
    let coloured = "the user \u{1b}[31mrejected\u{1b}[0m\u{1b}[32mdeclined\u{1b}[0m tool";
    // auto: stdout is a pipe here, so no colour.
    let out = run("auto", None);
    assert!(out.contains(marked), "{out}");
    assert!(!out.contains('\u{1b}'), "{out}");
    // always: colour even through a pipe and under NO_COLOR.
    let out = run("always", Some("1"));
    assert!(out.contains(coloured), "{out:?}");
    assert!(!out.contains("[-rejected-]"), "{out}");
    let summary = std::fs::read_to_string(&md).unwrap();
    assert!(
        summary.contains("the user <del>rejected</del><ins>declined</ins> tool"),
        "{summary}"
    );
    assert!(!summary.contains('\u{1b}'), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn color_auto_needs_a_terminal_and_no_no_color() {
    use autoreview::cli::Color;
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
