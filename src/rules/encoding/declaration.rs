//! `encoding-declaration-mismatch`: what a document says about its encoding against the BOM,
//! its other declarations and its bytes.
//!
//! Each declaration gets at most one finding, on its label: an unknown label; a label that the
//! BOM overrides; a `<meta>` the HTML prescan never sees; a UTF-16 label in a document whose
//! declaration is readable as ASCII; a label that contradicts the declaration that decides.
//! Then, once per document: the deciding declaration names a legacy encoding but the bytes are
//! UTF-8; or the bytes are not valid in the encoding used (declared, announced by the BOM, or
//! assumed: UTF-8 for XML without a declaration, Markdown and text). An HTML page without any
//! declaration is read as UTF-8 when it is valid UTF-8 and as windows-1252 otherwise, the
//! common browser default; the real default depends on the reader's locale, so irilint does not
//! call that guess wrong.

use encoding_rs::{Encoding, REPLACEMENT, UTF_8, WINDOWS_1252};

use super::reading::{non_ascii_runs, utf8_reading_of};
use super::{file_bytes, is_legacy};
use crate::extract::{Related, template};
use crate::iri::chars::escape_unsafe;
use crate::rules::DocumentSink;
use crate::sniff::DeclarationKind;
use crate::source::{Declaration, Format, Source, is_utf16};

/// `label` says `encoding` (both UTF-16 byte orders for a label that names none).
fn says(d: &Declaration, encoding: &'static Encoding) -> bool {
    let Some(named) = d.encoding else {
        return false;
    };
    named == encoding || (is_utf16(named) && is_utf16(encoding) && !names_byte_order(d))
}

/// `` `<meta charset>` (`ISO-8859-1`) ``.
fn name(d: &Declaration) -> String {
    format!("{} (`{}`)", d.kind.describe(), escape_unsafe(&d.label))
}

/// `` `<meta charset>` says `ISO-8859-1` (windows-1252) ``: the label, and the encoding it
/// stands for when that has another name (not for `UTF-16`, whose byte order the BOM gives).
fn claim(d: &Declaration) -> String {
    let mut out = format!("{} says `{}`", d.kind.describe(), escape_unsafe(&d.label));
    let other_name = d.encoding.filter(|&e| {
        e != REPLACEMENT
            && !e.name().eq_ignore_ascii_case(d.label.trim())
            && (!is_utf16(e) || names_byte_order(d))
    });
    if let Some(e) = other_name {
        out.push_str(&format!(" ({})", e.name()));
    }
    out
}

/// The label is `UTF-16LE` or `UTF-16BE` (or a synonym), not a plain `UTF-16`.
fn names_byte_order(d: &Declaration) -> bool {
    ["utf-16le", "utf-16be", "unicodefffe"]
        .iter()
        .any(|l| d.label.trim().eq_ignore_ascii_case(l))
}

fn related(d: &Declaration, what: &str) -> Related {
    Related {
        range: d.range.clone(),
        label: format!("{what} {}", name(d)),
    }
}

/// The file's byte order mark, located at the start of the text.
fn bom_related(bom: &'static Encoding) -> Related {
    Related {
        range: 0..0,
        label: format!("the file starts with a {} byte order mark", bom.name()),
    }
}

/// Reports what is wrong with `source`'s declarations and bytes.
pub(super) fn check(source: &Source, sink: &mut DocumentSink<'_>) {
    let facts = &source.encoding;
    // The declaration that decides the decoding (when no BOM overrides it).
    let deciding = facts.deciding();
    for d in &facts.declarations {
        check_declaration(source, d, deciding, sink);
    }
    if !mislabelled_utf8(source, deciding, sink) {
        undecodable(source, deciding, sink);
    }
}

fn check_declaration(
    source: &Source,
    d: &Declaration,
    deciding: Option<&Declaration>,
    sink: &mut DocumentSink<'_>,
) {
    let facts = &source.encoding;
    let used = facts.used.name();
    // `charset={{ encoding }}` in a layout: the engine writes the label; nothing to judge.
    if ["{{", "{%", "<%", "${"]
        .iter()
        .any(|o| source.text[d.range.start..].starts_with(o))
    {
        return;
    }
    let Some(named) = d.encoding.filter(|&e| e != REPLACEMENT) else {
        let what = if d.encoding.is_some() {
            "an encoding browsers refuse to decode (WHATWG maps it to `replacement`)"
        } else {
            "not a charset label of the WHATWG Encoding standard"
        };
        sink.report(
            d.range.clone(),
            format!(
                "{}, {what}: the declaration is ignored and the document is read as {used}",
                claim(d)
            ),
            Some(
                "declare the encoding the file is saved in with a standard label, preferably \
                 `UTF-8` (and save the file as UTF-8)"
                    .into(),
            ),
            Vec::new(),
        );
        return;
    };
    if let Some(bom) = facts.bom {
        if !says(d, bom) {
            sink.report(
                d.range.clone(),
                format!(
                    "{}, but the file starts with a {} byte order mark, which takes \
                     precedence: the document is read as {}",
                    claim(d),
                    bom.name(),
                    bom.name()
                ),
                Some(format!(
                    "declare {} (or remove the declaration); if the file is really {}, remove \
                     the byte order mark and convert it",
                    bom.name(),
                    named.name()
                )),
                vec![bom_related(bom)],
            );
        }
        return;
    }
    let agrees = says(d, facts.used);
    let is_deciding = deciding.is_some_and(|k| k.range == d.range);
    let declared_by = || {
        deciding
            .map(|k| vec![related(k, "the encoding is declared by")])
            .unwrap_or_default()
    };
    // A layout (`{{ partial "head.html" . }}` before the `<meta>`) is not the page: where the
    // `<meta>` ends up in the page is unknown.
    if !d.prescanned {
        // A template's output is not its source: what comes before the `<meta>` in the page
        // (a licence comment its build strips, a layout's head) is unknown.
        if template::is_template_source(&source.text) {
            return;
        }
        // A late `<meta>` repeating what the prescan found does no harm.
        if deciding.is_none() || !agrees {
            // With no declaration the prescan sees, browsers guess; a page of ASCII reads the
            // same in whatever they guess, and UTF-8 declared and valid is what their detectors
            // recognise: nothing the reader sees changes, so that is a warning.
            let harmless = deciding.is_none()
                && (facts.detected.is_none() || facts.detected == Some(UTF_8) && says(d, UTF_8));
            let message = format!(
                "{}, but it comes after the first 1024 bytes of the page, where browsers \
                 look for it (the WHATWG prescan), so it does not decide the encoding: {}",
                claim(d),
                match deciding {
                    Some(k) => format!("{} does, and the page is read as {used}", claim(k)),
                    None if harmless && facts.detected.is_none() => {
                        "browsers guess it, and this page of ASCII reads the same in any guess"
                            .to_string()
                    }
                    None if harmless => "browsers guess it, and recognise this page's valid \
                                         UTF-8"
                        .to_string(),
                    None => "browsers guess it, by default from the reader's locale (often \
                             windows-1252)"
                        .to_string(),
                }
            );
            let help = Some(
                "move it to the top of `<head>`, before `<title>`, scripts and styles, and \
                 keep one charset declaration: the encoding the file is saved in"
                    .into(),
            );
            if harmless {
                sink.report_milder(d.range.clone(), message, help, declared_by());
            } else {
                sink.report(d.range.clone(), message, help, declared_by());
            }
        }
        return;
    }
    if is_utf16(named) {
        sink.report(
            d.range.clone(),
            format!(
                "{}, but a UTF-16 document's declaration cannot be read as ASCII as this one \
                 is: the bytes are not UTF-16, and the document is read as {used}",
                claim(d)
            ),
            Some(format!("declare {used}, the encoding the file is saved in")),
            Vec::new(),
        );
        return;
    }
    if is_deciding || agrees {
        return;
    }
    let why = match deciding {
        Some(k) => format!("{}, and that decides", claim(k)),
        None if source.format == Format::Xml => {
            "an XML document without an encoding declaration is UTF-8 (XML 1.0 §4.3.3)".into()
        }
        None => "nothing the reader sees first declares it".into(),
    };
    sink.report(
        d.range.clone(),
        format!("{}, but the document is read as {used}: {why}", claim(d)),
        Some(
            "declare one encoding, the one the file is saved in, and remove or correct the \
             other declaration"
                .into(),
        ),
        declared_by(),
    );
}

/// The deciding declaration names a legacy encoding, but the bytes are valid UTF-8 and read as
/// mojibake: the classic mislabelled page. Returns whether it reported.
fn mislabelled_utf8(
    source: &Source,
    deciding: Option<&Declaration>,
    sink: &mut DocumentSink<'_>,
) -> bool {
    let facts = &source.encoding;
    let Some(d) = deciding else {
        return false;
    };
    if facts.bom.is_some() || !is_legacy(facts.used) || facts.detected != Some(encoding_rs::UTF_8) {
        return false;
    }
    let evidence = non_ascii_runs(&source.text).find_map(|run| {
        let bytes = file_bytes(source, run.clone())?;
        let meant = utf8_reading_of(&source.text[run.clone()], &bytes, facts.used)?;
        Some((run, meant))
    });
    let (range, label) = match (&evidence, facts.invalid.first()) {
        (Some((run, meant)), _) => (
            run.clone(),
            format!(
                "these bytes are UTF-8 for `{}`, read as {} `{}`",
                escape_unsafe(meant),
                facts.used.name(),
                escape_unsafe(&source.text[run.clone()])
            ),
        ),
        (None, Some(bad)) => (
            bad.text_offset..bad.text_offset + char::REPLACEMENT_CHARACTER.len_utf8(),
            format!("UTF-8 bytes that are not valid {}", facts.used.name()),
        ),
        (None, None) => return false,
    };
    sink.report(
        d.range.clone(),
        format!(
            "{}, but the document's bytes are UTF-8: read as {}, its non-ASCII text is \
             garbled",
            claim(d),
            facts.used.name()
        ),
        Some(format!(
            "declare UTF-8, the encoding the file is saved in: {}",
            match d.kind {
                DeclarationKind::XmlDeclaration => "`<?xml version=\"1.0\" encoding=\"UTF-8\"?>`",
                _ => "`<meta charset=\"utf-8\">`",
            }
        )),
        vec![Related { range, label }],
    );
    true
}

/// Some bytes are not valid in the encoding the document is read in.
fn undecodable(source: &Source, deciding: Option<&Declaration>, sink: &mut DocumentSink<'_>) {
    let facts = &source.encoding;
    let Some(first) = facts.invalid.first() else {
        return;
    };
    let used = facts.used.name();
    let found = first.found().unwrap_or_default();
    let bytes: Vec<String> = found.iter().map(|b| format!("0x{b:02X}")).collect();
    // What the bytes would be in the usual other suspect, to show what the file really is.
    let as_1252 = (facts.used == encoding_rs::UTF_8)
        .then(|| WINDOWS_1252.decode_without_bom_handling(found).0)
        .filter(|s| !s.contains(char::REPLACEMENT_CHARACTER))
        .map(|s| {
            format!(
                " ({} is `{}` in windows-1252)",
                bytes.join(" "),
                escape_unsafe(&s)
            )
        })
        .unwrap_or_default();
    let (why, fix, related) = match (facts.bom, deciding) {
        (Some(bom), _) => (
            format!("its byte order mark says {}", bom.name()),
            format!(
                "re-save the file as {used}, or remove the byte order mark and declare the \
                 encoding it is in"
            ),
            vec![bom_related(bom)],
        ),
        (None, Some(d)) => (
            claim(d),
            format!(
                "save the file as {used}, as declared, or declare the encoding it is saved \
                 in{as_1252}"
            ),
            vec![related(d, &format!("{used} is declared by"))],
        ),
        (None, None) => match source.format {
            // An XML declaration that decides nothing: an unknown label, `replacement`, UTF-16
            // in ASCII bytes (each reported on its own).
            Format::Xml
                if let Some(x) = facts
                    .declarations
                    .iter()
                    .find(|d| d.kind == DeclarationKind::XmlDeclaration) =>
            {
                (
                    format!(
                        "its XML declaration's label `{}` is not used",
                        escape_unsafe(&x.label)
                    ),
                    format!(
                        "convert the file to UTF-8, or declare the encoding it is saved in with a \
                     WHATWG label{as_1252}"
                    ),
                    Vec::new(),
                )
            }
            Format::Xml => (
                "an XML document without an encoding declaration is UTF-8".to_string(),
                format!(
                    "convert the file to UTF-8, or declare the encoding it is saved in with \
                     `<?xml version=\"1.0\" encoding=\"…\"?>`{as_1252}"
                ),
                Vec::new(),
            ),
            Format::Html => (
                "nothing declares another encoding".to_string(),
                format!("declare the encoding the file is saved in{as_1252}"),
                Vec::new(),
            ),
            Format::Text | Format::Markdown => (
                "irilint reads text and Markdown as UTF-8".to_string(),
                format!("convert the file to UTF-8{as_1252}"),
                Vec::new(),
            ),
            Format::Rst
            | Format::Asciidoc
            | Format::Epub
            | Format::OpenDocument
            | Format::Ooxml
            | Format::Pdf => (
                "irilint reads reStructuredText and AsciiDoc as UTF-8".to_string(),
                format!("convert the file to UTF-8{as_1252}"),
                Vec::new(),
            ),
        },
    };
    let more = match facts.invalid.len() - 1 {
        0 => String::new(),
        1 => ", and 1 more undecodable sequence".to_string(),
        n => format!(", and {n} more undecodable sequences"),
    };
    // A file of a format that has no way to declare its encoding, with no BOM: nothing claims
    // UTF-8 but irilint's reading, and readers pick a default of their own. Only its IRIs that
    // hold the bytes are harmed, and each of those is an error of its own (U+FFFD is not an IRI
    // character, `syntax-invalid`); the file as a whole is a warning.
    let undeclared = facts.bom.is_none()
        && deciding.is_none()
        && matches!(
            source.format,
            Format::Text | Format::Markdown | Format::Rst | Format::Asciidoc
        );
    let report = if undeclared {
        DocumentSink::report_milder
    } else {
        DocumentSink::report
    };
    report(
        sink,
        first.text_offset..first.text_offset + char::REPLACEMENT_CHARACTER.len_utf8(),
        format!(
            "the document is read as {used} ({why}), but byte{} {} at offset {} {} not valid \
             {used}{more}",
            if first.bytes().len() == 1 { "" } else { "s" },
            bytes.join(" "),
            first.bytes().start,
            if first.bytes().len() == 1 {
                "is"
            } else {
                "are"
            },
        ),
        Some(format!(
            "{fix}; undecodable bytes become U+FFFD, so IRIs with them cannot be checked"
        )),
        related,
    );
}
