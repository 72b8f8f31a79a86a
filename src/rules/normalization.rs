//! Rules on Unicode normalization (RFC 3987 §5.3.2.2, §3.1).

use std::ops::Range;

use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use super::{Check, IriCheck, Rule, Severity, Sink, describe_chars};
use crate::iri::chars::escape_unsafe;

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
    rfc: &["5.3.2.2", "7.5"],
    doc: include_str!("../../rules/not-nfkc.md"),
    unicode_only: true,
    check: Check::Iri(check_nfkc),
};

fn check_nfkc(_input: &IriCheck<'_>, _sink: &mut Sink<'_>) {}

/// True when normalization cannot carry across the boundary before `c`: a starter that is
/// NFC_Quick_Check=Yes neither reorders nor composes with what precedes it.
fn is_stable_boundary(c: char) -> bool {
    canonical_combining_class(c) == 0 && is_nfc_quick(std::iter::once(c)) == IsNormalized::Yes
}

/// Byte ranges of the maximal runs of `text` whose NFC form differs from them.
pub(crate) fn non_nfc_runs(text: &str) -> Vec<Range<usize>> {
    if is_nfc_quick(text.chars()) == IsNormalized::Yes {
        return Vec::new();
    }
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut check = |seg: Range<usize>| {
        let s = &text[seg.clone()];
        let nfc: Vec<char> = s.nfc().collect();
        let orig: Vec<(usize, char)> = s.char_indices().collect();
        if nfc.iter().eq(orig.iter().map(|(_, c)| c)) {
            return;
        }
        // Narrow the segment to the characters normalization changes.
        let prefix = orig
            .iter()
            .zip(&nfc)
            .take_while(|((_, a), b)| a == *b)
            .count();
        let max_suffix = orig.len().min(nfc.len()) - prefix;
        let suffix = orig
            .iter()
            .rev()
            .zip(nfc.iter().rev())
            .take(max_suffix)
            .take_while(|((_, a), b)| a == *b)
            .count();
        let at = |k: usize| seg.start + orig.get(k).map_or(s.len(), |(i, _)| *i);
        let (start, end) = match (at(prefix), at(orig.len() - suffix)) {
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

fn check_nfc(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    for range in non_nfc_runs(input.text) {
        let run = &input.text[range.clone()];
        let nfc: String = run.nfc().collect();
        let component = input
            .iri
            .component_at(range.start)
            .map_or("IRI".to_string(), |c| format!("{c}"));
        sink.report(
            range,
            format!(
                "the {component} is not in Unicode Normalization Form C: {} normalizes to {}",
                describe_chars(run),
                describe_chars(&nfc)
            ),
            Some(format!(
                "write `{}` (NFC) instead; a non-NFC IRI maps to a different URI than its NFC twin, so the link may not resolve",
                escape_unsafe(&nfc)
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
