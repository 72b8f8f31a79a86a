//! The built binary, end to end: fixtures against their hand-checked reports, the command-line
//! contract (exit codes, formats, stdin), and bad input that must never panic.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn irilint() -> Command {
    let mut cmd = Command::cargo_bin("irilint").expect("binary is built");
    cmd.env_remove("NO_COLOR");
    cmd
}

/// Runs irilint and returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = irilint().args(args).output().expect("runs");
    (
        out.status.code().expect("exited"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

fn json(args: &[&str]) -> (i32, Value) {
    let (code, stdout, stderr) = run(args);
    let value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\nstderr: {stderr}"));
    (code, value)
}

/// Asserts that `keys` appear as object keys in `raw` JSON text in this order, starting at `from`.
fn assert_key_order(raw: &str, from: usize, keys: &[&str]) {
    let mut at = from;
    for key in keys {
        let needle = format!("\"{key}\":");
        let found = raw[at..]
            .find(&needle)
            .unwrap_or_else(|| panic!("key {key} missing or out of order in {raw}"));
        at += found + needle.len();
    }
}

fn fixture_documents() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for format in fs::read_dir("fixtures").expect("fixtures/") {
        let dir = format.unwrap().path();
        // The example site is a tree with a configuration, held to tests/site.rs.
        if dir.file_name().is_some_and(|n| n == "site") {
            continue;
        }
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            if !name.ends_with(".expected.json") && !name.ends_with(".args") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn expected_path(doc: &Path) -> PathBuf {
    doc.with_extension("expected.json")
}

/// Extra arguments for a fixture (`--select style` for the rules that are off by default), one
/// per line, from `<name>.args` next to it.
fn fixture_args(doc: &Path) -> Vec<String> {
    fs::read_to_string(doc.with_extension("args"))
        .map(|s| {
            s.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// The precision and recall corpora (`fixtures/clean`, `fixtures/attacks`) are held to their own
/// assertions in `tests/corpora.rs` instead of expected reports.
fn is_corpus(doc: &Path) -> bool {
    doc.components()
        .any(|c| c.as_os_str() == "clean" || c.as_os_str() == "attacks")
}

/// Every fixture's JSON report equals its hand-checked `*.expected.json` (the tool version
/// aside). `IRILINT_BLESS=1` rewrites them; review the diff before committing.
#[test]
fn fixtures_match_their_expected_reports() {
    let docs = fixture_documents();
    assert!(
        docs.len() >= 10,
        "expected at least 10 fixtures, found {}",
        docs.len()
    );
    let bless = std::env::var_os("IRILINT_BLESS").is_some();
    let mut mismatches = Vec::new();
    for doc in docs.iter().filter(|d| !is_corpus(d)) {
        let path = doc.to_str().unwrap();
        let extra = fixture_args(doc);
        let mut args = vec!["check", "--format", "json"];
        args.extend(extra.iter().map(String::as_str));
        args.push(path);
        let (code, stdout, _) = run(&args);
        let mut actual: Value = serde_json::from_str(&stdout).expect("a JSON report");
        let has_errors = actual["summary"]["errors"].as_u64().unwrap() > 0;
        assert_eq!(code, i32::from(has_errors), "{path}: exit code");
        actual["tool"]["version"] = Value::Null;
        let expected_file = expected_path(doc);
        if bless {
            fs::write(&expected_file, stdout).unwrap();
            continue;
        }
        let mut expected: Value = serde_json::from_str(
            &fs::read_to_string(&expected_file)
                .unwrap_or_else(|_| panic!("{path}: no {}", expected_file.display())),
        )
        .unwrap();
        expected["tool"]["version"] = Value::Null;
        if actual != expected {
            mismatches.push(format!(
                "{path}:\n--- expected\n{}\n--- actual\n{}",
                serde_json::to_string_pretty(&expected).unwrap(),
                serde_json::to_string_pretty(&actual).unwrap()
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n\n"));
}

#[test]
fn clean_multilingual_fixtures_are_silent() {
    let clean = [
        "text/english.txt",
        "text/japanese.txt",
        "text/chinese.txt",
        "text/arabic.txt",
        "text/hebrew.txt",
        "text/russian.txt",
        "html/multilingual.html",
        "xml/multilingual.xml",
        "markdown/multilingual.md",
    ];
    for name in clean {
        let path = format!("fixtures/{name}");
        let (code, report) = json(&["check", "--format", "json", &path]);
        assert_eq!(code, 0, "{name}");
        assert_eq!(report["diagnostics"], Value::Array(vec![]), "{name}");
        assert!(
            report["summary"]["iris"].as_u64().unwrap() >= 2,
            "{name}: IRIs found"
        );
    }
}

#[test]
fn the_whole_fixture_tree_in_one_run_is_sorted_and_deterministic() {
    let (code, a) = json(&["check", "--format", "json", "fixtures"]);
    let (_, b) = json(&["check", "--format", "json", "-j", "1", "fixtures"]);
    assert_eq!(code, 1);
    assert_eq!(a, b);
    let paths: Vec<&str> = a["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    // .expected.json files are not a known format and are not read; the example site's
    // configuration leaves out its build/.
    let (_, site) = json(&["check", "--format", "json", "fixtures/site"]);
    let site_files = site["summary"]["files"].as_u64().unwrap() as usize;
    // A package counts the parts it reads, each a document of its own; one known by its
    // content only is read when named, not when walking.
    let named_only = fixture_documents()
        .iter()
        .filter(|d| irilint::source::Format::from_path(d).is_none())
        .count();
    let (packages, parts) = fixture_documents()
        .iter()
        .filter(|d| d.starts_with("fixtures/packages"))
        .filter(|d| irilint::source::Format::from_path(d).is_some())
        .map(|d| {
            let (_, one) = json(&["check", "--format", "json", d.to_str().unwrap()]);
            one["summary"]["files"].as_u64().unwrap() as usize
        })
        .fold((0, 0), |(n, parts), k| (n + 1, parts + k));
    assert!(parts > packages, "{parts} parts in {packages} packages");
    assert_eq!(
        a["summary"]["files"],
        fixture_documents().len() - named_only - packages + parts + site_files
    );
}

#[test]
fn json_report_has_the_contract_shape() {
    let args = ["check", "--format", "json", "fixtures/text/bom-crlf.txt"];
    let (_, raw, _) = run(&args);
    assert_key_order(
        &raw,
        0,
        &["version", "tool", "diagnostics", "errors", "summary"],
    );
    let first = raw.find("\"rule\":").unwrap() - 1;
    assert_key_order(
        &raw,
        first,
        &[
            "rule",
            "severity",
            "message",
            "help",
            "path",
            "span",
            "iri",
            "iri_range",
            "component",
            "rfc",
            "fix",
        ],
    );
    let (_, r) = json(&args);
    assert_eq!(r["version"], 1);
    assert_eq!(r["tool"]["name"], "irilint");
    assert_eq!(r["errors"], Value::Array(vec![]));
    let d = &r["diagnostics"][0];
    // BOM (3) + "First line\r\n" (12) + "See https://example.com/" (24)
    assert_eq!(d["span"]["start"]["offset"], 39);
    assert_eq!(d["span"]["end"]["offset"], 42);
    assert_eq!(d["span"]["start"]["line"], 2);
    assert_eq!(d["span"]["start"]["column"], 25);
    assert_eq!(d["iri_range"], serde_json::json!([20, 23]));
    assert_eq!(d["rfc"], "4.1");
    // The fix removes exactly the character: its edit is located as `span` is.
    assert_eq!(d["fix"]["applicability"], "unsafe");
    assert_eq!(d["fix"]["edits"][0]["span"], d["span"]);
    assert_eq!(d["fix"]["edits"][0]["replacement"], "");
}

#[test]
fn json_never_carries_hidden_characters_raw() {
    let (_, stdout, _) = run(&[
        "check",
        "--format",
        "json",
        "fixtures/text/trojan-source.txt",
    ]);
    assert!(stdout.contains(r"\u202e"));
    for c in ['\u{202E}', '\u{2066}', '\u{1B}', '\u{7}'] {
        assert!(!stdout.contains(c), "raw U+{:04X} in JSON", c as u32);
    }
}

#[test]
fn human_report_is_safe_and_coloured_only_when_asked() {
    let (code, plain, _) = run(&["check", "fixtures/text/trojan-source.txt"]);
    assert_eq!(code, 1);
    assert!(plain.contains("⟨U+202E⟩gpj.exe"), "{plain}");
    assert!(
        plain.contains("Found 5 errors in 1 file (5 IRIs checked)."),
        "{plain}"
    );
    assert!(
        !plain.contains('\u{1B}'),
        "no raw ESC and no colour when piped"
    );
    let (_, coloured, _) = run(&[
        "check",
        "--color",
        "always",
        "fixtures/text/trojan-source.txt",
    ]);
    assert!(
        coloured.contains("\u{1B}["),
        "colour codes with --color always"
    );
    assert!(
        !coloured.contains("\u{1B}]8;;https://evil"),
        "input ESC still escaped"
    );
    let out = irilint()
        .args(["check", "fixtures/text/trojan-source.txt"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stdout).unwrap().contains('\u{1B}'));
}

#[test]
fn concise_format() {
    let (code, out, _) = run(&[
        "check",
        "--format",
        "concise",
        "fixtures/text/normalization.txt",
    ]);
    assert_eq!(code, 0, "warnings only");
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("fixtures/text/normalization.txt:1:36: warning[not-nfc] "),
        "{first}"
    );
    // Three findings, then the summary, as the human report ends.
    assert_eq!(out.lines().count(), 4);
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.starts_with("Found 3 warnings in 1 file")),
        "{out}"
    );
    let (_, quiet, _) = run(&[
        "check",
        "--format",
        "concise",
        "--quiet",
        "fixtures/text/normalization.txt",
    ]);
    assert_eq!(quiet.lines().count(), 3, "{quiet}");
}

#[test]
fn a_new_users_conventions_colour_summary_and_suggestions() {
    // Colour forced through a pipe by FORCE_COLOR or CLICOLOR_FORCE; NO_COLOR still wins.
    for var in ["FORCE_COLOR", "CLICOLOR_FORCE"] {
        let out = irilint()
            .args(["check", "fixtures/text/trojan-source.txt"])
            .env(var, "1")
            .output()
            .unwrap();
        assert!(
            String::from_utf8(out.stdout).unwrap().contains("\u{1B}["),
            "{var}"
        );
        let out = irilint()
            .args(["check", "fixtures/text/trojan-source.txt"])
            .env(var, "1")
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(
            !String::from_utf8(out.stdout).unwrap().contains('\u{1B}'),
            "{var}"
        );
    }
    // A path that cannot be read fails the run, and the summary does not say it passed.
    for format in ["human", "concise"] {
        let (code, out, err) = run(&[
            "check",
            "--format",
            format,
            "fixtures/text/english.txt",
            "fixtures/no-such-file.txt",
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(!out.contains("No problems found"), "{format}: {out}");
        assert!(out.contains("1 path could not be read"), "{format}: {out}");
    }
    // A rule name cut short is suggested whole.
    let (code, _, err) = run(&[
        "check",
        "--select",
        "bidi-formatting",
        "fixtures/text/english.txt",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("did you mean `bidi-formatting-character`?"),
        "{err}"
    );
    // Nothing to check: the book's page is named by a link a wheel's user can open.
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.bin"), "x").unwrap();
    let out = irilint()
        .current_dir(dir.path())
        .args(["check", "."])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no file to check"), "{err}");
    assert!(
        err.contains("https://github.com/irilint/irilint/blob/main/docs/src/formats.md"),
        "{err}"
    );
}

#[test]
fn exit_codes() {
    assert_eq!(run(&["check", "fixtures/text/english.txt"]).0, 0);
    assert_eq!(run(&["check", "fixtures/text/syntax-errors.txt"]).0, 1);
    assert_eq!(run(&["check", "fixtures/text/normalization.txt"]).0, 0);
    assert_eq!(
        run(&[
            "check",
            "--deny-warnings",
            "fixtures/text/normalization.txt"
        ])
        .0,
        1
    );
    let (code, _, err) = run(&["check", "no/such/file.txt"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no/such/file.txt: cannot read it: no such file or directory"),
        "{err}"
    );
    let (code, _, err) = run(&["check", "--select", "not-nfd", "fixtures"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `not-nfc`?"), "{err}");
    let (code, _, err) = run(&["check", "--format", "text", "fixtures"]);
    assert_eq!(code, 2);
    assert!(err.contains("--input-format text"), "{err}");
}

#[test]
fn check_is_the_default_command() {
    let (code, a) = json(&["--format", "json", "fixtures/text/trojan-source.txt"]);
    let (_, b) = json(&[
        "check",
        "--format",
        "json",
        "fixtures/text/trojan-source.txt",
    ]);
    assert_eq!(code, 1);
    assert_eq!(a, b);
}

#[test]
fn select_and_ignore() {
    let path = "fixtures/text/syntax-errors.txt";
    let rules = |args: &[&str]| -> Vec<String> {
        let mut full = vec!["check", "--format", "json"];
        full.extend_from_slice(args);
        full.push(path);
        let (_, r) = json(&full);
        let mut ids: Vec<String> = r["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["rule"].as_str().unwrap().to_string())
            .collect();
        ids.dedup();
        ids.sort();
        ids.dedup();
        ids
    };
    assert_eq!(
        rules(&["--select", "syntax-unwise-ascii"]),
        ["syntax-unwise-ascii"]
    );
    assert_eq!(
        rules(&["--ignore", "syntax-invalid,syntax-unwise-ascii"]),
        ["syntax-bad-percent-encoding"]
    );
    assert!(rules(&["--select", "bidi"]).is_empty());
}

#[test]
fn stdin_with_a_filename() {
    let out = irilint()
        .args([
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "notes/a.txt",
            "-",
        ])
        .write_stdin("see https://example.org/\u{202E}x\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["diagnostics"][0]["path"], "notes/a.txt");
    assert_eq!(r["diagnostics"][0]["span"]["start"]["column"], 25);
    let out = irilint()
        .args(["check", "--format", "concise", "-"])
        .write_stdin("http://a/b%\n")
        .output()
        .unwrap();
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("-:1:11: error[syntax-bad-percent-encoding]")
    );
}

#[test]
fn concise_marks_what_fix_would_fix() {
    let out = irilint()
        .args(["check", "--format", "concise", "-"])
        .write_stdin("http://a.example/x^y\nhttp://a.example/\u{202E}\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // A safe fix is marked; an unsafe one (it may change the link) is not.
    assert_eq!(
        text,
        "-:1:19: warning[syntax-unwise-ascii] [*] '^' is not allowed in an IRI (path)\n\
         -:2:18: error[bidi-formatting-character] IRI contains U+202E RIGHT-TO-LEFT OVERRIDE\n\
         Found 1 error and 1 warning in 1 file (2 IRIs checked).\n"
    );
}

#[test]
fn walking_honours_gitignore_hidden_and_known_extensions() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join(".gitignore"), "ignored.txt\n").unwrap();
    fs::write(d.join("ignored.txt"), "http://a/\u{202E}\n").unwrap();
    fs::write(d.join(".hidden.txt"), "http://a/\u{202E}\n").unwrap();
    fs::write(d.join("page.unknown"), "http://a/\u{202E}\n").unwrap();
    fs::write(d.join("binary.txt"), b"http://a/\xE2\x80\xAE\x00\x01").unwrap();
    fs::create_dir(d.join("sub")).unwrap();
    fs::write(d.join("sub/b.txt"), "http://b/\u{202E}\n").unwrap();
    fs::write(d.join("a.txt"), "http://a/\u{202E}\n").unwrap();
    let (_, r) = json(&[
        "check",
        "--format",
        "json",
        "--no-hidden",
        d.to_str().unwrap(),
    ]);
    let paths: Vec<String> = r["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            Path::new(x["path"].as_str().unwrap())
                .strip_prefix(d)
                .unwrap()
                .display()
                .to_string()
        })
        .collect();
    assert_eq!(paths, ["a.txt", "sub/b.txt"]);
    // Named explicitly, an unknown extension is read as text and a binary file is reported.
    let (code, _, err) = run(&[
        "check",
        d.join("page.unknown").to_str().unwrap(),
        d.join("binary.txt").to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("skipped: binary file (NUL byte at offset 12)"),
        "{err}"
    );
}

#[test]
fn bad_input_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty.txt", vec![]),
        ("bom-only.txt", b"\xEF\xBB\xBF".to_vec()),
        ("utf16-bom-only.txt", b"\xFE\xFF".to_vec()),
        ("nul.txt", b"http://a/\x00b".to_vec()),
        ("lone-surrogates.txt", {
            let mut v = vec![0xFF, 0xFE];
            for u in "http://a/".encode_utf16().chain([0xD800, 0x0062, 0xDC00]) {
                v.extend(u.to_le_bytes());
            }
            v.push(0x41); // odd trailing byte
            v
        }),
        (
            "invalid-utf8.txt",
            b"http://a/\xC0\xAF\xFF\xFE https://b/\xF4\x90\x80\x80".to_vec(),
        ),
        ("truncated.txt", b"http://[::1".to_vec()),
        ("only-scheme.txt", b"https: http:// www. mailto:".to_vec()),
    ];
    for (name, bytes) in &cases {
        fs::write(d.join(name), bytes).unwrap();
        for format in ["human", "json", "concise"] {
            let out = irilint()
                .args(["check", "--format", format, d.join(name).to_str().unwrap()])
                .output()
                .unwrap();
            let code = out.status.code().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                code == 0 || code == 1,
                "{name} {format}: exit {code}\n{stderr}"
            );
            assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        }
    }
    let (_, r) = json(&[
        "check",
        "--format",
        "json",
        d.join("lone-surrogates.txt").to_str().unwrap(),
    ]);
    // The lone surrogates are not UTF-16 (the BOM's encoding): reported once for the document,
    // and the three U+FFFD they became in the IRI's path once, at each of its places.
    let rules: Vec<&str> = r["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["encoding-declaration-mismatch", "syntax-invalid"]);
    assert_eq!(r["diagnostics"][1]["spans"].as_array().unwrap().len(), 3);
    assert_eq!(
        r["diagnostics"][1]["iri"],
        "http://a/\u{FFFD}b\u{FFFD}\u{FFFD}"
    );
}

#[test]
fn a_ten_megabyte_line_and_a_hundred_thousand_iris() {
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("long.txt");
    let mut line = "x".repeat(10 * 1024 * 1024);
    line.push_str(" https://example.org/\u{202E}end");
    fs::write(&long, &line).unwrap();
    let (code, r) = json(&["check", "--format", "json", long.to_str().unwrap()]);
    assert_eq!(code, 1);
    // 10 MiB of `x`, a space and `https://example.org/` (20) precede the U+202E.
    assert_eq!(
        r["diagnostics"][0]["span"]["start"]["column"],
        10 * 1024 * 1024 + 22
    );
    let (_, human, _) = run(&["check", long.to_str().unwrap()]);
    assert!(
        human.len() < 4000,
        "the long line is windowed: {} bytes",
        human.len()
    );

    let many = dir.path().join("many.txt");
    let mut text = String::new();
    for i in 0..100_000 {
        text.push_str(&format!("https://example.org/{i}/\u{202E}x "));
    }
    fs::write(&many, &text).unwrap();
    let (code, r) = json(&["check", "--format", "json", many.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(r["summary"]["iris"], 100_000);
    assert_eq!(r["summary"]["errors"], 100_000);
    // A file lists its first MAX_LISTED findings and counts the rest.
    let listed = irilint::check::MAX_LISTED;
    assert_eq!(r["diagnostics"].as_array().unwrap().len(), listed);
    assert_eq!(r["unlisted"][0]["count"], 100_000 - listed);
    assert_eq!(r["unlisted"][0]["rule"], "bidi-formatting-character");
    let last = &r["diagnostics"][listed - 1];
    let expected_column: usize = (0..listed - 1)
        .map(|i| {
            format!("https://example.org/{i}/\u{202E}x ")
                .chars()
                .count()
        })
        .sum::<usize>()
        + format!("https://example.org/{}/", listed - 1).len()
        + 1;
    assert_eq!(last["span"]["start"]["column"], expected_column);
    let (_, human, _) = run(&["check", many.to_str().unwrap()]);
    // Each listed finding, and the notice of the others.
    assert_eq!(
        human.matches("bidi-formatting-character").count(),
        listed + 1
    );
    assert!(human.contains(&format!(
        "{} more error findings of bidi-formatting-character not listed",
        100_000 - listed
    )));
}

#[test]
fn rules_and_explain() {
    let (code, list) = json(&["rules", "--format", "json"]);
    assert_eq!(code, 0);
    let rules = list.as_array().unwrap();
    assert!(rules.len() >= 7);
    for r in rules {
        let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["group", "id", "rfc", "severity", "summary"]);
    }
    let bidi = rules
        .iter()
        .find(|r| r["id"] == "bidi-formatting-character")
        .unwrap();
    assert_eq!(bidi["severity"], "error");
    assert_eq!(bidi["rfc"], "4.1, 8");
    let (code, doc, _) = run(&["explain", "not-nfc"]);
    assert_eq!(code, 0);
    assert!(doc.starts_with("# not-nfc\n"));
    // The encoding, percent-encoding, style and equivalence rules are listed and explained.
    let (_, human, _) = run(&["rules"]);
    let lines: Vec<&str> = human.lines().collect();
    for id in [
        "encoding-declaration-mismatch",
        "encoding-utf8-in-legacy-document",
        "encoding-mojibake",
        "percent-non-utf8",
        "percent-overlong-utf8",
        "percent-encoded-forbidden",
        "percent-lowercase-hex",
        "percent-encoded-unreserved",
        "case-scheme-host",
        "dot-segment",
        "equivalent-variants",
    ] {
        assert!(
            rules.iter().any(|r| r["id"] == id),
            "{id} in rules --format json"
        );
        assert!(
            lines.iter().any(|l| l.starts_with(&format!("{id} "))),
            "{id} in rules"
        );
        let (code, doc, _) = run(&["explain", id]);
        assert_eq!(code, 0);
        assert!(doc.starts_with(&format!("# {id}\n")), "{id}");
    }
    // Columns line up whatever the longest id: the group column starts at one place.
    let group_column: Vec<usize> = lines
        .iter()
        .map(|l| l.find(' ').unwrap() + l[l.find(' ').unwrap()..].find(|c| c != ' ').unwrap())
        .collect();
    assert!(group_column.windows(2).all(|w| w[0] == w[1]), "{human}");
    let (code, _, err) = run(&["explain", "bidi-formating-character"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("did you mean `bidi-formatting-character`?"),
        "{err}"
    );
}

#[test]
fn inspect_json_shape() {
    let args = ["inspect", "--format", "json", "http://[::1]:8080/p?q#f"];
    let (code, raw, _) = run(&args);
    assert_eq!(code, 0);
    assert_key_order(
        &raw,
        0,
        &[
            "input",
            "valid",
            "kind",
            "error",
            "components",
            "scheme",
            "authority",
            "userinfo",
            "host",
            "host_kind",
            "port",
            "path",
            "query",
            "fragment",
            "characters",
            "diagnostics",
        ],
    );
    let (_, v) = json(&args);
    assert_eq!(v["components"]["host"], "[::1]");
    assert_eq!(v["components"]["host_kind"], "ipv6");
    let (code, v) = json(&["inspect", "--format", "json", "--", "-a:b"]);
    assert_eq!(code, 1, "invalid IRI exits 1");
    assert_eq!(v["valid"], false);
    assert_eq!(v["kind"], Value::Null);
    assert_eq!(v["error"]["offset"], 0);
    assert_eq!(
        v["error"]["message"],
        "the scheme must start with an ASCII letter"
    );
    let (_, v) = json(&["inspect", "--format", "json", ""]);
    assert_eq!(
        (v["valid"].clone(), v["kind"].clone()),
        (Value::Bool(true), "relative".into())
    );
}

#[test]
fn list_shows_what_is_checked() {
    let (code, v) = json(&["list", "--format", "json", "fixtures/text/hebrew.txt"]);
    assert_eq!(code, 0);
    assert_eq!(v["version"], 1);
    let occ = v["occurrences"].as_array().unwrap();
    assert_eq!(occ.len(), 2);
    assert_eq!(occ[1]["iri"], "https://example.co.il/חיפוש?מילה=שלום");
    assert_eq!(occ[1]["origin"], "text");
    assert_eq!(occ[1]["span"]["start"]["line"], 1);
    assert_eq!(occ[1]["span"]["start"]["column"], 59);
}

/// In a legacy document, `not-nfc` and `equivalent-variants` see the IRI as converted to Unicode.
#[test]
fn a_legacy_page_spells_what_its_conversion_to_unicode_gives() {
    // windows-1258 writes `ế` as `ê` (0xEA) + U+0301 (0xEC): RFC 3987 §3.1 step 1b normalizes
    // it, so the page and a UTF-8 page with `ế` spell the same IRI. A UTF-8 page with the
    // decomposed form does not.
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("a.html"),
        b"<meta charset=windows-1258><a href=\"https://example.vn/ti\xEA\xECng\">x</a>\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("b.md"),
        "<https://example.vn/ti\u{1EBF}ng>\n",
    )
    .unwrap();
    let root = dir.path().to_str().unwrap();
    let args = [
        "check",
        "--format",
        "json",
        "--select",
        "equivalent-variants,not-nfc",
    ];
    let (code, v) = json(&[&args[..], &[root]].concat());
    assert_eq!(code, 0);
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 0, "{v:#}");

    fs::write(
        dir.path().join("c.md"),
        "<https://example.vn/tie\u{302}\u{301}ng>\n",
    )
    .unwrap();
    let (_, v) = json(&[&args[..], &[root]].concat());
    let rules: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    // An NFD spelling in a UTF-8 document is no conversion from a legacy encoding: it is not
    // equivalent (RFC 3987 §5.3.2.2 forbids normalizing when comparing) and not-nfc reports it.
    assert_eq!(rules, ["not-nfc"], "{v:#}");
}

/// `equivalent-variants` groups spellings across files and formats: one report per resource, at
/// the first place that does not use the preferred spelling, the others as related places with
/// their paths; off by default.
#[test]
fn equivalent_variants_span_the_whole_project() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("a.html"),
        "<p><a href=\"HTTP://Example.com:80/%7Euser\">x</a> <a href=\"https://example.org/a\">y</a>\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("b.md"),
        "Home: <http://example.com/~user> and <https://example.org/b>\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("c.xml"),
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>http://example.com/~user</loc></url>\n</urlset>\n",
    )
    .unwrap();
    let root = dir.path().to_str().unwrap();
    let (code, v) = json(&["check", "--format", "json", root]);
    assert_eq!(code, 0);
    assert_eq!(v["summary"]["infos"], 0, "off by default");

    let (code, v) = json(&[
        "check",
        "--format",
        "json",
        "--select",
        "equivalent-variants",
        root,
    ]);
    assert_eq!(code, 0, "info does not fail the run");
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{v:#}");
    let d = &diags[0];
    assert!(d["path"].as_str().unwrap().ends_with("a.html"));
    assert_eq!(d["iri"], "HTTP://Example.com:80/%7Euser");
    assert_eq!(d["span"]["start"]["column"], 13);
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .contains("`http://example.com/~user` (2 of 3 places already do)"),
        "{d:#}"
    );
    let related: Vec<(String, u64)> = d["related"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let path = r["path"].as_str().unwrap();
            let name = Path::new(path).file_name().unwrap().to_str().unwrap();
            (
                name.to_string(),
                r["span"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(related, [("b.md".to_string(), 1), ("c.xml".to_string(), 2)]);

    let (_, human, _) = run(&[
        "check",
        "--color",
        "never",
        "--select",
        "equivalent-variants",
        root,
    ]);
    assert!(
        human.contains("a.html:1:13: the same resource is written"),
        "{human}"
    );
    assert!(human.contains("c.xml:2:11)"), "{human}");
    let (_, concise, _) = run(&[
        "check",
        "--format",
        "concise",
        "--select",
        "equivalent-variants",
        root,
    ]);
    assert_eq!(concise.lines().count(), 2, "{concise}");
    assert!(
        concise.contains("a.html:1:13: info[equivalent-variants]"),
        "{concise}"
    );
}

/// The report is written as the files are checked: by the one thread itself with `-j1`, by
/// workers handing files over in input order otherwise. Every format says the same either way.
#[test]
fn one_thread_and_several_write_the_same_reports() {
    // (Not JUnit: its timestamp is the time of the run.)
    for format in ["json", "sarif", "human", "concise", "github", "gitlab"] {
        let one = run(&["check", "-j1", "--format", format, "fixtures"]);
        let three = run(&["check", "-j3", "--format", format, "fixtures"]);
        assert_eq!(one, three, "{format}");
        assert_eq!(one.0, 1, "{format}: the fixtures have errors");
    }
}
