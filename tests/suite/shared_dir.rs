//! Directories that tests of one run share, under the target directory's `tmp/` so they can be
//! looked at after the run: `DIR/PREFIX-PID`, made fresh, with earlier runs' directories of the
//! same prefix removed once they are an hour old (a shared directory outlives the tests that use
//! it, so nothing removes it at the end of the run).

use std::path::PathBuf;
use std::time::Duration;

/// A new, empty `PREFIX-PID` directory under `CARGO_TARGET_TMPDIR`.
pub fn fresh(prefix: &str) -> PathBuf {
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let mine = format!("{prefix}-{}", std::process::id());
    for old in std::fs::read_dir(tmp).into_iter().flatten().flatten() {
        let stale = old
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > Duration::from_secs(3600)));
        let name = old.file_name().to_string_lossy().into_owned();
        if name.starts_with(&format!("{prefix}-")) && name != mine && stale {
            let _ = std::fs::remove_dir_all(old.path());
        }
    }
    let dir = tmp.join(mine);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}
