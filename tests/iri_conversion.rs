//! RFC 3987's worked examples for IRI→URI (§3.1), URI→IRI (§3.2) and the comparison ladder
//! (§5.3), copied from the spec text in `shared/spec/` (the tests never read it at run time), and
//! the four commands that expose them, end to end.
//!
//! Strings in "XML notation" (`&#xE9;`) are copied as the RFC writes them and resolved by
//! [`xml_notation`]; a line break inside a string in the RFC's plain text is noted where it is
//! removed.

use assert_cmd::Command;
use irilint::iri::{Hosts, Level, ToUriError, equivalent, normalize, parse, to_iri, to_uri};
use serde_json::Value;

/// Resolves the RFC's XML notation (`&#xHHHH;`) into characters. The Old Italic example has no
/// `;` after its last reference, so the `;` is optional.
fn xml_notation(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(k) = rest.find("&#x") {
        out.push_str(&rest[..k]);
        let hex: String = rest[k + 3..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .collect();
        let c = char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap();
        out.push(c);
        rest = &rest[k + 3 + hex.len()..];
        rest = rest.strip_prefix(';').unwrap_or(rest);
    }
    out.push_str(rest);
    out
}

/// `s` with the hex digits of its percent-encodings in uppercase.
fn upper_hex(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(k) = rest.find('%') {
        out.push_str(&rest[..k]);
        let end = (k + 3).min(rest.len());
        out.push_str(&rest[k..end].to_ascii_uppercase());
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn uri(iri: &str) -> String {
    to_uri(iri, Hosts::PercentEncode).unwrap_or_else(|e| panic!("{iri}: {e}"))
}

fn uri_idna(iri: &str) -> String {
    to_uri(iri, Hosts::ToAscii).unwrap_or_else(|e| panic!("{iri}: {e}"))
}

fn iri(uri: &str) -> String {
    to_iri(uri).unwrap_or_else(|e| panic!("{uri}: {e}"))
}

// ---------------------------------------------------------------------------------------------
// §3.1 Mapping of IRIs to URIs
// ---------------------------------------------------------------------------------------------

#[test]
fn s3_1_resume_with_and_without_toascii() {
    let iri = "http://résumé.example.org";
    assert_eq!(uri_idna(iri), "http://xn--rsum-bpad.example.org");
    assert_eq!(uri(iri), "http://r%C3%A9sum%C3%A9.example.org");
    // Either result is a URI, so mapping it again changes nothing.
    for u in [
        "http://xn--rsum-bpad.example.org",
        "http://r%C3%A9sum%C3%A9.example.org",
    ] {
        assert_eq!(uri(u), u);
        assert_eq!(uri_idna(u), u);
    }
}

#[test]
fn s3_1_idns_outside_the_host_are_not_converted() {
    let iri = "http://validator.w3.org/check?uri=http%3A%2F%2Frésumé.example.org";
    // The English text breaks the line after "r%C3%A9sum%C3%A9."; the space is not in the URI.
    let expected = "http://validator.w3.org/check?uri=http%3A%2F%2Fr%C3%A9sum%C3%A9. example.org"
        .replace(". example", ".example");
    assert_eq!(uri(iri), expected);
    assert_eq!(uri_idna(iri), expected);
}

#[test]
fn s3_1_existing_percent_encodings_and_uri_characters_are_not_encoded_again() {
    let iri = xml_notation("http://www.example.org/red%09ros&#xE9;#red");
    // ... and not the RFC's counter-example,
    // "http%3A%2F%2Fwww.example.org%2Fred%2509ros%C3%A9%23red".
    assert_eq!(uri(&iri), "http://www.example.org/red%09ros%C3%A9#red");
}

#[test]
fn s3_1_characters_outside_the_bmp() {
    let iri = xml_notation("http://example.com/&#x10300;&#x10301;&#x10302");
    assert_eq!(iri.chars().count(), "http://example.com/".len() + 3);
    assert_eq!(
        uri(&iri),
        "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82"
    );
}

#[test]
fn s3_1_step_1c_a_unicode_iri_is_not_normalized() {
    // "Việt Nam" as the RFC writes it (NFC), and as windows-1258 transcodes it: U+00EA LATIN
    // SMALL LETTER E WITH CIRCUMFLEX followed by U+0323 COMBINING DOT BELOW. (The spec text
    // shows both as NFC, so the second is built from the RFC's description.)
    let nfc = format!("http://example.org/{}", "Việt Nam");
    let transcoded = format!("http://example.org/{}", "Vi\u{EA}\u{323}t Nam");
    assert!(nfc.contains('\u{1EC7}'));
    assert_eq!(uri(&nfc), "http://example.org/Vi%E1%BB%87t%20Nam");
    assert_eq!(uri(&transcoded), "http://example.org/Vi%C3%AA%CC%A3t%20Nam");
    // As IRIs (the space written `%20`, so that they are IRIs) they are canonically equivalent
    // text, but not equivalent IRIs at any rung: §5.3.2.2 makes comparison rely on IRIs being
    // NFC already (the transcoder, not the comparison, must normalize).
    let (nfc, transcoded) = (nfc.replace(' ', "%20"), transcoded.replace(' ', "%20"));
    for level in [Level::Simple, Level::Syntax, Level::Scheme] {
        assert!(!equivalent(&nfc, &transcoded, level));
    }
}

#[test]
fn s3_1_printable_ascii_not_allowed_in_uris_is_encoded_but_never_hash_percent_brackets() {
    // The ten characters of §3.1, in the order it lists them.
    for (c, encoded) in [
        ("<", "%3C"),
        (">", "%3E"),
        ("\"", "%22"),
        (" ", "%20"),
        ("{", "%7B"),
        ("}", "%7D"),
        ("|", "%7C"),
        ("\\", "%5C"),
        ("^", "%5E"),
        ("`", "%60"),
    ] {
        assert_eq!(
            uri(&format!("http://a/x{c}y")),
            format!("http://a/x{encoded}y")
        );
    }
    assert_eq!(uri("http://[::1]/%41#x"), "http://[::1]/%41#x");
    for kept_and_invalid in ["http://a/%", "http://a/%4", "http://a/#x#y", "http://a/[x]"] {
        assert!(
            matches!(
                to_uri(kept_and_invalid, Hosts::PercentEncode),
                Err(ToUriError::NotAnIri(_))
            ),
            "{kept_and_invalid}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// §3.2 Converting URIs to IRIs, §3.2.1 Examples
// ---------------------------------------------------------------------------------------------

#[test]
fn s3_2_1_strictly_legal_utf8_is_decoded() {
    let step1 = "http://www.example.org/D%C3%BCrst";
    let step5 = xml_notation("http://www.example.org/D&#xFC;rst");
    assert_eq!(iri(step1), step5);
    assert_eq!(uri(&step5), step1);
}

#[test]
fn s3_2_1_legacy_octets_are_re_encoded_in_step_3() {
    let step1 = "http://www.example.org/D%FCrst";
    let step5 = "http://www.example.org/D%FCrst";
    assert_eq!(iri(step1), step5);
}

#[test]
fn s3_2_1_rlo_is_re_encoded_in_step_4_and_punycode_is_not_converted() {
    let step1 = "http://xn--99zt52a.example.org/%e2%80%ae";
    let step5 = "http://xn--99zt52a.example.org/%E2%80%AE";
    let got = iri(step1);
    // Steps 2-4 decode the octets and re-encode them: "the case ... may not be preserved".
    assert_eq!(got, step5);
    assert!(!got.contains('\u{202E}'));
}

#[test]
fn s3_2_1_punycode_labels_are_equivalent_to_their_unicode_form() {
    // "Implementations with scheme-specific knowledge MAY convert punycode-encoded domain name
    // labels ... leading to the overall IRI of" this one.
    let unicode = xml_notation("http://&#x7D0D;&#x8C46;.example.org/%E2%80%AE");
    let punycode = "http://xn--99zt52a.example.org/%E2%80%AE";
    assert_eq!(unicode, "http://納豆.example.org/%E2%80%AE");
    assert_eq!(uri_idna(&unicode), punycode);
    assert!(equivalent(&unicode, punycode, Level::Scheme));
    assert!(equivalent(
        &unicode,
        "http://xn--99zt52a.example.org/%e2%80%ae",
        Level::Scheme
    ));
    assert!(!equivalent(&unicode, punycode, Level::Syntax));
}

#[test]
fn s3_2_no_encoding_other_than_utf8_is_guessed() {
    let latin1 = "http://www.example.org/r%E9sum%E9.html";
    assert_eq!(iri(latin1), latin1);
    let utf8 = "http://www.example.org/r%C3%A9sum%C3%A9.html";
    assert_eq!(iri(utf8), "http://www.example.org/résumé.html");
    assert_ne!(uri(&iri(utf8)), latin1);
    assert!(!equivalent(latin1, utf8, Level::Scheme));
}

#[test]
fn s3_2_what_stays_encoded() {
    // Step 2: `%`, reserved characters and US-ASCII not allowed in URIs; unreserved is decoded.
    assert_eq!(
        iri("http://a/%25%2F%3F%23%5B%40%21%3D%20%3C%7F%00%41%7e"),
        "http://a/%25%2F%3F%23%5B%40%21%3D%20%3C%7F%00A~"
    );
    // Step 3: not strictly legal UTF-8 (overlong `/`, surrogate, beyond U+10FFFF, cut short).
    for s in [
        "http://a/%C0%AF",
        "http://a/%ED%A0%80",
        "http://a/%F4%90%80%80",
        "http://a/%E2%80",
    ] {
        assert_eq!(iri(s), s);
    }
    // Step 4: bidi formatting (§4.1), invisible, private use outside and inside the query.
    for s in [
        "http://a/%E2%80%8F",
        "http://a/%E2%81%A6",
        "http://a/%E2%80%8B",
        "http://a/%EF%BB%BF",
        "http://a/%EE%80%80",
        "http://a/?%EE%80%80",
        "http://a/%C2%85",
        "http://a/%EF%BC%8F",
        "http://a/%E2%88%95",
    ] {
        assert_eq!(iri(s), s);
    }
}

#[test]
fn s3_2_the_iri_maps_back_to_the_uri() {
    for u in [
        "http://www.example.org/D%C3%BCrst",
        "http://www.example.org/D%FCrst",
        "http://xn--99zt52a.example.org/%e2%80%ae",
        "http://r%C3%A9sum%C3%A9.example.org/%E6%97%A5%E6%9C%AC?q=%E2%80%AE#%F0%9F%98%80",
    ] {
        assert_eq!(upper_hex(&uri(&iri(u))), upper_hex(u), "{u}");
    }
}

// ---------------------------------------------------------------------------------------------
// §5.3 Comparison ladder
// ---------------------------------------------------------------------------------------------

#[test]
fn s5_3_2_syntax_based_pair() {
    let a = "example://a/b/c/%7Bfoo%7D/rosé";
    let b = "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9";
    assert!(!equivalent(a, b, Level::Simple));
    assert!(equivalent(a, b, Level::Syntax));
    assert!(equivalent(a, b, Level::Scheme));
    assert_eq!(normalize(b, Level::Syntax), a);
}

#[test]
fn s5_3_2_1_case() {
    assert!(equivalent(
        "HTTP://www.EXAMPLE.com/",
        "http://www.example.com/",
        Level::Syntax
    ));
    assert!(!equivalent(
        "HTTP://www.EXAMPLE.com/",
        "http://www.example.com/",
        Level::Simple
    ));
    assert!(equivalent("http://a/%3a", "http://a/%3A", Level::Syntax));
    // Other components are case-sensitive.
    assert!(!equivalent(
        "http://a/X?Y#Z",
        "http://a/x?y#z",
        Level::Scheme
    ));
}

#[test]
fn s5_3_2_2_character_normalization() {
    let nfc = "http://www.example.org/résumé.html";
    // From the Japanese line (its English twin lost the combining characters): "e" followed by
    // U+0301 COMBINING ACUTE ACCENT, wiki markup removed.
    let nfd = "http://www.example.org/re\u{301}sume\u{301}.html";
    // "Equivalence of IRIs MUST rely on the assumption that IRIs are appropriately
    // pre-character-normalized rather than apply character normalization when comparing two
    // IRIs." So the two are different IRIs at every rung, raw or percent-encoded, and no normal
    // form rewrites one into the other.
    for level in [Level::Simple, Level::Syntax, Level::Scheme] {
        assert!(!equivalent(nfc, nfd, level), "{level:?}");
        assert_eq!(normalize(nfd, level), nfd, "{level:?}");
    }
    assert!(!equivalent(
        "http://h/e%CC%81",
        "http://h/%C3%A9",
        Level::Scheme
    ));
    // §3.1 step 1c: as URIs they differ too.
    assert_ne!(uri(nfc), uri(nfd));
}

#[test]
fn s5_3_2_3_percent_encoding() {
    let forms = [
        "http://example.org/~user",
        "http://example.org/%7euser",
        "http://example.org/%7Euser",
    ];
    for f in forms {
        assert_eq!(normalize(f, Level::Syntax), "http://example.org/~user");
    }
    // Reserved characters are not decoded.
    assert!(!equivalent(
        "http://example.org/a%2Fb",
        "http://example.org/a/b",
        Level::Scheme
    ));
}

#[test]
fn s5_3_3_four_equivalent_forms_and_the_normal_one() {
    let forms = [
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ];
    for f in forms {
        assert_eq!(normalize(f, Level::Scheme), "http://example.com/", "{f}");
        for g in forms {
            assert!(equivalent(f, g, Level::Scheme), "{f} {g}");
        }
    }
    assert!(!equivalent(forms[0], forms[1], Level::Syntax));
    assert!(!equivalent(forms[1], forms[3], Level::Syntax));
}

#[test]
fn s5_3_3_empty_components_keep_their_delimiters() {
    for f in [
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ] {
        assert!(!equivalent("http://example.com/?", f, Level::Scheme), "{f}");
        // "two IRIs that differ only by the suffix "#" are considered different regardless of
        // the scheme."
        assert!(!equivalent(&format!("{f}#"), f, Level::Scheme), "{f}");
    }
}

#[test]
fn s5_3_3_idn_and_punycode() {
    let a = "http://résumé.example.org";
    let b = "http://xn--rsum-bpad.example.org";
    assert!(equivalent(a, b, Level::Scheme));
    assert!(!equivalent(a, b, Level::Syntax));
    // The canonical host is the Unicode form, for legibility.
    assert_eq!(normalize(b, Level::Scheme), "http://résumé.example.org/");
}

#[test]
fn s5_3_4_protocol_based_equivalence_is_out_of_reach() {
    assert!(!equivalent(
        "http://example.com/data",
        "http://example.com/data/",
        Level::Scheme
    ));
}

#[test]
fn every_example_normal_form_is_idempotent_and_an_iri() {
    let examples = [
        "example://a/b/c/%7Bfoo%7D/rosé",
        "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9",
        "HTTP://www.EXAMPLE.com/",
        "http://www.example.org/re\u{301}sume\u{301}.html",
        "http://example.org/%7euser",
        "http://example.com:/",
        "http://example.com/?",
        "http://xn--rsum-bpad.example.org",
        "http://xn--99zt52a.example.org/%e2%80%ae",
    ];
    for e in examples {
        for level in Level::ALL {
            let n = normalize(e, level);
            assert_eq!(normalize(&n, level), n, "{e} at {level:?}");
            assert!(parse(&n).is_ok(), "{n}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The commands
// ---------------------------------------------------------------------------------------------

/// Runs irilint and returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("irilint")
        .expect("binary is built")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().expect("exited"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

fn json(args: &[&str]) -> (i32, Value) {
    let (code, stdout, stderr) = run(args);
    let v = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\nstderr: {stderr}"));
    (code, v)
}

#[test]
fn cli_to_uri() {
    assert_eq!(
        run(&["to-uri", "http://résumé.example.org"]),
        (
            0,
            "http://r%C3%A9sum%C3%A9.example.org\n".into(),
            String::new()
        )
    );
    assert_eq!(
        run(&["to-uri", "--idna", "http://résumé.example.org/ü"]).1,
        "http://xn--rsum-bpad.example.org/%C3%BC\n"
    );
    let (code, v) = json(&[
        "to-uri",
        "--format",
        "json",
        "--idna",
        "http://納豆.example.org/",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["input"], "http://納豆.example.org/");
    assert_eq!(v["uri"], "http://xn--99zt52a.example.org/");
    assert_eq!(v["idna"], true);
    let (code, out, err) = run(&["to-uri", "http://a/%zz"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with(
            "irilint: error: not an IRI: '%' is not followed by two hexadecimal digits (found z z)"
        ),
        "{err}"
    );
    let (code, _, err) = run(&["to-uri", "--idna", "http://a_ü.example/"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("without --idna the host is percent-encoded"),
        "{err}"
    );
}

#[test]
fn cli_to_iri() {
    assert_eq!(
        run(&["to-iri", "http://www.example.org/D%C3%BCrst"]),
        (0, "http://www.example.org/Dürst\n".into(), String::new())
    );
    let (code, v) = json(&["to-iri", "--format", "json", "http://a/%E2%80%AE%C3%A9"]);
    assert_eq!(code, 0);
    assert_eq!(v["iri"], "http://a/%E2%80%AEé");
    assert_eq!(v["input"], "http://a/%E2%80%AE%C3%A9");
    let (code, _, err) = run(&["to-iri", "http://a/é"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not ASCII"), "{err}");
    assert!(err.contains("`irilint to-uri` gives its URI"), "{err}");
    // Leading hyphens after `--`.
    assert_eq!(run(&["to-iri", "--", "-a%41"]).1, "-aA\n");
}

#[test]
fn cli_to_iri_never_prints_a_hidden_character() {
    let every_hidden = "http://a/%E2%80%AE%E2%80%8B%E2%81%A6%C2%9B%1B%EF%BB%BF%E2%80%A8?%EE%80%80";
    let (code, out, _) = run(&["to-iri", every_hidden]);
    assert_eq!(code, 0);
    assert_eq!(out, format!("{every_hidden}\n"));
}

#[test]
fn cli_normalize() {
    assert_eq!(
        run(&["normalize", "HTTP://Example.COM:80"]),
        (0, "http://example.com/\n".into(), String::new())
    );
    assert_eq!(
        run(&["normalize", "--level", "syntax", "HTTP://Example.COM:80"]).1,
        "http://example.com:80\n"
    );
    let (code, v) = json(&[
        "normalize",
        "--format",
        "json",
        "http://xn--rsum-bpad.example.org",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["level"], "scheme");
    assert_eq!(v["rfc"], "5.3.3");
    assert_eq!(v["normalized"], "http://résumé.example.org/");
    // A hidden character is shown escaped at the simple level, and encoded at the others.
    assert_eq!(
        run(&["normalize", "--level", "simple", "http://a/\u{202E}"]).1,
        "http://a/⟨U+202E⟩\n"
    );
    assert_eq!(
        run(&["normalize", "http://a/\u{202E}"]).1,
        "http://a/%E2%80%AE\n"
    );
    let (code, _, err) = run(&["normalize", "http://a:8x/"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("irilint: error: not an IRI: port must be digits"),
        "{err}"
    );
}

#[test]
fn cli_compare() {
    let (code, out, _) = run(&["compare", "http://example.com", "http://example.com:80/"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "A  http://example.com/\nB  http://example.com/\nequivalent (scheme-based normalization, RFC 3987 §5.3.3)\n"
    );
    let (code, out, _) = run(&["compare", "http://example.com/?", "http://example.com/"]);
    assert_eq!(code, 1);
    assert!(
        out.ends_with("not equivalent (scheme-based normalization, RFC 3987 §5.3.3)\n"),
        "{out}"
    );
    assert_eq!(
        run(&[
            "compare",
            "--level",
            "syntax",
            "http://example.com",
            "http://example.com/"
        ])
        .0,
        1
    );
    let (code, v) = json(&[
        "compare",
        "--format",
        "json",
        "--level",
        "syntax",
        "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9",
        "example://a/b/c/%7Bfoo%7D/rosé",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["equivalent"], true);
    assert_eq!(v["level"], "syntax");
    assert_eq!(
        v["a"]["input"],
        "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9"
    );
    assert_eq!(v["a"]["normalized"], "example://a/b/c/%7Bfoo%7D/rosé");
    assert_eq!(v["b"]["normalized"], v["a"]["normalized"]);
    let (code, v) = json(&["compare", "--format", "json", "--level", "simple", "a", "A"]);
    assert_eq!((code, v["equivalent"].clone()), (1, Value::Bool(false)));
    let (code, out, err) = run(&["compare", "http://a/", "http://a b/"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("irilint: error: B is not an IRI: space is not allowed"),
        "{err}"
    );
    assert_eq!(run(&["compare", "http://a/"]).0, 2);
}

#[test]
fn cli_json_escapes_hidden_characters() {
    let (_, raw, _) = run(&[
        "compare",
        "--format",
        "json",
        "--level",
        "simple",
        "http://a/\u{202E}",
        "x",
    ]);
    assert!(!raw.contains('\u{202E}'));
    assert!(raw.contains("\\u202e"), "{raw}");
}
