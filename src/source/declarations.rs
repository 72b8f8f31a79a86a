//! Where a document's charset declarations are: every `<meta>` and XML declaration, located in
//! the decoded text, so the encoding rules can point at each label.

use std::ops::Range;

use encoding_rs::{CoderResult, Encoding, REPLACEMENT};

use super::{Declaration, Format};
use crate::sniff::{self, DeclarationKind, FoundLabel, Markup};

/// `encoding` unless it is `replacement`, which irilint does not decode with.
pub(super) fn usable(encoding: Option<&'static Encoding>) -> Option<&'static Encoding> {
    encoding.filter(|&e| e != REPLACEMENT)
}

/// The declaration a label found in the bytes or text is, once located in the text.
fn declaration(found: &FoundLabel, range: Range<usize>, prescanned: bool) -> Declaration {
    Declaration {
        label: found.label.clone(),
        encoding: Encoding::for_label(found.label.as_bytes()),
        range,
        kind: found.kind,
        prescanned,
    }
}

/// Every declaration of an ASCII-compatible document, located in its text: `found` (the prescan
/// or the XML declaration), and the `<meta>` elements beyond the prescan (HTML) or anywhere
/// (XML, where an XHTML `<meta>` may contradict the XML declaration); and the index among them
/// of `found[decides]`.
pub(super) fn in_bytes(
    format: Format,
    used: &'static Encoding,
    body: &[u8],
    found: &[FoundLabel],
    decides: Option<usize>,
) -> (Vec<Declaration>, Option<usize>) {
    let mut labels: Vec<(FoundLabel, bool)> = found.iter().map(|f| (f.clone(), true)).collect();
    match format {
        Format::Html => labels.extend(
            sniff::meta_declarations(body, Markup::Html)
                .into_iter()
                .filter(|m| m.bytes.end > sniff::HTML_PRESCAN_LEN)
                .map(|m| (m, false)),
        ),
        Format::Xml => labels.extend(
            sniff::meta_declarations(body, Markup::Xml)
                .into_iter()
                .map(|m| (m, true)),
        ),
        Format::Text
        | Format::Markdown
        | Format::Rst
        | Format::Asciidoc
        | Format::Epub
        | Format::OpenDocument
        | Format::Ooxml
        | Format::Pdf => {}
    }
    if labels.is_empty() {
        // Most documents declare nothing: no decoder to set up.
        return (Vec::new(), None);
    }
    labels.sort_by_key(|(f, _)| f.bytes.start);
    let mut cuts: Vec<usize> = labels
        .iter()
        .flat_map(|(f, _)| [f.bytes.start, f.bytes.end])
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let offsets = text_offsets(used, body, &cuts);
    let at = |byte: usize| offsets[cuts.binary_search(&byte).unwrap_or(0)];
    let declarations: Vec<Declaration> = labels
        .iter()
        .map(|(f, prescanned)| declaration(f, at(f.bytes.start)..at(f.bytes.end), *prescanned))
        .collect();
    let decides = decides.and_then(|i| labels.iter().position(|(f, _)| f.bytes == found[i].bytes));
    (declarations, decides)
}

/// Every declaration of a document that is not ASCII-compatible (UTF-16 by its BOM), found in
/// its decoded text: no prescan applies, so all count as seen, and the XML declaration decides
/// when it names an encoding.
pub(super) fn in_text(format: Format, text: &str) -> (Vec<Declaration>, Option<usize>) {
    let b = text.as_bytes();
    let mut labels: Vec<FoundLabel> = match format {
        Format::Xml => sniff::xml_declared_encoding(b).into_iter().collect(),
        _ => Vec::new(),
    };
    match format {
        Format::Html => labels.extend(sniff::meta_declarations(b, Markup::Html)),
        Format::Xml => labels.extend(sniff::meta_declarations(b, Markup::Xml)),
        Format::Text
        | Format::Markdown
        | Format::Rst
        | Format::Asciidoc
        | Format::Epub
        | Format::OpenDocument
        | Format::Ooxml
        | Format::Pdf => {}
    }
    let declarations: Vec<Declaration> = labels
        .iter()
        .map(|f| declaration(f, f.bytes.clone(), true))
        .collect();
    let decides = declarations
        .iter()
        .position(|d| d.kind == DeclarationKind::XmlDeclaration && usable(d.encoding).is_some());
    (declarations, decides)
}

/// The text offsets of the byte offsets `cuts` (sorted) of an ASCII-compatible `body`. Cuts fall
/// on ASCII bytes around a label, where no decoder holds a partial sequence.
fn text_offsets(encoding: &'static Encoding, body: &[u8], cuts: &[usize]) -> Vec<usize> {
    // Valid UTF-8 up to the last cut, cut between characters, decodes to itself: its offsets
    // are the cuts (most XML documents declare `encoding="UTF-8"` at their start).
    let last = cuts.last().map_or(0, |&c| c.min(body.len()));
    if encoding == encoding_rs::UTF_8
        && let Ok(valid) = std::str::from_utf8(&body[..last])
        && cuts.iter().all(|&c| c >= last || valid.is_char_boundary(c))
    {
        return cuts.iter().map(|&c| c.min(body.len())).collect();
    }
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut scratch = String::with_capacity(4096);
    let (mut read, mut written) = (0, 0);
    let mut out = Vec::with_capacity(cuts.len());
    for &cut in cuts {
        let cut = cut.clamp(read, body.len());
        while read < cut {
            scratch.clear();
            let (result, n, _) = decoder.decode_to_string(&body[read..cut], &mut scratch, false);
            read += n;
            written += scratch.len();
            if result == CoderResult::InputEmpty {
                break;
            }
        }
        out.push(written);
    }
    out
}

#[cfg(test)]
mod tests {
    use encoding_rs::WINDOWS_1252;

    use crate::sniff::DeclarationKind;
    use crate::source::{Format, Source};

    fn html(bytes: &[u8]) -> Source {
        Source::decode("t".into(), Format::Html, bytes).unwrap()
    }

    #[test]
    fn every_declaration_is_recorded_and_the_first_known_label_decides() {
        // WHATWG prescan: an unknown label is skipped, the next one decides.
        let s = html(b"<meta charset=klingon><meta charset=latin1><p>\xE9");
        assert_eq!(s.encoding.used, WINDOWS_1252);
        assert_eq!(s.text, "<meta charset=klingon><meta charset=latin1><p>é");
        let labels: Vec<&str> = s
            .encoding
            .declarations
            .iter()
            .map(|d| d.label.as_str())
            .collect();
        assert_eq!(labels, ["klingon", "latin1"]);
        assert_eq!(s.encoding.deciding().unwrap().label, "latin1");
    }

    #[test]
    fn a_meta_beyond_the_prescan_is_located_in_the_text_and_not_seen() {
        let mut late = b"<meta charset=windows-1252><p>\xE9\xE9".to_vec();
        late.extend(std::iter::repeat_n(b' ', 1100));
        late.extend(b"<meta charset=utf-8>");
        let s = html(&late);
        let d = &s.encoding.declarations[1];
        assert_eq!((&s.text[d.range.clone()], d.prescanned), ("utf-8", false));
        assert!(s.encoding.declarations[0].prescanned);
    }

    #[test]
    fn an_xhtml_meta_of_an_xml_document_is_recorded_too() {
        let s = Source::decode(
            "t".into(),
            Format::Xml,
            b"<?xml version='1.0' encoding='UTF-8'?><meta charset='latin1'/>",
        )
        .unwrap();
        let kinds: Vec<DeclarationKind> = s.encoding.declarations.iter().map(|d| d.kind).collect();
        assert_eq!(
            kinds,
            [
                DeclarationKind::XmlDeclaration,
                DeclarationKind::MetaCharset
            ]
        );
        assert_eq!(
            s.encoding.deciding().unwrap().kind,
            DeclarationKind::XmlDeclaration
        );
    }

    #[test]
    fn offsets_follow_multibyte_text_before_the_label() {
        // Two Shift_JIS characters (4 bytes, 6 in UTF-8) before a late `<meta>`.
        let mut doc = b"<meta charset=shift_jis><p>\x93\xfa\x96\x7b".to_vec();
        doc.extend(std::iter::repeat_n(b' ', 1100));
        doc.extend(b"<meta charset=euc-jp>");
        let s = html(&doc);
        let d = &s.encoding.declarations[1];
        assert_eq!(&s.text[d.range.clone()], "euc-jp");
    }
}
