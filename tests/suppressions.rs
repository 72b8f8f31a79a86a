//! Inline suppressions, end to end: each directive form in each format, written to real files
//! and checked by the real binary; unused, unknown and misplaced directives; the summary counts.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

const RLO: &str = "\u{202E}";
const ZWSP: &str = "\u{200B}";

/// `check --format json` of one file named `name` holding `text`, with extra `args`.
fn report(name: &str, text: &str, args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join(name), text).unwrap();
    report_in(dir.path(), &[name], args)
}

fn report_in(dir: &Path, paths: &[&str], args: &[&str]) -> Value {
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(dir)
        .args(["check", "--isolated", "--format", "json"])
        .args(paths)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout:?} {:?}", String::from_utf8_lossy(&out.stderr)))
}

/// `(rule, line, column)` of every finding.
fn found(report: &Value) -> Vec<(String, u64, u64)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["span"]["start"]["line"].as_u64().unwrap(),
                d["span"]["start"]["column"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn rules(report: &Value) -> Vec<String> {
    found(report).into_iter().map(|f| f.0).collect()
}

fn suppressed(report: &Value) -> u64 {
    report["summary"]["suppressed"].as_u64().unwrap()
}

fn messages(report: &Value, rule: &str) -> Vec<(String, String)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == rule)
        .map(|d| {
            (
                d["message"].as_str().unwrap().to_string(),
                d["help"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn html_link(iri_tail: &str) -> String {
    format!("<a href=\"https://example.org/{iri_tail}\">x</a>\n")
}

#[test]
fn html_next_line_silences_the_named_rule_on_the_next_line_only() {
    let doc = format!(
        "<!-- irilint-disable-next-line bidi-formatting-character -->\n{}{}",
        html_link(&format!("a{RLO}b")),
        html_link(&format!("c{RLO}d"))
    );
    let r = report("a.html", &doc, &[]);
    assert_eq!(
        found(&r),
        [("bidi-formatting-character".to_string(), 3, 31)]
    );
    assert_eq!(suppressed(&r), 1);
}

#[test]
fn html_next_line_without_rules_silences_every_rule_and_lists_work_with_commas_and_spaces() {
    let link = html_link(&format!("a{RLO}{ZWSP}b"));
    for directive in [
        "<!-- irilint-disable-next-line -->",
        "<!--irilint-disable-next-line bidi-formatting-character,invisible-character-->",
        "<!-- irilint-disable-next-line bidi-formatting-character, invisible-character -- why -->",
        "<!-- irilint-disable-next-line bidi invisible -->",
        "<!-- irilint-disable-next-line ALL -->",
    ] {
        let r = report("a.html", &format!("{directive}\n{link}"), &[]);
        assert_eq!(rules(&r), Vec::<String>::new(), "{directive}");
        assert_eq!(suppressed(&r), 2, "{directive}");
    }
    // Only one of the two named: the other is still reported.
    let r = report(
        "a.html",
        &format!("<!-- irilint-disable-next-line invisible-character -->\n{link}"),
        &[],
    );
    assert_eq!(rules(&r), ["bidi-formatting-character"]);
}

#[test]
fn html_disable_enable_is_a_range_and_disable_file_covers_the_whole_document() {
    let bad = html_link(&format!("a{RLO}b"));
    let doc = format!(
        "{bad}<!-- irilint-disable bidi-formatting-character -->\n{bad}{bad}<!-- irilint-enable bidi-formatting-character -->\n{bad}"
    );
    let r = report("a.html", &doc, &[]);
    let lines: Vec<u64> = found(&r).iter().map(|f| f.1).collect();
    assert_eq!(lines, [1, 6]);
    assert_eq!(suppressed(&r), 2);

    // Without an enable, to the end of the document.
    let doc = format!("{bad}<!-- irilint-disable -->\n{bad}{bad}");
    let r = report("a.html", &doc, &[]);
    assert_eq!(found(&r).iter().map(|f| f.1).collect::<Vec<_>>(), [1]);

    // disable-file at the very end still covers the first line.
    let doc = format!("{bad}{bad}<!-- irilint-disable-file bidi-formatting-character -->\n");
    let r = report("a.html", &doc, &[]);
    assert_eq!(rules(&r), Vec::<String>::new());
    assert_eq!(suppressed(&r), 2);
}

#[test]
fn a_comment_in_script_or_an_attribute_is_not_a_directive() {
    let bad = html_link(&format!("a{RLO}b"));
    let doc = format!(
        "<script>// <!-- irilint-disable-file --></script>\n<p title=\"<!-- irilint-disable-file -->\">\n{bad}"
    );
    let r = report("a.html", &doc, &[]);
    assert_eq!(rules(&r), ["bidi-formatting-character"]);
}

#[test]
fn xml_directives_in_svg_docbook_and_mallard() {
    let doc = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<!-- irilint-disable-next-line bidi-formatting-character - on purpose -->\n<a href=\"https://example.org/a{RLO}b\"/>\n<a href=\"https://example.org/c{RLO}d\"/>\n</svg>\n"
    );
    let r = report("a.svg", &doc, &[]);
    assert_eq!(
        found(&r),
        [("bidi-formatting-character".to_string(), 4, 31)]
    );

    let docbook = format!(
        "<article xmlns=\"http://docbook.org/ns/docbook\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n<!-- irilint-disable bidi -->\n<link xlink:href=\"https://example.org/a{RLO}b\"/>\n<!-- irilint-enable bidi -->\n<link xlink:href=\"https://example.org/c{RLO}d\"/>\n</article>\n"
    );
    let r = report("a.docbook", &docbook, &[]);
    assert_eq!(found(&r).iter().map(|f| f.1).collect::<Vec<_>>(), [5]);

    let mallard = format!(
        "<page xmlns=\"http://projectmallard.org/1.0/\">\n<link href=\"https://example.org/a{RLO}b\"/>\n<!-- irilint-disable-file -->\n</page>\n"
    );
    let r = report("a.page", &mallard, &[]);
    assert_eq!(rules(&r), Vec::<String>::new());
    assert_eq!(suppressed(&r), 1);
}

#[test]
fn markdown_directives_are_html_comments_and_code_is_text() {
    let doc = format!(
        "<!-- irilint-disable-next-line bidi-formatting-character -->\nSee <https://example.org/a{RLO}b>.\n\nThen <https://example.org/c{RLO}d>.\n"
    );
    let r = report("a.md", &doc, &[]);
    assert_eq!(found(&r).iter().map(|f| f.1).collect::<Vec<_>>(), [4]);

    // Inline, within a paragraph: the next line.
    let doc =
        format!("Intro <!-- irilint-disable-next-line -->\n[x](https://example.org/a{RLO}b)\n");
    let r = report("a.md", &doc, &[]);
    assert_eq!(rules(&r), Vec::<String>::new());

    // In a code span or a fenced code block the directive is text: nothing is silenced, and
    // nothing is reported as an unused directive either.
    let doc = format!(
        "`<!-- irilint-disable-file -->`\n\n```html\n<!-- irilint-disable-file -->\n```\n\n<https://example.org/a{RLO}b>\n"
    );
    let r = report("a.md", &doc, &[]);
    assert_eq!(rules(&r), ["bidi-formatting-character"]);
    assert_eq!(suppressed(&r), 0);

    // In a block quote.
    let doc =
        format!("> <!-- irilint-disable-next-line bidi -->\n> <https://example.org/a{RLO}b>\n");
    let r = report("a.md", &doc, &[]);
    assert_eq!(rules(&r), Vec::<String>::new());
}

#[test]
fn text_directives_stand_on_a_line_of_their_own_after_any_leader() {
    let bad = format!("https://example.org/a{RLO}b\n");
    for leader in ["", "# ", "// ", ".. ", "% ", "; ", "-- ", "   #"] {
        let doc = format!("{leader}irilint-disable-next-line bidi-formatting-character\n{bad}");
        let r = report("a.txt", &doc, &[]);
        assert_eq!(rules(&r), Vec::<String>::new(), "{leader:?}");
        assert_eq!(suppressed(&r), 1, "{leader:?}");
    }
    // Inside a sentence it is prose.
    let doc = format!("Write irilint-disable-next-line to silence the next line.\n{bad}");
    let r = report("a.txt", &doc, &[]);
    assert_eq!(rules(&r), ["bidi-formatting-character"]);
    // A range and a whole file.
    let doc = format!("{bad}# irilint-disable\n{bad}# irilint-enable\n{bad}");
    let r = report("a.txt", &doc, &[]);
    assert_eq!(found(&r).iter().map(|f| f.1).collect::<Vec<_>>(), [1, 5]);
    let doc = format!("{bad}{bad}.. irilint-disable-file -- a page about the attack\n");
    let r = report("notes.txt", &doc, &[]);
    assert_eq!(suppressed(&r), 2);
    // A line starting with an unknown irilint- word is prose in text, not an unknown directive.
    let r = report("a.txt", "irilint-disabled is what we call it\n", &[]);
    assert_eq!(rules(&r), Vec::<String>::new());
}

#[test]
fn unused_directives_are_reported_at_the_directive_or_the_rule_id() {
    let clean = html_link("plain");
    let doc = format!("<!-- irilint-disable-next-line -->\n{clean}");
    let r = report("a.html", &doc, &[]);
    // The whole comment: removing it is the remedy.
    assert_eq!(found(&r), [("unused-suppression".to_string(), 1, 1)]);
    assert_eq!(
        messages(&r, "unused-suppression")[0].0,
        "unused suppression: no finding on the next line (line 2)"
    );
    assert_eq!(r["diagnostics"][0]["severity"], "warning");
    assert_eq!(r["diagnostics"][0]["span"]["end"]["column"], 35);

    // One of two named rules is used: the other is reported at its id.
    let bad = html_link(&format!("a{RLO}b"));
    let doc = format!(
        "<!-- irilint-disable-next-line invisible-character, bidi-formatting-character -->\n{bad}"
    );
    let r = report("a.html", &doc, &[]);
    assert_eq!(found(&r), [("unused-suppression".to_string(), 1, 32)]);
    assert_eq!(
        messages(&r, "unused-suppression")[0].0,
        "unused suppression: no `invisible-character` finding on the next line (line 2)"
    );

    // A range and a file directive.
    let doc = format!("<!-- irilint-disable not-nfc -->\n{clean}<!-- irilint-enable not-nfc -->\n");
    let r = report("a.html", &doc, &[]);
    assert_eq!(
        messages(&r, "unused-suppression")
            .into_iter()
            .map(|m| m.0)
            .collect::<Vec<_>>(),
        ["unused suppression: no `not-nfc` finding between here and its `irilint-enable` (line 3)"]
    );
    let r = report(
        "a.html",
        &format!("<!-- irilint-disable-file -->\n{clean}"),
        &[],
    );
    assert_eq!(
        messages(&r, "unused-suppression")[0].0,
        "unused suppression: no finding in this file"
    );

    // An enable that ends nothing.
    let r = report("a.html", &format!("<!-- irilint-enable -->\n{clean}"), &[]);
    assert_eq!(
        messages(&r, "unused-suppression")[0].0,
        "unused suppression: `irilint-enable` ends no `irilint-disable`"
    );

    // A rule that does not run on the file says so.
    let doc = format!("<!-- irilint-disable-next-line dot-segment -->\n{clean}");
    let r = report("a.html", &doc, &[]);
    assert_eq!(
        messages(&r, "unused-suppression")[0].0,
        "unused suppression: `dot-segment` does not run on this file (see `--select` and the configuration)"
    );
}

#[test]
fn unknown_rule_ids_and_directives_get_the_closest_name() {
    let bad = html_link(&format!("a{RLO}b"));
    let doc = format!("<!-- irilint-disable-next-line bidi-formating-character -->\n{bad}");
    let r = report("a.html", &doc, &[]);
    let mut f = found(&r);
    f.sort();
    assert_eq!(
        f,
        [
            ("bidi-formatting-character".to_string(), 2, 31),
            ("unused-suppression".to_string(), 1, 32),
        ]
    );
    assert_eq!(
        messages(&r, "unused-suppression"),
        [(
            "unknown rule or group `bidi-formating-character` in `irilint-disable-next-line`"
                .to_string(),
            "did you mean `bidi-formatting-character`? (`irilint rules` lists them)".to_string()
        )]
    );

    let r = report(
        "a.html",
        &format!("<!-- irilint-disable-line -->\n{bad}"),
        &[],
    );
    assert_eq!(
        messages(&r, "unused-suppression"),
        [(
            "unknown suppression directive `irilint-disable-line`".to_string(),
            "irilint has no same-line directive: put `irilint-disable-next-line` on the line before"
                .to_string()
        )]
    );
    assert!(rules(&r).contains(&"bidi-formatting-character".to_string()));

    // A hostile rule id is never echoed raw.
    let r = report(
        "a.html",
        &format!("<!-- irilint-disable-next-line x{RLO}y -->\n{bad}"),
        &[],
    );
    let (message, _) = &messages(&r, "unused-suppression")[0];
    assert!(!message.contains(RLO), "{message:?}");
    assert!(message.contains("x⟨U+202E⟩y"), "{message:?}");
}

#[test]
fn unused_suppression_is_configured_like_any_rule() {
    let doc = format!("<!-- irilint-disable-next-line -->\n{}", html_link("plain"));
    let r = report("a.html", &doc, &["--ignore", "unused-suppression"]);
    assert_eq!(rules(&r), Vec::<String>::new());
    let r = report("a.html", &doc, &["--ignore", "suppression"]);
    assert_eq!(rules(&r), Vec::<String>::new());
    // Selecting only other rules leaves it out, and the directives still work.
    let bad = format!(
        "<!-- irilint-disable-next-line -->\n{}",
        html_link(&format!("a{RLO}b"))
    );
    let r = report("a.html", &bad, &["--select", "bidi"]);
    assert_eq!(rules(&r), Vec::<String>::new());
    assert_eq!(suppressed(&r), 1);
}

#[test]
fn directives_can_silence_the_project_wide_rule() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("a.html"),
        "<a href=\"http://example.org/x\">x</a>\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("b.html"),
        "<!-- irilint-disable-next-line equivalent-variants -->\n<a href=\"HTTP://example.org/x\">x</a>\n",
    )
    .unwrap();
    let args = ["--extend-select", "equivalence"];
    let r = report_in(dir.path(), &["a.html", "b.html"], &args);
    assert_eq!(rules(&r), Vec::<String>::new());
    assert_eq!(suppressed(&r), 1);
    // Once the variant is gone the directive is unused — reported after the project rules ran.
    fs::write(
        dir.path().join("b.html"),
        "<!-- irilint-disable-next-line equivalent-variants -->\n<a href=\"http://example.org/x\">x</a>\n",
    )
    .unwrap();
    let r = report_in(dir.path(), &["a.html", "b.html"], &args);
    assert_eq!(found(&r), [("unused-suppression".to_string(), 1, 32)]);
}

#[test]
fn the_summary_counts_suppressed_findings_in_every_report() {
    let dir = tempfile::tempdir().unwrap();
    let doc = format!(
        "<!-- irilint-disable-file -->\n{}",
        html_link(&format!("a{RLO}b"))
    );
    fs::write(dir.path().join("a.html"), doc).unwrap();
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .args(["check", "--isolated", "a.html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("No problems found in 1 file (1 IRI checked, 1 suppressed)."),
        "{stdout}"
    );
}

#[test]
fn suppressions_apply_before_the_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let bad = html_link(&format!("a{RLO}b"));
    let page = dir.path().join("a.html");
    fs::write(&page, format!("{bad}{bad}")).unwrap();
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "check",
            "--isolated",
            "a.html",
            "--write-baseline",
            "b.json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // The first copy is now silenced inline. Suppressions apply first, so the baseline sees
    // one finding (its occurrence 1, which it holds back) and nothing is new.
    fs::write(
        &page,
        format!("<!-- irilint-disable-next-line -->\n{bad}{bad}"),
    )
    .unwrap();
    let r = report_in(dir.path(), &["a.html"], &["--baseline", "b.json"]);
    assert_eq!(rules(&r), Vec::<String>::new());
    assert_eq!(suppressed(&r), 1);
    assert_eq!(r["summary"]["baselined"], 1);
}

/// A reStructuredText comment ends at a blank line (docutils warns of an unexpected unindent
/// without one): `disable-next-line` there silences the first line after it that is not blank,
/// with or without the blank line; in other formats the next line only.
#[test]
fn restructuredtext_next_line_is_the_next_line_that_is_not_blank() {
    let link = format!("See `x <http://a.example/{ZWSP}x>`_ here.\n");
    for gap in ["", "\n", "\n  \n"] {
        let text =
            format!("Intro.\n\n.. irilint-disable-next-line invisible-character\n{gap}{link}");
        let r = report("a.rst", &text, &[]);
        assert_eq!(rules(&r), Vec::<String>::new(), "{text:?}");
        assert_eq!(suppressed(&r), 1, "{text:?}");
    }
    // Not in Markdown: the blank line is the next line, and the directive silences nothing.
    let text = format!(
        "<!-- irilint-disable-next-line invisible-character -->\n\n<http://a.example/{ZWSP}x>\n"
    );
    let r = report("a.md", &text, &[]);
    assert_eq!(
        rules(&r),
        ["unused-suppression", "invisible-character"],
        "{text:?}"
    );
}

#[test]
fn directives_that_hide_nothing_are_listed_up_to_the_files_limit_and_counted_beyond() {
    // Each report of `unused-suppression` was made and held, however many: 80,000 directives
    // that hide nothing took 120 MB for a 5.6 MB page. Past the limit of a file's listed
    // findings they are counted, as other findings are.
    let limit = irilint::check::MAX_LISTED;
    let page = "<!-- irilint-disable-next-line -->\n".repeat(limit + 1000);
    let report = report("many.html", &page, &[]);
    let listed = report["diagnostics"].as_array().unwrap();
    assert_eq!(listed.len(), limit);
    assert!(listed.iter().all(|d| d["rule"] == "unused-suppression"));
    assert_eq!(report["summary"]["warnings"], (limit + 1000) as u64);
    let unlisted = &report["unlisted"];
    assert_eq!(unlisted[0]["rule"], "unused-suppression", "{unlisted}");
    assert_eq!(unlisted[0]["count"], 1000, "{unlisted}");
}

/// `n` Markdown autolinks, each with a zero-width space (an `invisible-character` error), and
/// a `disable-next-line` directive before those `directive` picks.
fn autolinks(n: usize, directive: impl Fn(usize) -> bool) -> String {
    (0..n)
        .map(|i| {
            let before = if directive(i) {
                "<!-- irilint-disable-next-line -->\n"
            } else {
                ""
            };
            format!("{before}<http://a.example/{i}{ZWSP}>\n\n")
        })
        .collect()
}

#[test]
fn directives_silence_findings_past_the_files_limit() {
    // A file lists its first 5,000 findings and counts the rest; the directives applied to the
    // listed ones only, so that a `disable-file` over 8,000 findings left 3,000 errors, and
    // a directive whose finding was only counted was reported as hiding nothing.
    let limit = irilint::check::MAX_LISTED;
    let n = limit + 3000;
    let doc = format!(
        "<!-- irilint-disable-file -->\n\n{}",
        autolinks(n, |_| false)
    );
    let r = report("a.md", &doc, &[]);
    assert_eq!(r["summary"]["errors"], 0, "{}", r["summary"]);
    assert_eq!(suppressed(&r), n as u64);
    assert_eq!(r["diagnostics"].as_array().unwrap().len(), 0);
    assert!(r.get("unlisted").is_none(), "{}", r["unlisted"]);

    // Every other link silenced: the others are listed, all of them, and no directive is
    // unused.
    let r = report("a.md", &autolinks(n, |i| i % 2 == 0), &[]);
    assert_eq!(suppressed(&r), (n / 2) as u64);
    let listed = rules(&r);
    assert_eq!(listed.len(), n / 2);
    assert!(listed.iter().all(|rule| rule == "invisible-character"));
    assert!(r.get("unlisted").is_none(), "{}", r["unlisted"]);
    // Those listed are the links without a directive (odd ones, on lines 4, 9, 14…).
    let lines: Vec<u64> = found(&r).iter().map(|f| f.1).take(3).collect();
    assert_eq!(lines, [4, 9, 14]);

    // Past the limit of what is left, the rest is counted, still after the directives.
    let r = report("a.md", &autolinks(3 * limit, |i| i % 3 == 0), &[]);
    assert_eq!(suppressed(&r), limit as u64);
    assert_eq!(rules(&r).len(), limit);
    assert_eq!(r["unlisted"][0]["rule"], "invisible-character");
    assert_eq!(r["unlisted"][0]["count"], limit as u64);
    assert_eq!(r["summary"]["errors"], (2 * limit) as u64);
}

#[test]
fn a_baseline_holds_every_finding_of_a_file_past_its_limit() {
    // `--write-baseline` wrote the 5,000 findings a file lists, and `--baseline` held back
    // only listed ones: the next run of a file of 8,000 findings failed with 3,000 errors.
    let limit = irilint::check::MAX_LISTED;
    let n = limit + 3000;
    let dir = tempfile::tempdir().unwrap();
    // The same IRI twice more than once, so that occurrences number past the limit too.
    let doc = autolinks(n, |_| false) + &autolinks(2, |_| false);
    fs::write(dir.path().join("a.md"), &doc).unwrap();
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "--isolated", "a.md", "--write-baseline", "b.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let written: Value =
        serde_json::from_slice(&fs::read(dir.path().join("b.json")).unwrap()).unwrap();
    let entries = written["findings"].as_array().unwrap();
    assert_eq!(entries.len(), n + 2);
    let repeated = entries
        .iter()
        .filter(|k| k["iri"] == format!("http://a.example/1{ZWSP}"))
        .map(|k| k["occurrence"].as_u64().unwrap())
        .collect::<Vec<_>>();
    assert_eq!(repeated, [1, 2]);

    let r = report_in(dir.path(), &["a.md"], &["--baseline", "b.json"]);
    assert_eq!(r["summary"]["errors"], 0, "{}", r["summary"]);
    assert_eq!(r["summary"]["baselined"], (n + 2) as u64);
    assert!(r.get("unlisted").is_none(), "{}", r["unlisted"]);

    // One new finding at the end is the one reported.
    fs::write(
        dir.path().join("a.md"),
        format!("{doc}<http://new.example/{ZWSP}>\n"),
    )
    .unwrap();
    let r = report_in(dir.path(), &["a.md"], &["--baseline", "b.json"]);
    assert_eq!(r["summary"]["errors"], 1, "{}", r["summary"]);
    assert_eq!(
        r["diagnostics"][0]["iri"],
        format!("http://new.example/{ZWSP}")
    );
}

#[test]
fn directives_past_the_limit_are_not_read_and_said_once() {
    let most = irilint::suppressions::MAX_DIRECTIVES;
    let r = report("a.md", &autolinks(most + 2, |_| true), &[]);
    assert_eq!(suppressed(&r), most as u64);
    // The two last findings are reported; the note of the directives not read is listed
    // even past the findings a file lists.
    assert_eq!(r["summary"]["errors"], 2);
    let notes = messages(&r, "unused-suppression");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(
        notes[0].0,
        format!(
            "more than {most} suppression directives: this one and the 1 after it are not read and silence nothing"
        )
    );
    let at = found(&r)
        .into_iter()
        .find(|f| f.0 == "unused-suppression")
        .unwrap();
    assert_eq!(at.1, (3 * most + 1) as u64);
}
