//! A document as the linter sees it: its decoded text, its format, and the facts about how its
//! bytes were decoded (BOM, encoding used, undecodable byte ranges) that encoding rules need.

use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;

mod declarations;
mod undecodable;

pub use undecodable::{InvalidSequence, Undecodable};

use encoding_rs::{DecoderResult, Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

use crate::line_index::LineIndex;
use crate::sniff::{self, DeclarationKind, FoundLabel};

/// The document formats irilint extracts IRIs from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Plain text: IRIs are found by scheme or `www.` (see [`crate::extract::text`]).
    Text,
    /// HTML: URL-valued attributes (see [`crate::extract::html`]).
    Html,
    /// XML and its dialects: namespaces, `xml:base`, XLink, known IRI attributes and elements.
    Xml,
    /// Markdown (CommonMark + GFM): links, images, definitions, autolinks, bare URLs, HTML.
    Markdown,
    /// reStructuredText: references, targets, images, standalone IRIs
    /// (see [`crate::extract::rst`]).
    Rst,
    /// AsciiDoc: URL, `link:` and `image:` macros, bare IRIs (see [`crate::extract::asciidoc`]).
    Asciidoc,
    /// An EPUB package: its XHTML/HTML content documents, package (OPF) and navigation
    /// documents, each read as its own format (see [`crate::extract::package`]).
    Epub,
    /// An OpenDocument package (`.odt`, `.odp`, `.ods`): its `content.xml` and `styles.xml`,
    /// read as XML (links are `text:a` and `draw:a` with `xlink:href`).
    OpenDocument,
    /// An Office Open XML package (`.docx`, `.pptx`, `.xlsx`): its external hyperlink
    /// relationships (`*.rels`, read as XML) and the text of its document parts (field codes
    /// `HYPERLINK "…"`, IRIs written as text: [`crate::extract::ooxml`]). A document part read
    /// from a package has this format too.
    Ooxml,
    /// A PDF file: the actions behind its link annotations (see [`crate::extract::pdf`]). Each
    /// action read from it is a document of this format whose text is the action's IRI, file
    /// or script ([`Source::pdf_action`]).
    Pdf,
}

/// What a PDF link does when it is clicked ([`Source::pdf_action`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PdfAction {
    /// Opens the IRI (`/S /URI`).
    Uri,
    /// Opens a file or runs a program (`/S /Launch`); the text is its file specification.
    Launch,
    /// Runs JavaScript (`/S /JavaScript`); the text is the script.
    JavaScript,
}

impl PdfAction {
    /// The action's name in PDF.
    pub fn name(self) -> &'static str {
        match self {
            PdfAction::Uri => "URI",
            PdfAction::Launch => "Launch",
            PdfAction::JavaScript => "JavaScript",
        }
    }
}

impl Format {
    /// Every format, in the order `--input-format` lists them.
    pub const ALL: [Format; 6] = [
        Format::Text,
        Format::Html,
        Format::Xml,
        Format::Markdown,
        Format::Rst,
        Format::Asciidoc,
    ];

    /// The packages: files whose parts are read, each as one of the document formats of
    /// [`Format::ALL`]; never decoded as text themselves.
    pub const PACKAGES: [Format; 4] = [
        Format::Epub,
        Format::OpenDocument,
        Format::Ooxml,
        Format::Pdf,
    ];

    /// Whether this is a package ([`Format::PACKAGES`]).
    pub fn is_package(self) -> bool {
        Format::PACKAGES.contains(&self)
    }

    /// Every format name, documents then packages, for messages that list them.
    pub fn names() -> Vec<&'static str> {
        Format::ALL
            .iter()
            .chain(&Format::PACKAGES)
            .map(|f| f.name())
            .collect()
    }

    /// The format's name on the command line and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Html => "html",
            Format::Xml => "xml",
            Format::Markdown => "markdown",
            Format::Rst => "rst",
            Format::Asciidoc => "asciidoc",
            Format::Epub => "epub",
            Format::OpenDocument => "opendocument",
            Format::Ooxml => "ooxml",
            Format::Pdf => "pdf",
        }
    }

    /// The format for a name given on the command line.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .chain(Format::PACKAGES)
            .find(|f| f.name() == name)
    }

    /// The format a file's extension implies, if irilint knows it. `.xhtml` is HTML here;
    /// [`Format::for_file`] reads it as XML when it starts with an XML declaration.
    pub fn from_path(path: &Path) -> Option<Format> {
        // Lowered into a buffer on the stack, not a new string: every file walked asks. No
        // extension known is longer than the buffer.
        let ext = path.extension()?.as_encoded_bytes();
        let mut lower = [0u8; 8];
        lower.get_mut(..ext.len())?.copy_from_slice(ext);
        lower.make_ascii_lowercase();
        let ext = std::str::from_utf8(&lower[..ext.len()]).ok()?;
        Some(match ext {
            "txt" | "text" => Format::Text,
            "html" | "htm" | "shtml" | "xhtml" => Format::Html,
            "xml" | "svg" | "atom" | "rss" | "rdf" | "owl" | "xsd" | "xsl" | "xslt" | "page"
            | "docbook" | "opf" | "xlf" | "xliff" => Format::Xml,
            "md" | "markdown" | "mdx" => Format::Markdown,
            "rst" | "rest" => Format::Rst,
            // Not `.asc`: it is as often an ASCII-armored PGP key or signature.
            "adoc" | "asciidoc" => Format::Asciidoc,
            "epub" => Format::Epub,
            "odt" | "odp" | "ods" | "odg" => Format::OpenDocument,
            "docx" | "docm" | "dotx" | "pptx" | "pptm" | "ppsx" | "xlsx" | "xlsm" => Format::Ooxml,
            "pdf" => Format::Pdf,
            _ => return None,
        })
    }

    /// The format of a file from its extension and, for `.xhtml`, its first bytes.
    pub fn for_file(path: &Path, bytes: &[u8]) -> Option<Format> {
        let format = Format::from_path(path)?;
        let is_xhtml = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("xhtml"));
        if is_xhtml && looks_like_xml(bytes) {
            return Some(Format::Xml);
        }
        Some(format)
    }
}

/// Starts with an XML declaration (after a BOM), in UTF-8 or UTF-16.
fn looks_like_xml(bytes: &[u8]) -> bool {
    let body = match Encoding::for_bom(bytes) {
        Some((_, len)) => &bytes[len..],
        None => bytes,
    };
    body.starts_with(b"<?xml") || body.starts_with(b"<\0?\0x\0") || body.starts_with(b"\0<\0?\0x")
}

/// A charset declared inside the document (XML declaration, `<meta charset>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    /// The label as written (`ISO-8859-1`).
    pub label: String,
    /// The encoding the label names (WHATWG Encoding labels), `None` for an unknown label.
    pub encoding: Option<&'static Encoding>,
    /// Where the label is in [`Source::text`].
    pub range: Range<usize>,
    /// What declares it.
    pub kind: DeclarationKind,
    /// For a `<meta>` of an HTML document: whether the WHATWG prescan sees it (it is in the first
    /// 1024 bytes). Always true for an XML declaration, and for any `<meta>` of an XML document.
    pub prescanned: bool,
}

/// How the document's bytes became text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodingFacts {
    /// The encoding a byte order mark announced, if the file starts with one.
    pub bom: Option<&'static Encoding>,
    /// Length of that BOM in bytes (0 without one); it is not part of the text.
    pub bom_len: usize,
    /// Every charset declaration in the document, in document order.
    pub declarations: Vec<Declaration>,
    /// The index in `declarations` of the one that decides the decoding when there is no BOM:
    /// the XML declaration, or the first `<meta>` of the HTML prescan, whose label names an
    /// encoding the document can be read in. See [`EncodingFacts::deciding`].
    pub decides: Option<usize>,
    /// What the bytes themselves suggest, declarations aside: UTF-8 when they are valid UTF-8
    /// with non-ASCII characters, windows-1252 when they are not valid UTF-8, `None` for ASCII.
    pub detected: Option<&'static Encoding>,
    /// The encoding the bytes were decoded with.
    pub used: &'static Encoding,
    /// Byte sequences that were not valid in `used`, in file order.
    pub invalid: Undecodable,
}

/// UTF-16, either byte order.
pub fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == UTF_16LE || encoding == UTF_16BE
}

impl EncodingFacts {
    /// The declaration that decides the decoding when there is no BOM.
    pub fn deciding(&self) -> Option<&Declaration> {
        self.decides.map(|k| &self.declarations[k])
    }
}

/// One document, decoded.
#[derive(Debug)]
pub struct Source {
    /// The path as shown in reports (`-` or `--stdin-filename` for standard input).
    pub path: String,
    /// The format IRIs are extracted with.
    pub format: Format,
    /// The decoded text, without the BOM. Every offset the linter computes indexes into this.
    pub text: String,
    /// How the text was decoded.
    pub encoding: EncodingFacts,
    /// Line starts, indexed the first time a position is asked for (most documents have no
    /// finding, and then no line is ever counted).
    lines: OnceLock<LineIndex>,
    /// For a relationship part of an Office document, the text a reader sees for each external
    /// target, by the target as prepared: the runs that reference it, in another part
    /// (`link-text-mismatch` compares them); for an OpenDocument part, the texts its own links
    /// show. Every text a target is shown with, in document order. `None` for every other
    /// document.
    pub shown_texts: Option<std::sync::Arc<std::collections::HashMap<String, Vec<String>>>>,
    /// The kind of package the document is a part of, if it is one.
    pub package: Option<Format>,
    /// For an action read from a PDF link ([`Format::Pdf`]), what it does; `None` for every
    /// other document.
    pub pdf_action: Option<PdfAction>,
}

/// Why a file was not decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotText {
    /// A NUL byte in the first 8 KiB and no UTF-16 BOM: treated as binary and skipped.
    Binary {
        /// Offset of the first NUL byte.
        nul_at: usize,
    },
}

/// How far into a file to look for a NUL byte (as git and ripgrep do).
pub const BINARY_SNIFF_LEN: usize = 8 * 1024;

/// Where the first NUL byte of the first [`BINARY_SNIFF_LEN`] bytes is, when `bytes` has no
/// BOM: such a file is binary.
pub fn binary_at(bytes: &[u8]) -> Option<usize> {
    if Encoding::for_bom(bytes).is_some() {
        return None;
    }
    // memchr, not a byte loop: every file read pays for this scan.
    memchr::memchr(0, &bytes[..bytes.len().min(BINARY_SNIFF_LEN)])
}

/// What [`Source::decode_aside`] hands the bytes that do not become the text as they are.
pub type Aside<'a> = dyn FnMut(&[u8]) + 'a;

impl Source {
    /// Decodes `bytes` as `format` prescribes: a BOM first; then for HTML the first `<meta>` of
    /// the prescan whose label names an encoding and, without one, UTF-8 if the bytes are valid
    /// UTF-8, else windows-1252; for XML the declaration's `encoding`, else UTF-8; for text and
    /// Markdown, UTF-8. A UTF-16 label read from ASCII-compatible bytes means UTF-8, and labels
    /// of WHATWG's `replacement` encoding are ignored. Every declaration is recorded, where it
    /// is; undecodable sequences become U+FFFD and are recorded; nothing panics on any input.
    pub fn decode(path: String, format: Format, bytes: &[u8]) -> Result<Source, NotText> {
        Source::decode_cow(path, format, Cow::Borrowed(bytes))
    }

    /// [`Source::decode`] of bytes it may keep: a UTF-8 file without BOM becomes the text
    /// without a copy, so that a large file is not held twice.
    pub fn decode_owned(path: String, format: Format, bytes: Vec<u8>) -> Result<Source, NotText> {
        Source::decode_cow(path, format, Cow::Owned(bytes))
    }

    /// [`Source::decode_owned`] for `--fix`, which writes its fixes into the bytes as read:
    /// `aside` is handed the bytes first when they do not become the text as they are (another
    /// encoding, a BOM, an undecodable sequence), to take what it needs of them (a digest, a
    /// copy in a file) before they are decoded in place. The bytes are never held beside the
    /// text: a file would be held twice.
    pub fn decode_aside(
        path: String,
        format: Format,
        bytes: Vec<u8>,
        aside: &mut dyn FnMut(&[u8]),
    ) -> Result<Source, NotText> {
        Source::decode_cow_keeping(path, format, Cow::Owned(bytes), Some(aside))
    }

    fn decode_cow(path: String, format: Format, bytes: Cow<'_, [u8]>) -> Result<Source, NotText> {
        Source::decode_cow_keeping(path, format, bytes, None)
    }

    /// Decodes `bytes`; `aside` is handed the bytes that do not become the text as they are,
    /// before they are decoded.
    fn decode_cow_keeping(
        path: String,
        format: Format,
        bytes: Cow<'_, [u8]>,
        aside: Option<&mut Aside<'_>>,
    ) -> Result<Source, NotText> {
        let (bom, bom_len) = match Encoding::for_bom(&bytes) {
            Some((enc, len)) => (Some(enc), len),
            None => (None, 0),
        };
        if let Some(nul_at) = binary_at(&bytes) {
            return Err(NotText::Binary { nul_at });
        }
        // Owned bytes without a BOM are validated as UTF-8 once, here, and become the text
        // without a copy when that is the encoding used.
        let mut valid: Option<String> = None;
        let bytes = match bytes {
            Cow::Owned(owned) if bom_len == 0 => match String::from_utf8(owned) {
                Ok(text) => {
                    valid = Some(text);
                    Cow::Owned(Vec::new())
                }
                Err(e) => Cow::Owned(e.into_bytes()),
            },
            borrowed => borrowed,
        };
        let body: &[u8] = match &valid {
            Some(text) => text.as_bytes(),
            None => &bytes[bom_len..],
        };
        let ascii_compatible = bom.is_none_or(|b| b == UTF_8);
        let found: Vec<FoundLabel> = match format {
            Format::Html if ascii_compatible => sniff::html_prescan(body),
            Format::Xml if ascii_compatible => {
                sniff::xml_declared_encoding(body).into_iter().collect()
            }
            _ => Vec::new(),
        };
        let detected = match &valid {
            Some(text) if text.is_ascii() => None,
            Some(_) => Some(UTF_8),
            None => detect(body),
        };
        // The first label that names an encoding decides (WHATWG prescan: an unknown label is
        // skipped); `replacement` (ISO-2022-KR and the like) would turn the whole document into
        // one U+FFFD, which leaves nothing to check, so it is treated as unknown.
        let governing = found
            .iter()
            .position(|f| declarations::usable(Encoding::for_label(f.label.as_bytes())).is_some());
        let declared_encoding = governing
            .and_then(|i| Encoding::for_label(found[i].label.as_bytes()))
            .map(|e| match e {
                // A document cannot be UTF-16 by a declaration readable as ASCII (WHATWG
                // prescan; XML 1.0 Appendix F): the bytes are ASCII-compatible.
                _ if is_utf16(e) => UTF_8,
                _ if format == Format::Html && e == encoding_rs::X_USER_DEFINED => WINDOWS_1252,
                _ => e,
            });
        let used = bom.or(declared_encoding).unwrap_or(match format {
            Format::Html if detected == Some(WINDOWS_1252) => WINDOWS_1252,
            _ => UTF_8,
        });
        let in_bytes =
            ascii_compatible.then(|| declarations::in_bytes(format, used, body, &found, governing));
        let (text, invalid) = match valid {
            // The common case, without a copy or a second validation: valid UTF-8, no BOM.
            Some(text) if used == UTF_8 => (text, Undecodable::default()),
            Some(text) => {
                if let Some(aside) = aside {
                    aside(text.as_bytes());
                }
                decode_in_place(used, text.into_bytes(), 0)
            }
            None => {
                if let Some(aside) = aside {
                    aside(&bytes);
                }
                decode_in_place(used, bytes.into_owned(), bom_len)
            }
        };
        let (declarations, decides) = match in_bytes {
            Some(found) => found,
            None => declarations::in_text(format, &text),
        };
        Ok(Source {
            path,
            format,
            lines: OnceLock::new(),
            shown_texts: None,
            package: None,
            pdf_action: None,
            text,
            encoding: EncodingFacts {
                bom,
                bom_len,
                declarations,
                decides,
                detected,
                used,
                invalid,
            },
        })
    }

    /// The line starts of [`Source::text`].
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    /// A document that is already text (an IRI given on the command line), as UTF-8 without BOM.
    pub fn from_text(path: String, format: Format, text: String) -> Source {
        Source {
            path,
            format,
            lines: OnceLock::new(),
            shown_texts: None,
            package: None,
            pdf_action: None,
            text,
            encoding: EncodingFacts {
                bom: None,
                bom_len: 0,
                decides: None,
                declarations: Vec::new(),
                detected: None,
                used: UTF_8,
                invalid: Undecodable::default(),
            },
        }
    }

    /// The offset reported to users for a text offset: for UTF-8 documents the byte offset in
    /// the file (BOM and undecodable bytes accounted for); for other encodings the offset in the
    /// text as decoded to UTF-8.
    pub fn report_offset(&self, text_offset: usize) -> usize {
        if self.encoding.used != UTF_8 {
            return text_offset;
        }
        // After an undecodable sequence, the text and the file go on alike from its U+FFFD's
        // end and its bytes' end.
        match self.encoding.invalid.last_before(text_offset) {
            Some(s) => s.bytes().end + text_offset.saturating_sub(s.in_text().end),
            None => text_offset + self.encoding.bom_len,
        }
    }
}

/// What the bytes suggest without any declaration (see [`EncodingFacts::detected`]).
fn detect(body: &[u8]) -> Option<&'static Encoding> {
    if body.is_ascii() {
        None
    } else if std::str::from_utf8(body).is_ok() {
        Some(UTF_8)
    } else {
        Some(WINDOWS_1252)
    }
}

/// Output space handed to the decoder at a time. `encoding_rs` touches every page of a
/// `String`'s spare capacity on each call it is handed (one call per malformed sequence), so
/// decoding into the text itself made a file with a bad byte every few bytes quadratic; this
/// buffer is made once, and each call's output is appended to the text.
const DECODE_CHUNK: usize = 16 * 1024;

/// What a first pass over a body learns for [`decode_in_place`]: the text's length, how far
/// its output ever runs ahead of its input, and the room its undecodable sequences take.
struct Measured {
    text_len: usize,
    ahead: usize,
    sequences: usize,
    entry_bytes: usize,
}

/// The calls [`decode_in_place`] makes, over `body`, without keeping their output.
fn measure(encoding: &'static Encoding, body: &[u8], chunk: &mut str) -> Measured {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let same_gaps = encoding == UTF_8;
    let mut m = Measured {
        text_len: 0,
        ahead: 0,
        sequences: 0,
        entry_bytes: 0,
    };
    let (mut read, mut ends) = (0, (0, 0));
    loop {
        let (result, n, written) =
            decoder.decode_to_str_without_replacement(&body[read..], chunk, true);
        read += n;
        m.text_len += written;
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad, after) => {
                let end = read - usize::from(after);
                let start = end - usize::from(bad);
                m.entry_bytes += Undecodable::entry_bytes(
                    same_gaps,
                    m.sequences,
                    m.text_len - ends.0,
                    start.saturating_sub(ends.1),
                    usize::from(bad),
                );
                m.sequences += 1;
                m.text_len += char::REPLACEMENT_CHARACTER.len_utf8();
                ends = (m.text_len, end);
            }
        }
        m.ahead = m.ahead.max(m.text_len.saturating_sub(read));
    }
    m
}

/// Decodes the body of `bytes` (from `body_from` on, after a BOM) in the buffer that holds it,
/// and records every malformed sequence with its exact byte range, in one pass after a first
/// that measures: the body is moved up by as much as the text ever runs ahead of it, and the
/// text written from the start, each call's output over bytes already read. A file is not
/// held twice, as bytes and as text, and the text and the list of sequences are made at their
/// size (Latin-1 prose read as UTF-8 grew both by doubling, and held them with the file).
fn decode_in_place(
    encoding: &'static Encoding,
    mut bytes: Vec<u8>,
    body_from: usize,
) -> (String, Undecodable) {
    let body_len = bytes.len() - body_from;
    if encoding == UTF_8 && std::str::from_utf8(&bytes[body_from..]).is_ok() {
        bytes.drain(..body_from);
        let text = String::from_utf8(bytes).unwrap_or_default();
        return (text, Undecodable::new(true, body_from));
    }
    let capacity = DECODE_CHUNK.min(body_len.saturating_mul(3).max(16));
    let mut chunk = "\0".repeat(capacity);
    crate::work::add(crate::work::Work::DecodeBuffer, chunk.len());
    let m = measure(encoding, &bytes[body_from..], &mut chunk);
    // A few bytes more, so that a sequence the decoder began in one call and found malformed in
    // the next is still there to be kept.
    let room = m.ahead + 16;
    bytes.resize((room + body_len).max(m.text_len).max(bytes.len()), 0);
    bytes.copy_within(body_from..body_from + body_len, room);
    let mut invalid = Undecodable::new(encoding == UTF_8, body_from);
    invalid.reserve(m.sequences, m.entry_bytes);
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let (mut read, mut written_all) = (0, 0);
    loop {
        let input = &bytes[room + read..room + body_len];
        let (result, n, written) =
            decoder.decode_to_str_without_replacement(input, &mut chunk, true);
        read += n;
        // The malformed bytes are kept before this call's output may be written over them.
        if let DecoderResult::Malformed(bad, after) = result {
            let end = read - usize::from(after);
            let start = end - usize::from(bad);
            invalid.push(
                body_from + start,
                &bytes[room + start..room + end],
                written_all + written,
            );
        }
        // Never past what is read: the first pass saw the output at most `room` ahead.
        bytes[written_all..written_all + written].copy_from_slice(&chunk.as_bytes()[..written]);
        written_all += written;
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(..) => {
                let replacement = "\u{FFFD}".as_bytes();
                bytes[written_all..written_all + replacement.len()].copy_from_slice(replacement);
                written_all += replacement.len();
            }
        }
    }
    bytes.truncate(written_all);
    bytes.shrink_to_fit();
    // Whole characters from the decoder, and U+FFFD: always UTF-8.
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (text, invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> Source {
        Source::decode("t".into(), Format::Text, bytes).expect("text")
    }

    #[test]
    fn utf8_with_and_without_bom() {
        let s = decode(b"\xEF\xBB\xBFhttp://a/");
        assert_eq!(s.text, "http://a/");
        assert_eq!(s.encoding.bom, Some(UTF_8));
        assert_eq!(s.report_offset(7), 10);
        let s = decode(b"http://a/");
        assert_eq!(s.encoding.bom, None);
        assert_eq!(s.report_offset(7), 7);
    }

    #[test]
    fn report_offsets_past_many_invalid_sequences_are_exact_and_found_by_search() {
        // 1-, 2- and 3-byte malformed sequences, after a BOM: each text offset maps back to
        // the byte it came from, found from the last sequence before it (a binary search and a
        // short walk, not a sum over every sequence before it: linear, not quadratic, over a
        // file with a finding after each of 100,000 bad bytes).
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        let pieces: [&[u8]; 3] = [b"\xFF", b"\xC3", b"\xE2\x80"];
        let mut expected = Vec::new();
        for i in 0..30_000 {
            expected.push(bytes.len());
            bytes.push(b'x');
            bytes.extend_from_slice(pieces[i % 3]);
        }
        let s = decode(&bytes);
        assert_eq!(s.encoding.invalid.len(), 30_000);
        let xs: Vec<usize> = s.text.match_indices('x').map(|(k, _)| k).collect();
        let found: Vec<usize> = xs.iter().map(|&k| s.report_offset(k)).collect();
        assert_eq!(found, expected);
        // Each sequence is where it was, in the file and in the text.
        let mut x = xs.iter();
        for seq in s.encoding.invalid.iter() {
            let before = *x.next().unwrap();
            assert_eq!(seq.text_offset, before + 1);
            assert_eq!(seq.bytes().start, s.report_offset(before) + 1);
        }
    }

    /// The undecodable sequences of `body` as the decoder reports them, decoded the plain way
    /// into a text of its own: what [`decode_in_place`] must give.
    fn decoded_plainly(
        encoding: &'static Encoding,
        body: &[u8],
        base: usize,
    ) -> (String, Vec<(Range<usize>, usize)>) {
        let mut decoder = encoding.new_decoder_without_bom_handling();
        let mut text = String::with_capacity(body.len() * 3 + 16);
        let (mut read, mut invalid) = (0, Vec::new());
        loop {
            let (result, n) =
                decoder.decode_to_string_without_replacement(&body[read..], &mut text, true);
            read += n;
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::OutputFull => unreachable!("room for all of it"),
                DecoderResult::Malformed(bad, after) => {
                    let end = read - usize::from(after);
                    invalid.push((base + end - usize::from(bad)..base + end, text.len()));
                    text.push(char::REPLACEMENT_CHARACTER);
                }
            }
        }
        (text, invalid)
    }

    /// Byte runs that decode, fail to decode or run a decoder ahead of or behind its input in
    /// the encodings below; long ones cross the decoder's output chunk.
    const RUNS: &[&[u8]] = &[
        b"http://a.org/",
        b"\xFF",
        b"\xC3",
        b"\xE2\x80",
        b"\xF0\x9F\x98",
        b"\xC3\xA9",
        b"\xEF\xBF\xBD",
        b"\xE6\x97\xA5",
        b"\x81\xFF",
        b"\x82\xA0",
        b"\x1B$B",
        b"\x1B(B",
        b"\x84\x31\xA4\x37",
        b"\x00\xD8",
        b"\xD8\x00",
        b"a\x00",
        b"\x00\xDC",
        b"\x8E",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Decoded over its own bytes, a body gives the text and the sequences a plain decode
        /// into a text of its own gives, in every kind of encoding, across output chunks.
        #[test]
        fn decoding_in_place_is_decoding(
            runs in proptest::collection::vec(
                (proptest::sample::select(RUNS), 1..2000usize),
                0..16,
            ),
            bom in proptest::bool::ANY,
        ) {
            let body: Vec<u8> = runs.iter().flat_map(|(run, times)| run.repeat(*times)).collect();
            for encoding in [
                UTF_8,
                UTF_16LE,
                UTF_16BE,
                encoding_rs::SHIFT_JIS,
                encoding_rs::GB18030,
                encoding_rs::ISO_2022_JP,
                encoding_rs::EUC_KR,
                encoding_rs::BIG5,
                WINDOWS_1252,
            ] {
                let base = if bom { 3 } else { 0 };
                let mut bytes = vec![0xAA; base];
                bytes.extend_from_slice(&body);
                let (text, invalid) = decode_in_place(encoding, bytes, base);
                let (expected, sequences) = decoded_plainly(encoding, &body, base);
                proptest::prop_assert!(text == expected, "{}", encoding.name());
                let found: Vec<_> = invalid.iter().map(|s| (s.bytes(), s.text_offset)).collect();
                proptest::prop_assert_eq!(&found, &sequences, "{}", encoding.name());
                for (k, s) in invalid.iter().enumerate().step_by(7) {
                    let kept = encoding != UTF_8 || k == 0;
                    let bytes = &body[s.bytes().start - base..s.bytes().end - base];
                    proptest::prop_assert_eq!(s.found(), kept.then_some(bytes));
                    proptest::prop_assert_eq!(invalid.at(s.text_offset), Some(s));
                }
            }
        }
    }

    #[test]
    fn only_a_bom_and_empty() {
        assert_eq!(decode(b"\xEF\xBB\xBF").text, "");
        assert_eq!(decode(b"").text, "");
        assert_eq!(decode(b"\xFF\xFE").text, "");
    }

    #[test]
    fn invalid_utf8_is_replaced_and_recorded() {
        let s = decode(b"a\xC3(b\xFF\xFEc");
        assert_eq!(s.text, "a\u{FFFD}(b\u{FFFD}\u{FFFD}c");
        let bytes: Vec<_> = s.encoding.invalid.iter().map(|i| i.bytes()).collect();
        assert_eq!(bytes, [1..2, 4..5, 5..6]);
        // 'c' is byte 6 in the file; in the text it is after three 3-byte replacements.
        let c = s.text.find('c').unwrap();
        assert_eq!(s.report_offset(c), 6);
    }

    #[test]
    fn utf16_both_orders_and_lone_surrogates() {
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("hé".encode_utf16().flat_map(u16::to_le_bytes))
            .chain(0xD800u16.to_le_bytes())
            .chain("x".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let s = decode(&le);
        assert_eq!(s.text, "hé\u{FFFD}x");
        assert_eq!(s.encoding.used, UTF_16LE);
        assert_eq!(s.encoding.invalid.first().unwrap().bytes(), 6..8);
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("日本".encode_utf16().flat_map(u16::to_be_bytes))
            .chain([0x00])
            .collect();
        let s = decode(&be);
        assert_eq!(s.text, "日本\u{FFFD}");
        assert_eq!(s.encoding.used, UTF_16BE);
    }

    #[test]
    fn nul_means_binary_unless_utf16() {
        let r = Source::decode("t".into(), Format::Text, b"GIF89a\x00\x01");
        assert_eq!(r.unwrap_err(), NotText::Binary { nul_at: 6 });
        let mut late = vec![b'a'; BINARY_SNIFF_LEN];
        late.push(0);
        assert!(Source::decode("t".into(), Format::Text, &late).is_ok());
    }

    #[test]
    fn html_encodings() {
        let html = |b: &[u8]| Source::decode("t".into(), Format::Html, b).unwrap();
        // Declared in a <meta>: the declaration wins, and where it is is recorded.
        let s = html(b"<meta charset=\"ISO-8859-1\"><a href=\"/r\xE9sum\xE9\">");
        assert_eq!(s.encoding.used, WINDOWS_1252);
        let d = s.encoding.deciding().unwrap();
        assert_eq!(
            (d.label.as_str(), d.encoding),
            ("ISO-8859-1", Some(WINDOWS_1252))
        );
        assert_eq!(&s.text[d.range.clone()], "ISO-8859-1");
        assert!(s.text.contains("/résumé"));
        assert_eq!(s.encoding.detected, Some(WINDOWS_1252));
        // Undeclared: UTF-8 when valid, windows-1252 otherwise.
        assert_eq!(html("<p>caf\u{e9}".as_bytes()).encoding.used, UTF_8);
        let s = html(b"<p>caf\xE9 \x93quoted\x94");
        assert_eq!(s.encoding.used, WINDOWS_1252);
        assert_eq!(s.text, "<p>café \u{201C}quoted\u{201D}");
        assert!(s.encoding.invalid.is_empty());
        // Declared windows-1252 but the bytes are UTF-8: decoded as declared, detection kept.
        let s = html("<meta charset=windows-1252>caf\u{e9}".as_bytes());
        assert_eq!(
            (s.encoding.used, s.encoding.detected),
            (WINDOWS_1252, Some(UTF_8))
        );
        // An unknown label is kept, unresolved, and decides nothing.
        let s = html(b"<meta charset=klingon>x");
        assert_eq!(s.encoding.declarations[0].encoding, None);
        assert_eq!(s.encoding.deciding(), None);
        assert_eq!(s.encoding.used, UTF_8);
    }

    #[test]
    fn undecodable_bytes_are_kept_for_messages() {
        // In UTF-8 the first sequence's bytes, which the message names; in a legacy encoding
        // every sequence's, to read UTF-8 pasted into it back.
        let found = |s: &Source| -> Vec<Option<Vec<u8>>> {
            let found = s.encoding.invalid.iter();
            found.map(|i| i.found().map(<[u8]>::to_vec)).collect()
        };
        let s = decode(b"a\xE9b\xF0\x9F");
        assert_eq!(found(&s), [Some(b"\xE9".to_vec()), None]);
        let sjis = b"<meta charset=shift_jis>\x81\xFFa\x82";
        let s = Source::decode("t".into(), Format::Html, sjis).unwrap();
        assert_eq!(s.encoding.used, encoding_rs::SHIFT_JIS);
        let bytes: Vec<_> = s.encoding.invalid.iter().map(|i| i.bytes()).collect();
        assert_eq!(bytes, [24..26, 27..28]);
        assert_eq!(found(&s), [Some(vec![0x81, 0xFF]), Some(vec![0x82])]);
    }

    #[test]
    fn xml_encodings() {
        let xml = |b: &[u8]| Source::decode("t".into(), Format::Xml, b).unwrap();
        let s = xml(b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><loc>http://a/\xFC</loc>");
        assert_eq!(s.encoding.used, WINDOWS_1252);
        assert!(s.text.ends_with("<loc>http://a/ü</loc>"));
        let s = xml(b"<?xml version=\"1.0\"?><a/>");
        assert_eq!(
            (s.encoding.used, s.encoding.deciding().cloned()),
            (UTF_8, None)
        );
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        let s = xml(&utf16);
        assert_eq!(s.encoding.used, UTF_16LE);
        assert!(s.text.ends_with("<a/>"));
        // Found in the text of a UTF-16 document, where the byte prescan cannot read it.
        let d = s.encoding.deciding().unwrap();
        assert_eq!(
            (d.label.as_str(), &s.text[d.range.clone()]),
            ("UTF-16", "UTF-16")
        );
        // A UTF-16 label readable as ASCII: the bytes are not UTF-16 (XML 1.0 Appendix F).
        let s = xml(b"<?xml version=\"1.0\" encoding=\"UTF-16\"?><loc>caf\xC3\xA9</loc>");
        assert_eq!(s.encoding.used, UTF_8);
        assert!(s.text.ends_with("<loc>café</loc>"));
    }

    #[test]
    fn shift_jis_malformed_bytes_are_located() {
        let s = Source::decode(
            "t".into(),
            Format::Html,
            b"<meta charset=shift_jis>\x93\xfa\x96\x7b \x81",
        )
        .unwrap();
        assert!(s.text.contains("日本"), "{}", s.text);
        assert_eq!(s.encoding.invalid.len(), 1);
        assert_eq!(s.encoding.invalid.first().unwrap().bytes(), 29..30);
    }

    #[test]
    fn xhtml_is_xml_only_with_a_declaration() {
        let p = Path::new("a.xhtml");
        assert_eq!(
            Format::for_file(p, b"<?xml version=\"1.0\"?><html/>"),
            Some(Format::Xml)
        );
        assert_eq!(
            Format::for_file(p, b"<!DOCTYPE html><html>"),
            Some(Format::Html)
        );
        assert_eq!(
            Format::for_file(Path::new("a.svg"), b"<svg/>"),
            Some(Format::Xml)
        );
        assert_eq!(
            Format::for_file(Path::new("a.md"), b""),
            Some(Format::Markdown)
        );
    }

    #[test]
    fn formats_by_extension() {
        assert_eq!(Format::from_path(Path::new("a/b.TXT")), Some(Format::Text));
        assert_eq!(Format::from_path(Path::new("a/b.png")), None);
        assert_eq!(Format::from_path(Path::new("a/b.rst")), Some(Format::Rst));
        assert_eq!(Format::from_path(Path::new("b.REST")), Some(Format::Rst));
        for name in ["a.adoc", "a.asciidoc"] {
            assert_eq!(Format::from_path(Path::new(name)), Some(Format::Asciidoc));
        }
        assert_eq!(Format::from_path(Path::new("KEYS.asc")), None);
        assert_eq!(Format::from_name("rst"), Some(Format::Rst));
        assert_eq!(Format::from_name("asciidoc"), Some(Format::Asciidoc));
        assert_eq!(Format::from_path(Path::new("README")), None);
        assert_eq!(
            Format::from_path(Path::new("a.MarkDown")),
            Some(Format::Markdown)
        );
        assert_eq!(Format::from_path(Path::new("a.markdowns")), None);
        assert_eq!(Format::from_path(Path::new("a.é")), None);
    }
}
