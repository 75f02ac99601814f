//! Spec chapter 7, cancellation (AR-CANCEL-1..7): what each abort point means for the call.

use crate::scenario::AbortPoint;

/// AR-CANCEL-1: the caller aborted before the pre-execute stage started.
pub fn caller_aborts_before_dispatch(a: AbortPoint) -> bool {
    a == AbortPoint::CallerBeforeDispatch
}

/// AR-CANCEL-5: the caller's signal is aborted while the call is in flight, so every later check
/// of the caller's signal sees it aborted.
pub fn caller_aborts_in_flight(a: AbortPoint) -> bool {
    a == AbortPoint::CallerDuringReview
}

/// AR-CANCEL-2: the integration was closing before the call could be admitted.
pub fn lifecycle_closed_before_admission(a: AbortPoint) -> bool {
    a == AbortPoint::LifecycleBeforeReview
}

/// AR-CANCEL-3: the integration aborts after the review started, before the gate acts on it.
pub fn lifecycle_aborts_after_review(a: AbortPoint) -> bool {
    a == AbortPoint::LifecycleAfterReview
}

/// AR-CANCEL-4: the integration aborts while downstream is consulted.
pub fn lifecycle_aborts_during_downstream(a: AbortPoint) -> bool {
    a == AbortPoint::LifecycleDuringDownstream
}
