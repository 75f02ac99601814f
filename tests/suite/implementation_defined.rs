//! What the spec leaves open is never compared beyond what it fixes (issue 40, item 2): the spec's
//! statements that make a text implementation-defined (a clause that says so, or a template whose
//! normative part is a prefix) are walked, and each is checked on a scenario where it applies, a
//! call's or a session's: the reference marks the text and every text quoting it `prefix_only`,
//! exactly up to where the open part starts, and an answer that words the open part its own way is
//! judged equal at every level. An implementation in process that words every such text its own
//! way, found from the scenario and the outcome alone (never from the reference's marks), then
//! passes every fixed case and generated cases at `full`.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use autoreview::capability::Capabilities;
use autoreview::cases;
use autoreview::conformance::Level;
use autoreview::engine;
use autoreview::messages::{Wording, reference};
use autoreview::outcome::{FailureClass, InputOutcome, ItemOutcome, Outcome};
use autoreview::profile::Profile;
use autoreview::runner::generated::{self, Plan};
use autoreview::runner::judge;
use autoreview::runner::known_failures::Expected;
use autoreview::runner::{self, Ask, ImplError, Implementation, Oracle};
use autoreview::scenario::session::{EventKind, Input, Item};
use autoreview::scenario::{AbortPoint, Scenario};
use serde_json::Value;

/// What an implementation puts where the spec leaves the words to it.
const OWN: &str = "gate: in words of its own";

/// The markers of a statement that leaves a text open: a clause that says so, or names the part
/// of a text the spec fixes, or leaves the words to the deployment.
const MARKERS: [&str; 3] = ["implementation-defined", "normative part", "worded by"];

/// The IDs of the spec's statements that leave a text (or part of one) open: each clause whose
/// paragraph says so, and each template whose normative column is not "full" alone.
fn spec_statements() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for paragraph in autoreview::spec::TEXT.split("\n\n") {
        let Some(id) = paragraph
            .strip_prefix("**")
            .and_then(|p| p.split_once(".**"))
            .map(|(id, _)| id)
            .filter(|id| autoreview::spec::is_clause_id(id))
        else {
            continue;
        };
        if MARKERS.iter().any(|m| paragraph.contains(m)) {
            out.insert(id.to_owned());
        }
    }
    for line in autoreview::spec::TEXT.lines() {
        let Some(row) = line.strip_prefix("| `MSG-") else {
            continue;
        };
        let cells: Vec<&str> = row.split(" | ").collect();
        let normative = cells.get(1).copied().unwrap_or_default();
        if normative != "full" && !normative.starts_with("full (") {
            let id = format!("MSG-{}", cells[0].trim_end_matches('`'));
            out.insert(id);
        }
    }
    out
}

/// One statement's check: a scenario where it applies, the text the spec leaves open there, and
/// the texts that quote it.
struct Check {
    /// The statements it honours: clause and template IDs.
    ids: &'static [&'static str],
    profile: Profile,
    scenario: &'static str,
    /// The JSON pointer of the open text in the reference's outcome, and how many characters
    /// before it there are fixed (`Error: ` before a thrown approval message).
    open: (&'static str, usize),
    /// How the reference words the open text: the scenario reaches the statement.
    starts: &'static str,
    /// Every text of the outcome that holds the open text (the open text's own pointer
    /// included, when it is a member of its own).
    quoted_at: &'static [&'static str],
}

fn checks() -> Vec<Check> {
    let failed = &[
        "/review/failure/message",
        "/listener/reason",
        "/result/text",
    ][..];
    let asked = &[
        "/review/failure/message",
        "/listener/reason",
        "/listener/display_reason/en",
        "/listener/display_reason/zh",
        "/approval/reason",
        "/approval/display_reason/en",
        "/approval/display_reason/zh",
    ][..];
    vec![
        Check {
            ids: &["AR-PARSE-4", "AR-MSG-3", "MSG-FAILED", "AR-CONV-3"],
            profile: Profile::BASELINE,
            scenario: r#"{"tool": {"name": "probe"}, "reviewer": {"text": "not json"}}"#,
            open: ("/review/failure/message", 0),
            starts: "auto-review: reviewer output is not valid JSON (",
            quoted_at: failed,
        },
        Check {
            ids: &["AR-CANCEL-6", "AR-MSG-3", "MSG-FAILED"],
            profile: Profile::BASELINE,
            scenario: r#"{"tool": {"name": "probe"}, "reviewer": {"hang": true},
                "abort": "caller-during-review"}"#,
            open: ("/review/failure/message", 0),
            starts: reference::CALLER_ENDED_REVIEW,
            quoted_at: failed,
        },
        Check {
            ids: &["AR-CANCEL-6", "AR-MSG-3"],
            profile: Profile::RESILIENT,
            scenario: r#"{"tool": {"name": "probe"}, "reviewer": {"hang": true},
                "abort": "lifecycle-after-review"}"#,
            open: ("/review/failure/message", 0),
            starts: reference::LIFECYCLE_ENDED_REVIEW,
            quoted_at: &["/review/failure/message"],
        },
        // AR-CANCEL-6: the provider's own aborted finish after the caller's signal.
        Check {
            ids: &["AR-CANCEL-6", "MSG-FAILED"],
            profile: Profile::BASELINE,
            scenario: r#"{"tool": {"name": "probe"}, "abort": "caller-during-review",
                "reviewer": {"finish": {"kind": "aborted", "code": "UNKNOWN", "message": "late"}}}"#,
            open: ("/review/failure/message", 0),
            starts: "auto-review: reviewer ended with aborted UNKNOWN: late",
            quoted_at: failed,
        },
        Check {
            ids: &[
                "AR-CANCEL-6",
                "MSG-ASK-FAILED",
                "MSG-DISPLAY-FAILED-EN",
                "MSG-DISPLAY-FAILED-ZH",
            ],
            profile: Profile::RESILIENT,
            scenario: r#"{"tool": {"name": "probe"}, "abort": "caller-during-review",
                "reviewer": {"finish": {"kind": "aborted", "code": "ABORTED",
                "message": "This operation was aborted"}}}"#,
            open: ("/review/failure/message", 0),
            starts: "auto-review: reviewer ended with aborted ABORTED: This operation was aborted",
            quoted_at: asked,
        },
        // A session's call (SES-5's third), after a failure the session counts.
        Check {
            ids: &["AR-CANCEL-6", "MSG-ASK-FAILED"],
            profile: Profile::RESILIENT,
            scenario: r#"{"calls": [
                {"tool": {"name": "bash"}, "reviewer": {"throw": "x"}},
                {"tool": {"name": "bash"}, "abort": "caller-during-review",
                 "reviewer": {"finish": {"kind": "aborted", "code": "ABORTED",
                 "message": "This operation was aborted"}}}]}"#,
            open: ("/calls/1/review/failure/message", 0),
            starts: "auto-review: reviewer ended with aborted ABORTED: This operation was aborted",
            quoted_at: asked,
        },
        Check {
            ids: &["AR-APPROVAL-4", "AR-MSG-3", "MSG-APPROVAL-THREW"],
            profile: Profile::BASELINE,
            scenario: r#"{"tool": {"name": "probe"}, "approval": "throws",
                "reviewer": {"text": "{\"risk\":\"high\",\"decision\":\"deny\"}"}}"#,
            open: ("/result/text", "Error: ".len()),
            starts: reference::APPROVAL_OUTSIDE_TURN,
            quoted_at: &["/result/text"],
        },
        Check {
            ids: &["AR-DISPOSE-4", "MSG-ERR-NO-AUTO"],
            profile: Profile::RESILIENT,
            scenario: r#"{"calls": [{"event": "dispose"}, {"event": "select-auto"}]}"#,
            open: ("/calls/1/error", 0),
            starts: reference::NO_AUTO,
            quoted_at: &["/error"],
        },
    ]
}

/// Every string of `v` but those of `prefix_only`, with its pointer.
fn strings(v: &Value, at: String, out: &mut Vec<(String, String)>) {
    match v {
        Value::String(s) => out.push((at, s.clone())),
        Value::Array(items) => {
            for (k, item) in items.iter().enumerate() {
                strings(item, format!("{at}/{k}"), out);
            }
        }
        Value::Object(m) => {
            for (k, item) in m {
                if k != "prefix_only" {
                    strings(item, format!("{at}/{k}"), out);
                }
            }
        }
        _ => {}
    }
}

/// `v` with `open` replaced by [`OWN`] in every string.
fn reworded(v: &Value, open: &str) -> Value {
    match v {
        Value::String(s) => Value::String(s.replace(open, OWN)),
        Value::Array(items) => Value::Array(items.iter().map(|i| reworded(i, open)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, i)| (k.clone(), reworded(i, open)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `v` without any `prefix_only`: every text compared in full.
fn unmarked(v: &Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.iter().map(unmarked).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| *k != "prefix_only")
                .map(|(k, i)| (k.clone(), unmarked(i)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The item of a session pointer (`/calls/1/error` → `/calls/1`), `""` for a call's.
fn item_of(pointer: &str) -> String {
    pointer
        .strip_prefix("/calls/")
        .and_then(|rest| rest.split('/').next())
        .map_or_else(String::new, |k| format!("/calls/{k}"))
}

#[test]
fn every_statement_that_leaves_a_text_open_is_checked() {
    let statements = spec_statements();
    let checked: BTreeSet<String> = checks()
        .iter()
        .flat_map(|c| c.ids.iter().map(|id| (*id).to_owned()))
        .collect();
    // The walk finds the statements the spec has today, so a marker that stops matching is seen.
    for id in [
        "AR-CONV-3",
        "AR-PARSE-4",
        "AR-CANCEL-6",
        "AR-MSG-3",
        "MSG-FAILED",
    ] {
        assert!(statements.contains(id), "{id} in {statements:?}");
    }
    let unchecked: Vec<_> = statements.difference(&checked).collect();
    assert!(
        unchecked.is_empty(),
        "statements of the spec that leave a text open, with no check here: {unchecked:?}"
    );
    let unknown: Vec<_> = checked.difference(&statements).collect();
    assert!(
        unknown.is_empty(),
        "checks naming no statement that leaves a text open: {unknown:?}"
    );
}

#[test]
fn every_open_text_is_compared_only_as_far_as_the_spec_fixes_it() {
    for check in checks() {
        let input = Input::from_json(check.scenario).unwrap();
        let profile = check.profile;
        let want = judge::reference(&input, profile, Capabilities::ALL, &Wording::default());
        let v = serde_json::to_value(&want).unwrap();
        let what = format!("{:?} ({profile})", check.ids);
        let (pointer, fixed) = check.open;
        let whole = v
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or_default();
        let open: String = whole.chars().skip(fixed).collect();
        assert!(open.starts_with(check.starts), "{what}: {whole:?}");

        // Each text that holds the open text is marked up to exactly where it starts, and no
        // other text holds it.
        let item = item_of(pointer);
        let marks = v
            .pointer(&format!("{item}/prefix_only"))
            .cloned()
            .unwrap_or_default();
        let mut holding = Vec::new();
        strings(&v, String::new(), &mut holding);
        let holding: BTreeMap<String, String> = holding
            .into_iter()
            .filter(|(_, s)| s.contains(&open))
            .collect();
        let expected: BTreeSet<String> = check
            .quoted_at
            .iter()
            .map(|p| format!("{item}{p}"))
            .collect();
        assert_eq!(
            holding.keys().cloned().collect::<BTreeSet<_>>(),
            expected,
            "{what}"
        );
        for (at, text) in &holding {
            let starts = text[..text.find(&open).unwrap()].chars().count();
            let inner = &at[item.len()..];
            assert_eq!(
                marks.get(inner).and_then(Value::as_u64),
                Some(starts as u64),
                "{what}: {at} is normative up to where the open text starts ({text:?}); marks {marks}"
            );
        }

        // Worded otherwise, it is judged equal at every level; with the marks taken away, it is
        // not (the marks are what let it pass).
        let own: InputOutcome = serde_json::from_value(reworded(&v, &open)).unwrap();
        assert_ne!(own, want, "{what}: the answer words it otherwise");
        for level in Level::ALL {
            let found = judge::differences(&input, &want, &own, false, profile, level);
            assert!(found.is_empty(), "{what} at {level:?}: {found:#?}");
        }
        let strict: InputOutcome = serde_json::from_value(unmarked(&v)).unwrap();
        let found = judge::differences(&input, &strict, &own, false, profile, Level::Full);
        assert!(!found.is_empty(), "{what}: compared in full, it differs");
    }
}

/// How often the implementation below worded each kind of open text its own way.
#[derive(Debug, Default)]
struct Tally {
    invalid_json: usize,
    after_signal: usize,
    approval_threw: usize,
    no_auto: usize,
}

/// The reference engine, with every text the spec leaves open worded its own way: found from the
/// scenario and the outcome (a failure of invalid JSON, an `aborted` failure after the caller's or
/// the lifecycle's signal aborted the review, a thrown approval request, the refusal to select
/// Auto once it is gone), never from the reference's marks, which it drops.
struct OwnWords(Rc<RefCell<Tally>>);

impl OwnWords {
    fn call(&self, s: &Scenario, o: &mut Outcome) {
        let mut tally = self.0.borrow_mut();
        let mut open = Vec::new();
        if let Some(f) = &o.review.failure {
            // AR-PARSE-4
            if f.message
                .starts_with("auto-review: reviewer output is not valid JSON")
            {
                tally.invalid_json += 1;
                open.push(f.message.clone());
            // AR-CANCEL-6
            } else if f.class == FailureClass::Aborted
                && matches!(
                    s.abort,
                    AbortPoint::CallerDuringReview | AbortPoint::LifecycleAfterReview
                )
            {
                tally.after_signal += 1;
                open.push(f.message.clone());
            }
        }
        // AR-APPROVAL-4
        if o.result
            .text
            .as_deref()
            .is_some_and(|t| t.contains(reference::APPROVAL_OUTSIDE_TURN))
        {
            tally.approval_threw += 1;
            open.push(reference::APPROVAL_OUTSIDE_TURN.to_owned());
        }
        let mut v = serde_json::to_value(&*o).unwrap();
        for text in open {
            v = reworded(&v, &text);
        }
        *o = serde_json::from_value(unmarked(&v)).unwrap();
    }
}

impl Implementation for OwnWords {
    fn describe(&self) -> String {
        "the reference, in its own words where the spec leaves them open".into()
    }

    fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
        let mut out = engine::decide_input(ask.input, ask.profile);
        match (ask.input, &mut out) {
            (Input::One(s), InputOutcome::One(o)) => self.call(s, o),
            (Input::Session(s), InputOutcome::Session(so)) => {
                for (item, got) in s.calls.iter().zip(&mut so.calls) {
                    match (item, got) {
                        (Item::Call(c), ItemOutcome::Call(o)) => self.call(c, o),
                        // MSG-ERR-NO-AUTO
                        (Item::Event(e), ItemOutcome::Event(got))
                            if got.error.as_deref() == Some(reference::NO_AUTO) =>
                        {
                            assert!(matches!(
                                e.event,
                                EventKind::SelectAuto | EventKind::Dispose
                            ));
                            self.0.borrow_mut().no_auto += 1;
                            got.error = Some(OWN.to_owned());
                            got.prefix_only.clear();
                        }
                        _ => {}
                    }
                }
            }
            _ => unreachable!("an input is decided as what it is"),
        }
        Ok(out)
    }
}

/// Generated cases per profile.
const GENERATED: usize = 20_000;

#[test]
fn a_gate_in_its_own_words_where_the_spec_leaves_them_open_passes_every_case() {
    let tally = Rc::new(RefCell::new(Tally::default()));
    for profile in Profile::all() {
        let mut imp = OwnWords(Rc::clone(&tally));
        let all = cases::all(profile).unwrap();
        let report = runner::run(
            &mut imp,
            &all,
            profile,
            Oracle::Reference,
            &Expected::none(),
            &mut |_, _| {},
        );
        let failed: Vec<_> = report
            .results
            .iter()
            .filter(|r| !r.verdict.passed())
            .collect();
        assert!(failed.is_empty(), "{profile}: {failed:#?}");
        let run = generated::run(
            &mut imp,
            profile,
            &Plan::new(GENERATED, 20_261_203),
            &Expected::none(),
            &mut |_, _| {},
        );
        let failed: Vec<_> = run.results.iter().filter(|r| !r.verdict.passed()).collect();
        assert!(failed.is_empty(), "{profile}: {:#?}", failed.first());
        assert_eq!(run.passed, run.cases, "{profile}");
    }
    // Every kind of open text was worded otherwise, many times.
    let tally = tally.borrow();
    assert!(
        tally.invalid_json > 10
            && tally.after_signal > 10
            && tally.approval_threw > 10
            && tally.no_auto > 10,
        "{tally:?}"
    );
}
