//! Judging what was recorded (`spec/audit.md`, "Judging a recorded call"): where a record carries
//! enough, the clause of a profile its recorded outcome breaks — a failure denied without asking
//! where the profile asks, a reply the profile's reader reads as a decision, a provider's message
//! shown as `[object Object]`. Only what the record shows is judged; nothing is guessed.

use serde::Serialize;

use super::{CallRecord, Classification, FailureKind};
use crate::engine::review::{self, Settlement};
use crate::parse::Reply;
use crate::profile::{FailureRules, FailureText, Profile};

/// A clause a recorded call breaks under a profile, with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Breach {
    /// The clause.
    pub clause: &'static str,
    /// What the profile says should have happened, in words.
    pub why: &'static str,
}

/// The clauses of `profile` the recorded `call`, classified as `classification`, breaks.
pub fn judge(call: &CallRecord, classification: &Classification, profile: Profile) -> Vec<Breach> {
    let Classification::Failure { message, class } = classification else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let asked = call.approval.is_some();
    // A failure denied with INFO-FAILED is one the gate denied on purpose: the record cannot
    // tell why.
    let marked = super::classify::marked_failed(call);
    // AR-RES-FAIL-2: under the effective policy `ask`, a failure is asked about (the record does
    // not say `on_failure`; its default, `ask`, is assumed and said).
    if profile.failures() == FailureRules::Ask
        && call.policy.as_deref() == Some("ask")
        && !asked
        && !marked
    {
        out.push(Breach {
            clause: "AR-RES-FAIL-2",
            why: "a reviewer failure under ask was denied without asking the human (on_failure ask, its default)",
        });
    }
    // AR-DECIDE-1: where failures are denials, a failure is never put to the human.
    if profile.failures() == FailureRules::Deny && asked {
        out.push(Breach {
            clause: "AR-DECIDE-1",
            why: "a reviewer failure was put to the human, where the profile denies it",
        });
    }
    // The profile's reader: a recorded reply it reads as a decision was no failure. Only a
    // failure of the reply itself (markup, prose) is read again: a reply that came too late, or
    // after a finish that failed, is not what the gate refused.
    let of_the_reply = matches!(class, FailureKind::ToolCallMarkup | FailureKind::Prose);
    if let Some(reply) = call
        .reviewer
        .as_ref()
        .and_then(|r| r.reply.as_deref())
        .filter(|_| of_the_reply)
    {
        let (settled, read_by) = review::read_citing(&Reply::text(reply), profile);
        if matches!(settled, Settlement::Decided(_)) {
            out.push(Breach {
                clause: read_by.first().copied().unwrap_or("AR-PARSE-4"),
                why: "the reviewer's recorded reply holds a decision the profile's reader reads",
            });
        }
    }
    // AR-RES-NORM-1: a provider's message is never shown as `[object Object]`.
    if profile.failure_text() == FailureText::Normalized && message.contains("[object Object]") {
        out.push(Breach {
            clause: "AR-RES-NORM-1",
            why: "a provider's message was shown as [object Object]",
        });
    }
    out
}
