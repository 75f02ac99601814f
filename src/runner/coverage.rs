//! What a run covered: the share of its profile's MUST clauses that a case the run judged cites,
//! so that a green run says what it was green about (`--require-coverage`).
//!
//! A profile's *MUST clauses* are its clauses (AR-CONV-2) but the definitions no case can
//! exercise ([`crate::generate::coverage::DEFINITIONS`]) and the SHOULD and MAY clauses its
//! optional features group (`spec/auto-review.md`, chapter 11: "every other requirement is a
//! MUST"). A MUST clause is *judged* when a case the run put to the implementation cites it: a
//! fixed case by the clauses it lists, a generated case by the clauses of its decision-table row
//! and those the reference's decision of it reached ([`crate::generate::coverage`]). A case not
//! applicable was not put to it, and judges nothing; a broken case was, and failed. An optional
//! feature the implementation did not declare sets aside only the members it governs, and its
//! clauses are not MUST clauses: what else the case compares, it judges.

use std::collections::BTreeSet;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{CaseResult, Status};
use crate::profile::Profile;

/// The MUST clauses of `profile`, in the spec's order.
pub fn must_clauses(profile: Profile) -> Vec<String> {
    let held = profile.clauses();
    let optional: BTreeSet<&str> = crate::features::Feature::ALL
        .into_iter()
        .filter(|f| profile.has_feature(*f))
        .flat_map(|f| f.clauses().iter().copied())
        .collect();
    crate::spec::chapters()
        .into_iter()
        .flat_map(|c| c.clauses)
        .filter(|c| held.contains(c))
        .filter(|c| !optional.contains(c.as_str()))
        .filter(|c| {
            !crate::generate::coverage::DEFINITIONS
                .iter()
                .any(|(id, _)| id == c)
        })
        .collect()
}

/// How many of a profile's MUST clauses a run judged, and which it did not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Coverage {
    /// The MUST clauses some case the run judged cites.
    pub judged: usize,
    /// The profile's MUST clauses.
    pub must: usize,
    /// The MUST clauses no case the run judged cites, in the spec's order.
    pub unjudged: Vec<String>,
    /// The share the run was required to judge (`--require-coverage`), when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<Percent>,
}

impl Coverage {
    /// The coverage of a run under `profile` whose listed results are `results` and whose
    /// generated cases, compared, exercised `generated` (those that passed are only counted, so
    /// their clauses come apart from the results).
    pub fn of<'a>(
        profile: Profile,
        results: impl IntoIterator<Item = &'a CaseResult>,
        generated: impl IntoIterator<Item = &'a str>,
    ) -> Coverage {
        let mut cited: BTreeSet<&str> = generated.into_iter().collect();
        for r in results {
            if r.status != Status::NotApplicable {
                cited.extend(r.clauses.iter().map(String::as_str));
            }
        }
        let must = must_clauses(profile);
        let unjudged: Vec<String> = must
            .iter()
            .filter(|c| !cited.contains(c.as_str()))
            .cloned()
            .collect();
        Coverage {
            judged: must.len() - unjudged.len(),
            must: must.len(),
            unjudged,
            required: None,
        }
    }

    /// Whether the run judged at least the share `required` of the MUST clauses (a profile
    /// without any meets every requirement).
    pub fn meets(&self, required: Percent) -> bool {
        self.judged as f64 * 100.0 >= required.0 * self.must as f64
    }

    /// Whether the run met its requirement, if it had one.
    pub fn met(&self) -> bool {
        self.required.is_none_or(|p| self.meets(p))
    }

    /// The share judged, in percent, rounded down to a tenth so that it never reads as more than
    /// it is: `87.1%`, `100%`.
    pub fn share(&self) -> String {
        let tenths = (self.judged * 1000).checked_div(self.must).unwrap_or(1000);
        if tenths.is_multiple_of(10) {
            format!("{}%", tenths / 10)
        } else {
            format!("{}.{}%", tenths / 10, tenths % 10)
        }
    }

    /// Why the run fails its requirement, when it does: the share, the requirement and the
    /// clauses left unjudged.
    pub fn shortfall(&self) -> Option<String> {
        let required = self.required.filter(|p| !self.meets(*p))?;
        Some(format!(
            "the run judged {} of the profile's MUST clauses, below the required {required} (--require-coverage): no case it judged cites {}",
            self.share(),
            self.unjudged.join(", ")
        ))
    }
}

/// `judged 88 of the 101 MUST clauses (87.1%)`, and the requirement when there is one.
impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "judged {} of the {} MUST clauses ({})",
            self.judged,
            self.must,
            self.share()
        )?;
        if let Some(p) = self.required {
            let met = if self.meets(p) { "met" } else { "NOT met" };
            write!(f, ", required {p}: {met}")?;
        }
        Ok(())
    }
}

/// A share in percent, from 0 to 100.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "f64", into = "f64")]
pub struct Percent(f64);

impl Percent {
    /// The share `text` writes: a number from 0 to 100, with or without a `%` (`80`, `62.5%`).
    pub fn parse(text: &str) -> Result<Percent, String> {
        let number = text.trim().strip_suffix('%').unwrap_or(text.trim());
        match number.trim().parse::<f64>() {
            Ok(p) => Percent::try_from(p),
            Err(_) => Err(format!(
                "{text:?} is not a number: expected a percentage from 0 to 100, such as 80 or 62.5%"
            )),
        }
    }

    /// Its value, from 0 to 100.
    pub fn value(self) -> f64 {
        self.0
    }
}

impl TryFrom<f64> for Percent {
    type Error = String;

    fn try_from(p: f64) -> Result<Percent, String> {
        if (0.0..=100.0).contains(&p) {
            Ok(Percent(p))
        } else {
            Err(format!(
                "{p} is outside 0 to 100: expected a percentage from 0 to 100, such as 80 or 62.5%"
            ))
        }
    }
}

impl From<Percent> for f64 {
    fn from(p: Percent) -> f64 {
        p.0
    }
}

impl fmt::Display for Percent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{Subject, Verdict};

    fn result(id: &str, clauses: &[&str], verdict: Verdict) -> CaseResult {
        let subject = Subject {
            id: id.into(),
            area: "area".into(),
            title: id.into(),
            clauses: clauses.iter().map(|c| (*c).to_owned()).collect(),
            row: None,
        };
        CaseResult::new(subject, verdict, None, std::time::Duration::ZERO)
    }

    #[test]
    fn must_clauses_leave_out_definitions_and_optional_features() {
        let resilient = must_clauses(Profile::RESILIENT);
        for gone in [
            "AR-CONV-1",
            "AR-RES-PROFILE-1",
            "AR-RES-HINT-2",
            "AR-REVIEW-6",
        ] {
            assert!(!resilient.iter().any(|c| c == gone), "{gone}");
        }
        for kept in ["AR-CONV-3", "AR-SCOPE-1", "AR-RES-FAIL-2", "AR-RES-MSG-2"] {
            assert!(resilient.iter().any(|c| c == kept), "{kept}");
        }
        // The baseline has no optional features: its failure class is a MUST.
        let baseline = must_clauses(Profile::BASELINE);
        assert!(baseline.iter().any(|c| c == "AR-REVIEW-6"));
        assert!(!baseline.iter().any(|c| c.starts_with("AR-RES-")));
        // The spec's order.
        assert_eq!(baseline[0], "AR-CONV-3");
    }

    #[test]
    fn a_clause_is_judged_by_a_case_put_to_the_implementation() {
        let na = Verdict::NotApplicable {
            missing: Vec::new(),
        };
        let broken = Verdict::Broken {
            error: crate::runner::ImplError::new(crate::runner::Broken::Crash, "gone"),
        };
        let results = [
            result("A", &["AR-SCOPE-1", "AR-CONV-1"], Verdict::Pass),
            result("B", &["AR-SCOPE-2"], na),
            result("C", &["AR-SCOPE-3"], broken),
        ];
        let c = Coverage::of(Profile::BASELINE, &results, ["AR-ADMIT-1"]);
        let must = must_clauses(Profile::BASELINE);
        assert_eq!(c.must, must.len());
        assert_eq!(c.judged, 3, "SCOPE-1, SCOPE-3 and ADMIT-1: {c:?}");
        assert!(c.unjudged.contains(&"AR-SCOPE-2".to_owned()));
        assert!(!c.unjudged.contains(&"AR-SCOPE-3".to_owned()));
        assert_eq!(c.unjudged.len(), must.len() - 3);
    }

    #[test]
    fn nothing_judged_is_no_share_and_fails_any_requirement_above_zero() {
        let c = Coverage {
            required: Some(Percent::parse("1").unwrap()),
            ..Coverage::of(Profile::RESILIENT, &[], [])
        };
        assert_eq!((c.judged, c.share()), (0, "0%".to_owned()));
        assert!(!c.met());
        let why = c.shortfall().unwrap();
        assert!(
            why.contains("0% of the profile's MUST clauses, below the required 1%"),
            "{why}"
        );
        assert!(why.contains("AR-SCOPE-1"), "{why}");
        assert!(c.meets(Percent::parse("0").unwrap()));
    }

    #[test]
    fn the_share_is_rounded_down_and_compared_exactly() {
        let c = |judged, must| Coverage {
            judged,
            must,
            unjudged: Vec::new(),
            required: None,
        };
        assert_eq!(c(88, 101).share(), "87.1%");
        assert_eq!(c(100, 101).share(), "99%");
        assert_eq!(c(101, 101).share(), "100%");
        assert_eq!(c(0, 0).share(), "100%");
        let p = |t| Percent::parse(t).unwrap();
        assert!(c(88, 101).meets(p("87.1")));
        assert!(!c(88, 101).meets(p("87.2")));
        assert!(c(100, 101).meets(p("99%")));
        assert!(!c(100, 101).meets(p("100")));
        assert_eq!(
            c(88, 101).to_string(),
            "judged 88 of the 101 MUST clauses (87.1%)"
        );
        let required = Coverage {
            required: Some(p("90")),
            ..c(88, 101)
        };
        assert_eq!(
            required.to_string(),
            "judged 88 of the 101 MUST clauses (87.1%), required 90%: NOT met"
        );
    }

    #[test]
    fn a_percentage_is_read_from_0_to_100() {
        assert_eq!(Percent::parse("80").unwrap().value(), 80.0);
        assert_eq!(Percent::parse(" 62.5% ").unwrap().value(), 62.5);
        assert_eq!(Percent::parse("0").unwrap().to_string(), "0%");
        for (bad, says) in [
            ("150", "150 is outside 0 to 100"),
            ("-1", "-1 is outside 0 to 100"),
            ("NaN", "NaN is outside 0 to 100"),
            ("eighty", "\"eighty\" is not a number"),
            ("", "\"\" is not a number"),
            ("0.8x", "\"0.8x\" is not a number"),
        ] {
            let e = Percent::parse(bad).unwrap_err();
            assert!(e.starts_with(says), "{bad}: {e}");
            assert!(e.contains("expected a percentage from 0 to 100"), "{e}");
        }
    }
}
