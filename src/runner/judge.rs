//! The one judge: asks an implementation about an input (a call or a session), judges its answer
//! ([`super::judged`]) and makes every case's result — fixed, generated, smoke, not applicable, and
//! the one for what the implementation did after its last answer.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use super::{
    Ask, Broken, CaseResult, Difference, ImplError, Implementation, Oracle, Status, TAIL_ID,
    Verdict, by_expectation, compare, judged,
    known_failures::{Entry, Expected},
    panic_message, permits,
};
use crate::capability::{Capabilities, Need};
use crate::cases::Case;
use crate::conformance::{self, Level, Terms};
use crate::features::{Feature, Features};
use crate::messages::Wording;
use crate::outcome::InputOutcome;
use crate::profile::Profile;
use crate::scenario::session::Input;

/// What a result is about, as the reports name it.
#[derive(Debug, Clone, PartialEq)]
pub struct Subject {
    /// The case ID.
    pub id: String,
    /// The case's area.
    pub area: String,
    /// The case's title.
    pub title: String,
    /// The clauses the case exercises.
    pub clauses: Vec<String>,
    /// The decision-table row its call falls under, if any.
    pub row: Option<String>,
}

impl Subject {
    /// A fixed case, under `row`.
    pub fn of_case(case: &Case, row: Option<String>) -> Subject {
        Subject {
            id: case.id.clone(),
            area: case.area.clone(),
            title: case.title.clone(),
            clauses: case.clauses.clone(),
            row,
        }
    }
}

impl CaseResult {
    /// The one place a result is made: its status follows from the verdict and from the entry
    /// that lists the case as an expected failure, if one does: a listed case that passed is an
    /// unexpected pass; one that failed is an expected failure where the entry excuses what
    /// failed ([`Entry::excuses`]: all of it, or the one clause it names), a failure otherwise.
    pub fn new(
        subject: Subject,
        verdict: Verdict,
        listed: Option<&Entry>,
        duration: Duration,
    ) -> CaseResult {
        let status = match (&verdict, listed) {
            (Verdict::NotApplicable { .. }, _) => Status::NotApplicable,
            (v, listed) if v.passed() => Status::of(true, listed.is_some()),
            (v, Some(entry)) => Status::of(false, entry.excuses(v)),
            (_, None) => Status::Fail,
        };
        let expected_failure = listed.map(Entry::describe);
        CaseResult {
            id: subject.id,
            area: subject.area,
            title: subject.title,
            clauses: subject.clauses,
            row: subject.row,
            verdict,
            status,
            expected_failure,
            duration,
        }
    }
}

/// An implementation under the judge: asked about inputs under one profile, and held to what it
/// observes, to the capabilities it has and to what the level compares.
pub struct Judge<'a> {
    imp: &'a mut dyn Implementation,
    /// The profile every input is decided under.
    pub profile: Profile,
    /// What the implementation observes beyond protocol 1 and what its framework can express.
    pub has: Capabilities,
    /// What every answer is held to: the level compared (`full` unless the run asks for
    /// another) and the implementation's own wording of the templates (`--messages`), with which
    /// the reference renders its texts.
    pub terms: Terms,
    /// The optional features the implementation declares (`spec/protocol.md`, "Optional
    /// features"): under the resilient profile, members only a missing one governs are not
    /// compared.
    pub features: Features,
    expected: &'a Expected,
}

impl<'a> Judge<'a> {
    /// A judge of `imp` under `profile`, taking the `expected` failures into account.
    pub fn new(
        imp: &'a mut dyn Implementation,
        profile: Profile,
        expected: &'a Expected,
    ) -> Judge<'a> {
        Judge {
            has: imp.capabilities(),
            features: imp.features(),
            imp,
            profile,
            terms: Terms::default(),
            expected,
        }
    }

    /// This judge, holding every answer to `terms`.
    pub fn under(self, terms: Terms) -> Judge<'a> {
        Judge { terms, ..self }
    }

    /// This judge, judging at `level` in the terms it has.
    pub fn at(mut self, level: Level) -> Judge<'a> {
        self.terms.level = level;
        self
    }

    /// The implementation judged.
    pub fn implementation(&mut self) -> &mut dyn Implementation {
        &mut *self.imp
    }

    /// The reference's outcome of `input`, as far as the implementation observes it.
    pub fn reference(&self, input: &Input) -> InputOutcome {
        reference(input, self.profile, self.has, &self.terms.wording)
    }

    /// The one place an implementation's answer is compared with the reference's outcome (as far
    /// as the implementation observes it): every verdict on an answer against the reference,
    /// fixed or generated, call or session, is made of these differences. Under the resilient
    /// profile, the members only an optional feature the implementation does not declare governs
    /// are set equal on both sides first ([`Features::blank_missing`]).
    pub fn differences(
        &self,
        input: &Input,
        reference: &InputOutcome,
        answer: &InputOutcome,
        implementation_defined: bool,
    ) -> Vec<Difference> {
        let blanked;
        let (reference, answer) = if !self.features.covers(self.profile) {
            blanked = (
                self.features.blank_missing(reference, &self.terms.wording),
                self.features.blank_missing(answer, &self.terms.wording),
            );
            (&blanked.0, &blanked.1)
        } else {
            (reference, answer)
        };
        differences(
            input,
            reference,
            answer,
            implementation_defined,
            self.profile,
            self.terms.level,
        )
    }

    /// What an input that needs `needs` takes that the implementation does not have: those
    /// needs and the capabilities the reference's outcome of it shows (`reference`, computed when
    /// `None`, and only when the implementation lacks a capability; a panic of the reference here
    /// is left for the input's own judging to report), observables first.
    pub fn missing(
        &self,
        mut needs: Capabilities,
        input: &Input,
        reference: Option<&InputOutcome>,
    ) -> Vec<Need> {
        if self.has.lacks_any() {
            let computed;
            let reference = match reference {
                Some(r) => Some(r),
                None => {
                    computed = catch_unwind(AssertUnwindSafe(|| self.reference(input))).ok();
                    computed.as_ref()
                }
            };
            if let Some(reference) = reference {
                needs = needs.union(Capabilities::shown_by(input, reference));
            }
        }
        self.has.missing(needs)
    }

    /// Asks the implementation about `input` (`next` is the input it will be asked next, if
    /// known). A panic in the implementation is this input's breakage, never the end of the run;
    /// requests it does not observe are no part of its answer, should it report them anyway.
    pub fn ask(&mut self, input: &Input, next: Option<&Input>) -> Result<InputOutcome, ImplError> {
        let ask = Ask {
            input,
            profile: self.profile,
            next,
        };
        catch_unwind(AssertUnwindSafe(|| self.imp.decide(ask)))
            .unwrap_or_else(|p| Err(ImplError::new(Broken::Panic, panic_message(&p))))
            .map(|o| compare::observed(o, self.has))
    }

    /// The verdict on `input` against `reference`, the reference's outcome of it as far as the
    /// implementation observes it: not applicable when the implementation lacks what it needs,
    /// otherwise its answer judged (`next` is the input asked after this one, if known).
    pub fn verdict(
        &mut self,
        input: &Input,
        reference: &InputOutcome,
        next: Option<&Input>,
    ) -> Verdict {
        let missing = self.missing(Capabilities::needed_by(input), input, Some(reference));
        if !missing.is_empty() {
            return Verdict::NotApplicable { missing };
        }
        let answer = self.ask(input, next);
        judged(answer, |outcome| {
            self.differences(input, reference, &outcome, false)
        })
    }

    /// [`Judge::verdict`] against the reference's outcome, decided here; returns it too.
    pub fn against_reference(&mut self, input: &Input) -> (Verdict, InputOutcome) {
        let reference = self.reference(input);
        (self.verdict(input, &reference, None), reference)
    }

    /// A fixed case's result under `oracle`, the case's call falling under `row`. `reference` is
    /// the reference's outcome of the case as far as the implementation observes it, or the panic
    /// that deciding it met, when computed ahead; `next` is the input asked after this one.
    pub fn case(
        &mut self,
        case: &Case,
        row: Option<String>,
        oracle: Oracle,
        reference: Option<Result<InputOutcome, String>>,
        next: Option<&Input>,
    ) -> CaseResult {
        let subject = Subject::of_case(case, row);
        let reference =
            match reference {
                Some(r) => Some(r),
                None if oracle == Oracle::Reference || self.has.lacks_any() => Some(
                    reference_safely(&case.scenario, self.profile, self.has, &self.terms.wording),
                ),
                None => None,
            };
        let known = match &reference {
            Some(Ok(r)) => Some(r),
            _ => None,
        };
        // A reference that panicked shows no capability (deciding it again here panics again, and
        // is caught): the panic is the case's verdict.
        let missing = self.missing(case.needs(), &case.scenario, known);
        if !missing.is_empty() {
            return self.result(subject, Verdict::NotApplicable { missing }, Duration::ZERO);
        }
        let clock = Instant::now();
        let answer = self.ask(&case.scenario, next);
        let verdict = match (oracle, reference) {
            (Oracle::Reference, Some(Err(panic))) if answer.is_ok() => Verdict::Broken {
                error: ImplError::new(
                    Broken::Panic,
                    format!(
                        "the reference engine panicked on this case (a bug in autoreview): {panic}"
                    ),
                ),
            },
            (Oracle::Reference, Some(Ok(r))) => judged(answer, |outcome| {
                self.differences(&case.scenario, &r, &outcome, case.implementation_defined)
            }),
            _ => judged(answer, |outcome| {
                by_expectation(&case.scenario, &case.expect, &outcome, self.profile)
            }),
        };
        self.result(subject, verdict, clock.elapsed())
    }

    /// The result of `verdict` on `subject`, taking the expected failures into account.
    pub fn result(&self, subject: Subject, verdict: Verdict, duration: Duration) -> CaseResult {
        let listed = self.expected.entry(&subject.id);
        CaseResult::new(subject, verdict, listed, duration)
    }

    /// The result that stands for what the implementation did after its last answer, if
    /// anything ([`TAIL_ID`]).
    pub fn tail(&mut self) -> Option<CaseResult> {
        let error = self.imp.finish()?;
        let subject = Subject {
            id: TAIL_ID.to_owned(),
            area: "protocol".into(),
            title: "What the implementation wrote after its last reply".into(),
            clauses: Vec::new(),
            row: None,
        };
        Some(self.result(subject, Verdict::Broken { error }, Duration::ZERO))
    }
}

/// [`Judge::differences`], for a caller that holds no judge: both outcomes projected to `level`
/// ([`conformance::project`]) and compared ([`compare::compare_input`]), each body run the
/// reference did not make rated by what let it run ([`permits::rate`]); an
/// implementation-defined case is bound by the body-run rules only (SAFETY, BOUNDS), and a
/// profile without failure classes does not compare them.
pub fn differences(
    input: &Input,
    reference: &InputOutcome,
    answer: &InputOutcome,
    implementation_defined: bool,
    profile: Profile,
    level: Level,
) -> Vec<Difference> {
    let projected;
    // A profile without the feature `failure-class` (AR-REVIEW-6; the shipped gate has no
    // failure classes) compares whether a review failed and its message, not the class an
    // implementation gives the failure.
    let answer = if profile.has_feature(Feature::FailureClass) {
        answer
    } else {
        projected = with_classes_of(reference, answer);
        &projected
    };
    let mut differences = if level == Level::Full {
        compare::compare_input(reference, answer)
    } else {
        compare::compare_input(
            &conformance::project(reference, level),
            &conformance::project(answer, level),
        )
    };
    // Who let each body run the reference did not make: SAFETY, BOUNDS or DECISION.
    permits::rate(&mut differences, input, reference, answer, profile);
    if implementation_defined {
        // Only the body-run rules bind an implementation-defined case.
        differences.retain(|d| d.severity.is_a_body_run());
    }
    differences.sort_by_key(|x| x.severity);
    differences
}

/// `answer` with the failure class of each call's review failure taken from the reference's outcome
/// of the same call, where both failed: the class is then never a difference.
fn with_classes_of(reference: &InputOutcome, answer: &InputOutcome) -> InputOutcome {
    use crate::outcome::{ItemOutcome, Outcome};
    let take = |want: &Outcome, got: &mut Outcome| {
        if let (Some(w), Some(g)) = (&want.review.failure, &mut got.review.failure) {
            g.class = w.class;
        }
    };
    let mut answer = answer.clone();
    match (reference, &mut answer) {
        (InputOutcome::One(want), InputOutcome::One(got)) => take(want, got),
        (InputOutcome::Session(want), InputOutcome::Session(got)) => {
            for (w, g) in want.calls.iter().zip(got.calls.iter_mut()) {
                if let (ItemOutcome::Call(w), ItemOutcome::Call(g)) = (w, g) {
                    take(w, g);
                }
            }
        }
        _ => {}
    }
    answer
}

/// The reference's outcome of `input` under `profile`, its texts rendered with `wording` (the
/// implementation's own templates, where it has them), as far as an implementation with the
/// capabilities `has` shows it.
pub fn reference(
    input: &Input,
    profile: Profile,
    has: Capabilities,
    wording: &Wording,
) -> InputOutcome {
    let outcome = crate::messages::worded(wording, || crate::engine::decide_input(input, profile));
    compare::observed(outcome, has)
}

/// [`reference`], or the panic that deciding it met (a bug of autoreview's, not the
/// implementation's).
pub fn reference_safely(
    input: &Input,
    profile: Profile,
    has: Capabilities,
    wording: &Wording,
) -> Result<InputOutcome, String> {
    catch_unwind(AssertUnwindSafe(|| reference(input, profile, has, wording)))
        .map_err(|p| panic_message(&p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::FailureClass;

    /// The baseline compares that a review failed and its message, never the class an
    /// implementation gives the failure (the shipped gate has none); the resilient profile
    /// compares it.
    #[test]
    fn the_baseline_does_not_compare_failure_classes() {
        let failing = |profile| {
            let all = crate::cases::all(profile).unwrap();
            all.into_iter()
                .map(|c| {
                    let r = reference(&c.scenario, profile, Capabilities::ALL, &Wording::default());
                    (c.scenario, r)
                })
                .find(|(_, r)| {
                    matches!(r, InputOutcome::One(o)
                        if o.review.failure.is_some() && o.prefix_only.is_empty())
                })
                .unwrap()
        };
        for profile in [Profile::BASELINE, Profile::RESILIENT] {
            let (input, want) = failing(profile);
            let mut got = want.clone();
            let InputOutcome::One(o) = &mut got else {
                unreachable!()
            };
            let failure = o.review.failure.as_mut().unwrap();
            failure.class = if failure.class == FailureClass::Internal {
                FailureClass::Provider
            } else {
                FailureClass::Internal
            };
            let found = differences(&input, &want, &got, false, profile, Level::Full);
            if profile == Profile::BASELINE {
                assert!(found.is_empty(), "{found:?}");
            } else {
                assert_eq!(found.len(), 1, "{found:?}");
                assert_eq!(found[0].pointer, "/review/failure/class");
            }
            // The message is still compared in both.
            let InputOutcome::One(o) = &mut got else {
                unreachable!()
            };
            o.review.failure.as_mut().unwrap().message.push('!');
            let found = differences(&input, &want, &got, false, profile, Level::Full);
            assert!(
                found.iter().any(|d| d.pointer == "/review/failure/message"),
                "{found:?}"
            );
        }
    }
}
