//! The percent-encoding rules (`percent-non-utf8`, `percent-overlong-utf8`,
//! `percent-encoded-forbidden`) and the style rules (`percent-lowercase-hex`,
//! `percent-encoded-unreserved`, `case-scheme-host`, `dot-segment`): what they fire on, with which
//! span, severity, message and help; which of them takes which triplets; and that real text,
//! percent-encoded the way `to-uri` does it, stays quiet.

mod common;

use common::{Found, e, findings_of, i, spans_of, w};
use irilint::rules::{self, Selection, Severity};

const NON_UTF8: &str = "percent-non-utf8";
const OVERLONG: &str = "percent-overlong-utf8";
const FORBIDDEN: &str = "percent-encoded-forbidden";
const LOWERCASE: &str = "percent-lowercase-hex";
const UNRESERVED: &str = "percent-encoded-unreserved";
const CASE: &str = "case-scheme-host";
const DOTS: &str = "dot-segment";
const MINE: [&str; 7] = [
    NON_UTF8, OVERLONG, FORBIDDEN, LOWERCASE, UNRESERVED, CASE, DOTS,
];

/// The findings of these rules, every rule running.
fn findings(iri: &str) -> Vec<Found> {
    findings_of(iri, &MINE)
}

/// The findings of `rule` as (severity, span).
fn of(iri: &str, rule: &str) -> Vec<(Severity, String)> {
    spans_of(findings(iri), rule)
}

/// The only finding of `rule`.
fn one(iri: &str, rule: &str) -> Found {
    let mut got: Vec<Found> = findings(iri)
        .into_iter()
        .filter(|f| f.rule == rule)
        .collect();
    assert_eq!(got.len(), 1, "{iri}: {got:?}");
    got.remove(0)
}

/// `s` with every non-ASCII character percent-encoded as UTF-8, uppercase: what `to-uri` does.
fn to_uri(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

#[test]
fn legacy_octets_get_a_windows_1252_hint() {
    let f = one("http://www.example.org/D%FCrst", NON_UTF8);
    assert_eq!((f.severity, f.span.as_str()), (Severity::Warning, "%FC"));
    assert_eq!(
        f.message,
        "`%FC` is not UTF-8; in windows-1252 it would be `ü` (U+00FC LATIN SMALL LETTER U WITH DIAERESIS)"
    );
    assert!(
        f.help
            .starts_with("if `ü` was meant, write its UTF-8, `%C3%BC`, or the character itself"),
        "{}",
        f.help
    );
    // Adjacent octets are one finding; each run of them its own.
    assert_eq!(
        of("http://example.org/r%E9%E8sum%E9.html", NON_UTF8),
        [w("%E9%E8"), w("%E9")]
    );
    assert_eq!(of("http://example.org/?q=caf%E9", NON_UTF8), [w("%E9")]);
}

#[test]
fn the_hint_never_shows_a_hidden_character_or_one_windows_1252_lacks() {
    let f = one("http://example.org/a%A0b", NON_UTF8);
    assert!(
        f.message.contains("`⟨U+00A0⟩` (U+00A0 NO-BREAK SPACE)"),
        "{}",
        f.message
    );
    assert!(!f.help.contains("itself"), "{}", f.help);
    let f = one("http://example.org/a%81b", NON_UTF8);
    assert_eq!(f.message, "`%81` is not UTF-8, nor text in windows-1252");
}

#[test]
fn a_sequence_cut_short_is_named() {
    let f = one("https://example.cn/%E4%B8", NON_UTF8);
    assert!(
        f.message
            .starts_with("`%E4%B8` is not UTF-8: the start of a 3-octet UTF-8 sequence, cut short"),
        "{}",
        f.message
    );
    assert!(f.help.contains("cut short"), "{}", f.help);
    // Cut short by a malformed triplet: `syntax-bad-percent-encoding` reports the cause.
    assert_eq!(of("https://example.com/%E2%8Z", NON_UTF8), []);
    assert_eq!(of("https://example.com/%E2%80%8Z", NON_UTF8), []);
    // ...but not when the octets were no UTF-8 prefix anyway.
    assert_eq!(of("https://example.com/%FC%8Z", NON_UTF8), [w("%FC")]);
}

#[test]
fn data_payloads_are_octets() {
    for iri in [
        "data:application/octet-stream,%FF%D8%FF%E0",
        "data:text/plain;charset=iso-8859-1,D%FCrst",
        "data:text/plain,%C0%AF%00%E2%80%AE",
        "data:image/svg+xml,%3Csvg%3E%0A%09%3C/svg%3E",
    ] {
        let got: Vec<Found> = findings(iri)
            .into_iter()
            .filter(|f| [NON_UTF8, OVERLONG, FORBIDDEN].contains(&f.rule))
            .collect();
        assert!(got.is_empty(), "{iri}: {got:?}");
    }
    // The media type before the comma is no payload.
    assert_eq!(of("data:text/pl%FCin,x", NON_UTF8), [w("%FC")]);
}

#[test]
fn overlong_forms_say_what_a_lenient_decoder_reads() {
    let iri = "http://example.com/scripts/..%C0%AF../winnt";
    let f = one(iri, OVERLONG);
    assert_eq!((f.severity, f.span.as_str()), (Severity::Error, "%C0%AF"));
    assert!(
        f.message.starts_with(
            "`%C0%AF` is an overlong UTF-8 form of U+002F SOLIDUS, which UTF-8 forbids: a strict decoder rejects it, a lenient one reads it as `/`: a path traversal in disguise"
        ),
        "{}",
        f.message
    );
    assert!(f.help.contains("`%2F`"), "{}", f.help);
    assert_eq!(of(iri, NON_UTF8), []);
    assert_eq!(of("http://e.com/%E0%80%AF", OVERLONG), [e("%E0%80%AF")]);
    assert_eq!(
        of("http://e.com/%F0%80%80%AF", OVERLONG),
        [e("%F0%80%80%AF")]
    );
    let f = one("http://e.com/a%C0%80b", OVERLONG);
    assert!(f.message.contains("U+0000 NULL"), "{}", f.message);
    let f = one("http://e.com/%C1%81", OVERLONG);
    assert_eq!(f.help, "write `A`");
    let f = one("http://e.com/%E0%83%A9", OVERLONG);
    assert!(
        f.help.contains("`%C3%A9`, or the character itself"),
        "{}",
        f.help
    );
}

#[test]
fn surrogates_and_values_beyond_unicode() {
    let f = one("http://e.com/%ED%A0%80", OVERLONG);
    assert!(
        f.message.contains("U+D800, a UTF-16 surrogate"),
        "{}",
        f.message
    );
    // CESU-8: a pair is one finding, and the help has the real UTF-8.
    let f = one("http://e.com/%ED%A0%BD%ED%B8%80", OVERLONG);
    assert_eq!(f.span, "%ED%A0%BD%ED%B8%80");
    assert!(f.message.contains("U+1F600 GRINNING FACE"), "{}", f.message);
    assert!(f.help.contains("`%F0%9F%98%80`"), "{}", f.help);
    // Two high surrogates are two findings.
    assert_eq!(
        of("http://e.com/%ED%A0%80%ED%A0%80", OVERLONG),
        [e("%ED%A0%80"), e("%ED%A0%80")]
    );
    let f = one("http://e.com/%F4%90%80%80", OVERLONG);
    assert!(
        f.message.contains("0x110000, above U+10FFFF"),
        "{}",
        f.message
    );
    for iri in ["http://e.com/%ED%A0%80", "http://e.com/%F4%90%80%80"] {
        assert_eq!(of(iri, NON_UTF8), [], "{iri}");
        assert_eq!(of(iri, FORBIDDEN), [], "{iri}");
    }
}

#[test]
fn encoded_bidi_controls_and_invisibles_are_errors() {
    let iri = "http://xn--99zt52a.example.org/%e2%80%ae";
    let f = one(iri, FORBIDDEN);
    assert_eq!(
        (f.severity, f.span.as_str()),
        (Severity::Error, "%e2%80%ae")
    );
    assert!(
        f.message.starts_with(
            "`%e2%80%ae` in the path decodes to U+202E RIGHT-TO-LEFT OVERRIDE, a bidi formatting character"
        ),
        "{}",
        f.message
    );
    // Style advice on the same triplets is for another reason.
    assert_eq!(of(iri, LOWERCASE), [i("%e2%80%ae")]);
    // Adjacent ones are one finding.
    assert_eq!(
        of("http://e.com/%E2%80%AE%E2%80%AD/x", FORBIDDEN),
        [e("%E2%80%AE%E2%80%AD")]
    );
    let f = one("https://e.com/pay%E2%80%8Bment", FORBIDDEN);
    assert!(
        f.message
            .contains("U+200B ZERO WIDTH SPACE, an invisible character"),
        "{}",
        f.message
    );
    for (iri, span) in [
        ("https://e.com/a%C2%ADb", "%C2%AD"),
        ("https://e.com/a%EF%BB%BFb", "%EF%BB%BF"),
        ("https://e.com/a%E2%81%A0b", "%E2%81%A0"),
        (
            "https://e.com/x%F3%A0%81%81%F3%A0%81%82",
            "%F3%A0%81%81%F3%A0%81%82",
        ),
        ("https://e.com/a%EF%B8%8Fb", "%EF%B8%8F"),
        ("https://pay%E2%80%8Dpal.com/", "%E2%80%8D"),
        ("https://e.com/?q=%E2%80%8B", "%E2%80%8B"),
    ] {
        assert_eq!(of(iri, FORBIDDEN), [e(span)], "{iri}");
    }
}

#[test]
fn the_exceptions_of_invisible_character_hold_decoded() {
    for text in [
        "/\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
        "/\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",
        "/\u{1F44B}\u{1F3FD}",
        "/\u{2764}\u{FE0F}",
        "/1\u{FE0F}\u{20E3}",
        "/\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}",
        "/\u{915}\u{94D}\u{200D}\u{937}",
        "/\u{915}\u{94D}\u{200C}\u{937}",
        "/\u{9B0}\u{200D}\u{9CD}\u{9AF}",
        // A subdivision flag, and its base left raw: the form `invisible-character` advises.
        "/\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
        // An ideographic variation sequence (Katsushika, 葛 + VS17).
        "/\u{845B}\u{E0100}\u{98FE}",
    ] {
        let iri = format!("https://example.com{}", to_uri(text));
        assert_eq!(of(&iri, FORBIDDEN), [], "{iri}");
    }
    let flag = "https://example.com/\u{1F3F4}%F3%A0%81%A7%F3%A0%81%A2%F3%A0%81%B3%F3%A0%81%A3%F3%A0%81%B4%F3%A0%81%BF";
    assert_eq!(of(flag, FORBIDDEN), []);
    // ...but not outside those contexts: the joiner alone, tags without a base or cancel tag.
    assert_eq!(
        of("https://example.com/a%E2%80%8Db", FORBIDDEN),
        [e("%E2%80%8D")]
    );
    assert_eq!(
        of("https://example.com/a%F3%A0%81%A7%F3%A0%81%BF", FORBIDDEN),
        [e("%F3%A0%81%A7%F3%A0%81%BF")]
    );
    assert_eq!(
        of("https://example.com/a%F3%A0%84%80", FORBIDDEN),
        [e("%F3%A0%84%80")]
    );
    // In a host the emoji exceptions do not apply, as for the raw characters.
    let host = format!("https://{}.example/", to_uri("\u{1F468}\u{200D}\u{1F469}"));
    assert_eq!(of(&host, FORBIDDEN), [e("%E2%80%8D")]);
}

#[test]
fn what_invisible_character_warns_about_is_a_warning_decoded() {
    // A ZWNJ after a letter that never joins on its left: a Persian keyboard habit.
    let iri = format!("https://example.com/{}", to_uri("\u{62F}\u{200C}\u{627}"));
    let f = one(&iri, FORBIDDEN);
    assert_eq!(f.severity, Severity::Warning);
    assert!(f.message.contains("changes no shape"), "{}", f.message);
    let thai = format!(
        "https://example.com/{}",
        to_uri("\u{E20}\u{E32}\u{E29}\u{E32}\u{200B}\u{E44}\u{E17}\u{E22}")
    );
    let f = one(&thai, FORBIDDEN);
    assert_eq!(f.severity, Severity::Warning);
    assert!(f.message.contains("word-break hint"), "{}", f.message);
}

#[test]
fn controls() {
    for (iri, want) in [
        ("http://e.com/a%0Ab", vec![w("%0A")]),
        ("http://e.com/a%0D%0ASet-Cookie:x", vec![w("%0D%0A")]),
        ("http://e.com/image.php%00.jpg", vec![w("%00")]),
        ("http://us%09er@e.com/", vec![w("%09")]),
        ("http://e%00.com/", vec![w("%00")]),
        // Text in a query or fragment holds line breaks and tabs; other C0 controls are suspect.
        ("mailto:?body=line1%0D%0Aline2", vec![]),
        ("http://e.com/?text=a%09b%0Ac#x%0Ay", vec![]),
        ("http://e.com/?f=a%00", vec![w("%00")]),
        ("http://e.com/?q=%1B%5B31m", vec![w("%1B")]),
        // DEL and C1 controls are errors everywhere.
        ("http://e.com/?q=a%7F", vec![e("%7F")]),
        ("http://e.com/a%C2%9Bb", vec![e("%C2%9B")]),
        ("http://e.com/#%C2%85", vec![e("%C2%85")]),
    ] {
        assert_eq!(of(iri, FORBIDDEN), want, "{iri}");
    }
    let f = one("http://e.com/%00", FORBIDDEN);
    assert!(f.message.contains("U+0000 NULL"), "{}", f.message);
    assert!(f.message.contains("null-byte"), "{}", f.message);
    let f = one("http://e.com/it%C2%92s", FORBIDDEN);
    assert!(
        f.help
            .contains("U+2019 RIGHT SINGLE QUOTATION MARK was meant: write `%E2%80%99`"),
        "{}",
        f.help
    );
    // A different severity does not merge into one finding.
    assert_eq!(of("http://e.com/a%00%7F", FORBIDDEN), [w("%00"), e("%7F")]);
}

#[test]
fn each_sequence_is_one_rules() {
    // Legal characters, legacy octets, an overlong form and a bidi control in one run.
    let iri = "http://e.com/%C3%A9%FC%C0%AF%E2%80%AE";
    assert_eq!(of(iri, NON_UTF8), [w("%FC")]);
    assert_eq!(of(iri, OVERLONG), [e("%C0%AF")]);
    assert_eq!(of(iri, FORBIDDEN), [e("%E2%80%AE")]);
}

#[test]
fn percent_encoded_real_text_is_quiet() {
    let texts = [
        "/wiki/日本語/東京都?q=ひらがなカタカナ#見出し",
        "/wiki/葛飾区",
        "/ar/مرحبا/بالعالم?q=القاهرة",
        "/fa/می\u{200C}خواهم/کتاب\u{200C}ها",
        "/he/שלום/עולם?q=ירושלים",
        "/el/Καλημέρα/κόσμε",
        "/ru/Привет/мир?q=Москва",
        "/uk/Київ",
        "/hi/क्\u{200D}षेत्र/हिन्दी",
        "/bn/র\u{200D}্যাব",
        "/ml/ന്\u{200D}",
        "/th/ภาษาไทย",
        "/ko/한국어/서울",
        "/zh/中文/北京?q=上海",
        "/emoji/👨\u{200D}👩\u{200D}👧/👩🏽\u{200D}💻/🏳\u{FE0F}\u{200D}🌈/❤\u{FE0F}/1\u{FE0F}⃣/👍🏾/🇯🇵",
        "/vi/Vi\u{1EC7}t_Nam",
        "/de/Dürst/Übersicht?q=Straße",
        "/fr/résumé/élève",
        "/math/∑/∞",
    ];
    for text in texts {
        for base in ["https://example.com", "https://xn--wgv71a.example"] {
            let iri = format!("{base}{}", to_uri(text));
            let got = findings(&iri);
            assert!(got.is_empty(), "{iri}: {got:?}");
        }
    }
}

#[test]
fn lowercase_hex_is_one_finding_per_run() {
    let f = one("http://e.com/a%3ab", LOWERCASE);
    assert_eq!((f.severity, f.span.as_str()), (Severity::Info, "%3a"));
    assert_eq!(f.help, "write `%3A`");
    // From the first to the last triplet with a lowercase digit of a run.
    assert_eq!(
        of("http://e.com/%C3%a9x%e2%82%ac%41/%e2%80%AE", LOWERCASE),
        [i("%a9"), i("%e2%82%ac"), i("%e2")]
    );
    assert_eq!(
        one("http://e.com/%e2%80%ae", LOWERCASE).help,
        "write `%E2%80%AE`"
    );
    assert_eq!(of("http://e.com/%C3%A9%2F", LOWERCASE), []);
    // Off by default.
    assert!(
        rules::check("http://e.com/a%3ab", &Selection::default())
            .iter()
            .all(|f| f.rule.id != LOWERCASE)
    );
}

#[test]
fn encoded_unreserved_characters() {
    let f = one("http://example.org/%7Euser", UNRESERVED);
    assert_eq!((f.span.as_str(), f.help.as_str()), ("%7E", "write `~`"));
    assert!(f.message.starts_with("`%7E` encodes `~`"), "{}", f.message);
    assert_eq!(
        of("http://e.com/%41%42C-%2d%5F%2E%2F?%61=1#%30", UNRESERVED),
        [i("%41%42"), i("%2d%5F%2E"), i("%61"), i("%30")]
    );
    assert_eq!(one("http://e.com/%41%42", UNRESERVED).help, "write `AB`");
    // Decoding these would make a dot segment.
    assert_eq!(of("http://e.com/a/%2E%2E/b", UNRESERVED), []);
    assert_eq!(of("a/.%2e/b", UNRESERVED), []);
    assert_eq!(of("http://e.com/a/%2E%2Ex", UNRESERVED), [i("%2E%2E")]);
    assert_eq!(of("http://e.com/%2F%3F%25%C3%A9%20", UNRESERVED), []);
}

#[test]
fn case_of_scheme_and_host() {
    let iri = "HTTP://www.EXAMPLE.com/Path";
    let got = findings(iri);
    let case: Vec<(&str, &str)> = got
        .iter()
        .filter(|f| f.rule == CASE)
        .map(|f| (f.span.as_str(), f.help.as_str()))
        .collect();
    assert_eq!(
        case,
        [
            ("HTTP", "write `http`"),
            ("EXAMPLE", "write `www.example.com`")
        ]
    );
    assert_eq!(of("Https://x.Example.Com/", CASE), [i("H"), i("Example.C")]);
    // Percent-encodings keep their uppercase digits.
    let f = one("http://Ex%41mple.com/", CASE);
    assert_eq!(
        (f.span.as_str(), f.help.as_str()),
        ("E", "write `ex%41mple.com`")
    );
    assert_eq!(of("http://ex%41mple.com/", CASE), []);
    assert_eq!(
        one("http://[2001:DB8::1]/", CASE).help,
        "write `[2001:db8::1]`"
    );
    for quiet in [
        "http://example.com/Path/File.HTML?Q=A#F",
        "mailto:Jane.Doe@Example.COM",
        "http://Ünicode.Example/",
        "http://R%C3%A9sum%C3%A9.Example/",
        "http://[fe80::1%25En0]/",
        "http://[v1.ABC]/",
    ] {
        assert_eq!(of(quiet, CASE), [], "{quiet}");
    }
    // A network-path reference has a host but no scheme: the host still counts.
    assert_eq!(of("//Example.com/relative", CASE), [i("E")]);
}

#[test]
fn dot_segments_in_absolute_iris() {
    // The span covers what the fix rewrites: `..` and the segment it removes.
    let f = one("http://example.com/a/b/../c", DOTS);
    assert_eq!((f.severity, f.span.as_str()), (Severity::Info, "b/../"));
    assert_eq!(
        f.help,
        "write the path as `/a/c` (remove_dot_segments, RFC 3986 §5.2.4)"
    );
    // Adjacent ones are one finding; each gets the whole path's result.
    let got = findings("http://example.com/a/./b/../../c/.");
    let dots: Vec<(&str, &str)> = got
        .iter()
        .filter(|f| f.rule == DOTS)
        .map(|f| (f.span.as_str(), f.help.as_str()))
        .collect();
    let help = "write the path as `/c/` (remove_dot_segments, RFC 3986 §5.2.4)";
    // The first carries the fix of the whole path, and its span covers it.
    assert_eq!(
        dots,
        [("a/./b/../../c/.", help), ("../..", help), (".", help)]
    );
    let f = one("http://example.com/a/%2E%2e/b", DOTS);
    assert_eq!(f.span, "a/%2E%2e/");
    assert!(f.message.contains("path traversal"), "{}", f.message);
    assert!(f.help.contains("`/b`"), "{}", f.help);
    assert_eq!(
        one("http://example.com/../../etc/passwd", DOTS).help,
        "write the path as `/etc/passwd` (remove_dot_segments, RFC 3986 §5.2.4)"
    );
    for quiet in [
        "../img/logo.png",
        "./index.html",
        "/a/../b",
        "//example.com/a/../b",
        "urn:example:./x",
        "data:text/plain,../..",
        "http://example.com/.well-known/x",
        "http://example.com/a..b/.../",
        "http://example.com/?a=../..#./x",
    ] {
        assert_eq!(of(quiet, DOTS), [], "{quiet}");
    }
}

#[test]
fn ascii_iris_without_percent_uppercase_or_dots_say_nothing() {
    assert!(findings("http://example.com/a/b?c=d#e").is_empty());
    assert!(findings("").is_empty());
    assert!(findings("%").is_empty());
    assert!(findings("http://%/").is_empty());
}

/// The percent rules ask one scan per IRI whether it holds a `%` at all: an IRI without one
/// (most of them) costs them no search of its triplets, and one with one is still searched by
/// each rule that decodes (the rules still run on every IRI).
#[test]
fn an_iri_without_a_percent_sign_is_not_searched_for_triplets() {
    use irilint::work::{Work, measure};
    let all = Selection::all();
    let (findings, searches) = measure(Work::PercentSearches, || {
        rules::check("https://example.org/docs/a-page?x=1#top", &all)
    });
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(searches, 0);
    let (findings, searches) = measure(Work::PercentSearches, || {
        rules::check("https://example.org/caf%C3%A9/%C0%AF", &all)
    });
    assert!(
        findings
            .iter()
            .any(|f| f.rule.id == "percent-overlong-utf8"),
        "{findings:?}"
    );
    assert_eq!(
        searches, 3,
        "percent-non-utf8, percent-overlong-utf8, percent-encoded-forbidden"
    );
}
