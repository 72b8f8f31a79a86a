//! Characters that look like URL delimiters (RFC 3987 §6.1).

use super::{Check, IriCheck, Rule, Severity, Sink};

/// `confusable-delimiter`.
pub const CONFUSABLE_DELIMITER: Rule = Rule {
    id: "confusable-delimiter",
    group: "lookalike",
    severity: Severity::Error,
    rfc: &["6.1", "7.5"],
    doc: include_str!("../../rules/confusable-delimiter.md"),
    unicode_only: true,
    check: Check::Iri(check_delimiters),
};

fn check_delimiters(_input: &IriCheck<'_>, _sink: &mut Sink<'_>) {}
