//! IRIs in AsciiDoc (Asciidoctor, and the AsciiDoc.py of git's documentation).
//!
//! What is extracted, with its origin:
//! - `asciidoc:link`: the target of a `link:` macro, `link:target[text]`;
//! - `asciidoc:image`: the target of an inline or block image macro (`image:x.png[]`,
//!   `image::x.png[]`), and `asciidoc:media` that of `video::` and `audio::`;
//! - `asciidoc:url`: URL macros and bare IRIs (`https://example.org[Example]`,
//!   `<https://example.org>`, `mailto:a@example.org[]`), found by the plain-text detector
//!   ([`super::text`]), which ends an IRI before its macro's `[…]`; and IRIs that start with an
//!   attribute reference naming a URL — one the document sets to an IRI (`:url-repo: https://…`)
//!   or, by Asciidoctor's convention, one named `url-…` or `uri-…`: `{url-repo}/blob/main[code]`.
//!
//! Attribute references (`{url-repo}`, `{litdd}`) inside an IRI are placeholders
//! ([`super::template`]): not checked, the characters around them are — a zero-width space next
//! to one is still found. So are template expressions (`{{ }}`) in macro targets. A
//! `{startsb}…{endsb}` (`[…]` written with the built-in attributes, as git's documentation
//! writes the optional parts of its URL synopses: `ssh://{startsb}user@{endsb}host.xz/`) is one
//! placeholder, as `[user@]` is in plain text.
//!
//! Not IRIs, and skipped: listing (`----`), literal (`....`), passthrough (`++++`) and comment
//! (`////`) blocks and fenced code; literal paragraphs (indented, after a blank line); comment
//! lines (`// …`); inline passthroughs (`+text+`, `++text++`, `+++text+++`, `pass:[…]`) and
//! backquoted code (`` `code` ``; Asciidoctor would still apply macros inside monospace, but
//! git's AsciiDoc.py does not, and in documentation a URL in code is an example);
//! escaped macros and IRIs (`\https://…`); `include::`, `ifdef::`-style preprocessor lines;
//! `xref:` and `<<id>>` cross references. A two-line section title's underline (`NAME` over
//! `----`, within two characters of its length) is not a listing delimiter.
//!
//! §5.2 preparation: AsciiDoc has no escapes inside a macro target except the passthrough
//! `link:++https://example.org/a b++[]`, whose content is the IRI as written. In other targets
//! and URLs, the character references Asciidoctor keeps in the link it writes (`&#8203;`,
//! `&amp;`, `&copy;`) are resolved, as the browser resolves them in the `href`; each maps to its
//! whole source. A macro without its closing `]`, an unclosed passthrough or backquote is read
//! as plain text, whose IRIs are found as such.
//!
//! Suppression directives are comment lines: `// irilint-disable-next-line RULE`.
//!
//! No AsciiDoc parser on crates.io gives the source offsets of macro targets, so this is a
//! focused scanner; the fixtures in `fixtures/asciidoc/` come from git's documentation.

use std::collections::HashSet;
use std::ops::Range;

use super::masked::{self, Masked, is_blank};
use super::{
    Comment, DIRECTIVE_PREFIX, Extraction, Occurrence, SpanMap, template, text, text_placeholders,
};

/// The IRIs of an AsciiDoc document.
pub fn extract(text: &str) -> Extraction {
    let mut s = Scan {
        text,
        masked: Masked::new(text),
        occurrences: Vec::new(),
        comments: Vec::new(),
        url_attributes: HashSet::new(),
    };
    s.blocks();
    s.inline();
    let masked = s.masked.text();
    let mut occurrences = s.occurrences;
    occurrences.extend(
        masked::bare_iris(text, &masked, "asciidoc:url", attribute_references)
            .into_iter()
            .map(|occ| {
                let (iri, map) = resolve_references(text, occ.map.source_range());
                if iri == occ.iri {
                    return occ;
                }
                let mut placeholders = text_placeholders::placeholders(&iri);
                placeholders.extend(attribute_references(&iri));
                Occurrence {
                    placeholders: masked::disjoint(placeholders),
                    iri,
                    map,
                    ..occ
                }
            }),
    );
    occurrences.sort_by_key(|o| o.map.source_range().start);
    Extraction {
        occurrences,
        comments: s.comments,
        ..Extraction::default()
    }
}

/// `text[range]` as a browser reads the link Asciidoctor writes for it: Asciidoctor escapes an
/// `&` into `&amp;` except where it starts a character reference it keeps — `&name;` (two
/// letters or more, then up to two digits), `&#` and 2 to 6 digits `;`, `&#x` and 2 to 5 hex
/// digits `;` — and the browser resolves those in the `href`. So `&#8203;` in a target is a
/// zero-width space in the link, and `&amp;` an `&`. The map covers each reference whole.
fn resolve_references(text: &str, range: Range<usize>) -> (String, SpanMap) {
    let end = range.end;
    super::span_map::decode_escapes(
        text,
        range,
        |rest| memchr::memchr(b'&', rest),
        |i| {
            let n = kept_reference_len(&text.as_bytes()[i..end])?;
            super::html::charref::reference(text, i, i + n).filter(|(_, len)| *len == n)
        },
    )
}

/// The length of the character reference Asciidoctor keeps at the start of `b` (an `&`), if it
/// keeps one there (its `&amp;((?:[a-zA-Z][a-zA-Z]+\d{0,2}|#\d\d\d{0,4}|#x[\da-fA-F][\da-fA-F][\da-fA-F]{0,3});)`).
fn kept_reference_len(b: &[u8]) -> Option<usize> {
    let run = |from: usize, ok: fn(&u8) -> bool| {
        b[from.min(b.len())..].iter().take_while(|c| ok(c)).count()
    };
    let end = if b.get(1) == Some(&b'#') {
        if b.get(2) == Some(&b'x') {
            let n = run(3, u8::is_ascii_hexdigit);
            (2..=5).contains(&n).then_some(3 + n)?
        } else {
            let n = run(2, u8::is_ascii_digit);
            (2..=6).contains(&n).then_some(2 + n)?
        }
    } else {
        let letters = run(1, u8::is_ascii_alphabetic);
        let digits = run(1 + letters, u8::is_ascii_digit);
        (letters >= 2 && digits <= 2).then_some(1 + letters + digits)?
    };
    (b.get(end) == Some(&b';')).then_some(end + 1)
}

/// The byte ranges of the attribute references `{name}` in `iri`.
pub fn attribute_references(iri: &str) -> Vec<Range<usize>> {
    let b = iri.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'{', &b[i..]) {
        i += k;
        match attribute_name_end(b, i + 1) {
            Some(close) => {
                // `{startsb}…{endsb}` is `[…]`: an optional part of a synopsis
                // (`git://host.xz{startsb}:port{endsb}/`), one placeholder as in plain text.
                let end = match &iri[i + 1..close] {
                    "startsb" => iri[close..]
                        .find("{endsb}")
                        .map_or(close + 1, |k| close + k + "{endsb}".len()),
                    _ => close + 1,
                };
                out.push(i..end);
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

/// The position of the `}` that ends an attribute name starting at `at`.
fn attribute_name_end(b: &[u8], at: usize) -> Option<usize> {
    let first = *b.get(at)?;
    if !(first.is_ascii_alphanumeric() || first == b'_') {
        return None;
    }
    let len = b[at..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'-')
        .count();
    (b.get(at + len) == Some(&b'}')).then_some(at + len)
}

struct Scan<'a> {
    text: &'a str,
    masked: Masked,
    occurrences: Vec<Occurrence>,
    comments: Vec<Comment>,
    /// Attributes the document sets to an IRI.
    url_attributes: HashSet<String>,
}

/// A delimiter line of a block whose content is not text: `----`, `....`, `++++`, `////`
/// (four or more), or a fence.
fn verbatim_delimiter(line: &str) -> Option<(u8, usize)> {
    let line = line.trim_end();
    if line.starts_with("```") {
        return Some((b'`', 3));
    }
    let b = line.as_bytes();
    let c = *b.first()?;
    (matches!(c, b'-' | b'.' | b'+' | b'/') && b.len() >= 4 && b.iter().all(|&x| x == c))
        .then_some((c, b.len()))
}

/// True when `line` ends a description list term (`term::`, `term;;`, `term:::`).
fn is_list_term(line: &str) -> bool {
    let t = line.trim_end();
    t.ends_with("::") || t.ends_with(";;")
}

impl Scan<'_> {
    /// Delimited blocks, literal paragraphs, comments and attribute entries, line by line.
    fn blocks(&mut self) {
        let text = self.text;
        let lines = masked::lines(text);
        let mut i = 0;
        while i < lines.len() {
            let line = &text[lines[i].clone()];
            let prev = i.checked_sub(1).map(|p| &text[lines[p].clone()]);
            if let Some((c, len)) = verbatim_delimiter(line)
                && !is_title_underline(prev, c, len)
            {
                let close = (i + 1..lines.len()).find(|&j| {
                    verbatim_delimiter(&text[lines[j].clone()]).is_some_and(|(d, _)| d == c)
                });
                // An unclosed block is text (it may be a line of dashes).
                if let Some(close) = close {
                    self.masked.hide(text, lines[i].start..lines[close].end);
                    i = close + 1;
                    continue;
                }
            }
            if let Some(comment) = line.strip_prefix("//") {
                if !comment.starts_with('/') {
                    let body = comment.trim();
                    if body.starts_with(DIRECTIVE_PREFIX) {
                        let start =
                            lines[i].start + 2 + (comment.len() - comment.trim_start().len());
                        self.comments.push(Comment {
                            range: lines[i].start..start + body.len(),
                            body: start..start + body.len(),
                        });
                    }
                    self.masked.hide(text, lines[i].clone());
                }
                i += 1;
                continue;
            }
            let literal = line.starts_with([' ', '\t'])
                && !is_blank(line)
                && prev.is_none_or(is_blank)
                && !self.after_list_term(&lines, i);
            if literal {
                let mut end = i + 1;
                while end < lines.len() && !is_blank(&text[lines[end].clone()]) {
                    end += 1;
                }
                self.masked.hide(text, lines[i].start..lines[end - 1].end);
                i = end;
                continue;
            }
            if ["include::", "ifdef::", "ifndef::", "ifeval::", "endif::"]
                .iter()
                .any(|p| line.starts_with(p))
            {
                self.masked.hide(text, lines[i].clone());
            } else if let Some((name, value)) = attribute_entry(line)
                && text::detect(value).first().is_some_and(|r| r.start == 0)
            {
                self.url_attributes.insert(name.to_string());
            }
            i += 1;
        }
    }

    /// True when the last non-blank line before line `i` is a description list term: the
    /// indented paragraph after it is the item's text, not a literal paragraph.
    fn after_list_term(&self, lines: &[Range<usize>], i: usize) -> bool {
        lines[..i]
            .iter()
            .rev()
            .map(|r| &self.text[r.clone()])
            .find(|l| !is_blank(l))
            .is_some_and(is_list_term)
    }

    /// Inline passthroughs, code and macros: hidden, macro targets extracted.
    fn inline(&mut self) {
        let text = self.text;
        let m = self.masked.text();
        let b = m.as_bytes();
        let mut hides: Vec<Range<usize>> = Vec::new();
        // Per kind of closer (`` ` ``, `+`, `++`, `]`, ``` `` ```): where a search that found none stopped.
        let mut failed: [Option<(usize, usize)>; 5] = [None; 5];
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            let word_start = i == 0 || !is_word(b[i - 1]);
            let next = match c {
                b'\\'
                    if word_start
                        && b.get(i + 1)
                            .is_some_and(|n| n.is_ascii_alphabetic() || *n == b'{') =>
                {
                    let end = i + b[i..]
                        .iter()
                        .position(|c| c.is_ascii_whitespace())
                        .unwrap_or(b.len() - i);
                    hides.push(i..end);
                    end
                }
                b'+' if b[i..].starts_with(b"+++") => match find(b, i + 3, b"+++") {
                    Some(k) => {
                        hides.push(i..k + 3);
                        k + 3
                    }
                    None => i + 3,
                },
                b'+' if b[i..].starts_with(b"++") => {
                    self.closed(b, i, 2, b"++", 2, &mut failed, &mut hides, false)
                }
                b'+' if word_start => self.closed(b, i, 1, b"+", 1, &mut failed, &mut hides, true),
                b'`' if b[i..].starts_with(b"``") => {
                    self.closed(b, i, 2, b"``", 4, &mut failed, &mut hides, false)
                }
                b'`' if word_start => self.closed(b, i, 1, b"`", 0, &mut failed, &mut hides, true),
                b'{' if word_start => self.attribute_url(b, i, &mut hides).unwrap_or(i + 1),
                c if word_start && c.is_ascii_alphabetic() => self
                    .macro_at(b, i, &mut failed, &mut hides)
                    .unwrap_or(i + 1),
                _ => i + 1,
            };
            i = next.max(i + 1);
        }
        for r in hides {
            self.masked.hide(text, r);
        }
    }

    /// Constrained or unconstrained quoted text opened at `i` by `open_len` bytes and closed by
    /// `close`: hidden when closed in its paragraph; returns where to go on.
    #[allow(clippy::too_many_arguments)]
    fn closed(
        &self,
        b: &[u8],
        i: usize,
        open_len: usize,
        close: &[u8],
        kind: usize,
        failed: &mut [Option<(usize, usize)>; 5],
        hides: &mut Vec<Range<usize>>,
        constrained: bool,
    ) -> usize {
        let from = i + open_len;
        if constrained && b.get(from).is_none_or(|c| c.is_ascii_whitespace()) {
            return from;
        }
        if failed[kind].is_some_and(|(start, stop)| start < from && from < stop) {
            return from;
        }
        match find_close(b, from, close, constrained) {
            Ok(k) => {
                hides.push(i..k + close.len());
                k + close.len()
            }
            Err(stop) => {
                failed[kind] = Some((i, stop));
                from
            }
        }
    }

    /// A `link:`, `image:`, `image::`, `video::` or `audio::` macro at `i`, extracted and hidden;
    /// returns where it ends.
    fn macro_at(
        &mut self,
        b: &[u8],
        i: usize,
        failed: &mut [Option<(usize, usize)>; 5],
        hides: &mut Vec<Range<usize>>,
    ) -> Option<usize> {
        const MACROS: [(&[u8], &str); 6] = [
            (b"link:", "asciidoc:link"),
            (b"image::", "asciidoc:image"),
            (b"image:", "asciidoc:image"),
            (b"video::", "asciidoc:media"),
            (b"audio::", "asciidoc:media"),
            (b"pass:", ""),
        ];
        let (name, origin) = MACROS.iter().find(|(n, _)| b[i..].starts_with(n))?;
        let target_at = i + name.len();
        let (target, open) = if origin.is_empty() {
            // `pass:[…]`, `pass:q[…]`: hidden whole.
            let subs = b[target_at..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic() || **c == b',')
                .count();
            (target_at..target_at, target_at + subs)
        } else if b[target_at..].starts_with(b"++") {
            let close = find(b, target_at + 2, b"++")?;
            (target_at + 2..close, close + 2)
        } else {
            let len = b[target_at..]
                .iter()
                .take_while(|c| !c.is_ascii_whitespace() && **c != b'[')
                .count();
            if len == 0 || b[target_at] == b':' {
                return None;
            }
            (target_at..target_at + len, target_at + len)
        };
        if b.get(open) != Some(&b'[') {
            return None;
        }
        if failed[3].is_some_and(|(start, stop)| start < open && open < stop) {
            return None;
        }
        let close = match find_close(b, open + 1, b"]", false) {
            Ok(k) => k,
            Err(stop) => {
                failed[3] = Some((open, stop));
                return None;
            }
        };
        if !origin.is_empty() && !target.is_empty() {
            // A passthrough's content is written out as it is (`&` escaped): no references.
            if b[target_at..].starts_with(b"++") {
                self.push_verbatim(target, origin);
            } else {
                self.push(target, origin);
            }
        }
        hides.push(i..close + 1);
        Some(close + 1)
    }

    /// An IRI starting with a reference to an attribute that names a URL, at `i` (its `{`).
    fn attribute_url(
        &mut self,
        b: &[u8],
        i: usize,
        hides: &mut Vec<Range<usize>>,
    ) -> Option<usize> {
        let close = attribute_name_end(b, i + 1)?;
        let name = &self.text[i + 1..close];
        let lower = name.to_ascii_lowercase();
        let names_url = self.url_attributes.contains(name)
            || ["url-", "uri-", "url_"]
                .iter()
                .any(|p| lower.starts_with(p));
        if !names_url {
            return None;
        }
        let mut end = text::iri_end(self.text, i);
        if let Some(k) = text_placeholders::macro_cut(&self.text[i..end]) {
            end = i + k;
        }
        let end = end.max(close + 1);
        self.push(i..end, "asciidoc:url");
        hides.push(i..end);
        Some(end)
    }

    /// A target or URL at `range`, its character references resolved.
    fn push(&mut self, range: Range<usize>, origin: &'static str) {
        let (iri, map) = resolve_references(self.text, range);
        self.push_prepared(iri, map, origin);
    }

    /// A target at `range` taken as written.
    fn push_verbatim(&mut self, range: Range<usize>, origin: &'static str) {
        let iri = self.text[range.clone()].to_string();
        self.push_prepared(iri, SpanMap::identity(range), origin);
    }

    fn push_prepared(&mut self, iri: String, map: SpanMap, origin: &'static str) {
        let mut placeholders = attribute_references(&iri);
        placeholders.extend(template::placeholders(&iri));
        self.occurrences.push(Occurrence {
            placeholders: masked::disjoint(placeholders),
            iri,
            map,
            origin: origin.into(),
        });
    }
}

/// A character that joins a word (so that a mark after it does not open quoted text).
fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// True when a delimiter line of `len` characters `c` underlines the title `prev` (a two-line
/// section title: `-` or `+` within two characters of the title's length).
fn is_title_underline(prev: Option<&str>, c: u8, len: usize) -> bool {
    let Some(prev) = prev.map(str::trim_end) else {
        return false;
    };
    let title = !prev.is_empty()
        && !prev.starts_with(['[', '.', '/', '+', '-', ' ', '\t', '`'])
        && matches!(c, b'-' | b'+');
    title && prev.chars().count().abs_diff(len) <= 2
}

/// The name and value of an attribute entry line `:name: value`.
fn attribute_entry(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix(':')?;
    let k = rest.find(':')?;
    let name = &rest[..k];
    let valid = !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-');
    valid.then(|| (name, rest[k + 1..].trim()))
}

/// The first `needle` at or after `from`.
fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|k| from + k)
}

/// The first `close` after `from` within the paragraph, not escaped; for constrained text,
/// preceded by a non-space and not followed by a word character. `Err` holds where the search
/// stopped.
fn find_close(b: &[u8], from: usize, close: &[u8], constrained: bool) -> Result<usize, usize> {
    masked::find_in_paragraph(b, from, |k| {
        b[k..].starts_with(close)
            && (!constrained
                || (k > from
                    && !b[k - 1].is_ascii_whitespace()
                    && b.get(k + close.len()).is_none_or(|&n| !is_word(n))))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::extract::masked::pairs;

    fn found(text: &str) -> Vec<(String, String)> {
        masked::found(extract(text))
    }

    /// What a browser reads in the `href` Asciidoctor 2.0.18 writes for each target (checked by
    /// hand with `asciidoctor -s`): the references it keeps are resolved, the others are text;
    /// a passthrough's content is taken as written.
    #[test]
    fn character_references_are_read_as_the_browser_reads_the_link() {
        let text = "link:https://a.example/x&#8203;y[text]\n\n\
                    https://b.example/x&copy;y[t]\n\n\
                    image:a&#x202E;b.png[]\n\n\
                    link:https://c.example/x&copy/y&#x41z&amp;w&#65;v&lt;u&bogus;t&[t]\n\n\
                    link:https://g.example/a&#x1F600;b&NotEqualTilde;c&#X41;d&#5;e[t]\n\n\
                    link:++https://d.example/a&#8203;b++[t]\n\n\
                    See https://e.example/p&#8203;q here.\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("asciidoc:link", "https://a.example/x\u{200B}y"),
                ("asciidoc:url", "https://b.example/x\u{A9}y"),
                ("asciidoc:image", "a\u{202E}b.png"),
                (
                    "asciidoc:link",
                    "https://c.example/x&copy/y&#x41z&wAv<u&bogus;t&"
                ),
                (
                    "asciidoc:link",
                    "https://g.example/a\u{1F600}b\u{2242}\u{338}c&#X41;d&#5;e"
                ),
                ("asciidoc:link", "https://d.example/a&#8203;b"),
                ("asciidoc:url", "https://e.example/p\u{200B}q"),
            ])
        );
        // Each reference maps to its whole source.
        let e = extract(text);
        let o = &e.occurrences[0];
        let zwsp = o.iri.find('\u{200B}').unwrap();
        assert_eq!(&text[o.map.to_source(zwsp..zwsp + 3)], "&#8203;");
    }

    #[test]
    fn macros_urls_and_attribute_references() {
        let text = ":url-repo: https://github.com/git/git\n\
                    :homepage: https://git-scm.com/\n\
                    \n\
                    See link:user-manual.html[the manual], https://git-scm.com/docs[the docs],\n\
                    image:icons/logo.png[Logo] and <mailto:git@vger.kernel.org>.\n\
                    \n\
                    image::https://img.example/diagram.svg[Diagram]\n\
                    video::https://video.example/v.mp4[]\n\
                    \n\
                    Code at {url-repo}/blob/master/README.md[README] and {homepage}book[Book].\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("asciidoc:url", "https://github.com/git/git"),
                ("asciidoc:url", "https://git-scm.com/"),
                ("asciidoc:link", "user-manual.html"),
                ("asciidoc:url", "https://git-scm.com/docs"),
                ("asciidoc:image", "icons/logo.png"),
                ("asciidoc:url", "mailto:git@vger.kernel.org"),
                ("asciidoc:image", "https://img.example/diagram.svg"),
                ("asciidoc:media", "https://video.example/v.mp4"),
                ("asciidoc:url", "{url-repo}/blob/master/README.md"),
                ("asciidoc:url", "{homepage}book"),
            ])
        );
        let e = extract("link:{base}/a\u{200B}b[x]");
        assert_eq!(e.occurrences[0].placeholders.first(), Some(&(0..6)));
        assert_eq!(e.occurrences[0].placeholders.len(), 1);
        let iri = "ssh://{startsb}user@{endsb}host.xz{startsb}:port{endsb}/~{startsb}user{endsb}/";
        let parts: Vec<&str> = attribute_references(iri)
            .into_iter()
            .map(|r| &iri[r])
            .collect();
        assert_eq!(
            parts,
            [
                "{startsb}user@{endsb}",
                "{startsb}:port{endsb}",
                "{startsb}user{endsb}"
            ]
        );
        assert_eq!(
            attribute_references("{startsb}unclosed").len(),
            1,
            "an unclosed optional part is the attribute alone"
        );
    }

    #[test]
    fn code_comments_and_passthroughs_are_not_iris() {
        let text = "NAME\n----\ngit-clone - https://title.example/ is text\n\n\
                    ----\n$ git clone https://listing.example/repo\n----\n\n\
                    ....\nhttps://literal.example/\n....\n\n\
                    ////\nhttps://comment-block.example/\n////\n\n\
                    // https://comment.example/\n\n\
                    Run `curl https://code.example/` or +https://pass.example/+ or\n\
                    pass:[https://passmacro.example/] or \\https://escaped.example/.\n\n\
                    \x20   $ wget https://literal-paragraph.example/\n\n\
                    include::https://include.example/x.adoc[]\n\
                    ```\nhttps://fenced.example/\n```\n";
        assert_eq!(
            found(text),
            pairs(&[("asciidoc:url", "https://title.example/")])
        );
    }

    #[test]
    fn list_item_text_is_not_a_literal_paragraph() {
        let text = "--mirror::\n\n\tSee https://a.example/ for more.\n";
        assert_eq!(
            found(text),
            pairs(&[("asciidoc:url", "https://a.example/")])
        );
    }

    #[test]
    fn broken_macros_are_plain_text_and_directives_are_comments() {
        assert_eq!(
            found("link:https://a.example/x[unclosed\n\nand `open https://b.example/"),
            pairs(&[
                ("asciidoc:url", "https://a.example/x"),
                ("asciidoc:url", "https://b.example/")
            ])
        );
        let text = "// irilint-disable-next-line invisible-character\nhttps://x.example/\n";
        let e = extract(text);
        assert_eq!(
            &text[e.comments[0].body.clone()],
            "irilint-disable-next-line invisible-character"
        );
        let many = "`x".repeat(5_000) + " link:[" + &"+a".repeat(5_000);
        assert!(found(&many).is_empty());
    }
}
