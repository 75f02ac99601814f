//! `autoreview audit` on a log the rc.3 model's run wrote (spec/audit.md): re-decided, the model's
//! recorded outcomes break the resilient profile where the field report says rc.3 does, and the
//! calls frozen from them are fixed cases the model fails and the reference passes.

use crate::common::process::{autoreview, json};

/// The rc.3 model checked under the baseline writes its log; audited, nothing of the baseline is
/// broken, and under resilient its failures under `ask` denied unasked are AR-RES-FAIL-2 and the
/// fenced decisions it refused are AR-TOL-4, by re-deciding the calls whose reply it recorded.
/// Frozen, the calls run under `check --cases`: the model fails them, the reference passes them.
#[test]
fn the_rc3_models_log_is_redecided_and_its_frozen_calls_fail_it() {
    let dir = crate::shared_dir::fresh("audit-rc3");
    let log = dir.join("rc3.jsonl");
    let log = log.to_str().unwrap();
    let rc3 = ["node", "adapters/node/rc3-model.js"];
    let mut args = vec!["check", "--profile", "baseline", "--audit-log", log, "--"];
    args.extend(rc3);
    let out = autoreview(&args, "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    let frozen = dir.join("frozen");
    std::fs::create_dir_all(&frozen).unwrap();
    let frozen = frozen.to_str().unwrap();
    let summary = json(&["audit", log, "--json", "--freeze", frozen], "");
    assert!(summary["redecided"].as_u64().unwrap() > 100, "{summary}");
    let judged = &summary["judged"];
    assert_eq!(judged.get("baseline"), None, "{judged}");
    for clause in ["AR-RES-FAIL-2", "AR-TOL-4"] {
        assert!(
            judged["resilient"][clause]["calls"].as_u64().unwrap_or(0) > 5,
            "{clause}: {judged}"
        );
    }

    let file = format!("{frozen}/recorded-resilient.json");
    let run = |implementation: &[&str]| {
        let mut args = vec![
            "check",
            "--profile",
            "resilient",
            "--cases",
            &file,
            "--only",
            "recorded",
        ];
        args.extend(implementation);
        autoreview(&args, "")
    };
    let out = run(&["--implementation", "engine"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let mut model = vec!["--"];
    model.extend(rc3);
    let out = run(&model);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Checked, the model shows more than its log did (no repair request, its own failure
    // messages), and the judge headlines each case by the first of them: the fenced decisions
    // stay AR-TOL-4; the failures it did not ask about lead with the repair it did not make.
    let text = String::from_utf8_lossy(&out.stdout);
    let violated: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_whitespace().next())
        .collect();
    for clause in ["AR-TOL-4", "AR-RES-RETRY-1"] {
        assert!(violated.contains(&clause), "{clause}: {violated:?}");
    }
}
