//! A page of suppression directives: each directive read is kept with its places until the
//! document is reported (about 200 bytes, for a comment of 20 or 30), and 200,000 of them took
//! 96 MB for a 12 MB page. A document's first `MAX_DIRECTIVES` are read, the others counted
//! and said once (the book, "Limits and guarantees"); both sizes checked are past them.
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::Counting;
use common::run::check_growth;
use irilint::source::Format;
use irilint::suppressions::MAX_DIRECTIVES;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn a_page_of_directives_is_read_in_bounded_memory() {
    let mut failed = Vec::new();
    // A directive before each finding, in each way a format writes one; and plain text of
    // directives only, the smallest. (The last is one paragraph of Markdown, parsed whole,
    // which takes a few times its size: the book.)
    for (name, format, piece, most) in [
        (
            "a.md",
            Format::Markdown,
            "<!-- irilint-disable-next-line -->\n<http://a.org/x\u{200B}>\n\n",
            2.0,
        ),
        (
            "a.html",
            Format::Html,
            "<!-- irilint-disable-next-line -->\n<a href=\"http://a.org/x\u{200B}\">x</a>\n",
            2.0,
        ),
        (
            "a.txt",
            Format::Text,
            "# irilint-disable-next-line\nhttp://a.org/x\u{200B}\n",
            2.0,
        ),
        ("b.txt", Format::Text, "#irilint-disable-file\n", 2.0),
        // A rule name that is no rule: a name more to keep, and a report each.
        (
            "c.md",
            Format::Markdown,
            "<!-- irilint-disable-next-line bidi-control -->\nhttp://a.org/\u{202E}x\n",
            3.0,
        ),
    ] {
        let make = |size: usize| piece.repeat(size / piece.len()).into_bytes();
        let file = check_growth(
            name,
            format,
            (make(2 << 20), make(4 << 20)),
            most,
            &mut failed,
        );
        // Past the limit: the last directive read is the MAX_DIRECTIVES-th.
        let said = file.diagnostics.iter().any(|d| {
            d.message
                .starts_with(&format!("more than {MAX_DIRECTIVES}"))
        });
        if !said {
            failed.push(format!("{name}: the directives not read are not said"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
