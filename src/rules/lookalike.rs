//! Mixed scripts and look-alikes (RFC 3987 §6.1, §7.5, §8; UTS #39).

use super::{Check, IriCheck, Rule, Severity, Sink};

/// `mixed-script`.
pub const MIXED_SCRIPT: Rule = Rule {
    id: "mixed-script",
    group: "lookalike",
    severity: Severity::Warning,
    rfc: &["7.5", "8"],
    doc: include_str!("../../rules/mixed-script.md"),
    unicode_only: true,
    check: Check::Iri(check_mixed_script),
};

fn check_mixed_script(_input: &IriCheck<'_>, _sink: &mut Sink<'_>) {}

/// `confusable`.
pub const CONFUSABLE: Rule = Rule {
    id: "confusable",
    group: "lookalike",
    severity: Severity::Warning,
    rfc: &["6.1", "7.5", "8"],
    doc: include_str!("../../rules/confusable.md"),
    unicode_only: true,
    check: Check::Iri(check_confusable),
};

fn check_confusable(_input: &IriCheck<'_>, _sink: &mut Sink<'_>) {}
