//! Which side of each numeric limit of the spec a case falls on: one unit below, exactly at, or one
//! unit above the deadline (AR-RES-RETRY-4), the reader's size bound (AR-TOL-3), the normalized
//! length (AR-RES-NORM-4), the repair and retry budgets (AR-RES-RETRY-1) and the hint threshold
//! (AR-RES-HINT-2). Fixed and generated cases are both held to every side of every limit, so an
//! off-by-one at any of them is caught.

use crate::engine::review::{self, Review, Settlement};
use crate::normalize;
use crate::outcome::FailureClass;
use crate::profile::{AsksAgain, FailureText, Profile, Reader};
use crate::scenario::{AbortPoint, Attempt, BlockKind, Scenario};

/// A numeric limit of the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Limit {
    /// When the last request of a review settles, against `review_timeout_ms` (AR-RES-RETRY-4).
    Deadline,
    /// A reviewer text's size in bytes, against 1 048 576 (AR-TOL-3).
    SizeBound,
    /// A failure message's normalized length in characters, against 400 (AR-RES-NORM-4).
    NormalizedLength,
    /// Protocol failures a review met, against `repair_attempts` (AR-RES-RETRY-1).
    RepairBudget,
    /// Transport failures a review met, against `transport_retries` (AR-RES-RETRY-1).
    RetryBudget,
    /// The failure count after a failed call, against `failure_hint_after` (AR-RES-HINT-2).
    HintThreshold,
}

impl Limit {
    /// Every limit, in the order reports list them.
    pub const ALL: [Limit; 6] = [
        Limit::Deadline,
        Limit::SizeBound,
        Limit::NormalizedLength,
        Limit::RepairBudget,
        Limit::RetryBudget,
        Limit::HintThreshold,
    ];

    /// The clause that sets the limit.
    pub fn clause(self) -> &'static str {
        match self {
            Limit::Deadline => "AR-RES-RETRY-4",
            Limit::SizeBound => "AR-TOL-3",
            Limit::NormalizedLength => "AR-RES-NORM-4",
            Limit::RepairBudget | Limit::RetryBudget => "AR-RES-RETRY-1",
            Limit::HintThreshold => "AR-RES-HINT-2",
        }
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Deadline => "deadline",
            Limit::SizeBound => "size bound",
            Limit::NormalizedLength => "normalized length",
            Limit::RepairBudget => "repair budget",
            Limit::RetryBudget => "retry budget",
            Limit::HintThreshold => "hint threshold",
        }
    }

    /// Whether `profile` has the limit, by the rule that sets it.
    pub fn applies(self, profile: Profile) -> bool {
        match self {
            // AR-RES-RETRY-4
            Limit::Deadline => profile.has_deadline(),
            // AR-TOL-3
            Limit::SizeBound => profile.reader() == Reader::Tolerant,
            // AR-RES-NORM-4
            Limit::NormalizedLength => profile.failure_text() == FailureText::Normalized,
            // AR-RES-RETRY-1
            Limit::RepairBudget | Limit::RetryBudget => {
                profile.asks_again() == AsksAgain::RepairAndRetry
            }
            // AR-RES-HINT-2
            Limit::HintThreshold => profile.counts_failures(),
        }
    }

    /// The limits `profile` has, in the order reports list them: none where it has no deadline,
    /// no size bound, no normalization, no repeats and no hint.
    pub fn of(profile: Profile) -> Vec<Limit> {
        Limit::ALL
            .into_iter()
            .filter(|l| l.applies(profile))
            .collect()
    }
}

/// Where a value falls against a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// One unit below it.
    Below,
    /// Exactly at it.
    At,
    /// One unit above it.
    Above,
}

impl Side {
    /// Every side.
    pub const ALL: [Side; 3] = [Side::Below, Side::At, Side::Above];

    /// The side of `value` against `limit`, when it is next to it.
    pub fn of(value: u64, limit: u64) -> Option<Side> {
        match value.cmp(&limit) {
            std::cmp::Ordering::Equal => Some(Side::At),
            std::cmp::Ordering::Less if value + 1 == limit => Some(Side::Below),
            std::cmp::Ordering::Greater if value == limit + 1 => Some(Side::Above),
            _ => None,
        }
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Side::Below => "below",
            Side::At => "at",
            Side::Above => "above",
        }
    }
}

/// The limits whose boundary `review` of `s` meets under `profile`, each once, with the side.
pub fn sides(s: &Scenario, profile: Profile, review: &Review) -> Vec<(Limit, Side)> {
    let mut out = Vec::new();
    if Limit::of(profile).is_empty() {
        return out;
    }
    let mut add = |limit: Limit, side: Option<Side>| {
        if let Some(side) = side
            && limit.applies(profile)
            && !out.contains(&(limit, side))
        {
            out.push((limit, side));
        }
    };
    let made: Vec<&Attempt> = (0..review.requests.len())
        .map(|n| s.reviewer.attempt(n))
        .collect();
    let config = &s.config;

    // AR-RES-RETRY-4: when the last request settles (or would have), counted from the first
    // request's start, with no signal in between to end the review some other way.
    let signalled = matches!(
        s.abort,
        AbortPoint::CallerDuringReview | AbortPoint::LifecycleAfterReview
    );
    if !signalled {
        let settles: Option<u64> = made.iter().map(|a| a.delay_ms()).sum();
        if let Some(t) = settles.filter(|_| !made.is_empty()) {
            add(Limit::Deadline, Side::of(t, config.review_timeout_ms));
        }
    }

    // AR-TOL-3: every text a request delivered, in bytes.
    let bound = crate::parse::tolerant::MAX_TEXT_BYTES as u64;
    for a in &made {
        match a {
            Attempt::Text { text, .. } => add(Limit::SizeBound, Side::of(text.len() as u64, bound)),
            Attempt::Blocks { blocks, .. } => {
                for b in blocks.iter().filter(|b| b.kind == BlockKind::Text) {
                    add(Limit::SizeBound, Side::of(b.text.len() as u64, bound));
                }
            }
            _ => {}
        }
    }

    // AR-RES-NORM-4: each failure message before its cut.
    for (text, _) in super::raw_failure_messages(&made, profile) {
        add(
            Limit::NormalizedLength,
            Side::of(
                normalize::normalized_chars(&text) as u64,
                normalize::MAX_CHARS as u64,
            ),
        );
    }

    // AR-RES-RETRY-1: the failures of each budget's class the review met. A decision obtained
    // with one failure fewer than the budget allows is below it, with exactly as many at it (the
    // last repeat allowed obtained it); a review that failed with that class met one more than
    // the budget allows (the budget ran out).
    let met = |class: FailureClass| {
        made.iter()
            .filter(
                |a| matches!(review::settle(a, profile), Settlement::Failed(f) if f.class == class),
            )
            .count() as u64
    };
    let budgets = [
        (
            Limit::RepairBudget,
            FailureClass::Protocol,
            config.repair_attempts,
        ),
        (
            Limit::RetryBudget,
            FailureClass::Transport,
            config.transport_retries,
        ),
    ];
    for (limit, class, budget) in budgets {
        let (n, budget) = (met(class), u64::from(budget));
        let side = match &review.settlement {
            Settlement::Decided(_) if n > 0 => Side::of(n, budget).filter(|s| *s != Side::Above),
            Settlement::Failed(f) if f.class == class => Side::of(n, budget + 1)
                .filter(|s| *s == Side::At)
                .map(|_| Side::Above),
            _ => None,
        };
        add(limit, side);
    }

    // AR-RES-HINT-2: the count a counted failure leaves, against the threshold.
    if let (Settlement::Failed(_), Some(count)) = (&review.settlement, review.consecutive_failures)
        && !review.signal_ended
        && count > 0
    {
        add(
            Limit::HintThreshold,
            Side::of(u64::from(count), u64::from(config.failure_hint_after)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// The sides the resilient review of `v` meets.
    fn sides_of(v: Value) -> Vec<(Limit, Side)> {
        let s = Scenario::from_value(&v).unwrap();
        let review = crate::engine::review::review(&s, Profile::RESILIENT);
        sides(&s, Profile::RESILIENT, &review)
    }

    const ALLOW: &str = r#"{"risk":"low","decision":"allow"}"#;

    #[test]
    fn a_request_settling_next_to_the_deadline_is_on_its_side() {
        let at = |delay: u64| {
            sides_of(
                json!({"tool": {"name": "bash"}, "config": {"review_timeout_ms": 1000},
                "reviewer": {"text": ALLOW, "delay_ms": delay}}),
            )
        };
        assert_eq!(at(999), [(Limit::Deadline, Side::Below)]);
        assert_eq!(at(1000), [(Limit::Deadline, Side::At)]);
        assert_eq!(at(1001), [(Limit::Deadline, Side::Above)]);
        assert!(at(998).is_empty());
        // Requests settle one after the other: the second settles at the sum of both delays.
        let second = sides_of(
            json!({"tool": {"name": "bash"}, "config": {"review_timeout_ms": 1000},
            "reviewer": [{"finish": {"kind": "error", "code": "TRANSPORT", "message": "x"}, "delay_ms": 400},
                         {"text": ALLOW, "delay_ms": 600}]}),
        );
        assert!(second.contains(&(Limit::Deadline, Side::At)), "{second:?}");
        // The baseline has no deadline.
        let s = Scenario::from_value(
            &json!({"tool": {"name": "bash"}, "config": {"review_timeout_ms": 1000},
            "reviewer": {"text": ALLOW, "delay_ms": 1000}}),
        )
        .unwrap();
        let review = crate::engine::review::review(&s, Profile::BASELINE);
        assert!(sides(&s, Profile::BASELINE, &review).is_empty());
    }

    #[test]
    fn texts_next_to_the_size_bound_and_messages_next_to_the_cut_are_on_their_side() {
        let bound = crate::parse::tolerant::MAX_TEXT_BYTES;
        for (len, side) in [
            (bound - 1, Side::Below),
            (bound, Side::At),
            (bound + 1, Side::Above),
        ] {
            let text = "a".repeat(len);
            let got = sides_of(json!({"tool": {"name": "bash"}, "reviewer": {"text": text}}));
            assert!(got.contains(&(Limit::SizeBound, side)), "{len}: {got:?}");
        }
        for (len, side) in [(399, Side::Below), (400, Side::At), (401, Side::Above)] {
            let got =
                sides_of(json!({"tool": {"name": "bash"}, "reviewer": {"throw": "y".repeat(len)}}));
            assert!(
                got.contains(&(Limit::NormalizedLength, side)),
                "{len}: {got:?}"
            );
        }
        // Whitespace collapses before the length is taken.
        let got = sides_of(
            json!({"tool": {"name": "bash"}, "reviewer": {"throw": format!("{}  ", "y".repeat(400))}}),
        );
        assert!(
            got.contains(&(Limit::NormalizedLength, Side::At)),
            "{got:?}"
        );
    }

    #[test]
    fn a_review_next_to_a_budget_is_on_its_side() {
        let bad = json!({"text": "Sure."});
        let transport = json!({"finish": {"kind": "error", "code": "TRANSPORT", "message": "x"}});
        let allow = json!({"text": ALLOW});
        let of = |config: Value, reviewer: Value| {
            sides_of(json!({"tool": {"name": "bash"}, "config": config, "reviewer": reviewer}))
        };
        let repairs = json!({"repair_attempts": 2});
        assert!(
            of(repairs.clone(), json!([bad, allow])).contains(&(Limit::RepairBudget, Side::Below))
        );
        assert!(
            of(repairs.clone(), json!([bad, bad, allow]))
                .contains(&(Limit::RepairBudget, Side::At))
        );
        assert!(
            of(repairs.clone(), json!([bad, bad, bad, allow]))
                .contains(&(Limit::RepairBudget, Side::Above))
        );
        // A first-time decision leans on no budget.
        assert!(of(repairs, json!([allow])).is_empty());
        let retries = json!({"transport_retries": 1});
        assert!(
            of(retries.clone(), json!([transport, allow]))
                .contains(&(Limit::RetryBudget, Side::At))
        );
        assert!(
            of(retries, json!([transport, transport, allow]))
                .contains(&(Limit::RetryBudget, Side::Above))
        );
    }

    #[test]
    fn a_counted_failure_next_to_the_hint_threshold_is_on_its_side() {
        let of = |before: u32| {
            sides_of(
                json!({"tool": {"name": "bash"}, "session": {"consecutive_failures": before},
                "config": {"failure_hint_after": 3, "transport_retries": 0},
                "reviewer": {"finish": {"kind": "error", "code": "TRANSPORT", "message": "x"}}}),
            )
        };
        assert!(of(1).contains(&(Limit::HintThreshold, Side::Below)));
        assert!(of(2).contains(&(Limit::HintThreshold, Side::At)));
        assert!(of(3).contains(&(Limit::HintThreshold, Side::Above)));
        assert!(!of(0).iter().any(|(l, _)| *l == Limit::HintThreshold));
    }

    #[test]
    fn sides_are_next_to_the_limit_only() {
        assert_eq!(Side::of(9, 10), Some(Side::Below));
        assert_eq!(Side::of(10, 10), Some(Side::At));
        assert_eq!(Side::of(11, 10), Some(Side::Above));
        assert_eq!(Side::of(8, 10), None);
        assert_eq!(Side::of(12, 10), None);
        assert_eq!(Side::of(0, 0), Some(Side::At));
        assert_eq!(Side::of(u64::MAX, u64::MAX - 1), Some(Side::Above));
    }
}
