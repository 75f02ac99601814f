//! Auditing what a harness recorded (`spec/audit.md`): audit records, read one line at a time, each
//! call classified by the templates of chapter 9 ([`classify`]), and the tables the field report's
//! author made by hand — failures by class and route, per session, streaks of refused calls and
//! the escapes after them. Pure: the command reads the files and prints.

pub mod classify;
pub mod compressed;
pub mod dsh;
pub mod judge;
pub mod redecide;
pub mod write;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::profile::Profile;
pub use classify::{Classification, FailureKind, RequestClass, classify};

/// One recorded tool call (`spec/audit.md`, "call").
#[derive(Debug, Clone, Default, PartialEq, Deserialize, schemars::JsonSchema)]
pub struct CallRecord {
    /// What the record is: a call (the default).
    #[serde(default)]
    pub kind: Option<CallKind>,
    /// The session it belongs to.
    pub session: String,
    /// When its result was recorded.
    #[serde(default)]
    pub time: Option<String>,
    /// The tool's name.
    pub tool: String,
    /// Whether its arguments were empty.
    #[serde(default)]
    pub empty_arguments: Option<bool>,
    /// The reviewer route in force, `provider/model`.
    #[serde(default)]
    pub route: Option<String>,
    /// The effective approval policy.
    #[serde(default)]
    pub policy: Option<String>,
    /// The session's preset.
    #[serde(default)]
    pub preset: Option<String>,
    /// What the model saw.
    #[serde(default)]
    pub result: Option<ResultRecord>,
    /// The approval prompt shown, if any.
    #[serde(default)]
    pub approval: Option<ApprovalRecord>,
    /// What the reviewer did, where the harness has it.
    #[serde(default)]
    pub reviewer: Option<ReviewerRecord>,
    /// The gate's configuration, in the scenario's `config` format, where the harness has it.
    #[serde(default)]
    pub config: Option<serde_json::Value>,
    /// The gate's own count of reviewer failures in a row before this call, where it keeps one
    /// (AR-RES-HINT-1); otherwise the failures recorded before it in the session are counted.
    #[serde(default)]
    pub failures_before: Option<u32>,
}

/// The reviewer's reply or failure, as recorded.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, schemars::JsonSchema)]
pub struct ReviewerRecord {
    /// The reviewer's raw reply text.
    #[serde(default)]
    pub reply: Option<String>,
    /// The failure it reported.
    #[serde(default)]
    pub failure: Option<String>,
}

/// A call's result as recorded.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, schemars::JsonSchema)]
pub struct ResultRecord {
    /// The tool result's text.
    #[serde(default)]
    pub text: Option<String>,
    /// Its structured info.
    #[serde(default)]
    pub error: Option<serde_json::Value>,
}

/// An approval prompt as recorded.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, schemars::JsonSchema)]
pub struct ApprovalRecord {
    /// The audited reason.
    #[serde(default)]
    pub reason: Option<String>,
    /// The human's answer.
    #[serde(default)]
    pub answer: Option<String>,
}

/// The `kind` of a call record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CallKind {
    /// A tool call.
    Call,
}

/// The `kind` of a preset record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PresetKind {
    /// A change of the session's permission preset.
    Preset,
}

/// A change of a session's permission preset (`spec/audit.md`, "preset").
#[derive(Debug, Clone, PartialEq, Deserialize, schemars::JsonSchema)]
pub struct PresetRecord {
    /// What the record is.
    pub kind: PresetKind,
    /// The session.
    pub session: String,
    /// When the preset was selected (RFC 3339).
    #[serde(default)]
    pub time: Option<String>,
    /// The preset selected (`danger-full-access`, `workspace-write`, `auto`, …).
    pub preset: String,
}

/// One line of an audit log as its JSON Schema describes it (`autoreview schema audit`,
/// `spec/audit.schema.json`): a call record or a preset record.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum RecordLine {
    /// A tool call the harness ran through the gate.
    Call(Box<CallRecord>),
    /// A change of the session's preset.
    Preset(PresetRecord),
}

/// One record of an audit log.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// A tool call.
    Call(Box<CallRecord>),
    /// A change of the session's preset.
    Preset {
        /// The session.
        session: String,
        /// When.
        time: Option<String>,
        /// The preset selected.
        preset: String,
    },
}

/// Reads one line of an audit log: a record, or why the line is none (what was expected).
pub fn parse_line(line: &str) -> Result<Record, String> {
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let kind = value.get("kind").and_then(|k| k.as_str()).unwrap_or("call");
    let session = || -> Result<String, String> {
        value
            .get("session")
            .and_then(|s| s.as_str())
            .map(str::to_owned)
            .ok_or_else(|| "expected a string `session`".to_owned())
    };
    match kind {
        "call" => {
            session()?;
            serde_json::from_value(value.clone())
                .map(|c| Record::Call(Box::new(c)))
                .map_err(|e| format!("a call record needs a string `tool`: {e}"))
        }
        "preset" => {
            session()?;
            let p: PresetRecord = serde_json::from_value(value.clone())
                .map_err(|e| format!("a preset record needs a string `preset`: {e}"))?;
            Ok(Record::Preset {
                session: p.session,
                time: p.time,
                preset: p.preset,
            })
        }
        other => Err(format!(
            "`kind` is {other:?}; expected \"call\" or \"preset\""
        )),
    }
}

/// What a log holds (`autoreview audit --from`): audit records, or a harness's own log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Audit records, one JSON line each (`spec/audit.md`).
    #[default]
    Records,
    /// A dsh session log, `session.v4.jsonl` (`spec/audit-dsh.md`).
    Dsh,
}

/// A log being read into records, one line at a time.
#[derive(Debug)]
pub enum LogReader {
    /// Audit records.
    Records,
    /// A dsh session log.
    Dsh(Box<dsh::DshSession>),
}

impl LogReader {
    /// A reader of a log in `format`; `name` names a session whose log does not (a dsh log's
    /// directory, say).
    pub fn new(format: Format, name: &str) -> LogReader {
        match format {
            Format::Records => LogReader::Records,
            Format::Dsh => LogReader::Dsh(Box::new(dsh::DshSession::new(name))),
        }
    }

    /// The records one line gives (none for a blank line), or why it is none.
    pub fn line(&mut self, line: &str) -> Result<Vec<Record>, String> {
        match self {
            LogReader::Records if line.trim().is_empty() => Ok(Vec::new()),
            LogReader::Records => parse_line(line).map(|r| vec![r]),
            LogReader::Dsh(d) => d.line(line),
        }
    }

    /// The records the end of the log completes (a dsh call left without a result).
    pub fn finish(self) -> Vec<Record> {
        match self {
            LogReader::Records => Vec::new(),
            LogReader::Dsh(d) => d.finish(),
        }
    }
}

/// A run of refused calls in one session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Streak {
    /// The session.
    pub session: String,
    /// How many refused calls in a row.
    pub length: u64,
    /// The first of them ([`STREAK_CALLS`] at most), in order.
    pub calls: Vec<StreakCall>,
    /// The preset the user escaped to right after it, if any.
    pub escape: Option<Escape>,
}

/// How many calls a streak lists; its `length` counts them all, so that a session refused without
/// end holds no more.
pub const STREAK_CALLS: usize = 50;

impl Streak {
    fn new(session: String) -> Streak {
        Streak {
            session,
            length: 0,
            calls: Vec::new(),
            escape: None,
        }
    }

    fn push(&mut self, call: StreakCall) {
        self.length += 1;
        if self.calls.len() < STREAK_CALLS {
            self.calls.push(call);
        }
    }
}

/// One refused call of a streak.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreakCall {
    /// When.
    pub time: Option<String>,
    /// The tool.
    pub tool: String,
    /// `denied`, or the failure's class.
    pub what: String,
}

/// A change of preset right after refused calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Escape {
    /// When.
    pub time: Option<String>,
    /// The preset selected.
    pub preset: String,
}

/// Where a log line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The file.
    pub file: String,
    /// The line, from 1.
    pub line: u64,
    /// Why.
    pub why: String,
}

/// What an audit found: the tables of `spec/audit.md`, "What audit prints".
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// The profile the audit was asked for.
    pub profile: String,
    /// The profiles the recorded calls are judged under: that one, then the resilient one.
    pub judged_under: Vec<String>,
    /// Lines read.
    pub lines: u64,
    /// Lines skipped, with where and why (the first 100; `skipped_count` has them all).
    pub skipped: Vec<Skipped>,
    /// How many lines were skipped.
    pub skipped_count: u64,
    /// Calls by classification (`allowed`, `denied`, `asked`, `failure`, `undecidable`).
    pub calls: BTreeMap<String, u64>,
    /// Failures by route, then by class column.
    pub by_route: BTreeMap<String, BTreeMap<String, u64>>,
    /// Request failures by sub-class.
    pub request_failed: BTreeMap<String, u64>,
    /// Failures per session (sessions with none are left out).
    pub per_session: BTreeMap<String, u64>,
    /// Streaks of at least the threshold, longest first (the [`KEPT`] longest; `streak_count`
    /// has them all).
    pub streaks: Vec<Streak>,
    /// How many streaks there were.
    pub streak_count: u64,
    /// Escapes after refused calls (the first [`KEPT`]; `escape_count` has them all).
    pub escapes: Vec<Streak>,
    /// How many escapes there were.
    pub escape_count: u64,
    /// What each judging profile says of the recorded calls: by profile, each clause a recorded
    /// outcome breaks, with how many calls and why.
    pub judged: BTreeMap<String, BTreeMap<String, Judged>>,
    /// How many calls were re-decided (their record carries the reviewer's reply and the facts
    /// the gate decided on); the rest are judged by what their record shows.
    pub redecided: u64,
    /// Calls whose record carries the reviewer's reply but could not be re-decided, by why.
    pub not_redecided: BTreeMap<String, u64>,
}

/// How many recorded calls break one clause, and why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Judged {
    /// The calls.
    pub calls: u64,
    /// What the profile says should have happened (for a re-decided call, where the first
    /// recorded outcome differs from the reference's, and how).
    pub why: String,
}

/// How many re-decided calls that break a clause `--freeze` keeps per profile (distinct scenarios;
/// the rest are counted).
pub const FROZEN: usize = 1000;

/// A fixed-case file of the re-decided calls that break a clause of one profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frozen {
    /// Its name: `recorded-<profile>.json`.
    pub file: String,
    /// Its text (`spec/cases` format).
    pub text: String,
    /// How many calls it holds.
    pub calls: usize,
    /// How many distinct calls that break a clause it leaves out ([`FROZEN`], [`FROZEN_BYTES`]).
    pub left_out: u64,
}

/// How many streaks, and how many escapes, a summary lists: memory stays bounded however long the
/// log, growing only with its sessions (each has a count and, while it lasts, a run).
pub const KEPT: usize = 100;

/// How many skipped lines a summary names; the rest are counted.
const SKIPPED_NAMED: usize = 100;

/// The audit of a stream of records, fed one line at a time in constant memory per session.
#[derive(Debug)]
pub struct Audit {
    judging: Vec<Profile>,
    streak_at: usize,
    summary: Summary,
    /// Each session's current run of refused calls (cleared by any other call).
    runs: BTreeMap<String, Streak>,
    /// Each session's reviewer failures in a row so far (absent when none).
    failing: BTreeMap<String, u32>,
    /// Whether re-decided calls that break a clause are kept to freeze ([`Audit::freezing`]).
    freezing: bool,
    /// The re-decided calls that break a clause, by judging profile, kept to freeze.
    frozen: BTreeMap<String, Kept>,
}

/// The calls kept to freeze under one profile: distinct scenarios, at most [`FROZEN`] of them and
/// [`FROZEN_BYTES`] of scenario text, so that a log of large replies holds no more.
#[derive(Debug, Default)]
struct Kept {
    calls: Vec<crate::runner::generated::Counterexample>,
    /// The hashes of the scenarios kept.
    seen: std::collections::BTreeSet<String>,
    /// Their scenarios' size, in bytes of JSON.
    bytes: usize,
    /// How many distinct ones were left out.
    left_out: u64,
}

/// How many bytes of scenario text `--freeze` keeps per profile (a reply can be megabytes).
pub const FROZEN_BYTES: usize = 16 << 20;

impl Audit {
    /// An audit judging under `profile`, reporting streaks of at least `streak_at` refused calls, and
    /// judging each recorded call under `profile` and the resilient profile (`spec/audit.md`).
    pub fn new(profile: Profile, streak_at: usize) -> Audit {
        let mut judging = vec![profile];
        if profile != Profile::RESILIENT {
            judging.push(Profile::RESILIENT);
        }
        Audit {
            judging: judging.clone(),
            streak_at: streak_at.max(1),
            summary: Summary {
                profile: profile.to_string(),
                judged_under: judging.iter().map(|p| p.to_string()).collect(),
                ..Summary::default()
            },
            runs: BTreeMap::new(),
            failing: BTreeMap::new(),
            freezing: false,
            frozen: BTreeMap::new(),
        }
    }

    /// This audit, keeping the re-decided calls that break a clause for [`Audit::frozen`].
    pub fn freezing(mut self) -> Audit {
        self.freezing = true;
        self
    }

    /// Reads one line of `file`, a log of audit records; a line that is no record is noted and
    /// skipped. Blank lines are not records and not skipped.
    pub fn line(&mut self, file: &str, number: u64, line: &str) {
        self.read(file, number, LogReader::Records.line(line));
    }

    /// Takes the records line `number` of `file` gave (`Err`: why it gave none, and it is
    /// skipped), counting the line.
    pub fn read(&mut self, file: &str, number: u64, records: Result<Vec<Record>, String>) {
        self.summary.lines += 1;
        match records {
            Ok(records) => records.into_iter().for_each(|r| self.record(r)),
            Err(why) => self.skip(file, number, why),
        }
    }

    /// Notes a line of `file` that is no record (not UTF-8, say), and why.
    pub fn skip(&mut self, file: &str, number: u64, why: String) {
        self.summary.skipped_count += 1;
        if self.summary.skipped.len() < SKIPPED_NAMED {
            self.summary.skipped.push(Skipped {
                file: file.to_owned(),
                line: number,
                why,
            });
        }
    }

    /// Takes one record.
    pub fn record(&mut self, record: Record) {
        match record {
            Record::Call(call) => self.call(*call),
            Record::Preset {
                session,
                time,
                preset,
            } => {
                let widens = preset == "danger-full-access" || preset == "workspace-write";
                if let Some(mut run) = self.runs.remove(&session) {
                    if widens {
                        run.escape = Some(Escape { time, preset });
                        self.summary.escape_count += 1;
                        if self.summary.escapes.len() < KEPT {
                            self.summary.escapes.push(run.clone());
                        }
                    }
                    self.close(run);
                }
            }
        }
    }

    fn call(&mut self, call: CallRecord) {
        let classification = classify(&call);
        let failures = self.failing.get(&call.session).copied().unwrap_or(0);
        let mut redecided = false;
        let mut not_redecided = None;
        for profile in self.judging.clone() {
            let breaches = match redecide::redecide(&call, &classification, failures, profile) {
                Ok(r) => {
                    redecided = true;
                    self.keep(&call, profile, r)
                }
                Err(why) => {
                    not_redecided = Some(why);
                    judge::judge(&call, &classification, profile)
                        .into_iter()
                        .map(|b| (b.clause.to_owned(), b.why.to_owned()))
                        .collect()
                }
            };
            for (clause, why) in breaches {
                let judged = self
                    .summary
                    .judged
                    .entry(profile.to_string())
                    .or_default()
                    .entry(clause)
                    .or_default();
                judged.calls += 1;
                if judged.why.is_empty() {
                    judged.why = why;
                }
            }
        }
        self.summary.redecided += u64::from(redecided);
        let replied = call.reviewer.as_ref().is_some_and(|r| r.reply.is_some());
        if let Some(why) = not_redecided.filter(|_| replied) {
            *self.summary.not_redecided.entry(why).or_default() += 1;
        }
        match &classification {
            Classification::Failure { .. } => {
                *self.failing.entry(call.session.clone()).or_default() += 1;
            }
            Classification::Undecidable => {}
            _ => {
                self.failing.remove(&call.session);
            }
        }
        *self
            .summary
            .calls
            .entry(classification.name().to_owned())
            .or_default() += 1;
        if let Classification::Failure { class, .. } = &classification {
            let route = call
                .route
                .clone()
                .unwrap_or_else(|| "(no route)".to_owned());
            *self
                .summary
                .by_route
                .entry(route)
                .or_default()
                .entry(class.column().to_owned())
                .or_default() += 1;
            if let FailureKind::RequestFailed(r) = class {
                *self
                    .summary
                    .request_failed
                    .entry(r.as_str().to_owned())
                    .or_default() += 1;
            }
            *self
                .summary
                .per_session
                .entry(call.session.clone())
                .or_default() += 1;
        }
        // Refused: the gate denied the call or its failure, or the human refused a failure put
        // to them (the tool result is the runtime's refusal either way).
        let text = call.result.as_ref().and_then(|r| r.text.as_deref());
        if classification.refused() && text.is_some_and(classify::is_error) {
            let what = match &classification {
                Classification::Failure { class, .. } => match class {
                    FailureKind::RequestFailed(r) => format!("request-failed ({})", r.as_str()),
                    c => c.column().to_owned(),
                },
                other => other.name().to_owned(),
            };
            self.runs
                .entry(call.session.clone())
                .or_insert_with(|| Streak::new(call.session.clone()))
                .push(StreakCall {
                    time: call.time.clone(),
                    tool: call.tool.clone(),
                    what,
                });
        } else if classification != Classification::Undecidable
            && let Some(run) = self.runs.remove(&call.session)
        {
            self.close(run);
        }
    }

    /// The clauses a re-decided call breaks under `profile`, each once with where its first
    /// difference shows; a call that breaks one is kept to freeze.
    fn keep(
        &mut self,
        call: &CallRecord,
        profile: Profile,
        r: redecide::Redecided,
    ) -> Vec<(String, String)> {
        let crate::runner::Verdict::Fail { differences } = &r.verdict else {
            return Vec::new();
        };
        let mut out: Vec<(String, String)> = Vec::new();
        for (d, clause) in differences
            .iter()
            .zip(crate::runner::violations::attributed_in_case(differences))
        {
            if !out.iter().any(|(c, _)| c == clause) {
                out.push((
                    clause.to_owned(),
                    format!("re-decided: {} at {}", d.severity, d.pointer),
                ));
            }
        }
        if !self.freezing {
            return out;
        }
        let found = crate::runner::generated::Counterexample {
            id: format!(
                "session {}{}",
                call.session,
                call.time
                    .as_deref()
                    .map(|t| format!(" at {t}"))
                    .unwrap_or_default()
            ),
            clauses: out.iter().map(|(c, _)| c.clone()).collect(),
            minimal: crate::scenario::session::Input::One(Box::new(r.scenario)),
            // The first difference is all a frozen case's title shows.
            verdict: crate::runner::Verdict::Fail {
                differences: differences.iter().take(1).cloned().collect(),
            },
            reference: crate::outcome::InputOutcome::One(Box::new(r.reference)),
            steps: 0,
        };
        let kept = self.frozen.entry(profile.to_string()).or_default();
        let json = found.minimal_json().to_string();
        if kept.seen.contains(&crate::ids::text_hash(&json)) {
            return out;
        }
        if kept.calls.len() < FROZEN && kept.bytes + json.len() <= FROZEN_BYTES {
            kept.seen.insert(crate::ids::text_hash(&json));
            kept.bytes += json.len();
            kept.calls.push(found);
        } else {
            kept.left_out += 1;
        }
        out
    }

    /// The re-decided calls that break a clause, by profile, as fixed-case files (`spec/cases`
    /// format, for `check --cases`): `(file name, text)`, one per profile that has any; none
    /// unless the audit is [`Audit::freezing`].
    pub fn frozen(&self) -> Vec<Frozen> {
        self.judging
            .iter()
            .filter_map(|&p| {
                let kept = self.frozen.get(&p.to_string())?;
                Some(Frozen {
                    file: format!("recorded-{p}.json"),
                    text: crate::runner::generated::frozen_file(
                        &kept.calls,
                        p,
                        crate::runner::generated::Origin::Recorded,
                    ),
                    calls: kept.calls.len(),
                    left_out: kept.left_out,
                })
            })
            .collect()
    }

    /// Ends a session's run of refused calls, keeping it as a streak when long enough.
    fn close(&mut self, run: Streak) {
        if run.length >= self.streak_at as u64 {
            self.summary.streak_count += 1;
            self.summary.streaks.push(run);
            if self.summary.streaks.len() >= 2 * KEPT {
                longest_first(&mut self.summary.streaks);
            }
        }
    }

    /// The summary, every open run closed.
    pub fn finish(mut self) -> Summary {
        let runs = std::mem::take(&mut self.runs);
        for run in runs.into_values() {
            self.close(run);
        }
        let mut summary = self.summary;
        longest_first(&mut summary.streaks);
        summary
    }
}

/// Sorts streaks longest first, earliest first among equals, and keeps the [`KEPT`] first.
fn longest_first(streaks: &mut Vec<Streak>) {
    streaks.sort_by(|a, b| {
        b.length
            .cmp(&a.length)
            .then(a.calls[0].time.cmp(&b.calls[0].time))
    });
    streaks.truncate(KEPT);
}

impl Summary {
    /// The failures counted.
    pub fn failures(&self) -> u64 {
        self.calls.get("failure").copied().unwrap_or(0)
    }

    /// The summary as the terminal shows it (`markdown`: as tables to paste into an issue).
    pub fn render(&self, markdown: bool) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let table = |out: &mut String, head: &[&str], rows: Vec<Vec<String>>| {
            if markdown {
                let _ = writeln!(out, "| {} |", head.join(" | "));
                let _ = writeln!(out, "|{}", "---|".repeat(head.len()));
                for r in rows {
                    let _ = writeln!(out, "| {} |", r.join(" | "));
                }
            } else {
                let widths: Vec<usize> = (0..head.len())
                    .map(|k| {
                        rows.iter()
                            .map(|r| r[k].chars().count())
                            .chain([head[k].len()])
                            .max()
                            .unwrap_or(0)
                    })
                    .collect();
                let line = |cells: Vec<&str>| {
                    cells
                        .iter()
                        .zip(&widths)
                        .map(|(c, w)| format!("{c:<w$}"))
                        .collect::<Vec<_>>()
                        .join("  ")
                        .trim_end()
                        .to_owned()
                };
                let _ = writeln!(out, "{}", line(head.to_vec()));
                for r in &rows {
                    let _ = writeln!(out, "{}", line(r.iter().map(String::as_str).collect()));
                }
            }
            out.push('\n');
        };
        let title = |out: &mut String, t: &str| {
            let _ = writeln!(out, "{}{t}\n", if markdown { "### " } else { "" });
        };
        let _ = writeln!(
            out,
            "{}audit, judged under {}: {} lines read, {} skipped; {} calls: {}\n",
            if markdown { "## " } else { "" },
            self.judged_under.join(" and "),
            self.lines,
            self.skipped_count,
            self.calls.values().sum::<u64>(),
            ["allowed", "asked", "denied", "failure", "undecidable"]
                .iter()
                .map(|k| format!("{} {k}", self.calls.get(*k).copied().unwrap_or(0)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = writeln!(
            out,
            "{} calls re-decided from the reviewer's recorded reply; the rest judged by what their record shows",
            self.redecided
        );
        for (why, n) in &self.not_redecided {
            let _ = writeln!(out, "{n} calls with a recorded reply not re-decided: {why}");
        }
        out.push('\n');
        for s in &self.skipped {
            let _ = writeln!(out, "skipped {}:{}: {}", s.file, s.line, s.why);
        }
        if !self.skipped.is_empty() {
            out.push('\n');
        }
        title(
            &mut out,
            &format!(
                "{} reviewer failures in {} sessions, by route and class",
                self.failures(),
                self.per_session.len()
            ),
        );
        let dash = |n: u64| {
            if n == 0 {
                "—".to_owned()
            } else {
                n.to_string()
            }
        };
        let mut head = vec!["route"];
        head.extend(FailureKind::COLUMNS);
        let mut rows: Vec<(u64, Vec<String>)> = self
            .by_route
            .iter()
            .map(|(route, counts)| {
                let total = counts.values().sum::<u64>();
                let mut row = vec![route.clone()];
                row.extend(
                    FailureKind::COLUMNS
                        .iter()
                        .map(|c| dash(counts.get(*c).copied().unwrap_or(0))),
                );
                (total, row)
            })
            .collect();
        rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1[0].cmp(&b.1[0])));
        table(&mut out, &head, rows.into_iter().map(|(_, r)| r).collect());
        if !self.request_failed.is_empty() {
            title(&mut out, "request failures by class");
            table(
                &mut out,
                &["class", "count"],
                RequestClass::ALL
                    .iter()
                    .filter_map(|c| {
                        self.request_failed
                            .get(c.as_str())
                            .map(|n| vec![c.as_str().to_owned(), n.to_string()])
                    })
                    .collect(),
            );
        }
        title(&mut out, "failures per session");
        let mut sessions: Vec<(&String, &u64)> = self.per_session.iter().collect();
        sessions.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        table(
            &mut out,
            &["session", "failures"],
            sessions
                .into_iter()
                .map(|(s, n)| vec![s.clone(), n.to_string()])
                .collect(),
        );
        for profile in &self.judged_under {
            let clauses = self.judged.get(profile);
            let total: u64 = clauses.map_or(0, |c| c.values().map(|j| j.calls).sum());
            title(
                &mut out,
                &format!("judged under the {profile} profile: {total} breaches of a clause"),
            );
            if let Some(clauses) = clauses {
                table(
                    &mut out,
                    &["clause", "calls", "what the profile says"],
                    clauses
                        .iter()
                        .map(|(c, j)| vec![c.clone(), j.calls.to_string(), j.why.clone()])
                        .collect(),
                );
            }
        }
        for (heading, list, count) in [
            ("streaks", &self.streaks, self.streak_count),
            ("escapes", &self.escapes, self.escape_count),
        ] {
            let shown = if count as usize > list.len() {
                format!("{heading}: {count} (the first {} shown)", list.len())
            } else {
                format!("{heading}: {count}")
            };
            title(&mut out, &shown);
            for s in list {
                let _ = writeln!(
                    out,
                    "{}{} refused calls in a row in session {}",
                    if markdown { "- " } else { "" },
                    s.length,
                    s.session
                );
                for c in &s.calls {
                    let _ = writeln!(
                        out,
                        "    {}  {}  {}",
                        c.time.as_deref().unwrap_or("-"),
                        c.tool,
                        c.what
                    );
                }
                if s.length > s.calls.len() as u64 {
                    let _ = writeln!(out, "    … and {} more", s.length - s.calls.len() as u64);
                }
                if let Some(e) = &s.escape {
                    let _ = writeln!(
                        out,
                        "    {}  escape to {}",
                        e.time.as_deref().unwrap_or("-"),
                        e.preset
                    );
                }
            }
            out.push('\n');
        }
        out
    }
}
