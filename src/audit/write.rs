//! Audit records of what an implementation did (`spec/audit.md`): one `call` record per call of
//! an input, from the scenario and the implementation's outcome, so that a harness author sees
//! the format produced and `autoreview audit` reads back what a run did.

use serde_json::{Value, json};

use crate::outcome::{FailureClass, InputOutcome, ItemOutcome, Outcome};
use crate::profile::Profile;
use crate::scenario::session::{Input, Item};
use crate::scenario::{Attempt, Scenario};

/// The records of one input decided as `outcome`, its calls in session `session`: a call's tool,
/// route, effective policy, preset, what the model saw (the result's text and info), the approval
/// prompt when one was shown, the reviewer's last reply when it was one text, the gate's count of
/// failures before the call and its configuration where they are not the defaults. An
/// event of a session writes no record; a call whose outcome is missing writes none.
pub fn records(
    input: &Input,
    outcome: &InputOutcome,
    profile: Profile,
    session: &str,
) -> Vec<Value> {
    match (input, outcome) {
        (Input::One(s), InputOutcome::One(o)) => vec![record(s, o, profile, session)],
        (Input::Session(s), InputOutcome::Session(o)) => s
            .calls
            .iter()
            .zip(&o.calls)
            .filter_map(|pair| match pair {
                (Item::Call(c), ItemOutcome::Call(o)) => Some(record(c, o, profile, session)),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The record of one call.
fn record(s: &Scenario, o: &Outcome, profile: Profile, session: &str) -> Value {
    let route = o
        .review
        .routes
        .first()
        .cloned()
        .unwrap_or_else(|| crate::engine::review::route_for(s, profile));
    let mut r = json!({
        "session": session,
        "tool": s.tool.name,
        "route": route,
        "policy": name(&s.policy.effective()),
        "preset": name(&s.preset),
        "result": {"text": o.result.text},
    });
    if s.session.consecutive_failures > 0 {
        r["failures_before"] = json!(s.session.consecutive_failures);
    }
    if s.config != crate::scenario::Config::default() {
        r["config"] = name(&s.config);
    }
    if let Some(info) = &o.result.info {
        r["result"]["error"] = Value::Object(info.clone());
    }
    if let Some(a) = o.approval.as_ref().filter(|a| a.prompted) {
        r["approval"] = json!({"reason": a.reason, "answer": name(&a.answer)});
    }
    // The reviewer's last reply, where it was one text ended by a normal stop and the gate read it
    // (it decided, or refused the reply itself): a reply of several blocks, one that ended
    // otherwise, or one that came after the deadline is not a text a reader could be given again.
    let last = (o.review.attempts as usize).checked_sub(1);
    let read = o
        .review
        .failure
        .as_ref()
        .is_none_or(|f| f.class == FailureClass::Protocol);
    if let Some(Attempt::Text { text, .. }) = last.filter(|_| read).map(|k| s.reviewer.attempt(k)) {
        r["reviewer"] = json!({ "reply": text });
    }
    r
}

/// The wire name of a unit enum value (`"ask"`, `"auto"`, `"allowed-once"`).
fn name(v: &impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}
