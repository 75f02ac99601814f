//! Runs the Gherkin features in `features/` with cucumber: each scenario builds one scenario of
//! the JSON contract from its `Given` steps, has it decided by an implementation (the in-process
//! reference engine, or an adapter named by `AUTOREVIEW_FEATURES_ADAPTER`), and checks the outcome
//! with its `Then` steps. `features/README.md` lists the step vocabulary.
//!
//! Only failing scenarios are printed, in full, then the summary; `AUTOREVIEW_FEATURES_VERBOSE=1`
//! prints every step. Environment: `AUTOREVIEW_FEATURES_JUNIT=FILE` also writes a JUnit XML report;
//! `AUTOREVIEW_FEATURES_ADAPTER="node adapters/node/skeleton.js"` decides through that adapter
//! over the protocol instead of the reference engine; scenarios that need more than protocol 1
//! (sessions, the session log, the requests) are then left out, each named on stderr.

mod quiet;
mod shim;
mod steps;
mod world;

use cucumber::tag::Ext as _;
use cucumber::{World as _, WriterExt as _, gherkin, writer};

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
            let mut opts = parse(args);
            let filter = applicable(&mut opts);
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
                .with_cli(opts)
                .filter_run_and_exit(features, filter)
                .await;
        }
        // Every step of every scenario, as cucumber prints by default.
        None if std::env::var_os("AUTOREVIEW_FEATURES_VERBOSE").is_some() => {
            let mut opts = parse(args);
            let filter = applicable(&mut opts);
            cucumber
                .fail_on_skipped()
                .with_cli(opts)
                .filter_run_and_exit(features, filter)
                .await;
        }
        // Only the failing scenarios, in full, and the summary.
        None => {
            let mut opts = parse(args);
            let filter = applicable(&mut opts);
            let basic = writer::Basic::raw(
                std::io::stdout(),
                writer::Coloring::Auto,
                writer::Verbosity::Default,
            );
            cucumber
                .with_writer(quiet::Quiet::new(basic).normalized().summarized())
                .fail_on_skipped()
                .with_cli(opts)
                .filter_run_and_exit(features, filter)
                .await;
        }
    }
}

/// The scenario filter: with an adapter, only the scenarios a protocol-1 adapter can run. A
/// custom filter replaces cucumber's name and tag filters, so those are taken from the command
/// line and applied here too, as cucumber would (a name pattern first, else the tags).
fn applicable<P: clap::Args, R: clap::Args, W: clap::Args>(
    opts: &mut cucumber::cli::Opts<P, R, W, cucumber::cli::Empty>,
) -> impl Fn(&gherkin::Feature, Option<&gherkin::Rule>, &gherkin::Scenario) -> bool + 'static {
    let adapter = std::env::var_os(world::ADAPTER_VAR).is_some();
    let (names, tags) = if adapter {
        (opts.re_filter.take(), opts.tags_filter.take())
    } else {
        (None, None)
    };
    move |f: &gherkin::Feature, r: Option<&gherkin::Rule>, s: &gherkin::Scenario| {
        let chosen = match (&names, &tags) {
            (Some(re), _) => re.is_match(&s.name),
            (None, Some(tags)) => tags.eval(
                f.tags
                    .iter()
                    .chain(r.iter().flat_map(|r| &r.tags))
                    .chain(&s.tags),
            ),
            (None, None) => true,
        };
        if !chosen || !adapter {
            return chosen;
        }
        let observes = std::env::var(world::ADAPTER_VAR)
            .map(|command| *OBSERVES.get_or_init(|| world::adapter_observes(&command)))
            .unwrap_or(autoreview::capability::Capabilities::ALL);
        match world::beyond(observes, f, r, s) {
            None => true,
            Some(needs) => {
                eprintln!(
                    "not run through the adapter (it needs {needs}, which the adapter does not observe): {}: {}",
                    f.name, s.name
                );
                false
            }
        }
    }
}

/// What the adapter observes, read from its handshake once.
static OBSERVES: std::sync::OnceLock<autoreview::capability::Capabilities> =
    std::sync::OnceLock::new();

/// cucumber's command line, read from the arguments the shim kept; each writer brings its own
/// options, so the type is inferred where it is used.
fn parse<P: clap::Args, R: clap::Args, W: clap::Args>(
    args: Vec<String>,
) -> cucumber::cli::Opts<P, R, W, cucumber::cli::Empty> {
    clap::Parser::parse_from(args)
}
