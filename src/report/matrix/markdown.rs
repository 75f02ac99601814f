//! The matrix as a Markdown table for a CI step page or a pull request: the columns' scores, then
//! one line per chapter and per clause (not per case), every text from a report escaped so it
//! shows literally.

use std::fmt::Write as _;

use super::model::{ClauseCell, ColumnCounts, Matrix};
use super::read::Worst;
use crate::report::md_text;

/// The Markdown summary.
pub fn render(m: &Matrix) -> String {
    let mut out = String::from("## Conformance matrix\n\n");
    out.push_str(
        "Score = passed ÷ (passed + failed), per profile. Not-applicable cases (needing what the \
         implementation does not observe or cannot express) are counted apart and never as \
         passes; an expected failure counts as failed. MUST clauses judged: those of the profile a \
         case put to the implementation cites. A clause's line counts every case citing it, a \
         chapter's every case citing one of its clauses.\n\n",
    );
    header(&mut out, "", m);
    out.push_str("| **score** |");
    for c in &m.columns {
        let s = &c.score;
        let _ = write!(
            out,
            " **{}** ({} of {}) |",
            s.percent(),
            s.passed,
            s.passed + s.failed
        );
    }
    out.push_str("\n| not applicable |");
    for c in &m.columns {
        let _ = write!(out, " {} |", c.score.not_applicable);
    }
    out.push_str("\n| MUST clauses judged |");
    for c in &m.columns {
        let _ = write!(out, " {} |", super::judged(c));
    }
    out.push('\n');
    for ch in &m.chapters {
        let title = if ch.number.is_empty() {
            md_text(&ch.title, 120)
        } else {
            format!("{}. {}", md_text(&ch.number, 10), md_text(&ch.title, 120))
        };
        let _ = write!(out, "| **{title}** |");
        cells(&mut out, &ch.tallies);
        for cl in &ch.clauses {
            let name = if cl.clause.is_empty() {
                "no clause".to_owned()
            } else {
                md_text(&cl.clause, 60)
            };
            let _ = write!(out, "| {name} |");
            cells(&mut out, &cl.tallies);
        }
    }
    clauses(&mut out, m);
    out
}

/// The clause × implementation table: a line per clause some run violates, worst first, a cell
/// per column: `met`, `✗ 3 INFO` (cases, worst severity) or `—` (not compared).
fn clauses(out: &mut String, m: &Matrix) {
    if m.clauses.is_empty() {
        return;
    }
    out.push_str(
        "\n### Violated clauses\n\nA line for each clause some run violates, worst first: met \
         (a case citing it ran and none broke it), ✗ with the cases that broke it and the worst \
         severity, or — (no case citing it ran).\n\n",
    );
    header(out, "clause", m);
    for line in &m.clauses {
        let _ = write!(out, "| {} |", md_text(&line.clause, 60));
        for cell in &line.cells {
            match cell {
                ClauseCell::Met => out.push_str(" met |"),
                ClauseCell::Broken { cases, severity } => {
                    let _ = write!(out, " ✗ {cases} {severity} |");
                }
                ClauseCell::NotCompared => out.push_str(" — |"),
            }
        }
        out.push('\n');
    }
}

/// One line's cells: `12 ✓ · 3 ✗ DECISION · 2 n/a`, or `—` when the run holds none of the cases.
fn cells(out: &mut String, tallies: &[ColumnCounts]) {
    for t in tallies {
        if t.is_empty() {
            out.push_str(" — |");
            continue;
        }
        let mut parts = Vec::new();
        if t.passed > 0 || t.failed == 0 {
            parts.push(format!("{} ✓", t.passed));
        }
        if t.failed > 0 {
            let worst = t.worst.as_ref().map(Worst::label).unwrap_or_default();
            parts.push(format!("{} ✗ {}", t.failed, md_text(&worst, 30)));
        }
        if t.not_applicable > 0 {
            parts.push(format!("{} n/a", t.not_applicable));
        }
        let _ = write!(out, " {} |", parts.join(" · "));
    }
    out.push('\n');
}

/// A table's heading row, `first` over the row names and one column per run, and its rule.
fn header(out: &mut String, first: &str, m: &Matrix) {
    out.push('|');
    if !first.is_empty() {
        out.push(' ');
        out.push_str(first);
    }
    out.push_str(" |");
    for c in &m.columns {
        let _ = write!(out, " {} |", md_text(&c.label, 120));
    }
    out.push_str("\n|---|");
    for _ in &m.columns {
        out.push_str("---|");
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::matrix::{RunReport, build};

    /// The clause × implementation table, as a reader sees it: three gates, one that breaks
    /// the session id and a session's decision, one that words a template its own way and did
    /// not run the sessions, one that breaks nothing.
    #[test]
    fn the_clause_table() {
        let report = |name: &str, results: &str| {
            RunReport::parse(&format!(
                r#"{{"report_version": 5, "profile": "resilient", "implementation": "{name}",
                    "implementation_info": {{"name": "{name}", "version": "1", "language": "js"}},
                    "results": [{results}]}}"#
            ))
            .unwrap()
        };
        let case = |id: &str, clause: &str, status: &str, more: &str| {
            let verdict = match status {
                "pass" => "pass",
                "not-applicable" => "not-applicable",
                _ => "fail",
            };
            format!(
                r#"{{"id": "{id}", "clauses": ["{clause}"], "status": "{status}", "verdict": "{verdict}"{more}}}"#
            )
        };
        let cites = |severity: &str, pointer: &str, clauses: &str| {
            format!(
                r#", "differences": [{{"severity": "{severity}", "pointer": "{pointer}", "expected": 1, "actual": 2, "clauses": [{clauses}]}}]"#
            )
        };
        let requests = cites("INFO", "/review/requests", r#""AR-RES-REQUEST-1""#);
        let worded = cites("TEXT", "/listener/reason", r#""MSG-FAILED", "AR-MSG-2""#);
        let session = cites("DECISION", "/calls/1/listener/kind", r#""AR-SESSION-1""#);
        let a = report(
            "no-session-id",
            &[
                case("RS-1", "AR-RES-REQUEST-1", "fail", &requests),
                case("RS-2", "AR-RES-REQUEST-1", "expected-fail", &requests),
                case("RS-S1", "AR-SESSION-1", "fail", &session),
            ]
            .join(","),
        );
        let b = report(
            "own-words",
            &[
                case("RS-1", "AR-RES-REQUEST-1", "fail", &worded),
                case("RS-2", "AR-RES-REQUEST-1", "pass", ""),
                case(
                    "RS-S1",
                    "AR-SESSION-1",
                    "not-applicable",
                    r#", "missing": ["sessions"]"#,
                ),
            ]
            .join(","),
        );
        let c = report(
            "conforming",
            &[
                case("RS-1", "AR-RES-REQUEST-1", "pass", ""),
                case("RS-S1", "AR-SESSION-1", "pass", ""),
            ]
            .join(","),
        );
        let m = build(&[("a".into(), a), ("b".into(), b), ("c".into(), c)]).unwrap();
        let md = render(&m);
        let table = &md[md.find("### Violated clauses").expect("the clause table")..];
        insta::assert_snapshot!(table);
    }

    /// Texts from reports show literally, and every line of the table has a cell per column.
    #[test]
    fn report_texts_show_literally_in_the_table() {
        use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
        let h = r#"<b>x</b> *e* _u_ [l](u) | `c` &amp; \u001b"#;
        let report = |name: &str| {
            RunReport::parse(&format!(
                r#"{{"report_version": 3, "profile": "resilient", "implementation": "{name} {h}",
                    "results": [{{"id": "A", "clauses": ["AR-X-1 {h}"], "status": "fail", "verdict": "fail"}}]}}"#
            ))
            .unwrap()
        };
        let m = build(&[("a".into(), report("a")), ("b".into(), report("b"))]).unwrap();
        let md = render(&m);
        let mut cells = 0;
        let mut rows = Vec::new();
        let mut text = String::new();
        for e in Parser::new_ext(&md, Options::ENABLE_TABLES) {
            match e {
                Event::Html(h) | Event::InlineHtml(h) => panic!("HTML {h:?} in\n{md}"),
                Event::Start(Tag::Emphasis | Tag::Link { .. } | Tag::Strong)
                    if text.contains("AR-X") =>
                {
                    panic!("markup from a report in\n{md}")
                }
                Event::Start(Tag::TableCell) => cells += 1,
                Event::End(TagEnd::TableRow | TagEnd::TableHead) => {
                    rows.push(cells);
                    cells = 0;
                }
                Event::Text(t) | Event::Code(t) => text.push_str(&t),
                _ => {}
            }
        }
        assert!(
            rows.len() >= 5 && rows.iter().all(|n| *n == 3),
            "{rows:?}\n{md}"
        );
        assert!(
            text.contains("AR-X-1 <b>x</b> *e* _u_ [l](u) | `c` &amp; \\u{001b}"),
            "{text}"
        );
        assert!(text.contains("a <b>x</b>"), "{text}");
    }
}
