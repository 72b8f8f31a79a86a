//! Characters that look like URL delimiters (RFC 3987 §6.1).
//!
//! [`DELIMITER_LOOKALIKES`] is every character that UTS #39 confusables.txt (Unicode 18.0, as
//! compiled into `unicode-security` 0.1.3) makes a look-alike of `/ . : ? # @ % = &` — its
//! skeleton equals the delimiter's — except letters, digits and marks, which are text in their
//! own script (Katakana `ノ`, Arabic-Indic zero `٠`). A test re-derives it from the crate.
//!
//! Severity: an error, except U+3002 IDEOGRAPHIC FULL STOP, U+FF0E FULLWIDTH FULL STOP and
//! U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP in a host (UTS #46 label separators that RFC 3986
//! parsers do not split at: a warning), and a fullwidth form next to CJK text outside the host
//! (its ordinary punctuation: a warning). A script's own punctuation between letters of that
//! script outside the host (Armenian `։`, Arabic `٪` after Arabic-Indic digits) is not reported.

use std::ops::Range;

use unicode_script::{Script, ScriptExtension, UnicodeScript};

use super::{Check, IriCheck, Part, PartCursor, Rule, Severity, Sink, parts, shorten_escaped};
use crate::iri::Component;
use crate::iri::chars::describe;
use crate::iri::percent;
use crate::iri_fix::{Applicability, IriFix};

/// `confusable-delimiter`.
pub const CONFUSABLE_DELIMITER: Rule = Rule {
    id: "confusable-delimiter",
    group: "lookalike",
    severity: Severity::Error,
    rfc: &["6.1", "7.5"],
    doc: include_str!("../../rules/confusable-delimiter.md"),
    unicode_only: true,
    check: Check::Iri(check_delimiters),
};

/// The delimiter `c` looks like, if any (see [`DELIMITER_LOOKALIKES`]).
pub(super) fn lookalike_of(c: char) -> Option<char> {
    if c.is_ascii() {
        return None;
    }
    DELIMITER_LOOKALIKES
        .binary_search_by_key(&c, |&(l, _)| l)
        .ok()
        .map(|k| DELIMITER_LOOKALIKES[k].1 as char)
}

/// Full stops that UTS #46 (and IDNA2003, RFC 3490 §3.1) map to `.` in a domain name.
fn is_uts46_dot(c: char) -> bool {
    matches!(c, '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// True when this rule may report `c` (the quick scan): most of the BMP is rejected by
/// [`CANDIDATE_BLOCKS`] before the table lookup.
fn is_candidate(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 || (u < 0x10000 && CANDIDATE_BLOCKS[(u >> 14) as usize] >> ((u >> 8) & 63) & 1 == 0)
    {
        return false;
    }
    lookalike_of(c).is_some() || is_uts46_dot(c)
}

/// One bit per 256-code-point block of the BMP: set when the block holds a look-alike or a
/// UTS #46 full stop.
static CANDIDATE_BLOCKS: [u64; 4] = {
    let mut bits = [0u64; 4];
    let mut k = 0;
    while k <= DELIMITER_LOOKALIKES.len() {
        let u = if k < DELIMITER_LOOKALIKES.len() {
            DELIMITER_LOOKALIKES[k].0 as u32
        } else {
            0x3002 // U+FF0E and U+FF61 are in the block of U+FF0F
        };
        if u < 0x10000 {
            let b = u >> 8;
            bits[(b >> 6) as usize] |= 1 << (b & 63);
        }
        k += 1;
    }
    bits
};

/// What this rule does with a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// A UTS #46 label separator in a host: a warning.
    LabelSeparator,
    /// A look-alike of the delimiter; `cjk` when it is a full-width form in CJK text (a
    /// warning).
    LooksLike { delimiter: char, cjk: bool },
}

/// The verdict on `c` between `before` and `after` in its component (`host` for a host
/// label); `None` when it is not reported.
fn verdict(before: &str, c: char, after: &str, host: bool) -> Option<Verdict> {
    if host && is_uts46_dot(c) {
        return Some(Verdict::LabelSeparator);
    }
    // U+3002 and U+FF61 outside the host: ordinary CJK punctuation.
    let delimiter = lookalike_of(c)?;
    let (prev, next) = (before.chars().next_back(), after.chars().next());
    if !host && (shares_script(c, prev) || shares_script(c, next)) {
        return None;
    }
    let cjk = !host
        && matches!(c, '\u{FE10}'..='\u{FE6F}' | '\u{FF00}'..='\u{FFEF}')
        && (is_cjk(prev) || is_cjk(next));
    Some(Verdict::LooksLike { delimiter, cjk })
}

/// A UTS #46 full stop in a name: a warning, fixed (unsafely: the name changes for the clients
/// that do not map it) by writing `.`.
fn report_label_separator(sink: &mut Sink<'_>, range: Range<usize>, message: String) {
    sink.report_as(
        Severity::Warning,
        range.clone(),
        message,
        Some("write '.' instead".to_string()),
    );
    sink.attach_fix(IriFix::replace(
        Applicability::Unsafe,
        "replace with '.'",
        range,
        ".",
    ));
}

/// The domains of a `mailto:` IRI's addresses: names, as a host is, to mail software, where a
/// UTS #46 full stop separates labels as it does in a host.
pub(crate) fn mail_domains(input: &IriCheck<'_>) -> Vec<Range<usize>> {
    let mut domains = Vec::new();
    let scheme = input.iri.scheme.as_ref().map(|r| &input.text[r.clone()]);
    if scheme.is_some_and(|s| s.eq_ignore_ascii_case("mailto")) {
        super::idn::for_each_mail_domain(input, |_, domain| domains.push(domain));
    }
    domains
}

/// True when this rule reports `c` between `before` and `after` (`host` for a host label):
/// `not-nfkc` leaves those characters to it.
pub(crate) fn reports(before: &str, c: char, after: &str, host: bool) -> bool {
    is_candidate(c) && verdict(before, c, after, host).is_some()
}

fn check_delimiters(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let text = input.text;
    // The common path: no look-alike, no allocation.
    let Some((first, _)) = text.char_indices().find(|&(_, c)| is_candidate(c)) else {
        return;
    };
    // The candidates come in order: a cursor over the parts, not a search for each.
    let mut parts = PartCursor::new(parts(text, input.iri));
    // And over the query's parameters (`name=value`), which the message names.
    let mut params = PartCursor::new(input.iri.query_parts(text).map(|q| Part {
        component: Component::Query,
        range: q.range,
    }));
    let mail_domains = mail_domains(input);
    for (i, c) in text[first..].char_indices() {
        let i = first + i;
        if !is_candidate(c) {
            continue;
        }
        let range = i..i + c.len_utf8();
        if is_uts46_dot(c)
            && let Some(domain) = mail_domains.iter().find(|d| d.contains(&i))
        {
            let message = format!(
                "{} in the mail domain: mail software that applies UTS #46 reads it as the label separator '.', other software as part of the domain `{}`, so they disagree on the address",
                describe(c),
                shorten_escaped(&text[domain.clone()])
            );
            report_label_separator(sink, range, message);
            continue;
        }
        // The scheme, the port and IP literals are in no part; any non-ASCII character there
        // is a `syntax-invalid` error already.
        let Some(part) = parts.at(i).cloned() else {
            continue;
        };
        let host = part.component == Component::Host;
        let before = &text[part.range.start..i];
        let after = &text[range.end..part.range.end];
        let (d, cjk_punctuation) = match verdict(before, c, after, host) {
            None => continue,
            Some(Verdict::LabelSeparator) => {
                let message = format!(
                    "{} in the host: browsers (UTS #46) read it as the label separator '.', RFC 3986 parsers as part of the label `{}`, so clients disagree on the host",
                    describe(c),
                    shorten_escaped(&text[part.range.clone()])
                );
                report_label_separator(sink, range, message);
                continue;
            }
            Some(Verdict::LooksLike { delimiter, cjk }) => (delimiter, cjk),
        };
        let severity = if cjk_punctuation {
            Severity::Warning
        } else {
            Severity::Error
        };
        let mut message = format!(
            "{} looks like '{d}' but is not a delimiter: {}",
            describe(c),
            where_it_is(input, &part, params.at(i), &range, d)
        );
        if cjk_punctuation {
            message.push_str(" (it is ordinary punctuation in CJK text, but misleading in an IRI)");
        }
        let help = if host {
            format!(
                "write '{d}' if a delimiter is meant; a look-alike delimiter in a host name is a spoofing trick, so do not follow the link as it is"
            )
        } else {
            format!(
                "write '{d}' if a delimiter is meant; otherwise percent-encode it as `{}` so it cannot be mistaken for one",
                percent::encode(&text[range.clone()])
            )
        };
        sink.report_as(severity, range.clone(), message, Some(help));
        // Unsafe: the IRI's structure changes (a new segment, a new label, a query).
        // A look-alike of '%' becomes a literal '%' (`%25`), never the start of a triplet.
        let replacement = if d == '%' {
            "%25".to_string()
        } else {
            d.to_string()
        };
        sink.attach_fix(IriFix::replace(
            Applicability::Unsafe,
            format!("replace with '{d}'"),
            range,
            replacement,
        ));
    }
}

/// Where the look-alike at `range` really is: the whole component it belongs to, and what the
/// reader may wrongly see.
fn where_it_is(
    input: &IriCheck<'_>,
    part: &Part,
    param: Option<&Part>,
    range: &Range<usize>,
    d: char,
) -> String {
    let text = input.text;
    let show = |r: Range<usize>| shorten_escaped(&text[r]);
    match part.component {
        Component::Host => {
            let host = input
                .iri
                .authority
                .as_ref()
                .map_or(part.range.clone(), |a| a.host.range.clone());
            let seen = match d {
                '/' | '?' | '#' | ':' => Some(host.start..range.start),
                '@' => Some(range.end..host.end),
                _ => None,
            };
            match seen.filter(|r| !r.is_empty()) {
                Some(seen) => format!("the host is `{}`, not `{}`", show(host), show(seen)),
                None if d == '.' => format!(
                    "the host is `{}`, in which `{}` is a single label",
                    show(host),
                    show(part.range.clone())
                ),
                None => format!("the host is `{}`", show(host)),
            }
        }
        Component::Userinfo => format!("it is part of the userinfo `{}`", show(part.range.clone())),
        Component::Path => {
            let mut s = format!(
                "it is part of the path segment `{}`",
                show(part.range.clone())
            );
            match d {
                '?' => s.push_str("; no query starts here"),
                '#' => s.push_str("; no fragment starts here"),
                _ => {}
            }
            s
        }
        Component::Query => {
            let param = param.map_or(part.range.clone(), |q| q.range.clone());
            let mut s = format!("it is part of the query parameter `{}`", show(param));
            match d {
                '&' | '=' => s.push_str("; it does not separate parameters"),
                '#' => s.push_str("; no fragment starts here"),
                _ => {}
            }
            s
        }
        _ => format!(
            "it is part of the {} `{}`",
            part.component,
            show(part.range.clone())
        ),
    }
}

/// True when `c` is punctuation of a specific script and `neighbour` a character of that
/// script: the Armenian full stop after an Armenian letter.
fn shares_script(c: char, neighbour: Option<char>) -> bool {
    let Some(n) = neighbour else {
        return false;
    };
    let specific = |e: ScriptExtension| !e.is_common() && !e.is_inherited() && !e.is_empty();
    let (ce, ne) = (c.script_extension(), n.script_extension());
    specific(ce) && specific(ne) && !ce.intersection(ne).is_empty()
}

/// Han, Hiragana, Katakana, Hangul or Bopomofo.
fn is_cjk(c: Option<char>) -> bool {
    c.is_some_and(|c| {
        let e = c.script_extension();
        !e.is_common()
            && !e.is_inherited()
            && [
                Script::Han,
                Script::Hiragana,
                Script::Katakana,
                Script::Hangul,
                Script::Bopomofo,
            ]
            .into_iter()
            .any(|s| e.contains_script(s))
    })
}

/// Characters that look like a delimiter, sorted, with the delimiter: those whose UTS #39
/// skeleton (confusables.txt, Unicode 18.0, `unicode-security` 0.1.3) equals the delimiter's,
/// minus letters (`char::is_alphabetic`), digits (`char::is_numeric`), characters with a
/// non-zero canonical combining class and U+ABEC MEETEI MAYEK LUM IYEK (a spacing mark).
/// Generated; the test below re-derives it.
#[rustfmt::skip]
static DELIMITER_LOOKALIKES: &[(char, u8)] = &[
    ('\u{2F8}', b':'), ('\u{589}', b':'), ('\u{5C3}', b':'), ('\u{66A}', b'%'), ('\u{701}', b'.'),
    ('\u{702}', b'.'), ('\u{703}', b':'), ('\u{704}', b':'), ('\u{831}', b':'), ('\u{1361}', b':'),
    ('\u{1393}', b':'), ('\u{1400}', b'='), ('\u{16EC}', b':'), ('\u{1735}', b'/'),
    ('\u{1803}', b':'), ('\u{1809}', b':'), ('\u{2024}', b'.'), ('\u{2041}', b'/'),
    ('\u{2044}', b'/'), ('\u{2052}', b'%'), ('\u{205A}', b':'), ('\u{2215}', b'/'),
    ('\u{2236}', b':'), ('\u{2571}', b'/'), ('\u{27CB}', b'/'), ('\u{29F8}', b'/'),
    ('\u{2E40}', b'='), ('\u{2F03}', b'/'), ('\u{30A0}', b'='), ('\u{31D2}', b'/'),
    ('\u{31D3}', b'/'), ('\u{A4FF}', b'='), ('\u{A60E}', b'.'), ('\u{A789}', b':'),
    ('\u{A78A}', b'='), ('\u{FE13}', b':'), ('\u{FE16}', b'?'),
    ('\u{FE30}', b':'), ('\u{FE52}', b'.'), ('\u{FE55}', b':'), ('\u{FE56}', b'?'),
    ('\u{FE5F}', b'#'), ('\u{FE60}', b'&'), ('\u{FE66}', b'='), ('\u{FE6A}', b'%'),
    ('\u{FE6B}', b'@'), ('\u{FF03}', b'#'), ('\u{FF05}', b'%'), ('\u{FF06}', b'&'),
    ('\u{FF0E}', b'.'), ('\u{FF0F}', b'/'), ('\u{FF1A}', b':'), ('\u{FF1D}', b'='),
    ('\u{FF1F}', b'?'), ('\u{FF20}', b'@'), ('\u{10190}', b'='), ('\u{10A50}', b'.'),
    ('\u{10AF5}', b':'), ('\u{1123A}', b':'), ('\u{1D108}', b':'), ('\u{1D23A}', b'/'),
    ('\u{1F672}', b'&'), ('\u{1F674}', b'&'), ('\u{1F675}', b'&'),
];

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_normalization::char::canonical_combining_class;
    use unicode_security::skeleton;

    /// The table is exactly what the confusables data gives.
    #[test]
    fn table_is_derived_from_the_confusables_data() {
        let delimiters: Vec<(String, u8)> = "/.:?#@%=&"
            .bytes()
            .map(|d| (skeleton(&(d as char).to_string()).collect(), d))
            .collect();
        let mut derived = Vec::new();
        let mut buf = [0u8; 4];
        for c in ('\u{80}'..=char::MAX).filter(|&c| {
            !c.is_alphabetic()
                && !c.is_numeric()
                && canonical_combining_class(c) == 0
                && c != '\u{ABEC}'
        }) {
            let sk: String = skeleton(c.encode_utf8(&mut buf)).collect();
            if let Some((_, d)) = delimiters.iter().find(|(s, _)| *s == sk) {
                derived.push((c, *d));
            }
        }
        assert_eq!(derived, DELIMITER_LOOKALIKES);
    }

    #[test]
    fn long_components_keep_their_end() {
        let host = format!("example.com\u{2215}{}.evil.com", "a".repeat(80));
        let short = crate::rules::shorten(&host);
        assert_eq!(short.chars().count(), 60);
        assert!(short.starts_with("example.com\u{2215}") && short.ends_with(".evil.com"));
    }

    #[test]
    fn letters_and_real_punctuation_are_out_and_the_block_filter_hides_nothing() {
        // The look-alikes the rule must catch are checked end to end in tests/char_rules.rs.
        for c in ['\u{30CE}', '\u{FF89}', '\u{0660}', '\u{3002}', '/', 'a'] {
            assert!(lookalike_of(c).is_none(), "U+{:04X}", c as u32);
        }
        // The block filter never hides a candidate.
        for c in '\u{0}'..=char::MAX {
            assert_eq!(
                is_candidate(c),
                lookalike_of(c).is_some() || is_uts46_dot(c),
                "U+{:04X}",
                c as u32
            );
        }
        assert_eq!(lookalike_of('\u{2215}'), Some('/'));
        assert_eq!(lookalike_of('\u{FF05}'), Some('%'));
    }
}
