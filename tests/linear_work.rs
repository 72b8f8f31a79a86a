//! Work in proportion to the input, asserted as counts rather than times: each test does the
//! same thing at a size N and at 4N and requires about 4 times the work (at most 5), where a
//! quadratic cost would show as 16. The counts are [`irilint::work`]'s, each a model of one cost
//! named there. The README's "Limits and guarantees" names each test.

use irilint::rules::{self, Selection};
use irilint::source::{Format, Source};
use irilint::work::{Work, measure};

/// `work(4n) <= 5 * work(n)`, with both counts in the message.
fn assert_linear(what: &str, at_n: u64, at_4n: u64) {
    assert!(
        at_4n <= 5 * at_n.max(1),
        "{what}: {at_n} at N, {at_4n} at 4N (linear would be about {})",
        4 * at_n
    );
}

/// French and German prose in Latin-1, as a file saved in a legacy editor: an accented letter
/// every few bytes, each one a malformed sequence in UTF-8. The paragraph, `times` times.
fn latin1_prose(times: usize) -> Vec<u8> {
    let prose = "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au delà \
                 des îles, près du mälström où brûlent les novæ. Zwölf Boxkämpfer jagen Viktor \
                 quer über den großen Sylter Deich; falsches Üben von Xylophonmusik quält.\n";
    let bytes: Vec<u8> = prose
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect();
    bytes.repeat(times)
}

#[test]
fn decoding_is_one_pass_however_many_malformed_sequences() {
    const N: usize = 1000;
    for format in [Format::Text, Format::Markdown, Format::Xml] {
        let decode = |times: usize| {
            let bytes = latin1_prose(times);
            measure(Work::DecodeBuffer, || {
                Source::decode("prose".into(), format, &bytes).expect("text")
            })
        };
        let (small, at_n) = decode(N);
        let (large, at_4n) = decode(4 * N);
        // Thousands of malformed sequences, four times as many in the larger file.
        assert!(small.encoding.invalid.len() >= 20 * N, "{format:?}");
        assert_eq!(
            large.encoding.invalid.len(),
            4 * small.encoding.invalid.len(),
            "{format:?}"
        );
        assert_linear(&format!("decoding {format:?}"), at_n, at_4n);
        // And the buffer is not the text's size over again for each sequence.
        assert!(at_4n <= large.text.len() as u64, "{format:?}: {at_4n}");
    }
}
