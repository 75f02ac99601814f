//! The second tier: the tests that start another runtime. Node.js runs the example gate, the rc.3
//! model, the tampered and misbehaving adapters and the Node kit's own tests; npm packs and installs
//! the kit and TypeScript compiles against it; Python 3 checks the number text a Python gate
//! writes; headless Chromium opens the matrix page. `cargo test` does not build or run this binary
//! (`test = false` in Cargo.toml); `cargo test --test external` does, and `.ci/run` always runs it
//! after installing TypeScript and Chromium. A tool that is missing here is a failure naming what
//! to install, never a skip: see [`tools`].

mod adapters; // the Node.js skeleton, its example gate and the rc.3 model, over the protocol
mod audit; // the rc.3 model's own log audited, re-decided, and its frozen calls run against it
mod cli; // the README's CI recipe as pasted; word diffs of a tampered gate's texts
#[path = "../common/mod.rs"]
mod common; // helpers both tiers use
mod generated; // tampered adapters, the rc.3 model and repro lines under generated cases
mod json_parse; // the strict reader agrees with the shipped JSON.parse check, run by Node
mod matrix; // many runs on one page (checked in headless Chromium), and compare of two runs
mod node_package; // the Node kit packed, installed, run by its name, and compiled against as TypeScript
mod numbers; // the number fixture is what its Node generator writes
mod planted; // Python's str of a float, checked against python3 itself
mod profile_file; // a fourth profile, as a file only, passed by both example gates deciding by rule
#[path = "../planted/python_str.rs"]
mod python_str; // the planted Python gate's number text, which `planted` checks
mod runner; // the runner against crashing, stalling, lying and slow adapters written in Node.js
#[path = "../suite/shared_dir.rs"]
mod shared_dir; // directories the tests of one run share, under target/tmp
mod tools; // the runtimes this tier needs, each required
mod wording; // a gate in its own words passes with its mapping and fails without it; in its own words where the spec leaves them open, it passes without one
