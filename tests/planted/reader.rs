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
            let spans = autoreview::parse::scan::top_level_objects(&joined);
            if spans.len() >= 2 {
                let first = joined[spans[0].clone()].to_owned();
                for (i, t) in texts.into_iter().enumerate() {
                    *t = if i == 0 { first.clone() } else { String::new() };
                }
            }
        }
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
/// member): `{"risk":"low","decision":"allow","\udc00":0}` becomes the allow.
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
    for profile in Profile::all() {
        let plant = Planted::reading("lone surrogate names dropped", |s| {
            each_text(s, drop_lone_surrogate_members)
        });
        // The strict reader's unknown member, the tolerant reader's exact legal shape.
        let lead = if profile.reader() == autoreview::profile::Reader::Strict {
            "AR-PARSE-7"
        } else {
            "AR-TOL-8"
        };
        found_at_safety(plant.leading(lead), profile);
    }
}
