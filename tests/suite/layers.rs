//! The layers hold. The library holds no command line: the `autoreview` binary's `cli` module is
//! the only code that names `clap`, and the library does not declare it, so anything using the
//! library (the tests, the benches, another tool) gets the contract and the engine without the
//! shell. Below the runner, nothing names it: the contract (scenario, outcome, profile, messages,
//! readers), the engine, the generator (whose shrinking the runner uses), the cases and their IDs,
//! and the differences a comparison writes. The runner uses the async gate through what its module
//! exports, never its internals. The reports (`src/report/`) stand on the run's results: nothing
//! below the runner names them, they name the runner only for its result types, and of the runner
//! only its root, where those types are, names them.

use std::path::{Path, PathBuf};

/// Every Rust file under `dir`.
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_binary_names_clap() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let shell = [src.join("main.rs"), src.join("cli.rs")];
    let naming: Vec<_> = files
        .iter()
        .filter(|f| !shell.contains(f))
        .filter(|f| std::fs::read_to_string(f).unwrap().contains("clap"))
        .collect();
    assert!(
        files.len() > 50,
        "found only {} files under src/",
        files.len()
    );
    assert!(naming.is_empty(), "library files naming clap: {naming:?}");
}

#[test]
fn the_library_does_not_declare_the_command_line() {
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs")).unwrap();
    assert!(
        !lib.lines()
            .any(|l| l.trim_start().starts_with("pub mod cli")),
        "{lib}"
    );
    let main =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/main.rs")).unwrap();
    assert!(main.lines().any(|l| l.trim() == "mod cli;"), "{main}");
}

/// The library code of `file` (its `#[cfg(test)]` module left out: a test may drive anything).
fn library_code(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let tests = [
        "#[cfg(test)]\nmod tests",
        "#[cfg(test)]\npub(crate) mod tests",
    ];
    match tests.iter().filter_map(|t| text.find(t)).min() {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// Every library file under `src/` that `paths` names (files or directories).
fn files_of(paths: &[&str]) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for p in paths {
        let path = src.join(p);
        if path.is_dir() {
            rust_files(&path, &mut files);
        } else {
            assert!(path.is_file(), "{} is not a file of src/", path.display());
            files.push(path);
        }
    }
    files
}

/// Whether `code` names `name` as a path of its own: not the end of a longer name
/// (`proptest::test_runner::` does not name `runner::`).
fn mentions(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(i, _)| {
        !code[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The lines of `files` that name any of `names`, as `file:line: text`.
fn naming(files: &[PathBuf], names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for f in files {
        for (i, line) in library_code(f).lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if names.iter().any(|n| mentions(code, n)) {
                out.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    out
}

/// What lies below the runner: the contract, the engine, the generator, the cases and their IDs,
/// the differences.
const BELOW_THE_RUNNER: [&str; 13] = [
    "engine",
    "scenario",
    "generate",
    "parse",
    "outcome.rs",
    "profile.rs",
    "messages.rs",
    "cases.rs",
    "ids.rs",
    "corpus.rs",
    "difference.rs",
    "conformance.rs",
    "table",
];

#[test]
fn a_name_is_a_path_of_its_own() {
    assert!(mentions("use crate::runner::Judge;", "runner::"));
    assert!(mentions("runner::generated::shrink", "runner::"));
    assert!(!mentions(
        "use proptest::test_runner::TestRunner;",
        "runner::"
    ));
}

#[test]
fn nothing_below_the_runner_names_it() {
    let below = files_of(&BELOW_THE_RUNNER);
    assert!(below.len() > 25, "{} files", below.len());
    let found = naming(&below, &["crate::runner", "super::runner", "runner::"]);
    assert!(
        found.is_empty(),
        "below the runner, naming it:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_runner_uses_the_async_gate_through_its_exports() {
    let runner = files_of(&["runner"]);
    let found = naming(
        &runner,
        &[
            "async_gate::scripted",
            "async_gate::signal",
            "async_gate::clock",
        ],
    );
    assert!(
        found.is_empty(),
        "the runner, naming the async gate's internals:\n{}",
        found.join("\n")
    );
}

/// Nothing below the runner names the reports (`src/report/`): the contract, the engine, the
/// cases and the differences are written without knowing how a run is reported.
#[test]
fn nothing_below_the_runner_names_the_reports() {
    let below = files_of(&BELOW_THE_RUNNER);
    let found = naming(&below, &["crate::report", "super::report", "report::"]);
    assert!(
        found.is_empty(),
        "below the runner, naming the reports:\n{}",
        found.join("\n")
    );
}

/// The items the reports may name through `runner::`: the run's result types at the runner's
/// root, whole modules of results and of the texts reports render with (`violations`, `coverage`,
/// `shard`, `worddiff`, `quote`), and the result types of `generated` and `check`.
const RESULTS: [&str; 21] = [
    "Report",
    "CaseResult",
    "Verdict",
    "Status",
    "Broken",
    "ImplError",
    "Subject",
    "Oracle",
    "Difference",
    "Severity",
    "violations",
    "coverage",
    "shard",
    "worddiff",
    "quote",
    "generated::Found",
    "generated::FoundKind",
    "generated::GeneratedId",
    "check::Selection",
    "check::InProcess",
    // What lists a case as an expected failure, from which its status follows.
    "known_failures::Entry",
];

/// Each item a line names through `runner::`: `runner::a::B` gives `a::B`, and a group gives each
/// of its items with the path before it (`runner::{A, b::{C, D}}` gives `A`, `b::C` and `b::D`).
fn through_runner(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices("runner::") {
        // A path of its own, as `mentions` reads it: not the end of `test_runner::`.
        let own = !code[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if own {
            expand("", &code[i + "runner::".len()..], &mut out);
        }
    }
    out
}

/// The items `tree` names (a path, or a path and a `{…}` group), each after `prefix`.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim_start();
    let len = tree
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(tree.len());
    let path = format!("{prefix}{}", &tree[..len]);
    let Some(group) = tree[len..].strip_prefix('{') else {
        out.push(path.trim_end_matches(':').to_owned());
        return;
    };
    // The group's items, split at its own commas, up to its closing brace.
    let (mut depth, mut start) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth == 0 => {
                if !group[start..i].trim().is_empty() {
                    expand(&path, &group[start..i], out);
                }
                if c == '}' {
                    return;
                }
                start = i + 1;
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
}

/// The reports name the runner only for its results ([`RESULTS`]): never its machinery (running a
/// check, judging, the subprocess, selecting cases, known failures, drawing or shrinking generated
/// cases, comparing outcomes). An item is allowed when its path is one of [`RESULTS`] or lies in
/// one of its modules.
#[test]
fn the_reports_name_only_the_runners_results() {
    let reports = files_of(&["report"]);
    assert!(reports.len() >= 11, "{} files", reports.len());
    let allowed = |item: &str| {
        RESULTS
            .iter()
            .any(|r| item == *r || item.starts_with(&format!("{r}::")))
    };
    let mut found = Vec::new();
    let mut named = 0;
    for f in &reports {
        for (i, line) in library_code(f).lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for item in through_runner(code) {
                named += 1;
                if !allowed(&item) {
                    found.push(format!("{}:{}: runner::{item}", f.display(), i + 1));
                }
            }
        }
    }
    assert!(named > 20, "the reports name {named} items of the runner");
    assert!(
        found.is_empty(),
        "the reports, naming the runner's machinery:\n{}",
        found.join("\n")
    );
}

/// Of the runner, only its root (`src/runner/mod.rs`, where the run's result types are) names the
/// reports: how those types' members are written and read, and rendering a verdict inside its
/// case's `catch_unwind`. The rest of the runner writes no report; the command line does.
#[test]
fn only_the_runners_root_names_the_reports() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let root = src.join("runner").join("mod.rs");
    let runner = files_of(&["runner"]);
    let rest: Vec<PathBuf> = runner.iter().filter(|f| **f != root).cloned().collect();
    assert!(rest.len() > 10, "{} files", rest.len());
    let found = naming(&rest, &["crate::report", "super::report", "report::"]);
    assert!(
        found.is_empty(),
        "the runner, naming the reports beyond its root:\n{}",
        found.join("\n")
    );
    assert!(
        !naming(&[root], &["crate::report::"]).is_empty(),
        "the runner's root no longer names the reports: this test can say so"
    );
}
