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
