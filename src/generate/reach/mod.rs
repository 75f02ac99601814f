//! Which clauses a drawn case reaches beyond its decision-table row: the reader rule that refused
//! each reviewer reply the review read (chapter 4, AR-PARSE-1..7; chapter 10, AR-TOL-1..10), the
//! normalization rules its failure messages went through (AR-RES-NORM-1..4), and the review's own
//! rules its requests and settlement show (chapter 3 and the resilient review: the failure
//! classes, the session checks, repairs, retries, the shared deadline, the route, the count).
//! Generated runs report these counts per clause, so a rule the generator never exercises shows.

use serde_json::Value;

use crate::engine::review::{Review, Settlement};
use crate::normalize;
use crate::outcome::FailureClass;
use crate::parse::{self, Reply};
use crate::profile::Profile;
use crate::scenario::{Attempt, Scenario};

/// The clauses a generated run of `profile` is expected to reach through [`clauses`] and
/// [`review_clauses`]: every refusal rule of the profile's reader, the review's rules and, in the
/// resilient profile, every normalization rule.
pub fn expected(profile: Profile) -> &'static [&'static str] {
    match profile {
        Profile::Baseline => &[
            "AR-PARSE-1",
            "AR-PARSE-2",
            "AR-PARSE-3",
            "AR-PARSE-4",
            "AR-PARSE-5",
            "AR-PARSE-6",
            "AR-PARSE-7",
            "AR-REVIEW-2",
            "AR-REVIEW-6",
            "AR-REVIEW-7",
            "AR-REVIEW-9",
            "AR-REVIEW-10",
            "AR-REVIEW-11",
            "AR-REVIEW-12",
        ],
        Profile::Resilient => &[
            "AR-TOL-1",
            "AR-TOL-2",
            "AR-TOL-3",
            "AR-TOL-5",
            "AR-TOL-6",
            "AR-TOL-7",
            "AR-TOL-8",
            "AR-TOL-9",
            "AR-TOL-10",
            "AR-RES-NORM-1",
            "AR-RES-NORM-2",
            "AR-RES-NORM-3",
            "AR-RES-NORM-4",
            "AR-REVIEW-2",
            "AR-REVIEW-6",
            "AR-REVIEW-7",
            "AR-REVIEW-9",
            "AR-REVIEW-11",
            "AR-RES-CWD-1",
            "AR-RES-REQUEST-1",
            "AR-RES-RETRY-1",
            "AR-RES-RETRY-3",
            "AR-RES-RETRY-4",
            "AR-RES-ROUTE-1",
            "AR-RES-HINT-1",
        ],
    }
}

/// The clauses the first `made` reviewer attempts of `s` reach under `profile` (`made` is the
/// number of requests the review made; an attempt never made reaches nothing). Each clause is
/// named once per case.
pub fn clauses(s: &Scenario, profile: Profile, made: usize) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut add = |c: &'static str| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    for attempt in (0..made).map(|n| s.reviewer.attempt(n)) {
        let read = match attempt {
            Attempt::Text { text, .. } => Some(Reply::text(text)),
            Attempt::Blocks {
                blocks,
                finish,
                data_after_finish,
                ..
            } => Some(Reply::blocks(blocks, finish, *data_after_finish)),
            Attempt::Finish { finish, .. } => Some(Reply::failed(finish)),
            Attempt::Throw { .. } | Attempt::Hang { .. } => None,
        }
        .map(|reply| match profile {
            Profile::Baseline => parse::strict::read(&reply),
            Profile::Resilient => parse::tolerant::read(&reply),
        });
        if let Some(Err(e)) = &read {
            add(e.clause(profile));
        }
        if profile == Profile::Resilient {
            // The raw failure message the resilient profile normalizes, and whether it came from
            // a value other than a string (AR-RES-NORM-1).
            let raw = match (attempt, &read) {
                (Attempt::Throw { throw, .. }, _) => Some((normalize::value_text(throw), throw)),
                (Attempt::Finish { finish, .. }, Some(Err(e))) => {
                    Some((crate::engine::review::unnormalized(e).text, &finish.message))
                }
                _ => None,
            };
            if let Some((text, value)) = raw {
                normalization(&text, value, &mut add);
            }
        }
    }
    out
}

/// The normalization rules that change `text`, the message of `value` (AR-RES-NORM-1..4).
fn normalization(text: &str, value: &Value, add: &mut impl FnMut(&'static str)) {
    if !value.is_string() {
        add("AR-RES-NORM-1");
    }
    // Whitespace other than single spaces between words collapses or goes (AR-RES-NORM-2).
    let trimmed = text.trim_matches(normalize::is_space);
    let collapses = trimmed.len() != text.len()
        || trimmed
            .chars()
            .zip(trimmed.chars().skip(1))
            .any(|(a, b)| normalize::is_space(a) && (a != ' ' || normalize::is_space(b)));
    if collapses {
        add("AR-RES-NORM-2");
    }
    // Whitespace collapses before anything is escaped: a tab is a space, not a hidden character.
    if text
        .chars()
        .any(|c| normalize::is_hidden(c) && !normalize::is_space(c))
    {
        add("AR-RES-NORM-3");
    }
    if normalize::is_cut(text) {
        add("AR-RES-NORM-4");
    }
}

/// The review's own clauses that `review` of `s` shows under `profile`: a failure class assigned
/// (AR-REVIEW-6) and one for a thrown request (AR-REVIEW-7); the session checks that refused it
/// (route AR-REVIEW-9, working directory AR-REVIEW-10, log AR-REVIEW-11, schema AR-REVIEW-2); the
/// requests recorded (AR-REVIEW-12) with the session's id (AR-RES-REQUEST-1); a repair request
/// (AR-RES-RETRY-1), a review settled after several requests (AR-RES-RETRY-3), the shared
/// deadline passing (AR-RES-RETRY-4); a configured route used (AR-RES-ROUTE-1); a failure counted
/// (AR-RES-HINT-1); a session without a working directory reviewed anyway (AR-RES-CWD-1).
pub fn review_clauses(s: &Scenario, profile: Profile, review: &Review) -> Vec<&'static str> {
    let resilient = profile == Profile::Resilient;
    let made = review.requests.len();
    let mut out = Vec::new();
    if let Settlement::Failed(f) = &review.settlement {
        out.push("AR-REVIEW-6");
        out.extend(match f.class {
            FailureClass::Route => Some("AR-REVIEW-9"),
            FailureClass::Session if !s.session.working_directory && !resilient => {
                Some("AR-REVIEW-10")
            }
            FailureClass::Session => Some("AR-REVIEW-11"),
            FailureClass::Schema => Some("AR-REVIEW-2"),
            FailureClass::Timeout if resilient && made > 0 => Some("AR-RES-RETRY-4"),
            _ => None,
        });
    }
    if (0..made).any(|n| matches!(s.reviewer.attempt(n), Attempt::Throw { .. })) {
        out.push("AR-REVIEW-7");
    }
    if made > 0 {
        out.push("AR-REVIEW-12");
    }
    if resilient && made > 0 {
        out.push("AR-RES-REQUEST-1");
        if review.requests.iter().any(|r| r.repair) {
            out.push("AR-RES-RETRY-1");
        }
        if made > 1 {
            out.push("AR-RES-RETRY-3");
        }
        if s.config.reviewer_route.is_some() {
            out.push("AR-RES-ROUTE-1");
        }
        if !s.session.working_directory {
            out.push("AR-RES-CWD-1");
        }
    }
    if review.consecutive_failures.is_some_and(|n| n > 0) {
        out.push("AR-RES-HINT-1");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(attempts: Value) -> Scenario {
        let s = json!({"tool": {"name": "bash"}, "reviewer": attempts});
        crate::scenario::Scenario::from_value(&s).unwrap()
    }

    #[test]
    fn each_reply_names_the_rule_that_refused_it_and_only_attempts_made_count() {
        let s = call(json!([
            {"text": "{\"risk\":\"low\",\"decision\":\"allow\"} and {\"decision\":\"deny\"}"},
            {"text": "not json"}
        ]));
        assert_eq!(clauses(&s, Profile::Baseline, 1), ["AR-PARSE-4"]);
        assert_eq!(clauses(&s, Profile::Resilient, 1), ["AR-TOL-6"]);
        assert_eq!(clauses(&s, Profile::Resilient, 2), ["AR-TOL-6", "AR-TOL-5"]);
        assert!(clauses(&s, Profile::Resilient, 0).is_empty());
    }

    #[test]
    fn the_review_names_its_own_rules() {
        let of = |v: Value, profile| {
            let s = crate::scenario::Scenario::from_value(&v).unwrap();
            let review = crate::engine::review::review(&s, profile);
            review_clauses(&s, profile, &review)
        };
        let no_cwd = json!({"tool": {"name": "bash"}, "session": {"working_directory": false},
            "reviewer": {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}});
        assert_eq!(
            of(no_cwd.clone(), Profile::Baseline),
            ["AR-REVIEW-6", "AR-REVIEW-10"]
        );
        assert_eq!(
            of(no_cwd, Profile::Resilient),
            ["AR-REVIEW-12", "AR-RES-REQUEST-1", "AR-RES-CWD-1"]
        );
        let repaired = json!({"tool": {"name": "bash"},
            "reviewer": [{"text": "Sure."}, {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}]});
        assert_eq!(
            of(repaired, Profile::Resilient),
            [
                "AR-REVIEW-12",
                "AR-RES-REQUEST-1",
                "AR-RES-RETRY-1",
                "AR-RES-RETRY-3"
            ]
        );
    }

    #[test]
    fn normalization_rules_are_named_when_they_change_the_message() {
        let thrown = |v: Value| call(json!([{"throw": v}]));
        let of = |v: Value| clauses(&thrown(v), Profile::Resilient, 1);
        assert!(of(json!("plain words")).is_empty());
        assert_eq!(of(json!({"message": "x"})), ["AR-RES-NORM-1"]);
        assert_eq!(of(json!("two  spaces")), ["AR-RES-NORM-2"]);
        assert_eq!(of(json!("tab\there")), ["AR-RES-NORM-2"]);
        assert_eq!(of(json!("bell\u{7}")), ["AR-RES-NORM-3"]);
        assert_eq!(of(json!(" edge")), ["AR-RES-NORM-2"]);
        assert_eq!(of(json!("a\u{202e}b")), ["AR-RES-NORM-3"]);
        assert_eq!(of(json!("y".repeat(400))), Vec::<&str>::new());
        assert_eq!(of(json!("y".repeat(401))), ["AR-RES-NORM-4"]);
        // Escaping lengthens: 395 characters and one escaped control make 401.
        assert_eq!(
            of(json!(format!("{}\u{7}", "y".repeat(395)))),
            ["AR-RES-NORM-3", "AR-RES-NORM-4"]
        );
        assert!(clauses(&thrown(json!([1])), Profile::Baseline, 1).is_empty());
    }
}
