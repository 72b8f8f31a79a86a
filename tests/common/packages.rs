//! Packages built in a test: zips written with the `zip` crate (a dev-dependency too).

use std::io::Write as _;

/// An EPUB-shaped zip: a stored `mimetype` entry first, then `entries`, each `(name, bytes)`,
/// deflated (large parts allowed).
pub fn epub_zip(entries: impl IntoIterator<Item = (String, Vec<u8>)>) -> Vec<u8> {
    zip_with(b"mimetype", b"application/epub+zip", entries)
}

/// A zip whose first entry, stored, is `first` holding `content` (`mimetype` for EPUB and
/// OpenDocument, `[Content_Types].xml` for Office), then `entries`, deflated.
pub fn zip_with(
    first: &[u8],
    content: &[u8],
    entries: impl IntoIterator<Item = (String, Vec<u8>)>,
) -> Vec<u8> {
    zip_of(first, content, entries, zip::CompressionMethod::Deflated)
}

/// [`zip_with`], the entries stored as they are (a repeated unit deflates past the ratio a
/// package's part is refused at, as a bomb).
#[allow(dead_code)]
pub fn stored_zip_with(
    first: &[u8],
    content: &[u8],
    entries: impl IntoIterator<Item = (String, Vec<u8>)>,
) -> Vec<u8> {
    zip_of(first, content, entries, zip::CompressionMethod::Stored)
}

fn zip_of(
    first: &[u8],
    content: &[u8],
    entries: impl IntoIterator<Item = (String, Vec<u8>)>,
    method: zip::CompressionMethod,
) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(method)
        .large_file(true);
    z.start_file(String::from_utf8_lossy(first), stored)
        .unwrap();
    z.write_all(content).unwrap();
    for (name, bytes) in entries {
        z.start_file(name, deflated).unwrap();
        z.write_all(&bytes).unwrap();
    }
    z.finish().unwrap().into_inner()
}
