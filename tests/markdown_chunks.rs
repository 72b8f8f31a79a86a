//! Markdown parsed in chunks reads what the whole document's parse reads: a document over the
//! parser's budget is parsed in chunks that each start where the document's parse holds nothing
//! open (`src/extract/markdown/chunks.rs`). Each test reads documents whole and under budgets
//! that split them, and compares every IRI, span and origin, and every directive comment.

mod common;

use common::documents::{each_and_all, shuffled, under};
use irilint::extract::markdown;
use std::path::Path;

/// Each budget that splits `text`: the chunks' IRIs are the whole parse's wherever no end was
/// forced. Returns how many budgets made chunks.
fn agrees_in_chunks(name: &str, text: &str) -> usize {
    let (whole, one) = markdown::extract_with_budget(text, usize::MAX);
    assert_eq!(one.chunks, 1);
    let cost = markdown::chunk_cost(text);
    let mut split = 0;
    for parts in [2, 3, 5, 8, 13, 40] {
        let (chunked, how) = markdown::extract_with_budget(text, cost / parts);
        if how.forced > 0 || how.chunks < 2 {
            continue;
        }
        split += 1;
        if chunked.occurrences != whole.occurrences {
            let a: Vec<_> = whole
                .occurrences
                .iter()
                .map(|o| (o.map.source_range(), o.iri.to_string(), o.origin.clone()))
                .collect();
            let b: Vec<_> = chunked
                .occurrences
                .iter()
                .map(|o| (o.map.source_range(), o.iri.to_string(), o.origin.clone()))
                .collect();
            let only_a: Vec<_> = a.iter().filter(|x| !b.contains(x)).take(5).collect();
            let only_b: Vec<_> = b.iter().filter(|x| !a.contains(x)).take(5).collect();
            panic!(
                "{name} in {} chunks ({how:?}): whole only {only_a:?}\n chunked only {only_b:?}",
                how.chunks
            );
        }
        assert_eq!(
            chunked.comments, whole.comments,
            "{name}: comments in {how:?}"
        );
    }
    split
}

/// This project's own Markdown (fixtures, the book, the rule pages, the README), each file and
/// all of them as one document.
#[test]
fn the_project_s_markdown_reads_the_same_in_chunks() {
    let files = under(Path::new(env!("CARGO_MANIFEST_DIR")), &is_markdown);
    assert!(files.len() > 100, "{} Markdown files", files.len());
    let readings = each_and_all(&files, &agrees_in_chunks);
    // Most files are split by some budget, the whole of them by most.
    assert!(readings > 60, "{readings} readings in chunks");
    let all: String = files.iter().map(|(_, t)| format!("{t}\n")).collect();
    let n = agrees_in_chunks("all of them", &all);
    assert!(
        n >= 4,
        "all of them split without a forced end by {n} budgets"
    );
}

/// Markdown files: `.md`, `.markdown`.
fn is_markdown(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".md") || name.ends_with(".markdown")
}

/// Blocks that run on over blank lines, across where chunks would end: fenced code (which
/// holds what would otherwise be IRIs), HTML blocks of kinds 1 to 5, and a definition repeated
/// in another chunk (CommonMark keeps the first).
#[test]
fn blocks_across_chunk_ends_are_read_whole() {
    let sections = [
        "Intro with https://example.org/intro and [a link](https://example.org/a).\n\n",
        "```text\nhttps://in.code/1\n\nText https://in.code/2 that would be a paragraph\n```\n\n",
        "~~~~\n```\n\nStill code https://in.code/3\n~~~~\n\n",
        "<!--\n\nCommented https://in.comment/1\n-->\n\n",
        "<pre>\n\nPre <a href=\"https://in.pre/1\">x</a>\n</pre>\n\n",
        "<script>\n\nvar u = 'https://in.script/1';\n</script>\n\n",
        "- item https://example.org/item\n\n  ```\n  https://in.code/4\n\n  ```\n\n",
        "> quote https://example.org/quote\n>\n> ```\n> https://in.code/5\n\n",
        "[dup]: https://example.org/first\n\nSee [dup] and [later].\n\n",
        "[DUP]: https://example.org/second\n\n",
        "Text[^1] and https://example.org/before[^n].\n\n[^n]: A note https://example.org/note\n\n",
        "<div>\nhttps://in.div/1 <a href=\"https://in.div/2\">d</a>\n</div>\n\n",
        "Line one\r\n\r\nLine two https://example.org/crlf\r\n\r\n",
        "Before code.\n\n    indented https://in.code/6\n\nafter https://example.org/after\n\n",
        "Table | https://example.org/cell\n--- | ---\nrow | https://example.org/row\n\n",
    ];
    let mut doc = shuffled(&sections, 8);
    doc.push_str("[later]: https://example.org/later\n\n```\nnever closed\n\nhttps://in.code/7\n");
    let (whole, _) = markdown::extract_with_budget(&doc, usize::MAX);
    assert!(!whole.occurrences.iter().any(|o| o.iri.contains("in.code")));
    assert_eq!(
        whole
            .occurrences
            .iter()
            .filter(|o| o.iri.contains("example.org/first"))
            .count(),
        1
    );
    assert!(
        !whole
            .occurrences
            .iter()
            .any(|o| o.iri.contains("example.org/second"))
    );
    let cost = markdown::chunk_cost(&doc);
    let mut blocks = 0;
    for parts in 2..200 {
        let (chunked, how) = markdown::extract_with_budget(&doc, cost / parts);
        if how.forced > 0 {
            continue;
        }
        blocks += how.blocks;
        assert_eq!(chunked.occurrences, whole.occurrences, "in {how:?}");
        assert_eq!(chunked.comments, whole.comments, "in {how:?}");
    }
    // Chunks did end inside such blocks, which were then read whole.
    assert!(blocks > 50, "{blocks} blocks read whole");
}

/// A `.md` file that shows MDX's syntax in a later chunk is read as MDX from its start, as it
/// is read whole (and MDX's indented lines are paragraph lines), in chunks too; its IRIs are
/// handed on once.
#[test]
fn a_document_that_shows_mdx_late_is_read_as_mdx_in_chunks_too() {
    let mut doc = String::new();
    for k in 0..60 {
        doc.push_str(&format!(
            "Section {k} with https://example.org/{k} and <Card href=\"https://example.org/card{k}\" />.\n\n    indented https://example.org/indented{k}\n\n"
        ));
        if k == 45 {
            doc.push_str("import Card from '../components/Card'\n\n");
        }
    }
    let (whole, _) = markdown::extract_with_budget(&doc, usize::MAX);
    // As MDX: the indented lines are no code.
    assert!(
        whole
            .occurrences
            .iter()
            .any(|o| o.iri.contains("indented3"))
    );
    let cost = markdown::chunk_cost(&doc);
    for parts in [2, 5, 17] {
        let (chunked, how) = markdown::extract_with_budget(&doc, cost / parts);
        assert!(how.chunks > 1 && how.forced == 0, "{how:?}");
        assert_eq!(chunked.occurrences, whole.occurrences, "in {how:?}");
    }
}

/// Over the budget alone, a fenced code block is not parsed (it holds no IRIs) and an HTML
/// block goes to the HTML extractor; a paragraph is cut at a line end, and still read.
#[test]
fn blocks_over_the_budget_alone_are_still_read() {
    let fence = format!(
        "Before https://example.org/1\n\n```\n{}```\n\nAfter https://example.org/2\n",
        "https://in.code/x\n".repeat(2000)
    );
    let (found, how) = markdown::extract_with_budget(&fence, markdown::chunk_cost(&fence) / 20);
    let iris: Vec<&str> = found.occurrences.iter().map(|o| &*o.iri).collect();
    assert_eq!(iris, ["https://example.org/1", "https://example.org/2"]);
    assert!(how.unparsed_blocks == 1, "{how:?}");
    let html = format!(
        "<!--\n{}-->\n<pre><a href=\"https://example.org/3\">x</a></pre>\n\nAfter https://example.org/2\n",
        "x https://in.comment/x\n".repeat(2000)
    );
    let (found, how) = markdown::extract_with_budget(&html, markdown::chunk_cost(&html) / 20);
    let iris: Vec<&str> = found.occurrences.iter().map(|o| &*o.iri).collect();
    assert_eq!(
        iris,
        ["https://example.org/3", "https://example.org/2"],
        "{how:?}"
    );
    let para = format!("{}\n", "Words and https://example.org/p\n".repeat(2000));
    let (found, how) = markdown::extract_with_budget(&para, markdown::chunk_cost(&para) / 20);
    assert!(how.forced > 0);
    assert_eq!(found.occurrences.len(), 2000);
}

/// A directory of Markdown files (`IRILINT_MD_CORPUS`, for instance the real repositories'
/// documents): each file and their concatenations in 2 MB documents.
#[test]
#[ignore]
fn a_corpus_reads_the_same_in_chunks() {
    let dir = std::env::var("IRILINT_MD_CORPUS").unwrap();
    let mut all = String::new();
    let mut n = 0;
    for (p, text) in under(Path::new(&dir), &is_markdown) {
        n += agrees_in_chunks(&p.display().to_string(), &text);
        all.push_str(&text);
        if all.len() > 2_000_000 {
            n += agrees_in_chunks(&format!("concatenation up to {}", p.display()), &all);
            all.clear();
        }
    }
    eprintln!("{n} chunked readings");
}
