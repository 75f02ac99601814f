//! Python's `str` of a JSON number, as a Python gate that formats a number with `str()` writes it:
//! shared by the planted Python gate (planted tier) and its check against `python3` (external tier).

/// Python's `str(x)` of the number a scenario carries, as a Python gate that writes the provider's
/// message itself gets it: an integer as its digits; a float as `repr` writes it: the shortest
/// digits that read back, in fixed notation with at least one fractional digit (`100.0`, `-0.0`)
/// when the decimal exponent is from -4 to 15, else as an exponent of at least two digits with its
/// sign (`1e-07`, `1e+17`, `1.5e+22`).
pub fn python_str(n: &serde_json::Number) -> String {
    if !n.is_f64() {
        return n.to_string();
    }
    let x = n.as_f64().unwrap();
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x == 0.0 {
        return format!("{sign}0.0");
    }
    // Python's repr picks the shortest digits as ECMAScript does, a tie toward the exact value
    // included (Rust's `{:e}` does not): the digits and exponent of ECMAScript's text.
    let js = autoreview::jsstring::js_number(x.abs());
    let (m, e0) = js.split_once('e').unwrap_or((&js, "0"));
    let e0: i32 = e0.parse().unwrap();
    let (int, frac) = m.split_once('.').unwrap_or((m, ""));
    let all = format!("{int}{frac}");
    let lead = all.len() - all.trim_start_matches('0').len();
    let digits = all[lead..].trim_end_matches('0').to_owned();
    let e = e0 + int.len() as i32 - 1 - lead as i32;
    let text = if (-4..16).contains(&e) {
        if e >= 0 {
            let e = e as usize;
            let padded = format!("{digits:0<width$}", width = e + 1);
            let (int, frac) = padded.split_at(e + 1);
            format!("{int}.{}", if frac.is_empty() { "0" } else { frac })
        } else {
            format!("0.{}{digits}", "0".repeat((-e - 1) as usize))
        }
    } else {
        let m = match digits.split_at(1) {
            (d, "") => d.to_owned(),
            (d, rest) => format!("{d}.{rest}"),
        };
        let s = if e < 0 { '-' } else { '+' };
        format!("{m}e{s}{:02}", e.abs())
    };
    format!("{sign}{text}")
}
