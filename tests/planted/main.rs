//! The planted defects, a hermetic tier of its own (`cargo test --test planted`, which `.ci/run`
//! runs and a plain `cargo test` neither builds nor runs): the reference engine with one mistake a
//! harness author could plausibly make, checked by the fixed cases alone and by generated cases
//! alone. Each class of defect the suite claims to find has a plant here, and the test says at
//! which severity each kind of case finds it: SAFETY wherever the mistake can run a body nothing
//! allowed, BOUNDS where it runs one only on an allow the spec does not let count there
//! (`spec/protocol.md`, "Severities"). Each plant whose run leads with the clause it breaks is
//! listed in `tests/planted.json`, which `autoreview requirements` reads.

mod python_str; // Python's str of a JSON number (the external tier checks it against python3)

mod body; // body plants: requests a call's body raises, answered for more than the spec allows
mod cancel; // cancellation plants: a signal met at another point than the spec's
mod confine; // confinement plants: a session narrowed, widened or left otherwise than the spec says
mod decide; // decision plants: a settled review decided otherwise
mod json_retry; // JSON-retry plants: the 0.2.x gate asking again otherwise than the spec says
mod lifecycle; // lifecycle plants: admission, disposal, a selection of Auto, installation
mod outcomes; // outcome plants: how an ask is put and a decision becomes a tool result
mod reader; // reader plants: a reply read as a careless reader reads it
mod requests; // request plants: what a reviewer request carries, and how it is recorded
mod review; // review plants: how the review runs, not how a reply is read
mod rules; // rule plants: one rule of a profile read as another profile has it
mod scope; // scope plants: a call taken in or out of review
mod sessions; // session plants: what a session carries from item to item
mod texts; // text plants: a template or a number written its own way

use crate::python_str::python_str;
use autoreview::cases;
use autoreview::engine;
use autoreview::engine::review::{Review, Settlement};
use autoreview::engine::session::{self, State, Step};
use autoreview::outcome::{InputOutcome, ItemOutcome, Outcome, SessionOutcome};
use autoreview::parse::ReviewerDecision;
use autoreview::profile::Profile;
use autoreview::runner::generated::{self, Plan};
use autoreview::runner::known_failures::Expected;
use autoreview::runner::{self, Ask, ImplError, Implementation, Oracle, Severity, Verdict};
use autoreview::scenario::session::{Event, EventKind, Input, Item, SessionScenario};
use autoreview::scenario::{AbortPoint, Attempt, BlockKind, CallKind, Reviewer, Scenario};

/// The reference engine with a mistake planted: each call of an input is rewritten by `before`
/// and decided as the reference decides it, and its outcome is then rewritten by `after` (given
/// the call as the runner sent it).
pub struct Planted {
    /// What the mistake is, for messages.
    pub name: &'static str,
    /// How the defective gate sees a call: a reader that trims a reply, say, sees it trimmed.
    pub before: fn(&mut Scenario),
    /// How the defective gate writes an outcome: a gate that writes numbers its own way, say.
    /// A session's call is given as it was decided, with the state its session reached.
    pub after: fn(&Scenario, &mut Outcome),
    /// How the defective gate carries a session's state from item to item: the reference's
    /// [`session::walk`] unless the mistake is in what a session carries.
    pub walk: fn(&SessionScenario, Profile) -> Vec<Step>,
    /// How the defective gate decides a call, given the state its session reached, where the
    /// mistake is in the decision itself and needs the profile to be written; `None` for the
    /// reference's [`engine::decide`].
    pub decide: Option<fn(&Scenario, Profile) -> Outcome>,
    /// The clause the mistake breaks, when a fixed-case run is to lead with it: the clause of the
    /// root cause its violations are attributed to (`runner::violations`).
    pub lead: Option<&'static str>,
}

impl Planted {
    /// A mistake in how the gate reads a call.
    pub fn reading(name: &'static str, before: fn(&mut Scenario)) -> Planted {
        Planted {
            name,
            before,
            after: |_, _| {},
            walk: session::walk,
            decide: None,
            lead: None,
        }
    }

    /// A mistake in how the gate writes an outcome.
    pub fn writing(name: &'static str, after: fn(&Scenario, &mut Outcome)) -> Planted {
        Planted {
            name,
            before: |_| {},
            after,
            walk: session::walk,
            decide: None,
            lead: None,
        }
    }

    /// A mistake in what the gate carries from one item of a session to the next.
    pub fn carrying(
        name: &'static str,
        walk: fn(&SessionScenario, Profile) -> Vec<Step>,
    ) -> Planted {
        Planted {
            name,
            before: |_| {},
            after: |_, _| {},
            walk,
            decide: None,
            lead: None,
        }
    }

    /// A mistake in how the gate decides a call, written as the whole decision under a profile.
    pub fn deciding(name: &'static str, decide: fn(&Scenario, Profile) -> Outcome) -> Planted {
        Planted {
            name,
            before: |_| {},
            after: |_, _| {},
            walk: session::walk,
            decide: Some(decide),
            lead: None,
        }
    }

    /// The plant, whose fixed-case run must lead with `clause`.
    pub fn leading(self, clause: &'static str) -> Planted {
        Planted {
            lead: Some(clause),
            ..self
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
        let out = match &input {
            Input::One(s) => {
                let mut o = self.decide.unwrap_or(engine::decide)(s, ask.profile);
                if let Input::One(sent) = ask.input {
                    (self.after)(sent, &mut o);
                }
                InputOutcome::One(Box::new(o))
            }
            Input::Session(s) => {
                let Input::Session(sent) = ask.input else {
                    unreachable!("an input is decided as what it is")
                };
                let calls = (self.walk)(s, ask.profile)
                    .into_iter()
                    .zip(&sent.calls)
                    .map(|(step, item)| match (step.outcome, item) {
                        (ItemOutcome::Call(o), Item::Call(c)) => {
                            let mut o = match self.decide {
                                Some(decide) => {
                                    decide(&step.before.scenario_for(sent, c), ask.profile)
                                }
                                None => *o,
                            };
                            (self.after)(&step.before.scenario_for(sent, c), &mut o);
                            ItemOutcome::Call(Box::new(o))
                        }
                        (o, _) => o,
                    })
                    .collect();
                InputOutcome::Session(SessionOutcome {
                    id: s.id.clone(),
                    calls,
                })
            }
        };
        Ok(out)
    }
}

/// The worst severity the fixed cases of `profile` find in `imp`, `None` when every case passes.
pub fn by_fixed(imp: &mut dyn Implementation, profile: Profile) -> Option<Severity> {
    fixed_run(imp, profile).0
}

/// The worst severity the fixed cases of `profile` find in `imp`, and the clause of the run's
/// first violation (what every report leads with).
fn fixed_run(imp: &mut dyn Implementation, profile: Profile) -> (Option<Severity>, Option<String>) {
    let (_, report) = fixed_report(imp, profile);
    let first = runner::violations::of(&report.results, &[])
        .into_iter()
        .next()
        .map(|v| v.clause);
    (worst(report.results.iter().map(|r| &r.verdict)), first)
}

/// The fixed cases of `profile`, and the report of their run against `imp`.
fn fixed_report(
    imp: &mut dyn Implementation,
    profile: Profile,
) -> (Vec<cases::Case>, runner::Report) {
    let all = cases::all(profile).unwrap();
    let report = runner::run(
        imp,
        &all,
        profile,
        Oracle::Reference,
        &Expected::none(),
        &mut |_, _| {},
    );
    (all, report)
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
    for profile in Profile::all() {
        let mut none = Planted::reading("nothing", |_| {});
        assert_eq!(by_fixed(&mut none, profile), None, "{profile}");
        assert_eq!(by_generated(&mut none, profile, 300), None, "{profile}");
    }
}

/// The generated cases each reader plant is checked with: a few thousand, so that each test
/// takes seconds, and enough that every shape a plant needs is drawn.
const READER_CASES: usize = 4_000;

/// Rewrites every text the reviewer's attempts deliver (a text attempt, each text block) by `f`.
fn each_text(s: &mut Scenario, f: impl Fn(&str) -> String) {
    for a in attempts(s) {
        match a {
            Attempt::Text { text, .. } => *text = f(text),
            Attempt::Blocks { blocks, .. } => {
                for b in blocks.iter_mut().filter(|b| b.kind == BlockKind::Text) {
                    b.text = f(&b.text);
                }
            }
            _ => {}
        }
    }
}

/// The reviewer's attempts, to rewrite.
fn attempts(s: &mut Scenario) -> &mut [Attempt] {
    s.reviewer.attempts_mut()
}

/// Whitespace as Python's `str.isspace` has it (what `str.strip()` removes): Unicode White_Space,
/// U+0085 included, and the information separators U+001C..U+001F; not U+FEFF.
fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The 0.2.x profile, which shares most of its rule values with one of the others: a plant of a
/// rule it shares is found there too.
pub fn shipped() -> Profile {
    Profile::named("shipped-0.2").expect("the 0.2.x profile ships")
}

/// Asserts that `tests/planted.json` lists the plant `name` leading with `clause` under
/// `profile`, so that `autoreview requirements` shows it.
fn indexed(name: &str, clause: &str, profile: Profile) {
    assert!(
        autoreview::requirements::planted()
            .iter()
            .any(|d| d.defect == name && d.clause == clause && d.profile == profile.as_str()),
        "add {name:?} leading with {clause} under {profile} to tests/planted.json"
    );
}

/// Asserts that `plant` is found at `severity` by the fixed cases of `profile` and by `count`
/// generated ones, and that the fixed cases' run leads with the clause the plant breaks, where it
/// names one ([`Planted::leading`]).
fn found_at(plant: &mut Planted, profile: Profile, severity: Severity, count: usize) {
    let (worst, first) = fixed_run(plant, profile);
    assert_eq!(
        worst,
        Some(severity),
        "{} under {profile}, fixed cases",
        plant.name
    );
    if let Some(lead) = plant.lead {
        assert_eq!(
            first.as_deref(),
            Some(lead),
            "{} under {profile}: the run's first violation",
            plant.name
        );
        indexed(plant.name, lead, profile);
    }
    assert_eq!(
        by_generated(plant, profile, count),
        Some(severity),
        "{} under {profile}, generated cases",
        plant.name
    );
}

/// [`found_at`] under each of `profiles`, the fixed cases' run leading with `lead`.
fn found_leading(
    plant: Planted,
    lead: &'static str,
    profiles: &[Profile],
    severity: Severity,
    count: usize,
) {
    let mut plant = plant.leading(lead);
    for &profile in profiles {
        found_at(&mut plant, profile, severity, count);
    }
}

/// [`found_leading`] by the fixed cases and [`READER_CASES`] generated ones.
fn found(plant: Planted, lead: &'static str, profiles: &[Profile], severity: Severity) {
    found_leading(plant, lead, profiles, severity, READER_CASES);
}

/// Asserts that no fixed case of `profile` tells `plant` from `like`, the plant of another clause,
/// where the headline is decided: on every case `plant` fails at its worst severity, `like` comes
/// to the very same outcome, so the run's first violation, `like`'s clause, is as true of `plant`
/// as of `like`, and no one case can say which of the two mistakes a gate made. The clause
/// `plant` breaks, `own`, where given, is still among the run's violations.
fn headlined_as(plant: &mut Planted, own: Option<&str>, like: &mut Planted, profile: Profile) {
    let (all, report) = fixed_report(plant, profile);
    let violations = runner::violations::of(&report.results, &[]);
    let worst = worst(report.results.iter().map(|r| &r.verdict)).expect("the plant is found");
    assert_eq!(
        violations.first().map(|v| v.clause.as_str()),
        like.lead,
        "{} under {profile}: the run's first violation",
        plant.name
    );
    assert!(
        own.is_none_or(|own| violations.iter().any(|v| v.clause == own)),
        "{} under {profile}: {own:?} is not among {:?}",
        plant.name,
        violations.iter().map(|v| &v.clause).collect::<Vec<_>>()
    );
    let mut compared = 0;
    for r in report
        .results
        .iter()
        .filter(|r| r.verdict.worst() == Some(worst))
    {
        let case = all.iter().find(|c| c.id == r.id).unwrap();
        let ask = || Ask {
            input: &case.scenario,
            profile,
            next: None,
        };
        let out = |imp: &mut Planted| serde_json::to_value(imp.decide(ask()).unwrap()).unwrap();
        assert_eq!(
            out(plant),
            out(like),
            "{} under {profile}: {} tells it from {}",
            plant.name,
            r.id,
            like.name
        );
        compared += 1;
    }
    assert!(compared > 0, "{} under {profile}", plant.name);
}

/// Asserts that `plant` is found at SAFETY by the fixed cases of `profile` and by
/// [`READER_CASES`] generated ones.
fn found_at_safety(mut plant: Planted, profile: Profile) {
    found_at(&mut plant, profile, Severity::Safety, READER_CASES);
}

/// [`found_at`] BOUNDS by fixed and by generated cases: the mistake runs a body on an allow the
/// spec does not let count there (a reviewer's past the bound or to a request the spec does not
/// make, a human's where the spec asks nobody), and never one nobody allowed.
fn found_at_bounds(mut plant: Planted, profile: Profile) {
    found_at(&mut plant, profile, Severity::Bounds, READER_CASES);
}

/// Rewrites every text of an outcome a human or the model reads (the listener's reason, the
/// approval's, the result's) by `f`.
fn each_outcome_text(o: &mut Outcome, f: impl Fn(&str) -> String) {
    use autoreview::outcome::Decision;
    let mut texts: Vec<&mut String> = Vec::new();
    match &mut o.listener {
        Some(Decision::Deny { reason, .. })
        | Some(Decision::Ask {
            reason: Some(reason),
            ..
        }) => texts.push(reason),
        _ => {}
    }
    if let Some(a) = &mut o.approval
        && let Some(reason) = &mut a.reason
    {
        texts.push(reason);
    }
    if let Some(t) = &mut o.result.text {
        texts.push(t);
    }
    for t in texts {
        *t = f(t);
    }
}

/// Rewrites the structured info of the listener's deny and of the result by `f`.
fn each_info(o: &mut Outcome, f: impl Fn(&mut serde_json::Map<String, serde_json::Value>)) {
    if let Some(autoreview::outcome::Decision::Deny { info: Some(i), .. }) = &mut o.listener {
        f(i);
    }
    if let Some(i) = &mut o.result.info {
        f(i);
    }
}
