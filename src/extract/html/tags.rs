//! Start tags with their attributes, decoded by html5ever and located in the source.
//!
//! html5ever's tokenizer (driven through a [`TokenSink`], no tree) is the authority on what is a
//! tag and what each attribute's value is, but it gives no byte offsets. Its tokens come in
//! source order, so a cursor walks the source alongside them: each comment, doctype, start tag
//! and end tag token is found at or after the cursor, and a start tag's attributes are scanned
//! with the tokenizer's attribute states to get each raw value's range. The raw value is then
//! decoded with [`super::charref`] into a prepared value and a [`SpanMap`]; when that decoding
//! equals html5ever's value (it always should), the map is exact, otherwise the whole raw value
//! is used as the span (never a wrong span).

use std::cell::{Cell, RefCell};
use std::ops::Range;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};

use super::charref::decode_attribute;
use crate::extract::{Comment, SpanMap};

/// An attribute of a start tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedAttribute {
    /// The name, lowercased as the tokenizer does (`xlink:href`).
    pub name: String,
    /// The value html5ever decoded.
    pub value: String,
    /// The raw value's range in the source (inside the quotes); `None` without a value.
    pub raw: Option<Range<usize>>,
    /// The value decoded from `raw` by irilint (equal to `value` unless `exact` is false).
    pub decoded: String,
    /// From each byte of `value` to the source.
    pub map: SpanMap,
    /// True when `decoded == value`, so `map` is exact.
    pub exact: bool,
}

/// A start tag found in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedTag {
    /// The tag name, lowercased.
    pub name: String,
    /// Offset of its `<`.
    pub start: usize,
    /// Inside `<svg>` or `<math>` (foreign content).
    pub foreign: bool,
    /// Its attributes as the tokenizer kept them (duplicates dropped).
    pub attributes: Vec<LocatedAttribute>,
}

enum Tok {
    Start {
        name: String,
        attrs: Vec<(String, String)>,
        foreign: bool,
    },
    End(String),
    Comment,
    Doctype,
}

#[derive(Default)]
struct Collector {
    tokens: RefCell<Vec<Tok>>,
    foreign_depth: Cell<usize>,
}

impl TokenSink for Collector {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        match token {
            Token::TagToken(Tag {
                kind,
                name,
                attrs,
                self_closing,
                ..
            }) => {
                let name = name.to_string();
                let is_foreign_root = name == "svg" || name == "math";
                if kind == TagKind::EndTag {
                    if is_foreign_root {
                        self.foreign_depth
                            .set(self.foreign_depth.get().saturating_sub(1));
                    }
                    self.tokens.borrow_mut().push(Tok::End(name));
                    return TokenSinkResult::Continue;
                }
                let depth = self.foreign_depth.get();
                self.tokens.borrow_mut().push(Tok::Start {
                    attrs: attrs
                        .into_iter()
                        .map(|a| (a.name.local.to_string(), a.value.to_string()))
                        .collect(),
                    foreign: depth > 0 || is_foreign_root,
                    name: name.clone(),
                });
                if is_foreign_root && !self_closing {
                    self.foreign_depth.set(depth + 1);
                }
                if depth > 0 {
                    return TokenSinkResult::Continue;
                }
                // What the tree builder would tell the tokenizer (WHATWG §13.2.6.4.7).
                match name.as_str() {
                    "script" => TokenSinkResult::RawData(RawKind::ScriptData),
                    "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
                        TokenSinkResult::RawData(RawKind::Rawtext)
                    }
                    "title" | "textarea" => TokenSinkResult::RawData(RawKind::Rcdata),
                    "plaintext" => TokenSinkResult::Plaintext,
                    _ => TokenSinkResult::Continue,
                }
            }
            Token::CommentToken(_) => {
                self.tokens.borrow_mut().push(Tok::Comment);
                TokenSinkResult::Continue
            }
            Token::DoctypeToken(_) => {
                self.tokens.borrow_mut().push(Tok::Doctype);
                TokenSinkResult::Continue
            }
            _ => TokenSinkResult::Continue,
        }
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.foreign_depth.get() > 0
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

/// The `<` of the next tag named `name` (an end tag with `end_tag`) in `text[from..end]`.
fn find_tag(text: &str, from: usize, end: usize, name: &str, end_tag: bool) -> Option<usize> {
    let b = text.as_bytes();
    let prefix = if end_tag { 2 } else { 1 };
    let mut at = from;
    while let Some(k) = text.get(at..end)?.find('<') {
        let p = at + k;
        let name_start = p + prefix;
        let name_end = name_start + name.len();
        let is_match = (!end_tag || b.get(p + 1) == Some(&b'/'))
            && name_end <= end
            && b[name_start..name_end].eq_ignore_ascii_case(name.as_bytes())
            && (name_end == end || is_space(b[name_end]) || matches!(b[name_end], b'/' | b'>'));
        if is_match {
            return Some(p);
        }
        at = p + 1;
    }
    None
}

/// The start of the next comment-like construct (`<!--`, `<!...>`, `<?...>`, `</` + non-letter).
fn find_comment(text: &str, from: usize, end: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut at = from;
    while let Some(k) = text.get(at..end)?.find('<') {
        let p = at + k;
        match b.get(p + 1) {
            Some(b'!' | b'?') => return Some(p),
            Some(b'/') if !b.get(p + 2).is_some_and(u8::is_ascii_alphabetic) => return Some(p),
            _ => at = p + 1,
        }
    }
    None
}

/// Just after the comment or bogus comment starting at `p`.
fn comment_end(text: &str, p: usize, end: usize) -> usize {
    let rest = &text[p..end];
    if let Some(body) = rest.strip_prefix("<!--") {
        if body.starts_with('>') {
            return p + 5;
        }
        if body.starts_with("->") {
            return p + 6;
        }
        let close = [
            body.find("-->").map(|k| k + 3),
            body.find("--!>").map(|k| k + 4),
        ]
        .into_iter()
        .flatten()
        .min();
        return close.map_or(end, |k| p + 4 + k);
    }
    rest.find('>').map_or(end, |k| p + k + 1)
}

/// A raw attribute: name range, and value range if it has a value.
struct RawAttribute {
    name: Range<usize>,
    value: Option<Range<usize>>,
}

/// Scans attributes from `from` (just after the tag name) with the tokenizer's attribute states;
/// returns them and the offset just after the tag's `>`.
fn scan_attributes(text: &str, from: usize, end: usize) -> (Vec<RawAttribute>, usize) {
    let b = text.as_bytes();
    let mut attrs = Vec::new();
    let mut i = from;
    loop {
        while i < end && (is_space(b[i]) || b[i] == b'/') {
            i += 1;
        }
        if i >= end {
            return (attrs, end);
        }
        if b[i] == b'>' {
            return (attrs, i + 1);
        }
        let name_start = i;
        if b[i] == b'=' {
            i += 1;
        }
        while i < end && !is_space(b[i]) && !matches!(b[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let name = name_start..i;
        let mut j = i;
        while j < end && is_space(b[j]) {
            j += 1;
        }
        if j < end && b[j] == b'=' {
            j += 1;
            while j < end && is_space(b[j]) {
                j += 1;
            }
            let value = if j < end && (b[j] == b'"' || b[j] == b'\'') {
                let q = b[j];
                let vs = j + 1;
                let ve = b[vs..end]
                    .iter()
                    .position(|&c| c == q)
                    .map_or(end, |k| vs + k);
                i = (ve + 1).min(end);
                vs..ve
            } else {
                let vs = j;
                while j < end && !is_space(b[j]) && b[j] != b'>' {
                    j += 1;
                }
                i = j;
                vs..j
            };
            attrs.push(RawAttribute {
                name,
                value: Some(value),
            });
        } else {
            attrs.push(RawAttribute { name, value: None });
            i = j;
        }
    }
}

/// Every start tag of the HTML in `text[range]`, with located attributes (offsets in `text`).
pub fn start_tags(text: &str, range: Range<usize>) -> Vec<LocatedTag> {
    scan(text, range).0
}

/// The content range of the `<!--` comment at `p` that ends just before `end` (after its
/// `-->` or `--!>`, or at the end of input for an unclosed one).
fn comment_body(text: &str, p: usize, end: usize) -> Option<Range<usize>> {
    let whole = text.get(p..end)?;
    if !whole.starts_with("<!--") {
        return None;
    }
    let close = if whole.ends_with("--!>") {
        4
    } else if whole.ends_with("-->") {
        3
    } else {
        0
    };
    let body_end = end.checked_sub(close)?;
    (body_end >= p + 4).then_some(p + 4..body_end)
}

/// Every start tag of the HTML in `text[range]`, with located attributes, and the comments that
/// may hold suppression directives (offsets in `text`).
pub fn scan(text: &str, range: Range<usize>) -> (Vec<LocatedTag>, Vec<Comment>) {
    let tokenizer = Tokenizer::new(Collector::default(), TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(&text[range.clone()]));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    let tokens = tokenizer.sink.tokens.take();

    let end = range.end;
    let mut cursor = range.start;
    let mut tags = Vec::new();
    let mut comments = Vec::new();
    for tok in tokens {
        match tok {
            Tok::Doctype => {
                if let Some(p) = find_comment(text, cursor, end) {
                    cursor = comment_end(text, p, end);
                }
            }
            Tok::Comment => {
                if let Some(p) = find_comment(text, cursor, end) {
                    cursor = comment_end(text, p, end);
                    let directive = comment_body(text, p, cursor)
                        .and_then(|body| Comment::directive(text, p..cursor, body));
                    comments.extend(directive);
                }
            }
            Tok::End(name) => {
                if let Some(p) = find_tag(text, cursor, end, &name, true) {
                    cursor = scan_attributes(text, p + 2 + name.len(), end).1;
                }
            }
            Tok::Start {
                name,
                attrs,
                foreign,
            } => {
                let Some(p) = find_tag(text, cursor, end, &name, false) else {
                    continue;
                };
                let (raw, after) = scan_attributes(text, p + 1 + name.len(), end);
                cursor = after;
                let attributes = attrs
                    .into_iter()
                    .map(|(attr_name, value)| locate(text, &raw, attr_name, value))
                    .collect();
                tags.push(LocatedTag {
                    name,
                    start: p,
                    foreign,
                    attributes,
                });
            }
        }
    }
    (tags, comments)
}

fn locate(text: &str, raw: &[RawAttribute], name: String, value: String) -> LocatedAttribute {
    let found = raw
        .iter()
        .find(|r| text[r.name.clone()].eq_ignore_ascii_case(&name))
        .and_then(|r| r.value.clone());
    let (decoded, map) = match &found {
        Some(r) => decode_attribute(text, r.clone()),
        None => (String::new(), SpanMap::default()),
    };
    let exact = decoded == value;
    let map = if exact {
        map
    } else {
        let mut coarse = SpanMap::default();
        let r = found.clone().unwrap_or(0..0);
        coarse.push_replaced(value.len(), r);
        coarse
    };
    LocatedAttribute {
        name,
        value,
        raw: found,
        decoded,
        map,
        exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(html: &str) -> Vec<LocatedTag> {
        start_tags(html, 0..html.len())
    }

    fn attr<'a>(t: &'a LocatedTag, name: &str) -> &'a LocatedAttribute {
        t.attributes.iter().find(|a| a.name == name).unwrap()
    }

    #[test]
    fn attributes_are_located_in_every_quoting_style() {
        let html = "<A HREF=\"/x\" title='t'><img src=/y.png alt=a\n  srcset = 'a.png 1x'>";
        let t = tags(html);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].name, "a");
        let href = attr(&t[0], "href");
        assert_eq!(&html[href.raw.clone().unwrap()], "/x");
        assert!(href.exact);
        let src = attr(&t[1], "src");
        assert_eq!(&html[src.raw.clone().unwrap()], "/y.png");
        let srcset = attr(&t[1], "srcset");
        assert_eq!(&html[srcset.raw.clone().unwrap()], "a.png 1x");
    }

    #[test]
    fn comments_scripts_and_styles_hide_tags() {
        let html = "<!-- <a href=1> --><script>x='<a href=2>'</script><style>a{}</style>\
                    <textarea><a href=3></textarea><a href=4>";
        let t = tags(html);
        let hrefs: Vec<&str> = t
            .iter()
            .filter(|t| t.name == "a")
            .map(|t| attr(t, "href").value.as_str())
            .collect();
        assert_eq!(hrefs, ["4"]);
        let a = t.iter().find(|t| t.name == "a").unwrap();
        assert_eq!(a.start, html.rfind("<a").unwrap());
    }

    #[test]
    fn duplicates_keep_the_first_and_values_decode() {
        let html = "<a href='/r&eacute;sum&#xE9;' HREF=/other>";
        let a = &tags(html)[0];
        assert_eq!(a.attributes.len(), 1);
        let href = attr(a, "href");
        assert_eq!(href.value, "/résumé");
        assert!(href.exact);
        assert_eq!(&html[href.map.to_source(2..4)], "&eacute;");
    }

    #[test]
    fn foreign_content_and_cdata() {
        let html = "<svg><![CDATA[<a href=1>]]><a xlink:href='#i'/></svg><p>";
        let t = tags(html);
        let a = t.iter().find(|t| t.name == "a").unwrap();
        assert!(a.foreign);
        assert_eq!(attr(a, "xlink:href").value, "#i");
        assert!(!t.iter().find(|t| t.name == "p").unwrap().foreign);
    }

    #[test]
    fn truncated_markup_does_not_panic() {
        for html in [
            "<a href=\"x",
            "<a href=",
            "<",
            "<!--",
            "<a",
            "</",
            "<a href='&#x",
            "<svg><![CDATA[",
        ] {
            let _ = tags(html);
        }
    }
}
