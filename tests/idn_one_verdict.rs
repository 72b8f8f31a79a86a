//! `idn-invalid` and `idn-not-registrable` read a Unicode host once between them: IDNA2008's
//! verdict on the name as written, which `idn-not-registrable` asks, also decides UTS #46
//! ToASCII's for `idn-invalid` when the name passes it, so only the names it leaves undecided
//! are given to ToASCII (book: Performance).

use irilint::check::{CheckOptions, check_source};
use irilint::rules::Selection;
use irilint::source::{Format, Source};
use irilint::work::{Work, measure};

/// The rules and lines of the findings of `text` (one IRI a line) checked as a document with
/// every rule, and how many names were given to ToASCII.
fn findings(text: &str) -> (Vec<(String, usize)>, u64) {
    let source = Source::decode("hosts.txt".into(), Format::Text, text.as_bytes()).unwrap();
    let selection = Selection::from_selectors(&["ALL"], &[], &[]).expect("a selection");
    let options = CheckOptions::new(&selection);
    let (outcome, runs) = measure(Work::Uts46Names, || check_source(&source, &options));
    let found = outcome
        .diagnostics
        .iter()
        .map(|d| (d.rule.to_string(), d.start.line))
        .collect();
    (found, runs)
}

#[test]
fn a_name_idna2008_accepts_is_not_read_again_by_uts46() {
    // Distinct names, each met once: nothing is remembered from one to the next.
    let mut text = String::new();
    for k in 0..60u32 {
        let a = char::from_u32(0x430 + k % 32).unwrap();
        let b = char::from_u32(0xE0 + k % 23).unwrap();
        text.push_str(&format!(
            "see https://g{a}{a}gle{k}.com/p and https://b{b}cher{k}.de/\n"
        ));
    }
    let (found, runs) = findings(&text);
    assert_eq!(runs, 0, "{runs} names given to ToASCII");
    assert!(
        !found.iter().any(|(r, _)| r.starts_with("idn-")),
        "{found:?}"
    );
}

#[test]
fn names_idna2008_leaves_undecided_still_get_uts46s_verdict() {
    // Upper case and a symbol (UTS #46 maps or allows them, IDNA2008 does not), a label too
    // long for DNS, an empty label, `--` in the third and fourth characters: each given to
    // ToASCII, and reported as before.
    // Thirty-two letters twice: more than 63 octets in Punycode (a letter repeated alone
    // would be written short).
    let long: String = ('\u{430}'..='\u{44F}')
        .chain('\u{430}'..='\u{44F}')
        .collect();
    let lines = [
        ("https://G\u{43E}\u{43E}gle.com/", None),
        ("https://a\u{2764}b.com/", Some("idn-not-registrable")),
        (&*format!("https://{long}.com/"), Some("idn-invalid")),
        ("https://\u{436}..com/", Some("idn-invalid")),
        ("https://a\u{E9}--b.com/", Some("idn-invalid")),
    ];
    let text: String = lines
        .iter()
        .map(|(l, _)| format!("see {l} here\n"))
        .collect();
    let (found, runs) = findings(&text);
    // Each name once, by `idn-invalid`: the one `idn-not-registrable` reports is not given to
    // ToASCII again (its DNS lengths are counted from the mapped form, `idn::fits_dns`).
    assert_eq!(runs, lines.len() as u64, "{found:?}");
    for (k, (line, rule)) in lines.iter().enumerate() {
        let on_line: Vec<&str> = found
            .iter()
            .filter(|(r, l)| *l == k + 1 && r.starts_with("idn-"))
            .map(|(r, _)| r.as_str())
            .collect();
        match rule {
            Some(rule) => assert!(on_line.contains(rule), "{line}: {on_line:?}"),
            None => assert!(on_line.is_empty(), "{line}: {on_line:?}"),
        }
    }
}
