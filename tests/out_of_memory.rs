//! Running out of memory is a failure of the run like any other: a message and exit code 2,
//! never an abort (exit 134, a core dump, a backtrace). The binary under an address-space
//! limit (`ulimit -v`) smaller than the document it is asked to read.

#![cfg(target_os = "linux")]

use std::process::Command;

#[test]
fn an_allocation_that_fails_is_an_error_message_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.txt");
    // 96 MB of links: reading it alone needs more than the limit below.
    let line = "http://a.example/x ".repeat(1000) + "\n";
    std::fs::write(&file, line.repeat(96_000_000 / line.len())).unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 80000; exec \"$0\" check -j1 \"$1\"")
        .arg(env!("CARGO_BIN_EXE_irilint"))
        .arg(&file)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("irilint: error: out of memory (an allocation of "),
        "{stderr}"
    );
    assert!(!stderr.contains("backtrace"), "{stderr}");
}
