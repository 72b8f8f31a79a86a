//! What the document targets share: the first byte picks the format, the rest is the file.

use irilint::source::{Format, Source};

/// The format and bytes `data` stands for, and the bytes decoded (`None`: empty or binary).
pub fn document(data: &[u8]) -> Option<(Format, &[u8], Source)> {
    let (&which, bytes) = data.split_first()?;
    let format = Format::ALL[usize::from(which) % Format::ALL.len()];
    let source = Source::decode("fuzz".into(), format, bytes).ok()?;
    Some((format, bytes, source))
}
