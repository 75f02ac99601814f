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

/// A resilient gate that reads `on_failure` under another name and so always uses its default,
/// `ask` (AR-RES-CONFIG-1: a value is never silently replaced by the default): it asks the human
/// after a failed review under `on_failure: deny`, and when the human allows, the body runs where
/// the reference denies, on a human's allow where the spec asks nobody: BOUNDS.
#[test]
fn a_gate_that_asks_where_it_must_fail_closed_is_found_at_bounds() {
    let plant = Planted::reading("on_failure: deny read as ask", |s| {
        s.config.on_failure = autoreview::scenario::OnFailure::Ask;
    });
    found_at_bounds(plant.leading("AR-RES-CONFIG-1"), Profile::RESILIENT);
}

/// A resilient gate that routes a failed review by `on_failure` alone and never looks at the
/// policy for it (AR-RES-FAIL-3: under the effective policy `never` the gate denies a failure
/// before consulting downstream, so a delegated child still fails closed): under `never` with
/// `on_failure: ask` it consults downstream and asks about the failure, and the approval
/// service, under `never`, rejects the question without a prompt. No body runs that the
/// reference stops, but the call is decided otherwise: DECISION.
#[test]
fn a_gate_that_asks_about_a_failure_under_never_is_found_at_decision() {
    let plant = Planted::deciding("a failure asked about under never", |s, p| {
        use autoreview::scenario::{ApprovalAnswer, ApprovalPolicy, OnFailure, Policy};
        let o = engine::decide(s, p);
        if o.review.failure.is_none()
            || s.policy.effective() != ApprovalPolicy::Never
            || s.config.on_failure != OnFailure::Ask
        {
            return o;
        }
        // The gate routes the failure as under `ask`; the approval service still reads `never`.
        let mut asked = s.clone();
        asked.policy = Policy {
            override_: Some(ApprovalPolicy::Ask),
            default: s.policy.default,
        };
        if asked.approval != ApprovalAnswer::Throws {
            asked.approval = ApprovalAnswer::Rejected;
        }
        let mut a = engine::decide(&asked, p);
        if let Some(approval) = &mut a.approval
            && approval.answer == ApprovalAnswer::Rejected
        {
            approval.prompted = false;
        }
        a
    });
    found(
        plant,
        "AR-RES-FAIL-3",
        &[Profile::RESILIENT],
        Severity::Decision,
    );
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
    found_at_bounds(plant.leading("AR-REVIEW-7"), Profile::RESILIENT);
}

/// A gate that throws when the reviewer denies, so that the `catch` around its review turns a
/// deny into a failure whose message is the reviewer's reason (AR-REVIEW-4: a review settles in
/// exactly one outcome class, and a deny is not a failure): the call is denied or asked about
/// as a failure where the reference asks the human or denies finally, but no body runs that the
/// reference stops: a DECISION. (In the resilient profile the fixed cases find only the texts,
/// as none denies under `on_failure: deny`; [`a_gate_that_records_a_deny_as_a_failure_is_found_at_info`]
/// plants the clause there.)
#[test]
fn a_gate_that_throws_on_a_deny_is_found_at_decision() {
    let plant = Planted::reading("a deny thrown as a failure", |s| {
        use autoreview::engine::review::{Settlement, settle};
        for a in attempts(s) {
            if let Settlement::Decided(ReviewerDecision::Deny { reason, .. }) =
                settle(a, Profile::BASELINE)
            {
                *a = Attempt::Throw {
                    throw: serde_json::Value::String(reason.unwrap_or_else(|| "denied".into())),
                    delay_ms: a.delay_ms().unwrap_or_default(),
                };
            }
        }
    });
    found(
        plant,
        "AR-REVIEW-4",
        &[Profile::BASELINE],
        Severity::Decision,
    );
}

/// A baseline gate that writes a thrown value that is not a string as its JSON
/// (`JSON.stringify`), where AR-REVIEW-5 converts it as `String(value)` does: an object thrown
/// reads `{"code":1}` instead of `[object Object]`. Only the texts that show the message differ:
/// TEXT.
#[test]
fn a_baseline_gate_that_stringifies_a_thrown_value_as_json_is_found_at_text() {
    let plant = Planted::reading("a thrown value written as JSON", |s| {
        for a in attempts(s) {
            if let Attempt::Throw { throw, .. } = a
                && !throw.is_string()
            {
                *throw = serde_json::Value::String(throw.to_string());
            }
        }
    });
    found(plant, "AR-REVIEW-5", &[Profile::BASELINE], Severity::Text);
}

/// A resilient gate that puts the reviewer errors' `auto-review: ` before a thrown value's text,
/// as one written `catch (e) { return failed(`auto-review: ${errorText(e)}`) }` does, where
/// AR-REVIEW-5 makes a thrown value's message that value's text alone (item 3): the value is
/// converted and normalized as AR-RES-NORM-1..4 say, and only the texts that show the message
/// differ: TEXT. (The baseline's plants of the clause are
/// [`a_baseline_gate_that_stringifies_a_thrown_value_as_json_is_found_at_text`] and
/// `numbers_written_with_python_str`.)
#[test]
fn a_resilient_gate_that_prefixes_a_thrown_value_is_found_at_text() {
    let plant = Planted::reading("a thrown value prefixed", |s| {
        let text = Profile::RESILIENT.failure_text();
        for a in attempts(s) {
            if let Attempt::Throw { throw, .. } = a {
                let value = text.value_text(throw);
                *throw = serde_json::Value::String(format!("auto-review: {value}"));
            }
        }
    });
    found(plant, "AR-REVIEW-5", &[Profile::RESILIENT], Severity::Text);
}

/// A resilient gate that looks for the timeout and quota codes (AR-REVIEW-7 rules 1 and 2)
/// before it looks at the finish's kind, so an `aborted` finish whose code is `TIMEOUT` is
/// classed `timeout` (AR-REVIEW-7: a finish of kind `aborted` is always `aborted`). None of the
/// three classes earns a retry, so only the class differs, in the outcome and in
/// `INFO-FAILED`: INFO. (A signal's abort is left as the reference has it.)
#[test]
fn a_gate_that_reads_codes_before_the_kind_is_found_at_info() {
    let plant = Planted::writing("timeout and quota codes before the kind", |s, o| {
        use autoreview::engine::review::CLASSIFICATION_RULES;
        use autoreview::outcome::FailureClass;
        use autoreview::scenario::{AbortPoint, FailedFinishKind};
        let Some(failure) = &mut o.review.failure else {
            return;
        };
        let Some(last) = o.review.attempts.checked_sub(1) else {
            return;
        };
        let Attempt::Finish { finish, .. } = s.reviewer.attempt(last as usize) else {
            return;
        };
        let by_code = CLASSIFICATION_RULES[..2]
            .iter()
            .find(|(c, _)| c.holds(&finish.code, ""))
            .map(|(_, class)| *class);
        let (Some(class), FailedFinishKind::Aborted, AbortPoint::None) =
            (by_code, finish.kind, s.abort)
        else {
            return;
        };
        if failure.class != FailureClass::Aborted {
            return;
        }
        failure.class = class;
        let written = serde_json::Value::from(class.as_str());
        if let Some(autoreview::outcome::Decision::Deny {
            info: Some(info), ..
        }) = &mut o.listener
            && info.contains_key("failure")
        {
            info.insert("failure".into(), written.clone());
        }
        if let Some(info) = &mut o.result.info
            && info.contains_key("failure")
        {
            info.insert("failure".into(), written);
        }
    });
    found(plant, "AR-REVIEW-7", &[Profile::RESILIENT], Severity::Info);
}

/// A gate that checks only that the session's route names a provider, and lets the provider
/// pick its default model when the header names none (AR-REVIEW-9: both MUST be non-empty, or
/// the review fails without a request): it reviews a call whose review must fail, and runs the
/// body on a reviewer's allow to a request the spec does not make: BOUNDS, from either kind of
/// case (in the resilient profile SF-40, where the failure is denied under `never`).
#[test]
fn a_gate_that_checks_only_the_provider_is_found_at_bounds() {
    let plant = Planted::reading("a route without a model completed", |s| {
        let route = &mut s.session.route;
        if !route.provider.is_empty() && route.model.is_empty() {
            route.model = "default".into();
        }
    });
    found(plant, "AR-REVIEW-9", &Profile::all(), Severity::Bounds);
}

/// A gate that finds the pending call in the session log, but never compares the calls the agent
/// sees with what the log says of them (AR-REVIEW-11, `visible-call-disagrees`): it reviews a
/// call whose review must fail, and runs the body on a reviewer's allow to a request the spec
/// does not make: BOUNDS, from either kind of case (in the resilient profile SF-41, where the
/// failure is denied under `never`).
#[test]
fn a_gate_that_skips_the_visible_calls_check_is_found_at_bounds() {
    let plant = Planted::reading("visible calls not compared with the log", |s| {
        if s.log == autoreview::scenario::LogFact::VisibleCallDisagrees {
            s.log = autoreview::scenario::LogFact::Consistent;
        }
    });
    found(plant, "AR-REVIEW-11", &Profile::all(), Severity::Bounds);
}

/// A resilient gate that resolves the pending tool's schema before it reads the session log
/// (AR-REVIEW-11: after the working directory and before the schema): a call whose log is broken
/// and whose schema neither the registry nor the header holds fails with class `schema` and its
/// message instead of class `session` and the log's. Both fail, and what follows differs only in
/// the texts that quote the message: TEXT.
#[test]
fn a_gate_that_resolves_the_schema_before_the_log_is_found_at_text() {
    use autoreview::scenario::{LogFact, SchemaCount};
    let plant = Planted::reading("the schema resolved before the log", |s| {
        let unresolvable =
            s.schema.header != SchemaCount::Present && s.schema.registry != SchemaCount::Present;
        if unresolvable {
            s.log = LogFact::Consistent;
        }
    });
    found(plant, "AR-REVIEW-11", &[Profile::RESILIENT], Severity::Text);
}

/// A resilient gate that records a reviewer's deny in the outcome's `review.failure` as well,
/// with the reviewer's reason for its message, though it decides the call as a deny (AR-REVIEW-4:
/// a review settles in exactly one outcome class). The record is information: INFO.
#[test]
fn a_gate_that_records_a_deny_as_a_failure_is_found_at_info() {
    let plant = Planted::writing("a deny recorded as a failure", |s, o| {
        use autoreview::engine::review::{Settlement, settle};
        use autoreview::outcome::{Failure, FailureClass};
        let Some(last) = o.review.attempts.checked_sub(1) else {
            return;
        };
        if o.review.failure.is_some() || !o.settled {
            return;
        }
        if let Settlement::Decided(ReviewerDecision::Deny { reason, .. }) =
            settle(s.reviewer.attempt(last as usize), Profile::RESILIENT)
        {
            o.review.failure = Some(Failure {
                class: FailureClass::Internal,
                message: reason.unwrap_or_else(|| "denied".into()),
            });
        }
    });
    found(plant, "AR-REVIEW-4", &[Profile::RESILIENT], Severity::Info);
}

/// A resilient gate that gives each request its own timeout of `review_timeout_ms` instead of
/// one deadline for the whole review (AR-RES-RETRY-4: all requests share one deadline, counted
/// from the first request's start): a repair or a retry that settles in its own time but after
/// the review's deadline is read, and when it allows, the body runs on a reviewer's allow the
/// spec does not accept as the review's decision: BOUNDS. The plant starts each request that
/// settles within the timeout at once, so that only a request longer than the timeout reaches it.
#[test]
fn a_gate_with_a_timeout_per_request_is_found_at_bounds() {
    let plant = Planted::reading("a timeout per request", |s| {
        let timeout = s.config.review_timeout_ms;
        for a in attempts(s) {
            let within = a.delay_ms().is_some_and(|d| d <= timeout);
            match a {
                Attempt::Text { delay_ms, .. }
                | Attempt::Blocks { delay_ms, .. }
                | Attempt::Finish { delay_ms, .. }
                | Attempt::Throw { delay_ms, .. }
                    if within =>
                {
                    *delay_ms = 0
                }
                _ => {}
            }
        }
    });
    found(
        plant,
        "AR-RES-RETRY-4",
        &[Profile::RESILIENT],
        Severity::Bounds,
    );
}

/// A resilient gate that reads a request that threw as the reviewer's denial, as one written
/// `catch (e) { return { decision: 'deny', reason: String(e) } }` does (AR-REVIEW-4: a review
/// whose request threw settles as a failure, never as a decision): it asks the human about a
/// denial under `on_failure: deny`, where the reference fails closed, and when the human allows
/// the body runs on a human's allow where the spec asks nobody: BOUNDS. The first difference is
/// the review's failure, which it records as none, and what made the review a failure is that
/// its request threw (AR-REVIEW-4), not AR-RES-FAIL-1, which routes and words a failure once it
/// is one ([`a_gate_that_words_a_failure_as_a_denial_is_found_at_text`]).
#[test]
fn a_gate_that_reads_a_thrown_request_as_a_denial_is_found_at_bounds() {
    let plant = Planted::reading("a thrown request read as a denial", |s| {
        for a in attempts(s) {
            if let Attempt::Throw { delay_ms, .. } = a {
                *a = Attempt::Text {
                    text: r#"{"risk":"high","decision":"deny"}"#.into(),
                    delay_ms: *delay_ms,
                };
            }
        }
    });
    found(
        plant,
        "AR-REVIEW-4",
        &[Profile::RESILIENT],
        Severity::Bounds,
    );
}

/// A resilient gate that reads `repair_attempts` under another name and so always uses its
/// default, 1 (AR-RES-CONFIG-1: a value is never silently replaced by the default): a review
/// configured for no repair makes one, and when it allows, the body runs on a reviewer's allow to
/// a request the spec does not make: BOUNDS.
#[test]
fn a_gate_that_misreads_the_repair_budget_as_its_default_is_found_at_bounds() {
    let plant = Planted::reading("repair_attempts read as the default", |s| {
        s.config.repair_attempts = 1;
    });
    found(
        plant,
        "AR-RES-CONFIG-1",
        &[Profile::RESILIENT],
        Severity::Bounds,
    );
}

/// A resilient gate that adds the reviewer's risk level to its final denial's reason (AR-REVIEW-8:
/// the risk MUST NOT appear in any listener decision or tool result): only the texts differ: TEXT.
#[test]
fn a_gate_that_shows_the_risk_in_a_denial_is_found_at_text() {
    let plant = Planted::writing("the risk in the denial's reason", |_, o| {
        if let Some(autoreview::outcome::Decision::Deny {
            info: Some(info),
            reason,
        }) = &mut o.listener
            && info.get("code").and_then(|c| c.as_str()) == Some("AUTO_REVIEW_DENIED")
        {
            reason.push_str(" (risk: high)");
        }
    });
    found(plant, "AR-REVIEW-8", &[Profile::RESILIENT], Severity::Text);
}

/// A resilient gate that records the first request's failure as the review's when its repairs
/// and retries fail too (AR-RES-RETRY-3: the review settles with the failure of the last
/// request), while its decision and texts quote the last: the failure record is information:
/// INFO.
#[test]
fn a_gate_that_records_the_first_failure_is_found_at_info() {
    use autoreview::engine::review::{Settlement, settle};
    let plant = Planted::writing("the first failure kept", |s, o| {
        if let Some(f) = &mut o.review.failure
            && o.review.attempts > 1
            && let Settlement::Failed(first) = settle(s.reviewer.attempt(0), Profile::RESILIENT)
        {
            f.message = first.message.text.clone();
            f.class = first.class;
        }
    });
    found(
        plant,
        "AR-RES-RETRY-3",
        &[Profile::RESILIENT],
        Severity::Info,
    );
}

/// A resilient gate that looks at the caller's and the lifecycle's signal only before the first
/// request, as a `for` loop of awaited requests that never checks `signal.aborted` between them
/// does (AR-RES-RETRY-5: no new request starts once either is aborted; a failure that settles
/// after is final): a protocol or transport failure that settles after the signal is repaired
/// or retried, and the call is answered by what the later request brings instead of by the
/// failure. The signal still stops the body before it runs, so no body runs that the reference
/// stops: a DECISION.
#[test]
fn a_gate_that_checks_the_signal_only_before_the_first_request_is_found_at_decision() {
    let plant = Planted::writing(
        "the signal checked before the first request only",
        |s, o| {
            use autoreview::outcome::Event;
            if !matches!(
                s.abort,
                AbortPoint::CallerDuringReview | AbortPoint::LifecycleAfterReview
            ) {
                return;
            }
            // The review the gate makes, blind to the signal: as the reference makes it unaborted.
            let mut blind = s.clone();
            blind.abort = AbortPoint::None;
            let made = engine::decide(&blind, Profile::RESILIENT).review;
            let settled_at_once =
                (0..made.attempts as usize).all(|k| s.reviewer.attempt(k).delay_ms() == Some(0));
            if made.attempts <= o.review.attempts || !settled_at_once {
                return;
            }
            // The call answered as the reference answers an aborted one whose review settled as the
            // last of those requests did, with every request in its record and trace.
            let mut last = s.clone();
            last.reviewer = autoreview::scenario::Reviewer::One(
                s.reviewer.attempt(made.attempts as usize - 1).clone(),
            );
            let mut out = engine::decide(&last, Profile::RESILIENT);
            out.review.attempts = made.attempts;
            out.review.routes = made.routes;
            out.review.requests = made.requests;
            if let Some(at) = out.trace.iter().position(|e| *e == Event::Review) {
                for _ in 1..made.attempts {
                    out.trace.insert(at, Event::Review);
                }
            }
            out.citations = std::mem::take(&mut o.citations);
            *o = out;
        },
    );
    found(
        plant,
        "AR-RES-RETRY-5",
        &[Profile::RESILIENT],
        Severity::Decision,
    );
}

/// A resilient gate that keeps the error of its last failed request in a variable it never
/// clears, `let lastError; for (...) { try { return await ask() } catch (e) { lastError = e } }`,
/// and records it as the review's failure even when a repair or a retry then obtains a decision
/// (AR-RES-RETRY-3: the review settles with the first decision a request obtains). The call is
/// decided by that decision as the reference decides it; only the record says otherwise: INFO.
#[test]
fn a_gate_that_keeps_the_last_error_after_a_decision_is_found_at_info() {
    let plant = Planted::writing("the last error kept after a decision", |s, o| {
        use autoreview::engine::review::{Settlement, settle};
        let n = o.review.attempts as usize;
        if o.review.failure.is_some() || !o.settled || n < 2 {
            return;
        }
        if let Settlement::Failed(f) = settle(s.reviewer.attempt(n - 2), Profile::RESILIENT) {
            o.review.failure = Some(f.to_failure());
        }
    });
    found(
        plant,
        "AR-RES-RETRY-3",
        &[Profile::RESILIENT],
        Severity::Info,
    );
}

/// A gate that passes the reviewer's risk level on in the structured info of its final denial,
/// `{"name": "AutoReviewDeniedError", "code": "AUTO_REVIEW_DENIED", "risk": "high"}`, as one that
/// spreads the parsed decision into the error it throws does (AR-REVIEW-8: the risk MUST NOT
/// appear in any listener decision or tool result). The info is information about the call that
/// decides nothing after it: INFO, in both profiles.
#[test]
fn a_gate_that_shows_the_risk_in_the_denial_info_is_found_at_info() {
    let plant = Planted::writing("the risk in the denial's info", |s, o| {
        use autoreview::engine::review::{Settlement, settle};
        let Some(last) = o.review.attempts.checked_sub(1) else {
            return;
        };
        // The risk of the reviewer's deny, as the reader read it.
        let Settlement::Decided(ReviewerDecision::Deny { risk, .. }) =
            settle(s.reviewer.attempt(last as usize), Profile::RESILIENT)
        else {
            return;
        };
        let risk = serde_json::Value::from(risk.as_str());
        each_info(o, |info| {
            if info.get("code").and_then(|c| c.as_str()) == Some("AUTO_REVIEW_DENIED") {
                info.insert("risk".into(), risk.clone());
            }
        });
    });
    found(plant, "AR-REVIEW-8", &Profile::all(), Severity::Info);
}

/// A resilient gate that routes a failed review as the spec says, and then words the decision as
/// it words a reviewer's denial (AR-RES-FAIL-1: a reviewer failure is not a reviewer denial), as
/// a gate that hands the failure to its denial path does: the human is asked "the reviewer
/// rejected" where the review failed, and a delegated child's log reads `AUTO_REVIEW_DENIED`.
/// Whom it asks and what runs are the reference's; the texts and the info are not: TEXT.
#[test]
fn a_gate_that_words_a_failure_as_a_denial_is_found_at_text() {
    let plant = Planted::deciding("a failure worded as a denial", |s, p| {
        let o = engine::decide(s, p);
        if o.review.failure.is_none() {
            return o;
        }
        let mut denied = s.clone();
        denied.reviewer = Reviewer::One(Attempt::Text {
            text: r#"{"risk":"high","decision":"deny"}"#.into(),
            delay_ms: 0,
        });
        let d = engine::decide(&denied, p);
        let kind = |o: &Outcome| o.listener.as_ref().map(std::mem::discriminant);
        if kind(&d) != kind(&o) {
            return o;
        }
        Outcome {
            listener: d.listener,
            approval: d.approval,
            result: d.result,
            ..o
        }
    });
    found(
        plant,
        "AR-RES-FAIL-1",
        &[Profile::RESILIENT],
        Severity::Text,
    );
}
