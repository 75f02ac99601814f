//! Capabilities (`spec/protocol.md`, "Capabilities"): what an adapter's framework cannot express,
//! as its `hello` lists under `lacks`, and which cases need what. A case that needs a capability
//! the adapter lacks is not applicable to it, never a pass.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::outcome::{Decision, InputOutcome, ItemOutcome, Outcome};
use crate::protocol::Observable;
use crate::scenario::session::{Input, Item};
use crate::scenario::{AbortPoint, Scenario};

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

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl std::fmt::Display for Capability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The capabilities an implementation lacks; the reference engine and most gates lack none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Lacks(u8);

impl Lacks {
    /// Lacks nothing.
    pub const NONE: Lacks = Lacks(0);

    /// What an adapter's `hello` says it lacks: `lacks` only with protocol 2 (absent: nothing),
    /// and only names this runner knows. The error says what to change.
    pub fn from_hello(protocol: u32, lacks: Option<&[String]>) -> Result<Lacks, String> {
        let Some(names) = lacks else {
            return Ok(Lacks::NONE);
        };
        if protocol < 2 {
            return Err(format!(
                "its hello lists `lacks` with protocol {protocol}; `lacks` belongs to protocol 2: answer `\"protocol\": 2`, or leave `lacks` out"
            ));
        }
        let mut out = Lacks::NONE;
        for name in names {
            match Capability::ALL.iter().find(|c| c.as_str() == name) {
                Some(c) => out.0 |= c.bit(),
                None => {
                    return Err(format!(
                        "its hello lacks {name:?}, which this runner does not know: the capabilities are {}",
                        Capability::ALL.map(|c| format!("\"{c}\"")).join(", ")
                    ));
                }
            }
        }
        Ok(out)
    }

    /// A set of the given capabilities.
    pub fn of(capabilities: &[Capability]) -> Lacks {
        Lacks(capabilities.iter().fold(0, |bits, c| bits | c.bit()))
    }

    /// Whether `c` is lacked.
    pub fn has(self, c: Capability) -> bool {
        self.0 & c.bit() != 0
    }

    /// The capabilities lacked, in [`Capability::ALL`] order.
    pub fn list(self) -> Vec<Capability> {
        Capability::ALL
            .into_iter()
            .filter(|c| self.has(*c))
            .collect()
    }

    /// What of what `needs` asks for is lacked; empty when a case needing `needs` applies.
    pub fn missing(self, needs: Lacks) -> Vec<Capability> {
        Lacks(self.0 & needs.0).list()
    }
}

/// The capabilities deciding `input` takes, given the reference's outcome of it: a denial
/// (`deny-reason`), an approval request with a reason (`ask-reason`), a call the caller aborts
/// (`abort-signal`). A lifecycle abort is the integration's own doing and needs nothing.
pub fn needed_by(input: &Input, reference: &InputOutcome) -> Lacks {
    let mut needs = Lacks::NONE;
    match input {
        Input::One(s) => needs.0 |= by_call(s).0,
        Input::Session(s) => {
            for item in &s.calls {
                if let Item::Call(c) = item {
                    needs.0 |= by_call(c).0;
                }
            }
        }
    }
    match reference {
        InputOutcome::One(o) => needs.0 |= by_outcome(o).0,
        InputOutcome::Session(s) => {
            for item in &s.calls {
                if let ItemOutcome::Call(o) = item {
                    needs.0 |= by_outcome(o).0;
                }
            }
        }
    }
    needs
}

/// What setting up the call takes: the caller's abort signal (AR-CANCEL-1, AR-CANCEL-5).
fn by_call(s: &Scenario) -> Lacks {
    match s.abort {
        AbortPoint::CallerBeforeDispatch | AbortPoint::CallerDuringReview => {
            Lacks::of(&[Capability::AbortSignal])
        }
        _ => Lacks::NONE,
    }
}

/// What the gate's decision in the reference's outcome takes: a reason with a denial, or with an
/// approval request (AR-CONV-4).
fn by_outcome(o: &Outcome) -> Lacks {
    match &o.listener {
        Some(Decision::Deny { .. }) => Lacks::of(&[Capability::DenyReason]),
        Some(Decision::Ask {
            reason,
            display_reason,
        }) if reason.is_some() || display_reason.is_some() => Lacks::of(&[Capability::AskReason]),
        _ => Lacks::NONE,
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

    #[test]
    fn a_hello_names_known_capabilities_only_under_protocol_2() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(Lacks::from_hello(2, None), Ok(Lacks::NONE));
        let both = Lacks::from_hello(2, Some(&names(&["abort-signal", "deny-reason"]))).unwrap();
        assert_eq!(
            both.list(),
            vec![Capability::DenyReason, Capability::AbortSignal]
        );
        let unknown = Lacks::from_hello(2, Some(&names(&["telepathy"]))).unwrap_err();
        assert!(unknown.contains("\"telepathy\"") && unknown.contains("\"ask-reason\""));
        let v1 = Lacks::from_hello(1, Some(&names(&[]))).unwrap_err();
        assert!(v1.contains("protocol 1"), "{v1}");
    }

    #[test]
    fn missing_is_what_is_both_needed_and_lacked() {
        let lacks = Lacks::of(&[Capability::DenyReason, Capability::AskReason]);
        let needs = Lacks::of(&[Capability::AskReason, Capability::AbortSignal]);
        assert_eq!(lacks.missing(needs), vec![Capability::AskReason]);
        assert!(Lacks::NONE.missing(needs).is_empty());
    }
}
