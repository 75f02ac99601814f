//! The closed protocol object (AR-PARSE-5..7): reading one JSON text into a summary of its
//! top-level object, checking that no member is named twice, and matching it against the six
//! legal shapes.

use super::json::{self, Known, MemberValue, Object, StrAt, TopLevel};
use super::{ReplyError, ReviewerDecision, Risk};

/// Reads `text` as exactly one JSON value, as `JSON.parse` does (AR-PARSE-4), which must be an
/// object (AR-PARSE-5); repeated names are not looked for yet.
pub fn object(text: &str) -> Result<Object<'_>, ReplyError> {
    match json::read(text) {
        Err(e) => Err(ReplyError::InvalidJson(e.to_string())),
        Ok(TopLevel::Other) => Err(ReplyError::NotObject),
        Ok(TopLevel::Object(o)) => Ok(o),
    }
}

/// Reads `text` as exactly one JSON value (JSON whitespace around it only) and returns its
/// top-level object, or the first protocol rule it breaks among AR-PARSE-4..6.
pub fn members(text: &str) -> Result<Object<'_>, ReplyError> {
    without_repeats(object(text)?)
}

/// AR-PARSE-6: the object, unless it names a member twice. Names are compared decoded, as UTF-16
/// code units (`"\ud800"` and `"\udc00"` differ; `"d\u0065cision"` repeats `"decision"`).
pub fn without_repeats(o: Object<'_>) -> Result<Object<'_>, ReplyError> {
    if o.has_repeated_name() {
        return Err(ReplyError::Repeated);
    }
    Ok(o)
}

/// A legal decision (AR-PARSE-7) whose reason, if any, is still where it stands in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    risk: Risk,
    allow: bool,
    reason: Option<StrAt>,
}

impl Shape {
    /// The decision, with the reason decoded by `decode`.
    pub fn decision(self, decode: impl FnOnce(StrAt) -> String) -> ReviewerDecision {
        let risk = self.risk;
        if self.allow {
            ReviewerDecision::Allow { risk }
        } else {
            ReviewerDecision::Deny {
                risk,
                reason: self.reason.map(decode),
            }
        }
    }
}

/// Matches an object (already free of repeated names) against the six shapes (AR-PARSE-7).
pub fn shape_of(o: &Object<'_>) -> Result<Shape, ReplyError> {
    let string = |k: Known| match o.get(k) {
        Some(MemberValue::String(at)) => Some(at),
        _ => None,
    };
    let is = |s: Option<StrAt>, v: &str| s.is_some_and(|at| o.string_is(at, v));
    let risk = match string(Known::Risk) {
        r if is(r, "low") => Risk::Low,
        r if is(r, "medium") => Risk::Medium,
        r if is(r, "high") => Risk::High,
        _ => return Err(ReplyError::Protocol),
    };
    let decision = string(Known::Decision);
    let shape = |allow, reason| {
        Ok(Shape {
            risk,
            allow,
            reason,
        })
    };
    match (o.len(), risk) {
        (2, Risk::Low | Risk::Medium) if is(decision, "allow") => shape(true, None),
        (2, Risk::Medium | Risk::High) if is(decision, "deny") => shape(false, None),
        (3, Risk::Medium | Risk::High) if is(decision, "deny") => match string(Known::Reason) {
            Some(r) => shape(false, Some(r)),
            None => Err(ReplyError::Protocol),
        },
        _ => Err(ReplyError::Protocol),
    }
}

/// [`shape_of`], with a reason decoded into a string of its own. A reason holding an unpaired
/// surrogate is carried with U+FFFD in its place.
pub fn shape(o: &Object<'_>) -> Result<ReviewerDecision, ReplyError> {
    Ok(shape_of(o)?.decision(|at| o.decode(at).into_string_lossy()))
}
