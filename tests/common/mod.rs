//! Helpers both test tiers use: the fast tier (`tests/suite/`) and the second tier
//! (`tests/external/`) include this directory as their `common` module.

pub mod process; // running the built binary: with input, to its end, under sh, as an adapter
pub mod profiles; // profiles of one's own, from a shipped one, and what a check of them reports
pub mod runner; // fixed cases against an adapter over the protocol
pub mod wording; // `check` with a gate's own wording
