//! The Node kit as an npm package: packed, it holds what it lists and nothing else; installed into a
//! fresh project, it loads by its name and its adapter passes a short run of the runner; a
//! TypeScript adapter compiles against its declarations, strict; and the hand-written
//! declarations name exactly what each module exports.
//!
//! npm comes from PATH, the TypeScript compiler from `target/node-tools` (where `.ci/run` installs
//! it) or the directory `AUTOREVIEW_NODE_TOOLS` names. Both are required: a test that lacks one
//! fails, saying how to install it.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

const NODE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/adapters/node");
const BIN: &str = env!("CARGO_BIN_EXE_autoreview");
const NAME: &str = "@autoreview/kit";

fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh npm project with the packed kit installed.
struct Installed {
    dir: PathBuf,
    /// The paths the packed tarball holds.
    packed: Vec<String>,
}

/// The kit packed and installed once, for every test of the run that reads it: packing and
/// installing take about a second and a half of CPU each time, and no test changes what was
/// installed (the TypeScript check adds its own `types-check/` beside it).
fn installed() -> &'static Installed {
    static KIT: OnceLock<Installed> = OnceLock::new();
    KIT.get_or_init(install)
}

/// Pack the kit as a registry would hold it and install the tarball, offline (it has no
/// dependencies), into a new project under `target/tmp`.
fn install() -> Installed {
    let dir = crate::shared_dir::fresh("node-kit");
    let mut installed = Installed {
        dir: dir.clone(),
        packed: Vec::new(),
    };
    let pack = run(Command::new("npm")
        .args(["pack", "--json", "--pack-destination"])
        .arg(&dir)
        .current_dir(NODE_DIR));
    assert!(pack.status.success(), "npm pack: {}", text(&pack.stderr));
    let report: Value = serde_json::from_slice(&pack.stdout).expect("npm pack --json");
    let tarball = report[0]["filename"].as_str().expect("the tarball's name");
    installed.packed = report[0]["files"]
        .as_array()
        .expect("the packed files")
        .iter()
        .map(|f| f["path"].as_str().unwrap_or_default().to_owned())
        .collect();
    std::fs::write(
        dir.join("package.json"),
        r#"{"name": "adapter", "private": true}"#,
    )
    .unwrap();
    let add = run(Command::new("npm")
        .args([
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--no-package-lock",
            "--ignore-scripts",
        ])
        .arg(dir.join(tarball))
        .current_dir(&dir));
    assert!(add.status.success(), "npm install: {}", text(&add.stderr));
    installed
}

#[test]
fn the_packed_kit_holds_what_it_lists_and_its_readme() {
    crate::tools::npm();
    let kit = installed();
    let mut packed = kit.packed.clone();
    packed.sort();
    let mut expected = vec![
        "README.md",
        "example-gate.d.ts",
        "example-gate.js",
        "harness.d.ts",
        "harness.js",
        "package.json",
        "rc3-model.d.ts",
        "rc3-model.js",
        "skeleton.d.ts",
        "skeleton.js",
        "types/contract.d.ts",
    ];
    expected.sort_unstable();
    assert_eq!(packed, expected);
}

#[test]
fn the_installed_kit_loads_by_its_name_and_its_adapter_runs() {
    crate::tools::npm();
    let kit = installed();
    // Every export resolves from the project, to the installed copy, and the root is the harness.
    let probe = format!(
        "const h = require('{NAME}/harness');
         if (require('{NAME}') !== h) throw new Error('the root is not the harness');
         if (!require.resolve('{NAME}/harness').startsWith(process.cwd())) throw new Error('not the installed copy');
         console.log(JSON.stringify({{
           harness: Object.keys(h).sort(),
           gate: typeof require('{NAME}/example-gate').install,
           model: typeof require('{NAME}/rc3-model').apply,
           version: require('{NAME}/package.json').version,
         }}));"
    );
    let out = run(Command::new("node")
        .args(["-e", &probe])
        .current_dir(&kit.dir));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    for name in ["serve", "runInput", "CAPABILITIES", "OBSERVABLES"] {
        assert!(
            got["harness"]
                .as_array()
                .unwrap()
                .contains(&Value::from(name)),
            "{name}: {got}"
        );
    }
    assert_eq!(got["gate"], "function");
    assert_eq!(got["model"], "function");
    // The kit is versioned on its own (semver, adapters/node/CHANGELOG.md): the installed
    // package reports the version of the checkout's package.json.
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/adapters/node/package.json"
        ))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        got["version"], manifest["version"],
        "the installed kit's version"
    );

    // The package's adapter, started through the bin npm linked, against the runner.
    let adapter = kit.dir.join("node_modules/.bin/autoreview-kit-skeleton");
    let smoke = run(Command::new(BIN)
        .args(["smoke", "--profile", "baseline", "--"])
        .arg(&adapter));
    assert!(
        smoke.status.success(),
        "smoke: {}{}",
        text(&smoke.stdout),
        text(&smoke.stderr)
    );
    assert!(
        text(&smoke.stdout).contains("handshake: ok — example-gate"),
        "{}",
        text(&smoke.stdout)
    );
    let check = run(Command::new(BIN)
        .args([
            "check",
            "--profile",
            "resilient",
            "--only",
            "incidents",
            "--",
        ])
        .arg(&adapter));
    let stdout = text(&check.stdout);
    assert!(
        check.status.success(),
        "check: {stdout}{}",
        text(&check.stderr)
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("PASS — ")),
        "check: {stdout}"
    );
}

/// `export declare const|function|class NAME` in a hand-written declaration file.
fn declared(file: &str) -> Vec<String> {
    let source = std::fs::read_to_string(format!("{NODE_DIR}/{file}")).unwrap();
    let mut names: Vec<String> = source
        .lines()
        .filter_map(|l| l.strip_prefix("export declare "))
        .filter_map(|l| {
            let rest = ["const ", "function ", "class "]
                .iter()
                .find_map(|k| l.strip_prefix(k))?;
            Some(
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                    .collect(),
            )
        })
        .collect();
    names.sort();
    names
}

/// The declarations are written by hand: each names exactly what its module exports, no more and
/// no fewer, so an export added to a module without its type (or removed) fails here.
#[test]
fn each_declaration_file_names_exactly_what_its_module_exports() {
    for (module, types) in [
        ("harness.js", "harness.d.ts"),
        ("example-gate.js", "example-gate.d.ts"),
        ("rc3-model.js", "rc3-model.d.ts"),
    ] {
        let path = serde_json::to_string(&format!("{NODE_DIR}/{module}")).unwrap();
        let out = run(Command::new("node").args([
            "-e",
            &format!("console.log(JSON.stringify(Object.keys(require({path})).sort()))"),
        ]));
        assert!(out.status.success(), "{module}: {}", text(&out.stderr));
        let exported: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(declared(types), exported, "{types} against {module}");
    }
}

/// adapters/node/types-check/adapter.ts is a TypeScript adapter written against the installed
/// package: it must compile with `--strict` under the resolution of current Node (the package's
/// `exports`) and the older one (its `types` and the declarations beside each module), and its
/// `@ts-expect-error` lines must stay errors.
#[test]
fn a_typescript_adapter_compiles_against_the_installed_kit() {
    let tsc = crate::tools::tsc();
    crate::tools::npm();
    let kit = installed();
    let check = kit.dir.join("types-check");
    std::fs::create_dir_all(&check).unwrap();
    let configs = ["tsconfig.json", "tsconfig.node10.json"];
    for file in ["adapter.ts"].iter().chain(&configs) {
        std::fs::copy(format!("{NODE_DIR}/types-check/{file}"), check.join(file)).unwrap();
    }
    // Build mode takes no `--strict`: each project is strict by its own configuration, the
    // second by extending the first.
    let config = |file: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(check.join(file)).unwrap())
            .unwrap_or_else(|e| panic!("{file}: {e}"))
    };
    let (current, older) = (config(configs[0]), config(configs[1]));
    assert_eq!(current["compilerOptions"]["strict"], true, "{current}");
    assert_eq!(older["extends"], "./tsconfig.json", "{older}");
    assert_eq!(older["compilerOptions"].get("strict"), None, "{older}");
    // Both projects in one compiler process, which reads the standard library once: two
    // processes each spent a second or two of CPU mostly reading it. `--force` checks each
    // project even where a `.tsbuildinfo` left by an earlier build says it is up to date.
    let out = run(Command::new("node")
        .arg(&tsc)
        .args(["--build", "--force"])
        .args(configs.map(|c| check.join(c)))
        .current_dir(&kit.dir));
    assert!(
        out.status.success(),
        "tsc --build --force {}:\n{}{}",
        configs.join(" "),
        text(&out.stdout),
        text(&out.stderr)
    );
}
