//! Any bytes, as any format, fixed with unsafe fixes too: the result still decodes, and a
//! second fix changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod input;

fuzz_target!(|data: &[u8]| {
    input::check_fix(data);
});
