//! Rules on Unicode normalization (RFC 3987 §5.3.2.2, §3.1).

use std::ops::Range;

use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use super::{Check, InDocument, IriCheck, Rule, Severity, Sink, describe_chars, encoding};
use crate::iri::Component;
use crate::iri::chars::{Piece, is_sub_delim, is_unreserved, pieces};
use crate::iri::percent;
use crate::iri_fix::{Applicability, IriFix};

/// `not-nfc`: the IRI differs from its NFC form.
pub const NOT_NFC: Rule = Rule {
    id: "not-nfc",
    group: "normalization",
    severity: Severity::Warning,
    rfc: &["5.3.2.2", "3.1"],
    doc: include_str!("../../rules/not-nfc.md"),
    unicode_only: true,
    check: Check::Iri(check_nfc),
};

/// `not-nfkc`.
pub const NOT_NFKC: Rule = Rule {
    id: "not-nfkc",
    group: "normalization",
    severity: Severity::Warning,
    rfc: &["7.5", "5.3.2.2"],
    doc: include_str!("../../rules/not-nfkc.md"),
    unicode_only: true,
    check: Check::Iri(check_nfkc),
};

/// Characters whose NFKC form differs from their NFC form but which are ordinary letters or
/// punctuation of their writing system, so `not-nfkc` leaves them alone.
fn is_ordinary_compatibility_char(c: char) -> bool {
    matches!(
        c,
        // THAI CHARACTER SARA AM, LAO VOWEL SIGN AM: in everyday Thai and Lao words (`น้ำ`).
        '\u{0E33}' | '\u{0EB3}'
        // LAO HO NO, LAO HO MO: letters of the Lao alphabet.
        | '\u{0EDC}' | '\u{0EDD}'
        // ARMENIAN SMALL LIGATURE ECH YIWN: a letter of Eastern Armenian spelling (`և`, "and").
        | '\u{0587}'
        // TIBETAN MARK DELIMITER TSHEG BSTAR: the non-breaking tsheg of Tibetan text.
        | '\u{0F0C}'
        // TIFINAGH MODIFIER LETTER LABIALIZATION MARK: written in standard Tamazight (`ⴳⵯ`).
        | '\u{2D6F}'
        // HANGUL COMPATIBILITY JAMO: how Korean writes a lone jamo (`ㅋㅋ`, `ㄱ`).
        | '\u{3131}'..='\u{318E}'
    )
}

/// True when `c` (followed by `next`) is an emoji: the emoji presentation sequence
/// `™\u{FE0F}` (with U+FE0F), or a squared or circled ideograph of U+1F200–U+1F2FF that displays
/// as an emoji (`🈚`). Its author chose the emoji, not a variant of `TM` or `無`.
fn is_emoji(c: char, next: Option<char>) -> bool {
    super::invisible::is_extended_pictographic(c)
        && (next == Some('\u{FE0F}') || ('\u{1F200}'..='\u{1F2FF}').contains(&c))
}

/// True when NFKC changes `c` beyond what NFC does (and `not-nfkc` reports it, unless another
/// rule does: see [`is_reported_elsewhere`]).
fn is_compatibility_char(c: char) -> bool {
    has_compatibility_mapping(c) && !is_ordinary_compatibility_char(c)
}

/// True when NFKC(`c`) ≠ NFC(`c`): a bit of [`COMPATIBILITY_LOW`] below U+0800, above it a
/// lookup in [`COMPATIBILITY`], with most of the BMP rejected by [`COMPATIBILITY_BLOCKS`] first
/// (CJK ideographs, Hangul syllables, ...).
fn has_compatibility_mapping(c: char) -> bool {
    let u = c as u32;
    if u < 0x800 {
        return COMPATIBILITY_LOW[(u >> 6) as usize] >> (u & 63) & 1 == 1;
    }
    if u < 0x10000 && COMPATIBILITY_BLOCKS[(u >> 14) as usize] >> ((u >> 8) & 63) & 1 == 0 {
        return false;
    }
    super::range_index(COMPATIBILITY, u, |&r| r).is_some()
}

/// One bit per code point below U+0800 (Latin to Arabic, where most non-ASCII text of IRIs is):
/// set for the characters of [`COMPATIBILITY`], found without a search.
static COMPATIBILITY_LOW: [u64; 32] = {
    let mut bits = [0u64; 32];
    let mut k = 0;
    while k < COMPATIBILITY.len() {
        let (lo, hi) = COMPATIBILITY[k];
        let mut u = lo;
        while u <= hi && u < 0x800 {
            bits[(u >> 6) as usize] |= 1 << (u & 63);
            u += 1;
        }
        k += 1;
    }
    bits
};

/// One bit per 256-code-point block of the BMP: set when the block holds a character of
/// [`COMPATIBILITY`].
static COMPATIBILITY_BLOCKS: [u64; 4] = {
    let mut bits = [0u64; 4];
    let mut k = 0;
    while k < COMPATIBILITY.len() {
        let (lo, hi) = COMPATIBILITY[k];
        let mut b = lo >> 8;
        while b <= hi >> 8 && b < 256 {
            bits[(b >> 6) as usize] |= 1 << (b & 63);
            b += 1;
        }
        k += 1;
    }
    bits
};

/// Delimiter look-alikes (`confusable-delimiter`) and invisible characters (the Hangul fillers,
/// `invisible-character`) are reported by their own rules.
fn is_reported_elsewhere(before: &str, c: char, after: &str, host: bool) -> bool {
    super::invisible::is_invisible(c) || super::delimiter::reports(before, c, after, host)
}

fn check_nfkc(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let text = input.text;
    // The common path: no compatibility character, no allocation.
    if !text.chars().any(is_compatibility_char) {
        return;
    }
    // A mail domain is a name as a host is (`confusable-delimiter` reports its wide dots).
    let mail_domains = super::delimiter::mail_domains(input);
    for part in super::parts(input.text, input.iri) {
        let s = &text[part.range.clone()];
        // Each run is reported as soon as it ends: a component of a million runs holds one.
        let mut run: Option<Range<usize>> = None;
        for (i, c) in s.char_indices() {
            let after = &s[i + c.len_utf8()..];
            let at = part.range.start + i;
            let host =
                part.component == Component::Host || mail_domains.iter().any(|d| d.contains(&at));
            if !is_compatibility_char(c)
                || is_emoji(c, after.chars().next())
                || is_reported_elsewhere(&s[..i], c, after, host)
            {
                continue;
            }
            let (start, end) = (at, at + c.len_utf8());
            match &mut run {
                Some(r) if r.end == start => r.end = end,
                _ => {
                    if let Some(done) = run.replace(start..end) {
                        report_nfkc(sink, text, done, part.component);
                    }
                }
            }
        }
        if let Some(done) = run {
            report_nfkc(sink, text, done, part.component);
        }
    }
}

fn report_nfkc(sink: &mut Sink<'_>, text: &str, range: Range<usize>, component: Component) {
    let run = &text[range.clone()];
    // The message quotes the NFKC form shortened, built from the run's ends only; the fix holds
    // it whole, when it fits (`MAX_FIX_BYTES`).
    let nfkc = super::shorten_mapped(run, |s| s.nfkc().collect());
    let literal = super::shorten_mapped(run, |s| {
        literal_in(&s.nfkc().collect::<String>(), component)
    });
    let count = run.chars().count();
    let (noun, pronoun) = if count == 1 {
        ("compatibility character".to_string(), "it")
    } else {
        (format!("{count} compatibility characters"), "them")
    };
    let message = format!(
        "{noun} {} in the {component}: NFKC replaces {pronoun} with `{nfkc}`",
        describe_chars(run),
    );
    let write = if literal == nfkc {
        format!("write `{nfkc}` (the NFKC form) instead")
    } else {
        format!(
            "write `{literal}` instead (the NFKC form, with the characters that would change the IRI's structure percent-encoded)",
        )
    };
    let host_note = if component == Component::Host {
        " (browsers map a host to its NFKC form by UTS #46, other clients do not)"
    } else {
        ""
    };
    // RFC 3987 §7.5: a query may search for a word with the ligature on purpose.
    let severity = if component == Component::Query {
        Severity::Info
    } else {
        sink.severity()
    };
    sink.report_as(
        severity,
        range.clone(),
        message,
        Some(format!(
            "{write}: compatibility characters are variants of ordinary characters, so the IRI can be confused with the one written with the NFKC form; replacing {pronoun} changes which resource the IRI names{host_note}"
        )),
    );
    let replacement = super::collect_for_fix(run.nfkc())
        .map(|nfkc| literal_in(&nfkc, component))
        .filter(|r| super::fix_fits(r.len()));
    if let Some(replacement) = replacement {
        sink.attach_fix(IriFix::replace(
            Applicability::Unsafe,
            format!("replace with the NFKC form `{literal}`"),
            range,
            replacement,
        ));
    }
}

/// `s` with the ASCII characters that may not appear literally in `component` (or would split
/// it: `/` in a path segment, `&` in a query parameter) percent-encoded.
fn literal_in(s: &str, component: Component) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let keep = match c {
            c if !c.is_ascii() => true,
            c if is_unreserved(c as u8) => true,
            '&' | ';' | '=' => component != Component::Query && is_sub_delim(c as u8),
            c if is_sub_delim(c as u8) => true,
            ':' => !matches!(component, Component::Host),
            '@' => !matches!(component, Component::Host | Component::Userinfo),
            '/' | '?' => matches!(component, Component::Query | Component::Fragment),
            _ => false,
        };
        if keep {
            out.push(c);
        } else {
            percent::push_encoded(c, &mut out);
        }
    }
    out
}

/// True when normalization cannot carry across the boundary before `c`: a starter that is
/// NFC_Quick_Check=Yes neither reorders nor composes with what precedes it.
fn is_stable_boundary(c: char) -> bool {
    canonical_combining_class(c) == 0 && is_nfc_quick(std::iter::once(c)) == IsNormalized::Yes
}

/// Byte ranges of the maximal runs of `text` whose NFC form differs from them.
/// True when every character of `text` is below U+0300 (no UTF-8 byte of 0xCC or more): such
/// text is NFC, since every character there has NFC_Quick_Check=Yes and combining class 0. One
/// byte scan instead of a table lookup per character.
fn below_combining_marks(text: &str) -> bool {
    text.bytes().all(|b| b < 0xCC)
}

/// The NFC quick check of `text`, answered at once when every character past ASCII is a starter
/// that is always NFC (`props::nfc_inert`, a table lookup): ASCII characters are too, and runs
/// of ASCII are passed over at once.
fn nfc_quick_past_ascii(text: &str) -> IsNormalized {
    let all_inert = pieces(text).all(|p| match p {
        Piece::Ascii(..) => true,
        Piece::Char(_, c) => crate::iri::props::nfc_inert(c),
    });
    if all_inert {
        IsNormalized::Yes
    } else {
        is_nfc_quick(text.chars())
    }
}

pub(crate) fn non_nfc_runs(text: &str) -> Vec<Range<usize>> {
    if below_combining_marks(text) || nfc_quick_past_ascii(text) == IsNormalized::Yes {
        return Vec::new();
    }
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut check = |seg: Range<usize>| {
        let s = &text[seg.clone()];
        // Compared as streams, never collected: a segment is one starter and every non-starter
        // after it, which an attacker can make a megabyte of combining marks long.
        let prefix = s.chars().zip(s.nfc()).take_while(|(a, b)| a == b).count();
        let (n, n_nfc) = (s.chars().count(), s.nfc().count());
        if prefix == n && n == n_nfc {
            return;
        }
        // Narrow the segment to the characters normalization changes: the longest common
        // suffix, found by walking both streams aligned at their ends.
        let max_suffix = n.min(n_nfc) - prefix;
        let mut suffix = 0;
        for (a, b) in s
            .chars()
            .skip(n - n.min(n_nfc))
            .zip(s.nfc().skip(n_nfc - n.min(n_nfc)))
        {
            suffix = if a == b { suffix + 1 } else { 0 };
        }
        let suffix = suffix.min(max_suffix);
        let at = |k: usize| seg.start + s.char_indices().nth(k).map_or(s.len(), |(i, _)| i);
        let (start, end) = match (at(prefix), at(n - suffix)) {
            (start, end) if start < end => (start, end),
            _ => (seg.start, seg.end),
        };
        match out.last_mut() {
            Some(last) if last.end == start => last.end = end,
            _ => out.push(start..end),
        }
    };
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if i > start && is_stable_boundary(c) {
            check(start..i);
            start = i;
        }
    }
    if start < text.len() {
        check(start..text.len());
    }
    out
}

/// The runs of `text` that are not in NFC, each with whether its reader normalizes it. RFC
/// 3987 §3.1 step 1b: text in a legacy encoding becomes an IRI by conversion to the UCS
/// *normalized according to NFC*. Characters written as they stand in such a document are
/// therefore normalized by whoever reads them, not by its author: windows-1258 writes
/// Vietnamese `ế` as `ê` + U+0301, and the page is right to. Characters written as references or
/// escapes are the author's own.
fn non_nfc_runs_as_read(
    text: &str,
    origin: Option<InDocument<'_>>,
) -> impl Iterator<Item = (Range<usize>, bool)> {
    let legacy = origin.filter(|o| encoding::is_legacy(o.source.encoding.used));
    non_nfc_runs(text).into_iter().map(move |run| {
        let by_reader = legacy.is_some_and(|o| encoding::written_raw(&o, &run));
        (run, by_reader)
    })
}

/// The IRI of `origin` as §3.1 step 1b reads it out of a legacy document (see
/// [`non_nfc_runs_as_read`]); `None` when that changes nothing, as for every UTF-8 and UTF-16
/// document.
pub(super) fn legacy_nfc(origin: InDocument<'_>) -> Option<String> {
    let text: &str = &origin.occurrence.iri;
    if text.is_ascii() {
        return None;
    }
    let mut out = String::new();
    let mut from = 0;
    for (run, _) in non_nfc_runs_as_read(text, Some(origin)).filter(|(_, by_reader)| *by_reader) {
        out.push_str(&text[from..run.start]);
        out.extend(text[run.clone()].nfc());
        from = run.end;
    }
    (from > 0).then(|| out + &text[from..])
}

fn check_nfc(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    for (range, by_reader) in non_nfc_runs_as_read(input.text, input.origin) {
        if by_reader {
            continue;
        }
        let run = &input.text[range.clone()];
        let nfc = super::shorten_mapped(run, |s| s.nfc().collect());
        let component = input
            .iri
            .component_at(range.start)
            .map_or("IRI".to_string(), |c| format!("{c}"));
        sink.report(
            range.clone(),
            format!(
                "the {component} is not in Unicode Normalization Form C: {} normalizes to {}",
                describe_chars(run),
                super::describe_chars_of(run.nfc())
            ),
            Some(format!(
                "write `{nfc}` (NFC) instead; a non-NFC IRI maps to a different URI than its NFC twin, so the link may not resolve",
            )),
        );
        // Unsafe: NFC and NFD spellings map to different URIs (§3.1 step 1c).
        if let Some(replacement) = super::collect_for_fix(run.nfc()) {
            sink.attach_fix(IriFix::replace(
                Applicability::Unsafe,
                format!("normalize to NFC: `{nfc}`"),
                range,
                replacement,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_below_u0300_is_nfc() {
        use unicode_normalization::char::canonical_combining_class;
        for c in '\0'..'\u{300}' {
            assert!(below_combining_marks(c.encode_utf8(&mut [0; 4])));
            assert_eq!(is_nfc_quick(std::iter::once(c)), IsNormalized::Yes, "{c:?}");
            assert_eq!(canonical_combining_class(c), 0, "{c:?}");
        }
        assert!(!below_combining_marks("e\u{301}") && !below_combining_marks("\u{AC00}"));
    }

    #[test]
    fn runs_cover_exactly_the_decomposed_characters() {
        let t = "caf\u{65}\u{301}/na\u{308}ive";
        let runs = non_nfc_runs(t);
        assert_eq!(runs.len(), 2);
        assert_eq!(&t[runs[0].clone()], "e\u{301}");
        assert_eq!(&t[runs[1].clone()], "a\u{308}");
        assert!(non_nfc_runs("café/日本語/한국어").is_empty());
    }

    #[test]
    fn singleton_decompositions_and_hangul_jamo() {
        // U+212B ANGSTROM SIGN normalizes to U+00C5.
        assert_eq!(non_nfc_runs("x\u{212B}y"), vec![(1..4)]);
        // Conjoining jamo compose to a syllable.
        let t = "\u{1100}\u{1161}";
        assert_eq!(non_nfc_runs(t), vec![(0..t.len())]);
    }
}

/// The characters whose NFKC form differs from their NFC form (Unicode 18.0, the data of
/// `unicode-normalization` 0.1.26), as sorted ranges. Generated; `nfkc_tests` re-derives it.
#[rustfmt::skip]
static COMPATIBILITY: &[(u32, u32)] = &[
    (0xA0, 0xA0), (0xA8, 0xA8), (0xAA, 0xAA), (0xAF, 0xAF), (0xB2, 0xB5), (0xB8, 0xBA),
    (0xBC, 0xBE), (0x132, 0x133), (0x13F, 0x140), (0x149, 0x149), (0x17F, 0x17F), (0x1C4, 0x1CC),
    (0x1F1, 0x1F3), (0x2B0, 0x2B8), (0x2D8, 0x2DD), (0x2E0, 0x2E4), (0x37A, 0x37A), (0x384, 0x385),
    (0x3D0, 0x3D6), (0x3F0, 0x3F2), (0x3F4, 0x3F5), (0x3F9, 0x3F9), (0x558, 0x558), (0x587, 0x587),
    (0x58B, 0x58C), (0x675, 0x678), (0xE33, 0xE33), (0xEB3, 0xEB3), (0xEDC, 0xEDD), (0xF0C, 0xF0C),
    (0xF77, 0xF77), (0xF79, 0xF79), (0x10FC, 0x10FC), (0x1D2C, 0x1D2E), (0x1D30, 0x1D3A),
    (0x1D3C, 0x1D4D), (0x1D4F, 0x1D6A), (0x1D78, 0x1D78), (0x1D9B, 0x1DBF), (0x1E9A, 0x1E9B),
    (0x1FBD, 0x1FBD), (0x1FBF, 0x1FC1), (0x1FCD, 0x1FCF), (0x1FDD, 0x1FDF), (0x1FED, 0x1FEE),
    (0x1FFD, 0x1FFE), (0x2000, 0x200A), (0x2011, 0x2011), (0x2017, 0x2017), (0x2024, 0x2026),
    (0x202F, 0x202F), (0x2033, 0x2034), (0x2036, 0x2037), (0x203C, 0x203C), (0x203E, 0x203E),
    (0x2047, 0x2049), (0x2057, 0x2057), (0x205F, 0x205F), (0x2070, 0x2071), (0x2074, 0x208E),
    (0x2090, 0x209F), (0x20A8, 0x20A8), (0x2100, 0x2103), (0x2105, 0x2107), (0x2109, 0x2113),
    (0x2115, 0x2116), (0x2119, 0x211D), (0x2120, 0x2122), (0x2124, 0x2124), (0x2128, 0x2128),
    (0x212C, 0x212D), (0x212F, 0x2131), (0x2133, 0x2139), (0x213B, 0x2140), (0x2145, 0x2149),
    (0x2150, 0x217F), (0x2189, 0x2189), (0x222C, 0x222D), (0x222F, 0x2230), (0x2460, 0x24EA),
    (0x2A0C, 0x2A0C), (0x2A74, 0x2A76), (0x2C7C, 0x2C7D), (0x2D6F, 0x2D6F), (0x2E9F, 0x2E9F),
    (0x2EF3, 0x2EF3), (0x2F00, 0x2FD5), (0x3000, 0x3000), (0x3036, 0x3036), (0x3038, 0x303A),
    (0x309B, 0x309C), (0x309F, 0x309F), (0x30FF, 0x30FF), (0x3131, 0x318E), (0x3192, 0x319F),
    (0x3200, 0x321E), (0x3220, 0x3247), (0x3250, 0x327E), (0x3280, 0x33FF), (0xA69C, 0xA69D),
    (0xA770, 0xA770), (0xA7F1, 0xA7F4), (0xA7F8, 0xA7F9), (0xAB5C, 0xAB5F), (0xAB69, 0xAB69),
    (0xFB00, 0xFB06), (0xFB13, 0xFB17), (0xFB20, 0xFB29), (0xFB4F, 0xFBB1), (0xFBD3, 0xFD3D),
    (0xFD50, 0xFD8F), (0xFD92, 0xFDC7), (0xFDF0, 0xFDFC), (0xFE10, 0xFE19), (0xFE30, 0xFE44),
    (0xFE47, 0xFE52), (0xFE54, 0xFE66), (0xFE68, 0xFE6B), (0xFE70, 0xFE72), (0xFE74, 0xFE74),
    (0xFE76, 0xFEFC), (0xFF01, 0xFFBE), (0xFFC2, 0xFFC7), (0xFFCA, 0xFFCF), (0xFFD2, 0xFFD7),
    (0xFFDA, 0xFFDC), (0xFFE0, 0xFFE6), (0xFFE8, 0xFFEE), (0x10781, 0x10785), (0x10787, 0x107B0),
    (0x107B2, 0x107BF), (0x1B123, 0x1B126), (0x1CCD6, 0x1CCF9), (0x1D400, 0x1D454),
    (0x1D456, 0x1D49C), (0x1D49E, 0x1D49F), (0x1D4A2, 0x1D4A2), (0x1D4A5, 0x1D4A6),
    (0x1D4A9, 0x1D4AC), (0x1D4AE, 0x1D4B9), (0x1D4BB, 0x1D4BB), (0x1D4BD, 0x1D4C3),
    (0x1D4C5, 0x1D505), (0x1D507, 0x1D50A), (0x1D50D, 0x1D514), (0x1D516, 0x1D51C),
    (0x1D51E, 0x1D539), (0x1D53B, 0x1D53E), (0x1D540, 0x1D544), (0x1D546, 0x1D546),
    (0x1D54A, 0x1D550), (0x1D552, 0x1D6A6), (0x1D6A8, 0x1D7CB), (0x1D7CE, 0x1D7FF),
    (0x1DF95, 0x1DF95), (0x1DFCD, 0x1DFFF), (0x1E030, 0x1E06D), (0x1EE00, 0x1EE03),
    (0x1EE05, 0x1EE1F), (0x1EE21, 0x1EE22), (0x1EE24, 0x1EE24), (0x1EE27, 0x1EE27),
    (0x1EE29, 0x1EE32), (0x1EE34, 0x1EE37), (0x1EE39, 0x1EE39), (0x1EE3B, 0x1EE3B),
    (0x1EE42, 0x1EE42), (0x1EE47, 0x1EE47), (0x1EE49, 0x1EE49), (0x1EE4B, 0x1EE4B),
    (0x1EE4D, 0x1EE4F), (0x1EE51, 0x1EE52), (0x1EE54, 0x1EE54), (0x1EE57, 0x1EE57),
    (0x1EE59, 0x1EE59), (0x1EE5B, 0x1EE5B), (0x1EE5D, 0x1EE5D), (0x1EE5F, 0x1EE5F),
    (0x1EE61, 0x1EE62), (0x1EE64, 0x1EE64), (0x1EE67, 0x1EE6A), (0x1EE6C, 0x1EE72),
    (0x1EE74, 0x1EE77), (0x1EE79, 0x1EE7C), (0x1EE7E, 0x1EE7E), (0x1EE80, 0x1EE89),
    (0x1EE8B, 0x1EE9B), (0x1EEA1, 0x1EEA3), (0x1EEA5, 0x1EEA9), (0x1EEAB, 0x1EEBB),
    (0x1F100, 0x1F10A), (0x1F110, 0x1F12E), (0x1F130, 0x1F14F), (0x1F16A, 0x1F16C),
    (0x1F190, 0x1F190), (0x1F200, 0x1F202), (0x1F210, 0x1F23B), (0x1F240, 0x1F248),
    (0x1F250, 0x1F251), (0x1FBF0, 0x1FBF9),
];

#[cfg(test)]
mod nfkc_tests {
    use super::*;

    #[test]
    fn compatibility_characters() {
        for c in [
            '\u{FB01}', '\u{FF21}', '\u{FF76}', '\u{B2}', '\u{2460}', '\u{337F}', '\u{2026}',
            '\u{FF0F}', '\u{FF61}', '\u{FFA0}',
        ] {
            assert!(is_compatibility_char(c), "U+{:04X}", c as u32);
        }
        // Ordinary letters of their scripts, and characters NFC already changes.
        for c in [
            '\u{0E33}', '\u{0587}', '\u{314B}', '\u{212B}', '\u{301}', 'a', '\u{30FC}',
        ] {
            assert!(!is_compatibility_char(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn table_is_derived_from_the_normalization_data() {
        let mut derived: Vec<(u32, u32)> = Vec::new();
        for c in '\u{0}'..=char::MAX {
            let differs = !std::iter::once(c).nfkc().eq(std::iter::once(c).nfc());
            // The block filter of the lookup never hides a character.
            assert_eq!(has_compatibility_mapping(c), differs, "U+{:04X}", c as u32);
            if differs {
                let u = c as u32;
                match derived.last_mut() {
                    Some(r) if r.1 + 1 == u => r.1 = u,
                    _ => derived.push((u, u)),
                }
            }
        }
        assert_eq!(derived, COMPATIBILITY);
    }

    #[test]
    fn left_to_other_rules() {
        // Delimiter look-alikes go to `confusable-delimiter`, invisible characters to
        // `invisible-character`.
        assert!(is_reported_elsewhere("a", '\u{FF0F}', "b", false));
        assert!(is_reported_elsewhere("a", '\u{FFA0}', "b", false));
        // U+FF61 is a label separator only in a host.
        assert!(is_reported_elsewhere("a", '\u{FF61}', "b", true));
        assert!(!is_reported_elsewhere("a", '\u{FF61}', "b", false));
        // A Kangxi radical that looks like '/' in Han text is no delimiter look-alike there, but
        // still a compatibility character.
        assert!(!is_reported_elsewhere("漢", '\u{2F03}', "字", false));
        assert!(is_reported_elsewhere("a", '\u{2F03}', "b", false));
    }

    #[test]
    fn literal_forms() {
        assert_eq!(literal_in("c/o", Component::Path), "c%2Fo");
        assert_eq!(literal_in("c/o", Component::Query), "c/o");
        assert_eq!(literal_in("a&b", Component::Query), "a%26b");
        assert_eq!(literal_in("a b", Component::Fragment), "a%20b");
        assert_eq!(literal_in("fi", Component::Host), "fi");
    }
}
