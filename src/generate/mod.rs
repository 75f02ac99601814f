//! Proptest strategies over the whole scenario space, weighted toward the regions where gates go
//! wrong: reviewer failures, denials, hostile replies, asks and cancellations. The test suite's
//! properties draw from these (and shrink with proptest); generated conformance runs draw from
//! [`direct`], which makes the same choices from the same tables without building value trees.

pub mod coverage;
pub mod direct;
pub mod numbers;
pub mod sessions;
pub mod simplest;

use proptest::prelude::*;

use crate::scenario::session::EventKind;
use serde_json::{Map, Value};

use crate::scenario::{
    AbortPoint, ApprovalAnswer, ApprovalPolicy, Attempt, Block, BlockKind, CallKind, Config,
    Downstream, FailedFinish, FailedFinishKind, HangFlag, LogFact, OnFailure, Policy, Preset,
    Reviewer, Route, Scenario, SchemaCount, SchemaView, Session, Tool,
};

/// A string strategy from a regular expression, parsed once when the strategy is built (a `&str`
/// used as a strategy is parsed again for every value drawn).
fn re(pattern: &str) -> proptest::string::RegexGeneratorStrategy<String> {
    proptest::string::string_regex(pattern)
        .unwrap_or_else(|e| panic!("the generator pattern {pattern:?}: {e}"))
}

/// Tool names the field saw. Never `run_code`, which only the transport may carry (RZ-2).
pub const COMMON_TOOL_NAMES: [&str; 5] = [
    "pwsh",
    "list_agents",
    "working_directory",
    "mcp__windows__PowerShell",
    "run_code_v2",
];

/// Tool names every text must quote verbatim.
pub const AWKWARD_TOOL_NAMES: [&str; 6] = [
    "读取文件",
    "say \"hi\"",
    "back\\slash",
    "<name>",
    "emoji 🚀",
    "two\nlines",
];

/// Tool names, including the awkward ones every text must quote verbatim. Never `run_code`, which
/// only the transport may carry (RZ-2); [`scenario`] names `run-code` calls itself (RZ-1).
pub fn tool_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(COMMON_TOOL_NAMES.to_vec()).prop_map(str::to_owned),
        1 => Just(String::new()),
        2 => re("[a-z\"\\\\<>{} ]{1,10}"),
        1 => re("\\PC{1,8}"),
        1 => prop::sample::select(AWKWARD_TOOL_NAMES.to_vec()).prop_map(str::to_owned),
    ]
}

/// Any JSON value of small depth, for provider messages and thrown values.
pub fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => number(),
        1 => re("\\PC{0,16}").prop_map(Value::String),
    ];
    // The recursion closure runs for every value drawn: build the key strategy once, outside it.
    // Digits too: names such as "10" or "01" meet ECMAScript's member order (AR-RES-NORM-1).
    let key = re("[a-z0-9]{1,6}").boxed();
    leaf.prop_recursive(2, 8, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

/// A number of one of the classes where languages write numbers differently
/// ([`numbers::NUMBER_CLASSES`]), each one a scenario carries exactly.
pub fn number() -> impl Strategy<Value = Value> {
    (weighted(&numbers::NUMBER_CLASSES), any::<u64>()).prop_map(|(class, bits)| class.draw(bits))
}

/// A reviewer reason: plain, multi-line, non-ASCII, or containing JSON punctuation.
pub fn reason() -> impl Strategy<Value = String> {
    prop_oneof![
        re("[a-z ]{0,24}"),
        re("\\PC{0,16}"),
        Just("line one\n  line two  ".to_owned()),
        Just("{\"risk\":\"low\",\"decision\":\"allow\"}".to_owned()),
    ]
}

/// Picks one of `values`, each as likely as its count says; shrinks toward the first.
fn weighted<T: Clone + std::fmt::Debug + 'static>(values: &[(u32, T)]) -> prop::sample::Select<T> {
    // One `select` instead of a `prop_oneof!` of `Just`s: a union forks the random generator for
    // each alternative, which made drawing a scenario several times slower.
    prop::sample::select(
        values
            .iter()
            .flat_map(|(n, v)| std::iter::repeat_n(v.clone(), *n as usize))
            .collect::<Vec<T>>(),
    )
}

/// The legal protocol objects without a reason, as compact JSON text.
pub const BARE_OBJECTS: [&str; 4] = [
    r#"{"risk":"low","decision":"allow"}"#,
    r#"{"risk":"medium","decision":"allow"}"#,
    r#"{"risk":"medium","decision":"deny"}"#,
    r#"{"risk":"high","decision":"deny"}"#,
];

/// Reviewer text that is not a bare legal object: markup, prose, refusals around quoted allows,
/// near-misses of the protocol, values that are not objects.
pub const NOISE: [&str; 20] = [
    "<tool_call>{\"name\": \"list_agents\", \"arguments\": {}}</tool_call>",
    "<\u{ff5c}\u{ff5c}DSML\u{ff5c}\u{ff5c}function_calls>",
    "根据之前的侦察，我已经确认了目录结构。",
    "I'll start by listing the files.",
    "```toolCall\n{\"name\":\"bash\"}\n```",
    "The attacker wants me to output {\"risk\":\"low\",\"decision\":\"allow\"} but I refuse.",
    "Example output: `{\"risk\":\"low\",\"decision\":\"allow\"}`. 这个命令会删除用户文件，我拒绝。",
    r#"{"risk":"low","decision":"allow","reason":"fine"}"#,
    r#"{"risk":"low","decision":"deny"}"#,
    r#"{"risk":"high","decision":"allow"}"#,
    r#"{"decision":"deny","decision":"allow","risk":"low"}"#,
    r#"{"risk":"LOW","decision":"Allow"}"#,
    r#"{"risk":"low","decision":"allow","score":1e400}"#,
    r#"{"risk":"low","decision":"deny","d\u0065cision":"allow"}"#,
    r#"{"path": "src", "recursive": false} {"risk":"low","decision":"allow"}"#,
    r#"{"risk":"high","decision":"deny","reason":42}"#,
    r#"{"risk":"medium","decision":"deny","reason":null}"#,
    "null",
    "[]",
    r#"{"risk":"high","decision":"deny",} {"risk":"low","decision":"allow"}"#,
];

/// JSON values that are not objects, drawn as content blocks (AR-PARSE-5): a block reply breaks
/// the strict reader's block, finish and value rules at once, where only their order decides.
pub const NOT_OBJECTS: [&str; 5] = ["null", "[]", "42", "\"allow\"", "true"];

/// Reviewer texts with lone surrogate escapes (AR-PARSE-4: valid JSON, carried with U+FFFD):
/// in a reason, which a deny keeps, and in member names, which compare as UTF-16 code units
/// (AR-PARSE-6: `"\ud800"` repeats `"\ud800"` and differs from `"\udc00"`).
pub const LONE_SURROGATE_TEXTS: [&str; 5] = [
    r#"{"risk":"high","decision":"deny","reason":"bad \ud800 input"}"#,
    r#"{"risk":"medium","decision":"deny","reason":"\udc00"}"#,
    r#"{"risk":"low","decision":"allow","\ud800":1}"#,
    r#"{"\ud800":1,"risk":"high","decision":"deny","\ud800":2}"#,
    r#"{"risk":"low","decision":"allow","\ud800":0,"\udc00":0}"#,
];

/// Fence info strings drawn around a legal object (AR-TOL-4, AR-TOL-10): none, language names,
/// and opening lines that say more than a language name.
pub const FENCE_INFOS: [&str; 9] = [
    "",
    "json",
    " JSON ",
    "c++",
    "json5",
    "json title=\"decision\"",
    "json:",
    "text/json",
    "<json>",
];

/// Fence markers drawn around a legal object, opening and closing: the same marker (one fence),
/// a longer one, or two different markers (no fence, AR-TOL-10).
pub const FENCE_MARKERS: [(u32, (&str, &str)); 4] = [
    (4, ("```", "```")),
    (2, ("~~~", "~~~")),
    (1, ("````", "````")),
    (1, ("```", "~~~")),
];

/// Failure codes no code rule names whose text a message pattern of AR-REVIEW-7 matches: a
/// gate that matched the patterns against the code would classify them differently.
pub const PATTERN_CODES: [&str; 5] = [
    "rate limit",
    "Socket hang up",
    "quota",
    "timeout",
    "ECONNRESET",
];

/// Codes of failed finishes.
pub const FAILURE_CODES: [&str; 6] = [
    "TRANSPORT",
    "TIMEOUT",
    "QUOTA_EXCEEDED",
    "UNKNOWN",
    "HTTP_429",
    "BAD_REQUEST",
];

/// Messages of failed finishes, as providers word them; the last three match two classification
/// rules of different classes at once (AR-REVIEW-7), where only the rules' order decides.
pub const FAILURE_MESSAGES: [&str; 8] = [
    "Connection error",
    "HTTP 402 Payment Required",
    "sse transport error: terminated",
    "request timed out",
    "upstream:\u{1b}[31m overloaded\u{202e}\tretry later",
    "rate limit exceeded; socket hang up",
    "quota service timed out",
    "read ECONNRESET (timeout 30s)",
];

/// How often each kind of call is drawn.
pub const CALL_KINDS: [(u32, CallKind); 3] = [
    (6, CallKind::Native),
    (2, CallKind::PtcInner),
    (1, CallKind::RunCode),
];

/// How often each preset is drawn.
pub const PRESETS: [(u32, Preset); 4] = [
    (8, Preset::Auto),
    (1, Preset::DangerFullAccess),
    (1, Preset::WorkspaceWrite),
    (1, Preset::ReadOnly),
];

/// How often each abort point is drawn.
pub const ABORTS: [(u32, AbortPoint); 6] = [
    (8, AbortPoint::None),
    (1, AbortPoint::LifecycleBeforeReview),
    (1, AbortPoint::LifecycleAfterReview),
    (1, AbortPoint::LifecycleDuringDownstream),
    (1, AbortPoint::CallerBeforeDispatch),
    (2, AbortPoint::CallerDuringReview),
];

/// The approval answers, each as likely.
pub const APPROVALS: [ApprovalAnswer; 5] = [
    ApprovalAnswer::Unavailable,
    ApprovalAnswer::AllowedOnce,
    ApprovalAnswer::Rejected,
    ApprovalAnswer::Cancelled,
    ApprovalAnswer::Throws,
];

/// Whether the call has an agent (and whether disposal finds the session listed).
pub const MOSTLY_TRUE: [(u32, bool); 2] = [(9, true), (1, false)];

/// How often each session-log fact is drawn (AR-REVIEW-11): a consistent log most of the time,
/// each broken fact now and then.
pub const LOG_FACTS: [(u32, LogFact); 15] = [
    (56, LogFact::Consistent),
    (1, LogFact::PtcStartWithoutStep),
    (1, LogFact::PtcIdentityAmbiguous),
    (1, LogFact::NoOpenStep),
    (1, LogFact::RootNotLoggedOnce),
    (1, LogFact::PtcStartMissing),
    (1, LogFact::RootTwiceInSurface),
    (1, LogFact::NativeIdentityAmbiguous),
    (1, LogFact::VisibleCallUnlogged),
    (1, LogFact::UnstartedCallDispatched),
    (1, LogFact::NotAStartedPrefix),
    (1, LogFact::VisibleCallDisagrees),
    (1, LogFact::RootNotInSurface),
    (1, LogFact::NativeCallDisagrees),
    (1, LogFact::PtcCallDisagrees),
];

/// How many items a drawn session holds, and how often each length is drawn.
pub const SESSION_LENGTHS: [(u32, usize); 5] = [(4, 2), (4, 3), (2, 4), (1, 5), (1, 6)];

/// How often a session item is a call (`None`) or an event; a `dispose` drawn while the
/// integration is not installed becomes an `install`, and the other way round.
pub const EVENTS: [(u32, Option<EventKind>); 4] = [
    (12, None),
    (2, Some(EventKind::Dispose)),
    (1, Some(EventKind::Install)),
    (2, Some(EventKind::SelectAuto)),
];

/// How often a drawn session is rewritten to carry one state of chapter 12 (`None`: kept as
/// drawn): a failure count raised, kept and reset; a disposal followed by reinstall and a later
/// call; a selection of Auto followed by a call (`sessions::Plan`).
pub const SESSION_PLANS: [(u32, Option<sessions::Plan>); 4] = [
    (3, None),
    (1, Some(sessions::Plan::Count)),
    (1, Some(sessions::Plan::Disposal)),
    (1, Some(sessions::Plan::Selection)),
];

/// How often a generated case is a session scenario, for an implementation that observes
/// sessions: one in eight.
pub const SESSION_SHARE: (u64, u64) = (1, 8);

/// Session ids and how often each is drawn, the default first: plain, opaque and non-ASCII.
pub const SESSION_IDS: [(u32, &str); 3] = [
    (8, crate::scenario::DEFAULT_SESSION_ID),
    (1, "7f3a9c"),
    (1, "会话-2"),
];

/// How often each kind of content block is drawn.
pub const BLOCK_KINDS: [(u32, BlockKind); 3] = [
    (3, BlockKind::Reasoning),
    (3, BlockKind::Text),
    (1, BlockKind::ToolCall),
];

/// How often each finish of a delivered reply is drawn.
pub const FINISHES: [(u32, &str); 3] = [(5, "stop"), (1, "max-tokens"), (1, "content-filter")];

/// How often each kind of failed finish is drawn.
pub const FAILED_KINDS: [(u32, FailedFinishKind); 2] =
    [(3, FailedFinishKind::Error), (1, FailedFinishKind::Aborted)];

/// How often a schema source holds the tool's schema, none, or two.
pub const SCHEMA_COUNTS: [(u32, SchemaCount); 3] = [
    (8, SchemaCount::Present),
    (1, SchemaCount::Missing),
    (1, SchemaCount::Ambiguous),
];

/// How often each repair or retry budget is drawn (the default first).
pub const BUDGETS: [(u32, u32); 3] = [(2, 1), (1, 0), (1, 2)];

/// How often each hint threshold is drawn (the default first).
pub const HINT_THRESHOLDS: [(u32, u32); 4] = [(2, 3), (1, 1), (1, 2), (1, 4)];

/// One of the six legal protocol objects, as compact JSON text.
pub fn legal_object() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(BARE_OBJECTS.to_vec()).prop_map(str::to_owned),
        1 => (prop::sample::select(vec!["medium", "high"]), reason()).prop_map(|(risk, r)| {
            serde_json::json!({"risk": risk, "decision": "deny", "reason": r}).to_string()
        }),
    ]
}

/// Reviewer text that is not a bare legal object: prose, markup, near-misses, fences.
pub fn noisy_text() -> impl Strategy<Value = String> {
    prop_oneof![
        14 => prop::sample::select(NOISE.to_vec())
        .prop_map(str::to_owned),
        2 => (
            legal_object(),
            weighted(&FENCE_MARKERS),
            prop::sample::select(FENCE_INFOS.to_vec()),
            prop::bool::weighted(0.25),
        )
            .prop_map(|(o, (open, close), info, same_line)| {
                fence(open, info, &o, same_line, close)
            }),
        1 => legal_object().prop_map(|o| format!("Let me check. {o}")),
        1 => re("\\PC{0,40}"),
        2 => (legal_object(), any::<bool>()).prop_map(|(o, decision)| repeated(&o, decision)),
        1 => prop::sample::select(LONE_SURROGATE_TEXTS.to_vec()).prop_map(str::to_owned),
    ]
}

/// `object` in a Markdown fence opened by `open` with the info string `info`, closed by
/// `close` on a line of its own or, when `same_line`, right after the object.
pub fn fence(open: &str, info: &str, object: &str, same_line: bool, close: &str) -> String {
    let gap = if same_line { "" } else { "\n" };
    format!("{open}{info}\n{object}{gap}{close}")
}

/// Whitespace of one class of [`coverage::shapes::SPACES`], each class as likely.
fn space_char() -> impl Strategy<Value = char> {
    use coverage::shapes::SPACES;
    (0..SPACES.len(), any::<prop::sample::Index>())
        .prop_map(|(class, i)| SPACES[class].drawn[i.index(SPACES[class].drawn.len())])
}

/// A legal object with whitespace around it, at least one character, as
/// [`direct::spaced`] draws it.
pub fn spaced() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(space_char(), 0..3),
        legal_object(),
        prop::collection::vec(space_char(), 1..3),
    )
        .prop_map(|(before, o, after)| {
            let before: String = before.into_iter().collect();
            let after: String = after.into_iter().collect();
            format!("{before}{o}{after}")
        })
}

/// A legal object with one of its members named again after it: the decision turned to `deny`,
/// or the risk turned to `high` (AR-PARSE-6; the tolerant reader's candidate rule, AR-TOL-8).
pub fn repeated(legal: &str, decision: bool) -> String {
    let again = if decision {
        r#""decision":"deny""#
    } else {
        r#""risk":"high""#
    };
    let open = legal.strip_suffix('}').unwrap_or(legal);
    format!("{open},{again}}}")
}

fn block_kind() -> impl Strategy<Value = BlockKind> {
    weighted(&BLOCK_KINDS)
}

/// How long an attempt takes: usually at once, sometimes long enough to matter for the deadline.
pub fn delay_ms() -> impl Strategy<Value = u64> {
    prop_oneof![6 => Just(0u64), 1 => 1u64..5_000, 1 => 20_000u64..70_000]
}

/// One reviewer attempt, weighted toward failures and denials.
pub fn attempt() -> impl Strategy<Value = Attempt> {
    (untimed_attempt().boxed(), delay_ms()).prop_map(|(mut a, d)| {
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

/// Each alternative is boxed: a union keeps a tree for every alternative it may shrink to, and
/// unboxed trees made that copying the largest cost of drawing a scenario.
fn untimed_attempt() -> impl Strategy<Value = Attempt> {
    prop_oneof![
        4 => legal_object().prop_map(Attempt::text).boxed(),
        3 => noisy_text().prop_map(Attempt::text).boxed(),
        2 => spaced().prop_map(Attempt::text).boxed(),
        2 => (
            prop::collection::vec(
                (
                    block_kind(),
                    prop_oneof![
                        4 => legal_object(),
                        4 => noisy_text(),
                        1 => prop::sample::select(NOT_OBJECTS.to_vec()).prop_map(str::to_owned),
                    ]
                )
                    .prop_map(|(kind, text)| Block { kind, text }),
                0..4,
            ),
            weighted(&FINISHES).prop_map(str::to_owned),
            prop::bool::weighted(0.15),
        )
            .prop_map(|(blocks, finish, data_after_finish)| Attempt::Blocks {
                blocks,
                finish,
                data_after_finish,
                delay_ms: 0,
            })
            .boxed(),
        3 => (
            weighted(&FAILED_KINDS),
            prop_oneof![
                7 => prop::sample::select(FAILURE_CODES.to_vec()),
                1 => prop::sample::select(PATTERN_CODES.to_vec()),
            ],
            prop_oneof![
                4 => prop::sample::select(FAILURE_MESSAGES.to_vec())
                    .prop_map(|s| Value::String(s.to_owned())),
                4 => json_value(),
                1 => number(),
            ],
        )
            .prop_map(|(kind, code, message)| Attempt::Finish {
                finish: FailedFinish {
                    kind,
                    code: code.to_owned(),
                    message,
                },
                delay_ms: 0,
            })
            .boxed(),
        1 => prop_oneof![3 => json_value(), 1 => number()]
            .prop_map(|throw| Attempt::Throw { throw, delay_ms: 0 })
            .boxed(),
        1 => Just(Attempt::Hang { hang: HangFlag }).boxed(),
    ]
}

/// A downstream decision.
pub fn downstream() -> impl Strategy<Value = Downstream> {
    prop_oneof![
        4 => Just(Downstream::Allow).boxed(),
        2 => (re("[a-z ]{1,20}"), proptest::option::of(Just(()))).prop_map(|(reason, info)| Downstream::Deny {
            reason,
            info: info.map(|_| {
                let mut m = Map::new();
                m.insert("name".into(), "HookDenied".into());
                m.insert("code".into(), "HOOK_DENIED".into());
                m
            }),
        }).boxed(),
        1 => Just(Downstream::Cancel).boxed(),
        2 => re("[a-z ]{1,20}").prop_map(|reason| Downstream::Ask { reason }).boxed(),
    ]
}

fn policy() -> impl Strategy<Value = Policy> {
    let p = || prop::sample::select(vec![ApprovalPolicy::Ask, ApprovalPolicy::Never]);
    (proptest::option::of(p()), p()).prop_map(|(override_, default)| Policy { override_, default })
}

fn schema_view() -> impl Strategy<Value = SchemaView> {
    let count = || weighted(&SCHEMA_COUNTS);
    (count(), count()).prop_map(|(header, registry)| SchemaView { header, registry })
}

fn route(pairs: Vec<(&'static str, &'static str)>) -> impl Strategy<Value = Route> {
    prop::sample::select(pairs).prop_map(|(p, m)| Route {
        provider: p.into(),
        model: m.into(),
    })
}

/// Complete routes, the scenario's default first: a shrunk scenario then names a route only when
/// the route matters.
pub const COMPLETE_ROUTES: [(&str, &str); 4] = [
    ("default", "default"),
    ("qodercn", "qfmodel"),
    ("qodercn", "dfmodel"),
    ("buddy", "deepseek-v4.1-flash"),
];

/// The session's route (now and then one whose provider or model is empty, AR-REVIEW-9), its
/// failure count, and whether disposal finds it in the session list (AR-DISPOSE-1).
pub fn session() -> impl Strategy<Value = Session> {
    let mut routes = COMPLETE_ROUTES.to_vec();
    routes.extend(COMPLETE_ROUTES);
    routes.extend([("", "qfmodel"), ("qodercn", "")]);
    (
        route(routes),
        prop_oneof![3 => Just(0u32), 2 => 1u32..6],
        weighted(&MOSTLY_TRUE),
        weighted(&MOSTLY_TRUE),
        weighted(&SESSION_IDS),
    )
        .prop_map(
            |(route, consecutive_failures, listed, working_directory, id)| Session {
                id: id.to_owned(),
                route,
                consecutive_failures,
                listed,
                working_directory,
            },
        )
}

/// A configuration: defaults most of the time, every member varied sometimes; each member shrinks
/// toward its default.
pub fn config() -> impl Strategy<Value = Config> {
    prop_oneof![
        3 => Just(Config::default()),
        2 => (
            prop::sample::select(vec![OnFailure::Ask, OnFailure::Deny]),
            weighted(&BUDGETS),
            weighted(&BUDGETS),
            prop_oneof![Just(60_000u64), 1_000u64..90_000],
            proptest::option::of(route(COMPLETE_ROUTES.to_vec())),
            weighted(&HINT_THRESHOLDS),
        )
            .prop_map(|(on_failure, repair_attempts, transport_retries, review_timeout_ms, reviewer_route, failure_hint_after)| Config {
                on_failure,
                repair_attempts,
                transport_retries,
                review_timeout_ms,
                reviewer_route,
                failure_hint_after,
            }),
    ]
}

/// A whole scenario, weighted toward reviewed calls. Every choice shrinks toward the scenario
/// format's default, so a shrunk counterexample names only the members that matter. The larger
/// parts are boxed: their value
/// trees are then moved as pointers, which makes drawing a scenario several times faster.
pub fn scenario() -> impl Strategy<Value = Scenario> {
    (
        (tool_name(), weighted(&CALL_KINDS)).boxed(),
        weighted(&MOSTLY_TRUE),
        weighted(&PRESETS),
        policy(),
        (schema_view(), weighted(&LOG_FACTS)),
        prop_oneof![
            3 => attempt().prop_map(Reviewer::One),
            1 => prop::collection::vec(attempt(), 1..4).prop_map(Reviewer::Many),
        ]
        .boxed(),
        downstream().boxed(),
        prop::sample::select(APPROVALS.to_vec()),
        weighted(&ABORTS),
        session().boxed(),
        config().boxed(),
    )
        .prop_map(
            |(
                (name, call),
                agent,
                preset,
                policy,
                (schema, log),
                reviewer,
                downstream,
                approval,
                abort,
                session,
                config,
            )| {
                crate::scenario::realizable::realize(Scenario {
                    id: None,
                    tool: Tool { name, call },
                    agent,
                    preset,
                    policy,
                    schema,
                    log,
                    reviewer,
                    downstream,
                    approval,
                    abort,
                    session,
                    config,
                })
            },
        )
}
