//! A copy of a lightweight-markup document (reStructuredText, AsciiDoc) in which what is not
//! running text — code, comments, constructs already extracted — is blanked out, so that the
//! plain-text detector ([`super::text`]) finds the bare IRIs of what is left at the offsets of
//! the original.

use std::ops::Range;

use super::{Occurrence, template, text, text_placeholders};

/// The document's text with blanked ranges: every byte of a hidden character becomes a space,
/// line ends stay, so offsets and lines are those of the original.
#[derive(Debug, Clone, Default)]
pub struct Masked {
    bytes: Vec<u8>,
}

impl Masked {
    /// Nothing hidden yet.
    pub fn new(text: &str) -> Masked {
        Masked {
            bytes: text.as_bytes().to_vec(),
        }
    }

    /// Hides `range` (widened to character boundaries of `text`, the original).
    pub fn hide(&mut self, text: &str, range: Range<usize>) {
        let mut start = range.start.min(text.len());
        let mut end = range.end.min(text.len()).max(start);
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        while !text.is_char_boundary(end) {
            end += 1;
        }
        for b in &mut self.bytes[start..end] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }

    /// The bytes of the text as it is now.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The text as it is now, without a copy.
    pub fn into_text(self) -> String {
        // Whole characters were replaced by ASCII spaces: still UTF-8. (Checked with
        // `from_utf8`, which runs over ASCII a word at a time: `from_utf8_lossy` went byte by
        // byte, a fifth of the work on reStructuredText.)
        String::from_utf8(self.bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// The bare IRIs of `masked` (the masked copy of `text`), each an occurrence of `text` with
/// the placeholders a reader of plain text sees ([`text_placeholders`]) plus `more` of its own.
pub fn bare_iris(
    text: &str,
    masked: &str,
    origin: &'static str,
    more: impl Fn(&str) -> Vec<Range<usize>>,
) -> Vec<Occurrence> {
    text::detect(masked)
        .into_iter()
        .map(|range| {
            let mut occ = Occurrence::verbatim(text, range, origin);
            let mut all = text_placeholders::placeholders(&occ.iri);
            all.extend(more(&occ.iri));
            occ.placeholders = template::disjoint(all);
            occ
        })
        .collect()
}

/// The first position from `from` on where `closes` holds, within the paragraph (not across a
/// blank line) and not on a backslash-escaped character; `Err` holds where the search stopped
/// (the paragraph's end), so that a caller can skip openers before it that would find nothing.
pub fn find_in_paragraph(
    b: &[u8],
    from: usize,
    closes: impl Fn(usize) -> bool,
) -> Result<usize, usize> {
    let mut k = from;
    let mut line_blank = false;
    while k < b.len() {
        let c = b[k];
        if c == b'\n' {
            if line_blank {
                return Err(k);
            }
            line_blank = true;
        } else if !c.is_ascii_whitespace() {
            line_blank = false;
        }
        if c == b'\\' {
            k += 2;
            continue;
        }
        if closes(k) {
            return Ok(k);
        }
        k += 1;
    }
    Err(b.len())
}

/// What an extraction found, as `(origin, IRI)` pairs (for tests).
#[cfg(test)]
pub fn found(e: super::Extraction) -> Vec<(String, String)> {
    e.occurrences
        .into_iter()
        .map(|o| (o.origin.to_string(), o.iri.to_string()))
        .collect()
}

/// `(origin, IRI)` pairs as [`found`] gives them (for tests).
#[cfg(test)]
pub fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// The lines of `text`, each without its line end, as byte ranges.
pub fn lines(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    // Line ends found by `memchr` (a `str::split_inclusive` spent more per line than the rest).
    let ends = memchr::memchr_iter(b'\n', b).chain((b.last() != Some(&b'\n')).then_some(b.len()));
    for end in ends {
        if start == b.len() {
            break;
        }
        let mut body = end;
        while body > start && matches!(b[body - 1], b'\n' | b'\r') {
            body -= 1;
        }
        out.push(start..body);
        start = end + 1;
    }
    out
}

/// The indentation of `line` in columns (a tab to the next multiple of 8, as docutils reads it).
pub fn indent(line: &str) -> usize {
    let mut col = 0;
    for c in line.chars() {
        match c {
            ' ' => col += 1,
            '\t' => col = (col / 8 + 1) * 8,
            _ => break,
        }
    }
    col
}

/// True when `line` holds only whitespace.
pub fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hiding_keeps_offsets_lines_and_utf8() {
        let text = "a é\u{202E}b\nc";
        let mut m = Masked::new(text);
        m.hide(text, 3..6);
        assert_eq!(m.clone().into_text(), format!("a{}b\nc", " ".repeat(6)));
        m.hide(text, 0..text.len());
        assert_eq!(m.clone().into_text(), format!("{}\n ", " ".repeat(8)));
    }

    #[test]
    fn a_search_stops_at_a_blank_line_and_skips_escapes() {
        let b = b"a \\` b\n c ` d\n \n `";
        let tick = |k: usize| b[k] == b'`';
        assert_eq!(find_in_paragraph(b, 0, tick), Ok(10));
        assert_eq!(find_in_paragraph(b, 11, tick), Err(15));
    }

    #[test]
    fn lines_and_indents() {
        assert_eq!(lines("a\r\n\nbc"), [0..1, 3..3, 4..6]);
        assert_eq!(indent("  \tx"), 8);
        assert_eq!(indent("   x"), 3);
    }
}
