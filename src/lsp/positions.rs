//! Conversions between byte offsets in a document's text and LSP positions, in the position
//! encoding negotiated with the client (UTF-16 code units unless it offers UTF-8 or UTF-32).
//! Every position the server sends or reads goes through here.

use lsp_types::{Position, PositionEncodingKind, Range};

use crate::line_index::LineIndex;

/// What an LSP `character` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Bytes of UTF-8.
    Utf8,
    /// UTF-16 code units (LSP's default: an astral character is two).
    Utf16,
    /// Unicode scalar values.
    Utf32,
}

impl Encoding {
    /// The encoding to use among those a client offers (`general.positionEncodings`): UTF-8 (the
    /// server's own offsets) when offered, then UTF-32, else the mandatory UTF-16.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        let offered = offered.unwrap_or_default();
        if offered.contains(&PositionEncodingKind::UTF8) {
            Encoding::Utf8
        } else if offered.contains(&PositionEncodingKind::UTF32) {
            Encoding::Utf32
        } else {
            Encoding::Utf16
        }
    }

    /// The name the protocol uses.
    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf32 => 1,
        }
    }
}

/// A text with its line index, to convert positions in both directions.
pub struct Lines<'a> {
    /// The document's text.
    pub text: &'a str,
    /// Its line starts (lines end at `\n`, `\r\n` or `\r`, as LSP counts them).
    pub index: &'a LineIndex,
    /// The negotiated encoding.
    pub encoding: Encoding,
}

impl Lines<'_> {
    /// The position of byte `offset` (clamped to the text, moved back to a char boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        // Through the index's column checkpoints: a count from the line's start per position
        // was quadratic in a long line's diagnostics.
        let p = self.index.position(self.text, offset);
        let character = match self.encoding {
            Encoding::Utf8 => offset - self.index.line_range(self.text, p.line - 1).start,
            Encoding::Utf16 => p.column_utf16 - 1,
            Encoding::Utf32 => p.column - 1,
        };
        Position::new(to_u32(p.line - 1), to_u32(character))
    }

    /// The range of bytes `start..end`.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The byte offset of `position`: a line past the end is the end of the text, a character
    /// past the end of its line the end of the line, and one inside a character (half a
    /// surrogate pair, a byte inside a UTF-8 sequence) the start of that character.
    pub fn offset(&self, position: Position) -> usize {
        let line = position.line as usize;
        if line >= self.index.len() {
            return self.text.len();
        }
        let range = self.index.line_range(self.text, line);
        let want = position.character as usize;
        let mut units = 0;
        for (k, c) in self.text[range.clone()].char_indices() {
            let next = units + self.encoding.units(c);
            if next > want {
                return range.start + k;
            }
            units = next;
        }
        range.end
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str, encoding: Encoding, f: impl FnOnce(&Lines<'_>)) {
        let index = LineIndex::new(text);
        f(&Lines {
            text,
            index: &index,
            encoding,
        });
    }

    #[test]
    fn astral_characters_count_by_encoding() {
        // U+1D4B3 (4 bytes, 2 UTF-16 units) then `x`.
        let text = "a\u{1D4B3}x";
        for (encoding, column) in [
            (Encoding::Utf8, 5),
            (Encoding::Utf16, 3),
            (Encoding::Utf32, 2),
        ] {
            lines(text, encoding, |l| {
                assert_eq!(l.position(5), Position::new(0, column));
                assert_eq!(l.offset(Position::new(0, column)), 5);
            });
        }
        // Half a surrogate pair / inside the sequence: the character's start.
        lines(text, Encoding::Utf16, |l| {
            assert_eq!(l.offset(Position::new(0, 2)), 1)
        });
        lines(text, Encoding::Utf8, |l| {
            assert_eq!(l.offset(Position::new(0, 3)), 1)
        });
    }

    #[test]
    fn crlf_and_lone_cr_end_lines_and_positions_clamp() {
        let text = "ab\r\ncd\ref";
        lines(text, Encoding::Utf16, |l| {
            assert_eq!(l.position(4), Position::new(1, 0));
            assert_eq!(l.position(7), Position::new(2, 0));
            assert_eq!(l.offset(Position::new(1, 1)), 5);
            assert_eq!(l.offset(Position::new(0, 99)), 2);
            assert_eq!(l.offset(Position::new(9, 0)), text.len());
            assert_eq!(l.position(999), Position::new(2, 2));
        });
    }

    #[test]
    fn negotiation_prefers_utf8_then_utf32() {
        use PositionEncodingKind as K;
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        assert_eq!(
            Encoding::negotiate(Some(&[K::UTF16, K::UTF32])),
            Encoding::Utf32
        );
        assert_eq!(
            Encoding::negotiate(Some(&[K::UTF32, K::UTF8])),
            Encoding::Utf8
        );
        assert_eq!(Encoding::negotiate(Some(&[K::UTF16])), Encoding::Utf16);
    }
}
