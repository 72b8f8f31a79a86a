//! One HTML tag of millions of attributes: the tokenizer is given it without them and irilint
//! reads them itself (`extract::html::crowded`). The pre-scan kept every attribute's ranges and
//! the tag was scanned again into a second such list when the tokenizer could not say where
//! it ended: 2.5 million ` a=b`, 10 MB, took 213 MB. Now a duplicate costs nothing, and each
//! distinct name is kept once, as the tokenizer keeps it (the book, "Limits and guarantees").
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::{Counting, cost_of};
use common::run::{check_bytes_and_report, check_growth};
use irilint::source::Format;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// `head`, `piece` repeated to about `size` bytes, `tail`.
fn tag(head: &str, piece: &str, tail: &str, size: usize) -> Vec<u8> {
    format!("{head}{}{tail}", piece.repeat(size / piece.len())).into_bytes()
}

#[test]
fn a_tag_of_many_attributes_is_read_in_bounded_memory() {
    let mut failed = Vec::new();
    // The same attribute again and again: kept once. (A Markdown document of less than the
    // parser's budget is parsed whole, which takes a few times its size: the book.)
    for (name, format, head, piece, tail, most) in [
        ("a.html", Format::Html, "<a", " a=b", ">x</a>\n", 2.0),
        (
            "b.html",
            Format::Html,
            "<a",
            " href=\"http://a.org/x\"",
            ">x</a>\n",
            2.0,
        ),
        (
            "c.md",
            Format::Markdown,
            "<Card",
            " href=\"http://a.org/x\"",
            " />\n",
            4.0,
        ),
    ] {
        let sizes = (
            tag(head, piece, tail, 2 << 20),
            tag(head, piece, tail, 8 << 20),
        );
        let file = check_growth(name, format, sizes, most, &mut failed);
        if file.iris > 1 {
            failed.push(format!(
                "{name}: {} IRIs, not the first attribute's",
                file.iris
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));

    // Distinct names: each kept, with its name and value, as the tokenizer keeps them (the
    // documented exception): 149 bytes each, was 212.
    let names = |n: usize| -> Vec<u8> {
        let mut page = String::from("<a");
        for i in 0..n {
            page.push_str(&format!(" n{i:x}=\"v\""));
        }
        page.push_str(">x</a>\n");
        page.into_bytes()
    };
    let (small, large) = (names(100_000), names(400_000));
    let ((small_peak, _), _) =
        cost_of(|| check_bytes_and_report("d.html", Format::Html, small.clone()));
    let ((peak, _), _) = cost_of(|| check_bytes_and_report("d.html", Format::Html, large.clone()));
    let per_attribute = (peak - small_peak) / 300_000;
    eprintln!("distinct names: {per_attribute} bytes per attribute");
    assert!(per_attribute <= 160, "{per_attribute} bytes per attribute");
}
