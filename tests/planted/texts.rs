//! Text plants: a gate that words a template, or writes a number, its own way, found at TEXT and
//! read as the template it changed.

use super::*;

/// A mistake in how a text is written is found at TEXT by each kind of case, and no worse: the
/// harness rates what it plants, not more.
#[test]
fn a_reworded_result_is_found_at_text_by_each_kind_of_case() {
    let mut reworded = Planted::writing("every result text reworded", |_, o| {
        if let Some(t) = &mut o.result.text {
            t.push_str(" (reworded)");
        }
    });
    let profile = Profile::RESILIENT;
    assert_eq!(by_fixed(&mut reworded, profile), Some(Severity::Text));
    assert_eq!(
        by_generated(&mut reworded, profile, 300),
        Some(Severity::Text)
    );
}

/// A gate that words one template its own way, and nothing else, reads as that template: the
/// run's first violation is `MSG-FAILED` for a gate that words the denial of a failed review its
/// own way (under either profile: the baseline denies every failure, the resilient one under
/// `on_failure: deny`), `MSG-ASK-FAILED` for one that words the question after a failed review.
#[test]
fn a_gate_that_words_one_failure_template_its_own_way_reads_as_that_template() {
    let failed = |_: &Scenario, o: &mut Outcome| {
        each_outcome_text(o, |t| {
            t.replace(
                "\" failed; its body was not executed: ",
                "\" was stopped, the review failed: ",
            )
        })
    };
    let asked = |_: &Scenario, o: &mut Outcome| {
        each_outcome_text(o, |t| {
            t.replacen("\" failed: ", "\" could not be reviewed: ", 1)
        })
    };
    for profile in Profile::all() {
        let mut plant = Planted::writing("MSG-FAILED worded its own way", failed);
        assert_eq!(
            fixed_run(&mut plant, profile),
            (Some(Severity::Text), Some("MSG-FAILED".to_owned())),
            "{profile}"
        );
        indexed(plant.name, "MSG-FAILED", profile);
    }
    let mut plant = Planted::writing("MSG-ASK-FAILED worded its own way", asked);
    assert_eq!(
        fixed_run(&mut plant, Profile::RESILIENT),
        (Some(Severity::Text), Some("MSG-ASK-FAILED".to_owned()))
    );
    indexed(plant.name, "MSG-ASK-FAILED", Profile::RESILIENT);
}

/// A tool runtime that words the human's rejection its own way, `The user rejected tool "<name>"`
/// (AR-MSG-1: `MSG-USER-REJECTED` is normative in full): TEXT, and no worse.
#[test]
fn a_runtime_that_capitalizes_the_user_rejection_is_found_at_text() {
    let plant = Planted::writing("MSG-USER-REJECTED worded its own way", |_, o| {
        each_outcome_text(o, |t| {
            t.replacen(
                "Error: the user rejected tool ",
                "Error: The user rejected tool ",
                1,
            )
        })
    });
    // The reworded template inside `MSG-ERROR-PREFIX`, whose words the plant keeps.
    found(plant, "MSG-USER-REJECTED", &Profile::all(), Severity::Text);
}

/// [`each_outcome_text`], and the review's failure message too.
fn each_text_and_failure(o: &mut Outcome, f: impl Fn(&str) -> String) {
    if let Some(failure) = &mut o.review.failure {
        failure.message = f(&failure.message);
    }
    each_outcome_text(o, f);
}

/// A gate that words one reviewer failure message its own way, `MSG-ERR-PROTOCOL` as
/// `… does not match the decision protocol` (AR-MSG-2: normative in full): TEXT, and no worse.
#[test]
fn a_gate_that_words_the_protocol_failure_its_own_way_is_found_at_text() {
    let plant = Planted::writing("MSG-ERR-PROTOCOL worded its own way", |_, o| {
        each_text_and_failure(o, |t| {
            t.replace("the risk/decision protocol", "the decision protocol")
        })
    });
    found(
        plant,
        "MSG-ERR-PROTOCOL",
        &[Profile::BASELINE],
        Severity::Text,
    );
}

/// A gate that words the failure of a stream that ended in an error its own way, `reviewer
/// stopped with` (AR-MSG-2: `MSG-ERR-ENDED-DETAIL` is normative in full, in both profiles): TEXT,
/// and no worse.
#[test]
fn a_gate_that_words_the_ended_stream_failure_its_own_way_is_found_at_text() {
    let plant = Planted::writing("MSG-ERR-ENDED-DETAIL worded its own way", |_, o| {
        each_text_and_failure(o, |t| {
            t.replace(
                "auto-review: reviewer ended with ",
                "auto-review: reviewer stopped with ",
            )
        })
    });
    found(
        plant,
        "MSG-ERR-ENDED-DETAIL",
        &Profile::all(),
        Severity::Text,
    );
}

/// A resilient gate that words one of the tolerant reader's failure messages its own way,
/// `MSG-ERR-NO-DECISION` as `… has no decision object` (AR-RES-MSG-1: normative in full): TEXT,
/// and no worse.
#[test]
fn a_gate_that_words_the_no_decision_failure_its_own_way_is_found_at_text() {
    let plant = Planted::writing("MSG-ERR-NO-DECISION worded its own way", |_, o| {
        each_text_and_failure(o, |t| {
            t.replace("holds no decision object", "has no decision object")
        })
    });
    found(
        plant,
        "MSG-ERR-NO-DECISION",
        &[Profile::RESILIENT],
        Severity::Text,
    );
}

/// A gate that words the error of selecting Auto while its integration closes its own way,
/// `auto-review: the integration is closing` (AR-MSG-5: `MSG-ERR-CLOSING` is normative in full):
/// the session's event reads otherwise: TEXT, and no worse.
#[test]
fn a_gate_that_words_the_closing_error_its_own_way_is_found_at_text() {
    let plant = Planted::carrying("MSG-ERR-CLOSING worded its own way", |s, profile| {
        let mut steps = session::walk(s, profile);
        for step in &mut steps {
            if let ItemOutcome::Event(e) = &mut step.outcome
                && let Some(error) = &mut e.error
            {
                *error = error.replace("integration is closing", "the integration is closing");
            }
        }
        steps
    });
    found(plant, "MSG-ERR-CLOSING", &Profile::all(), Severity::Text);
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

/// A gate that writes the numbers of a provider's message or a thrown value with Python's `str`
/// (`100.0`, `-0.0`, `1e-07`, `1e+17`) where the spec has ECMAScript's text is found at TEXT by
/// the fixed cases and by 3 000 generated cases of each profile, and no worse: no body runs that
/// the reference does not run. It reads as the clause that turns a value into text, not as the
/// templates the value is inserted into, which it keeps word for word.
#[test]
fn numbers_written_with_python_str_are_found_at_text_by_each_kind_of_case() {
    for (profile, plant) in [
        (
            Profile::BASELINE,
            writes_numbers_with_python_str::<false> as fn(&Scenario, &mut Outcome),
        ),
        (Profile::RESILIENT, writes_numbers_with_python_str::<true>),
    ] {
        // The value's text: `String(value)` in the baseline, its JSON text in the resilient one.
        let lead = if profile == Profile::BASELINE {
            "AR-REVIEW-5"
        } else {
            "AR-RES-NORM-1"
        };
        let mut python = Planted::writing("numbers written with Python's str", plant).leading(lead);
        found_at(&mut python, profile, Severity::Text, 3_000);
    }
}

/// Python's `str` of a float is `repr`, checked here against named values (the external tier
/// checks it against `python3` itself over every double of the committed number fixture).
#[test]
fn python_str_writes_the_named_values() {
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
}

/// A gate that writes only the normative prefix of a text whose tail is implementation-defined
/// (the message of a review a signal ended, say), leaving the tail empty: AR-CONV-3 says it MUST
/// NOT be, unless the template says so. Every word it shows is the reference's: TEXT, read as
/// AR-CONV-3 alone.
#[test]
fn a_gate_that_stops_at_the_normative_prefix_is_found_at_text() {
    let plant = Planted::writing("an implementation-defined tail left empty", |_, o| {
        let mut json = serde_json::to_value(&*o).unwrap();
        for (pointer, &n) in &o.prefix_only {
            if let Some(serde_json::Value::String(t)) = json.pointer_mut(pointer) {
                *t = t.chars().take(n).collect();
            }
        }
        let citations = std::mem::take(&mut o.citations);
        *o = serde_json::from_value(json).unwrap();
        o.citations = citations;
    });
    found(plant, "AR-CONV-3", &Profile::all(), Severity::Text);
}

/// A resilient gate that collapses each whitespace run of a failure message to one space but
/// never trims its ends, as `message.replace(/\s+/g, " ")` without `.trim()` does
/// (AR-RES-NORM-2: leading and trailing whitespace is removed): a thrown value or a provider's
/// message that ends with whitespace leaves a space at the end of the message, and a thrown
/// value that starts with whitespace one at its start. Only the texts that show the message
/// differ: TEXT.
#[test]
fn a_resilient_gate_that_does_not_trim_a_failure_message_is_found_at_text() {
    let plant = Planted::writing("a failure message not trimmed", |s, o| {
        use autoreview::engine::review::{Settlement, settle};
        use autoreview::normalize::{MAX_CHARS, is_space, value_text};
        let (Some(failure), Some(last)) = (&o.review.failure, o.review.attempts.checked_sub(1))
        else {
            return;
        };
        let attempt = s.reviewer.attempt(last as usize);
        let (value, thrown) = match attempt {
            Attempt::Finish { finish, .. } => (&finish.message, false),
            Attempt::Throw { throw, .. } => (throw, true),
            _ => return,
        };
        // The review's failure is this request's (not the deadline's or a signal's), and not cut.
        let Settlement::Failed(f) = settle(attempt, Profile::RESILIENT) else {
            return;
        };
        let was = failure.message.clone();
        if f.message.text != was || was.chars().count() >= MAX_CHARS - 1 {
            return;
        }
        let raw = value_text(value);
        let mut now = was.clone();
        if !raw.is_empty() && raw.chars().all(is_space) {
            if !thrown {
                return; // folded into the space after the template's `: `
            }
            now = " ".into();
        } else {
            if thrown && raw.starts_with(is_space) {
                now.insert(0, ' ');
            }
            if raw.ends_with(is_space) {
                now.push(' ');
            }
        }
        if now == was {
            return;
        }
        if let Some(f) = &mut o.review.failure {
            f.message = now.clone();
        }
        each_outcome_text(o, |t| t.replace(&was, &now));
    });
    found(
        plant,
        "AR-RES-NORM-2",
        &[Profile::RESILIENT],
        Severity::Text,
    );
}
