//! A document too large to be sent as one message (over [`super::transport::MAX_MESSAGE`]):
//! its message is read past, never held, but the editor must still be told that the file was
//! not checked, or it shows nothing and the file looks clean. [`Sniffer`] watches the bytes
//! read past for the message's `method` and `params.textDocument.uri`, in constant memory and
//! one pass; the reader hands what it found to the server as an [`OVERSIZED`] notification.

/// The method of the notification the reader makes for a `didOpen` or `didChange` it skipped;
/// its params are [`Oversized`]. A client that sends it itself only gets that diagnostic.
pub const OVERSIZED: &str = "$/irilint/documentTooLarge";

/// What the server is told of a skipped document.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Oversized {
    /// The document's URI, as the editor wrote it.
    pub uri: String,
    /// The message's `Content-Length`.
    pub length: u64,
    /// A `didOpen`'s `languageId`, for the changes that follow it.
    pub language_id: Option<String>,
}

/// The longest `method` kept (LSP's are some 30 bytes).
const MAX_METHOD: usize = 64;
/// The longest URI kept.
const MAX_URI: usize = 16 << 10;
/// The longest key compared (the ones looked for are at most `textDocument`).
const MAX_KEY: usize = 16;

/// Which key the value at a depth is under, among those on the way to the two looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Method,
    Params,
    TextDocument,
    Uri,
    LanguageId,
    Other,
}

/// What the string being read is kept for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
    Nothing,
    Key,
    Method,
    Uri,
    LanguageId,
}

/// Follows a JSON body byte by byte (jumping through strings it does not keep) and keeps the
/// top-level `method` and `params.textDocument.uri`; gives up at once on a body that does not
/// start as a JSON object, and stops looking once both are known.
#[derive(Debug)]
pub struct Sniffer {
    /// How deep the bytes read so far are nested (0: outside the body's object).
    depth: u64,
    /// Whether the container at depths 1 to 3 is an object.
    object: [bool; 4],
    /// The key of the value being read at depths 1 to 3.
    key: [Key; 4],
    /// Whether the next string of the object at `depth` is a key.
    want_key: bool,
    in_string: bool,
    escaped: bool,
    keep: Keep,
    kept: Vec<u8>,
    /// Whether the string being kept grew past its limit (then it is dropped).
    overflow: bool,
    method: Option<String>,
    uri: Option<String>,
    language_id: Option<String>,
    /// Gave up (not JSON) or is done.
    stopped: bool,
    started: bool,
}

impl Default for Sniffer {
    fn default() -> Sniffer {
        Sniffer {
            depth: 0,
            object: [false; 4],
            key: [Key::Other; 4],
            want_key: false,
            in_string: false,
            escaped: false,
            keep: Keep::Nothing,
            kept: Vec::new(),
            overflow: false,
            method: None,
            uri: None,
            language_id: None,
            stopped: false,
            started: false,
        }
    }
}

impl Sniffer {
    /// Whether the rest of the body need not be looked at.
    pub fn done(&self) -> bool {
        self.stopped
    }

    /// Reads the next bytes of the body.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() && !self.stopped {
            if self.in_string {
                bytes = self.string(bytes);
                continue;
            }
            let b = bytes[0];
            bytes = &bytes[1..];
            if !self.started {
                match b {
                    b' ' | b'\t' | b'\r' | b'\n' => continue,
                    b'{' => self.started = true,
                    _ => {
                        self.stopped = true;
                        continue;
                    }
                }
            }
            self.structure(b);
        }
    }

    fn structure(&mut self, b: u8) {
        match b {
            b'{' | b'[' => {
                self.depth += 1;
                if let Some(d) = self.level() {
                    self.object[d] = b == b'{';
                    self.key[d] = Key::Other;
                }
                self.want_key = b == b'{';
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                self.want_key = false;
                if self.depth == 0 {
                    self.stopped = true;
                }
            }
            b',' => self.want_key = self.level().is_some_and(|d| self.object[d]),
            b':' => self.want_key = false,
            b'"' => {
                self.in_string = true;
                self.escaped = false;
                self.overflow = false;
                self.kept.clear();
                self.keep = self.keep_for_string();
            }
            _ => {}
        }
    }

    /// The depth as an index into `object` and `key`, if it is one of the first three.
    fn level(&self) -> Option<usize> {
        (1..=3).contains(&self.depth).then_some(self.depth as usize)
    }

    fn keep_for_string(&self) -> Keep {
        let Some(d) = self.level() else {
            return Keep::Nothing;
        };
        if self.want_key && self.object[d] {
            return Keep::Key;
        }
        match (d, self.key) {
            (1, [_, Key::Method, ..]) => Keep::Method,
            (3, [_, Key::Params, Key::TextDocument, Key::Uri]) => Keep::Uri,
            (3, [_, Key::Params, Key::TextDocument, Key::LanguageId]) => Keep::LanguageId,
            _ => Keep::Nothing,
        }
    }

    /// Reads string bytes up to and including its closing quote; the rest.
    fn string<'a>(&mut self, bytes: &'a [u8]) -> &'a [u8] {
        let mut i = 0;
        while i < bytes.len() {
            if self.escaped {
                self.escaped = false;
                self.push(bytes[i]);
                i += 1;
                continue;
            }
            // Through what is not a quote or a backslash at once.
            let Some(at) = memchr::memchr2(b'"', b'\\', &bytes[i..]) else {
                self.push_all(&bytes[i..]);
                return &[];
            };
            self.push_all(&bytes[i..i + at]);
            i += at;
            if bytes[i] == b'\\' {
                self.escaped = true;
                self.push(b'\\');
                i += 1;
            } else {
                self.in_string = false;
                self.end_string();
                return &bytes[i + 1..];
            }
        }
        &[]
    }

    fn limit(&self) -> usize {
        match self.keep {
            Keep::Nothing => 0,
            Keep::Key => MAX_KEY,
            Keep::Method | Keep::LanguageId => MAX_METHOD,
            Keep::Uri => MAX_URI,
        }
    }

    fn push(&mut self, b: u8) {
        self.push_all(&[b]);
    }

    fn push_all(&mut self, bytes: &[u8]) {
        if self.keep == Keep::Nothing || self.overflow {
            return;
        }
        if self.kept.len() + bytes.len() > self.limit() {
            self.overflow = true;
            self.kept = Vec::new();
        } else {
            self.kept.extend_from_slice(bytes);
        }
    }

    fn end_string(&mut self) {
        let text = if self.overflow {
            None
        } else {
            // The string as JSON wrote it, escapes and all: decoded as JSON does.
            let mut quoted = Vec::with_capacity(self.kept.len() + 2);
            quoted.push(b'"');
            quoted.extend_from_slice(&self.kept);
            quoted.push(b'"');
            serde_json::from_slice::<String>(&quoted).ok()
        };
        match self.keep {
            Keep::Key => {
                if let Some(d) = self.level() {
                    self.key[d] = match (d, text.as_deref()) {
                        (1, Some("method")) => Key::Method,
                        (1, Some("params")) => Key::Params,
                        (2, Some("textDocument")) => Key::TextDocument,
                        (3, Some("uri")) => Key::Uri,
                        (3, Some("languageId")) => Key::LanguageId,
                        _ => Key::Other,
                    };
                }
            }
            Keep::Method => self.method = self.method.take().or(text),
            Keep::Uri => self.uri = self.uri.take().or(text),
            Keep::LanguageId => self.language_id = self.language_id.take().or(text),
            Keep::Nothing => {}
        }
        self.keep = Keep::Nothing;
        self.kept = Vec::new();
        // A `didChange` has no language: its method and URI are all there is to find.
        let change = self.method.as_deref() == Some("textDocument/didChange");
        if self.method.is_some() && self.uri.is_some() && (change || self.language_id.is_some()) {
            self.stopped = true;
        }
    }

    /// The document a skipped `textDocument/didOpen` or `didChange` was about, if that is
    /// what the body was.
    pub fn document(&self, length: u64) -> Option<Oversized> {
        let method = self.method.as_deref()?;
        if !matches!(method, "textDocument/didOpen" | "textDocument/didChange") {
            return None;
        }
        Some(Oversized {
            uri: self.uri.clone()?,
            length,
            language_id: self.language_id.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sniff(parts: &[&[u8]]) -> Option<Oversized> {
        let mut s = Sniffer::default();
        for p in parts {
            s.feed(p);
        }
        s.document(7)
    }

    fn found(uri: &str, language_id: Option<&str>) -> Option<Oversized> {
        Some(Oversized {
            uri: uri.into(),
            length: 7,
            language_id: language_id.map(Into::into),
        })
    }

    #[test]
    fn the_uri_of_a_did_open_is_found_in_any_key_order_and_any_chunks() {
        let text = "x\\\"y\\\\}{[".repeat(100);
        let bodies = [
            format!(
                r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"file:///a/b.md","languageId":"markdown","version":1,"text":"{text}"}}}}}}"#
            ),
            format!(
                r#" {{ "params" : {{ "textDocument" : {{ "text" : "{text}", "version" : 1, "uri" : "file:///a/b.md" }} }}, "method" : "textDocument/didOpen", "jsonrpc" : "2.0" }}"#
            ),
            format!(
                r#"{{"method":"textDocument\/didChange","params":{{"contentChanges":[{{"text":"{text}"}}],"textDocument":{{"version":2,"uri":"file:\/\/\/a\/b.md"}}}}}}"#
            ),
        ];
        for (body, language) in bodies.iter().zip([Some("markdown"), None, None]) {
            let b = body.as_bytes();
            let want = found("file:///a/b.md", language);
            assert_eq!(sniff(&[b]), want, "{body}");
            for cut in [1, 2, 7, 100, 333] {
                let parts: Vec<&[u8]> = b.chunks(cut).collect();
                assert_eq!(sniff(&parts), want, "{cut} {body}");
            }
        }
    }

    #[test]
    fn decoys_inside_strings_and_at_other_depths_are_not_taken() {
        // A "uri" key in the text, in another object, or at the top level is not the one.
        let body = r#"{"method":"textDocument/didOpen","id":{"uri":"file:///decoy1"},"uri":"file:///decoy2","params":{"uri":"file:///decoy3","textDocument":{"text":"\"uri\":\"file:///decoy4\"","uri":"file:///real"}}}"#;
        assert_eq!(sniff(&[body.as_bytes()]), found("file:///real", None));
        // Another method, or none: nothing to tell.
        let other = r#"{"method":"workspace/didChangeConfiguration","params":{"textDocument":{"uri":"file:///a"}}}"#;
        assert_eq!(sniff(&[other.as_bytes()]), None);
        let none = r#"{"params":{"textDocument":{"uri":"file:///a"}}}"#;
        assert_eq!(sniff(&[none.as_bytes()]), None);
    }

    #[test]
    fn what_is_not_json_or_too_long_gives_nothing_and_stops_early() {
        let mut s = Sniffer::default();
        s.feed(b"xxxx");
        assert!(s.done());
        assert_eq!(s.document(1), None);
        let long = format!(
            r#"{{"method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"file:///{}"}}}}}}"#,
            "a".repeat(MAX_URI)
        );
        assert_eq!(sniff(&[long.as_bytes()]), None);
        // Deep nesting is counted, not held.
        let mut s = Sniffer::default();
        s.feed(b"{\"a\":");
        for _ in 0..100_000 {
            s.feed(b"[");
        }
        assert!(s.kept.capacity() <= MAX_URI);
        for _ in 0..100_000 {
            s.feed(b"]");
        }
        s.feed(br#","method":"textDocument/didOpen","params":{"textDocument":{"uri":"u"}}}"#);
        assert_eq!(s.document(1).map(|d| d.uri), Some("u".into()));
    }
}
