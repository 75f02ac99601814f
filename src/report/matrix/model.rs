//! The matrix as data: reports merged into columns (one per implementation, version, profile and
//! run, the shards of a run together, checked complete and disjoint), every case laid out under
//! the spec's chapters, the clauses it cites and the decision-table row its call falls under, each
//! column's cell for it, and each column's conformance score. Pure: parsed reports in, the model
//! out.

use std::collections::{BTreeMap, BTreeSet};

use super::read::{CaseRecord, FoundRecord, RunReport, Worst};
use crate::profile::Profile;
use crate::runner::check::InProcess;
use crate::runner::coverage::Coverage;
use crate::runner::generated::FoundKind;
use crate::runner::quote::shell_quote;
use crate::runner::shard::Shard;
use crate::runner::{Difference, ImplError, Status};

/// Why reports cannot be shown side by side.
#[derive(Debug, thiserror::Error)]
pub enum MatrixError {
    /// Nothing to show.
    #[error("no report given")]
    Empty,
    /// Two reports of one run, neither a shard of it.
    #[error(
        "{}: the same run of {run} twice; only the shards of one run (--shard i/n) merge into one column",
        .files.join(", ")
    )]
    SameRun {
        /// The reports.
        files: Vec<String>,
        /// The run, for people.
        run: String,
    },
    /// Shards of one run that disagree on the number of shards.
    #[error("{}: shards of one run of {run} disagree on the number of shards ({counts})", .files.join(", "))]
    ShardCounts {
        /// The reports.
        files: Vec<String>,
        /// The run, for people.
        run: String,
        /// The counts they give.
        counts: String,
    },
    /// One shard given twice.
    #[error("{}: shard {shard} of {run} twice", .files.join(", "))]
    ShardTwice {
        /// The reports.
        files: Vec<String>,
        /// The run, for people.
        run: String,
        /// The shard.
        shard: Shard,
    },
    /// Some shards of a run missing.
    #[error(
        "{}: shard {} of {run} missing: a sharded run is shown only whole, give every shard's report",
        .files.join(", "), .missing.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
    )]
    ShardsMissing {
        /// The reports given.
        files: Vec<String>,
        /// The run, for people.
        run: String,
        /// The shards missing.
        missing: Vec<Shard>,
    },
    /// One case in two shards.
    #[error("{first}, {second}: case {id} is in both, but shards of one run ({run}) are disjoint")]
    CaseTwice {
        /// The case.
        id: String,
        /// The report it is first in.
        first: String,
        /// The other report it is in.
        second: String,
        /// The run, for people.
        run: String,
    },
}

/// Counts toward a conformance score.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Score {
    /// Cases that passed, unexpected passes and generated cases counted only included.
    pub passed: usize,
    /// Cases that failed, expected failures included.
    pub failed: usize,
    /// Cases not applicable: counted apart, in neither of the above.
    pub not_applicable: usize,
    /// Of the failed, those listed as expected failures.
    pub expected_failures: usize,
    /// Of the passed, those listed as expected failures.
    pub unexpected_passes: usize,
    /// Of the passed, generated cases counted but not listed.
    pub generated_passed: usize,
}

impl Score {
    /// passed / (passed + failed); `None` when nothing ran.
    pub fn ratio(&self) -> Option<f64> {
        let ran = self.passed + self.failed;
        (ran > 0).then(|| self.passed as f64 / ran as f64)
    }

    /// The score as a percentage to a tenth, rounded down so that only a run without a failure
    /// shows 100%; `n/a` when nothing ran.
    pub fn percent(&self) -> String {
        let ran = self.passed + self.failed;
        if ran == 0 {
            return "n/a".to_owned();
        }
        let tenths = self.passed * 1000 / ran;
        format!("{}.{}%", tenths / 10, tenths % 10)
    }

    fn add(&mut self, r: &CaseRecord) {
        match r.status {
            Status::Pass => self.passed += 1,
            Status::UnexpectedPass => {
                self.passed += 1;
                self.unexpected_passes += 1;
            }
            Status::Fail => self.failed += 1,
            Status::ExpectedFail => {
                self.failed += 1;
                self.expected_failures += 1;
            }
            Status::NotApplicable => self.not_applicable += 1,
        }
    }
}

/// One column: a whole run of one implementation under one profile.
#[derive(Debug, Clone)]
pub struct Column {
    /// The implementation's name.
    pub name: String,
    /// Its version (empty when the report does not say).
    pub version: String,
    /// The profile checked.
    pub profile: Profile,
    /// The conformance level the run judged at.
    pub level: crate::conformance::Level,
    /// How the column is headed: name, version, profile and level, and the seed when another
    /// column has the same four.
    pub label: String,
    /// The implementation as it described itself.
    pub description: String,
    /// The seed of the generated cases.
    pub seed: Option<u64>,
    /// How many generated cases the run drew.
    pub generated: usize,
    /// The adapter command (empty in process).
    pub command: Vec<String>,
    /// What it observes beyond protocol 1.
    pub observes: Vec<String>,
    /// How many shards the run was split into (1: whole).
    pub shards: usize,
    /// The reports merged into it, as given.
    pub sources: Vec<String>,
    /// The runner that wrote them.
    pub runner: String,
    /// Its score.
    pub score: Score,
    /// How many of the profile's MUST clauses the run's cases judged, its shards together
    /// (`runner::coverage`); `None` when a report of it is older than 7 and does not record what
    /// its generated cases judged.
    pub coverage: Option<Coverage>,
}

/// One column's cell for one case.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The case's status in the column's run; `None` when the run does not hold the case.
    pub status: Option<Status>,
    /// Whether the report lists the case (a generated case that passed is only counted).
    pub listed: bool,
    /// The worst of a failure.
    pub worst: Option<Worst>,
    /// What a not-applicable case needs.
    pub missing: Vec<String>,
    /// Why it is listed as an expected failure.
    pub expected_failure: Option<String>,
    /// What a failure shows, and how to repeat it.
    pub detail: Option<Detail>,
}

/// What a failing case shows in one column.
#[derive(Debug, Clone, PartialEq)]
pub struct Detail {
    /// The differences from the expected outcome.
    pub differences: Vec<Difference>,
    /// Why no outcome came.
    pub error: Option<(String, String, Vec<String>)>,
    /// The minimal scenario a generated difference shrank to, with its differences.
    pub counterexample: Option<Counterexample>,
    /// Shell lines that repeat it.
    pub repro: Vec<String>,
}

/// A shrunk counterexample, as a failure's detail shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Counterexample {
    /// `call` or `session`.
    pub kind: String,
    /// The minimal scenario, as JSON text.
    pub minimal: String,
    /// The differences on it.
    pub differences: Vec<Difference>,
}

/// One case: what it is and each column's cell.
#[derive(Debug, Clone)]
pub struct CaseLine {
    /// The case ID.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its area.
    pub area: String,
    /// The clauses it cites.
    pub clauses: Vec<String>,
    /// The decision-table row its call falls under.
    pub row: Option<String>,
    /// One cell per column.
    pub cells: Vec<Cell>,
}

/// Counts over a group of cases, for one column.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ColumnCounts {
    /// Passed (unexpected passes included).
    pub passed: usize,
    /// Failed (expected failures included).
    pub failed: usize,
    /// Of the failed, expected failures.
    pub expected_failures: usize,
    /// Not applicable.
    pub not_applicable: usize,
    /// Not in the column's run.
    pub absent: usize,
    /// The worst failure.
    pub worst: Option<Worst>,
}

impl ColumnCounts {
    fn add(&mut self, c: &Cell) {
        match c.status {
            None => self.absent += 1,
            Some(Status::Pass | Status::UnexpectedPass) => self.passed += 1,
            Some(Status::Fail) => self.failed += 1,
            Some(Status::ExpectedFail) => {
                self.failed += 1;
                self.expected_failures += 1;
            }
            Some(Status::NotApplicable) => self.not_applicable += 1,
        }
        self.worst = Worst::worse(self.worst.take(), c.worst.clone());
    }

    /// Whether the group holds no case of the column's run.
    pub fn is_empty(&self) -> bool {
        self.passed + self.failed + self.not_applicable == 0
    }
}

/// The cases under one decision-table row, within a clause.
#[derive(Debug, Clone)]
pub struct RowGroup {
    /// The row's ID.
    pub row: String,
    /// What the row is about.
    pub title: String,
    /// Per column, over the cases listed here.
    pub tallies: Vec<ColumnCounts>,
    /// The cases, the row's own first.
    pub cases: Vec<CaseLine>,
}

/// One clause: the cases listed under it (those citing it first), by row.
#[derive(Debug, Clone)]
pub struct ClauseGroup {
    /// The clause ID; empty for cases citing none.
    pub clause: String,
    /// Per column, over every case citing the clause, wherever it is listed.
    pub tallies: Vec<ColumnCounts>,
    /// Cases under a decision-table row.
    pub rows: Vec<RowGroup>,
    /// Cases under no row (sessions, calls no row holds).
    pub cases: Vec<CaseLine>,
}

/// One chapter of the spec, or a group of cases the chapters do not hold.
#[derive(Debug, Clone)]
pub struct ChapterGroup {
    /// The chapter's number; empty for the groups after the chapters.
    pub number: String,
    /// Its title.
    pub title: String,
    /// Per column, over every case citing a clause of the chapter.
    pub tallies: Vec<ColumnCounts>,
    /// Its clauses that some case cites, in the spec's order.
    pub clauses: Vec<ClauseGroup>,
}

/// One column's cell for one violated clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClauseCell {
    /// The run compared the clause and no case broke it.
    Met,
    /// Cases of the run broke it.
    Broken {
        /// How many, expected failures included.
        cases: usize,
        /// The worst severity of its differences.
        severity: crate::runner::Severity,
    },
    /// The run compared nothing the clause governs: no case citing it ran.
    NotCompared,
}

/// One violated clause across the columns.
#[derive(Debug, Clone)]
pub struct ClauseLine {
    /// The clause ID, or `unattributed`.
    pub clause: String,
    /// One cell per column.
    pub cells: Vec<ClauseCell>,
}

/// The whole matrix.
#[derive(Debug, Clone)]
pub struct Matrix {
    /// The columns, in the order their first report was given.
    pub columns: Vec<Column>,
    /// The clauses some column's run violates, worst first (the worst severity in any column,
    /// then the most columns broken, then the clause ID): a clause × implementation table.
    pub clauses: Vec<ClauseLine>,
    /// The chapters some case cites, then cases citing clauses this spec text does not define,
    /// then cases citing none.
    pub chapters: Vec<ChapterGroup>,
    /// The spec text versions the reports name.
    pub specs: Vec<String>,
}

impl Matrix {
    /// Every case line, in page order.
    pub fn cases(&self) -> impl Iterator<Item = &CaseLine> {
        self.chapters.iter().flat_map(|ch| {
            ch.clauses.iter().flat_map(|cl| {
                cl.rows
                    .iter()
                    .flat_map(|r| r.cases.iter())
                    .chain(cl.cases.iter())
            })
        })
    }
}

/// What identifies a run: reports that share it are shards of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RunKey {
    name: String,
    version: String,
    profile: Profile,
    level: crate::conformance::Level,
    seed: Option<u64>,
    command: Vec<String>,
    generated: usize,
}

impl RunKey {
    fn of(r: &RunReport) -> RunKey {
        RunKey {
            name: r.name().to_owned(),
            version: r.version().to_owned(),
            profile: r.profile,
            level: r.level,
            seed: r.seed,
            command: r.command.clone(),
            generated: r.generated,
        }
    }

    /// For error messages.
    fn describe(&self) -> String {
        let mut s = format!(
            "{} {} ({} at level {})",
            self.name, self.version, self.profile, self.level
        );
        if let Some(seed) = self.seed {
            s.push_str(&format!(", seed {seed}"));
        }
        if !self.command.is_empty() {
            s.push_str(&format!(", command `{}`", self.command.join(" ")));
        }
        s
    }
}

/// One run, its shards merged.
struct Run<'a> {
    key: RunKey,
    reports: Vec<(&'a str, &'a RunReport)>,
    shards: Vec<Shard>,
    results: BTreeMap<String, (usize, &'a CaseRecord)>,
    order: Vec<String>,
    found: BTreeMap<String, &'a FoundRecord>,
}

/// Groups reports into runs and merges each run's shards: complete (every `i` of `n` once) and
/// disjoint (no case in two shards).
fn runs(sources: &[(String, RunReport)]) -> Result<Vec<Run<'_>>, MatrixError> {
    let mut groups: Vec<(RunKey, Vec<(&str, &RunReport)>)> = Vec::new();
    for (name, r) in sources {
        let key = RunKey::of(r);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push((name, r)),
            None => groups.push((key, vec![(name, r)])),
        }
    }
    let mut out = Vec::new();
    for (key, reports) in groups {
        let files: Vec<String> = reports.iter().map(|(n, _)| (*n).to_owned()).collect();
        let run = key.describe();
        let shards: Vec<Option<Shard>> = reports.iter().map(|(_, r)| r.shard()).collect();
        let shards: Vec<Shard> = if shards.iter().all(Option::is_none) {
            if reports.len() > 1 {
                return Err(MatrixError::SameRun { files, run });
            }
            Vec::new()
        } else {
            let Some(shards) = shards.into_iter().collect::<Option<Vec<Shard>>>() else {
                return Err(MatrixError::SameRun { files, run });
            };
            let counts: BTreeSet<usize> = shards.iter().map(|s| s.of).collect();
            if counts.len() > 1 {
                let counts = counts
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(MatrixError::ShardCounts { files, run, counts });
            }
            let of = shards[0].of;
            let mut seen = BTreeSet::new();
            for (i, s) in shards.iter().enumerate() {
                if !seen.insert(s.index) {
                    let first = shards.iter().position(|t| t == s).unwrap_or(i);
                    return Err(MatrixError::ShardTwice {
                        files: vec![files[first].clone(), files[i].clone()],
                        run,
                        shard: *s,
                    });
                }
            }
            let missing: Vec<Shard> = (1..=of)
                .filter(|i| !seen.contains(i))
                .map(|index| Shard { index, of })
                .collect();
            if !missing.is_empty() {
                return Err(MatrixError::ShardsMissing {
                    files,
                    run,
                    missing,
                });
            }
            shards
        };
        let mut results: BTreeMap<String, (usize, &CaseRecord)> = BTreeMap::new();
        let mut order = Vec::new();
        let mut found = BTreeMap::new();
        for (i, (_, r)) in reports.iter().enumerate() {
            for c in &r.results {
                // Each shard's process has its own tail: they are told apart by shard.
                let id = match shards.get(i) {
                    Some(s) if c.id == crate::ids::TAIL_ID => format!("{} (shard {s})", c.id),
                    _ => c.id.clone(),
                };
                if let Some((first, _)) = results.get(&id) {
                    return Err(MatrixError::CaseTwice {
                        id,
                        first: files[*first].clone(),
                        second: files[i].clone(),
                        run,
                    });
                }
                results.insert(id.clone(), (i, c));
                order.push(id);
            }
            for f in &r.counterexamples {
                found.entry(f.id.clone()).or_insert(f);
            }
        }
        out.push(Run {
            key,
            reports,
            shards,
            results,
            order,
            found,
        });
    }
    Ok(out)
}

/// The lines that repeat case `id` of a run: the counterexample's, or a check of the case alone
/// (a fixed case) or of the generated run that drew it.
fn repro(run: &Run, id: &str, found: Option<&FoundRecord>) -> Vec<String> {
    if let Some(f) = found {
        return [Some(&f.repro.reference), f.repro.implementation.as_ref()]
            .into_iter()
            .flatten()
            .filter(|l| !l.is_empty())
            .cloned()
            .collect();
    }
    let report = run.reports[0].1;
    let mut line = format!("autoreview check --profile {}", run.key.profile);
    if run.key.level != crate::conformance::Level::Full {
        line.push_str(&format!(" --level {}", run.key.level));
    }
    // The engine is what a check without an adapter runs unless told otherwise.
    if let Some(i) = report.in_process.filter(|i| *i != InProcess::Engine) {
        line.push_str(&format!(" --implementation {}", i.as_str()));
    }
    match (super::read::generated_case(id), run.key.seed) {
        (Some(_), Some(seed)) => line.push_str(&format!(
            " --no-fixed --generated {} --seed {seed}",
            run.key.generated
        )),
        _ => line.push_str(&format!(" --only {}", shell_quote(id))),
    }
    if !run.key.command.is_empty() {
        let argv: Vec<String> = run.key.command.iter().map(|a| shell_quote(a)).collect();
        line.push_str(&format!(" -- {}", argv.join(" ")));
    }
    vec![line]
}

fn error_of(e: &ImplError) -> (String, String, Vec<String>) {
    (
        e.kind.as_str().to_owned(),
        e.message.clone(),
        e.stderr.clone(),
    )
}

/// The cell of a run for case `id`.
fn cell(run: &Run, id: &str) -> Cell {
    let Some((_, r)) = run.results.get(id) else {
        let passed = run.reports[0]
            .1
            .passed_unlisted(id, (!run.shards.is_empty()).then_some(&run.shards[..]));
        return Cell {
            status: passed.then_some(Status::Pass),
            listed: false,
            worst: None,
            missing: Vec::new(),
            expected_failure: None,
            detail: None,
        };
    };
    let detail = r.failed().then(|| {
        let found = run.found.get(id).copied();
        Detail {
            differences: r.differences().to_vec(),
            error: r.error().map(error_of),
            counterexample: found.map(|f| Counterexample {
                kind: match f.kind {
                    FoundKind::Call => "call",
                    FoundKind::Session => "session",
                }
                .to_owned(),
                minimal: f.minimal.to_string(),
                differences: f.differences().to_vec(),
            }),
            repro: repro(run, id, found),
        }
    });
    Cell {
        status: Some(r.status),
        listed: true,
        worst: r.worst(),
        missing: r.missing_names(),
        expected_failure: r.expected_failure.clone(),
        detail,
    }
}

/// Builds the matrix from reports, each with the name it was given by (a file path): a column per
/// run, in the order the runs' first reports come.
pub fn build(sources: &[(String, RunReport)]) -> Result<Matrix, MatrixError> {
    if sources.is_empty() {
        return Err(MatrixError::Empty);
    }
    let runs = runs(sources)?;
    let columns = columns(&runs);

    // Every case once, described by the first run that has it, in the order runs list them.
    let mut lines: Vec<CaseLine> = Vec::new();
    let mut seen = BTreeSet::new();
    for run in &runs {
        for id in &run.order {
            if !seen.insert(id.clone()) {
                continue;
            }
            let (_, r) = run.results[id];
            lines.push(CaseLine {
                id: id.clone(),
                title: r.title.clone(),
                area: r.area.clone(),
                clauses: r.clauses.clone(),
                row: r.row.clone(),
                cells: runs.iter().map(|run| cell(run, id)).collect(),
            });
        }
    }
    let specs: BTreeSet<String> = sources
        .iter()
        .map(|(_, r)| r.spec.clone())
        .filter(|s| !s.is_empty())
        .collect();
    Ok(Matrix {
        clauses: clause_lines(&runs),
        chapters: layout(lines, columns.len()),
        columns,
        specs: specs.into_iter().collect(),
    })
}

/// The clause × implementation view: each clause some run violates (its reports' `violations`,
/// its shards' summed), and each run's cell for it. A run that breaks no case of a clause met it
/// when a case citing the clause ran there; a clause no case of any run cites (one only the
/// citations name, or `unattributed`) is met by a run that ran any case. Otherwise the run did
/// not compare it.
fn clause_lines(runs: &[Run]) -> Vec<ClauseLine> {
    let mut broken: BTreeMap<&str, Vec<Option<(usize, crate::runner::Severity)>>> = BTreeMap::new();
    for (i, run) in runs.iter().enumerate() {
        for (_, r) in &run.reports {
            for v in &r.violations {
                let cells = broken
                    .entry(v.clause.as_str())
                    .or_insert_with(|| vec![None; runs.len()]);
                cells[i] = Some(match cells[i] {
                    Some((n, s)) => (n + v.cases, s.min(v.severity)),
                    None => (v.cases, v.severity),
                });
            }
        }
    }
    let ran = |r: &CaseRecord| r.status != Status::NotApplicable;
    let cited: BTreeSet<&str> = runs
        .iter()
        .flat_map(|run| run.results.values())
        .flat_map(|(_, r)| r.clauses.iter().map(String::as_str))
        .collect();
    let mut lines: Vec<(crate::runner::Severity, usize, ClauseLine)> = broken
        .into_iter()
        .map(|(clause, found)| {
            let cells: Vec<ClauseCell> = runs
                .iter()
                .zip(&found)
                .map(|(run, f)| match f {
                    Some((cases, severity)) => ClauseCell::Broken {
                        cases: *cases,
                        severity: *severity,
                    },
                    None => {
                        let compared = run.results.values().any(|(_, r)| {
                            ran(r)
                                && (!cited.contains(clause)
                                    || r.clauses.iter().any(|c| c == clause))
                        });
                        if compared {
                            ClauseCell::Met
                        } else {
                            ClauseCell::NotCompared
                        }
                    }
                })
                .collect();
            let worst = found
                .iter()
                .flatten()
                .map(|(_, s)| *s)
                .min()
                .unwrap_or(crate::runner::Severity::Info);
            let columns = found.iter().flatten().count();
            let line = ClauseLine {
                clause: clause.to_owned(),
                cells,
            };
            (worst, columns, line)
        })
        .collect();
    lines.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(b.1.cmp(&a.1))
            .then_with(|| a.2.clause.cmp(&b.2.clause))
    });
    lines.into_iter().map(|(_, _, l)| l).collect()
}

/// What a run judged, its shards together: the MUST clauses its listed cases and its generated
/// cases judged; unknown when a report does not record what its generated cases judged.
fn run_coverage(run: &Run) -> Option<Coverage> {
    if run.reports.iter().any(|(_, r)| r.coverage.is_none()) {
        return None;
    }
    let generated: BTreeSet<&str> = run
        .reports
        .iter()
        .flat_map(|(_, r)| r.generated_clauses.iter().map(String::as_str))
        .collect();
    Some(Coverage::of(
        run.key.profile,
        run.results.values().map(|(_, r)| *r),
        generated,
    ))
}

fn columns(runs: &[Run]) -> Vec<Column> {
    let mut columns: Vec<Column> = runs
        .iter()
        .map(|run| {
            let first = run.reports[0].1;
            let mut score = Score::default();
            for (_, r) in run.results.values() {
                score.add(r);
            }
            let generated_passed: usize = run.reports.iter().map(|(_, r)| r.generated_passed).sum();
            score.passed += generated_passed;
            score.generated_passed = generated_passed;
            // Generated cases it was not asked, for a capability it lacks: apart, like the rest.
            score.not_applicable += run
                .reports
                .iter()
                .map(|(_, r)| r.generated_not_applicable)
                .sum::<usize>();
            let mut label = run.key.name.clone();
            if !run.key.version.is_empty() {
                label.push(' ');
                label.push_str(&run.key.version);
            }
            label.push_str(&format!(" · {} · {}", run.key.profile, run.key.level));
            Column {
                name: run.key.name.clone(),
                version: run.key.version.clone(),
                profile: run.key.profile,
                level: run.key.level,
                label,
                description: first.implementation.clone(),
                seed: run.key.seed,
                generated: run.key.generated,
                command: run.key.command.clone(),
                observes: first
                    .observes
                    .iter()
                    .map(|o| o.as_str().to_owned())
                    .collect(),
                shards: run.shards.len().max(1),
                sources: run.reports.iter().map(|(n, _)| (*n).to_owned()).collect(),
                runner: first.runner.clone(),
                score,
                coverage: run_coverage(run),
            }
        })
        .collect();
    // Columns that share a heading are told apart by their seed, else by their report's file.
    let labels: Vec<String> = columns.iter().map(|c| c.label.clone()).collect();
    for (i, c) in columns.iter_mut().enumerate() {
        let same = labels.iter().filter(|l| **l == labels[i]).count();
        if same > 1 {
            let file = c.sources.first().map(|s| {
                std::path::Path::new(s)
                    .file_name()
                    .map_or(s.clone(), |f| f.to_string_lossy().into_owned())
            });
            match (c.seed, file) {
                (Some(seed), _) => c.label.push_str(&format!(" · seed {seed}")),
                (None, Some(file)) => c.label.push_str(&format!(" · {file}")),
                (None, None) => c.label.push_str(&format!(" · column {}", i + 1)),
            }
        }
    }
    columns
}

/// Lays the cases out: each under the first clause it cites that the spec defines (else its first
/// clause, else the group of cases citing none), and within it under its row. Tallies count every
/// case citing a clause at that clause, and every case citing one of a chapter's clauses once at
/// that chapter.
fn layout(lines: Vec<CaseLine>, width: usize) -> Vec<ChapterGroup> {
    let spec = crate::spec::chapters();
    let chapter_of: BTreeMap<&str, usize> = spec
        .iter()
        .enumerate()
        .flat_map(|(i, ch)| ch.clauses.iter().map(move |c| (c.as_str(), i)))
        .collect();
    let order: BTreeMap<&str, usize> = spec
        .iter()
        .flat_map(|ch| ch.clauses.iter())
        .enumerate()
        .map(|(i, c)| (c.as_str(), i))
        .collect();
    let row_titles: BTreeMap<String, String> = Profile::all()
        .iter()
        .filter_map(|p| crate::table::Table::load(*p).ok())
        .flat_map(|t| t.rows.into_iter().map(|r| (r.id, r.title)))
        .collect();
    let unknown = spec.len();
    let uncited = spec.len() + 1;
    // Chapter index → clause → the group.
    let mut groups: BTreeMap<usize, Vec<ClauseGroup>> = BTreeMap::new();
    let mut chapter_tallies: BTreeMap<usize, Vec<ColumnCounts>> = BTreeMap::new();
    let chapter = |c: &str| chapter_of.get(c).copied().unwrap_or(unknown);
    let blank = || vec![ColumnCounts::default(); width];
    let group_of = |groups: &mut BTreeMap<usize, Vec<ClauseGroup>>, ch: usize, clause: &str| {
        let list = groups.entry(ch).or_default();
        match list.iter().position(|g| g.clause == clause) {
            Some(i) => i,
            None => {
                list.push(ClauseGroup {
                    clause: clause.to_owned(),
                    tallies: blank(),
                    rows: Vec::new(),
                    cases: Vec::new(),
                });
                list.len() - 1
            }
        }
    };
    for line in lines {
        // Tallies: every clause cited, every chapter once.
        let mut chapters = BTreeSet::new();
        for clause in &line.clauses {
            let ch = chapter(clause);
            let i = group_of(&mut groups, ch, clause);
            let g = &mut groups.get_mut(&ch).expect("just made")[i];
            for (t, c) in g.tallies.iter_mut().zip(&line.cells) {
                t.add(c);
            }
            chapters.insert(ch);
        }
        if line.clauses.is_empty() {
            chapters.insert(uncited);
            let i = group_of(&mut groups, uncited, "");
            let g = &mut groups.get_mut(&uncited).expect("just made")[i];
            for (t, c) in g.tallies.iter_mut().zip(&line.cells) {
                t.add(c);
            }
        }
        for ch in chapters {
            for (t, c) in chapter_tallies
                .entry(ch)
                .or_insert_with(blank)
                .iter_mut()
                .zip(&line.cells)
            {
                t.add(c);
            }
        }
        // Placement: the first clause the spec defines, else the first, else none.
        let primary = line
            .clauses
            .iter()
            .find(|c| chapter_of.contains_key(c.as_str()))
            .or(line.clauses.first())
            .cloned()
            .unwrap_or_default();
        let ch = if primary.is_empty() {
            uncited
        } else {
            chapter(&primary)
        };
        let i = group_of(&mut groups, ch, &primary);
        let g = &mut groups.get_mut(&ch).expect("just made")[i];
        match line.row.clone() {
            Some(row) => {
                let r = match g.rows.iter().position(|r| r.row == row) {
                    Some(r) => r,
                    None => {
                        g.rows.push(RowGroup {
                            title: row_titles.get(&row).cloned().unwrap_or_default(),
                            row,
                            tallies: blank(),
                            cases: Vec::new(),
                        });
                        g.rows.len() - 1
                    }
                };
                let r = &mut g.rows[r];
                for (t, c) in r.tallies.iter_mut().zip(&line.cells) {
                    t.add(c);
                }
                // The row's own case first.
                if line.id == r.row {
                    r.cases.insert(0, line);
                } else {
                    r.cases.push(line);
                }
            }
            None => g.cases.push(line),
        }
    }
    groups
        .into_iter()
        .map(|(ch, mut clauses)| {
            clauses.sort_by_key(|g| order.get(g.clause.as_str()).copied().unwrap_or(usize::MAX));
            let (number, title) = match spec.get(ch) {
                Some(c) => (c.number.clone(), c.title.clone()),
                None if ch == unknown => (
                    String::new(),
                    "Clauses this spec text does not define".to_owned(),
                ),
                None => (String::new(), "Cases that cite no clause".to_owned()),
            };
            ChapterGroup {
                number,
                title,
                tallies: chapter_tallies.remove(&ch).unwrap_or_else(blank),
                clauses,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::Severity;

    /// A report of `name` (version 1, resilient), with `extra` members and these results.
    fn report(name: &str, extra: &str, results: &[String]) -> RunReport {
        RunReport::parse(&format!(
            r#"{{"report_version": 3, "profile": "resilient", "implementation": "{name} via x", "implementation_info": {{"name": "{name}", "version": "1", "language": "js"}}, "command": ["x"], "observes": [], "spec": "autoreview-spec 1"{extra}, "results": [{}]}}"#,
            results.join(",")
        ))
        .unwrap()
    }

    /// A result of `status`; its verdict is what the status and `more` (an `error`) say.
    fn case(id: &str, clauses: &[&str], status: &str, more: &str) -> String {
        let clauses: Vec<String> = clauses.iter().map(|c| format!("\"{c}\"")).collect();
        let verdict = match status {
            "pass" | "unexpected-pass" => "pass",
            "not-applicable" => "not-applicable",
            _ if more.contains("\"error\"") => "broken",
            _ => "fail",
        };
        format!(
            r#"{{"id": "{id}", "area": "a", "title": "title {id}", "clauses": [{}], "verdict": "{verdict}", "status": "{status}"{more}}}"#,
            clauses.join(",")
        )
    }

    fn diff(severity: &str) -> String {
        format!(
            r#", "differences": [{{"severity": "{severity}", "pointer": "/p", "expected": 1, "actual": 2}}]"#
        )
    }

    fn named(reports: Vec<RunReport>) -> Vec<(String, RunReport)> {
        reports
            .into_iter()
            .enumerate()
            .map(|(i, r)| (format!("r{i}.json"), r))
            .collect()
    }

    fn line<'m>(m: &'m Matrix, id: &str) -> &'m CaseLine {
        m.cases()
            .find(|l| l.id == id)
            .unwrap_or_else(|| panic!("no line {id}"))
    }

    /// A column's MUST clauses judged are its shards' together: the clauses their cases put to
    /// the implementation cite (not those not applicable) and those their generated cases judged;
    /// unknown for a report before 7, which does not record the latter.
    #[test]
    fn a_column_judges_what_its_shards_judged_together() {
        let v7 = |i: usize, generated: &str, results: &[String]| {
            let mut text = serde_json::to_value(report(
                "gate",
                &format!(
                    r#", "shard": {{"index": {i}, "of": 2}}, "generated_clauses": [{generated}]"#
                ),
                results,
            ))
            .unwrap();
            text["report_version"] = 7.into();
            text["coverage"] = serde_json::json!({"judged": 0, "must": 0, "unjudged": []});
            RunReport::parse(&text.to_string()).unwrap()
        };
        let shards = vec![
            v7(
                1,
                r#""AR-ADMIT-1""#,
                &[case("A", &["AR-SCOPE-1"], "pass", "")],
            ),
            v7(
                2,
                "",
                &[
                    case("B", &["AR-SCOPE-2"], "fail", &diff("DECISION")),
                    case("C", &["AR-SCOPE-3"], "not-applicable", ""),
                ],
            ),
        ];
        let m = build(&named(shards)).unwrap();
        let c = m.columns[0].coverage.clone().expect("reports of version 7");
        let must = crate::runner::coverage::must_clauses(Profile::RESILIENT);
        assert_eq!((c.judged, c.must), (3, must.len()), "{c:?}");
        assert!(c.unjudged.contains(&"AR-SCOPE-3".to_owned()));
        assert_eq!(
            crate::report::matrix::judged(&m.columns[0]),
            format!("{} (3 of {})", c.share(), must.len())
        );
        let old = build(&named(vec![report(
            "old",
            "",
            &[case("A", &["AR-SCOPE-1"], "pass", "")],
        )]))
        .unwrap();
        assert_eq!(old.columns[0].coverage, None);
        assert_eq!(crate::report::matrix::judged(&old.columns[0]), "—");
    }

    /// The clause view: a row per clause some run violates, worst first; a run that broke it
    /// shows its cases and worst severity (its shards summed), one that ran a case citing it
    /// met it, one that ran none did not compare it.
    #[test]
    fn the_clause_view_shows_each_violated_clause_per_run() {
        let cited = |clause: &str| {
            format!(
                r#", "differences": [{{"severity": "INFO", "pointer": "/review/requests", "expected": 1, "actual": 2, "clauses": ["{clause}"]}}]"#
            )
        };
        let v6 = |name: &str, extra: &str, results: &[String]| {
            let mut r = report(name, extra, results);
            r.violations = crate::runner::violations::of(&r.run.results, &[]);
            r
        };
        let shard = |i: usize, results: &[String]| {
            v6(
                "gate",
                &format!(r#", "shard": {{"index": {i}, "of": 2}}"#),
                results,
            )
        };
        let m = build(&named(vec![
            shard(
                1,
                &[case(
                    "A",
                    &["AR-RES-REQUEST-1"],
                    "fail",
                    &cited("AR-RES-REQUEST-1"),
                )],
            ),
            shard(
                2,
                &[
                    case(
                        "B",
                        &["AR-RES-REQUEST-1"],
                        "fail",
                        &cited("AR-RES-REQUEST-1"),
                    ),
                    case("C", &["AR-SCOPE-1"], "fail", &diff("DECISION")),
                ],
            ),
            v6(
                "other",
                "",
                &[
                    case("A", &["AR-RES-REQUEST-1"], "pass", ""),
                    case(
                        "C",
                        &["AR-SCOPE-1"],
                        "not-applicable",
                        r#", "missing": ["sessions"]"#,
                    ),
                ],
            ),
        ]))
        .unwrap();
        let rows: Vec<(&str, &[ClauseCell])> = m
            .clauses
            .iter()
            .map(|l| (l.clause.as_str(), l.cells.as_slice()))
            .collect();
        assert_eq!(
            rows,
            [
                (
                    "unattributed",
                    &[
                        ClauseCell::Broken {
                            cases: 1,
                            severity: Severity::Decision
                        },
                        ClauseCell::Met
                    ][..]
                ),
                (
                    "AR-RES-REQUEST-1",
                    &[
                        ClauseCell::Broken {
                            cases: 2,
                            severity: Severity::Info
                        },
                        ClauseCell::Met
                    ][..]
                ),
            ]
        );
        // A run that ran no case citing the clause did not compare it.
        let m = build(&named(vec![
            v6(
                "gate",
                "",
                &[case(
                    "A",
                    &["AR-RES-REQUEST-1"],
                    "fail",
                    &cited("AR-RES-REQUEST-1"),
                )],
            ),
            v6("other", "", &[case("Z", &["AR-SCOPE-1"], "pass", "")]),
        ]))
        .unwrap();
        assert_eq!(m.clauses[0].cells[1], ClauseCell::NotCompared);
    }

    /// Two runs of one implementation, version and profile with no seed to tell them apart are
    /// labelled by their reports' files, which say what each run was.
    #[test]
    fn columns_of_one_heading_are_told_apart_by_their_reports() {
        let results = [case("A", &["AR-SCOPE-1"], "pass", "")];
        let m = build(&[
            ("out/nightly.json".to_owned(), report("gate", "", &results)),
            (
                "out/pr.json".to_owned(),
                report("gate", r#", "generated": 3"#, &results),
            ),
        ])
        .unwrap();
        let labels: Vec<&str> = m.columns.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "gate 1 · resilient · full · nightly.json",
                "gate 1 · resilient · full · pr.json"
            ]
        );
    }

    /// The shards of one run make one column whose score counts every shard; another
    /// implementation is another column.
    #[test]
    fn shards_merge_into_one_column() {
        let shard = |i: usize, results: &[String], passed: usize| {
            report(
                "gate",
                &format!(
                    r#", "seed": 5, "generated": 4, "shard": {{"index": {i}, "of": 2}}, "generated_passed": {passed}"#
                ),
                results,
            )
        };
        let m = build(&named(vec![
            shard(1, &[case("A", &["AR-SCOPE-1"], "pass", "")], 1),
            report(
                "other",
                "",
                &[case("A", &["AR-SCOPE-1"], "fail", &diff("TEXT"))],
            ),
            shard(
                2,
                &[
                    case("B", &["AR-SCOPE-2"], "expected-fail", &diff("ORDER")),
                    case("GEN-5-1", &["AR-SCOPE-2"], "fail", &diff("DECISION")),
                ],
                0,
            ),
        ]))
        .unwrap();
        assert_eq!(m.columns.len(), 2);
        let gate = &m.columns[0];
        assert_eq!(
            (gate.label.as_str(), gate.shards),
            ("gate 1 · resilient · full", 2)
        );
        assert_eq!(gate.sources, ["r0.json", "r2.json"]);
        assert_eq!(
            gate.score,
            Score {
                passed: 2,
                failed: 2,
                not_applicable: 0,
                expected_failures: 1,
                unexpected_passes: 0,
                generated_passed: 1,
            }
        );
        assert_eq!(gate.score.percent(), "50.0%");
        assert_eq!(m.columns[1].score.percent(), "0.0%");
        let b = &line(&m, "B").cells;
        assert_eq!(b[0].status, Some(Status::ExpectedFail));
        assert_eq!(b[0].worst, Some(Worst::Severity(Severity::Order)));
        assert_eq!(b[1].status, None, "not in the other run");
        // GEN-5-1 failed in shard 2; GEN-5-0 would be shard 1's.
        let g = &line(&m, "GEN-5-1").cells[0];
        assert_eq!(
            g.detail.as_ref().unwrap().repro,
            ["autoreview check --profile resilient --no-fixed --generated 4 --seed 5 -- x"]
        );
        let a = &line(&m, "A").cells[1];
        assert_eq!(
            a.detail.as_ref().unwrap().repro,
            ["autoreview check --profile resilient --only A -- x"]
        );
    }

    /// A generated case one column lists as failing is a pass in another column of the same
    /// seed that drew it, and absent from a column of another seed.
    #[test]
    fn an_unlisted_generated_case_is_a_pass_where_the_run_drew_it() {
        let drawn = |name: &str, seed: u64, results: &[String]| {
            report(
                name,
                &format!(r#", "seed": {seed}, "generated": 10"#),
                results,
            )
        };
        // A run that left cases unasked for a capability it lacks does not say which: none of
        // its unlisted cases is known to have passed, and those it left count apart.
        let lacking = report(
            "d",
            r#", "seed": 5, "generated": 10, "generated_passed": 7, "generated_not_applicable": 3"#,
            &[],
        );
        let m = build(&named(vec![
            drawn("a", 5, &[case("GEN-5-3", &[], "fail", &diff("INFO"))]),
            drawn("b", 5, &[]),
            drawn("c", 6, &[]),
            lacking,
        ]))
        .unwrap();
        let cells = &line(&m, "GEN-5-3").cells;
        assert_eq!(
            cells
                .iter()
                .map(|c| (c.status, c.listed))
                .collect::<Vec<_>>(),
            [
                (Some(Status::Fail), true),
                (Some(Status::Pass), false),
                (None, false),
                (None, false)
            ]
        );
        let d = &m.columns[3].score;
        assert_eq!((d.passed, d.not_applicable), (7, 3));
    }

    #[test]
    fn reports_that_do_not_merge_are_refused_naming_the_files() {
        let shard = |i: usize, of: usize, id: &str| {
            report(
                "gate",
                &format!(r#", "shard": {{"index": {i}, "of": {of}}}"#),
                &[case(id, &[], "pass", "")],
            )
        };
        let err = |reports: Vec<RunReport>| build(&named(reports)).unwrap_err().to_string();
        let e = err(vec![shard(1, 3, "A"), shard(3, 3, "B")]);
        assert!(
            e.starts_with("r0.json, r1.json: shard 2/3 of gate 1 (resilient at level full)"),
            "{e}"
        );
        let e = err(vec![shard(1, 2, "A"), shard(1, 2, "B"), shard(2, 2, "C")]);
        assert!(
            e.starts_with("r0.json, r1.json: shard 1/2 of gate 1 (resilient at level full)"),
            "{e}"
        );
        assert!(e.contains("twice"), "{e}");
        let e = err(vec![shard(1, 2, "A"), shard(2, 2, "A")]);
        assert!(e.starts_with("r0.json, r1.json: case A is in both"), "{e}");
        // Each shard's process may report its own tail.
        let m = build(&named(vec![
            shard(1, 2, crate::ids::TAIL_ID),
            shard(2, 2, crate::ids::TAIL_ID),
        ]))
        .unwrap();
        let ids: Vec<&str> = m.cases().map(|l| l.id.as_str()).collect();
        assert_eq!(
            ids,
            ["PROTOCOL-TAIL (shard 1/2)", "PROTOCOL-TAIL (shard 2/2)"]
        );
        let e = err(vec![shard(1, 2, "A"), shard(2, 3, "B")]);
        assert!(e.contains("disagree on the number of shards (2, 3)"), "{e}");
        let whole = report("gate", "", &[case("A", &[], "pass", "")]);
        let e = err(vec![whole.clone(), whole.clone()]);
        assert!(
            e.starts_with("r0.json, r1.json: the same run of gate 1 (resilient at level full)"),
            "{e}"
        );
        let e = err(vec![whole, shard(2, 2, "B")]);
        assert!(e.contains("the same run"), "{e}");
        assert!(matches!(build(&[]), Err(MatrixError::Empty)));
    }

    /// A not-applicable case is neither passed nor failed, in the score and in every tally, and
    /// its cell keeps what it needs.
    #[test]
    fn not_applicable_cases_are_counted_apart() {
        let m = build(&named(vec![report(
            "gate",
            "",
            &[
                case(
                    "A",
                    &["AR-SESSION-1"],
                    "not-applicable",
                    r#", "missing": ["sessions", "deny-reason"]"#,
                ),
                case("B", &["AR-SESSION-1"], "pass", ""),
            ],
        )]))
        .unwrap();
        let s = &m.columns[0].score;
        assert_eq!((s.passed, s.failed, s.not_applicable), (1, 0, 1));
        assert_eq!(s.percent(), "100.0%");
        let a = &line(&m, "A").cells[0];
        assert_eq!(a.missing, ["sessions", "deny-reason"]);
        assert!(a.detail.is_none());
        let ch = m.chapters.iter().find(|c| c.number == "12").unwrap();
        assert_eq!((ch.tallies[0].passed, ch.tallies[0].not_applicable), (1, 1));
        let only_na = build(&named(vec![report(
            "gate",
            "",
            &[case(
                "A",
                &[],
                "not-applicable",
                r#", "missing": ["sessions"]"#,
            )],
        )]))
        .unwrap();
        assert_eq!(only_na.columns[0].score.percent(), "n/a");
        assert_eq!(only_na.columns[0].score.ratio(), None);
    }

    /// Each case is listed once, under the first clause it cites that the spec defines; every
    /// clause it cites counts it, and a chapter counts it once.
    #[test]
    fn cases_are_laid_out_by_chapter_clause_and_row() {
        let m = build(&named(vec![report(
            "gate",
            "",
            &[
                case(
                    "X",
                    &["AR-NOPE-1", "AR-SCOPE-2", "AR-SCOPE-1"],
                    "fail",
                    &diff("DECISION"),
                ),
                case("RS-P2", &["AR-SCOPE-2"], "pass", r#", "row": "RS-P2""#),
                case(
                    "Y",
                    &["AR-SCOPE-2"],
                    "fail",
                    r#", "row": "RS-P2", "error": {"kind": "crash", "message": "gone"}"#,
                ),
                case("Z", &[], "fail", &diff("SAFETY")),
            ],
        )]))
        .unwrap();
        let titles: Vec<&str> = m.chapters.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Scope and pass-through",
                "Clauses this spec text does not define",
                "Cases that cite no clause"
            ]
        );
        let ch1 = &m.chapters[0];
        let clauses: Vec<&str> = ch1.clauses.iter().map(|c| c.clause.as_str()).collect();
        assert_eq!(clauses, ["AR-SCOPE-1", "AR-SCOPE-2"], "the spec's order");
        assert!(ch1.clauses[0].rows.is_empty() && ch1.clauses[0].cases.is_empty());
        assert_eq!(ch1.clauses[0].tallies[0].failed, 1, "X cites it");
        let scope2 = &ch1.clauses[1];
        assert_eq!(
            scope2
                .cases
                .iter()
                .map(|l| l.id.as_str())
                .collect::<Vec<_>>(),
            ["X"]
        );
        assert_eq!(scope2.rows.len(), 1);
        assert_eq!(scope2.rows[0].row, "RS-P2");
        assert!(!scope2.rows[0].title.is_empty(), "the table's title");
        let in_row: Vec<&str> = scope2.rows[0].cases.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(in_row, ["RS-P2", "Y"]);
        // The worst: a crash is worse than DECISION, SAFETY worse than a crash.
        assert_eq!(scope2.tallies[0].worst, Some(Worst::Broken("crash".into())));
        assert_eq!(
            (ch1.tallies[0].passed, ch1.tallies[0].failed),
            (1, 2),
            "X once"
        );
        assert_eq!(m.chapters[1].clauses[0].clause, "AR-NOPE-1");
        assert_eq!(m.chapters[1].tallies[0].failed, 1);
        assert_eq!(m.chapters[2].clauses[0].cases[0].id, "Z");
        assert_eq!(
            Worst::worse(
                Some(Worst::Broken("crash".into())),
                Some(Worst::Severity(Severity::Safety))
            ),
            Some(Worst::Severity(Severity::Safety))
        );
        assert_eq!(m.cases().count(), 4, "each case once");
    }
}
