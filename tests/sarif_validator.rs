//! The SARIF report against Microsoft's SARIF validator (`sarif-multitool validate`, npm
//! `@microsoft/sarif-multitool`, installed by `.ci/run`): every rule kind it has (the SARIF
//! specification's rules and GitHub code scanning's ingestion rules), every level reported, and
//! no error or warning allowed — on the fixtures' report and on a report of hostile file names.

mod consumers;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Runs the validator on `sarif`; returns its findings that are errors or warnings (a result
/// without `level` is a warning in SARIF), and all of them for the failure message.
fn validate(multitool: &Path, sarif: &Path) -> (Vec<String>, String) {
    let out_dir = tempfile::tempdir().unwrap();
    let log = out_dir.path().join("validation.sarif");
    let out = Command::new(multitool)
        .arg("validate")
        .arg(sarif)
        .arg("--output")
        .arg(&log)
        .args(["--log", "ForceOverwrite"])
        .args(["--level", "Error;Warning;Note"])
        .args(["--rule-kind", "Sarif;Gh"])
        // The validator needs no culture data; without ICU installed it would not start.
        .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .output()
        .expect("the SARIF Multitool runs");
    let console = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "the validator failed ({}):\n{console}",
        out.status
    );
    let text = std::fs::read_to_string(&log)
        .unwrap_or_else(|e| panic!("no validation log ({e}):\n{console}"));
    let log: Value = serde_json::from_str(&text).expect("the validation log is JSON");
    let mut bad = Vec::new();
    for run in log["runs"].as_array().unwrap() {
        for r in run["results"].as_array().into_iter().flatten() {
            let level = r["level"].as_str().unwrap_or("warning");
            if level == "error" || level == "warning" {
                bad.push(format!("{level} {}: {}", r["ruleId"], r["message"]));
            }
        }
        for n in run["invocations"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|i| {
                [
                    "toolExecutionNotifications",
                    "toolConfigurationNotifications",
                ]
                .into_iter()
                .flat_map(move |k| i[k].as_array().into_iter().flatten())
            })
        {
            let level = n["level"].as_str().unwrap_or("warning");
            if level == "error" || level == "warning" {
                bad.push(format!("notification {level}: {}", n["message"]));
            }
        }
    }
    (bad, console)
}

#[test]
fn the_fixtures_report_passes_the_sarif_validator() {
    let Some(multitool) = consumers::require(consumers::sarif_multitool(), "the SARIF Multitool")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sarif = dir.path().join("fixtures.sarif");
    consumers::report_to_file(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        "sarif",
        &["fixtures/"],
        &sarif,
    );
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert!(log["runs"][0]["results"].as_array().unwrap().len() > 100);
    let (bad, console) = validate(&multitool, &sarif);
    assert!(bad.is_empty(), "{}\n{console}", bad.join("\n"));
}

#[test]
fn a_report_of_hostile_names_passes_the_sarif_validator() {
    let Some(multitool) = consumers::require(consumers::sarif_multitool(), "the SARIF Multitool")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        (
            "a%b:c,d\u{202E}e.txt",
            "http://example.org/\u{202E}gnp.exe\n",
        ),
        ("esc\u{1b}[31m #?.txt", "http://example.org/\u{1b}[2Jx\n"),
        ("unreadable.txt", "x"),
        ("caf\u{e9}.md", "[x](http://example.org/a\u{200B}b)\n"),
        ("bin.txt", "\0"),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let sarif = dir.path().join("hostile.sarif.json");
    consumers::report_to_file(dir.path(), "sarif", &[], &sarif);
    let (bad, console) = validate(&multitool, &sarif);
    assert!(bad.is_empty(), "{}\n{console}", bad.join("\n"));
}

#[test]
fn the_validator_catches_a_broken_log() {
    // Without this, a validator that reported nothing would make the tests above pass.
    let Some(multitool) = consumers::require(consumers::sarif_multitool(), "the SARIF Multitool")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "http://e.org/\u{202E}x\n").unwrap();
    let sarif = dir.path().join("broken.sarif");
    consumers::report_to_file(dir.path(), "sarif", &[], &sarif);
    let mut log: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        Value::from(0);
    std::fs::write(&sarif, serde_json::to_string(&log).unwrap()).unwrap();
    let (bad, _) = validate(&multitool, &sarif);
    assert!(bad.iter().any(|b| b.starts_with("error")), "{bad:?}");
    assert!(bad.iter().any(|b| b.contains("SARIF1007")), "{bad:?}");

    // GitHub's ingestion rules run too: a result without a location is refused.
    log["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("locations");
    std::fs::write(&sarif, serde_json::to_string(&log).unwrap()).unwrap();
    let (bad, _) = validate(&multitool, &sarif);
    assert!(bad.iter().any(|b| b.starts_with("error \"GH")), "{bad:?}");
}

#[test]
fn security_rules_carry_a_security_severity_for_github() {
    // GitHub lists a result as a security alert when its rule has `security-severity` (a score
    // as a string) and the tag `security`; the report keeps passing the validator with them.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.html"),
        "<a href=\"http://e.org/\u{202E}x\">x</a> <a href=\"http://e.org/a\u{200B}b\">y</a>\n\
         <a href=\"http://e.org/%7e\">z</a>\n",
    )
    .unwrap();
    let sarif = dir.path().join("security.sarif");
    consumers::report_to_file(dir.path(), "sarif", &["--select", "ALL"], &sarif);
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let rule = |id: &str| {
        rules
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id} is described"))
    };
    for id in [
        "bidi-formatting-character",
        "invisible-character",
        "confusable",
    ] {
        let properties = &rule(id)["properties"];
        let score: f64 = properties["security-severity"]
            .as_str()
            .unwrap_or_else(|| panic!("{id}: {properties}"))
            .parse()
            .unwrap();
        assert!(score >= 7.0, "{id}: high, {score}");
        let tags = properties["tags"].as_array().unwrap();
        assert!(tags.contains(&Value::from("security")), "{id}: {tags:?}");
    }
    // Every look-alike rule is a security alert, so that code scanning ranks a host imitating a
    // popular domain as it ranks a hidden character, or above it.
    let score = |id: &str| -> f64 {
        let properties = &rule(id)["properties"];
        properties["security-severity"]
            .as_str()
            .unwrap_or_else(|| panic!("{id} has no security-severity: {properties}"))
            .parse()
            .unwrap()
    };
    let lookalike: Vec<&str> = irilint::rules::RULES
        .iter()
        .filter(|r| r.group == "lookalike")
        .map(|r| r.id)
        .collect();
    assert!(lookalike.len() >= 7, "{lookalike:?}");
    for id in lookalike {
        assert!(score(id) >= 4.0, "{id}: at least medium");
        let tags = rule(id)["properties"]["tags"].as_array().unwrap().clone();
        assert!(tags.contains(&Value::from("security")), "{id}: {tags:?}");
    }
    assert!(score("lookalike-domain") >= score("bidi-formatting-character"));
    assert!(score("link-text-mismatch") >= 7.0);
    // A PDF link that launches a program or runs a script when clicked is a security alert
    // too, ranked at least as a deceptive host.
    assert!(score("pdf-unsafe-action") >= score("lookalike-domain"));
    let tags = rule("pdf-unsafe-action")["properties"]["tags"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        tags.contains(&Value::from("external/cwe/cwe-749")),
        "{tags:?}"
    );
    // A style rule is not a security alert.
    let style = &rule("percent-lowercase-hex")["properties"];
    assert!(style.get("security-severity").is_none(), "{style}");
    assert!(
        !style["tags"]
            .as_array()
            .unwrap()
            .contains(&Value::from("security"))
    );
    let Some(multitool) = consumers::require(consumers::sarif_multitool(), "the SARIF Multitool")
    else {
        return;
    };
    let (bad, console) = validate(&multitool, &sarif);
    assert!(bad.is_empty(), "{}\n{console}", bad.join("\n"));
}
