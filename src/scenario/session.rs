//! Session scenarios (`spec/scenario.md`, "Sessions"): several calls in one session, with the
//! integration's lifecycle events between them, so that what a gate carries from call to call
//! (the failure count, the preset and policy disposal wrote) is observed rather than supplied.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    AbortPoint, Config, Policy, Preset, Scenario, ScenarioError, Session, kind_of, portable,
};

/// A session of calls and lifecycle events, decided in order (AR-SESSION-1).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionScenario {
    /// Free identifier echoed into the outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The session: its id, route and header; `consecutive_failures` is the count before the
    /// first call.
    #[serde(default)]
    pub session: Session,
    /// The gate's configuration (resilient profile).
    #[serde(default)]
    pub config: Config,
    /// The session's preset before the first item. Default `auto`.
    #[serde(default)]
    pub preset: Preset,
    /// The session's approval policy before the first item. Default: no override, default `ask`.
    #[serde(default)]
    pub policy: Policy,
    /// The calls and events, in order; at least one.
    #[schemars(length(min = 1))]
    pub calls: Vec<Item>,
}

/// One item of a session: a call or a lifecycle event.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A call: the members of a single-call scenario except `session`, `config`, `preset` and
    /// `policy`, which are the session's.
    Call(Box<Scenario>),
    /// A lifecycle event.
    Event(Event),
}

impl Serialize for Item {
    /// A call is written without the members that belong to the session, so that what is
    /// written reads back as the same session.
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            Item::Event(e) => e.serialize(ser),
            Item::Call(c) => {
                let mut v = serde_json::to_value(c.as_ref()).map_err(serde::ser::Error::custom)?;
                if let Value::Object(m) = &mut v {
                    for k in SESSION_MEMBERS {
                        m.remove(k);
                    }
                }
                v.serialize(ser)
            }
        }
    }
}

impl JsonSchema for Item {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Item".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let call = generator.subschema_for::<CallItem>();
        let event = generator.subschema_for::<Event>();
        schemars::json_schema!({
            "description": "One item of a session: read as an event when it has an `event` member, as a call otherwise.",
            "anyOf": [call, event]
        })
    }
}

/// The schema of a call item: a single-call scenario's without the members that are the
/// session's, which a call item may not name.
struct CallItem;

impl JsonSchema for CallItem {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Call".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = Scenario::json_schema(generator);
        if let Some(Value::Object(props)) = schema.get_mut("properties") {
            for k in SESSION_MEMBERS {
                props.shift_remove(k);
            }
        }
        schema.insert(
            "description".into(),
            "A call of a session: the members of a single-call scenario except `session`, `config`, `preset` and `policy`, which are the session's."
                .into(),
        );
        schema
    }
}

/// A lifecycle event between calls (AR-DISPOSE-1..5, AR-INSTALL-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// Named apart from the outcome's trace `Event`: one set of names serves every schema.
#[schemars(rename = "LifecycleEvent")]
pub struct Event {
    /// What happens.
    pub event: EventKind,
    /// For `dispose`: something that observes the migration selects Auto again while the
    /// integration closes (AR-DISPOSE-5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reselect: bool,
    /// For `backend`: whether the session's backend confines reads from now on (AR-CONFINE-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confines_reads: Option<bool>,
}

impl Event {
    /// The event `event` with no other member: not a re-selection, no backend fact.
    pub fn of(event: EventKind) -> Event {
        Event {
            event,
            reselect: false,
            confines_reads: None,
        }
    }
}

/// The lifecycle events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// The integration is disposed of, completely (AR-DISPOSE-1, AR-DISPOSE-4).
    Dispose,
    /// The integration is installed again (AR-INSTALL-1).
    Install,
    /// The user selects Auto for the session (AR-SCOPE-5, AR-DISPOSE-4).
    SelectAuto,
    /// The session's backend starts or stops confining reads (`confines_reads`, AR-CONFINE-1).
    Backend,
}

/// Members a call item may not name: they belong to the session.
const SESSION_MEMBERS: [&str; 4] = ["session", "config", "preset", "policy"];

/// What a scenario line holds: one call, or a session of calls.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
// A session's own members (its configuration among them) make it larger than a boxed call; a
// run holds a few thousand inputs at most, so the extra pointer would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Input {
    /// A single-call scenario (a session of one call).
    One(Box<Scenario>),
    /// A session scenario.
    Session(SessionScenario),
}

impl Input {
    /// Reads a scenario line: an object with `calls` is a session scenario, any other object a
    /// single-call scenario.
    pub fn from_json(text: &str) -> Result<Input, ScenarioError> {
        let parsed = serde_json::from_str::<Value>(text);
        if parsed.is_ok_and(|v| v.get("calls").is_some()) {
            return SessionScenario::from_json(text).map(Input::Session);
        }
        match Scenario::from_json(text) {
            Ok(s) => Ok(Input::One(Box::new(s))),
            // Only text that is not JSON gets here naming `calls`: a broken session line. Say
            // what broke rather than that a single call has no such member.
            Err(e) if e.path == "calls" && e.message.starts_with("unknown field `calls`") => {
                SessionScenario::from_json(text).map(Input::Session)
            }
            Err(e) => Err(e),
        }
    }

    /// Reads an already parsed scenario value.
    pub fn from_value(v: &Value) -> Result<Input, ScenarioError> {
        if v.get("calls").is_some() {
            SessionScenario::from_value(v).map(Input::Session)
        } else {
            Scenario::from_value(v).map(|s| Input::One(Box::new(s)))
        }
    }

    /// The scenario's `id`.
    pub fn id(&self) -> Option<&str> {
        match self {
            Input::One(s) => s.id.as_deref(),
            Input::Session(s) => s.id.as_deref(),
        }
    }
}

impl SessionScenario {
    /// Reads a session scenario from JSON text, refusing what the text alone shows wrong
    /// (members named twice, a byte-order mark, lone surrogates) first.
    pub fn from_json(text: &str) -> Result<SessionScenario, ScenarioError> {
        if let Some(kind) = portable::not_an_object(text) {
            return Err(ScenarioError::not_an_object(kind));
        }
        portable::check(text).map_err(ScenarioError::from)?;
        let v: Value = serde_json::from_str(text).map_err(|e| ScenarioError {
            path: String::new(),
            message: format!("invalid JSON: {}", super::placed(&e)),
        })?;
        SessionScenario::from_value(&v)
    }

    /// Reads a session scenario from a parsed value, with the path of the offending member.
    pub fn from_value(v: &Value) -> Result<SessionScenario, ScenarioError> {
        let Value::Object(m) = v else {
            return Err(ScenarioError::not_an_object(kind_of(v)));
        };
        let mut top = m.clone();
        let calls = match top.remove("calls") {
            Some(Value::Array(calls)) => calls,
            Some(other) => {
                return Err(ScenarioError::at(
                    "calls",
                    format!("give an array of calls and events, not {}", kind_of(&other)),
                ));
            }
            None => unreachable!("only objects with `calls` are read as sessions"),
        };
        if calls.is_empty() {
            return Err(ScenarioError::at(
                "calls",
                "a session holds at least one call or event".to_owned(),
            ));
        }
        let head: Head = serde_path_to_error::deserialize(Value::Object(top))
            .map_err(|e| ScenarioError::at(&e.path().to_string(), e.inner().to_string()))?;
        let items = calls
            .iter()
            .enumerate()
            .map(|(i, c)| Item::from_value(c).map_err(|e| e.within(&format!("calls[{i}]"))))
            .collect::<Result<Vec<_>, _>>()?;
        let s = SessionScenario {
            id: head.id,
            session: head.session,
            config: head.config,
            preset: head.preset,
            policy: head.policy,
            calls: items,
        };
        s.realizable()
    }

    /// The session itself, unless the real runtime cannot produce it: a disposal or a lifecycle
    /// abort while the integration is not installed (RZ-5), an install while it is (RZ-6), an
    /// item after a call that may never settle (RZ-7).
    pub fn realizable(self) -> Result<SessionScenario, ScenarioError> {
        if let Err(rule) = super::realizable::mode_in_auto(self.preset, &self.session) {
            return Err(ScenarioError {
                path: rule.path().to_owned(),
                message: rule.to_string(),
            });
        }
        let mut installed = true;
        for (i, item) in self.calls.iter().enumerate() {
            let refuse = |rule: &str, why: &str, member: &str| ScenarioError {
                path: format!("calls[{i}]{member}"),
                message: format!("unrealizable ({rule}): {why}"),
            };
            match item {
                Item::Event(e) => match e.event {
                    EventKind::Dispose if !installed => {
                        return Err(refuse(
                            "RZ-5",
                            "the integration was already disposed of; install it again first",
                            ".event",
                        ));
                    }
                    EventKind::Dispose => installed = false,
                    EventKind::Install if installed => {
                        return Err(refuse(
                            "RZ-6",
                            "the integration is installed; a second installation is refused (`permission: preset \"auto\" is already registered`)",
                            ".event",
                        ));
                    }
                    EventKind::Install => installed = true,
                    EventKind::SelectAuto | EventKind::Backend => {}
                },
                Item::Call(c) => {
                    // A call's own rules, for a session not read from text (a drawn one).
                    if let Err(rule) = super::realizable::check_call(c) {
                        return Err(ScenarioError::from(rule).within(&format!("calls[{i}]")));
                    }
                    let earlier = self.calls[..i].iter().any(|it| matches!(it, Item::Call(_)));
                    if !earlier && super::body::names_finished(&c.body) {
                        let e = ScenarioError::from(super::Unrealizable::NoFinishedCall);
                        return Err(e.within(&format!("calls[{i}]")));
                    }
                    if c.abort.is_lifecycle() {
                        if !installed {
                            return Err(refuse(
                                "RZ-5",
                                "no integration is installed, so none can be disposed of during this call",
                                ".abort",
                            ));
                        }
                        installed = false;
                    }
                    // Checked for lifecycle points too: `lifecycle-during-downstream` is never
                    // reached while the review hangs.
                    if i + 1 < self.calls.len() && c.may_stay_pending() {
                        return Err(refuse(
                            "RZ-7",
                            "a call whose review may never settle, with no signal to end it, blocks its session: nothing after it can happen, so it must be the last item",
                            ".reviewer",
                        ));
                    }
                }
            }
            if let Item::Event(e) = item
                && (e.event == EventKind::Backend) != e.confines_reads.is_some()
            {
                return Err(ScenarioError {
                    path: format!("calls[{i}].confines_reads"),
                    message: match e.event {
                        EventKind::Backend => "a backend event says whether the backend confines reads from now on: give \"confines_reads\": true or false",
                        _ => "only a backend event says whether the backend confines reads",
                    }
                    .to_owned(),
                });
            }
            if let Item::Event(e) = item
                && e.reselect
                && e.event != EventKind::Dispose
            {
                return Err(ScenarioError {
                    path: format!("calls[{i}].reselect"),
                    message: "only a dispose event can re-select Auto while the integration closes"
                        .to_owned(),
                });
            }
        }
        Ok(self)
    }
}

/// The members of a session scenario besides `calls`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Head {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    session: Session,
    #[serde(default)]
    config: Config,
    #[serde(default)]
    preset: Preset,
    #[serde(default)]
    policy: Policy,
}

impl Item {
    /// Reads one item: an object with `event` is an event, any other object a call.
    fn from_value(v: &Value) -> Result<Item, ScenarioError> {
        let Value::Object(m) = v else {
            return Err(ScenarioError {
                path: String::new(),
                message: format!(
                    "an item is a call object or an event object ({{\"event\": \"dispose\"}}), not {}",
                    kind_of(v)
                ),
            });
        };
        if m.contains_key("event") {
            return serde_path_to_error::deserialize(v.clone())
                .map(Item::Event)
                .map_err(|e| ScenarioError::at(&e.path().to_string(), e.inner().to_string()));
        }
        if let Some(member) = SESSION_MEMBERS.iter().find(|k| m.contains_key(**k)) {
            return Err(ScenarioError {
                path: (*member).to_owned(),
                message: format!(
                    "`{member}` belongs to the session: give it once at the top of the session scenario (a call's session state comes from the calls and events before it)"
                ),
            });
        }
        if !v.is_object() {
            return Err(ScenarioError::not_an_object(kind_of(v)));
        }
        Scenario::read_value(v)?
            .realizable_call()
            .map(|s| Item::Call(Box::new(s)))
    }
}

impl Scenario {
    /// Whether the call may stay pending (AR-CANCEL-6): its first reviewer request never
    /// settles and no signal ends it. (The resilient deadline ends it, but which profile decides
    /// is not part of the scenario.)
    pub fn may_stay_pending(&self) -> bool {
        matches!(self.reviewer.attempt(0), super::Attempt::Hang { .. })
            && matches!(
                self.abort,
                AbortPoint::None | AbortPoint::LifecycleDuringDownstream
            )
    }
}

impl AbortPoint {
    /// Whether the integration is disposed of at this point (chapter 7's lifecycle points).
    pub fn is_lifecycle(self) -> bool {
        matches!(
            self,
            AbortPoint::LifecycleBeforeReview
                | AbortPoint::LifecycleAfterReview
                | AbortPoint::LifecycleDuringDownstream
        )
    }
}

impl ScenarioError {
    /// The same error, placed under `prefix` (`calls[2]`).
    pub fn within(self, prefix: &str) -> ScenarioError {
        ScenarioError {
            path: if self.path.is_empty() {
                prefix.to_owned()
            } else {
                format!("{prefix}.{}", self.path)
            },
            message: self.message,
        }
    }
}
