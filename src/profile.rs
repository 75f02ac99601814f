//! Profiles: named sets of clauses a gate can conform to (AR-CONV-2), each described by a file
//! under `spec/profiles/` — its clauses and the ones it replaces, its reader, its decision table,
//! its spec version, the configuration it reads and the rules it follows where profiles differ.
//! The engine asks a profile ([`ProfileSpec::reader`], [`ProfileSpec::asks_again`], …) instead of naming
//! it, so a profile that only recombines existing rules is a new file and nothing else.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::capability::{Capabilities, Observable};

/// A conformance profile: a handle on one of the files under `spec/profiles/`, which it names.
/// Two profiles are the same when they name the same file; they sort by the files' `order`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Profile(&'static str);

/// The profile a run uses when none is named: the same in the library, the command, both kits
/// and the README.
pub const DEFAULT: Profile = Profile::RESILIENT;

/// Which reader turns a reviewer's reply into a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Reader {
    /// Exactly one JSON object of six shapes (chapter 4, AR-PARSE-*).
    Strict,
    /// A decision found in what a model really writes, within bounds (chapter 10, AR-TOL-*).
    Tolerant,
}

/// How a failure's message turns the provider's values into text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FailureText {
    /// As JavaScript's `String()` does (AR-REVIEW-5): an object is `[object Object]`.
    Javascript,
    /// Made readable and bounded (AR-RES-NORM-1..4).
    Normalized,
}

/// Whether, and after which failures, a review makes another request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AsksAgain {
    /// One request per review (AR-REVIEW-1).
    Never,
    /// Repairs after protocol failures and retries after transport failures, within the
    /// configured budgets (AR-RES-RETRY-1..3).
    RepairAndRetry,
    /// Another request after a reply that is not valid JSON, with a reminder, up to
    /// `max_json_retries`; no other failure asks again (AR-JSON-RETRY-1..3, the 0.2.x gate).
    JsonRetry,
}

/// Which route reviewer requests use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RouteRule {
    /// The session's latest request header (AR-REVIEW-3).
    Session,
    /// A configured reviewer route when one is set, else the session's (AR-RES-ROUTE-1).
    ConfiguredFirst,
}

/// Where the pending tool's schema is looked up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SchemaRule {
    /// The request header only (AR-REVIEW-2).
    Header,
    /// The live registry, then the header (AR-RES-SCHEMA-1).
    RegistryFirst,
}

/// What a session whose header names no working directory comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WorkingDirectoryRule {
    /// The review fails before any request (AR-REVIEW-10).
    Required,
    /// The deployment's working directory stands in (AR-RES-CWD-1).
    DeploymentFallback,
}

/// What the gate decides once the review settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FailureRules {
    /// A failure is a denial; a reviewer denial is final under a recorded `never`; a downstream
    /// ask after a denial goes out unchanged (AR-DECIDE-1, AR-DECIDE-2, AR-DECIDE-5, AR-DECIDE-6).
    Deny,
    /// A failure is put to the human under `ask` unless configured otherwise; a denial is final
    /// under an effective `never`; a downstream ask carries the gate's objection
    /// (AR-RES-FAIL-1..3, AR-RES-DECIDE-1, AR-RES-ASK-1).
    Ask,
}

/// Who answers the approval requests a call's body raises (AR-APPROVAL-7, AR-APPROVAL-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BodyApprovals {
    /// The gate answers none: each goes on to the human (AR-APPROVAL-8).
    #[default]
    Human,
    /// The gate answers `allowed-once` for the call it allowed, while it runs and the session is
    /// still in Auto (AR-APPROVAL-7).
    AllowedCall,
}

/// Which preset the gate reads for a call once disposal moved the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PresetRead {
    /// The preset as it stood when the call started (AR-DISPOSE-2).
    AtStart,
    /// The session's current preset (AR-RES-DISPOSE-1).
    Current,
}

/// The rules a profile follows where profiles differ, as its file states them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// How failure messages render provider values.
    pub failure_text: FailureText,
    /// Whether a review asks again after a failure.
    pub asks_again: AsksAgain,
    /// Whether a review has a deadline (AR-RES-RETRY-4).
    pub deadline: bool,
    /// Whether the session counts reviewer failures in a row (AR-RES-HINT-1).
    pub counts_failures: bool,
    /// Whether reviewer requests carry the session's id (AR-RES-REQUEST-1).
    pub session_id_in_requests: bool,
    /// Which route reviewer requests use.
    pub route: RouteRule,
    /// Where the pending tool's schema is looked up.
    pub schema: SchemaRule,
    /// What a session without a working directory comes to.
    pub working_directory: WorkingDirectoryRule,
    /// What the gate decides once the review settled.
    pub failures: FailureRules,
    /// Which preset the gate reads once disposal moved the session.
    pub preset_read: PresetRead,
    /// Whether Auto narrows a full-access session on a backend that confines reads before its
    /// calls run (AR-CONFINE-1..4). Absent from a profile file written before the rule: `false`.
    #[serde(default)]
    pub confinement: bool,
    /// Who answers the approval requests a call's body raises (AR-APPROVAL-7). Absent from a
    /// profile file written before the rule: `human`.
    #[serde(default)]
    pub body_approvals: BodyApprovals,
}

/// A profile's file, `spec/profiles/<name>.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileSpec {
    /// The wire name.
    pub name: String,
    /// Where the profile stands in lists (`--help`, reports): lowest first.
    pub order: u32,
    /// What the profile is, in one line.
    pub summary: String,
    /// What the profile restates, and from what.
    pub about: String,
    /// The version of the spec text the profile is stated in.
    pub spec_version: String,
    /// The reader of reviewer replies.
    pub reader: Reader,
    /// The decision table's path, relative to `spec/`: every shipped profile has one; a profile
    /// loaded from a file (`--profile-file`) has none, and its run says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_table: Option<String>,
    /// The clauses of the profile: IDs, or a family `AR-X-*`; each must name at least one clause.
    pub clauses: Vec<String>,
    /// Clauses of those families the profile replaces whole, each with what replaces it.
    pub replaces: BTreeMap<String, String>,
    /// Clauses of those families the profile does not have, each with why.
    pub without: BTreeMap<String, String>,
    /// The scenario's `config` members the profile reads; it ignores the others.
    pub config: Vec<String>,
    /// The optional features the profile has (`spec/protocol.md`, "Optional features").
    pub features: Vec<String>,
    /// The rules it follows where profiles differ.
    pub rules: Rules,
}

/// What the runner's `hello` tells an adapter of the run's profile (`spec/protocol.md`, "Rules"):
/// its reader, its rules and the configuration it reads, so that a gate decides by rule and never
/// by the profile's name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WireRules {
    /// The reader of reviewer replies.
    pub reader: Reader,
    /// The rules it follows where profiles differ.
    #[serde(flatten)]
    pub rules: Rules,
    /// The scenario's `config` members the profile reads; a gate ignores the others.
    pub config: Vec<String>,
}

/// A rule's value as a `hello` writes it: a name, or yes and no (the schema of an adapter's
/// `rules` lists).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RuleValue {
    /// A named value, such as `tolerant`.
    Name(String),
    /// Yes or no, such as a rule `deadline`.
    Flag(bool),
}

impl WireRules {
    /// Each rule's name and value, as the wire writes them: `reader` first, then the file's.
    pub fn values(&self) -> Vec<(String, serde_json::Value)> {
        let mut all = vec![(
            "reader".to_owned(),
            serde_json::to_value(self.reader).expect("a reader is a string"),
        )];
        if let serde_json::Value::Object(map) =
            serde_json::to_value(&self.rules).expect("rules are an object")
        {
            all.extend(map);
        }
        all
    }

    /// The rule values of these rules that a gate implementing the values `offered` (an
    /// adapter's `hello`, `rules`) and observing what `has` holds lacks, as `name value`: none,
    /// and it can be checked against a profile with these rules. A rule `offered` does not name is
    /// met where no case the adapter can observe tells its values apart ([`RULE_OBSERVABLES`]).
    /// A rule name no profile has is an error naming the known ones.
    pub fn unmet_by(
        &self,
        offered: &BTreeMap<String, Vec<serde_json::Value>>,
        has: Capabilities,
    ) -> Result<Vec<String>, String> {
        let values = self.values();
        if let Some(unknown) = offered
            .keys()
            .find(|name| !values.iter().any(|(n, _)| n == *name))
        {
            let names: Vec<&str> = values.iter().map(|(n, _)| n.as_str()).collect();
            return Err(format!(
                "its hello's `rules` names the rule {unknown:?}, which no profile has (expected some of {})",
                names.join(", ")
            ));
        }
        let unobserved = |name: &str| {
            RULE_OBSERVABLES
                .iter()
                .any(|(rule, o)| *rule == name && !has.observes(*o))
        };
        Ok(values
            .iter()
            .filter(|(name, value)| !offered.get(name).is_some_and(|vs| vs.contains(value)))
            .filter(|(name, _)| offered.contains_key(name) || !unobserved(name))
            .map(|(name, value)| format!("{name} {value}"))
            .collect())
    }
}

/// Why a profile file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProfileFileError {
    /// The file is not a profile.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong, with the member's path.
        message: String,
    },
    /// A clause pattern names no clause of the spec.
    #[error("{path}: `clauses` entry {pattern:?} names no clause of spec/auto-review.md")]
    NoClause {
        /// The file.
        path: String,
        /// The pattern.
        pattern: String,
    },
    /// A feature no `hello` can declare.
    #[error(
        "{path}: `features` entry {name:?} is not an optional feature (expected one of {expected})"
    )]
    UnknownFeature {
        /// The file.
        path: String,
        /// The name.
        name: String,
        /// The features' names.
        expected: String,
    },
    /// A `config` entry that names no member of a scenario's configuration.
    #[error(
        "{path}: `config` entry {name:?} is not a configuration member (expected one of {expected})"
    )]
    UnknownConfig {
        /// The file.
        path: String,
        /// The name.
        name: String,
        /// The members' names.
        expected: String,
    },
    /// A rule's value and the profile's clauses disagree ([`RULE_CLAUSES`]).
    #[error("{path}: {message}")]
    Incoherent {
        /// The file.
        path: String,
        /// Which rule, which clause, and what to change.
        message: String,
    },
    /// A replaced or missing clause is not one of the profile's patterns.
    #[error("{path}: `{member}` names {id}, which none of `clauses` covers")]
    Uncovered {
        /// The file.
        path: String,
        /// `replaces` or `without`.
        member: &'static str,
        /// The clause.
        id: String,
    },
}

impl ProfileSpec {
    /// Reads a profile file's text, checking every clause it names against the spec.
    pub fn parse(path: &str, text: &str) -> Result<ProfileSpec, ProfileFileError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let spec: ProfileSpec =
            serde_path_to_error::deserialize(&mut de).map_err(|e| ProfileFileError::Format {
                path: path.to_owned(),
                message: format!("{}: {}", e.path(), e.inner()),
            })?;
        let ids = crate::spec::clause_ids();
        for pattern in &spec.clauses {
            if !ids.iter().any(|id| covers(pattern, id)) {
                return Err(ProfileFileError::NoClause {
                    path: path.to_owned(),
                    pattern: pattern.clone(),
                });
            }
        }
        for (member, map) in [("replaces", &spec.replaces), ("without", &spec.without)] {
            for id in map.keys() {
                if !ids.contains(id) || !spec.clauses.iter().any(|p| covers(p, id)) {
                    return Err(ProfileFileError::Uncovered {
                        path: path.to_owned(),
                        member,
                        id: id.clone(),
                    });
                }
            }
        }
        if let Some(message) = spec.incoherence() {
            return Err(ProfileFileError::Incoherent {
                path: path.to_owned(),
                message,
            });
        }
        use crate::features::Feature;
        if let Some(name) = spec.features.iter().find(|f| Feature::named(f).is_none()) {
            let names: Vec<&str> = Feature::ALL.iter().map(|f| f.as_str()).collect();
            return Err(ProfileFileError::UnknownFeature {
                path: path.to_owned(),
                name: name.clone(),
                expected: names.join(", "),
            });
        }
        use crate::scenario::Config;
        if let Some(name) = spec
            .config
            .iter()
            .find(|c| !Config::MEMBERS.contains(&c.as_str()))
        {
            return Err(ProfileFileError::UnknownConfig {
                path: path.to_owned(),
                name: name.clone(),
                expected: Config::MEMBERS.join(", "),
            });
        }
        Ok(spec)
    }

    /// The clauses of the profile (AR-CONV-2): every clause its patterns cover, except those it
    /// replaces or does not have.
    pub fn clause_set(&self) -> BTreeSet<String> {
        crate::spec::clause_ids()
            .into_iter()
            .filter(|id| self.clauses.iter().any(|p| covers(p, id)))
            .filter(|id| !self.replaces.contains_key(id) && !self.without.contains_key(id))
            .collect()
    }
}

/// The clauses each rule value rests on (AR-RES-PROFILE-1, the rules' documentation): a profile
/// with that value holds them all, and a profile with another value holds none of them. A value
/// not listed rests on no clause of its own (the part of a clause a profile amends is the rule's).
/// Entries are clause IDs or families (`AR-TOL-*`); a value is written as JSON.
pub const RULE_CLAUSES: &[(&str, &str, &[&str])] = &[
    (
        "reader",
        "\"strict\"",
        &["AR-PARSE-1", "AR-PARSE-2", "AR-PARSE-3", "AR-PARSE-4"],
    ),
    ("reader", "\"tolerant\"", &["AR-TOL-*"]),
    ("failure_text", "\"normalized\"", &["AR-RES-NORM-*"]),
    (
        "asks_again",
        "\"repair-and-retry\"",
        &["AR-RES-RETRY-1", "AR-RES-RETRY-2", "AR-RES-RETRY-3"],
    ),
    ("asks_again", "\"json-retry\"", &["AR-JSON-RETRY-*"]),
    ("deadline", "true", &["AR-RES-RETRY-4"]),
    (
        "counts_failures",
        "true",
        &["AR-SESSION-3", "AR-RES-HINT-1"],
    ),
    ("session_id_in_requests", "true", &["AR-RES-REQUEST-1"]),
    ("route", "\"configured-first\"", &["AR-RES-ROUTE-1"]),
    ("schema", "\"registry-first\"", &["AR-RES-SCHEMA-1"]),
    ("working_directory", "\"required\"", &["AR-REVIEW-10"]),
    (
        "working_directory",
        "\"deployment-fallback\"",
        &["AR-RES-CWD-1"],
    ),
    (
        "failures",
        "\"deny\"",
        &["AR-DECIDE-1", "AR-DECIDE-2", "AR-DECIDE-6"],
    ),
    (
        "failures",
        "\"ask\"",
        &[
            "AR-RES-FAIL-1",
            "AR-RES-FAIL-2",
            "AR-RES-FAIL-3",
            "AR-RES-DECIDE-1",
            "AR-RES-ASK-1",
        ],
    ),
    ("preset_read", "\"at-start\"", &["AR-DISPOSE-2"]),
    ("preset_read", "\"current\"", &["AR-RES-DISPOSE-1"]),
    ("confinement", "true", &["AR-CONFINE-*"]),
    ("body_approvals", "\"allowed-call\"", &["AR-APPROVAL-7"]),
];

/// The rules whose values only scenarios needing an observable can tell apart, with that
/// observable (`spec/protocol.md`, "Rules"): an adapter whose `rules` does not name such a rule
/// and that does not observe its observable is checked without it, since every case that could
/// tell is not applicable to it.
pub const RULE_OBSERVABLES: &[(&str, Observable)] = &[
    ("confinement", Observable::Confinement),
    ("body_approvals", Observable::BodyApprovals),
];

impl ProfileSpec {
    /// Where the profile's rules and clauses disagree ([`RULE_CLAUSES`]): the first clause its
    /// rule value rests on that it does not hold, or the first clause of another value it holds,
    /// with what to change.
    fn incoherence(&self) -> Option<String> {
        let held = self.clause_set();
        let values = self.wire_rules().values();
        for (rule, value, clauses) in RULE_CLAUSES {
            let Some((_, mine)) = values.iter().find(|(n, _)| n == rule) else {
                continue;
            };
            let ours = *mine == table_value(value);
            for id in crate::spec::clause_ids() {
                if !clauses.iter().any(|p| covers(p, &id)) {
                    continue;
                }
                if ours && !held.contains(&id) {
                    return Some(format!(
                        "rules.{rule} is {value}, which rests on {id}, and the profile does not hold it: cover it in `clauses` and take it out of `replaces` and `without`"
                    ));
                }
                if !ours && held.contains(&id) {
                    return Some(format!(
                        "rules.{rule} is {mine}, and the profile holds {id}, a clause of {rule} {value}: put it under `without` (or `replaces`), or set {rule} to {value}"
                    ));
                }
            }
        }
        None
    }

    /// This profile with rule `rule` set to `value` and its clauses changed to match
    /// ([`RULE_CLAUSES`]): the old value's clauses go under `without`, the new value's are held.
    /// How a recombined profile is written from a shipped one.
    pub fn with_rule(&self, rule: &str, value: &serde_json::Value) -> Result<ProfileSpec, String> {
        let mut values: serde_json::Map<String, serde_json::Value> =
            self.wire_rules().values().into_iter().collect();
        if !values.contains_key(rule) {
            let names: Vec<&str> = values.keys().map(String::as_str).collect();
            return Err(format!(
                "{rule:?} is not a rule (expected one of {})",
                names.join(", ")
            ));
        }
        let old = values
            .insert(rule.to_owned(), value.clone())
            .unwrap_or_default();
        values.insert("config".to_owned(), serde_json::json!(self.config));
        let wire: WireRules = serde_json::from_value(serde_json::Value::Object(values))
            .map_err(|e| format!("{rule}: {e}"))?;
        let mut out = self.clone();
        out.reader = wire.reader;
        out.rules = wire.rules;
        let ids = crate::spec::clause_ids();
        for (r, v, clauses) in RULE_CLAUSES.iter().filter(|(r, _, _)| *r == rule) {
            for id in ids
                .iter()
                .filter(|id| clauses.iter().any(|p| covers(p, id)))
            {
                if table_value(v) == old {
                    out.replaces.remove(id);
                    out.without
                        .insert(id.clone(), format!("{r} is {value} here"));
                } else if table_value(v) == *value {
                    out.replaces.remove(id);
                    out.without.remove(id);
                    if !out.clauses.iter().any(|p| covers(p, id)) {
                        out.clauses.push(id.clone());
                    }
                }
            }
        }
        Ok(out)
    }
}

/// A value of [`RULE_CLAUSES`], read.
fn table_value(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("RULE_CLAUSES holds JSON values")
}

/// Whether a `clauses` entry covers clause `id`: the ID itself, or with a trailing `*` every ID
/// that begins with the text before it (`AR-RES-*` covers `AR-RES-FAIL-1`, not `AR-RESULT-1`).
fn covers(pattern: &str, id: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(family) => id.len() > family.len() && id.starts_with(family),
        None => pattern == id,
    }
}

/// Every profile file, read once, in the order their files give.
static SPECS: LazyLock<Vec<ProfileSpec>> = LazyLock::new(|| {
    let mut specs: Vec<ProfileSpec> = crate::embedded::PROFILE_FILES
        .iter()
        .map(|(path, text)| {
            ProfileSpec::parse(path, text).unwrap_or_else(|e| {
                // The files are embedded at build time and checked by the suite; a broken one is
                // a defect of the build, not of any input (`profile::tests` checks each file).
                panic!("embedded profile file: {e}")
            })
        })
        .collect();
    specs.sort_by_key(|s| s.order);
    specs
});

/// The profiles loaded from files at run time ([`Profile::load_file`]), each kept for the rest of
/// the process: a run loads one or two.
static LOADED: std::sync::RwLock<Vec<&'static ProfileSpec>> = std::sync::RwLock::new(Vec::new());

/// Why a profile file given at run time cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a valid profile.
    #[error(
        "{0} (a profile file is as spec/profiles/*.json: `autoreview profiles --json` shows each shipped one's rules)"
    )]
    Invalid(#[from] ProfileFileError),
    /// It names a decision table, which only a shipped profile has.
    #[error(
        "{path}: `decision_table` names {table:?}, but a table's rows are written and checked for the rules of the profile that ships it: remove `decision_table` (the run takes the fixed cases whose clauses your profile holds, the corpus of its reader, and generated cases, all judged against the reference engine under your profile)"
    )]
    Table {
        /// The file.
        path: String,
        /// The table it names.
        table: String,
    },
    /// Its name is taken.
    #[error("{path}: `name` {name:?} is {taken}: give your profile a name of its own")]
    Taken {
        /// The file.
        path: String,
        /// The name.
        name: String,
        /// Whose it is.
        taken: &'static str,
    },
}

impl Profile {
    /// Reads a profile file at run time (`--profile-file`) with the same validation and messages
    /// as the shipped ones (unknown members, rule values, clauses and features are refused, naming
    /// the member and what is allowed), and makes it a profile like the others for the rest of
    /// the process. Its name must be its own.
    pub fn load_file(path: &std::path::Path) -> Result<Profile, LoadError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
            path: shown.clone(),
            source,
        })?;
        let spec = ProfileSpec::parse(&shown, &text)?;
        if let Some(table) = &spec.decision_table {
            return Err(LoadError::Table {
                path: shown,
                table: table.clone(),
            });
        }
        Profile::register(&shown, spec)
    }

    /// Makes a profile read from `origin` a profile like the others for the rest of the process.
    fn register(origin: &str, spec: ProfileSpec) -> Result<Profile, LoadError> {
        // One lock for the look and the push, so two threads cannot both take a name.
        let mut loaded = LOADED.write().expect("not poisoned");
        let taken = if SPECS.iter().any(|s| s.name == spec.name) {
            Some("a shipped profile's")
        } else if loaded.iter().any(|s| s.name == spec.name) {
            Some("already loaded from another file")
        } else {
            None
        };
        if let Some(taken) = taken {
            return Err(LoadError::Taken {
                path: origin.to_owned(),
                name: spec.name,
                taken,
            });
        }
        let spec: &'static ProfileSpec = Box::leak(Box::new(spec));
        loaded.push(spec);
        Ok(Profile(spec.name.as_str()))
    }

    /// Whether the profile is one of the files under `spec/profiles/`, not one loaded at run time.
    pub fn is_shipped(self) -> bool {
        SPECS.iter().any(|s| s.name == self.0)
    }

    /// The baseline profile, for code and tests that mean it on purpose.
    pub const BASELINE: Profile = Profile("baseline");
    /// The resilient profile, for code and tests that mean it on purpose.
    pub const RESILIENT: Profile = Profile("resilient");

    /// Every profile, in the order their files give (`order`): the order reports list them in.
    pub fn all() -> Vec<Profile> {
        SPECS.iter().map(|s| Profile(s.name.as_str())).collect()
    }

    /// The profile of that wire name, if a file names it (a shipped one, or one loaded at run
    /// time).
    pub fn named(name: &str) -> Option<Profile> {
        find(name).map(|s| Profile(s.name.as_str()))
    }

    /// Every profile's wire name, in order.
    pub fn names() -> Vec<&'static str> {
        SPECS.iter().map(|s| s.name.as_str()).collect()
    }

    /// The profile's file.
    pub fn spec(self) -> &'static ProfileSpec {
        // A handle is only made from a file's name, and files are never dropped.
        find(self.0).unwrap_or_else(|| panic!("no profile file names the profile {:?}", self.0))
    }

    /// The profile's wire name.
    pub fn as_str(self) -> &'static str {
        self.0
    }

    /// What the profile is, in one line (`--help` lists it beside the name).
    pub fn summary(self) -> &'static str {
        &self.spec().summary
    }
}

/// The file of the profile named `name`: a shipped one, else one loaded at run time.
fn find(name: &str) -> Option<&'static ProfileSpec> {
    SPECS.iter().find(|s| s.name == name).or_else(|| {
        LOADED
            .read()
            .expect("not poisoned")
            .iter()
            .find(|s| s.name == name)
            .copied()
    })
}

/// A profile answers every question its file does ([`ProfileSpec::reader`], …).
impl std::ops::Deref for Profile {
    type Target = ProfileSpec;

    fn deref(&self) -> &ProfileSpec {
        self.spec()
    }
}

impl ProfileSpec {
    /// What the runner's `hello` tells an adapter of this profile.
    pub fn wire_rules(&self) -> WireRules {
        WireRules {
            reader: self.reader,
            rules: self.rules.clone(),
            config: self.config.clone(),
        }
    }

    /// The reader of reviewer replies.
    pub fn reader(&self) -> Reader {
        self.reader
    }

    /// The rules the profile follows where profiles differ.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// How failure messages render provider values (AR-REVIEW-5, AR-RES-NORM-1).
    pub fn failure_text(&self) -> FailureText {
        self.rules.failure_text
    }

    /// Whether a review asks again after a failure (AR-REVIEW-1, AR-RES-RETRY-1).
    pub fn asks_again(&self) -> AsksAgain {
        self.rules.asks_again
    }

    /// Whether a review has a deadline (AR-RES-RETRY-4).
    pub fn has_deadline(&self) -> bool {
        self.rules.deadline
    }

    /// Whether the session counts reviewer failures in a row (AR-RES-HINT-1).
    pub fn counts_failures(&self) -> bool {
        self.rules.counts_failures
    }

    /// Whether reviewer requests carry the session's id (AR-REVIEW-12, AR-RES-REQUEST-1).
    pub fn session_id_in_requests(&self) -> bool {
        self.rules.session_id_in_requests
    }

    /// Which route reviewer requests use (AR-REVIEW-3, AR-RES-ROUTE-1).
    pub fn route(&self) -> RouteRule {
        self.rules.route
    }

    /// Where the pending tool's schema is looked up (AR-REVIEW-2, AR-RES-SCHEMA-1).
    pub fn schema(&self) -> SchemaRule {
        self.rules.schema
    }

    /// What a session without a working directory comes to (AR-REVIEW-10, AR-RES-CWD-1).
    pub fn working_directory(&self) -> WorkingDirectoryRule {
        self.rules.working_directory
    }

    /// What the gate decides once the review settled (AR-DECIDE, AR-RES-FAIL).
    pub fn failures(&self) -> FailureRules {
        self.rules.failures
    }

    /// Which preset the gate reads once disposal moved the session (AR-DISPOSE-2,
    /// AR-RES-DISPOSE-1).
    pub fn preset_read(&self) -> PresetRead {
        self.rules.preset_read
    }

    /// Whether Auto narrows a full-access session on a backend that confines reads
    /// (AR-CONFINE-1..4).
    pub fn confinement(&self) -> bool {
        self.rules.confinement
    }

    /// Who answers the approval requests a call's body raises (AR-APPROVAL-7).
    pub fn body_approvals(&self) -> BodyApprovals {
        self.rules.body_approvals
    }

    /// Whether the profile reads the scenario's `config` member `name`.
    pub fn reads_config(&self, name: &str) -> bool {
        self.config.iter().any(|c| c == name)
    }

    /// Whether the profile has the optional feature `feature` (`spec/protocol.md`, "Optional
    /// features").
    pub fn has_feature(&self, feature: crate::features::Feature) -> bool {
        self.features.iter().any(|f| f == feature.as_str())
    }

    /// The profile's clauses (AR-CONV-2), from its file.
    pub fn clauses(&self) -> BTreeSet<String> {
        self.clause_set()
    }

    /// Whether clause `id` of the spec is one of the profile's (AR-CONV-2): one of its patterns
    /// covers it, and the profile neither replaces it nor goes without it.
    pub fn has_clause(&self, id: &str) -> bool {
        self.clauses.iter().any(|p| covers(p, id))
            && !self.replaces.contains_key(id)
            && !self.without.contains_key(id)
    }
}

impl PartialOrd for Profile {
    fn partial_cmp(&self, other: &Profile) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Profile {
    fn cmp(&self, other: &Profile) -> std::cmp::Ordering {
        (self.spec().order, self.0).cmp(&(other.spec().order, other.0))
    }
}

impl Default for Profile {
    fn default() -> Profile {
        DEFAULT
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name no profile file has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile {name:?}: expected one of {}", Profile::names().join(", "))]
pub struct UnknownProfile {
    /// The name given.
    pub name: String,
}

impl std::str::FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<Profile, UnknownProfile> {
        Profile::named(s).ok_or_else(|| UnknownProfile { name: s.to_owned() })
    }
}

impl Serialize for Profile {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Profile {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Profile, D::Error> {
        let name = String::deserialize(deserializer)?;
        Profile::named(&name).ok_or_else(|| {
            let names = Profile::names();
            serde::de::Error::custom(format!(
                "unknown profile {name:?}, expected one of {}",
                names.join(", ")
            ))
        })
    }
}

impl JsonSchema for Profile {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Profile".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        // Any name, none listed: a profile of one's own (`--profile-file`) is named by its file, so
        // a report or a `hello` of such a run is as valid as one of a shipped profile, and adding a
        // profile changes no schema.
        schemars::json_schema!({
            "description": "A conformance profile's name: a file under `spec/profiles/` (`autoreview profiles` lists them) or a profile of one's own read with `--profile-file`.",
            "type": "string",
            "minLength": 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each entry of the rule-to-clause table names a rule, one of its values, and clauses the
    /// spec has: a typo there would check nothing.
    #[test]
    fn the_rule_clause_table_names_rules_values_and_clauses_that_exist() {
        let ids = crate::spec::clause_ids();
        for (rule, value, clauses) in RULE_CLAUSES {
            let changed = DEFAULT.with_rule(rule, &table_value(value));
            assert!(changed.is_ok(), "{rule} {value}: {changed:?}");
            for p in *clauses {
                assert!(ids.iter().any(|id| covers(p, id)), "{rule} {value}: {p}");
            }
        }
    }

    /// A rule an adapter's `rules` does not name is met where the adapter cannot be sent a case
    /// that tells its values apart: `confinement` without the observable `confinement`. Named, or
    /// observed, it is held to the profile's value; an older rule left out is never met.
    #[test]
    fn a_rule_left_out_is_met_only_where_no_observable_case_can_tell() {
        // The resilient profile confines.
        let wire = Profile::RESILIENT.wire_rules();
        let mut offered: BTreeMap<String, Vec<serde_json::Value>> = wire
            .values()
            .into_iter()
            .filter(|(name, _)| name != "confinement")
            .map(|(name, value)| (name, vec![value]))
            .collect();
        let none = Capabilities::PROTOCOL_1;
        let observing = none.with(crate::capability::Need::Observable(Observable::Confinement));
        assert_eq!(wire.unmet_by(&offered, none), Ok(vec![]));
        assert_eq!(
            wire.unmet_by(&offered, observing),
            Ok(vec!["confinement true".to_owned()])
        );
        offered.insert("confinement".into(), vec![serde_json::Value::Bool(false)]);
        assert_eq!(
            wire.unmet_by(&offered, none),
            Ok(vec!["confinement true".to_owned()])
        );
        offered.insert("confinement".into(), vec![serde_json::Value::Bool(true)]);
        assert_eq!(wire.unmet_by(&offered, observing), Ok(vec![]));
        // A rule every profile always had is unmet when left out, observed or not.
        offered.remove("deadline");
        assert_eq!(
            wire.unmet_by(&offered, none),
            Ok(vec!["deadline true".to_owned()])
        );
    }

    #[test]
    fn every_profile_has_a_file_and_the_files_are_in_order() {
        let names: Vec<&str> = Profile::all().iter().map(|p| p.as_str()).collect();
        let mut files: Vec<&ProfileSpec> = SPECS.iter().collect();
        files.sort_by_key(|s| s.order);
        let ordered: Vec<&str> = files.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ordered, "profiles out of their files' order");
        assert_eq!(names.len(), crate::embedded::PROFILE_FILES.len());
        for p in Profile::all() {
            let path = format!("spec/profiles/{}.json", p.as_str());
            assert!(
                crate::embedded::PROFILE_FILES
                    .iter()
                    .any(|(f, _)| *f == path),
                "{path}"
            );
            // Its own table, or the one of an earlier profile it decides alike with.
            let table = p.spec().decision_table.clone().unwrap_or_default();
            assert!(
                Profile::all()
                    .iter()
                    .take_while(|q| **q != p)
                    .chain([&p])
                    .any(|q| table == format!("decision-table/{q}.json")),
                "{p}: decision table {table:?}"
            );
            assert!(
                crate::table::Table::embedded(p).is_some(),
                "{p}: no decision table at {:?}",
                p.decision_table
            );
        }
        let mut sorted = Profile::all();
        sorted.sort();
        assert_eq!(sorted, Profile::all(), "Ord follows `order`");
    }

    #[test]
    fn the_named_constants_name_their_files() {
        assert_eq!(Profile::BASELINE.as_str(), "baseline");
        assert_eq!(Profile::RESILIENT.as_str(), "resilient");
        assert_eq!(Profile::named("baseline"), Some(Profile::BASELINE));
        assert_eq!(Profile::named("resilient"), Some(Profile::RESILIENT));
        assert_eq!(Profile::default(), DEFAULT);
        assert_eq!(DEFAULT.as_str(), "resilient");
        assert!(Profile::BASELINE < Profile::RESILIENT);
    }

    #[test]
    fn a_profile_travels_as_its_name_and_an_unknown_name_lists_the_names() {
        let names = Profile::names().join(", ");
        for p in Profile::all() {
            assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
            let back: Profile = serde_json::from_value(serde_json::json!(p.as_str())).unwrap();
            assert_eq!(back, p);
            assert_eq!(p.as_str().parse::<Profile>(), Ok(p));
            assert_eq!(p.to_string(), p.as_str());
        }
        let e = serde_json::from_str::<Profile>("\"strict\"").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("unknown profile \"strict\", expected one of {names}")
        );
        let e = "strict".parse::<Profile>().unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("unknown profile \"strict\": expected one of {names}")
        );
        let schema = serde_json::to_value(schemars::schema_for!(Profile)).unwrap();
        assert_eq!(schema["type"], "string");
        // Any name is valid on the wire (a profile of one's own is named by its file), and the
        // schema lists none: a profile added later changes no schema and no kit's declarations.
        assert_eq!(schema["enum"], serde_json::Value::Null);
        assert_eq!(schema["examples"], serde_json::Value::Null);
    }

    /// The baseline's profile file, as JSON to change.
    fn baseline_file() -> serde_json::Value {
        let (_, text) = crate::embedded::PROFILE_FILES
            .iter()
            .find(|(p, _)| p.ends_with("baseline.json"))
            .unwrap();
        serde_json::from_str(text).unwrap()
    }

    /// A profile that only recombines existing rules is a file: written here, it parses, and the
    /// questions the engine asks answer from it, not from a profile's name.
    #[test]
    fn a_new_profile_file_answers_from_its_own_rules() {
        let mut v = baseline_file();
        v["name"] = serde_json::json!("baseline-cwd");
        v["order"] = serde_json::json!(9);
        v["rules"]["working_directory"] = serde_json::json!("deployment-fallback");
        v["clauses"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!("AR-RES-CWD-1"));
        v["replaces"] = serde_json::json!({"AR-REVIEW-10": "AR-RES-CWD-1"});
        let spec = ProfileSpec::parse("spec/profiles/baseline-cwd.json", &v.to_string()).unwrap();
        let baseline = Profile::BASELINE.spec();
        assert_eq!(spec.name, "baseline-cwd");
        // The rule the file changes answers as the file says, where the baseline's does not.
        assert_eq!(baseline.working_directory(), WorkingDirectoryRule::Required);
        assert_eq!(
            spec.working_directory(),
            WorkingDirectoryRule::DeploymentFallback
        );
        // Every other question answers as the file it copies.
        assert_eq!(spec.reader(), Reader::Strict);
        assert_eq!(spec.failure_text(), baseline.failure_text());
        assert_eq!(spec.asks_again(), AsksAgain::Never);
        assert_eq!(spec.failures(), FailureRules::Deny);
        assert_eq!(spec.preset_read(), PresetRead::AtStart);
        assert_eq!(spec.route(), RouteRule::Session);
        assert_eq!(spec.schema(), SchemaRule::Header);
        assert!(!spec.has_deadline() && !spec.counts_failures());
        assert!(!spec.session_id_in_requests());
        assert!(!spec.reads_config("on_failure"));
        // Its clauses: the baseline's, AR-RES-CWD-1 in place of AR-REVIEW-10.
        let clauses = spec.clauses();
        assert!(clauses.contains("AR-RES-CWD-1"));
        assert!(!clauses.contains("AR-REVIEW-10"));
        assert!(baseline.clauses().contains("AR-REVIEW-10"));
        assert_eq!(clauses.len(), baseline.clauses().len());
    }

    #[test]
    fn a_pattern_covers_its_family_and_nothing_else() {
        assert!(covers("AR-RES-*", "AR-RES-FAIL-1"));
        assert!(!covers("AR-RES-*", "AR-RESULT-1"));
        assert!(covers("AR-RES-FAIL-*", "AR-RES-FAIL-12"));
        assert!(!covers("AR-TOL-*", "AR-TOL-"));
        assert!(covers("AR-TOL-3", "AR-TOL-3"));
        assert!(!covers("AR-TOL-3", "AR-TOL-30"));
    }

    #[test]
    fn a_profile_file_that_names_no_clause_or_an_uncovered_one_is_refused() {
        let mut v = baseline_file();
        v["clauses"] = serde_json::json!(["AR-NOPE-*"]);
        let e = ProfileSpec::parse("x.json", &v.to_string()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.json: `clauses` entry \"AR-NOPE-*\" names no clause of spec/auto-review.md"
        );
        let mut v = baseline_file();
        v["without"] = serde_json::json!({"AR-TOL-1": "x"});
        let e = ProfileSpec::parse("x.json", &v.to_string()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.json: `without` names AR-TOL-1, which none of `clauses` covers"
        );
        let mut v = baseline_file();
        v["features"] = serde_json::json!(["failure-hint", "hint"]);
        let e = ProfileSpec::parse("x.json", &v.to_string()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.json: `features` entry \"hint\" is not an optional feature (expected one of \
             failure-hint, failure-class)"
        );
        let mut v = baseline_file();
        v["config"] = serde_json::json!(["temperature", "temprature"]);
        let e = ProfileSpec::parse("x.json", &v.to_string()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.json: `config` entry \"temprature\" is not a configuration member (expected one of \
             on_failure, repair_attempts, transport_retries, review_timeout_ms, reviewer_route, \
             failure_hint_after, temperature, max_json_retries)"
        );
        let mut v = baseline_file();
        v["rules"]["asks_again"] = serde_json::json!("sometimes");
        let e = ProfileSpec::parse("x.json", &v.to_string()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("x.json: rules.asks_again: unknown variant"),
            "{e}"
        );
    }

    /// A clause the text marks as one profile's (`(Baseline.)`) names a shipped profile and is a
    /// clause of no other.
    #[test]
    fn marked_clauses_belong_to_their_profile_only() {
        let mut marked_any = 0;
        for id in crate::spec::clause_ids() {
            let marked = crate::spec::marked_profile(&id);
            if let Some(m) = marked {
                marked_any += 1;
                assert!(
                    Profile::all()
                        .iter()
                        .any(|p| m.eq_ignore_ascii_case(p.as_str())),
                    "{id} is marked ({m}.), which names no profile"
                );
            }
            for p in Profile::all() {
                if let Some(m) = marked
                    && !m.eq_ignore_ascii_case(p.as_str())
                {
                    assert!(
                        !p.clauses().contains(&id),
                        "{id} is marked {m} but is in {p}"
                    );
                }
            }
        }
        assert!(marked_any >= 1, "the text marks {marked_any} clauses");
    }
}
