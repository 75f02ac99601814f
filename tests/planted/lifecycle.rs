//! Lifecycle plants: a mistake in admission (chapter 2), in what disposing of the integration or
//! installing it again does to a session (AR-DISPOSE-*, AR-INSTALL-1, AR-RES-DISPOSE-1), or in how
//! a session's items are reported (chapter 12).

use super::sessions::{CARRY, Carry, SESSION_CASES, carried};
use super::*;
use autoreview::outcome::EventOutcome;
use autoreview::scenario::{ApprovalPolicy, Preset};

/// Whether the reference's gate, disposal having begun before the call (`lifecycle-before-review`),
/// would find the call in scope and refuse it admission: a call of an agent, not the transport,
/// in a session whose recorded preset was Auto when disposal began.
fn refused_in_auto(s: &Scenario) -> bool {
    s.abort == AbortPoint::LifecycleBeforeReview
        && s.agent
        && s.tool.call != CallKind::RunCode
        && s.preset == Preset::Auto
}

/// The session as disposal left it: moved to Full access under `never` when listed.
fn as_disposal_left_it(s: &mut Scenario) {
    if s.session.listed {
        s.policy.override_ = Some(ApprovalPolicy::Never);
    }
    s.preset = Preset::DangerFullAccess;
}

/// A gate that, refusing a call admission while the integration closes, hands it on to the rest
/// of the chain as if it were out of scope instead of answering `cancel` (AR-ADMIT-2): downstream
/// decides, and its allow runs the body of a call nobody reviewed. The calls refused so are those
/// of a session disposal did not move (it is not listed); a resilient gate's refusal of a call in
/// a session disposal moved (AR-RES-DISPOSE-1) is a check of its own, which this gate makes.
/// Downstream's allow is no permission to run a call in Auto (AR-REVIEW-1): SAFETY, from either
/// kind of case.
#[test]
fn a_call_refused_admission_passed_downstream_is_found_at_safety() {
    let plant = Planted::reading("a call refused admission passed on downstream", |s| {
        if refused_in_auto(s) && !s.session.listed {
            as_disposal_left_it(s);
        }
    });
    found(plant, "AR-ADMIT-2", &Profile::all(), Severity::Safety);
}

/// A resilient gate that reads the session's preset before it checks admission, as the baseline
/// does (AR-RES-DISPOSE-1): a call in a listed Auto session that races disposal passes through
/// under the `never` disposal wrote, where it must be cancelled: downstream's allow runs the
/// body of a call in a session that was in Auto, which nobody reviewed: SAFETY, from either kind
/// of case. (The baseline does just this, AR-DISPOSE-2.)
#[test]
fn a_resilient_gate_that_reads_the_preset_before_admission_is_found_at_safety() {
    let plant = Planted::reading("the preset read before admission", |s| {
        if refused_in_auto(s) && s.session.listed {
            as_disposal_left_it(s);
        }
    });
    found(
        plant,
        "AR-RES-DISPOSE-1",
        &[Profile::RESILIENT],
        Severity::Safety,
    );
}

/// A baseline gate that checks admission before it reads the preset, as the resilient profile
/// does (AR-DISPOSE-2): a call in a listed session disposal has moved is cancelled where it must
/// pass through to downstream. No body runs that must not: DECISION, from either kind of case.
#[test]
fn a_baseline_gate_that_checks_admission_before_the_preset_is_found_at_decision() {
    let plant = Planted::writing("admission checked before the preset", |s, o| {
        if refused_in_auto(s) && s.session.listed && o.review.consecutive_failures.is_none() {
            let profile = Profile::RESILIENT;
            let mut r = engine::decide(s, profile);
            r.review.consecutive_failures = None;
            r.id.clone_from(&s.id);
            *o = r;
        }
    });
    found(
        plant,
        "AR-DISPOSE-2",
        &[Profile::BASELINE, shipped()],
        Severity::Decision,
    );
}

/// A gate whose selection of Auto, once the integration is gone, swallows the presets service's
/// error and reports success (AR-DISPOSE-4: it fails with `MSG-ERR-NO-AUTO` and changes
/// nothing). It changes nothing, as it must: what the user is told is wrong, and no call goes
/// otherwise: DECISION (an event's error missing), from either kind of case.
#[test]
fn a_selection_of_auto_when_it_is_gone_that_reports_success_is_found_at_decision() {
    let plant = Planted::carrying("selecting Auto when it is gone reports success", |s, p| {
        carried(
            s,
            p,
            &Carry {
                apply: |state, e, listed| {
                    let out = state.apply(e, listed);
                    if e.event == EventKind::SelectAuto {
                        return EventOutcome {
                            error: None,
                            prefix_only: Default::default(),
                            ..out
                        };
                    }
                    out
                },
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-DISPOSE-4",
        &Profile::all(),
        Severity::Decision,
        SESSION_CASES,
    );
}

/// A gate whose disposal refuses the selection of Auto an observer of the move makes while the
/// integration closes, but without an error (AR-DISPOSE-5: refused with `MSG-ERR-CLOSING`): the
/// session stays where disposal moved it, as it must, and whoever selected Auto is told it
/// worked: DECISION (an event's error missing), from either kind of case.
#[test]
fn a_selection_during_disposal_refused_silently_is_found_at_decision() {
    let plant = Planted::carrying("a selection during disposal refused silently", |s, p| {
        carried(
            s,
            p,
            &Carry {
                apply: |state, e, listed| {
                    let out = state.apply(e, listed);
                    if e.event == EventKind::Dispose {
                        return EventOutcome {
                            error: None,
                            prefix_only: Default::default(),
                            ..out
                        };
                    }
                    out
                },
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-DISPOSE-5",
        &Profile::all(),
        Severity::Decision,
        SESSION_CASES,
    );
}

/// A gate that takes the effective approval policy to be the session's override, else `ask`,
/// never reading the deployment default (AR-CONV-5): under a default of `never` a question that
/// must be rejected without a prompt reaches a human, whose allow runs the body where the spec
/// asks nobody: BOUNDS, from either kind of case. Wherever no override was recorded and the
/// default made the policy `never`, what it decided cites AR-CONV-5 first: the approval service's
/// answer, and in the resilient profile a final denial and a failure denied under `never`.
#[test]
fn a_gate_that_ignores_the_deployment_default_policy_is_found_at_bounds() {
    let plant = Planted::reading("the deployment's default policy ignored", |s| {
        if s.policy.override_.is_none() {
            s.policy.default = ApprovalPolicy::Ask;
        }
    });
    found(plant, "AR-CONV-5", &Profile::all(), Severity::Bounds);
}

/// A gate that cancels a call it passes through when the lifecycle aborts while downstream is
/// consulted, as it cancels a reviewed one (AR-SCOPE-4: a pass-through call is invisible to the
/// gate, which returns downstream's decision whatever happens to its lifecycle): an outer
/// `run_code` call is cancelled where downstream decides it. Nothing runs that must not:
/// DECISION, from either kind of case.
#[test]
fn a_gate_that_cancels_a_pass_through_call_on_disposal_is_found_at_decision() {
    use autoreview::outcome::{Decision, Event as Step};
    let plant = Planted::writing("a pass-through call cancelled on disposal", |s, o| {
        if s.abort == AbortPoint::LifecycleDuringDownstream
            && o.review.attempts == 0
            && o.trace.contains(&Step::Downstream)
            && o.listener.is_some()
        {
            o.listener = Some(Decision::Cancel);
            o.approval = None;
            o.result = autoreview::engine::materialize::aborted();
            o.trace
                .retain(|e| matches!(e, Step::Review | Step::Downstream));
        }
    });
    found(plant, "AR-SCOPE-4", &Profile::all(), Severity::Decision);
}

/// A gate that never checks admission (AR-ADMIT-1, AR-CANCEL-2): a call in a session disposal
/// did not move is reviewed while the integration closes, and the reviewer's allow to a request
/// the spec does not make runs the body: BOUNDS, from either kind of case. (The baseline's 4000
/// generated cases find it at DECISION only; the CI's 20,000 meet the allow.)
#[test]
fn a_gate_that_never_checks_admission_is_found_at_bounds() {
    let plant = Planted::reading("admission never checked", |s| {
        if refused_in_auto(s) && !s.session.listed {
            s.abort = AbortPoint::None;
        }
    });
    let mut plant = plant.leading("AR-ADMIT-1");
    found_at(
        &mut plant,
        Profile::RESILIENT,
        Severity::Bounds,
        READER_CASES,
    );
    found_at(
        &mut plant,
        Profile::BASELINE,
        Severity::Bounds,
        autoreview::requirements::GENERATED,
    );
}

/// A gate whose installation selects Auto again in each session disposal moved out of it, as if
/// installing undid the disposal (AR-INSTALL-1: such a session stays under `danger-full-access`
/// and `never` until Auto is selected again): its calls are reviewed where they must pass
/// through, and a question they raise reaches a human where `never` asks nobody, whose allow runs
/// the body: BOUNDS, from either kind of case (SES-10; the baseline's generated sessions meet it
/// in the CI's 20,000 cases, not in 3,000).
#[test]
fn a_gate_whose_installation_moves_sessions_back_to_auto_is_found_at_bounds() {
    let plant = Planted::carrying("an installation moves sessions back to Auto", |s, p| {
        carried(
            s,
            p,
            &Carry {
                apply: |state, e, listed| {
                    let moved = state.preset_by == Some("AR-DISPOSE-1")
                        && state.preset == Preset::DangerFullAccess;
                    let out = state.apply(e, listed);
                    if e.event == EventKind::Install && moved {
                        let select = Event::of(EventKind::SelectAuto);
                        state.apply(&select, listed);
                    }
                    out
                },
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-INSTALL-1",
        &Profile::all(),
        Severity::Bounds,
        autoreview::requirements::GENERATED,
    );
}

/// A gate that takes the deployment default over the session's recorded override, as
/// `policy = deployment.default ?? session.override ?? "ask"` does (AR-CONV-5: the override, if
/// one was recorded, is the effective policy): under an override of `never` and a default of
/// `ask`, a question that must be rejected without a prompt reaches a human, whose allow runs the
/// body where the spec asks nobody: BOUNDS, from either kind of case. Its run leads with
/// AR-APPROVAL-2, and rightly: on each case it fails at BOUNDS, an approval service that asks
/// under `never` (the plant of AR-APPROVAL-2) comes to the same outcome, so no one case can say
/// which mistake was made (only the cases each passes do). AR-CONV-5 is not among its
/// violations: where an override was recorded, the reference cites the rules that used the
/// policy (AR-APPROVAL-2, AR-DECIDE-2), not the one that chose it, as a gate that asks under
/// `never` breaks those alone.
#[test]
fn a_gate_that_prefers_the_deployment_default_to_the_override_is_found_at_bounds() {
    let mut plant = Planted::reading("the deployment default over the override", |s| {
        if s.policy.override_.is_some() {
            s.policy.override_ = Some(s.policy.default);
        }
    });
    let mut like = super::rules::never_read_as_ask().leading("AR-APPROVAL-2");
    for profile in Profile::all() {
        found_at(&mut plant, profile, Severity::Bounds, READER_CASES);
        headlined_as(&mut plant, None, &mut like, profile);
    }
}
