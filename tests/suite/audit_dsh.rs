//! A dsh session log read into audit records (`spec/audit-dsh.md`): the hand-written fixture
//! (spec/fixtures/audit/dsh-session.jsonl, a forked session in the shape dsh's sources establish)
//! gives the calls and the preset change it holds, audit finds the failure and the escape after
//! it, a header of another version and a malformed line are errors, replayed parent events make no
//! record.

use autoreview::Profile;
use autoreview::audit::dsh::DshSession;
use autoreview::audit::{Audit, CallRecord, Record};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/spec/fixtures/audit/dsh-session.jsonl"
);

const SESSION: &str = "session-2b7c41d0-5e8a-4f6b-9d3e-7a1c0f9e4b21";

/// The fixture's records, in order: those its lines complete, then those `finish` gives.
fn fixture_records() -> Vec<Record> {
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let mut session = DshSession::new("fallback-name");
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        match session.line(line) {
            Ok(records) => out.extend(records),
            Err(why) => panic!("line {}: {why}", k + 1),
        }
    }
    out.extend(session.finish());
    out
}

fn call(record: &Record) -> &CallRecord {
    match record {
        Record::Call(c) => c,
        other => panic!("expected a call, got {other:?}"),
    }
}

fn text(c: &CallRecord) -> Option<&str> {
    c.result.as_ref().and_then(|r| r.text.as_deref())
}

#[test]
fn the_fixture_gives_its_calls_and_its_preset_change() {
    let records = fixture_records();
    // Four calls with results, the switch to full access, the call the log ends in; the parent's
    // `read` and its `auto` selection, replayed before the fork, give none.
    assert_eq!(records.len(), 6, "{records:#?}");
    for r in &records[..4] {
        let c = call(r);
        assert_eq!(c.session, SESSION);
        // The route is the child's latest request header, not the parent's deepseek one; the
        // policy and preset come from the parent's replayed events.
        assert_eq!(c.route.as_deref(), Some("qodercn/dfmodel"));
        assert_eq!(c.policy.as_deref(), Some("ask"));
        assert_eq!(c.preset.as_deref(), Some("auto"));
        assert!(c.reviewer.is_none());
    }

    let list = call(&records[0]);
    assert_eq!(list.tool, "list_dir");
    assert_eq!(list.empty_arguments, Some(false));
    assert_eq!(list.time.as_deref(), Some("2026-10-25T07:11:04.200Z"));
    assert_eq!(text(list), Some("Cargo.toml\nREADME.md\nsrc\n"));
    assert!(list.approval.is_none());

    let bash = call(&records[1]);
    assert_eq!(bash.tool, "bash");
    assert_eq!(bash.time.as_deref(), Some("2026-10-25T07:11:15.000Z"));
    assert_eq!(text(bash), Some("Error: the user rejected tool \"bash\""));
    let approval = bash.approval.as_ref().expect("the prompt");
    assert_eq!(
        approval.reason.as_deref(),
        Some("Auto review denied tool \"bash\": deletes the build output")
    );
    assert_eq!(approval.answer.as_deref(), Some("rejected"));

    let status = call(&records[2]);
    assert_eq!(status.tool, "git_status");
    assert_eq!(status.empty_arguments, Some(true), "\"\" is read as {{}}");
    assert_eq!(status.time.as_deref(), Some("2026-10-25T07:11:18.400Z"));

    let pwsh = call(&records[3]);
    assert_eq!(pwsh.tool, "pwsh");
    assert_eq!(pwsh.empty_arguments, Some(false));
    assert_eq!(pwsh.time.as_deref(), Some("2026-10-25T07:11:21.000Z"));
    assert_eq!(
        text(pwsh),
        Some(
            "Error: Auto review of tool \"pwsh\" failed; its body was not executed: \
             Unexpected token '<', \"<tool_call\"... is not valid JSON"
        )
    );
    // A reviewer failure carries no structured error identity.
    assert_eq!(pwsh.result.as_ref().unwrap().error, None);

    assert_eq!(
        records[4],
        Record::Preset {
            session: SESSION.to_owned(),
            time: Some("2026-10-25T07:11:40.000Z".to_owned()),
            preset: "danger-full-access".to_owned(),
        }
    );

    // The log ends inside a call: it has no result, and the state after the switch.
    let last = call(&records[5]);
    assert_eq!(last.tool, "pwsh");
    assert_eq!(last.result, None);
    assert_eq!(last.time, None);
    assert_eq!(last.preset.as_deref(), Some("danger-full-access"));
    assert_eq!(last.policy.as_deref(), Some("never"));
}

#[test]
fn audit_finds_the_failure_and_the_escape_after_it() {
    let mut audit = Audit::new(Profile::BASELINE, 1);
    for r in fixture_records() {
        audit.record(r);
    }
    let s = audit.finish();
    let count = |k: &str| s.calls.get(k).copied().unwrap_or(0);
    assert_eq!(
        [
            count("allowed"),
            count("asked"),
            count("failure"),
            count("undecidable")
        ],
        [2, 1, 1, 1]
    );
    assert_eq!(s.by_route["qodercn/dfmodel"]["tool-call-markup"], 1);
    assert_eq!(s.per_session.get(SESSION), Some(&1));
    assert_eq!(s.escapes.len(), 1);
    let escaped = &s.escapes[0];
    assert_eq!(escaped.session, SESSION);
    assert_eq!(escaped.length, 1);
    assert_eq!(escaped.calls[0].tool, "pwsh");
    assert_eq!(escaped.calls[0].what, "tool-call-markup");
    let escape = escaped.escape.as_ref().unwrap();
    assert_eq!(escape.preset, "danger-full-access");
    assert_eq!(escape.time.as_deref(), Some("2026-10-25T07:11:40.000Z"));
    // The policy the log recorded is what judging reads: the failure under `ask` was denied
    // without a prompt.
    assert_eq!(s.judged["resilient"]["AR-RES-FAIL-2"].calls, 1);
}

#[test]
fn a_header_of_another_version_is_refused_naming_both() {
    let mut session = DshSession::new("s");
    let why = session
        .line(r#"{"type":"session","version":3,"id":"s-3","createdAt":1,"isSeeded":false,"delegationDepth":0}"#)
        .unwrap_err();
    assert!(why.contains("version 3"), "{why}");
    assert!(why.contains("version 4"), "{why}");
    // The lines after it are not read as a version-4 log either.
    let later = session
        .line(r#"{"type":"permission/preset","seq":0,"time":2,"data":{"preset":"auto"}}"#)
        .unwrap_err();
    assert_eq!(later, why);
    assert!(session.finish().is_empty());
}

#[test]
fn a_malformed_line_is_an_error_and_the_log_reads_on() {
    let mut session = DshSession::new("dir-name");
    let event = r#"{"type":"tool/call","seq":0,"time":5,"data":{"turn":1,"step":1,"callId":"c","name":"read","arguments":"{}"}}"#;
    // An event before the header.
    assert!(session.line(event).unwrap_err().contains("header"));
    // A header without an id takes the fallback name.
    assert_eq!(
        session.line(
            r#"{"type":"session","version":4,"createdAt":1,"isSeeded":false,"delegationDepth":0}"#
        ),
        Ok(vec![])
    );
    for bad in [
        "{\"type\":\"tool/call\",",
        "[1, 2]",
        r#"{"seq":1,"time":5,"data":{}}"#,
        r#"{"type":"tool/call","seq":1,"time":"noon","data":{}}"#,
        r#"{"type":"tool/call","seq":1,"time":5,"data":{"callId":7,"name":"read","arguments":""}}"#,
        r#"{"type":"tool/result","seq":1,"time":5,"data":{"turn":1,"step":1}}"#,
        r#"{"type":"session","version":4,"id":"again","createdAt":1,"isSeeded":false,"delegationDepth":0}"#,
    ] {
        assert!(session.line(bad).is_err(), "{bad}");
    }
    assert_eq!(session.line(event), Ok(vec![]));
    let records = session.finish();
    assert_eq!(records.len(), 1);
    let c = call(&records[0]);
    assert_eq!((c.session.as_str(), c.tool.as_str()), ("dir-name", "read"));
    assert_eq!(c.empty_arguments, Some(true));
}

#[test]
fn replayed_parent_events_make_no_record() {
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let mut session = DshSession::new("s");
    // The header and the parent's prefix, up to its inherited end-seed marker.
    let prefix: Vec<&str> = text
        .lines()
        .take_while(|l| !l.contains("\"session/end-seed\""))
        .collect();
    assert_eq!(prefix.len(), 13);
    for line in prefix {
        assert_eq!(session.line(line), Ok(vec![]), "{line}");
    }
    assert!(session.finish().is_empty());

    // The same events stamped at or after creation are the session's own.
    let mut own = DshSession::new("s");
    own.line(r#"{"type":"session","version":4,"id":"own","createdAt":100,"isSeeded":false,"delegationDepth":0}"#).unwrap();
    let before = r#"{"type":"permission/preset","seq":0,"time":99,"data":{"preset":"auto"}}"#;
    let at = r#"{"type":"permission/preset","seq":1,"time":100,"data":{"preset":"auto"}}"#;
    assert_eq!(own.line(before), Ok(vec![]));
    assert_eq!(own.line(at).unwrap().len(), 1);
}

/// The result dsh writes for a call a crash interrupted says its outcome is unknown: the record
/// has none, and audit counts the call undecidable.
#[test]
fn a_call_closed_after_a_crash_has_no_result() {
    let mut session = DshSession::new("s");
    session
        .line(r#"{"type":"session","version":4,"id":"s","createdAt":1,"isSeeded":false,"delegationDepth":0}"#)
        .unwrap();
    session
        .line(r#"{"type":"tool/call","seq":0,"time":5,"data":{"turn":1,"step":1,"callId":"c","name":"bash","arguments":"{\"command\":\"make\"}"}}"#)
        .unwrap();
    let records = session
        .line(r#"{"type":"tool/result","seq":1,"time":5,"data":{"turn":1,"step":1,"message":{"id":"r","role":"tool","source":{"kind":"tool","callId":"c"},"toolCallId":"c","content":[{"type":"text","text":"The tool call was interrupted after it was recorded, but no result was durably recorded."}],"isError":true},"error":{"name":"ToolOutcomeUnknownError","code":"TOOL_OUTCOME_UNKNOWN"}},"surfaceOp":"append","sourceEventSeqs":[0]}"#)
        .unwrap();
    assert_eq!(records.len(), 1);
    let c = call(&records[0]);
    assert_eq!((c.tool.as_str(), &c.result), ("bash", &None));
}

/// A call a `run_code` program dispatched is reviewed like a native one: its start and its
/// settlement make one record, its arguments a JSON value.
#[test]
fn a_ptc_sub_dispatch_is_a_call() {
    let mut session = DshSession::new("s");
    session
        .line(r#"{"type":"session","version":4,"id":"s","createdAt":1,"isSeeded":false,"delegationDepth":0}"#)
        .unwrap();
    let start = r#"{"type":"tool/ptc-dispatch-start","seq":0,"time":1000,"data":{"rootCallId":"r","parentCallId":"r","subCallId":"r:ptc:1","name":"write","arguments":{}}}"#;
    assert_eq!(session.line(start), Ok(vec![]));
    let settle = r#"{"type":"tool/ptc-dispatch","seq":1,"time":2000,"data":{"rootCallId":"r","parentCallId":"r","subCallId":"r:ptc:1","name":"write","arguments":{},"isError":true,"content":[{"type":"text","text":"Error: Auto review rejected tool \"write\"; its body was not executed"}],"error":{"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED"}}}"#;
    let records = session.line(settle).unwrap();
    assert_eq!(records.len(), 1);
    let c = call(&records[0]);
    assert_eq!(c.tool, "write");
    assert_eq!(c.empty_arguments, Some(true));
    assert_eq!(c.time.as_deref(), Some("1970-01-01T00:00:02.000Z"));
    assert_eq!(
        text(c),
        Some("Error: Auto review rejected tool \"write\"; its body was not executed")
    );
    assert_eq!(
        c.result.as_ref().unwrap().error,
        Some(serde_json::json!({"name": "AutoReviewDeniedError", "code": "AUTO_REVIEW_DENIED"}))
    );
    assert!(session.finish().is_empty());
}
