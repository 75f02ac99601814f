//! Parse-time benchmark: shows the readers' time growing linearly with the input on adversarial
//! text, compares a run of `{` (tolerant reader and scan) with `serde_json` on a valid reply of the
//! same size, and the tolerant reader with `serde_json` on a bare protocol object.
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
}
