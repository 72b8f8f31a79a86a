//! `idn-not-registrable`: hosts UTS #46 accepts and IDNA2008 forbids.
//!
//! The JSON-Schema-Test-Suite `idn-hostname` cases (copied in `tests/data/`, MIT) classified
//! through the real rule path; every contextual rule of RFC 5892 Appendix A and every exception
//! of RFC 5892 §2.6 failing and passing; spans on the character at fault; real hosts in many
//! scripts quiet.

use std::path::Path;

use irilint::rules::{self, Finding, Selection, Severity};

const RULE: &str = "idn-not-registrable";

fn all(iri: &str) -> Vec<Finding> {
    rules::check(iri, &Selection::all())
}

fn findings(iri: &str) -> Vec<Finding> {
    all(iri).into_iter().filter(|f| f.rule.id == RULE).collect()
}

/// The text each finding of the rule covers, with its message.
fn spans(iri: &str) -> Vec<(String, String)> {
    findings(iri)
        .into_iter()
        .map(|f| (iri[f.range.clone()].to_string(), f.message))
        .collect()
}

fn idn_rules(iri: &str) -> Vec<&'static str> {
    let mut ids: Vec<&str> = all(iri)
        .into_iter()
        .map(|f| f.rule.id)
        .filter(|id| id.starts_with("idn-"))
        .collect();
    ids.dedup();
    ids
}

/// A name as a document writes it in an IRI: characters an `ireg-name` cannot hold raw (space,
/// `<`, `>`) percent-encoded, as RFC 3987 §2.2 allows and browsers decode.
fn written(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii() && !(c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=".contains(c)) {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A trailing root dot (any of the four dots UTS #46 maps to `.`).
fn has_root_dot(name: &str) -> bool {
    name.chars().count() > 1 && name.ends_with(['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'])
}

/// The suite's names are host names as registered: RFC 5890 §2.3.2.3, without the root dot of
/// a fully qualified name. The domain of a mail address is exactly that (RFC 5321 §4.1.2), and
/// irilint classifies every case as the suite does there. A URL host is the same name with one
/// difference: RFC 3986 §3.2.2 allows the root dot (`http://example./` is a fully qualified
/// name browsers resolve), so the four names the suite rejects only for their trailing dot
/// are quiet in `http` and everything else is classified the same.
#[test]
fn json_schema_test_suite_idn_hostname() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/json-schema-test-suite/idn-hostname.json");
    let suite: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut cases = 0;
    let (mut as_mail, mut as_host, mut root_dots) = (0, 0, 0);
    let mut wrong = Vec::new();
    for group in suite.as_array().unwrap() {
        for case in group["tests"].as_array().unwrap() {
            // Non-strings "ignore" the format: not hosts.
            let Some(name) = case["data"].as_str() else {
                continue;
            };
            cases += 1;
            let valid = case["valid"].as_bool().unwrap();
            let mail = idn_rules(&format!("mailto:postmaster@{}", written(name)));
            if mail.is_empty() == valid {
                as_mail += 1;
            } else {
                wrong.push(format!(
                    "mailto {name:?} ({}): suite says valid={valid}, irilint {mail:?}",
                    case["description"]
                ));
            }
            let host = idn_rules(&format!("http://{}/", written(name)));
            if has_root_dot(name) && !valid {
                // Quiet, and only the root dot makes the difference.
                root_dots += 1;
                assert!(host.is_empty(), "{name:?}: {host:?}");
                let mut chars = name.chars();
                chars.next_back();
                assert!(
                    idn_rules(&format!("http://{}/", chars.as_str())).is_empty(),
                    "{name:?}"
                );
            } else if host.is_empty() == valid {
                as_host += 1;
            } else {
                wrong.push(format!(
                    "http {name:?} ({}): suite says valid={valid}, irilint {host:?}",
                    case["description"]
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(cases, 84);
    assert_eq!((as_mail, as_host, root_dots), (84, 80, 4));
}

/// The suite's name with spaces and `<` `>`, written raw: they end or break an IRI, a syntax
/// rule reports them, and the IDN rules leave the name alone (one report per character).
#[test]
fn a_name_that_is_not_an_ireg_name_is_a_syntax_finding() {
    let iri = "http://-> $1.00 <--/";
    assert!(idn_rules(iri).is_empty());
    assert!(all(iri).iter().any(|f| f.rule.id == "syntax-unwise-ascii"));
}

/// No host, no domain: `idn-invalid`, on the characters that stand where the name should be.
#[test]
fn empty_hosts_and_mail_domains() {
    for (iri, span) in [
        ("http:///path", "//"),
        ("https://user@/", "@"),
        ("wss://:443/", "//"),
        ("mailto:postmaster@", "@"),
        ("mailto:a@example.org,b@", "@"),
    ] {
        let found: Vec<String> = all(iri)
            .into_iter()
            .filter(|f| f.rule.id == "idn-invalid")
            .map(|f| iri[f.range].to_string())
            .collect();
        assert_eq!(found, [span], "{iri}");
    }
    // Schemes whose authority may be empty, and a reference whose scheme is not known.
    for iri in ["file:///etc/hosts", "///path", "urn:x", "foo:///"] {
        assert!(idn_rules(iri).is_empty(), "{iri}");
    }
}

/// A mail domain has no root dot; a URL host may.
#[test]
fn root_dots() {
    for dot in [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"] {
        let iri = format!("mailto:a@example{dot}");
        let found: Vec<String> = all(&iri)
            .into_iter()
            .filter(|f| f.rule.id == "idn-invalid")
            .map(|f| iri[f.range].to_string())
            .collect();
        assert_eq!(found, [dot], "{iri}");
        assert!(
            idn_rules(&format!("http://example{dot}/")).is_empty(),
            "{dot}"
        );
    }
}

/// A host is split into labels at every dot UTS #46 maps to `.`, as a mail domain is: an empty
/// label between wide dots is pointed at, not the whole host.
#[test]
fn wide_dots_split_a_host_into_labels() {
    for dot in [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"] {
        for (iri, what) in [
            (format!("http://a{dot}{dot}b/x"), "host"),
            (format!("mailto:p@a{dot}{dot}b"), "mail domain"),
        ] {
            let found: Vec<(String, String)> = all(&iri)
                .into_iter()
                .filter(|f| f.rule.id == "idn-invalid")
                .map(|f| (iri[f.range].to_string(), f.message))
                .collect();
            assert_eq!(
                found,
                [(
                    dot.to_string(),
                    format!(
                        "the {what} has two dots in a row: an empty label is not a valid DNS name"
                    )
                )],
                "{iri}"
            );
        }
        // A name with wide dots and nothing wrong stays quiet.
        assert!(
            idn_rules(&format!("http://\u{4F8B}{dot}\u{6D4B}\u{8BD5}/")).is_empty(),
            "{dot}"
        );
    }
}

#[test]
fn the_gap_is_reported_by_this_rule_not_idn_invalid() {
    for host in [
        "a\u{B7}l",
        "\u{C2E4}\u{302E}\u{B840}.\u{D14C}\u{C2A4}\u{D2B8}",
        "\u{3B1}\u{375}",
        "\u{5F3}\u{5D1}",
        "def\u{30FB}abc",
        "xn--7a",
        "i\u{2764}.ws",
        "\u{1F600}.example",
    ] {
        assert_eq!(idn_rules(&format!("http://{host}/")), [RULE], "{host:?}");
    }
    // A name UTS #46 rejects is idn-invalid's only, a name too long for DNS too.
    let long = format!("a\u{B7}l{}.example", "a".repeat(62));
    for host in [
        "\u{302E}\u{C2E4}.example",
        "-a\u{B7}l.example",
        "a\u{200D}b.example",
        long.as_str(),
    ] {
        assert_eq!(
            idn_rules(&format!("http://{host}/")),
            ["idn-invalid"],
            "{host:?}"
        );
    }
}

/// RFC 5892 §2.6: each DISALLOWED exception fails in a label where it would otherwise be
/// fine, and each PVALID exception passes.
#[test]
fn every_exception_of_rfc_5892_section_2_6() {
    let disallowed = [
        ("\u{628}\u{640}\u{628}", '\u{640}'),
        ("\u{7CA}\u{7FA}\u{7CA}", '\u{7FA}'),
        ("\u{C2E4}\u{302E}", '\u{302E}'),
        ("\u{C2E4}\u{302F}", '\u{302F}'),
        ("\u{304B}\u{3031}", '\u{3031}'),
        ("\u{304B}\u{3032}", '\u{3032}'),
        ("\u{304B}\u{3033}", '\u{3033}'),
        ("\u{304B}\u{3034}", '\u{3034}'),
        ("\u{304B}\u{3035}", '\u{3035}'),
        ("\u{4E00}\u{303B}", '\u{303B}'),
    ];
    for (label, c) in disallowed {
        // The same label without the exception passes: the finding is the exception's.
        let without: String = label.chars().filter(|&x| x != c).collect();
        let quiet = format!("https://{without}.example/");
        assert!(
            findings(&quiet).is_empty(),
            "{quiet:?}: {:?}",
            spans(&quiet)
        );
        let iri = format!("https://{label}.example/");
        let got = spans(&iri);
        assert_eq!(got.len(), 1, "{iri:?}: {got:?}");
        assert_eq!(got[0].0, c.to_string(), "{iri:?}");
        assert!(
            got[0].1.contains(&format!("U+{:04X}", c as u32))
                && got[0].1.contains("DISALLOWED")
                && got[0].1.contains("RFC 5892 §2.6"),
            "{}",
            got[0].1
        );
    }
    for label in [
        "fa\u{DF}",
        "\u{3C3}\u{3BF}\u{3C6}\u{3CC}\u{3C2}",
        "\u{6FD}\u{6FE}",
        "\u{F40}\u{F0B}\u{F41}",
        "\u{3007}\u{4E00}",
    ] {
        let iri = format!("https://{label}.example/");
        assert!(findings(&iri).is_empty(), "{iri:?}: {:?}", spans(&iri));
    }
}

/// RFC 5892 Appendix A: each rule fails (through this rule or, where UTS #46 checks it too,
/// `idn-invalid`) and passes.
#[test]
fn every_contextual_rule_of_rfc_5892_appendix_a() {
    // (failing host, the character at fault, its rule's section, the rule that reports it)
    let failing = [
        // A.1 and A.2: UTS #46 CheckJoiners is the same rule, so idn-invalid reports them.
        ("a\u{200C}b", "\u{200C}", "", "idn-invalid"),
        ("\u{915}\u{200D}\u{937}", "\u{200D}", "", "idn-invalid"),
        ("a\u{B7}l", "\u{B7}", "Appendix A.3", RULE),
        ("\u{3B1}\u{375}s", "\u{375}", "Appendix A.4", RULE),
        ("\u{5F3}\u{5D1}", "\u{5F3}", "Appendix A.5", RULE),
        ("\u{5F4}\u{5D1}", "\u{5F4}", "Appendix A.6", RULE),
        ("def\u{30FB}abc", "\u{30FB}", "Appendix A.7", RULE),
        // A.8 and A.9: U+0660.. are bidi class AN and U+06F0.. EN, and a label mixing them
        // breaks rule 4 of RFC 5893 §2, which UTS #46 CheckBidi checks.
        ("\u{628}\u{6F0}\u{660}", "\u{660}", "", "idn-invalid"),
        ("\u{628}\u{660}\u{6F0}", "\u{6F0}", "", "idn-invalid"),
    ];
    for (host, at, section, rule) in failing {
        let iri = format!("https://{host}.example/");
        let ids = idn_rules(&iri);
        assert!(ids.contains(&rule), "{iri:?}: {ids:?}");
        if rule == RULE {
            let got = spans(&iri);
            assert!(
                got.iter().any(|(s, m)| s == at && m.contains(section)),
                "{iri:?}: {got:?}"
            );
        }
    }
    for host in [
        "\u{915}\u{94D}\u{200C}\u{937}",
        "\u{628}\u{64A}\u{200C}\u{628}\u{64A}",
        "\u{915}\u{94D}\u{200D}\u{937}",
        "l\u{B7}l",
        "\u{3B1}\u{375}\u{3B2}",
        "\u{5D0}\u{5F3}\u{5D1}",
        "\u{5D0}\u{5F4}\u{5D1}",
        "\u{30FB}\u{3041}",
        "\u{30FB}\u{30A1}",
        "\u{30FB}\u{4E08}",
        "\u{628}\u{660}\u{628}",
        "\u{6F0}0",
    ] {
        let iri = format!("https://{host}/");
        assert_eq!(idn_rules(&iri), Vec::<&str>::new(), "{iri:?}");
    }
}

#[test]
fn spans_point_at_the_character_as_written() {
    // Full-width letters are mapped first; the span is the middle dot, not the label.
    assert_eq!(spans("https://\u{FF21}\u{B7}l.example/")[0].0, "\u{B7}");
    // An ideographic full stop separates labels; the span is still the character.
    assert_eq!(spans("https://ok\u{3002}a\u{B7}l.example/")[0].0, "\u{B7}");
    // A percent-encoded middle dot: the whole label, decoded.
    let got = spans("https://a%C2%B7l.example/");
    assert_eq!(got[0].0, "a%C2%B7l", "{got:?}");
    // An `xn--` label: its characters are not written, so the label; the message shows both.
    let got = spans("https://xn--al-0ea.example/");
    assert_eq!(got[0].0, "xn--al-0ea");
    assert!(
        got[0].1.contains("`xn--al-0ea` (`a\u{B7}l`)"),
        "{}",
        got[0].1
    );
    assert!(got[0].1.contains("U+00B7 MIDDLE DOT"), "{}", got[0].1);
    // mailto domains and network-path references are DNS names too; other schemes are not.
    assert_eq!(spans("mailto:a@b.c,x@i\u{2764}.ws")[0].0, "\u{2764}");
    assert_eq!(spans("mailto:x@xn--i-7iq.ws")[0].0, "xn--i-7iq");
    assert_eq!(spans("//i\u{2764}.ws/x")[0].0, "\u{2764}");
    assert!(findings("urn:x:i\u{2764}.ws").is_empty());
    assert!(findings("foo://i\u{2764}.ws/").is_empty());
    // A look-alike of a delimiter is `confusable-delimiter`'s: one report per character.
    let ids: Vec<&str> = all("https://example.com\u{2215}login/")
        .iter()
        .map(|f| f.rule.id)
        .collect();
    assert_eq!(ids, ["confusable-delimiter"]);
    // A warning, in the host component.
    let f = &findings("https://i\u{2764}.ws/")[0];
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(f.component.map(|c| c.name()), Some("host"));
    // Messages never hold a hidden character raw.
    let m = &spans("https://xn--i-7iq.ws/")[0].1;
    assert!(
        m.contains("U+2764 HEAVY BLACK HEART") && m.contains("RFC 5892 §2.1"),
        "{m}"
    );
}

#[test]
fn real_hosts_in_many_scripts_stay_quiet() {
    for host in [
        "例え.テスト",
        "日本語.jp",
        "ドメイン名例.jp",
        "ひらがな・カタカナ.jp",
        "中文.中国",
        "测试.公司",
        "台灣.tw",
        "한국.한국",
        "실례.테스트",
        "مثال.إختبار",
        "موقع.وزارة-الاتصالات.مصر",
        "السعودية.sa",
        "مثال.ایران",
        "paral·lel.cat",
        "ジョン・レノン.jp",
        "צה״ל.ישראל",
        "کتاب‌خانه.ایران",
        "דוגמה.טעסט",
        "ירושלים.ישראל",
        "παράδειγμα.δοκιμή",
        "ελλάδα.ελ",
        "пример.испытание",
        "президент.рф",
        "україна.укр",
        "ตัวอย่าง.ไทย",
        "ไทย.com",
        "उदाहरण.परीक्षा",
        "भारत.भारत",
        "மலேசியா.இந்தியா",
        "bücher.example",
        "straße.de",
        "xn--fsqu00a.xn--3lr804guic",
        "xn--mgbh0fb.xn--kgbechtv",
        "l·l.cat",
        "EXAMPLE.COM",
        "ＥＸＡＭＰＬＥ.com",
    ] {
        let iri = format!("https://{host}/path");
        assert!(findings(&iri).is_empty(), "{host}: {:?}", spans(&iri));
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Characters near every rule: contextual ones, marks, joiners, dots UTS #46 maps, full
    /// width, emoji, RTL letters and digits, percent signs, hyphens, the `xn--` prefix.
    fn piece() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "a",
            "l",
            "-",
            ".",
            "\u{3002}",
            "\u{FF0E}",
            "\u{B7}",
            "\u{375}",
            "\u{3B1}",
            "\u{5F3}",
            "\u{5D0}",
            "\u{30FB}",
            "\u{3041}",
            "\u{660}",
            "\u{6F0}",
            "\u{628}",
            "\u{200C}",
            "\u{200D}",
            "\u{94D}",
            "\u{915}",
            "\u{301}",
            "\u{302E}",
            "\u{640}",
            "\u{FF21}",
            "\u{1F600}",
            "\u{2764}",
            "%C2%B7",
            "%",
            "xn--",
            "xn--al-0ea",
            "\u{DF}",
            "\u{2488}",
            "\u{AD}",
            "1",
        ])
        .prop_map(str::to_string)
    }

    proptest! {
        #[test]
        fn spans_are_characters_of_the_host(pieces in prop::collection::vec(piece(), 1..8)) {
            let host: String = pieces.concat();
            for (iri, start) in [
                (format!("http://{host}/"), 7),
                (format!("mailto:x@{host}"), 9),
            ] {
                for f in findings(&iri) {
                    prop_assert!(f.range.start >= start && f.range.end <= start + host.len());
                    prop_assert!(!f.range.is_empty());
                    prop_assert!(iri.is_char_boundary(f.range.start));
                    prop_assert!(iri.is_char_boundary(f.range.end));
                    prop_assert!(f.message.contains("RFC 589"), "{}", f.message);
                    // Never both: a name UTS #46 rejects is idn-invalid's alone.
                    prop_assert!(!idn_rules(&iri).contains(&"idn-invalid"));
                }
            }
        }
    }
}
