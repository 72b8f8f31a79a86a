//! The hooks of `.pre-commit-hooks.yaml`. `irilint` is run by the real pre-commit (PyPI,
//! installed by `.ci/run`) with `pre-commit try-repo` on this repository, in a temporary git
//! repository: a staged page with a hidden U+202E fails and names the rule, a clean page and an
//! excluded one (`--force-exclude`) pass. The hook is `language: python`: pre-commit installs the
//! repository root's `pyproject.toml`, which depends on irilint's wheel; here pip is given no
//! index, only the wheel the tests build (`consumers::wheel`, shared with `tests/wheel.rs`) and
//! the setuptools wheel virtualenv carries, and no Rust toolchain on `PATH`, so the hook installs
//! without compiling, as it does from PyPI. Also: the hooks' `files` pattern takes exactly the
//! extensions irilint reads, and the version the hook installs is the crate's.

mod consumers;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

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

/// `PATH` without the directories that hold cargo or rustc: a hook that tried to compile fails.
fn path_without_rust() -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| !d.join("cargo").exists() && !d.join("rustc").exists())
        .collect();
    std::env::join_paths(kept).unwrap()
}

/// The wheels pip may install from: irilint's, and setuptools' (the build backend of the root
/// `pyproject.toml`), which virtualenv, pre-commit's own dependency, carries to seed new
/// environments.
fn wheel_links(pre_commit: &Path, wheel: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    std::fs::copy(wheel, to.join(wheel.file_name().unwrap())).unwrap();
    let python = pre_commit.with_file_name("python");
    let out = Command::new(if python.is_file() {
        python
    } else {
        "python3".into()
    })
    .args([
        "-c",
        "import os, virtualenv.seed.wheels.embed as e; print(os.path.dirname(e.__file__))",
    ])
    .output()
    .unwrap();
    assert!(out.status.success(), "virtualenv's seed wheels: {out:?}");
    let embed = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    let setuptools: Vec<PathBuf> = std::fs::read_dir(&embed)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("setuptools-") && name.ends_with(".whl")
        })
        .collect();
    assert!(
        !setuptools.is_empty(),
        "no setuptools wheel in {}",
        embed.display()
    );
    for file in setuptools {
        std::fs::copy(&file, to.join(file.file_name().unwrap())).unwrap();
    }
}

/// `pre-commit try-repo <this repository> irilint --files <files>` in `dir`, with pip limited to
/// the wheels of `links` and no Rust toolchain: (success, output).
fn try_repo(
    pre_commit: &Path,
    dir: &Path,
    links: &Path,
    home: &Path,
    files: &[&str],
) -> (bool, String) {
    let out = Command::new(pre_commit)
        .arg("try-repo")
        .arg(repo_root())
        .arg("irilint")
        .arg("--verbose")
        .arg("--files")
        .args(files)
        .current_dir(dir)
        // pre-commit's own store (try-repo keeps its hook environments there).
        .env("PRE_COMMIT_HOME", home)
        .env("PRE_COMMIT_COLOR", "never")
        .env("PIP_NO_INDEX", "1")
        .env("PIP_FIND_LINKS", links)
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .env("PATH", path_without_rust())
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
    let Some(built) = consumers::wheel::built() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let links = tmp.path().join("wheels");
    wheel_links(&pre_commit, &built.wheel, &links);
    let home = tmp.path().join("pre-commit-home");
    let dir = &tmp.path().join("project");
    std::fs::create_dir(dir).unwrap();
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

    // The first run installs the hook (a fresh store): seconds, from the wheel.
    let start = Instant::now();
    let (passed, output) = try_repo(&pre_commit, dir, &links, &home, &["page.html"]);
    eprintln!("{output}");
    eprintln!(
        "pre-commit installed and ran the hook in {:.1} s",
        start.elapsed().as_secs_f64()
    );
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
    let (passed, output) = try_repo(
        &pre_commit,
        dir,
        &links,
        &home,
        &["clean.md", "vendor/copied.html"],
    );
    assert!(passed, "a clean page and an excluded one failed:\n{output}");
    assert!(output.contains("Passed"), "{output}");

    // Many files: pre-commit runs the hook on batches of them in parallel, and no batch prints
    // a summary that counts only its own files; the findings are all there.
    let mut files = vec!["page.html".to_string()];
    for i in 0..60 {
        let name = format!("doc{i:02}.md");
        std::fs::write(
            dir.join(&name),
            format!("[p{i}](https://example.org/{i})\n"),
        )
        .unwrap();
        files.push(name);
    }
    std::fs::write(dir.join("zz.md"), "<https://example.org/a\u{200B}b>\n").unwrap();
    files.push("zz.md".into());
    git(dir, &["add", "--all"]);
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let (passed, output) = try_repo(&pre_commit, dir, &links, &home, &names);
    assert!(!passed, "{output}");
    assert!(output.contains("bidi-formatting-character"), "{output}");
    assert!(output.contains("invisible-character"), "{output}");
    assert!(
        !output.contains("No problems found") && !output.contains("IRIs checked"),
        "a batch's partial summary:\n{output}"
    );
}

/// The extensions of the table of formats (the book's Formats page), and a few it does not name.
fn candidate_extensions() -> Vec<String> {
    let readme = std::fs::read_to_string(repo_root().join("docs/src/formats.md")).unwrap();
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
        "the Formats page's table was not found: {exts:?}"
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

/// The hooks of the manifest, each as its `key: value` lines.
fn hooks() -> Vec<Vec<(String, String)>> {
    let manifest = std::fs::read_to_string(repo_root().join(MANIFEST)).unwrap();
    let mut hooks: Vec<Vec<(String, String)>> = Vec::new();
    for line in manifest.lines() {
        if let Some(id) = line.strip_prefix("- id: ") {
            hooks.push(vec![("id".into(), id.into())]);
        } else if let Some((key, value)) = line.strip_prefix("  ").and_then(|l| l.split_once(": "))
            && !key.starts_with(' ')
            && !key.starts_with('#')
        {
            hooks
                .last_mut()
                .expect("a hook")
                .push((key.into(), value.into()));
        }
    }
    hooks
}

fn field<'a>(hook: &'a [(String, String)], key: &str) -> &'a str {
    hook.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {key} in {hook:?}"))
}

#[test]
fn the_hooks_install_the_wheel_or_build_with_cargo() {
    let hooks = hooks();
    let ids: Vec<&str> = hooks.iter().map(|h| field(h, "id")).collect();
    assert_eq!(ids, ["irilint", "irilint-src"]);
    assert_eq!(field(&hooks[0], "language"), "python");
    assert_eq!(field(&hooks[1], "language"), "rust");
    for key in ["entry", "files", "types", "require_serial"] {
        assert_eq!(field(&hooks[0], key), field(&hooks[1], key), "{key}");
    }
    assert_eq!(
        field(&hooks[0], "entry"),
        "irilint check --force-exclude --quiet"
    );
    assert_eq!(field(&hooks[0], "require_serial"), "false");
}

/// The python hook installs `irilint==` the crate's version: the tag `vX.Y.Z` of a release
/// installs the wheel that release published.
#[test]
fn the_python_hook_installs_this_version_of_irilint() {
    let text = std::fs::read_to_string(repo_root().join("pyproject.toml")).unwrap();
    let pyproject: toml::Table = toml::from_str(&text).unwrap();
    let dependencies = pyproject["project"]["dependencies"].as_array().unwrap();
    let pins: Vec<&str> = dependencies.iter().filter_map(|d| d.as_str()).collect();
    assert_eq!(pins, [format!("irilint=={}", env!("CARGO_PKG_VERSION"))]);
    // And that is the package python/pyproject.toml builds (maturin takes Cargo.toml's version).
    let text = std::fs::read_to_string(repo_root().join("python/pyproject.toml")).unwrap();
    let package: toml::Table = toml::from_str(&text).unwrap();
    assert_eq!(package["project"]["name"].as_str(), Some("irilint"));
    assert_eq!(package["tool"]["maturin"]["bindings"].as_str(), Some("bin"));
}

#[test]
fn the_hook_takes_exactly_the_files_irilint_reads() {
    let hooks = hooks();
    let pattern = field(&hooks[0], "files");
    // Python's `re` and the `regex` crate read this pattern alike (no look-around, no escapes
    // beyond `\.`).
    let files = regex::Regex::new(pattern).unwrap();
    for ext in candidate_extensions() {
        let name = format!("dir.md/file.{ext}");
        let reads = Format::from_path(Path::new(&name)).is_some();
        assert_eq!(files.is_match(&name), reads, "{name}");
    }
}
