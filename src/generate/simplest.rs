//! The simplest values shrinking tries once no smaller scenario shows a difference: for every
//! member of a reviewer attempt, values closer to the plainest one of its kind, so that a
//! counterexample holds only what the difference needs (an empty message object rather than
//! `{"bbx":null,...}`, `decision` rather than `d\u0065cision`, a bare legal object rather than
//! prose around one). Each function gives the one-step simplifications, simplest first; whether
//! one is realizable, and whether it keeps the difference, is for the caller to decide.

use serde_json::Value;

use crate::scenario::{Attempt, Block, BlockKind};

/// A bare legal object that allows (AR-PARSE-1): the plainest answer a text attempt can give.
pub const ALLOWS: &str = "{\"risk\":\"low\",\"decision\":\"allow\"}";

/// Simpler JSON values than `v`, simplest first: the empty value of its kind (`{}`, `[]`, `""`,
/// `0`, `false`), then, of an object or an array, one member or element dropped, then one of
/// them simplified in turn.
pub fn values(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match v {
        Value::Null => {}
        Value::Bool(b) => {
            if *b {
                out.push(Value::Bool(false));
            }
        }
        Value::Number(n) => {
            if n.to_string() != "0" {
                out.push(Value::from(0));
            }
        }
        Value::String(s) => {
            if !s.is_empty() {
                out.push(Value::String(String::new()));
            }
        }
        Value::Array(items) => {
            if !items.is_empty() {
                out.push(Value::Array(Vec::new()));
            }
            if items.len() > 1 {
                for i in 0..items.len() {
                    let mut fewer = items.clone();
                    fewer.remove(i);
                    out.push(Value::Array(fewer));
                }
            }
            for (i, item) in items.iter().enumerate() {
                for simpler in values(item) {
                    let mut t = items.clone();
                    t[i] = simpler;
                    out.push(Value::Array(t));
                }
            }
        }
        Value::Object(members) => {
            if !members.is_empty() {
                out.push(Value::Object(Default::default()));
            }
            if members.len() > 1 {
                for k in members.keys() {
                    let mut fewer = members.clone();
                    fewer.remove(k);
                    out.push(Value::Object(fewer));
                }
            }
            for (k, member) in members {
                for simpler in values(member) {
                    let mut t = members.clone();
                    t.insert(k.clone(), simpler);
                    out.push(Value::Object(t));
                }
            }
        }
    }
    out
}

/// Simpler reviewer texts than `text`, simplest first: the empty text, a bare legal object that
/// allows (but not for the empty text, which is simpler still), then, for a text that is one JSON value, that value written plainly (escapes decoded,
/// no whitespace: `{"d\u0065cision": ...}` becomes `{"decision": ...}`) and each of its
/// [`values`] written plainly.
pub fn texts(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |t: String| {
        if t != text && !out.contains(&t) {
            out.push(t);
        }
    };
    push(String::new());
    if !text.is_empty() {
        push(ALLOWS.to_owned());
    }
    // A text with a lone surrogate escape does not parse here, and keeps it.
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        push(v.to_string());
        for simpler in values(&v) {
            push(simpler.to_string());
        }
    }
    out
}

/// Simpler attempts than `a`, simplest first, each differing in one member: a text's simpler
/// [`texts`]; of blocks, one text block as a plain text attempt, one block fewer, no data after
/// the finish, a `stop` finish, one block's text simpler; a failed finish with the code `UNKNOWN`
/// or a simpler message ([`values`]); a simpler thrown value. The delay is left to the caller.
pub fn attempts(a: &Attempt) -> Vec<Attempt> {
    let mut out = Vec::new();
    match a {
        Attempt::Text { text, delay_ms } => {
            out.extend(texts(text).into_iter().map(|text| Attempt::Text {
                text,
                delay_ms: *delay_ms,
            }));
        }
        Attempt::Blocks {
            blocks,
            finish,
            data_after_finish,
            delay_ms,
        } => {
            let with = |blocks: Vec<Block>, finish: Option<&str>, data_after_finish: bool| {
                Attempt::Blocks {
                    blocks,
                    finish: finish.map(str::to_owned),
                    data_after_finish,
                    delay_ms: *delay_ms,
                }
            };
            if let [only] = blocks.as_slice()
                && only.kind == BlockKind::Text
                && finish.as_deref() == Some("stop")
                && !data_after_finish
            {
                out.push(Attempt::Text {
                    text: only.text.clone(),
                    delay_ms: *delay_ms,
                });
            }
            for i in 0..blocks.len() {
                let mut fewer = blocks.clone();
                fewer.remove(i);
                out.push(with(fewer, finish.as_deref(), *data_after_finish));
            }
            if *data_after_finish {
                out.push(with(blocks.clone(), finish.as_deref(), false));
            }
            // Another finish, or none, towards a normal stop.
            if finish.as_deref() != Some("stop") {
                out.push(with(blocks.clone(), Some("stop"), *data_after_finish));
            }
            for (i, b) in blocks.iter().enumerate() {
                for text in texts(&b.text) {
                    let mut t = blocks.clone();
                    t[i].text = text;
                    out.push(with(t, finish.as_deref(), *data_after_finish));
                }
            }
        }
        Attempt::Finish { finish, delay_ms } => {
            if finish.code != "UNKNOWN" {
                let mut f = finish.clone();
                f.code = "UNKNOWN".to_owned();
                out.push(Attempt::Finish {
                    finish: f,
                    delay_ms: *delay_ms,
                });
            }
            for message in values(&finish.message) {
                let mut f = finish.clone();
                f.message = message;
                out.push(Attempt::Finish {
                    finish: f,
                    delay_ms: *delay_ms,
                });
            }
        }
        Attempt::Throw { throw, delay_ms } => {
            out.extend(values(throw).into_iter().map(|throw| Attempt::Throw {
                throw,
                delay_ms: *delay_ms,
            }));
        }
        Attempt::Hang { .. } => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_object_empties_first_then_drops_members_one_by_one() {
        let v = json!({"bbx": null, "vc1": "x"});
        let out = values(&v);
        assert_eq!(out[0], json!({}));
        assert!(out.contains(&json!({"vc1": "x"})));
        assert!(out.contains(&json!({"bbx": null})));
        assert!(out.contains(&json!({"bbx": null, "vc1": ""})));
        assert!(values(&json!({})).is_empty());
        assert!(values(&json!(0)).is_empty());
        assert!(values(&json!("")).is_empty());
    }

    #[test]
    fn a_json_text_is_written_plainly() {
        let text = r#" {"risk":"low","d\u0065cision":"deny"} "#;
        let out = texts(text);
        assert_eq!(out[0], "");
        assert_eq!(out[1], ALLOWS);
        assert_eq!(out[2], r#"{"risk":"low","decision":"deny"}"#);
        assert!(out.iter().all(|t| !t.contains("\\u")));
        // A lone surrogate is not decoded away: the text does not parse as JSON here.
        assert_eq!(texts(r#"{"reason":"\ud800"}"#).len(), 2);
        // Nothing is simpler than the empty text.
        assert!(texts("").is_empty());
    }
}
