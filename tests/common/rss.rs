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
