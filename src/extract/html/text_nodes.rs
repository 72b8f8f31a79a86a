//! IRIs written as the text of an HTML page: what a reader sees, and copies.
//!
//! The text between tags is read as plain text is ([`crate::extract::text`]), after its
//! character references are decoded as the data state decodes them ([`super::charref::decode_text`]),
//! each byte mapped back to the source (`&amp;` underlined whole). The HTML is walked with the
//! tokenizer's states, as [`super::crowded`]'s pre-scan walks it: tags and their attributes,
//! comments, doctypes and bogus comments, RAWTEXT, RCDATA, script data, plain text.
//!
//! What is not read, as the rules for code say elsewhere (Markdown's code spans and blocks): the
//! text of `<pre>`, `<code>`, `<kbd>`, `<samp>`, `<tt>`, `<var>`, `<listing>` and `<template>`
//! elements, of `<script>`, `<style>`, `<textarea>`, `<title>`, `<xmp>`, `<iframe>`,
//! `<noembed>`, `<noframes>` and `<plaintext>`, and of foreign content (`<svg>`, `<math>`,
//! whose `<style>` is not raw text), and comments.
//!
//! Text is joined across the inline elements a reader copies through
//! ([`joins_text`]: `https://example.org/<wbr>path`, `https://<b>example</b>.org/`); any other
//! tag, a comment or a doctype ends it. The visible text of a link is read like any text, so an
//! `<a href="u">u</a>` whose text holds a hidden character is reported on its text too: a reader
//! copies the text, not the `href`.
//!
//! Template expressions on one line (`{{ .Permalink }}`, `{% url 'x' %}`) are placeholders, as
//! in Markdown ([`crate::extract::template::line_placeholders`]).

use std::ops::Range;
use std::sync::Arc;

use super::charref::{decode_text, decodes_to_itself};
use super::crowded::{Counted, Text, comment_end, is_end_tag_of, read_tag, script_end, text_after};
use super::unlinked;
use crate::extract::{MarkupFix, Occurrence, Problem, SpanMap, template, text, text_placeholders};
use crate::iri::chars::describe;

/// The id of the rule that reports URL attributes lost to a false separator.
pub const UNLINKED_URL_ATTRIBUTE: &str = "unlinked-url-attribute";

/// The origin of an IRI found in the text of an HTML page.
pub const ORIGIN: &str = "html:text";

/// The longest run of joined text kept before it is read: a page of millions of inline tags and
/// no block never holds its text at once (an IRI across the cut is read as two).
const MAX_RUN: usize = 64 * 1024;

/// How far past the tokenizer's end of a tag holding a false separator it is read again
/// ([`unlinked::lost`]).
const MAX_REREAD: usize = 1024;

/// Inline elements whose tags a reader's selection goes through: the text before and after is
/// one text.
fn joins_text(name: &[u8]) -> bool {
    // Asked for every tag: the name is lowercased into a small buffer and matched, not
    // compared with each name in turn.
    let mut low = [0u8; 6];
    let Some(name) = lowercased(name, &mut low) else {
        return false;
    };
    matches!(
        name,
        b"a" | b"abbr"
            | b"b"
            | b"big"
            | b"cite"
            | b"data"
            | b"del"
            | b"dfn"
            | b"em"
            | b"font"
            | b"i"
            | b"ins"
            | b"mark"
            | b"nobr"
            | b"q"
            | b"s"
            | b"small"
            | b"span"
            | b"strike"
            | b"strong"
            | b"sub"
            | b"sup"
            | b"time"
            | b"u"
            | b"wbr"
    )
}

/// Elements whose text is code or not shown as text (their end tag ends them).
fn is_code(name: &[u8]) -> bool {
    let mut low = [0u8; 8];
    let Some(name) = lowercased(name, &mut low) else {
        return false;
    };
    matches!(
        name,
        b"pre" | b"code" | b"kbd" | b"samp" | b"tt" | b"var" | b"listing" | b"template"
    )
}

/// `name` in ASCII lowercase, in `buf`; `None` when it is longer.
fn lowercased<'b>(name: &[u8], buf: &'b mut [u8]) -> Option<&'b [u8]> {
    let low = buf.get_mut(..name.len())?;
    for (l, c) in low.iter_mut().zip(name) {
        *l = c.to_ascii_lowercase();
    }
    Some(low)
}

/// The text read so far, as the source ranges it is made of.
#[derive(Default)]
struct Run {
    parts: Vec<Range<usize>>,
    len: usize,
    /// A `:` or a `www.` is in it: it may hold an IRI.
    maybe: bool,
}

struct Reader<'t, 'f> {
    text: &'t str,
    run: Run,
    on_occurrence: &'f mut dyn FnMut(Occurrence),
    problems: Vec<Problem>,
}

impl Reader<'_, '_> {
    /// Reports the start tag at `start` when a false separator in it loses a URL attribute,
    /// and hands on the IRIs of the lost attributes.
    fn unlinked(&mut self, start: usize, end: usize, foreign: bool) {
        let text = self.text;
        let Some(lost) = unlinked::lost(text, start, end, foreign) else {
            return;
        };
        // One problem per run of false separators, its fix writing a space there.
        for (run, attribute) in &lost.runs {
            let first = text[run.clone()].chars().next().unwrap_or(' ');
            let mut names: Vec<String> = Vec::new();
            for c in text[run.clone()].chars() {
                let d = describe(c);
                if !names.contains(&d) {
                    names.push(d);
                }
            }
            self.problems.push(Problem {
                rule: UNLINKED_URL_ATTRIBUTE,
                range: run.clone(),
                message: format!(
                    "{} is no separator in HTML: the `{attribute}` of this `<{}>` is not read, so the link is lost",
                    describe(first),
                    lost.element
                ),
                help: Some(
                    "write an ASCII space instead: HTML separates a tag's name and attributes with ASCII whitespace only"
                        .to_string(),
                ),
                related: Vec::new(),
                milder: false,
                fix: Some(MarkupFix {
                    message: format!("write an ASCII space for {}", names.join(", ")),
                    edits: vec![(run.clone(), " ".to_string())],
                }),
            });
        }
        // The lost values are IRIs all the same: what the repaired tag will link to.
        for (name, raw) in lost.attributes {
            let kind = super::listed_kind(&lost.element, &name).unwrap_or(super::ValueKind::Url);
            let (value, map) = super::charref::decode_attribute(text, raw);
            let origin = format!("{}@{name}", lost.element);
            super::each_url_range(&value, kind, &mut |r| {
                let occ = Occurrence {
                    iri: Arc::from(&value[r.clone()]),
                    map: map.slice(r),
                    origin: origin.clone().into(),
                    placeholders: Vec::new(),
                    label: None,
                    reference_texts: Vec::new(),
                }
                .with_templates();
                (self.on_occurrence)(occ);
            });
        }
    }

    fn push(&mut self, mut part: Range<usize>) {
        // A long text is read a piece at a time, each cut after a space or a line end where
        // there is one (no IRI holds one): a page of 100 MB of text is never copied whole.
        while part.len() > MAX_RUN {
            let b = self.text.as_bytes();
            let window = part.start + MAX_RUN / 2..part.start + MAX_RUN;
            let mut cut = memchr::memrchr3(b' ', b'\n', b'\t', &b[window.clone()])
                .map_or(window.end, |k| window.start + k + 1);
            while !self.text.is_char_boundary(cut) {
                cut += 1;
            }
            self.push_part(part.start..cut);
            self.flush();
            part.start = cut;
        }
        self.push_part(part);
    }

    fn push_part(&mut self, part: Range<usize>) {
        if part.is_empty() {
            return;
        }
        let b = &self.text.as_bytes()[part.clone()];
        self.run.maybe = self.run.maybe
            || memchr::memchr2_iter(b':', b'.', b)
                .any(|k| b[k] == b':' || (k >= 3 && b[k - 3..k].eq_ignore_ascii_case(b"www")))
            // A reference may stand for either (`&colon;`, `&#58;`).
            || memchr::memchr(b'&', b).is_some();
        self.run.len += part.len();
        self.run.parts.push(part);
        if self.run.len > MAX_RUN {
            self.flush();
        }
    }

    /// Reads the run for IRIs, and starts a new one.
    fn flush(&mut self) {
        let run = std::mem::take(&mut self.run);
        if !run.maybe {
            return;
        }
        let text = self.text;
        let (Some(first), Some(last)) = (run.parts.first(), run.parts.last()) else {
            return;
        };
        // The template expressions of the run's own text (the run holds whole lines' worth at
        // most, and runs never overlap: the page is searched once in all).
        let span = first.start..last.end;
        let masks: Vec<Range<usize>> = template::line_placeholders(&text[span.clone()])
            .into_iter()
            .map(|m| m.start + span.start..m.end + span.start)
            .collect();
        let (mut prepared, mut map) = (String::new(), SpanMap::default());
        let decoded = |prepared: &mut String, map: &mut SpanMap, r: Range<usize>| {
            if decodes_to_itself(text, r.clone()) {
                prepared.push_str(&text[r.clone()]);
                map.push_copied(r);
            } else {
                let (t, t_map) = decode_text(text, r);
                prepared.push_str(&t);
                map.extend(&t_map);
            }
        };
        for part in run.parts {
            // The masked parts as `~` of the same length, mapped one to one: it may be inside an
            // IRI, and is no letter that would join a word to it (`{% if x %}www.a.org`).
            let first = masks.partition_point(|m| m.end <= part.start);
            let mut at = part.start;
            for m in masks[first..].iter().take_while(|m| m.start < part.end) {
                let (s, e) = (m.start.max(at), m.end.min(part.end));
                if s > at {
                    decoded(&mut prepared, &mut map, at..s);
                }
                prepared.extend(std::iter::repeat_n('~', e - s));
                map.push_copied(s..e);
                at = e;
            }
            if part.end > at {
                decoded(&mut prepared, &mut map, at..part.end);
            }
        }
        for r in text::Iris::new(&prepared) {
            let iri = &prepared[r.clone()];
            let mut occ = Occurrence {
                iri: Arc::from(iri),
                placeholders: text_placeholders::placeholders(iri),
                map: map.slice(r),
                origin: ORIGIN.into(),
                label: None,
                reference_texts: Vec::new(),
            };
            if !masks.is_empty() {
                template::unmask(&mut occ, text, &masks);
            }
            (self.on_occurrence)(occ);
        }
    }
}

/// Hands each IRI written in the text of the HTML `text[range]` to `on_occurrence`, in order,
/// and those of URL attributes a false separator hides ([`unlinked`]); returns the problems of
/// those tags.
pub fn for_each_text_occurrence(
    text: &str,
    range: Range<usize>,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> Vec<Problem> {
    let b = text.as_bytes();
    let end = range.end;
    let mut reader = Reader {
        text,
        run: Run::default(),
        on_occurrence,
        problems: Vec::new(),
    };
    let mut foreign_depth = 0usize;
    let mut code_depth = 0usize;
    // Where the text not yet pushed starts.
    let mut data = range.start;
    let mut i = range.start;
    let gt_after = |from: usize| memchr::memchr(b'>', &b[from.min(end)..end]).map(|k| from + k + 1);
    let shown = |foreign: usize, code: usize| foreign == 0 && code == 0;
    while let Some(k) = memchr::memchr(b'<', &b[i.min(end)..end]) {
        let p = i + k;
        i = p + 1;
        let next = b.get(p + 1).copied().filter(|_| p + 1 < end);
        let (name_at, end_tag) = match next {
            Some(c) if c.is_ascii_alphabetic() => (p + 1, false),
            Some(b'/') => match b.get(p + 2).copied().filter(|_| p + 2 < end) {
                Some(c) if c.is_ascii_alphabetic() => (p + 2, true),
                Some(b'>') => {
                    // `</>` is nothing at all.
                    if shown(foreign_depth, code_depth) {
                        reader.push(data..p);
                    }
                    i = p + 3;
                    data = i;
                    continue;
                }
                Some(_) => {
                    if shown(foreign_depth, code_depth) {
                        reader.push(data..p);
                    }
                    reader.flush();
                    let Some(after) = gt_after(p + 2) else {
                        data = end;
                        break;
                    };
                    i = after;
                    data = i;
                    continue;
                }
                None => break,
            },
            Some(b'!') | Some(b'?') => {
                if shown(foreign_depth, code_depth) {
                    reader.push(data..p);
                }
                reader.flush();
                let rest = &b[p..end];
                let after = if rest.starts_with(b"<!--") {
                    Some(comment_end(text, p, end))
                } else if foreign_depth > 0 && rest.starts_with(b"<![CDATA[") {
                    Some(
                        memchr::memmem::find(&b[p + 9..end], b"]]>").map_or(end, |k| p + 9 + k + 3),
                    )
                } else {
                    gt_after(p + 1)
                };
                let Some(after) = after else {
                    data = end;
                    break;
                };
                i = after;
                data = i;
                continue;
            }
            // A `<` that starts no markup is text.
            _ => continue,
        };
        let Some(tag) = read_tag(b, name_at, end, &mut Counted::default()) else {
            // An unclosed tag at the end: the tokenizer emits nothing from here.
            if shown(foreign_depth, code_depth) {
                reader.push(data..p);
            }
            data = end;
            break;
        };
        if shown(foreign_depth, code_depth) {
            reader.push(data..p);
        }
        i = tag.end;
        data = i;
        let name = &b[tag.name_at..tag.name_end];
        if !joins_text(name) {
            reader.flush();
        }
        let is_foreign_root =
            name.eq_ignore_ascii_case(b"svg") || name.eq_ignore_ascii_case(b"math");
        if !end_tag && !b[p..tag.end].is_ascii() {
            // Read again up to a little past where the tokenizer ended it (a quoted `>` the
            // false separator brings into a value): never to the end of the page per tag.
            let mut limit = end.min(tag.end.saturating_add(MAX_REREAD));
            while !text.is_char_boundary(limit) {
                limit += 1;
            }
            reader.unlinked(p, limit, foreign_depth > 0 || is_foreign_root);
        }
        if end_tag {
            if is_foreign_root {
                foreign_depth = foreign_depth.saturating_sub(1);
            } else if foreign_depth == 0 && is_code(name) {
                code_depth = code_depth.saturating_sub(1);
            }
            continue;
        }
        let depth = foreign_depth;
        if is_foreign_root && !tag.self_closing {
            foreign_depth += 1;
        }
        if depth > 0 {
            continue;
        }
        if is_code(name) {
            code_depth += 1;
        }
        // Raw text is never read: to its end tag (read as a tag, next round).
        match text_after(name) {
            Text::Data => {}
            Text::Plaintext => {
                data = end;
                break;
            }
            Text::Raw => {
                let mut at = i;
                loop {
                    let Some(k) = memchr::memmem::find(&b[at.min(end)..end], b"</") else {
                        return reader.problems;
                    };
                    if is_end_tag_of(b, at + k + 2, end, name) {
                        i = at + k;
                        break;
                    }
                    at += k + 1;
                }
                data = i;
            }
            Text::Script => match script_end(b, i, end) {
                Some(k) => {
                    i = k;
                    data = i;
                }
                None => return reader.problems,
            },
        }
    }
    if data < end && shown(foreign_depth, code_depth) {
        reader.push(data..end);
    }
    reader.flush();
    reader.problems
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each IRI found in the text of `html`: its prepared text and its source.
    fn found(html: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for_each_text_occurrence(html, 0..html.len(), &mut |o| {
            out.push((o.iri.to_string(), html[o.map.source_range()].to_string()));
        });
        out
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn text_iris_are_found_with_exact_spans() {
        let html = "<p><a href=\"https://x.org/d\">https://x.org/d\u{200B}x</a></p>\
                    <p>See https://x.org/?a=1&amp;b=&#x202E;2.</p>";
        assert_eq!(
            found(html),
            pairs(&[
                ("https://x.org/d\u{200B}x", "https://x.org/d\u{200B}x"),
                (
                    "https://x.org/?a=1&b=\u{202E}2",
                    "https://x.org/?a=1&amp;b=&#x202E;2"
                ),
            ])
        );
        let mut spans = Vec::new();
        for_each_text_occurrence(html, 0..html.len(), &mut |o| {
            let amp = o.iri.find('&');
            if let Some(a) = amp {
                spans.push(html[o.map.to_source(a..a + 1)].to_string());
            }
        });
        assert_eq!(spans, ["&amp;"]);
    }

    #[test]
    fn text_is_joined_across_inline_tags_and_cut_at_others() {
        let html = "<p>https://x.org/<wbr>pa<b>th</b> https://y.org/a<br>b <div>www.z.org</div>";
        assert_eq!(
            found(html),
            pairs(&[
                ("https://x.org/path", "https://x.org/<wbr>pa<b>th"),
                ("https://y.org/a", "https://y.org/a"),
                ("www.z.org", "www.z.org"),
            ])
        );
    }

    #[test]
    fn code_scripts_styles_comments_and_foreign_content_are_not_read() {
        let html = "<pre>https://a.org/1</pre><code>https://a.org/2</code>\
                    <kbd>https://a.org/3</kbd><script>x='https://a.org/4'</script>\
                    <style>a{background:url(https://a.org/5)}</style><!-- https://a.org/6 -->\
                    <textarea>https://a.org/7</textarea><title>https://a.org/8</title>\
                    <svg><style>a{b:url(https://a.org/9)}</style></svg>\
                    <template>https://a.org/10</template><pre><code>https://a.org/11</code>\
                    https://a.org/12</pre><p title='<b>https://a.org/13'>https://b.org/ok</p>";
        assert_eq!(
            found(html),
            pairs(&[("https://b.org/ok", "https://b.org/ok")])
        );
    }

    #[test]
    fn long_text_is_read_in_pieces_cut_at_spaces() {
        let filler = "word ".repeat(MAX_RUN / 5 + 3);
        let html = format!("<p>{filler}https://x.org/a\u{200B}b {filler}www.y.org</p>");
        assert_eq!(
            found(&html),
            pairs(&[
                ("https://x.org/a\u{200B}b", "https://x.org/a\u{200B}b"),
                ("www.y.org", "www.y.org")
            ])
        );
    }

    #[test]
    fn templates_in_text_are_placeholders() {
        let html = "<p>https://x.org/{{ .Path }}/a\u{200B}b and {% if x %}www.y.org{% endif %}</p>";
        let mut got = Vec::new();
        for_each_text_occurrence(html, 0..html.len(), &mut |o| {
            let held: Vec<&str> = o.placeholders.iter().map(|p| &o.iri[p.clone()]).collect();
            got.push((o.iri.to_string(), held.join("|")));
        });
        assert_eq!(
            got,
            [
                (
                    "https://x.org/{{ .Path }}/a\u{200B}b".to_string(),
                    "{{ .Path }}".to_string()
                ),
                // (A template right after an IRI is read as a placeholder in it, as in Markdown.)
                (
                    "www.y.org{% endif %}".to_string(),
                    "{% endif %}".to_string()
                ),
            ]
        );
    }

    #[test]
    fn fragments_keep_document_offsets_and_truncated_markup_does_not_panic() {
        let text = "intro <p>http://a.org/x</p> outro";
        let mut got = Vec::new();
        for_each_text_occurrence(text, 6..27, &mut |o| got.push(o.map.source_range()));
        assert_eq!(got, vec![9..23]);
        for html in [
            "<p>http://a.org/<",
            "http://a.org/</",
            "<a href='http://x",
            "<!--",
            "<svg><![CDATA[x",
        ] {
            let _ = found(html);
        }
    }
}
