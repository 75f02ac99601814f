//! How the shipped gate turns an arbitrary JSON value into text: JavaScript's `String(value)`
//! (AR-REVIEW-5). The baseline profile reproduces it exactly, `[object Object]` included.

use serde_json::Value;

/// `String(value)` for a JSON value, as ECMAScript defines it.
pub fn js_string(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => js_number(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            // Array.prototype.join(","): null and undefined elements become "".
            let mut out = String::new();
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !item.is_null() {
                    out.push_str(&js_string(item));
                }
            }
            out
        }
        Value::Object(_) => "[object Object]".into(),
    }
}

/// ECMAScript `Number::toString(x)` for a finite double: shortest round-trip digits, decimal
/// notation for exponents in [-7, 21), exponent notation (`1e+21`, `1.5e-7`) otherwise.
pub fn js_number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    // Rust's `{:e}` prints the shortest digits that round-trip, as d[.ddd]e<exp>.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let e: i64 = exp.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let n = e + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let exp_sign = if n - 1 < 0 { "-" } else { "+" };
        let exp_abs = (n - 1).abs();
        if k == 1 {
            format!("{digits}e{exp_sign}{exp_abs}")
        } else {
            format!("{}.{}e{exp_sign}{exp_abs}", &digits[..1], &digits[1..])
        }
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_follow_ecmascript() {
        // Expected strings are what `String(x)` prints in any ECMAScript engine.
        for (x, want) in [
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
            (123456789.0, "123456789"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (1e20, "100000000000000000000"),
            (0.000001, "0.000001"),
            (0.0000001, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (12345678901234567890.0, "12345678901234567000"),
            (-0.0, "0"),
        ] {
            assert_eq!(js_number(x), want, "String({x})");
        }
    }

    #[test]
    fn values_follow_ecmascript() {
        assert_eq!(js_string(&json!({"message": "x"})), "[object Object]");
        assert_eq!(
            js_string(&json!([1, null, "a", [2, 3], {}])),
            "1,,a,2,3,[object Object]"
        );
        assert_eq!(js_string(&json!(null)), "null");
        assert_eq!(js_string(&json!(true)), "true");
        assert_eq!(
            js_string(&json!("middleware refused")),
            "middleware refused"
        );
        assert_eq!(js_string(&json!([])), "");
    }
}
