//! The number fixture (`spec/fixtures/js-numbers.jsonl`, what Node's `String(x)` and
//! `JSON.stringify(x)` print for each double) is what its generator writes, run by Node here; the
//! fast tier checks the library's number text against the committed fixture.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const FIXTURE: &str = "spec/fixtures/js-numbers.jsonl";
const SCRIPT: &str = "tools/js-numbers.mjs";

#[test]
fn the_fixture_is_what_the_generator_writes() {
    let version = crate::tools::node();
    let tmp = std::env::temp_dir().join(format!("js-numbers-{}.jsonl", std::process::id()));
    let run = Command::new("node")
        .arg(Path::new(ROOT).join(SCRIPT))
        .arg(&tmp)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "node {SCRIPT} failed ({}): {}",
        version,
        String::from_utf8_lossy(&run.stderr)
    );
    let fresh = std::fs::read_to_string(&tmp).unwrap();
    let _ = std::fs::remove_file(&tmp);
    let committed = std::fs::read_to_string(Path::new(ROOT).join(FIXTURE)).unwrap();
    assert!(
        fresh == committed,
        "{FIXTURE} is stale: regenerate it with `node {SCRIPT}` (node {version})"
    );
}
