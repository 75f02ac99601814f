//! The decisions and tool results the spec's templates compose (chapters 5, 6, 8, 9 and 11), as
//! pure functions of plain inputs. The pure engine and the async gate both build their texts here,
//! so the wording has one home beside `messages`.

use std::collections::BTreeMap;

use super::Decided;
use super::review::FailureNote;
use crate::messages::{self, Template, Text};
use crate::outcome::{Citations, Decision, DisplayReason, ToolResult};
use crate::scenario::Downstream;

/// The three texts of an ask before it becomes a decision: audited reason, English and Chinese
/// display reasons, each citing its template and what it inserts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AskTexts {
    /// The audited reason.
    pub reason: Text,
    /// The English display reason.
    pub en: Text,
    /// The Chinese display reason.
    pub zh: Text,
}

/// `t`, citing `clause` before what it cites already: the clause that chose the text.
fn under(clause: &'static str, mut t: Text) -> Text {
    let cited = std::mem::replace(&mut t.cited, vec![clause]);
    t.citing(&cited)
}

/// AR-DECIDE-5: the ask after a reviewer denial.
pub fn review_ask(name: &str, reason: Option<&str>) -> AskTexts {
    let texts = match reason {
        None => AskTexts {
            reason: messages::ASK_REVIEW.fill(&[("name", &Text::exact(name))]),
            en: messages::DISPLAY_EN.text(),
            zh: messages::DISPLAY_ZH.text(),
        },
        Some(r) => {
            let (name, r) = (Text::exact(name), Text::exact(r));
            AskTexts {
                reason: messages::ASK_REVIEW_REASON.fill(&[("name", &name), ("reason", &r)]),
                en: messages::DISPLAY_EN_REASON.fill(&[("reason", &r)]),
                zh: messages::DISPLAY_ZH_REASON.fill(&[("reason", &r)]),
            }
        }
    };
    texts.under("AR-DECIDE-5")
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
    .under("AR-RES-FAIL-2")
}

impl AskTexts {
    /// The texts, each citing `clause` first.
    fn under(self, clause: &'static str) -> AskTexts {
        AskTexts {
            reason: under(clause, self.reason),
            en: under(clause, self.en),
            zh: under(clause, self.zh),
        }
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
    .under("AR-RES-ASK-1")
}

/// AR-RES-HINT-2: the hint line in English (audited reason, English display, model) and Chinese.
pub fn hint_lines(count: u32, route: &str) -> (Text, Text) {
    let count = Text::exact(count.to_string());
    let route = Text::exact(route);
    let args = [("count", &count), ("route", &route)];
    (
        under("AR-RES-HINT-2", messages::HINT.fill(&args)),
        under("AR-RES-HINT-2", messages::HINT_ZH.fill(&args)),
    )
}

/// Appends a line to a text; an implementation-defined tail stays where it was.
fn with_line(t: Text, line: &Text) -> Text {
    Text {
        text: format!("{}\n{}", t.text, line.text),
        prefix: t.prefix,
        cited: t.cited,
    }
    .citing(&line.cited)
}

/// An ask decision, with the hint appended when due, and its texts' normative extents and
/// citations.
pub fn ask(texts: AskTexts, hint: Option<&(Text, Text)>) -> Decided {
    let texts = match hint {
        None => texts,
        Some((en, zh)) => AskTexts {
            reason: with_line(texts.reason, en),
            en: with_line(texts.en, en),
            zh: with_line(texts.zh, zh),
        },
    };
    let mut prefixes = BTreeMap::new();
    let mut cited = Citations::default();
    for (key, t) in [
        ("reason", &texts.reason),
        ("display_reason/en", &texts.en),
        ("display_reason/zh", &texts.zh),
    ] {
        if let Some(p) = t.prefix {
            prefixes.insert(key, p);
        }
        cited.cite_all(&format!("/{key}"), &t.cited);
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
        cited,
    }
}

/// AR-DECIDE-1 (baseline: no info) and AR-RES-FAIL-3 (resilient: `INFO-FAILED`, and the hint).
pub fn failed(name: &str, failure: &FailureNote, hint: Option<&Text>, with_info: bool) -> Decided {
    let name = Text::exact(name);
    let mut reason = messages::FAILED.fill(&[("name", &name), ("error", &failure.message)]);
    if let Some(h) = hint {
        reason = with_line(reason, h);
    }
    let mut prefixes = BTreeMap::new();
    if let Some(p) = reason.prefix {
        prefixes.insert("reason", p);
    }
    let mut cited = Citations::default();
    cited.cite_all("/reason", &reason.cited);
    if with_info {
        cited.cite_all("/info", &["INFO-FAILED", "AR-RES-MSG-2"]);
        cited.cite_all("/info/failure", &failure.class_by);
    }
    let decided = Decided {
        decision: Decision::Deny {
            reason: reason.text,
            info: with_info.then(|| messages::info_failed(failure.class)),
        },
        prefixes,
        cited,
    };
    let mut decided = decided.because(if with_info {
        "AR-RES-FAIL-3"
    } else {
        "AR-DECIDE-1"
    });
    if with_info {
        // AR-RES-MSG-2: the name and the code that tell a failure from a denial, whatever the
        // decision rests on.
        for member in ["/info/name", "/info/code"] {
            decided.cited.cite_first(member, "AR-RES-MSG-2");
        }
        decided = failure_not_denial(decided);
    }
    decided
}

/// `decided`, a decision the effective policy `never` led to, citing AR-CONV-5 first for its kind
/// where no override was recorded: the deployment default is then what made the policy `never`
/// (as the approval service cites it for its answer).
pub fn never_by(decided: Decided, policy: &crate::scenario::Policy) -> Decided {
    let mut decided = decided;
    if policy.override_.is_none() && policy.effective() == crate::scenario::ApprovalPolicy::Never {
        // AR-CONV-5: no override was recorded, so the deployment default is the policy.
        decided.cited.cite_first("", "AR-CONV-5");
    }
    decided
}

/// `decided`, a failure denied before downstream, as the effective policy and `on_failure`
/// route it (AR-RES-FAIL-3): where the policy is `ask`, `on_failure: deny` is what denied it, a
/// configured value other than the default (`ask`, which asks about the failure), so AR-RES-CONFIG-1
/// is cited first for its kind (the gate reads the value, never the default in its place); under
/// `never`, the policy denies it whatever `on_failure` says ([`never_by`]).
pub fn failure_denied(
    decided: Decided,
    policy: &crate::scenario::Policy,
    on_failure: crate::scenario::OnFailure,
) -> Decided {
    let never = policy.effective() == crate::scenario::ApprovalPolicy::Never;
    match (never, on_failure) {
        (false, crate::scenario::OnFailure::Deny) => {
            let mut decided = decided;
            decided.cited.cite_first("", "AR-RES-CONFIG-1");
            decided
        }
        (true, crate::scenario::OnFailure::Ask) => never_by(decided, policy),
        _ => decided,
    }
}

/// The ask about the gate's objection, decided `because` the rule that routed the objection
/// there (AR-DECIDE-5 for a denial, AR-RES-FAIL-2 for a failure, [`failure_not_denial`]).
pub fn asked_because(asked: Decided, because: &'static str) -> Decided {
    let asked = asked.because(because);
    if because == "AR-RES-FAIL-2" {
        failure_not_denial(asked)
    } else {
        asked
    }
}

/// AR-RES-FAIL-1: a reviewer failure is not a reviewer denial, so the texts of a decision a
/// failure led to say that the review failed; the clause is cited first for each of them (what a
/// gate that words a failure as a denial breaks), the rule that routed the failure after it.
fn failure_not_denial(mut decided: Decided) -> Decided {
    for member in ["/reason", "/display_reason/en", "/display_reason/zh"] {
        if !decided.cited.at(member).is_empty() {
            decided.cited.cite_first(member, "AR-RES-FAIL-1");
        }
    }
    decided
}

/// AR-DECIDE-2 (`clause`; AR-RES-DECIDE-1 in the resilient profile): the final denial with
/// `INFO-DENIED`.
pub fn final_deny(name: &str, reason: Option<&str>, clause: &'static str) -> Decided {
    let text = messages::FINAL_DENY.fill(&[("name", &Text::exact(name))]);
    let mut cited = Citations::default();
    cited.cite_all("/reason", &text.cited);
    cited.cite_all("/info", &["INFO-DENIED", "AR-MSG-4"]);
    let mut decided = Decided {
        decision: Decision::Deny {
            reason: text.text,
            info: Some(messages::info_denied(reason)),
        },
        prefixes: BTreeMap::new(),
        cited,
    }
    .because(clause);
    // AR-REVIEW-8: the reviewer's risk level is no member of the denial's info, whatever the
    // decision rests on; a gate that adds one breaks that clause first.
    decided.cited.cite_first("/info/risk", "AR-REVIEW-8");
    // AR-MSG-4: the name and the code of INFO-DENIED are fixed, whatever the decision rests on.
    for member in ["/info/name", "/info/code"] {
        decided.cited.cite_first(member, "AR-MSG-4");
    }
    decided
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

/// AR-RESULT-2: `Error: <reason>` with the decision's info, and the text (its normative prefix,
/// and what it cites: `MSG-ERROR-PREFIX` and the reason's own citations).
pub fn refused(
    reason: &Text,
    info: Option<serde_json::Map<String, serde_json::Value>>,
) -> (ToolResult, Text) {
    let text = messages::ERROR_PREFIX.fill(&[("message", reason)]);
    let result = ToolResult::refused(text.text.clone(), info);
    (result, text)
}

/// AR-CONFINE-3: a throw in the pre-execute stage, as the tool runtime materializes it: `Error: `
/// and the thrown message, with no info.
pub fn stage_threw(message: &str) -> (ToolResult, Text) {
    refused(&Text::exact(message), None)
}

/// AR-RESULT-4: the canonical pre-dispatch cancellation.
pub fn aborted() -> ToolResult {
    refused(
        &messages::ABORTED_BEFORE_DISPATCH.text(),
        Some(messages::info_aborted()),
    )
    .0
}

/// The citations of the canonical pre-dispatch cancellation's members, by pointer within the
/// tool result (AR-RESULT-4).
pub fn aborted_cited() -> Citations {
    let mut c = Citations::default();
    let text = refused(&messages::ABORTED_BEFORE_DISPATCH.text(), None).1;
    c.cite_all("/executed", &["AR-RESULT-4", "AR-CANCEL-7"]);
    c.cite("/text", "AR-RESULT-4");
    c.cite_all("/text", &text.cited);
    c.cite_all("/info", &["AR-RESULT-4", "INFO-ABORTED", "AR-MSG-4"]);
    c
}

/// The citations of the pre-dispatch cancellation that the clauses `why` cancelled with, by
/// pointer within the tool result: `why` first for each member, but for the info, which is
/// AR-RESULT-4's whatever cancelled the call.
pub fn cancellation_cited(why: &[&'static str]) -> Citations {
    let mut cited = aborted_cited();
    for clause in why.iter().rev() {
        cited.lead(clause);
    }
    cited.cite_first("/info", "AR-RESULT-4");
    cited
}

/// The reason of a denial by the tool runtime or the approval service, by template
/// (`MSG-NO-AGENT`, `MSG-USER-REJECTED`, `MSG-APPROVAL-CANCELLED`, `MSG-APPROVAL-UNAVAILABLE`).
pub fn named(template: Template, name: &str) -> Text {
    template.fill(&[("name", &Text::exact(name))])
}

/// AR-APPROVAL-4: the reason of a thrown approval request.
pub fn approval_threw(message: &Text) -> Text {
    under(
        "AR-APPROVAL-4",
        messages::APPROVAL_THREW.fill(&[("message", message)]),
    )
}
