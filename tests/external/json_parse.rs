//! The strict reader against the shipped gate's own check, run by Node: for every corpus text and
//! a few thousand generated ones, `JSON.parse`, the object check, `topLevelMemberCount` and the six
//! shapes (AR-PARSE-4..7) give the same verdict as `strict::parse_text`, and the tolerant reader
//! reads a text that is one brace span the way its JSON says (AR-TOL-5, AR-TOL-7, AR-TOL-8).

use std::process::Command;

use autoreview::corpus;
use autoreview::parse::{ReplyError, ReviewerDecision, Risk, scan, strict, tolerant};
use autoreview::scenario::Attempt;
use serde_json::{Value, json};

/// The shipped `parseDecision` (reference §2.4-2.5), applied to every line of the JSONL file named
/// by the first argument; one verdict per line. `d` says whether a parsed object has an own
/// `decision` member. Lone surrogates in a reason are written as U+FFFD, as outcome texts carry
/// them.
const SHIPPED: &str = r#"
'use strict';
const fs = require('node:fs');
const wellFormed = (s) => (typeof s.toWellFormed === 'function' ? s.toWellFormed()
  : s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
function topLevelMemberCount(text) {
  const bare = text.replace(/"(?:\\.|[^"\\])*"/gs, '');
  let depth = 0;
  let count = 0;
  for (const c of bare) {
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ':' && depth === 1) count++;
  }
  return count;
}
function parseDecision(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (e instanceof SyntaxError) return { k: 'invalid' };
    throw e;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { k: 'not-object' };
  const keys = Object.keys(value).length;
  const d = Object.prototype.hasOwnProperty.call(value, 'decision');
  if (topLevelMemberCount(text) !== keys) return { k: 'repeated', d };
  const { risk, decision } = value;
  if (keys === 2 && decision === 'allow' && (risk === 'low' || risk === 'medium')) return { k: 'decision', risk, decision, d };
  if (keys === 2 && decision === 'deny' && (risk === 'medium' || risk === 'high')) return { k: 'decision', risk, decision, d };
  if (keys === 3 && decision === 'deny' && (risk === 'medium' || risk === 'high')
      && Object.prototype.hasOwnProperty.call(value, 'reason') && typeof value.reason === 'string') {
    return { k: 'decision', risk, decision, reason: wellFormed(value.reason), d };
  }
  return { k: 'protocol', d };
}
const out = [];
for (const line of fs.readFileSync(process.argv[1], 'utf8').split('\n')) {
  if (line === '') continue;
  try {
    out.push(JSON.stringify(parseDecision(JSON.parse(line))));
  } catch (e) {
    out.push(JSON.stringify({ k: 'error', message: String(e) }));
  }
}
process.stdout.write(out.join('\n') + '\n');
"#;

/// The strict reader's verdict in the form the script prints (without `d`).
fn ours(text: &str) -> Value {
    let risk = |r: &Risk| match r {
        Risk::Low => "low",
        Risk::Medium => "medium",
        Risk::High => "high",
    };
    match strict::parse_text(text) {
        Ok(ReviewerDecision::Allow { risk: r }) => {
            json!({"k": "decision", "risk": risk(&r), "decision": "allow"})
        }
        Ok(ReviewerDecision::Deny { risk: r, reason }) => {
            let mut v = json!({"k": "decision", "risk": risk(&r), "decision": "deny"});
            if let Some(reason) = reason {
                v["reason"] = reason.into();
            }
            v
        }
        Err(ReplyError::InvalidJson(_)) => json!({"k": "invalid"}),
        Err(ReplyError::NotObject) => json!({"k": "not-object"}),
        Err(ReplyError::Repeated) => json!({"k": "repeated"}),
        Err(ReplyError::Protocol) => json!({"k": "protocol"}),
        Err(other) => json!({"k": "unexpected", "error": other.to_string()}),
    }
}

/// A small seeded generator (xorshift64*): the texts are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

/// JSON whitespace mostly, sometimes a character `JSON.parse` does not take as whitespace.
fn ws(r: &mut Rng) -> String {
    if r.chance(1) {
        return r
            .pick(&[
                "\u{a0}", "\u{c}", "\u{b}", "\u{feff}", "\u{2028}", "\u{3000}", "\0",
            ])
            .into();
    }
    r.pick(&["", "", "", " ", "\t", "\n", "\r", "\r\n", "  \n\t"])
        .into()
}

/// `s` as a JSON string literal, with some of its characters written as escapes.
fn literal(r: &mut Rng, s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if r.chance(8) && (c as u32) < 0x10000 => {
                let hex = format!("{:04x}", c as u32);
                out.push_str("\\u");
                out.push_str(&if r.chance(50) {
                    hex.to_uppercase()
                } else {
                    hex
                });
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A member name: a protocol name in some spelling, or a name that tests decoding.
fn name(r: &mut Rng, protocol: &str) -> String {
    if r.chance(85) {
        return literal(r, protocol);
    }
    r.pick(&[
        r#""\ud800""#,
        r#""\uD800""#,
        r#""\udc00""#,
        r#""\ufffd""#,
        "\"\u{fffd}\"",
        r#""\ud83d\ude00""#,
        "\"\u{1f600}\"",
        r#""d\u0065cision""#,
        r#""Decision""#,
        r#""__proto__""#,
        r#""""#,
        r#""risk ""#,
        "'risk'",
        "risk",
    ])
    .into()
}

/// A string value's contents: raw pieces (written through `literal`) or escapes as they stand.
fn reason(r: &mut Rng) -> String {
    let mut out = String::from("\"");
    for _ in 0..r.below(6) {
        out.push_str(r.pick(&[
            "plain words",
            "\\n",
            "\\ud800",
            "\\udc00",
            "\\uDBFF",
            "\\ud800\\udc00",
            "\\udc00\\ud800",
            "\\ud800\\u0041",
            "\\ud83d\\ude00",
            "\\u0000",
            "\\u001b[31m",
            "\\\"",
            "\\\\",
            "\\\\ud800",
            "\\/",
            "\\b\\f\\r\\t",
            "é根\u{202e}",
            "\u{7f}\u{2028}",
        ]));
        if r.chance(5) {
            out.push_str(r.pick(&["\t", "\\x", "\\u12", "\\U0041", "\\'"]));
        }
    }
    out.push('"');
    out
}

/// A value of any kind, valid or nearly so; nested containers now and then, deep now and then.
fn value(r: &mut Rng) -> String {
    match r.below(10) {
        0..=2 => r
            .pick(&[
                "0",
                "-0",
                "1e400",
                "-1e400",
                "1E+2",
                "1.5e-7",
                "1e-400",
                "12345678901234567890123",
                "0.000",
                "01",
                "-",
                "1.",
                "+1",
                ".5",
                "1e",
                "0x10",
                "NaN",
                "Infinity",
                "-01",
                "1_000",
                "2.e3",
            ])
            .into(),
        3 => r
            .pick(&[
                "true",
                "false",
                "null",
                "tru",
                "nul",
                "True",
                "undefined",
                "nulll",
            ])
            .into(),
        4 | 5 => reason(r),
        6 => {
            let reach = if r.chance(10) { 8 } else { 5 };
            let depth = [1usize, 2, 3, 127, 128, 129, 1000, 20_000][r.below(reach)];
            let (open, close) = if r.chance(50) {
                ("[", "]")
            } else {
                ("{\"a\":", "}")
            };
            let inner = if r.chance(50) { "1" } else { "[]" };
            let closes = if r.chance(90) { depth } else { depth - 1 };
            format!("{}{inner}{}", open.repeat(depth), close.repeat(closes))
        }
        7 => format!("[{},{}]", value_flat(r), value_flat(r)),
        8 => format!("{{{}:{}}}", name(r, "x"), value_flat(r)),
        _ => r
            .pick(&[
                "[]", "{}", "[,]", "[1,]", "{,}", "[1 2]", "{\"a\"}", "{\"a\":}",
            ])
            .into(),
    }
}

fn value_flat(r: &mut Rng) -> String {
    r.pick(&["1", "\"s\"", "null", "[]", "{}", "\"\\ud800\""])
        .into()
}

/// A reply text: mostly a protocol-like object, sometimes with repeats, extra members, odd
/// separators, something around it, or a few characters changed.
fn text(r: &mut Rng) -> String {
    let (risk, decision) = if r.chance(70) {
        [
            ("low", "allow"),
            ("medium", "allow"),
            ("medium", "deny"),
            ("high", "deny"),
        ][r.below(4)]
    } else {
        (
            r.pick(&["low", "medium", "high", "LOW", "none"]),
            r.pick(&["allow", "deny", "Allow", "allow\u{fffd}"]),
        )
    };
    let mut members: Vec<(String, String)> = Vec::new();
    if r.chance(92) {
        let v = if r.chance(90) {
            literal(r, risk)
        } else {
            value(r)
        };
        members.push((name(r, "risk"), v));
    }
    if r.chance(92) {
        let v = if r.chance(90) {
            literal(r, decision)
        } else {
            value(r)
        };
        members.push((name(r, "decision"), v));
    }
    if r.chance(35) {
        let v = if r.chance(80) { reason(r) } else { value(r) };
        members.push((name(r, "reason"), v));
    }
    if r.chance(15) {
        let v = value(r);
        members.push((name(r, "extra"), v));
    }
    if r.chance(10) && !members.is_empty() {
        // A repeat, in the same spelling or another.
        let i = r.below(members.len());
        let again = members[i].clone();
        members.push(again);
    }
    if r.chance(4) {
        let pair = r.pick(&[
            r#""\ud800":1,"\udc00":2"#,
            r#""\ud800":1,"\uD800":2"#,
            r#""\ud800":1,"\ufffd":2"#,
            r#""\ud83d\ude00":1,"😀":2"#,
            r#""__proto__":1,"__proto__":2"#,
        ]);
        members.push((pair.into(), String::new()));
    }
    if members.len() > 1 && r.chance(50) {
        let i = r.below(members.len());
        members.swap(0, i);
    }
    let mut body = String::new();
    for (i, (n, v)) in members.iter().enumerate() {
        if i > 0 {
            body.push_str(if r.chance(2) { ",," } else { "," });
        }
        body.push_str(&ws(r));
        if v.is_empty() {
            body.push_str(n); // a ready-made pair of members
        } else {
            body.push_str(&format!("{n}{}:{}{v}", ws(r), ws(r)));
        }
    }
    if r.chance(3) {
        body.push(',');
    }
    let object = format!("{{{body}{}}}", ws(r));
    let mut t = match r.below(20) {
        0 => format!("[{object}]"),
        1 => format!("{object} {object}"),
        2 => format!("/* note */{object}"),
        3 => format!("```json\n{object}\n```"),
        4 => format!("\u{feff}{object}"),
        5 => value(r),
        _ => format!("{}{object}{}", ws(r), ws(r)),
    };
    if r.chance(15) {
        let mut chars: Vec<char> = t.chars().collect();
        for _ in 0..1 + r.below(3) {
            if chars.is_empty() {
                break;
            }
            let i = r.below(chars.len());
            match r.below(4) {
                0 => {
                    chars.remove(i);
                }
                1 => chars.insert(i, chars[i]),
                2 => {
                    let c = r
                        .pick(&[
                            "{", "}", "[", "]", "\"", "\\", ",", ":", " ", "\u{a0}", "\u{c}", "e",
                            "0", "-", "u", "d",
                        ])
                        .chars()
                        .next()
                        .unwrap_or(' ');
                    chars.insert(i, c);
                }
                _ => {
                    if i + 1 < chars.len() {
                        chars.swap(i, i + 1);
                    }
                }
            }
        }
        t = chars.into_iter().collect();
    }
    t
}

/// Texts the generator is sure to hold, whatever the seed does.
const FIXED: &[&str] = &[
    r#"{"risk":"high","decision":"deny","reason":"\ud800"}"#,
    r#"{"risk":"high","decision":"deny","reason":"a\udc00b\ud800\ud800\udc00"}"#,
    r#"{"risk":"low","decision":"allow\ud800"}"#,
    r#"{"risk":"low","decision":"allow","n":1e400}"#,
    r#"{"risk":"low","decision":"allow","\ud800":1}"#,
    r#"{"\ud800":1,"\udc00":2}"#,
    r#"{"\ud800":1,"\uD800":2}"#,
    r#"{"risk":"low","d\u0065cision":"allow"}"#,
    r#"{"risk":"low","decision":"deny","d\u0065cision":"allow"}"#,
    r#"{"risk":"low","decision":"allow","__proto__":{}}"#,
    r#"{"__proto__":{"risk":"low"},"decision":"allow"}"#,
    "{\"risk\":\"low\",\"decision\":\"allow\"}\u{a0}",
    "\u{c}{\"risk\":\"low\",\"decision\":\"allow\"}",
    "\u{feff}{\"risk\":\"low\",\"decision\":\"allow\"}",
    "{\"risk\":\"low\",\"decision\":\"allow\"}\u{2028}",
    " \t\r\n{\"risk\":\"low\",\"decision\":\"allow\"} \t\r\n",
    r#"{"risk":"medium","decision":"deny","reason":"x","reason":"y"}"#,
    r#"{"risk":"medium","decision":"deny","reason":null}"#,
    "",
    "null",
    "[]",
    "\"\\ud800\"",
];

#[test]
fn the_strict_reader_agrees_with_the_shipped_json_parse_check() {
    crate::tools::node();
    let mut texts: Vec<String> = Vec::new();
    for e in corpus::load().unwrap() {
        match &e.attempt {
            Attempt::Text { text, .. } => texts.push(text.clone()),
            Attempt::Blocks { blocks, .. } => texts.extend(blocks.iter().map(|b| b.text.clone())),
            _ => {}
        }
    }
    let from_corpus = texts.len();
    texts.extend(FIXED.iter().map(|t| (*t).to_owned()));
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    texts.extend((0..6000).map(|_| text(&mut r)));

    let path = std::env::temp_dir().join(format!(
        "autoreview-json-parse-{}.jsonl",
        std::process::id()
    ));
    let mut jsonl = String::new();
    for t in &texts {
        jsonl.push_str(&serde_json::to_string(t).unwrap());
        jsonl.push('\n');
    }
    std::fs::write(&path, jsonl).unwrap();
    let run = Command::new("node")
        .args(["-e", SHIPPED])
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    let run = run.unwrap();
    assert!(
        run.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let verdicts: Vec<Value> = String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(verdicts.len(), texts.len());

    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    let mut disagreements = Vec::new();
    let mut tolerant_checked = 0;
    for (i, (t, shipped)) in texts.iter().zip(&verdicts).enumerate() {
        let mut shipped = shipped.clone();
        let has_decision = shipped.as_object_mut().and_then(|o| o.remove("d"));
        *kinds
            .entry(shipped["k"].as_str().unwrap_or("?").to_owned())
            .or_default() += 1;
        let strict_verdict = ours(t);
        if strict_verdict != shipped {
            disagreements.push(format!(
                "text {i}{}: {:?}\n  JSON.parse check: {shipped}\n  strict reader:    {strict_verdict}",
                if i < from_corpus { " (corpus)" } else { "" },
                abbreviate(t)
            ));
            continue;
        }
        // The tolerant reader, on a text that is one brace span and nothing but JSON whitespace
        // around it, reads that span as JSON.parse reads the text.
        let trimmed = t.trim_matches([' ', '\t', '\n', '\r']);
        let spans = scan::top_level_objects(t);
        if t.len() > tolerant::MAX_TEXT_BYTES
            || !trimmed.starts_with('{')
            || spans.len() != 1
            || t.get(spans[0].clone()) != Some(trimmed)
        {
            continue;
        }
        let expected = match (&has_decision, shipped["k"].as_str()) {
            (_, Some("invalid")) if trimmed.contains("decision") => Err(ReplyError::Malformed),
            (_, Some("invalid")) => Err(ReplyError::NoDecision),
            (Some(Value::Bool(false)), _) => Err(ReplyError::NoDecision),
            _ => strict::parse_text(t),
        };
        tolerant_checked += 1;
        let read = tolerant::parse_text(t);
        if read != expected {
            disagreements.push(format!(
                "text {i}: {:?}\n  JSON.parse check: {shipped}\n  tolerant reader:  {read:?}, expected {expected:?}",
                abbreviate(t)
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} texts disagree:\n{}",
        disagreements.len(),
        texts.len(),
        disagreements.join("\n")
    );
    eprintln!(
        "verdicts of the shipped check: {kinds:?}; texts also read by the tolerant reader: {tolerant_checked}"
    );
    // The generator must reach every verdict, or the comparison proves less than it claims.
    for k in ["invalid", "not-object", "repeated", "protocol", "decision"] {
        assert!(
            kinds.get(k).copied().unwrap_or(0) >= 20,
            "only {:?} texts with verdict {k}: {kinds:?}",
            kinds.get(k)
        );
    }
}

fn abbreviate(t: &str) -> String {
    if t.chars().count() <= 300 {
        return t.to_owned();
    }
    let head: String = t.chars().take(150).collect();
    let tail: String = t
        .chars()
        .rev()
        .take(100)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("{head}…({} bytes)…{tail}", t.len())
}
