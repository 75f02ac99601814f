//! The binary as a user runs it against Node.js adapters: the README's CI recipe, run as pasted,
//! and the word diffs a tampered gate's texts are shown with.

use std::process::Command;

/// The README's CI recipe, run as pasted: every command between `<!-- ci-recipe -->` markers, in
/// a fresh directory that holds only the repository's `adapters/` (so the relative adapter paths
/// resolve and the reports land there), with the built `autoreview` first on `PATH` (standing in
/// for `cargo install`) and `GITHUB_STEP_SUMMARY` set as GitHub sets it. A command exits 0 unless
/// its line says `# exits N`.
#[cfg(unix)]
#[test]
fn the_readme_ci_recipe_runs_as_pasted() {
    let mut commands = recipe();
    // The set-up comes first and installs this package; here the command under test is already
    // built, and first on PATH, so the install is not run again.
    assert_eq!(
        commands.first().map(|(c, e)| (c.as_str(), *e)),
        Some(("cargo install --locked --path .", 0)),
        "the recipe starts by installing the command"
    );
    commands.remove(0);
    assert!(
        commands.iter().all(|(c, _)| c.starts_with("autoreview ")),
        "every other step runs the installed command: {commands:?}"
    );
    assert!(commands.len() >= 4, "the README's recipe: {commands:?}");
    assert!(
        commands
            .iter()
            .any(|(c, _)| c.contains("--profile baseline"))
    );
    assert!(
        commands
            .iter()
            .any(|(c, _)| c.contains("--profile resilient"))
    );

    let dir = std::env::temp_dir().join(format!("autoreview-recipe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(
        concat!(env!("CARGO_MANIFEST_DIR"), "/adapters"),
        dir.join("adapters"),
    )
    .unwrap();
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_autoreview"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // Outside GitHub Actions: no step summary variable, so the recipe's default path is used.
    let summary = dir.join("autoreview-summary.md");
    for (command, expected) in &commands {
        let out = std::process::Command::new("/bin/sh")
            .args(["-c", command])
            .current_dir(&dir)
            .env("PATH", &path)
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(*expected),
            "{command}\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for file in [
        "autoreview-baseline.xml",
        "autoreview-resilient.xml",
        "autoreview-known-failures.json",
        "autoreview-summary.md",
        "matrix.html",
        "matrix.md",
    ] {
        assert!(dir.join(file).is_file(), "the recipe writes {file}");
    }
    // Four columns (the Node example gate's shards are one), one badge per implementation.
    let page = std::fs::read_to_string(dir.join("matrix.html")).unwrap();
    assert_eq!(
        page.matches("<th class=\"impl\"").count(),
        4,
        "four columns"
    );
    assert!(
        page.contains("example-gate-python"),
        "the Python example's column"
    );
    assert_eq!(std::fs::read_dir(dir.join("badges")).unwrap().count(), 4);
    // Both checks of the first block wrote to the one step summary, and both summaries stay.
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(summary.matches("**PASS — ").count(), 2, "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The commands of the README's CI recipe (`<!-- ci-recipe -->` blocks) in order, each with the
/// exit code its line says (`# exits N`; 0 when it says none), lines ending in `\\` joined.
fn recipe() -> Vec<(String, i32)> {
    let readme = include_str!("../../README.md");
    let mut commands: Vec<(String, i32)> = Vec::new();
    let mut rest = readme;
    while let Some(start) = rest.find("<!-- ci-recipe -->") {
        let after = &rest[start..];
        let end = after
            .find("<!-- /ci-recipe -->")
            .expect("a closed ci-recipe block");
        let block = &after[..end];
        let body = block
            .split_once("```sh\n")
            .and_then(|(_, b)| b.split_once("```"))
            .expect("a sh code block in the ci-recipe block")
            .0;
        for line in body
            .replace("\\\n", " ")
            .lines()
            .filter(|l| !l.trim().is_empty())
        {
            let (command, expected) = match line.split_once("# exits ") {
                Some((c, n)) => (c, n[..1].parse().unwrap()),
                None => (line, 0),
            };
            commands.push((command.trim().to_owned(), expected));
        }
        rest = &after[end..];
    }
    commands
}

/// The CI recipe's checks of the example gate require a share of the profile's MUST clauses
/// (`--require-coverage`), which the example gate meets (the recipe above runs it); the same
/// checks of an adapter that observes nothing and lacks every capability
/// (`tests/adapters/misbehave.js bare`) pass every case they send it, yet fail, each report
/// stating the share it judged and stderr naming the share, the requirement and the clauses left
/// unjudged.
#[cfg(unix)]
#[test]
fn an_adapter_that_observes_nothing_fails_the_recipes_coverage_requirement() {
    let example = "-- node adapters/node/skeleton.js";
    let checks: Vec<String> = recipe()
        .into_iter()
        .map(|(c, _)| c)
        .filter(|c| c.starts_with("autoreview check ") && c.ends_with(example))
        // The CI checks, which write JUnit; not the matrix's shards, each of which judges part.
        .filter(|c| c.contains("--junit "))
        .collect();
    assert!(
        checks.len() >= 2,
        "the recipe checks the example gate: {checks:?}"
    );
    let required: Vec<&str> = checks
        .iter()
        .filter_map(|c| c.split_once("--require-coverage ")?.1.split(' ').next())
        .collect();
    assert_eq!(
        required.len(),
        checks.len(),
        "every check of the recipe requires a coverage: {checks:?}"
    );
    let bin = env!("CARGO_BIN_EXE_autoreview");
    let bare = format!(
        "-- node {} {bin} bare",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/misbehave.js")
    );
    let dir = crate::shared_dir::fresh("coverage-recipe");
    let bin_dir = std::path::Path::new(bin).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (check, required) in checks.iter().zip(&required) {
        let json = dir.join("bare.json");
        let command = format!(
            "{} --report-json {} {bare}",
            check.strip_suffix(example).unwrap().trim_end(),
            json.display()
        );
        let out = Command::new("/bin/sh")
            .args(["-c", &command])
            .current_dir(&dir)
            .env("PATH", &path)
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(1), "{command}\n{stdout}\n{stderr}");
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(report["observes"], serde_json::json!([]));
        assert_eq!(
            report["lacks"],
            serde_json::json!(["deny-reason", "ask-reason", "abort-signal"])
        );
        assert_eq!(
            report["summary"]["total"]["failed"], 0,
            "every case sent passed"
        );
        assert_eq!(report["succeeded"], false);
        let coverage = &report["coverage"];
        let (judged, must) = (
            coverage["judged"].as_u64().unwrap(),
            coverage["must"].as_u64().unwrap(),
        );
        assert!(judged > 0 && judged < must, "{coverage}");
        assert_eq!(
            coverage["unjudged"].as_array().unwrap().len() as u64,
            must - judged
        );
        let share = format!("judged {judged} of the {must} MUST clauses (");
        let first = coverage["unjudged"][0].as_str().unwrap();
        assert!(
            stdout.contains(&share) && stdout.contains(&format!("required {required}%: NOT met")),
            "{stdout}"
        );
        assert!(
            stderr.contains(&format!(
                "of the profile's MUST clauses, below the required {required}% (--require-coverage): no case it judged cites {first}, "
            )),
            "{stderr}"
        );
        let last = stdout.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("FAIL — ")
                && last.ends_with(&format!(
                    "of the MUST clauses judged, below the required {required}%"
                )),
            "{last}"
        );
        // The JUnit and Markdown the recipe writes state the share too.
        for (flag, text) in [
            ("--junit", "name=\"coverage\""),
            ("--markdown", "covered ("),
        ] {
            let file = check
                .split_once(&format!("{flag} "))
                .and_then(|(_, r)| r.split(' ').next())
                .unwrap()
                .replace(
                    "\"${GITHUB_STEP_SUMMARY:-autoreview-summary.md}\"",
                    "autoreview-summary.md",
                );
            let written = std::fs::read_to_string(dir.join(&file)).unwrap();
            assert!(
                written.contains(text) && written.contains(&share),
                "{file}: {written}"
            );
        }
    }
}

/// A TEXT difference shows as a word-level difference: coloured when `--color` allows, marked
/// `[-removed-]{+added+}` otherwise, and with HTML tags (never terminal colours) in Markdown.
#[test]
fn text_differences_show_the_changed_words() {
    let dir = crate::shared_dir::fresh("worddiff");
    let md = dir.join("summary.md").to_string_lossy().into_owned();
    let bin = env!("CARGO_BIN_EXE_autoreview");
    let tamper = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters/tamper.js");
    let run = |color: &str, no_color: Option<&str>| {
        let mut cmd = Command::new(bin);
        cmd.args(["check", "--profile", "baseline", "--only", "BL-11"])
            .args(["--color", color, "--markdown", &md])
            .args(["--", "node", tamper, bin, "text"])
            .env_remove("NO_COLOR");
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        let out = cmd.output().expect("run autoreview");
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stdout).unwrap()
    };
    let marked = "Error: the user [-rejected-]{+declined+} tool \"pwsh\"";
    let coloured = "the user \u{1b}[31mrejected\u{1b}[0m\u{1b}[32mdeclined\u{1b}[0m tool";
    // auto: stdout is a pipe here, so no colour.
    let out = run("auto", None);
    assert!(out.contains(marked), "{out}");
    assert!(!out.contains('\u{1b}'), "{out}");
    // always: colour even through a pipe and under NO_COLOR.
    let out = run("always", Some("1"));
    assert!(out.contains(coloured), "{out:?}");
    assert!(!out.contains("[-rejected-]"), "{out}");
    let summary = std::fs::read_to_string(&md).unwrap();
    assert!(
        summary.contains("the user <del>rejected</del><ins>declined</ins> tool"),
        "{summary}"
    );
    assert!(!summary.contains('\u{1b}'), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}
