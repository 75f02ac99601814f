//! The normative text itself (`spec/auto-review.md`), embedded so that tools can check links to it:
//! which clause IDs it defines and which message templates its tables list.

use std::collections::BTreeSet;

/// The specification's Markdown source.
pub const TEXT: &str = include_str!("../spec/auto-review.md");

/// Every clause ID the specification defines (a paragraph opening with `**AR-...-n.**`).
pub fn clause_ids() -> BTreeSet<String> {
    TEXT.lines()
        .filter_map(|l| l.strip_prefix("**"))
        .filter_map(|l| l.split_once(".**"))
        .map(|(id, _)| id)
        .filter(|id| is_clause_id(id))
        .map(str::to_owned)
        .collect()
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
