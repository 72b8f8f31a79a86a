//! The findings of `equivalent-variants` made from its plans without holding them together: each
//! plan's places to read again are put aside sorted by the file they are in ([`Planned`]), each
//! place read again is put aside sorted by the plan it belongs to ([`Reading`]), and each plan
//! with all its places is kept in a temporary file with the plans of the same file, read back
//! file by file when its file is reported ([`Findings`]). A project where every resource is
//! written two ways held a finding of about 1.7 KB for each until its file was reported.

use std::collections::{BTreeSet, HashMap};
use std::io;
use std::sync::Mutex;

use super::aside::{In, Keeping, Kept, KeptReader, Out, Sorter};
use super::{Keys, Parts, Place, Plan, Shown, Variant, diagnostic};
use crate::diagnostic::{Diagnostic, Location};
use crate::rules::Severity;

/// A place wanted: its file and its number there.
const WANTED_KEY: usize = 8;
/// A plan: the file it is reported in, then its first place (the order the report meets it).
const PLAN_KEY: usize = 12;
/// A place read again: its plan's key, then its slot in the plan ([`Plan::places`]'s order).
const RESOLVED_KEY: usize = 16;

/// A plan's number: its first place, unique to it (a place is of one resource), and in the
/// order the report meets the plans.
fn plan_id(first: Place) -> u64 {
    (u64::from(first.file) << 32) | u64::from(first.index)
}

fn severity_byte(severity: Severity) -> u8 {
    match severity {
        Severity::Info => 0,
        Severity::Warning => 1,
        Severity::Error => 2,
    }
}

fn severity_of(byte: u8) -> Option<Severity> {
    match byte {
        0 => Some(Severity::Info),
        1 => Some(Severity::Warning),
        2 => Some(Severity::Error),
        _ => None,
    }
}

fn invalid() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "a record put aside was read back damaged",
    )
}

/// The plans of a run as they are made, put aside.
pub struct Planned {
    /// Each place to read again: by (file, index), with its plan's key and its slot.
    wanted: Sorter,
    /// Each plan's counts: by the file it is reported in, then by its first place.
    plans: Sorter,
    /// The files that hold a place to read again.
    files: BTreeSet<u32>,
    budget: usize,
}

impl Planned {
    /// Plans put aside once about `budget` bytes of each kind are held.
    pub fn new(budget: usize) -> Planned {
        Planned {
            wanted: Sorter::new(WANTED_KEY, budget),
            plans: Sorter::new(PLAN_KEY, budget),
            files: BTreeSet::new(),
            budget,
        }
    }

    /// Adds `plan`, reported with `severity`.
    pub fn add(&mut self, plan: &Plan, severity: Severity) {
        let primary = plan.primary.file;
        let id = plan_id(plan.first);
        let mut p = Out::default();
        p.u32(primary)
            .u64(id)
            .u8(severity_byte(severity))
            .u64(plan.ways as u64)
            .u64(plan.places as u64)
            .u64(plan.already as u64)
            .u32(plan.named.len() as u32)
            .u8(u8::from(plan.preferred.is_some()))
            .u32(plan.related.len() as u32);
        self.plans.push(p.0);
        for (slot, place) in plan.places().enumerate() {
            // The report recommends the normal form, which only the primary place's reading
            // gives, when no place writes it.
            let normal = slot == 0 && plan.preferred.is_none();
            let mut w = Out::default();
            w.u32(place.file)
                .u32(place.index)
                .u128(plan.key)
                .u64(place.spelling)
                .u32(primary)
                .u64(id)
                .u32(slot as u32)
                .u8(u8::from(normal));
            self.wanted.push(w.0);
            self.files.insert(place.file);
        }
    }

    /// The files that hold a place to read again, in report order.
    pub fn files(&self) -> &BTreeSet<u32> {
        &self.files
    }

    /// Ready for the files to be read again: the places wanted kept by file, in a temporary
    /// file, for the reader of each file to take its own as it starts it ([`Reading::start`]),
    /// by the path it is shown with. `paths` gives each file of the run, by number, with that
    /// path: a path two files share names neither (their places are then resolved by
    /// [`Reading::read`], from the variants the reader kept).
    pub fn read_again<'p>(
        self,
        paths: impl Iterator<Item = (u32, &'p str)>,
    ) -> io::Result<Reading> {
        let mut merged = self.wanted.merged()?;
        let mut keeping = Keeping::new();
        let mut ranges: Vec<(u32, u64, u64)> = Vec::new();
        while let Some(record) = merged.next_record()? {
            let file = In(&record).u32().ok_or_else(invalid)?;
            let start = keeping.position();
            keeping.push(&record)?;
            match ranges.last_mut() {
                Some((f, s, len)) if *f == file => *len = keeping.position() - *s,
                _ => ranges.push((file, start, keeping.position() - start)),
            }
        }
        drop(merged);
        // Each wanted file's path, with how many files of the run are shown with it.
        let paths: Vec<(u32, &str)> = paths.collect();
        let mut by_path: HashMap<String, (u32, u32)> = HashMap::new();
        for &(file, path) in &paths {
            if self.files.contains(&file) {
                by_path.insert(path.to_string(), (file, 0));
            }
        }
        for (file, path) in paths {
            if let Some(entry) = by_path.get_mut(path) {
                entry.1 += 1;
                if entry.1 == 1 {
                    entry.0 = file;
                }
            }
        }
        Ok(Reading {
            wanted: keeping.finish()?,
            ranges,
            by_path,
            resolved: Mutex::new(Sorter::new(RESOLVED_KEY, self.budget)),
            plans: self.plans,
            changed: Mutex::new(BTreeSet::new()),
            seen: Mutex::new(BTreeSet::new()),
            failed: Mutex::new(None),
        })
    }
}

/// The files of a run's plans read again (on any thread, in any order), each taking the
/// places wanted of it as its reading starts, and handing on each one as it meets it.
pub struct Reading {
    /// The places wanted, by file.
    wanted: Kept,
    /// Each file with places wanted, in report order: where they are kept.
    ranges: Vec<(u32, u64, u64)>,
    /// The wanted files by the path they are shown with: the file and how many files of the
    /// run have that path.
    by_path: HashMap<String, (u32, u32)>,
    resolved: Mutex<Sorter>,
    plans: Sorter,
    changed: Mutex<BTreeSet<u32>>,
    /// The files whose reading was taken as theirs ([`Reading::read`]).
    seen: Mutex<BTreeSet<u32>>,
    failed: Mutex<Option<io::Error>>,
}

/// How a document read again takes part ([`Reading::start`]).
pub enum Start<'r> {
    /// No file of the run with places wanted has its path.
    Nothing,
    /// The one file of the run with its path: its places wanted, taken as the IRIs come.
    File(FileReading<'r>),
    /// Two files of the run have its path: which one it is, only the order of the run says;
    /// its variants are kept for [`Reading::read`].
    Ambiguous,
}

/// One file being read again: its places wanted, read one at a time as its IRIs come, each
/// resolved into a place of its plan.
pub struct FileReading<'r> {
    reading: &'r Reading,
    file: u32,
    places: Option<KeptReader<'r>>,
    /// The next place wanted.
    next: Option<Wanted>,
    /// The number of the next IRI.
    index: u32,
    /// A place wanted did not hold the IRI its record hashed.
    changed: bool,
}

impl FileReading<'_> {
    fn advance(&mut self) -> io::Result<()> {
        self.next = match &mut self.places {
            Some(places) => match places.next_record()? {
                Some(record) => Some(Wanted::read(&record).ok_or_else(invalid)?),
                None => None,
            },
            None => None,
        };
        if self.next.as_ref().is_some_and(|w| w.file != self.file) {
            return Err(invalid());
        }
        Ok(())
    }

    /// Whether the next IRI (the next of the document that takes part) is a place wanted: only
    /// then is its variant needed.
    pub fn wants(&self) -> bool {
        self.next.as_ref().is_some_and(|w| w.index <= self.index)
    }

    /// The next IRI, with its variant when [`FileReading::wants`] it.
    pub fn iri(&mut self, variant: Option<&Variant>) {
        if let Err(e) = self.resolve(variant) {
            self.reading.fail(e);
            self.changed = true;
            self.places = None;
            self.next = None;
        }
        self.index = self.index.saturating_add(1);
    }

    fn resolve(&mut self, variant: Option<&Variant>) -> io::Result<()> {
        let hashes = variant.map(|v| Keys::of_process().hashes(v));
        while let Some(w) = self.next.as_ref().filter(|w| w.index <= self.index) {
            let same = w.index == self.index && hashes == Some((w.key, w.spelling));
            match variant.filter(|_| same) {
                Some(v) => {
                    let record = resolved(w, v);
                    self.reading
                        .resolved
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(record);
                }
                None => self.changed = true,
            }
            self.advance()?;
        }
        Ok(())
    }

    /// The document has no more IRIs: a place wanted past them, or one that did not hold the
    /// IRI its record hashed, leaves its plans out. The file's number, for [`Reading::read`].
    pub fn finish(self) -> u32 {
        if self.changed || self.next.is_some() {
            self.reading.changed(self.file);
        }
        self.file
    }
}

/// A place wanted, read again: its plan's key and slot, its file, where it is and how it is
/// spelled (and the normal form, when the report recommends it).
fn resolved(w: &Wanted, v: &Variant) -> Vec<u8> {
    let mut out = Out::default();
    out.0.extend_from_slice(&w.plan);
    out.u32(w.slot).u32(w.file);
    location(&mut out, v.start);
    location(&mut out, v.end);
    out.str(v.spelling());
    out.u8(u8::from(w.normal));
    if w.normal {
        out.str(&v.key);
    }
    out.0
}

/// One place wanted, as [`Planned::add`] wrote it.
struct Wanted {
    file: u32,
    index: u32,
    key: u128,
    spelling: u64,
    /// Its plan's key.
    plan: [u8; PLAN_KEY],
    slot: u32,
    normal: bool,
}

impl Wanted {
    fn read(record: &[u8]) -> Option<Wanted> {
        let mut r = In(record);
        let file = r.u32()?;
        let index = r.u32()?;
        let key = r.u128()?;
        let spelling = r.u64()?;
        let plan: [u8; PLAN_KEY] = r.0.get(..PLAN_KEY)?.try_into().ok()?;
        r.0 = &r.0[PLAN_KEY..];
        let slot = r.u32()?;
        let normal = r.u8()? == 1;
        Some(Wanted {
            file,
            index,
            key,
            spelling,
            plan,
            slot,
            normal,
        })
    }
}

impl Reading {
    /// The document shown as `path` read again: how it takes part.
    pub fn start(&self, path: &str) -> Start<'_> {
        match self.by_path.get(path) {
            Some(&(file, 1)) => match self.file(file) {
                Ok(reading) => Start::File(reading),
                Err(e) => {
                    self.fail(e);
                    Start::Nothing
                }
            },
            Some(_) => Start::Ambiguous,
            None => Start::Nothing,
        }
    }

    fn file(&self, file: u32) -> io::Result<FileReading<'_>> {
        let places = match self.ranges.binary_search_by_key(&file, |&(f, _, _)| f) {
            Ok(at) => {
                let (_, start, len) = self.ranges[at];
                Some(self.wanted.reader(start, len)?)
            }
            Err(_) => None,
        };
        let mut reading = FileReading {
            reading: self,
            file,
            places,
            next: None,
            index: 0,
            changed: false,
        };
        reading.advance()?;
        Ok(reading)
    }

    /// The document read again in the run's order as its `file`-th file: its reader took it as
    /// file `taken` ([`FileReading::finish`]), or kept its `variants` (its path was
    /// [`Start::Ambiguous`]). A reading taken as another file's leaves that file's plans out;
    /// a wanted file that no document was taken as (changed on disk, or not read again) too.
    pub fn read(&self, file: u32, taken: Option<u32>, variants: &[Variant]) {
        match taken {
            Some(taken) if taken == file => {
                self.seen
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(file);
            }
            Some(taken) => self.changed(taken),
            None if variants.is_empty() => {}
            None => match self.file(file) {
                Ok(mut reading) => {
                    for v in variants {
                        reading.iri(Some(v));
                    }
                    let taken = reading.finish();
                    self.read(file, Some(taken), &[]);
                }
                Err(e) => self.fail(e),
            },
        }
    }

    fn changed(&self, file: u32) {
        self.changed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(file);
    }

    fn fail(&self, e: io::Error) {
        self.failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(e);
    }

    /// Every plan whose places were all read again, kept by the file it is reported in; and
    /// the files whose places were not (changed on disk, or not read again), in report order.
    pub fn finish(self) -> io::Result<(Findings, BTreeSet<u32>)> {
        if let Some(e) = self.failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        let seen = self.seen.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut changed = self.changed.into_inner().unwrap_or_else(|e| e.into_inner());
        for &(file, _, _) in &self.ranges {
            if !seen.contains(&file) {
                changed.insert(file);
            }
        }
        drop(self.wanted);
        let mut plans = self.plans.merged()?;
        let resolved = self
            .resolved
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        let mut resolved = resolved.merged()?;
        let mut keeping = Keeping::new();
        let mut ranges: Vec<(u32, u64, u64)> = Vec::new();
        while let Some(plan) = plans.next_record()? {
            let key = &plan[..PLAN_KEY];
            let slots = slots(&plan).ok_or_else(invalid)?;
            let mut entry = Out::default();
            entry.bytes(&plan);
            let mut got = 0;
            while let Some(k) = resolved.peek_key() {
                match k[..PLAN_KEY].cmp(key) {
                    std::cmp::Ordering::Greater => break,
                    std::cmp::Ordering::Less => {
                        resolved.next_record()?;
                    }
                    std::cmp::Ordering::Equal => {
                        let place = resolved.next_record()?.ok_or_else(invalid)?;
                        // A place of a changed file is not one: its plan is left out.
                        let of = In(place.get(RESOLVED_KEY..).ok_or_else(invalid)?).u32();
                        if of.is_some_and(|f| !changed.contains(&f)) {
                            entry.bytes(&place);
                            got += 1;
                        }
                    }
                }
            }
            if got != slots {
                continue;
            }
            let file = In(key).u32().ok_or_else(invalid)?;
            let start = keeping.position();
            keeping.push(&entry.0)?;
            match ranges.last_mut() {
                Some((f, s, len)) if *f == file => *len = keeping.position() - *s,
                _ => ranges.push((file, start, keeping.position() - start)),
            }
        }
        let findings = Findings {
            kept: keeping.finish()?,
            ranges,
        };
        Ok((findings, changed))
    }
}

/// How many places a plan record names.
fn slots(plan: &[u8]) -> Option<usize> {
    let mut r = In(plan.get(PLAN_KEY..)?);
    r.u8()?;
    r.u64()?;
    r.u64()?;
    r.u64()?;
    let named = r.u32()? as usize;
    let preferred = usize::from(r.u8()? == 1);
    let related = r.u32()? as usize;
    Some(1 + named + preferred + related)
}

fn location(out: &mut Out, at: Location) {
    for n in [
        at.line,
        at.column,
        at.column_utf16,
        at.offset,
        at.text_offset,
    ] {
        out.u64(n as u64);
    }
}

fn read_location(r: &mut In<'_>) -> Option<Location> {
    let mut n = || r.u64().and_then(|n| usize::try_from(n).ok());
    Some(Location {
        line: n()?,
        column: n()?,
        column_utf16: n()?,
        offset: n()?,
        text_offset: n()?,
    })
}

/// The findings of a run's plans, kept by the file each is reported in.
#[derive(Debug)]
pub struct Findings {
    kept: Kept,
    /// Each file with findings, in report order: where its plans are kept.
    ranges: Vec<(u32, u64, u64)>,
}

/// One place of a plan as read back.
struct Resolved<'a> {
    file: u32,
    start: Location,
    end: Location,
    spelling: &'a str,
    normal: Option<&'a str>,
}

impl Findings {
    /// The files with findings, in report order.
    pub fn files(&self) -> impl Iterator<Item = u32> + '_ {
        self.ranges.iter().map(|&(f, _, _)| f)
    }

    /// Hands each finding of the `file`-th file to `f`, in the order the report meets them
    /// (other files named by `path_of`), read back one at a time.
    pub fn each_of_file<'p>(
        &self,
        file: u32,
        path_of: &dyn Fn(u32) -> &'p str,
        f: &mut dyn FnMut(Diagnostic),
    ) -> io::Result<()> {
        let Ok(at) = self.ranges.binary_search_by_key(&file, |&(f, _, _)| f) else {
            return Ok(());
        };
        let (_, start, len) = self.ranges[at];
        self.kept.each(start, len, &mut |entry| {
            f(finding(entry, path_of).ok_or_else(invalid)?);
            Ok(())
        })
    }
}

/// The diagnostic of one kept plan and its places.
fn finding<'p>(entry: &[u8], path_of: &dyn Fn(u32) -> &'p str) -> Option<Diagnostic> {
    let mut e = In(entry);
    let mut plan = In(e.bytes()?);
    let file = plan.u32()?;
    plan.u64()?;
    let severity = severity_of(plan.u8()?)?;
    let ways = usize::try_from(plan.u64()?).ok()?;
    let places = usize::try_from(plan.u64()?).ok()?;
    let already = usize::try_from(plan.u64()?).ok()?;
    let named = plan.u32()? as usize;
    let preferred = plan.u8()? == 1;
    let mut slots = Vec::new();
    while !e.0.is_empty() {
        let mut r = In(e.bytes()?);
        r.0 = r.0.get(RESOLVED_KEY..)?;
        let place = r.u32()?;
        let start = read_location(&mut r)?;
        let end = read_location(&mut r)?;
        let spelling = r.str()?;
        let normal = if r.u8()? == 1 { Some(r.str()?) } else { None };
        slots.push(Resolved {
            file: place,
            start,
            end,
            spelling,
            normal,
        });
    }
    let (primary, rest) = slots.split_first()?;
    let (names, rest) = rest.split_at_checked(named)?;
    let (preferred, related) = if preferred {
        let (p, related) = rest.split_first()?;
        (p.spelling, related)
    } else {
        (primary.normal?, rest)
    };
    let parts = Parts {
        ways,
        places,
        preferred,
        already,
    };
    let first = Shown {
        path: None,
        spelling: primary.spelling,
        start: primary.start,
        end: primary.end,
    };
    let related = related.iter().map(|p| Shown {
        path: (p.file != file).then(|| path_of(p.file)),
        spelling: p.spelling,
        start: p.start,
        end: p.end,
    });
    Some(diagnostic(
        &parts,
        names.iter().map(|n| n.spelling),
        first,
        related,
        severity,
    ))
}
