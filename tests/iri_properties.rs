//! Property tests for the RFC 3987 IRI parser.
//!
//! - `analyze` and `parse` never panic, on arbitrary strings and on strings biased towards the
//!   delimiters `:/?#[]@%`, hex digits and a few non-ASCII characters.
//! - The component ranges `analyze` returns tile the input exactly, for every input.
//! - Whatever `parse` accepts tiles too and has no issues; issue ranges are sorted and in bounds.
//! - Generated valid IRI-references (built production by production) are accepted with exactly
//!   the generated components.
//! - Differential: validity agrees with an independent, deliberately naive ABNF recognizer
//!   (`grammar` below: every rule returns the set of positions where it can end) on random,
//!   delimiter-heavy and mutated-valid inputs.
//! - Inserting a character that is never allowed into a valid IRI-reference makes it invalid with
//!   an issue at that character; a private-use character is allowed only inside the query.

use std::ops::Range;

use irilint::iri::{Component, HostKind, Iri, IssueKind, Kind, analyze, parse};
use proptest::prelude::*;
use proptest::sample::select;

// ---------------------------------------------------------------------------------------------
// An independent recognizer for RFC 3987 §2.2 (on RFC 3986), straight from the ABNF
// ---------------------------------------------------------------------------------------------

mod grammar {
    type Ends = Vec<usize>;

    fn norm(mut v: Ends) -> Ends {
        v.sort_unstable();
        v.dedup();
        v
    }

    fn alpha(c: char) -> bool {
        c.is_ascii_alphabetic()
    }
    fn digit(c: char) -> bool {
        c.is_ascii_digit()
    }
    fn hexdig(c: char) -> bool {
        c.is_ascii_hexdigit()
    }
    fn unreserved(c: char) -> bool {
        alpha(c) || digit(c) || "-._~".contains(c)
    }
    fn sub_delim(c: char) -> bool {
        "!$&'()*+,;=".contains(c)
    }
    fn ucschar(c: char) -> bool {
        let u = c as u32;
        [
            (0xA0, 0xD7FF),
            (0xF900, 0xFDCF),
            (0xFDF0, 0xFFEF),
            (0x10000, 0x1FFFD),
            (0x20000, 0x2FFFD),
            (0x30000, 0x3FFFD),
            (0x40000, 0x4FFFD),
            (0x50000, 0x5FFFD),
            (0x60000, 0x6FFFD),
            (0x70000, 0x7FFFD),
            (0x80000, 0x8FFFD),
            (0x90000, 0x9FFFD),
            (0xA0000, 0xAFFFD),
            (0xB0000, 0xBFFFD),
            (0xC0000, 0xCFFFD),
            (0xD0000, 0xDFFFD),
            (0xE1000, 0xEFFFD),
        ]
        .iter()
        .any(|&(a, b)| (a..=b).contains(&u))
    }
    pub fn iprivate(c: char) -> bool {
        let u = c as u32;
        (0xE000..=0xF8FF).contains(&u)
            || (0xF0000..=0xFFFFD).contains(&u)
            || (0x100000..=0x10FFFD).contains(&u)
    }
    fn iunreserved(c: char) -> bool {
        unreserved(c) || ucschar(c)
    }

    struct G<'a> {
        s: &'a [char],
    }

    impl G<'_> {
        fn is(&self, i: usize, f: impl Fn(char) -> bool) -> Option<usize> {
            self.s.get(i).filter(|&&c| f(c)).map(|_| i + 1)
        }
        fn lit(&self, i: usize, c: char) -> Option<usize> {
            self.is(i, |x| x == c)
        }
        fn pct(&self, i: usize) -> Option<usize> {
            let j = self.lit(i, '%')?;
            let j = self.is(j, hexdig)?;
            self.is(j, hexdig)
        }
        /// Zero or more of a deterministic unit (a character class or pct-encoded).
        fn star(&self, i: usize, unit: impl Fn(usize) -> Option<usize>) -> Ends {
            let mut v = vec![i];
            let mut p = i;
            while let Some(e) = unit(p) {
                v.push(e);
                p = e;
            }
            v
        }
        fn plus(&self, i: usize, unit: impl Fn(usize) -> Option<usize>) -> Ends {
            let mut v = self.star(i, unit);
            v.remove(0);
            v
        }
        fn then(&self, a: Ends, f: impl Fn(usize) -> Ends) -> Ends {
            norm(a.into_iter().flat_map(f).collect())
        }
        fn then_lit(&self, a: Ends, c: char) -> Ends {
            a.into_iter().filter_map(|p| self.lit(p, c)).collect()
        }
        /// `[ c rule ]`
        fn opt_lit(&self, a: Ends, c: char, f: impl Fn(usize) -> Ends) -> Ends {
            let more = self.then(self.then_lit(a.clone(), c), f);
            norm(a.into_iter().chain(more).collect())
        }

        fn class_unit(&self, i: usize, extra: &str, private: bool) -> Option<usize> {
            self.pct(i).or_else(|| {
                self.is(i, |c| {
                    iunreserved(c) || sub_delim(c) || extra.contains(c) || (private && iprivate(c))
                })
            })
        }

        // --- scheme, authority
        fn scheme(&self, i: usize) -> Ends {
            match self.is(i, alpha) {
                None => vec![],
                Some(j) => self.star(j, |p| {
                    self.is(p, |c| alpha(c) || digit(c) || "+-.".contains(c))
                }),
            }
        }
        fn iuserinfo(&self, i: usize) -> Ends {
            self.star(i, |p| self.class_unit(p, ":", false))
        }
        fn ireg_name(&self, i: usize) -> Ends {
            self.star(i, |p| self.class_unit(p, "", false))
        }
        fn port(&self, i: usize) -> Ends {
            self.star(i, |p| self.is(p, digit))
        }
        fn dec_octet(&self, i: usize) -> Ends {
            let s = self.s;
            let d = |k: usize| s.get(i + k).copied().filter(|c| digit(*c));
            let mut v = vec![];
            if d(0).is_some() {
                v.push(i + 1);
            }
            if let (Some(a), Some(_)) = (d(0), d(1)) {
                if ('1'..='9').contains(&a) {
                    v.push(i + 2);
                }
                if let Some(c) = d(2) {
                    let b = d(1).unwrap();
                    if a == '1'
                        || (a == '2' && ('0'..='4').contains(&b))
                        || (a == '2' && b == '5' && ('0'..='5').contains(&c))
                    {
                        v.push(i + 3);
                    }
                }
            }
            v
        }
        fn ipv4(&self, i: usize) -> Ends {
            let mut a = self.dec_octet(i);
            for _ in 0..3 {
                a = self.then(self.then_lit(a, '.'), |p| self.dec_octet(p));
            }
            a
        }
        fn h16(&self, i: usize) -> Ends {
            let mut v = vec![];
            let mut p = i;
            while v.len() < 4 {
                match self.is(p, hexdig) {
                    Some(e) => {
                        v.push(e);
                        p = e;
                    }
                    None => break,
                }
            }
            v
        }
        fn h16c(&self, i: usize) -> Ends {
            self.then_lit(self.h16(i), ':')
        }
        fn ls32(&self, i: usize) -> Ends {
            let a = self.then(self.h16c(i), |p| self.h16(p));
            norm(a.into_iter().chain(self.ipv4(i)).collect())
        }
        fn rep_h16c(&self, a: Ends, n: usize) -> Ends {
            (0..n).fold(a, |a, _| self.then(a, |p| self.h16c(p)))
        }
        /// `[ *k( h16 ":" ) h16 ] "::"`
        fn prefix(&self, i: usize, k: usize) -> Ends {
            let mut starts = vec![i];
            let mut frontier = vec![i];
            for _ in 0..k {
                frontier = self.then(frontier, |p| self.h16c(p));
                starts.extend(frontier.iter().copied());
            }
            let with_h16 = self.then(norm(starts), |p| self.h16(p));
            let all = norm(std::iter::once(i).chain(with_h16).collect());
            self.then_lit(self.then_lit(all, ':'), ':')
        }
        fn ipv6(&self, i: usize) -> Ends {
            let mut v = vec![];
            // 6( h16 ":" ) ls32
            v.extend(self.then(self.rep_h16c(vec![i], 6), |p| self.ls32(p)));
            // "::" 5( h16 ":" ) ls32
            let dc = self.then_lit(self.then_lit(vec![i], ':'), ':');
            v.extend(self.then(self.rep_h16c(dc, 5), |p| self.ls32(p)));
            // [ *k( h16 ":" ) h16 ] "::" n( h16 ":" ) ls32 for (k, n) = (0,4) (1,3) (2,2)
            for (k, n) in [(0, 4), (1, 3), (2, 2)] {
                let pre = self.prefix(i, k);
                v.extend(self.then(self.rep_h16c(pre, n), |p| self.ls32(p)));
            }
            // [ *3( h16 ":" ) h16 ] "::" h16 ":" ls32
            v.extend(self.then(self.rep_h16c(self.prefix(i, 3), 1), |p| self.ls32(p)));
            // [ *4( h16 ":" ) h16 ] "::" ls32
            v.extend(self.then(self.prefix(i, 4), |p| self.ls32(p)));
            // [ *5( h16 ":" ) h16 ] "::" h16
            v.extend(self.then(self.prefix(i, 5), |p| self.h16(p)));
            // [ *6( h16 ":" ) h16 ] "::"
            v.extend(self.prefix(i, 6));
            norm(v)
        }
        fn ipvfuture(&self, i: usize) -> Ends {
            let Some(j) = self.is(i, |c| c == 'v' || c == 'V') else {
                return vec![];
            };
            let a = self.plus(j, |p| self.is(p, hexdig));
            let a = self.then_lit(a, '.');
            self.then(a, |p| {
                self.plus(p, |q| {
                    self.is(q, |c| unreserved(c) || sub_delim(c) || c == ':')
                })
            })
        }
        fn ip_literal(&self, i: usize) -> Ends {
            let Some(j) = self.lit(i, '[') else {
                return vec![];
            };
            let inner = norm(self.ipv6(j).into_iter().chain(self.ipvfuture(j)).collect());
            self.then_lit(inner, ']')
        }
        fn ihost(&self, i: usize) -> Ends {
            let mut v = self.ip_literal(i);
            v.extend(self.ipv4(i));
            v.extend(self.ireg_name(i));
            norm(v)
        }
        fn iauthority(&self, i: usize) -> Ends {
            let with_user = self.then_lit(self.iuserinfo(i), '@');
            let starts = norm(std::iter::once(i).chain(with_user).collect());
            let hosts = self.then(starts, |p| self.ihost(p));
            self.opt_lit(hosts, ':', |p| self.port(p))
        }

        // --- paths
        fn isegment(&self, i: usize) -> Ends {
            self.star(i, |p| self.class_unit(p, ":@", false))
        }
        fn isegment_nz(&self, i: usize) -> Ends {
            self.plus(i, |p| self.class_unit(p, ":@", false))
        }
        fn isegment_nz_nc(&self, i: usize) -> Ends {
            self.plus(i, |p| self.class_unit(p, "@", false))
        }
        fn ipath_abempty(&self, i: usize) -> Ends {
            let mut all = vec![i];
            let mut k = 0;
            while k < all.len() {
                let p = all[k];
                if let Some(j) = self.lit(p, '/') {
                    for e in self.isegment(j) {
                        if !all.contains(&e) {
                            all.push(e);
                        }
                    }
                }
                k += 1;
            }
            norm(all)
        }
        fn ipath_absolute(&self, i: usize) -> Ends {
            let Some(j) = self.lit(i, '/') else {
                return vec![];
            };
            let more = self.then(self.isegment_nz(j), |p| self.ipath_abempty(p));
            norm(std::iter::once(j).chain(more).collect())
        }
        fn ipath_rootless(&self, i: usize) -> Ends {
            self.then(self.isegment_nz(i), |p| self.ipath_abempty(p))
        }
        fn ipath_noscheme(&self, i: usize) -> Ends {
            self.then(self.isegment_nz_nc(i), |p| self.ipath_abempty(p))
        }
        fn slash_slash_authority_abempty(&self, i: usize) -> Ends {
            let a = self.then_lit(self.then_lit(vec![i], '/'), '/');
            let a = self.then(a, |p| self.iauthority(p));
            self.then(a, |p| self.ipath_abempty(p))
        }

        // --- query, fragment, whole references
        fn iquery(&self, i: usize) -> Ends {
            self.star(i, |p| self.class_unit(p, ":@/?", true))
        }
        fn ifragment(&self, i: usize) -> Ends {
            self.star(i, |p| self.class_unit(p, ":@/?", false))
        }
        fn query_fragment(&self, a: Ends) -> Ends {
            let a = self.opt_lit(a, '?', |p| self.iquery(p));
            self.opt_lit(a, '#', |p| self.ifragment(p))
        }
        fn iri(&self, i: usize) -> Ends {
            let a = self.then_lit(self.scheme(i), ':');
            let hier = self.then(a, |p| {
                let mut v = self.slash_slash_authority_abempty(p);
                v.extend(self.ipath_absolute(p));
                v.extend(self.ipath_rootless(p));
                v.push(p); // ipath-empty
                norm(v)
            });
            self.query_fragment(hier)
        }
        fn irelative_ref(&self, i: usize) -> Ends {
            let mut v = self.slash_slash_authority_abempty(i);
            v.extend(self.ipath_absolute(i));
            v.extend(self.ipath_noscheme(i));
            v.push(i); // ipath-empty
            self.query_fragment(norm(v))
        }
    }

    /// `IRI-reference = IRI / irelative-ref`, matched against the whole string.
    pub fn is_iri_reference(s: &str) -> bool {
        let cs: Vec<char> = s.chars().collect();
        let g = G { s: &cs };
        let n = cs.len();
        g.iri(0).contains(&n) || g.irelative_ref(0).contains(&n)
    }

    pub fn is_ipv4(s: &str) -> bool {
        let cs: Vec<char> = s.chars().collect();
        G { s: &cs }.ipv4(0).contains(&cs.len())
    }

    /// RFC 3986 Appendix B: `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`, as byte
    /// ranges (scheme, authority, path, query, fragment). Unambiguous for valid references.
    #[allow(clippy::type_complexity)]
    pub fn appendix_b(
        s: &str,
    ) -> (
        Option<std::ops::Range<usize>>,
        Option<std::ops::Range<usize>>,
        std::ops::Range<usize>,
        Option<std::ops::Range<usize>>,
        Option<std::ops::Range<usize>>,
    ) {
        let b = s.as_bytes();
        let mut pos = 0;
        let mut scheme = None;
        let e = b.iter().position(|c| b":/?#".contains(c));
        if let Some(e) = e
            && e > 0
            && b[e] == b':'
        {
            scheme = Some(0..e);
            pos = e + 1;
        }
        let mut authority = None;
        if b[pos..].starts_with(b"//") {
            let st = pos + 2;
            let end = b[st..]
                .iter()
                .position(|c| b"/?#".contains(c))
                .map_or(b.len(), |k| st + k);
            authority = Some(st..end);
            pos = end;
        }
        let pend = b[pos..]
            .iter()
            .position(|c| b"?#".contains(c))
            .map_or(b.len(), |k| pos + k);
        let path = pos..pend;
        pos = pend;
        let mut query = None;
        if b.get(pos) == Some(&b'?') {
            let end = b[pos..]
                .iter()
                .position(|&c| c == b'#')
                .map_or(b.len(), |k| pos + k);
            query = Some(pos + 1..end);
            pos = end;
        }
        let fragment = (b.get(pos) == Some(&b'#')).then(|| pos + 1..b.len());
        (scheme, authority, path, query, fragment)
    }
}

#[test]
fn reference_grammar_sanity() {
    // The reference recognizer itself, on a few decisive cases.
    for s in [
        "",
        "#",
        "?",
        "http://a/?",
        "http:///x",
        "a:b",
        "./this:that",
        "http://[::1]:80/p?q#f",
        "http://[v1.x]",
        "http://[1:2:3:4:5:6:1.2.3.4]",
        "http://[1:2:3:4:5:6:7::]",
        "http://[::]",
        "http://[1::]",
        "http://[::1:2:3:4:5:6:7]",
        "http://256.1.1.1/",
        "?\u{E000}",
        "http://example.com?#frag",
    ] {
        assert!(grammar::is_iri_reference(s), "{s:?}");
    }
    for s in [
        "1:b",
        ":",
        "http://[::1",
        "http://[1:2:3:4:5:6:7:8:9]",
        "http://[1:2:3:4:5:6:7::8]",
        "http://[::1:2:3:4:5:6:7:8]",
        "http://[::ffff:1.2.3.04]",
        "#\u{E000}",
        "a b",
        "%",
        "http://h:x/",
        "#a#b",
        "http://[v1.]",
    ] {
        assert!(!grammar::is_iri_reference(s), "{s:?}");
    }
    assert!(grammar::is_ipv4("255.0.10.199"));
    assert!(!grammar::is_ipv4("256.0.10.199"));
    assert!(!grammar::is_ipv4("01.0.10.199"));
}

// ---------------------------------------------------------------------------------------------
// Strategies: noise
// ---------------------------------------------------------------------------------------------

const ODD_CHARS: &[char] = &[
    ' ',
    '<',
    '"',
    '\\',
    '^',
    '`',
    '{',
    '|',
    '\t',
    '\n',
    '\u{0}',
    '\u{7F}',
    '\u{85}',
    '\u{9F}',
    '\u{A0}',
    '\u{E9}',
    '\u{202E}',
    '\u{D7FF}',
    '\u{E000}',
    '\u{F8FF}',
    '\u{F900}',
    '\u{FDCF}',
    '\u{FDD0}',
    '\u{FDEF}',
    '\u{FDF0}',
    '\u{FFEF}',
    '\u{FFF0}',
    '\u{FFFD}',
    '\u{FFFE}',
    '\u{10000}',
    '\u{1FFFD}',
    '\u{1FFFE}',
    '\u{E0001}',
    '\u{E0FFF}',
    '\u{E1000}',
    '\u{EFFFD}',
    '\u{EFFFE}',
    '\u{F0000}',
    '\u{FFFFD}',
    '\u{FFFFE}',
    '\u{10FFFD}',
    '\u{10FFFF}',
    '\u{1F600}',
];

/// Characters biased towards delimiters, hex digits and a few non-ASCII characters.
fn delim_char() -> impl Strategy<Value = char> {
    prop_oneof![
        5 => select(vec![':', '/', '?', '#', '[', ']', '@', '%']),
        4 => select("0123456789abcdefABCDEFvV.".chars().collect::<Vec<_>>()),
        2 => select("-_~!$&'()*+,;=xgGz".chars().collect::<Vec<_>>()),
        2 => select(ODD_CHARS.to_vec()),
    ]
}

fn delim_string() -> impl Strategy<Value = String> {
    prop::collection::vec(delim_char(), 0..40).prop_map(|v| v.into_iter().collect())
}

/// Concatenations of IRI-ish pieces: near-IRIs with structure.
fn noisy_string() -> impl Strategy<Value = String> {
    let pieces = vec![
        "http:",
        "a:",
        "1:",
        ":",
        "//",
        "/",
        "?",
        "#",
        "@",
        "[",
        "]",
        "[::1]",
        "[v1.x]",
        "::",
        "1.2.3.4",
        "256.1.1.1",
        ":80",
        ":",
        "%",
        "%4",
        "%41",
        "%zz",
        "a",
        "b.c",
        "\u{E9}",
        " ",
        "\t",
        "\u{E000}",
        "\u{FFFE}",
        "..",
        ".",
        "=",
        "&",
        ";",
        "ffff:",
        "1:2:3:4:5:6:7:8",
        "v",
        "V1.",
        "\u{10FFFD}",
        "\u{85}",
        "x",
        "",
    ];
    prop::collection::vec(select(pieces), 0..12).prop_map(|v| v.concat())
}

// ---------------------------------------------------------------------------------------------
// Strategies: valid IRI-references built production by production
// ---------------------------------------------------------------------------------------------

fn ucschar() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => select(vec![
            '\u{E9}', '\u{DF}', '\u{3C0}', '\u{4E2D}', '\u{6587}', '\u{A0}', '\u{D7FF}', '\u{F900}',
            '\u{FDCF}', '\u{FDF0}', '\u{FEFF}', '\u{FFEF}', '\u{10000}', '\u{1FFFD}', '\u{E1000}',
            '\u{EFFFD}', '\u{202E}', '\u{1F600}', '\u{5D0}',
        ]),
        1 => (1u32..=13, 0u32..=0xFFFD).prop_map(|(plane, low)| char::from_u32((plane << 16) | low).unwrap()),
        1 => proptest::char::range('\u{A0}', '\u{D7FF}'),
        1 => proptest::char::range('\u{E1000}', '\u{EFFFD}'),
    ]
}

fn iprivate_char() -> impl Strategy<Value = char> {
    prop_oneof![
        proptest::char::range('\u{E000}', '\u{F8FF}'),
        proptest::char::range('\u{F0000}', '\u{FFFFD}'),
        proptest::char::range('\u{100000}', '\u{10FFFD}'),
    ]
}

fn hexdig() -> impl Strategy<Value = char> {
    select("0123456789abcdefABCDEF".chars().collect::<Vec<_>>())
}

fn pct() -> impl Strategy<Value = String> {
    (hexdig(), hexdig()).prop_map(|(a, b)| format!("%{a}{b}"))
}

/// One unit of `*( iunreserved / pct-encoded / sub-delims / extra [/ iprivate] )`.
fn unit(extra: &'static str, private: bool) -> BoxedStrategy<String> {
    let mut ascii: Vec<char> = "aAzZmq0159-._~!$&'()*+,;=".chars().collect();
    ascii.extend(extra.chars());
    let base = prop_oneof![
        8 => select(ascii).prop_map(String::from),
        3 => select("0123456789.".chars().collect::<Vec<_>>()).prop_map(String::from),
        2 => pct(),
        2 => ucschar().prop_map(String::from),
    ];
    if private {
        prop_oneof![9 => base, 2 => iprivate_char().prop_map(String::from)].boxed()
    } else {
        base.boxed()
    }
}

fn units(extra: &'static str, private: bool, len: Range<usize>) -> BoxedStrategy<String> {
    prop::collection::vec(unit(extra, private), len)
        .prop_map(|v| v.concat())
        .boxed()
}

fn ipv4() -> impl Strategy<Value = String> {
    any::<[u8; 4]>().prop_map(|[a, b, c, d]| format!("{a}.{b}.{c}.{d}"))
}

/// Any IPv6address: eight groups, an optional "::" run, an optional IPv4 ls32, mixed case and
/// optional zero padding.
fn ipv6() -> impl Strategy<Value = String> {
    (
        any::<[u16; 8]>(),
        any::<[u8; 8]>(),
        prop::option::of((0usize..8, 1usize..=8)),
        any::<bool>(),
        any::<[u8; 4]>(),
    )
        .prop_map(|(groups, styles, compress, want_v4, v4)| {
            let fmt = |k: usize| match styles[k] % 4 {
                0 => format!("{:x}", groups[k]),
                1 => format!("{:X}", groups[k]),
                2 => format!("{:04x}", groups[k]),
                _ => format!("{:x}", groups[k] & 0xF),
            };
            let compress = compress.map(|(start, len)| (start, len.min(8 - start)));
            let v4_ok = match compress {
                None => true,
                Some((start, len)) => start + len <= 6,
            };
            let use_v4 = want_v4 && v4_ok;
            let token = |k: usize| -> Option<String> {
                if use_v4 && k == 6 {
                    Some(format!("{}.{}.{}.{}", v4[0], v4[1], v4[2], v4[3]))
                } else if use_v4 && k == 7 {
                    None
                } else {
                    Some(fmt(k))
                }
            };
            match compress {
                None => (0..8).filter_map(token).collect::<Vec<_>>().join(":"),
                Some((start, len)) => {
                    let before: Vec<String> = (0..start).filter_map(token).collect();
                    let after: Vec<String> = (start + len..8).filter_map(token).collect();
                    format!("{}::{}", before.join(":"), after.join(":"))
                }
            }
        })
}

fn ipvfuture() -> impl Strategy<Value = String> {
    (
        select(vec!['v', 'V']),
        prop::collection::vec(hexdig(), 1..4),
        prop::collection::vec(
            select("aZ09-._~!$&'()*+,;=:".chars().collect::<Vec<_>>()),
            1..8,
        ),
    )
        .prop_map(|(v, hex, rest)| {
            format!(
                "{v}{}.{}",
                hex.into_iter().collect::<String>(),
                rest.into_iter().collect::<String>()
            )
        })
}

#[derive(Debug, Clone)]
struct GenAuth {
    userinfo: Option<String>,
    host: String,
    host_kind: HostKind,
    port: Option<String>,
}

fn host() -> impl Strategy<Value = (String, HostKind)> {
    prop_oneof![
        4 => units("", false, 0..8).prop_map(|h| {
            let kind = if grammar::is_ipv4(&h) { HostKind::Ipv4 } else { HostKind::RegName };
            (h, kind)
        }),
        2 => ipv4().prop_map(|h| (h, HostKind::Ipv4)),
        2 => ipv6().prop_map(|h| (format!("[{h}]"), HostKind::Ipv6)),
        1 => ipvfuture().prop_map(|h| (format!("[{h}]"), HostKind::IpvFuture)),
    ]
}

fn authority() -> impl Strategy<Value = GenAuth> {
    (
        prop::option::of(units(":", false, 0..6)),
        host(),
        prop::option::of("[0-9]{0,5}"),
    )
        .prop_map(|(userinfo, (host, host_kind), port)| GenAuth {
            userinfo,
            host,
            host_kind,
            port,
        })
}

fn segment() -> BoxedStrategy<String> {
    units(":@", false, 0..5)
}

fn rest_segments() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(segment(), 0..3)
}

/// (path, segments) for the context: after an authority, after a scheme, or relative.
fn path(has_scheme: bool, has_authority: bool) -> BoxedStrategy<(String, Vec<String>)> {
    let join = |first: Option<String>, rest: Vec<String>, rooted: bool| {
        let mut segs: Vec<String> = first.into_iter().collect();
        segs.extend(rest);
        let body = segs.join("/");
        let path = if rooted { format!("/{body}") } else { body };
        (path, segs)
    };
    if has_authority {
        // ipath-abempty
        return prop::collection::vec(segment(), 0..4)
            .prop_map(|segs| {
                let path: String = segs.iter().map(|s| format!("/{s}")).collect();
                (path, segs)
            })
            .boxed();
    }
    let empty = Just((String::new(), Vec::new()));
    let absolute =
        prop::option::of((units(":@", false, 1..5), rest_segments())).prop_map(move |o| match o {
            None => ("/".to_string(), vec![String::new()]),
            Some((first, rest)) => join(Some(first), rest, true),
        });
    if has_scheme {
        let rootless = (units(":@", false, 1..5), rest_segments())
            .prop_map(move |(first, rest)| join(Some(first), rest, false));
        prop_oneof![empty, absolute, rootless].boxed()
    } else {
        let noscheme = (units("@", false, 1..5), rest_segments())
            .prop_map(move |(first, rest)| join(Some(first), rest, false));
        prop_oneof![empty, absolute, noscheme].boxed()
    }
}

#[derive(Debug, Clone)]
struct GenIri {
    scheme: Option<String>,
    authority: Option<GenAuth>,
    path: String,
    segments: Vec<String>,
    query: Option<String>,
    fragment: Option<String>,
}

/// The built string and the expected byte ranges of every component.
#[derive(Debug, Clone)]
struct Built {
    s: String,
    gen_iri: GenIri,
    scheme: Option<Range<usize>>,
    userinfo: Option<Range<usize>>,
    host: Option<Range<usize>>,
    port: Option<Range<usize>>,
    path: Range<usize>,
    query: Option<Range<usize>>,
    fragment: Option<Range<usize>>,
}

impl GenIri {
    fn build(&self) -> Built {
        let mut s = String::new();
        let push = |s: &mut String, part: &str| {
            let start = s.len();
            s.push_str(part);
            start..s.len()
        };
        let scheme = self.scheme.as_ref().map(|x| {
            let r = push(&mut s, x);
            s.push(':');
            r
        });
        let (mut userinfo, mut host, mut port) = (None, None, None);
        if let Some(a) = &self.authority {
            s.push_str("//");
            userinfo = a.userinfo.as_ref().map(|u| {
                let r = push(&mut s, u);
                s.push('@');
                r
            });
            host = Some(push(&mut s, &a.host));
            port = a.port.as_ref().map(|p| {
                s.push(':');
                push(&mut s, p)
            });
        }
        let path = push(&mut s, &self.path);
        let query = self.query.as_ref().map(|q| {
            s.push('?');
            push(&mut s, q)
        });
        let fragment = self.fragment.as_ref().map(|f| {
            s.push('#');
            push(&mut s, f)
        });
        Built {
            s,
            gen_iri: self.clone(),
            scheme,
            userinfo,
            host,
            port,
            path,
            query,
            fragment,
        }
    }
}

fn valid_iri() -> impl Strategy<Value = Built> {
    (
        prop::option::of("[a-zA-Z][a-zA-Z0-9+.-]{0,6}"),
        prop::option::of(authority()),
    )
        .prop_flat_map(|(scheme, authority)| {
            let p = path(scheme.is_some(), authority.is_some());
            (
                Just(scheme),
                Just(authority),
                p,
                prop::option::of(units(":@/?", true, 0..6)),
                prop::option::of(units(":@/?", false, 0..6)),
            )
        })
        .prop_map(|(scheme, authority, (path, segments), query, fragment)| {
            GenIri {
                scheme,
                authority,
                path,
                segments,
                query,
                fragment,
            }
            .build()
        })
}

/// A valid IRI-reference with one character inserted, deleted or replaced.
fn mutated_iri() -> impl Strategy<Value = String> {
    (
        valid_iri(),
        any::<prop::sample::Index>(),
        0u8..3,
        delim_char(),
    )
        .prop_map(|(b, idx, op, c)| {
            let mut chars: Vec<char> = b.s.chars().collect();
            let k = idx.index(chars.len() + 1);
            match op {
                0 => chars.insert(k, c),
                1 if k < chars.len() => {
                    chars.remove(k);
                }
                _ if k < chars.len() => chars[k] = c,
                _ => chars.push(c),
            }
            chars.into_iter().collect()
        })
}

/// Every kind of input the invariants are checked on.
fn any_input() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => delim_string(),
        3 => noisy_string(),
        2 => any::<String>(),
        3 => mutated_iri(),
        2 => valid_iri().prop_map(|b| b.s),
    ]
}

// ---------------------------------------------------------------------------------------------
// Invariant checks
// ---------------------------------------------------------------------------------------------

fn on_boundary(s: &str, r: &Range<usize>) -> bool {
    r.start <= r.end && r.end <= s.len() && s.is_char_boundary(r.start) && s.is_char_boundary(r.end)
}

fn all_ranges(s: &str, i: &Iri) -> Vec<Range<usize>> {
    let mut v = vec![i.path.clone()];
    v.extend(i.scheme.clone());
    if let Some(a) = &i.authority {
        v.push(a.range.clone());
        v.extend(a.userinfo.clone());
        v.push(a.host.range.clone());
        v.extend(a.host.labels(s));
        v.extend(a.port.clone());
    }
    v.extend(i.segments(s));
    v.extend(i.query.clone());
    for p in i.query_parts(s) {
        v.push(p.range.clone());
        v.push(p.name.clone());
        v.extend(p.value.clone());
    }
    v.extend(i.fragment.clone());
    v.extend(i.issues.iter().map(|x| x.range.clone()));
    v
}

fn check_boundaries(s: &str, i: &Iri) -> Result<(), TestCaseError> {
    for r in all_ranges(s, i) {
        prop_assert!(
            on_boundary(s, &r),
            "range {:?} of {:?} is not on char boundaries / in bounds",
            r,
            s
        );
    }
    Ok(())
}

/// scheme ":" "//" authority path "?" query "#" fragment reassembles the input.
fn check_top_tiling(s: &str, i: &Iri) -> Result<(), TestCaseError> {
    let mut rebuilt = String::new();
    let mut pos = 0;
    prop_assert_eq!(
        i.kind == Kind::Iri,
        i.scheme.is_some(),
        "kind vs scheme for {:?}",
        s
    );
    if let Some(r) = &i.scheme {
        prop_assert_eq!(r.start, 0);
        prop_assert_eq!(
            s.get(r.end..r.end + 1),
            Some(":"),
            "scheme of {:?} not followed by ':'",
            s
        );
        rebuilt.push_str(&s[r.clone()]);
        rebuilt.push(':');
        pos = r.end + 1;
    }
    if let Some(a) = &i.authority {
        prop_assert_eq!(
            s.get(pos..pos + 2),
            Some("//"),
            "authority of {:?} not after '//'",
            s
        );
        prop_assert_eq!(a.range.start, pos + 2);
        rebuilt.push_str("//");
        rebuilt.push_str(&s[a.range.clone()]);
        pos = a.range.end;
    }
    prop_assert_eq!(i.path.start, pos, "path start of {:?}", s);
    rebuilt.push_str(&s[i.path.clone()]);
    pos = i.path.end;
    if let Some(q) = &i.query {
        prop_assert_eq!(q.start, pos + 1, "query start of {:?}", s);
        prop_assert_eq!(s.get(pos..pos + 1), Some("?"));
        rebuilt.push('?');
        rebuilt.push_str(&s[q.clone()]);
        pos = q.end;
    }
    if let Some(f) = &i.fragment {
        prop_assert_eq!(f.start, pos + 1, "fragment start of {:?}", s);
        prop_assert_eq!(s.get(pos..pos + 1), Some("#"));
        rebuilt.push('#');
        rebuilt.push_str(&s[f.clone()]);
    }
    prop_assert_eq!(rebuilt, s, "components do not reassemble the input");
    Ok(())
}

/// authority = [ userinfo "@" ] host [ ":" port ].
fn check_authority_tiling(s: &str, i: &Iri) -> Result<(), TestCaseError> {
    let Some(a) = &i.authority else {
        return Ok(());
    };
    let mut rebuilt = String::new();
    let mut pos = a.range.start;
    if let Some(u) = &a.userinfo {
        prop_assert_eq!(u.start, pos);
        rebuilt.push_str(&s[u.clone()]);
        rebuilt.push('@');
        pos = u.end + 1;
    }
    prop_assert_eq!(a.host.range.start, pos, "host start in {:?}", s);
    rebuilt.push_str(&s[a.host.range.clone()]);
    pos = a.host.range.end;
    if let Some(p) = &a.port {
        prop_assert_eq!(p.start, pos + 1, "port start in {:?}", s);
        rebuilt.push(':');
        rebuilt.push_str(&s[p.clone()]);
    }
    prop_assert_eq!(
        rebuilt.as_str(),
        &s[a.range.clone()],
        "[userinfo '@'] host [':' port] does not reassemble the authority of {:?}",
        s
    );
    // Labels of a reg-name host tile the host.
    if a.host.kind == Some(HostKind::RegName) {
        let labels: Vec<&str> = a.host.labels(s).map(|r| &s[r]).collect();
        prop_assert_eq!(
            labels.join("."),
            &s[a.host.range.clone()],
            "labels of {:?}",
            s
        );
    }
    Ok(())
}

/// path = segments joined by "/" (with a leading "/" when the path starts with "/").
fn check_segments(s: &str, i: &Iri) -> Result<(), TestCaseError> {
    let path = &s[i.path.clone()];
    let segments: Vec<Range<usize>> = i.segments(s).collect();
    let joined = segments
        .iter()
        .map(|r| &s[r.clone()])
        .collect::<Vec<_>>()
        .join("/");
    let expected = if path.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    };
    prop_assert_eq!(
        expected.as_str(),
        path,
        "segments of {:?}: {:?}",
        s,
        segments
    );
    prop_assert_eq!(
        path.is_empty(),
        segments.is_empty(),
        "an empty path has no segments: {:?}",
        s
    );
    let mut prev = i.path.start;
    for r in &segments {
        prop_assert!(
            r.start >= prev && r.end <= i.path.end,
            "segment {:?} of {:?}",
            r,
            s
        );
        prev = r.end;
    }
    Ok(())
}

/// query = query_parts joined by their '&' / ';' separators; part = name ["=" value].
fn check_query_parts(s: &str, i: &Iri) -> Result<(), TestCaseError> {
    let Some(q) = &i.query else {
        prop_assert!(
            i.query_parts(s).next().is_none(),
            "query parts without a query: {:?}",
            s
        );
        return Ok(());
    };
    if i.query_parts(s).next().is_none() {
        prop_assert!(q.is_empty(), "non-empty query without parts: {:?}", s);
        return Ok(());
    }
    let mut rebuilt = String::new();
    let mut pos = q.start;
    for (k, p) in i.query_parts(s).enumerate() {
        if k > 0 {
            let sep = &s[pos..pos + 1];
            prop_assert!(sep == "&" || sep == ";", "separator {:?} in {:?}", sep, s);
            rebuilt.push_str(sep);
            pos += 1;
        }
        prop_assert_eq!(p.range.start, pos, "part start in {:?}", s);
        let part = &s[p.range.clone()];
        prop_assert!(
            !part.contains(['&', ';']),
            "part {:?} contains a separator",
            part
        );
        prop_assert_eq!(p.name.start, p.range.start);
        match &p.value {
            Some(v) => {
                prop_assert_eq!(&s[p.name.end..v.start], "=");
                prop_assert_eq!(v.end, p.range.end);
                prop_assert!(!s[p.name.clone()].contains('='), "name has '=' in {:?}", s);
            }
            None => {
                prop_assert_eq!(p.name.end, p.range.end);
                prop_assert!(!part.contains('='), "part with '=' but no value in {:?}", s);
            }
        }
        rebuilt.push_str(part);
        pos = p.range.end;
    }
    prop_assert_eq!(pos, q.end);
    prop_assert_eq!(rebuilt.as_str(), &s[q.clone()]);
    Ok(())
}

fn check_issues(s: &str, i: &Iri) -> Result<(), TestCaseError> {
    let mut prev = 0;
    for x in &i.issues {
        prop_assert!(
            x.range.start < x.range.end,
            "empty issue range {:?} in {:?}",
            x.range,
            s
        );
        prop_assert!(
            x.range.end <= s.len(),
            "issue range {:?} beyond {:?}",
            x.range,
            s
        );
        prop_assert!(
            on_boundary(s, &x.range),
            "issue range {:?} not on char boundaries",
            x.range
        );
        prop_assert!(
            x.range.start >= prev,
            "issues not sorted by start in {:?}: {:?}",
            s,
            i.issues
        );
        prop_assert!(!x.message.is_empty());
        prev = x.range.start;
    }
    Ok(())
}

fn check_parse_consistency(s: &str, i: &Iri) -> Result<(), TestCaseError> {
    match parse(s) {
        Ok(p) => {
            prop_assert!(
                i.issues.is_empty(),
                "parse accepted {:?} but analyze found issues",
                s
            );
            prop_assert_eq!(&p, i);
            check_top_tiling(s, &p)?;
            check_authority_tiling(s, &p)?;
            check_segments(s, &p)?;
            check_query_parts(s, &p)?;
            check_boundaries(s, &p)?;
        }
        Err(e) => {
            prop_assert_eq!(Some(e.clone()), i.first_error());
            prop_assert!(
                e.offset < s.len(),
                "error offset {} beyond {:?}",
                e.offset,
                s
            );
            prop_assert!(s.is_char_boundary(e.offset));
        }
    }
    Ok(())
}

/// `cases` per property unless `PROPTEST_CASES` is set; no regression files are written (the
/// named tests at the end of this file keep the interesting cases).
fn cfg(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() {
        default.cases
    } else {
        cases
    };
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..default
    }
}

// ---------------------------------------------------------------------------------------------
// (a) never panics
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(cfg(3000))]

    #[test]
    fn never_panics_on_delimiter_heavy_strings(s in delim_string()) {
        let _ = analyze(&s);
        let _ = parse(&s);
    }

    #[test]
    fn never_panics_on_arbitrary_strings(s in any::<String>()) {
        let _ = analyze(&s);
        let _ = parse(&s);
    }

    #[test]
    fn never_panics_on_noisy_iris(s in noisy_string()) {
        let _ = analyze(&s);
        let _ = parse(&s);
    }

    #[test]
    fn never_panics_on_mutated_iris(s in mutated_iri()) {
        let _ = analyze(&s);
        let _ = parse(&s);
    }
}

// ---------------------------------------------------------------------------------------------
// (b) analyze's ranges tile every input; (d) issues are sorted and in bounds
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(cfg(3000))]

    #[test]
    fn analyze_ranges_are_on_char_boundaries(s in any_input()) {
        check_boundaries(&s, &analyze(&s))?;
    }

    #[test]
    fn analyze_components_tile_the_input(s in any_input()) {
        check_top_tiling(&s, &analyze(&s))?;
    }

    #[test]
    fn analyze_authority_tiles_into_userinfo_host_port(s in any_input()) {
        check_authority_tiling(&s, &analyze(&s))?;
    }

    #[test]
    fn analyze_segments_tile_the_path(s in any_input()) {
        check_segments(&s, &analyze(&s))?;
    }

    #[test]
    fn analyze_query_parts_tile_the_query(s in any_input()) {
        check_query_parts(&s, &analyze(&s))?;
    }

    #[test]
    fn analyze_issues_are_sorted_and_in_bounds(s in any_input()) {
        check_issues(&s, &analyze(&s))?;
    }

    #[test]
    fn analyze_is_deterministic(s in any_input()) {
        prop_assert_eq!(analyze(&s), analyze(&s));
    }
}

// ---------------------------------------------------------------------------------------------
// (c) whatever parse accepts tiles and has no issues; parse is analyze's strict view
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(cfg(3000))]

    #[test]
    fn parse_accepts_only_issue_free_tiled_inputs(s in any_input()) {
        check_parse_consistency(&s, &analyze(&s))?;
    }
}

// ---------------------------------------------------------------------------------------------
// Generated valid IRI-references, the reference grammar, mutations
// ---------------------------------------------------------------------------------------------

fn sl<'a>(s: &'a str, r: &Range<usize>) -> &'a str {
    &s[r.clone()]
}

proptest! {
    #![proptest_config(cfg(3000))]

    #[test]
    fn generated_valid_iris_parse_with_the_generated_components(b in valid_iri()) {
        let s = &b.s;
        prop_assert!(grammar::is_iri_reference(s), "generator bug: {:?} is not valid", s);
        let i = match parse(s) {
            Ok(i) => i,
            Err(e) => return Err(TestCaseError::fail(format!("{s:?} is valid but parse failed: {e:?}"))),
        };
        let g = &b.gen_iri;
        prop_assert_eq!(i.kind, if g.scheme.is_some() { Kind::Iri } else { Kind::Relative });
        prop_assert_eq!(&i.scheme, &b.scheme);
        match (&i.authority, &g.authority) {
            (None, None) => {}
            (Some(a), Some(ga)) => {
                prop_assert_eq!(&a.userinfo, &b.userinfo, "userinfo of {:?}", s);
                prop_assert_eq!(Some(a.host.range.clone()), b.host.clone(), "host of {:?}", s);
                prop_assert_eq!(a.host.kind, Some(ga.host_kind), "host kind of {:?}", s);
                prop_assert_eq!(&a.port, &b.port, "port of {:?}", s);
                if ga.host_kind == HostKind::RegName {
                    let labels: Vec<&str> = a.host.labels(s).map(|r| sl(s, &r)).collect();
                    let expected: Vec<&str> = ga.host.split('.').collect();
                    prop_assert_eq!(labels, expected, "labels of {:?}", s);
                }
            }
            _ => prop_assert!(false, "authority presence differs for {:?}", s),
        }
        prop_assert_eq!(&i.path, &b.path, "path of {:?}", s);
        let segs: Vec<&str> = i.segments(s).map(|r| sl(s, &r)).collect();
        prop_assert_eq!(segs, g.segments.iter().map(String::as_str).collect::<Vec<_>>(), "segments of {:?}", s);
        prop_assert_eq!(&i.query, &b.query, "query of {:?}", s);
        prop_assert_eq!(&i.fragment, &b.fragment, "fragment of {:?}", s);
    }

    #[test]
    fn validity_agrees_with_the_reference_grammar(s in any_input()) {
        let expected = grammar::is_iri_reference(&s);
        let a = analyze(&s);
        prop_assert_eq!(
            a.is_valid(),
            expected,
            "{:?}: grammar says valid={}, analyze issues: {:?}",
            s,
            expected,
            a.issues
        );
    }

    #[test]
    fn valid_references_decompose_as_rfc3986_appendix_b(s in any_input()) {
        if let Ok(i) = parse(&s) {
            let (scheme, authority, path, query, fragment) = grammar::appendix_b(&s);
            prop_assert_eq!(i.scheme.clone(), scheme, "scheme of {:?}", s);
            prop_assert_eq!(i.authority.as_ref().map(|a| a.range.clone()), authority, "authority of {:?}", s);
            prop_assert_eq!(i.path.clone(), path, "path of {:?}", s);
            prop_assert_eq!(i.query.clone(), query, "query of {:?}", s);
            prop_assert_eq!(i.fragment.clone(), fragment, "fragment of {:?}", s);
            if let Some(a) = &i.authority {
                let host = sl(&s, &a.host.range);
                let expected = if host.starts_with("[v") || host.starts_with("[V") {
                    HostKind::IpvFuture
                } else if host.starts_with('[') {
                    HostKind::Ipv6
                } else if grammar::is_ipv4(host) {
                    HostKind::Ipv4
                } else {
                    HostKind::RegName
                };
                prop_assert_eq!(a.host.kind, Some(expected), "host kind of {:?}", s);
            }
        }
    }
}

/// The component a character inserted at byte `p` of a built valid IRI lands in.
fn component_at(b: &Built, p: usize) -> Component {
    let spans = [
        (Component::Scheme, &b.scheme),
        (Component::Userinfo, &b.userinfo),
        (Component::Host, &b.host),
        (Component::Port, &b.port),
        (Component::Path, &Some(b.path.clone())),
        (Component::Query, &b.query),
        (Component::Fragment, &b.fragment),
    ];
    spans
        .iter()
        .find(|(_, r)| r.as_ref().is_some_and(|r| r.start <= p && p <= r.end))
        .map_or(Component::Path, |(c, _)| *c)
}

fn ip_literal(b: &Built) -> Option<Range<usize>> {
    let a = b.gen_iri.authority.as_ref()?;
    matches!(a.host_kind, HostKind::Ipv6 | HostKind::IpvFuture)
        .then(|| b.host.clone())
        .flatten()
}

fn char_starts(s: &str) -> Vec<usize> {
    s.char_indices()
        .map(|(k, _)| k)
        .chain(std::iter::once(s.len()))
        .collect()
}

#[derive(Debug, Clone, Copy)]
enum Never {
    Control(char),
    Unwise(char),
    Other(char),
}

fn never_allowed() -> impl Strategy<Value = Never> {
    prop_oneof![
        select(vec![
            '\u{0}', '\u{1}', '\t', '\n', '\r', '\u{1B}', '\u{7F}', '\u{80}', '\u{85}', '\u{9F}'
        ])
        .prop_map(Never::Control),
        select(vec![' ', '<', '>', '"', '{', '}', '|', '\\', '^', '`']).prop_map(Never::Unwise),
        select(vec![
            '\u{FDD0}',
            '\u{FDEF}',
            '\u{FFF0}',
            '\u{FFF9}',
            '\u{FFFD}',
            '\u{FFFE}',
            '\u{FFFF}',
            '\u{1FFFE}',
            '\u{DFFFF}',
            '\u{E0000}',
            '\u{E0001}',
            '\u{E0FFF}',
            '\u{EFFFE}',
            '\u{FFFFE}',
            '\u{10FFFF}',
        ])
        .prop_map(Never::Other),
    ]
}

proptest! {
    #![proptest_config(cfg(3000))]

    #[test]
    fn a_never_allowed_character_is_reported_where_it_was_inserted(
        b in valid_iri(),
        idx in any::<prop::sample::Index>(),
        never in never_allowed(),
    ) {
        let starts = char_starts(&b.s);
        let p = starts[idx.index(starts.len())];
        let (c, kind) = match never {
            Never::Control(c) => (c, IssueKind::Control),
            Never::Unwise(c) => (c, IssueKind::UnwiseAscii),
            Never::Other(c) => (c, IssueKind::Invalid),
        };
        let mut s = b.s.clone();
        s.insert(p, c);
        let a = analyze(&s);
        prop_assert!(!a.is_valid(), "{:?} must be invalid", s);
        prop_assert!(parse(&s).is_err());
        let inside_literal = ip_literal(&b).is_some_and(|r| r.start < p && p < r.end);
        if !inside_literal {
            let comp = component_at(&b, p);
            let at: Vec<_> = a.issues.iter().filter(|x| x.range.start == p).collect();
            prop_assert!(!at.is_empty(), "{:?}: no issue at the inserted {:?} (byte {}): {:?}", s, c, p, a.issues);
            prop_assert_eq!(at[0].range.end, p + c.len_utf8());
            prop_assert_eq!(at[0].component, comp, "{:?}: component of the issue at byte {}", s, p);
            let literal_host = comp == Component::Host && ip_literal(&b).is_some();
            let kind_checked = match comp {
                Component::Scheme | Component::Port => matches!(never, Never::Control(_)),
                Component::Host => !literal_host,
                _ => true,
            };
            if kind_checked {
                prop_assert_eq!(at[0].kind, kind, "{:?}: kind of the issue at byte {}", s, p);
            }
        }
    }

    #[test]
    fn a_private_use_character_is_allowed_only_in_the_query(
        b in valid_iri(),
        idx in any::<prop::sample::Index>(),
        c in iprivate_char(),
    ) {
        // Not between the '%' and the hex digits of a pct-encoded triplet.
        let starts: Vec<usize> = char_starts(&b.s)
            .into_iter()
            .filter(|&k| {
                let bytes = b.s.as_bytes();
                !((k >= 1 && bytes[k - 1] == b'%') || (k >= 2 && bytes[k - 2] == b'%'))
            })
            .collect();
        let p = starts[idx.index(starts.len())];
        let mut s = b.s.clone();
        s.insert(p, c);
        let comp = component_at(&b, p);
        let inside_literal = ip_literal(&b).is_some_and(|r| r.start < p && p < r.end);
        let a = analyze(&s);
        if comp == Component::Query {
            prop_assert!(a.is_valid(), "{:?}: private use in the query is allowed: {:?}", s, a.issues);
        } else {
            prop_assert!(!a.is_valid(), "{:?}: private use outside the query", s);
            if !inside_literal {
                let at: Vec<_> = a.issues.iter().filter(|x| x.range.start == p).collect();
                prop_assert!(!at.is_empty(), "{:?}: no issue at byte {}: {:?}", s, p, a.issues);
                prop_assert_eq!(at[0].component, comp);
                let literal_host = comp == Component::Host && ip_literal(&b).is_some();
                if matches!(comp, Component::Userinfo | Component::Path | Component::Fragment)
                    || (comp == Component::Host && !literal_host)
                {
                    prop_assert_eq!(at[0].kind, IssueKind::PrivateUse, "{:?}", s);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Named regressions for the tiling invariants (found by the properties above)
// ---------------------------------------------------------------------------------------------

fn tiles(s: &str) -> Result<(), TestCaseError> {
    let i = analyze(s);
    check_top_tiling(s, &i)?;
    check_authority_tiling(s, &i)?;
    check_segments(s, &i)?;
    check_query_parts(s, &i)?;
    check_boundaries(s, &i)?;
    check_issues(s, &i)
}

#[test]
fn tiling_examples() {
    for s in [
        "",
        "http://user:pw@[::1]:80/a/b?c=d&e;f#g",
        "http://[::1",
        "http://a b/c d?e f#g h",
        "http://h:x:y/",
        "//@@@/",
        "?&&;=",
        "a:b:c",
        "http://[v1.x]:/",
    ] {
        if let Err(e) = tiles(s) {
            panic!("{s:?}: {e}");
        }
    }
}

#[test]
fn text_after_an_ip_literal_belongs_to_the_host() {
    // "http://[::1]x/" is invalid, but its authority "[::1]x" must still reassemble from
    // [userinfo "@"] host [":" port]: the stray "x" belongs to the host.
    for s in ["http://[::1]x/", "http://[::1]x:80/", "//[v1.a]]"] {
        if let Err(e) = tiles(s) {
            panic!("{s:?}: {e}");
        }
    }
}
