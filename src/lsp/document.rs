//! An open document as the editor has it: its text and version, where it lives, and the
//! [`Source`] irilint checks.

use std::path::{Path, PathBuf};

use encoding_rs::UTF_8;
use lsp_types::Uri;

use crate::iri::chars::escape_unsafe;
use crate::source::{Format, Source};

/// A document the client opened.
#[derive(Debug, Clone)]
pub struct Document {
    /// The client's name for it.
    pub uri: Uri,
    /// Its file, for `file:` URIs.
    pub path: Option<PathBuf>,
    /// The client's language id (`html`, `markdown`, ...).
    pub language_id: String,
    /// The client's version of the text.
    pub version: i32,
    /// The text, as the editor shows it.
    pub text: String,
}

impl Document {
    /// The format chosen by language id, then by the file's extension; `None` when irilint
    /// does not read this kind of document.
    pub fn format(&self) -> Option<Format> {
        by_language_id(&self.language_id).or_else(|| {
            let path = self
                .path
                .clone()
                .unwrap_or_else(|| PathBuf::from(self.uri.as_str()));
            Format::for_file(&path, self.text.as_bytes())
        })
    }

    /// The path shown in messages: the file's, or the URI.
    pub fn display(&self) -> String {
        match &self.path {
            Some(p) => p.display().to_string(),
            None => self.uri.as_str().to_string(),
        }
    }

    /// The document as irilint reads it. The editor's text is already decoded; a page that
    /// declares a legacy encoding is checked as the bytes it would be saved as (so the encoding
    /// rules see what the file holds), as long as that round trip gives back the same text —
    /// then every offset is an offset into the editor's text. Otherwise the text is checked as
    /// UTF-8.
    pub fn source(&self, format: Format) -> Source {
        let name = self.display();
        let as_utf8 = Source::decode(name.clone(), format, self.text.as_bytes());
        if let Ok(source) = &as_utf8
            && source.encoding.used != UTF_8
        {
            let (bytes, _, unmappable) = source.encoding.used.encode(&self.text);
            if !unmappable
                && let Ok(legacy) = Source::decode(name.clone(), format, &bytes)
                && legacy.text == self.text
            {
                return legacy;
            }
        }
        match as_utf8 {
            Ok(source) if source.encoding.used == UTF_8 && source.text == self.text => source,
            // A NUL or a BOM the editor kept: checked as the plain text it is.
            _ => Source::from_text(name, format, self.text.clone()),
        }
    }
}

/// The editor's text of a page that declares its encoding, when it is the page's bytes read with
/// another encoding (a Shift_JIS page opened as latin1): what irilint would report then is the
/// misreading, not the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misread {
    /// The encoding the editor used, as users name it (`latin1`, `windows-1252`).
    pub read_as: &'static str,
    /// The encoding the page declares (WHATWG name).
    pub declared: &'static str,
    /// The declaration's label as written (`Shift_JIS`).
    pub label: String,
}

impl Misread {
    /// What the editor is told, once.
    pub fn message(&self, shown: &str) -> String {
        format!(
            "irilint: {} declares {} (`{}`), but the editor decoded it as {}: its text is mojibake, so irilint does not check it; reopen it as {} (Neovim: `:edit ++enc={}`; VS Code: Reopen with Encoding)",
            escape_unsafe(shown),
            self.declared,
            escape_unsafe(&self.label),
            self.read_as,
            self.declared,
            escape_unsafe(&self.label).to_lowercase(),
        )
    }
}

impl Document {
    /// Whether the editor's text contradicts the page's own charset declaration: read back
    /// into the bytes of a single-byte reading (latin1, windows-1252), it decodes without error
    /// in the declared encoding to another, plausible text (no control character, no U+FFFD).
    /// A page declared UTF-8 whose text could also be real mojibake is said to be misread only
    /// when the file on disk holds exactly those bytes.
    pub fn misread(&self, format: Format) -> Option<Misread> {
        if self.text.is_ascii() {
            return None;
        }
        // The declaration is ASCII, so it reads the same in the editor's text.
        let probe = Source::decode(String::new(), format, self.text.as_bytes()).ok()?;
        let declaration = probe.encoding.deciding()?;
        let declared = declaration.encoding?;
        let readings: [(&'static str, Reading); 2] = [
            ("latin1", latin1_bytes),
            ("windows-1252", windows_1252_bytes),
        ];
        for (read_as, bytes_of) in readings {
            let Some(bytes) = bytes_of(&self.text) else {
                continue;
            };
            let Some(text) = declared.decode_without_bom_handling_and_without_replacement(&bytes)
            else {
                continue;
            };
            let plausible = !text
                .chars()
                .any(|c| c == '\u{FFFD}' || (c.is_control() && !matches!(c, '\t' | '\n' | '\r')));
            if text == self.text || !plausible {
                continue;
            }
            if declared == UTF_8 && !self.on_disk_as(&bytes) {
                continue;
            }
            return Some(Misread {
                read_as,
                declared: declared.name(),
                label: declaration.label.clone(),
            });
        }
        None
    }

    /// Whether the document's file holds exactly `bytes` (a regular file of that length).
    fn on_disk_as(&self, bytes: &[u8]) -> bool {
        let Some(path) = &self.path else {
            return false;
        };
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64)
            && std::fs::read(path).is_ok_and(|disk| disk == bytes)
    }
}

/// The bytes an editor read as `text` with a single-byte encoding, if it could have.
type Reading = fn(&str) -> Option<Vec<u8>>;

/// The bytes whose ISO-8859-1 reading is `text`: every character below U+0100.
fn latin1_bytes(text: &str) -> Option<Vec<u8>> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).ok())
        .collect()
}

/// The bytes whose windows-1252 reading is `text`, if it has one.
fn windows_1252_bytes(text: &str) -> Option<Vec<u8>> {
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(text);
    (!unmappable).then(|| bytes.into_owned())
}

/// The format a client's language id names.
fn by_language_id(id: &str) -> Option<Format> {
    Some(match id {
        "html" | "xhtml" | "htmldjango" | "jinja-html" | "handlebars" => Format::Html,
        "xml" | "xsl" | "xslt" | "svg" | "docbook" => Format::Xml,
        "markdown" | "mdx" => Format::Markdown,
        "plaintext" | "text" => Format::Text,
        "restructuredtext" | "rst" => Format::Rst,
        "asciidoc" | "asciidoctor" => Format::Asciidoc,
        _ => return None,
    })
}

/// The path of a `file:` URI (`file:///a/b%20c`, `file://localhost/a`), percent-decoded.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s
        .strip_prefix("file://")
        .or_else(|| s.strip_prefix("FILE://"))?;
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let mut bytes = Vec::with_capacity(path.len());
    let b = path.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = crate::iri::percent::triplet_at(path, i)
        {
            bytes.push(v);
            i += 3;
            continue;
        }
        bytes.push(b[i]);
        i += 1;
    }
    let decoded = String::from_utf8(bytes).ok()?;
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of an absolute path, percent-encoding what a URI path cannot hold.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let s = path.to_str()?;
    let mut out = String::from("file://");
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_and_paths_round_trip() {
        let uri: Uri = "file:///tmp/a%20b/%C3%A9.html".parse().unwrap();
        assert_eq!(uri_to_path(&uri), Some(PathBuf::from("/tmp/a b/é.html")));
        assert_eq!(
            path_to_uri(Path::new("/tmp/a b/é.html")).unwrap().as_str(),
            "file:///tmp/a%20b/%C3%A9.html"
        );
        let uri: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(uri_to_path(&uri), None);
    }

    fn doc(language_id: &str, uri: &str, text: &str) -> Document {
        let uri: Uri = uri.parse().unwrap();
        Document {
            path: uri_to_path(&uri),
            uri,
            language_id: language_id.into(),
            version: 1,
            text: text.into(),
        }
    }

    #[test]
    fn format_by_language_id_then_extension() {
        assert_eq!(doc("html", "untitled:x", "").format(), Some(Format::Html));
        assert_eq!(
            doc("whatever", "file:///a/b.svg", "").format(),
            Some(Format::Xml)
        );
        assert_eq!(doc("rust", "file:///a/b.rs", "").format(), None);
        assert_eq!(
            doc("restructuredtext", "untitled:x", "").format(),
            Some(Format::Rst)
        );
        assert_eq!(
            doc("asciidoc", "untitled:x", "").format(),
            Some(Format::Asciidoc)
        );
        assert_eq!(
            doc("plaintext", "file:///a/b.rst", "").format(),
            Some(Format::Text),
            "the language id wins"
        );
    }

    #[test]
    fn a_legacy_page_is_checked_as_its_bytes_with_the_editors_offsets() {
        let text = "<meta charset=\"windows-1252\"><a href=\"/caf\u{e9}\">x</a>";
        let d = doc("html", "file:///a.html", text);
        let source = d.source(Format::Html);
        assert_eq!(source.text, text);
        assert_eq!(source.encoding.used, encoding_rs::WINDOWS_1252);
        // Not encodable in the declared encoding: checked as the UTF-8 text it is.
        let text = "<meta charset=\"windows-1252\"><a href=\"/\u{4E2D}\">x</a>";
        let source = doc("html", "file:///a.html", text).source(Format::Html);
        assert_eq!(source.text, text);
    }
}
