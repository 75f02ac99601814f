//! The canonical form of a scenario (`spec/protocol.md`, "Canonical scenarios"): what the runner
//! sends an adapter that asks for it. It is always a session, and it names every member, so an
//! adapter reads it with a structural decoder and applies no default, shorthand or rule of its own:
//! the scenario was read and checked here. It reads back as the same session.
//!
//! Every type is taken apart member by member, so that a member added to a scenario type does not
//! compile until it is written here too.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::session::{Event, Input, Item, SessionScenario};
use super::{
    ApprovalAnswer, Attempt, Block, Config, Downstream, FailedFinish, Policy, Reviewer, Route,
    Sandbox, Scenario, SchemaCount, SchemaView, Session, Step, Tool, body::Raise,
};

/// The canonical form of a scenario line: a session scenario naming every member. A single call
/// is a session of that one call, with the call's `id` on both.
pub fn input(input: &Input) -> Value {
    match input {
        Input::Session(s) => session(s),
        Input::One(call) => session(&as_session(call)),
    }
}

/// The session of one call: its session members at the top, the call as the only item.
pub fn as_session(call: &Scenario) -> SessionScenario {
    SessionScenario {
        id: call.id.clone(),
        session: call.session.clone(),
        config: call.config.clone(),
        preset: call.preset,
        policy: call.policy,
        calls: vec![Item::Call(Box::new(call.clone()))],
    }
}

/// The single call a session of one call holds, with the session's members: the inverse of
/// [`as_session`]. `None` for a session of another length or of an event.
pub fn single_call(s: &SessionScenario) -> Option<Scenario> {
    match s.calls.as_slice() {
        [Item::Call(c)] => Some(Scenario {
            session: s.session.clone(),
            config: s.config.clone(),
            preset: s.preset,
            policy: s.policy,
            ..(**c).clone()
        }),
        _ => None,
    }
}

/// What the scripted world answers for each item of an input, in the order of its canonical
/// form's `calls` (`null` for an event): sent beside a canonical scenario, so that a kit's world
/// plays it back instead of deriving it from the scenario.
pub fn world(input: &Input) -> Value {
    match input {
        Input::One(call) => json!([call_world(call)]),
        Input::Session(s) => s
            .calls
            .iter()
            .map(|item| match item {
                Item::Call(c) => call_world(c),
                Item::Event(_) => Value::Null,
            })
            .collect(),
    }
}

/// What the scripted world answers for one call beyond what its canonical scenario names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorldAnswer {
    /// How many schemas of the call's name the request header holds (`schema.header`: missing
    /// 0, present 1, ambiguous 2).
    pub header_schemas: u8,
    /// How many schemas of the call's name the live tool registry holds (`schema.registry`).
    pub registry_schemas: u8,
    /// The message of the error looking the pending call up in the session log throws (`log`;
    /// `null`: it finds the call, `consistent`).
    pub log_error: Option<String>,
}

fn call_world(call: &Scenario) -> Value {
    let count = |c: SchemaCount| match c {
        SchemaCount::Missing => 0,
        SchemaCount::Present => 1,
        SchemaCount::Ambiguous => 2,
    };
    name(&WorldAnswer {
        header_schemas: count(call.schema.header),
        registry_schemas: count(call.schema.registry),
        log_error: call.log.message().map(|t| t.text.to_string()),
    })
}

/// The canonical form of a session scenario.
pub fn session(s: &SessionScenario) -> Value {
    let SessionScenario {
        id,
        session,
        config,
        preset,
        policy,
        calls,
    } = s;
    json!({
        "id": id,
        "session": session_members(session),
        "config": config_members(config),
        "preset": name(preset),
        "policy": policy_members(policy),
        "calls": calls.iter().map(item).collect::<Vec<_>>(),
    })
}

fn item(item: &Item) -> Value {
    match item {
        Item::Event(Event {
            event,
            reselect,
            confines_reads,
        }) => {
            let mut members = json!({ "event": name(event), "reselect": reselect });
            // Only a backend event has it, which only an adapter observing `confinement` is sent.
            if let Some(confines) = confines_reads {
                members["confines_reads"] = json!(confines);
            }
            members
        }
        Item::Call(c) => call(c),
    }
}

/// A call's own members (those of a single-call scenario less the session's).
fn call(c: &Scenario) -> Value {
    // The session members are the session's: written at the top, not here.
    let Scenario {
        id,
        tool,
        agent,
        preset: _,
        policy: _,
        schema,
        log,
        reviewer,
        downstream,
        approval,
        abort,
        session: _,
        config: _,
        body,
    } = c;
    let Tool {
        name: tool_name,
        call,
    } = tool;
    let SchemaView { header, registry } = schema;
    let attempts: Vec<Value> = match reviewer {
        Reviewer::One(a) => vec![attempt(a)],
        Reviewer::Many(list) => list.iter().map(attempt).collect(),
    };
    let mut members = json!({
        "id": id,
        "tool": { "name": tool_name, "call": name(call) },
        "agent": agent,
        "schema": { "header": name(header), "registry": name(registry) },
        "log": name(log),
        "reviewer": attempts,
        "downstream": downstream_members(downstream),
        "approval": name(approval),
        "abort": name(abort),
    });
    // Written only when the body does something, which only an adapter observing
    // `body-approvals` is sent (`Capabilities::needed_by`).
    if !body.is_empty() {
        members["body"] = body.iter().map(|s| step(s, *approval)).collect();
    }
    members
}

/// A body step with every member written out: a raise's answer too, where it defaults to the
/// call's `approval` (never `throws` there, RZ-12).
fn step(s: &Step, approval: ApprovalAnswer) -> Value {
    match s {
        Step::Raise(raise) => {
            let Raise {
                call_id, reason, ..
            } = raise;
            let answer = raise.human_answer(approval);
            json!({ "raise": { "call_id": call_id, "reason": reason, "answer": answer } })
        }
        Step::LeaveAuto(p) => json!({ "leave_auto": p }),
    }
}

fn attempt(a: &Attempt) -> Value {
    match a {
        Attempt::Text { text, delay_ms } => json!({ "text": text, "delay_ms": delay_ms }),
        Attempt::Blocks {
            blocks,
            finish,
            data_after_finish,
            delay_ms,
        } => json!({
            "blocks": blocks
                .iter()
                .map(|Block { kind, text }| json!({ "type": name(kind), "text": text }))
                .collect::<Vec<_>>(),
            "finish": finish,
            "data_after_finish": data_after_finish,
            "delay_ms": delay_ms,
        }),
        Attempt::Finish {
            finish:
                FailedFinish {
                    kind,
                    code,
                    message,
                },
            delay_ms,
        } => json!({
            "finish": { "kind": name(kind), "code": code, "message": message },
            "delay_ms": delay_ms,
        }),
        Attempt::Throw { throw, delay_ms } => json!({ "throw": throw, "delay_ms": delay_ms }),
        Attempt::Hang { hang: _ } => json!({ "hang": true }),
    }
}

fn downstream_members(d: &Downstream) -> Value {
    match d {
        Downstream::Allow => json!({ "kind": "allow" }),
        Downstream::Cancel => json!({ "kind": "cancel" }),
        Downstream::Deny { reason, info } => {
            json!({ "kind": "deny", "reason": reason, "info": info.as_ref().map(|m| Value::Object(m.clone())) })
        }
        Downstream::Ask { reason } => json!({ "kind": "ask", "reason": reason }),
    }
}

fn session_members(s: &Session) -> Value {
    let Session {
        id,
        route,
        consecutive_failures,
        listed,
        working_directory,
        sandbox,
    } = s;
    let mut members = json!({
        "id": id,
        "route": route_members(route),
        "consecutive_failures": consecutive_failures,
        "listed": listed,
        "working_directory": working_directory,
    });
    // Written only off its default, which only an adapter observing `confinement` is sent
    // (`Capabilities::needed_by`), as `config.temperature`.
    if !sandbox.is_default() {
        members["sandbox"] = sandbox_members(sandbox);
    }
    members
}

fn sandbox_members(s: &Sandbox) -> Value {
    let Sandbox {
        mode,
        confines_reads,
        narrowing,
    } = s;
    json!({
        "mode": mode,
        "confines_reads": confines_reads,
        "narrowing": narrowing,
    })
}

fn route_members(r: &Route) -> Value {
    let Route { provider, model } = r;
    json!({ "provider": provider, "model": model })
}

fn config_members(c: &Config) -> Value {
    let Config {
        on_failure,
        repair_attempts,
        transport_retries,
        review_timeout_ms,
        reviewer_route,
        failure_hint_after,
        temperature,
        max_json_retries,
    } = c;
    let mut members = json!({
        "on_failure": name(on_failure),
        "repair_attempts": repair_attempts,
        "transport_retries": transport_retries,
        "review_timeout_ms": review_timeout_ms,
        "reviewer_route": reviewer_route.as_ref().map(route_members),
        "failure_hint_after": failure_hint_after,
    });
    // Written only off its default, which only an adapter observing `temperature` is sent
    // (`Capabilities::needed_by`): an adapter written before the member reads every other
    // scenario as it did.
    if !temperature.is_default() {
        members["temperature"] = name(temperature);
    }
    // Likewise off its default only, which only an adapter observing `json-retries` is sent.
    if *max_json_retries != 1 {
        members["max_json_retries"] = json!(max_json_retries);
    }
    members
}

fn policy_members(p: &Policy) -> Value {
    let Policy { override_, default } = p;
    json!({ "override": override_.map(|o| name(&o)), "default": name(default) })
}

/// The wire form of a value: the name of a unit enum value (`"ptc-inner"`), a struct's members.
fn name(v: &impl Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Every member path a canonical value names, array indexes left out (`calls.reviewer.delay_ms`),
/// with the distinct values it takes: what the replay fixture's coverage is measured by.
pub fn member_paths(v: &Value, at: &str, out: &mut std::collections::BTreeMap<String, Vec<Value>>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                let seen = out.entry(path.clone()).or_default();
                let scalar = if v.is_object() || v.is_array() {
                    Value::String(kind(v).to_owned())
                } else {
                    v.clone()
                };
                if !seen.contains(&scalar) {
                    seen.push(scalar);
                }
                if !is_free(&path) {
                    member_paths(v, &path, out);
                }
            }
        }
        Value::Array(items) => {
            for i in items {
                member_paths(i, at, out);
            }
        }
        _ => {}
    }
}

/// Members whose value is free JSON, not more members of the form.
fn is_free(path: &str) -> bool {
    path.ends_with(".throw") || path.ends_with(".info") || path.ends_with("finish.message")
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Object(_) => "object",
        _ => "array",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Input {
        Input::from_json(text).unwrap()
    }

    #[test]
    fn a_single_call_becomes_a_session_naming_every_member_that_reads_back_the_same() {
        let one = read(r#"{"id":"x","tool":{"name":"bash"},"reviewer":{"text":"{}"}}"#);
        let v = input(&one);
        assert_eq!(v["calls"].as_array().map(Vec::len), Some(1));
        assert_eq!(v["calls"][0]["id"], "x");
        assert_eq!(v["id"], "x");
        for member in ["session", "config", "preset", "policy"] {
            assert!(v[member] != Value::Null, "{member}");
            assert!(v["calls"][0].get(member).is_none(), "{member} in the call");
        }
        assert_eq!(v["session"]["listed"], true);
        assert_eq!(v["session"]["id"], "session-1");
        assert_eq!(v["calls"][0]["log"], "consistent");
        assert_eq!(v["calls"][0]["reviewer"][0]["delay_ms"], 0);
        assert_eq!(v["calls"][0]["schema"]["registry"], "present");
        assert_eq!(v["policy"], json!({"override": null, "default": "ask"}));
        assert_eq!(v["config"]["reviewer_route"], Value::Null);
        // It reads back as the session of that call, a script of one attempt written as a list
        // of one, and is a fixed point.
        let back = read(&v.to_string());
        assert_eq!(input(&back), v);
        let Input::Session(back) = back else {
            panic!("the canonical form is a session")
        };
        assert_eq!(back.calls.len(), 1);
    }

    #[test]
    fn every_shorthand_is_written_out_and_a_session_reads_back_the_same() {
        let text = r#"{"calls":[
            {"tool":{"name":"t","call":"ptc-inner"},"schema":"registry-only","reviewer":[
                {"blocks":[{"type":"text","text":"a"}]},{"finish":{"kind":"error","code":"E","message":1}},
                {"throw":{"x":1},"delay_ms":5},{"hang":true}],
             "downstream":{"kind":"deny","reason":"r"},"abort":"caller-during-review"},
            {"event":"dispose"},{"event":"install"}],
            "policy":"never","session":{"working_directory":false}}"#;
        let s = read(text);
        let v = input(&s);
        let c = &v["calls"][0];
        assert_eq!(
            c["schema"],
            json!({"header": "missing", "registry": "present"})
        );
        assert_eq!(c["reviewer"][0]["finish"], "stop");
        assert_eq!(c["reviewer"][0]["data_after_finish"], false);
        assert_eq!(c["reviewer"][3], json!({"hang": true}));
        assert_eq!(c["downstream"]["info"], Value::Null);
        assert_eq!(
            v["calls"][1],
            json!({"event": "dispose", "reselect": false})
        );
        assert_eq!(v["policy"], json!({"override": "never", "default": "ask"}));
        assert_eq!(v["session"]["working_directory"], false);
        assert_eq!(read(&v.to_string()), s);
        // Written again, the canonical form is the same: it is a fixed point.
        assert_eq!(input(&read(&v.to_string())), v);
    }
}
