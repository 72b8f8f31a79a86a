//! The CI report formats (`sarif`, `github`, `junit`, `gitlab`) end to end, without their
//! consumers (those are in `sarif_validator.rs`, `junit_schema.rs`, `pre_commit_hook.rs`):
//! golden reports checked by hand once (`IRILINT_BLESS=1` rewrites them), hostile file names
//! and IRIs in every format, fingerprints that survive moved lines, `--output-file` and
//! `--exit-zero`.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use irilint::iri::chars::is_unsafe_to_display;
use serde_json::Value;

const FORMATS: [&str; 7] = [
    "human", "concise", "json", "sarif", "github", "junit", "gitlab",
];

/// Runs irilint in `dir` and returns (exit code, stdout, stderr).
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("irilint")
        .expect("binary is built")
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        // The JUnit report's timestamp, fixed so that reports compare.
        .env("SOURCE_DATE_EPOCH", "0")
        .output()
        .expect("runs");
    (
        out.status.code().expect("exited"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// A directory with the files `(name, contents)`.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    dir
}

/// Two copies of one link with a U+202E written as a character reference, a zero-width space
/// in Markdown prose, and a clean file.
fn sample() -> tempfile::TempDir {
    tree(&[
        (
            "page.html",
            "<!doctype html>\n<p><a href=\"https://example.org/&#x202E;gnp.exe\">invoice</a>\n<p><a href=\"https://example.org/&#x202E;gnp.exe\">again</a>\n",
        ),
        (
            "docs/notes.md",
            "# Notes\n\nSee https://example.org/a\u{200B}b for details.\n",
        ),
        ("clean.txt", "https://example.org/ok\n"),
    ])
}

const SAMPLE_RULES: &str = "--select=bidi-formatting-character,invisible-character";

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/ci")
        .join(name)
}

/// Compares `actual` with the golden file, or rewrites it with `IRILINT_BLESS=1`.
fn assert_golden(name: &str, actual: &str) {
    let path = golden(name);
    if std::env::var_os("IRILINT_BLESS").is_some() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (IRILINT_BLESS=1 writes it)", path.display()));
    assert_eq!(
        actual,
        expected,
        "{} differs (IRILINT_BLESS=1 rewrites it; review the diff by hand)",
        path.display()
    );
}

/// The SARIF log with what depends on the machine or on the rule docs taken out: the working
/// directory's URI, and each rule's help and descriptions (held to the docs here instead).
fn normalize_sarif(text: &str, dir: &Path) -> Value {
    let mut log: Value = serde_json::from_str(text).expect("SARIF is JSON");
    let run = &mut log["runs"][0];
    let base = &mut run["originalUriBaseIds"]["%SRCROOT%"]["uri"];
    let expected_base = format!("file://{}/", dir.canonicalize().unwrap().display());
    assert_eq!(base.as_str(), Some(expected_base.as_str()));
    *base = Value::from("file:///WORKDIR/");
    for rule in run["tool"]["driver"]["rules"].as_array_mut().unwrap() {
        let id = rule["id"].as_str().unwrap().to_string();
        let doc = irilint::rules::rule(&id).expect("a known rule").doc;
        assert_eq!(rule["help"]["markdown"].as_str(), Some(doc), "{id}");
        assert_eq!(rule["help"]["text"].as_str(), Some(doc), "{id}");
        let summary = irilint::rules::rule(&id).unwrap().summary();
        let short = rule["shortDescription"]["text"].as_str().unwrap();
        assert!(short.starts_with(summary), "{id}: {short}");
        let full = rule["fullDescription"]["text"].as_str().unwrap();
        assert!(
            full.len() > short.len() / 2 && full.ends_with('.'),
            "{id}: {full}"
        );
        rule["help"] = Value::from(format!("(rules/{id}.md)"));
        rule["shortDescription"] = Value::from("(its summary)");
        rule["fullDescription"] = Value::from("(its 'What it does')");
    }
    assert_eq!(
        run["tool"]["driver"]["version"].as_str(),
        Some(env!("CARGO_PKG_VERSION"))
    );
    run["tool"]["driver"]["version"] = Value::from("VERSION");
    run["tool"]["driver"]["semanticVersion"] = Value::from("VERSION");
    log
}

#[test]
fn golden_reports() {
    let dir = sample();
    let dir = dir.path().canonicalize().unwrap();
    for (format, name) in [
        ("sarif", "sample.sarif"),
        ("github", "sample.github.txt"),
        ("junit", "sample.junit.xml"),
        ("gitlab", "sample.gitlab.json"),
    ] {
        let (code, out, err) = run_in(&dir, &["check", SAMPLE_RULES, "--format", format]);
        assert_eq!(code, 1, "{format}: {err}");
        assert_eq!(err, "", "{format}");
        let out = if format == "sarif" {
            let mut s = serde_json::to_string_pretty(&normalize_sarif(&out, &dir)).unwrap();
            s.push('\n');
            s
        } else {
            out
        };
        assert_golden(name, &out);
    }
}

#[test]
fn sarif_locations_count_utf16_code_units_and_rules_are_indexed() {
    // `𝒳` is two UTF-16 code units: the U+202E after it starts at UTF-16 column 25, scalar 24.
    let dir = tree(&[("a.txt", "\u{1D4B3} https://e.org/\u{202E}x\n")]);
    let (_, out, _) = run_in(dir.path(), &["check", "--format", "sarif"]);
    let log: Value = serde_json::from_str(&out).unwrap();
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "utf16CodeUnits");
    let result = &run["results"][0];
    let region = &result["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (&region["startColumn"], &region["endColumn"]),
        (&Value::from(18), &Value::from(19))
    );
    let index = result["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(
        run["tool"]["driver"]["rules"][index]["id"],
        result["ruleId"]
    );
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"],
        serde_json::json!({"uri": "a.txt", "uriBaseId": "%SRCROOT%"})
    );
    // Every rule that ran is described, not only those that found something.
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(|r| r["id"] == "syntax-invalid"));
    assert!(
        !rules.iter().any(|r| r["id"] == "percent-lowercase-hex"),
        "an info rule, off"
    );
    assert_eq!(run["invocations"][0]["exitCode"], 1);
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
}

/// File names and IRIs an attacker chooses: a bidi override, a terminal escape, CR and LF,
/// GitHub's `%`, `:` and `,`, and XML's markup characters.
fn hostile() -> tempfile::TempDir {
    tree(&[
        (
            "a%b:c,d\u{202E}e.txt",
            "see http://example.org/\u{202E}gnp.exe\n",
        ),
        ("esc\u{1b}[31m.txt", "see http://example.org/\u{1b}[2Jx\n"),
        ("cr\rlf\n.txt", "see http://example.org/a\u{200B}b\n"),
        ("q\"<&>'.txt", "see http://example.org/\u{200F}<&>\"'\n"),
    ])
}

#[test]
fn no_format_writes_a_hidden_character_from_the_input() {
    let dir = hostile();
    for format in FORMATS {
        let (code, out, err) = run_in(dir.path(), &["check", "--format", format]);
        assert_eq!(code, 1, "{format}: {err}");
        let raw: Vec<char> = out
            .chars()
            .filter(|&c| c != '\n' && is_unsafe_to_display(c))
            .collect();
        assert!(raw.is_empty(), "{format} writes {raw:?} raw:\n{out}");
        assert!(!err.chars().any(is_unsafe_to_display), "{format}: {err}");
    }
}

#[test]
fn github_escapes_properties_and_messages() {
    let dir = hostile();
    let (_, out, _) = run_in(dir.path(), &["check", "--format", "github"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 4, "{out}");
    for line in &lines {
        assert!(line.starts_with("::error file="), "{line}");
        // Exactly one `::` ends the properties: nothing in them can end them early.
        assert_eq!(line[2..].matches("::").count(), 1, "{line}");
    }
    assert!(
        out.contains(
            "::error file=a%25b%3Ac%2Cd⟨U+202E⟩e.txt,line=1,endLine=1,col=24,endColumn=25,"
        ),
        "{out}"
    );
    assert!(out.contains("file=esc⟨U+001B⟩[31m.txt,"), "{out}");
    assert!(out.contains("file=cr⟨U+000D⟩lf⟨U+000A⟩.txt,"), "{out}");
    assert!(
        out.contains(",title=irilint (bidi-formatting-character)::"),
        "{out}"
    );
    // The help follows the message on a line of its own, escaped as GitHub decodes it.
    assert!(out.contains("RIGHT-TO-LEFT OVERRIDE%0Ahelp: "), "{out}");
}

#[test]
fn sarif_uris_are_percent_encoded_and_messages_visible() {
    let dir = hostile();
    let (_, out, _) = run_in(dir.path(), &["check", "--format", "sarif"]);
    let log: Value = serde_json::from_str(&out).unwrap();
    let uris: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    for expected in [
        "a%25b%3Ac,d%E2%80%AEe.txt",
        "esc%1B%5B31m.txt",
        "cr%0Dlf%0A.txt",
        "q%22%3C&%3E'.txt",
    ] {
        assert!(uris.contains(&expected), "{expected} not in {uris:?}");
    }
    let texts: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["message"]["text"].as_str().unwrap())
        .collect();
    for text in &texts {
        assert!(!text.chars().any(is_unsafe_to_display), "{text:?}");
        assert!(text.ends_with('.'), "{text}");
    }
}

#[test]
fn junit_is_well_formed_xml_with_every_name_escaped() {
    let dir = hostile();
    let (_, out, _) = run_in(dir.path(), &["check", "--format", "junit"]);
    let mut reader = quick_xml::Reader::from_str(&out);
    let mut names = Vec::new();
    let mut failures = 0;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e)) => {
                match e.name().into_inner() {
                    "testcase" => {
                        let name = e
                            .try_get_attribute("name")
                            .unwrap()
                            .expect("a name")
                            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .unwrap()
                            .into_owned();
                        names.push(name);
                    }
                    "failure" => failures += 1,
                    _ => {}
                }
            }
            Ok(_) => {}
            Err(e) => panic!("not well-formed at {}: {e}\n{out}", reader.error_position()),
        }
    }
    names.sort();
    assert_eq!(
        names,
        [
            "a%b:c,d⟨U+202E⟩e.txt:1:24: bidi-formatting-character",
            "cr⟨U+000D⟩lf⟨U+000A⟩.txt:1:25: invisible-character",
            "esc⟨U+001B⟩[31m.txt:1:24: control-character",
            "q\"<&>'.txt:1:24: bidi-formatting-character",
        ]
    );
    assert!(failures >= 4, "{out}");
    assert!(
        out.contains("name=\"q&quot;&lt;&amp;&gt;&apos;.txt:1:24: bidi-formatting-character\""),
        "{out}"
    );
}

#[test]
fn gitlab_paths_and_descriptions_are_visible() {
    let dir = hostile();
    let (_, out, _) = run_in(dir.path(), &["check", "--format", "gitlab"]);
    let issues: Value = serde_json::from_str(&out).unwrap();
    let paths: Vec<&str> = issues
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["location"]["path"].as_str().unwrap())
        .collect();
    assert!(paths.contains(&"a%b:c,d⟨U+202E⟩e.txt"), "{paths:?}");
    assert!(paths.contains(&"esc⟨U+001B⟩[31m.txt"), "{paths:?}");
    for issue in issues.as_array().unwrap() {
        let severity = issue["severity"].as_str().unwrap();
        assert!(["info", "minor", "major"].contains(&severity), "{issue}");
        assert_eq!(issue["fingerprint"].as_str().unwrap().len(), 64);
        assert!(issue["location"]["lines"]["begin"].as_u64().unwrap() >= 1);
    }
}

/// (fingerprint, start line) of each finding, from SARIF and from GitLab, which must agree.
fn fingerprints(dir: &Path) -> Vec<(String, u64)> {
    let (_, sarif, _) = run_in(dir, &["check", "--format", "sarif"]);
    let log: Value = serde_json::from_str(&sarif).unwrap();
    let from_sarif: Vec<(String, u64)> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["partialFingerprints"]["irilintFindingHash/v1"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap(),
            )
        })
        .collect();
    let (_, gitlab, _) = run_in(dir, &["check", "--format", "gitlab"]);
    let issues: Value = serde_json::from_str(&gitlab).unwrap();
    let from_gitlab: Vec<(String, u64)> = issues
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["fingerprint"].as_str().unwrap().to_string(),
                i["location"]["lines"]["begin"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(from_sarif, from_gitlab);
    from_sarif
}

#[test]
fn fingerprints_survive_moved_lines_and_tell_copies_apart() {
    let link = "<a href=\"https://example.org/&#x202E;gnp.exe\">x</a>\n";
    let dir = tree(&[("docs/page.html", link)]);
    let page = dir.path().join("docs/page.html");
    let before = fingerprints(dir.path());
    assert_eq!(before.len(), 1);
    assert_eq!(before[0].1, 1);

    fs::write(
        &page,
        format!("<p>one</p>\n<p>two</p>\n<p>three</p>\n{link}"),
    )
    .unwrap();
    let moved = fingerprints(dir.path());
    assert_eq!(moved, [(before[0].0.clone(), 4)], "same finding, new line");

    fs::write(&page, format!("<p>one</p>\n{link}<p>two</p>\n{link}")).unwrap();
    let copies = fingerprints(dir.path());
    assert_eq!(copies.len(), 2);
    assert_eq!(
        copies[0],
        (before[0].0.clone(), 2),
        "the first copy keeps it"
    );
    assert_ne!(copies[1].0, before[0].0, "the second copy is a new finding");

    // The same link in another file is another finding.
    fs::write(dir.path().join("other.html"), link).unwrap();
    let other = fingerprints(dir.path());
    assert_eq!(other.len(), 3);
    assert!(other.iter().filter(|(f, _)| *f == before[0].0).count() == 1);
}

#[test]
fn output_file_gets_the_report_and_the_terminal_only_the_summary() {
    let dir = sample();
    let out_dir = tempfile::tempdir().unwrap();
    for format in FORMATS {
        let (_, expected, _) = run_in(dir.path(), &["check", SAMPLE_RULES, "--format", format]);
        let file = out_dir.path().join(format!("report.{format}"));
        let (code, out, err) = run_in(
            dir.path(),
            &[
                "check",
                SAMPLE_RULES,
                "--format",
                format,
                "--output-file",
                file.to_str().unwrap(),
            ],
        );
        // Standard output gets nothing; standard error the summary, so that a CI log says why.
        assert_eq!((code, out.as_str()), (1, ""), "{format}");
        assert_eq!(
            err,
            format!(
                "Found 3 errors in 3 files (4 IRIs checked). Report: {}\n",
                file.display()
            ),
            "{format}"
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), expected, "{format}");
    }
    // Written through a temporary file in the same directory, which is gone.
    let names: Vec<_> = fs::read_dir(out_dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), FORMATS.len(), "{names:?}");
    assert!(names.iter().all(|n| n.starts_with("report.")), "{names:?}");
}

#[test]
fn an_output_file_that_cannot_be_written_fails_the_run() {
    let dir = sample();
    let (code, out, err) = run_in(
        dir.path(),
        &[
            "check",
            "--format",
            "sarif",
            "--output-file",
            "missing/r.sarif",
        ],
    );
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.contains("cannot write the report to missing/r.sarif: no such file or directory"),
        "{err}"
    );
}

#[test]
fn human_report_in_a_file_has_no_colour_unless_asked() {
    let dir = sample();
    let (_, _, _) = run_in(dir.path(), &["check", "--output-file", "r.txt"]);
    let text = fs::read_to_string(dir.path().join("r.txt")).unwrap();
    assert!(text.contains("Found "), "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");
    run_in(
        dir.path(),
        &["check", "--output-file", "c.txt", "--color", "always"],
    );
    let text = fs::read_to_string(dir.path().join("c.txt")).unwrap();
    assert!(text.contains("\u{1b}["), "--color always is obeyed");
}

#[test]
fn exit_zero_reports_errors_but_not_a_failed_run() {
    let dir = sample();
    let (code, out, _) = run_in(dir.path(), &["check", "--exit-zero", "--format", "sarif"]);
    assert_eq!(code, 0);
    let log: Value = serde_json::from_str(&out).unwrap();
    assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty());
    assert_eq!(log["runs"][0]["invocations"][0]["exitCode"], 0);
    let (code, out, _) = run_in(dir.path(), &["check", "--exit-zero", "--format", "concise"]);
    assert_eq!(code, 0);
    assert!(out.contains("error[bidi-formatting-character]"), "{out}");

    let (code, _, err) = run_in(dir.path(), &["check", "--exit-zero", "no-such-file.html"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = run_in(dir.path(), &["check", "--exit-zero", "--format", "nope"]);
    assert_eq!(code, 2);
}

#[test]
fn skipped_files_are_notes_in_every_ci_format() {
    let dir = tree(&[("bin.txt", "a\0b"), ("bad.txt", "http://e.org/\u{202E}\n")]);
    let args = |f| ["check", "--format", f, "bin.txt", "bad.txt"];
    let (_, out, err) = run_in(dir.path(), &args("github"));
    assert!(
        out.contains(
            "::notice file=bin.txt,title=irilint::skipped: binary file (NUL byte at offset 1)\n"
        ),
        "{out}"
    );
    assert!(err.contains("bin.txt: skipped"), "{err}");
    let (_, out, _) = run_in(dir.path(), &args("junit"));
    assert!(out.contains("<testcase name=\"bin.txt\" classname=\"irilint\" time=\"0\">\n      <skipped message=\"skipped: binary file (NUL byte at offset 1)\"/>"), "{out}");
    assert!(
        out.contains("tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"1\""),
        "{out}"
    );
    let (_, out, _) = run_in(dir.path(), &args("sarif"));
    let log: Value = serde_json::from_str(&out).unwrap();
    let notes = &log["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert_eq!(notes[0]["level"], "note");
    assert_eq!(
        notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "bin.txt"
    );
}

#[test]
fn report_formats_are_listed_when_one_is_wrong() {
    let dir = sample();
    let (code, _, err) = run_in(dir.path(), &["check", "--format", "sarf"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("report formats are human, json, concise, sarif, github, junit, gitlab"),
        "{err}"
    );
}
