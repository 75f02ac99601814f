//! Number text is ECMAScript's: `js_number` and `json_stringify` agree with Node's `String(x)` and
//! `JSON.stringify(x)` on every double of the committed fixture (that the fixture is what its
//! generator writes is checked by the second tier, with Node).

use std::path::Path;

use autoreview::jsstring::{js_number, js_string, json_number, json_stringify};
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const FIXTURE: &str = "spec/fixtures/js-numbers.jsonl";

/// One fixture line: a double by its bit pattern, with what Node printed for it.
struct Entry {
    bits: String,
    x: f64,
    string: String,
    json: String,
}

fn entries() -> Vec<Entry> {
    let text = std::fs::read_to_string(Path::new(ROOT).join(FIXTURE)).unwrap();
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let out: Vec<Entry> = lines
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let field = |k: &str| v[k].as_str().unwrap_or_else(|| panic!("{line}: no {k}"));
            let bits = field("bits").to_owned();
            let pattern = u64::from_str_radix(&bits, 16).unwrap_or_else(|e| panic!("{line}: {e}"));
            Entry {
                x: f64::from_bits(pattern),
                bits,
                string: field("string").to_owned(),
                json: field("json").to_owned(),
            }
        })
        .collect();
    assert_eq!(
        header["entries"],
        out.len(),
        "the header counts the entries"
    );
    assert!(out.len() >= 10_000, "the fixture looks truncated");
    out
}

#[test]
fn numbers_print_as_node_prints_them() {
    let all = entries();
    let mut wrong = Vec::new();
    let mut finite = 0;
    for e in &all {
        let mut fails = |what: &str, got: String, want: &str| {
            if got != want {
                wrong.push(format!("{} {what}: got {got}, Node {want}", e.bits));
            }
        };
        fails("String", js_number(e.x), &e.string);
        fails("JSON.stringify", json_number(e.x), &e.json);
        if let Some(n) = serde_json::Number::from_f64(e.x) {
            finite += 1;
            let v = Value::Number(n);
            fails("String(value)", js_string(&v), &e.string);
            fails("JSON.stringify(value)", json_stringify(&v), &e.json);
            // Inside a composite value the number is written the same way.
            let nested = serde_json::json!({"n": [v.clone()]});
            fails(
                "nested",
                json_stringify(&nested),
                &format!(r#"{{"n":[{}]}}"#, e.json),
            );
        }
    }
    assert!(finite > 10_000, "too few finite numbers: {finite}");
    assert!(
        wrong.is_empty(),
        "{} of {} differ:\n{}",
        wrong.len(),
        all.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}

#[test]
fn the_fixture_has_the_named_cases() {
    let all = entries();
    let has = |x: f64, want: &str| {
        let e = all
            .iter()
            .find(|e| e.x.to_bits() == x.to_bits())
            .unwrap_or_else(|| panic!("{x:e} is not in the fixture"));
        assert_eq!(e.string, want, "Node's String({x:e})");
    };
    has(1e21, "1e+21");
    has(1e-7, "1e-7");
    has(1e-6, "0.000001");
    has(-0.0, "0");
    has(0.0, "0");
    has(5e-324, "5e-324");
    has(f64::MAX, "1.7976931348623157e+308");
    has(9007199254740991.0, "9007199254740991");
    has(9007199254740992.0, "9007199254740992");
    has(197176774147147.62, "197176774147147.62");
}
