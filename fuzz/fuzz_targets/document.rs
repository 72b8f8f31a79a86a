//! Any bytes, as any format, through decoding, extraction and every rule: no panic, every span
//! on character boundaries inside the text.
#![no_main]

use irilint::check::{CheckOptions, check_source};
use irilint::rules::Selection;
use libfuzzer_sys::fuzz_target;

mod input;

fuzz_target!(|data: &[u8]| {
    let Some((_, _, source)) = input::document(data) else {
        return;
    };
    let all = Selection::all();
    let options = CheckOptions::new(&all);
    let outcome = check_source(&source, &options);
    for d in &outcome.diagnostics {
        let (s, e) = (d.start.text_offset, d.end.text_offset);
        assert!(s <= e && e <= source.text.len());
        assert!(source.text.is_char_boundary(s) && source.text.is_char_boundary(e));
    }
});
