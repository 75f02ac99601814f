//! Request plants: each changes what a reviewer request carries or how the outcome records the
//! requests a review made (AR-REVIEW-3, AR-REVIEW-12, AR-RES-RETRY-2), not what the reviewer
//! answered. What a request carried is information about the call that decides nothing after
//! it: found at INFO and no worse.

use super::*;
use autoreview::outcome::RequestRecord;

/// Every request the outcome `o` records.
fn requests(o: &mut Outcome) -> impl Iterator<Item = &mut RequestRecord> {
    o.review.requests.iter_mut().flatten()
}

/// A gate that declares the session's tools in its reviewer request, as it does for the
/// session's own requests (AR-REVIEW-3: no tools declared): each recorded request counts them.
#[test]
fn a_gate_that_declares_tools_to_the_reviewer_is_found_at_info() {
    let plant = Planted::writing("the session's tools declared to the reviewer", |_, o| {
        for r in requests(o) {
            r.tools = 3;
        }
    });
    found(plant, "AR-REVIEW-3", &Profile::all(), Severity::Info);
}

/// A baseline gate whose reviewer requests carry the session's id, as the gate's later releases
/// do (AR-REVIEW-12: the baseline's requests carry none, `null`).
#[test]
fn a_baseline_gate_that_sends_the_session_id_is_found_at_info() {
    let plant = Planted::writing("the session id in baseline requests", |_, o| {
        for r in requests(o) {
            r.session_id = Some("session".into());
        }
    });
    found(plant, "AR-REVIEW-12", &[Profile::BASELINE], Severity::Info);
}

/// A resilient gate that records one request per review, the first, and not each repair and
/// retry it made (AR-REVIEW-12: the outcome records every reviewer request).
#[test]
fn a_gate_that_records_only_the_first_request_is_found_at_info() {
    let plant = Planted::writing("only the first request recorded", |_, o| {
        if let Some(requests) = &mut o.review.requests {
            requests.truncate(1);
        }
    });
    found(plant, "AR-REVIEW-12", &[Profile::RESILIENT], Severity::Info);
}

/// A resilient gate that retries a transport failure with the review's first request, dropping
/// the repair instruction the failed repair request carried (AR-RES-RETRY-2: a retry repeats the
/// request unchanged, so a retry that follows a repair request is a repair request too).
#[test]
fn a_gate_that_retries_a_repair_without_its_instruction_is_found_at_info() {
    let plant = Planted::writing("a retried repair sent as the first request", |s, o| {
        use autoreview::engine::review::{Settlement, settle};
        use autoreview::outcome::FailureClass;
        let transport = |k: usize| {
            matches!(
                settle(s.reviewer.attempt(k), Profile::RESILIENT),
                Settlement::Failed(f) if f.class == FailureClass::Transport
            )
        };
        for (k, request) in requests(o).enumerate().skip(1) {
            // A retry, after a transport failure, of a repair request: the gate resends the
            // review's first request.
            if request.repair && transport(k - 1) {
                request.repair = false;
            }
        }
    });
    found(
        plant,
        "AR-RES-RETRY-2",
        &[Profile::RESILIENT],
        Severity::Info,
    );
}

/// A resilient gate that reads the configured temperature as a number and sends 0 for
/// `provider-default`, as `Number(config.temperature) || 0` does (AR-REVIEW-3: `provider-default`
/// leaves the parameter out, recorded as `null`).
#[test]
fn a_gate_that_sends_provider_default_as_0_is_found_at_info() {
    let plant = Planted::writing("provider-default sent as 0", |_, o| {
        for r in requests(o) {
            r.temperature.get_or_insert(0.into());
        }
    });
    found(plant, "AR-REVIEW-3", &[Profile::RESILIENT], Severity::Info);
}

/// A resilient gate that sends the configured temperature on a review's first request and
/// repairs at 0, as the field report's first proposal reads (AR-RES-RETRY-2: a repair asks at the
/// review's temperature).
#[test]
fn a_gate_that_repairs_at_0_is_found_at_info() {
    let plant = Planted::writing("repairs sent at temperature 0", |_, o| {
        for r in requests(o).filter(|r| r.repair) {
            r.temperature = Some(0.into());
        }
    });
    found(
        plant,
        "AR-RES-RETRY-2",
        &[Profile::RESILIENT],
        Severity::Info,
    );
}

/// A resilient gate that never reads the configured temperature and asks at 0, as the baseline
/// does (AR-RES-CONFIG-1: the profile reads `temperature`).
#[test]
fn a_gate_that_ignores_the_configured_temperature_is_found_at_info() {
    let plant = Planted::writing("the configured temperature ignored", |_, o| {
        for r in requests(o) {
            r.temperature = Some(0.into());
        }
    });
    found(
        plant,
        "AR-RES-CONFIG-1",
        &[Profile::RESILIENT, shipped()],
        Severity::Info,
    );
}
