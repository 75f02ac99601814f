//! Parse-time benchmark: shows the readers' time growing linearly with the input on adversarial
//! text, compares a run of `{` (tolerant reader and scan) with `serde_json` on a valid reply of the
//! same size, and the tolerant reader with `serde_json` on a bare protocol object; then measures
//! the peak memory of `autoreview parse` under `/usr/bin/time -f %M` on large generated inputs of
//! each shape (the rows are skipped where `/usr/bin/time` is missing).
//!
//! Run with `cargo bench --bench parse`. Each figure is the median of several timed batches; the
//! machine is shared, so compare the ratios printed in one run, not absolute numbers across runs.

use std::hint::black_box;
use std::time::{Duration, Instant};

use autoreview::parse::{scan, strict, tolerant};

/// Median nanoseconds per call of `f`, over batches of at least `budget` each.
fn time<F: FnMut()>(mut f: F, budget: Duration) -> f64 {
    let mut per_call = Vec::new();
    for _ in 0..7 {
        let start = Instant::now();
        let mut calls = 0u64;
        while start.elapsed() < budget {
            f();
            calls += 1;
        }
        per_call.push(start.elapsed().as_nanos() as f64 / calls as f64);
    }
    per_call.sort_by(|a, b| a.total_cmp(b));
    per_call[per_call.len() / 2]
}

fn row(label: &str, sizes: &[usize], make: &dyn Fn(usize) -> String, run: &dyn Fn(&str)) {
    let mut ns_per_byte = Vec::new();
    print!("{label:<44}");
    for &n in sizes {
        let text = make(n);
        let ns = time(|| run(black_box(&text)), Duration::from_millis(40));
        ns_per_byte.push(ns / text.len() as f64);
        print!(" {:>9.2}", ns / 1000.0);
    }
    let growth = ns_per_byte.last().unwrap() / ns_per_byte.first().unwrap();
    println!("   {growth:>5.2}");
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches --list` and nextest probe the harness this way.
    }
    let kib = 1024;
    let sizes = [64 * kib, 256 * kib, 1024 * kib, 4096 * kib];
    println!(
        "time per call in µs at 64 KiB, 256 KiB, 1 MiB, 4 MiB; last column: ns/byte at 4 MiB over ns/byte at 64 KiB (≈1 is linear)\n"
    );
    println!(
        "{:<44} {:>9} {:>9} {:>9} {:>9}   growth",
        "input", "64K", "256K", "1M", "4M"
    );
    let scan = |t: &str| {
        black_box(scan::top_level_objects(t));
    };
    let strict_read = |t: &str| {
        let _ = black_box(strict::parse_text(t));
    };
    row("scan: a run of {", &sizes, &|n| "{".repeat(n), &scan);
    row("scan: a run of \"", &sizes, &|n| "\"".repeat(n), &scan);
    row(
        "scan: {\"a\":\"…\\\"…\" (escapes in a string)",
        &sizes,
        &|n| format!("{{\"a\":\"{}\"}}", "\\\"".repeat(n / 2)),
        &scan,
    );
    row(
        "scan: many small objects",
        &sizes,
        &|n| "{\"k\":1} ".repeat(n / 8),
        &scan,
    );
    row(
        "strict: an unterminated string",
        &sizes,
        &|n| format!("\"{}", "a".repeat(n)),
        &strict_read,
    );
    row(
        "strict: an object with a long reason",
        &sizes,
        &|n| {
            format!(
                "{{\"risk\":\"high\",\"decision\":\"deny\",\"reason\":\"{}\"}}",
                "x".repeat(n)
            )
        },
        &strict_read,
    );
    row(
        "strict: an allow beside nested arrays",
        &sizes,
        &|n| {
            let depth = n / 2 - 20;
            format!(
                "{{\"risk\":\"low\",\"decision\":\"allow\",\"x\":{}{}}}",
                "[".repeat(depth),
                "]".repeat(depth)
            )
        },
        &strict_read,
    );
    row(
        "strict: lone surrogate escapes in a reason",
        &sizes,
        &|n| {
            format!(
                "{{\"risk\":\"high\",\"decision\":\"deny\",\"reason\":\"{}\"}}",
                "\\ud800".repeat(n / 6)
            )
        },
        &strict_read,
    );
    row(
        "strict: repeated keys {\"a\":1,\"a\":1,…}",
        &sizes,
        &repeated_keys,
        &strict_read,
    );
    row(
        "strict: many distinct short keys",
        &sizes,
        &distinct_keys,
        &strict_read,
    );

    // The tolerant reader refuses text over its 1 MiB bound without scanning, so its sizes stop at
    // the bound; a fourth column shows the refusal of 4 MiB.
    let tol = |t: &str| {
        let _ = black_box(tolerant::parse_text(t));
    };
    let tol_sizes = [16 * kib, 64 * kib, 256 * kib, 1024 * kib];
    println!(
        "\n{:<44} {:>9} {:>9} {:>9} {:>9}   growth",
        "tolerant reader (up to its bound)", "16K", "64K", "256K", "1M"
    );
    row("tolerant: a run of {", &tol_sizes, &|n| "{".repeat(n), &tol);
    row(
        "tolerant: a run of \"",
        &tol_sizes,
        &|n| "\"".repeat(n),
        &tol,
    );
    row(
        "tolerant: prose then one deny",
        &tol_sizes,
        &|n| {
            format!(
                "{}{{\"risk\":\"high\",\"decision\":\"deny\"}}",
                "a ".repeat(n / 2 - 20)
            )
        },
        &tol,
    );
    row(
        "tolerant: many objects without decision",
        &tol_sizes,
        &|n| "{\"k\":1} ".repeat(n / 8),
        &tol,
    );
    row(
        "tolerant: many identical allows",
        &tol_sizes,
        &|n| "{\"risk\":\"low\",\"decision\":\"allow\"} ".repeat(n / 35),
        &tol,
    );
    let over = "{".repeat(4096 * kib);
    let refuse = time(|| tol(black_box(&over)), Duration::from_millis(40));
    println!(
        "tolerant: 4 MiB refused at the bound: {:.2} µs",
        refuse / 1000.0
    );

    // Runs of `{` against serde_json on a valid reply of the same size. The comparison text is a
    // deny whose reason fills the size: the fastest valid reply for serde_json (one string, found
    // with a byte search and copied once), so the ratio is the least flattering one available.
    let long_reason = |n: usize| {
        let head = r#"{"risk":"high","decision":"deny","reason":""#;
        format!("{head}{}\"}}", "x".repeat(n - head.len() - 2))
    };
    let serde_value = |t: &str| {
        let _ = black_box(serde_json::from_str::<serde_json::Value>(t));
    };
    let run_sizes = [64 * kib, 256 * kib, 1024 * kib];
    println!(
        "\n{:<44} {:>9} {:>9} {:>9}",
        "a run of { against serde_json (µs; ratios)", "64K", "256K", "1M"
    );
    let mut serde_ns = Vec::new();
    print!("{:<44}", "serde_json::from_str::<Value>: long reason");
    for &n in &run_sizes {
        let text = long_reason(n);
        assert_eq!(text.len(), n);
        let ns = time(|| serde_value(black_box(&text)), Duration::from_millis(40));
        serde_ns.push(ns);
        print!(" {:>9.2}", ns / 1000.0);
    }
    println!();
    let against_serde = |label: &str, run: &dyn Fn(&str)| {
        let mut ratios = Vec::new();
        print!("{label:<44}");
        for (&n, serde) in run_sizes.iter().zip(&serde_ns) {
            let text = "{".repeat(n);
            let ns = time(|| run(black_box(&text)), Duration::from_millis(40));
            ratios.push(ns / serde);
            print!(" {:>9.2}", ns / 1000.0);
        }
        println!();
        print!("{:<44}", format!("  {label} / serde_json"));
        for r in ratios {
            print!(" {r:>9.2}");
        }
        println!();
    };
    against_serde("tolerant: a run of {", &tol);
    against_serde("scan: a run of {", &scan);

    // The bare protocol object: the tolerant reader against serde_json on the same bytes.
    let object =
        r#"{"risk":"high","decision":"deny","reason":"uploads a credential to an external host"}"#;
    let ours = time(|| tol(black_box(object)), Duration::from_millis(100));
    let strict_ns = time(
        || strict_read(black_box(object)),
        Duration::from_millis(100),
    );
    let serde = time(
        || {
            let _ = black_box(serde_json::from_str::<serde_json::Value>(black_box(object)));
        },
        Duration::from_millis(100),
    );
    println!(
        "\nbare protocol object ({} bytes): tolerant {ours:.0} ns, strict {strict_ns:.0} ns, serde_json::from_str::<Value> {serde:.0} ns; tolerant / serde_json = {:.2}",
        object.len(),
        ours / serde
    );

    memory();
}

/// `{"a":1,"a":1,…}` of about `n` bytes.
fn repeated_keys(n: usize) -> String {
    format!("{{{}\"a\":1}}", "\"a\":1,".repeat(n.saturating_sub(8) / 6))
}

/// An object of about `n` bytes whose members have distinct names of three or four characters.
fn distinct_keys(n: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut out = String::with_capacity(n + 16);
    out.push('{');
    let mut i = ALPHABET.len().pow(2); // the first name with three characters
    while out.len() < n {
        if out.len() > 1 {
            out.push(',');
        }
        out.push('"');
        let mut name = Vec::new();
        let mut k = i;
        while k > 0 {
            name.push(ALPHABET[k % ALPHABET.len()]);
            k /= ALPHABET.len();
        }
        out.push_str(std::str::from_utf8(&name).unwrap());
        out.push_str("\":0");
        i += 1;
    }
    out.push('}');
    out
}

/// Makes an input of about the given size.
type Make = Box<dyn Fn(usize) -> String>;

/// Peak memory of `autoreview parse` on large inputs of each shape, as `/usr/bin/time -f %M`
/// reports it (the whole process: the input, the reading and the runtime), over the input size.
fn memory() {
    let time = std::path::Path::new("/usr/bin/time");
    if !time.exists() {
        println!("\npeak memory: skipped, /usr/bin/time is not installed");
        return;
    }
    let mib = 1 << 20;
    println!(
        "\npeak memory of `autoreview parse` (/usr/bin/time -f %M; whole process over input size)"
    );
    let strict_size = 64 * mib;
    let deny = |reason: &str| {
        format!("{{\"risk\":\"high\",\"decision\":\"deny\",\"reason\":\"{reason}\"}}")
    };
    let shapes: [(&str, Make); 4] = [
        ("repeated keys", Box::new(repeated_keys)),
        ("many distinct short keys", Box::new(distinct_keys)),
        (
            "deep nesting",
            Box::new(|n: usize| {
                let depth = n / 2 - 20;
                format!(
                    "{{\"risk\":\"low\",\"decision\":\"allow\",\"x\":{}{}}}",
                    "[".repeat(depth),
                    "]".repeat(depth)
                )
            }),
        ),
        (
            "one long reason, one escape",
            Box::new(move |n: usize| deny(&format!("\\n{}", "x".repeat(n - 60)))),
        ),
    ];
    for (label, make) in &shapes {
        let input = make(strict_size);
        measure(
            &format!("baseline: {label}"),
            &["--profile", "baseline"],
            input,
        );
    }
    // The tolerant reader's bound: the rest of stdin is never read.
    measure(
        "resilient: a run of { (read to 1 MiB + 1 byte)",
        &["--profile", "resilient"],
        "{".repeat(strict_size),
    );
    let blocks_size = 200 * mib;
    let text_block = |text: &str| format!("{{\"type\":\"text\",\"text\":\"{text}\"}}");
    let reasoning = r#"{"type":"reasoning","text":""}"#;
    let blocks: [(&str, Make); 3] = [
        (
            "one text block",
            Box::new(move |n: usize| format!("[{}]", text_block(&"x".repeat(n - 40)))),
        ),
        (
            "one escaped text block",
            Box::new(move |n: usize| {
                format!("[{}]", text_block(&format!("\\n{}", "x".repeat(n - 40))))
            }),
        ),
        (
            "empty reasoning blocks",
            Box::new(move |n: usize| {
                format!("[{}]", vec![reasoning; n / (reasoning.len() + 1)].join(","))
            }),
        ),
    ];
    for (label, make) in &blocks {
        let input = make(blocks_size);
        for profile in ["baseline", "resilient"] {
            measure(
                &format!("--blocks {profile}: {label}"),
                &["--blocks", "--profile", profile],
                input.clone(),
            );
        }
    }
}

/// Runs `autoreview parse <args>` under `/usr/bin/time` with `input` on stdin and prints its peak
/// memory against the input's size.
fn measure(label: &str, args: &[&str], input: String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(env!("CARGO_BIN_EXE_autoreview"))
        .arg("parse")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn /usr/bin/time");
    let mut stdin = child.stdin.take().expect("stdin");
    let len = input.len();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("wait");
    let _ = writer.join();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let kib: f64 = stderr
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(f64::NAN);
    let mib = |bytes: f64| bytes / f64::from(1 << 20);
    println!(
        "{label:<48} input {:>7.1} MiB   peak {:>7.1} MiB   {:>5.2}x",
        mib(len as f64),
        kib / 1024.0,
        kib * 1024.0 / len as f64
    );
}
