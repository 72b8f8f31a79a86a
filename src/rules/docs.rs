//! Rule documentation: `rules/<id>.md`, compiled into the binary.
//!
//! A doc starts with `# <id>`, then a `> ` summary line, then sections. Its examples are fenced
//! blocks: `iri-fail` (each line is an IRI that must trigger the rule) or `iri-pass` (no line
//! may); for rules about documents, `<format>-fail` / `<format>-pass` (`xml-fail`, `html-pass`)
//! where the whole block is one document. `\u{...}` stands for the character, so docs never hold
//! invisible characters raw. A test runs every example through the engine.
//!
//! A document example is a file: its text is saved in UTF-8, or in the encoding named after the
//! format (`html-fail windows-1252`, `xml-pass shift_jis`, `text-fail utf-16le`), and `\x{HH}`
//! stands for the byte 0xHH as is (a byte order mark, a byte that is not valid in the encoding).

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
    /// For a document, the label of the encoding it is saved in (`None`: UTF-8).
    pub encoding: Option<String>,
    /// The IRI or the document, `\u{...}` escapes decoded.
    pub text: String,
}

impl Example {
    /// The document as a file: its text in its encoding, with `\x{HH}` as raw bytes. `None`
    /// for an encoding label that names no encoding.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        let label = self.encoding.as_deref().unwrap_or("utf-8");
        // encoding_rs encodes UTF-16 as UTF-8 (the WHATWG "output encoding"), so UTF-16 is
        // written here.
        let utf16 = |s: &str, to_bytes: fn(u16) -> [u8; 2]| -> Vec<u8> {
            s.encode_utf16().flat_map(to_bytes).collect()
        };
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes())?;
        let encode = |s: &str| -> Vec<u8> {
            if label.eq_ignore_ascii_case("utf-16le") {
                utf16(s, u16::to_le_bytes)
            } else if label.eq_ignore_ascii_case("utf-16be") {
                utf16(s, u16::to_be_bytes)
            } else {
                encoding.encode(s).0.into_owned()
            }
        };
        let mut out = Vec::new();
        let mut rest = self.text.as_str();
        while let Some(at) = rest.find("\\x{") {
            out.extend(encode(&rest[..at]));
            let after = &rest[at + 3..];
            match after
                .find('}')
                .and_then(|close| Some((u8::from_str_radix(&after[..close], 16).ok()?, close)))
            {
                Some((byte, close)) => {
                    out.push(byte);
                    rest = &after[close + 1..];
                }
                None => {
                    out.extend(encode("\\x{"));
                    rest = after;
                }
            }
        }
        out.extend(encode(rest));
        Some(out)
    }
}

/// Where the reader of a doc is.
enum State<'a> {
    Prose,
    /// Inside an example block: expectation, format (`None` for IRIs), encoding, lines.
    Example(Expect, Option<String>, Option<String>, Vec<&'a str>),
    /// Inside some other fenced block.
    Other,
}

/// The examples of a doc, with `\u{...}` escapes decoded.
pub fn examples(doc: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut state = State::Prose;
    for line in doc.lines() {
        let Some(info) = line.trim().strip_prefix("```") else {
            if let State::Example(_, _, _, lines) = &mut state {
                lines.push(line);
            }
            continue;
        };
        state = match state {
            State::Prose => {
                let mut words = info.split_whitespace();
                let kind = words.next().unwrap_or("");
                let encoding = words.next().map(str::to_string);
                let parsed = kind
                    .strip_suffix("-fail")
                    .map(|f| (Expect::Fires, f))
                    .or_else(|| kind.strip_suffix("-pass").map(|f| (Expect::Quiet, f)));
                match parsed {
                    Some((expect, format)) => State::Example(
                        expect,
                        (format != "iri").then(|| format.to_string()),
                        encoding,
                        Vec::new(),
                    ),
                    None => State::Other,
                }
            }
            State::Example(expect, None, _, lines) => {
                out.extend(lines.iter().filter(|l| !l.is_empty()).map(|l| Example {
                    expect,
                    format: None,
                    encoding: None,
                    text: unescape(l),
                }));
                State::Prose
            }
            State::Example(expect, format, encoding, lines) => {
                out.push(Example {
                    expect,
                    format,
                    encoding,
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
            encoding: None,
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
    fn document_examples_are_files_in_their_encoding() {
        let doc = concat!(
            "```html-fail windows-1252\n<p>caf\\u{E9}\\x{C3}\\x{A9}\\x{zz}\n```\n",
            "```text-pass utf-16le\n\\x{FF}\\x{FE}a\n```\n"
        );
        let ex = examples(doc);
        assert_eq!(ex[0].encoding.as_deref(), Some("windows-1252"));
        assert_eq!(ex[0].bytes().unwrap(), b"<p>caf\xE9\xC3\xA9\\x{zz}");
        assert_eq!(ex[1].bytes().unwrap(), b"\xFF\xFEa\x00");
        let mut unknown = ex[1].clone();
        unknown.encoding = Some("klingon".into());
        assert_eq!(unknown.bytes(), None);
    }

    #[test]
    fn unescape_leaves_malformed_escapes() {
        assert_eq!(unescape("a\\u{zz}b\\u{41}"), "a\\u{zz}bA");
        assert_eq!(unescape("\\u{110000}"), "\\u{110000}");
    }
}
