//! The IDNA2008 derived property of a code point, computed by the algorithm of RFC 5892 §3 from
//! the Unicode properties `icu_properties` carries (Unicode 18.0), not from a typed table. Only
//! the exceptions of RFC 5892 §2.6 are a list (the RFC defines them as one), and §2.4 names
//! three blocks.
//!
//! Checked once against an independent derivation, the tables of the Python `idna` package 3.13
//! (Unicode 17.0): the same class (PVALID, CONTEXTJ, CONTEXTO or neither) for every code point
//! except the 12,447 that Unicode 18.0 assigns and 17.0 does not (PVALID here, unassigned
//! there).

use icu_properties::props::{
    Block, CanonicalCombiningClass, ChangesWhenNfkcCasefolded, DefaultIgnorableCodePoint,
    GeneralCategory, HangulSyllableType, JoinControl, NoncharacterCodePoint, WhiteSpace,
};
use icu_properties::{CodePointMapData, CodePointSetData};
use std::cell::Cell;

/// The five values of the derived property (RFC 5892 §1, §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DerivedProperty {
    /// Allowed in a label.
    Pvalid,
    /// Allowed only where a rule of RFC 5892 Appendix A.1/A.2 holds (the joiners).
    ContextJ,
    /// Allowed only where a rule of RFC 5892 Appendix A.3–A.9 holds.
    ContextO,
    /// Never allowed.
    Disallowed,
    /// Not assigned in the Unicode version used; never allowed.
    Unassigned,
}

impl DerivedProperty {
    /// The name RFC 5892 gives it (`PVALID`, `CONTEXTO`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DerivedProperty::Pvalid => "PVALID",
            DerivedProperty::ContextJ => "CONTEXTJ",
            DerivedProperty::ContextO => "CONTEXTO",
            DerivedProperty::Disallowed => "DISALLOWED",
            DerivedProperty::Unassigned => "UNASSIGNED",
        }
    }
}

/// The category of RFC 5892 §2 that decided a code point's property, in the order of §3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// F: the exceptions of §2.6.
    Exceptions,
    /// J: §2.10, unassigned code points (not noncharacters).
    Unassigned,
    /// E: §2.5, `-`, `0`–`9`, `a`–`z`.
    Ldh,
    /// H: §2.8, Join_Control.
    JoinControl,
    /// B: §2.2, changed by NFKC and case folding.
    Unstable,
    /// C: §2.3, Default_Ignorable_Code_Point, White_Space, Noncharacter_Code_Point.
    IgnorableProperties,
    /// D: §2.4, three blocks of symbols and musical notation.
    IgnorableBlocks,
    /// I: §2.9, conjoining Hangul jamo.
    OldHangulJamo,
    /// A: §2.1, letters, digits and marks.
    LetterDigits,
    /// None of the above: symbols, punctuation, spaces (§3, the final DISALLOWED).
    Other,
}

impl Category {
    /// The section of RFC 5892 that defines it.
    pub fn section(self) -> &'static str {
        match self {
            Category::Exceptions => "RFC 5892 §2.6",
            Category::Unassigned => "RFC 5892 §2.10",
            Category::Ldh => "RFC 5892 §2.5",
            Category::JoinControl => "RFC 5892 §2.8",
            Category::Unstable => "RFC 5892 §2.2",
            Category::IgnorableProperties => "RFC 5892 §2.3",
            Category::IgnorableBlocks => "RFC 5892 §2.4",
            Category::OldHangulJamo => "RFC 5892 §2.9",
            Category::LetterDigits => "RFC 5892 §2.1",
            Category::Other => "RFC 5892 §2.1, §3",
        }
    }

    /// Why a code point of this category has its property, as a phrase (`an exception`).
    pub fn reason(self) -> &'static str {
        match self {
            Category::Exceptions => "so listed among the exceptions",
            Category::Unassigned => "not assigned in Unicode 18.0",
            Category::Ldh => "a letter, digit or hyphen of ASCII",
            Category::JoinControl => "a join control",
            Category::Unstable => "changed by NFKC and case folding (unstable)",
            Category::IgnorableProperties => {
                "default-ignorable, white space or a noncharacter (ignorable properties)"
            }
            Category::IgnorableBlocks => {
                "in a block of symbols or musical notation (ignorable blocks)"
            }
            Category::OldHangulJamo => "a conjoining Hangul jamo",
            Category::LetterDigits => "a letter, digit or combining mark",
            Category::Other => {
                "not a letter, digit or combining mark (a symbol, punctuation or space)"
            }
        }
    }
}

/// A code point's derived property and the category that decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Derivation {
    /// The property.
    pub property: DerivedProperty,
    /// Why.
    pub category: Category,
}

/// RFC 5892 §2.6, the exceptions, as the RFC lists them.
fn exception(c: char) -> Option<DerivedProperty> {
    use DerivedProperty::*;
    match c as u32 {
        // PVALID: would otherwise be unstable (ß, final sigma) or not letters/digits.
        0x00DF | 0x03C2 | 0x06FD | 0x06FE | 0x0F0B | 0x3007 => Some(Pvalid),
        // CONTEXTO: middle dot, keraia, geresh, gershayim, katakana middle dot, the two sets
        // of Arabic-Indic digits.
        0x00B7 | 0x0375 | 0x05F3 | 0x05F4 | 0x30FB | 0x0660..=0x0669 | 0x06F0..=0x06F9 => {
            Some(ContextO)
        }
        // DISALLOWED: tatweel, N'Ko lajanyalan, Hangul tone marks, vertical kana repeat marks,
        // vertical ideographic iteration mark.
        0x0640 | 0x07FA | 0x302E | 0x302F | 0x3031..=0x3035 | 0x303B => Some(Disallowed),
        _ => None,
    }
}

/// The derived property of `c` by the algorithm of RFC 5892 §3. (BackwardCompatible, §2.7, is
/// empty.)
pub fn derive(c: char) -> Derivation {
    if matches!(c, 'a'..='z' | '0'..='9' | '-') {
        return Derivation {
            property: DerivedProperty::Pvalid,
            category: Category::Ldh,
        };
    }
    // The words of a host repeat their characters, and the derivation searches up to five
    // property sets: the last few hundred answers are kept, by the code point's low bits.
    const SLOTS: usize = 256;
    type Slot = Cell<Option<(char, Derivation)>>;
    thread_local! {
        static RECENT: [Slot; SLOTS] = const { [const { Cell::new(None) }; SLOTS] };
    }
    RECENT.with(|recent| {
        let slot = &recent[c as usize % SLOTS];
        if let Some((k, d)) = slot.get()
            && k == c
        {
            return d;
        }
        let d = derive_uncached(c);
        slot.set(Some((c, d)));
        d
    })
}

fn derive_uncached(c: char) -> Derivation {
    match exception(c) {
        Some(property) => Derivation {
            property,
            category: Category::Exceptions,
        },
        None => by_properties(c),
    }
}

/// §3 after the exceptions: what the Unicode properties of `c` make of it.
fn by_properties(c: char) -> Derivation {
    use DerivedProperty::*;
    let is = |property, category| Derivation { property, category };
    let gc = CodePointMapData::<GeneralCategory>::new().get(c);
    // Noncharacters are General_Category Cn: §2.10 leaves them to §2.3.
    if gc == GeneralCategory::Unassigned {
        return if CodePointSetData::new::<NoncharacterCodePoint>().contains(c) {
            is(Disallowed, Category::IgnorableProperties)
        } else {
            is(Unassigned, Category::Unassigned)
        };
    }
    // Join controls are format characters (Cf); the sets are searched only where they can hold.
    if gc == GeneralCategory::Format && CodePointSetData::new::<JoinControl>().contains(c) {
        return is(ContextJ, Category::JoinControl);
    }
    // NFKC_Casefold also removes default ignorables, which §2.3 disallows anyway.
    if CodePointSetData::new::<ChangesWhenNfkcCasefolded>().contains(c) {
        return is(Disallowed, Category::Unstable);
    }
    if CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || CodePointSetData::new::<WhiteSpace>().contains(c)
    {
        return is(Disallowed, Category::IgnorableProperties);
    }
    let block = CodePointMapData::<Block>::new().get(c);
    if block == Block::CombiningDiacriticalMarksForSymbols
        || block == Block::MusicalSymbols
        || block == Block::AncientGreekMusicalNotation
    {
        return is(Disallowed, Category::IgnorableBlocks);
    }
    let hst = CodePointMapData::<HangulSyllableType>::new().get(c);
    if hst == HangulSyllableType::LeadingJamo
        || hst == HangulSyllableType::VowelJamo
        || hst == HangulSyllableType::TrailingJamo
    {
        return is(Disallowed, Category::OldHangulJamo);
    }
    if matches!(
        gc,
        GeneralCategory::LowercaseLetter
            | GeneralCategory::UppercaseLetter
            | GeneralCategory::OtherLetter
            | GeneralCategory::DecimalNumber
            | GeneralCategory::ModifierLetter
            | GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
    ) {
        return is(Pvalid, Category::LetterDigits);
    }
    is(Disallowed, Category::Other)
}

/// The derived property of `c` (RFC 5892 §3).
pub fn derived_property(c: char) -> DerivedProperty {
    derive(c).property
}

/// True when `c` has canonical combining class Virama (RFC 5892 Appendix A.1, A.2).
pub(super) fn is_virama(c: char) -> bool {
    CodePointMapData::<CanonicalCombiningClass>::new().get(c) == CanonicalCombiningClass::Virama
}

/// True when `c` is a combining mark (General_Category M: RFC 5891 §4.2.3.2).
pub(super) fn is_combining_mark(c: char) -> bool {
    matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
            | GeneralCategory::EnclosingMark
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use DerivedProperty::*;

    /// Well-known code points, checked against the RFC 5892 appendix B table and IANA's
    /// IDNA tables.
    #[test]
    fn well_known_code_points() {
        let cases: &[(u32, DerivedProperty)] = &[
            (0x002D, Pvalid),
            (0x0030, Pvalid),
            (0x0061, Pvalid),
            (0x0041, Disallowed), // uppercase: unstable
            (0x005F, Disallowed), // punctuation
            (0x0020, Disallowed),
            (0x002E, Disallowed),
            (0x00DF, Pvalid),
            (0x03C2, Pvalid),
            (0x06FD, Pvalid),
            (0x06FE, Pvalid),
            (0x0F0B, Pvalid),
            (0x3007, Pvalid),
            (0x00B7, ContextO),
            (0x0375, ContextO),
            (0x05F3, ContextO),
            (0x05F4, ContextO),
            (0x30FB, ContextO),
            (0x0660, ContextO),
            (0x06F9, ContextO),
            (0x0640, Disallowed),
            (0x07FA, Disallowed),
            (0x302E, Disallowed),
            (0x302F, Disallowed),
            (0x3031, Disallowed),
            (0x3035, Disallowed),
            (0x303B, Disallowed),
            (0x200C, ContextJ),
            (0x200D, ContextJ),
            (0x1F600, Disallowed), // emoji
            (0x2665, Disallowed),  // symbol
            (0x0378, Unassigned),
            (0xFFFF, Disallowed), // noncharacter
            (0xFDD0, Disallowed), // noncharacter
            (0x00AD, Disallowed), // soft hyphen: default ignorable (and unstable)
            (0x3000, Disallowed), // ideographic space: unstable
            (0xFF21, Disallowed), // fullwidth A: unstable
            (0x2126, Disallowed), // ohm sign: unstable
            (0x00E9, Pvalid),
            (0x00FC, Pvalid),
            (0x03B1, Pvalid),
            (0x0391, Disallowed), // capital alpha
            (0x0430, Pvalid),
            (0x05D0, Pvalid),
            (0x0627, Pvalid),
            (0x0915, Pvalid),
            (0x094D, Pvalid), // virama: a mark
            (0x0E01, Pvalid),
            (0x3042, Pvalid),
            (0x30A2, Pvalid),
            (0x4E2D, Pvalid),
            (0xAC00, Pvalid),     // precomposed Hangul syllable
            (0x1100, Disallowed), // conjoining jamo
            (0x11A8, Disallowed),
            (0x20DD, Disallowed),  // combining enclosing circle: ignorable block
            (0x1D11E, Disallowed), // musical symbol G clef
            (0x0301, Pvalid),
            (0x0488, Disallowed), // enclosing mark: not in LetterDigits
            (0x0903, Pvalid),     // spacing mark
            (0x00AA, Disallowed), // feminine ordinal: NFKC maps it to a
            (0x0130, Disallowed),
            (0x1E9E, Disallowed), // capital sharp s
            (0xE000, Disallowed), // private use
        ];
        for &(u, want) in cases {
            let c = char::from_u32(u).unwrap();
            assert_eq!(derived_property(c), want, "U+{u:04X} {:?}", derive(c));
        }
    }

    /// Every exception of §2.6 changes what the properties alone would give: without it, ß
    /// and ς would be unstable, the tatweel and the tone marks letters or marks, the Arabic-Indic
    /// digits plain digits, the middle dots punctuation.
    #[test]
    fn every_exception_overrides_the_properties() {
        let exceptions = (0..=0x3100u32)
            .filter_map(char::from_u32)
            .filter(|&c| exception(c).is_some());
        let mut n = 0;
        for c in exceptions {
            n += 1;
            let by_exception = derive(c).property;
            let by_props = by_properties(c).property;
            assert_ne!(by_exception, by_props, "U+{:04X}", c as u32);
        }
        assert_eq!(n, 41);
        assert_eq!(by_properties('\u{DF}').category, Category::Unstable);
        assert_eq!(by_properties('\u{640}').property, Pvalid);
        assert_eq!(by_properties('\u{660}').property, Pvalid);
        assert_eq!(by_properties('\u{B7}').category, Category::Other);
    }

    #[test]
    fn the_category_names_the_section() {
        assert_eq!(derive('\u{640}').category.section(), "RFC 5892 §2.6");
        assert_eq!(derive('A').category, Category::Unstable);
        assert_eq!(derive('\u{1F600}').category, Category::Other);
        assert_eq!(derive('\u{1100}').category, Category::OldHangulJamo);
        assert_eq!(derive('\u{20DD}').category, Category::IgnorableBlocks);
        assert_eq!(derive('\u{378}').category, Category::Unassigned);
    }
}
