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

/// The findings of `text` (one IRI a line) checked as a document, as `(rule, line, message)`.
fn document_findings(text: &str) -> (Vec<(String, usize, String)>, u64) {
    use irilint::check::{CheckOptions, check_source};
    use irilint::source::{Format, Source};
    let source = Source::decode("hosts.txt".into(), Format::Text, text.as_bytes()).unwrap();
    let selection = selection(&["ALL"]);
    let options = CheckOptions::new(&selection);
    let (outcome, answers) = measure(Work::NameAnswers, || check_source(&source, &options));
    let found = outcome
        .diagnostics
        .iter()
        .map(|d| (d.rule.to_string(), d.start.line, d.message.to_string()))
        .collect();
    (found, answers)
}

#[test]
fn a_host_linked_again_is_answered_from_what_was_found_of_it() {
    // Look-alike hosts, a valid IDN, one UTS #46 rejects, one IDNA2008 forbids: each linked
    // 40 times. What a rule asks of a whole name (its popular domain, UTS #46's and IDNA2008's
    // verdicts) is computed once per name, not once per link.
    let hosts = [
        "g\u{43E}\u{43E}gle.com",
        "\u{430}\u{440}\u{440}\u{4CF}\u{435}.com",
        "p\u{430}yp\u{430}l.example",
        "b\u{FC}cher.de",
        "a\u{2488}b.com",
        "i\u{2764}.ws",
    ];
    let once: String = hosts
        .iter()
        .map(|h| format!("see https://{h}/p\n"))
        .collect();
    // Each document on a thread of its own: nothing is remembered from the other.
    let on_a_thread = |text: String| {
        std::thread::spawn(move || document_findings(&text))
            .join()
            .unwrap()
    };
    let again = once.repeat(40);
    let (alone, first) = on_a_thread(once);
    let (repeated, answers) = on_a_thread(again);
    assert!(first > 0, "no answer computed for {} names", hosts.len());
    // As many as for one link each: the first link to a name computes them, the 39 others
    // are answered from what it found.
    assert_eq!(
        answers, first,
        "{answers} answers computed for 40 links to each name, {first} for one link each"
    );
    // And the findings are those of the first links, line after line.
    assert!(alone.len() >= hosts.len(), "{alone:?}");
    assert_eq!(repeated.len(), 40 * alone.len());
    for (k, f) in repeated.iter().enumerate() {
        let like = &alone[k % alone.len()];
        assert_eq!(
            (&f.0, f.1, &f.2),
            (&like.0, like.1 + k / alone.len() * hosts.len(), &like.2)
        );
    }
}

#[test]
fn names_met_in_any_order_are_each_given_their_own_answers() {
    // Many names, interleaved: a remembered answer is never another name's (each IRI in a
    // document is found as it is when checked alone).
    let names: Vec<String> = (0..300)
        .map(|i| {
            let base = [
                "g\u{43E}\u{43E}gle",
                "p\u{430}ypal",
                "\u{E9}t\u{E9}",
                "xn--bcher-kva",
            ][i % 4];
            let tld = ["com", "org", "de", "example"][i / 4 % 4];
            format!("{base}{}.{tld}", "\u{43E}".repeat(i / 16))
        })
        .collect();
    let mut text = String::new();
    for round in 0..3 {
        for (i, n) in names.iter().enumerate() {
            if (i + round) % 3 != 0 {
                text.push_str(&format!("https://{n}/\n"));
            }
        }
    }
    let (found, _) = document_findings(&text);
    // Each IRI alone, as a document of one line, on a thread of its own (nothing remembered).
    let alone = |iri: &str| -> Vec<(String, String)> {
        let line = format!("{iri}\n");
        let mut f: Vec<(String, String)> = std::thread::spawn(move || document_findings(&line).0)
            .join()
            .unwrap()
            .into_iter()
            .map(|f| (f.0, f.2))
            .collect();
        f.sort();
        f
    };
    let mut known: std::collections::HashMap<&str, Vec<(String, String)>> = Default::default();
    for (line, iri) in text.lines().enumerate() {
        let mut here: Vec<(String, String)> = found
            .iter()
            .filter(|f| f.1 == line + 1)
            .map(|f| (f.0.clone(), f.2.clone()))
            .collect();
        here.sort();
        let expected = known.entry(iri).or_insert_with(|| alone(iri));
        assert_eq!(&here, expected, "line {}: {iri}", line + 1);
    }
}
