//! IRIs in HTML: every URL-valued attribute of the HTML standard, decoded as a browser decodes
//! it (RFC 3987 §5.2 preparation) and mapped back to the exact source characters.
//!
//! Which attributes ([`URL_ATTRIBUTES`]):
//!
//! | elements | attribute | value |
//! |---|---|---|
//! | `a` `area` `link` `base` | `href` | URL |
//! | `img` `source` `script` `iframe` `frame` `embed` `audio` `video` `track` `input` | `src` | URL |
//! | `img` `source` | `srcset` | each candidate's URL |
//! | `form` | `action` | URL |
//! | `button` `input` | `formaction` | URL |
//! | `blockquote` `q` `del` `ins` | `cite` | URL |
//! | `object` | `data` | URL |
//! | `video` | `poster` | URL |
//! | `html` | `manifest` | URL |
//! | `a` `area` | `ping` | space-separated URLs |
//! | `body` `table` `td` `th` | `background` | URL |
//! | `img` `iframe` `frame` | `longdesc` | URL |
//! | `img` `object` `input` | `usemap` | URL |
//! | any | `itemid` | URL |
//! | any | `itemtype` | space-separated URLs |
//! | any | `xmlns`, `xmlns:*` | URL |
//! | any inside `<svg>`/`<math>` | `href`, `xlink:href` | URL |
//! | `meta http-equiv="refresh"` | `content` | the URL after `url=` |
//!
//! Values are stripped of leading and trailing ASCII whitespace, as browsers do; empty values
//! are skipped. In HTML inside Markdown ([`extract_markdown_fragment`]), where MDX, Vue and
//! other components are elements too (`<YouTubeIframe src>`, `<VueSchoolLink href>`), every
//! element's `href`, `src`, `srcset` and `poster` holds URLs, and its other attributes named in
//! the table do when their value is an absolute IRI ([`super::text::absolute_iri`]); an unquoted
//! value in braces is a JSX expression (`href={url}`, `src={"…"}`), not a URL, and is skipped.
//! `<base href>` is reported like any other IRI; relative references stay
//! relative (rules check them as written). Comments, `<script>`, `<style>` and `<template>`
//! text are not IRIs. The origin of an occurrence is `element@attribute`. IRIs written in the
//! text of an HTML document are read by [`text_nodes`] (not in HTML inside other formats).
//!
//! Who reads the tags: an HTML page ([`for_each_page_occurrence`]) is read once, by irilint's
//! walk with the tokenizer's states ([`crowded`]'s `walk`, which reads its text too), each start
//! tag and its attributes (the first of each name) handed on where the walk read them
//! ([`tags::walk_page`]): html5ever's tokenizer read the page a second time only to tell which
//! tags there were, and the source was searched a third time for each. html5ever's tokenizer
//! reads the HTML inside other formats and a page with template actions (read with the actions
//! blanked, and each action's strings on their own), and is the oracle the walk is tested
//! against (`tags::page_readings_differ`: on generated tag soup in `tags.rs`, on the
//! fixtures and the book, and on a corpus in `tests/html_one_reading.rs`).
//!
//! A tag of more than [`crowded::MAX_TOKENIZED_ATTRIBUTES`] attributes is tokenized without
//! them and its attributes are read by irilint ([`crowded`]): html5ever's duplicate check is
//! quadratic in a tag's attributes; on a page, the walk hands it on so too, its attributes read
//! again when they are asked for. Its IRIs are found and checked as any other.

pub(crate) mod charref;
pub mod crowded;
mod position;
pub mod tags;
pub mod text_nodes;
pub mod unlinked;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use super::{Comment, Extraction, Occurrence, Problem, SpanMap, template};
use tags::{FoundTag, LocatedAttribute, start_tags};

/// How an attribute's value holds URLs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// One URL (surrounding whitespace stripped).
    Url,
    /// URLs separated by ASCII whitespace.
    UrlList,
    /// An image candidate list: each candidate's URL, descriptors dropped.
    Srcset,
    /// `<meta http-equiv="refresh" content="5; url=...">`: the URL after `url=`.
    Refresh,
}

/// Elements (empty: any element), attribute, and how the value holds URLs.
pub const URL_ATTRIBUTES: &[(&[&str], &str, ValueKind)] = &[
    (&["a", "area", "link", "base"], "href", ValueKind::Url),
    (
        &[
            "img", "source", "script", "iframe", "frame", "embed", "audio", "video", "track",
            "input",
        ],
        "src",
        ValueKind::Url,
    ),
    (&["img", "source"], "srcset", ValueKind::Srcset),
    (&["form"], "action", ValueKind::Url),
    (&["button", "input"], "formaction", ValueKind::Url),
    (&["blockquote", "q", "del", "ins"], "cite", ValueKind::Url),
    (&["object"], "data", ValueKind::Url),
    (&["video"], "poster", ValueKind::Url),
    (&["html"], "manifest", ValueKind::Url),
    (&["a", "area"], "ping", ValueKind::UrlList),
    (&["body", "table", "td", "th"], "background", ValueKind::Url),
    (&["img", "iframe", "frame"], "longdesc", ValueKind::Url),
    (&["img", "object", "input"], "usemap", ValueKind::Url),
    (&[], "itemid", ValueKind::Url),
    (&[], "itemtype", ValueKind::UrlList),
    (&[], "xmlns", ValueKind::Url),
];

/// What elements hold URLs in their attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Elements {
    /// The HTML standard's, as [`URL_ATTRIBUTES`] lists them.
    Html,
    /// Also components (MDX, JSX, Vue) in Markdown: any element.
    Components,
}

/// How `attribute` of `tag` holds URLs when any element may be a component: as in HTML, or by
/// its name alone for `href`, `src`, `srcset` and `poster`, or for the table's other attribute
/// names when the value is an absolute IRI (`<Chart data="q1">` is no URL). `attribute` is
/// the tag's attribute `i`.
fn component_kind(tag: &FoundTag<'_>, i: usize, attribute: &str) -> Option<ValueKind> {
    if let Some(kind) = value_kind(tag, attribute) {
        return Some(kind);
    }
    match attribute {
        "href" | "src" | "poster" => Some(ValueKind::Url),
        "srcset" => Some(ValueKind::Srcset),
        "action" | "formaction" | "cite" | "data" | "manifest" | "background" | "longdesc" => tag
            .value_at(i)
            .and_then(|v| super::text::absolute_iri(&v))
            .map(|_| ValueKind::Url),
        // A component's prop whose value is an absolute IRI (VitePress' `<VPHomeSponsors
        // action-link="https://…">`, `<TeamMember avatar="https://…">`) is a link it renders;
        // text meant to be read (alt, title, labels) is not.
        _ if !is_text_attribute(attribute) => tag
            .value_at(i)
            .filter(|v| !v.trim().contains(char::is_whitespace))
            .and_then(|v| super::text::absolute_iri(&v))
            .map(|_| ValueKind::Url),
        _ => None,
    }
}

/// Attributes that hold text for people, not links, whatever they say.
fn is_text_attribute(name: &str) -> bool {
    matches!(
        name,
        "alt" | "title" | "label" | "placeholder" | "content" | "value" | "message" | "text"
    ) || name.starts_with("aria-")
}

/// True when the attribute's raw value is unquoted and starts with `{`: a JSX expression.
fn is_expression(text: &str, attr: &LocatedAttribute) -> bool {
    attr.raw.as_ref().is_some_and(|raw| {
        let b = text.as_bytes();
        b.get(raw.start) == Some(&b'{')
            && !(raw.start > 0 && matches!(b[raw.start - 1], b'"' | b'\''))
    })
}

/// For each first byte of an attribute name, the lengths (a bit each, 31 for any longer) of the
/// names [`value_kind`] may give a kind for: `xmlns:*` and every name it matches.
const MAY_HOLD_URLS: [u32; 256] = {
    const NAMES: [&str; 18] = [
        "href",
        "src",
        "srcset",
        "action",
        "formaction",
        "cite",
        "data",
        "poster",
        "manifest",
        "ping",
        "background",
        "longdesc",
        "usemap",
        "itemid",
        "itemtype",
        "xmlns",
        "content",
        "xlink:href",
    ];
    let mut t = [0u32; 256];
    let mut k = 0;
    while k < NAMES.len() {
        let b = NAMES[k].as_bytes();
        t[b[0] as usize] |= 1 << (if b.len() < 31 { b.len() } else { 31 });
        k += 1;
    }
    // `xmlns:` and any prefix after it: every length from 6 on.
    t[b'x' as usize] |= !0u32 << 6;
    t
};

/// False when [`value_kind`] gives no kind for `attribute` whatever the tag, by its first byte
/// and length: most attributes of a page (`class`, `id`, `style`, `title`, `alt`) are none of
/// its names, and were each compared with them (about 60 instructions an attribute).
fn may_hold_urls(attribute: &str) -> bool {
    let b = attribute.as_bytes();
    b.first()
        .is_some_and(|&c| MAY_HOLD_URLS[usize::from(c)] & (1 << b.len().min(31)) != 0)
}

/// How `attribute` of `tag` holds URLs, if it does.
fn value_kind(tag: &FoundTag<'_>, attribute: &str) -> Option<ValueKind> {
    if !may_hold_urls(attribute) {
        return None;
    }
    let is_meta = &*tag.name == "meta";
    let refresh = || {
        tag.value("http-equiv")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh"))
    };
    kind_by_name(&tag.name, tag.foreign, is_meta, refresh, attribute)
}

/// [`value_kind`] of the element named `element` (`is_meta`: a `<meta>`, whose `http-equiv`
/// says `refresh` when asked), in foreign content or not, without the look at the name's first
/// byte and length.
fn kind_by_name(
    element: &str,
    foreign: bool,
    is_meta: bool,
    refresh: impl FnOnce() -> bool,
    attribute: &str,
) -> Option<ValueKind> {
    if attribute.starts_with("xmlns:") || (foreign && matches!(attribute, "href" | "xlink:href")) {
        return Some(ValueKind::Url);
    }
    if is_meta && attribute == "content" {
        return refresh().then_some(ValueKind::Refresh);
    }
    listed_kind(element, attribute)
}

/// [`URL_ATTRIBUTES`]' entry for `attribute` of `element`, as a `match`: it is asked for every
/// attribute of every tag, most of which are in no entry.
fn listed_kind(element: &str, attribute: &str) -> Option<ValueKind> {
    use ValueKind::{Srcset, Url, UrlList};
    let (listed, kind) = match attribute {
        "href" => (matches!(element, "a" | "area" | "link" | "base"), Url),
        "src" => (
            matches!(
                element,
                "img"
                    | "source"
                    | "script"
                    | "iframe"
                    | "frame"
                    | "embed"
                    | "audio"
                    | "video"
                    | "track"
                    | "input"
            ),
            Url,
        ),
        "srcset" => (matches!(element, "img" | "source"), Srcset),
        "action" => (element == "form", Url),
        "formaction" => (matches!(element, "button" | "input"), Url),
        "cite" => (matches!(element, "blockquote" | "q" | "del" | "ins"), Url),
        "data" => (element == "object", Url),
        "poster" => (element == "video", Url),
        "manifest" => (element == "html", Url),
        "ping" => (matches!(element, "a" | "area"), UrlList),
        "background" => (matches!(element, "body" | "table" | "td" | "th"), Url),
        "longdesc" => (matches!(element, "img" | "iframe" | "frame"), Url),
        "usemap" => (matches!(element, "img" | "object" | "input"), Url),
        "itemid" | "xmlns" => (true, Url),
        "itemtype" => (true, UrlList),
        _ => (false, Url),
    };
    listed.then_some(kind)
}

/// The origins most pages are made of, so that an occurrence does not allocate its own.
const COMMON_ORIGINS: [&str; 12] = [
    "a@href",
    "link@href",
    "img@src",
    "img@srcset",
    "script@src",
    "source@src",
    "source@srcset",
    "area@href",
    "iframe@src",
    "form@action",
    "base@href",
    "html@xmlns",
];

/// `element@attribute`.
fn origin(element: &str, attribute: &str) -> Cow<'static, str> {
    let is = |o: &&&str| {
        o.len() == element.len() + 1 + attribute.len()
            && o.starts_with(element)
            && o.as_bytes()[element.len()] == b'@'
            && o.ends_with(attribute)
    };
    match COMMON_ORIGINS.iter().find(is) {
        Some(o) => Cow::Borrowed(o),
        None => Cow::Owned(format!("{element}@{attribute}")),
    }
}

/// The IRIs of an HTML document.
pub fn extract(text: &str) -> Extraction {
    let (occurrences, comments) = extract_fragment(text, 0..text.len());
    Extraction {
        occurrences,
        comments,
        ..Extraction::default()
    }
}

/// The IRIs in the HTML of `text[range]` (an HTML block or inline HTML inside another format),
/// and the comments there that may hold suppression directives; spans are offsets into the
/// whole `text`.
pub fn extract_fragment(text: &str, range: Range<usize>) -> (Vec<Occurrence>, Vec<Comment>) {
    let mut out = Vec::new();
    let comments = scan_occurrences(text, range, Elements::Html, &mut |o| out.push(o));
    (out, comments)
}

/// [`extract_fragment`] for HTML inside Markdown, whose elements may be components (MDX, JSX,
/// Vue): their URL attributes are read too, JSX expressions are not.
pub fn extract_markdown_fragment(
    text: &str,
    range: Range<usize>,
) -> (Vec<Occurrence>, Vec<Comment>) {
    let mut out = Vec::new();
    let comments = scan_occurrences(text, range, Elements::Components, &mut |o| out.push(o));
    (out, comments)
}

/// [`extract_markdown_fragment`], each IRI handed to `on_occurrence` as the tokenizer reaches it;
/// returns the comments that may hold suppression directives.
pub fn for_each_markdown_fragment_occurrence(
    text: &str,
    range: Range<usize>,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> Vec<Comment> {
    scan_occurrences(text, range, Elements::Components, on_occurrence)
}

/// Hands each IRI in the HTML of `text[range]` to `on_occurrence` as the tokenizer reaches it,
/// and returns the comments that may hold suppression directives.
pub fn for_each_occurrence(
    text: &str,
    range: Range<usize>,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> Vec<Comment> {
    scan_occurrences(text, range, Elements::Html, on_occurrence)
}

/// Hands each IRI of the HTML page `text[range]` to `on_occurrence`: those of its attributes as
/// the page's one walk reaches them ([`tags::walk_page`]), then those of its text
/// ([`text_nodes`]); returns the comments that may hold suppression directives, and the
/// problems of tags that lose a URL attribute.
pub fn for_each_page_occurrence(
    text: &str,
    range: Range<usize>,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> (Vec<Comment>, Vec<Problem>) {
    if !template::markup_actions(&text[range.clone()]).is_empty() {
        // The tokenizer reads a copy with the actions blanked, the text reader the page.
        let comments = scan_occurrences(text, range.clone(), Elements::Html, on_occurrence);
        let problems = text_nodes::for_each_text_occurrence(text, range, on_occurrence);
        return (comments, problems);
    }
    // One walk reads the page: its tags, handed on as it reads them, and its text, read after.
    let mut on_tag =
        |tag: &mut FoundTag<'_>| tag_occurrences(text, Elements::Html, tag, on_occurrence);
    let (comments, page_text) = tags::walk_page(text, range, &mut on_tag);
    let problems = page_text.read(on_occurrence);
    (comments, problems)
}

fn scan_occurrences(
    text: &str,
    range: Range<usize>,
    elements: Elements,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> Vec<Comment> {
    // A layout's `{{ printf "<a href=%q>" .URL }}` is an action, not a tag: the document is
    // read with such actions blanked, then the markup of their strings on its own (printf
    // verbs are placeholders there), and the two merged in document order.
    let actions: Vec<Range<usize>> = template::markup_actions(&text[range.clone()])
        .into_iter()
        .map(|r| r.start + range.start..r.end + range.start)
        .collect();
    if actions.is_empty() {
        return scan_view(text, range, elements, on_occurrence);
    }
    // The two readings are merged as they go, not gathered and sorted (a page of such actions
    // held every occurrence of it at once: 17 bytes per byte). The markup of each action's
    // strings lies inside the action and the rest of the page outside them, so the two are
    // disjoint and each in order: before each occurrence of the page, the actions before it are
    // read, each from a copy of its own strings (at most `MAX_EXPRESSION` bytes), not from a
    // copy of the page holding them all (a third copy of the page).
    let blank = template::blank(text, &actions);
    let mut read = 0;
    let mut strings_before = |at: usize, on_occurrence: &mut dyn FnMut(Occurrence)| {
        while let Some(action) = actions.get(read).filter(|a| a.start < at).cloned() {
            read += 1;
            let markup = template::markup_string(text, action.clone());
            scan_view(&markup, 0..markup.len(), elements, &mut |mut o| {
                o.shift(action.start);
                o.placeholders
                    .extend(super::text_placeholders::printf(&o.iri));
                o.placeholders = template::disjoint(std::mem::take(&mut o.placeholders));
                on_occurrence(o);
            });
        }
    };
    let comments = scan_view(&blank, range, elements, &mut |o| {
        strings_before(o.map.source_range().start, &mut *on_occurrence);
        on_occurrence(o);
    });
    strings_before(usize::MAX, on_occurrence);
    comments
}

/// [`scan_occurrences`] over one view of the document (offsets are the document's).
fn scan_view(
    text: &str,
    range: Range<usize>,
    elements: Elements,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> Vec<Comment> {
    tags::scan(text, range, &mut |tag: &mut tags::FoundTag<'_>| {
        tag_occurrences(text, elements, tag, on_occurrence)
    })
}

/// Hands each IRI in the URL attributes of `tag` (of `text`) to `on_occurrence`.
fn tag_occurrences(
    text: &str,
    elements: Elements,
    tag: &mut FoundTag<'_>,
    on_occurrence: &mut dyn FnMut(Occurrence),
) {
    let mut i = 0;
    loop {
        // (The name is dropped before the tag is borrowed to locate the attribute.)
        let kind = match tag.attribute_name(i) {
            None => break,
            Some(name) => match elements {
                Elements::Html => value_kind(tag, &name),
                Elements::Components => component_kind(tag, i, &name),
            },
        };
        i += 1;
        let Some(kind) = kind else {
            continue;
        };
        // Not in the source (a NUL in its name): none of its attributes are.
        let Some(attr) = tag.locate(i - 1) else {
            return;
        };
        if elements == Elements::Components && is_expression(text, &attr) {
            continue;
        }
        let origin = origin(&tag.name, &attr.name);
        let (value, map): (Cow<'_, str>, _) = match rejoined(text, &attr) {
            Some((value, map)) => (value.into(), map),
            // (A verbatim value has its raw range.)
            None if attr.verbatim => {
                let raw = attr.raw.clone().unwrap_or(0..0);
                (Cow::Borrowed(&text[raw]), attr.map)
            }
            None => (attr.value.into(), attr.map),
        };
        // What a reader sees of a link: the text up to its `</a>` (in Markdown, inline HTML
        // ends at the tag and the text is Markdown: searched in the whole document).
        let label = if &*tag.name == "a" && attr.name == "href" {
            tag.after()
                .and_then(|after| anchor_text(text, after, text.len()))
        } else {
            None
        };
        let occurrence = |iri: Arc<str>, r: Range<usize>| {
            Occurrence {
                iri,
                map: map.slice(r),
                origin: origin.clone(),
                placeholders: Vec::new(),
                label: label.clone(),
                reference_texts: Vec::new(),
            }
            .with_templates()
        };
        // Each URL is handed on as it is found, the one before it once the next is (a value
        // that is one whole URL becomes the IRI with one copy, of the source when it had
        // nothing to decode).
        let mut pending: Option<Range<usize>> = None;
        let mut urls = 0usize;
        each_url_range(&value, kind, &mut |r| {
            urls += 1;
            if let Some(p) = pending.replace(r) {
                on_occurrence(occurrence(Arc::from(&value[p.clone()]), p));
            }
        });
        if let Some(r) = pending {
            let iri = if urls == 1 && r == (0..value.len()) {
                Arc::from(value)
            } else {
                Arc::from(&value[r.clone()])
            };
            on_occurrence(occurrence(iri, r));
        }
    }
}

/// The longest link text looked at ([`anchor_text`]): a URL or host name shown as the text of a
/// link is shorter, and the search for its `</a>` stays bounded.
const MAX_LABEL: usize = 1024;

/// The text of the `<a>` element whose start tag ends at `after`: up to its `</a>`, when that
/// comes within [`MAX_LABEL`] bytes and before any other `<a` tag (else `None`). Each search
/// stops at the next `<a` tag, so a page's searches never cover the same text twice.
fn anchor_text(text: &str, after: usize, end: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let limit = end.min(after.saturating_add(MAX_LABEL));
    let mut at = after;
    while at < limit {
        let p = at + memchr::memchr(b'<', &b[at..limit])?;
        let rest = &b[p + 1..end];
        let closing = rest.first() == Some(&b'/');
        let name = if closing { &rest[1..] } else { rest };
        let is_a = name.first().is_some_and(|c| c.eq_ignore_ascii_case(&b'a'))
            && name
                .get(1)
                .is_none_or(|&c| c == b'>' || c == b'/' || is_ascii_space(c));
        if is_a {
            return (closing && p > after).then_some(after..p);
        }
        at = p + 1;
    }
    None
}

/// The attributes as located, for tests that compare irilint's decoding with html5ever's.
pub fn located_attributes(text: &str) -> Vec<(String, LocatedAttribute)> {
    start_tags(text, 0..text.len())
        .into_iter()
        .flat_map(|t| {
            let name = t.name.clone();
            t.attributes.into_iter().map(move |a| (name.clone(), a))
        })
        .collect()
}

fn is_ascii_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

/// `r` without leading and trailing ASCII whitespace.
fn trim(value: &str, r: Range<usize>) -> Range<usize> {
    let b = value.as_bytes();
    let (mut s, mut e) = (r.start, r.end);
    while s < e && is_ascii_space(b[s]) {
        s += 1;
    }
    while e > s && is_ascii_space(b[e - 1]) {
        e -= 1;
    }
    s..e
}

/// Hands each byte range of a URL in an attribute value to `each`, in order, none empty: a
/// `srcset` of millions of candidates never holds a list of them.
pub fn each_url_range(value: &str, kind: ValueKind, each: &mut dyn FnMut(Range<usize>)) {
    // A space or comma inside a template expression (`{{ .Site.BaseURL }}img/a.png 2x`)
    // separates nothing: the lists are split on the value with its expressions stood in for.
    let stood_in;
    let value = if matches!(kind, ValueKind::Url) {
        value
    } else {
        let placeholders = template::placeholders(value);
        if placeholders.is_empty() {
            value
        } else {
            stood_in = template::stand_in(value, &placeholders);
            &stood_in
        }
    };
    let mut each = |r: Range<usize>| {
        if !r.is_empty() {
            each(r);
        }
    };
    match kind {
        ValueKind::Url => each(trim(value, 0..value.len())),
        ValueKind::UrlList => split_spaces(value, 0..value.len(), &mut each),
        ValueKind::Srcset => srcset(value, &mut each),
        ValueKind::Refresh => refresh(value).into_iter().for_each(each),
    }
}

/// How many quotes inside template expressions a cut value may be rejoined across.
const MAX_REJOINS: usize = 8;

/// How far past a cut value its template expression's end is looked for: the rest of its line,
/// up to this many bytes (a search to the end of the line for each cut value made a line of
/// 80,000 of them take 41 s).
const MAX_REJOIN_SPAN: usize = 4096;

/// The attribute value as the template author wrote it, when the tokenizer cut it at a quote
/// inside a template expression (`href="{{ "css/main.css" | relURL }}"`, `href="<%= f("a") %>"`):
/// the value is extended over the source, on the same line, past the expression's closer to
/// the next quote of the kind that opened the value, decoded as an attribute value is (so a
/// `&#x202E;` after the expression is still seen). `None` when the value was not cut so.
fn rejoined(text: &str, attr: &LocatedAttribute) -> Option<(String, SpanMap)> {
    let raw = attr.raw.clone()?;
    let quote = *text.as_bytes().get(raw.end)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    template::unclosed(attr.value_in(text))?;
    let (mut value, mut map) = (attr.value_in(text).to_string(), attr.map.clone());
    let mut end = raw.end;
    let mut rejoins = 0;
    while let Some(closer) = template::unclosed(&value) {
        rejoins += 1;
        let mut limit = text.len().min(end.saturating_add(MAX_REJOIN_SPAN));
        while !text.is_char_boundary(limit) {
            limit -= 1;
        }
        let line_end =
            memchr::memchr(b'\n', &text.as_bytes()[end..limit]).map_or(limit, |k| end + k);
        let line = &text[end..line_end];
        crate::work::add(crate::work::Work::RejoinScan, line.len());
        let after_closer = line.find(closer)? + closer.len();
        let next_quote = line[after_closer..].find(char::from(quote))? + after_closer;
        if rejoins > MAX_REJOINS {
            return None;
        }
        let (more, more_map) = charref::decode_attribute(text, end..end + next_quote);
        value.push_str(&more);
        map.extend(&more_map);
        end += next_quote;
    }
    (end != raw.end).then_some((value, map))
}

fn split_spaces(value: &str, r: Range<usize>, each: &mut dyn FnMut(Range<usize>)) {
    let b = value.as_bytes();
    let mut i = r.start;
    while i < r.end {
        while i < r.end && is_ascii_space(b[i]) {
            i += 1;
        }
        let s = i;
        while i < r.end && !is_ascii_space(b[i]) {
            i += 1;
        }
        if i > s {
            each(s..i);
        }
    }
}

/// The URLs of a srcset (WHATWG "parse a srcset attribute"): a candidate's URL is a run of
/// non-whitespace; trailing commas end it; descriptors run to the next comma outside parentheses.
fn srcset(value: &str, each: &mut dyn FnMut(Range<usize>)) {
    let b = value.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && (is_ascii_space(b[i]) || b[i] == b',') {
            i += 1;
        }
        let s = i;
        while i < b.len() && !is_ascii_space(b[i]) {
            i += 1;
        }
        let mut e = i;
        let trailing_comma = e > s && b[e - 1] == b',';
        while e > s && b[e - 1] == b',' {
            e -= 1;
        }
        if e > s {
            each(s..e);
        }
        if trailing_comma {
            continue;
        }
        let mut depth = 0usize;
        while i < b.len() {
            match b[i] {
                b'(' => depth += 1,
                b')' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// The URL of a refresh `content` (WHATWG "shared declarative refresh steps").
fn refresh(value: &str) -> Option<Range<usize>> {
    let b = value.as_bytes();
    let mut i = 0;
    while i < b.len() && is_ascii_space(b[i]) {
        i += 1;
    }
    let digits = i;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    if i == digits {
        return None;
    }
    while i < b.len() && is_ascii_space(b[i]) {
        i += 1;
    }
    if i < b.len() && (b[i] == b';' || b[i] == b',') {
        i += 1;
    }
    while i < b.len() && is_ascii_space(b[i]) {
        i += 1;
    }
    if i >= b.len() {
        return None;
    }
    let url_keyword = b.len() - i >= 3 && b[i..i + 3].eq_ignore_ascii_case(b"url");
    if url_keyword {
        let mut k = i + 3;
        while k < b.len() && is_ascii_space(b[k]) {
            k += 1;
        }
        if k < b.len() && b[k] == b'=' {
            k += 1;
            while k < b.len() && is_ascii_space(b[k]) {
                k += 1;
            }
            i = k;
        }
    }
    let mut e = b.len();
    if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
        let q = b[i];
        i += 1;
        e = b[i..]
            .iter()
            .position(|&c| c == q)
            .map_or(b.len(), |k| i + k);
    }
    Some(trim(value, i..e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The links in the strings of template actions are located where they are written, and
    /// handed on in document order among the page's own.
    #[test]
    fn links_in_the_strings_of_actions_are_merged_in_document_order() {
        let html = "<a href=\"http://a.org/1\">x</a>\n\
                    {{ printf \"<a href=\\\"http://b.org/%s\\\">\" .X }}\n\
                    <img src=\"http://a.org/2\">\
                    {% set y = '<link href=\"http://b.org/3\">' %}{{ printf \"<b>\" }}\
                    <a href=\"http://a.org/4\">y</a>";
        let got = found(html);
        let iris: Vec<&str> = got.iter().map(|(_, iri, _)| iri.as_str()).collect();
        assert_eq!(
            iris,
            [
                "http://a.org/1",
                "http://b.org/%s",
                "http://a.org/2",
                "http://b.org/3",
                "http://a.org/4"
            ]
        );
        // Each where it is written (the escaped quotes of the first string are outside it).
        for (_, iri, src) in &got {
            assert_eq!(src, iri);
        }
    }

    fn found(html: &str) -> Vec<(String, String, String)> {
        extract_fragment(html, 0..html.len())
            .0
            .into_iter()
            .map(|o| {
                let src = html[o.map.source_range()].to_string();
                (o.origin.into_owned(), o.iri.to_string(), src)
            })
            .collect()
    }

    fn row(origin: &str, iri: &str, src: &str) -> (String, String, String) {
        (origin.into(), iri.into(), src.into())
    }

    /// Names no kind is given for, whatever the tag, are the ones the look at the first byte and
    /// length turns away: every name of the table, their neighbours in length and first byte,
    /// `xmlns:` prefixes, and every name of up to three bytes over a few letters.
    #[test]
    fn the_look_at_a_name_turns_away_only_names_of_no_kind() {
        let mut names: Vec<String> = URL_ATTRIBUTES
            .iter()
            .map(|&(_, name, _)| name.to_string())
            .chain(["content", "xlink:href", "xmlns:", "xmlns:xlink", "xmlns:a"].map(String::from))
            .collect();
        for name in names.clone() {
            names.push(format!("{name}x"));
            names.push(name[..name.len() - 1].to_string());
            names.push(format!("x{name}"));
            names.push(format!("xmlns:{name}{}", "y".repeat(30)));
        }
        let letters = ["", "a", "c", "h", "s", "x", "r", ":", "-"];
        for a in letters {
            for b in letters {
                for c in letters {
                    names.push(format!("{a}{b}{c}"));
                }
            }
        }
        names.extend(
            [
                "class", "id", "style", "title", "alt", "type", "rel", "name",
            ]
            .map(String::from),
        );
        let mut elements: Vec<&str> = URL_ATTRIBUTES
            .iter()
            .flat_map(|(elements, _, _)| elements.iter().copied())
            .collect();
        elements.extend(["div", "meta", "svg", "x"]);
        let mut kinds = 0;
        for name in &names {
            for element in &elements {
                for (foreign, is_meta) in [(false, false), (true, false), (false, true)] {
                    let kind = kind_by_name(element, foreign, is_meta, || true, name);
                    kinds += usize::from(kind.is_some());
                    assert!(
                        may_hold_urls(name) || kind.is_none(),
                        "{element}@{name} turned away"
                    );
                }
            }
        }
        assert!(kinds > 100);
    }

    #[test]
    fn the_match_agrees_with_the_table() {
        let mut elements: Vec<&str> = URL_ATTRIBUTES
            .iter()
            .flat_map(|(elements, _, _)| elements.iter().copied())
            .collect();
        elements.extend(["div", "span", "meta", "svg", "x"]);
        for element in elements {
            for attribute in URL_ATTRIBUTES.iter().map(|&(_, name, _)| name).chain([
                "title",
                "alt",
                "content",
                "hrefx",
                "xlink:href",
            ]) {
                let in_table = URL_ATTRIBUTES
                    .iter()
                    .find(|(elements, name, _)| {
                        *name == attribute && (elements.is_empty() || elements.contains(&element))
                    })
                    .map(|&(_, _, kind)| kind);
                assert_eq!(
                    listed_kind(element, attribute),
                    in_table,
                    "{element}@{attribute}"
                );
            }
        }
    }

    #[test]
    fn srcset_candidates() {
        let v = "a.png 1x, b,c.png 2x,d.png,  e.png (x, y) 3w , f.png";
        let mut urls: Vec<&str> = Vec::new();
        srcset(v, &mut |r| urls.push(&v[r]));
        assert_eq!(urls, ["a.png", "b,c.png", "d.png", "e.png", "f.png"]);
    }

    #[test]
    fn refresh_urls() {
        let url = |v: &str| refresh(v).map(|r| v[r].to_string());
        assert_eq!(url("5; url=http://a/b").as_deref(), Some("http://a/b"));
        assert_eq!(url("0;URL='http://a/c'").as_deref(), Some("http://a/c"));
        assert_eq!(url(" 3 , http://a/d ").as_deref(), Some("http://a/d"));
        assert_eq!(url("5"), None);
        assert_eq!(url("soon; url=x"), None);
    }

    #[test]
    fn url_attributes_and_origins() {
        let html = r#"<a href=" /x " ping="/p1 /p2"><img src="i.png" srcset="s1.png 1x, s2.png 2x" alt="http://not"><meta http-equiv=Refresh content="5; url=/next"><div itemtype="http://schema.org/A http://schema.org/B" title="/no"></div>"#;
        assert_eq!(
            found(html),
            [
                row("a@href", "/x", "/x"),
                row("a@ping", "/p1", "/p1"),
                row("a@ping", "/p2", "/p2"),
                row("img@src", "i.png", "i.png"),
                row("img@srcset", "s1.png", "s1.png"),
                row("img@srcset", "s2.png", "s2.png"),
                row("meta@content", "/next", "/next"),
                row("div@itemtype", "http://schema.org/A", "http://schema.org/A"),
                row("div@itemtype", "http://schema.org/B", "http://schema.org/B"),
            ]
        );
    }

    #[test]
    fn svg_links_and_escapes() {
        let html = "<svg><a xlink:href=\"/s&#x202E;\"/><use href='#i'/></svg><a href='r&eacute;sum&eacute;'>";
        assert_eq!(
            found(html),
            [
                row("a@xlink:href", "/s\u{202E}", "/s&#x202E;"),
                row("use@href", "#i", "#i"),
                row("a@href", "résumé", "r&eacute;sum&eacute;"),
            ]
        );
    }

    #[test]
    fn directive_comments_are_located_and_others_dropped() {
        let text = "<!-- note --><p><!-- irilint-disable x --><!--irilint-enable--!><!-- irilint-";
        let (_, comments) = extract_fragment(text, 0..text.len());
        let found: Vec<(&str, &str)> = comments
            .iter()
            .map(|c| (&text[c.range.clone()], &text[c.body.clone()]))
            .collect();
        assert_eq!(
            found,
            [
                ("<!-- irilint-disable x -->", " irilint-disable x "),
                ("<!--irilint-enable--!>", "irilint-enable"),
                ("<!-- irilint-", " irilint-"),
            ]
        );
    }

    /// `</>` is no token at all: the comment after it is the tokenizer's next token, found
    /// where it is (it was taken for a bogus comment, and the directive after it lost).
    #[test]
    fn a_directive_after_an_empty_end_tag_is_found() {
        let text = "<p></><!-- irilint-disable x --><a href=/y>";
        let (occurrences, comments) = extract_fragment(text, 0..text.len());
        let found: Vec<&str> = comments.iter().map(|c| &text[c.range.clone()]).collect();
        assert_eq!(found, ["<!-- irilint-disable x -->"]);
        assert_eq!(occurrences.len(), 1);
    }

    #[test]
    fn fragments_keep_document_offsets() {
        let text = "intro <a href=\"/x\"> outro";
        let (occ, _) = extract_fragment(text, 6..19);
        assert_eq!(occ.len(), 1);
        assert_eq!(occ[0].map.source_range(), 15..17);
    }
}
