//! Inputs that must not hang, blow up or be lost: devices, FIFOs, endless standard input,
//! binary streams, files over `--max-file-size`, named files that cannot be read.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn irilint() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_irilint"));
    c.env("NO_COLOR", "1");
    c
}

/// Runs `cmd` (stdin from `feed`, if any, written on a thread) and waits at most 60 s.
fn run(mut cmd: Command, feed: Option<Vec<u8>>) -> (i32, String, String) {
    cmd.stdin(if feed.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(bytes) = feed {
        let mut stdin = child.stdin.take().unwrap();
        // The server may stop reading early (a binary stream): a broken pipe is expected.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("irilint did not finish");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn devices_and_fifos_named_on_the_command_line_are_refused_at_once() {
    let mut cmd = irilint();
    cmd.args(["check", "/dev/zero"]);
    let (code, _, stderr) = run(cmd, None);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a regular file"), "{stderr}");

    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.html");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut cmd = irilint();
    cmd.arg("check").arg(&fifo);
    let (code, _, stderr) = run(cmd, None);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a regular file"), "{stderr}");
}

#[test]
fn standard_input_stops_at_the_size_limit() {
    let mut cmd = irilint();
    cmd.args(["check", "--max-file-size", "64K", "-"]);
    let endless = b"http://a.example/\n".repeat(20_000);
    let (code, _, stderr) = run(cmd, Some(endless));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("larger than --max-file-size (65536 bytes)"),
        "{stderr}"
    );
    // Under the limit, read and checked.
    let mut cmd = irilint();
    cmd.args(["check", "--max-file-size", "1M", "-"]);
    let (code, stdout, _) = run(cmd, Some(b"http://a.example/\n".repeat(1000)));
    assert_eq!(code, 0);
    assert!(stdout.contains("1000 IRIs checked"), "{stdout}");
}

#[test]
fn a_binary_stream_is_not_read_past_its_first_bytes() {
    // 256 MiB of zeros: skipped after the first 8 KiB, long before it is all written.
    let mut cmd = irilint();
    cmd.args(["check", "-"]);
    let (code, _, stderr) = run(cmd, Some(vec![0u8; 256 << 20]));
    assert_eq!(code, 0);
    assert!(stderr.contains("skipped: binary file"), "{stderr}");
}

#[test]
fn files_over_the_limit_fail_when_named_and_are_reported_when_walked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("big.txt"),
        "http://a.example/\n".repeat(200),
    )
    .unwrap();
    std::fs::write(dir.path().join("small.txt"), "http://a.example/\u{202E}\n").unwrap();
    let mut cmd = irilint();
    cmd.current_dir(dir.path())
        .args(["check", "--max-file-size", "1K", "big.txt"]);
    let (code, _, stderr) = run(cmd, None);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("big.txt: not read: larger than --max-file-size"),
        "{stderr}"
    );
    // Walking: the big file is reported, the small one checked, the exit code is the findings'.
    let mut cmd = irilint();
    cmd.current_dir(dir.path())
        .args(["check", "--max-file-size", "1K", "--format", "json", "."]);
    let (code, stdout, _) = run(cmd, None);
    assert_eq!(code, 1);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["summary"]["files"], 1);
    assert_eq!(report["errors"][0]["path"], "./big.txt");
    assert_eq!(
        report["diagnostics"][0]["rule"],
        "bidi-formatting-character"
    );
}

#[test]
fn a_named_file_that_fails_to_read_fails_the_run() {
    // /proc/self/mem opens, is a regular file, and fails on the first read (EIO).
    if !std::path::Path::new("/proc/self/mem").exists() {
        return;
    }
    let mut cmd = irilint();
    cmd.args(["check", "/proc/self/mem"]);
    let (code, _, stderr) = run(cmd, None);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("/proc/self/mem: cannot read file"),
        "{stderr}"
    );
}

#[test]
fn sizes_parse_with_units_and_bad_ones_are_refused() {
    for bad in ["12X", "1.5M", "0", "M", "99999999999G"] {
        let mut cmd = irilint();
        cmd.args(["check", "--max-file-size", bad, "-"]);
        let (code, _, stderr) = run(cmd, Some(Vec::new()));
        assert_eq!(code, 2, "{bad}");
        assert!(stderr.contains("--max-file-size"), "{stderr}");
    }
}
