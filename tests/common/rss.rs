//! The peak resident memory of a child process (`getrusage` of that child alone, by `wait4`):
//! what `/usr/bin/time -v` calls its maximum resident set size.

use std::process::{Command, Stdio};

/// What a child did: its exit code and its peak resident memory in bytes.
pub struct Ran {
    /// Its exit code (`None` when a signal ended it).
    pub code: Option<i32>,
    /// Its peak resident set size, in bytes.
    pub peak: u64,
}

/// Runs `command` (its standard streams as set, or the null device) to its end and measures its
/// peak resident memory; `None` where `wait4` is not there to ask.
#[cfg(target_os = "linux")]
pub fn run(command: &mut Command) -> Option<Ran> {
    let child = command.stderr(Stdio::null()).spawn().expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills; the child is ours and not waited for
    // elsewhere (`child` is dropped without a wait).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4");
    drop(child);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    // Linux gives kilobytes.
    Some(Ran {
        code,
        peak: usage.ru_maxrss as u64 * 1024,
    })
}

/// Runs `command` (its standard streams as set, or the null device) to its end and measures its
/// peak resident memory; `None` where `wait4` is not there to ask.
#[cfg(not(target_os = "linux"))]
pub fn run(_: &mut Command) -> Option<Ran> {
    None
}

/// `irilint check` in `dir` with the two rules whose fixes the memory tests of `--fix` and
/// `--diff` make (a fixable escape, a lowercase one), after `extra` arguments; no standard
/// input, standard output thrown away.
pub fn fixing_irilint(dir: &std::path::Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_irilint"));
    c.current_dir(dir)
        .args(["check", "--isolated", "--quiet"])
        .args(extra)
        .args([
            "--select",
            "percent-encoded-unreserved,percent-lowercase-hex",
        ]);
    c.stdin(Stdio::null()).stdout(Stdio::null());
    c
}

/// `--diff NAME` in `dir` ([`fixing_irilint`]), the patch written to `patch`: its peak, once
/// checked that it found something to fix (exit 1) and left the document as it was.
pub fn diffing(dir: &std::path::Path, name: &str, patch: &std::path::Path) -> u64 {
    let document = dir.join(name);
    let before = std::fs::read(&document).unwrap();
    let ran = run(fixing_irilint(dir, &[])
        .args(["--diff", name])
        .stdout(std::fs::File::create(patch).unwrap()))
    .unwrap();
    assert_eq!(ran.code, Some(1), "--diff {name}: 1 when there is a diff");
    assert!(
        std::fs::read(&document).unwrap() == before,
        "--diff {name} writes nothing"
    );
    ran.peak
}

/// Why the peaks measured at two document sizes, `(size, peak)` in bytes, are not within the
/// bound, if they are not: they must grow by less than two bytes per byte of the document,
/// and the larger must be within twice the document and 50 MB.
pub fn beyond_bound(what: &str, runs: &[(usize, u64)]) -> Option<String> {
    let [(small, small_peak), (large, large_peak)] = runs else {
        panic!("two sizes");
    };
    let per_byte = large_peak.saturating_sub(*small_peak) as f64 / (large - small) as f64;
    eprintln!(
        "{what}: peak {small_peak} for {small} bytes, {large_peak} for {large}: {per_byte:.2} per byte"
    );
    let bound = 2 * *large as u64 + (50 << 20);
    if per_byte >= 2.0 {
        Some(format!(
            "{what}: each byte more of the document costs {per_byte:.2} at the peak ({small_peak} for {small} bytes, {large_peak} for {large})"
        ))
    } else if *large_peak > bound {
        Some(format!(
            "{what}: peak {large_peak} > {bound} for {large} bytes"
        ))
    } else {
        None
    }
}
