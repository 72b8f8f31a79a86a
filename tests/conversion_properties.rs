//! Property tests for IRI→URI (RFC 3987 §3.1), URI→IRI (§3.2) and the comparison ladder (§5.3).
//!
//! - `to_uri` is idempotent, the identity on URIs, and always yields a URI.
//! - `to_iri` of a URI is an IRI reference, never holds a character unsafe to display, maps
//!   back to the URI except for hex case and decoded unreserved characters (§3.2's promise), and
//!   gives the same IRI again from that URI.
//! - `normalize` is idempotent at every level, keeps IRIs IRIs, returns anything else unchanged,
//!   and gives an IRI and its URI the same normal form (§5.3.2.3 aligns them that way).
//!
//! The generators build references piece by piece from units chosen to hit the interesting
//! cases: percent-encoded UTF-8 of bidi, invisible, combining and look-alike characters, of
//! reserved and unreserved ASCII, legacy and overlong octets, both hex cases, raw non-ASCII
//! text, Unicode, punycode and fullwidth hosts, dot segments and ports.

use irilint::iri::chars::is_unsafe_to_display;
use irilint::iri::{Hosts, Level, analyze, normalize, parse, to_iri, to_uri};
use proptest::prelude::*;
use proptest::sample::select;

/// Percent-encodes `s` as UTF-8, in lowercase or uppercase hex.
fn encoded(s: &str, lower: bool) -> String {
    s.bytes()
        .map(|b| {
            if lower {
                format!("%{b:02x}")
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Characters whose percent-encoded UTF-8 (and raw form) exercise conversion and comparison.
const INTERESTING: &[&str] = &[
    "é",
    "日本",
    "ü",
    "e\u{301}",
    "\u{301}",
    "\u{338}",
    "\u{202E}",
    "\u{200F}",
    "\u{2066}",
    "\u{200B}",
    "\u{200D}",
    "\u{FEFF}",
    "\u{A0}",
    "\u{2028}",
    "\u{37E}",
    "\u{212A}",
    "\u{212B}",
    "\u{FF21}",
    "\u{FF0F}",
    "\u{2215}",
    "\u{1D41A}",
    "😀",
    "ノ",
    "ש",
    "\u{F900}",
];

/// Octets that are not strictly legal UTF-8, or are ASCII that stays encoded.
const OCTETS: &[&str] = &[
    "%FC",
    "%fc",
    "%E9",
    "%C0%AF",
    "%c0%af",
    "%ED%A0%80",
    "%F4%90%80%80",
    "%E2%80",
    "%80",
    "%FF",
    "%C2%85",
    "%C2%9B",
    "%EE%80%80",
    "%EF%B7%90",
    "%F3%A0%81%81",
    "%2F",
    "%2f",
    "%3F",
    "%23",
    "%25",
    "%20",
    "%3C",
    "%7F",
    "%00",
    "%1B",
    "%2E",
    "%2e",
    "%41",
    "%7e",
    "%5F",
    "%3A",
    "%3D",
    "%26",
    "%40",
];

/// One unit of a URI's path, query or fragment (ASCII only).
fn uri_unit() -> BoxedStrategy<String> {
    prop_oneof![
        3 => select(vec!["a", "B", "z9", "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "*",
                         "+", ",", ";", "=", ":", "@"])
            .prop_map(str::to_owned),
        2 => select(OCTETS.to_vec()).prop_map(str::to_owned),
        3 => (select(INTERESTING.to_vec()), any::<bool>()).prop_map(|(s, l)| encoded(s, l)),
    ]
    .boxed()
}

/// One unit of an IRI's path, query or fragment: a URI unit or raw non-ASCII text.
fn iri_unit() -> BoxedStrategy<String> {
    prop_oneof![
        3 => uri_unit(),
        2 => select(INTERESTING.to_vec()).prop_map(str::to_owned),
    ]
    .boxed()
}

fn segment(unit: fn() -> BoxedStrategy<String>) -> BoxedStrategy<String> {
    prop_oneof![
        1 => select(vec![".", "..", "%2E%2E", "%2e", ""]).prop_map(str::to_owned),
        4 => prop::collection::vec(unit(), 0..4).prop_map(|v| v.concat()),
    ]
    .boxed()
}

/// Hosts: ASCII names in mixed case, percent-encoded and raw IDNs, punycode, fullwidth, IPs.
fn host(iri: bool) -> BoxedStrategy<String> {
    let mut hosts = vec![
        "example.com",
        "EXAMPLE.Com",
        "a",
        "",
        "xn--rsum-bpad.example.org",
        "XN--99ZT52A.example",
        "r%C3%A9sum%C3%A9.example",
        "r%c3%a9sum%c3%a9.example",
        "b%C3%BCcher",
        "%E2%80%AE.example",
        "a_b.example",
        "127.0.0.1",
        "1.2.3.04",
        "[::1]",
        "[2001:DB8::A]",
        "[v1.X]",
        "xn--.example",
        "-a.example",
    ];
    if iri {
        hosts.extend([
            "résumé.example.org",
            "RÉSUMÉ.example",
            "納豆.example.org",
            "例え.テスト",
            "\u{FF25}\u{FF38}\u{FF21}\u{FF2D}\u{FF30}\u{FF2C}\u{FF25}.com",
            "bu\u{308}cher",
            "a\u{200D}b",
            "ex\u{202E}ample",
            "\u{212A}.example",
        ]);
    }
    select(hosts).prop_map(str::to_owned).boxed()
}

/// A reference built from a scheme, an authority, path segments, a query and a fragment.
fn reference(iri: bool) -> BoxedStrategy<String> {
    let unit: fn() -> BoxedStrategy<String> = if iri { iri_unit } else { uri_unit };
    let scheme = select(vec![
        "", "http:", "HTTPS:", "ftp:", "ws:", "wss:", "foo:", "urn:", "mailto:",
    ]);
    let authority = prop::option::of((
        prop::option::of(prop::collection::vec(unit(), 0..3).prop_map(|v| v.concat())),
        host(iri),
        prop::option::of(select(vec!["", "80", "080", "443", "21", "8080", "0"])),
    ));
    let path = (any::<bool>(), prop::collection::vec(segment(unit), 0..5));
    let query = prop::option::of(prop::collection::vec(
        prop_oneof![4 => unit(), 1 => Just("/".to_owned()), 1 => Just("?".to_owned())],
        0..4,
    ));
    let fragment = prop::option::of(prop::collection::vec(unit(), 0..3));
    (scheme, authority, path, query, fragment)
        .prop_map(|(scheme, authority, (rooted, segments), query, fragment)| {
            let mut s = scheme.to_owned();
            let has_authority = authority.is_some();
            if let Some((userinfo, host, port)) = authority {
                s.push_str("//");
                if let Some(u) = userinfo {
                    s.push_str(&u);
                    s.push('@');
                }
                s.push_str(&host);
                if let Some(p) = port {
                    s.push(':');
                    s.push_str(p);
                }
            }
            let path = segments.join("/");
            if (rooted || has_authority) && !segments.is_empty() {
                s.push('/');
            }
            s.push_str(&path);
            if let Some(q) = query {
                s.push('?');
                s.push_str(&q.concat());
            }
            if let Some(f) = fragment {
                s.push('#');
                s.push_str(&f.concat());
            }
            s
        })
        .boxed()
}

/// Generated references that are valid URI references (most are; the rest are filtered).
fn uri() -> impl Strategy<Value = String> {
    reference(false).prop_filter("a URI reference", |s| parse(s).is_ok())
}

/// Generated references that are valid IRI references.
fn iri() -> impl Strategy<Value = String> {
    reference(true).prop_filter("an IRI reference", |s| parse(s).is_ok())
}

/// Anything: generated references (valid or not), with the ASCII URIs exclude sprinkled in.
fn anything() -> impl Strategy<Value = String> {
    prop_oneof![
        reference(true),
        (
            reference(true),
            select(vec![
                " ", "<", "\"", "{", "|", "\\", "^", "`", "%", "[", "#"
            ])
        )
            .prop_map(|(s, c)| format!("{s}{c}x")),
        "\\PC{0,12}",
    ]
}

/// `s` with the hex digits of percent-encodings uppercase and encoded unreserved ASCII decoded:
/// the differences §3.2 allows between a URI and the URI of its IRI.
fn canonical_uri(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = &s[i + 1..i + 3];
            let v = u8::from_str_radix(hex, 16).unwrap();
            if v.is_ascii_alphanumeric() || b"-._~".contains(&v) {
                out.push(char::from(v));
            } else {
                out.push('%');
                out.push_str(&hex.to_ascii_uppercase());
            }
            i += 3;
        } else {
            out.push(char::from(b[i]));
            i += 1;
        }
    }
    out
}

fn is_uri(s: &str) -> bool {
    s.is_ascii() && parse(s).is_ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(768))]

    #[test]
    fn to_uri_is_the_identity_on_uris(u in uri()) {
        prop_assert_eq!(to_uri(&u, Hosts::PercentEncode), Ok(u.clone()));
        prop_assert_eq!(to_uri(&u, Hosts::ToAscii), Ok(u.clone()));
    }

    #[test]
    fn to_uri_is_idempotent_and_yields_uris(s in anything()) {
        for hosts in [Hosts::PercentEncode, Hosts::ToAscii] {
            if let Ok(u) = to_uri(&s, hosts) {
                prop_assert!(is_uri(&u), "{} -> {}", s, u);
                prop_assert_eq!(to_uri(&u, hosts), Ok(u.clone()));
            }
        }
        // Every valid IRI has a URI without IDNA.
        if parse(&s).is_ok() {
            prop_assert!(to_uri(&s, Hosts::PercentEncode).is_ok(), "{}", s);
        }
    }

    #[test]
    fn to_iri_gives_an_iri_that_maps_back(u in uri()) {
        let i = to_iri(&u).unwrap();
        prop_assert!(parse(&i).is_ok(), "{} -> {}", u, i);
        prop_assert!(!i.chars().any(is_unsafe_to_display), "{} -> {:?}", u, i);
        let back = to_uri(&i, Hosts::PercentEncode).unwrap();
        prop_assert_eq!(canonical_uri(&back), canonical_uri(&u), "via {}", i);
    }

    #[test]
    fn to_iri_is_stable_through_the_uri_of_its_result(u in uri()) {
        // Converting back and forth again decodes exactly the same characters.
        let i = to_iri(&u).unwrap();
        let again = to_uri(&i, Hosts::PercentEncode).unwrap();
        prop_assert_eq!(to_iri(&again), Ok(i), "via {}", again);
    }

    #[test]
    fn normalize_is_idempotent_at_every_level(s in anything()) {
        for level in Level::ALL {
            let n = normalize(&s, level);
            prop_assert_eq!(&normalize(&n, level), &n, "{:?} of {:?}", level, s);
            if parse(&s).is_ok() {
                prop_assert!(parse(&n).is_ok(), "{:?} of {:?} is {:?}", level, s, n);
            } else {
                prop_assert_eq!(&n, &s);
            }
        }
    }

    #[test]
    fn normal_forms_are_safe_to_display(s in iri()) {
        for level in [Level::Syntax, Level::Scheme] {
            let n = normalize(&s, level);
            prop_assert!(!n.chars().any(is_unsafe_to_display), "{:?} of {:?} is {:?}", level, s, n);
        }
    }

    #[test]
    fn an_iri_and_its_uri_have_one_normal_form(s in iri()) {
        let u = to_uri(&s, Hosts::PercentEncode).unwrap();
        for level in [Level::Syntax, Level::Scheme] {
            prop_assert_eq!(normalize(&u, level), normalize(&s, level), "{:?} via {}", level, u);
        }
        if let Ok(a) = to_uri(&s, Hosts::ToAscii) {
            prop_assert_eq!(normalize(&a, Level::Scheme), normalize(&s, Level::Scheme), "via {}", a);
        }
    }

    #[test]
    fn each_level_equates_at_least_what_the_one_below_does(s in iri()) {
        // Normalizing at a level, then at the level above, is normalizing at the level above: so
        // two IRIs with one normal form below have one above too (the ladder of §5.3).
        for pair in Level::ALL.windows(2) {
            let (below, above) = (pair[0], pair[1]);
            let via = normalize(&normalize(&s, below), above);
            prop_assert_eq!(&via, &normalize(&s, above), "{:?} then {:?} of {}", below, above, s);
        }
    }
}

#[test]
fn generators_reach_the_interesting_cases() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut seen = [false; 6];
    for _ in 0..2000 {
        let s = reference(true).new_tree(&mut runner).unwrap().current();
        let parsed = analyze(&s);
        seen[0] |= parsed.is_valid();
        seen[1] |= !parsed.is_valid();
        seen[2] |= s.contains("%E2%80%AE") || s.contains("%e2%80%ae");
        seen[3] |= s.contains("/../") || s.contains("/./");
        seen[4] |= s.contains(":80");
        seen[5] |= s.contains("xn--") && s.starts_with("http");
    }
    assert_eq!(seen, [true; 6]);
}
