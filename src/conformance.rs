//! Conformance levels (`spec/protocol.md`, "Conformance levels"): nested classes of what a
//! comparison with the reference holds an implementation to. Each level compares every member
//! the level below it compares, and more: `effects` what the world and the human experience,
//! `decisions` the decisions behind them, `texts` every text a model or a person sees, `full`
//! everything the outcome records.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::difference::Difference;
use crate::outcome::{
    Decision, DisplayReason, Event, EventOutcome, InputOutcome, ItemOutcome, Outcome,
    SessionOutcome,
};

/// What an implementation's answers are held to, beyond the profile: the level compared, and
/// the implementation's own wording of the templates (`--messages`), with which the reference
/// renders its texts. The default is today's comparison: `full`, in the spec's wording.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Terms {
    /// The level every answer is judged at.
    pub level: Level,
    /// The implementation's own wording; empty for the spec's.
    pub wording: crate::messages::Wording,
}

/// A conformance level, weakest first.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Whether the call settled, whether its body ran (and how often), whether the approval
    /// service was asked, whether a human was prompted and what was answered, and the order of
    /// review, downstream, approval and body; in a session, every item and whether an event met
    /// an error.
    Effects,
    /// Also the listener's decision kind, whether each text is present, the number of reviewer
    /// requests and their routes.
    Decisions,
    /// Also every text a model or a person sees.
    Texts,
    /// Everything the outcome records: also info, failure classes and messages, the request
    /// observables and the failure count.
    #[default]
    Full,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Effects, Level::Decisions, Level::Texts, Level::Full];

    /// The level's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Effects => "effects",
            Level::Decisions => "decisions",
            Level::Texts => "texts",
            Level::Full => "full",
        }
    }

    /// What the level compares, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            Level::Effects => {
                "whether the call settled, the body ran, the approval service was asked, a human \
                 was prompted and what was answered, and the order of review, downstream, \
                 approval and body"
            }
            Level::Decisions => {
                "effects, and the decision kinds, whether each text is present, the number of \
                 reviewer requests and their routes"
            }
            Level::Texts => "decisions, and every text a model or a person sees",
            Level::Full => {
                "texts, and info, failure classes and messages, the request observables and the \
                 failure count"
            }
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `outcome` as far as `level` compares it: every member the level does not compare set to one
/// fixed value (`None`, an empty text, an empty list), so that comparing two projections finds
/// exactly the differences that count at `level` (`spec/protocol.md`, "Conformance levels").
/// `prefix_only` is kept. Both the reference's outcome and the implementation's are projected.
pub fn project(outcome: &InputOutcome, level: Level) -> InputOutcome {
    match outcome {
        InputOutcome::One(o) => InputOutcome::One(Box::new(project_call(o, level))),
        InputOutcome::Session(s) => InputOutcome::Session(SessionOutcome {
            id: s.id.clone(),
            calls: s
                .calls
                .iter()
                .map(|item| match item {
                    ItemOutcome::Call(o) => ItemOutcome::Call(Box::new(project_call(o, level))),
                    ItemOutcome::Event(e) => ItemOutcome::Event(project_event(e, level)),
                })
                .collect(),
        }),
    }
}

/// A text's presence, without its wording: what `decisions` compares of a text.
fn presence(text: &Option<String>) -> Option<String> {
    text.as_ref().map(|_| String::new())
}

fn display_presence(d: &Option<DisplayReason>) -> Option<DisplayReason> {
    d.as_ref().map(|_| DisplayReason {
        en: String::new(),
        zh: String::new(),
    })
}

/// The trace as `effects` compares it: consecutive `review` steps are one (how many requests
/// a review made is a decision), every other step stays in order.
pub fn effects_trace(trace: &[Event]) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::with_capacity(trace.len());
    for &e in trace {
        if !(e == Event::Review && out.last() == Some(&Event::Review)) {
            out.push(e);
        }
    }
    out
}

fn project_call(o: &Outcome, level: Level) -> Outcome {
    let mut o = o.clone();
    if level >= Level::Full {
        return o;
    }
    // Below `full`: no info, failure, requests or failure count.
    o.result.info = None;
    o.review.failure = None;
    o.review.requests = None;
    o.review.consecutive_failures = None;
    if let Some(Decision::Deny { info, .. }) = &mut o.listener {
        *info = None;
    }
    if level >= Level::Texts {
        return o;
    }
    // Below `texts`: whether each text is there, not its wording.
    o.result.text = presence(&o.result.text);
    match &mut o.listener {
        Some(Decision::Deny { reason, .. }) => reason.clear(),
        Some(Decision::Ask {
            reason,
            display_reason,
        }) => {
            *reason = presence(reason);
            *display_reason = display_presence(display_reason);
        }
        _ => {}
    }
    if let Some(a) = &mut o.approval {
        a.reason = presence(&a.reason);
        a.display_reason = display_presence(&a.display_reason);
    }
    if level >= Level::Decisions {
        return o;
    }
    // `effects`: no decision, no text, no count of requests, no route.
    o.listener = None;
    o.result.text = None;
    if let Some(a) = &mut o.approval {
        a.reason = None;
        a.display_reason = None;
    }
    o.review.attempts = 0;
    o.review.routes.clear();
    o.trace = effects_trace(&o.trace);
    o
}

fn project_event(e: &EventOutcome, level: Level) -> EventOutcome {
    let mut e = e.clone();
    if level < Level::Texts {
        // Whether the event met an error is an effect; its wording a text.
        e.error = presence(&e.error);
    }
    e
}

/// The weakest level at which `d` is a difference: a run at that level or above fails on it.
/// It agrees with [`project`]: a difference found in full counts at `L` exactly when comparing
/// the two outcomes projected to `L` still finds a difference there.
pub fn level_of(d: &Difference) -> Level {
    let inner = match d.pointer.strip_prefix("/calls/") {
        Some(rest) => match rest.find('/') {
            Some(i) => &rest[i..],
            // A missing, extra or other kind of item.
            None => return Level::Effects,
        },
        None => d.pointer.as_str(),
    };
    let under = |p: &str| inner == p || inner.starts_with(&format!("{p}/"));
    // A text's presence is a decision, its wording a text.
    let worded = !d.expected.is_null() && !d.actual.is_null();
    if inner == "/"
        || under("/settled")
        || under("/result/executed")
        || under("/sandbox")
        || under("/body_approvals")
        || under("/approval/prompted")
        || under("/approval/answer")
        || inner == "/approval"
        || inner == "/event"
    {
        Level::Effects
    } else if inner == "/trace" {
        let trace = |v: &serde_json::Value| {
            serde_json::from_value::<Vec<Event>>(v.clone())
                .map(|t| effects_trace(&t))
                .ok()
        };
        if trace(&d.expected) == trace(&d.actual) {
            Level::Decisions
        } else {
            Level::Effects
        }
    } else if inner == "/error" {
        if worded { Level::Texts } else { Level::Effects }
    } else if under("/listener/reason")
        || under("/listener/display_reason")
        || under("/approval/reason")
        || under("/approval/display_reason")
        || under("/result/text")
    {
        if worded {
            Level::Texts
        } else {
            Level::Decisions
        }
    } else if under("/listener/info")
        || under("/result/info")
        || under("/review/failure")
        || under("/review/requests")
        || under("/review/consecutive_failures")
    {
        Level::Full
    } else {
        Level::Decisions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{ApprovalRecord, RequestRecord};
    use crate::profile::Profile;
    use crate::runner::compare::compare_input;
    use crate::scenario::ApprovalAnswer;
    use crate::scenario::session::{EventKind, Input};

    /// Whether two JSON pointers name the same member, or one a member inside the other.
    fn overlap(p: &str, q: &str) -> bool {
        let inside = |a: &str, b: &str| b == "/" || a.starts_with(&format!("{b}/"));
        p == q || inside(p, q) || inside(q, p)
    }

    /// The property: a difference found in full counts at `L` (`level_of(d) <= L`) exactly when
    /// comparing the two outcomes projected to `L` finds a difference at its pointer (or one
    /// inside it or around it, as a member projected away is compared whole); and a pair passes at
    /// `L` exactly when no difference counts at `L`.
    fn agrees(e: &InputOutcome, a: &InputOutcome) -> Result<(), String> {
        agrees_by(e, a, level_of)
    }

    /// [`agrees`] for a classifier `level_of`.
    fn agrees_by(
        e: &InputOutcome,
        a: &InputOutcome,
        level_of: impl Fn(&Difference) -> Level,
    ) -> Result<(), String> {
        let full = compare_input(e, a);
        for level in Level::ALL {
            let at = compare_input(&project(e, level), &project(a, level));
            for d in &full {
                let found = at.iter().any(|p| overlap(&p.pointer, &d.pointer));
                if found != (level_of(d) <= level) {
                    return Err(format!(
                        "at {level}: {d} counts at {}, but the projections {}",
                        level_of(d),
                        if found { "differ there" } else { "agree there" }
                    ));
                }
            }
            for p in &at {
                if !full
                    .iter()
                    .any(|d| level_of(d) <= level && overlap(&d.pointer, &p.pointer))
                {
                    return Err(format!(
                        "at {level}: the projections differ ({p}), but no difference found in \
                         full counts at {level} there: {full:?}"
                    ));
                }
            }
            if at.is_empty() != full.iter().all(|d| level_of(d) > level) {
                return Err(format!("at {level}: the verdicts disagree"));
            }
        }
        if project(e, Level::Full) != *e {
            return Err("the projection to full changed the outcome".into());
        }
        Ok(())
    }

    fn info() -> Option<serde_json::Map<String, serde_json::Value>> {
        serde_json::json!({"code": "x"}).as_object().cloned()
    }

    /// Every way of changing one member of a call's outcome the property is tried on.
    fn call_mutations(o: &Outcome) -> Vec<Outcome> {
        let mut out = Vec::new();
        let mut m = |f: &dyn Fn(&mut Outcome)| {
            let mut c = o.clone();
            f(&mut c);
            out.push(c);
        };
        m(&|c| c.settled = !c.settled);
        m(&|c| c.result.executed = !c.result.executed);
        m(&|c| c.sandbox.after = crate::scenario::SandboxMode::WorkspaceWrite);
        m(&|c| c.sandbox.before = crate::scenario::SandboxMode::WorkspaceWrite);
        m(&|c| {
            c.body_approvals.push(crate::outcome::BodyApproval {
                call_id: crate::scenario::CallIdOf::Own,
                reason: "escalate".into(),
                answered_by: crate::outcome::AnsweredBy::Gate,
                answer: crate::scenario::Answer::AllowedOnce,
            })
        });
        m(&|c| {
            for b in &mut c.body_approvals {
                b.answered_by = crate::outcome::AnsweredBy::Human;
            }
        });
        m(&|c| c.listener = None);
        m(&|c| c.listener = Some(Decision::Allow));
        m(&|c| c.listener = Some(Decision::Cancel));
        m(&|c| {
            c.listener = Some(Decision::Deny {
                reason: "no".into(),
                info: None,
            })
        });
        m(&|c| {
            c.listener = Some(Decision::Deny {
                reason: "no".into(),
                info: info(),
            })
        });
        m(&|c| {
            c.listener = Some(Decision::Ask {
                reason: None,
                display_reason: None,
            })
        });
        m(&|c| {
            c.listener = Some(Decision::Ask {
                reason: Some("why".into()),
                display_reason: Some(DisplayReason {
                    en: "why".into(),
                    zh: "为何".into(),
                }),
            })
        });
        m(&|c| match &mut c.listener {
            Some(Decision::Deny { reason, info: i }) => {
                reason.push('!');
                *i = if i.is_some() { None } else { info() };
            }
            Some(Decision::Ask {
                reason,
                display_reason,
            }) => {
                *reason = reason.as_ref().map(|r| format!("{r}!"));
                if let Some(d) = display_reason {
                    d.zh.push('!');
                }
            }
            _ => {}
        });
        m(&|c| {
            if let Some(Decision::Ask {
                reason,
                display_reason,
            }) = &mut c.listener
            {
                *reason = None;
                *display_reason = None;
            }
        });
        m(&|c| c.approval = None);
        m(&|c| {
            c.approval = Some(ApprovalRecord {
                reason: None,
                display_reason: None,
                answer: ApprovalAnswer::AllowedOnce,
                prompted: true,
            })
        });
        m(&|c| {
            if let Some(a) = &mut c.approval {
                a.answer = if a.answer == ApprovalAnswer::Rejected {
                    ApprovalAnswer::Cancelled
                } else {
                    ApprovalAnswer::Rejected
                };
            }
        });
        m(&|c| {
            if let Some(a) = &mut c.approval {
                a.prompted = !a.prompted;
            }
        });
        m(&|c| {
            if let Some(a) = &mut c.approval {
                a.reason = a.reason.as_ref().map(|r| format!("{r}!"));
                a.display_reason = None;
            }
        });
        m(&|c| {
            if let Some(a) = &mut c.approval {
                a.reason = match a.reason {
                    Some(_) => None,
                    None => Some("why".into()),
                };
            }
        });
        m(&|c| c.result.text = None);
        m(&|c| c.result.text = Some(format!("{}!", c.result.text.clone().unwrap_or_default())));
        m(&|c| {
            c.result.info = if c.result.info.is_some() {
                None
            } else {
                info()
            }
        });
        m(&|c| c.review.attempts += 1);
        m(&|c| c.review.routes.push("p/m".into()));
        m(&|c| c.review.failure = None);
        m(&|c| {
            if let Some(f) = &mut c.review.failure {
                f.message.push('!');
            }
        });
        m(&|c| c.review.requests = None);
        m(&|c| {
            c.review
                .requests
                .get_or_insert_with(Vec::new)
                .push(RequestRecord::sent("p/m", Some(0.into()), None, true))
        });
        m(&|c| c.review.consecutive_failures = Some(9));
        m(&|c| c.trace.push(Event::Body));
        m(&|c| c.trace.insert(0, Event::Review));
        m(&|c| c.trace.push(Event::Review));
        m(&|c| {
            if !c.trace.is_empty() {
                c.trace.remove(0);
            }
        });
        m(&|c| c.trace.reverse());
        m(&|c| c.trace.insert(0, Event::Approval));
        m(&|c| c.trace.retain(|e| *e != Event::Review));
        out
    }

    fn event_mutations(e: &EventOutcome) -> Vec<EventOutcome> {
        let mut out = Vec::new();
        let mut m = |f: &dyn Fn(&mut EventOutcome)| {
            let mut c = e.clone();
            f(&mut c);
            out.push(c);
        };
        m(&|c| c.error = None);
        m(&|c| c.error = Some(format!("{}!", c.error.clone().unwrap_or_default())));
        m(&|c| c.error = Some("otherwise".into()));
        m(&|c| {
            c.event = if c.event == EventKind::Install {
                EventKind::Dispose
            } else {
                EventKind::Install
            }
        });
        out
    }

    /// Every mutation of an input's outcome: of a call, or of each item of a session, and of the
    /// session's items themselves (one missing, two swapped). A session's call at index `k` takes
    /// every fourth of a call's mutations, starting at the `k % 4`th: each mutation is tried inside
    /// sessions at many indices, without the cost growing with the square of a session's length
    /// (each mutation clones and compares the whole session).
    fn mutations(o: &InputOutcome) -> Vec<InputOutcome> {
        match o {
            InputOutcome::One(c) => call_mutations(c)
                .into_iter()
                .map(|c| InputOutcome::One(Box::new(c)))
                .collect(),
            InputOutcome::Session(s) => {
                let mut out = Vec::new();
                for (k, item) in s.calls.iter().enumerate() {
                    let items: Vec<ItemOutcome> = match item {
                        ItemOutcome::Call(c) => call_mutations(c)
                            .into_iter()
                            .skip(k % 4)
                            .step_by(4)
                            .map(|c| ItemOutcome::Call(Box::new(c)))
                            .collect(),
                        ItemOutcome::Event(e) => event_mutations(e)
                            .into_iter()
                            .map(ItemOutcome::Event)
                            .collect(),
                    };
                    for i in items {
                        let mut t = s.clone();
                        t.calls[k] = i;
                        out.push(InputOutcome::Session(t));
                    }
                }
                let mut t = s.clone();
                t.calls.pop();
                out.push(InputOutcome::Session(t));
                if s.calls.len() > 1 {
                    let mut t = s.clone();
                    t.calls.swap(0, 1);
                    out.push(InputOutcome::Session(t));
                }
                out
            }
        }
    }

    /// The reference's outcomes of every fixed case and of drawn calls and sessions, in both
    /// profiles.
    fn outcomes() -> Vec<InputOutcome> {
        let mut out = Vec::new();
        for profile in Profile::all() {
            for case in crate::cases::all(profile).unwrap() {
                out.push(crate::engine::decide_input(&case.scenario, profile));
            }
            for k in 0..60 {
                let call = Input::One(Box::new(crate::runner::generated::draw(11, k)));
                out.push(crate::engine::decide_input(&call, profile));
                let session = crate::runner::generated_sessions::draw(11, k);
                out.push(crate::engine::decide_input(
                    &Input::Session(session),
                    profile,
                ));
            }
        }
        out
    }

    /// `level_of` agrees with `project` on every difference of every mutated outcome (one
    /// member changed, then two), of calls and sessions, and on every pair of the reference's
    /// outcomes of two different inputs.
    #[test]
    fn level_of_agrees_with_the_projection() {
        let outcomes = outcomes();
        let mut tried = 0usize;
        let mut by_level = [0usize; 4];
        for (i, e) in outcomes.iter().enumerate() {
            let once = mutations(e);
            for (j, a) in once.iter().enumerate() {
                agrees(e, a).unwrap_or_else(|m| panic!("{m}\nexpected {e:?}\nactual {a:?}"));
                tried += 1;
                for d in compare_input(e, a) {
                    by_level[level_of(&d) as usize] += 1;
                }
                // A second change on top of the first, of a few members.
                if i % 11 == 0 {
                    for b in mutations(a).iter().skip(j % 5).step_by(5) {
                        agrees(e, b)
                            .unwrap_or_else(|m| panic!("{m}\nexpected {e:?}\nactual {b:?}"));
                        tried += 1;
                    }
                }
            }
            if let Some(other) = outcomes.get(i + 1) {
                agrees(e, other)
                    .unwrap_or_else(|m| panic!("{m}\nexpected {e:?}\nactual {other:?}"));
            }
        }
        assert!(tried > 10_000, "{tried} pairs");
        // Differences of every level were tried.
        assert!(by_level.iter().all(|&n| n > 100), "{by_level:?}");
        // The property tells a wrong classifier: one that holds the routes to `full`, or the
        // repeated review steps to `effects`.
        let wrong = |d: &Difference| {
            if d.pointer.ends_with("/review/routes") {
                Level::Full
            } else if d.pointer.ends_with("/trace") {
                Level::Effects
            } else {
                level_of(d)
            }
        };
        let caught = outcomes
            .iter()
            .flat_map(|e| mutations(e).into_iter().map(move |a| (e, a)))
            .filter(|(e, a)| agrees_by(e, a, wrong).is_err())
            .take(11)
            .count();
        assert!(caught > 10, "{caught}");
    }

    /// At `effects`, a gate whose review made more requests, whose words are its own and whose
    /// info is otherwise passes; one that runs the body where the reference did not does not.
    #[test]
    fn effects_compare_what_the_world_experiences() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"tool": {"name": "a"}, "reviewer": {"text": "{\"decision\": \"deny\", \"reason\": \"r\"}"}}"#,
        )
        .unwrap();
        let e = InputOutcome::One(Box::new(crate::engine::decide(&s, Profile::RESILIENT)));
        let InputOutcome::One(want) = &e else {
            unreachable!()
        };
        assert!(!want.result.executed && want.result.text.is_some());
        let mut other = (**want).clone();
        other.result.text = Some("refused in other words".into());
        other.review.attempts += 1;
        other.trace.insert(0, Event::Review);
        other.review.consecutive_failures = Some(3);
        other.listener = Some(Decision::Cancel);
        let a = InputOutcome::One(Box::new(other.clone()));
        let levels: Vec<Level> = compare_input(&e, &a).iter().map(level_of).collect();
        assert!(!levels.contains(&Level::Effects), "{levels:?}");
        assert_eq!(
            compare_input(&project(&e, Level::Effects), &project(&a, Level::Effects)),
            []
        );
        assert_ne!(
            compare_input(
                &project(&e, Level::Decisions),
                &project(&a, Level::Decisions)
            ),
            []
        );
        other.result.executed = true;
        other.trace.push(Event::Body);
        let a = InputOutcome::One(Box::new(other));
        assert_ne!(
            compare_input(&project(&e, Level::Effects), &project(&a, Level::Effects)),
            []
        );
    }
}
