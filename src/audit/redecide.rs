//! Re-deciding a recorded call (`spec/audit.md`, "Re-deciding a recorded call"): where a record
//! carries the reviewer's reply and the facts the gate decided on, the call it stands for is a
//! scenario; the reference decides it under a profile, and the recorded outcome is judged against
//! that by the one judge every answer meets ([`crate::runner::judge_against`]), so a recorded call breaks
//! a clause exactly as an implementation's answer to a fixed case would.
//!
//! A record shows only part of an outcome: what the model saw (the result), the approval prompt
//! when one was shown, and what those say of the gate's answer and of whether its review failed.
//! The recorded outcome is the reference's with those members put in ([`recorded`]), so that
//! every member a record does not show is never compared.

use serde_json::{Map, Value, json};

use super::{CallRecord, Classification, FailureKind, RequestClass, classify};
use crate::capability::Capabilities;
use crate::cases::{Case, Expectation};
use crate::outcome::{
    ApprovalRecord, Decision, Event, Failure, FailureClass, InputOutcome, Outcome, ToolResult,
};
use crate::profile::Profile;
use crate::runner::Verdict;
use crate::scenario::session::Input;
use crate::scenario::{ApprovalAnswer, Scenario};

/// A recorded call decided again under a profile.
#[derive(Debug, Clone)]
pub struct Redecided {
    /// The scenario the record stands for.
    pub scenario: Scenario,
    /// The reference's outcome for it.
    pub reference: Outcome,
    /// The verdict on the recorded outcome.
    pub verdict: Verdict,
}

/// The scenario `call` stands for, `failures` reviewer failures in a row recorded before it in its
/// session (the record's own `failures_before` when it has one); or what the record lacks for
/// one, in words that name no recorded value (audit counts calls by them). Needed: the reviewer's reply (every request gets it), the route, the effective policy
/// (taken as the session's override), the preset and the result. A prompt that merges the gate's
/// question with a later listener's (`MSG-ASK-COMBINED`) says that listener asked. Every member a
/// record cannot carry keeps the scenario's default (a native call, a consistent session log, the
/// rest of the chain allowing, no abort, the gate's default configuration unless `config` is
/// recorded); a human the record shows no prompt to would have rejected.
pub fn scenario(call: &CallRecord, failures: u32) -> Result<Scenario, String> {
    let reply = call
        .reviewer
        .as_ref()
        .and_then(|r| r.reply.as_deref())
        .ok_or("no reviewer reply")?;
    call.result.as_ref().ok_or("no result")?;
    let route = call.route.as_deref().ok_or("no route")?;
    let (provider, model) = route
        .split_once('/')
        .ok_or("the route is not provider/model")?;
    let policy = call.policy.as_deref().ok_or("no policy")?;
    let preset = call.preset.as_deref().ok_or("no preset")?;
    // A failure denied on purpose under `ask` (INFO-FAILED) was denied as the gate's
    // configuration said; without it, whether the gate fails closed cannot be told.
    if call.config.is_none()
        && policy == "ask"
        && call.approval.is_none()
        && classify::marked_failed(call)
    {
        return Err(
            "a failure denied as configured (INFO-FAILED) under ask, with no config recorded"
                .to_owned(),
        );
    }
    let answer = match &call.approval {
        Some(a) => a
            .answer
            .as_deref()
            .ok_or("an approval prompt without its answer")?,
        None => ApprovalAnswer::Rejected.as_str(),
    };
    let mut s = json!({
        "tool": {"name": call.tool},
        "preset": preset,
        "policy": policy,
        "reviewer": {"text": reply},
        "approval": answer,
        "session": {
            "route": {"provider": provider, "model": model},
            "consecutive_failures": call.failures_before.unwrap_or(failures),
        },
    });
    if let Some(config) = &call.config {
        s["config"] = config.clone();
    }
    if let Some(reason) = later_ask(call) {
        s["downstream"] = json!({"kind": "ask", "reason": reason});
    }
    serde_json::from_value(s).map_err(|_| {
        "the policy, preset, approval answer or config is not one the scenario format takes"
            .to_owned()
    })
}

/// Whether the body of a call recorded with this result text ran, when the record tells: a call
/// the gate or the human refused has the runtime's refusal (`MSG-ERROR-PREFIX`) as its result, and
/// any other result is the body's. A refusal of a call the gate let through (the rest of the
/// chain's, or a tool that failed in its own words) cannot tell.
fn ran(classification: &Classification, text: &str) -> Option<bool> {
    let refused = classify::is_error(text);
    match classification {
        Classification::Allowed if refused => None,
        _ => Some(!refused),
    }
}

/// What a later listener asked, when the recorded prompt is the gate's question merged with it
/// (`MSG-ASK-COMBINED`): the text after the template's last separator. The gate's part quotes the
/// reviewer, whose text an attacker can steer; the listener's reason is the harness's own.
fn later_ask(call: &CallRecord) -> Option<&str> {
    let reason = call.approval.as_ref()?.reason.as_deref()?;
    let t = crate::messages::ASK_COMBINED.text;
    let separator = &t[t.find("<review>")? + "<review>".len()..t.find("<reason>")?];
    reason.rsplit_once(separator).map(|(_, later)| later)
}

/// The recorded outcome: the reference's, with what the record shows put in — whether the body
/// ran and the text and info the model saw, the gate's answer, whether its review failed, and the
/// approval prompt (or that none was shown). What the record cannot tell stays the reference's.
pub fn recorded(
    call: &CallRecord,
    classification: &Classification,
    reference: &Outcome,
) -> Outcome {
    let mut o = reference.clone();
    let result = call.result.clone().unwrap_or_default();
    let text = result.text.unwrap_or_default();
    let ran = ran(classification, &text);
    match ran {
        Some(true) => {
            o.result = ToolResult::executed();
            if !o.trace.contains(&Event::Body) {
                o.trace.push(Event::Body);
            }
        }
        Some(false) => {
            // Info that is no object (the format says it is one) is not compared.
            let info = match result.error {
                Some(Value::Object(m)) => Some(m),
                _ => reference.result.info.clone(),
            };
            o.result = ToolResult::refused(text.clone(), info);
            o.trace
                .retain(|e| !matches!(e, Event::Body | Event::Raised));
            o.body_approvals.clear();
        }
        None => {}
    }
    // The gate's answer, where the record shows it: its refusal as the result, its question as
    // the prompt, or a body that ran with no prompt at all (it allowed; a prompt another listener
    // raised may have replaced the gate's question, and cannot tell). A gate that did not run
    // for the call (another preset) answered nothing, as the reference's shows.
    if reference.listener.is_some() {
        let question = classify::question(call).is_some();
        let gate_refused = matches!(
            classification,
            Classification::Denied | Classification::Failure { .. }
        ) && !question;
        if gate_refused {
            let reason = text
                .strip_prefix(&classify::error_prefix())
                .unwrap_or(&text)
                .to_owned();
            o.listener = Some(Decision::Deny {
                reason,
                info: o.result.info.clone(),
            });
        } else if question && !matches!(reference.listener, Some(Decision::Ask { .. })) {
            o.listener = Some(Decision::Ask {
                reason: None,
                display_reason: None,
            });
        } else if ran == Some(true) && call.approval.is_none() {
            o.listener = Some(Decision::Allow);
        }
    }
    // Whether the review failed, where the record shows it: a failure text says it did (its
    // class from the message), the gate's denial, its question about a denial, or a body that ran
    // with no prompt say it read a decision. The reference's own failure is kept where both
    // failed: the texts show how they differ.
    let decided = matches!(
        classification,
        Classification::Denied | Classification::Asked
    ) || (ran == Some(true) && call.approval.is_none());
    match classification {
        Classification::Failure { class, message } if reference.review.failure.is_none() => {
            o.review.failure = Some(Failure {
                class: class_of(*class),
                message: message.clone(),
            });
        }
        _ if decided => o.review.failure = None,
        _ => {}
    }
    // A prompt is put in only when it is the gate's question: one another part of the chain
    // raised (a hook, the body) cannot tell what the gate did, and is not compared.
    match call
        .approval
        .as_ref()
        .filter(|_| classify::question(call).is_some())
    {
        Some(a) => {
            let answer = a
                .answer
                .as_deref()
                .and_then(|n| serde_json::from_value(json!(n)).ok())
                .unwrap_or_default();
            o.approval = Some(ApprovalRecord {
                reason: a.reason.clone(),
                display_reason: reference
                    .approval
                    .as_ref()
                    .and_then(|r| r.display_reason.clone()),
                answer,
                prompted: true,
            });
            if !o.trace.contains(&Event::Approval) {
                let at = o
                    .trace
                    .iter()
                    .position(|e| *e == Event::Body)
                    .unwrap_or(o.trace.len());
                o.trace.insert(at, Event::Approval);
            }
        }
        // No prompt shown: the gate asked nobody, unless another part of the chain refused the
        // call first (the result is a refusal the gate did not write), which cannot tell.
        None if call.approval.is_none()
            && ran.is_some()
            && reference.approval.as_ref().is_some_and(|a| a.prompted) =>
        {
            o.approval = None;
            o.trace.retain(|e| *e != Event::Approval);
        }
        None => {}
    }
    o
}

/// The class of failure (AR-REVIEW-6) a recorded failure of this kind is.
fn class_of(kind: FailureKind) -> FailureClass {
    match kind {
        FailureKind::ToolCallMarkup | FailureKind::Prose => FailureClass::Protocol,
        FailureKind::RequestFailed(r) => match r {
            RequestClass::Transport => FailureClass::Transport,
            RequestClass::Quota => FailureClass::Quota,
            RequestClass::Timeout => FailureClass::Timeout,
            RequestClass::Abort => FailureClass::Aborted,
            RequestClass::Provider => FailureClass::Provider,
        },
        FailureKind::Schema => FailureClass::Schema,
        FailureKind::Other => FailureClass::Internal,
    }
}

/// `call` decided again under `profile`, `failures` reviewer failures in a row recorded before it
/// in its session: the scenario, the reference's outcome and the verdict on the recorded one; or
/// what the record lacks for it.
pub fn redecide(
    call: &CallRecord,
    classification: &Classification,
    failures: u32,
    profile: Profile,
) -> Result<Redecided, String> {
    let scenario = scenario(call, failures)?;
    let input = Input::One(Box::new(scenario.clone()));
    // Decided as the judge decides a reference: a panic (a bug of autoreview's) is said, and the
    // call is judged by what its record shows instead.
    let reference = match crate::runner::judge::reference_safely(
        &input,
        profile,
        Capabilities::ALL,
        &crate::messages::Wording::default(),
    ) {
        Ok(InputOutcome::One(o)) => *o,
        Ok(InputOutcome::Session(_)) => return Err("the reference decided a session".to_owned()),
        Err(_) => return Err("the reference engine panicked (a bug in autoreview)".to_owned()),
    };
    let outcome = recorded(call, classification, &reference);
    let case = Case {
        id: "recorded".to_owned(),
        area: "audit".to_owned(),
        title: format!("a recorded call of {}", call.tool),
        clauses: Vec::new(),
        scenario: input,
        expect: Expectation::Partial(Value::Object(Map::new())),
        implementation_defined: false,
    };
    let verdict = crate::runner::judge_against(
        &case,
        &InputOutcome::One(Box::new(outcome)),
        InputOutcome::One(Box::new(reference.clone())),
        profile,
        Capabilities::ALL,
    );
    Ok(Redecided {
        scenario,
        reference,
        verdict,
    })
}
