//! The conformance runner: runs fixed cases against an implementation and judges each outcome
//! against the case's expectation. Implementations are seen only through [`Implementation`], so
//! the in-process reference and (later) external processes are checked the same way.

pub mod report;

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;

use crate::cases::{Case, Expectation, matches_partial};
use crate::outcome::Outcome;
use crate::profile::Profile;
use crate::scenario::Scenario;

/// An implementation under test.
pub trait Implementation {
    /// How reports name it.
    fn describe(&self) -> String;
    /// Decides one scenario under a profile.
    fn decide(&mut self, scenario: &Scenario, profile: Profile) -> Result<Outcome, ImplError>;
}

/// An implementation's failure to produce an outcome; never a pass.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ImplError(pub String);

/// The reference engine, in process.
#[derive(Debug, Default, Clone, Copy)]
pub struct Reference;

impl Implementation for Reference {
    fn describe(&self) -> String {
        format!(
            "autoreview {} reference engine (in-process)",
            env!("CARGO_PKG_VERSION")
        )
    }

    fn decide(&mut self, scenario: &Scenario, profile: Profile) -> Result<Outcome, ImplError> {
        Ok(crate::engine::decide(scenario, profile))
    }
}

/// The verdict on one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The outcome met the expectation.
    Pass,
    /// The outcome differs; one line per difference.
    Fail(Vec<String>),
    /// The implementation reported an error instead of an outcome.
    Error(String),
    /// The implementation panicked.
    Panic(String),
}

impl Verdict {
    /// Whether the case passed.
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Pass)
    }
}

/// One case's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseResult {
    /// The case ID.
    pub id: String,
    /// The case's area.
    pub area: String,
    /// The case's title.
    pub title: String,
    /// The verdict.
    pub verdict: Verdict,
}

/// A whole run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The profile checked.
    pub profile: Profile,
    /// The implementation checked.
    pub implementation: String,
    /// Every case's result, in case order.
    pub results: Vec<CaseResult>,
}

impl Report {
    /// Number of passing cases.
    pub fn passed(&self) -> usize {
        self.results.iter().filter(|r| r.verdict.passed()).count()
    }

    /// Number of cases that did not pass.
    pub fn failed(&self) -> usize {
        self.results.len() - self.passed()
    }
}

/// Runs every case; a panic in one case is that case's verdict, not the end of the run.
pub fn run(imp: &mut dyn Implementation, cases: &[Case], profile: Profile) -> Report {
    let results = cases
        .iter()
        .map(|case| {
            let verdict =
                match catch_unwind(AssertUnwindSafe(|| imp.decide(&case.scenario, profile))) {
                    Err(panic) => Verdict::Panic(panic_message(&panic)),
                    Ok(Err(e)) => Verdict::Error(e.0),
                    Ok(Ok(outcome)) => judge(&case.expect, &outcome),
                };
            CaseResult {
                id: case.id.clone(),
                area: case.area.clone(),
                title: case.title.clone(),
                verdict,
            }
        })
        .collect();
    Report {
        profile,
        implementation: imp.describe(),
        results,
    }
}

/// Judges an outcome against a case's expectation.
pub fn judge(expect: &Expectation, outcome: &Outcome) -> Verdict {
    let actual = serde_json::to_value(outcome).unwrap_or(Value::Null);
    match expect {
        Expectation::Exact(want) => {
            let want = serde_json::to_value(want.as_ref()).unwrap_or(Value::Null);
            let mut diffs = Vec::new();
            diff(&want, &actual, &mut String::new(), &mut diffs);
            if diffs.is_empty() {
                Verdict::Pass
            } else {
                Verdict::Fail(diffs)
            }
        }
        Expectation::Partial(want) => match matches_partial(want, &actual) {
            Ok(()) => Verdict::Pass,
            Err(at) => Verdict::Fail(vec![format!(
                "{at}: expected {}, got {}",
                pointer(want, &at).map_or("(absent)".into(), |v| v.to_string()),
                actual
                    .pointer(&at)
                    .map_or("(absent)".into(), |v| v.to_string())
            )]),
        },
    }
}

fn pointer<'v>(v: &'v Value, at: &str) -> Option<&'v Value> {
    if at == "/" { Some(v) } else { v.pointer(at) }
}

/// Every place where two JSON values differ, as `pointer: expected X, got Y` lines.
fn diff(want: &Value, got: &Value, at: &mut String, out: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            let keys: std::collections::BTreeSet<&String> = w.keys().chain(g.keys()).collect();
            for k in keys {
                let len = at.len();
                at.push('/');
                at.push_str(k);
                diff(
                    w.get(k).unwrap_or(&Value::Null),
                    g.get(k).unwrap_or(&Value::Null),
                    at,
                    out,
                );
                at.truncate(len);
            }
        }
        _ if want == got => {}
        _ => out.push(format!(
            "{}: expected {want}, got {got}",
            if at.is_empty() { "/" } else { at.as_str() }
        )),
    }
}

fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_owned()
    }
}
