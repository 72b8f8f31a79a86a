//! From a decoded document to the IRIs in it.
//!
//! Each format has one module that turns a [`Source`] into [`Occurrence`]s: the IRI after the
//! format's escapes are resolved (RFC 3987 §5.2 preparation) and a [`SpanMap`] from every byte of
//! it back to the source. Rules only ever see occurrences, never markup.

pub mod span_map;
pub mod text;

use std::borrow::Cow;

pub use span_map::SpanMap;

use crate::source::{Format, Source};

/// One IRI found in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// The IRI after §5.2 preparation (escapes resolved); what rules check.
    pub iri: String,
    /// Where each byte of `iri` came from in [`Source::text`].
    pub map: SpanMap,
    /// Where in the document's structure it was found (`text`, later `a@href`, `xml:base`, ...).
    pub origin: Cow<'static, str>,
}

/// Every IRI occurrence in `source`, in document order.
pub fn extract(source: &Source) -> Vec<Occurrence> {
    match source.format {
        Format::Text => text::extract(&source.text),
    }
}
