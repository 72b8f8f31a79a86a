//! Documents of hundreds of thousands of short IRIs: each IRI is handed on to be checked as the
//! extractor finds it (HTML as it is tokenized, XML as it is walked, plain text as it is
//! scanned, Markdown a chunk at a time, reStructuredText and AsciiDoc a part at a time), so that the IRIs of a document are never all in memory
//! (the book, "Limits and guarantees"). Before, 4 MB of Atom `<link href="x"/>` peaked at 132 MB
//! (250,000 occurrences of about 500 bytes each, waiting for the end of the document).
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::{Counting, cost_of};
use common::run::check_and_report;
use irilint::source::Format;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// (peak live bytes, bytes allocated) to check `doc` and write its JSON report.
fn cost(name: &str, format: Format, doc: &str) -> (usize, usize) {
    let (cost, file) = cost_of(|| check_and_report(name, format, doc));
    assert!(file.iris > 30_000, "{name}: {} IRIs", file.iris);
    cost
}

/// (name, format, head, piece, tail): `piece` repeated to about the size asked.
const DOCUMENTS: [(&str, Format, &str, &str, &str); 16] = [
    (
        "atom.xml",
        Format::Xml,
        "<feed xmlns=\"http://www.w3.org/2005/Atom\">",
        "<link href=\"x\"/>",
        "</feed>",
    ),
    (
        "rss.xml",
        Format::Xml,
        "<rss version=\"2.0\"><channel>",
        "<item><link>x</link></item>",
        "</channel></rss>",
    ),
    ("ns.xml", Format::Xml, "<r>", "<a xmlns:p=\"u:x\"/>", "</r>"),
    (
        "list.xml",
        Format::Xml,
        "<r xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"",
        "u:a ",
        "\"/>",
    ),
    ("page.html", Format::Html, "", "<a href=x>\n", ""),
    (
        "srcset.html",
        Format::Html,
        "<img srcset=\"",
        "a 1x, ",
        "\">",
    ),
    ("notes.txt", Format::Text, "", "see http://a.b/c ", ""),
    ("mail.txt", Format::Text, "", "mailto:a@b.c ", ""),
    ("links.md", Format::Markdown, "", "[a](b) ", "\n"),
    ("html.md", Format::Markdown, "", "<a href=x>\n", ""),
    ("links.rst", Format::Rst, "", "`a <b:c>`_ ", "\n"),
    ("lines.rst", Format::Rst, "", "`a <b:c>`_\n\n", ""),
    ("bare.rst", Format::Rst, "", "see http://a.b/c ", "\n"),
    ("links.adoc", Format::Asciidoc, "", "link:b:c[] ", "\n"),
    ("lines.adoc", Format::Asciidoc, "", "link:b:c[]\n\n", ""),
    ("bare.adoc", Format::Asciidoc, "", "see http://a.b/c ", "\n"),
];

#[test]
fn the_iris_of_a_document_are_checked_as_they_are_found() {
    for (name, format, head, piece, tail) in DOCUMENTS {
        let doc = |size: usize| format!("{head}{}{tail}", piece.repeat(size / piece.len()));
        let (small, large) = (doc(1 << 20), doc(4 << 20));
        let (small_peak, small_work) = cost(name, format, &small);
        let (peak, work) = cost(name, format, &large);
        eprintln!(
            "{name}: {:.2} bytes more at the peak per byte more",
            peak.saturating_sub(small_peak) as f64 / (large.len() - small.len()) as f64
        );
        // The document, its decoded text, and what a chunk or a batch holds; not an IRI more.
        assert!(
            peak <= 2 * large.len() + (40 << 20),
            "{name}: peak {} MB for a {} MB document",
            peak >> 20,
            large.len() >> 20
        );
        // Each byte more: the document's byte and, for a list in one XML attribute, its decoded
        // value; not a range per IRI (a list of the IRIs of one text, one `srcset` or one
        // `xsi:schemaLocation` took 16 bytes each).
        assert!(
            peak.saturating_sub(small_peak) <= 2 * (large.len() - small.len()) + (1 << 20),
            "{name}: peak {small_peak} bytes at 1 MB, {peak} at 4 MB"
        );
        assert!(
            work <= 6 * small_work,
            "{name}: {small_work} bytes allocated at 1 MB, {work} at 4 MB"
        );
    }
}
