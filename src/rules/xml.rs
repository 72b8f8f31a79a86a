//! Problems with XML documents themselves, reported by the XML extractor.

use super::{Check, Rule, Severity};

/// `xml-not-well-formed`: the document cannot be parsed past a point.
pub const NOT_WELL_FORMED: Rule = Rule {
    id: "xml-not-well-formed",
    group: "xml",
    severity: Severity::Error,
    rfc: &[],
    doc: include_str!("../../rules/xml-not-well-formed.md"),
    unicode_only: false,
    check: Check::Extractor,
};

/// `xml-entity-limit`: internal DTD entity expansion exceeds the depth or size budget.
pub const ENTITY_LIMIT: Rule = Rule {
    id: "xml-entity-limit",
    group: "xml",
    severity: Severity::Error,
    rfc: &["8"],
    doc: include_str!("../../rules/xml-entity-limit.md"),
    unicode_only: false,
    check: Check::Extractor,
};

/// `xml-external-entity`: a reference to an external entity or DTD, never fetched.
pub const EXTERNAL_ENTITY: Rule = Rule {
    id: "xml-external-entity",
    group: "xml",
    severity: Severity::Warning,
    rfc: &["8"],
    doc: include_str!("../../rules/xml-external-entity.md"),
    unicode_only: false,
    check: Check::Extractor,
};
