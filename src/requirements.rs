//! Traceability: every clause of a profile with its requirement level, the fixed cases that
//! exercise it (list it, or whose reference outcome rests on it), how many generated cases reach it, and the planted defects whose fixed-case run leads
//! with it — what `autoreview requirements` prints, and what the suite holds every MUST clause
//! to (`tests/suite/requirements.rs`).
//!
//! A clause's level: a MUST clause ([`crate::runner::coverage::must_clauses`]), a SHOULD or MAY
//! clause of an optional feature (`spec/protocol.md`, "Optional features"), or a definition no
//! case can exercise ([`crate::generate::coverage::DEFINITIONS`]). A generated case *reaches* a
//! clause when its decision-table row restates it or the reference's decision of it cites it
//! ([`crate::generate::coverage`]), as a generated run counts it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::profile::Profile;
use crate::runner::generated::{self, Plan};
use crate::runner::known_failures::Expected;
use crate::scenario::session::Input;

/// The planted defects (`tests/planted.json`), as the binary carries them.
const PLANTED: &str = include_str!("../tests/planted.json");

/// The seed `autoreview requirements` draws generated cases with unless told otherwise: the one
/// the suite's own plant tests use.
pub const SEED: u64 = 20_260_828;

/// How many generated cases `autoreview requirements` draws unless told otherwise: as many as
/// the suite's CI checks each example gate with under each profile.
pub const GENERATED: usize = 20_000;

/// One planted defect: the reference engine with one mistake, whose fixed-case run under
/// `profile` leads with `clause` at `severity`, asserted by the test `test` of
/// `tests/planted/`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlantedDefect {
    /// What the mistake is.
    pub defect: String,
    /// The clause the run leads with.
    pub clause: String,
    /// The profile it is run under.
    pub profile: String,
    /// The worst severity the fixed cases find it at.
    pub severity: String,
    /// The test that asserts it.
    pub test: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlantedFile {
    /// What the file is, for its readers.
    #[serde(rename = "about")]
    _about: String,
    defects: Vec<PlantedDefect>,
}

/// How the planted defect `p` shows in the listing of `clause`, if it proves it: a plant leading
/// with the clause itself, or with a template of the clause's table (AR-MSG-1, AR-MSG-2, AR-MSG-5,
/// AR-RES-MSG-1: "use these templates"), which a gate that words that template its own way breaks
/// (named with the template where the defect's name does not say it).
fn proves(p: &PlantedDefect, clause: &str) -> Option<String> {
    if p.clause == clause {
        return Some(p.defect.clone());
    }
    crate::messages::by_id(&p.clause)
        .filter(|t| t.clause() == clause)
        .map(|t| {
            if p.defect.contains(t.id) {
                p.defect.clone()
            } else {
                format!("{} ({})", p.defect, t.id)
            }
        })
}

/// Clauses that say which other clauses apply at one point of a call and require nothing beyond
/// them, each with the clauses it applies (as the baseline names them; a profile that replaces
/// one applies what replaces it). AR-CANCEL-2: when the integration is being disposed before a
/// call starts, disposal has moved a listed session (AR-DISPOSE-2) and a call still in scope is
/// refused admission (AR-ADMIT-1) and cancelled (AR-ADMIT-2). A gate breaks such a clause only by
/// breaking one it applies, on the same cases, with the same outcome, so no case can lead with
/// it: the plants of the clauses it applies prove it, and it needs one for each.
pub const APPLIES: &[(&str, &[&str])] =
    &[("AR-CANCEL-2", &["AR-DISPOSE-2", "AR-ADMIT-1", "AR-ADMIT-2"])];

/// The clauses `clause` applies in `profile` ([`APPLIES`]), each as the profile holds it.
pub fn applied(clause: &str, profile: Profile) -> Option<Vec<String>> {
    let (_, applied) = APPLIES.iter().find(|(id, _)| *id == clause)?;
    let replaces = &profile.spec().replaces;
    Some(
        applied
            .iter()
            .map(|c| replaces.get(*c).cloned().unwrap_or_else(|| (*c).to_owned()))
            .collect(),
    )
}

/// The planted defects of `profile` among `all` that prove `clause`: those that lead with it or
/// with a template of its table ([`proves`]); for a clause that applies others ([`APPLIES`]),
/// those that prove each clause it applies, named with it, when every one of them has one.
fn proving(all: &[PlantedDefect], clause: &str, profile: Profile) -> Vec<String> {
    let of = |clause: &str| -> Vec<String> {
        all.iter()
            .filter(|p| p.profile == profile.as_str())
            .filter_map(|p| proves(p, clause))
            .collect()
    };
    let own = of(clause);
    let Some(applied) = applied(clause, profile).filter(|_| own.is_empty()) else {
        return own;
    };
    let mut out = Vec::new();
    for c in &applied {
        let plants = of(c);
        if plants.is_empty() {
            return Vec::new();
        }
        out.extend(plants.into_iter().map(|p| format!("{p} (through {c})")));
    }
    out
}

/// Every planted defect of `tests/planted.json`.
pub fn planted() -> Vec<PlantedDefect> {
    serde_json::from_str::<PlantedFile>(PLANTED)
        .expect("tests/planted.json is held to its format by the suite")
        .defects
}

/// How binding a clause is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Every implementation of the profile is held to it.
    Must,
    /// A SHOULD clause of an optional feature.
    Should,
    /// A MAY clause of an optional feature.
    May,
    /// A definition: no case can exercise it.
    Definition,
}

impl Level {
    /// As the listing writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
            Level::May => "MAY",
            Level::Definition => "definition",
        }
    }
}

/// One clause, traced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Requirement {
    /// The clause ID.
    pub clause: String,
    /// How binding it is.
    pub level: Level,
    /// The fixed cases of the profile that exercise it: that list it, or whose reference outcome
    /// rests on it.
    pub fixed: Vec<String>,
    /// How many of the generated cases reach it, at least: the larger of those whose
    /// decision-table row restates it and those whose reference decision cites it (a run counts
    /// the two apart).
    pub generated: usize,
    /// The planted defects whose run under the profile leads with it.
    pub planted: Vec<String>,
    /// Why no case can break it under this profile, when none can
    /// ([`crate::generate::coverage::vacuous`]): it then needs neither reach nor a plant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacuous: Option<String>,
}

impl Requirement {
    /// What a MUST clause lacks: a fixed case, generated reach, a planted defect; empty for a
    /// clause of another level.
    pub fn gaps(&self) -> Vec<&'static str> {
        if self.level != Level::Must {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.fixed.is_empty() {
            out.push("no fixed case");
        }
        if self.vacuous.is_some() {
            return out;
        }
        if self.generated == 0 {
            out.push("no generated reach");
        }
        if self.planted.is_empty() {
            out.push("no planted defect");
        }
        out
    }
}

/// The traceability of one profile: each of its clauses in the spec's order, with `count`
/// generated cases of `seed` drawn for the reach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    /// The profile.
    pub profile: Profile,
    /// How many generated cases were drawn.
    pub generated: usize,
    /// Their seed.
    pub seed: u64,
    /// Each clause of the profile.
    pub requirements: Vec<Requirement>,
}

impl Trace {
    /// The MUST clauses.
    pub fn musts(&self) -> impl Iterator<Item = &Requirement> {
        self.requirements.iter().filter(|r| r.level == Level::Must)
    }

    /// The listing, one line per clause (only the MUST clauses with a gap when `gaps_only`),
    /// after a summary line.
    pub fn render(&self, gaps_only: bool) -> String {
        let musts: Vec<&Requirement> = self.musts().collect();
        let with = |f: fn(&Requirement) -> bool| musts.iter().filter(|r| f(r)).count();
        let mut out = format!(
            "{}: {} MUST clauses ({} vacuous here); {} with a fixed case, {} reached by {} generated cases (seed {}), {} with a planted defect\n",
            self.profile,
            musts.len(),
            with(|r| r.vacuous.is_some()),
            with(|r| !r.fixed.is_empty()),
            with(|r| r.generated > 0),
            self.generated,
            self.seed,
            with(|r| !r.planted.is_empty()),
        );
        let width = self
            .requirements
            .iter()
            .map(|r| r.clause.len())
            .max()
            .unwrap_or(0);
        out.push_str(&format!(
            "{:width$}  {:10}  {:>5}  {:>9}  planted defects\n",
            "clause", "level", "fixed", "generated"
        ));
        for r in &self.requirements {
            if gaps_only && r.gaps().is_empty() {
                continue;
            }
            let planted = match (&r.vacuous, r.planted.is_empty()) {
                (Some(why), _) => format!("(vacuous: {why})"),
                (None, true) => "-".to_owned(),
                (None, false) => r.planted.join("; "),
            };
            out.push_str(&format!(
                "{:width$}  {:10}  {:>5}  {:>9}  {planted}\n",
                r.clause,
                r.level.as_str(),
                r.fixed.len(),
                r.generated,
            ));
        }
        out
    }
}

/// The level of `clause` in `profile`: MUST unless a definition or an optional feature's.
fn level_of(clause: &str, profile: Profile, musts: &[String]) -> Level {
    if musts.iter().any(|m| m == clause) {
        return Level::Must;
    }
    if crate::generate::coverage::DEFINITIONS
        .iter()
        .any(|(id, _)| *id == clause)
    {
        return Level::Definition;
    }
    let strength = crate::features::Feature::ALL
        .into_iter()
        .filter(|f| profile.has_feature(*f))
        .find(|f| f.clauses().contains(&clause))
        .map(|f| f.strength().as_str());
    match strength {
        Some("MAY") => Level::May,
        _ => Level::Should,
    }
}

/// Traces every clause of `profile`: the fixed cases citing it, and how many of `count`
/// generated cases of `seed` reach it (the reference engine decides them; nothing is compared
/// with anything but itself).
pub fn trace(profile: Profile, count: usize, seed: u64) -> Result<Trace, crate::cases::CaseError> {
    let cases = crate::cases::all(profile)?;
    let mut fixed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for case in &cases {
        // The clauses it lists, and those the reference's decision of it reaches.
        let reached = match &case.scenario {
            Input::One(s) => crate::generate::coverage::call(s, profile).2,
            Input::Session(s) => crate::generate::coverage::session(s, profile).1,
        };
        let mut exercised: Vec<&str> = case.clauses.iter().map(String::as_str).collect();
        exercised.extend(reached.clauses.iter().copied());
        exercised.sort_unstable();
        exercised.dedup();
        for clause in exercised {
            fixed
                .entry(clause.to_owned())
                .or_default()
                .push(case.id.clone());
        }
    }
    let reach = if count == 0 {
        BTreeMap::new()
    } else {
        let run = generated::run(
            &mut crate::runner::Reference,
            profile,
            &Plan::new(count, seed),
            &Expected::none(),
            &mut |_, _| {},
        );
        let d = run.distribution;
        let mut reach: BTreeMap<String, usize> = d.clauses.clone();
        for (clause, n) in &d.reach.clauses {
            let at = reach.entry((*clause).to_owned()).or_default();
            *at = (*at).max(*n);
        }
        reach
    };
    let planted = planted();
    let musts = crate::runner::coverage::must_clauses(profile);
    let held = profile.clauses();
    let requirements = crate::spec::chapters()
        .into_iter()
        .flat_map(|c| c.clauses)
        .filter(|c| held.contains(c))
        .map(|clause| Requirement {
            vacuous: crate::generate::coverage::vacuous(&clause, profile).map(str::to_owned),
            level: level_of(&clause, profile, &musts),
            fixed: fixed.get(&clause).cloned().unwrap_or_default(),
            generated: reach.get(&clause).copied().unwrap_or(0),
            planted: proving(&planted, &clause, profile),
            clause,
        })
        .collect();
    Ok(Trace {
        profile,
        generated: count,
        seed,
        requirements,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plant proves the clause it leads with, and the table clause of a template it leads with
    /// (a gate that words `MSG-ERR-CLOSING` its own way breaks AR-MSG-5, "use these templates"),
    /// and nothing else.
    #[test]
    fn a_plant_leading_with_a_template_proves_its_table() {
        let plant = |clause: &str| PlantedDefect {
            defect: "worded its own way".into(),
            clause: clause.into(),
            profile: "baseline".into(),
            severity: "TEXT".into(),
            test: "t".into(),
        };
        let closing = plant("MSG-ERR-CLOSING");
        assert_eq!(
            proves(&closing, "AR-MSG-5").as_deref(),
            Some("worded its own way (MSG-ERR-CLOSING)")
        );
        assert_eq!(proves(&closing, "AR-MSG-1"), None);
        assert_eq!(
            proves(&plant("AR-MSG-5"), "AR-MSG-5").as_deref(),
            Some("worded its own way")
        );
        assert_eq!(proves(&plant("AR-SCOPE-1"), "AR-MSG-5"), None);
    }

    /// A clause that applies others is proved by plants of each clause it applies, named with
    /// it, and by none while one of them has no plant; in the resilient profile AR-DISPOSE-2's
    /// part is AR-RES-DISPOSE-1's, which replaces it.
    #[test]
    fn a_clause_that_applies_others_needs_a_plant_of_each() {
        let plant = |clause: &str, profile: &str| PlantedDefect {
            defect: format!("breaks {clause}"),
            clause: clause.into(),
            profile: profile.into(),
            severity: "SAFETY".into(),
            test: "t".into(),
        };
        let some = [
            plant("AR-ADMIT-1", "baseline"),
            plant("AR-ADMIT-2", "baseline"),
        ];
        assert!(proving(&some, "AR-CANCEL-2", Profile::BASELINE).is_empty());
        let all = [
            plant("AR-ADMIT-1", "baseline"),
            plant("AR-ADMIT-2", "baseline"),
            plant("AR-DISPOSE-2", "baseline"),
            plant("AR-RES-DISPOSE-1", "resilient"),
            plant("AR-ADMIT-1", "resilient"),
            plant("AR-ADMIT-2", "resilient"),
        ];
        assert_eq!(
            proving(&all, "AR-CANCEL-2", Profile::BASELINE),
            [
                "breaks AR-DISPOSE-2 (through AR-DISPOSE-2)",
                "breaks AR-ADMIT-1 (through AR-ADMIT-1)",
                "breaks AR-ADMIT-2 (through AR-ADMIT-2)",
            ]
        );
        assert_eq!(
            proving(&all, "AR-CANCEL-2", Profile::RESILIENT)[0],
            "breaks AR-RES-DISPOSE-1 (through AR-RES-DISPOSE-1)"
        );
        // A plant of the clause itself is its proof.
        let own = [plant("AR-CANCEL-2", "baseline")];
        assert_eq!(
            proving(&own, "AR-CANCEL-2", Profile::BASELINE),
            ["breaks AR-CANCEL-2"]
        );
    }

    /// Each clause that applies others names, in its own text, every clause it applies, and
    /// each of them is a clause of every shipped profile (or replaced in it by one that is).
    #[test]
    fn each_applying_clause_names_what_it_applies() {
        for (clause, applied) in APPLIES {
            let text = crate::spec::clause_text(clause).unwrap();
            for c in *applied {
                assert!(text.contains(c), "{clause} does not name {c}: {text}");
            }
            for profile in Profile::all() {
                for c in super::applied(clause, profile).unwrap() {
                    assert!(profile.has_clause(&c), "{profile}: {clause} applies {c}");
                }
            }
        }
    }
}
