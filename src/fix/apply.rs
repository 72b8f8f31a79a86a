//! Choosing the fixes of one pass and applying them, checked.
//!
//! Fixes whose edits overlap are not applied together: the first (in source order) wins and the
//! others are found again on the fixed text in the next pass. Every pass is checked before it is
//! kept: the new bytes must decode to exactly the new text, in the same encoding, and extracting
//! the new text must give the same IRIs in the same order, each one as its fixes said, with no
//! new document problem. A pass that fails is retried fix by fix, and a fix that fails alone is
//! never tried again.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use super::{FixOptions, bytes};
use crate::diagnostic::Diagnostic;
use crate::diagnostic::fix::Fix;
use crate::extract::{self, Extraction};
use crate::iri_fix::{IriEdit, apply_iri_edits};
use crate::source::Source;

/// A fixed document.
#[derive(Debug)]
pub struct Pass {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Decoded.
    pub source: Source,
    /// How many fixes the pass applied.
    pub applied: usize,
    /// The edits it made: the replaced range of the old text and the length of the new text.
    pub edits: Vec<(Range<usize>, usize)>,
}

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
    (d.rule, d.iri.clone(), fix.iri.edits.clone())
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

/// One pass over `source` (read from `bytes`) with the fixes of `diagnostics`, leaving the
/// occurrences at `frozen` (sorted, disjoint) alone; `None` when no fix can be applied.
pub fn pass(
    bytes: &[u8],
    source: &Source,
    diagnostics: &[Diagnostic],
    options: FixOptions,
    rejected: &mut HashSet<FixKey>,
    frozen: &[Range<usize>],
) -> Option<Pass> {
    let before = extract::extract(source);
    let mut failures = 0;
    loop {
        let chosen = choose(diagnostics, options, rejected, frozen);
        if chosen.is_empty() {
            return None;
        }
        let fixes: Vec<&Fix> = chosen.iter().map(|(_, f)| *f).collect();
        let blamed = match try_apply(bytes, source, &before, &fixes) {
            Ok(p) => return Some(p),
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
            let mut n = fixes.len() / 2;
            while n >= 1 {
                match try_apply(bytes, source, &before, &fixes[..n]) {
                    Ok(p) => return Some(p),
                    Err(_) => failures += 1,
                }
                n /= 2;
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
            return None;
        }
    }
}

/// `source` with `fixes` applied, if the result checks out; otherwise the occurrences (by
/// source start) whose IRI came out other than their fixes promise, empty when the failure
/// cannot be pinned on some of them.
fn try_apply(
    bytes: &[u8],
    source: &Source,
    before: &Extraction,
    fixes: &[&Fix],
) -> Result<Pass, Vec<usize>> {
    let none = || Vec::new();
    let mut edits: Vec<(Range<usize>, &str)> = fixes
        .iter()
        .flat_map(|f| f.edits.iter().map(|e| (e.range(), e.replacement.as_str())))
        .collect();
    edits.sort_by_key(|(r, _)| (r.start, r.end));
    if edits.windows(2).any(|w| w[0].0.end > w[1].0.start) {
        return Err(none());
    }
    let mut text = String::with_capacity(source.text.len() + 64);
    let mut at = 0;
    for (r, replacement) in &edits {
        text.push_str(source.text.get(at..r.start).ok_or_else(none)?);
        text.push_str(replacement);
        at = r.end;
    }
    text.push_str(source.text.get(at..).ok_or_else(none)?);
    let new_bytes = bytes::splice(bytes, source, &edits).ok_or_else(none)?;
    let fixed =
        Source::decode(source.path.clone(), source.format, &new_bytes).map_err(|_| none())?;
    if fixed.text != text
        || fixed.encoding.used != source.encoding.used
        || fixed.encoding.bom_len != source.encoding.bom_len
    {
        return Err(none());
    }
    let after = extract::extract(&fixed);
    if after.occurrences.len() != before.occurrences.len()
        || after.problems.len() > before.problems.len()
    {
        return Err(none());
    }
    let mut by_occurrence: HashMap<usize, Vec<&Fix>> = HashMap::new();
    for f in fixes {
        by_occurrence.entry(f.occurrence_start).or_default().push(f);
    }
    let mut matched = 0;
    let mut blamed = Vec::new();
    for (old, new) in before.occurrences.iter().zip(&after.occurrences) {
        let start = old.map.source_range().start;
        let Some(mine) = by_occurrence.get(&start) else {
            if new.iri != old.iri {
                return Err(none());
            }
            continue;
        };
        let mut own: Vec<&IriEdit> = mine.iter().flat_map(|f| f.iri.edits.iter()).collect();
        matched += mine.len();
        own.sort_by_key(|e| (e.range.start, e.range.end));
        if own.windows(2).any(|w| w[0].range.end > w[1].range.start) {
            return Err(none());
        }
        let expected = apply_iri_edits(&old.iri, own.into_iter());
        if *new.iri != *expected {
            blamed.push(start);
        }
    }
    if !blamed.is_empty() {
        return Err(blamed);
    }
    if matched != fixes.len() {
        return Err(none());
    }
    Ok(Pass {
        bytes: new_bytes,
        source: fixed,
        applied: fixes.len(),
        edits: edits.iter().map(|(r, t)| (r.clone(), t.len())).collect(),
    })
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
