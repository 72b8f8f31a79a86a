//! Text in a legacy encoding read as UTF-8: every malformed sequence is kept (for the report's
//! offsets and to read the bytes back), 24 bytes each and nothing on the heap. Latin-1 prose has
//! one every few bytes: 13 MB of it took 147 MB (56 bytes and an allocation each), over the
//! bound of twice the file and 50 MB; now 66 MB (the book, "Limits and guarantees"). Still
//! about 5 bytes per byte of such a file: past about 20 MB it is over the bound.
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::{Counting, cost_of};
use common::run::check_bytes_and_report;
use irilint::source::Format;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// French and German prose in Latin-1, about `size` bytes: an accented letter every few bytes,
/// each one a malformed sequence in UTF-8, and a link now and then.
fn latin1_prose(size: usize) -> Vec<u8> {
    let prose = "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au delà \
                 des îles, près du mälström où brûlent les novæ: http://exemple.fr/été. Zwölf \
                 Boxkämpfer jagen Viktor quer über den großen Sylter Deich; Xylophonmusik quält.\n\n";
    let line: Vec<u8> = prose
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect();
    line.repeat(size / line.len())
}

#[test]
fn malformed_sequences_cost_a_few_bytes_each() {
    let mut failed = Vec::new();
    // Bytes more at the peak per byte more of the file, measured with some room: the text
    // (each accented letter 3 bytes for 1), a malformed sequence every 10 bytes (24 bytes each,
    // twice that while its list grows), and for Markdown the parser's tree. Before: 9.2, and
    // 11.7 for Markdown.
    for (name, format, most) in [
        ("prose.txt", Format::Text, 6.0),
        ("prose.md", Format::Markdown, 9.0),
        ("prose.rst", Format::Rst, 6.0),
        ("prose.adoc", Format::Asciidoc, 6.0),
    ] {
        let (small, large) = (latin1_prose(1 << 20), latin1_prose(4 << 20));
        let ((small_peak, _), _) = cost_of(|| check_bytes_and_report(name, format, &small));
        let ((peak, _), file) = cost_of(|| check_bytes_and_report(name, format, &large));
        assert!(file.iris > 1000, "{name}: {} IRIs", file.iris);
        if peak > 2 * large.len() + (40 << 20) {
            failed.push(format!(
                "{name}: peak {} MB for a {} MB file",
                peak >> 20,
                large.len() >> 20
            ));
        }
        let per_byte = (peak - small_peak) as f64 / (large.len() - small.len()) as f64;
        if per_byte > most {
            failed.push(format!(
                "{name}: {per_byte:.1} bytes more at the peak per byte more of the file"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
