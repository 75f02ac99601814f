//! The async reference gate: the same clauses as the pure engine, built the way a Rust harness
//! would embed them — a reviewer client behind a trait with one deadline and bounded retries on
//! `tokio::time`, the pre-execute waterfall with `next()`, an approval service with answerers, and
//! real signals. Texts come from [`crate::engine::compose`]; only the control flow is written again,
//! and a property test proves it agrees with `decide` on generated scenarios.

pub mod scripted;
mod signal;

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

pub use scripted::run as run_scripted;
use serde_json::Value;
pub use signal::{AbortController, Signal};

use crate::engine::Decided;
use crate::engine::compose;
use crate::engine::disposal;
use crate::engine::review::{self, Attempting, Budget, FailureNote, Settlement};
use crate::messages::{self, Text, reference};
use crate::outcome::{
    AnsweredBy, ApprovalRecord, Citations, Decision, FailureClass, ReviewRecord, ToolResult,
};
use crate::parse::{Reply, ReviewerDecision};
use crate::profile::{BodyApprovals, FailureRules, PresetRead, Profile, RouteRule};
use crate::scenario::{
    ApprovalAnswer, ApprovalPolicy, Block, CallKind, Config, FailedFinish, OnFailure, Policy,
    Preset, Route, SandboxMode, SchemaView,
};

/// A boxed future, as the traits below return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What the tool runtime knows of a session: its preset, policy, route and header. The preset and
/// the policy change when disposal moves the session out of Auto (AR-DISPOSE-1). The failure count
/// is the gate's, not the session's (AR-RES-HINT-4): see [`AutoReview::seed_failures`].
#[derive(Debug)]
pub struct Session {
    /// The current permission preset.
    pub preset: Mutex<Preset>,
    /// The approval policy (override and deployment default).
    pub policy: Mutex<Policy>,
    /// The route of the latest request header.
    pub route: Route,
    /// Whether disposal moved this session out of Auto (AR-RES-DISPOSE-1).
    pub moved: AtomicBool,
    /// The session's id (AR-RES-REQUEST-1).
    pub id: String,
    /// Whether the session's header names a working directory (AR-REVIEW-10).
    pub working_directory: bool,
    /// The session's sandbox mode (AR-CONFINE-1).
    pub sandbox: Mutex<SandboxMode>,
    /// Whether the session's backend confines reads (AR-CONFINE-1).
    pub confines_reads: bool,
    /// What rejects a change of the mode, with its message (AR-CONFINE-3): a persistent
    /// terminal's mode fence, say.
    pub mode_fence: Option<String>,
}

impl Session {
    /// A session in `preset` under `policy` whose latest request header names `route`.
    pub fn new(preset: Preset, policy: Policy, route: Route) -> Self {
        Session {
            preset: Mutex::new(preset),
            policy: Mutex::new(policy),
            route,
            moved: AtomicBool::new(false),
            id: crate::scenario::DEFAULT_SESSION_ID.to_owned(),
            working_directory: true,
            sandbox: Mutex::new(SandboxMode::default()),
            confines_reads: false,
            mode_fence: None,
        }
    }

    /// The current sandbox mode.
    pub fn sandbox(&self) -> SandboxMode {
        *self.sandbox.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes the sandbox mode, unless its fence rejects the change: the fence's message, thrown.
    pub fn set_sandbox(&self, mode: SandboxMode) -> Result<(), String> {
        if let Some(message) = &self.mode_fence {
            return Err(message.clone());
        }
        *self.sandbox.lock().unwrap_or_else(|e| e.into_inner()) = mode;
        Ok(())
    }

    /// The current preset.
    pub fn preset(&self) -> Preset {
        *self.preset.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The current policy.
    pub fn policy(&self) -> Policy {
        *self.policy.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One tool call as the tool runtime sees it.
#[derive(Debug, Clone)]
pub struct Exec {
    /// The tool's name.
    pub name: String,
    /// The call kind.
    pub call: CallKind,
    /// The agent's session, if the call has an agent.
    pub session: Option<Arc<Session>>,
    /// What the request header and the tool registry hold for this tool.
    pub schema: SchemaView,
    /// Which fact, if any, the session log breaks for this call (AR-REVIEW-11).
    pub log: crate::scenario::LogFact,
    /// The caller's signal.
    pub caller: Signal,
    /// The call's id, which the approval requests it raises may carry (AR-APPROVAL-7).
    pub call_id: String,
}

/// What one reviewer request came back with.
#[derive(Debug, Clone, PartialEq)]
pub enum ReviewerResponse {
    /// The stream ended with these blocks and finish kind.
    Completed {
        /// The content blocks.
        blocks: Vec<Block>,
        /// `stop` or another kind; `None` for a stream that ended without a terminal finish.
        finish: Option<String>,
        /// Whether data followed the finish.
        data_after_finish: bool,
    },
    /// The stream ended with a failed finish.
    Failed(FailedFinish),
    /// The request threw this value.
    Threw(Value),
    /// The request's signal ended it before it settled.
    Aborted,
}

/// One reviewer request.
#[derive(Debug, Clone)]
pub struct ReviewRequest {
    /// The route, `provider/model`.
    pub route: String,
    /// A first request, a repair (with `MSG-REPAIR-INSTRUCTION`, or after invalid JSON with
    /// `MSG-JSON-RETRY-REMINDER`) or a retry.
    pub purpose: Attempting,
    /// Aborts when the caller or the integration does; the client must end a request that would
    /// otherwise never settle.
    pub signal: Signal,
    /// The session id the request carries: the resilient gate's attribution (AR-RES-REQUEST-1).
    pub session_id: Option<String>,
    /// The sampling temperature the request carries; `None` leaves the parameter out
    /// (`provider-default`, AR-REVIEW-3).
    pub temperature: Option<serde_json::Number>,
    /// Whether the request asks for a repair (`MSG-REPAIR-INSTRUCTION`, or
    /// `MSG-JSON-RETRY-REMINDER` after invalid JSON, appended): a repair, or a retry of one, which
    /// repeats it unchanged (AR-RES-RETRY-2, AR-JSON-RETRY-1).
    pub repair: bool,
}

/// The reviewer model behind its transport.
pub trait ReviewerClient: Send + Sync {
    /// Makes one request.
    fn request(&self, request: ReviewRequest) -> BoxFuture<'_, ReviewerResponse>;
}

/// What a pre-execute listener comes to: its decision, or the message of what it threw.
pub type Stage = Result<Decided, String>;

/// A `tools/pre-execute` listener: returns its own decision or delegates with `next.run()`.
pub trait PreExecute: Send + Sync {
    /// Decides the call, or throws.
    fn run<'a>(&'a self, exec: &'a Exec, next: Next<'a>) -> BoxFuture<'a, Stage>;
}

/// The rest of the waterfall after a listener; its end allows.
pub struct Next<'a> {
    rest: &'a [Arc<dyn PreExecute>],
    exec: &'a Exec,
}

impl<'a> Next<'a> {
    /// Runs the remaining listeners.
    pub fn run(self) -> BoxFuture<'a, Stage> {
        Box::pin(async move {
            match self.rest.split_first() {
                None => Ok(Decided::exact(Decision::Allow)),
                Some((first, rest)) => {
                    first
                        .run(
                            self.exec,
                            Next {
                                rest,
                                exec: self.exec,
                            },
                        )
                        .await
                }
            }
        })
    }
}

/// A question the tool runtime puts to the approval service.
#[derive(Debug, Clone)]
pub struct ApprovalRequest {
    /// The tool's name.
    pub tool: String,
    /// The audited reason.
    pub reason: Option<String>,
    /// The display reason.
    pub display_reason: Option<crate::outcome::DisplayReason>,
    /// The session's effective policy.
    pub policy: ApprovalPolicy,
    /// The caller's signal.
    pub signal: Signal,
    /// The id of the call the request names, if any (AR-APPROVAL-7).
    pub call_id: Option<String>,
    /// The session of the agent the request is routed through.
    pub session: Option<Arc<Session>>,
}

/// The approval service's answer: one of the four outcomes, and who gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApprovalReply {
    /// `allowed-once`, `rejected`, `cancelled` or `unavailable`.
    pub answer: ApprovalAnswer,
    /// The service by itself, an answerer put before the human (the gate's), or the human.
    pub answered_by: AnsweredBy,
}

impl ApprovalReply {
    /// Whether the question reached the human.
    pub fn prompted(&self) -> bool {
        self.answered_by == AnsweredBy::Human
    }
}

/// An answerer the approval service consults before its human, after its own answers: the gate's
/// for the calls it allowed (AR-APPROVAL-7). `None` passes the request on.
pub trait AnswersFirst: Send + Sync {
    /// Answers the request, or passes it on.
    fn answer_first(&self, request: &ApprovalRequest) -> Option<ApprovalAnswer>;
}

/// What runs once a call's tool result is produced (the runtime's post-execute stage).
pub trait PostExecute: Send + Sync {
    /// The call `exec` finished.
    fn finished(&self, exec: &Exec);
}

/// The approval service (AR-APPROVAL-2, AR-APPROVAL-4); `Err` is a thrown request.
pub trait ApprovalService: Send + Sync {
    /// Asks.
    fn request(&self, request: ApprovalRequest) -> BoxFuture<'_, Result<ApprovalReply, String>>;
}

/// Whoever answers approval questions: a person behind a prompt.
pub trait Answerer: Send + Sync {
    /// Whether a request may be made now (the shipped service needs an open turn).
    fn turn_open(&self) -> bool;
    /// Answers one question with `allowed-once`, `rejected`, `cancelled` or `unavailable`.
    fn answer(&self, request: &ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer>;
}

/// The reference approval service over an answerer (AR-APPROVAL-2, AR-APPROVAL-8): a closed turn
/// throws, an aborted caller is cancelled and the policy `never` rejects before any answerer is
/// asked; then the answerers put before the human, in order; then the human.
pub struct ReferenceApproval<A> {
    answerer: A,
    first: Mutex<Vec<Arc<dyn AnswersFirst>>>,
}

impl<A: Answerer> ReferenceApproval<A> {
    /// A service over `answerer`.
    pub fn new(answerer: A) -> Self {
        ReferenceApproval {
            answerer,
            first: Mutex::default(),
        }
    }

    /// Puts `answerer` before every answerer registered so far (a prepended listener).
    pub fn prepend(&self, answerer: Arc<dyn AnswersFirst>) {
        self.first
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(0, answerer);
    }
}

impl<A: Answerer> ApprovalService for ReferenceApproval<A> {
    fn request(&self, request: ApprovalRequest) -> BoxFuture<'_, Result<ApprovalReply, String>> {
        Box::pin(async move {
            if !self.answerer.turn_open() {
                return Err(reference::APPROVAL_OUTSIDE_TURN.to_owned());
            }
            let by = |answered_by| {
                move |answer| {
                    Ok(ApprovalReply {
                        answer,
                        answered_by,
                    })
                }
            };
            // AR-APPROVAL-8: the service's own answers first.
            if request.signal.is_aborted() {
                return by(AnsweredBy::Service)(ApprovalAnswer::Cancelled);
            }
            if request.policy == ApprovalPolicy::Never {
                return by(AnsweredBy::Service)(ApprovalAnswer::Rejected);
            }
            let first = self.first.lock().unwrap_or_else(|e| e.into_inner()).clone();
            if let Some(answer) = first.iter().find_map(|a| a.answer_first(&request)) {
                return by(AnsweredBy::Gate)(answer);
            }
            let answer = match self.answerer.answer(&request).await {
                ApprovalAnswer::Throws => ApprovalAnswer::Unavailable,
                a => a,
            };
            by(AnsweredBy::Human)(answer)
        })
    }
}

/// The tool body.
pub trait Body: Send + Sync {
    /// Runs the tool's effect.
    fn run<'a>(&'a self, exec: &'a Exec) -> BoxFuture<'a, ()>;
}

/// What the review reported, for audit logs.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewReport {
    /// The review record.
    pub record: ReviewRecord,
    /// The normative prefix of the failure message, when its tail is implementation-defined.
    pub failure_prefix: Option<usize>,
    /// The clauses behind the review's members of the outcome (`/review/…`, and the review's
    /// part of `/trace`), as the reference engine cites them.
    pub citations: Citations,
}

/// The Auto review gate as a pre-execute listener.
pub struct AutoReview<C> {
    profile: Profile,
    config: Config,
    client: C,
    lifecycle: AbortController,
    closing: AtomicBool,
    on_review: Box<dyn Fn(ReviewReport) + Send + Sync>,
    /// Reviewer failures in a row, by session id (AR-RES-HINT-1). They belong to this installed
    /// integration: a gate installed again starts every session at 0 (AR-RES-HINT-4).
    failures: Mutex<std::collections::HashMap<String, u32>>,
    /// The calls admitted whose listener decision has not been returned yet (AR-ADMIT-3).
    admitted: AtomicUsize,
    /// Woken each time an admitted call's decision is returned.
    returned: tokio::sync::Notify,
    /// The calls it allowed that are still running, by their session and id (AR-APPROVAL-7).
    covered: Mutex<std::collections::HashSet<(usize, String)>>,
}

/// One admitted call, tracked until its decision is returned (AR-ADMIT-3): dropped then.
struct Tracked<'g> {
    admitted: &'g AtomicUsize,
    returned: &'g tokio::sync::Notify,
}

impl<'g> Tracked<'g> {
    fn new(admitted: &'g AtomicUsize, returned: &'g tokio::sync::Notify) -> Self {
        admitted.fetch_add(1, Ordering::SeqCst);
        Tracked { admitted, returned }
    }
}

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        self.admitted.fetch_sub(1, Ordering::SeqCst);
        self.returned.notify_waiters();
    }
}

impl<C: ReviewerClient> AutoReview<C> {
    /// A gate under `profile` with `config`, asking `client`, living as long as `lifecycle` has
    /// not aborted; `on_review` receives every review's report.
    pub fn new(
        profile: Profile,
        config: Config,
        client: C,
        lifecycle: AbortController,
        on_review: impl Fn(ReviewReport) + Send + Sync + 'static,
    ) -> Self {
        AutoReview {
            profile,
            config,
            client,
            lifecycle,
            closing: AtomicBool::new(false),
            admitted: AtomicUsize::new(0),
            returned: tokio::sync::Notify::new(),
            on_review: Box::new(on_review),
            failures: Mutex::default(),
            covered: Mutex::default(),
        }
    }

    /// Sets the failures in a row this gate counts for a session before its next call, as when
    /// a harness restores the gate's own state.
    pub fn seed_failures(&self, session_id: &str, n: u32) {
        self.failures
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(session_id.to_owned(), n);
    }

    /// The integration's lifecycle controller (aborted when it is disposed).
    pub fn lifecycle(&self) -> &AbortController {
        &self.lifecycle
    }

    /// Stops admitting calls (AR-ADMIT-1).
    pub fn close(&self) {
        self.closing.store(true, Ordering::SeqCst);
    }

    /// Disposes of the integration (AR-DISPOSE-1): stops admitting calls, moves every Auto session
    /// of the session list to Full access with the policy `never` (in a profile that confines, a
    /// confined one to Workspace Write with its own policy), then aborts the lifecycle.
    /// Disposal's last step, waiting for every admitted call, is [`AutoReview::disposed`]: a
    /// call's own listener may dispose, and must not wait for itself.
    pub fn dispose(&self, sessions: &[Arc<Session>]) {
        self.close();
        for session in sessions {
            let mut preset = session.preset.lock().unwrap_or_else(|e| e.into_inner());
            if *preset == Preset::Auto {
                let mut mode = session.sandbox.lock().unwrap_or_else(|e| e.into_inner());
                let (moved, policy, kept) = disposal::moved_to(*mode, self.profile.confinement());
                (*preset, *mode) = (moved, kept);
                if policy.is_some() {
                    session
                        .policy
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .override_ = policy;
                }
                session.moved.store(true, Ordering::SeqCst);
            }
        }
        self.lifecycle.abort();
    }

    /// Resolves once every admitted call's listener decision has been returned (AR-ADMIT-3,
    /// the last step of AR-DISPOSE-1); after [`AutoReview::dispose`], no call is admitted any
    /// more, so it then resolves for good.
    pub async fn disposed(&self) {
        loop {
            let returned = self.returned.notified();
            tokio::pin!(returned);
            // Registered before the count is read, so a decision returned in between still wakes.
            returned.as_mut().enable();
            if self.admitted.load(Ordering::SeqCst) == 0 {
                return;
            }
            returned.await;
        }
    }

    /// Makes the review's requests (AR-REVIEW-1, AR-RES-RETRY-1..5).
    async fn review(
        &self,
        exec: &Exec,
        session: &Session,
        signal: &Signal,
    ) -> (Settlement, Vec<review::Sent>, bool, bool, Vec<&'static str>) {
        // AR-REVIEW-9, then AR-REVIEW-10 and AR-REVIEW-11, then AR-REVIEW-2.
        let resolved = review::resolve_all(
            review::check_route(
                &session.route,
                self.config.reviewer_route.as_ref(),
                self.profile,
            ),
            || review::check_session(session.working_directory, exec.log, self.profile),
            || review::resolve(&exec.schema, exec.call, self.profile),
        );
        let mut basis = match resolved {
            Err(f) => return (Settlement::Failed(f), Vec::new(), false, false, Vec::new()),
            Ok(basis) => basis,
        };
        let route = review::request_route(
            &session.route,
            self.config.reviewer_route.as_ref(),
            self.profile,
        )
        .to_string();
        let deadline = tokio::time::Instant::now()
            + std::time::Duration::from_millis(self.config.review_timeout_ms);
        let mut budget = Budget::new(&self.config);
        let mut purpose = Attempting::Review;
        let mut routes = Vec::new();
        // AR-RES-REQUEST-1
        let session_id = self
            .profile
            .session_id_in_requests()
            .then(|| session.id.clone());
        let mut repair = false;
        loop {
            repair |= purpose == Attempting::Repair;
            routes.push(review::Sent {
                route: route.clone(),
                repair,
                failed: None,
            });
            let pending = self.client.request(ReviewRequest {
                route: route.clone(),
                purpose,
                signal: signal.clone(),
                session_id: session_id.clone(),
                temperature: review::temperature(&self.config, self.profile),
                repair,
            });
            // AR-RES-RETRY-4: the review's one deadline, where the profile has one.
            let response = if self.profile.has_deadline() {
                match tokio::time::timeout_at(deadline, pending).await {
                    Ok(r) => r,
                    Err(_) => {
                        return (
                            review::deadline_passed(self.config.review_timeout_ms),
                            routes,
                            false,
                            false,
                            basis,
                        );
                    }
                }
            } else {
                pending.await
            };
            let settled = match response {
                ReviewerResponse::Aborted => {
                    let by = if self.lifecycle.signal().is_aborted() {
                        review::EndedBy::Lifecycle
                    } else {
                        review::EndedBy::Caller
                    };
                    return (
                        Settlement::Failed(review::signal_ended(by)),
                        routes,
                        true,
                        false,
                        basis,
                    );
                }
                ReviewerResponse::Threw(v) => (
                    Settlement::Failed(review::thrown(&v, self.profile)),
                    Vec::new(),
                ),
                ReviewerResponse::Completed {
                    blocks,
                    finish,
                    data_after_finish,
                } => review::read_citing(
                    &Reply::blocks(&blocks, finish.as_deref(), data_after_finish),
                    self.profile,
                ),
                ReviewerResponse::Failed(f) => {
                    review::read_citing(&Reply::failed(&f), self.profile)
                }
            };
            let (settled, read) = settled;
            let earned = match &settled {
                Settlement::Failed(f) => budget.take(self.profile, f),
                _ => None,
            };
            if let Some(next) = earned
                && !signal.is_aborted()
            {
                if let (Some(sent), Settlement::Failed(f)) = (routes.last_mut(), &settled) {
                    sent.failed = Some(f.to_failure());
                }
                purpose = next;
                continue;
            }
            // AR-CANCEL-6: an `aborted` failure after a signal aborted is the gate's own doing,
            // and its message implementation-defined.
            let own = matches!(&settled, Settlement::Failed(f) if f.class == FailureClass::Aborted)
                && signal.is_aborted();
            let settled = match settled {
                Settlement::Failed(f) if own => Settlement::Failed(review::after_signal(f)),
                settled => {
                    basis.extend(read);
                    settled
                }
            };
            // AR-RES-RETRY-5: the signal stopped the request the failure earned.
            let stopped = earned.is_some() && !own;
            return (settled, routes, own, stopped, basis);
        }
    }

    /// The gate's decision once the review settled (chapter 5, AR-RES-DECIDE/FAIL/ASK/HINT).
    async fn decide(
        &self,
        exec: &Exec,
        session: &Session,
        next: Next<'_>,
        settled: Settlement,
        hint: Option<(Text, Text)>,
    ) -> Stage {
        let name = exec.name.as_str();
        let policy = session.policy();
        let rules = self.profile.failures();
        let failed_before_downstream = |f: &FailureNote| match rules {
            // AR-DECIDE-1, with the hint wherever failures are counted (AR-RES-HINT-2)
            FailureRules::Deny => {
                Some(compose::failed(name, f, hint.as_ref().map(|h| &h.0), false))
            }
            // AR-RES-FAIL-1..3
            FailureRules::Ask => (policy.effective() == ApprovalPolicy::Never
                || self.config.on_failure == OnFailure::Deny)
                .then(|| {
                    let failed = compose::failed(name, f, hint.as_ref().map(|h| &h.0), true);
                    compose::failure_denied(failed, &policy, self.config.on_failure)
                }),
        };
        let final_deny = |reason: &Option<String>| match rules {
            // AR-DECIDE-2
            FailureRules::Deny => (policy.override_ == Some(ApprovalPolicy::Never))
                .then(|| compose::final_deny(name, reason.as_deref(), "AR-DECIDE-2")),
            // AR-RES-DECIDE-1
            FailureRules::Ask => (policy.effective() == ApprovalPolicy::Never).then(|| {
                let denied = compose::final_deny(name, reason.as_deref(), "AR-RES-DECIDE-1");
                compose::never_by(denied, &policy)
            }),
        };
        let (objection, why) = match &settled {
            Settlement::Failed(f) => {
                if let Some(d) = failed_before_downstream(f) {
                    return Ok(d);
                }
                (Some(compose::failure_ask(name, f)), "AR-RES-FAIL-2")
            }
            Settlement::Decided(ReviewerDecision::Deny { reason, .. }) => {
                if let Some(d) = final_deny(reason) {
                    return Ok(d);
                }
                (
                    Some(compose::review_ask(name, reason.as_deref())),
                    "AR-DECIDE-5",
                )
            }
            Settlement::Decided(ReviewerDecision::Allow { .. }) | Settlement::Pending => {
                (None, "AR-DECIDE-4")
            }
        };
        let downstream = next.run().await?;
        if self.lifecycle.signal().is_aborted() {
            return Ok(Decided::exact(Decision::Cancel).because("AR-CANCEL-4"));
        }
        let Some(objection) = objection else {
            // AR-APPROVAL-7: only a call that will run is covered; downstream's own ask is its
            // own decision.
            if downstream.decision == Decision::Allow
                && self.profile.body_approvals() == BodyApprovals::AllowedCall
            {
                self.covered
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert((session_key(session), exec.call_id.clone()));
            }
            return Ok(downstream.because(why));
        };
        Ok(match (&downstream.decision, rules) {
            (Decision::Allow, _) => {
                let asked = compose::asked_because(compose::ask(objection, hint.as_ref()), why);
                // AR-DECIDE-6: a default `never` the baseline does not read here.
                if rules == FailureRules::Deny
                    && policy.override_.is_none()
                    && policy.effective() == ApprovalPolicy::Never
                {
                    asked.because("AR-DECIDE-6")
                } else {
                    asked
                }
            }
            (
                Decision::Ask {
                    reason: Some(r), ..
                },
                // AR-RES-ASK-1
                FailureRules::Ask,
            ) => compose::asked_because(
                compose::ask(compose::combine(objection, r), hint.as_ref()),
                why,
            )
            .because("AR-RES-ASK-1"),
            _ => downstream.because(why),
        })
    }
}

impl<C: ReviewerClient> PreExecute for AutoReview<C> {
    fn run<'a>(&'a self, exec: &'a Exec, next: Next<'a>) -> BoxFuture<'a, Stage> {
        Box::pin(async move {
            // A call passed through gets downstream's decision unchanged, whatever happens to the
            // lifecycle meanwhile (AR-SCOPE-4, the clause that decided it when it aborted).
            let through = |passed: Stage, scope: &'static str| {
                let passed = passed?.because("AR-SCOPE-4").because(scope);
                Ok(
                    if self.closing.load(Ordering::SeqCst) || self.lifecycle.signal().is_aborted() {
                        passed.because("AR-SCOPE-4")
                    } else {
                        passed
                    },
                )
            };
            let Some(session) = exec.session.as_deref() else {
                return through(next.run().await, "AR-SCOPE-1");
            };
            // AR-CONFINE-1, AR-CONFINE-2, AR-CONFINE-4: an Auto session that still has full
            // access on a backend that confines reads is narrowed before anything else, the
            // outer run-code call included, unless the integration closes.
            if self.profile.confinement()
                && session.preset() == Preset::Auto
                && !(self.closing.load(Ordering::SeqCst) || self.lifecycle.signal().is_aborted())
                && session.confines_reads
                && session.sandbox() == SandboxMode::DangerFullAccess
            {
                // AR-CONFINE-3: a rejected change is thrown out of the listener.
                session.set_sandbox(SandboxMode::WorkspaceWrite)?;
            }
            if exec.call == CallKind::RunCode {
                return through(next.run().await, "AR-SCOPE-2");
            }
            let lifecycle = self.lifecycle.signal();
            let closing = self.closing.load(Ordering::SeqCst) || lifecycle.is_aborted();
            // AR-RES-DISPOSE-1: a call racing disposal in a session it moved is cancelled, not
            // passed through; the baseline reads the preset first (AR-DISPOSE-2).
            if self.profile.preset_read() == PresetRead::Current
                && closing
                && session.moved.load(Ordering::SeqCst)
            {
                return Ok(Decided::exact(Decision::Cancel)
                    .because("AR-CANCEL-2")
                    .because("AR-ADMIT-2")
                    .because("AR-RES-DISPOSE-1"));
            }
            if session.preset() != Preset::Auto {
                return if session.moved.load(Ordering::SeqCst) {
                    Ok(next
                        .run()
                        .await?
                        .because("AR-SCOPE-4")
                        .because("AR-SCOPE-3")
                        .because("AR-DISPOSE-2"))
                } else {
                    through(next.run().await, "AR-SCOPE-3")
                };
            }
            // AR-ADMIT-1..3: the call is tracked before admission is checked, so that disposal,
            // which stops admitting before it waits, either refuses the call or waits for it.
            let _tracked = Tracked::new(&self.admitted, &self.returned);
            // Read again once tracked: disposal may have begun since `closing` was read.
            if self.closing.load(Ordering::SeqCst) || lifecycle.is_aborted() {
                return Ok(Decided::exact(Decision::Cancel)
                    .because("AR-CANCEL-2")
                    .because("AR-ADMIT-2"));
            }
            let signal = Signal::any(&exec.caller, &lifecycle);
            let (settlement, routes, signal_ended, stopped_by_signal, basis) =
                self.review(exec, session, &signal).await;
            let consecutive = {
                let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
                let count = failures.entry(session.id.clone()).or_default();
                let after = review::count_after(self.profile, *count, &settlement, signal_ended);
                if let Some(n) = after {
                    *count = n;
                }
                after
            };
            let failure = match &settlement {
                Settlement::Failed(f) => Some(f.clone()),
                _ => None,
            };
            let reviewed = review::Review {
                settlement: settlement.clone(),
                route: review::request_route(
                    &session.route,
                    self.config.reviewer_route.as_ref(),
                    self.profile,
                )
                .to_string(),
                // AR-RES-ROUTE-1
                configured_route: self.profile.route() == RouteRule::ConfiguredFirst
                    && self.config.reviewer_route.is_some(),
                requests: routes.clone(),
                // AR-RES-REQUEST-1
                session_id: self
                    .profile
                    .session_id_in_requests()
                    .then(|| session.id.clone()),
                temperature: review::temperature(&self.config, self.profile),
                signal_ended,
                stopped_by_signal,
                consecutive_failures: consecutive,
                basis,
            };
            let mut citations = Citations::default();
            reviewed.cite(self.profile, &mut citations);
            (self.on_review)(ReviewReport {
                record: reviewed.record(),
                failure_prefix: failure.as_ref().and_then(|f| f.message.prefix),
                citations,
            });
            if lifecycle.is_aborted() {
                return Ok(Decided::exact(Decision::Cancel).because("AR-CANCEL-3"));
            }
            let hint = (failure.is_some() && !signal_ended)
                .then_some(consecutive)
                .flatten()
                .filter(|n| *n >= self.config.failure_hint_after)
                .map(|n| {
                    let route = routes.last().map(|r| r.route.clone()).unwrap_or_else(|| {
                        review::request_route(
                            &session.route,
                            self.config.reviewer_route.as_ref(),
                            self.profile,
                        )
                        .to_string()
                    });
                    compose::hint_lines(n, &route)
                });
            self.decide(exec, session, next, settlement, hint).await
        })
    }
}

/// A session's identity, as the gate keys the calls it covers: one agent's session.
fn session_key(session: &Session) -> usize {
    std::ptr::from_ref(session) as usize
}

impl<C: ReviewerClient> AnswersFirst for AutoReview<C> {
    /// AR-APPROVAL-7: `allowed-once` for a request naming a call it allowed that still runs, while
    /// the session is in Auto; anything else goes on.
    fn answer_first(&self, request: &ApprovalRequest) -> Option<ApprovalAnswer> {
        let (Some(id), Some(session)) = (&request.call_id, &request.session) else {
            return None;
        };
        let covered = self
            .covered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&(session_key(session), id.clone()));
        (covered && session.preset() == Preset::Auto).then_some(ApprovalAnswer::AllowedOnce)
    }
}

impl<C: ReviewerClient> PostExecute for AutoReview<C> {
    /// AR-APPROVAL-6: the coverage ends with the call.
    fn finished(&self, exec: &Exec) {
        if let Some(session) = &exec.session {
            self.covered
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&(session_key(session), exec.call_id.clone()));
        }
    }
}

/// What the tool runtime did with one call.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutcome {
    /// The first listener's decision (`None` when the caller aborted before the stage).
    pub listener: Option<Decision>,
    /// The approval request, if one was made.
    pub approval: Option<ApprovalRecord>,
    /// The tool result.
    pub result: ToolResult,
    /// Texts whose tail is implementation-defined, by JSON pointer.
    pub prefix_only: BTreeMap<String, usize>,
    /// The clauses behind the first listener's decision, under `/listener`, as it cited them.
    pub citations: Citations,
}

/// The tool runtime: the pre-execute stage, the approval service and the body (chapters 6, 8).
pub struct ToolRuntime {
    /// The pre-execute listeners, first to last.
    pub listeners: Vec<Arc<dyn PreExecute>>,
    /// The approval service.
    pub approval: Arc<dyn ApprovalService>,
    /// The tool body.
    pub body: Arc<dyn Body>,
    /// The post-execute listeners, run once a call's tool result is produced.
    pub post_execute: Vec<Arc<dyn PostExecute>>,
}

impl ToolRuntime {
    /// Runs one call to its result, then its post-execute listeners (a throw out of the stage is
    /// the call's final result, which bypasses them).
    pub async fn execute(&self, exec: &Exec) -> CallOutcome {
        let outcome = self.execute_stage(exec).await;
        if outcome.listener.is_some() {
            for post in &self.post_execute {
                post.finished(exec);
            }
        }
        outcome
    }

    async fn execute_stage(&self, exec: &Exec) -> CallOutcome {
        let mut prefix_only = BTreeMap::new();
        // The listener's citations, once it decided.
        let cited = std::cell::RefCell::new(Citations::default());
        let done = |listener, approval, result, prefix_only| CallOutcome {
            listener,
            approval,
            result,
            prefix_only,
            citations: cited.take(),
        };
        // No listener runs when the caller aborted before the stage.
        if exec.caller.is_aborted() {
            cited.borrow_mut().cite("/listener", "AR-CANCEL-1");
            return done(None, None, compose::aborted(), prefix_only);
        }
        let decided = match (Next {
            rest: &self.listeners,
            exec,
        })
        .run()
        .await
        {
            Ok(decided) => decided,
            Err(thrown) => {
                // AR-CONFINE-3: a throw in the stage is the call's final result, `Error: ` and
                // its message; no listener decision, no body. (The gate throws only where a
                // narrowing was rejected.)
                cited.borrow_mut().cite("/listener", "AR-CONFINE-3");
                return done(None, None, compose::stage_threw(&thrown).0, prefix_only);
            }
        };
        for (key, p) in &decided.prefixes {
            prefix_only.insert(format!("/listener/{key}"), *p);
        }
        cited.borrow_mut().nest("/listener", &decided.cited);
        let refuse = |reason: &Text, info, prefix_only: &mut BTreeMap<String, usize>| {
            let (result, text) = compose::refused(reason, info);
            if let Some(p) = text.prefix {
                prefix_only.insert("/result/text".to_owned(), p);
            }
            result
        };
        let listener = Some(decided.decision.clone());
        let reason_cited = decided.clauses("/reason").to_vec();
        match decided.decision {
            Decision::Allow => {
                let result = self.dispatch(exec).await;
                done(listener, None, result, prefix_only)
            }
            Decision::Cancel => done(listener, None, compose::aborted(), prefix_only),
            Decision::Deny { reason, info } => {
                let reason = Text {
                    text: reason,
                    prefix: decided.prefixes.get("reason").copied(),
                    cited: reason_cited,
                };
                let result = refuse(&reason, info, &mut prefix_only);
                done(listener, None, result, prefix_only)
            }
            Decision::Ask {
                reason,
                display_reason,
            } => {
                let Some(session) = &exec.session else {
                    // AR-APPROVAL-1
                    let result = refuse(
                        &compose::named(messages::NO_AGENT, &exec.name),
                        None,
                        &mut prefix_only,
                    );
                    return done(listener, None, result, prefix_only);
                };
                for (key, p) in &decided.prefixes {
                    prefix_only.insert(format!("/approval/{key}"), *p);
                }
                let asked = self
                    .approval
                    .request(ApprovalRequest {
                        tool: exec.name.clone(),
                        reason: reason.clone(),
                        display_reason: display_reason.clone(),
                        // AR-DISPOSE-3: the policy in force when the service is asked.
                        policy: session.policy().effective(),
                        signal: exec.caller.clone(),
                        call_id: Some(exec.call_id.clone()),
                        session: Some(session.clone()),
                    })
                    .await;
                let record = |answer, prompted| {
                    Some(ApprovalRecord {
                        reason: reason.clone(),
                        display_reason: display_reason.clone(),
                        answer,
                        prompted,
                    })
                };
                let named = |t| compose::named(t, &exec.name);
                match asked {
                    Err(thrown) => {
                        let text = compose::approval_threw(&Text::implementation_defined(thrown));
                        let result = refuse(&text, None, &mut prefix_only);
                        done(
                            listener,
                            record(ApprovalAnswer::Throws, false),
                            result,
                            prefix_only,
                        )
                    }
                    Ok(reply) => {
                        let result = match reply.answer {
                            ApprovalAnswer::AllowedOnce => self.dispatch(exec).await,
                            ApprovalAnswer::Rejected => {
                                refuse(&named(messages::USER_REJECTED), None, &mut prefix_only)
                            }
                            ApprovalAnswer::Cancelled if exec.caller.is_aborted() => {
                                compose::aborted()
                            }
                            ApprovalAnswer::Cancelled => {
                                refuse(&named(messages::APPROVAL_CANCELLED), None, &mut prefix_only)
                            }
                            ApprovalAnswer::Unavailable | ApprovalAnswer::Throws => refuse(
                                &named(messages::APPROVAL_UNAVAILABLE),
                                None,
                                &mut prefix_only,
                            ),
                        };
                        done(
                            listener,
                            record(reply.answer, reply.prompted()),
                            result,
                            prefix_only,
                        )
                    }
                }
            }
        }
    }

    /// AR-RESULT-1: dispatch unless the caller aborted by then.
    async fn dispatch(&self, exec: &Exec) -> ToolResult {
        if exec.caller.is_aborted() {
            return compose::aborted();
        }
        self.body.run(exec).await;
        ToolResult::executed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::BlockKind;
    use std::time::Duration;

    /// A reviewer that allows at once.
    struct Allows;

    impl ReviewerClient for Allows {
        fn request(&self, _: ReviewRequest) -> BoxFuture<'_, ReviewerResponse> {
            Box::pin(async {
                ReviewerResponse::Completed {
                    blocks: vec![Block {
                        kind: BlockKind::Text,
                        text: r#"{"risk":"low","decision":"allow"}"#.to_owned(),
                    }],
                    finish: Some("stop".to_owned()),
                    data_after_finish: false,
                }
            })
        }
    }

    /// A later listener that says when it is reached, and answers `allow` once released.
    struct Held {
        reached: Arc<tokio::sync::Notify>,
        release: Arc<tokio::sync::Notify>,
    }

    impl PreExecute for Held {
        fn run<'a>(&'a self, _: &'a Exec, _: Next<'a>) -> BoxFuture<'a, Stage> {
            Box::pin(async move {
                self.reached.notify_one();
                self.release.notified().await;
                Ok(Decided::exact(Decision::Allow))
            })
        }
    }

    /// AR-ADMIT-3, AR-DISPOSE-1: disposal waits for a call it admitted until that call's
    /// decision is returned, and that decision is `cancel` (AR-CANCEL-4).
    #[tokio::test(start_paused = true)]
    async fn disposal_waits_for_an_admitted_call() {
        let gate = Arc::new(AutoReview::new(
            Profile::BASELINE,
            Config::default(),
            Allows,
            AbortController::default(),
            |_| {},
        ));
        let reached = Arc::new(tokio::sync::Notify::new());
        let release = Arc::new(tokio::sync::Notify::new());
        let held: Arc<dyn PreExecute> = Arc::new(Held {
            reached: reached.clone(),
            release: release.clone(),
        });
        let exec = Arc::new(Exec {
            name: "bash".to_owned(),
            call: CallKind::Native,
            session: Some(Arc::new(Session::new(
                Preset::Auto,
                Policy::default(),
                Route::default(),
            ))),
            schema: SchemaView::PRESENT,
            log: crate::scenario::LogFact::default(),
            caller: AbortController::default().signal(),
            call_id: "call-1".to_owned(),
        });
        let call = tokio::spawn({
            let (gate, exec, held) = (gate.clone(), exec.clone(), held.clone());
            async move {
                let rest = [held];
                gate.run(
                    &exec,
                    Next {
                        rest: &rest,
                        exec: &exec,
                    },
                )
                .await
            }
        });
        // The call is admitted, reviewed, and reaches the held listener.
        reached.notified().await;
        gate.dispose(&[]);
        let waited = tokio::time::timeout(Duration::from_millis(50), gate.disposed()).await;
        assert!(
            waited.is_err(),
            "disposal returned while a call was in flight"
        );
        release.notify_one();
        let decided = call.await.unwrap().unwrap();
        assert_eq!(decided.decision, Decision::Cancel);
        tokio::time::timeout(Duration::from_secs(5), gate.disposed())
            .await
            .expect("disposal returns once the call decided");
        // No call is admitted any more.
        assert_eq!(gate.admitted.load(Ordering::SeqCst), 0);
    }
}
