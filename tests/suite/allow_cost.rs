//! The cost of AR-TOL-10 (an allow stands only alone), as the spec's informative table states it:
//! the committed data (`spec/fixtures/allow-cost.json`) agrees with the engine, and the spec holds
//! the table rendered from that data.

use autoreview::{Profile, Scenario, engine};
use serde::Deserialize;

const DATA: &str = include_str!("../../spec/fixtures/allow-cost.json");
const SPEC: &str = include_str!("../../spec/auto-review.md");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    #[allow(dead_code)]
    about: String,
    rows: Vec<Row>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    shape: String,
    replies: Vec<String>,
    old: Cost,
    new: Cost,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Cost {
    requests: u32,
    outcome: String,
}

/// What the resilient engine does with `replies` under `ask`, the user answering "rejected".
fn measured(replies: &[String]) -> Cost {
    let reviewer: Vec<_> = replies
        .iter()
        .map(|t| serde_json::json!({ "text": t }))
        .collect();
    let scenario = serde_json::json!({
        "tool": { "name": "pwsh" },
        "policy": "ask",
        "reviewer": reviewer,
        "approval": "rejected",
    });
    let s = Scenario::from_json(&scenario.to_string()).unwrap();
    let o = engine::decide(&s, Profile::RESILIENT);
    let asked = o.approval.as_ref().is_some_and(|a| a.prompted);
    let outcome = match (o.result.executed, asked, &o.review.failure) {
        (true, _, _) => "body runs",
        (false, true, Some(_)) => "asked: the review failed",
        (false, true, None) => "asked: the reviewer denied",
        (false, false, _) => "denied",
    };
    Cost {
        requests: o.review.attempts,
        outcome: outcome.into(),
    }
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn render(table: &Table) -> String {
    let mut out = String::from(
        "| reply shape | before: requests | before: outcome | now: requests | now: outcome |\n|---|---|---|---|---|\n",
    );
    for r in &table.rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            cell(&r.shape),
            r.old.requests,
            r.old.outcome,
            r.new.requests,
            r.new.outcome
        ));
    }
    out
}

#[test]
fn the_cost_table_agrees_with_the_engine_and_the_spec() {
    let table: Table = serde_json::from_str(DATA).unwrap();
    for r in &table.rows {
        assert_eq!(measured(&r.replies), r.new, "{}", r.shape);
    }
    // The rows that changed are exactly the allows among words: each now costs a second request,
    // and none of them runs the body unless the repair request got an allow that stands alone.
    for r in table.rows.iter().filter(|r| r.old != r.new) {
        assert_eq!((r.old.requests, r.new.requests), (1, 2), "{}", r.shape);
    }
    let rendered = render(&table);
    assert!(
        SPEC.contains(&rendered),
        "spec/auto-review.md should hold the cost table exactly as rendered from the data:\n{rendered}"
    );
}
