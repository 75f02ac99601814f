//! Scenario text every JSON reader reads alike (`spec/scenario.md`, numbers and members): no member
//! named twice in any object, and no integer beyond ±(2^53 − 1). A JSON reader keeps either the
//! first or the last of two same-named members, and a JavaScript adapter reads a larger integer as
//! the nearest double, so such a scenario would mean one thing to the reference and another to the
//! implementation under test.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// The largest integer every JSON implementation reads exactly (I-JSON, RFC 7493).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Why a scenario text is not one every reader reads alike: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inexact {
    /// The member's path (`session.route`, `reviewer[1].throw`), empty at the top level.
    pub path: String,
    /// What was wrong.
    pub message: String,
}

/// Checks a whole JSON text. A text that is not JSON passes: the scenario reader reports that
/// with its own, better message.
pub fn check(text: &str) -> Result<(), Inexact> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut found = None;
    let _ = Walk {
        path: String::new(),
        found: &mut found,
    }
    .deserialize(&mut de);
    match found {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// One value at `path`; the first problem found is kept in `found` and ends the walk.
struct Walk<'f> {
    path: String,
    found: &'f mut Option<Inexact>,
}

impl Walk<'_> {
    fn fail<E: de::Error>(self, message: String) -> Result<(), E> {
        *self.found = Some(Inexact {
            path: self.path,
            message,
        });
        Err(E::custom("stop"))
    }

    fn integer<E: de::Error>(self, magnitude: u64, text: impl fmt::Display) -> Result<(), E> {
        if magnitude > MAX_SAFE_INTEGER {
            return self.fail(format!(
                "the integer {text} is beyond ±(2^53 − 1), which a JavaScript reader cannot hold exactly; write a smaller one, or a decimal"
            ));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.integer(v, v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.integer(v.unsigned_abs(), v)
    }

    // A number serde_json reads as a double is read as the same double by every reader.
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        loop {
            let item = Walk {
                path: format!("{}[{i}]", self.path),
                found: &mut *self.found,
            };
            if seq.next_element_seed(item)?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.path)
            };
            if !seen.insert(key.clone()) {
                return Walk {
                    path: self.path,
                    found: self.found,
                }
                .fail(format!(
                    "the member {key:?} appears twice; JSON readers disagree on which one counts, so name each member once"
                ));
            }
            map.next_value_seed(Walk {
                path,
                found: &mut *self.found,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> Option<(String, String)> {
        check(text).err().map(|e| (e.path, e.message))
    }

    #[test]
    fn duplicates_are_found_at_any_depth_with_their_path() {
        assert_eq!(problem(r#"{"a":1,"b":{"c":[{"d":1}]}}"#), None);
        let (path, message) = problem(r#"{"tool":{"name":"a","name":"b"}}"#).unwrap();
        assert_eq!(path, "tool");
        assert!(message.contains("\"name\" appears twice"), "{message}");
        let (path, _) = problem(
            r#"{"reviewer":[{"text":"a"},{"blocks":[{"type":"text","text":"x","text":"y"}]}]}"#,
        )
        .unwrap();
        assert_eq!(path, "reviewer[1].blocks[0]");
        // Names are compared after decoding: an escape does not make a second name.
        assert!(problem(r#"{"decision":1,"d\u0065cision":2}"#).is_some());
    }

    #[test]
    fn integers_beyond_the_safe_range_are_refused_and_doubles_are_not() {
        assert_eq!(problem("9007199254740991"), None);
        assert_eq!(problem("-9007199254740991"), None);
        let (_, message) = problem(r#"{"x":9007199254740992}"#).unwrap();
        assert!(message.contains("9007199254740992"), "{message}");
        assert!(problem("-9007199254740992").is_some());
        assert!(problem(r#"{"delay_ms":18446744073709551615}"#).is_some());
        // Beyond u64 serde_json reads a double, as every reader does.
        assert_eq!(
            problem("1e400"),
            None,
            "not JSON a scenario accepts, but not this check's"
        );
        assert_eq!(problem("9007199254740993.5"), None);
        assert_eq!(problem("1e19"), None);
    }

    #[test]
    fn text_that_is_not_json_is_left_to_the_reader() {
        assert_eq!(problem("{"), None);
        assert_eq!(problem(""), None);
    }
}
