//! Numbers in provider messages and thrown values, drawn from the classes where languages'
//! number-to-text conversions differ (AR-REVIEW-5: JavaScript's `String(value)`; AR-RES-NORM-1:
//! `JSON.stringify`, numbers as ECMAScript writes them). A gate that writes a number its own
//! language's way (Python's `str`, Rust's `Display`, Go's `%v`) writes an ordinary integer or
//! fraction as ECMAScript does, and differs only on these classes: uniform draws almost never
//! reach them.
//!
//! Each class is named by what the number is, not by what one language makes of it, and the same
//! table weights it in both generators ([`NUMBER_CLASSES`]); [`NumberClass::of`] tells the class
//! of any number, so the reach accounting counts the classes a case holds (`coverage::shapes`).
//!
//! Every number drawn is one a scenario carries exactly (`spec/scenario.md`): integers within
//! ±(2^53 − 1), other numbers as decimals (`9007199254740991.0`, `1e20`), which every JSON reader,
//! a JavaScript adapter's included, reads as the same double, and which a JavaScript adapter
//! writes back as a number the runner reads again: never a whole number from 2^53 to 2^64, which
//! `JSON.stringify` writes as an integer beyond ±(2^53 − 1) that a scenario may not hold.

use serde_json::{Number, Value};

/// A class of numbers whose text some language writes differently from ECMAScript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NumberClass {
    /// An integer written as one (`42`, `-7`, ±(2^53 − 1)): every language writes its digits.
    Integer,
    /// A fraction from 1e-4 to below 1e16 (`0.1`, `-2.5`): shortest digits in every language.
    Fraction,
    /// A whole number written as a decimal, below 1e16 but off the 2^53 boundary (`100.0`,
    /// `0.0`): ECMAScript writes `100`, Python `100.0`.
    WholeDecimal,
    /// Negative zero (`-0.0`): ECMAScript writes `0`, Python `-0.0`.
    NegativeZero,
    /// From 1e-6 to below 1e-4 (`0.000001`): ECMAScript writes decimals, Python `1e-06`.
    Micro,
    /// Above zero and below 1e-6 (`1e-7`, `1.23e-7`): ECMAScript writes `1e-7`, Python `1e-07`.
    BelowMicro,
    /// 2^53 − 1 written as a decimal: the edge of the integers every reader holds exactly;
    /// ECMAScript writes digits, Python `9007199254740991.0`. (2^53 and above, written as a
    /// decimal, is written back by `JSON.stringify` as an integer no scenario may hold.)
    SafeEdge,
    /// From 2^64 to below 1e21 (`1e20`): ECMAScript writes all the digits, Python `1e+20`.
    /// (From 2^53 to 2^64 `JSON.stringify` writes an integer no scenario may hold.)
    Large,
    /// 1e21 and above (`1e21`): ECMAScript writes `1e+21`, Rust `1e21`.
    Huge,
}

/// How often a drawn number is of each class: ordinary integers and fractions, and each class
/// where conversions differ often enough that a 20 000-case run meets each in both profiles.
pub const NUMBER_CLASSES: [(u32, NumberClass); 9] = [
    (3, NumberClass::Integer),
    (2, NumberClass::Fraction),
    (2, NumberClass::WholeDecimal),
    (1, NumberClass::NegativeZero),
    (1, NumberClass::Micro),
    (1, NumberClass::BelowMicro),
    (1, NumberClass::SafeEdge),
    (1, NumberClass::Large),
    (1, NumberClass::Huge),
];

/// 2^53 − 1, the largest integer every JSON reader reads exactly (I-JSON).
const SAFE: f64 = 9_007_199_254_740_991.0;

/// 2^53 − 1, the one edge a scenario can carry as a decimal that a JavaScript adapter writes
/// back as digits.
const SAFE_EDGE: [f64; 1] = [SAFE];

impl NumberClass {
    /// The class of a number a scenario carries.
    pub fn of(n: &Number) -> NumberClass {
        if n.is_i64() || n.is_u64() {
            return NumberClass::Integer;
        }
        let x = n.as_f64().unwrap_or(0.0);
        let a = x.abs();
        if x == 0.0 && x.is_sign_negative() {
            NumberClass::NegativeZero
        } else if SAFE_EDGE.contains(&a) {
            NumberClass::SafeEdge
        } else if a >= 1e21 {
            NumberClass::Huge
        } else if a >= 18_446_744_073_709_551_616.0 {
            NumberClass::Large
        } else if a.fract() == 0.0 {
            NumberClass::WholeDecimal
        } else if a >= 1e-4 {
            NumberClass::Fraction
        } else if a >= 1e-6 {
            NumberClass::Micro
        } else {
            NumberClass::BelowMicro
        }
    }

    /// What the class is, in a few words: the name of its shape in a tally.
    pub const fn name(self) -> &'static str {
        match self {
            NumberClass::Integer => "a number: an integer",
            NumberClass::Fraction => "a number: a fraction",
            NumberClass::WholeDecimal => "a number: a whole decimal (100.0)",
            NumberClass::NegativeZero => "a number: negative zero",
            NumberClass::Micro => "a number: from 1e-6 to 1e-4",
            NumberClass::BelowMicro => "a number: below 1e-6",
            NumberClass::SafeEdge => "a number: 2^53 - 1 as a decimal",
            NumberClass::Large => "a number: from 2^64 to 1e21",
            NumberClass::Huge => "a number: 1e21 or more",
        }
    }

    /// The numbers named at the class's edges, where an off-by-one in a conversion shows.
    const fn edges(self) -> &'static [f64] {
        match self {
            NumberClass::Integer => &[0.0, 42.0, -1.0, 429.0, SAFE, -SAFE],
            NumberClass::Fraction => &[0.1, -2.5, 1.5, 0.0001, 123_456.789, 197_176_774_147_147.62],
            NumberClass::WholeDecimal => &[0.0, 1.0, 100.0, -1.0, 4_294_967_296.0, 1e15, 9e15],
            NumberClass::NegativeZero => &[-0.0],
            NumberClass::Micro => &[1e-6, -1e-6, 1e-5, 2.5e-5, 0.000_012_34, 9.99e-5],
            NumberClass::BelowMicro => &[1e-7, 1.5e-7, 123e-9, 9.999_999e-7, 1e-10, 5e-324],
            NumberClass::SafeEdge => &SAFE_EDGE,
            NumberClass::Large => &[2e19, 1e20, 1.5e20, 123_456_789_012_345_680_000.0],
            NumberClass::Huge => &[1e21, 1e22, 1.5e21, 1e25, f64::MAX],
        }
    }

    /// A number of this class from 64 random bits: an edge half of the time, else one drawn
    /// across the class; either sign.
    pub fn draw(self, bits: u64) -> Value {
        let negative = bits & 1 == 1;
        let edge = bits & 2 == 2;
        let rest = bits >> 2;
        // A fraction in [0, 1) from 53 of the remaining bits; `rest` above them picks exponents.
        let u = (rest & ((1 << 53) - 1)) as f64 / (1u64 << 53) as f64;
        let pick = (rest >> 53) as usize; // 9 bits
        // Zero keeps its sign: negative zero is a class of its own.
        let signed = |x: f64| if negative && x != 0.0 { -x } else { x };
        if self == NumberClass::Integer {
            let n = if edge {
                self.edges()[pick % self.edges().len()] as i64
            } else {
                ((u * 2.0 - 1.0) * SAFE) as i64
            };
            return Value::from(n);
        }
        let edges = self.edges();
        let x = if edge || self == NumberClass::NegativeZero || self == NumberClass::SafeEdge {
            let x = edges[pick % edges.len()];
            if self == NumberClass::NegativeZero {
                x
            } else {
                signed(x)
            }
        } else {
            // One mantissa in [1, 10) and a decimal exponent in the class's range.
            let m = 1.0 + 9.0 * u;
            let (lo, hi) = match self {
                NumberClass::Fraction => (-4, 15),
                NumberClass::WholeDecimal => (0, 14),
                NumberClass::Micro => (-6, -5),
                NumberClass::BelowMicro => (-30, -7),
                NumberClass::Large => (20, 20),
                _ => (21, 300),
            };
            let e = lo + (pick % (hi - lo + 1) as usize) as i32;
            let mut x = m * 10f64.powi(e);
            match self {
                NumberClass::WholeDecimal => x = x.trunc(),
                NumberClass::Fraction if x.fract() == 0.0 || x >= 1e15 => x = x / 1e3 + 0.5,
                _ => {}
            }
            signed(x)
        };
        // A draw that rounded across its class's edge takes the class's first edge instead.
        let x = if NumberClass::of(&number(x)) == self {
            x
        } else {
            signed(edges[0])
        };
        Value::Number(number(x))
    }
}

/// A finite double as a JSON number written as a decimal (never an integer: `100.0`, not `100`).
fn number(x: f64) -> Number {
    Number::from_f64(x).unwrap_or_else(|| Number::from_f64(0.0).expect("zero is finite"))
}

/// The numbers whose text a failure message shows when `value` is a provider's message or a
/// thrown value: under JavaScript's `String(value)` (baseline, AR-REVIEW-5) a number, or one
/// inside arrays, as an object is `[object Object]`; under AR-RES-NORM-1 (resilient) every number
/// of its compact JSON, unless the value is an object whose string `message` member is shown
/// instead.
pub fn shown(value: &Value, profile: crate::profile::Profile) -> Vec<&Number> {
    profile.failure_text().numbers_shown(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use serde_json::json;

    /// Every draw of a class is of that class, reads back from its JSON text as the same number,
    /// and is one a scenario carries (within ±(2^53 − 1) when written as an integer).
    #[test]
    fn each_class_draws_its_own_numbers_and_they_round_trip() {
        let mut r = super::super::direct::Rng::for_case(3, 9);
        for (_, class) in NUMBER_CLASSES {
            let mut seen = std::collections::BTreeSet::new();
            for _ in 0..20_000 {
                let v = class.draw(r.bits());
                let Value::Number(n) = &v else {
                    panic!("{v:?}")
                };
                assert_eq!(NumberClass::of(n), class, "{v}");
                let text = serde_json::to_string(&v).unwrap();
                let back: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(
                    back.as_f64().map(f64::to_bits),
                    v.as_f64().map(f64::to_bits),
                    "{text}"
                );
                assert_eq!(back.is_f64(), v.is_f64(), "{text}");
                assert!(crate::scenario::portable::check(&text).is_ok(), "{text}");
                seen.insert(text);
            }
            assert!(
                seen.len() > 1 || class == NumberClass::NegativeZero,
                "{class:?}"
            );
        }
    }

    /// The classes are where ECMAScript's text differs from Python's `repr` (checked with
    /// `node -e 'String(x)'` and `python3 -c 'str(x)'`), or, for the last, from Rust's.
    #[test]
    fn the_classes_are_where_conversions_differ() {
        for (x, class, js, python) in [
            (json!(42), NumberClass::Integer, "42", "42"),
            (json!(0.1), NumberClass::Fraction, "0.1", "0.1"),
            (json!(100.0), NumberClass::WholeDecimal, "100", "100.0"),
            (json!(-0.0), NumberClass::NegativeZero, "0", "-0.0"),
            (json!(1e-5), NumberClass::Micro, "0.00001", "1e-05"),
            (json!(1e-7), NumberClass::BelowMicro, "1e-7", "1e-07"),
            (
                json!(9007199254740991.0),
                NumberClass::SafeEdge,
                "9007199254740991",
                "9007199254740991.0",
            ),
            (
                json!(1e20),
                NumberClass::Large,
                "100000000000000000000",
                "1e+20",
            ),
            (json!(1.5e22), NumberClass::Huge, "1.5e+22", "1.5e+22"),
        ] {
            let Value::Number(n) = &x else { unreachable!() };
            assert_eq!(NumberClass::of(n), class, "{x}");
            assert_eq!(crate::jsstring::js_string(&x), js, "{x}");
            let ordinary = matches!(
                class,
                NumberClass::Integer | NumberClass::Fraction | NumberClass::Huge
            );
            assert_eq!(js == python, ordinary, "{x}: {js} and {python}");
        }
        assert_eq!(format!("{}", 1.5e22f64), "15000000000000000000000");
        assert_eq!(format!("{:e}", 1e21f64), "1e21");
    }

    #[test]
    fn shown_numbers_follow_each_profiles_conversion() {
        let v = json!([1.0, [2.0], {"a": 3.0}]);
        let f = |v: &Value, p| -> Vec<f64> {
            shown(v, p).iter().map(|n| n.as_f64().unwrap()).collect()
        };
        assert_eq!(f(&v, Profile::BASELINE), [1.0, 2.0]);
        assert_eq!(f(&v, Profile::RESILIENT), [1.0, 2.0, 3.0]);
        let with_message = json!({"message": "x", "status": 100.0});
        assert_eq!(f(&with_message, Profile::RESILIENT), Vec::<f64>::new());
        let numeric_message = json!({"message": 5.0});
        assert_eq!(f(&numeric_message, Profile::RESILIENT), [5.0]);
        assert_eq!(f(&json!(1e-7), Profile::BASELINE), [1e-7]);
    }
}
