//! A document as the linter sees it: its decoded text, its format, and the facts about how its
//! bytes were decoded (BOM, encoding used, undecodable byte ranges) that encoding rules need.

use std::ops::Range;
use std::path::Path;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

use crate::line_index::LineIndex;

/// The document formats irilint extracts IRIs from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Plain text: IRIs are found by scheme or `www.` (see [`crate::extract::text`]).
    Text,
}

impl Format {
    /// Every format, in the order `--input-format` lists them.
    pub const ALL: [Format; 1] = [Format::Text];

    /// The format's name on the command line and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
        }
    }

    /// The format for a name given on the command line.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The format a file's extension implies, if irilint knows it.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "txt" | "text" => Some(Format::Text),
            _ => None,
        }
    }
}

/// A byte sequence that could not be decoded and became U+FFFD in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidSequence {
    /// The undecodable bytes in the file.
    pub bytes: Range<usize>,
    /// Where the U+FFFD that replaced them starts in [`Source::text`].
    pub text_offset: usize,
}

/// A charset declared inside the document (XML declaration, `<meta charset>`): filled in by the
/// format extractors that know where to look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    /// The label as written (`ISO-8859-1`).
    pub label: String,
    /// Where the label is in [`Source::text`].
    pub range: Range<usize>,
}

/// How the document's bytes became text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodingFacts {
    /// The encoding a byte order mark announced, if the file starts with one.
    pub bom: Option<&'static Encoding>,
    /// Length of that BOM in bytes (0 without one); it is not part of the text.
    pub bom_len: usize,
    /// The charset the document declares about itself, if any.
    pub declared: Option<Declaration>,
    /// The encoding the bytes were decoded with.
    pub used: &'static Encoding,
    /// Byte sequences that were not valid in `used`, in file order.
    pub invalid: Vec<InvalidSequence>,
}

/// One document, decoded.
#[derive(Debug)]
pub struct Source {
    /// The path as shown in reports (`-` or `--stdin-filename` for standard input).
    pub path: String,
    /// The format IRIs are extracted with.
    pub format: Format,
    /// The decoded text, without the BOM. Every offset the linter computes indexes into this.
    pub text: String,
    /// How the text was decoded.
    pub encoding: EncodingFacts,
    /// Line starts, for turning offsets into lines and columns.
    pub lines: LineIndex,
}

/// Why a file was not decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotText {
    /// A NUL byte in the first 8 KiB and no UTF-16 BOM: treated as binary and skipped.
    Binary {
        /// Offset of the first NUL byte.
        nul_at: usize,
    },
}

/// How far into a file to look for a NUL byte (as git and ripgrep do).
const BINARY_SNIFF_LEN: usize = 8 * 1024;

impl Source {
    /// Decodes `bytes`: a UTF-8 or UTF-16 BOM decides the encoding, otherwise UTF-8. Invalid
    /// sequences become U+FFFD and are recorded; nothing panics on any input.
    pub fn decode(path: String, format: Format, bytes: &[u8]) -> Result<Source, NotText> {
        let (bom, bom_len) = match Encoding::for_bom(bytes) {
            Some((enc, len)) => (Some(enc), len),
            None => (None, 0),
        };
        if bom.is_none()
            && let Some(nul_at) = bytes.iter().take(BINARY_SNIFF_LEN).position(|&b| b == 0)
        {
            return Err(NotText::Binary { nul_at });
        }
        let body = &bytes[bom_len..];
        let used = bom.unwrap_or(UTF_8);
        let (text, invalid) = if used == UTF_16LE || used == UTF_16BE {
            decode_utf16(body, used == UTF_16BE, bom_len)
        } else {
            decode_utf8(body, bom_len)
        };
        Ok(Source {
            path,
            format,
            lines: LineIndex::new(&text),
            text,
            encoding: EncodingFacts {
                bom,
                bom_len,
                declared: None,
                used,
                invalid,
            },
        })
    }

    /// A document that is already text (an IRI given on the command line), as UTF-8 without BOM.
    pub fn from_text(path: String, format: Format, text: String) -> Source {
        Source {
            path,
            format,
            lines: LineIndex::new(&text),
            text,
            encoding: EncodingFacts {
                bom: None,
                bom_len: 0,
                declared: None,
                used: UTF_8,
                invalid: Vec::new(),
            },
        }
    }

    /// The offset reported to users for a text offset: for UTF-8 documents the byte offset in
    /// the file (BOM and undecodable bytes accounted for); for other encodings the offset in the
    /// text as decoded to UTF-8.
    pub fn report_offset(&self, text_offset: usize) -> usize {
        if self.encoding.used != UTF_8 {
            return text_offset;
        }
        // Each invalid sequence of n bytes became one 3-byte U+FFFD.
        let before = self
            .encoding
            .invalid
            .partition_point(|s| s.text_offset < text_offset);
        let shift: isize = self.encoding.invalid[..before]
            .iter()
            .map(|s| s.bytes.len() as isize - 3)
            .sum();
        (text_offset as isize + shift) as usize + self.encoding.bom_len
    }
}

fn decode_utf8(body: &[u8], base: usize) -> (String, Vec<InvalidSequence>) {
    if let Ok(s) = std::str::from_utf8(body) {
        return (s.to_owned(), Vec::new());
    }
    let mut text = String::with_capacity(body.len() + 16);
    let mut invalid = Vec::new();
    let mut at = base;
    for chunk in body.utf8_chunks() {
        text.push_str(chunk.valid());
        at += chunk.valid().len();
        let bad = chunk.invalid();
        if !bad.is_empty() {
            invalid.push(InvalidSequence {
                bytes: at..at + bad.len(),
                text_offset: text.len(),
            });
            text.push(char::REPLACEMENT_CHARACTER);
            at += bad.len();
        }
    }
    (text, invalid)
}

fn decode_utf16(body: &[u8], big_endian: bool, base: usize) -> (String, Vec<InvalidSequence>) {
    let units = body.chunks_exact(2).map(|p| {
        if big_endian {
            u16::from_be_bytes([p[0], p[1]])
        } else {
            u16::from_le_bytes([p[0], p[1]])
        }
    });
    let mut text = String::with_capacity(body.len());
    let mut invalid = Vec::new();
    let mut at = base;
    for unit in char::decode_utf16(units) {
        match unit {
            Ok(c) => {
                text.push(c);
                at += c.len_utf16() * 2;
            }
            Err(_) => {
                invalid.push(InvalidSequence {
                    bytes: at..at + 2,
                    text_offset: text.len(),
                });
                text.push(char::REPLACEMENT_CHARACTER);
                at += 2;
            }
        }
    }
    if body.len() % 2 == 1 {
        invalid.push(InvalidSequence {
            bytes: at..at + 1,
            text_offset: text.len(),
        });
        text.push(char::REPLACEMENT_CHARACTER);
    }
    (text, invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> Source {
        Source::decode("t".into(), Format::Text, bytes).expect("text")
    }

    #[test]
    fn utf8_with_and_without_bom() {
        let s = decode(b"\xEF\xBB\xBFhttp://a/");
        assert_eq!(s.text, "http://a/");
        assert_eq!(s.encoding.bom, Some(UTF_8));
        assert_eq!(s.report_offset(7), 10);
        let s = decode(b"http://a/");
        assert_eq!(s.encoding.bom, None);
        assert_eq!(s.report_offset(7), 7);
    }

    #[test]
    fn only_a_bom_and_empty() {
        assert_eq!(decode(b"\xEF\xBB\xBF").text, "");
        assert_eq!(decode(b"").text, "");
        assert_eq!(decode(b"\xFF\xFE").text, "");
    }

    #[test]
    fn invalid_utf8_is_replaced_and_recorded() {
        let s = decode(b"a\xC3(b\xFF\xFEc");
        assert_eq!(s.text, "a\u{FFFD}(b\u{FFFD}\u{FFFD}c");
        let bytes: Vec<_> = s.encoding.invalid.iter().map(|i| i.bytes.clone()).collect();
        assert_eq!(bytes, [1..2, 4..5, 5..6]);
        // 'c' is byte 6 in the file; in the text it is after three 3-byte replacements.
        let c = s.text.find('c').unwrap();
        assert_eq!(s.report_offset(c), 6);
    }

    #[test]
    fn utf16_both_orders_and_lone_surrogates() {
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("hé".encode_utf16().flat_map(u16::to_le_bytes))
            .chain(0xD800u16.to_le_bytes())
            .chain("x".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let s = decode(&le);
        assert_eq!(s.text, "hé\u{FFFD}x");
        assert_eq!(s.encoding.used, UTF_16LE);
        assert_eq!(s.encoding.invalid[0].bytes, 6..8);
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("日本".encode_utf16().flat_map(u16::to_be_bytes))
            .chain([0x00])
            .collect();
        let s = decode(&be);
        assert_eq!(s.text, "日本\u{FFFD}");
        assert_eq!(s.encoding.used, UTF_16BE);
    }

    #[test]
    fn nul_means_binary_unless_utf16() {
        let r = Source::decode("t".into(), Format::Text, b"GIF89a\x00\x01");
        assert_eq!(r.unwrap_err(), NotText::Binary { nul_at: 6 });
        let mut late = vec![b'a'; BINARY_SNIFF_LEN];
        late.push(0);
        assert!(Source::decode("t".into(), Format::Text, &late).is_ok());
    }

    #[test]
    fn formats_by_extension() {
        assert_eq!(Format::from_path(Path::new("a/b.TXT")), Some(Format::Text));
        assert_eq!(Format::from_path(Path::new("a/b.png")), None);
        assert_eq!(Format::from_path(Path::new("README")), None);
    }
}
