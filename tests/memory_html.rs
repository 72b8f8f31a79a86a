//! One HTML tag of millions of attributes: the tokenizer is given it without them and irilint
//! reads them itself (`extract::html::crowded`). The pre-scan kept every attribute's ranges and
//! the tag was scanned again into a second such list when the tokenizer could not say where
//! it ended: 2.5 million ` a=b`, 10 MB, took 213 MB. Now a duplicate costs nothing, and each
//! distinct name is kept as where it is in the source (the book, "Limits and guarantees").
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::Counting;
use common::run::check_growth;
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

    // Distinct names: a set of where each kept name is in the source finds the duplicates,
    // 6 to 11 bytes a name, 16 while the set grows (their names, values and ranges took 149
    // bytes each, 212 before that: 12 to 18 bytes per byte of the tag), up to 917,504 names;
    // past them, a name not in the set is kept wherever it is. Long names and values, and the
    // shortest attributes there are, hexadecimal numbers without a value, for which the set was
    // about as large as the names themselves (2.6 bytes per byte of the tag with the file, while
    // the set grew with them).
    let names = |n: usize, each: &dyn Fn(usize) -> String| -> Vec<u8> {
        let mut page = String::from("<a");
        for i in 0..n {
            page.push_str(&each(i));
        }
        page.push_str(">x</a>\n");
        page.into_bytes()
    };
    type Attribute<'a> = &'a dyn Fn(usize) -> String;
    // (Past the set's names: from 1 to 2 million.)
    let shapes: [(&str, Attribute, [usize; 2], f64); 3] = [
        (
            "d.html",
            &|i| format!(" n{i:x}=\"v\""),
            [100_000, 400_000],
            2.0,
        ),
        (
            "e.html",
            &|i| format!(" data-name-{i}=\"https://example.org/{i}\""),
            [100_000, 400_000],
            2.0,
        ),
        (
            "f.html",
            &|i| format!(" {i:x}"),
            [1_000_000, 2_000_000],
            1.2,
        ),
    ];
    for (name, each, [small, large], most) in shapes {
        let sizes = (names(small, each), names(large, each));
        check_growth(name, Format::Html, sizes, most, &mut failed);
    }

    // A layout of template actions whose strings hold markup is read twice, with the actions
    // blanked and with only their strings, and the two readings merged as they go: they were
    // gathered and sorted (17 bytes per byte), then each reading was a copy of the page (3.0).
    // Now each action's strings are read from a copy of that action alone: the page and its
    // blanked copy, and the findings (2.2).
    let actions = |size: usize| -> Vec<u8> {
        let piece = "{{ printf \"<a href=%q>\" .X }}<a href=\"http://a.org/\u{202E}\">x</a>\n";
        piece.repeat(size / piece.len()).into_bytes()
    };
    let file = check_growth(
        "g.html",
        Format::Html,
        (actions(1 << 20), actions(4 << 20)),
        2.3,
        &mut failed,
    );
    // Both readings' IRIs: the action's and the page's.
    assert!(file.iris > 100_000, "{} IRIs", file.iris);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
