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
    found(
        plant,
        "AR-RES-SCHEMA-1",
        &[Profile::RESILIENT],
        Severity::Decision,
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
    found(plant, "AR-REVIEW-2", &[Profile::BASELINE], Severity::Bounds);
}

/// A resilient gate that ignores the configured reviewer route (AR-RES-ROUTE-1): its requests
/// go to the session's route, whose replies decide otherwise: a DECISION.
#[test]
fn a_resilient_gate_that_ignores_the_reviewer_route_is_found_at_decision() {
    let plant = Planted::reading("the configured reviewer route ignored", |s| {
        s.config.reviewer_route = None;
    });
    found(
        plant,
        "AR-RES-ROUTE-1",
        &[Profile::RESILIENT],
        Severity::Decision,
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
    found(
        plant,
        "AR-RES-REQUEST-1",
        &[Profile::RESILIENT],
        Severity::Info,
    );
}

/// A resilient gate that denies a failed review under `ask` as the baseline does
/// (AR-RES-FAIL-2: it is asked about): a DECISION.
#[test]
fn a_resilient_gate_that_denies_failures_under_ask_is_found_at_decision() {
    let plant = Planted::reading("failures denied under ask", |s| {
        s.config.on_failure = autoreview::scenario::OnFailure::Deny;
    });
    found(
        plant,
        "AR-RES-FAIL-2",
        &[Profile::RESILIENT],
        Severity::Decision,
    );
}

/// The approval service that asks under `never`, below.
pub(crate) fn never_read_as_ask() -> Planted {
    use autoreview::scenario::ApprovalPolicy;
    Planted::reading("never read as ask", |s| {
        if s.policy.override_ == Some(ApprovalPolicy::Never) {
            s.policy.override_ = Some(ApprovalPolicy::Ask);
        }
    })
}

/// An approval service that asks the human under the policy `never` (AR-APPROVAL-2: rejected
/// without a prompt): the human's allow runs a body where the spec asks nobody: BOUNDS.
#[test]
fn an_approval_service_that_asks_under_never_is_found_at_bounds() {
    found_leading(
        never_read_as_ask(),
        "AR-APPROVAL-2",
        &Profile::all(),
        Severity::Bounds,
        READER_CASES,
    );
}

/// A baseline gate that reviews a session whose header names no working directory with the
/// deployment's, as the gate's later releases and the resilient profile do (AR-REVIEW-10: the
/// review fails without a request): it runs the body on a reviewer's allow to a request the
/// spec does not make: BOUNDS.
#[test]
fn a_baseline_gate_that_falls_back_to_its_own_directory_is_found_at_bounds() {
    let plant = Planted::reading("the deployment's directory in the baseline", |s| {
        s.session.working_directory = true;
    });
    found(
        plant,
        "AR-REVIEW-10",
        &[Profile::BASELINE],
        Severity::Bounds,
    );
}

/// A resilient gate that fails the review of a session whose header names no working directory,
/// as the baseline does (AR-RES-CWD-1: it is reviewed with the deployment's): the failure is
/// asked about or denied where the reviewer would have decided, and no body runs that the
/// reference stops: a DECISION. The plant is the reference failing the review as it fails a
/// session's broken log, with `MSG-ERR-NO-CWD` for the log's message.
#[test]
fn a_resilient_gate_that_fails_without_a_working_directory_is_found_at_decision() {
    let plant = Planted::writing("a missing working directory fails the review", |s, o| {
        if s.session.working_directory {
            return;
        }
        let mut failing = s.clone();
        failing.session.working_directory = true;
        failing.log = autoreview::scenario::LogFact::NoOpenStep;
        let decided = engine::decide(&failing, Profile::RESILIENT);
        let log = autoreview::messages::ERR_LOG_NO_OPEN_STEP.text().text;
        let cwd = autoreview::messages::ERR_NO_CWD.text().text;
        let mut v = serde_json::to_value(&decided).unwrap();
        replace_text(&mut v, &log, &cwd);
        let mut written: Outcome = serde_json::from_value(v).unwrap();
        written.citations = std::mem::take(&mut o.citations);
        *o = written;
    });
    found(
        plant,
        "AR-RES-CWD-1",
        &[Profile::RESILIENT],
        Severity::Decision,
    );
}

/// Replaces `from` by `to` in every string of `v`.
fn replace_text(v: &mut serde_json::Value, from: &str, to: &str) {
    match v {
        serde_json::Value::String(t) => *t = t.replace(from, to),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|i| replace_text(i, from, to)),
        serde_json::Value::Object(m) => m.values_mut().for_each(|i| replace_text(i, from, to)),
        _ => {}
    }
}

/// A resilient gate that asks about a reviewer's denial whatever the policy, as the baseline does
/// unless an override of `never` was recorded (AR-RES-DECIDE-1: under the effective policy `never`
/// a denial is final): under `never` it consults downstream and asks about the denial instead of
/// denying finally. The approval service still sees `never` and rejects without a prompt
/// (AR-APPROVAL-2), so no body runs, but the listener's decision differs: a DECISION. Where the
/// deployment default made the policy `never`, the decision cites AR-CONV-5 first (the plant that
/// ignores the default); the recorded overrides of `never` lead with AR-RES-DECIDE-1.
#[test]
fn a_resilient_gate_that_asks_about_a_denial_under_never_is_found_at_decision() {
    use autoreview::scenario::{ApprovalAnswer, ApprovalPolicy, Policy};
    let plant = Planted::writing("a denial asked about under never", |s, o| {
        use autoreview::engine::review::{Settlement, review};
        let never = s.policy.effective() == ApprovalPolicy::Never;
        let denied = matches!(
            review(s, Profile::RESILIENT).settlement,
            Settlement::Decided(ReviewerDecision::Deny { .. })
        );
        if !never || !denied {
            return;
        }
        // The gate's decision as under `ask`; the service's answer as under `never`.
        let mut asked = s.clone();
        asked.policy = Policy::default();
        if asked.approval != ApprovalAnswer::Throws {
            asked.approval = ApprovalAnswer::Rejected;
        }
        let mut written = engine::decide(&asked, Profile::RESILIENT);
        if let Some(a) = &mut written.approval
            && a.prompted
        {
            a.prompted = false;
        }
        written.citations = std::mem::take(&mut o.citations);
        // The service answers a body's requests as under `never` too (AR-APPROVAL-8).
        written.body_approvals = std::mem::take(&mut o.body_approvals);
        *o = written;
    });
    found(
        plant,
        "AR-RES-DECIDE-1",
        &[Profile::RESILIENT],
        Severity::Decision,
    );
}

/// A resilient gate that passes a downstream `ask` on unchanged after the reviewer denied or
/// failed, as the baseline's AR-DECIDE-5 does (AR-RES-ASK-1: one ask that carries the gate's
/// objection before downstream's reason): the human is asked without seeing that the reviewer
/// objected; what they answer is the same, so only the texts differ: TEXT.
#[test]
fn a_resilient_gate_that_passes_a_downstream_ask_on_is_found_at_text() {
    use autoreview::outcome::Decision;
    use autoreview::scenario::Downstream;
    let plant = Planted::writing("a downstream ask passed on unchanged", |s, o| {
        let Downstream::Ask { reason } = &s.downstream else {
            return;
        };
        let Some(Decision::Ask {
            reason: Some(asked),
            ..
        }) = &o.listener
        else {
            return;
        };
        if asked == reason {
            return;
        }
        o.listener = Some(Decision::Ask {
            reason: Some(reason.clone()),
            display_reason: None,
        });
        if let Some(a) = &mut o.approval {
            a.reason = Some(reason.clone());
            a.display_reason = None;
        }
    });
    found(plant, "AR-RES-ASK-1", &[Profile::RESILIENT], Severity::Text);
}

/// A resilient gate that, finding the pending tool's schema neither in the registry nor in the
/// header, reviews the call with the schema the tool was registered with earlier, as a gate
/// caching schemas by name does (AR-REVIEW-2: the review then fails without a request): it runs
/// the body on a reviewer's allow to a request the spec does not make: BOUNDS, from either kind
/// of case.
#[test]
fn a_resilient_gate_that_reviews_without_a_schema_is_found_at_bounds() {
    use autoreview::scenario::SchemaCount;
    let plant = Planted::reading("a cached schema stands in for none", |s| {
        if s.schema.header != SchemaCount::Present && s.schema.registry != SchemaCount::Present {
            s.schema.registry = SchemaCount::Present;
        }
    });
    found(
        plant,
        "AR-REVIEW-2",
        &[Profile::RESILIENT],
        Severity::Bounds,
    );
}
