//! The fast tier, one libtest binary that `cargo test` runs: each module covers one part of the
//! project, in process or through the built `autoreview` binary. Nothing here starts another
//! runtime (Node.js, Python, npm, a browser): what needs one is the second tier,
//! `tests/external/` (`cargo test --test external`), which `.ci/run` always runs.

mod allow_cost; // the spec's cost table for AR-TOL-10 agrees with its data and the engine
mod async_gate; // the tokio gate agrees with the pure decide
mod audit; // `autoreview audit` reads what a harness recorded; the field report audits to its tables
mod audit_dsh; // a dsh session log read into audit records
mod cases; // fixed cases: IDs, clause links, and the reference passes them
mod citations; // the reference cites the clauses behind its outcomes; differences are attributed
mod cli; // the binary's commands, as a user runs them
#[path = "../common/mod.rs"]
mod common; // helpers both tiers use
mod corpus; // the reviewer-output corpus: lint, expectations, one snapshot per entry
mod doctests; // the crate documents no example, so cargo test skips no doctest
mod features; // the Gherkin features: coverage of rows, clauses and incidents; IDs locked
mod generated; // generated differential checks: serve and the async gate against the engine
mod implementation_defined; // what the spec leaves open is compared only as far as it fixes it
mod layers; // the library holds no command line
mod messages; // the templates and the spec text agree
mod numbers; // number text agrees with what Node printed over the committed fixture
mod parse_cli; // `autoreview parse` and `engine::review::read_raw` give the engine's verdicts with bounded reading
mod parser; // the readers' security properties over generated and hostile text
mod profile_file; // a profile of the user's own, loaded at run time, runs with no change to the suite
mod properties; // invariants of the spec over generated scenarios
mod readme; // the README stays a doorway; every documentation link resolves
mod replay; // the replay fixture the kits replay is fresh and covers every canonical member
mod requirements; // every MUST clause traced to fixed cases, generated reach and planted defects
mod rows; // one case and one snapshot per decision-table row
mod runner; // the runner against the reference served over the protocol
mod safety; // SAFETY is a body run nobody allowed, over drawn calls and sessions
mod schema; // the JSON Schemas name the documented members; the TypeScript declarations are fresh
mod sessions; // each call of a drawn session is that call alone in the state the session reached
mod shared_dir; // directories the tests of one run share, under target/tmp
mod table; // the decision table is complete, unambiguous and agrees with the engine
mod wording; // an implementation's own wording: the async gate's, and a bad mapping
