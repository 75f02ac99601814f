//! Scenarios drawn from a seeded random stream: the one place each member of a call is drawn, for
//! generated conformance runs and, through the strategies of the parent module, for the test
//! suite's properties. Case `k` of seed `s` is the same scenario on every machine. Nothing here
//! builds a value tree: a difference found on a drawn scenario, or a property failing on one, is
//! shrunk member by member ([`super::shrink`]).

use serde_json::{Map, Value};

use super::{
    ABORTS, APPROVALS, AWKWARD_TOOL_NAMES, BARE_OBJECTS, BLOCK_KINDS, BUDGETS, CALL_KINDS,
    COMMON_TOOL_NAMES, COMPLETE_ROUTES, FAILED_KINDS, FAILURE_CODES, FAILURE_MESSAGES, FENCE_INFOS,
    FENCE_MARKERS, FINISHES, HINT_THRESHOLDS, LOG_FACTS, LONE_SURROGATE_TEXTS, MOSTLY_TRUE, NOISE,
    NOT_OBJECTS, PATTERN_CODES, PRESETS, SCHEMA_COUNTS, SESSION_IDS,
};
use crate::generate::coverage::shapes::SPACES;
use crate::scenario::{
    ApprovalPolicy, Attempt, Block, Config, Downstream, FailedFinish, HangFlag, Narrowing,
    OnFailure, Policy, Preset, Raise, Reviewer, Route, Sandbox, SandboxMode, Scenario, SchemaView,
    Session, Step, Temperature, Tool,
};

/// A small, fast, seedable random stream (SplitMix64). Nothing here needs a secure generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// The stream of case `k` of `seed`: every case has its own, so any case can be drawn alone.
    pub fn for_case(seed: u64, k: u64) -> Rng {
        let mut r = Rng(seed ^ 0x5851_f42d_4c95_7f2d);
        let a = r.bits();
        Rng(a ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// A stream beside this one, drawn from without moving it: a draw added to a generator late
    /// takes its values from here, so every case keeps every choice it drew before.
    pub fn beside(&self, salt: u64) -> Rng {
        Rng(self.0 ^ salt.wrapping_mul(0xd1b5_4a32_d192_ed03))
    }

    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.bits()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `lo..hi` (`lo` < `hi`).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo)
    }

    /// True with probability `num`/`den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// One of `xs`, each as likely.
    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize].clone()
    }

    /// One of `xs`, each as likely as its weight says.
    pub fn weighted<T: Clone>(&mut self, xs: &[(u32, T)]) -> T {
        let total: u64 = xs.iter().map(|(w, _)| u64::from(*w)).sum();
        let mut n = self.below(total);
        for (w, v) in xs {
            if n < u64::from(*w) {
                return v.clone();
            }
            n -= u64::from(*w);
        }
        xs[xs.len() - 1].1.clone()
    }

    /// The index of the branch chosen by these weights.
    fn branch(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|w| u64::from(*w)).sum();
        let mut n = self.below(total);
        for (i, w) in weights.iter().enumerate() {
            if n < u64::from(*w) {
                return i;
            }
            n -= u64::from(*w);
        }
        weights.len() - 1
    }

    /// `lo..=hi` characters, each drawn by `char`.
    fn string(&mut self, lo: u64, hi: u64, char: fn(&mut Rng) -> char) -> String {
        let n = self.range(lo, hi + 1);
        (0..n).map(|_| char(self)).collect()
    }
}

/// `[a-z ]`.
fn lower_or_space(r: &mut Rng) -> char {
    let n = r.below(27) as u8;
    if n == 26 { ' ' } else { (b'a' + n) as char }
}

/// `[a-z0-9]`.
fn lower_or_digit(r: &mut Rng) -> char {
    let n = r.below(36) as u8;
    if n < 26 {
        (b'a' + n) as char
    } else {
        (b'0' + n - 26) as char
    }
}

/// `[a-z"\\<>{} ]`: names a quoting bug shows in.
fn name_char(r: &mut Rng) -> char {
    let n = r.below(33) as u8;
    match n {
        0..26 => (b'a' + n) as char,
        _ => ['"', '\\', '<', '>', '{', '}', ' '][usize::from(n - 26)],
    }
}

/// A printable character (`\PC`: not a control, format, unassigned, private-use or surrogate
/// code point), from the scripts and blocks that break text handling: ASCII, Latin-1, Greek,
/// Cyrillic, Arabic, CJK, kana, fullwidth forms, combining marks, emoji, and the spaces that are
/// not ASCII.
fn printable(r: &mut Rng) -> char {
    const RANGES: [(u32, u32, u32); 11] = [
        (12, 0x20, 0x7e),
        (2, 0xa1, 0xac),
        (1, 0xae, 0xff),
        (1, 0x391, 0x3a1),
        (1, 0x410, 0x44f),
        (1, 0x621, 0x64a),
        (3, 0x4e00, 0x9fff),
        (1, 0x3041, 0x3096),
        (1, 0xff01, 0xff5e),
        (1, 0x300, 0x36f),
        (1, 0x1f600, 0x1f64f),
    ];
    const SPACES: [char; 4] = ['\u{a0}', '\u{3000}', '\u{2028}', '\u{2003}'];
    if r.chance(1, 40) {
        return r.pick(&SPACES);
    }
    let weights: Vec<u32> = RANGES.iter().map(|(w, _, _)| *w).collect();
    let (_, lo, hi) = RANGES[r.branch(&weights)];
    char::from_u32(lo + r.below(u64::from(hi - lo + 1)) as u32).unwrap_or('?')
}

/// A tool name, including the awkward ones every text must quote verbatim. Never `run_code`,
/// which only the transport may carry (RZ-2); [`scenario`] names `run-code` calls itself (RZ-1).
pub fn tool_name(r: &mut Rng) -> String {
    match r.branch(&[3, 1, 2, 1, 1]) {
        0 => r.pick(&COMMON_TOOL_NAMES).to_owned(),
        1 => String::new(),
        2 => r.string(1, 10, name_char),
        3 => r.string(1, 8, printable),
        _ => r.pick(&AWKWARD_TOOL_NAMES).to_owned(),
    }
}

/// Any JSON value of depth at most 2, for provider messages and thrown values.
pub fn json_value(r: &mut Rng) -> Value {
    value_at(r, 2)
}

fn leaf(r: &mut Rng) -> Value {
    match r.branch(&[1, 1, 3, 1]) {
        0 => Value::Null,
        1 => Value::Bool(r.chance(1, 2)),
        2 => number(r),
        _ => Value::String(r.string(0, 16, printable)),
    }
}

/// A number of one of the classes where languages write numbers differently
/// ([`super::numbers::NUMBER_CLASSES`]), each one a scenario carries exactly.
pub fn number(r: &mut Rng) -> Value {
    let class = r.weighted(&super::numbers::NUMBER_CLASSES);
    class.draw(r.bits())
}

fn value_at(r: &mut Rng, depth: u32) -> Value {
    if depth == 0 || r.chance(1, 2) {
        return leaf(r);
    }
    let n = r.below(4);
    if r.chance(1, 2) {
        Value::Array((0..n).map(|_| value_at(r, depth - 1)).collect())
    } else {
        // Names such as "10" or "01" meet ECMAScript's member order (AR-RES-NORM-1).
        let mut m = Map::new();
        for _ in 0..n {
            let key = r.string(1, 6, lower_or_digit);
            let v = value_at(r, depth - 1);
            m.insert(key, v);
        }
        Value::Object(m)
    }
}

/// A reviewer reason: plain, multi-line with a brace that nothing closes (which the candidate
/// scan must pass over inside the string, AR-TOL-5), non-ASCII, or containing JSON punctuation.
pub fn reason(r: &mut Rng) -> String {
    match r.below(4) {
        0 => r.string(0, 24, lower_or_space),
        1 => r.string(0, 16, printable),
        2 => "line one {\n  line two  ".to_owned(),
        _ => "{\"risk\":\"low\",\"decision\":\"allow\"}".to_owned(),
    }
}

/// One of the six legal protocol objects, as compact JSON text.
pub fn legal_object(r: &mut Rng) -> String {
    if r.chance(4, 5) {
        r.pick(&BARE_OBJECTS).to_owned()
    } else {
        let risk = r.pick(&["medium", "high"]);
        serde_json::json!({"risk": risk, "decision": "deny", "reason": reason(r)}).to_string()
    }
}

/// Reviewer text that is not a bare legal object: prose, markup, near-misses, fences, repeated
/// members, lone surrogates.
pub fn noisy_text(r: &mut Rng) -> String {
    match r.branch(&[14, 2, 1, 1, 2, 1]) {
        0 => r.pick(&NOISE).to_owned(),
        1 => {
            // One fenced object in four has a member no shape has: the one candidate is held to
            // the six shapes wherever it was found (AR-TOL-8).
            let legal = legal_object(r);
            let object = if r.chance(1, 4) {
                with_unknown_member(&legal)
            } else {
                legal
            };
            fenced(r, &object)
        }
        2 => format!("Let me check. {}", legal_object(r)),
        3 => r.string(0, 40, printable),
        4 => {
            let legal = legal_object(r);
            repeated(&legal, r.chance(1, 2))
        }
        _ => r.pick(&LONE_SURROGATE_TEXTS).to_owned(),
    }
}

/// The compact object `object` with a member no shape has (AR-PARSE-7), as a reviewer that adds
/// its confidence writes it.
pub fn with_unknown_member(object: &str) -> String {
    let open = object.strip_suffix('}').unwrap_or(object);
    format!("{open},\"confidence\":0.9}}")
}

/// Up to two characters of whitespace, each of a class drawn first ([`SPACES`]): the classes
/// the readers and the languages' trimming functions tell apart are each as likely.
fn spaces(r: &mut Rng) -> String {
    let n = r.below(3);
    (0..n)
        .map(|_| {
            let class = &SPACES[r.below(SPACES.len() as u64) as usize];
            r.pick(class.drawn)
        })
        .collect()
}

/// `object` with whitespace around it, at least one character: JSON whitespace the strict reader
/// lets through (AR-PARSE-4), the whitespace only the tolerant reader trims (AR-TOL-10), and
/// U+0085 and the information separators neither does (Python's `strip` does).
pub fn spaced(r: &mut Rng, object: &str) -> String {
    let before = spaces(r);
    let mut after = spaces(r);
    if before.is_empty() && after.is_empty() {
        let class = &SPACES[r.below(SPACES.len() as u64) as usize];
        after.push(r.pick(class.drawn));
    }
    format!("{before}{object}{after}")
}

/// `object` in a Markdown fence: its markers ([`FENCE_MARKERS`]), its info string
/// ([`FENCE_INFOS`]), and the closing marker on a line of its own or, one time in four, right
/// after the object (AR-TOL-4, AR-TOL-10).
pub fn fenced(r: &mut Rng, object: &str) -> String {
    let (open, close) = r.weighted(&FENCE_MARKERS);
    let info = r.weighted(&FENCE_INFOS);
    fence(open, info, object, r.chance(1, 4), close)
}

/// `object` in a Markdown fence opened by `open` with the info string `info`, closed by
/// `close` on a line of its own or, when `same_line`, right after the object.
pub fn fence(open: &str, info: &str, object: &str, same_line: bool, close: &str) -> String {
    let gap = if same_line { "" } else { "\n" };
    format!("{open}{info}\n{object}{gap}{close}")
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

/// How long an attempt takes: usually at once, sometimes long enough to matter for the deadline.
pub fn delay_ms(r: &mut Rng) -> u64 {
    match r.branch(&[6, 1, 1]) {
        0 => 0,
        1 => r.range(1, 5_000),
        _ => r.range(20_000, 70_000),
    }
}

/// A deny at the end of a text of exactly the tolerant reader's bound, one byte under or one byte
/// over it (AR-TOL-3): read as the deny up to the bound, refused unread past it.
pub fn near_bound(r: &mut Rng) -> String {
    let deny = r#"{"risk":"high","decision":"deny"}"#;
    let size = crate::parse::tolerant::MAX_TEXT_BYTES - 1 + r.below(3) as usize;
    // Allocated at its size once: built by growing, a megabyte text would hold two, and a run
    // holds many of them drawn ahead of the judge.
    let mut text = String::with_capacity(size);
    text.extend(std::iter::repeat_n('a', size - deny.len()));
    text.push_str(deny);
    text
}

/// An allow with spaces and line feeds around it, the text one byte under, at or one byte over
/// the tolerant reader's bound (AR-TOL-3): the strict reader, which has no bound, reads the
/// allow; the tolerant reader reads it up to the bound and refuses it unread past it.
pub fn padded_near_bound(r: &mut Rng) -> String {
    let allow = r.pick(&BARE_OBJECTS[..2]);
    let size = crate::parse::tolerant::MAX_TEXT_BYTES - 1 + r.below(3) as usize;
    let pad = size - allow.len();
    let lead = r.below(pad as u64 + 1) as usize;
    // Allocated at its size once, as [`near_bound`]'s text.
    let mut text = String::with_capacity(size);
    text.extend(std::iter::repeat_n(' ', lead));
    text.push_str(allow);
    text.extend(std::iter::repeat_n('\n', pad - lead));
    text
}

/// A provider's error page of 340 to 360 characters, so that the failure message the gate builds
/// around it (`auto-review: reviewer ended with …`) falls on either side of the normalized length
/// (AR-RES-NORM-4).
pub fn near_cut(r: &mut Rng) -> String {
    let head = "HTTP/1.1 502 <html><body>Bad&nbsp;Gateway";
    let size = r.range(340, 361) as usize;
    format!("{head}{}", "-".repeat(size - head.len()))
}

/// One reviewer attempt, weighted toward failures and denials; besides, one attempt in 600 is a
/// text around the tolerant reader's size bound ([`near_bound`]), and one in 1 200 whitespace
/// around an allow of that size ([`padded_near_bound`]). Rarely: each costs a megabyte drawn and
/// read twice; often enough that a 20 000-case run meets every side of the bound. (Shrinking
/// tries the empty text first, so a megabyte text that does not matter is gone in one step.)
pub fn attempt(r: &mut Rng) -> Attempt {
    if r.chance(1, 600) {
        return Attempt::text(near_bound(r));
    }
    if r.chance(1, 1200) {
        return Attempt::text(padded_near_bound(r));
    }
    let mut a = match r.branch(&[4, 3, 2, 3, 1, 1, 1]) {
        0 => Attempt::text(legal_object(r)),
        1 => Attempt::text(noisy_text(r)),
        2 => {
            let n = r.below(4);
            let blocks = (0..n)
                .map(|_| {
                    let kind = r.weighted(&BLOCK_KINDS);
                    let text = match r.branch(&[4, 4, 1]) {
                        0 => legal_object(r),
                        1 => noisy_text(r),
                        _ => r.pick(&NOT_OBJECTS).to_owned(),
                    };
                    Block { kind, text }
                })
                .collect();
            // One stream in eight ends without a terminal finish (AR-PARSE-1, AR-TOL-1), drawn
            // beside the case's stream so that every other choice stays as it was; such a stream
            // has no finish for data to follow (RZ-9).
            let unfinished = r.beside(2).chance(1, 8);
            let finish = r.weighted(&FINISHES);
            let data_after_finish = r.chance(15, 100);
            Attempt::Blocks {
                blocks,
                finish: (!unfinished).then(|| finish.to_owned()),
                data_after_finish: data_after_finish && !unfinished,
                delay_ms: 0,
            }
        }
        3 => {
            let kind = r.weighted(&FAILED_KINDS);
            let code = if r.chance(1, 8) {
                r.pick(&PATTERN_CODES)
            } else {
                r.pick(&FAILURE_CODES)
            }
            .to_owned();
            let message = match r.branch(&[4, 4, 1, 1]) {
                0 => Value::String(r.pick(&FAILURE_MESSAGES).to_owned()),
                1 => json_value(r),
                2 => number(r),
                _ => Value::String(near_cut(r)),
            };
            Attempt::Finish {
                finish: FailedFinish {
                    kind,
                    code,
                    message,
                },
                delay_ms: 0,
            }
        }
        4 => Attempt::Throw {
            throw: if r.chance(1, 4) {
                number(r)
            } else {
                json_value(r)
            },
            delay_ms: 0,
        },
        5 => Attempt::Hang { hang: HangFlag },
        _ => {
            let legal = legal_object(r);
            Attempt::text(spaced(r, &legal))
        }
    };
    set_delay(&mut a, delay_ms(r));
    a
}

/// Makes `a` take `d` milliseconds to settle; a request that never settles stays so.
fn set_delay(a: &mut Attempt, d: u64) {
    match a {
        Attempt::Text { delay_ms, .. }
        | Attempt::Blocks { delay_ms, .. }
        | Attempt::Finish { delay_ms, .. }
        | Attempt::Throw { delay_ms, .. } => *delay_ms = d,
        Attempt::Hang { .. } => {}
    }
}

/// Moves one request of `reviewer` to settle 1 ms before, exactly at or 1 ms after the review's
/// deadline, `deadline_ms` after the first request starts (AR-RES-RETRY-4), when the requests
/// before it settle in time. Random delays almost never land there, and an off-by-one at the
/// deadline can let a late allow run the body.
fn near_deadline(r: &mut Rng, reviewer: &mut Reviewer, deadline_ms: u64) {
    let attempts = reviewer.attempts_mut();
    let i = r.below(attempts.len() as u64) as usize;
    let before: Option<u64> = attempts[..i].iter().map(Attempt::delay_ms).sum();
    let target = deadline_ms - 1 + r.below(3);
    if let Some(d) = before.and_then(|b| target.checked_sub(b)) {
        set_delay(&mut attempts[i], d);
    }
}

/// A budget of the resilient review (AR-RES-RETRY-1), set from 1 to 5 in `config`, and a script
/// that meets it one failure before, at or after it: as many transport failures (or replies
/// without a decision) as the budget allows, give or take one, then a legal object. Random
/// scripts and budgets rarely fail the same way twice before they decide.
fn near_budget(r: &mut Rng, config: &mut Config) -> Reviewer {
    let transport = r.chance(1, 2);
    let budget = r.range(1, 6) as u32;
    if transport {
        config.transport_retries = budget;
    } else {
        config.repair_attempts = budget;
    }
    let failures = (budget + r.below(3) as u32 - 1).max(1);
    let failure = if transport {
        Attempt::Finish {
            finish: FailedFinish {
                kind: crate::scenario::FailedFinishKind::Error,
                code: "TRANSPORT".to_owned(),
                message: Value::String("Connection error".to_owned()),
            },
            delay_ms: 0,
        }
    } else {
        Attempt::text("I'll start by listing the files.")
    };
    let mut script = vec![failure; failures as usize];
    script.push(Attempt::text(legal_object(r)));
    Reviewer::Many(script)
}

/// A downstream decision.
pub fn downstream(r: &mut Rng) -> Downstream {
    match r.branch(&[4, 2, 1, 2]) {
        0 => Downstream::Allow,
        1 => Downstream::Deny {
            reason: r.string(1, 20, lower_or_space),
            info: r.chance(1, 2).then(|| {
                let mut m = Map::new();
                m.insert("name".into(), "HookDenied".into());
                m.insert("code".into(), "HOOK_DENIED".into());
                m
            }),
        },
        2 => Downstream::Cancel,
        _ => Downstream::Ask {
            reason: r.string(1, 20, lower_or_space),
        },
    }
}

fn route(r: &mut Rng, pairs: &[(&str, &str)]) -> Route {
    let (provider, model) = r.pick(pairs);
    Route {
        provider: provider.into(),
        model: model.into(),
    }
}

/// The session's route (now and then one whose provider or model is empty, AR-REVIEW-9), its
/// failure count, and whether disposal finds it in the session list (AR-DISPOSE-1).
pub fn session(r: &mut Rng) -> Session {
    let mut routes = COMPLETE_ROUTES.to_vec();
    routes.extend(COMPLETE_ROUTES);
    routes.extend([("", "qfmodel"), ("qodercn", "")]);
    Session {
        id: r.weighted(&SESSION_IDS).to_owned(),
        route: route(r, &routes),
        consecutive_failures: if r.chance(3, 5) {
            0
        } else {
            r.range(1, 6) as u32
        },
        listed: r.weighted(&MOSTLY_TRUE),
        working_directory: r.weighted(&MOSTLY_TRUE),
        sandbox: Default::default(),
    }
}

/// A configuration: defaults most of the time, every member varied sometimes.
pub fn config(r: &mut Rng) -> Config {
    if r.chance(3, 5) {
        return Config::default();
    }
    Config {
        on_failure: r.pick(&[OnFailure::Ask, OnFailure::Deny]),
        repair_attempts: r.weighted(&BUDGETS),
        transport_retries: r.weighted(&BUDGETS),
        review_timeout_ms: if r.chance(1, 2) {
            60_000
        } else {
            r.range(1_000, 90_000)
        },
        reviewer_route: r.chance(1, 2).then(|| route(r, &COMPLETE_ROUTES)),
        failure_hint_after: r.weighted(&HINT_THRESHOLDS),
        temperature: Default::default(),
        max_json_retries: 1,
    }
}

/// The reviewer temperature (AR-REVIEW-3, AR-RES-CONFIG-1): the default 0 in most cases; now and
/// then a fraction, the bound 2, or `provider-default`, which leaves it out of every request.
pub fn temperature(r: &mut Rng) -> Temperature {
    if !r.chance(1, 8) {
        return Temperature::default();
    }
    match r.below(5) {
        0 => Temperature::ProviderDefault,
        1 => Temperature::Value(2.into()),
        k => {
            let tenths = [3, 7, 12][k as usize - 2];
            Temperature::Value(
                serde_json::Number::from_f64(f64::from(tenths) / 10.0).unwrap_or_else(|| 0.into()),
            )
        }
    }
}

/// The JSON retry limit (AR-JSON-RETRY-1, read by a profile with `asks_again: json-retry`): the
/// default 1 in most cases; now and then none, or more than one, up to a scenario's 5.
pub fn json_retries(r: &mut Rng) -> u32 {
    if !r.chance(1, 6) {
        return 1;
    }
    r.pick(&[0, 0, 2, 3, 5])
}

/// The session's sandbox (AR-CONFINE-1..4): the default two times in three; otherwise a backend
/// that mostly confines reads, a confined mode now and then (only in Auto, RZ-10), and a mode
/// fence that rejects a change one time in five.
pub fn sandbox(r: &mut Rng, preset: Preset) -> Sandbox {
    if r.chance(2, 3) {
        return Sandbox::default();
    }
    let mode = if preset == Preset::Auto && r.chance(1, 3) {
        SandboxMode::WorkspaceWrite
    } else {
        SandboxMode::DangerFullAccess
    };
    let confines_reads = r.chance(3, 4);
    let narrowing = if r.chance(1, 5) {
        Narrowing::Rejected(r.pick(&super::REJECTIONS).to_owned())
    } else {
        Narrowing::Accepted
    };
    Sandbox {
        mode,
        confines_reads,
        narrowing,
    }
}

/// What a call's body does (AR-RESULT-7): one time in four one or two steps, mostly approval
/// requests naming the call itself, sometimes none or a call nobody reviewed, and one time in
/// five a preset it selects. The call's own members decide which steps it can take (RZ-12,
/// `realizable::realize`); a single call names no finished call (RZ-11: sessions draw those,
/// [`super::sessions`]).
pub fn body(r: &mut Rng) -> Vec<Step> {
    if !r.chance(1, 4) {
        return Vec::new();
    }
    let n = 1 + r.below(2) as usize;
    (0..n)
        .map(|_| {
            if r.chance(1, 5) {
                return Step::LeaveAuto(r.pick(&super::LEFT_PRESETS));
            }
            Step::Raise(Raise {
                call_id: r.weighted(&super::RAISED_IDS),
                reason: r.pick(&super::RAISED_REASONS).to_owned(),
                answer: r.chance(1, 2).then(|| r.pick(&super::RAISED_ANSWERS)),
            })
        })
        .collect()
}

/// A whole scenario, weighted toward reviewed calls, made realizable by the runtime's rules
/// (`scenario::realizable::realize`).
pub fn scenario(r: &mut Rng) -> Scenario {
    let name = tool_name(r);
    let call = r.weighted(&CALL_KINDS);
    let agent = r.weighted(&MOSTLY_TRUE);
    let preset = r.weighted(&PRESETS);
    let p = [ApprovalPolicy::Ask, ApprovalPolicy::Never];
    let policy = Policy {
        override_: r.chance(1, 2).then(|| r.pick(&p)),
        default: r.pick(&p),
    };
    let count = |r: &mut Rng| r.weighted(&SCHEMA_COUNTS);
    let schema = SchemaView {
        header: count(r),
        registry: count(r),
    };
    let reviewer = if r.chance(3, 4) {
        Reviewer::One(attempt(r))
    } else {
        let n = r.range(1, 4);
        Reviewer::Many((0..n).map(|_| attempt(r)).collect())
    };
    let downstream = downstream(r);
    let approval = r.pick(&APPROVALS);
    let abort = r.weighted(&ABORTS);
    let log = r.weighted(&LOG_FACTS);
    let session = session(r);
    let config = config(r);
    // Drawn last, so that every other choice stays as it was: one call in twenty has a request
    // that settles next to the deadline.
    let mut reviewer = reviewer;
    if r.chance(1, 20) {
        near_deadline(r, &mut reviewer, config.review_timeout_ms);
    }
    let mut config = config;
    if r.chance(1, 40) {
        reviewer = near_budget(r, &mut config);
    }
    // From a stream beside the case's, so that every other choice of a call, and of the calls
    // after it in a session, stays as it was.
    config.temperature = temperature(&mut r.beside(1));
    config.max_json_retries = json_retries(&mut r.beside(7));
    let mut session = session;
    session.sandbox = sandbox(&mut r.beside(3), preset);
    let body = body(&mut r.beside(5));
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
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_uniform_enough_and_repeatable() {
        let mut a = Rng::for_case(7, 3);
        let mut b = Rng::for_case(7, 3);
        assert_eq!(a.bits(), b.bits());
        assert_ne!(Rng::for_case(7, 3).bits(), Rng::for_case(7, 4).bits());
        assert_ne!(Rng::for_case(7, 3).bits(), Rng::for_case(8, 3).bits());
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            counts[a.below(10) as usize] += 1;
        }
        assert!(
            counts.iter().all(|c| (9_000..11_000).contains(c)),
            "{counts:?}"
        );
    }

    #[test]
    fn printable_characters_are_never_controls_or_surrogates() {
        let mut r = Rng::for_case(1, 1);
        for _ in 0..100_000 {
            let c = printable(&mut r);
            assert!(!c.is_control(), "{c:?}");
            assert!(
                !matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{feff}'),
                "{c:?}"
            );
        }
    }
}
