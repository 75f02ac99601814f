//! Whole numbers in a scenario (counts and milliseconds): a negative, fractional or out-of-range
//! number is refused saying what it is and what to give instead, never with a type name such as
//! `u32`.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde_json::Value;

use super::kind_of;
use super::portable::MAX_SAFE_INTEGER;

/// What one integer member of the scenario accepts, and how to say why a number is refused.
#[derive(Debug, Clone, Copy)]
pub struct Whole {
    /// What the number counts (`milliseconds`), or empty for a plain count.
    pub unit: &'static str,
    /// The least number accepted.
    pub min: u64,
    /// The greatest number accepted.
    pub max: u64,
    /// Why a number below `min` is refused, after the number: `leaves no time for any request`.
    pub below: &'static str,
    /// Why a number above `max` is refused, after the number.
    pub above: &'static str,
}

impl Whole {
    /// A whole number from `min` to `max`, of `unit` (empty for a count).
    pub const fn new(unit: &'static str, min: u64, max: u64) -> Whole {
        Whole {
            unit,
            min,
            max,
            below: "is too small",
            above: "is too large",
        }
    }

    /// The same, with the reason a number below the minimum is refused.
    pub const fn below(self, why: &'static str) -> Whole {
        Whole { below: why, ..self }
    }

    /// The same, with the reason a number above the maximum is refused.
    pub const fn above(self, why: &'static str) -> Whole {
        Whole { above: why, ..self }
    }

    /// What to give: `a whole number of milliseconds ≥ 1`, `a whole number from 0 to 5`.
    fn wanted(&self) -> String {
        let unit = if self.unit.is_empty() {
            String::new()
        } else {
            format!(" of {}", self.unit)
        };
        if self.max >= MAX_SAFE_INTEGER {
            format!("a whole number{unit} ≥ {}", self.min)
        } else {
            format!("a whole number{unit} from {} to {}", self.min, self.max)
        }
    }

    fn refuse(&self, number: impl fmt::Display, why: &str) -> String {
        format!("{number} {why}; give {}", self.wanted())
    }

    /// Checks a non-negative integer against the range.
    pub fn check_u64(&self, n: u64) -> Result<u64, String> {
        if n < self.min {
            Err(self.refuse(n, self.below))
        } else if n > self.max {
            Err(self.refuse(n, self.above))
        } else {
            Ok(n)
        }
    }

    /// Checks an integer that may be negative.
    pub fn check_i64(&self, n: i64) -> Result<u64, String> {
        match u64::try_from(n) {
            Ok(n) => self.check_u64(n),
            Err(_) => Err(self.refuse(n, "is negative")),
        }
    }

    /// Checks a number JSON wrote with a fraction or an exponent (or beyond the integers): never
    /// accepted, so that every reader reads the same integer.
    pub fn check_f64(&self, n: f64) -> Result<u64, String> {
        if n < 0.0 {
            Err(self.refuse(format_args!("{n:?}"), "is negative"))
        } else {
            Err(self.refuse(
                format_args!("{n:?}"),
                "is not written as a whole number (digits only, no fraction or exponent)",
            ))
        }
    }

    /// Checks an already parsed JSON value.
    pub fn from_value(&self, v: &Value) -> Result<u64, String> {
        match v {
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => self.check_u64(u),
                (None, Some(i), _) => self.check_i64(i),
                (None, None, Some(f)) => self.check_f64(f),
                (None, None, None) => Err(format!("give {}", self.wanted())),
            },
            other => Err(format!("give {}, not {}", self.wanted(), kind_of(other))),
        }
    }

    /// Reads the number from a deserializer.
    pub fn read<'de, D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_any(self)
    }

    /// Reads a number whose maximum fits in a `u32`.
    pub fn read_u32<'de, D: Deserializer<'de>>(self, d: D) -> Result<u32, D::Error> {
        let n = self.read(d)?;
        u32::try_from(n).map_err(|_| de::Error::custom(self.refuse(n, self.above)))
    }
}

impl<'de> Visitor<'de> for Whole {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.wanted())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        self.check_u64(v).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        self.check_i64(v).map_err(E::custom)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
        self.check_f64(v).map_err(E::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Whole =
        Whole::new("milliseconds", 1, MAX_SAFE_INTEGER).below("leaves no time for any request");
    const FEW: Whole = Whole::new("", 0, 5).above("is more than one review allows");

    fn read(w: Whole, text: &str) -> Result<u64, String> {
        let mut de = serde_json::Deserializer::from_str(text);
        w.read(&mut de).map_err(|e| e.to_string())
    }

    #[test]
    fn each_kind_of_wrong_number_says_what_to_give() {
        assert_eq!(read(MS, "1500"), Ok(1500));
        assert_eq!(
            read(MS, "-1").unwrap_err(),
            "-1 is negative; give a whole number of milliseconds ≥ 1 at line 1 column 2"
        );
        assert!(read(MS, "0").unwrap_err().starts_with(
            "0 leaves no time for any request; give a whole number of milliseconds ≥ 1"
        ));
        assert!(
            read(MS, "-2.5")
                .unwrap_err()
                .starts_with("-2.5 is negative;")
        );
        assert!(
            read(MS, "1.0")
                .unwrap_err()
                .starts_with("1.0 is not written as a whole number")
        );
        assert!(
            read(MS, "-0")
                .unwrap_err()
                .starts_with("-0.0 is not written as a whole number")
        );
        assert!(
            read(MS, "\"5\"")
                .unwrap_err()
                .contains("expected a whole number of milliseconds ≥ 1")
        );
        assert_eq!(read(FEW, "5"), Ok(5));
        assert!(
            read(FEW, "6")
                .unwrap_err()
                .starts_with("6 is more than one review allows; give a whole number from 0 to 5")
        );
        assert!(
            read(FEW, "-3")
                .unwrap_err()
                .starts_with("-3 is negative; give a whole number from 0 to 5")
        );
    }

    #[test]
    fn parsed_values_get_the_same_messages() {
        let v = |t: &str| serde_json::from_str::<Value>(t).unwrap();
        assert_eq!(MS.from_value(&v("7")), Ok(7));
        assert_eq!(
            MS.from_value(&v("-1")).unwrap_err(),
            "-1 is negative; give a whole number of milliseconds ≥ 1"
        );
        assert_eq!(
            MS.from_value(&v("\"7\"")).unwrap_err(),
            "give a whole number of milliseconds ≥ 1, not a string"
        );
        assert!(
            FEW.from_value(&v("2.5"))
                .unwrap_err()
                .starts_with("2.5 is not written as a whole number")
        );
        let big = Whole::new("", 0, u64::from(u32::MAX));
        let mut de = serde_json::Deserializer::from_str("4294967296");
        assert!(
            big.read_u32(&mut de)
                .unwrap_err()
                .to_string()
                .starts_with("4294967296 is too large; give a whole number from 0 to 4294967295")
        );
    }
}
