#!/usr/bin/env python3
"""Regenerates src/rules/spoof_tables.rs: the letter tables the look-alike rules take from Chromium's
IDN spoof checker and from the Unicode character names.

Sources:
- Chromium's components/url_formatter/spoof_checks/skeleton_generator.cc (BSD-3-Clause, The
  Chromium Authors): the "ExtraConf" transliteration rules (letters UTS #39 does not map, each
  with the Latin letters or digit it passes for) and the characters with several skeletons
  (`character_map_`: þ, œ, ł; and ӏ, also read as `l`).
- Chromium's components/url_formatter/spoof_checks/idn_spoof_checker.cc: `digit_lookalikes_`
  and `kWholeScriptConfusables` (the Linux branch of the Thai set).
- The Unicode character names (Python's `unicodedata`, whose UCD version the output names):
  every LATIN or CYRILLIC SMALL LETTER X WITH a hook, bar, tail, stroke, curl, belt, loop,
  descender, flourish or middle tilde that has no canonical decomposition (so that removing
  diacritics cannot reach X) is mapped to LETTER X (`ɨ` → `i`, `ƙ` → `k`, `ҳ` → `х`); the
  skeleton taken after this mapping carries a Cyrillic X on to its Latin look-alike.

Refresh, from Debian's source package of Chromium (scripts/chromium-source.sh unpacks the
files from its orig tarball and prints the SOURCE line):

    D=$(scripts/chromium-source.sh /tmp/chromium)   # prints the spoof_checks directory
    python3 scripts/spoof-tables.py $D/skeleton_generator.cc $D/idn_spoof_checker.cc \
        "$(cat /tmp/chromium/SOURCE)" > src/rules/spoof_tables.rs
"""
import hashlib
import re
import sys
import unicodedata

# What a letter "WITH ..." must carry to count: an attachment that no decomposition removes.
ATTACHMENTS = (
    "HOOK", "BAR", "TAIL", "STROKE", "CURL", "BELT", "LOOP", "DESCENDER", "FLOURISH",
    "SWASH", "RETROFLEX", "PALATAL", "MIDDLE TILDE", "TOPBAR", "LONG LEG",
)

# unicode_script::Script variant names of the scripts in kWholeScriptConfusables.
SCRIPTS = {
    "Armn": "Armenian", "Cyrl": "Cyrillic", "Ethi": "Ethiopic", "Geor": "Georgian",
    "Grek": "Greek", "Hebr": "Hebrew", "Beng": "Bengali", "Deva": "Devanagari",
    "Gujr": "Gujarati", "Guru": "Gurmukhi", "Knda": "Kannada", "Mlym": "Malayalam",
    "Orya": "Oriya", "Taml": "Tamil", "Telu": "Telugu", "Mymr": "Myanmar", "Thai": "Thai",
}


def set_chars(body):
    """The characters of an ICU set body such as `æӕ` or `\\u1090`."""
    body = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), body)
    return [c for c in body if c not in "[]\\ "]


def extra_conf(text):
    """Chromium's ExtraConf rules: char -> target."""
    # The rules are the string literals after the transliterator's name, up to the call's end
    # (`CreateTransliteratorFromRules("ExtraConf", "...")` in Chromium 150; older versions wrote
    # `UNICODE_STRING_SIMPLE("ExtraConf"), icu::UnicodeString::fromUTF8("...")`).
    block = text[text.index('"ExtraConf"') + len('"ExtraConf"') :]
    block = block[: block.index(");")]
    if "fromUTF8(" in block:
        block = block.split("fromUTF8(", 1)[1]
    rules = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', block))
    out = {}
    for rule in rules.split(";"):
        rule = rule.strip()
        if not rule:
            continue
        lhs, rhs = (s.strip() for s in rule.split(">"))
        rhs = rhs.replace("\\-", "-")
        chars = set_chars(lhs[1:-1]) if lhs.startswith("[") else [lhs]
        for c in chars:
            out.setdefault(c, rhs)
    return out


def multi(text):
    """character_map_: char -> [skeletons]."""
    out = {}
    for c, vals in re.findall(r"character_map_\[u'(.)'\] = \{([^}]*)\}", text):
        out[c] = re.findall(r'"([^"]*)"', vals)
    return out


def name_derived():
    out = {}
    for cp in range(0x80, 0x30000):
        c = chr(cp)
        name = unicodedata.name(c, "")
        m = re.fullmatch(r"(LATIN|CYRILLIC) SMALL LETTER ([A-Z]+(?: [A-Z]+)?) WITH (.+)", name)
        if not m or unicodedata.decomposition(c):
            continue
        if not any(a in m.group(3) for a in ATTACHMENTS):
            continue
        try:
            base = unicodedata.lookup(f"{m.group(1)} SMALL LETTER {m.group(2)}")
        except KeyError:
            continue
        out[c] = base
    return out


def whole_script(text):
    block = text[text.index("kWholeScriptConfusables[] = {") :]
    block = block[: block.index("};")]
    # Resolve the platform branch: keep the Linux one.
    lines, stack = [], []
    for line in block.splitlines():
        s = line.strip()
        if s.startswith("#if"):
            stack.append("IS_LINUX" in s)
        elif s.startswith("#else"):
            stack[-1] = not stack[-1]
        elif s.startswith("#endif"):
            stack.pop()
        elif all(stack):
            lines.append(re.sub(r"//.*$", "", line))
    block = "\n".join(lines)
    out = []
    for m in re.finditer(
        r'"\[\[:(\w+):\]\]",\s*"((?:[^"\\]|\\.)*)"(?:\s*"((?:[^"\\]|\\.)*)")*\s*(?:,\s*\{([^}]*)\})?',
        block,
    ):
        letters = set_chars(m.group(2))
        tlds = re.findall(r'"([^"]*)"', m.group(4) or "")
        out.append((SCRIPTS[m.group(1)], letters, tlds))
    return out


def digit_lookalikes(text, extra):
    m = re.search(r'digit_lookalikes_ = icu::UnicodeSet\(\s*icu::UnicodeString::fromUTF8\("\[([^\]]*)\]"\)', text)
    out = {}
    for c in set_chars(m.group(1)):
        d = extra.get(c)
        assert d is not None and d.isdigit(), (c, d)
        out[c] = d
    return out


def rs_char(c):
    return "'\\u{%04X}'" % ord(c)


def rs_str(s):
    return '"' + "".join(c if c.isascii() and c.isalnum() or c == "-" else "\\u{%04X}" % ord(c) for c in s) + '"'


def main():
    skel_path, idn_path, source = sys.argv[1:4]
    skel_raw = open(skel_path, "rb").read()
    idn_raw = open(idn_path, "rb").read()
    skel, idn = skel_raw.decode(), idn_raw.decode()
    extra = extra_conf(skel)
    several = multi(skel)
    several["\u04cf"] = ["l"]  # AddSkeletonMapping(ӏ → l) beside its UTS #39 skeleton `i`
    derived = name_derived()

    table = {}
    for c, t in extra.items():
        table.setdefault(c, []).append(t)
    for c, ts in several.items():
        for t in ts:
            if t not in table.setdefault(c, []):
                table[c].append(t)
    for c, base in derived.items():
        if c not in table:
            table[c] = [base]
    out = sys.stdout
    w = out.write
    w("//! Letter tables of the look-alike rules, GENERATED by scripts/spoof-tables.py: do not edit by\n")
    w("//! hand.\n//!\n")
    w(f"//! Sources: Chromium's components/url_formatter/spoof_checks/skeleton_generator.cc (sha256\n")
    w(f"//! {hashlib.sha256(skel_raw).hexdigest()}) and idn_spoof_checker.cc (sha256\n")
    w(f"//! {hashlib.sha256(idn_raw).hexdigest()}), BSD-3-Clause, read from\n")
    w(f"//! {source};\n")
    w(f"//! and the Unicode character names (UCD {unicodedata.unidata_version}, Python's `unicodedata`).\n\n")

    w("/// What a character passes for before its UTS #39 skeleton is taken, most likely first:\n")
    w("/// Chromium's extra confusable mappings and characters with several skeletons, then letters\n")
    w("/// with a hook, bar, tail, stroke (...) mapped to the letter without it. Sorted.\n")
    w("pub(super) static EXTRA_SKELETONS: &[(char, &[&str])] = &[\n")
    for c in sorted(table):
        name = unicodedata.name(c, "?")
        targets = ", ".join(rs_str(t) for t in table[c])
        w(f"    ({rs_char(c)}, &[{targets}]), // {name}\n")
    w("];\n\n")

    w("/// Characters that pass for a digit (Chromium's `digit_lookalikes_`), with the digit. Sorted.\n")
    w("pub(super) static DIGIT_LOOKALIKES: &[(char, char)] = &[\n")
    for c, d in sorted(digit_lookalikes(idn, extra).items()):
        w(f"    ({rs_char(c)}, '{d}'), // {unicodedata.name(c, '?')}\n")
    w("];\n\n")

    w("/// Chromium's whole-script confusables (`kWholeScriptConfusables`, the Linux set of Thai):\n")
    w("/// per script, its letters that look like Latin ones, and the ASCII TLDs where a label of only\n")
    w("/// those letters is allowed.\n")
    w("pub(super) static CHROMIUM_WHOLE_SCRIPT: &[(unicode_script::Script, &str, &[&str])] = &[\n")
    for script, letters, tlds in whole_script(idn):
        ls = "".join("\\u{%04X}" % ord(c) for c in letters)
        ts = ", ".join(f'"{t}"' for t in tlds)
        w(f"    (\n        unicode_script::Script::{script},\n        \"{ls}\",\n        &[{ts}],\n    ),\n")
    w("];\n")


if __name__ == "__main__":
    main()
