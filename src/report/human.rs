//! miette's graphical diagnostics, made safe and linear.
//!
//! miette is never given the document. Each diagnostic gets its own [`Snippet`]: the lines it
//! spans, cut to a window around the span on long lines, with every character unsafe to print
//! (bidi controls, invisible and control characters, ESC) replaced by a visible `⟨U+202E⟩`.
//! Building a snippet costs a line lookup and the window's length, so 10,000 diagnostics in one
//! file render in linear time, and nothing from the input reaches the terminal raw.

use std::fmt;
use std::ops::Range;

use miette::{
    Diagnostic as MietteDiagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan,
    MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};

use crate::diagnostic::Diagnostic;

/// How many other places of a problem a terminal report lists (the JSON report has them all).
const ALSO_LISTED: usize = 10;
use crate::iri::chars::escape_unsafe;
use crate::iri::chars::push_visible;
use crate::rules::Severity;
use crate::source::Source;

/// Characters of context shown before and after the span on long lines.
const CONTEXT_CHARS: usize = 40;
/// Lines longer than this (in characters) are cut to a window around the span.
const LONG_LINE_CHARS: usize = 160;
/// At most this many characters of the span itself are shown.
const MAX_SPAN_CHARS: usize = 200;
/// At most this many lines of a multi-line span are shown.
const MAX_LINES: usize = 5;

/// The escaped excerpt of a document that one diagnostic shows.
#[derive(Debug)]
struct Snippet {
    name: String,
    text: String,
    /// 0-based number of the snippet's first line in the document.
    first_line: usize,
    /// 0-based column of the span start in the document (for the `[path:line:col]` header).
    column: usize,
    lines: usize,
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        _span: &SourceSpan,
        _before: usize,
        _after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            self.text.as_bytes(),
            (0, self.text.len()).into(),
            self.first_line,
            self.column,
            self.lines,
        )))
    }
}

/// `n` characters back from `at`, not before `floor`.
fn back_chars(text: &str, floor: usize, at: usize, n: usize) -> usize {
    text[floor..at]
        .char_indices()
        .rev()
        .take(n)
        .last()
        .map_or(at, |(i, _)| floor + i)
}

/// `n` characters forward from `at`, not past `ceil`.
fn forward_chars(text: &str, at: usize, ceil: usize, n: usize) -> usize {
    text[at..ceil]
        .char_indices()
        .nth(n)
        .map_or(ceil, |(i, _)| at + i)
}

/// Appends `text[r]` to `out`, escaping what must not be printed; a TAB outside the span
/// becomes a space (miette would expand it anyway), inside it is shown as an escape.
fn push_escaped(out: &mut String, text: &str, r: Range<usize>, in_span: bool) {
    for c in text[r].chars() {
        if c == '\t' && !in_span {
            out.push(' ');
        } else {
            push_visible(out, c);
        }
    }
}

/// The snippet for the source range `span`, and the span's range inside the snippet.
fn snippet(source: &Source, span: Range<usize>, column: usize) -> (Snippet, Range<usize>) {
    let text = &source.text;
    let lines = source.lines();
    let first = lines.line_of(text, span.start);
    let last_offset = if span.end > span.start {
        span.end - 1
    } else {
        span.start
    };
    let last = lines.line_of(text, last_offset).min(first + MAX_LINES - 1);
    let mut out = String::new();
    let mut label = 0..0;
    for line in first..=last {
        if line > first {
            out.push('\n');
        }
        let lr = lines.line_range(text, line);
        // The part of the span on this line, capped.
        let s = span.start.clamp(lr.start, lr.end);
        let mut e = span.end.clamp(s, lr.end);
        let capped = forward_chars(text, s, e, MAX_SPAN_CHARS);
        let truncated = capped < e;
        e = capped;
        let long = text[lr.clone()].chars().nth(LONG_LINE_CHARS).is_some();
        let (ws, we) = if long {
            (
                back_chars(text, lr.start, s, CONTEXT_CHARS),
                forward_chars(text, e, lr.end, CONTEXT_CHARS),
            )
        } else {
            (lr.start, lr.end)
        };
        if ws > lr.start {
            out.push('…');
        }
        push_escaped(&mut out, text, ws..s, false);
        if line == first {
            label.start = out.len();
        }
        push_escaped(&mut out, text, s..e, true);
        if truncated {
            out.push('…');
        }
        // A span that covers the line break itself (a CR LF inside an attribute value) shows
        // the break as escapes, so that there is something to underline.
        let next_line = if line + 1 < lines.len() {
            lines.line_range(text, line + 1).start
        } else {
            text.len()
        };
        let (ts, te) = (span.start.max(lr.end), span.end.min(next_line));
        if !truncated && ts < te {
            push_escaped(&mut out, text, ts..te, true);
        }
        label.end = out.len();
        push_escaped(&mut out, text, e..we, false);
        if we < lr.end {
            out.push('…');
        }
    }
    let snippet = Snippet {
        name: escape_unsafe(&source.path),
        text: out,
        first_line: first,
        column,
        lines: last - first + 1,
    };
    (snippet, label)
}

/// One diagnostic in the shape miette renders.
#[derive(Debug)]
struct Rendered<'a> {
    diagnostic: &'a Diagnostic,
    message: String,
    help: String,
    /// The excerpt; `None` when the document is no longer in memory.
    snippet: Option<Snippet>,
    label: Range<usize>,
}

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rendered<'_> {}

impl MietteDiagnostic for Rendered<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diagnostic.rule))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        (!self.help.is_empty()).then(|| Box::new(&self.help) as Box<dyn fmt::Display + 'b>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.snippet.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.snippet.as_ref()?;
        let text = self
            .diagnostic
            .component
            .map(|c| format!("in the {c}"))
            .unwrap_or_else(|| "here".to_string());
        let len = self.label.len().max(1);
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(text), (self.label.start, len)),
        )))
    }
}

/// Renders diagnostics of one document with miette.
pub struct HumanRenderer {
    handler: GraphicalReportHandler,
}

impl HumanRenderer {
    /// A renderer with or without colour.
    pub fn new(color: bool) -> HumanRenderer {
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        HumanRenderer {
            handler: GraphicalReportHandler::new_themed(theme).with_width(100),
        }
    }

    /// Every diagnostic of `source`, rendered.
    pub fn render_file(&self, source: &Source, diagnostics: &[Diagnostic]) -> String {
        let mut out = String::new();
        for d in diagnostics {
            let (snippet, label) = snippet(
                source,
                d.start.text_offset..d.end.text_offset,
                d.start.column - 1,
            );
            let rendered = Rendered {
                diagnostic: d,
                message: escape_unsafe(&d.message),
                help: help_text(d),
                snippet: Some(snippet),
                label,
            };
            // Rendering into a String cannot fail.
            let _ = self.handler.render_report(&mut out, &rendered);
            out.push('\n');
        }
        out
    }

    /// Diagnostics of the document at `path` rendered after the run, without its text: the
    /// place as `path:line:col`, every related place as a note (project-level rules).
    pub fn render_detached(&self, path: &str, diagnostics: &[Diagnostic]) -> String {
        let mut out = String::new();
        for d in diagnostics {
            let rendered = Rendered {
                diagnostic: d,
                message: format!(
                    "{}:{}:{}: {}",
                    escape_unsafe(path),
                    d.start.line,
                    d.start.column,
                    escape_unsafe(&d.message)
                ),
                help: help_text(d),
                snippet: None,
                label: 0..0,
            };
            let _ = self.handler.render_report(&mut out, &rendered);
            out.push('\n');
        }
        out
    }
}

/// The `help` of `d` with its RFC section, then a `note:` line for every related place.
fn help_text(d: &Diagnostic) -> String {
    let mut help = match (&d.help, d.rfc) {
        (Some(h), Some(rfc)) => format!("{} (RFC 3987 §{rfc})", escape_unsafe(h)),
        (Some(h), None) => escape_unsafe(h),
        (None, Some(rfc)) => format!("see RFC 3987 §{rfc}"),
        (None, None) => String::new(),
    };
    push_related(&mut help, d);
    push_also(&mut help, d);
    if let Some(fix) = &d.fix {
        // As ruff's `[*]`: say that `--fix` (or `--unsafe-fixes`) can make the change.
        help.push_str(&format!(
            "\nfix available ({}): {}",
            fix.applicability.name(),
            escape_unsafe(&fix.message)
        ));
    }
    help
}

/// Appends a `note:` line to `help` listing the other places of `d`'s problem (line:column),
/// the first [`ALSO_LISTED`] of them.
fn push_also(help: &mut String, d: &Diagnostic) {
    if d.also.is_empty() {
        return;
    }
    let places: Vec<String> = d
        .also
        .iter()
        .take(ALSO_LISTED)
        .map(|(start, _)| format!("{}:{}", start.line, start.column))
        .collect();
    let more = d.also.len().saturating_sub(ALSO_LISTED);
    help.push_str(&format!(
        "
note: also at {}",
        places.join(", ")
    ));
    if more > 0 {
        help.push_str(&format!(" and {more} more"));
    }
}

/// Appends a `note:` line to `help` for every related place of `d`.
fn push_related(help: &mut String, d: &Diagnostic) {
    for r in &d.related {
        let place = match &r.path {
            Some(path) => format!(
                "{}:{}:{}",
                escape_unsafe(path),
                r.start.line,
                r.start.column
            ),
            None => format!("line {}, column {}", r.start.line, r.start.column),
        };
        help.push_str(&format!("\nnote: {} ({place})", escape_unsafe(&r.label)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{CheckOptions, check_source};
    use crate::rules::Selection;
    use crate::source::Format;

    fn render(text: &str) -> String {
        let source = Source::decode("doc.txt".into(), Format::Text, text.as_bytes()).unwrap();
        let selection = Selection::default();
        let outcome = check_source(&source, &CheckOptions::new(&selection));
        HumanRenderer::new(false).render_file(&source, &outcome.diagnostics)
    }

    #[test]
    fn hidden_characters_are_shown_as_escapes() {
        let out = render("line one\nsee http://example.org/\u{202E}gnp.exe\u{1B}[2J now\n");
        assert!(out.contains("bidi-formatting-character"), "{out}");
        assert!(out.contains("⟨U+202E⟩gnp.exe⟨U+001B⟩[2J"), "{out}");
        assert!(out.contains("[doc.txt:2:24]"), "{out}");
        assert!(
            !out.chars().any(|c| c == '\u{202E}' || c == '\u{1B}'),
            "raw character in output: {out:?}"
        );
    }

    #[test]
    fn a_span_on_a_line_break_is_visible() {
        let source = Source::decode(
            "d.html".into(),
            Format::Html,
            b"<a href=\"http://a/x\r\ny\">",
        )
        .unwrap();
        let selection = Selection::default();
        let outcome = check_source(&source, &CheckOptions::new(&selection));
        let out = HumanRenderer::new(false).render_file(&source, &outcome.diagnostics);
        assert!(out.contains("http://a/x⟨U+000D⟩⟨U+000A⟩"), "{out}");
        assert!(out.contains("────"), "underlined: {out}");
    }

    #[test]
    fn long_lines_are_windowed() {
        let text = format!(
            "{} http://example.org/a\u{202E}b {}",
            "x".repeat(5000),
            "y".repeat(5000)
        );
        let out = render(&text);
        assert!(out.len() < 2000, "{} bytes", out.len());
        assert!(out.contains("…"), "{out}");
        assert!(out.contains("[doc.txt:1:5022]"), "{out}");
    }
}
