//! The progress bar: drawn on standard error when it is a terminal (a pseudo-terminal from
//! util-linux `script`) and the run takes more than about a second; never when standard error
//! is a pipe, and never for a machine format.

mod consumers;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// What the bar shows after the count of files: `12/400 files · 2400 IRIs checked`.
fn shows_bar(output: &str, files: usize) -> bool {
    output.contains(&format!("/{files} files · ")) && output.contains(" IRIs checked")
}

fn script() -> Option<PathBuf> {
    ["/usr/bin/script", "/bin/script"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
}

/// Runs `irilint args…` on a pseudo-terminal; returns everything it wrote and how long it took.
fn on_terminal(script: &Path, args: &str) -> (String, Duration) {
    let irilint = assert_cmd::cargo::cargo_bin("irilint");
    let started = Instant::now();
    let out = Command::new(script)
        .args(["--quiet", "--return", "--flush", "--command"])
        .arg(format!("'{}' {args}", irilint.display()))
        .arg("/dev/null")
        .env("TERM", "xterm")
        .output()
        .expect("script runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        started.elapsed(),
    )
}

/// `n` files of 200 IRIs each in `dir` (those already there are kept).
fn fill(dir: &Path, n: usize) {
    let line: String = (0..50)
        .map(|i| format!("https://example.org/page/{i}/ "))
        .collect();
    for i in 0..n {
        let path = dir.join(format!("f{i:06}.txt"));
        if !path.exists() {
            std::fs::write(path, format!("{line}\n").repeat(4)).unwrap();
        }
    }
}

#[test]
fn a_slow_run_shows_progress_on_a_terminal_only() {
    let Some(script) = consumers::require(script(), "util-linux `script`") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().display().to_string();
    // Grow the input until a single-threaded run takes long enough for the bar to appear (a
    // release build checks 16,000 files in less).
    let mut n = 500;
    let (output, took) = loop {
        fill(tmp.path(), n);
        let (output, took) = on_terminal(&script, &format!("check -j 1 '{dir}'"));
        assert!(
            output.contains(&format!("No problems found in {n} files")),
            "{output}"
        );
        if took >= Duration::from_millis(2500) || n >= 256_000 {
            break (output, took);
        }
        n *= 2;
    };
    assert!(
        took >= Duration::from_millis(2500),
        "even {n} files took only {took:?}"
    );
    assert!(shows_bar(&output, n), "no bar in {took:?}:\n{output}");
    // What is left on the screen: the report and its summary, none of it on the bar's last
    // frame, which is gone (findings in the last file, printed while the bar is drawn).
    let lines = screen(&output);
    assert!(
        lines.iter().all(|l| !l.contains(" files · ")),
        "the bar is left on screen:\n{}",
        lines.join("\n")
    );
    std::fs::write(
        tmp.path().join("zzz-last.txt"),
        "https://example.org/a\u{202E}b and https://example.org/c\u{200B}d\n",
    )
    .unwrap();
    let (output, _) = on_terminal(&script, &format!("check -j 1 '{dir}'"));
    assert!(shows_bar(&output, n + 1), "no bar:\n{output}");
    let lines = screen(&output);
    let text = lines.join("\n");
    assert!(text.contains("bidi-formatting-character"), "{text}");
    assert!(text.contains("invisible-character"), "{text}");
    assert!(
        lines.iter().all(|l| !l.contains(" files · ")),
        "the bar is left on screen:\n{text}"
    );
    // The same with --fix's report and --diff's hunks, streamed as the files are fixed (in a
    // copy, so that the files stay as they are for what follows).
    for (mode, shown) in [("--diff", "example.org/c"), ("--fix", "Fixed 2 issues")] {
        let copy = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(tmp.path()).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), copy.path().join(entry.file_name())).unwrap();
        }
        let (output, _) = on_terminal(
            &script,
            &format!(
                "check -j 1 {mode} --unsafe-fixes '{}'",
                copy.path().display()
            ),
        );
        let lines = screen(&output);
        let text = lines.join("\n");
        assert!(text.contains(shown), "{mode}: {text}");
        assert!(
            lines.iter().all(|l| !l.contains(" files · ")),
            "{mode}: the bar is left on screen:\n{text}"
        );
    }

    // The same run in a machine format, or with --quiet, on the same terminal: no bar.
    for extra in ["--format sarif", "--quiet"] {
        let (output, _) = on_terminal(&script, &format!("check -j 1 {extra} '{dir}'"));
        assert!(!shows_bar(&output, n), "{extra}:\n{output}");
    }
    // Standard error a pipe: nothing on it at all.
    let out = assert_cmd::Command::cargo_bin("irilint")
        .unwrap()
        .args(["check", "-j", "1", &dir])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// The lines a terminal shows after `output` (a pseudo-terminal's bytes): text written at the
/// cursor, `\r`, `\n`, and the CSI sequences a progress bar uses (erase in line, cursor up and
/// down, column); others (colours, cursor visibility) change nothing on screen.
fn screen(output: &str) -> Vec<String> {
    let mut lines: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut col) = (0usize, 0usize);
    let mut chars = output.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => col = 0,
            '\n' => row += 1,
            '\u{1b}' => {
                if chars.peek() != Some(&'[') {
                    chars.next();
                    continue;
                }
                chars.next();
                let mut params = String::new();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        last = c;
                        break;
                    }
                    params.push(c);
                }
                let n: usize = params.trim_start_matches('?').parse().unwrap_or(0);
                while lines.len() <= row {
                    lines.push(Vec::new());
                }
                match last {
                    'K' if n == 2 => lines[row].clear(),
                    'K' => lines[row].truncate(col),
                    'A' => row = row.saturating_sub(n.max(1)),
                    'B' => row += n.max(1),
                    'G' => col = n.saturating_sub(1),
                    'J' => lines.truncate(row + 1),
                    _ => {}
                }
            }
            c if c.is_control() => {}
            c => {
                while lines.len() <= row {
                    lines.push(Vec::new());
                }
                let line = &mut lines[row];
                while line.len() < col {
                    line.push(' ');
                }
                if col < line.len() {
                    line[col] = c;
                } else {
                    line.push(c);
                }
                col += 1;
            }
        }
    }
    lines
        .into_iter()
        .map(|l| l.into_iter().collect::<String>().trim_end().to_string())
        .collect()
}
