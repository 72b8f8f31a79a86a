//! IDNA2008 (RFC 5890–5893) validity of a domain name's labels, as a registry checks them
//! before it registers a name: each code point's derived property ([`property`], RFC 5892 §3),
//! the contextual rules of RFC 5892 Appendix A ([`context`]), the hyphen, combining-mark and NFC
//! rules of RFC 5891 §4.2.3 and §5.4, and the bidi rule of RFC 5893 across the whole name
//! ([`bidi`]).
//!
//! The labels checked are U-labels: Unicode, already mapped and decoded from `xn--` by the
//! caller. Unicode 18.0 data (`icu_properties`, `unicode-normalization`); RFC 5892 derived its
//! tables from Unicode 5.2, and IANA publishes them for later versions, so a property can
//! differ from a registry running an older version for a code point assigned since.

pub mod bidi;
pub mod context;
pub mod property;

use unicode_normalization::is_nfc;

pub use context::ContextRule;
pub use property::{Category, Derivation, DerivedProperty, derive, derived_property};

/// One way a label breaks IDNA2008.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A DISALLOWED or UNASSIGNED code point.
    Property(char, Derivation),
    /// A CONTEXTJ or CONTEXTO code point whose rule does not hold.
    Context(char, ContextRule),
    /// A CONTEXTJ or CONTEXTO code point without a rule (RFC 5891 §5.4 item 7).
    NoRule(char),
    /// The label starts with `-` (RFC 5891 §4.2.3.1).
    LeadingHyphen,
    /// The label ends with `-` (RFC 5891 §4.2.3.1).
    TrailingHyphen,
    /// `--` in the third and fourth positions of a U-label (RFC 5891 §4.2.3.1, §5.4).
    HyphensAt3And4,
    /// The label starts with a combining mark (RFC 5891 §4.2.3.2, §5.4).
    LeadingCombiningMark(char),
    /// The label is not in NFC (RFC 5891 §5.4).
    NotNfc,
    /// The label breaks the bidi rule (RFC 5893 §2); the text says which part.
    Bidi(String),
}

impl Problem {
    /// The RFC section it rests on.
    pub fn section(&self) -> &'static str {
        match self {
            Problem::Property(_, d) => d.category.section(),
            Problem::Context(_, rule) => rule.section(),
            Problem::NoRule(_) => "RFC 5891 §5.4",
            Problem::LeadingHyphen | Problem::TrailingHyphen | Problem::HyphensAt3And4 => {
                "RFC 5891 §4.2.3.1"
            }
            Problem::LeadingCombiningMark(_) => "RFC 5891 §4.2.3.2",
            Problem::NotNfc => "RFC 5891 §5.4",
            Problem::Bidi(_) => "RFC 5893 §2",
        }
    }

    /// The code point at fault, when there is one.
    pub fn char(&self) -> Option<char> {
        match self {
            Problem::Property(c, _)
            | Problem::Context(c, _)
            | Problem::NoRule(c)
            | Problem::LeadingCombiningMark(c) => Some(*c),
            _ => None,
        }
    }
}

/// A problem in one label of a domain name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The index of the label in the name.
    pub label: usize,
    /// The index (in characters) of the code point at fault in the label; `None` when the
    /// whole label is at fault.
    pub at: Option<usize>,
    /// What is wrong.
    pub problem: Problem,
}

/// Every IDNA2008 problem of a domain name given as its U-labels (an empty label, such as the
/// root of `example.com.`, is skipped; lengths are the caller's business).
pub fn check_domain(labels: &[&str]) -> Vec<Violation> {
    let mut out = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        check_label(i, label, &mut out);
    }
    if labels.iter().any(|l| bidi::is_rtl_label(l)) {
        for (i, label) in labels.iter().enumerate() {
            if let Some(why) = bidi::bidi_rule(label) {
                out.push(Violation {
                    label: i,
                    at: None,
                    problem: Problem::Bidi(why),
                });
            }
        }
    }
    out
}

/// The problems of one label (all but the bidi rule).
fn check_label(index: usize, label: &str, out: &mut Vec<Violation>) {
    if label.is_empty() {
        return;
    }
    let mut push = |at: Option<usize>, problem| {
        out.push(Violation {
            label: index,
            at,
            problem,
        })
    };
    // The hyphen rules: the first and last bytes are the first and last characters when they
    // are `-` (ASCII); the third and fourth positions are characters' (`aé--b` has its `--`
    // there, at bytes 3 and 4).
    let bytes = label.as_bytes();
    let last = label.chars().count() - 1;
    if bytes[0] == b'-' {
        push(Some(0), Problem::LeadingHyphen);
    }
    if last > 0 && bytes[bytes.len() - 1] == b'-' {
        push(Some(last), Problem::TrailingHyphen);
    }
    let mut third = label.chars().skip(2);
    if third.next() == Some('-') && third.next() == Some('-') {
        push(None, Problem::HyphensAt3And4);
    }
    // Letters, digits and hyphens of ASCII are PVALID: nothing more to check.
    if bytes
        .iter()
        .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'))
    {
        return;
    }
    let chars: Vec<char> = label.chars().collect();
    if property::is_combining_mark(chars[0]) {
        push(Some(0), Problem::LeadingCombiningMark(chars[0]));
    }
    if !label.is_ascii() && !is_nfc(label) {
        push(None, Problem::NotNfc);
    }
    let mut digits_reported = false;
    for (at, &c) in chars.iter().enumerate() {
        let derivation = derive(c);
        match derivation.property {
            DerivedProperty::Pvalid => {}
            DerivedProperty::Disallowed | DerivedProperty::Unassigned => {
                push(Some(at), Problem::Property(c, derivation));
            }
            DerivedProperty::ContextJ | DerivedProperty::ContextO => match ContextRule::for_char(c)
            {
                None => push(Some(at), Problem::NoRule(c)),
                Some(rule) if !rule.holds(&chars, at) => {
                    let digits = matches!(
                        rule,
                        ContextRule::ArabicIndicDigits | ContextRule::ExtendedArabicIndicDigits
                    );
                    // Mixed digits break A.8 and A.9 at every digit: one report, at the
                    // first digit of the second kind.
                    if digits {
                        if digits_reported || !second_kind(&chars, at) {
                            continue;
                        }
                        digits_reported = true;
                    }
                    push(Some(at), Problem::Context(c, rule));
                }
                Some(_) => {}
            },
        }
    }
}

/// True when the Arabic-Indic digit at `at` is of the kind that appears second in the label.
fn second_kind(chars: &[char], at: usize) -> bool {
    let kind = |c: char| ContextRule::for_char(c);
    let first = chars.iter().find_map(|&c| {
        kind(c).filter(|r| {
            matches!(
                r,
                ContextRule::ArabicIndicDigits | ContextRule::ExtendedArabicIndicDigits
            )
        })
    });
    first.is_some() && first != kind(chars[at])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(domain: &str) -> Vec<(usize, Option<usize>, &'static str)> {
        let labels: Vec<&str> = domain.split('.').collect();
        check_domain(&labels)
            .into_iter()
            .map(|v| (v.label, v.at, v.problem.section()))
            .collect()
    }

    #[test]
    fn valid_names_have_no_problem() {
        for d in [
            "example.com",
            "b\u{FC}cher.example",
            "fa\u{DF}.de",
            "\u{5D3}\u{5D5}\u{5D2}\u{5DE}\u{5D4}.\u{5D8}\u{5E1}\u{5D8}",
            "l\u{B7}l.cat",
            "\u{4F8B}\u{3048}.\u{30C6}\u{30B9}\u{30C8}",
            "example.com.",
        ] {
            assert_eq!(problems(d), [], "{d}");
        }
    }

    #[test]
    fn each_problem_is_found_where_it_is() {
        assert_eq!(
            problems("a\u{B7}l"),
            [(0, Some(1), "RFC 5892 Appendix A.3")]
        );
        assert_eq!(
            problems("x.\u{628}\u{640}\u{628}"),
            [(1, Some(1), "RFC 5892 §2.6")]
        );
        assert_eq!(
            problems("i\u{2665}.ws"),
            [(0, Some(1), "RFC 5892 §2.1, §3")]
        );
        assert_eq!(problems("-a"), [(0, Some(0), "RFC 5891 §4.2.3.1")]);
        assert_eq!(problems("a-"), [(0, Some(1), "RFC 5891 §4.2.3.1")]);
        assert_eq!(problems("ab--c"), [(0, None, "RFC 5891 §4.2.3.1")]);
        // Positions are characters, not bytes.
        assert_eq!(problems("a\u{e9}--b"), [(0, None, "RFC 5891 §4.2.3.1")]);
        assert_eq!(
            problems("\u{e9}\u{e9}--b"),
            [(0, None, "RFC 5891 §4.2.3.1")]
        );
        assert!(problems("\u{e9}--b").is_empty());
        assert!(problems("a\u{e9}b--c").is_empty());
        assert_eq!(problems("\u{301}a"), [(0, Some(0), "RFC 5891 §4.2.3.2")]);
        assert_eq!(problems("a\u{301}"), [(0, None, "RFC 5891 §5.4")]);
        assert_eq!(problems("0a.\u{5D0}"), [(0, None, "RFC 5893 §2")]);
        // Mixed Arabic-Indic digits: one report, at the digit of the second kind (and the
        // label mixes bidi classes AN and EN, which the bidi rule forbids too).
        assert_eq!(
            problems("\u{628}\u{660}\u{6F0}\u{661}"),
            [
                (0, Some(2), "RFC 5892 Appendix A.9"),
                (0, None, "RFC 5893 §2")
            ]
        );
    }
}
