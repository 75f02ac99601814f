//! The step vocabulary (`features/README.md` documents it). `Given` steps describe the situation
//! in the domain's words and build the scenario; one `When` step makes the call; `Then` steps
//! check what the model, the user and the session observe.

use cucumber::gherkin::Step;
use cucumber::{given, then, when};
use serde_json::{Value, json};

use crate::world::{Decided, GateWorld, expect_prefix_of, expect_text_of};

/// A step's doc string, required.
fn doc(step: &Step) -> String {
    let text = step
        .docstring
        .clone()
        .unwrap_or_else(|| panic!("this step needs a doc string (\"\"\" … \"\"\") below it"));
    // The parser keeps the line break after the opening quotes and before the closing ones, and
    // the indentation of the lines between: both are layout, not text.
    let text = text.strip_prefix('\n').unwrap_or(&text);
    let text = text.strip_suffix('\n').unwrap_or(text);
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .min()
        .unwrap_or(0);
    text.lines()
        .map(|l| l.get(indent..).unwrap_or(l.trim_start_matches(' ')))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A doc string holding one JSON value.
fn doc_json(step: &Step) -> Value {
    let text = doc(step);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("the doc string is not JSON ({e}): {text}"))
}

/// A `{string}` parameter with `\"` and `\\` unescaped.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(next @ ('"' | '\'' | '\\'))) => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// `provider/model` as the contract's route object.
fn route(text: &str) -> Value {
    match text.split_once('/') {
        Some((provider, model)) if !provider.is_empty() && !model.is_empty() => {
            json!({"provider": provider, "model": model})
        }
        _ => panic!("a route is written provider/model, not {text:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// The session

#[given(expr = "a session in Auto")]
fn session_in_auto(w: &mut GateWorld) {
    w.set("preset", json!("auto"));
}

#[given(expr = "a session in Auto with approval policy {string}")]
fn session_with_policy(w: &mut GateWorld, policy: String) {
    w.set("preset", json!("auto"));
    w.set("policy", json!({"override": policy, "default": "ask"}));
}

#[given(
    expr = "a session in Auto with approval policy {string} and the deployment default {string}"
)]
fn session_with_policy_and_default(w: &mut GateWorld, policy: String, default: String) {
    w.set("preset", json!("auto"));
    w.set("policy", json!({"override": policy, "default": default}));
}

#[given(
    expr = "a session in Auto with no approval policy of its own and the deployment default {string}"
)]
fn session_with_default_only(w: &mut GateWorld, default: String) {
    w.set("preset", json!("auto"));
    w.set("policy", json!({"override": null, "default": default}));
}

#[given(expr = "a session with the permission preset {string}")]
fn session_with_preset(w: &mut GateWorld, preset: String) {
    w.set("preset", json!(preset));
}

#[given(expr = "the call has no agent")]
fn no_agent(w: &mut GateWorld) {
    w.set("agent", json!(false));
}

#[given(expr = "the session's requests go to {string}")]
fn session_route(w: &mut GateWorld, r: String) {
    w.set_in("session", "route", route(&r));
}

#[given(expr = "the session's latest request header names provider {string} and model {string}")]
fn session_header_route(w: &mut GateWorld, provider: String, model: String) {
    // Unlike `route`, either part may be empty here: that is what AR-REVIEW-9 is about.
    w.set_in(
        "session",
        "route",
        json!({"provider": provider, "model": model}),
    );
}

#[given(expr = "the session is not in the session list")]
fn session_not_listed(w: &mut GateWorld) {
    w.set_in("session", "listed", json!(false));
}

#[given(regex = r"^the session has had (\d+) reviewer failures? in a row$")]
fn session_failures(w: &mut GateWorld, n: u32) {
    w.set_in("session", "consecutive_failures", json!(n));
}

#[given(expr = "the session's id is {string}")]
fn session_id(w: &mut GateWorld, id: String) {
    w.set_in("session", "id", json!(unescape(&id)));
}

#[given(expr = "the session's header names no working directory")]
fn session_without_working_directory(w: &mut GateWorld) {
    w.set_in("session", "working_directory", json!(false));
}

#[given(expr = "the session's backend confines reads")]
fn backend_confines_reads(w: &mut GateWorld) {
    w.set_sandbox("confines_reads", json!(true));
}

#[given(expr = "the session is confined to the workspace")]
fn session_confined(w: &mut GateWorld) {
    w.set_sandbox("mode", json!("workspace-write"));
}

#[given(expr = "changing the session's sandbox mode is rejected with {string}")]
fn narrowing_rejected(w: &mut GateWorld, message: String) {
    w.set_sandbox("narrowing", json!({"rejected": unescape(&message)}));
}

/// The session-log facts of AR-REVIEW-11, as the spec's table words them ("the log …"), with
/// the contract's `log` value.
const LOG_FACTS: [(&str, &str); 15] = [
    ("is consistent", "consistent"),
    (
        "holds a PTC start logged while no step was open",
        "ptc-start-without-step",
    ),
    (
        "holds two PTC starts with one identity in one step",
        "ptc-identity-ambiguous",
    ),
    ("has no open step", "no-open-step"),
    (
        "does not hold the pending root call exactly once in the open step",
        "root-not-logged-once",
    ),
    (
        "does not hold the pending PTC call's start in the open step",
        "ptc-start-missing",
    ),
    (
        "shows the pending root call twice in what the agent sees",
        "root-twice-in-surface",
    ),
    (
        "logs a visible call's identity twice",
        "native-identity-ambiguous",
    ),
    (
        "never logged a visible call before the pending root",
        "visible-call-unlogged",
    ),
    (
        "holds PTC dispatches of a visible call that never started",
        "unstarted-call-dispatched",
    ),
    (
        "started a call after an unstarted one in the same message",
        "not-a-started-prefix",
    ),
    (
        "names a visible call with another name or other arguments",
        "visible-call-disagrees",
    ),
    (
        "holds the pending root call, but the agent does not see it",
        "root-not-in-surface",
    ),
    (
        "logged the pending native call with another name or other arguments",
        "native-call-disagrees",
    ),
    (
        "logged the pending PTC call under another parent or root, name or arguments",
        "ptc-call-disagrees",
    ),
];

#[given(regex = r"^the session log (.+)$")]
fn session_log(w: &mut GateWorld, fact: String) {
    let value = LOG_FACTS
        .iter()
        .find(|(words, _)| *words == fact)
        .map(|(_, value)| *value)
        .unwrap_or_else(|| {
            let known: Vec<&str> = LOG_FACTS.iter().map(|(words, _)| *words).collect();
            panic!("the session log {fact:?}: say one of {known:#?}")
        });
    w.set("log", json!(value));
}

#[given(expr = "the gate is configured with:")]
fn configured(w: &mut GateWorld, step: &Step) {
    let table = step
        .table
        .as_ref()
        .unwrap_or_else(|| panic!("this step needs a table: | setting | value |"));
    for row in &table.rows {
        let [setting, value] = row.as_slice() else {
            panic!("each configuration row is | setting | value |, not {row:?}");
        };
        if setting == "setting" && value == "value" {
            continue; // an optional header row
        }
        let value = match setting.as_str() {
            "reviewer_route" if value != "null" => route(value),
            _ => serde_json::from_str(value).unwrap_or_else(|_| json!(value)),
        };
        w.set_in("config", setting, value);
    }
}

#[given(expr = "the tool's schema is {string}")]
fn schema_shorthand(w: &mut GateWorld, schema: String) {
    w.set("schema", json!(schema));
}

#[given(
    expr = "the tool's schema is {string} in the request header and {string} in the live registry"
)]
fn schema_sources(w: &mut GateWorld, header: String, registry: String) {
    w.set("schema", json!({"header": header, "registry": registry}));
}

// ---------------------------------------------------------------------------------------------
// The reviewer: each step is its answer to the next request ("then" reads well for the second).

fn decision_text(risk: &str, decision: &str, reason: Option<&str>) -> Value {
    let mut object = serde_json::Map::new();
    object.insert("risk".into(), json!(risk));
    object.insert("decision".into(), json!(decision));
    if let Some(r) = reason {
        object.insert("reason".into(), json!(r));
    }
    json!({"text": Value::Object(object).to_string()})
}

#[given(expr = "(then )the reviewer allows with risk {string}")]
fn reviewer_allows(w: &mut GateWorld, risk: String) {
    w.push_attempt(decision_text(&risk, "allow", None));
}

#[given(expr = "(then )the reviewer denies with risk {string}")]
fn reviewer_denies(w: &mut GateWorld, risk: String) {
    w.push_attempt(decision_text(&risk, "deny", None));
}

#[given(expr = "(then )the reviewer denies with risk {string} and reason {string}")]
fn reviewer_denies_with_reason(w: &mut GateWorld, risk: String, reason: String) {
    w.push_attempt(decision_text(&risk, "deny", Some(&unescape(&reason))));
}

#[given(expr = "(then )the reviewer replies with text {string}")]
fn reviewer_text_inline(w: &mut GateWorld, text: String) {
    w.push_attempt(json!({"text": unescape(&text)}));
}

#[given(expr = "(then )the reviewer replies with text:")]
fn reviewer_text(w: &mut GateWorld, step: &Step) {
    w.push_attempt(json!({"text": doc(step)}));
}

#[given(expr = "(then )the reviewer replies with {int} copies of {string}")]
fn reviewer_text_repeated(w: &mut GateWorld, times: usize, text: String) {
    w.push_attempt(json!({"text": unescape(&text).repeat(times)}));
}

#[given(expr = "(then )the reviewer replies with a byte-order mark and then text {string}")]
fn reviewer_text_after_bom(w: &mut GateWorld, text: String) {
    w.push_attempt(json!({"text": format!("\u{feff}{}", unescape(&text))}));
}

#[given(expr = "(then )the reviewer replies with blocks:")]
fn reviewer_blocks(w: &mut GateWorld, step: &Step) {
    let table = step
        .table
        .as_ref()
        .unwrap_or_else(|| panic!("this step needs a table: | type | text |"));
    let blocks: Vec<Value> = table
        .rows
        .iter()
        .skip(1)
        .map(|row| match row.as_slice() {
            [kind, text] => json!({"type": kind, "text": text}),
            _ => panic!("each block row is | type | text |, not {row:?}"),
        })
        .collect();
    w.push_attempt(json!({"blocks": blocks}));
}

#[given(expr = "that reply ends with finish {string}")]
fn reply_finish(w: &mut GateWorld, finish: String) {
    w.last_attempt().insert("finish".into(), json!(finish));
}

#[given(expr = "that reply's stream ends without a terminal finish")]
fn reply_without_finish(w: &mut GateWorld) {
    w.last_attempt().insert("finish".into(), Value::Null);
}

#[given(expr = "the stream sends more data after that reply's finish")]
fn reply_data_after_finish(w: &mut GateWorld) {
    w.last_attempt()
        .insert("data_after_finish".into(), json!(true));
}

#[given(expr = "(then )the reviewer's request fails with {string}: {string}")]
fn reviewer_request_fails(w: &mut GateWorld, code: String, message: String) {
    w.push_attempt(
        json!({"finish": {"kind": "error", "code": code, "message": unescape(&message)}}),
    );
}

#[given(expr = "(then )the reviewer's request fails with {string} and the message:")]
fn reviewer_request_fails_with_value(w: &mut GateWorld, code: String, step: &Step) {
    w.push_attempt(json!({"finish": {"kind": "error", "code": code, "message": doc_json(step)}}));
}

#[given(expr = "(then )the reviewer's response is aborted with {string}: {string}")]
fn reviewer_response_aborted(w: &mut GateWorld, code: String, message: String) {
    w.push_attempt(
        json!({"finish": {"kind": "aborted", "code": code, "message": unescape(&message)}}),
    );
}

#[given(expr = "(then )the reviewer's response is aborted with {string} and the message:")]
fn reviewer_response_aborted_with_value(w: &mut GateWorld, code: String, step: &Step) {
    w.push_attempt(json!({"finish": {"kind": "aborted", "code": code, "message": doc_json(step)}}));
}

#[given(expr = "(then )the reviewer's request throws {string}")]
fn reviewer_throws(w: &mut GateWorld, message: String) {
    w.push_attempt(json!({"throw": unescape(&message)}));
}

#[given(expr = "(then )the reviewer's request throws the value:")]
fn reviewer_throws_value(w: &mut GateWorld, step: &Step) {
    w.push_attempt(json!({"throw": doc_json(step)}));
}

#[given(expr = "(then )the reviewer never answers")]
fn reviewer_hangs(w: &mut GateWorld) {
    w.push_attempt(json!({"hang": true}));
}

#[given(expr = "that reply takes {int} ms")]
fn reply_takes(w: &mut GateWorld, ms: u64) {
    let attempt = w.last_attempt();
    assert!(
        !attempt.contains_key("hang"),
        "a reviewer that never answers takes no time of its own"
    );
    attempt.insert("delay_ms".into(), json!(ms));
}

// ---------------------------------------------------------------------------------------------
// The listeners after the gate, the approval service, and signals

#[given(expr = "a later listener allows")]
fn downstream_allows(w: &mut GateWorld) {
    w.set("downstream", json!({"kind": "allow"}));
}

#[given(expr = "a later listener denies with {string}")]
fn downstream_denies(w: &mut GateWorld, reason: String) {
    w.set(
        "downstream",
        json!({"kind": "deny", "reason": unescape(&reason)}),
    );
}

#[given(expr = "a later listener denies with {string} and the info:")]
fn downstream_denies_with_info(w: &mut GateWorld, reason: String, step: &Step) {
    w.set(
        "downstream",
        json!({"kind": "deny", "reason": unescape(&reason), "info": doc_json(step)}),
    );
}

#[given(expr = "a later listener cancels")]
fn downstream_cancels(w: &mut GateWorld) {
    w.set("downstream", json!({"kind": "cancel"}));
}

#[given(expr = "a later listener asks with {string}")]
fn downstream_asks(w: &mut GateWorld, reason: String) {
    w.set(
        "downstream",
        json!({"kind": "ask", "reason": unescape(&reason)}),
    );
}

#[given(expr = "the user would answer {string}")]
fn user_would_answer(w: &mut GateWorld, answer: String) {
    w.set("approval", json!(answer));
}

#[given(expr = "asking the user throws")]
fn asking_throws(w: &mut GateWorld) {
    w.set("approval", json!("throws"));
}

/// The call ids a body's request names (AR-APPROVAL-7), as the features word them.
const NAMED_CALLS: [(&str, &str); 4] = [
    ("for its own call", "own"),
    ("with no call id", "none"),
    ("for a call nobody reviewed", "unreviewed"),
    ("for the session's previous call", "finished"),
];

#[given(
    regex = r#"^the tool's body asks for approval (for its own call|with no call id|for a call nobody reviewed|for the session's previous call) with "([^"]*)"$"#
)]
fn body_raises(w: &mut GateWorld, named: String, reason: String) {
    w.body_step(json!({ "raise": raise(&named, &reason) }));
}

#[given(
    regex = r#"^the tool's body asks for approval (for its own call|with no call id|for a call nobody reviewed|for the session's previous call) with "([^"]*)", which the user would answer "(.*)"$"#
)]
fn body_raises_answered(w: &mut GateWorld, named: String, reason: String, answer: String) {
    let mut raise = raise(&named, &reason);
    raise["answer"] = json!(answer);
    w.body_step(json!({ "raise": raise }));
}

/// A body's request naming the call `named` words (`NAMED_CALLS`), with `reason`.
fn raise(named: &str, reason: &str) -> Value {
    let call_id = NAMED_CALLS
        .iter()
        .find(|(words, _)| *words == named)
        .map(|(_, id)| *id)
        .expect("a call the step names");
    json!({"call_id": call_id, "reason": unescape(reason)})
}

#[given(expr = "the tool's body selects the preset {string}")]
fn body_leaves_auto(w: &mut GateWorld, preset: String) {
    w.body_step(json!({ "leave_auto": preset }));
}

#[given(expr = "the caller cancels before dispatch")]
fn caller_before_dispatch(w: &mut GateWorld) {
    w.set("abort", json!("caller-before-dispatch"));
}

#[given(expr = "the caller cancels while the review is in flight")]
fn caller_during_review(w: &mut GateWorld) {
    w.set("abort", json!("caller-during-review"));
}

#[given(expr = "the integration is disposed before the review")]
fn lifecycle_before_review(w: &mut GateWorld) {
    w.set("abort", json!("lifecycle-before-review"));
}

#[given(expr = "the integration is disposed while the review is in flight")]
fn lifecycle_after_review(w: &mut GateWorld) {
    w.set("abort", json!("lifecycle-after-review"));
}

#[given(expr = "the integration is disposed while a later listener is consulted")]
fn lifecycle_during_downstream(w: &mut GateWorld) {
    w.set("abort", json!("lifecycle-during-downstream"));
}

// ---------------------------------------------------------------------------------------------
// The call

#[when(expr = "the agent calls {string}")]
fn agent_calls(w: &mut GateWorld, tool: String) {
    w.call(&unescape(&tool), "native");
}

#[when(expr = "the agent calls {string} from inside a program")]
fn agent_calls_inside_program(w: &mut GateWorld, tool: String) {
    w.call(&unescape(&tool), "ptc-inner");
}

#[when(expr = "the agent runs a program with {string}")]
fn agent_runs_program(w: &mut GateWorld, tool: String) {
    w.call(&unescape(&tool), "run-code");
}

// ---------------------------------------------------------------------------------------------
// The integration's lifecycle between calls (a session, AR-SESSION-1)

#[when(expr = "the integration is disposed of")]
fn dispose(w: &mut GateWorld) {
    w.lifecycle("dispose", false);
}

#[when(expr = "the integration is disposed of, and Auto is selected again while it closes")]
fn dispose_with_reselection(w: &mut GateWorld) {
    w.lifecycle("dispose", true);
}

#[when(expr = "the integration is installed again")]
fn install(w: &mut GateWorld) {
    w.lifecycle("install", false);
}

#[when(expr = "the user selects Auto")]
fn select_auto(w: &mut GateWorld) {
    w.lifecycle("select-auto", false);
}

#[when(expr = "the session's backend starts confining reads")]
fn backend_starts_confining(w: &mut GateWorld) {
    w.backend(true);
}

#[when(expr = "the session's backend stops confining reads")]
fn backend_stops_confining(w: &mut GateWorld) {
    w.backend(false);
}

#[then(expr = "it reports no error")]
fn event_no_error(w: &mut GateWorld) {
    let (event, d) = w.event();
    assert_eq!(
        d.outcome.pointer("/error"),
        Some(&Value::Null),
        "the {event} event's error"
    );
}

#[then(expr = "selecting Auto succeeds")]
fn selecting_auto_succeeds(w: &mut GateWorld) {
    let (event, d) = w.event();
    assert_eq!(event, "select-auto", "this step checks a selection of Auto");
    assert_eq!(
        d.outcome.pointer("/error"),
        Some(&Value::Null),
        "selecting Auto"
    );
}

/// The event that selected Auto: `select-auto`, or a disposal during which Auto was selected.
fn selection(w: &GateWorld) -> &Decided {
    let (event, d) = w.event();
    assert!(
        event == "select-auto" || event == "dispose",
        "this step checks a selection of Auto, not the {event} event"
    );
    d
}

#[then(expr = "selecting Auto fails with {string}")]
fn selecting_auto_fails(w: &mut GateWorld, error: String) {
    expect_text_of(
        selection(w),
        "/error",
        "selecting Auto fails with",
        &unescape(&error),
    );
}

#[then(expr = "selecting Auto fails with an error worded by the deployment")]
fn selecting_auto_fails_somehow(w: &mut GateWorld) {
    // MSG-ERR-NO-AUTO is implementation-defined: any text, but an error (AR-DISPOSE-4).
    let d = selection(w);
    assert!(
        d.outcome.pointer("/error").is_some_and(Value::is_string),
        "selecting Auto should fail with an error, but the outcome is {}",
        d.outcome
    );
}

#[then(expr = "selecting Auto fails with text starting with {string}")]
fn selecting_auto_fails_prefix(w: &mut GateWorld, prefix: String) {
    expect_prefix_of(
        selection(w),
        "/error",
        "selecting Auto fails with text",
        &unescape(&prefix),
    );
}

// ---------------------------------------------------------------------------------------------
// The tool body and what the model sees

#[then(expr = "the tool body runs")]
fn body_runs(w: &mut GateWorld) {
    assert_eq!(w.at("/result/executed"), json!(true), "the body should run");
}

#[then(expr = "the tool body does not run")]
fn body_does_not_run(w: &mut GateWorld) {
    assert_eq!(
        w.at("/result/executed"),
        json!(false),
        "the body should not run"
    );
}

#[then(expr = "the session's sandbox is {word} before the call and {word} after it")]
fn sandbox_is(w: &mut GateWorld, before: String, after: String) {
    // An outcome leaves out a sandbox that was full access throughout.
    let mode = |v: Value| match v {
        Value::Null => json!("danger-full-access"),
        v => v,
    };
    assert_eq!(
        (mode(w.at("/sandbox/before")), mode(w.at("/sandbox/after"))),
        (json!(before), json!(after)),
        "the session's sandbox mode before and after the call"
    );
}

#[then(
    regex = r#"^(the gate|the user|the approval service by itself) answers the body's request "(.*)" with "(.*)"$"#
)]
fn body_request_answered(w: &mut GateWorld, who: String, reason: String, answer: String) {
    let by = match who.as_str() {
        "the gate" => "gate",
        "the user" => "human",
        _ => "service",
    };
    let entries = w.at("/body_approvals");
    let reason = unescape(&reason);
    let entry = entries
        .as_array()
        .and_then(|all| all.iter().find(|e| e["reason"] == json!(reason)))
        .unwrap_or_else(|| panic!("no request {reason:?} among {entries}"));
    assert_eq!(
        (&entry["answered_by"], &entry["answer"]),
        (&json!(by), &json!(answer)),
        "who answered the body's request {reason:?}, and what"
    );
}

#[then(expr = "the body's requests are answered in order: {string}")]
fn body_requests_in_order(w: &mut GateWorld, reasons: String) {
    let entries = w.at("/body_approvals");
    let got: Vec<&str> = entries
        .as_array()
        .map(|all| all.iter().filter_map(|e| e["reason"].as_str()).collect())
        .unwrap_or_default();
    let want: Vec<&str> = reasons.split(", ").collect();
    assert_eq!(got, want, "the body's requests, in order");
}

#[then(expr = "the gate throws")]
fn gate_throws(w: &mut GateWorld) {
    assert_eq!(w.at("/settled"), json!(true), "the call completes");
    assert_eq!(
        w.at("/listener"),
        Value::Null,
        "the gate returns no decision"
    );
}

#[then(expr = "the model sees {string}")]
fn model_sees(w: &mut GateWorld, text: String) {
    w.expect_text("/result/text", "the model sees", &unescape(&text));
}

#[then(expr = "the model sees:")]
fn model_sees_doc(w: &mut GateWorld, step: &Step) {
    w.expect_text("/result/text", "the model sees", &doc(step));
}

#[then(expr = "the model sees text starting with {string}")]
fn model_sees_prefix(w: &mut GateWorld, prefix: String) {
    w.expect_prefix("/result/text", "the model sees text", &unescape(&prefix));
}

#[then(expr = "the model sees no error")]
fn model_sees_no_error(w: &mut GateWorld) {
    assert_eq!(
        w.at("/result/text"),
        Value::Null,
        "the model should see no error text"
    );
}

#[then(expr = "the refusal carries the info:")]
fn refusal_info(w: &mut GateWorld, step: &Step) {
    assert_eq!(w.at("/result/info"), doc_json(step), "the refusal's info");
}

#[then(expr = "the refusal carries no info")]
fn refusal_no_info(w: &mut GateWorld) {
    assert_eq!(w.at("/result/info"), Value::Null, "the refusal's info");
}

#[then(expr = "the call never completes")]
fn never_completes(w: &mut GateWorld) {
    assert_eq!(
        w.at("/settled"),
        json!(false),
        "the call should stay pending"
    );
}

// ---------------------------------------------------------------------------------------------
// What the gate returns

#[then(expr = "the gate allows")]
fn gate_allows(w: &mut GateWorld) {
    assert_eq!(
        w.at("/listener"),
        json!({"kind": "allow"}),
        "the gate's decision"
    );
}

#[then(expr = "the gate cancels")]
fn gate_cancels(w: &mut GateWorld) {
    assert_eq!(
        w.at("/listener"),
        json!({"kind": "cancel"}),
        "the gate's decision"
    );
}

#[then(expr = "the gate does not return")]
fn gate_does_not_return(w: &mut GateWorld) {
    assert_eq!(
        w.at("/listener"),
        Value::Null,
        "the gate should return nothing"
    );
}

fn gate_kind(w: &GateWorld, kind: &str) {
    assert_eq!(w.at("/listener/kind"), json!(kind), "the gate's decision");
}

#[then(expr = "the gate denies with {string}")]
fn gate_denies(w: &mut GateWorld, reason: String) {
    gate_kind(w, "deny");
    w.expect_text(
        "/listener/reason",
        "the gate denies with",
        &unescape(&reason),
    );
}

#[then(expr = "the gate denies with:")]
fn gate_denies_doc(w: &mut GateWorld, step: &Step) {
    gate_kind(w, "deny");
    w.expect_text("/listener/reason", "the gate denies with", &doc(step));
}

#[then(expr = "the gate denies with text starting with {string}")]
fn gate_denies_prefix(w: &mut GateWorld, prefix: String) {
    gate_kind(w, "deny");
    w.expect_prefix(
        "/listener/reason",
        "the gate denies with text",
        &unescape(&prefix),
    );
}

#[then(expr = "the gate asks with {string}")]
fn gate_asks(w: &mut GateWorld, reason: String) {
    gate_kind(w, "ask");
    w.expect_text("/listener/reason", "the gate asks with", &unescape(&reason));
}

#[then(expr = "the gate asks with:")]
fn gate_asks_doc(w: &mut GateWorld, step: &Step) {
    gate_kind(w, "ask");
    w.expect_text("/listener/reason", "the gate asks with", &doc(step));
}

#[then(expr = "the gate asks with text starting with {string}")]
fn gate_asks_prefix(w: &mut GateWorld, prefix: String) {
    gate_kind(w, "ask");
    w.expect_prefix(
        "/listener/reason",
        "the gate asks with text",
        &unescape(&prefix),
    );
}

#[then(expr = "the gate shows the user:")]
fn gate_display_reasons(w: &mut GateWorld, step: &Step) {
    for (language, text) in language_rows(step) {
        let pointer = format!("/listener/display_reason/{language}");
        w.expect_text(&pointer, "the gate shows the user", &text);
    }
}

#[then(expr = "the gate shows the user nothing of its own")]
fn gate_display_nothing(w: &mut GateWorld) {
    assert_eq!(
        w.at("/listener/display_reason"),
        Value::Null,
        "the gate's display reasons"
    );
}

#[then(expr = "the gate shows the user text starting with:")]
fn gate_display_reasons_prefix(w: &mut GateWorld, step: &Step) {
    for (language, text) in language_rows(step) {
        let pointer = format!("/listener/display_reason/{language}");
        w.expect_prefix(&pointer, "the gate shows the user text", &text);
    }
}

// ---------------------------------------------------------------------------------------------
// The approval service and the user

#[then(expr = "the approval service is not consulted")]
fn approval_not_consulted(w: &mut GateWorld) {
    assert_eq!(
        w.at("/approval"),
        Value::Null,
        "the approval service should not be asked"
    );
}

#[then(expr = "the user is asked and answers {string}")]
fn user_asked_answers(w: &mut GateWorld, answer: String) {
    assert_eq!(
        w.at("/approval/prompted"),
        json!(true),
        "the user should be asked"
    );
    assert_eq!(w.at("/approval/answer"), json!(answer), "the answer");
}

#[then(expr = "the approval service answers {string} without asking the user")]
fn approval_answers_alone(w: &mut GateWorld, answer: String) {
    assert_eq!(
        w.at("/approval/prompted"),
        json!(false),
        "the user should not be asked"
    );
    assert_eq!(
        w.at("/approval/answer"),
        json!(answer),
        "the service's answer"
    );
}

#[then(expr = "the approval request throws")]
fn approval_throws(w: &mut GateWorld) {
    assert_eq!(
        w.at("/approval/answer"),
        json!("throws"),
        "the approval request"
    );
}

#[then(expr = "the user is asked with reason {string}")]
fn user_asked_with(w: &mut GateWorld, reason: String) {
    w.expect_text(
        "/approval/reason",
        "the user is asked with reason",
        &unescape(&reason),
    );
}

#[then(expr = "the user is asked with reason:")]
fn user_asked_with_doc(w: &mut GateWorld, step: &Step) {
    w.expect_text(
        "/approval/reason",
        "the user is asked with reason",
        &doc(step),
    );
}

#[then(expr = "the user is asked with no reason of the gate's")]
fn user_asked_without_reason(w: &mut GateWorld) {
    assert_eq!(
        w.at("/approval/reason"),
        Value::Null,
        "the approval request's reason"
    );
    assert_eq!(
        w.at("/approval/display_reason"),
        Value::Null,
        "the display reason"
    );
}

#[then(expr = "the user is shown:")]
fn user_shown(w: &mut GateWorld, step: &Step) {
    for (language, text) in language_rows(step) {
        let pointer = format!("/approval/display_reason/{language}");
        w.expect_text(&pointer, "the user is shown", &text);
    }
}

#[then(expr = "the user is shown nothing of the gate's")]
fn user_shown_nothing(w: &mut GateWorld) {
    assert_eq!(
        w.at("/approval/display_reason"),
        Value::Null,
        "the approval request's display reasons"
    );
}

#[then(expr = "the user is shown text starting with:")]
fn user_shown_prefix(w: &mut GateWorld, step: &Step) {
    for (language, text) in language_rows(step) {
        let pointer = format!("/approval/display_reason/{language}");
        w.expect_prefix(&pointer, "the user is shown text", &text);
    }
}

#[then(expr = "the user is asked with reason text starting with {string}")]
fn user_asked_with_prefix(w: &mut GateWorld, prefix: String) {
    w.expect_prefix(
        "/approval/reason",
        "the user is asked with reason text",
        &unescape(&prefix),
    );
}

/// A `| language | text |` table.
fn language_rows(step: &Step) -> Vec<(String, String)> {
    let table = step
        .table
        .as_ref()
        .unwrap_or_else(|| panic!("this step needs a table: | en | text | and | zh | text |"));
    table
        .rows
        .iter()
        .map(|row| match row.as_slice() {
            [language, text] if language == "en" || language == "zh" => {
                (language.clone(), text.clone())
            }
            _ => panic!("each row is | en or zh | text |, not {row:?}"),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Events, the review, the session

#[then(expr = "the events are {word}")]
fn events_one(w: &mut GateWorld, event: String) {
    events_are(w, &event);
}

#[then(
    regex = r"^the events are ((?:review|downstream|approval|body)(?:, (?:review|downstream|approval|body))+)$"
)]
fn events_many(w: &mut GateWorld, events: String) {
    events_are(w, &events);
}

fn events_are(w: &GateWorld, events: &str) {
    let expected: Vec<&str> = events.split(", ").collect();
    assert_eq!(w.at("/trace"), json!(expected), "the events in order");
}

#[then(expr = "there are no events")]
fn no_events(w: &mut GateWorld) {
    assert_eq!(w.at("/trace"), json!([]), "the events");
}

#[then(expr = "the reviewer is not asked")]
fn reviewer_not_asked(w: &mut GateWorld) {
    assert_eq!(w.at("/review/attempts"), json!(0), "reviewer requests");
}

#[then(regex = r"^the reviewer is asked (once|twice|(\d+) times)$")]
fn reviewer_asked(w: &mut GateWorld, times: String, n: String) {
    let n: u32 = match times.as_str() {
        "once" => 1,
        "twice" => 2,
        _ => n.parse().unwrap_or_else(|e| panic!("{n}: {e}")),
    };
    assert_eq!(w.at("/review/attempts"), json!(n), "reviewer requests");
}

#[then(expr = "the requests go to {string}")]
fn requests_go_to(w: &mut GateWorld, routes: String) {
    let expected: Vec<&str> = routes.split(", ").collect();
    assert_eq!(
        w.at("/review/routes"),
        json!(expected),
        "each request's route"
    );
}

#[then(expr = "the review fails with class {string}")]
fn review_fails_with(w: &mut GateWorld, class: String) {
    assert_eq!(
        w.at("/review/failure/class"),
        json!(class),
        "the failure class"
    );
}

#[then(expr = "the review failure reads {string}")]
fn review_failure_reads(w: &mut GateWorld, message: String) {
    w.expect_text(
        "/review/failure/message",
        "the review failure reads",
        &unescape(&message),
    );
}

#[then(expr = "the review failure reads:")]
fn review_failure_reads_doc(w: &mut GateWorld, step: &Step) {
    w.expect_text(
        "/review/failure/message",
        "the review failure reads",
        &doc(step),
    );
}

#[then(expr = "the review failure reads text starting with {string}")]
fn review_failure_prefix(w: &mut GateWorld, prefix: String) {
    w.expect_prefix(
        "/review/failure/message",
        "the review failure reads text",
        &unescape(&prefix),
    );
}

#[then(expr = "the review does not fail")]
fn review_does_not_fail(w: &mut GateWorld) {
    assert_eq!(w.at("/review/failure"), Value::Null, "the review's failure");
}

#[then(regex = r"^the session then counts (\d+) reviewer failures? in a row$")]
fn session_counts(w: &mut GateWorld, n: u32) {
    assert_eq!(
        w.at("/review/consecutive_failures"),
        json!(n),
        "reviewer failures in a row after the call"
    );
}

#[then(expr = "the session keeps no count of reviewer failures")]
fn session_keeps_no_count(w: &mut GateWorld) {
    assert_eq!(
        w.at("/review/consecutive_failures"),
        Value::Null,
        "the failure count"
    );
}

#[then(expr = "the reviewer requests are:")]
fn requests_are(w: &mut GateWorld, step: &Step) {
    let table = step.table.as_ref().unwrap_or_else(|| {
        panic!("this step needs a table: | route | temperature | tools | session id | repair |")
    });
    let Some((header, rows)) = table.rows.split_first() else {
        panic!("the table needs its header row");
    };
    assert_eq!(
        header,
        &["route", "temperature", "tools", "session id", "repair"],
        "the table's header row"
    );
    let expected: Vec<Value> = rows
        .iter()
        .map(|row| match row.as_slice() {
            [route, temperature, tools, session_id, repair] => {
                let number = |cell: &str| -> Value {
                    serde_json::from_str(cell)
                        .unwrap_or_else(|_| panic!("{cell:?} is not a number"))
                };
                json!({
                    "route": route,
                    "temperature": number(temperature),
                    "tools": number(tools),
                    "session_id": if session_id == "null" { Value::Null } else { json!(session_id) },
                    "repair": match repair.as_str() {
                        "true" => true,
                        "false" => false,
                        other => panic!("repair is true or false, not {other:?}"),
                    },
                })
            }
            _ => panic!("each request row has five cells, not {row:?}"),
        })
        .collect();
    assert_eq!(
        w.at("/review/requests"),
        Value::Array(expected),
        "the reviewer requests as sent"
    );
}

/// The hint's line in English and Chinese (`MSG-HINT`, `MSG-HINT-ZH`).
fn hint(count: u32, route: &str) -> (String, String) {
    (
        format!(
            "Auto review has failed {count} times in a row on route {route}; configure a \
             reviewer model (reviewer_route) or switch the permission mode, for example to \
             workspace-write."
        ),
        format!(
            "Auto review 已在路由 {route} 上连续失败 {count} 次；请配置审查模型（reviewer_route）\
             或切换权限模式，例如切换到 workspace-write。"
        ),
    )
}

#[then(regex = r#"^the hint names (\d+) failures? in a row on route "([^"]*)"$"#)]
fn hint_shown(w: &mut GateWorld, count: u32, route: String) {
    let (en, zh) = hint(count, &route);
    let ends_with = |pointer: &str, line: &str| {
        let text = w.at(pointer);
        let text = text.as_str().unwrap_or_else(|| {
            panic!("the hint goes at the end of a text ({pointer}), but there is {text}")
        });
        assert!(
            text.ends_with(&format!("\n{line}")),
            "{pointer} should end with the hint on a line of its own, {line:?}, but is {text:?}"
        );
    };
    ends_with("/listener/reason", &en);
    match w.at("/listener/kind").as_str() {
        Some("ask") => {
            ends_with("/listener/display_reason/en", &en);
            ends_with("/listener/display_reason/zh", &zh);
        }
        Some("deny") => ends_with("/result/text", &en),
        other => panic!("a hint goes with a denial or a question, not {other:?}"),
    }
}

#[then(expr = "no hint is shown")]
fn no_hint(w: &mut GateWorld) {
    for pointer in [
        "/result/text",
        "/listener/reason",
        "/listener/display_reason/en",
        "/listener/display_reason/zh",
        "/approval/reason",
        "/approval/display_reason/en",
        "/approval/display_reason/zh",
    ] {
        if let Some(text) = w.at(pointer).as_str() {
            assert!(
                !text.contains("Auto review has failed") && !text.contains("上连续失败"),
                "{pointer} should carry no hint, but is {text:?}"
            );
        }
    }
}
