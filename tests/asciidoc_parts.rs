//! AsciiDoc read in parts reads what the whole document's reading reads: a long document is
//! read in parts that end before a letter line after a blank line, outside delimited blocks
//! whose content is no text (`asciidoc::extract_each`), so that only one part's IRIs are held
//! at a time. Each test compares every IRI, span, origin and label, and every directive comment.

mod common;

use common::documents::{each_and_all, shuffled, under};
use irilint::extract::asciidoc;
use std::path::Path;

/// Reads `text` in parts of each size that cuts nothing; returns how many readings did.
fn agrees_in_parts(name: &str, text: &str, sizes: &[usize]) -> usize {
    let whole = asciidoc::extract(text);
    let mut readings = 0;
    for &part in sizes {
        let mut found = Vec::new();
        let (rest, forced) = asciidoc::extract_in_parts(text, part, &mut |o| found.push(o));
        if forced > 0 || part >= text.len() {
            continue;
        }
        readings += 1;
        if found != whole.occurrences {
            let a: Vec<_> = whole
                .occurrences
                .iter()
                .map(|o| (o.map.source_range(), o.iri.to_string()))
                .collect();
            let b: Vec<_> = found
                .iter()
                .map(|o| (o.map.source_range(), o.iri.to_string()))
                .collect();
            let only_a: Vec<_> = a.iter().filter(|x| !b.contains(x)).take(4).collect();
            let only_b: Vec<_> = b.iter().filter(|x| !a.contains(x)).take(4).collect();
            let at = only_a.first().or(only_b.first()).map_or(0, |x| x.0.start);
            let mut from = at.saturating_sub(600);
            while !text.is_char_boundary(from) {
                from -= 1;
            }
            let context = &text[from..at];
            panic!(
                "{name} in parts of {part}: whole only {only_a:?}, parts only {only_b:?}, after {context:?}"
            );
        }
        assert_eq!(rest.comments, whole.comments, "{name} in parts of {part}");
    }
    readings
}

const SIZES: [usize; 5] = [1, 200, 1000, 5000, 20000];

/// The readings in parts of the AsciiDoc files under `dir`, each and all as one document.
fn corpus(dir: &Path) -> usize {
    let is_adoc = |p: &Path| {
        let name = p.to_string_lossy();
        [".adoc", ".asciidoc", ".asc"]
            .iter()
            .any(|e| name.ends_with(e))
    };
    each_and_all(&under(dir, &is_adoc), &|name, text| {
        agrees_in_parts(name, text, &SIZES)
    })
}

/// This project's AsciiDoc, each file and all of them as one document.
#[test]
fn the_project_s_asciidoc_reads_the_same_in_parts() {
    let readings = corpus(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(readings >= 5, "{readings} readings in parts");
}

/// Blocks whose content is no text, across part ends, and URL attributes set after their use.
#[test]
fn verbatim_blocks_across_part_ends_are_read_whole() {
    let sections = [
        "Intro https://example.org/intro and link:https://example.org/a[a link].\n\n",
        "----\nhttps://in.listing/1\n\nText https://in.listing/2 at column 0\n----\n\n",
        "....\nhttps://in.literal/1\n\nMore https://in.literal/2\n....\n\n",
        "////\nhttps://in.comment/1\n\nStill https://in.comment/2\n////\n\n",
        "++++\n<a href=\"https://in.pass/1\">x</a>\n\nPass https://in.pass/2\n++++\n\n",
        "```\nhttps://in.fence/1\n\nFence https://in.fence/2\n```\n\n",
        "  literal https://in.literal/3\nsecond line\n\n",
        "Use {url-site}[the site] and {site}/path[a page].\n\n",
        ":site: https://example.org/site\n\n",
        "// irilint-disable-next-line syntax-invalid\nhttps://example.org/after-directive\n\n",
        "Term::\n  https://example.org/term-text\n\n",
        "* item https://example.org/item\n+\nContinued https://example.org/continued\n\n",
        "Title\n-----\n\nhttps://example.org/after-title\n\n",
    ];
    let doc = shuffled(&sections, 6);
    let whole = asciidoc::extract(&doc);
    assert!(
        !whole.occurrences.iter().any(|o| o.iri.contains("in.")),
        "{:?}",
        whole
            .occurrences
            .iter()
            .filter(|o| o.iri.contains("in."))
            .map(|o| &o.iri)
            .collect::<Vec<_>>()
    );
    let sizes: Vec<usize> = (1..300).collect();
    let readings = agrees_in_parts("sections", &doc, &sizes);
    assert!(readings > 50, "{readings}");
}

/// One paragraph longer than four parts is cut, and still read; so is one long line.
#[test]
fn a_paragraph_over_four_parts_is_cut_and_still_read() {
    for doc in [
        "link:https://example.org/a[a] ".repeat(1000),
        "link:https://example.org/a[a]\n".repeat(1000),
    ] {
        let mut found = Vec::new();
        let (_, forced) = asciidoc::extract_in_parts(&doc, 1000, &mut |o| found.push(o));
        assert!(forced > 0);
        assert!(found.len() >= 990, "{}", found.len());
    }
}

/// A directory of AsciiDoc files (`IRILINT_ADOC_CORPUS`, for instance the real repositories'
/// documents): each file, and all of them as one document.
#[test]
#[ignore]
fn a_corpus_reads_the_same_in_parts() {
    let dir = std::env::var("IRILINT_ADOC_CORPUS").unwrap();
    eprintln!("{} readings in parts", corpus(Path::new(&dir)));
}

/// A passthrough (`+++`) or a `link:++…++` target not closed in its paragraph is text: the
/// next paragraphs are read, as Asciidoctor substitutes each block's text on its own. (It hid
/// everything up to the next `+++` of the document, hundreds of kilobytes away.)
#[test]
fn an_unclosed_passthrough_hides_only_its_paragraph() {
    for open in [
        "Write +++ for a passthrough.",
        "See link:++https://example.org/a b",
    ] {
        let doc = format!(
            "{open}\n\nVisit https://example.org/next today.\n\nClose +++ here.\n\nlink:++x++[]\n"
        );
        let found = asciidoc::extract(&doc);
        assert!(
            found
                .occurrences
                .iter()
                .any(|o| &*o.iri == "https://example.org/next"),
            "{open}: {:?}",
            found.occurrences.iter().map(|o| &o.iri).collect::<Vec<_>>()
        );
    }
}
