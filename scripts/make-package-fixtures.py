#!/usr/bin/env python3
"""Builds the package fixtures of fixtures/packages/ from parts written here (no downloaded
document): each holds findings at known places, checked by hand against the reports that
tests/packages.rs expects. Deterministic (fixed timestamps), so that a rebuild changes nothing:

    python3 scripts/make-package-fixtures.py

The hostile shapes (a zip bomb, thousands of entries) are built by the tests themselves, not
committed.
"""

import pathlib
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
# around a frame. The URL written as text on line 8 is text, not a link: not read.
CONTENT = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-content {ODF_NS} office:version="1.3">
<office:body><office:text>
<text:p>A plain link: <text:a xlink:type="simple" xlink:href="https://example.org/">example</text:a>.</text:p>
<text:p><text:a xlink:type="simple" xlink:href="https://paypal-іnfo.example.com/">pay</text:a></text:p>
<text:p><draw:a xlink:type="simple" xlink:href="https://example.org/a b" office:target-frame-name="_blank">
<draw:frame draw:name="logo"/></draw:a></text:p>
<text:p>https://example.org/written/as/text is text, not a link, in OpenDocument.</text:p>
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
    # An encrypted part (the flag of traditional PKWARE encryption set): refused.
    enc = OUT / "encrypted.epub"
    epub(enc, [("OEBPS/secretZ.xhtml", link)])
    data = bytearray(enc.read_bytes())
    name = b"OEBPS/secretZ.xhtml"
    for at in [i for i in range(len(data)) if data.startswith(name, i)]:
        # Bit 0 of the flags: 6 bytes into a local header (its name at 30), 8 into a central
        # directory record (its name at 46).
        if data[at - 30 : at - 26] == b"PK\x03\x04":
            data[at - 30 + 6] |= 1
        if data[at - 46 : at - 42] == b"PK\x01\x02":
            data[at - 46 + 8] |= 1
    enc.write_bytes(bytes(data).replace(name, b"OEBPS/secret1.xhtml"))
    odt(OUT / "letter.odt")
    # Read by its content: an EPUB without its extension.
    (OUT / "book-without-extension.bin").write_bytes((OUT / "book.epub").read_bytes())


if __name__ == "__main__":
    main()
