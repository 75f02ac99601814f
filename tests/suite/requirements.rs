//! Traceability (`autoreview requirements`): every MUST clause of each shipped profile has a
//! fixed case and generated reach, the planted defects' index is true to the plants, and the
//! MUST clauses no planted defect proves yet are counted, so that the count can only go down.

use autoreview::Profile;
use autoreview::requirements::{self, Level};

/// The MUST clauses of each shipped profile that no planted defect's run leads with yet. Adding a
/// plant lowers it (change it here); a clause that loses its plant raises it, and fails.
const UNPLANTED: [(&str, usize); 3] = [("baseline", 0), ("resilient", 0), ("shipped-0.2", 18)];

/// The generated cases the trace draws here: the default run's.
const GENERATED: usize = requirements::GENERATED;

#[test]
fn every_must_clause_has_a_fixed_case_and_generated_reach() {
    for profile in Profile::all() {
        let trace = requirements::trace(profile, GENERATED, requirements::SEED).unwrap();
        let musts: Vec<_> = trace.musts().collect();
        assert!(musts.len() > 50, "{profile}: {} MUST clauses", musts.len());
        let lacking: Vec<String> = musts
            .iter()
            .filter(|r| r.gaps().iter().any(|g| *g != "no planted defect"))
            .map(|r| format!("{} ({})", r.clause, r.gaps().join(", ")))
            .collect();
        assert!(lacking.is_empty(), "{profile}: {lacking:?}");
        let unplanted = musts
            .iter()
            .filter(|r| r.gaps().contains(&"no planted defect"))
            .count();
        let known = UNPLANTED
            .iter()
            .find(|(p, _)| *p == profile.as_str())
            .unwrap()
            .1;
        assert_eq!(
            unplanted, known,
            "{profile}: MUST clauses without a planted defect (`autoreview requirements --profile {profile} --gaps`); \
             lower UNPLANTED when a plant closes one, never raise it"
        );
    }
}

/// Each entry of `tests/planted.json` names a profile, a clause or template of it and a plant
/// test that exists in `tests/planted/` (the planted tier, `cargo test --test planted`); the
/// plant tests refuse a leading plant the index does not hold (`indexed` there).
#[test]
fn the_planted_index_is_true_to_the_plants() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/planted");
    let mut source = String::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        source.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    let all = requirements::planted();
    assert!(all.len() >= 20, "{} entries", all.len());
    for d in &all {
        let profile = Profile::named(&d.profile)
            .unwrap_or_else(|| panic!("{}: no profile {}", d.defect, d.profile));
        assert!(
            profile.has_clause(&d.clause) || autoreview::messages::by_id(&d.clause).is_some(),
            "{}: {} is neither a clause of {profile} nor a template",
            d.defect,
            d.clause
        );
        assert!(
            source.contains(&format!("fn {}()", d.test)),
            "{}: no test {} in tests/planted/",
            d.defect,
            d.test
        );
        assert!(
            ["SAFETY", "BOUNDS", "DECISION", "ORDER", "TEXT", "INFO"]
                .contains(&d.severity.as_str()),
            "{}: severity {}",
            d.defect,
            d.severity
        );
    }
}

/// The listing says what it counts, and `--gaps` keeps exactly the MUST clauses that lack
/// something.
#[test]
fn the_listing_names_each_clause_and_its_gaps() {
    let trace = requirements::trace(Profile::BASELINE, 200, requirements::SEED).unwrap();
    let all = trace.render(false);
    let gaps = trace.render(true);
    assert!(all.starts_with("baseline: "), "{all}");
    let vacuous = trace.musts().filter(|r| r.vacuous.is_some()).count();
    assert!(
        all.contains(&format!(" MUST clauses ({vacuous} vacuous here); ")),
        "{all}"
    );
    // The shipped gate neither shows a failure's class nor retries by one, and disposal's wait
    // is no outcome: those clauses are vacuous there, and listed as such.
    for clause in ["AR-REVIEW-6", "AR-REVIEW-7", "AR-ADMIT-3"] {
        let r = trace.musts().find(|r| r.clause == clause).unwrap();
        assert!(
            r.vacuous.is_some() && r.gaps().is_empty(),
            "{clause}: {all}"
        );
        assert!(
            all.lines()
                .any(|l| l.starts_with(clause) && l.contains("(vacuous: ")),
            "{clause}: {all}"
        );
    }
    assert!(all.contains("AR-PARSE-4"), "{all}");
    assert!(all.contains("JSON.parse(text.trim())"), "{all}");
    let listed = |text: &str| text.lines().skip(2).count();
    assert_eq!(listed(&all), trace.requirements.len());
    assert_eq!(
        listed(&gaps),
        trace.musts().filter(|r| !r.gaps().is_empty()).count()
    );
    assert!(
        trace
            .requirements
            .iter()
            .any(|r| r.level == Level::Definition && r.gaps().is_empty())
    );
}
