//! JUnit XML (`--format junit`), as Jenkins and GitLab read test reports: one test suite, one
//! test case per file (named by its path), one `<failure>` per diagnostic; files that could not
//! be read are test cases with an `<error>`, named binary files skipped ones.
//!
//! The shape is the common subset of Jenkins' schema (xunit plugin `junit-10.xsd`, which for
//! instance allows no `file` attribute on a test case) and what GitLab parses; `tests/junit.xsd`
//! holds it and a test validates every report against it. Text from the input goes out with
//! hidden characters — C0 controls and others XML 1.0 forbids among them — as visible
//! `⟨U+001B⟩` escapes, then XML-escaped.

use super::place::Places;
use crate::check::RunOutcome;
use crate::diagnostic::Diagnostic;
use crate::iri::chars::escape_unsafe;

/// The JUnit report of a run.
pub fn render(outcome: &RunOutcome, places: &Places) -> String {
    let mut cases = String::new();
    let (mut failures, mut errors) = (0, 0);
    for file in &outcome.files {
        let path = places.display(&file.path);
        cases.push_str(&format!(
            "    <testcase name=\"{}\" classname=\"irilint\"",
            xml(&path)
        ));
        if file.diagnostics.is_empty() {
            cases.push_str("/>\n");
            continue;
        }
        cases.push_str(">\n");
        for d in &file.diagnostics {
            failures += 1;
            cases.push_str(&failure(d, &path));
        }
        cases.push_str("    </testcase>\n");
    }
    for (e, element) in outcome
        .errors
        .iter()
        .map(|e| (e, "error"))
        .chain(outcome.skipped.iter().map(|e| (e, "skipped")))
    {
        if element == "error" {
            errors += 1;
        }
        cases.push_str(&format!(
            "    <testcase name=\"{}\" classname=\"irilint\">\n      <{element} message=\"{}\"/>\n    </testcase>\n",
            xml(&places.display(&e.path)),
            xml(&e.message),
        ));
    }
    let tests = outcome.files.len() + outcome.errors.len() + outcome.skipped.len();
    let counts = format!("tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\"",);
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"irilint\" {counts}>\n  <testsuite name=\"irilint\" {counts} skipped=\"{}\">\n{cases}  </testsuite>\n</testsuites>\n",
        outcome.skipped.len(),
    )
}

fn failure(d: &Diagnostic, path: &str) -> String {
    let mut body = format!(
        "{path}:{}:{}: {}[{}] {}",
        d.start.line,
        d.start.column,
        d.severity.name(),
        d.rule,
        d.message
    );
    if let Some(help) = &d.help {
        body.push_str(&format!("\nhelp: {help}"));
    }
    if let Some(iri) = &d.iri {
        body.push_str(&format!("\nIRI: {iri}"));
    }
    format!(
        "      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
        d.rule,
        xml(&d.message),
        xml_lines(&body)
    )
}

/// [`xml`] line by line, the line feeds kept: element text of our own making.
fn xml_lines(s: &str) -> String {
    let lines: Vec<String> = s.split('\n').map(xml).collect();
    lines.join("\n")
}

/// Text for an attribute or element: hidden characters (every character XML 1.0 forbids
/// among them) made visible, then `&`, `<`, `>`, `"` and `'` written as references.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in escape_unsafe(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_forbidden_characters_are_escaped() {
        assert_eq!(xml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(
            xml("\u{1b}[31m\u{0}\u{202E}\u{FFFE}\r\n"),
            "⟨U+001B⟩[31m⟨U+0000⟩⟨U+202E⟩⟨U+FFFE⟩⟨U+000D⟩⟨U+000A⟩"
        );
    }
}
