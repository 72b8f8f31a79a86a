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
    let source = Source::decode_owned(name.into(), format, doc).unwrap();
    check_and_report_source(&source)
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
