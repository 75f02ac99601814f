//! The world of one feature scenario: the scenario of the JSON contract its `Given` steps build,
//! the profile and table rows its tags name, and the outcome its `When` step obtains. A scenario
//! with several `When` steps is a session (`spec/auto-review.md`, chapter 12): each call or
//! lifecycle event is an item of one session scenario, and its `Then` steps check that item.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{LazyLock, Mutex};

use autoreview::capability::Observable;
use autoreview::outcome::{InputOutcome, ItemOutcome};
use autoreview::runner::subprocess::{Limits, Subprocess};
use autoreview::runner::{Ask, Implementation};
use autoreview::scenario::Scenario;
use autoreview::scenario::session::{Input, SessionScenario};
use autoreview::table::{Table, features};
use autoreview::{Profile, engine};
use cucumber::gherkin;
use serde_json::{Map, Value, json};

/// The environment variable naming an adapter command to decide through instead of the
/// in-process reference engine.
pub const ADAPTER_VAR: &str = "AUTOREVIEW_FEATURES_ADAPTER";

#[derive(Debug, Default, cucumber::World)]
pub struct GateWorld {
    /// The profile the scenario's tags name.
    profile: Option<Profile>,
    /// What is wrong with the scenario's tags; reported when the call is made.
    tag_problems: Vec<String>,
    /// The decision-table rows the scenario says it exemplifies (tags, or a `row` column).
    rows: BTreeSet<String>,
    /// The session's own members (`session`, `config`, `preset`, `policy`), as JSON.
    session: Map<String, Value>,
    /// The next call's members, as JSON (`spec/scenario.md`).
    call: Map<String, Value>,
    /// The next call's reviewer attempts, in order.
    reviewer: Vec<Value>,
    /// The calls and events made so far, as the items of a session scenario.
    items: Vec<Value>,
    /// What the last call or event came to.
    decided: Option<Decided>,
}

/// What the last item came to, with what the reference engine says about which texts are
/// normative only by prefix.
#[derive(Debug)]
pub struct Decided {
    pub outcome: Value,
    pub prefix_only: BTreeMap<String, usize>,
    /// The lifecycle event (`dispose`, `install`, `select-auto`), when the item was one.
    pub event: Option<String>,
}

/// The members of a scenario that belong to the session rather than to one of its calls.
const SESSION_MEMBERS: [&str; 4] = ["session", "config", "preset", "policy"];

/// Both profiles' decision tables, loaded once.
static TABLES: LazyLock<BTreeMap<Profile, Table>> = LazyLock::new(|| {
    Profile::all()
        .iter()
        .map(|&p| {
            let t = Table::load(p).unwrap_or_else(|e| panic!("the {p} decision table: {e}"));
            (p, t)
        })
        .collect()
});

/// Adapters started for this run, one per profile (the handshake names the profile).
static ADAPTERS: LazyLock<Mutex<BTreeMap<Profile, Subprocess>>> =
    LazyLock::new(|| Mutex::new(BTreeMap::new()));

impl GateWorld {
    /// Reads the scenario's tags (and, for an outline's example, its `row` column) before its
    /// steps run.
    pub fn begin(
        &mut self,
        feature: &gherkin::Feature,
        rule: Option<&gherkin::Rule>,
        scenario: &gherkin::Scenario,
    ) {
        let tags: Vec<String> = feature
            .tags
            .iter()
            .chain(rule.iter().flat_map(|r| r.tags.iter()))
            .chain(scenario.tags.iter())
            .map(|t| t.trim_start_matches('@').to_owned())
            .collect();
        let profiles: Vec<Profile> = tags.iter().filter_map(|t| Profile::named(t)).collect();
        match profiles.as_slice() {
            [p] => self.profile = Some(*p),
            [] => self.tag_problems.push(format!(
                "no profile tag: tag the scenario with one of {}",
                Profile::all()
                    .iter()
                    .map(|p| format!("@{p}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => self
                .tag_problems
                .push("more than one profile tag: a scenario runs under one profile".into()),
        }
        let known_rows: BTreeSet<&str> = TABLES
            .values()
            .flat_map(|t| t.rows.iter().map(|r| r.id.as_str()))
            .collect();
        self.rows = tags
            .iter()
            .filter(|t| known_rows.contains(t.as_str()))
            .cloned()
            .collect();
        // An expanded outline keeps its one example: the header and this example's values.
        if let Some(table) = scenario.examples.first().and_then(|e| e.table.as_ref())
            && let [header, values] = table.rows.as_slice()
        {
            for (name, value) in header.iter().zip(values) {
                if name == "row" {
                    self.rows.extend(
                        value
                            .split([',', ' '])
                            .filter(|v| !v.is_empty())
                            .map(str::to_owned),
                    );
                }
            }
        }
    }

    /// Sets one member of the scenario: of the session (given before its first item) or of the
    /// next call.
    pub fn set(&mut self, member: &str, value: Value) {
        if SESSION_MEMBERS.contains(&member) {
            self.session_state(member);
            self.session.insert(member.to_owned(), value);
        } else {
            self.call.insert(member.to_owned(), value);
        }
    }

    /// Appends a step to the call's body (AR-RESULT-7).
    pub fn body_step(&mut self, step: Value) {
        let body = self.call.entry("body").or_insert_with(|| json!([]));
        if let Value::Array(steps) = body {
            steps.push(step);
        }
    }

    /// Sets one member of the session's sandbox (`session.sandbox`, AR-CONFINE-1..4).
    pub fn set_sandbox(&mut self, key: &str, value: Value) {
        self.session_state("session");
        let session = self
            .session
            .entry("session".to_owned())
            .or_insert_with(|| json!({}));
        if let Value::Object(m) = session {
            let sandbox = m.entry("sandbox").or_insert_with(|| json!({}));
            if let Value::Object(sandbox) = sandbox {
                sandbox.insert(key.to_owned(), value);
            }
        }
    }

    /// Sets one member of an object member of the session (`session`, `config`).
    pub fn set_in(&mut self, member: &str, key: &str, value: Value) {
        self.session_state(member);
        let entry = self
            .session
            .entry(member.to_owned())
            .or_insert_with(|| json!({}));
        if let Value::Object(m) = entry {
            m.insert(key.to_owned(), value);
        }
    }

    /// Refuses to change the session once it has begun: from then on its state is what its calls
    /// and events leave (AR-SESSION-2), never supplied again.
    fn session_state(&self, member: &str) {
        assert!(
            self.items.is_empty(),
            "this step describes the session (`{member}`), which is given before its first call \
             or event; after that the session holds what its calls and events left"
        );
    }

    /// Adds the reviewer's next attempt.
    pub fn push_attempt(&mut self, attempt: Value) {
        self.reviewer.push(attempt);
    }

    /// Changes the last attempt (a delay, a finish kind).
    pub fn last_attempt(&mut self) -> &mut Map<String, Value> {
        match self.reviewer.last_mut() {
            Some(Value::Object(m)) => m,
            _ => panic!(
                "this step changes the reviewer's last reply: say what the reviewer does first"
            ),
        }
    }

    /// The profile the tags name, once they were found sound.
    fn checked_profile(&self) -> Profile {
        assert!(
            self.tag_problems.is_empty(),
            "{}",
            self.tag_problems.join("; ")
        );
        self.profile.unwrap_or(Profile::BASELINE)
    }

    /// Makes a call. The first item of a scenario is decided as a single-call scenario, which
    /// checks the claimed table row; a later one as the next item of the session.
    pub fn call(&mut self, tool: &str, call: &str) {
        let profile = self.checked_profile();
        let mut item = std::mem::take(&mut self.call);
        item.insert("tool".into(), json!({"name": tool, "call": call}));
        let stated_reviewer = !self.reviewer.is_empty();
        let reviewer = match std::mem::take(&mut self.reviewer).as_slice() {
            [] => json!({"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}),
            [one] => one.clone(),
            many => Value::Array(many.to_vec()),
        };
        item.insert("reviewer".into(), reviewer);
        self.items.push(Value::Object(item.clone()));
        if self.items.len() > 1 {
            self.decide_session(profile);
            assert!(
                stated_reviewer || self.at("/review/attempts") == json!(0),
                "this call is reviewed: say what the reviewer does"
            );
            return;
        }
        let mut json = self.session.clone();
        json.extend(item);
        let json = Value::Object(json);
        let scenario = Scenario::from_value(&json)
            .unwrap_or_else(|e| panic!("the steps build an invalid scenario: {e}\n{json:#}"));
        let f = features::of(&scenario, profile);
        if f.scope == features::ScopeFeature::Reviewed {
            assert!(
                stated_reviewer,
                "this call is reviewed: say what the reviewer does"
            );
        }
        let table = &TABLES[&profile];
        let matched: Vec<&str> = table.matching(&f).iter().map(|r| r.id.as_str()).collect();
        if !self.rows.is_empty() {
            let claimed: Vec<&str> = self.rows.iter().map(String::as_str).collect();
            assert!(
                matched.len() == 1 && claimed == matched,
                "the scenario says it exemplifies row {claimed:?} of the {profile} table, but the \
                 call falls under {matched:?}"
            );
        }
        let reference = engine::decide(&scenario, profile);
        let outcome = match std::env::var(ADAPTER_VAR) {
            Err(_) => InputOutcome::One(Box::new(reference.clone())),
            Ok(command) => through_adapter(&command, &Input::One(Box::new(scenario)), profile),
        };
        self.decided = Some(Decided {
            outcome: serde_json::to_value(&outcome).unwrap_or(Value::Null),
            prefix_only: reference.prefix_only,
            event: None,
        });
    }

    /// A lifecycle event between calls (`dispose`, `install`, `select-auto`), decided as the next
    /// item of the session.
    /// The session's backend starts or stops confining reads: the next item of the session
    /// (AR-CONFINE-1).
    pub fn backend(&mut self, confines_reads: bool) {
        self.event_item(json!({"event": "backend", "confines_reads": confines_reads}));
    }

    pub fn lifecycle(&mut self, event: &str, reselect: bool) {
        let mut item = json!({"event": event});
        if reselect {
            item["reselect"] = json!(true);
        }
        self.event_item(item);
    }

    /// The next item of the session, an event.
    fn event_item(&mut self, item: Value) {
        let profile = self.checked_profile();
        assert!(
            self.call.is_empty() && self.reviewer.is_empty(),
            "the steps before this event describe a call: make that call first, or describe the \
             call after the event"
        );
        self.items.push(item);
        self.decide_session(profile);
    }

    /// Decides the session so far with the reference engine and keeps what its last item came to
    /// (the items before it come to the same outcomes each time: AR-SESSION-1).
    fn decide_session(&mut self, profile: Profile) {
        assert!(
            self.rows.is_empty(),
            "a table row describes one call: a session of several calls and events claims none \
             (its steps check each item)"
        );
        let mut json = self.session.clone();
        json.insert("calls".into(), Value::Array(self.items.clone()));
        let json = Value::Object(json);
        let session = SessionScenario::from_value(&json).unwrap_or_else(|e| {
            panic!("the steps build an invalid session scenario: {e}\n{json:#}")
        });
        let outcome = match std::env::var(ADAPTER_VAR) {
            // The scenario filter let this one through only if the adapter observes sessions.
            Ok(command) => match through_adapter(&command, &Input::Session(session), profile) {
                InputOutcome::Session(o) => o,
                InputOutcome::One(_) => {
                    unreachable!("the runner refuses a call's outcome for a session")
                }
            },
            Err(_) => engine::decide_session(&session, profile),
        };
        self.decided = Some(match outcome.calls.last() {
            Some(ItemOutcome::Call(o)) => Decided {
                outcome: serde_json::to_value(o).unwrap_or(Value::Null),
                prefix_only: o.prefix_only.clone(),
                event: None,
            },
            Some(ItemOutcome::Event(e)) => Decided {
                outcome: serde_json::to_value(e).unwrap_or(Value::Null),
                prefix_only: e.prefix_only.clone(),
                event: Some(
                    serde_json::to_value(e.event)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default(),
                ),
            },
            None => panic!("a session of {} items came to no outcome", self.items.len()),
        });
    }

    /// What the last call came to; a `Then` step before the `When` step, or a call's `Then` step
    /// after an event, is a mistake in the feature.
    pub fn outcome(&self) -> &Decided {
        let decided = self.decided.as_ref().unwrap_or_else(|| {
            panic!("no call was made yet: a `When the agent calls …` step must come first")
        });
        if let Some(event) = &decided.event {
            panic!(
                "the last step was the lifecycle event `{event}`, which makes no call: check it with \
                 an event's step (`selecting Auto …`, `it reports no error`)"
            );
        }
        decided
    }

    /// What the last lifecycle event came to, and which event it was.
    pub fn event(&self) -> (&str, &Decided) {
        match &self.decided {
            Some(d @ Decided { event: Some(e), .. }) => (e.as_str(), d),
            _ => panic!(
                "this step checks a lifecycle event: a `When` step making one must come first"
            ),
        }
    }

    /// The outcome's member at a JSON pointer (`null` when absent).
    pub fn at(&self, pointer: &str) -> Value {
        self.outcome()
            .outcome
            .pointer(pointer)
            .cloned()
            .unwrap_or(Value::Null)
    }

    /// Checks a text of the last call exactly; see [`expect_text_of`].
    pub fn expect_text(&self, pointer: &str, phrase: &str, expected: &str) {
        expect_text_of(self.outcome(), pointer, phrase, expected);
    }

    /// Checks that a text of the last call starts with `prefix`.
    pub fn expect_prefix(&self, pointer: &str, what: &str, prefix: &str) {
        expect_prefix_of(self.outcome(), pointer, what, prefix);
    }
}

/// Checks a text exactly. `phrase` is the step's wording (`the model sees`); a text that is
/// normative only by prefix is refused with the wording to use instead.
pub fn expect_text_of(decided: &Decided, pointer: &str, phrase: &str, expected: &str) {
    if let Some(n) = decided.prefix_only.get(pointer) {
        let prefix: String = expected.chars().take(*n).collect();
        let quoted = if prefix.contains('"') {
            format!("'{prefix}'")
        } else {
            format!("\"{prefix}\"")
        };
        panic!(
            "this text is normative only in its first {n} characters (its tail is \
             implementation-defined, AR-CONV-3): write `{phrase} text starting with {quoted}`"
        );
    }
    let actual = decided
        .outcome
        .pointer(pointer)
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(actual, json!(expected), "{phrase} ({pointer})");
}

/// Checks that a text starts with `prefix`.
pub fn expect_prefix_of(decided: &Decided, pointer: &str, what: &str, prefix: &str) {
    let actual = decided
        .outcome
        .pointer(pointer)
        .cloned()
        .unwrap_or(Value::Null);
    let text = actual
        .as_str()
        .unwrap_or_else(|| panic!("{what} ({pointer}): expected a text, found {actual}"));
    assert!(
        text.starts_with(prefix),
        "{what} ({pointer}) should start with {prefix:?}, but is {text:?}"
    );
}

/// The adapter for `profile`, started on first use.
fn adapter<'a>(
    adapters: &'a mut BTreeMap<Profile, Subprocess>,
    command: &str,
    profile: Profile,
) -> &'a mut Subprocess {
    adapters.entry(profile).or_insert_with(|| {
        let argv: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        Subprocess::start(argv, profile, Limits::default())
            .unwrap_or_else(|e| panic!("{ADAPTER_VAR}: {e}"))
    })
}

/// What the adapter observes beyond protocol 1, from its handshake (`spec/protocol.md`).
pub fn adapter_observes(command: &str) -> autoreview::capability::Capabilities {
    use autoreview::runner::Implementation;
    let mut adapters = ADAPTERS.lock().unwrap_or_else(|e| e.into_inner());
    adapter(&mut adapters, command, Profile::BASELINE).capabilities()
}

/// Decides `input` through the adapter for `profile`, starting it on first use.
fn through_adapter(command: &str, input: &Input, profile: Profile) -> InputOutcome {
    let mut adapters = ADAPTERS.lock().unwrap_or_else(|e| e.into_inner());
    let ask = Ask {
        input,
        profile,
        next: None,
    };
    adapter(&mut adapters, command, profile)
        .decide(ask)
        .unwrap_or_else(|e| panic!("the adapter gave no outcome ({:?}): {}", e.kind, e.message))
}

/// Steps that each make one item of a session: a scenario with more than one, or with an event,
/// is a session scenario.
const ITEM_STEPS: [&str; 6] = [
    "the agent calls ",
    "the agent runs a program with ",
    "the integration is disposed of",
    "the integration is installed again",
    "the user selects Auto",
    "the session's backend st",
];

/// Steps that set up or check what a protocol-1 adapter can neither be asked nor report, with
/// what they need (the observables of `spec/protocol.md`).
const BEYOND_PROTOCOL_1: [(&str, &str); 8] = [
    ("the session's backend ", "confinement"),
    ("the session is confined ", "confinement"),
    ("changing the session's sandbox mode ", "confinement"),
    ("the session's sandbox is ", "confinement"),
    ("the session log ", "the session log"),
    (
        "the session's header names no working directory",
        "the session log",
    ),
    ("the session's id is ", "requests"),
    ("the reviewer requests are", "requests"),
];

/// What a scenario needs beyond protocol 1 that an implementation observing `observes` lacks:
/// sessions, the session log or the requests; `None` when it can run the scenario.
pub fn beyond(
    observes: autoreview::capability::Capabilities,
    feature: &gherkin::Feature,
    rule: Option<&gherkin::Rule>,
    scenario: &gherkin::Scenario,
) -> Option<&'static str> {
    let steps: Vec<&str> = feature
        .background
        .iter()
        .chain(rule.and_then(|r| r.background.as_ref()))
        .flat_map(|b| &b.steps)
        .chain(&scenario.steps)
        .map(|s| s.value.as_str())
        .collect();
    let items = steps
        .iter()
        .filter(|s| ITEM_STEPS.iter().any(|p| s.starts_with(p)))
        .count();
    let event = steps
        .iter()
        .any(|s| ITEM_STEPS[2..].iter().any(|p| s.starts_with(p)));
    if (items > 1 || event) && !observes.observes(Observable::Sessions) {
        return Some("sessions");
    }
    steps.iter().find_map(|s| {
        BEYOND_PROTOCOL_1
            .iter()
            .find(|(p, needs)| {
                s.starts_with(p)
                    && match *needs {
                        "requests" => !observes.observes(Observable::Requests),
                        "confinement" => !observes.observes(Observable::Confinement),
                        _ => !observes.observes(Observable::SessionLog),
                    }
            })
            .map(|(_, needs)| *needs)
    })
}
