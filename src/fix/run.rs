//! `check --fix` and `check --diff` over every input: check, fix pass after pass, check again,
//! then write the file back (or diff it, or hand standard input's document to standard output).

use std::collections::HashSet;

use super::version::{Temp, Version};
use super::{FixOptions, FixOutput, apply, diff};
use crate::check::{
    self, CheckOptions, FileFixes, FileOutcome, LoadOptions, Loaded, RunOutcome, Spooled,
};
use crate::config::FileSettings;
use crate::fsio::Replacement;
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
    /// The last version, held: the document as read when no fix was applied.
    pub version: Version,
    /// The document as read, when a fix made another version (let go: read again from its file,
    /// or from the temporary file standard input's went to, when it is needed).
    pub original: Option<Version>,
    /// How many fixes made it.
    pub applied: usize,
    /// Its check (not rendered).
    pub outcome: FileOutcome,
    /// Why fixing stopped: a temporary file could not be written or read, the file changed on
    /// disk. Nothing is written then.
    pub error: Option<String>,
}

/// `loaded` fixed with `fix`, pass after pass until nothing changes (at most [`MAX_PASSES`]).
/// One version of the document is held at a time ([`super::version`]): `--fix` of a file
/// writes each pass into a temporary file next to it, the last one renamed over it by
/// [`fix_file`]; `--diff` and standard input's use anonymous temporary files.
pub fn fixed(
    loaded: Loaded,
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
        variants: options.variants,
    };
    let path = loaded.path.clone();
    let mut current = Version::read(loaded.source, loaded.as_read, loaded.path);
    let mut new_temp = || match (&path, fix.output) {
        (Some(path), FixOutput::Write) => Replacement::begin(path).map(Temp::Replacing),
        _ => Temp::anonymous(),
    };
    let first = &current.held().expect("read").source;
    let mut outcome = check::check_with(first, settings, &quiet);
    let mut applied = 0;
    let mut rejected = HashSet::new();
    let mut frozen = baselined_occurrences(first, settings, &quiet, &outcome.diagnostics);
    frozen.sort_by_key(|r| (r.start, r.end));
    frozen.dedup();
    let mut original = None;
    let mut error = None;
    for _ in 0..MAX_PASSES {
        let pass = match apply::pass(
            &mut current,
            &outcome.diagnostics,
            fix,
            &mut rejected,
            &frozen,
            &mut new_temp,
        ) {
            Ok(Some(pass)) => pass,
            Ok(None) => break,
            Err(message) => {
                error = Some(message);
                break;
            }
        };
        apply::shift(&mut frozen, &pass.edits);
        applied += pass.applied;
        // The diagnostics refer to the old text: dropped before the new one is checked.
        drop(std::mem::take(&mut outcome));
        let old = std::mem::replace(&mut current, pass.version);
        if original.is_none() {
            original = Some(old);
        }
        let Some(held) = current.held() else {
            break;
        };
        outcome = check::check_with(&held.source, settings, &quiet);
    }
    Fixed {
        version: current,
        original,
        applied,
        outcome,
        error,
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
    let path = loaded.path.clone();
    let Fixed {
        mut version,
        mut original,
        applied,
        outcome,
        error,
    } = fixed(loaded, settings, options, fix);
    let mut fixes = FileFixes {
        applied,
        ..FileFixes::default()
    };
    // A fixed version whose bytes are those read changes nothing.
    let changed = original
        .as_ref()
        .is_some_and(|o| !o.fingerprint().same(version.fingerprint()));
    let failed = |message: String, original: Option<Version>, version: Version| {
        let mut fixes = FileFixes {
            error: Some(message),
            ..FileFixes::default()
        };
        // Nothing was written: the file is reported as it is.
        let outcome = as_it_is(
            original.unwrap_or(version),
            path.as_deref(),
            settings,
            options,
        );
        fixes.refused = 0;
        let mut outcome = outcome;
        outcome.fixes = fixes;
        outcome
    };
    if let Some(message) = error {
        return failed(message, original, version);
    }
    match (fix.output, &path) {
        (FixOutput::Diff, _) if changed => {
            let Some(before) = original.as_mut() else {
                return failed("the document as read is lost".into(), None, version);
            };
            match diffed(before, &mut version) {
                Ok(diff) => fixes.diff = Some(diff),
                Err(message) => return failed(message, original, version),
            }
        }
        (FixOutput::Diff, _) => {}
        (FixOutput::Write, None) => {}
        (FixOutput::Write, Some(_)) if changed => {
            let read = original.as_ref().map(|o| o.fingerprint().clone());
            let committed = match (version.take_temp(), read) {
                (Some(Temp::Replacing(r)), Some(read)) => r.commit(&read),
                _ => Err("the fixed document is lost; not written".to_string()),
            };
            if let Err(message) = committed {
                return failed(message, original, version);
            }
        }
        (FixOutput::Write, Some(_)) => {}
    }
    drop(original);
    // (A diff let the fixed text go; a report of it reads it again.)
    let shown = match options.render {
        Some(_) => version.hold().ok().map(|held| &held.source),
        None => None,
    };
    let mut outcome = settle(outcome, fixes, shown, options, fix);
    if fix.output == FixOutput::Write && path.is_none() {
        // Standard input's document waits for its turn in a temporary file, not in memory.
        let len = version.fingerprint().len();
        let spooled = version.let_go().and_then(|()| match version.take_temp() {
            Some(Temp::Anonymous(file)) => Ok(Spooled::new(file, len)),
            _ => Err("the fixed document is in no temporary file".to_string()),
        });
        match spooled {
            Ok(document) => outcome.fixes.stdout = Some(document),
            Err(message) => outcome.fixes.error = Some(message),
        }
    }
    outcome
}

/// The diff of the document as read (`before`, let go) and fixed (`after`, held), made with
/// neither held twice nor both held together: the lines are compared by their digests and read
/// again as the hunks need them. Of a file whose bytes are its text (UTF-8 without a BOM or an
/// undecodable byte), the diff is of the texts, the fixed one read back from its temporary file.
/// Of another, it is of the bytes when both versions' are UTF-8 (a BOM is kept: it is what a
/// patch applies to), both streamed from where they are; else of the decoded texts (to be read),
/// the fixed one put in a temporary file meanwhile.
fn diffed(before: &mut Version, after: &mut Version) -> Result<String, String> {
    let key = std::hash::RandomState::new();
    let reading = |e: std::io::Error| {
        super::version::read_again_error(&e).unwrap_or_else(|| {
            format!(
                "cannot read the fixed document back from its temporary file: {}",
                crate::fsio::describe_io_error(&e)
            )
        })
    };
    if !before.elsewhere() && !after.elsewhere() {
        let held = after.held().ok_or("the fixed document is not held")?;
        let new_digests = diff::line_digests(&held.source.text, &key);
        after.let_go()?;
        let old = before.hold()?;
        let old_digests = diff::line_digests(&old.source.text, &key);
        let mut new = streamed(after)?;
        return diff::unified_by_lines(
            &old.source.path,
            &mut old.source.text.as_bytes(),
            &old_digests,
            &new_digests,
            &mut new,
        )
        .map_err(reading);
    }
    let path = after.named().0.to_string();
    // Each version is read for its lines' digests, which fails on the first byte that is not
    // UTF-8 (then the texts are compared), and again for the hunks. The fixed version is let go
    // only once both are UTF-8: the texts' diff needs it held, and reading it back then would
    // hold its bytes beside its text.
    let new_digests = diff::line_digests_utf8(&mut streamed(after)?, &key).map_err(reading)?;
    let old_digests = match new_digests {
        Some(_) => diff::line_digests_utf8(&mut streamed(before)?, &key).map_err(reading)?,
        None => None,
    };
    if let (Some(new_digests), Some(old_digests)) = (new_digests, old_digests) {
        after.let_go()?;
        let mut old = streamed(before)?;
        let mut new = streamed(after)?;
        let diff = diff::unified_by_lines(&path, &mut old, &old_digests, &new_digests, &mut new)
            .map_err(reading)?;
        // To their ends: there, a stream checks that its file still holds what was read.
        std::io::copy(&mut old, &mut std::io::sink()).map_err(reading)?;
        std::io::copy(&mut new, &mut std::io::sink()).map_err(reading)?;
        return Ok(diff);
    }
    let held = after.hold()?;
    let new_digests = diff::line_digests(&held.source.text, &key);
    let mut new_text = tempfile::tempfile().map_err(|e| {
        format!(
            "cannot create a temporary file for the fixed document: {}",
            crate::fsio::describe_io_error(&e)
        )
    })?;
    {
        use std::io::Write;
        new_text
            .write_all(held.source.text.as_bytes())
            .and_then(|()| new_text.flush())
            .map_err(|e| {
                format!(
                    "cannot write the fixed document to a temporary file: {}",
                    crate::fsio::describe_io_error(&e)
                )
            })?;
    }
    after.let_go()?;
    let old = before.hold()?;
    let old_digests = diff::line_digests(&old.source.text, &key);
    use std::io::Seek;
    new_text
        .seek(std::io::SeekFrom::Start(0))
        .map_err(reading)?;
    let mut new = std::io::BufReader::with_capacity(64 * 1024, new_text);
    diff::unified_by_lines(
        &path,
        &mut old.source.text.as_bytes(),
        &old_digests,
        &new_digests,
        &mut new,
    )
    .map_err(reading)
}

/// A version's bytes, streamed ([`Version::stream`]).
fn streamed(v: &Version) -> Result<std::io::BufReader<Box<dyn std::io::Read + '_>>, String> {
    Ok(std::io::BufReader::with_capacity(64 * 1024, v.stream()?))
}

/// The check of a file `--fix` did not write, rendered: the document as read, or when that is
/// gone (it changed on disk), the file as it now is.
fn as_it_is(
    mut version: Version,
    path: Option<&std::path::Path>,
    settings: &FileSettings,
    options: &CheckOptions<'_>,
) -> FileOutcome {
    if let Ok(held) = version.hold() {
        return check::check_with(&held.source, settings, options);
    }
    let (shown, format) = version.named();
    let now = path
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|bytes| Source::decode_owned(shown.to_string(), format, bytes).ok());
    match now {
        Some(source) => check::check_with(&source, settings, options),
        None => FileOutcome {
            path: shown.to_string(),
            ..FileOutcome::default()
        },
    }
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
        variants: options.variants,
    };
    let with = if fixes.error.is_some() {
        options
    } else {
        &quiet
    };
    let outcome = check::check_with(&loaded.source, settings, with);
    fixes.refused = 0;
    fixes.unsafe_available = 0;
    settle(outcome, fixes, Some(&loaded.source), options, fix)
}

/// A fixed file's outcome as reported: the fixes still offered that a pass refused dropped,
/// the unsafe ones counted, rendered from `shown` (the fixed text).
fn settle(
    mut outcome: FileOutcome,
    mut fixes: FileFixes,
    shown: Option<&Source>,
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
        && let Some(shown) = shown
    {
        outcome.rendered = render(shown, &outcome.diagnostics);
    }
    outcome.fixes = fixes;
    outcome
}
