//! The `autoreview` binary; everything lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    autoreview::cli::main()
}
