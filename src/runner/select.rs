//! Which fixed cases a run takes (`check --only/--skip`). A selector names cases by permanent ID,
//! area, clause ID or decision-table feature (`reviewer=failure`), with `*` as a wildcard in the
//! first three. A selector that names nothing in the whole suite is an error, never an empty match,
//! so a typo cannot turn a run green.

use crate::cases::Case;
use crate::profile::Profile;
use crate::table::When;
use crate::table::features;

/// One `--only` or `--skip` argument.
#[derive(Debug, Clone)]
pub struct Selector {
    /// The argument as given.
    pub raw: String,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    /// A case ID, an area or a clause ID, with `*` matching any run of characters.
    Name(String),
    /// Conditions over the decision table's features, as in a row's `when`.
    Feature(Box<When>),
}

/// Why a selection cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// `name=value` that is not a feature condition.
    #[error(
        "{raw:?} is not a feature condition: {message} (a condition is name=value or name=a|b, as in a decision-table row's `when`)"
    )]
    BadFeature {
        /// The argument.
        raw: String,
        /// What was wrong.
        message: String,
    },
    /// A selector that matches no case of the suite under this profile.
    #[error(
        "{flag} {raw:?} matches no case ID, area, clause ID or feature of the {profile} profile's fixed cases (examples: {examples}AR-SCOPE-1, AR-PARSE-*, reviewer=failure, effective=never)"
    )]
    MatchesNothing {
        /// `--only` or `--skip`.
        flag: &'static str,
        /// The argument.
        raw: String,
        /// The profile.
        profile: Profile,
        /// Selectors taken from the profile's own cases (an ID, a wildcard, an area), each
        /// followed by `, `, so that the examples name cases that exist.
        examples: String,
    },
}

impl Selector {
    /// Reads one argument: `name=value[|value…]` is a feature condition, anything else a name.
    pub fn parse(raw: &str) -> Result<Selector, SelectError> {
        let kind = match raw.split_once('=') {
            None => Kind::Name(raw.to_owned()),
            Some((name, values)) => {
                let values: Vec<serde_json::Value> = values
                    .split('|')
                    .map(|v| match v {
                        "true" => serde_json::Value::Bool(true),
                        "false" => serde_json::Value::Bool(false),
                        other => serde_json::Value::String(other.to_owned()),
                    })
                    .collect();
                let when = serde_json::json!({ name: values });
                let when: When =
                    serde_json::from_value(when).map_err(|e| SelectError::BadFeature {
                        raw: raw.to_owned(),
                        message: e.to_string(),
                    })?;
                Kind::Feature(Box::new(when))
            }
        };
        Ok(Selector {
            raw: raw.to_owned(),
            kind,
        })
    }

    /// Whether `case` is one this selector names.
    pub fn matches(&self, case: &Case, profile: Profile) -> bool {
        match &self.kind {
            Kind::Name(pattern) => {
                glob(pattern, &case.id)
                    || glob(pattern, &case.area)
                    || case.clauses.iter().any(|c| glob(pattern, c))
            }
            // The table's features describe one call: a session case has none.
            Kind::Feature(when) => case
                .call()
                .is_some_and(|s| when.matches(&features::of(s, profile))),
        }
    }
}

/// Selectors that name cases of `all`: the first case's ID, the wildcard of its ID's prefix, and
/// its area, each followed by `, `.
fn examples(all: &[Case]) -> String {
    let Some(first) = all.first() else {
        return String::new();
    };
    let prefix = first.id.trim_end_matches(|c: char| c.is_ascii_digit());
    format!("{}, {prefix}*, {}, ", first.id, first.area)
}

/// The cases a run takes: those `only` names (all when it is empty) that `skip` does not name,
/// in their order. Every selector must name at least one case of `all`.
pub fn select(
    all: Vec<Case>,
    only: &[Selector],
    skip: &[Selector],
    profile: Profile,
) -> Result<Vec<Case>, SelectError> {
    for (flag, selectors) in [("--only", only), ("--skip", skip)] {
        if let Some(s) = selectors
            .iter()
            .find(|s| !all.iter().any(|c| s.matches(c, profile)))
        {
            return Err(SelectError::MatchesNothing {
                flag,
                raw: s.raw.clone(),
                profile,
                examples: examples(&all),
            });
        }
    }
    Ok(all
        .into_iter()
        .filter(|c| only.is_empty() || only.iter().any(|s| s.matches(c, profile)))
        .filter(|c| !skip.iter().any(|s| s.matches(c, profile)))
        .collect())
}

/// Whether `text` matches `pattern`, where `*` matches any run of characters (none included) and
/// everything else matches itself. Linear in practice: the classic greedy match with one backtrack
/// point.
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if i < p.len() && p[i] == t[j] {
            i += 1;
            j += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_matches_whole_names_with_wildcards() {
        assert!(glob("RS-7", "RS-7"));
        assert!(!glob("RS-7", "RS-70"));
        assert!(!glob("AR-SCOPE-1", "AR-SCOPE-10"));
        assert!(glob("BL-P*", "BL-P4U"));
        assert!(glob("*-P*", "RS-PC1"));
        assert!(glob("AR-*-1", "AR-TOL-1"));
        assert!(!glob("AR-*-1", "AR-TOL-10"));
        assert!(glob("*", ""));
        assert!(!glob("", "x"));
    }

    #[test]
    fn feature_conditions_are_checked_by_name_and_value() {
        assert!(Selector::parse("reviewer=failure|pending").is_ok());
        assert!(Selector::parse("listed=false").is_ok());
        let unknown = Selector::parse("reviwer=failure").unwrap_err().to_string();
        assert!(unknown.contains("unknown field `reviwer`"), "{unknown}");
        let value = Selector::parse("effective=sometimes")
            .unwrap_err()
            .to_string();
        assert!(value.contains("unknown variant `sometimes`"), "{value}");
    }
}
