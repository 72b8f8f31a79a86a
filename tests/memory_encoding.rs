//! Text in a legacy encoding read as UTF-8: every malformed sequence becomes U+FFFD in the text
//! and is kept, for the report's offsets (and in a legacy encoding to read UTF-8 pasted into it
//! back). Latin-1 prose has one every ten bytes: 13 MB of it took 147 MB (56 bytes and an
//! allocation each), then 66 MB (24 bytes each, the file held beside the text as it was made,
//! and both grown by doubling): about 5 bytes per byte, over the bound of twice the file and
//! 50 MB past 20 MB. Now the text is decoded over the file's own buffer, made at its size by a
//! first pass, and a sequence takes a byte or so (the book, "Limits and guarantees").
//!
//! Alone in its test binary: the allocator counts the whole process, so one test drives every
//! case, one after another.

mod common;

use common::counting::Counting;
use common::run::{check_growth, check_growth_of_text};
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

/// About `size` bytes of which half are malformed in UTF-8 (lone bytes, truncated sequences),
/// between words and links: no text, but what an attacker can send.
fn garbage(size: usize) -> Vec<u8> {
    let piece: &[u8] = b"a\xFF\xE2\x80 http://a.org/\xC3x \xFE\xFF\xF0\x9F\x98 b\xE9\n";
    piece.repeat(size / piece.len())
}

#[test]
fn malformed_sequences_cost_a_few_bytes_each() {
    let mut failed = Vec::new();
    // Bytes more at the peak per byte more of the file, measured with some room. The file's
    // bytes count, handed over as a run hands them over; the text is made over them (each
    // accented letter 3 bytes for 1), a sequence takes a byte or two, and Markdown adds its
    // parser's tree. Before: 5.2 for the prose as text, 7.6 as Markdown; 9.0 for the garbage.
    for (name, format, make, most) in [
        (
            "prose.txt",
            Format::Text,
            latin1_prose as fn(usize) -> Vec<u8>,
            2.0,
        ),
        ("prose.md", Format::Markdown, latin1_prose, 4.5),
        ("prose.rst", Format::Rst, latin1_prose, 2.0),
        ("prose.adoc", Format::Asciidoc, latin1_prose, 2.0),
        ("garbage.txt", Format::Text, garbage, 3.5),
    ] {
        let file = check_growth(
            name,
            format,
            (make(1 << 20), make(4 << 20)),
            most,
            &mut failed,
        );
        assert!(file.iris > 1000, "{name}: {} IRIs", file.iris);
    }
    a_file_in_another_encoding_takes_twice_its_text(&mut failed);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// A file's text can be three times the file: a byte of windows-1252 can be a character of
/// three bytes in UTF-8 (`“`), and a byte that is no UTF-8 becomes U+FFFD's three. The bound is
/// twice the text and the constant (for UTF-8, where the text is the file, twice the file): the
/// text is made over the file's buffer, grown by what the text runs ahead of it, and each
/// undecodable sequence is kept in about a byte and a half.
fn a_file_in_another_encoding_takes_twice_its_text(failed: &mut Vec<String>) {
    // Three of its bytes each become three.
    const QUOTED: &[u8] = b"\x93a\x94 http://a.org/\x85\n";
    let quotes = |size: usize| -> Vec<u8> {
        let mut page = b"<meta charset=\"windows-1252\">\n".to_vec();
        page.extend(QUOTED.repeat(size / QUOTED.len()));
        page
    };
    let undecodable = |size: usize| vec![0xFF_u8; size];
    for (name, format, make, text_per_byte) in [
        (
            "quotes.html",
            Format::Html,
            &quotes as &dyn Fn(usize) -> Vec<u8>,
            (QUOTED.len() + 6) as f64 / QUOTED.len() as f64,
        ),
        ("undecodable.txt", Format::Text, &undecodable, 3.0),
    ] {
        let sizes = (make(1 << 20), make(4 << 20));
        let most = 2.0 * text_per_byte;
        check_growth_of_text(name, format, sizes, text_per_byte, most, failed);
    }
}
