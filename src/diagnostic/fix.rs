//! A diagnostic's fix on the document's text, written from the rule's fix of the prepared IRI:
//! RFC 3987 §5.2 preparation in reverse.
//!
//! Each IRI edit is widened to whole escapes (an edit inside the text an `&#x202E;` or an entity
//! produced rewrites the whole reference), the new characters are written as the place the IRI
//! sits in requires (`&amp;` in an attribute, a numeric character reference for a character the
//! document's encoding lacks, a backslash before a parenthesis of a Markdown destination), and the
//! edit is trimmed to the characters that really change. A fix that cannot be written there, or
//! that would reach outside the diagnostic's span, is dropped: no fix is better than a wrong one.

use std::ops::Range;

use encoding_rs::{Encoding, UTF_8};

use super::Location;
use crate::extract::Occurrence;
use crate::iri_fix::{Applicability, IriFix};
use crate::source::{Format, Source, is_utf16};

/// One edit of a document's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Where the replaced text starts.
    pub start: Location,
    /// Where it ends (exclusive).
    pub end: Location,
    /// The new text, as written in the document (escaped for its syntax), in UTF-8.
    pub replacement: String,
}

impl Edit {
    /// The replaced range of [`crate::source::Source::text`].
    pub fn range(&self) -> Range<usize> {
        self.start.text_offset..self.end.text_offset
    }
}

/// A fix of a diagnostic, on the document's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// Whether it keeps the IRI's meaning.
    pub applicability: Applicability,
    /// What it does (the IRI fix's message, shared).
    pub message: std::sync::Arc<str>,
    /// Disjoint edits of the text, sorted, each inside the diagnostic's span.
    pub edits: Vec<Edit>,
    /// The IRI fix it was written from (what re-extraction must give back); `None` for a fix
    /// of the markup around the IRIs ([`Fix::of_markup`]), which changes none of them.
    pub iri: Option<IriFix>,
    /// The start of the fixed occurrence in the text, which tells it from the others (for a
    /// markup fix, the start of its first edit).
    pub occurrence_start: usize,
}

impl Fix {
    /// The fix of a problem with the markup (`unlinked-url-attribute`): safe, its edits as the
    /// extractor wrote them (they are markup, already in the document's syntax); `None` when a
    /// replacement cannot be written in the document's encoding.
    pub fn of_markup(source: &Source, fix: &crate::extract::MarkupFix) -> Option<Fix> {
        let encoding = source.encoding.used;
        if fix
            .edits
            .iter()
            .any(|(_, t)| !t.chars().all(|c| encodable(encoding, c)))
            || fix.edits.windows(2).any(|w| w[0].0.end > w[1].0.start)
        {
            return None;
        }
        let edits: Vec<Edit> = fix
            .edits
            .iter()
            .map(|(r, t)| Edit {
                start: Location::of(source, r.start),
                end: Location::of(source, r.end),
                replacement: t.clone(),
            })
            .collect();
        Some(Fix {
            applicability: Applicability::Safe,
            message: fix.message.as_str().into(),
            occurrence_start: edits.first()?.start.text_offset,
            edits,
            iri: None,
        })
    }
}

/// Where an IRI is written, which decides how its characters are escaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Plain text: characters are written as they are.
    Text,
    /// A reStructuredText or AsciiDoc link target or bare IRI: characters as they are, except
    /// those that would end or change the construct (whitespace, `< > [ ] \` and backquotes),
    /// which no fix may write there.
    LightMarkup,
    /// An HTML attribute value (also HTML inside Markdown).
    HtmlAttribute,
    /// An XML attribute value.
    XmlAttribute,
    /// XML element content, and the text of an HTML page (`&`, `<`, `>` escaped).
    XmlContent,
    /// XML CDATA: nothing can be escaped.
    XmlCdata,
    /// A Markdown link destination written `<…>`.
    MarkdownAngle,
    /// A Markdown link destination written bare.
    MarkdownBare,
    /// A Markdown autolink `<…>`: no escapes at all.
    MarkdownAutolink,
    /// A bare IRI in Markdown text.
    MarkdownText,
    /// A string value of YAML or TOML front matter: characters as they are, except those that
    /// would need quoting or escaping in some style of string (whitespace, controls, quotes,
    /// `\`, `#`, flow punctuation), which no fix may write there.
    FrontMatter,
}

/// Where `occurrence` of `source` is written.
pub fn place_of(source: &Source, occurrence: &Occurrence) -> Place {
    let origin = occurrence.origin.as_ref();
    let start = occurrence.map.source_range().start;
    let before = &source.text[..start.min(source.text.len())];
    match source.format {
        Format::Text | Format::Epub | Format::OpenDocument | Format::Ooxml | Format::Pdf => {
            Place::Text
        }
        Format::Rst | Format::Asciidoc if origin.contains('@') => Place::HtmlAttribute,
        Format::Rst | Format::Asciidoc => Place::LightMarkup,
        // The text of an HTML page escapes what element content does.
        Format::Html if origin == "html:text" => Place::XmlContent,
        Format::Html => Place::HtmlAttribute,
        Format::Markdown => match origin {
            "markdown:link" | "markdown:image" | "markdown:definition" => {
                if before.ends_with('<') {
                    Place::MarkdownAngle
                } else {
                    Place::MarkdownBare
                }
            }
            "markdown:autolink" => Place::MarkdownAutolink,
            "markdown:text" => Place::MarkdownText,
            o if o.starts_with("front-matter") => Place::FrontMatter,
            _ => Place::HtmlAttribute,
        },
        Format::Xml => {
            if origin.contains(['@', ':']) || origin == "xmlns" {
                Place::XmlAttribute
            } else if in_cdata(before) {
                Place::XmlCdata
            } else {
                Place::XmlContent
            }
        }
    }
}

/// True when an IRI written right after `before` starts a CDATA section (element content is
/// trimmed, so only whitespace may come between). Looking no further back keeps this cheap on
/// a sitemap of thousands of IRIs; an IRI in CDATA that starts later is caught by the pass
/// check, which refuses escapes that CDATA does not read.
fn in_cdata(before: &str) -> bool {
    before.trim_end().ends_with("<![CDATA[")
}

/// True when `c` can be written as itself in a document in `encoding`.
pub fn encodable(encoding: &'static Encoding, c: char) -> bool {
    if c.is_ascii() || encoding == UTF_8 || is_utf16(encoding) {
        return true;
    }
    let mut buf = [0u8; 4];
    let (_, _, unmappable) = encoding.encode(c.encode_utf8(&mut buf));
    !unmappable
}

/// `text` as written at `place` of a document in `encoding`; `None` when it cannot be.
pub fn write_in(place: Place, encoding: &'static Encoding, text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let reference = |out: &mut String| out.push_str(&format!("&#x{:X};", c as u32));
        match place {
            Place::HtmlAttribute | Place::XmlAttribute | Place::XmlContent => match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' if place != Place::XmlContent => out.push_str("&quot;"),
                '\'' if place != Place::XmlContent => out.push_str("&#39;"),
                // A literal tab or line end in an attribute value is read as a space.
                '\t' | '\n' | '\r' if place != Place::XmlContent => reference(&mut out),
                c if !encodable(encoding, c) => reference(&mut out),
                c => out.push(c),
            },
            Place::Text | Place::XmlCdata | Place::MarkdownAutolink => {
                if !encodable(encoding, c)
                    || (place == Place::XmlCdata && text[i..].starts_with("]]>"))
                    || (place == Place::MarkdownAutolink
                        && (c == '<' || c == '>' || c.is_whitespace()))
                {
                    return None;
                }
                out.push(c);
            }
            Place::FrontMatter => {
                if !encodable(encoding, c)
                    || c.is_whitespace()
                    || c.is_control()
                    || matches!(c, '"' | '\'' | '\\' | '#' | '[' | ']' | '{' | '}' | ',')
                {
                    return None;
                }
                out.push(c);
            }
            Place::LightMarkup => {
                if !encodable(encoding, c)
                    || c.is_whitespace()
                    || matches!(c, '<' | '>' | '[' | ']' | '\\' | '`')
                {
                    return None;
                }
                out.push(c);
            }
            Place::MarkdownAngle | Place::MarkdownBare | Place::MarkdownText => {
                if !encodable(encoding, c) || c == '\n' || c == '\r' {
                    return None;
                }
                let escape = match c {
                    // A backslash escapes the ASCII punctuation after it, and `&name;` is an
                    // entity: both must stay literal.
                    '\\' => next.is_some_and(|n| n.is_ascii_punctuation()),
                    '&' => looks_like_reference(&text[i + 1..]),
                    '<' | '>' => place != Place::MarkdownText,
                    '(' | ')' => place == Place::MarkdownBare,
                    c if c.is_whitespace() || c.is_control() => {
                        if place == Place::MarkdownAngle && c == ' ' {
                            false
                        } else {
                            return None;
                        }
                    }
                    _ => false,
                };
                if escape {
                    out.push('\\');
                }
                out.push(c);
            }
        }
    }
    Some(out)
}

/// True when `rest` (after a `&`) would be read as an entity or numeric character reference.
fn looks_like_reference(rest: &str) -> bool {
    let name_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'#')
        .count();
    name_len > 0 && rest.as_bytes().get(name_len) == Some(&b';')
}

/// `range` of the prepared IRI widened to whole escapes, and the source range it came from.
fn widen(occurrence: &Occurrence, range: Range<usize>) -> (Range<usize>, Range<usize>) {
    let iri: &str = &occurrence.iri;
    let map = &occurrence.map;
    let mut source = map.to_source(range.clone());
    if range.is_empty() {
        return (range, source);
    }
    let mut prepared = range;
    // Escapes are few and short: step one character at a time until the neighbour's source no
    // longer overlaps.
    while let Some(c) = iri[..prepared.start].chars().next_back() {
        let at = prepared.start - c.len_utf8();
        let s = map.to_source(at..prepared.start);
        if s.end <= source.start {
            break;
        }
        source.start = source.start.min(s.start);
        prepared.start = at;
    }
    while let Some(c) = iri[prepared.end..].chars().next() {
        let to = prepared.end + c.len_utf8();
        let s = map.to_source(prepared.end..to);
        if s.start >= source.end {
            break;
        }
        source.end = source.end.max(s.end);
        prepared.end = to;
    }
    (prepared, source)
}

/// True when `at` cuts `s` inside a reference (`&#xE9;`, `&amp;`) or right after a backslash: an
/// edit starting or ending there would be unreadable.
fn cuts_escape(s: &str, at: usize) -> bool {
    let before = &s[..at];
    if before.ends_with('\\') {
        return true;
    }
    before.rfind('&').is_some_and(|a| {
        before[a + 1..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'#')
    }) && s[at..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == ';' || c == '#')
}

/// Drops the characters `old` and `new` share at both ends, never cutting an escape; returns
/// what is dropped from each end and the kept range of `new`.
fn trim_common(old: &str, new: &str) -> (usize, usize, Range<usize>) {
    let mut prefix: usize = old
        .chars()
        .zip(new.chars())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    while prefix > 0 && (cuts_escape(old, prefix) || cuts_escape(new, prefix)) {
        prefix -= old[..prefix].chars().next_back().map_or(1, char::len_utf8);
    }
    let mut suffix: usize = old[prefix..]
        .chars()
        .rev()
        .zip(new[prefix..].chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    while suffix > 0
        && (cuts_escape(old, old.len() - suffix) || cuts_escape(new, new.len() - suffix))
    {
        suffix -= old[old.len() - suffix..]
            .chars()
            .next()
            .map_or(1, char::len_utf8);
    }
    (prefix, suffix, prefix..new.len() - suffix)
}

/// The fix of the document for `fix` of `occurrence`, whose diagnostic underlines `span` of the
/// text; `None` when it cannot be written there.
pub fn to_source(
    source: &Source,
    occurrence: &Occurrence,
    span: Range<usize>,
    fix: &IriFix,
) -> Option<Fix> {
    let place = place_of(source, occurrence);
    let iri: &str = &occurrence.iri;
    let mut edits: Vec<Edit> = Vec::new();
    for edit in &fix.edits {
        let r = edit.range.clone();
        if r.start > r.end || r.end > iri.len() || !iri.is_char_boundary(r.start) {
            return None;
        }
        if !iri.is_char_boundary(r.end) {
            return None;
        }
        let (prepared, range) = widen(occurrence, r.clone());
        let new_prepared = format!(
            "{}{}{}",
            &iri[prepared.start..r.start],
            edit.replacement,
            &iri[r.end..prepared.end]
        );
        let written = write_in(place, source.encoding.used, &new_prepared)?;
        let old = source.text.get(range.clone())?;
        let (prefix, suffix, keep) = trim_common(old, &written);
        let range = range.start + prefix..range.end - suffix;
        if range.start < span.start || range.end > span.end {
            return None;
        }
        if edits
            .last()
            .is_some_and(|e| e.end.text_offset > range.start)
        {
            return None;
        }
        edits.push(Edit {
            start: Location::of(source, range.start),
            end: Location::of(source, range.end),
            replacement: written[keep].to_string(),
        });
    }
    edits.retain(|e| !(e.start == e.end && e.replacement.is_empty()));
    if edits.is_empty() {
        return None;
    }
    Some(Fix {
        applicability: fix.applicability,
        message: fix.message.clone(),
        edits,
        iri: Some(fix.clone()),
        occurrence_start: occurrence.map.source_range().start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::SpanMap;
    use encoding_rs::{SHIFT_JIS, WINDOWS_1252};

    #[test]
    fn attributes_escape_markup_and_unencodable_characters() {
        assert_eq!(
            write_in(Place::HtmlAttribute, WINDOWS_1252, "a&b\"é€日").unwrap(),
            "a&amp;b&quot;é€&#x65E5;"
        );
        assert_eq!(
            write_in(Place::XmlContent, SHIFT_JIS, "<日é>").unwrap(),
            "&lt;日&#xE9;&gt;"
        );
        assert_eq!(write_in(Place::XmlCdata, UTF_8, "a]]>b"), None);
    }

    #[test]
    fn markdown_keeps_its_escapes() {
        assert_eq!(
            write_in(Place::MarkdownBare, UTF_8, "a(b)\\&amp;").unwrap(),
            r"a\(b\)\\\&amp;"
        );
        assert_eq!(
            write_in(Place::MarkdownAngle, UTF_8, "a b<c>").unwrap(),
            "a b\\<c\\>"
        );
        assert_eq!(write_in(Place::MarkdownBare, UTF_8, "a b"), None);
        assert_eq!(
            write_in(Place::MarkdownText, UTF_8, "x&amp;y&z").unwrap(),
            "x\\&amp;y&z"
        );
    }

    #[test]
    fn an_edit_inside_a_reference_rewrites_the_reference() {
        // `a&#x202E;b` at 10 → prepared `a\u{202E}b`.
        let mut map = SpanMap::default();
        map.push_copied(10..11);
        map.push_replaced(3, 11..19);
        map.push_copied(19..20);
        let occ = Occurrence {
            iri: "a\u{202E}b".into(),
            map,
            origin: "a@href".into(),
            placeholders: Vec::new(),
            label: None,
            reference_texts: Vec::new(),
        };
        let (prepared, source) = widen(&occ, 1..4);
        assert_eq!((prepared, source), (1..4, 11..19));
        assert_eq!(widen(&occ, 0..1), (0..1, 10..11));
    }

    #[test]
    fn common_ends_are_not_rewritten() {
        assert_eq!(trim_common("%7e", "%7E"), (2, 0, 2..3));
        assert_eq!(trim_common("ab", "ab"), (2, 0, 2..2));
        // A reference is replaced whole, not cut after its `&#x`.
        assert_eq!(trim_common("e&#x301;", "&#xE9;"), (0, 0, 0..6));
        assert_eq!(trim_common("&amp;%7e", "&amp;~"), (5, 0, 5..6));
    }
}
