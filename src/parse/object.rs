//! The closed protocol object (AR-PARSE-5..7): reading one JSON text into its top-level members with
//! duplicates kept, and matching those members against the six legal shapes.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::{ReplyError, ReviewerDecision, Risk};

/// A JSON value seen only as far as the protocol needs: an object's members in order, duplicates
/// kept, or "something else".
enum TopLevel {
    Object(Vec<(String, Value)>),
    Other,
}

impl<'de> Deserialize<'de> for TopLevel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TopLevel;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopLevel, A::Error> {
                let mut members = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Value>()? {
                    members.push((k, v));
                }
                Ok(TopLevel::Object(members))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TopLevel, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(TopLevel::Other)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<TopLevel, E> {
                Ok(TopLevel::Other)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<TopLevel, E> {
                Ok(TopLevel::Other)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<TopLevel, E> {
                Ok(TopLevel::Other)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<TopLevel, E> {
                Ok(TopLevel::Other)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<TopLevel, E> {
                Ok(TopLevel::Other)
            }
            fn visit_unit<E: de::Error>(self) -> Result<TopLevel, E> {
                Ok(TopLevel::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads `text` as exactly one JSON value (JSON whitespace around it only) and returns its
/// top-level members in order, repeats included.
pub fn members_with_repeats(text: &str) -> Result<Vec<(String, Value)>, ReplyError> {
    match serde_json::from_str::<TopLevel>(text) {
        Err(e) => Err(ReplyError::InvalidJson(e.to_string())),
        Ok(TopLevel::Other) => Err(ReplyError::NotObject),
        Ok(TopLevel::Object(members)) => Ok(members),
    }
}

/// Reads `text` as exactly one JSON value (JSON whitespace around it only) and returns its top-level
/// members, or the first protocol rule it breaks among AR-PARSE-4..6.
pub fn members(text: &str) -> Result<Vec<(String, Value)>, ReplyError> {
    without_repeats(members_with_repeats(text)?)
}

/// AR-PARSE-6: the members, unless one is named twice.
pub fn without_repeats(members: Vec<(String, Value)>) -> Result<Vec<(String, Value)>, ReplyError> {
    // A set keeps this linear: hostile text can carry a great many members.
    let mut seen = std::collections::HashSet::with_capacity(members.len());
    if members.iter().any(|(k, _)| !seen.insert(k.as_str())) {
        return Err(ReplyError::Repeated);
    }
    Ok(members)
}

/// Matches an object's members (already free of duplicates) against the six shapes (AR-PARSE-7).
pub fn shape(members: &[(String, Value)]) -> Result<ReviewerDecision, ReplyError> {
    let get = |name: &str| members.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let risk = match get("risk").and_then(Value::as_str) {
        Some("low") => Risk::Low,
        Some("medium") => Risk::Medium,
        Some("high") => Risk::High,
        _ => return Err(ReplyError::Protocol),
    };
    let decision = get("decision").and_then(Value::as_str);
    match (members.len(), decision, risk) {
        (2, Some("allow"), Risk::Low | Risk::Medium) => Ok(ReviewerDecision::Allow { risk }),
        (2, Some("deny"), Risk::Medium | Risk::High) => {
            Ok(ReviewerDecision::Deny { risk, reason: None })
        }
        (3, Some("deny"), Risk::Medium | Risk::High) => match get("reason") {
            Some(Value::String(r)) => Ok(ReviewerDecision::Deny {
                risk,
                reason: Some(r.clone()),
            }),
            _ => Err(ReplyError::Protocol),
        },
        _ => Err(ReplyError::Protocol),
    }
}
