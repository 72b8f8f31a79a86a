//! The language server against a real LSP client: pytest-lsp (PyPI), announcing the
//! capabilities Neovim, VS Code and Emacs send (`tests/editors/test_lsp_clients.py`).
//! `.ci/run` installs pytest-lsp; under `CI=true` a missing client fails this test instead of
//! skipping it.

use std::process::Command;

fn have_pytest_lsp() -> bool {
    Command::new("python3")
        .args(["-c", "import pytest_lsp"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn editors_capabilities_through_pytest_lsp() {
    if !have_pytest_lsp() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI=true but pytest-lsp is missing: `.ci/run` installs it (pip install -r tests/editors/requirements.txt)"
        );
        eprintln!(
            "skipped: pytest-lsp is not installed (pip install -r tests/editors/requirements.txt)"
        );
        return;
    }
    let out = Command::new("python3")
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/editors",
        ])
        .env("IRILINT_BIN", env!("CARGO_BIN_EXE_irilint"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("3 passed"), "{stdout}");
}
