//! Any bytes, as any format, through decoding, extraction and every rule: no panic, every span
//! on character boundaries inside the text.
#![no_main]

use irilint::check::{CheckOptions, check_source};
use irilint::rules::Selection;
use irilint::source::{Format, Source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, bytes)) = data.split_first() else {
        return;
    };
    let format = Format::ALL[usize::from(which) % Format::ALL.len()];
    let Ok(source) = Source::decode("fuzz".into(), format, bytes) else {
        return;
    };
    let all = Selection::all();
    let options = CheckOptions {
        selection: &all,
        baseline: None,
        render: None,
        render_project: None,
    };
    let outcome = check_source(&source, &options);
    for d in &outcome.diagnostics {
        let (s, e) = (d.start.text_offset, d.end.text_offset);
        assert!(s <= e && e <= source.text.len());
        assert!(source.text.is_char_boundary(s) && source.text.is_char_boundary(e));
    }
});
