//! Conformance tests for the RFC 3987 §2.2 `IRI-reference` parser, organised per ABNF production.
//!
//! Every production sample is embedded in a whole IRI-reference the way a conformance harness
//! would (a host sample in `http://{}/`, a segment in `http://a/{}`, ...), and the tests assert
//! validity, the reference kind, the host kind and the exact component substrings obtained by
//! slicing the input with the returned ranges. For many invalid samples the exact error offset,
//! component and issue kind are asserted too.
//!
//! The expected answers follow the grammar (RFC 3987 §2.2 on top of RFC 3986), not any particular
//! data set: e.g. `http://example.com?#frag` (empty query) and `http:///example.com` (empty
//! `ireg-name`) are valid.
//!
//! The `control_*` tests hold the error conventions beyond validity: a control character is an
//! `IssueKind::Control` wherever it appears, and `analyze` reports every control character even
//! after a structural error has ended a component's validation.

use std::ops::Range;

use irilint::iri::{Component, HostKind, Iri, IssueKind, Kind, SyntaxError, analyze, parse};

use Component as C;
use IssueKind as K;

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

fn sl<'a>(input: &'a str, r: &Range<usize>) -> &'a str {
    &input[r.clone()]
}

fn opt<'a>(input: &'a str, r: &Option<Range<usize>>) -> Option<&'a str> {
    r.as_ref().map(|r| sl(input, r))
}

/// Checks that the component ranges tile `input` exactly (scheme ":" "//" authority path "?"
/// query "#" fragment; authority = [userinfo "@"] host [":" port]; path = segments joined by "/";
/// query = parts joined by separators).
#[track_caller]
fn assert_tiles(input: &str, iri: &Iri) {
    let mut rebuilt = String::new();
    let mut pos = 0;
    if let Some(s) = &iri.scheme {
        assert_eq!(s.start, 0, "{input:?}: scheme must start the input");
        rebuilt.push_str(sl(input, s));
        rebuilt.push(':');
        pos = s.end + 1;
    }
    if let Some(a) = &iri.authority {
        assert_eq!(a.range.start, pos + 2, "{input:?}: authority start");
        rebuilt.push_str("//");
        let mut auth = String::new();
        if let Some(u) = &a.userinfo {
            auth.push_str(sl(input, u));
            auth.push('@');
        }
        auth.push_str(sl(input, &a.host.range));
        if let Some(p) = &a.port {
            auth.push(':');
            auth.push_str(sl(input, p));
        }
        assert_eq!(auth, sl(input, &a.range), "{input:?}: authority tiling");
        rebuilt.push_str(&auth);
        pos = a.range.end;
    }
    assert_eq!(iri.path.start, pos, "{input:?}: path start");
    let path = sl(input, &iri.path);
    let joined = iri
        .segments(input)
        .map(|r| sl(input, &r))
        .collect::<Vec<_>>()
        .join("/");
    let expected_path = if path.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    };
    assert_eq!(expected_path, path, "{input:?}: segments tiling");
    rebuilt.push_str(path);
    if let Some(q) = &iri.query {
        rebuilt.push('?');
        rebuilt.push_str(sl(input, q));
        let mut parts = String::new();
        for (k, p) in iri.query_parts(input).enumerate() {
            if k > 0 {
                let sep = &input[p.range.start - 1..p.range.start];
                assert!(
                    sep == "&" || sep == ";",
                    "{input:?}: query parts separated by {sep:?}"
                );
                parts.push_str(sep);
            }
            parts.push_str(sl(input, &p.range));
        }
        if iri.query_parts(input).next().is_some() || !q.is_empty() {
            assert_eq!(parts, sl(input, q), "{input:?}: query parts tiling");
        }
    }
    if let Some(f) = &iri.fragment {
        rebuilt.push('#');
        rebuilt.push_str(sl(input, f));
    }
    assert_eq!(
        rebuilt, input,
        "{input:?}: components do not tile the input"
    );
}

/// Asserts that `input` is a valid IRI-reference (both `parse` and `analyze` agree) and returns it.
#[track_caller]
fn ok(input: &str) -> Iri {
    let a = analyze(input);
    assert!(
        a.issues.is_empty(),
        "{input:?} is a valid IRI-reference, but analyze reported {:#?}",
        a.issues
    );
    match parse(input) {
        Ok(p) => {
            assert_eq!(p, a, "{input:?}: parse and analyze disagree");
            assert!(p.is_valid() && p.first_error().is_none());
            assert_tiles(input, &p);
            p
        }
        Err(e) => panic!("{input:?} is a valid IRI-reference, but parse failed: {e:?}"),
    }
}

/// Asserts that `input` is not an IRI-reference; returns the strict error and the analysis.
#[track_caller]
fn err(input: &str) -> (SyntaxError, Iri) {
    let a = analyze(input);
    let e = match parse(input) {
        Ok(i) => panic!("{input:?} is not an IRI-reference, but parse accepted it: {i:#?}"),
        Err(e) => e,
    };
    assert!(!a.is_valid(), "{input:?}: analyze found no issue");
    assert_eq!(
        Some(e.clone()),
        a.first_error(),
        "{input:?}: parse error != first issue"
    );
    let first = &a.issues[0];
    assert_eq!(first.range.start, e.offset, "{input:?}");
    assert!(
        first.range.start < first.range.end && first.range.end <= input.len(),
        "{input:?}: bad issue range {:?}",
        first.range
    );
    (e, a)
}

/// Invalid with the first error at `offset` in `component`, of issue kind `kind`.
#[track_caller]
fn bad(input: &str, offset: usize, component: Component, kind: IssueKind) {
    let (e, a) = err(input);
    assert_eq!(
        (e.offset, e.component, a.issues[0].kind),
        (offset, component, kind),
        "{input:?}: first error (offset, component, kind); message: {}",
        e.message
    );
}

/// Invalid with the first error at `offset` in `component` (kind not asserted).
#[track_caller]
fn bad_in(input: &str, offset: usize, component: Component) {
    let (e, _) = err(input);
    assert_eq!(
        (e.offset, e.component),
        (offset, component),
        "{input:?}: first error (offset, component); message: {}",
        e.message
    );
}

/// Invalid with the first error at `offset` (component and kind not asserted).
#[track_caller]
fn bad_at(input: &str, offset: usize) {
    let (e, _) = err(input);
    assert_eq!(
        e.offset, offset,
        "{input:?}: first error offset; {}",
        e.message
    );
}

/// A one-line rendering of a decomposition: `iri s=http u=user reg=host p=80 path=/x q=y f=z`.
/// Host kinds: `reg=`, `v4=`, `v6=`, `vf=`, `badip=`.
fn render(input: &str, i: &Iri) -> String {
    let mut out = vec![
        match i.kind {
            Kind::Iri => "iri",
            Kind::Relative => "rel",
        }
        .to_string(),
    ];
    if let Some(s) = &i.scheme {
        out.push(format!("s={}", sl(input, s)));
    }
    if let Some(a) = &i.authority {
        if let Some(u) = &a.userinfo {
            out.push(format!("u={}", sl(input, u)));
        }
        let hk = match a.host.kind {
            Some(HostKind::RegName) => "reg",
            Some(HostKind::Ipv4) => "v4",
            Some(HostKind::Ipv6) => "v6",
            Some(HostKind::IpvFuture) => "vf",
            None => "badip",
        };
        out.push(format!("{hk}={}", sl(input, &a.host.range)));
        if let Some(p) = &a.port {
            out.push(format!("p={}", sl(input, p)));
        }
    }
    out.push(format!("path={}", sl(input, &i.path)));
    if let Some(q) = &i.query {
        out.push(format!("q={}", sl(input, q)));
    }
    if let Some(f) = &i.fragment {
        out.push(format!("f={}", sl(input, f)));
    }
    out.join(" ")
}

/// A valid IRI-reference with the given decomposition.
#[track_caller]
fn t(input: &str, expected: &str) {
    let i = ok(input);
    assert_eq!(render(input, &i), expected, "decomposition of {input:?}");
}

/// The decomposition `analyze` gives an invalid input (must not be valid).
#[track_caller]
fn t_bad(input: &str, expected: &str) {
    err(input);
    let i = analyze(input);
    assert_eq!(
        render(input, &i),
        expected,
        "decomposition of invalid {input:?}"
    );
}

#[track_caller]
fn segs(input: &str, expected: &[&str]) {
    let i = ok(input);
    let got: Vec<&str> = i.segments(input).map(|r| sl(input, &r)).collect();
    assert_eq!(got, expected, "segments of {input:?}");
}

fn host_kind(i: &Iri) -> Option<HostKind> {
    i.authority.as_ref().and_then(|a| a.host.kind)
}

// ---------------------------------------------------------------------------------------------
// ucschar / iprivate / excluded characters, embedded in every component
// ---------------------------------------------------------------------------------------------

/// Embeds a single character sample in every component where `iunreserved` is allowed and
/// checks it is valid and lands in that component.
#[track_caller]
fn iunreserved_everywhere(c: &str) {
    let input = format!("http://{c}@h/");
    let i = ok(&input);
    assert_eq!(opt(&input, &i.authority.unwrap().userinfo), Some(c));

    let input = format!("http://{c}/");
    let i = ok(&input);
    let a = i.authority.unwrap();
    assert_eq!(sl(&input, &a.host.range), c);
    assert_eq!(a.host.kind, Some(HostKind::RegName));

    let input = format!("http://x{c}y.{c}/");
    let i = ok(&input);
    let a = i.authority.unwrap();
    let labels: Vec<&str> = a.host.labels(&input).map(|r| sl(&input, &r)).collect();
    assert_eq!(labels, [format!("x{c}y"), c.to_string()]);

    let input = format!("http://h/{c}/{c}");
    let i = ok(&input);
    assert_eq!(sl(&input, &i.path), format!("/{c}/{c}"));
    assert_eq!(i.segments(&input).count(), 2);

    let input = c.to_string();
    let i = ok(&input);
    assert_eq!((i.kind, sl(&input, &i.path)), (Kind::Relative, c));

    let input = format!("{c}{c}:x");
    let (e, _) = err(&input);
    assert_eq!(
        e.offset, 0,
        "{input:?}: a scheme starts with an ASCII letter"
    );

    let input = format!("urn:{c}");
    let i = ok(&input);
    assert_eq!((i.kind, sl(&input, &i.path)), (Kind::Iri, c));

    let input = format!("http://h/?{c}=");
    let i = ok(&input);
    assert_eq!(opt(&input, &i.query), Some(format!("{c}=").as_str()));

    let input = format!("http://h/#{c}");
    let i = ok(&input);
    assert_eq!(opt(&input, &i.fragment), Some(c));

    let input = format!("?{c}#{c}");
    let i = ok(&input);
    assert_eq!(
        (opt(&input, &i.query), opt(&input, &i.fragment)),
        (Some(c), Some(c))
    );
}

/// Embeds a character that is not allowed anywhere (or, for iprivate, anywhere but the query)
/// and checks the first error is at that character with the given kind.
#[track_caller]
fn excluded_everywhere(c: &str, kind: IssueKind, allowed_in_query: bool) {
    bad(&format!("http://{c}@h/"), 7, C::Userinfo, kind);
    bad(&format!("http://u{c}@h/"), 8, C::Userinfo, kind);
    bad(&format!("http://{c}/"), 7, C::Host, kind);
    bad(&format!("http://h{c}.example/"), 8, C::Host, kind);
    bad(&format!("http://h/{c}"), 9, C::Path, kind);
    bad(&format!("http://h/a/b{c}c/d"), 12, C::Path, kind);
    bad(&format!("urn:{c}"), 4, C::Path, kind);
    bad(c, 0, C::Path, kind);
    bad(&format!("a/{c}"), 2, C::Path, kind);
    bad(&format!("/{c}"), 1, C::Path, kind);
    bad(&format!("http://h/#{c}"), 10, C::Fragment, kind);
    bad(&format!("#x{c}"), 2, C::Fragment, kind);
    bad_at(&format!("{c}:x"), 0);
    bad_at(&format!("x{c}:x"), 1);
    bad_at(&format!("http://h:{c}/"), 9);
    bad_at(&format!("http://[{c}]/"), 8);
    bad_at(&format!("http://[v1.{c}]/"), 11);
    if allowed_in_query {
        let input = format!("http://h/?{c}");
        assert_eq!(opt(&input, &ok(&input).query), Some(c));
        let input = format!("?a={c}&b#f");
        let i = ok(&input);
        assert_eq!(
            opt(&input, &i.query_parts(&input).next().unwrap().value),
            Some(c)
        );
        let input = format!("urn:x?{c}{c}");
        ok(&input);
        // Allowed in the query, still not in the fragment that follows it.
        bad(
            &format!("http://h/?{c}#{c}"),
            11 + c.len(),
            C::Fragment,
            kind,
        );
    } else {
        bad(&format!("http://h/?{c}"), 10, C::Query, kind);
        bad(&format!("?a={c}&b"), 3, C::Query, kind);
    }
}

#[test]
fn ucschar_range_boundaries_are_allowed_everywhere() {
    for c in [
        "\u{A0}",    // first of %xA0-D7FF
        "\u{A1}",    //
        "\u{4E2D}",  // CJK
        "\u{D7FF}",  // last of %xA0-D7FF
        "\u{F900}",  // first of %xF900-FDCF
        "\u{FDCF}",  // last of %xF900-FDCF
        "\u{FDF0}",  // first of %xFDF0-FFEF
        "\u{FEFF}",  // BOM: a ucschar (%xFDF0-FFEF)
        "\u{FFEF}",  // last of %xFDF0-FFEF
        "\u{10000}", // first of %x10000-1FFFD
        "\u{10300}", //
        "\u{1F600}", // emoji
        "\u{1FFFD}", // last of %x10000-1FFFD
        "\u{20000}", //
        "\u{2FFFD}", //
        "\u{30000}", //
        "\u{3FFFD}", //
        "\u{40000}", //
        "\u{5FFFD}", //
        "\u{6FFFD}", //
        "\u{7FFFD}", //
        "\u{8FFFD}", //
        "\u{9FFFD}", //
        "\u{A0000}", //
        "\u{AFFFD}", //
        "\u{BFFFD}", //
        "\u{CFFFD}", //
        "\u{D0000}", //
        "\u{DFFFD}", // last of %xD0000-DFFFD
        "\u{E1000}", // first of %xE1000-EFFFD
        "\u{EFFFD}", // last of %xE1000-EFFFD
        "\u{202E}",  // RLO: forbidden by §4.1 prose, but a ucschar syntactically
        "\u{200B}",  // zero width space: ucschar
        "\u{3000}",  // ideographic space: ucschar
        "\u{E9}",    // é
        "\u{5D0}",   // Hebrew alef
    ] {
        iunreserved_everywhere(c);
    }
}

#[test]
fn ascii_unreserved_and_sub_delims_are_allowed_everywhere() {
    for c in [
        "a", "Z", "0", "9", "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";",
        "=",
    ] {
        // Host, userinfo, segments, query, fragment (the scheme has its own rule).
        for input in [
            format!("http://{c}@h/"),
            format!("http://x{c}/"),
            format!("http://h/{c}"),
            format!("http://h/?{c}"),
            format!("http://h/#{c}"),
            c.to_string(),
            format!("x{c}/y"),
        ] {
            ok(&input);
        }
    }
}

#[test]
fn non_ucschar_code_points_are_invalid_everywhere() {
    for (c, kind) in [
        ("\u{0}", K::Control),
        ("\u{1}", K::Control),
        ("\u{9}", K::Control),
        ("\u{A}", K::Control),
        ("\u{D}", K::Control),
        ("\u{1F}", K::Control),
        ("\u{7F}", K::Control),   // DEL
        ("\u{80}", K::Control),   // first C1
        ("\u{85}", K::Control),   // NEL
        ("\u{9F}", K::Control),   // last C1, just below %xA0
        ("\u{FDD0}", K::Invalid), // first noncharacter of FDD0-FDEF, just above FDCF
        ("\u{FDE5}", K::Invalid),
        ("\u{FDEF}", K::Invalid), // last noncharacter, just below FDF0
        ("\u{FFF0}", K::Invalid), // just above FFEF
        ("\u{FFF9}", K::Invalid), // interlinear annotation anchor
        ("\u{FFFC}", K::Invalid),
        ("\u{FFFD}", K::Invalid), // replacement character is not a ucschar
        ("\u{FFFE}", K::Invalid),
        ("\u{FFFF}", K::Invalid),
        ("\u{1FFFE}", K::Invalid), // just above 1FFFD
        ("\u{1FFFF}", K::Invalid),
        ("\u{2FFFE}", K::Invalid),
        ("\u{5FFFF}", K::Invalid),
        ("\u{DFFFE}", K::Invalid),
        ("\u{DFFFF}", K::Invalid),
        ("\u{E0000}", K::Invalid), // excluded tag block
        ("\u{E0001}", K::Invalid), // LANGUAGE TAG
        ("\u{E0041}", K::Invalid), // TAG LATIN CAPITAL LETTER A
        ("\u{E0100}", K::Invalid), // VARIATION SELECTOR-17
        ("\u{E0FFF}", K::Invalid), // just below E1000
        ("\u{EFFFE}", K::Invalid), // just above EFFFD
        ("\u{EFFFF}", K::Invalid),
        ("\u{FFFFE}", K::Invalid), // noncharacter in the private plane: not iprivate
        ("\u{FFFFF}", K::Invalid),
        ("\u{10FFFE}", K::Invalid),
        ("\u{10FFFF}", K::Invalid),
    ] {
        excluded_everywhere(c, kind, false);
    }
}

#[test]
fn iprivate_is_allowed_only_in_the_query() {
    for c in [
        "\u{E000}",   // first of %xE000-F8FF, just above D7FF
        "\u{E001}",   //
        "\u{F000}",   //
        "\u{F8FF}",   // last of %xE000-F8FF, just below F900
        "\u{F0000}",  // first of %xF0000-FFFFD, just above EFFFD
        "\u{FFFFD}",  // last of %xF0000-FFFFD
        "\u{100000}", // first of %x100000-10FFFD
        "\u{10FFFD}", // last of %x100000-10FFFD
    ] {
        excluded_everywhere(c, K::PrivateUse, true);
    }
}

#[test]
fn unwise_ascii_is_invalid_everywhere() {
    for c in [" ", "<", ">", "\"", "{", "}", "|", "\\", "^", "`"] {
        excluded_everywhere(c, K::UnwiseAscii, false);
    }
}

#[test]
fn brackets_outside_the_host_are_invalid_or_stray() {
    for c in ["[", "]"] {
        bad(&format!("http://{c}@h/"), 7, C::Userinfo, K::Invalid);
        bad(&format!("http://u{c}@h/"), 8, C::Userinfo, K::Invalid);
        bad(&format!("http://h{c}/"), 8, C::Host, K::Invalid);
        bad(&format!("http://h/{c}"), 9, C::Path, K::StrayDelimiter);
        bad(
            &format!("http://h/a/b{c}c/d"),
            12,
            C::Path,
            K::StrayDelimiter,
        );
        bad(&format!("urn:{c}"), 4, C::Path, K::StrayDelimiter);
        bad(&format!("a{c}"), 1, C::Path, K::StrayDelimiter);
        bad(&format!("a/{c}"), 2, C::Path, K::StrayDelimiter);
        bad(&format!("/{c}"), 1, C::Path, K::StrayDelimiter);
        bad(&format!("http://h/?{c}"), 10, C::Query, K::StrayDelimiter);
        bad(&format!("?a={c}&b"), 3, C::Query, K::StrayDelimiter);
        bad(
            &format!("http://h/#{c}"),
            10,
            C::Fragment,
            K::StrayDelimiter,
        );
        bad(&format!("#x{c}"), 2, C::Fragment, K::StrayDelimiter);
        bad_in(&format!("x{c}:x"), 1, C::Scheme);
    }
    bad_at("]", 0);
    bad_at("http://h]/", 8);
    bad("http:/[::1]", 6, C::Path, K::StrayDelimiter);
    bad("/[::1]", 1, C::Path, K::StrayDelimiter);
    bad("x:[::1]", 2, C::Path, K::StrayDelimiter);
    bad("http://a/b?[::1]", 11, C::Query, K::StrayDelimiter);
}

// ---------------------------------------------------------------------------------------------
// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
// ---------------------------------------------------------------------------------------------

#[track_caller]
fn scheme_ok(s: &str) {
    for input in [
        format!("{s}:x"),
        format!("{s}:"),
        format!("{s}://h/p?q#f"),
        format!("{s}:/p"),
    ] {
        let i = ok(&input);
        assert_eq!(i.kind, Kind::Iri, "{input:?}");
        assert_eq!(opt(&input, &i.scheme), Some(s), "{input:?}");
    }
}

#[track_caller]
fn scheme_bad(s: &str, offset: usize) {
    for input in [format!("{s}:x"), format!("{s}://h/")] {
        bad_in(&input, offset, C::Scheme);
    }
}

#[test]
fn scheme_valid() {
    scheme_ok("http");
    scheme_ok("ftp");
    scheme_ok("a");
    scheme_ok("Z");
    scheme_ok("a123");
    scheme_ok("a+b");
    scheme_ok("a-b");
    scheme_ok("a.b");
    scheme_ok("HTTPS");
    scheme_ok("HtTp");
    scheme_ok("a+b-c.2");
    scheme_ok("coap+tcp");
    scheme_ok("x-");
    scheme_ok("x+");
    scheme_ok("x.");
    scheme_ok("z9");
    scheme_ok("svn+ssh");
    scheme_ok("iris.beep");
    scheme_ok("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.");
}

#[test]
fn scheme_invalid_characters() {
    scheme_bad("1http", 0);
    scheme_bad("123", 0);
    scheme_bad("+scheme", 0);
    scheme_bad("-x", 0);
    scheme_bad(".x", 0);
    scheme_bad("ht_tp", 2);
    scheme_bad("http*", 4);
    scheme_bad("ht@tp", 2);
    scheme_bad("http!", 4);
    scheme_bad("ht,tp", 2);
    scheme_bad("bar,baz", 3);
    scheme_bad("http=", 4);
    scheme_bad("http~", 4);
    scheme_bad("http%", 4);
    scheme_bad("http%41", 4);
    scheme_bad("http scheme", 4);
    scheme_bad("http\\", 4);
    scheme_bad("http`", 4);
    scheme_bad("ht[tp", 2);
    scheme_bad("\u{E9}", 0);
    scheme_bad("h\u{E9}", 1);
    scheme_bad("http\u{1F642}", 4);
    scheme_bad("\u{E000}x", 0);
    scheme_bad("x\u{E000}", 1);
    scheme_bad("\u{FF48}ttp", 0); // FULLWIDTH LATIN SMALL LETTER H
    bad("http\n:x", 4, C::Scheme, K::Control);
    bad("http\t:x", 4, C::Scheme, K::Control);
    bad("ht\u{7F}tp:x", 2, C::Scheme, K::Control);
    bad("ht\u{85}tp:x", 2, C::Scheme, K::Control);
    bad("1http://example.com", 0, C::Scheme, K::Invalid);
    bad("ht_tp://example.com", 2, C::Scheme, K::Invalid);
}

#[test]
fn scheme_empty_or_ended_by_another_delimiter() {
    // An empty scheme is not a scheme: ":x" is a relative path whose first segment has ':'.
    bad_at(":x", 0);
    bad_at("://example.com", 0);
    bad_at(":// should fail", 0);
    bad_at(":", 0);
    // '/', '?' or '#' before the first ':' means there is no scheme at all.
    t("http#:x", "rel path=http f=:x");
    t("http?:x", "rel path=http q=:x");
    t("http/:x", "rel path=http/:x");
    t("a/b:c", "rel path=a/b:c");
    t("./this:that", "rel path=./this:that");
    t("../a:b", "rel path=../a:b");
    t("?a:b", "rel path= q=a:b");
    t("#a:b", "rel path= f=a:b");
    // The first ':' ends the scheme; later ones belong to the path.
    t("http::x", "iri s=http path=:x");
    t("a:b:c", "iri s=a path=b:c");
    t("a:b", "iri s=a path=b");
    t("this:that", "iri s=this path=that");
    t("g:h", "iri s=g path=h");
    t("a::", "iri s=a path=:");
    t("a:/:", "iri s=a path=/:");
}

// ---------------------------------------------------------------------------------------------
// iuserinfo = *( iunreserved / pct-encoded / sub-delims / ":" )
// ---------------------------------------------------------------------------------------------

#[track_caller]
fn userinfo_ok(u: &str) {
    for (input, host) in [
        (format!("http://{u}@h/"), "h"),
        (format!("//{u}@example.com:80"), "example.com"),
        (format!("x://{u}@[::1]"), "[::1]"),
        (format!("x://{u}@"), ""),
    ] {
        let i = ok(&input);
        let a = i.authority.as_ref().unwrap();
        assert_eq!(opt(&input, &a.userinfo), Some(u), "{input:?}");
        assert_eq!(sl(&input, &a.host.range), host, "{input:?}");
    }
}

#[track_caller]
fn userinfo_bad(u: &str, offset: usize, kind: IssueKind) {
    bad(&format!("http://{u}@h/"), 7 + offset, C::Userinfo, kind);
    bad(&format!("//{u}@h"), 2 + offset, C::Userinfo, kind);
}

#[test]
fn userinfo_valid() {
    userinfo_ok("");
    userinfo_ok("user");
    userinfo_ok("user:password");
    userinfo_ok("user%40name");
    userinfo_ok("user:pass:extra");
    userinfo_ok(":");
    userinfo_ok("::");
    userinfo_ok(":pass");
    userinfo_ok("user:");
    userinfo_ok("!$&'()*+,;=");
    userinfo_ok("-._~");
    userinfo_ok("\u{7528}\u{6237}");
    userinfo_ok("user%20name");
    userinfo_ok("%E2%80%AE");
    userinfo_ok("-.~_!$&'()*+,;=:%40:80%2f::::::");
    userinfo_ok("\u{10000}:\u{EFFFD}");
    userinfo_ok("John.Doe");
    userinfo_ok("1.2.3.4");
    userinfo_ok("v1.x");
}

#[test]
fn userinfo_invalid() {
    userinfo_bad("user name", 4, K::UnwiseAscii);
    userinfo_bad("user\nname", 4, K::Control);
    userinfo_bad("user\tname", 4, K::Control);
    userinfo_bad("user%2G", 4, K::BadPercent);
    userinfo_bad("user%", 4, K::BadPercent);
    userinfo_bad("%", 0, K::BadPercent);
    userinfo_bad("user|name", 4, K::UnwiseAscii);
    userinfo_bad("user\\name", 4, K::UnwiseAscii);
    userinfo_bad("user`name", 4, K::UnwiseAscii);
    userinfo_bad("user{", 4, K::UnwiseAscii);
    userinfo_bad("user}", 4, K::UnwiseAscii);
    userinfo_bad("user\"", 4, K::UnwiseAscii);
    userinfo_bad("user[", 4, K::Invalid);
    userinfo_bad("user]", 4, K::Invalid);
    userinfo_bad("[::1]", 0, K::Invalid);
    userinfo_bad("user\u{E000}", 4, K::PrivateUse);
    userinfo_bad("user\u{FFFE}", 4, K::Invalid);
    userinfo_bad("user\u{9F}", 4, K::Control);
}

#[test]
fn userinfo_ends_at_the_first_at_sign() {
    // A second '@' is in the host, where it is not allowed.
    bad("http://user@name@host/", 16, C::Host, K::Invalid);
    bad("//a@b@example.com/", 5, C::Host, K::Invalid);
    bad("http://user@@host/", 12, C::Host, K::Invalid);
    t_bad("http://a@b@c/", "iri s=http u=a reg=b@c path=/");
    // '#', '/' and '?' end the authority, so what looks like userinfo is not.
    t("http://user#@host/", "iri s=http reg=user path= f=@host/");
    t("http://user/@host", "iri s=http reg=user path=/@host");
    t("http://user?@host", "iri s=http reg=user path= q=@host");
    t("http://example@/", "iri s=http u=example reg= path=/");
    t("http://user@/path", "iri s=http u=user reg= path=/path");
    t("http://ex@mple/", "iri s=http u=ex reg=mple path=/");
    // '@' is allowed in paths, queries and fragments: no userinfo there.
    t(
        "mailto:John.Doe@example.com",
        "iri s=mailto path=John.Doe@example.com",
    );
    t("http:a@b", "iri s=http path=a@b");
    t("@a", "rel path=@a");
    t(
        "http://h/a@b?c@d#e@f",
        "iri s=http reg=h path=/a@b q=c@d f=e@f",
    );
}

// ---------------------------------------------------------------------------------------------
// ihost = IP-literal / IPv4address / ireg-name; ireg-name = *( iunreserved / pct-encoded / sub-delims )
// ---------------------------------------------------------------------------------------------

#[track_caller]
fn host_ok(h: &str, kind: HostKind) {
    for input in [
        format!("http://{h}/"),
        format!("http://{h}"),
        format!("//{h}"),
        format!("http://user:pw@{h}:8080/p?q#f"),
        format!("//{h}:?q"),
        format!("x://{h}#f"),
    ] {
        let i = ok(&input);
        let a = i.authority.as_ref().unwrap();
        assert_eq!(sl(&input, &a.host.range), h, "host of {input:?}");
        assert_eq!(a.host.kind, Some(kind), "host kind of {input:?}");
        if kind == HostKind::RegName {
            let labels: Vec<&str> = a.host.labels(&input).map(|r| sl(&input, &r)).collect();
            assert_eq!(labels.join("."), h, "labels of {input:?}");
        }
    }
}

#[track_caller]
fn reg_ok(h: &str, labels: &[&str]) {
    host_ok(h, HostKind::RegName);
    let input = format!("http://{h}/");
    let i = ok(&input);
    let got: Vec<&str> = i
        .authority
        .unwrap()
        .host
        .labels(&input)
        .map(|r| sl(&input, &r))
        .collect();
    assert_eq!(got, labels, "labels of {input:?}");
}

#[track_caller]
fn host_bad(h: &str, offset: usize, kind: IssueKind) {
    bad(&format!("http://{h}/"), 7 + offset, C::Host, kind);
    bad(&format!("//u@{h}:80"), 4 + offset, C::Host, kind);
}

#[test]
fn reg_name_valid() {
    reg_ok("", &[""]);
    reg_ok("example.com", &["example", "com"]);
    reg_ok("www.example.com.", &["www", "example", "com", ""]);
    reg_ok("xn--nxasmq6b.com", &["xn--nxasmq6b", "com"]);
    reg_ok("%20example", &["%20example"]);
    reg_ok("%2e%2E", &["%2e%2E"]);
    reg_ok(
        "\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}",
        &["\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}"],
    );
    reg_ok("example!test", &["example!test"]);
    reg_ok("a$b&c", &["a$b&c"]);
    reg_ok("!$&'()*+,;=", &["!$&'()*+,;="]);
    reg_ok("\u{4E2D}\u{6587}", &["\u{4E2D}\u{6587}"]);
    reg_ok(
        "\u{4E2D}\u{6587}.\u{516C}\u{53F8}",
        &["\u{4E2D}\u{6587}", "\u{516C}\u{53F8}"],
    );
    reg_ok(
        "r\u{E9}sum\u{E9}.example.org",
        &["r\u{E9}sum\u{E9}", "example", "org"],
    );
    reg_ok(
        "\u{192}\u{F8}\u{F8}.\u{DF}\u{E5}r",
        &["\u{192}\u{F8}\u{F8}", "\u{DF}\u{E5}r"],
    );
    reg_ok("a..b", &["a", "", "b"]);
    reg_ok(".", &["", ""]);
    reg_ok("..", &["", "", ""]);
    reg_ok("-", &["-"]);
    reg_ok("~", &["~"]);
    reg_ok("a_b", &["a_b"]);
    reg_ok("EXAMPLE.COM", &["EXAMPLE", "COM"]);
    reg_ok("localhost", &["localhost"]);
    reg_ok("1", &["1"]);
    reg_ok("0x7f.1", &["0x7f", "1"]);
    reg_ok("v1.x", &["v1", "x"]);
    reg_ok("\u{A0}", &["\u{A0}"]);
    reg_ok("a\u{3002}b", &["a\u{3002}b"]); // ideographic full stop is not a label separator
}

#[test]
fn reg_name_invalid() {
    host_bad("exa mple", 3, K::UnwiseAscii);
    host_bad(" example.com", 0, K::UnwiseAscii);
    host_bad("example.com ", 11, K::UnwiseAscii);
    host_bad("example\\", 7, K::UnwiseAscii);
    host_bad("exa[mple]", 3, K::Invalid);
    host_bad("exa]mple", 3, K::Invalid);
    host_bad("%GG", 0, K::BadPercent);
    host_bad("%", 0, K::BadPercent);
    host_bad("example%", 7, K::BadPercent);
    host_bad("exa%GGmple", 3, K::BadPercent);
    host_bad("example|name", 7, K::UnwiseAscii);
    host_bad("exa|mple", 3, K::UnwiseAscii);
    host_bad("example\n", 7, K::Control);
    host_bad("exa\tmple", 3, K::Control);
    host_bad("exa\nmple", 3, K::Control);
    host_bad("exa>mple", 3, K::UnwiseAscii);
    host_bad("exa<mple", 3, K::UnwiseAscii);
    host_bad("exa{mple}", 3, K::UnwiseAscii);
    host_bad("a^b", 1, K::UnwiseAscii);
    host_bad("a`b", 1, K::UnwiseAscii);
    host_bad("a\"b", 1, K::UnwiseAscii);
    host_bad("a\u{E000}b", 1, K::PrivateUse);
    host_bad("a\u{FDD0}b", 1, K::Invalid);
    host_bad("a\u{85}b", 1, K::Control);
    bad("http:// shouldfail.com", 7, C::Host, K::UnwiseAscii);
    bad("http://exa mple.com", 10, C::Host, K::UnwiseAscii);
}

/// An IPv4address sample: kind Ipv4 as a host, and a valid ls32 inside an IPv6 literal.
#[track_caller]
fn ipv4_ok(s: &str) {
    host_ok(s, HostKind::Ipv4);
    for v6 in [
        format!("::ffff:{s}"),
        format!("::{s}"),
        format!("1:2:3:4:5:6:{s}"),
        format!("1::{s}"),
        format!("1:2:3:4:5::{s}"),
    ] {
        host_ok(&format!("[{v6}]"), HostKind::Ipv6);
    }
}

/// Not an IPv4address but a valid ireg-name: as a host it is a reg-name (first match wins), and
/// inside an IPv6 literal's ls32 it is invalid.
#[track_caller]
fn not_ipv4(s: &str) {
    let labels: Vec<&str> = s.split('.').collect();
    reg_ok(s, &labels);
    for v6 in [
        format!("::ffff:{s}"),
        format!("::{s}"),
        format!("1:2:3:4:5:6:{s}"),
    ] {
        let input = format!("http://[{v6}]/");
        let (e, a) = err(&input);
        assert_eq!(e.component, C::Host, "{input:?}");
        assert_eq!(a.issues[0].kind, K::Invalid, "{input:?}");
        assert!(
            (7..input.len() - 1).contains(&e.offset),
            "{input:?}: offset {}",
            e.offset
        );
        assert_eq!(
            host_kind(&a),
            None,
            "{input:?}: a malformed IP literal has no host kind"
        );
    }
}

#[test]
fn ipv4address_valid() {
    ipv4_ok("0.0.0.0");
    ipv4_ok("255.255.255.255");
    ipv4_ok("192.168.1.1");
    ipv4_ok("10.0.0.1");
    ipv4_ok("127.0.0.1");
    ipv4_ok("1.2.3.4");
    ipv4_ok("100.200.249.0");
    ipv4_ok("250.251.252.253");
    ipv4_ok("9.99.199.255");
    ipv4_ok("199.249.255.0");
    ipv4_ok("223.255.255.254");
    ipv4_ok("192.0.2.16");
    ipv4_ok("10.20.30.40");
    ipv4_ok("1.10.100.200");
}

#[test]
fn ipv4address_dec_octet_every_value() {
    // dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
    for n in 0..=255u32 {
        for input in [
            format!("http://{n}.0.0.0/"),
            format!("http://0.{n}.0.0/"),
            format!("http://0.0.{n}.0/"),
            format!("http://0.0.0.{n}/"),
        ] {
            let i = ok(&input);
            assert_eq!(host_kind(&i), Some(HostKind::Ipv4), "{input:?}");
        }
    }
    // Out of range or with leading zeros: not an IPv4address, hence an ireg-name.
    let mut non_octets: Vec<String> = (256..=999).map(|n| n.to_string()).collect();
    non_octets.extend((0..=99).map(|n| format!("0{n}")));
    non_octets.extend(["00", "000", "0000", "1000", "2555", "00255"].map(String::from));
    for o in &non_octets {
        for input in [
            format!("http://{o}.0.0.0/"),
            format!("http://0.{o}.0.0/"),
            format!("http://0.0.{o}.0/"),
            format!("http://0.0.0.{o}/"),
        ] {
            let i = ok(&input);
            assert_eq!(host_kind(&i), Some(HostKind::RegName), "{input:?}");
        }
        ipv6_bad(&format!("::{o}.0.0.0"));
    }
}

#[test]
fn ipv4_lookalikes_are_reg_names_as_hosts_and_invalid_in_ls32() {
    not_ipv4("256.256.256.256");
    not_ipv4("256.1.1.1");
    not_ipv4("1.1.1.256");
    not_ipv4("192.168.1");
    not_ipv4("1.2.3");
    not_ipv4("192.168.1.1.1");
    not_ipv4("1.2.3.4.5");
    not_ipv4("192.168.01.1");
    not_ipv4("087.10.0.1");
    not_ipv4("00.0.0.0");
    not_ipv4("1.2.3.04");
    not_ipv4("192.168.1.a");
    not_ipv4("192.168..1");
    not_ipv4("192.168.1.-1");
    not_ipv4("192.168.1.256");
    not_ipv4("192.168.1.1.");
    not_ipv4(".192.168.1.1");
    not_ipv4("192.168.1.1a");
    not_ipv4("192.168.1.1000");
    not_ipv4("999.999.999.999");
    not_ipv4("260.0.0.0");
    not_ipv4("300.0.0.0");
    not_ipv4("2555.1.1.1");
    not_ipv4("0xC0.0xA8.0x01.0x01");
    not_ipv4("192.168.1.one");
    not_ipv4("1e2.1.1.1");
    not_ipv4("+1.2.3.4");
    not_ipv4("1.2.3.4~");
    not_ipv4("...");
    not_ipv4("1..2.3");
    not_ipv4("\u{661}.2.3.4"); // ARABIC-INDIC DIGIT ONE is not a DIGIT
    // Comma is a sub-delim: a reg-name as a host; no dot, so as ls32 it would be two h16? no: ','.
    reg_ok("192.168.1,1", &["192", "168", "1,1"]);
    ipv6_bad("::ffff:192.168.1,1");
    // Not even reg-names.
    host_bad("192.168.1.1 ", 11, K::UnwiseAscii);
    host_bad(" 192.168.1.1", 0, K::UnwiseAscii);
    host_bad("192.168.1.1\n", 11, K::Control);
    // A JSON-Schema-Test-Suite case: IPv6 without brackets is host "2001" and a bad port.
    bad(
        "http://2001:0db8:85a3:0000:0000:8a2e:0370:7334",
        13,
        C::Port,
        K::Invalid,
    );
}

// IPv6address (RFC 3986 §3.2.2), the nine forms:
//                                 6( h16 ":" ) ls32
//             /                       "::" 5( h16 ":" ) ls32
//             / [               h16 ] "::" 4( h16 ":" ) ls32
//             / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
//             / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
//             / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
//             / [ *4( h16 ":" ) h16 ] "::"              ls32
//             / [ *5( h16 ":" ) h16 ] "::"              h16
//             / [ *6( h16 ":" ) h16 ] "::"

#[track_caller]
fn ipv6_ok(s: &str) {
    host_ok(&format!("[{s}]"), HostKind::Ipv6);
}

/// A malformed IPv6 literal: invalid, error in the host (at a character of the literal,
/// brackets included), host kind None.
#[track_caller]
fn ipv6_bad(s: &str) {
    let input = format!("http://[{s}]/p");
    let (e, a) = err(&input);
    assert_eq!(
        (e.component, a.issues[0].kind),
        (C::Host, K::Invalid),
        "{input:?}: {e:?}"
    );
    assert!(
        (7..=8 + s.len()).contains(&e.offset),
        "{input:?}: error offset {} outside the literal",
        e.offset
    );
    assert_eq!(
        host_kind(&a),
        None,
        "{input:?}: a malformed IP literal has no host kind"
    );
    let a = a.authority.unwrap();
    assert_eq!(sl(&input, &a.host.range), format!("[{s}]"), "{input:?}");
    // Also as a relative reference with a port.
    let input = format!("//[{s}]:80");
    let (e, _) = err(&input);
    assert_eq!(e.component, C::Host, "{input:?}");
}

/// A malformed IPv6 literal whose first offending character is unambiguous.
#[track_caller]
fn ipv6_bad_at(s: &str, offset_in_literal: usize) {
    ipv6_bad(s);
    bad(
        &format!("http://[{s}]/p"),
        8 + offset_in_literal,
        C::Host,
        K::Invalid,
    );
}

#[test]
fn ipv6_form1_six_h16_then_ls32() {
    ipv6_ok("1:2:3:4:5:6:7:8");
    ipv6_ok("2001:db8:85a3:0:0:8a2e:370:7334");
    ipv6_ok("2001:0db8:85a3:0000:0000:8a2e:0370:7334");
    ipv6_ok("2345:0425:2CA1:0:0:0567:5673:23b5");
    ipv6_ok("FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF");
    ipv6_ok("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
    ipv6_ok("0:0:0:0:0:0:0:0");
    ipv6_ok("0:0:0:0:0:0:0:1");
    ipv6_ok("ABCD:EF01:2345:6789:abcd:ef01:2345:6789");
    ipv6_ok("2001:DB8:0:0:8:800:200C:417A");
    ipv6_ok("FF01:0:0:0:0:0:0:101");
    ipv6_ok("1:2:3:4:5:6:1.2.3.4");
    ipv6_ok("0:0:0:0:0:0:13.1.68.3");
    ipv6_ok("0:0:0:0:0:FFFF:129.144.52.38");
    ipv6_ok("0000:0000:0000:0000:0000:0000:255.255.255.255");
}

#[test]
fn ipv6_form2_leading_double_colon_five_h16_ls32() {
    ipv6_ok("::2:3:4:5:6:7:8");
    ipv6_ok("::1:2:3:4:5:6:7");
    ipv6_ok("::2:3:4:5:6:1.2.3.4");
    ipv6_ok("::ffff:ffff:ffff:ffff:ffff:ffff:ffff");
}

#[test]
fn ipv6_form3_one_h16_double_colon_four_h16_ls32() {
    ipv6_ok("1::3:4:5:6:7:8");
    ipv6_ok("::3:4:5:6:7:8");
    ipv6_ok("1::3:4:5:6:1.2.3.4");
    ipv6_ok("::1:2:3:4:192.168.1.1");
    ipv6_ok("2001::1:2:3:192.168.1.1");
}

#[test]
fn ipv6_form4_two_h16_double_colon_three_h16_ls32() {
    ipv6_ok("1:2::4:5:6:7:8");
    ipv6_ok("1:2::4:5:6:1.2.3.4");
    ipv6_ok("2001:db8::1:2:192.168.1.1");
    ipv6_ok("::4:5:6:7:8");
}

#[test]
fn ipv6_form5_three_h16_double_colon_two_h16_ls32() {
    ipv6_ok("1:2:3::5:6:7:8");
    ipv6_ok("1:2:3::5:6:1.2.3.4");
    ipv6_ok("1::5:6:7:8");
}

#[test]
fn ipv6_form6_four_h16_double_colon_h16_ls32() {
    ipv6_ok("1:2:3:4::6:7:8");
    ipv6_ok("1:2:3:4::6:1.2.3.4");
    ipv6_ok("::ffff:1.2.3.4");
    ipv6_ok("::ffff:192.168.1.1");
    ipv6_ok("::FFFF:129.144.52.38");
    ipv6_ok("2041:0:140F::875B:131B");
}

#[test]
fn ipv6_form7_five_h16_double_colon_ls32() {
    ipv6_ok("1:2:3:4:5::7:8");
    ipv6_ok("1:2:3:4:5::1.2.3.4");
    ipv6_ok("::1.2.3.4");
    ipv6_ok("::13.1.68.3");
    ipv6_ok("::7:8");
    ipv6_ok("2001:db8:85a3::192.168.1.1");
    ipv6_ok("64:ff9b::192.168.1.1");
    ipv6_ok("::0.0.0.0");
}

#[test]
fn ipv6_form8_six_h16_double_colon_h16() {
    ipv6_ok("1:2:3:4:5:6::8");
    ipv6_ok("::8");
    ipv6_ok("::1");
    ipv6_ok("2001:db8::1");
    ipv6_ok("2001:db8::7");
    ipv6_ok("fe80::1");
    ipv6_ok("2345::BEEF");
    ipv6_ok("FF01::101");
    ipv6_ok("2001:DB8::8:800:200C:417A");
}

#[test]
fn ipv6_form9_up_to_seven_h16_double_colon() {
    ipv6_ok("::");
    ipv6_ok("1::");
    ipv6_ok("2001::");
    ipv6_ok("1:2:3:4:5:6:7::");
    ipv6_ok("ffff:ffff::");
}

#[test]
fn ipv6_invalid() {
    // Empty or only colons.
    ipv6_bad("");
    ipv6_bad(":");
    ipv6_bad_at(":::", 2);
    ipv6_bad(":::::::");
    ipv6_bad_at(":::1", 2);
    // Wrong number of groups.
    ipv6_bad_at("1:2:3:4:5:6:7", 13); // too few: the ']' offends
    ipv6_bad_at("1", 1);
    ipv6_bad_at("1:2", 3);
    ipv6_bad("1:2:3:4:5:6:7:8:9");
    ipv6_bad("1:2:3:4:5:6:7:8::");
    ipv6_bad("::1:2:3:4:5:6:7:8");
    ipv6_bad("1::2:3:4:5:6:7:8");
    ipv6_bad("1:2:3:4:5::6:7:8");
    ipv6_bad("1:2:3:4:5:6:7::8");
    ipv6_bad("1:2:3:4:5:6::7:8");
    ipv6_bad("1:2:3:4:5:6::1.2.3.4");
    ipv6_bad("::1:2:3:4:5:6:1.2.3.4");
    ipv6_bad("1:2:3:4:5:6:7:1.2.3.4");
    ipv6_bad("1:2:3:4:5:1.2.3.4");
    ipv6_bad("1.2.3.4");
    // Two "::".
    ipv6_bad("1234::1234::1234");
    ipv6_bad("1::2::3");
    ipv6_bad("::1::");
    ipv6_bad("1::2:3::");
    ipv6_bad("2001::85a3::8a2e");
    // Leading or trailing single colon.
    ipv6_bad(":1:2:3:4:5:6:7");
    ipv6_bad(":1::");
    ipv6_bad("1:2:3:4:5:6:7:");
    ipv6_bad("1::2:");
    ipv6_bad("1:::2");
    // Groups with more than 4 hex digits or non-hex characters.
    ipv6_bad_at("12345::", 4);
    ipv6_bad_at("::12345", 6);
    ipv6_bad_at("1:2:3:4:5:6:7:00000", 18);
    ipv6_bad_at("1:2:3:4:5:6:7:12345", 18);
    ipv6_bad_at("C0FFEE::", 4);
    ipv6_bad_at("::g", 2);
    ipv6_bad_at("::gggg", 2);
    ipv6_bad_at("1:2:3:4:5:6:7:G", 14);
    ipv6_bad_at("1:2:3:4:5:6:7:Z", 14);
    ipv6_bad_at("1:2:3:4:5:6:7:gg", 14);
    ipv6_bad_at("2001:db8::g1", 10);
    ipv6_bad_at("g:h:i:j:k:l:m:n", 0);
    ipv6_bad_at("1:2:3:4:5:6:7:\u{1F480}", 14);
    ipv6_bad_at("::1 ", 3);
    ipv6_bad_at(" ::1", 0);
    ipv6_bad_at("::1\u{E9}", 3);
    ipv6_bad_at("::1-2", 3);
    ipv6_bad_at("::1,2", 3);
    ipv6_bad_at("::1_", 3);
    ipv6_bad_at("-1::", 0);
    // Zone identifiers are RFC 6874, not RFC 3986/3987.
    ipv6_bad_at("fe80::1%25eth0", 7);
    ipv6_bad_at("fe80::1%eth0", 7);
    ipv6_bad_at("::1%", 3);
    // Percent-encoding is not allowed in an IP literal.
    ipv6_bad_at("%3A%3A1", 0);
    // Malformed ls32 / embedded IPv4.
    ipv6_bad("::1.2.3");
    ipv6_bad("::1.2.3.4.5");
    ipv6_bad("::256.1.1.1");
    ipv6_bad("::ffff:300.168.1.1");
    ipv6_bad("::ffff:192.168.0.01");
    ipv6_bad("::ffff:01.2.3.4");
    ipv6_bad("::1.2.3.4:5");
    ipv6_bad("::1.2.3.4::");
    ipv6_bad("1.2.3.4::");
    ipv6_bad("::ffff:1.2.3.");
    ipv6_bad("::ffff:.1.2.3");
    ipv6_bad("::ffff:1..2.3");
    ipv6_bad("::1234.1.1.1");
    ipv6_bad("::a.b.c.d");
    ipv6_bad("::ffff:1.2.3.4a");
}

#[test]
fn ipv6_whole_iris() {
    t(
        "http://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]",
        "iri s=http v6=[2001:0db8:85a3:0000:0000:8a2e:0370:7334] path=",
    );
    t("http://[::1]:80/p", "iri s=http v6=[::1] p=80 path=/p");
    t("http://[::1]:/", "iri s=http v6=[::1] p= path=/");
    t("//[::1]/path", "rel v6=[::1] path=/path");
    t(
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "iri s=ldap v6=[2001:db8::7] path=/c=GB q=objectClass?one",
    );
    t("http://u@[::]:0#f", "iri s=http u=u v6=[::] p=0 path= f=f");
    // No brackets: the colons split host and port.
    bad("http://::1/", 8, C::Port, K::Invalid);
    bad("http://fe80::1/", 12, C::Port, K::Invalid);
    // Brackets must enclose the whole host.
    bad("http://[::1]extra/", 12, C::Host, K::Invalid);
    bad("http://[::1]]/", 12, C::Host, K::Invalid);
    bad("http://[::1][::2]/", 12, C::Host, K::Invalid);
    bad("http://x[::1]/", 8, C::Host, K::Invalid);
    bad("http://[::1]a:80/", 12, C::Host, K::Invalid);
    bad("http://[::1]:8a/", 14, C::Port, K::Invalid);
    // Missing brackets.
    bad("http://[::1/", 7, C::Host, K::Invalid);
    bad("http://[::1", 7, C::Host, K::Invalid);
    bad("http://[192.168.1.1", 7, C::Host, K::Invalid);
    bad("http://[2001:db8::1", 7, C::Host, K::Invalid);
    bad("http://[v1.abc", 7, C::Host, K::Invalid);
    bad("http://[::1/]", 7, C::Host, K::Invalid);
    bad("http://192.168.1.1]/", 18, C::Host, K::Invalid);
    t_bad("http://[::1", "iri s=http badip=[::1 path=");
    t_bad("http://[host]/", "iri s=http badip=[host] path=/");
    t_bad("http://[v1]/", "iri s=http badip=[v1] path=/");
}

// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )

#[track_caller]
fn ipvf_ok(s: &str) {
    host_ok(&format!("[{s}]"), HostKind::IpvFuture);
}

#[track_caller]
fn ipvf_bad(s: &str) {
    let input = format!("http://[{s}]/");
    let (e, a) = err(&input);
    assert_eq!(
        (e.component, a.issues[0].kind),
        (C::Host, K::Invalid),
        "{input:?}: {e:?}"
    );
    assert!(
        (7..=8 + s.len()).contains(&e.offset),
        "{input:?}: offset {}",
        e.offset
    );
    assert_eq!(
        host_kind(&a),
        None,
        "{input:?}: a malformed IP literal has no host kind"
    );
}

#[track_caller]
fn ipvf_bad_at(s: &str, offset_in_literal: usize) {
    ipvf_bad(s);
    bad(
        &format!("http://[{s}]/"),
        8 + offset_in_literal,
        C::Host,
        K::Invalid,
    );
}

#[test]
fn ipvfuture_valid() {
    ipvf_ok("v1.a");
    ipvf_ok("V1.a");
    ipvf_ok("V1.fe");
    ipvf_ok("v1.test");
    ipvf_ok("vFF.abcd");
    ipvf_ok("vff.abcd");
    ipvf_ok("vA.b");
    ipvf_ok("v0123456789abcdefABCDEF.x");
    ipvf_ok("v1.~-._");
    ipvf_ok("v1.!$&'()*+,;=");
    ipvf_ok("v1.a:b");
    ipvf_ok("v1.:");
    ipvf_ok("v1.::1");
    ipvf_ok("v1..");
    ipvf_ok("v123.host");
    ipvf_ok("v7.1.2.3.4");
    ipvf_ok("v9.Zz09");
    t("http://[V1.fe]", "iri s=http vf=[V1.fe] path=");
    t("//[v1.x]:1/p", "rel vf=[v1.x] p=1 path=/p");
}

#[test]
fn ipvfuture_invalid() {
    ipvf_bad_at("v", 1);
    ipvf_bad_at("V", 1);
    ipvf_bad_at("v1", 2);
    ipvf_bad_at("v123", 4);
    ipvf_bad_at("v.123", 1);
    ipvf_bad_at("v.abc", 1);
    ipvf_bad_at("v.", 1);
    ipvf_bad_at("v1.", 3);
    ipvf_bad_at("v123.", 5);
    ipvf_bad_at("vX.abc", 1);
    ipvf_bad_at("vg.a", 1);
    ipvf_bad_at("v-1.a", 1);
    ipvf_bad_at("v1-.a", 2);
    ipvf_bad_at("v1.%41", 3);
    ipvf_bad_at("v1.\u{E9}", 3);
    ipvf_bad_at("v1.\u{1F4A1}", 3);
    ipvf_bad_at("v1. ", 3);
    ipvf_bad_at("v1.a b", 4);
    ipvf_bad_at("v1.a\"", 4);
    ipvf_bad_at("v1.a[", 4);
    ipvf_bad_at("v1.[]", 3);
    ipvf_bad_at("v1.a\u{E000}", 4);
    // '@', '/', '?', '#' end the userinfo or the authority before the ']'.
    err("http://[v1.@]/");
    err("http://[v1.#]/");
    err("http://[v1/]/");
    err("http://[v1.a?]/");
    // Not 'v': read as IPv6.
    ipv6_bad("w1.a");
    ipv6_bad("x1.a");
}

// ---------------------------------------------------------------------------------------------
// port = *DIGIT
// ---------------------------------------------------------------------------------------------

#[track_caller]
fn port_ok(p: &str) {
    for (input, host) in [
        (format!("http://h:{p}/"), "h"),
        (format!("http://h:{p}"), "h"),
        (format!("//u@[::1]:{p}?q"), "[::1]"),
        (format!("x://1.2.3.4:{p}#f"), "1.2.3.4"),
        (format!("x://:{p}"), ""),
        (format!("x://[v1.x]:{p}/"), "[v1.x]"),
    ] {
        let i = ok(&input);
        let a = i.authority.as_ref().unwrap();
        assert_eq!(opt(&input, &a.port), Some(p), "port of {input:?}");
        assert_eq!(sl(&input, &a.host.range), host, "host of {input:?}");
    }
}

#[track_caller]
fn port_bad(p: &str, offset: usize) {
    bad_in(&format!("http://h:{p}/"), 9 + offset, C::Port);
    bad_in(&format!("//[::1]:{p}"), 8 + offset, C::Port);
}

#[test]
fn port_valid() {
    port_ok("");
    port_ok("0");
    port_ok("80");
    port_ok("443");
    port_ok("8080");
    port_ok("65535");
    port_ok("65536"); // the grammar does not bound the value
    port_ok("00");
    port_ok("0000080");
    port_ok("99999999999999999999999");
    port_ok("0123456789");
    // No port at all.
    let i = ok("http://h/");
    assert_eq!(i.authority.unwrap().port, None);
    let i = ok("http://[::1]/");
    assert_eq!(i.authority.unwrap().port, None);
}

#[test]
fn port_invalid() {
    port_bad("abc", 0);
    port_bad("-80", 0);
    port_bad("22 ", 2);
    port_bad(" 22", 0);
    port_bad("22.5", 2);
    port_bad("22a", 2);
    port_bad("!", 0);
    port_bad(":", 0);
    port_bad("80:80", 2);
    port_bad("0x50", 1);
    port_bad("+80", 0);
    port_bad("80-", 2);
    port_bad("port", 0);
    port_bad("6553A", 4);
    port_bad("%38%30", 0);
    port_bad("\u{661}\u{662}", 0); // ARABIC-INDIC digits are not DIGIT
    port_bad("\u{FF18}\u{FF10}", 0); // FULLWIDTH digits
    port_bad("8\u{E000}", 1);
    port_bad("[80]", 0);
    bad("http://h:22\n/", 11, C::Port, K::Control);
    bad("http://h:\t80/", 9, C::Port, K::Control);
    bad("http://h:8\u{85}/", 10, C::Port, K::Control);
    bad_in("http://example.com:abc/path", 19, C::Port);
    bad_in("//example.com:abc/p", 14, C::Port);
    bad_in("http://example.com:port", 19, C::Port);
    bad_in("ftp://host:-21", 11, C::Port);
    bad_in("http://host::80/", 12, C::Port);
    bad_in("http://:host/", 8, C::Port);
    bad_in("http://user@:host/", 13, C::Port);
    bad_in("http://user@host:port/", 17, C::Port);
    // '/', '?', '#' end the authority and hence the port.
    t("http://h:80/udp", "iri s=http reg=h p=80 path=/udp");
    t("http://h:80?x", "iri s=http reg=h p=80 path= q=x");
    t("http://h:80#x", "iri s=http reg=h p=80 path= f=x");
}

// ---------------------------------------------------------------------------------------------
// iauthority = [ iuserinfo "@" ] ihost [ ":" port ]
// ---------------------------------------------------------------------------------------------

#[test]
fn authority_decomposition() {
    t("http://example.com", "iri s=http reg=example.com path=");
    t("http://", "iri s=http reg= path=");
    t("//", "rel reg= path=");
    t(
        "http://user@example.com",
        "iri s=http u=user reg=example.com path=",
    );
    t(
        "http://example.com:80",
        "iri s=http reg=example.com p=80 path=",
    );
    t(
        "http://user:pass@example.com:443",
        "iri s=http u=user:pass reg=example.com p=443 path=",
    );
    t("http://[::1]", "iri s=http v6=[::1] path=");
    t("http://[::1]:8080", "iri s=http v6=[::1] p=8080 path=");
    t(
        "http://\u{7528}\u{6237}@\u{4E2D}\u{6587}.com:8080",
        "iri s=http u=\u{7528}\u{6237} reg=\u{4E2D}\u{6587}.com p=8080 path=",
    );
    t("http://@", "iri s=http u= reg= path=");
    t("http://@:", "iri s=http u= reg= p= path=");
    t("http://:", "iri s=http reg= p= path=");
    t("http://:80", "iri s=http reg= p=80 path=");
    t("http://a:", "iri s=http reg=a p= path=");
    t("http://a:/", "iri s=http reg=a p= path=/");
    t("http://@a", "iri s=http u= reg=a path=");
    t("http://u:@a", "iri s=http u=u: reg=a path=");
    t("http://:@a:", "iri s=http u=: reg=a p= path=");
    t(
        "telnet://192.0.2.16:80/",
        "iri s=telnet v4=192.0.2.16 p=80 path=/",
    );
    t(
        "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
        "iri s=http u=-.~_!$&'()*+,;=:%40:80%2f:::::: reg=example.com path=",
    );
    t("http:///example.com", "iri s=http reg= path=/example.com");
    t("http:///host:80", "iri s=http reg= path=/host:80");
    t("file:///etc/hosts", "iri s=file reg= path=/etc/hosts");
    t("s://x", "iri s=s reg=x path=");
    t("//example.com", "rel reg=example.com path=");
    t(
        "//user@example.com:80/path",
        "rel u=user reg=example.com p=80 path=/path",
    );
    // Authority only with "//": a single slash is a path.
    t("http:/example.com", "iri s=http path=/example.com");
    t("/example.com", "rel path=/example.com");
    t("http:example.com", "iri s=http path=example.com");
    // The authority ends at the first '/', '?' or '#'.
    t("http://a?b/c", "iri s=http reg=a path= q=b/c");
    t("http://a#b/c?d", "iri s=http reg=a path= f=b/c?d");
    t("http://a/b?c#d", "iri s=http reg=a path=/b q=c f=d");
}

// ---------------------------------------------------------------------------------------------
// Paths: ipath-abempty, ipath-absolute, ipath-rootless, ipath-noscheme, ipath-empty, isegment*
// ---------------------------------------------------------------------------------------------

/// ipath-abempty = *( "/" isegment ): after an authority.
#[track_caller]
fn abempty_ok(p: &str, expected_segments: &[&str]) {
    for input in [
        format!("http://h{p}"),
        format!("//h{p}?q"),
        format!("x://u@[::1]:1{p}#f"),
    ] {
        let i = ok(&input);
        assert!(i.authority.is_some(), "{input:?}");
        assert_eq!(sl(&input, &i.path), p, "path of {input:?}");
        segs(&input, expected_segments);
    }
}

/// ipath-absolute = "/" [ isegment-nz *( "/" isegment ) ]: no authority, scheme or not.
#[track_caller]
fn absolute_ok(p: &str, expected_segments: &[&str]) {
    for (input, kind) in [
        (format!("x:{p}"), Kind::Iri),
        (p.to_string(), Kind::Relative),
        (format!("{p}?q#f"), Kind::Relative),
    ] {
        let i = ok(&input);
        assert_eq!(i.kind, kind, "{input:?}");
        assert!(i.authority.is_none(), "{input:?}");
        assert_eq!(sl(&input, &i.path), p, "path of {input:?}");
        segs(&input, expected_segments);
    }
}

/// ipath-rootless = isegment-nz *( "/" isegment ): after a scheme.
#[track_caller]
fn rootless_ok(p: &str, expected_segments: &[&str]) {
    for input in [format!("urn:{p}"), format!("x:{p}?q#f")] {
        let i = ok(&input);
        assert_eq!(i.kind, Kind::Iri, "{input:?}");
        assert!(i.authority.is_none(), "{input:?}");
        assert_eq!(sl(&input, &i.path), p, "path of {input:?}");
        segs(&input, expected_segments);
    }
}

/// ipath-noscheme = isegment-nz-nc *( "/" isegment ): a relative reference.
#[track_caller]
fn noscheme_ok(p: &str, expected_segments: &[&str]) {
    for input in [p.to_string(), format!("{p}?q#f"), format!("{p}#f")] {
        let i = ok(&input);
        assert_eq!(i.kind, Kind::Relative, "{input:?}");
        assert!(i.scheme.is_none() && i.authority.is_none(), "{input:?}");
        assert_eq!(sl(&input, &i.path), p, "path of {input:?}");
        segs(&input, expected_segments);
    }
}

/// isegment = *ipchar, as a middle segment.
#[track_caller]
fn segment_ok(s: &str) {
    for input in [
        format!("http://h/{s}/z"),
        format!("x:/a/{s}"),
        format!("a/{s}?q"),
    ] {
        let i = ok(&input);
        assert!(
            i.segments(&input).any(|r| sl(&input, &r) == s),
            "{input:?}: segment {s:?} not among {:?}",
            i.segments(&input).collect::<Vec<_>>()
        );
    }
}

#[track_caller]
fn segment_bad(s: &str, offset: usize, kind: IssueKind) {
    bad(&format!("http://h/{s}"), 9 + offset, C::Path, kind);
    bad(&format!("x:/a/{s}/b"), 5 + offset, C::Path, kind);
    bad(&format!("urn:{s}"), 4 + offset, C::Path, kind);
    bad(&format!("/{s}?q"), 1 + offset, C::Path, kind);
    bad(&format!("a/{s}#f"), 2 + offset, C::Path, kind);
}

#[test]
fn ipath_abempty() {
    abempty_ok("", &[]);
    abempty_ok("/", &[""]);
    abempty_ok("/segment", &["segment"]);
    abempty_ok("/a/b/c", &["a", "b", "c"]);
    abempty_ok("//double", &["", "double"]);
    abempty_ok("//", &["", ""]);
    abempty_ok("///", &["", "", ""]);
    abempty_ok("/a//b/", &["a", "", "b", ""]);
    abempty_ok("/\u{FC}ber/path", &["\u{FC}ber", "path"]);
    abempty_ok("/seg:ment", &["seg:ment"]);
    abempty_ok("/:", &[":"]);
    abempty_ok("/seg%20ment", &["seg%20ment"]);
    abempty_ok("/@a:b/c@d", &["@a:b", "c@d"]);
    abempty_ok("/./../.", &[".", "..", "."]);
    abempty_ok("/rfc/rfc1808.txt", &["rfc", "rfc1808.txt"]);
    abempty_ok(
        "/blah_(w\u{EE}k\u{EF}p\u{E9}di\u{E5})_blah",
        &["blah_(w\u{EE}k\u{EF}p\u{E9}di\u{E5})_blah"],
    );
}

#[test]
fn ipath_absolute() {
    absolute_ok("/", &[""]);
    absolute_ok("/segment", &["segment"]);
    absolute_ok("/a/b/c", &["a", "b", "c"]);
    absolute_ok("/a/", &["a", ""]);
    absolute_ok("/a//b", &["a", "", "b"]);
    absolute_ok("/\u{FC}ber/path", &["\u{FC}ber", "path"]);
    absolute_ok("/seg:ment/sub", &["seg:ment", "sub"]);
    absolute_ok("/:", &[":"]);
    absolute_ok("/a:b:c", &["a:b:c"]);
    absolute_ok("/%20/path", &["%20", "path"]);
    absolute_ok("/seg!$&'()*+,;=", &["seg!$&'()*+,;="]);
    absolute_ok("/etc/hosts", &["etc", "hosts"]);
    absolute_ok(
        "/documents/\u{928}\u{93F}\u{92F}\u{92E}.pdf",
        &["documents", "\u{928}\u{93F}\u{92F}\u{92E}.pdf"],
    );
    absolute_ok("/\u{E2}\u{3C0}\u{3C0}", &["\u{E2}\u{3C0}\u{3C0}"]);
    // "//" right after the scheme or at the start is an authority, never an ipath-absolute.
    t("x://a", "iri s=x reg=a path=");
    t("//a/b", "rel reg=a path=/b");
}

#[test]
fn ipath_rootless() {
    rootless_ok("a", &["a"]);
    rootless_ok("segment", &["segment"]);
    rootless_ok("a/b/c", &["a", "b", "c"]);
    rootless_ok("a/", &["a", ""]);
    rootless_ok("a//", &["a", "", ""]);
    rootless_ok("\u{FC}ber/path", &["\u{FC}ber", "path"]);
    rootless_ok("seg:ment", &["seg:ment"]);
    rootless_ok(":", &[":"]);
    rootless_ok("::a", &["::a"]);
    rootless_ok("%20/path", &["%20", "path"]);
    rootless_ok("scheme:like/path", &["scheme:like", "path"]);
    rootless_ok("@", &["@"]);
    rootless_ok("example:resource", &["example:resource"]);
    rootless_ok(
        "oasis:names:specification:docbook:dtd:xml:4.1.2",
        &["oasis:names:specification:docbook:dtd:xml:4.1.2"],
    );
    t(
        "mailto:John.Doe@example.com",
        "iri s=mailto path=John.Doe@example.com",
    );
    t(
        "news:comp.infosystems.www.servers.unix",
        "iri s=news path=comp.infosystems.www.servers.unix",
    );
    t("tel:+1-816-555-1212", "iri s=tel path=+1-816-555-1212");
    t(
        "mailto:\u{7528}\u{6237}@\u{4F8B}\u{5B50}.\u{516C}\u{53F8}@example.com",
        "iri s=mailto path=\u{7528}\u{6237}@\u{4F8B}\u{5B50}.\u{516C}\u{53F8}@example.com",
    );
}

#[test]
fn ipath_noscheme() {
    noscheme_ok("a", &["a"]);
    noscheme_ok("segment", &["segment"]);
    noscheme_ok("a/b/c", &["a", "b", "c"]);
    noscheme_ok("a/", &["a", ""]);
    noscheme_ok("a//b", &["a", "", "b"]);
    noscheme_ok("\u{FC}ber/path", &["\u{FC}ber", "path"]);
    noscheme_ok("@user/info", &["@user", "info"]);
    noscheme_ok("a@b@c", &["a@b@c"]);
    noscheme_ok("seg!ment/sub", &["seg!ment", "sub"]);
    noscheme_ok("a/b:c", &["a", "b:c"]);
    noscheme_ok("%20/path", &["%20", "path"]);
    noscheme_ok("%3A", &["%3A"]);
    noscheme_ok(".", &["."]);
    noscheme_ok("./", &[".", ""]);
    noscheme_ok("./this:that", &[".", "this:that"]);
    noscheme_ok("..", &[".."]);
    noscheme_ok("../", &["..", ""]);
    noscheme_ok("../g", &["..", "g"]);
    noscheme_ok("../../g", &["..", "..", "g"]);
    noscheme_ok("g;x=1/../y", &["g;x=1", "..", "y"]);
    noscheme_ok("\u{E2}\u{3C0}\u{3C0}", &["\u{E2}\u{3C0}\u{3C0}"]);
    noscheme_ok(
        "../../\u{444}\u{43E}\u{442}\u{43E}/\u{43B}\u{43E}\u{448}\u{430}\u{434}\u{44C}.jpg",
        &[
            "..",
            "..",
            "\u{444}\u{43E}\u{442}\u{43E}",
            "\u{43B}\u{43E}\u{448}\u{430}\u{434}\u{44C}.jpg",
        ],
    );
}

#[test]
fn ipath_noscheme_first_segment_has_no_colon() {
    // A leading ':' cannot start a scheme, so it is a colon in the first segment.
    bad(":segment", 0, C::Path, K::Invalid);
    bad(":", 0, C::Path, K::Invalid);
    bad("::", 0, C::Path, K::Invalid);
    bad(":a/b", 0, C::Path, K::Invalid);
    bad(":?q", 0, C::Path, K::Invalid);
    bad(":#f", 0, C::Path, K::Invalid);
    // With text before the colon, that text is a (bad) scheme.
    bad_at("1:b", 0);
    bad_at("1a:b", 0);
    bad_at("%3A:b", 0);
    bad_at("@:x", 0);
    bad_at("\u{E9}:x", 0);
    bad_at("a b:c", 1);
    bad_at("-:x", 0);
    // Colons after the first slash, or after '?'/'#', are fine.
    t("a/:", "rel path=a/:");
    t("./:", "rel path=./:");
    t("/:", "rel path=/:");
    t("?:", "rel path= q=:");
    t("#:", "rel path= f=:");
}

#[test]
fn ipath_empty() {
    for (input, expected) in [
        ("http:", "iri s=http path="),
        ("urn:?q", "iri s=urn path= q=q"),
        ("urn:#f", "iri s=urn path= f=f"),
        ("x:?#", "iri s=x path= q= f="),
        ("", "rel path="),
        ("?", "rel path= q="),
        ("#", "rel path= f="),
        ("?#", "rel path= q= f="),
        ("?q=1", "rel path= q=q=1"),
        ("#frag", "rel path= f=frag"),
        ("?q=1#frag", "rel path= q=q=1 f=frag"),
        ("http://a", "iri s=http reg=a path="),
        ("http://a?x", "iri s=http reg=a path= q=x"),
    ] {
        t(input, expected);
        assert!(
            ok(input).segments(input).next().is_none(),
            "{input:?}: an empty path has no segments"
        );
    }
}

#[test]
fn isegment_valid() {
    segment_ok("");
    segment_ok("a");
    segment_ok("segment");
    segment_ok("seg:ment");
    segment_ok("seg@ment");
    segment_ok("%20");
    segment_ok("%2F");
    segment_ok("\u{FC}ber");
    segment_ok("seg!$&'()*+,;=");
    segment_ok("seg!$&'()*+,;=:@");
    segment_ok(":");
    segment_ok("@");
    segment_ok("..");
    segment_ok("-._~");
    segment_ok("\u{A0}\u{D7FF}\u{F900}\u{FDCF}\u{FDF0}\u{FFEF}");
    segment_ok("\u{10000}\u{1FFFD}\u{20000}\u{DFFFD}\u{E1000}\u{EFFFD}");
    segment_ok("%e2%80%ae");
    segment_ok("D%C3%BCrst");
    segment_ok("D\u{FC}rst");
    segment_ok("ros%C3%A9");
    segment_ok("\u{10300}\u{10301}\u{10302}");
}

#[test]
fn isegment_invalid() {
    segment_bad("seg|ment", 3, K::UnwiseAscii);
    segment_bad("seg<ment", 3, K::UnwiseAscii);
    segment_bad("seg>ment", 3, K::UnwiseAscii);
    segment_bad("seg[ment", 3, K::StrayDelimiter);
    segment_bad("seg]ment", 3, K::StrayDelimiter);
    segment_bad("seg ment", 3, K::UnwiseAscii);
    segment_bad("seg\nment", 3, K::Control);
    segment_bad("seg\tment", 3, K::Control);
    segment_bad("seg\rment", 3, K::Control);
    segment_bad("seg\u{0}ment", 3, K::Control);
    segment_bad("seg\u{7F}ment", 3, K::Control);
    segment_bad("seg\u{85}ment", 3, K::Control);
    segment_bad("seg%GG", 3, K::BadPercent);
    segment_bad("%", 0, K::BadPercent);
    segment_bad("seg%", 3, K::BadPercent);
    segment_bad("seg\\ment", 3, K::UnwiseAscii);
    segment_bad("seg`ment", 3, K::UnwiseAscii);
    segment_bad("seg^ment", 3, K::UnwiseAscii);
    segment_bad("seg{ment", 3, K::UnwiseAscii);
    segment_bad("seg}ment", 3, K::UnwiseAscii);
    segment_bad("seg\"ment", 3, K::UnwiseAscii);
    segment_bad("seg\u{E000}", 3, K::PrivateUse);
    segment_bad("seg\u{10FFFD}", 3, K::PrivateUse);
    segment_bad("seg\u{FFFE}", 3, K::Invalid);
    segment_bad("\u{E0001}", 0, K::Invalid);
    bad("http://example.com/abc def", 22, C::Path, K::UnwiseAscii);
    bad(
        "https://example.org/foobar\\.txt",
        26,
        C::Path,
        K::UnwiseAscii,
    );
    bad(
        "https://example.org/foobar\".txt",
        26,
        C::Path,
        K::UnwiseAscii,
    );
    bad(
        "https://example.org/foobar<>.txt",
        26,
        C::Path,
        K::UnwiseAscii,
    );
    bad(
        "https://example.org/foobar{}.txt",
        26,
        C::Path,
        K::UnwiseAscii,
    );
    bad(
        "https://example.org/foobar^.txt",
        26,
        C::Path,
        K::UnwiseAscii,
    );
    bad(
        "https://example.org/foobar`.txt",
        26,
        C::Path,
        K::UnwiseAscii,
    );
    bad(
        "https://example.org/foo bar.txt",
        23,
        C::Path,
        K::UnwiseAscii,
    );
    bad(
        "https://example.org/foobar|.txt",
        26,
        C::Path,
        K::UnwiseAscii,
    );
    bad("/a\"b", 2, C::Path, K::UnwiseAscii);
    bad(
        "\\\\WINDOWS\\fil\u{EB}\u{DF}\u{E5}r\u{E9}",
        0,
        C::Path,
        K::UnwiseAscii,
    );
    bad(
        "http://\u{192}\u{F8}\u{F8}.\u{DF}\u{E5}r/\n",
        20,
        C::Path,
        K::Control,
    );
}

#[test]
fn segments_are_split_at_every_slash() {
    segs("http://h", &[]);
    segs("http://h/", &[""]);
    segs("http://h/a", &["a"]);
    segs("http://h//", &["", ""]);
    segs("http://h/a/b/", &["a", "b", ""]);
    segs("a", &["a"]);
    segs("a/b", &["a", "b"]);
    segs("/", &[""]);
    segs("/a", &["a"]);
    segs("x:a", &["a"]);
    segs("x:/", &[""]);
    segs("x:a/", &["a", ""]);
    segs("", &[]);
    segs("?a/b", &[]);
    segs("#a/b", &[]);
    segs("a?b/c#d/e", &["a"]);
}

// ---------------------------------------------------------------------------------------------
// iquery = *( ipchar / iprivate / "/" / "?" )
// ---------------------------------------------------------------------------------------------

#[track_caller]
fn query_ok(q: &str) {
    for input in [
        format!("http://h/p?{q}"),
        format!("?{q}"),
        format!("x:?{q}#f"),
        format!("a?{q}"),
        format!("//h?{q}"),
    ] {
        let i = ok(&input);
        assert_eq!(opt(&input, &i.query), Some(q), "query of {input:?}");
    }
}

#[track_caller]
fn query_bad(q: &str, offset: usize, kind: IssueKind) {
    bad(&format!("http://h/?{q}"), 10 + offset, C::Query, kind);
    bad(&format!("?{q}#f"), 1 + offset, C::Query, kind);
}

/// The query split at '&' and ';' into (name, value-after-first-'=').
#[track_caller]
fn query_parts(q: &str, expected: &[(&str, Option<&str>)]) {
    let input = format!("http://h/?{q}#f");
    let i = ok(&input);
    let got: Vec<(&str, Option<&str>)> = i
        .query_parts(&input)
        .map(|p| {
            let whole = sl(&input, &p.range);
            let name = sl(&input, &p.name);
            let value = opt(&input, &p.value);
            let rebuilt = match value {
                Some(v) => format!("{name}={v}"),
                None => name.to_string(),
            };
            assert_eq!(rebuilt, whole, "{input:?}: part = name ['=' value]");
            (name, value)
        })
        .collect();
    assert_eq!(got, expected, "query parts of {input:?}");
}

#[test]
fn iquery_valid() {
    query_ok("");
    query_ok("q=1");
    query_ok("key=value&key2=value2");
    query_ok("/path");
    query_ok("?nested");
    query_ok("??");
    query_ok("//");
    query_ok("\u{FC}ber");
    query_ok("\u{E000}");
    query_ok("q=a!b$c&d=e'f(g)h*i+j,k;l=m");
    query_ok("seg:ment@host");
    query_ok("q=%20value");
    query_ok("a=b=c");
    query_ok("&&");
    query_ok(";");
    query_ok("=");
    query_ok("objectClass?one");
    query_ok("\u{2202}\u{E9}\u{153}=\u{3C0}\u{EE}x");
    query_ok("q=Test%20URL-encoded%20stuff");
    query_ok("q=\u{F0000}");
    query_ok("foo=\u{E000}-\u{F8FF}&bar=\u{F0000}-\u{FFFFD}&baz=\u{100000}-\u{10FFFD}");
    query_ok("q=1&lang=\u{FC}ber");
    t(
        "http://example.com?#frag",
        "iri s=http reg=example.com path= q= f=frag",
    );
    t("http://h/?q=#", "iri s=http reg=h path=/ q=q= f=");
    t(
        "http://h/?q=val#frag",
        "iri s=http reg=h path=/ q=q=val f=frag",
    );
    t("g?y/./x", "rel path=g q=y/./x");
}

#[test]
fn iquery_invalid() {
    query_bad("q=1 2", 3, K::UnwiseAscii);
    query_bad("q=%%", 2, K::BadPercent);
    query_bad("q=%GG", 2, K::BadPercent);
    query_bad("q=[val]", 2, K::StrayDelimiter);
    query_bad("q=<val>", 2, K::UnwiseAscii);
    query_bad("q=`val`", 2, K::UnwiseAscii);
    query_bad("q=|val|", 2, K::UnwiseAscii);
    query_bad("q=abc%", 5, K::BadPercent);
    query_bad("q=value\n", 7, K::Control);
    query_bad("q=value\t", 7, K::Control);
    query_bad("q=value^", 7, K::UnwiseAscii);
    query_bad("q=value{}", 7, K::UnwiseAscii);
    query_bad("q=\\", 2, K::UnwiseAscii);
    query_bad("q=\"", 2, K::UnwiseAscii);
    query_bad("q=\u{FFFE}", 2, K::Invalid);
    query_bad("q=\u{FDD0}", 2, K::Invalid);
    query_bad("q=\u{E0001}", 2, K::Invalid);
    query_bad("q=\u{FFFFE}", 2, K::Invalid);
    query_bad("q=\u{10FFFF}", 2, K::Invalid);
    query_bad("q=\u{9F}", 2, K::Control);
    bad("http://example.com?q=%GG", 21, C::Query, K::BadPercent);
}

#[test]
fn iquery_parts() {
    query_parts(
        "a=1&b=2;c",
        &[("a", Some("1")), ("b", Some("2")), ("c", None)],
    );
    query_parts("a=b=c", &[("a", Some("b=c"))]);
    query_parts("a", &[("a", None)]);
    query_parts("a=", &[("a", Some(""))]);
    query_parts("=b", &[("", Some("b"))]);
    query_parts("a&&b", &[("a", None), ("", None), ("b", None)]);
    query_parts("&", &[("", None), ("", None)]);
    query_parts(";a=1;", &[("", None), ("a", Some("1")), ("", None)]);
    query_parts("x=?/:@", &[("x", Some("?/:@"))]);
    query_parts("q=\u{E000}&r", &[("q", Some("\u{E000}")), ("r", None)]);
    query_parts(
        "\u{2202}\u{E9}\u{153}=\u{3C0}\u{EE}x",
        &[("\u{2202}\u{E9}\u{153}", Some("\u{3C0}\u{EE}x"))],
    );
    // No query, no parts.
    assert!(
        ok("http://h/p#a=b&c")
            .query_parts("http://h/p#a=b&c")
            .next()
            .is_none()
    );
    assert!(ok("a=b&c").query_parts("a=b&c").next().is_none());
}

// ---------------------------------------------------------------------------------------------
// ifragment = *( ipchar / "/" / "?" )
// ---------------------------------------------------------------------------------------------

#[track_caller]
fn frag_ok(f: &str) {
    for input in [
        format!("http://h/p#{f}"),
        format!("#{f}"),
        format!("x:#{f}"),
        format!("?q#{f}"),
        format!("//h#{f}"),
    ] {
        let i = ok(&input);
        assert_eq!(opt(&input, &i.fragment), Some(f), "fragment of {input:?}");
    }
}

#[track_caller]
fn frag_bad(f: &str, offset: usize, kind: IssueKind) {
    bad(&format!("http://h/#{f}"), 10 + offset, C::Fragment, kind);
    bad(&format!("?q#{f}"), 3 + offset, C::Fragment, kind);
}

#[test]
fn ifragment_valid() {
    frag_ok("");
    frag_ok("section1");
    frag_ok("\u{FC}ber");
    frag_ok("/path");
    frag_ok("?query");
    frag_ok("seg:ment");
    frag_ok("%20");
    frag_ok("a!b$c&d=e'f(g)h*i+j,k;l=m");
    frag_ok("seg@host");
    frag_ok("//??");
    frag_ok("\u{3C0}\u{EE}\u{FC}x");
    frag_ok("\u{DF}it\u{E9}-1");
    frag_ok("\u{7B2C}\u{4E00}\u{7AE0}");
    frag_ok("\u{30BB}\u{30AF}\u{30B7}\u{30E7}\u{30F3}1");
    frag_ok("s/../x");
}

#[test]
fn ifragment_invalid() {
    frag_bad("frag ment", 4, K::UnwiseAscii);
    frag_bad("frag%", 4, K::BadPercent);
    frag_bad("frag%GG", 4, K::BadPercent);
    frag_bad("frag#", 4, K::StrayDelimiter);
    frag_bad("#", 0, K::StrayDelimiter);
    frag_bad("a#b#c", 1, K::StrayDelimiter);
    frag_bad("frag\nment", 4, K::Control);
    frag_bad("frag\tment", 4, K::Control);
    frag_bad("frag{ment", 4, K::UnwiseAscii);
    frag_bad("frag}ment", 4, K::UnwiseAscii);
    frag_bad("frag[ment", 4, K::StrayDelimiter);
    frag_bad("frag]ment", 4, K::StrayDelimiter);
    frag_bad("frag|ment", 4, K::UnwiseAscii);
    frag_bad("frag`ment", 4, K::UnwiseAscii);
    frag_bad("frag^ment", 4, K::UnwiseAscii);
    frag_bad("\u{E000}", 0, K::PrivateUse); // iprivate is for the query only
    frag_bad("x\u{F0000}", 1, K::PrivateUse);
    frag_bad("\u{10FFFD}", 0, K::PrivateUse);
    frag_bad("\u{FFFF}", 0, K::Invalid);
    bad("http://host#frag#extra", 16, C::Fragment, K::StrayDelimiter);
    bad(
        "//example.com/path#frag1#frag2",
        24,
        C::Fragment,
        K::StrayDelimiter,
    );
    bad(
        "#\u{192}r\u{E4}g\\m\u{EA}nt",
        7,
        C::Fragment,
        K::UnwiseAscii,
    );
    bad("#frag\\ment", 5, C::Fragment, K::UnwiseAscii);
}

// ---------------------------------------------------------------------------------------------
// pct-encoded = "%" HEXDIG HEXDIG, in every component that allows it
// ---------------------------------------------------------------------------------------------

#[test]
fn pct_encoded_valid_everywhere() {
    for p in [
        "%20",
        "%2F",
        "%2f",
        "%FF",
        "%00",
        "%9a",
        "%Ab",
        "%0A",
        "%7E",
        "%25",
        "%e2%80%ae",
        "%2F2F",
        "%41%42%43",
    ] {
        ok(&format!("http://{p}@h/"));
        ok(&format!("http://{p}/"));
        ok(&format!("http://h/{p}"));
        ok(p);
        ok(&format!("urn:{p}"));
        ok(&format!("http://h/?{p}"));
        ok(&format!("http://h/#{p}"));
    }
}

#[test]
fn pct_encoded_invalid_everywhere() {
    for (p, off) in [
        ("%", 0),
        ("%2", 0),
        ("%G1", 0),
        ("%1Z", 0),
        ("%%20", 0),
        ("%2F%", 3),
        ("%u1234", 0),
        ("%1", 0),
        ("% 2F", 0),
        ("%2G", 0),
        ("%xy", 0),
        ("%20%2", 3),
        ("%00%", 3),
        ("%0", 0),
        ("%ZZ", 0),
        ("%F", 0),
        ("%1G", 0),
        ("%\u{E9}", 0),
        ("%4\u{E9}", 0),
        ("%\u{FF11}\u{FF12}", 0), // fullwidth digits are not HEXDIG
        ("a%-1", 1),
    ] {
        bad(
            &format!("http://{p}@h/"),
            7 + off,
            C::Userinfo,
            K::BadPercent,
        );
        bad(&format!("http://{p}/"), 7 + off, C::Host, K::BadPercent);
        bad(&format!("http://h/{p}"), 9 + off, C::Path, K::BadPercent);
        bad(p, off, C::Path, K::BadPercent);
        bad(&format!("urn:{p}"), 4 + off, C::Path, K::BadPercent);
        bad(&format!("http://h/?{p}"), 10 + off, C::Query, K::BadPercent);
        bad(
            &format!("http://h/#{p}"),
            10 + off,
            C::Fragment,
            K::BadPercent,
        );
    }
    bad("http://example.com/%6G", 19, C::Path, K::BadPercent);
    bad("http://example.com/%A", 19, C::Path, K::BadPercent);
    bad("http://example.com/%", 19, C::Path, K::BadPercent);
    bad("/%zz", 1, C::Path, K::BadPercent);
    bad("http://example.com/%ZZ", 19, C::Path, K::BadPercent);
}

#[test]
fn pct_encoded_does_not_run_across_a_component_boundary() {
    // The two hex digits must be inside the same component as the '%'.
    bad("http://a/%4?1", 9, C::Path, K::BadPercent);
    bad("http://a/%?12", 9, C::Path, K::BadPercent);
    bad("http://a/%4#1", 9, C::Path, K::BadPercent);
    bad("http://a/%4/1", 9, C::Path, K::BadPercent);
    bad("http://a/?%4#12", 10, C::Query, K::BadPercent);
    bad("http://a/?%#12", 10, C::Query, K::BadPercent);
    bad("http://%4:12/", 7, C::Host, K::BadPercent);
    bad("http://%:12/", 7, C::Host, K::BadPercent);
    bad("http://a%4@b/", 8, C::Userinfo, K::BadPercent);
    bad("http://a%@12/", 8, C::Userinfo, K::BadPercent);
    bad("http://%4/1", 7, C::Host, K::BadPercent);
    bad("%4?1", 0, C::Path, K::BadPercent);
    bad("%4#1", 0, C::Path, K::BadPercent);
    bad("%/12", 0, C::Path, K::BadPercent);
    bad_at("a%4:b", 1);
}

// ---------------------------------------------------------------------------------------------
// Empty components and whole IRI-references
// ---------------------------------------------------------------------------------------------

#[test]
fn empty_components() {
    t("", "rel path=");
    t("#", "rel path= f=");
    t("?", "rel path= q=");
    t("?#", "rel path= q= f=");
    t("//", "rel reg= path=");
    t("///", "rel reg= path=/");
    t("//?#", "rel reg= path= q= f=");
    t("http:", "iri s=http path=");
    t("http://", "iri s=http reg= path=");
    t("http:///", "iri s=http reg= path=/");
    t("http:///x", "iri s=http reg= path=/x");
    t("http://a/?", "iri s=http reg=a path=/ q=");
    t("http://a/#", "iri s=http reg=a path=/ f=");
    t("http://a/?#", "iri s=http reg=a path=/ q= f=");
    t("http://a:/", "iri s=http reg=a p= path=/");
    t("http://@a/", "iri s=http u= reg=a path=/");
    t("http://@:/", "iri s=http u= reg= p= path=/");
    t("http://[::]:/", "iri s=http v6=[::] p= path=/");
    t("x:?", "iri s=x path= q=");
    t("x:#", "iri s=x path= f=");
    let i = ok("http://a/?");
    assert_eq!(i.query, Some(10..10));
    assert_eq!(i.fragment, None);
    let i = ok("#");
    assert_eq!(
        (i.path.clone(), i.query.clone(), i.fragment.clone()),
        (0..0, None, Some(1..1))
    );
    let i = ok("");
    assert_eq!(i.kind, Kind::Relative);
    assert!(
        i.scheme.is_none() && i.authority.is_none() && i.query.is_none() && i.fragment.is_none()
    );
    assert_eq!((i.path.clone(), i.segments("").count()), (0..0, 0));
    let i = ok("http://a:/");
    assert_eq!(i.authority.unwrap().port, Some(9..9));
    let i = ok("http:///x");
    let a = i.authority.unwrap();
    assert_eq!(
        (a.range, a.host.range, a.host.kind),
        (7..7, 7..7, Some(HostKind::RegName))
    );
}

#[test]
fn rfc3986_reference_resolution_examples() {
    // RFC 3986 §5.4.1 / §5.4.2: every reference is a valid IRI-reference.
    for (input, expected) in [
        ("g:h", "iri s=g path=h"),
        ("g", "rel path=g"),
        ("./g", "rel path=./g"),
        ("g/", "rel path=g/"),
        ("/g", "rel path=/g"),
        ("//g", "rel reg=g path="),
        ("?y", "rel path= q=y"),
        ("g?y", "rel path=g q=y"),
        ("#s", "rel path= f=s"),
        ("g#s", "rel path=g f=s"),
        ("g?y#s", "rel path=g q=y f=s"),
        (";x", "rel path=;x"),
        ("g;x", "rel path=g;x"),
        ("g;x?y#s", "rel path=g;x q=y f=s"),
        ("", "rel path="),
        (".", "rel path=."),
        ("./", "rel path=./"),
        ("..", "rel path=.."),
        ("../", "rel path=../"),
        ("../g", "rel path=../g"),
        ("../..", "rel path=../.."),
        ("../../", "rel path=../../"),
        ("../../g", "rel path=../../g"),
        ("../../../g", "rel path=../../../g"),
        ("/./g", "rel path=/./g"),
        ("/../g", "rel path=/../g"),
        ("g.", "rel path=g."),
        (".g", "rel path=.g"),
        ("g..", "rel path=g.."),
        ("..g", "rel path=..g"),
        ("./../g", "rel path=./../g"),
        ("./g/.", "rel path=./g/."),
        ("g/./h", "rel path=g/./h"),
        ("g/../h", "rel path=g/../h"),
        ("g;x=1/./y", "rel path=g;x=1/./y"),
        ("g;x=1/../y", "rel path=g;x=1/../y"),
        ("g?y/./x", "rel path=g q=y/./x"),
        ("g?y/../x", "rel path=g q=y/../x"),
        ("g#s/./x", "rel path=g f=s/./x"),
        ("g#s/../x", "rel path=g f=s/../x"),
        ("http:g", "iri s=http path=g"),
        ("http://a/b/c/d;p?q", "iri s=http reg=a path=/b/c/d;p q=q"),
    ] {
        t(input, expected);
    }
}

#[test]
fn whole_iris_valid() {
    for (input, expected) in [
        (
            "http://\u{192}\u{F8}\u{F8}.\u{DF}\u{E5}r/?\u{2202}\u{E9}\u{153}=\u{3C0}\u{EE}x#\u{3C0}\u{EE}\u{FC}x",
            "iri s=http reg=\u{192}\u{F8}\u{F8}.\u{DF}\u{E5}r path=/ q=\u{2202}\u{E9}\u{153}=\u{3C0}\u{EE}x f=\u{3C0}\u{EE}\u{FC}x",
        ),
        (
            "//\u{192}\u{F8}\u{F8}.\u{DF}\u{E5}r/?\u{2202}\u{E9}\u{153}=\u{3C0}\u{EE}x#\u{3C0}\u{EE}\u{FC}x",
            "rel reg=\u{192}\u{F8}\u{F8}.\u{DF}\u{E5}r path=/ q=\u{2202}\u{E9}\u{153}=\u{3C0}\u{EE}x f=\u{3C0}\u{EE}\u{FC}x",
        ),
        (
            "http://\u{192}\u{F8}\u{F8}.com/blah_(w\u{EE}k\u{EF}p\u{E9}di\u{E5})_blah#\u{DF}it\u{E9}-1",
            "iri s=http reg=\u{192}\u{F8}\u{F8}.com path=/blah_(w\u{EE}k\u{EF}p\u{E9}di\u{E5})_blah f=\u{DF}it\u{E9}-1",
        ),
        ("http://192.168.0.1/p", "iri s=http v4=192.168.0.1 path=/p"),
        (
            "http://223.255.255.254",
            "iri s=http v4=223.255.255.254 path=",
        ),
        ("http://087.10.0.1/", "iri s=http reg=087.10.0.1 path=/"),
        (
            "http://999.999.999.999/",
            "iri s=http reg=999.999.999.999 path=/",
        ),
        (
            "http://[2001:db8::1]/path",
            "iri s=http v6=[2001:db8::1] path=/path",
        ),
        (
            "http://[v1.test]/path",
            "iri s=http vf=[v1.test] path=/path",
        ),
        ("urn:example:resource", "iri s=urn path=example:resource"),
        ("file:/etc/hosts", "iri s=file path=/etc/hosts"),
        (
            "http://\u{192}\u{F8}\u{F8}.\u{DF}\u{E5}r/\u{10300}",
            "iri s=http reg=\u{192}\u{F8}\u{F8}.\u{DF}\u{E5}r path=/\u{10300}",
        ),
        (
            "http://\u{192}\u{F8}\u{F8}.\u{DF}\u{E5}r/?q=\u{F0000}",
            "iri s=http reg=\u{192}\u{F8}\u{F8}.\u{DF}\u{E5}r path=/ q=q=\u{F0000}",
        ),
        (
            "https://example.org/foobar\u{AE}.txt",
            "iri s=https reg=example.org path=/foobar\u{AE}.txt",
        ),
        (
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
            "iri s=ftp reg=ftp.is.co.za path=/rfc/rfc1808.txt",
        ),
        (
            "http://www.ietf.org/rfc/rfc2396.txt",
            "iri s=http reg=www.ietf.org path=/rfc/rfc2396.txt",
        ),
        (
            "http://foo.bar/?baz=qux#quux",
            "iri s=http reg=foo.bar path=/ q=baz=qux f=quux",
        ),
        (
            "http://xn--nw2a.xn--j6w193g/",
            "iri s=http reg=xn--nw2a.xn--j6w193g path=/",
        ),
        ("/abc", "rel path=/abc"),
        ("abc", "rel path=abc"),
        ("\u{E2}\u{3C0}\u{3C0}", "rel path=\u{E2}\u{3C0}\u{3C0}"),
        (
            "#\u{192}r\u{E4}gm\u{EA}nt",
            "rel path= f=\u{192}r\u{E4}gm\u{EA}nt",
        ),
        (
            "index.html#\u{938}\u{902}\u{92A}\u{930}\u{94D}\u{915}",
            "rel path=index.html f=\u{938}\u{902}\u{92A}\u{930}\u{94D}\u{915}",
        ),
        (
            "doc/guide.html#\u{FC}berblick",
            "rel path=doc/guide.html f=\u{FC}berblick",
        ),
        (
            "\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}/\u{442}\u{435}\u{441}\u{442}#\u{447}\u{430}\u{441}\u{442}\u{44C}2",
            "rel path=\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}/\u{442}\u{435}\u{441}\u{442} f=\u{447}\u{430}\u{441}\u{442}\u{44C}2",
        ),
        (
            "iprivate?foo=\u{E000}-\u{F8FF}&bar=\u{F0000}-\u{FFFFD}&baz=\u{100000}-\u{10FFFD}",
            "rel path=iprivate q=foo=\u{E000}-\u{F8FF}&bar=\u{F0000}-\u{FFFFD}&baz=\u{100000}-\u{10FFFD}",
        ),
        (
            "ucschar/\u{A0}-\u{D7FF}/\u{F900}-\u{FDCF}/\u{FDF0}-\u{FFEF}",
            "rel path=ucschar/\u{A0}-\u{D7FF}/\u{F900}-\u{FDCF}/\u{FDF0}-\u{FFEF}",
        ),
        (
            "ucschar/\u{D0000}-\u{DFFFD}/\u{E1000}-\u{EFFFD}",
            "rel path=ucschar/\u{D0000}-\u{DFFFD}/\u{E1000}-\u{EFFFD}",
        ),
        (
            "//[2345:0425:2CA1:0:0:0567:5673:23b5]/foo",
            "rel v6=[2345:0425:2CA1:0:0:0567:5673:23b5] path=/foo",
        ),
        (
            "//[2041:0:140F::875B:131B]/foo",
            "rel v6=[2041:0:140F::875B:131B] path=/foo",
        ),
        (
            "http://example.com?q=1&lang=\u{FC}ber#\u{7B2C}\u{4E00}\u{7AE0}",
            "iri s=http reg=example.com path= q=q=1&lang=\u{FC}ber f=\u{7B2C}\u{4E00}\u{7AE0}",
        ),
        (
            "http://r\u{E9}sum\u{E9}.example.org",
            "iri s=http reg=r\u{E9}sum\u{E9}.example.org path=",
        ),
        (
            "http://www.example.org/red%09ros%C3%A9#red",
            "iri s=http reg=www.example.org path=/red%09ros%C3%A9 f=red",
        ),
        (
            "http://xn--99zt52a.example.org/%e2%80%ae",
            "iri s=http reg=xn--99zt52a.example.org path=/%e2%80%ae",
        ),
        (
            "http://\u{7D0D}\u{8C46}.example.org/%E2%80%AE",
            "iri s=http reg=\u{7D0D}\u{8C46}.example.org path=/%E2%80%AE",
        ),
        (
            "http://example.org/ros\u{E9}",
            "iri s=http reg=example.org path=/ros\u{E9}",
        ),
        (
            "http://example.org/ros&eacute;",
            "iri s=http reg=example.org path=/ros&eacute;",
        ),
        (
            "http://example.org/ros&#xE9;",
            "iri s=http reg=example.org path=/ros& f=xE9;",
        ),
        (
            "https://ex\u{E4}mple.example.org/page#\u{30BB}\u{30AF}\u{30B7}\u{30E7}\u{30F3}1",
            "iri s=https reg=ex\u{E4}mple.example.org path=/page f=\u{30BB}\u{30AF}\u{30B7}\u{30E7}\u{30F3}1",
        ),
        (
            "a/b/c?key=val#section",
            "rel path=a/b/c q=key=val f=section",
        ),
        ("\u{FC}ber#frag", "rel path=\u{FC}ber f=frag"),
        ("http:/#frag", "iri s=http path=/ f=frag"),
        ("http://h/a\u{202E}b", "iri s=http reg=h path=/a\u{202E}b"),
    ] {
        t(input, expected);
    }
}

#[test]
fn whole_iris_invalid() {
    bad_at("http://example.com|test", 18);
    bad_in("mailto:user@ example.com", 12, C::Path);
    bad("http://host path", 11, C::Host, K::UnwiseAscii);
    bad("//host path", 6, C::Host, K::UnwiseAscii);
    bad("/path with space", 5, C::Path, K::UnwiseAscii);
    bad("//exa mple.com", 5, C::Host, K::UnwiseAscii);
    bad("//host/%GG", 7, C::Path, K::BadPercent);
    bad("/%GG", 1, C::Path, K::BadPercent);
    bad("seg\nment", 3, C::Path, K::Control);
    bad("seg|ment", 3, C::Path, K::UnwiseAscii);
    bad("seg%GG/sub", 3, C::Path, K::BadPercent);
    bad("http://example.com/\u{0}", 19, C::Path, K::Control);
    bad("http://example.com/ ", 19, C::Path, K::UnwiseAscii);
    bad_in(" http://example.com/", 0, C::Scheme);
    // Listed as an invalid IRI in the data, but a valid relative reference.
    t("iri_invalid_0", "rel path=iri_invalid_0");
    err("http://[::ffff:192.168.0.01]");
    err("http://[::ffff:01.2.3.4]");
    err("//[::ffff:192.168.0.01]/p");
    err("https://[@example.org/test.txt");
    err("//[v1.]");
    err("http://[v1]");
    err("http://[host]");
}

// ---------------------------------------------------------------------------------------------
// Error conventions: every problem is listed, in input order, with the documented kinds
// ---------------------------------------------------------------------------------------------

fn issue_summary(input: &str) -> Vec<(usize, Component, IssueKind)> {
    analyze(input)
        .issues
        .iter()
        .map(|i| (i.range.start, i.component, i.kind))
        .collect()
}

#[test]
fn analyze_lists_every_problem_in_input_order() {
    assert_eq!(
        issue_summary("http://a b/c d?e f#g h"),
        [
            (8, C::Host, K::UnwiseAscii),
            (12, C::Path, K::UnwiseAscii),
            (16, C::Query, K::UnwiseAscii),
            (20, C::Fragment, K::UnwiseAscii),
        ]
    );
    assert_eq!(
        issue_summary("x:\u{1}\u{7F}\u{85}"),
        [
            (2, C::Path, K::Control),
            (3, C::Path, K::Control),
            (4, C::Path, K::Control)
        ]
    );
    assert_eq!(
        issue_summary("http://a/%zz%"),
        [(9, C::Path, K::BadPercent), (12, C::Path, K::BadPercent)]
    );
    assert_eq!(
        issue_summary("http://u\u{E000}@h\u{E000}/p\u{E000}?q\u{E000}#f\u{E000}"),
        [
            (8, C::Userinfo, K::PrivateUse),
            (13, C::Host, K::PrivateUse),
            (18, C::Path, K::PrivateUse),
            (28, C::Fragment, K::PrivateUse),
        ]
    );
    assert_eq!(
        issue_summary("a:b#c#d#"),
        [
            (5, C::Fragment, K::StrayDelimiter),
            (7, C::Fragment, K::StrayDelimiter)
        ]
    );
    let i = analyze("http://a/\u{FFFE}");
    assert_eq!(
        i.issues[0].range,
        9..12,
        "the range covers the whole character"
    );
    let i = analyze("http://a/\u{10FFFF}");
    assert_eq!(
        i.issues[0].range,
        9..13,
        "the range covers the whole character"
    );
    let i = analyze("http://a/ ");
    assert_eq!(i.issues[0].range, 9..10);
    assert!(!i.issues[0].message.is_empty());
}

#[test]
fn analyze_decomposes_invalid_inputs() {
    t_bad(
        "http://a b/c d?e f#g h",
        "iri s=http reg=a b path=/c d q=e f f=g h",
    );
    t_bad("1:b", "iri s=1 path=b");
    t_bad(":b", "rel path=:b");
    t_bad("http://h:x/", "iri s=http reg=h p=x path=/");
    t_bad("a b:c", "iri s=a b path=c");
}

#[test]
fn control_characters_are_control_issues_in_every_component() {
    for c in ["\u{0}", "\u{9}", "\u{1B}", "\u{7F}", "\u{80}", "\u{9F}"] {
        bad(&format!("ht{c}tp://h/"), 2, C::Scheme, K::Control);
        bad(&format!("http://u{c}@h/"), 8, C::Userinfo, K::Control);
        bad(&format!("http://h{c}/"), 8, C::Host, K::Control);
        bad(&format!("http://h:8{c}/"), 10, C::Port, K::Control);
        bad(&format!("http://h/p{c}"), 10, C::Path, K::Control);
        bad(&format!("http://h/?q{c}"), 11, C::Query, K::Control);
        bad(&format!("http://h/#f{c}"), 11, C::Fragment, K::Control);
    }
}

#[test]
fn control_characters_in_ip_literals_are_control_issues() {
    // "control chars (C0, DEL, C1) are IssueKind::Control" applies in the host too.
    for c in ["\u{0}", "\u{9}", "\u{7F}", "\u{85}"] {
        bad(&format!("http://[::1{c}]/"), 11, C::Host, K::Control);
        bad(&format!("http://[v1.x{c}]/"), 12, C::Host, K::Control);
        bad(&format!("http://[::1]{c}/"), 12, C::Host, K::Control);
    }
}

fn has_control_issue_at(input: &str, at: usize) -> bool {
    analyze(input)
        .issues
        .iter()
        .any(|i| i.range.start == at && i.kind == K::Control)
}

// analyze lists every problem: a control character after an earlier error in the same component
// is still reported, as the scheme already does.

#[test]
fn every_control_character_is_reported_in_a_bad_scheme() {
    assert!(has_control_issue_at("1a\u{1}:b", 2));
    assert!(has_control_issue_at("a_\u{1}:b", 2));
}

#[test]
fn control_every_control_character_is_reported_in_a_bad_port() {
    assert!(
        has_control_issue_at("http://h:x\u{1}/", 10),
        "{:?}",
        analyze("http://h:x\u{1}/").issues
    );
}

#[test]
fn control_every_control_character_is_reported_in_a_bad_ip_literal() {
    assert!(
        has_control_issue_at("http://[x\u{1}]/", 9),
        "{:?}",
        analyze("http://[x\u{1}]/").issues
    );
}

#[test]
fn control_every_control_character_is_reported_in_an_unclosed_ip_literal() {
    assert!(
        has_control_issue_at("http://[::1\u{1}/", 11),
        "{:?}",
        analyze("http://[::1\u{1}/").issues
    );
}

/// Past `MAX_HELD_ISSUES`, an IRI holds no more issues, and `each_issue` finds every one again,
/// in order, the held ones first and alike; filtered by kind, with or without messages.
#[test]
fn issues_past_the_held_ones_are_found_again() {
    use irilint::iri::{IssueKind, MAX_HELD_ISSUES};
    use std::ops::ControlFlow;
    let n = 3 * MAX_HELD_ISSUES;
    let input = format!(
        "http://h/{}?{}#x",
        "^\u{1}".repeat(n / 2),
        "%zz".repeat(n / 2)
    );
    let i = analyze(&input);
    assert_eq!(i.issues.len(), MAX_HELD_ISSUES);
    assert!(!i.issues_held_all);
    let mut all = Vec::new();
    let _ = i.each_issue(
        &input,
        |_| true,
        |_| true,
        |x| {
            all.push(x.clone());
            ControlFlow::<()>::Continue(())
        },
    );
    assert_eq!(all.len(), 3 * (n / 2));
    assert_eq!(all[..MAX_HELD_ISSUES], i.issues[..]);
    assert!(all.windows(2).all(|w| w[0].range.end <= w[1].range.start));
    let mut bad = 0;
    let _ = i.each_issue(
        &input,
        |k| k == IssueKind::BadPercent,
        // Messages for the first two only.
        |at| at < input.find("%zz").unwrap() + 6,
        |x| {
            assert_eq!(x.kind, IssueKind::BadPercent);
            assert_eq!(x.message.is_empty(), bad >= 2, "{x:?}");
            bad += 1;
            ControlFlow::<()>::Continue(())
        },
    );
    assert_eq!(bad, n / 2);
    // A few issues are all held, and each_issue gives those.
    let small = analyze("http://h/a^b");
    assert!(small.issues_held_all && small.issues.len() == 1);
}
