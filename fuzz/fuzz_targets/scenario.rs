//! Scenario reading on arbitrary bytes read as lossy UTF-8: it never panics, an accepted scenario
//! writes and reads back equal, and the engine decides it under both profiles.
#![no_main]

use autoreview::{Profile, Scenario, decide};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(scenario) = Scenario::from_json(&text) else {
        return;
    };
    let written = serde_json::to_string(&scenario).expect("a scenario serializes");
    let again = Scenario::from_json(&written)
        .unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
    assert_eq!(again, scenario, "{written}");
    for profile in [Profile::BASELINE, Profile::RESILIENT] {
        let _ = decide(&scenario, profile);
    }
});
