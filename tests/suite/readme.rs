//! The documentation stays true and cheap to keep so: the README is a doorway of at most 200
//! lines, every relative link in it and in `docs/` names a file or directory that exists (and a
//! heading that its page has, when it names one), every page of `docs/` is reachable from its
//! index, and the one default profile is the one the README calls the default. No check here
//! reads a count that a new fixed case or corpus entry changes.

use std::path::{Path, PathBuf};

const README: &str = include_str!("../../README.md");
const DOCS_INDEX: &str = include_str!("../../docs/README.md");

/// The README's longest allowed length, in lines.
const README_MAX_LINES: usize = 200;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown pages of `docs/`, by file name, sorted.
fn docs_pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages
}

/// The targets of the inline Markdown links `[text](target)` in `text`, outside code spans and
/// fenced code blocks, with any title dropped.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans, so that `[a](b)` written as code is not read as a link.
        let mut prose = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                prose.push_str(part);
            } else {
                prose.push_str("code");
            }
        }
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or_default();
            targets.push(target.to_owned());
            rest = &after[end..];
        }
    }
    targets
}

/// The anchors of the headings of a Markdown page, outside fenced code blocks, as GitHub derives
/// them: lower case, punctuation dropped, spaces as hyphens.
fn anchors(text: &str) -> Vec<String> {
    let mut anchors = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            let title = line.trim_start_matches('#').trim();
            anchors.push(
                title
                    .to_lowercase()
                    .chars()
                    .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                    .map(|c| if c == ' ' { '-' } else { c })
                    .collect(),
            );
        }
    }
    anchors
}

/// The relative links of `text` (a page in `dir`) that name no existing file or directory, or a
/// heading that a Markdown page it names does not have: external links (`http:`, `https:`,
/// `mailto:`) are not followed, and a pure `#anchor` names a heading of the page itself.
fn broken_links(text: &str, dir: &Path) -> Vec<String> {
    link_targets(text)
        .into_iter()
        .filter(|target| {
            !(target.is_empty()
                || target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:"))
        })
        .filter(|target| {
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let page = if path.is_empty() {
                Some(text.to_owned())
            } else if dir.join(path).is_file() && path.ends_with(".md") {
                Some(std::fs::read_to_string(dir.join(path)).unwrap())
            } else if dir.join(path).exists() {
                None
            } else {
                return true;
            };
            match page {
                Some(page) if !anchor.is_empty() => !anchors(&page).iter().any(|a| a == anchor),
                _ => false,
            }
        })
        .collect()
}

#[test]
fn the_readme_is_a_doorway_of_at_most_200_lines() {
    let lines = README.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines; at most {README_MAX_LINES}: move the detail to a page of docs/"
    );
}

#[test]
fn every_relative_link_of_the_readme_and_the_docs_resolves() {
    let mut broken = broken_links(README, root());
    assert!(
        link_targets(README).len() > 10,
        "the README's links are read"
    );
    for page in docs_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        broken.extend(
            broken_links(&text, page.parent().unwrap())
                .into_iter()
                .map(|target| {
                    let page = page.strip_prefix(root()).unwrap_or(&page);
                    format!("{}: {target}", page.display())
                }),
        );
    }
    assert!(broken.is_empty(), "links to nothing: {broken:#?}");
}

#[test]
fn every_docs_page_is_linked_from_the_index_and_the_readme_links_the_docs() {
    let pages = docs_pages();
    assert!(pages.len() > 1, "docs/ holds its pages");
    let index = link_targets(DOCS_INDEX);
    for page in &pages {
        let name = page.file_name().unwrap().to_str().unwrap();
        if name == "README.md" {
            continue;
        }
        assert!(
            index
                .iter()
                .any(|target| target.split('#').next() == Some(name)),
            "docs/README.md does not link {name}"
        );
    }
    assert!(
        link_targets(README)
            .iter()
            .any(|target| target == "docs/" || target == "docs/README.md"),
        "README.md does not link docs/"
    );
}

/// The link reader finds links in prose and not in code, and a link to nothing, or to a heading a
/// page does not have, is reported.
#[test]
fn the_link_check_finds_a_broken_link() {
    let page = "# A page\n\n## Known failures: `--expect`\n\n\
        See [the spec](spec/auto-review.md), [a section](#known-failures---expect), \
        [the web](https://example.com) and [a typo](spec/auto-reveiw.md#x).\n\
        `[code](not/a/link.md)`\n```sh\n# not a heading\n[fenced](not/a/link.md)\n```\n\
        [no such section](#exit-codes), [the README's](README.md#exit-codes), \
        [a section the README lacks](README.md#no-such-section).\n";
    assert_eq!(
        link_targets(page),
        [
            "spec/auto-review.md",
            "#known-failures---expect",
            "https://example.com",
            "spec/auto-reveiw.md#x",
            "#exit-codes",
            "README.md#exit-codes",
            "README.md#no-such-section"
        ]
    );
    assert_eq!(anchors(page), ["a-page", "known-failures---expect"]);
    assert_eq!(
        broken_links(page, root()),
        [
            "spec/auto-reveiw.md#x",
            "#exit-codes",
            "README.md#no-such-section"
        ]
    );
}

/// One default profile: the library's and the command's (`profile::DEFAULT`) and the one the
/// README calls the default. The kits have none, and know no profile by name: a gate decides by
/// the rules the runner's hello carries, so no kit source quotes a shipped profile's name.
#[test]
fn every_default_profile_is_the_one_default() {
    let default = autoreview::profile::DEFAULT.as_str();
    assert!(
        README.contains(&format!("- `{default}` (the default)")),
        "the README names another default"
    );
    assert_eq!(
        autoreview::Profile::default().as_str(),
        default,
        "Profile::default()"
    );
    let kit = root().join("adapters");
    let mut sources = vec![kit.join("node/harness.js"), kit.join("node/harness.d.ts")];
    let python = kit.join("python/autoreview_kit");
    for entry in std::fs::read_dir(&python).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "py") {
            sources.push(path);
        }
    }
    assert!(sources.len() > 5, "the Python kit's modules are read");
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("DEFAULT_PROFILE"),
            "{} has a default profile",
            path.display()
        );
        for name in autoreview::Profile::names() {
            for quote in ['\'', '"'] {
                let quoted = format!("{quote}{name}{quote}");
                assert!(
                    !text.contains(&quoted),
                    "{} quotes the profile name {quoted}: a kit decides by the run's rules",
                    path.display()
                );
            }
        }
    }
}
