//! Packages end to end: the fixtures of `fixtures/packages/` (built by
//! `scripts/make-package-fixtures.py`, their findings checked by hand) located inside the
//! package in every report, the baseline and `--fix`; and hostile packages (a zip bomb, many
//! entries, bad names, an encrypted part) refused or read quickly, with the rest of the run
//! kept.

mod common;

use std::io::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use common::cli::{irilint, run};
use common::packages::epub_zip;
use serde_json::Value;

const BOOK: &str = "fixtures/packages/book.epub";

/// What the book's two findings are, checked by hand against the script's parts: U+202E at
/// line 6, column 33 of `ch1.xhtml` (after `<p><a href="https://example.org/`), and the host of
/// `ch2.html`'s link at line 4, column 21, whose text names another site. The CSS part, which
/// holds U+202E too, is not read.
fn expected(path: &str) -> String {
    format!(
        "{path}!OEBPS/ch1.xhtml:6:33: error[bidi-formatting-character] IRI contains U+202E RIGHT-TO-LEFT OVERRIDE\n\
         {path}!OEBPS/ch2.html:4:21: warning[link-text-mismatch] the link's text shows `bank.example.com`, but the link opens `evil.example.net`\n"
    )
}

#[test]
fn an_epub_is_read_part_by_part_with_findings_located_inside_it() {
    let (code, out, err) = run(&["check", "--format", "concise", "--quiet", BOOK]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, expected(BOOK));
    // Read by its `mimetype` entry, whatever its name.
    let other = "fixtures/packages/book-without-extension.bin";
    let (code, out, _) = run(&["check", "--format", "concise", "--quiet", other]);
    assert_eq!(code, 1);
    assert_eq!(out, expected(other));
}

#[test]
fn an_opendocument_file_is_read_in_its_content_and_styles() {
    // Checked by hand against the script's parts: U+0456 for the `i` of a `text:a`'s host
    // (line 5, column 64), a raw space in a `draw:a` (line 6, column 70), U+202E in a URL
    // written as text, in the span it is cut into (line 8, column 78), a link whose text shows
    // another site (line 9, column 57), U+200B in a footer's link of `styles.xml` (line 4,
    // column 49). `meta.xml`, which holds U+202E, is not read.
    let odt = "fixtures/packages/letter.odt";
    let (code, out, err) = run(&["check", "--format", "concise", "--quiet", odt]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let expected = [
        "!content.xml:5:64: error[confusable] U+0456",
        "!content.xml:6:70: warning[syntax-unwise-ascii]",
        "!content.xml:8:78: error[bidi-formatting-character]",
        "!content.xml:9:57: warning[link-text-mismatch] the link's text shows `bank.example.com`, but the link opens `evil.example.net`",
        "!styles.xml:4:49: error[invisible-character]",
    ];
    assert_eq!(lines.len(), expected.len(), "{out}");
    for (line, want) in lines.iter().zip(expected) {
        assert!(
            line.starts_with(&format!("{odt}{want}")),
            "{line}\nwanted {want}"
        );
    }
    // By its `mimetype` too, and by `--input-format`.
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("letter");
    std::fs::copy(odt, &bare).unwrap();
    let (code, out, _) = run(&[
        "check",
        "--format",
        "concise",
        "--quiet",
        bare.to_str().unwrap(),
    ]);
    assert_eq!((code, out.lines().count()), (1, 5), "{out}");
    let (_, out, _) = run(&[
        "check",
        "--format",
        "concise",
        "--quiet",
        "--input-format",
        "opendocument",
        bare.to_str().unwrap(),
    ]);
    assert_eq!(out.lines().count(), 5, "{out}");
}

#[test]
fn office_documents_are_read_in_their_relationships_field_codes_and_text() {
    // Checked by hand against the script's parts (columns counted in the XML as written).
    let expected = [
        (
            "fixtures/packages/report.docx",
            vec![
                "!word/_rels/document.xml.rels:3:126: warning[link-text-mismatch] the link's text shows `bank.example.com`, but the link opens `evil.example.net`",
                "!word/_rels/document.xml.rels:5:145: warning[syntax-unwise-ascii]",
                "!word/document.xml:4:122: error[bidi-formatting-character]",
                "!word/document.xml:5:74: error[invisible-character]",
                // A URL cut into two runs is one IRI: its host's Cyrillic `ра` is in the second.
                "!word/document.xml:6:75: error[lookalike-domain] the host name `pay\u{440}\u{430}l.com` looks like `paypal.com`",
            ],
        ),
        (
            "fixtures/packages/slides.pptx",
            vec![
                "!ppt/slides/_rels/slide1.xml.rels:3:126: warning[link-text-mismatch] the link's text shows `paypal-\u{456}nfo.example.com`, but the link opens `example.org`",
                "!ppt/slides/_rels/slide1.xml.rels:3:139: warning[syntax-unwise-ascii]",
                "!ppt/slides/slide1.xml:3:89: error[confusable] U+0456",
            ],
        ),
        (
            "fixtures/packages/sheet.xlsx",
            vec![
                "!xl/sharedStrings.xml:3:28: error[bidi-formatting-character]",
                // A rich-text string's two runs are one URL.
                "!xl/sharedStrings.xml:4:70: error[invisible-character] invisible character U+200B ZERO WIDTH SPACE in the path",
                // A1's hyperlink: its cell shows shared string 2, another site.
                "!xl/worksheets/_rels/sheet1.xml.rels:3:126: warning[link-text-mismatch] the link's text shows `bank.example.com`, but the link opens `evil.example.net`",
            ],
        ),
    ];
    for (path, lines) in expected {
        let (code, out, err) = run(&["check", "--format", "concise", "--quiet", path]);
        assert_eq!(code, 1, "{err}");
        let got: Vec<&str> = out.lines().collect();
        assert_eq!(got.len(), lines.len(), "{out}");
        for (got, want) in got.iter().zip(&lines) {
            assert!(
                got.starts_with(&format!("{path}{want}")),
                "{got}\nwanted {want}"
            );
        }
    }
    // The field code and the hyperlink target are listed with their origins; the internal
    // relationship (styles.xml) is not an IRI of the document.
    let (_, out, _) = run(&["list", "fixtures/packages/report.docx"]);
    assert!(
        out.contains("document.xml:4:102: https://example.org/⟨U+202E⟩gnp.exe (HYPERLINK)"),
        "{out}"
    );
    assert!(
        out.contains(
            "document.xml.rels:3:118: https://evil.example.net/login (Relationship@Target)"
        ),
        "{out}"
    );
    assert!(!out.contains("styles.xml"), "{out}");
    // By `[Content_Types].xml`, the first entry, whatever the name.
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("report.bin");
    std::fs::copy("fixtures/packages/report.docx", &bare).unwrap();
    let (code, out, _) = run(&[
        "check",
        "--format",
        "concise",
        "--quiet",
        bare.to_str().unwrap(),
    ]);
    assert_eq!((code, out.lines().count()), (1, 5), "{out}");
}

#[test]
fn an_epub_is_found_in_a_directory_and_listed() {
    let (_, out, _) = run(&[
        "check",
        "--format",
        "concise",
        "--quiet",
        "fixtures/packages",
    ]);
    assert!(out.contains(&expected(BOOK)), "{out}");
    let (code, out, err) = run(&["list", BOOK]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!(
            "{BOOK}!OEBPS/content.opf:2:17: http://www.idpf.org/2007/opf (xmlns)"
        )),
        "{out}"
    );
    assert!(out.contains(&format!("{BOOK}!OEBPS/nav.xhtml:")), "{out}");
    assert!(!out.contains("!OEBPS/style.css"), "CSS is not read: {out}");
}

#[test]
fn the_part_is_the_path_in_json_sarif_and_the_baseline() {
    let out = irilint()
        .args(["check", "--format", "json", BOOK])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &report["diagnostics"][0];
    assert_eq!(d["path"], format!("{BOOK}!OEBPS/ch1.xhtml"));
    assert_eq!(d["span"]["start"]["line"], 6);
    assert_eq!(d["span"]["start"]["column"], 33);
    let out = irilint()
        .args(["check", "--format", "sarif", BOOK])
        .output()
        .unwrap();
    let sarif = String::from_utf8(out.stdout).unwrap();
    assert!(sarif.contains("book.epub!OEBPS/ch1.xhtml"), "{sarif}");
    // A baseline written from the package holds its findings back.
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.json");
    let baseline = baseline.to_str().unwrap();
    let (code, _, err) = run(&["check", "--write-baseline", baseline, BOOK]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(baseline).unwrap();
    assert!(written.contains("book.epub!OEBPS/ch2.html"), "{written}");
    let (code, out, err) = run(&["check", "--format", "concise", "--baseline", baseline, BOOK]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn fix_does_not_write_into_a_package_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("book.epub");
    std::fs::copy(BOOK, &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let copy = copy.to_str().unwrap();
    for mode in ["--fix", "--diff"] {
        let (code, out, err) = run(&["check", mode, "--unsafe-fixes", copy]);
        assert_ne!(code, 2, "{err}");
        assert!(
            err.contains("does not write into packages"),
            "{mode}: {err}"
        );
        assert!(!out.contains("+++"), "no patch of a part: {out}");
    }
    assert_eq!(std::fs::read(copy).unwrap(), before);
}

#[test]
fn entry_names_are_labels_only() {
    let (code, out, _) = run(&[
        "check",
        "--format",
        "concise",
        "--quiet",
        "fixtures/packages/bad-names.epub",
    ]);
    assert_eq!(code, 1);
    for label in [
        "!../../escape.xhtml:1:42:",
        "!/abs/olute.xhtml:1:42:",
        "!nul\\x00.xhtml:1:42:",
        "!latin\\xFF.xhtml:1:42:",
    ] {
        assert!(out.contains(label), "{label} in {out}");
    }
}

#[test]
fn an_encrypted_part_refuses_the_package_and_the_rest_is_read() {
    // The flag of traditional PKWARE encryption set on a part, in its local header (6 bytes in,
    // its name at 30) and its central directory record (8 bytes in, its name at 46).
    let name = b"OEBPS/secret1.xhtml";
    let mut bytes = epub_zip([(
        String::from_utf8(name.to_vec()).unwrap(),
        b"<a href=\"https://example.org/\">x</a>".to_vec(),
    )]);
    let at: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i..].starts_with(name))
        .collect();
    for i in at {
        if i >= 30 && bytes[i - 30..].starts_with(b"PK\x03\x04") {
            bytes[i - 30 + 6] |= 1;
        }
        if i >= 46 && bytes[i - 46..].starts_with(b"PK\x01\x02") {
            bytes[i - 46 + 8] |= 1;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let encrypted = dir.path().join("encrypted.epub");
    std::fs::write(&encrypted, bytes).unwrap();
    let (code, out, err) = run(&[
        "check",
        "--format",
        "concise",
        "--quiet",
        encrypted.to_str().unwrap(),
        BOOK,
    ]);
    assert_eq!(code, 2, "a refused package fails the run");
    assert!(
        err.contains("encrypted.epub: refused: its part `OEBPS/secret1.xhtml` is encrypted"),
        "{err}"
    );
    assert_eq!(out, expected(BOOK), "nothing else is lost");
}

fn timed(args: &[&str]) -> (i32, String, String, Duration) {
    let start = Instant::now();
    let (code, out, err) = run(args);
    (code, out, err, start.elapsed())
}

#[test]
fn a_zip_bomb_is_refused_quickly() {
    let dir = tempfile::tempdir().unwrap();
    // 64 MB of spaces deflate to about 64 KB: past both the part bound ((file + 50 MB) / 2)
    // and the ratio.
    let bomb = dir.path().join("bomb.epub");
    let mut spaces = b"<html><body>".to_vec();
    spaces.resize(64 << 20, b' ');
    std::fs::write(&bomb, epub_zip([("OEBPS/a.xhtml".to_string(), spaces)])).unwrap();
    let (code, _, err, took) = timed(&["check", "--quiet", bomb.to_str().unwrap(), BOOK]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("bomb.epub: refused:") && err.contains("zip bomb"),
        "{err}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    // A part of 8 MB of spaces, 8 KB compressed: within the part bound, past the ratio.
    // Then the same part saying it is 8 bytes: what is read is bounded, not what is said.
    let ratio = dir.path().join("ratio.epub");
    let mut spaces = b"<html><body>".to_vec();
    spaces.resize(8 << 20, b' ');
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    z.start_file("a.xhtml", deflated).unwrap();
    z.write_all(&spaces).unwrap();
    let mut bytes = z.finish().unwrap().into_inner();
    std::fs::write(&ratio, &bytes).unwrap();
    let (code, _, err) = run(&["check", "--quiet", ratio.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("ratio.epub: refused: its part `a.xhtml` decompresses to more than 200 times"),
        "{err}"
    );
    let lie = 8u32.to_le_bytes();
    let local = 0; // the only entry's local header, its uncompressed size at 22
    bytes[local + 22..local + 26].copy_from_slice(&lie);
    let central = bytes
        .windows(4)
        .rposition(|w| w == b"PK\x01\x02")
        .expect("a central directory record");
    bytes[central + 24..central + 28].copy_from_slice(&lie);
    std::fs::write(&ratio, bytes).unwrap();
    let (code, _, err) = run(&["check", "--quiet", ratio.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("its part `a.xhtml`: File is larger than its declared uncompressed size"),
        "{err}"
    );
}

#[test]
fn ten_thousand_tiny_entries_are_read_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let many = dir.path().join("many.epub");
    let entries = (0..10_000).map(|i| {
        (
            format!("OEBPS/p{i}.xhtml"),
            format!("<a href=\"https://example.org/{i}\">x</a>").into_bytes(),
        )
    });
    std::fs::write(&many, epub_zip(entries)).unwrap();
    let (code, out, err, took) =
        timed(&["check", "--quiet", "--statistics", many.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    let (_, out, _) = run(&["list", many.to_str().unwrap()]);
    assert_eq!(out.lines().count(), 10_000);
}

#[test]
fn a_broken_package_is_an_error_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.epub");
    let whole = std::fs::read(BOOK).unwrap();
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let (code, out, err) = run(&[
        "check",
        "--format",
        "concise",
        "--quiet",
        cut.to_str().unwrap(),
        BOOK,
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cut.epub: not a readable epub package"),
        "{err}"
    );
    assert_eq!(out, expected(BOOK));
    assert!(Path::new(BOOK).exists());
}

#[test]
fn a_package_inside_a_package_is_said_and_not_opened() {
    // An EPUB carrying a Word document (as an Office file carries a chart's workbook): the
    // EPUB's own part is read, the inner document is named as skipped, in every report.
    let inner = std::fs::read("fixtures/packages/report.docx").unwrap();
    let outer = epub_zip([
        (
            "OEBPS/ch1.xhtml".to_string(),
            b"<p><a href=\"https://example.org/\xe2\x80\xae\">x</a></p>".to_vec(),
        ),
        ("OEBPS/attachments/report.docx".to_string(), inner),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("outer.epub");
    std::fs::write(&path, outer).unwrap();
    let p = path.to_str().unwrap();
    let (code, out, err) = run(&["check", "--format", "concise", "--quiet", p]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.lines().count(), 1, "only the EPUB's own part: {out}");
    assert!(out.contains("outer.epub!OEBPS/ch1.xhtml:1:"), "{out}");
    assert!(
        err.contains(
            "outer.epub!OEBPS/attachments/report.docx: skipped: a package inside a package is not opened"
        ),
        "{err}"
    );
    let (_, out, _) = run(&["check", "--format", "github", p]);
    assert!(
        out.contains("::notice file=")
            && out.contains("report.docx,title=irilint::skipped: a package inside a package"),
        "{out}"
    );
    let (_, out, _) = run(&["check", "--format", "sarif", p]);
    let sarif: Value = serde_json::from_str(&out).unwrap();
    let notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        notes.iter().any(|n| n["level"] == "note"
            && n["message"]["text"]
                .as_str()
                .is_some_and(|t| t.contains("a package inside a package"))),
        "{out}"
    );
}

#[test]
fn every_text_a_link_target_is_shown_with_is_compared() {
    // Two links to one target, one showing harmless words, the other another site: the
    // harmless one does not hide the other (a map of one text per target kept only the last).
    let content = "<office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"><office:body><office:text>\n\
        <text:p><text:a xlink:href=\"https://evil.example.net/\">click here</text:a></text:p>\n\
        <text:p><text:a xlink:href=\"https://evil.example.net/\">https://bank.example.com/</text:a></text:p>\n\
        </office:text></office:body></office:document-content>\n";
    let odt = common::packages::zip_with(
        b"mimetype",
        b"application/vnd.oasis.opendocument.text",
        [("content.xml".to_string(), content.as_bytes().to_vec())],
    );
    let rels = "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">\n\
        <Relationship Id=\"rId1\" Type=\"h\" Target=\"https://evil.example.net/\" TargetMode=\"External\"/>\n\
        <Relationship Id=\"rId2\" Type=\"h\" Target=\"https://evil.example.net/\" TargetMode=\"External\"/>\n\
        </Relationships>\n";
    let document = "<w:document xmlns:w=\"w\" xmlns:r=\"r\"><w:body>\n\
        <w:p><w:hyperlink r:id=\"rId1\"><w:r><w:t>https://bank.example.com/</w:t></w:r></w:hyperlink></w:p>\n\
        <w:p><w:hyperlink r:id=\"rId2\"><w:r><w:t>click here</w:t></w:r></w:hyperlink></w:p>\n\
        </w:body></w:document>\n";
    let docx = common::packages::zip_with(
        b"[Content_Types].xml",
        b"<Types/>",
        [
            (
                "word/document.xml".to_string(),
                document.as_bytes().to_vec(),
            ),
            (
                "word/_rels/document.xml.rels".to_string(),
                rels.as_bytes().to_vec(),
            ),
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [("two.odt", odt), ("two.docx", docx)] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let (_, out, err) = run(&[
            "check",
            "--format",
            "concise",
            "--quiet",
            path.to_str().unwrap(),
        ]);
        let mismatches: Vec<&str> = out
            .lines()
            .filter(|l| l.contains("link-text-mismatch"))
            .collect();
        assert!(
            !mismatches.is_empty()
                && mismatches.iter().all(|l| l.contains(
                    "the link's text shows `bank.example.com`, but the link opens `evil.example.net`"
                )),
            "{name}: {out}{err}"
        );
    }
}
