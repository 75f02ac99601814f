//! The word diff and every report writer on two texts an implementation could send: arbitrary
//! bytes, split at their first 0xFF byte (never part of UTF-8) and each half read as lossy UTF-8,
//! are an expected and an actual text. Nothing panics; the word diff keeps only text of its
//! sides; the JUnit report is XML a strict parser reads; the JSON report reads back with both
//! texts, as `compare` reads it, and the comparison is written. (The matrix's page, whose spec
//! loading would slow every input down, is property-tested instead, in `src/report/matrix/html.rs`.)
#![no_main]

use autoreview::report::{self, matrix, matrix::RunReport};
use autoreview::runner::worddiff::{self, Piece};
use autoreview::runner::{Difference, Severity};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (e, a) = match data.iter().position(|&b| b == 0xff) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let (expected, actual) = (String::from_utf8_lossy(e), String::from_utf8_lossy(a));
    let (expected, actual) = (expected.as_ref(), actual.as_ref());

    for pieces in [
        worddiff::diff(expected, actual),
        worddiff::of_difference(&Difference {
            clauses: Vec::new(),
            severity: Severity::Text,
            pointer: "/result/text".into(),
            expected: expected.into(),
            actual: actual.into(),
            rule: Some("only the first 10 characters are normative".into()),
        })
        .unwrap_or_default(),
    ] {
        for p in &pieces {
            match p {
                Piece::Same(t) | Piece::Removed(t) => {
                    let t = t.split('…').next().unwrap_or_default();
                    assert!(expected.contains(t), "{t:?} is not in {expected:?}");
                }
                Piece::Added(t) => {
                    let t = t.split('…').next().unwrap_or_default();
                    assert!(actual.contains(t), "{t:?} is not in {actual:?}");
                }
                Piece::Elided => {}
            }
        }
        let shown = worddiff::terminal(&pieces, false);
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
    }

    let run = report::specimen(expected, actual);
    for strict in [false, true] {
        for color in [false, true] {
            let _ = report::text(&run, strict, color);
        }
        let _ = report::markdown(&run, strict);
        let xml = report::junit(&run, strict).expect("JUnit is written to memory");
        if let Err(e) = roxmltree::Document::parse(&xml) {
            panic!("invalid JUnit XML ({e}):\n{xml}");
        }
    }
    let json = report::json(&run, false);
    let back: serde_json::Value = serde_json::from_str(&json).expect("the JSON report reads");
    let difference = &back["results"][1]["differences"][0];
    assert_eq!(difference["expected"], format!("expected {expected}"));
    assert_eq!(difference["actual"], format!("actual {actual}"));
    let read = RunReport::parse(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let changes = matrix::regress::compare(&read, &read);
    let _ = matrix::regress::text(&read, &read, ("a.json", "b.json"), &changes, false);
});
