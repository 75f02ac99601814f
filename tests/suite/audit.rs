//! `autoreview audit` (spec/audit.md): the field report's own figures, rebuilt as an audit log
//! (spec/fixtures/audit/field-report.jsonl, written by tools/field-report-log.py), audit back to the
//! report's tables; a quoted failure is not one; a malformed line is reported and skipped.

use std::collections::BTreeMap;

use autoreview::Profile;
use autoreview::audit::{Audit, Summary};

use crate::common::process::{autoreview, json};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/spec/fixtures/audit/field-report.jsonl"
);

fn audited(profile: Profile) -> Summary {
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let mut audit = Audit::new(profile, 3);
    for (k, line) in text.lines().enumerate() {
        audit.line("field-report.jsonl", k as u64 + 1, line);
    }
    audit.finish()
}

/// The field report's class × route table ("Per route"), as the report prints it: A1 tool-call
/// markup, A2 prose, B the request failed, C the schema lookup. The report groups codearts, cline
/// and raccoon (one B each); the fixture names a model for each.
fn the_reports_table() -> BTreeMap<&'static str, [u64; 4]> {
    BTreeMap::from([
        ("qodercn/qfmodel", [9, 11, 1, 0]),
        ("qodercn/dfmodel", [14, 1, 0, 0]),
        ("fuck-gpt/gpt-6.1-sol", [0, 0, 5, 0]),
        ("buddy/deepseek-v4.1-flash", [0, 0, 1, 4]),
        ("minimax/MiniMax-M3.1-Flash-Preview", [0, 1, 3, 0]),
        ("trae/deepseek-v4.1-flash", [0, 0, 2, 0]),
        ("codearts/cline/raccoon", [0, 0, 3, 0]),
    ])
}

#[test]
fn the_field_reports_log_audits_to_its_tables() {
    for profile in Profile::all() {
        let s = audited(profile);
        // "55 genuine failure events across 15 sessions".
        assert_eq!(s.failures(), 55, "{profile}");
        assert_eq!(s.per_session.len(), 15, "{profile}");
        assert_eq!(s.per_session.values().sum::<u64>(), 55);
        assert_eq!(s.skipped_count, 0);
        assert_eq!(s.calls.get("undecidable"), Some(&1));
        // The sessions that only quote the error text are not among them.
        for quoting in ["s-1021-b", "s-1022-b"] {
            assert!(!s.per_session.contains_key(quoting), "{quoting}");
        }
        // The class × route table.
        let columns = ["tool-call-markup", "prose", "request-failed", "schema"];
        let mut got: BTreeMap<&str, [u64; 4]> = BTreeMap::new();
        for (route, counts) in &s.by_route {
            let row = if ["codearts/", "cline/", "raccoon/"]
                .iter()
                .any(|p| route.starts_with(p))
            {
                "codearts/cline/raccoon"
            } else {
                route.as_str()
            };
            let entry = got.entry(row).or_default();
            for (k, c) in columns.iter().enumerate() {
                entry[k] += counts.get(*c).copied().unwrap_or(0);
            }
            assert_eq!(counts.get("other"), None, "{route}");
        }
        assert_eq!(got, the_reports_table(), "{profile}");
        // Class B by what failed: TRANSPORT ×4 and the SSE transport error ×2, QUOTA_EXCEEDED ×3,
        // aborted ×3, TIMEOUT ×1, other ×2.
        let b: BTreeMap<&str, u64> = s
            .request_failed
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect();
        assert_eq!(
            b,
            BTreeMap::from([
                ("transport", 6),
                ("quota", 3),
                ("abort", 3),
                ("timeout", 1),
                ("provider", 2)
            ])
        );
    }
}

/// "Worst streaks, same session, minutes apart": the 2026-10-21 streak and the 2026-10-25
/// lockout (five calls in 24 s, then the user's escape to full access) lead the streaks.
#[test]
fn the_two_worst_streaks_lead_with_their_times_and_the_escape() {
    let s = audited(Profile::BASELINE);
    let times = |k: usize| -> Vec<(String, String)> {
        s.streaks[k]
            .calls
            .iter()
            .map(|c| (c.time.clone().unwrap_or_default(), c.tool.clone()))
            .collect()
    };
    let at = |t: &str, tool: &str| (format!("2026-10-21T{t}Z"), tool.to_owned());
    assert_eq!(
        times(0),
        vec![
            at("15:25:36", "mcp__windows__PowerShell"),
            at("15:28:04", "mcp__windows__PowerShell"),
            at("15:28:57", "pwsh"),
            at("15:29:16", "working_directory"),
            at("15:29:29", "list_agents"),
        ]
    );
    assert_eq!(s.streaks[0].calls[0].what, "prose");
    let lockout = &s.streaks[1];
    assert_eq!((lockout.length, lockout.calls.len()), (5, 5));
    assert_eq!(
        lockout.calls[0].time.as_deref(),
        Some("2026-10-25T07:11:57Z")
    );
    assert!(lockout.calls.iter().all(|c| c.what == "tool-call-markup"));
    let escape = lockout.escape.as_ref().expect("the user's escape");
    assert_eq!(escape.preset, "danger-full-access");
    assert_eq!(escape.time.as_deref(), Some("2026-10-25T07:12:15Z"));
    assert_eq!(s.escapes.len(), 1);
    assert!(s.streaks.iter().skip(2).all(|k| k.length < 5));
}

/// The command prints the same tables, as text, JSON and Markdown; a malformed line is named
/// with its file and line and skipped, and the run goes on; `-` reads standard input.
#[test]
fn the_command_prints_the_tables_and_skips_a_malformed_line() {
    let out = autoreview(&["audit", FIXTURE], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("55 reviewer failures in 15 sessions"),
        "{text}"
    );
    assert!(text.contains("2026-10-25T07:12:15Z  escape to danger-full-access"));
    let out = autoreview(&["audit", FIXTURE, "--markdown"], "");
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(
        md.contains("| qodercn/qfmodel | 9 | 11 | 1 | — | — |"),
        "{md}"
    );
    let out = autoreview(&["audit", FIXTURE, "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["calls"]["failure"], 55);

    let log = concat!(
        r#"{"session":"s","tool":"pwsh","result":{"text":"Error: Auto review of tool \"pwsh\" failed; its body was not executed: auto-review: reviewer ended with error TRANSPORT: Connection error"}}"#,
        "\n",
        "{not json\n",
        r#"{"session":"s","kind":"turn"}"#,
        "\n",
        r#"{"session":"s","tool":"ls","result":{"text":"a.txt"}}"#,
        "\n",
    );
    let out = autoreview(&["audit", "-"], log);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("4 lines read, 2 skipped; 2 calls: 1 allowed"),
        "{text}"
    );
    assert!(text.contains("skipped <stdin>:2: not JSON"), "{text}");
    assert!(
        text.contains("skipped <stdin>:3: `kind` is \"turn\"; expected \"call\" or \"preset\""),
        "{text}"
    );
}

/// A log compressed with gzip or zstd, in several members or frames (a skippable frame between
/// two), audits as the plain log does; a zstd log cut short is reported where reading stopped,
/// the calls before it kept, and the run goes on to the next log.
#[test]
fn a_compressed_log_audits_as_the_plain_one() {
    use std::io::Write as _;
    let dir = crate::shared_dir::fresh("audit-compressed");
    let text = std::fs::read(FIXTURE).unwrap();
    let (first, second) = text.split_at(text.len() / 2);
    let summary = |log: &std::path::Path| -> serde_json::Value {
        let out = autoreview(&["audit", log.to_str().unwrap(), "--json"], "");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let plain = summary(std::path::Path::new(FIXTURE));
    assert_eq!(plain["calls"]["failure"], 55);

    let gz = dir.join("log.jsonl.gz");
    let mut bytes = Vec::new();
    for half in [first, second] {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(half).unwrap();
        bytes.extend(e.finish().unwrap());
    }
    std::fs::write(&gz, &bytes).unwrap();
    assert_eq!(summary(&gz), plain);

    let zst = dir.join("session.v4.jsonl.zstd");
    let fastest = ruzstd::encoding::CompressionLevel::Fastest;
    let mut bytes = ruzstd::encoding::compress_to_vec(first, fastest);
    // A skippable frame: magic 0x184D2A50, a length, that many bytes.
    bytes.extend(0x184D_2A50u32.to_le_bytes());
    bytes.extend(3u32.to_le_bytes());
    bytes.extend(b"abc");
    bytes.extend(ruzstd::encoding::compress_to_vec(second, fastest));
    std::fs::write(&zst, &bytes).unwrap();
    assert_eq!(summary(&zst), plain);

    // Cut short inside its last frame, then the plain log: the first half is kept, the cut is
    // reported as a skipped line, and the plain log is read whole after it.
    let cut = dir.join("cut.zst");
    std::fs::write(&cut, &bytes[..bytes.len() - 20]).unwrap();
    let out = autoreview(&["audit", cut.to_str().unwrap(), FIXTURE, "--json"], "");
    assert_eq!(out.status.code(), Some(0));
    let both: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(both["skipped_count"], 1, "{both}");
    let why = both["skipped"][0]["why"].as_str().unwrap();
    assert!(why.starts_with("reading stopped here: "), "{why}");
    let read = |s: &serde_json::Value| {
        s["calls"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum::<u64>()
    };
    let first_calls = first.iter().filter(|b| **b == b'\n').count() as u64;
    assert!(read(&both) >= read(&plain) + first_calls, "{both}");
    assert!(read(&both) < 2 * read(&plain), "{both}");
}

/// A session refused without end is one streak whose length counts every call and whose list
/// keeps the first few: what a streak holds does not grow with the log.
#[test]
fn an_endless_streak_is_counted_not_kept() {
    let line = r#"{"session":"s","tool":"pwsh","result":{"text":"Error: Auto review of tool \"pwsh\" failed; its body was not executed: auto-review: reviewer ended with error TRANSPORT: Connection error"}}"#;
    let mut audit = Audit::new(Profile::BASELINE, 3);
    for k in 0..1000 {
        audit.line("log", k + 1, line);
    }
    let s = audit.finish();
    assert_eq!(s.streak_count, 1);
    assert_eq!(s.streaks[0].length, 1000);
    assert_eq!(s.streaks[0].calls.len(), autoreview::audit::STREAK_CALLS);
    assert!(s.render(false).contains("… and 950 more"));
}

/// Judged under the resilient profile, the field report's log breaks AR-RES-FAIL-2 on every one
/// of its 55 failures (all under `ask`, none asked) and AR-RES-NORM-1 on the three shown as
/// `[object Object]`: two of the report's five defects, from its own data. Under the baseline,
/// which the shipped gate follows, it breaks nothing.
#[test]
fn the_field_reports_log_judged_under_the_resilient_profile() {
    let s = audited(Profile::BASELINE);
    let judged = |p: &str, c: &str| s.judged.get(p).and_then(|j| j.get(c)).map(|j| j.calls);
    assert_eq!(judged("resilient", "AR-RES-FAIL-2"), Some(55));
    assert_eq!(judged("resilient", "AR-RES-NORM-1"), Some(3));
    assert_eq!(s.judged.get("resilient").map(|j| j.len()), Some(2));
    assert_eq!(s.judged.get("baseline"), None);
}

/// A recorded reply the profile's reader reads as a decision was no failure: a fenced allow is
/// one under the resilient reader (AR-TOL-4), none under the baseline's.
#[test]
fn a_recorded_reply_is_read_again_with_the_profiles_reader() {
    let line = r#"{"session":"s","tool":"ls","policy":"never","result":{"text":"Error: Auto review of tool \"ls\" failed; its body was not executed: Unexpected token '`', \"```json\n{\"... is not valid JSON"},"reviewer":{"reply":"```json\n{\"risk\":\"low\",\"decision\":\"allow\"}\n```"}}"#;
    let mut audit = Audit::new(Profile::BASELINE, 3);
    audit.line("log", 1, line);
    let s = audit.finish();
    assert_eq!(s.failures(), 1);
    assert_eq!(s.judged.get("baseline"), None);
    let resilient = s.judged.get("resilient").expect("judged");
    assert_eq!(
        resilient.keys().collect::<Vec<_>>(),
        vec!["AR-TOL-4"],
        "{resilient:?}"
    );
}

/// `check --audit-log` writes what the implementation did as audit records, and `audit` reads them
/// back: the reference deciding as the baseline (the shipped gate) breaks nothing of the baseline
/// and, judged under the resilient profile, AR-RES-FAIL-2 (failures under ask denied unasked) and
/// the resilient reader's rules (replies it reads as decisions); the reference deciding as the
/// resilient profile breaks nothing of it.
#[test]
fn a_check_writes_a_log_that_audits_as_its_profile_decides() {
    let dir = crate::shared_dir::fresh("audit-log");
    let judged = |profile: &str| -> serde_json::Value {
        let log = dir.join(format!("{profile}.jsonl"));
        let log = log.to_str().unwrap();
        let out = autoreview(
            &[
                "check",
                "--profile",
                profile,
                "--audit-log",
                log,
                "--implementation",
                "engine",
            ],
            "",
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = autoreview(&["audit", "--profile", profile, log, "--json"], "");
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(
            summary["calls"]["failure"].as_u64().unwrap() > 50,
            "{summary}"
        );
        assert_eq!(summary["skipped_count"], 0);
        summary["judged"].clone()
    };
    let baseline = judged("baseline");
    assert_eq!(baseline.get("baseline"), None, "{baseline}");
    let resilient = &baseline["resilient"];
    assert!(
        resilient["AR-RES-FAIL-2"]["calls"].as_u64().unwrap() > 20,
        "{baseline}"
    );
    assert!(
        resilient["AR-TOL-4"]["calls"].as_u64().unwrap() > 5,
        "{baseline}"
    );
    assert_eq!(judged("resilient").get("resilient"), None);
    // The negative control of re-deciding: what the reference decided, read back from its
    // records, breaks nothing of the profile it decided under.
    assert_eq!(judged("shipped-0.2").get("shipped-0.2"), None);
}

/// A record that carries the reviewer's reply is re-decided: the scenario it stands for is decided
/// by the reference, and the recorded outcome is judged against it as `check` judges an answer,
/// each break attributed to its root cause. A gate that failed on tool-call markup under `ask`
/// breaks nothing of the baseline; under resilient its reader should have read the decision the
/// markup holds (AR-TOL-4), and a failure it could not read should have been asked about
/// (AR-RES-FAIL-2). A gate whose reader refused valid JSON breaks the baseline's reader. The calls
/// that break a clause, frozen, run under `check --cases` as fixed cases of the profile.
#[test]
fn a_recorded_reply_is_redecided_and_frozen_as_fixed_cases() {
    let failed = |tool: &str, reply: &str, message: &str| {
        serde_json::json!({
            "session": "s", "tool": tool, "route": "qodercn/qfmodel", "policy": "ask",
            "preset": "auto", "reviewer": {"reply": reply},
            "result": {"text": format!(
                "Error: Auto review of tool \"{tool}\" failed; its body was not executed: {message}"
            )},
        })
        .to_string()
    };
    let markup_deny =
        r#"<tool_call>{"decision":"deny","risk":"high","reason":"wipes the disk"}</tool_call>"#;
    let markup = r#"<tool_call>{"name":"ls","arguments":{}}</tool_call>"#;
    let log = [
        failed("rm", markup_deny, r#"Unexpected token '<', "<tool_call>"... is not valid JSON"#),
        failed("ls", markup, r#"Unexpected token '<', "<tool_call>"... is not valid JSON"#),
        failed("cat", r#"{"decision":"allow","risk":"low"}"#, "reviewer output is not JSON"),
        // No reply: judged by what the record shows, not re-decided.
        r#"{"session":"t","tool":"ls","route":"a/b","policy":"ask","preset":"auto","result":{"text":"ok"}}"#.to_owned(),
    ]
    .join("\n");
    let dir = crate::shared_dir::fresh("audit-freeze");
    let out = autoreview(
        &["audit", "-", "--json", "--freeze", dir.to_str().unwrap()],
        &log,
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{err}");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["redecided"], 3, "{summary}");
    let judged = &summary["judged"];
    let clauses = |p: &str| -> Vec<(String, u64)> {
        judged[p]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(c, j)| (c.clone(), j["calls"].as_u64().unwrap()))
                    .collect()
            })
            .unwrap_or_default()
    };
    // The baseline fails on markup as the first two gates did; the allow object the third gate
    // refused settles the review as allow (AR-REVIEW-4, the review's outcome classes).
    assert_eq!(
        clauses("baseline"),
        [("AR-REVIEW-4".to_owned(), 1)],
        "{judged}"
    );
    // Resilient: the deny in markup is read (AR-TOL-4); markup without a decision, and the
    // baseline's parser message, fail and are asked about (AR-RES-FAIL-2).
    let resilient = clauses("resilient");
    assert!(resilient.contains(&("AR-TOL-4".to_owned(), 1)), "{judged}");
    assert!(
        resilient
            .iter()
            .any(|(c, n)| c == "AR-RES-FAIL-2" && *n >= 1),
        "{judged}"
    );
    assert!(
        err.contains("froze 1 re-decided calls that break a clause in ")
            && err.contains("recorded-baseline.json"),
        "{err}"
    );

    // The frozen cases run as fixed cases: the reference passes them, each under its profile.
    for profile in ["baseline", "resilient"] {
        let file = dir.join(format!("recorded-{profile}.json"));
        let frozen: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let ids: Vec<&str> = frozen["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        assert!(
            !ids.is_empty() && ids.iter().all(|i| i.starts_with("AX-")),
            "{frozen}"
        );
        let out = autoreview(
            &[
                "check",
                "--profile",
                profile,
                "--implementation",
                "engine",
                "--cases",
                file.to_str().unwrap(),
                "--only",
                ids[0],
            ],
            "",
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("1 passed, 0 failed"), "{text}");
    }
}

/// A failure the gate put to the human (the prompt's reason is `MSG-ASK-FAILED`) is a failure
/// whatever profile reads the log: judged under the baseline, which denies failures, it breaks
/// AR-DECIDE-1; the human who allowed it let the body run, so it is no refused call and ends no
/// streak, and the one the human rejected is refused.
#[test]
fn a_failure_put_to_the_human_is_a_failure_under_every_profile() {
    let asked = |answer: &str, text: &str| {
        format!(
            r#"{{"session":"s","tool":"pwsh","policy":"ask","approval":{{"reason":"Auto review of tool \"pwsh\" failed: auto-review: reviewer ended with error TRANSPORT: Connection error","answer":"{answer}"}},"result":{{"text":"{text}"}}}}"#
        )
    };
    let mut audit = Audit::new(Profile::BASELINE, 2);
    audit.line("log", 1, &asked("allowed-once", "ok"));
    audit.line(
        "log",
        2,
        &asked("rejected", r#"Error: the user rejected tool \"pwsh\""#),
    );
    audit.line(
        "log",
        3,
        &asked("rejected", r#"Error: the user rejected tool \"pwsh\""#),
    );
    let s = audit.finish();
    assert_eq!(s.failures(), 3);
    assert_eq!(s.judged["baseline"]["AR-DECIDE-1"].calls, 3);
    assert_eq!(s.judged.get("resilient"), None, "{:?}", s.judged);
    // The two the human rejected are one streak; the one allowed ran.
    assert_eq!(s.streak_count, 1);
    assert_eq!(s.streaks[0].length, 2);
}

/// A dsh session log, zstd-compressed where dsh keeps it, is read with `--from dsh` into records
/// (spec/audit-dsh.md) and audited: its failure, the resilient profile's AR-RES-FAIL-2 on it and
/// the escape right after. Read as audit records instead, its lines are no records.
#[test]
fn a_dsh_session_log_is_audited_with_from_dsh() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/spec/fixtures/audit/dsh-session.jsonl"
    );
    let text = std::fs::read(fixture).unwrap();
    let dir = crate::shared_dir::fresh("audit-dsh").join("project/session-1");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("session.v4.jsonl.zstd");
    std::fs::write(
        &log,
        ruzstd::encoding::compress_to_vec(&text[..], ruzstd::encoding::CompressionLevel::Fastest),
    )
    .unwrap();
    let log = log.to_str().unwrap();
    let summary = json(&["audit", "--from", "dsh", log, "--json"], "");
    assert_eq!(summary["skipped_count"], 0, "{summary}");
    assert_eq!(summary["calls"]["failure"], 1, "{summary}");
    assert_eq!(
        summary["by_route"]["qodercn/dfmodel"]["tool-call-markup"],
        1
    );
    assert_eq!(summary["judged"]["resilient"]["AR-RES-FAIL-2"]["calls"], 1);
    assert_eq!(summary["escape_count"], 1, "{summary}");
    assert_eq!(
        summary["escapes"][0]["escape"]["preset"],
        "danger-full-access"
    );

    let out = autoreview(&["audit", log, "--json"], "");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["calls"].as_object().unwrap().len(), 0, "{summary}");
    assert!(summary["skipped_count"].as_u64().unwrap() > 0, "{summary}");
}

/// The audit records' JSON Schema (`autoreview schema audit`, committed as
/// spec/audit.schema.json) names exactly the members spec/audit.md documents for a call, and
/// every record `check --audit-log` writes uses only those members and reads as a schema line.
#[test]
fn the_audit_schema_names_the_documented_members_and_the_written_records() {
    let root = env!("CARGO_MANIFEST_DIR");
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{root}/spec/audit.schema.json")).unwrap(),
    )
    .unwrap();
    let props = |def: &str| -> std::collections::BTreeSet<String> {
        schema["$defs"][def]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    let spec = std::fs::read_to_string(format!("{root}/spec/audit.md")).unwrap();
    let table = spec
        .split("### `call`")
        .nth(1)
        .unwrap()
        .split("###")
        .next()
        .unwrap();
    let documented: std::collections::BTreeSet<String> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .map(str::to_owned)
        .collect();
    assert_eq!(props("CallRecord"), documented);
    assert_eq!(
        props("PresetRecord"),
        ["kind", "session", "time", "preset"]
            .map(str::to_owned)
            .into()
    );

    let dir = crate::shared_dir::fresh("audit-schema");
    let log = dir.join("resilient.jsonl");
    let out = autoreview(
        &[
            "check",
            "--profile",
            "resilient",
            "--implementation",
            "engine",
            "--audit-log",
            log.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&log).unwrap();
    let mut written = std::collections::BTreeSet::new();
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        written.extend(value.as_object().unwrap().keys().cloned());
        serde_json::from_value::<autoreview::audit::RecordLine>(value).unwrap();
    }
    assert!(written.is_subset(&documented), "{written:?}");
    // The members a run of the reference writes, each at least once.
    for member in ["failures_before", "config", "reviewer", "approval"] {
        assert!(written.contains(member), "{member}: {written:?}");
    }
}

/// `serve --audit-log` writes the records of what the reference decided over the protocol: checked
/// through it, the log audits to what `check --audit-log` writes of the engine deciding in
/// process — the same calls, classified and judged the same.
#[test]
fn serve_writes_the_audit_log_check_writes() {
    let dir = crate::shared_dir::fresh("audit-serve");
    let served = dir.join("served.jsonl");
    let direct = dir.join("direct.jsonl");
    let bin = env!("CARGO_BIN_EXE_autoreview");
    let summary = |log: &std::path::Path| -> serde_json::Value {
        let out = autoreview(&["audit", log.to_str().unwrap(), "--json"], "");
        assert_eq!(out.status.code(), Some(0));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let run = |args: &[&str]| {
        let out = autoreview(args, "");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&[
        "check",
        "--profile",
        "baseline",
        "--",
        bin,
        "serve",
        "--audit-log",
        served.to_str().unwrap(),
    ]);
    run(&[
        "check",
        "--profile",
        "baseline",
        "--implementation",
        "engine",
        "--audit-log",
        direct.to_str().unwrap(),
    ]);
    let (served, direct) = (summary(&served), summary(&direct));
    assert!(
        served["calls"]["failure"].as_u64().unwrap() > 50,
        "{served}"
    );
    for member in ["calls", "by_route", "judged", "redecided"] {
        assert_eq!(served[member], direct[member], "{member}");
    }
}

/// A failure the gate denied under `ask` with `INFO-FAILED` was denied as its configuration said
/// (`on_failure: deny`): without the configuration recorded, re-deciding cannot tell, so the call
/// is not re-decided (and said why) and the rules do not count it; with `config` recorded it is
/// re-decided, and breaks nothing where the configuration fails closed and AR-RES-FAIL-2 where it
/// asks.
#[test]
fn a_failure_denied_as_configured_is_judged_only_with_its_configuration() {
    let record = |config: Option<&str>| {
        let mut r = serde_json::json!({
            "session": "s", "tool": "pwsh", "route": "a/b", "policy": "ask", "preset": "auto",
            "reviewer": {"reply": "I will run the command now."},
            "result": {
                "text": "Error: Auto review of tool \"pwsh\" failed; its body was not executed: auto-review: reviewer output holds no decision object",
                "error": {"name": "AutoReviewFailedError", "code": "AUTO_REVIEW_FAILED", "failure": "protocol"},
            },
        });
        if let Some(on_failure) = config {
            r["config"] = serde_json::json!({"on_failure": on_failure});
        }
        r.to_string()
    };
    let resilient = |log: String| -> serde_json::Value {
        json(&["audit", "--profile", "resilient", "-", "--json"], &log)
    };
    let unknown = resilient(record(None));
    assert_eq!(unknown["redecided"], 0, "{unknown}");
    assert_eq!(
        unknown["not_redecided"],
        serde_json::json!({"a failure denied as configured (INFO-FAILED) under ask, with no config recorded": 1})
    );
    assert_eq!(unknown["judged"].get("resilient"), None, "{unknown}");
    let closed = resilient(record(Some("deny")));
    assert_eq!(closed["redecided"], 1, "{closed}");
    assert_eq!(closed["judged"].get("resilient"), None, "{closed}");
    let asks = resilient(record(Some("ask")));
    assert_eq!(asks["redecided"], 1, "{asks}");
    assert_eq!(
        asks["judged"]["resilient"]["AR-RES-FAIL-2"]["calls"], 1,
        "{asks}"
    );
}
