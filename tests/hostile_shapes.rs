//! Hostile documents of every shape, in every format, cost memory and work in proportion to
//! their size. Each document is a unit of hostile markup repeated: many links, comments,
//! directives, entities, attributes, references, list items, unclosed constructs, undecodable
//! bytes, and random mixes of the pieces `tests/hostile_properties.rs` builds documents from.
//! Each is checked and its JSON report written at two sizes, N and 4N, under a counting
//! allocator and [`irilint::work`]'s counts:
//!
//! - the peak of live bytes is within twice the document and a constant (the book's bound,
//!   "Limits and guarantees"), and at most about four times as much at 4N, never sixteen;
//! - the work (bytes allocated, allocations made, and each of `irilint::work`'s counts) is about
//!   four times as much at 4N, never sixteen (twice that when the larger file is past its
//!   listing limit and the smaller is not: such a file may be checked a second time, with its
//!   directives known), plus at most one pass over the larger document.
//!
//! At 64 KB and 256 KB the peak is mostly what the readers hold by design until a chunk or part
//! ends (Markdown's budget of 32 MB, reStructuredText's and AsciiDoc's parts, the file's first
//! 5,000 findings), so the peak's growth per byte is asserted only at a scale past them:
//! `HOSTILE_SHAPES_SCALE=16 cargo test --release --test hostile_shapes -- --nocapture` runs it
//! at 1 MB and 4 MB, asserts there that each byte more of a document other than Markdown adds at
//! most two bytes to the peak beside the findings listed (two bytes of its text: an undecodable
//! byte is three in the text), and prints each shape's figures, its
//! time included (printed, not asserted: a loop that neither allocates nor counts its work shows
//! only there).
//!
//! The quadratic paths found by hand (a page of comments, a tag of many attributes, a line of
//! references...) each have a test of their own in `tests/linear_work.rs`; this one looks for
//! the next.
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;
#[path = "common/hostile.rs"]
mod hostile;

use common::counting::{Counting, allocations, cost_of};
use common::run::check_text_and_report;
use irilint::check::MAX_LISTED;
use irilint::source::Format;
use irilint::work;
use proptest::prelude::*;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What else a run holds beside the document, within the book's 50 MB: Markdown's parser works
/// within a budget of 32 MB (a document under it is parsed whole, up to 150 bytes per byte of
/// inline markup), and reStructuredText and AsciiDoc hold a part's IRIs until it is read (a
/// paragraph is cut past four parts of 64 KB); 16 MB for the rest (the listed findings, the
/// directives read, the report being written).
fn allowance(format: Format) -> usize {
    match format {
        Format::Markdown | Format::Rst | Format::Asciidoc => 48 << 20,
        _ => 16 << 20,
    }
}

/// What one listed finding may hold beside the document: its message, help, places and fix
/// (each bounded), and the IRI's share. A file lists at most 5,000.
const PER_FINDING: usize = 4 << 10;

/// A shape: the format, what comes first, the unit repeated, what comes last.
type Shape = (Format, &'static str, &'static [u8], &'static str);

/// Shapes written by hand, each a unit some part of irilint reads once per repetition.
const SHAPES: &[Shape] = &[
    // Plain text: links, schemes without an authority, brackets, hosts, directives.
    (Format::Text, "", b"see http://a.b/c ", ""),
    (Format::Text, "", b"mailto:a@b.c ", ""),
    (Format::Text, "", b"http://a.org/\xE2\x80\xAE ", ""),
    (Format::Text, "", b"www.a.org ", ""),
    (Format::Text, "", b"http://[::1]:80/ ", ""),
    (Format::Text, "", b"http://a.org/(", ""),
    (Format::Text, "http://", b"a.", "org/"),
    (Format::Text, "", b"<http://a.org/> ", ""),
    (Format::Text, "", b"http://xn--80ak6aa92e.com/ ", ""),
    (
        Format::Text,
        "",
        b"irilint-disable-next-line\nhttp://a/\xE2\x80\x8B\n",
        "",
    ),
    (Format::Text, "", b"a\r", ""),
    (Format::Text, "", b"http://a/\xFF ", ""),
    (Format::Text, "", b"\xFF", ""),
    (Format::Text, "", b"\xD0\xE0\xE7 http://a/ ", ""),
    // HTML: elements of every kind that holds an IRI, comments, directives, entities,
    // unclosed tags, template expressions, one tag of many attributes.
    (Format::Html, "", b"<a href=\"http://a.org/x\">y</a>\n", ""),
    (
        Format::Html,
        "",
        b"<!-- irilint-disable-next-line -->\n",
        "",
    ),
    (
        Format::Html,
        "",
        b"<!-- irilint-disable-next-line -->\n<a href=\"http://a/\xE2\x80\xAE\">x</a>\n",
        "",
    ),
    (Format::Html, "", b"<a href=x ", ""),
    (Format::Html, "<img srcset=\"", b"a 1x, ", "\">"),
    (
        Format::Html,
        "",
        b"<meta http-equiv=refresh content=\"0; url=http://a/\">",
        "",
    ),
    (Format::Html, "", b"<base href=\"http://a/\">", ""),
    (
        Format::Html,
        "",
        b"<style>a{background:url(http://a/)}</style>",
        "",
    ),
    (
        Format::Html,
        "",
        b"<p style=\"background:url(http://a/x)\">",
        "",
    ),
    (Format::Html, "<svg>", b"<a xlink:href=\"http://a/\">", ""),
    (Format::Html, "", b"<a href=\"&#x202E;&amp;\">", ""),
    (Format::Html, "<a href=\"http://a/", b"&amp;&#x202E;", "\">"),
    (Format::Html, "", b"<a href=\"{{ url \"x\" }}\">", ""),
    (Format::Html, "<a ", b"h=\"http://a/\" ", ">"),
    (Format::Html, "<a ", b"b ", ">"),
    (Format::Html, "", b"<!--", ""),
    (Format::Html, "<script>", b"<a href=x>", ""),
    (Format::Html, "", b"<![CDATA[", ""),
    (Format::Html, "", b"</a >", ""),
    (Format::Html, "", b"<a href=\"http://a/\xFF\">", ""),
    // XML: feeds, entities, namespaces, CDATA, processing instructions, comments.
    (
        Format::Xml,
        "<feed xmlns=\"http://www.w3.org/2005/Atom\">",
        b"<link href=\"http://a/\"/>",
        "</feed>",
    ),
    (
        Format::Xml,
        "<!DOCTYPE r [",
        b"<!ENTITY e \"&#x202E;\">",
        "]><r><link href=\"http://a/&e;\"/></r>",
    ),
    (
        Format::Xml,
        "<!DOCTYPE r [<!ENTITY e \"x\">]><r><link href=\"http://a/",
        b"&e;",
        "\"/></r>",
    ),
    (Format::Xml, "<r>", b"<a xmlns:x=\"http://a/\">", ""),
    (Format::Xml, "<r>", b"<![CDATA[http://a/]]>", "</r>"),
    (Format::Xml, "<r>", b"<?pi x?><!-- c -->", "</r>"),
    (
        Format::Xml,
        "<r>",
        b"<uri>http://a/\xE2\x80\xAE</uri>",
        "</r>",
    ),
    (Format::Xml, "<r ", b"a=\"http://a/\" ", "/>"),
    (
        Format::Xml,
        "<r xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"",
        b"u:a ",
        "\"/>",
    ),
    (
        Format::Xml,
        "<r>",
        b"<!-- irilint-disable-next-line -->\n",
        "</r>",
    ),
    // Markdown: links of every kind, definitions, components, MDX, front matter, tables.
    (Format::Markdown, "", b"[a](http://a/) ", ""),
    (Format::Markdown, "", b"[a]: http://a/ \"t\"\n", ""),
    (Format::Markdown, "", b"<http://a/\xE2\x80\xAE> ", ""),
    (Format::Markdown, "", b"[x][y] ", ""),
    (Format::Markdown, "", b"---\n", ""),
    (Format::Markdown, "", b"<Card href=\"http://a/\" />\n", ""),
    (
        Format::Markdown,
        "import X from 'y'\n\n",
        b"<X href=\"http://a/\" />\n\n",
        "",
    ),
    (Format::Markdown, "", b"{/* c */} ", ""),
    (
        Format::Markdown,
        "",
        b"<!-- irilint-disable-next-line -->\n[a](http://a/\xE2\x80\x8B)\n\n",
        "",
    ),
    (Format::Markdown, "a|b\n-|-\n", b"| [a](http://a/) |\n", ""),
    (Format::Markdown, "", b"[^a]: http://a/\n", ""),
    (Format::Markdown, "", b"* [ ] http://a/\n", ""),
    (Format::Markdown, "", b"[a](<http://a/ b>) ", ""),
    (Format::Markdown, "", b"[", ""),
    (Format::Markdown, "[a](http://a/", b"{{ .Site.X }}", ")"),
    (Format::Markdown, "---\n", b"k: http://a/\n", "---\n"),
    // reStructuredText: references, targets, substitutions, literal blocks, tables, roles.
    (Format::Rst, "", b"`a <http://a/>`_ ", ""),
    (Format::Rst, "", b".. _t: http://a/\n", ""),
    (Format::Rst, "", b"__ http://a/\n", ""),
    (Format::Rst, "", b".. |s| image:: http://a/\n", ""),
    (Format::Rst, "", b"`a`__ ", ""),
    (Format::Rst, "", b":pep:`8` ", ""),
    (
        Format::Rst,
        "",
        b".. image:: http://a/\n   :target: http://b/\n\n",
        "",
    ),
    (Format::Rst, "::\n\n", b"    http://a/\n", ""),
    (Format::Rst, "", b"+----+\n| http://a/ |\n", ""),
    (
        Format::Rst,
        "",
        b".. irilint-disable-next-line\n\nhttp://a/\xE2\x80\xAE\n\n",
        "",
    ),
    (Format::Rst, "", b"`", ""),
    // AsciiDoc: macros, attributes, cross references, blocks, passthroughs, escapes.
    (Format::Asciidoc, "", b"link:http://a/[a] ", ""),
    (Format::Asciidoc, "", b"http://a/[a] ", ""),
    (Format::Asciidoc, "", b"xref:a.adoc[] ", ""),
    (Format::Asciidoc, "", b"image::http://a/[]\n", ""),
    (Format::Asciidoc, ":url-x: http://a/\n\n", b"{url-x} ", ""),
    (Format::Asciidoc, "", b"* a\n+\nhttp://a/\n", ""),
    (Format::Asciidoc, "----\n", b"http://a/\n", "----\n"),
    (Format::Asciidoc, "....\n", b"\n", "....\n"),
    (Format::Asciidoc, "", b"pass:[http://a/] ", ""),
    (Format::Asciidoc, "", b"\\*http://a/* ", ""),
    (
        Format::Asciidoc,
        "",
        b"// irilint-disable-next-line\nhttp://a/\xE2\x80\xAE\n",
        "",
    ),
    (Format::Asciidoc, "", b"<<a,b>> ", ""),
    (Format::Asciidoc, "", b"link:++http://a/++[] ", ""),
    (Format::Asciidoc, "", b"+++", ""),
    // Unclosed openers after an IRI, in every format: each IRI ends at its opener or takes
    // it in, and what closes it is searched for to the end of the line or document.
    (Format::Text, "", b"http://a.org/x[", ""),
    (Format::Text, "", b"http://a.org/x[[", ""),
    (Format::Text, "", b"http://a.org/x[", "]"),
    (Format::Text, "", b"http://[v.x[", "]."),
    (Format::Text, "", b"www.a.org/x[", ""),
    (Format::Text, "", b"www.a.org/x[:", ""),
    (Format::Text, "", b"'http://a.org/x[", ""),
    (Format::Text, "", b"http://a.org/x(", ""),
    (Format::Text, "", b"http://a.org/x{", ""),
    (Format::Text, "", b"http://a.org/x{{", ""),
    (Format::Text, "", b"http://a.org/x${", ""),
    (Format::Text, "", b"http://a.org/x{%", ""),
    (Format::Text, "", b"http://a.org/x`", ""),
    (Format::Text, "", b"http://a.org/x\xE2\x80\x9C", ""),
    (Format::Markdown, "", b"http://a.org/x[", ""),
    (Format::Markdown, "", b"<http://a.org/x[", ""),
    (Format::Markdown, "", b"`http://a.org/x[", ""),
    (Format::Markdown, "", b"[a](http://a.org/x{{", ""),
    (Format::Rst, "", b"http://a.org/x[", ""),
    (Format::Rst, "", b"`a <http://a.org/x[", ""),
    (Format::Rst, "", b"``http://a.org/x[", ""),
    (Format::Rst, "", b"http://a.org/x{{", ""),
    (Format::Asciidoc, "", b"http://a.org/x[", ""),
    (Format::Asciidoc, "", b"http://a.org/x[", "]"),
    (Format::Asciidoc, "", b"http://a.org/x/", ""),
    (Format::Asciidoc, "", b"link:a/", ""),
    (Format::Asciidoc, "", b"http://a.org/x`", ""),
    (Format::Asciidoc, "", b"http://a.org/x{{", ""),
    (
        Format::Asciidoc,
        ":url-a: http://a.org/\n\n",
        b"{url-a}/x[",
        "",
    ),
    (Format::Asciidoc, "http://a.org/", b"{startsb}x", ""),
    (Format::Html, "", b"<a href=\"http://a.org/x[\">", ""),
    (Format::Html, "<a href=\"", b"http://a.org/x[", ""),
    (Format::Html, "<a href=\"", b"http://a.org/x{{", ""),
    (Format::Html, "<p>", b"http://a.org/x[", ""),
    (Format::Xml, "<r>", b"<uri>http://a.org/x[", "</r>"),
    (Format::Xml, "<r a=\"", b"http://a.org/x[", "\"/>"),
    (Format::Xml, "<r>", b"http://a.org/x{", "</r>"),
];

/// The file name a format is read under.
fn name_of(format: Format) -> &'static str {
    match format {
        Format::Text => "t.txt",
        Format::Html => "t.html",
        Format::Xml => "t.xml",
        Format::Markdown => "t.md",
        Format::Rst => "t.rst",
        Format::Asciidoc => "t.adoc",
        Format::Epub => "t.epub",
        Format::OpenDocument => "t.odt",
        Format::Ooxml => "t.docx",
        Format::Pdf => "t.pdf",
    }
}

/// `head`, `unit` repeated to at least `size` bytes, `tail`.
fn document(head: &str, unit: &[u8], tail: &str, size: usize) -> Vec<u8> {
    let times = size.div_ceil(unit.len().max(1));
    let mut doc = Vec::with_capacity(head.len() + times * unit.len() + tail.len());
    doc.extend_from_slice(head.as_bytes());
    for _ in 0..times {
        doc.extend_from_slice(unit);
    }
    doc.extend_from_slice(tail.as_bytes());
    doc
}

/// What checking one document cost.
struct Cost {
    peak: usize,
    allocated: usize,
    allocations: usize,
    work: [u64; work::ALL.len()],
    listed: usize,
    /// More findings than the file lists ([`MAX_LISTED`]), silenced, held back or counted: the file may
    /// have been checked a second time, with its directives known.
    overflowed: bool,
    seconds: f64,
}

/// What checking `doc` cost; `None` when it is binary (skipped, as a run skips it).
fn cost(format: Format, doc: &[u8]) -> Option<Cost> {
    let calls = allocations();
    let started = std::time::Instant::now();
    let ((peak, allocated), (outcome, work)) = cost_of(|| {
        work::measure_all(|| check_text_and_report(name_of(format), format, doc.to_vec()))
    });
    let outcome = outcome?;
    Some(Cost {
        peak,
        allocated,
        allocations: allocations() - calls,
        work,
        listed: outcome.diagnostics.len(),
        overflowed: outcome.diagnostics.len()
            + outcome.suppressed
            + outcome.baselined
            + outcome.unlisted.iter().map(|u| u.2).sum::<usize>()
            > MAX_LISTED,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The size N: 64 KB, times `HOSTILE_SHAPES_SCALE`.
fn size() -> usize {
    let scale = std::env::var("HOSTILE_SHAPES_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1usize);
    (64 << 10) * scale.max(1)
}

/// Checks one shape at N and 4N; what breaks a bound is added to `failed`.
fn check_shape(format: Format, head: &str, unit: &[u8], tail: &str, failed: &mut Vec<String>) {
    let n = size();
    let small = document(head, unit, tail, n);
    let large = document(head, unit, tail, 4 * n);
    let what = format!(
        "{:?} {:?}",
        format,
        String::from_utf8_lossy(&unit[..unit.len().min(48)])
    );
    let (Some(at_n), Some(at_4n)) = (cost(format, &small), cost(format, &large)) else {
        return; // binary
    };
    if std::env::var_os("HOSTILE_SHAPES_SCALE").is_some() {
        eprintln!(
            "{what}: {:.3} s / {:.3} s, peak {} / {} KB",
            at_n.seconds,
            at_4n.seconds,
            at_n.peak >> 10,
            at_4n.peak >> 10
        );
    }
    // Within the bound: twice the text (which an undecodable byte, U+FFFD, makes three times
    // the file where it is).
    let text = |doc: &[u8]| String::from_utf8_lossy(doc).len().max(doc.len());
    let (text_n, text_4n) = (text(&small), text(&large));
    if at_4n.peak > 2 * text_4n + allowance(format) {
        failed.push(format!(
            "{what}: peak {} KB for {} KB",
            at_4n.peak >> 10,
            large.len() >> 10
        ));
    }
    // About four times as much at the peak, never sixteen.
    if at_4n.peak > 5 * at_n.peak + (512 << 10) {
        failed.push(format!(
            "{what}: peak {} KB at {} KB, {} KB at {} KB",
            at_n.peak >> 10,
            small.len() >> 10,
            at_4n.peak >> 10,
            large.len() >> 10,
        ));
    }
    // Past the chunks' and parts' sizes: at most two bytes more per byte more, beside the
    // findings listed.
    let grown = large.len() - small.len();
    let grown_text = text_4n - text_n;
    let findings = at_4n.listed.saturating_sub(at_n.listed) * PER_FINDING;
    if n >= 1 << 20
        && format != Format::Markdown
        && at_4n.peak.saturating_sub(at_n.peak) > 2 * grown_text + findings + (256 << 10)
    {
        failed.push(format!(
            "{what}: {:.1} bytes more at the peak per byte more ({} and {} findings listed)",
            at_4n.peak.saturating_sub(at_n.peak) as f64 / grown as f64,
            at_n.listed,
            at_4n.listed
        ));
    }
    // Work about four times as much; a file past its listing limit may be checked twice. And
    // one pass over the larger document besides: a count that starts only past a size (where a
    // reStructuredText part ends is looked for only in a document of more than one part of
    // 64 KB) is none at N and a pass at 4N, where a quadratic term is many.
    let most = if at_4n.overflowed && !at_n.overflowed {
        12
    } else {
        6
    };
    let pass = large.len() as u64;
    let mut linear = |kind: &str, a: u64, b: u64| {
        if b > most * a + pass + 1000 {
            failed.push(format!("{what}: {kind}: {a} at N, {b} at 4N"));
        }
    };
    linear(
        "bytes allocated",
        at_n.allocated as u64,
        at_4n.allocated as u64,
    );
    linear(
        "allocations",
        at_n.allocations as u64,
        at_4n.allocations as u64,
    );
    for (i, kind) in work::ALL.iter().enumerate() {
        linear(&format!("{kind:?}"), at_n.work[i], at_4n.work[i]);
    }
}

/// A unit of one to four pieces: hostile markup of any format, or a few random bytes.
fn unit() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        6 => proptest::sample::select(hostile::PIECES).prop_map(|s| s.as_bytes().to_vec()),
        2 => proptest::sample::select(SHAPES).prop_map(|s| s.2.to_vec()),
        1 => proptest::collection::vec(any::<u8>(), 1..6),
    ];
    proptest::collection::vec(piece, 1..5).prop_map(|parts| parts.concat())
}

#[test]
fn hostile_documents_of_every_shape_cost_memory_and_work_in_proportion() {
    let mut failed = Vec::new();
    for &(format, head, unit, tail) in SHAPES {
        check_shape(format, head, unit, tail, &mut failed);
    }
    // And units drawn from the pieces, in every format. The same cases every run (a failure is
    // a finding to fix, not luck of the draw).
    let mut runner = common::same_cases_every_run(60);
    let failures = std::cell::RefCell::new(Vec::new());
    runner
        .run(
            &(proptest::sample::select(&Format::ALL[..]), unit()),
            |(format, unit)| {
                let mut found = Vec::new();
                check_shape(format, "", &unit, "\n", &mut found);
                failures.borrow_mut().extend(found);
                Ok(())
            },
        )
        .unwrap();
    failed.extend(failures.into_inner());
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
