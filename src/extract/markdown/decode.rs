//! CommonMark's decoding of link destinations and text, with a [`SpanMap`], and the location of
//! a raw destination inside a link or a reference definition.
//!
//! pulldown-cmark gives the decoded destination (`dest_url`) and the source range of the whole
//! link or definition, but not where the destination is. It is found here by scanning the source
//! the way pulldown-cmark's own scanner does (`scan_link_dest`), and decoded with the rules of its
//! `unescape`: a backslash before ASCII punctuation, entity references with a `;` from the HTML5
//! table, decimal (up to 7 digits) and hex (up to 6 digits) references, `\r` dropped, and `\\|`
//! read as `|` in tables. The caller checks that the result equals `dest_url`.

use std::ops::Range;

use html5ever::data::NAMED_ENTITIES;
use smallvec::SmallVec;

use crate::extract::SpanMap;
use crate::extract::span_map;
use crate::extract::template::LINK_DESTINATION;

/// Longest entity name of the HTML5 table is 31 characters; longer runs are never entities.
const MAX_ENTITY_NAME: usize = 40;

/// How many positions inside a container prefix (`> > `) are tried as the start of a
/// destination that follows a line break.
const MAX_PREFIX_CANDIDATES: usize = 64;

/// The replacement of the escape or reference at `b[i..end]` and its length in bytes.
fn escape_at(b: &[u8], i: usize, end: usize, in_table: bool) -> Option<(String, usize)> {
    match b[i] {
        b'\\' if in_table && i + 2 < end && b[i + 1] == b'\\' && b[i + 2] == b'|' => {
            // pulldown-cmark reads an even run of backslashes before a pipe in a table cell
            // as the pipe itself (tables are split on unescaped pipes before inline parsing).
            Some(("|".to_string(), 3))
        }
        b'\\' if i + 1 < end && b[i + 1].is_ascii_punctuation() => {
            Some(((b[i + 1] as char).to_string(), 2))
        }
        b'&' => reference(&b[i..end]),
        b'\r' => Some((String::new(), 1)),
        _ => None,
    }
}

/// An entity or numeric reference at the start of `b` (which starts with `&`).
fn reference(b: &[u8]) -> Option<(String, usize)> {
    if b.get(1) == Some(&b'#') {
        let hex = matches!(b.get(2), Some(b'x' | b'X'));
        let start = if hex { 3 } else { 2 };
        let (radix, limit) = if hex { (16, 6) } else { (10, 7) };
        let digits = b[start.min(b.len())..]
            .iter()
            .take(limit)
            .take_while(|c| (**c as char).is_digit(radix))
            .count();
        let end = start + digits;
        if digits == 0 || b.get(end) != Some(&b';') {
            return None;
        }
        let s = std::str::from_utf8(&b[start..end]).ok()?;
        let value = u32::from_str_radix(s, radix).ok()?;
        let c = match value {
            0 => '\u{FFFD}',
            v => char::from_u32(v).unwrap_or('\u{FFFD}'),
        };
        return Some((c.to_string(), end + 1));
    }
    let name_len = b[1..]
        .iter()
        .take(MAX_ENTITY_NAME + 1)
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    if name_len == 0 || name_len > MAX_ENTITY_NAME || b.get(1 + name_len) != Some(&b';') {
        return None;
    }
    // The table's keys carry their `;` ("amp;"); entries with 0 are prefixes only.
    let key = std::str::from_utf8(&b[1..name_len + 2]).ok()?;
    let &(c1, c2) = NAMED_ENTITIES.get(key)?;
    if c1 == 0 {
        return None;
    }
    let mut s = String::new();
    s.extend(char::from_u32(c1));
    if c2 != 0 {
        s.extend(char::from_u32(c2));
    }
    Some((s, name_len + 2))
}

/// Decodes `text[range]` with CommonMark's escapes: the text, and where each byte came from.
pub fn decode(text: &str, range: Range<usize>, in_table: bool) -> (String, SpanMap) {
    let end = range.end;
    // Every escape starts with one of these bytes; the text between is not read byte by byte.
    span_map::decode_escapes(
        text,
        range,
        |rest| memchr::memchr3(b'\\', b'&', b'\r', rest),
        |i| escape_at(text.as_bytes(), i, end, in_table),
    )
}

/// The raw destination starting at `at` (before `limit`), as pulldown-cmark scans it: inside
/// `<...>` (the brackets excluded) or up to a space, a control character or an unbalanced `)`.
pub fn scan_destination(b: &[u8], at: usize, limit: usize) -> Option<Range<usize>> {
    if at >= limit {
        return None;
    }
    let mut i = at;
    if b[at] == b'<' {
        i += 1;
        while i < limit {
            match b[i] {
                b'\n' | b'\r' | b'<' => return None,
                b'>' => return Some(at + 1..i),
                b'\\' if i + 1 < limit && b[i + 1].is_ascii_punctuation() => i += 1,
                _ => {}
            }
            i += 1;
        }
        return None;
    }
    let mut nest = 0usize;
    while i < limit {
        // Most bytes of a destination are none of those below: skipped by table.
        if !DESTINATION_SPECIAL[usize::from(b[i])] {
            i += 1;
            continue;
        }
        match b[i] {
            0..=0x20 => break,
            b'(' => nest += 1,
            b')' if nest == 0 => break,
            b')' => nest -= 1,
            b'\\' if i + 1 < limit && b[i + 1].is_ascii_punctuation() => i += 1,
            _ => {}
        }
        i += 1;
    }
    (i > at).then_some(at..i)
}

/// The bytes [`scan_destination`] acts on outside `<...>`: spaces and controls, parentheses and
/// the backslash.
static DESTINATION_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c <= 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'(' as usize] = true;
    t[b')' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// A destination located in the source and decoded.
#[derive(Debug)]
pub enum Located {
    /// Decoded text equal to pulldown-cmark's, and its exact map.
    Exact(SpanMap),
    /// Not found, or decoded differently: the best source range for the whole destination.
    Inexact(Range<usize>),
}

/// Finds the destination that follows `from` (just after `](` or `]:`) before `limit`:
/// optional spaces and tabs, at most one line break, and on the next line the container
/// prefix (`>` markers, indentation) — then the destination, whose decoding must equal
/// `expected`.
pub fn locate_destination(
    text: &str,
    from: usize,
    limit: usize,
    expected: &str,
    in_table: bool,
) -> Located {
    let b = text.as_bytes();
    let limit = limit.min(b.len());
    let mut i = from;
    while i < limit && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    let mut candidates: SmallVec<[usize; 4]> = SmallVec::new();
    let line_break = match b.get(i) {
        Some(b'\r') if b.get(i + 1) == Some(&b'\n') => 2,
        Some(b'\n' | b'\r') => 1,
        _ => 0,
    };
    if line_break == 0 {
        candidates.push(i);
    } else {
        // The next line's container prefix is not part of the destination, but a destination
        // may itself start with `>`: try after the whole prefix first, then at each `>` of it
        // from the last (the destination is the longest suffix that decodes as expected).
        let line_start = i + line_break;
        let mut j = line_start;
        while j < limit && matches!(b[j], b' ' | b'\t' | b'>') {
            j += 1;
        }
        candidates.push(j);
        candidates.extend(
            (line_start..j)
                .rev()
                .filter(|&k| b[k] == b'>')
                .take(MAX_PREFIX_CANDIDATES),
        );
    }
    let mut first_raw = None;
    for at in candidates {
        let Some(raw) = scan_destination(b, at, limit) else {
            continue;
        };
        // Most destinations are read as they are written: with no byte that starts an escape
        // or a reference, what `decode` would return is the text itself, mapped one to one.
        let written = &b[raw.clone()];
        if written == expected.as_bytes() && memchr::memchr3(b'\\', b'&', b'\r', written).is_none()
        {
            return Located::Exact(SpanMap::identity(raw));
        }
        let (decoded, map) = decode(text, raw.clone(), in_table);
        if decoded == expected {
            return Located::Exact(map);
        }
        first_raw.get_or_insert(raw);
    }
    Located::Inexact(first_raw.unwrap_or(from..limit))
}

/// Finds the destination of an inline link or image `text[link]` whose text ends at or after
/// `text_end` (the end of the last event inside it): it follows the first `](` from there.
pub fn locate_inline(
    text: &str,
    link: Range<usize>,
    text_end: usize,
    expected: &str,
    in_table: bool,
) -> Located {
    let from = text_end.clamp(link.start, link.end);
    if let Some(raw) = borrowed_within(text, from..link.end, expected) {
        return Located::Exact(SpanMap::identity(raw));
    }
    locate_inline_scanned(text, link, text_end, expected, in_table)
}

/// Where `expected` is in `text[within]` when it is a slice of `text` itself, by its address:
/// pulldown-cmark hands a destination with nothing to decode as the slice of the source it
/// scanned (and any other as a string of its own, never inside the source), so its place is
/// known without finding its `](` and scanning it again (about 1,000 instructions a link).
/// `None` when it is not, or is empty.
fn borrowed_within(text: &str, within: Range<usize>, expected: &str) -> Option<Range<usize>> {
    #[cfg(test)]
    if tests::SCAN_ONLY.get() {
        return None;
    }
    // Addresses compared as numbers: a string of its own never lies inside `text`'s bytes.
    let start = (expected.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let raw = start..start.checked_add(expected.len())?;
    let placed = (!expected.is_empty()
        && raw.start >= within.start
        && raw.end <= within.end.min(text.len()))
    .then_some(raw);
    #[cfg(test)]
    if placed.is_some() {
        tests::PLACED_BY_ADDRESS.set(tests::PLACED_BY_ADDRESS.get() + 1);
    }
    placed
}

/// [`locate_inline`] by scanning the source: for a destination that is no slice of it.
fn locate_inline_scanned(
    text: &str,
    link: Range<usize>,
    text_end: usize,
    expected: &str,
    in_table: bool,
) -> Located {
    let b = text.as_bytes();
    let from = text_end.clamp(link.start, link.end);
    match LINK_DESTINATION.find(&b[from..link.end]) {
        Some(p) => locate_destination(text, from + p + 2, link.end, expected, in_table),
        None => Located::Inexact(link),
    }
}

/// Finds the destination of the reference definition `text[span]` (starting at its `[`).
pub fn locate_definition(text: &str, span: Range<usize>, expected: &str) -> Located {
    if let Some(raw) = borrowed_within(text, span.clone(), expected) {
        return Located::Exact(SpanMap::identity(raw));
    }
    locate_definition_scanned(text, span, expected)
}

/// [`locate_definition`] by scanning the source: for a destination that is no slice of it.
fn locate_definition_scanned(text: &str, span: Range<usize>, expected: &str) -> Located {
    let b = text.as_bytes();
    let end = span.end.min(b.len());
    if span.start >= end || b[span.start] != b'[' {
        return Located::Inexact(span);
    }
    let mut i = span.start + 1;
    while i < end {
        match b[i] {
            b'\\' => i += 2,
            b']' => break,
            _ => i += 1,
        }
    }
    if i + 1 >= end || b[i] != b']' || b[i + 1] != b':' {
        return Located::Inexact(span);
    }
    locate_destination(text, i + 2, end, expected, false)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    thread_local! {
        /// Set: every destination is found by scanning, the fast path by address not taken
        /// (to compare the two).
        pub(crate) static SCAN_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        /// Destinations placed by their address (so a test can show the fast path was taken).
        pub(crate) static PLACED_BY_ADDRESS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    fn dec(s: &str) -> String {
        decode(s, 0..s.len(), false).0
    }

    #[test]
    fn commonmark_escapes() {
        assert_eq!(dec(r"a\(b\)c\\d\e"), r"a(b)c\d\e");
        assert_eq!(
            dec("&amp;&lt&#x202E;&#233;&#0;&#xD800;"),
            "&&lt\u{202E}é\u{FFFD}\u{FFFD}"
        );
        assert_eq!(
            dec("&#12345678;&#x1234567;&bogus;&;&#;"),
            "&#12345678;&#x1234567;&bogus;&;&#;"
        );
        assert_eq!(dec("&NotEqualTilde;"), "\u{2242}\u{338}");
        assert_eq!(decode(r"a\\|b", 0..5, true).0, "a|b");
        assert_eq!(decode(r"a\\|b", 0..5, false).0, r"a\|b");
    }

    /// `locate_destination` takes text with no `\\`, `&` or `\r` as decoded already; `decode`
    /// must agree, text and map, in and out of tables.
    #[test]
    fn text_without_escape_bytes_decodes_to_itself() {
        for t in [
            "",
            "a",
            "http://a/b?c=d#e",
            "caf\u{e9}|x",
            "<a>",
            "a\nb",
            "(x)",
            "\u{202E}",
        ] {
            let text = format!("[x]({t})");
            let raw = 4..4 + t.len();
            for in_table in [false, true] {
                assert_eq!(
                    decode(&text, raw.clone(), in_table),
                    (t.to_string(), SpanMap::identity(raw.clone()))
                );
            }
            if !t.is_empty() && !t.contains(['<', '\n', '(']) {
                match locate_destination(&text, 4, text.len() - 1, t, false) {
                    Located::Exact(map) => assert_eq!(map, SpanMap::identity(raw)),
                    Located::Inexact(r) => panic!("{t:?}: inexact {r:?}"),
                }
            }
        }
    }

    #[test]
    fn maps_cover_escapes_whole() {
        let s = r"x\(&#x202E;y";
        let (d, m) = decode(s, 0..s.len(), false);
        assert_eq!(d, "x(\u{202E}y");
        assert_eq!(m.to_source(1..2), 1..3);
        assert_eq!(m.to_source(2..5), 3..11);
        assert_eq!(m.to_source(5..6), 11..12);
    }

    #[test]
    fn destinations() {
        let b = b"<a b>(c(d)e) f)";
        assert_eq!(scan_destination(b, 0, b.len()), Some(1..4));
        assert_eq!(scan_destination(b, 5, b.len()), Some(5..12));
        assert_eq!(scan_destination(b"<a\nb>", 0, 5), None);
        assert_eq!(scan_destination(br"a\)b)", 0, 5), Some(0..4));
    }

    #[test]
    fn definitions_across_lines_and_prefixes() {
        let s = "> [a]:\n> >x\n";
        match locate_definition(s, 2..11, ">x") {
            Located::Exact(m) => assert_eq!(m.source_range(), 9..11),
            other => panic!("{other:?}"),
        }
        match locate_definition(s, 2..11, "x") {
            Located::Exact(m) => assert_eq!(m.source_range(), 10..11),
            other => panic!("{other:?}"),
        }
    }
}
