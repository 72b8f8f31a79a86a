//! One document checked as a run checks it, its JSON report written to nowhere: what the memory
//! tests measure.

use irilint::check::{CheckOptions, FileOutcome, RunOutcome, check_source};
use irilint::report::json;
use irilint::rules::Selection;
use irilint::source::{Format, Source};

/// Checks `doc` as file `name` in `format` with every rule but the project-level
/// `equivalent-variants`, writes the JSON report, and gives the file's outcome.
pub fn check_and_report(name: &str, format: Format, doc: &str) -> FileOutcome {
    let source = Source::decode(name.into(), format, doc.as_bytes()).unwrap();
    check_and_report_source(&source)
}

/// [`check_and_report`] of a file's bytes, in whatever encoding, handed over as the command
/// line hands over the bytes it read (without `--fix`): a test that passes a copy made in what
/// it measures counts the file as a run does.
pub fn check_bytes_and_report(name: &str, format: Format, doc: Vec<u8>) -> FileOutcome {
    check_text_and_report(name, format, doc).expect("a text, not a binary file")
}

/// [`check_bytes_and_report`], or `None` for bytes that are no text (binary: a NUL in the first
/// 8 KiB), which a run skips.
pub fn check_text_and_report(name: &str, format: Format, doc: Vec<u8>) -> Option<FileOutcome> {
    let source = Source::decode_owned(name.into(), format, doc).ok()?;
    Some(check_and_report_source(&source))
}

fn check_and_report_source(source: &Source) -> FileOutcome {
    let selection = Selection::from_selectors(&["ALL"], &[], &["equivalent-variants"]).unwrap();
    let options = CheckOptions::new(&selection);
    let outcome = RunOutcome {
        files: vec![check_source(source, &options)],
        ..RunOutcome::default()
    };
    json::write(&outcome, &mut std::io::sink()).unwrap();
    outcome.files.into_iter().next().unwrap()
}

/// Checks a file's `small` and `large` versions as [`check_bytes_and_report`] does (each copied
/// as it is measured, as a run reads it) and adds to
/// `failed` what breaks the memory bound: a peak over twice the large file and 40 MB, or more
/// than `most` bytes more at the peak per byte more of the file. Gives the large one's outcome.
pub fn check_growth(
    name: &str,
    format: Format,
    sizes: (Vec<u8>, Vec<u8>),
    most: f64,
    failed: &mut Vec<String>,
) -> FileOutcome {
    check_growth_of_text(name, format, sizes, 1.0, most, failed)
}

/// [`check_growth`] of a file whose text is `text_per_byte` times its size (a file in another
/// encoding): the bound is twice the text and 40 MB.
pub fn check_growth_of_text(
    name: &str,
    format: Format,
    (small, large): (Vec<u8>, Vec<u8>),
    text_per_byte: f64,
    most: f64,
    failed: &mut Vec<String>,
) -> FileOutcome {
    use super::counting::cost_of;
    let size = large.len();
    let growth = size - small.len();
    // Copied inside, as a run reads the file: its bytes count.
    let ((small_peak, _), _) = cost_of(|| check_bytes_and_report(name, format, small.clone()));
    let ((peak, _), file) = cost_of(|| check_bytes_and_report(name, format, large.clone()));
    if peak as f64 > 2.0 * text_per_byte * size as f64 + (40 << 20) as f64 {
        failed.push(format!(
            "{name}: peak {} MB for a {} MB file",
            peak >> 20,
            size >> 20
        ));
    }
    let per_byte = peak.saturating_sub(small_peak) as f64 / growth as f64;
    eprintln!(
        "{name}: peak {} MB, {per_byte:.2} bytes per byte",
        peak >> 20
    );
    if per_byte > most {
        failed.push(format!(
            "{name}: {per_byte:.1} bytes more at the peak per byte more of the file"
        ));
    }
    file
}

/// Writes `bytes` as the file `name` in `dir` and checks it as `irilint check` does (read
/// from disk, a package opened and read a part at a time) with `selection`.
pub fn run_file(
    dir: &std::path::Path,
    name: &str,
    bytes: &[u8],
    selection: &Selection,
) -> irilint::check::RunOutcome {
    use irilint::check::LoadOptions;
    use irilint::config::FileSettings;
    use irilint::walk::{Entry, Input};
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let entry = Entry {
        input: Input::File {
            path,
            explicit: true,
        },
        settings: std::sync::Arc::new(FileSettings {
            selection: selection.clone(),
            ..FileSettings::default()
        }),
    };
    let options = CheckOptions::new(selection);
    irilint::check::run(&[entry], &LoadOptions::default(), &options)
}
