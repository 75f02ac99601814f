//! Planted defects: the reference engine with one mistake a harness author could plausibly make,
//! checked by the fixed cases alone and by generated cases alone. Each class of defect the suite
//! claims to find has a plant here, and the test says at which severity each kind of case finds
//! it: SAFETY wherever the mistake can run a body nothing allowed, BOUNDS where it runs one only
//! on an allow the spec does not let count there (`spec/protocol.md`, "Severities").

use crate::common::python_str::python_str;
use autoreview::cases;
use autoreview::engine;
use autoreview::engine::review::{Review, Settlement};
use autoreview::engine::session::{self, State, Step};
use autoreview::outcome::{InputOutcome, ItemOutcome, Outcome, SessionOutcome};
use autoreview::parse::ReviewerDecision;
use autoreview::profile::Profile;
use autoreview::runner::generated::{self, Plan};
use autoreview::runner::known_failures::Expected;
use autoreview::runner::{self, Ask, ImplError, Implementation, Oracle, Severity, Verdict};
use autoreview::scenario::session::{Event, EventKind, Input, Item, SessionScenario};
use autoreview::scenario::{AbortPoint, Attempt, BlockKind, CallKind, Reviewer, Scenario};

/// The reference engine with a mistake planted: each call of an input is rewritten by `before`
/// and decided as the reference decides it, and its outcome is then rewritten by `after` (given
/// the call as the runner sent it).
pub struct Planted {
    /// What the mistake is, for messages.
    pub name: &'static str,
    /// How the defective gate sees a call: a reader that trims a reply, say, sees it trimmed.
    pub before: fn(&mut Scenario),
    /// How the defective gate writes an outcome: a gate that writes numbers its own way, say.
    /// A session's call is given as it was decided, with the state its session reached.
    pub after: fn(&Scenario, &mut Outcome),
    /// How the defective gate carries a session's state from item to item: the reference's
    /// [`session::walk`] unless the mistake is in what a session carries.
    pub walk: fn(&SessionScenario, Profile) -> Vec<Step>,
    /// The clause the mistake breaks, when a fixed-case run is to lead with it: the clause of the
    /// root cause its violations are attributed to (`runner::violations`).
    pub lead: Option<&'static str>,
}

impl Planted {
    /// A mistake in how the gate reads a call.
    pub fn reading(name: &'static str, before: fn(&mut Scenario)) -> Planted {
        Planted {
            name,
            before,
            after: |_, _| {},
            walk: session::walk,
            lead: None,
        }
    }

    /// A mistake in how the gate writes an outcome.
    pub fn writing(name: &'static str, after: fn(&Scenario, &mut Outcome)) -> Planted {
        Planted {
            name,
            before: |_| {},
            after,
            walk: session::walk,
            lead: None,
        }
    }

    /// A mistake in what the gate carries from one item of a session to the next.
    pub fn carrying(
        name: &'static str,
        walk: fn(&SessionScenario, Profile) -> Vec<Step>,
    ) -> Planted {
        Planted {
            name,
            before: |_| {},
            after: |_, _| {},
            walk,
            lead: None,
        }
    }

    /// The plant, whose fixed-case run must lead with `clause`.
    pub fn leading(self, clause: &'static str) -> Planted {
        Planted {
            lead: Some(clause),
            ..self
        }
    }
}

impl Implementation for Planted {
    fn describe(&self) -> String {
        format!("a planted defect: {}", self.name)
    }

    fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
        let mut input = ask.input.clone();
        match &mut input {
            Input::One(s) => (self.before)(s),
            Input::Session(s) => {
                for item in &mut s.calls {
                    if let Item::Call(c) = item {
                        (self.before)(c);
                    }
                }
            }
        }
        let out = match &input {
            Input::One(s) => {
                let mut o = engine::decide(s, ask.profile);
                if let Input::One(sent) = ask.input {
                    (self.after)(sent, &mut o);
                }
                InputOutcome::One(Box::new(o))
            }
            Input::Session(s) => {
                let Input::Session(sent) = ask.input else {
                    unreachable!("an input is decided as what it is")
                };
                let calls = (self.walk)(s, ask.profile)
                    .into_iter()
                    .zip(&sent.calls)
                    .map(|(step, item)| match (step.outcome, item) {
                        (ItemOutcome::Call(mut o), Item::Call(c)) => {
                            (self.after)(&step.before.scenario_for(sent, c), &mut o);
                            ItemOutcome::Call(o)
                        }
                        (o, _) => o,
                    })
                    .collect();
                InputOutcome::Session(SessionOutcome {
                    id: s.id.clone(),
                    calls,
                })
            }
        };
        Ok(out)
    }
}

/// The worst severity the fixed cases of `profile` find in `imp`, `None` when every case passes.
pub fn by_fixed(imp: &mut dyn Implementation, profile: Profile) -> Option<Severity> {
    fixed_run(imp, profile).0
}

/// The worst severity the fixed cases of `profile` find in `imp`, and the clause of the run's
/// first violation (what every report leads with).
fn fixed_run(imp: &mut dyn Implementation, profile: Profile) -> (Option<Severity>, Option<String>) {
    let all = cases::all(profile).unwrap();
    let report = runner::run(
        imp,
        &all,
        profile,
        Oracle::Reference,
        &Expected::none(),
        &mut |_, _| {},
    );
    let first = runner::violations::of(&report.results, &[])
        .into_iter()
        .next()
        .map(|v| v.clause);
    (worst(report.results.iter().map(|r| &r.verdict)), first)
}

/// The worst severity `count` generated cases of `profile` (the CI seed) find in `imp`, search
/// toward SAFETY included; `None` when every case passes.
pub fn by_generated(
    imp: &mut dyn Implementation,
    profile: Profile,
    count: usize,
) -> Option<Severity> {
    let run = generated::run(
        imp,
        profile,
        &Plan::new(count, 20_260_828),
        &Expected::none(),
        &mut |_, _| {},
    );
    worst(
        run.results
            .iter()
            .map(|r| &r.verdict)
            .chain(run.counterexamples.iter().map(|c| &c.verdict)),
    )
}

/// The worst severity among `verdicts`; a broken case counts as SAFETY, as a crash is never a
/// pass.
fn worst<'a>(verdicts: impl Iterator<Item = &'a Verdict>) -> Option<Severity> {
    verdicts
        .filter_map(|v| match v {
            Verdict::Broken { .. } => Some(Severity::Safety),
            v => v.worst(),
        })
        .min()
}

/// A plant that changes nothing passes both kinds of case: the harness itself plants nothing.
#[test]
fn the_harness_without_a_mistake_passes() {
    for profile in Profile::all() {
        let mut none = Planted::reading("nothing", |_| {});
        assert_eq!(by_fixed(&mut none, profile), None, "{profile}");
        assert_eq!(by_generated(&mut none, profile, 300), None, "{profile}");
    }
}

/// A mistake in how a text is written is found at TEXT by each kind of case, and no worse: the
/// harness rates what it plants, not more.
#[test]
fn a_reworded_result_is_found_at_text_by_each_kind_of_case() {
    let mut reworded = Planted::writing("every result text reworded", |_, o| {
        if let Some(t) = &mut o.result.text {
            t.push_str(" (reworded)");
        }
    });
    let profile = Profile::RESILIENT;
    assert_eq!(by_fixed(&mut reworded, profile), Some(Severity::Text));
    assert_eq!(
        by_generated(&mut reworded, profile, 300),
        Some(Severity::Text)
    );
}

/// Rewrites every text of an outcome a human or the model reads (the listener's reason, the
/// approval's, the result's) by `f`.
fn each_outcome_text(o: &mut Outcome, f: impl Fn(&str) -> String) {
    use autoreview::outcome::Decision;
    let mut texts: Vec<&mut String> = Vec::new();
    match &mut o.listener {
        Some(Decision::Deny { reason, .. })
        | Some(Decision::Ask {
            reason: Some(reason),
            ..
        }) => texts.push(reason),
        _ => {}
    }
    if let Some(a) = &mut o.approval
        && let Some(reason) = &mut a.reason
    {
        texts.push(reason);
    }
    if let Some(t) = &mut o.result.text {
        texts.push(t);
    }
    for t in texts {
        *t = f(t);
    }
}

/// A gate that words one template its own way, and nothing else, reads as that template: the
/// run's first violation is `MSG-FAILED` for a gate that words the denial of a failed review its
/// own way (under either profile: the baseline denies every failure, the resilient one under
/// `on_failure: deny`), `MSG-ASK-FAILED` for one that words the question after a failed review.
#[test]
fn a_gate_that_words_one_failure_template_its_own_way_reads_as_that_template() {
    let failed = |_: &Scenario, o: &mut Outcome| {
        each_outcome_text(o, |t| {
            t.replace(
                "\" failed; its body was not executed: ",
                "\" was stopped, the review failed: ",
            )
        })
    };
    let asked = |_: &Scenario, o: &mut Outcome| {
        each_outcome_text(o, |t| {
            t.replacen("\" failed: ", "\" could not be reviewed: ", 1)
        })
    };
    for profile in Profile::all() {
        let mut plant = Planted::writing("MSG-FAILED worded its own way", failed);
        assert_eq!(
            fixed_run(&mut plant, profile),
            (Some(Severity::Text), Some("MSG-FAILED".to_owned())),
            "{profile}"
        );
        indexed(plant.name, "MSG-FAILED", profile);
    }
    let mut plant = Planted::writing("MSG-ASK-FAILED worded its own way", asked);
    assert_eq!(
        fixed_run(&mut plant, Profile::RESILIENT),
        (Some(Severity::Text), Some("MSG-ASK-FAILED".to_owned()))
    );
    indexed(plant.name, "MSG-ASK-FAILED", Profile::RESILIENT);
}

// Reader plants: each rewrites the reply as a defective reader would see it, and the reference
// then reads what is left, so the plant differs from the reference exactly where the mistake
// does. Each is caught at SAFETY by the fixed cases alone and by generated cases alone: every one
// turns a reply the spec refuses into an allow, which runs the body.

/// The generated cases each reader plant is checked with: a few thousand, so that each test
/// takes seconds, and enough that every shape a plant needs is drawn.
const READER_CASES: usize = 4_000;

/// Rewrites every text the reviewer's attempts deliver (a text attempt, each text block) by `f`.
fn each_text(s: &mut Scenario, f: impl Fn(&str) -> String) {
    for a in attempts(s) {
        match a {
            Attempt::Text { text, .. } => *text = f(text),
            Attempt::Blocks { blocks, .. } => {
                for b in blocks.iter_mut().filter(|b| b.kind == BlockKind::Text) {
                    b.text = f(&b.text);
                }
            }
            _ => {}
        }
    }
}

/// The reviewer's attempts, to rewrite.
fn attempts(s: &mut Scenario) -> &mut [Attempt] {
    match &mut s.reviewer {
        Reviewer::One(a) => std::slice::from_mut(a),
        Reviewer::Many(list) => list,
    }
}

/// Whitespace as Python's `str.isspace` has it (what `str.strip()` removes): Unicode White_Space,
/// U+0085 included, and the information separators U+001C..U+001F; not U+FEFF.
fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Asserts that `tests/planted.json` lists the plant `name` leading with `clause` under
/// `profile`, so that `autoreview requirements` shows it.
fn indexed(name: &str, clause: &str, profile: Profile) {
    assert!(
        autoreview::requirements::planted()
            .iter()
            .any(|d| d.defect == name && d.clause == clause && d.profile == profile.as_str()),
        "add {name:?} leading with {clause} under {profile} to tests/planted.json"
    );
}

/// Asserts that `plant` is found at `severity` by the fixed cases of `profile` and by `count`
/// generated ones, and that the fixed cases' run leads with the clause the plant breaks, where it
/// names one ([`Planted::leading`]).
fn found_at(plant: &mut Planted, profile: Profile, severity: Severity, count: usize) {
    let (worst, first) = fixed_run(plant, profile);
    assert_eq!(
        worst,
        Some(severity),
        "{} under {profile}, fixed cases",
        plant.name
    );
    if let Some(lead) = plant.lead {
        assert_eq!(
            first.as_deref(),
            Some(lead),
            "{} under {profile}: the run's first violation",
            plant.name
        );
        indexed(plant.name, lead, profile);
    }
    assert_eq!(
        by_generated(plant, profile, count),
        Some(severity),
        "{} under {profile}, generated cases",
        plant.name
    );
}

/// [`found_at`] under each of `profiles`, the fixed cases' run leading with `lead`.
fn found_leading(
    plant: Planted,
    lead: &'static str,
    profiles: &[Profile],
    severity: Severity,
    count: usize,
) {
    let mut plant = plant.leading(lead);
    for &profile in profiles {
        found_at(&mut plant, profile, severity, count);
    }
}

/// Asserts that `plant` is found at SAFETY by the fixed cases of `profile` and by
/// [`READER_CASES`] generated ones.
fn found_at_safety(mut plant: Planted, profile: Profile) {
    found_at(&mut plant, profile, Severity::Safety, READER_CASES);
}

/// [`found_at`] BOUNDS by fixed and by generated cases: the mistake runs a body on an allow the
/// spec does not let count there (a reviewer's past the bound or to a request the spec does not
/// make, a human's where the spec asks nobody), and never one nobody allowed.
fn found_at_bounds(mut plant: Planted, profile: Profile) {
    found_at(&mut plant, profile, Severity::Bounds, READER_CASES);
}

/// A baseline gate that writes `JSON.parse(text.trim())`: ECMAScript's trim removes U+00A0,
/// U+3000, U+FEFF, U+2028 and the other whitespace JSON does not allow, so an allow wrapped in it
/// runs the body where the strict reader fails the review (AR-PARSE-4).
#[test]
fn a_baseline_gate_that_trims_before_json_parse_is_found_at_safety() {
    let plant = Planted::reading("JSON.parse(text.trim())", |s| {
        each_text(s, |t| autoreview::jsstring::trim(t).to_owned())
    });
    found_at_safety(plant.leading("AR-PARSE-4"), Profile::BASELINE);
}

/// A gate that trims the reply with Python's `str.strip()` before reading it: in the baseline
/// it lets every Unicode space around an allow through (AR-PARSE-4); in the resilient profile it
/// removes U+0085 and the information separators, which ECMAScript's trim keeps (AR-TOL-10).
#[test]
fn a_gate_that_strips_the_reply_as_python_does_is_found_at_safety() {
    for profile in Profile::all() {
        let plant = Planted::reading("json.loads(text.strip())", |s| {
            each_text(s, |t| t.trim_matches(python_space).to_owned())
        });
        // The baseline's JSON whitespace, the resilient allow standing alone.
        let lead = if profile.reader() == autoreview::profile::Reader::Strict {
            "AR-PARSE-4"
        } else {
            "AR-TOL-10"
        };
        found_at_safety(plant.leading(lead), profile);
    }
}

/// A tolerant reader that counts U+0085 as whitespace around an allow (AR-TOL-10: `trim` keeps
/// it).
#[test]
fn a_tolerant_reader_that_trims_u0085_is_found_at_safety() {
    let plant = Planted::reading("U+0085 trimmed", |s| {
        each_text(s, |t| {
            t.trim_matches(|c| autoreview::jsstring::is_trimmed(c) || c == '\u{85}')
                .to_owned()
        })
    });
    found_at_safety(plant.leading("AR-TOL-10"), Profile::RESILIENT);
}

/// A tolerant reader that takes any opening line without a brace as a fence's info string
/// (AR-TOL-10: only a plain language name): `json title="x"` is read as `json`.
#[test]
fn a_tolerant_reader_that_accepts_any_fence_info_string_is_found_at_safety() {
    let plant = Planted::reading("any fence info string", |s| {
        each_text(s, |t| {
            let trimmed = autoreview::jsstring::trim(t);
            for marker in ["```", "~~~"] {
                if let Some((info, rest)) = trimmed
                    .strip_prefix(marker)
                    .and_then(|r| r.split_once('\n'))
                    && !info.contains('{')
                {
                    return format!("{marker}json\n{rest}");
                }
            }
            t.to_owned()
        })
    });
    found_at_safety(plant.leading("AR-TOL-10"), Profile::RESILIENT);
}

/// A tolerant reader that reads the first of several candidates instead of failing on two that
/// differ (AR-TOL-6): `{allow} {deny}` becomes the allow. The texts are joined first, as the
/// reader joins them (AR-TOL-2).
#[test]
fn a_tolerant_reader_that_reads_the_first_of_two_objects_is_found_at_safety() {
    let plant = Planted::reading("the first object read", |s| {
        for a in attempts(s) {
            let texts: Vec<&mut String> = match a {
                Attempt::Text { text, .. } => vec![text],
                Attempt::Blocks { blocks, .. } => blocks
                    .iter_mut()
                    .filter(|b| b.kind == BlockKind::Text)
                    .map(|b| &mut b.text)
                    .collect(),
                _ => continue,
            };
            let joined: String = texts.iter().map(|t| t.as_str()).collect();
            let spans = autoreview::parse::scan::top_level_objects(&joined);
            if spans.len() >= 2 {
                let first = joined[spans[0].clone()].to_owned();
                for (i, t) in texts.into_iter().enumerate() {
                    *t = if i == 0 { first.clone() } else { String::new() };
                }
            }
        }
    });
    found_at_safety(plant.leading("AR-TOL-6"), Profile::RESILIENT);
}

/// A tolerant reader that trims a text before it checks the size bound (AR-TOL-3: the text as
/// delivered is measured): an allow padded past the bound is read. The reviewer did allow, past
/// the bound: BOUNDS, not SAFETY.
#[test]
fn a_tolerant_reader_that_trims_before_the_size_bound_is_found_at_bounds() {
    let mut plant = Planted::reading("bound checked after trimming", |s| {
        each_text(s, |t| {
            if t.len() > autoreview::parse::tolerant::MAX_TEXT_BYTES {
                autoreview::jsstring::trim(t).to_owned()
            } else {
                t.to_owned()
            }
        })
    });
    // An allow padded past the bound is about one attempt in 3 600 (`direct::padded_near_bound`):
    // 8 000 cases meet it, 4 000 do not.
    assert_eq!(
        fixed_run(&mut plant, Profile::RESILIENT),
        (Some(Severity::Bounds), Some("AR-TOL-3".to_owned()))
    );
    indexed(plant.name, "AR-TOL-3", Profile::RESILIENT);
    assert_eq!(
        by_generated(&mut plant, Profile::RESILIENT, 8_000),
        Some(Severity::Bounds)
    );
}

/// A reader that drops members whose names hold a lone surrogate escape, as a decoder that
/// cannot represent them might (AR-PARSE-4 accepts them; AR-PARSE-7 then refuses the unknown
/// member): `{"risk":"low","decision":"allow","\udc00":0}` becomes the allow.
#[test]
fn a_reader_that_drops_lone_surrogate_names_is_found_at_safety() {
    fn drop_lone_surrogate_members(t: &str) -> String {
        let mut out = t.to_owned();
        while let Some(at) = out.find(",\"\\ud").or_else(|| out.find(",\"\\uD")) {
            let name_end = out[at + 2..].find('"').map(|e| at + 2 + e);
            let Some(end) = name_end.and_then(|e| out[e..].find([',', '}']).map(|v| e + v)) else {
                break;
            };
            out.replace_range(at..end, "");
        }
        out
    }
    for profile in Profile::all() {
        let plant = Planted::reading("lone surrogate names dropped", |s| {
            each_text(s, drop_lone_surrogate_members)
        });
        // The strict reader's unknown member, the tolerant reader's exact legal shape.
        let lead = if profile.reader() == autoreview::profile::Reader::Strict {
            "AR-PARSE-7"
        } else {
            "AR-TOL-8"
        };
        found_at_safety(plant.leading(lead), profile);
    }
}

/// One mistake in how a gate carries a session's state; the reference's fold otherwise.
struct Carry {
    /// Whether disposal finds the session listed, given whether it is.
    listed: fn(bool) -> bool,
    /// The count a call leaves, given the count before it, the review the gate made and the
    /// count the reference leaves.
    count: fn(u32, Option<&Review>, u32) -> u32,
    /// Whether a selection of Auto writes the preset and policy (AR-SCOPE-5).
    selects: bool,
}

/// The reference's carried state, nothing changed.
const CARRY: Carry = Carry {
    listed: |listed| listed,
    count: |_, _, n| n,
    selects: true,
};

/// A session decided item by item as [`session::walk`] does, carrying the state with `m`'s
/// mistake.
fn carried(s: &SessionScenario, profile: Profile, m: &Carry) -> Vec<Step> {
    let mut state = State::start(s);
    let listed = (m.listed)(s.session.listed);
    s.calls
        .iter()
        .map(|item| {
            let before = state.clone();
            match item {
                Item::Call(c) => {
                    let (mut o, review) =
                        engine::decide_keeping_review(&state.scenario_for(s, c), profile);
                    if let Some(n) = o.review.consecutive_failures {
                        let n = (m.count)(before.consecutive_failures, review.as_ref(), n);
                        o.review.consecutive_failures = Some(n);
                        state.consecutive_failures = n;
                    }
                    if c.abort.is_lifecycle() {
                        let dispose = Event {
                            event: EventKind::Dispose,
                            reselect: false,
                        };
                        state.apply(&dispose, listed);
                    }
                    Step {
                        before,
                        outcome: ItemOutcome::Call(Box::new(o)),
                        review,
                    }
                }
                Item::Event(e) => {
                    let outcome = if e.event == EventKind::SelectAuto && !m.selects {
                        // Reports the selection as the reference does, and forgets it.
                        state.clone().apply(e, listed)
                    } else {
                        state.apply(e, listed)
                    };
                    Step {
                        before,
                        outcome: ItemOutcome::Event(outcome),
                        review: None,
                    }
                }
            }
        })
        .collect()
}

/// Generated cases for the session plants: a session is drawn for one case in eight.
const SESSION_CASES: usize = 3000;

/// The harness's own fold, with no mistake, passes both kinds of case: what the plants below
/// are caught for is their mistake alone.
#[test]
fn the_carrying_fold_without_a_mistake_passes() {
    let mut none = Planted::carrying("nothing", |s, p| carried(s, p, &CARRY));
    for profile in Profile::all() {
        assert_eq!(by_fixed(&mut none, profile), None, "{profile}");
        assert_eq!(by_generated(&mut none, profile, 1000), None, "{profile}");
    }
}

/// A gate that resets the failure count on an allow only, not on a deny (AR-RES-HINT-1): the
/// count and the hint after a deny are wrong. The hint changes only texts (AR-RES-HINT-3), so no
/// body runs that must not: TEXT, from either kind of case.
#[test]
fn a_count_a_deny_does_not_reset_is_found_at_text() {
    let plant = Planted::carrying("a deny keeps the failure count", |s, p| {
        carried(
            s,
            p,
            &Carry {
                count: |before, review, n| match review.map(|r| &r.settlement) {
                    Some(Settlement::Decided(ReviewerDecision::Deny { .. })) => before,
                    _ => n,
                },
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-RES-HINT-1",
        &[Profile::RESILIENT],
        Severity::Text,
        SESSION_CASES,
    );
}

/// A gate that counts a failure a signal produced (AR-CANCEL-6, AR-RES-HINT-1): TEXT at worst,
/// as above.
#[test]
fn a_count_a_signal_raises_is_found_at_text() {
    let plant = Planted::carrying("a signal's failure is counted", |s, p| {
        carried(
            s,
            p,
            &Carry {
                count: |before, review, n| match review {
                    Some(r) if r.signal_ended => before + 1,
                    _ => n,
                },
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-RES-HINT-1",
        &[Profile::RESILIENT],
        Severity::Text,
        SESSION_CASES,
    );
}

/// A gate that moves every Auto session at disposal, listed or not (AR-DISPOSE-1, AR-DISPOSE-4):
/// an unlisted session is out of Auto once the integration is installed again, so a call the
/// reviewer denies passes through and its body runs: SAFETY, from either kind of case.
#[test]
fn disposal_that_moves_an_unlisted_session_is_found_at_safety() {
    let plant = Planted::carrying("disposal moves unlisted sessions too", |s, p| {
        carried(
            s,
            p,
            &Carry {
                listed: |_| true,
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-DISPOSE-1",
        &Profile::all(),
        Severity::Safety,
        SESSION_CASES,
    );
}

/// A gate that ignores a selection of Auto (AR-SCOPE-5): a session under another preset stays
/// out of Auto, so a call the reviewer denies passes through and its body runs: SAFETY.
#[test]
fn an_ignored_selection_of_auto_is_found_at_safety() {
    let plant = Planted::carrying("a selection of Auto is ignored", |s, p| {
        carried(
            s,
            p,
            &Carry {
                selects: false,
                ..CARRY
            },
        )
    });
    found_leading(
        plant,
        "AR-SCOPE-5",
        &Profile::all(),
        Severity::Safety,
        SESSION_CASES,
    );
}

/// A gate that lets the transport ignore a disposal that began before it, passing it through
/// under the policy its session had rather than the `never` disposal wrote (AR-DISPOSE-3,
/// AR-RES-DISPOSE-1): a later check's question reaches a human who allows it, and the body runs
/// where the approval service answers by itself and asks nobody: BOUNDS.
#[test]
fn a_transport_that_ignores_disposal_is_found_at_bounds() {
    let plant = Planted::writing("run_code ignores a disposal begun before it", |s, o| {
        if s.tool.call == CallKind::RunCode && s.abort == AbortPoint::LifecycleBeforeReview {
            let mut undisposed = s.clone();
            undisposed.abort = AbortPoint::None;
            // What the call comes to without the disposal; the review it never made is as the
            // reference records it.
            let u = engine::decide(&undisposed, Profile::BASELINE);
            (o.listener, o.approval, o.result, o.trace) =
                (u.listener, u.approval, u.result, u.trace);
        }
    });
    found_leading(
        plant,
        "AR-DISPOSE-3",
        &Profile::all(),
        Severity::Bounds,
        SESSION_CASES,
    );
}

// Scope plants: each takes a call in or out of review against chapter 1 (AR-SCOPE-1..3) or
// AR-REVIEW-1, as a gate that reads the call's agent, kind or preset wrongly would.

/// A gate that reviews a call with no agent (AR-SCOPE-1): when the reviewer allows, the body runs
/// where downstream alone decides, on an allow to a request the spec does not make: BOUNDS.
#[test]
fn a_gate_that_reviews_a_call_without_an_agent_is_found_at_bounds() {
    let plant = Planted::reading("a call without an agent reviewed", |s| s.agent = true);
    found_leading(
        plant,
        "AR-SCOPE-1",
        &Profile::all(),
        Severity::Bounds,
        READER_CASES,
    );
}

/// A gate that reviews the outer `run_code` transport call (AR-SCOPE-2): its review decides what
/// downstream alone should: a DECISION, never a body nobody allowed.
#[test]
fn a_gate_that_reviews_the_outer_transport_is_found_at_decision() {
    let plant = Planted::reading("the outer run_code call reviewed", |s| {
        if s.tool.call == CallKind::RunCode {
            s.tool.call = CallKind::Native;
        }
    });
    found_leading(
        plant,
        "AR-SCOPE-2",
        &Profile::all(),
        Severity::Decision,
        READER_CASES,
    );
}

/// A gate that reviews a call whose session is not in Auto (AR-SCOPE-3): a DECISION.
#[test]
fn a_gate_that_reviews_outside_auto_is_found_at_decision() {
    let plant = Planted::reading("a call outside Auto reviewed", |s| {
        s.preset = autoreview::scenario::Preset::Auto;
    });
    found_leading(
        plant,
        "AR-SCOPE-3",
        &Profile::all(),
        Severity::Decision,
        READER_CASES,
    );
}

/// A gate that passes a call in Auto through unreviewed (AR-REVIEW-1): downstream's allow runs
/// the body nobody reviewed: SAFETY.
#[test]
fn a_gate_that_passes_auto_through_is_found_at_safety() {
    let plant = Planted::reading("a call in Auto passed through", |s| {
        if s.preset == autoreview::scenario::Preset::Auto {
            s.preset = autoreview::scenario::Preset::DangerFullAccess;
        }
    });
    found_leading(
        plant,
        "AR-REVIEW-1",
        &Profile::all(),
        Severity::Safety,
        READER_CASES,
    );
}

// Rule plants: each reads one rule of a profile as another profile has it, or drops what it
// requires, and is found by fixed and by generated cases leading with that rule's clause.

/// A resilient gate that looks up a tool's schema in the request header only (AR-RES-SCHEMA-1):
/// a call whose header lacks the schema fails its review where the registry has it: a DECISION.
#[test]
fn a_resilient_gate_that_skips_the_registry_is_found_at_decision() {
    let plant = Planted::reading("the live registry not read", |s| {
        s.schema.registry = autoreview::scenario::SchemaCount::Missing;
    });
    found_leading(
        plant,
        "AR-RES-SCHEMA-1",
        &[Profile::RESILIENT],
        Severity::Decision,
        READER_CASES,
    );
}

/// A baseline gate that falls back to the registry when the header lacks the schema
/// (AR-REVIEW-2: the header only): it reviews a call whose review must fail, and runs the body
/// on a reviewer's allow to a request the spec does not make: BOUNDS.
#[test]
fn a_baseline_gate_that_reads_the_registry_is_found_at_bounds() {
    let plant = Planted::reading("the registry read in the baseline", |s| {
        if s.schema.header == autoreview::scenario::SchemaCount::Missing {
            s.schema.header = s.schema.registry;
        }
    });
    found_leading(
        plant,
        "AR-REVIEW-2",
        &[Profile::BASELINE],
        Severity::Bounds,
        READER_CASES,
    );
}

/// A resilient gate that ignores the configured reviewer route (AR-RES-ROUTE-1): its requests
/// go to the session's route, whose replies decide otherwise: a DECISION.
#[test]
fn a_resilient_gate_that_ignores_the_reviewer_route_is_found_at_decision() {
    let plant = Planted::reading("the configured reviewer route ignored", |s| {
        s.config.reviewer_route = None;
    });
    found_leading(
        plant,
        "AR-RES-ROUTE-1",
        &[Profile::RESILIENT],
        Severity::Decision,
        READER_CASES,
    );
}

/// A resilient gate whose reviewer requests carry no session id (AR-RES-REQUEST-1): what a
/// request carried is information, found at INFO and no worse.
#[test]
fn a_resilient_gate_without_the_session_id_is_found_at_info() {
    let plant = Planted::writing("no session id in reviewer requests", |_, o| {
        if let Some(requests) = &mut o.review.requests {
            for r in requests.iter_mut() {
                r.session_id = None;
            }
        }
    });
    found_leading(
        plant,
        "AR-RES-REQUEST-1",
        &[Profile::RESILIENT],
        Severity::Info,
        READER_CASES,
    );
}

/// A resilient gate that denies a failed review under `ask` as the baseline does
/// (AR-RES-FAIL-2: it is asked about): a DECISION.
#[test]
fn a_resilient_gate_that_denies_failures_under_ask_is_found_at_decision() {
    let plant = Planted::reading("failures denied under ask", |s| {
        s.config.on_failure = autoreview::scenario::OnFailure::Deny;
    });
    found_leading(
        plant,
        "AR-RES-FAIL-2",
        &[Profile::RESILIENT],
        Severity::Decision,
        READER_CASES,
    );
}

/// An approval service that asks the human under the policy `never` (AR-APPROVAL-2: rejected
/// without a prompt): the human's allow runs a body where the spec asks nobody: BOUNDS.
#[test]
fn an_approval_service_that_asks_under_never_is_found_at_bounds() {
    use autoreview::scenario::ApprovalPolicy;
    let plant = Planted::reading("never read as ask", |s| {
        if s.policy.override_ == Some(ApprovalPolicy::Never) {
            s.policy.override_ = Some(ApprovalPolicy::Ask);
        }
    });
    found_leading(
        plant,
        "AR-APPROVAL-2",
        &Profile::all(),
        Severity::Bounds,
        READER_CASES,
    );
}

// Review plants: each changes how the gate runs its review, not how it reads a reply. A body runs
// only when the reviewer's next attempt allows, or when a human who was asked allows, so each is
// found running a body only because the search toward a body run varies the reviewer script and
// `on_failure`; the fixed cases that script such an attempt find it without the search. Someone
// allowed, where the spec does not let that allow count: BOUNDS.

/// A resilient gate that makes one repair request more than `repair_attempts` allows
/// (AR-RES-RETRY-1): when that extra request is answered with an allow, the body runs where the
/// reference has already taken the failure path, on a reviewer's allow to a request the spec does
/// not make: BOUNDS.
#[test]
fn a_gate_that_repairs_once_too_often_is_found_at_bounds() {
    let plant = Planted::reading("one repair more than the budget", |s| {
        s.config.repair_attempts += 1;
    });
    found_at_bounds(plant.leading("AR-RES-RETRY-1"), Profile::RESILIENT);
}

/// A resilient gate that asks the human after a failed review even under `on_failure: deny`
/// (AR-RES-FAIL-3): when the human allows, the body runs where the reference denies, on a
/// human's allow where the spec asks nobody: BOUNDS.
#[test]
fn a_gate_that_asks_where_it_must_fail_closed_is_found_at_bounds() {
    let plant = Planted::reading("on_failure: deny read as ask", |s| {
        s.config.on_failure = autoreview::scenario::OnFailure::Ask;
    });
    found_at_bounds(plant.leading("AR-RES-FAIL-3"), Profile::RESILIENT);
}

/// `String(value)` (AR-REVIEW-5) with every number written by [`python_str`].
fn python_string(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Number(n) => python_str(n),
        Value::Array(items) => items
            .iter()
            .map(|i| {
                if i.is_null() {
                    String::new()
                } else {
                    python_string(i)
                }
            })
            .collect::<Vec<_>>()
            .join(","),
        other => autoreview::jsstring::js_string(other),
    }
}

/// AR-RES-NORM-1's text with every number written by [`python_str`], as `json.dumps` with compact
/// separators writes it (member order and strings as the reference writes them).
fn python_value_text(v: &serde_json::Value) -> String {
    use serde_json::Value;
    fn json(v: &Value) -> String {
        match v {
            Value::Number(n) => python_str(n),
            Value::Array(items) => {
                format!("[{}]", items.iter().map(json).collect::<Vec<_>>().join(","))
            }
            Value::Object(m) => {
                // The reference's order and quoting, taken from its own text of each member.
                let whole = autoreview::jsstring::json_stringify(v);
                let mut out = whole.clone();
                for (k, item) in m {
                    let name = autoreview::jsstring::json_stringify(&Value::String(k.clone()));
                    let theirs = format!("{name}:{}", autoreview::jsstring::json_stringify(item));
                    out = out.replacen(&theirs, &format!("{name}:{}", json(item)), 1);
                }
                out
            }
            other => autoreview::jsstring::json_stringify(other),
        }
    }
    match v {
        Value::String(_) => autoreview::normalize::value_text(v),
        Value::Object(m) if matches!(m.get("message"), Some(Value::String(_))) => {
            autoreview::normalize::value_text(v)
        }
        other => json(other),
    }
}

/// The gate writes the numbers of the review's failure message with Python's `str` (under the
/// baseline's conversion when `RESILIENT` is false): the message of its last request, where the
/// review's failure is that message (it ends with the provider's value made text), in every text
/// that shows it.
fn writes_numbers_with_python_str<const RESILIENT: bool>(s: &Scenario, o: &mut Outcome) {
    use autoreview::scenario::Attempt;
    let (Some(failure), Some(last)) = (&o.review.failure, o.review.attempts.checked_sub(1)) else {
        return;
    };
    let value = match s.reviewer.attempt(last as usize) {
        Attempt::Finish { finish, .. } => &finish.message,
        Attempt::Throw { throw, .. } => throw,
        _ => return,
    };
    let (js, py) = if RESILIENT {
        (
            autoreview::normalize::value_text(value),
            python_value_text(value),
        )
    } else {
        (autoreview::jsstring::js_string(value), python_string(value))
    };
    let Some(head) = failure.message.strip_suffix(js.as_str()) else {
        return; // normalized or cut: the message is not the value's text as it stands
    };
    if js == py {
        return;
    }
    let (was, now) = (failure.message.clone(), format!("{head}{py}"));
    let fix = |t: &mut String| {
        if *t == was {
            *t = now.clone();
        } else if let Some(h) = t.strip_suffix(&format!(": {was}")) {
            *t = format!("{h}: {now}");
        } else {
            *t = t.replacen(&format!(": {was}\n"), &format!(": {now}\n"), 1);
        }
    };
    if let Some(f) = &mut o.review.failure {
        fix(&mut f.message);
    }
    if let Some(t) = &mut o.result.text {
        fix(t);
    }
    let fix_display = |d: &mut Option<autoreview::outcome::DisplayReason>| {
        if let Some(d) = d {
            fix(&mut d.en);
            fix(&mut d.zh);
        }
    };
    if let Some(a) = &mut o.approval {
        if let Some(r) = &mut a.reason {
            fix(r);
        }
        fix_display(&mut a.display_reason);
    }
    match &mut o.listener {
        Some(autoreview::outcome::Decision::Deny { reason, .. }) => fix(reason),
        Some(autoreview::outcome::Decision::Ask {
            reason,
            display_reason,
        }) => {
            if let Some(r) = reason {
                fix(r);
            }
            fix_display(display_reason);
        }
        _ => {}
    }
}

/// A gate that writes the numbers of a provider's message or a thrown value with Python's `str`
/// (`100.0`, `-0.0`, `1e-07`, `1e+17`) where the spec has ECMAScript's text is found at TEXT by
/// the fixed cases and by 3 000 generated cases of each profile, and no worse: no body runs that
/// the reference does not run.
#[test]
fn numbers_written_with_python_str_are_found_at_text_by_each_kind_of_case() {
    for (profile, plant) in [
        (
            Profile::BASELINE,
            writes_numbers_with_python_str::<false> as fn(&Scenario, &mut Outcome),
        ),
        (Profile::RESILIENT, writes_numbers_with_python_str::<true>),
    ] {
        let mut python = Planted::writing("numbers written with Python's str", plant);
        assert_eq!(
            by_fixed(&mut python, profile),
            Some(Severity::Text),
            "{profile}"
        );
        assert_eq!(
            by_generated(&mut python, profile, 3_000),
            Some(Severity::Text),
            "{profile}"
        );
    }
}

/// A resilient gate that matches the message patterns of AR-REVIEW-7 against the provider's code
/// as well as its message, so a code such as `ECONNRESET` makes a quota failure a transport one:
/// the gate retries it (AR-RES-RETRY-2), and when the retry allows, the body runs where the
/// reference has already taken the failure path, on a reviewer's allow to a request the spec does
/// not make: BOUNDS. The plant shows the gate the code as its message wherever a message pattern
/// matches the code and no code rule names it.
#[test]
fn a_gate_that_matches_message_patterns_against_the_code_is_found_at_bounds() {
    let plant = Planted::reading("message patterns matched against the code", |s| {
        for a in attempts(s) {
            if let Attempt::Finish { finish, .. } = a {
                let lowercase = finish.code.to_lowercase();
                let pattern = autoreview::engine::review::CLASSIFICATION_RULES
                    .iter()
                    .find(|(c, _)| c.holds(&finish.code, &lowercase));
                let by_code = pattern.is_some_and(|(c, _)| {
                    matches!(c, autoreview::engine::review::Condition::Message(_))
                });
                if by_code {
                    finish.message = serde_json::Value::String(finish.code.clone());
                }
            }
        }
    });
    found_at_bounds(plant, Profile::RESILIENT);
}

/// Python's `str` of a float is `repr`, checked here against named values (the external tier
/// checks it against `python3` itself over every double of the committed number fixture).
#[test]
fn python_str_writes_the_named_values() {
    for (x, want) in [
        (100.0, "100.0"),
        (-0.0, "-0.0"),
        (1e-7, "1e-07"),
        (1e-5, "1e-05"),
        (0.0001, "0.0001"),
        (1e16, "1e+16"),
        (9.1e15, "9100000000000000.0"),
        (9007199254740992.0, "9007199254740992.0"),
        (1.5e22, "1.5e+22"),
        (0.1, "0.1"),
        (123e-9, "1.23e-07"),
        (5e-324, "5e-324"),
    ] {
        assert_eq!(
            python_str(&serde_json::Number::from_f64(x).unwrap()),
            want,
            "{x:e}"
        );
    }
    assert_eq!(python_str(&serde_json::Number::from(-42)), "-42");
}
