//! The records `equivalent-variants` keeps of a run's absolute IRIs: fixed-size numbers, never
//! the IRIs' text, sorted in runs put aside in an anonymous temporary file once an in-memory
//! budget is full, and merged at the end into one plan per resource written more than one way.
//! What the run holds grows with the resources reported, not with the IRIs read.

use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufWriter, Write};

/// One absolute IRI of the run: keyed hashes of its normal form and of its spelling, and where
/// it is (the file's number in report order, the IRI's among the file's records). Ordered as
/// the merge needs: by resource, spelling, then place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Record {
    /// Keyed 128-bit hash of the normal form (the resource).
    pub key: u128,
    /// Keyed hash of the spelling; 0 when the spelling is the normal form itself.
    pub spelling: u64,
    /// The file's number, in report order.
    pub file: u32,
    /// The IRI's number among the file's records.
    pub index: u32,
}

/// Bytes of a record put aside.
const RECORD_BYTES: usize = 32;

impl Record {
    fn to_bytes(self) -> [u8; RECORD_BYTES] {
        let mut b = [0; RECORD_BYTES];
        b[..16].copy_from_slice(&self.key.to_le_bytes());
        b[16..24].copy_from_slice(&self.spelling.to_le_bytes());
        b[24..28].copy_from_slice(&self.file.to_le_bytes());
        b[28..].copy_from_slice(&self.index.to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8; RECORD_BYTES]) -> Record {
        let (key, rest) = b.split_at(16);
        let (spelling, rest) = rest.split_at(8);
        let (file, index) = rest.split_at(4);
        Record {
            key: u128::from_le_bytes(key.try_into().unwrap_or_default()),
            spelling: u64::from_le_bytes(spelling.try_into().unwrap_or_default()),
            file: u32::from_le_bytes(file.try_into().unwrap_or_default()),
            index: u32::from_le_bytes(index.try_into().unwrap_or_default()),
        }
    }

    /// Where it is.
    pub fn place(&self) -> Place {
        Place {
            file: self.file,
            index: self.index,
            spelling: self.spelling,
        }
    }
}

/// A place of a resource, with its spelling's hash (to tell, when the place is read again,
/// whether its file still holds the same IRI there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    /// The file's number, in report order.
    pub file: u32,
    /// The IRI's number among the file's records.
    pub index: u32,
    /// Keyed hash of its spelling (0: the normal form).
    pub spelling: u64,
}

/// What a resource written more than one way is reported with, its places still to be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Keyed hash of its normal form.
    pub key: u128,
    /// How many spellings.
    pub ways: usize,
    /// How many places.
    pub places: usize,
    /// Its first place, in report order.
    pub first: Place,
    /// The first place of each of its first four spellings, in order of appearance.
    pub named: Vec<Place>,
    /// The spelling to recommend: the first place written so, or `None` for the normal form
    /// where no place writes it.
    pub preferred: Option<Place>,
    /// How many places write the preferred spelling.
    pub already: usize,
    /// The place reported: the first one not written the preferred way.
    pub primary: Place,
    /// Its other places, the first [`Records::new`]'s `related` of them in report order.
    pub related: Vec<Place>,
}

impl Plan {
    /// Every place the report shows, the primary first.
    pub fn places(&self) -> impl Iterator<Item = Place> + '_ {
        std::iter::once(self.primary)
            .chain(self.named.iter().copied())
            .chain(self.preferred)
            .chain(self.related.iter().copied())
    }
}

/// The records of a run, as they are added.
pub struct Records {
    held: Vec<Record>,
    /// How many records are held before they are sorted and put aside.
    budget: usize,
    /// Where sorted runs are put aside, and each run's start and length in records.
    spill: Option<BufWriter<File>>,
    runs: Vec<(u64, u64)>,
    written: u64,
    /// The temporary file could not be made or written: the records stay in memory.
    in_memory: bool,
}

impl Records {
    /// Records that put their sorted runs aside once `budget` of them are held.
    pub fn new(budget: usize) -> Records {
        // Allocated at once: a buffer that doubles as it fills would hold up to twice its
        // records at the moment it grows.
        Records {
            held: Vec::with_capacity(budget.clamp(1, 1 << 17)),
            budget: budget.max(1),
            spill: None,
            runs: Vec::new(),
            written: 0,
            in_memory: false,
        }
    }

    /// Adds one record.
    pub fn push(&mut self, record: Record) {
        self.held.push(record);
        if self.held.len() >= self.budget && !self.in_memory && self.put_aside().is_err() {
            // No temporary file: the run goes on with its records in memory.
            self.in_memory = true;
        }
    }

    /// How many runs were put aside.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    fn put_aside(&mut self) -> io::Result<()> {
        self.held.sort_unstable();
        if self.spill.is_none() {
            self.spill = Some(BufWriter::new(tempfile::tempfile()?));
        }
        let out = self.spill.as_mut().ok_or(io::ErrorKind::Other)?;
        for r in &self.held {
            out.write_all(&r.to_bytes())?;
        }
        // Written through before the run counts: a run that failed to be written stays held.
        out.flush()?;
        let n = self.held.len() as u64;
        self.runs.push((self.written, n));
        self.written += n;
        self.held.clear();
        Ok(())
    }

    /// The plan of each resource written more than one way, in the order of their first places
    /// (the order in which the report meets them), with at most `related` other places each.
    pub fn plans(self, related: usize) -> io::Result<Vec<Plan>> {
        let mut plans = Vec::new();
        self.each_plan(related, |plan| plans.push(plan))?;
        plans.sort_unstable_by_key(|p| (p.first.file, p.first.index));
        Ok(plans)
    }

    /// Hands on the plan of each resource written more than one way as the merge ends its
    /// records (in the order of the resources' hashes), with at most `related` other places
    /// each: the plans are never held together.
    pub fn each_plan(mut self, related: usize, f: impl FnMut(Plan)) -> io::Result<()> {
        self.held.sort_unstable();
        let Some(spill) = self.spill.take() else {
            let held = std::mem::take(&mut self.held);
            scan(held.into_iter().map(Ok), related, f);
            return Ok(());
        };
        // Every run counted was flushed: what may be left in the buffer belongs to none.
        let (file, _) = spill.into_parts();
        let mut sources: Vec<Source> = self
            .runs
            .iter()
            .map(|&(start, len)| Source::Aside {
                file: &file,
                next: start,
                end: start + len,
                buffer: Vec::new(),
                at: 0,
            })
            .collect();
        let held = std::mem::take(&mut self.held);
        sources.push(Source::Held(held.into_iter()));
        let mut heap = BinaryHeap::new();
        for (k, s) in sources.iter_mut().enumerate() {
            if let Some(r) = s.next()? {
                heap.push(std::cmp::Reverse((r, k)));
            }
        }
        let merged = std::iter::from_fn(|| {
            let std::cmp::Reverse((r, k)) = heap.pop()?;
            match sources[k].next() {
                Ok(Some(next)) => heap.push(std::cmp::Reverse((next, k))),
                Ok(None) => {}
                Err(e) => return Some(Err(e)),
            }
            Some(Ok(r))
        });
        let mut failed = None;
        scan(
            merged.map_while(|r| match r {
                Ok(r) => Some(Ok(r)),
                Err(e) => {
                    failed = Some(e);
                    None
                }
            }),
            related,
            f,
        );
        match failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// How many hashes of a document's IRIs [`Hashes`] holds before it puts them aside: 96 KiB.
const HASHES_HELD: usize = 1 << 12;

/// Bytes of one IRI's hashes put aside.
const HASH_BYTES: usize = 24;

/// The hashes of one document's absolute IRIs (its normal form's and its spelling's, as in a
/// [`Record`]), in order, handed on as the document is checked: past a few thousand they are
/// put aside in an anonymous temporary file, so that a document of a million IRIs holds a
/// constant, not 200 bytes for each of them (its variants, before).
#[derive(Debug, Default)]
pub struct Hashes {
    held: Vec<(u128, u64)>,
    spill: Option<BufWriter<File>>,
    /// How many were put aside (written through): the first ones.
    aside: u64,
    /// The temporary file could not be made or written: the rest stay in memory.
    in_memory: bool,
}

impl Hashes {
    /// Adds the hashes of the next IRI.
    pub fn push(&mut self, key: u128, spelling: u64) {
        self.held.push((key, spelling));
        if self.held.len() >= HASHES_HELD && !self.in_memory && self.put_aside().is_err() {
            self.in_memory = true;
        }
    }

    /// How many IRIs.
    pub fn len(&self) -> usize {
        self.aside as usize + self.held.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// About how many bytes it holds in memory.
    pub fn held_bytes(&self) -> usize {
        self.held.capacity() * 32 + self.spill.as_ref().map_or(0, BufWriter::capacity)
    }

    fn put_aside(&mut self) -> io::Result<()> {
        if self.spill.is_none() {
            self.spill = Some(BufWriter::new(tempfile::tempfile()?));
        }
        let out = self.spill.as_mut().ok_or(io::ErrorKind::Other)?;
        for &(key, spelling) in &self.held {
            out.write_all(&key.to_le_bytes())?;
            out.write_all(&spelling.to_le_bytes())?;
        }
        // Written through before they count: what failed to be written stays held.
        out.flush()?;
        self.aside += self.held.len() as u64;
        self.held.clear();
        Ok(())
    }

    /// Hands each IRI's hashes to `f`, in order.
    pub fn each(self, mut f: impl FnMut(u128, u64)) -> io::Result<()> {
        if let Some(spill) = self.spill {
            let (file, _) = spill.into_parts();
            let mut buffer = vec![0; READ_RECORDS * HASH_BYTES];
            let mut next = 0u64;
            while next < self.aside {
                let n = (self.aside - next).min(READ_RECORDS as u64) as usize;
                let bytes = &mut buffer[..n * HASH_BYTES];
                super::aside::read_at(&file, bytes, next * HASH_BYTES as u64)?;
                for chunk in bytes.chunks_exact(HASH_BYTES) {
                    let (key, spelling) = chunk.split_at(16);
                    f(
                        u128::from_le_bytes(key.try_into().unwrap_or_default()),
                        u64::from_le_bytes(spelling.try_into().unwrap_or_default()),
                    );
                }
                next += n as u64;
            }
        }
        for (key, spelling) in self.held {
            f(key, spelling);
        }
        Ok(())
    }
}

/// Records read from the temporary file this many at a time per run.
const READ_RECORDS: usize = 256;

/// One sorted run of records being merged.
enum Source<'f> {
    Aside {
        file: &'f File,
        /// The next record to read, and the end of the run, in records.
        next: u64,
        end: u64,
        buffer: Vec<u8>,
        at: usize,
    },
    Held(std::vec::IntoIter<Record>),
}

impl Source<'_> {
    fn next(&mut self) -> io::Result<Option<Record>> {
        match self {
            Source::Held(records) => Ok(records.next()),
            Source::Aside {
                file,
                next,
                end,
                buffer,
                at,
            } => {
                if *at >= buffer.len() {
                    if next >= end {
                        return Ok(None);
                    }
                    let n = (*end - *next).min(READ_RECORDS as u64);
                    buffer.resize(n as usize * RECORD_BYTES, 0);
                    super::aside::read_at(file, buffer, *next * RECORD_BYTES as u64)?;
                    *next += n;
                    *at = 0;
                }
                let bytes: &[u8; RECORD_BYTES] = buffer[*at..*at + RECORD_BYTES]
                    .try_into()
                    .map_err(|_| io::Error::from(io::ErrorKind::InvalidData))?;
                let r = Record::from_bytes(bytes);
                *at += RECORD_BYTES;
                Ok(Some(r))
            }
        }
    }
}

/// One spelling's places in a resource, as the scan meets them: its first place and count.
#[derive(Debug, Clone, Copy)]
struct Spelling {
    first: Place,
    count: usize,
}

/// Hands on the plan of each resource of the sorted `records` (by resource, spelling, place)
/// written more than one way, as its records end.
fn scan(
    records: impl Iterator<Item = io::Result<Record>>,
    related: usize,
    mut f: impl FnMut(Plan),
) {
    let mut group: Option<Group> = None;
    for r in records.map_while(Result::ok) {
        match &mut group {
            Some(g) if g.key == r.key => g.add(r),
            _ => {
                if let Some(g) = group.take()
                    && let Some(plan) = g.plan()
                {
                    f(plan);
                }
                let mut g = Group::new(r.key, related);
                g.add(r);
                group = Some(g);
            }
        }
    }
    if let Some(plan) = group.and_then(Group::plan) {
        f(plan);
    }
}

/// One resource's records as the scan goes through them: a constant, whatever its places.
struct Group {
    key: u128,
    places: usize,
    ways: usize,
    /// The spelling whose places are being counted.
    current: Option<Spelling>,
    /// The four spellings that appear first (by first place), in that order.
    earliest: Vec<Spelling>,
    /// The normal form written as such.
    normal: Option<Spelling>,
    /// The spelling with the most places, and whether another has as many.
    most: Option<Spelling>,
    tie: bool,
    /// The first places of the resource, in report order: at most `related + 1`.
    first_places: BinaryHeap<Place>,
    /// How many other places a plan lists.
    related: usize,
}

impl Group {
    fn new(key: u128, related: usize) -> Group {
        Group {
            key,
            related,
            places: 0,
            ways: 0,
            current: None,
            earliest: Vec::new(),
            normal: None,
            most: None,
            tie: false,
            first_places: BinaryHeap::new(),
        }
    }

    fn add(&mut self, r: Record) {
        self.places += 1;
        let place = r.place();
        self.first_places.push(place);
        if self.first_places.len() > self.related + 1 {
            self.first_places.pop();
        }
        match &mut self.current {
            Some(s) if s.first.spelling == r.spelling => s.count += 1,
            _ => {
                self.end_spelling();
                self.current = Some(Spelling {
                    first: place,
                    count: 1,
                });
            }
        }
    }

    /// The spelling being counted has all its places.
    fn end_spelling(&mut self) {
        let Some(s) = self.current.take() else {
            return;
        };
        self.ways += 1;
        if s.first.spelling == 0 {
            self.normal = Some(s);
        }
        match &self.most {
            Some(m) if m.count > s.count => {}
            Some(m) if m.count == s.count => self.tie = true,
            _ => {
                self.most = Some(s);
                self.tie = false;
            }
        }
        let at = self
            .earliest
            .partition_point(|e| (e.first.file, e.first.index) < (s.first.file, s.first.index));
        if at < 4 {
            self.earliest.insert(at, s);
            self.earliest.truncate(4);
        }
    }

    fn plan(mut self) -> Option<Plan> {
        self.end_spelling();
        if self.ways < 2 {
            return None;
        }
        // As [`super::preferred`]: the normal form when written so, else the spelling of the
        // most places, else (a tie) the normal form.
        let preferred = match (self.normal, self.most) {
            (Some(n), _) => Some(n),
            (None, Some(m)) if !self.tie => Some(m),
            _ => None,
        };
        let preferred_hash = preferred.map_or(0, |p| p.first.spelling);
        let primary = self
            .earliest
            .iter()
            .find(|s| s.first.spelling != preferred_hash)
            .map_or(self.earliest[0].first, |s| s.first);
        let mut places = self.first_places.into_sorted_vec();
        places.sort_by_key(|p| (p.file, p.index));
        places.retain(|p| (p.file, p.index) != (primary.file, primary.index));
        places.truncate(self.related);
        Some(Plan {
            key: self.key,
            ways: self.ways,
            places: self.places,
            first: self.earliest[0].first,
            named: self.earliest.iter().map(|s| s.first).collect(),
            preferred: preferred.map(|p| p.first),
            already: preferred.map_or(0, |p| p.count),
            primary,
            related: places,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(key: u128, spelling: u64, file: u32, index: u32) -> Record {
        Record {
            key,
            spelling,
            file,
            index,
        }
    }

    #[test]
    fn runs_put_aside_merge_to_the_plans_of_records_held() {
        // Many resources, some written two ways, added out of order.
        let mut all = Vec::new();
        for i in 0..5_000u32 {
            let key = u128::from(i % 700) * 0x9E37_79B9_7F4A_7C15;
            let spelling = u64::from(i % 3 == 0 && i % 7 != 0);
            all.push(r(key, spelling, i / 100, i % 100));
        }
        let plans = |budget: usize| {
            let mut records = Records::new(budget);
            for &x in &all {
                records.push(x);
            }
            let runs = records.runs();
            let plans = records.plans(3).unwrap();
            (runs, plans)
        };
        let (none, held) = plans(usize::MAX);
        let (runs, aside) = plans(64);
        assert_eq!(none, 0);
        assert!(runs > 50, "{runs}");
        assert!(!held.is_empty());
        assert_eq!(held, aside);
        assert!(held.iter().all(|p| p.related.len() <= 3));
    }

    #[test]
    fn a_plan_names_the_first_spellings_and_prefers_the_most_written() {
        let mut records = Records::new(usize::MAX);
        // Spellings 5 (twice), 6 (three times), 7 (once); no normal form.
        for (spelling, file, index) in [(5, 0, 1), (6, 0, 2), (6, 1, 0), (7, 1, 1), (5, 2, 0)] {
            records.push(r(1, spelling, file, index));
        }
        records.push(r(1, 6, 3, 0));
        let plans = records.plans(10).unwrap();
        let [plan] = plans.as_slice() else {
            panic!("{plans:?}")
        };
        assert_eq!((plan.ways, plan.places, plan.already), (3, 6, 3));
        assert_eq!(plan.preferred.map(|p| p.spelling), Some(6));
        assert_eq!((plan.primary.file, plan.primary.index), (0, 1));
        let named: Vec<u64> = plan.named.iter().map(|p| p.spelling).collect();
        assert_eq!(named, [5, 6, 7]);
        let related: Vec<(u32, u32)> = plan.related.iter().map(|p| (p.file, p.index)).collect();
        assert_eq!(related, [(0, 2), (1, 0), (1, 1), (2, 0), (3, 0)]);
    }
}
