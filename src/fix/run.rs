//! `check --fix` and `check --diff` over every input: check, fix pass after pass, check again,
//! then write the file back (or diff it, or hand standard input's document to standard output).

use std::collections::HashSet;

use super::{FixOptions, FixOutput, apply, diff, write};
use crate::check::{self, CheckOptions, FileFixes, FileOutcome, LoadOptions, Loaded, RunOutcome};
use crate::config::FileSettings;
use crate::source::{Source, as_read};
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
    /// Its bytes and their decoding, when a fix changed it (else it is the document as read:
    /// not copied, a copy of a large file is what `--fix` held most).
    pub changed: Option<(Vec<u8>, Source)>,
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
        baseline_keys: false,
    };
    let mut changed: Option<(Vec<u8>, Source)> = None;
    let mut outcome = check::check_with(&loaded.source, settings, &quiet);
    let mut applied = 0;
    let mut rejected = HashSet::new();
    let mut frozen = baselined_occurrences(&loaded.source, settings, &quiet, &outcome.diagnostics);
    frozen.sort_by_key(|r| (r.start, r.end));
    frozen.dedup();
    for _ in 0..MAX_PASSES {
        let (bytes, source) = changed.as_ref().map_or_else(
            || (loaded.bytes(), &loaded.source),
            |(b, s)| (as_read(b, s), s),
        );
        let Some(pass) = apply::pass(
            bytes,
            source,
            &outcome.diagnostics,
            fix,
            &mut rejected,
            &frozen,
        ) else {
            break;
        };
        apply::shift(&mut frozen, &pass.edits);
        applied += pass.applied;
        // The diagnostics refer to the old text: dropped before the new one is checked.
        drop(std::mem::take(&mut outcome));
        drop(changed.take());
        outcome = check::check_with(&pass.source, settings, &quiet);
        changed = Some((pass.bytes, pass.source));
    }
    Fixed {
        changed,
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

/// `loaded` fixed as `fix` says (written back, or diffed), with its outcome rendered as
/// `options` says: one file of [`run`], also what a streamed run does with each file.
pub fn fix_file(
    loaded: Loaded,
    settings: &FileSettings,
    options: &CheckOptions<'_>,
    fix: FixOptions,
) -> FileOutcome {
    if loaded.in_package {
        // A part's bytes are inside a zip the tool that built it writes: a fix is shown, never
        // written into the package (nor diffed: no patch applies to it).
        let mut outcome = check::check_with(&loaded.source, settings, options);
        outcome.fixes.in_package = outcome
            .diagnostics
            .iter()
            .filter(|d| d.fix.as_ref().is_some_and(|f| fix.applies(f.applicability)))
            .count();
        return outcome;
    }
    let Fixed {
        changed,
        applied,
        mut outcome,
    } = fixed(&loaded, settings, options, fix);
    let read = loaded.bytes();
    // The fixed bytes and text, when they differ from what was read.
    let fixed = changed.filter(|(bytes, source)| as_read(bytes, source) != read);
    let bytes = fixed.as_ref().map(|(bytes, source)| as_read(bytes, source));
    let original = &loaded.source;
    let fixed_source = fixed.as_ref().map(|(_, source)| source);
    let path = &loaded.path;
    let mut fixes = FileFixes {
        applied,
        ..FileFixes::default()
    };
    let mut write_failed = false;
    match (fix.output, path, bytes) {
        (FixOutput::Diff, _, Some(new_bytes)) => {
            let new_source = fixed_source.unwrap_or(original);
            // A UTF-8 file's bytes, BOM included, are what a patch applies to; another
            // encoding's diff is of the decoded text, to be read.
            let (old, new) = match (std::str::from_utf8(read), std::str::from_utf8(new_bytes)) {
                (Ok(old), Ok(new)) => (old, new),
                _ => (original.text.as_ref(), new_source.text.as_ref()),
            };
            fixes.diff = Some(diff::unified(&original.path, old, new));
        }
        (FixOutput::Diff, _, None) => {}
        (FixOutput::Write, None, new_bytes) => {
            fixes.stdout = Some(new_bytes.unwrap_or(read).to_vec());
        }
        (FixOutput::Write, Some(path), Some(new_bytes)) => {
            if let Err(message) = write::replace(path, read, new_bytes) {
                // Nothing was written: report the file as it is.
                fixes.error = Some(message);
                fixes.applied = 0;
                outcome = check::check_with(original, settings, options);
                write_failed = true;
            }
        }
        (FixOutput::Write, Some(_), None) => {}
    }
    let shown = match fixed_source {
        Some(fixed) if !write_failed => fixed,
        _ => original,
    };
    settle(outcome, fixes, shown, options, fix)
}

/// A file `--fix` wrote in a first pass (which did `fixes` to it), checked again as it now is
/// on disk: the outcome [`fix_file`] gave it, for a run whose project-level rules need every
/// file fixed before any is reported.
pub fn recheck(
    loaded: Loaded,
    settings: &FileSettings,
    options: &CheckOptions<'_>,
    fix: FixOptions,
    mut fixes: FileFixes,
) -> FileOutcome {
    // As `fix_file`: a file not written is reported as it is, rendered by the check.
    let quiet = CheckOptions {
        selection: options.selection,
        baseline: options.baseline,
        render: None,
        render_project: None,
        baseline_keys: options.baseline_keys,
    };
    let with = if fixes.error.is_some() {
        options
    } else {
        &quiet
    };
    let outcome = check::check_with(&loaded.source, settings, with);
    fixes.refused = 0;
    fixes.unsafe_available = 0;
    settle(outcome, fixes, &loaded.source, options, fix)
}

/// A fixed file's outcome as reported: the fixes still offered that a pass refused dropped,
/// the unsafe ones counted, rendered from `shown` (the fixed text).
fn settle(
    mut outcome: FileOutcome,
    mut fixes: FileFixes,
    shown: &Source,
    options: &CheckOptions<'_>,
    fix: FixOptions,
) -> FileOutcome {
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
        outcome.rendered = render(shown, &outcome.diagnostics);
    }
    outcome.fixes = fixes;
    outcome
}
