//! Packages within the memory bound (the book, "Limits and guarantees": twice the file and
//! 50 MB): an EPUB of many parts is read a part at a time, so that its peak is the package and
//! one part, and grows with the package as a document does (measured at two sizes); a zip bomb
//! is refused before it is decompressed past the bound, whatever its header says.
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::{Counting, peak_of};
use common::packages::epub_zip as epub;
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

/// Pseudo-random links (a part that compresses as text does, about 4 to 1).
fn part(i: usize, size: usize) -> Vec<u8> {
    let mut out = String::from("<html><body>\n");
    let mut x = i as u64 * 2_654_435_761 + 1;
    while out.len() < size {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.push_str(&format!(
            "<p><a href=\"https://example.org/{x:x}/{}\">{x}</a></p>\n",
            x % 977
        ));
    }
    out.into_bytes()
}

#[test]
fn packages_stay_within_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let mut failed = Vec::new();
    // 10 parts of 256 KB and of 1 MB: one part held at a time besides the package.
    let mut sizes = Vec::new();
    for (name, part_size) in [("small.epub", 256 << 10), ("large.epub", 1 << 20)] {
        let bytes = epub((0..10).map(|i| (format!("OEBPS/c{i}.xhtml"), part(i, part_size))));
        let (peak, iris, errors) = check_file(dir.path(), name, &bytes);
        eprintln!(
            "{name}: {} MB package of {} MB of parts, peak {} MB, {iris} IRIs",
            bytes.len() >> 20,
            (10 * part_size) >> 20,
            peak >> 20
        );
        assert_eq!(errors, 0);
        assert!(iris > 10 * part_size / 100, "{iris}");
        if peak > 2 * bytes.len() + (50 << 20) {
            failed.push(format!("{name}: peak {} MB", peak >> 20));
        }
        sizes.push((bytes.len(), peak, part_size));
    }
    // Four times the parts: the peak grows with one part (and the package), not with all.
    let (small, large) = (sizes[0], sizes[1]);
    let per_part_byte = (large.1 - small.1) as f64 / (large.2 - small.2) as f64;
    eprintln!("{per_part_byte:.2} bytes at the peak per byte more of a part");
    if per_part_byte > 8.0 {
        failed.push(format!("{per_part_byte:.1} bytes per byte of a part"));
    }
    // A bomb: 200 MB of spaces in one part, a few hundred KB on disk. Refused, and never held.
    let mut spaces = b"<html><body>".to_vec();
    spaces.resize(200 << 20, b' ');
    let bomb = epub([("OEBPS/a.xhtml".to_string(), spaces)]);
    let (peak, _, errors) = check_file(dir.path(), "bomb.epub", &bomb);
    eprintln!("bomb.epub: {} KB, peak {} MB", bomb.len() >> 10, peak >> 20);
    assert_eq!(errors, 1, "refused");
    if peak > 2 * bomb.len() + (50 << 20) {
        failed.push(format!("bomb: peak {} MB", peak >> 20));
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
