//! The gate's listener flow: scope (chapter 1), admission (chapter 2), review (chapter 3), the
//! lifecycle checks of chapter 7, then the decision (chapter 5).

use super::decision::{self, Settled};
use super::review::{self, FailureNote, Settlement};
use super::scope;
use super::{Decided, Run, admission, cancellation};
use crate::messages::{Text, reference};
use crate::outcome::{Decision, FailureClass, ReviewRecord};

/// What the gate did: its decision (`None` while a review never settles) and the review record.
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    /// The listener decision, once returned.
    pub decided: Option<Decided>,
    /// What the review did.
    pub review: ReviewRecord,
}

/// Runs the gate for one call.
pub fn listen(run: &mut Run<'_>) -> Gate {
    if !scope::classify(run.s).is_reviewed() {
        // AR-SCOPE-4: the gate returns downstream's decision unchanged.
        let d = decision::consult_downstream(run);
        return Gate {
            decided: Some(Decided::exact(d)),
            review: ReviewRecord::default(),
        };
    }
    if !admission::admits(run.s) {
        return Gate {
            decided: Some(Decided::exact(Decision::Cancel)), // AR-ADMIT-2
            review: ReviewRecord::default(),
        };
    }
    let mut outcome = review::review(run);
    // AR-CANCEL-6: only a signal ends a review that never settles.
    if outcome.settlement == Settlement::Pending
        && (cancellation::caller_aborts_in_flight(run.s.abort)
            || cancellation::lifecycle_aborts_after_review(run.s.abort))
    {
        outcome.settlement = Settlement::Failed(FailureNote {
            class: FailureClass::Aborted,
            message: Text::implementation_defined(reference::SIGNAL_ENDED_REVIEW),
        });
    }
    let record = outcome.record();
    if let Settlement::Failed(f) = &outcome.settlement {
        run.note_prefix("/review/failure/message", &f.message);
    }
    if cancellation::lifecycle_aborts_after_review(run.s.abort) {
        return Gate {
            decided: Some(Decided::exact(Decision::Cancel)), // AR-CANCEL-3
            review: record,
        };
    }
    let settled = match outcome.settlement {
        Settlement::Pending => {
            return Gate {
                decided: None,
                review: record,
            };
        }
        Settlement::Decided(d) => Settled::Decided(d),
        Settlement::Failed(f) => Settled::Failed(f),
    };
    let decided = decision::decide(run, settled);
    if let Some(p) = decided.reason_prefix {
        run.prefix_only.insert("/listener/reason".into(), p);
    }
    Gate {
        decided: Some(decided),
        review: record,
    }
}
