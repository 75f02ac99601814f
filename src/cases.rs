//! Fixed conformance cases: the decision table's rows (each with its example scenario) and the
//! hand-written case files under `spec/cases/`, each carrying an expectation that was written from
//! the spec, not taken from the engine. A case file's scenario may be a session scenario; its
//! expectation then holds one partial outcome per item (`{"calls": [...]}`).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::capability::{Capabilities, Need, Observable};
use crate::outcome::Outcome;
use crate::profile::Profile;
use crate::scenario::Scenario;
use crate::scenario::session::Input;
use crate::table::{self, Table};

/// The area of the cases a decision table's rows give (one per row, expanded for its profile).
pub const ROW_AREA: &str = "decision-table";

/// One fixed case.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// Permanent case ID.
    pub id: String,
    /// The area it belongs to, for reports.
    pub area: String,
    /// One line saying what it pins down.
    pub title: String,
    /// The clauses it exercises.
    pub clauses: Vec<String>,
    /// The scenario: one call, or a session of calls and events.
    pub scenario: Input,
    /// What the outcome must be.
    pub expect: Expectation,
    /// Whether the behaviour is implementation-defined (an `i_` corpus entry): another
    /// implementation is then held only to the safety rules.
    pub implementation_defined: bool,
}

impl Case {
    /// Whether the case is a decision table's row ([`ROW_AREA`]).
    pub fn is_row(&self) -> bool {
        self.area == ROW_AREA
    }
}

impl Case {
    /// What deciding the case takes beyond protocol 1 ([`Capabilities::needed_by`]), and `requests`
    /// when its expectation names `review.requests` (AR-REVIEW-12). An exact expectation (a
    /// decision-table row) holds requests as every outcome does, but pins nothing about them
    /// that the reference comparison does not already check where they are observed.
    pub fn needs(&self) -> Capabilities {
        let needs = Capabilities::needed_by(&self.scenario);
        match &self.expect {
            Expectation::Partial(want) if names_requests(want) => {
                needs.with(Need::Observable(Observable::Requests))
            }
            _ => needs,
        }
    }

    /// The single call, when the case is not a session.
    pub fn call(&self) -> Option<&Scenario> {
        match &self.scenario {
            Input::One(s) => Some(s),
            Input::Session(_) => None,
        }
    }
}

/// Whether a partial expectation pins `review.requests` of some call.
fn names_requests(want: &Value) -> bool {
    let in_call = |v: &Value| v.get("review").is_some_and(|r| r.get("requests").is_some());
    in_call(want)
        || want
            .get("calls")
            .and_then(Value::as_array)
            .is_some_and(|calls| calls.iter().any(in_call))
}

/// What a case's outcome must be.
#[derive(Debug, Clone, PartialEq)]
pub enum Expectation {
    /// Exactly this outcome (decision-table rows, expanded from the row).
    Exact(Box<Outcome>),
    /// The outcome must contain these members (hand-written cases); see `matches_partial`.
    Partial(Value),
}

/// A case file under `spec/cases/`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    area: String,
    #[allow(dead_code)]
    about: String,
    cases: Vec<CaseEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseEntry {
    id: String,
    title: String,
    clauses: Vec<String>,
    /// The rule values the expectation rests on beyond its clauses, where a profile keeps a clause
    /// but amends part of it by a rule (AR-RES-PROFILE-1): `{"session_id_in_requests": false}`.
    #[serde(default)]
    rules: BTreeMap<String, Value>,
    /// Configuration members the expectation rests on the profile reading (`true`) or ignoring
    /// (`false`): `{"temperature": false}` for a case about a profile that sends 0 whatever is
    /// configured.
    #[serde(default)]
    reads: BTreeMap<String, bool>,
    /// Only in a user's case file, as `--freeze` writes it: the profiles the case runs under,
    /// instead of the clauses and rules it holds.
    #[serde(default)]
    profiles: Option<Vec<Profile>>,
    scenario: Value,
    expect: Value,
}

/// Why the fixed cases could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    /// A case file is malformed.
    #[error("{file}: {message}")]
    File {
        /// The file.
        file: String,
        /// What was wrong.
        message: String,
    },
    /// A decision table is malformed.
    #[error(transparent)]
    Table(#[from] table::TableError),
    /// A table row cannot be expanded for its own example.
    #[error(transparent)]
    Expand(#[from] table::expand::ExpandError),
    /// The reviewer-output corpus is malformed.
    #[error(transparent)]
    Corpus(#[from] crate::corpus::CorpusError),
}

/// Every fixed case that applies to `profile`: the table's rows first, then the case files.
///
/// A case applies to a profile by what its expectation rests on ([`applies`]), never by the
/// profile's name; the corpus by reader. A profile loaded from a file at run time has no table,
/// so no rows.
pub fn all(profile: Profile) -> Result<Vec<Case>, CaseError> {
    let mut out = if profile.is_shipped() {
        table_cases(profile)?
    } else {
        Vec::new()
    };
    for (file, text) in crate::embedded::CASE_FILES {
        out.extend(file_cases(file, text, profile)?);
    }
    out.extend(corpus_cases(profile)?);
    Ok(out)
}

/// One case per decision-table row, expecting exactly what the row prescribes for its example.
pub fn table_cases(profile: Profile) -> Result<Vec<Case>, CaseError> {
    let t = Table::load(profile)?;
    t.rows
        .iter()
        .map(|r| {
            let want = table::expand::expected(&t, r, &r.example.scenario)?;
            let mut scenario = r.example.scenario.clone();
            scenario.id = Some(r.id.clone());
            let mut want = want;
            want.id = scenario.id.clone();
            Ok(Case {
                id: r.id.clone(),
                area: ROW_AREA.to_owned(),
                title: r.title.clone(),
                clauses: r.clauses.clone(),
                scenario: Input::One(Box::new(scenario)),
                expect: Expectation::Exact(Box::new(want)),
                implementation_defined: false,
            })
        })
        .collect()
}

/// The cases of one case file that apply to `profile`.
pub fn file_cases(file: &str, text: &str, profile: Profile) -> Result<Vec<Case>, CaseError> {
    cases_of(file, parse_file(file, text)?, profile)
}

/// What a case rests on beyond its scenario: the clauses it cites, the rule values and the
/// configuration members read or ignored its expectation assumes, or the profiles a user's case
/// lists instead.
#[derive(Debug, Clone, Copy)]
pub struct Selector<'a> {
    /// The profiles a user's case lists (as `--freeze` writes them), instead of the rest.
    pub listed: Option<&'a [Profile]>,
    /// The clauses its expectation rests on (AR-CONV-2).
    pub clauses: &'a [String],
    /// Rule values it rests on (`rules`).
    pub rules: &'a BTreeMap<String, Value>,
    /// Configuration members it rests on being read or ignored (`reads`).
    pub reads: &'a BTreeMap<String, bool>,
}

/// Whether a case applies to `profile`: the profile holds every clause the case cites (AR-CONV-2),
/// follows every rule value the case rests on (`rules`) and reads or ignores each configuration
/// member as the case says (`reads`). A user's case that lists `profiles` (as `--freeze` writes
/// them) applies to those alone.
pub fn applies(case: Selector<'_>, profile: Profile) -> bool {
    if let Some(listed) = case.listed {
        return listed.contains(&profile);
    }
    let held = profile.clauses();
    let values = profile.wire_rules().values();
    case.clauses.iter().all(|c| held.contains(c))
        && case
            .rules
            .iter()
            .all(|(name, value)| values.iter().any(|(n, v)| n == name && v == value))
        && case
            .reads
            .iter()
            .all(|(name, read)| profile.reads_config(name) == *read)
}

/// Checks a case's `rules`: each names a rule the profiles have, with one of its values.
fn check_rules(rules: &BTreeMap<String, Value>) -> Result<(), String> {
    for (name, value) in rules {
        crate::profile::DEFAULT.with_rule(name, value)?;
    }
    Ok(())
}

/// Checks a case's `reads`: each names a configuration member.
fn check_reads(reads: &BTreeMap<String, bool>) -> Result<(), String> {
    use crate::scenario::Config;
    match reads
        .keys()
        .find(|k| !Config::MEMBERS.contains(&k.as_str()))
    {
        Some(name) => Err(format!(
            "{name:?} is not a configuration member (expected one of {})",
            Config::MEMBERS.join(", ")
        )),
        None => Ok(()),
    }
}

/// A case file read, not yet checked case by case.
fn parse_file(file: &str, text: &str) -> Result<CaseFile, CaseError> {
    let err = |message: String| CaseError::File {
        file: file.to_owned(),
        message,
    };
    crate::scenario::portable::check(text)
        .map_err(|e| err(crate::scenario::ScenarioError::from(e).to_string()))?;
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        err(format!(
            "{}: {} (a case file is {{\"area\", \"about\", \"cases\": [{{\"id\", \"title\", \"clauses\", \"rules\"?, \"reads\"?, \"scenario\", \"expect\"}}]}}, as spec/cases/*.json)",
            e.path(),
            e.inner()
        ))
    })
}

/// The cases of a read case file that apply to `profile`, each scenario and expectation checked.
fn cases_of(file: &str, parsed: CaseFile, profile: Profile) -> Result<Vec<Case>, CaseError> {
    let err = |message: String| CaseError::File {
        file: file.to_owned(),
        message,
    };
    let mut out = Vec::new();
    for (i, entry) in parsed.cases.into_iter().enumerate() {
        check_rules(&entry.rules)
            .map_err(|e| err(format!("cases[{i}].rules (case {}): {e}", entry.id)))?;
        check_reads(&entry.reads)
            .map_err(|e| err(format!("cases[{i}].reads (case {}): {e}", entry.id)))?;
        let selector = Selector {
            listed: entry.profiles.as_deref(),
            clauses: &entry.clauses,
            rules: &entry.rules,
            reads: &entry.reads,
        };
        if !applies(selector, profile) {
            continue;
        }
        let mut scenario = Input::from_value(&entry.scenario)
            .map_err(|e| err(format!("cases[{i}].scenario (case {}): {e}", entry.id)))?;
        match &mut scenario {
            Input::One(s) => s.id = Some(entry.id.clone()),
            Input::Session(s) => {
                s.id = Some(entry.id.clone());
                session_expectation(&entry.expect, s.calls.len())
                    .map_err(|e| err(format!("cases[{i}].expect (case {}): {e}", entry.id)))?;
            }
        }
        out.push(Case {
            id: entry.id,
            area: parsed.area.clone(),
            title: entry.title,
            clauses: entry.clauses,
            scenario,
            expect: Expectation::Partial(entry.expect),
            implementation_defined: false,
        });
    }
    Ok(out)
}

/// Every ID the suite holds or held, with where: the fixed cases of every profile (the table's
/// rows, the case files, the corpus) by file, and the IDs `spec/case-ids.json` retired.
fn suite_ids() -> Result<BTreeMap<String, String>, CaseError> {
    let mut out = BTreeMap::new();
    for profile in Profile::all() {
        for r in Table::load(profile)?.rows {
            out.insert(
                r.id,
                format!("spec/{}", profile.decision_table.as_deref().unwrap_or("")),
            );
        }
    }
    for (file, text) in crate::embedded::CASE_FILES {
        for e in parse_file(file, text)?.cases {
            out.insert(e.id, (*file).to_owned());
        }
    }
    for id in crate::corpus::ids()? {
        out.insert(id, "spec/corpus/reviewer-output/index.json".to_owned());
    }
    if let Ok(lock) = crate::ids::Lock::committed() {
        for (id, why) in lock.retired {
            out.entry(id)
                .or_insert_with(|| format!("{} (retired: {why})", crate::ids::PATH));
        }
    }
    Ok(out)
}

/// Whether `id` can be the permanent ID of a user's case: letters, digits, `-`, `_` and `.`, not
/// a generated case's ID (`GEN-…`), which names a case of a seed, nor the runner's own
/// [`crate::ids::TAIL_ID`]. `Err` says what is wrong.
fn user_id(id: &str) -> Result<(), String> {
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err(format!(
            "{id:?} is not a case ID: write letters, digits, `-`, `_` and `.` (as GX-1A2B3C4D5E or MY-7)"
        ));
    }
    if id.starts_with("GEN-") || id == crate::ids::TAIL_ID {
        return Err(format!(
            "{id} is reserved for the runner's own results (GEN-… are generated cases): give the case an ID of its own"
        ));
    }
    Ok(())
}

/// The user's case files (`check --cases`), each `(path, text)`: for each file in order, its cases
/// that apply to `profile`. Every case of every file is checked, whatever its profiles: a
/// malformed file is an error naming the file and the path in it, and so is an ID that is not a
/// permanent ID of its own — one the suite holds or retired (naming the suite's file), one
/// another file or case given here holds (naming both), or a reserved one.
pub fn user_cases(
    files: &[(String, String)],
    profile: Profile,
) -> Result<Vec<Vec<Case>>, CaseError> {
    if files.is_empty() {
        // Nothing to check against the suite's IDs, which take every profile's cases to list.
        return Ok(Vec::new());
    }
    let suite = suite_ids()?;
    let mut seen: BTreeMap<String, (String, usize)> = BTreeMap::new();
    let mut out = Vec::new();
    for (file, text) in files {
        let err = |message: String| CaseError::File {
            file: file.clone(),
            message,
        };
        let parsed = parse_file(file, text)?;
        for (i, e) in parsed.cases.iter().enumerate() {
            user_id(&e.id).map_err(|m| err(format!("cases[{i}].id: {m}")))?;
            if let Some(there) = suite.get(&e.id) {
                return Err(err(format!(
                    "cases[{i}].id: {} is an ID of the suite's ({there}): give the case an ID of its own",
                    e.id
                )));
            }
            if let Some((other, j)) = seen.get(&e.id) {
                return Err(err(format!(
                    "cases[{i}].id: {} is also the ID of cases[{j}] in {other}: an ID names one case; give one of them another ID, or drop the copy",
                    e.id
                )));
            }
            seen.insert(e.id.clone(), (file.clone(), i));
        }
        out.push(cases_of(file, parsed, profile)?);
    }
    Ok(out)
}

/// Checks a session case's expectation: `{"calls": [...]}` with one partial outcome per item, so
/// that a missing or extra item in the outcome is caught by the array's length.
fn session_expectation(expect: &Value, items: usize) -> Result<(), String> {
    let calls = match expect {
        Value::Object(m) if m.len() == 1 => m.get("calls").and_then(Value::as_array),
        _ => None,
    };
    match calls {
        None => Err(
            "a session case expects {\"calls\": [one partial outcome per call or event]}"
                .to_owned(),
        ),
        Some(c) if c.len() != items => Err(format!(
            "the session has {items} items and the expectation {} entries: give one per item",
            c.len()
        )),
        Some(_) => Ok(()),
    }
}

/// The two cases `autoreview smoke` runs: a plain allow that must run the body, and a denial
/// under `never` that must be final.
pub fn smoke_cases() -> Vec<Case> {
    let case = |id: &str, title: &str, json: serde_json::Value| Case {
        id: id.into(),
        area: "smoke".into(),
        title: title.into(),
        clauses: vec!["AR-DECIDE-4".into()],
        scenario: Input::One(Box::new(
            Scenario::from_value(&json).unwrap_or_else(|e| panic!("smoke case {id}: {e}")),
        )),
        expect: Expectation::Partial(serde_json::Value::Null),
        implementation_defined: false,
    };
    vec![
        case(
            "SMOKE-ALLOW",
            "an allowed call runs",
            serde_json::json!({"tool": {"name": "list_agents"}, "reviewer": {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}}),
        ),
        case(
            "SMOKE-DENY",
            "a denial under never is final",
            serde_json::json!({"tool": {"name": "pwsh"}, "policy": "never", "reviewer": {"text": "{\"risk\":\"high\",\"decision\":\"deny\"}"}}),
        ),
    ]
}

/// One case per corpus entry that applies to `profile`: the reply is the reviewer's only attempt
/// under the policy `never`, so the outcome shows the verdict directly — an allow runs the body, a
/// deny is a final denial carrying its reason, a failure is a failed review.
pub fn corpus_cases(profile: Profile) -> Result<Vec<Case>, CaseError> {
    use crate::corpus::Expect;
    let mut out = Vec::new();
    for entry in crate::corpus::load_for(profile)? {
        let scenario = Scenario {
            id: Some(entry.id.clone()),
            tool: crate::scenario::Tool {
                name: "probe".into(),
                call: Default::default(),
            },
            agent: true,
            preset: Default::default(),
            policy: crate::scenario::Policy {
                override_: Some(crate::scenario::ApprovalPolicy::Never),
                default: crate::scenario::ApprovalPolicy::Never,
            },
            schema: Default::default(),
            log: Default::default(),
            // Moved, not copied: some replies are a megabyte, made up for this load alone.
            reviewer: crate::scenario::Reviewer::One(entry.attempt),
            downstream: Default::default(),
            approval: Default::default(),
            abort: Default::default(),
            session: Default::default(),
            config: Default::default(),
            body: Vec::new(),
        };
        let expect = match &entry.expect {
            Expect::Accept(d) if d.decision == "allow" => {
                serde_json::json!({"result": {"executed": true}, "review": {"failure": null}})
            }
            Expect::Accept(d) => {
                let mut info = serde_json::json!({"name": "AutoReviewDeniedError", "code": "AUTO_REVIEW_DENIED"});
                if let Some(r) = &d.reason {
                    info["reason"] = r.clone().into();
                }
                serde_json::json!({"listener": {"kind": "deny", "info": {"$exact": info}}, "review": {"failure": null}})
            }
            Expect::Reject => {
                serde_json::json!({"result": {"executed": false}, "review": {"failure": {"$not": null}}})
            }
            Expect::NeverAllow => serde_json::json!({"result": {"executed": false}}),
        };
        out.push(Case {
            id: entry.id.clone(),
            area: "reviewer-output".to_owned(),
            title: format!("{}: {}", entry.name, entry.note),
            clauses: entry.clauses.clone(),
            scenario: Input::One(Box::new(scenario)),
            expect: Expectation::Partial(expect),
            implementation_defined: entry.expect == Expect::NeverAllow,
        });
    }
    Ok(out)
}

/// Whether `actual` contains `expected`: objects match when every member of `expected` matches the
/// same member of `actual`; arrays match element by element and in length; anything else matches
/// by equality. Three objects are matchers: `{"$prefix": "..."}` matches any string starting with
/// that text, `{"$exact": v}` matches only `v` itself (no extra members), and `{"$not": v}`
/// matches anything but `v`. Returns the JSON pointer of the first mismatch.
pub fn matches_partial(expected: &Value, actual: &Value) -> Result<(), String> {
    fn walk(e: &Value, a: &Value, at: &mut String) -> Result<(), String> {
        match (e, a) {
            (Value::Object(em), _) if em.len() == 1 && em.contains_key("$exact") => {
                if &em["$exact"] == a {
                    Ok(())
                } else {
                    Err(at.clone())
                }
            }
            (Value::Object(em), _) if em.len() == 1 && em.contains_key("$not") => {
                if &em["$not"] != a {
                    Ok(())
                } else {
                    Err(at.clone())
                }
            }
            (Value::Object(em), _) if em.len() == 1 && em.contains_key("$prefix") => {
                match (&em["$prefix"], a) {
                    (Value::String(p), Value::String(s)) if s.starts_with(p.as_str()) => Ok(()),
                    _ => Err(at.clone()),
                }
            }
            (Value::Object(em), Value::Object(am)) => {
                for (k, ev) in em {
                    let len = at.len();
                    crate::outcome::push_token(at, k);
                    match am.get(k) {
                        Some(av) => walk(ev, av, at)?,
                        None => return Err(at.clone()),
                    }
                    at.truncate(len);
                }
                Ok(())
            }
            (Value::Array(ev), Value::Array(av)) => {
                if ev.len() != av.len() {
                    return Err(at.clone());
                }
                for (i, (x, y)) in ev.iter().zip(av).enumerate() {
                    let len = at.len();
                    at.push_str(&format!("/{i}"));
                    walk(x, y, at)?;
                    at.truncate(len);
                }
                Ok(())
            }
            _ if e == a => Ok(()),
            _ => Err(at.clone()),
        }
    }
    let mut at = String::new();
    walk(expected, actual, &mut at).map_err(|p| if p.is_empty() { "/".to_owned() } else { p })
}

#[cfg(test)]
mod tests {
    /// A case's `rules` name a rule with one of its values; anything else says what is allowed.
    #[test]
    fn case_rules_are_checked_against_the_rules_there_are() {
        let rules = |text: &str| -> BTreeMap<String, Value> { serde_json::from_str(text).unwrap() };
        assert_eq!(
            check_rules(&rules(r#"{"session_id_in_requests": false}"#)),
            Ok(())
        );
        assert_eq!(
            check_rules(&rules(r#"{"failures": "deny", "reader": "strict"}"#)),
            Ok(())
        );
        let e = check_rules(&rules(r#"{"failures": "lenient"}"#)).unwrap_err();
        assert!(e.starts_with("failures: unknown variant `lenient`"), "{e}");
        let e = check_rules(&rules(r#"{"colour": "blue"}"#)).unwrap_err();
        assert!(
            e.starts_with("\"colour\" is not a rule (expected one of reader, "),
            "{e}"
        );
        let e = check_rules(&rules(r#"{"deadline": "yes"}"#)).unwrap_err();
        assert!(e.starts_with("deadline: "), "{e}");
    }

    use super::*;

    /// What the runner writes to an adapter reads back as the same scenario, for every fixed case
    /// of either profile: no member is lost or changed on the way out.
    #[test]
    fn every_fixed_scenario_reads_back_as_written() {
        for profile in Profile::all() {
            let cases = all(profile).unwrap();
            assert!(cases.len() > 100, "{profile:?}: {} cases", cases.len());
            for case in cases {
                let written = serde_json::to_value(&case.scenario).unwrap();
                assert_eq!(
                    Input::from_value(&written).as_ref(),
                    Ok(&case.scenario),
                    "{}",
                    case.id
                );
                assert_eq!(
                    Input::from_json(&written.to_string()).as_ref(),
                    Ok(&case.scenario),
                    "{}",
                    case.id
                );
            }
        }
    }
}
