//! Which clauses a drawn case reaches beyond its decision-table row: the reader rule that refused
//! each reviewer reply the review read (chapter 4, AR-PARSE-1..7; chapter 10, AR-TOL-1..10), and
//! the normalization rules its failure messages went through (AR-RES-NORM-1..4). Generated runs
//! report these counts per clause, so a rule the generator never exercises shows.

use serde_json::Value;

use crate::normalize;
use crate::parse::{self, Reply};
use crate::profile::Profile;
use crate::scenario::{Attempt, Scenario};

/// The clauses a generated run of `profile` is expected to reach through [`clauses`]: every
/// refusal rule of the profile's reader and, in the resilient profile, every normalization rule.
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
