//! reStructuredText and AsciiDoc are read a part at a time (64 KB or more, ended where the
//! scanner holds nothing open); a paragraph of more than four parts is cut within, at a line
//! end, else a space. A paragraph with neither (one run of markup, `` ` `` or `+++` repeated)
//! was read whole as one part, which its scanner holds a few times over: 16 MB of `+++` took
//! 100 MB, of `` ` `` 57 MB. It is now cut where the four parts end (the book, "Limits and
//! guarantees").
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::Counting;
use common::documents::numbered;
use common::run::check_growth;
use irilint::source::Format;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn a_paragraph_without_a_line_end_or_space_is_read_in_parts() {
    let mut failed = Vec::new();
    for (name, format, piece) in [
        ("a.rst", Format::Rst, &b"`"[..]),
        ("b.rst", Format::Rst, b"]]>["),
        ("c.rst", Format::Rst, b"`a`_"),
        ("d.rst", Format::Rst, b"``a``"),
        ("e.adoc", Format::Asciidoc, b"+++"),
        ("f.adoc", Format::Asciidoc, b"pass:[a]"),
        ("g.adoc", Format::Asciidoc, b"&#x202E;xn--80ak6aa92e.com"),
        ("h.adoc", Format::Asciidoc, b"link:http://a/[]"),
    ] {
        let doc = |size: usize| piece.repeat(size / piece.len());
        let file = check_growth(name, format, (doc(2 << 20), doc(8 << 20)), 2.0, &mut failed);
        // Still read: the links are found in every part.
        if piece.starts_with(b"link") {
            assert!(file.iris > 1000, "{name}: {} IRIs", file.iris);
        }
    }
    // AsciiDoc attributes set to a URL, each name kept (as a hash) for the whole document:
    // their names as strings took four bytes per byte.
    let attributes = |size: usize| numbered(size, |i| format!(":a{i}: http://a.org/\n"));
    let sizes = (attributes(2 << 20), attributes(8 << 20));
    check_growth("i.adoc", Format::Asciidoc, sizes, 2.0, &mut failed);
    // A delimited block whose content is no text is never cut: one part, read line by line.
    // Its lines were listed first (16 bytes each: 32 MB of empty lines took 597 MB) and the
    // masked text copied twice more (128 MB of lines, 400 MB); the text and the masked text now.
    for (name, line) in [("j.adoc", "\n"), ("k.adoc", "http://a/\n")] {
        let block = |size: usize| format!("----\n{}----\n", line.repeat(size / line.len()));
        let sizes = (block(2 << 20).into_bytes(), block(8 << 20).into_bytes());
        check_growth(name, Format::Asciidoc, sizes, 2.2, &mut failed);
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
