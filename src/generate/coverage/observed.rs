//! What a case's outcome shows beyond its table row and its reader rules: the message templates
//! its texts were rendered from (chapter 9, AR-RES-MSG-1), hostile tool names on the paths that
//! insert a name, and the clauses only an outcome shows (texts, infos, the order of events,
//! approval, materialization, sessions and the lifecycle).

use crate::engine::review::{Review, Settlement};
use crate::outcome::{ApprovalRecord, Decision, Event, FailureClass, ItemOutcome, Outcome};
use crate::profile::{Profile, RouteRule};
use crate::scenario::session::{EventKind, Item, SessionScenario};
use crate::scenario::{AbortPoint, ApprovalAnswer, Scenario};

/// Every text of `o` a model or a person sees, or the outcome records: the listener's reason and
/// display reasons, the approval's, the result's text and the review's failure message.
pub fn texts(o: &Outcome) -> Vec<&str> {
    let mut out = Vec::new();
    match &o.listener {
        Some(Decision::Deny { reason, .. }) => out.push(reason.as_str()),
        Some(Decision::Ask {
            reason,
            display_reason,
        }) => {
            out.extend(reason.as_deref());
            if let Some(d) = display_reason {
                out.extend([d.en.as_str(), d.zh.as_str()]);
            }
        }
        _ => {}
    }
    if let Some(ApprovalRecord {
        reason,
        display_reason,
        ..
    }) = &o.approval
    {
        out.extend(reason.as_deref());
        if let Some(d) = display_reason {
            out.extend([d.en.as_str(), d.zh.as_str()]);
        }
    }
    out.extend(o.result.text.as_deref());
    out.extend(o.review.failure.as_ref().map(|f| f.message.as_str()));
    out
}

/// The templates rendered while the case was decided whose text reached one of `texts`, each
/// once: a rendering the outcome does not show (a message a later cancellation replaced) does not
/// count.
pub fn templates(rendered: &[(&'static str, String)], texts: &[&str]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (id, text) in rendered {
        if texts.iter().any(|t| t.contains(text.as_str())) {
            super::push_once(&mut out, id);
        }
    }
    out
}

/// A way a tool name breaks naive text handling (AR-CONV-4: a name is any string).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NameKind {
    /// It holds a `"`, which a template puts between quotes.
    Quote,
    /// It holds a `\`.
    Backslash,
    /// It is empty.
    Empty,
    /// It holds a line break.
    LineBreak,
    /// It holds a character beyond ASCII.
    NonAscii,
}

impl NameKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [NameKind; 5] = [
        NameKind::Quote,
        NameKind::Backslash,
        NameKind::Empty,
        NameKind::LineBreak,
        NameKind::NonAscii,
    ];

    /// The kinds `name` shows.
    pub fn of(name: &str) -> Vec<NameKind> {
        let mut out = Vec::new();
        let has = |f: fn(char) -> bool| name.chars().any(f);
        if has(|c| c == '"') {
            out.push(NameKind::Quote);
        }
        if has(|c| c == '\\') {
            out.push(NameKind::Backslash);
        }
        if name.is_empty() {
            out.push(NameKind::Empty);
        }
        if has(|c| matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')) {
            out.push(NameKind::LineBreak);
        }
        if !name.is_ascii() {
            out.push(NameKind::NonAscii);
        }
        out
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            NameKind::Quote => "quote",
            NameKind::Backslash => "backslash",
            NameKind::Empty => "empty",
            NameKind::LineBreak => "line break",
            NameKind::NonAscii => "non-ASCII",
        }
    }
}

/// Whether a template inserts the tool's name.
pub fn names_the_tool(template: &str) -> bool {
    crate::messages::by_id(template).is_some_and(|t| t.text.contains("<name>"))
}

/// The clauses a call's outcome shows, given the review the gate made (if any) and the templates
/// its texts came from.
pub fn call_clauses(
    s: &Scenario,
    profile: Profile,
    o: &Outcome,
    review: Option<&Review>,
    templates: &[&'static str],
) -> Vec<&'static str> {
    // A clause of chapter 11 counts only in a profile that has it (AR-CONV-2).
    let own = |c: &str| profile.has_clause(c);
    let mut out: Vec<&'static str> = Vec::new();
    let mut add = |c: &'static str, when: bool| {
        if when {
            super::push_once(&mut out, c);
        }
    };
    // The tables that list the templates the texts came from (AR-MSG-1, -2, -5, AR-RES-MSG-1).
    for (template, clause) in MESSAGE_CLAUSES.iter() {
        add(clause, templates.contains(template));
    }
    // AR-CONV-3, AR-MSG-3: a text normative by prefix, its tail implementation-defined.
    add("AR-CONV-3", !o.prefix_only.is_empty());
    add("AR-MSG-3", !o.prefix_only.is_empty());
    let info_named = |name: &str| {
        [
            o.result.info.as_ref(),
            match &o.listener {
                Some(Decision::Deny { info, .. }) => info.as_ref(),
                _ => None,
            },
        ]
        .into_iter()
        .flatten()
        .any(|i| i.get("name").and_then(|n| n.as_str()) == Some(name))
    };
    add(
        "AR-MSG-4",
        info_named("AutoReviewDeniedError") || info_named("AbortError"),
    );
    add(
        "AR-RES-MSG-2",
        own("AR-RES-MSG-2") && info_named("AutoReviewFailedError"),
    );
    // AR-RESULT-6: a structured reason the text leaves out.
    add(
        "AR-RESULT-6",
        o.result
            .info
            .as_ref()
            .is_some_and(|i| i.contains_key("reason")),
    );
    // AR-CANCEL-7: a cancelled call, whose body did not run.
    add(
        "AR-CANCEL-7",
        info_named("AbortError") && !o.result.executed,
    );
    // AR-ORDER-1, AR-REVIEW-1, AR-DECIDE-3: the events and their order.
    let has = |e: Event| o.trace.contains(&e);
    add("AR-ORDER-1", o.trace.len() >= 2);
    add("AR-REVIEW-1", has(Event::Review));
    add("AR-DECIDE-3", has(Event::Downstream));
    // Approval (AR-CONV-5 through AR-APPROVAL-2, AR-APPROVAL-5, -6, AR-RESULT-3, -5).
    if let Some(a) = &o.approval {
        add("AR-CONV-5", true);
        add("AR-APPROVAL-5", true);
        add("AR-APPROVAL-6", a.answer == ApprovalAnswer::AllowedOnce);
        add(
            "AR-RESULT-3",
            matches!(
                a.answer,
                ApprovalAnswer::Rejected | ApprovalAnswer::Cancelled | ApprovalAnswer::Unavailable
            ),
        );
        add("AR-RESULT-5", a.answer == ApprovalAnswer::Throws);
    }
    // AR-ADMIT-3: disposal waited for an admitted call.
    add(
        "AR-ADMIT-3",
        matches!(
            s.abort,
            AbortPoint::LifecycleAfterReview | AbortPoint::LifecycleDuringDownstream
        ) && (has(Event::Review) || o.review.failure.is_some()),
    );
    // AR-RES-DISPOSE-1: a call racing disposal in an Auto session is cancelled, not passed through.
    add(
        "AR-RES-DISPOSE-1",
        own("AR-RES-DISPOSE-1")
            && s.abort == AbortPoint::LifecycleBeforeReview
            && o.listener == Some(Decision::Cancel),
    );
    // Confinement (AR-CONFINE-1..4), in a profile that confines: a session narrowed before the
    // call, a confined one kept, a rejected narrowing that ended the call with nothing run, and
    // nothing narrowed while the integration closed on a backend that confines reads.
    let sandbox = &s.session.sandbox;
    let full = crate::scenario::SandboxMode::DangerFullAccess;
    add(
        "AR-CONFINE-1",
        own("AR-CONFINE-1") && o.sandbox.before == full && o.sandbox.after != full,
    );
    add(
        "AR-CONFINE-2",
        own("AR-CONFINE-2") && sandbox.mode != full && o.sandbox.after != full,
    );
    add(
        "AR-CONFINE-3",
        own("AR-CONFINE-3")
            && matches!(sandbox.narrowing, crate::scenario::Narrowing::Rejected(_))
            && o.listener.is_none()
            && o.settled
            && !o.result.executed,
    );
    add(
        "AR-CONFINE-4",
        own("AR-CONFINE-4")
            && s.abort == AbortPoint::LifecycleBeforeReview
            && sandbox.confines_reads
            && sandbox.mode == full
            && s.preset == crate::scenario::Preset::Auto,
    );
    // Requests a body raised (AR-RESULT-7): the gate answered the call it allowed
    // (AR-APPROVAL-7), in a profile where it may, one it left to the human (AR-APPROVAL-7's other
    // side), and the service's own answer under `never` (AR-APPROVAL-8).
    use crate::outcome::AnsweredBy;
    let answered = |by: AnsweredBy| o.body_approvals.iter().any(|b| b.answered_by == by);
    add("AR-RESULT-7", !o.body_approvals.is_empty());
    add(
        "AR-APPROVAL-7",
        own("AR-APPROVAL-7") && answered(AnsweredBy::Gate),
    );
    add("AR-APPROVAL-8", answered(AnsweredBy::Service));
    // AR-DISPOSE-3: an approval request after disposal moved an `ask` session meets the `never`
    // disposal wrote, and is rejected without a prompt.
    add(
        "AR-DISPOSE-3",
        s.abort.is_lifecycle()
            && s.policy.effective() == crate::scenario::ApprovalPolicy::Ask
            && o.approval
                .as_ref()
                .is_some_and(|a| !a.prompted && a.answer == ApprovalAnswer::Rejected),
    );
    if let Some(r) = review {
        let made = r.requests.len();
        // AR-REVIEW-3: the session's own route, at temperature 0, with no tools.
        add(
            "AR-REVIEW-3",
            made > 0
                && (profile.route() == RouteRule::Session || s.config.reviewer_route.is_none()),
        );
        add("AR-REVIEW-4", !matches!(r.settlement, Settlement::Pending));
        add("AR-REVIEW-5", matches!(r.settlement, Settlement::Failed(_)));
        // AR-REVIEW-8: a risk level was read, and only the decision counts.
        add(
            "AR-REVIEW-8",
            matches!(r.settlement, Settlement::Decided(_)),
        );
        add(
            "AR-RES-CONFIG-1",
            own("AR-RES-CONFIG-1") && s.config != Default::default(),
        );
        // AR-RES-SCHEMA-1: the header and the registry disagree, and the review went on or
        // failed as the clause says.
        add(
            "AR-RES-SCHEMA-1",
            own("AR-RES-SCHEMA-1") && s.schema.header != s.schema.registry && made > 0,
        );
        add(
            "AR-RES-RETRY-2",
            own("AR-RES-RETRY-2") && r.requests.iter().any(|q| q.repair),
        );
        // AR-RES-RETRY-5: a signal made a repeatable failure final.
        add(
            "AR-RES-RETRY-5",
            own("AR-RES-RETRY-5")
                && matches!(
                    s.abort,
                    AbortPoint::CallerDuringReview | AbortPoint::LifecycleAfterReview
                )
                && matches!(&r.settlement, Settlement::Failed(f)
                if matches!(f.class, FailureClass::Protocol | FailureClass::Transport)),
        );
        add(
            "AR-RES-HINT-3",
            own("AR-RES-HINT-3") && templates.contains(&"MSG-HINT"),
        );
    }
    out
}

/// The clauses a session shows as a session (chapter 12 and the lifecycle it makes observable);
/// its calls' own clauses are counted call by call.
pub fn session_clauses(
    s: &SessionScenario,
    profile: Profile,
    outcomes: &[ItemOutcome],
) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    let mut add = |c: &'static str, when: bool| {
        if when {
            super::push_once(&mut out, c);
        }
    };
    let calls = s
        .calls
        .iter()
        .filter(|i| matches!(i, Item::Call(_)))
        .count();
    add("AR-SESSION-1", s.calls.len() >= 2);
    add("AR-SESSION-2", calls >= 2);
    // Walk the items with what the session carries: the failure count the last call left, and
    // whether a disposal happened since.
    let mut count_left = s.session.consecutive_failures;
    let mut disposed = false;
    let mut called_since_start = false;
    // Whether Auto was just selected (AR-CONFINE-5: on a confining backend, the next call starts
    // confined).
    let mut selected = false;
    for (item, outcome) in s.calls.iter().zip(outcomes) {
        match (item, outcome) {
            (Item::Call(call), ItemOutcome::Call(o)) => {
                // AR-SESSION-3: a call starts from the count the previous call left.
                add(
                    "AR-SESSION-3",
                    profile.counts_failures() && called_since_start && count_left > 0 && !disposed,
                );
                // AR-DISPOSE-4: a call after disposal passes through, unreviewed.
                add(
                    "AR-DISPOSE-4",
                    disposed && o.review.attempts == 0 && o.review.failure.is_none(),
                );
                add(
                    "AR-CONFINE-5",
                    profile.has_clause("AR-CONFINE-5")
                        && selected
                        && o.sandbox.before != crate::scenario::SandboxMode::DangerFullAccess,
                );
                selected = false;
                if let Some(n) = o.review.consecutive_failures {
                    count_left = n;
                }
                called_since_start = true;
                if call.abort.is_lifecycle() {
                    disposed = true;
                }
            }
            (Item::Event(e), ItemOutcome::Event(eo)) => match e.event {
                EventKind::Dispose => {
                    add("AR-DISPOSE-1", s.session.listed);
                    add(
                        "AR-RES-HINT-4",
                        profile.has_clause("AR-RES-HINT-4") && count_left > 0,
                    );
                    add("AR-DISPOSE-5", eo.error.is_some());
                    disposed = true;
                    count_left = 0;
                }
                EventKind::Install => {
                    add("AR-INSTALL-1", true);
                    disposed = false;
                }
                EventKind::SelectAuto => {
                    selected = eo.error.is_none();
                    add("AR-SCOPE-5", eo.error.is_none());
                    add("AR-DISPOSE-4", disposed && eo.error.is_some());
                }
                // What the backend says shows in the calls after it.
                EventKind::Backend => {}
            },
            _ => {}
        }
    }
    out
}

/// Each template with the clause whose table lists it, read from the spec once.
static MESSAGE_CLAUSES: std::sync::LazyLock<Vec<(&'static str, &'static str)>> =
    std::sync::LazyLock::new(crate::spec::message_clauses);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::coverage;
    use serde_json::{Value, json};

    fn call(v: Value, profile: Profile) -> coverage::Reached {
        let s = Scenario::from_value(&v).unwrap();
        coverage::call(&s, profile).2
    }

    #[test]
    fn the_templates_a_call_shows_are_the_ones_its_texts_came_from() {
        let deny = r#"{"risk":"high","decision":"deny","reason":"wipes the disk"}"#;
        let r = call(
            json!({"tool": {"name": "rm"}, "policy": "ask",
                "approval": "rejected", "reviewer": {"text": deny}}),
            Profile::BASELINE,
        );
        for t in [
            "MSG-ASK-REVIEW-REASON",
            "MSG-DISPLAY-EN-REASON",
            "MSG-DISPLAY-ZH-REASON",
            "MSG-USER-REJECTED",
            "MSG-ERROR-PREFIX",
        ] {
            assert!(r.templates.contains(&t), "{t} in {:?}", r.templates);
        }
        assert!(
            !r.templates.contains(&"MSG-ASK-REVIEW"),
            "{:?}",
            r.templates
        );
        assert!(r.clauses.contains(&"AR-MSG-1"), "{:?}", r.clauses);
        assert!(r.clauses.contains(&"AR-RESULT-3"), "{:?}", r.clauses);
        assert!(r.clauses.contains(&"AR-APPROVAL-5"), "{:?}", r.clauses);
        // A plain name is no hostile name.
        assert!(r.names.is_empty(), "{:?}", r.names);
    }

    #[test]
    fn a_rendering_the_outcome_does_not_show_is_not_counted() {
        let rendered = [(
            "MSG-FINAL-DENY",
            "Auto review rejected tool \"x\"; its body was not executed".to_owned(),
        )];
        assert!(templates(&rendered, &["Error: tool call aborted before dispatch"]).is_empty());
        assert_eq!(
            templates(
                &rendered,
                &["Error: Auto review rejected tool \"x\"; its body was not executed"]
            ),
            ["MSG-FINAL-DENY"]
        );
    }

    #[test]
    fn hostile_names_are_counted_on_the_templates_that_insert_them() {
        let deny = r#"{"risk":"high","decision":"deny"}"#;
        let r = call(
            json!({"tool": {"name": "a\"b\\c\n名"}, "policy": "never", "reviewer": {"text": deny}}),
            Profile::RESILIENT,
        );
        let kinds: Vec<NameKind> = r
            .names
            .iter()
            .filter(|(t, _)| *t == "MSG-FINAL-DENY")
            .map(|(_, k)| *k)
            .collect();
        assert_eq!(
            kinds,
            [
                NameKind::Quote,
                NameKind::Backslash,
                NameKind::LineBreak,
                NameKind::NonAscii
            ]
        );
        assert!(
            r.names.iter().all(|(t, _)| names_the_tool(t)),
            "{:?}",
            r.names
        );
        assert_eq!(NameKind::of(""), [NameKind::Empty]);
        assert!(NameKind::of("bash").is_empty());
        assert!(names_the_tool("MSG-NO-AGENT") && !names_the_tool("MSG-ERR-ROUTE"));
    }

    #[test]
    fn a_session_shows_the_lifecycle_it_goes_through() {
        let allow = r#"{"risk":"low","decision":"allow"}"#;
        let s = SessionScenario::from_value(&json!({"calls": [
            {"tool": {"name": "bash"}, "reviewer": {"finish": {"kind": "error", "code": "TRANSPORT", "message": "x"}}},
            {"tool": {"name": "bash"}, "reviewer": {"text": allow}},
            {"event": "dispose"},
            {"tool": {"name": "bash"}, "reviewer": {"text": allow}},
            {"event": "select-auto"},
            {"event": "install"},
            {"event": "select-auto"},
        ]}))
        .unwrap();
        let (_, r) = coverage::session(&s, Profile::RESILIENT);
        for c in [
            "AR-SESSION-1",
            "AR-SESSION-2",
            "AR-SESSION-3",
            "AR-DISPOSE-1",
            "AR-DISPOSE-4",
            "AR-INSTALL-1",
            "AR-SCOPE-5",
            "AR-MSG-5",
        ] {
            assert!(r.clauses.contains(&c), "{c} in {:?}", r.clauses);
        }
        // The count was back at 0 when disposal forgot it.
        assert!(!r.clauses.contains(&"AR-RES-HINT-4"), "{:?}", r.clauses);
        assert!(
            r.templates.contains(&"MSG-ERR-NO-AUTO"),
            "{:?}",
            r.templates
        );
    }
}
