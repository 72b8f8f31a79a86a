//! `restricted-character`: a host label holds a character that UTS #39 §3.1 restricts from
//! identifiers (Identifier_Status = Restricted), as the browsers' IDN display policies do.
//!
//! Data: Identifier_Status and Identifier_Type of `unicode-security` (UTS #39
//! `IdentifierStatus.txt` and `IdentifierType.txt`, Unicode 18.0). The crate keeps one type per
//! code point; where `IdentifierType.txt` lists several, the message names that one.

use unicode_script::Script;
use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;

use super::host_labels::{self, HostLabel};
use super::{Check, IriCheck, Rule, Severity, Sink, delimiter, whole_script};
use crate::iri::chars::{describe, is_default_ignorable};
use crate::iri::props;

/// `restricted-character`.
pub const RESTRICTED_CHARACTER: Rule = Rule {
    id: "restricted-character",
    group: "lookalike",
    severity: Severity::Error,
    rfc: &["7.5", "8"],
    doc: include_str!("../../rules/restricted-character.md"),
    unicode_only: true,
    check: Check::Iri(check_restricted),
};

/// What the rule says of a restricted character, or `None` when it is not reported here:
/// allowed in identifiers, or restricted for a reason another rule reports (unassigned and
/// private use: `syntax-invalid`, `syntax-private-use`; default-ignorable: `invisible-character`;
/// not NFKC: `not-nfkc`, and UTS #46 maps it away before a browser displays the host; not a
/// letter, digit or mark of identifiers (Not_XID: emoji, symbols, punctuation), which IDNA2008
/// disallows: `idn-not-registrable`), or a delimiter look-alike (`confusable-delimiter`).
/// Bopomofo is allowed: UTS #39 §5.2 counts Han with Bopomofo as one script (Chinese), and
/// Chrome displays it. The letters of the scripts UAX #31 once called aspirational (Canadian
/// syllabics, Miao, Mongolian, Tifinagh, Yi) are Limited_Use and reported, as Chrome reports
/// them since UAX #31 dropped that class.
pub(super) fn restriction(c: char) -> Option<IdentifierType> {
    if c.is_ascii() || c.identifier_allowed() {
        return None;
    }
    if props::script(c) == Script::Bopomofo {
        return None;
    }
    let t = c.identifier_type()?;
    // The crate keeps one type per code point: `ŉ` is Deprecated and Not_NFKC, and UTS #46 maps
    // it away like every other character NFKC changes.
    if !nfkc_stable(c) || is_default_ignorable(c) {
        return None;
    }
    match t {
        IdentifierType::Not_Character
        | IdentifierType::Default_Ignorable
        | IdentifierType::Not_NFKC
        | IdentifierType::Not_XID => None,
        _ if delimiter::lookalike_of(c).is_some() => None,
        IdentifierType::Inclusion | IdentifierType::Recommended => None,
        t => Some(t),
    }
}

/// True when NFKC leaves `c` as it is.
fn nfkc_stable(c: char) -> bool {
    use unicode_normalization::UnicodeNormalization;
    std::iter::once(c).nfkc().eq(std::iter::once(c))
}

/// Characters UTS #39 allows that Chrome removes from the characters it displays
/// (`SetAllowedUnicodeSet` in idn_spoof_checker.cc): the quote look-alikes U+02BB U+02BC, the
/// modifier letter voicing U+02EC, the Pinyin letters with diaeresis or caron U+01CD..U+01DC,
/// and the rarely used blocks Latin Extended Additional up to U+1E9B, Greek Extended, Cyrillic
/// Extended-B and -C, Latin Extended-D.
fn chrome_removes(c: char) -> bool {
    matches!(c,
        '\u{02BB}' | '\u{02BC}' | '\u{02EC}'
        | '\u{01CD}'..='\u{01DC}'
        | '\u{1C80}'..='\u{1C8F}'
        | '\u{1E00}'..='\u{1E9B}'
        | '\u{1F00}'..='\u{1FFF}'
        | '\u{A640}'..='\u{A69F}'
        | '\u{A720}'..='\u{A7FF}')
}

/// True when a restricted `c` is displayed all the same in this place, as Chrome displays it:
/// an Uncommon_Use letter of a script at home under the TLD (the Georgian letters U+10FD..U+10FF
/// under `.ge`, the Shan digits under `.mm`, or an IDN TLD of that script), or a kana voiced
/// sound mark (U+3099, U+309A) after kana (`ト゚`, Ainu).
fn displayed_here(c: char, t: IdentifierType, prev: Option<char>, tld: Option<&str>) -> bool {
    if matches!(c, '\u{3099}' | '\u{309A}') {
        return prev
            .is_some_and(|p| matches!(props::script(p), Script::Hiragana | Script::Katakana));
    }
    if t != IdentifierType::Uncommon_Use {
        return false;
    }
    let s = props::script(c);
    let Some(tld) = tld else {
        return false;
    };
    whole_script::entry(s).is_some_and(|e| e.tlds.contains(&tld))
        || tld.chars().any(|t| props::script(t) == s)
}

/// The type's name in `IdentifierType.txt`, and what it means.
fn type_name(t: IdentifierType) -> (&'static str, &'static str) {
    match t {
        IdentifierType::Deprecated => ("Deprecated", "deprecated by Unicode"),
        IdentifierType::Not_XID => ("Not_XID", "not a letter, digit or mark of identifiers"),
        IdentifierType::Exclusion => ("Exclusion", "of a script no longer in customary use"),
        IdentifierType::Obsolete => ("Obsolete", "no longer in customary use"),
        IdentifierType::Technical => ("Technical", "for specialized (phonetic, mathematical) use"),
        IdentifierType::Uncommon_Use => ("Uncommon_Use", "in uncommon use"),
        IdentifierType::Limited_Use => (
            "Limited_Use",
            "of a script in limited use, without wide font support",
        ),
        IdentifierType::Not_Character => ("Not_Character", "not a character"),
        IdentifierType::Default_Ignorable => ("Default_Ignorable", "invisible"),
        IdentifierType::Not_NFKC => ("Not_NFKC", "a compatibility variant"),
        IdentifierType::Inclusion => ("Inclusion", "allowed"),
        IdentifierType::Recommended => ("Recommended", "allowed"),
    }
}

/// A restricted letter that UTS #39 lists as confusable with another character (its skeleton
/// is not itself: `ᴡ` is `w`) is a disguise: error. One that imitates nothing (a rare Han
/// ideograph, `ɢ`), or a letter of a script in limited use, is something browsers show as
/// Punycode but no disguise: warning.
fn severity_of(c: char, t: IdentifierType) -> Severity {
    if t == IdentifierType::Limited_Use {
        return Severity::Warning;
    }
    let mut buf = [0u8; 4];
    if unicode_security::skeleton(c.encode_utf8(&mut buf)).eq(std::iter::once(c)) {
        Severity::Warning
    } else {
        Severity::Error
    }
}

fn check_restricted(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    host_labels::for_each_name(input, |labels, tld| {
        for label in labels {
            check_label(label, tld, sink);
        }
    });
}

fn check_label(label: &HostLabel<'_>, tld: Option<&str>, sink: &mut Sink<'_>) {
    let mut prev = None;
    for (i, c) in label.text.char_indices() {
        let before = prev.replace(c);
        if c.is_ascii() {
            continue;
        }
        let folded = host_labels::folded(c);
        // NFKC maps some of them (Greek Extended's oxia vowels), and `not-nfkc` says so.
        let removed = chrome_removes(folded)
            && nfkc_stable(folded)
            && delimiter::lookalike_of(folded).is_none();
        let (message, severity) = if removed {
            (
                format!(
                    "{} in {} is one Chrome does not display in a host name (rarely used, or a look-alike of a quote); browsers show such a host as Punycode",
                    describe(c),
                    label.place()
                ),
                Severity::Warning,
            )
        } else {
            // Most characters are allowed as written (capitals of allowed letters too):
            // folding, a table search, only for the rest.
            if c.identifier_allowed() {
                continue;
            }
            let Some(t) = restriction(folded) else {
                continue;
            };
            if displayed_here(folded, t, before, tld) {
                continue;
            }
            let (name, meaning) = type_name(t);
            (
                format!(
                    "{} in {} is restricted from identifiers (UTS #39 §3.1: Identifier_Type {name}, {meaning}); browsers show such a host as Punycode",
                    describe(c),
                    label.place()
                ),
                severity_of(folded, t),
            )
        };
        sink.report_as(
            severity,
            label.span(i, c.len_utf8()),
            message,
            Some(
                "write the name with the letters people use (UTS #39 Identifier_Status Allowed); a restricted character that looks like a common letter makes a look-alike of another name".to_string(),
            ),
        );
        if label.ace {
            break; // one report per `xn--` label: they would all cover the same span
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restriction_follows_the_identifier_type() {
        // Small capitals (Technical), an obsolete Cyrillic letter.
        assert_eq!(restriction('\u{1D21}'), Some(IdentifierType::Technical));
        assert_eq!(restriction('\u{0262}'), Some(IdentifierType::Technical));
        assert_eq!(restriction('\u{0517}'), Some(IdentifierType::Obsolete));
        // Allowed, or reported by another rule (a symbol: `idn-not-registrable`).
        for c in [
            '\u{2764}', 'é', 'ß', 'а', '日', 'ー', '\u{200B}', '\u{FF41}', '\u{2215}', '\u{E000}',
        ] {
            assert_eq!(restriction(c), None, "{c:?}");
        }
        // Tifinagh is Limited_Use, no longer allowed as an aspirational script (Chrome's cases
        // since UAX #31 dropped the class); Bopomofo is Limited_Use but one script with Han.
        assert_eq!(restriction('\u{2D30}'), Some(IdentifierType::Limited_Use));
        assert_eq!(restriction('\u{13A0}'), Some(IdentifierType::Limited_Use));
        assert_eq!(restriction('\u{3105}'), None);
    }

    /// The rules that fire on `https://HOST/`, with their severities.
    fn fired(host: &str) -> Vec<(&'static str, Severity)> {
        // With the findings a more specific one withholds (one finding per look-alike host):
        // what this rule finds is asked here, not what a report shows.
        crate::rules::check(&format!("https://{host}/"), &crate::rules::Selection::all())
            .into_iter()
            .flat_map(|f| {
                let withheld: Vec<_> = f.withheld.iter().map(|w| (w.rule.id, w.severity)).collect();
                std::iter::once((f.rule.id, f.severity)).chain(withheld)
            })
            .collect()
    }

    #[test]
    fn chrome_removed_and_displayed_characters() {
        let restricted = |host: &str| {
            fired(host)
                .into_iter()
                .filter(|(id, _)| *id == "restricted-character")
                .map(|(_, s)| s)
                .collect::<Vec<_>>()
        };
        // Removed by Chrome although UTS #39 allows them: a warning each.
        assert_eq!(restricted("a\u{2BC}b.com"), [Severity::Warning]);
        assert_eq!(restricted("\u{1D4}nion.com"), [Severity::Warning]);
        assert_eq!(restricted("\u{1E37}ily.com"), [Severity::Warning]);
        // Mapped by NFKC: `not-nfc`'s, not reported twice.
        assert!(restricted("\u{1F71}\u{3B2}.com").is_empty());
        // Displayed by Chrome in their place.
        assert!(restricted("\u{6CE8}\u{97F3}\u{3105}\u{3106}.tw").is_empty());
        assert!(restricted("\u{30C8}\u{309A}.jp").is_empty());
        assert!(!restricted("google\u{309A}.com").is_empty());
        assert!(restricted("\u{10FD}\u{10FF}\u{10EE}.ge").is_empty());
        assert!(restricted("\u{10FD}\u{10FF}\u{10EE}.\u{10D2}\u{10D4}").is_empty());
        assert!(!restricted("\u{10FD}\u{10FF}\u{10EE}.com").is_empty());
        assert!(restricted("\u{1090}\u{1091}.mm").is_empty());
    }

    /// Every code point, against the parts of UTS #39's derivation of Identifier_Type (§3.1,
    /// Table 1) that the Unicode Character Database fixes: an allowed character is assigned,
    /// XID_Continue, NFKC-stable and not default-ignorable; a reported one is not allowed, and
    /// XID_Continue (what is not is Not_XID, left to `idn-not-registrable`). `icu_properties`
    /// and `unicode-security` carry the same Unicode version (18.0).
    #[test]
    fn restriction_agrees_with_the_ucd_for_every_code_point() {
        use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory, XidContinue};
        use icu_properties::{CodePointMapData, CodePointSetData};
        use unicode_normalization::UnicodeNormalization;
        let xid = CodePointSetData::new::<XidContinue>();
        let di = CodePointSetData::new::<DefaultIgnorableCodePoint>();
        let gc = CodePointMapData::<GeneralCategory>::new();
        let mut reported = 0;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let assigned = !matches!(
                gc.get(c),
                GeneralCategory::Unassigned | GeneralCategory::PrivateUse
            );
            let nfkc_stable = std::iter::once(c).nfkc().eq(std::iter::once(c));
            if c.identifier_allowed() {
                // Inclusion adds a few non-XID characters (`'` `-` `.` `:` U+00B7, ...).
                let inclusion = c.identifier_type() == Some(IdentifierType::Inclusion);
                assert!(
                    assigned && (xid.contains(c) || inclusion) && nfkc_stable && !di.contains(c),
                    "{c:?} is allowed"
                );
                assert_eq!(restriction(c), None, "{c:?}");
                continue;
            }
            match restriction(c) {
                Some(t) => {
                    reported += 1;
                    assert!(assigned && nfkc_stable && !di.contains(c), "{c:?}");
                    assert!(xid.contains(c), "{c:?}: {t:?}");
                }
                // Left to other rules: unassigned, private use, not NFKC, default-ignorable,
                // delimiter look-alikes, or an aspirational script's letter.
                None => assert!(
                    !xid.contains(c)
                        || matches!(
                            gc.get(c),
                            GeneralCategory::Control
                                | GeneralCategory::Format
                                | GeneralCategory::Surrogate
                        )
                        || c.identifier_type().is_none()
                        || !assigned
                        || !nfkc_stable
                        || di.contains(c)
                        || delimiter::lookalike_of(c).is_some()
                        || props::script(c) == Script::Bopomofo
                        || c.is_ascii(),
                    "{c:?} is restricted but not reported"
                ),
            }
        }
        assert!(reported > 10_000, "{reported}");
    }
}
