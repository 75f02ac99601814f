//! Spec chapter 2, admission (AR-ADMIT-1..3): a call in scope is admitted unless the integration is
//! closing.

use super::cancellation;
use crate::scenario::Scenario;

/// AR-ADMIT-1: whether the gate admits a call in scope.
pub fn admits(s: &Scenario) -> bool {
    !cancellation::lifecycle_closed_before_admission(s.abort)
}
