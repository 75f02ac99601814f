//! Expands a row's symbolic outcome into the concrete outcome for one scenario, using the message
//! templates and the row itself. What the review did (its requests, failure, routes and failure
//! count) belongs to the review chapter and is taken from it; everything the gate and the tool
//! runtime then do is restated here, independently of the engine's control flow, and the tests
//! compare the two.

use std::collections::BTreeMap;

use super::{ApprovalForm, ListenerForm, ResultForm, Row, Table};
use crate::engine::review::{self, Review, Settlement};
use crate::messages::{self, Template, Text, reference};
use crate::outcome::{
    ApprovalRecord, Decision, DisplayReason, Event, Outcome, ReviewRecord, ToolResult,
};
use crate::parse::ReviewerDecision;
use crate::scenario::{ApprovalAnswer, Downstream, Scenario};

/// Why a row cannot be expanded for a scenario: the row and the scenario disagree, which the
/// table's lint tests rule out for committed rows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("row {row}: {message}")]
pub struct ExpandError {
    /// The row.
    pub row: String,
    /// What did not fit.
    pub message: String,
}

/// The texts of an ask before they become a decision.
struct Ask {
    reason: Text,
    en: Text,
    zh: Text,
}

/// The outcome `row` prescribes for `s`.
pub fn expected(table: &Table, row: &Row, s: &Scenario) -> Result<Outcome, ExpandError> {
    let err = |m: &str| ExpandError {
        row: row.id.clone(),
        message: m.to_owned(),
    };
    let profile = table.profile;
    let then = &row.then;
    let name = Text::exact(s.tool.name.as_str());
    let mut prefix_only = BTreeMap::new();
    let mut trace = Vec::new();

    // The review, as the review chapter reports it.
    let summary: Option<Review> = then.review.then(|| review::review(s, profile));
    let record = match &summary {
        Some(r) => {
            trace.extend((0..r.attempts()).map(|_| Event::Review));
            r.record()
        }
        None => ReviewRecord::unreviewed(
            // AR-RES-HINT-1
            profile
                .counts_failures()
                .then_some(s.session.consecutive_failures),
        ),
    };
    let failure = match summary.as_ref().map(|r| &r.settlement) {
        Some(Settlement::Failed(f)) => Some(f.message.clone()),
        _ => None,
    };
    if let Some(Text {
        prefix: Some(p), ..
    }) = &failure
    {
        prefix_only.insert("/review/failure/message".to_owned(), *p);
    }
    let reviewer_reason = || match summary.as_ref().map(|r| &r.settlement) {
        Some(Settlement::Decided(ReviewerDecision::Deny { reason, .. })) => Ok(reason.clone()),
        _ => Err(err(
            "the row needs a reviewer denial, but the review did not deny",
        )),
    };
    let failure_message = || {
        failure
            .clone()
            .ok_or_else(|| err("the row needs a review failure, but the review did not fail"))
    };
    let hint: Option<(String, String)> = match &summary {
        Some(r) if r.hint_due(s) => {
            let count = r.consecutive_failures.unwrap_or_default().to_string();
            let route = r.last_route();
            let args = [("count", count.as_str()), ("route", route)];
            Some((
                messages::HINT.render(&args),
                messages::HINT_ZH.render(&args),
            ))
        }
        _ => None,
    };

    if then.downstream {
        trace.push(Event::Downstream);
    }

    // The gate's decision.
    let review_ask = |reason: Option<String>| {
        let n = s.tool.name.as_str();
        match reason.as_deref() {
            None => Ask {
                reason: Text::exact(messages::ASK_REVIEW.render(&[("name", n)])),
                en: Text::exact(messages::DISPLAY_EN.text),
                zh: Text::exact(messages::DISPLAY_ZH.text),
            },
            Some(r) => Ask {
                reason: Text::exact(
                    messages::ASK_REVIEW_REASON.render(&[("name", n), ("reason", r)]),
                ),
                en: Text::exact(messages::DISPLAY_EN_REASON.render(&[("reason", r)])),
                zh: Text::exact(messages::DISPLAY_ZH_REASON.render(&[("reason", r)])),
            },
        }
    };
    let failure_ask = |error: Text| Ask {
        reason: messages::ASK_FAILED.fill(&[("name", &name), ("error", &error)]),
        en: messages::DISPLAY_FAILED_EN.fill(&[("error", &error)]),
        zh: messages::DISPLAY_FAILED_ZH.fill(&[("error", &error)]),
    };
    let line = |t: Text, l: &str| Text {
        text: format!("{}\n{l}", t.text),
        ..t
    };
    let finish_ask = |a: Ask, prefix_only: &mut BTreeMap<String, usize>| {
        let a = match &hint {
            None => a,
            Some((en, zh)) => Ask {
                reason: line(a.reason, en),
                en: line(a.en, en),
                zh: line(a.zh, zh),
            },
        };
        for (key, t) in [
            ("reason", &a.reason),
            ("display_reason/en", &a.en),
            ("display_reason/zh", &a.zh),
        ] {
            if let Some(p) = t.prefix {
                prefix_only.insert(format!("/listener/{key}"), p);
                prefix_only.insert(format!("/approval/{key}"), p);
            }
        }
        Decision::Ask {
            reason: Some(a.reason.text),
            display_reason: Some(DisplayReason {
                en: a.en.text,
                zh: a.zh.text,
            }),
        }
    };
    let mut listener_reason_prefix = None;
    let listener = match then.listener {
        ListenerForm::None | ListenerForm::Pending => None,
        ListenerForm::Cancel => Some(Decision::Cancel),
        ListenerForm::Downstream => Some(match &s.downstream {
            Downstream::Allow => Decision::Allow,
            Downstream::Deny { reason, info } => Decision::Deny {
                reason: reason.clone(),
                info: info.clone(),
            },
            Downstream::Cancel => Decision::Cancel,
            Downstream::Ask { reason } => Decision::Ask {
                reason: Some(reason.clone()),
                display_reason: None,
            },
        }),
        ListenerForm::FinalDeny => {
            let reason = reviewer_reason()?;
            Some(Decision::Deny {
                reason: messages::FINAL_DENY.render(&[("name", &s.tool.name)]),
                info: Some(messages::info_denied(reason.as_deref())),
            })
        }
        ListenerForm::Failed | ListenerForm::FailedDeny => {
            let mut t = messages::FAILED.fill(&[("name", &name), ("error", &failure_message()?)]);
            let mut info = None;
            if then.listener == ListenerForm::FailedDeny {
                if let Some((en, _)) = &hint {
                    t = line(t, en);
                }
                let class = record
                    .failure
                    .as_ref()
                    .map(|f| f.class)
                    .ok_or_else(|| err("a failed denial needs a failure class"))?;
                info = Some(messages::info_failed(class));
            }
            listener_reason_prefix = t.prefix;
            if let Some(p) = t.prefix {
                prefix_only.insert("/listener/reason".to_owned(), p);
            }
            Some(Decision::Deny {
                reason: t.text,
                info,
            })
        }
        ListenerForm::AskReview => {
            let a = review_ask(reviewer_reason()?);
            Some(finish_ask(a, &mut prefix_only))
        }
        ListenerForm::AskFailure => {
            let a = failure_ask(failure_message()?);
            Some(finish_ask(a, &mut prefix_only))
        }
        ListenerForm::AskCombined => {
            let Downstream::Ask { reason } = &s.downstream else {
                return Err(err("a combined ask needs a downstream ask"));
            };
            let objection = match &failure {
                Some(error) => failure_ask(error.clone()),
                None => review_ask(reviewer_reason()?),
            };
            let r = Text::exact(reason.as_str());
            let join = |t: Template, review: &Text| t.fill(&[("review", review), ("reason", &r)]);
            let a = Ask {
                reason: join(messages::ASK_COMBINED, &objection.reason),
                en: join(messages::DISPLAY_COMBINED_EN, &objection.en),
                zh: join(messages::DISPLAY_COMBINED_ZH, &objection.zh),
            };
            Some(finish_ask(a, &mut prefix_only))
        }
    };
    // The approval request.
    let ask = match &listener {
        Some(Decision::Ask {
            reason,
            display_reason,
        }) => Some((reason.clone(), display_reason.clone())),
        _ => None,
    };
    let answered = match then.approval {
        ApprovalForm::None => None,
        ApprovalForm::Answerer if s.approval == ApprovalAnswer::Throws => {
            return Err(err("form `answerer` cannot answer a throwing request"));
        }
        ApprovalForm::Answerer => Some((s.approval, true)),
        ApprovalForm::PolicyRejected => Some((ApprovalAnswer::Rejected, false)),
        ApprovalForm::SignalCancelled => Some((ApprovalAnswer::Cancelled, false)),
        ApprovalForm::Threw => Some((ApprovalAnswer::Throws, false)),
    };
    let approval = match answered {
        None => {
            prefix_only.retain(|k, _| !k.starts_with("/approval/"));
            None
        }
        Some((answer, prompted)) => {
            let (reason, display_reason) =
                ask.ok_or_else(|| err("the row asks for approval but the gate did not ask"))?;
            trace.push(Event::Approval);
            Some(ApprovalRecord {
                reason,
                display_reason,
                answer,
                prompted,
            })
        }
    };

    // The tool result.
    let form = match then.result {
        ResultForm::ByAnswer => *table
            .answers
            .get(&s.approval)
            .ok_or_else(|| err("`by-answer` has no mapping for the scenario's answer"))?,
        f => f,
    };
    let refused = |reason: Text, info| {
        let t = messages::ERROR_PREFIX.fill(&[("message", &reason)]);
        (t.prefix, ToolResult::refused(t.text, info))
    };
    let by_name = |t: Template| Text::exact(t.render(&[("name", &s.tool.name)]));
    let (text_prefix, result) = match form {
        ResultForm::Body => {
            trace.push(Event::Body);
            (None, ToolResult::executed())
        }
        ResultForm::Pending => (None, ToolResult::pending()),
        ResultForm::Aborted => refused(
            Text::exact(messages::ABORTED_BEFORE_DISPATCH.text),
            Some(messages::info_aborted()),
        ),
        ResultForm::ListenerDeny => match &listener {
            Some(Decision::Deny { reason, info }) => refused(
                Text {
                    text: reason.clone(),
                    prefix: listener_reason_prefix,
                    cited: Vec::new(),
                },
                info.clone(),
            ),
            _ => return Err(err("result `listener-deny` needs a deny from the gate")),
        },
        ResultForm::NoAgent => refused(by_name(messages::NO_AGENT), None),
        ResultForm::UserRejected => refused(by_name(messages::USER_REJECTED), None),
        ResultForm::ApprovalCancelled => refused(by_name(messages::APPROVAL_CANCELLED), None),
        ResultForm::ApprovalUnavailable => refused(by_name(messages::APPROVAL_UNAVAILABLE), None),
        ResultForm::ApprovalThrew => refused(
            messages::APPROVAL_THREW.fill(&[(
                "message",
                &Text::implementation_defined(reference::APPROVAL_OUTSIDE_TURN),
            )]),
            None,
        ),
        ResultForm::ByAnswer => return Err(err("`answers` maps to `by-answer` again")),
    };
    if let Some(p) = text_prefix {
        prefix_only.insert("/result/text".to_owned(), p);
    }

    Ok(Outcome {
        id: s.id.clone(),
        settled: then.result != ResultForm::Pending,
        listener,
        approval,
        result,
        review: record,
        trace,
        // The table's input space holds the default sandbox, which no profile narrows: the rows
        // have no confinement feature, and the exhaustive check against the engine says so.
        sandbox: crate::outcome::SandboxRecord::kept(s.session.sandbox.mode),
        // Nor a body that does anything.
        body_approvals: Vec::new(),
        prefix_only,
        citations: Default::default(),
    })
}
