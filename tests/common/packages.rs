//! Packages built in a test: zips written with the `zip` crate (a dev-dependency too).

use std::io::Write as _;

/// An EPUB-shaped zip: a stored `mimetype` entry first, then `entries`, each `(name, bytes)`,
/// deflated (large parts allowed).
pub fn epub_zip(entries: impl IntoIterator<Item = (String, Vec<u8>)>) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    z.start_file("mimetype", stored).unwrap();
    z.write_all(b"application/epub+zip").unwrap();
    for (name, bytes) in entries {
        z.start_file(name, deflated).unwrap();
        z.write_all(&bytes).unwrap();
    }
    z.finish().unwrap().into_inner()
}
