//! Generated session cases (AR-SESSION-1..3), for an implementation that observes sessions: one
//! generated case in eight also draws a session of calls and lifecycle events. This module draws
//! them, names them and writes them sparse; they are judged call by call against the reference
//! and shrunk (dropping items as well as members) with the generated calls, in
//! [`super::generated`].

use serde_json::Value;

use super::generated::sparse as generated_sparse;
use crate::generate::direct::Rng;
use crate::generate::{SESSION_SHARE, sessions};
use crate::scenario::session::{Item, SessionScenario};

/// Keeps the session draws apart from the single-call stream of the same case, so that a
/// single call drawn for case `k` does not depend on whether the implementation observes
/// sessions.
const SALT: u64 = 0x5e55_1045_5e55_1045;

/// Whether generated case `k` of seed `seed` also draws a session.
pub fn draws_session(seed: u64, k: usize) -> bool {
    Rng::for_case(seed ^ SALT, k as u64).chance(SESSION_SHARE.0, SESSION_SHARE.1)
}

/// The session of generated case `k`.
pub fn draw(seed: u64, k: usize) -> SessionScenario {
    sessions::session_scenario(&mut Rng::for_case(seed.rotate_left(17) ^ SALT, k as u64))
}

/// The ID of generated session case `k`.
pub fn case_id(seed: u64, k: usize) -> String {
    format!("GEN-{seed}-S{k}")
}

/// A session as JSON with members at their default value left out: the session's members as a
/// session that names none has them, and each call as [`sparse`] writes it, without the members
/// that are the session's.
pub fn sparse(session: &SessionScenario) -> Value {
    let mut v = serde_json::to_value(session).unwrap_or(Value::Null);
    let defaults = SessionScenario::from_json(r#"{"calls":[{"event":"select-auto"}]}"#)
        .ok()
        .and_then(|d| serde_json::to_value(d).ok())
        .unwrap_or(Value::Null);
    if let (Value::Object(m), Value::Object(d)) = (&mut v, &defaults) {
        super::generated::prune(m, d, &["calls"]);
    }
    if let Some(Value::Array(items)) = v.get_mut("calls") {
        for (item, call) in items.iter_mut().zip(&session.calls) {
            if let Item::Call(c) = call {
                let mut s = generated_sparse(c);
                if let Value::Object(m) = &mut s {
                    for k in ["session", "config", "preset", "policy"] {
                        m.remove(k);
                    }
                }
                *item = s;
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_one_case_in_eight_draws_a_session_and_draws_repeat() {
        let n = (0..8000).filter(|&k| draws_session(7, k)).count();
        assert!((800..1200).contains(&n), "{n} of 8000");
        assert_eq!(draw(7, 3), draw(7, 3));
        assert_ne!(draw(7, 3), draw(8, 3));
    }
}
