//! Fixes: what a rule proposes to write instead, and writing it back without damaging the file.
//!
//! A rule attaches an [`IriFix`] to a finding: edits of the prepared IRI (RFC 3987 §5.2) and
//! whether applying them keeps the IRI equivalent under §5.3 ([`Applicability::Safe`]) or may
//! change which resource it names ([`Applicability::Unsafe`]). [`render`] turns it into a
//! [`Fix`] on the document's text, written in the document's own syntax and encoding;
//! [`apply`] chooses and applies fixes pass after pass, checking each result by extracting it
//! again; [`bytes`] puts the new text back into the file's own bytes; [`write`] replaces the file
//! atomically; [`diff`] shows what would change; [`run`] does all of it for `check --fix`.

pub mod apply;
pub mod bytes;
pub mod diff;
pub mod render;
pub mod run;
pub mod write;

use std::ops::Range;

use serde::Serialize;

use crate::diagnostic::Location;

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

/// One edit of a document's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Where the replaced text starts.
    pub start: Location,
    /// Where it ends (exclusive).
    pub end: Location,
    /// The new text, as written in the document (escaped for its syntax), in UTF-8.
    pub replacement: String,
}

impl Edit {
    /// The replaced range of [`crate::source::Source::text`].
    pub fn range(&self) -> Range<usize> {
        self.start.text_offset..self.end.text_offset
    }
}

/// A fix of a diagnostic, on the document's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// Whether it keeps the IRI's meaning.
    pub applicability: Applicability,
    /// What it does (the IRI fix's message, shared).
    pub message: std::sync::Arc<str>,
    /// Disjoint edits of the text, sorted, each inside the diagnostic's span.
    pub edits: Vec<Edit>,
    /// The IRI fix it was written from (what re-extraction must give back).
    pub iri: IriFix,
    /// The start of the fixed occurrence in the text, which tells it from the others.
    pub occurrence_start: usize,
}

/// Which fixes `check` applies, and what it does with the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixOptions {
    /// Apply unsafe fixes too (`--unsafe-fixes`).
    pub unsafe_fixes: bool,
    /// Where the fixed documents go.
    pub output: FixOutput,
}

/// What happens to a fixed document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixOutput {
    /// Written back to its file (`--fix`); standard input's goes to standard output.
    Write,
    /// Shown as a unified diff, nothing written (`--diff`).
    Diff,
}

impl FixOptions {
    /// True when `applicability` is applied with these options.
    pub fn applies(&self, applicability: Applicability) -> bool {
        applicability == Applicability::Safe || self.unsafe_fixes
    }
}

/// What fixing did to one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileFixes {
    /// Fixes applied (or, with `--diff`, that would be).
    pub applied: usize,
    /// Remaining diagnostics with an unsafe fix that `--unsafe-fixes` would apply.
    pub unsafe_available: usize,
    /// Fixes left out because a pass check refused them (their diagnostics lose the fix).
    pub refused: usize,
    /// The unified diff, with `--diff`, when something changes.
    pub diff: Option<String>,
    /// The fixed document's bytes, for standard input.
    pub stdout: Option<Vec<u8>>,
    /// Why the fixed document was not written (changed on disk, not writable, ...).
    pub error: Option<String>,
}
