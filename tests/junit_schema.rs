//! The JUnit report against `tests/junit.xsd` (the subset of JUnit XML that Jenkins' schema and
//! GitLab accept) with a real XSD validator (PyPI `xmlschema`, installed by `.ci/run`), on the
//! fixtures' report and on one of hostile file names.

mod consumers;

use std::path::Path;
use std::process::Command;

fn schema() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/junit.xsd")
}

/// Whether the validator accepts `xml`, and what it said.
fn validate(validator: &Path, xml: &Path) -> (bool, String) {
    let out = Command::new(validator)
        .arg("--schema")
        .arg(schema())
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
