//! Front matter of one long key path above a value that holds an IRI: a TOML table header of
//! millions of dotted keys (`[a.a.a…]`), a YAML key as long (`a.a.a…:`), a TOML dotted key of
//! as many quoted parts (`"a"."a"…`, whose every part read the rest of its line: quadratic). The path was built whole and copied for each value and into its origin (16 MB
//! of `[a.a.a…]` took 103 MB RSS, of a YAML key 118 MB); now it keeps its first
//! `MAX_KEY_PATH` bytes, and the IRI below it is still checked. A counting allocator measures
//! the peak at two sizes: each byte more of the document costs its text and its masked copy
//! (the front matter made empty lines there: as lines of spaces, the Markdown parser took 1.5
//! bytes per byte more), not the path's copies.
//!
//! Alone in its test binary: the allocator counts the whole process.

mod common;

use common::counting::Counting;
use common::run::check_growth;
use irilint::source::Format;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn a_long_key_path_in_front_matter_costs_the_document_not_its_copies() {
    // (head, piece repeated, end of the key and the value's key, tail)
    let shapes: [(&str, &str, &str, &str); 3] = [
        ("+++\n[", "a.", "a]\nu = ", "+++\n"),
        ("---\n", "a.", "a:\n  u: ", "---\n"),
        ("+++\n", "\"a\".", "b = ", "+++\n"),
    ];
    let mut failed = Vec::new();
    for (head, piece, key_end, tail) in shapes {
        let doc = |size: usize| {
            let mut d = String::with_capacity(size + 64);
            d.push_str(head);
            d.push_str(&piece.repeat(size / piece.len()));
            d.push_str(key_end);
            d.push_str("\"http://a.org/\u{202E}x\"\n");
            d.push_str(tail);
            d.push_str("\nSome text.\n");
            d.into_bytes()
        };
        let name = format!("{}{piece}.md", head.trim_end());
        let file = check_growth(
            &name,
            Format::Markdown,
            (doc(1 << 20), doc(4 << 20)),
            2.2,
            &mut failed,
        );
        assert!(
            file.diagnostics
                .iter()
                .any(|d| d.rule == "bidi-formatting-character"),
            "{name}: the IRI under the long key is checked: {:?}",
            file.diagnostics
        );
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
