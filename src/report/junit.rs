//! JUnit XML ([`junit`]), as cargo-nextest writes it, and text as XML holds it ([`xml_text`]).

use std::fmt::Write as _;

use super::{needs_text, violation_rows};
use crate::runner::{CaseResult, Report, Status, Verdict};

/// Text XML 1.0 can hold, and that quick-junit keeps as it is: the characters XML forbids (C0
/// controls but line feed, U+FFFE, U+FFFF) and those quick-junit would drop (tab, carriage return,
/// DEL, C1 controls, and the escape that starts terminal colour codes) are written as `\t`, `\r`
/// or `\u{XXXX}`, so a report shows what the adapter sent instead of losing it.
pub fn xml_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}' => {
                let _ = write!(out, "\\u{{{:04x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The run's facts every JUnit test suite carries as properties.
fn junit_properties(report: &Report) -> Vec<quick_junit::Property> {
    let mut p = vec![
        ("profile", report.profile.to_string()),
        ("level", report.level.to_string()),
        ("implementation", report.implementation.clone()),
        ("compared_with", report.oracle.describe().to_owned()),
        (
            "runner",
            format!("autoreview {}", env!("CARGO_PKG_VERSION")),
        ),
    ];
    if let Some(v) = report.protocol {
        p.push(("protocol", v.to_string()));
    }
    let coverage = report.coverage();
    p.push(("coverage", coverage.to_string()));
    if !coverage.unjudged.is_empty() {
        p.push(("coverage_unjudged", coverage.unjudged.join(", ")));
    }
    if let Some(seed) = report.seed {
        p.push(("seed", seed.to_string()));
    }
    p.into_iter()
        .map(|(k, v)| quick_junit::Property::new(k, xml_text(&v)))
        .collect()
}

/// One case as a JUnit test case. Unexpected failures are failures, or errors when the
/// implementation gave no outcome; expected failures are skipped tests; an unexpected pass is a
/// failure under `strict` and a passing test with a note otherwise.
fn junit_case(r: &CaseResult, strict: bool) -> quick_junit::TestCase {
    use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus};
    let body = || xml_text(&r.detail_lines(50, None).join("\n"));
    let mut note = None;
    let status = match (r.status, &r.verdict) {
        (Status::Pass, _) => TestCaseStatus::success(),
        (Status::NotApplicable, verdict) => {
            let mut s = TestCaseStatus::skipped();
            let missing = match verdict {
                Verdict::NotApplicable { missing } => missing.as_slice(),
                _ => &[],
            };
            s.set_message(format!("not applicable: {}", needs_text(missing)));
            s
        }
        (Status::ExpectedFail, _) => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(xml_text(&format!(
                "expected failure: {}",
                r.expected_failure.as_deref().unwrap_or_default()
            )))
            .set_description(body());
            s
        }
        (Status::UnexpectedPass, _) if strict => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_type("UNEXPECTED-PASS")
                .set_message("passes but is listed as an expected failure");
            s
        }
        (Status::UnexpectedPass, _) => {
            note = Some("passes but is listed as an expected failure");
            TestCaseStatus::success()
        }
        (Status::Fail, Verdict::Broken { error }) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_type(error.kind.as_str())
                .set_message(xml_text(&error.message))
                .set_description(body());
            s
        }
        (Status::Fail, _) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            let first = r
                .detail_lines(1, None)
                .into_iter()
                .next()
                .unwrap_or_default();
            s.set_type(r.label())
                .set_message(xml_text(&first))
                .set_description(body());
            s
        }
    };
    let name = if r.title.is_empty() {
        r.id.clone()
    } else {
        format!("{}: {}", r.id, r.title)
    };
    let mut case = TestCase::new(xml_text(&name), status);
    case.set_classname(xml_text(&r.area)).set_time(r.duration);
    if let Some(note) = note {
        case.set_system_out(note);
    }
    case
}

/// JUnit XML, as cargo-nextest writes it (quick-junit): first a `violations` suite, one test case
/// per violated clause (a failure typed by its worst severity, or skipped when only expected
/// failures break it), then one test suite per area, one test case per case with its duration; each suite carries the run's start and facts (profile, implementation,
/// protocol, seed) as properties. Under `strict`, stale expectations fail the run, so each is a
/// failed test case of an `expectations` suite. Fails only if XML cannot be written to memory.
pub fn junit(report: &Report, strict: bool) -> Result<String, quick_junit::SerializeError> {
    use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
    let started = chrono::DateTime::<chrono::Utc>::from(report.started);
    let properties = junit_properties(report);
    let mut out = quick_junit::Report::new(xml_text(&format!("autoreview {}", report.profile)));
    out.set_timestamp(started).set_time(report.duration);
    // Suites in the order their areas first appear, after the violated clauses.
    let mut areas: Vec<&str> = Vec::new();
    let mut suites: Vec<TestSuite> = Vec::new();
    let violations = report.violations();
    let mut violated = None;
    if !violations.is_empty() {
        let mut suite = TestSuite::new("violations");
        suite
            .set_timestamp(started)
            .add_properties(properties.clone());
        for (v, row) in violations.iter().zip(violation_rows(report, &violations)) {
            let [clause, severity, level, cases, first, counterexample] = row;
            let message = format!(
                "{cases} case{} break it, first {first}; at level {level} and above",
                if v.cases == 1 { "" } else { "s" }
            );
            let status = if v.fails_the_run() {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                s.set_type(severity)
                    .set_message(xml_text(&message))
                    .set_description(xml_text(&format!("counterexample: {counterexample}")));
                s
            } else {
                let mut s = TestCaseStatus::skipped();
                s.set_message(xml_text(&format!("expected failures only: {message}")));
                s
            };
            let mut case = TestCase::new(xml_text(&clause), status);
            case.set_classname("violations");
            suite.add_test_case(case);
        }
        violated = Some(suite);
    }
    for r in &report.results {
        let i = match areas.iter().position(|a| *a == r.area) {
            Some(i) => i,
            None => {
                let mut suite = TestSuite::new(xml_text(&r.area));
                suite
                    .set_timestamp(started)
                    .add_properties(properties.clone());
                areas.push(&r.area);
                suites.push(suite);
                suites.len() - 1
            }
        };
        let suite = &mut suites[i];
        suite.time = Some(suite.time.unwrap_or_default() + r.duration);
        suite.add_test_case(junit_case(r, strict));
    }
    // Generated cases that passed, or were not applicable, are counted, not kept: one test case
    // stands for each kind.
    let mut not_applicable = TestCaseStatus::skipped();
    not_applicable.set_message("not applicable: needs a capability the implementation lacks");
    let counted = [
        (report.generated_passed, "passed", TestCaseStatus::success()),
        (
            report.generated_not_applicable,
            "not applicable",
            not_applicable,
        ),
    ];
    for (n, what, status) in counted {
        if n == 0 {
            continue;
        }
        let i = match areas.iter().position(|a| *a == "generated") {
            Some(i) => i,
            None => {
                let mut suite = TestSuite::new("generated");
                suite
                    .set_timestamp(started)
                    .add_properties(properties.clone());
                areas.push("generated");
                suites.push(suite);
                suites.len() - 1
            }
        };
        let mut case = TestCase::new(format!("{n} generated cases {what}"), status);
        case.set_classname("generated");
        suites[i].add_test_case(case);
    }
    if strict && !report.stale_expectations.is_empty() {
        let mut suite = TestSuite::new("expectations");
        suite
            .set_timestamp(started)
            .add_properties(properties.clone());
        for id in &report.stale_expectations {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_type("STALE-EXPECTATION")
                .set_message("listed as an expected failure but names no case of this run");
            let mut case = TestCase::new(xml_text(id), status);
            case.set_classname("expectations");
            suite.add_test_case(case);
        }
        suites.push(suite);
    }
    out.add_test_suites(violated.into_iter().chain(suites));
    out.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::hostile_report;

    /// JUnit XML parses with a strict parser whatever text an adapter sends; forbidden characters
    /// show as `\u{XXXX}`, markup characters come back as they were sent.
    #[test]
    fn junit_is_valid_xml_for_any_text() {
        let r = hostile_report();
        for strict in [false, true] {
            let xml = junit(&r, strict).unwrap();
            let doc = roxmltree::Document::parse(&xml)
                .unwrap_or_else(|e| panic!("invalid XML ({e}):\n{xml}"));
            let texts: String = doc
                .descendants()
                .filter_map(|n| n.text())
                .collect::<Vec<_>>()
                .join("\n");
            for shown in [
                "\\u{0000}",
                "\\u{001f}",
                "\\u{fffe}",
                "\\u{ffff}",
                "\\u{001b}[31mred",
            ] {
                assert!(texts.contains(shown), "{shown} in {texts}");
            }
            assert!(
                texts.contains("]]> <tool_call> *x* _y_ ~~z~~ $a$"),
                "{texts}"
            );
            assert!(texts.contains("&amp; & \" '"), "{texts}");
        }
    }

    /// JUnit keeps the run's facts: durations, the start, and the properties of each suite.
    #[test]
    fn junit_carries_times_the_start_and_the_runs_facts() {
        let r = hostile_report();
        let xml = junit(&r, true).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        assert_eq!(root.attribute("time"), Some("0.010"));
        assert_eq!(
            root.attribute("timestamp"),
            Some("1970-01-01T00:00:00.000+00:00")
        );
        let suites: Vec<_> = root
            .children()
            .filter(|n| n.has_tag_name("testsuite"))
            .collect();
        let names: Vec<_> = suites
            .iter()
            .map(|s| s.attribute("name").unwrap())
            .collect();
        assert_eq!(names, ["violations", "area", "expectations"]);
        let area = suites[1];
        assert_eq!(area.attribute("timestamp"), root.attribute("timestamp"));
        // Five cases of 3 ms each.
        assert_eq!(area.attribute("time"), Some("0.015"));
        let props: Vec<(&str, &str)> = area
            .descendants()
            .filter(|n| n.has_tag_name("property"))
            .map(|n| (n.attribute("name").unwrap(), n.attribute("value").unwrap()))
            .collect();
        let prop = |k: &str| props.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
        assert_eq!(prop("profile"), Some("baseline"));
        assert_eq!(prop("level"), Some("full"));
        assert_eq!(prop("seed"), Some("7"));
        assert_eq!(prop("protocol"), Some("1"));
        assert!(
            prop("implementation")
                .unwrap()
                .starts_with("gate \\u{0000}"),
            "{props:?}"
        );
        let cases: Vec<_> = area
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(cases.len(), 5);
        assert!(cases.iter().all(|c| c.attribute("time") == Some("0.003")));
        // Today's semantics: failures, errors, skipped expected failures, unexpected passes.
        let kind = |c: &roxmltree::Node| {
            c.children()
                .find(|n| n.is_element())
                .map(|n| n.tag_name().name().to_owned())
                .unwrap_or_default()
        };
        let kinds: Vec<String> = cases.iter().map(kind).collect();
        assert_eq!(kinds, ["", "failure", "error", "skipped", "failure"]);
        assert_eq!(
            (
                area.attribute("failures"),
                area.attribute("errors"),
                area.attribute("skipped")
            ),
            (Some("2"), Some("1"), Some("1"))
        );
        let lenient = junit(&r, false).unwrap();
        let doc = roxmltree::Document::parse(&lenient).unwrap();
        let kinds: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .map(|c| kind(&c))
            .collect();
        assert_eq!(
            kinds,
            ["failure", "", "failure", "error", "skipped", "system-out"],
            "the violated clause, then the cases; no stale suite"
        );
    }
}
