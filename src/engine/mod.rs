//! The reference engine: a pure, deterministic `decide(scenario, profile) -> outcome`. It performs
//! the tool runtime's part of a call (chapters 6 and 8) around the gate's listener (chapters 1–5, 7).
//! No I/O, no clock, no randomness.

pub mod admission;
pub mod approval;
pub mod cancellation;
pub mod compose;
pub mod confinement;
pub mod decision;
pub mod disposal;
pub mod failure_text;
pub mod gate;
pub mod materialize;
pub mod review;
pub mod scope;
pub mod session;

use std::collections::BTreeMap;

use crate::messages::Text;
use crate::outcome::{
    BodyApproval, Citations, Decision, Event, Outcome, ReviewRecord, SandboxRecord, ToolResult,
};
use crate::profile::Profile;
use crate::scenario::{SandboxMode, Scenario};

/// A listener decision with the normative extent of its texts (AR-CONV-3).
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// The decision.
    pub decision: Decision,
    /// Texts of the decision whose tail is implementation-defined, by their path within the
    /// decision (`reason`, `display_reason/en`, ...), with the length of their normative prefix.
    pub prefixes: BTreeMap<&'static str, usize>,
    /// The clauses behind the decision, by JSON pointer within it: `""` for its kind, `/reason`,
    /// `/display_reason/en`, `/info`, ...
    pub cited: Citations,
}

impl Decided {
    /// A decision whose texts are normative in full.
    pub fn exact(decision: Decision) -> Decided {
        Decided {
            decision,
            prefixes: BTreeMap::new(),
            cited: Citations::default(),
        }
    }

    /// The decision, decided under the clause `id`: cited first for its kind and each of its
    /// members.
    pub fn because(mut self, id: &'static str) -> Decided {
        self.cited.lead(id);
        self
    }

    /// The clauses cited for the decision's member at `pointer` (`""` for its kind).
    pub fn clauses(&self, pointer: &str) -> &[&'static str] {
        self.cited.behind(pointer)
    }
}

/// The state of one call while the engine works on it.
pub struct Run<'s> {
    /// The scenario.
    pub s: &'s Scenario,
    /// The profile whose clauses apply.
    pub profile: Profile,
    /// Observable events so far.
    pub trace: Vec<Event>,
    /// Texts whose tail is implementation-defined, by JSON pointer.
    pub prefix_only: BTreeMap<String, usize>,
    /// The clauses behind each member decided so far.
    pub citations: Citations,
    /// The session's sandbox mode now (AR-CONFINE-1).
    pub mode: SandboxMode,
    /// Whether the gate allowed the call after its reviewer allowed and downstream allowed: its
    /// own approval requests are the gate's to answer while it runs (AR-APPROVAL-7).
    pub covered: bool,
    /// The approval requests the body raised, with their answers (AR-RESULT-7).
    pub body_approvals: Vec<BodyApproval>,
}

impl<'s> Run<'s> {
    fn new(s: &'s Scenario, profile: Profile) -> Self {
        Run {
            s,
            profile,
            mode: s.session.sandbox.mode,
            covered: false,
            body_approvals: Vec::new(),
            trace: Vec::new(),
            prefix_only: BTreeMap::new(),
            citations: {
                let mut c = Citations::default();
                c.cite("/trace", "AR-ORDER-1");
                c
            },
        }
    }

    /// Cites the clause `id` for the member at `pointer`.
    pub fn cite(&mut self, pointer: &str, id: &'static str) {
        self.citations.cite(pointer, id);
    }

    /// Records an observable event.
    pub fn event(&mut self, e: Event) {
        self.trace.push(e);
    }

    /// Records that the text at `pointer` is normative only up to its prefix.
    pub fn note_prefix(&mut self, pointer: &str, text: &Text) {
        if let Some(p) = text.prefix {
            self.prefix_only.insert(pointer.to_owned(), p);
        }
    }
}

pub use session::decide_session;

/// Decides whatever a scenario line holds: one call or a session.
pub fn decide_input(
    input: &crate::scenario::session::Input,
    profile: Profile,
) -> crate::outcome::InputOutcome {
    use crate::outcome::InputOutcome;
    use crate::scenario::session::Input;
    match input {
        Input::One(s) => InputOutcome::One(Box::new(decide(s, profile))),
        Input::Session(s) => InputOutcome::Session(decide_session(s, profile)),
    }
}

/// Decides one call under a profile.
pub fn decide(s: &Scenario, profile: Profile) -> Outcome {
    decide_keeping_review(s, profile).0
}

/// [`decide`], also returning the review the gate made, if it made one: a caller that classifies
/// the call (the decision table's features) then need not review it a second time.
pub fn decide_keeping_review(s: &Scenario, profile: Profile) -> (Outcome, Option<review::Review>) {
    let mut run = Run::new(s, profile);
    if cancellation::caller_aborts_before_dispatch(s.abort) {
        // AR-CANCEL-1: nothing runs when the caller aborted before dispatch.
        let review = gate::unreviewed(&run);
        gate::cite_unreviewed(&mut run, &["AR-CANCEL-1"]);
        for member in ["/settled", "/listener", "/approval"] {
            run.cite(member, "AR-CANCEL-1");
        }
        run.citations
            .nest("/result", &compose::cancellation_cited(&["AR-CANCEL-1"]));
        return (
            outcome(run, true, None, None, materialize::aborted(), review),
            None,
        );
    }
    match confinement::confine(s, profile) {
        confinement::Confined::Kept(by) => {
            if let Some(by) = by {
                run.cite("/sandbox", by);
            }
        }
        confinement::Confined::Narrowed => {
            // AR-CONFINE-1: before anything else the gate does for the call.
            run.mode = SandboxMode::WorkspaceWrite;
            run.cite("/sandbox/after", "AR-CONFINE-1");
        }
        confinement::Confined::Rejected(message) => {
            // AR-CONFINE-3: the listener threw; the call ends unreviewed, its body not run.
            let review = gate::unreviewed(&run);
            gate::cite_unreviewed(&mut run, &["AR-CONFINE-3"]);
            for member in ["/settled", "/listener", "/approval", "/result", "/sandbox"] {
                run.cite(member, "AR-CONFINE-3");
            }
            let (result, text) = compose::stage_threw(&message);
            run.citations.cite_all("/result/text", &text.cited);
            return (outcome(run, true, None, None, result, review), None);
        }
    }
    let gate = gate::listen(&mut run);
    // AR-REVIEW-8: the reviewer's risk level appears in no decision and no result.
    if let Some(review::Settlement::Decided(d)) = gate.reviewed.as_ref().map(|r| &r.settlement) {
        for text in ["/listener/reason", "/approval/reason", "/result/text"] {
            run.citations
                .withhold(text, d.risk().as_str(), "AR-REVIEW-8");
        }
    }
    // What ended a review that made the call settle where a request never would have.
    let ended = gate.reviewed.as_ref().and_then(|r| match &r.settlement {
        review::Settlement::Failed(f) => ["AR-RES-RETRY-4", "AR-CANCEL-6"]
            .into_iter()
            .find(|rule| f.by_rule(rule)),
        _ => None,
    });
    let outcome = match gate.decided {
        None => {
            // AR-CANCEL-6: the call stays pending.
            for member in [
                "/settled",
                "/listener",
                "/approval",
                "/result/text",
                "/result/info",
            ] {
                run.cite(member, "AR-CANCEL-6");
            }
            run.citations
                .cite_all("/result/executed", &["AR-CANCEL-6", "AR-CANCEL-7"]);
            outcome(run, false, None, None, ToolResult::pending(), gate.review)
        }
        Some(decided) => {
            run.citations.nest("/listener", &decided.cited);
            let why = decided.clauses("").to_vec();
            // AR-APPROVAL-7: covered from the gate's allow after a reviewer's allow and
            // downstream's (AR-DECIDE-4), not from a pass-through's.
            run.covered = gate.reviewed.is_some() && decided.decision == Decision::Allow;
            run.citations.cite_all("/settled", &why);
            if let Some(rule) = ended {
                run.cite("/settled", rule);
            }
            run.citations.cite_all("/trace", &why);
            let (approval, result) = materialize::materialize(&mut run, &decided);
            outcome(
                run,
                true,
                Some(decided.decision),
                approval,
                result,
                gate.review,
            )
        }
    };
    (outcome, gate.reviewed)
}

fn outcome(
    run: Run<'_>,
    settled: bool,
    listener: Option<Decision>,
    approval: Option<crate::outcome::ApprovalRecord>,
    result: ToolResult,
    review: ReviewRecord,
) -> Outcome {
    // A call without an agent has no session, and so no mode (left out, as full access). A body
    // that selected a preset wrote its mode last: every lifecycle point comes before the body
    // (AR-RESULT-7).
    let body_wrote = result.executed && crate::scenario::body::left_to(&run.s.body).is_some();
    let sandbox = match run.s.agent {
        true => SandboxRecord {
            before: run.s.session.sandbox.mode,
            after: match body_wrote {
                true => run.mode,
                false => disposal::mode_after(run.s, run.profile, run.mode),
            },
        },
        false => SandboxRecord::default(),
    };
    let mut citations = run.citations;
    if run.s.agent && sandbox.after != run.mode {
        citations.cite_first("/sandbox/after", "AR-DISPOSE-1");
    }
    Outcome {
        id: run.s.id.clone(),
        settled,
        listener,
        approval,
        result,
        review,
        trace: run.trace,
        sandbox,
        body_approvals: run.body_approvals,
        prefix_only: run.prefix_only,
        citations,
    }
}
