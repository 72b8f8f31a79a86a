//! Choosing the fixes of one pass and applying them, checked.
//!
//! Fixes whose edits overlap are not applied together: the first (in source order) wins and the
//! others are found again on the fixed text in the next pass. Every pass is checked before it is
//! kept: the new bytes must decode to exactly the new text, in the same encoding, and extracting
//! the new text must give the same IRIs in the same order, each one as its fixes said, with no
//! new document problem. A pass that fails is retried fix by fix, and a fix that fails alone is
//! never tried again.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::ops::Range;

use super::version::{Digesting, Held, Lost, ReadAgain, Temp, Version, decode, read_again_error};
use super::{FixOptions, bytes};
use crate::diagnostic::Diagnostic;
use crate::diagnostic::fix::Fix;
use crate::extract;
use crate::fsio::{Fingerprint, describe_io_error};
use crate::iri_fix::IriEdit;
use crate::source::Source;

/// A fixed document.
#[derive(Debug)]
pub struct Pass {
    /// The fixed version: held, and in the temporary file it was written to.
    pub version: Version,
    /// How many fixes the pass applied.
    pub applied: usize,
    /// The edits it made: the replaced range of the old text and the length of the new text.
    pub edits: Vec<(Range<usize>, usize)>,
}

/// Where a pass writes each version it tries: a new temporary file, or why there is none.
pub type NewTemp<'a> = &'a mut dyn FnMut() -> Result<Temp, Lost>;

/// `ranges` of the text before `edits` (sorted, disjoint), where they are after them; a range
/// the edits do not touch (the caller never edits a frozen occurrence) only moves.
pub fn shift(ranges: &mut [Range<usize>], edits: &[(Range<usize>, usize)]) {
    for r in ranges.iter_mut() {
        let delta: isize = edits
            .iter()
            .filter(|(e, _)| e.end <= r.start)
            .map(|(e, len)| *len as isize - e.len() as isize)
            .sum();
        r.start = (r.start as isize + delta) as usize;
        r.end = (r.end as isize + delta) as usize;
    }
}

/// What identifies a fix across passes: its rule, its IRI and its edits of the IRI.
pub type FixKey = (&'static str, Option<std::sync::Arc<str>>, Vec<IriEdit>);

fn key(d: &Diagnostic, fix: &Fix) -> FixKey {
    let edits = match &fix.iri {
        Some(iri) => iri.edits.clone(),
        // A markup fix is known by its edits of the text.
        None => fix
            .edits
            .iter()
            .map(|e| IriEdit {
                range: e.range(),
                replacement: e.replacement.clone(),
            })
            .collect(),
    };
    (d.rule, d.iri.clone(), edits)
}

fn conflict(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start.max(b.start) < a.end.min(b.end)
        || a.start == b.start
        || (a.is_empty() && b.start < a.start && a.start < b.end)
        || (b.is_empty() && a.start < b.start && b.start < a.end)
}

/// True when `at` is in one of the `frozen` ranges (sorted by start, disjoint).
fn is_frozen(frozen: &[Range<usize>], at: usize) -> bool {
    let k = frozen.partition_point(|r| r.start <= at);
    k > 0 && frozen[k - 1].contains(&at)
}

/// The fixes to apply together: those `options` allows, not `rejected`, not in a `frozen`
/// occurrence, disjoint.
fn choose<'a>(
    diagnostics: &'a [Diagnostic],
    options: FixOptions,
    rejected: &HashSet<FixKey>,
    frozen: &[Range<usize>],
) -> Vec<(&'a Diagnostic, &'a Fix)> {
    // Taken ranges by start: they are disjoint, so a new range can only conflict with the one
    // starting at or before it and the one starting after it (a sitemap has thousands).
    let mut taken: BTreeMap<usize, usize> = BTreeMap::new();
    let clashes = |taken: &BTreeMap<usize, usize>, r: &Range<usize>| {
        let before = taken.range(..=r.start).next_back();
        let after = taken.range(r.start + 1..).next();
        before
            .into_iter()
            .chain(after)
            .any(|(&s, &e)| conflict(r, &(s..e)))
    };
    let mut out = Vec::new();
    for d in diagnostics {
        let Some(fix) = &d.fix else { continue };
        if !options.applies(fix.applicability)
            || is_frozen(frozen, fix.occurrence_start)
            || rejected.contains(&key(d, fix))
        {
            continue;
        }
        let ranges: Vec<Range<usize>> = fix.edits.iter().map(|e| e.range()).collect();
        if ranges.iter().any(|r| clashes(&taken, r)) {
            continue;
        }
        taken.extend(ranges.into_iter().map(|r| (r.start, r.end)));
        out.push((d, &**fix));
    }
    out
}

/// How many failed tries a pass makes before it leaves its remaining fixes out.
const MAX_FAILED_TRIES: usize = 64;

/// What a pass keeps of the document's IRIs before its fixes, to compare the fixed document's
/// with: where each starts and a digest of it, never the extraction itself (a sitemap's
/// 200,000 IRIs with their span maps took 60 MB, held once before and once after the fixes).
/// The IRIs a fix edits are their diagnostics' own, shared.
struct Before {
    /// Each occurrence's source start and the digest of its IRI, in document order.
    occurrences: Vec<(usize, u64)>,
    /// How many document problems there were.
    problems: usize,
    /// The digest, keyed anew for each run: no document can be made to collide with another.
    digest: std::hash::RandomState,
}

impl Before {
    fn of(source: &Source) -> Before {
        use std::hash::BuildHasher;
        let digest = std::hash::RandomState::new();
        let mut occurrences = Vec::new();
        let problems = extract::extract_each(source, &mut |o| {
            occurrences.push((o.map.source_range().start, digest.hash_one(&*o.iri)));
        })
        .problems
        .len();
        Before {
            occurrences,
            problems,
            digest,
        }
    }
}

/// One pass over the version `current` (held) with the fixes of `diagnostics`, leaving the
/// occurrences at `frozen` (sorted, disjoint) alone; `None` when no fix can be applied (then
/// `current` is held again). Each try is written to a temporary file from `new_temp` while
/// `current` is let go; `Err` when a file could not be written or read again.
pub fn pass(
    current: &mut Version,
    diagnostics: &[Diagnostic],
    options: FixOptions,
    rejected: &mut HashSet<FixKey>,
    frozen: &[Range<usize>],
    new_temp: NewTemp<'_>,
) -> Result<Option<Pass>, Lost> {
    let before = Before::of(&current.hold()?.source);
    let mut failures = 0;
    let mut tried = |chosen: &[(&Diagnostic, &Fix)]| try_apply(current, &before, chosen, new_temp);
    let found = loop {
        let chosen = choose(diagnostics, options, rejected, frozen);
        if chosen.is_empty() {
            break None;
        }
        let blamed = match tried(&chosen)? {
            Ok(p) => break Some(p),
            Err(blamed) => blamed,
        };
        failures += 1;
        if !blamed.is_empty() {
            // The IRIs that came out other than their fixes promise: reject those fixes and
            // try the rest together again.
            for (d, f) in &chosen {
                if blamed.contains(&f.occurrence_start) {
                    rejected.insert(key(d, f));
                }
            }
        } else {
            // The document itself came out wrong. The longest prefix of the fixes that applies
            // together, found by halving (a few re-reads of the document, not one per fix);
            // when not even the first applies alone, it is left out and the rest tried again.
            let mut n = chosen.len() / 2;
            let mut prefix = None;
            while n >= 1 {
                match tried(&chosen[..n])? {
                    Ok(p) => {
                        prefix = Some(p);
                        break;
                    }
                    Err(_) => failures += 1,
                }
                n /= 2;
            }
            if prefix.is_some() {
                break prefix;
            }
            let (d, f) = chosen[0];
            rejected.insert(key(d, f));
        }
        // Each try re-reads the whole document: past a budget of failures, the pass gives up
        // and leaves the rest out (a document no fix survives is not re-read endlessly).
        if failures > MAX_FAILED_TRIES {
            for (d, f) in &chosen {
                rejected.insert(key(d, f));
            }
            break None;
        }
    };
    if found.is_none() {
        current.hold()?;
    }
    Ok(found)
}

/// What a fixed occurrence's IRI must become: the digest of its IRI before, that IRI, and its
/// edits (sorted, disjoint).
type Expected<'a> = (u64, &'a str, Vec<(Range<usize>, &'a str)>);

/// True when `text` is `old` with `edits` (sorted, disjoint) made, compared piece by piece
/// (the edited text is never built: it would be one more copy of the document).
fn is_edited(text: &str, old: &str, edits: &[(Range<usize>, &str)]) -> bool {
    let text = text.as_bytes();
    let mut pos = 0;
    let mut at = 0;
    let mut same = |piece: &str| {
        let end = pos + piece.len();
        let ok = text.get(pos..end) == Some(piece.as_bytes());
        pos = end;
        ok
    };
    for (r, replacement) in edits {
        match old.get(at..r.start) {
            Some(kept) if same(kept) && same(replacement) => at = r.end,
            _ => return false,
        }
    }
    old.get(at..).is_some_and(&mut same) && pos == text.len()
}

/// `current` with the fixes `chosen` applied, if the result checks out; otherwise the
/// occurrences (by source start) whose IRI came out other than their fixes promise, empty when
/// the failure cannot be pinned on some of them. The fixed bytes go to a temporary file as the
/// edits are walked; `current` is let go before they are read back and checked, so that the
/// document is held once, not twice (`Err`: a file could not be written or read).
fn try_apply(
    current: &mut Version,
    before: &Before,
    chosen: &[(&Diagnostic, &Fix)],
    new_temp: NewTemp<'_>,
) -> Result<Result<Pass, Vec<usize>>, Lost> {
    use std::hash::BuildHasher;
    let none = || Ok(Err(Vec::new()));
    let mut edits: Vec<(Range<usize>, &str)> = chosen
        .iter()
        .flat_map(|(_, f)| f.edits.iter().map(|e| (e.range(), e.replacement.as_str())))
        .collect();
    edits.sort_by_key(|(r, _)| (r.start, r.end));
    if edits.windows(2).any(|w| w[0].0.end > w[1].0.start) {
        return none();
    }
    // What each fixed occurrence's IRI must become: its diagnostic's IRI with its edits.
    let mut by_occurrence: HashMap<usize, (Option<&std::sync::Arc<str>>, Vec<&IriEdit>)> =
        HashMap::new();
    // A markup fix changes no IRI, but brings back the ones of the attributes it restores.
    let restores = chosen.iter().any(|(_, f)| f.iri.is_none());
    for (d, f) in chosen {
        let Some(iri_fix) = &f.iri else { continue };
        let entry = by_occurrence
            .entry(f.occurrence_start)
            .or_insert((d.iri.as_ref(), Vec::new()));
        entry.1.extend(iri_fix.edits.iter());
    }
    let mut expected: HashMap<usize, Expected<'_>> = HashMap::new();
    for (start, (iri, mut own)) in by_occurrence {
        let Some(iri) = iri else {
            return none();
        };
        own.sort_by_key(|e| (e.range.start, e.range.end));
        if own.windows(2).any(|w| w[0].range.end > w[1].range.start) {
            return none();
        }
        let own = own
            .iter()
            .map(|e| (e.range.clone(), e.replacement.as_str()))
            .collect();
        expected.insert(start, (before.digest.hash_one(&**iri), &**iri, own));
    }
    let key = current.fingerprint().key().clone();
    let mut text = Fingerprint::digest(&key);
    let mut written = Fingerprint::digest(&key);
    let mut temp = new_temp()?;
    current.hold()?;
    let len = usize::try_from(current.fingerprint().len()).unwrap_or(usize::MAX);
    let held = current.held().ok_or("the document is not held")?;
    let (path, format, encoding) = (
        held.source.path.clone(),
        held.source.format,
        (held.source.encoding.used, held.source.encoding.bom_len),
    );
    let spliced = {
        let mut out = Digesting {
            out: std::io::BufWriter::new(temp.file()),
            digest: &mut written,
        };
        // The bytes as read: the held text's own, or streamed again from where they are.
        let mut open = || {
            current
                .stream()
                .map_err(|lost| std::io::Error::other(ReadAgain(lost)))
        };
        bytes::splice_to(&mut open, len, &held.source, &edits, &mut out, &mut text)
            .and_then(|ok| out.flush().map(|()| ok))
    };
    match spliced {
        Ok(true) => {}
        Ok(false) => return none(),
        Err(e) => {
            return Err(read_again_error(&e).unwrap_or_else(|| {
                format!(
                    "cannot write the fixed document to a temporary file: {}",
                    describe_io_error(&e)
                )
            }));
        }
    }
    // The text the fixes were made on is let go (read again only if this try fails) before
    // the fixed one is read back.
    current.let_go()?;
    let written = written.finish(key.clone());
    let new_bytes = temp.read_all(written.len()).map_err(|e| {
        format!(
            "cannot read the fixed document back from its temporary file: {}",
            describe_io_error(&e)
        )
    })?;
    if !Fingerprint::with_key(&new_bytes, key.clone()).same(&written) {
        return Err("its temporary file changed while it was fixed; not written".to_string());
    }
    let Ok((fixed, elsewhere)) = decode(&path, format, new_bytes) else {
        return none();
    };
    // The new bytes decode to exactly the text the edits make, in the same encoding.
    let text = text.finish(key.clone());
    if !Fingerprint::with_key(fixed.source.text.as_bytes(), key).same(&text)
        || (fixed.source.encoding.used, fixed.source.encoding.bom_len) != encoding
    {
        return none();
    }
    let edits: Vec<(Range<usize>, usize)> =
        edits.iter().map(|(r, t)| (r.clone(), t.len())).collect();
    let made = |fixed: Held| Pass {
        version: Version::written(fixed, temp, written, elsewhere),
        applied: chosen.len(),
        edits,
    };
    if restores {
        return Ok(restored(&fixed.source, before, &expected).map(|()| made(fixed)));
    }
    // The fixed document's IRIs, compared one by one as they are extracted.
    let mut next = 0;
    let mut same = true;
    let mut matched = 0;
    let mut blamed = Vec::new();
    let after = extract::extract_each(&fixed.source, &mut |new| {
        let Some(&(start, digest)) = before.occurrences.get(next) else {
            same = false;
            return;
        };
        next += 1;
        match expected.get(&start) {
            None => same &= before.digest.hash_one(&*new.iri) == digest,
            Some((old_digest, iri, own)) => {
                // The diagnostic's IRI is the occurrence's.
                same &= *old_digest == digest;
                matched += 1;
                if !is_edited(&new.iri, iri, own) {
                    blamed.push(start);
                }
            }
        }
    });
    if !same || next != before.occurrences.len() || after.problems.len() > before.problems {
        return none();
    }
    if !blamed.is_empty() {
        return Ok(Err(blamed));
    }
    if matched != expected.len() {
        return none();
    }
    Ok(Ok(made(fixed)))
}

/// The check of a pass with a markup fix ([`Fix::iri`] `None`), which restores URL attributes
/// a tag had lost: their IRIs come back, and where the page's are read, so the IRIs before are
/// compared as a whole, not in order: each (with its own fixes made) must still be there, and
/// there may be more; no new document problem. A failure blames no occurrence.
fn restored(
    fixed: &Source,
    before: &Before,
    expected: &HashMap<usize, Expected<'_>>,
) -> Result<(), Vec<usize>> {
    use std::hash::BuildHasher;
    let mut wanted: HashMap<u64, usize> = HashMap::new();
    for &(start, digest) in &before.occurrences {
        let digest = match expected.get(&start) {
            None => digest,
            Some((_, iri, own)) => before.digest.hash_one(edited(iri, own).as_str()),
        };
        *wanted.entry(digest).or_default() += 1;
    }
    let after = extract::extract_each(fixed, &mut |new| {
        if let Some(n) = wanted.get_mut(&before.digest.hash_one(&*new.iri))
            && *n > 0
        {
            *n -= 1;
        }
    });
    if wanted.values().any(|&n| n > 0) || after.problems.len() > before.problems {
        return Err(Vec::new());
    }
    Ok(())
}

/// `old` with `edits` (sorted, disjoint) made.
fn edited(old: &str, edits: &[(Range<usize>, &str)]) -> String {
    let mut out = String::with_capacity(old.len());
    let mut at = 0;
    for (r, replacement) in edits {
        out.push_str(old.get(at..r.start).unwrap_or(""));
        out.push_str(replacement);
        at = r.end;
    }
    out.push_str(old.get(at..).unwrap_or(""));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_and_same_point_edits_conflict() {
        assert!(conflict(&(0..3), &(2..5)));
        assert!(!conflict(&(0..3), &(3..5)));
        assert!(conflict(&(3..3), &(3..3)));
        assert!(conflict(&(4..4), &(3..5)));
        assert!(!conflict(&(5..5), &(3..5)));
    }

    #[test]
    fn frozen_ranges_move_with_the_edits_before_them() {
        let mut r = [10..20, 30..40];
        shift(&mut r, &[(0..3, 1), (25..26, 4)]);
        assert_eq!(r, [8..18, 31..41]);
    }
}
