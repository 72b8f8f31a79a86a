//! A pull request controls every file irilint reads besides its arguments: configuration,
//! `extend`, baselines. Nothing it names may make irilint print a file from outside the
//! project (or the environment), hang, fill memory, or replace an input or a device with a
//! report. The real binary, in temporary directories.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// Runs irilint in `dir` with a secret in its environment; (code, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("IRILINT_TEST_SECRET", "s3cr3t-t0k3n")
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A project with a git directory (the scope `extend` must stay in) and a document.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join(".git")).unwrap();
    write(dir.path(), "a.txt", "http://a.example/x\n");
    dir
}

/// `text` with miette's wrapping undone: its margins dropped, its whitespace runs one space.
fn flat(text: &str) -> String {
    text.replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn assert_no_leak(out: &str) {
    assert!(!out.contains("s3cr3t"), "leaked the environment: {out}");
    assert!(!out.contains("PRIVATE"), "leaked a file's lines: {out}");
}

#[test]
fn extend_cannot_name_an_absolute_path_such_as_the_environment() {
    let dir = project();
    for target in [
        "/proc/self/environ",
        "/etc/passwd",
        "/proc/self/environ.toml",
    ] {
        write(
            dir.path(),
            "irilint.toml",
            &format!("extend = \"{target}\"\n"),
        );
        let (code, stdout, stderr) = run(dir.path(), &["check", "a.txt"]);
        assert_eq!(code, 2, "{target}: {stderr}");
        assert_eq!(stdout, "");
        assert_no_leak(&stderr);
        assert!(
            stderr.contains("`extend` must be a path relative to this file")
                || stderr.contains("`extend` must name a `.toml` file"),
            "{target}: {stderr}"
        );
    }
}

#[test]
fn extend_must_name_a_toml_file() {
    let dir = project();
    write(dir.path(), "secrets.env", "TOKEN=PRIVATE\n");
    write(dir.path(), "irilint.toml", "extend = \"secrets.env\"\n");
    let (code, _, stderr) = run(dir.path(), &["check", "a.txt"]);
    assert_eq!(code, 2);
    assert_no_leak(&stderr);
    assert!(stderr.contains("must name a `.toml` file"), "{stderr}");
}

#[test]
fn extend_cannot_leave_the_repository_by_dots_or_links() {
    let outer = tempfile::tempdir().unwrap();
    write(outer.path(), "outside.toml", "PRIVATE = \"x\" y\n");
    fs::create_dir(outer.path().join("repo")).unwrap();
    fs::create_dir(outer.path().join("repo/.git")).unwrap();
    let repo = outer.path().join("repo");
    write(&repo, "a.txt", "http://a.example/x\n");
    write(&repo, "irilint.toml", "extend = \"../outside.toml\"\n");
    let (code, _, stderr) = run(&repo, &["check", "a.txt"]);
    assert_eq!(code, 2, "{stderr}");
    assert_no_leak(&stderr);
    assert!(stderr.contains("leads outside the project"), "{stderr}");
    // A link inside the repository that points out of it is resolved first.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outer.path().join("outside.toml"), repo.join("in.toml"))
            .unwrap();
        write(&repo, "irilint.toml", "extend = \"in.toml\"\n");
        let (code, _, stderr) = run(&repo, &["check", "a.txt"]);
        assert_eq!(code, 2, "{stderr}");
        assert_no_leak(&stderr);
        assert!(stderr.contains("leads outside the project"), "{stderr}");
    }
    // Without a repository, the configuration's own directory is the limit.
    let bare = tempfile::tempdir().unwrap();
    write(bare.path(), "shared.toml", "ignore = [\"not-nfc\"]\n");
    write(
        bare.path(),
        "site/irilint.toml",
        "extend = \"../shared.toml\"\n",
    );
    write(bare.path(), "site/a.txt", "http://a.example/x\n");
    let (code, _, stderr) = run(&bare.path().join("site"), &["check", "a.txt"]);
    assert_eq!(code, 2, "{stderr}");
    // Inside the repository, `..` is fine to a file named as a configuration.
    fs::create_dir(bare.path().join(".git")).unwrap();
    let (code, _, stderr) = run(&bare.path().join("site"), &["check", "a.txt"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        flat(&stderr).contains("not named as a configuration file"),
        "{stderr}"
    );
    // Run from the repository's root, any file under it (in no hidden directory) will do.
    let (code, _, stderr) = run(bare.path(), &["check", "site/a.txt"]);
    assert_eq!(code, 0, "{stderr}");
    write(
        bare.path(),
        ".hidden/shared.toml",
        "ignore = [\"not-nfc\"]\n",
    );
    write(
        bare.path(),
        "site/irilint.toml",
        "extend = \"../.hidden/shared.toml\"\n",
    );
    let (code, _, stderr) = run(bare.path(), &["check", "site/a.txt"]);
    assert_eq!(code, 2, "{stderr}");
    for name in ["irilint.toml", "irilint-shared.toml", "pyproject.toml"] {
        let text = if name == "pyproject.toml" {
            "[tool.irilint]\nignore = [\"not-nfc\"]\n"
        } else {
            "ignore = [\"not-nfc\"]\n"
        };
        write(bare.path(), name, text);
        write(
            bare.path(),
            "site/irilint.toml",
            &format!("extend = \"../{name}\"\n"),
        );
        let (code, _, stderr) = run(&bare.path().join("site"), &["check", "a.txt"]);
        assert_eq!(code, 0, "{name}: {stderr}");
    }
}

/// A home directory kept in git, and a folder downloaded into it (no repository of its own).
fn home_with_credentials() -> (tempfile::TempDir, std::path::PathBuf) {
    let home = tempfile::tempdir().unwrap();
    fs::create_dir(home.path().join(".git")).unwrap();
    write(
        home.path(),
        ".cargo/credentials.toml",
        "[registry]\ntoken = \"cio_PRIVATE\"\n",
    );
    write(home.path(), ".config/app/config.toml", "PRIVATE = 1\n");
    let project = home.path().join("Downloads/project");
    write(&project, "a.txt", "http://a.example/x\n");
    (home, project)
}

#[test]
fn extend_cannot_climb_to_secrets_of_an_enclosing_repository() {
    let (home, project) = home_with_credentials();
    for target in [
        "../../.cargo/credentials.toml",
        "../../.config/app/config.toml",
    ] {
        write(
            &project,
            "irilint.toml",
            &format!("extend = \"{target}\"\n"),
        );
        for format in ["human", "github", "json"] {
            let (code, stdout, stderr) = run(&project, &["check", "--format", format, "a.txt"]);
            assert_eq!(code, 2, "{target}: {stderr}");
            assert_no_leak(&stdout);
            assert_no_leak(&stderr);
            assert!(
                flat(&stderr).contains("not named as a configuration file"),
                "{target}: {stderr}"
            );
        }
        // Run from the home directory: the secrets are in hidden directories.
        let (code, stdout, stderr) = run(home.path(), &["check", "Downloads/project/a.txt"]);
        assert_eq!(code, 2, "{target}: {stderr}");
        assert_no_leak(&stdout);
        assert_no_leak(&stderr);
    }
    // A link inside the folder that climbs to them is resolved first.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("../../.cargo/credentials.toml", project.join("base.toml"))
            .unwrap();
        write(&project, "irilint.toml", "extend = \"base.toml\"\n");
        let (code, _, stderr) = run(&project, &["check", "a.txt"]);
        assert_eq!(code, 2, "{stderr}");
        assert_no_leak(&stderr);
    }
}

#[cfg(unix)]
#[test]
fn a_found_configuration_that_links_out_of_the_project_is_refused_unquoted() {
    // Out of the repository altogether.
    let outer = tempfile::tempdir().unwrap();
    write(
        outer.path(),
        "home/.cargo/credentials.toml",
        "[registry]\ntoken = \"cio_PRIVATE\"\n",
    );
    let repo = outer.path().join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    write(&repo, "docs/a.txt", "http://a.example/x\n");
    std::os::unix::fs::symlink(
        "../home/.cargo/credentials.toml",
        repo.join(".irilint.toml"),
    )
    .unwrap();
    for (dir, path) in [
        (&repo, "."),
        (&repo, "docs/a.txt"),
        (&repo.join("docs"), "a.txt"),
    ] {
        for format in ["human", "github", "json", "sarif"] {
            let (code, stdout, stderr) = run(dir, &["check", "--format", format, path]);
            assert_eq!(code, 2, "{path} {format}: {stderr}");
            assert_no_leak(&stdout);
            assert_no_leak(&stderr);
            assert!(stderr.contains("symbolic link"), "{stderr}");
        }
    }
    // A valid configuration outside is not applied silently either.
    write(outer.path(), "other/irilint.toml", "ignore = [\"ALL\"]\n");
    fs::remove_file(repo.join(".irilint.toml")).unwrap();
    std::os::unix::fs::symlink("../other/irilint.toml", repo.join("irilint.toml")).unwrap();
    let (code, _, stderr) = run(&repo, &["check", "."]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("leads outside the project"), "{stderr}");
    // Above its directory in an enclosing repository, to a file not named as a configuration
    // (a folder downloaded into a home directory kept in git).
    let (_home, project) = home_with_credentials();
    std::os::unix::fs::symlink(
        "../../.cargo/credentials.toml",
        project.join("pyproject.toml"),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&project, &["check", "--format", "github", "."]);
    assert_eq!(code, 2, "{stderr}");
    assert_no_leak(&stdout);
    assert_no_leak(&stderr);
}

#[cfg(unix)]
#[test]
fn a_found_configuration_may_link_inside_the_project() {
    let repo = project();
    write(repo.path(), "config/irilint.toml", "ignore = [\"ALL\"]\n");
    write(repo.path(), "docs/a.txt", "http://a.example/\u{202e}x\n");
    // Below its directory: any name; above it: a configuration's name.
    std::os::unix::fs::symlink("config/irilint.toml", repo.path().join("irilint.toml")).unwrap();
    std::os::unix::fs::symlink("../irilint.toml", repo.path().join("docs/.irilint.toml")).unwrap();
    for path in [".", "docs/a.txt"] {
        let (code, _, stderr) = run(repo.path(), &["check", path]);
        assert_eq!(code, 0, "{path}: {stderr}");
    }
}

#[test]
fn a_file_that_is_not_toml_is_located_but_its_lines_are_not_shown() {
    let dir = project();
    write(
        dir.path(),
        "creds.toml",
        "[remote \"origin\"]\n\textraheader = AUTHORIZATION: basic PRIVATE\n",
    );
    write(dir.path(), "irilint.toml", "extend = \"creds.toml\"\n");
    let (code, _, stderr) = run(dir.path(), &["check", "a.txt"]);
    assert_eq!(code, 2);
    assert_no_leak(&stderr);
    assert!(stderr.contains("creds.toml:1:"), "{stderr}");
    assert!(stderr.contains("invalid TOML"), "{stderr}");
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_refused_at_once_not_read() {
    let dir = project();
    mkfifo(&dir.path().join("pipe.toml"));
    mkfifo(&dir.path().join("pipe.json"));
    fs::create_dir(dir.path().join("sub")).unwrap();
    let cases: &[(&str, &[&str])] = &[
        ("extend = \"pipe.toml\"\n", &["check", "a.txt"]),
        ("", &["check", "--config", "pipe.toml", "a.txt"]),
        ("", &["check", "--config", "/dev/zero", "a.txt"]),
        ("", &["check", "--baseline", "pipe.json", "a.txt"]),
        ("", &["check", "--baseline", "/dev/stdin", "a.txt"]),
        ("", &["check", "--baseline", "/dev/zero", "a.txt"]),
    ];
    for (config, args) in cases {
        if config.is_empty() {
            let _ = fs::remove_file(dir.path().join("irilint.toml"));
        } else {
            write(dir.path(), "irilint.toml", config);
        }
        let start = Instant::now();
        let (code, _, stderr) = run(dir.path(), args);
        assert!(start.elapsed() < Duration::from_secs(30), "{args:?} hung");
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("a FIFO") || stderr.contains("a device"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_configuration_or_baseline_too_large_is_refused() {
    let dir = project();
    let big = format!("# {}\n", "x".repeat(2 << 20));
    write(dir.path(), "big.toml", &big);
    write(dir.path(), "irilint.toml", "extend = \"big.toml\"\n");
    let (code, _, stderr) = run(dir.path(), &["check", "a.txt"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("larger than"), "{stderr}");
}

#[test]
fn the_report_never_replaces_an_input() {
    let dir = project();
    let doc = "see http://a.example/x\u{202E}y and http://b.example/ z\n";
    write(dir.path(), "in.txt", doc);
    fs::create_dir(dir.path().join("docs")).unwrap();
    write(dir.path(), "docs/page.md", doc);
    let cases: &[&[&str]] = &[
        &["check", "--output-file", "in.txt", "in.txt"],
        &["check", "--fix", "--output-file", "in.txt", "in.txt"],
        &["check", "--output-file", "./in.txt", "."],
        &["check", "--output-file", "docs/page.md", "docs"],
        &["check", "--write-baseline", "in.txt", "in.txt"],
    ];
    for args in cases {
        let (code, _, stderr) = run(dir.path(), args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("is one of the files being checked"),
            "{args:?}: {stderr}"
        );
        assert_eq!(fs::read_to_string(dir.path().join("in.txt")).unwrap(), doc);
        assert_eq!(
            fs::read_to_string(dir.path().join("docs/page.md")).unwrap(),
            doc
        );
    }
    #[cfg(unix)]
    {
        // Through a link too.
        std::os::unix::fs::symlink(dir.path().join("in.txt"), dir.path().join("out.txt")).unwrap();
        let (code, _, stderr) = run(dir.path(), &["check", "--output-file", "out.txt", "in.txt"]);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(fs::read_to_string(dir.path().join("in.txt")).unwrap(), doc);
    }
}

#[test]
fn the_report_never_replaces_a_baseline_a_configuration_or_the_file_piped_in() {
    let dir = project();
    let doc = "see http://a.example/x\u{202E}y\n";
    write(dir.path(), "in.txt", doc);
    let (code, _, stderr) = run(
        dir.path(),
        &["check", "--write-baseline", "bl.json", "in.txt"],
    );
    assert_eq!(code, 0, "{stderr}");
    let baseline = fs::read_to_string(dir.path().join("bl.json")).unwrap();
    let config = "ignore = [\"not-nfc\"]\n";
    write(dir.path(), "sub/irilint.toml", config);
    write(dir.path(), "sub/named.toml", config);
    write(dir.path(), "sub/base.toml", "extend-select = [\"style\"]\n");
    write(dir.path(), "sub/b.txt", "http://b.example/x\n");
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "check",
                "--baseline",
                "bl.json",
                "--output-file",
                "bl.json",
                "in.txt",
            ],
            "the --baseline file",
        ),
        (
            &[
                "check",
                "--baseline",
                "./bl.json",
                "--format",
                "json",
                "--output-file",
                "bl.json",
                "in.txt",
            ],
            "the --baseline file",
        ),
        (
            &[
                "check",
                "--fix",
                "--baseline",
                "bl.json",
                "--output-file",
                "bl.json",
                "in.txt",
            ],
            "the --baseline file",
        ),
        (
            &[
                "check",
                "--config",
                "sub/named.toml",
                "--output-file",
                "sub/named.toml",
                "in.txt",
            ],
            "a configuration file",
        ),
        (
            &["check", "--output-file", "sub/irilint.toml", "sub"],
            "a configuration file",
        ),
        (
            &["check", "--output-file", "sub/irilint.toml", "sub/b.txt"],
            "a configuration file",
        ),
        (
            &["check", "--write-baseline", "sub/irilint.toml", "sub/b.txt"],
            "a configuration file",
        ),
    ];
    for (args, what) in cases {
        let (code, _, stderr) = run(dir.path(), args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(what), "{args:?}: {stderr}");
        assert_eq!(
            fs::read_to_string(dir.path().join("bl.json")).unwrap(),
            baseline
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("sub/irilint.toml")).unwrap(),
            config
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("sub/named.toml")).unwrap(),
            config
        );
    }
    // A file reached through `extend` is read too.
    write(dir.path(), "sub/irilint.toml", "extend = \"base.toml\"\n");
    let (code, _, stderr) = run(
        dir.path(),
        &["check", "--output-file", "sub/base.toml", "sub/b.txt"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        fs::read_to_string(dir.path().join("sub/base.toml"))
            .unwrap()
            .contains("style")
    );
    // The file `--stdin-filename` names, piped in and asked for as the report.
    for extra in [&[][..], &["--fix"][..]] {
        let out = Command::cargo_bin("irilint")
            .unwrap()
            .current_dir(dir.path())
            .args([
                "check",
                "--stdin-filename",
                "in.txt",
                "--output-file",
                "in.txt",
            ])
            .args(extra)
            .arg("-")
            .write_stdin(doc)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("--stdin-filename"), "{stderr}");
        assert_eq!(fs::read_to_string(dir.path().join("in.txt")).unwrap(), doc);
    }
}

#[test]
fn output_file_dash_is_standard_output() {
    let dir = project();
    let (code, stdout, _) = run(
        dir.path(),
        &["check", "--format", "json", "--output-file", "-", "a.txt"],
    );
    assert_eq!(code, 0);
    assert!(stdout.contains("\"diagnostics\""), "{stdout}");
    assert!(!dir.path().join("-").exists());
}

#[test]
fn the_baseline_is_written_atomically_through_a_link() {
    let dir = project();
    write(dir.path(), "b.txt", "http://a.example/x\u{202E}y\n");
    fs::create_dir(dir.path().join("keep")).unwrap();
    write(dir.path(), "keep/base.json", "old");
    #[cfg(unix)]
    std::os::unix::fs::symlink("keep/base.json", dir.path().join("base.json")).unwrap();
    #[cfg(not(unix))]
    write(dir.path(), "base.json", "old");
    let (code, _, stderr) = run(
        dir.path(),
        &["check", "--write-baseline", "base.json", "b.txt"],
    );
    assert_eq!(code, 0, "{stderr}");
    let written = fs::read_to_string(dir.path().join("base.json")).unwrap();
    assert!(written.contains("bidi-formatting-character"), "{written}");
    #[cfg(unix)]
    {
        assert!(
            fs::symlink_metadata(dir.path().join("base.json"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            fs::read_dir(dir.path().join("keep")).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_configuration_is_an_error_not_ignored() {
    let dir = project();
    mkfifo(&dir.path().join("irilint.toml"));
    let start = Instant::now();
    let (code, _, stderr) = run(dir.path(), &["check", "a.txt"]);
    assert!(start.elapsed() < Duration::from_secs(30));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("a FIFO, not a regular file"), "{stderr}");
}

#[test]
fn a_named_path_that_cannot_be_read_does_not_stop_the_others() {
    let dir = project();
    write(dir.path(), "bad.txt", "http://a.example/x\u{202E}y\n");
    let (code, stdout, stderr) = run(
        dir.path(),
        &["check", "--format", "json", "missing.txt", "bad.txt"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("missing.txt: cannot read it: no such file or directory"),
        "{stderr}"
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["diagnostics"][0]["path"], "bad.txt");
    assert_eq!(report["errors"][0]["path"], "missing.txt");
}

#[test]
fn a_bad_option_value_is_quoted_without_hidden_characters() {
    let dir = project();
    for args in [
        ["check", "--input-format", "x\u{202E}y", "a.txt"],
        ["check", "--max-file-size", "1\u{9B}31m", "a.txt"],
    ] {
        let (code, _, stderr) = run(dir.path(), &args);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            !stderr.contains('\u{202E}') && !stderr.contains('\u{9B}'),
            "{stderr:?}"
        );
        assert!(stderr.contains("⟨U+"), "{stderr}");
    }
}

#[test]
fn utf32_is_said_to_be_unsupported_not_read_as_utf16() {
    let dir = project();
    for (name, bom, unit) in [
        (
            "le.txt",
            [0xFF, 0xFE, 0, 0],
            u32::to_le_bytes as fn(u32) -> [u8; 4],
        ),
        ("be.txt", [0, 0, 0xFE, 0xFF], u32::to_be_bytes),
    ] {
        let mut bytes = bom.to_vec();
        for c in "http://a.example/x\u{202E}y\n".chars() {
            bytes.extend(unit(c as u32));
        }
        fs::write(dir.path().join(name), bytes).unwrap();
        let (code, _, stderr) = run(dir.path(), &["check", name]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(stderr.contains("UTF-32"), "{name}: {stderr}");
    }
}

#[test]
fn a_baseline_written_by_another_tool_is_refused() {
    let dir = project();
    write(
        dir.path(),
        "other.json",
        "{\"version\": 1, \"tool\": \"other\", \"findings\": []}",
    );
    let (code, _, stderr) = run(dir.path(), &["check", "--baseline", "other.json", "a.txt"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("was written by `other`, not irilint"),
        "{stderr}"
    );
}

#[test]
fn a_configuration_of_too_many_patterns_is_refused_before_they_are_compiled() {
    // Each glob and regular expression is compiled as the file is read: 1 MB of configuration
    // of 36,000 globs took 480 MB, of 34,000 regular expressions 292 MB; a chain of `extend`
    // adds them up. At most 1,000 in a file, 4,000 in a chain.
    let array = |key: &str, n: usize, item: &dyn Fn(usize) -> String| -> String {
        let items: Vec<String> = (0..n).map(item).collect();
        format!("{key} = [{}]\n", items.join(","))
    };
    let globs = |n: usize, tag: &str| {
        array("extend-exclude", n, &|i| {
            format!("\"**/*{{a,b}}*[!x]{tag}{i}/**\"")
        })
    };
    let regexes =
        |n: usize, tag: &str| array("allow", n, &|i| format!("'^https?://{tag}{i}\\.example/'"));
    // A thousand in a file: read.
    let dir = project();
    let both = |g: usize, r: usize| globs(g, "g") + &regexes(r, "r");
    write(dir.path(), "irilint.toml", &both(500, 500));
    let (code, _, err) = run(dir.path(), &["check", "."]);
    assert_eq!(code, 0, "{err}");
    // One more: refused, at the array that passes the limit, with what to do.
    write(dir.path(), "irilint.toml", &both(500, 501));
    let (code, _, err) = run(dir.path(), &["check", "."]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("more than 1000 globs and regular expressions"),
        "{err}"
    );
    assert!(err.contains("irilint.toml:2:"), "{err}");
    assert!(err.contains("one glob"), "{err}");
    // Overrides' `files` and `[input-format]` count too.
    let overrides: String = (0..1001)
        .map(|i| format!("[[overrides]]\nfiles = [\"x{i}/\"]\nignore = [\"not-nfc\"]\n"))
        .collect();
    write(dir.path(), "irilint.toml", &overrides);
    let (code, _, err) = run(dir.path(), &["check", "."]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("more than 1000"), "{err}");
    // A chain of five files of 1,000 each: refused at the `extend` that passes 4,000.
    let dir = project();
    for k in 0..5 {
        let name = if k == 0 {
            "irilint.toml".to_string()
        } else {
            format!("c{k}.toml")
        };
        let extend = if k < 4 {
            format!("extend = \"c{}.toml\"\n", k + 1)
        } else {
            String::new()
        };
        write(
            dir.path(),
            &name,
            &(extend + &regexes(1000, &format!("h{k}x"))),
        );
    }
    let (code, _, err) = run(dir.path(), &["check", "."]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("more than 4000 globs and regular expressions in all"),
        "{err}"
    );
}
