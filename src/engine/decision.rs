//! Spec chapter 5, the decision (AR-DECIDE-1..6, AR-ORDER-1..2), and the resilient profile's
//! decision rules (AR-RES-DECIDE, AR-RES-FAIL, AR-RES-ASK, AR-RES-HINT): what the gate returns once
//! the review settled, by the session's policy, the configuration and downstream's decision.

use std::collections::BTreeMap;

use super::review::{FailureNote, Review};
use super::{Decided, Run, cancellation};
use crate::messages::{self, Template, Text};
use crate::outcome::{Decision, DisplayReason, Event};
use crate::parse::ReviewerDecision;
use crate::profile::Profile;
use crate::scenario::{ApprovalPolicy, Downstream, OnFailure};

/// A review that settled: the only input the decision rules take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// The reviewer returned a legal decision.
    Decided(ReviewerDecision),
    /// No decision was obtained.
    Failed(FailureNote),
}

/// Decides a call whose review settled.
pub fn decide(run: &mut Run<'_>, review: &Review, settled: Settled) -> Decided {
    match run.profile {
        Profile::Baseline => baseline(run, settled),
        Profile::Resilient => resilient(run, review, settled),
    }
}

/// The baseline's rules (AR-DECIDE-1..6).
fn baseline(run: &mut Run<'_>, settled: Settled) -> Decided {
    let decision = match settled {
        Settled::Failed(failure) => return failed(run, &failure, None, false), // AR-DECIDE-1
        Settled::Decided(d) => d,
    };
    if let ReviewerDecision::Deny { reason, .. } = &decision {
        // AR-DECIDE-2 reads the recorded override, not the effective policy (AR-DECIDE-6).
        if run.s.policy.override_ == Some(ApprovalPolicy::Never) {
            return Decided::exact(final_deny(run, reason.as_deref()));
        }
    }
    let downstream = consult_downstream(run); // AR-DECIDE-3
    if cancellation::lifecycle_aborts_during_downstream(run.s.abort) {
        return Decided::exact(Decision::Cancel); // AR-CANCEL-4
    }
    match decision {
        ReviewerDecision::Allow { .. } => Decided::exact(downstream), // AR-DECIDE-4
        ReviewerDecision::Deny { reason, .. } => {
            if downstream == Decision::Allow {
                ask(review_ask(run, reason.as_deref()), None) // AR-DECIDE-5, second case
            } else {
                Decided::exact(downstream) // AR-DECIDE-5, first case
            }
        }
    }
}

/// The resilient profile's rules: the effective policy decides (AR-RES-DECIDE-1); a failure is
/// asked about like a denial unless the policy is `never` or the configuration fails closed
/// (AR-RES-FAIL-1..3); a downstream ask carries the gate's objection (AR-RES-ASK-1).
fn resilient(run: &mut Run<'_>, review: &Review, settled: Settled) -> Decided {
    let never = run.s.policy.effective() == ApprovalPolicy::Never;
    let hint = review.hint_due(run.s).then(|| hint_lines(run, review));
    let objection = match settled {
        Settled::Failed(failure) => {
            if never || run.s.config.on_failure == OnFailure::Deny {
                return failed(run, &failure, hint.as_ref().map(|h| &h.0), true); // AR-RES-FAIL-3
            }
            Some(failure_ask(run, &failure)) // AR-RES-FAIL-2
        }
        Settled::Decided(ReviewerDecision::Deny { reason, .. }) => {
            if never {
                return Decided::exact(final_deny(run, reason.as_deref())); // AR-RES-DECIDE-1
            }
            Some(review_ask(run, reason.as_deref()))
        }
        Settled::Decided(ReviewerDecision::Allow { .. }) => None,
    };
    let downstream = consult_downstream(run);
    if cancellation::lifecycle_aborts_during_downstream(run.s.abort) {
        return Decided::exact(Decision::Cancel);
    }
    let Some(objection) = objection else {
        return Decided::exact(downstream);
    };
    match downstream {
        Decision::Allow => ask(objection, hint),
        Decision::Ask {
            reason: Some(r), ..
        } => ask(combine(objection, &r), hint), // AR-RES-ASK-1
        other => Decided::exact(other),
    }
}

/// The three texts of an ask: audited reason, English and Chinese display reasons.
#[derive(Debug, Clone)]
struct AskTexts {
    reason: Text,
    en: Text,
    zh: Text,
}

/// AR-DECIDE-5: the ask after a reviewer denial.
fn review_ask(run: &Run<'_>, reason: Option<&str>) -> AskTexts {
    let name = run.s.tool.name.as_str();
    match reason {
        None => AskTexts {
            reason: Text::exact(messages::ASK_REVIEW.render(&[("name", name)])),
            en: Text::exact(messages::DISPLAY_EN.text),
            zh: Text::exact(messages::DISPLAY_ZH.text),
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
fn failure_ask(run: &Run<'_>, failure: &FailureNote) -> AskTexts {
    let name = Text::exact(run.s.tool.name.as_str());
    let error = &failure.message;
    AskTexts {
        reason: messages::ASK_FAILED.fill(&[("name", &name), ("error", error)]),
        en: messages::DISPLAY_FAILED_EN.fill(&[("error", error)]),
        zh: messages::DISPLAY_FAILED_ZH.fill(&[("error", error)]),
    }
}

/// AR-RES-ASK-1: the gate's objection together with downstream's own question.
fn combine(objection: AskTexts, downstream: &str) -> AskTexts {
    let r = Text::exact(downstream);
    let join = |t: Template, review: &Text| t.fill(&[("review", review), ("reason", &r)]);
    AskTexts {
        reason: join(messages::ASK_COMBINED, &objection.reason),
        en: join(messages::DISPLAY_COMBINED_EN, &objection.en),
        zh: join(messages::DISPLAY_COMBINED_ZH, &objection.zh),
    }
}

/// AR-RES-HINT-2: the hint line in English (audited reason, English display, model) and Chinese.
fn hint_lines(run: &Run<'_>, review: &Review) -> (String, String) {
    let count = review.consecutive_failures.unwrap_or_default().to_string();
    let route = review.last_route(run.s);
    let args = [("count", count.as_str()), ("route", route.as_str())];
    (
        messages::HINT.render(&args),
        messages::HINT_ZH.render(&args),
    )
}

/// Appends a hint line to a text; an implementation-defined tail stays where it was.
fn with_line(t: Text, line: &str) -> Text {
    Text {
        text: format!("{}\n{line}", t.text),
        prefix: t.prefix,
    }
}

/// An ask decision with its texts' normative extents.
fn ask(texts: AskTexts, hint: Option<(String, String)>) -> Decided {
    let texts = match hint {
        None => texts,
        Some((en, zh)) => AskTexts {
            reason: with_line(texts.reason, &en),
            en: with_line(texts.en, &en),
            zh: with_line(texts.zh, &zh),
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
fn failed(run: &Run<'_>, failure: &FailureNote, hint: Option<&String>, with_info: bool) -> Decided {
    let name = Text::exact(run.s.tool.name.as_str());
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
fn final_deny(run: &Run<'_>, reason: Option<&str>) -> Decision {
    Decision::Deny {
        reason: messages::FINAL_DENY.render(&[("name", &run.s.tool.name)]),
        info: Some(messages::info_denied(reason)),
    }
}

/// Consults the rest of the pre-execute chain once (AR-DECIDE-3) and returns its decision as given.
pub fn consult_downstream(run: &mut Run<'_>) -> Decision {
    run.event(Event::Downstream);
    match &run.s.downstream {
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
