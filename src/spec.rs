//! The normative text itself (`spec/auto-review.md`), embedded so that tools can check links to it:
//! which clause IDs it defines and which message templates its tables list.

use std::collections::BTreeSet;

/// The specification's Markdown source.
pub const TEXT: &str = include_str!("../spec/auto-review.md");

/// Every clause ID the specification defines (a paragraph opening with `**AR-...-n.**`).
pub fn clause_ids() -> BTreeSet<String> {
    TEXT.lines()
        .filter_map(defined_on)
        .map(str::to_owned)
        .collect()
}

/// The clause a line defines, when it opens a clause's paragraph (`**AR-SCOPE-1.** ...`).
fn defined_on(line: &str) -> Option<&str> {
    let (id, _) = line.strip_prefix("**")?.split_once(".**")?;
    is_clause_id(id).then_some(id)
}

/// The paragraph that defines `id`, from its opening line to the next blank line.
pub fn clause_text(id: &str) -> Option<&'static str> {
    let open = format!("**{id}.**");
    let start = TEXT.find(&open)?;
    let rest = &TEXT[start..];
    Some(rest.split("\n\n").next().unwrap_or(rest))
}

/// One chapter of the specification (`## 3. The review`) and the clauses it defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chapter {
    /// Its number as the heading writes it (`3`).
    pub number: String,
    /// Its title (`The review`).
    pub title: String,
    /// The clauses it defines, in the text's order.
    pub clauses: Vec<String>,
}

/// The chapters in the text's order, each with the clauses it defines: how reports that list
/// cases by clause group them for a reader.
pub fn chapters() -> Vec<Chapter> {
    let mut out: Vec<Chapter> = Vec::new();
    for line in TEXT.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            let (number, title) = heading.split_once(". ").unwrap_or(("", heading));
            out.push(Chapter {
                number: number.to_owned(),
                title: title.trim().to_owned(),
                clauses: Vec::new(),
            });
        } else if let (Some(id), Some(chapter)) = (defined_on(line), out.last_mut()) {
            chapter.clauses.push(id.to_owned());
        }
    }
    out
}

/// Whether `s` has the shape of a clause ID: `AR-<CHAPTER>[-<SECTION>]-<n>`, e.g. `AR-SCOPE-1` or
/// `AR-RES-FAIL-2`.
pub fn is_clause_id(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() >= 3
        && parts[0] == "AR"
        && parts[1..parts.len() - 1]
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_uppercase()))
        && parts
            .last()
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// The rows of the spec's message tables: `(ID, template)` for every table row whose first cell is
/// a backquoted `MSG-...` ID and whose last cell is a backquoted template. A `\n` in the spec's
/// template stands for a line feed (AR-MSG-1).
pub fn message_rows() -> Vec<(String, String)> {
    TEXT.lines()
        .filter(|l| l.starts_with("| `MSG-"))
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim().trim_matches('|').split(" | ").collect();
            let id = cells.first()?.trim().trim_matches('`');
            let template = cells.last()?.trim();
            let template = template.strip_prefix('`')?.strip_suffix('`')?;
            Some((id.to_owned(), template.replace("\\n", "\n")))
        })
        .collect()
}

/// The clause whose table lists each message template: `(template ID, clause ID)` in the text's
/// order (`MSG-FINAL-DENY` is listed by AR-MSG-1, `MSG-ASK-FAILED` by AR-RES-MSG-1).
pub fn message_clauses() -> Vec<(&'static str, &'static str)> {
    let mut clause = None;
    let mut out = Vec::new();
    for line in TEXT.lines() {
        if let Some(id) = defined_on(line) {
            clause = Some(id);
        } else if let (Some(row), Some(c)) = (line.strip_prefix("| `"), clause)
            && let Some((id, _)) = row.split_once('`')
            && id.starts_with("MSG-")
        {
            out.push((id, c));
        }
    }
    out
}

/// What a clause says of its own profile: the word of a paragraph that opens with `(Word.)`
/// (`(Baseline.)`, `(Resilient.)`), `None` for a clause of every profile (AR-CONV-2). The word is
/// read, not listed here: `profile.rs` holds each profile's clauses against it.
pub fn marked_profile(id: &str) -> Option<&'static str> {
    let line = TEXT.lines().find(|l| defined_on(l) == Some(id))?;
    let rest = line.split_once(".**")?.1.trim_start();
    let word = rest
        .strip_prefix('(')?
        .split_once(')')?
        .0
        .strip_suffix('.')?;
    (!word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || c == '-')).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every clause belongs to exactly one chapter, and the chapters are the text's thirteen.
    #[test]
    fn each_clause_is_in_one_chapter() {
        let chapters = chapters();
        let numbers: Vec<&str> = chapters.iter().map(|c| c.number.as_str()).collect();
        let expected: Vec<String> = (0..=12).map(|n| n.to_string()).collect();
        assert_eq!(numbers, expected);
        assert_eq!(chapters[1].title, "Scope and pass-through");
        assert_eq!(chapters[1].clauses[0], "AR-SCOPE-1");
        let listed: Vec<&String> = chapters.iter().flat_map(|c| &c.clauses).collect();
        let unique: BTreeSet<&String> = listed.iter().copied().collect();
        assert_eq!(listed.len(), unique.len(), "a clause defined twice");
        assert_eq!(unique.len(), clause_ids().len());
        assert!(chapters[12].clauses.contains(&"AR-SESSION-2".to_owned()));
    }

    #[test]
    fn each_template_belongs_to_the_clause_whose_table_lists_it() {
        let of = |t: &str| {
            message_clauses()
                .into_iter()
                .find(|(id, _)| *id == t)
                .map(|(_, c)| c)
        };
        assert_eq!(of("MSG-FINAL-DENY"), Some("AR-MSG-1"));
        assert_eq!(of("MSG-ERR-BLOCKS"), Some("AR-MSG-2"));
        assert_eq!(of("MSG-ERR-CLOSING"), Some("AR-MSG-5"));
        assert_eq!(of("MSG-HINT"), Some("AR-RES-MSG-1"));
        assert_eq!(of("MSG-NOPE"), None);
        // Every template row of the text has its clause.
        assert_eq!(message_clauses().len(), message_rows().len());
    }

    #[test]
    fn clauses_say_which_profile_they_belong_to() {
        // Marked by the rule value they rest on, which more than one profile may have.
        assert_eq!(marked_profile("AR-DISPOSE-2"), None);
        assert_eq!(marked_profile("AR-REVIEW-10"), None);
        assert_eq!(marked_profile("AR-SESSION-3"), Some("Resilient"));
        assert_eq!(marked_profile("AR-DECIDE-2"), None);
        assert_eq!(marked_profile("AR-NOPE-1"), None);
    }
}
