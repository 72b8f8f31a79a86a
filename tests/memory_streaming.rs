//! Findings do not pile up: a file lists at most `MAX_LISTED` findings and counts the rest, and
//! a run's report is written file by file as the files are checked (`check::run_ordered`),
//! never holding every file's findings. Peak live bytes are measured by a counting allocator.
//!
//! Before: 200,000 findings in a 3.4 MB file took 190 MB as JSON and 240 MB as SARIF, and 400
//! files of 1,000 findings each (7.9 MB) 357 MB, all of it held until the report was written.

mod common;

use common::counting::{Counting, peak_of};
use irilint::check::{self, CheckOptions, LoadOptions, MAX_LISTED, Run, check_source};
use irilint::report::place::Places;
use irilint::report::{Summary, json, junit};
use irilint::rules::Selection;
use irilint::source::{Format, Source};
use irilint::walk::{Entry, Input};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const LINE: &str = "http://a.org/\u{202E}\n";

#[test]
fn findings_are_bounded_per_file_and_streamed_across_files() {
    // One file of 300,000 IRIs, each with a finding: 5.1 MB.
    let doc = LINE.repeat(300_000);
    let (peak, (listed, unlisted, errors)) = peak_of(|| {
        let source = Source::decode("doc.txt".into(), Format::Text, doc.as_bytes()).unwrap();
        let selection = Selection::default();
        let file = check_source(&source, &CheckOptions::new(&selection));
        let errors = file.counts().0;
        let unlisted: usize = file.unlisted.iter().map(|u| u.2).sum();
        let outcome = check::RunOutcome {
            files: vec![file],
            ..Default::default()
        };
        json::write(&outcome, &mut std::io::sink()).unwrap();
        (outcome.files[0].diagnostics.len(), unlisted, errors)
    });
    let limit = 2 * doc.len() + 16 * 1024 * 1024;
    assert!(peak <= limit, "one file: peak {peak} > {limit}");
    let shown = MAX_LISTED.min(300_000);
    assert_eq!(
        (listed, unlisted, errors),
        (shown, 300_000 - shown, 300_000)
    );

    // 300 files of 1,000 findings each, checked and reported in order by two threads.
    let dir = tempfile::tempdir().unwrap();
    let file = LINE.repeat(1000);
    let inputs = files(dir.path(), "f", 300, &file);
    let (peak, (summary, unread)) = report(&inputs, 2, Report::Json);
    assert_eq!((summary.files, summary.errors), (300, 300_000));
    assert!(unread.errors.is_empty());
    // Held all at once, 300,000 diagnostics take hundreds of megabytes.
    let limit = 2 * file.len() + 40 * 1024 * 1024;
    assert!(peak <= limit, "300 files: peak {peak} > {limit}");

    // The same as JUnit, whose head counts the cases: they wait in a temporary file, not in
    // memory (before, JUnit gathered every file: 300,000 diagnostics).
    let (peak, (summary, _)) = report(&inputs, 2, Report::Junit);
    assert_eq!((summary.files, summary.errors), (300, 300_000));
    assert!(peak <= limit, "300 files as JUnit: peak {peak} > {limit}");

    // Four files of 10 MB on four threads: checked one at a time, since two do not fit in
    // `IN_FLIGHT_BUDGET` (before, all four were read and checked at once: 4 × 10 MB).
    let big = "Plain prose, with http://a.org/ a link now and then.\n".repeat(200_000);
    let inputs = files(dir.path(), "big", 4, &big);
    let (peak, (summary, _)) = report(&inputs, 4, Report::Json);
    assert_eq!(summary.files, 4);
    assert!(big.len() as u64 > check::IN_FLIGHT_BUDGET / 2);
    let limit = 2 * big.len() + 8 * 1024 * 1024;
    assert!(
        peak <= limit,
        "4 big files on 4 threads: peak {peak} > {limit}"
    );
}

/// `n` files named `{prefix}NNN.txt` in `dir`, each holding `text`, as walked inputs.
fn files(dir: &std::path::Path, prefix: &str, n: usize, text: &str) -> Vec<Entry> {
    (0..n)
        .map(|i| {
            let path = dir.join(format!("{prefix}{i:03}.txt"));
            std::fs::write(&path, text).unwrap();
            Entry {
                input: Input::File {
                    path,
                    explicit: false,
                },
                settings: Default::default(),
            }
        })
        .collect()
}

/// The report formats the test writes.
#[derive(Clone, Copy)]
enum Report {
    Json,
    Junit,
}

/// The peak of checking `inputs` on `threads` threads and writing their report as it goes, and
/// what the run returns.
fn report(inputs: &[Entry], threads: usize, format: Report) -> (usize, (Summary, Run<()>)) {
    let selection = Selection::default();
    let options = CheckOptions::new(&selection);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    peak_of(|| {
        pool.install(|| {
            check::run_ordered(
                inputs,
                Run::default(),
                &LoadOptions::default(),
                &options,
                &|_| {},
                |files| {
                    let unread = files.unread();
                    let out = &mut std::io::sink();
                    match format {
                        Report::Json => json::write_files(files, unread, out),
                        Report::Junit => {
                            junit::write_files(files, unread, &Places::current(), false, out)
                        }
                    }
                    .unwrap()
                },
            )
        })
    })
}
