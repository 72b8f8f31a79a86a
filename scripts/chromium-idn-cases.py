#!/usr/bin/env python3
"""Regenerates tests/data/chromium_idn_cases.tsv, the conformance suite of tests/chromium_spoof_suite.rs.

Source: the `kIdnCases` table of Chromium's IDN spoof-checker unit test,
components/url_formatter/spoof_checks/idn_spoof_checker_unittest.cc (BSD-3-Clause, "The Chromium
Authors"; the hosts are test data, reproduced as such). The copy read is that of Debian's source
package of Chromium; the header of the output names the package, its orig tarball's sha256 and
the file's sha256. Refresh:

    D=$(scripts/chromium-source.sh /tmp/chromium)
    python3 scripts/chromium-idn-cases.py $D/idn_spoof_checker_unittest.cc \
        $D/top_domains/idn_test_domains.list "$(cat /tmp/chromium/SOURCE)" \
        > tests/data/chromium_idn_cases.tsv

The test's top-domain list (top_domains/idn_test_domains.list, which the unit test puts in place
of the real one) goes into the header as `# test-domain:` lines: Chrome's verdicts on the
top-domain cases are against it, and the suite compares with it too.

How a case becomes a row:
- The host tested is Chromium's input (the ACE form) with every `xn--` label decoded by Python's
  Punycode codec, as Chrome decodes it before its checks: the table's Unicode column is not used
  for this, since Chromium rewrote `google.com` as `9oo91e.qjz9zk` in that column only. A label
  that does not decode is kept as written.
- The verdict: `unsafe` for `kUnsafe`, and for a `kSafe` case whose expected display keeps one of
  its `xn--` labels in Punycode (Chrome shows that label as Punycode: `googlе.한국` is expected as
  `xn--googl-3we.한국`); `safe` for the other `kSafe` cases; `invalid` for `kInvalid` (not a
  display verdict: the name is not valid IDNA, which `idn-invalid` reports).
- Platform branches: the Linux/ChromeOS one is kept (`#if BUILDFLAG(IS_LINUX) ...`); Apple-only
  cases (font problems of macOS) and the `#else` branch of the Linux one are dropped.
- Non-ASCII characters and ASCII controls are written as `\\u{XXXX}`, so that the file shows no
  invisible or bidi character; the test decodes them.

Columns: verdict, host, Chromium's ACE input, and the comment above the case in the source.
"""
import hashlib
import re
import sys


def unescape_cpp(s):
    """The value of a C++ u"..." literal body (\\uXXXX, \\UXXXXXXXX, \\x..., \\\\, \\")."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            n = s[i + 1]
            if n == "u":
                out.append(chr(int(s[i + 2 : i + 6], 16)))
                i += 6
                continue
            if n == "U":
                out.append(chr(int(s[i + 2 : i + 10], 16)))
                i += 10
                continue
            if n == "x":  # C++: every hex digit that follows belongs to the escape
                j = i + 2
                while j < len(s) and s[j] in "0123456789abcdefABCDEF":
                    j += 1
                out.append(chr(int(s[i + 2 : j], 16)))
                i = j
                continue
            out.append({"\\": "\\", '"': '"', "n": "\n", "t": "\t"}[n])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def escape(s):
    return "".join(
        c if " " <= c < "\x7f" and c != "\\" else "\\u{%04X}" % ord(c) for c in s
    )


def decode_label(label):
    if label[:4].lower() == "xn--":
        try:
            return label[4:].encode("ascii").decode("punycode")
        except Exception:
            return label
    return label


def table_lines(text):
    """The lines of kIdnCases, platform branches resolved for Linux."""
    start = text.index("const IDNTestCase kIdnCases[] = {")
    end = text.index("\n};", start)
    keep = []
    stack = []  # per open #if: whether its current branch is kept
    for line in text[start:end].splitlines()[1:]:
        s = line.strip()
        if s.startswith("#if"):
            stack.append("IS_LINUX" in s)
            continue
        if s.startswith("#else"):
            stack[-1] = not stack[-1]
            continue
        if s.startswith("#endif"):
            stack.pop()
            continue
        if all(stack):
            keep.append(line)
    return keep


CASE = re.compile(
    r'\{\s*((?:"(?:[^"\\]|\\.)*"\s*)+),\s*(nullptr|(?:u"(?:[^"\\]|\\.)*"\s*)+),\s*(kSafe|kUnsafe|kInvalid)\s*\}'
)
LITERAL = re.compile(r'u?"((?:[^"\\]|\\.)*)"')


def main():
    path, domains_path, source = sys.argv[1:4]
    domains_raw = open(domains_path, "rb").read()
    test_domains = [
        l.strip() for l in domains_raw.decode("utf-8").splitlines() if l.strip() and not l.startswith("#")
    ]
    raw = open(path, "rb").read()
    text = raw.decode("utf-8")
    # Cases with the comment lines above each (the comment of a run of cases is shared).
    rows = []
    comment = ""
    comment_done = True
    buf = ""
    for line in table_lines(text):
        s = line.strip()
        if not s:
            continue
        if not buf.strip() and s.startswith("//"):
            c = s[2:].strip()
            comment = c if not comment or comment_done else comment + " " + c
            comment_done = False
            continue
        comment_done = True
        code = re.sub(r"//.*$", "", line)  # trailing comments
        buf += " " + code
        for m in CASE.finditer(buf):
            ace = "".join(unescape_cpp(x) for x in LITERAL.findall(m.group(1)))
            shown = None
            if m.group(2) != "nullptr":
                shown = "".join(unescape_cpp(x) for x in LITERAL.findall(m.group(2)))
            rows.append((ace, shown, m.group(3), comment))
        if CASE.search(buf) or s.endswith("},"):
            buf = ""
    out = sys.stdout
    out.write("# Chromium's IDN spoof-checker unit-test cases (kIdnCases), GENERATED by\n")
    out.write("# scripts/chromium-idn-cases.py: do not edit by hand.\n")
    out.write(f"# source: {source}\n")
    out.write("# file: components/url_formatter/spoof_checks/idn_spoof_checker_unittest.cc\n")
    out.write(f"# sha256: {hashlib.sha256(raw).hexdigest()}\n")
    out.write("# licence: BSD-3-Clause (The Chromium Authors); platform branch: Linux\n")
    out.write(
        "# test domains: components/url_formatter/spoof_checks/top_domains/test_domains.list, sha256 "
        + hashlib.sha256(domains_raw).hexdigest()
        + "\n"
    )
    for d in test_domains:
        out.write(f"# test-domain: {escape(d)}\n")
    counts = {}
    lines = []
    for ace, shown, result, comment in rows:
        host = ".".join(decode_label(l) for l in ace.split("."))
        if result == "kUnsafe":
            verdict = "unsafe"
        elif result == "kInvalid":
            verdict = "invalid"
        else:
            kept_ace = shown is not None and any(
                l[:4].lower() == "xn--" and decode_label(l) != l for l in shown.split(".")
            )
            verdict = "unsafe" if kept_ace else "safe"
        counts[verdict] = counts.get(verdict, 0) + 1
        lines.append("\t".join([verdict, escape(host), escape(ace), escape(comment)]))
    out.write(
        "# cases: "
        + ", ".join(f"{counts.get(k, 0)} {k}" for k in ("unsafe", "safe", "invalid"))
        + "\n"
    )
    out.write("# verdict\thost\tace\tcomment\n")
    for l in lines:
        out.write(l + "\n")


if __name__ == "__main__":
    main()
