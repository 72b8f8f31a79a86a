//! `--write-baseline` and `--baseline`, end to end on real files.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn report(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check", "--format", "json"];
    all.extend(args);
    let (code, stdout, stderr) = run(dir, &all);
    (
        code,
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}{stderr}")),
    )
}

fn rules_and_lines(report: &Value) -> Vec<(String, u64)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["span"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

const PAGE: &str = "<p><a href=\"http://a.example/x\u{202E}y\">a</a>\n\
                    <a href=\"http://b.example/e\u{0301}\">b</a>\n\
                    <a href=\"http://a.example/x\u{202E}y\">a again</a></p>\n";

#[test]
fn a_baseline_holds_back_what_it_recorded_even_when_lines_move() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("docs")).unwrap();
    fs::write(root.join("docs/page.html"), PAGE).unwrap();

    let (code, stdout, stderr) = run(root, &["check", "docs", "--write-baseline", "base.json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        "irilint: wrote 3 findings to the baseline base.json\n"
    );
    let written = fs::read_to_string(root.join("base.json")).unwrap();
    assert!(
        !written.contains('\u{202E}'),
        "hidden characters are escaped"
    );
    let parsed: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(parsed["version"], 1);
    assert_eq!(
        parsed["findings"],
        serde_json::json!([
            {"path": "docs/page.html", "rule": "bidi-formatting-character",
             "iri": "http://a.example/x\u{202E}y", "occurrence": 1},
            {"path": "docs/page.html", "rule": "bidi-formatting-character",
             "iri": "http://a.example/x\u{202E}y", "occurrence": 2},
            {"path": "docs/page.html", "rule": "not-nfc",
             "iri": "http://b.example/e\u{0301}", "occurrence": 1},
        ])
    );
    // Stable: the same findings give the same bytes, from any directory and any path spelling.
    run(
        root,
        &["check", "./docs/", "--write-baseline", "again.json"],
    );
    assert_eq!(
        fs::read_to_string(root.join("again.json")).unwrap(),
        written
    );
    run(
        &root.join("docs"),
        &["check", "page.html", "--write-baseline", "../third.json"],
    );
    assert_eq!(
        fs::read_to_string(root.join("third.json")).unwrap(),
        written
    );

    // Everything is held back.
    let (code, r) = report(root, &["docs", "--baseline", "base.json"]);
    assert_eq!(code, 0);
    assert_eq!(rules_and_lines(&r), []);
    assert_eq!(r["summary"]["baselined"], 3);

    // Lines inserted above: still held back (matched by IRI and occurrence, not by line).
    let moved = format!("<h1>Title</h1>\n\n\n{PAGE}");
    fs::write(root.join("docs/page.html"), &moved).unwrap();
    let (code, r) = report(root, &["docs", "--baseline", "base.json"]);
    assert_eq!((code, rules_and_lines(&r)), (0, vec![]));

    // A third copy of the same bad link is new; so is a different one.
    let grown = format!(
        "{moved}<a href=\"http://a.example/x\u{202E}y\">third</a>\n<a href=\"http://c.example/\u{200B}\">c</a>\n"
    );
    fs::write(root.join("docs/page.html"), grown).unwrap();
    let (code, r) = report(root, &["docs", "--baseline", "base.json"]);
    assert_eq!(code, 1);
    assert_eq!(
        rules_and_lines(&r),
        [
            ("bidi-formatting-character".to_string(), 7),
            ("invisible-character".to_string(), 8)
        ]
    );
    assert_eq!(r["summary"]["baselined"], 3);
    assert_eq!(r["summary"]["errors"], 2);

    // The human summary says it too.
    let (_, human, _) = run(root, &["check", "docs", "--baseline", "base.json"]);
    assert!(
        human.ends_with("Found 2 errors in 1 file (5 IRIs checked, 3 baselined).\n"),
        "{human}"
    );
}

#[test]
fn a_fixed_finding_leaves_the_baseline_harmlessly() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join("a.txt"), "http://a.example/x\u{202E}y\n").unwrap();
    run(root, &["check", "a.txt", "--write-baseline", "b.json"]);
    fs::write(root.join("a.txt"), "http://a.example/xy\n").unwrap();
    let (code, r) = report(root, &["a.txt", "--baseline", "b.json"]);
    assert_eq!(code, 0);
    assert_eq!(r["summary"]["baselined"], 0);
}

#[test]
fn a_named_file_that_cannot_be_read_fails_the_baseline_run_after_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join("a.txt"), "http://a.example/x\u{202E}y\n").unwrap();
    let args = ["check", "a.txt", "gone.txt", "--write-baseline", "b.json"];
    let (code, _, stderr) = run(root, &args);
    // The baseline lacks the findings of the file not read: the run says so and fails.
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("gone.txt: cannot read it"), "{stderr}");
    assert!(
        stderr.contains("wrote 1 finding to the baseline"),
        "{stderr}"
    );
    let written: Value =
        serde_json::from_str(&fs::read_to_string(root.join("b.json")).unwrap()).unwrap();
    assert_eq!(written["findings"][0]["path"], "a.txt");
}

#[test]
fn a_bad_baseline_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join("a.txt"), "http://a.example/\n").unwrap();
    let cases = [
        (
            None,
            "irilint: error: cannot read baseline b.json: no such file or directory; create it with `irilint check --write-baseline b.json`\n",
        ),
        (
            Some("{\"version\": 1, \"findings\": ["),
            "irilint: error: baseline b.json is not an irilint baseline: EOF while parsing a list at line 1 column 28; write it again with `--write-baseline`\n",
        ),
        (
            Some("{\"version\": 7, \"tool\": \"irilint\", \"findings\": []}"),
            "irilint: error: baseline b.json has version 7, this irilint reads version 1; write it again with `--write-baseline`\n",
        ),
        (
            Some("{\"version\": 1, \"tool\": \"irilint\", \"findings\": [{\"path\": 3}]}"),
            "irilint: error: baseline b.json is not an irilint baseline: invalid type: integer `3`, expected a string at line 1 column 58; write it again with `--write-baseline`\n",
        ),
    ];
    for (content, message) in cases {
        let _ = fs::remove_file(root.join("b.json"));
        if let Some(c) = content {
            fs::write(root.join("b.json"), c).unwrap();
        }
        let (code, stdout, stderr) = run(root, &["check", "a.txt", "--baseline", "b.json"]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{content:?}");
        assert_eq!(stderr, message, "{content:?}");
    }
}

#[test]
fn stale_entries_are_said_and_pruned_and_a_fixed_problem_that_comes_back_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("docs")).unwrap();
    fs::write(root.join("docs/page.html"), PAGE).unwrap();
    fs::write(root.join("docs/other.txt"), "http://c.example/\u{200B}\n").unwrap();
    let (code, _, stderr) = run(root, &["check", "docs", "--write-baseline", "base.json"]);
    assert_eq!(code, 0, "{stderr}");
    let base = |args: &[&str]| {
        let mut all = vec!["check", "docs", "--baseline", "base.json"];
        all.extend(args);
        run(root, &all)
    };
    let (code, _, stderr) = base(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("notice"), "{stderr}");

    // One of the two links with a U+202E is fixed: its entry is stale, and said so.
    let fixed = PAGE.replacen("http://a.example/x\u{202E}y", "http://a.example/xy", 1);
    fs::write(root.join("docs/page.html"), &fixed).unwrap();
    let (code, _, stderr) = base(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("notice: 1 entry of the baseline base.json matches no finding any more")
            && stderr.contains("--prune-baseline"),
        "{stderr}"
    );
    // A run over other files does not judge the page's entries.
    let (_, _, stderr) = run(
        root,
        &["check", "docs/other.txt", "--baseline", "base.json"],
    );
    assert!(!stderr.contains("notice"), "{stderr}");

    // Pruned, the baseline holds what still matches, and the fixed problem, back, is new.
    let (code, _, stderr) = base(&["--prune-baseline"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("pruned 1 entry"), "{stderr}");
    let pruned: Value =
        serde_json::from_str(&fs::read_to_string(root.join("base.json")).unwrap()).unwrap();
    assert_eq!(pruned["version"], 1);
    assert_eq!(pruned["findings"].as_array().unwrap().len(), 3);
    let (_, _, stderr) = base(&[]);
    assert!(!stderr.contains("notice"), "{stderr}");
    fs::write(root.join("docs/page.html"), PAGE).unwrap();
    let (code, r) = report(root, &["docs", "--baseline", "base.json"]);
    assert_eq!(code, 1);
    assert_eq!(
        rules_and_lines(&r),
        [("bidi-formatting-character".to_string(), 3)]
    );
    // Pruning adds nothing: the new finding is still not in the baseline.
    let (code, _, _) = base(&["--prune-baseline"]);
    assert_eq!(code, 1);

    // A file that is gone: its entries are stale too.
    fs::remove_file(root.join("docs/other.txt")).unwrap();
    let (_, _, stderr) = base(&[]);
    assert!(
        stderr.contains("1 entry of the baseline base.json matches no finding any more (1 of files that no longer exist)"),
        "{stderr}"
    );
    // --prune-baseline needs --baseline.
    let (code, _, _) = run(root, &["check", "docs", "--prune-baseline"]);
    assert_eq!(code, 2);
}
