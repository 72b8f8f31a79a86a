//! `irilint check`: every input read, decoded, extracted and checked, in parallel, with the
//! results in input order.

use std::io::Read;
use std::path::Path;

use rayon::prelude::*;

use crate::baseline::Baseline;
use crate::config::FileSettings;
use crate::diagnostic::{Diagnostic, Location};
use crate::extract;
use crate::iri;
use crate::rules::equivalence::{self, EQUIVALENT_VARIANTS, Variant};
use crate::rules::{self, Selection, Severity};
use crate::source::{Format, NotText, Source};
use crate::walk::{Entry, FileError, Input, describe_io_error};

/// Renders one file's diagnostics while its source is still in memory.
pub type Render<'a> = &'a (dyn Fn(&Source, &[Diagnostic]) -> String + Sync);

/// Renders the project-level diagnostics that belong to a file (its path given), after the run,
/// when its source is no longer in memory.
pub type RenderProject<'a> = &'a (dyn Fn(&str, &[Diagnostic]) -> String + Sync);

/// What a check run needs besides the inputs.
pub struct CheckOptions<'a> {
    /// The rules that run where no configuration says otherwise ([`check_source`]).
    pub selection: &'a Selection,
    /// Findings already known (`--baseline`): not reported again.
    pub baseline: Option<&'a Baseline>,
    /// Renders one file's diagnostics while its source is still in memory (human output).
    pub render: Option<Render<'a>>,
    /// Renders project-level diagnostics (`equivalent-variants`) after the run.
    pub render_project: Option<RenderProject<'a>>,
}

/// The result for one file.
#[derive(Debug, Default)]
pub struct FileOutcome {
    /// The path as shown.
    pub path: String,
    /// Its diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// How many IRIs were found in it.
    pub iris: usize,
    /// How many of them an `allow` pattern matched (no rule ran on them).
    pub allowed: usize,
    /// How many diagnostics the baseline held back.
    pub baselined: usize,
    /// The severity of `equivalent-variants` in this file, if it runs here.
    pub variants_severity: Option<Severity>,
    /// The rendered report for it, if a renderer was given.
    pub rendered: String,
    /// Its absolute IRIs' normal forms and places, when `equivalent-variants` runs.
    pub variants: Vec<Variant>,
    /// What `--fix` or `--diff` did to it.
    pub fixes: crate::fix::FileFixes,
}

/// The result of running something over every input.
#[derive(Debug)]
pub struct Run<T> {
    /// One result per decoded input, in input order.
    pub files: Vec<T>,
    /// Files that could not be read.
    pub errors: Vec<FileError>,
    /// Named files skipped because they are binary, with the reason.
    pub skipped: Vec<FileError>,
}

impl<T> Default for Run<T> {
    fn default() -> Run<T> {
        Run {
            files: Vec::new(),
            errors: Vec::new(),
            skipped: Vec::new(),
        }
    }
}

/// The result of a check run.
pub type RunOutcome = Run<FileOutcome>;

/// How inputs are read and decoded.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Forces the format of named files and standard input.
    pub input_format: Option<Format>,
    /// Name (and format, by extension) of standard input.
    pub stdin_filename: Option<String>,
}

/// Why an input produced no document.
enum NotLoaded {
    /// Binary; named files carry the reason, walked ones are left out silently (as ripgrep does).
    Skipped(Option<FileError>),
    /// Unreadable.
    Failed(FileError),
}

/// An input read and decoded, with the bytes it was decoded from (what `--fix` rewrites).
#[derive(Debug)]
pub struct Loaded {
    /// The decoded document.
    pub source: Source,
    /// The bytes as read.
    pub bytes: Vec<u8>,
    /// The file, `None` for standard input.
    pub path: Option<std::path::PathBuf>,
}

/// Reads and decodes every input in parallel and applies `f` to each document; never stops early.
pub fn for_each_source<T: Send>(
    inputs: &[Entry],
    load: &LoadOptions,
    f: impl Fn(&Source, &FileSettings) -> T + Sync,
) -> Run<T> {
    for_each_loaded(inputs, load, |loaded, settings| f(&loaded.source, settings))
}

/// As [`for_each_source`], handing `f` the bytes and the path as well.
pub fn for_each_loaded<T: Send>(
    inputs: &[Entry],
    load: &LoadOptions,
    f: impl Fn(Loaded, &FileSettings) -> T + Sync,
) -> Run<T> {
    let results: Vec<Result<T, NotLoaded>> = inputs
        .par_iter()
        .map(|e| load_input(e, load).map(|loaded| f(loaded, &e.settings)))
        .collect();
    let mut run = Run::default();
    for r in results {
        match r {
            Ok(t) => run.files.push(t),
            Err(NotLoaded::Skipped(e)) => run.skipped.extend(e),
            Err(NotLoaded::Failed(e)) => run.errors.push(e),
        }
    }
    run
}

/// Checks every input, then runs the project-level rules over all of them.
pub fn run(inputs: &[Entry], load: &LoadOptions, options: &CheckOptions<'_>) -> RunOutcome {
    let mut outcome = for_each_source(inputs, load, |source, settings| {
        check_with(source, settings, options)
    });
    check_project(&mut outcome.files, options);
    outcome
}

/// Runs the project-level rules (`equivalent-variants`) over checked files, adding their
/// diagnostics to the file each belongs to, and frees what the files kept for them.
pub fn check_project(files: &mut [FileOutcome], options: &CheckOptions<'_>) {
    if files.iter().all(|f| f.variants_severity.is_none()) {
        return;
    }
    let found = {
        let inputs: Vec<(&str, &[Variant])> = files
            .iter()
            .map(|f| (f.path.as_str(), f.variants.as_slice()))
            .collect();
        equivalence::group(&inputs, Severity::Info)
    };
    let mut per_file: Vec<Vec<Diagnostic>> = vec![Vec::new(); files.len()];
    for (i, mut d) in found {
        // Each file's configuration decides the severity of what is reported in it.
        if let Some(severity) = files[i].variants_severity {
            d.severity = severity;
            per_file[i].push(d);
        }
    }
    for (file, mut added) in files.iter_mut().zip(per_file) {
        file.variants = Vec::new();
        if let Some(baseline) = options.baseline {
            file.baselined += baseline.filter(&file.path, &mut added);
        }
        if added.is_empty() {
            continue;
        }
        if let Some(render) = options.render_project {
            file.rendered.push_str(&render(&file.path, &added));
        }
        file.diagnostics.extend(added);
        sort(&mut file.diagnostics);
    }
}

fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.start.text_offset, a.end.text_offset, a.rule).cmp(&(
            b.start.text_offset,
            b.end.text_offset,
            b.rule,
        ))
    });
}

fn load_input(entry: &Entry, options: &LoadOptions) -> Result<Loaded, NotLoaded> {
    let configured = entry.settings.format;
    let (display, bytes, format, explicit) = match &entry.input {
        Input::Stdin => {
            let display = options.stdin_filename.clone().unwrap_or_else(|| "-".into());
            let format = options
                .input_format
                .or(configured)
                .or_else(|| Format::from_path(Path::new(&display)))
                .unwrap_or(Format::Text);
            let mut bytes = Vec::new();
            if let Err(e) = std::io::stdin().lock().read_to_end(&mut bytes) {
                return Err(NotLoaded::Failed(FileError {
                    path: display,
                    message: format!("cannot read standard input: {}", describe_io_error(&e)),
                }));
            }
            (display, bytes, format, true)
        }
        Input::File { path, explicit } => {
            let display = path.display().to_string();
            let bytes = match std::fs::read(path) {
                Ok(bytes) => bytes,
                Err(e) => {
                    return Err(NotLoaded::Failed(FileError {
                        message: format!("cannot read file: {}", describe_io_error(&e)),
                        path: display,
                    }));
                }
            };
            let forced = if *explicit {
                options.input_format
            } else {
                None
            };
            let format = forced
                .or(configured)
                .or_else(|| Format::for_file(path, &bytes))
                .unwrap_or(Format::Text);
            (display, bytes, format, *explicit)
        }
    };
    Source::decode(display.clone(), format, &bytes)
        .map_err(|NotText::Binary { nul_at }| {
            NotLoaded::Skipped(explicit.then(|| FileError {
                path: display,
                message: format!("skipped: binary file (NUL byte at offset {nul_at})"),
            }))
        })
        .map(|source| Loaded {
            source,
            bytes,
            path: match &entry.input {
                Input::File { path, .. } => Some(path.clone()),
                Input::Stdin => None,
            },
        })
}

/// Extracts and checks one decoded document with `options.selection` and no configuration.
pub fn check_source(source: &Source, options: &CheckOptions<'_>) -> FileOutcome {
    let settings = FileSettings {
        selection: options.selection.clone(),
        ..FileSettings::default()
    };
    check_with(source, &settings, options)
}

/// Extracts and checks one decoded document with its configuration's `settings`.
pub fn check_with(
    source: &Source,
    settings: &FileSettings,
    options: &CheckOptions<'_>,
) -> FileOutcome {
    let selection = &settings.selection;
    let extraction = extract::extract(source);
    let mut diagnostics = Vec::new();
    let variants_severity = selection.severity_of(EQUIVALENT_VARIANTS.id);
    let mut variants = Vec::new();
    let mut allowed = 0;
    for occ in &extraction.occurrences {
        if !settings.allow.is_empty() && settings.allows(&occ.iri) {
            allowed += 1;
            continue;
        }
        let parsed = iri::analyze(&occ.iri);
        for finding in rules::check_occurrence(source, occ, &parsed, selection) {
            diagnostics.push(Diagnostic::new(source, occ, finding));
        }
        if variants_severity.is_some() && equivalence::takes_part(&parsed) {
            let span = occ.map.source_range();
            // Spelled as §3.1 step 1b reads it out of a legacy encoding.
            let as_read = rules::legacy_nfc(source, occ);
            variants.push(equivalence::variant(
                &occ.iri,
                &parsed,
                as_read,
                Location::of(source, span.start),
                Location::of(source, span.end),
            ));
        }
    }
    let document_problems = rules::check_document(source, selection);
    for problem in extraction.problems.iter().chain(&document_problems) {
        if let Some(severity) = selection.severity_of(problem.rule) {
            diagnostics.push(Diagnostic::from_problem(source, problem, severity));
        }
    }
    sort(&mut diagnostics);
    let baselined = options
        .baseline
        .map_or(0, |b| b.filter(&source.path, &mut diagnostics));
    let rendered = options
        .render
        .map(|render| render(source, &diagnostics))
        .unwrap_or_default();
    FileOutcome {
        path: source.path.clone(),
        diagnostics,
        iris: extraction.occurrences.len(),
        allowed,
        baselined,
        variants_severity,
        rendered,
        variants,
        fixes: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreadable_file_is_reported_and_the_run_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.txt");
        std::fs::write(&good, "http://a/\u{202E}\n").unwrap();
        let inputs = [dir.path().join("vanished.txt"), good].map(|path| Entry {
            input: Input::File {
                path,
                explicit: false,
            },
            settings: Default::default(),
        });
        let selection = Selection::default();
        let options = CheckOptions {
            selection: &selection,
            render: None,
            render_project: None,
            baseline: None,
        };
        let outcome = run(&inputs, &LoadOptions::default(), &options);
        assert_eq!(outcome.files.len(), 1);
        assert_eq!(outcome.files[0].diagnostics.len(), 1);
        assert_eq!(outcome.errors.len(), 1);
        assert!(outcome.errors[0].path.ends_with("vanished.txt"));
        assert_eq!(
            outcome.errors[0].message,
            "cannot read file: no such file or directory"
        );
    }
}
