//! Percent-encoded text in a legacy encoding (`%a5%b9%a5%dd%a1%bc%a5%c4`, スポーツ in EUC-JP):
//! where it is in a run of triplets, and what it would read as.
//!
//! Octets of a multi-byte legacy encoding are, here and there, valid UTF-8 by accident (`%dd%a1`
//! is U+0761) or an overlong form (`%c1%b3`). Read piece by piece, one legacy word would be
//! several `percent-non-utf8` findings with meaningless windows-1252 hints, and an "overlong `s`"
//! error. Read as a stretch, it is one finding that can say what the text probably was.

use std::ops::Range;

use crate::iri::props::script;
use encoding_rs::{BIG5, EUC_JP, EUC_KR, Encoding, GBK, SHIFT_JIS, WINDOWS_1251};
use unicode_normalization::char::is_combining_mark;
use unicode_script::Script;

use crate::iri::chars::is_unsafe_to_display;
use crate::iri::percent::{Decoded, Piece};
use crate::rules::lookalike::single_script;

/// The stretches (as ranges of piece indices) of legacy text in a run: from a piece that is not
/// UTF-8 to a piece that is not UTF-8, over non-ASCII pieces only. Between two such pieces,
/// whatever decodes is an accident of the legacy octets (`%dd%a1` in EUC-JP), unless another
/// rule has something to say of it: a bidi, invisible or control character, an overlong form of
/// anything but a letter or digit, a surrogate, a value above U+10FFFF end a stretch.
pub(super) fn stretches(pieces: &[Piece]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    // The stretch being built: its first piece and its last piece that is not UTF-8.
    let mut open: Option<(usize, usize)> = None;
    for (k, piece) in pieces.iter().enumerate() {
        let accident = piece.octets[0] >= 0x80
            && match piece.decoded {
                Decoded::NotUtf8 => true,
                Decoded::Char(c) => !is_unsafe_to_display(c),
                Decoded::Overlong(v) => {
                    char::from_u32(v).is_some_and(|c| c.is_ascii_alphanumeric())
                }
                Decoded::Surrogate(_) | Decoded::TooLarge(_) => false,
            };
        if !accident {
            if let Some((start, last)) = open.take() {
                out.push(start..last + 1);
            }
            continue;
        }
        if piece.decoded == Decoded::NotUtf8 {
            open = Some(open.map_or((k, k), |(start, _)| (start, k)));
        }
    }
    if let Some((start, last)) = open {
        out.push(start..last + 1);
    }
    out
}

/// Whether piece `k` lies in one of `stretches`.
pub(super) fn in_stretch(stretches: &[Range<usize>], k: usize) -> bool {
    stretches.iter().any(|s| s.contains(&k))
}

/// Multi-byte legacy encodings whose text is commonly percent-encoded as is, and the one
/// single-byte encoding besides windows-1252 whose letters fill the whole upper half.
const CANDIDATES: [&Encoding; 6] = [SHIFT_JIS, EUC_JP, EUC_KR, GBK, BIG5, WINDOWS_1251];

/// What `octets` read as in the legacy encodings where they are text: every octet decodes, into
/// at least two letters of one writing system. Almost any pair of octets is a Han character in
/// GBK and Big5, so a reading with kana in a Japanese encoding or Hangul in EUC-KR wins over
/// readings in Han alone. Encodings that agree are named together (`EUC-JP or GBK`); `None` when
/// no encoding reads them so, or when the likeliest readings disagree.
pub(super) fn reading(octets: &[u8]) -> Option<(String, String)> {
    // (encodings, text, whether the text is in the script its encoding was made for)
    let mut found: Vec<(Vec<&'static str>, String, bool)> = Vec::new();
    for encoding in CANDIDATES {
        let Some(text) = encoding.decode_without_bom_handling_and_without_replacement(octets)
        else {
            continue;
        };
        if !is_text(&text) {
            continue;
        }
        let telling = if encoding == EUC_KR {
            // Syllables only, from KS X 1001 proper (octets 0xA1 to 0xFE): its row of lone
            // jamo overlaps EUC-JP's hiragana, and the UHC extension holds rare syllables.
            octets.iter().all(|b| (0xA1..=0xFE).contains(b))
                && text
                    .chars()
                    .all(|c| script(c) != Script::Hangul || ('\u{AC00}'..='\u{D7A3}').contains(&c))
                && text.chars().any(|c| script(c) == Script::Hangul)
        } else {
            (encoding == SHIFT_JIS || encoding == EUC_JP)
                && text
                    .chars()
                    .any(|c| matches!(script(c), Script::Hiragana | Script::Katakana))
        };
        match found.iter_mut().find(|(_, t, _)| *t == text) {
            Some((names, _, was)) => {
                names.push(encoding.name());
                *was |= telling;
            }
            None => found.push((vec![encoding.name()], text.into_owned(), telling)),
        }
    }
    if found.iter().any(|(_, _, telling)| *telling) {
        found.retain(|(_, _, telling)| *telling);
    }
    match found.as_slice() {
        [(names, text, _)] => Some((names.join(" or "), text.clone())),
        _ => None,
    }
}

/// At least two letters (and marks) of one writing system, Japanese, Korean and Chinese mixes
/// counting as one. Half-width forms do not count: every octet from 0xA1 to 0xDF is a
/// half-width Katakana letter in Shift_JIS, so they are what any octets make there.
pub(super) fn is_text(s: &str) -> bool {
    if s.chars().count() < 2
        || !s.chars().all(|c| {
            (c.is_alphabetic() || is_combining_mark(c)) && !('\u{FF00}'..='\u{FFEF}').contains(&c)
        })
    {
        return false;
    }
    single_script(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iri::percent;

    fn pieces(s: &str) -> Vec<Piece> {
        percent::runs(s)
            .flat_map(|r| percent::decode(s, r))
            .collect()
    }

    #[test]
    fn a_legacy_word_is_one_stretch_whatever_decodes_inside_it() {
        // スポーツ in EUC-JP: `%dd%a1` is valid UTF-8 by accident.
        let p = pieces("%a5%b9%a5%dd%a1%bc%a5%c4");
        assert!(p.len() > 1);
        assert_eq!(stretches(&p), vec![0..p.len()]);
        // ASCII ends a stretch; valid UTF-8 at its edges is not in it.
        let p = pieces("%C3%A9%FC%41%FC%C3%A9");
        assert_eq!(stretches(&p), vec![1..2, 3..4]);
        // What another rule reports ends a stretch.
        let p = pieces("%FC%E2%80%AE%FC%C0%AF%FC");
        assert_eq!(stretches(&p), vec![0..1, 2..3, 4..5]);
    }

    #[test]
    fn readings_name_the_encodings_that_agree() {
        let (names, text) = reading(&[0xA5, 0xB9, 0xA5, 0xDD, 0xA1, 0xBC, 0xA5, 0xC4]).unwrap();
        assert_eq!(text, "スポーツ");
        assert!(names.contains("EUC-JP"), "{names}");
        // 한국 in EUC-KR; GBK reads the same octets as Han characters, which prove nothing.
        let (names, text) = reading(&[0xC7, 0xD1, 0xB1, 0xB9]).unwrap();
        assert_eq!((names.as_str(), text.as_str()), ("EUC-KR", "한국"));
        // たび in EUC-JP, whose octets EUC-KR reads as lone jamo.
        let (names, text) = reading(&[0xA4, 0xBF, 0xA4, 0xD3]).unwrap();
        assert_eq!((names.as_str(), text.as_str()), ("EUC-JP or GBK", "たび"));
        // 徒然なるままに in EUC-JP; EUC-KR makes syllables and lone jamo of it.
        let octets = [
            0xC5, 0xCC, 0xC1, 0xB3, 0xA4, 0xCA, 0xA4, 0xEB, 0xA4, 0xDE, 0xA4, 0xDE, 0xA4, 0xCB,
        ];
        let (names, text) = reading(&octets).unwrap();
        assert_eq!(
            (names.as_str(), text.as_str()),
            ("EUC-JP", "徒然なるままに")
        );
        // Two Han characters that several encodings read differently: no guess.
        assert_eq!(reading(&[0x93, 0x8C, 0x8B, 0x9E]), None);
        // One Latin-1 letter is not for this table to guess.
        assert_eq!(reading(&[0xFC]), None);
    }
}
