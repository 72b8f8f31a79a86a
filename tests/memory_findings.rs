//! Memory and work in proportion to the input, findings included: documents in every format
//! whose IRIs are long and full of characters every rule reports (bidi controls, zero-width
//! characters, raw spaces, look-alikes, decomposed accents), checked and written as JSON and
//! SARIF reports. A counting allocator measures the peak of live bytes (which must stay within
//! twice the input plus a constant) and the bytes allocated in all (the work: at four times the
//! size, about four times as much, never sixteen).
//!
//! Before one finding per IRI, rule and component, an 80 KB line with 20,000 U+202E held 20,000
//! copies of its IRI (1.6 GB) and its JSON report repeated it 20,000 times.
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::{Counting, cost_of};
use irilint::check::{CheckOptions, RunOutcome, check_source};
use irilint::report::place::Places;
use irilint::report::sarif::{self, RunFacts};
use irilint::report::{json, rules_that_ran};
use irilint::rules::Selection;
use irilint::source::{Format, Source};
use proptest::prelude::*;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What checking and reporting `doc` cost: (peak live bytes above the start, bytes allocated).
fn cost(name: &str, format: Format, doc: &[u8], findings: bool) -> (usize, usize) {
    cost_of(|| {
        let source = Source::decode(name.to_string(), format, doc).unwrap();
        // Every rule but the project-level `equivalent-variants` (off by default), which
        // holds the normal form of each IRI for the whole run and builds it in a few passes
        // (the book, "Limits and guarantees").
        let selection = Selection::from_selectors(&["ALL"], &[], &["equivalent-variants"]).unwrap();
        let options = CheckOptions::new(&selection);
        let outcome = RunOutcome {
            files: vec![check_source(&source, &options)],
            ..RunOutcome::default()
        };

        assert!(
            !findings || !outcome.files[0].diagnostics.is_empty(),
            "{name}: the hostile document {:?}... has findings",
            String::from_utf8_lossy(&doc[..doc.len().min(60)])
        );
        json::write(&outcome, &mut std::io::sink()).unwrap();
        let rules = rules_that_ran([&selection], &outcome);
        let facts = RunFacts {
            rules: &rules,
            exit_code: 1,
        };
        sarif::write(&outcome, &facts, &Places::current(), &mut std::io::sink()).unwrap();
    })
    .0
}

/// A long IRI: `n` repetitions of `piece` in its path, written in `format`'s link syntax.
fn document(format: Format, piece: &str, n: usize) -> String {
    let iri = if HOST_PIECES.contains(&piece) {
        format!("https://{}example.org/end", piece.repeat(n))
    } else {
        // Half in the path, half in the query.
        let half = piece.repeat(n / 2);
        format!("https://example.org/{half}/end?q={half}")
    };
    match format {
        Format::Html => format!("<!doctype html><p><a href=\"{iri}\">x</a></p>\n"),
        Format::Xml => {
            format!("<feed xmlns=\"http://www.w3.org/2005/Atom\"><link href=\"{iri}\"/></feed>\n")
        }
        Format::Markdown => format!("See [the page]({iri}).\n"),
        Format::Rst => format!("See `the page <{iri}>`_.\n"),
        Format::Asciidoc => format!("See link:{iri}[the page].\n"),
        _ => format!("See {iri} now.\n"),
    }
}

const FORMATS: [(Format, &str); 6] = [
    (Format::Text, "t.txt"),
    (Format::Html, "t.html"),
    (Format::Xml, "t.xml"),
    (Format::Markdown, "t.md"),
    (Format::Rst, "t.rst"),
    (Format::Asciidoc, "t.adoc"),
];

/// Pieces each of which some rule reports wherever it stands in a path or a query: hidden and
/// decomposed characters, look-alikes, escapes and mojibake, and characters the grammar
/// forbids (each one a parse issue) or that split a component (each one a piece of it).
const PIECES: [&str; 36] = [
    "\u{05D0}(",
    "(",
    "e\u{0301}a",
    "\u{0430}\u{0501}a",
    "\u{0958}",
    "a\u{0301}\u{0316}\u{0301}",
    "a%7e",
    "%41b",
    "./",
    "../",
    "\u{FB01}",
    "a\u{05D0}",
    "\u{05D0}1/",
    "%C0%AF",
    "%E2%80%AE",
    "%FC",
    "\u{FF21}",
    "a\u{202E}",
    "b\u{200B}",
    "e\u{0301}",
    "\u{0430}p",
    "x\u{FEFF}",
    "\u{2044}q",
    "c\u{00AD}",
    "%e9",
    "a\u{E2}\u{80}\u{AE}",
    "^",
    "%zz",
    "\u{E000}",
    "x\u{1}",
    "[",
    "/",
    "a&",
    "{{x}}",
    "%s",
    "{a",
];

/// Pieces written with a format's own escapes, decoded before the IRI is checked: each maps
/// back to its escape in the source (a map of 56 bytes per escape held 24 bytes per byte of
/// `&amp;&amp;...`: 480 MB for a 20 MB page), and a line index held 8 bytes per line (`a\r`).
/// Not Markdown's: its parser keeps a tree node per inline item, tens of bytes per escape, up to
/// a chunk's budget of 32 MB, more than this test's constant (`tests/memory_markdown.rs` bounds
/// it; the book, "Limits and guarantees").
const ESCAPE_PIECES: [(usize, &[&str]); 2] = [
    (1, &["&amp;", "a&lt;", "&#x202E;", "a\r", "&#x200B;b"]),
    (2, &["&amp;", "a&lt;", "&#x202E;", "&#xD;", "a\r"]),
];

/// Pieces that may make no finding: those that only split a component into many pieces, `[`,
/// which ends a link in plain text, and template expressions (placeholders: an IRI of nothing
/// but `{{x}}` held twelve bytes per byte in its placeholders; `{a` repeated made a search for
/// the `}` from each `{`, quadratic).
const QUIET: [&str; 8] = ["/", "a&", "a.", "[", "(", "{{x}}", "%s", "{a"];

/// Pieces that make a long host: a million labels, of ASCII, Unicode or a look-alike.
const HOST_PIECES: [&str; 6] = [
    "a.",
    "\u{E9}.",
    "x\u{0430}.",
    "\u{E9}",
    "x\u{0430}",
    "\u{05D0}1",
];

#[test]
fn long_iris_full_of_findings_cost_memory_and_work_in_proportion() {
    // The same cases every run (a failure here is a finding to fix, not luck of the draw).
    let mut runner = common::same_cases_every_run(10);
    // Every piece alone at least once, in plain text and in another format, then mixes in
    // every format.
    for (i, p) in PIECES.iter().chain(&HOST_PIECES).enumerate() {
        check_case(0, &[p]).unwrap();
        check_case(1 + i % (FORMATS.len() - 1), &[p]).unwrap();
    }
    a_long_href_is_held_once_beside_the_page();
    for (f, pieces) in ESCAPE_PIECES {
        for p in pieces {
            check_case(f, &[p]).unwrap();
        }
    }
    let strategy = (
        0..FORMATS.len(),
        proptest::collection::vec(proptest::sample::select(&PIECES[..]), 1..4),
    );
    runner
        .run(&strategy, |(f, pieces)| check_case(f, &pieces))
        .unwrap();
}

/// Checks one document made of `pieces` in format `FORMATS[f]` at two sizes.
fn check_case(f: usize, pieces: &[&str]) -> Result<(), proptest::test_runner::TestCaseError> {
    let (format, name) = FORMATS[f];
    let piece: String = pieces.concat();
    // About 40 KB and 160 KB: a term quadratic in the findings would be 16 times
    // larger at the second size, and a copy of the IRI per finding gigabytes.
    let n = 40_000 / piece.len();
    let small = document(format, &piece, n);
    let large = document(format, &piece, 4 * n);
    // In plain text a `[` or `(` may end the link before the pieces that make findings.
    let quiet = pieces.iter().all(|p| QUIET.contains(p) || *p == "&amp;");
    let ends_text_link = format == Format::Text && pieces.iter().any(|p| ["[", "("].contains(p));
    let findings = !quiet && !ends_text_link;
    let (small_peak, small_work) = cost(name, format, small.as_bytes(), findings);
    let (peak, large_work) = cost(name, format, large.as_bytes(), findings);
    // What each byte more of input costs at the peak: at most twice itself (the document is
    // held, and the IRI in it), whatever the IRI holds. Each finding keeps at most 1,000 places
    // (MAX_PLACES), a constant both sizes reach; 256 KB of allowance covers the allocator's
    // rounding.
    let grown = large.len() - small.len();
    let limit = 2 * grown + 256 * 1024;
    prop_assert!(
        peak.saturating_sub(small_peak) <= limit,
        "{name} {piece:?}: peak {small_peak} bytes at {} bytes, {peak} at {}: {} bytes more per byte",
        small.len(),
        large.len(),
        peak.saturating_sub(small_peak) as f64 / grown as f64
    );
    // And in all, twice the input and a constant.
    prop_assert!(
        peak <= 2 * large.len() + 4 * 1024 * 1024,
        "{name} {piece:?}: peak {peak} bytes for a {} byte document",
        large.len()
    );
    prop_assert!(
        large_work <= 6 * small_work,
        "{name} {piece:?}: {small_work} bytes allocated at {} bytes, {large_work} at {}",
        small.len(),
        large.len()
    );
    Ok(())
}

/// A page that is one long `href` with nothing to decode: its value is compared with the
/// tokenizer's in place and becomes the IRI with one copy of the source. irilint decoded a copy
/// of its own first, which the IRI copied again: three copies of the value at once beside the
/// page (3.0 bytes more per byte at the peak).
fn a_long_href_is_held_once_beside_the_page() {
    let page = |n: usize| {
        format!(
            "<!doctype html><p><a href=\"https://example.org/{}\">x</a></p>\n",
            "a".repeat(n)
        )
    };
    let (small, large) = (page(1 << 20), page(4 << 20));
    let (small_peak, _) = cost("t.html", Format::Html, small.as_bytes(), false);
    let (peak, _) = cost("t.html", Format::Html, large.as_bytes(), false);
    let per_byte = peak.saturating_sub(small_peak) as f64 / (large.len() - small.len()) as f64;
    assert!(
        per_byte <= 2.5,
        "{small_peak} bytes at the peak for {} bytes, {peak} for {}: {per_byte:.2} per byte",
        small.len(),
        large.len()
    );
}
