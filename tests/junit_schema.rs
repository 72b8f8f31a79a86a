//! The JUnit report against the strict Apache Ant JUnit schema (`tests/junit.xsd`: one failure
//! per test case, `time` everywhere, `timestamp` and `hostname` on the suite) and Jenkins' xunit
//! schema (`tests/junit-10.xsd`), with a real XSD validator (PyPI `xmlschema`, installed by
//! `.ci/run`), on the fixtures' report, on one of hostile file names and on one with every kind
//! of test case; and the counts against the test cases.

mod consumers;

use std::path::Path;
use std::process::Command;

/// The schemas every report must pass: the strict Ant one first.
const SCHEMAS: [&str; 2] = ["tests/junit.xsd", "tests/junit-10.xsd"];

/// Whether the validator accepts `xml` against every schema, and what it said.
fn validate(validator: &Path, xml: &Path) -> (bool, String) {
    let mut said = String::new();
    for schema in SCHEMAS {
        let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join(schema);
        let (valid, text) = validate_with(validator, &schema, xml);
        said.push_str(&text);
        if !valid {
            return (false, said);
        }
    }
    (true, said)
}

/// Whether the validator accepts `xml` against `schema`, and what it said.
fn validate_with(validator: &Path, schema: &Path, xml: &Path) -> (bool, String) {
    let out = Command::new(validator)
        .arg("--schema")
        .arg(schema)
        .arg(xml)
        .output()
        .expect("xmlschema-validate runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success() && said.contains("is valid"), said)
}

#[test]
fn the_fixtures_report_is_valid_junit() {
    let Some(validator) = consumers::require(consumers::xmlschema_validate(), "xmlschema") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("fixtures.xml");
    consumers::report_to_file(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        "junit",
        &["fixtures/"],
        &xml,
    );
    let (valid, said) = validate(&validator, &xml);
    assert!(valid, "{said}");
}

#[test]
fn a_report_of_hostile_names_is_valid_junit() {
    let Some(validator) = consumers::require(consumers::xmlschema_validate(), "xmlschema") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("q\"<&>'\u{1}.txt", "http://example.org/\u{202E}<&>\"'\n"),
        (
            "esc\u{1b}[31m\u{FFFE}.txt",
            "http://example.org/\u{1b}[2J\u{0}x\n",
        ),
        ("bin.txt", "\0"),
        ("]]>.txt", "http://example.org/]]>\u{200B}\n"),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let xml = dir.path().join("hostile.xml");
    consumers::report_to_file(dir.path(), "junit", &[], &xml);
    let (valid, said) = validate(&validator, &xml);
    assert!(valid, "{said}\n{}", std::fs::read_to_string(&xml).unwrap());
}

#[test]
fn the_validator_catches_a_report_the_schema_refuses() {
    // Without this, a validator that accepted anything would make the tests above pass.
    let Some(validator) = consumers::require(consumers::xmlschema_validate(), "xmlschema") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("bad.xml");
    // A `file` attribute on a test case: GitLab would read it, Jenkins' schema refuses it.
    std::fs::write(
        &xml,
        "<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" errors=\"0\"><testcase name=\"a\" classname=\"c\" file=\"a\"/></testsuite></testsuites>",
    )
    .unwrap();
    let (valid, said) = validate(&validator, &xml);
    assert!(!valid, "{said}");
}

#[test]
fn every_kind_of_test_case_is_valid_and_counted() {
    let Some(validator) = consumers::require(consumers::xmlschema_validate(), "xmlschema") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        // Three findings in one file: three test cases, one failure each.
        (
            "many.txt",
            "http://e.org/\u{202E}a http://e.org/\u{200B}b http://e.org/c%\n",
        ),
        ("clean.txt", "http://e.org/\n"),
        ("bin.txt", "\0"),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_irilint"))
        .args([
            "check",
            "--format",
            "junit",
            "bin.txt",
            "clean.txt",
            "many.txt",
        ])
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    let xml = dir.path().join("report.xml");
    std::fs::write(&xml, &report).unwrap();
    let (valid, said) = validate(&validator, &xml);
    assert!(valid, "{said}\n{report}");
    let count = |s: &str| report.matches(s).count();
    assert_eq!(count("<testcase "), 5, "{report}");
    assert_eq!(count("<failure "), 3, "{report}");
    assert_eq!(count("<skipped "), 1, "{report}");
    assert!(
        report.contains("tests=\"5\" failures=\"3\" errors=\"0\" skipped=\"1\" time=\"0\" timestamp=\"2023-11-14T22:13:20\" hostname=\"localhost\""),
        "{report}"
    );
    assert!(
        report.contains("<testcase name=\"many.txt:1:14: bidi-formatting-character\""),
        "{report}"
    );
}

#[test]
fn the_strict_schema_refuses_two_failures_in_one_test_case() {
    // The shape irilint wrote before: Jenkins' lenient schema takes it, the Ant schema does not.
    let Some(validator) = consumers::require(consumers::xmlschema_validate(), "xmlschema") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("two.xml");
    std::fs::write(
        &xml,
        "<testsuites><testsuite name=\"s\" package=\"s\" id=\"0\" tests=\"1\" failures=\"2\" errors=\"0\" time=\"0\" timestamp=\"2023-11-14T22:13:20\" hostname=\"localhost\"><properties/><testcase name=\"a\" classname=\"c\" time=\"0\"><failure type=\"r\">1</failure><failure type=\"r\">2</failure></testcase><system-out/><system-err/></testsuite></testsuites>",
    )
    .unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (valid, said) = validate_with(&validator, &root.join(SCHEMAS[0]), &xml);
    assert!(!valid, "{said}");
    let (valid, said) = validate_with(&validator, &root.join(SCHEMAS[1]), &xml);
    assert!(valid, "{said}");
}

#[test]
fn a_test_case_fails_exactly_when_its_finding_fails_the_run() {
    let Some(validator) = consumers::require(consumers::xmlschema_validate(), "xmlschema") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // A warning (a raw `^`) and an info (lowercase hex, selected), no error.
    std::fs::write(
        dir.path().join("w.txt"),
        "http://e.org/x^y http://e.org/%3a\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_irilint"))
            .args([
                "check",
                "--format",
                "junit",
                "--extend-select",
                "percent-lowercase-hex",
            ])
            .args(extra)
            .arg("w.txt")
            .current_dir(dir.path())
            .output()
            .unwrap();
        let report = String::from_utf8(out.stdout).unwrap();
        let xml = dir.path().join("report.xml");
        std::fs::write(&xml, &report).unwrap();
        let (valid, said) = validate(&validator, &xml);
        assert!(valid, "{said}\n{report}");
        (out.status.code().unwrap(), report)
    };
    // The run passes: no test case fails, and each finding is still a test case by its rule.
    let (code, report) = run(&[]);
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("tests=\"2\" failures=\"0\""), "{report}");
    assert!(!report.contains("<failure"), "{report}");
    assert!(
        report.contains(": syntax-unwise-ascii (warning)\""),
        "{report}"
    );
    assert!(
        report.contains(": percent-lowercase-hex (info)\""),
        "{report}"
    );
    // Warnings fail the run: their test cases fail, the info's does not.
    let (code, report) = run(&["--deny-warnings"]);
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("tests=\"2\" failures=\"1\""), "{report}");
    assert!(
        report.contains("<failure type=\"syntax-unwise-ascii\""),
        "{report}"
    );
}
