//! The Unicode properties the rules ask of every character of every IRI — Script,
//! Script_Extensions (as UTS #39's augmented script set) and Bidi_Class — looked up in constant
//! time.
//!
//! `unicode-script` and `unicode-bidi` answer by a binary search over about two thousand
//! ranges, which made a long non-ASCII IRI cost some 150 ns a character. Here each 256-character
//! block of the Basic Multilingual Plane is filled from those same crates the first time one of
//! its characters is asked about (a few microseconds), and answered from the block after that:
//! the answers are the crates' own, only cached. Other planes are asked of the crates directly.

use std::sync::OnceLock;

use unicode_bidi::{BidiClass, bidi_class as bidi_class_of};
use unicode_script::{Script, ScriptExtension, UnicodeScript};
use unicode_security::mixed_script::AugmentedScriptSet;

const BLOCKS: usize = 256;

/// A block per 256 BMP code points, filled on first use by `of`.
struct Table<T: 'static>([OnceLock<Box<[T; 256]>>; BLOCKS]);

impl<T: Copy> Table<T> {
    const fn new() -> Table<T> {
        Table([const { OnceLock::new() }; BLOCKS])
    }

    fn get(&self, c: char, of: fn(char) -> T, surrogate: T) -> T {
        let cp = u32::from(c);
        if cp > 0xFFFF {
            return of(c);
        }
        let block = self.0[(cp >> 8) as usize].get_or_init(|| {
            let base = cp & !0xFF;
            Box::new(std::array::from_fn(|i| {
                char::from_u32(base + i as u32).map_or(surrogate, of)
            }))
        });
        block[(cp & 0xFF) as usize]
    }
}

static SCRIPTS: Table<Script> = Table::new();
static BIDI_CLASSES: Table<BidiClass> = Table::new();
static SCRIPT_SETS: Table<AugmentedScriptSet> = Table::new();
static NFC_INERT: Table<bool> = Table::new();

/// The Script property of `c` (as `unicode_script`'s `UnicodeScript::script`).
pub fn script(c: char) -> Script {
    SCRIPTS.get(c, |c| c.script(), Script::Unknown)
}

/// The augmented script set of `c` (UTS #39; as `unicode_security`'s
/// `AugmentedScriptSet::for_char`): its Script_Extensions, with Japanese, Korean and Han with
/// Bopomofo.
pub fn script_set(c: char) -> AugmentedScriptSet {
    SCRIPT_SETS.get(
        c,
        AugmentedScriptSet::for_char,
        AugmentedScriptSet::from(ScriptExtension::from(Script::Unknown)),
    )
}

/// The Script_Extensions property of `c` (as `unicode_script`'s `UnicodeScript::script_extension`).
pub fn script_extension(c: char) -> ScriptExtension {
    script_set(c).base
}

/// True when `c` is a starter (canonical combining class 0) whose NFC quick check is Yes: a
/// text of such characters is in NFC, whatever their order.
pub fn nfc_inert(c: char) -> bool {
    fn of(c: char) -> bool {
        unicode_normalization::char::canonical_combining_class(c) == 0
            && unicode_normalization::is_nfc_quick(std::iter::once(c))
                == unicode_normalization::IsNormalized::Yes
    }
    NFC_INERT.get(c, of, false)
}

/// The Bidi_Class property of `c` (as `unicode_bidi::bidi_class`).
pub fn bidi_class(c: char) -> BidiClass {
    BIDI_CLASSES.get(c, bidi_class_of, BidiClass::L)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_gets_the_crates_answer() {
        // Twice over, so that the second pass reads the filled blocks.
        for _ in 0..2 {
            for c in (0..=0x10FFFF).step_by(7).filter_map(char::from_u32) {
                assert_eq!(script(c), c.script(), "{:04X}", u32::from(c));
                assert_eq!(bidi_class(c), bidi_class_of(c), "{:04X}", u32::from(c));
                let set = AugmentedScriptSet::for_char(c);
                assert!(script_set(c) == set, "{:04X}", u32::from(c));
                let inert = unicode_normalization::char::canonical_combining_class(c) == 0
                    && unicode_normalization::is_nfc_quick(std::iter::once(c))
                        == unicode_normalization::IsNormalized::Yes;
                assert_eq!(nfc_inert(c), inert, "{:04X}", u32::from(c));
                assert_eq!(
                    script_extension(c),
                    c.script_extension(),
                    "{:04X}",
                    u32::from(c)
                );
            }
        }
        for c in [
            'a',
            'é',
            'א',
            'ش',
            '日',
            '\u{202E}',
            '\u{FFFF}',
            '\u{10FFFF}',
            '😀',
        ] {
            assert_eq!(script(c), c.script());
            assert_eq!(bidi_class(c), bidi_class_of(c));
        }
    }
}
