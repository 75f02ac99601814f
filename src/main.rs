//! The `autoreview` binary: the command line over the library. It parses options, calls the
//! library and writes what it returns; the library knows nothing of it.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
