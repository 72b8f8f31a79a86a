//! HTML character references in attribute values, decoded with a [`SpanMap`].
//!
//! Follows the WHATWG tokenizer (§13.2.5.72–80) in the attribute-value context: named references
//! with the longest match in the HTML entity table (with or without `;` where the table allows
//! it, but not before `=` or an alphanumeric when the `;` is missing), decimal and hex numeric
//! references (0, surrogates and values above U+10FFFF become U+FFFD; 0x80–0x9F are remapped
//! through windows-1252), invalid references left as text. Input preprocessing is applied too:
//! CR LF and lone CR become LF, NUL becomes U+FFFD.

use std::ops::Range;

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

use crate::extract::{SpanMap, span_map};

/// Decodes the raw attribute value `text[raw]`: the value the browser sees, and where each of
/// its bytes came from.
pub fn decode_attribute(text: &str, raw: Range<usize>) -> (String, SpanMap) {
    decode(text, raw, true)
}

/// Decodes the raw text `text[raw]` of a text node (the data state): as an attribute value,
/// except that a named reference without its `;` is decoded before `=` or an alphanumeric too
/// (`?a=1&copy=2` shows `?a=1©=2`: what a reader sees and copies).
pub fn decode_text(text: &str, raw: Range<usize>) -> (String, SpanMap) {
    decode(text, raw, false)
}

fn decode(text: &str, raw: Range<usize>, in_attribute: bool) -> (String, SpanMap) {
    let end = raw.end;
    let b = text.as_bytes();
    // Only `&`, CR and NUL can change anything; the runs between them are copied as they are.
    span_map::decode_escapes(text, raw, next_escape, |i| match b[i] {
        // An `&` that starts no reference is text.
        b'&' => reference_in(text, i, end, in_attribute),
        b'\r' if i + 1 < end && b[i + 1] == b'\n' => Some(("\n".into(), 2)),
        b'\r' => Some(("\n".into(), 1)),
        _ => Some(("\u{FFFD}".into(), 1)),
    })
}

/// Where in `rest` the next byte is that may decode to something else: `&`, CR or NUL.
fn next_escape(rest: &[u8]) -> Option<usize> {
    memchr::memchr3(b'&', b'\r', 0, rest)
}

/// True when the raw value `text[raw]` decodes to itself (no `&`, CR or NUL in it): it is its
/// own value, and need not be copied.
pub fn decodes_to_itself(text: &str, raw: Range<usize>) -> bool {
    next_escape(&text.as_bytes()[raw]).is_none()
}

/// Whether a reference in `b` may stand for `:`, `.`, `w` or `W`, the bytes an IRI in text is
/// found by (a scheme's `:`, the `www.` of a host): a numeric one may stand for any, and of the
/// named ones only `&colon;` and `&period;` do (a test reads the whole table).
pub fn may_stand_for_a_trigger(b: &[u8]) -> bool {
    memchr::memchr_iter(b'&', b).any(|k| {
        let r = &b[k + 1..];
        r.first() == Some(&b'#') || r.starts_with(b"colon") || r.starts_with(b"period")
    })
}

/// The reference starting with the `&` at `at`: its text and its length in bytes, or `None`
/// when the `&` is just text.
pub(crate) fn reference(text: &str, at: usize, end: usize) -> Option<(String, usize)> {
    reference_in(text, at, end, true)
}

/// [`reference`], in an attribute value or in text.
fn reference_in(text: &str, at: usize, end: usize, in_attribute: bool) -> Option<(String, usize)> {
    let b = &text.as_bytes()[..end];
    match b.get(at + 1)? {
        b'#' => numeric(b, at),
        c if c.is_ascii_alphanumeric() => named(b, at, in_attribute),
        _ => None,
    }
}

fn numeric(b: &[u8], at: usize) -> Option<(String, usize)> {
    let mut i = at + 2;
    let hex = matches!(b.get(i), Some(b'x' | b'X'));
    if hex {
        i += 1;
    }
    let digits_start = i;
    let mut value: u32 = 0;
    while let Some(&c) = b.get(i) {
        let d = match (hex, c) {
            (true, _) if c.is_ascii_hexdigit() => (c as char).to_digit(16),
            (false, _) if c.is_ascii_digit() => (c as char).to_digit(10),
            _ => None,
        };
        let Some(d) = d else { break };
        value = value
            .saturating_mul(if hex { 16 } else { 10 })
            .saturating_add(d);
        i += 1;
    }
    if i == digits_start {
        return None; // `&#` or `&#x` without digits: not a reference
    }
    if b.get(i) == Some(&b';') {
        i += 1;
    }
    let c = match value {
        0 => '\u{FFFD}',
        0x80..=0x9F => C1_REPLACEMENTS[(value - 0x80) as usize]
            .unwrap_or_else(|| char::from_u32(value).expect("C1 controls are chars")),
        _ => char::from_u32(value).unwrap_or('\u{FFFD}'),
    };
    Some((c.to_string(), i - at))
}

fn named(b: &[u8], at: usize, in_attribute: bool) -> Option<(String, usize)> {
    // Longest match, as the tokenizer does: extend while the table knows the prefix.
    let mut best: Option<((u32, u32), usize)> = None;
    let mut i = at + 1;
    while i < b.len() && i - at <= 40 {
        let c = b[i];
        if !(c.is_ascii_alphanumeric() || c == b';') {
            break;
        }
        i += 1;
        let name = std::str::from_utf8(&b[at + 1..i]).ok()?;
        match NAMED_ENTITIES.get(name) {
            Some(&m) => {
                if m.0 != 0 {
                    best = Some((m, i - at));
                }
                if c == b';' {
                    break;
                }
            }
            None => break,
        }
    }
    let ((c1, c2), len) = best?;
    let ends_with_semicolon = b[at + len - 1] == b';';
    if in_attribute
        && !ends_with_semicolon
        && b.get(at + len)
            .is_some_and(|&n| n == b'=' || n.is_ascii_alphanumeric())
    {
        return None; // historical: `&copy=` and `&notit` in attributes stay as written
    }
    let mut s = String::new();
    s.extend(char::from_u32(c1));
    if c2 != 0 {
        s.extend(char::from_u32(c2));
    }
    Some((s, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_colon_period_and_numeric_references_stand_for_a_trigger() {
        for (name, &(c1, c2)) in NAMED_ENTITIES.entries() {
            let decoded: String = [c1, c2]
                .into_iter()
                .filter(|&c| c != 0)
                .filter_map(char::from_u32)
                .collect();
            if decoded.contains([':', '.', 'w', 'W']) {
                let written = format!("&{name}");
                assert!(may_stand_for_a_trigger(written.as_bytes()), "{written}");
            }
        }
        assert!(may_stand_for_a_trigger(b"a&#58;b"));
        assert!(may_stand_for_a_trigger(b"www&period;x"));
        assert!(!may_stand_for_a_trigger(b"Tom &amp; Jerry&nbsp;&lt;"));
    }

    fn dec(raw: &str) -> String {
        decode_attribute(raw, 0..raw.len()).0
    }

    #[test]
    fn references() {
        assert_eq!(dec("ros&eacute;"), "rosé");
        assert_eq!(dec("ros&#xE9;"), "rosé");
        assert_eq!(dec("ros&#233;"), "rosé");
        assert_eq!(dec("ros&eacute"), "rosé", "legacy name without ';'");
        assert_eq!(dec("a?x=1&amp;y=2"), "a?x=1&y=2");
        assert_eq!(dec("a?x=1&y=2"), "a?x=1&y=2");
        assert_eq!(dec("?a=1&copy=2"), "?a=1&copy=2", "no decoding before '='");
        assert_eq!(dec("&notit;"), "&notit;");
        assert_eq!(dec("&notin;"), "\u{2209}");
        assert_eq!(
            dec("&#x80;&#150;"),
            "\u{20AC}\u{2013}",
            "windows-1252 remapping"
        );
        assert_eq!(dec("&#0;&#xD800;&#x110000;"), "\u{FFFD}\u{FFFD}\u{FFFD}");
        assert_eq!(dec("&#x202E;"), "\u{202E}");
        assert_eq!(dec("&#;&#x;&;&bogus;"), "&#;&#x;&;&bogus;");
        assert_eq!(dec("a\r\nb\rc\0"), "a\nb\nc\u{FFFD}");
        assert_eq!(dec("&NotEqualTilde;"), "\u{2242}\u{338}", "two code points");
    }

    #[test]
    fn text_decodes_legacy_names_before_equals_signs() {
        let text = "?a=1&copy=2&amp;b&notit;";
        assert_eq!(
            decode_text(text, 0..text.len()).0,
            "?a=1\u{A9}=2&b\u{AC}it;"
        );
    }

    #[test]
    fn spans_cover_whole_references() {
        let text = r#"<a href="x/&#x202E;y&amp;">"#;
        let raw = 9..25;
        let (value, map) = decode_attribute(text, raw);
        assert_eq!(value, "x/\u{202E}y&");
        assert_eq!(&text[map.to_source(2..5)], "&#x202E;");
        assert_eq!(&text[map.to_source(5..6)], "y");
        assert_eq!(&text[map.to_source(6..7)], "&amp;");
        assert_eq!(&text[map.to_source(0..7)], "x/&#x202E;y&amp;");
    }
}
