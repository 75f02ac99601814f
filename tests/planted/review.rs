//! Review plants: each changes how the gate runs its review, not how it reads a reply. A body runs
//! only when the reviewer's next attempt allows, or when a human who was asked allows, so each is
//! found running a body only because the search toward a body run varies the reviewer script and
//! `on_failure`; the fixed cases that script such an attempt find it without the search. Someone
//! allowed, where the spec does not let that allow count: BOUNDS.

use super::*;

/// A resilient gate that makes one repair request more than `repair_attempts` allows
/// (AR-RES-RETRY-1): when that extra request is answered with an allow, the body runs where the
/// reference has already taken the failure path, on a reviewer's allow to a request the spec does
/// not make: BOUNDS.
#[test]
fn a_gate_that_repairs_once_too_often_is_found_at_bounds() {
    let plant = Planted::reading("one repair more than the budget", |s| {
        s.config.repair_attempts += 1;
    });
    found_at_bounds(plant.leading("AR-RES-RETRY-1"), Profile::RESILIENT);
}

/// A resilient gate that asks the human after a failed review even under `on_failure: deny`
/// (AR-RES-FAIL-3): when the human allows, the body runs where the reference denies, on a
/// human's allow where the spec asks nobody: BOUNDS.
#[test]
fn a_gate_that_asks_where_it_must_fail_closed_is_found_at_bounds() {
    let plant = Planted::reading("on_failure: deny read as ask", |s| {
        s.config.on_failure = autoreview::scenario::OnFailure::Ask;
    });
    found_at_bounds(plant.leading("AR-RES-FAIL-3"), Profile::RESILIENT);
}

/// A resilient gate that matches the message patterns of AR-REVIEW-7 against the provider's code
/// as well as its message, so a code such as `ECONNRESET` makes a quota failure a transport one:
/// the gate retries it (AR-RES-RETRY-2), and when the retry allows, the body runs where the
/// reference has already taken the failure path, on a reviewer's allow to a request the spec does
/// not make: BOUNDS. The plant shows the gate the code as its message wherever a message pattern
/// matches the code and no code rule names it.
#[test]
fn a_gate_that_matches_message_patterns_against_the_code_is_found_at_bounds() {
    let plant = Planted::reading("message patterns matched against the code", |s| {
        for a in attempts(s) {
            if let Attempt::Finish { finish, .. } = a {
                let lowercase = finish.code.to_lowercase();
                let pattern = autoreview::engine::review::CLASSIFICATION_RULES
                    .iter()
                    .find(|(c, _)| c.holds(&finish.code, &lowercase));
                let by_code = pattern.is_some_and(|(c, _)| {
                    matches!(c, autoreview::engine::review::Condition::Message(_))
                });
                if by_code {
                    finish.message = serde_json::Value::String(finish.code.clone());
                }
            }
        }
    });
    found_at_bounds(plant, Profile::RESILIENT);
}
