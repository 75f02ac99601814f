//! The lifecycle table (`spec/decision-table/lifecycle.json`): what each lifecycle event of a
//! session does (AR-DISPOSE-1, AR-DISPOSE-4, AR-DISPOSE-5, AR-INSTALL-1, AR-SCOPE-5,
//! AR-RES-HINT-4), restated as rows over the session's state. Data, like the decision tables; a
//! test proves every realizable state and event matches exactly one row and that the engine's
//! transition equals the row's.

use serde::{Deserialize, Serialize};

use super::{Cond, OverrideFeature};
use crate::engine::session::State;
use crate::messages;
use crate::scenario::session::{Event, EventKind};
use crate::scenario::{ApprovalPolicy, Policy, Preset};

/// The committed table.
pub const TEXT: &str = include_str!("../../spec/decision-table/lifecycle.json");

/// The lifecycle table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LifecycleTable {
    /// What the table restates.
    pub about: String,
    /// The rows, in reading order.
    pub rows: Vec<LifecycleRow>,
}

/// One rule for one event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LifecycleRow {
    /// Permanent row ID, `LC-<n>`.
    pub id: String,
    /// The clauses the row restates.
    pub clauses: Vec<String>,
    /// One line saying what the row is about.
    pub title: String,
    /// The event and the state it meets.
    pub when: LifecycleWhen,
    /// What the event reports and leaves.
    pub then: LifecycleThen,
}

/// Conditions on the event and the session's state; absent means any value.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LifecycleWhen {
    /// The event.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub event: Cond<EventKind>,
    /// Whether a `dispose` re-selects Auto while the integration closes.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub reselect: Cond<bool>,
    /// Whether the integration is installed before the event.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub installed: Cond<bool>,
    /// The session's recorded preset.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub preset: Cond<Preset>,
    /// The session's recorded policy override.
    #[serde(rename = "override", default, skip_serializing_if = "Cond::is_any")]
    pub override_: Cond<OverrideFeature>,
    /// The session's effective policy (AR-CONV-5).
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub effective: Cond<ApprovalPolicy>,
    /// Whether disposal finds the session in the session list.
    #[serde(default, skip_serializing_if = "Cond::is_any")]
    pub listed: Cond<bool>,
}

/// A value the event keeps as it was, or sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Keep<T> {
    /// Left as it was (`"kept"`).
    Kept(Kept),
    /// Set to this value.
    Set(T),
}

impl<T> Keep<T> {
    /// The value afterwards, given the value before.
    pub fn after(self, before: T) -> T {
        match self {
            Keep::Kept(_) => before,
            Keep::Set(v) => v,
        }
    }
}

/// The word `kept`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kept {
    /// Left as it was.
    Kept,
}

/// What happens to the failure count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CountForm {
    /// Left as it was.
    Kept,
    /// Back to 0 (AR-RES-HINT-4).
    Reset,
}

/// What an event reports and the state it leaves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LifecycleThen {
    /// The message ID of the error the event reports, or null.
    pub error: Option<String>,
    /// The recorded preset afterwards.
    pub preset: Keep<Preset>,
    /// The policy override afterwards.
    #[serde(rename = "override")]
    pub override_: Keep<OverrideFeature>,
    /// Whether the integration is installed afterwards.
    pub installed: Keep<bool>,
    /// The failure count afterwards.
    pub count: CountForm,
}

/// One point of the lifecycle space: an event and the state it meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// The event.
    pub event: Event,
    /// Whether the integration is installed.
    pub installed: bool,
    /// The recorded preset.
    pub preset: Preset,
    /// The recorded override.
    pub override_: OverrideFeature,
    /// The deployment's default policy.
    pub default: ApprovalPolicy,
    /// Whether the session is listed.
    pub listed: bool,
}

impl LifecycleTable {
    /// The committed table.
    pub fn load() -> Result<LifecycleTable, serde_json::Error> {
        serde_json::from_str(TEXT)
    }

    /// The rows a point matches.
    pub fn matching(&self, p: &Point) -> Vec<&LifecycleRow> {
        self.rows.iter().filter(|r| r.when.matches(p)).collect()
    }
}

impl LifecycleWhen {
    /// Whether the point meets every condition.
    pub fn matches(&self, p: &Point) -> bool {
        self.event.matches(&p.event.event)
            && self.reselect.matches(&p.event.reselect)
            && self.installed.matches(&p.installed)
            && self.preset.matches(&p.preset)
            && self.override_.matches(&p.override_)
            && self.effective.matches(&p.effective())
            && self.listed.matches(&p.listed)
    }
}

/// Every realizable point: a `dispose` only while installed (RZ-5), an `install` only while not
/// (RZ-6), a re-selection only with a `dispose`.
pub fn space() -> Vec<Point> {
    let events = [
        Event::of(EventKind::Dispose),
        Event {
            event: EventKind::Dispose,
            reselect: true,
            confines_reads: None,
        },
        Event::of(EventKind::Install),
        Event::of(EventKind::SelectAuto),
    ];
    let presets = [
        Preset::Auto,
        Preset::DangerFullAccess,
        Preset::WorkspaceWrite,
        Preset::ReadOnly,
    ];
    let overrides = [
        OverrideFeature::None,
        OverrideFeature::Ask,
        OverrideFeature::Never,
    ];
    let mut out = Vec::new();
    for event in events {
        for installed in [true, false] {
            match event.event {
                EventKind::Dispose if !installed => continue,
                EventKind::Install if installed => continue,
                _ => {}
            }
            for preset in presets {
                for override_ in overrides {
                    for default in [ApprovalPolicy::Ask, ApprovalPolicy::Never] {
                        for listed in [true, false] {
                            out.push(Point {
                                event,
                                installed,
                                preset,
                                override_,
                                default,
                                listed,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

impl Point {
    /// The effective policy: the override if recorded, else the default (AR-CONV-5).
    pub fn effective(&self) -> ApprovalPolicy {
        self.policy().effective()
    }

    fn policy(&self) -> Policy {
        Policy {
            override_: match self.override_ {
                OverrideFeature::None => None,
                OverrideFeature::Ask => Some(ApprovalPolicy::Ask),
                OverrideFeature::Never => Some(ApprovalPolicy::Never),
            },
            default: self.default,
        }
    }
}

/// A count the check starts from, so that a reset is visible.
const COUNT_BEFORE: u32 = 4;

/// Why the engine's transition at a point differs from the row's.
pub fn check(row: &LifecycleRow, p: &Point) -> Result<(), String> {
    let mut state = State {
        preset: p.preset,
        policy: p.policy(),
        installed: p.installed,
        consecutive_failures: COUNT_BEFORE,
        preset_by: None,
        disposed_in_a_call: false,
        // The lifecycle table's points hold the default sandbox, which no profile narrows.
        mode: Default::default(),
        confines_reads: false,
        mode_by: None,
        confinement: false,
    };
    let reported = state.apply(&p.event, p.listed);
    let mut problems = Vec::new();
    let error_ok = match (&row.then.error, &reported.error) {
        (None, None) => true,
        (Some(id), Some(text)) => match messages::by_id(id) {
            // A template's text up to its first placeholder is what every deployment shares.
            Some(t) => text.starts_with(t.text.split('<').next().unwrap_or(t.text)),
            None => false,
        },
        _ => false,
    };
    if !error_ok {
        problems.push(format!(
            "error: row says {:?}, the engine reports {:?}",
            row.then.error, reported.error
        ));
    }
    let want_preset = row.then.preset.after(p.preset);
    if state.preset != want_preset {
        problems.push(format!(
            "preset: row {want_preset:?}, engine {:?}",
            state.preset
        ));
    }
    let got_override = OverrideFeature::of(state.policy.override_);
    let want_override = row.then.override_.after(p.override_);
    if got_override != want_override {
        problems.push(format!(
            "override: row {want_override:?}, engine {got_override:?}"
        ));
    }
    let want_installed = row.then.installed.after(p.installed);
    if state.installed != want_installed {
        problems.push(format!(
            "installed: row {want_installed}, engine {}",
            state.installed
        ));
    }
    let want_count = match row.then.count {
        CountForm::Kept => COUNT_BEFORE,
        CountForm::Reset => 0,
    };
    if state.consecutive_failures != want_count {
        problems.push(format!(
            "count: row {want_count}, engine {}",
            state.consecutive_failures
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{} at {p:?}: {}", row.id, problems.join("; ")))
    }
}
