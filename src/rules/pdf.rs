//! Problems with PDF links themselves, reported by the PDF reader.

use super::{Check, Rule, Severity};

/// `pdf-unsafe-action`: a PDF link that runs a program or a script instead of opening an IRI.
pub const UNSAFE_ACTION: Rule = Rule {
    id: crate::extract::pdf::UNSAFE_ACTION,
    group: "pdf",
    severity: Severity::Error,
    rfc: &["8"],
    doc: include_str!("../../rules/pdf-unsafe-action.md"),
    unicode_only: false,
    check: Check::Extractor,
};
