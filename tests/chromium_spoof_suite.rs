//! Chromium's IDN spoof-checker verdicts as a conformance suite: the `kIdnCases` table of
//! idn_spoof_checker_unittest.cc, turned into a cases file by scripts/chromium-idn-cases.py (its
//! header names the source commit and sha256). Test data nobody in this project wrote.
//!
//! The cases file, tests/data/chromium_idn_cases.tsv, is made from Debian's source package of
//! Chromium (`scripts/chromium-source.sh` unpacks it and checks the tarball's sha256 against
//! Debian's .dsc; the file's header names the package, the tarball's and the test file's sha256):
//!
//! ```sh
//! D=$(scripts/chromium-source.sh /tmp/chromium)
//! python3 scripts/chromium-idn-cases.py $D/idn_spoof_checker_unittest.cc \
//!     $D/top_domains/idn_test_domains.list "$(cat /tmp/chromium/SOURCE)" > tests/data/chromium_idn_cases.tsv
//! cargo test --test chromium_spoof_suite -- --nocapture     # prints recall and false alarms
//! ```
//!
//! `IRILINT_CHROMIUM_CASES=FILE` runs the suite on another cases file (another Chromium's).
//!
//! Each host is checked as `https://HOST/` with every rule, written in Unicode and, as
//! Chromium's test gives it, with `xn--` labels (two tests). A case counts as flagged when a
//! look-alike rule reports anything on it, at any severity: the `lookalike` group
//! (`confusable`, `mixed-script`, `lookalike-domain`, `restricted-character`, `spoof-pattern`,
//! `confusable-delimiter`) and `idn-not-registrable` (symbols, emoji and punctuation in a label:
//! Chrome refuses them as not allowed in identifiers, irilint reports them there). `idn-invalid`
//! does not count: an invalid name is no look-alike, and Chrome's `invalid` cases are not scored.
//!
//! Chromium's test puts its own top-domain list (idn_test_domains.list: `digklmo68.com`,
//! `wmhtb.com`, `o2.com` ...) in place of the real one, and its verdicts on the top-domain cases
//! are against that list. The suite does the same: beside the rules, which compare with the
//! bundled list of real domains, a case counts as flagged when `lookalike-domain`'s comparison
//! ([`rules::imitated_domain`], the same skeletons) finds it imitating a name of the test list.
//!
//! Asserted: every `unsafe` case is flagged and every `safe` case is quiet, except the cases of
//! tests/data/chromium_idn_deviations.tsv, each with the reason irilint differs; a listed
//! deviation that no longer deviates fails too, so the list stays true. Recall (flagged unsafe
//! cases / unsafe cases) must be at least 0.95 and false alarms (flagged safe cases / safe
//! cases) at most 2%, deviations counted against both.

use std::collections::HashMap;

use irilint::rules::{self, Selection};

/// True when `id` is one of the rules this suite counts.
fn counts(id: &str, group: &str) -> bool {
    group == "lookalike" || id == "idn-not-registrable"
}

/// `\u{XXXX}` escapes decoded.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("\\u{") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('}').expect("closed escape") + at;
        let code = u32::from_str_radix(&rest[at + 3..end], 16).expect("hex");
        out.push(char::from_u32(code).expect("a scalar value"));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

struct Case {
    verdict: String,
    host: String,
    ace: String,
    comment: String,
}

/// The committed cases file, or the one `IRILINT_CHROMIUM_CASES` names.
fn cases_text() -> String {
    let path = std::env::var("IRILINT_CHROMIUM_CASES").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/chromium_idn_cases.tsv"
        )
        .to_string()
    });
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn cases() -> Vec<Case> {
    cases_text()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "{l:?}");
            Case {
                verdict: f[0].to_string(),
                host: unescape(f[1]),
                ace: f[2].to_string(),
                comment: unescape(f[3]),
            }
        })
        .collect()
}

/// ACE input → reason, from the deviation list.
fn deviations() -> HashMap<String, String> {
    include_str!("data/chromium_idn_deviations.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (ace, reason) = l.split_once('\t').expect("ace<TAB>reason");
            assert!(reason.len() > 20, "a reason, not a word: {l:?}");
            (ace.to_string(), reason.to_string())
        })
        .collect()
}

/// Chromium's test top-domain list, from the data's header.
fn test_domains() -> Vec<String> {
    cases_text()
        .lines()
        .filter_map(|l| l.strip_prefix("# test-domain: "))
        .map(unescape)
        .collect()
}

/// The counted rules that fire on `host`, with their severities, and the name of the test list
/// it imitates.
fn fired(host: &str, test_domains: &[&str]) -> Vec<String> {
    let iri = format!("https://{host}/");
    let mut ids: Vec<String> = rules::check(&iri, &Selection::all())
        .into_iter()
        .filter(|f| counts(f.rule.id, f.rule.group))
        .map(|f| format!("{}:{}", f.rule.id, f.severity.name()))
        .collect();
    if let Some(d) = rules::imitated_domain(host, test_domains) {
        ids.push(format!("lookalike-domain:test list {d}"));
    }
    ids.sort();
    ids.dedup();
    ids
}

/// Runs the suite on each case's host written as `form` gives it; returns recall and false
/// alarms after asserting that every case is as Chrome or a listed deviation.
fn run(form: &str, pick: fn(&Case) -> &str) -> (f64, f64) {
    let cases = cases();
    let deviations = deviations();
    let list = test_domains();
    assert!(list.len() > 30, "the test list is in the data's header");
    let list: Vec<&str> = list.iter().map(String::as_str).collect();
    let (mut unsafe_n, mut caught, mut safe_n, mut alarms) = (0, 0, 0, 0);
    let mut wrong = Vec::new();
    let mut listed_but_right = Vec::new();
    let mut seen = Vec::new();
    for case in &cases {
        let flagged = match case.verdict.as_str() {
            "unsafe" | "safe" => fired(pick(case), &list),
            "invalid" => continue,
            v => panic!("unknown verdict {v}"),
        };
        let hit = !flagged.is_empty();
        let right = if case.verdict == "unsafe" {
            unsafe_n += 1;
            caught += usize::from(hit);
            hit
        } else {
            safe_n += 1;
            alarms += usize::from(hit);
            !hit
        };
        let line = format!(
            "{} {} ({}; {}) {:?}",
            case.verdict,
            case.ace,
            case.host.escape_debug(),
            case.comment,
            flagged
        );
        match (right, deviations.contains_key(&case.ace)) {
            (true, true) => listed_but_right.push(line),
            (false, false) => wrong.push(line),
            _ => {}
        }
        seen.push(case.ace.clone());
    }
    let unknown: Vec<&String> = deviations.keys().filter(|d| !seen.contains(d)).collect();
    let recall = caught as f64 / unsafe_n as f64;
    let false_alarms = alarms as f64 / safe_n as f64;
    println!(
        "{form}: unsafe {unsafe_n}, flagged {caught}: recall {recall:.3}; safe {safe_n}, flagged {alarms}: false alarms {:.1}%",
        false_alarms * 100.0
    );
    assert!(
        wrong.is_empty() && listed_but_right.is_empty() && unknown.is_empty(),
        "{form}: not as Chrome and not in the deviation list ({}):\n{}\n\nlisted as deviations but as Chrome ({}):\n{}\n\nlisted but not a case: {unknown:?}",
        wrong.len(),
        wrong.join("\n"),
        listed_but_right.len(),
        listed_but_right.join("\n"),
    );
    (recall, false_alarms)
}

#[test]
fn chromium_idn_spoof_checker_cases_in_unicode() {
    let (recall, false_alarms) = run("Unicode", |c| &c.host);
    assert!(recall >= 0.95, "recall {recall:.3}");
    assert!(false_alarms <= 0.02, "false alarms {false_alarms:.3}");
}

/// The same cases as Chromium's test gives them: `xn--` labels, which the rules decode.
#[test]
fn chromium_idn_spoof_checker_cases_in_ace() {
    let (recall, false_alarms) = run("ACE", |c| &c.ace);
    assert!(recall >= 0.95, "recall {recall:.3}");
    assert!(false_alarms <= 0.02, "false alarms {false_alarms:.3}");
}
