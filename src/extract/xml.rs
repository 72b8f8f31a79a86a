//! xml extraction (in progress).

use super::Extraction;

/// The IRIs of a xml document.
pub fn extract(_text: &str) -> Extraction {
    Extraction::default()
}
