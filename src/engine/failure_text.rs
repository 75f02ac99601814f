//! The rule `failure_text` carries its behaviour (AR-REVIEW-5, AR-RES-NORM-1..4): how a failure
//! message turns a provider's value into text, what it then does with the message, which clauses
//! that rests on, and which numbers of the value the text shows. Every place that renders or
//! predicts a failure text asks the rule here; nothing else matches on its values.

use serde_json::{Number, Value};

use crate::jsstring::js_string;
use crate::messages::Text;
use crate::normalize;
use crate::profile::FailureText;

/// The clauses that turn a provider's value into a resilient failure message (AR-RES-NORM-1..4).
const NORMALIZED: &[&str] = &[
    "AR-RES-NORM-1",
    "AR-RES-NORM-2",
    "AR-RES-NORM-3",
    "AR-RES-NORM-4",
];

impl FailureText {
    /// A provider's value (a failed finish's message, a thrown value) as text: JavaScript's
    /// `String(value)` (AR-REVIEW-5), or made readable (AR-RES-NORM-1).
    pub fn value_text(self, value: &Value) -> String {
        match self {
            FailureText::Javascript => js_string(value),
            FailureText::Normalized => normalize::value_text(value),
        }
    }

    /// A failure message as the rule leaves it: as it stands (AR-REVIEW-5), or normalized and
    /// bounded, its normative prefix (if any) reduced to none (AR-RES-NORM-2..4).
    pub fn message(self, raw: Text) -> Text {
        match self {
            FailureText::Javascript => raw,
            FailureText::Normalized => Text {
                text: normalize::message(&raw.text),
                prefix: raw.prefix.map(|_| 0),
                cited: Vec::new(),
            },
        }
    }

    /// The clauses a message that shows a provider's value rests on, beyond its template.
    pub fn value_clauses(self) -> &'static [&'static str] {
        match self {
            FailureText::Javascript => &[],
            FailureText::Normalized => NORMALIZED,
        }
    }

    /// The clause that fixes how a number of a provider's value is written.
    pub const fn number_clause(self) -> &'static str {
        match self {
            FailureText::Javascript => "AR-REVIEW-5",
            FailureText::Normalized => "AR-RES-NORM-1",
        }
    }

    /// The numbers of `value` the text shows: under `String(value)` a number, or one inside
    /// arrays, as an object is `[object Object]` (AR-REVIEW-5); made readable, every number of
    /// its compact JSON, unless the value is an object whose string `message` member is shown
    /// instead (AR-RES-NORM-1).
    pub fn numbers_shown(self, value: &Value) -> Vec<&Number> {
        fn walk<'v>(v: &'v Value, objects: bool, out: &mut Vec<&'v Number>) {
            match v {
                Value::Number(n) => out.push(n),
                Value::Array(items) => items.iter().for_each(|i| walk(i, objects, out)),
                Value::Object(m) if objects => m.values().for_each(|i| walk(i, objects, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        match self {
            FailureText::Javascript => walk(value, false, &mut out),
            FailureText::Normalized => {
                let message_member = matches!(value, Value::Object(m) if matches!(m.get("message"), Some(Value::String(_))));
                if !message_member {
                    walk(value, true, &mut out);
                }
            }
        }
        out
    }
}
