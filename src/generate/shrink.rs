//! Shrinking, one step at a time, for generated runs and property tests alike. The one-step
//! simplifications of a call ([`simpler_call`]) and of a session ([`simpler_input`]), simplest
//! first, are built here from [`super::simplest`]'s values; [`Shrinker`] walks them, keeping a
//! candidate when the caller says it still shows what is being shrunk for and starting again from
//! it. A generated run keeps a candidate while the implementation still differs from the reference
//! on it (`runner::generated::shrink`); a property test, while the property still fails on it
//! ([`Shrinking`], the value tree of the strategies in [`super`]), so a failing property reports a
//! small scenario, not the seed it was drawn from.

use std::fmt::Debug;

use proptest::strategy::ValueTree;
use serde_json::{Map, Value};

use crate::scenario::Scenario;
use crate::scenario::session::Input;

/// Walks the one-step simplifications of a value: [`Shrinker::next_candidate`] gives the next
/// candidate not yet tried, simplest first; [`Shrinker::keep`] makes a candidate the best, and the
/// candidates start again from its own simplifications. A value kept before is not offered again
/// (one step can undo another: a text whose JSON drops a member of the bare allow, the bare allow
/// again), so shrinking ends. Once no candidate of the best is kept, the best is a local minimum:
/// none of its simplifications keeps what it was shrunk for, but those it passed through.
#[derive(Debug)]
pub struct Shrinker<T> {
    best: T,
    /// The values kept before the best, the start first.
    kept: Vec<T>,
    /// The simplifications of `best` not yet tried; `None` until the first is asked for.
    candidates: Option<std::vec::IntoIter<T>>,
    simpler: fn(&T) -> Vec<T>,
}

impl<T: PartialEq> Shrinker<T> {
    /// Shrinks `start` by the one-step simplifications `simpler` gives, simplest first.
    pub fn new(start: T, simpler: fn(&T) -> Vec<T>) -> Shrinker<T> {
        Shrinker {
            best: start,
            kept: Vec::new(),
            candidates: None,
            simpler,
        }
    }

    /// The smallest value kept so far (the start, until a candidate is kept).
    pub fn best(&self) -> &T {
        &self.best
    }

    /// The smallest value kept.
    pub fn into_best(self) -> T {
        self.best
    }

    /// The next simplification of the best not yet tried, and not kept before; `None` once all
    /// have been tried.
    pub fn next_candidate(&mut self) -> Option<T> {
        let (best, simpler, kept) = (&self.best, self.simpler, &self.kept);
        self.candidates
            .get_or_insert_with(|| simpler(best).into_iter())
            .find(|c| c != best && !kept.contains(c))
    }

    /// Keeps `candidate`: it becomes the best, and its own simplifications are tried next.
    pub fn keep(&mut self, candidate: T) {
        self.kept.push(std::mem::replace(&mut self.best, candidate));
        self.candidates = None;
    }
}

/// A proptest value tree over a drawn value that shrinks through a [`Shrinker`]: `simplify` keeps
/// the candidate the test just failed on (at first, the drawn value) and tries its first
/// simplification; `complicate`, after a candidate the test passed, goes back to the best and
/// tries the simplification after that candidate. Proptest reports the last value the test failed
/// on, the best.
#[derive(Debug)]
pub struct Shrinking<T> {
    shrinker: Shrinker<T>,
    /// The candidate under test; `None` while the best is.
    trying: Option<T>,
}

impl<T: PartialEq> Shrinking<T> {
    /// The tree of `drawn`, shrinking by `simpler`.
    pub fn new(drawn: T, simpler: fn(&T) -> Vec<T>) -> Shrinking<T> {
        Shrinking {
            shrinker: Shrinker::new(drawn, simpler),
            trying: None,
        }
    }
}

impl<T: Clone + Debug + PartialEq> ValueTree for Shrinking<T> {
    type Value = T;

    fn current(&self) -> T {
        self.trying.as_ref().unwrap_or(self.shrinker.best()).clone()
    }

    fn simplify(&mut self) -> bool {
        // Proptest simplifies only while the test fails: the candidate under test is kept.
        if let Some(failed) = self.trying.take() {
            self.shrinker.keep(failed);
        }
        self.trying = self.shrinker.next_candidate();
        self.trying.is_some()
    }

    fn complicate(&mut self) -> bool {
        // The test passed on the candidate: back to the best, and on to the next candidate.
        if self.trying.take().is_none() {
            return false;
        }
        self.trying = self.shrinker.next_candidate();
        self.trying.is_some()
    }
}

/// A scenario as JSON with members at their default value left out: what matters, alone.
pub fn sparse(s: &Scenario) -> Value {
    // The defaults of a call of the same name and kind (a `run-code` call is only realizable so).
    let defaults = Scenario::from_value(&serde_json::json!({
        "tool": {"name": s.tool.name, "call": s.tool.call},
        "reviewer": {"text": ""},
    }))
    .map(|d| serde_json::to_value(d).unwrap_or(Value::Null))
    .unwrap_or(Value::Null);
    let mut full = serde_json::to_value(s).unwrap_or(Value::Null);
    if let (Value::Object(m), Value::Object(d)) = (&mut full, &defaults) {
        prune(m, d, &["tool", "reviewer"]);
        if let Some(Value::Object(tool)) = m.get_mut("tool")
            && tool.get("call") == Some(&Value::String("native".into()))
        {
            tool.remove("call");
        }
    }
    full
}

/// Removes members equal to their default, recursing into objects; `keep` names members kept.
pub fn prune(m: &mut Map<String, Value>, defaults: &Map<String, Value>, keep: &[&str]) {
    m.retain(|k, v| {
        if keep.contains(&k.as_str()) {
            return true;
        }
        match (v, defaults.get(k)) {
            (_, None) => true,
            (Value::Object(inner), Some(Value::Object(d))) => {
                prune(inner, d, &[]);
                !inner.is_empty()
            }
            (v, Some(d)) => v != d && !v.is_null(),
        }
    });
}

/// The one-step simplifications of `input` that are valid, realizable inputs, simplest first: of
/// a call, [`simpler_call`]; of a session, dropping an item first, then the session's members,
/// then simplifying one call ([`super::sessions::simpler_session`]).
pub fn simpler_input(input: &Input) -> Vec<Input> {
    match input {
        Input::One(s) => simpler_call(s)
            .into_iter()
            .map(|c| Input::One(Box::new(c)))
            .collect(),
        Input::Session(s) => super::sessions::simpler_session(s, &simpler_call)
            .into_iter()
            .map(Input::Session)
            .collect(),
    }
}

/// The one-step simplifications of a call that are valid, realizable scenarios, simplest first:
/// fewer reviewer attempts (a script of one as that attempt), attempts that answer at once, a plain tool name, each member back to
/// its default, then the simplest value of every member ([`super::simplest`]): so what
/// shrinking leaves is a local minimum, holding only what the difference needs.
pub fn simpler_call(s: &Scenario) -> Vec<Scenario> {
    use crate::scenario::{Attempt, Reviewer};
    let mut out = Vec::new();
    // A call's own rules: a simpler call names a finished call only where `s` did (RZ-11 is
    // its session's to check).
    let valid =
        |c: Scenario| (crate::scenario::realizable::check_call(&c).is_ok() && &c != s).then_some(c);
    // Fewer reviewer attempts; a script of one attempt written as that attempt.
    if let Reviewer::Many(attempts) = &s.reviewer {
        if let [only] = attempts.as_slice() {
            out.extend(valid(Scenario {
                reviewer: Reviewer::One(only.clone()),
                ..s.clone()
            }));
        }
        for i in 0..attempts.len() {
            let mut fewer = attempts.clone();
            fewer.remove(i);
            let reviewer = match fewer.len() {
                0 => continue,
                1 => Reviewer::One(fewer.remove(0)),
                _ => Reviewer::Many(fewer),
            };
            out.extend(valid(Scenario {
                reviewer,
                ..s.clone()
            }));
        }
    }
    // Attempts that answer at once.
    let at_once = |a: &Attempt| {
        let mut a = a.clone();
        if let Attempt::Text { delay_ms, .. }
        | Attempt::Blocks { delay_ms, .. }
        | Attempt::Finish { delay_ms, .. }
        | Attempt::Throw { delay_ms, .. } = &mut a
        {
            *delay_ms = 0;
        }
        a
    };
    let reviewer = match &s.reviewer {
        Reviewer::One(a) => Reviewer::One(at_once(a)),
        Reviewer::Many(v) => Reviewer::Many(v.iter().map(at_once).collect()),
    };
    out.extend(valid(Scenario {
        reviewer,
        ..s.clone()
    }));
    // A body with a step fewer.
    for i in 0..s.body.len() {
        let mut fewer = s.clone();
        fewer.body.remove(i);
        out.extend(valid(fewer));
    }
    // A plain tool name (the transport keeps its own).
    let mut plain = s.clone();
    if plain.tool.call != crate::scenario::CallKind::RunCode {
        plain.tool.name = "pwsh".into();
        out.extend(valid(plain));
    }
    // Each member back to its default.
    for path in member_paths(&sparse(s)) {
        out.extend(without(s, &path).and_then(valid));
    }
    // The simplest value of every member, tried once nothing above keeps the difference: a
    // native call rather than one inside a program, then each attempt simpler in one member.
    if s.tool.call == crate::scenario::CallKind::PtcInner {
        let mut native = s.clone();
        native.tool.call = crate::scenario::CallKind::Native;
        out.extend(valid(native));
    }
    for (i, a) in s.reviewer.attempts().iter().enumerate() {
        for simpler in super::simplest::attempts(a) {
            let reviewer = match &s.reviewer {
                Reviewer::One(_) => Reviewer::One(simpler),
                Reviewer::Many(list) => {
                    let mut list = list.clone();
                    list[i] = simpler;
                    Reviewer::Many(list)
                }
            };
            out.extend(valid(Scenario {
                reviewer,
                ..s.clone()
            }));
        }
    }
    out
}

/// The members of a sparse scenario that could go back to their default: top-level members but
/// `tool` and `reviewer`, and the members of objects among them.
fn member_paths(sparse: &Value) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    if let Value::Object(m) = sparse {
        for (k, v) in m {
            if k == "tool" || k == "reviewer" {
                continue;
            }
            if let Value::Object(inner) = v
                && inner.len() > 1
                && k != "downstream"
            {
                paths.extend(inner.keys().map(|sub| vec![k.clone(), sub.clone()]));
            }
            paths.push(vec![k.clone()]);
        }
    }
    paths
}

/// `s` with the member at `path` back to its default, if the result is a valid scenario.
fn without(s: &Scenario, path: &[String]) -> Option<Scenario> {
    let mut json = sparse(s);
    match path {
        [k] => {
            json.as_object_mut()?.remove(k);
        }
        [k, sub] => {
            json.get_mut(k)?.as_object_mut()?.remove(sub);
        }
        _ => return None,
    }
    Scenario::from_value(&json).ok()
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{
        Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
    };

    use super::*;
    use crate::generate::direct::{self, Rng};
    use crate::scenario::{Attempt, Reviewer};

    /// The members a scenario names beyond its defaults, with their sizes: what a report shows.
    fn size(s: &Scenario) -> usize {
        sparse(s).to_string().len()
    }

    /// The property strategy's value for each seed proptest supplies is the scenario the stream
    /// draws for case 0 of that seed: the properties and the generated runs draw alike.
    #[test]
    fn the_strategy_draws_what_the_stream_draws() {
        let mut seeds = TestRunner::deterministic();
        let mut values = TestRunner::deterministic();
        let mut distinct = std::collections::BTreeSet::new();
        for _ in 0..300 {
            let seed = proptest::num::u64::ANY
                .new_tree(&mut seeds)
                .unwrap()
                .current();
            let drawn = crate::generate::scenario()
                .new_tree(&mut values)
                .unwrap()
                .current();
            assert_eq!(drawn, direct::scenario(&mut Rng::for_case(seed, 0)));
            distinct.insert(seed);
        }
        assert_eq!(distinct.len(), 300);
    }

    /// A strategy with a recorded value gives it for its seed, and draws for every other seed.
    #[test]
    fn a_recorded_value_is_given_for_its_seed() {
        let mut seeds = TestRunner::deterministic();
        let seed = proptest::num::u64::ANY
            .new_tree(&mut seeds)
            .unwrap()
            .current();
        let recorded = direct::scenario(&mut Rng::for_case(1, 1));
        let strategy = crate::generate::scenario().recorded(vec![(seed, recorded.clone())]);
        let mut runner = TestRunner::deterministic();
        let mut alone = TestRunner::deterministic();
        assert_eq!(strategy.new_tree(&mut runner).unwrap().current(), recorded);
        assert_ne!(
            crate::generate::scenario()
                .new_tree(&mut alone)
                .unwrap()
                .current(),
            recorded
        );
        for _ in 0..3 {
            let drawn = crate::generate::scenario()
                .new_tree(&mut alone)
                .unwrap()
                .current();
            assert_eq!(strategy.new_tree(&mut runner).unwrap().current(), drawn);
        }
    }

    /// `property` run through proptest on one case of `scenario()`, from the runner seeded with
    /// `seed`: when it fails, the scenario drawn and the one proptest reports it failing on.
    fn planted(seed: u8, property: fn(&Scenario) -> bool) -> Option<(Scenario, Scenario)> {
        let config = Config {
            cases: 1,
            max_shrink_iters: 5_000,
            failure_persistence: None,
            ..Config::default()
        };
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]);
        let mut runner = TestRunner::new_with_rng(config, rng);
        let first = RefCell::new(None);
        let result = runner.run(&crate::generate::scenario(), |s| {
            first.borrow_mut().get_or_insert_with(|| s.clone());
            if property(&s) {
                Ok(())
            } else {
                Err(TestCaseError::fail("planted"))
            }
        });
        match result {
            Ok(()) => None,
            Err(TestError::Fail(_, minimal)) => {
                Some((first.into_inner().expect("a case ran"), minimal))
            }
            Err(e) => panic!("{e}"),
        }
    }

    /// Whether `a` answers at once and no member of it has a simpler value.
    fn plainest(a: &Attempt) -> bool {
        a.delay_ms().unwrap_or(0) == 0 && crate::generate::simplest::attempts(a).is_empty()
    }

    /// A property that fails on every scenario is shrunk to a scenario that names nothing but a
    /// plain tool and one attempt with no simpler member (an empty text, an `UNKNOWN` failure with
    /// an empty message, ...), from drawn scenarios that name far more.
    #[test]
    fn an_always_failing_property_shrinks_to_the_plainest_call() {
        let mut complex = 0;
        for seed in 0..12 {
            let (start, minimal) = planted(seed, |_| false).expect("it fails");
            assert!(size(&minimal) <= size(&start), "{minimal:?} from {start:?}");
            let names = match sparse(&start) {
                Value::Object(m) => m.len(),
                _ => 0,
            };
            if names < 4 {
                continue;
            }
            complex += 1;
            assert!(size(&minimal) < size(&start), "{minimal:?} from {start:?}");
            let plain = sparse(&minimal);
            let Reviewer::One(attempt) = &minimal.reviewer else {
                panic!("{plain}")
            };
            assert!(plainest(attempt), "{plain}");
            assert!(
                minimal.tool.name == "pwsh"
                    || minimal.tool.call == crate::scenario::CallKind::RunCode,
                "{plain}"
            );
            let mut members: Vec<&String> = plain.as_object().unwrap().keys().collect();
            members.sort();
            assert_eq!(members, ["reviewer", "tool"], "{plain}");
        }
        assert!(
            complex >= 4,
            "only {complex} drawn scenarios name 4 members"
        );
    }

    /// A property that fails only on a reviewer script of several attempts, one of them a failed
    /// finish, keeps just that: two attempts, each with no simpler member.
    #[test]
    fn a_failing_property_keeps_only_what_fails_it() {
        let fails = |s: &Scenario| {
            !(matches!(&s.reviewer, Reviewer::Many(list) if list.len() >= 2)
                && s.reviewer
                    .attempts()
                    .iter()
                    .any(|a| matches!(a, Attempt::Finish { .. })))
        };
        let mut shrunk = 0;
        for seed in 0..200 {
            let Some((start, minimal)) = planted(seed, fails) else {
                continue;
            };
            assert!(size(&minimal) < size(&start), "{minimal:?} from {start:?}");
            let Reviewer::Many(list) = &minimal.reviewer else {
                panic!("{minimal:?}")
            };
            assert_eq!(list.len(), 2, "{minimal:?}");
            assert!(
                list.iter().any(|a| matches!(a, Attempt::Finish { .. })),
                "{minimal:?}"
            );
            assert!(list.iter().all(plainest), "{minimal:?}");
            shrunk += 1;
        }
        assert!(shrunk >= 3, "only {shrunk} drawn scripts fail the property");
    }
}
