//! Planted defects: the reference engine with one mistake a harness author could plausibly make,
//! checked by the fixed cases alone and by generated cases alone. Each class of defect the suite
//! claims to find has a plant here, and the test says at which severity each kind of case finds
//! it: SAFETY wherever the mistake can run a body that must not run.

use autoreview::cases;
use autoreview::engine;
use autoreview::outcome::{InputOutcome, ItemOutcome, Outcome};
use autoreview::profile::Profile;
use autoreview::runner::generated::{self, Plan};
use autoreview::runner::known_failures::Expected;
use autoreview::runner::{self, Ask, ImplError, Implementation, Oracle, Severity, Verdict};
use autoreview::scenario::Scenario;
use autoreview::scenario::session::{Input, Item};

/// The reference engine with a mistake planted: each call of an input is rewritten by `before`
/// and decided as the reference decides it, and its outcome is then rewritten by `after` (given
/// the call as the runner sent it).
pub struct Planted {
    /// What the mistake is, for messages.
    pub name: &'static str,
    /// How the defective gate sees a call: a reader that trims a reply, say, sees it trimmed.
    pub before: fn(&mut Scenario),
    /// How the defective gate writes an outcome: a gate that writes numbers its own way, say.
    pub after: fn(&Scenario, &mut Outcome),
}

impl Planted {
    /// A mistake in how the gate reads a call.
    pub fn reading(name: &'static str, before: fn(&mut Scenario)) -> Planted {
        Planted {
            name,
            before,
            after: |_, _| {},
        }
    }

    /// A mistake in how the gate writes an outcome.
    pub fn writing(name: &'static str, after: fn(&Scenario, &mut Outcome)) -> Planted {
        Planted {
            name,
            before: |_| {},
            after,
        }
    }
}

impl Implementation for Planted {
    fn describe(&self) -> String {
        format!("a planted defect: {}", self.name)
    }

    fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
        let mut input = ask.input.clone();
        match &mut input {
            Input::One(s) => (self.before)(s),
            Input::Session(s) => {
                for item in &mut s.calls {
                    if let Item::Call(c) = item {
                        (self.before)(c);
                    }
                }
            }
        }
        let mut out = engine::decide_input(&input, ask.profile);
        match (&mut out, ask.input) {
            (InputOutcome::One(o), Input::One(s)) => (self.after)(s, o),
            (InputOutcome::Session(o), Input::Session(s)) => {
                for (item, o) in s.calls.iter().zip(&mut o.calls) {
                    if let (Item::Call(c), ItemOutcome::Call(o)) = (item, o) {
                        (self.after)(c, o);
                    }
                }
            }
            _ => unreachable!("an input is decided as what it is"),
        }
        Ok(out)
    }
}

/// The worst severity the fixed cases of `profile` find in `imp`, `None` when every case passes.
pub fn by_fixed(imp: &mut dyn Implementation, profile: Profile) -> Option<Severity> {
    let all = cases::all(profile).unwrap();
    let report = runner::run(
        imp,
        &all,
        profile,
        Oracle::Reference,
        &Expected::none(),
        &mut |_, _| {},
    );
    worst(report.results.iter().map(|r| &r.verdict))
}

/// The worst severity `count` generated cases of `profile` (the CI seed) find in `imp`, search
/// toward SAFETY included; `None` when every case passes.
pub fn by_generated(
    imp: &mut dyn Implementation,
    profile: Profile,
    count: usize,
) -> Option<Severity> {
    let run = generated::run(
        imp,
        profile,
        &Plan::new(count, 20_260_828),
        &Expected::none(),
        &mut |_, _| {},
    );
    worst(
        run.results
            .iter()
            .map(|r| &r.verdict)
            .chain(run.counterexamples.iter().map(|c| &c.verdict)),
    )
}

/// The worst severity among `verdicts`; a broken case counts as SAFETY, as a crash is never a
/// pass.
fn worst<'a>(verdicts: impl Iterator<Item = &'a Verdict>) -> Option<Severity> {
    verdicts
        .filter_map(|v| match v {
            Verdict::Broken { .. } => Some(Severity::Safety),
            v => v.worst(),
        })
        .min()
}

/// A plant that changes nothing passes both kinds of case: the harness itself plants nothing.
#[test]
fn the_harness_without_a_mistake_passes() {
    for profile in Profile::ALL {
        let mut none = Planted::reading("nothing", |_| {});
        assert_eq!(by_fixed(&mut none, profile), None, "{profile}");
        assert_eq!(by_generated(&mut none, profile, 300), None, "{profile}");
    }
}

/// A mistake in how a text is written is found at TEXT by each kind of case, and no worse: the
/// harness rates what it plants, not more.
#[test]
fn a_reworded_result_is_found_at_text_by_each_kind_of_case() {
    let mut reworded = Planted::writing("every result text reworded", |_, o| {
        if let Some(t) = &mut o.result.text {
            t.push_str(" (reworded)");
        }
    });
    let profile = Profile::Resilient;
    assert_eq!(by_fixed(&mut reworded, profile), Some(Severity::Text));
    assert_eq!(
        by_generated(&mut reworded, profile, 300),
        Some(Severity::Text)
    );
}
