//! `Cargo.toml` turns doctests off (`doctest = false`): the crate's documentation holds no
//! example, and compiling the crate again only to find none cost every `cargo test` a second and
//! a half. This keeps that true: a code block in a doc comment, which `cargo test` would then
//! skip without a word, fails here instead.

use std::path::Path;

use crate::layers::rust_files;

#[test]
fn no_doc_comment_holds_an_example_cargo_test_would_skip() {
    let manifest = include_str!("../../Cargo.toml");
    assert!(
        manifest.contains("\ndoctest = false\n"),
        "Cargo.toml no longer turns doctests off; this test can go with it"
    );
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 20, "{files:?}");
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        // Whether the doc line before was blank: an indented code block starts after one.
        let mut after_blank = true;
        for (n, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            let Some(doc) = ["///", "//!"].iter().find_map(|p| trimmed.strip_prefix(p)) else {
                after_blank = true;
                continue;
            };
            let doc = doc.strip_prefix(' ').unwrap_or(doc);
            let indent = doc.len() - doc.trim_start_matches(' ').len();
            let fence = indent <= 3 && ["```", "~~~"].iter().any(|f| doc[indent..].starts_with(f));
            let indented = indent >= 4 && after_blank && !doc.trim().is_empty();
            if fence || indented {
                found.push(format!("{}:{}: {line}", file.display(), n + 1));
            }
            after_blank = doc.trim().is_empty();
        }
        assert!(
            !text.contains("#[doc =") && !text.contains("#![doc ="),
            "{}: documentation in an attribute, which this test does not read",
            file.display()
        );
    }
    assert!(
        found.is_empty(),
        "doc comments with a code block, which `cargo test` does not run while Cargo.toml says \
         `doctest = false`; remove that line from [lib] so they run, or write the example as a \
         test:\n{}",
        found.join("\n")
    );
}
