//! Running fixed cases against an adapter over the protocol, as both tiers' runner tests do.

use std::time::Duration;

use autoreview::runner::subprocess::{Limits, Subprocess};
use autoreview::runner::{self, Oracle, known_failures::Expected};
use autoreview::{Profile, cases};

pub fn check(
    command: Vec<String>,
    profile: Profile,
    cases: &[cases::Case],
    limits: Limits,
) -> runner::Report {
    let mut imp = Subprocess::start(command, profile, limits).unwrap_or_else(|e| panic!("{e}"));
    runner::run(
        &mut imp,
        cases,
        profile,
        Oracle::Reference,
        &Expected::none(),
        &mut |_, _| {},
    )
}

pub fn quick() -> Limits {
    Limits {
        timeout: Duration::from_millis(600),
        timeout_per_mib: Duration::from_millis(600),
        ..Limits::default()
    }
}

/// Cases that each need one observable beyond protocol 1, written as a case file: a log fact and a
/// header without a working directory (`session-log`), a session id other than the default and an
/// expectation that pins the requests (`requests`). Their expectations hold under both profiles'
/// reference, so any implementation that observes what they need is judged on them.
pub fn observable_cases(profile: Profile) -> Vec<cases::Case> {
    let allow = r#"{"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}"#;
    let text = format!(
        r#"{{"area": "observables", "about": "", "cases": [
  {{"id": "OBS-LOG", "title": "a log fact", "clauses": ["AR-REVIEW-11"], "profiles": ["baseline", "resilient"],
    "scenario": {{"tool": {{"name": "bash"}}, "log": "no-open-step", "reviewer": {allow}}},
    "expect": {{"review": {{"failure": {{"class": "session"}}}}}}}},
  {{"id": "OBS-CWD", "title": "no working directory", "clauses": ["AR-REVIEW-10"], "profiles": ["baseline"],
    "scenario": {{"tool": {{"name": "bash"}}, "session": {{"working_directory": false}}, "reviewer": {allow}}},
    "expect": {{"review": {{"failure": {{"class": "session"}}}}}}}},
  {{"id": "OBS-SID", "title": "a session id", "clauses": ["AR-RES-REQUEST-1"], "profiles": ["baseline", "resilient"],
    "scenario": {{"tool": {{"name": "bash"}}, "session": {{"id": "s-7"}}, "reviewer": {allow}}},
    "expect": {{"result": {{"executed": true}}}}}},
  {{"id": "OBS-REQ", "title": "the requests", "clauses": ["AR-REVIEW-12"], "profiles": ["baseline", "resilient"],
    "scenario": {{"tool": {{"name": "bash"}}, "reviewer": {allow}}},
    "expect": {{"review": {{"requests": [{{"route": "default/default", "temperature": 0, "tools": 0, "repair": false}}]}}}}}}
]}}"#
    );
    cases::file_cases("observables.json", &text, profile).unwrap_or_else(|e| panic!("{e}"))
}

/// A few table cases, every committed session case, and [`observable_cases`].
pub fn mixed_cases(profile: Profile) -> Vec<cases::Case> {
    let all = cases::all(profile).unwrap();
    let mut out: Vec<cases::Case> = all.iter().take(5).cloned().collect();
    out.extend(all.iter().filter(|c| c.call().is_none()).cloned());
    out.extend(observable_cases(profile));
    out
}

/// Asserts that every case of `report` passed, naming the first that did not with `what` (the
/// profile or the run) and its verdict.
pub fn every_case_passes(report: &runner::Report, what: &str) {
    for r in &report.results {
        assert_eq!(
            r.status,
            runner::Status::Pass,
            "{what} {}: {:?}",
            r.id,
            r.verdict
        );
    }
}
