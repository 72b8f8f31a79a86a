//! The irilint binary run as a user runs it.

use assert_cmd::Command;

/// The irilint binary, with `NO_COLOR` taken out of its environment.
pub fn irilint() -> Command {
    let mut cmd = Command::cargo_bin("irilint").expect("binary is built");
    cmd.env_remove("NO_COLOR");
    cmd
}

/// Runs irilint and returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = irilint().args(args).output().expect("runs");
    (
        out.status.code().expect("exited"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}
