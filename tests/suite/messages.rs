//! Every message template lives in `src/messages.rs` and appears verbatim in the spec's tables,
//! and the spec lists no template the code lacks.

use std::collections::BTreeMap;

use autoreview::{messages, spec};

#[test]
fn every_template_appears_verbatim_in_the_spec_and_nothing_else_does() {
    let in_spec: BTreeMap<String, String> = spec::message_rows().into_iter().collect();
    let in_code: BTreeMap<String, String> = messages::ALL
        .iter()
        .map(|t| (t.id.to_owned(), t.text.to_owned()))
        .collect();
    assert!(in_code.len() >= 20, "the template list looks truncated");
    assert_eq!(in_spec, in_code);
    for t in messages::ALL {
        assert!(
            spec::TEXT.contains(&format!("`{}`", t.text.replace('\n', "\\n"))),
            "{} not quoted in the spec",
            t.id
        );
    }
}

#[test]
fn template_ids_cited_in_the_spec_text_exist() {
    let ids: Vec<&str> = messages::ALL.iter().map(|t| t.id).collect();
    let mut cited = 0;
    for word in spec::TEXT.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if word.starts_with("MSG-") {
            cited += 1;
            let base = word.trim_end_matches("-REASON");
            assert!(
                ids.contains(&word) || ids.contains(&base),
                "the spec cites {word}, which no template defines"
            );
        }
    }
    assert!(
        cited > ids.len(),
        "expected the spec to cite templates in its clauses"
    );
}
