//! No input breaks irilint: documents built from the pieces hostile markup is made of (entity
//! and character references, DTDs, CDATA ends, percent-encoded bidi controls, punycode, BOMs,
//! templates, suppression directives, invalid UTF-8) and random bytes, in every format. Checking
//! never panics, every diagnostic's span lies on character boundaries inside the text with
//! consistent lines and columns, and no report carries a raw character unsafe to display.

use irilint::check::{CheckOptions, check_source};
use irilint::iri::chars::is_unsafe_to_display;
use irilint::rules::Selection;
use irilint::source::{Format, Source};
use proptest::prelude::*;
use proptest::sample::select;

#[path = "common/hostile.rs"]
mod hostile;
use hostile::{PIECES, document};

/// The markup pieces that leave a later paragraph alone: all but suppression directives.
fn markup_piece() -> impl Strategy<Value = Vec<u8>> {
    let markup: Vec<&str> = PIECES
        .iter()
        .copied()
        .filter(|p| !p.contains("irilint-"))
        .collect();
    prop_oneof![
        6 => select(markup).prop_map(|s| s.as_bytes().to_vec()),
        1 => proptest::collection::vec(any::<u8>(), 1..8),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_document_in_any_format_is_checked_without_harm(
        bytes in document(),
        format in select(&Format::ALL[..]),
    ) {
        let Ok(source) = Source::decode("doc".into(), format, &bytes) else {
            return Ok(()); // binary: skipped, as documented
        };
        let all = Selection::all();
        let options = CheckOptions::new(&all);
        let outcome = check_source(&source, &options);
        let text = &source.text;
        for d in &outcome.diagnostics {
            let (s, e) = (d.start.text_offset, d.end.text_offset);
            prop_assert!(s <= e && e <= text.len(), "{} {s}..{e} of {}", d.rule, text.len());
            prop_assert!(text.is_char_boundary(s) && text.is_char_boundary(e), "{}", d.rule);
            prop_assert!(d.start.line >= 1 && d.start.column >= 1 && d.start.column_utf16 >= d.start.column);
            prop_assert!((d.start.line, d.start.column) <= (d.end.line, d.end.column));
            if let Some(fix) = &d.fix {
                // Each edit inside one of the diagnostic's places.
                let places: Vec<_> = std::iter::once((s, e))
                    .chain(d.also.iter().map(|(a, b)| (a.text_offset, b.text_offset)))
                    .collect();
                for edit in &fix.edits {
                    let r = edit.range();
                    prop_assert!(places.iter().any(|&(s, e)| r.start >= s && r.end <= e), "{}: fix outside its places", d.rule);
                }
            }
        }
        let json = irilint::report::json::render(&irilint::check::Run {
            files: vec![outcome],
            errors: Vec::new(),
            skipped: Vec::new(),
            fatal_errors: 0,
        });
        prop_assert!(!json.chars().any(|c| c != '\n' && is_unsafe_to_display(c)), "raw unsafe character in JSON");
    }

    /// Broken reStructuredText and AsciiDoc (an unclosed backquote, passthrough, block or
    /// macro, a truncated target) is plain characters: it drops neither the document nor the
    /// IRI of the paragraph after it.
    #[test]
    fn broken_lightweight_markup_hides_nothing_after_it(
        parts in proptest::collection::vec(markup_piece(), 0..30),
        format in select(&[Format::Rst, Format::Asciidoc][..]),
    ) {
        let mut bytes = parts.concat();
        bytes.extend_from_slice("\n\nSee https://example.org/a\u{202E}b for more.\n".as_bytes());
        let Ok(source) = Source::decode("doc".into(), format, &bytes) else {
            return Ok(());
        };
        // A BOM or undecodable bytes move offsets: find the character in the decoded text.
        let Some(at) = source.text.rfind('\u{202E}') else {
            return Ok(());
        };
        let all = Selection::all();
        let outcome = check_source(&source, &CheckOptions::new(&all));
        prop_assert!(
            outcome.diagnostics.iter().any(|d| d.rule == "bidi-formatting-character"
                && d.start.text_offset == at
                && d.end.text_offset == at + '\u{202E}'.len_utf8()),
            "{format:?}: the U+202E at {at} was not found in {:?}",
            source.text
        );
    }
}
