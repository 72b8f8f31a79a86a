//! Fixes: what a rule proposes to write instead, and writing it back without damaging the file.
//!
//! A rule attaches an [`IriFix`](crate::iri_fix::IriFix) to a finding, which
//! [`crate::diagnostic::fix`] writes as a fix on the document's text, in the document's own
//! syntax and encoding; [`apply`] chooses and applies fixes pass after pass, checking each result
//! by extracting it again; [`bytes`] puts the new text back into the file's own bytes, written
//! into a temporary file as its edits are walked; [`version`] holds one version of the document
//! at a time, the others in their files; [`diff`] shows what would change; [`run`] does all of
//! it for `check --fix`, and renames the last version over the file
//! ([`crate::fsio::Replacement`]).

pub mod apply;
pub mod bytes;
pub mod diff;
pub mod run;
pub mod version;

use crate::iri_fix::Applicability;

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
