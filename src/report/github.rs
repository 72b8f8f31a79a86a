//! GitHub Actions workflow commands (`--format github`): one `::error`, `::warning` or `::notice`
//! line per diagnostic, which the runner turns into annotations on the pull request.
//!
//! GitHub decodes `%25`, `%0D` and `%0A` in a command's message, and also `%3A` and `%2C` in its
//! properties; everything from the input goes out with hidden characters as visible `⟨U+202E⟩`
//! escapes first and then with GitHub's escapes, so that no input can end a command early or
//! start another.

use super::Summary;
use super::place::Places;
use crate::check::{FileOutcome, Run, RunOutcome};
use crate::diagnostic::Diagnostic;
use crate::iri::chars::escape_unsafe;
use crate::rules::Severity;

/// The workflow commands for a run.
pub fn render(outcome: &RunOutcome, places: &Places) -> String {
    let mut out = Vec::new();
    let unread = std::cell::RefCell::new(outcome.unread());
    write_files(outcome.files.iter(), &unread, places, &mut out)
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("annotations are UTF-8")
}

/// Writes the annotations of the files `files` gives, in order, as each comes
/// ([`crate::check::run_ordered`]), then those of `unread` (read after the last file). Returns
/// the run's summary.
pub fn write_files<F: std::borrow::Borrow<FileOutcome>>(
    files: impl Iterator<Item = F>,
    unread: &std::cell::RefCell<Run<()>>,
    places: &Places,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Summary> {
    let mut summary = Summary::default();
    for file in files {
        let file = file.borrow();
        summary.add(file);
        let path = places.display(&file.path);
        for d in &file.diagnostics {
            out.write_all(annotation(d, &path).as_bytes())?;
        }
        for u in super::Unlisted::of(file) {
            out.write_all(
                format!(
                    "::notice file={},title=irilint::{}\n",
                    property(&path),
                    data(&u.notice())
                )
                .as_bytes(),
            )?;
        }
    }
    let unread = unread.borrow();
    for (e, command) in unread
        .errors
        .iter()
        .map(|e| (e, "error"))
        .chain(unread.skipped.iter().map(|e| (e, "notice")))
    {
        out.write_all(
            format!(
                "::{command} file={},title=irilint::{}\n",
                property(&places.display(&e.path)),
                data(&e.message)
            )
            .as_bytes(),
        )?;
    }
    Ok(summary)
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
