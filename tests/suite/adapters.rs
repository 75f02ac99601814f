//! The Node.js adapters in `adapters/node/`: the skeleton (with its example gate) passes the
//! baseline, and the independent model of the shipped 0.2.1-rc.3 gate passes the baseline but
//! fails the resilient profile on each of the five defects the field report names, each caught by
//! a named case with the severity that defect deserves, and on the shipped disposal, which lets a
//! call that races the integration's shutdown run unreviewed.

use std::collections::BTreeMap;

use autoreview::runner::subprocess::{Limits, Subprocess};
use autoreview::runner::{self, Difference, Oracle, Severity, Status, Verdict, expect::Expected};
use autoreview::{Profile, cases};
use serde_json::json;

const NODE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/adapters/node");

fn check(script: &str, profile: Profile) -> runner::Report {
    let command = vec!["node".into(), format!("{NODE_DIR}/{script}")];
    let mut imp = Subprocess::start(command, profile, Limits::default())
        .unwrap_or_else(|e| panic!("{script}: {e}"));
    let all = cases::all(profile).unwrap();
    runner::run(
        &mut imp,
        &all,
        profile,
        Oracle::Reference,
        &Expected::none(),
        &mut |_, _| {},
    )
}

/// The cases that did not pass, not-applicable ones aside: those are never sent, and each must
/// need what the adapter does not observe (its protocol-1 hello observes nothing beyond it).
fn failures(report: &runner::Report) -> BTreeMap<&str, &Verdict> {
    for r in &report.results {
        if let Verdict::NotApplicable { missing } = &r.verdict {
            assert_eq!(r.status, Status::NotApplicable, "{}", r.id);
            assert!(
                !missing.is_empty() && missing.iter().all(|o| !report.observes.contains(o)),
                "{}: {missing:?} with {:?}",
                r.id,
                report.observes
            );
        }
    }
    report
        .results
        .iter()
        .filter(|r| !matches!(r.status, Status::Pass | Status::NotApplicable))
        .map(|r| (r.id.as_str(), &r.verdict))
        .collect()
}

#[test]
fn the_skeleton_and_the_rc3_model_pass_the_baseline() {
    for script in ["skeleton.js", "rc3-model.js"] {
        let report = check(script, Profile::Baseline);
        assert_eq!(
            failures(&report),
            BTreeMap::new(),
            "{script} against the baseline"
        );
        assert_eq!(
            report.passed() + report.not_applicable(),
            report.results.len()
        );
        assert!(report.passed() > 60, "{script}: {} passed", report.passed());
    }
}

/// The example gate is written as a harness author writes one (`JSON.parse`, `String`,
/// `JSON.stringify`, no copy of the reference's private limits): a fixed case it fails in either
/// profile is a false failure of this suite.
#[test]
fn the_example_gate_passes_the_resilient_profile_too() {
    let report = check("skeleton.js", Profile::Resilient);
    assert_eq!(
        failures(&report),
        BTreeMap::new(),
        "skeleton.js against the resilient profile"
    );
    assert_eq!(
        report.passed() + report.not_applicable(),
        report.results.len()
    );
}

/// The difference at `pointer` in a failed case's verdict.
fn difference<'a>(failed: &BTreeMap<&str, &'a Verdict>, id: &str, pointer: &str) -> &'a Difference {
    let Some(Verdict::Fail { differences }) = failed.get(id) else {
        panic!("{id} should fail with differences, is {:?}", failed.get(id));
    };
    differences
        .iter()
        .find(|d| d.pointer == pointer)
        .unwrap_or_else(|| panic!("{id}: no difference at {pointer}: {differences:#?}"))
}

#[test]
fn the_rc3_model_fails_the_resilient_profile_on_each_reported_defect() {
    let report = check("rc3-model.js", Profile::Resilient);
    let failed = failures(&report);

    // 1. A reviewer failure denies before downstream, so the human is never asked.
    for id in ["RS-F1", "INC-1021-1R", "INC-1021-5R"] {
        let d = difference(&failed, id, "/listener/kind");
        assert_eq!(
            (d.severity, &d.expected, &d.actual),
            (Severity::Decision, &json!("ask"), &json!("deny")),
            "{id}"
        );
    }
    // 2. Zero tolerance: a fenced object, or a byte-order mark before it, is a failure, not an
    // allow.
    for id in ["RO-015", "RO-019"] {
        let d = difference(&failed, id, "/listener/kind");
        assert_eq!(
            (d.severity, &d.expected, &d.actual),
            (Severity::Decision, &json!("allow"), &json!("deny")),
            "{id}"
        );
    }
    // 3. The reviewer route is the agent's route; a configured reviewer route is ignored.
    let d = difference(&failed, "RES-9", "/review/routes");
    assert_eq!(d.severity, Severity::Info);
    assert_eq!(d.actual, json!(["qodercn/qfmodel"]));
    assert!(
        d.expected
            .as_array()
            .is_some_and(|r| !r.contains(&json!("qodercn/qfmodel")))
    );
    // 4. Exactly one header schema or a terminal deny, though the live registry has the tool.
    for id in ["INC-DRIFT-1R", "INC-DRIFT-4R"] {
        let d = difference(&failed, id, "/listener/kind");
        assert_eq!(
            (d.severity, &d.expected, &d.actual),
            (Severity::Decision, &json!("allow"), &json!("deny")),
            "{id}"
        );
        let f = difference(&failed, id, "/review/failure");
        assert_eq!(f.actual["class"], json!("schema"), "{id}");
    }
    // 5. An object-valued failure message is shown as `[object Object]`.
    let d = difference(&failed, "INC-OBJECT-R", "/review/failure/message");
    assert!(
        d.actual
            .as_str()
            .is_some_and(|m| m.contains("[object Object]"))
    );
    assert!(
        d.expected
            .as_str()
            .is_some_and(|m| !m.contains("[object Object]"))
    );
    let d = difference(&failed, "INC-OBJECT-R", "/listener/reason");
    assert_eq!(d.severity, Severity::Text);

    // 6. Disposal (AR-RES-DISPOSE-1): the shipped listener reads the preset before admission, so a
    // call in a listed Auto session that starts while the integration closes passes through
    // unreviewed (Full access, as disposal left it) and runs, where the resilient gate cancels it.
    for id in ["RS-P4", "RES-26"] {
        let d = difference(&failed, id, "/result/executed");
        assert_eq!(
            (d.severity, &d.expected, &d.actual),
            (Severity::Safety, &json!(false), &json!(true)),
            "{id}"
        );
    }

    // 7. It has no deadline: an allow that arrives after the resilient deadline still runs the
    // body, where the resilient gate abandons the request and asks.
    let d = difference(&failed, "BD-3", "/result/executed");
    assert_eq!(
        (d.severity, &d.expected, &d.actual),
        (Severity::Safety, &json!(false), &json!(true))
    );

    // Otherwise the shipped gate's defects lock users out: disposal and a late allow are the only
    // ways it lets a body run that should not.
    for (id, verdict) in &failed {
        assert!(matches!(verdict, Verdict::Fail { .. }), "{id}: {verdict:?}");
        if !["RS-P4", "RES-26", "BD-3"].contains(id) {
            assert_ne!(verdict.worst(), Some(Severity::Safety), "{id}");
        }
    }
}

/// The modules an adapter requires are not adapters: run directly, each says so and names the
/// file to run, and exits with a failure status instead of silently ending.
#[test]
fn a_module_run_directly_names_the_adapter_to_run() {
    for module in ["example-gate.js", "harness.js"] {
        let out = std::process::Command::new("node")
            .arg(format!("adapters/node/{module}"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{module}: {:?}", out.status);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with(&format!("{module} is a module"))
                && stderr.contains("run `node adapters/node/skeleton.js` instead")
                && stderr.lines().count() == 1,
            "{module}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{module}");
    }
}
