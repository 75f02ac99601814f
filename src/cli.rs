//! The `autoreview` command line: a thin shell that reads files and streams, calls the library and
//! prints. Nothing here decides anything.

use std::io::{BufRead, BufWriter, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};

use crate::profile::Profile;
use crate::runner::{self, Reference};
use crate::scenario::Scenario;
use crate::table::{Table, render};

/// The executable specification of Auto review: decide scenarios with the reference engine, print
/// the decision table, and check implementations against the fixed cases.
#[derive(Debug, Parser)]
#[command(name = "autoreview", version, about, long_about = None, after_help = "\
Examples:
  echo '{\"tool\":{\"name\":\"pwsh\"},\"reviewer\":{\"text\":\"{\\\"risk\\\":\\\"high\\\",\\\"decision\\\":\\\"deny\\\"}\"}}' | autoreview decide
  echo 'Sure. {\"risk\":\"low\",\"decision\":\"allow\"}' | autoreview parse --profile resilient
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
    /// Blank lines are skipped. A line that is not a valid scenario yields
    /// {"line": N, "error": "..."} on its output line instead of an outcome; the remaining lines
    /// are still decided, and the exit code is 1 at the end.
    Decide {
        /// The profile whose clauses apply.
        #[arg(long, value_enum, default_value_t = Profile::Resilient)]
        profile: Profile,
    },
    /// Print a profile's decision table.
    Table {
        /// The profile.
        #[arg(long, value_enum, default_value_t = Profile::Resilient)]
        profile: Profile,
        /// Markdown for people, JSON for tools.
        #[arg(long, value_enum, default_value_t = TableFormat::Markdown)]
        format: TableFormat,
    },
    /// Run every fixed case (decision-table rows and the case files under spec/cases/) against the
    /// reference engine and print a per-area summary ending in `N passed, N failed`.
    ///
    /// Exit code 0 when every case passes, 1 otherwise.
    Check {
        /// The profile to check.
        #[arg(long, value_enum, default_value_t = Profile::Resilient)]
        profile: Profile,
    },
    /// Read one reviewer reply on stdin with a profile's reader and print its verdict as one JSON
    /// line: {"ok": true, "risk", "decision", "reason"?} or {"ok": false, "error"}.
    ///
    /// Plain stdin is one text block with a normal stop; with --blocks, stdin is a JSON array of
    /// blocks as in the scenario contract. Exit code 0 for either verdict, 2 for unusable input.
    Parse {
        /// The profile whose reader applies (baseline: strict, resilient: tolerant).
        #[arg(long, value_enum, default_value_t = Profile::Resilient)]
        profile: Profile,
        /// Read stdin as a JSON array of blocks, e.g. [{"type": "reasoning", "text": "..."}, {"type": "text", "text": "..."}].
        #[arg(long)]
        blocks: bool,
    },
    /// Print the JSON Schema of the scenario or outcome format.
    Schema {
        /// Which format.
        #[arg(value_enum)]
        which: SchemaKind,
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
    /// The outcome format.
    Outcome,
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("autoreview: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Decide { profile } => decide(profile),
        Command::Table { profile, format } => {
            let table = Table::load(profile)?;
            let text = match format {
                TableFormat::Markdown => render::markdown(&table),
                TableFormat::Json => render::json(&table),
            };
            print_all(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { profile } => {
            let cases = crate::cases::all(profile)?;
            let report = runner::run(&mut Reference, &cases, profile);
            print_all(&runner::report::text(&report))?;
            Ok(if report.failed() == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Parse { profile, blocks } => parse(profile, blocks),
        Command::Schema { which } => {
            print_all(&crate::schema::text(which))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn print_all(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .context("writing to stdout")?;
    out.flush().context("writing to stdout")
}

/// `parse`: one verdict for the reply on stdin.
fn parse(profile: Profile, blocks: bool) -> anyhow::Result<ExitCode> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .context("reading stdin")?;
    let text =
        String::from_utf8(bytes).map_err(|e| anyhow::anyhow!("stdin is not valid UTF-8: {e}"))?;
    let attempt = if blocks {
        let value: serde_json::Value = serde_json::from_str(&text)
            .context("--blocks expects a JSON array of blocks on stdin")?;
        crate::scenario::Attempt::from_value(serde_json::json!({ "blocks": value }))
            .map_err(|e| anyhow::anyhow!("--blocks: {e}"))?
    } else {
        crate::scenario::Attempt::text(text)
    };
    let verdict = crate::engine::review::verdict(&attempt, profile, &Default::default())
        .ok_or_else(|| anyhow::anyhow!("internal error: a delivered reply has no verdict"))?;
    print_all(&format!("{}\n", serde_json::to_string(&verdict)?))?;
    Ok(ExitCode::SUCCESS)
}

/// `decide`: one output line per non-blank input line.
fn decide(profile: Profile) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut bad = false;
    for (i, line) in stdin.split(b'\n').enumerate() {
        let line = line.context("reading stdin")?;
        let n = i + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let reply = match decide_line(line, profile) {
            Ok(outcome) => outcome,
            Err(message) => {
                bad = true;
                serde_json::json!({ "line": n, "error": message }).to_string()
            }
        };
        writeln!(out, "{reply}").context("writing to stdout")?;
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
    let scenario = Scenario::from_json(text).map_err(|e| e.to_string())?;
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        crate::engine::decide(&scenario, profile)
    }))
    .map_err(|_| "internal error: the reference engine panicked on this scenario".to_owned())?;
    serde_json::to_string(&outcome).map_err(|e| format!("internal error: {e}"))
}
