//! `check --fix` and `check --diff` over every input: check, fix pass after pass, check again,
//! then write the file back (or diff it, or hand standard input's document to standard output).

use std::collections::HashSet;

use super::{FixOptions, FixOutput, apply, diff, write};
use crate::check::{self, CheckOptions, FileFixes, FileOutcome, LoadOptions, Loaded, RunOutcome};
use crate::config::FileSettings;
use crate::source::Source;
use crate::walk::Entry;

/// At most this many passes per file: each pass applies the fixes that do not overlap, and a
/// fix may uncover another (`%7e` → `%7E` → `~`); real files settle in two or three.
pub const MAX_PASSES: usize = 16;

/// Checks and fixes every input, then runs the project-level rules on the fixed documents.
pub fn run(
    inputs: &[Entry],
    load: &LoadOptions,
    options: &CheckOptions<'_>,
    fix: FixOptions,
) -> RunOutcome {
    let mut outcome = check::for_each_loaded(inputs, load, |loaded, settings| {
        fix_file(loaded, settings, options, fix)
    });
    check::check_project(&mut outcome.files, options);
    outcome
}

/// A document after fixing.
#[derive(Debug)]
pub struct Fixed {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Decoded.
    pub source: Source,
    /// How many fixes made it.
    pub applied: usize,
    /// Its check (not rendered).
    pub outcome: FileOutcome,
}

/// `loaded` fixed with `fix`, pass after pass until nothing changes (at most [`MAX_PASSES`]).
pub fn fixed(
    loaded: &Loaded,
    settings: &FileSettings,
    options: &CheckOptions<'_>,
    fix: FixOptions,
) -> Fixed {
    let quiet = CheckOptions {
        selection: options.selection,
        baseline: options.baseline,
        render: None,
        render_project: None,
    };
    let mut bytes = loaded.bytes.clone();
    let mut source = redecode(loaded);
    let mut outcome = check::check_with(&source, settings, &quiet);
    let mut applied = 0;
    let mut rejected = HashSet::new();
    let mut frozen = baselined_occurrences(&source, settings, &quiet, &outcome.diagnostics);
    frozen.sort_by_key(|r| (r.start, r.end));
    frozen.dedup();
    for _ in 0..MAX_PASSES {
        let Some(pass) = apply::pass(
            &bytes,
            &source,
            &outcome.diagnostics,
            fix,
            &mut rejected,
            &frozen,
        ) else {
            break;
        };
        apply::shift(&mut frozen, &pass.edits);
        applied += pass.applied;
        bytes = pass.bytes;
        source = pass.source;
        outcome = check::check_with(&source, settings, &quiet);
    }
    Fixed {
        bytes,
        source,
        applied,
        outcome,
    }
}

/// The source ranges of the occurrences that hold a finding the baseline holds back (of the
/// `kept` diagnostics, the others were baselined). No fix touches them, in any pass: a fix of
/// another finding would change the IRI, the baseline would no longer recognize it, and the
/// next pass would fix what the baseline says to leave alone.
fn baselined_occurrences(
    source: &Source,
    settings: &FileSettings,
    options: &CheckOptions<'_>,
    kept: &[crate::diagnostic::Diagnostic],
) -> Vec<std::ops::Range<usize>> {
    if options.baseline.is_none() {
        return Vec::new();
    }
    let everything = CheckOptions {
        baseline: None,
        ..*options
    };
    let all = check::check_with(source, settings, &everything).diagnostics;
    let occurrences: Vec<std::ops::Range<usize>> = crate::extract::extract(source)
        .occurrences
        .iter()
        .map(|o| o.map.source_range())
        .collect();
    let kept: std::collections::HashSet<(&str, usize, usize, &str)> = kept
        .iter()
        .map(|d| (d.rule, d.start.text_offset, d.end.text_offset, &*d.message))
        .collect();
    all.iter()
        .filter(|d| {
            d.iri.is_some()
                && !kept.contains(&(d.rule, d.start.text_offset, d.end.text_offset, &*d.message))
        })
        .filter_map(|d| {
            // Occurrences are in document order: the last one starting at or before the finding.
            let at = d.start.text_offset;
            let k = occurrences.partition_point(|r| r.start <= at);
            occurrences[..k].iter().rev().find(|r| at <= r.end).cloned()
        })
        .collect()
}

/// `loaded`'s document decoded again (a [`Source`] is not `Clone`: it is decoded once per pass).
fn redecode(loaded: &Loaded) -> Source {
    Source::decode(
        loaded.source.path.clone(),
        loaded.source.format,
        &loaded.bytes,
    )
    .unwrap_or_else(|_| {
        Source::from_text(
            loaded.source.path.clone(),
            loaded.source.format,
            loaded.source.text.clone(),
        )
    })
}

fn fix_file(
    loaded: Loaded,
    settings: &FileSettings,
    options: &CheckOptions<'_>,
    fix: FixOptions,
) -> FileOutcome {
    let Fixed {
        bytes,
        source,
        applied,
        mut outcome,
    } = fixed(&loaded, settings, options, fix);
    let changed = bytes != loaded.bytes;
    let mut fixes = FileFixes {
        applied,
        ..FileFixes::default()
    };
    let mut shown = source;
    match (fix.output, &loaded.path) {
        (FixOutput::Diff, _) => {
            if changed {
                // A UTF-8 file's bytes, BOM included, are what a patch applies to; another
                // encoding's diff is of the decoded text, to be read.
                let (old, new) = match (
                    std::str::from_utf8(&loaded.bytes),
                    std::str::from_utf8(&bytes),
                ) {
                    (Ok(old), Ok(new)) => (old, new),
                    _ => (loaded.source.text.as_ref(), shown.text.as_ref()),
                };
                fixes.diff = Some(diff::unified(&loaded.source.path, old, new));
            }
        }
        (FixOutput::Write, None) => fixes.stdout = Some(bytes),
        (FixOutput::Write, Some(path)) if changed => {
            if let Err(message) = write::replace(path, &loaded.bytes, &bytes) {
                // Nothing was written: report the file as it is.
                fixes.error = Some(message);
                fixes.applied = 0;
                shown = loaded.source;
                outcome = check::check_with(&shown, settings, options);
            }
        }
        (FixOutput::Write, Some(_)) => {}
    }
    if fixes.error.is_none() {
        // A fix the options allow that is still there was refused by the checks of a pass:
        // it is not offered (not in JSON either, where an editor would apply it).
        for d in &mut outcome.diagnostics {
            if d.fix.as_ref().is_some_and(|f| fix.applies(f.applicability)) {
                d.fix = None;
                fixes.refused += 1;
            }
        }
    }
    if !fix.unsafe_fixes {
        fixes.unsafe_available = outcome
            .diagnostics
            .iter()
            .filter(|d| {
                d.fix
                    .as_ref()
                    .is_some_and(|f| f.applicability == crate::iri_fix::Applicability::Unsafe)
            })
            .count();
    }
    if fixes.error.is_none()
        && let Some(render) = options.render
    {
        outcome.rendered = render(&shown, &outcome.diagnostics);
    }
    outcome.fixes = fixes;
    outcome
}
