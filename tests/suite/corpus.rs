//! The reviewer-output corpus: it loads and lints, every entry meets its expectation in the
//! profiles it applies to, and every entry's verdict in every profile is snapshotted.

use std::collections::BTreeSet;

use autoreview::corpus::{self, Expect};
use autoreview::engine::review::verdict;
use autoreview::parse::Verdict;
use autoreview::{Profile, spec};

#[test]
fn the_corpus_lints_clean() {
    let entries = corpus::load().unwrap_or_else(|e| panic!("{e}"));
    assert!(entries.len() >= 80, "only {} entries", entries.len());
    let clauses = spec::clause_ids();
    let (mut ids, mut names) = (BTreeSet::new(), BTreeSet::new());
    for e in &entries {
        assert!(ids.insert(e.id.clone()), "{} is used twice", e.id);
        assert!(names.insert(e.name.clone()), "{} is used twice", e.name);
        assert!(
            !e.readers.is_empty() && !e.clauses.is_empty(),
            "{} needs readers and clauses",
            e.id
        );
        for c in &e.clauses {
            assert!(
                clauses.contains(c),
                "{} cites {c}, which the spec does not define",
                e.id
            );
        }
    }
    // Every file in the directory is an entry's file or the index: nothing is silently ignored.
    let dir = format!("{}/{}", env!("CARGO_MANIFEST_DIR"), corpus::DIR);
    let listed: BTreeSet<String> = entries.iter().map(|e| e.name.clone()).collect();
    for f in std::fs::read_dir(&dir).unwrap() {
        let name = f.unwrap().file_name().into_string().unwrap();
        if name == "index.json" {
            continue;
        }
        let stem = name
            .trim_end_matches(".blocks.json")
            .trim_end_matches(".txt");
        assert!(listed.contains(stem), "{name} is not listed in index.json");
    }
}

#[test]
fn field_report_shapes_are_present() {
    let texts: Vec<String> = corpus::load()
        .unwrap()
        .into_iter()
        .map(|e| serde_json::to_string(&e.attempt).unwrap())
        .collect();
    for needle in [
        "<tool_call>",
        "\u{ff5c}\u{ff5c}DSML\u{ff5c}\u{ff5c}",
        "根据之前的侦察，我已",
        "I'll start",
        "Let me che",
        "```toolCal",
    ] {
        assert!(
            texts.iter().any(|t| t.contains(needle)),
            "no corpus entry holds {needle:?}"
        );
    }
}

#[test]
fn every_entry_meets_its_expectation_in_its_profiles() {
    for e in corpus::load().unwrap() {
        for profile in Profile::all().iter().filter(|p| e.applies_to(**p)) {
            let v = verdict(&e.attempt, *profile).expect("a delivered reply has a verdict");
            match &e.expect {
                Expect::Accept(d) => assert_eq!(
                    v,
                    Verdict::Decision {
                        ok: true,
                        risk: d.risk.clone(),
                        decision: d.decision.clone(),
                        reason: d.reason.clone(),
                    },
                    "{} ({}) under {profile}",
                    e.id,
                    e.name
                ),
                Expect::Reject => assert!(
                    matches!(v, Verdict::Failure { .. }),
                    "{} ({}) under {profile}: {v:?}",
                    e.id,
                    e.name
                ),
                Expect::NeverAllow => {
                    assert!(!v.allows(), "{} ({}) under {profile}: {v:?}", e.id, e.name)
                }
            }
        }
    }
}

/// Every reply an entry holds for one profile only is judged in the other profile too, by an
/// entry of its own: a reader that refuses what the other reads (or reads what the other
/// refuses) is held to it in both, so a baseline gate that trims a reply before parsing it is
/// caught by the fixed cases.
#[test]
fn every_reply_of_one_profile_is_judged_in_the_other() {
    let entries = corpus::load().unwrap();
    for e in &entries {
        for other in Profile::all() {
            if e.applies_to(other) {
                continue;
            }
            assert!(
                entries
                    .iter()
                    .any(|f| f.applies_to(other) && f.attempt == e.attempt),
                "the reply of {} ({}) is judged in no {other} entry",
                e.id,
                e.name
            );
        }
    }
}

fn entry_snapshot(id: &str) {
    let e = corpus::load()
        .unwrap()
        .into_iter()
        .find(|e| e.id == id)
        .unwrap_or_else(|| panic!("{id} is generated but no longer in the corpus"));
    let verdicts: serde_json::Map<String, serde_json::Value> = Profile::all()
        .iter()
        .map(|p| {
            (
                p.to_string(),
                serde_json::to_value(verdict(&e.attempt, *p)).unwrap(),
            )
        })
        .collect();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_description(format!("{} {}: {}", e.id, e.name, e.note));
    settings.bind(|| insta::assert_json_snapshot!(format!("corpus-{}", e.name), verdicts));
}

mod generated {
    include!(concat!(env!("OUT_DIR"), "/corpus_entries.rs"));
}
