//! Spec chapter 3, the review (AR-REVIEW-1..8), and its resilient additions (AR-RES-SCHEMA,
//! AR-RES-RETRY, AR-RES-ROUTE, AR-RES-NORM, AR-RES-HINT): resolving the pending tool's schema,
//! making reviewer requests under one deadline, and turning what the reviewer did into a
//! settlement with a failure class. A pure function of the scenario.

use super::cancellation;
use crate::messages::{self, Text, reference};
use crate::outcome::{Citations, Failure, FailureClass, RequestRecord, ReviewRecord};
use crate::parse::{self, Reply, ReplyError, ReviewerDecision};
use crate::profile::{
    AsksAgain, FailureText, Profile, Reader, RouteRule, SchemaRule, WorkingDirectoryRule,
};
use crate::scenario::{Attempt, CallKind, FailedFinishKind, Scenario, SchemaCount};

/// The clause by which an admitted call is reviewed at all, before downstream is consulted.
pub const REVIEWED_BY: &str = "AR-REVIEW-1";

/// A failure as the engine carries it: its class and its message with the message's normative
/// extent (AR-REVIEW-5, AR-REVIEW-6), each with the clauses behind it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureNote {
    /// The failure class.
    pub class: FailureClass,
    /// The failure message; it cites AR-REVIEW-5, the rule that failed and its template.
    pub message: Text,
    /// The clauses that gave the class: AR-REVIEW-6, then the rule that failed (or AR-REVIEW-7
    /// for a finish or a thrown value).
    pub class_by: Vec<&'static str>,
    /// The rule that failed the review: the one that gave the class, except for a finish, which
    /// the reader's rule fails (AR-PARSE-1, AR-TOL-1) and AR-REVIEW-7's table classes, and a
    /// request that threw, which fails by AR-REVIEW-4 and AR-REVIEW-7 classes.
    pub failed_by: &'static str,
}

impl FailureNote {
    /// A failure of `class` produced by the rule `rule`, with its `message` (which cites its
    /// template, if any): the class is AR-REVIEW-6's by `rule`, the message AR-REVIEW-5's.
    fn by(rule: &'static str, class: FailureClass, message: Text) -> FailureNote {
        let mut cited = vec!["AR-REVIEW-5", rule];
        cited.extend(message.cited.iter().copied());
        FailureNote {
            class,
            message: Text {
                cited: Vec::new(),
                ..message
            }
            .citing(&cited),
            class_by: vec!["AR-REVIEW-6", rule],
            failed_by: rule,
        }
    }

    /// Cites `rule` first as the rule that failed the review, before the one that gave it
    /// (AR-PARSE-6 or AR-PARSE-7 before AR-TOL-8, which holds the tolerant reader's candidate to
    /// them), for the failure, its class and its message.
    fn first_by(&mut self, rule: &'static str) {
        self.failed_by = rule;
        self.class_by.insert(1, rule);
        let after = self
            .message
            .cited
            .iter()
            .position(|c| *c == "AR-REVIEW-5")
            .map_or(0, |k| k + 1);
        self.message.cited.insert(after, rule);
    }

    /// Whether the rule `rule` produced the failure.
    pub fn by_rule(&self, rule: &str) -> bool {
        self.class_by.contains(&rule)
    }
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
    /// Whether that route is a configured reviewer route (AR-RES-ROUTE-1) rather than the
    /// session's own (AR-REVIEW-3): the clause the requests' routes are cited to.
    pub configured_route: bool,
    /// Each reviewer request, in order.
    pub requests: Vec<Sent>,
    /// The session id every request carries (AR-RES-REQUEST-1); `None` in the baseline, whose
    /// requests carry none (AR-REVIEW-12).
    pub session_id: Option<String>,
    /// The temperature every request carries ([`temperature`]); `None` when the requests leave
    /// it to the provider.
    pub temperature: Option<serde_json::Number>,
    /// Whether a signal ended a request that never settled (AR-CANCEL-6); such a failure is the
    /// gate's own doing and does not count as a reviewer failure.
    pub signal_ended: bool,
    /// Whether a signal that aborted the review stopped the repair or retry its last failure
    /// earned (AR-RES-RETRY-5): the clause that then decided the number of requests.
    pub stopped_by_signal: bool,
    /// Reviewer failures in a row after this call (AR-RES-HINT-1); `None` in the baseline, which
    /// keeps no count.
    pub consecutive_failures: Option<u32>,
    /// The clauses that let the review make its requests where the baseline's rules would not
    /// (a configured route, the deployment's working directory, the live registry's schema), and
    /// by which the reply that decided was read where the strict reader refuses it.
    pub basis: Vec<&'static str>,
}

/// The temperature every reviewer request of a review carries, its repairs and retries too
/// (AR-REVIEW-3, AR-RES-RETRY-2): the configured one where the profile reads `temperature`
/// (AR-RES-CONFIG-1), `None` for `provider-default`, which leaves it out; 0 in a profile that
/// reads no such configuration.
pub fn temperature(
    config: &crate::scenario::Config,
    profile: Profile,
) -> Option<serde_json::Number> {
    if profile.reads_config("temperature") {
        config.temperature.sent()
    } else {
        Some(0.into())
    }
}

/// One reviewer request as the gate sent it: its route and whether it was a repair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// `provider/model`.
    pub route: String,
    /// Whether `MSG-REPAIR-INSTRUCTION` was appended (AR-RES-RETRY-2).
    pub repair: bool,
    /// The failure the request settled with when it earned a repair or a retry
    /// (AR-RES-RETRY-1); `None` for the request that settled the review.
    pub failed: Option<Failure>,
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
            .map(|r| {
                RequestRecord::sent(
                    &r.route,
                    self.temperature.clone(),
                    self.session_id.as_deref(),
                    r.repair,
                )
            })
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

    /// The clauses behind the number of requests: the rule of a failure that made none; else
    /// AR-REVIEW-1 (one request) or AR-RES-RETRY-1 and AR-RES-RETRY-3 (repairs and retries),
    /// with what ended them early (the deadline, a signal).
    pub fn attempts_by(&self, profile: Profile) -> Vec<&'static str> {
        let mut by = self.basis.clone();
        let failure = match &self.settlement {
            Settlement::Failed(f) => Some(f),
            _ => None,
        };
        if let (Some(f), true) = (failure, self.requests.is_empty()) {
            by.extend(f.class_by.iter().skip(1));
            return by;
        }
        match profile.asks_again() {
            // AR-REVIEW-1: one request.
            AsksAgain::Never => by.push("AR-REVIEW-1"),
            // AR-JSON-RETRY-1, AR-JSON-RETRY-2: another request after invalid JSON only; where
            // another failure ended the review, AR-JSON-RETRY-2 is what made it the last request.
            AsksAgain::JsonRetry => {
                if failure.is_some_and(|f| f.failed_by != NOT_JSON) {
                    by.extend(["AR-JSON-RETRY-2", "AR-JSON-RETRY-1"]);
                } else {
                    by.extend(["AR-JSON-RETRY-1", "AR-JSON-RETRY-2"]);
                }
            }
            // AR-RES-RETRY-1, AR-RES-RETRY-3: repairs and retries within the budgets.
            AsksAgain::RepairAndRetry => {
                by.extend(["AR-RES-RETRY-1", "AR-RES-RETRY-3"]);
                if failure.is_some_and(|f| f.by_rule("AR-RES-RETRY-4")) {
                    by.push("AR-RES-RETRY-4");
                }
                if self.signal_ended {
                    by.push("AR-RES-RETRY-5");
                }
            }
        }
        if self.signal_ended || matches!(self.settlement, Settlement::Pending) {
            by.push("AR-CANCEL-6");
        }
        by
    }

    /// Whether the review ended on a configured repair, retry or JSON retry budget below the
    /// default (AR-RES-CONFIG-1): its last failure would have earned a request under the default
    /// budget, and no signal ended it, so the configured value alone, read and not replaced by the
    /// default, is what made no further request.
    pub fn ended_on_a_configured_budget(&self, profile: Profile) -> bool {
        let Some(last) = self.ended_on_its_own_failure(profile) else {
            return false;
        };
        // The requests failures like the last one earned: under the default budget, one more
        // such failure would have earned another.
        let earned = self
            .requests
            .iter()
            .filter(|r| r.failed.as_ref().is_some_and(|f| f.class == last.class))
            .count();
        let mut by_default = Budget::new(&crate::scenario::Config::default());
        (0..=earned).all(|_| by_default.take(profile, last).is_some())
    }

    /// Whether the review ended on a failure that AR-REVIEW-7 classed (a failed finish, a thrown
    /// value) into a class that earns no further request (AR-RES-RETRY-1: only `protocol` earns
    /// repairs and `transport` retries), and no signal ended it: the class, read as the table
    /// says, is what made no further request, and a gate that classed the failure otherwise (a
    /// message pattern matched against the code, a thrown value classed by its text) asks again
    /// where the reference stopped.
    pub fn ended_on_a_class_that_earns_nothing(&self, profile: Profile) -> bool {
        let Some(last) = self.ended_on_its_own_failure(profile) else {
            return false;
        };
        if profile.asks_again() != AsksAgain::RepairAndRetry {
            return false;
        }
        // Whether the class earns a request is the budget's to say; the default budget has room
        // for one of each kind.
        let earns = Budget::new(&crate::scenario::Config::default())
            .take(profile, last)
            .is_some();
        !self.requests.is_empty() && last.by_rule("AR-REVIEW-7") && !earns
    }

    /// The failure the review ended on by itself, in a profile that asks again: none where it
    /// decided, never settled, or a signal ended it or stopped what it earned.
    fn ended_on_its_own_failure(&self, profile: Profile) -> Option<&FailureNote> {
        if profile.asks_again() == AsksAgain::Never || self.signal_ended || self.stopped_by_signal {
            return None;
        }
        match &self.settlement {
            Settlement::Failed(last) => Some(last),
            _ => None,
        }
    }

    /// Whether the requests carry a configured number other than the default 0: the profile
    /// reads `temperature` (AR-RES-CONFIG-1) and it was set to one. `provider-default` leaves the
    /// parameter out by AR-REVIEW-3's own rule.
    fn temperature_configured(&self, profile: Profile) -> bool {
        profile.reads_config("temperature")
            && self.temperature.as_ref().is_some_and(|t| *t != 0.into())
    }

    /// Cites the clauses behind the review's members of the outcome (`/review/…`, and the
    /// review's part of `/trace`).
    pub fn cite(&self, profile: Profile, c: &mut Citations) {
        let attempts = self.attempts_by(profile);
        c.cite_all("/review/attempts", &attempts);
        if self.ended_on_a_class_that_earns_nothing(profile) {
            c.cite_first("/review/attempts", "AR-REVIEW-7");
        }
        if self.ended_on_a_configured_budget(profile) {
            c.cite_first("/review/attempts", "AR-RES-CONFIG-1");
        }
        if self.stopped_by_signal {
            c.cite_first("/review/attempts", signal_stops(profile));
        }
        // Whether the call was reviewed at all: an admitted call is (AR-REVIEW-1).
        c.cite("/review/attempts", REVIEWED_BY);
        c.cite_all("/trace", &attempts);
        // The session's route is the baseline's rule, which the resilient profile keeps where no
        // reviewer route is configured; a configured one is AR-RES-ROUTE-1's.
        let route: &[&'static str] = if self.configured_route {
            &["AR-RES-ROUTE-1"]
        } else {
            &["AR-REVIEW-3"]
        };
        c.cite_all("/review/routes", route);
        c.cite_all("/review/routes", &attempts);
        c.cite("/review/requests", "AR-REVIEW-12");
        c.cite_all("/review/requests", &attempts);
        for (k, r) in self.requests.iter().enumerate() {
            let at = |member: &str| format!("/review/requests/{k}/{member}");
            c.cite_all(&at("route"), route);
            c.cite_all(&at("temperature"), &["AR-REVIEW-3", "AR-REVIEW-12"]);
            if self.temperature_configured(profile) {
                // A configured number, not the rule that sends it, decided the member.
                c.cite_first(&at("temperature"), "AR-RES-CONFIG-1");
            }
            c.cite_all(&at("tools"), &["AR-REVIEW-3", "AR-REVIEW-12"]);
            // AR-REVIEW-12, or AR-RES-REQUEST-1 where requests carry the session's id.
            if profile.session_id_in_requests() {
                c.cite(&at("session_id"), "AR-RES-REQUEST-1");
            } else {
                c.cite(&at("session_id"), "AR-REVIEW-12");
            }
            match profile.asks_again() {
                // AR-REVIEW-12: no request is a repair.
                AsksAgain::Never => c.cite(&at("repair"), "AR-REVIEW-12"),
                // AR-JSON-RETRY-1: a request after invalid JSON, at the review's temperature.
                AsksAgain::JsonRetry => {
                    c.cite(&at("repair"), "AR-JSON-RETRY-1");
                    if r.repair {
                        c.cite_first(&at("temperature"), "AR-JSON-RETRY-1");
                    }
                }
                // AR-RES-RETRY-2: a repair's request, and its temperature.
                AsksAgain::RepairAndRetry => {
                    c.cite(&at("repair"), "AR-RES-RETRY-2");
                    if r.repair {
                        // A repair at the review's temperature, not at 0: that is the rule a
                        // gate breaks that sends its repairs otherwise.
                        c.cite_first(&at("temperature"), "AR-RES-RETRY-2");
                    }
                }
            }
        }
        // The rule that decided whether the review failed first (the one a gate that fails
        // otherwise breaks), then AR-REVIEW-4, which every review's failure rests on.
        match &self.settlement {
            Settlement::Failed(f) => {
                c.cite("/review/failure", f.failed_by);
                // The rules that gave the class stand behind whether the review failed only where
                // the rule that failed it is one of them (a reader's rule, and AR-TOL-8 carrying
                // it). A finish fails by the reader's rule and a thrown request by AR-REVIEW-4;
                // AR-REVIEW-7, which classes both, stands behind their class alone.
                if f.class_by.contains(&f.failed_by) {
                    c.cite_all("/review/failure", &f.class_by[1..]);
                }
                c.cite("/review/failure", "AR-REVIEW-4");
                c.cite_all("/review/failure/class", &f.class_by);
                c.cite_all("/review/failure/message", &f.message.cited);
                // AR-RES-RETRY-3: the review settles with the failure of its last request; where
                // an earlier request failed otherwise, that rule is what made the member the last
                // request's rather than the earlier one's.
                let last = f.to_failure();
                let earlier = || self.requests.iter().filter_map(|r| r.failed.as_ref());
                if earlier().any(|e| e.class != last.class) {
                    c.cite_first("/review/failure/class", settles_by(profile));
                }
                if earlier().any(|e| e.message != last.message) {
                    c.cite_first("/review/failure/message", settles_by(profile));
                }
            }
            Settlement::Decided(_) | Settlement::Pending => {
                c.cite_all("/review/failure", &self.basis);
                // AR-RES-RETRY-3: a review that made several requests settles with the first
                // decision one obtains, whatever the requests before it failed with.
                if matches!(self.settlement, Settlement::Decided(_)) && self.requests.len() > 1 {
                    c.cite("/review/failure", settles_by(profile));
                }
                c.cite("/review/failure", "AR-REVIEW-4");
            }
        }
        c.cite("/review/consecutive_failures", "AR-RES-HINT-1");
        if self.signal_ended {
            c.cite("/review/consecutive_failures", "AR-CANCEL-6");
        }
    }
}

/// The clause by which a review that made several requests settles with its last one's decision
/// or failure: AR-RES-RETRY-3 where it repairs and retries, AR-JSON-RETRY-1 where it asks again
/// after invalid JSON (a review that never asks again makes one request, AR-REVIEW-1).
fn settles_by(profile: Profile) -> &'static str {
    match profile.asks_again() {
        AsksAgain::Never => "AR-REVIEW-1",
        AsksAgain::JsonRetry => "AR-JSON-RETRY-1",
        AsksAgain::RepairAndRetry => "AR-RES-RETRY-3",
    }
}

/// The clause by which no new request starts once a signal aborted the review: AR-RES-RETRY-5
/// where it repairs and retries, AR-JSON-RETRY-1 where it asks again after invalid JSON.
fn signal_stops(profile: Profile) -> &'static str {
    match profile.asks_again() {
        AsksAgain::JsonRetry => "AR-JSON-RETRY-1",
        AsksAgain::Never | AsksAgain::RepairAndRetry => "AR-RES-RETRY-5",
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
    match (profile.route(), configured) {
        // AR-RES-ROUTE-1: a configured reviewer route first.
        (RouteRule::ConfiguredFirst, Some(r)) => r,
        // AR-REVIEW-3: the session's latest request header.
        _ => session,
    }
}

/// The review of an admitted call under `profile`.
pub fn review(s: &Scenario, profile: Profile) -> Review {
    // AR-REVIEW-9, then AR-REVIEW-10 and AR-REVIEW-11, then AR-REVIEW-2: the order the shipped
    // gate reads the session in.
    let resolved = resolve_all(
        resolve_route(s, profile),
        || resolve_session(s, profile),
        || resolve_schema(s, profile),
    );
    let (settlement, requests, signal_ended, basis) = match resolved {
        Err(failure) => (Settlement::Failed(failure), Vec::new(), false, Vec::new()),
        Ok(mut basis) => {
            let (settlement, requests, signal_ended, read) = requests(s, profile);
            basis.extend(read);
            (settlement, requests, signal_ended, basis)
        }
    };
    let consecutive_failures = count_after(
        profile,
        s.session.consecutive_failures,
        &settlement,
        signal_ended,
    );
    let mut review = Review {
        settlement,
        route: route_for(s, profile),
        // AR-RES-ROUTE-1
        configured_route: profile.route() == RouteRule::ConfiguredFirst
            && s.config.reviewer_route.is_some(),
        requests,
        // AR-RES-REQUEST-1 where requests carry the session's id; AR-REVIEW-12 otherwise.
        session_id: profile
            .session_id_in_requests()
            .then(|| s.session.id.clone()),
        temperature: temperature(&s.config, profile),
        signal_ended,
        stopped_by_signal: false,
        consecutive_failures,
        basis,
    };
    review.stopped_by_signal = stopped_by_signal(s, profile, &review);
    review
}

/// What resolving the route, the session and the schema came to: the clauses that let the
/// review go on where the baseline's would not, or the first failure.
pub type Resolved = Result<Vec<&'static str>, FailureNote>;

/// The route, then the session, then the schema (AR-REVIEW-9, AR-REVIEW-10, AR-REVIEW-11,
/// AR-REVIEW-2): the first failure, or every clause that let the review go on.
pub fn resolve_all(
    route: Resolved,
    session: impl FnOnce() -> Resolved,
    schema: impl FnOnce() -> Resolved,
) -> Resolved {
    let mut basis = route?;
    basis.extend(session()?);
    basis.extend(schema()?);
    Ok(basis)
}

/// AR-RES-HINT-1: the session's failure count after a review; `None` in a profile that counts no
/// failures.
pub fn count_after(
    profile: Profile,
    before: u32,
    settlement: &Settlement,
    signal_ended: bool,
) -> Option<u32> {
    // AR-RES-HINT-1
    profile.counts_failures().then(|| match settlement {
        Settlement::Decided(_) => 0,
        Settlement::Failed(_) if !signal_ended => before.saturating_add(1),
        _ => before,
    })
}

/// The rule a reply that is not valid JSON breaks (AR-PARSE-4): the one failure after which a
/// profile with `asks_again: json-retry` asks again (AR-JSON-RETRY-1).
pub const NOT_JSON: &str = "AR-PARSE-4";

/// AR-RES-RETRY-1, AR-JSON-RETRY-1: what remains of a review's repair, retry and JSON retry
/// budgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    repairs: u32,
    retries: u32,
    json_retries: u32,
}

impl Budget {
    /// The configured budgets.
    pub fn new(config: &crate::scenario::Config) -> Budget {
        Budget {
            repairs: config.repair_attempts,
            retries: config.transport_retries,
            json_retries: config.max_json_retries,
        }
    }

    /// Whether `failure` earns another request under `profile`, and of which kind; takes it from
    /// the budget when it does. A profile that never asks again (AR-REVIEW-1) earns none.
    pub fn take(&mut self, profile: Profile, failure: &FailureNote) -> Option<Attempting> {
        match (profile.asks_again(), failure.class) {
            // AR-JSON-RETRY-1: a request with the reminder after invalid JSON; nothing else earns
            // one (AR-JSON-RETRY-2).
            (AsksAgain::JsonRetry, _) if failure.failed_by == NOT_JSON && self.json_retries > 0 => {
                self.json_retries -= 1;
                Some(Attempting::Repair)
            }
            // AR-RES-RETRY-1: a repair after a protocol failure.
            (AsksAgain::RepairAndRetry, FailureClass::Protocol) if self.repairs > 0 => {
                self.repairs -= 1;
                Some(Attempting::Repair)
            }
            // AR-RES-RETRY-1: a retry after a transport failure.
            (AsksAgain::RepairAndRetry, FailureClass::Transport) if self.retries > 0 => {
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
    FailureNote::by(
        "AR-CANCEL-6",
        FailureClass::Aborted,
        Text::implementation_defined(match by {
            EndedBy::Caller => reference::CALLER_ENDED_REVIEW,
            EndedBy::Lifecycle => reference::LIFECYCLE_ENDED_REVIEW,
        })
        .citing(&["AR-MSG-3"]),
    )
}

/// AR-CANCEL-6: an `aborted` failure that settles after the caller's or the lifecycle's signal
/// aborted the review. A runtime reports a cancelled request as an aborted finish, whatever code
/// and message it carries, and a gate cannot tell that finish from the provider's: its class stays
/// `aborted`, its message is implementation-defined in its entirety, as that of a request the
/// signal ended (AR-MSG-3). The reference keeps the provider's words.
pub fn after_signal(mut failure: FailureNote) -> FailureNote {
    failure.message.prefix = Some(0);
    failure.message = failure.message.citing(&["AR-CANCEL-6", "AR-MSG-3"]);
    failure
}

/// AR-REVIEW-9: a request needs a complete route. The baseline takes the session's (its latest
/// request header); the resilient profile takes a configured reviewer route first
/// (AR-RES-ROUTE-1), which the configuration guarantees complete.
pub fn resolve_route(s: &Scenario, profile: Profile) -> Resolved {
    check_route(&s.session.route, s.config.reviewer_route.as_ref(), profile)
}

/// AR-REVIEW-9 on its own: the session's route and the configured one, if any.
pub fn check_route(
    session: &crate::scenario::Route,
    configured: Option<&crate::scenario::Route>,
    profile: Profile,
) -> Resolved {
    let route = request_route(session, configured, profile);
    let complete = |r: &crate::scenario::Route| !r.provider.is_empty() && !r.model.is_empty();
    if !complete(route) {
        let mut failure = FailureNote::by(
            "AR-REVIEW-9",
            FailureClass::Route,
            messages::ERR_ROUTE.text(),
        );
        // AR-RES-ROUTE-1: the route that failed may be the configured one.
        if profile.route() == RouteRule::ConfiguredFirst {
            failure.class_by.push("AR-RES-ROUTE-1");
        }
        return Err(failure);
    }
    // A configured route stands in for an incomplete session route (AR-RES-ROUTE-1).
    Ok(if complete(session) {
        Vec::new()
    } else {
        vec!["AR-RES-ROUTE-1"]
    })
}

/// AR-REVIEW-10 and AR-REVIEW-11: what the session's header and log must hold for the pending
/// call. The resilient profile falls back to the deployment's working directory (AR-RES-CWD-1).
pub fn resolve_session(s: &Scenario, profile: Profile) -> Resolved {
    check_session(s.session.working_directory, s.log, profile)
}

/// AR-REVIEW-10 and AR-REVIEW-11 on their own: whether the header names a working directory, and
/// which log fact, if any, the call's log breaks.
pub fn check_session(
    working_directory: bool,
    log: crate::scenario::LogFact,
    profile: Profile,
) -> Resolved {
    let failure = |rule, template: messages::Template| {
        FailureNote::by(rule, FailureClass::Session, template.text())
    };
    // AR-REVIEW-10, unless the deployment's directory stands in (AR-RES-CWD-1).
    if !working_directory && profile.working_directory() == WorkingDirectoryRule::Required {
        return Err(failure("AR-REVIEW-10", messages::ERR_NO_CWD));
    }
    match log.message() {
        Some(template) => Err(failure("AR-REVIEW-11", template)),
        // The deployment's working directory stands in for a missing one (AR-RES-CWD-1).
        None if !working_directory => Ok(vec!["AR-RES-CWD-1"]),
        None => Ok(Vec::new()),
    }
}

/// AR-REVIEW-2 (baseline: the header must hold exactly one) and AR-RES-SCHEMA-1 (resilient: the
/// live registry first, the header as a fallback).
pub fn resolve_schema(s: &Scenario, profile: Profile) -> Resolved {
    resolve(&s.schema, s.tool.call, profile)
}

/// The schema rules on their own: what the header and the registry hold for a call of `call` kind.
pub fn resolve(schema: &crate::scenario::SchemaView, call: CallKind, profile: Profile) -> Resolved {
    let header = schema.header == SchemaCount::Present;
    let resolved = match profile.schema() {
        // AR-REVIEW-2
        SchemaRule::Header => header,
        // AR-RES-SCHEMA-1
        SchemaRule::RegistryFirst => schema.registry == SchemaCount::Present || header,
    };
    if resolved {
        // The live registry stands in for a header that does not hold the schema
        // (AR-RES-SCHEMA-1).
        return Ok(if header {
            Vec::new()
        } else {
            vec!["AR-RES-SCHEMA-1"]
        });
    }
    let template = match call {
        CallKind::PtcInner => messages::ERR_SCHEMA_PTC,
        CallKind::Native | CallKind::RunCode => messages::ERR_SCHEMA_NATIVE,
    };
    // AR-REVIEW-2 fails the review without a request; in the resilient profile only once neither
    // the registry nor the header holds the schema (AR-RES-SCHEMA-1).
    let mut failure = FailureNote::by("AR-REVIEW-2", FailureClass::Schema, template.text());
    if profile.schema() == SchemaRule::RegistryFirst {
        failure.class_by.push("AR-RES-SCHEMA-1");
        failure.message = failure.message.citing(&["AR-RES-SCHEMA-1"]);
    }
    Err(failure)
}

/// Makes the reviewer requests: one in the baseline; in the resilient profile, repairs and
/// retries under one deadline (AR-RES-RETRY-1..5). Returns the settlement, the requests and
/// whether a signal ended a request, and the clauses by which the deciding reply was read where
/// the strict reader refuses it ([`tolerated`]).
fn requests(s: &Scenario, profile: Profile) -> (Settlement, Vec<Sent>, bool, Vec<&'static str>) {
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
            failed: None,
        });
        let Some(delay) = attempt.delay_ms() else {
            if let Some(by) = aborted {
                return (
                    Settlement::Failed(signal_ended(by)),
                    routes,
                    true,
                    Vec::new(),
                );
            }
            // AR-RES-RETRY-4: a hung request ends at the deadline; without one it never settles.
            return if profile.has_deadline() {
                (deadline_passed(deadline), routes, false, Vec::new())
            } else {
                (Settlement::Pending, routes, false, Vec::new())
            };
        };
        // AR-RES-RETRY-4: every request counts toward the one deadline.
        if profile.has_deadline() {
            elapsed = elapsed.saturating_add(delay);
            if elapsed > deadline {
                return (deadline_passed(deadline), routes, false, Vec::new());
            }
        }
        let (settled, read) = settle_citing(attempt, profile);
        let again = match &settled {
            Settlement::Failed(failure) if aborted.is_none() => budget.take(profile, failure),
            _ => None,
        };
        match &settled {
            Settlement::Failed(failure) if again.is_some() => {
                if let Some(sent) = routes.last_mut() {
                    sent.failed = Some(failure.to_failure());
                }
                // A retry repeats the request unchanged, so a retried repair is still one
                // (AR-RES-RETRY-2).
                repair |= again == Some(Attempting::Repair);
            }
            // AR-CANCEL-6: an `aborted` failure that settles after a signal aborted the review is
            // the gate's own doing, however the provider worded it.
            Settlement::Failed(failure)
                if aborted.is_some() && failure.class == FailureClass::Aborted =>
            {
                let failure = after_signal(failure.clone());
                return (Settlement::Failed(failure), routes, true, Vec::new());
            }
            _ => return (settled, routes, false, read),
        }
    }
}

/// AR-RES-RETRY-5: whether the signal that aborted `review` in flight is what ended it: its one
/// request failed with a class that earns a repair or a retry (AR-RES-RETRY-1), and none
/// started. (A review a signal aborts in flight makes no request after its first.)
fn stopped_by_signal(s: &Scenario, profile: Profile, review: &Review) -> bool {
    let in_flight = cancellation::lifecycle_aborts_after_review(s.abort)
        || cancellation::caller_aborts_in_flight(s.abort);
    match &review.settlement {
        Settlement::Failed(f) if in_flight && !review.signal_ended => {
            Budget::new(&s.config).take(profile, f).is_some()
        }
        _ => false,
    }
}

/// AR-RES-RETRY-4: the review's deadline passed.
pub fn deadline_passed(deadline_ms: u64) -> Settlement {
    let ms = Text::exact(deadline_ms.to_string());
    Settlement::Failed(FailureNote::by(
        "AR-RES-RETRY-4",
        FailureClass::Timeout,
        messages::ERR_DEADLINE.fill(&[("ms", &ms)]),
    ))
}

/// What one attempt that settles comes to under a profile's reader. An attempt that never
/// settles is `Pending`.
pub fn settle(attempt: &Attempt, profile: Profile) -> Settlement {
    settle_citing(attempt, profile).0
}

/// [`settle`], with the clauses by which a decision was read where the strict reader refuses
/// the reply ([`tolerated`]).
pub fn settle_citing(attempt: &Attempt, profile: Profile) -> (Settlement, Vec<&'static str>) {
    match (attempt, Reply::delivered(attempt)) {
        (_, Some(reply)) => read_citing(&reply, profile),
        (Attempt::Throw { throw, .. }, None) => {
            (Settlement::Failed(thrown(throw, profile)), Vec::new())
        }
        // A request that never settles.
        (_, None) => (Settlement::Pending, Vec::new()),
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

/// The failure of a request that threw `value` (AR-REVIEW-5, AR-RES-NORM-1): a failure because
/// the request threw (AR-REVIEW-4), classed `internal` whatever its text (AR-REVIEW-7).
pub fn thrown(value: &serde_json::Value, profile: Profile) -> FailureNote {
    let mut failure = FailureNote::by("AR-REVIEW-4", FailureClass::Internal, {
        // AR-REVIEW-5, AR-RES-NORM-1..4
        let rule = profile.failure_text();
        rule.message(Text::exact(rule.value_text(value)))
            .citing(rule.value_clauses())
    });
    failure.message.cited.retain(|c| *c != "AR-REVIEW-4");
    failure.class_by = vec!["AR-REVIEW-6", "AR-REVIEW-7"];
    failure
}

/// Reads a delivered reply with the profile's reader (chapter 4, AR-TOL).
pub fn read_reply(reply: &Reply<'_>, profile: Profile) -> Settlement {
    read_citing(reply, profile).0
}

/// [`read_reply`], with the clauses by which a decision was read where the strict reader
/// refuses the reply ([`tolerated`]).
pub fn read_citing(reply: &Reply<'_>, profile: Profile) -> (Settlement, Vec<&'static str>) {
    // Chapter 4 or chapter 10, as the profile's reader.
    match profile.reader().read(reply) {
        Ok(d) => (Settlement::Decided(d), tolerated(reply, profile)),
        Err(e) => {
            let mut failure = failure_of(&e, profile);
            if let Some(rule) = held_as_the_strict_reader_holds_it(reply, &e, profile) {
                failure.first_by(rule);
            }
            // Where the fence stood because its opening line holds a `{`, and the text read
            // without that line would have come to something else, AR-TOL-4's proviso is what
            // left the text that failed.
            if fence_line_with_brace_decides(reply, profile) {
                failure.first_by("AR-TOL-4");
            }
            (Settlement::Failed(failure), Vec::new())
        }
    }
}

/// The rule of chapter 4 that refused a reply the tolerant reader refused by AR-TOL-8, where the
/// text the tolerant reader read is the object itself and the strict reader refuses that text by
/// the same rule: a repeated member (AR-PARSE-6), or an object that is not one of the six shapes
/// (AR-PARSE-7). AR-TOL-8 only carries that rule into chapter 10 there; where the candidate was
/// found in a text the strict reader refuses otherwise (prose, a fence, a byte-order mark around
/// it), AR-TOL-8 is what held it to the rule, and stays first. `None` under the strict reader,
/// and for every other refusal.
fn held_as_the_strict_reader_holds_it(
    reply: &Reply<'_>,
    e: &ReplyError,
    profile: Profile,
) -> Option<&'static str> {
    let rule = match e {
        ReplyError::Repeated => "AR-PARSE-6",
        ReplyError::Protocol => "AR-PARSE-7",
        _ => return None,
    };
    if profile.reader() != Reader::Tolerant {
        return None;
    }
    let text = parse::tolerant::text_blocks(reply).concat();
    (parse::strict::parse_text(&text).as_ref() == Err(e)).then_some(rule)
}

/// The failure of a reply error under `profile`'s reader, with the rule that refused the reply.
pub fn failure_of(e: &ReplyError, profile: Profile) -> FailureNote {
    let rule = e.clause(profile);
    let mut failure = FailureNote::by(rule, class_of(e, profile), failure_text(e, profile));
    if matches!(
        e,
        ReplyError::FinishFailed { .. } | ReplyError::FinishOther { .. } | ReplyError::NoFinish
    ) {
        // A finish, or its absence, is classified by AR-REVIEW-7, not by the reader's rule.
        failure.class_by = vec!["AR-REVIEW-6", "AR-REVIEW-7"];
    }
    failure
}

/// The tolerant reader's clauses that read a decision from a reply the strict reader refuses
/// (chapter 10 in place of AR-PARSE-1..4), AR-TOL-5 first where braces inside a string decided
/// the spans the candidate was found among, and AR-TOL-4 first where a fence left for the `{` on
/// its opening line decided what they were found in: empty under the strict reader, and for a
/// reply both read where neither did.
pub fn tolerated(reply: &Reply<'_>, profile: Profile) -> Vec<&'static str> {
    if profile.reader() == Reader::Strict {
        return Vec::new();
    }
    let mut by = match parse::strict::read(reply) {
        Ok(_) => Vec::new(),
        Err(ReplyError::AfterFinish | ReplyError::Blocks) => vec!["AR-TOL-2"],
        Err(ReplyError::InvalidJson(_) | ReplyError::NotObject) => vec!["AR-TOL-4", "AR-TOL-5"],
        Err(e) => vec![e.clause(profile)],
    };
    // Where braces inside a string would have ended a span elsewhere or left it open, the scan's
    // string tracking (AR-TOL-5) is what found the candidate the decision was read from.
    if parse::scan::braces_in_strings_decide(&parse::tolerant::text_blocks(reply).concat()) {
        by.retain(|c| *c != "AR-TOL-5");
        by.insert(0, "AR-TOL-5");
    }
    // Where a fence stood because its opening line holds a `{` and the text read without that
    // line would read otherwise, AR-TOL-4's proviso decided what the candidates were found in;
    // the fence is taken off (or left) before the scan.
    if fence_line_with_brace_decides(reply, profile) {
        by.retain(|c| *c != "AR-TOL-4");
        by.insert(0, "AR-TOL-4");
    }
    by
}

/// Whether AR-TOL-4's proviso decides how the tolerant reader reads `reply`: what it read came
/// from the joined text (not a finish, a tool call or the bound), and the proviso decided how that
/// text reads ([`parse::tolerant::fence_line_with_brace_decides`]). Never under the strict reader.
fn fence_line_with_brace_decides(reply: &Reply<'_>, profile: Profile) -> bool {
    if profile.reader() != Reader::Tolerant {
        return false;
    }
    let text = parse::tolerant::text_blocks(reply).concat();
    parse::tolerant::fence_line_with_brace_decides(&text)
        && parse::tolerant::read(reply) == parse::tolerant::parse_text(&text)
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
    let reader = profile.reader();
    let read = match (reader.bound(), blocks) {
        // AR-TOL-3: a text is read only to one byte past the reader's bound.
        (Some(bound), false) => {
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
                reader.read_text(utf8(bytes)?)
            }
        }
        (None, false) => {
            input.read_to_end(&mut bytes)?;
            reader.read_text(utf8(bytes)?)
        }
        (_, true) => {
            input.read_to_end(&mut bytes)?;
            reader.read_blocks(utf8(bytes)?)?
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
/// or normalized (AR-RES-NORM-1..4), as the profile's failure text rule says.
pub fn failure_text(e: &ReplyError, profile: Profile) -> Text {
    // AR-REVIEW-5, AR-RES-NORM-1..4
    let rule = profile.failure_text();
    let template = template_of(e, profile);
    let raw = match (e, template) {
        // AR-JSON-RETRY-3: fixed words, where the profile asks again after invalid JSON.
        (ReplyError::InvalidJson(_), Some(t)) => t.text(),
        _ => raw_text(e, rule),
    };
    let text = rule.message(raw);
    let text = match e {
        ReplyError::FinishFailed { .. } => text.citing(rule.value_clauses()),
        _ => text,
    };
    match template {
        Some(t) => text.citing(&[t.id, t.clause()]),
        None => text.citing(&["AR-MSG-3"]),
    }
}

/// The template of a reply error's message under `profile`; `None` for invalid JSON, whose
/// message is implementation-defined (AR-PARSE-4, AR-MSG-3), except where the profile asks again
/// after it and names it in fixed words (AR-JSON-RETRY-3).
fn template_of(e: &ReplyError, profile: Profile) -> Option<messages::Template> {
    Some(match e {
        ReplyError::FinishFailed { .. } => messages::ERR_ENDED_DETAIL,
        ReplyError::FinishOther { .. } => messages::ERR_ENDED,
        ReplyError::NoFinish => messages::ERR_NO_FINISH,
        ReplyError::AfterFinish => messages::ERR_AFTER_FINISH,
        ReplyError::Blocks => messages::ERR_BLOCKS,
        ReplyError::InvalidJson(_) if profile.asks_again() == AsksAgain::JsonRetry => {
            messages::ERR_NOT_JSON
        }
        ReplyError::InvalidJson(_) => return None,
        ReplyError::NotObject => messages::ERR_NOT_OBJECT,
        ReplyError::Repeated => messages::ERR_REPEATED,
        ReplyError::Protocol => messages::ERR_PROTOCOL,
        ReplyError::ToolCall => messages::ERR_TOOL_CALL,
        ReplyError::TooLarge => messages::ERR_TOO_LARGE,
        ReplyError::NoDecision => messages::ERR_NO_DECISION,
        ReplyError::Ambiguous => messages::ERR_AMBIGUOUS,
        ReplyError::Malformed => messages::ERR_MALFORMED,
        ReplyError::Conflict => messages::ERR_CONFLICT,
        ReplyError::AllowBesideProse => messages::ERR_ALLOW_PROSE,
    })
}

/// The failure message of a reply error before the rule `failure_text` treats it: a failed
/// finish's message value made text as the rule says, any other error's message as it stands.
pub fn raw_text(e: &ReplyError, rule: FailureText) -> Text {
    match e {
        ReplyError::FinishFailed {
            kind,
            code,
            message,
        } => Text::exact(messages::ERR_ENDED_DETAIL.render(&[
            ("kind", kind.as_str()),
            ("code", code),
            ("message", &rule.value_text(message)),
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
            // AR-REVIEW-5, AR-RES-NORM-1
            let text = profile.failure_text().value_text(message);
            classify_finish(*kind, code, &text)
        }
        ReplyError::FinishOther { .. } => FailureClass::Provider,
        // A stream cut before its terminal finish is a broken stream (AR-REVIEW-6, AR-REVIEW-7):
        // asking again is the remedy, not a repair of an answer it may have given whole.
        ReplyError::NoFinish => FailureClass::Transport,
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
        assert_eq!(class_of(&e, Profile::BASELINE), FailureClass::Provider);
        assert_eq!(class_of(&e, Profile::RESILIENT), FailureClass::Transport);
    }

    /// A refusal of the shape rules cites the rule of chapter 4 first where the tolerant reader
    /// read the object itself, and AR-TOL-8 first where it found the candidate in a text the
    /// strict reader refuses otherwise; the strict reader cites its own rule.
    #[test]
    fn a_shape_refusal_cites_the_strict_rule_first_only_where_the_text_is_the_object() {
        let failed_by = |text: &str, profile| match read_citing(&Reply::text(text), profile).0 {
            Settlement::Failed(f) => (f.failed_by, f.class_by, f.message.cited),
            other => panic!("{text:?} under {profile}: {other:?}"),
        };
        let repeated = r#"{"decision":"deny","decision":"allow","risk":"low"}"#;
        let unknown = r#"{"risk":"low","decision":"allow","score":1}"#;
        let capitalized = r#"{"risk":"LOW","decision":"Allow"}"#;
        for (object, rule) in [
            (repeated, "AR-PARSE-6"),
            (unknown, "AR-PARSE-7"),
            (capitalized, "AR-PARSE-7"),
        ] {
            for profile in Profile::all() {
                let (by, class_by, cited) = failed_by(object, profile);
                assert_eq!(by, rule, "{object} under {profile}");
                assert_eq!(class_by[..2], ["AR-REVIEW-6", rule], "{object}");
                assert_eq!(cited[..2], ["AR-REVIEW-5", rule], "{object}");
            }
            for around in [
                format!("Here it is: {object}"),
                format!("```json\n{object}\n```"),
                format!("\u{feff}{object}"),
            ] {
                let (by, class_by, _) = failed_by(&around, Profile::RESILIENT);
                assert_eq!(by, "AR-TOL-8", "{around:?}");
                assert_eq!(class_by[..2], ["AR-REVIEW-6", "AR-TOL-8"], "{around:?}");
            }
        }
    }
}
