//! Proptest strategies over the whole scenario space, weighted toward the regions where gates go
//! wrong: reviewer failures, denials, hostile replies, asks and cancellations. The test suite's
//! properties and generated conformance runs draw from these.

use proptest::prelude::*;
use serde_json::{Map, Value};

use crate::scenario::{
    AbortPoint, ApprovalAnswer, ApprovalPolicy, Attempt, Block, BlockKind, CallKind, Config,
    Downstream, FailedFinish, FailedFinishKind, HangFlag, OnFailure, Policy, Preset, Reviewer,
    Route, Scenario, SchemaCount, SchemaView, Session, Tool,
};

/// Tool names, including the awkward ones every text must quote verbatim.
pub fn tool_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec!["pwsh", "list_agents", "working_directory", "mcp__windows__PowerShell", "run_code"]).prop_map(str::to_owned),
        1 => Just(String::new()),
        2 => "[a-z\"\\\\<>{} ]{1,10}",
        1 => "\\PC{1,8}",
        1 => prop::sample::select(vec!["读取文件", "say \"hi\"", "back\\slash", "<name>", "emoji 🚀"]).prop_map(str::to_owned),
    ]
}

/// Any JSON value of small depth, for provider messages and thrown values.
pub fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e25f64..1e25).prop_map(Value::from),
        "\\PC{0,16}".prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

/// A reviewer reason: plain, multi-line, non-ASCII, or containing JSON punctuation.
pub fn reason() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,24}",
        "\\PC{0,16}",
        Just("line one\n  line two  ".to_owned()),
        Just("{\"risk\":\"low\",\"decision\":\"allow\"}".to_owned()),
    ]
}

/// One of the six legal protocol objects, as compact JSON text.
pub fn legal_object() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(r#"{"risk":"low","decision":"allow"}"#.to_owned()),
        Just(r#"{"risk":"medium","decision":"allow"}"#.to_owned()),
        Just(r#"{"risk":"medium","decision":"deny"}"#.to_owned()),
        Just(r#"{"risk":"high","decision":"deny"}"#.to_owned()),
        (prop::sample::select(vec!["medium", "high"]), reason()).prop_map(|(risk, r)| {
            serde_json::json!({"risk": risk, "decision": "deny", "reason": r}).to_string()
        }),
    ]
}

/// Reviewer text that is not a bare legal object: prose, markup, near-misses, fences.
pub fn noisy_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<tool_call>{\"name\": \"list_agents\", \"arguments\": {}}</tool_call>".to_owned()),
        Just("<\u{ff5c}\u{ff5c}DSML\u{ff5c}\u{ff5c}function_calls>".to_owned()),
        Just("根据之前的侦察，我已经确认了目录结构。".to_owned()),
        Just("I'll start by listing the files.".to_owned()),
        Just("```toolCall\n{\"name\":\"bash\"}\n```".to_owned()),
        legal_object().prop_map(|o| format!("```json\n{o}\n```")),
        legal_object().prop_map(|o| format!("Let me check. {o}")),
        Just(r#"{"risk":"low","decision":"allow","reason":"fine"}"#.to_owned()),
        Just(r#"{"risk":"low","decision":"deny"}"#.to_owned()),
        Just(r#"{"risk":"high","decision":"allow"}"#.to_owned()),
        Just(r#"{"decision":"deny","decision":"allow","risk":"low"}"#.to_owned()),
        Just(r#"{"risk":"LOW","decision":"Allow"}"#.to_owned()),
        Just("null".to_owned()),
        Just("[]".to_owned()),
        "\\PC{0,40}",
    ]
}

fn block_kind() -> impl Strategy<Value = BlockKind> {
    prop_oneof![
        3 => Just(BlockKind::Reasoning),
        3 => Just(BlockKind::Text),
        1 => Just(BlockKind::ToolCall),
    ]
}

/// How long an attempt takes: usually at once, sometimes long enough to matter for the deadline.
pub fn delay_ms() -> impl Strategy<Value = u64> {
    prop_oneof![6 => Just(0u64), 1 => 1u64..5_000, 1 => 20_000u64..70_000]
}

/// One reviewer attempt, weighted toward failures and denials.
pub fn attempt() -> impl Strategy<Value = Attempt> {
    (untimed_attempt(), delay_ms()).prop_map(|(mut a, d)| {
        match &mut a {
            Attempt::Text { delay_ms, .. }
            | Attempt::Blocks { delay_ms, .. }
            | Attempt::Finish { delay_ms, .. }
            | Attempt::Throw { delay_ms, .. } => *delay_ms = d,
            Attempt::Hang { .. } => {}
        }
        a
    })
}

fn untimed_attempt() -> impl Strategy<Value = Attempt> {
    prop_oneof![
        4 => legal_object().prop_map(Attempt::text),
        3 => noisy_text().prop_map(Attempt::text),
        2 => (
            prop::collection::vec(
                (block_kind(), prop_oneof![legal_object(), noisy_text()])
                    .prop_map(|(kind, text)| Block { kind, text }),
                0..4,
            ),
            prop_oneof![5 => Just("stop".to_owned()), 1 => Just("max-tokens".to_owned()), 1 => Just("content-filter".to_owned())],
            prop::bool::weighted(0.15),
        )
            .prop_map(|(blocks, finish, data_after_finish)| Attempt::Blocks {
                blocks,
                finish,
                data_after_finish,
                delay_ms: 0,
            }),
        3 => (
            prop_oneof![3 => Just(FailedFinishKind::Error), 1 => Just(FailedFinishKind::Aborted)],
            prop::sample::select(vec!["TRANSPORT", "TIMEOUT", "QUOTA_EXCEEDED", "UNKNOWN", "HTTP_429", "BAD_REQUEST"]),
            prop_oneof![
                prop::sample::select(vec!["Connection error", "HTTP 402 Payment Required", "sse transport error: terminated", "request timed out"])
                    .prop_map(|s| Value::String(s.to_owned())),
                json_value(),
            ],
        )
            .prop_map(|(kind, code, message)| Attempt::Finish {
                finish: FailedFinish {
                    kind,
                    code: code.to_owned(),
                    message,
                },
                delay_ms: 0,
            }),
        1 => json_value().prop_map(|throw| Attempt::Throw { throw, delay_ms: 0 }),
        1 => Just(Attempt::Hang { hang: HangFlag }),
    ]
}

/// A downstream decision.
pub fn downstream() -> impl Strategy<Value = Downstream> {
    prop_oneof![
        4 => Just(Downstream::Allow),
        2 => ("[a-z ]{1,20}", proptest::option::of(Just(()))).prop_map(|(reason, info)| Downstream::Deny {
            reason,
            info: info.map(|_| {
                let mut m = Map::new();
                m.insert("name".into(), "HookDenied".into());
                m.insert("code".into(), "HOOK_DENIED".into());
                m
            }),
        }),
        1 => Just(Downstream::Cancel),
        2 => "[a-z ]{1,20}".prop_map(|reason| Downstream::Ask { reason }),
    ]
}

fn policy() -> impl Strategy<Value = Policy> {
    let p = || prop_oneof![Just(ApprovalPolicy::Ask), Just(ApprovalPolicy::Never)];
    (proptest::option::of(p()), p()).prop_map(|(override_, default)| Policy { override_, default })
}

fn schema_view() -> impl Strategy<Value = SchemaView> {
    let count = || prop_oneof![8 => Just(SchemaCount::Present), 1 => Just(SchemaCount::Missing), 1 => Just(SchemaCount::Ambiguous)];
    (count(), count()).prop_map(|(header, registry)| SchemaView { header, registry })
}

fn route() -> impl Strategy<Value = Route> {
    prop::sample::select(vec![
        ("qodercn", "qfmodel"),
        ("qodercn", "dfmodel"),
        ("buddy", "deepseek-v4.1-flash"),
        ("default", "default"),
    ])
    .prop_map(|(p, m)| Route {
        provider: p.into(),
        model: m.into(),
    })
}

/// The session's route and failure count.
pub fn session() -> impl Strategy<Value = Session> {
    (route(), prop_oneof![3 => Just(0u32), 2 => 1u32..6]).prop_map(
        |(route, consecutive_failures)| Session {
            route,
            consecutive_failures,
        },
    )
}

/// A configuration: defaults most of the time, every member varied sometimes.
pub fn config() -> impl Strategy<Value = Config> {
    prop_oneof![
        3 => Just(Config::default()),
        2 => (
            prop_oneof![Just(OnFailure::Ask), Just(OnFailure::Deny)],
            0u32..3,
            0u32..3,
            prop_oneof![Just(60_000u64), 1_000u64..90_000],
            proptest::option::of(route()),
            1u32..5,
            any::<bool>(),
        )
            .prop_map(|(on_failure, repair_attempts, transport_retries, review_timeout_ms, reviewer_route, failure_hint_after, strict_allow)| Config {
                on_failure,
                repair_attempts,
                transport_retries,
                review_timeout_ms,
                reviewer_route,
                failure_hint_after,
                strict_allow,
            }),
    ]
}

/// A whole scenario, weighted toward reviewed calls.
pub fn scenario() -> impl Strategy<Value = Scenario> {
    (
        (tool_name(), prop_oneof![6 => Just(CallKind::Native), 2 => Just(CallKind::PtcInner), 1 => Just(CallKind::RunCode)]),
        prop::bool::weighted(0.9),
        prop_oneof![8 => Just(Preset::Auto), 1 => Just(Preset::DangerFullAccess), 1 => Just(Preset::WorkspaceWrite), 1 => Just(Preset::ReadOnly)],
        policy(),
        schema_view(),
        prop_oneof![
            3 => attempt().prop_map(Reviewer::One),
            1 => prop::collection::vec(attempt(), 1..4).prop_map(Reviewer::Many),
        ],
        downstream(),
        prop::sample::select(vec![
            ApprovalAnswer::AllowedOnce,
            ApprovalAnswer::Rejected,
            ApprovalAnswer::Cancelled,
            ApprovalAnswer::Unavailable,
            ApprovalAnswer::Throws,
        ]),
        prop_oneof![
            8 => Just(AbortPoint::None),
            1 => Just(AbortPoint::LifecycleBeforeReview),
            1 => Just(AbortPoint::LifecycleAfterReview),
            1 => Just(AbortPoint::LifecycleDuringDownstream),
            1 => Just(AbortPoint::CallerBeforeDispatch),
            2 => Just(AbortPoint::CallerDuringReview),
        ],
        session(),
        config(),
    )
        .prop_map(
            |((name, call), agent, preset, policy, schema, reviewer, downstream, approval, abort, session, config)| Scenario {
                id: None,
                tool: Tool { name, call },
                agent,
                preset,
                policy,
                schema,
                reviewer,
                downstream,
                approval,
                abort,
                session,
                config,
            },
        )
}
