//! `unused-suppression`: inline suppression directives that silence nothing, and directives
//! naming a rule that does not exist. Reported by [`crate::suppressions`] after every
//! other rule has run on the document.

use super::{Check, Rule, Severity};

/// `unused-suppression`: a directive (or a rule it names) that silences nothing, or is unknown.
pub const UNUSED_SUPPRESSION: Rule = Rule {
    id: "unused-suppression",
    group: "suppression",
    severity: Severity::Warning,
    rfc: &[],
    doc: include_str!("../../rules/unused-suppression.md"),
    unicode_only: false,
    check: Check::Directives,
};
