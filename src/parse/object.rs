//! The closed protocol object (AR-PARSE-5..7): reading one JSON text into its top-level members with
//! duplicates kept, and matching those members against the six legal shapes.

use super::json::{self, JsString, Member, TopLevel};
use super::{ReplyError, ReviewerDecision, Risk};

/// Reads `text` as exactly one JSON value, as `JSON.parse` does (AR-PARSE-4), and returns its
/// top-level members in order, repeats included.
pub fn members_with_repeats(text: &str) -> Result<Vec<Member>, ReplyError> {
    match json::read(text) {
        Err(e) => Err(ReplyError::InvalidJson(e.to_string())),
        Ok(TopLevel::Other) => Err(ReplyError::NotObject),
        Ok(TopLevel::Object(members)) => Ok(members),
    }
}

/// Reads `text` as exactly one JSON value (JSON whitespace around it only) and returns its top-level
/// members, or the first protocol rule it breaks among AR-PARSE-4..6.
pub fn members(text: &str) -> Result<Vec<Member>, ReplyError> {
    without_repeats(members_with_repeats(text)?)
}

/// AR-PARSE-6: the members, unless one is named twice. Names are compared decoded, as UTF-16 code
/// units (`"\ud800"` and `"\udc00"` differ; `"d\u0065cision"` repeats `"decision"`).
pub fn without_repeats(members: Vec<Member>) -> Result<Vec<Member>, ReplyError> {
    // A set keeps this linear: hostile text can carry a great many members.
    let mut seen = std::collections::HashSet::with_capacity(members.len());
    if members.iter().any(|m| !seen.insert(&m.name)) {
        return Err(ReplyError::Repeated);
    }
    Ok(members)
}

/// Matches an object's members (already free of duplicates) against the six shapes (AR-PARSE-7).
/// A reason holding an unpaired surrogate is carried with U+FFFD in its place.
pub fn shape(members: &[Member]) -> Result<ReviewerDecision, ReplyError> {
    let get = |name: &str| {
        members
            .iter()
            .find(|m| m.name.is(name))
            .and_then(|m| m.value.as_js_str())
    };
    let is = |s: Option<&JsString>, v: &str| s.is_some_and(|s| s.is(v));
    let risk = match get("risk") {
        r if is(r, "low") => Risk::Low,
        r if is(r, "medium") => Risk::Medium,
        r if is(r, "high") => Risk::High,
        _ => return Err(ReplyError::Protocol),
    };
    let decision = get("decision");
    match (members.len(), risk) {
        (2, Risk::Low | Risk::Medium) if is(decision, "allow") => {
            Ok(ReviewerDecision::Allow { risk })
        }
        (2, Risk::Medium | Risk::High) if is(decision, "deny") => {
            Ok(ReviewerDecision::Deny { risk, reason: None })
        }
        (3, Risk::Medium | Risk::High) if is(decision, "deny") => match get("reason") {
            Some(r) => Ok(ReviewerDecision::Deny {
                risk,
                reason: Some(r.to_string_lossy()),
            }),
            None => Err(ReplyError::Protocol),
        },
        _ => Err(ReplyError::Protocol),
    }
}
