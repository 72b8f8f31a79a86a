//! Hostile packages of every shape cost memory and work in proportion to their size, as
//! `tests/hostile_shapes.rs` asks of documents: each shape (a unit of hostile markup repeated in
//! a part, or a part repeated in a package) is checked at two sizes, N and 4N, under a counting
//! allocator, through [`check::run`] as a file is read (the package opened, its parts read one
//! at a time):
//!
//! - the peak of live bytes is within twice the package file and 50 MB (the book's bound: a
//!   part is refused past half of it), and about four times as much at 4N, never sixteen;
//! - the bytes allocated and the allocations made are about four times as much at 4N, never
//!   sixteen.
//!
//! The shapes are those the package readers add to the documents' extractors: Office runs
//! joined into a paragraph, field instructions joined across runs, an Excel sheet read aside
//! for its hyperlinks' cells and the shared strings they use, OpenDocument spans and the texts
//! of many links to one target, packages inside a package, thousands of tiny parts.
//! `HOSTILE_SHAPES_SCALE=16 cargo test --release --test hostile_packages -- --nocapture` runs it
//! at 16 times the size and prints each shape's figures, time included.
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::{Counting, allocations, cost_of};
use common::packages::stored_zip_with as zip_with;
use common::run::run_file;
use irilint::rules::Selection;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What checking one package cost.
struct Cost {
    peak: usize,
    allocated: usize,
    allocations: usize,
    iris: usize,
    /// Errors of the run (a refused package).
    refused: usize,
    seconds: f64,
}

/// Checks `bytes` written as a file named `name`, as a run does.
fn cost(dir: &std::path::Path, name: &str, bytes: &[u8]) -> Cost {
    let selection = Selection::from_selectors(&["ALL"], &[], &["equivalent-variants"]).unwrap();
    let calls = allocations();
    let started = std::time::Instant::now();
    let ((peak, allocated), run) = cost_of(|| run_file(dir, name, bytes, &selection));
    Cost {
        peak,
        allocated,
        allocations: allocations() - calls,
        iris: run.files.iter().map(|f| f.iris).sum(),
        refused: run.errors.len(),
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// `head`, `unit` repeated to at least `size` bytes, `tail`.
fn repeated(head: &str, unit: &str, tail: &str, size: usize) -> Vec<u8> {
    let mut out = String::with_capacity(size + head.len() + tail.len() + unit.len());
    out.push_str(head);
    while out.len() < size + head.len() {
        out.push_str(unit);
    }
    out.push_str(tail);
    out.into_bytes()
}

const ODF: &[u8] = b"application/vnd.oasis.opendocument.text";
const ODF_HEAD: &str = "<office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"><office:body><office:text>";
const ODF_TAIL: &str = "</office:text></office:body></office:document-content>";
const SST_HEAD: &str = "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">";

/// A package of one kind, its parts built for a size.
type Build = fn(usize) -> (&'static str, Vec<u8>);

/// Each shape: its name and how to build it at a size (the bytes of its parts).
const SHAPES: &[(&str, Build)] = &[
    ("docx: a paragraph of runs of one letter", |n| {
        let doc = repeated(
            "<w:document><w:body><w:p><w:r><w:t>https://a.org/</w:t></w:r>",
            "<w:r><w:t>a</w:t></w:r>",
            "</w:p></w:body></w:document>",
            n,
        );
        ("t.docx", office("word/document.xml", doc))
    }),
    ("docx: a paragraph of runs that each start a URL", |n| {
        let doc = repeated(
            "<w:document><w:body><w:p>",
            "<w:r><w:t>http://a.</w:t></w:r><w:proofErr/><w:r><w:t>org/\u{202e} </w:t></w:r>",
            "</w:p></w:body></w:document>",
            n,
        );
        ("t.docx", office("word/document.xml", doc))
    }),
    ("docx: a field instruction of many runs", |n| {
        let doc = repeated(
            "<w:document><w:body><w:p><w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText> HYPERLINK \"https://a.org/</w:instrText></w:r>",
            "<w:r><w:instrText>a&amp;</w:instrText></w:r>",
            "</w:p></w:body></w:document>",
            n,
        );
        ("t.docx", office("word/document.xml", doc))
    }),
    ("docx: many unclosed text elements", |n| {
        let doc = repeated("<w:document><w:body><w:p>", "<w:t>http://a.org/x[", "", n);
        ("t.docx", office("word/document.xml", doc))
    }),
    ("docx: many hyperlinks to one target", |n| {
        let doc = repeated(
            "<w:document><w:body><w:p>",
            "<w:hyperlink r:id=\"rId1\"><w:r><w:t>https://bank.example.com/</w:t></w:r></w:hyperlink>",
            "</w:p></w:body></w:document>",
            n,
        );
        let rels = "<Relationships><Relationship Id=\"rId1\" Target=\"https://evil.example.net/\" TargetMode=\"External\"/></Relationships>";
        let bytes = zip_with(
            b"[Content_Types].xml",
            b"<Types/>",
            [
                ("word/document.xml".to_string(), doc),
                (
                    "word/_rels/document.xml.rels".to_string(),
                    rels.as_bytes().to_vec(),
                ),
            ],
        );
        ("t.docx", bytes)
    }),
    (
        "xlsx: a sheet of linked cells and their shared strings",
        |n| {
            let count = n / 120;
            let mut sheet = String::from("<worksheet><sheetData><row r=\"1\">");
            let mut links = String::from("<hyperlinks>");
            let mut rels = String::from("<Relationships>");
            let mut sst = String::from(SST_HEAD);
            for i in 0..count {
                sheet.push_str(&format!("<c r=\"A{i}\" t=\"s\"><v>{i}</v></c>"));
                links.push_str(&format!("<hyperlink ref=\"A{i}\" r:id=\"r{i}\"/>"));
                rels.push_str(&format!(
                "<Relationship Id=\"r{i}\" Target=\"https://evil.example.net/{i}\" TargetMode=\"External\"/>"
            ));
                sst.push_str(&format!(
                    "<si><r><t>https://bank.</t></r><r><t>example.com/{i}</t></r></si>"
                ));
            }
            sheet.push_str("</row></sheetData>");
            sheet.push_str(&links);
            sheet.push_str("</hyperlinks></worksheet>");
            rels.push_str("</Relationships>");
            sst.push_str("</sst>");
            let bytes = zip_with(
                b"[Content_Types].xml",
                b"<Types/>",
                [
                    ("xl/sharedStrings.xml".to_string(), sst.into_bytes()),
                    ("xl/worksheets/sheet1.xml".to_string(), sheet.into_bytes()),
                    (
                        "xl/worksheets/_rels/sheet1.xml.rels".to_string(),
                        rels.into_bytes(),
                    ),
                ],
            );
            ("t.xlsx", bytes)
        },
    ),
    ("odt: a paragraph of spans", |n| {
        let content = repeated(
            &format!("{ODF_HEAD}<text:p>https://a.org/"),
            "<text:span>a</text:span>",
            &format!("</text:p>{ODF_TAIL}"),
            n,
        );
        let bytes = zip_with(b"mimetype", ODF, [("content.xml".to_string(), content)]);
        ("t.odt", bytes)
    }),
    ("odt: many links to one target", |n| {
        let content = repeated(
            &format!("{ODF_HEAD}<text:p>"),
            "<text:a xlink:href=\"https://evil.example.net/\">https://bank.example.com/</text:a>",
            &format!("</text:p>{ODF_TAIL}"),
            n,
        );
        let bytes = zip_with(b"mimetype", ODF, [("content.xml".to_string(), content)]);
        ("t.odt", bytes)
    }),
    ("odt: an unclosed link", |n| {
        let content = repeated(
            &format!("{ODF_HEAD}<text:p><text:a xlink:href=\"https://a.org/\">"),
            "<text:span>https://b.org/x[</text:span>",
            "",
            n,
        );
        let bytes = zip_with(b"mimetype", ODF, [("content.xml".to_string(), content)]);
        ("t.odt", bytes)
    }),
    ("epub: many tiny parts", |n| {
        let parts = (0..n / 400).map(|i| {
            (
                format!("OEBPS/c{i}.xhtml"),
                b"<p><a href=\"https://a.org/\xe2\x80\xae\">x</a></p>".to_vec(),
            )
        });
        (
            "t.epub",
            zip_with(b"mimetype", b"application/epub+zip", parts),
        )
    }),
    ("epub: many packages inside it", |n| {
        let parts = (0..n / 400).map(|i| (format!("OEBPS/inner{i}.epub"), b"PK".to_vec()));
        (
            "t.epub",
            zip_with(b"mimetype", b"application/epub+zip", parts),
        )
    }),
];

/// An Office package of one text part `name`.
fn office(name: &str, part: Vec<u8>) -> Vec<u8> {
    zip_with(
        b"[Content_Types].xml",
        b"<Types/>",
        [(name.to_string(), part)],
    )
}

/// The size N of a shape's parts: 256 KB, times `HOSTILE_SHAPES_SCALE`.
fn size() -> usize {
    let scale = std::env::var("HOSTILE_SHAPES_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1usize);
    (256 << 10) * scale.max(1)
}

#[test]
fn hostile_packages_of_every_shape_cost_memory_and_work_in_proportion() {
    let dir = tempfile::tempdir().unwrap();
    let n = size();
    let mut failed = Vec::new();
    for (what, build) in SHAPES {
        let (name, small) = build(n);
        let (_, large) = build(4 * n);
        let at_n = cost(dir.path(), name, &small);
        let at_4n = cost(dir.path(), name, &large);
        eprintln!(
            "{what}: {:.3} s / {:.3} s, peak {} / {} KB, {} / {} IRIs",
            at_n.seconds,
            at_4n.seconds,
            at_n.peak >> 10,
            at_4n.peak >> 10,
            at_n.iris,
            at_4n.iris
        );
        // Read, not refused as a bomb (the parts are stored).
        if at_n.refused + at_4n.refused > 0 {
            failed.push(format!("{what}: refused"));
        }
        if at_4n.peak > 2 * large.len() + (50 << 20) {
            failed.push(format!(
                "{what}: peak {} KB for a package of {} KB",
                at_4n.peak >> 10,
                large.len() >> 10
            ));
        }
        if at_4n.peak > 5 * at_n.peak + (512 << 10) {
            failed.push(format!(
                "{what}: peak {} KB at N, {} KB at 4N",
                at_n.peak >> 10,
                at_4n.peak >> 10
            ));
        }
        for (kind, a, b) in [
            ("bytes allocated", at_n.allocated, at_4n.allocated),
            ("allocations", at_n.allocations, at_4n.allocations),
        ] {
            if b > 6 * a + 4 * n + 1000 {
                failed.push(format!("{what}: {kind}: {a} at N, {b} at 4N"));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
