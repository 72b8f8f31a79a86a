//! Any bytes, as any format, fixed with unsafe fixes too: the result still decodes, and a
//! second fix changes nothing.
#![no_main]

use irilint::check::{CheckOptions, Loaded};
use irilint::config::FileSettings;
use irilint::fix::run::fixed;
use irilint::fix::{FixOptions, FixOutput};
use irilint::rules::Selection;
use irilint::source::Source;
use libfuzzer_sys::fuzz_target;

mod input;

fuzz_target!(|data: &[u8]| {
    let Some((format, bytes, source)) = input::document(data) else {
        return;
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
    let loaded = Loaded {
        source,
        bytes: bytes.to_vec(),
        path: None,
    };
    let once = fixed(&loaded, &settings, &options, fix);
    let Ok(again) = Source::decode("fuzz".into(), format, &once.bytes) else {
        panic!("the fixed document no longer decodes");
    };
    let reloaded = Loaded {
        source: again,
        bytes: once.bytes.clone(),
        path: None,
    };
    let twice = fixed(&reloaded, &settings, &options, fix);
    assert_eq!(twice.bytes, once.bytes, "a second fix changed the document");
});
