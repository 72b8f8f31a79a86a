//! irilint's Python distribution (`python/pyproject.toml`, maturin with `bindings = "bin"`):
//! the sdist holds the crate and nothing else of the repository, the wheel built from it carries
//! a manylinux tag (the one maturin's audit of the binary's glibc symbols chose), and installed
//! into a fresh virtual environment, with no index and no compiler, it gives an `irilint` command
//! that reports on the fixtures what the binary under test reports.
//! maturin comes from PyPI (`tests/consumers/requirements.txt`, installed by `.ci/run`).

mod consumers;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

const VERSION: &str = env!("CARGO_PKG_VERSION");

#[test]
fn the_sdist_holds_the_crate_and_builds_a_manylinux_wheel() {
    let Some(built) = consumers::wheel::built() else {
        return;
    };
    let list = Command::new("tar")
        .arg("tzf")
        .arg(&built.sdist)
        .output()
        .unwrap();
    assert!(list.status.success());
    let files: Vec<String> = String::from_utf8(list.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let top = format!("irilint-{VERSION}/");
    for needed in [
        "pyproject.toml",
        "PKG-INFO",
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "src/main.rs",
        "src/lib.rs",
        "rules/bidi-formatting-character.md",
    ] {
        assert!(
            files.contains(&format!("{top}{needed}")),
            "{needed} missing from the sdist: {files:#?}"
        );
    }
    // Only the crate's own files (Cargo.toml's `include`): no test data, no virtual environment,
    // no README of another directory.
    for file in &files {
        let inside = file.strip_prefix(&top).expect("one top directory");
        assert!(
            inside.starts_with("src/")
                || inside.starts_with("rules/")
                || [
                    "pyproject.toml",
                    "PKG-INFO",
                    "Cargo.toml",
                    "Cargo.lock",
                    "README.md"
                ]
                .contains(&inside),
            "{file} should not be in the sdist"
        );
    }

    // `irilint-0.1.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl`, or another
    // manylinux_2_N: a plain `linux` tag would mean the audit refused every manylinux policy.
    let name = built.wheel.file_name().unwrap().to_str().unwrap();
    let tags = name
        .strip_prefix(&format!("irilint-{VERSION}-py3-none-"))
        .and_then(|t| t.strip_suffix(".whl"))
        .unwrap_or_else(|| panic!("{name}"));
    let arch = std::env::consts::ARCH;
    let manylinux = regex::Regex::new(&format!(r"^manylinux_2_[0-9]+_{arch}$")).unwrap();
    assert!(
        tags.split('.').any(|tag| manylinux.is_match(tag)),
        "{name}: not a manylinux wheel"
    );
}

#[test]
fn a_fresh_virtual_environment_gets_a_working_irilint_from_the_wheel() {
    let Some(built) = consumers::wheel::built() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let venv = dir.path().join("venv");
    let start = Instant::now();
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .unwrap();
    assert!(made.success());
    let created = start.elapsed();
    // No index: the wheel alone, so nothing can be fetched, and nothing is compiled.
    let install = Command::new(venv.join("bin/python"))
        .args([
            "-m",
            "pip",
            "install",
            "--no-index",
            "--disable-pip-version-check",
            "--quiet",
        ])
        .arg(&built.wheel)
        .output()
        .unwrap();
    assert!(install.status.success(), "{install:?}");
    eprintln!(
        "fresh virtual environment: created in {:.1} s, irilint installed in {:.1} s more",
        created.as_secs_f64(),
        (start.elapsed() - created).as_secs_f64()
    );

    let irilint = venv.join("bin/irilint");
    let version = Command::new(&irilint).arg("--version").output().unwrap();
    assert!(version.status.success(), "{version:?}");
    assert_eq!(
        String::from_utf8(version.stdout).unwrap().trim(),
        format!("irilint {VERSION}")
    );

    // The fixtures: the same report as the binary under test (errors on purpose, exit 1).
    let report = |program: &Path| {
        let out = Command::new(program)
            .args(["check", "--format", "json", "-j1", "fixtures"])
            .current_dir(repo_root())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let installed = report(&irilint);
    assert!(
        installed.contains("\"rule\":\"bidi-formatting-character\"")
            || installed.contains("\"rule\": \"bidi-formatting-character\""),
        "{installed}"
    );
    assert_eq!(
        installed,
        report(Path::new(env!("CARGO_BIN_EXE_irilint"))),
        "the installed irilint reports otherwise than the binary under test"
    );
}
