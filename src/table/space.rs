//! The whole input space of a profile's table: every combination of policy, preset, call kind,
//! reviewer outcome class, downstream kind, approval answer and abort point, each made concrete by
//! a representative scenario.

use serde_json::json;

use super::features::ReviewerClass;
use crate::profile::Profile;
use crate::scenario::{
    AbortPoint, ApprovalAnswer, ApprovalPolicy, Attempt, Block, BlockKind, CallKind, Config,
    Downstream, FailedFinish, FailedFinishKind, HangFlag, LogFact, OnFailure, Policy, Preset,
    Reviewer, Route, Scenario, SchemaCount, SchemaView, Session, Tool,
};

/// A reviewer script with the session facts it needs to settle in its class.
#[derive(Debug, Clone, PartialEq)]
pub struct Representative {
    /// Where the tool's schema can be found.
    pub schema: SchemaView,
    /// What the reviewer does.
    pub attempt: Attempt,
    /// The session's route.
    pub route: Route,
    /// The session-log fact the call's log breaks, if any.
    pub log: LogFact,
}

/// The reviewer scripts the enumeration draws from, by the class they are meant to produce when no
/// signal interferes (a test checks each under each profile). The enumeration rotates through them
/// so each representative meets many points.
pub fn representatives(class: ReviewerClass) -> Vec<Representative> {
    let mut reps: Vec<Representative> = scripts(class)
        .into_iter()
        .map(|(schema, attempt)| Representative {
            schema,
            attempt,
            route: Route::default(),
            log: LogFact::Consistent,
        })
        .collect();
    if class == ReviewerClass::PreRequestFailure {
        // AR-REVIEW-9: a session route without a model fails before the schema is looked up,
        // even when the schema would not resolve either.
        reps.push(Representative {
            schema: SchemaView::PRESENT,
            attempt: Attempt::text(r#"{"risk":"low","decision":"allow"}"#),
            route: Route {
                provider: "qodercn".into(),
                model: String::new(),
            },
            log: LogFact::Consistent,
        });
        reps.push(Representative {
            schema: SchemaView {
                header: SchemaCount::Missing,
                registry: SchemaCount::Missing,
            },
            attempt: Attempt::text(r#"{"risk":"high","decision":"deny"}"#),
            route: Route {
                provider: String::new(),
                model: "qfmodel".into(),
            },
            log: LogFact::NotAStartedPrefix,
        });
        // AR-REVIEW-11 before AR-REVIEW-2: a log that breaks a fact fails before the schema is
        // looked up, in both profiles.
        reps.push(Representative {
            schema: SchemaView {
                header: SchemaCount::Missing,
                registry: SchemaCount::Missing,
            },
            attempt: Attempt::text(r#"{"risk":"low","decision":"allow"}"#),
            route: Route::default(),
            log: LogFact::VisibleCallDisagrees,
        });
    }
    reps
}

fn scripts(class: ReviewerClass) -> Vec<(SchemaView, Attempt)> {
    let text = |t: &str| Attempt::text(t);
    let missing = SchemaView {
        header: SchemaCount::Missing,
        registry: SchemaCount::Missing,
    };
    let ambiguous = SchemaView {
        header: SchemaCount::Ambiguous,
        registry: SchemaCount::Missing,
    };
    match class {
        ReviewerClass::Allow => vec![
            (
                SchemaView::PRESENT,
                text(r#"{"risk":"low","decision":"allow"}"#),
            ),
            (
                SchemaView::PRESENT,
                Attempt::Blocks {
                    blocks: vec![
                        Block {
                            kind: BlockKind::Reasoning,
                            text: "The user asked for exactly this.".into(),
                        },
                        Block {
                            kind: BlockKind::Text,
                            text: "\n{ \"decision\": \"allow\", \"risk\": \"medium\" }\n".into(),
                        },
                    ],
                    finish: Some("stop".into()),
                    data_after_finish: false,
                    delay_ms: 0,
                },
            ),
        ],
        ReviewerClass::Deny => vec![(
            SchemaView::PRESENT,
            text(r#"{"risk":"medium","decision":"deny"}"#),
        )],
        ReviewerClass::DenyReason => vec![(
            SchemaView::PRESENT,
            text(
                r#"{"risk":"high","decision":"deny","reason":"sends a credential to an external host"}"#,
            ),
        )],
        ReviewerClass::Failure => vec![
            (
                SchemaView::PRESENT,
                Attempt::Finish {
                    finish: FailedFinish {
                        kind: FailedFinishKind::Error,
                        code: "TRANSPORT".into(),
                        message: json!("Connection error"),
                    },
                    delay_ms: 0,
                },
            ),
            (
                SchemaView::PRESENT,
                Attempt::Throw {
                    throw: json!("middleware refused"),
                    delay_ms: 0,
                },
            ),
            (
                SchemaView::PRESENT,
                text("I'll start by listing the project files."),
            ),
            (
                SchemaView::PRESENT,
                Attempt::Blocks {
                    blocks: vec![Block {
                        kind: BlockKind::Text,
                        text: r#"{"risk":"low","#.into(),
                    }],
                    finish: Some("max-tokens".into()),
                    data_after_finish: false,
                    delay_ms: 0,
                },
            ),
            (
                SchemaView::PRESENT,
                Attempt::Finish {
                    finish: FailedFinish {
                        kind: FailedFinishKind::Aborted,
                        code: "UNKNOWN".into(),
                        message: json!({"reason": "stream closed"}),
                    },
                    delay_ms: 0,
                },
            ),
            (
                SchemaView::PRESENT,
                text(r#"{"risk":"low","decision":"allow","reason":"fine"}"#),
            ),
        ],
        ReviewerClass::PreRequestFailure => vec![
            (missing, text(r#"{"risk":"low","decision":"allow"}"#)),
            (ambiguous, text(r#"{"risk":"high","decision":"deny"}"#)),
        ],
        ReviewerClass::Pending => vec![(SchemaView::PRESENT, Attempt::Hang { hang: HangFlag })],
    }
}

/// Every reviewer class the scripts are drawn for.
pub const REVIEWER_CLASSES: [ReviewerClass; 6] = [
    ReviewerClass::Allow,
    ReviewerClass::Deny,
    ReviewerClass::DenyReason,
    ReviewerClass::Failure,
    ReviewerClass::PreRequestFailure,
    ReviewerClass::Pending,
];

/// Tool names that exercise quoting: plain, with quotes and backslashes, empty, non-ASCII, and one
/// that looks like a placeholder.
pub const TOOL_NAMES: [&str; 6] = [
    "pwsh",
    "list_agents",
    "say \"hi\" \\ bye",
    "",
    "读取文件",
    "<reason>",
];

const POLICIES: [(Option<ApprovalPolicy>, ApprovalPolicy); 6] = [
    (Some(ApprovalPolicy::Ask), ApprovalPolicy::Ask),
    (Some(ApprovalPolicy::Ask), ApprovalPolicy::Never),
    (Some(ApprovalPolicy::Never), ApprovalPolicy::Ask),
    (Some(ApprovalPolicy::Never), ApprovalPolicy::Never),
    (None, ApprovalPolicy::Ask),
    (None, ApprovalPolicy::Never),
];
const CALLS: [CallKind; 3] = [CallKind::Native, CallKind::PtcInner, CallKind::RunCode];
const PRESETS: [Preset; 4] = [
    Preset::Auto,
    Preset::DangerFullAccess,
    Preset::WorkspaceWrite,
    Preset::ReadOnly,
];
const APPROVALS: [ApprovalAnswer; 5] = [
    ApprovalAnswer::AllowedOnce,
    ApprovalAnswer::Rejected,
    ApprovalAnswer::Cancelled,
    ApprovalAnswer::Unavailable,
    ApprovalAnswer::Throws,
];
/// Abort points, with whether the session is listed when the integration is disposed
/// (AR-DISPOSE-1): that matters only where the lifecycle aborts before the gate acts, so only
/// those points take both values.
const ABORTS: [(AbortPoint, bool); 8] = [
    (AbortPoint::None, true),
    (AbortPoint::LifecycleBeforeReview, true),
    (AbortPoint::LifecycleBeforeReview, false),
    (AbortPoint::LifecycleAfterReview, true),
    (AbortPoint::LifecycleDuringDownstream, true),
    (AbortPoint::LifecycleDuringDownstream, false),
    (AbortPoint::CallerBeforeDispatch, true),
    (AbortPoint::CallerDuringReview, true),
];
const DOWNSTREAM_KINDS: usize = 4;

/// The configurations a profile's space ranges over, by the `config` members it reads: the
/// reaction to failures (AR-RES-FAIL-1) and whether this call's failure reaches the hint threshold
/// (AR-RES-HINT-2); a profile that reads neither has one configuration.
fn configs(profile: Profile) -> Vec<(OnFailure, u32)> {
    let reactions: &[OnFailure] = if profile.reads_config("on_failure") {
        &[OnFailure::Ask, OnFailure::Deny]
    } else {
        &[OnFailure::Ask]
    };
    let thresholds: &[u32] = if profile.reads_config("failure_hint_after") {
        &[0, 2]
    } else {
        &[0]
    };
    reactions
        .iter()
        .flat_map(|r| thresholds.iter().map(move |t| (*r, *t)))
        .collect()
}

/// The number of points in a profile's space.
pub fn size(profile: Profile) -> usize {
    2 * CALLS.len()
        * PRESETS.len()
        * POLICIES.len()
        * REVIEWER_CLASSES.len()
        * DOWNSTREAM_KINDS
        * APPROVALS.len()
        * ABORTS.len()
        * configs(profile).len()
}

/// Every point of a profile's input space, with the reviewer class its script was drawn for.
pub fn points(profile: Profile) -> impl Iterator<Item = (ReviewerClass, Scenario)> {
    (0..size(profile)).map(move |n| point(profile, n))
}

/// The `n`th point: `n` is read as a mixed-radix number over the dimensions; tool names,
/// representatives and downstream info are picked by a hash of `n`, so that they vary independently
/// of every dimension.
pub fn point(profile: Profile, n: usize) -> (ReviewerClass, Scenario) {
    let h = ((n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 29) as usize;
    let mut k = n;
    let mut digit = |radix: usize| {
        let d = k % radix;
        k /= radix;
        d
    };
    let (abort, listed) = ABORTS[digit(ABORTS.len())];
    let approval = APPROVALS[digit(APPROVALS.len())];
    let downstream = match digit(DOWNSTREAM_KINDS) {
        0 => Downstream::Allow,
        1 => Downstream::Deny {
            reason: "blocked by hook".into(),
            info: h.is_multiple_of(2).then(|| {
                let mut m = serde_json::Map::new();
                m.insert("name".into(), "HookDenied".into());
                m.insert("code".into(), "HOOK_DENIED".into());
                m
            }),
        },
        2 => Downstream::Cancel,
        _ => Downstream::Ask {
            reason: "hook wants a human".into(),
        },
    };
    let class = REVIEWER_CLASSES[digit(REVIEWER_CLASSES.len())];
    let (override_, default) = POLICIES[digit(POLICIES.len())];
    let preset = PRESETS[digit(PRESETS.len())];
    let call = CALLS[digit(CALLS.len())];
    let agent = digit(2) == 0;
    let configs = configs(profile);
    let (on_failure, consecutive_failures) = configs[digit(configs.len())];
    let reps = representatives(class);
    let rep = reps[(h / 2) % reps.len()].clone();
    // RZ-1..3: the transport is named `run_code`, and a program's binding is never ambiguous.
    let scenario = crate::scenario::realizable::realize(Scenario {
        id: None,
        tool: Tool {
            name: TOOL_NAMES[(h / 16) % TOOL_NAMES.len()].into(),
            call,
        },
        agent,
        preset,
        policy: Policy { override_, default },
        schema: rep.schema,
        log: rep.log,
        reviewer: Reviewer::One(rep.attempt),
        downstream,
        approval,
        abort,
        session: Session {
            consecutive_failures,
            listed,
            route: rep.route,
            ..Session::default()
        },
        config: Config {
            on_failure,
            ..Config::default()
        },
        body: Vec::new(),
    });
    (class, scenario)
}
