//! Many runs side by side. [`read`] takes the JSON reports of `autoreview check` (several
//! implementations, versions of one, or the shards of one run); [`model`] merges each run's shards
//! into one column and lays every case out under the spec's chapters, clauses and decision-table
//! rows, with a conformance score per column; [`html`], [`markdown`] and [`badge`] render it;
//! [`regress`] compares two reports case by case. Nothing here reads or writes a file.

pub mod badge;
pub mod html;
pub mod markdown;
pub mod model;
pub mod read;
pub mod regress;

pub use model::{Matrix, MatrixError, build};
pub use read::{ReadError, RunReport};

/// A column's MUST clauses judged, as both renderings write it: `84% (58 of 69)`, `—` when a
/// report of its run is older than version 7.
fn judged(c: &model::Column) -> String {
    c.coverage.as_ref().map_or("—".to_owned(), |v| {
        format!("{} ({} of {})", v.share(), v.judged, v.must)
    })
}
