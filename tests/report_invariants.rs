//! The same findings whatever the run: on directories of hostile documents in every format,
//! `-j1`, `-j2` and `-j8` give byte-identical JSON, and every report format (concise, GitHub,
//! GitLab, JUnit, SARIF) carries exactly the JSON report's findings — the same rule at the same
//! file, line and column (in the column kind each format documents), none dropped or added.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use irilint::source::Format;
use proptest::prelude::*;
use serde_json::Value;

#[path = "common/hostile.rs"]
mod hostile;
use hostile::document;

/// A finding as every format can show it: path, rule, line and a column.
type Finding = (String, String, u64, u64);

/// Runs irilint in `dir` and returns its standard output (exit codes 0 and 1 only).
fn run(dir: &Path, args: &[&str]) -> String {
    let out = Command::cargo_bin("irilint")
        .expect("binary is built")
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .args(args)
        .output()
        .expect("runs");
    let code = out.status.code().expect("exited");
    assert!(
        code <= 1,
        "{args:?} exited {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Sorted, with paths relative to the directory checked (SARIF and GitLab write `d0/a.md` where
/// the others write `./d0/a.md`).
fn sorted(mut v: Vec<Finding>) -> Vec<Finding> {
    for f in &mut v {
        if let Some(p) = f.0.strip_prefix("./") {
            f.0 = p.to_owned();
        }
    }
    v.sort();
    v
}

/// The JSON report's findings, with the column `column` picks from a diagnostic.
fn from_json(report: &Value, column: impl Fn(&Value) -> u64) -> Vec<Finding> {
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    sorted(
        diagnostics
            .iter()
            .map(|d| {
                (
                    d["path"].as_str().unwrap().to_owned(),
                    d["rule"].as_str().unwrap().to_owned(),
                    d["span"]["start"]["line"].as_u64().unwrap(),
                    column(d),
                )
            })
            .collect(),
    )
}

/// `path:line:column: severity[rule] message`, as concise and JUnit's failure text write it.
fn parse_located(line: &str) -> Option<Finding> {
    let (location, rest) = line.split_once(": ")?;
    let mut parts = location.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let row = parts.next()?.parse().ok()?;
    let path = parts.next()?.to_owned();
    let rule = rest.split_once('[')?.1.split_once(']')?.0.to_owned();
    Some((path, rule, row, column))
}

fn from_concise(out: &str) -> Vec<Finding> {
    sorted(out.lines().filter_map(parse_located).collect())
}

/// GitHub workflow commands: columns are UTF-16 on single-line annotations.
fn from_github(out: &str) -> (Vec<Finding>, usize) {
    let mut found = Vec::new();
    let mut lines = 0;
    for line in out.lines().filter(|l| l.starts_with("::")) {
        lines += 1;
        let properties = line.split_once(' ').unwrap().1.split_once("::").unwrap().0;
        let get = |key: &str| {
            properties
                .split(',')
                .find_map(|p| p.strip_prefix(&format!("{key}=")))
                .map(str::to_owned)
        };
        let (Some(file), Some(row), Some(title)) = (get("file"), get("line"), get("title")) else {
            panic!("annotation without file, line or title: {line}");
        };
        let rule = title.split_once('(').unwrap().1.trim_end_matches(')');
        // Annotations that span lines have no column; those are compared by line below.
        let column = get("col").map_or(0, |c| c.parse().unwrap());
        found.push((file, rule.to_owned(), row.parse().unwrap(), column));
    }
    (sorted(found), lines)
}

fn from_gitlab(out: &str) -> Vec<Finding> {
    let report: Value = serde_json::from_str(out).expect("GitLab JSON");
    sorted(
        report
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["location"]["path"].as_str().unwrap().to_owned(),
                    i["check_name"].as_str().unwrap().to_owned(),
                    i["location"]["lines"]["begin"].as_u64().unwrap(),
                    0,
                )
            })
            .collect(),
    )
}

fn from_junit(out: &str) -> Vec<Finding> {
    // Each <failure> element's text starts with the concise line of its finding; a finding that
    // does not fail the run is a passing test case named `PATH:LINE:COLUMN: RULE (severity)`.
    let failing = out.split("<failure ").skip(1).map(|f| {
        let text = f.split_once('>').unwrap().1;
        parse_located(text.lines().next().unwrap())
            .unwrap_or_else(|| panic!("failure text without a location: {text}"))
    });
    let passing = out.split("<testcase name=\"").skip(1).filter_map(|c| {
        let name = c.split_once('"').unwrap().0;
        let (case, severity) = name.strip_suffix(')')?.rsplit_once(" (")?;
        assert!(["warning", "info"].contains(&severity), "{name}");
        let unescaped = case
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&");
        let (location, rule) = unescaped.split_once(": ")?;
        parse_located(&format!("{location}: {severity}[{rule}] passing"))
    });
    sorted(failing.chain(passing).collect())
}

fn from_sarif(out: &str) -> Vec<Finding> {
    let report: Value = serde_json::from_str(out).expect("SARIF JSON");
    sorted(
        report["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let location = &r["locations"][0]["physicalLocation"];
                let region = &location["region"];
                (
                    location["artifactLocation"]["uri"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                    r["ruleId"].as_str().unwrap().to_owned(),
                    region["startLine"].as_u64().unwrap(),
                    region["startColumn"].as_u64().unwrap(),
                )
            })
            .collect(),
    )
}

/// Writes one document per format (names that only ASCII-safe tools can show) and a
/// configuration that reads each extension as its format.
fn write_site(dir: &Path, documents: &[Vec<u8>]) {
    let mut config = String::from("[input-format]\n");
    for format in Format::ALL {
        config.push_str(&format!("\"*.{0}\" = \"{0}\"\n", format.name()));
    }
    fs::write(dir.join("irilint.toml"), config).unwrap();
    for (i, bytes) in documents.iter().enumerate() {
        let format = Format::ALL[i % Format::ALL.len()];
        let sub = dir.join(format!("d{}", i % 3));
        fs::create_dir_all(&sub).unwrap();
        fs::write(sub.join(format!("doc{i}.{}", format.name())), bytes).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn every_run_and_every_format_report_the_same_findings(
        documents in proptest::collection::vec(document(), Format::ALL.len() * 2..Format::ALL.len() * 4),
    ) {
        let dir = tempfile::tempdir().unwrap();
        write_site(dir.path(), &documents);
        let d = dir.path();

        let serial = run(d, &["check", "--format", "json", "-j", "1", "."]);
        prop_assert_eq!(&run(d, &["check", "--format", "json", "-j", "2", "."]), &serial);
        prop_assert_eq!(&run(d, &["check", "--format", "json", "-j", "8", "."]), &serial);

        let report: Value = serde_json::from_str(&serial).unwrap();
        // Binary documents are skipped while walking; the others are all read.
        prop_assert!(report["summary"]["files"].as_u64().unwrap() as usize <= documents.len());
        let scalar = from_json(&report, |d| d["span"]["start"]["column"].as_u64().unwrap());
        let utf16 = from_json(&report, |d| d["span"]["start"]["utf16_column"].as_u64().unwrap());
        // GitHub gives columns only to annotations on one line; GitLab gives none.
        let github = from_json(&report, |d| {
            let (start, end) = (&d["span"]["start"], &d["span"]["end"]);
            if start["line"] == end["line"] { start["utf16_column"].as_u64().unwrap() } else { 0 }
        });
        let gitlab = from_json(&report, |_| 0);

        prop_assert_eq!(from_concise(&run(d, &["check", "--format", "concise", "."])), scalar.clone());
        prop_assert_eq!(from_junit(&run(d, &["check", "--format", "junit", "."])), scalar);
        prop_assert_eq!(from_sarif(&run(d, &["check", "--format", "sarif", "."])), utf16);
        prop_assert_eq!(from_gitlab(&run(d, &["check", "--format", "gitlab", "."])), gitlab);
        let (annotations, count) = from_github(&run(d, &["check", "--format", "github", "."]));
        prop_assert_eq!(count, github.len());
        prop_assert_eq!(annotations, github);
    }
}

#[test]
fn the_report_parsers_read_what_they_are_given() {
    // The comparison above is only as good as these readers: check them on a known finding.
    let finding = (
        "a/b.txt".to_owned(),
        "bidi-formatting-character".to_owned(),
        3,
        17,
    );
    assert_eq!(
        parse_located("a/b.txt:3:17: error[bidi-formatting-character] IRI contains U+202E"),
        Some(finding.clone())
    );
    let github = "::error file=a/b.txt,line=3,endLine=3,col=17,endColumn=18,title=irilint (bidi-formatting-character)::x";
    assert_eq!(from_github(github), (vec![finding], 1));
}

#[test]
fn no_format_writes_a_hostile_file_name_raw() {
    let dir = tempfile::tempdir().unwrap();
    let name = "a\u{202E}b\u{1B}[31mc\u{200B}\u{9B}d.txt";
    fs::write(dir.path().join(name), "see https://e.org/\u{202E}x\n").unwrap();
    for format in [
        "human", "concise", "json", "sarif", "github", "gitlab", "junit",
    ] {
        let out = run(dir.path(), &["check", "--format", format, "."]);
        assert!(out.contains("d.txt"), "{format}: the file is reported");
        let raw: Vec<char> = out
            .chars()
            .filter(|&c| c != '\n' && irilint::iri::chars::is_unsafe_to_display(c))
            .collect();
        assert!(raw.is_empty(), "{format} wrote {raw:?} raw");
    }
}
