//! Renders a run for the terminal: failures first, then a per-area summary, then the last line
//! `N passed, N failed`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{Report, Verdict};

/// The human summary of a run.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "autoreview check — profile {}, implementation: {}\n",
        report.profile, report.implementation
    );
    for r in &report.results {
        let (label, lines) = match &r.verdict {
            Verdict::Pass => continue,
            Verdict::Fail(d) => ("FAIL", d.clone()),
            Verdict::Error(e) => ("ERROR", vec![e.clone()]),
            Verdict::Panic(p) => ("PANIC", vec![p.clone()]),
        };
        let _ = writeln!(out, "{label} {} [{}] {}", r.id, r.area, r.title);
        for l in lines {
            let _ = writeln!(out, "    {l}");
        }
    }
    let mut areas: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for r in &report.results {
        let e = areas.entry(&r.area).or_insert_with(|| {
            order.push(&r.area);
            (0, 0)
        });
        if r.verdict.passed() {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    }
    let width = order.iter().map(|a| a.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "{:width$}  {:>6}  {:>6}  {:>6}",
        "area", "cases", "passed", "failed"
    );
    for a in order {
        let (p, f) = areas[a];
        let _ = writeln!(out, "{a:width$}  {:>6}  {p:>6}  {f:>6}", p + f);
    }
    let _ = writeln!(
        out,
        "\n{} passed, {} failed",
        report.passed(),
        report.failed()
    );
    out
}
