//! Template expressions in link positions: placeholders, not IRI characters.
//!
//! The layouts of documentation sites keep expressions where a link will be: Hugo and Go
//! templates, Jinja, Liquid (Jekyll, Eleventy) and Nunjucks write `{{ .Permalink }}`,
//! `{% link x.md %}` and `{# comment #}`, Handlebars and Mustache `{{{ url }}}`, ERB and EJS
//! `<%= url %>`, JavaScript template literals, JSP EL and many others `${ base }`, and XSLT
//! attribute value templates `{$filename}`. Such an expression is a *placeholder*: what it
//! becomes is unknown, so it is neither reported nor allowed to make the IRI invalid, while the
//! literal characters around it are checked as parts of the IRI (a U+202E or a Cyrillic host next
//! to `{{ .Permalink }}` is still found, with its exact span).
//!
//! Extractors find placeholders in the prepared IRI ([`placeholders`], or [`xslt_avt`] for XSLT
//! literal result elements) and keep their ranges in [`super::Occurrence::placeholders`]. The
//! rules then run on [`stand_in`]: the same text with each placeholder byte replaced by one ASCII
//! character the parser accepts everywhere the expression may stand, so every byte offset — and
//! so every span through the [`super::SpanMap`] — stays what it was. Findings that lie wholly
//! inside a placeholder, and fixes that would edit one, are dropped by the rule engine.
//!
//! Only balanced delimiters make a placeholder: an unclosed `{{` or `<%` is plain characters,
//! checked as such (`{` is then `syntax-unwise-ascii`, as it should be).
//!
//! Triple braces (`{{{ … }}}`, unescaped output in Handlebars and Mustache) are one placeholder
//! up to `}}}`. The content of a placeholder is the template language's business and is not
//! read — except that text holding a character unsafe to display (a U+202E, a U+200B) is never
//! a placeholder: such a character in a link stays reported wherever it is. An expression is at
//! most [`MAX_EXPRESSION`] bytes long, which keeps the search linear on hostile input.

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem::Finder;

/// The openers of template expressions and their closers, longest opener first so that
/// `{{{` wins over `{{` and `<%=` needs no entry of its own (`<%` covers `<%=`, `<%-`, `<%#`).
const DELIMITERS: &[(&str, &str)] = &[
    ("{{{", "}}}"),
    ("{{", "}}"),
    ("{%", "%}"),
    ("{#", "#}"),
    ("<%", "%>"),
];

/// The longest template expression, in bytes: longer text between delimiters is not taken for
/// one (no layout writes a 4 KiB expression into a link).
pub const MAX_EXPRESSION: usize = 4096;

/// True when the expression `iri[range]` may be a placeholder: short enough, and nothing in it
/// that must be reported wherever it is (line breaks and tabs of a wrapped expression are not).
fn acceptable(iri: &str, range: Range<usize>) -> bool {
    range.len() <= MAX_EXPRESSION
        && !iri[range]
            .chars()
            .any(|c| !matches!(c, '\n' | '\r' | '\t') && crate::iri::chars::is_unsafe_to_display(c))
}

/// The most placeholders of each kind an IRI keeps (64 KiB of ranges): past them, what would be
/// one is checked as the characters it is. A placeholder is 16 bytes, and an IRI of nothing but
/// `{{x}}` held twelve bytes per byte of it in its placeholders and their copies.
pub const MAX_PLACEHOLDERS: usize = 4096;

/// The byte ranges of the template expressions in `iri`, in order and disjoint: `{{ … }}`,
/// `{{{ … }}}`, `{% … %}`, `{# … #}`, `<% … %>` (and `<%= … %>`), `${ … }` (braces nested).
pub fn placeholders(iri: &str) -> Vec<Range<usize>> {
    let bytes = iri.as_bytes();
    let mut closers = Closers::default();
    let mut out = Vec::new();
    let mut i = 0;
    // From one possible opener to the next (`{`, `<`, `$`): most IRIs have none.
    while let Some(k) = memchr::memchr3(b'{', b'<', b'$', &bytes[i..]) {
        if out.len() >= MAX_PLACEHOLDERS {
            break;
        }
        i += k;
        if let Some(end) = expression_end(iri, i, &mut closers) {
            out.push(i..end);
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// Where the next closer of each delimiter is, found once and reused while the scan is before
/// it, so that text full of openers (`{{{{{{…`) is searched in linear time.
#[derive(Default)]
struct Closers {
    /// Per entry of [`DELIMITERS`]: searched from this position, found there (`None`: no more).
    next: [Option<(usize, Option<usize>)>; DELIMITERS.len()],
}

impl Closers {
    /// The first position of closer `k` at or after `from`.
    fn find(&mut self, iri: &str, k: usize, from: usize) -> Option<usize> {
        if let Some((searched, found)) = self.next[k]
            && searched <= from
            && found.is_none_or(|f| f >= from)
        {
            return found;
        }
        let found = iri
            .get(from..)
            .and_then(|r| r.find(DELIMITERS[k].1))
            .map(|p| from + p);
        self.next[k] = Some((from, found));
        found
    }
}

/// The closer of the first template expression of `iri` that is opened and never closed: the
/// sign of an attribute value the HTML tokenizer cut at a quote inside the expression
/// (`href="{{ "a.css" | relURL }}"` is `{{ ` to it).
pub fn unclosed(iri: &str) -> Option<&'static str> {
    let bytes = iri.as_bytes();
    let mut i = 0;
    while let Some(k) = memchr::memchr3(b'{', b'<', b'$', &bytes[i..]) {
        i += k;
        if let Some(end) = expression_end(iri, i, &mut Closers::default()) {
            i = end;
            continue;
        }
        let rest = &bytes[i..];
        if rest.starts_with(b"${") {
            return Some("}");
        }
        if let Some((_, close)) = DELIMITERS
            .iter()
            .find(|(o, _)| rest.starts_with(o.as_bytes()))
        {
            return Some(close);
        }
        i += 1;
    }
    None
}

/// The end of a template expression starting at `at`, when one starts there and is closed.
fn expression_end(iri: &str, at: usize, closers: &mut Closers) -> Option<usize> {
    // Checked on the byte first: `at` may be inside a multi-byte character, and every opener
    // starts with an ASCII byte, which is always a character boundary.
    if !matches!(iri.as_bytes()[at], b'{' | b'<' | b'$') {
        return None;
    }
    let rest = &iri[at..];
    if rest.starts_with("${") {
        return braced_end(iri, at + 1, false).filter(|&end| acceptable(iri, at..end));
    }
    let k = DELIMITERS.iter().position(|(o, _)| rest.starts_with(o))?;
    let (open, close) = DELIMITERS[k];
    let end = closers.find(iri, k, at + open.len())? + close.len();
    acceptable(iri, at..end).then_some(end)
}

/// The end of the braced expression whose `{` is at `at`, braces nested; with `literal_pairs`
/// (XSLT), `{{` and `}}` inside string literals are not special, and quotes are honoured.
fn braced_end(iri: &str, at: usize, literal_pairs: bool) -> Option<usize> {
    let bytes = &iri.as_bytes()[..iri.len().min(at + MAX_EXPRESSION)];
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut i = at;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if literal_pairs && (b == b'"' || b == b'\'') => quote = Some(b),
            None if b == b'{' => depth += 1,
            None if b == b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            None => {}
        }
        i += 1;
    }
    None
}

/// The expressions of an XSLT attribute value template (XSLT 1.0 §7.6.2): each `{…}` not written
/// as `{{`, up to the first `}` outside a string literal. `{{` and `}}` are literal braces and
/// stay characters of the IRI. An unclosed `{` is a plain character.
pub fn xslt_avt(iri: &str) -> Vec<Range<usize>> {
    let bytes = iri.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() && out.len() < MAX_PLACEHOLDERS {
        match bytes[i] {
            b'{' if bytes.get(i + 1) == Some(&b'{') => i += 2,
            b'}' if bytes.get(i + 1) == Some(&b'}') => i += 2,
            b'{' => match avt_expression_end(iri, i).filter(|&end| acceptable(iri, i..end)) {
                Some(end) => {
                    out.push(i..end);
                    i = end;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    out
}

/// The end of the AVT expression whose `{` is at `at`: the first `}` outside quotes (XPath has
/// no braces of its own outside string literals in XSLT 1.0; 2.0+ map constructors nest).
fn avt_expression_end(iri: &str, at: usize) -> Option<usize> {
    braced_end(iri, at, true)
}

/// The byte that stands in for placeholder bytes: a digit (script Common, valid in a host, a
/// port, a path, a query and a fragment), or a letter for an expression at the start of the IRI
/// that a `:` follows, where it can only be the scheme.
fn stand_in_byte(iri: &str, range: &Range<usize>) -> u8 {
    if range.start == 0 && iri[range.end..].starts_with(':') {
        b'x'
    } else {
        b'0'
    }
}

/// `iri` with each byte of each of `placeholders` replaced by an ASCII stand-in: same length,
/// same offsets, and text the IRI parser accepts where the expression stands.
pub fn stand_in(iri: &str, placeholders: &[Range<usize>]) -> String {
    let mut bytes = iri.as_bytes().to_vec();
    for r in placeholders {
        let b = stand_in_byte(iri, r);
        bytes[r.clone()].fill(b);
    }
    // Placeholders start and end on character boundaries (their delimiters are ASCII), so
    // replacing whole ranges by ASCII keeps the text UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|_| iri.to_string())
}

/// The template expressions of a whole document that each stay on one line (a Markdown
/// document: `{{ site.baseurl }}` in a link destination), and those that open a link
/// destination (`](` or `](<`) and go on over the next lines of its paragraph
/// (`[a]({{ "/x" |⏎ relative_url }})`, as templates are wrapped), in order and disjoint.
pub fn line_placeholders(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // The scan goes from one possible opener to the next over the whole text, and only a line
    // that has one is delimited: a document is mostly lines without any. An expression is
    // searched for in `text[..line_end]`, which is [`placeholders`] of the line: every search
    // from an opener only looks forward, and never past the end of the opener's line.
    let mut closers = Closers::default();
    let mut line_end = 0;
    // Openers inside an expression already found are passed over. (One iterator over the
    // text: restarting a search at every opener costs more than the search.)
    let mut next = 0;
    for i in opener_starts(bytes) {
        if out.len() >= MAX_MASKS {
            break;
        }
        if i < next {
            continue;
        }
        if i >= line_end {
            line_end = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n + 1);
            // The closers found so far lie on an earlier line.
            closers = Closers::default();
        }
        if let Some(end) = expression_end(&text[..line_end], i, &mut closers) {
            out.push(i..end);
            next = end;
        }
    }
    let multi_line = multi_line_destinations(text);
    if multi_line.is_empty() {
        return out;
    }
    out.extend(multi_line);
    disjoint(out)
}

/// Where each two-byte opener of [`DELIMITERS`] or `${` starts in `bytes`, in order: every one
/// holds a `{` or a `%`, which are searched for instead of the openers' first bytes, since the
/// `<` of Markdown's HTML and autolinks is far more common than both and opens nothing but `<%`
/// (the search for `{`, `<` and `$` stopped at every tag: most of the template search's 14.8 M
/// instructions on the corpus's Markdown).
fn opener_starts(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let opens = |at: usize| {
        matches!(
            (bytes[at], bytes.get(at + 1)),
            (b'{', Some(b'{' | b'%' | b'#')) | (b'<', Some(b'%')) | (b'$', Some(b'{'))
        )
    };
    // The last start handed on, so that an opener found from both of its bytes (`{{`) is
    // handed on once.
    let mut last = None;
    memchr::memchr2_iter(b'{', b'%', bytes).flat_map(move |j| {
        // The opener whose second byte this is, then the one whose first byte it is.
        let before = (j > 0 && last.is_none_or(|l| l < j - 1) && opens(j - 1)).then(|| j - 1);
        let here = opens(j).then_some(j);
        if let Some(s) = here.or(before) {
            last = Some(s);
        }
        before.into_iter().chain(here)
    })
}

/// The most ranges a list of masks made over a whole document holds (template expressions,
/// template actions with markup, JSX attribute expressions, MDX comments and module blocks,
/// component tag lines): each takes 16 bytes, and is kept with its copies while the document is
/// read, so that a document of nothing but them held up to ten bytes per byte (48 MB of `<X>`
/// lines: 499 MB). Past them a document is read as written, as CommonMark or HTML reads it.
pub const MAX_MASKS: usize = 1 << 16;

/// `ranges` sorted, the earlier of two overlapping ones kept.
pub fn disjoint(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    // Most IRIs have no placeholder: nothing to sort or copy.
    if ranges.len() < 2 {
        return ranges;
    }
    ranges.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
    let mut kept: Vec<Range<usize>> = Vec::new();
    for r in ranges {
        if kept.last().is_none_or(|k| k.end <= r.start) {
            kept.push(r);
        }
    }
    kept
}

/// The `](` that opens a Markdown link destination, searched for with a searcher built once
/// (`memmem::find` builds one per call).
pub(super) static LINK_DESTINATION: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("]("));

/// Template expressions that start a Markdown link destination and end on a later line of the
/// same paragraph (no blank line inside).
fn multi_line_destinations(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut closers = Closers::default();
    let mut out = Vec::new();
    let mut from = 0;
    for k in LINK_DESTINATION.find_iter(bytes) {
        if out.len() >= MAX_MASKS {
            break;
        }
        if k < from {
            continue;
        }
        let mut at = k + 2;
        if bytes.get(at) == Some(&b'<') && bytes.get(at + 1) != Some(&b'%') {
            at += 1;
        }
        from = at;
        if at >= bytes.len() || !matches!(bytes[at], b'{' | b'<' | b'$') {
            continue;
        }
        let Some(end) = expression_end(text, at, &mut closers) else {
            continue;
        };
        let expression = &text[at..end];
        let blank_line = expression.split('\n').skip(1).any(|l| l.trim().is_empty());
        if expression.contains('\n') && !blank_line {
            out.push(at..end);
            from = end;
        }
    }
    out
}

/// The template actions of a whole markup document (a Hugo, Jekyll or Jinja layout) whose string
/// literals hold markup: `{{ printf "<atom:link href=%q rel=\"self\" />" .Permalink }}`,
/// `{{ printf "<?xml version=\"1.0\"?>" | safeHTML }}`, `{% set a = '<a href="x">' %}`. A
/// tokenizer would read the markup inside the string as tags of the document; such an action is
/// a placeholder whole ([`blank`] it before tokenizing). Actions without markup in a string are
/// left to the tokenizer (their `{{ .Permalink }}` in an attribute is a placeholder of the IRI).
/// In order, disjoint; linear in the text (each action is at most [`MAX_EXPRESSION`] bytes).
pub fn markup_actions(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut closers = Closers::default();
    let mut out = Vec::new();
    let mut next = 0;
    for i in memchr::memchr_iter(b'{', bytes) {
        if out.len() >= MAX_MASKS {
            break;
        }
        if i < next || !matches!(bytes.get(i + 1), Some(b'{' | b'%')) {
            continue;
        }
        let Some(end) = expression_end(text, i, &mut closers) else {
            continue;
        };
        next = end;
        if string_holds_markup(&bytes[i..end]) {
            out.push(i..end);
        }
    }
    out
}

/// The template actions that stand inside a start tag between its attributes, outside quotes
/// (`<svg {{ with .width }}width="{{ . }}"{{ end }}>` in a Hugo partial saved as `.svg`): no
/// markup language has them there, so an XML parser stops at the first; blanked ([`blank`]),
/// the tag is the one the engine writes when the condition holds. Actions inside a quoted
/// value are left to the value (placeholders of its IRI). At most [`MAX_MASKS`]; linear in the
/// text (a tag is read once, each action is at most [`MAX_EXPRESSION`] bytes).
pub fn tag_actions(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut closers = Closers::default();
    let mut out = Vec::new();
    let mut i = 0;
    let mut in_tag = false;
    let mut quote: Option<u8> = None;
    while i < b.len() && out.len() < MAX_MASKS {
        let c = b[i];
        match (in_tag, quote) {
            (false, _) => {
                match memchr::memchr(b'<', &b[i..]) {
                    Some(at) => i += at,
                    None => break,
                }
                in_tag = b
                    .get(i + 1)
                    .is_some_and(|n| n.is_ascii_alphabetic() || *n == b'_');
                i += 1;
                continue;
            }
            (true, Some(q)) => {
                if c == q {
                    quote = None;
                }
            }
            (true, None) => match c {
                b'"' | b'\'' => quote = Some(c),
                b'>' => in_tag = false,
                b'{' if matches!(b.get(i + 1), Some(b'{' | b'%')) => {
                    if let Some(end) = expression_end(text, i, &mut closers) {
                        out.push(i..end);
                        i = end;
                        continue;
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    out
}

/// The end of the template action (`{{ … }}`, `{% … %}`, `{# … #}`, `<% … %>`) that starts at
/// `at` of `text`, if one does.
pub fn leading_action_end(text: &str, at: usize) -> Option<usize> {
    if at >= text.len() || text.as_bytes()[at..].starts_with(b"${") {
        return None;
    }
    expression_end(text, at, &mut Closers::default())
}

/// True when `text` (the start of a page) is template source rather than the page a browser
/// gets: it starts with front matter, or holds a `{{ … }}`, `{% … %}` or `<% … %>` action.
/// What the engine outputs in their place is unknown, so positions in the source (a `<meta
/// charset>` after 1024 bytes) say nothing about positions in the page.
pub fn is_template_source(text: &str) -> bool {
    let body = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    if body.starts_with("---\n") || body.starts_with("---\r\n") || body.starts_with("+++") {
        return true;
    }
    let bytes = text.as_bytes();
    let mut closers = Closers::default();
    // The `{` openers, then the `<%` ones found by their `%`: a search stopping at every `<`
    // stopped at every tag of an XML file (35.4 M instructions on 10,000 of the corpus's SVG
    // and Mallard files, 27 MB). Which openers are tried first does not change the answer: each
    // opener's expression is its own, and the closers are searched again when the cache is
    // behind.
    let braces =
        memchr::memchr_iter(b'{', bytes).filter(|&i| matches!(bytes.get(i + 1), Some(b'{' | b'%')));
    let erb = memchr::memchr_iter(b'%', bytes)
        .filter(|&i| i > 0 && bytes[i - 1] == b'<')
        .map(|i| i - 1);
    braces
        .chain(erb)
        .any(|i| expression_end(text, i, &mut closers).is_some())
}

/// True when a string literal of the template action `action` (in `"…"`, `'…'` or `` `…` ``,
/// with `\` escapes) holds a `<` that opens markup (`<a`, `</a`, `<?xml`, `<!--`), and no tag
/// stands outside its strings (then the `{{` was text and the "action" runs over the page).
fn string_holds_markup(action: &[u8]) -> bool {
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < action.len() {
        let b = action[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_)
                if b == b'<'
                    && action.get(i + 1).is_some_and(|c| {
                        c.is_ascii_alphabetic() || matches!(c, b'/' | b'?' | b'!')
                    }) =>
            {
                return true;
            }
            Some(_) => {}
            None if matches!(b, b'"' | b'\'' | b'`') => quote = Some(b),
            // A tag outside any string: no action's code holds one, so the `{{` that began
            // this was text (`<code>{{</code>` in a page about templates), not an action.
            None if b == b'<'
                && action
                    .get(i + 1)
                    .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'/' | b'!')) =>
            {
                return false;
            }
            None => {}
        }
        i += 1;
    }
    false
}

/// What the string literals of `action` (one of [`markup_actions`], a range of `text`) hold, at
/// their places in the action, and nothing else: every other byte blanked (line ends kept), the
/// quotes too, and each backslash of an escape (`\"` reads `"`). The markup in them (`<a
/// href="https://…">` of a Jinja `{% trans %}`) is then read where it is written: offset 0 of the
/// result is `action.start` of `text`.
pub fn markup_string(text: &str, action: Range<usize>) -> String {
    let src = &text.as_bytes()[action];
    let mut out: Vec<u8> = src
        .iter()
        .map(|&b| if b == b'\n' || b == b'\r' { b } else { b' ' })
        .collect();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        match quote {
            Some(_) if b == b'\\' && i + 1 < src.len() => {
                // The escaped character stays, the backslash goes (a multi-byte character's
                // other bytes are copied by the next turns).
                out[i + 1] = src[i + 1];
                i += 2;
                continue;
            }
            Some(q) if b == q => quote = None,
            Some(_) => out[i] = b,
            None if matches!(b, b'"' | b'\'' | b'`') => quote = Some(b),
            None => {}
        }
        i += 1;
    }
    // Only whole characters were copied (a string's bytes between ASCII quotes), and the rest
    // is ASCII: still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// `text` with each of `ranges` blanked: every byte but line ends becomes a space, so offsets and
/// lines stay those of `text` (ranges start and end at ASCII bytes: the result is UTF-8).
pub fn blank<'t>(text: &'t str, ranges: &[Range<usize>]) -> std::borrow::Cow<'t, str> {
    if ranges.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for r in ranges {
        for b in &mut bytes[r.clone()] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    std::borrow::Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_string()))
}

/// `text` with each of `masks` replaced by as many `x` (a letter with no meaning in Markdown).
pub fn mask(text: &str, masks: &[Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for m in masks {
        bytes[m.clone()].fill(b'x');
    }
    // Masks start and end at ASCII delimiters, so the text stays UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// Puts the original text of `masks` (ranges of `original`) back into an occurrence extracted
/// from the masked text, and marks it as placeholders. Masked bytes are plain letters, copied
/// one to one, so each is found through the map.
pub fn unmask(occ: &mut super::Occurrence, original: &str, masks: &[Range<usize>]) {
    let src = occ.map.source_range();
    let mut found = Vec::new();
    // The masks (sorted, disjoint) over the occurrence, found by a binary search, and the IRI
    // rebuilt once: a search of every mask and a copy of the IRI per mask, for each occurrence,
    // took 28 s for 200,000 links each with a template expression.
    let first = masks.partition_point(|m| m.end <= src.start);
    let mut iri: Option<Vec<u8>> = None;
    for m in masks[first..].iter().take_while(|m| m.start < src.end) {
        crate::work::add(crate::work::Work::TemplateLookups, 1);
        let (s, e) = (m.start.max(src.start), m.end.min(src.end));
        let (Some(ps), Some(pe)) = (occ.map.to_prepared(s), occ.map.to_prepared(e - 1)) else {
            continue;
        };
        let pe = pe + 1;
        let whole = |t: &str, a, b| t.is_char_boundary(a) && t.is_char_boundary(b);
        if pe - ps != e - s || !whole(&occ.iri, ps, pe) || !whole(original, s, e) {
            continue;
        }
        // As long as what it replaces: nothing after it moves.
        iri.get_or_insert_with(|| occ.iri.as_bytes().to_vec())[ps..pe]
            .copy_from_slice(&original.as_bytes()[s..e]);
        found.push(ps..pe);
    }
    // Whole characters replaced by whole characters: still UTF-8.
    if let Some(iri) = iri.and_then(|b| String::from_utf8(b).ok()) {
        occ.iri = iri.into();
    }
    if !found.is_empty() {
        found.extend(std::mem::take(&mut occ.placeholders));
        found.sort_by_key(|r| r.start);
        for r in found {
            if occ.placeholders.last().is_none_or(|l| l.end <= r.start) {
                occ.placeholders.push(r);
            }
        }
    }
}

/// The last of `placeholders` (sorted and disjoint, as [`disjoint`] makes them) that starts at
/// or before `at` (`inclusive`) or before it: the only one that can hold `at`. Found by a binary
/// search: a finding is judged against an IRI's placeholders for every report, and an IRI of
/// 80,000 of them, each with a hidden character, took 10 s with a scan of them all per report.
fn last_starting_before(
    placeholders: &[Range<usize>],
    at: usize,
    inclusive: bool,
) -> Option<&Range<usize>> {
    crate::work::add(crate::work::Work::TemplateLookups, 1);
    let k = placeholders.partition_point(|p| p.start < at || (inclusive && p.start == at));
    k.checked_sub(1).map(|k| &placeholders[k])
}

/// True when `range` (of the prepared IRI) lies wholly inside the placeholders (sorted and
/// disjoint).
pub fn covered(placeholders: &[Range<usize>], range: &Range<usize>) -> bool {
    if range.is_empty() {
        return last_starting_before(placeholders, range.start, false)
            .is_some_and(|p| range.start < p.end);
    }
    last_starting_before(placeholders, range.start, true).is_some_and(|p| range.end <= p.end)
}

/// `range` without the placeholders (sorted and disjoint) it starts or ends in (a range wholly
/// inside one, or with literal characters only inside it, is returned as it is).
pub fn clip(placeholders: &[Range<usize>], mut range: Range<usize>) -> Range<usize> {
    // A placeholder it starts in, and the ones right after it that it runs through.
    while let Some(p) = last_starting_before(placeholders, range.start, true)
        && range.start < p.end
        && p.end < range.end
    {
        range.start = p.end;
    }
    if let Some(p) = last_starting_before(placeholders, range.end, false)
        && p.start > range.start
        && range.end <= p.end
    {
        range.end = p.start;
    }
    range
}

/// True when `range` (of the prepared IRI) touches a placeholder (of a sorted, disjoint list):
/// an edit there would rewrite the template or the stand-in.
pub fn touches(placeholders: &[Range<usize>], range: &Range<usize>) -> bool {
    let end = range.end.max(range.start + 1);
    last_starting_before(placeholders, end, false).is_some_and(|p| range.start < p.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An action is found by any of its openers, wherever the others are, and markup full of
    /// `<` and `%` that opens none is not template source.
    #[test]
    fn template_source_is_found_by_each_opener() {
        for source in [
            "<svg><text><%= title %></text></svg>",
            "<svg width=\"100%\"><a href=\"{{ .URL }}\"/></svg>",
            "<p>{% if x %}y{% endif %}</p>",
            "<a>{{ .URL </a><b><% x %></b>",
            "<a><% x </a>{{ .URL }}",
            "---\ntitle: x\n---\n<svg/>",
        ] {
            assert!(is_template_source(source), "{source}");
        }
        for source in [
            "<svg width=\"100%\" height=\"50%\"><g><path d=\"M0 0\"/></g></svg>",
            "<a>{{ never closed</a><b><% nor this</b>",
            "<style>a { color: red }</style><p>{#x#}</p>",
            "<p>%> }} %}</p>",
        ] {
            assert!(!is_template_source(source), "{source}");
        }
    }

    /// [`covered`], [`clip`] and [`touches`] by binary search agree with a scan of every
    /// placeholder, on every range over sorted, disjoint placeholders (adjacent ones included).
    #[test]
    fn placeholder_searches_agree_with_a_scan() {
        fn covered_scan(ps: &[Range<usize>], r: &Range<usize>) -> bool {
            if r.is_empty() {
                return ps.iter().any(|p| p.start < r.start && r.start < p.end);
            }
            ps.iter().any(|p| p.start <= r.start && r.end <= p.end)
        }
        fn clip_scan(ps: &[Range<usize>], mut r: Range<usize>) -> Range<usize> {
            for p in ps {
                if p.start <= r.start && r.start < p.end && p.end < r.end {
                    r.start = p.end;
                }
                if p.start > r.start && p.start < r.end && r.end <= p.end {
                    r.end = p.start;
                }
            }
            r
        }
        fn touches_scan(ps: &[Range<usize>], r: &Range<usize>) -> bool {
            ps.iter()
                .any(|p| p.start < r.end.max(r.start + 1) && r.start < p.end)
        }
        let layouts: [&[Range<usize>]; 5] = [
            &[],
            &[3..6, 13..14],
            &[1..3, 3..5, 5..6, 8..11],
            &[0..2, 4..5, 7..12],
            &[2..4, 4..7, 9..10, 10..12],
        ];
        for ps in layouts {
            for start in 0..14 {
                for end in start..14 {
                    let r = start..end;
                    assert_eq!(
                        covered(ps, &r),
                        covered_scan(ps, &r),
                        "covered {ps:?} {r:?}"
                    );
                    assert_eq!(
                        clip(ps, r.clone()),
                        clip_scan(ps, r.clone()),
                        "clip {ps:?} {r:?}"
                    );
                    assert_eq!(
                        touches(ps, &r),
                        touches_scan(ps, &r),
                        "touches {ps:?} {r:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn overlapping_ranges_keep_the_earlier() {
        assert_eq!(disjoint(vec![5..9, 0..3, 2..4, 5..6]), [0..3, 5..9]);
    }

    /// `line_placeholders` passes over a `{`, `<` or `$` whose next byte is not one of these.
    #[test]
    fn every_opener_has_a_second_byte_the_scan_looks_for() {
        for open in DELIMITERS.iter().map(|(o, _)| *o).chain(["${"]) {
            assert!(matches!(open.as_bytes()[1], b'{' | b'%' | b'#'), "{open}");
        }
    }

    fn found<'a>(iri: &'a str, ranges: &[Range<usize>]) -> Vec<&'a str> {
        ranges.iter().map(|r| &iri[r.clone()]).collect()
    }

    #[test]
    fn each_template_language_is_a_placeholder() {
        let iri =
            "{{ .Site.BaseURL }}/a/{% link x.md %}?q={{{ raw }}}&r=<%= u %>#${ f({a: 1}) }{# c #}";
        assert_eq!(
            found(iri, &placeholders(iri)),
            [
                "{{ .Site.BaseURL }}",
                "{% link x.md %}",
                "{{{ raw }}}",
                "<%= u %>",
                "${ f({a: 1}) }",
                "{# c #}"
            ]
        );
    }

    #[test]
    fn unbalanced_delimiters_are_plain_characters() {
        for iri in [
            "https://example.org/{{ x",
            "https://example.org/{% x }}",
            "https://example.org/${a{b}",
            "<% x",
            "{",
            "$",
            "}}",
            "{{}",
        ] {
            assert!(placeholders(iri).is_empty(), "{iri}");
        }
        assert_eq!(found("a{{b{{c}}", &placeholders("a{{b{{c}}")), ["{{b{{c}}"]);
    }

    #[test]
    fn non_ascii_text_around_placeholders_is_walked_safely() {
        let iri = "https://{{ lang }}.\u{430}pple.com/\u{6771}{{ p }}\u{202E}";
        assert_eq!(found(iri, &placeholders(iri)), ["{{ lang }}", "{{ p }}"]);
        assert!(xslt_avt("\u{430}{\u{430}}\u{430}").len() == 1);
    }

    #[test]
    fn an_unclosed_expression_names_its_closer() {
        assert_eq!(unclosed("{{ "), Some("}}"));
        assert_eq!(unclosed("{{ a }}/<%= f("), Some("%>"));
        assert_eq!(unclosed("a/${f("), Some("}"));
        assert_eq!(unclosed("{{ a }}/b"), None);
        assert_eq!(unclosed("https://example.org/"), None);
    }

    #[test]
    fn hidden_characters_are_never_inside_a_placeholder() {
        let iri = "https://example.org/{{ \u{202E} }}/${\u{200B}}";
        assert!(placeholders(iri).is_empty());
        assert!(xslt_avt("{$a\u{202E}}").is_empty());
        // Non-ASCII that is safe to show is the template's business.
        assert_eq!(placeholders("{{ \"\u{6771}\" }}").len(), 1);
    }

    #[test]
    fn long_or_hostile_input_stays_linear() {
        let many = "{{".repeat(100_000);
        assert!(placeholders(&many).is_empty());
        let long = format!("{{{{ {} }}}}", "a".repeat(MAX_EXPRESSION));
        assert!(placeholders(&long).is_empty());
        assert!(xslt_avt(&"{".repeat(50_000)).is_empty());
    }

    /// Every string made of `pieces` pieces of `alphabet`, in a fixed order.
    fn every_string<'a>(alphabet: &'a [&'a str], pieces: u32) -> impl Iterator<Item = String> + 'a {
        let n = alphabet.len();
        (0..n.pow(pieces)).map(move |mut k| {
            let mut s = String::new();
            for _ in 0..pieces {
                s.push_str(alphabet[k % n]);
                k /= n;
            }
            s
        })
    }

    #[test]
    fn any_mix_of_delimiters_gives_disjoint_in_bounds_placeholders() {
        // Every string of up to 5 pieces from an alphabet of delimiters and multi-byte
        // characters: no panic, placeholders disjoint and on character boundaries, and the
        // stand-in as long as the text.
        let alphabet = [
            "{", "}", "{{", "}}", "%", "<", ">", "$", "#", "'", "\u{430}", "\u{202E}", "a",
        ];
        for s in every_string(&alphabet, 5) {
            for found in [
                placeholders(&s),
                xslt_avt(&s),
                crate::extract::text_placeholders::placeholders(&s),
            ] {
                let mut end = 0;
                for r in &found {
                    assert!(r.start >= end && r.end <= s.len(), "{s:?}: {found:?}");
                    assert!(s.is_char_boundary(r.start) && s.is_char_boundary(r.end));
                    end = r.end;
                }
                assert_eq!(stand_in(&s, &found).len(), s.len());
            }
            let _ = unclosed(&s);
            let _ = crate::extract::text_placeholders::macro_cut(&s);
        }
    }

    /// [`line_placeholders`]' one-line expressions as they were first found: [`placeholders`]
    /// of each line in turn.
    fn one_line_oracle(text: &str) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            out.extend(
                placeholders(line)
                    .into_iter()
                    .map(|r| start + r.start..start + r.end),
            );
            start += line.len();
        }
        out
    }

    #[test]
    fn the_whole_text_scan_finds_what_each_line_holds() {
        // Every string of up to 5 pieces, line breaks among them; no `](`, so only one-line
        // expressions are found.
        let alphabet = [
            "{", "}", "{{", "}}", "%", "<", "$", "#", "\n", "a", "\u{430}", "\u{202E}",
        ];
        for s in every_string(&alphabet, 5) {
            assert_eq!(line_placeholders(&s), one_line_oracle(&s), "{s:?}");
        }
        let doc = "a {{ x }} b\n<% y\n%> {% z %}\n${ {a} }\n{{ w";
        assert_eq!(line_placeholders(doc), one_line_oracle(doc));
        assert_eq!(line_placeholders(doc).len(), 3);
    }

    #[test]
    fn a_dollar_without_brace_is_an_iri_character() {
        assert!(placeholders("https://example.org/$x?a=$b").is_empty());
    }

    #[test]
    fn xslt_avts_keep_doubled_braces_literal() {
        let iri = "{$base}/x{{y}}/{concat('a}', $b)}/{";
        assert_eq!(
            found(iri, &xslt_avt(iri)),
            ["{$base}", "{concat('a}', $b)}"]
        );
        assert!(xslt_avt("a{{b}}c").is_empty());
        assert!(xslt_avt("a{'b").is_empty());
    }

    #[test]
    fn the_stand_in_keeps_offsets_and_parses() {
        let iri = "{{ .Scheme }}://{{ host }}:{{ port }}/\u{202E}/{{ p }}";
        let ph = placeholders(iri);
        let s = stand_in(iri, &ph);
        assert_eq!(s.len(), iri.len());
        assert!(s.starts_with("xxxxxxxxxxxxx://0000000000:0000000000/"));
        assert_eq!(s.find('\u{202E}'), iri.find('\u{202E}'));
        assert!(crate::iri::analyze(&s).is_valid());
    }

    #[test]
    fn coverage_is_whole_containment() {
        let ph = vec![3..8, 20..25];
        assert!(covered(&ph, &(3..8)));
        assert!(covered(&ph, &(4..5)));
        assert!(!covered(&ph, &(2..4)));
        assert!(!covered(&ph, &(8..9)));
        assert!(touches(&ph, &(2..4)));
        assert!(!touches(&ph, &(8..9)));
        assert!(touches(&ph, &(5..5)));
        assert_eq!(clip(&ph, 3..12), 8..12);
        assert_eq!(clip(&ph, 0..22), 0..20);
        assert_eq!(clip(&ph, 0..30), 0..30);
        assert_eq!(clip(&ph, 10..15), 10..15);
    }
}
