//! Long IRIs and long lines: what irilint reports on them does not depend on their length. One
//! IRI of half a megabyte (ASCII or not) in each format, with a hidden character at its very end, is
//! one IRI with exactly the findings a short one has, located to the byte and the column; a
//! line of 100,000 IRIs is 100,000 IRIs, the hidden character in the last one found; and a
//! megabyte line without an IRI is quiet. (Speed on such inputs is measured by
//! `bench/ratios.sh` and the figures of the book's Performance page, not here.)

use irilint::check::{CheckOptions, FileOutcome, check_source};
use irilint::rules::Selection;
use irilint::source::{Format, Source};

fn check(format: Format, text: &str) -> FileOutcome {
    let source = Source::decode("long".into(), format, text.as_bytes()).expect("text");
    let all = Selection::all();
    check_source(&source, &CheckOptions::new(&all))
}

/// (rule, byte offset, column) of each finding, in order.
fn findings(outcome: &FileOutcome) -> Vec<(&'static str, usize, usize)> {
    outcome
        .diagnostics
        .iter()
        .map(|d| (d.rule, d.start.offset, d.start.column))
        .collect()
}

/// The document `wrap` makes of `iri`, and where in it the IRI starts (bytes, characters).
fn place(wrap: (&str, &str), iri: &str) -> (String, usize, usize) {
    let doc = format!("{}{iri}{}", wrap.0, wrap.1);
    (doc, wrap.0.len(), wrap.0.chars().count())
}

const WRAPS: [(Format, (&str, &str)); 4] = [
    (Format::Text, ("see ", " for details\n")),
    (Format::Html, ("<p><a href=\"", "\">x</a></p>\n")),
    (Format::Markdown, ("See [the page](", ").\n")),
    (
        Format::Xml,
        (
            "<r xmlns:l=\"http://www.w3.org/1999/xlink\"><e l:href=\"",
            "\"/></r>\n",
        ),
    ),
];

#[test]
fn a_megabyte_iri_has_the_findings_of_a_short_one() {
    for unit in ["a", "é", "日本"] {
        let body = unit.repeat((1 << 19) / unit.len());
        for (format, wrap) in WRAPS {
            let short = format!("https://example.org/{unit}\u{202E}x");
            let long = format!("https://example.org/{body}\u{202E}x");
            let (short_doc, _, _) = place(wrap, &short);
            let (doc, at, col) = place(wrap, &long);
            let expected = check(format, &short_doc);
            let outcome = check(format, &doc);
            assert_eq!(outcome.iris, expected.iris, "{format:?} {unit}");
            let rules: Vec<_> = outcome.diagnostics.iter().map(|d| d.rule).collect();
            let short_rules: Vec<_> = expected.diagnostics.iter().map(|d| d.rule).collect();
            assert_eq!(rules, short_rules, "{format:?} {unit}");
            let bidi = outcome
                .diagnostics
                .iter()
                .find(|d| d.rule == "bidi-formatting-character")
                .unwrap_or_else(|| panic!("{format:?} {unit}: {:?}", findings(&outcome)));
            let offset = at + long.find('\u{202E}').unwrap();
            let column = col + long[..long.find('\u{202E}').unwrap()].chars().count() + 1;
            assert_eq!(
                (bidi.start.offset, bidi.start.column),
                (offset, column),
                "{format:?} {unit}"
            );
            assert_eq!(bidi.start.line, 1);
            assert_eq!(
                bidi.iri.as_deref(),
                Some(long.as_str()),
                "{format:?} {unit}"
            );
        }
    }
}

#[test]
fn a_line_of_a_hundred_thousand_iris_is_that_many_iris() {
    const N: usize = 100_000;
    let mut line: String = (0..N - 1)
        .map(|i| format!("https://example.org/{i} "))
        .collect();
    let last_at = line.len();
    line.push_str("https://example.org/\u{202E}last\n");
    let outcome = check(Format::Text, &line);
    assert_eq!(outcome.iris, N);
    let found = findings(&outcome);
    assert_eq!(found.len(), 1, "{found:?}");
    let offset = last_at + "https://example.org/".len();
    assert_eq!(found[0], ("bidi-formatting-character", offset, offset + 1));
}

#[test]
fn a_megabyte_line_without_an_iri_is_quiet() {
    for format in [Format::Text, Format::Markdown, Format::Html] {
        let line = "word: a, b. (c) [d] 例え ".repeat((1 << 20) / 32) + "\n";
        let outcome = check(format, &line);
        assert_eq!(
            (outcome.iris, outcome.diagnostics.len()),
            (0, 0),
            "{format:?}"
        );
    }
}
