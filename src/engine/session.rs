//! Spec chapter 12, sessions (AR-SESSION-1..3), with the lifecycle clauses a session makes
//! observable (AR-DISPOSE-4..5, AR-INSTALL-1, AR-RES-HINT-4): a session scenario is decided call
//! by call, each call exactly as a single-call scenario holding the state the session reached.

use std::collections::BTreeMap;

use crate::messages::{self, Text};
use crate::outcome::{EventOutcome, ItemOutcome, SessionOutcome};
use crate::profile::Profile;
use crate::scenario::session::{Event, EventKind, Item, SessionScenario};
use crate::scenario::{ApprovalPolicy, Policy, Preset, SandboxMode, Scenario, body};

use super::review::Review;

/// The clauses by which an item of a session decides its preset for the calls after it
/// ([`State::preset_by`]; AR-SESSION-2 for a call during which the integration was disposed of,
/// [`State::disposed_in_a_call`]; AR-RESULT-7 for a call whose body selected another preset).
pub const PRESET_DECIDED_BY: [&str; 5] = [
    "AR-DISPOSE-1",
    "AR-INSTALL-1",
    "AR-SCOPE-5",
    "AR-SESSION-2",
    "AR-RESULT-7",
];

/// What a session carries from one item to the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// The session's recorded preset.
    pub preset: Preset,
    /// The session's approval policy.
    pub policy: Policy,
    /// Whether the integration is installed.
    pub installed: bool,
    /// Reviewer failures in a row (AR-RES-HINT-1); the baseline keeps none.
    pub consecutive_failures: u32,
    /// The clause of the item that last decided the session's preset, when one did: a selection
    /// of Auto (AR-SCOPE-5), disposal, which moves the session or, unlisted, leaves it in Auto
    /// (AR-DISPOSE-1), or an installation after disposal moved it, which does not move it back
    /// (AR-INSTALL-1). `None` while the preset is the one the session started with.
    pub preset_by: Option<&'static str>,
    /// Whether the item that last decided the session's preset is a call during which the
    /// integration was disposed of (a lifecycle abort point), not a `dispose` event: it leaves the
    /// integration disposed of for the items after it (AR-SESSION-2).
    pub disposed_in_a_call: bool,
    /// The session's sandbox mode (AR-CONFINE-1): the one the last call left, or an event wrote.
    pub mode: SandboxMode,
    /// Whether the session's backend confines reads (AR-CONFINE-1): as the session started, or
    /// the last `backend` event said.
    pub confines_reads: bool,
    /// The clause by which the item that last changed the session's mode changed it: a
    /// narrowing (AR-CONFINE-1), a selection of Auto (AR-SCOPE-5, AR-CONFINE-5) or disposal
    /// (AR-DISPOSE-1). `None` while the mode is the one the session started with.
    pub mode_by: Option<&'static str>,
    /// Whether the profile keeps a session's mode where it would otherwise write Full access's
    /// (AR-CONFINE-2), and selecting Auto writes the confined mode (AR-CONFINE-5).
    pub confinement: bool,
}

impl State {
    /// The state before the first item, under `profile`.
    pub fn start(s: &SessionScenario, profile: Profile) -> State {
        State {
            preset: s.preset,
            policy: s.policy,
            installed: true,
            consecutive_failures: s.session.consecutive_failures,
            preset_by: None,
            disposed_in_a_call: false,
            mode: s.session.sandbox.mode,
            confines_reads: s.session.sandbox.confines_reads,
            mode_by: None,
            confinement: profile.confinement(),
        }
    }

    /// The single-call scenario that `call` is once the session reached this state (AR-SESSION-2).
    pub fn scenario_for(&self, s: &SessionScenario, call: &Scenario) -> Scenario {
        let mut one = call.clone();
        one.preset = match self.preset {
            // AR-DISPOSE-4: with the integration gone, no gate reviews the call and no Auto
            // preset resolves; the call passes through as in any session outside Auto.
            Preset::Auto if !self.installed => Preset::DangerFullAccess,
            p => p,
        };
        one.policy = self.policy;
        one.session = s.session.clone();
        one.session.consecutive_failures = self.consecutive_failures;
        one.session.sandbox.mode = self.mode;
        one.session.sandbox.confines_reads = self.confines_reads;
        one.config = s.config.clone();
        one
    }

    /// AR-DISPOSE-1: disposal moves a listed Auto session to Full access under `never`; the
    /// integration is then gone, and its failure counts with it (AR-RES-HINT-4).
    fn dispose(&mut self, listed: bool) {
        self.preset_by = Some("AR-DISPOSE-1");
        self.disposed_in_a_call = false;
        if listed && self.preset == Preset::Auto {
            let (preset, policy, mode) = super::disposal::moved_to(self.mode, self.confinement);
            if mode != self.mode {
                self.mode_by = Some("AR-DISPOSE-1");
            }
            (self.preset, self.mode) = (preset, mode);
            if policy.is_some() {
                self.policy.override_ = policy;
            }
        }
        self.installed = false;
        self.consecutive_failures = 0;
    }
}

/// Cites the session's own clauses for the `k`-th item, a call decided in `state` with `review`
/// (`None` where the gate made none): the item comes to the outcome of that call alone in the
/// state the items before it left (AR-SESSION-1, AR-SESSION-2), whose failure count it starts from
/// (AR-SESSION-3), whose preset an earlier item may have decided ([`State::preset_by`]: whether
/// the call is reviewed at all rests on it first) and whose integration may be gone
/// (AR-DISPOSE-4). `carried`: the count it starts from is the one an earlier call left.
fn cite_call(
    c: &mut crate::outcome::Citations,
    state: &State,
    k: usize,
    carried: bool,
    review: Option<&Review>,
) {
    c.cite_all("", &["AR-SESSION-1", "AR-SESSION-2"]);
    if let Some(by) = state.preset_by {
        c.cite_first("/review/attempts", by);
        // The disposal that decided it came during a call, which left the integration disposed
        // of for this one: the session carried it here (AR-SESSION-2).
        if state.disposed_in_a_call {
            c.cite_first("/review/attempts", "AR-SESSION-2");
        }
    }
    if k > 0 {
        c.cite("/review/consecutive_failures", "AR-SESSION-3");
    }
    // The mode the call arrives with is the one an earlier item wrote (AR-SESSION-2).
    if let Some(by) = state.mode_by {
        c.cite_first("/sandbox/before", "AR-SESSION-2");
        c.cite_first("/sandbox/before", by);
    }
    // The count this call leaves rests first on the one an earlier call left where the call does
    // not set it afresh: it made no review (the count stays), or its review failed and the failure
    // counts (one more). A decision sets it to 0 whatever it was, and a failure a signal produced
    // leaves it where it was because it is not counted (AR-CANCEL-6): the counting rule decides
    // those.
    let on_the_carried_count = match review.map(|r| (&r.settlement, r.signal_ended)) {
        None => true,
        Some((super::review::Settlement::Failed(_), signal_ended)) => !signal_ended,
        Some(_) => false,
    };
    if carried && on_the_carried_count {
        c.cite_first("/review/consecutive_failures", "AR-SESSION-3");
    }
    if !state.installed && state.preset == Preset::Auto {
        c.lead("AR-DISPOSE-4");
    }
}

/// Decides a session scenario under a profile.
pub fn decide_session(s: &SessionScenario, profile: Profile) -> SessionOutcome {
    SessionOutcome {
        id: s.id.clone(),
        calls: walk(s, profile)
            .into_iter()
            .map(|step| step.outcome)
            .collect(),
    }
}

/// One item of a session as the gate met it.
#[derive(Debug, Clone)]
pub struct Step {
    /// The state the items before it left.
    pub before: State,
    /// What the item came to.
    pub outcome: ItemOutcome,
    /// For a call the gate reviewed, its review.
    pub review: Option<Review>,
}

/// Decides a session item by item (AR-SESSION-1), keeping the state before each item and the
/// review of each call: what the reach accounting reads a session's carried states from.
pub fn walk(s: &SessionScenario, profile: Profile) -> Vec<Step> {
    let mut state = State::start(s, profile);
    // Whether the failure count is the one a call left (AR-SESSION-3), not the session's first
    // or one an event set.
    let mut carried = false;
    s.calls
        .iter()
        .enumerate()
        .map(|(k, item)| {
            let before = state.clone();
            match item {
                Item::Call(call) => {
                    let (mut outcome, review) =
                        super::decide_keeping_review(&state.scenario_for(s, call), profile);
                    cite_call(&mut outcome.citations, &state, k, carried, review.as_ref());
                    // The mode the call left is the next call's (AR-SESSION-2); a call without an
                    // agent has no session, and leaves it as it was. A body that ran and selected
                    // another preset wrote its bundle (AR-RESULT-7): its preset, policy and mode.
                    let left = body::left_to(&call.body).filter(|_| outcome.result.executed);
                    if call.agent && outcome.sandbox.after != state.mode {
                        state.mode_by = Some(match outcome.sandbox.after {
                            _ if left.is_some() => "AR-RESULT-7",
                            SandboxMode::WorkspaceWrite => "AR-CONFINE-1",
                            SandboxMode::DangerFullAccess => "AR-DISPOSE-1",
                        });
                        state.mode = outcome.sandbox.after;
                    }
                    // AR-SESSION-3: the count the call left is the next call's count.
                    if let Some(n) = outcome.review.consecutive_failures {
                        state.consecutive_failures = n;
                        carried = true;
                    }
                    if call.abort.is_lifecycle() {
                        state.dispose(s.session.listed);
                        state.disposed_in_a_call = true;
                        carried = false;
                    }
                    // After any disposal during the call: every lifecycle point comes before
                    // the body.
                    state.select_from_body(left);
                    Step {
                        before,
                        outcome: ItemOutcome::Call(Box::new(outcome)),
                        review,
                    }
                }
                Item::Event(e) => {
                    let outcome = state.apply(e, s.session.listed);
                    // Disposal and installation set the count to 0 (AR-RES-HINT-4).
                    carried &= e.event == EventKind::SelectAuto;
                    Step {
                        before,
                        outcome: ItemOutcome::Event(outcome),
                        review: None,
                    }
                }
            }
        })
        .collect()
}

impl State {
    /// AR-RESULT-7: the preset a call's body that ran selected (`left`, [`body::left_to`]), written
    /// with its bundle — its policy and its mode — for the items after it.
    pub fn select_from_body(&mut self, left: Option<crate::scenario::LeftPreset>) {
        let Some(p) = left else { return };
        self.preset = p.preset();
        self.policy.override_ = Some(p.policy());
        self.preset_by = Some("AR-RESULT-7");
        self.disposed_in_a_call = false;
        if self.mode != p.mode() {
            (self.mode, self.mode_by) = (p.mode(), Some("AR-RESULT-7"));
        }
    }

    /// What a lifecycle event does to the session (`listed`: whether disposal finds it in the
    /// session list), and what it reports.
    pub fn apply(&mut self, e: &Event, listed: bool) -> EventOutcome {
        apply(self, e, listed)
    }
}

fn apply(state: &mut State, e: &Event, listed: bool) -> EventOutcome {
    let (error, by) = match e.event {
        EventKind::Dispose => {
            state.dispose(listed);
            if e.reselect {
                // Admission closed first, so a selection during disposal is refused.
                (Some(messages::ERR_CLOSING.text()), "AR-DISPOSE-5")
            } else {
                (None, "AR-DISPOSE-1")
            }
        }
        EventKind::Install => {
            // Auto is available again; a session disposal moved stays where it is. That it is
            // still out of Auto now rests on this installation, which does not move it back; a
            // session disposal left in Auto is reviewed again as disposal left it.
            state.installed = true;
            if state.preset_by == Some("AR-DISPOSE-1") && state.preset != Preset::Auto {
                state.preset_by = Some("AR-INSTALL-1");
                state.disposed_in_a_call = false;
            }
            state.consecutive_failures = 0;
            (None, "AR-INSTALL-1")
        }
        EventKind::SelectAuto if !state.installed => (
            // The preset is gone with its integration.
            Some(messages::ERR_NO_AUTO.fill(&[(
                "message",
                &Text::implementation_defined(messages::reference::NO_AUTO),
            )])),
            "AR-DISPOSE-4",
        ),
        EventKind::SelectAuto => {
            // Selecting Auto writes the preset, and the policy `ask` where the session's policy
            // is not `ask` already (a knob is written only when it changes).
            state.preset = Preset::Auto;
            state.preset_by = Some("AR-SCOPE-5");
            // AR-SCOPE-5: the mode of Auto, full access; a profile that confines writes the
            // confined mode on a backend that confines reads (AR-CONFINE-5).
            let confined = state.confinement && state.confines_reads;
            let (mode, by) = match confined {
                true => (SandboxMode::WorkspaceWrite, "AR-CONFINE-5"),
                false => (SandboxMode::DangerFullAccess, "AR-SCOPE-5"),
            };
            if mode != state.mode {
                (state.mode, state.mode_by) = (mode, Some(by));
            }
            state.disposed_in_a_call = false;
            if state.policy.effective() != ApprovalPolicy::Ask {
                state.policy.override_ = Some(ApprovalPolicy::Ask);
            }
            (None, by)
        }
        EventKind::Backend => {
            // The backend's fact, for the calls after it (AR-SESSION-2); the gate reads it as
            // each call arrives (AR-CONFINE-1).
            state.confines_reads = e.confines_reads.unwrap_or(state.confines_reads);
            (
                None,
                if state.confinement {
                    "AR-CONFINE-1"
                } else {
                    "AR-SESSION-2"
                },
            )
        }
    };
    let mut citations = crate::outcome::Citations::default();
    citations.cite_all("", &["AR-SESSION-1", by]);
    citations.cite_all("/event", &["AR-SESSION-1"]);
    citations.cite_all("/error", &[by, "AR-MSG-5"]);
    if let Some(t) = &error {
        citations.cite_all("/error", &t.cited);
    }
    let mut prefix_only = BTreeMap::new();
    if let Some(Text {
        prefix: Some(p), ..
    }) = &error
    {
        prefix_only.insert("/error".to_owned(), *p);
    }
    EventOutcome {
        event: e.event,
        error: error.map(|t| t.text),
        prefix_only,
        citations,
    }
}
