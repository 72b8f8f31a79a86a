//! RFC 3987 §3.2: converting a URI to an IRI, steps 1–5.
//!
//! 1. The input must be a URI reference: ASCII (step 1) and valid. Anything else is an error,
//!    because the steps are defined on US-ASCII octets only.
//! 2. Percent-encodings are decoded except `%25`, the reserved characters (gen-delims and
//!    sub-delims) and the US-ASCII characters URIs do not allow (controls, space, `<` `>` `"` `{`
//!    `}` `|` `\` `^` `` ` ``). Of ASCII, that leaves the unreserved characters, which are decoded.
//! 3. Octets that are not strictly legal UTF-8 stay encoded: legacy octets (`%FC`), overlong
//!    forms (`%C0%AF`), encoded surrogates and values above U+10FFFF. This uses the one strict
//!    decoder, [`super::percent::decode`]. No other character encoding is ever guessed.
//! 4. Characters that are "not appropriate according to sections 2.2, 4.1 and 6.1" stay encoded.
//!    [`stays_encoded`] lists them, and a combining mark also stays encoded when it would attach
//!    to a delimiter, to the start, or to an octet that stays encoded (a mark decoded after `/`
//!    would change how the `/` looks).
//! 5. The rest is the output. Octets that step 2 decoded and steps 3 or 4 re-encode are written
//!    with uppercase hex, as in the RFC's third example (`%e2%80%ae` comes out as `%E2%80%AE`:
//!    "the case … may not be preserved"); what step 2 never decoded (`%25`, reserved and
//!    not-allowed ASCII) keeps its spelling.
//!
//! Punycode labels are not converted to Unicode (the RFC's third example does not either).
//! The output is always an IRI reference, maps back to the input under [`super::to_uri()`]
//! (except for hex case and decoded unreserved characters, as §3.2 says), and never contains
//! a character that [`super::chars::is_unsafe_to_display`] would hide.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::{canonical_combining_class, is_combining_mark};
use unicode_security::confusable_detection::skeleton;

use super::chars::{self, describe};
use super::percent::{self, Decoded};
use super::{Component, SyntaxError, analyze};

/// Converts a URI reference to an IRI reference (RFC 3987 §3.2). Fails when the input is not a
/// URI reference, that is, when it is not valid or not ASCII.
pub fn to_iri(uri: &str) -> Result<String, SyntaxError> {
    let parsed = analyze(uri);
    if let Some(e) = parsed.first_error() {
        return Err(e);
    }
    if let Some((at, c)) = uri.char_indices().find(|(_, c)| !c.is_ascii()) {
        return Err(SyntaxError {
            offset: at,
            component: parsed.component_at(at).unwrap_or(Component::Path),
            message: format!(
                "{} is not ASCII, and a URI is written in US-ASCII only, per RFC 3987 §3.2 step 1",
                describe(c)
            ),
        });
    }
    let mut out = String::with_capacity(uri.len());
    let mut copied = 0;
    for run in percent::runs(uri) {
        out.push_str(&uri[copied..run.start]);
        // What a decoded combining mark would attach to; `None` after an octet left encoded.
        let mut before = uri[..run.start].chars().next_back();
        for piece in percent::decode(uri, run.clone()) {
            match piece.decoded {
                Decoded::Char(c) if decodes(c, before) => {
                    out.push(c);
                    before = Some(c);
                }
                // Step 2 left `%25`, reserved and not-allowed ASCII alone: they keep their
                // spelling. Every other octet was decoded in step 2 and is re-encoded by step 3
                // or 4, which writes uppercase hex (the RFC's third example: `%e2%80%ae` comes
                // out as `%E2%80%AE`).
                Decoded::Char(c) if c.is_ascii() => {
                    out.push_str(&uri[piece.range]);
                    before = None;
                }
                _ => {
                    out.push_str(&uri[piece.range].to_ascii_uppercase());
                    before = None;
                }
            }
        }
        copied = run.end;
    }
    out.push_str(&uri[copied..]);
    Ok(out)
}

/// Steps 2 and 4 for one strictly decoded character.
fn decodes(c: char, before: Option<char>) -> bool {
    if c.is_ascii() {
        // Step 2 keeps `%`, reserved and not-allowed ASCII encoded: that leaves `unreserved`.
        return chars::is_unreserved(c as u8);
    }
    if stays_encoded(c) {
        return false;
    }
    !is_combining_mark(c) || before.is_some_and(|b| b.is_alphanumeric() || is_combining_mark(b))
}

/// Whether a non-ASCII character stays percent-encoded when a URI is converted to an IRI (RFC
/// 3987 §3.2 step 4), wherever it stands.
///
/// - Not a `ucschar` (§2.2). This includes private-use characters: §2.2 allows them in the query,
///   but their meaning is private to whoever agreed on it, and irilint never displays them.
/// - A bidi formatting character (§4.1), or any other character unsafe to display: controls,
///   invisible and default-ignorable characters, non-ASCII spaces, line and paragraph separators.
///   §6.1 asks to avoid look-alikes of space, and invisible characters spoof (§8).
/// - The Halfwidth and Fullwidth Forms block, and any character whose NFKC has ASCII in it
///   (mathematical letters, circled letters, superscript digits, ligatures). §6.1 names full-width
///   Latin and half-width Katakana as look-alikes to avoid.
/// - A character that NFC always replaces (U+212B ANGSTROM SIGN, U+2126 OHM SIGN, CJK
///   compatibility ideographs). IRIs SHOULD be NFC (§5.3.2.2), and such a character would make
///   the IRI non-NFC for good.
/// - A symbol or punctuation that UTS #39 confuses with a delimiter (U+2215 DIVISION SLASH,
///   U+2044 FRACTION SLASH, U+2236 RATIO, U+0589 ARMENIAN FULL STOP). §6.1 names look-alikes of
///   delimiters. Letters and digits of other scripts are text, even when they look like
///   punctuation (Katakana `ノ`).
pub fn stays_encoded(c: char) -> bool {
    let u = c as u32;
    !chars::is_ucschar(c)
        || chars::is_bidi_formatting(c)
        || chars::is_unsafe_to_display(c)
        || (0xFF00..=0xFFEF).contains(&u)
        || std::iter::once(c).nfkc().any(|d| d.is_ascii())
        || std::iter::once(c).nfc().ne(std::iter::once(c))
        || looks_like_a_delimiter(c)
}

/// A non-letter, non-digit, non-mark whose UTS #39 skeleton has one of the delimiters `/ . : ?
/// # @ % = &` in it: a look-alike that changes how a reader splits the IRI. This is wider than
/// the set of the `confusable-delimiter` rule, whose skeleton must be the delimiter alone: a
/// conversion may err on the side of encoding, so `∷` and `⁇` stay encoded too. Look-alikes of
/// other punctuation (curly quotes, `‹`) are ordinary text.
fn looks_like_a_delimiter(c: char) -> bool {
    if c.is_alphabetic() || c.is_numeric() || canonical_combining_class(c) != 0 {
        return false;
    }
    let mut buf = [0u8; 4];
    skeleton(c.encode_utf8(&mut buf)).any(|s| "/.:?#@%=&".contains(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iri(s: &str) -> String {
        to_iri(s).unwrap()
    }

    #[test]
    fn decodes_legal_utf8_and_unreserved_only() {
        assert_eq!(
            iri("http://a/%41%7e%2F%25%20%3F"),
            "http://a/A~%2F%25%20%3F"
        );
        assert_eq!(iri("http://a/%e6%97%a5?%C3%A9#%c3%a9"), "http://a/日?é#é");
        assert_eq!(
            iri("http://r%C3%A9sum%C3%A9.example/"),
            "http://résumé.example/"
        );
    }

    #[test]
    fn invalid_utf8_keeps_its_spelling() {
        for s in [
            "http://a/%FC",
            "http://a/%C0%AF",
            "http://a/%ED%A0%80",
            "http://a/%F4%90%80%80",
            "http://a/%E2%82",
        ] {
            assert_eq!(iri(s), s);
        }
        // Re-encoded octets come out uppercase; what step 2 left alone keeps its case.
        assert_eq!(iri("http://a/%c0%af%2f%fc"), "http://a/%C0%AF%2f%FC");
        assert_eq!(iri("http://a/%E2%82%C3%A9"), "http://a/%E2%82é");
    }

    #[test]
    fn inappropriate_characters_stay_encoded() {
        for (what, c) in [
            ("RLO", '\u{202E}'),
            ("ALM", '\u{061C}'),
            ("ZWSP", '\u{200B}'),
            ("NBSP", '\u{A0}'),
            ("C1", '\u{85}'),
            ("private use", '\u{E000}'),
            ("noncharacter", '\u{FDD0}'),
            ("tag", '\u{E0041}'),
            ("fullwidth A", '\u{FF21}'),
            ("halfwidth katakana", '\u{FF71}'),
            ("mathematical bold a", '\u{1D41A}'),
            ("angstrom sign", '\u{212B}'),
            ("division slash", '\u{2215}'),
            ("fraction slash", '\u{2044}'),
            ("ratio", '\u{2236}'),
            ("one dot leader", '\u{2024}'),
            ("replacement character", '\u{FFFD}'),
        ] {
            assert!(stays_encoded(c), "{what}");
            let mut encoded = String::new();
            super::percent::push_encoded(c, &mut encoded);
            for (place, input) in [
                ("path", format!("http://a/x{encoded}")),
                ("query", format!("http://a/?x{encoded}")),
            ] {
                assert_eq!(iri(&input), input, "{what} in the {place}");
            }
        }
        for c in [
            'é', 'ü', '日', 'ノ', 'ש', 'ا', '😀', 'Ω', '\u{2013}', '\u{2019}', '\u{3001}',
            '\u{30FB}',
        ] {
            assert!(!stays_encoded(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn combining_marks_decode_only_after_text() {
        assert_eq!(iri("http://a/e%CC%81"), "http://a/e\u{301}");
        assert_eq!(iri("http://a/%C3%A9%CC%81"), "http://a/é\u{301}");
        assert_eq!(iri("http://a/%CC%B8"), "http://a/%CC%B8");
        assert_eq!(iri("http://a/x%FC%CC%81"), "http://a/x%FC%CC%81");
    }

    #[test]
    fn rejects_what_is_not_a_uri() {
        let e = to_iri("http://a/é").unwrap_err();
        assert_eq!((e.offset, e.component), (9, Component::Path));
        assert!(e.message.contains("not ASCII"), "{}", e.message);
        let e = to_iri("http://a/b c").unwrap_err();
        assert_eq!(e.offset, 10);
    }
}
