//! Any text as a configuration file (irilint.toml and pyproject.toml): an error with a span
//! inside the text, never a panic.
#![no_main]

use std::path::Path;
use std::sync::Arc;

use irilint::config::file::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = parse(Path::new("/fuzz/irilint.toml"), Arc::from(text), false);
    let _ = parse(Path::new("/fuzz/pyproject.toml"), Arc::from(text), true);
});
