//! The terminal summary ([`text`]): the violated clauses worst first, the failures worst first
//! with their texts as word-level differences, a per-area and per-severity table, and last the
//! verdict the exit code gives; and when it is coloured ([`Color`]).

use std::fmt::Write as _;

use super::{
    StatusCounts, VIOLATION_COLUMNS, failing_worst_first, headline, not_applicable_line, tallies,
    violation_rows,
};
use crate::runner::{Difference, Report, Severity, Status, worddiff};

/// One difference for the terminal: texts as a word-level difference, other values in full.
pub(super) fn terminal_difference(d: &Difference, color: bool) -> String {
    #[cfg(test)]
    super::tests::panic_if_marked(d);
    let Some(pieces) = worddiff::of_difference(d) else {
        return worddiff::visible(&d.to_string());
    };
    let mut out = format!(
        "{} {}: {}",
        d.severity,
        worddiff::visible(&d.pointer),
        worddiff::terminal(&pieces, color)
    );
    if let Some(rule) = &d.rule {
        let _ = write!(out, " ({})", worddiff::visible(rule));
    }
    out
}

/// The terminal summary, opening with the violated clauses; `color` marks removed and added
/// words red and green instead of `[-removed-]{+added+}`.
pub fn text(report: &Report, strict: bool, color: bool) -> String {
    let v = worddiff::visible;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "autoreview check — profile {} at level {}\nimplementation: {}\n",
        report.profile,
        report.level,
        v(&report.implementation)
    );
    let violations = report.violations();
    if !violations.is_empty() {
        let rows: Vec<[String; 6]> = violation_rows(report, &violations)
            .into_iter()
            .map(|r| r.map(|c| v(&c)))
            .collect();
        let _ = writeln!(
            out,
            "{} violated clause{}, worst first:",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        );
        let mut widths = VIOLATION_COLUMNS.map(|h| h.chars().count());
        for r in &rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        let heading = VIOLATION_COLUMNS.map(str::to_owned);
        for r in std::iter::once(&heading).chain(&rows) {
            let mut line = String::from(" ");
            for (i, (c, w)) in r.iter().zip(widths).enumerate() {
                // The count right-aligned; the last column unpadded.
                match i {
                    3 => {
                        let _ = write!(line, " {c:>w$}");
                    }
                    5 => {
                        let _ = write!(line, " {c}");
                    }
                    _ => {
                        let _ = write!(line, " {c:<w$}");
                    }
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out.push('\n');
    }
    let failing = failing_worst_first(report);
    for r in &failing {
        if r.status == Status::UnexpectedPass {
            let _ = writeln!(
                out,
                "UNEXPECTED PASS {} [{}] {} (listed as failing: {})",
                v(&r.id),
                v(&r.area),
                v(&r.title),
                v(r.expected_failure.as_deref().unwrap_or_default())
            );
            continue;
        }
        let _ = writeln!(
            out,
            "{} {} [{}] {}",
            r.label(),
            v(&r.id),
            v(&r.area),
            v(&r.title)
        );
        for l in r.detail_lines(6, Some(color)) {
            let _ = writeln!(out, "    {l}");
        }
    }
    if !failing.is_empty() {
        out.push('\n');
    }
    let (areas, total) = tallies(report);
    let width = areas.iter().map(|(a, _)| a.len()).max().unwrap_or(5).max(5);
    // Right-aligned columns; a wider gap before the counts, the severities and `broken`.
    let line = |name: &str, cells: [String; 13]| {
        let mut l = format!("{name:width$}");
        const WIDTHS: [usize; 13] = [5, 5, 5, 4, 6, 6, 8, 5, 4, 4, 6, 5, 5];
        for (i, (cell, w)) in cells.iter().zip(WIDTHS).enumerate() {
            let severities = StatusCounts::FIRST_SEVERITY;
            let gap = if i == 0 || i == severities || i == severities + Severity::ALL.len() {
                "  "
            } else {
                " "
            };
            l.push_str(&format!("{gap}{cell:>w$}"));
        }
        l
    };
    let _ = writeln!(
        out,
        "{}",
        line("area", StatusCounts::COLUMNS.map(str::to_owned))
    );
    let mut row = |name: &str, t: &StatusCounts| {
        let _ = writeln!(out, "{}", line(name, t.columns().map(|n| n.to_string())));
    };
    for (a, t) in &areas {
        row(a, t);
    }
    row("total", &total);
    for l in StatusCounts::LEGEND {
        let _ = writeln!(out, "  {l}");
    }
    out.push('\n');
    if let Some(line) = not_applicable_line(report, &|id| v(id)) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(line) = crate::features::not_implemented_line(&report.features) {
        let _ = writeln!(out, "{line}");
    }
    if !report.stale_expectations.is_empty() {
        let _ = writeln!(
            out,
            "expected failures listed for IDs that name no case of this run{}: {}",
            if strict {
                " (fails the run under --strict)"
            } else {
                ""
            },
            report.stale_expectations.join(", ")
        );
    }
    let _ = writeln!(out, "{}", super::coverage_line(report));
    let _ = writeln!(out, "{}", comparison(report, &v));
    let _ = writeln!(out, "{}", headline(report, strict));
    out
}

/// What the run compared with what: the implementation, the oracle and the profile, and how
/// many cases of each kind, so that the last lines of a run say what its verdict is about.
fn comparison(report: &Report, show: &dyn Fn(&str) -> String) -> String {
    let (areas, total) = tallies(report);
    let generated = areas
        .iter()
        .find(|(a, _)| a == "generated")
        .map_or(0, |(_, t)| t.cases);
    let fixed = total.cases - generated;
    let mut s = format!(
        "compared: {} with {}, profile {}, level {}: {fixed} fixed case{}",
        show(&report.implementation),
        report.oracle.describe(),
        report.profile,
        report.level,
        if fixed == 1 { "" } else { "s" },
    );
    if let Some(seed) = report.seed {
        // A drawn case may draw a session too: say the calls and the sessions apart, so that the
        // count a run announces (`--generated N`, the calls) is the count it shows.
        // Only an implementation that observes sessions is asked the sessions its cases draw.
        let asked = report
            .observes
            .contains(&crate::capability::Observable::Sessions);
        let sessions = match &report.session_draws {
            Some(draws) if asked => (0..report.generated)
                .filter(|&k| report.shard.is_none_or(|s| s.contains(k)) && draws.contains(k))
                .count(),
            _ => 0,
        };
        let calls = generated.saturating_sub(sessions);
        let _ = write!(
            s,
            " and {generated} generated ({calls} call{}, {sessions} session{}; seed {seed})",
            if calls == 1 { "" } else { "s" },
            if sessions == 1 { "" } else { "s" },
        );
    }
    if let Some(shard) = report.shard {
        let _ = write!(s, " in shard {shard}");
    }
    s
}

/// When the terminal report is coloured: removed words red and added ones green; without colour
/// `[-removed-]{+added+}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    /// When stdout is a terminal and NO_COLOR is unset or empty.
    Auto,
    /// Always, whatever stdout is and NO_COLOR says.
    Always,
    /// Never.
    Never,
}

impl Color {
    /// Every choice, in the order `--help` lists them.
    pub const ALL: [Color; 3] = [Color::Auto, Color::Always, Color::Never];

    /// The choice's name on a command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Color::Auto => "auto",
            Color::Always => "always",
            Color::Never => "never",
        }
    }

    /// What the choice means, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            Color::Auto => "When stdout is a terminal and NO_COLOR is unset or empty",
            Color::Always => "Always, whatever stdout is and NO_COLOR says",
            Color::Never => "Never",
        }
    }

    /// Whether to colour, given whether stdout is a terminal and the value of NO_COLOR
    /// (no-color.org: set and not empty disables colour, unless asked for explicitly).
    pub fn enabled(self, terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => terminal && no_color.is_none_or(|v| v.is_empty()),
        }
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::comparison;
    use crate::capability::Observable;
    use crate::runner::check::SessionDraws;

    /// The calls a run announced and the sessions it asked, apart: an implementation that does
    /// not observe sessions is asked none, whatever its cases draw.
    #[test]
    fn the_comparison_counts_only_the_sessions_asked() {
        let line = |observes: Vec<Observable>, passed: usize| {
            let mut r = super::super::specimen_run(Vec::new(), &[]);
            r.seed = Some(3);
            r.generated = 60;
            r.generated_passed = passed;
            r.session_draws = Some(SessionDraws::of(60, |k| k % 10 == 0));
            r.observes = observes;
            comparison(&r, &|s| s.to_owned())
        };
        assert!(
            line(Vec::new(), 60).ends_with("and 60 generated (60 calls, 0 sessions; seed 3)"),
            "{}",
            line(Vec::new(), 60)
        );
        assert!(
            line(vec![Observable::Sessions], 66)
                .ends_with("and 66 generated (60 calls, 6 sessions; seed 3)"),
            "{}",
            line(vec![Observable::Sessions], 66)
        );
    }
}
