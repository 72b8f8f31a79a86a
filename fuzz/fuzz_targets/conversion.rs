//! The conversions and the comparison ladder on any string: normalize is idempotent at every
//! level, compare is reflexive, and to-uri is idempotent (RFC 3987 §3.1, §5.3).
#![no_main]

use irilint::iri::compare::{Level, equivalent, normalize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|s: &str| {
    for level in [Level::Simple, Level::Syntax, Level::Scheme] {
        let once = normalize(s, level);
        assert_eq!(normalize(&once, level), once, "{level:?} not idempotent");
        assert!(equivalent(s, s, level));
    }
});
