//! The gate's listener flow: scope (chapter 1), admission (chapter 2), review (chapter 3), the
//! lifecycle checks of chapter 7, then the decision (chapter 5).

use super::decision::{self, Settled};
use super::review::{self, Settlement};
use super::scope;
use super::{Decided, Run, admission, cancellation};
use crate::outcome::{Decision, Event, ReviewRecord};
use crate::profile::Profile;

/// What the gate did: its decision (`None` while a review never settles) and the review record.
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    /// The listener decision, once returned.
    pub decided: Option<Decided>,
    /// What the review did.
    pub review: ReviewRecord,
    /// The review itself, when the gate made one (callers that classify the call reuse it).
    pub reviewed: Option<review::Review>,
}

/// The review record of a call the gate did not review: no request, and in the resilient profile
/// the session's failure count unchanged (AR-RES-HINT-1).
pub fn unreviewed(run: &Run<'_>) -> ReviewRecord {
    ReviewRecord::unreviewed(match run.profile {
        Profile::Baseline => None,
        Profile::Resilient => Some(run.s.session.consecutive_failures),
    })
}

/// Runs the gate for one call.
pub fn listen(run: &mut Run<'_>) -> Gate {
    if !scope::classify(run.s, run.profile).is_reviewed() {
        // AR-SCOPE-4: the gate returns downstream's decision unchanged.
        let d = decision::consult_downstream(run);
        return Gate {
            decided: Some(Decided::exact(d)),
            review: unreviewed(run),
            reviewed: None,
        };
    }
    if !admission::admits(run.s) {
        return Gate {
            decided: Some(Decided::exact(Decision::Cancel)), // AR-ADMIT-2
            review: unreviewed(run),
            reviewed: None,
        };
    }
    let review = review::review(run.s, run.profile);
    for _ in 0..review.attempts() {
        run.event(Event::Review);
    }
    if let Settlement::Failed(f) = &review.settlement {
        run.note_prefix("/review/failure/message", &f.message);
    }
    let record = review.record();
    if cancellation::lifecycle_aborts_after_review(run.s.abort) {
        return Gate {
            decided: Some(Decided::exact(Decision::Cancel)), // AR-CANCEL-3
            review: record,
            reviewed: Some(review),
        };
    }
    let settled = match &review.settlement {
        Settlement::Pending => {
            return Gate {
                decided: None, // AR-CANCEL-6
                review: record,
                reviewed: Some(review),
            };
        }
        Settlement::Decided(d) => Settled::Decided(d.clone()),
        Settlement::Failed(f) => Settled::Failed(f.clone()),
    };
    let decided = decision::decide(run, &review, settled);
    for (key, p) in &decided.prefixes {
        run.prefix_only.insert(format!("/listener/{key}"), *p);
    }
    Gate {
        decided: Some(decided),
        review: record,
        reviewed: Some(review),
    }
}
