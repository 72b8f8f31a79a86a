//! Each rule's fix on single IRIs (what it writes, and whether it is safe), and each rule's
//! documented fix safety (`Fix safety:` under `## Fix`) held against the fixes its failing
//! examples actually carry.

use irilint::check::{CheckOptions, check_source};
use irilint::iri_fix::Applicability;
use irilint::rules::docs::{Expect, examples};
use irilint::rules::{self, RULES, Selection};
use irilint::source::{Format, Source};

use Applicability::{Safe, Unsafe};

/// The applicabilities of `rule`'s fixes on `iri`, and `iri` with all of them applied (they are
/// disjoint within one rule).
fn fixed(iri: &str, rule: &str) -> (Vec<Applicability>, String) {
    let mut fixes: Vec<_> = rules::check(iri, &Selection::all())
        .into_iter()
        .filter(|f| f.rule.id == rule)
        .filter_map(|f| f.fix)
        .collect();
    fixes.sort_by_key(|f| f.edits[0].range.start);
    let kinds = fixes.iter().map(|f| f.applicability).collect();
    let edits: Vec<_> = fixes.iter().flat_map(|f| f.edits.iter()).collect();
    (
        kinds,
        irilint::iri_fix::apply_iri_edits(iri, edits.into_iter()),
    )
}

fn assert_fix(rule: &str, iri: &str, kind: Applicability, expected: &str) {
    let (kinds, got) = fixed(iri, rule);
    assert!(!kinds.is_empty(), "{rule}: no fix for {iri:?}");
    assert!(
        kinds.iter().all(|k| *k == kind),
        "{rule}: {kinds:?} on {iri:?}"
    );
    assert_eq!(got, expected, "{rule} on {iri:?}");
    // A fixed IRI no longer trips the rule.
    assert!(
        fixed(&got, rule).0.is_empty() || rule == "syntax-bad-percent-encoding",
        "{rule}: still fixable after the fix: {got:?}"
    );
}

#[test]
fn safe_fixes_keep_the_iri_equivalent() {
    assert_fix(
        "syntax-unwise-ascii",
        "http://x.org/a b|c?q={1}",
        Safe,
        "http://x.org/a%20b%7Cc?q=%7B1%7D",
    );
    // Browsers read a backslash in an http IRI as `/`: encoding it is unsafe there.
    assert_fix(
        "syntax-unwise-ascii",
        "http://x.org/a\\b",
        Unsafe,
        "http://x.org/a%5Cb",
    );
    assert_fix("syntax-unwise-ascii", "urn:x:a\\b", Safe, "urn:x:a%5Cb");
    assert_fix(
        "percent-lowercase-hex",
        "http://x.org/%e2%82%ac/%3a",
        Safe,
        "http://x.org/%E2%82%AC/%3A",
    );
    assert_fix(
        "percent-encoded-unreserved",
        "http://x.org/%7Euser/%41%42C",
        Safe,
        "http://x.org/~user/ABC",
    );
    // After a stray `%`, decoded hex digits would make a new triplet: no fix.
    assert!(
        fixed("http://x.org/%%34%31", "percent-encoded-unreserved")
            .0
            .is_empty()
    );
    assert_fix("case-scheme-host", "HTTP://x.org/P", Safe, "http://x.org/P");
    assert_fix(
        "case-scheme-host",
        "http://WWW.Ex%4A.ORG/Path",
        Safe,
        "http://www.ex%4A.org/Path",
    );
    assert_fix(
        "dot-segment",
        "http://x.org/a/b/../c",
        Safe,
        "http://x.org/a/c",
    );
    assert_fix(
        "dot-segment",
        "http://x.org/a/./b/../../c/.",
        Safe,
        "http://x.org/c/",
    );
    // Each of these is equivalent to the fixed IRI on the §5.3 ladder.
    for (before, after) in [
        ("http://x.org/%7e", "http://x.org/~"),
        ("HTTP://X.ORG/a", "http://x.org/a"),
        ("http://x.org/a/../b", "http://x.org/b"),
    ] {
        assert_eq!(
            irilint::iri::normalize(before, irilint::iri::Level::Syntax),
            irilint::iri::normalize(after, irilint::iri::Level::Syntax),
        );
    }
}

#[test]
fn unsafe_fixes_may_change_the_resource() {
    // Reserved characters (RFC 3986 §2.2): `%5B` and `[`, `%23` and `#` are not equivalent.
    assert_fix(
        "syntax-unwise-ascii",
        "https://x.org/list?filter[lang][0]=Python",
        Unsafe,
        "https://x.org/list?filter%5Blang%5D%5B0%5D=Python",
    );
    assert_fix(
        "syntax-unwise-ascii",
        "https://matrix.to/#/#room:gnome.org",
        Unsafe,
        "https://matrix.to/#/%23room:gnome.org",
    );
    assert_fix(
        "syntax-bad-percent-encoding",
        "http://x.org/50%",
        Unsafe,
        "http://x.org/50%25",
    );
    assert_fix(
        "bidi-formatting-character",
        "http://x.org/invoice\u{202E}gpj.exe",
        Unsafe,
        "http://x.org/invoicegpj.exe",
    );
    assert_fix(
        "invisible-character",
        "https://exa\u{200B}mple.com/\u{2060}x",
        Unsafe,
        "https://example.com/x",
    );
    assert_fix(
        "not-nfc",
        "http://x.org/cafe\u{301}",
        Unsafe,
        "http://x.org/caf\u{E9}",
    );
    assert_fix(
        "not-nfkc",
        "http://x.org/\u{FB01}le/\u{FF41}",
        Unsafe,
        "http://x.org/file/a",
    );
    assert_fix(
        "confusable-delimiter",
        "https://example.com\u{2215}login.evil.com/",
        Unsafe,
        "https://example.com/login.evil.com/",
    );
    assert_fix(
        "confusable-delimiter",
        "https://example.com/50\u{066A}",
        Unsafe,
        "https://example.com/50%25",
    );
    assert_fix(
        "encoding-mojibake",
        "https://example.org/r\u{C3}\u{A9}sum\u{C3}\u{A9}",
        Unsafe,
        "https://example.org/r\u{E9}sum\u{E9}",
    );
    assert_fix(
        "dot-segment",
        "http://x.org/a/%2E%2E/b",
        Unsafe,
        "http://x.org/b",
    );
}

/// The `Fix safety:` line of a rule's doc: `safe`, `unsafe`, `none`, or `safe, or unsafe`.
fn documented(doc: &str) -> &str {
    let fix = &doc[doc.find("\n## Fix\n").expect("a Fix section")..];
    let line = fix
        .lines()
        .find_map(|l| l.strip_prefix("Fix safety: "))
        .expect("a `Fix safety:` line");
    line.split(" — ").next().unwrap()
}

/// The applicabilities of `rule`'s fixes on one example (an IRI, or a document checked whole).
fn example_fixes(rule: &str, example: &irilint::rules::docs::Example) -> Vec<Applicability> {
    let all = Selection::all();
    match &example.format {
        None => rules::check(&example.text, &all)
            .into_iter()
            .filter(|f| f.rule.id == rule)
            .filter_map(|f| f.fix.map(|f| f.applicability))
            .collect(),
        Some(name) => {
            let format = Format::from_name(name).unwrap();
            let bytes = example.bytes().unwrap();
            let source = Source::decode("example".into(), format, &bytes).unwrap();
            let options = CheckOptions::new(&all);
            check_source(&source, &options)
                .diagnostics
                .into_iter()
                .filter(|d| d.rule == rule)
                .filter_map(|d| d.fix.map(|f| f.applicability))
                .collect()
        }
    }
}

#[test]
fn documented_fix_safety_matches_the_fixes() {
    let mut problems = Vec::new();
    for rule in RULES {
        let said = documented(rule.doc);
        let allowed: &[Applicability] = match said {
            "safe" => &[Safe],
            "unsafe" => &[Unsafe],
            "none" => &[],
            s if s.starts_with("safe, or unsafe ") => &[Safe, Unsafe],
            other => panic!("{}: unknown fix safety `{other}`", rule.id),
        };
        let found: Vec<Applicability> = examples(rule.doc)
            .iter()
            .filter(|e| e.expect == Expect::Fires)
            .flat_map(|e| example_fixes(rule.id, e))
            .collect();
        if found.iter().any(|k| !allowed.contains(k)) {
            problems.push(format!("{}: says {said}, fixes are {found:?}", rule.id));
        }
        if !allowed.is_empty() && found.is_empty() {
            problems.push(format!("{}: says {said}, no example has a fix", rule.id));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
