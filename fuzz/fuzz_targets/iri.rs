//! Any string through the RFC 3987 parser and every rule on its own.
#![no_main]

use irilint::rules::{self, Selection};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|s: &str| {
    let parsed = irilint::iri::analyze(s);
    for f in rules::check_parsed(s, &parsed, &Selection::all()) {
        assert!(f.range.start <= f.range.end && f.range.end <= s.len());
        assert!(s.is_char_boundary(f.range.start) && s.is_char_boundary(f.range.end));
    }
});
