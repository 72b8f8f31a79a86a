//! The bidi rule of RFC 5893 §2, which every label of a domain name with right-to-left
//! characters must satisfy. `idn-invalid` names the rule a label breaks when UTS #46 CheckBidi
//! rejects it; `idn-not-registrable` applies it as IDNA2008 does.

use icu_properties::CodePointMapData;
use icu_properties::props::BidiClass as IcuBidiClass;
use unicode_bidi::{BidiClass, bidi_class};

use crate::iri::chars::describe;

/// True when a label holds a character of bidi class R, AL or AN: the domain name is then a
/// "Bidi domain name" (RFC 5893 §1.4) and every label must satisfy the rule.
pub fn is_rtl_label(label: &str) -> bool {
    // Every domain name is asked, so the quick look-up (a trie, not a binary search).
    let classes = CodePointMapData::<IcuBidiClass>::new();
    label.chars().any(|c| {
        !c.is_ascii()
            && matches!(
                classes.get(c),
                IcuBidiClass::RightToLeft | IcuBidiClass::ArabicLetter | IcuBidiClass::ArabicNumber
            )
    })
}

/// The first rule of RFC 5893 §2 that `label` breaks, assuming it is in a bidi domain name.
pub fn bidi_rule(label: &str) -> Option<String> {
    use BidiClass::*;
    let mut chars = label.chars();
    let first = chars.next()?;
    let first_class = bidi_class(first);
    let rtl = match first_class {
        L => false,
        R | AL => true,
        _ => {
            return Some(format!(
                "it starts with {}, not with a letter (rule 1)",
                describe(first)
            ));
        }
    };
    // The classes are computed again for each question, never held: a label may be a
    // megabyte long in a hostile IRI.
    let classes = || label.chars().map(|c| (c, bidi_class(c)));
    let last = classes()
        .rev()
        .find(|(_, b)| *b != NSM)
        .unwrap_or((first, first_class));
    if rtl {
        if let Some((c, _)) =
            classes().find(|(_, b)| !matches!(b, R | AL | AN | EN | ES | CS | ET | ON | BN | NSM))
        {
            return Some(format!(
                "this right-to-left label contains {}, a left-to-right character (rule 2)",
                describe(c)
            ));
        }
        if !matches!(last.1, R | AL | EN | AN) {
            return Some(format!(
                "this right-to-left label ends with {}, not with a right-to-left letter or a digit (rule 3)",
                describe(last.0)
            ));
        }
        let en = classes().find(|(_, b)| *b == EN);
        let an = classes().find(|(_, b)| *b == AN);
        if let (Some((e, _)), Some((a, _))) = (en, an) {
            return Some(format!(
                "this right-to-left label mixes European digits ({}) and Arabic-Indic digits ({}) (rule 4)",
                describe(e),
                describe(a)
            ));
        }
    } else {
        if let Some((c, _)) =
            classes().find(|(_, b)| !matches!(b, L | EN | ES | CS | ET | ON | BN | NSM))
        {
            return Some(format!(
                "this left-to-right label contains {}, a right-to-left character (rule 5)",
                describe(c)
            ));
        }
        if !matches!(last.1, L | EN) {
            return Some(format!(
                "this left-to-right label ends with {}, not with a letter or a digit (rule 6)",
                describe(last.0)
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bidi_rule_names_the_rule() {
        assert!(bidi_rule("1abc").unwrap().contains("rule 1"));
        assert!(bidi_rule("\u{5E9}\u{5DC}\u{5D5}\u{5DD}").is_none());
        assert!(bidi_rule("\u{5D0}a").unwrap().contains("rule 2"));
        assert!(bidi_rule("\u{5D0}-").unwrap().contains("rule 3"));
        assert!(bidi_rule("\u{627}1\u{661}").unwrap().contains("rule 4"));
        assert!(bidi_rule("example").is_none());
    }
}
