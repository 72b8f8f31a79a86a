//! IRIs written as the text of an HTML page: what a reader sees, and copies.
//!
//! The text between tags is read as plain text is ([`crate::extract::text`]), after its
//! character references are decoded as the data state decodes them ([`super::charref::decode_text`]),
//! each byte mapped back to the source (`&amp;` underlined whole). The HTML is walked with the
//! tokenizer's states, by [`super::crowded`]'s walk: tags and their attributes,
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

use super::charref::{decode_text, decodes_to_itself, may_stand_for_a_trigger};
use super::crowded::{MarkupSink, PageText, Walk, walk};
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

/// Below this length a part of text is looked at byte by byte for what may make it an IRI
/// ([`Reader::push_part`]); longer ones are searched with `memchr`.
const SHORT_PART: usize = 32;

/// Whether a text part may hold an IRI (a `:`, a `www.`, or a reference that may stand for a
/// `:`), and whether it holds a character reference: two searches over its bytes.
fn searched(b: &[u8]) -> (bool, bool) {
    // (A reference may stand for either: `&colon;`, `&#58;`. The `:` and `&` are looked for
    // first, in one search: then a prose run's `.`s are not looked at one by one.)
    let mut references = false;
    let maybe = match memchr::memchr2(b':', b'&', b) {
        Some(k) if b[k] == b':' => true,
        Some(k) => {
            references = true;
            memchr::memchr(b':', &b[k..]).is_some() || may_stand_for_a_trigger(&b[k..])
        }
        None => false,
    } || memchr::memchr_iter(b'.', b)
        .any(|k| k >= 3 && b[k - 3..k].eq_ignore_ascii_case(b"www"));
    (maybe, references)
}

/// How far past the tokenizer's end of a tag holding a false separator it is read again
/// ([`unlinked::lost`]).
const MAX_REREAD: usize = 1024;

/// The text read so far, as the source ranges it is made of.
#[derive(Default)]
struct Run {
    parts: Vec<Range<usize>>,
    len: usize,
    /// A `:` or a `www.` is in a part, or a reference that may stand for one of their bytes
    /// ([`may_stand_for_a_trigger`]): it may hold an IRI.
    maybe: bool,
    /// A reference is in it (that may stand for none of those bytes).
    references: bool,
}

impl Run {
    /// Whether it may hold an IRI: a part holds a `:` or a `www.`, or may after its references
    /// are decoded, or the text joined across its parts holds a `www.` and references (a run
    /// with a reference was read whole, before the references were weighed; one without, only
    /// when one part held the `www.`: still so).
    fn may_hold_iri(&self, text: &str) -> bool {
        self.maybe || (self.references && www_dot_across(text, &self.parts))
    }
}

/// Whether the text joined from `parts` of `text` has a `www.` (any case).
fn www_dot_across(text: &str, parts: &[Range<usize>]) -> bool {
    let is_w = |c: &&u8| **c | 0x20 == b'w';
    // How many `w`s (up to 3) end the text joined so far.
    let mut ws = 0;
    for part in parts {
        let b = &text.as_bytes()[part.clone()];
        for k in memchr::memchr_iter(b'.', b) {
            let within = b[..k].iter().rev().take(3).take_while(is_w).count();
            let before = if within == k { within + ws } else { within };
            if before >= 3 {
                return true;
            }
        }
        let trailing = b.iter().rev().take(3).take_while(is_w).count();
        ws = if trailing == b.len() {
            (ws + trailing).min(3)
        } else {
            trailing
        };
    }
    false
}

/// What the reader does with the text it is handed.
enum Mode<'f> {
    /// Reads it for IRIs, handed to the callback.
    Read(&'f mut dyn FnMut(Occurrence)),
    /// Keeps what may hold an IRI, to read once the walk has handed on the page's markup
    /// ([`prescan_keeping`]): the IRIs of the attributes come first.
    Defer,
    /// Kept enough ([`max_deferred`]): the rest is read by a walk of its own.
    Off,
}

/// What a deferred reading holds, in the page's order.
enum Deferred {
    /// The parts of a run of text that may hold an IRI.
    Run(Vec<Range<usize>>),
    /// A start tag with a byte past ASCII: its `<`, how far it is read again, whether in
    /// foreign content.
    Tag(usize, usize, bool),
}

/// The most bytes of [`Deferred`] kept for one page: half its size, within 64 KB and 8 MB.
/// Beyond, its text is walked again once the markup is read: a page of millions of tiny inline
/// elements (16 bytes per `<b>:</b>`) never holds their list beside it. A real page keeps a
/// few percent of its size.
pub(super) fn max_deferred(page: usize) -> usize {
    (page / 2).clamp(64 << 10, 8 << 20)
}

struct Reader<'t, 'f> {
    text: &'t str,
    end: usize,
    run: Run,
    mode: Mode<'f>,
    deferred: Vec<Deferred>,
    deferred_bytes: usize,
    /// How many bytes of [`Deferred`] it keeps ([`max_deferred`]).
    max_deferred: usize,
    /// Every run with a reference is read, as before the references were weighed: what the
    /// tests compare the weighing with.
    unweighed: bool,
    /// The run being read when the deferring stopped.
    paused_run: Run,
    problems: Vec<Problem>,
}

impl<'t> Reader<'t, '_> {
    fn defer(&mut self, d: Deferred) {
        self.deferred_bytes += std::mem::size_of::<Deferred>()
            + match &d {
                Deferred::Run(parts) => parts.capacity() * std::mem::size_of::<Range<usize>>(),
                Deferred::Tag(..) => 0,
            };
        self.deferred.push(d);
    }

    /// Reports the start tag at `start` when a false separator in it loses a URL attribute,
    /// and hands on the IRIs of the lost attributes.
    fn unlinked(&mut self, start: usize, end: usize, foreign: bool) {
        let text = self.text;
        let Mode::Read(on_occurrence) = &mut self.mode else {
            return;
        };
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
                on_occurrence(occ);
            });
        }
    }

    fn push_part(&mut self, part: Range<usize>) {
        if part.is_empty() {
            return;
        }
        let b = &self.text.as_bytes()[part.clone()];
        // Most parts are short (the line end between two tags, a word in a cell): one look at
        // their bytes finds none of `:`, `&` and `.`, where the two searches below cost about
        // 130 instructions a part, mostly to set themselves up. A run already known to be worth
        // reading needs neither.
        let short_without_trigger =
            || b.len() < SHORT_PART && !b.iter().any(|&c| matches!(c, b':' | b'&' | b'.'));
        if !self.run.maybe && !short_without_trigger() {
            let (maybe, references) = searched(b);
            self.run.maybe = maybe;
            self.run.references |= references;
        }
        self.run.len += part.len();
        self.run.parts.push(part);
        if self.run.len > MAX_RUN {
            self.flush();
        }
    }
}

impl PageText for Reader<'_, '_> {
    fn reading(&mut self) -> bool {
        match self.mode {
            Mode::Read(_) => true,
            Mode::Defer if self.deferred_bytes <= self.max_deferred => true,
            Mode::Defer => {
                self.paused_run = std::mem::take(&mut self.run);
                self.mode = Mode::Off;
                false
            }
            Mode::Off => false,
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

    /// Reads the run for IRIs (or keeps it for later), and starts a new one.
    fn flush(&mut self) {
        let read = match self.unweighed {
            true => self.run.maybe || self.run.references,
            false => self.run.may_hold_iri(self.text),
        };
        if !read {
            // The list is kept for the next run: most runs hold no IRI.
            self.run.parts.clear();
            self.run.len = 0;
            self.run.references = false;
            return;
        }
        let run = std::mem::take(&mut self.run);
        match &mut self.mode {
            Mode::Read(on_occurrence) => read_run(self.text, run.parts, &mut **on_occurrence),
            Mode::Defer => self.defer(Deferred::Run(run.parts)),
            Mode::Off => {}
        }
    }

    fn non_ascii_tag(&mut self, start: usize, tag_end: usize, foreign: bool) {
        // Read again up to a little past where the tokenizer ended it (a quoted `>` the false
        // separator brings into a value): never to the end of the page per tag.
        let text = self.text;
        let mut limit = self.end.min(tag_end.saturating_add(MAX_REREAD));
        while !text.is_char_boundary(limit) {
            limit += 1;
        }
        match self.mode {
            Mode::Read(_) => self.unlinked(start, limit, foreign),
            Mode::Defer => self.defer(Deferred::Tag(start, limit, foreign)),
            Mode::Off => {}
        }
    }
}

/// Reads the text made of `parts` of `text` for IRIs.
fn read_run(text: &str, parts: Vec<Range<usize>>, on_occurrence: &mut dyn FnMut(Occurrence)) {
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return;
    };
    crate::work::add(crate::work::Work::TextRuns, last.end - first.start);
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
    for part in parts {
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
        on_occurrence(occ);
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
    let mut reader = Reader::new(text, range.end, Mode::Read(on_occurrence));
    walk(
        text,
        range.end,
        Walk::new(range.start),
        &mut reader,
        None,
        None,
    );
    reader.problems
}

impl<'t, 'f> Reader<'t, 'f> {
    fn new(text: &'t str, end: usize, mode: Mode<'f>) -> Reader<'t, 'f> {
        Reader {
            text,
            end,
            run: Run::default(),
            mode,
            deferred: Vec::new(),
            deferred_bytes: 0,
            max_deferred: usize::MAX,
            unweighed: false,
            paused_run: Run::default(),
            problems: Vec::new(),
        }
    }
}

/// The text of a page as its one walk left it ([`prescan_keeping`]), to be read once the walk
/// has handed on the page's markup ([`PageTextLeft::read`]).
pub struct PageTextLeft<'t> {
    text: &'t str,
    end: usize,
    deferred: Vec<Deferred>,
    /// Where the walk stopped keeping the text, and the run it was in.
    paused: Option<(Walk, Run)>,
}

/// Walks the HTML page `text[range]` once, handing each start tag and comment to `markup.0` as
/// it is read (listing up to `markup.1` attributes of a tag, [`super::crowded::Markup`]), and keeping at most
/// `max_deferred` bytes of the page's text that may hold IRIs, to read after (the IRIs of the
/// text come after those of the attributes): the one reading of a page, which html5ever's
/// tokenizer does not read again.
pub(super) fn prescan_keeping<'t>(
    text: &'t str,
    range: Range<usize>,
    max_deferred: usize,
    markup: MarkupSink<'_>,
) -> PageTextLeft<'t> {
    let mut reader = Reader::new(text, range.end, Mode::Defer);
    reader.max_deferred = max_deferred;
    let paused = walk(
        text,
        range.end,
        Walk::new(range.start),
        &mut reader,
        None,
        Some(markup),
    );
    PageTextLeft {
        text,
        end: range.end,
        deferred: reader.deferred,
        paused: paused.map(|w| (w, reader.paused_run)),
    }
}

impl PageTextLeft<'_> {
    /// Hands each IRI of the page's text to `on_occurrence` ([`for_each_text_occurrence`]),
    /// and returns the problems of the tags that lose a URL attribute.
    pub fn read(self, on_occurrence: &mut dyn FnMut(Occurrence)) -> Vec<Problem> {
        let mut reader = Reader::new(self.text, self.end, Mode::Read(on_occurrence));
        for d in self.deferred {
            match d {
                Deferred::Run(parts) => {
                    if let Mode::Read(on) = &mut reader.mode {
                        read_run(self.text, parts, &mut **on);
                    }
                }
                Deferred::Tag(start, limit, foreign) => reader.unlinked(start, limit, foreign),
            }
        }
        if let Some((state, run)) = self.paused {
            reader.run = run;
            walk(self.text, self.end, state, &mut reader, None, None);
        }
        reader.problems
    }
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

    /// Pages with text IRIs, inline and other tags, code, foreign content, raw text, comments,
    /// references, templates, tags that lose a link to a false separator and crowded tags.
    fn pages() -> Vec<String> {
        let pieces = [
            "<p>See https://a.org/x and www.b.org.</p>",
            "<p>https://c.org/<wbr>pa<b>th</b>?q=1&amp;r=&#x200B;2</p>",
            "<a\u{3000}href=\"https://lost.org/\">t</a>",
            "<img title=\"\u{e9}\" src=\"https://d.org/i\u{200B}.png\">",
            "<pre>https://code.org/</pre><code>www.e.org</code>",
            "<svg><a href=\"https://f.org/\">https://g.org/</a></svg>",
            "<script>var u = 'https://h.org/';</script><style>b{}</style>",
            "<!-- https://i.org/ --><!DOCTYPE html><?pi https://j.org/?>",
            "<div a b c d e>https://k.org/{{ .Path }}/x</div>",
            "<p>text: no link here, mailto:x@y.org</p></>",
            "<textarea>https://l.org/</textarea> ftp://m.org/\u{202E}",
        ];
        let mut out: Vec<String> = pieces.iter().map(|p| p.to_string()).collect();
        out.push(pieces.concat());
        out.push(pieces.iter().rev().copied().collect::<String>().repeat(3));
        // Truncated: an unclosed tag, comment, script.
        out.push(format!("{}<a href='https://n.org/", pieces[0]));
        out.push(format!("{}<script>x", pieces[1]));
        out
    }

    /// The page's occurrences (IRI, source range, origin) and problems, with its text read by
    /// `read`, and the bytes of markup walked.
    type Read = (Vec<(String, Range<usize>, String)>, Vec<Range<usize>>, u64);

    fn two_walks(html: &str) -> Read {
        let mut got = Vec::new();
        let (problems, walked) = crate::work::measure(crate::work::Work::MarkupWalk, || {
            let mut on = |o: Occurrence| {
                got.push((
                    o.iri.to_string(),
                    o.map.source_range(),
                    o.origin.to_string(),
                ))
            };
            super::super::for_each_occurrence(html, 0..html.len(), &mut on);
            for_each_text_occurrence(html, 0..html.len(), &mut on)
        });
        (got, problems.into_iter().map(|p| p.range).collect(), walked)
    }

    #[test]
    fn one_walk_finds_what_the_two_found_in_the_same_order() {
        for html in pages() {
            let mut got = Vec::new();
            let ((_, problems), walked) =
                crate::work::measure(crate::work::Work::MarkupWalk, || {
                    super::super::for_each_page_occurrence(html.as_str(), 0..html.len(), &mut |o| {
                        got.push((
                            o.iri.to_string(),
                            o.map.source_range(),
                            o.origin.to_string(),
                        ))
                    })
                });
            let one: Read = (got, problems.into_iter().map(|p| p.range).collect(), walked);
            let two = two_walks(&html);
            assert_eq!((&one.0, &one.1), (&two.0, &two.1), "{html}");
            // The page is walked once, not once for its crowded tags and again for its text.
            assert_eq!(one.2, html.len() as u64, "{html}");
            assert_eq!(two.2, 2 * html.len() as u64, "{html}");
        }
    }

    #[test]
    fn a_page_whose_text_is_not_all_kept_is_read_on_from_where_the_keeping_stopped() {
        for html in pages() {
            let mut expected = Vec::new();
            let problems = for_each_text_occurrence(&html, 0..html.len(), &mut |o| {
                expected.push((o.iri.to_string(), o.map.source_range()))
            });
            let expected_problems: Vec<Range<usize>> =
                problems.into_iter().map(|p| p.range).collect();
            // Nothing kept, a little, everything: the markup handed on while the text is not
            // kept is what the tokenizer reads, crowded tags (more than 3 attributes) too.
            for keep in [0, 100, 300, usize::MAX] {
                let differ = super::super::tags::page_readings_differ_with(&html, 3, 256, keep);
                assert_eq!(differ, None, "{keep} {html}");
                let (_, _, left) = super::super::tags::walked_page_tags_with(&html, 3, keep);
                if keep == 0 && html.len() > 1000 {
                    assert!(left.paused.is_some(), "{html}");
                }
                let mut got = Vec::new();
                let problems =
                    left.read(&mut |o| got.push((o.iri.to_string(), o.map.source_range())));
                let problems: Vec<Range<usize>> = problems.into_iter().map(|p| p.range).collect();
                assert_eq!(got, expected, "{keep} {html}");
                assert_eq!(problems, expected_problems, "{keep} {html}");
            }
        }
    }

    #[test]
    fn a_page_of_tiny_inline_elements_keeps_a_bounded_list_of_its_text() {
        // 16 bytes of a part's range for each 8 bytes of the page: past half the page's size,
        // the rest of the text is read by a walk of its own, once the markup is handed on.
        // The tags past the pause are still handed on, as the tokenizer reads them.
        let html = format!(
            "<p>{}</p> www.a.org <a href=/after HREF=/dup>x</a><!-- irilint-disable -->",
            "<b>:</b>".repeat(100_000)
        );
        let keep = max_deferred(html.len());
        let (tags, comments, left) = super::super::tags::walked_page_tags_with(&html, 256, keep);
        assert_eq!(tags.len(), 1);
        assert_eq!(comments.len(), 1);
        assert_eq!(
            (tags, comments),
            super::super::tags::tokenized_page_tags(&html)
        );
        let kept: usize = left
            .deferred
            .iter()
            .map(|d| match d {
                Deferred::Run(parts) => parts.capacity() * 16,
                Deferred::Tag(..) => 0,
            })
            .sum();
        // (At most one run of `MAX_RUN` one-byte parts past the limit, grown by doubling.)
        assert!(
            kept <= max_deferred(html.len()) + 4 * MAX_RUN * 16,
            "{kept}"
        );
        assert!(left.paused.is_some());
        let mut got = Vec::new();
        let (_, walked) = crate::work::measure(crate::work::Work::MarkupWalk, || {
            left.read(&mut |o| got.push(o.iri.to_string()))
        });
        assert!(walked > 0 && walked < html.len() as u64);
        assert_eq!(got, ["www.a.org"]);
    }

    #[test]
    fn runs_are_read_when_they_may_hold_an_iri_after_decoding() {
        let pieces = [
            "ww", "w", "W.", ".", "x.org", "<b>", "</b>", "<p>", "&amp;", "&#46;", "&#x3A;",
            "&colon;", "&period;", "http", ":", " ", "&nbsp;", "{{ x }}",
        ];
        for html in &crate::extract::joinings("", &pieces, 4) {
            let every = |unweighed: bool| {
                let mut got = Vec::new();
                let mut on = |o: Occurrence| got.push((o.iri.to_string(), o.map.source_range()));
                let mut reader = Reader::new(html, html.len(), Mode::Read(&mut on));
                reader.unweighed = unweighed;
                walk(html, html.len(), Walk::new(0), &mut reader, None, None);
                got
            };
            assert_eq!(every(false), every(true), "{html}");
        }
        // Prose with references but no `:` nor `www.` is not decoded and searched.
        let page = "<p>Tom &amp; Jerry&nbsp;&lt;3 <b>w</b>w. w<i>w</i>.</p>".repeat(100);
        let (_, work) = crate::work::measure(crate::work::Work::TextRuns, || {
            for_each_text_occurrence(&page, 0..page.len(), &mut |_| {})
        });
        assert_eq!(work, 0);
        // Joined across parts, a `www.` is read with the references beside it, as it was.
        let page = "<p>Tom &amp; ww<b>w.</b>x.org</p>";
        assert_eq!(found(page), pairs(&[("www.x.org", "ww<b>w.</b>x.org")]));
    }

    /// A short part looked at byte by byte is weighed as the two searches weighed every part.
    #[test]
    fn a_part_is_weighed_as_the_searches_weighed_it() {
        let pieces = [
            ":",
            "&",
            ".",
            "www.",
            "WwW.",
            "&amp;",
            "&#58;",
            "&colon;",
            "x",
            " ",
            "\n",
            "ww",
            "0123456789abcdef",
        ];
        for part in &crate::extract::joinings("", &pieces, 4) {
            let mut reader = Reader::new(part, part.len(), Mode::Defer);
            reader.push_part(0..part.len());
            let weighed = (reader.run.maybe, reader.run.references);
            assert_eq!(weighed, searched(part.as_bytes()), "{part:?}");
        }
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
