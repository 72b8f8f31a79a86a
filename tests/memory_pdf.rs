//! PDFs within the memory bound (the book, "Limits and guarantees": twice the file and 50 MB):
//! a PDF of many links is read a link at a time, its peak growing by less than 2 KB a link
//! (measured at two sizes), and one packed denser than that is refused past that count; a
//! flate bomb in an object stream is refused before it is
//! decoded past the bound.
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::{Counting, peak_of};
use common::pdf::{link, page, page_tree, pdf_with_streams, uri};
use common::run::run_file;
use irilint::rules::Selection;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Checks `bytes` as a file named `name`: (peak live bytes, IRIs, errors of the run).
fn check_file(dir: &std::path::Path, name: &str, bytes: &[u8]) -> (usize, usize, usize) {
    let selection = Selection::default();
    let (peak, run) = peak_of(|| run_file(dir, name, bytes, &selection));
    let iris = run.files.iter().map(|f| f.iris).sum();
    (peak, iris, run.errors.len())
}

/// A PDF of `n` pages, each with one link, the annotations in one object stream and the
/// pages written out: the shape of a long document.
fn many_links(n: u32) -> Vec<u8> {
    let mut objects = page_tree(n);
    for i in 0..n {
        objects.push((3 + i, page(&format!("[{} 0 R]", 3 + n + i))));
    }
    let inner: Vec<(u32, Vec<u8>)> = (0..n)
        .map(|i| {
            let iri = format!(
                "https://example.org/{:x}/{}",
                u64::from(i) * 2_654_435_761,
                i % 977
            );
            (3 + n + i, link(&uri(&iri)))
        })
        .collect();
    pdf_with_streams(&objects, &[(3 + 2 * n, inner)], "")
}

#[test]
fn pdfs_stay_within_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let mut failed = Vec::new();
    let mut sizes = Vec::new();
    for (name, n) in [("small.pdf", 5_000), ("large.pdf", 20_000)] {
        let bytes = many_links(n);
        let (peak, iris, errors) = check_file(dir.path(), name, &bytes);
        eprintln!(
            "{name}: {} KB, {n} links, peak {} MB, {iris} IRIs",
            bytes.len() >> 10,
            peak >> 20
        );
        assert_eq!(errors, 0);
        assert_eq!(iris, n as usize);
        if peak > 2 * bytes.len() + (50 << 20) {
            failed.push(format!("{name}: peak {} MB", peak >> 20));
        }
        sizes.push((bytes.len(), peak));
    }
    // Four times the links: the peak grows with the links, each checked as a document (this
    // shape is all links: a real PDF's pages hold far more than their links).
    let (small, large) = (sizes[0], sizes[1]);
    let per_link = (large.1 as f64 - small.1 as f64) / 15_000.0;
    eprintln!("{per_link:.0} bytes at the peak per link more");
    if per_link > 2048.0 {
        failed.push(format!("{per_link:.0} bytes per link"));
    }
    // Links packed denser than one per 2 KB of the file and 50 MB are refused past that count,
    // within the bound: 80,000 links of a few bytes each in an object stream.
    let dense = many_links(80_000);
    let (peak, iris, errors) = check_file(dir.path(), "dense.pdf", &dense);
    eprintln!(
        "dense.pdf: {} KB, peak {} MB, {iris} IRIs",
        dense.len() >> 10,
        peak >> 20
    );
    assert_eq!(errors, 1, "refused");
    assert!(iris > 20_000, "the links before the bound are read: {iris}");
    if peak > 2 * dense.len() + (50 << 20) {
        failed.push(format!("dense: peak {} MB", peak >> 20));
    }
    // A bomb: an object stream of 512 MB of spaces after its one object, a few hundred KB on
    // disk. Refused, and never held.
    let mut inner = link(&uri("https://example.org/"));
    inner.resize(512 << 20, b' ');
    let mut objects = page_tree(1);
    objects.push((3, page("[4 0 R]")));
    let bomb = pdf_with_streams(&objects, &[(10, vec![(4, inner)])], "");
    let (peak, _, errors) = check_file(dir.path(), "bomb.pdf", &bomb);
    eprintln!("bomb.pdf: {} KB, peak {} MB", bomb.len() >> 10, peak >> 20);
    assert_eq!(errors, 1, "refused");
    if peak > 2 * bomb.len() + (50 << 20) {
        failed.push(format!("bomb: peak {} MB", peak >> 20));
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
