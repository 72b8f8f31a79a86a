//! Records of varying length put aside in an anonymous temporary file: sorted by a key that
//! starts each record, in runs of a budget each, and read back merged in the order of their
//! keys ([`Sorter`]); or appended in the order they are read back in, a range at a time
//! ([`Kept`]). What `equivalent-variants` holds of its places and findings does not grow with
//! their number, only the budget does. Where no temporary file can be made or written, the
//! records stay in memory and the run goes on.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufWriter, Write};

/// Bytes a record held in memory costs besides its own: its box's pointer and length, and the
/// allocator's rounding.
const HELD_OVERHEAD: usize = 32;

/// Records of a sorted run read from the temporary file at least this many bytes at a time.
const READ_BYTES: usize = 16 << 10;

/// Records sorted by their first `key_len` bytes (compared as bytes: a key's numbers are
/// written big-endian), records of equal keys in the order they were added.
pub struct Sorter {
    key_len: usize,
    held: Vec<Box<[u8]>>,
    /// What `held` costs, counted as records are added.
    held_bytes: usize,
    /// How many bytes are held before they are sorted and put aside.
    budget: usize,
    spill: Option<BufWriter<File>>,
    /// Each sorted run put aside: its start and its length, in bytes.
    runs: Vec<(u64, u64)>,
    written: u64,
    /// The temporary file could not be made or written: the records stay in memory.
    in_memory: bool,
}

impl Sorter {
    /// Records keyed by their first `key_len` bytes, put aside in sorted runs once about
    /// `budget` bytes of them are held.
    pub fn new(key_len: usize, budget: usize) -> Sorter {
        Sorter {
            key_len,
            held: Vec::new(),
            held_bytes: 0,
            budget: budget.max(1),
            spill: None,
            runs: Vec::new(),
            written: 0,
            in_memory: false,
        }
    }

    /// Adds one record (at least its key long).
    pub fn push(&mut self, record: Vec<u8>) {
        debug_assert!(record.len() >= self.key_len);
        self.held_bytes += record.len() + HELD_OVERHEAD;
        self.held.push(record.into_boxed_slice());
        if self.held_bytes >= self.budget && !self.in_memory && self.put_aside().is_err() {
            self.in_memory = true;
        }
    }

    /// How many sorted runs were put aside.
    #[cfg(test)]
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    fn sort_held(&mut self) {
        let k = self.key_len;
        // Stable: records of one key stay in the order they came in.
        self.held.sort_by(|a, b| a[..k].cmp(&b[..k]));
    }

    fn put_aside(&mut self) -> io::Result<()> {
        self.sort_held();
        if self.spill.is_none() {
            self.spill = Some(BufWriter::new(tempfile::tempfile()?));
        }
        let out = self.spill.as_mut().ok_or(io::ErrorKind::Other)?;
        let mut n = 0u64;
        for r in &self.held {
            out.write_all(&(r.len() as u64).to_le_bytes())?;
            out.write_all(r)?;
            n += 8 + r.len() as u64;
        }
        // Written through before the run counts: a run that failed to be written stays held.
        out.flush()?;
        self.runs.push((self.written, n));
        self.written += n;
        self.held = Vec::new();
        self.held_bytes = 0;
        Ok(())
    }

    /// Every record added, in the order of their keys.
    pub fn merged(mut self) -> io::Result<Merged> {
        self.sort_held();
        let file = match self.spill.take() {
            Some(spill) => Some(spill.into_inner().map_err(io::IntoInnerError::into_error)?),
            None => None,
        };
        let mut merged = Merged {
            key_len: self.key_len,
            file,
            runs: self
                .runs
                .iter()
                .map(|&(start, len)| Run {
                    next: start,
                    end: start + len,
                    buffer: Vec::new(),
                    at: 0,
                })
                .collect(),
            held: std::mem::take(&mut self.held).into_iter(),
            heap: BinaryHeap::new(),
        };
        for k in 0..=merged.runs.len() {
            merged.refill(k)?;
        }
        Ok(merged)
    }
}

/// The records of a [`Sorter`], read back in the order of their keys.
pub struct Merged {
    key_len: usize,
    file: Option<File>,
    runs: Vec<Run>,
    /// The records that were still held, sorted: the source after the runs.
    held: std::vec::IntoIter<Box<[u8]>>,
    /// The next record of each source.
    heap: BinaryHeap<Reverse<Head>>,
}

/// The next record of one source, ordered by its key and then by its source (the earlier run
/// first: records of equal keys come out in the order they were added).
struct Head {
    key_len: usize,
    record: Box<[u8]>,
    source: usize,
}

impl Ord for Head {
    fn cmp(&self, other: &Head) -> Ordering {
        self.record[..self.key_len]
            .cmp(&other.record[..other.key_len])
            .then(self.source.cmp(&other.source))
    }
}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Head) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Head {
    fn eq(&self, other: &Head) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Head {}

impl Merged {
    /// The next record's key, without taking it.
    pub fn peek_key(&self) -> Option<&[u8]> {
        self.heap.peek().map(|Reverse(h)| &h.record[..h.key_len])
    }

    /// The next record.
    pub fn next_record(&mut self) -> io::Result<Option<Box<[u8]>>> {
        let Some(Reverse(head)) = self.heap.pop() else {
            return Ok(None);
        };
        self.refill(head.source)?;
        Ok(Some(head.record))
    }

    /// Puts the next record of source `k` (the runs, then what was held) on the heap.
    fn refill(&mut self, k: usize) -> io::Result<()> {
        let record = match (self.runs.get_mut(k), &self.file) {
            (Some(run), Some(file)) => run.next(file)?,
            (Some(_), None) => None,
            (None, _) => self.held.next(),
        };
        if let Some(record) = record {
            if record.len() < self.key_len {
                return Err(io::ErrorKind::InvalidData.into());
            }
            self.heap.push(Reverse(Head {
                key_len: self.key_len,
                record,
                source: k,
            }));
        }
        Ok(())
    }
}

/// One sorted run being read back.
pub struct Run {
    /// The next byte to read from the file, and the run's end.
    next: u64,
    end: u64,
    buffer: Vec<u8>,
    at: usize,
}

impl Run {
    fn next(&mut self, file: &File) -> io::Result<Option<Box<[u8]>>> {
        if self.at == self.buffer.len() && self.next >= self.end {
            return Ok(None);
        }
        self.ensure(file, 8)?;
        let len: [u8; 8] = self.buffer[self.at..self.at + 8]
            .try_into()
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidData))?;
        let len = usize::try_from(u64::from_le_bytes(len))
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidData))?;
        self.at += 8;
        self.ensure(file, len)?;
        let record = self.buffer[self.at..self.at + len].into();
        self.at += len;
        Ok(Some(record))
    }

    /// At least `n` bytes are in the buffer past `at`, or the run is damaged.
    fn ensure(&mut self, file: &File, n: usize) -> io::Result<()> {
        let have = self.buffer.len() - self.at;
        if have >= n {
            return Ok(());
        }
        self.buffer.drain(..self.at);
        self.at = 0;
        let left = self.end - self.next;
        let want = (n - have).max(READ_BYTES) as u64;
        let read = usize::try_from(want.min(left))
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidData))?;
        if have + read < n {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        self.buffer.resize(have + read, 0);
        read_at(file, &mut self.buffer[have..], self.next)?;
        self.next += read as u64;
        Ok(())
    }
}

/// Records appended one after another, each later read back as a range of them
/// ([`Kept::read`]).
pub struct Keeping {
    out: Result<BufWriter<File>, Vec<u8>>,
    len: u64,
}

impl Default for Keeping {
    fn default() -> Keeping {
        Keeping::new()
    }
}

impl Keeping {
    /// An empty one, in a temporary file when one can be made.
    pub fn new() -> Keeping {
        Keeping {
            out: tempfile::tempfile()
                .map(BufWriter::new)
                .map_err(|_| Vec::new()),
            len: 0,
        }
    }

    /// Where the next record starts.
    pub fn position(&self) -> u64 {
        self.len
    }

    /// Appends the bytes of one record; its length is kept with it.
    pub fn push(&mut self, record: &[u8]) -> io::Result<()> {
        let len = (record.len() as u64).to_le_bytes();
        match &mut self.out {
            Ok(out) => {
                out.write_all(&len)?;
                out.write_all(record)?;
            }
            Err(memory) => {
                memory.extend_from_slice(&len);
                memory.extend_from_slice(record);
            }
        }
        self.len += 8 + record.len() as u64;
        Ok(())
    }

    /// What was appended, to be read back.
    pub fn finish(self) -> io::Result<Kept> {
        match self.out {
            Ok(out) => Ok(Kept::File(
                out.into_inner().map_err(io::IntoInnerError::into_error)?,
            )),
            Err(memory) => Ok(Kept::Memory(memory)),
        }
    }
}

/// Records appended by a [`Keeping`], read back a range at a time (from any thread).
#[derive(Debug)]
pub enum Kept {
    /// In an anonymous temporary file.
    File(File),
    /// In memory, where no temporary file could be made.
    Memory(Vec<u8>),
}

impl Kept {
    /// Hands each record of the `len` bytes from `start` to `f`, one at a time.
    pub fn each(
        &self,
        start: u64,
        len: u64,
        f: &mut dyn FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut records = self.reader(start, len)?;
        while let Some(record) = records.next_record()? {
            f(&record)?;
        }
        Ok(())
    }

    /// The records of the `len` bytes from `start`, read one at a time as they are asked for
    /// (from any thread: each reader keeps its own place).
    pub fn reader(&self, start: u64, len: u64) -> io::Result<KeptReader<'_>> {
        let bad = || io::Error::from(io::ErrorKind::InvalidData);
        Ok(match self {
            Kept::File(file) => KeptReader::File(
                file,
                Run {
                    next: start,
                    end: start.checked_add(len).ok_or_else(bad)?,
                    buffer: Vec::new(),
                    at: 0,
                },
            ),
            Kept::Memory(memory) => {
                let start = usize::try_from(start).map_err(|_| bad())?;
                let n = usize::try_from(len).map_err(|_| bad())?;
                KeptReader::Memory(
                    memory
                        .get(start..start.checked_add(n).ok_or_else(bad)?)
                        .ok_or_else(bad)?,
                )
            }
        })
    }
}

/// A range of the records a [`Kept`] holds, read one at a time ([`Kept::reader`]).
pub enum KeptReader<'k> {
    /// From its temporary file.
    File(&'k File, Run),
    /// From memory: what is left of the range.
    Memory(&'k [u8]),
}

impl KeptReader<'_> {
    /// The next record, `None` past the range's end.
    pub fn next_record(&mut self) -> io::Result<Option<Box<[u8]>>> {
        let bad = || io::Error::from(io::ErrorKind::InvalidData);
        match self {
            KeptReader::File(file, run) => run.next(file),
            KeptReader::Memory(rest) => {
                if rest.is_empty() {
                    return Ok(None);
                }
                let (len, tail) = rest.split_first_chunk::<8>().ok_or_else(bad)?;
                let len = usize::try_from(u64::from_le_bytes(*len)).map_err(|_| bad())?;
                let record = tail.get(..len).ok_or_else(bad)?;
                *rest = &tail[len..];
                Ok(Some(record.into()))
            }
        }
    }
}

/// Reads exactly `buffer.len()` bytes of `file` from `offset`, without moving a cursor: each
/// run keeps its own place, and threads read at once.
#[cfg(unix)]
pub fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buffer, offset)
}

/// Reads exactly `buffer.len()` bytes of `file` from `offset`, without moving a cursor: each
/// run keeps its own place, and threads read at once.
#[cfg(windows)]
pub fn read_at(file: &File, mut buffer: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buffer.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buffer, offset)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buffer = &mut buffer[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// Writes the numbers and strings of a record.
#[derive(Debug, Default)]
pub struct Out(pub Vec<u8>);

impl Out {
    /// A number, big-endian (so that keys compare as numbers).
    pub fn u32(&mut self, n: u32) -> &mut Out {
        self.0.extend_from_slice(&n.to_be_bytes());
        self
    }

    /// A number, big-endian.
    pub fn u64(&mut self, n: u64) -> &mut Out {
        self.0.extend_from_slice(&n.to_be_bytes());
        self
    }

    /// A number, big-endian.
    pub fn u128(&mut self, n: u128) -> &mut Out {
        self.0.extend_from_slice(&n.to_be_bytes());
        self
    }

    /// A byte.
    pub fn u8(&mut self, n: u8) -> &mut Out {
        self.0.push(n);
        self
    }

    /// Bytes, after their length.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Out {
        self.u64(b.len() as u64);
        self.0.extend_from_slice(b);
        self
    }

    /// A string, after its length.
    pub fn str(&mut self, s: &str) -> &mut Out {
        self.bytes(s.as_bytes())
    }
}

/// Reads the numbers and strings of a record as [`Out`] wrote them; `None` past its end.
#[derive(Debug)]
pub struct In<'a>(pub &'a [u8]);

impl<'a> In<'a> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }

    /// A number.
    pub fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_be_bytes)
    }

    /// A number.
    pub fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_be_bytes)
    }

    /// A number.
    pub fn u128(&mut self) -> Option<u128> {
        self.take().map(u128::from_be_bytes)
    }

    /// A byte.
    pub fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|[b]| b)
    }

    /// Bytes.
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.u64()?).ok()?;
        if len > self.0.len() {
            return None;
        }
        let (b, rest) = self.0.split_at(len);
        self.0 = rest;
        Some(b)
    }

    /// A string.
    pub fn str(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes()?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_put_aside_merge_in_key_order_and_keep_the_order_of_equal_keys() {
        // Records of varying length, keys out of order, some equal, one longer than a read.
        let records: Vec<Vec<u8>> = (0..2_000u32)
            .map(|i| {
                let mut out = Out::default();
                out.u32((i * 7919) % 300).u32(i);
                let len = if i == 777 {
                    READ_BYTES * 3
                } else {
                    (i % 50) as usize
                };
                out.0.extend(std::iter::repeat_n(b'x', len));
                out.0
            })
            .collect();
        let sorted = |budget: usize| {
            let mut sorter = Sorter::new(4, budget);
            for r in &records {
                sorter.push(r.clone());
            }
            let runs = sorter.runs();
            let mut merged = sorter.merged().unwrap();
            let mut out = Vec::new();
            while let Some(r) = merged.next_record().unwrap() {
                out.push(r.to_vec());
            }
            (runs, out)
        };
        let (none, held) = sorted(usize::MAX);
        assert_eq!(none, 0);
        let mut expected = records.clone();
        expected.sort_by(|a, b| a[..4].cmp(&b[..4]));
        assert_eq!(held, expected);
        for budget in [1, 100, 5_000] {
            let (runs, aside) = sorted(budget);
            assert!(runs > 1, "{budget}: {runs}");
            assert!(aside == expected, "put aside every {budget} bytes");
        }
    }

    #[test]
    fn kept_records_are_read_back_by_range() {
        let mut keeping = Keeping::new();
        let mut ranges = Vec::new();
        for i in 0..100usize {
            let start = keeping.position();
            for j in 0..i % 4 {
                keeping.push(format!("{i}-{j}").as_bytes()).unwrap();
            }
            ranges.push((start, keeping.position() - start));
        }
        let kept = keeping.finish().unwrap();
        let read = |start: u64, len: u64| {
            let mut records = Vec::new();
            kept.each(start, len, &mut |r| {
                records.push(r.to_vec());
                Ok(())
            })
            .map(|()| records)
        };
        for (i, &(start, len)) in ranges.iter().enumerate() {
            let expected: Vec<Vec<u8>> = (0..i % 4)
                .map(|j| format!("{i}-{j}").into_bytes())
                .collect();
            assert_eq!(read(start, len).unwrap(), expected);
        }
        assert!(read(0, 3).is_err(), "a range that cuts a record");
        assert!(read(u64::MAX, 8).is_err(), "a range past the end");
        // Where no temporary file can be made, the same in memory.
        let mut memory = Keeping {
            out: Err(Vec::new()),
            len: 0,
        };
        memory.push(b"one").unwrap();
        memory.push(b"").unwrap();
        let kept = memory.finish().unwrap();
        assert!(matches!(kept, Kept::Memory(_)));
        let mut records = Vec::new();
        kept.each(0, 19, &mut |r| {
            records.push(r.to_vec());
            Ok(())
        })
        .unwrap();
        assert_eq!(records, [b"one".to_vec(), Vec::new()]);
        assert!(kept.each(0, 20, &mut |_| Ok(())).is_err());
    }

    #[test]
    fn reading_past_a_record_is_none_not_a_panic() {
        let mut out = Out::default();
        out.u32(7).str("abc");
        let mut r = In(&out.0);
        assert_eq!((r.u32(), r.str(), r.u8()), (Some(7), Some("abc"), None));
        let mut cut = In(&out.0[..9]);
        assert_eq!((cut.u32(), cut.str()), (Some(7), None));
    }
}
