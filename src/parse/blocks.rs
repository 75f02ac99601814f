//! A reply given as a JSON array of content blocks (what `autoreview parse --blocks` reads, the
//! `blocks` of a scenario attempt), read straight into what each reader looks at, so that the
//! reading costs little beyond the JSON text itself: no `serde_json::Value`, no copy of a text
//! the reader never reads, no decoded copy of the whole array.
//!
//! A first reading, by `serde`, checks the array against the `Block` type and keeps one kind per
//! block, skipping the texts; a second one walks the accepted text to check each text (a string,
//! valid UTF-8 once decoded) and find where it stands. Together they accept what reading the
//! array into a `serde_json::Value` and then into `Vec<Block>` accepts (as a scenario attempt's
//! blocks are read), a repeated member counting with its last value; the one difference is a
//! repeated `type` whose earlier value is not a block type, refused here. The tolerant reader joins the text blocks
//! and refuses more than its bound (AR-TOL-2, AR-TOL-3), so texts are decoded only to one byte
//! past the bound; the strict reader reads the last block only (AR-PARSE-3), decoded in the JSON
//! text's own buffer.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::json::{self, Decoded, StrAt};
use super::{BlockRef, Finish, Reply, ReplyError, ReviewerDecision, strict, tolerant};
use crate::scenario::BlockKind;

/// Why a text is not a block array.
#[derive(Debug, thiserror::Error)]
pub enum BlocksError {
    /// The text is not a JSON array of `{"type", "text"}` blocks.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A block's text is not a string, or holds an unpaired surrogate escape (not UTF-8).
    #[error("block {block}: {problem}")]
    Text {
        /// The block's index, from 0.
        block: usize,
        /// What is wrong with its text.
        problem: &'static str,
    },
    /// The second reading lost its way in a text the first accepted (a defect of this reader;
    /// no verdict is given).
    #[error("internal error: the block array could not be walked again")]
    Lost,
}

/// The strict reader's verdict (AR-PARSE-3..7) on the reply whose blocks are the JSON array
/// `json`, ended by a normal stop.
pub fn strict(json: String) -> Result<Result<ReviewerDecision, ReplyError>, BlocksError> {
    let kinds = kinds(&json)?;
    let mut last = None;
    each_text(&json, |_, at| last = Some(at))?;
    // The strict reader sees the first block before the last that is not reasoning, if any, and
    // the last block; which of its rules applies depends on nothing else.
    let (before, end) = kinds.split_at(kinds.len().saturating_sub(1));
    let misplaced = before.iter().find(|k| **k != BlockKind::Reasoning);
    let blocks = misplaced
        .into_iter()
        .chain(end)
        .map(|&kind| BlockRef { kind, text: "" })
        .collect();
    let reply = Reply {
        blocks,
        finish: Finish::Stop,
        data_after_finish: false,
    };
    if let Err(e) = strict::text_block(&reply) {
        return Ok(Err(e));
    }
    let at = last.ok_or(BlocksError::Lost)?;
    Ok(strict::parse_owned(json::decode_in_place(json, at)))
}

/// The text blocks of the array `json` (whose block kinds are `kinds`) joined in order (AR-TOL-2),
/// decoded only up to the first whole character past the tolerant reader's bound (AR-TOL-3): the
/// reader refuses anything longer, so a longer text is never held whole.
fn joined_texts(json: &str, kinds: &[BlockKind]) -> Result<String, BlocksError> {
    let mut joined = Vec::new();
    each_text(json, |block, at| {
        if kinds.get(block) == Some(&BlockKind::Text) {
            for c in Decoded::new(json.as_bytes(), at) {
                // A byte that continues a character never starts the rest.
                if joined.len() > tolerant::MAX_TEXT_BYTES && (c & 0xC0) != 0x80 {
                    break;
                }
                joined.push(c);
            }
        }
    })?;
    // Every text was checked to be well-formed, so this is UTF-8; the lossy form is never taken.
    Ok(String::from_utf8(joined)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// The tolerant reader's verdict (AR-TOL-2..10) on the reply whose blocks are the JSON array
/// `json`, ended by a normal stop.
pub fn tolerant(json: &str) -> Result<Result<ReviewerDecision, ReplyError>, BlocksError> {
    let kinds = kinds(json)?;
    let joined = joined_texts(json, &kinds)?;
    let kind = if kinds.contains(&BlockKind::ToolCall) {
        // AR-TOL-2: a tool call fails the review whatever else the reply holds.
        BlockKind::ToolCall
    } else {
        BlockKind::Text
    };
    Ok(tolerant::read(&Reply {
        blocks: vec![BlockRef {
            kind,
            text: &joined,
        }],
        finish: Finish::Stop,
        data_after_finish: false,
    }))
}

/// The first reading: the array checked against the `Block` type, one kind per block kept, each
/// text skipped without being decoded (the second reading checks it).
fn kinds(json: &str) -> Result<Vec<BlockKind>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(json);
    let kinds = de.deserialize_seq(Kinds)?;
    de.end()?;
    Ok(kinds)
}

struct Kinds;

impl<'de> Visitor<'de> for Kinds {
    type Value = Vec<BlockKind>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut kinds = Vec::new();
        while let Some(kind) = seq.next_element_seed(BlockSeed)? {
            kinds.push(kind);
        }
        Ok(kinds)
    }
}

const FIELDS: &[&str] = &["type", "text"];

/// One block, as `Block`'s derived `Deserialize` reads it (an object, or an array of two), its
/// text skipped. A repeated field is read each time and the last one counts, as reading the
/// array through a `serde_json::Value` did.
struct BlockSeed;

impl<'de> DeserializeSeed<'de> for BlockSeed {
    type Value = BlockKind;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_struct("Block", FIELDS, self)
    }
}

impl<'de> Visitor<'de> for BlockSeed {
    type Value = BlockKind;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct Block")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut kind, mut text) = (None, false);
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::Type => kind = Some(map.next_value::<BlockKind>()?),
                Field::Text => {
                    map.next_value::<IgnoredAny>()?;
                    text = true;
                }
            }
        }
        let kind = kind.ok_or_else(|| de::Error::missing_field("type"))?;
        if !text {
            return Err(de::Error::missing_field("text"));
        }
        Ok(kind)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // A short sequence is refused in the words serde's derived reading of `Block` uses.
        const SHORT: &str = "struct Block with 2 elements";
        let kind = seq
            .next_element::<BlockKind>()?
            .ok_or_else(|| de::Error::invalid_length(0, &SHORT))?;
        seq.next_element::<IgnoredAny>()?
            .ok_or_else(|| de::Error::invalid_length(1, &SHORT))?;
        Ok(kind)
    }
}

/// A block's field name.
enum Field {
    Type,
    Text,
}

impl<'de> de::Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("field identifier")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                match v {
                    "type" => Ok(Field::Type),
                    "text" => Ok(Field::Text),
                    other => Err(de::Error::unknown_field(other, FIELDS)),
                }
            }
        }
        d.deserialize_identifier(Name)
    }
}

/// The second reading, over the array the first accepted: each block's text (the last `text`
/// member of an object, the second element of an array) must be a string, and every text value,
/// repeated ones included, well-formed UTF-16, as a `serde_json::Value` of the array required;
/// `on_text` gets each block's index and where its text stands.
fn each_text(json: &str, mut on_text: impl FnMut(usize, StrAt)) -> Result<(), BlocksError> {
    let b = json.as_bytes();
    let expect = |i: usize, c: u8| (b.get(i) == Some(&c)).then(|| json::after_ws(b, i + 1));
    // A text value: its end, after checking its strings.
    let text_value = |block: usize, i: usize| -> Result<usize, BlocksError> {
        match json::value_end(b, i) {
            Some((end, true)) => Ok(end),
            Some((_, false)) => Err(BlocksError::Text {
                block,
                problem: "its text holds an unpaired surrogate escape, which is not UTF-8",
            }),
            None => Err(BlocksError::Lost),
        }
    };
    let mut i = expect(json::after_ws(b, 0), b'[').ok_or(BlocksError::Lost)?;
    let mut block = 0;
    while b.get(i) != Some(&b']') {
        let text = match b.get(i) {
            Some(b'[') => {
                let first = json::after_ws(b, i + 1);
                let (end, _) = json::value_end(b, first).ok_or(BlocksError::Lost)?;
                let second = expect(json::after_ws(b, end), b',').ok_or(BlocksError::Lost)?;
                text_value(block, second)?;
                second
            }
            Some(b'{') => {
                let mut text = None;
                let mut j = json::after_ws(b, i + 1);
                while b.get(j) == Some(&b'"') {
                    let name = StrAt(j);
                    let (end, _) = json::string_end(b, name).ok_or(BlocksError::Lost)?;
                    j = expect(json::after_ws(b, end), b':').ok_or(BlocksError::Lost)?;
                    let value_end = if Decoded::new(b, name).eq("text".bytes()) {
                        text = Some(j);
                        text_value(block, j)?
                    } else {
                        json::value_end(b, j).ok_or(BlocksError::Lost)?.0
                    };
                    j = json::after_ws(b, value_end);
                    if b.get(j) == Some(&b',') {
                        j = json::after_ws(b, j + 1);
                    }
                }
                text.ok_or(BlocksError::Lost)?
            }
            _ => return Err(BlocksError::Lost),
        };
        if b.get(text) != Some(&b'"') {
            return Err(BlocksError::Text {
                block,
                problem: "its text is not a string",
            });
        }
        on_text(block, StrAt(text));
        let (end, _) = json::value_end(b, i).ok_or(BlocksError::Lost)?;
        i = json::after_ws(b, end);
        if b.get(i) == Some(&b',') {
            i = json::after_ws(b, i + 1);
        }
        block += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Risk;
    use crate::scenario::Attempt;

    /// A value of the wrong shape is refused with the words serde's derived reading of the block
    /// type uses, so `autoreview parse --blocks` explains it as the scenario contract would.
    #[test]
    fn a_wrong_shape_is_named_as_the_block_type_names_it() {
        for json in [
            "{}",
            "[1]",
            "[[]]",
            "[[\"text\"]]",
            "\"x\"",
            "[{\"type\": 3}]",
        ] {
            let ours = kinds(json).unwrap_err().to_string();
            let theirs = serde_json::from_str::<Vec<crate::scenario::Block>>(json)
                .unwrap_err()
                .to_string();
            assert_eq!(ours, theirs, "{json}");
        }
    }

    /// The joined text stops at the first whole character past the bound: an ASCII text one byte
    /// past it, a text of three-byte characters at the end of the character that crosses it, and
    /// what is kept is always the start of the texts, never cut inside a character.
    #[test]
    fn texts_past_the_bound_are_joined_only_to_the_first_whole_character_past_it() {
        let bound = tolerant::MAX_TEXT_BYTES;
        let of = |texts: &[String]| {
            let blocks: Vec<serde_json::Value> = texts
                .iter()
                .map(|t| serde_json::json!({"type": "text", "text": t}))
                .collect();
            let json = serde_json::to_string(&blocks).unwrap();
            joined_texts(&json, &kinds(&json).unwrap()).unwrap()
        };
        let ascii = "a".repeat(bound + 10);
        assert_eq!(of(std::slice::from_ref(&ascii)), ascii[..bound + 1]);
        let wide = "名".repeat(bound / 3 + 10);
        let joined = of(std::slice::from_ref(&wide));
        assert!(wide.starts_with(&joined), "not the start of the text");
        assert_eq!(joined.len(), (bound / 3 + 1) * 3);
        // Two blocks: the bound applies to the texts joined.
        let half = "b".repeat(bound / 2 + 1);
        assert_eq!(of(&[half.clone(), half.clone()]).len(), bound + 1);
        // Under the bound everything is kept.
        assert_eq!(of(&["x".into(), "名".into()]), "x名");
    }

    /// Reads `json` through this module and as the scenario contract reads an attempt's blocks
    /// (a `serde_json::Value`, then `Vec<Block>`): both refuse it, or both readers give the same
    /// verdict both ways. Returns whether it was accepted.
    fn agrees(json: &str) -> bool {
        let old = serde_json::from_str::<serde_json::Value>(json)
            .ok()
            .and_then(|v| Attempt::from_value(serde_json::json!({ "blocks": v })).ok());
        let (new_strict, new_tolerant) = (strict(json.to_owned()), tolerant(json));
        let Some(Attempt::Blocks { blocks, .. }) = old else {
            assert!(new_strict.is_err(), "strict accepted {json}");
            assert!(new_tolerant.is_err(), "tolerant accepted {json}");
            return false;
        };
        let reply = Reply::blocks(&blocks, Some("stop"), false);
        assert_eq!(
            new_strict.expect(json),
            strict::read(&reply),
            "strict: {json}"
        );
        assert_eq!(
            new_tolerant.expect(json),
            tolerant::read(&reply),
            "tolerant: {json}"
        );
        true
    }

    const DENY: &str = r#"{\"risk\":\"high\",\"decision\":\"deny\",\"reason\":\"r\\u00e9\"}"#;
    const ALLOW: &str = r#"{\"risk\":\"low\",\"decision\":\"allow\"}"#;

    #[test]
    fn reads_as_the_scenario_contract_reads_blocks() {
        let (deny, allow) = (DENY, ALLOW);
        for json in [
            "[]".to_owned(),
            format!(r#"[{{"type":"text","text":"{deny}"}}]"#),
            format!(r#"[{{"text":"{deny}","type":"text"}}]"#),
            format!(r#" [ {{ "type" : "reasoning" , "text" : "x" }} , [ "text" , "{deny}" ] ] "#),
            format!(
                r#"[{{"type":"reasoning","text":"{allow}"}},{{"t\u0065xt":"{allow}","type":"text"}}]"#
            ),
            format!(r#"[{{"type":"text","text":"{allow}"}},{{"type":"text","text":"{allow}"}}]"#),
            r#"[{"type":"text","text":"{\"risk\":"},{"type":"text","text":"\"low\",\"decision\":\"allow\"}"}]"#
                .to_owned(),
            format!(r#"[{{"type":"text","text":"{deny}"}},{{"type":"reasoning","text":""}}]"#),
            format!(r#"[{{"type":"tool-call","text":"{{}}"}},{{"type":"text","text":"{deny}"}}]"#),
            format!(r#"[{{"type":{{"text":null}},"text":"{deny}"}}]"#),
            format!(r#"[[{{"text" : null}},"{deny}"]]"#),
            format!(r#"[{{"type":"text","text":"{deny} \ud83d\ude00 \n"}}]"#),
            r#"[{"type":"text","text":""}]"#.to_owned(),
            r#"[{"type":"reasoning","text":""},{"type":"reasoning","text":""}]"#.to_owned(),
        ] {
            assert!(agrees(&json), "refused {json}");
        }
    }

    #[test]
    fn a_repeated_field_keeps_its_last_value() {
        let json = r#"[{"type":"reasoning","text":"{\"risk\":\"high\",\"decision\":\"deny\"}","type":"text","text":"{\"risk\":\"low\",\"decision\":\"allow\"}"}]"#;
        let allow = Ok(ReviewerDecision::Allow { risk: Risk::Low });
        assert_eq!(strict(json.to_owned()).unwrap(), allow);
        assert_eq!(tolerant(json).unwrap(), allow);
        assert!(agrees(json));
        // A repeated text need not have been a string, as long as the last one is.
        assert!(agrees(r#"[{"type":"text","text":[1,{"a":2}],"text":"x"}]"#));
        assert!(agrees(
            r#"[{"type":"text","text":[1e-400,-0,true,null,"\ud83d\ude00"],"text":"x"}]"#
        ));
    }

    #[test]
    fn refuses_what_the_scenario_contract_refuses() {
        for json in [
            "",
            "{}",
            "[{}]",
            r#"[{"type":"text"}]"#,
            r#"[{"text":"x"}]"#,
            r#"[{"type":"text","text":1}]"#,
            r#"[{"type":"text","text":"x","text":null}]"#,
            r#"[{"type":"prose","text":"x"}]"#,
            r#"[{"type":"text","text":"x","extra":1}]"#,
            r#"[["text"]]"#,
            r#"[["text",2]]"#,
            r#"[["text","a","b"]]"#,
            r#"[{"type":"text","text":"\ud800"}]"#,
            r#"[{"type":"text","text":"a\udc00b"}]"#,
            r#"[{"type":"text","text":["\ud800"],"text":"x"}]"#,
            r#"[{"type":"text","text":1e400,"text":"x"}]"#,
            r#"[{"type":"text","text":{"a":[-2E+999]},"text":"x"}]"#,
            r#"[{"type":"text","text":"x"}] x"#,
            r#"[{"type":"text","text":"x"},]"#,
            r#"[{"type":"text","text":"x\u12"}]"#,
        ] {
            assert!(!agrees(json), "accepted {json}");
        }
    }

    #[test]
    fn the_tolerant_reading_stops_at_the_bound() {
        let big = "{".repeat(tolerant::MAX_TEXT_BYTES / 2);
        let over = format!(
            r#"[{{"type":"text","text":"{big}"}},{{"type":"text","text":"\n{big}"}},{{"type":"text","text":"\u00e9"}}]"#
        );
        assert_eq!(tolerant(&over).unwrap(), Err(ReplyError::TooLarge));
        assert!(agrees(&over));
        let with_tool_call = over.replace("]", r#",{"type":"tool-call","text":""}]"#);
        assert_eq!(
            tolerant(&with_tool_call).unwrap(),
            Err(ReplyError::ToolCall)
        );
        assert!(agrees(&with_tool_call));
        // Exactly at the bound, across a two-byte character and several blocks.
        let half = "x".repeat(tolerant::MAX_TEXT_BYTES / 2 - 1);
        let at = format!(
            r#"[{{"type":"text","text":"{half}\u00e9"}},{{"type":"reasoning","text":"{half}"}},{{"type":"text","text":"{half}"}}]"#
        );
        assert!(agrees(&at));
        assert!(agrees(&at.replace("xxx\"}]", "xxxy\"}]")));
    }

    #[test]
    fn the_strict_reading_finds_the_last_text_again() {
        let many: Vec<String> = (0..50)
            .map(|i| format!(r#"{{"text":"[\"{i}\",{{}}]","type":"reasoning"}}"#))
            .collect();
        let json = format!(
            r#"[{}, ["text", "{{\"risk\":\"high\",\"decision\":\"deny\",\"reason\":\"[}}{{\\\"\"}}"]]"#,
            many.join(",")
        );
        assert!(agrees(&json));
        assert_eq!(
            strict(json).unwrap(),
            Ok(ReviewerDecision::Deny {
                risk: Risk::High,
                reason: Some("[}{\"".to_owned())
            })
        );
    }
}
