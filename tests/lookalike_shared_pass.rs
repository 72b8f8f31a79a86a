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
