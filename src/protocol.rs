//! The adapter protocol (`spec/protocol.md`): how the runner talks to an implementation under test
//! that runs as one long-lived subprocess, one JSON object per line on stdin and stdout.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::outcome::InputOutcome;
use crate::profile::Profile;
use crate::scenario::session::Input;

/// The protocol version this runner speaks.
pub const VERSION: u32 = 2;

/// The protocol versions the runner accepts in an adapter's `hello`: protocol 1 adapters keep
/// working, observing nothing beyond it.
pub const ACCEPTED: [u32; 2] = [1, 2];

/// A message from the runner to the adapter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Request {
    /// The first message: which protocol and profile this run uses.
    Hello {
        /// The protocol version, [`VERSION`].
        protocol: u32,
        /// The profile every case of this run is decided under.
        profile: Profile,
        /// The profile's reader, rules and the configuration it reads: a gate decides by these,
        /// never by the profile's name. The runner always sends them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rules: Option<crate::profile::WireRules>,
        /// The runner's name and version, for the adapter's logs.
        runner: String,
    },
    /// Decide one scenario.
    Decide {
        /// Echoed in the reply; opaque to the adapter.
        seq: u64,
        /// The scenario, as in `spec/scenario.md`; for an adapter that asked for canonical
        /// scenarios, its canonical form (always a session, every member named).
        scenario: Value,
        /// Sent with a canonical scenario only: whether the reply holds a call's outcome (the
        /// scenario was a single call) or the session's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reply: Option<ReplyKind>,
        /// Sent with a canonical scenario only: what the scripted world answers for each item of
        /// its `calls`, in order (`null` for an event).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        world: Option<Vec<Option<crate::scenario::canonical::WorldAnswer>>>,
    },
    /// The run is over; the adapter exits. No reply.
    Stop,
}

impl Request {
    /// The runner's first message for a run under `profile`: the protocol, the profile's name and
    /// its rules (a gate decides by these), and who sends it (`runner`, for the adapter's logs).
    /// The one place a hello is made, for a run and for a repro line alike.
    pub fn hello(profile: Profile, runner: impl Into<String>) -> Request {
        Request::Hello {
            protocol: VERSION,
            profile,
            rules: Some(profile.wire_rules()),
            runner: runner.into(),
        }
    }
}

/// What the outcome of a `decide` with a canonical scenario holds (`spec/protocol.md`,
/// "Canonical scenarios").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReplyKind {
    /// The scenario was a single call: the reply holds the outcome of the session's only call.
    Call,
    /// The scenario was a session: the reply holds the session's outcome.
    Session,
}

impl ReplyKind {
    /// The member a `decide` line carries before its scenario: `"reply":"call",`.
    pub fn member(self) -> &'static str {
        match self {
            ReplyKind::Call => "\"reply\":\"call\",",
            ReplyKind::Session => "\"reply\":\"session\",",
        }
    }
}

/// A message from the adapter to the runner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Reply {
    /// The answer to `hello`.
    Hello {
        /// The protocol version the adapter speaks.
        protocol: u32,
        /// What is under test.
        implementation: ImplementationInfo,
        /// The profiles it can be checked against.
        profiles: Vec<Profile>,
        /// Protocol 2: the values of each rule its gate implements (`spec/protocol.md`, "Rules"):
        /// it can also be checked against any profile whose every rule value is listed, a user's
        /// own profile among them; absent, only against `profiles`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(
            with = "Option<std::collections::BTreeMap<String, Vec<crate::profile::RuleValue>>>"
        )]
        rules: Option<std::collections::BTreeMap<String, Vec<Value>>>,
        /// Protocol 2: what it observes beyond protocol 1; absent, nothing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Option<Vec<crate::capability::Observable>>")]
        observes: Option<Vec<String>>,
        /// Protocol 2: what its framework cannot express; absent, nothing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Option<Vec<crate::capability::Capability>>")]
        lacks: Option<Vec<String>>,
        /// Protocol 2: the optional features its gate implements (`spec/protocol.md`, "Optional
        /// features"); absent, every one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Option<Vec<crate::features::Feature>>")]
        features: Option<Vec<String>>,
        /// Protocol 2: `true` asks for every scenario in its canonical form; absent, as written.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        canonical: bool,
    },
    /// The outcome of one scenario.
    Outcome {
        /// The request's `seq`.
        seq: u64,
        /// The outcome, as in `spec/scenario.md`: a call's, or for a session scenario the
        /// session's (`{"id", "calls": [...]}`).
        outcome: InputOutcome,
    },
    /// The adapter could not decide one scenario (it caught an error); the case fails.
    Error {
        /// The request's `seq`.
        seq: u64,
        /// What went wrong, for the report.
        message: String,
    },
}

impl Reply {
    /// Reads one reply line. An `outcome` reply, nearly every line of a run, is read in one pass
    /// straight into its types; any other line takes the tagged path, whose error names what is
    /// wrong.
    pub fn parse(line: &str) -> Result<Reply, serde_json::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct OutcomeReply {
            #[serde(rename = "type")]
            _kind: OutcomeTag,
            seq: u64,
            outcome: Box<crate::outcome::Outcome>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "kebab-case")]
        enum OutcomeTag {
            Outcome,
        }
        let line = lone_surrogates_replaced(line);
        match serde_json::from_str::<OutcomeReply>(&line) {
            Ok(r) => Ok(Reply::Outcome {
                seq: r.seq,
                outcome: InputOutcome::One(r.outcome),
            }),
            Err(_) => serde_json::from_str(&line),
        }
    }
}

/// `line` with every escape of a lone surrogate inside a string written `\ufffd`, so that a reply
/// reads as U+FFFD where a JavaScript adapter's `JSON.stringify` wrote a lone surrogate (as in a
/// reviewer's reason that `JSON.parse` accepted, AR-PARSE-4) instead of failing to parse. A high
/// surrogate escape directly followed by a low one is a pair and stays; an escaped backslash
/// (`\\ud800`) is not an escape of `u`. One pass; the line is copied only when something changes.
pub fn lone_surrogates_replaced(line: &str) -> std::borrow::Cow<'_, str> {
    let mut lone = crate::scenario::portable::lone_surrogates(line).peekable();
    if lone.peek().is_none() {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut copied = 0;
    for at in lone {
        out.push_str(line.get(copied..at).unwrap_or_default());
        out.push_str("\\ufffd");
        copied = at + 6;
    }
    out.push_str(line.get(copied..).unwrap_or_default());
    std::borrow::Cow::Owned(out)
}

/// Which way a protocol line goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// From the runner to the adapter.
    Request,
    /// From the adapter to the runner.
    Reply,
}

/// Why a protocol line cannot be read, when the reason is one its writer can act on and serde's
/// message would not say: a byte-order mark, a lone surrogate escape (in a request; a reply's is
/// read as U+FFFD), a member named twice, an integer beyond ±(2^53 − 1), or a line that is not a
/// JSON object. `None` when serde's own message is the better one.
pub fn unreadable_line(line: &str, kind: Line) -> Option<String> {
    let line = line.trim_end_matches(['\n', '\r']);
    if let Some(not) = crate::scenario::portable::not_an_object(line) {
        let what = match kind {
            Line::Request => "request",
            Line::Reply => "reply",
        };
        return Some(format!("a {what} is a JSON object, not {not}"));
    }
    let line = match kind {
        Line::Reply => lone_surrogates_replaced(line),
        Line::Request => std::borrow::Cow::Borrowed(line),
    };
    crate::scenario::portable::check(&line)
        .err()
        .map(|e| crate::scenario::ScenarioError::from(e).to_string())
}

/// What an adapter says about the implementation it wraps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImplementationInfo {
    /// Its name, e.g. `dsh-experimental-auto-review`.
    pub name: String,
    /// Its version.
    pub version: String,
    /// The language it is written in.
    pub language: String,
    /// Where to read more, if anywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
}

/// The JSON Schema of both directions, for adapter authors (`spec/protocol.schema.json`).
pub fn schema_text() -> String {
    #[derive(JsonSchema)]
    #[allow(dead_code)] // a schema root only
    /// Every line the runner writes is a `Request`; every line the adapter writes is a `Reply`.
    struct Protocol {
        request: Request,
        reply: Reply,
    }
    let mut s = serde_json::to_string_pretty(&schemars::schema_for!(Protocol)).unwrap_or_default();
    s.push('\n');
    s
}

/// Serves the reference engine over the protocol (version [`VERSION`], observing sessions,
/// requests and session-log facts): reads requests from `input`, writes replies to `output` until
/// `stop` or the end of input. A session scenario gets the session's outcome. A line that is not
/// a request gets an `error` reply when it carries a `seq`, and is otherwise reported on `log`.
/// With `audit`, every decided input is also written there as audit records (`spec/audit.md`),
/// its calls in session `input-<seq>`; a record that cannot be written is said on `log` once, and
/// serving goes on without the log.
pub fn serve(
    mut input: impl std::io::BufRead,
    mut output: impl std::io::Write,
    mut log: impl std::io::Write,
    profiles: &[Profile],
    mut audit: Option<&mut dyn std::io::Write>,
) -> std::io::Result<()> {
    let mut record = |log: &mut dyn std::io::Write,
                      seq: u64,
                      input: &Input,
                      outcome: &InputOutcome,
                      profile: Profile|
     -> std::io::Result<()> {
        let Some(out) = audit.as_mut() else {
            return Ok(());
        };
        let session = format!("input-{seq}");
        let written = crate::audit::write::records(input, outcome, profile, &session)
            .iter()
            .try_for_each(|r| writeln!(out, "{r}"))
            .and_then(|()| out.flush());
        if let Err(e) = written {
            writeln!(
                log,
                "autoreview serve: the audit log cannot be written ({e}); serving goes on without it"
            )?;
            audit = None;
        }
        Ok(())
    };
    /// A well-formed decide request, read in one pass straight into its types; anything else
    /// takes the slower path below, which names what is wrong.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Decide {
        #[serde(rename = "type")]
        kind: DecideTag,
        seq: u64,
        scenario: crate::scenario::Scenario,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "kebab-case")]
    enum DecideTag {
        Decide,
    }
    let mut profile: Option<Profile> = None;
    // One buffer for every line: a scenario may carry megabytes of reviewer text.
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        if let Some(p) = profile
            && let Ok(Decide {
                kind: DecideTag::Decide,
                seq,
                scenario,
            }) = serde_json::from_str::<Decide>(&line)
        {
            let input = Input::One(Box::new(scenario));
            let outcome = crate::engine::decide_input(&input, p);
            record(&mut log, seq, &input, &outcome, p)?;
            let reply = Reply::Outcome { seq, outcome };
            serde_json::to_writer(&mut output, &reply)?;
            output.write_all(b"\n")?;
            output.flush()?;
            continue;
        }
        let reply = match serde_json::from_str::<Request>(&line) {
            Ok(Request::Stop) => break,
            Ok(Request::Hello {
                protocol,
                profile: p,
                ..
            }) => {
                if protocol != VERSION {
                    writeln!(
                        log,
                        "autoreview serve: the runner speaks protocol {protocol}, this adapter {VERSION}"
                    )?;
                }
                profile = Some(p);
                Reply::Hello {
                    protocol: VERSION,
                    implementation: ImplementationInfo {
                        name: "autoreview-reference".into(),
                        version: env!("CARGO_PKG_VERSION").into(),
                        language: "rust".into(),
                        homepage: None,
                    },
                    profiles: profiles.to_vec(),
                    rules: None,
                    observes: Some(
                        crate::capability::Observable::ALL
                            .iter()
                            .map(|o| o.as_str().to_owned())
                            .collect(),
                    ),
                    lacks: None,
                    features: None,
                    canonical: false,
                }
            }
            Ok(Request::Decide {
                seq,
                scenario,
                reply,
                world: _,
            }) => {
                // The line's text still shows members named twice, which the parsed value lost.
                let read = crate::scenario::portable::check(&line)
                    .map_err(crate::scenario::ScenarioError::from)
                    .and_then(|()| Input::from_value(&scenario))
                    .and_then(|input| match (reply, input) {
                        // A canonical single call: the session of that one call.
                        (Some(ReplyKind::Call), Input::Session(s)) => {
                            crate::scenario::canonical::single_call(&s)
                                .map(|c| Input::One(Box::new(c)))
                                .ok_or_else(|| crate::scenario::ScenarioError {
                                    path: "calls".into(),
                                    message: "`\"reply\": \"call\"` asks for the outcome of a session of one call, and this session holds another number of items".into(),
                                })
                        }
                        (_, input) => Ok(input),
                    });
                match (profile, read) {
                    (None, _) => Reply::Error {
                        seq,
                        message: "decide before hello: send hello first".into(),
                    },
                    (_, Err(e)) => Reply::Error {
                        seq,
                        message: format!("invalid scenario: {e}"),
                    },
                    (Some(p), Ok(s)) => {
                        let outcome = crate::engine::decide_input(&s, p);
                        record(&mut log, seq, &s, &outcome, p)?;
                        Reply::Outcome { seq, outcome }
                    }
                }
            }
            Err(e) => {
                let why = unreadable_line(&line, Line::Request).unwrap_or_else(|| e.to_string());
                // The seq of a line that is not readable as it stands (a byte-order mark, a lone
                // surrogate), so that the error reaches whoever waits for that reply.
                let readable = lone_surrogates_replaced(line.trim_start_matches('\u{feff}'));
                let seq = serde_json::from_str::<Value>(&readable)
                    .ok()
                    .and_then(|v| v.get("seq").and_then(Value::as_u64));
                match seq {
                    Some(seq) => Reply::Error {
                        seq,
                        message: format!("not a request: {why}"),
                    },
                    None => {
                        writeln!(
                            log,
                            "autoreview serve: ignoring a line that is not a request: {why}"
                        )?;
                        continue;
                    }
                }
            }
        };
        serde_json::to_writer(&mut output, &reply)?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::lone_surrogates_replaced as fix;

    #[test]
    fn lone_surrogate_escapes_become_u_fffd_and_nothing_else_changes() {
        assert_eq!(fix(r#"{"r":"\ud800"}"#), r#"{"r":"\ufffd"}"#);
        assert_eq!(
            fix(r#"{"r":"a\uDC00b\udbff"}"#),
            r#"{"r":"a\ufffdb\ufffd"}"#
        );
        // A low surrogate before a high one is two lone surrogates, not a pair.
        assert_eq!(fix(r#"["\udc00\ud800"]"#), r#"["\ufffd\ufffd"]"#);
        // A lone high surrogate, then a pair.
        assert_eq!(
            fix(r#"["\ud800\ud83d\ude00"]"#),
            r#"["\ufffd\ud83d\ude00"]"#
        );
        for same in [
            r#"{"r":"\ud83d\ude00"}"#,
            r#"{"r":"\\ud800"}"#,
            r#"{"r":"\\\"\\ud800"}"#,
            r#"{"r":"\u0041\n\"ud800"}"#,
            r#"{"r":"\ud80"}"#,
            "{\"r\":\"\u{fffd}\"}",
            r#"\ud800 outside a string"#,
        ] {
            assert!(matches!(fix(same), std::borrow::Cow::Borrowed(_)), "{same}");
        }
        // An escaped quote does not end the string; the escape after it is still inside it.
        assert_eq!(fix(r#"{"r":"\"\ud800"}"#), r#"{"r":"\"\ufffd"}"#);
        // The rewritten line is read as U+FFFD.
        let v: serde_json::Value = serde_json::from_str(&fix(r#"{"r":"x\udfff"}"#)).unwrap();
        assert_eq!(v["r"], "x\u{fffd}");
    }
}
