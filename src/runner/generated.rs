//! Generated cases: scenarios drawn by [`crate::generate::direct`] (the draws the test suite's
//! properties make too), each decided by the implementation and by the reference engine and
//! compared with the same severity rules as fixed cases. Each violated clause is shrunk once,
//! re-asking the implementation at every step, to a minimal scenario that still violates it, by
//! the simplifications a failing property is shrunk with ([`crate::generate::shrink`]).
//!
//! Case `k` of seed `s` is drawn from its own random stream, so any case can be drawn again alone
//! (to shrink it, or to repeat it), and shards of one run are disjoint by construction.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc;

use serde_json::Value;

use super::quote::shell_quote;

use super::{
    CaseResult, Implementation, Judge, Status, Subject, Verdict, compare, known_failures::Expected,
};
use crate::outcome::InputOutcome;
use crate::profile::Profile;
use crate::scenario::Scenario;
use crate::scenario::session::{Input, Item, SessionScenario};
use crate::table::{Table, features};

use super::shard::Shard;
use crate::generate::shrink::{Shrinker, simpler_input};

/// What a generated run does.
#[derive(Debug, Clone)]
pub struct Plan {
    /// How many cases the whole run draws (before sharding).
    pub count: usize,
    /// The seed.
    pub seed: u64,
    /// This process's share.
    pub shard: Shard,
    /// At most this many counterexamples are shrunk for violations at SAFETY, and as many for
    /// those short of it (one per violated clause): text differences found first do not crowd
    /// out a SAFETY one.
    pub max_counterexamples: usize,
    /// At most this many shrinking steps (each re-asks the implementation) per counterexample.
    pub max_shrink_steps: u32,
    /// What every answer is held to: the level compared and the implementation's own wording.
    pub terms: crate::conformance::Terms,
}

impl Plan {
    /// The numbers of this shard's cases, in run order.
    pub fn cases(&self) -> std::iter::StepBy<std::ops::Range<usize>> {
        ((self.shard.index - 1).min(self.count)..self.count).step_by(self.shard.of)
    }

    /// A plan for `count` cases of `seed`, whole, with the default shrinking budget.
    pub fn new(count: usize, seed: u64) -> Plan {
        Plan {
            count,
            seed,
            shard: Shard::ALL,
            max_counterexamples: 5,
            max_shrink_steps: 2000,
            terms: crate::conformance::Terms::default(),
        }
    }
}

/// The ID of case `k` of `seed`.
pub fn case_id(seed: u64, k: usize) -> String {
    format!("GEN-{seed}-{k}")
}

/// A generated case ID read back: `GEN-<seed>-<k>` for a call, `GEN-<seed>-S<k>` for a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GeneratedId {
    /// The run's seed.
    pub seed: u64,
    /// The case's number in the whole run (before sharding).
    pub k: usize,
    /// Whether it is the session case `k` draws ([`super::generated_sessions::case_id`]).
    pub session: bool,
}

impl GeneratedId {
    /// Reads a generated case ID strictly; `None` for any other ID.
    pub fn parse(id: &str) -> Option<GeneratedId> {
        let (seed, k) = id.strip_prefix("GEN-")?.split_once('-')?;
        let (k, session) = match k.strip_prefix('S') {
            Some(k) => (k, true),
            None => (k, false),
        };
        let digits =
            |s: &str| !s.is_empty() && s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(seed) || !digits(k) {
            return None;
        }
        Some(GeneratedId {
            seed: seed.parse().ok()?,
            k: k.parse().ok()?,
            session,
        })
    }

    /// Whether a run of `count` generated cases of `seed` (all shards together) draws this case:
    /// the seed is the run's, the number below the count, and a session case is one its number
    /// draws. Whether the implementation is asked it (sessions need an implementation that
    /// observes them) is another question.
    pub fn drawn_by(&self, seed: u64, count: usize) -> bool {
        self.seed == seed
            && self.k < count
            && (!self.session || super::generated_sessions::draws_session(seed, self.k))
    }
}

/// Draws case `k` of `seed`: the same scenario every time, on every machine.
pub fn draw(seed: u64, k: usize) -> Scenario {
    crate::generate::direct::scenario(&mut crate::generate::direct::Rng::for_case(seed, k as u64))
}

/// A drawn scenario, checked against the realizability rules (`scenario::realizable`): judging an
/// implementation on a call its runtime cannot produce would be a false failure, so a draw that
/// breaks a rule is a defect of this suite and stops the run loudly instead.
fn realizable(scenario: Scenario) -> Scenario {
    if let Err(rule) = crate::scenario::realizable::check(&scenario) {
        panic!(
            "defect of autoreview's generator, not of the implementation under test: it drew a scenario the runtime cannot produce ({rule}): {}",
            serde_json::to_string(&scenario).unwrap_or_default()
        );
    }
    scenario
}

/// A difference shrunk to a minimal input: a single call, or a session (AR-SESSION-2).
#[derive(Debug, Clone)]
pub struct Counterexample {
    /// The case it was found in.
    pub id: String,
    /// The violations it stands for ([`Found::clauses`]).
    pub clauses: Vec<String>,
    /// The smallest input found that still shows the difference.
    pub minimal: Input,
    /// The verdict on the minimal input.
    pub verdict: Verdict,
    /// The reference's outcome for the minimal input, as far as the implementation observes it.
    pub reference: InputOutcome,
    /// How many candidates were tried.
    pub steps: u32,
}

impl Counterexample {
    /// The minimal input as JSON, without the members that hold their default value.
    pub fn minimal_json(&self) -> Value {
        sparse_input(&self.minimal)
    }

    /// Whether the minimal input is a call or a session.
    pub fn kind(&self) -> FoundKind {
        match self.minimal {
            Input::One(_) => FoundKind::Call,
            Input::Session(_) => FoundKind::Session,
        }
    }

    /// The minimal single call; `None` for a session.
    pub fn call(&self) -> Option<&Scenario> {
        match &self.minimal {
            Input::One(s) => Some(s),
            Input::Session(_) => None,
        }
    }

    /// The minimal session; `None` for a single call.
    pub fn session(&self) -> Option<&SessionScenario> {
        match &self.minimal {
            Input::One(_) => None,
            Input::Session(s) => Some(s),
        }
    }

    /// The counterexample as the reports keep it, with its repro lines for `profile` and the
    /// adapter `command` (empty for an in-process implementation).
    /// As the reports keep it, repeated through `command` (empty for an implementation in
    /// process), which reads `canonical` scenarios or not.
    pub fn found(&self, profile: Profile, command: &[String], canonical: bool) -> Found {
        let mut f = found(
            self.kind(),
            &self.id,
            self.steps,
            self.minimal_json(),
            &self.verdict,
            profile,
            command,
            canonical.then_some(&self.minimal),
        );
        f.clauses = self.clauses.clone();
        f
    }
}

/// An input as JSON with members at their default value left out: a call's ([`sparse`]) or a
/// session's ([`super::generated_sessions::sparse`]).
pub fn sparse_input(input: &Input) -> Value {
    match input {
        Input::One(s) => sparse(s),
        Input::Session(s) => super::generated_sessions::sparse(s),
    }
}

pub use crate::generate::shrink::{prune, sparse};

/// How the drawn cases spread over the table's features and rows.
#[derive(Debug, Clone, Default)]
pub struct Distribution {
    /// Cases drawn.
    pub total: usize,
    /// Feature → value → cases.
    pub features: BTreeMap<String, BTreeMap<String, usize>>,
    /// Table row → cases.
    pub rows: BTreeMap<String, usize>,
    /// Rows in the profile's table.
    pub table_rows: usize,
    /// Clause → cases that fell under a table row restating it.
    pub clauses: BTreeMap<String, usize>,
    /// Every clause the profile's table rows restate, reached or not.
    pub table_clauses: std::collections::BTreeSet<String>,
    /// What the cases reached beyond their rows: clauses, sides of limits, templates and hostile
    /// tool names ([`crate::generate::coverage`]).
    pub reach: crate::generate::coverage::Coverage,
    /// The profile the cases were decided under.
    pub profile: Profile,
}

impl Distribution {
    /// Tallies distinct feature combinations (few) and spreads them over features once, at
    /// the end: serializing every case's features would cost more than deciding it.
    fn from_tally(
        tally: &std::collections::HashMap<features::Features, usize>,
        rows: BTreeMap<String, usize>,
        table: Option<&Table>,
        reach: crate::generate::coverage::Coverage,
        profile: Profile,
    ) -> Distribution {
        let mut d = Distribution {
            total: tally.values().sum(),
            table_rows: table.map_or(0, |t| t.rows.len()),
            reach,
            profile,
            ..Distribution::default()
        };
        // A case exercises the clauses its row restates.
        for row in table.iter().flat_map(|t| &t.rows) {
            d.table_clauses.extend(row.clauses.iter().cloned());
            if let Some(n) = rows.get(&row.id) {
                for c in &row.clauses {
                    *d.clauses.entry(c.clone()).or_default() += n;
                }
            }
        }
        d.rows = rows;
        for (f, n) in tally {
            if let Ok(Value::Object(m)) = serde_json::to_value(f) {
                for (feature, value) in m {
                    let value = value
                        .as_str()
                        .map(str::to_owned)
                        .unwrap_or_else(|| value.to_string());
                    *d.features
                        .entry(feature)
                        .or_default()
                        .entry(value)
                        .or_default() += n;
                }
            }
        }
        d
    }

    /// A few lines for the terminal: each feature's values by share, and the rows reached.
    pub fn render(&self) -> String {
        let mut out = format!(
            "{} generated cases reached {} of the table's {} rows\n",
            self.total,
            self.rows.len(),
            self.table_rows
        );
        let (n, of, unreached) =
            reached(self.table_clauses.iter().map(String::as_str), |c: &str| {
                self.clauses.contains_key(c)
            });
        out.push_str(&format!(
            "  clauses     {n} of the {of} the rows restate{}\n",
            if unreached.is_empty() {
                String::new()
            } else {
                format!("; none for {}", unreached.join(", "))
            }
        ));
        out.push_str(&self.reach.render(self.profile, &self.clauses));
        let total = self.total.max(1) as f64;
        for (feature, values) in &self.features {
            let mut values: Vec<(&String, &usize)> = values.iter().collect();
            values.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let shares: Vec<String> = values
                .iter()
                .map(|(v, n)| format!("{v} {:.0}%", **n as f64 * 100.0 / total))
                .collect();
            out.push_str(&format!("  {feature:<11} {}\n", shares.join("  ")));
        }
        out
    }
}

/// What a generated run found.
#[derive(Debug, Clone, Default)]
pub struct GeneratedRun {
    /// The cases of this shard that did not simply pass (failures, expected failures, unexpected
    /// passes), in case order. A passing case is only counted, so memory does not grow with the
    /// number of cases.
    pub results: Vec<CaseResult>,
    /// How many cases of this shard ran.
    pub cases: usize,
    /// How many of them passed (and are not in `results`).
    pub passed: usize,
    /// How many of them were not sent, because they need a capability the implementation lacks
    /// (and are not in `results`).
    pub not_applicable: usize,
    /// The differences, shrunk: of calls, then of sessions (AR-SESSION-2), one per kind of
    /// difference of each, up to the plan's limit for each.
    pub counterexamples: Vec<Counterexample>,
    /// Where the cases fell.
    pub distribution: Distribution,
    /// The plan's seed.
    pub seed: u64,
    /// How long the run took, shrinking included.
    pub duration: std::time::Duration,
    /// The clauses the cases judged cite: a call's row's, a session's own.
    pub cited: std::collections::BTreeSet<String>,
}

/// Of the clauses `expected`, how many `hit` counts as reached, how many there are, and those
/// it misses.
fn reached<'a>(
    expected: impl Iterator<Item = &'a str>,
    hit: impl Fn(&str) -> bool,
) -> (usize, usize, Vec<&'a str>) {
    let all: Vec<&str> = expected.collect();
    let missed: Vec<&str> = all.iter().copied().filter(|c| !hit(c)).collect();
    (all.len() - missed.len(), all.len(), missed)
}

/// What kind of difference a verdict shows: the worst severity and where it is, or the kind of
/// breakage. Shrinking keeps a candidate only while it shows the same kind.
pub(crate) fn signature(v: &Verdict) -> Option<String> {
    match v {
        Verdict::Pass | Verdict::NotApplicable { .. } => None,
        Verdict::Broken { error } => Some(format!("{:?}", error.kind)),
        Verdict::Fail { differences } => {
            let worst = differences.iter().map(|d| d.severity).min()?;
            let pointers: BTreeSet<&str> = differences
                .iter()
                .filter(|d| d.severity == worst)
                .map(|d| d.pointer.as_str())
                .collect();
            Some(format!(
                "{worst} {}",
                pointers.into_iter().collect::<Vec<_>>().join(" ")
            ))
        }
    }
}

/// The worst severity, with breakage counted as worst of all.
pub(crate) fn rank(v: &Verdict) -> Option<u8> {
    match v {
        Verdict::Pass | Verdict::NotApplicable { .. } => None,
        Verdict::Broken { .. } => Some(0),
        Verdict::Fail { .. } => v.worst().map(|s| 1 + s as u8),
    }
}

/// Shrinks `start` while `keep` holds for the candidate and the implementation's verdict on it,
/// re-asking the implementation for every candidate, for at most `max_steps` candidates.
/// Candidates, simplest first ([`simpler_input`]), are restricted to what the implementation can set
/// up. A candidate that keeps the difference replaces the best and the search starts again; what
/// is left is an input none of whose simplifications keeps the difference. Returns the smallest
/// input kept, its verdict and reference outcome, and the number of candidates tried.
pub fn shrink(
    judge: &mut Judge<'_>,
    start: Input,
    keep: &dyn Fn(&Input, &Verdict) -> bool,
    max_steps: u32,
) -> (Input, Verdict, InputOutcome, u32) {
    let (mut best_verdict, mut best_reference) = judge.against_reference(&start);
    let mut shrinker = Shrinker::new(start, simpler_input);
    let mut steps = 0;
    while steps < max_steps
        && let Some(candidate) = shrinker.next_candidate()
    {
        steps += 1;
        let candidate = judge.has.restrict(candidate);
        let (verdict, reference) = judge.against_reference(&candidate);
        if keep(&candidate, &verdict) {
            best_verdict = verdict;
            best_reference = reference;
            shrinker.keep(candidate);
        }
    }
    (shrinker.into_best(), best_verdict, best_reference, steps)
}

/// One change [`toward_safety`] makes to every call of an input.
#[derive(Debug, Clone, Copy, Default)]
struct Toward {
    /// The user allows once.
    allow_once: bool,
    /// Downstream allows.
    downstream: bool,
    /// Nothing aborts.
    no_abort: bool,
    /// The session's policy asks.
    ask: bool,
    /// The reviewer script ends with one more attempt, which allows: a repair or a retry the
    /// implementation should not have made gets an answer that runs the body.
    reviewer_allows: bool,
    /// The gate fails closed (`on_failure: deny`) and the user allows: an implementation that
    /// asks the human on a reviewer failure anyway runs the body.
    fail_closed: bool,
    /// Where the reference's review ends in a failure after `n` requests, the attempt that would
    /// answer request `n + 1` allows: the attempt after the failure is replaced when the script
    /// has one, appended when it does not. A repair or a retry the implementation should not
    /// have made (one more than the budget, or a failure taken as retryable) gets an answer that
    /// runs the body even where the script goes on.
    next_allows: bool,
}

impl Toward {
    /// What the change is, in words, for a difference it shows.
    fn describe(&self) -> String {
        let parts = [
            (self.allow_once, "the user allows once"),
            (self.downstream, "downstream allows"),
            (self.no_abort, "nothing aborts"),
            (self.ask, "the policy asks"),
            (self.reviewer_allows, "the reviewer allows after its script"),
            (self.next_allows, "the attempt after a failed one allows"),
            (self.fail_closed, "on_failure is deny"),
        ];
        let said: Vec<&str> = parts
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, s)| *s)
            .collect();
        format!("{}{}", crate::difference::SHOWN_WHEN, said.join(", "))
    }
}

/// The changes [`toward_safety`] tries, in order: the answer alone, downstream alone, both, both
/// and no abort, all four; then the reviewer allowing after its script, alone and with the user
/// allowing once; then failing closed with the user allowing once, alone and with the rest; then
/// the attempt after a failure allowing, alone and with the user allowing once; then either
/// reviewer change with the gate failing closed, downstream allowing and nothing aborting, so that
/// a retry or repair the gate should not have made runs the body where the reference denies
/// without asking anyone.
const TOWARD_SAFETY: [Toward; 13] = {
    const fn t(allow_once: bool, downstream: bool, no_abort: bool, ask: bool) -> Toward {
        Toward {
            allow_once,
            downstream,
            no_abort,
            ask,
            reviewer_allows: false,
            fail_closed: false,
            next_allows: false,
        }
    }
    [
        t(true, false, false, false),
        t(false, true, false, false),
        t(true, true, false, false),
        t(true, true, true, false),
        t(true, true, true, true),
        Toward {
            reviewer_allows: true,
            ..t(false, false, false, false)
        },
        Toward {
            reviewer_allows: true,
            ..t(true, true, true, false)
        },
        Toward {
            fail_closed: true,
            ..t(true, false, false, false)
        },
        Toward {
            fail_closed: true,
            ..t(true, true, true, true)
        },
        Toward {
            next_allows: true,
            ..t(false, false, false, false)
        },
        Toward {
            next_allows: true,
            ..t(true, true, true, false)
        },
        Toward {
            next_allows: true,
            fail_closed: true,
            ..t(false, true, true, false)
        },
        Toward {
            reviewer_allows: true,
            fail_closed: true,
            ..t(false, true, true, false)
        },
    ]
};

/// The first `TOWARD_SAFETY_BEFORE` changes vary neither the reviewer script nor `on_failure`.
#[cfg(test)]
const TOWARD_SAFETY_BEFORE: usize = 5;

// The reviewer's answer [`Toward::reviewer_allows`] appends, and [`Toward::next_allows`] puts
// after a failed attempt.
use crate::generate::simplest::ALLOWS;

/// For a difference short of SAFETY, a nearby input in which the implementation runs a body
/// where the reference does not, if one exists, with the verdict on it: each call of it changed
/// by a step of [`TOWARD_SAFETY`]. A gate that asks where it must deny, say, shows it only when
/// someone answers the question, and a drawn input's answer is usually that nobody can; a gate
/// that repairs once too often shows it only when the extra answer allows.
fn toward_safety(
    judge: &mut Judge<'_>,
    input: &Input,
    verdict: &Verdict,
) -> Option<(Input, Verdict, Toward)> {
    toward_safety_by(judge, input, verdict, &TOWARD_SAFETY)
}

/// [`toward_safety`] by the changes `steps`. Every candidate is realizable: one the runtime
/// cannot produce is not tried.
fn toward_safety_by(
    judge: &mut Judge<'_>,
    input: &Input,
    verdict: &Verdict,
    steps: &[Toward],
) -> Option<(Input, Verdict, Toward)> {
    use crate::scenario::{
        AbortPoint, ApprovalAnswer, ApprovalPolicy, Attempt, Downstream, OnFailure, Policy,
        Reviewer,
    };
    if !matches!(verdict, Verdict::Fail { .. })
        || verdict.worst() == Some(compare::Severity::Safety)
    {
        return None;
    }
    // How many requests each call's review made where it ended in a failure, in input order.
    let failed_after: Vec<Option<u32>> = {
        let failed =
            |o: &crate::outcome::Outcome| o.review.failure.as_ref().map(|_| o.review.attempts);
        match crate::engine::decide_input(input, judge.profile) {
            InputOutcome::One(o) => vec![failed(&o)],
            InputOutcome::Session(s) => s
                .calls
                .iter()
                .filter_map(|i| match i {
                    crate::outcome::ItemOutcome::Call(o) => Some(failed(o)),
                    crate::outcome::ItemOutcome::Event(_) => None,
                })
                .collect(),
        }
    };
    for &step in steps {
        let call = |c: &mut Scenario, failed_after: Option<u32>| {
            if step.allow_once {
                c.approval = ApprovalAnswer::AllowedOnce;
            }
            if step.downstream {
                c.downstream = Downstream::Allow;
            }
            if step.no_abort {
                c.abort = AbortPoint::None;
            }
            if step.reviewer_allows {
                let allows = Attempt::Text {
                    text: ALLOWS.to_owned(),
                    delay_ms: 0,
                };
                c.reviewer = match std::mem::replace(&mut c.reviewer, Reviewer::Many(Vec::new())) {
                    Reviewer::One(a) => Reviewer::Many(vec![a, allows]),
                    Reviewer::Many(mut list) => {
                        list.push(allows);
                        Reviewer::Many(list)
                    }
                };
            }
            if step.next_allows
                && let Some(n @ 1..) = failed_after
            {
                c.reviewer = allows_at(&c.reviewer, n as usize);
            }
            if step.fail_closed {
                c.config.on_failure = OnFailure::Deny;
            }
        };
        let asking = |p: &mut Policy| {
            if step.ask {
                p.override_ = Some(ApprovalPolicy::Ask);
            }
        };
        let mut c = input.clone();
        match &mut c {
            Input::One(s) => {
                call(s, failed_after.first().copied().flatten());
                asking(&mut s.policy);
            }
            Input::Session(s) => {
                let mut failed = failed_after.iter().copied();
                for item in &mut s.calls {
                    if let Item::Call(one) = item {
                        call(one, failed.next().flatten());
                    }
                }
                asking(&mut s.policy);
                if step.fail_closed {
                    s.config.on_failure = OnFailure::Deny;
                }
            }
        }
        let c = judge.has.restrict(c);
        if &c == input || !realizable_input(&c) {
            continue;
        }
        let (v, _) = judge.against_reference(&c);
        // A body run where it must not (SAFETY, or BOUNDS), worse than what the case shows.
        if v.worst()
            .is_some_and(|w| w.is_a_body_run() && Some(w) < verdict.worst())
        {
            return Some((c, v, step));
        }
    }
    None
}

/// `reviewer` with the attempt that answers request `n + 1` (0-based `n`) allowing: the attempts
/// before it as they answer (the last repeating), the ones after it kept.
fn allows_at(reviewer: &crate::scenario::Reviewer, n: usize) -> crate::scenario::Reviewer {
    use crate::scenario::{Attempt, Reviewer};
    let mut list: Vec<Attempt> = (0..n).map(|j| reviewer.attempt(j).clone()).collect();
    list.push(Attempt::text(ALLOWS));
    list.extend(reviewer.attempts().iter().skip(n + 1).cloned());
    Reviewer::Many(list)
}

/// Whether the real runtime can produce `input` (`scenario::realizable`, and for a session
/// RZ-5..7).
fn realizable_input(input: &Input) -> bool {
    match input {
        Input::One(s) => crate::scenario::realizable::check(s).is_ok(),
        Input::Session(s) => {
            s.calls.iter().all(|i| match i {
                Item::Call(c) => crate::scenario::realizable::check(c).is_ok(),
                Item::Event(_) => true,
            }) && s.clone().realizable().is_ok()
        }
    }
}

/// One drawn case, prepared off the judging thread.
struct Drawn {
    /// What the reports call it.
    subject: Subject,
    input: Input,
    /// The reference's outcome, as far as the implementation observes it.
    reference: InputOutcome,
    /// A call's features and the index of its table row; `None` for a session.
    features: Option<(features::Features, Option<usize>)>,
    /// What it reaches.
    reached: crate::generate::coverage::Reached,
}

/// What a counterexample is shrunk to keep: a clause violated, or, for a verdict whose
/// differences name no clause and for a case without an outcome, its kind ([`signature`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// The clause stays violated, at its severity or worse.
    Clause(String, compare::Severity),
    /// The verdict keeps its kind; `unattributed` when it failed with differences naming no
    /// clause.
    Kind(String, bool),
}

impl Target {
    /// What the runs' targets are told apart by.
    fn key(&self) -> String {
        match self {
            Target::Clause(c, _) => format!("clause {c}"),
            Target::Kind(sig, _) => sig.clone(),
        }
    }

    /// The violations a counterexample shrunk for it stands for.
    fn clauses(&self) -> Vec<String> {
        match self {
            Target::Clause(c, _) => vec![c.clone()],
            Target::Kind(_, true) => vec![super::violations::UNATTRIBUTED.to_owned()],
            Target::Kind(_, false) => Vec::new(),
        }
    }
}

/// What `verdict` can be shrunk for, worst first: each clause it breaks, with its worst severity
/// there; its kind when some of its differences name no clause, or when it has no outcome.
fn targets(verdict: &Verdict) -> Vec<Target> {
    let Some(sig) = signature(verdict) else {
        return Vec::new();
    };
    if !matches!(verdict, Verdict::Fail { .. }) {
        return vec![Target::Kind(sig, false)];
    }
    let mut broken: Vec<(&str, (compare::Severity, crate::conformance::Level))> =
        super::violations::broken_by(verdict).into_iter().collect();
    broken.sort_by_key(|(c, (s, l))| (*s, *l, *c));
    broken
        .into_iter()
        .map(|(c, (severity, _))| match c {
            super::violations::UNATTRIBUTED => Target::Kind(sig.clone(), true),
            c => Target::Clause(c.to_owned(), severity),
        })
        .collect()
}

/// The counterexamples of one kind of input a run shrinks: one per violated clause (differences
/// that name none, and cases without an outcome, one per kind), up to the plan's limit, each
/// minimal input kept once, standing for every violation shrunk to it.
pub(crate) struct Shrinking<'p> {
    plan: &'p Plan,
    /// What was shrunk for so far ([`Target::key`]).
    seen: BTreeSet<String>,
    /// The minimal inputs found so far, as JSON, and where in `found` each is.
    minimals: BTreeMap<String, usize>,
    pub(crate) found: Vec<Counterexample>,
    /// How many targets at SAFETY, and short of it, were shrunk for: each within the plan's
    /// limit.
    at_safety: usize,
    short_of_safety: usize,
}

impl<'p> Shrinking<'p> {
    pub(crate) fn new(plan: &'p Plan) -> Shrinking<'p> {
        Shrinking {
            plan,
            seen: BTreeSet::new(),
            minimals: BTreeMap::new(),
            found: Vec::new(),
            at_safety: 0,
            short_of_safety: 0,
        }
    }

    /// Shrinks `input` (case `id`) once for each violation `verdict` shows that has no
    /// counterexample yet, worst first, until the limit is reached: for a clause, while that
    /// clause stays violated at its severity or worse; for differences naming no clause, or no
    /// outcome, while the verdict keeps its kind. Returns `verdict` raised to SAFETY when a
    /// counterexample was taken toward it ([`raised`]).
    pub(crate) fn consider(
        &mut self,
        judge: &mut Judge<'_>,
        id: &str,
        input: &Input,
        verdict: &Verdict,
    ) -> Option<Verdict> {
        self.consider_for(judge, id, input, verdict, None)
    }

    /// [`Shrinking::consider`], for the violation of `only` alone when given (a clause ID, or
    /// `unattributed`).
    fn consider_for(
        &mut self,
        judge: &mut Judge<'_>,
        id: &str,
        input: &Input,
        verdict: &Verdict,
        only: Option<&str>,
    ) -> Option<Verdict> {
        let wanted: Vec<Target> = targets(verdict)
            .into_iter()
            .filter(|t| !self.seen.contains(&t.key()))
            .filter(|t| only.is_none_or(|c| t.clauses().iter().any(|t| t == c)))
            .collect();
        let limit = self.plan.max_counterexamples;
        if wanted.is_empty() || (self.short_of_safety >= limit && self.at_safety >= limit) {
            return None;
        }
        // A difference that can run a body is reported as one that does.
        let toward = toward_safety(judge, input, verdict);
        let mut raised_to = None;
        for target in wanted {
            // Each target is looked at once, so the searches toward SAFETY are bounded by the
            // violations, not by the cases, even when the limit is reached.
            self.seen.insert(target.key());
            // The limit bounds the counterexamples at SAFETY and those short of it apart: a
            // violation that runs a body nobody allowed gets one however many text differences
            // came first.
            let reaches_safety = match &toward {
                Some((_, v, _)) if keeps(&target, v, rank(verdict)) => true,
                _ => match &target {
                    Target::Clause(_, severity) => severity.is_a_body_run(),
                    Target::Kind(..) => verdict
                        .worst()
                        .is_some_and(compare::Severity::is_a_body_run),
                },
            };
            let taken = if reaches_safety {
                &mut self.at_safety
            } else {
                &mut self.short_of_safety
            };
            if *taken >= limit {
                continue;
            }
            *taken += 1;
            let (start, start_verdict) = match &toward {
                Some((i, v, step)) if keeps(&target, v, rank(verdict)) => {
                    raised_to = Some(raised(verdict, v, step));
                    (i.clone(), v.clone())
                }
                _ => (input.clone(), verdict.clone()),
            };
            let original_rank = rank(&start_verdict);
            // Taken toward SAFETY, the clause is kept at the severity it reached there.
            let target = match target {
                Target::Clause(c, severity) => {
                    let reached = super::violations::broken_by(&start_verdict)
                        .get(c.as_str())
                        .map_or(severity, |(s, _)| (*s).min(severity));
                    Target::Clause(c, reached)
                }
                kind => kind,
            };
            let keep = |_: &Input, v: &Verdict| keeps(&target, v, original_rank);
            let (minimal, verdict, reference, steps) =
                shrink(judge, start, &keep, self.plan.max_shrink_steps);
            // Different violations often shrink to one input: keep it once, standing for each.
            match self.minimals.get(&sparse_input(&minimal).to_string()) {
                Some(&i) => {
                    for c in target.clauses() {
                        if !self.found[i].clauses.contains(&c) {
                            self.found[i].clauses.push(c);
                        }
                    }
                }
                None => {
                    self.minimals
                        .insert(sparse_input(&minimal).to_string(), self.found.len());
                    self.found.push(Counterexample {
                        id: id.to_owned(),
                        clauses: target.clauses(),
                        minimal,
                        verdict,
                        reference,
                        steps,
                    });
                }
            }
        }
        raised_to
    }

    /// Marks the violations of `clauses` as having a counterexample already.
    pub(crate) fn covered<'c>(&mut self, clauses: impl IntoIterator<Item = &'c String>) {
        for c in clauses {
            if c != super::violations::UNATTRIBUTED {
                self.seen.insert(format!("clause {c}"));
            }
        }
    }
}

/// `verdict` with the body runs (SAFETY, BOUNDS) `toward` shows on the input changed by `step`
/// added, each saying the change that shows it and who let the body run: the case is reported at
/// the worst severity the search reaches from it.
fn raised(verdict: &Verdict, toward: &Verdict, step: &Toward) -> Verdict {
    let Verdict::Fail { differences } = verdict else {
        return verdict.clone();
    };
    let mut differences = differences.clone();
    if let Verdict::Fail { differences: more } = toward {
        // Each keeps the clause of the changed input's root cause first: that input's other
        // differences are not carried over to tell it.
        let roots = super::violations::attributed_in_case(more);
        let body_runs = more
            .iter()
            .zip(roots)
            .filter(|(d, _)| d.severity.is_a_body_run());
        differences.extend(body_runs.map(|(d, root)| {
            // A root that names no clause adds none.
            let mut clauses: Vec<String> = (root != super::violations::UNATTRIBUTED)
                .then(|| root.to_owned())
                .into_iter()
                .collect();
            clauses.extend(d.clauses.iter().filter(|c| *c != root).cloned());
            compare::Difference {
                clauses,
                // What the change shows, and who let the body run there.
                rule: Some(match &d.rule {
                    Some(why) => format!("{}: {why}", step.describe()),
                    None => step.describe(),
                }),
                ..d.clone()
            }
        }));
    }
    Verdict::Fail { differences }
}

/// Whether `v` still shows what `target` shrinks for: the clause violated at its severity or
/// worse, or a failure of the same kind or worse (`original_rank`).
pub(crate) fn keeps(target: &Target, v: &Verdict, original_rank: Option<u8>) -> bool {
    match target {
        Target::Clause(c, severity) => super::violations::breaks(v, c, *severity),
        Target::Kind(..) => rank(v).is_some() && rank(v) <= original_rank,
    }
}

/// Counterexamples for the violations the fixed cases' `results` show that none of `found` (the
/// generated cases' counterexamples) stands for, worst first, at most `plan.max_counterexamples`:
/// each shrunk from the first fixed case of `cases` that breaks it, re-judged against the
/// reference, while that clause stays violated. So a run without generated cases still has a
/// counterexample per violated clause.
pub fn shrink_fixed(
    imp: &mut dyn Implementation,
    profile: Profile,
    plan: &Plan,
    cases: &[crate::cases::Case],
    results: &[CaseResult],
    found: &[Found],
) -> Vec<Counterexample> {
    let expected = Expected::none();
    let mut judge = Judge::new(imp, profile, &expected).under(plan.terms.clone());
    let mut shrinking = Shrinking::new(plan);
    shrinking.covered(found.iter().flat_map(|f| &f.clauses));
    for v in super::violations::of(results, found) {
        if v.counterexample.is_some() {
            continue;
        }
        let Some(case) = cases.iter().find(|c| c.id == v.first_case) else {
            continue;
        };
        let input = judge.has.restrict(case.scenario.clone());
        let (verdict, _) = judge.against_reference(&input);
        shrinking.consider_for(&mut judge, &case.id, &input, &verdict, Some(&v.clause));
    }
    shrinking.found
}

/// What judging one kind of drawn input found.
#[derive(Default)]
struct Judged {
    results: Vec<CaseResult>,
    passed: usize,
    not_applicable: usize,
    counterexamples: Vec<Counterexample>,
    /// Distinct features of the calls judged, counted.
    tally: std::collections::HashMap<features::Features, usize>,
    /// Calls judged under each table row, by row index.
    row_hits: Vec<usize>,
    reach: crate::generate::coverage::Coverage,
    /// The clauses the inputs judged cite (their rows', a session's own).
    cited: std::collections::BTreeSet<String>,
}

/// Judges the `total` cases that `ks` lists (`ks(range)` is the case numbers at those positions),
/// `batch` at a time, in case order: other threads draw each case, with `draw`, and decide it
/// with the reference ahead, for that is most of the work; this one asks the implementation and
/// judges.
#[allow(clippy::too_many_arguments)]
fn judge_drawn(
    judge: &mut Judge<'_>,
    plan: &Plan,
    total: usize,
    batch: usize,
    ks: &(dyn Fn(std::ops::Range<usize>) -> Vec<usize> + Sync),
    draw: &(dyn Fn(usize) -> Drawn + Sync),
    rows: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Judged {
    let batches = total.div_ceil(batch);
    let mut out = Judged {
        row_hits: vec![0; rows],
        ..Judged::default()
    };
    let mut shrinking = Shrinking::new(plan);
    let producers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    std::thread::scope(|scope| {
        let mut queues = Vec::new();
        let mut returns = Vec::new();
        for p in 0..producers {
            let (tx, rx) = mpsc::sync_channel::<Vec<Drawn>>(QUEUED);
            // Judged batches go back to the thread that drew them, to be freed where they were
            // allocated: freeing across threads made the allocator's locks the bottleneck.
            let (back, done) = mpsc::channel::<Vec<Drawn>>();
            queues.push(rx);
            returns.push(back);
            scope.spawn(move || {
                for b in (p..batches).step_by(producers) {
                    while let Ok(old) = done.try_recv() {
                        drop(old);
                    }
                    let positions = b * batch..((b + 1) * batch).min(total);
                    let drawn: Vec<Drawn> = ks(positions).into_iter().map(draw).collect();
                    if tx.send(drawn).is_err() {
                        return;
                    }
                }
                drop(tx);
                while let Ok(old) = done.recv() {
                    drop(old);
                }
            });
        }
        let mut position = 0;
        for b in 0..batches {
            let Ok(batch) = queues[b % producers].recv() else {
                break;
            };
            for (i, d) in batch.iter().enumerate() {
                position += 1;
                let case_clock = std::time::Instant::now();
                let next = batch.get(i + 1).map(|n| &n.input);
                let verdict = judge.verdict(&d.input, &d.reference, next);
                if let Verdict::NotApplicable { .. } = verdict {
                    out.not_applicable += 1;
                    progress(position, total);
                    continue;
                }
                // The case's own time; shrinking it is the run's.
                let duration = case_clock.elapsed();
                if let Some((features, row)) = &d.features {
                    *out.tally.entry(*features).or_default() += 1;
                    if let Some(r) = row {
                        out.row_hits[*r] += 1;
                    }
                }
                out.reach.add(&d.reached);
                for c in &d.subject.clauses {
                    if !out.cited.contains(c) {
                        out.cited.insert(c.clone());
                    }
                }
                let verdict = shrinking
                    .consider(judge, &d.subject.id, &d.input, &verdict)
                    .unwrap_or(verdict);
                let result = judge.result(d.subject.clone(), verdict, duration);
                if result.status == Status::Pass {
                    out.passed += 1;
                } else {
                    out.results.push(result);
                }
                progress(position, total);
            }
            let _ = returns[b % producers].send(batch);
        }
        drop(returns);
        drop(queues);
    });
    out.counterexamples = shrinking.found;
    out
}

/// Runs this shard of a generated plan against `imp`, comparing with the reference engine: its
/// calls, then, for an implementation that observes sessions, the sessions some of the same cases
/// draw too.
pub fn run(
    imp: &mut dyn Implementation,
    profile: Profile,
    plan: &Plan,
    expected: &Expected,
    progress: &mut dyn FnMut(usize, usize),
) -> GeneratedRun {
    let clock = std::time::Instant::now();
    let table = Table::load(profile).ok();
    let mut judge = Judge::new(imp, profile, expected).under(plan.terms.clone());
    let has = judge.has;
    let seed = plan.seed;
    let wording = &plan.terms.wording;
    // This shard's cases, taken by batch number without a list of them.
    let total = plan.cases().len();
    let call_ks = |at: std::ops::Range<usize>| plan.cases().skip(at.start).take(at.len()).collect();
    let table_ref = table.as_ref();
    let draw_call = |k: usize| {
        let input = has.restrict(Input::One(Box::new(realizable(draw(seed, k)))));
        let Input::One(scenario) = &input else {
            unreachable!("a call restricted is a call")
        };
        // One review serves the reference decision and the features.
        let (reference, review, reached) = crate::messages::worded(wording, || {
            crate::generate::coverage::call(scenario, profile)
        });
        let features = features::of_reviewed(scenario, profile, review.as_ref());
        let row = table_ref.and_then(|t| t.rows.iter().position(|r| r.when.matches(&features)));
        let row_of = row.and_then(|i| table_ref.map(|t| &t.rows[i]));
        Drawn {
            subject: Subject {
                id: case_id(seed, k),
                area: "generated".into(),
                title: row_of
                    .map(|r| format!("a call under row {}", r.id))
                    .unwrap_or_default(),
                clauses: row_of.map(|r| r.clauses.clone()).unwrap_or_default(),
                row: row_of.map(|r| r.id.clone()),
            },
            input,
            reference: compare::observed(InputOutcome::One(Box::new(reference)), has),
            features: Some((features, row)),
            reached,
        }
    };
    let rows = table.as_ref().map_or(0, |t| t.rows.len());
    let calls = judge_drawn(
        &mut judge, plan, total, BATCH, &call_ks, &draw_call, rows, progress,
    );
    // Sessions, for an implementation that observes them: some of the same cases draw one too.
    let session_ks: Vec<usize> = if has.observes(crate::capability::Observable::Sessions) {
        plan.cases()
            .filter(|&k| super::generated_sessions::draws_session(seed, k))
            .collect()
    } else {
        Vec::new()
    };
    let draw_session = |k: usize| {
        let input = has.restrict(Input::Session(super::generated_sessions::draw(seed, k)));
        let Input::Session(session) = &input else {
            unreachable!("a session restricted is a session")
        };
        let (reference, reached) = crate::messages::worded(wording, || {
            crate::generate::coverage::session(session, profile)
        });
        Drawn {
            subject: Subject {
                id: super::generated_sessions::case_id(seed, k),
                area: "generated".into(),
                title: "a session of calls and lifecycle events".into(),
                clauses: vec!["AR-SESSION-2".into()],
                row: None,
            },
            input,
            reference: compare::observed(InputOutcome::Session(reference), has),
            features: None,
            reached,
        }
    };
    let session_batch = |at: std::ops::Range<usize>| session_ks[at].to_vec();
    let sessions = judge_drawn(
        &mut judge,
        plan,
        session_ks.len(),
        SESSION_BATCH,
        &session_batch,
        &draw_session,
        0,
        &mut |_, _| {},
    );
    let mut reach = calls.reach;
    reach.merge(&sessions.reach);
    let mut cited = calls.cited;
    cited.extend(sessions.cited);
    let mut results = calls.results;
    results.extend(sessions.results);
    results.extend(judge.tail());
    let mut counterexamples = calls.counterexamples;
    counterexamples.extend(sessions.counterexamples);
    GeneratedRun {
        results,
        cases: total + session_ks.len(),
        passed: calls.passed + sessions.passed,
        not_applicable: calls.not_applicable + sessions.not_applicable,
        counterexamples,
        distribution: Distribution::from_tally(
            &calls.tally,
            table
                .iter()
                .flat_map(|t| t.rows.iter().zip(&calls.row_hits))
                .filter(|(_, n)| **n > 0)
                .map(|(r, n)| (r.id.clone(), *n))
                .collect(),
            table.as_ref(),
            reach,
            profile,
        ),
        seed: plan.seed,
        duration: clock.elapsed(),
        cited,
    }
}

/// Calls drawn per message between threads. What is drawn ahead of the judge is held in memory:
/// each producer holds the batch it draws or sends, [`QUEUED`] more, and a judged batch until it
/// frees it. One attempt in a few hundred is a text of a megabyte at the tolerant reader's bound
/// ([`crate::generate::direct::attempt`]), so a batch of 256 calls held about a megabyte of them
/// and a run 60 to 120 MB; 64 hold a quarter of that, and a message still costs little beside
/// the cases' tens of microseconds each.
const BATCH: usize = 64;

/// Sessions drawn per message: a session holds about three calls, so a batch of sessions holds
/// about as many as a batch of calls.
const SESSION_BATCH: usize = BATCH / 4;

/// Batches each producer may have waiting for the judge, besides the one it is drawing: a deeper
/// queue holds more megabytes per producer and gains nothing once the judge has a batch waiting.
const QUEUED: usize = 1;

/// A counterexample for the terminal: the minimal input, each difference, and how to repeat it
/// with the reference and with the implementation (`command`, empty for an in-process one).
pub fn render(c: &Counterexample, profile: Profile, command: &[String]) -> String {
    render_found(&c.found(profile, command, false))
}

/// What a minimal scenario is: one call, or a session of calls and events.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum FoundKind {
    /// A single call (what a report that does not say holds).
    #[default]
    Call,
    /// A session scenario (AR-SESSION-1).
    Session,
}

/// A difference shrunk to a minimal scenario, as the reports keep it: the scenario, the verdict
/// on it, and the command lines that repeat it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Found {
    /// The case it was found in: a generated case, or the fixed case a violation no generated
    /// case showed was shrunk from.
    pub id: String,
    /// The violations it stands for: the clauses it was shrunk to keep violated (`unattributed`
    /// for differences that name none); empty for a case without an outcome, shrunk to keep its
    /// kind of breakage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clauses: Vec<String>,
    /// A call or a session.
    #[serde(default)]
    pub kind: FoundKind,
    /// How many smaller candidates were tried.
    #[serde(default)]
    pub steps: u32,
    /// The minimal scenario, members at their default left out.
    #[serde(default)]
    pub minimal: Value,
    /// The verdict on it.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// How to repeat it.
    #[serde(default)]
    pub repro: Repro,
}

/// The shell lines that repeat a counterexample.
#[derive(
    Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct Repro {
    /// The reference's decision: `printf '%s\n' '<scenario>' | autoreview decide --profile P`
    /// (`printf '%s'`, not `echo`: a shell's `echo` may read backslash escapes in the scenario).
    #[serde(default)]
    pub reference: String,
    /// The implementation's, through its adapter: `printf '%s\n' '<hello>' '<decide>' | <command>`;
    /// `None` for an implementation in process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implementation: Option<String>,
}

/// A minimal scenario as the reports keep it, with its repro lines for `profile` and the adapter
/// `command` (empty for an in-process implementation): a single call's or a session's, both of
/// which `decide` and an adapter's `decide` read as they are. An adapter that reads canonical
/// scenarios is sent `canonical`, the minimal input, in the form a run sends it.
#[allow(clippy::too_many_arguments)]
pub fn found(
    kind: FoundKind,
    id: &str,
    steps: u32,
    minimal: Value,
    verdict: &Verdict,
    profile: Profile,
    command: &[String],
    canonical: Option<&Input>,
) -> Found {
    let json = minimal.to_string();
    let reference = format!(
        "printf '%s\\n' {} | autoreview decide --profile {profile}",
        shell_quote(&json)
    );
    let implementation = (!command.is_empty()).then(|| {
        // The hello a run sends, rules and all: a gate decides by them.
        let hello = serde_json::to_string(&crate::protocol::Request::hello(profile, "repro"))
            .expect("a hello serializes");
        // An adapter that reads canonical scenarios gets the line a run sends it.
        let decide = match canonical.map(|input| super::subprocess::encode(input, true)) {
            Some(Ok(members)) => format!(
                "{{\"type\":\"decide\",\"seq\":1,{}}}",
                String::from_utf8_lossy(&members)
            ),
            _ => serde_json::json!({"type": "decide", "seq": 1, "scenario": minimal}).to_string(),
        };
        let argv: Vec<String> = command.iter().map(|a| shell_quote(a)).collect();
        format!(
            "printf '%s\\n' {} {} | {}",
            shell_quote(&hello),
            shell_quote(&decide),
            argv.join(" ")
        )
    });
    Found {
        id: id.to_owned(),
        clauses: Vec::new(),
        kind,
        steps,
        minimal,
        verdict: verdict.clone(),
        repro: Repro {
            reference,
            implementation,
        },
    }
}

/// A found counterexample for the terminal: the minimal scenario, each difference, and its repro
/// lines.
pub fn render_found(f: &Found) -> String {
    let label = match f.kind {
        FoundKind::Call => "counterexample",
        FoundKind::Session => "session counterexample",
    };
    let mut out = format!(
        "{label} from {} (shrunk in {} steps):\n  {}\n",
        f.id, f.steps, f.minimal
    );
    match &f.verdict {
        Verdict::Fail { differences } => {
            for d in differences {
                out.push_str(&format!("  {d}\n"));
            }
        }
        Verdict::Broken { error } => {
            out.push_str(&format!("  {:?}: {}\n", error.kind, error.message));
        }
        Verdict::Pass | Verdict::NotApplicable { .. } => {}
    }
    out.push_str(&format!("  reference: {}\n", f.repro.reference));
    if let Some(line) = &f.repro.implementation {
        out.push_str(&format!("  implementation: {line}\n"));
    }
    out
}

impl GeneratedRun {
    /// The clauses the cases judged (not those not applicable) exercise: those they cite and
    /// those the reference's decision of them reached ([`crate::generate::coverage`]).
    pub fn judged_clauses(&self) -> std::collections::BTreeSet<String> {
        let mut out = self.cited.clone();
        out.extend(
            self.distribution
                .reach
                .clauses
                .keys()
                .map(|c| (*c).to_owned()),
        );
        out
    }

    /// Every counterexample of the run, calls then sessions, as the reports keep them.
    pub fn found(&self, profile: Profile, command: &[String], canonical: bool) -> Vec<Found> {
        self.counterexamples
            .iter()
            .map(|c| c.found(profile, command, canonical))
            .collect()
    }

    /// How many counterexamples are single calls, and how many sessions.
    pub fn counterexample_kinds(&self) -> (usize, usize) {
        let calls = self
            .counterexamples
            .iter()
            .filter(|c| c.kind() == FoundKind::Call)
            .count();
        (calls, self.counterexamples.len() - calls)
    }
}

/// The permanent ID a frozen counterexample gets: derived from its minimal input, so freezing
/// the same counterexample twice gives the same case, and different ones never collide in
/// practice.
pub fn frozen_id(c: &Counterexample, origin: Origin) -> String {
    let hash = crate::ids::text_hash(&c.minimal_json().to_string());
    let hex = hash.rsplit(':').next().unwrap_or_default();
    format!(
        "{}-{}",
        origin.prefix(),
        hex[hex.len().saturating_sub(10)..].to_uppercase()
    )
}

/// Where frozen counterexamples come from: generated cases, or calls a harness recorded
/// (`autoreview audit --freeze`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Generated cases drawn with this seed.
    Generated {
        /// The seed.
        seed: u64,
    },
    /// Recorded calls re-decided by `autoreview audit`.
    Recorded,
}

impl Origin {
    /// The prefix of a frozen case's ID: `GX` for generated, `AX` for recorded.
    fn prefix(self) -> &'static str {
        match self {
            Origin::Generated { .. } => "GX",
            Origin::Recorded => "AX",
        }
    }

    /// The title of a frozen call, or session.
    fn title(self, session: bool) -> &'static str {
        match (self, session) {
            (Origin::Generated { .. }, false) => "Generated counterexample",
            (Origin::Generated { .. }, true) => "Generated session counterexample",
            (Origin::Recorded, false) => "Recorded call",
            (Origin::Recorded, true) => "Recorded session",
        }
    }

    /// The area its cases belong to, which `--only` selects.
    fn area(self) -> &'static str {
        match self {
            Origin::Generated { .. } => "generated",
            Origin::Recorded => "recorded",
        }
    }

    /// What the file says of its cases.
    fn about(self, profile: Profile) -> String {
        match self {
            Origin::Generated { seed } => format!(
                "Counterexamples found by generated cases (seed {seed}, {profile}), shrunk and frozen as fixed cases; the expectation is the reference engine's outcome."
            ),
            Origin::Recorded => format!(
                "Calls a harness recorded whose outcome breaks a clause of {profile}, re-decided by autoreview audit and frozen as fixed cases; the expectation is the reference engine's outcome."
            ),
        }
    }
}

/// What a verdict shows, for a frozen case's title: the first difference, or the breakage.
fn what(v: &Verdict) -> String {
    match v {
        Verdict::Fail { differences } => differences
            .first()
            .map(|d| format!("{} at {}", d.severity, d.pointer))
            .unwrap_or_default(),
        Verdict::Broken { error } => format!("{:?}", error.kind),
        Verdict::Pass | Verdict::NotApplicable { .. } => String::new(),
    }
}

/// A case file (`spec/cases/` format) holding each counterexample as a fixed case, calls first:
/// its minimal input and the reference's outcome as the expectation. A call cites the clauses
/// of the table row it falls under; a session expects the reference's outcome of every item
/// (`{"calls": [...]}`) and cites AR-SESSION-2.
pub fn frozen_file(cs: &[Counterexample], profile: Profile, origin: Origin) -> String {
    let table = Table::load(profile).ok();
    let frozen = |c: &Counterexample| {
        let (title, clauses, mut expect) = match (&c.minimal, &c.reference) {
            (Input::Session(_), reference) => {
                let calls = match reference {
                    InputOutcome::Session(o) => serde_json::to_value(&o.calls),
                    InputOutcome::One(o) => serde_json::to_value(o),
                };
                (
                    origin.title(true),
                    vec!["AR-SESSION-2".to_owned()],
                    serde_json::json!({"calls": calls.unwrap_or(Value::Null)}),
                )
            }
            (Input::One(s), reference) => {
                let f = features::of(s, profile);
                let row = table.as_ref().and_then(|t| t.matching(&f).first().copied());
                (
                    origin.title(false),
                    row.map(|r| r.clauses.clone()).unwrap_or_default(),
                    serde_json::to_value(reference).unwrap_or(Value::Null),
                )
            }
        };
        // The ID echoed is the scenario's, which a frozen case need not name.
        if let Value::Object(m) = &mut expect {
            m.remove("id");
        }
        if let Some(Value::Array(items)) = expect.get_mut("calls") {
            for item in items {
                if let Value::Object(m) = item {
                    m.remove("id");
                }
            }
        }
        serde_json::json!({
            "id": frozen_id(c, origin),
            "title": format!("{title} ({}; {})", c.id, what(&c.verdict)),
            "clauses": clauses,
            "profiles": [profile],
            "scenario": c.minimal_json(),
            "expect": expect,
        })
    };
    let cases: Vec<Value> = cs
        .iter()
        .filter(|c| c.kind() == FoundKind::Call)
        .chain(cs.iter().filter(|c| c.kind() == FoundKind::Session))
        .map(frozen)
        .collect();
    let file = serde_json::json!({
        "area": origin.area(),
        "about": origin.about(profile),
        "cases": cases,
    });
    serde_json::to_string_pretty(&file).unwrap_or_default() + "\n"
}

/// Finds the first of `count` generated cases (seed `seed`) whose verdict satisfies `wanted`, and
/// shrinks it while `wanted` still holds: how a test asks "do generated cases alone find this
/// defect?". `wanted` sees the scenario and the implementation's verdict.
pub fn search(
    imp: &mut dyn Implementation,
    profile: Profile,
    seed: u64,
    count: usize,
    wanted: &dyn Fn(&Scenario, &Verdict) -> bool,
    max_shrink_steps: u32,
) -> Option<(usize, Counterexample)> {
    let expected = Expected::none();
    let mut judge = Judge::new(imp, profile, &expected);
    let wanted = |input: &Input, v: &Verdict| match input {
        Input::One(s) => wanted(s, v),
        Input::Session(_) => false,
    };
    for k in 0..count {
        let input = judge
            .has
            .restrict(Input::One(Box::new(realizable(draw(seed, k)))));
        let (verdict, _) = judge.against_reference(&input);
        if !wanted(&input, &verdict) {
            continue;
        }
        let (minimal, verdict, reference, steps) =
            shrink(&mut judge, input, &wanted, max_shrink_steps);
        return Some((
            k,
            Counterexample {
                id: case_id(seed, k),
                clauses: Vec::new(),
                minimal,
                verdict,
                reference,
                steps,
            },
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::ItemOutcome;
    use crate::runner::{Ask, ImplError, Implementation};
    use crate::scenario::OnFailure;

    /// The reference engine with a planted defect: each input is decided with `change` made to
    /// every call (and to a session's configuration), and the refusal of every call the second
    /// function picks worded its own way.
    struct Planted(
        fn(&mut crate::scenario::Config),
        fn(&crate::outcome::Outcome) -> bool,
    );

    impl Planted {
        /// `change` made, and every refusal after a failed review worded its own way, so that a
        /// failed review differs at TEXT whatever else it does.
        fn failed(change: fn(&mut crate::scenario::Config)) -> Planted {
            Planted(change, |o| o.review.failure.is_some())
        }
    }

    impl Implementation for Planted {
        fn describe(&self) -> String {
            "a planted defect".to_owned()
        }
        fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
            let mut input = ask.input.clone();
            match &mut input {
                Input::One(s) => (self.0)(&mut s.config),
                Input::Session(s) => {
                    (self.0)(&mut s.config);
                    for item in &mut s.calls {
                        if let Item::Call(c) = item {
                            (self.0)(&mut c.config);
                        }
                    }
                }
            }
            let mut out = crate::engine::decide_input(&input, ask.profile);
            let own_words = |o: &mut crate::outcome::Outcome| {
                if (self.1)(o)
                    && let Some(t) = &mut o.result.text
                {
                    t.push_str(" (in other words)");
                }
            };
            match &mut out {
                InputOutcome::One(o) => own_words(o),
                InputOutcome::Session(s) => {
                    for item in &mut s.calls {
                        if let ItemOutcome::Call(o) = item {
                            own_words(o);
                        }
                    }
                }
            }
            Ok(out)
        }
    }

    /// How many drawn calls that `imp` fails short of SAFETY (and that `drawn` admits) the
    /// changes before the reviewer script and `on_failure` were varied turn into SAFETY, how
    /// many all of them do, and how many only the new changes do; every candidate found is
    /// realizable.
    fn turned(
        imp: &mut dyn Implementation,
        drawn: &dyn Fn(&Scenario) -> bool,
    ) -> (usize, usize, usize) {
        let expected = Expected::none();
        let mut judge = Judge::new(imp, Profile::RESILIENT, &expected);
        let (mut before, mut after, mut only_new) = (0, 0, 0);
        for k in 0..600 {
            let s = realizable(draw(9, k));
            if !drawn(&s) {
                continue;
            }
            let input = judge.has.restrict(Input::One(Box::new(s)));
            let (verdict, _) = judge.against_reference(&input);
            if !matches!(verdict, Verdict::Fail { .. })
                || verdict.worst() == Some(compare::Severity::Safety)
            {
                continue;
            }
            let old = &TOWARD_SAFETY[..TOWARD_SAFETY_BEFORE];
            let found_before = toward_safety_by(&mut judge, &input, &verdict, old).is_some();
            before += usize::from(found_before);
            if let Some((c, v, _)) = toward_safety(&mut judge, &input, &verdict) {
                assert!(realizable_input(&c), "{c:?}");
                assert!(
                    v.worst().is_some_and(compare::Severity::is_a_body_run),
                    "{v:?}"
                );
                after += 1;
                only_new += usize::from(!found_before);
            }
        }
        (before, after, only_new)
    }

    /// A gate that asks the human on a reviewer failure even where it must fail closed: on a
    /// drawn call that does not fail closed, it differs only in words, and only failing closed
    /// with a human who allows shows that it runs the body where the reference denies.
    #[test]
    fn the_search_fails_closed_with_a_human_who_allows() {
        let mut imp = Planted::failed(|c| c.on_failure = OnFailure::Ask);
        let (before, after, _) = turned(&mut imp, &|s| s.config.on_failure == OnFailure::Ask);
        assert_eq!(before, 0);
        assert!(after > 0, "{after}");
    }

    /// A gate that repairs and retries once more than it is configured to: on some drawn calls,
    /// only a reviewer script whose next attempt allows shows that it runs the body the reference
    /// did not.
    #[test]
    fn the_search_lets_the_reviewer_allow_after_its_script() {
        let mut imp = Planted::failed(|c| {
            c.repair_attempts += 1;
            c.transport_retries += 1;
        });
        let (before, after, only_new) = turned(&mut imp, &|_| true);
        assert!(only_new > 0, "{before} before, {after} after");
    }

    /// A gate that repairs once more than it is configured to, where the script goes on after the
    /// attempt the reference's review failed at: appending an allowing attempt shows nothing
    /// (the extra repair reads the script's next attempt), and only that next attempt allowing
    /// shows that the body runs. Every such change is realizable and runs a body (BOUNDS: on the
    /// reviewer's allow to a request the spec does not make).
    #[test]
    fn the_search_lets_the_attempt_after_a_failure_allow() {
        let mut imp = Planted::failed(|c| c.repair_attempts += 1);
        let expected = Expected::none();
        let mut judge = Judge::new(&mut imp, Profile::RESILIENT, &expected);
        let without: Vec<Toward> = TOWARD_SAFETY
            .iter()
            .copied()
            .filter(|t| !t.next_allows)
            .collect();
        assert_eq!(without.len() + 3, TOWARD_SAFETY.len());
        let mut only_next = 0;
        for k in 0..600 {
            let input = judge
                .has
                .restrict(Input::One(Box::new(realizable(draw(9, k)))));
            let (verdict, _) = judge.against_reference(&input);
            if !matches!(verdict, Verdict::Fail { .. })
                || verdict.worst() == Some(compare::Severity::Safety)
                || toward_safety_by(&mut judge, &input, &verdict, &without).is_some()
            {
                continue;
            }
            if let Some((c, v, step)) = toward_safety(&mut judge, &input, &verdict) {
                assert!(step.next_allows, "{step:?}");
                assert!(realizable_input(&c), "{c:?}");
                assert!(
                    v.worst().is_some_and(compare::Severity::is_a_body_run),
                    "{v:?}"
                );
                only_next += 1;
            }
        }
        assert!(only_next > 0, "{only_next}");
    }

    /// Shrinks `scenario` against `imp` while the verdict keeps its kind (TEXT, where it
    /// starts), and checks that what is left is a local minimum: no one-step simplification of
    /// it keeps the difference.
    fn shrunk(mut imp: Planted, scenario: serde_json::Value) -> Scenario {
        let start = Scenario::from_value(&scenario).expect("a realizable scenario");
        let expected = Expected::none();
        let mut judge = Judge::new(&mut imp, Profile::RESILIENT, &expected);
        let start = judge.has.restrict(Input::One(Box::new(start)));
        let (verdict, _) = judge.against_reference(&start);
        assert_eq!(
            verdict.worst(),
            Some(compare::Severity::Text),
            "{verdict:?}"
        );
        let sig = signature(&verdict);
        let keep = |_: &Input, v: &Verdict| signature(v) == sig;
        let (minimal, _, _, steps) = shrink(&mut judge, start, &keep, 2000);
        assert!(steps < 2000, "{steps}");
        for candidate in simpler_input(&minimal) {
            let candidate = judge.has.restrict(candidate);
            assert!(!keep(&candidate, &judge.against_reference(&candidate).0));
        }
        let Input::One(s) = minimal else {
            unreachable!("a call shrinks to a call")
        };
        *s
    }

    // Three members shrunk counterexamples kept though the difference did not need them: a call
    // inside a program, an escaped name in the reviewer's text, and members of a failure's
    // message.

    /// A refusal after a failed review worded another way shrinks to a native call.
    #[test]
    fn shrinking_reaches_a_native_call() {
        let native = shrunk(
            Planted::failed(|_| {}),
            serde_json::json!({
                "tool": {"name": "pwsh", "call": "ptc-inner"},
                "reviewer": {"text": "no verdict here"},
            }),
        );
        assert_eq!(
            native.tool.call,
            crate::scenario::CallKind::Native,
            "{native:?}"
        );
    }

    /// A refusal after a review that answered worded another way: the reviewer must deny, and the
    /// shrunk denial is written plainly, its names unescaped and nothing around it.
    #[test]
    fn shrinking_reaches_a_plain_reviewer_text() {
        let denied = Planted(
            |_| {},
            |o| o.review.failure.is_none() && o.review.attempts > 0,
        );
        let plain = shrunk(
            denied,
            serde_json::json!({
                "tool": {"name": "pwsh"},
                "reviewer": {"text": " {\"risk\":\"high\",\"d\\u0065cision\":\"deny\",\"reason\":\"r\\u006dm\"}"},
            }),
        );
        let [crate::scenario::Attempt::Text { text, .. }] = plain.reviewer.attempts() else {
            panic!("{plain:?}")
        };
        assert!(!text.contains('\\') && !text.starts_with(' '), "{text}");
        assert!(text.contains("\"decision\":\"deny\""), "{text}");
    }

    /// A refusal after a failed review worded another way shrinks to an empty failure message.
    #[test]
    fn shrinking_reaches_an_empty_failure_message() {
        let message = shrunk(
            Planted::failed(|_| {}),
            serde_json::json!({
                "tool": {"name": "pwsh"},
                "reviewer": {"finish": {"kind": "error", "code": "QUOTA_EXCEEDED",
                    "message": {"bbx": null, "vc1": "over quota"}}},
            }),
        );
        let [crate::scenario::Attempt::Finish { finish, .. }] = message.reviewer.attempts() else {
            panic!("{message:?}")
        };
        assert_eq!(finish.message, serde_json::json!({}), "{message:?}");
    }

    /// The attempt after a failed one allows in every call of a session, each after its own
    /// review's failure: a gate that repairs once more than its budget runs a body in some drawn
    /// session only so.
    #[test]
    fn the_search_lets_the_attempt_after_a_failure_allow_in_sessions() {
        let mut imp = Planted::failed(|c| c.repair_attempts += 1);
        let expected = Expected::none();
        let mut judge = Judge::new(&mut imp, Profile::RESILIENT, &expected);
        let mut by_next = 0;
        for k in 0..300 {
            let input = judge
                .has
                .restrict(Input::Session(super::super::generated_sessions::draw(9, k)));
            let (verdict, _) = judge.against_reference(&input);
            if let Some((c, v, step)) = toward_safety(&mut judge, &input, &verdict)
                && step.next_allows
            {
                assert!(
                    matches!(c, Input::Session(_)) && realizable_input(&c),
                    "{c:?}"
                );
                assert!(
                    v.worst().is_some_and(compare::Severity::is_a_body_run),
                    "{v:?}"
                );
                by_next += 1;
            }
        }
        assert!(by_next > 0, "{by_next}");
    }

    /// A generated run of `imp` under the resilient profile reports a body run at `severity`
    /// everywhere the search reaches it: a violation at `severity`, its counterexample still
    /// running the body the reference does not, and the case it was found in raised to
    /// `severity` by a difference that says what was changed to show it and who let the body
    /// run (`who`).
    fn reported_at(
        imp: &mut dyn Implementation,
        count: usize,
        severity: compare::Severity,
        who: &str,
    ) {
        // The rewording plants violates more text clauses than the plan's limit of
        // counterexamples: the one at `severity` gets its counterexample all the same.
        let plan = Plan::new(count, 5);
        let run = run(
            imp,
            Profile::RESILIENT,
            &plan,
            &Expected::none(),
            &mut |_, _| {},
        );
        let found = run.found(Profile::RESILIENT, &[], false);
        let violations = super::super::violations::of(&run.results, &found);
        let at = violations
            .iter()
            .find(|v| v.severity == severity)
            .unwrap_or_else(|| panic!("no violation at {severity}: {violations:?}"));
        assert!(
            !violations.iter().any(|v| v.severity < severity),
            "a violation worse than {severity}: {violations:?}"
        );
        let c = &run.counterexamples[at.counterexample.expect("a counterexample")];
        assert_eq!(c.verdict.worst(), Some(severity));
        assert!(
            super::super::violations::breaks(&c.verdict, &at.clause, severity),
            "{:?}",
            c.verdict
        );
        let raised = run
            .results
            .iter()
            .find(|r| r.id == c.id)
            .expect("the case the counterexample was found in");
        assert_eq!(raised.worst_severity(), Some(severity));
        let Verdict::Fail { differences } = &raised.verdict else {
            panic!("{:?}", raised.verdict)
        };
        assert!(
            differences.iter().any(|d| d.severity == severity
                && d.rule
                    .as_deref()
                    .is_some_and(|r| r.starts_with("shown when ") && r.contains(who))),
            "{differences:?}"
        );
    }

    /// A generated run finds a gate that repairs once more than its budget at BOUNDS: the body
    /// runs on the reviewer's allow to a request the spec does not make, not on nobody's.
    #[test]
    fn a_generated_run_reports_an_extra_repair_at_bounds() {
        reported_at(
            &mut Planted::failed(|c| c.repair_attempts += 1),
            400,
            compare::Severity::Bounds,
            "a reviewer's allow to a request the spec does not make",
        );
    }

    /// A generated run finds a gate that asks the human where it must fail closed at BOUNDS: the
    /// body runs on a human's allow where the spec asks nobody.
    #[test]
    fn a_generated_run_reports_asking_where_it_must_fail_closed_at_bounds() {
        reported_at(
            &mut Planted::failed(|c| c.on_failure = OnFailure::Ask),
            400,
            compare::Severity::Bounds,
            "a human's allow where the spec asks nobody",
        );
    }
}
