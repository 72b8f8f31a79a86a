//! PDF: any bytes read as a PDF's links, within the bounds of a file of their size; never a
//! panic, never more actions than the bound allows, and each action's document checked as a
//! run checks it.

#![no_main]

use irilint::check::{CheckOptions, check_source};
use irilint::extract::pdf::{Limits, each_link_source};
use irilint::rules::Selection;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits::for_len(data.len());
    let selection = Selection::all();
    let options = CheckOptions::new(&selection);
    let mut handed = 0;
    let _ = each_link_source("f.pdf", data, &mut |source| {
        handed += 1;
        assert!(source.path.starts_with("f.pdf!page "));
        let _ = check_source(&source, &options);
    });
    assert!(handed <= limits.links);
});
