//! Rule documentation: `rules/<id>.md`, compiled into the binary.
//!
//! A doc starts with `# <id>`, then a `> ` summary line, then sections. Its examples are fenced
//! blocks: `iri-fail` (each line is an IRI that must trigger the rule) or `iri-pass` (no line
//! may); for rules about documents, `<format>-fail` / `<format>-pass` (`xml-fail`, `html-pass`)
//! where the whole block is one document. `\u{...}` stands for the character, so docs never hold
//! invisible characters raw. A test runs every example through the engine.

/// The summary: the first line that starts with `> `.
pub fn summary(doc: &str) -> &str {
    doc.lines()
        .find_map(|l| l.strip_prefix("> "))
        .unwrap_or("")
        .trim()
}

/// Whether an example must trigger the rule or must not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// From an `iri-fail` block.
    Fires,
    /// From an `iri-pass` block.
    Quiet,
}

/// One example of a doc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// Must fire or must stay quiet.
    pub expect: Expect,
    /// `None` for an IRI; a format name (`xml`) for a whole document.
    pub format: Option<String>,
    /// The IRI or the document, escapes decoded.
    pub text: String,
}

/// Where the reader of a doc is.
enum State<'a> {
    Prose,
    /// Inside an example block.
    Example(Expect, Option<String>, Vec<&'a str>),
    /// Inside some other fenced block.
    Other,
}

/// The examples of a doc, with `\u{...}` escapes decoded.
pub fn examples(doc: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut state = State::Prose;
    for line in doc.lines() {
        let Some(info) = line.trim().strip_prefix("```") else {
            if let State::Example(_, _, lines) = &mut state {
                lines.push(line);
            }
            continue;
        };
        state = match state {
            State::Prose => {
                let info = info.trim();
                let parsed = info
                    .strip_suffix("-fail")
                    .map(|f| (Expect::Fires, f))
                    .or_else(|| info.strip_suffix("-pass").map(|f| (Expect::Quiet, f)));
                match parsed {
                    Some((expect, format)) => State::Example(
                        expect,
                        (format != "iri").then(|| format.to_string()),
                        Vec::new(),
                    ),
                    None => State::Other,
                }
            }
            State::Example(expect, None, lines) => {
                out.extend(lines.iter().filter(|l| !l.is_empty()).map(|l| Example {
                    expect,
                    format: None,
                    text: unescape(l),
                }));
                State::Prose
            }
            State::Example(expect, format, lines) => {
                out.push(Example {
                    expect,
                    format,
                    text: unescape(&lines.join("\n")),
                });
                State::Prose
            }
            State::Other => State::Prose,
        };
    }
    out
}

/// Decodes `\u{XXXX}` escapes; anything else is kept as written.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find("\\u{") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 3..];
        let decoded = after.find('}').and_then(|close| {
            let c = u32::from_str_radix(&after[..close], 16)
                .ok()
                .and_then(char::from_u32)?;
            Some((c, close))
        });
        match decoded {
            Some((c, close)) => {
                out.push(c);
                rest = &after[close + 1..];
            }
            None => {
                out.push_str("\\u{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_summary_and_examples() {
        let doc = "# x\n\n> Says hi.\n\n```iri-fail\nhttp://a/\\u{202E}b\n```\n\n```iri-pass\nhttp://a/\n```\n```text\nnot an example\n```\n";
        assert_eq!(summary(doc), "Says hi.");
        let ex = |expect, format: Option<&str>, text: &str| Example {
            expect,
            format: format.map(str::to_string),
            text: text.to_string(),
        };
        assert_eq!(
            examples(doc),
            [
                ex(Expect::Fires, None, "http://a/\u{202E}b"),
                ex(Expect::Quiet, None, "http://a/")
            ]
        );
        let doc = "```xml-fail\n<a>\n  <b/>\n</a>\n```\n```html-pass\n<p>\n```\n";
        assert_eq!(
            examples(doc),
            [
                ex(Expect::Fires, Some("xml"), "<a>\n  <b/>\n</a>"),
                ex(Expect::Quiet, Some("html"), "<p>")
            ]
        );
    }

    #[test]
    fn unescape_leaves_malformed_escapes() {
        assert_eq!(unescape("a\\u{zz}b\\u{41}"), "a\\u{zz}bA");
        assert_eq!(unescape("\\u{110000}"), "\\u{110000}");
    }
}
