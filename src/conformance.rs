//! Conformance levels (`spec/protocol.md`, "Conformance levels"): nested classes of what a
//! comparison with the reference holds an implementation to. Each level compares every member
//! the level below it compares, and more: `effects` what the world and the human experience,
//! `decisions` the decisions behind them, `texts` every text a model or a person sees, `full`
//! everything the outcome records.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::runner::compare::Difference;

/// A conformance level, weakest first.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Whether the call settled, whether its body ran, whether a human was prompted and what
    /// was answered, and the order of review, downstream, prompt and body.
    Effects,
    /// Also the listener's decision kind, the tool result's kind, the number of reviewer
    /// requests and their routes.
    Decisions,
    /// Also every text a model or a person sees.
    Texts,
    /// Everything the outcome records: also info, failure classes and messages, the request
    /// observables and the failure count.
    #[default]
    Full,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Effects, Level::Decisions, Level::Texts, Level::Full];

    /// The level's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Effects => "effects",
            Level::Decisions => "decisions",
            Level::Texts => "texts",
            Level::Full => "full",
        }
    }

    /// What the level compares, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            Level::Effects => {
                "whether the call settled, the body ran, a human was prompted and what was \
                 answered, and the order of review, downstream, prompt and body"
            }
            Level::Decisions => {
                "effects, and the decision kinds, the tool result's kind, the number of reviewer \
                 requests and their routes"
            }
            Level::Texts => "decisions, and every text a model or a person sees",
            Level::Full => {
                "texts, and info, failure classes and messages, the request observables and the \
                 failure count"
            }
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The weakest level at which `d` is a difference: a run at that level or above fails on it.
pub fn level_of(d: &Difference) -> Level {
    let inner = match d.pointer.strip_prefix("/calls/") {
        Some(rest) => match rest.find('/') {
            Some(i) => &rest[i..],
            // A missing, extra or other kind of item.
            None => return Level::Effects,
        },
        None => d.pointer.as_str(),
    };
    let under = |p: &str| inner == p || inner.starts_with(&format!("{p}/"));
    if under("/settled")
        || under("/result/executed")
        || under("/approval/prompted")
        || under("/approval/answer")
        || inner == "/event"
    {
        Level::Effects
    } else if inner == "/error" {
        if d.expected.is_null() || d.actual.is_null() {
            Level::Effects
        } else {
            Level::Texts
        }
    } else if under("/listener/reason")
        || under("/listener/display_reason")
        || under("/approval/reason")
        || under("/approval/display_reason")
        || under("/result/text") && !d.expected.is_null() && !d.actual.is_null()
    {
        Level::Texts
    } else if under("/listener/info")
        || under("/result/info")
        || under("/review/failure")
        || under("/review/requests")
        || under("/review/consecutive_failures")
    {
        Level::Full
    } else {
        Level::Decisions
    }
}
