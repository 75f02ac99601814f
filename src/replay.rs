//! The replay fixture (`spec/fixtures/replay.jsonl`): scenarios in their canonical form, what the
//! scripted world answers for each of their calls, and the reference engine's outcome, one JSON
//! line each. A language kit's own tests replay it: its decoder reads every canonical scenario,
//! its scripted world answers as the line says, and its example gate reaches the outcome. It is
//! what a kit in another language is built against (`adapters/node/README.md`).
//!
//! Each line names its profile and carries its rules (what a runner's `hello` tells an adapter).
//! The lines are, for each profile, a call at every default ([`DEFAULTS`]), the fixed cases whose
//! canonical scenario is short, then calls
//! and sessions drawn by the generator from [`SEED`]: between them every member of the canonical
//! form takes more than one value (`replay` tests in `tests/suite`).

use serde_json::{Value, json};

use crate::profile::Profile;
use crate::protocol::ReplyKind;
use crate::scenario::canonical;
use crate::scenario::session::Input;

/// The longest canonical scenario, in bytes of JSON, a fixed case may have to be replayed: the
/// few longer ones carry megabytes of reviewer text that test a gate's reader, not a kit.
pub const MAX_SCENARIO_BYTES: usize = 16 * 1024;

/// The seed the generated lines are drawn from.
pub const SEED: u64 = 20_261_201;

/// The first line of each profile: a call naming only what a scenario must name, so that its
/// canonical form shows every default written out.
pub const DEFAULTS: &str = r#"{"tool": {"name": "pwsh"}, "reviewer": {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}}"#;

/// How many generated calls, and how many generated sessions, each profile adds.
pub const GENERATED: usize = 60;

/// Every line of the fixture, in order.
pub fn lines() -> Result<Vec<Value>, crate::cases::CaseError> {
    let mut out = Vec::new();
    for profile in Profile::all() {
        // Every member at its default: what a kit's tests can start a scenario of their own from.
        let defaults = Input::from_json(DEFAULTS).expect("the defaults scenario reads");
        out.extend(line("DEFAULTS", profile, &defaults));
        for case in crate::cases::all(profile)? {
            out.extend(line(&case.id, profile, &case.scenario));
        }
        for k in 0..GENERATED {
            let call = crate::runner::generated::draw(SEED, k);
            if let Ok(call) = call.realizable() {
                out.extend(line(
                    &format!("GEN-{SEED}-{k}"),
                    profile,
                    &Input::One(Box::new(call)),
                ));
            }
            let session = crate::runner::generated_sessions::draw(SEED, k);
            if let Ok(session) = session.realizable() {
                out.extend(line(
                    &crate::runner::generated_sessions::case_id(SEED, k),
                    profile,
                    &Input::Session(session),
                ));
            }
        }
    }
    Ok(out)
}

/// The fixture's text: one line per [`lines`] entry.
pub fn text() -> Result<String, crate::cases::CaseError> {
    let mut s = String::new();
    for line in lines()? {
        s.push_str(&line.to_string());
        s.push('\n');
    }
    Ok(s)
}

/// The line of one scenario under `profile`, unless its canonical form is too long to replay.
fn line(case: &str, profile: Profile, input: &Input) -> Option<Value> {
    let scenario = canonical::input(input);
    if scenario.to_string().len() > MAX_SCENARIO_BYTES {
        return None;
    }
    let reply = match input {
        Input::One(_) => ReplyKind::Call,
        Input::Session(_) => ReplyKind::Session,
    };
    Some(json!({
        "case": case,
        "profile": profile,
        "rules": profile.wire_rules(),
        "reply": reply,
        "scenario": scenario,
        "world": canonical::world(input),
        "outcome": crate::engine::decide_input(input, profile),
    }))
}

/// Where the committed fixture lives, from the crate's root.
pub const PATH: &str = "spec/fixtures/replay.jsonl";
