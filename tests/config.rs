//! Configuration files, end to end: real files in temporary directories, the real binary.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// A hidden U+202E in a link (bidi-formatting-character, error) and a non-NFC path (not-nfc,
/// warning): two rules to configure.
const TWO_FINDINGS: &str = "http://a.example/x\u{202E}y\nhttp://b.example/e\u{0301}\n";

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn irilint(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("irilint").unwrap();
    cmd.current_dir(dir).env("NO_COLOR", "1");
    cmd
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = irilint(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `check --format json ARGS`: exit code and the (path, rule, severity) of every finding.
fn findings(dir: &Path, args: &[&str]) -> (i32, Vec<(String, String, String)>) {
    let mut all = vec!["check", "--format", "json"];
    all.extend(args);
    let (code, stdout, stderr) = run(dir, &all);
    let report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: stdout {stdout:?} stderr {stderr:?}"));
    let list = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().replace('\\', "/"),
                d["rule"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (code, list)
}

fn f(path: &str, rule: &str, severity: &str) -> (String, String, String) {
    (path.to_string(), rule.to_string(), severity.to_string())
}

#[test]
fn without_configuration_the_defaults_apply() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", TWO_FINDINGS);
    let (code, got) = findings(dir.path(), &["a.txt"]);
    assert_eq!(code, 1);
    assert_eq!(
        got,
        [
            f("a.txt", "bidi-formatting-character", "error"),
            f("a.txt", "not-nfc", "warning")
        ]
    );
}

#[test]
fn the_closest_configuration_wins_without_merging() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "irilint.toml", "ignore = [\"not-nfc\"]\n");
    write(root, "top.txt", TWO_FINDINGS);
    // sub/ has its own file: the root's `ignore` does not reach it (ruff's model).
    write(
        root,
        "sub/irilint.toml",
        "[severity]\nbidi-formatting-character = \"warning\"\n",
    );
    write(root, "sub/a.txt", TWO_FINDINGS);
    // deeper/ has none: the root's applies.
    write(root, "deeper/er/b.txt", TWO_FINDINGS);
    let (code, got) = findings(root, &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        got,
        [
            f("./deeper/er/b.txt", "bidi-formatting-character", "error"),
            f("./sub/a.txt", "bidi-formatting-character", "warning"),
            f("./sub/a.txt", "not-nfc", "warning"),
            f("./top.txt", "bidi-formatting-character", "error"),
        ]
    );
    // Run from inside sub/, naming a file above: the file's own directory decides.
    let (_, got) = findings(&root.join("sub"), &["../top.txt", "a.txt"]);
    assert_eq!(
        got,
        [
            f("../top.txt", "bidi-formatting-character", "error"),
            f("a.txt", "bidi-formatting-character", "warning"),
            f("a.txt", "not-nfc", "warning"),
        ]
    );
}

#[test]
fn file_names_in_one_directory_and_pyproject() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a.txt", TWO_FINDINGS);
    write(
        root,
        "pyproject.toml",
        "[tool.irilint]\nignore = [\"bidi\"]\n",
    );
    assert_eq!(
        findings(root, &["a.txt"]).1,
        [f("a.txt", "not-nfc", "warning")]
    );
    // irilint.toml beats pyproject.toml, .irilint.toml beats both.
    write(root, "irilint.toml", "ignore = [\"not-nfc\"]\n");
    assert_eq!(
        findings(root, &["a.txt"]).1,
        [f("a.txt", "bidi-formatting-character", "error")]
    );
    write(
        root,
        ".irilint.toml",
        "select = [\"ALL\"]\nignore = [\"ALL\"]\n",
    );
    assert_eq!(findings(root, &["a.txt"]), (0, vec![]));

    // A pyproject.toml without [tool.irilint] is not a configuration: the parent's applies.
    write(
        root,
        "py/pyproject.toml",
        "[project]\nname = \"x\"\n[tool.black]\nline-length = 1\n",
    );
    write(root, "py/b.txt", TWO_FINDINGS);
    assert_eq!(findings(root, &["py/b.txt"]), (0, vec![]));
    let (_, shown, _) = run(root, &["check", "--show-settings", "py/b.txt"]);
    assert!(shown.contains(".irilint.toml (closest)"), "{shown}");
}

#[test]
fn extend_inherits_and_globs_stay_relative_to_their_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A repository: `extend` may reach anywhere inside it.
    fs::create_dir(root.join(".git")).unwrap();
    write(
        root,
        "shared/base.toml",
        "ignore = [\"not-nfc\"]\nextend-exclude = [\"generated/\"]\n\
         [[overrides]]\nfiles = [\"*.text\"]\nignore = [\"bidi\"]\n",
    );
    write(
        root,
        "site/irilint.toml",
        "extend = \"../shared/base.toml\"\n[severity]\nbidi = \"warning\"\n",
    );
    write(root, "site/a.txt", TWO_FINDINGS);
    write(root, "site/b.text", TWO_FINDINGS);
    // `generated/` and `*.text` are relative to shared/: site/generated/ is not excluded by
    // it and the override does not reach site/b.text.
    write(root, "site/generated/c.txt", TWO_FINDINGS);
    write(root, "shared/e.text", TWO_FINDINGS);
    write(root, "shared/generated/d.txt", TWO_FINDINGS);
    let (code, got) = findings(root, &["site"]);
    assert_eq!(code, 0);
    assert_eq!(
        got,
        [
            f("site/a.txt", "bidi-formatting-character", "warning"),
            f("site/b.text", "bidi-formatting-character", "warning"),
            f(
                "site/generated/c.txt",
                "bidi-formatting-character",
                "warning"
            ),
        ]
    );
    // The base file's own directory: its override applies, its exclude too.
    let (code, got) = findings(root, &["--config", "shared/base.toml", "shared"]);
    assert_eq!((code, got), (0, vec![]));
    let (_, shown, _) = run(root, &["check", "--show-settings", "site/b.text"]);
    assert!(!shown.contains("override"), "{shown}");
    let (_, shown, _) = run(
        root,
        &[
            "check",
            "--config",
            "site/irilint.toml",
            "--show-settings",
            "shared/e.text",
        ],
    );
    assert!(shown.contains("extends: "), "{shown}");
    assert!(
        shown.contains("base.toml [[overrides]] #1 (files = [\"*.text\"])"),
        "{shown}"
    );
    assert!(shown.contains("bidi-formatting-character"), "{shown}");
    let rule_line = |name: &str| {
        shown
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap()
            .split_whitespace()
            .last()
            .unwrap()
            .to_string()
    };
    assert_eq!(rule_line("bidi-formatting-character"), "off");
    assert_eq!(rule_line("not-nfc"), "off");
    assert_eq!(rule_line("syntax-invalid"), "error");
    assert!(shown.contains("input format: text (extension)"), "{shown}");
}

#[test]
fn config_and_isolated() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "irilint.toml", "ignore = [\"ALL\"]\n");
    write(root, "other.toml", "select = [\"not-nfc\"]\n");
    write(root, "sub/irilint.toml", "ignore = [\"ALL\"]\n");
    write(root, "sub/a.txt", TWO_FINDINGS);
    assert_eq!(findings(root, &["sub"]), (0, vec![]));
    // --config: exactly that file, for every path.
    assert_eq!(
        findings(root, &["--config", "other.toml", "sub"]).1,
        [f("sub/a.txt", "not-nfc", "warning")]
    );
    // --isolated: no file at all.
    assert_eq!(findings(root, &["--isolated", "sub"]).1.len(), 2);
    let (code, _, err) = run(root, &["check", "--config", "missing.toml", "sub"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "irilint: error: missing.toml: cannot read configuration file: no such file or directory\n"
    );
    let (code, _, err) = run(root, &["check", "--config", "x.toml", "--isolated", "sub"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn overrides_apply_in_order_and_severity_ids_beat_groups() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "irilint.toml",
        r#"
[severity]
not-nfc = "error"      # a rule id: wins over the group below whatever the order
normalization = "info"
bidi = "warning"

[[overrides]]
files = ["docs/**"]
severity = { bidi-formatting-character = "info" }

[[overrides]]
files = ["docs/old/"]
severity = { bidi = "off" }
extend-select = ["dot-segment"]
"#,
    );
    let text = format!("{TWO_FINDINGS}http://c.example/a/../b\n");
    write(root, "a.txt", &text);
    write(root, "docs/b.txt", &text);
    write(root, "docs/old/c.txt", &text);
    let (code, got) = findings(root, &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        got,
        [
            f("./a.txt", "bidi-formatting-character", "warning"),
            f("./a.txt", "not-nfc", "error"),
            f("./docs/b.txt", "bidi-formatting-character", "info"),
            f("./docs/b.txt", "not-nfc", "error"),
            f("./docs/old/c.txt", "not-nfc", "error"),
            f("./docs/old/c.txt", "dot-segment", "info"),
        ]
    );
}

#[test]
fn severity_turns_a_rule_on_and_off_turns_it_off() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "irilint.toml",
        "[severity]\ndot-segment = \"warning\"\nnot-nfc = \"off\"\n",
    );
    write(root, "a.txt", "http://b.example/e\u{0301}/a/../b\n");
    let (code, got) = findings(root, &["a.txt"]);
    assert_eq!(code, 0);
    assert_eq!(got, [f("a.txt", "dot-segment", "warning")]);
    // The command line wins: --extend-select turns the rule the file turned off back on.
    assert_eq!(
        findings(root, &["--extend-select", "not-nfc", "a.txt"]).1,
        [
            f("a.txt", "not-nfc", "warning"),
            f("a.txt", "dot-segment", "warning")
        ]
    );
    // --select replaces the file's set; the file's severities still apply to what runs.
    assert_eq!(
        findings(root, &["--select", "dot-segment", "a.txt"]).1,
        [f("a.txt", "dot-segment", "warning")]
    );
    assert_eq!(findings(root, &["--ignore", "style", "a.txt"]).1, []);
}

#[test]
fn exclude_extend_exclude_and_force_exclude() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "irilint.toml",
        "extend-exclude = [\"legacy/\", \"*.min.html\", \"/top-only.txt\"]\n",
    );
    let bad = "<a href=\"http://a.example/x\u{202E}y\">x</a>\n";
    write(root, "ok.html", bad);
    write(root, "page.min.html", bad);
    write(root, "legacy/old.html", bad);
    write(root, "top-only.txt", TWO_FINDINGS);
    write(root, "sub/top-only.txt", "http://a.example/x\u{202E}y\n");
    write(root, "node_modules/pkg/readme.txt", TWO_FINDINGS);
    let paths = |args: &[&str]| -> Vec<String> {
        findings(root, args)
            .1
            .into_iter()
            .map(|(p, _, _)| p)
            .collect()
    };
    assert_eq!(paths(&["."]), ["./ok.html", "./sub/top-only.txt"]);
    // A file named on the command line is checked unless --force-exclude (pre-commit).
    assert_eq!(paths(&["legacy/old.html"]), ["legacy/old.html"]);
    assert!(paths(&["--force-exclude", "legacy/old.html", "page.min.html"]).is_empty());
    // `exclude` replaces the default (node_modules/).
    write(root, "irilint.toml", "exclude = [\"legacy/\"]\n");
    assert!(paths(&["."]).contains(&"./node_modules/pkg/readme.txt".to_string()));
    assert!(!paths(&["."]).iter().any(|p| p.contains("legacy")));
    let (_, shown, _) = run(root, &["check", "--show-settings", "legacy/old.html"]);
    assert!(shown.contains("excluded: yes"), "{shown}");
}

#[test]
fn input_format_reads_other_extensions_too() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "guide.wiki",
        "See http://a.example/x\u{202E}y for more.\n",
    );
    write(
        root,
        "layout.tmpl",
        "<a href=\"http://a.example/x\u{202E}y\">x</a>\n",
    );
    // Without a mapping, neither extension is read when walking.
    assert_eq!(findings(root, &["."]).1, []);
    write(
        root,
        "irilint.toml",
        "[input-format]\n\"*.wiki\" = \"text\"\n\"*.tmpl\" = \"html\"\n",
    );
    let (_, stdout, _) = run(root, &["list", "--format", "json", "."]);
    let listed: Value = serde_json::from_str(&stdout).unwrap();
    let origins: Vec<&str> = listed["occurrences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["origin"].as_str().unwrap())
        .collect();
    assert_eq!(origins, ["text", "a@href"]);
    assert_eq!(findings(root, &["."]).1.len(), 2);
    // --input-format wins for a named file.
    let (_, stdout, _) = run(
        root,
        &[
            "list",
            "--format",
            "json",
            "--input-format",
            "text",
            "layout.tmpl",
        ],
    );
    let listed: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(listed["occurrences"][0]["origin"], "text");
}

#[test]
fn a_glob_maps_other_extensions_to_the_new_formats() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // git's documentation is AsciiDoc in `.txt` files: its URL synopses and macros.
    let doc = "- git://host.xz{startsb}:port{endsb}/path/to/repo.git/\n\
               link:https://files.example/x\u{202E}y[the file]\n";
    write(root, "urls.txt", doc);
    write(
        root,
        "notes.rst",
        "`Home <https://ex\u{200B}ample.org/>`_\n",
    );
    let origins = |args: &[&str]| -> Vec<String> {
        let (_, stdout, _) = run(root, args);
        let listed: Value = serde_json::from_str(&stdout).unwrap();
        listed["occurrences"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["origin"].as_str().unwrap().to_string())
            .collect()
    };
    // Read as text, the synopsis is an invalid port and the macro's text is part of the IRI.
    assert_eq!(
        origins(&["list", "--format", "json", "urls.txt"]),
        ["text", "text"]
    );
    let rules = |f: Vec<(String, String, String)>| -> Vec<String> {
        let mut r: Vec<String> = f.into_iter().map(|(_, rule, _)| rule).collect();
        r.sort();
        r
    };
    assert!(rules(findings(root, &["urls.txt"]).1).contains(&"syntax-invalid".to_string()));
    write(
        root,
        "irilint.toml",
        "[input-format]\n\"*.txt\" = \"asciidoc\"\n",
    );
    assert_eq!(
        origins(&["list", "--format", "json", "."]),
        ["rst:reference", "asciidoc:url", "asciidoc:link"]
    );
    assert_eq!(
        rules(findings(root, &["."]).1),
        ["bidi-formatting-character", "invisible-character"]
    );
    let (_, shown, _) = run(root, &["check", "--show-settings", "urls.txt"]);
    assert!(shown.contains("asciidoc"), "{shown}");
}

#[test]
fn allow_patterns_silence_every_rule_on_matching_iris() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "irilint.toml",
        "allow = ['^http://a\\.example/', 'internal\\.test']\n",
    );
    write(
        root,
        "a.txt",
        "http://a.example/x\u{202E}y\nhttp://wiki.internal.test/\u{200B}\nhttp://b.example/x\u{202E}y\n",
    );
    let (code, stdout, _) = run(root, &["check", "--format", "json", "a.txt"]);
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let iris: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["iri"].as_str().unwrap())
        .collect();
    assert_eq!(iris, ["http://b.example/x\u{202E}y"]);
    assert_eq!(report["summary"]["iris"], 3);
}

/// Runs `check` in a directory whose irilint.toml is `config`; returns stderr after asserting
/// exit code 2.
fn bad_config(config: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "irilint.toml", config);
    write(dir.path(), "a.txt", "http://a.example/\n");
    let (code, stdout, stderr) = run(dir.path(), &["check", "a.txt"]);
    assert_eq!(code, 2, "{config}: {stdout}{stderr}");
    assert_eq!(stdout, "", "{config}");
    stderr
}

#[test]
fn bad_configuration_points_into_the_file() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // (configuration, location, message, help)
        (
            "select = [\"bidi\"]\nextend-selct = [\"style\"]\n",
            "irilint.toml:2:1",
            "unknown key `extend-selct`",
            "did you mean `extend-select`?",
        ),
        (
            "ignore = \"not-nfc\"\n",
            "irilint.toml:1:10",
            "`ignore` must be an array of strings, not a string",
            "for example: ignore = [\"mixed-script\"]",
        ),
        (
            "select = [\"bidi\", 3]\n",
            "irilint.toml:1:19",
            "`select` must be an array of strings, but this is an integer",
            "",
        ),
        (
            "ignore = [\"not-nfd\"]\n",
            "irilint.toml:1:11",
            "unknown rule or group `not-nfd`",
            "did you mean `not-nfc`?",
        ),
        (
            "[severity]\nbidi = \"warn\"\n",
            "irilint.toml:2:8",
            "unknown severity `warn` for `bidi`",
            "did you mean `warning`?",
        ),
        (
            "[severity]\nbidy = \"warning\"\n",
            "irilint.toml:2:1",
            "unknown rule or group `bidy`",
            "did you mean `bidi`?",
        ),
        (
            "extend-exclude = [\"ok/\", \"[z-a]\"]\n",
            "irilint.toml:1:26",
            "invalid glob `[z-a]`: invalid range; 'z' > 'a'",
            "gitignore-style",
        ),
        (
            "allow = ['^http://(a']\n",
            "irilint.toml:1:10",
            "invalid regular expression: unclosed group",
            "regex",
        ),
        (
            "[input-format]\n\"*.adoc\" = \"asciidoctor\"\n",
            "irilint.toml:2:12",
            "unknown input format `asciidoctor`",
            "did you mean `asciidoc`? Input formats are text, html, xml, markdown, rst, asciidoc, epub,",
        ),
        (
            "[[overrides]]\nignore = [\"bidi\"]\n",
            "irilint.toml:1:1",
            "an `[[overrides]]` table needs `files`",
            "files = [\"legacy/**\"]",
        ),
        (
            "[[overrides]]\nfiles = [\"a/\"]\nextend = \"x.toml\"\n",
            "irilint.toml:3:1",
            "`extend` is only allowed at the top level, not in `[[overrides]]`",
            "",
        ),
        (
            "extend = \"missing.toml\"\n",
            "irilint.toml:1:10",
            "cannot read configuration file: no such file or directory",
            "",
        ),
        (
            "extend = \"irilint.toml\"\n",
            "irilint.toml:1:10",
            "`extend` loops back to",
            "",
        ),
    ];
    for (config, location, message, help) in cases {
        let err = bad_config(config);
        assert!(
            err.starts_with(&format!(
                "irilint: error: invalid configuration at {location}\n"
            )),
            "{config:?}:\n{err}"
        );
        assert!(err.contains(&format!("× {message}")), "{config:?}:\n{err}");
        assert!(err.contains(help), "{config:?}:\n{err}");
        // miette shows the file at the same place.
        assert!(err.contains(&format!("[{location}]")), "{config:?}:\n{err}");
    }
    // A file that is not TOML is located, but its lines are not shown: it may be any file an
    // `extend` names (tests/untrusted_files.rs).
    let err = bad_config("select = [\"bidi\"\n");
    assert_eq!(
        err,
        "irilint: error: irilint.toml:1:17: invalid TOML: unclosed array, expected `]`\n"
    );
}

#[test]
fn a_bad_configuration_below_a_walked_directory_also_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "http://a.example/\n");
    write(dir.path(), "deep/er/irilint.toml", "ignore = 1\n");
    write(dir.path(), "deep/er/b.txt", "http://a.example/\n");
    let (code, stdout, stderr) = run(dir.path(), &["check", "."]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("invalid configuration at deep/er/irilint.toml:1:10"),
        "{stderr}"
    );
}

#[test]
fn unsafe_characters_in_a_configuration_are_not_echoed_raw() {
    let err = bad_config("ignore = [\"not-nfc\u{202E}\"]\n");
    assert!(!err.contains('\u{202E}'), "{err}");
    assert!(err.contains("U+202E"), "{err}");
}

#[test]
fn config_command_documents_every_key_and_the_books_table_is_generated_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let (code, list, _) = run(dir.path(), &["config"]);
    assert_eq!(code, 0);
    for key in [
        "extend",
        "select",
        "severity",
        "allow",
        "overrides",
        "files",
    ] {
        assert!(list.contains(&format!("  {key} ")), "{key}: {list}");
    }
    let (code, one, _) = run(dir.path(), &["config", "allow"]);
    assert_eq!(code, 0);
    assert!(one.starts_with("allow\n"), "{one}");
    assert!(one.contains("Example:"), "{one}");
    let (code, _, err) = run(dir.path(), &["config", "alow"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown key `alow`"), "{err}");

    // The book's Configuration page holds the table (generated: one source, the options).
    let page = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/configuration.md");
    let doc = fs::read_to_string(page).unwrap();
    let table = irilint::config::options::markdown_table();
    let begin = "<!-- options:begin -->\n";
    let end = "<!-- options:end -->";
    let start = doc
        .find(begin)
        .expect("the Configuration page has the options table")
        + begin.len();
    let stop = doc
        .find(end)
        .expect("the Configuration page has the options table's end");
    if std::env::var_os("IRILINT_BLESS").is_some() {
        let updated = format!("{}{table}{}", &doc[..start], &doc[stop..]);
        fs::write(page, updated).unwrap();
    } else {
        assert_eq!(
            &doc[start..stop],
            table,
            "docs/src/configuration.md's options table is generated from src/config/options.rs: run IRILINT_BLESS=1 cargo test --test config"
        );
    }
}
