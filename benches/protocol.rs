//! Protocol benchmark: the fixed corpus sent one request at a time, as the runner sends it,
//! through a plain JSON-lines echo (this binary re-run with `--echo-lines`: it reads each line
//! whole and writes it back), through `cat` (which streams bytes without reading lines, the raw
//! pipe), and through `autoreview serve`; then a full `check` over the protocol against `serve`,
//! reference decisions and comparison included. Each round runs all four back to back and the
//! ratios are taken within the round, since the machine is shared; the medians are printed, for
//! the whole corpus and for the cases under 64 KiB.
//!
//! Run with `cargo bench --bench protocol`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use autoreview::runner::subprocess::{Limits, Subprocess};
use autoreview::runner::{self, Oracle, known_failures::Expected};
use autoreview::{Profile, cases, protocol};

/// Sends `lines` to `program` one at a time, waiting for one line back each time; returns the
/// elapsed time. Replies are read on their own thread, as the runner does, so that an echo of a
/// long line cannot block the writer.
fn round_trips(program: &str, args: &[&str], hello: &str, lines: &[String]) -> Duration {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel::<usize>();
    let reader = std::thread::spawn(move || {
        for line in stdout.lines() {
            let Ok(line) = line else { break };
            if tx.send(line.len()).is_err() {
                break;
            }
        }
    });
    let mut send = |line: &str| {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        rx.recv()
            .unwrap_or_else(|_| panic!("{program} stopped answering"));
    };
    send(hello);
    let start = Instant::now();
    for line in lines {
        send(line);
    }
    let elapsed = start.elapsed();
    drop(stdin);
    let _ = child.wait();
    let _ = reader.join();
    elapsed
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Times echo, serve and check back to back, `runs` times, over `cases`; prints the median
/// throughputs and the median (and range) of the per-round ratios to echo, so that a slow
/// moment on the shared machine affects all three alike.
fn measure(label: &str, serve: &str, profile: Profile, cases: &[cases::Case], runs: usize) {
    let hello = serde_json::to_string(&protocol::Request::Hello {
        protocol: protocol::VERSION,
        profile,
        rules: Some(profile.wire_rules()),
        runner: "bench".into(),
    })
    .unwrap();
    let lines: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            serde_json::to_string(&protocol::Request::Decide {
                seq: i as u64,
                scenario: serde_json::to_value(&c.scenario).unwrap(),
                reply: None,
                world: None,
            })
            .unwrap()
        })
        .collect();
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    let rate = |d: Duration| cases.len() as f64 / d.as_secs_f64();
    let me = std::env::current_exe().expect("the benchmark's own path");
    let me = me.to_str().expect("a UTF-8 path");
    let (mut cat, mut echo, mut served, mut checked) = (vec![], vec![], vec![], vec![]);
    let (mut serve_ratio, mut check_ratio) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        cat.push(rate(round_trips("cat", &[], &hello, &lines)));
        let e = rate(round_trips(me, &["--echo-lines"], &hello, &lines));
        let s = rate(round_trips(serve, &["serve"], &hello, &lines));
        let mut imp = Subprocess::start(
            vec![serve.into(), "serve".into()],
            profile,
            Limits::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        // Timed to the last case's verdict: the run then listens a fixed 50 ms for output
        // nobody asked for, a cost per run rather than per case.
        let start = Instant::now();
        let mut last = start;
        let report = runner::run(
            &mut imp,
            cases,
            profile,
            Oracle::Reference,
            &Expected::none(),
            &mut |_, _| last = Instant::now(),
        );
        let c = rate(last.duration_since(start));
        assert_eq!(
            report.passed(),
            cases.len(),
            "the reference must pass its own cases"
        );
        echo.push(e);
        served.push(s);
        checked.push(c);
        serve_ratio.push(s / e);
        check_ratio.push(c / e);
    }
    let range = |xs: &[f64]| {
        let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = xs.iter().copied().fold(0.0, f64::max);
        format!("{lo:.2}–{hi:.2}")
    };
    println!(
        "{label}: {} cases ({profile}), {:.1} MiB of requests, one request at a time; medians of {runs} rounds",
        cases.len(),
        bytes as f64 / (1 << 20) as f64
    );
    println!(
        "  cat (streams bytes):      {:>8.0} cases/s   {:.2} of the line echo",
        median(cat.clone()),
        median(cat) / median(echo.clone())
    );
    println!("  line echo:                {:>8.0} cases/s", median(echo));
    println!(
        "  autoreview serve:         {:>8.0} cases/s   {:.2} of the line echo (rounds {})",
        median(served),
        median(serve_ratio.clone()),
        range(&serve_ratio)
    );
    println!(
        "  check over the protocol:  {:>8.0} cases/s   {:.2} of the line echo (rounds {})",
        median(checked),
        median(check_ratio.clone()),
        range(&check_ratio)
    );
}

/// The line echo: reads each line whole and writes it back whole, flushing after each, as a
/// protocol adapter with no work to do would.
fn echo_lines() {
    let mut input = BufReader::with_capacity(1 << 20, std::io::stdin().lock());
    let mut output = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if output
            .write_all(&line)
            .and_then(|()| output.flush())
            .is_err()
        {
            return;
        }
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    if std::env::args().any(|a| a == "--echo-lines") {
        return echo_lines();
    }
    let serve = env!("CARGO_BIN_EXE_autoreview");
    let profile = Profile::RESILIENT;
    let all = cases::all(profile).expect("fixed cases");
    measure("whole fixed corpus", serve, profile, &all, 11);
    // The corpus's few megabyte-long hostile reviewer texts carry nearly all of its bytes;
    // without them the figures show the per-case cost of the protocol itself.
    let small: Vec<cases::Case> = all
        .iter()
        .filter(|c| serde_json::to_string(&c.scenario).map_or(0, |j| j.len()) < 64 * 1024)
        .cloned()
        .collect();
    measure("cases under 64 KiB", serve, profile, &small, 11);
}
