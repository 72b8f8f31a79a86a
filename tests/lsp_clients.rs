//! The language server against a real LSP client: pytest-lsp (PyPI), announcing the
//! capabilities Neovim, VS Code and Emacs send (`tests/editors/test_lsp_clients.py`): quick
//! fixes and hover, and a saved `irilint.toml` applied without a restart.
//! `.ci/run` installs pytest-lsp under `tests/consumers/`; in CI a missing client fails this
//! test instead of skipping it.

mod consumers;

use std::process::Command;

#[test]
fn editors_capabilities_through_pytest_lsp() {
    let Some(python) = consumers::require(consumers::pytest_lsp_python(), "pytest-lsp") else {
        return;
    };
    let out = Command::new(python)
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
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("6 passed"), "{stdout}");
}
