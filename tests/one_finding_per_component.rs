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

/// `check --format json ARGS` in `dir`: the (line, rule, severity) of every finding.
fn found(dir: &std::path::Path, args: &[&str]) -> Vec<(u64, String, String)> {
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(dir)
        .args(["check", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    r["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["span"]["start"]["line"].as_u64().unwrap(),
                d["rule"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn at(line: u64, rule: &str, severity: &str) -> (u64, String, String) {
    (line, rule.to_string(), severity.to_string())
}

/// `gооgle.com` with two Cyrillic `о`: `lookalike-domain`, `confusable` and `mixed-script` all
/// find its first label.
const GOOGLE: &str = "https://g\u{43E}\u{43E}gle.com/\n";

#[test]
fn one_finding_per_lookalike_host_the_most_specific_speaks() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{GOOGLE}https://p\u{430}ypal.example/\nhttps://\u{51D}\u{51D}\u{51D}.g\u{43E}\u{43E}gle.com/\n"
    );
    std::fs::write(dir.path().join("a.txt"), text).unwrap();
    let r = json_report(
        "a.txt",
        &std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
    );
    let d = r["diagnostics"].as_array().unwrap();
    // The popular domain is named once; a look-alike of no listed domain is `confusable`'s
    // alone (its `mixed-script` finding withheld); a `confusable` finding with a place in a
    // label `lookalike-domain` does not cover (`ԝԝԝ`) still speaks.
    let rules: Vec<(u64, &str)> = d
        .iter()
        .map(|x| {
            (
                x["span"]["start"]["line"].as_u64().unwrap(),
                x["rule"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rules,
        [
            (1, "lookalike-domain"),
            (2, "confusable"),
            (3, "confusable"),
            (3, "lookalike-domain"),
        ],
        "{r:#}"
    );
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("looks like `google.com`")
    );
    assert_eq!(r["summary"]["errors"], 4);
}

#[test]
fn a_withheld_lookalike_finding_speaks_when_the_speaker_is_off_or_suppressed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), GOOGLE).unwrap();
    // Not selected: the next most specific rule speaks, the least specific still withheld.
    assert_eq!(
        found(dir.path(), &["--ignore", "lookalike-domain", "a.txt"]),
        [at(1, "confusable", "error")]
    );
    assert_eq!(
        found(
            dir.path(),
            &["--ignore", "lookalike-domain,confusable", "a.txt"]
        ),
        [at(1, "mixed-script", "warning")]
    );
    // Selected alone, each rule is heard.
    assert_eq!(
        found(dir.path(), &["--select", "mixed-script", "a.txt"]),
        [at(1, "mixed-script", "warning")]
    );
    // Configured below the rule it would withhold, the speaker withholds nothing more severe.
    std::fs::write(
        dir.path().join("low.toml"),
        "[severity]\nlookalike-domain = \"warning\"\n",
    )
    .unwrap();
    assert_eq!(
        found(dir.path(), &["--config", "low.toml", "a.txt"]),
        [
            at(1, "lookalike-domain", "warning"),
            at(1, "confusable", "error")
        ]
    );
    // A directive silences the rule it names: what that finding withheld speaks in its place,
    // until it is named too, and no directive is left unused.
    let html = |rules: &str| {
        format!(
            "<!-- irilint-disable-next-line {rules} -->\n<a href=\"{}\">x</a>\n",
            GOOGLE.trim()
        )
    };
    for (rules, expected) in [
        ("lookalike-domain", vec![at(2, "confusable", "error")]),
        (
            "lookalike-domain confusable",
            vec![at(2, "mixed-script", "warning")],
        ),
        ("lookalike-domain confusable mixed-script", vec![]),
        // Naming only a withheld rule silences nothing: the directive is unused.
        (
            "confusable",
            vec![
                at(1, "unused-suppression", "warning"),
                at(2, "lookalike-domain", "error"),
            ],
        ),
    ] {
        std::fs::write(dir.path().join("b.html"), html(rules)).unwrap();
        let mut got = found(dir.path(), &["b.html"]);
        got.sort();
        assert_eq!(got, expected, "{rules}");
    }
}

#[test]
fn a_baseline_holds_back_the_host_not_only_its_speaker() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), GOOGLE).unwrap();
    let status = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "--write-baseline", "base.json", "a.txt"])
        .output()
        .unwrap()
        .status;
    assert!(status.success());
    assert_eq!(found(dir.path(), &["--baseline", "base.json", "a.txt"]), []);
}

#[test]
fn a_withheld_finding_speaks_when_its_speaker_is_silenced_in_a_file_past_the_list() {
    // Past `MAX_LISTED` findings a file is checked again with its directives known, each finding
    // silenced as it is found: the same release applies there.
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "# irilint-disable-next-line lookalike-domain\n{GOOGLE}{}",
        "https://a.example/x\u{200B}y\n".repeat(irilint::check::MAX_LISTED + 10)
    );
    std::fs::write(dir.path().join("a.txt"), text).unwrap();
    let got = found(dir.path(), &["a.txt"]);
    assert_eq!(got[0], at(2, "confusable", "error"), "{:?}", &got[..3]);
    assert!(got.iter().all(|f| f.1 != "unused-suppression"));
}

/// The message and help of each diagnostic of `rule` in the JSON report of `file` in `dir`.
fn words_of(dir: &std::path::Path, args: &[&str], rule: &str) -> Vec<(Value, Value)> {
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(dir)
        .args(["check", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    r["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == rule)
        .map(|d| (d["message"].clone(), d["help"].clone()))
        .collect()
}

#[test]
fn a_withheld_finding_that_comes_to_speak_says_what_it_says_when_it_speaks_first() {
    // A withheld look-alike finding's words are built only when it speaks: released by a
    // directive (in a short file, and in one past the list, where each finding is released as
    // it is found), it reads as it does when the rule above it is not run.
    let dir = tempfile::tempdir().unwrap();
    // Two look-alike letters in one word (one finding with two places), an `xn--` label, a
    // whole-script label, and a word of two scripts where nothing imitates anything.
    let hosts = "https://g\u{43E}\u{43E}gle.com/\nhttps://xn--ggle-55da.com/\nhttps://\u{430}\u{440}\u{440}\u{4CF}\u{435}.com/\nhttps://iphone\u{447}\u{435}\u{445}\u{43E}\u{43B}.example/\n";
    std::fs::write(dir.path().join("off.txt"), hosts).unwrap();
    let directive = |rules: &str| {
        hosts
            .lines()
            .map(|l| format!("# irilint-disable-next-line {rules}\n{l}\n"))
            .collect::<String>()
    };
    let filler = "https://a.example/x\u{200B}y\n".repeat(irilint::check::MAX_LISTED + 10);
    for (rules, ignore, rule) in [
        ("lookalike-domain", "lookalike-domain", "confusable"),
        (
            "lookalike-domain confusable",
            "lookalike-domain,confusable",
            "mixed-script",
        ),
    ] {
        let spoken = words_of(dir.path(), &["--ignore", ignore, "off.txt"], rule);
        assert!(spoken.len() >= 3, "{rule}: {spoken:?}");
        assert!(
            spoken
                .iter()
                .all(|(m, h)| m.as_str().is_some_and(|m| !m.is_empty()) && h.is_string()),
            "{spoken:?}"
        );
        std::fs::write(dir.path().join("short.txt"), directive(rules)).unwrap();
        std::fs::write(
            dir.path().join("long.txt"),
            format!("{}{filler}", directive(rules)),
        )
        .unwrap();
        assert_eq!(
            words_of(dir.path(), &["short.txt"], rule),
            spoken,
            "{rules}"
        );
        assert_eq!(words_of(dir.path(), &["long.txt"], rule), spoken, "{rules}");
    }
}
