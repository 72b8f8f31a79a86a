//! irilint: a linter for the IRIs (RFC 3987) inside documents.
//!
//! The pipeline runs in one direction: [`source::Source`] (bytes decoded, encoding facts kept) →
//! [`extract`] ([`extract::Occurrence`]s with a [`extract::SpanMap`]) → [`iri`] (parsed
//! components) → [`rules`] ([`rules::Finding`]s) → [`diagnostic::Diagnostic`]s mapped back to the
//! source → [`report`].
//!
//! # Layers
//!
//! Each module imports only from its own layer or the layers below it, and no two files import
//! each other, directly or around a circle (`tests/layering.rs` checks both against this list).
//! Top to bottom:
//!
//! 1. `main`, `cli`: the command line.
//! 2. `lsp`: the language server.
//! 3. `fix`, `inspect`, `list`, `convert`: what the commands do besides checking: fixing files
//!    (apply, bytes, write, diff, run), inspecting one IRI, listing occurrences, converting.
//! 4. `report`: the report formats.
//! 5. `check`: the run: each file loaded and checked, then the project-level passes.
//! 6. `walk`: the inputs and the settings of each.
//! 7. `baseline`, `equivalence`, `suppressions`: the project-level passes over the checked
//!    files' diagnostics (the baseline, the cross-document `equivalent-variants`, the inline
//!    suppression directives); the baseline reads and writes its own file format.
//! 8. `config`: the configuration: which rules run on each file, at which severity.
//! 9. `diagnostic`: findings located in the source, each fix written in the document's syntax.
//! 10. `rules`: the rule catalog and the checks of one IRI.
//! 11. `iri_fix`: what a rule proposes: edits of the prepared IRI and whether they keep its
//!     meaning (no I/O).
//! 12. `extract`: the occurrences of IRIs in each document format.
//! 13. `escaped_json`: the one JSON writer, every character unsafe to display escaped.
//! 14. `iri`: parsing, characters, comparison and conversion of IRIs.
//! 15. `source`: a document's bytes decoded, with its encoding facts.
//! 16. `sniff`, `line_index`: the encoding declarations of a document; line and column positions.
//! 17. `fsio`, `work`: reading and writing files (capped reads, the one atomic writer, the
//!     wording of I/O errors); counts of the work loops do.

#![warn(missing_docs)]

pub mod baseline;
pub mod check;
pub mod cli;
pub mod config;
pub mod convert;
pub mod diagnostic;
pub mod equivalence;
pub mod escaped_json;
pub mod extract;
pub mod fix;
pub mod fsio;
pub mod inspect;
pub mod iri;
pub mod iri_fix;
pub mod line_index;
pub mod list;
pub mod lsp;
pub mod report;
pub mod rules;
pub mod sniff;
pub mod source;
pub mod suppressions;
pub mod walk;
pub mod work;
