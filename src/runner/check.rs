//! A whole check as a library function: a [`Plan`] (what to run, checked before any case runs:
//! the selection, the shard, the generated cases, the oracle) in, the [`Report`] out, recording
//! the plan it ran. The command line reads files and options into a [`Request`], makes the plan,
//! starts the implementation, calls [`check`], and prints and writes what it returns.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::generated;
use super::known_failures::{Expected, Scope};
use super::select::{self, Selector};
use super::shard::Shard;
use super::{Implementation, Oracle, Report};
use crate::cases::Case;
use crate::profile::Profile;

/// The in-process implementations a check can run without an adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum InProcess {
    /// The pure reference engine, checked against each case's own expectation.
    Engine,
    /// The async reference gate on tokio, checked against the engine case by case.
    AsyncGate,
}

impl InProcess {
    /// Every in-process implementation, in the order `--help` lists them.
    pub const ALL: [InProcess; 2] = [InProcess::Engine, InProcess::AsyncGate];

    /// What it is, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            InProcess::Engine => "The pure reference engine",
            InProcess::AsyncGate => "The async reference gate on tokio",
        }
    }

    /// Its name, as `--implementation` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            InProcess::Engine => "engine",
            InProcess::AsyncGate => "async-gate",
        }
    }
}

impl std::fmt::Display for InProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What is checked: an implementation in process, or an adapter command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// In process.
    InProcess(InProcess),
    /// An adapter, started as this command and its arguments (never empty).
    Adapter(Vec<String>),
}

/// The fixed cases a run selects, as given: `--only` and `--skip` selectors and `--no-fixed`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Selection {
    /// `--only` selectors, in order; none takes every case.
    #[serde(default)]
    pub only: Vec<String>,
    /// `--skip` selectors, in order.
    #[serde(default)]
    pub skip: Vec<String>,
    /// Whether the fixed cases were left out (`--no-fixed`).
    #[serde(default)]
    pub no_fixed: bool,
}

/// Which generated cases of a run also draw a session, case `k` being bit `k`: hexadecimal
/// digits, each for four cases, lowest case in the lowest bit (`"12"` is cases 0 and 5 of eight).
/// A case beyond the digits, or a digit that is not hexadecimal, draws none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct SessionDraws(String);

impl SessionDraws {
    /// The draws of `count` cases, `draws(k)` saying whether case `k` draws a session.
    pub fn of(count: usize, draws: impl Fn(usize) -> bool) -> SessionDraws {
        let digits = (0..count.div_ceil(4)).map(|d| {
            let nibble = (0..4)
                .filter(|b| d * 4 + b < count && draws(d * 4 + b))
                .fold(0u32, |n, b| n | 1 << b);
            char::from_digit(nibble, 16).unwrap_or('0')
        });
        SessionDraws(digits.collect())
    }

    /// Whether case `k` draws a session.
    pub fn contains(&self, k: usize) -> bool {
        self.0
            .as_bytes()
            .get(k / 4)
            .and_then(|&c| char::from(c).to_digit(16))
            .is_some_and(|n| n & (1 << (k % 4)) != 0)
    }
}

/// An implementation's own wording of the templates, as a run records it: the `--messages` file
/// and what it maps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Messages {
    /// The file, as given.
    pub path: String,
    /// The implementation's text of each template it words, by template ID.
    pub templates: std::collections::BTreeMap<String, String>,
}

/// A `--messages` file read: where it is, and the wording it holds.
#[derive(Debug, Clone, Default)]
pub struct MessagesFile {
    /// The file, as given.
    pub path: String,
    /// Its wording.
    pub wording: crate::messages::Wording,
}

/// What the command line asks a check to do, its files read.
#[derive(Debug, Clone)]
pub struct Request {
    /// The profile.
    pub profile: Profile,
    /// Every fixed case the run may take: the suite's and those of `--cases` files, in order.
    pub fixed: Vec<Case>,
    /// `--only` selectors.
    pub only: Vec<Selector>,
    /// `--skip` selectors.
    pub skip: Vec<Selector>,
    /// `--no-fixed`.
    pub no_fixed: bool,
    /// `--shard`, when given.
    pub shard: Option<Shard>,
    /// How many generated cases the whole run draws.
    pub generated: usize,
    /// Their seed.
    pub seed: u64,
    /// At most this many violated clauses get a counterexample (generated cases first, then the
    /// fixed cases).
    pub max_counterexamples: usize,
    /// At most this many shrinking steps per counterexample.
    pub shrink_steps: u32,
    /// The expected failures (`--expect`).
    pub expected: Expected,
    /// The conformance level every answer is judged at (`--level`).
    pub level: crate::conformance::Level,
    /// The implementation's own wording of the templates (`--messages`), if given: the
    /// reference's texts are rendered with it.
    pub messages: Option<MessagesFile>,
    /// What is checked.
    pub target: Target,
    /// The command line, recorded in the report for people.
    pub argv: Vec<String>,
    /// The share of the profile's MUST clauses the run must judge (`--require-coverage`), if
    /// any: a run that judged less fails ([`super::coverage`]).
    pub require_coverage: Option<super::coverage::Percent>,
}

/// Why a request cannot be run.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// A selector names no case, or is not a feature condition.
    #[error("{0}")]
    Select(#[from] select::SelectError),
    /// The selection leaves nothing to run.
    #[error("the run has no case: {0}")]
    NothingToRun(String),
}

/// A checked request: the fixed cases this process runs, in order, and everything the run needs.
#[derive(Debug, Clone)]
pub struct Plan {
    request: Request,
    /// The fixed cases of the selection in this shard.
    cases: Vec<Case>,
    /// The cases of the whole run, for judging expected failures this part left out.
    scope: Scope,
}

impl Plan {
    /// Selects and shards the fixed cases; refuses a selector that names no case and a run that
    /// would have no case.
    pub fn new(mut request: Request) -> Result<Plan, PlanError> {
        let scope = Scope::of_fixed(request.fixed.iter().map(|c| c.id.as_str()))
            .with_generated(request.seed, request.generated);
        // The fixed cases go to the selection, and those it leaves out are dropped here: a run
        // holds only the cases it runs (the corpus's replies of a megabyte would stay otherwise,
        // all of them under --no-fixed).
        let fixed = std::mem::take(&mut request.fixed);
        let cases = if request.no_fixed {
            Vec::new()
        } else {
            select::select(fixed, &request.only, &request.skip, request.profile)?
        };
        let shard = request.shard.unwrap_or(Shard::ALL);
        let cases: Vec<Case> = cases
            .into_iter()
            .enumerate()
            .filter(|(i, _)| shard.contains(*i))
            .map(|(_, c)| c)
            .collect();
        if cases.is_empty() && request.generated == 0 {
            return Err(PlanError::NothingToRun(if request.no_fixed {
                "--no-fixed leaves out the fixed cases and --generated is 0".to_owned()
            } else {
                format!(
                    "the selection{} leaves no fixed case in shard {shard}, and no generated scenario was asked for",
                    if request.only.is_empty() && request.skip.is_empty() {
                        ""
                    } else {
                        " (--only/--skip)"
                    }
                )
            }));
        }
        let mut scope = scope.running(cases.iter().map(|c| c.id.as_str()));
        scope.shard = shard;
        Ok(Plan {
            request,
            cases,
            scope,
        })
    }

    /// The request it checked, without its fixed cases: those it runs are the plan's.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// This process's share of the run.
    pub fn shard(&self) -> Shard {
        self.request.shard.unwrap_or(Shard::ALL)
    }

    /// What the outcomes are compared with: the engine checks itself against the cases' own
    /// expectations; anything else is compared with the engine.
    pub fn oracle(&self) -> Oracle {
        match self.request.target {
            Target::InProcess(InProcess::Engine) => Oracle::CaseExpectation,
            _ => Oracle::Reference,
        }
    }

    /// The cases of the whole run, with what `imp` is asked (sessions only when it observes them).
    fn scope(&self, imp: &dyn Implementation) -> Scope {
        Scope {
            sessions: imp
                .capabilities()
                .observes(crate::capability::Observable::Sessions),
            ..self.scope.clone()
        }
    }
}

/// What a check returns beside its report: what the generated cases drew, and their
/// counterexamples as a case file to freeze.
#[derive(Debug, Clone)]
pub struct Generated {
    /// How the generated cases spread over the decision table and the spec, for people.
    pub distribution: String,
    /// Each counterexample as the terminal shows it.
    pub found: Vec<String>,
    /// The counterexamples, calls and sessions, as a fixed-case file
    /// ([`generated::frozen_file`]); `None` when there are none.
    pub frozen: Option<Frozen>,
}

/// Counterexamples as a fixed-case file.
#[derive(Debug, Clone)]
pub struct Frozen {
    /// Its name: `generated-<seed>-<profile>.json`.
    pub file: String,
    /// Its text.
    pub text: String,
    /// How many single calls it holds.
    pub calls: usize,
    /// How many sessions it holds.
    pub sessions: usize,
}

/// A check's report, and what its generated cases drew when it had some.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The report, recording the plan it ran.
    pub report: Report,
    /// The generated part, when the plan draws generated cases.
    pub generated: Option<Generated>,
    /// The cases of the whole run, for an expectation file written from the report
    /// ([`Expected::from_report`]).
    pub scope: Scope,
}

/// Runs `plan` against `imp` (started as the plan's target), telling `progress` after each case.
pub fn check(
    plan: &Plan,
    imp: &mut dyn Implementation,
    progress: &mut dyn FnMut(usize, usize),
) -> Checked {
    let request = &plan.request;
    let profile = request.profile;
    let scope = plan.scope(imp);
    let terms = crate::conformance::Terms {
        level: request.level,
        wording: request
            .messages
            .as_ref()
            .map(|m| m.wording.clone())
            .unwrap_or_default(),
    };
    let mut report = super::run_under(
        imp,
        &plan.cases,
        profile,
        &terms,
        plan.oracle(),
        &request.expected,
        progress,
    );
    report.command = match &request.target {
        Target::Adapter(command) => command.clone(),
        Target::InProcess(_) => Vec::new(),
    };
    let fixed = std::mem::take(&mut report.results);
    let mut out = None;
    if request.generated > 0 {
        let gplan = generated::Plan {
            shard: plan.shard(),
            max_counterexamples: request.max_counterexamples,
            max_shrink_steps: request.shrink_steps,
            terms: terms.clone(),
            ..generated::Plan::new(request.generated, request.seed)
        };
        let mut found = generated::run(imp, profile, &gplan, &request.expected, progress);
        let (calls, sessions) = found.counterexample_kinds();
        let frozen = (calls + sessions > 0).then(|| Frozen {
            file: format!("generated-{}-{profile}.json", request.seed),
            text: generated::frozen_file(
                &found.counterexamples,
                profile,
                generated::Origin::Generated { seed: request.seed },
            ),
            calls,
            sessions,
        });
        out = Some(Generated {
            distribution: found.distribution.render(),
            found: found
                .found(profile, &report.command, report.canonical)
                .iter()
                .map(generated::render_found)
                .collect(),
            frozen,
        });
        report.join_generated(&mut found);
    }
    // The fixed cases' violations no generated case showed get a counterexample too, within the
    // same limit.
    if plan.oracle() == Oracle::Reference {
        let gplan = generated::Plan {
            max_counterexamples: request
                .max_counterexamples
                .saturating_sub(report.counterexamples.len()),
            max_shrink_steps: request.shrink_steps,
            terms: terms.clone(),
            ..generated::Plan::new(0, request.seed)
        };
        let shrunk = generated::shrink_fixed(
            imp,
            profile,
            &gplan,
            &plan.cases,
            &fixed,
            &report.counterexamples,
        );
        report.counterexamples.extend(
            shrunk
                .iter()
                .map(|c| c.found(profile, &report.command, report.canonical)),
        );
    }
    report.results.splice(0..0, fixed);
    report.in_process = match request.target {
        Target::InProcess(i) => Some(i),
        Target::Adapter(_) => None,
    };
    report.selection = Selection {
        only: request.only.iter().map(|s| s.raw.clone()).collect(),
        skip: request.skip.iter().map(|s| s.raw.clone()).collect(),
        no_fixed: request.no_fixed,
    };
    report.shard = request.shard.filter(|s| s.of > 1);
    report.generated = request.generated;
    report.session_draws = (request.generated > 0).then(|| {
        SessionDraws::of(request.generated, |k| {
            super::generated_sessions::draws_session(request.seed, k)
        })
    });
    report.stale_expectations = request.expected.stale(&scope);
    report.required_coverage = request.require_coverage;
    report.messages = request.messages.as_ref().map(|m| Messages {
        path: m.path.clone(),
        templates: m.wording.templates().clone(),
    });
    report.argv = request.argv.clone();
    Checked {
        report,
        generated: out,
        scope,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(only: &[&str], generated: usize) -> Request {
        Request {
            profile: Profile::BASELINE,
            fixed: crate::cases::all(Profile::BASELINE).unwrap(),
            only: only.iter().map(|s| Selector::parse(s).unwrap()).collect(),
            skip: Vec::new(),
            no_fixed: false,
            shard: None,
            generated,
            seed: 3,
            max_counterexamples: 5,
            shrink_steps: 100,
            expected: Expected::none(),
            level: crate::conformance::Level::Full,
            messages: None,
            target: Target::InProcess(InProcess::AsyncGate),
            argv: vec!["not read".to_owned()],
            require_coverage: None,
        }
    }

    /// A check run as a library function returns a report that records its plan, needs nothing
    /// added, and reads back as written; sessions a run does not ask are still recorded as drawn.
    #[test]
    fn a_check_returns_the_report_of_its_plan() {
        let plan = Plan::new(request(&["BL-P1*"], 24)).unwrap();
        assert_eq!(plan.oracle(), Oracle::Reference);
        let Checked {
            report, generated, ..
        } = check(
            &plan,
            &mut super::super::AsyncGate::new().unwrap(),
            &mut |_, _| {},
        );
        assert!(report.results.iter().any(|r| r.id == "BL-P1"));
        assert!(report.results.iter().all(|r| r.id.starts_with("BL-P1")));
        // The async gate does not observe sessions: it is asked the 24 calls alone.
        assert_eq!(report.cases(), report.results.len() + 24);
        assert_eq!(report.in_process, Some(InProcess::AsyncGate));
        assert_eq!(report.selection.only, ["BL-P1*"]);
        assert_eq!(
            (report.generated, report.seed, report.shard),
            (24, Some(3), None)
        );
        let draws = report.session_draws.clone().unwrap();
        assert!((0..24).all(|k| draws.contains(k) == super::super::generated_sessions::draws_session(3, k)));
        assert!(
            (0..24).any(|k| draws.contains(k)),
            "a session among 24 cases"
        );
        assert!(
            generated.is_some_and(|g| g.frozen.is_none()),
            "the engine has no counterexample"
        );
        // The generated cases judge clauses the fixed ones selected do not cite, though they
        // passed and are not listed.
        let fixed = crate::runner::coverage::Coverage::of(report.profile, &report.results, []);
        let whole = report.coverage();
        assert!(whole.judged > fixed.judged, "{whole} / {fixed}");
        assert!(report.generated_clauses.iter().any(|c| c == "AR-SCOPE-1"));
        // Read back, it writes the same text (times are written to the millisecond and the
        // microsecond).
        let text = crate::report::json(&report, false);
        let back = crate::report::read(&text).unwrap();
        assert_eq!(crate::report::json(&back.run, false), text);
    }

    #[test]
    fn a_plan_without_cases_is_refused() {
        let none = Request {
            no_fixed: true,
            ..request(&[], 0)
        };
        let e = Plan::new(none).unwrap_err();
        assert!(e.to_string().contains("--no-fixed leaves out"), "{e}");
        let e = Plan::new(request(&["NO-SUCH-CASE"], 0)).unwrap_err();
        assert!(
            matches!(
                e,
                PlanError::Select(select::SelectError::MatchesNothing { .. })
            ),
            "{e}"
        );
    }

    #[test]
    fn session_draws_hold_each_case_in_its_bit() {
        let d = SessionDraws::of(8, |k| k == 0 || k == 5);
        assert_eq!(d, SessionDraws("12".to_owned()));
        assert!((0..8).all(|k| d.contains(k) == (k == 0 || k == 5)));
        assert!(!d.contains(8) && !d.contains(usize::MAX));
        assert_eq!(SessionDraws::of(0, |_| true), SessionDraws::default());
        assert_eq!(SessionDraws::of(5, |_| true).0, "f1");
        // A hostile report's digits draw nothing, and nothing panics on them.
        let hostile = SessionDraws("zé".to_owned());
        assert!((0..16).all(|k| !hostile.contains(k)));
    }
}
