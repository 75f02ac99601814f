//! The layers hold. The library holds no command line: the `autoreview` binary's `cli` module is
//! the only code that names `clap`, and the library does not declare it, so anything using the
//! library (the tests, the benches, another tool) gets the contract and the engine without the
//! shell. Below the runner, nothing names it: the contract (scenario, outcome, profile, messages,
//! readers), the engine, the generator (whose shrinking the runner uses), the cases and their IDs,
//! and the differences a comparison writes. The
//! runner uses the async gate through what its module exports, never its internals.

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
    match text.find("#[cfg(test)]\nmod tests") {
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
    let below = files_of(&[
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
    ]);
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
