//! The Markdown summary for CI step pages ([`markdown`], [`append_markdown`]), and text as
//! Markdown shows it literally ([`md_text`], [`code_span`]).

use std::fmt::Write as _;

use super::{
    StatusCounts, VIOLATION_COLUMNS, failing_worst_first, headline, needs_text,
    not_applicable_line, tallies, timestamp, violation_rows,
};
use crate::runner::{CaseResult, Difference, Report, Status, Verdict, worddiff};

/// Free text as GitHub-flavoured Markdown shows it literally: each character that can start
/// markup inside a line is backslash-escaped (so `<tool_call> *x*` is neither HTML nor emphasis,
/// `&amp;` no entity, `|` does not end a table cell, `$`, `:` and `@` start no math, emoji or
/// mention), control characters and line breaks are written `\n`, `\t`, `\r` or `\u{XXXX}`, and
/// text longer than `max` characters is cut with `…`. The text never starts a line, so
/// line-start markup (`#`, `-`, `1.`) needs no escape there.
pub fn md_text(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max.saturating_mul(2)) + 8);
    for (i, c) in s.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\\\n"),
            '\t' => out.push_str("\\\\t"),
            '\r' => out.push_str("\\\\r"),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                let _ = write!(out, "\\\\u\\{{{:04x}\\}}", c as u32);
            }
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~' | '&' | '$' | ':'
            | '@' | '!' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Text as a Markdown code span, shown literally: the fence is one backtick longer than the
/// longest run of backticks inside, and a space pads text that starts or ends with a backtick or a
/// space (which a code span would otherwise eat). Control characters are written as in
/// [`md_text`]. Not for table cells, where `|` would end the cell even inside a code span.
pub fn code_span(s: &str) -> String {
    let mut text = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => text.push_str("\\n"),
            '\t' => text.push_str("\\t"),
            '\r' => text.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                let _ = write!(text, "\\u{{{:04x}}}", c as u32);
            }
            c => text.push(c),
        }
    }
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// How a failing case's first detail reads in Markdown.
fn md_detail(r: &CaseResult) -> String {
    match r.status {
        Status::UnexpectedPass => format!(
            "passes but is listed as an expected failure: {}",
            md_text(r.expected_failure.as_deref().unwrap_or_default(), 300)
        ),
        _ => md_verdict(&r.verdict),
    }
}

/// How a verdict's first detail reads in Markdown.
pub(super) fn md_verdict(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Fail { differences } => {
            let more = match differences.len() {
                0 | 1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            differences
                .first()
                .map(|d| md_difference(d) + &more)
                .unwrap_or_default()
        }
        Verdict::Broken { error } => md_text(&error.message, 300),
        Verdict::NotApplicable { missing } => needs_text(missing),
        Verdict::Pass => String::new(),
    }
}

/// One difference in Markdown: where, then texts as a word-level difference (removed words struck
/// through, added ones underlined, with HTML tags GitHub keeps) and other values in full.
fn md_difference(d: &Difference) -> String {
    let mut out = format!("{}: ", code_span(&d.pointer));
    match worddiff::of_difference(d) {
        Some(pieces) => {
            for p in &pieces {
                match p {
                    worddiff::Piece::Same(t) => out.push_str(&md_text(t, usize::MAX)),
                    worddiff::Piece::Elided => out.push('…'),
                    worddiff::Piece::Removed(t) => {
                        let _ = write!(out, "<del>{}</del>", md_text(t, usize::MAX));
                    }
                    worddiff::Piece::Added(t) => {
                        let _ = write!(out, "<ins>{}</ins>", md_text(t, usize::MAX));
                    }
                }
            }
        }
        None => {
            let _ = write!(
                out,
                "expected {}, got {}",
                md_text(&d.expected.to_string(), 300),
                md_text(&d.actual.to_string(), 300)
            );
        }
    }
    if let Some(rule) = &d.rule {
        let _ = write!(out, " ({})", md_text(rule, 200));
    }
    out
}

/// A Markdown summary for CI step pages (`$GITHUB_STEP_SUMMARY`): the verdict the exit code gives,
/// the run's facts, the violated clauses worst first, the table, then the failures worst first.
/// Every text from a case or an
/// implementation is escaped ([`md_text`], [`code_span`]), so it shows as it was sent.
pub fn markdown(report: &Report, strict: bool) -> String {
    let (areas, total) = tallies(report);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## autoreview check — {} at level {}\n\n**{}**\n",
        code_span(report.profile.as_str()),
        code_span(report.level.as_str()),
        headline(report, strict)
    );
    let mut facts = vec![format!(
        "implementation: {}, compared with {} at level {} ({})",
        md_text(&report.implementation, 300),
        report.oracle.describe(),
        report.level,
        report.level.summary()
    )];
    if let Some(v) = report.protocol {
        facts.push(format!("protocol {v}"));
    }
    if !report.observes.is_empty() {
        let names: Vec<&str> = report.observes.iter().map(|o| o.as_str()).collect();
        facts.push(format!("observes {}", names.join(", ")));
    }
    if !report.lacks.is_empty() {
        let names: Vec<&str> = report.lacks.iter().map(|c| c.as_str()).collect();
        facts.push(format!("lacks {}", names.join(", ")));
    }
    if let Some(seed) = report.seed {
        facts.push(format!("seed {seed}"));
    }
    facts.push(format!(
        "started {}",
        md_text(&timestamp(report.started), 40)
    ));
    facts.push(format!("{:.1} s", report.duration.as_secs_f64()));
    let _ = writeln!(out, "{}\n", facts.join(" · "));
    let violations = report.violations();
    if !violations.is_empty() {
        let _ = writeln!(out, "**Violated clauses, worst first**\n");
        let _ = writeln!(out, "| {} |", VIOLATION_COLUMNS.join(" | "));
        let _ = writeln!(out, "|---|---|---|---:|---|---|");
        for r in violation_rows(report, &violations) {
            let cells: Vec<String> = r.iter().map(|c| md_text(c, 500)).collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "| area | {} |", StatusCounts::COLUMNS.join(" | "));
    let _ = writeln!(out, "|---|{}", "---:|".repeat(StatusCounts::COLUMNS.len()));
    let rows = areas
        .iter()
        .map(|(a, t)| (md_text(a, 100), t))
        .chain([("**total**".to_owned(), &total)]);
    for (a, t) in rows {
        let cells: Vec<String> = t.columns().iter().map(|n| n.to_string()).collect();
        let _ = writeln!(out, "| {a} | {} |", cells.join(" | "));
    }
    out.push('\n');
    for l in StatusCounts::LEGEND {
        let _ = writeln!(out, "- {}", md_text(l, l.len()));
    }
    let _ = writeln!(out, "\n{}", md_text(&super::coverage_line(report), 2000));
    if let Some(line) = not_applicable_line(report, &|id| code_span(id)) {
        let _ = writeln!(out, "\n{line}");
    }
    if let Some(line) = crate::features::not_implemented_line(&report.features) {
        let _ = writeln!(out, "\n{}", md_text(&line, line.len()));
    }
    let failing = failing_worst_first(report);
    if !failing.is_empty() {
        out.push_str("\n<details><summary>Failures, worst first</summary>\n\n");
        for r in failing.iter().take(100) {
            let label = if r.status == Status::UnexpectedPass {
                "UNEXPECTED PASS".to_owned()
            } else {
                r.label()
            };
            let _ = writeln!(
                out,
                "- **{}** {} {} — {}",
                md_text(&label, 40),
                code_span(&r.id),
                md_text(&r.title, 300),
                md_detail(r)
            );
        }
        if failing.len() > 100 {
            let _ = writeln!(out, "- … and {} more", failing.len() - 100);
        }
        out.push_str("\n</details>\n");
    }
    if strict && !report.stale_expectations.is_empty() {
        let ids: Vec<String> = report
            .stale_expectations
            .iter()
            .take(100)
            .map(|id| code_span(id))
            .collect();
        let _ = writeln!(
            out,
            "\nExpected failures listed for IDs that name no case of this run (they fail the run under `--strict`): {}",
            ids.join(", ")
        );
    }
    out
}

/// Appends a Markdown summary to `path`, creating the file if needed: a CI step that runs `check`
/// twice keeps both summaries in `$GITHUB_STEP_SUMMARY`. A blank line separates it from what the
/// file already holds.
pub fn append_markdown(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let separator = if file.metadata()?.len() > 0 { "\n" } else { "" };
    file.write_all(format!("{separator}{text}").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::{hostile, hostile_report, markdown_holds};

    /// Every text from a case or an adapter shows literally in the Markdown: no HTML, emphasis,
    /// strikethrough, link or entity made of it, and a `|` in an area does not split its cell.
    #[test]
    fn markdown_shows_any_text_literally() {
        let mut r = hostile_report();
        r.results[1].area = format!("a|b {}", hostile());
        r.results[1].id = "ID-`1`".into();
        for strict in [false, true] {
            let shown = [
                "<tool_call> *x* _y_ ~~z~~ $a$ [l](u) :+1: @user #1 &amp; & \" '",
                "\\u{0000}\\u{0001}",
                "\\u{fffe}\\u{ffff}",
                "\\u{001b}[31mred\\u{001b}[0m\\t\\r\\n`x`|",
                "title \\u{0000}",
                "message \\u{0000}",
                "implementation: gate \\u{0000}",
                "ID-`1`",
                // The difference, removed and added words in tags.
                "/result/text: expectedactual \\u{0000}",
            ];
            markdown_holds(&markdown(&r, strict), &shown.map(str::to_owned));
        }
    }
}
