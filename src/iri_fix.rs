//! What a rule proposes for a finding: edits of the prepared IRI (RFC 3987 §5.2) and whether
//! applying them keeps the IRI equivalent under §5.3 ([`Applicability::Safe`]) or may change which
//! resource it names ([`Applicability::Unsafe`]). Plain data, no I/O: [`crate::diagnostic::fix`]
//! writes it in the document's syntax, [`crate::fix`] applies it to the file.

use std::ops::Range;

use serde::Serialize;

/// Whether applying a fix keeps the IRI's meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// The IRI after the fix is equivalent to the one before (RFC 3987 §5.3): `--fix` applies it.
    Safe,
    /// The fixed IRI may name another resource: applied only with `--unsafe-fixes`.
    Unsafe,
}

impl Applicability {
    /// `safe` or `unsafe`.
    pub fn name(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One edit of a prepared IRI: replace the bytes at `range` by `replacement`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IriEdit {
    /// Byte range in the prepared IRI (may be empty: an insertion).
    pub range: Range<usize>,
    /// The new characters, as the IRI (not the document) spells them.
    pub replacement: String,
}

/// What a rule proposes for one finding, in terms of the prepared IRI.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IriFix {
    /// Whether it keeps the IRI's meaning.
    pub applicability: Applicability,
    /// What it does (`percent-encode the space`), for reports; shared, never copied.
    pub message: std::sync::Arc<str>,
    /// Disjoint edits, sorted.
    pub edits: Vec<IriEdit>,
}

impl IriFix {
    /// A fix replacing `range` of the IRI by `replacement`.
    pub fn replace(
        applicability: Applicability,
        message: impl Into<std::sync::Arc<str>>,
        range: Range<usize>,
        replacement: impl Into<String>,
    ) -> IriFix {
        IriFix {
            applicability,
            message: message.into(),
            edits: vec![IriEdit {
                range,
                replacement: replacement.into(),
            }],
        }
    }

    /// `iri` with the edits applied.
    pub fn apply_to(&self, iri: &str) -> String {
        apply_iri_edits(iri, self.edits.iter())
    }
}

/// `iri` with `edits` (disjoint, sorted) applied.
pub fn apply_iri_edits<'a>(iri: &str, edits: impl Iterator<Item = &'a IriEdit>) -> String {
    let mut out = String::with_capacity(iri.len());
    let mut at = 0;
    for e in edits {
        out.push_str(&iri[at..e.range.start]);
        out.push_str(&e.replacement);
        at = e.range.end;
    }
    out.push_str(&iri[at..]);
    out
}
