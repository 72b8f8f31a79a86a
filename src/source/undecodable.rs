//! The byte sequences of a document that could not be decoded, kept in a few bytes each.
//!
//! Latin-1 prose read as UTF-8 has one every ten bytes or so, and a file of nothing else one per
//! byte: a list of 24-byte records (where each is in the file and in the text, its length and
//! bytes) was 2.4 times the file for the prose alone. Here each sequence is a few bytes in one
//! buffer: the distance from the end of the one before it in the text (and, unless the two are
//! the same, in the file), then its length and bytes. A mark every [`MARK_EVERY`] sequences
//! says where to start reading, so that the sequence at a text offset is found by a binary
//! search and a walk of at most that many.

use std::ops::Range;

/// A byte sequence that could not be decoded and became U+FFFD in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidSequence {
    /// Where the undecodable bytes start in the file.
    start: usize,
    /// Where the U+FFFD that replaced them starts in [`crate::source::Source::text`].
    pub text_offset: usize,
    /// How many bytes it has (a decoder's malformed sequence is a few bytes at most).
    len: u8,
    /// Its bytes, when they are kept: in a legacy encoding, and for the first sequence of a
    /// UTF-8 document (the one a message names), when they are at most [`FOUND`].
    found: Option<[u8; FOUND]>,
}

/// The bytes of an [`InvalidSequence`] it keeps: every malformed sequence `encoding_rs` reports
/// for UTF-8 (at most 3) and the legacy encodings fits.
const FOUND: usize = 4;

/// The length of the U+FFFD each sequence became.
const REPLACEMENT: usize = char::REPLACEMENT_CHARACTER.len_utf8();

impl InvalidSequence {
    /// The undecodable bytes in the file.
    pub fn bytes(&self) -> Range<usize> {
        self.start..self.start + usize::from(self.len)
    }

    /// Their values, for messages and to read them back: `None` for a sequence longer than
    /// [`FOUND`] bytes (none is met), and for every sequence of a UTF-8 document but the first
    /// (nothing reads them back: UTF-8 pasted into UTF-8 is no mistake).
    pub fn found(&self) -> Option<&[u8]> {
        self.found.as_ref()?.get(..usize::from(self.len))
    }

    /// The U+FFFD that replaced it in the text.
    pub fn in_text(&self) -> Range<usize> {
        self.text_offset..self.text_offset + REPLACEMENT
    }
}

/// The text gap an entry's first byte holds, from 0 to 30; 31 says a LEB128 number follows.
const GAP_ESCAPE: u8 = 31;

/// The length an entry's first byte holds, from 0 to 6; 7 says a byte follows.
const LEN_ESCAPE: u8 = 7;

/// How many sequences a [`Mark`] stands for.
const MARK_EVERY: usize = 64;

/// Where the sequences `k * MARK_EVERY..` start in [`Undecodable::entries`], and what reading
/// them needs to know of the ones before.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Mark {
    /// The text offset of the first of them (what a search compares).
    first: usize,
    /// The reading position before it.
    at: Cursor,
}

/// A reading position: the next entry's byte in [`Undecodable::entries`], and the text and
/// file offsets just after the sequence before it (0 and the body's start before the first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cursor {
    entry: usize,
    text_end: usize,
    file_end: usize,
}

/// Every byte sequence of a document that could not be decoded, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undecodable {
    /// Per sequence: a byte of the text gap from the sequence before (5 bits) and its length
    /// (3 bits), each followed by its whole value when it does not fit; the file gap (LEB128)
    /// unless the encoding is UTF-8 (where they are equal: valid bytes decode to themselves);
    /// and its first [`FOUND`] bytes when they are kept ([`InvalidSequence::found`]). One byte
    /// for each of a UTF-8 document's sequences but the first, unless 31 bytes or more apart.
    entries: Vec<u8>,
    marks: Vec<Mark>,
    count: usize,
    /// Whether file gaps equal text gaps (UTF-8), and are not kept.
    same_gaps: bool,
    /// Where the next sequence is written from.
    end: Cursor,
}

impl Default for Undecodable {
    fn default() -> Self {
        Undecodable::new(true, 0)
    }
}

fn put_varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Reads a LEB128 number at `*at`; written by [`put_varint`], so never past the end.
fn get_varint(bytes: &[u8], at: &mut usize) -> usize {
    let mut n = 0usize;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        n |= usize::from(b & 0x7F).checked_shl(shift).unwrap_or(0);
        shift += 7;
        if b < 0x80 {
            break;
        }
    }
    n
}

impl Undecodable {
    /// None yet, in a body that starts `base` bytes into the file; `same_gaps` when it is
    /// decoded as UTF-8.
    pub(super) fn new(same_gaps: bool, base: usize) -> Self {
        Undecodable {
            entries: Vec::new(),
            marks: Vec::new(),
            count: 0,
            same_gaps,
            end: Cursor {
                entry: 0,
                text_end: 0,
                file_end: base,
            },
        }
    }

    /// Room for `count` sequences, as a first pass counted them.
    pub(super) fn reserve(&mut self, count: usize, entry_bytes: usize) {
        self.entries.reserve_exact(entry_bytes);
        self.marks.reserve_exact(count.div_ceil(MARK_EVERY));
    }

    /// Records the sequence `bytes` found at `start` in the file, replaced by the U+FFFD at
    /// `text_offset`; each after the one before, in the file and in the text.
    pub(super) fn push(&mut self, start: usize, bytes: &[u8], text_offset: usize) {
        if self.count.is_multiple_of(MARK_EVERY) {
            self.marks.push(Mark {
                first: text_offset,
                at: self.end,
            });
        }
        let Cursor {
            text_end, file_end, ..
        } = self.end;
        let gap = text_offset.saturating_sub(text_end);
        let len = u8::try_from(bytes.len()).unwrap_or(u8::MAX);
        let header = (gap.min(usize::from(GAP_ESCAPE)) as u8) << 3 | len.min(LEN_ESCAPE);
        self.entries.push(header);
        if gap >= usize::from(GAP_ESCAPE) {
            put_varint(&mut self.entries, gap);
        }
        if len >= LEN_ESCAPE {
            self.entries.push(len);
        }
        if !self.same_gaps {
            put_varint(&mut self.entries, start.saturating_sub(file_end));
        }
        if self.keeps_found() {
            self.entries
                .extend_from_slice(&bytes[..bytes.len().min(FOUND)]);
        }
        self.count += 1;
        self.end = Cursor {
            entry: self.entries.len(),
            text_end: text_offset + REPLACEMENT,
            file_end: start + bytes.len(),
        };
    }

    /// Whether the bytes of the next sequence pushed are kept: always in a legacy encoding (to
    /// read UTF-8 pasted into it back), only the first's in UTF-8 (for the message).
    fn keeps_found(&self) -> bool {
        !self.same_gaps || self.count == 0
    }

    /// The bytes [`Undecodable::push`] writes for the `index`th sequence, of `len` bytes, `text_gap` and
    /// `file_gap` bytes after the one before in the text and the file.
    pub(super) fn entry_bytes(
        same_gaps: bool,
        index: usize,
        text_gap: usize,
        file_gap: usize,
        len: usize,
    ) -> usize {
        let varint = |n: usize| (usize::BITS - n.leading_zeros()).max(1).div_ceil(7) as usize;
        let gap = if text_gap >= usize::from(GAP_ESCAPE) {
            varint(text_gap)
        } else {
            0
        };
        let len_byte = usize::from(len >= usize::from(LEN_ESCAPE));
        let file = if same_gaps { 0 } else { varint(file_gap) };
        let found = if !same_gaps || index == 0 {
            len.min(FOUND)
        } else {
            0
        };
        1 + gap + len_byte + file + found
    }

    /// How many sequences there are.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether every byte was decoded.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The first sequence, in the file and so in the text.
    pub fn first(&self) -> Option<InvalidSequence> {
        self.iter().next()
    }

    /// Every sequence, in file order.
    pub fn iter(&self) -> impl Iterator<Item = InvalidSequence> + '_ {
        let start = self.marks.first().map(|m| m.at);
        self.read_from(start, self.count)
    }

    /// The `left` sequences from `at` on.
    fn read_from(
        &self,
        at: Option<Cursor>,
        left: usize,
    ) -> impl Iterator<Item = InvalidSequence> + '_ {
        let mut at = at.unwrap_or(self.end);
        let mut left = left;
        std::iter::from_fn(move || {
            if left == 0 || at.entry >= self.entries.len() {
                return None;
            }
            left -= 1;
            let first = at.entry == 0;
            let mut k = at.entry;
            let header = *self.entries.get(k)?;
            k += 1;
            let mut gap = usize::from(header >> 3);
            if gap == usize::from(GAP_ESCAPE) {
                gap = get_varint(&self.entries, &mut k);
            }
            let mut len = header & LEN_ESCAPE;
            if len == LEN_ESCAPE {
                len = *self.entries.get(k)?;
                k += 1;
            }
            let text_offset = at.text_end + gap;
            let start = if self.same_gaps {
                at.file_end + gap
            } else {
                at.file_end + get_varint(&self.entries, &mut k)
            };
            let kept = if !self.same_gaps || first {
                usize::from(len).min(FOUND)
            } else {
                0
            };
            let mut found = [0; FOUND];
            found[..kept].copy_from_slice(self.entries.get(k..k + kept)?);
            at = Cursor {
                entry: k + kept,
                text_end: text_offset + REPLACEMENT,
                file_end: start + usize::from(len),
            };
            Some(InvalidSequence {
                start,
                text_offset,
                len,
                found: (kept == usize::from(len)).then_some(found),
            })
        })
    }

    /// The sequences from the mark before the last one whose U+FFFD starts before `text_offset`:
    /// at most [`MARK_EVERY`] of them to read through for any offset.
    fn near(&self, text_offset: usize) -> impl Iterator<Item = InvalidSequence> + '_ {
        let k = self
            .marks
            .partition_point(|m| m.first < text_offset)
            .saturating_sub(1);
        let left = self
            .count
            .saturating_sub(k * MARK_EVERY)
            .min(2 * MARK_EVERY);
        self.read_from(self.marks.get(k).map(|m| m.at), left)
    }

    /// The sequence whose U+FFFD starts at `text_offset`, if one does.
    pub fn at(&self, text_offset: usize) -> Option<InvalidSequence> {
        self.near(text_offset.saturating_add(1))
            .take_while(|s| s.text_offset <= text_offset)
            .find(|s| s.text_offset == text_offset)
    }

    /// The last sequence whose U+FFFD starts before `text_offset`.
    pub fn last_before(&self, text_offset: usize) -> Option<InvalidSequence> {
        self.near(text_offset)
            .take_while(|s| s.text_offset < text_offset)
            .last()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_read_back_as_pushed_and_are_found_by_offset() {
        for same_gaps in [true, false] {
            let mut u = Undecodable::new(same_gaps, 3);
            let mut pushed = Vec::new();
            let (mut text, mut file) = (0, 3);
            for i in 0..1000usize {
                // Gaps of 0 to a few hundred bytes (one- and two-byte numbers), lengths 1 to 5.
                let gap = (i * 37) % 300;
                let len = 1 + i % 5;
                text += gap;
                file += if same_gaps { gap } else { gap + i % 3 };
                let bytes: Vec<u8> = (0..len).map(|b| (i + b) as u8 | 0x80).collect();
                u.push(file, &bytes, text);
                pushed.push((file..file + len, text, bytes));
                text += REPLACEMENT;
                file += len;
            }
            assert_eq!(u.len(), 1000);
            let read: Vec<_> = u
                .iter()
                .map(|s| (s.bytes(), s.text_offset, s.found().map(<[u8]>::to_vec)))
                .collect();
            // A UTF-8 document keeps only its first sequence's bytes.
            let expected: Vec<_> = pushed
                .iter()
                .enumerate()
                .map(|(k, (r, t, b))| {
                    let kept = b.len() <= FOUND && (!same_gaps || k == 0);
                    (r.clone(), *t, kept.then(|| b.clone()))
                })
                .collect();
            assert_eq!(read, expected);
            for (k, (_, t, _)) in pushed.iter().enumerate() {
                assert_eq!(u.at(*t).map(|s| s.text_offset), Some(*t));
                assert_eq!(u.at(*t + 1), None);
                assert_eq!(u.last_before(*t + 1).map(|s| s.text_offset), Some(*t));
                let before = k.checked_sub(1).map(|j| pushed[j].1);
                assert_eq!(u.last_before(*t).map(|s| s.text_offset), before);
            }
            assert_eq!(
                u.last_before(usize::MAX).map(|s| s.text_offset),
                Some(text - 3)
            );
        }
    }

    #[test]
    fn entry_bytes_are_what_a_push_writes() {
        for same_gaps in [true, false] {
            let cases = [
                (0, 1),
                (30, 6),
                (31, 7),
                (127, 3),
                (128, 2),
                (20_000, 1),
                (3_000_000, 9),
            ];
            for (gap, len) in cases {
                let mut u = Undecodable::new(same_gaps, 0);
                for index in 0..2 {
                    let before = u.entries.len();
                    let (text, file) = (u.end.text_end + gap, u.end.file_end + gap + 5);
                    u.push(file, &vec![0xFF; len], text);
                    assert_eq!(
                        u.entries.len() - before,
                        Undecodable::entry_bytes(same_gaps, index, gap, gap + 5, len),
                        "{same_gaps} {gap} {len} {index}"
                    );
                }
            }
        }
    }

    #[test]
    fn none() {
        let u = Undecodable::default();
        assert!(u.is_empty());
        assert_eq!(u.first(), None);
        assert_eq!(u.at(0), None);
        assert_eq!(u.last_before(100), None);
    }
}
