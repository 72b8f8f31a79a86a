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

use std::path::Path;

use irilint::check::{CheckOptions, Loaded, check_source};
use irilint::config::FileSettings;
use irilint::fix::run::fixed;
use irilint::fix::{FixOptions, FixOutput};
use irilint::rules::Selection;
use irilint::source::{Format, Source};

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
    found
}

/// The fuzz targets' reading of an input: the first byte picks the format.
fn document(data: &[u8]) -> Option<(Format, &[u8], Source)> {
    let (&which, bytes) = data.split_first()?;
    let format = Format::ALL[usize::from(which) % Format::ALL.len()];
    let source = Source::decode("fuzz".into(), format, bytes).ok()?;
    Some((format, bytes, source))
}

#[test]
fn fix_regressions_still_decode_and_a_second_fix_changes_nothing() {
    let cases = inputs("fix");
    assert!(!cases.is_empty());
    for (name, data) in cases {
        let (format, bytes, source) = document(&data).expect("a document");
        let settings = FileSettings {
            selection: Selection::all(),
            ..FileSettings::default()
        };
        let options = CheckOptions::new(&settings.selection);
        let fix = FixOptions {
            unsafe_fixes: true,
            output: FixOutput::Diff,
        };
        let loaded = Loaded {
            source,
            bytes: bytes.to_vec(),
            path: None,
        };
        let once = fixed(&loaded, &settings, &options, fix);
        assert!(once.applied > 0, "{name}: some fixes apply");
        let again = Source::decode("fuzz".into(), format, &once.bytes)
            .unwrap_or_else(|_| panic!("{name}: the fixed document no longer decodes"));
        let reloaded = Loaded {
            source: again,
            bytes: once.bytes.clone(),
            path: None,
        };
        let twice = fixed(&reloaded, &settings, &options, fix);
        assert_eq!(twice.applied, 0, "{name}: a second fix applied more");
        assert_eq!(
            twice.bytes, once.bytes,
            "{name}: a second fix changed the document"
        );
    }
}

#[test]
fn document_regressions_are_checked_with_spans_inside_the_text() {
    let cases = inputs("document");
    assert!(!cases.is_empty());
    for (name, data) in cases {
        let (_, _, source) = document(&data).expect("a document");
        let all = Selection::all();
        let outcome = check_source(&source, &CheckOptions::new(&all));
        let text = &source.text;
        for d in &outcome.diagnostics {
            let (s, e) = (d.start.text_offset, d.end.text_offset);
            assert!(s <= e && e <= text.len(), "{name}: {} {s}..{e}", d.rule);
            assert!(
                text.is_char_boundary(s) && text.is_char_boundary(e),
                "{name}: {}",
                d.rule
            );
        }
    }
}
