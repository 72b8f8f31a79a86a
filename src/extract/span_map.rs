//! Where each byte of a prepared IRI came from in the source.
//!
//! RFC 3987 §5.2 checks IRIs after the carrying format's escapes are resolved, but a diagnostic
//! must underline what the author wrote: the whole `&#x202E;` for the U+202E it produced. A
//! [`SpanMap`] is a sorted list of pieces, each either *copied* (prepared bytes equal source
//! bytes, mapped one to one) or *replaced* (an escape: every prepared byte maps to the whole
//! source range of the escape).

use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece {
    /// Start of the piece in the prepared text (pieces are contiguous and sorted).
    prepared: usize,
    /// Length in the prepared text.
    len: usize,
    /// The source bytes it came from.
    source: Range<usize>,
    /// Copied byte for byte (true), or produced by an escape (false).
    copied: bool,
}

/// Maps byte ranges of a prepared IRI back to byte ranges of the source text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SpanMap {
    pieces: Vec<Piece>,
}

impl SpanMap {
    /// The map of text copied verbatim from `source` (plain text, escape-free attributes).
    pub fn identity(source: Range<usize>) -> SpanMap {
        let mut map = SpanMap::default();
        map.push_copied(source);
        map
    }

    /// Appends bytes copied verbatim from `source`.
    pub fn push_copied(&mut self, source: Range<usize>) {
        let prepared = self.prepared_len();
        if let Some(last) = self.pieces.last_mut()
            && last.copied
            && last.source.end == source.start
        {
            last.len += source.len();
            last.source.end = source.end;
            return;
        }
        if !source.is_empty() {
            self.pieces.push(Piece {
                prepared,
                len: source.len(),
                source,
                copied: true,
            });
        }
    }

    /// Appends `len` prepared bytes produced by the escape at `source` (an entity, a reference).
    pub fn push_replaced(&mut self, len: usize, source: Range<usize>) {
        let prepared = self.prepared_len();
        self.pieces.push(Piece {
            prepared,
            len,
            source,
            copied: false,
        });
    }

    /// Length of the prepared text the map covers.
    pub fn prepared_len(&self) -> usize {
        self.pieces.last().map_or(0, |p| p.prepared + p.len)
    }

    /// The source range of the whole prepared text.
    pub fn source_range(&self) -> Range<usize> {
        match (self.pieces.first(), self.pieces.last()) {
            (Some(a), Some(b)) => a.source.start..b.source.end,
            _ => 0..0,
        }
    }

    /// The source range that produced `prepared`: escapes are covered whole, so a finding on
    /// one byte of a `&#x202E;`-produced character underlines all eight source characters.
    pub fn to_source(&self, prepared: Range<usize>) -> Range<usize> {
        if self.pieces.is_empty() {
            return 0..0;
        }
        if prepared.is_empty() {
            let at = self.point(prepared.start);
            return at..at;
        }
        let first = &self.pieces[self.piece_index(prepared.start)];
        let last = &self.pieces[self.piece_index(prepared.end - 1)];
        let start = if first.copied {
            first.source.start + (prepared.start - first.prepared)
        } else {
            first.source.start
        };
        let end = if last.copied {
            last.source.start + (prepared.end - last.prepared)
        } else {
            last.source.end
        };
        start..end.max(start)
    }

    fn piece_index(&self, at: usize) -> usize {
        self.pieces
            .partition_point(|p| p.prepared + p.len <= at)
            .min(self.pieces.len() - 1)
    }

    fn point(&self, at: usize) -> usize {
        let p = &self.pieces[self.piece_index(at)];
        if at >= p.prepared + p.len {
            p.source.end
        } else if p.copied {
            p.source.start + (at - p.prepared)
        } else {
            p.source.start
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_is_a_shift() {
        let m = SpanMap::identity(100..120);
        assert_eq!(m.to_source(0..20), 100..120);
        assert_eq!(m.to_source(5..6), 105..106);
        assert_eq!(m.to_source(20..20), 120..120);
        assert_eq!(m.prepared_len(), 20);
    }

    #[test]
    fn escapes_are_covered_whole() {
        // source: `ros&#xE9;/x` at offset 10 → prepared `rosé/x` (é is 2 bytes)
        let mut m = SpanMap::default();
        m.push_copied(10..13);
        m.push_replaced(2, 13..21);
        m.push_copied(21..23);
        assert_eq!(m.prepared_len(), 7);
        assert_eq!(m.to_source(3..5), 13..21);
        assert_eq!(m.to_source(4..5), 13..21);
        assert_eq!(m.to_source(2..6), 12..22);
        assert_eq!(m.to_source(0..7), 10..23);
        assert_eq!(m.source_range(), 10..23);
    }

    #[test]
    fn adjacent_copies_merge() {
        let mut m = SpanMap::default();
        m.push_copied(0..3);
        m.push_copied(3..5);
        assert_eq!(m.pieces.len(), 1);
        m.push_copied(7..9);
        assert_eq!(m.pieces.len(), 2);
        assert_eq!(m.to_source(4..6), 4..8);
    }
}
