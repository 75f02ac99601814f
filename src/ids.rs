//! Permanent case IDs (`spec/case-ids.json`): every fixed case's ID with a hash of its content,
//! and the IDs that were retired. An ID is never reused, and a case that changes under the same
//! ID is caught: its hash no longer matches the lock.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cases::{Case, Expectation};

/// The ID of the result that stands for what an implementation did after its last answer: one per
/// process, so each shard of a run may have its own. No case may take it.
pub const TAIL_ID: &str = "PROTOCOL-TAIL";

/// The lock file, relative to the package root.
pub const PATH: &str = "spec/case-ids.json";

/// The committed lock text, embedded at build time.
pub const TEXT: &str = include_str!("../spec/case-ids.json");

/// The lock: active IDs with their content hash, retired IDs with why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lock {
    /// What the file is.
    pub about: String,
    /// Active case IDs and the hash of each case's content.
    pub cases: BTreeMap<String, String>,
    /// Retired IDs, never to be used again, with the reason.
    pub retired: BTreeMap<String, String>,
}

impl Lock {
    /// The committed lock.
    pub fn committed() -> Result<Lock, serde_json::Error> {
        serde_json::from_str(TEXT)
    }

    /// The lock's text.
    pub fn to_text(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// JSON with object members sorted, so a hash does not change when only member order does.
fn canonical(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let sorted: BTreeMap<&String, Value> =
                m.iter().map(|(k, v)| (k, canonical(v))).collect();
            Value::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// FNV-1a, 64 bits: enough to notice a change, not a security measure.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The hash of a case's content: its scenario, its expectation and whether it is
/// implementation-defined (not its title, area or clause links).
pub fn content_hash(case: &Case) -> String {
    let mut scenario = serde_json::to_value(&case.scenario).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut scenario {
        m.remove("id");
    }
    let expect = match &case.expect {
        Expectation::Exact(o) => {
            let mut v = serde_json::to_value(o.as_ref()).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.remove("id");
            }
            serde_json::json!({ "exact": v })
        }
        Expectation::Partial(v) => serde_json::json!({ "partial": v }),
    };
    let content = serde_json::json!({
        "scenario": scenario,
        "expect": expect,
        "implementation_defined": case.implementation_defined,
    });
    text_hash(&serde_json::to_string(&canonical(&content)).unwrap_or_default())
}

/// The hash of a text, written as the lock files write it (`fnv1a64:` and 16 hex digits).
pub fn text_hash(text: &str) -> String {
    format!("fnv1a64:{:016x}", fnv1a64(text.as_bytes()))
}

/// Every fixed case of every profile, once per ID, with its hash. An ID whose content differs
/// between profiles is reported as an error, except a table row's: profiles that share a table
/// (`Table::load`) expand its rows under their own rules, and the row, its example and the engine
/// are what the case holds; its hash is the one under the first profile that names the table.
pub fn current() -> Result<BTreeMap<String, (String, Vec<crate::Profile>)>, String> {
    let mut out: BTreeMap<String, (String, Vec<crate::Profile>)> = BTreeMap::new();
    for profile in crate::Profile::all() {
        for case in crate::cases::all(profile).map_err(|e| e.to_string())? {
            let h = content_hash(&case);
            match out.get_mut(&case.id) {
                Some((seen, profiles)) if *seen == h || case.is_row() => profiles.push(profile),
                Some(_) => {
                    return Err(format!(
                        "case {} has different content in different profiles",
                        case.id
                    ));
                }
                None => {
                    out.insert(case.id.clone(), (h, vec![profile]));
                }
            }
        }
    }
    Ok(out)
}

/// What keeps the committed lock from matching the cases, one line each; empty when it matches.
pub fn problems(
    lock: &Lock,
    current: &BTreeMap<String, (String, Vec<crate::Profile>)>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (id, (hash, _)) in current {
        if let Some(why) = lock.retired.get(id) {
            out.push(format!(
                "{id} was retired ({why}) and must not be used again: give the case a new ID"
            ));
        } else {
            match lock.cases.get(id) {
                None => out.push(format!("{id} is new: record it with `autoreview cases --lock`")),
                Some(h) if h != hash => out.push(format!(
                    "{id} changed under the same ID: give the changed case a new ID and retire {id} \
                     (`autoreview cases --lock --retire {id}=\"why\"`), or, if the change does not alter what the case \
                     pins down, accept it with `autoreview cases --lock --accept {id}`"
                )),
                Some(_) => {}
            }
        }
    }
    for id in lock.cases.keys() {
        if !current.contains_key(id) {
            out.push(format!("{id} is in {PATH} but no case has it: retire it with `autoreview cases --lock --retire {id}=\"why\"`"));
        }
    }
    out
}

/// The lock updated for the current cases: new IDs are added; changed hashes are taken only for
/// `accept`ed IDs; `retire`d IDs move to the retired list. Returns the problems left.
pub fn update(
    lock: &Lock,
    current: &BTreeMap<String, (String, Vec<crate::Profile>)>,
    accept: &[String],
    retire: &[(String, String)],
) -> (Lock, Vec<String>) {
    let mut next = lock.clone();
    if next.about.is_empty() {
        next.about = "Permanent IDs of the fixed cases with a hash of each case's content (scenario and expectation). An ID is never reused: a case that changes what it pins down gets a new ID and the old one is retired. Maintained with `autoreview cases --lock`.".into();
    }
    for (id, why) in retire {
        next.cases.remove(id);
        next.retired.insert(id.clone(), why.clone());
    }
    for (id, (hash, _)) in current {
        if next.retired.contains_key(id) {
            continue;
        }
        match next.cases.get(id) {
            None => {
                next.cases.insert(id.clone(), hash.clone());
            }
            Some(h) if h != hash && accept.contains(id) => {
                next.cases.insert(id.clone(), hash.clone());
            }
            Some(_) => {}
        }
    }
    let left = problems(&next, current);
    (next, left)
}
