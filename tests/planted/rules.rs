//! Rule plants: each reads one rule of a profile as another profile has it, or drops what it
//! requires, and is found by fixed and by generated cases leading with that rule's clause.

use super::*;

/// A resilient gate that looks up a tool's schema in the request header only (AR-RES-SCHEMA-1):
/// a call whose header lacks the schema fails its review where the registry has it: a DECISION.
#[test]
fn a_resilient_gate_that_skips_the_registry_is_found_at_decision() {
    let plant = Planted::reading("the live registry not read", |s| {
        s.schema.registry = autoreview::scenario::SchemaCount::Missing;
    });
    found_leading(
        plant,
        "AR-RES-SCHEMA-1",
        &[Profile::RESILIENT],
        Severity::Decision,
        READER_CASES,
    );
}

/// A baseline gate that falls back to the registry when the header lacks the schema
/// (AR-REVIEW-2: the header only): it reviews a call whose review must fail, and runs the body
/// on a reviewer's allow to a request the spec does not make: BOUNDS.
#[test]
fn a_baseline_gate_that_reads_the_registry_is_found_at_bounds() {
    let plant = Planted::reading("the registry read in the baseline", |s| {
        if s.schema.header == autoreview::scenario::SchemaCount::Missing {
            s.schema.header = s.schema.registry;
        }
    });
    found_leading(
        plant,
        "AR-REVIEW-2",
        &[Profile::BASELINE],
        Severity::Bounds,
        READER_CASES,
    );
}

/// A resilient gate that ignores the configured reviewer route (AR-RES-ROUTE-1): its requests
/// go to the session's route, whose replies decide otherwise: a DECISION.
#[test]
fn a_resilient_gate_that_ignores_the_reviewer_route_is_found_at_decision() {
    let plant = Planted::reading("the configured reviewer route ignored", |s| {
        s.config.reviewer_route = None;
    });
    found_leading(
        plant,
        "AR-RES-ROUTE-1",
        &[Profile::RESILIENT],
        Severity::Decision,
        READER_CASES,
    );
}

/// A resilient gate whose reviewer requests carry no session id (AR-RES-REQUEST-1): what a
/// request carried is information, found at INFO and no worse.
#[test]
fn a_resilient_gate_without_the_session_id_is_found_at_info() {
    let plant = Planted::writing("no session id in reviewer requests", |_, o| {
        if let Some(requests) = &mut o.review.requests {
            for r in requests.iter_mut() {
                r.session_id = None;
            }
        }
    });
    found_leading(
        plant,
        "AR-RES-REQUEST-1",
        &[Profile::RESILIENT],
        Severity::Info,
        READER_CASES,
    );
}

/// A resilient gate that denies a failed review under `ask` as the baseline does
/// (AR-RES-FAIL-2: it is asked about): a DECISION.
#[test]
fn a_resilient_gate_that_denies_failures_under_ask_is_found_at_decision() {
    let plant = Planted::reading("failures denied under ask", |s| {
        s.config.on_failure = autoreview::scenario::OnFailure::Deny;
    });
    found_leading(
        plant,
        "AR-RES-FAIL-2",
        &[Profile::RESILIENT],
        Severity::Decision,
        READER_CASES,
    );
}

/// An approval service that asks the human under the policy `never` (AR-APPROVAL-2: rejected
/// without a prompt): the human's allow runs a body where the spec asks nobody: BOUNDS.
#[test]
fn an_approval_service_that_asks_under_never_is_found_at_bounds() {
    use autoreview::scenario::ApprovalPolicy;
    let plant = Planted::reading("never read as ask", |s| {
        if s.policy.override_ == Some(ApprovalPolicy::Never) {
            s.policy.override_ = Some(ApprovalPolicy::Ask);
        }
    });
    found_leading(
        plant,
        "AR-APPROVAL-2",
        &Profile::all(),
        Severity::Bounds,
        READER_CASES,
    );
}
