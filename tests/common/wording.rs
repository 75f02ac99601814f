//! `autoreview check` with a gate's own wording, as both tiers' wording tests run it.

use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_autoreview");

/// Runs `check` with `args` and returns its exit code, its report and its terminal output.
pub fn check(name: &str, args: &[&str]) -> (Option<i32>, Value, String) {
    let dir = crate::shared_dir::fresh(&format!("wording-{name}"));
    let json = dir.join("report.json").to_string_lossy().into_owned();
    let out = Command::new(BIN)
        .arg("check")
        .args(["--report-json", &json])
        .args(args)
        .output()
        .expect("run autoreview");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    let report = std::fs::read_to_string(&json)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    (out.status.code(), report, text)
}
