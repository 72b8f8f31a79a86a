//! One document checked as a run checks it, its JSON report written to nowhere: what the memory
//! tests measure.

use irilint::check::{CheckOptions, FileOutcome, RunOutcome, check_source};
use irilint::report::json;
use irilint::rules::Selection;
use irilint::source::{Format, Source};

/// Checks `doc` as file `name` in `format` with every rule but the project-level
/// `equivalent-variants`, writes the JSON report, and gives the file's outcome.
pub fn check_and_report(name: &str, format: Format, doc: &str) -> FileOutcome {
    check_bytes_and_report(name, format, doc.as_bytes())
}

/// [`check_and_report`] of a file's bytes, in whatever encoding.
pub fn check_bytes_and_report(name: &str, format: Format, doc: &[u8]) -> FileOutcome {
    let source = Source::decode(name.into(), format, doc).unwrap();
    let selection = Selection::from_selectors(&["ALL"], &[], &["equivalent-variants"]).unwrap();
    let options = CheckOptions::new(&selection);
    let outcome = RunOutcome {
        files: vec![check_source(&source, &options)],
        ..RunOutcome::default()
    };
    json::write(&outcome, &mut std::io::sink()).unwrap();
    outcome.files.into_iter().next().unwrap()
}
