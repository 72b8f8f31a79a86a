//! Markdown in bounded memory: documents of nothing but one kind of markup, which make
//! pulldown-cmark's tree up to 150 bytes per byte when parsed whole (4 MB of `*a* `: 388 MB),
//! are parsed in chunks within a budget, and the IRIs of each chunk are handed on to be checked
//! once it is read (4 MB of `[a](b) `: 291 MB, most of it 570,000 IRIs waiting for the end of
//! the document) (the book, "Limits and guarantees"). A counting allocator measures the peak of
//! live bytes: at most twice the input plus the chunk's budget.
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::{Counting, cost_of};
use common::documents::numbered;
use common::run::{check_and_report, check_growth};
use irilint::source::Format;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The parser's budget (32 MB) and 16 MB for everything else a run holds besides the document.
const ALLOWANCE: usize = 48 << 20;

/// (peak live bytes, bytes allocated) to check `doc` as Markdown and write its JSON report.
fn cost(doc: &str) -> (usize, usize) {
    cost_of(|| check_and_report("t.md", Format::Markdown, doc)).0
}

/// `head`, then `piece` repeated to about `size` bytes, then `tail`.
fn document(head: &str, piece: &str, tail: &str, size: usize) -> String {
    let mut doc = String::with_capacity(size + head.len() + tail.len());
    doc.push_str(head);
    doc.push_str(&piece.repeat(size / piece.len()));
    doc.push_str(tail);
    doc
}

/// Documents that are one block (a paragraph, list, quote, table, fenced code block, HTML
/// block), one line, one link, or many small blocks, each of one kind of markup; and documents
/// of hundreds of thousands of IRIs; and front matter of many keys, each value once handed over
/// (160,000 keys of 2.5 MB, gathered, took 83 MB), or one flow sequence of many items.
const SHAPES: [(&str, &str, &str); 27] = [
    ("", "*a* ", "\n"),
    ("", "`a` ", "\n"),
    ("", "[a] ", "\n"),
    ("", "<a ", "\n"),
    ("", "&amp; ", "\n"),
    ("", "a\n", ""),
    ("", "a\n\n", ""),
    ("", "- a\n", ""),
    ("", "> a\n", ""),
    ("", "# a\n", ""),
    ("", "> - > - 1. a\n", ""),
    ("a|b\n-|-\n", "a|b\n", ""),
    ("```\n", "a\n", "```\n"),
    ("<pre>\n", "<b>x</b>\n", "</pre>\n"),
    ("[x](http://a.org/", "\\_", ")\n"),
    ("", ":::: ", "\n"),
    // And IRIs, each held until its chunk is read: links, images, definitions, bare IRIs,
    // HTML (one block of kind 7, never closed), component tag lines, prose.
    ("", "[a](b) ", "\n"),
    ("", "![a](b) ", "\n"),
    ("", "[a]: b\n\n", ""),
    ("", "see http://a.b/c ", "\n"),
    ("", "<a href=x>\n", ""),
    ("", "<Note href=x>\n\n", ""),
    (
        "",
        "Some words, a link https://example.org/a and more words here.\n",
        "",
    ),
    ("---\n", "key: value\n", "---\n"),
    ("---\n", "key: https://example.org/a\n", "---\n"),
    ("---\nk: [", "https://example.org/a, ", "]\n---\n"),
    ("+++\n", "key = \"https://example.org/a\"\n", "+++\n"),
];

/// Documents of nothing but what is masked before the document is parsed (template expressions,
/// JSX attribute expressions, component tag lines, MDX comments and module blocks): the lists of
/// masks, 16 bytes each, and their copies took up to ten bytes per byte (48 MB of `<X>` lines:
/// 499 MB), and a document read again as MDX held its first masked copy through the second
/// reading. A document keeps its first `MAX_MASKS` of each kind; what grows with it is the
/// document and its masked copy.
const MASKED: [(&str, &str); 6] = [
    ("t.md", "{{ .Site.X }} "),
    ("j.md", "<a b={x}>"),
    ("k.md", "<X>\n"),
    ("c.md", "{/* c */} "),
    ("c.mdx", "{/* c */} "),
    ("e.mdx", "import a from 'b'\n"),
];

#[test]
fn markdown_of_any_shape_is_parsed_in_bounded_memory() {
    for (head, piece, tail) in SHAPES {
        let small = document(head, piece, tail, 1 << 20);
        let large = document(head, piece, tail, 4 << 20);
        let (small_peak, small_work) = cost(&small);
        let (peak, work) = cost(&large);
        assert!(
            peak <= 2 * large.len() + ALLOWANCE,
            "{piece:?}: peak {} MB for a {} MB document",
            peak >> 20,
            large.len() >> 20
        );
        // Four times the document: about four times the work, never sixteen.
        assert!(
            work <= 6 * small_work,
            "{piece:?}: {small_work} bytes allocated at 1 MB, {work} at 4 MB"
        );
        assert!(small_peak <= 2 * small.len() + ALLOWANCE);
    }
    let mut failed = Vec::new();
    for (name, piece) in MASKED {
        let doc = |size: usize| piece.repeat(size / piece.len()).into_bytes();
        check_growth(
            name,
            Format::Markdown,
            (doc(2 << 20), doc(8 << 20)),
            2.2,
            &mut failed,
        );
    }
    // Reference definitions of distinct labels, each kept (as a hash) across the chunks: their
    // labels as strings took five bytes per byte.
    let definitions = |size: usize| numbered(size, |i| format!("[a{i}]: http://a.org/\n"));
    let sizes = (definitions(2 << 20), definitions(8 << 20));
    check_growth("d.md", Format::Markdown, sizes, 2.2, &mut failed);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
