//! Edits of the decoded text put back into the file's own bytes.
//!
//! The file is never re-encoded as a whole: decoding and encoding again is not the identity
//! (undecodable bytes became U+FFFD; Shift_JIS has characters with two byte forms). Instead each
//! edited range of the text is located in the bytes, only the replacement is encoded, and every
//! other byte — the BOM, line ends, text the linter could not even decode — is copied as it was.
//! The caller checks the result by decoding it again.

use std::io::Read;
use std::ops::Range;

use encoding_rs::{DecoderResult, EncoderResult, Encoding, UTF_8, UTF_16BE, UTF_16LE};

use crate::source::Source;

/// The byte offset in the file of each text offset in `offsets` (sorted), or `None` when one of
/// them is not on a boundary the decoder reached.
pub fn byte_offsets(bytes: &[u8], source: &Source, offsets: &[usize]) -> Option<Vec<usize>> {
    let mut read = bytes;
    byte_offsets_read(&mut read, bytes.len(), source, offsets).unwrap_or(None)
}

/// How many bytes of a file are read at a time when its bytes are streamed.
const READ_CHUNK: usize = 64 * 1024;

/// Fills `buf` from `read` as far as it goes; how many bytes it got (fewer only at the end).
fn fill(read: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match read.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// [`byte_offsets`] of the `len` bytes `read` gives, streamed in chunks of [`READ_CHUNK`], never
/// held (the decoder's state goes from one chunk to the next: a character cut by a chunk's end
/// is decoded whole); `Ok(None)` as [`byte_offsets`], or when the stream ends early.
pub fn byte_offsets_read(
    read: &mut dyn Read,
    len: usize,
    source: &Source,
    offsets: &[usize],
) -> std::io::Result<Option<Vec<usize>>> {
    byte_offsets_in_chunks(read, len, source, offsets, READ_CHUNK)
}

/// [`byte_offsets_read`], reading `chunk_len` bytes at a time.
fn byte_offsets_in_chunks(
    read: &mut dyn Read,
    len: usize,
    source: &Source,
    offsets: &[usize],
    chunk_len: usize,
) -> std::io::Result<Option<Vec<usize>>> {
    let encoding = source.encoding.used;
    if encoding == UTF_8 {
        return Ok(Some(
            offsets.iter().map(|&t| source.report_offset(t)).collect(),
        ));
    }
    let base = source.encoding.bom_len;
    let mut bom = vec![0; base];
    if len < base || fill(read, &mut bom)? < base {
        return Ok(None);
    }
    let body_len = len - base;
    let mut found: Vec<Option<usize>> = vec![None; offsets.len()];
    let next = std::cell::Cell::new(0);
    // Records that `text_len` bytes of text come from the first `read` bytes of the body; the
    // first time a length is reached is the boundary before the next character's bytes.
    let mut reached = |text_len: usize, read: usize| {
        let mut k = next.get();
        while k < offsets.len() && offsets[k] <= text_len {
            if offsets[k] == text_len && found[k].is_none() {
                found[k] = Some(base + read);
            }
            if offsets[k] < text_len && found[k].is_none() {
                return false;
            }
            k += 1;
        }
        next.set(k);
        true
    };
    if !reached(0, 0) {
        return Ok(None);
    }
    let mut decoder = encoding.new_decoder_without_bom_handling();
    // Only the length of the text is needed. It is decoded into a buffer made once: handed a
    // `String`, `encoding_rs` touches every page of its spare capacity on each call, and there
    // is a call per malformed sequence (quadratic on a file with many).
    let mut chunk = "\0".repeat(16 * 1024);
    let mut buf = vec![0u8; chunk_len.clamp(1, body_len.max(1))];
    // `buf[at..have]` is the body from `i` on, not yet decoded.
    let (mut at, mut have) = (0, 0);
    let mut text_len = 0;
    let mut i = 0;
    while i < body_len {
        if at == have {
            let want = buf.len().min(body_len - i);
            have = fill(read, &mut buf[..want])?;
            at = 0;
            if have == 0 {
                return Ok(None);
            }
        }
        // Far from the next offset, decode many bytes at once (no boundary is skipped while the
        // text cannot reach it); near it, one byte at a time, to see each boundary. Linear in
        // the body, and fast: this runs for every fix tried on a legacy-encoded file.
        let gap = offsets
            .get(next.get())
            .map_or(usize::MAX, |&t| t.saturating_sub(text_len));
        let mut step = (gap / 4).clamp(1, have - at);
        while step > 1
            && decoder
                .max_utf8_buffer_length(step)
                .is_none_or(|most| most >= gap)
        {
            step /= 2;
        }
        let end = i + step;
        let last = end == body_len;
        let mut input = &buf[at..at + step];
        let mut consumed = i;
        loop {
            let (result, n, written) =
                decoder.decode_to_str_without_replacement(input, &mut chunk, last);
            input = &input[n..];
            consumed += n;
            text_len += written;
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::OutputFull => continue,
                DecoderResult::Malformed(_, after) => {
                    text_len += char::REPLACEMENT_CHARACTER.len_utf8();
                    if !reached(text_len, consumed - usize::from(after)) {
                        return Ok(None);
                    }
                }
            }
        }
        at += step;
        i = end;
        if !reached(text_len, i) {
            return Ok(None);
        }
    }
    Ok(found.into_iter().collect())
}

/// `text` in `encoding`, or `None` when a character has no form in it.
pub fn encode(encoding: &'static Encoding, text: &str) -> Option<Vec<u8>> {
    if encoding == UTF_8 {
        return Some(text.as_bytes().to_vec());
    }
    if encoding == UTF_16LE || encoding == UTF_16BE {
        let le = encoding == UTF_16LE;
        return Some(
            text.encode_utf16()
                .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
                .collect(),
        );
    }
    let mut encoder = encoding.new_encoder();
    let mut out = Vec::with_capacity(text.len() * 2 + 8);
    let mut rest = text;
    loop {
        out.reserve(rest.len() * 2 + 8);
        let (result, read) =
            encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
        rest = &rest[read..];
        match result {
            EncoderResult::InputEmpty => return Some(out),
            EncoderResult::OutputFull => continue,
            EncoderResult::Unmappable(_) => return None,
        }
    }
}

/// The file's bytes with the text `edits` (sorted, disjoint ranges of [`Source::text`] and their
/// new text) made, or `None` when they cannot be located or encoded.
pub fn splice(bytes: &[u8], source: &Source, edits: &[(Range<usize>, &str)]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() + 64);
    let key = std::hash::RandomState::new();
    let mut text = crate::fsio::Fingerprint::digest(&key);
    let mut open = || -> std::io::Result<Box<dyn Read + '_>> { Ok(Box::new(bytes)) };
    match splice_to(&mut open, bytes.len(), source, edits, &mut out, &mut text) {
        Ok(true) => Some(out),
        _ => None,
    }
}

/// Where [`splice_to`] reads the file's bytes: each call, a stream of them from the start.
pub type Open<'a> = dyn FnMut() -> std::io::Result<Box<dyn Read + 'a>> + 'a;

/// Writes the file's bytes (the `len` bytes `open` streams) with the text `edits` made to `out`
/// as they are walked, feeding `text` with the text they must decode to; `Ok(false)` when the
/// edits cannot be located or encoded (then what was written is of no use). Neither the fixed
/// document nor the bytes as read are held: in another encoding than UTF-8, they are streamed
/// twice, once to locate the edits, once to copy them. Each stream is read to its end (where
/// one from a file checks that the file still holds what was read).
pub fn splice_to(
    open: &mut Open<'_>,
    len: usize,
    source: &Source,
    edits: &[(Range<usize>, &str)],
    out: &mut dyn std::io::Write,
    text: &mut crate::fsio::Digest,
) -> std::io::Result<bool> {
    let offsets: Vec<usize> = edits.iter().flat_map(|(r, _)| [r.start, r.end]).collect();
    let at = if source.encoding.used == UTF_8 {
        byte_offsets(&[], source, &offsets)
    } else {
        let mut read = open()?;
        let at = byte_offsets_read(&mut *read, len, source, &offsets)?;
        std::io::copy(&mut read, &mut std::io::sink())?;
        at
    };
    let Some(at) = at else {
        return Ok(false);
    };
    let mut read = open()?;
    // Copies the next `n` bytes of the stream to `out` (or past them, without): false when the
    // stream ended before.
    let pass = |read: &mut dyn Read, n: usize, out: Option<&mut dyn std::io::Write>| {
        let mut part = read.take(n as u64);
        let moved = match out {
            Some(out) => std::io::copy(&mut part, out)?,
            None => std::io::copy(&mut part, &mut std::io::sink())?,
        };
        Ok::<bool, std::io::Error>(moved == n as u64)
    };
    let mut copied = 0;
    let mut text_at = 0;
    for (k, (range, replacement)) in edits.iter().enumerate() {
        let (start, end) = (at[2 * k], at[2 * k + 1]);
        if start < copied || end < start || end > len {
            return Ok(false);
        }
        let (Some(kept), Some(encoded)) = (
            source.text.get(text_at..range.start),
            encode(source.encoding.used, replacement),
        ) else {
            return Ok(false);
        };
        if !pass(&mut *read, start - copied, Some(&mut *out))?
            || !pass(&mut *read, end - start, None)?
        {
            return Ok(false);
        }
        out.write_all(&encoded)?;
        text.write(kept.as_bytes());
        text.write(replacement.as_bytes());
        copied = end;
        text_at = range.end;
    }
    let Some(rest) = source.text.get(text_at..) else {
        return Ok(false);
    };
    if !pass(&mut *read, len - copied, Some(&mut *out))? {
        return Ok(false);
    }
    std::io::copy(&mut read, &mut std::io::sink())?;
    text.write(rest.as_bytes());
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Format;
    use encoding_rs::{SHIFT_JIS, WINDOWS_1252};

    fn html(bytes: &[u8]) -> Source {
        Source::decode("t.html".into(), Format::Html, bytes).unwrap()
    }

    #[test]
    fn shift_jis_offsets_land_between_characters() {
        let mut bytes = b"<meta charset=shift_jis><a href=\"/".to_vec();
        bytes.extend(SHIFT_JIS.encode("日本").0.iter());
        bytes.extend(b"\">");
        let s = html(&bytes);
        let at = s.text.find('本').unwrap();
        let b = byte_offsets(&bytes, &s, &[at, at + 3]).unwrap();
        assert_eq!(b, [36, 38]);
        let new = splice(&bytes, &s, &[(at..at + 3, "語")]).unwrap();
        assert_eq!(SHIFT_JIS.decode(&new).0, s.text.replace('本', "語"));
    }

    #[test]
    fn streamed_in_chunks_a_character_cut_by_a_chunks_end_is_decoded_whole() {
        use encoding_rs::{EUC_JP, UTF_16LE};
        // Two-byte characters, malformed sequences, a surrogate pair and a lone surrogate:
        // every chunk length puts a chunk's end inside some of them.
        let mut sjis = b"<meta charset=shift_jis><a href=\"/".to_vec();
        sjis.extend(SHIFT_JIS.encode("日本語").0.iter());
        sjis.extend(b"\x81\xFFx\xA0\">");
        sjis.extend(SHIFT_JIS.encode("漢字a").0.iter());
        let mut euc = b"<meta charset=euc-jp>".to_vec();
        euc.extend(EUC_JP.encode("日本x語\u{FF71}").0.iter());
        euc.extend(b"\x8F\xA1z");
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "a\u{1F600}b\u{202E}c"
                    .encode_utf16()
                    .chain([0xD800, 0x61])
                    .flat_map(u16::to_le_bytes),
            )
            .chain([0x62])
            .collect();
        for (bytes, format) in [
            (sjis, Format::Html),
            (euc, Format::Html),
            (utf16, Format::Text),
        ] {
            let s = Source::decode("t".into(), format, &bytes).unwrap();
            assert!(
                s.encoding.used == SHIFT_JIS
                    || s.encoding.used == EUC_JP
                    || s.encoding.used == UTF_16LE
            );
            // Every boundary between characters of the text, and each offset alone.
            let all: Vec<usize> = (0..=s.text.len())
                .filter(|&t| s.text.is_char_boundary(t))
                .collect();
            let whole = byte_offsets(&bytes, &s, &all).expect("every boundary is reached");
            // The reference, found without the decoder this module drives: the first byte
            // offset where the bytes on each side decode, alone, to the text on each side.
            let enc = s.encoding.used;
            let bom = s.encoding.bom_len;
            let decoded = |b: &[u8]| enc.decode_without_bom_handling(b).0.into_owned();
            let reference: Vec<usize> = all
                .iter()
                .map(|&t| {
                    (bom..=bytes.len())
                        .find(|&b| {
                            decoded(&bytes[bom..b]) == s.text[..t]
                                && decoded(&bytes[b..]) == s.text[t..]
                        })
                        .expect("a split of the bytes gives the split of the text")
                })
                .collect();
            assert_eq!(whole, reference, "{:?}", s.encoding.used);
            for chunk_len in 1..=9 {
                let got = byte_offsets_in_chunks(&mut &bytes[..], bytes.len(), &s, &all, chunk_len)
                    .unwrap();
                assert_eq!(got.as_ref(), Some(&whole), "chunks of {chunk_len}");
                for (k, &t) in all.iter().enumerate() {
                    let one =
                        byte_offsets_in_chunks(&mut &bytes[..], bytes.len(), &s, &[t], chunk_len)
                            .unwrap();
                    assert_eq!(
                        one,
                        Some(vec![whole[k]]),
                        "chunks of {chunk_len}, offset {t}"
                    );
                }
            }
            // A stream shorter than announced locates nothing.
            let short = &bytes[..bytes.len() - 1];
            assert_eq!(
                byte_offsets_in_chunks(&mut &short[..], bytes.len(), &s, &[s.text.len()], 4)
                    .unwrap(),
                None
            );
        }
    }

    #[test]
    fn utf16_keeps_its_bom_and_byte_order() {
        let bytes: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("a\u{202E}b".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        let s = Source::decode("t.txt".into(), Format::Text, &bytes).unwrap();
        let new = splice(&bytes, &s, &[(1..4, "")]).unwrap();
        assert_eq!(new, [0xFE, 0xFF, 0, b'a', 0, b'b']);
    }

    #[test]
    fn undecodable_bytes_outside_the_edit_are_kept() {
        let bytes = b"\x81x\xE9y";
        let s = Source::decode("t.html".into(), Format::Html, bytes).unwrap();
        assert_eq!(s.encoding.used, WINDOWS_1252);
        let at = s.text.find('y').unwrap();
        let new = splice(bytes, &s, &[(at..at + 1, "z")]).unwrap();
        assert_eq!(new, b"\x81x\xE9z");
        assert_eq!(encode(WINDOWS_1252, "日"), None);
    }
}
