//! `autoreview parse` reads with bounded memory and gives the engine's verdict: the same verdict
//! as `engine::review::verdict` for every corpus reply, plain and as blocks, in both profiles; the
//! resilient profile stops reading one byte past the tolerant reader's bound (AR-TOL-3).

use std::io::{Read as _, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use autoreview::Profile;
use autoreview::corpus;
use autoreview::engine::review::read_raw;
use autoreview::engine::review::verdict;
use autoreview::parse::tolerant::MAX_TEXT_BYTES;
use autoreview::scenario::Attempt;

#[test]
fn gives_the_engine_verdict_for_every_corpus_reply() {
    let mut checked = 0;
    for e in corpus::load().unwrap() {
        // The form `parse` reads: a text, or blocks ended by a normal stop.
        let (input, blocks) = match &e.attempt {
            Attempt::Text { text, .. } => (text.clone(), false),
            Attempt::Blocks {
                blocks,
                finish,
                data_after_finish: false,
                ..
            } if finish.as_deref() == Some("stop") => {
                (serde_json::to_string(blocks).unwrap(), true)
            }
            _ => continue,
        };
        for p in Profile::all() {
            let expected = verdict(&e.attempt, p).unwrap();
            let got = read_raw(input.as_bytes(), p, blocks).unwrap();
            assert_eq!(got, expected, "{} in {p:?}", e.id);
            if !blocks {
                // The same text as one text block.
                let one = serde_json::json!([{ "type": "text", "text": &input }]).to_string();
                let got = read_raw(one.as_bytes(), p, true).unwrap();
                assert_eq!(got, expected, "{} as a block in {p:?}", e.id);
            }
            checked += 1;
        }
    }
    assert!(checked > 150, "only {checked} verdicts compared");
}

#[test]
fn the_resilient_profile_reads_one_byte_past_the_bound() {
    let too_large = verdict(
        &Attempt::text("{".repeat(MAX_TEXT_BYTES + 1)),
        Profile::RESILIENT,
    );
    // A reader that counts what is taken from it.
    struct Counted<R>(R, usize);
    impl<R: std::io::Read> std::io::Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1 += n;
            Ok(n)
        }
    }
    let mut endless = Counted(std::io::repeat(b'{'), 0);
    let got = read_raw(&mut endless, Profile::RESILIENT, false).unwrap();
    assert_eq!(Some(got), too_large);
    assert_eq!(endless.1, MAX_TEXT_BYTES + 1);
    // A character cut by the bound is not an encoding error; bytes past the bound are not read.
    let mut cut = "é".repeat(MAX_TEXT_BYTES / 2 + 1).into_bytes();
    assert_eq!(cut[MAX_TEXT_BYTES], "é".as_bytes()[0]);
    cut.extend_from_slice(b"\xff\xfe");
    let got = read_raw(&cut[..], Profile::RESILIENT, false).unwrap();
    assert_eq!(Some(got), too_large);
    // Within the bound, broken UTF-8 is unusable input.
    assert!(read_raw(&b"{\xff}"[..], Profile::RESILIENT, false).is_err());
    let mut bad_early = vec![b'x'; MAX_TEXT_BYTES + 10];
    bad_early[100] = 0xff;
    assert!(read_raw(&bad_early[..], Profile::RESILIENT, false).is_err());
    // The strict reader has no bound: it reads everything.
    let mut finite = Counted(std::io::repeat(b' ').take(3 * MAX_TEXT_BYTES as u64), 0);
    let got = read_raw(&mut finite, Profile::BASELINE, false).unwrap();
    let all = verdict(
        &Attempt::text(" ".repeat(3 * MAX_TEXT_BYTES)),
        Profile::BASELINE,
    );
    assert_eq!(Some(got), all);
    assert_eq!(finite.1, 3 * MAX_TEXT_BYTES);
}

#[test]
fn the_binary_answers_an_endless_stdin_at_once() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_autoreview"))
        .args(["parse", "--profile", "resilient"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn autoreview");
    let mut stdin = child.stdin.take().unwrap();
    // Writes until the reader goes away; a reader that read to the end would never answer.
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'{'; 1 << 16];
        let mut written = 0usize;
        while written < 1 << 28 && stdin.write_all(&chunk).is_ok() {
            written += chunk.len();
        }
        written
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("no answer after 30 s: stdin is being read to its end");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let written = writer.join().unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(status.success(), "{status}");
    let expected = verdict(
        &Attempt::text("{".repeat(MAX_TEXT_BYTES + 1)),
        Profile::RESILIENT,
    );
    assert_eq!(
        serde_json::from_str::<autoreview::parse::Verdict>(&out).ok(),
        expected
    );
    // What was written and never read sat in the pipe, which holds far less than this.
    assert!(written < 8 * MAX_TEXT_BYTES, "{written} bytes went in");
}

#[test]
fn the_binary_refuses_what_is_not_a_block_array() {
    for (profile, input) in [
        ("baseline", r#"[{"type":"text"}]"#),
        ("resilient", r#"{"type":"text","text":"x"}"#),
        ("resilient", r#"[{"type":"text","text":"\ud800"}]"#),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_autoreview"))
            .args(["parse", "--blocks", "--profile", profile])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn autoreview");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{input}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--blocks expects a JSON array of blocks"),
            "{err}"
        );
    }
}
