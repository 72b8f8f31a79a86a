//! What a look-alike host costs the rules that find it: the script rules share what they learn
//! of a word, and a finding withheld under a more specific one on the same host builds no words
//! unless it comes to speak (issue 43: look-alike hosts cost ten times plain ASCII ones).

use irilint::rules::{self, Finding, Selection};
use irilint::work::{Work, measure};

/// Look-alike hosts of several kinds: letters imitating Latin ones in a Latin word, an `xn--`
/// label, a whole-script label, a word of two scripts imitating nothing.
const HOSTS: [&str; 4] = [
    "https://g\u{43E}\u{43E}gle.com/",
    "https://xn--ggle-55da.com/",
    "https://\u{430}\u{440}\u{440}\u{4CF}\u{435}.com/",
    "https://p\u{430}yp\u{430}l.example/",
];

fn selection(ids: &[&str]) -> Selection {
    Selection::from_selectors(ids, &[], &[]).expect("a selection")
}

#[test]
fn the_script_rules_read_a_word_once_for_what_they_both_ask() {
    // The words that mix scripts (a word plainly of one script, `аррӏе`, is answered in one
    // cheap pass by each rule, and nothing is kept for it).
    for host in [HOSTS[0], HOSTS[1], HOSTS[3]] {
        let chars =
            |ids: &[&str]| measure(Work::RuleChars, || rules::check(host, &selection(ids))).1;
        let mixed = chars(&["mixed-script"]);
        let confusable = chars(&["confusable"]);
        let both = chars(&["mixed-script", "confusable"]);
        assert!(mixed > 0 && confusable > 0, "{host}: {mixed} {confusable}");
        // Run together, the second asks what the first found: less than the two apart.
        assert!(
            both < mixed + confusable,
            "{host}: both {both}, mixed-script {mixed}, confusable {confusable}"
        );
        assert!(both >= mixed.max(confusable), "{host}");
    }
}

#[test]
fn a_withheld_finding_carries_no_words_until_it_speaks() {
    fn withheld(f: &Finding, out: &mut Vec<Finding>) {
        for w in &f.withheld {
            out.push(w.clone());
            withheld(w, out);
        }
    }
    let mut seen = 0;
    for host in HOSTS {
        let found = rules::check(host, &Selection::all());
        let mut under = Vec::new();
        for f in &found {
            // What speaks has its words.
            assert!(!f.message.is_empty() && f.help.is_some(), "{host}: {f:?}");
            withheld(f, &mut under);
        }
        for w in &under {
            assert!(
                w.message.is_empty() && w.help.is_none(),
                "{host}: {} withheld with words built: {:?}",
                w.rule.id,
                w.message
            );
        }
        seen += under.len();
    }
    assert!(seen >= 6, "{seen} withheld findings");
}

#[test]
fn only_the_findings_a_file_lists_are_given_words() {
    use irilint::check::{CheckOptions, MAX_LISTED, check_source};
    use irilint::source::{Format, Source};
    // More look-alike hosts than a file lists findings: those past the list are counted, and
    // their words (the names of the letters, what the name reads as) are never read.
    // Hosts that imitate no popular domain: `confusable` speaks, with words put off.
    for (hosts, host) in [
        (MAX_LISTED + 700, "\u{441}\u{43E}\u{440}\u{440}\u{435}r.com"),
        (MAX_LISTED + 700, "p\u{430}yp\u{430}l.example"),
        (300, "\u{441}\u{43E}\u{440}\u{440}\u{435}r.com"),
    ] {
        let text: String = (0..hosts)
            .map(|_| format!("see https://{host}/p\n"))
            .collect();
        let source = Source::decode("hosts.txt".into(), Format::Text, text.as_bytes()).unwrap();
        let selection = selection(&["ALL"]);
        let options = CheckOptions::new(&selection);
        let (outcome, spoken) = measure(Work::SpokenWords, || check_source(&source, &options));
        let listed = outcome.diagnostics.len();
        let counted: usize = outcome.unlisted.iter().map(|u| u.2).sum();
        assert_eq!(listed, hosts.min(MAX_LISTED), "{host}");
        assert_eq!(counted, hosts - listed, "{host}");
        // One host, one speaking finding, each listed one given its words once.
        assert!(
            outcome
                .diagnostics
                .iter()
                .all(|d| d.rule == "confusable" && !d.message.is_empty()),
            "{host}"
        );
        assert_eq!(
            spoken, listed as u64,
            "{host}: {spoken} findings given words"
        );
    }
}
