//! The encoding rules (RFC 3987 §6.3) on whole documents given as bytes: what each case of
//! `encoding-declaration-mismatch` reports and where, what stays quiet, how the IRI rules tell
//! bytes of the document from characters written as references, and that no bytes make the
//! pipeline panic.

use irilint::check::{CheckOptions, check_source};
use irilint::diagnostic::Diagnostic;
use irilint::rules::{self, Selection};
use irilint::source::{Format, Source};
use proptest::prelude::*;

/// The diagnostics of the encoding rules for `bytes` read as `format`.
fn encoding_findings(format: Format, bytes: &[u8]) -> Vec<Diagnostic> {
    let source = Source::decode("t".into(), format, bytes).expect("not binary");
    let selection = Selection::from_selectors(&["encoding"], &[], &[]).unwrap();
    let options = CheckOptions::new(&selection);
    check_source(&source, &options).diagnostics
}

/// `(rule, text under the span)` for each diagnostic.
/// Every place found, as (rule, the text underlined): a diagnostic's first place and its
/// others (one diagnostic per IRI, rule and component).
fn spans(format: Format, bytes: &[u8]) -> Vec<(&'static str, String)> {
    let source = Source::decode("t".into(), format, bytes).unwrap();
    encoding_findings(format, bytes)
        .into_iter()
        .flat_map(|d| {
            let places: Vec<_> = std::iter::once((d.start, d.end))
                .chain(d.also.iter().copied())
                .collect();
            places.into_iter().map(move |(s, e)| {
                let at = s.text_offset..e.text_offset;
                (d.rule, at)
            })
        })
        .map(|(rule, at)| (rule, source.text[at].to_string()))
        .collect()
}

const MISMATCH: &str = "encoding-declaration-mismatch";
const LEGACY: &str = "encoding-utf8-in-legacy-document";
const MOJIBAKE: &str = "encoding-mojibake";

#[test]
fn a_bom_overrides_the_declaration() {
    let found = spans(
        Format::Xml,
        b"\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>",
    );
    assert_eq!(found, [(MISMATCH, "ISO-8859-1".to_string())]);
    let d = &encoding_findings(Format::Html, b"\xEF\xBB\xBF<meta charset=windows-1252>")[0];
    assert!(d.message.contains("UTF-8 byte order mark"), "{}", d.message);
    assert_eq!(
        d.related[0].label,
        "the file starts with a UTF-8 byte order mark"
    );
    // Agreeing, in either byte order of UTF-16 for a plain `UTF-16` label.
    for bom in [[0xFF, 0xFE], [0xFE, 0xFF]] {
        let mut doc = bom.to_vec();
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a href=\"/é\"/>";
        for u in text.encode_utf16() {
            doc.extend(if bom[0] == 0xFF {
                u.to_le_bytes()
            } else {
                u.to_be_bytes()
            });
        }
        assert!(encoding_findings(Format::Xml, &doc).is_empty());
    }
    assert!(encoding_findings(Format::Html, b"\xEF\xBB\xBF<meta charset=utf8>").is_empty());
}

#[test]
fn bytes_the_encoding_cannot_decode_are_counted_from_the_first() {
    let found = encoding_findings(
        Format::Html,
        b"<meta charset=utf-8><a href=\"/caf\xE9\">caf\xE9 \xFF</a>",
    );
    assert_eq!(found.len(), 1);
    let d = &found[0];
    assert_eq!(
        (d.start.offset, d.end.offset),
        (33, 34),
        "the first bad byte"
    );
    assert!(
        d.message.contains("byte 0xE9 at offset 33"),
        "{}",
        d.message
    );
    assert!(
        d.message.ends_with("and 2 more undecodable sequences"),
        "{}",
        d.message
    );
    assert!(
        d.help
            .as_ref()
            .unwrap()
            .contains("0xE9 is `é` in windows-1252")
    );
    assert_eq!(
        d.related[0].label,
        "UTF-8 is declared by `<meta charset>` (`utf-8`)"
    );
    // Assumed UTF-8: XML without a declaration, Markdown, text. A declared Shift_JIS page
    // whose bytes are not Shift_JIS.
    for format in [Format::Xml, Format::Markdown, Format::Text] {
        let rules: Vec<_> = spans(format, b"<a>http://a/\xE9</a>")
            .into_iter()
            .map(|(r, _)| r)
            .collect();
        assert_eq!(rules, [MISMATCH], "{format:?}");
    }
    let d = &encoding_findings(Format::Html, b"<meta charset=shift_jis><p>\x81")[0];
    assert!(
        d.message.contains("is not valid Shift_JIS"),
        "{}",
        d.message
    );
}

#[test]
fn an_undeclared_legacy_page_is_not_called_wrong() {
    assert!(encoding_findings(Format::Html, b"<p>caf\xE9 <a href=\"/caf\xE9\">x</a>").is_empty());
    assert!(encoding_findings(Format::Html, "<p>café".as_bytes()).is_empty());
}

#[test]
fn a_legacy_label_on_utf8_bytes_is_the_classic_mislabel() {
    let bytes = "<meta charset=\"iso-8859-1\"><title>Grüße</title>".as_bytes();
    let found = encoding_findings(Format::Html, bytes);
    assert_eq!(found.len(), 1);
    assert!(
        found[0].message.contains("bytes are UTF-8"),
        "{}",
        found[0].message
    );
    let source = Source::decode("t".into(), Format::Html, bytes).unwrap();
    let r = &found[0].related[0];
    assert_eq!(&source.text[r.start.text_offset..r.end.text_offset], "Ã¼ÃŸ");
    // Same label, bytes really in windows-1252: quiet.
    assert!(
        encoding_findings(
            Format::Html,
            b"<meta charset=iso-8859-1><title>Gr\xFC\xDFe</title>"
        )
        .is_empty()
    );
    // A KOI8-R page whose only word happens to be valid UTF-8 (`её` is C5 A3): quiet.
    assert!(encoding_findings(Format::Html, b"<meta charset=koi8-r><p>\xC5\xA3").is_empty());
}

#[test]
fn declarations_that_disagree() {
    let html = b"<meta charset=utf-8><meta http-equiv=Content-Type content='text/html; charset=latin1'><meta charset=UTF8>";
    let found = encoding_findings(Format::Html, html);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].message.contains("says `latin1` (windows-1252)"));
    assert!(
        found[0].related[0]
            .label
            .contains("`<meta charset>` (`utf-8`)")
    );
    // An XHTML `<meta>` against the XML declaration, and against XML's default.
    let xml = b"<?xml version='1.0' encoding='UTF-8'?><html><head><meta http-equiv='Content-Type' content='text/html; charset=Shift_JIS'/></head></html>";
    assert_eq!(
        spans(Format::Xml, xml),
        [(MISMATCH, "Shift_JIS".to_string())]
    );
    let xml = b"<html><head><meta charset='windows-1252'/></head></html>";
    let d = &encoding_findings(Format::Xml, xml)[0];
    assert!(
        d.message
            .contains("without an encoding declaration is UTF-8"),
        "{}",
        d.message
    );
}

#[test]
fn a_meta_beyond_the_prescan_is_reported_unless_it_repeats_the_first() {
    let late = |head: &str| {
        format!(
            "{head}<!-- {} --><meta charset=\"utf-8\">",
            "x".repeat(1100)
        )
    };
    assert_eq!(
        spans(Format::Html, late("").as_bytes()),
        [(MISMATCH, "utf-8".to_string())]
    );
    assert!(encoding_findings(Format::Html, late("<meta charset=utf-8>").as_bytes()).is_empty());
    assert_eq!(
        spans(Format::Html, late("<meta charset=windows-1252>").as_bytes()).len(),
        1
    );
    // Alone and late, on a page of ASCII or of valid UTF-8 that it declares: browsers guess,
    // and read it the same; a warning. Declaring a legacy encoding for non-ASCII: an error.
    let severity = |bytes: &[u8]| {
        encoding_findings(Format::Html, bytes)
            .iter()
            .map(|d| (d.rule, d.severity.name()))
            .collect::<Vec<_>>()
    };
    assert_eq!(severity(late("").as_bytes()), [(MISMATCH, "warning")]);
    let utf8 = format!("<p>café</p>{}", late(""));
    assert_eq!(severity(utf8.as_bytes()), [(MISMATCH, "warning")]);
    let mut cyrillic = format!("<!-- {} -->", "x".repeat(1100)).into_bytes();
    cyrillic.extend_from_slice(b"<meta charset=\"windows-1251\"><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>");
    assert_eq!(severity(&cyrillic), [(MISMATCH, "error")]);
    // A template (a Jinja layout whose licence comment its build strips): no finding at all.
    let jinja = format!("{}{{% block body %}}{{% endblock %}}", late(""));
    assert!(encoding_findings(Format::Html, jinja.as_bytes()).is_empty());
    // In a script beyond the prescan, `<meta>` is text.
    let script = format!(
        "<meta charset=utf-8><p>{}</p><script>x='<meta charset=koi8-r>'</script>",
        "x".repeat(1100)
    );
    assert!(encoding_findings(Format::Html, script.as_bytes()).is_empty());
}

#[test]
fn unknown_and_impossible_labels() {
    assert_eq!(
        spans(Format::Html, b"<meta charset=utf8mb4><p>x"),
        [(MISMATCH, "utf8mb4".to_string())]
    );
    let d = &encoding_findings(Format::Html, b"<meta charset=iso-2022-kr><p>x")[0];
    assert!(d.message.contains("refuse to decode"), "{}", d.message);
    // `replacement` is not used to decode: the page is still checked.
    let source =
        Source::decode("t".into(), Format::Html, b"<meta charset=iso-2022-kr><p>x").unwrap();
    assert!(source.text.ends_with("<p>x"));
    // UTF-16 declared in ASCII bytes: read as UTF-8, reported.
    let source = Source::decode(
        "t".into(),
        Format::Xml,
        b"<?xml version='1.0' encoding='UTF-16'?><a/>",
    )
    .unwrap();
    assert_eq!(source.encoding.used, encoding_rs::UTF_8);
    assert!(source.text.ends_with("<a/>"));
    let d = &encoding_findings(Format::Xml, b"<?xml version='1.0' encoding='UTF-16'?><a/>")[0];
    assert!(d.message.contains("not UTF-16"), "{}", d.message);
    // An unknown label, and bytes that are not UTF-8: two findings, the second saying why UTF-8
    // (the XML declaration, not another declaration, is what XML goes by).
    let found = encoding_findings(
        Format::Xml,
        b"<?xml version='1.0' encoding='MacCyrillic'?><a>\x8C\xEE\xF1\xEA\xE2\xE0</a>",
    );
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].message.contains("`MacCyrillic`"),
        "{}",
        found[0].message
    );
    assert!(
        found[1]
            .message
            .contains("its XML declaration's label `MacCyrillic` is not used"),
        "{}",
        found[1].message
    );
    assert_eq!((found[1].start.line, found[1].start.column), (1, 48));
    let meta_only = encoding_findings(
        Format::Xml,
        b"<html><head><meta charset='klingon'/></head><p>\xE9</p></html>",
    );
    let undecodable = meta_only
        .iter()
        .find(|d| d.message.contains("0xE9"))
        .unwrap();
    assert!(
        undecodable
            .message
            .contains("an XML document without an encoding declaration is UTF-8"),
        "{}",
        undecodable.message
    );
    let replacement = encoding_findings(
        Format::Xml,
        b"<?xml version='1.0' encoding='ISO-2022-KR'?><a>\xE9</a>",
    );
    assert!(
        replacement
            .iter()
            .any(|d| d.message.contains("label `ISO-2022-KR` is not used")),
        "{replacement:?}"
    );
}

#[test]
fn utf8_bytes_in_a_legacy_page_are_found_raw_only() {
    let mut html = b"<meta charset=windows-1252><a href=\"/caf\xE9/".to_vec();
    html.extend("résumé".as_bytes());
    html.extend(b"\"></a><a href=\"/r&#xC3;&#xA9;sum&#xE9;\"></a>");
    let found = encoding_findings(Format::Html, &html);
    let rules: Vec<_> = found.iter().map(|d| d.rule).collect();
    // `é` and `ré…é` in one path: one diagnostic with two places.
    assert_eq!(rules, [LEGACY, MOJIBAKE]);
    assert_eq!(found[0].also.len(), 1);
    let help = found[0].help.as_deref().unwrap();
    assert!(help.contains("meant to read `résumé`"), "{help}");
    assert!(help.contains("`r&#xE9;sum&#xE9;`"), "{help}");
    let source = Source::decode("t".into(), Format::Html, &html).unwrap();
    let under = |d: &Diagnostic| &source.text[d.start.text_offset..d.end.text_offset];
    assert_eq!(under(&found[0]), "Ã©");
    assert_eq!(
        under(&found[1]),
        "&#xC3;&#xA9;",
        "the references, underlined whole"
    );
}

#[test]
fn pasted_utf8_in_shift_jis_and_euc_jp_pages() {
    for (label, encoding) in [
        ("shift_jis", encoding_rs::SHIFT_JIS),
        ("euc-jp", encoding_rs::EUC_JP),
    ] {
        let mut html = format!("<meta charset={label}><a href=\"/").into_bytes();
        html.extend(encoding.encode("日本語/ファイル").0.iter());
        html.extend(b"\"></a><a href=\"/");
        html.extend("東京タワー".as_bytes());
        html.extend(b"\"></a>");
        let found = encoding_findings(Format::Html, &html);
        let legacy: Vec<_> = found.iter().filter(|d| d.rule == LEGACY).collect();
        assert_eq!(legacy.len(), 1, "{label}: {found:?}");
        assert!(
            legacy[0].help.as_deref().unwrap().contains("`東京タワー`"),
            "{label}"
        );
    }
}

#[test]
fn mojibake_in_utf8_and_quiet_real_text() {
    let found = spans(
        Format::Text,
        "https://a.example/rÃ©sumÃ© https://a.example/São/Ação/À/Þórsmörk/Größe".as_bytes(),
    );
    assert_eq!(
        found,
        [(MOJIBAKE, "Ã©".to_string()), (MOJIBAKE, "Ã©".to_string())]
    );
    // The same IRI checked on its own.
    let alone = rules::check("https://a.example/rÃ©sumÃ©", &Selection::default());
    assert_eq!(alone.iter().filter(|f| f.rule.id == MOJIBAKE).count(), 2);
    // ASCII and `xn--` IRIs have nothing to say.
    assert!(rules::check("http://xn--caf-dma.example/", &Selection::default()).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_bytes_in_any_format_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..300),
        head in prop_oneof![
            Just(&b""[..]),
            Just(&b"<meta charset=shift_jis>"[..]),
            Just(&b"<meta charset=euc-jp><a href=\""[..]),
            Just(&b"\xEF\xBB\xBF<?xml version='1.0' encoding='koi8-r'?><a href='"[..]),
            Just(&b"\xFF\xFE<\0a\0 \0"[..]),
            Just(&b"<meta charset=windows-1252><a href=\"http://a/"[..]),
            Just(&b"<meta charset=windows-1258><a href=\"http://a/\xEA\xEC"[..]),
        ],
    ) {
        let mut doc = head.to_vec();
        doc.extend(bytes);
        for format in Format::ALL {
            if let Ok(source) = Source::decode("t".into(), format, &doc) {
                let selection = Selection::all();
                let options = CheckOptions::new(&selection);
                let _ = check_source(&source, &options);
            }
        }
    }
}
