#!/usr/bin/env python3
"""Recall of hidden characters on the pinned repositories (issue W): in a temporary copy of each,
a U+200B ZERO WIDTH SPACE (and, in one link of every five, a U+202E RIGHT-TO-LEFT OVERRIDE) is
put into links sampled outside code and comments, irilint runs with its default settings, and
the share of injected characters it reports (invisible-character or bidi-formatting-character,
its span on the injected character) is printed per repository, with every miss.

The sampler does not ask irilint where links are; it finds them on its own, by format:
- Markdown and MDX: `http(s)://` in text and link destinations, outside fenced code blocks,
  indented code after a blank line, inline code spans, HTML comments, `<script>` and `<style>`
  elements (Vue's `<script setup>`), MDX import/export lines and `{/* … */}` comments;
- HTML, XML (and Mallard .page): `http(s)://` values of attributes other than namespace names
  (`xmlns`), outside comments, `<script>`, `<style>`, `<pre>`, `<code>`; in `.html` and `.htm`
  files also URLs written in the page's text (outside a tag; not in `<kbd>`, `<samp>`, `<tt>`,
  `<var>`, `<listing>`, `<template>`, `<textarea>`, `<title>`, `<svg>`, `<math>`; issue 44);
- reStructuredText: outside literal blocks (after `::`), code directives, comments and
  ``inline literals``;
- AsciiDoc: outside listing, literal, passthrough and comment blocks, literal (indented)
  paragraphs, comment lines and backquoted code;
- plain text: everywhere.
The character goes into the path (after its first `/` past the host), or the host if there is
no path. Files are sampled with a fixed seed, up to PER_FILE links each.

    python3 real-repos/recall.py target/release/irilint [NAME...]
"""
import json, os, random, re, subprocess, sys, tempfile

from harness import repos, unpack

PER_FILE = 8
ZWSP, RLO = "\u200b", "\u202e"
URL = re.compile(r"https?://[A-Za-z0-9.-]+(?::\d+)?(/[^\s\"'<>()\[\]{}`|\\^]*)?")
EXT = {
    ".md": "md", ".markdown": "md", ".mdx": "md",
    ".html": "html", ".htm": "html", ".xhtml": "xhtml", ".xml": "xml", ".page": "xml", ".svg": "xml",
    ".rss": "xml", ".atom": "xml",
    ".rst": "rst", ".rest": "rst",
    ".adoc": "adoc", ".asciidoc": "adoc", ".asc": "adoc",
    ".txt": "txt",
}


def spans(pattern, text, flags=re.S):
    return [m.span() for m in re.finditer(pattern, text, flags)]


def excluded(kind, text):
    """Byte-free (character) ranges of code and comments in `text`."""
    out = []
    # Template actions (`{{ $url := "https://…" }}`) are code.
    out += spans(r"\{\{.*?\}\}|\{%.*?%\}", text)
    if kind == "md":
        # Comment lines of YAML front matter.
        if text.startswith("---"):
            end = text.find("\n---", 3)
            out += [(a + 0, b) for a, b in spans(r"^\s*#.*$", text[:max(end, 0)], re.M)]
        out += spans(r"^( {0,3})(```|~~~).*?^\1\2[`~]*[ \t]*$", text, re.S | re.M)
        out += spans(r"<!--.*?-->", text)
        # MDX comments (React's docs: `{/* TODO - fixed by https://… */}`).
        out += spans(r"\{/\*.*?\*/\}", text)
        out += spans(r"(`+)(?!`).+?(?<!`)\1(?!`)", text)
        out += spans(r"^(import|export)\s.*$", text, re.M)
        # `[//]: # 'a comment'`: a reference definition used as a comment.
        out += spans(r"^\[//\]:.*$", text, re.M)
        out += spans(r"<(script|style)\b.*?</\1>", text, re.S | re.I)
        out += spans(r"(?:^[ \t]*\n)((?:(?: {4}|\t).*\n)+)", text, re.M)
    elif kind in ("html", "xhtml", "xml"):
        out += spans(r"<!--.*?-->", text)
        for tag in ("script", "style", "pre", "code", "programlisting", "screen"):
            out += spans(rf"<{tag}\b.*?</{tag}>", text, re.S | re.I)
        if kind == "html":
            for tag in ("kbd", "samp", "tt", "var", "listing", "template", "textarea", "title", "svg", "math"):
                out += spans(rf"<{tag}\b.*?</{tag}>", text, re.S | re.I)
    elif kind == "rst":
        out += spans(r"``.+?``", text)
        out += spans(r"^(\s*)\.\. (code-block|code|sourcecode|literalinclude|highlight|math)::.*?(?=^\1\S|\Z)", text, re.S | re.M)
        out += spans(r"::[ \t]*\n[ \t]*\n((?:[ \t]+.*\n|[ \t]*\n)+)", text)
        out += spans(r"^\.\.(?! _| \|| \w[\w-]*::).*?(?=^\S|\Z)", text, re.S | re.M)
    elif kind == "adoc":
        # Delimited blocks, line by line: a line of dashes under a title is its underline.
        at, open_, prev = 0, None, ""
        for line in text.split("\n"):
            t = line.rstrip()
            m = re.fullmatch(r"(-{4,}|\.{4,}|\+{4,}|/{4,}|```)", t)
            if m and open_ is None and not (t[0] == "-" and re.search(r"\w", prev) and abs(len(prev.strip()) - len(t)) <= 2):
                open_ = (t, at)
            elif m and open_ is not None and t == open_[0]:
                out.append((open_[1], at + len(line)))
                open_ = None
            prev = line
            at += len(line) + 1
        out += spans(r"^//(?!/).*$", text, re.M)
        # A literal paragraph: indented after a blank line, and not a list item.
        out += spans(r"(?:\A|\n[ \t]*\n)((?:[ \t]+(?![-*.]+[ \t]|\d+\.[ \t]|\S+::).*\n)+)", text)
        out += spans(r"`(?:[^`\n]|\n(?![ \t]*\n))+`", text)
        out += spans(r"\+\+\+.*?\+\+\+|pass:\[.*?\]", text)
    return out


def candidates(kind, text):
    """(start, end) of the links to inject into, character offsets."""
    bad = excluded(kind, text)
    found = []
    for m in URL.finditer(text):
        s, e = m.span()
        if any(a <= s < b for a, b in bad):
            continue
        # A URL glued to a word (`credential.https://…`, `url=https://…`) is no link.
        markup = kind in ("html", "xhtml", "xml")
        if s > 0 and (text[s - 1].isalnum() or text[s - 1] in "._-/=+"):
            if not (markup and text[s - 1] == "="):
                continue
        # The text of an HTML page: outside any tag (the last `<` before it closed).
        in_text = kind == "html" and text.rfind(">", 0, s) >= text.rfind("<", 0, s)
        # In markup, the values of URL attributes (not alt, title, data-*).
        if markup and not in_text and not re.search(
                r"(?<![\w-])(href|src|xlink:href|action|formaction|cite|poster|background|longdesc|data|manifest|url|resource|about)\s*=\s*[\"']?$",
                text[max(0, s - 40):s]):
            continue
        # A namespace name: a character there is found, but the elements in it change vocabulary
        # (Mallard's `link` is no longer Mallard's), which is no test of recall.
        if markup and re.search(r"xmlns(:[\w.-]+)?\s*=\s*[\"']?$", text[max(0, s - 40):s]):
            continue
        if kind == "adoc" and text[s - 1:s] == "\\":
            continue
        found.append((s, e, m.group(1)))
    return found


def run(binary, name, mirror, commit, under, work):
    dest = os.path.join(work, name)
    unpack(mirror, commit, under, dest)
    rng = random.Random(name)
    injected = {}  # path -> list of (byte offset, char, url)
    for root, dirs, files in os.walk(dest):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
        for f in sorted(files):
            kind = EXT.get(os.path.splitext(f)[1].lower())
            path = os.path.join(root, f)
            if not kind or os.path.islink(path):
                continue
            try:
                text = open(path, encoding="utf-8").read()
            except (UnicodeDecodeError, OSError):
                continue
            cands = candidates(kind, text)
            picked = sorted(rng.sample(cands, min(PER_FILE, len(cands))))
            if not picked:
                continue
            pieces, at, marks = [], 0, []
            for n, (s, e, path_part) in enumerate(picked):
                char = RLO if rng.random() < 0.2 else ZWSP
                url = text[s:e]
                # Into the path after its first `/`, or after the host's first character.
                k = s + url.index("/", url.index("//") + 2) + 1 if path_part and len(path_part) > 1 else s + url.index("//") + 3
                k = min(k, e)
                pieces.append(text[at:k])
                offset = len("".join(pieces).encode("utf-8"))
                pieces.append(char)
                marks.append((offset, char, url))
                at = k
            pieces.append(text[at:])
            open(path, "w", encoding="utf-8").write("".join(pieces))
            injected[os.path.relpath(path, dest)] = marks
    out = subprocess.run([binary, "check", "--format", "json", "--exit-zero", "."], cwd=dest, capture_output=True)
    report = json.loads(out.stdout)
    hits = {}
    for d in report["diagnostics"]:
        if d["rule"] not in ("invisible-character", "bidi-formatting-character"):
            continue
        places = [d["span"]] + [s for s in d.get("spans", [])]
        for s in places:
            hits.setdefault(os.path.normpath(d["path"]), set()).add(s["start"]["offset"])
    total = found = 0
    misses = []
    for path, marks in sorted(injected.items()):
        for offset, char, url in marks:
            total += 1
            if offset in hits.get(os.path.normpath(path), set()):
                found += 1
            else:
                misses.append((path, offset, char, url))
    return total, found, misses


def main():
    binary = os.path.abspath(sys.argv[1])
    only = set(sys.argv[2:])
    all_total = all_found = 0
    for name, mirror, commit, under in repos():
        if only and name not in only:
            continue
        # Unpacked, injected, checked and removed in turn (hundreds of MB each).
        with tempfile.TemporaryDirectory(prefix="irilint-recall-") as work:
            total, found, misses = run(binary, name, mirror, commit, under, work)
        all_total += total
        all_found += found
        share = 100.0 * found / total if total else 100.0
        print(f"{name}: {found}/{total} injected hidden characters found ({share:.1f}%)")
        for path, offset, char, url in misses:
            print(f"  miss\t{name}\t{path}\t{offset}\tU+{ord(char):04X}\t{url[:100]}")
    if all_total:
        print(f"all: {all_found}/{all_total} ({100.0 * all_found / all_total:.1f}%)")


main()
