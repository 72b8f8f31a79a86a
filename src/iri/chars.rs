//! Character classes of RFC 3987 §2.2 and RFC 3986, and the character facts the rules share.
//!
//! The ASCII classes are one lookup table so the parser's hot loop is a byte index; everything
//! non-ASCII goes through [`is_ucschar`] / [`is_iprivate`], which are plain range tests.

const ALPHA: u8 = 1 << 0;
const DIGIT: u8 = 1 << 1;
/// `-` `.` `_` `~`: the non-alphanumeric `unreserved` characters.
const MARK: u8 = 1 << 2;
const SUB_DELIM: u8 = 1 << 3;
const HEX: u8 = 1 << 4;
/// Space `<` `>` `"` `{` `}` `|` `\` `^` `` ` ``: ASCII that RFC 3987 §3.1 lets systems percent-encode.
const UNWISE: u8 = 1 << 5;

static ASCII: [u8; 128] = build_ascii_table();

const fn build_ascii_table() -> [u8; 128] {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        let c = i as u8;
        let mut f = 0;
        if c.is_ascii_alphabetic() {
            f |= ALPHA;
        }
        if c.is_ascii_digit() {
            f |= DIGIT;
        }
        if c.is_ascii_hexdigit() {
            f |= HEX;
        }
        if matches!(c, b'-' | b'.' | b'_' | b'~') {
            f |= MARK;
        }
        if matches!(
            c,
            b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
        ) {
            f |= SUB_DELIM;
        }
        if matches!(
            c,
            b' ' | b'<' | b'>' | b'"' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'`'
        ) {
            f |= UNWISE;
        }
        t[i] = f;
        i += 1;
    }
    t
}

#[inline]
const fn ascii_has(b: u8, flags: u8) -> bool {
    b < 128 && ASCII[b as usize] & flags != 0
}

/// `unreserved` (RFC 3986): ALPHA / DIGIT / `-` / `.` / `_` / `~`.
#[inline]
pub fn is_unreserved(b: u8) -> bool {
    ascii_has(b, ALPHA | DIGIT | MARK)
}

/// `sub-delims`: `!` `$` `&` `'` `(` `)` `*` `+` `,` `;` `=`.
#[inline]
pub fn is_sub_delim(b: u8) -> bool {
    ascii_has(b, SUB_DELIM)
}

/// `unreserved / sub-delims`: the ASCII core shared by every IRI component.
#[inline]
pub const fn is_unreserved_or_sub_delim(b: u8) -> bool {
    ascii_has(b, ALPHA | DIGIT | MARK | SUB_DELIM)
}

/// `HEXDIG` (either case: ABNF literals are case-insensitive).
#[inline]
pub fn is_hexdig(b: u8) -> bool {
    ascii_has(b, HEX)
}

/// `ALPHA`.
#[inline]
pub fn is_alpha(b: u8) -> bool {
    ascii_has(b, ALPHA)
}

/// `DIGIT`.
#[inline]
pub fn is_digit(b: u8) -> bool {
    ascii_has(b, DIGIT)
}

/// The scheme's tail characters: ALPHA / DIGIT / `+` / `-` / `.`.
#[inline]
pub fn is_scheme_char(b: u8) -> bool {
    ascii_has(b, ALPHA | DIGIT) || matches!(b, b'+' | b'-' | b'.')
}

/// Space and the ASCII punctuation RFC 3987 §2.2 leaves out (`<` `>` `"` `{` `}` `|` `\` `^` `` ` ``).
#[inline]
pub fn is_unwise_ascii(c: char) -> bool {
    (c as u32) < 128 && ascii_has(c as u8, UNWISE)
}

/// `ucschar` (RFC 3987 §2.2): the non-ASCII characters allowed in every IRI component.
#[inline]
pub fn is_ucschar(c: char) -> bool {
    let c = c as u32;
    match c {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD => true,
        // %x10000-1FFFD / ... / %xD0000-DFFFD: planes 1-13 minus each plane's last two code points.
        0x10000..=0xDFFFD => c & 0xFFFF <= 0xFFFD,
        _ => false,
    }
}

/// `iprivate` (RFC 3987 §2.2): private-use characters, allowed only in the query.
#[inline]
pub fn is_iprivate(c: char) -> bool {
    matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// Unicode noncharacters: U+FDD0–U+FDEF and the last two code points of every plane.
#[inline]
pub fn is_noncharacter(c: char) -> bool {
    let c = c as u32;
    (0xFDD0..=0xFDEF).contains(&c) || c & 0xFFFE == 0xFFFE
}

/// C0 controls, DEL and C1 controls (General_Category Cc).
#[inline]
pub fn is_control(c: char) -> bool {
    matches!(c as u32, 0x00..=0x1F | 0x7F..=0x9F)
}

/// The twelve bidi formatting characters: RFC 3987 §4.1 names LRM, RLM, LRE, RLE, PDF, LRO and
/// RLO; Unicode later added ALM (U+061C) and the isolates LRI, RLI, FSI, PDI (U+2066–U+2069),
/// which reorder text the same way (UAX #9 §2).
#[inline]
pub fn is_bidi_formatting(c: char) -> bool {
    matches!(
        c as u32,
        0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069
    )
}

/// Default_Ignorable_Code_Point, from DerivedCoreProperties.txt (Unicode 16.0): characters that
/// render as nothing. Hand-listed because no chosen crate exposes the property.
#[inline]
pub fn is_default_ignorable(c: char) -> bool {
    matches!(
        c as u32,
        0x00AD
            | 0x034F
            | 0x061C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

/// Characters that must never reach a terminal or a JSON consumer raw: controls, bidi and other
/// format characters, default-ignorables, line/paragraph separators, non-ASCII spaces, the
/// interlinear annotation characters, noncharacters and private-use characters. Output shows
/// them as visible escapes (`⟨U+202E⟩`, `\u202e`).
pub fn is_unsafe_to_display(c: char) -> bool {
    let u = c as u32;
    if u < 0x7F {
        return u < 0x20;
    }
    is_control(c)
        || is_default_ignorable(c)
        || is_noncharacter(c)
        || is_iprivate(c)
        || matches!(
            u,
            // Zs other than U+0020, Zl, Zp.
            0x00A0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000
            // Other Cf characters (Arabic number signs, interlinear annotation, Egyptian format controls).
            | 0x0600..=0x0605 | 0x06DD | 0x070F | 0x0890..=0x0891 | 0x08E2 | 0x110BD | 0x110CD
            | 0xFFF9..=0xFFFB | 0x13430..=0x1343F | 0x1BC9D..=0x1BC9E
            // Surrogate code points never occur in a Rust `char`; replacement character is visible.
        )
}

/// `s` with every character unsafe to display written as a visible `⟨U+202E⟩`: what messages,
/// paths and the terminal report show instead of the raw character.
pub fn escape_unsafe(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_visible(&mut out, c);
    }
    out
}

/// Appends `c`, or its visible `⟨U+XXXX⟩` escape when it is unsafe to display.
pub fn push_visible(out: &mut String, c: char) {
    if is_unsafe_to_display(c) {
        out.push_str(&format!("⟨U+{:04X}⟩", c as u32));
    } else {
        out.push(c);
    }
}

/// Names of the C0 and C1 controls (NameAliases.txt), which have no Unicode `Name` property.
fn control_name(c: char) -> Option<&'static str> {
    const C0: [&str; 32] = [
        "NULL",
        "START OF HEADING",
        "START OF TEXT",
        "END OF TEXT",
        "END OF TRANSMISSION",
        "ENQUIRY",
        "ACKNOWLEDGE",
        "ALERT",
        "BACKSPACE",
        "CHARACTER TABULATION",
        "LINE FEED",
        "LINE TABULATION",
        "FORM FEED",
        "CARRIAGE RETURN",
        "SHIFT OUT",
        "SHIFT IN",
        "DATA LINK ESCAPE",
        "DEVICE CONTROL ONE",
        "DEVICE CONTROL TWO",
        "DEVICE CONTROL THREE",
        "DEVICE CONTROL FOUR",
        "NEGATIVE ACKNOWLEDGE",
        "SYNCHRONOUS IDLE",
        "END OF TRANSMISSION BLOCK",
        "CANCEL",
        "END OF MEDIUM",
        "SUBSTITUTE",
        "ESCAPE",
        "INFORMATION SEPARATOR FOUR",
        "INFORMATION SEPARATOR THREE",
        "INFORMATION SEPARATOR TWO",
        "INFORMATION SEPARATOR ONE",
    ];
    const C1: [&str; 32] = [
        "PADDING CHARACTER",
        "HIGH OCTET PRESET",
        "BREAK PERMITTED HERE",
        "NO BREAK HERE",
        "INDEX",
        "NEXT LINE",
        "START OF SELECTED AREA",
        "END OF SELECTED AREA",
        "CHARACTER TABULATION SET",
        "CHARACTER TABULATION WITH JUSTIFICATION",
        "LINE TABULATION SET",
        "PARTIAL LINE FORWARD",
        "PARTIAL LINE BACKWARD",
        "REVERSE LINE FEED",
        "SINGLE SHIFT TWO",
        "SINGLE SHIFT THREE",
        "DEVICE CONTROL STRING",
        "PRIVATE USE ONE",
        "PRIVATE USE TWO",
        "SET TRANSMIT STATE",
        "CANCEL CHARACTER",
        "MESSAGE WAITING",
        "START OF GUARDED AREA",
        "END OF GUARDED AREA",
        "START OF STRING",
        "SINGLE GRAPHIC CHARACTER INTRODUCER",
        "SINGLE CHARACTER INTRODUCER",
        "CONTROL SEQUENCE INTRODUCER",
        "STRING TERMINATOR",
        "OPERATING SYSTEM COMMAND",
        "PRIVACY MESSAGE",
        "APPLICATION PROGRAM COMMAND",
    ];
    match c as u32 {
        u @ 0..=0x1F => Some(C0[u as usize]),
        0x7F => Some("DELETE"),
        u @ 0x80..=0x9F => Some(C1[(u - 0x80) as usize]),
        _ => None,
    }
}

/// The character's Unicode name (or control alias), or a description when it has none.
pub fn char_name(c: char) -> String {
    if let Some(name) = control_name(c) {
        return name.to_string();
    }
    if let Some(name) = cached_name(c) {
        return name;
    }
    let u = c as u32;
    if is_noncharacter(c) {
        "<noncharacter>".to_string()
    } else if is_iprivate(c) {
        "<private-use>".to_string()
    } else if (0xE0000..=0xE0FFF).contains(&u) {
        "<reserved tag/variation-selector block>".to_string()
    } else {
        "<unassigned>".to_string()
    }
}

/// The most names [`cached_name`] keeps per thread (a few hundred KB at most).
const NAME_CACHE_SIZE: usize = 4096;

/// The character's name from `unicode_names2`, remembered: the name is decoded word by word
/// from compressed tables (a few thousand instructions), and messages name the same few
/// characters over and over (every Cyrillic `а` of every look-alike host). The cache is per
/// thread and is emptied when full, so it stays small whatever the input.
fn cached_name(c: char) -> Option<String> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static NAMES: RefCell<HashMap<char, Option<Box<str>>>> = RefCell::new(HashMap::new());
    }
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        if let Some(known) = names.get(&c) {
            return known.as_deref().map(str::to_string);
        }
        let name = unicode_names2::name(c).map(|n| n.to_string());
        if names.len() >= NAME_CACHE_SIZE {
            names.clear();
        }
        names.insert(c, name.as_deref().map(Box::from));
        name
    })
}

/// `U+202E RIGHT-TO-LEFT OVERRIDE`: how messages name a character (never the raw character).
pub fn describe(c: char) -> String {
    // Written by hand: `format!` took about 1,250 instructions for this, and a look-alike
    // host's message names three letters.
    let name = char_name(c);
    let mut out = String::with_capacity(name.len() + 9);
    out.push_str("U+");
    push_code_point(&mut out, c);
    out.push(' ');
    out.push_str(&name);
    out
}

/// Appends the code point of `c` in uppercase hexadecimal, at least four digits (`{:04X}`).
fn push_code_point(out: &mut String, c: char) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let u = c as u32;
    let digits = ((32 - u.leading_zeros()).div_ceil(4)).max(4);
    for k in (0..digits).rev() {
        out.push(char::from(HEX[((u >> (4 * k)) & 0xF) as usize]));
    }
}

/// The end of the run of ASCII bytes that starts at `from` in `b` (`from` itself when `b[from]`
/// is not ASCII): sixteen bytes at a time, so that rules can pass over the ASCII of a long IRI in
/// bulk instead of a character at a time.
#[inline]
pub fn ascii_run_end(b: &[u8], from: usize) -> usize {
    let mut i = from.min(b.len());
    while let Some(chunk) = b.get(i..i + 16) {
        if !chunk.is_ascii() {
            break;
        }
        i += 16;
    }
    while i < b.len() && b[i].is_ascii() {
        i += 1;
    }
    i
}

/// A piece of a string as [`pieces`] cuts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    /// A maximal run of ASCII characters, and its offset.
    Ascii(usize, &'a str),
    /// One non-ASCII character, and its offset.
    Char(usize, char),
}

/// `s` as maximal ASCII runs and single non-ASCII characters, in order: what a rule that looks
/// up properties of non-ASCII characters only iterates over.
pub fn pieces(s: &str) -> impl Iterator<Item = Piece<'_>> {
    let b = s.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        let start = i;
        if b.get(start)?.is_ascii() {
            // Short runs (a letter between two others) without the bulk test.
            i = if b.get(start + 1).is_some_and(u8::is_ascii) {
                ascii_run_end(b, start + 2)
            } else {
                start + 1
            };
            Some(Piece::Ascii(start, &s[start..i]))
        } else {
            let c = s[start..].chars().next()?;
            i += c.len_utf8();
            Some(Piece::Char(start, c))
        }
    })
}

/// A set of characters that answers in constant time, for counting the distinct characters of a
/// long run: bits for ASCII, a short list of the first few characters past ASCII (most words and
/// hosts have a handful: an 8 KB bitmap zeroed for each of them cost an IDN host about 4,000
/// instructions), then, past [`FEW`] of them, a bitmap of the Basic Multilingual Plane and a
/// hash set beyond.
#[derive(Debug, Default)]
pub struct CharSet {
    ascii: u128,
    few: smallvec::SmallVec<[char; FEW]>,
    bmp: Vec<u64>,
    astral: std::collections::HashSet<char>,
    len: usize,
}

/// How many characters past ASCII a [`CharSet`] keeps in a list before its bitmap.
const FEW: usize = 16;

impl CharSet {
    /// Adds `c`; true when it was not in the set.
    #[inline]
    pub fn insert(&mut self, c: char) -> bool {
        let u = u32::from(c) as usize;
        let new = if u < 0x80 {
            let bit = 1u128 << u;
            let new = self.ascii & bit == 0;
            self.ascii |= bit;
            new
        } else if self.bmp.is_empty() && self.few.len() < FEW {
            let new = !self.few.contains(&c);
            if new {
                self.few.push(c);
            }
            new
        } else {
            if self.bmp.is_empty() {
                self.bmp = vec![0; 0x10000 / 64];
                for c in std::mem::take(&mut self.few) {
                    self.insert_wide(c);
                }
            }
            self.insert_wide(c)
        };
        self.len += usize::from(new);
        new
    }

    /// Adds `c` (past ASCII) to the bitmap or the hash set; true when it was not in the set.
    fn insert_wide(&mut self, c: char) -> bool {
        let u = u32::from(c) as usize;
        if u <= 0xFFFF {
            let (word, bit) = (u / 64, 1u64 << (u % 64));
            let new = self.bmp[word] & bit == 0;
            self.bmp[word] |= bit;
            new
        } else {
            self.astral.insert(c)
        }
    }

    /// True when `c` is in the set.
    #[inline]
    pub fn contains(&self, c: char) -> bool {
        let u = u32::from(c) as usize;
        if u < 0x80 {
            self.ascii & (1u128 << u) != 0
        } else if self.bmp.is_empty() {
            self.few.contains(&c)
        } else if u <= 0xFFFF {
            self.bmp[u / 64] & (1u64 << (u % 64)) != 0
        } else {
            self.astral.contains(&c)
        }
    }

    /// How many characters are in the set.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing was added.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set answers as a hash set does, below and past the size at which it switches from a
    /// list to a bitmap, for ASCII, the BMP and astral characters.
    #[test]
    fn a_char_set_is_a_set() {
        let pool: Vec<char> = "aZ0-éÿĀЖаबก\u{FFFF}\u{10000}😀\u{E0020}\u{10FFFF}"
            .chars()
            .chain(('\u{400}'..'\u{440}').step_by(3))
            .collect();
        let mut seed = 7u64;
        for size in [1, 5, FEW - 1, FEW, FEW + 1, 40, 200] {
            let mut set = CharSet::default();
            let mut model = std::collections::HashSet::new();
            for _ in 0..size {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let c = pool[(seed >> 33) as usize % pool.len()];
                assert_eq!(set.insert(c), model.insert(c), "{c:?}");
                assert_eq!(set.len(), model.len());
            }
            for &c in &pool {
                assert_eq!(set.contains(c), model.contains(&c), "{c:?} after {size}");
            }
        }
    }

    #[test]
    fn ucschar_boundaries() {
        let inside = [
            0xA0, 0xD7FF, 0xF900, 0xFDCF, 0xFDF0, 0xFFEF, 0x10000, 0x1FFFD, 0x20000, 0xDFFFD,
            0xE1000, 0xEFFFD,
        ];
        let outside = [
            0x9F, 0xE000, 0xF8FF, 0xFDD0, 0xFDEF, 0xFFF0, 0xFFFD, 0x1FFFE, 0x1FFFF, 0xE0000,
            0xE0FFF, 0xEFFFE, 0xF0000, 0x10FFFD,
        ];
        for u in inside {
            assert!(is_ucschar(char::from_u32(u).unwrap()), "U+{u:04X}");
        }
        for u in outside {
            assert!(!is_ucschar(char::from_u32(u).unwrap()), "U+{u:04X}");
        }
    }

    #[test]
    fn iprivate_boundaries() {
        for u in [0xE000, 0xF8FF, 0xF0000, 0xFFFFD, 0x100000, 0x10FFFD] {
            assert!(is_iprivate(char::from_u32(u).unwrap()), "U+{u:04X}");
        }
        for u in [0xD7FF, 0xF900, 0xFFFFE, 0x10FFFE, 0xEFFFD] {
            if let Some(c) = char::from_u32(u) {
                assert!(!is_iprivate(c), "U+{u:04X}");
            }
        }
    }

    #[test]
    fn noncharacters() {
        for u in [0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF] {
            assert!(is_noncharacter(char::from_u32(u).unwrap()));
        }
        for u in [0xFDCF, 0xFDF0, 0xFFFD, 0x1FFFD] {
            assert!(!is_noncharacter(char::from_u32(u).unwrap()));
        }
    }

    #[test]
    fn twelve_bidi_formatting_characters() {
        let all: Vec<u32> = (0..0x3000)
            .filter_map(char::from_u32)
            .filter(|&c| is_bidi_formatting(c))
            .map(|c| c as u32)
            .collect();
        assert_eq!(
            all,
            [
                0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067,
                0x2068, 0x2069
            ]
        );
    }

    #[test]
    fn names() {
        assert_eq!(describe('\u{202E}'), "U+202E RIGHT-TO-LEFT OVERRIDE");
        // Four hexadecimal digits at least, uppercase, as `{:04X}` writes them.
        for c in [
            '\0',
            'a',
            '\u{FFF}',
            '\u{ABCD}',
            '\u{1F600}',
            '\u{E0041}',
            '\u{10FFFF}',
        ] {
            let mut code = String::new();
            push_code_point(&mut code, c);
            assert_eq!(code, format!("{:04X}", c as u32));
        }
        assert_eq!(describe('\t'), "U+0009 CHARACTER TABULATION");
        assert_eq!(describe('\u{9B}'), "U+009B CONTROL SEQUENCE INTRODUCER");
        assert_eq!(describe('\u{FDD0}'), "U+FDD0 <noncharacter>");
        assert_eq!(describe('é'), "U+00E9 LATIN SMALL LETTER E WITH ACUTE");
    }

    #[test]
    fn escape_shows_hidden_characters() {
        assert_eq!(
            escape_unsafe("a\u{202E}b\u{1B}c é"),
            "a⟨U+202E⟩b⟨U+001B⟩c é"
        );
    }

    #[test]
    fn display_safety() {
        for c in [
            '\u{1B}',
            '\u{202E}',
            '\u{200B}',
            '\u{2028}',
            '\u{E0041}',
            '\u{AD}',
            '\t',
        ] {
            assert!(is_unsafe_to_display(c), "{:?}", c);
        }
        for c in ['a', ' ', 'é', 'ש', '日', '\u{301}'] {
            assert!(!is_unsafe_to_display(c), "{:?}", c);
        }
    }
}
