//! markdown extraction (in progress).

use super::Extraction;

/// The IRIs of a markdown document.
pub fn extract(_text: &str) -> Extraction {
    Extraction::default()
}
