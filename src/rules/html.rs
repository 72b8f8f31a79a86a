//! Problems with HTML markup itself, reported by the HTML extractor.

use super::{Check, Rule, Severity};

/// `unlinked-url-attribute`: a URL attribute lost to a separator HTML does not read as one.
pub const UNLINKED_URL_ATTRIBUTE: Rule = Rule {
    id: crate::extract::html::text_nodes::UNLINKED_URL_ATTRIBUTE,
    group: "html",
    severity: Severity::Error,
    rfc: &[],
    doc: include_str!("../../rules/unlinked-url-attribute.md"),
    unicode_only: false,
    check: Check::Extractor,
};
