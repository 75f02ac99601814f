//! The reviewer-output corpus (`spec/corpus/reviewer-output/`): replies a gate may receive, each
//! with a permanent ID, a note, the readers it applies to (and so the profiles with them) and what a gate must do with it, in the
//! JSONTestSuite style: `y_` read as the given decision, `n_` fail closed, `i_` either, but never
//! allow.

use serde::Deserialize;
use serde_json::Value;

use crate::embedded::CORPUS_FILES;
use crate::profile::{Profile, Reader};
use crate::scenario::Attempt;

/// Where the corpus lives, relative to the package root.
pub const DIR: &str = "spec/corpus/reviewer-output";

/// The expected decision of a `y_` entry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    /// `low`, `medium` or `high`.
    pub risk: String,
    /// `allow` or `deny`.
    pub decision: String,
    /// The reviewer's reason, for a deny that gives one.
    #[serde(default)]
    pub reason: Option<String>,
}

/// What a gate must do with an entry, from its name's prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// `y_`: read it as this decision.
    Accept(Decision),
    /// `n_`: fail the review (closed).
    Reject,
    /// `i_`: implementation-defined, but never an allow.
    NeverAllow,
}

/// Text built from repeated pieces, for entries too large to commit.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Generate {
    #[serde(default)]
    prefix: String,
    repeat: String,
    times: usize,
    #[serde(default)]
    then: String,
    #[serde(default)]
    then_times: usize,
    #[serde(default)]
    suffix: String,
}

impl Generate {
    fn text(&self) -> String {
        let mut s = String::with_capacity(
            self.prefix.len()
                + self.repeat.len() * self.times
                + self.then.len() * self.then_times
                + self.suffix.len(),
        );
        s.push_str(&self.prefix);
        s.push_str(&self.repeat.repeat(self.times));
        s.push_str(&self.then.repeat(self.then_times));
        s.push_str(&self.suffix);
        s
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Index {
    #[allow(dead_code)]
    about: String,
    entries: Vec<IndexEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct IndexEntry {
    id: String,
    name: String,
    note: String,
    readers: Vec<Reader>,
    clauses: Vec<String>,
    #[serde(default)]
    decision: Option<Decision>,
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    generate: Option<Generate>,
}

/// One corpus entry, with its reply ready to use as a reviewer attempt.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Permanent ID (`RO-nnn`).
    pub id: String,
    /// The descriptive name, starting `y_`, `n_` or `i_`.
    pub name: String,
    /// What the entry pins down.
    pub note: String,
    /// The readers the expectation holds for: the entry applies to every profile with one of
    /// them ([`Entry::applies_to`]).
    pub readers: Vec<Reader>,
    /// The clauses it exercises.
    pub clauses: Vec<String>,
    /// What a gate must do with it.
    pub expect: Expect,
    /// The reply.
    pub attempt: Attempt,
}

/// Why the corpus could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{DIR}/{file}: {message}")]
pub struct CorpusError {
    /// The offending file (or `index.json`).
    pub file: String,
    /// What was wrong.
    pub message: String,
}

fn embedded(name: &str) -> Option<&'static str> {
    CORPUS_FILES
        .iter()
        .find(|(path, _)| path.rsplit('/').next() == Some(name))
        .map(|(_, text)| *text)
}

/// The error of `file` saying `message`.
fn err(file: &str, message: String) -> CorpusError {
    CorpusError {
        file: file.to_owned(),
        message,
    }
}

/// The index, read.
fn index() -> Result<Index, CorpusError> {
    let text = embedded("index.json").ok_or_else(|| err("index.json", "missing".into()))?;
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de)
        .map_err(|e| err("index.json", format!("{}: {}", e.path(), e.inner())))
}

/// Every entry's ID, in the index's order, without building any reply.
pub fn ids() -> Result<Vec<String>, CorpusError> {
    Ok(index()?.entries.into_iter().map(|e| e.id).collect())
}

/// Loads every entry, checking that names, files and expectations agree.
pub fn load() -> Result<Vec<Entry>, CorpusError> {
    load_where(|_| true)
}

/// Loads the entries that apply to `profile`, as [`load`] does; the replies of the others are
/// not built (the generated ones are megabytes together). The corpus tests readers: an entry
/// applies to every profile whose reader it names.
pub fn load_for(profile: Profile) -> Result<Vec<Entry>, CorpusError> {
    load_where(|readers| readers.contains(&profile.reader()))
}

impl Entry {
    /// Whether the entry applies to `profile`: its reader is one the entry names.
    pub fn applies_to(&self, profile: Profile) -> bool {
        self.readers.contains(&profile.reader())
    }
}

/// Loads the entries whose readers `keep` takes, as [`load`] does.
fn load_where(keep: impl Fn(&[Reader]) -> bool) -> Result<Vec<Entry>, CorpusError> {
    index()?
        .entries
        .into_iter()
        .filter(|e| keep(&e.readers))
        .map(|e| {
            let expect = match (e.name.get(..2), e.decision) {
                (Some("y_"), Some(d)) => Expect::Accept(d),
                (Some("n_"), None) => Expect::Reject,
                (Some("i_"), None) => Expect::NeverAllow,
                (Some("y_"), None) => return Err(err("index.json", format!("{}: a y_ entry needs its decision", e.id))),
                _ => {
                    return Err(err(
                        "index.json",
                        format!("{}: the name must start with y_, n_ or i_, and only y_ entries give a decision", e.id),
                    ));
                }
            };
            let attempt = match (&e.file, &e.generate) {
                (Some(file), None) => {
                    let content = embedded(file).ok_or_else(|| err(file, "listed in index.json but not present".into()))?;
                    if file.ends_with(".blocks.json") {
                        let v: Value = serde_json::from_str(content).map_err(|x| err(file, x.to_string()))?;
                        let a = Attempt::from_value(v).map_err(|x| err(file, x))?;
                        if !matches!(a, Attempt::Blocks { .. }) {
                            return Err(err(file, "a .blocks.json file holds {\"blocks\": [...]}".into()));
                        }
                        a
                    } else if file.ends_with(".txt") {
                        Attempt::text(content)
                    } else {
                        return Err(err(file, "corpus files end in .txt or .blocks.json".into()));
                    }
                }
                (None, Some(g)) => Attempt::text(g.text()),
                _ => return Err(err("index.json", format!("{}: give exactly one of file and generate", e.id))),
            };
            Ok(Entry {
                id: e.id,
                name: e.name,
                note: e.note,
                readers: e.readers,
                clauses: e.clauses,
                expect,
                attempt,
            })
        })
        .collect()
}
