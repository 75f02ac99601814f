//! Generated differential checking, timed: scenarios drawn, decided by an implementation and by
//! the reference engine, and compared. In process against the engine itself (the whole cost of
//! the machinery: drawing, two decisions, the comparison), against the async gate, and over the
//! protocol against `autoreview serve`, with the same scenarios' bare round trips through `serve`
//! in the same run for the ratio.
//!
//! Run with `cargo bench --bench generated`. The machine is shared: compare within one run.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

use autoreview::runner::generated::{self, Plan};
use autoreview::runner::subprocess::{Limits, Subprocess};
use autoreview::runner::{AsyncGate, Implementation, Reference, known_failures::Expected};
use autoreview::{Profile, protocol};

fn rate(imp: &mut dyn Implementation, profile: Profile, count: usize, seed: u64) -> f64 {
    let start = Instant::now();
    let run = generated::run(
        imp,
        profile,
        &Plan::new(count, seed),
        &Expected::none(),
        &mut |_, _| {},
    );
    let elapsed = start.elapsed();
    assert!(
        run.results.iter().all(|r| r.verdict.passed()),
        "the reference must agree with itself"
    );
    count as f64 / elapsed.as_secs_f64()
}

/// The same scenarios' requests sent through `serve` one at a time, replies read back: the
/// protocol's own cost, with nothing judged.
fn bare_round_trips(serve: &str, profile: Profile, count: usize, seed: u64) -> f64 {
    let lines: Vec<String> = (0..count)
        .map(|k| {
            let scenario = generated::draw(seed, k);
            serde_json::to_string(&protocol::Request::Decide {
                seq: k as u64,
                scenario: serde_json::to_value(&scenario).unwrap(),
                reply: None,
                world: None,
            })
            .unwrap()
        })
        .collect();
    let mut child = Command::new(serve)
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut reply = String::new();
    let mut send = |line: &str| {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        reply.clear();
        stdout.read_line(&mut reply).unwrap();
    };
    let hello = serde_json::to_string(&protocol::Request::Hello {
        protocol: protocol::VERSION,
        profile,
        rules: Some(profile.wire_rules()),
        runner: "bench".into(),
    })
    .unwrap();
    send(&hello);
    let start = Instant::now();
    for line in &lines {
        send(line);
    }
    let elapsed = start.elapsed();
    drop(stdin);
    let _ = child.wait();
    count as f64 / elapsed.as_secs_f64()
}

/// The limit: deciding the same pre-drawn scenarios once each, one after another on one thread,
/// with nothing drawn, tagged or compared.
fn decide_only(profile: Profile, count: usize, seed: u64) -> f64 {
    let scenarios: Vec<_> = (0..count).map(|k| generated::draw(seed, k)).collect();
    let start = Instant::now();
    for s in &scenarios {
        std::hint::black_box(autoreview::decide(std::hint::black_box(s), profile));
    }
    count as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let serve = env!("CARGO_BIN_EXE_autoreview");
    let profile = Profile::RESILIENT;
    let median = |mut xs: Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        xs[xs.len() / 2]
    };
    // Paired rounds: the limit and the whole machinery on the same scenarios, back to back.
    let mut limits = Vec::new();
    let mut checks = Vec::new();
    for i in 0..5 {
        limits.push(decide_only(profile, 200_000, i));
        checks.push(rate(&mut Reference, profile, 200_000, i));
    }
    let ratios: Vec<f64> = checks.iter().zip(&limits).map(|(c, l)| c / l).collect();
    let (limit, engine, ratio) = (median(limits), median(checks), median(ratios));
    println!(
        "deciding pre-drawn scenarios alone:     {limit:>9.0} scenarios/s (one thread, 200 000 per round, median of 5)"
    );
    println!(
        "in process, against the engine itself: {engine:>9.0} scenarios/s (check --generated: drawn, decided twice, tagged, compared); ratio to the limit {ratio:.2}"
    );
    let gate = median(
        (0..3)
            .map(|i| rate(&mut AsyncGate::new().unwrap(), profile, 50_000, i))
            .collect(),
    );
    println!(
        "in process, against the async gate:    {gate:>9.0} scenarios/s (50 000 per round, median of 3)"
    );
    let mut checked = Vec::new();
    let mut bare = Vec::new();
    for i in 0..5 {
        bare.push(bare_round_trips(serve, profile, 5_000, 100 + i));
        let mut imp = Subprocess::start(
            vec![serve.into(), "serve".into()],
            profile,
            Limits::default(),
        )
        .unwrap();
        checked.push(rate(&mut imp, profile, 5_000, 100 + i));
    }
    let ratios: Vec<f64> = checked.iter().zip(&bare).map(|(c, b)| c / b).collect();
    println!(
        "over the protocol, against serve:       {:>9.0} scenarios/s; the same requests' bare round trips {:>7.0}/s; ratio {:.2} (5 000 per round, median of 5)",
        median(checked),
        median(bare),
        median(ratios)
    );
}
