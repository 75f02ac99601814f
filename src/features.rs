//! Optional features (`spec/auto-review.md`, chapter 11, "Optional features";
//! `spec/protocol.md`, "Optional features"): the resilient profile's SHOULD and MAY requirements,
//! grouped by the outcome members only they govern. An adapter's `hello` declares the features its
//! gate implements; a member that only an undeclared feature governs is not compared, and the
//! report lists the feature as not implemented. This table is the one source the runner reads;
//! a test holds it to the spec's table.

use std::fmt;

use crate::messages::{self, Template, Wording};
use crate::outcome::{Decision, InputOutcome, ItemOutcome, Outcome};

/// How strongly the spec asks for a feature (AR-CONV-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    /// Recommended: a gate without it is as safe, only less helpful.
    Should,
    /// Permitted: the spec's own vocabulary, which a gate need not report.
    May,
}

impl Strength {
    /// The key word, as the spec writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Strength::Should => "SHOULD",
            Strength::May => "MAY",
        }
    }
}

/// One optional feature.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Feature {
    /// The consecutive failure count and the hint line (AR-RES-HINT-1..4).
    FailureHint,
    /// The failure class in the outcome and in `INFO-FAILED` (AR-REVIEW-6).
    FailureClass,
}

impl Feature {
    /// Every feature, in the spec's order.
    pub const ALL: [Feature; 2] = [Feature::FailureHint, Feature::FailureClass];

    /// Its name, as a `hello` and the reports write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Feature::FailureHint => "failure-hint",
            Feature::FailureClass => "failure-class",
        }
    }

    /// The feature named `name`, if any.
    pub fn named(name: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// How strongly the spec asks for it.
    pub fn strength(self) -> Strength {
        match self {
            Feature::FailureHint => Strength::Should,
            Feature::FailureClass => Strength::May,
        }
    }

    /// The clauses it groups, in the spec's order.
    pub fn clauses(self) -> &'static [&'static str] {
        match self {
            Feature::FailureHint => &[
                "AR-RES-HINT-1",
                "AR-RES-HINT-2",
                "AR-RES-HINT-3",
                "AR-RES-HINT-4",
            ],
            Feature::FailureClass => &["AR-REVIEW-6"],
        }
    }

    /// The templates only it renders.
    pub fn templates(self) -> &'static [Template] {
        match self {
            Feature::FailureHint => &[messages::HINT, messages::HINT_ZH],
            Feature::FailureClass => &[],
        }
    }

    /// Sets the members only this feature governs equal in `o`: what `o` holds of them is dropped.
    fn blank(self, o: &mut Outcome, wording: &Wording) {
        match self {
            Feature::FailureHint => {
                o.review.consecutive_failures = None;
                let templates: Vec<&str> = self
                    .templates()
                    .iter()
                    .map(|t| wording.templates().get(t.id).map_or(t.text, String::as_str))
                    .collect();
                for text in texts(o) {
                    strip_last_line(text, &templates);
                }
            }
            Feature::FailureClass => {
                if let Some(f) = &mut o.review.failure {
                    // One fixed value on both sides.
                    f.class = crate::outcome::FailureClass::Internal;
                }
                if let Some(info) = &mut o.result.info {
                    info.remove("failure");
                }
                if let Some(Decision::Deny {
                    info: Some(info), ..
                }) = &mut o.listener
                {
                    info.remove("failure");
                }
            }
        }
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of features: the ones an implementation declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Features(u8);

impl Default for Features {
    /// Every feature: what an adapter that declares no list implements.
    fn default() -> Features {
        Features::ALL
    }
}

impl Features {
    /// Every feature.
    pub const ALL: Features = Features((1 << Feature::ALL.len()) - 1);
    /// No feature.
    pub const NONE: Features = Features(0);

    fn bit(f: Feature) -> u8 {
        1 << (f as u8)
    }

    /// These and `f`.
    pub fn with(self, f: Feature) -> Features {
        Features(self.0 | Features::bit(f))
    }

    /// Whether `f` is among these.
    pub fn has(self, f: Feature) -> bool {
        self.0 & Features::bit(f) != 0
    }

    /// The features among these, in the spec's order.
    pub fn declared(self) -> Vec<Feature> {
        Feature::ALL.into_iter().filter(|f| self.has(*f)).collect()
    }

    /// The features not among these, in the spec's order.
    pub fn missing(self) -> Vec<Feature> {
        Feature::ALL.into_iter().filter(|f| !self.has(*f)).collect()
    }

    /// Whether these include every feature `profile` has (its file's `features`): where they do,
    /// nothing is set aside when an outcome under `profile` is compared.
    pub fn covers(self, profile: crate::profile::Profile) -> bool {
        Feature::ALL
            .into_iter()
            .all(|f| !profile.has_feature(f) || self.has(f))
    }

    /// What a `hello`'s `features` list declares under `protocol`: absent, every feature
    /// (today's comparison); otherwise exactly the ones listed. An unknown or repeated name, or a
    /// list under protocol 1, is an error that names the fix.
    pub fn from_hello(protocol: u32, names: Option<&[String]>) -> Result<Features, String> {
        let Some(names) = names else {
            return Ok(Features::ALL);
        };
        if protocol < 2 {
            return Err(format!(
                "its hello lists `features` with protocol {protocol}; `features` belongs to protocol 2: answer `\"protocol\": 2`, or leave `features` out"
            ));
        }
        let mut declared = Features::NONE;
        for name in names {
            let Some(f) = Feature::named(name) else {
                return Err(format!(
                    "its hello lists the feature {name:?}, which this runner does not know: the optional features are {}",
                    Feature::ALL.map(|f| format!("\"{f}\"")).join(", ")
                ));
            };
            if declared.has(f) {
                return Err(format!(
                    "its hello lists the feature {name:?} twice: list each feature once"
                ));
            }
            declared = declared.with(f);
        }
        Ok(declared)
    }

    /// `outcome` with every member that only a feature missing from these governs set to one
    /// fixed value, so that comparing two such outcomes never finds a difference there. Both the
    /// reference's outcome and the implementation's answer go through it.
    ///
    /// A template the implementation words itself (`wording`) is recognised in its words.
    pub fn blank_missing(self, outcome: &InputOutcome, wording: &Wording) -> InputOutcome {
        let missing = self.missing();
        let mut outcome = outcome.clone();
        let calls: Vec<&mut Outcome> = match &mut outcome {
            InputOutcome::One(o) => vec![&mut **o],
            InputOutcome::Session(s) => s
                .calls
                .iter_mut()
                .filter_map(|item| match item {
                    ItemOutcome::Call(o) => Some(&mut **o),
                    ItemOutcome::Event(_) => None,
                })
                .collect(),
        };
        for o in calls {
            for f in &missing {
                f.blank(o, wording);
            }
        }
        outcome
    }
}

/// What a report says of one feature: whether the implementation declared it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct FeatureStatus {
    /// The feature.
    pub feature: Feature,
    /// Whether the implementation declared it; a feature not implemented is not compared, and
    /// never counts as passed.
    pub implemented: bool,
}

impl Features {
    /// Each feature `profile` has (its file's `features`) with whether it is among these, in the
    /// spec's order: what a report of a run under `profile` lists (nothing under a profile without
    /// features, where they do not apply).
    pub fn statuses(self, profile: crate::profile::Profile) -> Vec<FeatureStatus> {
        Feature::ALL
            .into_iter()
            .filter(|f| profile.has_feature(*f))
            .map(|feature| FeatureStatus {
                feature,
                implemented: self.has(feature),
            })
            .collect()
    }
}

/// The line a report gives the features a run did not compare, when there are any:
/// `optional features not implemented (not compared, never passed): failure-hint (SHOULD:
/// AR-RES-HINT-1..4)`.
pub fn not_implemented_line(statuses: &[FeatureStatus]) -> Option<String> {
    let missing: Vec<String> = statuses
        .iter()
        .filter(|s| !s.implemented)
        .map(|s| {
            format!(
                "{} ({}: {})",
                s.feature,
                s.feature.strength().as_str(),
                s.feature.clauses().join(", ")
            )
        })
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "optional features not implemented (not compared, never passed): {}",
            missing.join("; ")
        )
    })
}

/// Every text of a call's outcome that a model or a person sees.
fn texts(o: &mut Outcome) -> Vec<&mut String> {
    let mut out: Vec<&mut String> = Vec::new();
    if let Some(t) = &mut o.result.text {
        out.push(t);
    }
    match &mut o.listener {
        Some(Decision::Deny { reason, .. }) => out.push(reason),
        Some(Decision::Ask {
            reason,
            display_reason,
        }) => {
            out.extend(reason.as_mut());
            if let Some(d) = display_reason {
                out.push(&mut d.en);
                out.push(&mut d.zh);
            }
        }
        _ => {}
    }
    if let Some(a) = &mut o.approval {
        out.extend(a.reason.as_mut());
        if let Some(d) = &mut a.display_reason {
            out.push(&mut d.en);
            out.push(&mut d.zh);
        }
    }
    out
}

/// Removes from `text` a last line (after a line feed) that renders one of `templates`, with any
/// values in its placeholders.
fn strip_last_line(text: &mut String, templates: &[&str]) {
    let mut end = text.len();
    while let Some(i) = text[..end].rfind('\n') {
        if templates.iter().any(|t| renders(t, &text[i + 1..])) {
            text.truncate(i);
            return;
        }
        end = i;
    }
}

/// Whether `s` is `template` with some value in each placeholder (`<name>`).
fn renders(template: &str, s: &str) -> bool {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('<') {
        match rest[open..].find('>') {
            Some(close) => {
                pieces.push(&rest[..open]);
                rest = &rest[open + close + 1..];
            }
            None => break,
        }
    }
    pieces.push(rest);
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return s == first;
    }
    let Some(mut s) = s.strip_prefix(first) else {
        return false;
    };
    let Some(stripped) = s.strip_suffix(last) else {
        return false;
    };
    s = stripped;
    for piece in &pieces[1..pieces.len() - 1] {
        match s.find(piece) {
            Some(i) => s = &s[i + piece.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn an_absent_list_is_every_feature_and_a_list_is_exactly_its_names() {
        assert_eq!(Features::from_hello(1, None), Ok(Features::ALL));
        assert_eq!(Features::from_hello(2, None), Ok(Features::ALL));
        assert_eq!(Features::from_hello(2, Some(&[])), Ok(Features::NONE));
        let hint = Features::from_hello(2, Some(&names(&["failure-hint"]))).unwrap();
        assert_eq!(hint.missing(), vec![Feature::FailureClass]);
        let unknown = Features::from_hello(2, Some(&names(&["telepathy"]))).unwrap_err();
        assert!(
            unknown.contains("\"telepathy\"") && unknown.contains("\"failure-hint\""),
            "{unknown}"
        );
        let twice = Features::from_hello(2, Some(&names(&["failure-hint", "failure-hint"])));
        assert!(twice.unwrap_err().contains("twice"));
        let old = Features::from_hello(1, Some(&names(&[]))).unwrap_err();
        assert!(old.contains("protocol 2"), "{old}");
    }

    fn hint_templates() -> Vec<&'static str> {
        Feature::FailureHint
            .templates()
            .iter()
            .map(|t| t.text)
            .collect()
    }

    #[test]
    fn the_hint_line_is_recognised_only_as_a_whole_last_line() {
        let hint = messages::HINT.render(&[("count", "3"), ("route", "qodercn/qfmodel")]);
        let mut t = format!("Auto review of tool \"x\" failed: boom\n{hint}");
        strip_last_line(&mut t, &hint_templates());
        assert_eq!(t, "Auto review of tool \"x\" failed: boom");
        // Not a hint: kept.
        let mut other = "failed: boom\nAuto review has failed 3 times".to_owned();
        strip_last_line(&mut other, &hint_templates());
        assert_eq!(other, "failed: boom\nAuto review has failed 3 times");
        // A route with a line feed in it is still one hint.
        let odd = messages::HINT_ZH.render(&[("count", "4"), ("route", "a\nb")]);
        let mut t = format!("x\n{odd}");
        strip_last_line(&mut t, &hint_templates());
        assert_eq!(t, "x");
    }

    /// Without `failure-hint`, the count and the hint line are blanked on both sides, the line
    /// recognised in the implementation's own wording too; with it, nothing changes.
    #[test]
    fn blanking_drops_the_count_and_the_hint_line_in_either_wording() {
        use crate::outcome::{Outcome, ToolResult};
        let worded = Wording::parse(
            r#"{"version": 1, "templates": {"MSG-HINT": "Failed <count>x on <route>."}}"#,
        )
        .unwrap();
        for (wording, line) in [
            (
                Wording::default(),
                messages::HINT.render(&[("count", "3"), ("route", "p/m")]),
            ),
            (worded, "Failed 3x on p/m.".to_owned()),
        ] {
            let mut o: Outcome = serde_json::from_value(serde_json::json!({
                "settled": true,
                "result": {"executed": false},
                "review": {"attempts": 1, "consecutive_failures": 3},
                "trace": []
            }))
            .unwrap();
            o.result = ToolResult {
                text: Some(format!("Error: failed: boom\n{line}")),
                ..o.result
            };
            let one = InputOutcome::One(Box::new(o));
            assert_eq!(Features::ALL.blank_missing(&one, &wording), one);
            let InputOutcome::One(b) = Features::NONE.blank_missing(&one, &wording) else {
                unreachable!()
            };
            assert_eq!(b.review.consecutive_failures, None);
            assert_eq!(b.result.text.as_deref(), Some("Error: failed: boom"));
        }
    }

    /// The spec's "Optional features" table and this module's table are one list: every feature
    /// the spec names is here and the reverse, with the same strength and clauses, and every
    /// clause exists.
    #[test]
    fn the_spec_table_and_this_table_agree() {
        let text = crate::spec::TEXT;
        let start = text
            .find("| feature | level | clauses | members only it governs |")
            .expect("the spec's optional features table");
        let rows: Vec<Vec<String>> = text[start..]
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| {
                l.trim_matches('|')
                    .split('|')
                    .map(|c| c.trim().to_owned())
                    .collect()
            })
            .collect();
        let in_spec: Vec<String> = rows.iter().map(|r| r[0].trim_matches('`').into()).collect();
        let here: Vec<String> = Feature::ALL.map(|f| f.as_str().to_owned()).into();
        assert_eq!(in_spec, here);
        let ids = crate::spec::clause_ids();
        for (row, f) in rows.iter().zip(Feature::ALL) {
            assert_eq!(row[1], f.strength().as_str(), "{f}");
            let clauses: Vec<&str> = row[2].split(", ").collect();
            assert_eq!(clauses, f.clauses(), "{f}");
            for c in f.clauses() {
                assert!(ids.contains(*c), "{f}: {c} is no clause of the spec");
            }
            for t in f.templates() {
                assert!(row[3].contains(&format!("`{}`", t.id)), "{f}: {}", t.id);
            }
        }
        // The protocol's table names the same features, in the same order.
        let protocol = include_str!("../spec/protocol.md");
        let start = protocol
            .find("| feature | level | members only it governs |")
            .expect("the protocol's optional features table");
        let in_protocol: Vec<String> = protocol[start..]
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| {
                l.split('|')
                    .nth(1)
                    .unwrap_or("")
                    .trim()
                    .trim_matches('`')
                    .to_owned()
            })
            .collect();
        assert_eq!(in_protocol, here);
        // Every clause of chapter 11 has its requirement level.
        let chapter = crate::spec::chapters()
            .into_iter()
            .find(|c| c.number == "11")
            .expect("chapter 11");
        for c in &chapter.clauses {
            assert!(
                ["MUST", "SHOULD", "MAY"]
                    .iter()
                    .any(|l| text.contains(&format!("| {c} | {l} |"))),
                "{c} has no requirement level"
            );
        }
        // The requirement levels table marks each feature's clauses with the feature's strength.
        for f in Feature::ALL {
            for c in f.clauses().iter().filter(|c| c.starts_with("AR-RES-")) {
                let row = format!("| {c} | {} |", f.strength().as_str());
                assert!(text.contains(&row), "{row}");
            }
        }
    }
}
