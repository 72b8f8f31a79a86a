//! Internationalized domain names (RFC 3987 §3.1, §5.3.3; UTS #46).

use super::{Check, IriCheck, Rule, Severity, Sink};

/// `idn-invalid`.
pub const IDN_INVALID: Rule = Rule {
    id: "idn-invalid",
    group: "idn",
    severity: Severity::Error,
    rfc: &["3.1", "5.3.3"],
    doc: include_str!("../../rules/idn-invalid.md"),
    unicode_only: false,
    check: Check::Iri(check_idn),
};

fn check_idn(_input: &IriCheck<'_>, _sink: &mut Sink<'_>) {}
