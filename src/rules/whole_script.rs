//! The letter sets behind `confusable`'s whole-script and digit look-alike checks: for each
//! script, the letters that read as Latin letters, and the characters that read as digits.
//!
//! A letter of script S counts as a Latin look-alike (`letter_reading`) when either
//! - its UTS #39 skeleton (`unicode-security`, Unicode 18.0) is made of ASCII letters and
//!   digits and is not a digit alone (`а` → `a`, `ш` → `w`, `ο` → `o`): the Unicode data, every
//!   script; the test `data_derived_sets` below pins the derived sets of Cyrillic, Greek,
//!   Armenian and others letter by letter; or
//! - it is in the hand list of its script below, which adds the letters whose skeleton is not
//!   ASCII but which Chromium's IDN spoof checker (`kWholeScriptConfusables` in
//!   components/url_formatter/spoof_checks/idn_spoof_checker.cc) lists as Latin look-alikes
//!   (`ю` reads `io`, `ы` `bl`, `κ` `k`, `п` `n`): each with the Latin it reads as.
//!
//! A character reads as a digit (`digit_reading`) when its skeleton is one ASCII digit (`б` →
//! `6`, `३` → `3`) or it is in Chromium's digit look-alike list (`kDigitLookalikes`: `з` `θ`
//! ...), [`DIGIT_LOOKALIKES`].

use std::borrow::Cow;

use unicode_script::Script;
use unicode_security::confusable_detection::skeleton;

use crate::iri::props;

/// The Latin look-alikes of one script.
pub(super) struct WholeScript {
    pub script: Script,
    /// Letters (lowercase, as a host shows them) whose skeleton is not ASCII but that read as
    /// Latin, each with what it reads as.
    pub letters: &'static [(char, &'static str)],
    /// ASCII TLDs where labels in this script are at home (an IDN TLD with a letter of the
    /// script counts too).
    pub tlds: &'static [&'static str],
}

/// Per script, in the order of `unicode_script::Script` names. The ASCII TLDs are the country
/// codes of the countries where the script is the (or a) national script, after Chromium's
/// list, with `.pyc` (Cyrillic-looking ASCII of `.рус`) kept from it.
pub(super) static WHOLE_SCRIPT: &[WholeScript] = &[
    WholeScript {
        script: Script::Armenian,
        letters: &[('\u{0559}', "'"), ('\u{0567}', "t"), ('\u{056C}', "l")],
        tlds: &["am"],
    },
    WholeScript {
        script: Script::Bengali,
        letters: &[],
        tlds: &["bd"],
    },
    WholeScript {
        script: Script::Canadian_Aboriginal,
        letters: &[],
        tlds: &["ca"],
    },
    WholeScript {
        script: Script::Cherokee,
        letters: &[],
        tlds: &[],
    },
    WholeScript {
        script: Script::Cyrillic,
        // к п ъ ы ь ю ԍ ԗ beside the skeleton-derived а г е о р с у х ш ѕ і ј ѡ ѵ ԁ ԛ ԝ ...
        letters: &[
            ('\u{043A}', "k"),
            ('\u{043F}', "n"),
            ('\u{044A}', "b"),
            ('\u{044B}', "bl"),
            ('\u{044C}', "b"),
            ('\u{044E}', "io"),
            ('\u{050D}', "g"),
            ('\u{0517}', "p"),
        ],
        tlds: &[
            "ba", "bg", "by", "kg", "kz", "me", "mk", "mn", "pyc", "rs", "ru", "su", "tj", "ua",
            "uz",
        ],
    },
    WholeScript {
        script: Script::Devanagari,
        letters: &[('\u{093D}', "s"), ('\u{0971}', "o")],
        tlds: &["in", "np"],
    },
    WholeScript {
        script: Script::Ethiopic,
        letters: &[
            ('\u{1220}', "w"),
            ('\u{1230}', "w"),
            ('\u{1235}', "u"),
            ('\u{1260}', "n"),
            ('\u{1270}', "t"),
            ('\u{1290}', "h"),
            ('\u{12A8}', "h"),
            ('\u{12D5}', "o"),
            ('\u{12D8}', "h"),
            ('\u{1320}', "m"),
            ('\u{1350}', "t"),
            ('\u{AB05}', "u"),
        ],
        tlds: &["er", "et"],
    },
    WholeScript {
        script: Script::Georgian,
        letters: &[
            ('\u{10D8}', "o"),
            ('\u{10DD}', "m"),
            ('\u{10EB}', "d"),
            ('\u{10EE}', "b"),
        ],
        tlds: &["ge"],
    },
    WholeScript {
        script: Script::Greek,
        // η ι κ τ ω beside the skeleton-derived α γ ν ο ρ σ υ ...
        letters: &[
            ('\u{03B7}', "n"),
            ('\u{03BA}', "k"),
            ('\u{03C4}', "t"),
            ('\u{03C9}', "w"),
        ],
        tlds: &["cy", "gr"],
    },
    WholeScript {
        script: Script::Gujarati,
        letters: &[('\u{0A9F}', "s"), ('\u{0AA1}', "s"), ('\u{0AE7}', "q")],
        tlds: &["in"],
    },
    WholeScript {
        script: Script::Gurmukhi,
        letters: &[('\u{0A67}', "q")],
        tlds: &["in"],
    },
    WholeScript {
        script: Script::Hebrew,
        letters: &[
            ('\u{05D3}', "t"),
            ('\u{05D9}', "'"),
            ('\u{05F2}', "''"),
            ('\u{05F3}', "'"),
            ('\u{FB26}', "o"),
        ],
        tlds: &["il"],
    },
    WholeScript {
        script: Script::Kannada,
        letters: &[('\u{0CBD}', "s"), ('\u{0CE7}', "o")],
        tlds: &["in"],
    },
    WholeScript {
        script: Script::Lao,
        letters: &[('\u{0E9A}', "u"), ('\u{0E9E}', "w")],
        tlds: &["la"],
    },
    WholeScript {
        script: Script::Malayalam,
        letters: &[('\u{0D27}', "w"), ('\u{0D28}', "m"), ('\u{0D31}', "o")],
        tlds: &["in"],
    },
    WholeScript {
        script: Script::Myanmar,
        letters: &[
            ('\u{1001}', "o"),
            ('\u{1002}', "o"),
            ('\u{1011}', "w"),
            ('\u{1015}', "u"),
            ('\u{1042}', "j"),
            ('\u{1054}', "g"),
            ('\u{105C}', "e"),
            ('\u{1090}', "o"),
            ('\u{1091}', "o"),
            ('\u{1095}', "o"),
            ('\u{1096}', "g"),
            ('\u{1097}', "g"),
        ],
        tlds: &["mm"],
    },
    WholeScript {
        script: Script::Oriya,
        letters: &[('\u{0B6E}', "r")],
        tlds: &["in"],
    },
    WholeScript {
        script: Script::Tamil,
        letters: &[('\u{0B9F}', "l"), ('\u{0BAA}', "u")],
        tlds: &["in", "lk", "sg"],
    },
    WholeScript {
        script: Script::Telugu,
        letters: &[('\u{0C67}', "o")],
        tlds: &["in"],
    },
    WholeScript {
        script: Script::Thai,
        letters: &[
            ('\u{0E14}', "o"),
            ('\u{0E17}', "n"),
            ('\u{0E19}', "u"),
            ('\u{0E1A}', "u"),
            ('\u{0E1B}', "u"),
            ('\u{0E1E}', "w"),
            ('\u{0E21}', "u"),
            ('\u{0E25}', "a"),
            ('\u{0E2B}', "n"),
            ('\u{0E40}', "l"),
            ('\u{0E41}', "ll"),
        ],
        tlds: &["th"],
    },
    WholeScript {
        script: Script::Tifinagh,
        letters: &[],
        tlds: &["dz", "ma"],
    },
];

/// The entry of `script`, if it has one.
pub(super) fn entry(script: Script) -> Option<&'static WholeScript> {
    WHOLE_SCRIPT.iter().find(|e| e.script == script)
}

/// The skeleton of one character.
pub(super) fn skeleton_of(c: char) -> String {
    with_skeleton(c, str::to_string)
}

/// The most characters [`with_skeleton`] remembers per thread.
const SKELETON_CACHE_SIZE: usize = 256;

/// `f` of the skeleton of `c`, remembered: a skeleton is two normalizations and a table search
/// (about 900 instructions for one character), and the look-alike rules ask it of the same few
/// letters over and over (every Cyrillic `а` of every look-alike host, two rules for each).
/// The cache is per thread, one entry per slot, so it stays small whatever the input.
pub(super) fn with_skeleton<R>(c: char, f: impl FnOnce(&str) -> R) -> R {
    use std::cell::RefCell;
    type Slots = Vec<Option<(char, Box<str>)>>;
    thread_local! {
        static SKELETONS: RefCell<Slots> = RefCell::new(vec![None; SKELETON_CACHE_SIZE]);
    }
    SKELETONS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let slot = &mut cache[c as usize % SKELETON_CACHE_SIZE];
        match slot {
            Some((known, sk)) if *known == c => f(sk),
            _ => {
                let mut buf = [0u8; 4];
                let sk: String = skeleton(c.encode_utf8(&mut buf)).collect();
                let r = f(&sk);
                *slot = Some((c, sk.into_boxed_str()));
                r
            }
        }
    })
}

/// What `c` (a letter of `entry`'s script, folded as a host shows it) reads as in Latin, if
/// it is one of the script's Latin look-alikes: its hand-listed reading, or its skeleton when
/// that is ASCII letters and digits and not one digit alone.
pub(super) fn letter_reading(c: char, entry: &WholeScript) -> Option<Cow<'static, str>> {
    if let Some(&(_, r)) = entry.letters.iter().find(|&&(l, _)| l == c) {
        return Some(Cow::Borrowed(r));
    }
    if props::script(c) != entry.script {
        return None;
    }
    derived_reading(c).or_else(|| {
        if chromium_lists(c, entry.script) {
            chromium_reading(c)
        } else {
            None
        }
    })
}

/// How many characters [`derived_reading`] remembers per thread.
const CACHED: usize = 4096;

/// The skeleton of `c`, lowercased, when it is ASCII letters and digits and not one digit
/// alone. Remembered per thread: a host's letters come from a small alphabet, and a skeleton
/// costs a few hundred instructions.
fn derived_reading(c: char) -> Option<Cow<'static, str>> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static SEEN: RefCell<HashMap<char, Option<&'static str>>> = RefCell::new(HashMap::new());
    }
    SEEN.with(|seen| {
        if let Some(&r) = seen.borrow().get(&c) {
            return r.map(Cow::Borrowed);
        }
        let sk = skeleton_of(c);
        let ascii = !sk.is_empty() && sk.chars().all(|k| k.is_ascii_alphanumeric());
        let digit = sk.len() == 1 && sk.as_bytes()[0].is_ascii_digit();
        if !ascii || digit {
            let mut seen = seen.borrow_mut();
            if seen.len() < CACHED {
                seen.insert(c, None);
            }
            return None;
        }
        let reading = sk.to_ascii_lowercase();
        let mut seen = seen.borrow_mut();
        if seen.len() >= CACHED {
            return Some(Cow::Owned(reading));
        }
        // Kept for the life of the thread: at most CACHED short strings.
        let kept: &'static str = Box::leak(reading.into_boxed_str());
        seen.insert(c, Some(kept));
        Some(Cow::Borrowed(kept))
    })
}

/// Common words that are whole-script look-alikes but spell no Latin word (Chromium's
/// `kAllowedWholeScriptConfusableWords`).
pub(super) const ALLOWED_WORDS: &[&str] = &[
    "секс",
    "как",
    "коса",
    "курс",
    "парк",
    "такий",
    "укроп",
    "сахарок",
    "покраска",
];

/// Characters that read as digits although their skeleton is no ASCII digit, each with the
/// digit: Chromium's `digit_lookalikes_` (idn_spoof_checker.cc), generated. Sorted.
pub(super) use super::spoof_tables::DIGIT_LOOKALIKES;

/// What `c` passes for before its UTS #39 skeleton is taken, if Chromium's extra confusable
/// mappings or the letters-with-hooks table ([`super::spoof_tables::EXTRA_SKELETONS`]) has it:
/// `ь` is `b`, `ŋ` `n`, `ɨ` `i`, `þ` `b` or `p`.
pub(super) fn extra_skeletons(c: char) -> Option<&'static [&'static str]> {
    if c.is_ascii() {
        return None;
    }
    let table = super::spoof_tables::EXTRA_SKELETONS;
    table
        .binary_search_by_key(&c, |&(l, _)| l)
        .ok()
        .map(|k| table[k].1)
}

/// True when Chromium lists `c` among the Latin look-alikes of `script` (`kWholeScriptConfusables`).
fn chromium_lists(c: char, script: Script) -> bool {
    super::spoof_tables::CHROMIUM_WHOLE_SCRIPT
        .iter()
        .any(|&(s, letters, _)| s == script && letters.contains(c))
}

/// What a letter Chromium lists as a Latin look-alike reads as: its extra mapping carried
/// through the UTS #39 skeleton when that is ASCII letters and digits.
fn chromium_reading(c: char) -> Option<Cow<'static, str>> {
    let readings = extra_skeletons(c)?;
    let sk: String = skeleton(readings[0]).collect();
    (!sk.is_empty() && sk.chars().all(|k| k.is_ascii_alphanumeric()))
        .then(|| Cow::Owned(sk.to_ascii_lowercase()))
}

/// The ASCII digit `c` reads as, if it is a digit look-alike (not an ASCII digit itself).
pub(super) fn digit_reading(c: char) -> Option<char> {
    if c.is_ascii() {
        return None;
    }
    if let Ok(k) = DIGIT_LOOKALIKES.binary_search_by_key(&c, |&(l, _)| l) {
        return Some(DIGIT_LOOKALIKES[k].1);
    }
    let sk = skeleton_of(c);
    let b = sk.as_bytes();
    (b.len() == 1 && b[0].is_ascii_digit()).then(|| char::from(b[0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The skeleton-derived letters of a script, lowercase as a host shows them (BMP).
    fn derived(script: Script) -> String {
        let entry = entry(script).unwrap();
        ('\u{80}'..='\u{FFFF}')
            .filter(|&c| props::script(c) == script && super::super::host_labels::folded(c) == c)
            .filter(|&c| !entry.letters.iter().any(|&(l, _)| l == c))
            .filter(|&c| derived_reading(c).is_some())
            .collect()
    }

    #[test]
    fn data_derived_sets() {
        // The exact sets the Unicode data gives today: a new Unicode version that changes them
        // shows up here (and the docs name these letters).
        assert_eq!(derived(Script::Cyrillic), "агеорсухшѕіјѡѵѹүһҽӏӕԁԛԝᲂᲃꙇꚙ");
        assert_eq!(
            derived(Script::Greek),
            "\u{03B1}\u{03B3}\u{03B9}\u{03BD}\u{03BF}\u{03C1}\u{03C3}\u{03C5}\u{03D2}\u{03F1}\u{03F2}\u{03F3}\u{03F8}\u{1D26}\u{1FBE}"
        );
        assert_eq!(derived(Script::Armenian), "ՠագզհյոռսցւքօ");
        assert_eq!(derived(Script::Hebrew), "׀וטןסװ");
        assert_eq!(derived(Script::Thai), "๐");
    }

    #[test]
    fn hand_lists_are_letters_of_their_script_and_not_derived() {
        let mut derived = Vec::new();
        for e in WHOLE_SCRIPT {
            for &(c, r) in e.letters {
                assert_eq!(props::script(c), e.script, "{c:?}");
                assert!(!r.is_empty());
                let sk = skeleton_of(c);
                let digit = sk.len() == 1 && sk.as_bytes()[0].is_ascii_digit();
                if sk.chars().all(|k| k.is_ascii_alphanumeric()) && !digit {
                    derived.push(c);
                }
            }
        }
        assert!(derived.is_empty(), "derived already: {derived:?}");
    }

    #[test]
    fn chromium_whole_script_letters_all_read_as_latin() {
        // Every letter Chromium lists as a Latin look-alike has a reading here, so that a label
        // of them is a whole-script look-alike as in Chrome.
        let mut missing = Vec::new();
        for &(script, letters, _) in super::super::spoof_tables::CHROMIUM_WHOLE_SCRIPT {
            let e = entry(script).unwrap_or_else(|| panic!("{script:?}"));
            for c in letters.chars() {
                if letter_reading(c, e).is_none() {
                    missing.push(format!("{c} {:04X} {script:?}", c as u32));
                }
            }
        }
        assert!(missing.is_empty(), "{missing:#?}");
    }

    #[test]
    fn digits() {
        assert_eq!(digit_reading('\u{431}'), Some('6'));
        assert_eq!(digit_reading('\u{437}'), Some('3'));
        assert_eq!(digit_reading('\u{3B8}'), Some('0'));
        assert_eq!(digit_reading('\u{969}'), Some('3'));
        assert_eq!(digit_reading('a'), None);
        assert_eq!(digit_reading('\u{430}'), None);
        assert!(DIGIT_LOOKALIKES.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
