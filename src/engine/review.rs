//! Spec chapter 3, the review (AR-REVIEW-1..8), and its resilient additions (AR-RES-SCHEMA,
//! AR-RES-RETRY, AR-RES-ROUTE, AR-RES-NORM, AR-RES-HINT): resolving the pending tool's schema,
//! making reviewer requests under one deadline, and turning what the reviewer did into a
//! settlement with a failure class. A pure function of the scenario.

use super::cancellation;
use crate::jsstring::js_string;
use crate::messages::{self, Text, reference};
use crate::normalize;
use crate::outcome::{Failure, FailureClass, RequestRecord, ReviewRecord};
use crate::parse::{self, Reply, ReplyError, ReviewerDecision};
use crate::profile::Profile;
use crate::scenario::{Attempt, CallKind, FailedFinishKind, Scenario, SchemaCount};

/// A failure as the engine carries it: its class and its message with the message's normative
/// extent (AR-REVIEW-5, AR-REVIEW-6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureNote {
    /// The failure class.
    pub class: FailureClass,
    /// The failure message.
    pub message: Text,
}

impl FailureNote {
    /// The outcome's view of the failure.
    pub fn to_failure(&self) -> Failure {
        Failure {
            class: self.class,
            message: self.message.text.clone(),
        }
    }
}

/// How one attempt or a whole review settled (AR-REVIEW-4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settlement {
    /// The reviewer returned a legal decision.
    Decided(ReviewerDecision),
    /// No decision was obtained.
    Failed(FailureNote),
    /// The request never settles (AR-CANCEL-6).
    Pending,
}

/// What a whole review did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    /// How it settled.
    pub settlement: Settlement,
    /// The route every request of this review uses (AR-RES-ROUTE-1), made or not.
    pub route: String,
    /// Each reviewer request, in order.
    pub requests: Vec<Sent>,
    /// The session id every request carries (AR-RES-REQUEST-1); `None` in the baseline, whose
    /// requests carry none (AR-REVIEW-12).
    pub session_id: Option<String>,
    /// Whether a signal ended a request that never settled (AR-CANCEL-6); such a failure is the
    /// gate's own doing and does not count as a reviewer failure.
    pub signal_ended: bool,
    /// Reviewer failures in a row after this call (AR-RES-HINT-1); `None` in the baseline, which
    /// keeps no count.
    pub consecutive_failures: Option<u32>,
}

/// One reviewer request as the gate sent it: its route and whether it was a repair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// `provider/model`.
    pub route: String,
    /// Whether `MSG-REPAIR-INSTRUCTION` was appended (AR-RES-RETRY-2).
    pub repair: bool,
}

impl Review {
    /// How many reviewer requests were made.
    pub fn attempts(&self) -> u32 {
        self.requests.len() as u32
    }

    /// The route of each request, in order.
    pub fn routes(&self) -> Vec<String> {
        self.requests.iter().map(|r| r.route.clone()).collect()
    }

    /// The outcome's view of each request (AR-REVIEW-12, AR-RES-REQUEST-1).
    pub fn request_records(&self) -> Vec<RequestRecord> {
        self.requests
            .iter()
            .map(|r| RequestRecord::sent(&r.route, self.session_id.as_deref(), r.repair))
            .collect()
    }

    /// The outcome's view of the review.
    pub fn record(&self) -> ReviewRecord {
        ReviewRecord {
            attempts: self.attempts(),
            failure: match &self.settlement {
                Settlement::Failed(f) => Some(f.to_failure()),
                _ => None,
            },
            routes: self.routes(),
            requests: Some(self.request_records()),
            consecutive_failures: self.consecutive_failures,
        }
    }

    /// Whether the failure hint is due (AR-RES-HINT-2): this call's review failed, the failure
    /// counts, and the count reached the configured threshold.
    pub fn hint_due(&self, s: &Scenario) -> bool {
        matches!(self.settlement, Settlement::Failed(_))
            && !self.signal_ended
            && self
                .consecutive_failures
                .is_some_and(|n| n >= s.config.failure_hint_after)
    }

    /// The route the last request used, or the one a request would have used when none was made
    /// (AR-RES-HINT-2).
    pub fn last_route(&self) -> &str {
        self.requests.last().map_or(&self.route, |r| &r.route)
    }
}

/// The route every reviewer request uses: the configured reviewer route in the resilient
/// profile (AR-RES-ROUTE-1), else the session's route (AR-REVIEW-3).
pub fn route_for(s: &Scenario, profile: Profile) -> String {
    request_route(&s.session.route, s.config.reviewer_route.as_ref(), profile).to_string()
}

/// The route rule on its own (AR-REVIEW-3, AR-RES-ROUTE-1): the configured route in the
/// resilient profile when one is set, the session's otherwise.
pub fn request_route<'r>(
    session: &'r crate::scenario::Route,
    configured: Option<&'r crate::scenario::Route>,
    profile: Profile,
) -> &'r crate::scenario::Route {
    match (profile, configured) {
        (Profile::Resilient, Some(r)) => r,
        _ => session,
    }
}

/// The review of an admitted call under `profile`.
pub fn review(s: &Scenario, profile: Profile) -> Review {
    // AR-REVIEW-9, then AR-REVIEW-10 and AR-REVIEW-11, then AR-REVIEW-2: the order the shipped
    // gate reads the session in.
    let resolved = resolve_route(s, profile)
        .and_then(|()| resolve_session(s, profile))
        .and_then(|()| resolve_schema(s, profile));
    let (settlement, requests, signal_ended) = match resolved {
        Err(failure) => (Settlement::Failed(failure), Vec::new(), false),
        Ok(()) => requests(s, profile),
    };
    let consecutive_failures = count_after(
        profile,
        s.session.consecutive_failures,
        &settlement,
        signal_ended,
    );
    Review {
        settlement,
        route: route_for(s, profile),
        requests,
        session_id: match profile {
            Profile::Baseline => None,
            Profile::Resilient => Some(s.session.id.clone()), // AR-RES-REQUEST-1
        },
        signal_ended,
        consecutive_failures,
    }
}

/// AR-RES-HINT-1: the session's failure count after a review; `None` in the baseline.
pub fn count_after(
    profile: Profile,
    before: u32,
    settlement: &Settlement,
    signal_ended: bool,
) -> Option<u32> {
    match profile {
        Profile::Baseline => None,
        Profile::Resilient => Some(match settlement {
            Settlement::Decided(_) => 0,
            Settlement::Failed(_) if !signal_ended => before.saturating_add(1),
            _ => before,
        }),
    }
}

/// AR-RES-RETRY-1: what remains of a review's repair and retry budgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    repairs: u32,
    retries: u32,
}

impl Budget {
    /// The configured budgets.
    pub fn new(config: &crate::scenario::Config) -> Budget {
        Budget {
            repairs: config.repair_attempts,
            retries: config.transport_retries,
        }
    }

    /// Whether a failure of `class` earns another request under `profile`, and of which kind;
    /// takes it from the budget when it does. The baseline never asks again.
    pub fn take(&mut self, profile: Profile, class: FailureClass) -> Option<Attempting> {
        match (profile, class) {
            (Profile::Resilient, FailureClass::Protocol) if self.repairs > 0 => {
                self.repairs -= 1;
                Some(Attempting::Repair)
            }
            (Profile::Resilient, FailureClass::Transport) if self.retries > 0 => {
                self.retries -= 1;
                Some(Attempting::Retry)
            }
            _ => None,
        }
    }
}

/// Why a reviewer request is made (AR-RES-RETRY-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempting {
    /// The first request.
    Review,
    /// A repair after a protocol failure, with `MSG-REPAIR-INSTRUCTION`.
    Repair,
    /// A retry after a transport failure, unchanged.
    Retry,
}

/// Which signal ended a review request (AR-CANCEL-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndedBy {
    /// The caller's signal.
    Caller,
    /// The integration's lifecycle (it was disposed).
    Lifecycle,
}

/// AR-CANCEL-6: the failure of a request a signal ended; the message, implementation-defined,
/// names the signal.
pub fn signal_ended(by: EndedBy) -> FailureNote {
    FailureNote {
        class: FailureClass::Aborted,
        message: Text::implementation_defined(match by {
            EndedBy::Caller => reference::CALLER_ENDED_REVIEW,
            EndedBy::Lifecycle => reference::LIFECYCLE_ENDED_REVIEW,
        }),
    }
}

/// AR-REVIEW-9: a request needs a complete route. The baseline takes the session's (its latest
/// request header); the resilient profile takes a configured reviewer route first
/// (AR-RES-ROUTE-1), which the configuration guarantees complete.
pub fn resolve_route(s: &Scenario, profile: Profile) -> Result<(), FailureNote> {
    check_route(&s.session.route, s.config.reviewer_route.as_ref(), profile)
}

/// AR-REVIEW-9 on its own: the session's route and the configured one, if any.
pub fn check_route(
    session: &crate::scenario::Route,
    configured: Option<&crate::scenario::Route>,
    profile: Profile,
) -> Result<(), FailureNote> {
    let route = request_route(session, configured, profile);
    if route.provider.is_empty() || route.model.is_empty() {
        return Err(FailureNote {
            class: FailureClass::Route,
            message: Text::exact(messages::ERR_ROUTE.plain()),
        });
    }
    Ok(())
}

/// AR-REVIEW-10 and AR-REVIEW-11: what the session's header and log must hold for the pending
/// call. The resilient profile falls back to the deployment's working directory (AR-RES-CWD-1).
pub fn resolve_session(s: &Scenario, profile: Profile) -> Result<(), FailureNote> {
    check_session(s.session.working_directory, s.log, profile)
}

/// AR-REVIEW-10 and AR-REVIEW-11 on their own: whether the header names a working directory, and
/// which log fact, if any, the call's log breaks.
pub fn check_session(
    working_directory: bool,
    log: crate::scenario::LogFact,
    profile: Profile,
) -> Result<(), FailureNote> {
    let failure = |template: messages::Template| FailureNote {
        class: FailureClass::Session,
        message: Text::exact(template.plain()),
    };
    if !working_directory && profile == Profile::Baseline {
        return Err(failure(messages::ERR_NO_CWD));
    }
    match log.message() {
        Some(template) => Err(failure(template)),
        None => Ok(()),
    }
}

/// AR-REVIEW-2 (baseline: the header must hold exactly one) and AR-RES-SCHEMA-1 (resilient: the
/// live registry first, the header as a fallback).
pub fn resolve_schema(s: &Scenario, profile: Profile) -> Result<(), FailureNote> {
    resolve(&s.schema, s.tool.call, profile)
}

/// The schema rules on their own: what the header and the registry hold for a call of `call` kind.
pub fn resolve(
    schema: &crate::scenario::SchemaView,
    call: CallKind,
    profile: Profile,
) -> Result<(), FailureNote> {
    let resolved = match profile {
        Profile::Baseline => schema.header == SchemaCount::Present,
        Profile::Resilient => {
            schema.registry == SchemaCount::Present || schema.header == SchemaCount::Present
        }
    };
    if resolved {
        return Ok(());
    }
    let template = match call {
        CallKind::PtcInner => messages::ERR_SCHEMA_PTC,
        CallKind::Native | CallKind::RunCode => messages::ERR_SCHEMA_NATIVE,
    };
    Err(FailureNote {
        class: FailureClass::Schema,
        message: Text::exact(template.plain()),
    })
}

/// Makes the reviewer requests: one in the baseline; in the resilient profile, repairs and
/// retries under one deadline (AR-RES-RETRY-1..5). Returns the settlement, the requests and
/// whether a signal ended a request.
fn requests(s: &Scenario, profile: Profile) -> (Settlement, Vec<Sent>, bool) {
    let route = route_for(s, profile);
    let mut routes = Vec::new();
    let mut repair = false;
    // The caller's or the lifecycle's signal aborts during the first request (AR-CANCEL-3,
    // AR-CANCEL-5): that request still settles as the reviewer answers, a request that would never
    // settle is ended (AR-CANCEL-6), and no new request starts (AR-RES-RETRY-5).
    let aborted = if cancellation::lifecycle_aborts_after_review(s.abort) {
        Some(EndedBy::Lifecycle)
    } else if cancellation::caller_aborts_in_flight(s.abort) {
        Some(EndedBy::Caller)
    } else {
        None
    };
    let deadline = s.config.review_timeout_ms;
    let mut elapsed = 0u64;
    let mut budget = Budget::new(&s.config);
    let mut n = 0usize;
    loop {
        let attempt = s.reviewer.attempt(n);
        n += 1;
        routes.push(Sent {
            route: route.clone(),
            repair,
        });
        let Some(delay) = attempt.delay_ms() else {
            if let Some(by) = aborted {
                return (Settlement::Failed(signal_ended(by)), routes, true);
            }
            return match profile {
                Profile::Baseline => (Settlement::Pending, routes, false),
                Profile::Resilient => (deadline_passed(deadline), routes, false),
            };
        };
        if profile == Profile::Resilient {
            elapsed = elapsed.saturating_add(delay);
            if elapsed > deadline {
                return (deadline_passed(deadline), routes, false); // AR-RES-RETRY-4
            }
        }
        let settled = settle(attempt, profile);
        let again = match &settled {
            Settlement::Failed(failure) if aborted.is_none() => budget.take(profile, failure.class),
            _ => None,
        };
        match &settled {
            Settlement::Failed(_) if again.is_some() => {
                // A retry repeats the request unchanged, so a retried repair is still one
                // (AR-RES-RETRY-2).
                repair |= again == Some(Attempting::Repair);
            }
            // AR-CANCEL-6: an `aborted` failure that settles after a signal aborted the review is
            // the gate's own doing, however the provider worded it.
            Settlement::Failed(failure)
                if aborted.is_some() && failure.class == FailureClass::Aborted =>
            {
                return (settled, routes, true);
            }
            _ => return (settled, routes, false),
        }
    }
}

/// AR-RES-RETRY-4: the review's deadline passed.
pub fn deadline_passed(deadline_ms: u64) -> Settlement {
    Settlement::Failed(FailureNote {
        class: FailureClass::Timeout,
        message: Text::exact(messages::ERR_DEADLINE.render(&[("ms", &deadline_ms.to_string())])),
    })
}

/// What one attempt that settles comes to under a profile's reader. An attempt that never
/// settles is `Pending`.
pub fn settle(attempt: &Attempt, profile: Profile) -> Settlement {
    match attempt {
        Attempt::Hang { .. } => Settlement::Pending,
        Attempt::Throw { throw, .. } => Settlement::Failed(thrown(throw, profile)),
        Attempt::Text { text, .. } => read_reply(&Reply::text(text), profile),
        Attempt::Blocks {
            blocks,
            finish,
            data_after_finish,
            ..
        } => read_reply(&Reply::blocks(blocks, finish, *data_after_finish), profile),
        Attempt::Finish { finish, .. } => read_reply(&Reply::failed(finish), profile),
    }
}

/// The verdict of one reply under a profile's reader, with the failure message the gate would report
/// (what `autoreview parse` prints). A reply that never settles has no verdict.
pub fn verdict(attempt: &Attempt, profile: Profile) -> Option<parse::Verdict> {
    match settle(attempt, profile) {
        Settlement::Decided(d) => Some(parse::Verdict::of_decision(&d)),
        Settlement::Failed(f) => Some(parse::Verdict::Failure {
            ok: false,
            error: f.message.text,
        }),
        Settlement::Pending => None,
    }
}

/// The failure of a request that threw `value` (AR-REVIEW-5, AR-RES-NORM-1).
pub fn thrown(value: &serde_json::Value, profile: Profile) -> FailureNote {
    FailureNote {
        class: FailureClass::Internal,
        message: match profile {
            Profile::Baseline => Text::exact(js_string(value)),
            Profile::Resilient => Text::exact(normalize::message(&normalize::value_text(value))),
        },
    }
}

/// Reads a delivered reply with the profile's reader (chapter 4, AR-TOL).
pub fn read_reply(reply: &Reply<'_>, profile: Profile) -> Settlement {
    let read = match profile {
        Profile::Baseline => parse::strict::read(reply),
        Profile::Resilient => parse::tolerant::read(reply),
    };
    match read {
        Ok(d) => Settlement::Decided(d),
        Err(e) => Settlement::Failed(FailureNote {
            class: class_of(&e, profile),
            message: failure_text(&e, profile),
        }),
    }
}

/// Why a raw reply, as `autoreview parse` reads it, has no verdict: the input is not what was
/// asked for (a UTF-8 text, or a JSON array of blocks).
#[derive(Debug, thiserror::Error)]
pub enum RawReplyError {
    /// The input could not be read.
    #[error("reading the reply: {0}")]
    Io(#[from] std::io::Error),
    /// The input is not valid UTF-8.
    #[error("the reply is not valid UTF-8: {0}")]
    NotUtf8(#[from] std::str::Utf8Error),
    /// The input is not a JSON array of blocks.
    #[error("expected a JSON array of blocks: {0}")]
    NotBlocks(#[from] parse::blocks::BlocksError),
}

/// The verdict on a raw reply read from `input`: a plain text ended by a normal stop, or with
/// `blocks` a JSON array of blocks ended by a normal stop. The same verdict as [`verdict`] on that
/// attempt, read with bounded memory: the tolerant reader refuses a text over its bound
/// (AR-TOL-3), so a plain text is read only to one byte past it; the strict reader has no bound,
/// reads everything, and decodes a reason in the text's own buffer (AR-PARSE-3..7).
pub fn read_raw(
    mut input: impl std::io::Read,
    profile: Profile,
    blocks: bool,
) -> Result<parse::Verdict, RawReplyError> {
    use std::io::Read as _;
    let utf8 = |bytes: Vec<u8>| String::from_utf8(bytes).map_err(|e| e.utf8_error());
    let mut bytes = Vec::new();
    let read = match (profile, blocks) {
        (Profile::Resilient, false) => {
            let bound = parse::tolerant::MAX_TEXT_BYTES;
            input.take(bound as u64 + 1).read_to_end(&mut bytes)?;
            if bytes.len() > bound {
                // Only a character cut by the bound may be incomplete.
                if let Err(e) = std::str::from_utf8(&bytes)
                    && e.error_len().is_some()
                {
                    return Err(e.into());
                }
                Err(ReplyError::TooLarge)
            } else {
                parse::tolerant::read(&Reply::text(&utf8(bytes)?))
            }
        }
        (Profile::Baseline, false) => {
            input.read_to_end(&mut bytes)?;
            parse::strict::parse_owned(utf8(bytes)?)
        }
        (Profile::Baseline, true) => {
            input.read_to_end(&mut bytes)?;
            parse::blocks::strict(utf8(bytes)?)?
        }
        (Profile::Resilient, true) => {
            input.read_to_end(&mut bytes)?;
            parse::blocks::tolerant(&utf8(bytes)?)?
        }
    };
    // As `verdict` renders a reader's result.
    Ok(match read {
        Ok(d) => parse::Verdict::from_decision(d),
        Err(e) => parse::Verdict::Failure {
            ok: false,
            error: failure_text(&e, profile).text,
        },
    })
}

/// The failure message of a reply error: as the baseline renders it (JavaScript stringification),
/// or normalized in the resilient profile (AR-RES-NORM-1..4).
pub fn failure_text(e: &ReplyError, profile: Profile) -> Text {
    match profile {
        Profile::Baseline => e.text(),
        Profile::Resilient => {
            let raw = unnormalized(e);
            Text {
                text: normalize::message(&raw.text),
                prefix: raw.prefix.map(|_| 0),
            }
        }
    }
}

/// The resilient profile's failure message of a reply error before it is normalized: a failed
/// finish's message value made text (AR-RES-NORM-1), any other error's message as it stands.
pub fn unnormalized(e: &ReplyError) -> Text {
    match e {
        ReplyError::FinishFailed {
            kind,
            code,
            message,
        } => Text::exact(messages::ERR_ENDED_DETAIL.render(&[
            ("kind", kind.as_str()),
            ("code", code),
            ("message", &normalize::value_text(message)),
        ])),
        other => other.text(),
    }
}

/// The failure class of a reply that carried no decision (AR-REVIEW-6).
pub fn class_of(e: &ReplyError, profile: Profile) -> FailureClass {
    match e {
        ReplyError::FinishFailed {
            kind,
            code,
            message,
        } => {
            let text = match profile {
                Profile::Baseline => js_string(message),
                Profile::Resilient => normalize::value_text(message),
            };
            classify_finish(*kind, code, &text)
        }
        ReplyError::FinishOther { .. } => FailureClass::Provider,
        _ => FailureClass::Protocol,
    }
}

/// What a rule of AR-REVIEW-7's table compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// The finish's code is one of these, exactly.
    Code(&'static [&'static str]),
    /// The message's text form holds one of these, compared case-insensitively.
    Message(&'static [&'static str]),
}

impl Condition {
    /// Whether a finish with `code`, and a message whose lowercase text form is `lowercase`,
    /// meets the condition.
    pub fn holds(&self, code: &str, lowercase: &str) -> bool {
        match self {
            Condition::Code(codes) => codes.contains(&code),
            Condition::Message(needles) => needles.iter().any(|n| lowercase.contains(n)),
        }
    }
}

/// AR-REVIEW-7's rules 1 to 6 for a finish of kind `error`, in order, each with its class; rule
/// 7 ("otherwise") gives `provider`.
pub const CLASSIFICATION_RULES: [(Condition, FailureClass); 6] = [
    (
        Condition::Code(&["TIMEOUT", "DEADLINE_EXCEEDED"]),
        FailureClass::Timeout,
    ),
    (
        Condition::Code(&[
            "QUOTA_EXCEEDED",
            "RATE_LIMITED",
            "INSUFFICIENT_QUOTA",
            "HTTP_402",
            "HTTP_429",
        ]),
        FailureClass::Quota,
    ),
    (
        Condition::Code(&["TRANSPORT", "CONNECTION", "NETWORK"]),
        FailureClass::Transport,
    ),
    (
        Condition::Message(&[
            "http 402",
            "http 429",
            "status 402",
            "status 429",
            "quota",
            "rate limit",
        ]),
        FailureClass::Quota,
    ),
    (
        Condition::Message(&[
            "transport error",
            "connection error",
            "econnreset",
            "econnrefused",
            "socket hang up",
            "network error",
        ]),
        FailureClass::Transport,
    ),
    (
        Condition::Message(&["timed out", "timeout"]),
        FailureClass::Timeout,
    ),
];

/// AR-REVIEW-7: classifies a failed finish by its kind, then by the first rule of
/// [`CLASSIFICATION_RULES`] its code or its message's text form meets.
pub fn classify_finish(kind: FailedFinishKind, code: &str, message: &str) -> FailureClass {
    if kind == FailedFinishKind::Aborted {
        return FailureClass::Aborted;
    }
    let lowercase = message.to_lowercase();
    CLASSIFICATION_RULES
        .iter()
        .find(|(condition, _)| condition.holds(code, &lowercase))
        .map_or(FailureClass::Provider, |(_, class)| *class)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finish_classification_follows_the_rule_order() {
        use FailedFinishKind::{Aborted, Error};
        use FailureClass::{Provider, Quota, Timeout, Transport};
        let cases = [
            (Aborted, "TIMEOUT", "x", FailureClass::Aborted),
            (Error, "TIMEOUT", "quota", Timeout),
            (Error, "QUOTA_EXCEEDED", "HTTP 402", Quota),
            (Error, "TRANSPORT", "Connection error", Transport),
            (
                Error,
                "UNKNOWN",
                "sse transport error: terminated",
                Transport,
            ),
            (Error, "UNKNOWN", "provider rate limit, HTTP 429", Quota),
            (Error, "UNKNOWN", "request timed out", Timeout),
            (Error, "UNKNOWN", "[object Object]", Provider),
            (Error, "BAD_REQUEST", "context too long", Provider),
        ];
        for (kind, code, message, want) in cases {
            assert_eq!(
                classify_finish(kind, code, message),
                want,
                "{code} {message}"
            );
        }
    }

    #[test]
    fn the_resilient_profile_classifies_an_object_message_by_its_text() {
        let e = ReplyError::FinishFailed {
            kind: FailedFinishKind::Error,
            code: "UNKNOWN".into(),
            message: json!({"message": "Connection error"}),
        };
        assert_eq!(class_of(&e, Profile::Baseline), FailureClass::Provider);
        assert_eq!(class_of(&e, Profile::Resilient), FailureClass::Transport);
    }
}
