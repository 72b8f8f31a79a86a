//! HTML extraction (in progress).

use std::ops::Range;

use super::{Extraction, Occurrence};

/// The IRIs of an HTML document.
pub fn extract(text: &str) -> Extraction {
    Extraction {
        occurrences: extract_fragment(text, 0..text.len()),
        problems: Vec::new(),
    }
}

/// The IRIs in the HTML of `text[range]` (an HTML block or inline HTML inside another format);
/// spans are offsets into the whole `text`.
pub fn extract_fragment(_text: &str, _range: Range<usize>) -> Vec<Occurrence> {
    Vec::new()
}
