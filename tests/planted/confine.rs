//! Confinement plants (AR-CONFINE-1..5): a gate that narrows a session at another moment than the
//! spec's, widens one, goes on when a narrowing is rejected, or selects Auto with full access on a
//! backend that confines reads. Only the resilient profile confines.

use super::sessions::{CARRY, Carry, SESSION_CASES, carried};
use super::*;
use autoreview::scenario::{Narrowing, Preset, SandboxMode};

/// A gate that narrows only the calls it reviews, so the outer `run_code` call's program runs
/// under full access on a backend that confines reads (AR-CONFINE-1): the body ran with access
/// nobody allowed: SAFETY.
#[test]
fn a_gate_that_narrows_only_reviewed_calls_is_found_at_safety() {
    let plant = Planted::reading("the outer run_code call left unconfined", |s| {
        if s.tool.call == CallKind::RunCode {
            s.session.sandbox.confines_reads = false;
        }
    });
    found(
        plant,
        "AR-CONFINE-1",
        &[Profile::RESILIENT, shipped()],
        Severity::Safety,
    );
}

/// A gate that sets an Auto session to whatever its backend keeps, so it widens a confined
/// session once the backend stops confining reads (AR-CONFINE-2): the body ran with full access
/// where the session was confined: SAFETY.
#[test]
fn a_gate_that_widens_a_confined_session_is_found_at_safety() {
    let plant = Planted::writing("the mode set to the backend's", |s, o| {
        let sandbox = &s.session.sandbox;
        if s.agent
            && s.preset == Preset::Auto
            && s.abort != AbortPoint::LifecycleBeforeReview
            && o.listener.is_some()
            && sandbox.mode == SandboxMode::WorkspaceWrite
            && !sandbox.confines_reads
        {
            o.sandbox.after = SandboxMode::DangerFullAccess;
        }
    });
    found(
        plant,
        "AR-CONFINE-2",
        &[Profile::RESILIENT, shipped()],
        Severity::Safety,
    );
}

/// A gate that catches a rejected narrowing and goes on with the call under full access
/// (AR-CONFINE-3): the outer `run_code` call's program then runs where nothing may run: SAFETY
/// (a reviewed call runs on the reviewer's allow to a request the spec does not make: BOUNDS).
/// The generated cases find the SAFETY in the default run's 20,000 draws: a rejected narrowing of
/// an outer run-code call whose downstream allows is one draw in a few thousand.
#[test]
fn a_gate_that_swallows_a_rejected_narrowing_is_found_at_safety() {
    let plant = Planted::deciding("a rejected narrowing swallowed", |s, p| {
        let mut s = s.clone();
        if matches!(s.session.sandbox.narrowing, Narrowing::Rejected(_)) {
            // The change threw and was caught: the session keeps full access, and the call goes
            // on as on a backend that confines nothing.
            s.session.sandbox.narrowing = Narrowing::Accepted;
            s.session.sandbox.confines_reads = false;
        }
        engine::decide(&s, p)
    });
    found_leading(
        plant,
        "AR-CONFINE-3",
        &[Profile::RESILIENT, shipped()],
        Severity::Safety,
        20_000,
    );
}

/// A gate that narrows before it checks that the integration admits calls (AR-CONFINE-4): a call
/// refused while the integration closes leaves the session's mode changed, which unloading was to
/// keep: DECISION (no body runs).
#[test]
fn a_gate_that_narrows_while_closing_is_found_at_decision() {
    let plant = Planted::writing("narrowed while closing", |s, o| {
        let sandbox = &s.session.sandbox;
        if s.agent
            && s.preset == Preset::Auto
            && s.abort == AbortPoint::LifecycleBeforeReview
            && sandbox.confines_reads
            && sandbox.mode == SandboxMode::DangerFullAccess
            && sandbox.narrowing == Narrowing::Accepted
        {
            o.sandbox.after = SandboxMode::WorkspaceWrite;
        }
    });
    found(
        plant,
        "AR-CONFINE-4",
        &[Profile::RESILIENT, shipped()],
        Severity::Decision,
    );
}

/// A gate whose selection of Auto writes Auto's full access whatever the backend keeps
/// (AR-CONFINE-5): the next call arrives unconfined, and is narrowed only then, or, once the
/// backend stopped confining reads, runs under full access: SAFETY.
#[test]
fn a_selection_of_auto_with_full_access_on_a_confining_backend_is_found_at_safety() {
    let plant = Planted::carrying("Auto selected with full access", |s, p| {
        carried(
            s,
            p,
            &Carry {
                apply: |state, e, listed| {
                    let out = state.apply(e, listed);
                    if e.event == EventKind::SelectAuto && out.error.is_none() {
                        state.mode = SandboxMode::DangerFullAccess;
                    }
                    out
                },
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-CONFINE-5",
        &[Profile::RESILIENT, shipped()],
        Severity::Safety,
        SESSION_CASES,
    );
}
