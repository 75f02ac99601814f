//! Spec chapter 8, materialization (AR-RESULT-1..6): how the tool runtime turns the final decision
//! into the tool result the model receives.

use super::approval::{self, Answered};
use super::{Decided, Run, cancellation, compose};
use crate::messages::{self, Text};
use crate::outcome::{ApprovalRecord, Decision, Event, ToolResult};

/// Materializes the stage's decision, asking the approval service for an `ask`.
pub fn materialize(run: &mut Run<'_>, decided: &Decided) -> (Option<ApprovalRecord>, ToolResult) {
    match &decided.decision {
        Decision::Allow => (None, dispatch(run)),
        Decision::Deny { reason, info } => {
            let reason = Text {
                text: reason.clone(),
                prefix: decided.prefixes.get("reason").copied(),
            };
            (None, refuse(run, &reason, info.clone()))
        }
        Decision::Cancel => (None, aborted()),
        Decision::Ask {
            reason,
            display_reason,
        } => {
            if !run.s.agent {
                // AR-APPROVAL-1: no agent to route the question through.
                let text = compose::named(messages::NO_AGENT, &run.s.tool.name);
                return (None, refuse(run, &text, None));
            }
            let (record, answered) =
                approval::request(run, reason.as_deref(), display_reason.as_ref());
            for (key, p) in &decided.prefixes {
                run.prefix_only.insert(format!("/approval/{key}"), *p);
            }
            (Some(record), after_approval(run, answered))
        }
    }
}

/// AR-APPROVAL-3, AR-APPROVAL-4, AR-RESULT-3.
fn after_approval(run: &mut Run<'_>, answered: Answered) -> ToolResult {
    let name = run.s.tool.name.clone();
    let deny = |t: messages::Template| compose::named(t, &name);
    match answered {
        Answered::Threw(message) => refuse(run, &compose::approval_threw(&message), None),
        Answered::AllowedOnce => dispatch(run),
        Answered::Rejected => refuse(run, &deny(messages::USER_REJECTED), None),
        Answered::Cancelled => {
            if cancellation::caller_aborts_in_flight(run.s.abort) {
                aborted()
            } else {
                refuse(run, &deny(messages::APPROVAL_CANCELLED), None)
            }
        }
        Answered::Unavailable => refuse(run, &deny(messages::APPROVAL_UNAVAILABLE), None),
    }
}

/// AR-RESULT-1: dispatch, unless the caller's signal is aborted by then.
fn dispatch(run: &mut Run<'_>) -> ToolResult {
    if cancellation::caller_aborts_in_flight(run.s.abort) {
        return aborted();
    }
    run.event(Event::Body);
    ToolResult::executed()
}

/// AR-RESULT-2: `Error: <reason>` with the decision's info.
fn refuse(
    run: &mut Run<'_>,
    reason: &Text,
    info: Option<serde_json::Map<String, serde_json::Value>>,
) -> ToolResult {
    let (result, prefix) = compose::refused(reason, info);
    if let Some(p) = prefix {
        run.prefix_only.insert("/result/text".to_owned(), p);
    }
    result
}

/// AR-RESULT-4: the canonical pre-dispatch cancellation.
pub fn aborted() -> ToolResult {
    compose::aborted()
}
