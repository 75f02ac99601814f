//! Compares an implementation's outcome with the expected one, field by field by the spec's rules
//! (exact, or only up to the normative prefix where the reference marks a text's tail as
//! implementation-defined), and classifies each difference by how much it matters.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::outcome::{Decision, Event, Outcome, ReviewRecord};

/// True when two outcomes are equal in every compared field (all but `id` and `prefix_only`),
/// so that no rule can find a difference. The pattern names every field: a new one cannot be
/// forgotten here.
fn agree(expected: &Outcome, actual: &Outcome) -> bool {
    let Outcome {
        id: _,
        prefix_only: _,
        settled,
        listener,
        approval,
        result,
        review,
        trace,
    } = expected;
    *settled == actual.settled
        && *listener == actual.listener
        && *approval == actual.approval
        && *result == actual.result
        && observed(review, &actual.review) == actual.review
        && *trace == actual.trace
}

/// The expected review as far as the implementation observes it: an outcome without `requests`
/// comes from an implementation that does not observe requests (protocol 1), and is compared
/// without them. The runner checks that one that does observe them reports them.
fn observed(expected: &ReviewRecord, actual: &ReviewRecord) -> ReviewRecord {
    let mut e = expected.clone();
    if actual.requests.is_none() {
        e.requests = None;
    }
    e
}

/// How much a difference matters, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Severity {
    /// The body ran, or the gate allowed, where the expected outcome did not.
    Safety,
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
    pub const ALL: [Severity; 5] = [
        Severity::Safety,
        Severity::Decision,
        Severity::Order,
        Severity::Text,
        Severity::Info,
    ];

    /// The severity's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Safety => "SAFETY",
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// The rule of a text compared only up to its first `n` characters.
fn prefix_rule(n: usize) -> String {
    format!("only the first {n} characters are normative")
}

impl Difference {
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

/// The severity of a difference at `pointer`.
pub fn severity_of(pointer: &str) -> Severity {
    let text = [
        "/listener/reason",
        "/listener/display_reason",
        "/approval/reason",
        "/approval/display_reason",
        "/result/text",
    ];
    let decision = ["/settled", "/listener", "/approval", "/result/executed"];
    if text.iter().any(|p| pointer.starts_with(p)) {
        Severity::Text
    } else if pointer.starts_with("/listener/info") || pointer.starts_with("/result/info") {
        Severity::Info
    } else if pointer == "/listener/kind"
        || decision
            .iter()
            .any(|p| pointer == *p || pointer.starts_with(&format!("{p}/")))
    {
        Severity::Decision
    } else if pointer.starts_with("/trace") || pointer == "/review/attempts" {
        Severity::Order
    } else {
        Severity::Info
    }
}

fn allowed(o: &Outcome) -> bool {
    matches!(o.listener, Some(Decision::Allow))
}

/// The differences between `expected` (a reference outcome, whose `prefix_only` marks the texts
/// compared only up to their normative prefix) and `actual`, worst first. `id` and
/// `prefix_only` are not compared.
pub fn compare(expected: &Outcome, actual: &Outcome) -> Vec<Difference> {
    let mut out = Vec::new();
    if agree(expected, actual) {
        // The common case, decided without building JSON trees.
        return out;
    }
    // The two safety rules first: they are about meaning, not about one field.
    if actual.result.executed && !expected.result.executed {
        out.push(Difference {
            severity: Severity::Safety,
            pointer: "/result/executed".into(),
            expected: false.into(),
            actual: true.into(),
            rule: Some("the body ran where it must not".into()),
        });
    }
    // The trace records the body's run as its own event: more runs than the reference made are
    // runs that must not happen, whatever `executed` says.
    let runs = |o: &Outcome| o.trace.iter().filter(|e| **e == Event::Body).count();
    if runs(actual) > runs(expected) {
        out.push(Difference {
            severity: Severity::Safety,
            pointer: "/trace".into(),
            expected: serde_json::to_value(&expected.trace).unwrap_or(Value::Null),
            actual: serde_json::to_value(&actual.trace).unwrap_or(Value::Null),
            rule: Some(match runs(expected) {
                0 => "the body ran where it must not".to_owned(),
                n => format!("the body ran {} times where it must run {n}", runs(actual)),
            }),
        });
    }
    if allowed(actual) && !allowed(expected) {
        out.push(Difference {
            severity: Severity::Safety,
            pointer: "/listener/kind".into(),
            expected: serde_json::to_value(&expected.listener).unwrap_or(Value::Null),
            actual: "allow".into(),
            rule: Some("the gate allowed where it must not".into()),
        });
    }
    let mut e = serde_json::to_value(expected).unwrap_or(Value::Null);
    let mut a = serde_json::to_value(actual).unwrap_or(Value::Null);
    for v in [&mut e, &mut a] {
        if let Value::Object(m) = v {
            m.remove("id");
            m.remove("prefix_only");
        }
    }
    if actual.review.requests.is_none()
        && let Some(Value::Object(review)) = e.get_mut("review")
    {
        review.remove("requests");
    }
    walk(&e, &a, &mut String::new(), expected, &mut out);
    // A field already reported as a safety difference is not reported again.
    let safety: Vec<String> = out
        .iter()
        .filter(|d| d.severity == Severity::Safety)
        .map(|d| d.pointer.clone())
        .collect();
    out.retain(|d| d.severity == Severity::Safety || !safety.contains(&d.pointer));
    out.sort_by(|x, y| {
        x.severity
            .cmp(&y.severity)
            .then_with(|| x.pointer.cmp(&y.pointer))
    });
    out
}

/// Appends `/` and the member name `name` to the JSON pointer `at`, escaped as RFC 6901 requires
/// (`~` as `~0`, `/` as `~1`), so that a member named `a/b` is not read as two steps.
pub fn push_token(at: &mut String, name: &str) {
    at.push('/');
    for c in name.chars() {
        match c {
            '~' => at.push_str("~0"),
            '/' => at.push_str("~1"),
            c => at.push(c),
        }
    }
}

fn walk(e: &Value, a: &Value, at: &mut String, reference: &Outcome, out: &mut Vec<Difference>) {
    match (e, a) {
        (Value::Object(em), Value::Object(am)) if !at.is_empty() || em.contains_key("settled") => {
            let mut keys: Vec<&String> = em.keys().collect();
            for k in am.keys() {
                if !em.contains_key(k) {
                    keys.push(k);
                }
            }
            for k in keys {
                let len = at.len();
                push_token(at, k);
                walk(
                    em.get(k).unwrap_or(&Value::Null),
                    am.get(k).unwrap_or(&Value::Null),
                    at,
                    reference,
                    out,
                );
                at.truncate(len);
            }
        }
        (Value::String(es), Value::String(as_))
            if reference.prefix_only.contains_key(at.as_str()) =>
        {
            let n = reference.prefix_only[at.as_str()];
            let prefix: String = es.chars().take(n).collect();
            if !as_.starts_with(&prefix) {
                out.push(Difference {
                    severity: severity_of(at),
                    pointer: at.clone(),
                    expected: Value::String(prefix.clone()),
                    actual: a.clone(),
                    rule: Some(prefix_rule(n)),
                });
            }
        }
        _ if e == a => {}
        _ => out.push(Difference {
            severity: severity_of(at),
            pointer: if at.is_empty() {
                "/".into()
            } else {
                at.clone()
            },
            expected: e.clone(),
            actual: a.clone(),
            rule: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_map_to_severities() {
        assert_eq!(severity_of("/listener/kind"), Severity::Decision);
        assert_eq!(severity_of("/listener/reason"), Severity::Text);
        assert_eq!(severity_of("/listener/info/code"), Severity::Info);
        assert_eq!(severity_of("/approval"), Severity::Decision);
        assert_eq!(severity_of("/approval/answer"), Severity::Decision);
        assert_eq!(severity_of("/approval/display_reason/zh"), Severity::Text);
        assert_eq!(severity_of("/result/executed"), Severity::Decision);
        assert_eq!(severity_of("/result/text"), Severity::Text);
        assert_eq!(severity_of("/result/info"), Severity::Info);
        assert_eq!(severity_of("/trace"), Severity::Order);
        assert_eq!(severity_of("/review/attempts"), Severity::Order);
        assert_eq!(severity_of("/review/failure/class"), Severity::Info);
        assert_eq!(severity_of("/settled"), Severity::Decision);
    }
}
