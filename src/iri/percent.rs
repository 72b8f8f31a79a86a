//! Percent-encodings (`%HH`) and the UTF-8 they carry, decoded strictly (RFC 3629, as RFC 3987
//! §3.2 step 3 requires) and classified when they are not legal, so that conversion (§3.2) and the
//! rules (§8) share one decoder.

use std::ops::Range;

/// The value of a hexadecimal digit.
fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Appends the `%HH` triplets of `c`'s UTF-8 octets, in uppercase hex (§3.1 step 2.2).
pub fn push_encoded(c: char, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut buf = [0u8; 4];
    for &b in c.encode_utf8(&mut buf).as_bytes() {
        out.push('%');
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 0xF)]));
    }
}

/// Every character of `s` percent-encoded as UTF-8 (`\u{202E}` is `%E2%80%AE`): how messages
/// show the octets a character takes in a URI.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for c in s.chars() {
        push_encoded(c, &mut out);
    }
    out
}

/// The octet of a `%HH` triplet starting at `at` in `s`, if there is one.
pub fn triplet_at(s: &str, at: usize) -> Option<u8> {
    match s.as_bytes().get(at..at + 3)? {
        [b'%', h, l] => Some(hex_value(*h)? << 4 | hex_value(*l)?),
        _ => None,
    }
}

/// Whether some `%HH` of `s` encodes an octet for which `wanted` holds: a scan without
/// allocation, so that the common `%20` and `%2F` cost the callers that decode almost nothing.
pub fn encodes_octet(s: &str, wanted: impl Fn(u8) -> bool) -> bool {
    memchr::memchr_iter(b'%', s.as_bytes()).any(|at| triplet_at(s, at).is_some_and(&wanted))
}

/// Lowercases the ASCII letters of `s` that are not the hex digits of a `%HH` triplet (a host's
/// case-insensitive letters, RFC 3987 §5.3.2.1).
pub fn lowercase_outside_triplets(s: &mut str) {
    let mut i = 0;
    while let Some(k) = s[i..].find('%') {
        s[i..i + k].make_ascii_lowercase();
        i += k + if triplet_at(s, i + k).is_some() { 3 } else { 1 };
    }
    s[i..].make_ascii_lowercase();
}

/// The maximal runs of consecutive well-formed `%HH` triplets in `s`, as byte ranges, found one
/// at a time (a list of them took 16 bytes for each `a%7e` of a hostile IRI).
pub fn runs(s: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    runs_from(s, 0)
}

/// [`runs`] that start at or after `from`, found one at a time as the iterator is advanced: a
/// caller that looks at each once holds none of the others.
pub fn runs_from(s: &str, from: usize) -> impl Iterator<Item = Range<usize>> + '_ {
    let bytes = s.as_bytes();
    let mut i = from;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let at = i + memchr::memchr(b'%', &bytes[i..])?;
            if triplet_at(s, at).is_some() {
                let mut end = at + 3;
                while bytes.get(end) == Some(&b'%') && triplet_at(s, end).is_some() {
                    end += 3;
                }
                i = end;
                return Some(at..end);
            }
            i = at + 1;
        }
        None
    })
}

/// What a sequence of percent-encoded octets is, read as UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoded {
    /// A character in strictly legal UTF-8 (ASCII included).
    Char(char),
    /// Octets that are not UTF-8 at all: a stray continuation byte, a lead byte without its
    /// continuation bytes, `FE`/`FF`. Consecutive such octets form one piece.
    NotUtf8,
    /// A longer form than needed for the value (`%C0%AF` for `/`); the value is what a lenient
    /// decoder would produce.
    Overlong(u32),
    /// An encoded UTF-16 surrogate (`%ED%A0%80`), which UTF-8 forbids.
    Surrogate(u32),
    /// A value above U+10FFFF (`%F4%90%80%80`, the old 5- and 6-octet forms).
    TooLarge(u32),
}

/// A piece of a run of triplets: what it decodes to and the triplets it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// What the octets are.
    pub decoded: Decoded,
    /// Byte range of its triplets in the text given to [`decode`] (a multiple of 3 long).
    pub range: Range<usize>,
    /// The octets themselves.
    pub octets: Vec<u8>,
}

/// Decodes the run of triplets `run` of `s` (as [`runs`] gives it) into pieces, strictly.
pub fn decode(s: &str, run: Range<usize>) -> Vec<Piece> {
    let octets: Vec<u8> = (run.start..run.end)
        .step_by(3)
        .filter_map(|at| triplet_at(s, at))
        .collect();
    let mut out: Vec<Piece> = Vec::new();
    let mut i = 0;
    while i < octets.len() {
        let (decoded, len) = decode_one(&octets[i..]);
        let range = run.start + 3 * i..run.start + 3 * (i + len);
        match (decoded, out.last_mut()) {
            (Decoded::NotUtf8, Some(last)) if last.decoded == Decoded::NotUtf8 => {
                last.range.end = range.end;
                last.octets.extend_from_slice(&octets[i..i + len]);
            }
            _ => out.push(Piece {
                decoded,
                range,
                octets: octets[i..i + len].to_vec(),
            }),
        }
        i += len;
    }
    out
}

/// Decodes the first sequence of `octets` (not empty): what it is and how many octets it takes.
fn decode_one(octets: &[u8]) -> (Decoded, usize) {
    let lead = octets[0];
    let (len, initial) = match lead {
        0x00..=0x7F => return (Decoded::Char(char::from(lead)), 1),
        0xC0..=0xDF => (2, u32::from(lead & 0x1F)),
        0xE0..=0xEF => (3, u32::from(lead & 0x0F)),
        0xF0..=0xF7 => (4, u32::from(lead & 0x07)),
        0xF8..=0xFB => (5, u32::from(lead & 0x03)),
        0xFC..=0xFD => (6, u32::from(lead & 0x01)),
        _ => return (Decoded::NotUtf8, 1),
    };
    let Some(rest) = octets.get(1..len) else {
        return (Decoded::NotUtf8, 1);
    };
    if !rest.iter().all(|&b| b & 0xC0 == 0x80) {
        return (Decoded::NotUtf8, 1);
    }
    let value = rest
        .iter()
        .fold(initial, |v, &b| v << 6 | u32::from(b & 0x3F));
    let min = match len {
        2 => 0x80,
        3 => 0x800,
        4 => 0x1_0000,
        5 => 0x20_0000,
        _ => 0x400_0000,
    };
    let decoded = if value < min {
        Decoded::Overlong(value)
    } else if (0xD800..=0xDFFF).contains(&value) {
        Decoded::Surrogate(value)
    } else if value > 0x10_FFFF {
        Decoded::TooLarge(value)
    } else {
        match char::from_u32(value) {
            Some(c) => Decoded::Char(c),
            None => Decoded::NotUtf8,
        }
    };
    (decoded, len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(s: &str) -> Vec<(Decoded, &str)> {
        runs(s)
            .flat_map(|r| decode(s, r))
            .map(|p| (p.decoded, &s[p.range]))
            .collect()
    }

    #[test]
    fn lowercasing_keeps_triplets() {
        for (s, want) in [
            ("EX%41MPLE.Com", "ex%41mple.com"),
            ("[FE80::1]", "[fe80::1]"),
            ("A%4", "a%4"),
            ("%", "%"),
        ] {
            let mut s = s.to_owned();
            lowercase_outside_triplets(&mut s);
            assert_eq!(s, want);
        }
    }

    #[test]
    fn runs_are_maximal_and_skip_malformed_triplets() {
        let s = "/%41%4g%e2%80%AE/%%20x%2";
        let got: Vec<&str> = runs(s).map(|r| &s[r]).collect();
        assert_eq!(got, ["%41", "%e2%80%AE", "%20"]);
        assert_eq!(triplet_at(s, 0), None);
        assert_eq!(triplet_at(s, 1), Some(0x41));
    }

    #[test]
    fn legal_utf8_decodes_to_characters() {
        assert_eq!(
            pieces("D%C3%BCrst%E2%80%AE%F0%9F%98%80"),
            [
                (Decoded::Char('ü'), "%C3%BC"),
                (Decoded::Char('\u{202E}'), "%E2%80%AE"),
                (Decoded::Char('😀'), "%F0%9F%98%80"),
            ]
        );
    }

    #[test]
    fn legacy_octets_are_not_utf8_and_merge() {
        assert_eq!(pieces("D%FCrst"), [(Decoded::NotUtf8, "%FC")]);
        assert_eq!(
            pieces("%E9%E8%41"),
            [(Decoded::NotUtf8, "%E9%E8"), (Decoded::Char('A'), "%41")]
        );
        assert_eq!(pieces("%80%FF%FE"), [(Decoded::NotUtf8, "%80%FF%FE")]);
        // A lead byte cut short: the lead alone is not UTF-8, what follows is read again.
        assert_eq!(
            pieces("%E2%80%41"),
            [(Decoded::NotUtf8, "%E2%80"), (Decoded::Char('A'), "%41")]
        );
    }

    #[test]
    fn overlong_surrogate_and_too_large_forms_say_what_a_lenient_decoder_makes() {
        assert_eq!(pieces("%C0%AF"), [(Decoded::Overlong(0x2F), "%C0%AF")]);
        assert_eq!(
            pieces("%E0%80%AF"),
            [(Decoded::Overlong(0x2F), "%E0%80%AF")]
        );
        assert_eq!(
            pieces("%F0%80%80%AF"),
            [(Decoded::Overlong(0x2F), "%F0%80%80%AF")]
        );
        assert_eq!(pieces("%C1%9C"), [(Decoded::Overlong(0x5C), "%C1%9C")]);
        assert_eq!(
            pieces("%ED%A0%80"),
            [(Decoded::Surrogate(0xD800), "%ED%A0%80")]
        );
        assert_eq!(
            pieces("%F4%90%80%80"),
            [(Decoded::TooLarge(0x11_0000), "%F4%90%80%80")]
        );
        assert_eq!(
            pieces("%F8%80%80%80%AF"),
            [(Decoded::Overlong(0x2F), "%F8%80%80%80%AF")]
        );
    }

    #[test]
    fn any_bytes_never_panic() {
        for a in 0..=255u8 {
            for b in [0x00, 0x80, 0xBF, 0xC0, 0xFF] {
                let s = format!("%{a:02X}%{b:02X}%BF%BF%BF%BF");
                let total: usize = pieces(&s).iter().map(|(_, t)| t.len()).sum();
                assert_eq!(total, s.len(), "{s}");
            }
        }
    }
}
