//! irilint: a linter for the IRIs (RFC 3987) inside documents.
//!
//! The pipeline runs in one direction: [`source::Source`] (bytes decoded, encoding facts kept) →
//! [`extract`] ([`extract::Occurrence`]s with a [`extract::SpanMap`]) → [`iri`] (parsed
//! components) → [`rules`] ([`rules::Finding`]s) → [`diagnostic::Diagnostic`]s mapped back to the
//! source → [`report`].

#![warn(missing_docs)]

pub mod baseline;
pub mod check;
pub mod cli;
pub mod config;
pub mod convert;
pub mod diagnostic;
pub mod extract;
pub mod fix;
pub mod fsio;
pub mod inspect;
pub mod iri;
pub mod line_index;
pub mod list;
pub mod lsp;
pub mod report;
pub mod rules;
pub mod sniff;
pub mod source;
pub mod walk;
pub mod work;
