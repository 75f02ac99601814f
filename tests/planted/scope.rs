//! Scope plants: each takes a call in or out of review against chapter 1 (AR-SCOPE-1..3) or
//! AR-REVIEW-1, as a gate that reads the call's agent, kind or preset wrongly would.

use super::*;

/// A gate that reviews a call with no agent (AR-SCOPE-1): when the reviewer allows, the body runs
/// where downstream alone decides, on an allow to a request the spec does not make: BOUNDS.
#[test]
fn a_gate_that_reviews_a_call_without_an_agent_is_found_at_bounds() {
    let plant = Planted::reading("a call without an agent reviewed", |s| s.agent = true);
    found(plant, "AR-SCOPE-1", &Profile::all(), Severity::Bounds);
}

/// A gate that reviews the outer `run_code` transport call (AR-SCOPE-2): its review decides what
/// downstream alone should: a DECISION, never a body nobody allowed. Where the gate answers the
/// requests of the calls it allowed (AR-APPROVAL-7), it also answers the program's, on its
/// reviewer's allow, which the spec does not let answer them: BOUNDS.
#[test]
fn a_gate_that_reviews_the_outer_transport_is_found_at_decision() {
    let plant = Planted::reading("the outer run_code call reviewed", |s| {
        if s.tool.call == CallKind::RunCode {
            s.tool.call = CallKind::Native;
        }
    });
    found_by_rule(plant, "AR-SCOPE-2");
}

/// `plant` found at DECISION where the gate answers no request a body raises, and at BOUNDS where
/// it answers those of the calls it allowed (`body_approvals`, AR-APPROVAL-7), leading with `lead`.
fn found_by_rule(plant: Planted, lead: &'static str) {
    let mut plant = plant.leading(lead);
    for profile in Profile::all() {
        let severity = match profile.body_approvals() {
            autoreview::profile::BodyApprovals::AllowedCall => Severity::Bounds,
            autoreview::profile::BodyApprovals::Human => Severity::Decision,
        };
        found_at(&mut plant, profile, severity, READER_CASES);
    }
}

/// A gate that reviews a call whose session is not in Auto (AR-SCOPE-3): a DECISION; where it
/// answers the requests of the calls it allowed, it answers those of a call outside Auto too (and
/// takes the session for Auto when it answers): BOUNDS.
#[test]
fn a_gate_that_reviews_outside_auto_is_found_at_decision() {
    let plant = Planted::reading("a call outside Auto reviewed", |s| {
        s.preset = autoreview::scenario::Preset::Auto;
    });
    found_by_rule(plant, "AR-SCOPE-3");
}

/// A gate that passes a call in Auto through unreviewed (AR-REVIEW-1): downstream's allow runs
/// the body nobody reviewed: SAFETY.
#[test]
fn a_gate_that_passes_auto_through_is_found_at_safety() {
    let plant = Planted::reading("a call in Auto passed through", |s| {
        if s.preset == autoreview::scenario::Preset::Auto {
            s.preset = autoreview::scenario::Preset::DangerFullAccess;
        }
    });
    found(plant, "AR-REVIEW-1", &Profile::all(), Severity::Safety);
}
