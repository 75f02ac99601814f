//! Reader plants: each rewrites the reply as a defective reader would see it, and the reference
//! then reads what is left, so the plant differs from the reference exactly where the mistake
//! does. Each is caught at SAFETY by the fixed cases alone and by generated cases alone: every one
//! turns a reply the spec refuses into an allow, which runs the body.

use super::*;

/// A baseline gate that writes `JSON.parse(text.trim())`: ECMAScript's trim removes U+00A0,
/// U+3000, U+FEFF, U+2028 and the other whitespace JSON does not allow, so an allow wrapped in it
/// runs the body where the strict reader fails the review (AR-PARSE-4).
#[test]
fn a_baseline_gate_that_trims_before_json_parse_is_found_at_safety() {
    let plant = Planted::reading("JSON.parse(text.trim())", |s| {
        each_text(s, |t| autoreview::jsstring::trim(t).to_owned())
    });
    found_at_safety(plant.leading("AR-PARSE-4"), Profile::BASELINE);
}

/// A gate that trims the reply with Python's `str.strip()` before reading it: in the baseline
/// it lets every Unicode space around an allow through (AR-PARSE-4); in the resilient profile it
/// removes U+0085 and the information separators, which ECMAScript's trim keeps (AR-TOL-10).
#[test]
fn a_gate_that_strips_the_reply_as_python_does_is_found_at_safety() {
    for profile in Profile::all() {
        let plant = Planted::reading("json.loads(text.strip())", |s| {
            each_text(s, |t| t.trim_matches(python_space).to_owned())
        });
        // The baseline's JSON whitespace, the resilient allow standing alone.
        let lead = if profile.reader() == autoreview::profile::Reader::Strict {
            "AR-PARSE-4"
        } else {
            "AR-TOL-10"
        };
        found_at_safety(plant.leading(lead), profile);
    }
}

/// A tolerant reader that counts U+0085 as whitespace around an allow (AR-TOL-10: `trim` keeps
/// it).
#[test]
fn a_tolerant_reader_that_trims_u0085_is_found_at_safety() {
    let plant = Planted::reading("U+0085 trimmed", |s| {
        each_text(s, |t| {
            t.trim_matches(|c| autoreview::jsstring::is_trimmed(c) || c == '\u{85}')
                .to_owned()
        })
    });
    found_at_safety(plant.leading("AR-TOL-10"), Profile::RESILIENT);
}

/// A tolerant reader that takes any opening line without a brace as a fence's info string
/// (AR-TOL-10: only a plain language name): `json title="x"` is read as `json`.
#[test]
fn a_tolerant_reader_that_accepts_any_fence_info_string_is_found_at_safety() {
    let plant = Planted::reading("any fence info string", |s| {
        each_text(s, |t| {
            let trimmed = autoreview::jsstring::trim(t);
            for marker in ["```", "~~~"] {
                if let Some((info, rest)) = trimmed
                    .strip_prefix(marker)
                    .and_then(|r| r.split_once('\n'))
                    && !info.contains('{')
                {
                    return format!("{marker}json\n{rest}");
                }
            }
            t.to_owned()
        })
    });
    found_at_safety(plant.leading("AR-TOL-10"), Profile::RESILIENT);
}

/// A tolerant reader that reads the first of several candidates instead of failing on two that
/// differ (AR-TOL-6): `{allow} {deny}` becomes the allow. The texts are joined first, as the
/// reader joins them (AR-TOL-2).
#[test]
fn a_tolerant_reader_that_reads_the_first_of_two_objects_is_found_at_safety() {
    let plant = Planted::reading("the first object read", |s| {
        each_joined_text(s, |joined| {
            let spans = autoreview::parse::scan::top_level_objects(joined);
            match spans.first() {
                Some(first) if spans.len() >= 2 => joined[first.clone()].to_owned(),
                _ => joined.to_owned(),
            }
        });
    });
    found_at_safety(plant.leading("AR-TOL-6"), Profile::RESILIENT);
}

/// A tolerant reader that trims a text before it checks the size bound (AR-TOL-3: the text as
/// delivered is measured): an allow padded past the bound is read. The reviewer did allow, past
/// the bound: BOUNDS, not SAFETY.
#[test]
fn a_tolerant_reader_that_trims_before_the_size_bound_is_found_at_bounds() {
    let mut plant = Planted::reading("bound checked after trimming", |s| {
        each_text(s, |t| {
            if t.len() > autoreview::parse::tolerant::MAX_TEXT_BYTES {
                autoreview::jsstring::trim(t).to_owned()
            } else {
                t.to_owned()
            }
        })
    });
    // An allow padded past the bound is about one attempt in 3 600 (`direct::padded_near_bound`):
    // 8 000 cases meet it, 4 000 do not.
    assert_eq!(
        fixed_run(&mut plant, Profile::RESILIENT),
        (Some(Severity::Bounds), Some("AR-TOL-3".to_owned()))
    );
    indexed(plant.name, "AR-TOL-3", Profile::RESILIENT);
    assert_eq!(
        by_generated(&mut plant, Profile::RESILIENT, 8_000),
        Some(Severity::Bounds)
    );
}

/// A reader that drops members whose names hold a lone surrogate escape, as a decoder that
/// cannot represent them might (AR-PARSE-4 accepts them; AR-PARSE-7 then refuses the unknown
/// member): `{"risk":"low","decision":"allow","\udc00":0}` becomes the allow. The cases that find
/// it hold that object as the whole text, which the strict reader refuses by AR-PARSE-7 itself,
/// so the tolerant reader's refusal (AR-TOL-8) carries the same rule and the run leads with
/// AR-PARSE-7 in either profile.
#[test]
fn a_reader_that_drops_lone_surrogate_names_is_found_at_safety() {
    fn drop_lone_surrogate_members(t: &str) -> String {
        let mut out = t.to_owned();
        while let Some(at) = out.find(",\"\\ud").or_else(|| out.find(",\"\\uD")) {
            let name_end = out[at + 2..].find('"').map(|e| at + 2 + e);
            let Some(end) = name_end.and_then(|e| out[e..].find([',', '}']).map(|v| e + v)) else {
                break;
            };
            out.replace_range(at..end, "");
        }
        out
    }
    let plant = Planted::reading("lone surrogate names dropped", |s| {
        each_text(s, drop_lone_surrogate_members)
    });
    found(plant, "AR-PARSE-7", &Profile::all(), Severity::Safety);
}

/// A gate that reads the decision and the risk in any case, as one that compares
/// `decision.toLowerCase()` with `"allow"` does (AR-PARSE-7: exact, case-sensitive values):
/// `{"risk":"LOW","decision":"Allow"}` is read as the allow. In the resilient profile it is a
/// tolerant reader that tries `JSON.parse(text)` on the whole text first and scans for candidates
/// only when that throws: a text that is the object itself is read as the strict reader reads it,
/// and its shape is AR-PARSE-7's to refuse (AR-TOL-8 only carries it into chapter 10). The body
/// runs that the reviewer's reply never allowed: SAFETY.
#[test]
fn a_gate_that_reads_values_in_any_case_is_found_at_safety() {
    let plant = Planted::reading("values read in any case", |s| {
        each_text(s, values_lowercased)
    });
    found(plant, "AR-PARSE-7", &Profile::all(), Severity::Safety);
}

/// A text that is one JSON object of no legal shape with its `decision` and `risk` values
/// lowercased, as a reader that lowercases them before it compares sees it; any other text as it
/// is.
fn values_lowercased(t: &str) -> String {
    use autoreview::parse::{ReplyError, strict};
    if strict::parse_text(t) != Err(ReplyError::Protocol) {
        return t.to_owned();
    }
    let Ok(serde_json::Value::Object(mut members)) = serde_json::from_str(t) else {
        return t.to_owned();
    };
    for name in ["decision", "risk"] {
        if let Some(serde_json::Value::String(value)) = members.get_mut(name) {
            *value = value.to_lowercase();
        }
    }
    serde_json::Value::Object(members).to_string()
}

/// A tolerant reader that holds a text that is the object itself to the six shapes, as the
/// strict reader does, but reads a candidate it had to find in prose or a fence by the members it
/// knows, as one that falls back to `const {risk, decision, reason} = JSON.parse(span)` when
/// `JSON.parse(text)` throws (AR-TOL-8: the one candidate satisfies AR-PARSE-7 exactly wherever
/// it was found): a fenced `{"risk":"low","decision":"allow","confidence":0.9}` is read as the
/// allow (RES-37). The body runs that the reviewer's reply never allowed: SAFETY.
#[test]
fn a_tolerant_reader_that_reads_a_found_candidate_by_its_known_members_is_found_at_safety() {
    let plant = Planted::reading("a found candidate's unknown members ignored", |s| {
        each_joined_text(s, found_candidates_by_known_members)
    });
    // A fenced allow with a member no shape has is one fenced object in ten
    // (`direct::noisy_text`), and is the only reply a review reads in few of the cases that draw
    // it: 4 000 and 8 000 generated cases find the plant at BOUNDS only (it reads the allow a
    // repair would have brought), the CI's 20 000 at SAFETY.
    found_leading(
        plant,
        "AR-TOL-8",
        &[Profile::RESILIENT],
        Severity::Safety,
        autoreview::requirements::GENERATED,
    );
}

/// `t`, where it is not one JSON value, with each top-level object that carries a decision and
/// is of no legal shape written with its `risk`, `decision` and `reason` members alone; a text
/// that is one JSON value as it is.
fn found_candidates_by_known_members(t: &str) -> String {
    use autoreview::parse::{ReplyError, scan, strict};
    if !matches!(strict::parse_text(t), Err(ReplyError::InvalidJson(_))) {
        return t.to_owned();
    }
    let mut out = t.to_owned();
    for span in scan::top_level_objects(t).into_iter().rev() {
        let text = &t[span.clone()];
        if strict::parse_text(text) != Err(ReplyError::Protocol) {
            continue;
        }
        let Ok(serde_json::Value::Object(members)) = serde_json::from_str(text) else {
            continue;
        };
        if !members.contains_key("decision") {
            continue;
        }
        let known: serde_json::Map<String, serde_json::Value> = members
            .into_iter()
            .filter(|(name, _)| matches!(name.as_str(), "risk" | "decision" | "reason"))
            .collect();
        out.replace_range(span, &serde_json::Value::Object(known).to_string());
    }
    out
}

/// Asserts that `plant`, a gate's way with how a stream ends, is found at SAFETY by the fixed and
/// the generated cases of each profile, its run leading with the rule of that profile's reader
/// that judges the finish (AR-PARSE-1, AR-TOL-1).
fn found_by_the_finish_rule(mut plant: Planted) {
    for (profile, rule) in [
        (Profile::BASELINE, "AR-PARSE-1"),
        (Profile::RESILIENT, "AR-TOL-1"),
    ] {
        plant = plant.leading(rule);
        found_at(&mut plant, profile, Severity::Safety, READER_CASES);
    }
}

/// A gate that reads the text whatever the stream's finish says, as one that never looks at
/// `finish_reason` does: a reply cut off by `max-tokens` or `content-filter` that holds an allow
/// runs the body where the strict reader (AR-PARSE-1) and the tolerant one (AR-TOL-1) fail the
/// review, and nobody may allow it (RES-32: under `never` the failure is denied): SAFETY, from
/// either kind of case.
#[test]
fn a_gate_that_ignores_the_finish_kind_is_found_at_safety() {
    let plant = Planted::reading("the finish kind not read", |s| {
        for a in attempts(s) {
            if let Attempt::Blocks {
                finish: Some(kind), ..
            } = a
            {
                *kind = "stop".to_owned();
            }
        }
    });
    found_by_the_finish_rule(plant);
}

/// A gate that reads the stream to its end and the text it holds without checking that a terminal
/// finish came, as one written `for await (const chunk of stream) { ... } return read(text)`
/// does, or one whose harness's fake model appends a `stop` finish to every stream (AR-PARSE-1,
/// AR-TOL-1: a stream without a terminal finish fails the review, and the tolerant reader reads no
/// decision from it): a cut stream that holds an allow runs the body where the reference fails
/// the review, and nobody may allow it (SE-1 in the baseline; SE-6, whose human rejects, in the
/// resilient profile): SAFETY.
#[test]
fn a_gate_that_reads_a_stream_without_a_terminal_finish_is_found_at_safety() {
    let plant = Planted::reading("a stream without a terminal finish read", |s| {
        for a in attempts(s) {
            if let Attempt::Blocks { finish, .. } = a
                && finish.is_none()
            {
                *finish = Some("stop".to_owned());
            }
        }
    });
    found_by_the_finish_rule(plant);
}

/// A baseline gate that stops reading the stream at its finish and never notices a chunk after
/// it (AR-PARSE-2: data after the terminal finish fails the review): an allow followed by more
/// data runs the body.
#[test]
fn a_baseline_gate_that_ignores_data_after_the_finish_is_found_at_safety() {
    let plant = Planted::reading("data after the finish ignored", |s| {
        for a in attempts(s) {
            if let Attempt::Blocks {
                data_after_finish, ..
            } = a
            {
                *data_after_finish = false;
            }
        }
    });
    // A lone text block holding an allow, a normal stop and data after it is rare among drawn
    // block replies: 4 000 cases meet only other replies with data after their finish, whose
    // failure message the plant words otherwise (TEXT); the CI's 20 000 meet it.
    found_leading(
        plant,
        "AR-PARSE-2",
        &[Profile::BASELINE],
        Severity::Safety,
        autoreview::requirements::GENERATED,
    );
}

/// A baseline gate that reads the last text block of the response and skips every other block,
/// as `content.filter(b => b.type === "text").at(-1)` does (AR-PARSE-3: reasoning blocks then
/// exactly one text block): a tool call, a second text or reasoning after the text is not
/// noticed, and the allow in the last text runs the body.
#[test]
fn a_baseline_gate_that_reads_the_last_text_block_is_found_at_safety() {
    let plant = Planted::reading("the last text block read", |s| {
        for a in attempts(s) {
            if let Attempt::Blocks { blocks, .. } = a
                && let Some(last) = blocks.iter().rev().find(|b| b.kind == BlockKind::Text)
            {
                *blocks = vec![last.clone()];
            }
        }
    });
    found_at_safety(plant.leading("AR-PARSE-3"), Profile::BASELINE);
}

/// A tolerant reader that skips `tool-call` blocks as it skips reasoning (AR-TOL-2: a tool call
/// fails the review): a reply that calls a tool beside an allow runs the body.
#[test]
fn a_tolerant_reader_that_skips_tool_calls_is_found_at_safety() {
    let plant = Planted::reading("tool-call blocks skipped", |s| {
        for a in attempts(s) {
            if let Attempt::Blocks { blocks, .. } = a {
                blocks.retain(|b| b.kind != BlockKind::ToolCall);
            }
        }
    });
    found_at_safety(plant.leading("AR-TOL-2"), Profile::RESILIENT);
}

/// A baseline gate that takes a reply of one JSON string as the bare decision it names, as a
/// reader meant to be lenient with a reviewer that answers in one word does (`"allow"` as the
/// low-risk allow, `"deny"` as the high-risk deny); AR-PARSE-5 refuses every value that is not
/// an object, so `"allow"` runs the body.
#[test]
fn a_baseline_gate_that_reads_a_bare_decision_string_is_found_at_safety() {
    let plant = Planted::reading("a bare decision string read", |s| {
        each_text(s, |t| match serde_json::from_str::<serde_json::Value>(t) {
            Ok(serde_json::Value::String(word)) if word == "allow" => {
                r#"{"risk":"low","decision":"allow"}"#.to_owned()
            }
            Ok(serde_json::Value::String(word)) if word == "deny" => {
                r#"{"risk":"high","decision":"deny"}"#.to_owned()
            }
            _ => t.to_owned(),
        })
    });
    // A lone `"allow"` is drawn only among block replies (`NOT_OBJECTS`), where it seldom stands
    // alone before a normal stop: 4 000 generated cases do not meet it, the CI's 20 000 do.
    found_leading(
        plant,
        "AR-PARSE-5",
        &[Profile::BASELINE],
        Severity::Safety,
        autoreview::requirements::GENERATED,
    );
}

/// A gate whose JSON parser keeps the last of a repeated member, as `JSON.parse` and
/// `json.loads` do (AR-PARSE-6: a repeated member fails the review):
/// `{"decision":"deny","decision":"allow","risk":"low"}` is read as the allow. In the resilient
/// profile it is a tolerant reader that tries `JSON.parse(text)` on the whole text first and
/// scans for candidates only when that throws: a text that is the object itself is read as the
/// strict reader reads it, and the repeat is AR-PARSE-6's to refuse (AR-TOL-8 only carries it
/// into chapter 10). The body runs that the reviewer's reply never allowed: SAFETY.
#[test]
fn a_gate_that_keeps_the_last_repeated_member_is_found_at_safety() {
    let plant = Planted::reading("the last repeated member kept", |s| {
        each_text(s, last_repeated_member_kept)
    });
    found(plant, "AR-PARSE-6", &Profile::all(), Severity::Safety);
}

/// A text whose one JSON object repeats a member, as a parser that keeps the last of each
/// repeated member writes it back; any other text as it is.
fn last_repeated_member_kept(t: &str) -> String {
    use autoreview::parse::{ReplyError, strict};
    if strict::parse_text(t) != Err(ReplyError::Repeated) {
        return t.to_owned();
    }
    match serde_json::from_str::<serde_json::Value>(t) {
        Ok(v) => v.to_string(),
        Err(_) => t.to_owned(),
    }
}

/// `t` with each top-level brace span that mentions `decision` and does not parse as a JSON
/// object replaced by `with`.
fn malformed_spans_replaced(t: &str, with: &str) -> String {
    let mut out = t.to_owned();
    for span in autoreview::parse::scan::top_level_objects(t)
        .into_iter()
        .rev()
    {
        let text = &t[span.clone()];
        if text.contains("decision") && autoreview::parse::object::object(text).is_err() {
            out.replace_range(span, with);
        }
    }
    out
}

/// A tolerant reader that skips a span that does not parse as JSON, as a reader that takes
/// "whatever parses" does (AR-TOL-7: a malformed span that mentions `decision` fails the
/// review): a deny with a trailing comma is passed over, and a well-formed decision after it is
/// read. The skipped span's braces still stand outside the candidates (AR-TOL-9), so an allow
/// after it fails as a conflict, and one without a decision as no decision at all. The cases meet
/// only failures whose message is another template's (TEXT); that message is another reader
/// rule's choice, not the malformed object's words written otherwise, so the run leads with the
/// rule the reader broke.
#[test]
fn a_tolerant_reader_that_skips_malformed_spans_is_found_at_text() {
    let plant = Planted::reading("malformed spans skipped", |s| {
        each_text(s, |t| malformed_spans_replaced(t, "{}"))
    });
    found(plant, "AR-TOL-7", &[Profile::RESILIENT], Severity::Text);
}

/// A tolerant reader that parses each brace span and cuts out the spans that do not parse before
/// it reads the rest, as one built on `try { JSON.parse(span) } catch { /* not JSON */ }` does
/// (AR-TOL-7: a malformed span that mentions `decision` fails the review): a deny with a
/// trailing comma before an allow, `{"risk":"high","decision":"deny",} {"risk":"low",
/// "decision":"allow"}`, leaves the allow alone, and the body runs that the reviewer denied:
/// SAFETY.
#[test]
fn a_tolerant_reader_that_cuts_out_malformed_spans_is_found_at_safety() {
    let plant = Planted::reading("malformed spans cut out", |s| {
        each_text(s, |t| malformed_spans_replaced(t, ""))
    });
    found(plant, "AR-TOL-7", &[Profile::RESILIENT], Severity::Safety);
}

/// A tolerant reader that keeps the objects that carry a decision and drops every other object
/// as metadata, as a reader that looks for `"decision" in obj` among the parsed objects does
/// (AR-TOL-9: an allow stands only when no brace stands outside the candidates): an allow beside
/// `{"confidence":0.9}`, or beside an object that wraps a deny, is read, and the body runs where
/// the reference fails the review: SAFETY.
#[test]
fn a_tolerant_reader_that_drops_objects_without_a_decision_is_found_at_safety() {
    use serde_json::Value;
    fn objects_without_a_decision_dropped(t: &str) -> String {
        let object = |x: &str| match serde_json::from_str::<Value>(x) {
            Ok(Value::Object(m)) => Some(m.contains_key("decision")),
            _ => None,
        };
        let spans = autoreview::parse::scan::top_level_objects(t);
        if !spans.iter().any(|s| object(&t[s.clone()]) == Some(true)) {
            return t.to_owned();
        }
        let mut out = t.to_owned();
        for span in spans.into_iter().rev() {
            if object(&t[span.clone()]) == Some(false) {
                out.replace_range(span, "");
            }
        }
        out
    }
    let plant = Planted::reading("objects without a decision dropped", |s| {
        each_text(s, objects_without_a_decision_dropped)
    });
    found(plant, "AR-TOL-9", &[Profile::RESILIENT], Severity::Safety);
}

/// `t` as a reader that counts braces in strings finds it, written so that the tolerant reader
/// finds the same spans in it: a span that parses as a JSON object is kept, one that does not is
/// written `{decision,}` where it mentions `decision` and `{}` where it does not, and the braces
/// after one still open at the end are dropped.
fn braces_in_strings_counted(t: &str) -> String {
    let (spans, open) = autoreview::parse::scan::spans_counting_every_brace(t);
    if spans == autoreview::parse::scan::top_level_objects(t) {
        return t.to_owned();
    }
    let mut out = String::with_capacity(t.len());
    let mut from = 0;
    for span in spans {
        out.push_str(&t[from..span.start]);
        let text = &t[span.clone()];
        out.push_str(if autoreview::parse::object::object(text).is_ok() {
            text
        } else if text.contains("decision") {
            "{decision,}"
        } else {
            "{}"
        });
        from = span.end;
    }
    match open {
        Some(at) => {
            out.push_str(&t[from..at]);
            out.push('{');
            out.extend(t[at + 1..].chars().filter(|c| !matches!(c, '{' | '}')));
        }
        None => out.push_str(&t[from..]),
    }
    out
}

/// Rewrites the text every reviewer attempt delivers, its text blocks joined as the tolerant
/// reader joins them (AR-TOL-2), by `f`; where `f` changes it, the first text block holds it all.
fn each_joined_text(s: &mut Scenario, f: impl Fn(&str) -> String) {
    for a in attempts(s) {
        let texts: Vec<&mut String> = match a {
            Attempt::Text { text, .. } => vec![text],
            Attempt::Blocks { blocks, .. } => blocks
                .iter_mut()
                .filter(|b| b.kind == BlockKind::Text)
                .map(|b| &mut b.text)
                .collect(),
            _ => continue,
        };
        let joined: String = texts.iter().map(|t| t.as_str()).collect();
        let read = f(&joined);
        if read != joined {
            for (i, t) in texts.into_iter().enumerate() {
                *t = if i == 0 { read.clone() } else { String::new() };
            }
        }
    }
}

/// A tolerant reader that counts every brace, those inside strings too (AR-TOL-5: inside a span,
/// strings are tracked and braces in them do not count): a deny whose reason holds a `{` is a
/// span left open, no decision at all, and the repair request that failure earns reads the allow
/// the reviewer gives then (RES-36); one whose reason holds a `}` ends early, a malformed span
/// that mentions `decision`. The body runs on an allow the spec never asks for: BOUNDS.
#[test]
fn a_tolerant_reader_that_counts_braces_in_strings_is_found_at_bounds() {
    let plant = Planted::reading("braces in strings counted", |s| {
        each_joined_text(s, braces_in_strings_counted)
    });
    found(plant, "AR-TOL-5", &[Profile::RESILIENT], Severity::Bounds);
}

/// `t` as a tolerant reader reads it that removes an outer fence with its opening line whatever
/// that line holds, as one written `let (_info, body) = inner.split_once('\n')?` does (AR-TOL-4:
/// only provided the line holds no `{`; otherwise the text is left as it is). Where the line
/// holds none, the reference removes the same fence, so `t` is left for it to read.
fn fence_cut_with_its_opening_line(t: &str) -> String {
    let whole = t.strip_prefix('\u{feff}').unwrap_or(t);
    let trimmed = whole.trim_matches(|c: char| c.is_ascii_whitespace());
    for marker in ["```", "~~~"] {
        if trimmed.len() >= 2 * marker.len()
            && trimmed.starts_with(marker)
            && trimmed.ends_with(marker)
        {
            let inner = &trimmed[marker.len()..trimmed.len() - marker.len()];
            return match inner.split_once('\n') {
                Some((info, body)) if info.contains('{') => body.to_owned(),
                _ => t.to_owned(),
            };
        }
    }
    t.to_owned()
}

/// A tolerant reader that removes a fence's opening line even where it holds a `{` (AR-TOL-4):
/// a deny written on the opening line, "```{deny}\n{allow}\n```", goes with it and the allow
/// after it stands alone, where the reference keeps the fence, finds two differing candidates and
/// fails the review (AR-TOL-6, RES-38). Under a policy that lets no failure run the body, the
/// body runs that nobody allowed: SAFETY.
#[test]
fn a_tolerant_reader_that_cuts_a_fence_line_holding_a_brace_is_found_at_safety() {
    let plant = Planted::reading("a fence line with a brace cut", |s| {
        each_joined_text(s, fence_cut_with_its_opening_line)
    });
    found(plant, "AR-TOL-4", &[Profile::RESILIENT], Severity::Safety);
}
