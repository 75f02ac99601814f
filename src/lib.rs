//! autoreview: the executable specification of "Auto review", the LLM gate in front of an agent's
//! tool calls. The library holds the scenario/outcome contract, the pure reference engine, the
//! reviewer-output parsers and the decision table; the `autoreview` binary is a thin shell over it.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod engine;
pub mod jsstring;
pub mod messages;
pub mod outcome;
pub mod parse;
pub mod profile;
pub mod scenario;

pub use engine::decide;
pub use outcome::Outcome;
pub use profile::Profile;
pub use scenario::Scenario;
pub mod async_gate;
pub mod audit;
pub mod capability;
pub mod cases;
pub mod conformance;
pub mod corpus;
pub mod difference;
pub mod embedded;
pub mod features;
pub mod generate;
pub mod ids;
pub mod normalize;
pub mod protocol;
pub mod replay;
pub mod report;
pub mod requirements;
pub mod runner;
pub mod schema;
pub mod spec;
pub mod table;
pub mod typescript;
