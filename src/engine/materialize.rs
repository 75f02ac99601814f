//! Spec chapter 8, materialization (AR-RESULT-1..6): how the tool runtime turns the final decision
//! into the tool result the model receives.

use super::approval::{self, Answered};
use super::{Decided, Run, cancellation, compose};
use crate::messages::{self, Text};
use crate::outcome::{AnsweredBy, ApprovalRecord, Decision, Event, ToolResult};
use crate::scenario::Step;

/// Materializes the stage's decision, asking the approval service for an `ask`.
pub fn materialize(run: &mut Run<'_>, decided: &Decided) -> (Option<ApprovalRecord>, ToolResult) {
    let why = decided.clauses("").to_vec();
    if !matches!(decided.decision, Decision::Ask { .. }) {
        // AR-ORDER-2: only an ask reaches the approval service.
        run.citations.cite_all("/approval", &why);
        // AR-ORDER-2: and where the decision is downstream's deny or cancel, nobody is asked
        // (not before downstream refused, nor after).
        let downstream = compose::downstream_decision(&run.s.downstream);
        if run.trace.contains(&Event::Downstream)
            && matches!(downstream, Decision::Deny { .. } | Decision::Cancel)
            && decided.decision == downstream
        {
            run.citations.cite_first("/approval", "AR-ORDER-2");
        }
    }
    match &decided.decision {
        Decision::Allow => (None, dispatch(run, &why)),
        Decision::Deny { reason, info } => {
            let reason = Text {
                text: reason.clone(),
                prefix: decided.prefixes.get("reason").copied(),
                cited: decided.clauses("/reason").to_vec(),
            };
            run.citations.cite_all("/result/info", &["AR-RESULT-2"]);
            run.citations
                .cite_all("/result/info", decided.clauses("/info"));
            // The info's members a clause of their own decides (AR-RES-MSG-2's name and code),
            // as the decision cites them; AR-REVIEW-8: the reviewer's risk level is no member of
            // a tool result.
            for member in ["name", "code"] {
                let ids = decided.cited.at(&format!("/info/{member}"));
                if !ids.is_empty() {
                    run.citations
                        .cite_all(&format!("/result/info/{member}"), ids);
                }
            }
            run.cite("/result/info/risk", "AR-REVIEW-8");
            let result = refuse(run, "AR-RESULT-2", &reason, info.clone(), &why);
            if cancellation::caller_aborts_in_flight(run.s.abort) {
                // AR-CANCEL-5: the caller's signal aborted in flight, and a final deny is still
                // materialized as that denial, not as the cancellation.
                for member in ["/result/text", "/result/info"] {
                    run.citations.cite_first(member, "AR-CANCEL-5");
                }
            }
            (None, result)
        }
        Decision::Cancel => {
            let result = cancelled(run, &why);
            // AR-CANCEL-7: whatever cancelled the call, its body does not run.
            run.citations.cite_first("/result/executed", "AR-CANCEL-7");
            (None, result)
        }
        Decision::Ask {
            reason,
            display_reason,
        } => {
            if !run.s.agent {
                // AR-APPROVAL-1: no agent to route the question through.
                run.citations.cite_all("/approval", &["AR-APPROVAL-1"]);
                run.citations.cite_all("/approval", &why);
                let text = compose::named(messages::NO_AGENT, &run.s.tool.name);
                run.citations
                    .cite_all("/result/info", &["AR-APPROVAL-1", "AR-RESULT-2"]);
                return (None, refuse(run, "AR-APPROVAL-1", &text, None, &why));
            }
            run.cite("/approval", "AR-APPROVAL-1");
            run.citations.nest("/approval", &decided.cited);
            // AR-APPROVAL-5: the model sees neither the audited nor the display reason.
            let display = display_reason.iter().flat_map(|d| [&d.en, &d.zh]);
            for r in reason.iter().chain(display) {
                run.citations.withhold("/result/text", r, "AR-APPROVAL-5");
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
    let why = run.citations.at("/approval/answer").to_vec();
    let denied = |run: &mut Run<'_>, text: &Text| {
        run.citations
            .cite_all("/result/info", &["AR-RESULT-3", "AR-APPROVAL-3"]);
        let mut by = vec!["AR-APPROVAL-3"];
        by.extend(why.iter().copied());
        let result = refuse(run, "AR-RESULT-3", text, None, &by);
        // The answer decided that the call does not proceed (AR-APPROVAL-3).
        run.citations
            .cite_first("/result/executed", "AR-APPROVAL-3");
        result
    };
    match answered {
        Answered::Threw(message) => {
            run.citations
                .cite_all("/result/info", &["AR-RESULT-5", "AR-APPROVAL-4"]);
            let text = compose::approval_threw(&message);
            refuse(run, "AR-RESULT-5", &text, None, &["AR-APPROVAL-4"])
        }
        Answered::AllowedOnce => dispatch(run, &["AR-APPROVAL-3"]),
        Answered::Rejected => denied(run, &deny(messages::USER_REJECTED)),
        Answered::Cancelled => {
            if cancellation::caller_aborts_in_flight(run.s.abort) {
                cancelled(run, &["AR-RESULT-3", "AR-CANCEL-5"])
            } else {
                denied(run, &deny(messages::APPROVAL_CANCELLED))
            }
        }
        Answered::Unavailable => denied(run, &deny(messages::APPROVAL_UNAVAILABLE)),
    }
}

/// AR-RESULT-1: dispatch, unless the caller's signal is aborted by then; `why` are the clauses
/// of the decision that let the call proceed.
fn dispatch(run: &mut Run<'_>, why: &[&'static str]) -> ToolResult {
    if cancellation::caller_aborts_in_flight(run.s.abort) {
        let mut by = vec!["AR-RESULT-1", "AR-CANCEL-5"];
        by.extend(why.iter().copied());
        return cancelled(run, &by);
    }
    run.event(Event::Body);
    for member in ["/result/executed", "/result/text", "/result/info", "/trace"] {
        run.cite(member, "AR-RESULT-1");
        run.citations.cite_all(member, why);
    }
    run_body(run);
    ToolResult::executed()
}

/// AR-RESULT-7: the body's steps, in order: a preset it selects is written with its bundle, a
/// request it raises goes to the approval service and is recorded with its answer.
fn run_body(run: &mut Run<'_>) {
    let mut preset = run.s.preset;
    // AR-DISPOSE-3: a disposal during a call the gate passed through moved its session (and the
    // policy) before its body runs.
    let mut policy = super::disposal::policy_at_approval(run.s, run.profile);
    // The clause that wrote the policy in force, where the call's own is not.
    let mut policy_by = (policy != run.s.policy).then_some("AR-DISPOSE-3");
    for step in &run.s.body {
        match step {
            Step::LeaveAuto(p) => {
                preset = p.preset();
                policy.override_ = Some(p.policy());
                policy_by = Some("AR-RESULT-7");
                if run.mode != p.mode() {
                    run.mode = p.mode();
                    run.cite("/sandbox/after", "AR-RESULT-7");
                }
            }
            Step::Raise(raise) => {
                let at = format!("/body_approvals/{}", run.body_approvals.len());
                let (entry, mut by) = approval::raised(run, raise, preset, policy);
                if let Some(clause) = policy_by.filter(|_| entry.answered_by == AnsweredBy::Service)
                {
                    by.insert(0, clause);
                }
                run.event(Event::Raised);
                run.cite(&format!("/trace/{}", run.trace.len() - 1), "AR-RESULT-7");
                run.cite("/trace", "AR-RESULT-7");
                run.cite("/body_approvals", "AR-RESULT-7");
                run.cite(&at, "AR-RESULT-7");
                // Who answered, and so the answer, rest first on the clause that chose them.
                for member in ["/answered_by", "/answer"] {
                    run.citations.cite_all(&format!("{at}{member}"), &by);
                    run.cite(&format!("{at}{member}"), "AR-RESULT-7");
                }
                run.body_approvals.push(entry);
            }
        }
    }
}

/// AR-RESULT-2 (and AR-RESULT-3, AR-RESULT-5, AR-APPROVAL-1, by `clause`): `Error: <reason>` with
/// the decision's info; `why` are the clauses of the decision that refused the call.
fn refuse(
    run: &mut Run<'_>,
    clause: &'static str,
    reason: &Text,
    info: Option<serde_json::Map<String, serde_json::Value>>,
    why: &[&'static str],
) -> ToolResult {
    // AR-RESULT-6: the info's reason is for logs and interfaces, never in the model's text.
    if let Some(r) = info.as_ref().and_then(|i| i.get("reason")?.as_str()) {
        run.citations.withhold("/result/text", r, "AR-RESULT-6");
    }
    let (result, text) = compose::refused(reason, info);
    if let Some(p) = text.prefix {
        run.prefix_only.insert("/result/text".to_owned(), p);
    }
    run.cite("/result/text", clause);
    run.citations.cite_all("/result/text", &text.cited);
    run.cite("/result/executed", clause);
    run.citations.cite_all("/result/executed", why);
    result
}

/// AR-RESULT-4: the canonical pre-dispatch cancellation, `why` being the clauses that cancelled.
fn cancelled(run: &mut Run<'_>, why: &[&'static str]) -> ToolResult {
    run.citations
        .nest("/result", &compose::cancellation_cited(why));
    aborted()
}

/// AR-RESULT-4: the canonical pre-dispatch cancellation.
pub fn aborted() -> ToolResult {
    compose::aborted()
}
