//! What a new user meets on a first run (issue X, the papercuts): the summary of a report
//! written to a file, `--stdin-filename` alone, a mistyped subcommand, hidden directories, what
//! cannot be read while walking, and a run that finds no document.

mod consumers;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn irilint() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_irilint"));
    cmd.env_remove("NO_COLOR");
    cmd
}

/// Runs irilint in `dir` and returns (exit code, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    parts(
        irilint()
            .current_dir(dir)
            .args(args)
            .output()
            .expect("runs"),
    )
}

fn parts(out: Output) -> (i32, String, String) {
    (
        out.status.code().expect("exited"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// A project with one error (a U+202E in a link) in `docs/a.md`.
fn project_with_an_error() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("docs")).unwrap();
    fs::write(
        dir.path().join("docs/a.md"),
        "[x](https://example.org/\u{202E}gnp.exe)\n",
    )
    .unwrap();
    dir
}

#[test]
fn a_report_written_to_a_file_still_says_on_stderr_why_the_run_failed() {
    let dir = project_with_an_error();
    for format in ["junit", "gitlab", "sarif", "json", "human"] {
        let (code, stdout, stderr) = run(
            dir.path(),
            &["check", "--format", format, "--output-file", "report.out"],
        );
        assert_eq!(code, 1, "{format}: {stderr}");
        assert!(stdout.is_empty(), "{format}: {stdout}");
        assert!(
            stderr.contains("Found 1 error in 1 file") && stderr.contains("report.out"),
            "{format}: {stderr}"
        );
        fs::remove_file(dir.path().join("report.out")).unwrap();
    }
    // --quiet keeps stderr quiet; `--output-file -` is standard output, where the summary is.
    let (_, _, stderr) = run(
        dir.path(),
        &[
            "check",
            "--quiet",
            "--format",
            "junit",
            "--output-file",
            "r.out",
        ],
    );
    assert!(stderr.is_empty(), "{stderr}");
    let (_, stdout, stderr) = run(dir.path(), &["check", "--output-file", "-"]);
    assert!(stdout.contains("Found 1 error"), "{stdout}");
    assert!(!stderr.contains("Found"), "{stderr}");
}

#[test]
fn stdin_filename_alone_reads_standard_input_not_the_directory() {
    let dir = project_with_an_error();
    let out = irilint()
        .current_dir(dir.path())
        .args([
            "check",
            "--format",
            "concise",
            "--stdin-filename",
            "page.md",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"[y](http://example.org/a\xE2\x80\x8Bb)\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let (code, stdout, stderr) = parts(out);
    assert_eq!(code, 1, "{stderr}");
    // Standard input's finding under its name; nothing of docs/a.md.
    assert!(
        stdout.starts_with("page.md:1:") && stdout.contains("invisible-character"),
        "{stdout}"
    );
    assert!(!stdout.contains("docs/a.md"), "{stdout}");
    // `list` agrees.
    let out = irilint()
        .current_dir(dir.path())
        .args(["list", "--stdin-filename", "page.md"])
        .stdin(fs::File::open(dir.path().join("docs/a.md")).unwrap())
        .output()
        .unwrap();
    let (_, stdout, _) = parts(out);
    assert!(stdout.contains("page.md"), "{stdout}");
}

#[test]
fn a_mistyped_subcommand_is_suggested_when_no_such_path_exists() {
    let dir = project_with_an_error();
    let (code, stdout, stderr) = run(dir.path(), &["chek"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("did you mean `check`?"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let (_, _, stderr) = run(dir.path(), &["rule"]);
    assert!(stderr.contains("did you mean `rules`?"), "{stderr}");
    let (_, _, stderr) = run(dir.path(), &["explian", "not-nfc"]);
    assert!(stderr.contains("did you mean `explain`?"), "{stderr}");
    // A path that exists is checked, whatever its name.
    fs::write(dir.path().join("chek"), "http://example.org/\u{202E}\n").unwrap();
    let (code, stdout, stderr) = run(dir.path(), &["chek"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("bidi-formatting-character"), "{stdout}");
    // A missing path like no subcommand is a missing path.
    let (code, _, stderr) = run(dir.path(), &["docs/missing.md"]);
    assert_eq!(code, 2);
    assert!(!stderr.contains("did you mean"), "{stderr}");
    assert!(stderr.contains("no such file or directory"), "{stderr}");
}

#[test]
fn hidden_directories_are_checked_as_named_files_are_and_version_control_ones_never() {
    let dir = project_with_an_error();
    let d = dir.path();
    fs::create_dir_all(d.join(".github/ISSUE_TEMPLATE")).unwrap();
    fs::write(
        d.join(".github/ISSUE_TEMPLATE/bug.md"),
        "[x](https://example.org/a\u{200B}b)\n",
    )
    .unwrap();
    fs::write(d.join(".notes.txt"), "http://example.org/\u{202E}\n").unwrap();
    fs::create_dir_all(d.join(".git")).unwrap();
    fs::write(d.join(".git/description.md"), "http://e.org/\u{202E}\n").unwrap();
    // A Python environment's installed packages are excluded by default, as node_modules/.
    fs::create_dir_all(d.join(".venv/lib/pkg")).unwrap();
    fs::write(d.join(".venv/lib/pkg/README.md"), "http://e.org/\u{202E}\n").unwrap();
    let paths = |args: &[&str]| -> Vec<String> {
        let mut full = vec!["check", "--format", "concise"];
        full.extend_from_slice(args);
        let (_, stdout, _) = run(d, &full);
        // The findings' paths (the last line is the summary).
        let mut paths: Vec<String> = stdout
            .lines()
            .filter(|l| !l.starts_with("Found ") && !l.starts_with("No problems"))
            .map(|l| l.split(':').next().unwrap().to_string())
            .collect();
        paths.dedup();
        paths
    };
    // The default: a CI run over the directory sees what pre-commit, naming the files, sees.
    let walked = paths(&[]);
    assert_eq!(
        walked,
        [
            "./.github/ISSUE_TEMPLATE/bug.md",
            "./.notes.txt",
            "./docs/a.md"
        ]
    );
    let named = paths(&[".github/ISSUE_TEMPLATE/bug.md", ".notes.txt", "docs/a.md"]);
    assert_eq!(
        named,
        [".github/ISSUE_TEMPLATE/bug.md", ".notes.txt", "docs/a.md"]
    );
    assert_eq!(paths(&["--hidden", "."]), walked);
    // --no-hidden skips them when walking; named, they are read.
    assert_eq!(paths(&["--no-hidden"]), ["./docs/a.md"]);
    assert_eq!(paths(&["--no-hidden", ".notes.txt"]), [".notes.txt"]);
}

/// Runs `irilint args` in `dir` as a user whom permissions stop: this user unless it is root,
/// else `nobody` through `setpriv`. `None` when neither is possible here.
fn run_unprivileged(dir: &Path, args: &[&str]) -> Option<(i32, String, String)> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some(run(dir, args));
    }
    let setpriv = Path::new("/usr/bin/setpriv");
    if !setpriv.exists() {
        return None;
    }
    let out = Command::new(setpriv)
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_irilint"))
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    Some(parts(out))
}

#[test]
fn what_cannot_be_read_while_walking_fails_the_run_with_one_message_naming_it_once() {
    use std::os::unix::fs::PermissionsExt;
    let dir = project_with_an_error();
    let d = dir.path();
    fs::write(d.join("docs/a.md"), "[x](https://example.org/)\n").unwrap();
    fs::create_dir(d.join("locked")).unwrap();
    fs::write(d.join("locked/b.md"), "x").unwrap();
    fs::write(d.join("secret.md"), "x").unwrap();
    // Readable by everyone but the two.
    fs::set_permissions(d, fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(d.join("docs"), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(d.join("docs/a.md"), fs::Permissions::from_mode(0o644)).unwrap();
    fs::set_permissions(d.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
    fs::set_permissions(d.join("secret.md"), fs::Permissions::from_mode(0o000)).unwrap();
    let result = run_unprivileged(d, &["check", "--exit-zero"]);
    fs::set_permissions(d.join("locked"), fs::Permissions::from_mode(0o755)).unwrap();
    let Some((code, stdout, stderr)) = result else {
        assert!(!consumers::in_ci(), "CI is set and setpriv is missing");
        eprintln!("SKIPPED: running as root without setpriv");
        return;
    };
    assert_eq!(code, 2, "{stdout}{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "irilint: error: ./locked: cannot read it: permission denied",
            "irilint: error: ./secret.md: cannot read file: permission denied",
        ],
        "{stderr}"
    );
    // The rest is still checked and reported.
    assert!(stdout.contains("in the 1 file"), "{stdout}");
}

#[test]
fn a_run_that_finds_no_document_says_so_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("notes.unknown"), "http://e.org/\u{202E}\n").unwrap();
    let (code, _, stderr) = run(dir.path(), &["check"]);
    assert_eq!(code, 0);
    assert!(stderr.contains("no file to check"), "{stderr}");
    // --quiet silences it; a run that reads a file does not say it.
    let (_, _, stderr) = run(dir.path(), &["check", "--quiet"]);
    assert!(stderr.is_empty(), "{stderr}");
    let (_, _, stderr) = run(dir.path(), &["check", "notes.unknown"]);
    assert!(!stderr.contains("no file to check"), "{stderr}");
}
