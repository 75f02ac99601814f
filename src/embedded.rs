//! The spec's data files (case files, profile files, decision tables, the reviewer-output
//! corpus), embedded at build time by `build.rs` so that the binary carries the suite with it.
//! Kept apart from the modules that read them, so neither depends on the other for its files.

include!(concat!(env!("OUT_DIR"), "/spec_files.rs"));
