//! The conversions and the comparison ladder on any two strings (RFC 3987 §3.1, §3.2, §5.3):
//!
//! - `normalize` is idempotent at every level; `compare` is reflexive and symmetric, and what
//!   a level equates, every level above it equates too;
//! - `to_uri` gives a URI, and is idempotent;
//! - for a URI, `to_iri` gives an IRI that is safe to display, whose URI is the same URI up to
//!   the differences §3.2 allows (hex case, encoded unreserved characters), and converting back
//!   and forth again gives the same IRI.
#![no_main]

use irilint::iri::chars::is_unsafe_to_display;
use irilint::iri::compare::{Level, equivalent, normalize};
use irilint::iri::{Hosts, parse, to_iri, to_uri};
use libfuzzer_sys::fuzz_target;

const LEVELS: [Level; 3] = [Level::Simple, Level::Syntax, Level::Scheme];

fuzz_target!(|pair: (&str, &str)| {
    let (a, b) = pair;
    for s in [a, b] {
        for level in LEVELS {
            let once = normalize(s, level);
            assert_eq!(normalize(&once, level), once, "{level:?} not idempotent");
            assert!(equivalent(s, s, level), "{level:?} not reflexive");
        }
        conversions(s);
    }
    let mut below = false;
    for level in LEVELS {
        let same = equivalent(a, b, level);
        assert_eq!(same, equivalent(b, a, level), "{level:?} not symmetric");
        assert!(same || !below, "{level:?} separates what the level below equates");
        below = same;
    }
});

fn conversions(s: &str) {
    for hosts in [Hosts::PercentEncode, Hosts::ToAscii] {
        if let Ok(u) = to_uri(s, hosts) {
            assert!(is_uri(&u), "to-uri gave {u:?}");
            assert_eq!(to_uri(&u, hosts).as_deref(), Ok(u.as_str()), "to-uri not idempotent");
        }
    }
    if !is_uri(s) {
        return;
    }
    let iri = to_iri(s).expect("a URI has an IRI");
    assert!(parse(&iri).is_ok(), "to-iri gave {iri:?}");
    assert!(!iri.chars().any(is_unsafe_to_display), "to-iri gave {iri:?}");
    let back = to_uri(&iri, Hosts::PercentEncode).expect("an IRI has a URI");
    assert_eq!(canonical_uri(&back), canonical_uri(s), "via {iri:?}");
    assert_eq!(to_iri(&back).as_deref(), Ok(iri.as_str()), "via {back:?}");
}

fn is_uri(s: &str) -> bool {
    s.is_ascii() && parse(s).is_ok()
}

/// `s` with the hex digits of percent-encodings uppercase and encoded unreserved ASCII decoded:
/// the differences RFC 3987 §3.2 allows between a URI and the URI of its IRI.
fn canonical_uri(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let hex = (b[i] == b'%' && i + 2 < b.len())
            .then(|| u8::from_str_radix(&s[i + 1..i + 3], 16).ok())
            .flatten();
        match hex {
            Some(v) if v.is_ascii_alphanumeric() || b"-._~".contains(&v) => out.push(char::from(v)),
            Some(_) => out.push_str(&s[i..i + 3].to_ascii_uppercase()),
            None => {
                out.push(char::from(b[i]));
                i += 1;
                continue;
            }
        }
        i += 3;
    }
    out
}
