//! `irilint list`: every IRI occurrence found, with its span and origin, without checking it.

use serde::Serialize;

use crate::check::Run;
use crate::diagnostic::Location;
use crate::extract;
use crate::iri::chars::escape_unsafe;
use crate::report::json::{self, Span};
use crate::source::Source;

/// One occurrence, located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// Start of the IRI's source text.
    pub start: Location,
    /// End of it (exclusive).
    pub end: Location,
    /// Where in the document's structure it was found.
    pub origin: String,
    /// The prepared IRI.
    pub iri: String,
}

/// The occurrences of one document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListedFile {
    /// The path as shown.
    pub path: String,
    /// Its occurrences in document order.
    pub occurrences: Vec<Listed>,
}

/// Extracts and locates the occurrences of `source`.
pub fn list_source(source: &Source) -> ListedFile {
    let occurrences = extract::extract(source)
        .occurrences
        .into_iter()
        .map(|o| {
            let span = o.map.source_range();
            Listed {
                start: Location::of(source, span.start),
                end: Location::of(source, span.end),
                origin: o.origin.into_owned(),
                iri: o.iri.to_string(),
            }
        })
        .collect();
    ListedFile {
        path: source.path.clone(),
        occurrences,
    }
}

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    occurrences: Vec<Entry<'a>>,
}

#[derive(Serialize)]
struct Entry<'a> {
    path: &'a str,
    span: Span,
    origin: &'a str,
    iri: &'a str,
}

/// `{"version": 1, "occurrences": [{"path", "span", "origin", "iri"}]}`.
pub fn render_json(run: &Run<ListedFile>) -> String {
    let occurrences = run
        .files
        .iter()
        .flat_map(|f| {
            f.occurrences.iter().map(|o| Entry {
                path: &f.path,
                span: Span::new(o.start, o.end),
                origin: &o.origin,
                iri: &o.iri,
            })
        })
        .collect();
    crate::escaped_json::to_string(&Report {
        version: json::REPORT_VERSION,
        occurrences,
    })
}

/// `path:line:col: iri (origin)`, one per line, hidden characters escaped.
pub fn render_human(run: &Run<ListedFile>) -> String {
    let mut out = String::new();
    for f in &run.files {
        let path = escape_unsafe(&f.path);
        for o in &f.occurrences {
            out.push_str(&format!(
                "{path}:{}:{}: {} ({})\n",
                o.start.line,
                o.start.column,
                escape_unsafe(&o.iri),
                o.origin
            ));
        }
    }
    out
}
