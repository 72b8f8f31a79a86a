//! Invisible characters (RFC 3987 §6.1, §8; UTS #39 §3.1).

use super::{Check, IriCheck, Rule, Severity, Sink};

/// `invisible-character`.
pub const INVISIBLE_CHARACTER: Rule = Rule {
    id: "invisible-character",
    group: "invisible",
    severity: Severity::Error,
    rfc: &["4.1", "6.1", "8"],
    doc: include_str!("../../rules/invisible-character.md"),
    unicode_only: true,
    check: Check::Iri(check_invisible),
};

fn check_invisible(_input: &IriCheck<'_>, _sink: &mut Sink<'_>) {}
