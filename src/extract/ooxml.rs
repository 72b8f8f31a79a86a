//! IRIs in the XML parts of Office Open XML documents (Word, PowerPoint, Excel) that hold the
//! document's text: field codes `HYPERLINK "…"` (in `w:instrText` and `w:fldSimple@w:instr`)
//! and the IRIs written as text in text elements (`w:t`, `a:t`, Excel's `t`), found as in plain
//! text. A hyperlink's target is not in these parts but in a relationship part (`*.rels`,
//! `TargetMode="External"`), which the XML extractor reads ([`super::xml`]).
//!
//! Each text element is read on its own, its references (`&amp;`, `&#x202E;`) resolved and
//! mapped back to the source: an IRI split across two runs (`w:r`) is read as two pieces. The
//! markup is scanned, not checked: a part that is not well-formed is read as far as it goes.

use std::ops::Range;

use super::span_map::{SpanMap, decode_escapes};
use super::{Extraction, Occurrence, text};

/// What a piece of a part holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece {
    /// The text of a text element: IRIs as in plain text.
    Text,
    /// A field instruction: `HYPERLINK "…"`.
    Field,
}

/// Hands each IRI of an Office XML part to `on_occurrence`, in document order.
pub fn extract_each(text: &str, on_occurrence: &mut dyn FnMut(Occurrence)) -> Extraction {
    let b = text.as_bytes();
    let mut at = 0;
    // The text element being read, by the end of its start tag.
    let mut open: Option<(Piece, usize, &str)> = None;
    while let Some(k) = memchr::memchr(b'<', &b[at..]) {
        let lt = at + k;
        let Some(gt) = tag_end(b, lt) else {
            break;
        };
        let tag = &text[lt + 1..gt];
        at = gt + 1;
        if let Some((piece, start, name)) = open {
            if tag.starts_with('/') && tag[1..].trim_end() == name {
                read(text, start..lt, piece, on_occurrence);
                open = None;
            }
            continue;
        }
        if tag.starts_with(['/', '?', '!']) || tag.ends_with('/') && !tag.contains("instr") {
            continue;
        }
        let name_end = tag
            .find(|c: char| c.is_ascii_whitespace() || c == '/')
            .unwrap_or(tag.len());
        let name = &tag[..name_end];
        let local = name.rsplit(':').next().unwrap_or(name);
        match local {
            "t" if !tag.ends_with('/') => open = Some((Piece::Text, gt + 1, name)),
            "instrText" if !tag.ends_with('/') => open = Some((Piece::Field, gt + 1, name)),
            "fldSimple" => {
                if let Some(value) = attribute(tag, "instr") {
                    let start = lt + 1 + value.start;
                    read(text, start..lt + 1 + value.end, Piece::Field, on_occurrence);
                }
            }
            _ => {}
        }
    }
    Extraction::default()
}

/// Where the tag starting at `lt` ends (its `>`), quotes skipped.
fn tag_end(b: &[u8], lt: usize) -> Option<usize> {
    let mut quote = None;
    for (i, &c) in b.iter().enumerate().skip(lt + 1) {
        match (quote, c) {
            (None, b'"' | b'\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, b'>') => return Some(i),
            _ => {}
        }
    }
    None
}

/// The range of the value of the attribute whose local name is `local` in `tag` (the text
/// between `<` and `>`).
fn attribute(tag: &str, local: &str) -> Option<Range<usize>> {
    let mut from = 0;
    while let Some(k) = tag[from..].find(local) {
        let at = from + k;
        from = at + local.len();
        let before = tag[..at].chars().last();
        if !matches!(
            before,
            Some(':') | Some(' ') | Some('\t') | Some('\n') | Some('\r')
        ) {
            continue;
        }
        let rest = tag[from..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else {
            continue;
        };
        let rest_trimmed = rest.trim_start();
        let q = rest_trimmed.chars().next()?;
        if q != '"' && q != '\'' {
            continue;
        }
        let start = tag.len() - rest_trimmed.len() + 1;
        let end = start + tag[start..].find(q)?;
        return Some(start..end);
    }
    None
}

/// What the XML reference at `at` of `text` stands for, and its length.
fn reference_at(text: &str, at: usize) -> Option<(String, usize)> {
    let rest = &text[at..];
    // A reference is short and ASCII: looked for in bytes (a cut inside a character is fine).
    let end = rest.as_bytes()[..rest.len().min(12)]
        .iter()
        .position(|&c| c == b';')?;
    let body = &rest[1..end];
    let s = match body {
        "amp" => "&".to_string(),
        "lt" => "<".to_string(),
        "gt" => ">".to_string(),
        "quot" => "\"".to_string(),
        "apos" => "'".to_string(),
        _ => {
            let n = match body.strip_prefix("#x").or_else(|| body.strip_prefix("#X")) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => body.strip_prefix('#')?.parse().ok()?,
            };
            char::from_u32(n)?.to_string()
        }
    };
    Some((s, end + 1))
}

/// Reads the IRIs of the piece at `range` of `text`.
fn read(text: &str, range: Range<usize>, piece: Piece, on: &mut dyn FnMut(Occurrence)) {
    let (decoded, map) = decode_escapes(
        text,
        range,
        |s| memchr::memchr(b'&', s),
        |i| reference_at(text, i),
    );
    match piece {
        Piece::Text => {
            for r in text::Iris::new(&decoded) {
                on(located(text::occurrence(&decoded, r.clone()), &map, r));
            }
        }
        Piece::Field => {
            if let Some(r) = hyperlink_target(&decoded) {
                let mut occ = Occurrence::verbatim(&decoded, r.clone(), "HYPERLINK");
                occ.placeholders = Vec::new();
                on(located(occ, &map, r));
            }
        }
    }
}

/// The target of a `HYPERLINK "…"` field instruction (not its `\l` bookmark form).
fn hyperlink_target(instr: &str) -> Option<Range<usize>> {
    let trimmed = instr.trim_start();
    let word = trimmed.get(..9)?;
    if !word.eq_ignore_ascii_case("HYPERLINK") {
        return None;
    }
    let after = instr.len() - trimmed.len() + 9;
    let rest = &instr[after..];
    let rest_trimmed = rest.trim_start();
    if rest_trimmed.starts_with("\\l") {
        return None;
    }
    let start = instr.len() - rest_trimmed.len();
    if let Some(quoted) = rest_trimmed.strip_prefix('"') {
        let end = start + 1 + quoted.find('"').unwrap_or(quoted.len());
        return (end > start + 1).then_some(start + 1..end);
    }
    let end = start
        + rest_trimmed
            .find(char::is_whitespace)
            .unwrap_or(rest_trimmed.len());
    (end > start).then_some(start..end)
}

/// `occ`, found at `r` of a decoded piece, mapped to the part through the piece's `map`.
fn located(mut occ: Occurrence, map: &SpanMap, r: Range<usize>) -> Occurrence {
    occ.map = map.slice(r);
    occ
}

/// The text shown for each hyperlink of a document part, by relationship id: the text of the
/// runs inside a `w:hyperlink r:id="…"` (Word), or of the run whose properties hold an
/// `a:hlinkClick r:id="…"` (DrawingML: PowerPoint, shapes). Each id's texts are joined.
pub fn hyperlink_texts(text: &str) -> std::collections::HashMap<String, String> {
    let mut out: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let b = text.as_bytes();
    let mut at = 0;
    // The hyperlink being read (Word's element, or DrawingML's run), and whether a text
    // element is open (its content's start).
    let mut current: Option<(String, bool)> = None;
    let mut open_text: Option<usize> = None;
    while let Some(k) = memchr::memchr(b'<', &b[at..]) {
        let lt = at + k;
        let Some(gt) = tag_end(b, lt) else {
            break;
        };
        let tag = &text[lt + 1..gt];
        at = gt + 1;
        let closing = tag.starts_with('/');
        let name = tag
            .trim_start_matches('/')
            .split(|c: char| c.is_ascii_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        let local = name.rsplit(':').next().unwrap_or(name);
        match (local, closing) {
            ("t", false) if !tag.ends_with('/') => open_text = Some(gt + 1),
            ("t", true) => {
                if let (Some(start), Some((id, _))) = (open_text.take(), &current) {
                    let (shown, _) = decode_escapes(
                        text,
                        start..lt,
                        |s| memchr::memchr(b'&', s),
                        |i| reference_at(text, i),
                    );
                    out.entry(id.clone()).or_default().push_str(&shown);
                }
            }
            ("hyperlink", false) if !tag.ends_with('/') => {
                current = attribute(tag, "id").map(|r| (tag[r].to_string(), true));
            }
            ("hyperlink", true) => current = None,
            ("hlinkClick", false) => {
                if let Some(r) = attribute(tag, "id") {
                    current = Some((tag[r].to_string(), false));
                }
            }
            // A DrawingML run ends its link; Word's runs are inside the hyperlink element.
            ("r", true) if current.as_ref().is_some_and(|(_, word)| !word) => current = None,
            _ => {}
        }
    }
    out
}

/// The external relationships of a relationship part: each id with its target as prepared
/// (references resolved, as the XML extractor prepares it).
pub fn external_targets(text: &str) -> Vec<(String, String)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = memchr::memchr(b'<', &b[at..]) {
        let lt = at + k;
        let Some(gt) = tag_end(b, lt) else {
            break;
        };
        let tag = &text[lt + 1..gt];
        at = gt + 1;
        if !tag.starts_with("Relationship") || tag.starts_with("Relationships") {
            continue;
        }
        let value = |name: &str| {
            attribute(tag, name).map(|r| {
                let start = lt + 1 + r.start;
                decode_escapes(
                    text,
                    start..lt + 1 + r.end,
                    |s| memchr::memchr(b'&', s),
                    |i| reference_at(text, i),
                )
                .0
            })
        };
        let external =
            value("TargetMode").is_some_and(|m| m.trim().eq_ignore_ascii_case("External"));
        if let (true, Some(id), Some(target)) = (external, value("Id"), value("Target")) {
            out.push((id, target));
        }
    }
    out
}

/// The part a relationship part describes: `word/_rels/document.xml.rels` is about
/// `word/document.xml`.
pub fn described_part(rels: &str) -> Option<String> {
    let (dir, file) = rels.rsplit_once("_rels/")?;
    Some(format!("{dir}{}", file.strip_suffix(".rels")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_texts_by_relationship() {
        let word = "<w:p><w:hyperlink r:id=\"rId5\"><w:r><w:t>https://bank.</w:t></w:r><w:r><w:t>example.com/</w:t></w:r></w:hyperlink><w:r><w:t>after</w:t></w:r></w:p>";
        let texts = hyperlink_texts(word);
        assert_eq!(
            texts.get("rId5").map(String::as_str),
            Some("https://bank.example.com/")
        );
        assert_eq!(texts.len(), 1);
        let slide = "<a:r><a:rPr><a:hlinkClick r:id=\"rId2\"/></a:rPr><a:t>a &amp; b.org</a:t></a:r><a:r><a:t>not</a:t></a:r>";
        assert_eq!(
            hyperlink_texts(slide).get("rId2").map(String::as_str),
            Some("a & b.org")
        );
        let rels = "<Relationships><Relationship Id=\"rId5\" Type=\"t\" Target=\"https://a.org/?x=1&amp;y\" TargetMode=\"External\"/><Relationship Id=\"rId6\" Target=\"styles.xml\"/></Relationships>";
        assert_eq!(
            external_targets(rels),
            [("rId5".to_string(), "https://a.org/?x=1&y".to_string())]
        );
        assert_eq!(
            described_part("word/_rels/document.xml.rels").as_deref(),
            Some("word/document.xml")
        );
        assert_eq!(described_part("_rels/.rels").as_deref(), Some(""));
    }

    fn found(text: &str) -> Vec<(String, String, Range<usize>)> {
        let mut out = Vec::new();
        extract_each(text, &mut |o| {
            out.push((
                o.iri.to_string(),
                o.origin.to_string(),
                o.map.source_range(),
            ))
        });
        out
    }

    #[test]
    fn text_and_field_codes() {
        let doc = "<w:p><w:r><w:t xml:space=\"preserve\">see https://a.org/x?a=1&amp;b=2 now</w:t></w:r>\
                   <w:r><w:instrText> HYPERLINK \"https://b.org/&#x202E;\" \\o \"tip\"</w:instrText></w:r>\
                   <w:fldSimple w:instr=\" HYPERLINK &quot;https://c.org/&quot; \"><w:r><w:t>c</w:t></w:r></w:fldSimple>\
                   <w:instrText>HYPERLINK \\l \"_Toc1\"</w:instrText><a:t>www.d.org</a:t><w:t/></w:p>";
        let got = found(doc);
        let iris: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
        assert_eq!(
            iris,
            [
                "https://a.org/x?a=1&b=2",
                "https://b.org/\u{202e}",
                "https://c.org/",
                "www.d.org"
            ]
        );
        assert_eq!(&doc[got[0].2.clone()], "https://a.org/x?a=1&amp;b=2");
        assert_eq!(&doc[got[1].2.clone()], "https://b.org/&#x202E;");
        assert_eq!(got[1].1, "HYPERLINK");
        assert_eq!(&doc[got[2].2.clone()], "https://c.org/");
    }

    #[test]
    fn broken_markup_is_read_as_far_as_it_goes() {
        for doc in [
            "<w:t>https://a.org/",
            "<w:t",
            "<",
            "<w:t>x</w:t><w:instrText>HYPERLINK \"",
            "<w:fldSimple w:instr=\"HYPERLINK",
            "<w:t>&\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}</w:t>",
            "<w:t>&#x110000;&#xD800;&bogus;</w:t>",
        ] {
            let _ = found(doc);
        }
    }
}
