//! Rules on bidirectional text (RFC 3987 §4).

use super::{Check, IriCheck, Rule, Severity, Sink};
use crate::iri::chars::{describe, is_bidi_formatting};

/// `bidi-formatting-character`: LRM, RLM, ALM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
pub const FORMATTING_CHARACTER: Rule = Rule {
    id: "bidi-formatting-character",
    group: "bidi",
    severity: Severity::Error,
    rfc: &["4.1", "8"],
    doc: include_str!("../../rules/bidi-formatting-character.md"),
    unicode_only: true,
    check: Check::Iri(check_formatting),
};

/// `bidi-mixed-direction`.
pub const MIXED_DIRECTION: Rule = Rule {
    id: "bidi-mixed-direction",
    group: "bidi",
    severity: Severity::Warning,
    rfc: &["4.2"],
    doc: include_str!("../../rules/bidi-mixed-direction.md"),
    unicode_only: true,
    check: Check::Iri(check_mixed_direction),
};

fn check_mixed_direction(_input: &IriCheck<'_>, _sink: &mut Sink<'_>) {}

/// `bidi-component-edge`.
pub const COMPONENT_EDGE: Rule = Rule {
    id: "bidi-component-edge",
    group: "bidi",
    severity: Severity::Warning,
    rfc: &["4.2"],
    doc: include_str!("../../rules/bidi-component-edge.md"),
    unicode_only: true,
    check: Check::Iri(check_component_edge),
};

fn check_component_edge(_input: &IriCheck<'_>, _sink: &mut Sink<'_>) {}

fn check_formatting(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    for (i, c) in input.text.char_indices() {
        if is_bidi_formatting(c) {
            sink.report(
                i..i + c.len_utf8(),
                format!("IRI contains {}", describe(c)),
                Some(
                    "remove it: bidi formatting characters are invisible, change the order in which the IRI is displayed, and must not appear in IRIs"
                        .to_string(),
                ),
            );
        }
    }
}
