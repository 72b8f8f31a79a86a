//! XML at the character level: names, legal characters, references, and the prepared text
//! built from them with its [`SpanMap`].

use std::ops::Range;

use crate::extract::{Related, SpanMap};

/// XML white space (`S`): space, tab, line feed, carriage return.
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// `NameStartChar` of XML 1.0 (fifth edition).
pub(super) fn is_name_start(c: char) -> bool {
    matches!(c,
        ':' | 'A'..='Z' | '_' | 'a'..='z'
        | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

/// `NameChar` of XML 1.0 (fifth edition).
pub(super) fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || matches!(c,
            '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// What an ASCII byte may be in a name: [`NAME_START`] and [`NAME_CHAR`] bits. Every tag and
/// attribute name is checked, nearly always in ASCII: a table lookup per byte instead of a
/// char decode and a range match.
const ASCII_NAME: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        let start = c == b':' || c == b'_' || c.is_ascii_alphabetic();
        let name = start || c == b'-' || c == b'.' || c.is_ascii_digit();
        table[b] = if start { NAME_START } else { 0 } | if name { NAME_CHAR } else { 0 };
        b += 1;
    }
    table
};
const NAME_START: u8 = 1;
const NAME_CHAR: u8 = 2;

/// A `Name`.
pub(super) fn is_name(s: &str) -> bool {
    let b = s.as_bytes();
    match b.first() {
        None => false,
        Some(&c) if c < 0x80 => {
            if ASCII_NAME[c as usize] & NAME_START == 0 {
                return false;
            }
            let mut i = 1;
            while i < b.len() && b[i] < 0x80 {
                if ASCII_NAME[b[i] as usize] & NAME_CHAR == 0 {
                    return false;
                }
                i += 1;
            }
            // `i` follows an ASCII byte: a character starts there.
            s[i..].chars().all(is_name_char)
        }
        Some(_) => {
            let mut chars = s.chars();
            chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
        }
    }
}

/// For a string already known to be a `Name`: whether it is a QName too, that is, has at most
/// one colon, neither first nor last, with a `NameStartChar` after it (what is left of the
/// check once the tag's syntax has been read).
pub(super) fn name_is_qname(name: &str) -> bool {
    match split_prefix(name) {
        None => true,
        Some((prefix, local)) => {
            !prefix.is_empty()
                && split_prefix(local).is_none()
                && local.chars().next().is_some_and(is_name_start)
        }
    }
}

/// A name split at its first colon, as `str::split_once(':')` does, by a byte loop: names are
/// short, and this runs for every name of every tag.
pub(super) fn split_prefix(name: &str) -> Option<(&str, &str)> {
    let k = name.bytes().position(|b| b == b':')?;
    Some((&name[..k], &name[k + 1..]))
}

/// `Char` of XML 1.0: what a document and a character reference may contain.
pub(super) fn is_legal_char(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The first character of `text` that XML 1.0 does not allow anywhere (a C0 control other than
/// tab and line ends, U+FFFE, U+FFFF), with its offset.
pub(super) fn first_illegal_char(text: &str) -> Option<(usize, char)> {
    // One pass, 32 bytes at a time: a chunk without a suspicious byte (a control, or 0xEF, the
    // lead byte of U+FFFE and U+FFFF) is skipped with a branch-free test that vectorizes.
    fn suspicious(b: u8) -> bool {
        (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0xEF
    }
    let bytes = text.as_bytes();
    let mut base = 0;
    for chunk in bytes.chunks(32) {
        if chunk.iter().fold(false, |any, &b| any | suspicious(b)) {
            for (i, &b) in chunk.iter().enumerate() {
                let at = base + i;
                let illegal = match b {
                    0xEF => matches!(bytes.get(at + 1..at + 3), Some([0xBF, 0xBE | 0xBF])),
                    _ => suspicious(b),
                };
                if illegal {
                    return text[at..].chars().next().map(|c| (at, c));
                }
            }
        }
        base += chunk.len();
    }
    None
}

/// The replacement text of a predefined entity.
pub(super) fn predefined(name: &str) -> Option<&'static str> {
    Some(match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "apos" => "'",
        "quot" => "\"",
        _ => return None,
    })
}

/// A reference as written between `&` and `;`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reference<'s> {
    /// `&#...;`, resolved.
    Char(char),
    /// `&name;`.
    Entity(&'s str),
}

/// The character of a character reference `body` (`#x202E`, `#233`), or what is wrong with it.
pub(super) fn char_ref(body: &str) -> Result<char, String> {
    let (digits, radix) = match body.strip_prefix("#x") {
        Some(hex) => (hex, 16),
        None => (body.strip_prefix('#').unwrap_or(body), 10),
    };
    let well_formed =
        !digits.is_empty() && digits.len() <= 16 && digits.chars().all(|c| c.is_digit(radix));
    if !well_formed {
        return Err(format!(
            "`&{body};` is not a character reference: write `&#` decimal digits `;` or `&#x` \
             hexadecimal digits `;`"
        ));
    }
    let value = u64::from_str_radix(digits, radix).unwrap_or(u64::MAX);
    match u32::try_from(value).ok().and_then(char::from_u32) {
        Some(c) if is_legal_char(c) => Ok(c),
        _ => Err(format!(
            "`&{body};` refers to {}, which XML does not allow in a document (XML 1.0 §2.2)",
            if value <= 0x10FFFF {
                format!("U+{value:04X}")
            } else {
                "a code point beyond U+10FFFF".to_string()
            }
        )),
    }
}

/// The reference starting at `src[at]` (a `&`) and the offset just after its `;`.
pub(super) fn reference(src: &str, at: usize) -> Result<(Reference<'_>, usize), String> {
    let rest = &src[at + 1..];
    let Some(semi) = rest
        .char_indices()
        .take_while(|&(_, c)| c == '#' || is_name_char(c) || c == ';')
        .find(|&(_, c)| c == ';')
        .map(|(i, _)| i)
    else {
        return Err(
            "`&` does not start a reference here: write `&amp;` for a literal ampersand".into(),
        );
    };
    let body = &rest[..semi];
    let end = at + 1 + semi + 1;
    if body.starts_with('#') {
        return char_ref(body).map(|c| (Reference::Char(c), end));
    }
    if is_name(body) {
        Ok((Reference::Entity(body), end))
    } else {
        Err(format!(
            "`&{body};` is not a valid reference: an entity name must follow `&`"
        ))
    }
}

/// Text reached through an entity: everything it produces maps to the entity's use in the
/// document (the outermost one when entities nest), with the declaration as related location.
#[derive(Debug, Clone)]
pub(super) struct Via {
    /// The `&name;` in the document that (directly or not) produced the text.
    pub use_range: Range<usize>,
    /// The declaration of the entity whose replacement text this is.
    pub related: Related,
    /// That entity's name.
    pub name: String,
    /// The name of the entity used in the document (the outermost one).
    pub outer: String,
}

/// A prepared value being built, and its map to the source.
#[derive(Debug, Clone, Default)]
pub(super) struct Prepared {
    /// The text as the application sees it.
    pub text: String,
    /// From each byte of `text` to the source.
    pub map: SpanMap,
}

impl Prepared {
    /// Appends `src[range]` unchanged.
    pub(super) fn copy(&mut self, src: &str, range: Range<usize>, via: Option<&Via>) {
        if range.is_empty() {
            return;
        }
        self.text.push_str(&src[range.clone()]);
        match via {
            None => self.map.push_copied(range),
            Some(v) => self
                .map
                .push_replaced_via(range.len(), v.use_range.clone(), &v.related),
        }
    }

    /// Appends `s`, produced by the escape at `escape` (in the document, or in the text `via`).
    pub(super) fn produce(&mut self, s: &str, escape: Range<usize>, via: Option<&Via>) {
        self.text.push_str(s);
        match via {
            None => self.map.push_replaced(s.len(), escape),
            Some(v) => self
                .map
                .push_replaced_via(s.len(), v.use_range.clone(), &v.related),
        }
    }

    /// Appends character data `src[range]` (no markup, no references) with XML's line-end
    /// normalization when it comes straight from the document: CR LF and a lone CR become LF.
    pub(super) fn chars(&mut self, src: &str, range: Range<usize>, via: Option<&Via>) {
        if via.is_some() {
            return self.copy(src, range, via);
        }
        let b = src.as_bytes();
        let mut run = range.start;
        let mut i = range.start;
        while i < range.end {
            match memchr_cr(&b[i..range.end]) {
                None => break,
                Some(k) => {
                    let cr = i + k;
                    self.copy(src, run..cr, None);
                    let end = if cr + 1 < range.end && b[cr + 1] == b'\n' {
                        cr + 2
                    } else {
                        cr + 1
                    };
                    self.produce("\n", cr..end, None);
                    run = end;
                    i = end;
                }
            }
        }
        self.copy(src, run..range.end, None);
    }

    /// The occurrence text and map of `range` of the prepared text: the value itself, moved out
    /// and not copied, when the range is all of it (one IRI of millions of entities would
    /// otherwise be held twice, map and all).
    pub(super) fn take_slice(&mut self, range: Range<usize>) -> (String, SpanMap) {
        if range == (0..self.text.len()) {
            return (
                std::mem::take(&mut self.text),
                std::mem::take(&mut self.map),
            );
        }
        (self.text[range.clone()].to_string(), self.map.slice(range))
    }
}

fn memchr_cr(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'\r')
}

/// `range` of `text` without leading and trailing XML white space.
pub(super) fn trim(text: &str, range: Range<usize>) -> Range<usize> {
    let b = text.as_bytes();
    let (mut s, mut e) = (range.start, range.end);
    while s < e && is_space(b[s]) {
        s += 1;
    }
    while e > s && is_space(b[e - 1]) {
        e -= 1;
    }
    s..e
}

/// Hands the range of each white-space-separated token of `text` to `each`, in order.
pub(super) fn each_token(text: &str, each: &mut dyn FnMut(Range<usize>)) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        let s = i;
        while i < b.len() && !is_space(b[i]) {
            i += 1;
        }
        if i > s {
            each(s..i);
        }
    }
}

/// A short, display-safe rendering of a literal for messages (long ones are cut).
pub(super) fn shorten(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

/// The end of the character at `src[at..]`, at most `end` (`at` itself at the end).
pub(super) fn char_end(src: &str, at: usize, end: usize) -> usize {
    let at = at.min(end);
    src[at..end]
        .chars()
        .next()
        .map_or(at, |c| at + c.len_utf8())
}

/// Where `part` (a slice of `base`) starts in `base`.
pub(super) fn offset_in(base: &str, part: &str) -> usize {
    let at = (part.as_ptr() as usize).wrapping_sub(base.as_ptr() as usize);
    debug_assert!(at <= base.len(), "slice not inside its base");
    at.min(base.len())
}

#[cfg(test)]
mod tests {
    /// The definitions, char by char, that [`super::is_name`] and [`super::name_is_qname`]
    /// speed up.
    fn is_name_reference(s: &str) -> bool {
        let mut chars = s.chars();
        chars.next().is_some_and(super::is_name_start) && chars.all(super::is_name_char)
    }

    fn is_qname_reference(s: &str) -> bool {
        let ncname = |p: &str| is_name_reference(p) && !p.contains(':');
        match s.split_once(':') {
            Some((prefix, local)) => ncname(prefix) && ncname(local),
            None => ncname(s),
        }
    }

    #[test]
    fn names_agree_with_the_definitions_on_every_short_string() {
        let alphabet = [
            'a',
            'Z',
            '_',
            ':',
            '-',
            '.',
            '7',
            ' ',
            '=',
            '\u{B7}',
            '\u{300}',
            '\u{C0}',
            '\u{D7}',
            '\u{203F}',
            '\u{10000}',
            '\u{F0000}',
        ];
        // Every string of up to four of these characters.
        let mut level = vec![String::new()];
        let mut strings = level.clone();
        for _ in 0..4 {
            level = level
                .iter()
                .flat_map(|s| alphabet.iter().map(move |&c| format!("{s}{c}")))
                .collect();
            strings.extend(level.iter().cloned());
        }
        for s in &strings {
            assert_eq!(super::is_name(s), is_name_reference(s), "{s:?}");
            assert_eq!(is_qname(s), is_qname_reference(s), "{s:?}");
        }
    }

    use super::*;

    /// A QName, as a start tag's names are checked: a `Name`, then its colons.
    fn is_qname(s: &str) -> bool {
        is_name(s) && name_is_qname(s)
    }

    #[test]
    fn names() {
        assert!(is_name("a") && is_name("xlink:href") && is_name("é-1.x") && is_name("_"));
        assert!(!is_name("") && !is_name("1a") && !is_name("a b") && !is_name("-a"));
        assert!(is_qname("a:b") && is_qname("ab"));
        assert!(!is_qname(":a") && !is_qname("a:") && !is_qname("a:b:c"));
    }

    #[test]
    fn references() {
        fn r(s: &str) -> Result<(Reference<'_>, usize), String> {
            reference(s, 0)
        }
        assert_eq!(r("&#x202E;x"), Ok((Reference::Char('\u{202E}'), 8)));
        assert_eq!(r("&#233;"), Ok((Reference::Char('é'), 6)));
        assert_eq!(r("&amp;"), Ok((Reference::Entity("amp"), 5)));
        assert_eq!(r("&été;"), Ok((Reference::Entity("été"), 7)));
        assert!(r("&#0;").is_err());
        assert!(r("&#xFFFE;").is_err());
        assert!(r("&#x110000;").is_err());
        assert!(r("&#99999999999999999999;").is_err());
        assert!(r("&#;").is_err());
        assert!(r("&#xZ;").is_err());
        assert!(r("& b;").is_err());
        assert!(r("&a").is_err());
        assert!(r("&1a;").is_err());
        assert!(r("&").is_err());
    }

    #[test]
    fn illegal_chars() {
        assert_eq!(first_illegal_char("ab\tc\r\n"), None);
        assert_eq!(first_illegal_char("a\u{1}b\0"), Some((1, '\u{1}')));
        assert_eq!(first_illegal_char("é\u{FFFF}\0"), Some((2, '\u{FFFF}')));
        assert_eq!(first_illegal_char("\u{FFFE}"), Some((0, '\u{FFFE}')));
        // Across the 32-byte chunks the scan reads: other U+EFxx-U+FFxx characters pass.
        for at in 25..70 {
            let mut s = "\u{FFFD}\u{F000}".repeat(8) + "\n";
            let cut = (0..=at.min(s.len())).rev().find(|&i| s.is_char_boundary(i));
            s.truncate(cut.unwrap());
            let plain = s.len();
            assert_eq!(first_illegal_char(&s), None, "{at}");
            s.push('\u{FFFF}');
            s.push('\u{8}');
            assert_eq!(first_illegal_char(&s), Some((plain, '\u{FFFF}')), "{at}");
            s.truncate(plain);
            s.push('\u{1F}');
            assert_eq!(first_illegal_char(&s), Some((plain, '\u{1F}')), "{at}");
        }
    }

    #[test]
    fn line_ends_are_normalized_with_exact_spans() {
        let src = "a\r\nb\rc";
        let mut p = Prepared::default();
        p.chars(src, 0..src.len(), None);
        assert_eq!(p.text, "a\nb\nc");
        assert_eq!(p.map.to_source(1..2), 1..3);
        assert_eq!(p.map.to_source(3..4), 4..5);
        assert_eq!(p.map.to_source(4..5), 5..6);
    }
}
