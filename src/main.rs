//! The `irilint` binary: all the work is in the library (`cli::run`).

fn main() -> std::process::ExitCode {
    irilint::cli::run(std::env::args_os().collect())
}
