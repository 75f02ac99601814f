//! The world of one feature scenario: the scenario of the JSON contract its `Given` steps build,
//! the profile and table rows its tags name, and the outcome its `When` step obtains.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{LazyLock, Mutex};

use autoreview::runner::subprocess::{Limits, Subprocess};
use autoreview::runner::{Ask, Implementation};
use autoreview::scenario::Scenario;
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
    /// The scenario being built, as JSON (`spec/scenario.md`).
    scenario: Map<String, Value>,
    /// The reviewer's attempts, in order.
    reviewer: Vec<Value>,
    /// The outcome, once the call was made.
    decided: Option<Decided>,
}

/// An outcome, with what the reference engine says about which texts are normative only by
/// prefix.
#[derive(Debug)]
pub struct Decided {
    pub outcome: Value,
    pub prefix_only: BTreeMap<String, usize>,
}

/// Both profiles' decision tables, loaded once.
static TABLES: LazyLock<BTreeMap<Profile, Table>> = LazyLock::new(|| {
    Profile::ALL
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
        let profiles: Vec<Profile> = tags
            .iter()
            .filter_map(|t| match t.as_str() {
                "baseline" => Some(Profile::Baseline),
                "resilient" => Some(Profile::Resilient),
                _ => None,
            })
            .collect();
        match profiles.as_slice() {
            [p] => self.profile = Some(*p),
            [] => self
                .tag_problems
                .push("no profile tag: tag the scenario @baseline or @resilient".into()),
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

    /// Sets one member of the scenario.
    pub fn set(&mut self, member: &str, value: Value) {
        self.scenario.insert(member.to_owned(), value);
    }

    /// Sets one member of an object member of the scenario (`session`, `config`).
    pub fn set_in(&mut self, member: &str, key: &str, value: Value) {
        let entry = self
            .scenario
            .entry(member.to_owned())
            .or_insert_with(|| json!({}));
        if let Value::Object(m) = entry {
            m.insert(key.to_owned(), value);
        }
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

    /// Makes the call: checks the tags and the claimed table row, then has the scenario decided.
    pub fn call(&mut self, tool: &str, call: &str) {
        assert!(
            self.tag_problems.is_empty(),
            "{}",
            self.tag_problems.join("; ")
        );
        let profile = self.profile.unwrap_or(Profile::Baseline);
        self.set("tool", json!({"name": tool, "call": call}));
        let stated_reviewer = !self.reviewer.is_empty();
        let reviewer = match self.reviewer.as_slice() {
            [] => json!({"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}),
            [one] => one.clone(),
            many => Value::Array(many.to_vec()),
        };
        self.set("reviewer", reviewer);
        let json = Value::Object(self.scenario.clone());
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
            Err(_) => reference.clone(),
            Ok(command) => through_adapter(&command, &scenario, profile),
        };
        self.decided = Some(Decided {
            outcome: serde_json::to_value(&outcome).unwrap_or(Value::Null),
            prefix_only: reference.prefix_only,
        });
    }

    /// The outcome; a `Then` step before the `When` step is a mistake in the feature.
    pub fn outcome(&self) -> &Decided {
        self.decided.as_ref().unwrap_or_else(|| {
            panic!("no call was made yet: a `When the agent calls …` step must come first")
        })
    }

    /// The outcome's member at a JSON pointer (`null` when absent).
    pub fn at(&self, pointer: &str) -> Value {
        self.outcome()
            .outcome
            .pointer(pointer)
            .cloned()
            .unwrap_or(Value::Null)
    }

    /// Checks a text exactly. `phrase` is the step's wording (`the model sees`); a text that is
    /// normative only by prefix is refused with the wording to use instead.
    pub fn expect_text(&self, pointer: &str, phrase: &str, expected: &str) {
        if let Some(n) = self.outcome().prefix_only.get(pointer) {
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
        assert_eq!(self.at(pointer), json!(expected), "{phrase} ({pointer})");
    }

    /// Checks that a text starts with `prefix`.
    pub fn expect_prefix(&self, pointer: &str, what: &str, prefix: &str) {
        let actual = self.at(pointer);
        let text = actual
            .as_str()
            .unwrap_or_else(|| panic!("{what} ({pointer}): expected a text, found {actual}"));
        assert!(
            text.starts_with(prefix),
            "{what} ({pointer}) should start with {prefix:?}, but is {text:?}"
        );
    }
}

/// Decides through the adapter for `profile`, starting it on first use.
fn through_adapter(command: &str, scenario: &Scenario, profile: Profile) -> autoreview::Outcome {
    let mut adapters = ADAPTERS.lock().unwrap_or_else(|e| e.into_inner());
    let adapter = adapters.entry(profile).or_insert_with(|| {
        let argv: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        Subprocess::start(argv, profile, Limits::default())
            .unwrap_or_else(|e| panic!("{ADAPTER_VAR}: {e}"))
    });
    let ask = Ask {
        scenario,
        profile,
        next: None,
    };
    adapter
        .decide(ask, &mut || {})
        .unwrap_or_else(|e| panic!("the adapter gave no outcome ({:?}): {}", e.kind, e.message))
}
