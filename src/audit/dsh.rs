//! Reading a dsh session log into audit records (`spec/audit-dsh.md`): the decompressed lines of a
//! `session.v4.jsonl.zstd`, a header then one event a line, each `tool/call` (or PTC
//! sub-dispatch) paired with its result into a call record carrying the route, approval policy and
//! preset the log had folded when the call started, and each `permission/preset` a preset record.
//! Events the session replayed from its parent (older than its creation) move that state but make
//! no record. Pure: the caller reads and decompresses the file.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::{ApprovalRecord, CallRecord, Record, ResultRecord};

/// The session-log format version this reader reads (dsh's `SESSION_FORMAT_VERSION`).
pub const FORMAT_VERSION: u64 = 4;

/// The error codes of the results dsh writes to close a crashed turn's calls: the call never
/// started, or its outcome was never recorded.
const UNKNOWN_OUTCOMES: [&str; 2] = ["TOOL_NOT_STARTED", "TOOL_OUTCOME_UNKNOWN"];

/// How many calls may be open at once; past it the oldest is given up as one without a result.
const MAX_OPEN: usize = 4096;

/// A dsh session log being read, one line at a time.
#[derive(Debug)]
pub struct DshSession {
    fallback: String,
    header: Option<Header>,
    /// Why the header was refused, repeated for every later line.
    refused: Option<String>,
    route: Option<String>,
    policy: Option<String>,
    preset: Option<String>,
    /// The calls still open, by when they opened.
    open: BTreeMap<u64, CallRecord>,
    /// Each open call's ordinal, by its call id.
    ids: HashMap<String, u64>,
    /// Approval prompts waiting for their answer: the prompt's id, the call's ordinal.
    asks: HashMap<String, u64>,
    next: u64,
}

#[derive(Debug)]
struct Header {
    id: String,
    created_at: Option<f64>,
}

impl DshSession {
    /// `fallback` names the session when the header gives no id (e.g. the log's directory name).
    pub fn new(fallback: &str) -> DshSession {
        DshSession {
            fallback: fallback.to_owned(),
            header: None,
            refused: None,
            route: None,
            policy: None,
            preset: None,
            open: BTreeMap::new(),
            ids: HashMap::new(),
            asks: HashMap::new(),
            next: 0,
        }
    }

    /// One line of the decompressed log: the audit records it completes (zero or more), or why the
    /// line is no event of a version-4 session log (what was expected). Never panics, bounded work
    /// per line.
    pub fn line(&mut self, line: &str) -> Result<Vec<Record>, String> {
        if line.trim().is_empty() {
            return Ok(Vec::new());
        }
        if let Some(why) = &self.refused {
            return Err(why.clone());
        }
        let value: Value = serde_json::from_str(line)
            .map_err(|e| format!("not JSON ({e}); expected one event of a dsh session log"))?;
        let Value::Object(object) = value else {
            return Err("not a JSON object; expected one event of a dsh session log".to_owned());
        };
        let kind = object.get("type").and_then(Value::as_str);
        if self.header.is_none() {
            if kind != Some("session") {
                return Err(format!(
                    "expected the session header first ({{\"type\":\"session\",\"version\":{FORMAT_VERSION},…}}), found {}",
                    kind.map_or("no `type`".to_owned(), |k| format!("a {k:?} event"))
                ));
            }
            return self.read_header(&object).map(|()| Vec::new());
        }
        let Some(kind) = kind else {
            return Err("an event needs a string `type`".to_owned());
        };
        if kind == "session" {
            return Err("a second session header; expected an event".to_owned());
        }
        let time = match object.get("time") {
            Some(t) => Some(t.as_f64().ok_or_else(|| {
                format!("a {kind:?} event's `time` is not a number (Unix epoch milliseconds)")
            })?),
            None => None,
        };
        let data = match object.get("data") {
            Some(Value::Object(d)) => d,
            _ => return Err(format!("a {kind:?} event needs an object `data`")),
        };
        self.event(kind, time, data)
    }

    /// At the end of the log: a record for each call left without a result (its `result` absent, so
    /// audit counts it undecidable).
    pub fn finish(self) -> Vec<Record> {
        self.open
            .into_values()
            .map(|c| Record::Call(Box::new(c)))
            .collect()
    }

    fn read_header(&mut self, object: &Map<String, Value>) -> Result<(), String> {
        let version = object.get("version");
        let why = match version.and_then(Value::as_u64) {
            Some(FORMAT_VERSION) => None,
            Some(v) => Some(format!(
                "the session header has version {v}; expected version {FORMAT_VERSION} (a session.v{FORMAT_VERSION} log)"
            )),
            None => Some(format!(
                "the session header has no numeric version (found {}); expected version {FORMAT_VERSION}",
                version.map_or("none".to_owned(), Value::to_string)
            )),
        };
        if let Some(why) = why {
            self.refused = Some(why.clone());
            return Err(why);
        }
        let id = object
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map_or_else(|| self.fallback.clone(), str::to_owned);
        let created_at = object.get("createdAt").and_then(Value::as_f64);
        self.header = Some(Header { id, created_at });
        Ok(())
    }

    fn session(&self) -> String {
        self.header
            .as_ref()
            .map_or_else(|| self.fallback.clone(), |h| h.id.clone())
    }

    fn event(
        &mut self,
        kind: &str,
        time: Option<f64>,
        data: &Map<String, Value>,
    ) -> Result<Vec<Record>, String> {
        // Replayed from a parent: older than this session. It still moves the folded state (the
        // session's own fold reads it), but it is not this session's call.
        let replayed = match (time, self.header.as_ref().and_then(|h| h.created_at)) {
            (Some(t), Some(created)) => t < created,
            _ => false,
        };
        let stamp = time.and_then(rfc3339);
        let mut out = Vec::new();
        match kind {
            "request/header" => {
                let config = data
                    .get("header")
                    .and_then(|h| h.get("config"))
                    .ok_or("a \"request/header\" event needs data.header.config")?;
                let part = |k: &str| config.get(k).and_then(Value::as_str).unwrap_or("");
                let (provider, model) = (part("provider"), part("model"));
                self.route = (!provider.is_empty() && !model.is_empty())
                    .then(|| format!("{provider}/{model}"));
            }
            "approval/policy" => {
                self.policy = Some(string(data, "policy", kind)?.to_owned());
            }
            "permission/preset" => {
                let preset = string(data, "preset", kind)?.to_owned();
                self.preset = Some(preset.clone());
                if !replayed {
                    out.push(Record::Preset {
                        session: self.session(),
                        time: stamp,
                        preset,
                    });
                }
            }
            "tool/call" => {
                let (id, name, arguments) = (
                    string(data, "callId", kind)?,
                    string(data, "name", kind)?,
                    string(data, "arguments", kind)?,
                );
                if !replayed {
                    out.extend(self.open_call(id, name, raw_arguments_empty(arguments)));
                }
            }
            "tool/ptc-dispatch-start" => {
                let (id, name) = (
                    string(data, "subCallId", kind)?,
                    string(data, "name", kind)?,
                );
                if !replayed {
                    let empty = value_empty(data.get("arguments"));
                    out.extend(self.open_call(id, name, empty));
                }
            }
            "tool/result" => {
                let message = data
                    .get("message")
                    .ok_or("a \"tool/result\" event needs data.message")?;
                let id = message
                    .get("source")
                    .and_then(|s| s.get("callId"))
                    .or_else(|| message.get("toolCallId"))
                    .and_then(Value::as_str)
                    .ok_or("a \"tool/result\" event needs data.message.source.callId")?;
                if !replayed && let Some(mut call) = self.close_call(id) {
                    // A closer dsh wrote after a crash says the outcome is unknown: no result.
                    let code = data.get("error").and_then(|e| e.get("code"));
                    if !code.is_some_and(|c| UNKNOWN_OUTCOMES.iter().any(|u| c == u)) {
                        call.time = stamp;
                        call.result = Some(result(message.get("content"), data.get("error")));
                    }
                    out.push(Record::Call(Box::new(call)));
                }
            }
            "tool/ptc-dispatch" => {
                let (id, name) = (
                    string(data, "subCallId", kind)?,
                    string(data, "name", kind)?,
                );
                if !replayed {
                    let mut call = self.close_call(id).unwrap_or_else(|| CallRecord {
                        empty_arguments: Some(value_empty(data.get("arguments"))),
                        ..self.call(name)
                    });
                    call.time = stamp;
                    call.result = Some(result(data.get("content"), data.get("error")));
                    out.push(Record::Call(Box::new(call)));
                }
            }
            "approval/asked" => {
                let ask = string(data, "id", kind)?;
                let reason = data.get("reason").and_then(Value::as_str);
                if let Some(ordinal) = data
                    .get("callId")
                    .and_then(Value::as_str)
                    .and_then(|c| self.ids.get(c).copied())
                    && let Some(call) = self.open.get_mut(&ordinal)
                    && call.approval.is_none()
                {
                    call.approval = Some(ApprovalRecord {
                        reason: reason.map(str::to_owned),
                        answer: None,
                    });
                    self.asks.insert(ask.to_owned(), ordinal);
                }
            }
            "approval/decided" => {
                let (ask, outcome) = (string(data, "id", kind)?, string(data, "outcome", kind)?);
                if let Some(ordinal) = self.asks.remove(ask)
                    && let Some(approval) = self
                        .open
                        .get_mut(&ordinal)
                        .and_then(|c| c.approval.as_mut())
                {
                    approval.answer = Some(outcome.to_owned());
                }
            }
            // A turn's calls all have results before it ends (dsh writes closers for those it
            // could not run); a call still open here never got one.
            "turn/end" => {
                self.ids.clear();
                self.asks.clear();
                out.extend(
                    std::mem::take(&mut self.open)
                        .into_values()
                        .map(|c| Record::Call(Box::new(c))),
                );
            }
            _ => {}
        }
        Ok(out)
    }

    /// A call record of this session with the state folded so far.
    fn call(&self, tool: &str) -> CallRecord {
        CallRecord {
            session: self.session(),
            tool: tool.to_owned(),
            route: self.route.clone(),
            policy: self.policy.clone(),
            preset: self.preset.clone(),
            ..CallRecord::default()
        }
    }

    /// Opens a call; gives back any call it displaces (the same id still open, or the oldest when
    /// too many are open), as a record without a result.
    fn open_call(&mut self, id: &str, tool: &str, empty: bool) -> Vec<Record> {
        let mut out = Vec::new();
        if let Some(old) = self.close_call(id) {
            out.push(Record::Call(Box::new(old)));
        }
        if self.open.len() >= MAX_OPEN
            && let Some((ordinal, old)) = self.open.pop_first()
        {
            self.ids.retain(|_, o| *o != ordinal);
            self.asks.retain(|_, o| *o != ordinal);
            out.push(Record::Call(Box::new(old)));
        }
        let ordinal = self.next;
        self.next += 1;
        self.ids.insert(id.to_owned(), ordinal);
        self.open.insert(
            ordinal,
            CallRecord {
                empty_arguments: Some(empty),
                ..self.call(tool)
            },
        );
        out
    }

    fn close_call(&mut self, id: &str) -> Option<CallRecord> {
        let ordinal = self.ids.remove(id)?;
        self.asks.retain(|_, o| *o != ordinal);
        self.open.remove(&ordinal)
    }
}

/// A string member of an event's data, or what the event needs.
fn string<'a>(data: &'a Map<String, Value>, key: &str, kind: &str) -> Result<&'a str, String> {
    data.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("a {kind:?} event needs a string data.{key}"))
}

/// Whether a `tool/call`'s raw argument text is empty as dsh's agent loop reads it: the empty
/// string is `{}`, other text is parsed, and text that is no JSON stays a (non-empty) string.
fn raw_arguments_empty(raw: &str) -> bool {
    raw.is_empty() || value_empty(serde_json::from_str::<Value>(raw).ok().as_ref())
}

/// Whether parsed arguments are the empty object.
fn value_empty(value: Option<&Value>) -> bool {
    value.and_then(Value::as_object).is_some_and(Map::is_empty)
}

/// A result as the model saw it: the text blocks' text, any other block as `[<type> content]`,
/// joined by line breaks (as dsh's tool runtime flattens content into a failure message), with
/// the event's structured error identity.
fn result(content: Option<&Value>, error: Option<&Value>) -> ResultRecord {
    let text = content.and_then(Value::as_array).map(|blocks| {
        blocks
            .iter()
            .map(
                |b| match (b.get("type").and_then(Value::as_str), b.get("text")) {
                    (Some("text"), Some(Value::String(t))) => t.clone(),
                    (kind, _) => format!("[{} content]", kind.unwrap_or("unknown")),
                },
            )
            .collect::<Vec<_>>()
            .join("\n")
    });
    ResultRecord {
        text,
        error: error.filter(|e| e.is_object()).cloned(),
    }
}

/// Unix epoch milliseconds as RFC 3339 in UTC, to the millisecond.
fn rfc3339(ms: f64) -> Option<String> {
    if !ms.is_finite() || ms.fract() != 0.0 || ms.abs() > 8.64e15 {
        return None;
    }
    chrono::DateTime::from_timestamp_millis(ms as i64)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
}
