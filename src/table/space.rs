//! The whole input space of a profile's table: every combination of policy, preset, call kind,
//! reviewer outcome class, downstream kind, approval answer and abort point, each made concrete by
//! a representative scenario.

use serde_json::json;

use super::features::ReviewerClass;
use crate::scenario::{
    AbortPoint, ApprovalAnswer, ApprovalPolicy, Attempt, Block, BlockKind, CallKind, Downstream,
    FailedFinish, FailedFinishKind, HangFlag, Policy, Preset, Reviewer, Scenario, SchemaView, Tool,
};

/// Every reviewer outcome class with its representative replies; the enumeration rotates through
/// them so each representative meets many points.
pub fn representatives(class: ReviewerClass) -> Vec<(SchemaView, Attempt)> {
    let text = |t: &str| Attempt::Text { text: t.to_owned() };
    match class {
        ReviewerClass::Allow => vec![
            (
                SchemaView::Present,
                text(r#"{"risk":"low","decision":"allow"}"#),
            ),
            (
                SchemaView::Present,
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
                    finish: "stop".into(),
                    data_after_finish: false,
                },
            ),
        ],
        ReviewerClass::Deny => vec![(
            SchemaView::Present,
            text(r#"{"risk":"medium","decision":"deny"}"#),
        )],
        ReviewerClass::DenyReason => vec![(
            SchemaView::Present,
            text(
                r#"{"risk":"high","decision":"deny","reason":"sends a credential to an external host"}"#,
            ),
        )],
        ReviewerClass::Failure => vec![
            (
                SchemaView::Present,
                Attempt::Finish {
                    finish: FailedFinish {
                        kind: FailedFinishKind::Error,
                        code: "TRANSPORT".into(),
                        message: json!("Connection error"),
                    },
                },
            ),
            (
                SchemaView::Present,
                Attempt::Throw {
                    throw: json!("middleware refused"),
                },
            ),
            (
                SchemaView::Present,
                text("I'll start by listing the project files."),
            ),
            (
                SchemaView::Present,
                Attempt::Blocks {
                    blocks: vec![Block {
                        kind: BlockKind::Text,
                        text: r#"{"risk":"low","#.into(),
                    }],
                    finish: "max-tokens".into(),
                    data_after_finish: false,
                },
            ),
            (
                SchemaView::Present,
                Attempt::Finish {
                    finish: FailedFinish {
                        kind: FailedFinishKind::Aborted,
                        code: "UNKNOWN".into(),
                        message: json!({"reason": "stream closed"}),
                    },
                },
            ),
            (
                SchemaView::Present,
                text(r#"{"risk":"low","decision":"allow","reason":"fine"}"#),
            ),
        ],
        ReviewerClass::SchemaFailure => vec![
            (
                SchemaView::Missing,
                text(r#"{"risk":"low","decision":"allow"}"#),
            ),
            (
                SchemaView::Ambiguous,
                text(r#"{"risk":"high","decision":"deny"}"#),
            ),
        ],
        ReviewerClass::Hang => vec![(SchemaView::Present, Attempt::Hang { hang: HangFlag })],
    }
}

/// Every reviewer class.
pub const REVIEWER_CLASSES: [ReviewerClass; 6] = [
    ReviewerClass::Allow,
    ReviewerClass::Deny,
    ReviewerClass::DenyReason,
    ReviewerClass::Failure,
    ReviewerClass::SchemaFailure,
    ReviewerClass::Hang,
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
const ABORTS: [AbortPoint; 6] = [
    AbortPoint::None,
    AbortPoint::LifecycleBeforeReview,
    AbortPoint::LifecycleAfterReview,
    AbortPoint::LifecycleDuringDownstream,
    AbortPoint::CallerBeforeDispatch,
    AbortPoint::CallerDuringReview,
];
const DOWNSTREAM_KINDS: usize = 4;

/// The number of points in the space.
pub const SIZE: usize = 2
    * CALLS.len()
    * PRESETS.len()
    * POLICIES.len()
    * REVIEWER_CLASSES.len()
    * DOWNSTREAM_KINDS
    * APPROVALS.len()
    * ABORTS.len();

/// Every point of the input space, with the reviewer class it was built from.
pub fn points() -> impl Iterator<Item = (ReviewerClass, Scenario)> {
    (0..SIZE).map(point)
}

/// The `n`th point: `n` is read as a mixed-radix number over the dimensions; tool names,
/// representatives and downstream info are picked by a hash of `n`, so that they vary independently
/// of every dimension.
pub fn point(n: usize) -> (ReviewerClass, Scenario) {
    let h = ((n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 29) as usize;
    let mut k = n;
    let mut digit = |radix: usize| {
        let d = k % radix;
        k /= radix;
        d
    };
    let abort = ABORTS[digit(ABORTS.len())];
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
    let reps = representatives(class);
    let (schema, attempt) = reps[(h / 2) % reps.len()].clone();
    (
        class,
        Scenario {
            id: None,
            tool: Tool {
                name: TOOL_NAMES[(h / 16) % TOOL_NAMES.len()].into(),
                call,
            },
            agent,
            preset,
            policy: Policy { override_, default },
            schema,
            reviewer: Reviewer::One(attempt),
            downstream,
            approval,
            abort,
        },
    )
}
