//! The contextual rules of RFC 5892 Appendix A: where a CONTEXTJ (A.1, A.2) or CONTEXTO
//! (A.3–A.9) code point may stand in a label.

use icu_properties::CodePointMapData;
use icu_properties::props::{JoiningType, Script};

use super::property::is_virama;

/// A rule of RFC 5892 Appendix A.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContextRule {
    /// A.1: ZERO WIDTH NON-JOINER after a virama, or between joining letters.
    ZeroWidthNonJoiner,
    /// A.2: ZERO WIDTH JOINER after a virama.
    ZeroWidthJoiner,
    /// A.3: MIDDLE DOT between two `l` (Catalan `l·l`).
    MiddleDot,
    /// A.4: GREEK LOWER NUMERAL SIGN (KERAIA) followed by Greek.
    GreekKeraia,
    /// A.5: HEBREW PUNCTUATION GERESH after Hebrew.
    HebrewGeresh,
    /// A.6: HEBREW PUNCTUATION GERSHAYIM after Hebrew.
    HebrewGershayim,
    /// A.7: KATAKANA MIDDLE DOT in a label with Hiragana, Katakana or Han.
    KatakanaMiddleDot,
    /// A.8: ARABIC-INDIC DIGITS not mixed with Extended Arabic-Indic digits.
    ArabicIndicDigits,
    /// A.9: EXTENDED ARABIC-INDIC DIGITS not mixed with Arabic-Indic digits.
    ExtendedArabicIndicDigits,
}

impl ContextRule {
    /// The rule for `c`, if RFC 5892 Appendix A has one.
    pub fn for_char(c: char) -> Option<ContextRule> {
        Some(match c {
            '\u{200C}' => ContextRule::ZeroWidthNonJoiner,
            '\u{200D}' => ContextRule::ZeroWidthJoiner,
            '\u{00B7}' => ContextRule::MiddleDot,
            '\u{0375}' => ContextRule::GreekKeraia,
            '\u{05F3}' => ContextRule::HebrewGeresh,
            '\u{05F4}' => ContextRule::HebrewGershayim,
            '\u{30FB}' => ContextRule::KatakanaMiddleDot,
            '\u{0660}'..='\u{0669}' => ContextRule::ArabicIndicDigits,
            '\u{06F0}'..='\u{06F9}' => ContextRule::ExtendedArabicIndicDigits,
            _ => return None,
        })
    }

    /// Its appendix section (`RFC 5892 Appendix A.3`).
    pub fn section(self) -> &'static str {
        match self {
            ContextRule::ZeroWidthNonJoiner => "RFC 5892 Appendix A.1",
            ContextRule::ZeroWidthJoiner => "RFC 5892 Appendix A.2",
            ContextRule::MiddleDot => "RFC 5892 Appendix A.3",
            ContextRule::GreekKeraia => "RFC 5892 Appendix A.4",
            ContextRule::HebrewGeresh => "RFC 5892 Appendix A.5",
            ContextRule::HebrewGershayim => "RFC 5892 Appendix A.6",
            ContextRule::KatakanaMiddleDot => "RFC 5892 Appendix A.7",
            ContextRule::ArabicIndicDigits => "RFC 5892 Appendix A.8",
            ContextRule::ExtendedArabicIndicDigits => "RFC 5892 Appendix A.9",
        }
    }

    /// What the rule requires, as a phrase after "allowed only".
    pub fn requirement(self) -> &'static str {
        match self {
            ContextRule::ZeroWidthNonJoiner => {
                "after a virama, or between a left-joining and a right-joining Arabic-script letter"
            }
            ContextRule::ZeroWidthJoiner => "after a virama",
            ContextRule::MiddleDot => "between two `l` (as in Catalan `l·l`)",
            ContextRule::GreekKeraia => "before a Greek letter",
            ContextRule::HebrewGeresh | ContextRule::HebrewGershayim => "after a Hebrew letter",
            ContextRule::KatakanaMiddleDot => {
                "in a label that also has Hiragana, Katakana or Han characters"
            }
            ContextRule::ArabicIndicDigits => {
                "in a label without Extended Arabic-Indic digits (U+06F0..U+06F9)"
            }
            ContextRule::ExtendedArabicIndicDigits => {
                "in a label without Arabic-Indic digits (U+0660..U+0669)"
            }
        }
    }

    /// Whether the rule holds for the character at index `i` of `label`.
    pub fn holds(self, label: &[char], i: usize) -> bool {
        let before = i.checked_sub(1).map(|b| label[b]);
        let after = label.get(i + 1).copied();
        let script = |c: Option<char>| c.map(|c| CodePointMapData::<Script>::new().get(c));
        match self {
            ContextRule::ZeroWidthNonJoiner => {
                before.is_some_and(is_virama) || joins_both_sides(label, i)
            }
            ContextRule::ZeroWidthJoiner => before.is_some_and(is_virama),
            ContextRule::MiddleDot => before == Some('l') && after == Some('l'),
            ContextRule::GreekKeraia => script(after) == Some(Script::Greek),
            ContextRule::HebrewGeresh | ContextRule::HebrewGershayim => {
                script(before) == Some(Script::Hebrew)
            }
            ContextRule::KatakanaMiddleDot => label.iter().any(|&c| {
                let s = CodePointMapData::<Script>::new().get(c);
                s == Script::Hiragana || s == Script::Katakana || s == Script::Han
            }),
            ContextRule::ArabicIndicDigits => {
                !label.iter().any(|c| ('\u{6F0}'..='\u{6F9}').contains(c))
            }
            ContextRule::ExtendedArabicIndicDigits => {
                !label.iter().any(|c| ('\u{660}'..='\u{669}').contains(c))
            }
        }
    }
}

/// The regular expression of RFC 5892 Appendix A.1 around `label[i]`:
/// `(Joining_Type:{L,D})(Joining_Type:T)*\u200C(Joining_Type:T)*(Joining_Type:{R,D})`.
fn joins_both_sides(label: &[char], i: usize) -> bool {
    let jt = |c: char| CodePointMapData::<JoiningType>::new().get(c);
    let left = label[..i]
        .iter()
        .rev()
        .map(|&c| jt(c))
        .find(|&t| t != JoiningType::Transparent);
    let right = label[i + 1..]
        .iter()
        .map(|&c| jt(c))
        .find(|&t| t != JoiningType::Transparent);
    matches!(
        left,
        Some(JoiningType::LeftJoining | JoiningType::DualJoining)
    ) && matches!(
        right,
        Some(JoiningType::RightJoining | JoiningType::DualJoining)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holds(label: &str, c: char) -> bool {
        let chars: Vec<char> = label.chars().collect();
        let i = chars.iter().position(|&x| x == c).expect("the character");
        ContextRule::for_char(c).expect("a rule").holds(&chars, i)
    }

    /// Each rule of Appendix A, once where it holds and once where it does not.
    #[test]
    fn every_rule_holds_and_fails() {
        let cases: &[(&str, char, bool)] = &[
            ("\u{915}\u{94D}\u{200C}\u{937}", '\u{200C}', true), // A.1 after a virama
            ("\u{628}\u{64A}\u{200C}\u{628}\u{64A}", '\u{200C}', true), // A.1 regexp
            ("\u{628}\u{64E}\u{200C}\u{628}", '\u{200C}', true), // A.1 transparent mark skipped
            ("a\u{200C}b", '\u{200C}', false),
            ("\u{627}\u{200C}\u{628}", '\u{200C}', false), // alef joins right only
            ("\u{915}\u{94D}\u{200D}\u{937}", '\u{200D}', true), // A.2
            ("\u{915}\u{200D}\u{937}", '\u{200D}', false),
            ("\u{200D}\u{937}", '\u{200D}', false),
            ("l\u{B7}l", '\u{B7}', true), // A.3
            ("a\u{B7}l", '\u{B7}', false),
            ("l\u{B7}", '\u{B7}', false),
            ("\u{3B1}\u{375}\u{3B2}", '\u{375}', true), // A.4
            ("\u{3B1}\u{375}s", '\u{375}', false),
            ("\u{3B1}\u{375}", '\u{375}', false),
            ("\u{5D0}\u{5F3}\u{5D1}", '\u{5F3}', true), // A.5
            ("a\u{5F3}\u{5D1}", '\u{5F3}', false),
            ("\u{5D0}\u{5F4}\u{5D1}", '\u{5F4}', true), // A.6
            ("\u{5F4}\u{5D1}", '\u{5F4}', false),
            ("\u{30FB}\u{3041}", '\u{30FB}', true), // A.7
            ("\u{30FB}\u{4E08}", '\u{30FB}', true),
            ("def\u{30FB}abc", '\u{30FB}', false),
            ("\u{30FB}", '\u{30FB}', false),
            ("\u{628}\u{660}\u{628}", '\u{660}', true), // A.8
            ("\u{628}\u{660}\u{6F0}", '\u{660}', false),
            ("\u{6F0}0", '\u{6F0}', true), // A.9
            ("\u{628}\u{660}\u{6F0}", '\u{6F0}', false),
        ];
        for &(label, c, want) in cases {
            assert_eq!(holds(label, c), want, "{label:?} U+{:04X}", c as u32);
        }
    }
}
