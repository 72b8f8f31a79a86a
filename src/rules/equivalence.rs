//! `equivalent-variants`: across every checked file, one resource written as IRIs that differ but
//! that the comparison ladder of RFC 3987 §5.3 proves equivalent. The catalog entry; the
//! project-level pass that finds them is [`crate::equivalence`].

use super::{Check, Rule, Severity};

/// The rule.
pub const EQUIVALENT_VARIANTS: Rule = Rule {
    id: "equivalent-variants",
    group: "equivalence",
    severity: Severity::Info,
    rfc: &["5.3", "5.3.2", "5.3.3"],
    doc: include_str!("../../rules/equivalent-variants.md"),
    unicode_only: false,
    check: Check::Project,
};
