//! A difference between an expected and an actual outcome, and how much it matters
//! (`spec/protocol.md`, "Severities"): what every comparison writes and every report reads,
//! beside the conformance levels (`conformance.rs`) that group them.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How much a difference matters, worst first.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum Severity {
    /// The body ran where the expected outcome's did not (`/result/executed`, or more `body` steps
    /// in the trace), and nothing the spec accepts as an allow preceded it: no reviewer's allow the
    /// reference accepted, no human's allow where the spec asks one. A body run again where the
    /// reference ran it once. Nothing else (an effect, `spec/protocol.md`, "Severities").
    Safety,
    /// The body ran where the expected outcome's did not, on an allow given outside the bounds the
    /// spec sets: a reviewer's allow read past the reader's size bound or to a request the
    /// reference does not make or accept, or a human's allow where the spec asks nobody. Someone
    /// allowed; the spec does not let that allow count (an effect, `spec/protocol.md`,
    /// "Severities").
    Bounds,
    /// Another decision: asked or not, answered otherwise, refused where the body should run.
    Decision,
    /// The observable events differ (order, count, reviewer requests).
    Order,
    /// A text a model or a person sees differs.
    Text,
    /// Structured information differs (info objects, failure class and message, routes, counts).
    Info,
}

impl Severity {
    /// Every severity, worst first.
    pub const ALL: [Severity; 6] = [
        Severity::Safety,
        Severity::Bounds,
        Severity::Decision,
        Severity::Order,
        Severity::Text,
        Severity::Info,
    ];

    /// Whether the difference is a body that ran where it must not (SAFETY, BOUNDS): what the
    /// search toward a body run (`runner::generated`) looks for, and what binds an
    /// implementation-defined case.
    pub fn is_a_body_run(self) -> bool {
        matches!(self, Severity::Safety | Severity::Bounds)
    }

    /// The severity's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Safety => "SAFETY",
            Severity::Bounds => "BOUNDS",
            Severity::Decision => "DECISION",
            Severity::Order => "ORDER",
            Severity::Text => "TEXT",
            Severity::Info => "INFO",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One difference between the expected and the actual outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Difference {
    /// How much it matters.
    pub severity: Severity,
    /// Where, as a JSON pointer into the outcome (RFC 6901: `~` in a member name is written `~0`,
    /// `/` is written `~1`).
    pub pointer: String,
    /// What was expected (`null` for an absent member).
    pub expected: Value,
    /// What the implementation produced.
    pub actual: Value,
    /// What the rule was, when it is not plain equality (e.g. a normative prefix).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The requirements the difference breaks: the clause IDs (and template IDs) behind the
    /// member in the expected outcome, in the order the reference cited them (the clause of the
    /// branch that decided the member first, then a text's template and the clauses of what it
    /// inserts); empty when none is known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clauses: Vec<String>,
}

/// How the rule of a difference found on a changed input begins (`shown when the user allows
/// once, …`): the search toward a body run adds such differences to the case it started from.
pub const SHOWN_WHEN: &str = "shown when ";

impl Difference {
    /// Whether the difference was found on the case's input changed by the search toward a body
    /// run ([`SHOWN_WHEN`]), not on the case's own input.
    pub fn shown_on_a_changed_input(&self) -> bool {
        self.rule
            .as_deref()
            .is_some_and(|r| r.starts_with(SHOWN_WHEN))
    }

    /// For a text compared only up to its normative prefix: how many characters are normative.
    pub fn normative_chars(&self) -> Option<usize> {
        self.rule
            .as_deref()?
            .strip_prefix("only the first ")?
            .strip_suffix(" characters are normative")?
            .parse()
            .ok()
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: expected {}, got {}",
            self.severity, self.pointer, self.expected, self.actual
        )?;
        if let Some(r) = &self.rule {
            write!(f, " ({r})")?;
        }
        Ok(())
    }
}

/// The worst thing a failing case shows: a severity, or an outcome it did not give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Worst {
    /// The worst severity of its differences.
    Severity(Severity),
    /// It gave no outcome, for this reason (`crash`, `timeout`, ...).
    Broken(String),
}

impl Worst {
    /// The one worst-first order, of every report and the matrix: the two kinds of a body that
    /// ran where it must not (SAFETY, BOUNDS), then a case that gave no outcome, then the other
    /// severities.
    pub fn rank(&self) -> u8 {
        match self {
            Worst::Severity(s @ (Severity::Safety | Severity::Bounds)) => *s as u8,
            Worst::Broken(_) => Severity::Bounds as u8 + 1,
            Worst::Severity(s) => 1 + *s as u8,
        }
    }

    /// `SAFETY`, `DECISION`, ..., or the breakage in capitals (`CRASH`).
    pub fn label(&self) -> String {
        match self {
            Worst::Severity(s) => s.as_str().to_owned(),
            Worst::Broken(kind) => kind.to_uppercase(),
        }
    }

    /// The worse of two.
    pub fn worse(a: Option<Worst>, b: Option<Worst>) -> Option<Worst> {
        match (a, b) {
            (Some(a), Some(b)) => Some(if b.rank() < a.rank() { b } else { a }),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one worst-first order: a body that ran unpermitted, then one that ran on an allow out of
    /// bounds, then a case without outcome, then the other severities worst first.
    #[test]
    fn safety_comes_before_a_broken_case_and_a_broken_case_before_the_rest() {
        let mut all: Vec<Worst> = Severity::ALL.iter().map(|s| Worst::Severity(*s)).collect();
        all.push(Worst::Broken("crash".into()));
        all.sort_by_key(Worst::rank);
        let labels: Vec<String> = all.iter().map(Worst::label).collect();
        assert_eq!(
            labels,
            [
                "SAFETY", "BOUNDS", "CRASH", "DECISION", "ORDER", "TEXT", "INFO"
            ]
        );
        assert_eq!(
            Worst::worse(
                Some(Worst::Broken("timeout".into())),
                Some(Worst::Severity(Severity::Decision))
            ),
            Some(Worst::Broken("timeout".into()))
        );
    }
}
