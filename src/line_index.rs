//! Offsets to lines and columns, built once per file.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r` (as editors and LSP count them). Columns count
//! Unicode scalar values; the UTF-16 column editors speak is kept alongside. The index holds a
//! sample every [`SAMPLE_EVERY`] bytes (which line holds that byte, and where it starts), not a
//! start per line: a file of a million empty lines held 8 MB of line starts (16 with the
//! vector's spare room), more than the file; its samples take 24 KB. A lookup is a binary search
//! plus a scan of at most [`SAMPLE_EVERY`] bytes for line ends (a kilobyte: with four, the scans
//! were 8 % of a report of 20,000 findings on short lines), even on a 10 MB single-line
//! file, where long stretches of a line get column checkpoints too (built lazily, the first time
//! a column that far into a line is asked for).

use std::sync::{Mutex, OnceLock};

/// Where a column count restarts: every `CHECKPOINT_EVERY` bytes of text.
const CHECKPOINT_EVERY: usize = 4096;

/// Where the line count is sampled: every `SAMPLE_EVERY` bytes of text.
const SAMPLE_EVERY: usize = 1024;

/// A position in a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in Unicode scalar values.
    pub column: usize,
    /// 1-based column in UTF-16 code units (what LSP clients count).
    pub column_utf16: usize,
}

#[derive(Debug, Clone, Copy)]
struct Checkpoint {
    offset: usize,
    line_start: usize,
    chars: usize,
    utf16: usize,
}

/// The line that holds byte `offset`, and where that line starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sample {
    offset: usize,
    line: usize,
    line_start: usize,
}

/// Lines of one text.
#[derive(Debug, Default)]
pub struct LineIndex {
    /// At 0 and every [`SAMPLE_EVERY`] bytes up to the end of the text.
    samples: Vec<Sample>,
    lines: usize,
    checkpoints: OnceLock<Vec<Checkpoint>>,
    /// The place located last: findings are located in order, a few bytes apart, and a scan
    /// from there instead of from the sample before (up to a kilobyte of short lines) was most
    /// of locating them (20,000 look-alike hosts: 63 M instructions of 1,190 M). A lock, not a
    /// cell, so that the index can be shared; a lookup that finds it taken does without.
    last: Mutex<Option<Sample>>,
}

/// The offsets in `b[from..to]` where a line ends (its terminator's last byte): a `\n`, or a
/// `\r` not followed by `\n` (in `b`, which may go on past `to`).
fn line_ends(b: &[u8], from: usize, to: usize) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr2_iter(b'\n', b'\r', &b[from..to])
        .map(move |i| from + i)
        .filter(move |&i| b[i] == b'\n' || b.get(i + 1) != Some(&b'\n'))
}

impl LineIndex {
    /// Indexes the lines of `text`.
    pub fn new(text: &str) -> LineIndex {
        let b = text.as_bytes();
        let mut samples = Vec::with_capacity(b.len() / SAMPLE_EVERY + 1);
        let (mut line, mut line_start, mut next) = (0, 0, 0);
        // memchr2, not a byte loop: the whole of every file with a finding is indexed.
        for i in line_ends(b, 0, b.len()) {
            while next <= i {
                samples.push(Sample {
                    offset: next,
                    line,
                    line_start,
                });
                next += SAMPLE_EVERY;
            }
            line += 1;
            line_start = i + 1;
        }
        while next <= b.len() {
            samples.push(Sample {
                offset: next,
                line,
                line_start,
            });
            next += SAMPLE_EVERY;
        }
        LineIndex {
            samples,
            lines: line + 1,
            checkpoints: OnceLock::new(),
            last: Mutex::new(None),
        }
    }

    /// Number of lines (an empty text has one).
    pub fn len(&self) -> usize {
        self.lines
    }

    /// Always false: every text has at least one line.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// 0-based index of the line of `text` containing `offset`, and where that line starts.
    fn locate(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let k = self.samples.partition_point(|s| s.offset <= offset);
        let Some(s) = k.checked_sub(1).map(|k| self.samples[k]) else {
            return (0, 0);
        };
        // From the place located last when it lies between the sample and `offset`: the line
        // ends before it are counted in its line already.
        let last = self.last.try_lock().ok().and_then(|l| *l);
        let from = match last {
            Some(l) if s.offset <= l.offset && l.offset <= offset => l,
            _ => s,
        };
        let (line, line_start) = line_ends(text.as_bytes(), from.offset, offset)
            .fold((from.line, from.line_start), |(line, _), i| {
                (line + 1, i + 1)
            });
        if let Ok(mut l) = self.last.try_lock() {
            *l = Some(Sample {
                offset,
                line,
                line_start,
            });
        }
        (line, line_start)
    }

    /// 0-based index of the line of `text` containing `offset`.
    pub fn line_of(&self, text: &str, offset: usize) -> usize {
        self.locate(text, offset).0
    }

    /// Where line `line` (0-based) of `text` starts; the end of the text past its last line.
    fn line_start(&self, text: &str, line: usize) -> usize {
        if line >= self.lines {
            return text.len();
        }
        let k = self.samples.partition_point(|s| s.line < line);
        if let Some(s) = self.samples.get(k)
            && s.line == line
        {
            return s.line_start;
        }
        // The line starts after sample k - 1 (whose line is before it) and before sample k.
        let s = self.samples[k - 1];
        let to = self.samples.get(k).map_or(text.len(), |s| s.offset);
        line_ends(text.as_bytes(), s.offset, to)
            .nth(line - s.line - 1)
            .map_or(text.len(), |i| i + 1)
    }

    /// Byte range of line `line` (0-based) without its line terminator.
    pub fn line_range(&self, text: &str, line: usize) -> std::ops::Range<usize> {
        let start = self.line_start(text, line);
        let mut end = if line + 1 < self.lines {
            self.line_start(text, line + 1)
        } else {
            text.len()
        };
        let b = text.as_bytes();
        if end > start && b[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && b[end - 1] == b'\r' {
            end -= 1;
        }
        start..end
    }

    /// The position of byte `offset` of `text` (clamped to the text, moved back to a char boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let (line, line_start) = self.locate(text, offset);
        let (from, mut chars, mut utf16) = if offset - line_start > CHECKPOINT_EVERY {
            let cps = self.checkpoints.get_or_init(|| build_checkpoints(text));
            let k = cps.partition_point(|c| c.offset <= offset);
            match k.checked_sub(1).map(|k| cps[k]) {
                Some(c) if c.line_start == line_start => (c.offset, c.chars, c.utf16),
                _ => (line_start, 0, 0),
            }
        } else {
            (line_start, 0, 0)
        };
        for c in text[from..offset].chars() {
            chars += 1;
            utf16 += c.len_utf16();
        }
        Position {
            line: line + 1,
            column: chars + 1,
            column_utf16: utf16 + 1,
        }
    }
}

fn build_checkpoints(text: &str) -> Vec<Checkpoint> {
    let mut out = Vec::with_capacity(text.len() / CHECKPOINT_EVERY + 1);
    let (mut line_start, mut chars, mut utf16) = (0, 0, 0);
    let mut next = CHECKPOINT_EVERY;
    let b = text.as_bytes();
    for (i, c) in text.char_indices() {
        if i >= next {
            out.push(Checkpoint {
                offset: i,
                line_start,
                chars,
                utf16,
            });
            next = i + CHECKPOINT_EVERY;
        }
        let ends_line = c == '\n' || (c == '\r' && b.get(i + 1) != Some(&b'\n'));
        if ends_line {
            line_start = i + 1;
            chars = 0;
            utf16 = 0;
        } else {
            chars += 1;
            utf16 += c.len_utf16();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str, offset: usize) -> (usize, usize, usize) {
        let p = LineIndex::new(text).position(text, offset);
        (p.line, p.column, p.column_utf16)
    }

    fn byte_loop(b: &[u8]) -> Vec<usize> {
        let mut starts = vec![0];
        for i in 0..b.len() {
            match b[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if b.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
        }
        starts
    }

    #[test]
    fn a_lookup_from_the_last_place_answers_as_a_fresh_index() {
        // Short lines of every ending, `\r\n` split between two lookups, several kilobytes:
        // offsets asked forward (from the last place), backward, twice, and across samples.
        let mut t = String::new();
        for i in 0..900 {
            t.push_str(["ab\n", "c\r\n", "\r", "\u{E9}\u{1F600}x\n", "", "\r\n\n"][i % 6]);
        }
        let shared = LineIndex::new(&t);
        let mut offsets: Vec<usize> = (0..=t.len()).step_by(7).collect();
        offsets.extend((0..=t.len()).rev().step_by(331));
        offsets.extend([0, 0, t.len(), 5, 4, 3, 2, 1, 1024, 1023, 1025, 2048, 2047]);
        for &o in &offsets {
            let fresh = || LineIndex::new(&t);
            assert_eq!(shared.position(&t, o), fresh().position(&t, o), "at {o}");
            assert_eq!(shared.line_of(&t, o), fresh().line_of(&t, o), "at {o}");
        }
    }

    #[test]
    fn lines_and_columns() {
        let t = "ab\ncd\r\nef\rgh";
        assert_eq!(pos(t, 0), (1, 1, 1));
        assert_eq!(pos(t, 4), (2, 2, 2));
        assert_eq!(pos(t, 7), (3, 1, 1));
        assert_eq!(pos(t, 10), (4, 1, 1));
        assert_eq!(pos(t, 12), (4, 3, 3));
        let idx = LineIndex::new(t);
        assert_eq!(idx.len(), 4);
        assert_eq!(&t[idx.line_range(t, 1)], "cd");
        assert_eq!(&t[idx.line_range(t, 2)], "ef");
    }

    #[test]
    fn line_starts_agree_with_a_byte_loop() {
        // Every text of up to 7 characters from `a`, CR and LF.
        let mut texts = vec![String::new()];
        for _ in 0..7 {
            let longer: Vec<String> = texts
                .iter()
                .filter(|t| t.len() == texts.last().unwrap().len())
                .flat_map(|t| ['a', '\r', '\n'].map(|c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        assert_eq!(texts.len(), (0..=7).map(|n| 3usize.pow(n)).sum::<usize>());
        for t in &texts {
            let index = LineIndex::new(t);
            let starts = byte_loop(t.as_bytes());
            assert_eq!(index.len(), starts.len(), "{t:?}");
            for (line, &start) in starts.iter().enumerate() {
                assert_eq!(index.line_start(t, line), start, "{t:?} line {line}");
            }
            for offset in 0..=t.len() {
                let line = starts.partition_point(|&s| s <= offset) - 1;
                assert_eq!(index.line_of(t, offset), line, "{t:?} at {offset}");
            }
        }
    }

    #[test]
    fn lines_across_many_samples_agree_with_a_byte_loop() {
        // 60 KB of lines of every length from 0 to 5,000 bytes, ended by LF, CR LF or CR,
        // a CR LF split by a sample boundary included.
        let mut t = String::new();
        for i in 0..200usize {
            t.push_str(&"a".repeat((i * 7919) % 5000 * usize::from(i % 3 != 0)));
            if t.len() % SAMPLE_EVERY == SAMPLE_EVERY - 1 {
                t.push_str("\r\n");
            } else {
                t.push_str(["\n", "\r\n", "\r"][i % 3]);
            }
        }
        t.push_str("\r\n");
        let starts = byte_loop(t.as_bytes());
        assert!(starts.len() > 100 && t.len() > 50 * SAMPLE_EVERY);
        let index = LineIndex::new(&t);
        assert_eq!(index.len(), starts.len());
        for (line, &start) in starts.iter().enumerate() {
            assert_eq!(index.line_start(&t, line), start, "line {line}");
        }
        for offset in (0..=t.len()).step_by(13).chain([t.len() - 1]) {
            let line = starts.partition_point(|&s| s <= offset) - 1;
            assert_eq!(index.line_of(&t, offset), line, "at {offset}");
        }
        // What the index holds grows with the text's size, not its number of lines.
        let empty_lines = "\n".repeat(1_000_000);
        let index = LineIndex::new(&empty_lines);
        assert_eq!(index.len(), 1_000_001);
        assert!(index.samples.capacity() <= 1_000_000 / SAMPLE_EVERY + 1);
        assert_eq!(index.line_of(&empty_lines, 999_999), 999_999);
        assert_eq!(index.line_range(&empty_lines, 500_000), 500_000..500_000);
    }

    #[test]
    fn columns_count_scalar_values_and_utf16() {
        let t = "日本語 𝕏 é";
        let x = t.find('𝕏').unwrap();
        assert_eq!(pos(t, x), (1, 5, 5));
        let e = t.find('é').unwrap();
        assert_eq!(pos(t, e), (1, 7, 8));
    }

    #[test]
    fn checkpoints_agree_with_a_plain_count() {
        let mut t = String::new();
        for i in 0..5000 {
            t.push_str(if i % 7 == 0 { "é𝕏" } else { "ab" });
            if i % 1500 == 0 {
                t.push('\n');
            }
        }
        let idx = LineIndex::new(&t);
        for off in (0..t.len()).step_by(997) {
            let p = idx.position(&t, off);
            let off = (0..=off).rev().find(|&o| t.is_char_boundary(o)).unwrap();
            let line_start = t[..off].rfind('\n').map_or(0, |i| i + 1);
            let chars = t[line_start..off].chars().count();
            let u16s: usize = t[line_start..off].chars().map(char::len_utf16).sum();
            assert_eq!(
                (p.column, p.column_utf16),
                (chars + 1, u16s + 1),
                "offset {off}"
            );
        }
    }
}
