//! What the document targets share, and what `tests/fuzz_regressions.rs` runs on the inputs
//! they once failed on: the first byte picks the format, the rest is the file.

use irilint::check::{CheckOptions, Loaded, check_source};
use irilint::config::FileSettings;
use irilint::fix::run::fixed;
use irilint::fix::{FixOptions, FixOutput};
use irilint::rules::Selection;
use irilint::source::{Format, Source};

/// The format and bytes `data` stands for, and the bytes decoded (`None`: empty or binary).
pub fn document(data: &[u8]) -> Option<(Format, &[u8], Source)> {
    let (&which, bytes) = data.split_first()?;
    let format = Format::ALL[usize::from(which) % Format::ALL.len()];
    let source = Source::decode("fuzz".into(), format, bytes).ok()?;
    Some((format, bytes, source))
}

/// Decoding, extraction and every rule: no panic, every span on character boundaries inside
/// the text.
#[allow(dead_code)] // each target uses one of the properties
pub fn check_document(data: &[u8]) {
    let Some((_, _, source)) = document(data) else {
        return;
    };
    let all = Selection::all();
    let outcome = check_source(&source, &CheckOptions::new(&all));
    let text = &source.text;
    for d in &outcome.diagnostics {
        let (s, e) = (d.start.text_offset, d.end.text_offset);
        assert!(s <= e && e <= text.len(), "{} {s}..{e}", d.rule);
        assert!(
            text.is_char_boundary(s) && text.is_char_boundary(e),
            "{}",
            d.rule
        );
    }
}

/// Fixing with unsafe fixes too: the result still decodes, and a second fix changes nothing.
/// Returns how many fixes the first run applied.
#[allow(dead_code)] // each target uses one of the properties
pub fn check_fix(data: &[u8]) -> usize {
    let Some((format, bytes, source)) = document(data) else {
        return 0;
    };
    let settings = FileSettings {
        selection: Selection::all(),
        ..FileSettings::default()
    };
    let options = CheckOptions::new(&settings.selection);
    let fix = FixOptions {
        unsafe_fixes: true,
        output: FixOutput::Diff,
    };
    let loaded = Loaded::from_stdin(source, bytes).expect("a temporary file");
    let once = fixed(loaded, &settings, &options, fix);
    let applied = once.applied;
    let mut version = once.version;
    let once_bytes = version.bytes().expect("the fixed document's bytes");
    let Ok(again) = Source::decode("fuzz".into(), format, &once_bytes) else {
        panic!("the fixed document no longer decodes");
    };
    let reloaded = Loaded::from_stdin(again, &once_bytes).expect("a temporary file");
    let twice = fixed(reloaded, &settings, &options, fix);
    assert_eq!(twice.applied, 0, "a second fix applied more");
    let mut version = twice.version;
    let twice_bytes = version.bytes().expect("the fixed document's bytes");
    assert_eq!(twice_bytes, once_bytes, "a second fix changed the document");
    applied
}
