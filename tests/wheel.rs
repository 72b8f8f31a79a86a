//! irilint's Python distribution (`python/pyproject.toml`, maturin with `bindings = "bin"`):
//! the sdist holds the crate and nothing else of the repository, the wheel built from it carries
//! a manylinux tag (the one maturin's audit of the binary's glibc symbols chose), and installed
//! into a fresh virtual environment, with no index and no compiler, it gives an `irilint` command
//! that reports on the fixtures what the binary under test reports.
//! maturin comes from PyPI (`tests/consumers/requirements.txt`, installed by `.ci/run`).

mod consumers;

use std::path::{Path, PathBuf};
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
    // PyPI's links beside the project: its core metadata's Project-URL fields.
    let out = Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.read(next(n for n in z.namelist() if n.endswith('.dist-info/METADATA'))).decode())",
        ])
        .arg(&built.wheel)
        .output()
        .unwrap();
    let metadata = String::from_utf8(out.stdout).unwrap();
    for label in ["Homepage", "Documentation", "Repository", "Changelog"] {
        assert!(
            metadata
                .lines()
                .any(|l| l.starts_with(&format!("Project-URL: {label}, https://"))),
            "no {label} in\n{metadata}"
        );
    }
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

/// `uv tool install` and `pipx install` give the `irilint` command from the wheel too, without an
/// index and without compiling.
#[test]
fn uv_and_pipx_install_the_wheel_as_a_command() {
    let Some(built) = consumers::wheel::built() else {
        return;
    };
    let (Some(uv), Some(pipx)) = (
        consumers::require(consumers::uv(), "uv"),
        consumers::require(consumers::pipx(), "pipx"),
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let home = |name: &str| dir.path().join(name);
    let installs = [
        (
            Command::new(&uv)
                .args(["tool", "install", "--offline"])
                .arg(&built.wheel)
                .env("UV_TOOL_DIR", home("uv-tools"))
                .env("UV_TOOL_BIN_DIR", home("uv-bin"))
                .env("UV_CACHE_DIR", home("uv-cache"))
                .output()
                .unwrap(),
            home("uv-bin/irilint"),
        ),
        (
            Command::new(&pipx)
                .arg("install")
                .arg(&built.wheel)
                .env("PIPX_HOME", home("pipx"))
                .env("PIPX_BIN_DIR", home("pipx-bin"))
                .env("PIP_NO_INDEX", "1")
                .output()
                .unwrap(),
            home("pipx-bin/irilint"),
        ),
    ];
    for (install, irilint) in installs {
        assert!(install.status.success(), "{install:?}");
        let version = Command::new(&irilint).arg("--version").output().unwrap();
        assert!(version.status.success(), "{version:?}");
        assert_eq!(
            String::from_utf8(version.stdout).unwrap().trim(),
            format!("irilint {VERSION}")
        );
    }
}

/// The steps of `action.yml` (`name`, `run`, `uses`, `with`, `env`, `if`), read with PyYAML
/// (pre-commit's dependency, in the consumers' virtual environment).
fn action_steps(action: &Path) -> Vec<serde_json::Value> {
    let python = consumers::dir().join(".venv/bin/python");
    let python = if python.is_file() {
        python
    } else {
        "python3".into()
    };
    let out = Command::new(python)
        .args([
            "-c",
            "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))['runs']['steps']))",
        ])
        .arg(action)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice::<serde_json::Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// What one run of the action's steps did.
struct ActionRun {
    /// Each `run` step's (name, exit code, stdout + stderr), until the first that failed.
    steps: Vec<(String, i32, String)>,
    /// The `with` of the SARIF upload, if it was reached, expressions substituted.
    sarif_upload: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Runs the `run` steps of `action.yml` as a Linux x86_64 runner would, with the release
/// downloaded from `server` (a `file://` URL: curl reads it as it reads GitHub's), the action
/// (`action`, a copy of action.yml) used as `owner/irilint@v{VERSION}` and `paths` as its
/// input. `uses` steps are not run: their `with` is returned with the expressions it names
/// substituted.
fn run_action(server: &str, runner: &Path, paths: &str, action: &Path) -> ActionRun {
    let temp = runner.join("temp");
    std::fs::create_dir_all(&temp).unwrap();
    let github_path = runner.join("github_path");
    let github_output = runner.join("github_output");
    std::fs::write(&github_path, "").unwrap();
    let mut outputs: std::collections::HashMap<String, String> = Default::default();
    let mut run = ActionRun {
        steps: Vec::new(),
        sarif_upload: None,
    };
    let expressions = |text: &str, outputs: &std::collections::HashMap<String, String>| {
        let mut text = text.to_string();
        for (expression, value) in [
            ("${{ inputs.version }}", ""),
            ("${{ inputs.paths }}", paths),
            ("${{ inputs.args }}", "--jobs 1"),
            ("${{ inputs.sarif-category }}", "irilint"),
            ("${{ github.action_ref }}", &format!("v{VERSION}")),
            ("${{ github.action_repository }}", "owner/irilint"),
            ("${{ github.server_url }}", server),
        ] {
            text = text.replace(expression, value);
        }
        for (name, value) in outputs {
            text = text.replace(&format!("${{{{ steps.{name} }}}}"), value);
        }
        assert!(
            !text.contains("${{"),
            "an expression the test does not know: {text}"
        );
        text
    };
    for step in action_steps(action) {
        let name = step["name"].as_str().unwrap_or("").to_string();
        if let Some(condition) = step.get("if").and_then(|c| c.as_str()) {
            assert_eq!(condition, "inputs.upload-sarif == 'true'", "{name}");
        }
        if let Some(uses) = step.get("uses").and_then(|u| u.as_str()) {
            assert!(
                uses.starts_with("github/codeql-action/upload-sarif@"),
                "{uses}"
            );
            let with = step["with"].as_object().unwrap().clone();
            let with = with
                .into_iter()
                .map(|(k, v)| {
                    let v = expressions(v.as_str().unwrap(), &outputs);
                    (k, serde_json::Value::String(v))
                })
                .collect();
            run.sarif_upload = Some(with);
            continue;
        }
        assert_eq!(step["shell"].as_str(), Some("bash"), "{name}");
        std::fs::write(&github_output, "").unwrap();
        let added: Vec<PathBuf> = std::fs::read_to_string(&github_path)
            .unwrap()
            .lines()
            .map(PathBuf::from)
            .collect();
        let mut path = added;
        path.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap()));
        let mut command = Command::new("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c"])
            .arg(step["run"].as_str().unwrap())
            .current_dir(repo_root())
            .env("PATH", std::env::join_paths(path).unwrap())
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("RUNNER_TEMP", &temp)
            .env("GITHUB_PATH", &github_path)
            .env("GITHUB_OUTPUT", &github_output);
        if let Some(env) = step.get("env").and_then(|e| e.as_object()) {
            for (key, value) in env {
                command.env(key, expressions(value.as_str().unwrap(), &outputs));
            }
        }
        let out = command.output().unwrap();
        let code = out.status.code().unwrap_or(-1);
        run.steps.push((name, code, text(&out)));
        if let Some(id) = step.get("id").and_then(|i| i.as_str()) {
            for line in std::fs::read_to_string(&github_output).unwrap().lines() {
                let (key, value) = line.split_once('=').unwrap();
                outputs.insert(format!("{id}.outputs.{key}"), value.to_string());
            }
        }
        if code != 0 {
            break;
        }
    }
    run
}

fn text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The release archive of this platform's wheel (`.github/scripts/archive_binary.py`, as the
/// release workflow makes it) is what `action.yml`, pinned to it, downloads, checks and runs: a
/// SARIF report for the upload, then annotations and a failed step on the fixtures' errors. An
/// archive whose SHA-256 is not the pinned one stops it before anything is installed.
#[test]
fn the_action_installs_the_release_archive_of_the_wheel_and_reports() {
    if !(cfg!(target_os = "linux") && std::env::consts::ARCH == "x86_64") {
        eprintln!("SKIPPED: the action's test runs as a Linux x86_64 runner");
        return;
    }
    let Some(built) = consumers::wheel::built() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let server = tmp.path().join("server");
    let release = server.join(format!("owner/irilint/releases/download/v{VERSION}"));
    let target = "x86_64-unknown-linux-gnu";
    let out = Command::new("python3")
        .arg(repo_root().join(".github/scripts/archive_binary.py"))
        .arg(&built.wheel)
        .arg(target)
        .arg(&release)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let archive = format!("irilint-{target}.tar.gz");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{archive}\n{archive}.sha256\n")
    );
    // The archive holds the binary alone, executable, at its top.
    let listing = Command::new("tar")
        .args(["tvzf"])
        .arg(release.join(&archive))
        .output()
        .unwrap();
    let listing = String::from_utf8(listing.stdout).unwrap();
    assert_eq!(listing.lines().count(), 1, "{listing}");
    assert!(listing.starts_with("-rwxr-xr-x"), "{listing}");
    assert!(listing.trim_end().ends_with(" irilint"), "{listing}");

    // The release commit's action.yml: this version and the archive's SHA-256 pinned, as the
    // release workflow writes them (.github/scripts/pin_action.py).
    let action = tmp.path().join("action.yml");
    std::fs::copy(repo_root().join("action.yml"), &action).unwrap();
    let sums = tmp.path().join("SHA256SUMS");
    std::fs::copy(release.join(format!("{archive}.sha256")), &sums).unwrap();
    let out = Command::new("python3")
        .arg(repo_root().join(".github/scripts/pin_action.py"))
        .arg(VERSION)
        .arg(&sums)
        .arg(&action)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let server_url = format!("file://{}", server.display());
    let run = run_action(&server_url, &tmp.path().join("runner"), "fixtures", &action);
    let codes: Vec<i32> = run.steps.iter().map(|s| s.1).collect();
    assert_eq!(codes, [0, 0, 1], "{:#?}", run.steps);
    let (_, _, install) = &run.steps[0];
    assert!(install.contains(&format!("irilint {VERSION}")), "{install}");
    assert!(
        install.contains(", as pinned"),
        "the checksum was not checked: {install}"
    );
    let (_, _, annotate) = &run.steps[2];
    assert!(
        annotate.contains("::error file=fixtures/")
            && annotate.contains("bidi-formatting-character"),
        "{annotate}"
    );
    let upload = run.sarif_upload.expect("the SARIF upload step");
    let sarif_file = upload["sarif_file"].as_str().unwrap();
    assert_eq!(upload["category"].as_str(), Some("irilint"));
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sarif_file).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(
        !sarif["runs"][0]["results"].as_array().unwrap().is_empty(),
        "no results in {sarif_file}"
    );

    // A tampered archive (its checksum no longer matches) is refused, nothing installed.
    let mut bytes = std::fs::read(release.join(&archive)).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(release.join(&archive), bytes).unwrap();
    let run = run_action(
        &server_url,
        &tmp.path().join("runner2"),
        "fixtures",
        &action,
    );
    assert_eq!(run.steps.len(), 1, "{:#?}", run.steps);
    assert_ne!(run.steps[0].1, 0, "{:#?}", run.steps);
    assert!(run.steps[0].2.contains("not installed"), "{:#?}", run.steps);
}
