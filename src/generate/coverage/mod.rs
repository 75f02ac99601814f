//! Which clauses, limits and message paths a case reaches: its decision-table row restates some
//! clauses; beyond those, the reader rule that refused each reviewer reply the review read
//! (chapter 4, AR-PARSE-1..7; chapter 10, AR-TOL-1..10), the normalization rules its failure
//! messages went through (AR-RES-NORM-1..4), the review's own rules its requests and settlement
//! show (chapter 3 and the resilient review), what its outcome shows ([`observed`]), the side of
//! each numeric limit it meets ([`limits`]), the templates its texts came from, and the pairs of
//! ordered rules its replies matched at once: failure classification rules for its failed
//! finishes, strict reader rules in the baseline ([`order`]). Generated runs report these counts,
//! and fixed and generated cases are both held to every clause, every side of every limit, every
//! message path and every pair of rules whose order decides, so that nothing the spec says goes
//! unexercised.

pub mod limits;
pub mod observed;
pub mod order;
pub mod shapes;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::engine::review::{Review, Settlement};
use crate::normalize;
use crate::outcome::{FailureClass, ItemOutcome, Outcome, SessionOutcome};
use crate::parse::{self, Reply, ReplyError};
use crate::profile::{AsksAgain, FailureText, Profile, Reader, RouteRule, WorkingDirectoryRule};
use crate::scenario::session::{Item, SessionScenario};
use crate::scenario::{Attempt, Scenario};

pub use limits::{Limit, Side};
pub use observed::NameKind;
pub use shapes::Shape;

/// Clauses no case can exercise, with why: they say how to read the text, not what a gate does.
pub const DEFINITIONS: &[(&str, &str)] = &[
    ("AR-CONV-1", "how the key words and clause IDs are used"),
    ("AR-CONV-2", "what a profile is"),
    ("AR-CONV-4", "the words for the parts of a call"),
    (
        "AR-RES-PROFILE-1",
        "which clauses the resilient profile replaces; each clause it names is exercised on its own",
    ),
];

/// The clauses of `profile` (AR-CONV-2), as its file under `spec/profiles/` names them.
pub fn profile_clauses(profile: Profile) -> BTreeSet<String> {
    profile.clauses()
}

/// The message templates `profile`'s cases can show, and why the others cannot.
pub fn profile_templates(profile: Profile) -> Vec<&'static str> {
    let clauses = profile_clauses(profile);
    crate::spec::message_clauses()
        .into_iter()
        .filter(|(id, clause)| clauses.contains(*clause) && unshown(id, profile).is_none())
        .map(|(id, _)| id)
        .collect()
}

/// Why no case of `profile` shows `template`, if none can.
pub fn unshown(template: &str, profile: Profile) -> Option<&'static str> {
    let tolerant = profile.reader() == Reader::Tolerant;
    let fallback = profile.working_directory() == WorkingDirectoryRule::DeploymentFallback;
    match template {
        // AR-REVIEW-12
        "MSG-REPAIR-INSTRUCTION" | "MSG-JSON-RETRY-REMINDER" => Some(
            "it goes to the reviewer, and the request's wording is not observable (AR-REVIEW-12)",
        ),
        // AR-RES-CWD-1
        "MSG-ERR-NO-CWD" if fallback => {
            Some("the profile reviews a session without a working directory (AR-RES-CWD-1)")
        }
        // AR-TOL-2
        "MSG-ERR-AFTER-FINISH" if tolerant => {
            Some("the tolerant reader does not read data after the finish (AR-TOL-2)")
        }
        // AR-TOL-2
        "MSG-ERR-BLOCKS" if tolerant => {
            Some("the tolerant reader joins the text blocks wherever they stand (AR-TOL-2)")
        }
        // AR-TOL-5, AR-TOL-8
        "MSG-ERR-NOT-OBJECT" if tolerant => Some(VACUOUS_PARSE_5),
        _ => None,
    }
}

/// Why AR-PARSE-5 holds under the tolerant reader without a case that can break it.
const VACUOUS_PARSE_5: &str = "the tolerant reader's candidates are objects by construction \
     (AR-TOL-5), so AR-TOL-8 never meets another value";

/// Why AR-REVIEW-6 and AR-REVIEW-7 hold without a case that can break them in a profile that
/// neither shows a failure's class nor decides by it.
const VACUOUS_CLASSES: &str = "the profile shows no failure class (the `failure-class` feature \
     is not its own) and asks once whatever the class (AR-REVIEW-1), so no outcome tells one \
     class from another";

/// Why AR-ADMIT-3 holds without a case that can break it: what it requires is when disposal
/// returns, and a scenario's items run one after another.
const VACUOUS_ADMIT_3: &str = "a session's items run one after another, so no outcome shows \
     whether disposal waited for the call it aborted: the call is cancelled by the lifecycle's \
     abort either way (AR-CANCEL-3, AR-CANCEL-4)";

/// Why AR-MSG-3 holds without a case that can break it: it leaves texts to the implementation
/// and requires nothing of a gate; what it requires of the suite is checked by a gate that words
/// each such text its own way and passes (`tests/suite/implementation_defined.rs`).
const VACUOUS_MSG_3: &str = "it leaves texts to the implementation and requires nothing a gate \
     could break; the suite compares each such text only as far as the spec fixes it, which a \
     gate wording every one its own way checks (tests/suite/implementation_defined.rs)";

/// Whether nothing `profile` shows or decides reads a failure's class: it has no `failure-class`
/// feature (AR-REVIEW-6's member is not compared) and never asks again by class
/// (AR-RES-RETRY-1). An `aborted` failure after a signal is read by class (AR-CANCEL-6), but its
/// message is then implementation-defined, so a gate that classes it otherwise shows nothing
/// different either.
fn classes_unread(profile: Profile) -> bool {
    !profile.has_feature(crate::features::Feature::FailureClass)
        && profile.asks_again() == AsksAgain::Never
}

/// Why no case of `profile` can exercise `clause`, if none can, beyond the [`DEFINITIONS`].
pub fn vacuous(clause: &str, profile: Profile) -> Option<&'static str> {
    match (clause, profile.reader()) {
        // AR-TOL-5, AR-TOL-8
        ("AR-PARSE-5", Reader::Tolerant) => Some(VACUOUS_PARSE_5),
        // AR-ADMIT-3: disposal's wait is not an outcome.
        ("AR-ADMIT-3", _) => Some(VACUOUS_ADMIT_3),
        // AR-MSG-3: a latitude, honoured by the suite.
        ("AR-MSG-3", _) => Some(VACUOUS_MSG_3),
        // AR-REVIEW-6, AR-REVIEW-7: a class no member shows and no rule reads.
        ("AR-REVIEW-6" | "AR-REVIEW-7", _) if classes_unread(profile) => Some(VACUOUS_CLASSES),
        _ => DEFINITIONS
            .iter()
            .find(|(id, _)| *id == clause)
            .map(|(_, why)| *why),
    }
}

/// Reads `reply` with `profile`'s reader.
fn read(reply: &Reply<'_>, profile: Profile) -> Result<parse::ReviewerDecision, ReplyError> {
    profile.reader().read(reply)
}

/// The failure messages the `made` attempts give before a profile normalizes them
/// (AR-RES-NORM-1), each with the value it came from: a thrown value, or a failed finish's
/// message.
pub(crate) fn raw_failure_messages<'a>(
    made: &[&'a Attempt],
    profile: Profile,
) -> Vec<(String, &'a Value)> {
    made.iter()
        .filter_map(|attempt| match attempt {
            Attempt::Throw { throw, .. } => Some((normalize::value_text(throw), throw)),
            Attempt::Finish { finish, .. } => match read(&Reply::failed(finish), profile) {
                Err(e) => Some((
                    crate::engine::review::raw_text(&e, crate::profile::FailureText::Normalized)
                        .text,
                    &finish.message,
                )),
                Ok(_) => None,
            },
            _ => None,
        })
        .collect()
}

/// The clauses and the reply shapes the first `made` reviewer attempts of `s` reach under
/// `profile` (`made` is the number of requests the review made; an attempt never made reaches
/// nothing), each reply read once for both. Each is named once per case.
pub fn replies(s: &Scenario, profile: Profile, made: usize) -> (Vec<&'static str>, Vec<Shape>) {
    let mut out = Vec::new();
    let mut found_shapes = Vec::new();
    let mut add = |c: &'static str| push_once(&mut out, c);
    let attempts: Vec<&Attempt> = (0..made).map(|n| s.reviewer.attempt(n)).collect();
    for attempt in &attempts {
        let Some(reply) = Reply::delivered(attempt) else {
            continue;
        };
        let result = read(&reply, profile);
        for shape in shapes::of_reply(&reply, profile, &result) {
            push_once(&mut found_shapes, shape);
        }
        if let Err(e) = &result {
            add(e.clause(profile));
            // The tolerant reader holds its candidate to AR-PARSE-6 and -7 through AR-TOL-8.
            if profile.reader() == Reader::Tolerant {
                match e {
                    ReplyError::Repeated => add("AR-PARSE-6"),
                    ReplyError::Protocol => add("AR-PARSE-7"),
                    _ => {}
                }
            }
        }
        // AR-TOL-4: a byte-order mark or an outer fence the reader took off a text it read.
        let read_text = !matches!(
            result,
            Err(ReplyError::FinishFailed { .. }
                | ReplyError::FinishOther { .. }
                | ReplyError::NoFinish
                | ReplyError::AfterFinish
                | ReplyError::ToolCall
                | ReplyError::TooLarge)
        );
        if profile.reader() == Reader::Tolerant && read_text && reply.blocks.len() == 1 {
            let text = reply.blocks[0].text;
            let whole = text.strip_prefix('\u{feff}').unwrap_or(text);
            if whole.len() != text.len()
                || !std::ptr::eq(parse::tolerant::unwrap_fence(whole), whole)
            {
                add("AR-TOL-4");
            }
        }
    }
    // AR-RES-NORM-1..4
    if profile.failure_text() == FailureText::Normalized {
        for (text, value) in raw_failure_messages(&attempts, profile) {
            normalization(&text, value, &mut add);
        }
    }
    (out, found_shapes)
}

/// The normalization rules that change `text`, the message of `value` (AR-RES-NORM-1..4).
fn normalization(text: &str, value: &Value, add: &mut impl FnMut(&'static str)) {
    if !value.is_string() {
        add("AR-RES-NORM-1");
    }
    // Whitespace other than single spaces between words collapses or goes (AR-RES-NORM-2).
    let trimmed = text.trim_matches(normalize::is_space);
    let collapses = trimmed.len() != text.len()
        || trimmed
            .chars()
            .zip(trimmed.chars().skip(1))
            .any(|(a, b)| normalize::is_space(a) && (a != ' ' || normalize::is_space(b)));
    if collapses {
        add("AR-RES-NORM-2");
    }
    // Whitespace collapses before anything is escaped: a tab is a space, not a hidden character.
    if text
        .chars()
        .any(|c| normalize::is_hidden(c) && !normalize::is_space(c))
    {
        add("AR-RES-NORM-3");
    }
    if normalize::normalized_chars(text) > normalize::MAX_CHARS {
        add("AR-RES-NORM-4");
    }
}

/// The review's own clauses that `review` of `s` shows under `profile`: a failure class assigned
/// (AR-REVIEW-6) and one for a thrown request (AR-REVIEW-7); the session checks that refused it
/// (route AR-REVIEW-9, working directory AR-REVIEW-10, log AR-REVIEW-11, schema AR-REVIEW-2); the
/// requests recorded (AR-REVIEW-12) with the session's id (AR-RES-REQUEST-1); a repair request
/// (AR-RES-RETRY-1), a review settled after several requests (AR-RES-RETRY-3), the shared
/// deadline passing (AR-RES-RETRY-4); a request asked again after invalid JSON (AR-JSON-RETRY-1)
/// and another failure that ended the review with JSON retries left (AR-JSON-RETRY-2); a
/// configured route used (AR-RES-ROUTE-1); a failure counted (AR-RES-HINT-1); a session without a
/// working directory reviewed anyway (AR-RES-CWD-1).
pub fn review_clauses(s: &Scenario, profile: Profile, review: &Review) -> Vec<&'static str> {
    let made = review.requests.len();
    let fallback = profile.working_directory() == WorkingDirectoryRule::DeploymentFallback;
    let mut out = Vec::new();
    if let Settlement::Failed(f) = &review.settlement {
        out.push("AR-REVIEW-6");
        out.extend(match f.class {
            FailureClass::Route => Some("AR-REVIEW-9"),
            FailureClass::Session if !s.session.working_directory && !fallback => {
                Some("AR-REVIEW-10")
            }
            FailureClass::Session => Some("AR-REVIEW-11"),
            FailureClass::Schema => Some("AR-REVIEW-2"),
            FailureClass::Timeout if profile.has_deadline() && made > 0 => Some("AR-RES-RETRY-4"),
            _ => None,
        });
    }
    if (0..made).any(|n| matches!(s.reviewer.attempt(n), Attempt::Throw { .. })) {
        out.push("AR-REVIEW-7");
    }
    if made > 0 {
        out.push("AR-REVIEW-12");
    }
    if made > 0 {
        if profile.session_id_in_requests() {
            out.push("AR-RES-REQUEST-1");
        }
        if profile.asks_again() == AsksAgain::RepairAndRetry {
            if review.requests.iter().any(|r| r.repair) {
                out.push("AR-RES-RETRY-1");
            }
            if made > 1 {
                out.push("AR-RES-RETRY-3");
            }
        }
        if profile.asks_again() == AsksAgain::JsonRetry {
            // AR-JSON-RETRY-1: a request asked again after invalid JSON; AR-JSON-RETRY-2: a
            // review that failed otherwise, with JSON retries left, asked no more.
            if made > 1 {
                out.push("AR-JSON-RETRY-1");
            }
            let spent = made.saturating_sub(1) as u32;
            if let Settlement::Failed(f) = &review.settlement
                && f.failed_by != crate::engine::review::NOT_JSON
                && spent < s.config.max_json_retries
            {
                out.push("AR-JSON-RETRY-2");
            }
        }
        if profile.route() == RouteRule::ConfiguredFirst && s.config.reviewer_route.is_some() {
            out.push("AR-RES-ROUTE-1");
        }
        if fallback && !s.session.working_directory {
            out.push("AR-RES-CWD-1");
        }
    }
    if review.consecutive_failures.is_some_and(|n| n > 0) {
        out.push("AR-RES-HINT-1");
    }
    out
}

/// Adds `item` to `out` unless it is there already: each is named once per case.
fn push_once<T: PartialEq>(out: &mut Vec<T>, item: T) {
    if !out.contains(&item) {
        out.push(item);
    }
}

/// Everything one case reaches beyond its table row.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reached {
    /// Clauses, each once.
    pub clauses: Vec<&'static str>,
    /// Sides of numeric limits, each once.
    pub limits: Vec<(Limit, Side)>,
    /// Message templates its texts came from, each once.
    pub templates: Vec<&'static str>,
    /// Templates that insert the tool's name, with each hostile kind the name shows.
    pub names: Vec<(&'static str, NameKind)>,
    /// Pairs of rules of one ordered list that a reply the review read matched together: failure
    /// classification rules with different classes (AR-REVIEW-7), and strict reader rules
    /// (AR-PARSE-1..7, baseline).
    pub order: Vec<order::Pair>,
    /// Shapes of its replies and states of its session that a rule decides on ([`shapes`]),
    /// each once.
    pub shapes: Vec<Shape>,
}

/// Decides the call `s` under `profile` with the reference engine, keeping the review the gate
/// made, and says what the call reaches.
pub fn call(s: &Scenario, profile: Profile) -> (Outcome, Option<Review>, Reached) {
    let ((outcome, review), rendered) =
        crate::messages::rendered_during(|| crate::engine::decide_keeping_review(s, profile));
    let reached = of_call(s, profile, &outcome, review.as_ref(), &rendered);
    (outcome, review, reached)
}

/// What a decided call reaches, from its outcome, its review and the templates rendered for it.
fn of_call(
    s: &Scenario,
    profile: Profile,
    outcome: &Outcome,
    review: Option<&Review>,
    rendered: &[(&'static str, String)],
) -> Reached {
    let (mut found, mut found_shapes) = replies(s, profile, outcome.review.attempts as usize);
    if let Some(r) = review {
        found.extend(review_clauses(s, profile, r));
    }
    let templates = observed::templates(rendered, &observed::texts(outcome));
    found.extend(observed::call_clauses(
        s, profile, outcome, review, &templates,
    ));
    let mut clauses: Vec<&'static str> = Vec::with_capacity(found.len());
    for c in found {
        push_once(&mut clauses, c);
    }
    let kinds = NameKind::of(&s.tool.name);
    let names = templates
        .iter()
        .filter(|t| observed::names_the_tool(t))
        .flat_map(|t| kinds.iter().map(move |k| (*t, *k)))
        .collect();
    let mut pairs = Vec::new();
    for n in 0..outcome.review.attempts as usize {
        if let Attempt::Finish { finish, .. } = s.reviewer.attempt(n) {
            // AR-REVIEW-5, AR-RES-NORM-1
            let text = profile.failure_text().value_text(&finish.message);
            for (a, b) in order::pairs(finish.kind, &finish.code, &text) {
                push_once(&mut pairs, (order::List::Classification, a, b));
            }
        }
        // AR-PARSE-1..7: the strict reader's rules in order.
        if profile.reader() == Reader::Strict
            && let Some(reply) = Reply::delivered(s.reviewer.attempt(n))
        {
            for (a, b) in order::strict_pairs(&reply) {
                push_once(&mut pairs, (order::List::Strict, a, b));
            }
        }
    }
    for shape in shapes::of_call(s, profile, outcome) {
        push_once(&mut found_shapes, shape);
    }
    Reached {
        clauses,
        limits: review
            .map(|r| limits::sides(s, profile, r))
            .unwrap_or_default(),
        templates,
        names,
        order: pairs,
        shapes: found_shapes,
    }
}

/// Decides the session `s` under `profile` with the reference engine and says what it reaches:
/// its calls' outcome clauses and templates, and its own clauses as a session.
pub fn session(s: &SessionScenario, profile: Profile) -> (SessionOutcome, Reached) {
    let (steps, rendered) =
        crate::messages::rendered_during(|| crate::engine::session::walk(s, profile));
    let outcome = SessionOutcome {
        id: s.id.clone(),
        calls: steps.iter().map(|step| step.outcome.clone()).collect(),
    };
    let mut texts: Vec<&str> = Vec::new();
    for item in &outcome.calls {
        match item {
            ItemOutcome::Call(o) => texts.extend(observed::texts(o)),
            ItemOutcome::Event(e) => texts.extend(e.error.as_deref()),
        }
    }
    let templates = observed::templates(&rendered, &texts);
    let mut clauses = observed::session_clauses(s, profile, &outcome.calls);
    for (item, o) in s.calls.iter().zip(&outcome.calls) {
        if let (Item::Call(call), ItemOutcome::Call(o)) = (item, o) {
            for c in observed::call_clauses(call, profile, o, None, &templates) {
                push_once(&mut clauses, c);
            }
        }
    }
    let mut found_shapes = Vec::new();
    for shape in shapes::of_session(s, profile, &steps) {
        push_once(&mut found_shapes, shape);
    }
    // Each call as it was decided: with the state its session reached (AR-SESSION-2).
    for (item, step) in s.calls.iter().zip(&steps) {
        if let (Item::Call(call), ItemOutcome::Call(o)) = (item, &step.outcome) {
            for shape in shapes::of_call(&step.before.scenario_for(s, call), profile, o) {
                push_once(&mut found_shapes, shape);
            }
        }
    }
    let reached = Reached {
        clauses,
        templates,
        shapes: found_shapes,
        ..Reached::default()
    };
    (outcome, reached)
}

/// How many cases reached each clause, side, template and name path.
#[derive(Debug, Clone, Default)]
pub struct Coverage {
    /// Cases counted.
    pub cases: usize,
    /// Clause → cases.
    pub clauses: BTreeMap<&'static str, usize>,
    /// Limit and side → cases.
    pub limits: BTreeMap<(Limit, Side), usize>,
    /// Template → cases.
    pub templates: BTreeMap<&'static str, usize>,
    /// Name-inserting template and hostile kind → cases.
    pub names: BTreeMap<(&'static str, NameKind), usize>,
    /// Pair of rules of one ordered list → cases.
    pub order: BTreeMap<order::Pair, usize>,
    /// Shape → cases.
    pub shapes: BTreeMap<Shape, usize>,
}

/// What a profile's cases should reach and a tally did not.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Missing {
    /// Clauses.
    pub clauses: Vec<String>,
    /// Sides of limits.
    pub limits: Vec<(Limit, Side)>,
    /// Templates.
    pub templates: Vec<&'static str>,
    /// Name-inserting templates with a hostile kind.
    pub names: Vec<(&'static str, NameKind)>,
    /// Pairs of rules of one ordered list whose order decides.
    pub order: Vec<order::Pair>,
    /// Shapes of replies and session states.
    pub shapes: Vec<Shape>,
}

impl Missing {
    /// Whether nothing is missing.
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
            && self.limits.is_empty()
            && self.templates.is_empty()
            && self.names.is_empty()
            && self.order.is_empty()
            && self.shapes.is_empty()
    }
}

impl Coverage {
    /// Counts one case.
    pub fn add(&mut self, r: &Reached) {
        self.cases += 1;
        for c in &r.clauses {
            *self.clauses.entry(c).or_default() += 1;
        }
        for l in &r.limits {
            *self.limits.entry(*l).or_default() += 1;
        }
        for t in &r.templates {
            *self.templates.entry(t).or_default() += 1;
        }
        for n in &r.names {
            *self.names.entry(*n).or_default() += 1;
        }
        for p in &r.order {
            *self.order.entry(*p).or_default() += 1;
        }
        for s in &r.shapes {
            *self.shapes.entry(*s).or_default() += 1;
        }
    }

    /// Adds another tally's counts.
    pub fn merge(&mut self, other: &Coverage) {
        self.cases += other.cases;
        for (c, n) in &other.clauses {
            *self.clauses.entry(c).or_default() += n;
        }
        for (l, n) in &other.limits {
            *self.limits.entry(*l).or_default() += n;
        }
        for (t, n) in &other.templates {
            *self.templates.entry(t).or_default() += n;
        }
        for (k, n) in &other.names {
            *self.names.entry(*k).or_default() += n;
        }
        for (p, n) in &other.order {
            *self.order.entry(*p).or_default() += n;
        }
        for (s, n) in &other.shapes {
            *self.shapes.entry(*s).or_default() += n;
        }
    }

    /// What `profile`'s cases should reach that this tally did not, besides the clauses in
    /// `elsewhere` (those the cases' table rows restate, or that fixed cases cite): every clause
    /// of the profile but the [`DEFINITIONS`], every side of each of its limits, every template
    /// its cases can show, and every hostile kind of tool name on each template that inserts a
    /// name.
    pub fn missing(&self, profile: Profile, elsewhere: &BTreeSet<String>) -> Missing {
        let templates = profile_templates(profile);
        Missing {
            clauses: profile_clauses(profile)
                .into_iter()
                .filter(|c| {
                    vacuous(c, profile).is_none()
                        && !elsewhere.contains(c)
                        && !self.clauses.contains_key(c.as_str())
                })
                .collect(),
            limits: Limit::of(profile)
                .iter()
                .flat_map(|l| Side::ALL.map(|s| (*l, s)))
                .filter(|k| !self.limits.contains_key(k))
                .collect(),
            templates: templates
                .iter()
                .copied()
                .filter(|t| !self.templates.contains_key(t))
                .collect(),
            names: templates
                .iter()
                .copied()
                .filter(|t| observed::names_the_tool(t))
                .flat_map(|t| NameKind::ALL.map(|k| (t, k)))
                .filter(|k| !self.names.contains_key(k))
                .collect(),
            order: order::possible(profile)
                .into_iter()
                .filter(|p| !self.order.contains_key(p))
                .collect(),
            shapes: shapes::possible(profile)
                .into_iter()
                .filter(|s| !self.shapes.contains_key(s))
                .collect(),
        }
    }

    /// Lines for the terminal: how many clauses, sides, templates and name paths `profile`'s
    /// cases reached of those it has, the count of each, and what was missed.
    pub fn render(&self, profile: Profile, elsewhere: &BTreeMap<String, usize>) -> String {
        let rows: BTreeSet<String> = elsewhere.keys().cloned().collect();
        let missing = self.missing(profile, &rows);
        let mut out = String::new();
        let clauses: Vec<String> = profile_clauses(profile)
            .into_iter()
            .filter(|c| vacuous(c, profile).is_none())
            .collect();
        let none = |v: Vec<String>| {
            if v.is_empty() {
                String::new()
            } else {
                format!("; none for {}", v.join(", "))
            }
        };
        out.push_str(&format!(
            "  all         {} of the profile's {} clauses{}\n",
            clauses.len() - missing.clauses.len(),
            clauses.len(),
            none(missing.clauses.clone())
        ));
        let counts: Vec<String> = clauses
            .iter()
            .map(|c| {
                let n = self
                    .clauses
                    .get(c.as_str())
                    .copied()
                    .unwrap_or(0)
                    .max(elsewhere.get(c).copied().unwrap_or(0));
                format!("{} {n}", c.trim_start_matches("AR-"))
            })
            .collect();
        out.push_str(&wrap("              ", &counts));
        let sides = Limit::of(profile).len() * Side::ALL.len();
        if sides == 0 {
            out.push_str("  limits      none in this profile\n");
        } else {
            let per_limit: Vec<String> = Limit::of(profile)
                .iter()
                .map(|l| {
                    let n: Vec<String> = Side::ALL
                        .iter()
                        .map(|s| self.limits.get(&(*l, *s)).copied().unwrap_or(0).to_string())
                        .collect();
                    format!("{} {}", l.name(), n.join("/"))
                })
                .collect();
            out.push_str(&format!(
                "  limits      {} of the {sides} sides (below/at/above): {}{}\n",
                sides - missing.limits.len(),
                per_limit.join("  "),
                none(
                    missing
                        .limits
                        .iter()
                        .map(|(l, s)| format!("{} {}", l.name(), s.name()))
                        .collect()
                )
            ));
        }
        let templates = profile_templates(profile);
        out.push_str(&format!(
            "  templates   {} of the {} message templates{}\n",
            templates.len() - missing.templates.len(),
            templates.len(),
            none(missing.templates.iter().map(|t| t.to_string()).collect())
        ));
        let paths = templates
            .iter()
            .filter(|t| observed::names_the_tool(t))
            .count()
            * NameKind::ALL.len();
        out.push_str(&format!(
            "  names       {} of the {paths} hostile tool names on the templates that insert one{}\n",
            paths - missing.names.len(),
            none(
                missing
                    .names
                    .iter()
                    .map(|(t, k)| format!("{t} {}", k.name()))
                    .collect()
            )
        ));
        let pairs = order::possible(profile);
        let of = |list| {
            let n = |v: &[order::Pair]| v.iter().filter(|p| p.0 == list).count();
            (n(&pairs) - n(&missing.order), n(&pairs))
        };
        let unmet = none(missing.order.iter().map(order::name).collect());
        let (met, all) = of(order::List::Classification);
        out.push_str(&format!(
            "  rule order  {met} of the {all} pairs of classification rules that disagree, matched at once"
        ));
        if profile.reader() == Reader::Strict {
            let (met, all) = of(order::List::Strict);
            out.push_str(&format!(
                "; {met} of the {all} pairs of strict reader rules, broken at once"
            ));
        }
        out.push_str(&format!("{unmet}\n"));
        let all_shapes = shapes::possible(profile);
        out.push_str(&format!(
            "  shapes      {} of the {} reply shapes and session states a rule decides on{}\n",
            all_shapes.len() - missing.shapes.len(),
            all_shapes.len(),
            none(missing.shapes.iter().map(shapes::name).collect())
        ));
        out
    }
}

/// `items` joined by two spaces, in lines of at most 100 characters, each opening with `indent`.
fn wrap(indent: &str, items: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for item in items {
        if !line.is_empty() && indent.len() + line.len() + 2 + item.len() > 100 {
            out.push_str(&format!("{indent}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push_str("  ");
        }
        line.push_str(item);
    }
    if !line.is_empty() {
        out.push_str(&format!("{indent}{line}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clauses of [`replies`].
    fn clauses(s: &Scenario, profile: Profile, made: usize) -> Vec<&'static str> {
        replies(s, profile, made).0
    }
    use serde_json::json;

    #[test]
    fn each_profile_has_its_own_clauses() {
        let baseline = profile_clauses(Profile::BASELINE);
        let resilient = profile_clauses(Profile::RESILIENT);
        for c in [
            "AR-DISPOSE-2",
            "AR-REVIEW-10",
            "AR-PARSE-1",
            "AR-DECIDE-1",
            "AR-DECIDE-6",
        ] {
            assert!(baseline.contains(c) && !resilient.contains(c), "{c}");
        }
        for c in ["AR-TOL-3", "AR-RES-HINT-2", "AR-SESSION-3"] {
            assert!(resilient.contains(c) && !baseline.contains(c), "{c}");
        }
        for c in ["AR-PARSE-5", "AR-REVIEW-2", "AR-SESSION-2", "AR-MSG-1"] {
            assert!(resilient.contains(c) && baseline.contains(c), "{c}");
        }
        assert_eq!(vacuous("AR-PARSE-5", Profile::BASELINE), None);
        assert!(vacuous("AR-PARSE-5", Profile::RESILIENT).is_some());
        assert!(vacuous("AR-CONV-1", Profile::BASELINE).is_some());
        // The shipped gate shows no failure class and never retries by one; the resilient gate
        // retries by class.
        for clause in ["AR-REVIEW-6", "AR-REVIEW-7"] {
            assert!(vacuous(clause, Profile::BASELINE).is_some(), "{clause}");
            assert_eq!(vacuous(clause, Profile::RESILIENT), None, "{clause}");
        }
        assert!(vacuous("AR-ADMIT-3", Profile::RESILIENT).is_some());
        let templates = profile_templates(Profile::RESILIENT);
        assert!(templates.contains(&"MSG-HINT") && !templates.contains(&"MSG-ERR-NO-CWD"));
        assert!(!profile_templates(Profile::BASELINE).contains(&"MSG-HINT"));
        assert!(profile_templates(Profile::BASELINE).contains(&"MSG-ERR-NO-CWD"));
    }

    #[test]
    fn a_tally_names_what_it_misses() {
        let mut t = Coverage::default();
        let full = t.missing(Profile::RESILIENT, &BTreeSet::new());
        assert_eq!(full.limits.len(), 18);
        assert!(full.clauses.contains(&"AR-TOL-4".to_owned()));
        t.add(&Reached {
            clauses: vec!["AR-TOL-4"],
            limits: vec![(Limit::Deadline, Side::At)],
            templates: vec!["MSG-HINT"],
            names: vec![("MSG-NO-AGENT", NameKind::Empty)],
            order: vec![(order::List::Classification, 1, 4)],
            shapes: vec![shapes::ALLOW_TWICE],
        });
        let less = t.missing(
            Profile::RESILIENT,
            &BTreeSet::from(["AR-SCOPE-1".to_owned()]),
        );
        assert!(!less.clauses.contains(&"AR-TOL-4".to_owned()));
        assert!(!less.clauses.contains(&"AR-SCOPE-1".to_owned()));
        assert!(!less.limits.contains(&(Limit::Deadline, Side::At)));
        assert!(less.limits.contains(&(Limit::Deadline, Side::Above)));
        assert!(!less.templates.contains(&"MSG-HINT"));
        assert!(!less.names.contains(&("MSG-NO-AGENT", NameKind::Empty)));
        assert!(less.names.contains(&("MSG-NO-AGENT", NameKind::Quote)));
        assert_eq!(full.names.len() - 1, less.names.len());
        assert_eq!(full.order.len() - 1, less.order.len());
        assert!(full.shapes.contains(&shapes::ALLOW_TWICE));
        assert!(!less.shapes.contains(&shapes::ALLOW_TWICE));
        let classification = |a, b| (order::List::Classification, a, b);
        assert!(!less.order.contains(&classification(1, 4)));
        assert!(less.order.contains(&classification(0, 1)));
        assert!(
            less.order
                .iter()
                .all(|p| p.0 == order::List::Classification)
        );
        let baseline = t.missing(Profile::BASELINE, &BTreeSet::new());
        assert!(baseline.order.contains(&(order::List::Strict, 6, 7)));
        let text = t.render(Profile::RESILIENT, &BTreeMap::new());
        assert!(text.contains("deadline 0/1/0"), "{text}");
        assert!(
            text.contains("none for deadline below, deadline above"),
            "{text}"
        );
    }

    fn call(attempts: Value) -> Scenario {
        let s = json!({"tool": {"name": "bash"}, "reviewer": attempts});
        crate::scenario::Scenario::from_value(&s).unwrap()
    }

    #[test]
    fn each_reply_names_the_rule_that_refused_it_and_only_attempts_made_count() {
        let s = call(json!([
            {"text": "{\"risk\":\"low\",\"decision\":\"allow\"} and {\"decision\":\"deny\"}"},
            {"text": "not json"}
        ]));
        assert_eq!(clauses(&s, Profile::BASELINE, 1), ["AR-PARSE-4"]);
        assert_eq!(clauses(&s, Profile::RESILIENT, 1), ["AR-TOL-6"]);
        assert_eq!(clauses(&s, Profile::RESILIENT, 2), ["AR-TOL-6", "AR-TOL-5"]);
        assert!(clauses(&s, Profile::RESILIENT, 0).is_empty());
    }

    #[test]
    fn the_review_names_its_own_rules() {
        let of = |v: Value, profile| {
            let s = crate::scenario::Scenario::from_value(&v).unwrap();
            let review = crate::engine::review::review(&s, profile);
            review_clauses(&s, profile, &review)
        };
        let no_cwd = json!({"tool": {"name": "bash"}, "session": {"working_directory": false},
            "reviewer": {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}});
        assert_eq!(
            of(no_cwd.clone(), Profile::BASELINE),
            ["AR-REVIEW-6", "AR-REVIEW-10"]
        );
        assert_eq!(
            of(no_cwd, Profile::RESILIENT),
            ["AR-REVIEW-12", "AR-RES-REQUEST-1", "AR-RES-CWD-1"]
        );
        let repaired = json!({"tool": {"name": "bash"},
            "reviewer": [{"text": "Sure."}, {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}]});
        assert_eq!(
            of(repaired, Profile::RESILIENT),
            [
                "AR-REVIEW-12",
                "AR-RES-REQUEST-1",
                "AR-RES-RETRY-1",
                "AR-RES-RETRY-3"
            ]
        );
    }

    #[test]
    fn normalization_rules_are_named_when_they_change_the_message() {
        let thrown = |v: Value| call(json!([{"throw": v}]));
        let of = |v: Value| clauses(&thrown(v), Profile::RESILIENT, 1);
        assert!(of(json!("plain words")).is_empty());
        assert_eq!(of(json!({"message": "x"})), ["AR-RES-NORM-1"]);
        assert_eq!(of(json!("two  spaces")), ["AR-RES-NORM-2"]);
        assert_eq!(of(json!("tab\there")), ["AR-RES-NORM-2"]);
        assert_eq!(of(json!("bell\u{7}")), ["AR-RES-NORM-3"]);
        assert_eq!(of(json!(" edge")), ["AR-RES-NORM-2"]);
        assert_eq!(of(json!("a\u{202e}b")), ["AR-RES-NORM-3"]);
        assert_eq!(of(json!("y".repeat(400))), Vec::<&str>::new());
        assert_eq!(of(json!("y".repeat(401))), ["AR-RES-NORM-4"]);
        // Escaping lengthens: 395 characters and one escaped control make 401.
        assert_eq!(
            of(json!(format!("{}\u{7}", "y".repeat(395)))),
            ["AR-RES-NORM-3", "AR-RES-NORM-4"]
        );
        assert!(clauses(&thrown(json!([1])), Profile::BASELINE, 1).is_empty());
    }
}
