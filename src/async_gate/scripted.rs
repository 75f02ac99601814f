//! Runs a scenario through the async gate: scripted implementations of the reviewer client, the
//! downstream listener, the answerer and the body, on a paused tokio clock (so deadlines pass
//! without waiting), with the scenario's abort point realized by aborting real signals.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{
    AbortController, Answerer, ApprovalReply, ApprovalRequest, ApprovalService, AutoReview, Body,
    BoxFuture, Exec, Next, PreExecute, ReferenceApproval, ReviewReport, ReviewRequest,
    ReviewerClient, ReviewerResponse, Session, Stage, ToolRuntime,
};
use crate::engine::Decided;
use crate::engine::compose;
use crate::outcome::{
    BodyApproval, Event, Outcome, RequestRecord, ReviewRecord, SandboxRecord, ToolResult,
};
use crate::profile::Profile;
use crate::scenario::{
    AbortPoint, Answer, ApprovalAnswer, Attempt, Block, BlockKind, CallIdOf, Narrowing, Scenario,
    Step,
};

/// Everything observable, in order.
#[derive(Debug, Default)]
struct Log {
    events: Vec<Event>,
    requests: Vec<RequestRecord>,
    body_approvals: Vec<BodyApproval>,
}

type Shared = Arc<Mutex<Log>>;

/// Disposes of the integration when the scenario's lifecycle abort point is reached
/// (AR-DISPOSE-1): set once the gate exists, called by whichever part of the world reaches it.
#[derive(Clone, Default)]
struct Disposal(Arc<std::sync::OnceLock<Box<dyn Fn() + Send + Sync>>>);

impl Disposal {
    fn dispose(&self) {
        if let Some(f) = self.0.get() {
            f();
        }
    }
}

fn push(log: &Shared, e: Event) {
    log.lock().unwrap_or_else(|e| e.into_inner()).events.push(e);
}

struct ScriptedReviewer {
    scenario: Arc<Scenario>,
    requests: AtomicUsize,
    log: Shared,
    caller: AbortController,
    disposal: Disposal,
}

impl ReviewerClient for ScriptedReviewer {
    fn request(&self, request: ReviewRequest) -> BoxFuture<'_, ReviewerResponse> {
        Box::pin(async move {
            {
                let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
                log.events.push(Event::Review);
                log.requests.push(RequestRecord::sent(
                    &request.route,
                    request.temperature.clone(),
                    request.session_id.as_deref(),
                    request.repair,
                ));
            }
            let n = self.requests.fetch_add(1, Ordering::SeqCst);
            if n == 0 {
                match self.scenario.abort {
                    AbortPoint::CallerDuringReview => self.caller.abort(),
                    AbortPoint::LifecycleAfterReview => self.disposal.dispose(),
                    _ => {}
                }
            }
            let attempt = self.scenario.reviewer.attempt(n);
            let Some(delay) = attempt.delay_ms() else {
                request.signal.aborted().await;
                return ReviewerResponse::Aborted;
            };
            tokio::time::sleep(Duration::from_millis(delay)).await;
            match attempt {
                Attempt::Text { text, .. } => ReviewerResponse::Completed {
                    blocks: vec![Block {
                        kind: BlockKind::Text,
                        text: text.clone(),
                    }],
                    finish: Some("stop".into()),
                    data_after_finish: false,
                },
                Attempt::Blocks {
                    blocks,
                    finish,
                    data_after_finish,
                    ..
                } => ReviewerResponse::Completed {
                    blocks: blocks.clone(),
                    finish: finish.clone(),
                    data_after_finish: *data_after_finish,
                },
                Attempt::Finish { finish, .. } => ReviewerResponse::Failed(finish.clone()),
                Attempt::Throw { throw, .. } => ReviewerResponse::Threw(throw.clone()),
                Attempt::Hang { .. } => ReviewerResponse::Aborted,
            }
        })
    }
}

struct ScriptedDownstream {
    scenario: Arc<Scenario>,
    log: Shared,
    caller: AbortController,
    disposal: Disposal,
}

impl PreExecute for ScriptedDownstream {
    fn run<'a>(&'a self, _exec: &'a Exec, _next: Next<'a>) -> BoxFuture<'a, Stage> {
        Box::pin(async move {
            push(&self.log, Event::Downstream);
            match self.scenario.abort {
                AbortPoint::LifecycleDuringDownstream => self.disposal.dispose(),
                // A call the gate passed through has no review to abort during: the caller
                // aborts while the stage runs (AR-CANCEL-5); after a review it already has.
                AbortPoint::CallerDuringReview => self.caller.abort(),
                _ => {}
            }
            Ok(Decided::exact(compose::downstream_decision(
                &self.scenario.downstream,
            )))
        })
    }
}

/// The human: the call's `approval`, or the answer the body's request in progress scripts.
struct ScriptedAnswerer {
    approval: ApprovalAnswer,
    raised: Arc<Mutex<Option<Answer>>>,
}

impl Answerer for ScriptedAnswerer {
    fn turn_open(&self) -> bool {
        self.approval != ApprovalAnswer::Throws
    }

    fn answer(&self, _request: &ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        let raised = *self.raised.lock().unwrap_or_else(|e| e.into_inner());
        Box::pin(async move { raised.map_or(self.approval, ApprovalAnswer::from) })
    }
}

type Service = Arc<ReferenceApproval<ScriptedAnswerer>>;

struct RecordedApproval {
    inner: Service,
    log: Shared,
}

impl ApprovalService for RecordedApproval {
    fn request(&self, request: ApprovalRequest) -> BoxFuture<'_, Result<ApprovalReply, String>> {
        push(&self.log, Event::Approval);
        self.inner.request(request)
    }
}

/// The body: it runs the scenario's steps (AR-RESULT-7) against the session and the approval
/// service, and records each request it raised with its answer.
struct RecordedBody {
    scenario: Arc<Scenario>,
    service: Service,
    raised: Arc<Mutex<Option<Answer>>>,
    log: Shared,
}

/// The id a body's request names: its own call's, none, one no call has, or the session's
/// earlier call's (which finished before this one began).
fn named_id(exec: &Exec, which: CallIdOf) -> Option<String> {
    match which {
        CallIdOf::Own => Some(exec.call_id.clone()),
        CallIdOf::None => None,
        CallIdOf::Unreviewed => Some("call-unreviewed".to_owned()),
        CallIdOf::Finished => Some("call-0".to_owned()),
    }
}

impl Body for RecordedBody {
    fn run<'a>(&'a self, exec: &'a Exec) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            push(&self.log, Event::Body);
            for step in &self.scenario.body {
                let Some(session) = &exec.session else {
                    continue;
                };
                match step {
                    Step::LeaveAuto(p) => {
                        *session.preset.lock().unwrap_or_else(|e| e.into_inner()) = p.preset();
                        session
                            .policy
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .override_ = Some(p.policy());
                        *session.sandbox.lock().unwrap_or_else(|e| e.into_inner()) = p.mode();
                    }
                    Step::Raise(raise) => {
                        *self.raised.lock().unwrap_or_else(|e| e.into_inner()) = raise.answer;
                        let reply = self
                            .service
                            .request(ApprovalRequest {
                                tool: exec.name.clone(),
                                reason: Some(raise.reason.clone()),
                                display_reason: None,
                                policy: session.policy().effective(),
                                signal: exec.caller.clone(),
                                call_id: named_id(exec, raise.call_id),
                                session: Some(session.clone()),
                            })
                            .await;
                        // RZ-12: a body raises requests only in an open turn, so none throws.
                        let Ok(reply) = reply else { continue };
                        // The service turns an answerer's throw into `unavailable`.
                        let answer =
                            Answer::of_approval(reply.answer).unwrap_or(Answer::Unavailable);
                        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
                        log.events.push(Event::Raised);
                        log.body_approvals.push(BodyApproval {
                            call_id: raise.call_id,
                            reason: raise.reason.clone(),
                            answered_by: reply.answered_by,
                            answer,
                        });
                    }
                }
            }
        })
    }
}

/// How long the harness waits before it calls a call pending: far beyond any deadline.
const PENDING_AFTER: Duration = Duration::from_secs(365 * 24 * 3600);

/// Decides a scenario with the async gate, on a paused single-thread runtime.
pub fn decide(scenario: &Scenario, profile: Profile) -> Outcome {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap_or_else(|e| panic!("a current-thread runtime cannot be built: {e}"));
    runtime.block_on(run(Arc::new(scenario.clone()), profile))
}

/// Decides a scenario with the async gate on the current runtime, whose clock must be paused.
pub async fn run(s: Arc<Scenario>, profile: Profile) -> Outcome {
    let log: Shared = Arc::default();
    let caller = AbortController::new();
    let lifecycle = AbortController::new();
    let report: Arc<Mutex<Option<ReviewReport>>> = Arc::default();
    let reported = report.clone();
    let disposal = Disposal::default();
    // A review that makes no request (its route or schema did not resolve) has no request to
    // abort during: the integration is then disposed as the review ends, before the gate acts
    // (AR-CANCEL-3).
    let abort_after_review =
        (s.abort == AbortPoint::LifecycleAfterReview).then(|| disposal.clone());
    let gate = Arc::new(AutoReview::new(
        profile,
        s.config.clone(),
        ScriptedReviewer {
            scenario: s.clone(),
            requests: AtomicUsize::new(0),
            log: log.clone(),
            caller: caller.clone(),
            disposal: disposal.clone(),
        },
        lifecycle.clone(),
        move |r| {
            if let Some(d) = &abort_after_review {
                d.dispose();
            }
            *reported.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
        },
    ));
    // The failures in a row the gate counted for this session before this call.
    gate.seed_failures(&s.session.id, s.session.consecutive_failures);
    // The human, and the gate's answerer before it (AR-APPROVAL-7, a prepended listener).
    let raised = Arc::new(Mutex::new(None));
    let service = Arc::new(ReferenceApproval::new(ScriptedAnswerer {
        approval: s.approval,
        raised: raised.clone(),
    }));
    service.prepend(gate.clone());
    let runtime = ToolRuntime {
        listeners: vec![
            gate.clone(),
            Arc::new(ScriptedDownstream {
                scenario: s.clone(),
                log: log.clone(),
                caller: caller.clone(),
                disposal: disposal.clone(),
            }),
        ],
        approval: Arc::new(RecordedApproval {
            inner: service.clone(),
            log: log.clone(),
        }),
        body: Arc::new(RecordedBody {
            scenario: s.clone(),
            service,
            raised,
            log: log.clone(),
        }),
        post_execute: vec![gate.clone()],
    };
    let session = s.agent.then(|| {
        let mut session = Session::new(s.preset, s.policy, s.session.route.clone());
        session.id = s.session.id.clone();
        session.working_directory = s.session.working_directory;
        let sandbox = &s.session.sandbox;
        session.sandbox = Mutex::new(sandbox.mode);
        session.confines_reads = sandbox.confines_reads;
        session.mode_fence = match &sandbox.narrowing {
            Narrowing::Accepted => None,
            Narrowing::Rejected(message) => Some(message.clone()),
        };
        Arc::new(session)
    });
    // The session list disposal walks: the call's session, when it is listed.
    let listed: Vec<Arc<Session>> = session
        .iter()
        .filter(|_| s.session.listed)
        .cloned()
        .collect();
    let weak = Arc::downgrade(&gate);
    let _ = disposal.0.set(Box::new(move || {
        if let Some(gate) = weak.upgrade() {
            gate.dispose(&listed);
        }
    }));
    let sandbox_of = session.clone();
    let exec = Exec {
        name: s.tool.name.clone(),
        call: s.tool.call,
        session,
        schema: s.schema,
        log: s.log,
        caller: caller.signal(),
        call_id: "call-1".to_owned(),
    };
    match s.abort {
        AbortPoint::CallerBeforeDispatch => caller.abort(),
        AbortPoint::LifecycleBeforeReview => disposal.dispose(),
        _ => {}
    }
    let call = tokio::time::timeout(PENDING_AFTER, runtime.execute(&exec)).await;
    // A lifecycle abort point stands for a disposal during the call, reached or not by the time
    // the call settled (a review that failed before downstream, say): the session's mode is read
    // once it happened (AR-DISPOSE-1, AR-SESSION-2).
    if s.abort.is_lifecycle() {
        disposal.dispose();
    }
    let log = std::mem::take(&mut *log.lock().unwrap_or_else(|e| e.into_inner()));
    let report = report.lock().unwrap_or_else(|e| e.into_inner()).take();
    let unreviewed = ReviewRecord::unreviewed(
        // AR-RES-HINT-1
        profile
            .counts_failures()
            .then_some(s.session.consecutive_failures),
    );
    let (review, failure_prefix, mut citations) = match report {
        Some(r) => (r.record, r.failure_prefix, r.citations),
        // A review still pending reports nothing; what it asked is in the log.
        None if !log.requests.is_empty() => (
            ReviewRecord {
                attempts: log.requests.len() as u32,
                routes: log.requests.iter().map(|r| r.route.clone()).collect(),
                requests: Some(log.requests.clone()),
                // A review that neither decided nor failed leaves the count as it was
                // (AR-RES-HINT-1), as the engine reports it.
                consecutive_failures: unreviewed.consecutive_failures,
                failure: None,
            },
            None,
            Default::default(),
        ),
        None => (unreviewed, None, Default::default()),
    };
    let (settled, listener, approval, result, mut prefix_only) = match call {
        Ok(c) => {
            citations.nest("", &c.citations);
            (true, c.listener, c.approval, c.result, c.prefix_only)
        }
        Err(_) => {
            // The gate never returned: the call stays pending.
            citations.cite("/listener", "AR-CANCEL-6");
            (false, None, None, ToolResult::pending(), Default::default())
        }
    };
    if let Some(p) = failure_prefix {
        prefix_only.insert("/review/failure/message".to_owned(), p);
    }
    Outcome {
        id: s.id.clone(),
        settled,
        listener,
        approval,
        result,
        review,
        trace: log.events,
        // A call without an agent has no session, and so no mode (left out, as full access).
        sandbox: sandbox_of.map_or_else(SandboxRecord::default, |session| SandboxRecord {
            before: s.session.sandbox.mode,
            after: session.sandbox(),
        }),
        body_approvals: log.body_approvals,
        prefix_only,
        citations,
    }
}
