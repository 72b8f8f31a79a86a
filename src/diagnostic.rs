//! Findings mapped back to the source: what reports print.

pub mod fix;

use std::ops::Range;
use std::sync::Arc;

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

/// Locates the places of one diagnostic and those it withholds, which lie on one host, a few
/// characters apart: each after the one located last on the same line is counted on from it
/// (its characters between), not looked up again in the line index (about 850 instructions a
/// place, ten places a look-alike host).
#[derive(Default)]
struct Locator {
    /// The place located last, at a character boundary.
    last: Option<Location>,
}

impl Locator {
    /// [`Location::of`] `text_offset`.
    fn of(&mut self, source: &Source, text_offset: usize) -> Location {
        let text = source.text.as_str();
        let mut at = text_offset.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let found = match self.last {
            Some(last) if last.text_offset <= at => {
                let between = &text[last.text_offset..at];
                // On the same line: no line terminator between them.
                (!between.bytes().any(|b| b == b'\n' || b == b'\r')).then(|| {
                    let (mut chars, mut utf16) = (0, 0);
                    for c in between.chars() {
                        chars += 1;
                        utf16 += c.len_utf16();
                    }
                    Location {
                        line: last.line,
                        column: last.column + chars,
                        column_utf16: last.column_utf16 + utf16,
                        offset: source.report_offset(text_offset),
                        text_offset,
                    }
                })
            }
            _ => None,
        };
        let location = found.unwrap_or_else(|| Location::of(source, text_offset));
        self.last = Some(Location {
            text_offset: at,
            ..location
        });
        location
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

/// How many of a diagnostic's other places ([`Diagnostic::also`]) the reports meant for people
/// (terminal, SARIF viewers, editors) list; the JSON report lists every one.
pub const ALSO_SHOWN: usize = 100;

/// The messages and helps of one file's diagnostics, each kept once: 100,000 findings of the
/// same hidden character share one message instead of holding 100,000 copies.
#[derive(Debug, Default)]
pub struct Strings(std::collections::HashSet<Arc<str>>, Option<Arc<str>>);

impl Strings {
    /// `s`, shared with every earlier string equal to it.
    pub fn share(&mut self, s: String) -> Arc<str> {
        // The message of every withheld finding (its words are put off): kept aside, not
        // hashed once per finding.
        if s.is_empty() {
            return self.1.get_or_insert_with(|| Arc::from("")).clone();
        }
        if let Some(known) = self.0.get(s.as_str()) {
            return known.clone();
        }
        let shared: Arc<str> = Arc::from(s);
        self.0.insert(shared.clone());
        shared
    }

    /// [`Strings::share`] for a string already shared elsewhere.
    pub fn share_arc(&mut self, s: &Arc<str>) -> Arc<str> {
        if let Some(known) = self.0.get(&**s) {
            return known.clone();
        }
        self.0.insert(s.clone());
        s.clone()
    }
}

/// One reported problem, located in its document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule id.
    pub rule: &'static str,
    /// Severity after configuration.
    pub severity: Severity,
    /// What is wrong (shared with the file's other diagnostics that say the same, [`Strings`]).
    pub message: Arc<str>,
    /// What to write instead (shared likewise).
    pub help: Option<Arc<str>>,
    /// Start of the characters at fault in the source.
    pub start: Location,
    /// End (exclusive).
    pub end: Location,
    /// The other places of the same problem in the same IRI component ([`Finding::also`]),
    /// start and end, in order.
    pub also: Vec<(Location, Location)>,
    /// The prepared IRI (`None` for a problem with the document itself), shared by every
    /// diagnostic on the same occurrence: never one copy per finding.
    pub iri: Option<Arc<str>>,
    /// The characters at fault as a byte range of `iri`.
    pub iri_range: Option<Range<usize>>,
    /// The IRI component they are in.
    pub component: Option<Component>,
    /// The RFC 3987 section the rule rests on, if any.
    pub rfc: Option<&'static str>,
    /// Other places that explain the diagnostic.
    pub related: Vec<RelatedLocation>,
    /// The fix, written in the document's syntax, when the rule offers one (boxed: most
    /// diagnostics have none).
    pub fix: Option<Box<fix::Fix>>,
    /// The findings of less specific look-alike rules this one stands for
    /// ([`Finding::withheld`]): not reported, unless a directive suppresses this one by name
    /// ([`crate::suppressions`]).
    pub withheld: Vec<Diagnostic>,
    /// The words of a withheld diagnostic, not built yet ([`crate::rules::Unspoken`]):
    /// `message` is empty and `help` is `None` until [`Diagnostic::speak`].
    pub unspoken: Option<crate::rules::Unspoken>,
}

impl Diagnostic {
    /// Maps `finding`, made on `occurrence` (whose prepared IRI is `iri`, shared), to a
    /// located diagnostic.
    pub fn new(
        source: &Source,
        occurrence: &Occurrence,
        iri: &Arc<str>,
        finding: Finding,
        strings: &mut Strings,
    ) -> Diagnostic {
        Diagnostic::located(
            source,
            occurrence,
            iri,
            finding,
            strings,
            &mut Locator::default(),
        )
    }

    /// [`Diagnostic::new`], its places (and those of the findings it withholds) located by
    /// `locator`.
    fn located(
        source: &Source,
        occurrence: &Occurrence,
        iri: &Arc<str>,
        finding: Finding,
        strings: &mut Strings,
        locator: &mut Locator,
    ) -> Diagnostic {
        let span = occurrence.map.to_source(finding.range.clone());
        let related = occurrence
            .map
            .related_for(finding.range.clone())
            .iter()
            .map(|r| RelatedLocation::new(source, r))
            .collect();
        // A joined fix edits every place: its edits may lie anywhere from the first to the last.
        let last = finding.also.iter().map(|r| r.end).max();
        let fix_span = match last {
            Some(end) if end > finding.range.end => {
                occurrence.map.to_source(finding.range.start..end)
            }
            _ => span.clone(),
        };
        let fix = finding
            .fix
            .map(|mut f| {
                f.message = strings.share_arc(&f.message);
                f
            })
            .and_then(|f| fix::to_source(source, occurrence, fix_span, &f))
            .map(Box::new);
        // Located in order: the finding's places, then those of what it withholds.
        let start = locator.of(source, span.start);
        let end = locator.of(source, span.end);
        let also = finding
            .also
            .into_iter()
            .map(|r| {
                let span = occurrence.map.to_source(r);
                (locator.of(source, span.start), locator.of(source, span.end))
            })
            .collect();
        let withheld = finding
            .withheld
            .into_iter()
            .map(|w| Diagnostic::located(source, occurrence, iri, w, strings, locator))
            .collect();
        Diagnostic {
            rule: finding.rule.id,
            severity: finding.severity,
            message: strings.share(finding.message),
            help: finding.help.map(|h| strings.share(h)),
            start,
            end,
            also,
            iri: Some(iri.clone()),
            iri_range: Some(finding.range),
            component: finding.component,
            rfc: finding.rule.rfc.first().copied(),
            related,
            fix,
            withheld,
            unspoken: finding.unspoken,
        }
    }

    /// Builds the message and help of a withheld diagnostic that comes to speak (its speaker
    /// suppressed by name); one that has its words is left as it is.
    pub fn speak(&mut self) {
        if let Some(words) = self.unspoken.take() {
            let (message, help) = words.build();
            self.message = message.into();
            self.help = help.map(Arc::from);
        }
    }

    /// Locates a document-level `problem`, reported with `severity`.
    pub fn from_problem(source: &Source, problem: &Problem, severity: Severity) -> Diagnostic {
        Diagnostic {
            rule: problem.rule,
            severity,
            message: problem.message.as_str().into(),
            help: problem.help.as_deref().map(Arc::from),
            start: Location::of(source, problem.range.start),
            end: Location::of(source, problem.range.end),
            also: Vec::new(),
            iri: None,
            iri_range: None,
            component: None,
            rfc: crate::rules::rule(problem.rule).and_then(|r| r.rfc.first().copied()),
            related: problem
                .related
                .iter()
                .map(|r| RelatedLocation::new(source, r))
                .collect(),
            fix: problem
                .fix
                .as_ref()
                .and_then(|f| fix::Fix::of_markup(source, f))
                .map(Box::new),
            withheld: Vec::new(),
            unspoken: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Format;

    /// Places located one after another, as a diagnostic and what it withholds are, each the
    /// same as located alone: forwards and back, on one line and across line ends of every
    /// kind, inside characters, past the end; in UTF-8 with and without a BOM, with an
    /// undecodable byte, and in UTF-16.
    #[test]
    fn places_located_in_turn_are_located_as_alone() {
        let text = "see https://g\u{43E}\u{43E}gle.com/p\r\nx\u{1F600}y\u{E9}\rz\n\n\u{430}\u{440}\u{440}\u{4CF}\u{435}.com\r\n\r\nend";
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(text.as_bytes());
        let mut invalid = b"a\xFFb ".to_vec();
        invalid.extend_from_slice(text.as_bytes());
        let mut utf16 = vec![0xFF, 0xFE];
        for u in text.encode_utf16() {
            utf16.extend_from_slice(&u.to_le_bytes());
        }
        let sources = [
            Source::from_text("a.txt".into(), Format::Text, text.to_string()),
            Source::decode("b.txt".into(), Format::Text, &bom).unwrap(),
            Source::decode("c.txt".into(), Format::Text, &invalid).unwrap(),
            Source::decode("d.txt".into(), Format::Text, &utf16).unwrap(),
        ];
        let mut counted = 0;
        for source in &sources {
            let len = source.text.len();
            // Offsets in runs going forwards a few bytes at a time, with jumps back.
            let mut offsets = Vec::new();
            for start in 0..len + 2 {
                for step in 1..4 {
                    offsets.extend((0..6).map(|k| start + k * step));
                    offsets.push(start.saturating_sub(step * 5));
                }
            }
            let mut locator = Locator::default();
            for &at in &offsets {
                let before = locator.last;
                let alone = Location::of(source, at);
                assert_eq!(locator.of(source, at), alone, "{} at {at}", source.path);
                if before.is_some_and(|b| b.line == alone.line && b.text_offset <= at) {
                    counted += 1;
                }
            }
        }
        // Most were counted on from the place before.
        assert!(counted > 1000, "{counted}");
    }
}
