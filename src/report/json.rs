//! The JSON report: the one type written and read ([`JsonReport`], `spec/report.schema.json`,
//! `autoreview schema report`), written by [`json`] and read back by [`read`], which upgrades the
//! older reports it reads in one place ([`upgrade`]); and how a run's members are written and read
//! (moments, durations, what a not-applicable case needs).

use std::time::SystemTime;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{StatusCounts, tallies};
use crate::capability::Need;
use crate::runner::coverage::Coverage;
use crate::runner::shard::Shard;
use crate::runner::violations::Violation;
use crate::runner::{CaseResult, Report};

/// The JSON report's format version. 2: `results` lists the generated cases that did not pass,
/// and `generated_passed` counts the others. 3: a result's `verdict` and `status` may be
/// `not-applicable`, with the observables the implementation lacks (`missing`); each tally counts
/// `not_applicable`; the run's facts add `observes`; `succeeded` is false when nothing ran.
/// 4: `missing` may name capabilities the implementation lacks as well as observables; the run's
/// facts add `lacks`; `generated_not_applicable` counts the generated cases that needed one.
/// 5: the report records the plan of the run: `in_process`, `selection` and `session_draws`
/// join `shard`, `generated`, `seed` and `command`, which every report now has, so that no
/// reader parses `argv` or draws the generated cases again.
/// 6: the report leads with `violations`, the clauses its failed cases break, worst first
/// ([`crate::runner::violations`]); a counterexample names the clauses it was shrunk for (`clauses`), and
/// one may come from a fixed case.
/// 7: `succeeded` is false too when the run judged less than the share of MUST clauses it was
/// required to (`--require-coverage`); the report states what the run covered, `coverage`: how many of the profile's MUST clauses
/// the cases it judged cite, which it did not, and the share it was required to judge
/// ([`crate::runner::coverage`]); the run adds `generated_clauses`, what its generated cases
/// judged, and `required_coverage`.
pub const REPORT_VERSION: u32 = 7;

/// The report versions [`read`] reads: older ones are upgraded ([`upgrade`]).
pub const READS: [u32; 5] = [3, 4, 5, 6, REPORT_VERSION];

/// The JSON report of `autoreview check --report-json`: what the run was asked (its plan), what
/// it checked, its tallies and every listed case's result. `matrix` and `compare` read it; they
/// read report versions 3 and 4 too, upgraded.
// The one type written and read (`spec/report.schema.json`, `autoreview schema report`): `R` is
// the run, a `Report` read back or a borrowed one written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct JsonReport<R = Report> {
    /// The report's format version: 7.
    pub report_version: u32,
    /// The runner that wrote it: `autoreview <version>`.
    #[serde(default)]
    pub runner: String,
    /// The version of the spec text the cases are written from.
    #[serde(default)]
    pub spec: String,
    /// Whether unexpected passes and stale expectations failed the run (`--strict`).
    #[serde(default)]
    pub strict: bool,
    /// Whether the run succeeded, as its exit code says.
    #[serde(default)]
    pub succeeded: bool,
    /// The tallies, per area and in total.
    #[serde(default)]
    pub summary: Summary,
    /// The clauses the failed cases break, worst first: what a reader looks at first, before the
    /// cases (`runner::violations`).
    #[serde(default)]
    pub violations: Vec<Violation>,
    /// How many of the profile's MUST clauses the cases the run judged cite, which they do not,
    /// and the share the run was required to judge (`runner::coverage`); `None` in a report before
    /// 7, which does not record what its generated cases judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    /// The run: what it was asked, what it checked, and every case's result.
    #[serde(flatten)]
    pub run: R,
}

/// The tallies of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    /// All cases.
    #[serde(default)]
    pub total: StatusCounts,
    /// Each area's, in the order areas first appear.
    #[serde(default)]
    pub areas: Vec<AreaTally>,
}

/// One area's tally.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AreaTally {
    /// The area.
    pub area: String,
    /// Its counts.
    pub tally: StatusCounts,
}

impl<R> std::ops::Deref for JsonReport<R> {
    type Target = R;

    fn deref(&self) -> &R {
        &self.run
    }
}

impl<R> JsonReport<R> {
    /// The same report around another form of its run.
    fn with_run<S>(self, run: S) -> JsonReport<S> {
        JsonReport {
            report_version: self.report_version,
            runner: self.runner,
            spec: self.spec,
            strict: self.strict,
            succeeded: self.succeeded,
            summary: self.summary,
            violations: self.violations,
            coverage: self.coverage,
            run,
        }
    }
}

impl<'a> JsonReport<&'a Report> {
    /// The JSON report of `report`, judged `strict` or not.
    pub fn of(report: &'a Report, strict: bool) -> JsonReport<&'a Report> {
        let (areas, total) = tallies(report);
        JsonReport {
            report_version: REPORT_VERSION,
            runner: format!("autoreview {}", env!("CARGO_PKG_VERSION")),
            spec: crate::table::Table::load(report.profile)
                .map(|t| t.spec)
                .unwrap_or_default(),
            strict,
            succeeded: report.succeeded(strict),
            summary: Summary {
                total,
                areas: areas
                    .into_iter()
                    .map(|(area, tally)| AreaTally { area, tally })
                    .collect(),
            },
            violations: report.violations(),
            coverage: Some(report.coverage()),
            run: report,
        }
    }
}

/// The JSON report of a run ([`JsonReport`]), pretty-printed with a trailing newline.
pub fn json(report: &Report, strict: bool) -> String {
    let mut s = serde_json::to_string_pretty(&JsonReport::of(report, strict)).unwrap_or_default();
    s.push('\n');
    s
}

/// Why a JSON report cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Not a JSON report of the expected shape.
    #[error("not an autoreview JSON report: {0}")]
    Json(String),
    /// A report version this build does not read.
    #[error(
        "report_version {found}: this autoreview reads report_version 3, 4, 5, 6 and {REPORT_VERSION} (write the report again with this autoreview's `check --report-json`)"
    )]
    Version {
        /// The version the report states.
        found: u64,
    },
}

/// Reads a JSON report of any version in [`READS`], upgraded to the current one.
pub fn read(text: &str) -> Result<JsonReport, ReadError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ReadError::Json(e.to_string()))?;
    // The run is read apart from the members around it: through serde's `flatten` an error
    // would lose the path that says where it is.
    fn deserialize<T: serde::de::DeserializeOwned>(
        value: serde_json::Value,
    ) -> Result<T, ReadError> {
        serde_path_to_error::deserialize(value)
            .map_err(|e| ReadError::Json(format!("{}: {}", e.path(), e.inner())))
    }
    let mut head: JsonReport<serde_json::Map<String, serde_json::Value>> =
        deserialize(upgrade(value)?)?;
    let run: Report = deserialize(serde_json::Value::Object(std::mem::take(&mut head.run)))?;
    Ok(head.with_run(run))
}

/// A report of an older version as the current version writes it; the one place that knows how
/// reports changed. Report 3 lacks what 4 added (`lacks`, `generated_not_applicable`: it lacked
/// nothing); both lack what 5 records of the plan, and say some of it only on their command line
/// (`argv`), which is read here and nowhere else: the adapter command after `--`, `--shard`,
/// `--generated`, `--implementation`, `--only`, `--skip`, `--no-fixed`. Which generated cases
/// drew a session they do not record, and it is not drawn again (the generator may have changed
/// since): `session_draws` stays unknown, and none of their unlisted session cases is known to
/// have passed. Reports before 6 have no `violations`: their differences name no clause, so the
/// violations computed from their results are the one [`crate::runner::violations::UNATTRIBUTED`] entry
/// (none when no case failed with differences), and each counterexample that failed with
/// differences stands for it.
pub fn upgrade(mut value: serde_json::Value) -> Result<serde_json::Value, ReadError> {
    use serde_json::{Value, json};
    let found = value
        .get("report_version")
        .and_then(Value::as_u64)
        .ok_or_else(|| ReadError::Json("it has no numeric report_version".to_owned()))?;
    if !READS.iter().any(|v| u64::from(*v) == found) {
        return Err(ReadError::Version { found });
    }
    if found == u64::from(REPORT_VERSION) {
        return Ok(value);
    }
    let Some(report) = value.as_object_mut() else {
        return Err(ReadError::Json("it is not a JSON object".to_owned()));
    };
    if found < 5 {
        plan_from_argv(report);
    }
    if let Some(Value::Array(found)) = report.get_mut("counterexamples") {
        for f in found.iter_mut().filter_map(Value::as_object_mut) {
            if f.get("verdict").and_then(Value::as_str) == Some("fail") {
                f.entry("clauses".to_owned())
                    .or_insert(json!([crate::runner::violations::UNATTRIBUTED]));
            }
        }
    }
    if !report.contains_key("violations") {
        let member = |report: &serde_json::Map<String, Value>, key: &str| {
            report.get(key).cloned().unwrap_or(json!([]))
        };
        let results: Vec<CaseResult> = member_of(member(report, "results"), "results")?;
        let found: Vec<crate::runner::generated::Found> =
            member_of(member(report, "counterexamples"), "counterexamples")?;
        let violations = crate::runner::violations::of(&results, &found);
        report.insert(
            "violations".to_owned(),
            serde_json::to_value(violations).unwrap_or(json!([])),
        );
    }
    report.insert("report_version".to_owned(), json!(REPORT_VERSION));
    Ok(value)
}

/// A member of a report read as `T`, an error naming the member and the path inside it.
fn member_of<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
    key: &str,
) -> Result<T, ReadError> {
    serde_path_to_error::deserialize(value)
        .map_err(|e| ReadError::Json(format!("{key}{}: {}", path_suffix(&e), e.inner())))
}

fn path_suffix<E>(e: &serde_path_to_error::Error<E>) -> String {
    match e.path().to_string().as_str() {
        "." => String::new(),
        p if p.starts_with('[') => p.to_owned(),
        p => format!(".{p}"),
    }
}

/// What reports 3 and 4 lack of their plan, read from their command line (`argv`): the one place
/// that reads it.
fn plan_from_argv(report: &mut serde_json::Map<String, serde_json::Value>) {
    use serde_json::{Value, json};
    let argv: Vec<String> = match report.get("argv") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_owned())
            .collect(),
        _ => Vec::new(),
    };
    // The options before `--`, the adapter command after it.
    let split = argv.iter().position(|a| a == "--");
    let (own, command) = match split {
        Some(i) => (&argv[..i], &argv[i + 1..]),
        None => (&argv[..], &argv[argv.len()..]),
    };
    // Every value of an option, written `--x v` or `--x=v`.
    let values = |name: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut next = false;
        for a in own {
            if next {
                out.push(a.clone());
                next = false;
            } else if a == name {
                next = true;
            } else if let Some(v) = a.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
                out.push(v.to_owned());
            }
        }
        out
    };
    let last = |name: &str| values(name).pop();
    let mut fill = |key: &str, v: Value| {
        report.entry(key.to_owned()).or_insert(v);
    };
    fill("command", json!(command));
    fill(
        "shard",
        match last("--shard").map(|s| Shard::parse(&s)) {
            Some(Ok(s)) if s.of > 1 => json!({"index": s.index, "of": s.of}),
            _ => Value::Null,
        },
    );
    fill(
        "generated",
        json!(
            last("--generated")
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0)
        ),
    );
    fill(
        "selection",
        json!({
            "only": values("--only"),
            "skip": values("--skip"),
            "no_fixed": own.iter().any(|a| a == "--no-fixed"),
        }),
    );
    // In process when the report names no adapter command (recorded, or on its command line).
    let adapter = report
        .get("command")
        .and_then(Value::as_array)
        .is_some_and(|c| !c.is_empty());
    let in_process = match (adapter, last("--implementation").as_deref()) {
        (true, _) => Value::Null,
        (false, Some("async-gate")) => json!("async-gate"),
        (false, _) => json!("engine"),
    };
    report.entry("in_process".to_owned()).or_insert(in_process);
}

/// A report's members a reader may miss: the oracle of a report that does not say.
pub(crate) fn oracle_reference() -> crate::runner::Oracle {
    crate::runner::Oracle::Reference
}

/// A report's members a reader may miss: the start of a report that does not say.
pub(crate) fn epoch() -> SystemTime {
    SystemTime::UNIX_EPOCH
}

/// Reads a moment written as [`timestamp`] text (any RFC 3339 moment).
pub(crate) fn deserialize_timestamp<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<SystemTime, D::Error> {
    let text = String::deserialize(d)?;
    chrono::DateTime::parse_from_rfc3339(&text)
        .map(SystemTime::from)
        .map_err(|e| {
            serde::de::Error::custom(format!(
                "{text:?} is not an RFC 3339 moment ({e}); expected e.g. \"2026-08-28T09:15:02.117Z\""
            ))
        })
}

/// Reads a duration written as milliseconds ([`crate::runner::millis`]): a number, not negative.
pub(crate) fn deserialize_millis<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<std::time::Duration, D::Error> {
    // Written to the microsecond, and read back so.
    let ms = f64::deserialize(d)?;
    let micros = (ms * 1000.0).round();
    if !(0.0..=u64::MAX as f64).contains(&micros) {
        return Err(serde::de::Error::custom(format!(
            "{ms} is not a duration in milliseconds (expected a number, 0 or more)"
        )));
    }
    Ok(std::time::Duration::from_micros(micros as u64))
}

/// Reads what a not-applicable case needs: observables and capabilities by their names in a
/// `hello`.
pub(crate) fn deserialize_needs<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<Need>, D::Error> {
    use crate::capability::Capability;
    use crate::capability::Observable;
    let names = Vec::<String>::deserialize(d)?;
    names
        .iter()
        .map(|n| {
            let v = serde_json::Value::String(n.clone());
            serde_json::from_value::<Observable>(v.clone())
                .map(Need::Observable)
                .or_else(|_| serde_json::from_value::<Capability>(v).map(Need::Capability))
                .map_err(|_| {
                    serde::de::Error::custom(format!(
                        "{n:?} is neither an observable nor a capability a `hello` names"
                    ))
                })
        })
        .collect()
}

/// A moment as RFC 3339 text in UTC, to the millisecond (`2026-08-28T09:15:02.117Z`).
pub fn timestamp(t: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(t).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Serializes a moment as [`timestamp`] text.
pub(crate) fn serialize_timestamp<S: serde::Serializer>(
    t: &SystemTime,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(&timestamp(*t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::violating;
    use crate::report::{specimen, specimen_case as case, specimen_run as report};
    use crate::runner::shard::Shard;
    use crate::runner::{Severity, Status, Verdict};

    /// The JSON report reads back as the report it was written from, and as what its schema
    /// describes.
    #[test]
    fn the_json_report_reads_back_as_written() {
        let mut r = specimen("e", "a");
        r.selection.only = vec!["RS-*".to_owned()];
        r.in_process = Some(crate::runner::check::InProcess::AsyncGate);
        r.shard = Some(Shard { index: 2, of: 3 });
        r.generated = 9;
        r.seed = Some(4);
        r.session_draws = Some(crate::runner::check::SessionDraws::of(9, |k| k == 7));
        r.started = SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(1_700_000_000_123);
        for strict in [false, true] {
            let back = read(&json(&r, strict)).unwrap();
            assert_eq!(back.run, r);
            assert_eq!((back.strict, back.succeeded), (strict, r.succeeded(strict)));
            assert_eq!(back.report_version, REPORT_VERSION);
            assert_eq!(back.summary.total, tallies(&r).1);
        }
    }

    /// A report 5 reads as a report 6: its differences name no clause, so its violations are the
    /// unattributed entry, and the counterexample that failed with differences stands for it.
    #[test]
    fn a_report_5_reads_with_its_violations_unattributed() {
        let mut r = violating();
        for res in &mut r.results {
            if let Verdict::Fail { differences } = &mut res.verdict {
                differences.iter_mut().for_each(|d| d.clauses.clear());
            }
        }
        r.counterexamples[0].clauses.clear();
        r.counterexamples[0].verdict = Verdict::Fail {
            differences: Vec::new(),
        };
        let mut v: serde_json::Value = serde_json::from_str(&json(&r, false)).unwrap();
        v["report_version"] = 5.into();
        v.as_object_mut().unwrap().remove("violations");
        let back = read(&v.to_string()).unwrap();
        assert_eq!(back.report_version, REPORT_VERSION);
        assert_eq!(back.counterexamples[0].clauses, ["unattributed"]);
        let found: Vec<(&str, usize, usize, Option<usize>)> = back
            .violations
            .iter()
            .map(|v| {
                (
                    v.clause.as_str(),
                    v.cases,
                    v.expected_failures,
                    v.counterexample,
                )
            })
            .collect();
        assert_eq!(found, [("unattributed", 4, 1, Some(0))]);
        assert_eq!(back.violations[0].severity, Severity::Decision);
        // No failure, no violation.
        let mut v: serde_json::Value =
            serde_json::from_str(&json(&report(vec![case("A", Status::Pass)], &[]), false))
                .unwrap();
        v["report_version"] = 5.into();
        v.as_object_mut().unwrap().remove("violations");
        assert!(read(&v.to_string()).unwrap().violations.is_empty());
    }
}
