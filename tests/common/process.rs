//! Running the built `autoreview` binary, as both tiers do.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use autoreview::Profile;
use autoreview::runner::subprocess::{Limits, Subprocess};

const BIN: &str = env!("CARGO_BIN_EXE_autoreview");

/// Runs the command with `stdin` as its input, to its end.
pub fn autoreview(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_autoreview"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn autoreview");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(data.as_bytes());
    });
    let out = child.wait_with_output().expect("wait for autoreview");
    writer.join().unwrap();
    out
}

/// Runs the binary, returning exit code and stdout.
pub fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// What `args` writes for `input` given on stdin directly, with no shell in between.
pub fn piped(args: &[&str], input: &str) -> String {
    String::from_utf8(autoreview(args, input).stdout).unwrap()
}

/// Runs `line` under `/bin/sh` with the command's directory first on `PATH`, as a user pastes a
/// repro line into a CI step; returns its stdout.
pub fn sh(line: &str) -> String {
    let dir = std::path::Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("/bin/sh")
        .args(["-c", line])
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{line}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

pub fn start(command: Vec<String>, profile: Profile) -> Subprocess {
    Subprocess::start(command, profile, Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The JSON the command prints for `args` given `stdin`, once it has exited 0 (its standard error
/// shown when it did not).
pub fn json(args: &[&str], stdin: &str) -> serde_json::Value {
    let out = autoreview(args, stdin);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}
