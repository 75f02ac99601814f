//! Runs the Gherkin features in `features/` with cucumber: each scenario builds one scenario of
//! the JSON contract from its `Given` steps, has it decided by an implementation (the in-process
//! reference engine, or an adapter named by `AUTOREVIEW_FEATURES_ADAPTER`), and checks the outcome
//! with its `Then` steps. `features/README.md` lists the step vocabulary.
//!
//! Environment: `AUTOREVIEW_FEATURES_JUNIT=FILE` also writes a JUnit XML report;
//! `AUTOREVIEW_FEATURES_ADAPTER="node adapters/node/skeleton.js"` decides through that adapter
//! over the protocol instead of the reference engine.

mod shim;
mod steps;
mod world;

use cucumber::{World as _, WriterExt as _, writer};

use world::GateWorld;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let Some(args) = shim::cucumber_args() else {
        return;
    };
    let features = concat!(env!("CARGO_MANIFEST_DIR"), "/features");
    let cucumber = GateWorld::cucumber().before(|feature, rule, scenario, world| {
        Box::pin(async move { world.begin(feature, rule, scenario) })
    });
    match std::env::var_os("AUTOREVIEW_FEATURES_JUNIT") {
        Some(path) => {
            let file = std::fs::File::create(&path).unwrap_or_else(|e| {
                panic!("AUTOREVIEW_FEATURES_JUNIT={}: {e}", path.to_string_lossy())
            });
            cucumber
                .with_writer(
                    writer::Basic::stdout()
                        .summarized()
                        .tee::<GateWorld, _>(writer::JUnit::for_tee(file, 0))
                        .normalized(),
                )
                .fail_on_skipped()
                .with_cli(parse(args))
                .run_and_exit(features)
                .await;
        }
        None => {
            cucumber
                .fail_on_skipped()
                .with_cli(parse(args))
                .run_and_exit(features)
                .await;
        }
    }
}

/// cucumber's command line, read from the arguments the shim kept; each writer brings its own
/// options, so the type is inferred where it is used.
fn parse<P: clap::Args, R: clap::Args, W: clap::Args>(
    args: Vec<String>,
) -> cucumber::cli::Opts<P, R, W, cucumber::cli::Empty> {
    clap::Parser::parse_from(args)
}
