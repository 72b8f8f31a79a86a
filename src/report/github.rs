//! GitHub Actions workflow commands (`--format github`): one `::error`, `::warning` or `::notice`
//! line per diagnostic, which the runner turns into annotations on the pull request.
//!
//! GitHub decodes `%25`, `%0D` and `%0A` in a command's message, and also `%3A` and `%2C` in its
//! properties; everything from the input goes out with hidden characters as visible `⟨U+202E⟩`
//! escapes first and then with GitHub's escapes, so that no input can end a command early or
//! start another.

use super::place::Places;
use crate::check::RunOutcome;
use crate::diagnostic::Diagnostic;
use crate::iri::chars::escape_unsafe;
use crate::rules::Severity;

/// The workflow commands for a run.
pub fn render(outcome: &RunOutcome, places: &Places) -> String {
    let mut out = String::new();
    for file in &outcome.files {
        let path = places.display(&file.path);
        for d in &file.diagnostics {
            out.push_str(&annotation(d, &path));
        }
    }
    for (e, command) in outcome
        .errors
        .iter()
        .map(|e| (e, "error"))
        .chain(outcome.skipped.iter().map(|e| (e, "notice")))
    {
        out.push_str(&format!(
            "::{command} file={},title=irilint::{}\n",
            property(&places.display(&e.path)),
            data(&e.message)
        ));
    }
    out
}

fn annotation(d: &Diagnostic, path: &str) -> String {
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let mut props = format!(
        "file={},line={},endLine={}",
        property(path),
        d.start.line,
        d.end.line
    );
    // GitHub takes columns only for an annotation on a single line.
    if d.start.line == d.end.line {
        props.push_str(&format!(
            ",col={},endColumn={}",
            d.start.column_utf16, d.end.column_utf16
        ));
    }
    props.push_str(&format!(
        ",title={}",
        property(&format!("irilint ({})", d.rule))
    ));
    let mut message = d.message.to_string();
    if let Some(help) = &d.help {
        // A line break of our own, escaped below like any other.
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    format!("::{command} {props}::{}\n", data(&message))
}

/// A command's message: hidden characters made visible (our own line breaks kept), then `%`,
/// CR and LF escaped as GitHub decodes them.
pub fn data(s: &str) -> String {
    super::visible_lines(s)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value: as [`data`], and `:` and `,` escaped too; no line break survives.
pub fn property(s: &str) -> String {
    escape_unsafe(s)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
        .replace(':', "%3A")
        .replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_and_properties_are_escaped_as_github_decodes_them() {
        assert_eq!(data("100% a\nb"), "100%25 a%0Ab");
        assert_eq!(
            data("a\rb\u{202E}c\u{1b}[2J"),
            "a⟨U+000D⟩b⟨U+202E⟩c⟨U+001B⟩[2J"
        );
        assert_eq!(property("a:b,c%d"), "a%3Ab%2Cc%25d");
        assert_eq!(property("a\nb"), "a⟨U+000A⟩b");
    }
}
