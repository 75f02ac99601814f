//! The runtimes this tier needs. Each is required: a tool that is missing fails the test that
//! needs it, saying what to install, so that a run without it can never pass having checked
//! nothing. `.ci/run` installs TypeScript and Chromium before it runs this tier.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The TypeScript version `.ci/run` installs into `target/node-tools`.
pub const TYPESCRIPT: &str = "5.9.3";

/// Runs `name --version` and returns what it printed, or fails the test with how to install it.
pub fn require(name: &str, install: &str) -> String {
    match Command::new(name).arg("--version").output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        Ok(out) => panic!(
            "`{name} --version` failed ({}): the external tier needs {name}; {install}",
            out.status
        ),
        Err(e) => panic!("cannot run `{name}` ({e}): the external tier needs it; {install}"),
    }
}

/// Node.js, for the adapters written in JavaScript.
pub fn node() -> String {
    require("node", "install Node.js 20 or later")
}

/// npm, which packs and installs the Node kit.
pub fn npm() -> String {
    require("npm", "install npm with Node.js 20 or later")
}

/// Python 3, whose own `str` of a float the Python kit is held to.
pub fn python3() -> String {
    require("python3", "install Python 3.11 or later")
}

/// Where npm-installed tools live: `AUTOREVIEW_NODE_TOOLS` (when set and not empty), or
/// `target/node-tools`.
pub fn node_tools() -> PathBuf {
    std::env::var_os("AUTOREVIEW_NODE_TOOLS")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/node-tools"))
}

/// The TypeScript compiler npm installed under [`node_tools`].
pub fn tsc() -> PathBuf {
    let dir = node_tools();
    let tsc = dir.join("node_modules/typescript/bin/tsc");
    assert!(
        tsc.is_file(),
        "no TypeScript compiler at {}: install it with `npm install --prefix {} --save-exact \
         typescript@{TYPESCRIPT}` (as .ci/run does)",
        tsc.display(),
        dir.display()
    );
    tsc
}

/// Chromium (or Chromium under its other name) on `PATH`, for the matrix page.
pub fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    ["chromium", "chromium-browser"]
        .iter()
        .find_map(|name| {
            std::env::split_paths(&path)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
        .unwrap_or_else(|| {
            panic!(
                "chromium is not on PATH: the external tier opens the matrix page in it; \
                 install it with `apt-get install -y chromium` (as .ci/run does)"
            )
        })
}
