//! Lets the cucumber binary live among libtest binaries: `cargo test -- <filter>`, `-q`,
//! `--test-threads`, `cargo nextest` (which lists tests with `--list`) and `cargo insta test` pass
//! libtest's flags, which cucumber's own command line would reject.

/// The one test this binary reports to a test lister.
const TEST_NAME: &str = "features";

/// cucumber's arguments, or `None` when nothing should run (a listing, or a libtest name filter
/// that does not select this binary's one test).
pub fn cucumber_args() -> Option<Vec<String>> {
    const LIBTEST_FLAGS: &[&str] = &[
        "-q",
        "--quiet",
        "--nocapture",
        "--no-capture",
        "--show-output",
        "--exact",
        "--include-ignored",
        "--ignored",
        "--list",
    ];
    const LIBTEST_VALUED: &[&str] = &["--test-threads", "--format", "-Z", "--skip"];
    const CUCUMBER_VALUED: &[&str] = &[
        "-n",
        "--name",
        "--scenario-name",
        "-t",
        "--tags",
        "-i",
        "--input",
        "-c",
        "--concurrency",
        "--retry",
        "--retry-after",
        "--retry-tag-filter",
        "--color",
        "--junit-v",
    ];
    let raw: Vec<String> = std::env::args().collect();
    if raw.iter().any(|a| a == "--list") {
        // nextest's listing protocol: `--list --format terse [--ignored]`.
        if !raw.iter().any(|a| a == "--ignored") {
            println!("{TEST_NAME}: test");
        }
        return None;
    }
    let mut out = vec![raw.first().cloned().unwrap_or_default()];
    let mut filters = Vec::new();
    let mut args = raw.into_iter().skip(1);
    while let Some(a) = args.next() {
        let key = a.split('=').next().unwrap_or_default().to_owned();
        if LIBTEST_FLAGS.contains(&key.as_str()) {
            continue;
        }
        if LIBTEST_VALUED.contains(&key.as_str()) {
            if !a.contains('=') {
                args.next();
            }
        } else if CUCUMBER_VALUED.contains(&key.as_str()) {
            let inline = a.contains('=');
            out.push(a);
            if !inline {
                out.extend(args.next());
            }
        } else if a.starts_with('-') {
            out.push(a);
        } else {
            filters.push(a);
        }
    }
    (filters.is_empty() || filters.iter().any(|f| TEST_NAME.contains(f.as_str()))).then_some(out)
}
