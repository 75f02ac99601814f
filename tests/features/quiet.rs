//! A writer that shows only the scenarios that fail: every event of a scenario is held until the
//! scenario finishes, and passed on whole when one of its steps or hooks failed, dropped
//! otherwise. Features, parsing errors and the run's start and end pass through at once, so a
//! run prints each feature's name, every failure in full and the summary, not thousands of
//! passing steps. It must see events in order, so it goes inside the normalizing writer.

use std::mem;

use cucumber::{Event, World, event, parser, writer};

/// Holds each scenario's events, and passes on those of the failing ones to `inner`.
pub struct Quiet<W, Wr> {
    inner: Wr,
    held: Vec<parser::Result<Event<event::Cucumber<W>>>>,
    failed: bool,
}

impl<W, Wr> Quiet<W, Wr> {
    pub fn new(inner: Wr) -> Self {
        Quiet {
            inner,
            held: Vec::new(),
            failed: false,
        }
    }
}

/// The scenario event `ev` carries, if it is one.
fn scenario_event<W>(
    ev: &parser::Result<Event<event::Cucumber<W>>>,
) -> Option<&event::Scenario<W>> {
    use event::{Cucumber, Feature, Rule};
    match &ev.as_ref().ok()?.value {
        Cucumber::Feature(_, Feature::Scenario(_, s))
        | Cucumber::Feature(_, Feature::Rule(_, Rule::Scenario(_, s))) => Some(&s.event),
        _ => None,
    }
}

impl<W: World, Wr: cucumber::Writer<W>> cucumber::Writer<W> for Quiet<W, Wr> {
    type Cli = Wr::Cli;

    async fn handle_event(
        &mut self,
        ev: parser::Result<Event<event::Cucumber<W>>>,
        cli: &Self::Cli,
    ) {
        use event::{Hook, Scenario, Step};
        let (failed, finished) = match scenario_event(&ev) {
            None => return self.inner.handle_event(ev, cli).await,
            Some(s) => (
                matches!(
                    s,
                    Scenario::Step(_, Step::Failed(..))
                        | Scenario::Background(_, Step::Failed(..))
                        | Scenario::Hook(_, Hook::Failed(..))
                ),
                matches!(s, Scenario::Finished),
            ),
        };
        self.failed |= failed;
        self.held.push(ev);
        if finished {
            let held = mem::take(&mut self.held);
            if mem::take(&mut self.failed) {
                for ev in held {
                    self.inner.handle_event(ev, cli).await;
                }
            }
        }
    }
}

impl<W: World, Val, Wr: writer::Arbitrary<W, Val>> writer::Arbitrary<W, Val> for Quiet<W, Wr> {
    async fn write(&mut self, val: Val) {
        self.inner.write(val).await;
    }
}

impl<W, Wr: writer::NonTransforming> writer::NonTransforming for Quiet<W, Wr> {}
