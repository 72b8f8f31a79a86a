//! One finding per IRI, rule and component: a rule that finds the same problem in many places
//! of one component reports it once, names the count, lists the places (JSON `spans`, at most
//! 1,000 of them) and carries one fix for them; other components and other rules stay apart.

use assert_cmd::Command;
use serde_json::Value;

fn json_report(name: &str, text: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "--format", "json", name])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn many_places_in_one_component_are_one_diagnostic() {
    let r = json_report(
        "a.txt",
        "see https://a.example/x\u{202E}y\u{202E}z?q=\u{202E} now\n",
    );
    let d = r["diagnostics"].as_array().unwrap();
    // The path's two and the query's one: two diagnostics, not three.
    assert_eq!(d.len(), 2, "{r:#}");
    assert_eq!(d[0]["component"], "path");
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .ends_with("(and 1 more like it in the path)"),
        "{}",
        d[0]["message"]
    );
    let spans = d[0]["spans"].as_array().unwrap();
    assert_eq!(spans.len(), 2);
    assert_eq!(spans[0], d[0]["span"]);
    assert_eq!(spans[1]["start"]["column"], 26);
    assert_eq!(d[0]["fix"]["edits"].as_array().unwrap().len(), 2);
    assert_eq!(d[1]["component"], "query");
    assert!(d[1].get("spans").is_none(), "one place: no `spans`");
    assert_eq!(r["summary"]["errors"], 2);
}

#[test]
fn a_finding_keeps_at_most_a_thousand_places_and_counts_the_rest() {
    let r = json_report(
        "b.txt",
        &format!("https://a.example/{}\n", "a\u{200B}".repeat(5000)),
    );
    let d = r["diagnostics"].as_array().unwrap();
    assert_eq!(d.len(), 1, "{r:#}");
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .ends_with("(and 4999 more like it in the path)"),
        "{}",
        d[0]["message"]
    );
    assert_eq!(d[0]["spans"].as_array().unwrap().len(), 1000);
    assert_eq!(d[0]["fix"]["edits"].as_array().unwrap().len(), 1000);
}

#[test]
fn a_file_keeps_at_most_max_file_places() {
    // 120 IRIs of 1,000 hidden characters each: 120,000 places, more than a file keeps
    // (`MAX_FILE_PLACES`). Every finding is listed with its count; past the budget, each keeps
    // its first place and no fix (before, all 120,000 places and edits were held and written).
    let line = format!("https://a.example/{}\n", "a\u{200B}".repeat(1000));
    let r = json_report("c.txt", &line.repeat(120));
    let d = r["diagnostics"].as_array().unwrap();
    assert_eq!(d.len(), 120);
    for x in d {
        let message = x["message"].as_str().unwrap();
        assert!(
            message.ends_with("(and 999 more like it in the path)"),
            "{message}"
        );
    }
    // A finding of one place has no `spans`.
    let spans = |x: &Value| x["spans"].as_array().map_or(1, Vec::len);
    let places: usize = d.iter().map(spans).sum();
    assert!(
        places <= irilint::check::MAX_FILE_PLACES + d.len(),
        "{places} places kept"
    );
    // The first findings keep all theirs, with their fixes; the last ones only their first.
    assert_eq!(d[0]["spans"].as_array().unwrap().len(), 1000);
    assert_eq!(d[0]["fix"]["edits"].as_array().unwrap().len(), 1000);
    assert_eq!(spans(&d[119]), 1);
    assert!(d[119]["fix"].is_null());
}
