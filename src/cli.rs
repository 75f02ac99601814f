//! The `autoreview` command line: a thin shell that reads files and streams, calls the library and
//! prints. Nothing here decides anything.

use std::io::{BufRead, BufWriter, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};

use autoreview::conformance::Level;
use autoreview::profile::Profile;
use autoreview::report::{self, Color};
use autoreview::runner::check::InProcess;
use autoreview::runner::{self, Reference};
use autoreview::table::{Table, render};

/// The executable specification of Auto review: decide scenarios with the reference engine, print
/// the decision table, and check implementations against the fixed cases.
#[derive(Debug, Parser)]
#[command(name = "autoreview", version, about, long_about = None, after_help = "\
Examples:
  printf '%s\\n' '{\"tool\":{\"name\":\"pwsh\"},\"reviewer\":{\"text\":\"{\\\"risk\\\":\\\"high\\\",\\\"decision\\\":\\\"deny\\\"}\"}}' | autoreview decide
  echo 'I refuse. {\"risk\":\"high\",\"decision\":\"deny\"}' | autoreview parse --profile resilient
  autoreview table --format markdown
  autoreview check --profile baseline

The scenario and outcome formats are documented in spec/scenario.md; the rules in spec/auto-review.md.")]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Decide scenarios read as JSON lines on stdin; write one outcome line per scenario.
    ///
    /// A line is one call (spec/scenario.md), or a whole session when its object has `calls`:
    /// several calls with lifecycle events between them, answered with {"id", "calls": [...]},
    /// one outcome per item. For example:
    ///
    ///   printf '%s\n' '{"calls":[{"tool":{"name":"pwsh"},"reviewer":{"text":"oops"}},{"event":"dispose"}]}' | autoreview decide
    ///
    /// Each outcome is written as soon as its line is read, so `decide` can run as a co-process
    /// that answers one line at a time. Blank lines are skipped. A line that is not a valid scenario yields
    /// {"line": N, "error": "..."} on its output line instead of an outcome; the remaining lines
    /// are still decided, and the exit code is 1 at the end.
    Decide {
        /// The profile whose clauses apply.
        #[arg(long, value_parser = ByName::<Profile>::new(), default_value_t = autoreview::profile::DEFAULT)]
        profile: Profile,
        /// A profile of your own, read from FILE instead of --profile: a JSON file as
        /// spec/profiles/*.json (`autoreview profiles --json` shows the shipped ones' rules) that
        /// recombines existing rules, clauses and configuration, validated as the shipped ones are.
        /// It has no decision table: it runs the fixed cases whose clauses and rules it holds and the
        /// corpus of its reader, all judged against the reference engine under it.
        #[arg(long, value_name = "FILE", conflicts_with = "profile")]
        profile_file: Option<std::path::PathBuf>,
    },
    /// List the profiles, one per line: its name, a tab, what it is.
    ///
    /// With --json, one array of objects: each profile's `name`, `summary`, `clauses` (every clause
    /// it holds), `features` and `rules`: its reader, its rules and the configuration it reads,
    /// exactly as a runner's hello tells an adapter (spec/protocol.md, "Rules"). A script iterates
    /// over the names:
    ///
    ///   for p in $(autoreview profiles | cut -f1); do autoreview check --profile "$p" -- ...; done
    Profiles {
        /// One JSON array for tools.
        #[arg(long)]
        json: bool,
    },
    /// Trace a profile's requirements: each clause with its level (MUST, SHOULD, MAY or a
    /// definition), the fixed cases that exercise it (list it, or whose reference outcome rests on
    /// it), how many generated cases reach it, and the planted defects whose run leads with it
    /// (tests/planted.json).
    ///
    /// The first line counts the MUST clauses and how many have each kind of evidence. With
    /// --gaps, only the MUST clauses that lack one; with --json, the whole trace for tools.
    /// For example, what a new planted defect could close:
    ///
    ///   autoreview requirements --profile baseline --gaps
    Requirements {
        /// The profile.
        #[arg(long, value_parser = ByName::<Profile>::new(), default_value_t = autoreview::profile::DEFAULT)]
        profile: Profile,
        /// How many generated cases to draw for the reach (0: none).
        #[arg(long, value_name = "N", default_value_t = autoreview::requirements::GENERATED)]
        generated: usize,
        /// Their seed.
        #[arg(long, value_name = "S", default_value_t = autoreview::requirements::SEED)]
        seed: u64,
        /// Only the MUST clauses without a fixed case, generated reach or planted defect.
        #[arg(long, conflicts_with = "json")]
        gaps: bool,
        /// The whole trace as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Audit what a harness recorded: read audit records (spec/audit.md, one JSON line per tool
    /// call or preset change) and say what happened to each call, by the spec's templates —
    /// allowed, denied by the reviewer, asked, or refused because the review failed — telling a
    /// genuine failure (the tool result starts with the failure text) from a session that only
    /// quotes it. Prints the failures by route and class (tool-call markup, prose, request failed,
    /// schema, other), failures per session, streaks of refused calls with their times, and the
    /// escapes to full access or workspace-write right after them. A malformed line is reported
    /// with its file and line and skipped. For example, the field report's own figures:
    ///
    ///   autoreview audit spec/fixtures/audit/field-report.jsonl --markdown
    Audit {
        /// Audit logs, JSON lines, read gzip- or zstd-compressed when the name ends in `.gz`,
        /// `.zst` or `.zstd`; `-` for standard input (plain).
        #[arg(required = true, value_name = "LOG")]
        logs: Vec<String>,
        /// The profile the recorded calls are judged under, besides resilient.
        #[arg(long, value_parser = ByName::<Profile>::new(), default_value_t = Profile::BASELINE)]
        profile: Profile,
        /// Report streaks of at least this many refused calls in a row.
        #[arg(long, value_name = "N", default_value_t = 3, value_parser = at_least_one::<usize>)]
        streak: usize,
        /// The summary as one JSON object.
        #[arg(long, conflicts_with = "markdown")]
        json: bool,
        /// The summary as Markdown tables, to paste into an issue.
        #[arg(long)]
        markdown: bool,
        /// Write each re-decided call that breaks a clause as a fixed case, one file per profile
        /// judged under (DIR/recorded-<profile>.json): run them with `check --cases DIR`.
        #[arg(long, value_name = "DIR")]
        freeze: Option<String>,
        /// What the logs are: audit records, or dsh session logs (each LOG one session's
        /// session.v4.jsonl or .jsonl.zstd, read into records as spec/audit-dsh.md says).
        #[arg(long, value_enum, default_value_t = LogFormat::Records)]
        from: LogFormat,
    },
    /// Print a profile's decision table.
    Table {
        /// The profile.
        #[arg(long, value_parser = ByName::<Profile>::new(), default_value_t = autoreview::profile::DEFAULT)]
        profile: Profile,
        /// Markdown for people, JSON for tools.
        #[arg(long, value_enum, default_value_t = TableFormat::Markdown)]
        format: TableFormat,
    },
    /// Run every fixed case against an implementation and report, ending in the verdict the exit
    /// code gives: `PASS — N passed, N failed` (then cases not applicable to the implementation,
    /// expected failures and unexpected passes, if any) or `FAIL — …`.
    ///
    /// Without a command, the in-process reference engine is checked against each case's own
    /// expectation. With `-- <command> [args...]`, the command is started as an adapter speaking
    /// the protocol of spec/protocol.md, and its outcomes are compared with the reference engine's,
    /// each difference classified SAFETY, DECISION, ORDER, TEXT or INFO.
    ///
    /// Exit codes: 0 every case passed, or failed only as --expect lists; 1 an implementation
    /// failure; 2 the adapter cannot be started or speaks another protocol; 3 a usage or
    /// configuration error (bad option, unreadable --expect, unreadable or invalid --cases file,
    /// unwritable or empty output path, a `--` followed by no command), reported before any case
    /// runs; 4 the selection runs no case (a selector that names no case, a --cases argument with
    /// no case of the profile, nothing left to run, or only cases not applicable to the
    /// implementation).
    #[command(after_help = "\
Examples:
  autoreview check --profile baseline
  autoreview check --profile resilient --only AR-TOL-10 --only incidents   # cases citing a clause, an area
  autoreview check --profile resilient --only 'reviewer=failure' --skip 'RS-P*'   # a table feature, minus some IDs
  autoreview check --profile baseline -- node adapters/node/skeleton.js
  autoreview check --expect known-failures.json --junit report.xml --markdown \"$GITHUB_STEP_SUMMARY\" -- ./my-adapter
  autoreview check --write-expect known-failures.json -- ./my-adapter   # adopt the suite gradually
  autoreview check --generated 20000 --seed 7 -- ./my-adapter          # and generated scenarios, shrunk on a difference
  autoreview check --generated 200000 --seed 7 --shard 2/8 --no-fixed -- ./my-adapter   # one job of a CI matrix
  autoreview check --generated 5000 --freeze autoreview-cases -- ./my-adapter   # keep the counterexamples as fixed cases
  autoreview check --cases autoreview-cases -- ./my-adapter              # and run them with the suite's from then on
  autoreview check --implementation async-gate --generated 10000          # the async gate against the engine")]
    Check {
        /// The profile to check.
        #[arg(long, value_parser = ByName::<Profile>::new(), default_value_t = autoreview::profile::DEFAULT)]
        profile: Profile,
        /// A profile of your own, read from FILE instead of --profile: a JSON file as
        /// spec/profiles/*.json (`autoreview profiles --json` shows the shipped ones' rules) that
        /// recombines existing rules, clauses and configuration, validated as the shipped ones are.
        /// It has no decision table: it runs the fixed cases whose clauses and rules it holds and the
        /// corpus of its reader, all judged against the reference engine under it.
        #[arg(long, value_name = "FILE", conflicts_with = "profile")]
        profile_file: Option<std::path::PathBuf>,
        /// How to run and report.
        #[command(flatten)]
        run: Box<RunOptions>,
        /// The adapter command and its arguments (not run through a shell). A `--` must be
        /// followed by a command: `-- $ADAPTER` with the variable unset or empty is a usage
        /// error, never a check of the in-process engine.
        #[arg(last = true)]
        command: Option<Vec<String>>,
    },
    /// Serve the reference engine over the adapter protocol on stdin/stdout (spec/protocol.md).
    Serve {
        /// The profiles to offer in the handshake.
        #[arg(long, visible_alias = "profile", value_parser = ByName::<Profile>::new(), num_args = 1.., default_values_t = Profile::all())]
        profiles: Vec<Profile>,
        /// A profile of your own to offer besides them, read from FILE (as `check
        /// --profile-file`).
        #[arg(long, value_name = "FILE")]
        profile_file: Option<std::path::PathBuf>,
        /// Append audit records (spec/audit.md) of every input decided to FILE, each input's
        /// calls in session input-<seq>: read them back with `autoreview audit FILE`.
        #[arg(long, value_name = "FILE")]
        audit_log: Option<std::path::PathBuf>,
    },
    /// Check an adapter's wiring before blaming the implementation: the handshake, one call that
    /// must run and one that must be denied.
    ///
    /// Exit code 0 when the wiring works, 1 when a smoke case fails, 2 when the adapter cannot be
    /// started or speaks the wrong protocol, 3 on a usage error.
    Smoke {
        /// The profile to use.
        #[arg(long, value_parser = ByName::<Profile>::new(), default_value_t = autoreview::profile::DEFAULT)]
        profile: Profile,
        /// How long the reply to a smoke case may take, in milliseconds (at least 1). The smoke
        /// cases are small requests; a large one would be given `check`'s allowance per MiB on
        /// top (--timeout-ms-per-mib).
        #[arg(long, default_value_t = autoreview::runner::subprocess::TIMEOUT_MS, value_parser = at_least_one::<u64>)]
        timeout_ms: u64,
        /// The adapter command and its arguments.
        #[arg(last = true, required = true)]
        command: Vec<String>,
    },
    /// Read one reviewer reply on stdin with a profile's reader and print its verdict as one JSON
    /// line: {"ok": true, "risk", "decision", "reason"?} or {"ok": false, "error"}.
    ///
    /// Plain stdin is one text block with a normal stop; with --blocks, stdin is a JSON array of
    /// blocks as in the scenario contract. Exit code 0 for either verdict, 3 for unusable input.
    /// The resilient reader refuses text over 1 MiB (AR-TOL-3), so plain stdin is then read only
    /// to 1 MiB and one byte; the baseline reader has no bound and reads all of it.
    Parse {
        /// The profile whose reader applies (baseline: strict, resilient: tolerant).
        #[arg(long, value_parser = ByName::<Profile>::new(), default_value_t = autoreview::profile::DEFAULT)]
        profile: Profile,
        /// Read stdin as a JSON array of blocks, e.g. [{"type": "reasoning", "text": "..."}, {"type": "text", "text": "..."}].
        #[arg(long)]
        blocks: bool,
    },
    /// List the fixed cases with their permanent IDs and content hashes, and check them against
    /// spec/case-ids.json; with --lock, update that file.
    ///
    /// An ID is never reused. A case whose content changed under the same ID is an error until it
    /// gets a new ID (retire the old one) or the change is accepted explicitly.
    #[command(after_help = "\
Examples:
  autoreview cases                                   # list, and check the lock
  autoreview cases --lock                            # record new case IDs
  autoreview cases --lock --retire BL-1H=\"merged into BL-1\"
  autoreview cases --lock --accept RS-14             # the change keeps what RS-14 pins down")]
    Cases {
        /// Update spec/case-ids.json (run from the repository root): record new IDs.
        #[arg(long)]
        lock: bool,
        /// With --lock: take the new content hash of this ID (repeatable).
        #[arg(long, value_name = "ID", requires = "lock")]
        accept: Vec<String>,
        /// With --lock: retire an ID for good, with the reason (repeatable).
        #[arg(long, value_name = "ID=WHY", requires = "lock")]
        retire: Vec<String>,
    },
    /// Merge the JSON reports of several runs into one page: a column per implementation,
    /// version and profile (the shards of one run merged, checked complete and disjoint), a line
    /// per case under the spec's chapters, clauses and decision-table rows, and a conformance
    /// score per column.
    ///
    /// The HTML page is static and self-contained (inline CSS, no script, nothing fetched); each
    /// failure links to its differences, counterexample and repro lines. Exit code 0 when the
    /// files are written, 3 when a report cannot be read or the reports do not merge (the same
    /// run twice, a shard missing or given twice, a case in two shards).
    #[command(after_help = "\
Examples:
  autoreview check --profile resilient --report-json ref.json
  autoreview check --profile resilient --report-json gate.json -- node adapters/node/skeleton.js
  autoreview matrix ref.json gate.json --html matrix.html --markdown matrix.md --badges badges/
  autoreview matrix shard-1.json shard-2.json shard-3.json --html matrix.html   # one sharded run")]
    Matrix {
        /// JSON reports written by `check --report-json`.
        #[arg(required = true, value_name = "REPORT.json")]
        reports: Vec<String>,
        /// Write the HTML page to FILE.
        #[arg(long, value_name = "FILE")]
        html: Option<String>,
        /// Write the summary (chapters and clauses) as a Markdown table to FILE.
        #[arg(long, value_name = "FILE")]
        markdown: Option<String>,
        /// Write one SVG badge per implementation into DIR (created if missing).
        #[arg(long, value_name = "DIR")]
        badges: Option<String>,
    },
    /// Compare two JSON reports case by case: regressions (a case that passed or failed as
    /// listed in OLD and fails in NEW), new failures (a case OLD did not have that fails NEW: a
    /// generated case of another seed or beyond OLD's count, a fixed case OLD's suite lacked), new
    /// passes, changed worst severities and texts, cases added or removed.
    ///
    /// Exit code 0 without a regression or new failure, 1 with one (a new failure only without
    /// --allow-new-failures), 3 when a report cannot be read.
    #[command(after_help = "\
Examples:
  autoreview check --generated 2000 --seed 7 --report-json old.json -- ./adapter-v1
  autoreview check --generated 2000 --seed 7 --report-json new.json -- ./adapter-v2
  autoreview compare old.json new.json   # the same seed: each generated case is compared
  autoreview compare last-run.json this-run.json   # a seed per run: its generated failures are new failures")]
    Compare {
        /// The earlier report.
        #[arg(value_name = "OLD.json")]
        old: String,
        /// The later report.
        #[arg(value_name = "NEW.json")]
        new: String,
        /// Exit 0 on new failures: fail only on regressions (new failures are still listed).
        #[arg(long)]
        allow_new_failures: bool,
    },
    /// Print the JSON Schema of a format of the contract, or all of them as TypeScript.
    Schema {
        /// Which format.
        #[arg(value_enum, required_unless_present = "typescript")]
        which: Option<SchemaKind>,
        /// Print every format as TypeScript declarations instead (what
        /// adapters/node/types/contract.d.ts holds).
        #[arg(long, conflicts_with = "which")]
        typescript: bool,
    },
}

/// Output formats of `table`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// Markdown, as committed under spec/decision-table/.
    Markdown,
    /// Normalized JSON.
    Json,
}

/// Schemas `schema` can print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaKind {
    /// The scenario format.
    Scenario,
    /// The session scenario format.
    Session,
    /// The outcome format.
    Outcome,
    /// The adapter protocol's messages.
    Protocol,
    /// The JSON report `check --report-json` writes.
    Report,
    /// A line of an audit log (spec/audit.md).
    Audit,
}

impl SchemaKind {
    /// The library's name for the format.
    pub fn format(self) -> autoreview::schema::Format {
        match self {
            SchemaKind::Scenario => autoreview::schema::Format::Scenario,
            SchemaKind::Session => autoreview::schema::Format::Session,
            SchemaKind::Outcome => autoreview::schema::Format::Outcome,
            SchemaKind::Protocol => autoreview::schema::Format::Protocol,
            SchemaKind::Report => autoreview::schema::Format::Report,
            SchemaKind::Audit => autoreview::schema::Format::Audit,
        }
    }
}

/// How `check` runs and reports.
#[derive(Debug, Clone, clap::Args)]
pub struct RunOptions {
    /// How long the reply to a small request may take, in milliseconds (at least 1), counted
    /// from when the runner starts writing the request. A case without a reply by then is a
    /// `timeout`, never a pass; the adapter is restarted.
    #[arg(long, default_value_t = autoreview::runner::subprocess::TIMEOUT_MS, value_parser = at_least_one::<u64>)]
    pub timeout_ms: u64,
    /// What each MiB of a request adds to --timeout-ms, in milliseconds, in proportion (a
    /// 512 KiB reviewer text adds half): a gate's time grows with the text it reads. The default
    /// is measured: spec/protocol.md, "Time.". 0 gives every case --timeout-ms alone.
    #[arg(long, value_name = "MS", default_value_t = autoreview::runner::subprocess::TIMEOUT_MS_PER_MIB)]
    pub timeout_ms_per_mib: u64,
    /// The longest reply line, in bytes (at least 1).
    #[arg(long, default_value_t = 1 << 20, value_parser = at_least_one::<usize>)]
    pub max_reply_bytes: usize,
    /// How many times the adapter may be restarted after crashes, timeouts or garbage.
    #[arg(long, default_value_t = 5)]
    pub max_restarts: u32,
    /// A file of known failures ({"version": 1, "failures": {"CASE-ID": "reason"}}); listed
    /// cases that fail do not fail the run. With "version": 2 an entry may be {"reason", "link",
    /// "clause"}: it then excuses only the differences attributed to that clause, and the rest of
    /// the case is still judged.
    #[arg(long, value_name = "FILE")]
    pub expect: Option<String>,
    /// The conformance level to judge at (spec/protocol.md, "Conformance levels"): each level
    /// compares everything the one before it does, and more. A case passes at a level when no
    /// difference counts there; a body run where the reference ran none counts at every level.
    #[arg(long, value_parser = ByName::<Level>::new(), default_value_t = Level::Full)]
    pub level: Level,
    /// The implementation's own wording of the spec's templates: a file
    /// {"version": 1, "templates": {"MSG-...": "text"}}, each text with the template's
    /// <placeholders>. The reference's texts are then rendered with these templates (same
    /// situation, the implementation's words); templates it leaves out keep the spec's. Checked
    /// before any case runs; spec/protocol.md, "Messages".
    #[arg(long, value_name = "FILE")]
    pub messages: Option<String>,
    /// Fail the run when a listed case passes, or a listed ID names no case of the run (no fixed
    /// case of the profile, no generated case the seed and count draw). A listed case that
    /// --only, --skip, --no-fixed or --shard leave out is not judged.
    #[arg(long)]
    pub strict: bool,
    /// Fail the run unless it judged at least PERCENT (0 to 100, e.g. 80 or 62.5%) of the
    /// profile's MUST clauses: a clause is judged when a case put to the implementation cites it
    /// (a case not applicable judges nothing). Every report states the share; the failure lists
    /// the clauses left unjudged. docs/02-reading-a-report.md, "What a run covered".
    #[arg(long, value_name = "PERCENT", value_parser = autoreview::runner::coverage::Percent::parse)]
    pub require_coverage: Option<autoreview::runner::coverage::Percent>,
    /// Write the run's failures as an expectation file (keeping reasons already in --expect, and
    /// its entries for cases this run left out: another shard, outside the selection).
    #[arg(long, value_name = "FILE")]
    pub write_expect: Option<String>,
    /// Write the versioned JSON report (spec/report.schema.json): every result in full with its
    /// duration, the run's start, duration, protocol version and command line, and its plan
    /// (selection, shard, seed, generated count, implementation, oracle).
    #[arg(long, value_name = "FILE")]
    pub report_json: Option<String>,
    /// Write audit records (spec/audit.md) of what the implementation did: one JSON line per call
    /// of every input it decided (each input its own session, `input-N`), to read back with
    /// `autoreview audit FILE`. Inputs a shrink decides again are recorded too.
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<String>,
    /// Write JUnit XML: one test suite per area, times, the run's start, and profile,
    /// implementation, protocol version and seed as properties.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<String>,
    /// Append a Markdown summary to FILE, creating it if needed (e.g. $GITHUB_STEP_SUMMARY).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<String>,
    /// Only run the fixed cases this names (repeatable): a case ID (`RS-7`), an area
    /// (`incidents`), a clause ID (`AR-SCOPE-1`: every case that cites it), each with `*` as a
    /// wildcard (`BL-P*`), or a decision-table feature (`reviewer=failure`,
    /// `effective=never|ask`, `listed=false`). A selector that names no case is an error.
    #[arg(long, value_name = "SELECTOR", conflicts_with = "no_fixed")]
    pub only: Vec<String>,
    /// Leave out the fixed cases this names (repeatable; the same forms as --only).
    #[arg(long, value_name = "SELECTOR", conflicts_with = "no_fixed")]
    pub skip: Vec<String>,
    /// Also run the fixed cases of a case file, or of every *.json file in a directory, in the
    /// format of spec/cases (repeatable): e.g. counterexamples kept with --freeze. They run after
    /// the suite's own, --only/--skip/--shard select among all, and each needs a permanent ID of
    /// its own (not one of the suite's, of another file given, or GEN-…).
    #[arg(long, value_name = "FILE|DIR", conflicts_with = "no_fixed")]
    pub cases: Vec<String>,
    /// Also run N generated scenarios, compared with the reference engine; differences are shrunk
    /// to minimal scenarios.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub generated: usize,
    /// The seed of the generated scenarios (default: a new one, printed so the run can be
    /// repeated).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Run only the generated scenarios, not the fixed cases.
    #[arg(long, requires = "generated")]
    pub no_fixed: bool,
    /// Run one shard of the cases, i of n (1-based): the same seed gives disjoint shards whose
    /// union is the whole run, for a CI matrix.
    #[arg(long, value_name = "I/N", value_parser = autoreview::runner::shard::Shard::parse)]
    pub shard: Option<autoreview::runner::shard::Shard>,
    /// At most this many violated clauses get a counterexample: for each, the first generated
    /// case that breaks it (else the first fixed case) is shrunk while that clause stays violated.
    /// Differences that name no clause, and cases without an outcome, get one per kind of
    /// difference, within the same limit. Clauses broken at SAFETY have a limit of their own.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub max_counterexamples: usize,
    /// Try at most this many smaller scenarios per counterexample (each asks the implementation).
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub shrink_steps: u32,
    /// Write the shrunk counterexamples, calls and sessions, as fixed cases with permanent IDs
    /// derived from their scenario (GX-…) to DIR/generated-<seed>-<profile>.json; commit the file
    /// and run it with `--cases DIR` (in this repository: DIR = spec/cases, then `autoreview cases
    /// --lock`).
    #[arg(long, value_name = "DIR")]
    pub freeze: Option<String>,
    /// When to colour the terminal report: removed words red and added ones green (without colour:
    /// [-removed-]{+added+}).
    #[arg(long, value_parser = ByName::<Color>::new(), value_name = "WHEN", default_value_t = Color::Auto)]
    pub color: Color,
    /// Without an adapter command: which in-process implementation to check. `engine` is checked
    /// against each case's own expectation; `async-gate` against the engine, case by case.
    #[arg(long, value_parser = ByName::<InProcess>::new(), default_value_t = InProcess::Engine)]
    pub implementation: InProcess,
}

/// Reads a limit that must be at least 1: a zero timeout or reply size would fail every case
/// before the adapter could answer, which reads as the adapter's fault.
fn at_least_one<T: std::str::FromStr + PartialEq + From<u8>>(text: &str) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(n) if n == T::from(0) => Err("the minimum is 1".to_owned()),
        Ok(n) => Ok(n),
        Err(_) => Err("expected a whole number, at least 1".to_owned()),
    }
}

/// A library type the command line names by a wire name: its possible values, and their help
/// lines in `--help`, come from the type itself, so the library needs no command-line types.
trait Named: Copy + Send + Sync + 'static {
    /// Every value, in the order `--help` lists them.
    fn all() -> Vec<Self>;
    /// The value's name on the command line.
    fn name(self) -> &'static str;
    /// What the value means, in one line.
    fn summary(self) -> &'static str;
}

/// [`Named`] for library types that list their values in `ALL` and name and describe each with
/// `as_str` and `summary`.
macro_rules! named {
    ($($t:ty),*) => {$(
        impl Named for $t {
            fn all() -> Vec<Self> {
                <$t>::ALL.to_vec()
            }
            fn name(self) -> &'static str {
                self.as_str()
            }
            fn summary(self) -> &'static str {
                <$t>::summary(self)
            }
        }
    )*};
}

named!(InProcess, Color, Level);

/// Profiles are the files under `spec/profiles/`: `--help` lists each file's name and summary.
impl Named for Profile {
    fn all() -> Vec<Self> {
        Profile::all()
    }
    fn name(self) -> &'static str {
        self.as_str()
    }
    fn summary(self) -> &'static str {
        Profile::summary(self)
    }
}

/// Reads a [`Named`] value by its name, as `clap`'s own enums are read.
#[derive(Clone)]
struct ByName<T>(std::marker::PhantomData<T>);

impl<T> ByName<T> {
    fn new() -> ByName<T> {
        ByName(std::marker::PhantomData)
    }
}

impl<T: Named> clap::builder::TypedValueParser for ByName<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let names =
            clap::builder::PossibleValuesParser::new(T::all().into_iter().map(|v| v.name()));
        let name = names.parse_ref(cmd, arg, value)?;
        Ok(T::all()
            .into_iter()
            .find(|v| v.name() == name)
            .expect("the parser accepts only the names of values"))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(T::all().into_iter().map(|v| {
            clap::builder::PossibleValue::new(v.name()).help(v.summary())
        })))
    }
}

/// The process exit codes, each distinct so that CI can tell them apart.
pub mod exit {
    /// Every case passed, or failed only as `--expect` lists.
    pub const PASSED: u8 = 0;
    /// An implementation failed a case.
    pub const FAILED: u8 = 1;
    /// The adapter cannot be started or speaks another protocol.
    pub const ADAPTER_UNUSABLE: u8 = 2;
    /// A usage, configuration or input error: a bad option, an unreadable or invalid input file, an
    /// unwritable output path. Reported before any case runs.
    pub const USAGE: u8 = 3;
    /// The selection runs no case: a `--only`/`--skip` selector names no case, a `--cases`
    /// argument holds no case of the profile, the selection
    /// (`--only`, `--skip`, `--no-fixed`, `--generated`, `--shard`) leaves nothing to run, or
    /// every selected case is not applicable to the implementation.
    pub const NOTHING_RUN: u8 = 4;
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // clap reads `check --` with nothing after it as no command at all; the `--` itself says an
    // adapter was meant.
    let separator = args.iter().skip(1).any(|a| a == "--");
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version are answers, not errors; everything else clap refuses is usage.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(exit::USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli, separator) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("autoreview: {e:#}");
            ExitCode::from(exit::USAGE)
        }
    }
}

fn run(cli: Cli, separator: bool) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Decide {
            profile,
            profile_file,
        } => decide(chosen(profile, profile_file.as_deref())?),
        Command::Profiles { json } => {
            print_all(&profiles_listing(json))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Requirements {
            profile,
            generated,
            seed,
            gaps,
            json,
        } => {
            let trace = autoreview::requirements::trace(profile, generated, seed)?;
            let text = if json {
                let mut t = serde_json::to_string_pretty(&trace).expect("a trace is JSON");
                t.push('\n');
                t
            } else {
                trace.render(gaps)
            };
            print_all(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Audit {
            logs,
            profile,
            streak,
            json,
            markdown,
            freeze,
            from,
        } => audit(
            &logs,
            profile,
            streak,
            json,
            markdown,
            freeze.as_deref(),
            from,
        ),
        Command::Table { profile, format } => {
            let table = Table::load(profile)?;
            let text = match format {
                TableFormat::Markdown => render::markdown(&table),
                TableFormat::Json => render::json(&table),
            };
            print_all(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Check {
            profile,
            profile_file,
            run,
            command,
        } => {
            let profile = chosen(profile, profile_file.as_deref())?;
            let command = match command {
                None if !separator => Vec::new(),
                command => adapter_command("check", command.unwrap_or_default())?,
            };
            check(profile, &run, command)
        }
        Command::Serve {
            mut profiles,
            profile_file,
            audit_log,
        } => {
            if let Some(file) = profile_file {
                profiles.push(load_profile(&file)?);
            }
            // Large reads: a scenario can carry megabytes of reviewer text, and the pipe is
            // drained fastest in big chunks.
            let stdin = std::io::BufReader::with_capacity(1 << 20, std::io::stdin().lock());
            // One write per reply: serve flushes after each line, and the default line-buffered
            // stdout would otherwise split a long outcome into several pipe writes.
            let stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            let mut audit = match &audit_log {
                Some(path) => Some(std::io::BufWriter::new(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(path)
                        .map_err(|e| {
                            anyhow::anyhow!(
                                "--audit-log {}: {e}; give a path a file can be written at",
                                path.display()
                            )
                        })?,
                )),
                None => None,
            };
            autoreview::protocol::serve(
                stdin,
                stdout,
                std::io::stderr(),
                &profiles,
                audit.as_mut().map(|w| w as &mut dyn std::io::Write),
            )
            .context("serving")?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Smoke {
            profile,
            timeout_ms,
            command,
        } => smoke(profile, timeout_ms, adapter_command("smoke", command)?),
        Command::Parse { profile, blocks } => parse(profile, blocks),
        Command::Cases {
            lock,
            accept,
            retire,
        } => cases(lock, &accept, &retire),
        Command::Matrix {
            reports,
            html,
            markdown,
            badges,
        } => matrix(&reports, html, markdown, badges),
        Command::Compare {
            old,
            new,
            allow_new_failures,
        } => compare(&old, &new, allow_new_failures),
        Command::Schema { which, typescript } => {
            let text = match which {
                Some(which) if !typescript => autoreview::schema::text(which.format()),
                _ => autoreview::typescript::declarations()
                    .context("translating the schemas to TypeScript")?,
            };
            print_all(&text)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The adapter command after `--`, refused when it is missing or its program is empty: in CI that
/// is an unset or misspelt variable (`-- $ADAPTER`), and checking something else instead would be
/// a green run that checked nothing.
fn adapter_command(subcommand: &str, command: Vec<String>) -> anyhow::Result<Vec<String>> {
    match command.first() {
        None => anyhow::bail!(
            "`{subcommand} --` is followed by no command: is the variable that names the adapter \
             unset or empty (`-- $ADAPTER`)? Give the adapter's command after `--`, or leave out \
             `--` to check the in-process implementation"
        ),
        Some(program) if program.trim().is_empty() => anyhow::bail!(
            "`{subcommand} -- {}`: the adapter's program is empty: is the variable that names it \
             unset or empty (`-- $ADAPTER`)? Give the adapter's command after `--`, as separate \
             words",
            command
                .iter()
                .map(|a| autoreview::runner::quote::shell_quote(a))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Some(_) => Ok(command),
    }
}

fn print_all(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // The reader stopped reading (`| head`): what it wanted it has, and nobody reads an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        written => written.context("writing to stdout"),
    }
}

/// `check`: the fixed cases against the reference or an adapter.
fn check(profile: Profile, run: &RunOptions, command: Vec<String>) -> anyhow::Result<ExitCode> {
    use autoreview::runner::{check, known_failures::Expected, select, subprocess};
    // Everything that can be wrong with the command line or its files is found before any case
    // runs (exit code 3 through the error), so a long run never ends in a configuration error.
    let expected = match &run.expect {
        None => Expected::none(),
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| {
                format!(
                    "reading --expect {path} (to create it, run once with --write-expect {path})"
                )
            })?;
            Expected::parse(path, &text)?
        }
    };
    let messages = match &run.messages {
        None => None,
        Some(path) => {
            if command.is_empty() && run.implementation == check::InProcess::Engine {
                anyhow::bail!(
                    "--messages words the texts of an implementation the reference is compared with; \
                     the engine is checked against the cases' own expectations: name an adapter \
                     (-- COMMAND) or --implementation async-gate"
                );
            }
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading --messages {path}"))?;
            let wording = autoreview::messages::Wording::parse(&text)
                .with_context(|| format!("--messages {path}"))?;
            Some(check::MessagesFile {
                path: path.clone(),
                wording,
            })
        }
    };
    for (flag, path) in [
        ("--report-json", &run.report_json),
        ("--junit", &run.junit),
        ("--markdown", &run.markdown),
        ("--write-expect", &run.write_expect),
    ] {
        if let Some(path) = path {
            writable_file(flag, path)?;
        }
    }
    if let Some(dir) = &run.freeze {
        writable_dir("--freeze", dir)?;
    }
    let parse_all = |raw: &[String]| {
        raw.iter()
            .map(|r| select::Selector::parse(r))
            .collect::<Result<Vec<_>, _>>()
    };
    let (only, skip) = match parse_all(&run.only).and_then(|o| Ok((o, parse_all(&run.skip)?))) {
        Ok(both) => both,
        // A condition no case can meet is a typo, as an ID that names no case is.
        Err(e) => {
            eprintln!("autoreview check: {e}");
            return Ok(ExitCode::from(exit::NOTHING_RUN));
        }
    };
    let seed = run.seed.unwrap_or_else(fresh_seed);
    let mut all = autoreview::cases::all(profile)?;
    // The user's case files, read and checked before any case runs; each argument must bring a
    // case of this profile, as a selector must name one.
    let case_files = run
        .cases
        .iter()
        .map(|arg| Ok((arg, case_files(arg)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let texts: Vec<(String, String)> = case_files
        .iter()
        .flat_map(|(_, files)| files.iter().cloned())
        .collect();
    let mut loaded = autoreview::cases::user_cases(&texts, profile)?.into_iter();
    for (arg, files) in &case_files {
        let cases: Vec<_> = loaded.by_ref().take(files.len()).flatten().collect();
        if cases.is_empty() {
            eprintln!(
                "autoreview check: --cases {arg}: no case of the {profile} profile (a case runs under the profiles that hold its clauses and rules, or those its `profiles` lists)"
            );
            return Ok(ExitCode::from(exit::NOTHING_RUN));
        }
        all.extend(cases);
    }
    if !profile.is_shipped() {
        if command.is_empty() && run.implementation == check::InProcess::Engine {
            anyhow::bail!(
                "--profile-file: the reference engine is checked against each case's own expectation, written for the shipped profiles; under {profile}, loaded from a file, check an implementation against the engine instead (-- <adapter command>, or --implementation async-gate)"
            );
        }
        eprintln!(
            "autoreview check: {profile} is loaded from a file: it has no decision table, so no table rows run; its {} fixed cases are the case files' whose cited clauses and rules it holds and the corpus entries of its reader, each judged against the reference engine under {profile}",
            all.len()
        );
    }
    let target = if command.is_empty() {
        check::Target::InProcess(run.implementation)
    } else {
        check::Target::Adapter(command.clone())
    };
    let request = check::Request {
        profile,
        fixed: all,
        only,
        skip,
        no_fixed: run.no_fixed,
        shard: run.shard,
        generated: run.generated,
        seed,
        max_counterexamples: run.max_counterexamples,
        shrink_steps: run.shrink_steps,
        expected,
        level: run.level,
        messages,
        target,
        argv: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        require_coverage: run.require_coverage,
    };
    let plan = match check::Plan::new(request) {
        Ok(plan) => plan,
        Err(
            e @ (check::PlanError::NothingToRun(_)
            | check::PlanError::Select(select::SelectError::MatchesNothing { .. })),
        ) => {
            eprintln!("autoreview check: {e}");
            return Ok(ExitCode::from(exit::NOTHING_RUN));
        }
        Err(e) => return Err(e.into()),
    };
    let mut progress = progress_bar();
    let mut imp: Box<dyn runner::Implementation> = match &plan.request().target {
        check::Target::InProcess(check::InProcess::Engine) => Box::new(Reference),
        check::Target::InProcess(check::InProcess::AsyncGate) => Box::new(
            runner::AsyncGate::new()?.worded(
                plan.request()
                    .messages
                    .as_ref()
                    .map(|m| m.wording.clone())
                    .unwrap_or_default(),
            ),
        ),
        check::Target::Adapter(command) => {
            let limits = subprocess::Limits {
                timeout: std::time::Duration::from_millis(run.timeout_ms),
                timeout_per_mib: std::time::Duration::from_millis(run.timeout_ms_per_mib),
                max_reply_bytes: run.max_reply_bytes,
                max_restarts: run.max_restarts,
                ..subprocess::Limits::default()
            };
            match subprocess::Subprocess::start(command.clone(), profile, limits) {
                Ok(imp) => Box::new(imp),
                Err(e) => {
                    eprintln!("autoreview: {e}");
                    return Ok(ExitCode::from(exit::ADAPTER_UNUSABLE));
                }
            }
        }
    };
    if let Some(path) = &run.audit_log {
        let file = std::fs::File::create(path).map_err(|e| {
            anyhow::anyhow!("--audit-log {path}: {e}; give a path a file can be written at")
        })?;
        imp = Box::new(Recording {
            inner: imp,
            out: std::io::BufWriter::new(file),
            inputs: 0,
        });
    }
    let check::Checked {
        report,
        generated,
        scope,
    } = check::check(&plan, imp.as_mut(), &mut progress);
    let expected = &plan.request().expected;
    if let Some(found) = &generated {
        println!(
            "generated: seed {seed}, shard {} (repeat with --generated {} --seed {seed}{})",
            plan.shard(),
            run.generated,
            run.shard
                .map(|s| format!(" --shard {s}"))
                .unwrap_or_default()
        );
        print!("{}", found.distribution);
        for f in &found.found {
            print!("{f}");
        }
        if let (Some(dir), Some(frozen)) = (&run.freeze, &found.frozen) {
            let path = std::path::Path::new(dir).join(&frozen.file);
            std::fs::write(&path, &frozen.text)
                .with_context(|| format!("writing {}", path.display()))?;
            println!(
                "froze {} counterexamples and {} session counterexamples in {} (run them with --cases {dir})",
                frozen.calls,
                frozen.sessions,
                path.display()
            );
        }
    }
    // Each report is rendered only when asked for: a million generated results make large ones.
    let write = |path: &Option<String>, text: &dyn Fn() -> anyhow::Result<String>| {
        if let Some(p) = path {
            std::fs::write(p, text()?).with_context(|| format!("writing {p}"))?;
        }
        anyhow::Ok(())
    };
    write(&run.report_json, &|| Ok(report::json(&report, run.strict)))?;
    write(&run.junit, &|| Ok(report::junit(&report, run.strict)?))?;
    if let Some(p) = &run.markdown {
        let text = report::markdown(&report, run.strict);
        report::append_markdown(p.as_ref(), &text).with_context(|| format!("appending to {p}"))?;
    }
    write(&run.write_expect, &|| {
        Ok(Expected::from_report(&report, expected, &scope).to_text())
    })?;
    let color = run.color.enabled(
        std::io::IsTerminal::is_terminal(&std::io::stdout()),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    print_all(&report::text(&report, run.strict, color))?;
    if report.ran() == 0 {
        eprintln!(
            "autoreview check: the run has no case: every selected case needs what the implementation does not observe (not applicable)"
        );
        return Ok(ExitCode::from(exit::NOTHING_RUN));
    }
    if let Some(why) = report.coverage().shortfall() {
        eprintln!("autoreview check: {why}");
    }
    Ok(if report.succeeded(run.strict) {
        ExitCode::from(exit::PASSED)
    } else {
        ExitCode::from(exit::FAILED)
    })
}

/// The case files `--cases` names, each `(path, text)`: the file itself, or every `*.json` file of
/// a directory in name order. An unreadable file, or a directory without one, is a usage error.
fn case_files(arg: &str) -> anyhow::Result<Vec<(String, String)>> {
    not_empty("--cases", arg)?;
    let p = std::path::Path::new(arg);
    let paths = if p.is_dir() {
        let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(p)
            .with_context(|| format!("--cases {arg}: the directory cannot be read"))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        if paths.is_empty() {
            anyhow::bail!(
                "--cases {arg}: the directory holds no *.json case file (write some with --freeze {arg})"
            );
        }
        paths
    } else {
        vec![p.to_path_buf()]
    };
    paths
        .into_iter()
        .map(|f| {
            let name = f.display().to_string();
            let text = std::fs::read_to_string(&f)
                .with_context(|| format!("--cases {arg}: cannot read {name}"))?;
            Ok((name, text))
        })
        .collect()
}

/// Checks, before any case runs, that `path` can be written: an existing file is opened for
/// appending (nothing is written), a missing one is created and removed again.
fn writable_file(flag: &str, path: &str) -> anyhow::Result<()> {
    not_empty(flag, path)?;
    let p = std::path::Path::new(path);
    if p.is_dir() {
        anyhow::bail!("{flag} {path}: is a directory; give a file path");
    }
    let existed = p.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(p)
        .with_context(|| format!("{flag} {path}: cannot be written"))?;
    if !existed {
        std::fs::remove_file(p).with_context(|| format!("{flag} {path}: cannot be written"))?;
    }
    Ok(())
}

/// Refuses an empty path, which is what an unset variable gives (`--markdown "$GITHUB_STEP_SUMMARY"`
/// outside GitHub Actions), saying so rather than that "" cannot be written.
fn not_empty(flag: &str, path: &str) -> anyhow::Result<()> {
    if path.is_empty() {
        anyhow::bail!(
            "{flag} was given an empty path: is the variable that names it unset or empty \
             (`$GITHUB_STEP_SUMMARY` is set only inside GitHub Actions)? Give a path, or a \
             default: \"${{GITHUB_STEP_SUMMARY:-autoreview-summary.md}}\""
        );
    }
    Ok(())
}

/// Checks, before any case runs, that `dir` is a directory a file can be written in.
fn writable_dir(flag: &str, dir: &str) -> anyhow::Result<()> {
    not_empty(flag, dir)?;
    let d = std::path::Path::new(dir);
    if !d.is_dir() {
        anyhow::bail!("{flag} {dir}: is not an existing directory");
    }
    let probe = d.join(format!(".autoreview-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").with_context(|| format!("{flag} {dir}: cannot be written in"))?;
    std::fs::remove_file(&probe).with_context(|| format!("{flag} {dir}: cannot be written in"))
}

/// A seed for a run that was not given one.
fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
}

/// A progress bar on stderr when it is a terminal; nothing otherwise.
fn progress_bar() -> impl FnMut(usize, usize) {
    use std::io::IsTerminal as _;
    let tty = std::io::stderr().is_terminal();
    move |done, total| {
        if !tty || total == 0 {
            return;
        }
        if done % 16 == 0 || done == total {
            let width = 30;
            let filled = done * width / total;
            eprint!(
                "\r[{}{}] {done}/{total}",
                "#".repeat(filled),
                ".".repeat(width - filled)
            );
            if done == total {
                eprint!("\r{}\r", " ".repeat(width + 24));
            }
        }
    }
}

/// Reads and parses a JSON report; the error names the file.
fn read_report(path: &str) -> anyhow::Result<autoreview::report::matrix::RunReport> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    autoreview::report::matrix::RunReport::parse(&text).with_context(|| path.to_owned())
}

/// `matrix`: reports merged into a page, a Markdown table and badges.
fn matrix(
    paths: &[String],
    html: Option<String>,
    markdown: Option<String>,
    badges: Option<String>,
) -> anyhow::Result<ExitCode> {
    use autoreview::report::matrix;
    if html.is_none() && markdown.is_none() && badges.is_none() {
        anyhow::bail!("nothing to write: give --html FILE, --markdown FILE or --badges DIR");
    }
    let reports = paths
        .iter()
        .map(|p| Ok((p.clone(), read_report(p)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let m = matrix::build(&reports)?;
    let mut written = Vec::new();
    if let Some(p) = &html {
        std::fs::write(p, matrix::html::render(&m)).with_context(|| format!("writing {p}"))?;
        written.push(p.clone());
    }
    if let Some(p) = &markdown {
        std::fs::write(p, matrix::markdown::render(&m)).with_context(|| format!("writing {p}"))?;
        written.push(p.clone());
    }
    if let Some(dir) = &badges {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {dir}"))?;
        for b in matrix::badge::badges(&m) {
            let p = std::path::Path::new(dir).join(&b.file);
            std::fs::write(&p, &b.svg).with_context(|| format!("writing {}", p.display()))?;
            written.push(p.display().to_string());
        }
    }
    let mut out = String::new();
    for c in &m.columns {
        out.push_str(&format!(
            "{}: {} ({} passed, {} failed, {} not applicable; {})\n",
            runner::worddiff::visible(&c.label),
            c.score.percent(),
            c.score.passed,
            c.score.failed,
            c.score.not_applicable,
            runner::worddiff::visible(&c.sources.join(", "))
        ));
    }
    out.push_str(&format!("wrote {}\n", written.join(", ")));
    print_all(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// `compare`: two reports case by case; exit code 1 on a regression, or on a new failure unless
/// they are allowed.
fn compare(old: &str, new: &str, allow_new_failures: bool) -> anyhow::Result<ExitCode> {
    use autoreview::report::matrix::regress;
    let (o, n) = (read_report(old)?, read_report(new)?);
    let changes = regress::compare(&o, &n);
    print_all(&regress::text(
        &o,
        &n,
        (old, new),
        &changes,
        allow_new_failures,
    ))?;
    Ok(if changes.fails(allow_new_failures) {
        ExitCode::from(exit::FAILED)
    } else {
        ExitCode::SUCCESS
    })
}

/// `smoke`: the handshake, one call that must run, one that must be denied.
fn smoke(profile: Profile, timeout_ms: u64, command: Vec<String>) -> anyhow::Result<ExitCode> {
    use autoreview::runner::{Implementation as _, Oracle, subprocess};
    // Each smoke call is judged on its own: one that breaks the adapter is restarted from.
    let limits = subprocess::Limits {
        timeout: std::time::Duration::from_millis(timeout_ms),
        max_restarts: autoreview::cases::smoke_cases().len() as u32,
        ..subprocess::Limits::default()
    };
    let mut imp = match subprocess::Subprocess::start(command, profile, limits) {
        Ok(imp) => imp,
        Err(e) => {
            eprintln!("autoreview smoke: {e}");
            return Ok(ExitCode::from(exit::ADAPTER_UNUSABLE));
        }
    };
    println!("handshake: ok — {}", imp.describe());
    let expected = runner::known_failures::Expected::none();
    // Smoke checks the wiring: what the world and the human experience, not the words.
    let mut judge = runner::Judge::new(&mut imp, profile, &expected).at(Level::Effects);
    let mut ok = true;
    for case in autoreview::cases::smoke_cases() {
        // A call its framework cannot express (a denial without a reason) is not asked.
        let result = judge.case(&case, None, Oracle::Reference, None, None);
        let verdict = match &result.verdict {
            runner::Verdict::NotApplicable { missing } => {
                let names: Vec<&str> = missing.iter().map(|n| n.as_str()).collect();
                println!(
                    "{}: not applicable (needs {})",
                    result.title,
                    names.join(", ")
                );
                continue;
            }
            runner::Verdict::Broken { error } => {
                format!("{}: {}", error.kind.as_str(), error.message)
            }
            runner::Verdict::Pass => "ok".into(),
            v => format!("differs: {}", serde_json::to_string(v).unwrap_or_default()),
        };
        if verdict != "ok" {
            ok = false;
        }
        println!("{}: {verdict}", result.title);
    }
    println!(
        "{}",
        if ok {
            "the wiring works"
        } else {
            "the wiring is broken: fix the adapter before reading a full check"
        }
    );
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `cases`: list the fixed cases and check (or update) the ID lock.
fn cases(lock: bool, accept: &[String], retire: &[String]) -> anyhow::Result<ExitCode> {
    use autoreview::ids;
    let current = ids::current().map_err(anyhow::Error::msg)?;
    let committed = ids::Lock::committed().context("reading the embedded spec/case-ids.json")?;
    let problems = if lock {
        let retire: Vec<(String, String)> = retire
            .iter()
            .map(|r| {
                r.split_once('=')
                    .map(|(id, why)| (id.to_owned(), why.to_owned()))
                    .ok_or_else(|| anyhow::anyhow!("--retire takes ID=WHY, got {r:?}"))
            })
            .collect::<anyhow::Result<_>>()?;
        let on_disk = std::fs::read_to_string(ids::PATH)
            .with_context(|| format!("reading {} (run from the repository root)", ids::PATH))?;
        let base: ids::Lock =
            serde_json::from_str(&on_disk).with_context(|| format!("reading {}", ids::PATH))?;
        let (next, left) = ids::update(&base, &current, accept, &retire);
        std::fs::write(ids::PATH, next.to_text())
            .with_context(|| format!("writing {}", ids::PATH))?;
        println!(
            "{} active IDs, {} retired, written to {}",
            next.cases.len(),
            next.retired.len(),
            ids::PATH
        );
        left
    } else {
        let mut out = String::new();
        let cases: Vec<autoreview::cases::Case> = autoreview::Profile::all()
            .into_iter()
            .flat_map(|p| autoreview::cases::all(p).unwrap_or_default())
            .collect();
        for (id, (hash, profiles)) in &current {
            let case = cases.iter().find(|c| &c.id == id);
            let names: Vec<&str> = profiles.iter().map(|p| p.as_str()).collect();
            out.push_str(&format!(
                "{id}\t{}\t{}\t{hash}\t{}\t{}\n",
                case.map(|c| c.area.as_str()).unwrap_or_default(),
                names.join(","),
                case.map(|c| c.clauses.join(",")).unwrap_or_default(),
                case.map(|c| c.title.as_str()).unwrap_or_default()
            ));
        }
        print_all(&out)?;
        ids::problems(&committed, &current)
    };
    for p in &problems {
        eprintln!("autoreview cases: {p}");
    }
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `parse`: one verdict for the reply on stdin, written as it is serialized (a long reason is not
/// copied into a line first).
fn parse(profile: Profile, blocks: bool) -> anyhow::Result<ExitCode> {
    use autoreview::engine::review::{RawReplyError, read_raw};
    let verdict = read_raw(std::io::stdin().lock(), profile, blocks).map_err(|e| {
        let context = match e {
            RawReplyError::NotBlocks(_) => "--blocks expects a JSON array of blocks on stdin",
            RawReplyError::Io(_) | RawReplyError::NotUtf8(_) => "reading stdin",
        };
        anyhow::Error::new(e).context(context)
    })?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut out, &verdict).context("writing to stdout")?;
    out.write_all(b"\n").context("writing to stdout")?;
    out.flush().context("writing to stdout")?;
    Ok(ExitCode::SUCCESS)
}

/// `decide`: one output line per non-blank input line. Each line is written out before the next
/// input is awaited, so `decide` can run as a co-process answering one line at a time; input that
/// is already buffered is answered in one write.
fn decide(profile: Profile) -> anyhow::Result<ExitCode> {
    let mut stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin().lock());
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut bad = false;
    let mut buf = Vec::new();
    for n in 1usize.. {
        buf.clear();
        if stdin.read_until(b'\n', &mut buf).context("reading stdin")? == 0 {
            break;
        }
        let line = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.iter().all(u8::is_ascii_whitespace) {
            let reply = match decide_line(line, profile) {
                Ok(outcome) => outcome,
                Err(message) => {
                    bad = true;
                    serde_json::json!({ "line": n, "error": message }).to_string()
                }
            };
            writeln!(out, "{reply}").context("writing to stdout")?;
        }
        // Nothing more to read without waiting: whoever waits for these lines gets them now.
        if stdin.buffer().is_empty() {
            out.flush().context("writing to stdout")?;
        }
    }
    out.flush().context("writing to stdout")?;
    Ok(if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn decide_line(line: &[u8], profile: Profile) -> Result<String, String> {
    let text =
        std::str::from_utf8(line).map_err(|e| format!("the line is not valid UTF-8: {e}"))?;
    let input = autoreview::scenario::session::Input::from_json(text).map_err(|e| e.to_string())?;
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        autoreview::engine::decide_input(&input, profile)
    }))
    .map_err(|_| "internal error: the reference engine panicked on this scenario".to_owned())?;
    serde_json::to_string(&outcome).map_err(|e| format!("internal error: {e}"))
}

/// What `autoreview profiles` prints: a line per profile, or with `json` one array.
fn profiles_listing(json: bool) -> String {
    if !json {
        return Profile::all()
            .iter()
            .map(|p| format!("{}\t{}\n", p.as_str(), p.summary()))
            .collect();
    }
    let all: Vec<serde_json::Value> = Profile::all()
        .iter()
        .map(|p| {
            serde_json::json!({
                "name": p.as_str(),
                "summary": p.summary(),
                "clauses": p.clauses(),
                "features": p.features,
                "rules": p.wire_rules(),
            })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&all).expect("profiles are JSON");
    text.push('\n');
    text
}

/// The run's profile: the one loaded from `file` when given, else `named`.
fn chosen(named: Profile, file: Option<&std::path::Path>) -> anyhow::Result<Profile> {
    match file {
        Some(file) => load_profile(file),
        None => Ok(named),
    }
}

/// A profile of the user's own, read and checked before anything runs.
fn load_profile(file: &std::path::Path) -> anyhow::Result<Profile> {
    Profile::load_file(file).map_err(|e| anyhow::anyhow!("--profile-file: {e}"))
}

/// `autoreview audit`: reads each log a line at a time (constant memory per session) and prints
/// the summary. A file that cannot be opened stops the command with the fix; one that cannot be
/// read on (cut short, corrupt) is reported where it stopped, and the next is read.
fn audit(
    logs: &[String],
    profile: Profile,
    streak: usize,
    json: bool,
    markdown: bool,
    freeze: Option<&str>,
    from: LogFormat,
) -> anyhow::Result<ExitCode> {
    use std::io::BufRead as _;
    if let Some(dir) = freeze {
        writable_dir("--freeze", dir)?;
    }
    let mut audit = autoreview::audit::Audit::new(profile, streak);
    if freeze.is_some() {
        audit = audit.freezing();
    }
    for log in logs {
        let reader: Box<dyn std::io::BufRead> = if log == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            let file = std::fs::File::open(log)
                .map_err(|e| anyhow::anyhow!("{log}: {e}; give a file of audit records (spec/audit.md), plain or compressed (.gz, .zst), or `-` for standard input"))?;
            Box::new(std::io::BufReader::with_capacity(1 << 16, file))
        };
        let reader = autoreview::audit::compressed::Compression::of(log).decode(reader);
        let shown = if log == "-" { "<stdin>" } else { log.as_str() };
        let mut records = autoreview::audit::LogReader::new(from.into(), &session_name(log));
        for (k, line) in reader.split(b'\n').enumerate() {
            // A log that cannot be read on (cut short, corrupt) is reported where it stopped, and
            // the next log is read: what came before is kept.
            let n = k as u64 + 1;
            let line = match line {
                Ok(line) => line,
                Err(e) => {
                    audit.read(shown, n, Err(format!("reading stopped here: {e}")));
                    break;
                }
            };
            match std::str::from_utf8(&line) {
                Ok(text) => audit.read(shown, n, records.line(text.trim_end_matches('\r'))),
                Err(e) => audit.read(shown, n, Err(format!("not UTF-8: {e}"))),
            }
        }
        for record in records.finish() {
            audit.record(record);
        }
    }
    let mut froze = String::new();
    for frozen in freeze.map(|_| audit.frozen()).unwrap_or_default() {
        let path = std::path::Path::new(freeze.unwrap_or_default()).join(&frozen.file);
        std::fs::write(&path, &frozen.text)
            .with_context(|| format!("writing {}", path.display()))?;
        froze.push_str(&format!(
            "froze {} re-decided calls that break a clause in {}{} (run them with check --cases {})\n",
            frozen.calls,
            path.display(),
            if frozen.left_out > 0 {
                format!(
                    "; {} more left out (the first {} distinct calls, {} MiB of scenarios, are kept)",
                    frozen.left_out,
                    autoreview::audit::FROZEN,
                    autoreview::audit::FROZEN_BYTES >> 20
                )
            } else {
                String::new()
            },
            freeze.unwrap_or_default()
        ));
    }
    let summary = audit.finish();
    let text = if json {
        let mut t = serde_json::to_string_pretty(&summary).expect("a summary is JSON");
        t.push('\n');
        t
    } else {
        summary.render(markdown)
    };
    print_all(&text)?;
    // Said on standard error, so that --json stays one object.
    eprint!("{froze}");
    Ok(ExitCode::SUCCESS)
}

/// What `audit --from` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    /// Audit records (spec/audit.md).
    Records,
    /// dsh session logs (spec/audit-dsh.md).
    Dsh,
}

impl From<LogFormat> for autoreview::audit::Format {
    fn from(f: LogFormat) -> Self {
        match f {
            LogFormat::Records => autoreview::audit::Format::Records,
            LogFormat::Dsh => autoreview::audit::Format::Dsh,
        }
    }
}

/// The session a log whose records name none is: a dsh log's directory
/// (`<project>/<session>/session.v4.jsonl.zstd`), else the file's name.
fn session_name(log: &str) -> String {
    let path = std::path::Path::new(log);
    let name = |p: Option<&std::path::Path>| {
        p.and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
    };
    let file = name(Some(path)).unwrap_or_else(|| log.to_owned());
    if file.starts_with("session.v") {
        name(path.parent()).unwrap_or(file)
    } else {
        file
    }
}

/// An implementation whose every decided input is written as audit records (`--audit-log`).
struct Recording {
    inner: Box<dyn runner::Implementation>,
    out: std::io::BufWriter<std::fs::File>,
    inputs: u64,
}

impl runner::Implementation for Recording {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn decide(
        &mut self,
        ask: runner::Ask<'_>,
    ) -> Result<autoreview::outcome::InputOutcome, runner::ImplError> {
        use std::io::Write as _;
        let outcome = self.inner.decide(ask)?;
        self.inputs += 1;
        let session = format!("input-{}", self.inputs);
        for record in autoreview::audit::write::records(ask.input, &outcome, ask.profile, &session)
        {
            // A record that cannot be written is lost, and the run goes on: the log is a view of
            // the run, never its verdict.
            let _ = writeln!(self.out, "{record}");
        }
        Ok(outcome)
    }

    fn finish(&mut self) -> Option<runner::ImplError> {
        use std::io::Write as _;
        let _ = self.out.flush();
        self.inner.finish()
    }

    fn protocol(&self) -> Option<u32> {
        self.inner.protocol()
    }

    fn canonical(&self) -> bool {
        self.inner.canonical()
    }

    fn capabilities(&self) -> autoreview::capability::Capabilities {
        self.inner.capabilities()
    }

    fn info(&self) -> Option<autoreview::protocol::ImplementationInfo> {
        self.inner.info()
    }

    fn features(&self) -> autoreview::features::Features {
        self.inner.features()
    }
}
