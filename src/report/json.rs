//! The JSON report (version 1), written by [`crate::escaped_json`].
//!
//! Offsets: `offset` is a byte offset into the file for UTF-8 documents (BOM included), and into
//! the text as decoded to UTF-8 for documents in other encodings (UTF-16). `iri_range` is a byte
//! range of the prepared IRI (`iri`) in UTF-8; both are `null` for problems with the document
//! itself (`xml-not-well-formed`). `fix` is `null` or the fix's applicability, message and edits
//! (spans as `span`, replacements as written in the file). `spans`, present only when the same
//! problem is in more than one place of the IRI's component, lists every place (`span` first).
//! `related`, present only when non-empty, lists other places
//! that explain a diagnostic (the declaration of the entity an IRI came from; for
//! `equivalent-variants`, the other spellings, with their `path` when in another file).
//! `unlisted`, present only when a file had more findings than it lists
//! ([`crate::check::MAX_LISTED`]), counts the others per file, rule and severity.

use std::borrow::Borrow;
use std::cell::{Cell, RefCell};
use std::io;

use serde::Serialize;

use super::Summary;
use crate::check::{FileOutcome, Run, RunOutcome};
use crate::diagnostic::{Diagnostic, Location};
use crate::escaped_json::to_writer;

/// The version of the report's shape; bumped on incompatible changes.
pub const REPORT_VERSION: u32 = 1;

#[derive(Serialize)]
struct Report<'u, D: Serialize, E: Serialize, S: Serialize> {
    version: u32,
    tool: Tool,
    diagnostics: D,
    /// Findings counted and not listed, present only when there are some.
    #[serde(skip_serializing_if = "UnlistedField::is_empty")]
    unlisted: UnlistedField<'u>,
    errors: E,
    summary: S,
}

/// The `unlisted` field, known once every file is written.
struct UnlistedField<'u>(&'u RefCell<Vec<super::Unlisted>>);

impl UnlistedField<'_> {
    fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }
}

impl Serialize for UnlistedField<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.borrow().serialize(serializer)
    }
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct JsonError {
    path: String,
    message: String,
}

/// A diagnostic as JSON; `path` and `span` are left out where there is no document (`inspect`).
#[derive(Serialize)]
pub struct JsonDiagnostic<'a> {
    rule: &'static str,
    severity: &'static str,
    message: &'a str,
    help: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    span: Option<Span>,
    /// Every place, `span` first, when the problem is in more than one place of the IRI's
    /// component (one diagnostic per IRI, rule and component).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    spans: Vec<Span>,
    iri: Option<&'a str>,
    iri_range: Option<[usize; 2]>,
    component: Option<&'static str>,
    rfc: Option<&'static str>,
    fix: Option<JsonFix<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<JsonRelated<'a>>,
}

/// `{"applicability": "safe"|"unsafe", "message": ..., "edits": [{"span", "replacement"}]}`:
/// the replacement is the text as it will be written in the file (escaped for its syntax),
/// in UTF-8 whatever the file's encoding.
#[derive(Serialize)]
struct JsonFix<'a> {
    applicability: &'static str,
    message: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    span: Span,
    replacement: &'a str,
}

impl<'a> JsonFix<'a> {
    fn new(fix: &'a crate::diagnostic::fix::Fix) -> JsonFix<'a> {
        JsonFix {
            applicability: fix.applicability.name(),
            message: &fix.message,
            edits: fix
                .edits
                .iter()
                .map(|e| JsonEdit {
                    span: Span::new(e.start, e.end),
                    replacement: &e.replacement,
                })
                .collect(),
        }
    }
}

/// `{"path": ..., "span": ..., "message": ...}`: another place that explains a diagnostic;
/// `path` only when it is in another file.
#[derive(Serialize)]
struct JsonRelated<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
    span: Span,
    message: &'a str,
}

/// `{"start": {...}, "end": {...}}`: a source span as every JSON output writes it.
#[derive(Serialize)]
pub struct Span {
    start: Point,
    end: Point,
}

impl Span {
    /// The span from `start` to `end` (exclusive).
    pub fn new(start: Location, end: Location) -> Span {
        Span {
            start: start.into(),
            end: end.into(),
        }
    }
}

#[derive(Serialize)]
struct Point {
    line: usize,
    column: usize,
    /// The column in UTF-16 code units, as editors speaking LSP count it.
    utf16_column: usize,
    offset: usize,
}

impl From<Location> for Point {
    fn from(l: Location) -> Point {
        Point {
            line: l.line,
            column: l.column,
            utf16_column: l.column_utf16,
            offset: l.offset,
        }
    }
}

impl<'a> JsonDiagnostic<'a> {
    /// The JSON form of `d`, with its file when `path` is given.
    pub fn new(d: &'a Diagnostic, path: Option<&'a str>) -> JsonDiagnostic<'a> {
        JsonDiagnostic {
            rule: d.rule,
            severity: d.severity.name(),
            message: &d.message,
            help: d.help.as_deref(),
            path,
            span: path.map(|_| Span::new(d.start, d.end)),
            spans: match path {
                Some(_) if !d.also.is_empty() => std::iter::once((d.start, d.end))
                    .chain(d.also.iter().copied())
                    .map(|(start, end)| Span::new(start, end))
                    .collect(),
                _ => Vec::new(),
            },
            iri: d.iri.as_deref(),
            iri_range: d.iri_range.as_ref().map(|r| [r.start, r.end]),
            component: d.component.map(|c| c.name()),
            rfc: d.rfc,
            // Edits are located in a document; `inspect` has none.
            fix: path.and(d.fix.as_deref()).map(JsonFix::new),
            related: d
                .related
                .iter()
                .map(|r| JsonRelated {
                    path: r.path.as_deref(),
                    span: Span::new(r.start, r.end),
                    message: &r.label,
                })
                .collect(),
        }
    }
}

/// A sequence serialized item by item from an iterator as it is written, never collected: a
/// report of a million findings holds one of them at a time in its JSON form.
pub struct Stream<I>(std::cell::Cell<Option<I>>);

impl<I> Stream<I> {
    /// The items of `iter`, to be serialized once.
    pub fn new(iter: I) -> Stream<I> {
        Stream(std::cell::Cell::new(Some(iter)))
    }
}

impl<I: Iterator<Item = T>, T: Serialize> Serialize for Stream<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.take() {
            Some(items) => serializer.collect_seq(items),
            None => Err(serde::ser::Error::custom("a stream is serialized once")),
        }
    }
}

/// The diagnostics of a run's files as one array, written file by file.
struct Diagnostics<'s, I>(super::FilesOnce<'s, I>);

impl<I: Iterator<Item = F>, F: Borrow<FileOutcome>> Serialize for Diagnostics<'_, I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq as _;
        let files = self.0.take::<S::Error>()?;
        let mut seq = serializer.serialize_seq(None)?;
        for f in files {
            let f = f.borrow();
            for d in &f.diagnostics {
                seq.serialize_element(&JsonDiagnostic::new(d, Some(&f.path)))?;
            }
        }
        seq.end()
    }
}

/// The whole report of a run, as text.
pub fn render(outcome: &RunOutcome) -> String {
    let mut out = Vec::new();
    write(outcome, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Writes the whole report of a run to `out`, one diagnostic at a time.
pub fn write(outcome: &RunOutcome, out: &mut dyn io::Write) -> io::Result<()> {
    let unread = RefCell::new(outcome.unread());
    write_files(outcome.files.iter(), &unread, out).map(|_| ())
}

/// Writes the report of the files `files` gives, in order, as each comes (the run may still be
/// going on: [`crate::check::run_ordered`]); `unread` is read after the last file, for the
/// inputs that could not be read. Returns the run's summary.
pub fn write_files<F: Borrow<FileOutcome>>(
    files: impl Iterator<Item = F>,
    unread: &RefCell<Run<()>>,
    out: &mut dyn io::Write,
) -> io::Result<Summary> {
    let summary = Cell::new(Summary::default());
    let unlisted = RefCell::new(Vec::new());
    let report = Report {
        version: REPORT_VERSION,
        tool: Tool {
            name: "irilint",
            version: env!("CARGO_PKG_VERSION"),
        },
        diagnostics: Diagnostics(super::FilesOnce::new(files, &summary, &unlisted)),
        unlisted: UnlistedField(&unlisted),
        errors: super::Later(|| {
            unread
                .borrow()
                .errors
                .iter()
                .map(|e| JsonError {
                    path: e.path.clone(),
                    message: e.message.clone(),
                })
                .collect::<Vec<_>>()
        }),
        summary: super::Later(|| summary.get()),
    };
    to_writer(&report, out)?;
    Ok(summary.get())
}
