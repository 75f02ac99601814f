//! Quoting for the command lines the reports print (repro lines, a run's own command), so that
//! a reader can paste them into a POSIX shell as they are.

/// `s` as one word of a POSIX shell command line: as it is when it holds only characters no shell
/// treats specially, otherwise in single quotes (a single quote written `'\''`).
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@".contains(c))
    {
        return s.to_owned();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}
