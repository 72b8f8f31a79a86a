//! Where each byte of a prepared IRI came from in the source.
//!
//! RFC 3987 §5.2 checks IRIs after the carrying format's escapes are resolved, but a diagnostic
//! must underline what the author wrote: the whole `&#x202E;` for the U+202E it produced. A
//! [`SpanMap`] is a sorted list of pieces, each either *copied* (prepared bytes equal source
//! bytes, mapped one to one) or *replaced* (an escape: every prepared byte maps to the whole
//! source range of the escape).

use std::ops::Range;

use smallvec::SmallVec;

/// Another source location that explains where prepared text came from (the declaration of the
/// entity whose use produced it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// The source range.
    pub range: Range<usize>,
    /// What it is (`entity \`x\` is declared here`).
    pub label: String,
}

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
    /// Index into [`SpanMap::related`] for text that came through an entity declaration.
    via: Option<usize>,
}

/// How many pieces a map keeps exactly. Past them, a piece joins the one before it until that
/// covers [`COARSE_SOURCE`] source bytes: a finding there underlines up to that much more than
/// its escape, but an IRI of millions of escapes (`&amp;&amp;...`, a NUL or CR per character)
/// keeps a map of a few bytes per hundred of its source, not 56 bytes per escape.
pub const EXACT_PIECES: usize = 4096;

/// The source bytes a coarse piece covers before another starts ([`EXACT_PIECES`]).
pub const COARSE_SOURCE: usize = 256;

/// Maps byte ranges of a prepared IRI back to byte ranges of the source text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SpanMap {
    /// One piece kept in place: most IRIs are copied whole from the source, and a map is made
    /// for every IRI, so most maps allocate nothing.
    pieces: SmallVec<[Piece; 1]>,
    related: Vec<Related>,
    /// Where each of `related` is, by its source range: an IRI made of 32,000 entities, each
    /// declared once, searched the list for each (0.5 s; a quadratic).
    /// (Made with the first related location: most maps have none, and a map is made for
    /// every IRI.)
    related_at: Option<std::collections::HashMap<(usize, usize), usize>>,
}

/// `text[range]` with its escapes replaced, and the map back to the source: `next` finds the
/// next byte in a slice that may start an escape (many bytes at a time), `escape_at` says what
/// the escape at a position of `text` stands for and how many bytes it takes, or `None` when
/// that byte starts none. Escapes start with ASCII bytes, so stepping over one byte that starts
/// none never splits a character: the runs between escapes are copied whole.
pub fn decode_escapes(
    text: &str,
    range: Range<usize>,
    next: impl Fn(&[u8]) -> Option<usize>,
    mut escape_at: impl FnMut(usize) -> Option<(String, usize)>,
) -> (String, SpanMap) {
    let b = text.as_bytes();
    let mut out = String::with_capacity(range.len());
    let mut map = SpanMap::default();
    let mut copy_from = range.start;
    let mut i = range.start;
    while let Some(k) = b.get(i..range.end).and_then(&next) {
        i += k;
        match escape_at(i) {
            Some((s, n)) => {
                if i > copy_from {
                    out.push_str(&text[copy_from..i]);
                    map.push_copied(copy_from..i);
                }
                out.push_str(&s);
                map.push_replaced(s.len(), i..i + n);
                i += n;
                copy_from = i;
            }
            None => i += 1,
        }
    }
    if range.end > copy_from {
        out.push_str(&text[copy_from..range.end]);
        map.push_copied(copy_from..range.end);
    }
    (out, map)
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
        if !source.is_empty() && !self.coarse_into_last(source.len(), &source, None) {
            self.pieces.push(Piece {
                prepared,
                len: source.len(),
                source,
                copied: true,
                via: None,
            });
        }
    }

    /// Past [`EXACT_PIECES`], merges a piece of `len` prepared bytes from `source` into the last
    /// piece while that covers fewer than [`COARSE_SOURCE`] source bytes; says whether it did.
    fn coarse_into_last(&mut self, len: usize, source: &Range<usize>, via: Option<usize>) -> bool {
        if self.pieces.len() < EXACT_PIECES {
            return false;
        }
        let Some(last) = self.pieces.last_mut() else {
            return false;
        };
        if source.start < last.source.start || last.source.len() >= COARSE_SOURCE {
            return false;
        }
        last.len += len;
        last.source.end = last.source.end.max(source.end);
        last.copied = false;
        // Text from two places (an entity and the text around it) keeps no related location:
        // a value alternating between them would otherwise keep a piece per escape.
        if last.via != via {
            last.via = None;
        }
        true
    }

    /// Appends `len` prepared bytes produced by the escape at `source` (an entity, a reference).
    pub fn push_replaced(&mut self, len: usize, source: Range<usize>) {
        self.push_piece(len, source, None);
    }

    /// Appends `len` prepared bytes produced by the escape at `source` whose text came from
    /// elsewhere in the document (`&name;` and its `<!ENTITY name ...>` declaration).
    /// Past [`EXACT_PIECES`], a related location not met before is not kept (the piece keeps
    /// its source range): a value of a million entities, each declared once, keeps 4,096 labels,
    /// not a million.
    pub fn push_replaced_via(&mut self, len: usize, source: Range<usize>, related: &Related) {
        let at = (related.range.start, related.range.end);
        crate::work::add(crate::work::Work::RelatedLookups, 1);
        let index = self.related_at.get_or_insert_default();
        let k = match index.get(&at) {
            Some(&k) if self.related[k] == *related => Some(k),
            // Two labels for one place (not met): found by a search, as before.
            Some(_) if let Some(k) = self.related.iter().position(|r| r == related) => {
                crate::work::add(crate::work::Work::RelatedLookups, k);
                Some(k)
            }
            _ if self.pieces.len() >= EXACT_PIECES => None,
            found => {
                self.related.push(related.clone());
                let k = self.related.len() - 1;
                if found.is_none() {
                    index.insert(at, k);
                }
                Some(k)
            }
        };
        self.push_piece(len, source, k);
    }

    fn push_piece(&mut self, len: usize, source: Range<usize>, via: Option<usize>) {
        if len == 0 {
            return;
        }
        if self.coarse_into_last(len, &source, via) {
            return;
        }
        let prepared = self.prepared_len();
        self.pieces.push(Piece {
            prepared,
            len,
            source,
            copied: false,
            via,
        });
    }

    /// Appends another map (its prepared text follows this one's).
    pub fn extend(&mut self, other: &SpanMap) {
        for p in &other.pieces {
            match p.via {
                _ if p.copied => self.push_copied(p.source.clone()),
                Some(k) => self.push_replaced_via(p.len, p.source.clone(), &other.related[k]),
                None => self.push_replaced(p.len, p.source.clone()),
            }
        }
    }

    /// The map of the prepared sub-range `prepared` (for one item of a list attribute): its
    /// byte 0 is `prepared.start` here. An escape cut by the range is kept whole.
    pub fn slice(&self, prepared: Range<usize>) -> SpanMap {
        let mut out = SpanMap::default();
        // From the first piece that reaches the range to the last that starts in it: a list
        // attribute's items each slice the value's map, which must not cost the whole map each.
        let first = self
            .pieces
            .partition_point(|p| p.prepared + p.len <= prepared.start);
        for p in self.pieces[first..]
            .iter()
            .take_while(|p| p.prepared < prepared.end)
        {
            let (start, end) = (
                p.prepared.max(prepared.start),
                (p.prepared + p.len).min(prepared.end),
            );
            if start >= end {
                continue;
            }
            if p.copied {
                let s = p.source.start + (start - p.prepared);
                out.push_copied(s..s + (end - start));
            } else {
                match p.via {
                    Some(k) => {
                        out.push_replaced_via(end - start, p.source.clone(), &self.related[k])
                    }
                    None => out.push_replaced(end - start, p.source.clone()),
                }
            }
        }
        out
    }

    /// The related locations of the pieces that produced `prepared`.
    pub fn related_for(&self, prepared: Range<usize>) -> Vec<Related> {
        let mut out: Vec<Related> = Vec::new();
        if self.related.is_empty() {
            return out;
        }
        let first = self
            .pieces
            .partition_point(|p| p.prepared + p.len <= prepared.start);
        let until = prepared.end.max(prepared.start + 1);
        for p in self.pieces[first..]
            .iter()
            .take_while(|p| p.prepared < until)
        {
            let overlaps = p.prepared < prepared.end.max(prepared.start + 1)
                && prepared.start < p.prepared + p.len;
            if let (true, Some(k)) = (overlaps, p.via)
                && !out.contains(&self.related[k])
            {
                out.push(self.related[k].clone());
            }
        }
        out
    }

    /// The prepared byte copied from source byte `source`, if one was (escapes map no single
    /// byte back).
    pub fn to_prepared(&self, source: usize) -> Option<usize> {
        self.pieces
            .iter()
            .find(|p| p.copied && p.source.contains(&source))
            .map(|p| p.prepared + (source - p.source.start))
    }

    /// Length of the prepared text the map covers.
    pub fn prepared_len(&self) -> usize {
        self.pieces.last().map_or(0, |p| p.prepared + p.len)
    }

    /// The map of the same text found in a slice of the source that starts at `by`: every
    /// source range moved by `by`.
    pub fn shift(&mut self, by: usize) {
        for piece in &mut self.pieces {
            piece.source = piece.source.start + by..piece.source.end + by;
        }
        for related in &mut self.related {
            related.range = related.range.start + by..related.range.end + by;
        }
        if let Some(at) = self.related_at.take() {
            self.related_at = Some(
                at.into_iter()
                    .map(|((s, e), k)| ((s + by, e + by), k))
                    .collect(),
            );
        }
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
        assert_eq!(m.to_prepared(11), Some(1));
        assert_eq!(m.to_prepared(14), None);
        assert_eq!(m.to_prepared(21), Some(5));
        assert_eq!(m.to_source(0..7), 10..23);
        assert_eq!(m.source_range(), 10..23);
    }

    #[test]
    fn slices_keep_their_own_offsets() {
        // `a&amp;b c` at 0 → prepared `a&b c`; slice `b c` (prepared 2..5)
        let mut m = SpanMap::default();
        m.push_copied(0..1);
        m.push_replaced(1, 1..6);
        m.push_copied(6..9);
        let s = m.slice(2..5);
        assert_eq!(s.prepared_len(), 3);
        assert_eq!(s.to_source(0..3), 6..9);
        let s = m.slice(0..2);
        assert_eq!(s.to_source(1..2), 1..6);
    }

    #[test]
    fn related_locations_follow_their_pieces() {
        let decl = Related {
            range: 5..30,
            label: "entity `e` is declared here".into(),
        };
        let mut m = SpanMap::default();
        m.push_copied(40..45);
        m.push_replaced_via(6, 45..48, &decl);
        assert!(m.related_for(0..5).is_empty());
        assert_eq!(m.related_for(4..7), std::slice::from_ref(&decl));
        assert_eq!(m.slice(5..11).related_for(0..1), [decl]);
    }

    #[test]
    fn past_its_exact_pieces_a_map_grows_by_source_not_by_escape() {
        // `a&amp;` a million times: two pieces each, exact for the first EXACT_PIECES.
        let n = 1_000_000;
        let mut m = SpanMap::default();
        for i in 0..n {
            m.push_copied(6 * i..6 * i + 1);
            m.push_replaced(1, 6 * i + 1..6 * i + 6);
        }
        assert_eq!(m.prepared_len(), 2 * n);
        assert_eq!(m.source_range(), 0..6 * n);
        assert!(
            m.pieces.len() <= EXACT_PIECES + 6 * n / COARSE_SOURCE + 1,
            "{} pieces",
            m.pieces.len()
        );
        // Exact at the start: the `&amp;` of the tenth `a&`.
        assert_eq!(m.to_source(19..20), 55..60);
        assert_eq!(m.to_source(18..19), 54..55);
        // Past the budget, never a wrong span: it covers the escape, and not much more.
        for k in [n / 2, n - 1] {
            let exact = 6 * k + 1..6 * k + 6;
            let got = m.to_source(2 * k + 1..2 * k + 2);
            assert!(got.start <= exact.start && exact.end <= got.end, "{got:?}");
            assert!(got.len() <= COARSE_SOURCE + 6, "{got:?}");
        }
        // Slices of it keep covering their bytes.
        let s = m.slice(2 * (n - 1)..2 * n);
        assert_eq!(s.prepared_len(), 2);
        let got = s.to_source(1..2);
        assert!(got.start <= 6 * (n - 1) + 1 && 6 * n <= got.end);
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

    #[test]
    fn a_map_of_one_piece_allocates_nothing() {
        let m = SpanMap::identity(3..9);
        assert!(!m.pieces.spilled());
        assert_eq!(m.to_source(1..4), 4..7);
        let mut two = m.clone();
        two.push_replaced(1, 9..14);
        assert!(two.pieces.spilled());
        assert_eq!(two.to_source(0..7), 3..14);
        assert_eq!(two.source_range(), 3..14);
    }
}
