//! Code actions: "suppress RULE on this line" and "suppress RULE in this file", written in the
//! document's own comment syntax (and, once fixes exist, each fix as a quick fix).

use std::collections::HashMap;
use std::ops::Range;

use lsp_types::{CodeAction, CodeActionKind, TextEdit, Uri, WorkspaceEdit};

use super::positions::Lines;
use crate::diagnostic::Diagnostic;
use crate::source::Format;

/// One edit to the document: replace `range` (bytes) with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Insertion {
    /// Where, in bytes of the text (empty for an insertion).
    pub range: Range<usize>,
    /// What to write there.
    pub text: String,
}

/// The comment around a directive in a format, for a file named `path`.
fn wrap(format: Format, path: &str, directive: &str) -> String {
    match format {
        Format::Text => {
            let ext = path.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
            let leader = match ext.as_str() {
                "rst" => ".. ",
                "adoc" | "asciidoc" | "asc" => "// ",
                "tex" | "sty" => "% ",
                "py" | "sh" | "toml" | "yaml" | "yml" | "cfg" | "conf" | "ini" => "# ",
                _ => "",
            };
            format!("{leader}{directive}")
        }
        Format::Rst => format!(".. {directive}"),
        // A package is never opened as one document (its parts are).
        Format::Epub | Format::OpenDocument | Format::Ooxml | Format::Pdf => directive.to_string(),
        Format::Asciidoc => format!("// {directive}"),
        Format::Html | Format::Xml | Format::Markdown => format!("<!-- {directive} -->"),
    }
}

/// The line ending the document uses (that of its first line break).
fn line_ending(text: &str) -> &'static str {
    match text.find('\n') {
        Some(k) if k > 0 && text.as_bytes()[k - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// The edit that silences `rule` on line `line` (0-based) of `text`, or `None` where a
/// directive cannot go before it (the line of an XML declaration, a line inside a
/// reStructuredText paragraph).
pub fn suppress_line(
    text: &str,
    lines: &crate::line_index::LineIndex,
    format: Format,
    path: &str,
    line: usize,
    rule: &str,
) -> Option<Insertion> {
    let directive = format!("irilint-disable-next-line {rule}");
    let comment = wrap(format, path, &directive);
    let eol = line_ending(text);
    let this = lines.line_range(text, line);
    let content = &text[this.clone()];
    if format == Format::Xml
        && line == 0
        && content.trim_start_matches('\u{FEFF}').starts_with("<?xml")
    {
        return None;
    }
    if format == Format::Markdown && line > 0 {
        // Inside a paragraph a comment on a line of its own would start an HTML block and
        // split the paragraph: after the end of the line before, it is inline HTML instead.
        let before = lines.line_range(text, line - 1);
        if !text[before.clone()].trim().is_empty() {
            return Some(Insertion {
                range: before.end..before.end,
                text: format!(" {comment}"),
            });
        }
    }
    // In reStructuredText a comment is a block of its own: inside a paragraph it would be read
    // as the paragraph's text, and before one it ends at a blank line (the directive silences
    // the first line after it that is not blank).
    let mut after = "";
    if format == Format::Rst {
        if line > 0 && !text[lines.line_range(text, line - 1)].trim().is_empty() {
            return None;
        }
        after = eol;
    }
    // The line's indentation (and a block quote's `>` markers in Markdown).
    let indent_len = content
        .find(|c: char| !(c == ' ' || c == '\t' || (format == Format::Markdown && c == '>')))
        .unwrap_or(content.len());
    let indent = &content[..indent_len];
    Some(Insertion {
        range: this.start..this.start,
        text: format!("{indent}{comment}{eol}{after}"),
    })
}

/// The edit that silences `rule` in the whole document: a directive at its end.
pub fn suppress_file(text: &str, format: Format, path: &str, rule: &str) -> Insertion {
    let eol = line_ending(text);
    let comment = wrap(format, path, &format!("irilint-disable-file {rule}"));
    let sep = if text.is_empty() || text.ends_with('\n') || text.ends_with('\r') {
        ""
    } else {
        eol
    };
    Insertion {
        range: text.len()..text.len(),
        text: format!("{sep}{comment}{eol}"),
    }
}

/// A quick fix named `title` made of `edits`, attached to `diagnostic`.
pub fn action(
    title: String,
    uri: &Uri,
    lines: &Lines<'_>,
    edits: &[Insertion],
    diagnostic: Option<lsp_types::Diagnostic>,
    preferred: bool,
) -> CodeAction {
    let edits = edits
        .iter()
        .map(|e| TextEdit::new(lines.range(e.range.start, e.range.end), e.text.clone()))
        .collect();
    CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: diagnostic.map(|d| vec![d]),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }),
        is_preferred: preferred.then_some(true),
        ..CodeAction::default()
    }
}

/// Whether `d` touches the byte range `range` (an empty range touches what it is in or next to).
pub fn overlaps(d: &Diagnostic, range: &Range<usize>) -> bool {
    d.start.text_offset <= range.end && range.start <= d.end.text_offset
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line_index::LineIndex;

    fn apply(text: &str, e: &Insertion) -> String {
        format!(
            "{}{}{}",
            &text[..e.range.start],
            e.text,
            &text[e.range.end..]
        )
    }

    fn line(text: &str, format: Format, path: &str, n: usize) -> Option<String> {
        let lines = LineIndex::new(text);
        suppress_line(text, &lines, format, path, n, "invisible-character").map(|e| apply(text, &e))
    }

    #[test]
    fn a_line_directive_keeps_indentation_and_line_endings() {
        assert_eq!(
            line("<p>\r\n  <a href=x>\r\n", Format::Html, "a.html", 1).unwrap(),
            "<p>\r\n  <!-- irilint-disable-next-line invisible-character -->\r\n  <a href=x>\r\n"
        );
        assert_eq!(
            line("intro\n\nhttp://x/\n", Format::Text, "notes.rst", 2).unwrap(),
            "intro\n\n.. irilint-disable-next-line invisible-character\nhttp://x/\n"
        );
        assert_eq!(
            line("http://x/\n", Format::Text, "a.txt", 0).unwrap(),
            "irilint-disable-next-line invisible-character\nhttp://x/\n"
        );
    }

    #[test]
    fn restructuredtext_and_asciidoc_directives_are_comments() {
        assert_eq!(
            line("Intro.\n\n  `x <http://x/>`_\n", Format::Rst, "a.rst", 2).unwrap(),
            "Intro.\n\n  .. irilint-disable-next-line invisible-character\n\n  `x <http://x/>`_\n"
        );
        assert_eq!(
            line("`x <http://x/>`_\r\n", Format::Rst, "a.rst", 0).unwrap(),
            ".. irilint-disable-next-line invisible-character\r\n\r\n`x <http://x/>`_\r\n"
        );
        // Inside a paragraph a comment would be its text: no line action there.
        assert_eq!(
            line("Intro\nsee `x <http://x/>`_\n", Format::Rst, "a.rst", 1),
            None
        );
        assert_eq!(
            line("= T\n\nlink:http://x/[x]\n", Format::Asciidoc, "a.adoc", 2).unwrap(),
            "= T\n\n// irilint-disable-next-line invisible-character\nlink:http://x/[x]\n"
        );
        let e = suppress_file("x\n", Format::Asciidoc, "a.adoc", "bidi");
        assert_eq!(apply("x\n", &e), "x\n// irilint-disable-file bidi\n");
    }

    #[test]
    fn markdown_paragraphs_are_not_split() {
        assert_eq!(
            line("Some text\nsee <http://x/>\n", Format::Markdown, "a.md", 1).unwrap(),
            "Some text <!-- irilint-disable-next-line invisible-character -->\nsee <http://x/>\n"
        );
        assert_eq!(
            line("# T\n\n> see <http://x/>\n", Format::Markdown, "a.md", 2).unwrap(),
            "# T\n\n> <!-- irilint-disable-next-line invisible-character -->\n> see <http://x/>\n"
        );
    }

    #[test]
    fn nothing_goes_before_an_xml_declaration_but_a_file_directive_goes_at_the_end() {
        let text = "<?xml version=\"1.0\"?><svg/>";
        assert_eq!(line(text, Format::Xml, "a.svg", 0), None);
        let e = suppress_file(text, Format::Xml, "a.svg", "bidi");
        assert_eq!(
            apply(text, &e),
            "<?xml version=\"1.0\"?><svg/>\n<!-- irilint-disable-file bidi -->\n"
        );
    }
}
