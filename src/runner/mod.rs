//! The conformance runner: runs fixed and generated cases, calls and sessions, against an
//! implementation, and judges each outcome through one [`Judge`]. Implementations are seen only
//! through [`Implementation`] — the in-process reference engine, or a subprocess speaking the
//! adapter protocol — and every case is isolated, so one panic, crash or hang is that case's
//! verdict, never the end of the run. A case that needs what the implementation does not observe
//! (a session, a log fact, the requests) or a capability its framework lacks is not sent to it: it
//! is *not applicable*, counted apart from passes and failures.

pub mod check;
pub mod compare;
pub mod coverage;
pub mod generated;
pub mod generated_sessions;
pub mod judge;
pub mod known_failures;
pub mod permits;
pub mod quote;
pub mod select;
pub mod shard;
pub mod subprocess;
pub mod violations;
pub mod worddiff;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant, SystemTime};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use crate::capability::{Capabilities, Capability, Need, Observable};
use crate::cases::{Case, Expectation, matches_partial};
use crate::messages::Wording;
use crate::outcome::InputOutcome;
use crate::profile::Profile;
use crate::protocol::ImplementationInfo;
use crate::scenario::session::Input;
pub use compare::{Difference, Severity};
pub use judge::{Judge, Subject};

/// An implementation under test.
pub trait Implementation {
    /// How reports name it.
    fn describe(&self) -> String;
    /// Decides one input: a single call, or a session (AR-SESSION-1), which the runner asks only
    /// of an implementation that observes sessions. How it answers is its own business: one that
    /// answers from elsewhere (a subprocess) may prepare [`Ask::next`] while it waits.
    fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError>;

    /// Called when a run's cases are done. An implementation that can still misbehave after
    /// its last answer (a subprocess writing lines nobody asked for) reports it here, and the
    /// run counts it as a failed case of its own.
    fn finish(&mut self) -> Option<ImplError> {
        None
    }

    /// The adapter protocol version the implementation speaks; `None` for one in process.
    fn protocol(&self) -> Option<u32> {
        None
    }

    /// Whether it reads every scenario in its canonical form (an adapter whose `hello` asked for
    /// it, `spec/protocol.md`, "Canonical scenarios"): what a line repeating a case must send it.
    fn canonical(&self) -> bool {
        false
    }

    /// What the implementation observes beyond protocol 1 and what its framework can express;
    /// by default everything, as the reference engine.
    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    /// Who the implementation says it is (an adapter's `hello`), so that reports of several
    /// runs can be told apart and merged by name and version; `None` when it does not say.
    fn info(&self) -> Option<ImplementationInfo> {
        None
    }

    /// The optional features it implements (`spec/protocol.md`, "Optional features"); by
    /// default every one, as the reference engine.
    fn features(&self) -> crate::features::Features {
        crate::features::Features::ALL
    }
}

/// The name, version and language of an in-process implementation of this crate.
fn in_process_info(name: &str) -> ImplementationInfo {
    ImplementationInfo {
        name: name.to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        language: "rust".to_owned(),
        homepage: None,
    }
}

pub use crate::ids::TAIL_ID;

/// One input as the runner hands it to an implementation.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    /// The call or session to decide.
    pub input: &'a Input,
    /// The profile to decide it under.
    pub profile: Profile,
    /// The input the runner will ask next, if any: an implementation may prepare it (encode it,
    /// say) while it waits for this answer.
    pub next: Option<&'a Input>,
}

/// Why an implementation produced no outcome; never a pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ImplError {
    /// What kind of breakage.
    pub kind: Broken,
    /// What happened.
    #[serde(default)]
    pub message: String,
    /// What the implementation wrote to stderr while the case was in flight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<String>,
}

impl ImplError {
    /// An error of `kind` with no stderr attached.
    pub fn new(kind: Broken, message: impl Into<String>) -> ImplError {
        ImplError {
            kind,
            message: message.into(),
            stderr: Vec::new(),
        }
    }
}

/// The ways an implementation can fail to answer.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Broken {
    /// The implementation reported that it could not decide the scenario.
    Error,
    /// It exited or closed its output while the case was in flight.
    Crash,
    /// It did not answer in time.
    Timeout,
    /// It answered with something that is not a valid reply to this case.
    ProtocolError,
    /// The case was not run: the implementation could no longer be restarted.
    NotRun,
    /// The in-process implementation panicked, or autoreview itself did while deciding the case
    /// with the reference engine, judging the answer or rendering the verdict (its message says
    /// which).
    Panic,
}

impl Broken {
    /// The kind's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Broken::Error => "error",
            Broken::Crash => "crash",
            Broken::Timeout => "timeout",
            Broken::ProtocolError => "protocol-error",
            Broken::NotRun => "not-run",
            Broken::Panic => "panic",
        }
    }
}

/// The reference engine, in process.
#[derive(Debug, Default, Clone, Copy)]
pub struct Reference;

impl Implementation for Reference {
    fn describe(&self) -> String {
        format!(
            "autoreview {} reference engine (in-process)",
            env!("CARGO_PKG_VERSION")
        )
    }

    fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
        Ok(crate::engine::decide_input(ask.input, ask.profile))
    }

    fn info(&self) -> Option<ImplementationInfo> {
        Some(in_process_info("autoreview reference engine"))
    }
}

/// The async reference gate (`crate::async_gate`), in process, on a paused clock. Checked against
/// the pure engine it is the internal differential: two implementations of one spec, written
/// apart, that must agree.
pub struct AsyncGate {
    runtime: tokio::runtime::Runtime,
    /// The wording it renders its texts with (empty: the spec's).
    wording: Wording,
}

impl AsyncGate {
    /// A gate on its own single-thread runtime whose clock only moves when every task waits.
    pub fn new() -> std::io::Result<AsyncGate> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()?;
        Ok(AsyncGate {
            runtime,
            wording: Wording::default(),
        })
    }

    /// This gate, rendering its texts with `wording`, as a gate with its own wording does: run
    /// with the same `--messages`, the check shows that the async gate renders every text through
    /// the one set of templates the reference renders with.
    pub fn worded(self, wording: Wording) -> AsyncGate {
        AsyncGate { wording, ..self }
    }
}

impl Implementation for AsyncGate {
    fn describe(&self) -> String {
        format!(
            "autoreview {} async gate (in-process, tokio)",
            env!("CARGO_PKG_VERSION")
        )
    }

    fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
        let Input::One(scenario) = ask.input else {
            return Err(ImplError::new(
                Broken::NotRun,
                "this implementation does not decide session scenarios",
            ));
        };
        let scenario = std::sync::Arc::new((**scenario).clone());
        // A single-thread runtime: the wording in force on this thread is in force in the gate.
        let outcome = crate::messages::worded(&self.wording, || {
            self.runtime
                .block_on(crate::async_gate::run_scripted(scenario, ask.profile))
        });
        Ok(InputOutcome::One(Box::new(outcome)))
    }

    /// One call at a time, with its requests, session id, working directory and log fact; no
    /// session scenarios.
    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL.without(Need::Observable(Observable::Sessions))
    }

    fn info(&self) -> Option<ImplementationInfo> {
        Some(in_process_info("autoreview async gate"))
    }
}

/// What an outcome is judged against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Oracle {
    /// Each case's own expectation, written from the spec: how the reference engine itself is
    /// checked.
    CaseExpectation,
    /// The reference engine's outcome, compared field by field with severities (and, for cases
    /// whose behaviour is implementation-defined, only for safety): how other implementations are
    /// checked.
    Reference,
}

impl Oracle {
    /// What the outcomes were compared with, as the reports say it.
    pub fn describe(self) -> &'static str {
        match self {
            Oracle::CaseExpectation => "each case's own expectation",
            Oracle::Reference => "the reference engine's outcome for the same scenario",
        }
    }
}

/// The verdict on one case, before expected failures are taken into account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// The outcome met the expectation.
    Pass,
    /// The outcome differs, worst difference first.
    Fail {
        /// The differences.
        #[serde(default)]
        differences: Vec<Difference>,
    },
    /// No outcome.
    Broken {
        /// Why.
        error: ImplError,
    },
    /// Not asked: the case needs what the implementation does not observe, or a capability its
    /// framework lacks.
    NotApplicable {
        /// What it lacks: observables it does not observe or capabilities its framework lacks,
        /// by their names in a `hello`.
        #[serde(default, deserialize_with = "crate::report::deserialize_needs")]
        #[schemars(with = "Vec<String>")]
        missing: Vec<Need>,
    },
}

impl Verdict {
    /// Whether the case passed.
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Pass)
    }

    /// The worst severity of a failure; `None` for a pass or a broken case.
    pub fn worst(&self) -> Option<Severity> {
        match self {
            Verdict::Fail { differences } => differences.iter().map(|d| d.severity).min(),
            _ => None,
        }
    }
}

/// A case's final status in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Passed.
    Pass,
    /// Failed, and not listed as an expected failure.
    Fail,
    /// Failed, as the expectation file says it does.
    ExpectedFail,
    /// Passed although the expectation file lists it as failing.
    UnexpectedPass,
    /// Not run: the case needs what the implementation does not observe. Neither a pass nor a
    /// failure, whatever the expectation file lists.
    NotApplicable,
}

impl Status {
    /// The status of a case that passed or not, listed as an expected failure or not.
    pub fn of(passed: bool, expected_to_fail: bool) -> Status {
        match (passed, expected_to_fail) {
            (true, false) => Status::Pass,
            (true, true) => Status::UnexpectedPass,
            (false, false) => Status::Fail,
            (false, true) => Status::ExpectedFail,
        }
    }
}

/// One case's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CaseResult {
    /// The case ID.
    pub id: String,
    /// The case's area.
    #[serde(default)]
    pub area: String,
    /// The case's title.
    #[serde(default)]
    pub title: String,
    /// The clauses the case exercises.
    #[serde(default)]
    pub clauses: Vec<String>,
    /// The decision-table row the case's call falls under (a row's own case included); `None`
    /// for a session, or a call no row of the profile's table holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row: Option<String>,
    /// The verdict.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The status after expected failures.
    pub status: Status,
    /// Why the case is expected to fail, when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_failure: Option<String>,
    /// How long asking the implementation and judging its answer took, in milliseconds.
    #[serde(
        rename = "duration_ms",
        default,
        serialize_with = "millis",
        deserialize_with = "crate::report::deserialize_millis"
    )]
    #[schemars(with = "f64")]
    pub duration: Duration,
}

/// A duration as milliseconds, to the microsecond.
pub(crate) fn millis<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((d.as_micros() as f64) / 1000.0)
}

/// A whole run: what was checked, under which conditions, and every case's result.
///
/// It is serialized and read back as the body of the JSON report ([`crate::report::JsonReport`]);
/// members a reader may miss in a report written by hand read as their default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// The profile checked.
    pub profile: Profile,
    /// The implementation checked, as it describes itself (an adapter's handshake).
    pub implementation: String,
    /// Its name, version and language, as its handshake gives them (the engine's own for an
    /// implementation in process); `None` when an adapter gave none.
    #[serde(default)]
    pub implementation_info: Option<ImplementationInfo>,
    /// The adapter command and its arguments; empty for an implementation in process.
    #[serde(default)]
    pub command: Vec<String>,
    /// The implementation in process that was checked (`--implementation`); `None` for an
    /// adapter.
    #[serde(default)]
    pub in_process: Option<check::InProcess>,
    /// What its outcomes were compared with.
    #[serde(rename = "compared_with", default = "crate::report::oracle_reference")]
    pub oracle: Oracle,
    /// The conformance level its outcomes were judged at (`spec/protocol.md`, "Conformance
    /// levels"); `full` in a report that does not say.
    #[serde(default)]
    pub level: crate::conformance::Level,
    /// The fixed cases the run selected, as the command line gave them.
    #[serde(default)]
    pub selection: check::Selection,
    /// Which shard of the run this report holds, when the run was split (`--shard i/n`).
    #[serde(default)]
    pub shard: Option<shard::Shard>,
    /// How many generated scenarios the whole run draws, all shards together; 0 for none.
    #[serde(default)]
    pub generated: usize,
    /// Which of the whole run's generated cases also draw a session, all shards together: what a
    /// reader needs to know which session IDs the run holds without drawing them again. `None`
    /// in a report that does not record it (before report 5).
    #[serde(default)]
    pub session_draws: Option<check::SessionDraws>,
    /// The adapter protocol version spoken; `None` for an implementation in process.
    #[serde(default)]
    pub protocol: Option<u32>,
    /// Whether the adapter asked for canonical scenarios (so its repro lines send them).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub canonical: bool,
    /// What the implementation observes beyond protocol 1.
    #[serde(default)]
    pub observes: Vec<Observable>,
    /// What the implementation's framework cannot express.
    #[serde(default)]
    pub lacks: Vec<Capability>,
    /// Under the resilient profile, each optional feature and whether the implementation
    /// declared it (`spec/protocol.md`, "Optional features"); empty under the baseline and in a
    /// report that does not say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<crate::features::FeatureStatus>,
    /// When the run started (RFC 3339, UTC).
    #[serde(
        default = "crate::report::epoch",
        serialize_with = "crate::report::serialize_timestamp",
        deserialize_with = "crate::report::deserialize_timestamp"
    )]
    #[schemars(with = "String")]
    pub started: SystemTime,
    /// How long the cases took, fixed and generated together (start-up and shrinking included),
    /// in milliseconds.
    #[serde(
        rename = "duration_ms",
        default,
        serialize_with = "millis",
        deserialize_with = "crate::report::deserialize_millis"
    )]
    #[schemars(with = "f64")]
    pub duration: Duration,
    /// The seed of the generated cases, when generated cases ran.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The command line of the run (empty when it did not come from one), for people: what the
    /// run was asked is recorded in the members above, and no reader parses it.
    #[serde(default)]
    pub argv: Vec<String>,
    /// Expected failures listed for cases that were not in the run.
    #[serde(default)]
    pub stale_expectations: Vec<String>,
    /// The implementation's own wording of the templates the run rendered the reference's texts
    /// with (`--messages`), when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<check::Messages>,
    /// Generated cases that passed: counted, not listed, so a run of a million keeps little.
    #[serde(default)]
    pub generated_passed: usize,
    /// Generated cases not sent because they need a capability the implementation lacks: counted,
    /// not listed.
    #[serde(default)]
    pub generated_not_applicable: usize,
    /// The clauses the generated cases the run judged exercise, all of them (their table rows'
    /// and those the reference's decision reached): a generated case that passed is counted, not
    /// listed, so what it judged is kept here for the run's [`coverage`](Report::coverage).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generated_clauses: Vec<String>,
    /// The share of the profile's MUST clauses the run was required to judge
    /// (`--require-coverage`), when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required_coverage: Option<coverage::Percent>,
    /// Every fixed case's result, and the generated cases that did not simply pass, in case
    /// order.
    pub results: Vec<CaseResult>,
    /// The differences generated cases showed, each shrunk to a minimal scenario, with the lines
    /// that repeat it.
    #[serde(default)]
    pub counterexamples: Vec<generated::Found>,
}

impl Report {
    /// Cases with status `pass`.
    pub fn passed(&self) -> usize {
        self.count(Status::Pass)
    }

    /// The requirements the failed cases break, worst first ([`violations::of`]).
    pub fn violations(&self) -> Vec<violations::Violation> {
        violations::of(&self.results, &self.counterexamples)
    }

    /// Cases that failed and are not listed as expected failures: the failures that fail the run.
    pub fn failed(&self) -> usize {
        self.count(Status::Fail)
    }

    /// Cases with a status.
    pub fn count(&self, status: Status) -> usize {
        let counted = match status {
            Status::Pass => self.generated_passed,
            Status::NotApplicable => self.generated_not_applicable,
            _ => 0,
        };
        counted + self.results.iter().filter(|r| r.status == status).count()
    }

    /// How many cases the run holds, not-applicable ones included.
    pub fn cases(&self) -> usize {
        self.results.len() + self.generated_passed + self.generated_not_applicable
    }

    /// Cases not sent to the implementation because it does not observe what they need.
    pub fn not_applicable(&self) -> usize {
        self.count(Status::NotApplicable)
    }

    /// How many cases ran: all but the not-applicable ones.
    pub fn ran(&self) -> usize {
        self.cases() - self.not_applicable()
    }

    /// Whether the run succeeds: some case ran, no unexpected failure, the share of MUST clauses
    /// it was required to judge judged ([`Report::coverage`]), and in strict mode no unexpected
    /// pass and no stale expectation. A run in which every case was not applicable ran nothing,
    /// and does not succeed.
    pub fn succeeded(&self, strict: bool) -> bool {
        self.ran() > 0
            && self.count(Status::Fail) == 0
            && self.coverage().met()
            && (!strict
                || (self.count(Status::UnexpectedPass) == 0 && self.stale_expectations.is_empty()))
    }

    /// How many of the profile's MUST clauses the run judged, which it did not, and the share it
    /// was required to judge ([`coverage`]).
    pub fn coverage(&self) -> coverage::Coverage {
        coverage::Coverage {
            required: self.required_coverage,
            ..coverage::Coverage::of(
                self.profile,
                &self.results,
                self.generated_clauses.iter().map(String::as_str),
            )
        }
    }

    /// Adds a generated run's results, seed and time to this report. Which expected failures are
    /// stale depends on the whole run, not on this part of it: whoever knows the run's
    /// [`known_failures::Scope`] sets `stale_expectations` ([`known_failures::Expected::stale`]).
    pub fn join_generated(&mut self, generated: &mut generated::GeneratedRun) {
        self.results.append(&mut generated.results);
        self.generated_passed += generated.passed;
        self.generated_not_applicable += generated.not_applicable;
        let mut clauses: std::collections::BTreeSet<String> =
            std::mem::take(&mut self.generated_clauses)
                .into_iter()
                .collect();
        clauses.extend(generated.judged_clauses());
        self.generated_clauses = clauses.into_iter().collect();
        self.counterexamples
            .extend(generated.found(self.profile, &self.command, self.canonical));
        self.seed = Some(generated.seed);
        self.duration += generated.duration;
    }
}

/// Runs every case and judges it against `oracle` at `full`, taking `expected` failures into
/// account. `progress` is told after each case.
pub fn run(
    imp: &mut dyn Implementation,
    cases: &[Case],
    profile: Profile,
    oracle: Oracle,
    expected: &known_failures::Expected,
    progress: &mut dyn FnMut(usize, usize),
) -> Report {
    run_under(
        imp,
        cases,
        profile,
        &crate::conformance::Terms::default(),
        oracle,
        expected,
        progress,
    )
}

/// [`run`], every answer held to `terms`: judged at their level, against the reference's texts
/// rendered in their wording.
pub fn run_under(
    imp: &mut dyn Implementation,
    cases: &[Case],
    profile: Profile,
    terms: &crate::conformance::Terms,
    oracle: Oracle,
    expected: &known_failures::Expected,
    progress: &mut dyn FnMut(usize, usize),
) -> Report {
    let started = SystemTime::now();
    let clock = Instant::now();
    let mut judge = Judge::new(imp, profile, expected).under(terms.clone());
    let has = judge.has;
    let table = crate::table::Table::load(profile).ok();
    // Whether the implementation observes what each case needs.
    let observed: Vec<bool> = cases
        .iter()
        .map(|c| has.missing(c.needs()).is_empty())
        .collect();
    // The reference's outcome is needed to judge against it, and to tell the capabilities a case
    // needs.
    let needs_reference =
        |i: usize| has.lacks_any() || (oracle == Oracle::Reference && observed[i]);
    let mut results = Vec::with_capacity(cases.len());
    std::thread::scope(|scope| {
        // The reference decides each case ahead, on another thread, while the implementation
        // works on the cases before it.
        let (tx, references) = std::sync::mpsc::sync_channel(16);
        scope.spawn(move || {
            for (i, c) in cases.iter().enumerate() {
                let reference = needs_reference(i)
                    .then(|| judge::reference_safely(&c.scenario, profile, has, &terms.wording));
                if tx.send(reference).is_err() {
                    return;
                }
            }
        });
        for (i, case) in cases.iter().enumerate() {
            let reference = references.recv().ok().flatten();
            let row = row_of(case, profile, table.as_ref());
            // The input asked next, so that the implementation can prepare it.
            let next = (i + 1..cases.len())
                .find(|&j| observed[j])
                .map(|j| &cases[j].scenario);
            results.push(judge.case(case, row, oracle, reference, next));
            progress(i + 1, cases.len());
        }
    });
    results.extend(judge.tail());
    // As far as this function knows, `cases` are the whole run; a run that took part of the
    // suite (a selection, a shard) sets them again for its whole scope.
    let stale_expectations = expected.stale(&known_failures::Scope::of_fixed(
        cases.iter().map(|c| c.id.as_str()),
    ));
    let features = judge.features.statuses(profile);
    let imp = judge.implementation();
    Report {
        profile,
        implementation: imp.describe(),
        implementation_info: imp.info(),
        command: Vec::new(),
        in_process: None,
        oracle,
        level: terms.level,
        selection: check::Selection::default(),
        shard: None,
        generated: 0,
        session_draws: None,
        protocol: imp.protocol(),
        canonical: imp.canonical(),
        observes: has.observed(),
        lacks: has.lacked(),
        features,
        started,
        duration: clock.elapsed(),
        seed: None,
        argv: Vec::new(),
        results,
        generated_passed: 0,
        generated_not_applicable: 0,
        generated_clauses: Vec::new(),
        required_coverage: None,
        stale_expectations,
        messages: None,
        counterexamples: Vec::new(),
    }
}

/// The decision-table row a case's single call falls under: a row's own case is its row, another
/// call the first row of `table` whose conditions its features meet. `None` for a session.
fn row_of(case: &Case, profile: Profile, table: Option<&crate::table::Table>) -> Option<String> {
    let call = case.call()?;
    let table = table?;
    if case.is_row() && table.rows.iter().any(|r| r.id == case.id) {
        return Some(case.id.clone());
    }
    let features = crate::table::features::of(call, profile);
    table.matching(&features).first().map(|r| r.id.clone())
}

/// Judges one outcome of an implementation with the capabilities `has` against `oracle`, at
/// `full`: as [`Judge::case`] judges an implementation that answers `outcome`, so that against the
/// reference it is compared in the one place every answer is ([`Judge::differences`]), the
/// requests only when it observes them.
pub fn judge(
    case: &Case,
    outcome: &InputOutcome,
    profile: Profile,
    oracle: Oracle,
    has: Capabilities,
) -> Verdict {
    judge_given(case, outcome, None, profile, oracle, has)
}

/// [`judge`] against the reference's outcome the caller already has (`reference`, decided for
/// the case's scenario under `profile`, as far as `has` observes), which is then not decided
/// again.
pub fn judge_against(
    case: &Case,
    outcome: &InputOutcome,
    reference: InputOutcome,
    profile: Profile,
    has: Capabilities,
) -> Verdict {
    judge_given(
        case,
        outcome,
        Some(reference),
        profile,
        Oracle::Reference,
        has,
    )
}

fn judge_given(
    case: &Case,
    outcome: &InputOutcome,
    reference: Option<InputOutcome>,
    profile: Profile,
    oracle: Oracle,
    has: Capabilities,
) -> Verdict {
    /// An implementation that answers every input with one outcome.
    struct Given<'o> {
        outcome: &'o InputOutcome,
        has: Capabilities,
    }
    impl Implementation for Given<'_> {
        fn describe(&self) -> String {
            "the outcome given".to_owned()
        }
        fn decide(&mut self, _: Ask<'_>) -> Result<InputOutcome, ImplError> {
            Ok(self.outcome.clone())
        }
        fn capabilities(&self) -> Capabilities {
            self.has
        }
    }
    let expected = known_failures::Expected::none();
    let mut given = Given { outcome, has };
    Judge::new(&mut given, profile, &expected)
        .case(case, None, oracle, reference.map(Ok), None)
        .verdict
}

/// The verdict on an implementation's `answer`: its breakage, or the `differences` found in its
/// outcome. Every verdict on an answer, fixed or generated, call or session, is reached here, and
/// here judging runs apart: the differences are found, and the verdict is rendered as every
/// report renders it ([`crate::report::render_verdict`]), inside one `catch_unwind`. A panic in either
/// (a bug in autoreview, never the implementation's) is this case's broken verdict, naming the
/// panic, and the run goes on; the verdict kept is one the reports are known to render.
pub(crate) fn judged<T>(
    answer: Result<T, ImplError>,
    differences: impl FnOnce(T) -> Vec<Difference>,
) -> Verdict {
    catch_unwind(AssertUnwindSafe(|| {
        let verdict = match answer {
            Err(error) => Verdict::Broken { error },
            Ok(outcome) => verdict_of(differences(outcome)),
        };
        crate::report::render_verdict(&verdict);
        verdict
    }))
    .unwrap_or_else(|p| Verdict::Broken {
        error: ImplError::new(
            Broken::Panic,
            format!(
                "autoreview panicked while judging this case or rendering its verdict (a bug in \
                 autoreview, not in the implementation): {}",
                panic_message(&p)
            ),
        ),
    })
}

fn verdict_of(differences: Vec<Difference>) -> Verdict {
    if differences.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Fail { differences }
    }
}

/// The differences from a case's own expectation for `input` under `profile`, each body run the
/// expectation does not make rated by what let it run ([`permits::rate`]).
fn by_expectation(
    input: &Input,
    expect: &Expectation,
    outcome: &InputOutcome,
    profile: Profile,
) -> Vec<Difference> {
    let mut found = by_expectation_alone(expect, outcome);
    if let Expectation::Exact(want) = expect {
        permits::rate(
            &mut found,
            input,
            &InputOutcome::One(want.clone()),
            outcome,
            profile,
        );
        found.sort_by_key(|x| x.severity);
    }
    found
}

/// The differences from a case's own expectation, as compared.
fn by_expectation_alone(expect: &Expectation, outcome: &InputOutcome) -> Vec<Difference> {
    match (expect, outcome) {
        (Expectation::Exact(want), InputOutcome::Session(_)) => {
            compare::compare_input(&InputOutcome::One(want.clone()), outcome)
        }
        (Expectation::Exact(want), InputOutcome::One(outcome)) => {
            // Every text in full: the reference's own tails are what this expectation pins.
            let mut full = (**want).clone();
            full.prefix_only.clear();
            let mut exact = compare::compare(&full, outcome);
            // An exact expectation also fixes the members compare() leaves to the reference.
            if want.id != outcome.id {
                exact.push(Difference {
                    clauses: Vec::new(),
                    severity: Severity::Info,
                    pointer: "/id".into(),
                    expected: serde_json::to_value(&want.id).unwrap_or(Value::Null),
                    actual: serde_json::to_value(&outcome.id).unwrap_or(Value::Null),
                    rule: None,
                });
            }
            if want.prefix_only != outcome.prefix_only {
                exact.push(Difference {
                    clauses: Vec::new(),
                    severity: Severity::Info,
                    pointer: "/prefix_only".into(),
                    expected: serde_json::to_value(&want.prefix_only).unwrap_or(Value::Null),
                    actual: serde_json::to_value(&outcome.prefix_only).unwrap_or(Value::Null),
                    rule: None,
                });
            }
            exact
        }
        (Expectation::Partial(want), _) => {
            let actual = outcome.written_out();
            match matches_partial(want, &actual) {
                Ok(()) => Vec::new(),
                Err(at) => {
                    let expected = pointer(want, &at).cloned().unwrap_or(Value::Null);
                    let actual = actual.pointer(&at).cloned().unwrap_or(Value::Null);
                    vec![Difference {
                        clauses: Vec::new(),
                        severity: compare::severity_at(&at, &expected, &actual),
                        expected,
                        actual,
                        pointer: at,
                        rule: Some("the case's expectation".into()),
                    }]
                }
            }
        }
    }
}

fn pointer<'v>(v: &'v Value, at: &str) -> Option<&'v Value> {
    if at == "/" { Some(v) } else { v.pointer(at) }
}

pub(crate) fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{ItemOutcome, Outcome};
    use crate::report;
    use crate::report::tests::panics_rendering;

    /// The text whose rendering panics in these tests.
    const MARK: &str = "a text whose rendering panics";

    /// Where a call's outcome stands among a [`Rewritten`] implementation's answers: the `n`th
    /// single call it is asked, or a call of the `n`th session (both from 0).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Answer {
        Call(usize),
        InSession(usize),
    }

    /// The reference engine, with each call's outcome passed through `rewrite` before it is
    /// answered.
    struct Rewritten<F> {
        rewrite: F,
        calls: usize,
        sessions: usize,
    }

    fn rewritten<F: FnMut(Answer, &mut Outcome)>(rewrite: F) -> Rewritten<F> {
        Rewritten {
            rewrite,
            calls: 0,
            sessions: 0,
        }
    }

    impl<F: FnMut(Answer, &mut Outcome)> Implementation for Rewritten<F> {
        fn describe(&self) -> String {
            "the reference engine, its answers rewritten".into()
        }

        fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
            let mut o = crate::engine::decide_input(ask.input, ask.profile);
            match &mut o {
                InputOutcome::One(c) => {
                    (self.rewrite)(Answer::Call(self.calls), c);
                    self.calls += 1;
                }
                InputOutcome::Session(s) => {
                    for item in &mut s.calls {
                        if let ItemOutcome::Call(c) = item {
                            (self.rewrite)(Answer::InSession(self.sessions), c);
                        }
                    }
                    self.sessions += 1;
                }
            }
            Ok(o)
        }
    }

    /// The reference engine, answering [`MARK`] as the result text of each of `marked`.
    fn marked(marked: &[Answer]) -> impl Implementation + '_ {
        rewritten(move |a, o| {
            if marked.contains(&a) {
                o.result.text = Some(MARK.into());
            }
        })
    }

    /// Whether `r` is broken by a panic of autoreview's own judging, named in its message.
    fn judging_panicked(r: &CaseResult) -> bool {
        matches!(&r.verdict, Verdict::Broken { error }
            if error.kind == Broken::Panic
                && error.message.starts_with("autoreview panicked while judging this case")
                && error.message.contains("a panic injected into the rendering"))
    }

    /// A panic while judging one case, or rendering its verdict, is that case's broken verdict:
    /// the run goes on, the other cases are judged, and every report is written with it.
    #[test]
    fn a_panic_judging_one_case_breaks_that_case_only() {
        let _mark = panics_rendering(MARK);
        let profile = Profile::BASELINE;
        let cases: Vec<Case> = crate::cases::all(profile)
            .unwrap()
            .into_iter()
            .filter(|c| matches!(c.scenario, Input::One(_)) && !c.implementation_defined)
            .take(4)
            .collect();
        let mut imp = marked(&[Answer::Call(1)]);
        let report = run(
            &mut imp,
            &cases,
            profile,
            Oracle::Reference,
            &known_failures::Expected::none(),
            &mut |_, _| {},
        );
        let broken: Vec<&str> = report
            .results
            .iter()
            .filter(|r| judging_panicked(r))
            .map(|r| r.id.as_str())
            .collect();
        assert_eq!(broken, [cases[1].id.as_str()], "{:#?}", report.results);
        assert_eq!(report.results.len(), 4);
        assert_eq!(report.passed(), 3, "the cases after it were judged");
        assert_eq!(report.results[1].status, Status::Fail);
        assert!(report::text(&report, false, false).contains("PANIC"));
        assert!(report::markdown(&report, false).contains("autoreview panicked while judging"));
        assert!(
            report::junit(&report, false)
                .unwrap()
                .contains("type=\"panic\"")
        );
        assert!(report::json(&report, false).contains("\"kind\": \"panic\""));
    }

    /// Sessions are shrunk as calls are: a second failure that breaks no clause the first did
    /// not adds no counterexample, and a minimal session is kept once.
    #[test]
    fn session_counterexamples_that_shrink_alike_are_kept_once() {
        let mut imp = rewritten(|a, o| {
            if let (Answer::InSession(_), Some(t)) = (a, &mut o.result.text) {
                t.push_str(" (changed)");
            }
        });
        let expected = known_failures::Expected::none();
        let mut judge = Judge::new(&mut imp, Profile::RESILIENT, &expected);
        let has = judge.has;
        let input = (0..400)
            .filter(|&k| generated_sessions::draws_session(3, k))
            .map(|k| has.restrict(Input::Session(generated_sessions::draw(3, k))))
            .find(|s| judge.against_reference(s).0.worst() == Some(Severity::Text))
            .expect("a session whose texts differ");
        let (verdict, _) = judge.against_reference(&input);
        // The same difference, and one more of the same severity elsewhere: another kind.
        let Verdict::Fail { differences } = &verdict else {
            panic!("{verdict:?}")
        };
        let mut more = differences.clone();
        more.push(Difference {
            pointer: "/calls/99/result/text".into(),
            ..differences[0].clone()
        });
        let other = Verdict::Fail { differences: more };
        assert_ne!(generated::signature(&verdict), generated::signature(&other));
        let plan = generated::Plan::new(1, 3);
        let mut shrinking = generated::Shrinking::new(&plan);
        shrinking.consider(&mut judge, "GEN-3-S0", &input, &verdict);
        let first = shrinking.found.len();
        assert!(first >= 1);
        // The second breaks no clause the first did not: nothing more is shrunk or kept.
        shrinking.consider(&mut judge, "GEN-3-S1", &input, &other);
        assert_eq!(shrinking.found.len(), first, "{:#?}", shrinking.found);
        // Each minimal session is kept once, standing for every clause shrunk to it.
        let minimals: std::collections::BTreeSet<String> = shrinking
            .found
            .iter()
            .map(|c| generated::sparse_input(&c.minimal).to_string())
            .collect();
        assert_eq!(minimals.len(), first);
    }

    /// The field report's reviewer-route defect, planted: every reviewer request goes to the
    /// session's route (here the default one) whatever route is configured, and, as in most
    /// gates, carries no session id. Both show at INFO. Shrinking by severity keeps any smaller
    /// scenario at INFO, so the configured route that shows the defect is shrunk away; shrinking
    /// while the route's clause stays violated keeps it. The clauses are given here by pointer,
    /// as the reference's citations give them.
    #[test]
    fn shrinking_by_clause_keeps_the_configured_route_that_shows_the_defect() {
        use crate::runner::generated::{Target, keeps, rank, shrink};
        let mut imp = rewritten(|_, o| {
            for r in &mut o.review.routes {
                *r = "default/default".into();
            }
            for r in o.review.requests.iter_mut().flatten() {
                r.route = "default/default".into();
                r.session_id = None;
            }
        });
        let cited = |v: &Verdict| -> Verdict {
            let mut v = v.clone();
            if let Verdict::Fail { differences } = &mut v {
                for d in differences {
                    if d.pointer.contains("route") {
                        d.clauses = vec!["AR-RES-ROUTE-1".into()];
                    } else if d.pointer.contains("session_id") {
                        d.clauses = vec!["AR-RES-REQUEST-1".into()];
                    }
                }
            }
            v
        };
        let start = Input::One(Box::new(
            crate::scenario::Scenario::from_json(
                r#"{"tool": {"name": "bash"}, "reviewer": {"text": "{\"decision\": \"allow\"}"},
                    "config": {"reviewer_route": {"provider": "p", "model": "m"}}}"#,
            )
            .unwrap(),
        ));
        let configured = |i: &Input| match i {
            Input::One(s) => s.config.reviewer_route.is_some(),
            Input::Session(_) => false,
        };
        let expected = known_failures::Expected::none();
        let mut judge = Judge::new(&mut imp, Profile::RESILIENT, &expected);
        let (verdict, _) = judge.against_reference(&start);
        let route = Target::Clause("AR-RES-ROUTE-1".into(), Severity::Info);
        assert!(keeps(&route, &cited(&verdict), None), "{verdict:#?}");
        let original = rank(&verdict);
        let by_severity = |_: &Input, v: &Verdict| rank(v).is_some() && rank(v) <= original;
        let (minimal, v, _, _) = shrink(&mut judge, start.clone(), &by_severity, 500);
        assert!(
            !configured(&minimal) && !keeps(&route, &cited(&v), None),
            "by severity, the route is shrunk away: {minimal:?}"
        );
        let by_clause = |_: &Input, v: &Verdict| keeps(&route, &cited(v), original);
        let (minimal, v, _, _) = shrink(&mut judge, start, &by_clause, 500);
        assert!(configured(&minimal), "{minimal:?}");
        assert!(keeps(&route, &cited(&v), None), "{v:#?}");
    }

    /// Generated cases and sessions, and shrinking them, are judged in the same place: a panic
    /// breaks the generated case or session, and the run finishes.
    #[test]
    fn a_panic_judging_a_generated_case_or_session_breaks_that_case_only() {
        let _mark = panics_rendering(MARK);
        let plan = generated::Plan {
            max_shrink_steps: 20,
            ..generated::Plan::new(40, 7)
        };
        let expected = known_failures::Expected::none();
        let mut imp = marked(&[Answer::Call(2), Answer::InSession(0)]);
        let found = generated::run(
            &mut imp,
            Profile::BASELINE,
            &plan,
            &expected,
            &mut |_, _| {},
        );
        let broken: Vec<&str> = found
            .results
            .iter()
            .filter(|r| judging_panicked(r))
            .map(|r| r.id.as_str())
            .collect();
        let session = (0..40)
            .find(|&k| generated_sessions::draws_session(7, k))
            .expect("a session among 40 cases");
        assert_eq!(
            broken,
            [
                generated::case_id(7, 2),
                generated_sessions::case_id(7, session)
            ],
            "{:#?}",
            found.results
        );
        assert!(found.cases > 40, "every call and session ran");
    }

    /// The reference engine, answering each call with the next of `texts` (in turn) as its
    /// result text and as the reason and display reasons of its decision.
    fn worded(texts: Vec<String>) -> impl Implementation {
        let mut n = 0;
        rewritten(move |_, o| {
            let t = texts[n % texts.len()].clone();
            n += 1;
            o.result.text = Some(t.clone());
            match &mut o.listener {
                Some(crate::outcome::Decision::Deny { reason, .. }) => *reason = t.clone(),
                Some(crate::outcome::Decision::Ask {
                    reason,
                    display_reason,
                }) => {
                    *reason = Some(t.clone());
                    if let Some(d) = display_reason {
                        d.en = t.clone();
                        d.zh = format!("{t}\u{3000}{t}");
                    }
                }
                _ => {}
            }
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

        /// An implementation whose texts are any text: the outcome comparison, the judging and
        /// the shrinking of generated calls and sessions never panic (no case is broken), and
        /// every report writer holds on the run.
        #[test]
        fn any_texts_are_judged_shrunk_and_reported(
            texts in proptest::collection::vec(crate::report::tests::any_text(), 1..4),
            seed in 0u64..1000,
        ) {
            let plan = generated::Plan {
                max_shrink_steps: 30,
                max_counterexamples: 2,
                ..generated::Plan::new(12, seed)
            };
            let expected = known_failures::Expected::none();
            let mut imp = worded(texts.clone());
            let mut report = run(&mut imp, &[], Profile::BASELINE, Oracle::Reference, &expected, &mut |_, _| {});
            let mut found = generated::run(&mut imp, Profile::BASELINE, &plan, &expected, &mut |_, _| {});
            proptest::prop_assert!(
                found.results.iter().all(|r| !matches!(r.verdict, Verdict::Broken { .. })),
                "{:#?}", found.results
            );
            // Each TEXT difference holds the text as the implementation sent it.
            let sent: Vec<String> = texts
                .iter()
                .flat_map(|t| [t.clone(), format!("{t}\u{3000}{t}")])
                .collect();
            for r in &found.results {
                if let Verdict::Fail { differences } = &r.verdict {
                    for d in differences.iter().filter(|d| d.severity == Severity::Text) {
                        proptest::prop_assert!(
                            d.actual.as_str().is_some_and(|a| sent.iter().any(|t| t == a)),
                            "{d:?}"
                        );
                    }
                }
            }
            report.join_generated(&mut found);
            crate::report::tests::writers_hold(&report, &[]);
        }
    }
}
