//! HTML inside Markdown, handed to the HTML extractor.
//!
//! An HTML block arrives as several `Html` events (one per line, without the container prefix
//! of a block quote or list item, and without the `\r` of a CRLF); a multi-line inline HTML tag
//! as one `InlineHtml` event whose text has the continuation lines' prefixes removed while its
//! range still covers them. What a renderer writes out — and a browser parses — is the events'
//! text, concatenated. So when that text is not simply the source slice, the HTML extractor runs
//! on the concatenated text, and each occurrence's map is composed with the map from that text
//! back to the source.

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem::Finder;
use pulldown_cmark::CowStr;

use crate::extract::{Comment, DIRECTIVE_PREFIX, Occurrence, SpanMap, html};

/// Where each byte of an event's text is in the source: the text is the source slice with some
/// bytes left out (line prefixes, `\r`). `None` when the text cannot be aligned that way.
fn align(text: &str, range: Range<usize>, event: &str, map: &mut SpanMap) -> Option<()> {
    let slice = &text[range.clone()];
    if slice == event {
        map.push_copied(range);
        return Some(());
    }
    // Line by line: the event's line is the end of the source line (its prefix removed)...
    let mut src_lines = slice.split_inclusive('\n');
    let mut src_at = range.start;
    for line in event.split_inclusive('\n') {
        let src_line = src_lines.next()?;
        let line_start = src_at;
        src_at += src_line.len();
        // ...a CRLF's `\r` may be left out, in which case the text's line ends in `\n` only...
        if !src_line.ends_with(line) && line.ends_with('\n') && src_line.ends_with("\r\n") {
            let body = &line[..line.len() - 1];
            let src_body = &src_line[..src_line.len() - 2];
            if src_body.ends_with(body) {
                let s = line_start + src_body.len() - body.len();
                map.push_copied(s..s + body.len());
                map.push_copied(src_at - 1..src_at);
                continue;
            }
        }
        if src_line.ends_with(line) {
            let s = src_at - line.len();
            map.push_copied(s..src_at);
            continue;
        }
        // ...or, failing that, a subsequence of it (characters matched in order).
        let mut chars = src_line.char_indices();
        for c in line.chars() {
            loop {
                let (k, s) = chars.next()?;
                if s == c {
                    map.push_copied(line_start + k..line_start + k + c.len_utf8());
                    break;
                }
            }
        }
    }
    Some(())
}

/// [`html::extract_markdown_fragment`] on `text[range]`, without tokenizing HTML that cannot hold an IRI
/// or a directive: an IRI is only ever a non-empty attribute value, which follows a `=`, and a
/// directive comment holds [`DIRECTIVE_PREFIX`]. Most inline HTML (`<br>`, `</kbd>`,
/// `<details>`) has neither.
fn fragment(text: &str, range: Range<usize>) -> (Vec<Occurrence>, Vec<Comment>) {
    // Built once: `memmem::find` would build a searcher for every fragment.
    static DIRECTIVE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(DIRECTIVE_PREFIX));
    let html = text[range.clone()].as_bytes();
    if memchr::memchr(b'=', html).is_none() && DIRECTIVE.find(html).is_none() {
        return (Vec::new(), Vec::new());
    }
    html::extract_markdown_fragment(text, range)
}

/// The occurrence `occ` found in `html` (offsets into `html`), mapped back to the source
/// through `html_map`. A copied byte of `occ` stays copied; an escape becomes a replaced piece
/// covering the source of the whole escape.
fn compose(occ: Occurrence, html: &str, html_map: &SpanMap) -> Occurrence {
    let mut map = SpanMap::default();
    for (k, c) in occ.iri.char_indices() {
        let r = k..k + c.len_utf8();
        let s = occ.map.to_source(r.clone());
        if s.len() == r.len() && html.get(s.clone()) == Some(&occ.iri[r.clone()]) {
            map.extend(&html_map.slice(s));
        } else {
            map.push_replaced(r.len(), html_map.to_source(s));
        }
    }
    let label = occ.label.clone().map(|l| html_map.to_source(l));
    Occurrence { map, label, ..occ }
}

/// The IRIs in a group of contiguous HTML events (`(range, text)` each), the comments among
/// them that may hold suppression directives, and whether the events could not be aligned with
/// the source (then the HTML extractor ran on the raw source range, whose spans are still exact
/// source positions).
pub fn extract_group(
    text: &str,
    events: &[(Range<usize>, CowStr<'_>)],
) -> (Vec<Occurrence>, Vec<Comment>, bool) {
    let (Some(first), Some(last)) = (events.first(), events.last()) else {
        return (Vec::new(), Vec::new(), false);
    };
    let whole = first.0.start..last.0.end;
    if super::is_source_itself(text, events) {
        let (occurrences, comments) = fragment(text, whole);
        return (occurrences, comments, false);
    }
    let mut html_text = String::new();
    let mut html_map = SpanMap::default();
    for (range, event) in events {
        if align(text, range.clone(), event, &mut html_map).is_none() {
            let (occurrences, comments) = fragment(text, whole);
            return (occurrences, comments, true);
        }
        html_text.push_str(event);
    }
    let (found, comments) = fragment(&html_text, 0..html_text.len());
    let occurrences = found
        .into_iter()
        .map(|occ| compose(occ, &html_text, &html_map))
        .collect();
    // A comment inside a block quote or list item: its source range also covers the line
    // prefixes the events left out, which the directive parser reads as the text they are.
    let comments = comments
        .into_iter()
        .map(|c| Comment {
            range: html_map.to_source(c.range),
            body: html_map.to_source(c.body),
        })
        .collect();
    (occurrences, comments, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipping_the_tokenizer_finds_what_it_finds() {
        for html in [
            "<br>",
            "</kbd>",
            "<details open>",
            "<a href>x</a>",
            "<a href=https://example.org/>",
            "<img\nsrc = 'a b'>",
            "<!-- irilint-disable-next-line -->",
            "<!--irilint-disable-->",
            "<!-- not a directive -->",
            "<?irilint- x?>",
            "<svg><a xlink:href=\"#x\"/></svg>",
            "<meta http-equiv=refresh content='0; url=/x'>",
            "<p title=\"=\">",
        ] {
            let (found, comments) = fragment(html, 0..html.len());
            let (all, all_comments) = html::extract_markdown_fragment(html, 0..html.len());
            assert_eq!(found, all, "{html}");
            assert_eq!(comments, all_comments, "{html}");
        }
    }
}
