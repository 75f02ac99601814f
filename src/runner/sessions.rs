//! Generated session cases (AR-SESSION-1..3), for an implementation that observes sessions: one
//! generated case in eight also draws a session of calls and lifecycle events, judged call by
//! call against the reference, and a failing session is shrunk by dropping items as well as
//! members.

use serde_json::Value;

use super::generated::{Plan, sparse};
use super::{CaseResult, Implementation, Status, Verdict, compare, expect::Expected};
use crate::generate::direct::Rng;
use crate::generate::{SESSION_SHARE, sessions};
use crate::outcome::InputOutcome;
use crate::profile::Profile;
use crate::protocol::Observes;
use crate::scenario::session::{Input, Item, SessionScenario};

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

/// A session that shows a difference, shrunk.
#[derive(Debug, Clone)]
pub struct SessionCounterexample {
    /// The generated case it was found in.
    pub id: String,
    /// The smallest session found that still shows the difference.
    pub minimal: SessionScenario,
    /// The verdict on it.
    pub verdict: Verdict,
    /// The reference's outcome for the minimal session, as far as the implementation observes it.
    pub reference: crate::outcome::SessionOutcome,
    /// How many candidates were tried.
    pub steps: u32,
}

impl SessionCounterexample {
    /// The minimal session as JSON, each call without the members that hold their default.
    pub fn minimal_json(&self) -> Value {
        let mut v = serde_json::to_value(&self.minimal).unwrap_or(Value::Null);
        // The session's members as a session that names none has them.
        let defaults = SessionScenario::from_json(r#"{"calls":[{"event":"select-auto"}]}"#)
            .ok()
            .and_then(|d| serde_json::to_value(d).ok())
            .unwrap_or(Value::Null);
        if let (Value::Object(m), Value::Object(d)) = (&mut v, &defaults) {
            super::generated::prune(m, d, &["calls"]);
        }
        if let Some(Value::Array(items)) = v.get_mut("calls") {
            for (item, call) in items.iter_mut().zip(&self.minimal.calls) {
                if let Item::Call(c) = call {
                    let mut s = sparse(c);
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
}

/// What the session part of a generated run found.
#[derive(Debug, Default)]
pub struct SessionsRun {
    /// Sessions that did not simply pass.
    pub results: Vec<CaseResult>,
    /// Sessions drawn and judged.
    pub cases: usize,
    /// Of which passed.
    pub passed: usize,
    /// Of which were not sent: they need a capability the implementation lacks.
    pub not_applicable: usize,
    /// The differences, shrunk: one per kind, up to the plan's limit.
    pub counterexamples: Vec<SessionCounterexample>,
    /// What the judged sessions reached ([`crate::generate::coverage::session`]).
    pub reach: crate::generate::coverage::Coverage,
}

/// Asks the implementation about a session and judges the answer against the reference.
pub fn judge(
    imp: &mut dyn Implementation,
    s: &SessionScenario,
    profile: Profile,
    observes: Observes,
) -> Verdict {
    let reference = compare::observed(
        InputOutcome::Session(crate::engine::decide_session(s, profile)),
        observes,
    );
    // A session that needs a capability the implementation lacks is not sent.
    let lacks = imp.lacks();
    if lacks != crate::capability::Lacks::NONE {
        let needs = crate::capability::needed_by(&Input::Session(s.clone()), &reference);
        if let Some(verdict) = super::lacking(lacks, needs) {
            return verdict;
        }
    }
    let answer = super::ask_session_safely(imp, s, profile, &mut || {});
    super::judged(answer, |outcome| {
        let outcome = compare::observed(InputOutcome::Session(outcome), observes);
        compare::compare_input(&reference, &outcome)
    })
}

/// Shrinks `start` while `keep` holds, trying at most `max_steps` candidates: dropping an item
/// first, then the session's members, then simplifying one call.
pub fn shrink(
    imp: &mut dyn Implementation,
    profile: Profile,
    start: SessionScenario,
    keep: &dyn Fn(&Verdict) -> bool,
    max_steps: u32,
) -> (SessionScenario, Verdict, u32) {
    let observes = imp.observes();
    let mut best_verdict = judge(imp, &start, profile, observes);
    let mut best = start;
    let mut steps = 0;
    let mut improved = true;
    while improved && steps < max_steps {
        improved = false;
        for candidate in sessions::simpler_session(&best, &super::generated::simpler_call) {
            if steps >= max_steps {
                break;
            }
            steps += 1;
            let candidate = observes.restrict_session(candidate);
            let verdict = judge(imp, &candidate, profile, observes);
            if keep(&verdict) {
                best = candidate;
                best_verdict = verdict;
                improved = true;
                break;
            }
        }
    }
    (best, best_verdict, steps)
}

/// Runs this shard's generated sessions against `imp`; nothing for an implementation that does
/// not observe sessions.
pub fn run(
    imp: &mut dyn Implementation,
    profile: Profile,
    plan: &Plan,
    expected: &Expected,
) -> SessionsRun {
    let observes = imp.observes();
    let mut out = SessionsRun::default();
    if !observes.sessions {
        return out;
    }
    let mut seen = std::collections::BTreeSet::new();
    for k in plan.cases().filter(|&k| draws_session(plan.seed, k)) {
        let clock = std::time::Instant::now();
        let s = observes.restrict_session(draw(plan.seed, k));
        let verdict = judge(imp, &s, profile, observes);
        let duration = clock.elapsed();
        out.cases += 1;
        if let Verdict::NotApplicable { .. } = verdict {
            out.not_applicable += 1;
            continue;
        }
        out.reach
            .add(&crate::generate::coverage::session(&s, profile).1);
        let id = case_id(plan.seed, k);
        if let Some(sig) = super::generated::signature(&verdict)
            && out.counterexamples.len() < plan.max_counterexamples
            && seen.insert(sig)
        {
            let original = super::generated::rank(&verdict);
            let keep = move |v: &Verdict| {
                super::generated::rank(v).is_some() && super::generated::rank(v) <= original
            };
            let (minimal, verdict, steps) = shrink(imp, profile, s, &keep, plan.max_shrink_steps);
            let reference = match compare::observed(
                InputOutcome::Session(crate::engine::decide_session(&minimal, profile)),
                observes,
            ) {
                InputOutcome::Session(o) => o,
                InputOutcome::One(_) => unreachable!("a session's outcome is a session's"),
            };
            out.counterexamples.push(SessionCounterexample {
                id: id.clone(),
                minimal,
                verdict,
                reference,
                steps,
            });
        }
        let expected_failure = expected.reason(&id).map(str::to_owned);
        let status = Status::of(verdict.passed(), expected_failure.is_some());
        if status == Status::Pass {
            out.passed += 1;
        } else {
            out.results.push(CaseResult {
                id,
                area: "generated".into(),
                title: "a session of calls and lifecycle events".into(),
                clauses: vec!["AR-SESSION-2".into()],
                row: None,
                verdict,
                status,
                expected_failure,
                duration,
            });
        }
    }
    out
}

/// A session counterexample for the terminal, with how to repeat it with the reference and with
/// the implementation (`command`, empty for an in-process one).
pub fn render(c: &SessionCounterexample, profile: Profile, command: &[String]) -> String {
    super::generated::render_found(&super::generated::found(
        super::generated::FoundKind::Session,
        &c.id,
        c.steps,
        c.minimal_json(),
        &c.verdict,
        profile,
        command,
    ))
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
