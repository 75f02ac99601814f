//! The counts the READMEs state are the suite's own, so that they cannot go stale: the corpus, the
//! fixed cases per profile, and what the shipped example adapters pass.

use autoreview::{Profile, cases, corpus};

const README: &str = include_str!("../../README.md");
const NODE_README: &str = include_str!("../../adapters/node/README.md");

/// The number that stands just before `after` in `text` (digits, with spaces or commas between
/// groups, as the README writes `12,116` or `276 480`).
fn number_before(text: &str, after: &str) -> usize {
    let at = text
        .find(after)
        .unwrap_or_else(|| panic!("the README no longer says {after:?}"));
    let digits: String = text[..at]
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == ' ')
        .filter(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number before {after:?}"))
}

#[test]
fn the_readmes_counts_are_the_suites() {
    let corpus = corpus::load().unwrap().len();
    assert_eq!(number_before(README, " reviewer replies in the"), corpus);
    let baseline = cases::all(Profile::BASELINE).unwrap().len();
    assert_eq!(
        number_before(README, " fixed cases`), and the last line"),
        baseline,
        "the example of the line that says what was compared"
    );
    // The model of the shipped gate passes every baseline case; its README says how many.
    assert_eq!(
        number_before(NODE_README, " passed, 0 failed\n"),
        baseline,
        "adapters/node/README.md's rc3-model line"
    );
}

/// One default profile: the library's and the command's (`profile::DEFAULT`), the Node and the
/// Python kit's, and the one the README calls the default.
#[test]
fn every_default_profile_is_the_one_default() {
    let default = autoreview::profile::DEFAULT.as_str();
    let quoted = |text: &str, before: &str, quote: char| -> String {
        let at = text.find(before).unwrap_or_else(|| panic!("no {before:?}")) + before.len();
        text[at..]
            .trim_start()
            .trim_start_matches(quote)
            .split(quote)
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let node = include_str!("../../adapters/node/harness.js");
    assert_eq!(
        quoted(node, "const DEFAULT_PROFILE =", '\''),
        default,
        "the Node kit"
    );
    let python = include_str!("../../adapters/python/autoreview_kit/scenario.py");
    assert_eq!(
        quoted(python, "DEFAULT_PROFILE =", '"'),
        default,
        "the Python kit"
    );
    assert!(
        README.contains(&format!("- `{default}` (the default)")),
        "the README names another default"
    );
    assert_eq!(Profile::default().as_str(), default, "Profile::default()");
}
