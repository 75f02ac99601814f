//! Planted defects: the reference engine with one mistake a harness author could plausibly make,
//! checked by the fixed cases alone and by generated cases alone. Each class of defect the suite
//! claims to find has a plant here, and the test says at which severity each kind of case finds
//! it: SAFETY wherever the mistake can run a body that must not run.

use autoreview::cases;
use autoreview::engine;
use autoreview::outcome::{InputOutcome, ItemOutcome, Outcome};
use autoreview::profile::Profile;
use autoreview::runner::generated::{self, Plan};
use autoreview::runner::known_failures::Expected;
use autoreview::runner::{self, Ask, ImplError, Implementation, Oracle, Severity, Verdict};
use autoreview::scenario::Scenario;
use autoreview::scenario::session::{Input, Item};

/// The reference engine with a mistake planted: each call of an input is rewritten by `before`
/// and decided as the reference decides it, and its outcome is then rewritten by `after` (given
/// the call as the runner sent it).
pub struct Planted {
    /// What the mistake is, for messages.
    pub name: &'static str,
    /// How the defective gate sees a call: a reader that trims a reply, say, sees it trimmed.
    pub before: fn(&mut Scenario),
    /// How the defective gate writes an outcome: a gate that writes numbers its own way, say.
    pub after: fn(&Scenario, &mut Outcome),
}

impl Planted {
    /// A mistake in how the gate reads a call.
    pub fn reading(name: &'static str, before: fn(&mut Scenario)) -> Planted {
        Planted {
            name,
            before,
            after: |_, _| {},
        }
    }

    /// A mistake in how the gate writes an outcome.
    pub fn writing(name: &'static str, after: fn(&Scenario, &mut Outcome)) -> Planted {
        Planted {
            name,
            before: |_| {},
            after,
        }
    }
}

impl Implementation for Planted {
    fn describe(&self) -> String {
        format!("a planted defect: {}", self.name)
    }

    fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
        let mut input = ask.input.clone();
        match &mut input {
            Input::One(s) => (self.before)(s),
            Input::Session(s) => {
                for item in &mut s.calls {
                    if let Item::Call(c) = item {
                        (self.before)(c);
                    }
                }
            }
        }
        let mut out = engine::decide_input(&input, ask.profile);
        match (&mut out, ask.input) {
            (InputOutcome::One(o), Input::One(s)) => (self.after)(s, o),
            (InputOutcome::Session(o), Input::Session(s)) => {
                for (item, o) in s.calls.iter().zip(&mut o.calls) {
                    if let (Item::Call(c), ItemOutcome::Call(o)) = (item, o) {
                        (self.after)(c, o);
                    }
                }
            }
            _ => unreachable!("an input is decided as what it is"),
        }
        Ok(out)
    }
}

/// The worst severity the fixed cases of `profile` find in `imp`, `None` when every case passes.
pub fn by_fixed(imp: &mut dyn Implementation, profile: Profile) -> Option<Severity> {
    let all = cases::all(profile).unwrap();
    let report = runner::run(
        imp,
        &all,
        profile,
        Oracle::Reference,
        &Expected::none(),
        &mut |_, _| {},
    );
    worst(report.results.iter().map(|r| &r.verdict))
}

/// The worst severity `count` generated cases of `profile` (the CI seed) find in `imp`, search
/// toward SAFETY included; `None` when every case passes.
pub fn by_generated(
    imp: &mut dyn Implementation,
    profile: Profile,
    count: usize,
) -> Option<Severity> {
    let run = generated::run(
        imp,
        profile,
        &Plan::new(count, 20_260_828),
        &Expected::none(),
        &mut |_, _| {},
    );
    worst(
        run.results
            .iter()
            .map(|r| &r.verdict)
            .chain(run.counterexamples.iter().map(|c| &c.verdict)),
    )
}

/// The worst severity among `verdicts`; a broken case counts as SAFETY, as a crash is never a
/// pass.
fn worst<'a>(verdicts: impl Iterator<Item = &'a Verdict>) -> Option<Severity> {
    verdicts
        .filter_map(|v| match v {
            Verdict::Broken { .. } => Some(Severity::Safety),
            v => v.worst(),
        })
        .min()
}

/// A plant that changes nothing passes both kinds of case: the harness itself plants nothing.
#[test]
fn the_harness_without_a_mistake_passes() {
    for profile in Profile::ALL {
        let mut none = Planted::reading("nothing", |_| {});
        assert_eq!(by_fixed(&mut none, profile), None, "{profile}");
        assert_eq!(by_generated(&mut none, profile, 300), None, "{profile}");
    }
}

/// A mistake in how a text is written is found at TEXT by each kind of case, and no worse: the
/// harness rates what it plants, not more.
#[test]
fn a_reworded_result_is_found_at_text_by_each_kind_of_case() {
    let mut reworded = Planted::writing("every result text reworded", |_, o| {
        if let Some(t) = &mut o.result.text {
            t.push_str(" (reworded)");
        }
    });
    let profile = Profile::Resilient;
    assert_eq!(by_fixed(&mut reworded, profile), Some(Severity::Text));
    assert_eq!(
        by_generated(&mut reworded, profile, 300),
        Some(Severity::Text)
    );
}

/// Python's `str(x)` of the number a scenario carries, as a Python gate that writes the provider's
/// message itself gets it: an integer as its digits; a float as `repr` writes it: the shortest
/// digits that read back, in fixed notation with at least one fractional digit (`100.0`, `-0.0`)
/// when the decimal exponent is from -4 to 15, else as an exponent of at least two digits with its
/// sign (`1e-07`, `1e+17`, `1.5e+22`).
fn python_str(n: &serde_json::Number) -> String {
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

/// `String(value)` (AR-REVIEW-5) with every number written by [`python_str`].
fn python_string(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Number(n) => python_str(n),
        Value::Array(items) => items
            .iter()
            .map(|i| {
                if i.is_null() {
                    String::new()
                } else {
                    python_string(i)
                }
            })
            .collect::<Vec<_>>()
            .join(","),
        other => autoreview::jsstring::js_string(other),
    }
}

/// AR-RES-NORM-1's text with every number written by [`python_str`], as `json.dumps` with compact
/// separators writes it (member order and strings as the reference writes them).
fn python_value_text(v: &serde_json::Value) -> String {
    use serde_json::Value;
    fn json(v: &Value) -> String {
        match v {
            Value::Number(n) => python_str(n),
            Value::Array(items) => {
                format!("[{}]", items.iter().map(json).collect::<Vec<_>>().join(","))
            }
            Value::Object(m) => {
                // The reference's order and quoting, taken from its own text of each member.
                let whole = autoreview::jsstring::json_stringify(v);
                let mut out = whole.clone();
                for (k, item) in m {
                    let name = autoreview::jsstring::json_stringify(&Value::String(k.clone()));
                    let theirs = format!("{name}:{}", autoreview::jsstring::json_stringify(item));
                    out = out.replacen(&theirs, &format!("{name}:{}", json(item)), 1);
                }
                out
            }
            other => autoreview::jsstring::json_stringify(other),
        }
    }
    match v {
        Value::String(_) => autoreview::normalize::value_text(v),
        Value::Object(m) if matches!(m.get("message"), Some(Value::String(_))) => {
            autoreview::normalize::value_text(v)
        }
        other => json(other),
    }
}

/// The gate writes the numbers of the review's failure message with Python's `str` (under the
/// baseline's conversion when `RESILIENT` is false): the message of its last request, where the
/// review's failure is that message (it ends with the provider's value made text), in every text
/// that shows it.
fn writes_numbers_with_python_str<const RESILIENT: bool>(s: &Scenario, o: &mut Outcome) {
    use autoreview::scenario::Attempt;
    let (Some(failure), Some(last)) = (&o.review.failure, o.review.attempts.checked_sub(1)) else {
        return;
    };
    let value = match s.reviewer.attempt(last as usize) {
        Attempt::Finish { finish, .. } => &finish.message,
        Attempt::Throw { throw, .. } => throw,
        _ => return,
    };
    let (js, py) = if RESILIENT {
        (
            autoreview::normalize::value_text(value),
            python_value_text(value),
        )
    } else {
        (autoreview::jsstring::js_string(value), python_string(value))
    };
    let Some(head) = failure.message.strip_suffix(js.as_str()) else {
        return; // normalized or cut: the message is not the value's text as it stands
    };
    if js == py {
        return;
    }
    let (was, now) = (failure.message.clone(), format!("{head}{py}"));
    let fix = |t: &mut String| {
        if *t == was {
            *t = now.clone();
        } else if let Some(h) = t.strip_suffix(&format!(": {was}")) {
            *t = format!("{h}: {now}");
        } else {
            *t = t.replacen(&format!(": {was}\n"), &format!(": {now}\n"), 1);
        }
    };
    if let Some(f) = &mut o.review.failure {
        fix(&mut f.message);
    }
    if let Some(t) = &mut o.result.text {
        fix(t);
    }
    let fix_display = |d: &mut Option<autoreview::outcome::DisplayReason>| {
        if let Some(d) = d {
            fix(&mut d.en);
            fix(&mut d.zh);
        }
    };
    if let Some(a) = &mut o.approval {
        if let Some(r) = &mut a.reason {
            fix(r);
        }
        fix_display(&mut a.display_reason);
    }
    match &mut o.listener {
        Some(autoreview::outcome::Decision::Deny { reason, .. }) => fix(reason),
        Some(autoreview::outcome::Decision::Ask {
            reason,
            display_reason,
        }) => {
            if let Some(r) = reason {
                fix(r);
            }
            fix_display(display_reason);
        }
        _ => {}
    }
}

/// Python's `str` of a float is `repr`: checked against `python3` itself over every double of the
/// committed number fixture when `python3` is on PATH, and against named values always.
#[test]
fn python_str_writes_what_python_writes() {
    for (x, want) in [
        (100.0, "100.0"),
        (-0.0, "-0.0"),
        (1e-7, "1e-07"),
        (1e-5, "1e-05"),
        (0.0001, "0.0001"),
        (1e16, "1e+16"),
        (9.1e15, "9100000000000000.0"),
        (9007199254740992.0, "9007199254740992.0"),
        (1.5e22, "1.5e+22"),
        (0.1, "0.1"),
        (123e-9, "1.23e-07"),
        (5e-324, "5e-324"),
    ] {
        assert_eq!(
            python_str(&serde_json::Number::from_f64(x).unwrap()),
            want,
            "{x:e}"
        );
    }
    assert_eq!(python_str(&serde_json::Number::from(-42)), "-42");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/spec/fixtures/js-numbers.jsonl"
    ))
    .unwrap();
    let xs: Vec<f64> = text
        .lines()
        .skip(1)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            f64::from_bits(u64::from_str_radix(v["bits"].as_str().unwrap(), 16).unwrap())
        })
        .filter(|x| x.is_finite())
        .collect();
    let script = "import struct,sys\nfor l in sys.stdin: print(str(struct.unpack('<d', bytes.fromhex(l.strip()))[0]))";
    let mut child = match std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skipped the comparison with python3 ({e}); the named values are checked");
            return;
        }
    };
    let input: String = xs
        .iter()
        .map(|x| {
            format!(
                "{}\n",
                x.to_bits()
                    .to_le_bytes()
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<String>()
            )
        })
        .collect();
    use std::io::Write as _;
    // Written from a thread: Python's answers fill its stdout while the input is still coming.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(lines.len(), xs.len());
    let wrong: Vec<String> = xs
        .iter()
        .zip(&lines)
        .filter(|(x, py)| python_str(&serde_json::Number::from_f64(**x).unwrap()) != **py)
        .map(|(x, py)| format!("{x:e}: python {py}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {}: {:?}",
        wrong.len(),
        xs.len(),
        &wrong[..wrong.len().min(10)]
    );
}

/// A gate that writes the numbers of a provider's message or a thrown value with Python's `str`
/// (`100.0`, `-0.0`, `1e-07`, `1e+17`) where the spec has ECMAScript's text is found at TEXT by
/// the fixed cases and by 3 000 generated cases of each profile, and no worse: no body runs that
/// the reference does not run.
#[test]
fn numbers_written_with_python_str_are_found_at_text_by_each_kind_of_case() {
    for (profile, plant) in [
        (
            Profile::Baseline,
            writes_numbers_with_python_str::<false> as fn(&Scenario, &mut Outcome),
        ),
        (Profile::Resilient, writes_numbers_with_python_str::<true>),
    ] {
        let mut python = Planted::writing("numbers written with Python's str", plant);
        assert_eq!(
            by_fixed(&mut python, profile),
            Some(Severity::Text),
            "{profile}"
        );
        assert_eq!(
            by_generated(&mut python, profile, 3_000),
            Some(Severity::Text),
            "{profile}"
        );
    }
}
