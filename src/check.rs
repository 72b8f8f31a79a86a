//! `irilint check`: every input read, decoded, extracted and checked, in parallel, with the
//! results in input order.

use std::io::Read;
use std::path::Path;

use rayon::prelude::*;

use crate::diagnostic::Diagnostic;
use crate::extract;
use crate::rules::{self, Selection};
use crate::source::{Format, NotText, Source};
use crate::walk::{FileError, Input, describe_io_error};

/// Renders one file's diagnostics while its source is still in memory.
pub type Render<'a> = &'a (dyn Fn(&Source, &[Diagnostic]) -> String + Sync);

/// What a check run needs besides the inputs.
pub struct CheckOptions<'a> {
    /// The rules that run.
    pub selection: &'a Selection,
    /// Forces the format of named files and standard input.
    pub input_format: Option<Format>,
    /// Name (and format, by extension) of standard input.
    pub stdin_filename: Option<String>,
    /// Renders one file's diagnostics while its source is still in memory (human output).
    pub render: Option<Render<'a>>,
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
    /// The rendered report for it, if a renderer was given.
    pub rendered: String,
}

/// The result of a run.
#[derive(Debug, Default)]
pub struct RunOutcome {
    /// Files checked, in input order.
    pub files: Vec<FileOutcome>,
    /// Files that could not be read.
    pub errors: Vec<FileError>,
    /// Named files skipped because they are binary, with the reason.
    pub skipped: Vec<FileError>,
}

enum Loaded {
    Checked(FileOutcome),
    /// Binary; named files carry the reason, walked ones are left out silently (as ripgrep does).
    Skipped(Option<FileError>),
    Failed(FileError),
}

/// Checks every input; never stops early.
pub fn run(inputs: &[Input], options: &CheckOptions<'_>) -> RunOutcome {
    let loaded: Vec<Loaded> = inputs.par_iter().map(|i| check_input(i, options)).collect();
    let mut outcome = RunOutcome::default();
    for l in loaded {
        match l {
            Loaded::Checked(f) => outcome.files.push(f),
            Loaded::Skipped(e) => outcome.skipped.extend(e),
            Loaded::Failed(e) => outcome.errors.push(e),
        }
    }
    outcome
}

fn check_input(input: &Input, options: &CheckOptions<'_>) -> Loaded {
    let (display, bytes, format, explicit) = match input {
        Input::Stdin => {
            let display = options.stdin_filename.clone().unwrap_or_else(|| "-".into());
            let format = options
                .input_format
                .or_else(|| Format::from_path(Path::new(&display)))
                .unwrap_or(Format::Text);
            let mut bytes = Vec::new();
            if let Err(e) = std::io::stdin().lock().read_to_end(&mut bytes) {
                return Loaded::Failed(FileError {
                    path: display,
                    message: format!("cannot read standard input: {}", describe_io_error(&e)),
                });
            }
            (display, bytes, format, true)
        }
        Input::File { path, explicit } => {
            let display = path.display().to_string();
            let format = if *explicit {
                options.input_format.or_else(|| Format::from_path(path))
            } else {
                Format::from_path(path)
            }
            .unwrap_or(Format::Text);
            match std::fs::read(path) {
                Ok(bytes) => (display, bytes, format, *explicit),
                Err(e) => {
                    return Loaded::Failed(FileError {
                        message: format!("cannot read file: {}", describe_io_error(&e)),
                        path: display,
                    });
                }
            }
        }
    };
    match Source::decode(display, format, &bytes) {
        Ok(source) => Loaded::Checked(check_source(&source, options)),
        Err(NotText::Binary { nul_at }) => Loaded::Skipped(explicit.then(|| FileError {
            path: match input {
                Input::Stdin => options.stdin_filename.clone().unwrap_or_else(|| "-".into()),
                Input::File { path, .. } => path.display().to_string(),
            },
            message: format!("skipped: binary file (NUL byte at offset {nul_at})"),
        })),
    }
}

/// Extracts and checks one decoded document.
pub fn check_source(source: &Source, options: &CheckOptions<'_>) -> FileOutcome {
    let occurrences = extract::extract(source);
    let mut diagnostics = Vec::new();
    for occ in &occurrences {
        for finding in rules::check(&occ.iri, options.selection) {
            diagnostics.push(Diagnostic::new(source, occ, finding));
        }
    }
    diagnostics.sort_by(|a, b| {
        (a.start.text_offset, a.end.text_offset, a.rule).cmp(&(
            b.start.text_offset,
            b.end.text_offset,
            b.rule,
        ))
    });
    let rendered = options
        .render
        .map(|render| render(source, &diagnostics))
        .unwrap_or_default();
    FileOutcome {
        path: source.path.clone(),
        diagnostics,
        iris: occurrences.len(),
        rendered,
    }
}
