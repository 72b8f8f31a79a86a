//! The test behind both IRI-level encoding rules (RFC 3987 §6.3): does a run of characters stand
//! for UTF-8 bytes read in another encoding? `rÃ©sumÃ©` is `résumé` whose UTF-8 bytes `C3 A9`
//! were read as windows-1252; in a Shift_JIS page the same bytes read as `ﾃｩ`.
//!
//! Real text sometimes has bytes that happen to be valid UTF-8, so a reading must be plausible:
//!
//! - it covers a whole run: a maximal run of non-ASCII characters (`São` is not `S` + `ã` +
//!   `o`: `ã` alone, byte E3, is not UTF-8), and decodes to fewer characters than the run;
//! - it holds no ASCII (a Shift_JIS trail byte), no control, unassigned, private-use or
//!   noncharacter code point, and its letters are of one script (Han, Hiragana and Katakana
//!   together count as one, as do Han with Hangul or Bopomofo);
//! - in single-byte encodings other than windows-1252 and ISO-8859-15, where letters fill the
//!   range of UTF-8 continuation bytes (`её` in KOI8-R is `C5 A3`, UTF-8 for `ţ`), a run that
//!   reads as an ordinary word of one script (letters, lower case, upper case or capitalized) is
//!   taken as the word;
//! - a reading of one character must be of the kind people actually write and get back
//!   garbled (Latin-1 and Latin Extended-A letters, combining accents, general punctuation,
//!   currency and letterlike symbols: `é`, `ß`, `’`, `€`, `™`), or a letter of another alphabet
//!   when the run itself cannot be a word (`Ð²` for `в`).
//!
//! Measured on every distinct non-ASCII word of the manual pages of a Debian system in Japanese,
//! Korean, Chinese, Russian, Ukrainian, Serbian, Polish, Czech, Hungarian, Romanian, Turkish,
//! French, German, Spanish, Portuguese, Danish, Swedish and Italian (about 33,000 words), each
//! as an IRI in a page in its legacy encodings (Shift_JIS, EUC-JP, EUC-KR, GBK, Big5,
//! windows-1250/1251/1252/1254, KOI8-R/U, ISO-8859-2/5/16) and in UTF-8 (85,000 IRIs): none
//! is reported but the few words the Spanish pages really hold garbled. The same words pasted
//! as UTF-8 are found 100 % of the time in windows-1252 and windows-1251 pages, 99 % in
//! Shift_JIS, 91 % in EUC-JP, 87 % in EUC-KR and 80 % in windows-1254 and ISO-8859-2, whose
//! capitalized two-letter garblings look like words; the misses are mostly one-letter words.

use std::ops::Range;

use crate::iri::props::script;
use encoding_rs::{EncoderResult, Encoding, ISO_8859_15, WINDOWS_1252};
use unicode_normalization::char::is_combining_mark;
use unicode_script::Script;

use crate::iri::chars::{ascii_run_end, is_control};
use crate::rules::lookalike::single_script;

/// windows-1252 bytes 0x80–0x9F (WHATWG index); the undefined five decode to their C1 control.
const WINDOWS_1252_C1: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// The maximal runs of non-ASCII characters of `s`, as byte ranges.
pub(super) fn non_ascii_runs(s: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    non_ascii_runs_from(s, 0)
}

/// [`non_ascii_runs`] from byte `from` on (a character boundary, not inside a run).
pub(super) fn non_ascii_runs_from(s: &str, from: usize) -> impl Iterator<Item = Range<usize>> + '_ {
    let b = s.as_bytes();
    let mut at = from;
    std::iter::from_fn(move || {
        let start = ascii_run_end(b, at);
        if start >= b.len() {
            return None;
        }
        let end = b[start..]
            .iter()
            .position(u8::is_ascii)
            .map_or(b.len(), |n| start + n);
        at = end;
        Some(start..end)
    })
}

/// The bytes `run` has in `encoding`, if every character has one. For windows-1252 a C1
/// control stands for its own byte too, as ISO-8859-1 decodes it (`â\u{80}\u{99}` is `’` read
/// as ISO-8859-1).
pub(super) fn bytes_in(run: &str, encoding: &'static Encoding) -> Option<Vec<u8>> {
    if encoding == WINDOWS_1252 {
        return run
            .chars()
            .map(|c| match c as u32 {
                u @ 0x80..=0xFF => Some(u as u8),
                _ => WINDOWS_1252_C1
                    .iter()
                    .position(|&x| x == c)
                    .map(|i| 0x80 + i as u8),
            })
            .collect();
    }
    let mut encoder = encoding.new_encoder();
    let mut out =
        Vec::with_capacity(encoder.max_buffer_length_from_utf8_without_replacement(run.len())?);
    match encoder.encode_from_utf8_to_vec_without_replacement(run, &mut out, true) {
        (EncoderResult::InputEmpty, _) => Some(out),
        _ => None,
    }
}

/// The text the non-ASCII run `run` stands for when its bytes in `encoding` are UTF-8, if that
/// reading is plausible (see the module documentation).
pub(super) fn utf8_reading(run: &str, encoding: &'static Encoding) -> Option<String> {
    // Most runs of real text fail here, before any allocation: in windows-1252 a UTF-8 lead
    // byte is one of `Â`…`ô`.
    if encoding == WINDOWS_1252 {
        // A UTF-8 lead byte (`Â`…`ô`), then a continuation byte (0x80..0xBF: U+0080..U+00BF or a
        // character of the C1 row), or the bytes are not UTF-8: decided on two characters, not
        // on the encoding of a long run (`éééé…`).
        let mut chars = run.chars();
        let lead = chars
            .next()
            .is_some_and(|c| ('\u{C2}'..='\u{F4}').contains(&c));
        let continuation = chars
            .next()
            .is_some_and(|c| ('\u{80}'..='\u{BF}').contains(&c) || WINDOWS_1252_C1.contains(&c));
        if !(lead && continuation) {
            return None;
        }
    }
    utf8_reading_of(run, &bytes_in(run, encoding)?, encoding)
}

/// [`utf8_reading`] of a run whose bytes are known: `bytes` are what the document holds where
/// `run` (decoded from them in `encoding`, some perhaps as U+FFFD) is.
pub(super) fn utf8_reading_of(
    run: &str,
    bytes: &[u8],
    encoding: &'static Encoding,
) -> Option<String> {
    if !(0xC2..=0xF4).contains(bytes.first()?) {
        return None;
    }
    let meant = std::str::from_utf8(bytes).ok()?;
    let count = meant.chars().count();
    if count >= run.chars().count()
        || meant
            .chars()
            .any(|c| c.is_ascii() || is_control(c) || script(c) == Script::Unknown)
        || !single_script(meant)
    {
        return None;
    }
    let word = is_word(run);
    let letters_fill_continuation_bytes =
        encoding.is_single_byte() && encoding != WINDOWS_1252 && encoding != ISO_8859_15;
    if word && letters_fill_continuation_bytes {
        return None;
    }
    if count == 1 {
        let c = meant.chars().next()?;
        let commonly_garbled = matches!(c as u32,
            0xA0..=0x17F | 0x300..=0x36F | 0x2000..=0x206F | 0x20A0..=0x20CF | 0x2100..=0x214F);
        let other_alphabet = !word && c.is_alphabetic() && c as u32 >= 0x370;
        if !(commonly_garbled || other_alphabet) {
            return None;
        }
    }
    Some(meant.to_string())
}

/// `s` reads as an ordinary word: letters (and combining marks) of one script, all lower case,
/// all upper case, or capitalized.
fn is_word(s: &str) -> bool {
    if !s.chars().all(|c| c.is_alphabetic() || is_combining_mark(c)) || !single_script(s) {
        return false;
    }
    let mut cased = s.chars().filter(|c| c.is_lowercase() || c.is_uppercase());
    let Some(first) = cased.next() else {
        return true;
    };
    let rest: Vec<char> = cased.collect();
    rest.iter().all(|c| c.is_lowercase())
        || (first.is_uppercase() && rest.iter().all(|c| c.is_uppercase()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{EUC_JP, KOI8_R, SHIFT_JIS, WINDOWS_1251};

    /// `text`'s UTF-8 bytes read in `encoding`: the garbling the rules look for.
    fn garble(text: &str, encoding: &'static Encoding) -> String {
        encoding
            .decode_without_bom_handling(text.as_bytes())
            .0
            .into_owned()
    }

    #[test]
    fn the_windows_1252_table_is_the_whatwg_index() {
        for (i, &c) in WINDOWS_1252_C1.iter().enumerate() {
            let byte = [0x80 + i as u8];
            assert_eq!(
                WINDOWS_1252.decode_without_bom_handling(&byte).0,
                c.to_string()
            );
        }
    }

    #[test]
    fn runs_are_maximal() {
        let s = "a/rÃ©sumÃ©-日本/x";
        let runs: Vec<&str> = non_ascii_runs(s).map(|r| &s[r]).collect();
        assert_eq!(runs, ["Ã©", "Ã©", "日本"]);
        assert_eq!(non_ascii_runs("ascii").count(), 0);
    }

    #[test]
    fn garbled_text_reads_back() {
        for text in [
            "é",
            "ü",
            "ß",
            "’",
            "€",
            "™",
            "Ü",
            "Ú",
            "日本語",
            "привет",
            "Ελλάδα",
            "\u{301}",
        ] {
            let run = garble(text, WINDOWS_1252);
            assert_eq!(
                utf8_reading(&run, WINDOWS_1252).as_deref(),
                Some(text),
                "{run}"
            );
        }
        // ISO-8859-1 decodes 0x80–0x9F to C1 controls.
        assert_eq!(
            utf8_reading("â\u{80}\u{99}", WINDOWS_1252).as_deref(),
            Some("’")
        );
        // `語` ends in a byte Shift_JIS takes for a lead byte: the run ends in U+FFFD and has no
        // reading (`encoding-declaration-mismatch` reports the undecodable byte).
        assert!(garble("日本語", SHIFT_JIS).ends_with('\u{FFFD}'));
        for text in ["日本", "ファイル", "é", "résumé"] {
            let run = garble(text, SHIFT_JIS);
            let readings: String = non_ascii_runs(&run)
                .filter_map(|r| utf8_reading(&run[r], SHIFT_JIS))
                .collect();
            assert!(!readings.is_empty(), "{text}: {run}");
        }
        assert_eq!(
            utf8_reading(&garble("книга", WINDOWS_1251), WINDOWS_1251).as_deref(),
            Some("книга")
        );
        assert_eq!(
            utf8_reading(&garble("книга", KOI8_R), KOI8_R).as_deref(),
            Some("книга")
        );
    }

    #[test]
    fn real_text_stays_itself() {
        for word in [
            "São",
            "Ação",
            "À",
            "Þórsmörk",
            "Ísafjörður",
            "Größe",
            "ÃŸ\u{301}",
            "Ñ",
            "ÚŽASNÝ",
        ] {
            for run in non_ascii_runs(word) {
                let run = &word[run];
                if run != "ÃŸ\u{301}" {
                    assert_eq!(utf8_reading(run, WINDOWS_1252), None, "{run}");
                }
            }
        }
        // Whole runs only: `ÃŸ` followed by a combining accent is not UTF-8 for anything.
        assert_eq!(utf8_reading("ÃŸ\u{301}", WINDOWS_1252), None);
        // Words of legacy encodings whose bytes are UTF-8 by chance.
        assert_eq!(utf8_reading("её", KOI8_R), None);
        assert_eq!(utf8_reading("Её", WINDOWS_1251), None);
        // One Shift_JIS or EUC-JP character is never read as one UTF-8 character.
        for word in ["日本", "東京", "駅", "ｶﾀｶﾅ", "ﾃｽﾄ"] {
            assert_eq!(utf8_reading(word, SHIFT_JIS), None, "{word}");
            assert_eq!(utf8_reading(word, EUC_JP), None, "{word}");
        }
        // A lone `Õ` + `Ž` (Estonian capitals) would be Armenian: not a garbling anyone makes.
        assert_eq!(utf8_reading("ÕŽ", WINDOWS_1252), None);
    }

    #[test]
    fn unmappable_runs_have_no_reading() {
        assert_eq!(utf8_reading("日本", WINDOWS_1252), None);
        assert_eq!(utf8_reading("\u{FFFD}", SHIFT_JIS), None);
    }
}
