//! `autoreview matrix` and `autoreview compare` on reports of real runs: the in-process reference,
//! the example gate split into two shards, the rc.3 model with expected failures listed, and a
//! protocol-1 adapter with cases not applicable to it. The page is opened in headless Chromium
//! (required: a run without it fails, naming how to install it) and every cell of its DOM is checked
//! against the reports; a screenshot is saved to `target/matrix.png`. `compare` catches the
//! regressions a planted defect causes, and finds nothing between a run and itself.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use autoreview::Profile;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_autoreview");
const NODE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/adapters/node");
const TESTS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters");
const SEED: &str = "11";
const GENERATED: &str = "100";

/// Runs the binary: exit code, stdout, stderr.
fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `check --profile resilient [args] --report-json DIR/NAME -- command`, expecting `code`.
fn check(dir: &Path, name: &str, args: &[&str], command: &[&str], code: i32) -> PathBuf {
    let path = dir.join(name);
    let json = path.to_string_lossy().into_owned();
    let mut all = vec!["check", "--profile", "resilient", "--report-json", &json];
    all.extend_from_slice(args);
    if !command.is_empty() {
        all.push("--");
        all.extend_from_slice(command);
    }
    let (got, out, err) = cli(&all);
    assert_eq!(got, code, "{all:?}\n{out}\n{err}");
    path
}

/// The reports of the runs the matrix tests share, made once: the reference (in process), the
/// example gate in two shards, the rc.3 model with a few expected failures listed, and a
/// protocol-1 adapter.
struct Runs {
    dir: PathBuf,
    reference: PathBuf,
    shards: [PathBuf; 2],
    rc3: PathBuf,
    protocol1: PathBuf,
}

fn runs() -> &'static Runs {
    static RUNS: OnceLock<Runs> = OnceLock::new();
    RUNS.get_or_init(|| {
        // Under target/tmp, for a look after the run; the file names say what each is.
        let dir = crate::shared_dir::fresh("matrix");
        let skeleton = format!("{NODE_DIR}/skeleton.js");
        let rc3 = format!("{NODE_DIR}/rc3-model.js");
        let misbehave = format!("{TESTS_DIR}/misbehave.js");
        let generated = ["--generated", GENERATED, "--seed", SEED];
        let expect = dir.join("rc3-expect.json");
        // Two of the model's reported defects, and a pass-through it gets right (an unexpected pass).
        std::fs::write(
            &expect,
            r#"{"version": 1, "failures": {"RS-F1": "defect 1", "RO-015": "defect 2", "RS-P1": "listed, passes"}}"#,
        )
        .unwrap();
        let expect = expect.to_string_lossy().into_owned();
        let shard = |i: &str| {
            check(
                &dir,
                &format!("example-{i}.json"),
                &[&generated[..], &["--shard", &format!("{i}/2")]].concat(),
                &["node", &skeleton],
                0,
            )
        };
        Runs {
            reference: check(&dir, "reference.json", &[], &[], 0),
            shards: [shard("1"), shard("2")],
            rc3: check(
                &dir,
                "rc3.json",
                &[&generated[..], &["--expect", &expect]].concat(),
                &["node", &rc3],
                1,
            ),
            protocol1: check(
                &dir,
                "protocol1.json",
                &[],
                &["node", &misbehave, BIN, "protocol-1", "0"],
                0,
            ),
            dir,
        }
    })
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// A start tag's attributes, entities decoded.
type Attrs = BTreeMap<String, String>;

/// Decodes the entities a serializer writes in attribute values and text.
fn decode(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// Every start tag named `name` in `html`, with its attributes and its offset: enough of an HTML
/// reader for the markup this crate writes and Chromium serializes (quoted attribute values).
fn tags(html: &str, name: &str) -> Vec<(usize, Attrs)> {
    let open = format!("<{name}");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = html[from..].find(&open) {
        let start = from + i;
        let mut j = start + open.len();
        from = j;
        if !html[j..].starts_with([' ', '>', '\n']) {
            continue;
        }
        let mut attrs = Attrs::new();
        loop {
            let rest = &html[j..];
            let trimmed = rest.trim_start();
            j += rest.len() - trimmed.len();
            if trimmed.starts_with('>') || trimmed.is_empty() {
                break;
            }
            let key_len = trimmed
                .find(|c: char| c == '=' || c == '>' || c.is_whitespace())
                .unwrap_or(trimmed.len());
            let key = trimmed[..key_len].to_owned();
            j += key_len;
            if html[j..].starts_with("=\"") {
                let end = html[j + 2..].find('"').unwrap();
                attrs.insert(key, decode(&html[j + 2..j + 2 + end]));
                j += 2 + end + 1;
            } else {
                attrs.insert(key, String::new());
            }
        }
        out.push((start, attrs));
        from = j;
    }
    out
}

/// The worst of a result as the page names it: the worst severity of its differences, or the
/// kind of outcome it did not give, in capitals.
fn worst(result: &Value) -> Option<String> {
    const ORDER: [&str; 6] = ["SAFETY", "BOUNDS", "DECISION", "ORDER", "TEXT", "INFO"];
    if let Some(ds) = result["differences"].as_array() {
        return ds
            .iter()
            .filter_map(|d| d["severity"].as_str())
            .min_by_key(|s| ORDER.iter().position(|o| o == s))
            .map(str::to_owned);
    }
    result["error"]["kind"].as_str().map(str::to_uppercase)
}

/// Runs `command` to its end, or kills it after two minutes: a browser that hangs fails the test
/// instead of holding the suite.
fn bounded(command: &mut Command) -> std::process::Output {
    use std::time::{Duration, Instant};
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read both pipes while waiting, so a large DOM cannot fill one and stall the browser.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut b).map(|_| b)
    });
    let err = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut b).map(|_| b)
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} did not finish in two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    std::process::Output {
        status,
        stdout: out.join().unwrap().unwrap(),
        stderr: err.join().unwrap().unwrap(),
    }
}

/// Opens `page` in headless Chromium: its DOM as Chromium built it, and a screenshot at `shot`,
/// from one start of the browser (each start costs about a second and a half of CPU).
fn in_chromium(chromium: &Path, page: &Path, shot: &Path, profile_dir: &Path) -> String {
    let url = format!("file://{}", page.display());
    let user = format!("--user-data-dir={}", profile_dir.display());
    let shot_arg = format!("--screenshot={}", shot.display());
    let out = bounded(
        Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--no-first-run",
                "--disable-component-update",
                "--disable-sync",
            ])
            .arg(&user)
            .args(["--dump-dom", &shot_arg, "--window-size=1280,2000"])
            .arg(&url),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The page for the four runs, read back: every cell is the reports' result for its case,
/// every failure links to its differences, each column's score is the reports' counts, and not
/// applicable cases are counted apart. Checked on the page as written, and on the DOM Chromium
/// builds from it.
#[test]
fn the_matrix_page_shows_every_result_of_the_runs() {
    let r = runs();
    let html = r.dir.join("matrix.html");
    let md = r.dir.join("matrix.md");
    let badges = r.dir.join("badges");
    let arg = |p: &Path| p.to_string_lossy().into_owned();
    let sources = [
        arg(&r.reference),
        arg(&r.shards[1]),
        arg(&r.rc3),
        arg(&r.shards[0]),
        arg(&r.protocol1),
    ];
    let (html_arg, md_arg, badges_arg) = (arg(&html), arg(&md), arg(&badges));
    let mut args = vec!["matrix"];
    args.extend(sources.iter().map(String::as_str));
    args.extend([
        "--html",
        &html_arg,
        "--markdown",
        &md_arg,
        "--badges",
        &badges_arg,
    ]);
    let (code, out, err) = cli(&args);
    assert_eq!(code, 0, "{out}\n{err}");

    // The columns, in the order their runs first come; the shards are one column.
    let columns: Vec<Vec<Value>> = vec![
        vec![read_json(&r.reference)],
        vec![read_json(&r.shards[1]), read_json(&r.shards[0])],
        vec![read_json(&r.rc3)],
        vec![read_json(&r.protocol1)],
    ];
    let page = std::fs::read_to_string(&html).unwrap();
    let mut doms = vec![("as written", page.clone())];
    let chromium = crate::tools::chromium();
    let shot = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/matrix.png");
    // An earlier run's screenshot must not stand in for this one's.
    let _ = std::fs::remove_file(&shot);
    let dom = in_chromium(&chromium, &html, &shot, &r.dir.join("chromium-profile"));
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000);
    doms.push(("in Chromium", dom));
    for (how, dom) in &doms {
        check_dom(how, dom, &columns);
    }

    // The Markdown table: each column's score, and a line per chapter.
    let md = std::fs::read_to_string(&md).unwrap();
    for (i, reports) in columns.iter().enumerate() {
        let (p, f, _) = counts(reports);
        let pct = format!("{}.{}%", p * 1000 / (p + f) / 10, p * 1000 / (p + f) % 10);
        assert!(
            md.contains(&format!("**{pct}** ({p} of {})", p + f)),
            "column {i}: {pct}\n{md}"
        );
    }
    assert!(md.contains("| **1. Scope and pass-through** |"), "{md}");
    assert!(md.contains("never as passes"), "{md}");

    // One badge per implementation, each naming its profile's score and the level it was earned
    // at.
    let mut files: Vec<String> = std::fs::read_dir(&badges)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 4, "{files:?}");
    let rc3 = files.iter().find(|f| f.contains("0.2.1-rc.3")).unwrap();
    let svg = std::fs::read_to_string(badges.join(rc3)).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let (p, f, _) = counts(&columns[2]);
    let pct = format!(
        "resilient (full) {}.{}%",
        p * 1000 / (p + f) / 10,
        p * 1000 / (p + f) % 10
    );
    assert!(
        doc.descendants().any(|n| n.text() == Some(pct.as_str())),
        "{pct} in {svg}"
    );
}

/// Passed (unexpected passes and counted generated passes included), failed (expected failures
/// included) and not applicable, from the reports' own summaries.
fn counts(reports: &[Value]) -> (u64, u64, u64) {
    let mut c = (0, 0, 0);
    for r in reports {
        let t = &r["summary"]["total"];
        let n = |k: &str| t[k].as_u64().unwrap();
        c.0 += n("passed") + n("unexpected_passes");
        c.1 += n("failed") + n("expected_failures");
        c.2 += n("not_applicable");
    }
    c
}

fn check_dom(how: &str, dom: &str, columns: &[Vec<Value>]) {
    // Cells by column and case, each once.
    let mut cells: BTreeMap<(String, String), Attrs> = BTreeMap::new();
    for (_, a) in tags(dom, "td") {
        if let (Some(case), Some(imp)) = (a.get("data-case"), a.get("data-impl")) {
            let key = (imp.clone(), case.clone());
            assert!(!cells.contains_key(&key), "{how}: two cells for {key:?}");
            cells.insert(key, a);
        }
    }
    let cases: BTreeSet<&String> = cells.keys().map(|(_, c)| c).collect();
    assert_eq!(
        cells.len(),
        cases.len() * columns.len(),
        "{how}: a cell per case and column"
    );
    // Anchors the failures link to, with what each holds.
    let anchors: BTreeMap<String, (usize, Attrs)> = tags(dom, "article")
        .into_iter()
        .filter_map(|(at, a)| Some((a.get("id")?.clone(), (at, a))))
        .collect();
    let links: BTreeMap<usize, String> = tags(dom, "a")
        .into_iter()
        .filter_map(|(at, a)| Some((at, a.get("href")?.strip_prefix('#')?.to_owned())))
        .collect();
    let cell_offsets: BTreeMap<(String, String), usize> = tags(dom, "td")
        .into_iter()
        .filter_map(|(at, a)| {
            Some((
                (a.get("data-impl")?.clone(), a.get("data-case")?.clone()),
                at,
            ))
        })
        .collect();

    let mut statuses = BTreeSet::new();
    for (i, reports) in columns.iter().enumerate() {
        let imp = format!("c{i}");
        let mut listed = 0;
        for report in reports {
            for result in report["results"].as_array().unwrap() {
                listed += 1;
                let id = result["id"].as_str().unwrap();
                let cell = cells
                    .get(&(imp.clone(), id.to_owned()))
                    .unwrap_or_else(|| panic!("{how}: no cell for {id} in {imp}"));
                let status = result["status"].as_str().unwrap();
                statuses.insert(status.to_owned());
                assert_eq!(cell["data-status"], status, "{how}: {id} in {imp}");
                assert_eq!(
                    cell.get("data-worst").cloned(),
                    if matches!(status, "fail" | "expected-fail") {
                        worst(result)
                    } else {
                        None
                    },
                    "{how}: {id} in {imp}"
                );
                if status == "not-applicable" {
                    let missing: Vec<&str> = result["missing"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m.as_str().unwrap())
                        .collect();
                    assert_eq!(cell["data-missing"], missing.join(" "), "{how}: {id}");
                }
                if matches!(status, "fail" | "expected-fail") {
                    // The cell links to an article holding each difference's pointer.
                    let at = cell_offsets[&(imp.clone(), id.to_owned())];
                    let (_, target) = links
                        .range(at..)
                        .next()
                        .unwrap_or_else(|| panic!("{how}: no link in {id}'s cell"));
                    let (start, article) = &anchors.get(target).unwrap_or_else(|| {
                        panic!("{how}: {id} links to #{target}, not on the page")
                    });
                    assert_eq!(
                        (article["data-case"].as_str(), article["data-impl"].as_str()),
                        (id, imp.as_str())
                    );
                    let end = start + dom[*start..].find("</article>").unwrap();
                    let body = &dom[*start..end];
                    for d in result["differences"].as_array().into_iter().flatten() {
                        let pointer = d["pointer"].as_str().unwrap();
                        assert!(
                            tags(body, "tr")
                                .iter()
                                .any(|(_, a)| a.get("data-pointer").map(String::as_str)
                                    == Some(pointer)),
                            "{how}: {id}: {pointer} not in its detail"
                        );
                    }
                    assert!(body.contains("autoreview "), "{how}: {id}: a repro line");
                }
            }
        }
        // A generated case another column lists, drawn by this column's run, passed here.
        let generated: BTreeSet<String> = reports
            .iter()
            .flat_map(|r| r["results"].as_array().unwrap().iter())
            .filter_map(|r| r["id"].as_str().map(str::to_owned))
            .collect();
        for ((c, id), cell) in &cells {
            if *c == imp && id.starts_with("GEN-") && !generated.contains(id) {
                let drawn = reports[0]["seed"] == 11 && !id.contains("-S");
                if drawn {
                    assert_eq!(
                        (
                            cell["data-status"].as_str(),
                            cell.get("data-listed").map(String::as_str)
                        ),
                        ("pass", Some("false")),
                        "{how}: {id} in {imp}"
                    );
                }
            }
        }
        assert!(listed > 0);
        // The score line: the reports' own counts.
        let (p, f, na) = counts(reports);
        let row = tags(dom, "tr")
            .into_iter()
            .map(|(_, a)| a)
            .find(|a| a.get("data-impl") == Some(&imp) && a.contains_key("data-passed"))
            .unwrap_or_else(|| panic!("{how}: no score line for {imp}"));
        assert_eq!(
            (
                row["data-passed"].parse::<u64>().unwrap(),
                row["data-failed"].parse::<u64>().unwrap(),
                row["data-not-applicable"].parse::<u64>().unwrap()
            ),
            (p, f, na),
            "{how}: {imp}"
        );
    }
    // The runs give every kind of cell but absent; absent ones are there too (the reference
    // draws no generated case).
    for s in [
        "pass",
        "fail",
        "expected-fail",
        "unexpected-pass",
        "not-applicable",
    ] {
        assert!(statuses.contains(s), "{how}: no {s} among {statuses:?}");
    }
    assert!(cells.values().any(|c| c["data-status"] == "absent"));
    assert!(
        counts(&columns[3]).2 > 0,
        "the protocol-1 adapter has cases not applicable to it"
    );
    assert!(dom.contains("never counted as passes"), "{how}");
}

/// Shards that do not make a whole run, or that overlap, are refused naming the files.
#[test]
fn the_matrix_refuses_an_incomplete_or_overlapping_run() {
    let r = runs();
    let one = r.shards[0].to_string_lossy().into_owned();
    let out = r.dir.join("bad.html").to_string_lossy().into_owned();
    let (code, _, err) = cli(&["matrix", &one, "--html", &out]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains(&one) && err.contains("shard 2/2") && err.contains("missing"),
        "{err}"
    );
    let (code, _, err) = cli(&["matrix", &one, &one, "--html", &out]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("shard 1/2") && err.contains("twice"), "{err}");
    let reference = r.reference.to_string_lossy().into_owned();
    let (code, _, err) = cli(&["matrix", &reference, &reference, "--html", &out]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("the same run"), "{err}");
    // A shard file edited to claim the other half: its cases overlap the real one's.
    let mut forged = read_json(&r.shards[0]);
    forged["shard"]["index"] = 2.into();
    let forged_path = r.dir.join("forged.json");
    std::fs::write(&forged_path, forged.to_string()).unwrap();
    let forged_arg = forged_path.to_string_lossy().into_owned();
    let (code, _, err) = cli(&["matrix", &one, &forged_arg, "--html", &out]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("is in both") && err.contains("forged.json"),
        "{err}"
    );
    let (code, _, err) = cli(&["matrix", &one]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("nothing to write"), "{err}");
    assert!(!Path::new(&out).exists(), "nothing written on an error");
}

/// The fixed cases whose reference outcome asks the user somewhere (a call's listener `ask`):
/// those a gate that turns each question into a denial fails, unless the case is
/// implementation-defined (held to safety only).
fn asking_cases() -> BTreeSet<String> {
    autoreview::cases::all(Profile::RESILIENT)
        .unwrap()
        .into_iter()
        .filter(|c| !c.implementation_defined)
        .filter(|c| {
            let o = serde_json::to_value(autoreview::engine::decide_input(
                &c.scenario,
                Profile::RESILIENT,
            ))
            .unwrap();
            let asks = |o: &Value| o["listener"]["kind"] == "ask";
            asks(&o) || o["calls"].as_array().is_some_and(|cs| cs.iter().any(asks))
        })
        .map(|c| c.id)
        .collect()
}

/// `compare` of a correct run (the example gate) with a run of a planted defect (questions turned
/// into denials) reports each case the defect breaks as a regression, and exits 1; a run compared
/// with itself changes nothing and exits 0.
#[test]
fn compare_reports_the_regressions_a_planted_defect_causes() {
    let dir = std::env::temp_dir().join(format!("autoreview-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let generated = ["--generated", GENERATED, "--seed", SEED];
    let old = check(
        &dir,
        "old.json",
        &generated,
        &["node", &format!("{NODE_DIR}/skeleton.js")],
        0,
    );
    let new = check(
        &dir,
        "new.json",
        &generated,
        &["node", &format!("{TESTS_DIR}/tamper.js"), BIN, "decision"],
        1,
    );
    let (old, new) = (
        old.to_string_lossy().into_owned(),
        new.to_string_lossy().into_owned(),
    );
    let (code, out, err) = cli(&["compare", &old, &new]);
    assert_eq!(code, 1, "{out}\n{err}");
    // The IDs listed under REGRESSIONS.
    let mut regressions = BTreeSet::new();
    let mut inside = false;
    for line in out.lines() {
        if line.starts_with("REGRESSIONS") {
            inside = true;
        } else if inside && line.starts_with("  ") && !line.starts_with("      ") {
            let mut words = line.split_whitespace();
            let id = words.next().unwrap().to_owned();
            assert_eq!(words.next(), Some("pass"), "{line}");
            assert_eq!(words.next(), Some("→"), "{line}");
            assert_eq!(words.next(), Some("fail"), "{line}");
            assert_eq!(
                words.next(),
                Some("DECISION"),
                "a question became a denial: {line}"
            );
            regressions.insert(id);
        } else if inside && line.is_empty() {
            inside = false;
        }
    }
    let fixed: BTreeSet<String> = regressions
        .iter()
        .filter(|id| !id.starts_with("GEN-"))
        .cloned()
        .collect();
    let expected = asking_cases();
    assert!(expected.contains("RS-PN"), "a case that asks");
    assert_eq!(fixed, expected, "{out}");
    // Every generated case the defect fails passed in the old run, unlisted: a regression too.
    let failed_generated: BTreeSet<String> = read_json(Path::new(&new))["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "fail")
        .filter_map(|r| {
            r["id"]
                .as_str()
                .filter(|id| id.starts_with("GEN-"))
                .map(str::to_owned)
        })
        .collect();
    assert!(!failed_generated.is_empty());
    assert!(
        failed_generated.iter().all(|id| regressions.contains(id)),
        "{out}"
    );
    assert!(
        out.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with(&format!("REGRESSION — {} regressions", regressions.len())),
        "{out}"
    );
    assert!(
        out.contains("DECISION /listener/kind: expected \"ask\", got \"deny\""),
        "{out}"
    );

    // The reverse: the same cases now pass.
    let (code, out, _) = cli(&["compare", &new, &old]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!("NEW PASSES ({})", regressions.len())),
        "{out}"
    );
    assert!(
        out.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("NO REGRESSION — 0 regressions"),
        "{out}"
    );

    for run in [&old, &new] {
        let (code, out, _) = cli(&["compare", run, run]);
        assert_eq!(code, 0, "{out}");
        assert_eq!(
            out.trim_end().lines().last(),
            Some("NO REGRESSION — 0 regressions, nothing else changed"),
            "{out}"
        );
    }
    let (code, _, err) = cli(&["compare", &old, "/nonexistent/report.json"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("/nonexistent/report.json"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The README's recipe of a seed per run: with another seed, or beyond the old run's count, a
/// generated case the new run fails is one the old run could not have drawn. It is a new failure,
/// not a regression, and fails the comparison unless `--allow-new-failures`; on one seed the same
/// defect compares as unchanged.
#[test]
fn compare_fails_on_a_new_generated_failure_across_seeds() {
    let dir = std::env::temp_dir().join(format!("autoreview-seeds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tamper = ["node", &format!("{TESTS_DIR}/tamper.js"), BIN, "decision"];
    let run = |name: &str, seed: &str, n: &str| {
        let args = ["--no-fixed", "--generated", n, "--seed", seed];
        check(&dir, name, &args, &tamper, 1)
            .to_string_lossy()
            .into_owned()
    };
    let (seed11, seed12) = (run("s11.json", "11", "100"), run("s12.json", "12", "100"));
    let failing = |p: &str| -> BTreeSet<String> {
        read_json(Path::new(p))["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["status"] == "fail")
            .map(|r| r["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let new_failures = |out: &str| -> BTreeSet<String> {
        let mut ids = BTreeSet::new();
        let mut inside = false;
        for line in out.lines() {
            if line.starts_with("NEW FAILURES — ") {
                inside = true;
            } else if inside && line.starts_with("  ") && !line.starts_with("      ") {
                let mut words = line.split_whitespace();
                ids.insert(words.next().unwrap().to_owned());
                assert_eq!(words.next(), Some("absent"), "{line}");
            } else if inside && line.is_empty() {
                inside = false;
            }
        }
        ids
    };
    let last = |out: &str| out.trim_end().lines().last().unwrap().to_owned();

    let failed12 = failing(&seed12);
    assert!(!failed12.is_empty(), "the defect shows in 100 cases");
    let (code, out, _) = cli(&["compare", &seed11, &seed12]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(new_failures(&out), failed12, "{out}");
    assert!(
        last(&out).starts_with(&format!(
            "NEW FAILURES — 0 regressions, {} new failures",
            failed12.len()
        )),
        "{out}"
    );
    assert!(out.contains("have different seeds"), "{out}");
    let (code, out, _) = cli(&["compare", "--allow-new-failures", &seed11, &seed12]);
    assert_eq!(code, 0, "{out}");
    assert!(
        last(&out).starts_with(&format!(
            "NO REGRESSION — 0 regressions, {} new failures (allowed)",
            failed12.len()
        )),
        "{out}"
    );

    // One seed, a larger count: only the failures beyond the old count are new.
    let more = run("s11-more.json", "11", "200");
    let beyond: BTreeSet<String> = failing(&more)
        .into_iter()
        .filter(|id| {
            id.rsplit('-')
                .next()
                .unwrap()
                .trim_start_matches('S')
                .parse::<usize>()
                .unwrap()
                >= 100
        })
        .collect();
    assert!(!beyond.is_empty(), "the defect shows in cases 100..200");
    let (code, out, _) = cli(&["compare", &seed11, &more]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(new_failures(&out), beyond, "{out}");
    // The same run on its own seed compares as unchanged.
    let (code, out, _) = cli(&["compare", &seed11, &seed11]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        last(&out),
        "NO REGRESSION — 0 regressions, nothing else changed"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
