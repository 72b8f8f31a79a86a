//! The HTML extractor against html5ever and against bad input.

use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use irilint::extract::html::{extract_fragment, located_attributes};
use irilint::source::{Format, Source};

fn html_fixtures() -> Vec<(PathBuf, Source)> {
    let mut out = Vec::new();
    for entry in fs::read_dir("fixtures/html").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let bytes = fs::read(&path).unwrap();
            let source = Source::decode(path.display().to_string(), Format::Html, &bytes).unwrap();
            out.push((path, source));
        }
    }
    assert!(out.len() >= 15, "at least 15 HTML fixtures");
    out
}

/// html5ever's value for an attribute written as `raw` between double quotes.
fn html5ever_decode(raw: &str) -> String {
    let doc = format!("<x v=\"{raw}\">");
    let attrs = located_attributes(&doc);
    attrs
        .into_iter()
        .find(|(_, a)| a.name == "v")
        .map(|(_, a)| a.value)
        .unwrap_or_default()
}

#[test]
fn every_attribute_of_every_fixture_decodes_as_html5ever_does() {
    for (path, source) in html_fixtures() {
        for (element, attr) in located_attributes(&source.text) {
            assert!(
                attr.exact,
                "{}: <{element} {}>: irilint decoded {:?}, html5ever {:?}",
                path.display(),
                attr.name,
                attr.decoded,
                attr.value
            );
        }
    }
}

#[test]
fn every_prepared_character_maps_to_source_that_decodes_to_it() {
    let mut checked = 0;
    for (path, source) in html_fixtures() {
        for occ in extract_fragment(&source.text, 0..source.text.len()).0 {
            for (i, c) in occ.iri.char_indices() {
                // A template expression may reach past the value the tokenizer saw (the quote
                // in `href="{{ "a" | relURL }}"`); it is a placeholder, never checked.
                if occ.placeholders.iter().any(|p| p.contains(&i)) {
                    continue;
                }
                let span = occ.map.to_source(i..i + c.len_utf8());
                let raw = &source.text[span];
                let decoded = html5ever_decode(raw);
                // Exactly this character, unless one reference produced several
                // (`&NotEqualTilde;` is two code points), all mapped to the whole reference.
                let exact = decoded == c.to_string();
                let part_of_several = decoded.chars().count() > 1 && decoded.contains(c);
                assert!(
                    exact || part_of_several,
                    "{}: {:?}[{i}] = {c:?} maps to {raw:?}, which decodes to {decoded:?}",
                    path.display(),
                    occ.iri
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} characters checked");
}

fn within(limit: Duration, f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    let took = t.elapsed();
    assert!(took < limit, "took {took:?}");
    took
}

#[test]
fn deep_nesting_does_not_overflow() {
    let mut html = "<div>".repeat(200_000);
    html.push_str("<a href=\"http://example.org/\u{202E}x\">");
    html.push_str(&"</div>".repeat(200_000));
    within(Duration::from_secs(30), || {
        let occ = extract_fragment(&html, 0..html.len()).0;
        assert_eq!(occ.len(), 1);
        assert_eq!(&*occ[0].iri, "http://example.org/\u{202E}x");
    });
}

#[test]
fn a_fifty_megabyte_attribute() {
    let mut html = String::from("<a href=\"http://example.org/");
    html.push_str(&"a".repeat(50 * 1024 * 1024));
    html.push_str("\u{202E}\">x</a>");
    within(Duration::from_secs(60), || {
        let occ = extract_fragment(&html, 0..html.len()).0;
        assert_eq!(occ.len(), 1);
        let at = occ[0].iri.find('\u{202E}').unwrap();
        let span = occ[0].map.to_source(at..at + 3);
        assert_eq!(&html[span], "\u{202E}");
    });
}

#[test]
fn truncated_and_odd_markup_never_panics() {
    let cases = [
        "<a href=\"http://a/",
        "<a href='",
        "<a href=",
        "<a href",
        "<a",
        "<",
        "&",
        "<a href=\"&#x",
        "<a href=\"&#x202E",
        "<a href=\"&eacute",
        "<!--",
        "<!-- <a href=x>",
        "<![CDATA[",
        "<svg><![CDATA[ <a href=x>",
        "<script>",
        "<script><a href=x>",
        "<a href=x\0y>",
        "\0\0\0<a href=\"\0\">",
        "<a href=\"x\"\"y\"=z>",
        "<a =x href=y>",
        "</a href=\"x\"><a href=z>",
        "<a href=x/><a/href=y>",
        "<meta http-equiv=refresh content=\"5;url=",
        "<img srcset=\",,,\">",
        "<img srcset=\"(((\">",
    ];
    for html in cases {
        let _ = extract_fragment(html, 0..html.len());
    }
}

#[test]
fn mixed_encodings_are_decoded_as_declared_with_replacement() {
    // Declared UTF-8, but the bytes are Latin-1: invalid sequences become U+FFFD, recorded.
    let bytes = b"<meta charset=utf-8><a href=\"/caf\xE9\">x</a>";
    let source = Source::decode("t.html".into(), Format::Html, bytes).unwrap();
    assert_eq!(source.encoding.invalid.len(), 1);
    let occ = extract_fragment(&source.text, 0..source.text.len()).0;
    assert_eq!(&*occ[0].iri, "/caf\u{FFFD}");
}
