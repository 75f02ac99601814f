//! The library holds no command line: the `autoreview` binary's `cli` module is the only code
//! that names `clap`, and the library does not declare it, so anything using the library (the
//! tests, the benches, another tool) gets the contract and the engine without the shell.

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
