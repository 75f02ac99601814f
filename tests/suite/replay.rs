//! The replay fixture (`spec/fixtures/replay.jsonl`, `autoreview::replay`): committed fresh, and
//! covering every member of the canonical form with more than one value.

use std::collections::BTreeMap;

use autoreview::replay;
use autoreview::scenario::canonical;

fn committed() -> String {
    std::fs::read_to_string(format!("{}/{}", env!("CARGO_MANIFEST_DIR"), replay::PATH))
        .unwrap_or_default()
}

/// The committed fixture is what the engine writes now. `AUTOREVIEW_WRITE_REPLAY=1 cargo test
/// --test suite replay` writes it.
#[test]
fn the_committed_replay_fixture_is_fresh() {
    let text = replay::text().expect("the fixed cases load");
    let path = format!("{}/{}", env!("CARGO_MANIFEST_DIR"), replay::PATH);
    if std::env::var_os("AUTOREVIEW_WRITE_REPLAY").is_some()
        && std::env::var("CI").as_deref() != Ok("true")
    {
        std::fs::write(&path, &text).expect("write the fixture");
    }
    assert!(
        committed() == text,
        "{path} is stale; regenerate it with `AUTOREVIEW_WRITE_REPLAY=1 cargo test --test suite replay`"
    );
}

/// Members that take one value wherever they appear: a hanging attempt's flag.
const ONE_VALUED: [&str; 1] = ["calls.reviewer.hang"];

#[test]
fn the_fixture_gives_every_member_of_the_canonical_form_more_than_one_value() {
    let mut seen = BTreeMap::new();
    let lines = replay::lines().expect("the fixed cases load");
    let (mut calls, mut sessions) = (0, 0);
    for line in &lines {
        canonical::member_paths(&line["scenario"], "", &mut seen);
        match line["reply"].as_str() {
            Some("call") => calls += 1,
            Some("session") => sessions += 1,
            other => panic!("reply {other:?}"),
        }
    }
    assert!(
        calls > 100 && sessions > 50,
        "{calls} calls, {sessions} sessions"
    );
    let single: Vec<_> = seen
        .iter()
        // An object or an array is counted by its members.
        .filter(|(path, values)| {
            values.len() < 2
                && !ONE_VALUED.contains(&path.as_str())
                && !matches!(values[0].as_str(), Some("object" | "array"))
        })
        .map(|(path, values)| format!("{path}: {values:?}"))
        .collect();
    assert!(
        single.is_empty(),
        "members with one value only: {single:#?}"
    );
    // Every member a canonical scenario can name is there: the schema's members, in the form
    // `member_paths` writes them.
    for path in [
        "id",
        "session.route.provider",
        "session.consecutive_failures",
        "session.listed",
        "session.working_directory",
        "config.on_failure",
        "config.repair_attempts",
        "config.transport_retries",
        "config.review_timeout_ms",
        "config.reviewer_route",
        "config.failure_hint_after",
        "preset",
        "policy.override",
        "policy.default",
        "calls.event",
        "calls.reselect",
        "calls.tool.call",
        "calls.agent",
        "calls.schema.header",
        "calls.schema.registry",
        "calls.log",
        "calls.reviewer.text",
        "calls.reviewer.blocks.type",
        "calls.reviewer.finish",
        "calls.reviewer.data_after_finish",
        "calls.reviewer.delay_ms",
        "calls.reviewer.throw",
        "calls.downstream.kind",
        "calls.downstream.info",
        "calls.approval",
        "calls.abort",
    ] {
        assert!(seen.contains_key(path), "no line names {path}");
    }
    // Each line's scenario reads back as itself: it is canonical.
    for line in &lines {
        let s = &line["scenario"];
        let read = autoreview::scenario::session::Input::from_value(s)
            .unwrap_or_else(|e| panic!("{}: {e}", line["case"]));
        assert_eq!(&canonical::input(&read), s, "{}", line["case"]);
    }
}

/// The reference engine behind the protocol reads every canonical scenario of the fixture, under
/// its `reply`, and answers the fixture's outcome: the form is one the runner's own reader takes.
#[test]
fn serve_answers_each_canonical_line_with_the_fixture_outcome() {
    use autoreview::Profile;
    for profile in [Profile::BASELINE, Profile::RESILIENT] {
        let lines: Vec<serde_json::Value> = replay::lines()
            .expect("the fixed cases load")
            .into_iter()
            .filter(|l| l["profile"] == serde_json::to_value(profile).unwrap())
            .collect();
        let mut input = serde_json::json!({"type": "hello", "protocol": 2, "profile": profile, "runner": "test"}).to_string();
        input.push('\n');
        for (seq, l) in lines.iter().enumerate() {
            let decide = serde_json::json!({"type": "decide", "seq": seq, "reply": l["reply"], "scenario": l["scenario"]});
            input.push_str(&decide.to_string());
            input.push('\n');
        }
        let mut out = Vec::new();
        autoreview::protocol::serve(
            input.as_bytes(),
            &mut out,
            std::io::sink(),
            &[profile],
            None,
        )
        .expect("serve runs");
        let replies: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(replies.len(), lines.len());
        for (reply, l) in replies.iter().zip(&lines) {
            assert_eq!(reply["outcome"], l["outcome"], "{}: {reply}", l["case"]);
        }
    }
}
