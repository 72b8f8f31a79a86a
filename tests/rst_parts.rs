//! reStructuredText read in parts reads what the whole document's reading reads: a long
//! document is read in parts that end before an unindented line after a blank line
//! (`rst::extract_each`), so that only one part's IRIs are held at a time. Each test compares
//! every IRI, span, origin and label, and every directive comment.

mod common;

use common::documents::{each_and_all, shuffled, under};
use irilint::extract::rst;
use std::path::Path;

/// Reads `text` in parts of each size that cuts no paragraph; returns how many readings cut it.
fn agrees_in_parts(name: &str, text: &str) -> usize {
    let whole = rst::extract(text);
    let mut readings = 0;
    for part in [1, 200, 1000, 5000, 20000] {
        let mut found = Vec::new();
        let (rest, forced) = rst::extract_in_parts(text, part, &mut |o| found.push(o));
        if forced > 0 || part >= text.len() {
            continue;
        }
        readings += 1;
        assert_eq!(found, whole.occurrences, "{name} in parts of {part}");
        assert_eq!(rest.comments, whole.comments, "{name} in parts of {part}");
    }
    readings
}

/// reStructuredText files: `.rst`, and `.txt` in a folder named `rst`.
fn is_rst(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".rst") || name.ends_with(".txt") && name.contains("/rst/")
}

/// This project's reStructuredText, each file and all of them as one document.
#[test]
fn the_project_s_rst_reads_the_same_in_parts() {
    let files = under(Path::new(env!("CARGO_MANIFEST_DIR")), &is_rst);
    assert!(!files.is_empty());
    let readings = each_and_all(&files, &agrees_in_parts);
    assert!(readings >= 5, "{readings} readings in parts");
}

/// Blocks that hold unindented-looking text only when indented, across part ends: literal
/// blocks, directive content, comments, targets continued on the next lines, `raw:: html`.
#[test]
fn indented_blocks_across_part_ends_are_read_whole() {
    let sections = [
        "Intro https://example.org/intro and `a link <https://example.org/a>`_.\n\n",
        "Code::\n\n    https://in.literal/1\n\n    more https://in.literal/2\n\n",
        ".. code-block:: text\n\n   https://in.code/1\n\n   https://in.code/2\n\n",
        ".. This is a comment https://in.comment/1\n\n   still https://in.comment/2\n\n",
        ".. _target: https://example.org/\n   target-continued\n\n",
        ".. raw:: html\n\n   <a href=\"https://example.org/raw\">x</a>\n\n",
        "__ https://example.org/anonymous\n\n",
        ".. irilint-disable-next-line syntax-invalid\n\nhttps://example.org/after-directive\n\n",
        "* item https://example.org/item\n\n  continued https://example.org/cont\n\n",
        "=====  =====\na      b\n=====  =====\nc      https://example.org/cell\n=====  =====\n\n",
    ];
    let doc = shuffled(&sections, 6);
    let whole = rst::extract(&doc);
    assert!(!whole.occurrences.iter().any(|o| o.iri.contains("in.")));
    let mut readings = 0;
    for part in 1..300 {
        let mut found = Vec::new();
        let (rest, forced) = rst::extract_in_parts(&doc, part, &mut |o| found.push(o));
        if forced > 0 {
            continue;
        }
        readings += 1;
        assert_eq!(found, whole.occurrences, "in parts of {part}");
        assert_eq!(rest.comments, whole.comments, "in parts of {part}");
    }
    assert!(readings > 250, "{readings}");
}

/// One paragraph longer than four parts is cut, and still read.
#[test]
fn a_paragraph_over_four_parts_is_cut_and_still_read() {
    let doc = "`a <https://example.org/a>`_ ".repeat(1000);
    let mut found = Vec::new();
    let (_, forced) = rst::extract_in_parts(&doc, 1000, &mut |o| found.push(o));
    assert!(forced > 0);
    assert!(found.len() >= 990, "{}", found.len());
}

/// A directory of reStructuredText files (`IRILINT_RST_CORPUS`, for instance the real
/// repositories' documents): each file, and all of them as one document.
#[test]
#[ignore]
fn a_corpus_reads_the_same_in_parts() {
    let dir = std::env::var("IRILINT_RST_CORPUS").unwrap();
    let files = under(Path::new(&dir), &is_rst);
    let readings = each_and_all(&files, &agrees_in_parts);
    eprintln!("{} files, {readings} readings in parts", files.len());
}
