//! Rule documentation: `rules/<id>.md`, compiled into the binary.
//!
//! A doc starts with `# <id>`, then a `> ` summary line, then sections. Its examples are fenced
//! blocks with the info string `iri-fail` (each line must trigger the rule) or `iri-pass` (no
//! line may); `\u{...}` in them stands for the character, so docs never hold invisible
//! characters raw. A test runs every example through the engine.

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

/// The examples of a doc, with `\u{...}` escapes decoded.
pub fn examples(doc: &str) -> Vec<(Expect, String)> {
    let mut out = Vec::new();
    let mut current = None;
    for line in doc.lines() {
        let trimmed = line.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            current = match (current, info.trim()) {
                (None, "iri-fail") => Some(Expect::Fires),
                (None, "iri-pass") => Some(Expect::Quiet),
                _ => None,
            };
            continue;
        }
        if let Some(expect) = current
            && !line.is_empty()
        {
            out.push((expect, unescape(line)));
        }
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
        assert_eq!(
            examples(doc),
            [
                (Expect::Fires, "http://a/\u{202E}b".to_string()),
                (Expect::Quiet, "http://a/".to_string())
            ]
        );
    }

    #[test]
    fn unescape_leaves_malformed_escapes() {
        assert_eq!(unescape("a\\u{zz}b\\u{41}"), "a\\u{zz}bA");
        assert_eq!(unescape("\\u{110000}"), "\\u{110000}");
    }
}
