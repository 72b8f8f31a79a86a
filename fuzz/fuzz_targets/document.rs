//! Any bytes, as any format, through decoding, extraction and every rule: no panic, every span
//! on character boundaries inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod input;

fuzz_target!(|data: &[u8]| input::check_document(data));
