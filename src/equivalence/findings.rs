//! The findings of `equivalent-variants` made from its plans without holding them together: each
//! plan's places to read again are put aside sorted by the file they are in ([`Planned`]), each
//! place read again is put aside sorted by the plan it belongs to ([`Reading`]), and each plan
//! with all its places is kept in a temporary file with the plans of the same file, read back
//! file by file when its file is reported ([`Findings`]). A project where every resource is
//! written two ways held a finding of about 1.7 KB for each until its file was reported.

use std::collections::BTreeSet;
use std::io;

use super::aside::{In, Keeping, Kept, Out, Sorter};
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

    /// Ready for the files to be read again.
    pub fn read_again(self) -> io::Result<Reading> {
        Ok(Reading {
            wanted: self.wanted.merged()?,
            resolved: Sorter::new(RESOLVED_KEY, self.budget),
            plans: self.plans,
            changed: BTreeSet::new(),
        })
    }
}

/// The files of a run's plans read again, in report order.
pub struct Reading {
    wanted: super::aside::Merged,
    resolved: Sorter,
    plans: Sorter,
    changed: BTreeSet<u32>,
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
    /// The `file`-th file of the run read again, with its `variants`: files come in report
    /// order, each after those before it. A place whose file no longer holds the IRI its
    /// record hashed, or whose file was not read again, leaves its plan out and its file is
    /// named as changed.
    pub fn file(&mut self, file: u32, variants: &[Variant], keys: &Keys) -> io::Result<()> {
        while let Some(k) = self.wanted.peek_key() {
            let at = In(k).u32().ok_or_else(invalid)?;
            if at > file {
                break;
            }
            let record = self.wanted.next_record()?.ok_or_else(invalid)?;
            let w = Wanted::read(&record).ok_or_else(invalid)?;
            if w.file < file {
                self.changed.insert(w.file);
                continue;
            }
            let same = variants.get(w.index as usize).filter(|v| {
                let r = keys.record(v, w.file, w.index);
                (r.key, r.spelling) == (w.key, w.spelling)
            });
            let Some(v) = same else {
                self.changed.insert(w.file);
                continue;
            };
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
            self.resolved.push(out.0);
        }
        Ok(())
    }

    /// Every plan whose places were all read again, kept by the file it is reported in; and
    /// the files whose places were not (changed on disk, or not read again), in report order.
    pub fn finish(mut self) -> io::Result<(Findings, BTreeSet<u32>)> {
        self.file(u32::MAX, &[], &Keys::new())?;
        let mut changed = self.changed;
        while let Some(record) = self.wanted.next_record()? {
            changed.insert(Wanted::read(&record).ok_or_else(invalid)?.file);
        }
        drop(self.wanted);
        let mut plans = self.plans.merged()?;
        let mut resolved = self.resolved.merged()?;
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
                        entry.bytes(&place);
                        got += 1;
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
