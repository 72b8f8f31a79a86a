#!/usr/bin/env python3
"""Builds the package fixtures of fixtures/packages/ from parts written here (no downloaded
document): each holds findings at known places, checked by hand against the reports that
tests/packages.rs expects. Deterministic (fixed timestamps), so that a rebuild changes nothing:

    python3 scripts/make-package-fixtures.py

The hostile shapes (a zip bomb, thousands of entries, an encrypted part) are built by the tests
themselves, not committed: every package here is read, and each has its `*.expected.json`, the
report tests/cli.rs compares it with (`IRILINT_BLESS=1` rewrites them; review the diff).

`--book OUT.epub` also builds a real EPUB of the project's book (docs/src, in SUMMARY.md's
order) with pandoc, when it is installed (not committed: pandoc writes a new identifier and date
each time):

    python3 scripts/make-package-fixtures.py --book /tmp/irilint-book.epub
"""

import pathlib
import re
import shutil
import subprocess
import sys
import zipfile

OUT = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "packages"
WHEN = (2024, 1, 1, 0, 0, 0)


def entry(z, name, data, stored=False):
    info = zipfile.ZipInfo(name, date_time=WHEN)
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    z.writestr(info, data)


CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
"""

OPF = """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:0c2a3b9e-4f5d-4e8a-9b7c-1d2e3f4a5b6c</dc:identifier>
    <dc:title>irilint fixture</dc:title>
    <dc:language>en</dc:language>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="ch1" href="ch1.xhtml" media-type="application/xhtml+xml"/>
    <item id="ch2" href="ch2.html" media-type="text/html"/>
    <item id="css" href="style.css" media-type="text/css"/>
  </manifest>
  <spine><itemref idref="ch1"/><itemref idref="ch2"/></spine>
</package>
"""

NAV = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>Contents</title></head>
<body>
<nav epub:type="toc"><ol>
  <li><a href="ch1.xhtml">One</a></li>
  <li><a href="ch2.html">Two</a></li>
</ol></nav>
</body>
</html>
"""

# Line 6, column 33: U+202E after `https://example.org/` (bidi-formatting-character).
CH1 = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml">
<head><title>One</title></head>
<body>
<p>A plain link: <a href="https://example.org/docs/">example.org</a>.</p>
<p><a href="https://example.org/\u202egnp.exe">download</a></p>
</body>
</html>
"""

# Line 4, column 21: the host of a link whose shown text names another site (link-text-mismatch).
CH2 = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Two</title></head>
<body>
<p><a href="https://evil.example.net/login">https://bank.example.com/login</a></p>
</body></html>
"""

# Not read (CSS is left out): no finding here although it holds U+202E.
CSS = "a { background: url(https://example.org/\u202e.png) }\n"


def epub(path, extra=()):
    with zipfile.ZipFile(path, "w") as z:
        # First and stored, as EPUB asks: what sniffing reads.
        entry(z, "mimetype", "application/epub+zip", stored=True)
        entry(z, "META-INF/container.xml", CONTAINER)
        entry(z, "OEBPS/content.opf", OPF)
        entry(z, "OEBPS/nav.xhtml", NAV)
        entry(z, "OEBPS/ch1.xhtml", CH1)
        entry(z, "OEBPS/ch2.html", CH2)
        entry(z, "OEBPS/style.css", CSS)
        for name, data in extra:
            entry(z, name, data)


ODF_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink"'
)

# Line 5, column 64: U+0456 (CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I) for the `i` of a
# `text:a`'s host (the IRI starts at column 49). Line 6, column 70: a raw space in a `draw:a`
# around a frame. Line 8, column 78: U+202E in a URL written as text (which starts at column 26),
# in the span it is cut into. Line 9, column 57: the host of a link (which starts
# at column 49) whose text shows another site (link-text-mismatch); the text is read as a URL
# too, and is clean.
CONTENT = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-content {ODF_NS} office:version="1.3">
<office:body><office:text>
<text:p>A plain link: <text:a xlink:type="simple" xlink:href="https://example.org/">example</text:a>.</text:p>
<text:p><text:a xlink:type="simple" xlink:href="https://paypal-іnfo.example.com/">pay</text:a></text:p>
<text:p><draw:a xlink:type="simple" xlink:href="https://example.org/a b" office:target-frame-name="_blank">
<draw:frame draw:name="logo"/></draw:a></text:p>
<text:p>Written as text: https://example.org/<text:span text:style-name="T1">‮fdp.exe</text:span> in OpenDocument.</text:p>
<text:p><text:a xlink:type="simple" xlink:href="https://evil.example.net/login">https://<text:span text:style-name="T1">bank.example.com</text:span>/login</text:a></text:p>
</office:text></office:body>
</office:document-content>
"""

# Line 4, column 49: U+200B (ZERO WIDTH SPACE) in a footer's link (which starts at column 29).
STYLES = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-styles {ODF_NS} office:version="1.3">
<office:master-styles><style:master-page style:name="Standard"><style:footer>
<text:p><text:a xlink:href="https://example.org/​footer">site</text:a></text:p>
</style:footer></style:master-page></office:master-styles>
</office:document-styles>
"""

# Not read: no finding here although it holds U+202E.
META = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-meta {ODF_NS}><office:meta><meta:x xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xlink:href="https://example.org/‮"/></office:meta></office:document-meta>
"""

MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
 <manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>
 <manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
"""


def odt(path):
    with zipfile.ZipFile(path, "w") as z:
        entry(z, "mimetype", "application/vnd.oasis.opendocument.text", stored=True)
        entry(z, "content.xml", CONTENT)
        entry(z, "styles.xml", STYLES)
        entry(z, "meta.xml", META)
        entry(z, "META-INF/manifest.xml", MANIFEST)


W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
HYPERLINK_TYPE = R + "/hyperlink"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"

TYPES_DOCX = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>
"""

ROOT_RELS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="{RELS}">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>
"""

# Line 3, column 126: the host of an external hyperlink (its target starts at column 118) whose
# runs, in word/document.xml, show another site (link-text-mismatch). Line 4: an internal
# relationship (a part of the package): not read. Line 5, column 145: a raw space.
DOCUMENT_RELS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="{RELS}">
<Relationship Id="rId5" Type="{HYPERLINK_TYPE}" Target="https://evil.example.net/login" TargetMode="External"/>
<Relationship Id="rId6" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
<Relationship Id="rId7" Type="{HYPERLINK_TYPE}" Target="https://example.org/a&amp;b c" TargetMode="External"/>
</Relationships>
"""

# Line 3: the hyperlink's runs (its target is rId5 above), column 41. Line 4, column 122: U+202E
# in a field code `HYPERLINK "…"` (written as `&#x202E;`, underlined whole; the IRI starts at
# column 102). Line 5, column 74: U+200B in a URL written as text (which starts at column 54).
# Line 6: a URL cut into two runs by a spelling mark, the second run's `ра` Cyrillic (U+0440,
# U+0430, columns 152-153): one IRI, `https://www.payраl.com/signin`, from column 63 to the end
# of the second run.
DOCUMENT = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="{W}" xmlns:r="{R}"><w:body>
<w:p><w:hyperlink r:id="rId5"><w:r><w:t>https://bank.example.com/login</w:t></w:r></w:hyperlink></w:p>
<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "https://example.org/&#x202E;gnp.exe" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Written as text: https://example.org/​page and more.</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Split by a spelling mark: https://www.pay</w:t></w:r><w:proofErr w:type="spellStart"/><w:r w:rsidR="00A1B2C3"><w:t>раl.com/signin</w:t></w:r></w:p>
</w:body></w:document>
"""

TYPES_PPTX = TYPES_DOCX.replace("/word/document.xml", "/ppt/slides/slide1.xml")
A = "http://schemas.openxmlformats.org/drawingml/2006/main"

# Line 3, column 139: a raw space in an external hyperlink's target (which starts at column 118);
# its host, column 126, is not the site its run shows (link-text-mismatch).
SLIDE_RELS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="{RELS}">
<Relationship Id="rId2" Type="{HYPERLINK_TYPE}" Target="https://example.org/a b" TargetMode="External"/>
</Relationships>
"""

# Line 3, column 89: U+0456 for the `i` of a host written as text in a text box (the IRI starts at
# column 74), the text of the run that links to rId2.
SLIDE = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="{A}" xmlns:r="{R}"><p:cSld><p:spTree>
<p:sp><p:txBody><a:p><a:r><a:rPr><a:hlinkClick r:id="rId2"/></a:rPr><a:t>https://paypal-іnfo.example.com/</a:t></a:r></a:p></p:txBody></p:sp>
</p:spTree></p:cSld></p:sld>
"""

TYPES_XLSX = TYPES_DOCX.replace("/word/document.xml", "/xl/sharedStrings.xml")

# Line 3, column 28: U+202E in a shared string (which starts at column 8). Line 4: a string of
# two runs (the second bold), one URL: U+200B at column 70 (the URL starts at column 11).
SHARED_STRINGS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="3" uniqueCount="3">
<si><t>https://example.org/‮exe.pdf</t></si>
<si><r><t>https://docs.</t></r><r><rPr><b/></rPr><t>example.org/guide&#x200B;.pdf</t></r></si>
<si><t>https://bank.example.com/</t></si>
</sst>
"""

# A worksheet is not read for itself: its cells show its hyperlinks' text. A1 shows shared
# string 2, `https://bank.example.com/`; B1 shows its own string.
SHEET = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="{R}">
<sheetData><row r="1"><c r="A1" t="s"><v>2</v></c><c r="B1" t="inlineStr"><is><t>docs</t></is></c></row></sheetData>
<hyperlinks><hyperlink ref="A1" r:id="rId1"/><hyperlink ref="B1" r:id="rId2"/></hyperlinks>
</worksheet>
"""

# Line 3, column 126: the host of A1's hyperlink (its target starts at column 118), whose cell
# shows another site (link-text-mismatch). Line 4: B1's, which shows a word: quiet.
SHEET_RELS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="{RELS}">
<Relationship Id="rId1" Type="{HYPERLINK_TYPE}" Target="https://evil.example.net/login" TargetMode="External"/>
<Relationship Id="rId2" Type="{HYPERLINK_TYPE}" Target="https://docs.example.org/" TargetMode="External"/>
</Relationships>
"""


def office(path, types, parts):
    with zipfile.ZipFile(path, "w") as z:
        # First, as Office writes it: what sniffing reads.
        entry(z, "[Content_Types].xml", types)
        entry(z, "_rels/.rels", ROOT_RELS)
        for name, data in parts:
            entry(z, name, data)


def patched(path, pairs):
    """Replaces bytes in the whole file (names in both headers), lengths kept."""
    data = path.read_bytes()
    for old, new in pairs:
        assert len(old) == len(new) and old in data
        data = data.replace(old, new)
    path.write_bytes(data)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    epub(OUT / "book.epub")
    # Entry names that are not paths to follow: `..`, absolute, a NUL, bytes that are not
    # UTF-8. Each is only a label; the parts are read all the same.
    bad = OUT / "bad-names.epub"
    link = '<html><body><a href="https://example.org/\u202e">x</a></body></html>\n'
    epub(bad, [("../../escape.xhtml", link), ("/abs/olute.xhtml", link),
               ("nulZ.xhtml", link), ("latinQ.xhtml", link)])
    patched(bad, [(b"nulZ.xhtml", b"nul\0.xhtml"), (b"latinQ.xhtml", b"latin\xff.xhtml")])
    odt(OUT / "letter.odt")
    office(OUT / "report.docx", TYPES_DOCX, [
        ("word/document.xml", DOCUMENT),
        ("word/_rels/document.xml.rels", DOCUMENT_RELS),
    ])
    office(OUT / "slides.pptx", TYPES_PPTX, [
        ("ppt/slides/slide1.xml", SLIDE),
        ("ppt/slides/_rels/slide1.xml.rels", SLIDE_RELS),
    ])
    office(OUT / "sheet.xlsx", TYPES_XLSX, [
        ("xl/sharedStrings.xml", SHARED_STRINGS),
        ("xl/worksheets/sheet1.xml", SHEET),
        ("xl/worksheets/_rels/sheet1.xml.rels", SHEET_RELS),
    ])
    # Read by its content: an EPUB without its extension.
    (OUT / "book-without-extension.bin").write_bytes((OUT / "book.epub").read_bytes())


def book(out):
    """The project's book as an EPUB, by pandoc (GitHub-flavoured Markdown to EPUB 3)."""
    if shutil.which("pandoc") is None:
        sys.exit("pandoc is not installed (Debian: apt-get install pandoc)")
    src = OUT.parent.parent / "docs" / "src"
    summary = (src / "SUMMARY.md").read_text(encoding="utf-8")
    chapters = [str(src / m) for m in re.findall(r"\(([^)]+\.md)\)", summary)]
    subprocess.run(
        ["pandoc", "--metadata", "title=irilint", "-f", "gfm", "-t", "epub3", "-o", out, *chapters],
        check=True,
    )


if __name__ == "__main__":
    main()
    if len(sys.argv) == 3 and sys.argv[1] == "--book":
        book(sys.argv[2])
