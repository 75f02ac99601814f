//! The scenario generator, weighted toward the regions where gates go wrong: reviewer failures,
//! denials, hostile replies, asks and cancellations. Each member is drawn in one place, from a
//! seeded random stream: [`direct`] draws calls (and the texts, values and members they are made
//! of) from the tables below, [`sessions`] draws sessions of such calls. Case `k` of seed `s` is
//! the same scenario on every machine.
//!
//! Generated conformance runs draw from the stream directly (`runner::generated`). The test
//! suite's properties draw the same scenarios through proptest: the strategies here
//! ([`scenario`], [`noisy_text`], any draw through [`seeded`]) take a seed from proptest and draw
//! with [`direct`], and a failing property is shrunk member by member by the same simplifications
//! a generated run's counterexample is shrunk with ([`shrink`]), so it reports a small scenario,
//! not a seed. A scenario a property once failed on under a seed that no longer draws it is given
//! for that seed ([`Seeded::recorded`]), so the regression files keep their meaning.

pub mod coverage;
pub mod direct;
pub mod numbers;
pub mod sessions;
pub mod shrink;
pub mod simplest;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

use crate::scenario::session::EventKind;
use crate::scenario::{
    AbortPoint, Answer, ApprovalAnswer, BlockKind, CallIdOf, CallKind, FailedFinishKind,
    LeftPreset, LogFact, Preset, Scenario, SchemaCount,
};
use direct::Rng;

/// A proptest strategy that draws with one of [`direct`]'s functions (or [`sessions`]'): proptest
/// supplies a seed, and the value is what the function draws from case 0 of that seed
/// ([`Seeded::draw`]). It shrinks by the one-step simplifications it is given ([`shrink`]); a
/// strategy given none keeps its drawn value.
pub struct Seeded<T> {
    draw: fn(&mut Rng) -> T,
    simpler: fn(&T) -> Vec<T>,
}

impl<T> Clone for Seeded<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Seeded<T> {}

impl<T> std::fmt::Debug for Seeded<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Seeded")
    }
}

impl<T> Seeded<T> {
    /// What the strategy gives for proptest's seed `seed`.
    pub fn draw(&self, seed: u64) -> T {
        (self.draw)(&mut Rng::for_case(seed, 0))
    }

    /// The same draws, shrunk by `simpler`'s one-step simplifications, simplest first.
    pub fn shrinking_by(self, simpler: fn(&T) -> Vec<T>) -> Seeded<T> {
        Seeded { simpler, ..self }
    }
}

impl<T: Clone + std::fmt::Debug + PartialEq> Strategy for Seeded<T> {
    type Tree = shrink::Shrinking<T>;
    type Value = T;

    fn new_tree(&self, runner: &mut TestRunner) -> proptest::strategy::NewTree<Self> {
        let seed = proptest::num::u64::ANY.new_tree(runner)?.current();
        Ok(shrink::Shrinking::new(self.draw(seed), self.simpler))
    }
}

/// A [`Seeded`] strategy that gives a recorded value for each of some seeds instead of what it
/// draws from them, shrinking it the same way: for the counterexamples proptest recorded a
/// property failing on, under seeds that no longer draw them (a generator before this one drew
/// them). The seed a persisted failure gives is found by replaying it.
#[derive(Debug)]
pub struct Recorded<T> {
    recorded: Vec<(u64, T)>,
    then: Seeded<T>,
}

impl<T> Seeded<T> {
    /// This strategy, with `recorded`'s value given for its seed instead of the draw.
    pub fn recorded(self, recorded: Vec<(u64, T)>) -> Recorded<T> {
        Recorded {
            recorded,
            then: self,
        }
    }
}

impl<T: Clone> Recorded<T> {
    /// The recorded values, in the order given.
    pub fn values(&self) -> Vec<T> {
        self.recorded.iter().map(|(_, v)| v.clone()).collect()
    }
}

impl<T: Clone + std::fmt::Debug + PartialEq> Strategy for Recorded<T> {
    type Tree = shrink::Shrinking<T>;
    type Value = T;

    fn new_tree(&self, runner: &mut TestRunner) -> proptest::strategy::NewTree<Self> {
        let seed = proptest::num::u64::ANY.new_tree(runner)?.current();
        let value = match self.recorded.iter().find(|(s, _)| *s == seed) {
            Some((_, value)) => value.clone(),
            None => self.then.draw(seed),
        };
        Ok(shrink::Shrinking::new(value, self.then.simpler))
    }
}

/// The seed a [`Seeded`] strategy draws from when proptest replays the failure it persisted as
/// `cc <hex>` (a regression file's line), so that a recorded value can be given for it.
pub fn persisted_seed(hex: &str) -> u64 {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("a persisted seed is hex"))
        .collect();
    let rng = proptest::test_runner::TestRng::from_seed(
        proptest::test_runner::RngAlgorithm::ChaCha,
        &bytes,
    );
    let mut runner = TestRunner::new_with_rng(proptest::test_runner::Config::default(), rng);
    proptest::num::u64::ANY
        .new_tree(&mut runner)
        .expect("a u64 is always drawn")
        .current()
}

/// `draw` as a proptest strategy that keeps its drawn value: for values whose own shrinking a
/// property does not need (give it some with [`Seeded::shrinking_by`]).
pub fn seeded<T>(draw: fn(&mut Rng) -> T) -> Seeded<T> {
    Seeded {
        draw,
        simpler: |_| Vec::new(),
    }
}

/// Whole scenarios, as [`direct::scenario`] draws them; a failing property shrinks one by
/// [`shrink::simpler_call`], member by member toward the scenario format's defaults, so a shrunk
/// counterexample names only the members that matter.
pub fn scenario() -> Seeded<Scenario> {
    seeded(direct::scenario).shrinking_by(shrink::simpler_call)
}

/// [`scenario`], giving each of `recorded` — a seed as a proptest regression file writes it (hex)
/// and the scenario, as JSON, it drew when the file was written — for its seed.
pub fn scenario_recorded(recorded: &[(&str, &str)]) -> Recorded<Scenario> {
    scenario().recorded(
        recorded
            .iter()
            .map(|(cc, s)| {
                (
                    persisted_seed(cc),
                    Scenario::from_json(s).expect("a recorded scenario reads"),
                )
            })
            .collect(),
    )
}

/// Reviewer text that is not a bare legal object, as [`direct::noisy_text`] draws it; a failing
/// property shrinks it toward the empty text, a bare allow and the JSON it holds written plainly
/// ([`simplest::texts`]).
pub fn noisy_text() -> Seeded<String> {
    seeded(direct::noisy_text).shrinking_by(|t| simplest::texts(t))
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
/// opening lines that say more than a language name, and, two times in nine, one that holds a
/// deny (AR-TOL-4: the fence then stays, and the deny is a candidate beside the object, which a
/// reader that cut the line away would miss). No info string at all keeps its one time in nine,
/// which a baseline run needs to meet a fenced allow without one.
pub const FENCE_INFOS: [(u32, &str); 10] = [
    (3, ""),
    (2, "json"),
    (2, " JSON "),
    (2, "c++"),
    (2, "json5"),
    (2, "json title=\"decision\""),
    (2, "json:"),
    (2, "text/json"),
    (2, "<json>"),
    (6, "json {\"risk\":\"high\",\"decision\":\"deny\"}"),
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

/// What a drawn mode fence rejects a change of mode with (AR-CONFINE-3): the text is the
/// rejecter's, so the gate must pass it on verbatim, an empty or multi-line one included.
pub const REJECTIONS: [&str; 4] = [
    "cannot change sandbox mode while persistent terminal sessions are open",
    "sandbox mode is managed by the deployment",
    "沙箱模式正由终端会话使用\nclose it first",
    "",
];

/// The presets a drawn body selects (AR-RESULT-7).
pub const LEFT_PRESETS: [LeftPreset; 2] =
    [LeftPreset::WorkspaceWrite, LeftPreset::DangerFullAccess];

/// Which call a drawn body's approval request names, and how often: mostly its own (a single
/// call names no finished call, RZ-11).
pub const RAISED_IDS: [(u32, CallIdOf); 3] = [
    (6, CallIdOf::Own),
    (1, CallIdOf::None),
    (1, CallIdOf::Unreviewed),
];

/// The reasons of a drawn body's approval requests: an escalation as the shipped gate's tests
/// word it, one in another language over two lines, and an empty one.
pub const RAISED_REASONS: [&str; 3] = [
    "escalate sandbox to danger-full-access: test",
    "写入工作区之外\nnetwork access",
    "",
];

/// The answers a human gives a drawn body's request where the step names one.
pub const RAISED_ANSWERS: [Answer; 4] = [
    Answer::AllowedOnce,
    Answer::Rejected,
    Answer::Cancelled,
    Answer::Unavailable,
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
pub const SESSION_PLANS: [(u32, Option<sessions::Plan>); 5] = [
    (3, None),
    (1, Some(sessions::Plan::Count)),
    (1, Some(sessions::Plan::Disposal)),
    (1, Some(sessions::Plan::Selection)),
    (1, Some(sessions::Plan::Grant)),
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

/// Complete routes, the scenario's default first: a shrunk scenario then names a route only when
/// the route matters.
pub const COMPLETE_ROUTES: [(&str, &str); 4] = [
    ("default", "default"),
    ("qodercn", "qfmodel"),
    ("qodercn", "dfmodel"),
    ("buddy", "deepseek-v4.1-flash"),
];
