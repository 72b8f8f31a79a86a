//! The hook of `.pre-commit-hooks.yaml`, run by the real pre-commit (PyPI, installed by
//! `.ci/run`) with `pre-commit try-repo` on this repository, in a temporary git repository:
//! a staged page with a hidden U+202E fails and names the rule, a clean page and an excluded
//! one (`--force-exclude`) pass. Also: the hook's `files` pattern takes exactly the extensions
//! irilint reads.
//!
//! `try-repo` clones this repository at HEAD (with uncommitted changes to tracked files in a
//! shadow commit) and builds the hook with `cargo install` — a release build, so this test takes
//! minutes the first time; the build directory is kept in `CARGO_TARGET_TMPDIR` for the next.

mod consumers;

use std::path::{Path, PathBuf};
use std::process::Command;

use irilint::source::Format;

const MANIFEST: &str = ".pre-commit-hooks.yaml";

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `git` in `dir`, which must succeed.
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// `pre-commit try-repo <this repository> irilint --files <files>` in `dir`: (success, output).
fn try_repo(pre_commit: &Path, dir: &Path, files: &[&str]) -> (bool, String) {
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pre-commit-hook");
    let out = Command::new(pre_commit)
        .arg("try-repo")
        .arg(repo_root())
        .arg("irilint")
        .arg("--verbose")
        .arg("--files")
        .args(files)
        .current_dir(dir)
        // pre-commit's own cache (try-repo keeps its hook environments in a temporary store).
        .env("PRE_COMMIT_HOME", cache.join("home"))
        // `cargo install` builds here, so that the second run reuses the dependencies.
        .env("CARGO_TARGET_DIR", cache.join("target"))
        .env("PRE_COMMIT_COLOR", "never")
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("pre-commit runs");
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), output)
}

#[test]
fn pre_commit_runs_the_hook_from_this_repository() {
    let Some(pre_commit) = consumers::require(consumers::pre_commit(), "pre-commit") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    git(dir, &["init", "--quiet"]);
    git(dir, &["config", "user.email", "test@example.org"]);
    git(dir, &["config", "user.name", "irilint tests"]);
    let trojan = "<a href=\"https://example.org/\u{202E}gnp.exe\">invoice</a>\n";
    std::fs::create_dir_all(dir.join("vendor")).unwrap();
    std::fs::write(dir.join("page.html"), trojan).unwrap();
    std::fs::write(dir.join("vendor/copied.html"), trojan).unwrap();
    std::fs::write(
        dir.join("clean.md"),
        "[home](https://example.org/) and https://例え.テスト/\n",
    )
    .unwrap();
    std::fs::write(dir.join("irilint.toml"), "extend-exclude = [\"vendor/\"]\n").unwrap();
    git(dir, &["add", "--all"]);

    let (passed, output) = try_repo(&pre_commit, dir, &["page.html"]);
    eprintln!("{output}");
    assert!(!passed, "the hook passed a hidden U+202E:\n{output}");
    assert!(output.contains("bidi-formatting-character"), "{output}");
    assert!(output.contains("page.html"), "{output}");
    assert!(
        !output.contains('\u{202E}'),
        "the hook's output shows the U+202E raw:\n{output}"
    );

    // The excluded copy passes only because of --force-exclude: named alone, it fails.
    let alone = assert_cmd::Command::cargo_bin("irilint")
        .unwrap()
        .args(["check", "vendor/copied.html"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(alone.status.code(), Some(1));
    let (passed, output) = try_repo(&pre_commit, dir, &["clean.md", "vendor/copied.html"]);
    assert!(passed, "a clean page and an excluded one failed:\n{output}");
    assert!(output.contains("Passed"), "{output}");
}

/// The extensions of the README's table of formats, and a few it does not name.
fn candidate_extensions() -> Vec<String> {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| format | extensions |"))
        .take_while(|l| l.starts_with('|'))
        .collect();
    let mut exts: Vec<String> = table
        .iter()
        .flat_map(|l| l.split('`'))
        .filter_map(|w| w.strip_prefix('.'))
        .filter(|w| w.chars().all(|c| c.is_ascii_alphanumeric()))
        .map(str::to_string)
        .collect();
    assert!(
        exts.len() > 20,
        "the README's table was not found: {exts:?}"
    );
    for other in [
        "rs", "py", "json", "asc", "rstx", "htmlx", "xmlx", "mdown", "txt.bak",
    ] {
        exts.push(other.to_string());
    }
    let upper: Vec<String> = exts.iter().map(|e| e.to_ascii_uppercase()).collect();
    exts.extend(upper);
    exts
}

#[test]
fn the_hook_takes_exactly_the_files_irilint_reads() {
    let manifest = std::fs::read_to_string(repo_root().join(MANIFEST)).unwrap();
    assert!(manifest.contains("\n- id: irilint\n"), "{manifest}");
    assert!(manifest.contains("\n  entry: irilint check --force-exclude\n"));
    assert!(manifest.contains("\n  language: rust\n"));
    assert!(manifest.contains("\n  require_serial: false\n"));
    let pattern = manifest
        .lines()
        .find_map(|l| l.strip_prefix("  files: "))
        .expect("a files pattern");
    // Python's `re` and the `regex` crate read this pattern alike (no look-around, no escapes
    // beyond `\.`).
    let files = regex::Regex::new(pattern).unwrap();
    for ext in candidate_extensions() {
        let name = format!("dir.md/file.{ext}");
        let reads = Format::from_path(Path::new(&name)).is_some();
        assert_eq!(files.is_match(&name), reads, "{name}");
    }
}
