//! The matrix as one static HTML page: inline CSS, no script, no external asset, every cell in the
//! HTML itself with data attributes (`data-case`, `data-impl`, `data-status`, `data-worst`,
//! `data-missing`) for tools, and each failure linked to its differences, counterexample and
//! repro lines further down the page. Every text from a report is escaped.

use std::fmt::Write as _;

use super::model::{CaseLine, Cell, ClauseCell, Column, ColumnCounts, Detail, Matrix};
use super::read::Worst;
use crate::runner::{Difference, Status, worddiff};

/// Text for HTML content or a quoted attribute: control characters shown as escapes (a report
/// line stays one line), markup characters as entities.
pub fn esc(s: &str) -> String {
    let shown = worddiff::visible(s);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `data-status` of a cell: the report's status, or `absent`.
pub fn status_name(s: Option<Status>) -> &'static str {
    match s {
        None => "absent",
        Some(Status::Pass) => "pass",
        Some(Status::Fail) => "fail",
        Some(Status::ExpectedFail) => "expected-fail",
        Some(Status::UnexpectedPass) => "unexpected-pass",
        Some(Status::NotApplicable) => "not-applicable",
    }
}

/// What a not-applicable case needs, in words: `needs sessions and requests`.
pub fn needs(missing: &[String]) -> String {
    match missing {
        [] => "needs nothing it lacks".to_owned(),
        [one] => format!("needs {one}"),
        [rest @ .., last] => format!("needs {} and {last}", rest.join(", ")),
    }
}

const CSS: &str = r#"
:root { --pass: #dafbe1; --pass-fg: #116329; --fail: #ffebe9; --fail-fg: #a40e26; --xfail: #fff8c5;
  --xfail-fg: #7d4e00; --na: #eaeef2; --na-fg: #57606a; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 24px;
  color: #1f2328; background: #fff; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 20px 0 6px; }
h4 { font-size: 14px; margin: 0 0 6px; }
p.facts, p.note { color: #57606a; margin: 4px 0 10px; max-width: 100ch; }
code, pre { font: 12px/1.4 ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", monospace; }
pre { white-space: pre-wrap; word-break: break-all; background: #f6f8fa; padding: 6px 8px;
  border-radius: 4px; margin: 4px 0; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: 3px 7px; vertical-align: top; }
thead th { background: #f6f8fa; }
table.scores td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.scores td.score { font-weight: 600; font-size: 15px; text-align: right; }
table.scores td.run { color: #57606a; font-size: 12px; max-width: 60ch; }
table.matrix thead th { position: sticky; top: 0; z-index: 2; font-size: 12px; text-align: center; }
table.matrix thead th.impl { min-width: 110px; max-width: 180px; overflow-wrap: anywhere; }
table.matrix tr.chapter th { background: #24292f; color: #fff; text-align: left; font-size: 14px; }
table.matrix tr.chapter td { font-weight: 600; }
table.matrix tr.chapter td.agg.none { background: #eaeef2; }
td.clauses span { white-space: nowrap; }
table.matrix tr.clause th { background: #f3f4f6; text-align: left; }
table.matrix tr.row th { background: #fbfbfc; text-align: left; font-weight: normal; font-style: italic;
  padding-left: 18px; }
table.matrix tr.case th { text-align: left; font-weight: normal; padding-left: 28px; max-width: 420px;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
table.matrix tr.case th .title { color: #57606a; margin-left: 6px; }
table.matrix td.clauses { font-size: 11px; color: #57606a; max-width: 190px; }
td.agg, td.cell { text-align: center; white-space: nowrap; font-size: 12px; }
td.cell a, td.agg a { color: inherit; }
.s-pass { background: var(--pass); color: var(--pass-fg); }
.s-fail { background: var(--fail); color: var(--fail-fg); font-weight: 600; }
.s-expected-fail { background: var(--xfail); color: var(--xfail-fg); }
.s-unexpected-pass { background: #ddf4ff; color: #0550ae; }
.s-not-applicable { background: var(--na); color: var(--na-fg); }
.s-absent { color: #8c959f; }
.s-fail.w-SAFETY, td.agg.w-SAFETY { background: #82071e; color: #fff; }
.s-fail.w-BOUNDS, td.agg.w-BOUNDS { background: #bc4c00; color: #fff; }
td.agg.bad { background: var(--fail); color: var(--fail-fg); }
td.agg.good { background: var(--pass); color: var(--pass-fg); }
td.agg.none { color: #8c959f; }
.legend span { display: inline-block; padding: 1px 8px; margin: 0 6px 4px 0; border: 1px solid var(--line);
  border-radius: 3px; font-size: 12px; }
article.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail-fg); border-radius: 4px;
  padding: 8px 10px; margin: 8px 0; max-width: 1200px; }
article.failure.sev-SAFETY { border-left-color: #82071e; border-left-width: 8px; }
article.failure.sev-BOUNDS { border-left-color: #bc4c00; border-left-width: 6px; }
article.failure.expected { border-left-color: #d4a72c; }
article.failure h4 .sev { color: var(--fail-fg); }
article.failure:target { outline: 3px solid #0969da; }
table.diffs td { font-size: 12px; }
table.diffs td code { white-space: pre-wrap; word-break: break-all; }
table.diffs td:nth-child(2) code { white-space: nowrap; word-break: normal; }
del { background: #ffebe9; color: #a40e26; }
ins { background: #dafbe1; color: #116329; text-decoration: none; }
nav a { margin-right: 10px; }
"#;

/// The whole page.
pub fn render(m: &Matrix) -> String {
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<title>autoreview conformance matrix</title>\n<style>");
    out.push_str(CSS);
    out.push_str("</style>\n</head>\n<body>\n<h1>Conformance matrix</h1>\n");
    let reports: usize = m.columns.iter().map(|c| c.sources.len()).sum();
    let _ = writeln!(
        out,
        "<p class=\"facts\">Spec text: {} · {} column{} from {} report{} · written by autoreview {}</p>",
        if m.specs.is_empty() {
            "not stated".to_owned()
        } else {
            esc(&m.specs.join(", "))
        },
        m.columns.len(),
        plural(m.columns.len()),
        reports,
        plural(reports),
        env!("CARGO_PKG_VERSION"),
    );
    out.push_str("<nav><a href=\"#scores\">Scores</a><a href=\"#clauses\">Clauses</a><a href=\"#cases\">Cases</a><a href=\"#failures\">Failures</a></nav>\n");
    scores(&mut out, m);
    clauses(&mut out, m);
    legend(&mut out);
    let details = cases(&mut out, m);
    failures(&mut out, m, &details);
    out.push_str("</body>\n</html>\n");
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The score table: one line per column.
fn scores(out: &mut String, m: &Matrix) {
    out.push_str("<section id=\"scores\">\n<h2>Scores</h2>\n<table class=\"scores\">\n<thead><tr><th>Implementation</th><th>Profile</th><th>Score</th><th>Passed</th><th>Failed</th><th>Not applicable</th><th>MUST clauses judged</th><th>Run</th></tr></thead>\n<tbody>\n");
    for (i, c) in m.columns.iter().enumerate() {
        let s = &c.score;
        let _ = write!(
            out,
            "<tr data-impl=\"c{i}\" data-profile=\"{}\" data-passed=\"{}\" data-failed=\"{}\" data-not-applicable=\"{}\" data-expected-failures=\"{}\">",
            c.profile, s.passed, s.failed, s.not_applicable, s.expected_failures
        );
        let _ = write!(
            out,
            "<th>{}</th><td>{}</td><td class=\"score\">{}</td>",
            esc(&name_version(c)),
            c.profile,
            s.percent()
        );
        let mut passed = s.passed.to_string();
        if s.generated_passed > 0 {
            let _ = write!(
                passed,
                " <small>({} generated, counted only)</small>",
                s.generated_passed
            );
        }
        if s.unexpected_passes > 0 {
            let _ = write!(
                passed,
                " <small>({} listed as expected to fail)</small>",
                s.unexpected_passes
            );
        }
        let mut failed = s.failed.to_string();
        if s.expected_failures > 0 {
            let _ = write!(failed, " <small>({} expected)</small>", s.expected_failures);
        }
        let _ = writeln!(
            out,
            "<td class=\"num\">{passed}</td><td class=\"num\">{failed}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"run\">{}</td></tr>",
            s.not_applicable,
            esc(&super::judged(c)),
            run_facts(c)
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out.push_str("<p class=\"note\">Score = passed ÷ (passed + failed), per profile. Not-applicable cases — those needing what the implementation does not observe or cannot express — are shown apart and never counted as passes. An expected failure counts as failed, an unexpected pass as passed; generated cases that passed are counted from each report, not listed. MUST clauses judged: those of the profile a case put to the implementation cites, its shards together (— for a report before version 7).</p>\n</section>\n");
}

/// The clause × implementation table: a row per clause some run violates, worst first, a cell
/// per column: met, broken (cases and worst severity), or not compared.
fn clauses(out: &mut String, m: &Matrix) {
    out.push_str("<section id=\"clauses\">\n<h2>Clauses</h2>\n");
    if m.clauses.is_empty() {
        out.push_str("<p class=\"note\">No run violates a clause.</p>\n</section>\n");
        return;
    }
    out.push_str("<table class=\"clauses\">\n<thead><tr><th>Clause</th>");
    for c in &m.columns {
        let _ = write!(out, "<th>{}</th>", esc(&c.label));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for line in &m.clauses {
        let _ = write!(
            out,
            "<tr data-clause=\"{}\"><th><code>{}</code></th>",
            esc(&line.clause),
            esc(&line.clause)
        );
        for (i, cell) in line.cells.iter().enumerate() {
            match cell {
                ClauseCell::Met => {
                    let _ = write!(out, "<td class=\"s-pass\" data-impl=\"c{i}\">met</td>");
                }
                ClauseCell::Broken { cases, severity } => {
                    let _ = write!(
                        out,
                        "<td class=\"s-fail w-{severity}\" data-impl=\"c{i}\">broken <small>({cases} case{}, {severity})</small></td>",
                        plural(*cases)
                    );
                }
                ClauseCell::NotCompared => {
                    let _ = write!(
                        out,
                        "<td class=\"s-absent\" data-impl=\"c{i}\">not compared</td>"
                    );
                }
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out.push_str("<p class=\"note\">A row for each clause some run violates, worst first. Met: the run compared the clause (a case citing it ran) and no case broke it; not compared: no case citing it ran there. Differences that name no clause count under <code>unattributed</code>.</p>\n</section>\n");
}

fn name_version(c: &Column) -> String {
    if c.version.is_empty() {
        c.name.clone()
    } else {
        format!("{} {}", c.name, c.version)
    }
}

/// A column's run, in a few words: its reports, shards, seed, command and observables.
fn run_facts(c: &Column) -> String {
    let mut parts = vec![format!(
        "{}: {}",
        if c.sources.len() == 1 {
            "report"
        } else {
            "reports"
        },
        esc(&c.sources.join(", "))
    )];
    if c.shards > 1 {
        parts.push(format!("{} shards merged", c.shards));
    }
    if let Some(seed) = c.seed {
        parts.push(format!("{} generated, seed {seed}", c.generated));
    }
    parts.push(if c.command.is_empty() {
        "in process".to_owned()
    } else {
        format!("<code>{}</code>", esc(&c.command.join(" ")))
    });
    parts.push(format!(
        "observes {}",
        if c.observes.is_empty() {
            "nothing beyond protocol 1".to_owned()
        } else {
            esc(&c.observes.join(", "))
        }
    ));
    parts.join(" · ")
}

fn legend(out: &mut String) {
    out.push_str("<p class=\"legend\"><span class=\"s-pass\">✓ pass</span><span class=\"s-fail\">✗ fail, with its worst severity (SAFETY: a body ran that nothing allowed &gt; BOUNDS: one ran on an allow the spec does not let count there &gt; DECISION &gt; ORDER &gt; TEXT &gt; INFO) or the outcome it did not give</span><span class=\"s-expected-fail\">xfail: failed as listed</span><span class=\"s-unexpected-pass\">✓ xpass: passed though listed</span><span class=\"s-not-applicable\">n/a: not applicable</span><span class=\"s-absent\">— not in the run</span></p>\n");
}

/// The matrix table; returns the failures its cells link to.
fn cases<'m>(out: &mut String, m: &'m Matrix) -> Details<'m> {
    out.push_str("<section id=\"cases\">\n<h2>Cases</h2>\n");
    out.push_str("<p class=\"note\">Chapters of the spec, the clauses cases cite, the decision-table rows their calls fall under, and the cases. A case is listed under the first clause it cites; a clause's line counts every case that cites it, a chapter's every case citing one of its clauses. Failures link to their differences below.</p>\n");
    out.push_str("<table class=\"matrix\">\n<thead><tr><th>Case</th><th>Clauses</th>");
    for (i, c) in m.columns.iter().enumerate() {
        let _ = write!(
            out,
            "<th class=\"impl\" data-impl=\"c{i}\" title=\"{}\">{}<br>{}<br><small>{}</small></th>",
            esc(&c.description),
            esc(&c.name),
            esc(&c.version),
            esc(c
                .label
                .strip_prefix(&name_version(c))
                .unwrap_or(&c.label)
                .trim_start_matches(" · "))
        );
    }
    out.push_str("</tr></thead>\n");
    let mut n = 0usize;
    let mut details = Details::default();
    for (ci, ch) in m.chapters.iter().enumerate() {
        let _ = writeln!(out, "<tbody id=\"chapter-{ci}\">");
        let heading = if ch.number.is_empty() {
            esc(&ch.title)
        } else {
            format!("{}. {}", esc(&ch.number), esc(&ch.title))
        };
        let _ = write!(
            out,
            "<tr class=\"chapter\" data-chapter=\"{}\"><th colspan=\"2\">{heading}</th>",
            esc(&ch.number)
        );
        aggregates(out, &ch.tallies);
        out.push_str("</tr>\n");
        for cl in &ch.clauses {
            let name = if cl.clause.is_empty() {
                "no clause".to_owned()
            } else {
                esc(&cl.clause)
            };
            let _ = write!(
                out,
                "<tr class=\"clause\" data-clause=\"{}\"><th colspan=\"2\">{name}</th>",
                esc(&cl.clause)
            );
            aggregates(out, &cl.tallies);
            out.push_str("</tr>\n");
            for r in &cl.rows {
                let _ = write!(
                    out,
                    "<tr class=\"row\" data-row=\"{}\"><th colspan=\"2\">row {} — {}</th>",
                    esc(&r.row),
                    esc(&r.row),
                    esc(&r.title)
                );
                aggregates(out, &r.tallies);
                out.push_str("</tr>\n");
                for line in &r.cases {
                    case_row(out, line, &mut n, &mut details);
                }
            }
            for line in &cl.cases {
                case_row(out, line, &mut n, &mut details);
            }
        }
        out.push_str("</tbody>\n");
    }
    out.push_str("</table>\n</section>\n");
    details
}

/// Each column's failures, in page order: the case line's number (its anchor), the anchor the
/// cell links to, and the case.
#[derive(Debug, Default)]
struct Details<'m> {
    by_column: std::collections::BTreeMap<usize, Vec<(usize, String, &'m CaseLine)>>,
}

fn aggregates(out: &mut String, tallies: &[ColumnCounts]) {
    for (i, t) in tallies.iter().enumerate() {
        let worst = t.worst.as_ref().map(Worst::label);
        let class = match (&worst, t.failed, t.passed) {
            (_, f, _) if f > t.expected_failures => "bad",
            (_, _, p) if p > 0 => "good",
            _ => "none",
        };
        let w = worst
            .as_ref()
            .map(|w| format!(" w-{}", esc(w)))
            .unwrap_or_default();
        let _ = write!(
            out,
            "<td class=\"agg {class}{w}\" data-impl=\"c{i}\" data-passed=\"{}\" data-failed=\"{}\" data-not-applicable=\"{}\">",
            t.passed, t.failed, t.not_applicable
        );
        if t.is_empty() {
            out.push('—');
        } else {
            let mut parts = Vec::new();
            if t.passed > 0 || t.failed == 0 {
                parts.push(format!("{} ✓", t.passed));
            }
            if t.failed > 0 {
                parts.push(format!(
                    "{} ✗ {}",
                    t.failed,
                    worst.map(|w| esc(&w)).unwrap_or_default()
                ));
            }
            if t.not_applicable > 0 {
                parts.push(format!("{} n/a", t.not_applicable));
            }
            out.push_str(&parts.join(" · "));
        }
        out.push_str("</td>");
    }
}

fn case_row<'m>(out: &mut String, line: &'m CaseLine, n: &mut usize, details: &mut Details<'m>) {
    *n += 1;
    let _ = write!(
        out,
        "<tr class=\"case\" id=\"case-{n}\" data-case=\"{}\"><th title=\"{}\"><code>{}</code><span class=\"title\">{}</span></th><td class=\"clauses\">{}</td>",
        esc(&line.id),
        esc(&line.title),
        esc(&line.id),
        esc(&line.title),
        line.clauses
            .iter()
            .map(|c| format!("<span>{}</span>", esc(c)))
            .collect::<Vec<_>>()
            .join(" ")
    );
    for (i, c) in line.cells.iter().enumerate() {
        let anchor = c.detail.as_ref().map(|_| format!("f-{i}-{n}"));
        cell(out, &line.id, i, c, anchor.as_deref());
        if let Some(a) = anchor {
            details.by_column.entry(i).or_default().push((*n, a, line));
        }
    }
    out.push_str("</tr>\n");
}

fn cell(out: &mut String, id: &str, column: usize, c: &Cell, anchor: Option<&str>) {
    let status = status_name(c.status);
    let worst = c.worst.as_ref().map(Worst::label);
    let mut class = format!("cell s-{status}");
    let mut attrs = format!(
        "data-case=\"{}\" data-impl=\"c{column}\" data-status=\"{status}\"",
        esc(id)
    );
    if let Some(w) = &worst {
        let _ = write!(class, " w-{}", esc(w));
        let _ = write!(attrs, " data-worst=\"{}\"", esc(w));
    }
    if !c.listed && c.status.is_some() {
        attrs.push_str(" data-listed=\"false\"");
    }
    let title = match c.status {
        None => "not in this run".to_owned(),
        Some(Status::NotApplicable) => {
            let _ = write!(attrs, " data-missing=\"{}\"", esc(&c.missing.join(" ")));
            format!("not applicable: {}", needs(&c.missing))
        }
        Some(Status::Pass) if !c.listed => {
            "passed (a generated case: counted, not listed)".to_owned()
        }
        Some(Status::Pass) => "passed".to_owned(),
        Some(Status::UnexpectedPass) => format!(
            "passed, though listed as an expected failure: {}",
            c.expected_failure.as_deref().unwrap_or_default()
        ),
        Some(Status::ExpectedFail) => format!(
            "failed as listed: {}",
            c.expected_failure.as_deref().unwrap_or_default()
        ),
        Some(Status::Fail) => c
            .detail
            .as_ref()
            .and_then(first_line)
            .unwrap_or_else(|| "failed".to_owned()),
    };
    let body = match c.status {
        None => "—".to_owned(),
        Some(Status::Pass) => "✓".to_owned(),
        Some(Status::UnexpectedPass) => "✓ xpass".to_owned(),
        Some(Status::NotApplicable) => "n/a".to_owned(),
        Some(Status::Fail) => format!("✗ {}", esc(worst.as_deref().unwrap_or("FAIL"))),
        Some(Status::ExpectedFail) => format!("xfail {}", esc(worst.as_deref().unwrap_or(""))),
    };
    let body = match anchor {
        Some(a) => format!("<a href=\"#{a}\">{body}</a>"),
        None => body,
    };
    let _ = write!(
        out,
        "<td class=\"{class}\" {attrs} title=\"{}\">{body}</td>",
        esc(&title)
    );
}

/// The first difference or error of a failure, for a cell's tooltip.
fn first_line(d: &Detail) -> Option<String> {
    d.differences
        .first()
        .map(|d| d.to_string())
        .or_else(|| d.error.as_ref().map(|(k, m, _)| format!("{k}: {m}")))
}

/// The failures section: per column, each failing case's differences, error, counterexample and
/// repro lines, under the anchor its cell links to.
fn failures(out: &mut String, m: &Matrix, details: &Details) {
    out.push_str("<section id=\"failures\">\n<h2>Failures</h2>\n");
    if details.by_column.is_empty() {
        out.push_str("<p class=\"note\">No failure in any column.</p>\n");
    }
    for (column, list) in &details.by_column {
        let c = &m.columns[*column];
        let _ = writeln!(
            out,
            "<h3 id=\"failures-c{column}\">{} <small>({} failure{})</small></h3>",
            esc(&c.label),
            list.len(),
            plural(list.len())
        );
        for (n, anchor, line) in list {
            let cell = &line.cells[*column];
            let Some(d) = &cell.detail else { continue };
            let status = status_name(cell.status);
            let worst = cell.worst.as_ref().map(Worst::label).unwrap_or_default();
            let _ = writeln!(
                out,
                "<article class=\"failure{expected} sev-{w}\" id=\"{anchor}\" data-case=\"{id}\" data-impl=\"c{column}\" data-status=\"{status}\" data-worst=\"{w}\">",
                w = esc(&worst),
                id = esc(&line.id),
                expected = if cell.status == Some(Status::ExpectedFail) {
                    " expected"
                } else {
                    ""
                },
            );
            let _ = writeln!(
                out,
                "<h4><a href=\"#case-{n}\"><code>{}</code></a> <span class=\"sev\">{}</span> — {}</h4>",
                esc(&line.id),
                esc(&worst),
                esc(&line.title)
            );
            if let Some(reason) = &cell.expected_failure {
                let _ = writeln!(out, "<p>Listed as an expected failure: {}</p>", esc(reason));
            }
            differences(out, &d.differences);
            if let Some((kind, message, stderr)) = &d.error {
                let _ = writeln!(
                    out,
                    "<p class=\"error\"><b>{}</b>: {}</p>",
                    esc(&kind.to_uppercase()),
                    esc(message)
                );
                if !stderr.is_empty() {
                    let lines: Vec<String> = stderr.iter().map(|l| esc(l)).collect();
                    let _ = writeln!(out, "<pre class=\"stderr\">{}</pre>", lines.join("\n"));
                }
            }
            if let Some(ce) = &d.counterexample {
                let _ = writeln!(
                    out,
                    "<p>Shrunk to this minimal {}:</p>\n<pre class=\"minimal\">{}</pre>",
                    if ce.kind == "session" {
                        "session"
                    } else {
                        "call"
                    },
                    esc(&ce.minimal)
                );
                differences(out, &ce.differences);
            }
            if !d.repro.is_empty() {
                let lines: Vec<String> = d.repro.iter().map(|l| esc(l)).collect();
                let how = match super::read::generated_case(&line.id) {
                    Some(_) if d.counterexample.is_none() => {
                        "Repeat the generated run that drew it (only some differences are shrunk):"
                    }
                    Some(_) => "Repeat it, with the reference and with the implementation:",
                    None => "Repeat it:",
                };
                let _ = writeln!(
                    out,
                    "<p>{how}</p>\n<pre class=\"repro\">{}</pre>",
                    lines.join("\n")
                );
            }
            out.push_str("</article>\n");
        }
    }
    out.push_str("</section>\n");
}

fn differences(out: &mut String, ds: &[Difference]) {
    if ds.is_empty() {
        return;
    }
    out.push_str("<table class=\"diffs\"><thead><tr><th>Severity</th><th>Where</th><th>Expected</th><th>Actual</th></tr></thead><tbody>\n");
    for d in ds {
        let _ = writeln!(
            out,
            "<tr class=\"w-{s}\" data-pointer=\"{p}\"><td>{s}</td><td><code>{p}</code></td><td><code>{}</code></td><td><code>{}</code></td></tr>",
            esc(&d.expected.to_string()),
            esc(&d.actual.to_string()),
            s = d.severity,
            p = esc(&d.pointer),
        );
        let words = worddiff::of_difference(d);
        if words.is_some() || d.rule.is_some() {
            out.push_str("<tr><td></td><td colspan=\"3\">");
            if let Some(pieces) = words {
                for p in &pieces {
                    match p {
                        worddiff::Piece::Same(t) => out.push_str(&esc(t)),
                        worddiff::Piece::Elided => out.push('…'),
                        worddiff::Piece::Removed(t) => {
                            let _ = write!(out, "<del>{}</del>", esc(t));
                        }
                        worddiff::Piece::Added(t) => {
                            let _ = write!(out, "<ins>{}</ins>", esc(t));
                        }
                    }
                }
            }
            if let Some(rule) = &d.rule {
                let _ = write!(out, " <small>({})</small>", esc(rule));
            }
            out.push_str("</td></tr>\n");
        }
    }
    out.push_str("</tbody></table>\n");
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::report::matrix::{RunReport, build};

    /// Text that breaks hand-written HTML.
    const HOSTILE: &str =
        "<script>alert(1)</script> <b>x</b> &amp; \" ' \u{0}\u{1b}[31m <!-- </td></tr>";

    /// A report whose every free text holds `h` (its observables, needs and kinds of breakage are
    /// names a report is refused without).
    fn hostile_report(h: &str) -> RunReport {
        let report = serde_json::json!({
            "report_version": 3, "profile": "baseline", "implementation": h,
            "implementation_info": {"name": format!("n {h}"), "version": format!("v {h}"),
                                    "language": h},
            "command": [h], "spec": format!("s {h}"), "observes": ["sessions"],
            "results": [
                {"id": format!("ID {h}"), "area": h, "title": format!("T {h}"), "clauses": [h],
                 "row": h, "verdict": "fail", "status": "fail",
                 "differences": [{"severity": "TEXT", "pointer": format!("/p {h}"),
                                  "expected": format!("e {h}"), "actual": format!("a {h}"),
                                  "rule": format!("r {h}")}]},
                {"id": format!("B {h}"), "title": h, "clauses": [], "verdict": "broken",
                 "status": "expected-fail", "expected_failure": format!("why {h}"),
                 "error": {"kind": "crash", "message": format!("m {h}"),
                           "stderr": [format!("s {h}")]}},
                {"id": format!("N {h}"), "clauses": [], "verdict": "not-applicable",
                 "status": "not-applicable", "missing": ["sessions"]}
            ]
        });
        RunReport::parse(&report.to_string()).unwrap()
    }

    /// Checks that no text from a report becomes markup on `page`: every `<` after the style
    /// sheet opens a tag the renderer writes, and no control character is left as it was sent.
    fn page_holds(page: &str) {
        assert!(!page.contains('\u{1b}') && !page.contains('\u{0}'));
        let allowed = [
            "!DOCTYPE", "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4",
            "p", "nav", "a", "section", "table", "thead", "tbody", "tr", "th", "td", "small",
            "span", "br", "code", "pre", "b", "article", "del", "ins",
        ];
        let css_end = page.find("</style>").unwrap();
        for tag in page[css_end..].split('<').skip(1) {
            let name: String = tag
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
                .collect();
            assert!(allowed.contains(&name.as_str()), "<{tag:.40}");
        }
    }

    /// Checks every matrix writer on `sources`: the page makes no markup of a report's text, the
    /// Markdown no HTML, each badge is XML a strict parser reads, and comparing the first run
    /// with the last is written.
    pub(crate) fn matrix_writers_hold(sources: &[(String, RunReport)]) {
        let m = build(sources).unwrap();
        page_holds(&render(&m));
        let md = crate::report::matrix::markdown::render(&m);
        for e in pulldown_cmark::Parser::new_ext(&md, pulldown_cmark::Options::ENABLE_TABLES) {
            if let pulldown_cmark::Event::Html(h) | pulldown_cmark::Event::InlineHtml(h) = e {
                panic!("HTML {h:?} in\n{md}");
            }
        }
        for b in crate::report::matrix::badge::badges(&m) {
            roxmltree::Document::parse(&b.svg).unwrap_or_else(|e| panic!("{e}: {}", b.svg));
        }
        if let (Some((old_file, old)), Some((new_file, new))) = (sources.first(), sources.last()) {
            let changes = crate::report::matrix::regress::compare(old, new);
            let text = crate::report::matrix::regress::text(
                old,
                new,
                (old_file, new_file),
                &changes,
                false,
            );
            assert!(
                !text.chars().any(|c| c.is_control() && c != '\n'),
                "{text:?}"
            );
        }
    }

    /// No text from a report becomes markup: every `<` on the page opens a tag the renderer wrote.
    #[test]
    fn report_texts_never_become_markup() {
        let m = build(&[("f <x>.json".to_owned(), hostile_report(HOSTILE))]).unwrap();
        let page = render(&m);
        assert!(!page.contains("<script"), "a script from a report");
        assert!(!page.contains("<b>x"), "markup from a report");
        assert!(!page.contains("<!--"), "a comment from a report");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("\\u{001b}[31m"), "controls shown as escapes");
        page_holds(&page);
        // One cell per case, each with its status.
        for (id, status) in [
            ("ID ", "fail"),
            ("B ", "expected-fail"),
            ("N ", "not-applicable"),
        ] {
            let attr = format!("data-case=\"{}", esc(id));
            let cells: Vec<&str> = page.match_indices(&attr).map(|(i, _)| &page[i..]).collect();
            assert!(
                cells
                    .iter()
                    .any(|c| c.contains(&format!("data-status=\"{status}\""))),
                "{id}"
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

        /// Any text in two reports: every matrix writer holds.
        #[test]
        fn any_text_in_reports_never_becomes_markup(
            a in crate::report::tests::any_text(),
            b in crate::report::tests::any_text(),
        ) {
            // Two reports alike in every text are one run given twice, which does not merge.
            proptest::prop_assume!(a != b);
            matrix_writers_hold(&[
                (format!("{a}.json"), hostile_report(&a)),
                (format!("{b}.json"), hostile_report(&b)),
            ]);
        }
    }

    #[test]
    fn the_page_fetches_nothing() {
        let m = build(&[("r.json".to_owned(), hostile_report(HOSTILE))]).unwrap();
        let page = render(&m);
        for outside in [
            "http:", "https:", "src=", "<link", "<script", "@import", "url(",
        ] {
            assert!(!page.contains(outside), "{outside}");
        }
    }
}
