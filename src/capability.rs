//! Observables and capabilities (`spec/protocol.md`, "Protocol 2 and observables" and
//! "Capabilities"): what an implementation can observe and set up beyond protocol 1, what its
//! framework can express, and what deciding an input takes of both. One set type,
//! [`Capabilities`], holds what an implementation has and what an input needs; a case that needs
//! what the implementation does not have is not applicable to it, never a pass.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::outcome::{Decision, InputOutcome, ItemOutcome, Outcome};
use crate::scenario::session::{EventKind, Input, Item};
use crate::scenario::{AbortPoint, Attempt, DEFAULT_SESSION_ID, LogFact, Scenario, Session};

/// One thing an adapter can observe and set up beyond protocol 1, as its `hello` names it
/// (`spec/protocol.md`, "Protocol 2 and observables").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Observable {
    /// Session scenarios (AR-SESSION-1).
    Sessions,
    /// Each reviewer request, as `review.requests` (AR-REVIEW-12).
    Requests,
    /// The session-log facts and the header's working directory (AR-REVIEW-10, AR-REVIEW-11).
    SessionLog,
    /// A configured reviewer temperature, `config.temperature` (AR-REVIEW-3, AR-RES-CONFIG-1),
    /// which requests show.
    Temperature,
    /// A reviewer stream that ends without a terminal finish, `"finish": null` (AR-PARSE-1,
    /// AR-TOL-1): a fake model that can leave the finish out.
    UnfinishedStream,
    /// A session's sandbox and its backend, `session.sandbox` (AR-CONFINE-1..4), and the mode
    /// each call ran under, as `sandbox`.
    Confinement,
    /// The approval requests a call's body raises, `body` (AR-APPROVAL-7, AR-APPROVAL-8), and who
    /// answered each, as `body_approvals`.
    BodyApprovals,
    /// A configured reviewer JSON retry limit, `config.max_json_retries` (AR-JSON-RETRY-1).
    JsonRetries,
}

impl Observable {
    /// Every observable, in the order reports name them.
    pub const ALL: [Observable; 8] = [
        Observable::Sessions,
        Observable::Requests,
        Observable::SessionLog,
        Observable::Temperature,
        Observable::UnfinishedStream,
        Observable::Confinement,
        Observable::BodyApprovals,
        Observable::JsonRetries,
    ];

    /// The name a `hello` gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            Observable::Sessions => "sessions",
            Observable::Requests => "requests",
            Observable::SessionLog => "session-log",
            Observable::Temperature => "temperature",
            Observable::UnfinishedStream => "unfinished-stream",
            Observable::Confinement => "confinement",
            Observable::BodyApprovals => "body-approvals",
            Observable::JsonRetries => "json-retries",
        }
    }
}

impl std::fmt::Display for Observable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One thing a gate's framework may be unable to express.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Capability {
    /// A reason given with a denial, which the model reads after `Error: ` (AR-CONV-4): a gate
    /// whose hook answers only yes or no lacks it.
    DenyReason,
    /// A reason given with an approval request, for the audit and the human (AR-CONV-4).
    AskReason,
    /// The caller's abort signal reaching the gate (AR-CANCEL-1, AR-CANCEL-5).
    AbortSignal,
}

impl Capability {
    /// Every capability, in the order reports name them.
    pub const ALL: [Capability; 3] = [
        Capability::DenyReason,
        Capability::AskReason,
        Capability::AbortSignal,
    ];

    /// The name a `hello` gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            Capability::DenyReason => "deny-reason",
            Capability::AskReason => "ask-reason",
            Capability::AbortSignal => "abort-signal",
        }
    }
}

impl std::fmt::Display for Capability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of observables and capabilities: what an implementation has, or what deciding an input
/// takes. An adapter has the observables its `hello` lists under `observes` and every capability
/// but those it lists under `lacks`; the reference engine has everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Capabilities(u32);

/// How many observables there are: the capabilities' bits come after theirs.
const OBSERVABLES: u32 = Observable::ALL.len() as u32;

/// How many needs a set can hold: every observable and every capability, one bit each.
const NEEDS: u32 = OBSERVABLES + Capability::ALL.len() as u32;

// A set holds one bit for each need.
const _: () = assert!(NEEDS <= u32::BITS, "a set of needs is a u32");

/// The bits of every observable.
const OBSERVABLE_BITS: u32 = (1 << OBSERVABLES) - 1;

impl Capabilities {
    /// Nothing: what an input needs when protocol 1 and any framework can decide it.
    pub const NONE: Capabilities = Capabilities(0);

    /// Everything: the reference engine.
    pub const ALL: Capabilities = Capabilities((1 << NEEDS) - 1);

    /// A protocol-1 adapter's: no observable, every capability.
    pub const PROTOCOL_1: Capabilities = Capabilities(Capabilities::ALL.0 & !OBSERVABLE_BITS);

    /// What an adapter's `hello` says it has: the observables under `observes` and every
    /// capability not under `lacks`. Both lists belong to protocol 2 (absent: none) and hold only
    /// names this runner knows; the error says what to change.
    pub fn from_hello(
        protocol: u32,
        observes: Option<&[String]>,
        lacks: Option<&[String]>,
    ) -> Result<Capabilities, String> {
        let mut has = Capabilities::PROTOCOL_1;
        for (member, names) in [("observes", observes), ("lacks", lacks)] {
            let Some(names) = names else { continue };
            if protocol < 2 {
                return Err(format!(
                    "its hello lists `{member}` with protocol {protocol}; `{member}` belongs to protocol 2: answer `\"protocol\": 2`, or leave `{member}` out"
                ));
            }
            for name in names {
                match (member, Need::named(name)) {
                    ("observes", Some(n @ Need::Observable(_))) => has = has.with(n),
                    ("lacks", Some(n @ Need::Capability(_))) => has = has.without(n),
                    ("observes", known) => {
                        let what = match known {
                            Some(_) => {
                                "which is a capability (a hello lists what its framework cannot express under `lacks`)"
                            }
                            None => "which this runner does not know",
                        };
                        return Err(format!(
                            "its hello observes {name:?}, {what}: the observables are {}",
                            Observable::ALL.map(|o| format!("\"{o}\"")).join(", ")
                        ));
                    }
                    (_, known) => {
                        let what = match known {
                            Some(_) => {
                                "which is an observable (a hello lists what it observes under `observes`)"
                            }
                            None => "which this runner does not know",
                        };
                        return Err(format!(
                            "its hello lacks {name:?}, {what}: the capabilities are {}",
                            Capability::ALL.map(|c| format!("\"{c}\"")).join(", ")
                        ));
                    }
                }
            }
        }
        Ok(has)
    }

    /// The set of `needs`.
    pub fn of(needs: &[Need]) -> Capabilities {
        needs.iter().fold(Capabilities::NONE, |set, n| set.with(*n))
    }

    /// This set and `n`.
    pub fn with(self, n: Need) -> Capabilities {
        Capabilities(self.0 | n.bit())
    }

    /// This set without `n`.
    pub fn without(self, n: Need) -> Capabilities {
        Capabilities(self.0 & !n.bit())
    }

    /// Both sets.
    pub fn union(self, other: Capabilities) -> Capabilities {
        Capabilities(self.0 | other.0)
    }

    /// Whether `n` is in the set.
    pub fn has(self, n: Need) -> bool {
        self.0 & n.bit() != 0
    }

    /// Whether the set holds the observable `o`.
    pub fn observes(self, o: Observable) -> bool {
        self.has(Need::Observable(o))
    }

    /// Whether some capability is missing from the set: what a framework lacks is told by the
    /// reference's outcome of each input, so only then must it be decided to know.
    pub fn lacks_any(self) -> bool {
        Capability::ALL
            .into_iter()
            .any(|c| !self.has(Need::Capability(c)))
    }

    /// The observables in the set, in [`Observable::ALL`] order.
    pub fn observed(self) -> Vec<Observable> {
        Observable::ALL
            .into_iter()
            .filter(|o| self.observes(*o))
            .collect()
    }

    /// The capabilities missing from the set (what a `hello` lists under `lacks`), in
    /// [`Capability::ALL`] order.
    pub fn lacked(self) -> Vec<Capability> {
        Capability::ALL
            .into_iter()
            .filter(|c| !self.has(Need::Capability(*c)))
            .collect()
    }

    /// What of `needs` this set does not have, observables first; empty when an input needing
    /// `needs` applies.
    pub fn missing(self, needs: Capabilities) -> Vec<Need> {
        Need::all()
            .filter(|n| needs.has(*n) && !self.has(*n))
            .collect()
    }

    /// The observables deciding `input` takes beyond protocol 1: a session (`sessions`), a log
    /// fact or a header without a working directory (`session-log`), a session id other than the
    /// default, which only requests show (`requests`), a temperature other than the default, to
    /// set up and to see in the requests (`temperature`, `requests`), a reviewer stream without a
    /// terminal finish (`unfinished-stream`), a sandbox other than the default (`confinement`), a
    /// body that does something (`body-approvals`), a JSON retry limit other than the default
    /// (`json-retries`).
    pub fn needed_by(input: &Input) -> Capabilities {
        fn session(s: &Session) -> Capabilities {
            let mut needs = Capabilities::NONE;
            if !s.sandbox.is_default() {
                needs = needs.with(Need::Observable(Observable::Confinement));
            }
            if !s.working_directory {
                needs = needs.with(Need::Observable(Observable::SessionLog));
            }
            if s.id != DEFAULT_SESSION_ID {
                needs = needs.with(Need::Observable(Observable::Requests));
            }
            needs
        }
        let log = |c: &Scenario| {
            let mut needs = match c.log.is_consistent() {
                true => Capabilities::NONE,
                false => Capabilities::of(&[Need::Observable(Observable::SessionLog)]),
            };
            if !c.config.temperature.is_default() {
                needs = needs
                    .with(Need::Observable(Observable::Temperature))
                    .with(Need::Observable(Observable::Requests));
            }
            if c.reviewer.attempts().iter().any(Attempt::unfinished) {
                needs = needs.with(Need::Observable(Observable::UnfinishedStream));
            }
            if !c.body.is_empty() {
                needs = needs.with(Need::Observable(Observable::BodyApprovals));
            }
            if c.config.max_json_retries != crate::scenario::Config::default().max_json_retries {
                needs = needs.with(Need::Observable(Observable::JsonRetries));
            }
            needs
        };
        match input {
            Input::One(s) => session(&s.session).union(log(s)),
            Input::Session(s) => s.calls.iter().fold(
                session(&s.session).with(Need::Observable(Observable::Sessions)),
                |needs, item| match item {
                    Item::Call(c) => needs.union(log(c)),
                    Item::Event(e) if e.event == EventKind::Backend => {
                        needs.with(Need::Observable(Observable::Confinement))
                    }
                    Item::Event(_) => needs,
                },
            ),
        }
    }

    /// The capabilities deciding `input` takes, given the reference's outcome of it: a denial
    /// (`deny-reason`), an approval request with a reason (`ask-reason`), a call the caller
    /// aborts (`abort-signal`). A lifecycle abort is the integration's own doing and needs
    /// nothing.
    pub fn shown_by(input: &Input, reference: &InputOutcome) -> Capabilities {
        let calls = match input {
            Input::One(s) => by_call(s),
            Input::Session(s) => s
                .calls
                .iter()
                .fold(Capabilities::NONE, |n, item| match item {
                    Item::Call(c) => n.union(by_call(c)),
                    _ => n,
                }),
        };
        let outcomes = match reference {
            InputOutcome::One(o) => by_outcome(o),
            InputOutcome::Session(s) => {
                s.calls
                    .iter()
                    .fold(Capabilities::NONE, |n, item| match item {
                        ItemOutcome::Call(o) => n.union(by_outcome(o)),
                        _ => n,
                    })
            }
        };
        calls.union(outcomes)
    }

    /// The input without the members an implementation with this set cannot set up, in the
    /// session and in every call: a consistent log and a header with a working directory without
    /// `session-log`, the default session id (which only requests show) without `requests`, the
    /// default temperature without `temperature`, a stream that stops normally without
    /// `unfinished-stream`, the default sandbox and no backend event without `confinement`, a body
    /// that does nothing without `body-approvals`, the default JSON retry limit without
    /// `json-retries`. The
    /// generator draws through
    /// it, so that nobody is judged on what they cannot express.
    pub fn restrict(self, mut input: Input) -> Input {
        let session = |s: &mut Session| {
            if !self.observes(Observable::Confinement) {
                s.sandbox = Default::default();
            }
            if !self.observes(Observable::SessionLog) {
                s.working_directory = true;
            }
            if !self.observes(Observable::Requests) {
                s.id = DEFAULT_SESSION_ID.to_owned();
            }
        };
        let call = |c: &mut Scenario| {
            session(&mut c.session);
            if !self.observes(Observable::SessionLog) {
                c.log = LogFact::Consistent;
            }
            if !self.observes(Observable::Temperature) {
                c.config.temperature = Default::default();
            }
            if !self.observes(Observable::UnfinishedStream) {
                for a in c.reviewer.attempts_mut() {
                    if let Attempt::Blocks { finish, .. } = a
                        && finish.is_none()
                    {
                        *finish = Some("stop".to_owned());
                    }
                }
            }
            if !self.observes(Observable::BodyApprovals) {
                c.body.clear();
            }
            if !self.observes(Observable::JsonRetries) {
                c.config.max_json_retries = crate::scenario::Config::default().max_json_retries;
            }
        };
        match &mut input {
            Input::One(s) => call(s),
            Input::Session(s) => {
                session(&mut s.session);
                if !self.observes(Observable::Confinement) {
                    s.calls.retain(
                        |item| !matches!(item, Item::Event(e) if e.event == EventKind::Backend),
                    );
                }
                for item in &mut s.calls {
                    if let Item::Call(c) = item {
                        call(c);
                    }
                }
            }
        }
        input
    }
}

/// What setting up the call takes: the caller's abort signal (AR-CANCEL-1, AR-CANCEL-5).
fn by_call(s: &Scenario) -> Capabilities {
    match s.abort {
        AbortPoint::CallerBeforeDispatch | AbortPoint::CallerDuringReview => {
            Capabilities::of(&[Need::Capability(Capability::AbortSignal)])
        }
        _ => Capabilities::NONE,
    }
}

/// What the gate's decision in the reference's outcome takes: a reason with a denial, or with an
/// approval request (AR-CONV-4).
fn by_outcome(o: &Outcome) -> Capabilities {
    match &o.listener {
        Some(Decision::Deny { .. }) => {
            Capabilities::of(&[Need::Capability(Capability::DenyReason)])
        }
        Some(Decision::Ask {
            reason,
            display_reason,
        }) if reason.is_some() || display_reason.is_some() => {
            Capabilities::of(&[Need::Capability(Capability::AskReason)])
        }
        _ => Capabilities::NONE,
    }
}

/// What a not-applicable case needs and the implementation does not have: an observable it does
/// not observe, or a capability its framework lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Need {
    /// An observable beyond protocol 1 (`observes`).
    Observable(Observable),
    /// A capability (`lacks`).
    Capability(Capability),
}

impl Need {
    /// Every observable, then every capability.
    pub fn all() -> impl Iterator<Item = Need> {
        Observable::ALL
            .into_iter()
            .map(Need::Observable)
            .chain(Capability::ALL.into_iter().map(Need::Capability))
    }

    /// The observable or capability a `hello` names `name`.
    pub fn named(name: &str) -> Option<Need> {
        Need::all().find(|n| n.as_str() == name)
    }

    /// Its place in a [`Capabilities`] set: the observables' bits first, in [`Observable::ALL`]
    /// order, then the capabilities'.
    fn bit(self) -> u32 {
        match self {
            Need::Observable(o) => 1 << o as u32,
            Need::Capability(c) => 1 << (OBSERVABLES + c as u32),
        }
    }

    /// Its name in a `hello`.
    pub fn as_str(self) -> &'static str {
        match self {
            Need::Observable(o) => o.as_str(),
            Need::Capability(c) => c.as_str(),
        }
    }
}

impl std::fmt::Display for Need {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Need {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_hello_names_known_observables_and_capabilities_only_under_protocol_2() {
        assert_eq!(
            Capabilities::from_hello(2, None, None),
            Ok(Capabilities::PROTOCOL_1)
        );
        let lacks = names(&["abort-signal", "deny-reason"]);
        let has = Capabilities::from_hello(2, Some(&names(&["requests"])), Some(&lacks)).unwrap();
        assert_eq!(has.observed(), vec![Observable::Requests]);
        assert_eq!(
            has.lacked(),
            vec![Capability::DenyReason, Capability::AbortSignal]
        );
        let unknown = Capabilities::from_hello(2, None, Some(&names(&["telepathy"]))).unwrap_err();
        assert!(unknown.contains("\"telepathy\"") && unknown.contains("\"ask-reason\""));
        // A capability's name under `observes` is refused there, saying where it belongs.
        let misplaced =
            Capabilities::from_hello(2, Some(&names(&["deny-reason"])), None).unwrap_err();
        assert!(misplaced.contains("\"session-log\""), "{misplaced}");
        assert!(
            misplaced.contains("which is a capability (a hello lists"),
            "{misplaced}"
        );
        for (observes, lacks) in [(Some(names(&[])), None), (None, Some(names(&[])))] {
            let v1 =
                Capabilities::from_hello(1, observes.as_deref(), lacks.as_deref()).unwrap_err();
            assert!(v1.contains("protocol 1"), "{v1}");
        }
    }

    /// Each observable and capability has a bit of its own, in the order of their lists, and the
    /// named sets are made of them: everything, and a protocol-1 adapter's (every capability, no
    /// observable). A new observable or capability needs nothing but its place in its list.
    #[test]
    fn each_need_has_a_bit_of_its_own() {
        let all: Vec<Need> = Need::all().collect();
        assert_eq!(all.len(), NEEDS as usize);
        let bits: std::collections::BTreeSet<u32> = all.iter().map(|n| n.bit()).collect();
        assert_eq!(bits.len(), all.len(), "two needs share a bit");
        assert_eq!(Capabilities::of(&all), Capabilities::ALL);
        for n in all {
            assert!(Capabilities::ALL.has(n), "{n}");
            assert_eq!(
                Capabilities::PROTOCOL_1.has(n),
                matches!(n, Need::Capability(_)),
                "{n}"
            );
            assert_eq!(Need::named(n.as_str()), Some(n));
        }
    }

    #[test]
    fn missing_is_what_is_needed_and_not_had_observables_first() {
        let has = Capabilities::ALL
            .without(Need::Capability(Capability::AskReason))
            .without(Need::Observable(Observable::Sessions));
        let needs = Capabilities::of(&[
            Need::Capability(Capability::AskReason),
            Need::Capability(Capability::AbortSignal),
            Need::Observable(Observable::Sessions),
        ]);
        assert_eq!(
            has.missing(needs),
            vec![
                Need::Observable(Observable::Sessions),
                Need::Capability(Capability::AskReason)
            ]
        );
        assert!(Capabilities::ALL.missing(needs).is_empty());
        assert!(has.lacks_any() && !Capabilities::PROTOCOL_1.lacks_any());
        assert!(Capabilities::PROTOCOL_1.observed().is_empty());
        assert_eq!(Capabilities::ALL.observed(), Observable::ALL.to_vec());
    }
}
