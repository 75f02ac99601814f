//! The libtest suite, one binary: each module covers one part of the project.

mod adapters; // the Node.js skeleton and the rc.3 model, checked over the protocol
mod allow_cost; // the spec's cost table for AR-TOL-10 agrees with its data and the engine
mod async_gate; // the tokio gate agrees with the pure decide
mod cases; // fixed cases: IDs, clause links, and the reference passes them
mod citations; // the reference cites the clauses behind its outcomes; differences are attributed
mod cli; // the binary's commands, as a user runs them
mod corpus; // the reviewer-output corpus: lint, expectations, one snapshot per entry
mod doctests; // the crate documents no example, so cargo test skips no doctest
mod features; // the Gherkin features: coverage of rows, clauses and incidents; IDs locked
mod generated; // generated differential checks: serve, the async gate, tampered adapters, rc.3
mod json_parse; // the strict reader agrees with the shipped JSON.parse check, run by Node
mod layers; // the library holds no command line
mod matrix; // many runs on one page (checked in headless Chromium), and compare of two runs
mod messages; // the templates and the spec text agree
mod node_package; // the Node kit packed, installed, run by its name, and compiled against as TypeScript
mod numbers; // number text agrees with Node's String and JSON.stringify over the committed fixture
mod parse_cli; // `autoreview parse` and `engine::review::read_raw` give the engine's verdicts with bounded reading
mod parser; // the readers' security properties over generated and hostile text
mod planted; // planted defects, each caught by fixed cases alone and by generated cases alone
mod properties; // invariants of the spec over generated scenarios
mod readme; // the READMEs' counts are the suite's own
mod replay; // the replay fixture the kits replay is fresh and covers every canonical member
mod rows; // one case and one snapshot per decision-table row
mod runner; // the runner against correct and broken adapters
mod schema; // the JSON Schemas name the documented members; the TypeScript declarations are fresh
mod sessions; // each call of a drawn session is that call alone in the state the session reached
mod shared_dir; // directories the tests of one run share, under target/tmp
mod table; // the decision table is complete, unambiguous and agrees with the engine
mod wording; // an implementation's own wording: a gate in its own words passes with its mapping
