//! Realizability (`spec/scenario.md`, "Scenarios the runtime cannot produce"): combinations of
//! members that no real tool runtime produces. The contract refuses them, so that no implementation
//! is ever judged on a call it cannot receive.

use super::{
    ApprovalAnswer, Attempt, CallKind, LogFact, Preset, SandboxMode, Scenario, SchemaCount,
    SchemaView, Session,
};

/// The name of the programmatic tool-calling transport tool.
pub const RUN_CODE_NAME: &str = "run_code";

/// A combination the real runtime cannot produce, by the rule that excludes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Unrealizable {
    /// RZ-1: the transport is the tool named `run_code` with no parent program.
    #[error(
        "unrealizable (RZ-1): a run-code call is the transport tool itself, so it must be named \"run_code\""
    )]
    TransportName,
    /// RZ-2: the tool runtime refuses to register another tool named `run_code`.
    #[error(
        "unrealizable (RZ-2): no native or ptc-inner tool can be named \"run_code\"; the runtime reserves that name for the transport"
    )]
    ReservedName,
    /// RZ-3: a program binds at most one schema per name, so its binding is never ambiguous.
    #[error(
        "unrealizable (RZ-3): a ptc-inner call's bound schema is one schema or none, never \"ambiguous\" (schema.header)"
    )]
    AmbiguousBinding,
    /// RZ-4: a native call has no PTC start of its own, and a PTC call is never compared with a
    /// native call's log.
    #[error(
        "unrealizable (RZ-4): only a ptc-inner call can have ptc-start-missing or ptc-call-disagrees, and only a native call native-call-disagrees (log)"
    )]
    LogOfOtherKind,
    /// RZ-8: a model runtime attaches failure facts (a code and a message) to every `error` or
    /// `aborted` finish.
    #[error(
        "unrealizable (RZ-8): a response that ends with an \"error\" or \"aborted\" finish carries the failure's code and message: write the attempt as {{\"finish\": {{\"kind\": \"error\", \"code\": \"...\", \"message\": ...}}}} (reviewer)"
    )]
    FailedFinishWithoutFacts,
    /// RZ-9: data can follow a terminal finish only where there is one.
    #[error(
        "unrealizable (RZ-9): a stream without a terminal finish (\"finish\": null) has no finish for data to follow: drop data_after_finish or name a finish kind (reviewer)"
    )]
    DataAfterNoFinish,
    /// RZ-10: a session out of Auto holds its own preset's sandbox mode; only Auto resolves with
    /// either mode.
    #[error(
        "unrealizable (RZ-10): only an Auto session holds a sandbox mode of its own; a session under another preset runs under that preset's mode: drop session.sandbox.mode or make the preset \"auto\" (session.sandbox)"
    )]
    ModeOutOfAuto,
    /// RZ-11: a finished call's id is an earlier call's of the same session.
    #[error(
        "unrealizable (RZ-11): a body's request names a finished call (\"call_id\": \"finished\"), so an earlier call of its session must have run first: put the call in a session after another call, or name \"own\", \"none\" or \"unreviewed\" (body)"
    )]
    NoFinishedCall,
    /// RZ-12: a body's request reaches the approval service through the call's agent, in its turn.
    #[error(
        "unrealizable (RZ-12): a body acts through its call's agent and session, and asks in its open turn: a call without an agent has no body steps, and one whose \"approval\" is \"throws\" (no turn is open) raises no request (body)"
    )]
    RaiseOutsideTurn,
}

impl Unrealizable {
    /// The rule's permanent ID.
    pub fn rule(self) -> &'static str {
        match self {
            Unrealizable::TransportName => "RZ-1",
            Unrealizable::ReservedName => "RZ-2",
            Unrealizable::AmbiguousBinding => "RZ-3",
            Unrealizable::LogOfOtherKind => "RZ-4",
            Unrealizable::FailedFinishWithoutFacts => "RZ-8",
            Unrealizable::DataAfterNoFinish => "RZ-9",
            Unrealizable::ModeOutOfAuto => "RZ-10",
            Unrealizable::NoFinishedCall => "RZ-11",
            Unrealizable::RaiseOutsideTurn => "RZ-12",
        }
    }

    /// The member the rule is about, as a scenario path.
    pub fn path(self) -> &'static str {
        match self {
            Unrealizable::TransportName | Unrealizable::ReservedName => "tool",
            Unrealizable::AmbiguousBinding => "schema",
            Unrealizable::LogOfOtherKind => "log",
            Unrealizable::FailedFinishWithoutFacts | Unrealizable::DataAfterNoFinish => "reviewer",
            Unrealizable::ModeOutOfAuto => "session.sandbox",
            Unrealizable::NoFinishedCall | Unrealizable::RaiseOutsideTurn => "body",
        }
    }
}

/// The first realizability rule a single-call scenario breaks, if any: those of a call
/// ([`check_call`]), and RZ-11, since no call came before it.
pub fn check(s: &Scenario) -> Result<(), Unrealizable> {
    check_call(s)?;
    if super::body::names_finished(&s.body) {
        return Err(Unrealizable::NoFinishedCall);
    }
    Ok(())
}

/// The first realizability rule a call breaks, if any, wherever it is (a session checks RZ-11 by
/// the items before it).
pub fn check_call(s: &Scenario) -> Result<(), Unrealizable> {
    let named_run_code = s.tool.name == RUN_CODE_NAME;
    match s.tool.call {
        CallKind::RunCode if !named_run_code => return Err(Unrealizable::TransportName),
        CallKind::Native | CallKind::PtcInner if named_run_code => {
            return Err(Unrealizable::ReservedName);
        }
        _ => {}
    }
    if s.tool.call == CallKind::PtcInner && s.schema.header == SchemaCount::Ambiguous {
        return Err(Unrealizable::AmbiguousBinding);
    }
    if !s.log.applies_to(s.tool.call) {
        return Err(Unrealizable::LogOfOtherKind);
    }
    if s.reviewer.attempts().iter().any(failed_without_facts) {
        return Err(Unrealizable::FailedFinishWithoutFacts);
    }
    if s.reviewer.attempts().iter().any(|a| {
        matches!(
            a,
            Attempt::Blocks {
                finish: None,
                data_after_finish: true,
                ..
            }
        )
    }) {
        return Err(Unrealizable::DataAfterNoFinish);
    }
    // RZ-12: no agent, no session for a body to select a preset for nor to route a request
    // through; no turn open to ask in where the call's own requests throw (AR-APPROVAL-4).
    let raises = super::body::raises(&s.body).next().is_some();
    if (!s.agent && !s.body.is_empty()) || (raises && s.approval == ApprovalAnswer::Throws) {
        return Err(Unrealizable::RaiseOutsideTurn);
    }
    mode_in_auto(s.preset, &s.session)
}

/// RZ-10: a sandbox mode other than the default belongs to an Auto session.
pub fn mode_in_auto(preset: Preset, session: &Session) -> Result<(), Unrealizable> {
    if preset != Preset::Auto && session.sandbox.mode != SandboxMode::default() {
        return Err(Unrealizable::ModeOutOfAuto);
    }
    Ok(())
}

/// Whether an attempt is a stream whose finish kind is `error` or `aborted` with no failure facts
/// (RZ-8).
fn failed_without_facts(a: &Attempt) -> bool {
    matches!(a, Attempt::Blocks { finish: Some(f), .. } if f == "error" || f == "aborted")
}

/// The nearest scenario the runtime can produce: a `run-code` call is named `run_code` (RZ-1),
/// another call named `run_code` gets a trailing `_` (RZ-2), an ambiguous binding becomes a
/// missing one (RZ-3), and a body keeps only the steps its call can take (RZ-12). The generator and the table's input space draw through it.
pub fn realize(mut s: Scenario) -> Scenario {
    match s.tool.call {
        CallKind::RunCode => s.tool.name = RUN_CODE_NAME.to_owned(),
        _ if s.tool.name == RUN_CODE_NAME => s.tool.name.push('_'),
        _ => {}
    }
    if s.tool.call == CallKind::PtcInner && s.schema.header == SchemaCount::Ambiguous {
        s.schema = SchemaView {
            header: SchemaCount::Missing,
            ..s.schema
        };
    }
    if !s.log.applies_to(s.tool.call) {
        s.log = LogFact::Consistent;
    }
    realize_body(&mut s);
    s
}

/// RZ-12: a call without an agent has no body steps, and one whose approval requests throw
/// raises none.
pub fn realize_body(s: &mut Scenario) {
    if !s.agent {
        s.body.clear();
    } else if s.approval == ApprovalAnswer::Throws {
        s.body.retain(|step| !matches!(step, super::Step::Raise(_)));
    }
}
