//! Inputs the fuzz targets (`fuzz/`) once failed on, kept and run through the same properties
//! in the normal suite. `tests/data/fuzz/<target>/` holds them as libFuzzer wrote them: the
//! first byte picks the format, the rest is the file.
//!
//! - `fix/timeout-70c5286d…`: an HTML page declaring windows-1251 with hundreds of fixes that
//!   each applied alone but not together. Every pass re-read the document once per fix and
//!   applied one: minutes for 50 KB. Now a pass finds the longest prefix of fixes that applies
//!   by halving, and the page is fixed in one run.
//! - `document/timeout-a2b0fff9…`: a page whose suppression comments named a long unknown rule;
//!   the closest rule id was looked for by an edit distance with every id, character by
//!   character. Ids whose length differs by more than the distance allowed are now skipped.
//! - `document/crash-ws-e-acute-N` (N picks each format): `ws:é`, a two-letter scheme and a
//!   two-byte character, made the plain-text scanner test the IRI's first four bytes for
//!   `www.` as a string and panic on the character boundary. Found by a proptest of the
//!   scanner, not by the fuzzers: `ws:` is now in their dictionary.

use std::path::Path;

// The fuzz targets' own properties, so that a regression is checked exactly as it was found.
#[path = "../fuzz/fuzz_targets/input.rs"]
mod input;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(target);
    let mut found: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("regression inputs")
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(path).unwrap())
        })
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no inputs for {target}");
    found
}

#[test]
fn fix_regressions_still_decode_and_a_second_fix_changes_nothing() {
    for (name, data) in inputs("fix") {
        assert!(input::document(&data).is_some(), "{name} is a document");
        assert!(input::check_fix(&data) > 0, "{name}: some fixes apply");
    }
}

#[test]
fn document_regressions_are_checked_with_spans_inside_the_text() {
    for (name, data) in inputs("document") {
        assert!(input::document(&data).is_some(), "{name} is a document");
        input::check_document(&data);
    }
}
