//! Expands a row's symbolic outcome into the concrete outcome for one scenario, using only the
//! message templates and the row itself. This is the table's own reading of the spec, written
//! independently of the engine's control flow; the tests compare the two.

use std::collections::BTreeMap;

use super::{ApprovalForm, ListenerForm, ResultForm, ReviewForm, Row, Table};
use crate::engine::review::{self, Settlement};
use crate::messages::{self, Text, reference};
use crate::outcome::{
    ApprovalRecord, Decision, DisplayReason, Event, Failure, FailureClass, Outcome, ReviewRecord,
    ToolResult,
};
use crate::parse::ReviewerDecision;
use crate::scenario::{ApprovalAnswer, CallKind, Downstream, Scenario, SchemaView};

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

/// The outcome `row` prescribes for `s`.
pub fn expected(table: &Table, row: &Row, s: &Scenario) -> Result<Outcome, ExpandError> {
    let err = |m: &str| ExpandError {
        row: row.id.clone(),
        message: m.to_owned(),
    };
    let then = &row.then;
    let name = Text::exact(s.tool.name.as_str());
    let mut prefix_only = BTreeMap::new();
    let mut trace = Vec::new();

    // The review: a request is made unless the schema failed first (AR-REVIEW-2).
    let schema_failed = s.schema != SchemaView::Present;
    let requested = then.review != ReviewForm::None && !schema_failed;
    if requested {
        trace.push(Event::Review);
    }
    let failure: Option<(FailureClass, Text)> = match then.review {
        ReviewForm::None | ReviewForm::Ran => None,
        ReviewForm::SignalEnded => Some((
            FailureClass::Aborted,
            Text::implementation_defined(reference::SIGNAL_ENDED_REVIEW),
        )),
        ReviewForm::Failed if schema_failed => {
            let t = if s.tool.call == CallKind::PtcInner {
                messages::ERR_SCHEMA_PTC
            } else {
                messages::ERR_SCHEMA_NATIVE
            };
            Some((FailureClass::Schema, Text::exact(t.text)))
        }
        ReviewForm::Failed => match review::settle(s.reviewer.attempt(0), table.profile) {
            Settlement::Failed(f) => Some((f.class, f.message)),
            _ => {
                return Err(err(
                    "the row says the review failed, but the reviewer's reply carries a decision",
                ));
            }
        },
    };
    if let Some((
        _,
        Text {
            prefix: Some(p), ..
        },
    )) = &failure
    {
        prefix_only.insert("/review/failure/message".to_owned(), *p);
    }
    let review = ReviewRecord {
        attempts: u32::from(requested),
        failure: failure.as_ref().map(|(class, m)| Failure {
            class: *class,
            message: m.text.clone(),
        }),
    };

    if then.downstream {
        trace.push(Event::Downstream);
    }

    // The gate's decision.
    let reviewer_reason = || match review::settle(s.reviewer.attempt(0), table.profile) {
        Settlement::Decided(ReviewerDecision::Deny { reason, .. }) => Ok(reason),
        _ => Err(err(
            "the row needs a reviewer denial, but the reply is not one",
        )),
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
        ListenerForm::Failed => {
            let (_, message) = failure
                .as_ref()
                .ok_or_else(|| err("the row's listener is `failed` but its review did not fail"))?;
            let t = messages::FAILED.fill(&[("name", &name), ("error", message)]);
            listener_reason_prefix = t.prefix;
            if let Some(p) = t.prefix {
                prefix_only.insert("/listener/reason".to_owned(), p);
            }
            Some(Decision::Deny {
                reason: t.text,
                info: None,
            })
        }
        ListenerForm::AskReview => {
            let reason = reviewer_reason()?;
            let n = s.tool.name.as_str();
            Some(match reason.as_deref() {
                None => Decision::Ask {
                    reason: Some(messages::ASK_REVIEW.render(&[("name", n)])),
                    display_reason: Some(DisplayReason {
                        en: messages::DISPLAY_EN.render(&[]),
                        zh: messages::DISPLAY_ZH.render(&[]),
                    }),
                },
                Some(r) => Decision::Ask {
                    reason: Some(messages::ASK_REVIEW_REASON.render(&[("name", n), ("reason", r)])),
                    display_reason: Some(DisplayReason {
                        en: messages::DISPLAY_EN_REASON.render(&[("reason", r)]),
                        zh: messages::DISPLAY_ZH_REASON.render(&[("reason", r)]),
                    }),
                },
            })
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
        None => None,
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
    let by_name = |t: messages::Template| Text::exact(t.render(&[("name", &s.tool.name)]));
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
        review,
        trace,
        prefix_only,
    })
}
