//! Memory in proportion to the document: a large HTML page is checked while the tokenizer
//! streams it, each IRI dropped once checked, so the peak stays near the page itself (the
//! book's limit, docs/src/limits.md: at most twice the file plus 50 MB). Before streaming, a page's tokens and
//! IRIs were all held at once: about 15 times the file.
//!
//! Alone in its test binary, so that the process's peak (Linux `VmHWM`) is this test's.

use irilint::check::{CheckOptions, check_source};
use irilint::rules::Selection;
use irilint::source::{Format, Source};

fn peak_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_large_html_page_is_checked_in_memory_near_its_size() {
    let Some(before) = peak_kb() else {
        eprintln!("skipped: no /proc/self/status on this system");
        return;
    };
    const SIZE: usize = 16 << 20;
    let line = |i: usize| {
        format!(
            "<p>Section {i}: see <a href=\"https://example.org/docs/page-{i}.html#part\">the page</a>, \
             <a href=\"https://\u{4F8B}\u{3048}.\u{30C6}\u{30B9}\u{30C8}/{i}\">x</a> and <img src=\"/img/{i}.png\" alt=\"\"></p>\n"
        )
    };
    let mut page = Vec::with_capacity(SIZE + 256);
    let mut lines = 0;
    while page.len() < SIZE {
        page.extend_from_slice(line(lines).as_bytes());
        lines += 1;
    }
    page.extend_from_slice("<a href=\"https://example.org/\u{202E}x\">y</a>\n".as_bytes());
    let size_kb = page.len() as u64 / 1024;
    let source = Source::decode_owned("big.html".into(), Format::Html, page).unwrap();
    let selection = Selection::default();
    let options = CheckOptions::new(&selection);
    let outcome = check_source(&source, &options);
    assert_eq!(outcome.iris, 3 * lines + 1);
    assert_eq!(outcome.diagnostics.len(), 1);
    let grown = peak_kb().unwrap() - before;
    assert!(
        grown <= 2 * size_kb + 50 * 1024,
        "peak grew by {grown} KiB for a {size_kb} KiB page"
    );
}
