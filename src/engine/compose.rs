//! The decisions and tool results the spec's templates compose (chapters 5, 6, 8, 9 and 11), as
//! pure functions of plain inputs. The pure engine and the async gate both build their texts here,
//! so the wording has one home beside `messages`.

use std::collections::BTreeMap;

use super::Decided;
use super::review::FailureNote;
use crate::messages::{self, Template, Text};
use crate::outcome::{Decision, DisplayReason, ToolResult};
use crate::scenario::Downstream;

/// The three texts of an ask before it becomes a decision: audited reason, English and Chinese
/// display reasons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AskTexts {
    /// The audited reason.
    pub reason: Text,
    /// The English display reason.
    pub en: Text,
    /// The Chinese display reason.
    pub zh: Text,
}

/// AR-DECIDE-5: the ask after a reviewer denial.
pub fn review_ask(name: &str, reason: Option<&str>) -> AskTexts {
    match reason {
        None => AskTexts {
            reason: Text::exact(messages::ASK_REVIEW.render(&[("name", name)])),
            en: Text::exact(messages::DISPLAY_EN.plain()),
            zh: Text::exact(messages::DISPLAY_ZH.plain()),
        },
        Some(r) => AskTexts {
            reason: Text::exact(
                messages::ASK_REVIEW_REASON.render(&[("name", name), ("reason", r)]),
            ),
            en: Text::exact(messages::DISPLAY_EN_REASON.render(&[("reason", r)])),
            zh: Text::exact(messages::DISPLAY_ZH_REASON.render(&[("reason", r)])),
        },
    }
}

/// AR-RES-FAIL-2: the ask after a reviewer failure.
pub fn failure_ask(name: &str, failure: &FailureNote) -> AskTexts {
    let name = Text::exact(name);
    let error = &failure.message;
    AskTexts {
        reason: messages::ASK_FAILED.fill(&[("name", &name), ("error", error)]),
        en: messages::DISPLAY_FAILED_EN.fill(&[("error", error)]),
        zh: messages::DISPLAY_FAILED_ZH.fill(&[("error", error)]),
    }
}

/// AR-RES-ASK-1: the gate's objection together with downstream's own question.
pub fn combine(objection: AskTexts, downstream: &str) -> AskTexts {
    let r = Text::exact(downstream);
    let join = |t: Template, review: &Text| t.fill(&[("review", review), ("reason", &r)]);
    AskTexts {
        reason: join(messages::ASK_COMBINED, &objection.reason),
        en: join(messages::DISPLAY_COMBINED_EN, &objection.en),
        zh: join(messages::DISPLAY_COMBINED_ZH, &objection.zh),
    }
}

/// AR-RES-HINT-2: the hint line in English (audited reason, English display, model) and Chinese.
pub fn hint_lines(count: u32, route: &str) -> (String, String) {
    let count = count.to_string();
    let args = [("count", count.as_str()), ("route", route)];
    (
        messages::HINT.render(&args),
        messages::HINT_ZH.render(&args),
    )
}

/// Appends a line to a text; an implementation-defined tail stays where it was.
fn with_line(t: Text, line: &str) -> Text {
    Text {
        text: format!("{}\n{line}", t.text),
        prefix: t.prefix,
    }
}

/// An ask decision, with the hint appended when due, and its texts' normative extents.
pub fn ask(texts: AskTexts, hint: Option<&(String, String)>) -> Decided {
    let texts = match hint {
        None => texts,
        Some((en, zh)) => AskTexts {
            reason: with_line(texts.reason, en),
            en: with_line(texts.en, en),
            zh: with_line(texts.zh, zh),
        },
    };
    let mut prefixes = BTreeMap::new();
    for (key, t) in [
        ("reason", &texts.reason),
        ("display_reason/en", &texts.en),
        ("display_reason/zh", &texts.zh),
    ] {
        if let Some(p) = t.prefix {
            prefixes.insert(key, p);
        }
    }
    Decided {
        decision: Decision::Ask {
            reason: Some(texts.reason.text),
            display_reason: Some(DisplayReason {
                en: texts.en.text,
                zh: texts.zh.text,
            }),
        },
        prefixes,
    }
}

/// AR-DECIDE-1 (baseline: no info) and AR-RES-FAIL-3 (resilient: `INFO-FAILED`, and the hint).
pub fn failed(name: &str, failure: &FailureNote, hint: Option<&str>, with_info: bool) -> Decided {
    let name = Text::exact(name);
    let mut reason = messages::FAILED.fill(&[("name", &name), ("error", &failure.message)]);
    if let Some(h) = hint {
        reason = with_line(reason, h);
    }
    let mut prefixes = BTreeMap::new();
    if let Some(p) = reason.prefix {
        prefixes.insert("reason", p);
    }
    Decided {
        decision: Decision::Deny {
            reason: reason.text,
            info: with_info.then(|| messages::info_failed(failure.class)),
        },
        prefixes,
    }
}

/// AR-DECIDE-2, AR-RES-DECIDE-1: the final denial with `INFO-DENIED`.
pub fn final_deny(name: &str, reason: Option<&str>) -> Decision {
    Decision::Deny {
        reason: messages::FINAL_DENY.render(&[("name", name)]),
        info: Some(messages::info_denied(reason)),
    }
}

/// A downstream decision as the pre-execute chain returns it.
pub fn downstream_decision(d: &Downstream) -> Decision {
    match d {
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
    }
}

/// AR-RESULT-2: `Error: <reason>` with the decision's info, and the normative prefix of the text.
pub fn refused(
    reason: &Text,
    info: Option<serde_json::Map<String, serde_json::Value>>,
) -> (ToolResult, Option<usize>) {
    let text = messages::ERROR_PREFIX.fill(&[("message", reason)]);
    (ToolResult::refused(text.text, info), text.prefix)
}

/// AR-RESULT-4: the canonical pre-dispatch cancellation.
pub fn aborted() -> ToolResult {
    refused(
        &Text::exact(messages::ABORTED_BEFORE_DISPATCH.plain()),
        Some(messages::info_aborted()),
    )
    .0
}

/// The reason of a denial by the tool runtime or the approval service, by template
/// (`MSG-NO-AGENT`, `MSG-USER-REJECTED`, `MSG-APPROVAL-CANCELLED`, `MSG-APPROVAL-UNAVAILABLE`).
pub fn named(template: Template, name: &str) -> Text {
    Text::exact(template.render(&[("name", name)]))
}

/// AR-APPROVAL-4: the reason of a thrown approval request.
pub fn approval_threw(message: &Text) -> Text {
    messages::APPROVAL_THREW.fill(&[("message", message)])
}
