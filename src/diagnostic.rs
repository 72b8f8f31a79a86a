//! Findings mapped back to the source: what reports print.

use std::ops::Range;

use crate::extract::{Occurrence, Problem, Related};
use crate::iri::Component;
use crate::rules::{Finding, Severity};
use crate::source::Source;

/// A point in a document, in every unit a consumer may need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in Unicode scalar values.
    pub column: usize,
    /// 1-based column in UTF-16 code units (for editors speaking LSP).
    pub column_utf16: usize,
    /// The offset reported in JSON (see [`Source::report_offset`]).
    pub offset: usize,
    /// Byte offset in [`Source::text`].
    pub text_offset: usize,
}

impl Location {
    /// The location of `text_offset` in `source`.
    pub fn of(source: &Source, text_offset: usize) -> Location {
        let p = source.lines().position(&source.text, text_offset);
        Location {
            line: p.line,
            column: p.column,
            column_utf16: p.column_utf16,
            offset: source.report_offset(text_offset),
            text_offset,
        }
    }
}

/// Another place that explains a diagnostic: in its document, or in another one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelatedLocation {
    /// The other document's path, when it is not the diagnostic's own.
    pub path: Option<String>,
    /// Start of the range.
    pub start: Location,
    /// End (exclusive).
    pub end: Location,
    /// What it is.
    pub label: String,
}

impl RelatedLocation {
    fn new(source: &Source, r: &Related) -> RelatedLocation {
        RelatedLocation {
            path: None,
            start: Location::of(source, r.range.start),
            end: Location::of(source, r.range.end),
            label: r.label.clone(),
        }
    }
}

/// One reported problem, located in its document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule id.
    pub rule: &'static str,
    /// Severity after configuration.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// What to write instead.
    pub help: Option<String>,
    /// Start of the characters at fault in the source.
    pub start: Location,
    /// End (exclusive).
    pub end: Location,
    /// The prepared IRI (`None` for a problem with the document itself).
    pub iri: Option<String>,
    /// The characters at fault as a byte range of `iri`.
    pub iri_range: Option<Range<usize>>,
    /// The IRI component they are in.
    pub component: Option<Component>,
    /// The RFC 3987 section the rule rests on, if any.
    pub rfc: Option<&'static str>,
    /// Other places that explain the diagnostic.
    pub related: Vec<RelatedLocation>,
    /// The fix, written in the document's syntax, when the rule offers one.
    pub fix: Option<crate::fix::Fix>,
}

impl Diagnostic {
    /// Maps `finding`, made on `occurrence`, to a located diagnostic.
    pub fn new(source: &Source, occurrence: &Occurrence, finding: Finding) -> Diagnostic {
        let span = occurrence.map.to_source(finding.range.clone());
        let related = occurrence
            .map
            .related_for(finding.range.clone())
            .iter()
            .map(|r| RelatedLocation::new(source, r))
            .collect();
        let fix = finding
            .fix
            .as_ref()
            .and_then(|f| crate::fix::render::to_source(source, occurrence, span.clone(), f));
        Diagnostic {
            rule: finding.rule.id,
            severity: finding.severity,
            message: finding.message,
            help: finding.help,
            start: Location::of(source, span.start),
            end: Location::of(source, span.end),
            iri: Some(occurrence.iri.clone()),
            iri_range: Some(finding.range),
            component: finding.component,
            rfc: finding.rule.rfc.first().copied(),
            related,
            fix,
        }
    }

    /// Locates a document-level `problem`, reported with `severity`.
    pub fn from_problem(source: &Source, problem: &Problem, severity: Severity) -> Diagnostic {
        Diagnostic {
            rule: problem.rule,
            severity,
            message: problem.message.clone(),
            help: problem.help.clone(),
            start: Location::of(source, problem.range.start),
            end: Location::of(source, problem.range.end),
            iri: None,
            iri_range: None,
            component: None,
            rfc: crate::rules::rule(problem.rule).and_then(|r| r.rfc.first().copied()),
            related: problem
                .related
                .iter()
                .map(|r| RelatedLocation::new(source, r))
                .collect(),
            fix: None,
        }
    }
}
