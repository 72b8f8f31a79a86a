//! XML documents whose IRIs are made of entities, and one of nothing but nesting: peak memory
//! stays within twice the document and a constant (the book, "Limits and guarantees"). Before, 4.3 MB of 128,000 declarations
//! each used once in one IRI peaked at 100 MB (a label per declaration, kept by the IRI's map
//! and copied with it), 2.4 MB of `&e;x` alternating in one IRI at 146 MB (a piece of map per
//! reference), and a 5 MB entity used 9 times in one IRI at 150 MB (the expansion budget, 10 ×
//! the document, let one value grow to 45 MB). 3.5 MB of 400,000 references to entities of an
//! unread external subset made as many warnings, 650 MB. 5.3 MB of `<a>` kept each of its 1.3
//! million levels (78 MB); reading now stops past 10,000.
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::{Counting, cost_of};
use common::run::check_and_report;
use irilint::check::FileOutcome;
use irilint::source::Format;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// (peak live bytes, bytes allocated) to check `doc` and write its JSON report, and the report.
fn cost(name: &str, doc: &str) -> ((usize, usize), FileOutcome) {
    cost_of(|| check_and_report(name, Format::Xml, doc))
}

fn atom(doctype: &str, href: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE feed [{doctype}]>\n<feed xmlns=\"http://www.w3.org/2005/\
         Atom\"><link href=\"http://a.example/{href}\"/></feed>\n"
    )
}

fn rss(doctype: &str, link: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [{doctype}]>\n<rss version=\"2.0\"><channel><item>\
         <link>http://a.example/{link}</link></item></channel></rss>\n"
    )
}

/// `n` entities `e0`... declared, each used once, in that order.
fn declared_each(n: usize) -> (String, String) {
    let decls = (0..n).map(|k| format!("<!ENTITY e{k} \"x{k}\">")).collect();
    let uses = (0..n).map(|k| format!("&e{k};")).collect();
    (decls, uses)
}

/// (name, document) of about `size` bytes.
fn documents(size: usize) -> Vec<(&'static str, String)> {
    let n = size / 33;
    let (decls, uses) = declared_each(n);
    let alternating = "&e;x".repeat(size / 4);
    let big = "a".repeat(size / 2);
    let params: String = (0..size / 24)
        .map(|k| format!("<!ENTITY % p{k} \"x\">"))
        .collect();
    vec![
        ("declared-each.xml", atom(&decls, &uses)),
        (
            "alternating.xml",
            atom("<!ENTITY e \"y\u{202E}\">", &alternating),
        ),
        (
            "alternating-rss.xml",
            rss("<!ENTITY e \"y\u{202E}\">", &alternating),
        ),
        (
            "large-entity.xml",
            atom(&format!("<!ENTITY a \"{big}\">"), &"&a;".repeat(9)),
        ),
        (
            "large-entity-rss.xml",
            rss(&format!("<!ENTITY a \"{big}\">"), &"&a;".repeat(9)),
        ),
        ("parameters.xml", atom(&params, "x")),
        (
            "undeclared.xml",
            format!(
                "<!DOCTYPE feed SYSTEM \"f.dtd\"><feed xmlns=\"http://www.w3.org/2005/Atom\">\
                 <link href=\"http://a.example/{}\"/></feed>",
                (0..size / 8).map(|k| format!("&u{k};")).collect::<String>()
            ),
        ),
        (
            "external.xml",
            atom(
                &(0..size / 40)
                    .map(|k| format!("<!ENTITY x{k} SYSTEM \"s\">"))
                    .collect::<String>(),
                &(0..size / 40)
                    .map(|k| format!("&x{k};"))
                    .collect::<String>(),
            ),
        ),
        // Nothing but nesting: each level is kept until its end tag.
        ("nested.xml", format!("<r>{}", "<a>".repeat(size / 3))),
    ]
}

#[test]
fn iris_made_of_entities_stay_within_the_memory_bound() {
    let small = documents(1 << 20);
    let mut failed = Vec::new();
    for (k, (name, large)) in documents(4 << 20).into_iter().enumerate() {
        let ((small_peak, small_work), _) = cost(name, &small[k].1);
        let ((peak, work), report) = cost(name, &large);
        assert!(
            report.iris >= 1 || name == "nested.xml",
            "{name}: {} IRIs",
            report.iris
        );
        if peak > 2 * large.len() + (40 << 20) {
            failed.push(format!(
                "{name}: peak {} MB for a {} MB document",
                peak >> 20,
                large.len() >> 20
            ));
        }
        // The document, its decoded text, the IRI (longer than its source when entities expand)
        // and the checker's work on it: no cost per reference or declaration beyond a few bytes.
        if peak.saturating_sub(small_peak) > 6 * (large.len() - small[k].1.len()) {
            failed.push(format!(
                "{name}: peak {small_peak} bytes at 1 MB, {peak} at 4 MB"
            ));
        }
        if work > 8 * small_work {
            failed.push(format!(
                "{name}: {small_work} bytes allocated at 1 MB, {work} at 4 MB"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
