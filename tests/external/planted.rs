//! Python's `str` of a float, which the planted Python gate of `tests/planted/texts.rs` writes,
//! checked against `python3` itself over every double of the committed number fixture.

use crate::python_str::python_str;

/// Python's `str` of a float is `repr`: checked against `python3` itself over every double of the
/// committed number fixture (the fast tier checks named values).
#[test]
fn python_str_writes_what_python_writes() {
    crate::tools::python3();
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
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start python3: {e}"));
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
