//! IRIs in Markdown (CommonMark with the GFM tables, footnotes, strikethrough and task lists),
//! parsed by pulldown-cmark.
//!
//! What is extracted, with its origin:
//! - `markdown:link`, `markdown:image`: the destination of an inline link or image
//!   (`[text](dest "title")`, `![alt](dest)`), not its title;
//! - `markdown:definition`: the destination of a reference definition (`[label]: dest`, also on
//!   the next line and in `<...>` with spaces), reported once however many links use it —
//!   reference-style links themselves are not reported, but the texts of those that may name a
//!   site go with their definition ([`Occurrence::reference_texts`]);
//! - `markdown:autolink`: `<scheme:...>` (email autolinks `<user@host>` are not IRIs;
//!   `<mailto:...>` is);
//! - `markdown:text`: bare IRIs in text, found by the plain-text detector ([`super::text`]) in
//!   the text of paragraphs, headings, table cells, link text and image alt text — never in
//!   code spans or code blocks;
//! - `front-matter:<key>`: string values of the YAML (`---`) or TOML (`+++`) front matter at the
//!   start of the document that are absolute IRIs ([`front_matter`]); a `---` block anywhere
//!   else is a thematic break and Markdown;
//! - HTML blocks and inline HTML go to the HTML extractor and keep its origins (`a@href`),
//!   with components (MDX, JSX, Vue) read as elements whose `href`, `src`, `srcset` and `poster`
//!   are URLs ([`super::html::extract_markdown_fragment`]); JSX attribute expressions (`src={"…"}`) are
//!   masked before parsing ([`jsx`]) so that the tag stays a tag and the code in it is no text.
//!
//! Not IRIs: link destinations and definitions that are rustdoc intra-doc links, Rust paths
//! such as `crate::X`, `Self::f()`, `mac!` or `` `Type` `` ([`rustdoc`]). Template expressions
//! in destinations (`[post]({{ site.baseurl }}/x)`, `{% link a.md %}`) are placeholders
//! ([`super::template`]); those on one line, and those that open a destination and are wrapped
//! over the next lines of its paragraph, are masked before parsing, so that the spaces in
//! `{{ site.baseurl }}` do not unmake the link, as they do not once the site is built.
//!
//! Destinations are prepared as CommonMark prepares them (RFC 3987 §5.2): `<...>` brackets
//! removed, backslash escapes and entity and numeric references resolved, and the [`SpanMap`]
//! maps each byte back to the source (an escape or reference is covered whole). pulldown-cmark
//! does not say where a destination is, only what it decodes to, so it is located in the link's
//! source range and decoded here, and the result is checked against pulldown-cmark's. Should
//! they ever differ, the occurrence keeps pulldown-cmark's value and maps all of it to the whole
//! raw destination: a coarse span, never a wrong one ([`extract_with_fallbacks`] lists those
//! places, and the tests check that no fixture needs one).
//!
//! Duplicate reference definitions (a second `[label]:` for the same label) are not reported:
//! CommonMark ignores them and pulldown-cmark does not return them.
//!
//! A document over the parser's memory budget is parsed in chunks that each start where the
//! whole document's parse holds nothing open, and read as it would be whole ([`chunks`]).

mod chunks;
mod decode;
mod embedded_html;
pub(crate) mod front_matter;
mod jsx;
pub(crate) mod mdx;
mod rustdoc;

use std::collections::HashMap;
use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};

use super::{Comment, Extraction, MAX_REFERENCE_TEXTS, Occurrence, SpanMap, template, text};
use decode::Located;

/// True when `events` are slices of `text` one right after another, each as written: their text
/// is then `text` over their whole range, with no copy or map to make.
fn is_source_itself(text: &str, events: &[(Range<usize>, CowStr<'_>)]) -> bool {
    events.windows(2).all(|w| w[0].0.end == w[1].0.start)
        && events.iter().all(|(r, t)| is_source(text, r, t))
}

/// True when the event text `t` is `text[r]`.
fn is_source(text: &str, r: &Range<usize>, t: &str) -> bool {
    // pulldown-cmark borrows text that is written as is: as many bytes at the same address are
    // the source itself without comparing them.
    (t.len() == r.len() && std::ptr::eq(t.as_ptr(), text.as_ptr().wrapping_add(r.start)))
        || text.get(r.clone()) == Some(t)
}

/// [`is_source`] of an event's text: one that pulldown-cmark borrows is compared as it is,
/// without the call that reads a `CowStr` of any kind as a `&str` (once for each text event).
#[inline(always)]
fn is_source_event(text: &str, r: &Range<usize>, t: &CowStr<'_>) -> bool {
    match t {
        CowStr::Borrowed(s) => is_source(text, r, s),
        _ => is_source(text, r, t),
    }
}

/// The pulldown-cmark options irilint parses Markdown with. Not its metadata blocks: it takes a
/// `---` block anywhere in a document, where it is a thematic break and Markdown after it;
/// front matter is found at the start only ([`front_matter`]) and blanked before parsing.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

/// The IRIs of a Markdown document (a `.md` file: MDX when it shows MDX's syntax,
/// [`mdx::paragraph_shows_mdx`], [`mdx::heading_shows_mdx`]).
pub fn extract(text: &str) -> Extraction {
    extract_with_fallbacks(text).0
}

/// The IRIs of an MDX document (a `.mdx` file), [`mdx`].
pub fn extract_mdx(text: &str) -> Extraction {
    extract_as(text, true).0
}

/// True when a file of this name is MDX whatever it holds: a `.mdx` file.
pub fn is_mdx_path(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("mdx"))
}

/// The IRIs of a Markdown document, and the source ranges where an occurrence's map is coarser
/// than exact: a destination whose decoding here differed from pulldown-cmark's, text whose
/// events could not be decoded from their source, or HTML whose events could not be aligned
/// with it. Empty on every fixture; for tests.
pub fn extract_with_fallbacks(text: &str) -> (Extraction, Vec<Range<usize>>) {
    extract_as(text, false)
}

/// [`extract_with_fallbacks`], the document read as MDX when `mdx` is true or its parse as
/// CommonMark shows MDX's syntax (then it is read again, as MDX).
pub fn extract_as(text: &str, mdx: bool) -> (Extraction, Vec<Range<usize>>) {
    let mut occurrences = Vec::new();
    let (mut extraction, fallbacks) = extract_in(
        text,
        mdx,
        chunks::CHUNK_COST,
        &mut Chunking::default(),
        &mut |o| occurrences.push(o),
    );
    extraction.occurrences = occurrences;
    (extraction, fallbacks)
}

/// Hands each IRI of a Markdown document (MDX when `mdx` is true, see [`extract_as`]) to
/// `on_occurrence`, in source order; returns what else the document holds (its directive
/// comments). A document parsed in chunks ([`chunks`]) hands on each chunk's IRIs once it is
/// read, and keeps none.
pub fn extract_each(
    text: &str,
    mdx: bool,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> Extraction {
    extract_in(
        text,
        mdx,
        chunks::CHUNK_COST,
        &mut Chunking::default(),
        on_occurrence,
    )
    .0
}

/// [`extract`] with the parser's budget `budget` instead of [`chunks::CHUNK_COST`], and how the
/// document was parsed; for tests of [`chunks`].
#[doc(hidden)]
pub fn extract_with_budget(text: &str, budget: usize) -> (Extraction, Chunking) {
    let mut chunking = Chunking::default();
    let mut occurrences = Vec::new();
    let (mut extraction, _) = extract_in(text, false, budget, &mut chunking, &mut |o| {
        occurrences.push(o)
    });
    extraction.occurrences = occurrences;
    (extraction, chunking)
}

/// The parser's memory [`extract`] estimates for `text` ([`chunks::cost`]); for tests.
#[doc(hidden)]
pub fn chunk_cost(text: &str) -> usize {
    chunks::cost(text.as_bytes())
}

/// Hands each IRI to `on`, in order; returns the rest of the extraction (no occurrences) and
/// the fallbacks ([`extract_with_fallbacks`]).
fn extract_in(
    text: &str,
    mdx: bool,
    budget: usize,
    chunking: &mut Chunking,
    on: &mut dyn FnMut(Occurrence),
) -> (Extraction, Vec<Range<usize>>) {
    // Jekyll and Hugo write `[post]({{ site.baseurl }}/x)`: to CommonMark the spaces make that
    // no link, to the site it is one (the template runs first). The template expressions of each
    // line are masked before parsing and their text put back into the occurrences after.
    let front = front_matter::find(text);
    let mut masks = template::line_placeholders(text);
    // JSX attribute expressions, where no template expression is already masked.
    let expressions = jsx::expression_masks(text);
    if !expressions.is_empty() {
        let templates = std::mem::take(&mut masks);
        masks = merge_disjoint(templates, expressions);
    }
    if let Some(f) = &front {
        masks.retain(|m| m.start >= f.block.end);
    }
    // MDX's module blocks and comments are code: blanked, with what was masked in them.
    let mut code = Vec::new();
    if mdx {
        code = merge_disjoint(mdx::esm_blocks(text), mdx::comments(text));
        if let Some(f) = &front {
            code.retain(|b| b.start >= f.block.end);
        }
        masks = outside(masks, &code);
    }
    // `<Note>` alone on its line: what follows it is Markdown, as in MDX.
    let mut tag_lines = jsx::component_tag_lines(text, mdx);
    tag_lines = outside(tag_lines, &masks);
    if let Some(f) = &front {
        tag_lines.retain(|b| b.start >= f.block.end);
    }
    if !code.is_empty() {
        tag_lines = outside(tag_lines, &code);
    }
    let mut blanks = tag_lines.clone();
    if !code.is_empty() {
        blanks.append(&mut code);
        blanks.sort_by_key(|b| b.start);
    }
    let mut masked = match &front {
        None if masks.is_empty() && blanks.is_empty() => None,
        _ => Some(mask(
            text,
            front.as_ref().map(|f| f.block.clone()),
            &blanks,
            &masks,
        )),
    };
    let is_masked = masked.is_some();
    drop(blanks);
    let parsed_text = masked.as_deref().unwrap_or(text);
    let want_code = !tag_lines.is_empty();
    // What the parse found, with the masked template expressions put back and the tag lines'
    // attributes (read from the tag as written) that are not in a code block, in order.
    let finish =
        |occurrences: &mut Vec<Occurrence>, lines: &[Range<usize>], code: &[Range<usize>]| {
            if is_masked {
                for occ in occurrences.iter_mut() {
                    template::unmask(occ, text, &masks);
                }
            }
            let mut tags: Vec<Occurrence> = lines
                .iter()
                .flat_map(|line| super::html::extract_markdown_fragment(text, line.clone()).0)
                .collect();
            if !tags.is_empty() && !code.is_empty() {
                tags = outside_occurrences(tags, code);
            }
            if !tags.is_empty() {
                occurrences.append(&mut tags);
            }
            occurrences.sort_by_key(|o| o.map.source_range().start);
        };
    // Before everything else in the document: first in order too (once it is known whether the
    // document is read again as MDX).
    let front_first = |on: &mut dyn FnMut(Occurrence)| {
        if let Some(f) = &front {
            front_matter::occurrences(text, f, on);
        }
    };
    // A document too long to be known within the budget at once has its running cost
    // reckoned once ([`chunks::marks`]), for every reading of it in chunks; unmasked, the text
    // parsed is the text as written, whose marks also tell whether it is within (its cost
    // summed once, not twice).
    let mut marks = None;
    let within = chunks::at_once(parsed_text.as_bytes(), budget)
        || if is_masked {
            chunks::cost(parsed_text.as_bytes()) <= budget
        } else {
            let m = chunks::marks(text.as_bytes(), text.as_bytes());
            let within = chunks::total(&m) <= budget;
            marks = Some(m);
            within
        };
    if within {
        chunking.chunks += 1;
        let (mut extraction, mut fallbacks, mut parsed) = whole(parsed_text, mdx, want_code);
        if parsed.shows_mdx && !mdx {
            *chunking = Chunking::default();
            // (The masked copy is dropped first: it is made again, as MDX masks it.)
            drop((extraction, fallbacks, parsed));
            drop((masked, masks, tag_lines, code));
            return extract_in(text, true, budget, chunking, on);
        }
        if !parsed.indented.is_empty()
            && let Some(filled) = filled(parsed_text, &parsed.indented)
        {
            // Still MDX (what it shows is not asked again); its new indented lines, if any
            // (a fence kept as code), are not filled again.
            (extraction, fallbacks, parsed) = whole(&filled, true, want_code);
        }
        let mut occurrences = std::mem::take(&mut extraction.occurrences);
        finish(&mut occurrences, &tag_lines, &parsed.code);
        front_first(&mut *on);
        occurrences.into_iter().for_each(&mut *on);
        return (extraction, fallbacks);
    }
    // In chunks, each handed on once read. Whether the document shows MDX and, as MDX, has
    // indented code (both read again, below) is asked first of a reading that keeps nothing.
    let marks = marks.unwrap_or_else(|| chunks::marks(text.as_bytes(), text.as_bytes()));
    if !mdx && mdx::may_show_mdx(parsed_text) {
        let shows = each_chunk(
            parsed_text,
            text,
            &marks,
            Reading {
                mdx: false,
                want_code: false,
                probe: true,
            },
            budget,
            &mut Chunking::default(),
            &mut |_, _, _, _| {},
        );
        if shows {
            *chunking = Chunking::default();
            // (The masked copy is dropped first: it is made again, as MDX masks it; held
            // through the second reading, a document of MDX comments took 3 bytes per byte.)
            drop((masked, masks, tag_lines, code));
            return extract_in(text, true, budget, chunking, on);
        }
    }
    let mut indented = Vec::new();
    if mdx && mdx::may_have_indented_code(parsed_text) {
        each_chunk(
            parsed_text,
            text,
            &marks,
            Reading {
                mdx: true,
                want_code: false,
                probe: true,
            },
            budget,
            &mut Chunking::default(),
            &mut |_, _, _, p| indented.extend(p.indented),
        );
    }
    // A masked copy is filled in place; the document itself, in a copy (three copies of the
    // document were held at once: the file, its masked copy and that filled).
    let mut filled = None;
    if !indented.is_empty() {
        match &mut masked {
            Some(copy) => {
                fill_in_place(copy, &indented);
            }
            None => filled = self::filled(text, &indented),
        }
    }
    drop(indented);
    let read = filled
        .as_deref()
        .unwrap_or(masked.as_deref().unwrap_or(text));
    front_first(&mut *on);
    let mut all = Extraction::default();
    let mut fallbacks = Vec::new();
    let mut next_line = 0;
    each_chunk(
        read,
        text,
        &marks,
        Reading {
            mdx,
            want_code,
            probe: false,
        },
        budget,
        chunking,
        &mut |piece, mut e, mut f, p| {
            let first = next_line;
            while tag_lines
                .get(next_line)
                .is_some_and(|l| l.start < piece.end)
            {
                next_line += 1;
            }
            let mut occurrences = std::mem::take(&mut e.occurrences);
            finish(&mut occurrences, &tag_lines[first..next_line], &p.code);
            occurrences.into_iter().for_each(&mut *on);
            all.comments.append(&mut e.comments);
            fallbacks.append(&mut f);
        },
    );
    (all, fallbacks)
}

/// `text` with the lines of MDX's indented code blocks made paragraph lines ([`mdx::fill_indented`]).
fn filled(text: &str, indented: &[Vec<usize>]) -> Option<String> {
    let mut copy = text.to_string();
    fill_in_place(&mut copy, indented).then_some(copy)
}

/// [`filled`], made over `text` itself (its bytes taken out and put back, not copied); whether
/// anything changed.
fn fill_in_place(text: &mut String, indented: &[Vec<usize>]) -> bool {
    let mut bytes = std::mem::take(text).into_bytes();
    let changed = mdx::fill_indented(&mut bytes, indented);
    // Only ASCII blanks are replaced by an ASCII `.`: still UTF-8.
    *text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    changed
}

/// The ranges of `first` and those of `second` that overlap none of them, in order.
fn merge_disjoint(first: Vec<Range<usize>>, second: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(first.len() + second.len());
    let mut kept = first.into_iter().peekable();
    for m in second {
        while let Some(k) = kept.next_if(|k| k.end <= m.start) {
            out.push(k);
        }
        let overlaps = kept.peek().is_some_and(|k| k.start < m.end)
            || out.last().is_some_and(|k: &Range<usize>| k.end > m.start);
        if !overlaps {
            out.push(m);
        }
    }
    out.extend(kept);
    out
}

/// The ranges of `ranges` (in order) that overlap none of `regions` (in order, disjoint).
fn outside(ranges: Vec<Range<usize>>, regions: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut k = 0;
    ranges
        .into_iter()
        .filter(|r| {
            while regions.get(k).is_some_and(|g| g.end <= r.start) {
                k += 1;
            }
            regions.get(k).is_none_or(|g| g.start >= r.end)
        })
        .collect()
}

/// The occurrences of `found` (in order) that start outside `regions` (in order, disjoint).
fn outside_occurrences(found: Vec<Occurrence>, regions: &[Range<usize>]) -> Vec<Occurrence> {
    let mut k = 0;
    found
        .into_iter()
        .filter(|o| {
            let at = o.map.source_range().start;
            while regions.get(k).is_some_and(|g| g.end <= at) {
                k += 1;
            }
            regions.get(k).is_none_or(|g| g.start > at)
        })
        .collect()
}

/// `text` with `blanks` blanked (component tag lines, MDX's code: every byte but line ends a
/// space: no Markdown, the same offsets), its front matter `front` made empty lines (a line of
/// spaces is as blank, but the parser takes 1.5 bytes per byte of it: 16 MB of front matter
/// took 3.5 bytes per byte) and its template expressions masked ([`template::mask`]), in one
/// copy.
fn mask(
    text: &str,
    front: Option<Range<usize>>,
    blanks: &[Range<usize>],
    masks: &[Range<usize>],
) -> String {
    let mut bytes = text.as_bytes().to_vec();
    if let Some(front) = front {
        bytes[front].fill(b'\n');
    }
    for blank in blanks {
        for c in &mut bytes[blank.clone()] {
            if !matches!(*c, b'\n' | b'\r') {
                *c = b' ';
            }
        }
    }
    for m in masks {
        bytes[m.clone()].fill(b'x');
    }
    // Masks start and end at ASCII delimiters, and the blanked block is whole lines (a BOM
    // included), so the text stays UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// What a parse tells besides the IRIs: where its code blocks are, and, in MDX, where the lines
/// of each indented code block start.
#[derive(Default)]
struct Parsed {
    /// When asked for.
    code: Vec<Range<usize>>,
    indented: Vec<Vec<usize>>,
    /// Read as CommonMark, the document showed MDX's own syntax.
    shows_mdx: bool,
}

/// How a document was parsed: in how many chunks, and how many of their ends were forced
/// ([`chunks::Split::forced`]); for tests.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Chunking {
    /// Parses (a document within the budget: 1).
    pub chunks: usize,
    /// Chunk ends not where the document's parse holds nothing open.
    pub forced: usize,
    /// Fenced code blocks and HTML blocks a chunk ended in, then read whole.
    pub blocks: usize,
    /// Of those, the ones over the budget alone, read without the parser: fenced code (no
    /// IRIs) and HTML.
    pub unparsed_blocks: usize,
}

/// The IRIs of `text` parsed whole; `want_code`: whether [`Parsed::code`] is wanted.
fn whole(text: &str, mdx: bool, want_code: bool) -> (Extraction, Vec<Range<usize>>, Parsed) {
    let (extraction, fallbacks, parsed, _) =
        parse_chunk(text, 0..text.len(), mdx, want_code, None, false);
    (extraction, fallbacks, parsed)
}

/// How [`each_chunk`] reads: as MDX, with [`Parsed::code`] wanted, only to ask
/// ([`parse_chunk`]'s `probe`).
#[derive(Clone, Copy)]
struct Reading {
    mdx: bool,
    want_code: bool,
    probe: bool,
}

/// Parses `text` in chunks within `budget` ([`chunks`]), its cost that of `costed` (the text as
/// written, before its front matter and component tag lines were blanked; `marks`, its
/// [`chunks::marks`]), and hands each piece read to `on_piece`
/// in order: its range, its IRIs (in order) and comments, its fallbacks, and its code blocks and
/// MDX's indented lines. Stops at a paragraph that shows MDX (not `mdx`), and returns whether
/// one did.
fn each_chunk(
    text: &str,
    costed: &str,
    marks: &[usize],
    how: Reading,
    budget: usize,
    chunking: &mut Chunking,
    on_piece: &mut dyn FnMut(Range<usize>, Extraction, Vec<Range<usize>>, Parsed),
) -> bool {
    let Reading {
        mdx,
        want_code,
        probe,
    } = how;
    let bytes = text.as_bytes();
    let mut labels = Labels::default();
    // (Every reading is as long as the text as written: their marks are the same.)
    debug_assert_eq!(bytes.len(), costed.len());
    let costs = chunks::Costs::new(bytes, costed.as_bytes(), marks);
    let mut pos = 0;
    while pos < text.len() {
        let split = chunks::next_split(&costs, pos, budget);
        chunking.chunks += 1;
        chunking.forced += usize::from(split.forced);
        let (mut e, f, p, unclosed) = parse_chunk(
            text,
            pos..split.end,
            mdx,
            want_code,
            Some(&mut labels),
            probe,
        );
        if p.shows_mdx {
            return true;
        }
        let Some(open) = unclosed else {
            e.occurrences.sort_by_key(|o| o.map.source_range().start);
            on_piece(pos..split.end, e, f, p);
            pos = split.end;
            continue;
        };
        // A fenced code block or HTML block still open at the chunk's end: it is read whole.
        // (A chunk forced to start within a line may start with the block.)
        let start = chunks::line_start(bytes, open).max(pos);
        e.occurrences.sort_by_key(|o| o.map.source_range().start);
        on_piece(pos..start, e, f, p);
        let end = chunks::block_end(bytes, start);
        chunking.blocks += 1;
        chunking.chunks += 1;
        let parsed = (chunks::cost(&costed.as_bytes()[start..end.min(costed.len())]) <= budget)
            .then(|| parse_chunk(text, start..end, mdx, want_code, Some(&mut labels), probe));
        if parsed.as_ref().is_some_and(|(_, _, p, _)| p.shows_mdx) {
            return true;
        }
        // (Still open at its end only if its end was found otherwise than pulldown-cmark finds
        // it: then read as a block over the budget is.)
        let parsed = parsed.filter(|(_, _, _, unclosed)| unclosed.is_none());
        match parsed {
            Some((mut e, f, p, _)) => {
                e.occurrences.sort_by_key(|o| o.map.source_range().start);
                on_piece(start..end, e, f, p);
            }
            None => {
                chunking.unparsed_blocks += 1;
                let mut e = Extraction::default();
                let mut p = Parsed::default();
                match chunks::block_at(bytes, start) {
                    // Code: no IRIs.
                    chunks::Block::Fence { .. } => {
                        if want_code {
                            p.code.push(start..end);
                        }
                    }
                    _ if probe => {}
                    // HTML: its IRIs handed on as the tokenizer reaches them, a batch at a time.
                    _ => {
                        let mut batch = Vec::new();
                        e.comments = super::html::for_each_markdown_fragment_occurrence(
                            text,
                            start..end,
                            &mut |o| {
                                batch.push(o);
                                if batch.len() == HTML_BATCH {
                                    let e = Extraction {
                                        occurrences: std::mem::take(&mut batch),
                                        ..Extraction::default()
                                    };
                                    // (An empty range: no tag line is in it.)
                                    on_piece(start..start, e, Vec::new(), Parsed::default());
                                }
                            },
                        );
                        e.occurrences = batch;
                    }
                }
                on_piece(start..end, e, Vec::new(), p);
            }
        }
        pos = end.max(pos + 1);
    }
    false
}

/// How many IRIs of an HTML block over the budget alone are handed on at a time.
const HTML_BATCH: usize = 4096;

/// The reference definitions of the chunks parsed so far, by label (compared as pulldown-cmark
/// compares them): a later chunk's definition of one of them is not reported, as CommonMark
/// ignores it. Kept as hashes ([`super::hashed`]): a document of nothing but definitions held
/// five bytes per byte in their labels.
#[derive(Default)]
struct Labels(super::hashed::HashedSet);

/// The IRIs of the chunk `text[chunk]`, which starts where the document's parse holds nothing
/// open ([`chunks`]); their ranges are in `text`. With `labels` (the document is in chunks): the
/// start of a fenced code block or HTML block of kinds 1 to 5 the chunk ends in (the document's
/// parse goes on with it past the chunk), whose events are left out.
fn parse_chunk(
    text: &str,
    chunk: Range<usize>,
    mdx: bool,
    want_code: bool,
    labels: Option<&mut Labels>,
    probe: bool,
) -> (Extraction, Vec<Range<usize>>, Parsed, Option<usize>) {
    let base = chunk.start;
    let slice = &text[chunk.clone()];
    let mut unclosed = None;
    let mut depth = 0usize;
    let mut parsed = Parsed::default();
    // Inside an indented code block, in MDX.
    let mut indented = false;
    let mut w = Walker {
        text,
        occurrences: Vec::new(),
        comments: Vec::new(),
        fallbacks: Vec::new(),
        run: Vec::new(),
        plain: None,
        html: Vec::new(),
        triggers: text::Triggers::new(slice),
        base,
        reference_texts: HashMap::new(),
        reference_count: 0,
    };
    // Each paragraph and heading is asked whether it shows MDX (a byte or two compared, past a
    // match on the event): a search of the whole chunk first for what could ([`mdx::may_show_mdx`],
    // four searches) cost more than all the questions it spared (17.6 M of 1,090 M instructions
    // on the corpus's Markdown, against about 2 M for the questions).
    let asks_mdx = !mdx;
    let mut parser = Parser::new_ext(slice, options()).into_offset_iter();
    // Inside a code block (no IRIs), an autolink (reported as a whole), a table.
    let (mut verbatim, mut autolinks, mut tables) = (0usize, 0usize, 0usize);
    let mut links: Vec<OpenLink<'_>> = Vec::new();
    let chunked = labels.is_some();
    // Each event is matched once, and asks only what can apply to its kind (its kind was read
    // first, then tested by each question). A probe (`probe`) keeps no text, HTML or link: it
    // only asks whether the chunk shows MDX and where MDX's indented code is; it is read by
    // this loop, not one of its own, so that pulldown-cmark's `next` has one caller and is
    // inlined into it (with a second loop it was not: 10 M more on the corpus's Markdown).
    for (event, range) in parser.by_ref() {
        match event {
            Event::Text(t) => {
                // (Text never ends a pending run of text, only one of HTML.)
                if !w.html.is_empty() {
                    w.flush_html();
                }
                let range = base + range.start..base + range.end;
                if let Some(top) = links.last_mut() {
                    top.inner_end = top.inner_end.max(range.end);
                }
                // Text with an empty range (indentation before an HTML block) is not in the
                // source.
                if verbatim == 0 && autolinks == 0 && !range.is_empty() && !probe {
                    w.push_text(range, t);
                } else if indented && let Some(lines) = parsed.indented.last_mut() {
                    lines.push(range.start);
                }
            }
            Event::Html(t) | Event::InlineHtml(t) => {
                if w.text_pending() {
                    w.flush_text(tables > 0);
                }
                let range = base + range.start..base + range.end;
                if let Some(top) = links.last_mut() {
                    top.inner_end = top.inner_end.max(range.end);
                }
                if !probe {
                    w.html.push((range, t));
                }
            }
            Event::Start(tag) => {
                // (The chunk's end first: nearly every event ends before it.)
                if range.end == slice.len()
                    && chunked
                    && depth == 0
                    && matches!(
                        tag,
                        Tag::CodeBlock(CodeBlockKind::Fenced(_)) | Tag::HtmlBlock
                    )
                {
                    // The document's parse goes on with this block past the chunk: it is read
                    // with the block's whole text ([`each_chunk`]). What comes before it is
                    // read here.
                    w.flush_pending(tables > 0);
                    unclosed = Some(base + range.start);
                    break;
                }
                depth += 1;
                let range = base + range.start..base + range.end;
                // A `.md` that shows MDX is read again as MDX: this parse stops there.
                if asks_mdx
                    && matches!(tag, Tag::Paragraph)
                    && mdx::paragraph_shows_mdx(text, range.clone())
                {
                    parsed.shows_mdx = true;
                    break;
                }
                w.flush_pending(tables > 0);
                if let Some(top) = links.last_mut() {
                    top.inner_end = top.inner_end.max(range.end);
                }
                match tag {
                    Tag::CodeBlock(kind) => {
                        verbatim += 1;
                        if want_code {
                            parsed.code.push(range);
                        }
                        if mdx && matches!(kind, CodeBlockKind::Indented) {
                            indented = true;
                            parsed.indented.push(Vec::new());
                        }
                    }
                    Tag::Table(_) => tables += 1,
                    Tag::Link {
                        link_type,
                        dest_url,
                        id,
                        ..
                    } if !probe => {
                        if matches!(link_type, LinkType::Autolink | LinkType::Email) {
                            autolinks += 1;
                        }
                        let link = (link_type, dest_url, id);
                        links.push(OpenLink::new(false, link, range, tables > 0));
                    }
                    Tag::Image {
                        link_type,
                        dest_url,
                        id,
                        ..
                    } if !probe => {
                        let image = (link_type, dest_url, id);
                        links.push(OpenLink::new(true, image, range, tables > 0));
                    }
                    _ => {}
                }
            }
            Event::End(tag) => {
                depth = depth.saturating_sub(1);
                let range = base + range.start..base + range.end;
                if asks_mdx
                    && matches!(tag, TagEnd::Heading(_))
                    && mdx::heading_shows_mdx(text, range.clone())
                {
                    parsed.shows_mdx = true;
                    break;
                }
                w.flush_pending(tables > 0);
                match tag {
                    TagEnd::CodeBlock => {
                        verbatim = verbatim.saturating_sub(1);
                        indented = false;
                    }
                    TagEnd::Table => tables = tables.saturating_sub(1),
                    TagEnd::Link | TagEnd::Image => {
                        if let Some(link) = links.pop() {
                            if matches!(link.link_type, LinkType::Autolink | LinkType::Email) {
                                autolinks = autolinks.saturating_sub(1);
                            }
                            w.link(link);
                        }
                    }
                    _ => {}
                }
                if let Some(top) = links.last_mut() {
                    top.inner_end = top.inner_end.max(range.end);
                }
            }
            _ => {
                w.flush_pending(tables > 0);
                if let Some(top) = links.last_mut() {
                    top.inner_end = top.inner_end.max(base + range.end);
                }
            }
        }
    }
    w.flush_text(false);
    w.flush_html();
    let mut defs: Vec<_> = parser
        .reference_definitions()
        .iter()
        .filter(|(_, d)| unclosed.is_none_or(|u| base + d.span.start < u))
        .collect();
    if let Some(labels) = labels {
        // Those of a label an earlier chunk defined are not the label's definition.
        defs.retain(|(label, _)| labels.0.insert(unicase::UniCase::new(&**label)));
    }
    for (label, def) in defs {
        if !def.dest.is_empty() && !rustdoc::is_intra_doc_link(&def.dest) {
            let span = base + def.span.start..base + def.span.end;
            let located = decode::locate_definition(text, span, &def.dest);
            w.push_located(&def.dest, located, "markdown:definition");
            // (With no link text kept, no label is made and hashed only to find none.)
            let uses = if w.reference_texts.is_empty() {
                None
            } else {
                w.reference_texts
                    .remove(&LabelKey::new(normalize_label(label)))
            };
            if let (Some(uses), Some(pushed)) = (uses, w.occurrences.last_mut()) {
                pushed.reference_texts = uses;
            }
        }
    }
    let Walker {
        mut occurrences,
        comments,
        fallbacks,
        ..
    } = w;
    occurrences.sort_by_key(|o| o.map.source_range().start);
    (
        Extraction {
            occurrences,
            comments,
            ..Extraction::default()
        },
        fallbacks,
        parsed,
        unclosed,
    )
}

/// A link or image whose end has not been seen yet.
struct OpenLink<'a> {
    image: bool,
    link_type: LinkType,
    dest: CowStr<'a>,
    /// The label of a reference-style link (`ref` of `[text][ref]`).
    id: CowStr<'a>,
    /// The source of the whole link.
    range: Range<usize>,
    /// The end of the last event inside it so far (its text ends at or after it).
    inner_end: usize,
    in_table: bool,
}

impl<'a> OpenLink<'a> {
    fn new(
        image: bool,
        (link_type, dest, id): (LinkType, CowStr<'a>, CowStr<'a>),
        range: Range<usize>,
        in_table: bool,
    ) -> Self {
        let inner_end = (range.start + if image { 2 } else { 1 }).min(range.end);
        OpenLink {
            image,
            link_type,
            dest,
            id,
            range,
            inner_end,
            in_table,
        }
    }
}

struct Walker<'t> {
    text: &'t str,
    occurrences: Vec<Occurrence>,
    /// Comments in its HTML that may hold suppression directives.
    comments: Vec<Comment>,
    fallbacks: Vec<Range<usize>>,
    /// Consecutive text events not yet searched for bare IRIs, when some is not the source
    /// itself or does not follow the one before it.
    run: Vec<(Range<usize>, CowStr<'t>)>,
    /// Consecutive text events not yet searched, while each is the source itself and follows
    /// the one before it (nearly always): their source range alone, no list of events.
    plain: Option<Range<usize>>,
    /// Consecutive HTML events not yet handed to the HTML extractor.
    html: Vec<(Range<usize>, CowStr<'t>)>,
    /// Where in the chunk a bare IRI could be: most runs of text events have none.
    triggers: text::Triggers<'t>,
    /// Where the chunk starts in the text (the triggers' positions are in the chunk).
    base: usize,
    /// The texts of reference-style links that may name a site, by the label they use.
    reference_texts: HashMap<LabelKey, Vec<Range<usize>>>,
    /// How many are kept in `reference_texts`.
    reference_count: usize,
}

/// The most reference-style link texts a chunk keeps to compare with their definitions: what a
/// page of millions of such links holds stays small.
const REFERENCE_TEXTS_PER_CHUNK: usize = 4096;

/// The longest reference-style link text kept (a longer one names no site).
const MAX_REFERENCE_TEXT: usize = 1024;

/// A normalized link label ([`normalize_label`]) as the reference texts are keyed by it, equal
/// when their [`unicase::UniCase`]s are, but never across an ASCII and a non-ASCII label (`k`
/// and the Kelvin sign U+212A): `UniCase` hashed those apart, so the map met such a pair only by
/// a chance collision. An ASCII label is kept in lower case, so that its hash reads its bytes
/// at once: `UniCase` hashes an ASCII label a byte at a time, lowered, about 40 instructions a
/// byte with std's keyed SipHash (5.9 M of the corpus's Markdown for 7,165 labels). Other
/// labels keep `UniCase`.
#[derive(PartialEq, Eq, Hash)]
enum LabelKey {
    Ascii(String),
    Other(unicase::UniCase<String>),
}

impl LabelKey {
    fn new(mut label: String) -> LabelKey {
        if label.is_ascii() {
            label.make_ascii_lowercase();
            LabelKey::Ascii(label)
        } else {
            LabelKey::Other(unicase::UniCase::unicode(label))
        }
    }
}

/// A link label as CommonMark matches it (case aside): runs of whitespace are one space, and
/// none at either end.
fn normalize_label(label: &str) -> String {
    // Most labels are already so (`docs`, `crates-io`, `Build Status`): copied as they are, not
    // split into a list of words and joined again. (At the start, a space would be leading.)
    let mut after_space = true;
    for c in label.chars() {
        if c.is_whitespace() {
            if c != ' ' || after_space {
                return label.split_whitespace().collect::<Vec<_>>().join(" ");
            }
            after_space = true;
        } else {
            after_space = false;
        }
    }
    if after_space && !label.is_empty() {
        return label.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    label.to_owned()
}

impl<'t> Walker<'t> {
    fn link(&mut self, link: OpenLink<'_>) {
        match link.link_type {
            // A rustdoc intra-doc link (`[x](crate::X)`) is a Rust path, not an IRI.
            LinkType::Inline if !link.image && rustdoc::is_intra_doc_link(&link.dest) => {}
            LinkType::Inline if !link.dest.is_empty() => {
                let located = decode::locate_inline(
                    self.text,
                    link.range.clone(),
                    link.inner_end,
                    &link.dest,
                    link.in_table,
                );
                let origin = if link.image {
                    "markdown:image"
                } else {
                    "markdown:link"
                };
                self.push_located(&link.dest, located, origin);
                // What a reader sees of a link: its text, `[` to `]`.
                let text_start = link.range.start + 1;
                if !link.image
                    && link.inner_end > text_start
                    && let Some(pushed) = self.occurrences.last_mut()
                {
                    pushed.label = Some(text_start..link.inner_end);
                }
            }
            LinkType::Autolink if link.range.len() >= 2 => {
                // No escapes or references in autolinks: the text between `<` and `>`.
                let raw = link.range.start + 1..link.range.end - 1;
                let located = if self.text.get(raw.clone()) == Some(&*link.dest) {
                    Located::Exact(SpanMap::identity(raw))
                } else {
                    Located::Inexact(link.range)
                };
                self.push_located(&link.dest, located, "markdown:autolink");
            }
            // A reference-style link is reported at its definition, which is compared with
            // the link's text there ([`Occurrence::reference_texts`]).
            LinkType::Reference | LinkType::Collapsed | LinkType::Shortcut if !link.image => {
                let text_start = link.range.start + 1;
                let text = self.text.get(text_start..link.inner_end).unwrap_or("");
                if self.reference_count < REFERENCE_TEXTS_PER_CHUNK
                    && text.len() <= MAX_REFERENCE_TEXT
                    && memchr::memchr2(b'.', b'&', text.as_bytes()).is_some()
                {
                    let uses = self
                        .reference_texts
                        .entry(LabelKey::new(normalize_label(&link.id)))
                        .or_default();
                    if uses.len() < MAX_REFERENCE_TEXTS {
                        uses.push(text_start..link.inner_end);
                        self.reference_count += 1;
                    }
                }
            }
            // Email autolinks are not IRIs.
            _ => {}
        }
    }

    fn push_located(&mut self, dest: &str, located: Located, origin: &'static str) {
        let map = match located {
            Located::Exact(map) => map,
            Located::Inexact(range) => {
                // pulldown-cmark's value, all of it mapped to the whole raw destination.
                let mut map = SpanMap::default();
                map.push_replaced(dest.len(), range.clone());
                self.fallbacks.push(range);
                map
            }
        };
        self.occurrences.push(
            Occurrence {
                iri: std::sync::Arc::from(dest),
                map,
                origin: origin.into(),
                placeholders: Vec::new(),
                label: None,
                reference_texts: Vec::new(),
            }
            .with_templates(),
        );
    }

    /// Bare IRIs in the pending text events. Text is split into several events at some
    /// characters (brackets, escapes, references); contiguous ones are searched as one text.
    fn text_pending(&self) -> bool {
        self.plain.is_some() || !self.run.is_empty()
    }

    /// Adds a text event to the pending run.
    fn push_text(&mut self, range: Range<usize>, t: CowStr<'t>) {
        let text = self.text;
        if self.run.is_empty()
            && self.plain.as_ref().is_none_or(|p| p.end == range.start)
            && is_source_event(text, &range, &t)
        {
            let start = self.plain.as_ref().map_or(range.start, |p| p.start);
            self.plain = Some(start..range.end);
            return;
        }
        // The run so far, as one event: it is searched as the events it stands for would be.
        if let Some(p) = self.plain.take() {
            self.run.push((p.clone(), CowStr::Borrowed(&text[p])));
        }
        self.run.push((range, t));
    }

    /// Searches the pending run of text events, or hands on the pending group of HTML events
    /// (at most one is pending: each kind of event ends the other's), before an event of
    /// another kind.
    #[inline(always)]
    fn flush_pending(&mut self, in_table: bool) {
        if self.text_pending() {
            self.flush_text(in_table);
        } else if !self.html.is_empty() {
            self.flush_html();
        }
    }

    /// (Inlined: it runs once for most runs of text events, nearly always to find no trigger.)
    #[inline(always)]
    fn flush_text(&mut self, in_table: bool) {
        if let Some(whole) = self.plain.take() {
            // Text that is the source itself: searched where it is, when it holds a trigger.
            if self
                .triggers
                .any_in(whole.start - self.base..whole.end - self.base)
            {
                self.detect_in_source(whole);
            }
            return;
        }
        if !self.run.is_empty() {
            self.flush_run(in_table);
        }
    }

    #[inline(never)]
    fn detect_in_source(&mut self, whole: Range<usize>) {
        let text = self.text;
        self.detect(&text[whole.clone()], || SpanMap::identity(whole));
    }

    #[inline(never)]
    fn flush_run(&mut self, in_table: bool) {
        // Taken for the search and given back empty, so that its buffer serves the next run.
        let mut run = std::mem::take(&mut self.run);
        self.search_run(&run, in_table);
        run.clear();
        self.run = run;
    }

    fn search_run(&mut self, run: &[(Range<usize>, CowStr<'_>)], in_table: bool) {
        let (Some(first), Some(last)) = (run.first(), run.last()) else {
            return;
        };
        let text = self.text;
        let whole = first.0.start..last.0.end;
        // Usually the events are the source itself, one after another: then their text is
        // searched where it is, not joined into a copy first.
        if is_source_itself(text, run) {
            if self
                .triggers
                .any_in(whole.start - self.base..whole.end - self.base)
            {
                self.detect(&text[whole.clone()], || SpanMap::identity(whole));
            }
            return;
        }
        let joined: CowStr<'_> = if run.len() == 1 {
            first.1.clone()
        } else {
            run.iter().map(|(_, t)| &**t).collect::<String>().into()
        };
        if text[whole.clone()] == *joined {
            self.detect(&joined, || SpanMap::identity(whole));
            return;
        }
        let (decoded, map) = decode::decode(text, whole, in_table);
        if decoded == *joined {
            self.detect(&decoded, || map);
            return;
        }
        // Event by event, joining those whose source ranges touch.
        let mut segment = (String::new(), SpanMap::default(), usize::MAX);
        for (range, t) in run {
            let (piece, piece_map) = if text[range.clone()] == **t {
                (t.to_string(), SpanMap::identity(range.clone()))
            } else {
                match decode::decode(text, range.clone(), in_table) {
                    (d, m) if d == **t => (d, m),
                    // A heading's last text event's range may include trailing whitespace.
                    (d, m) if d.starts_with(&**t) && d[t.len()..].trim().is_empty() => {
                        (t.to_string(), m.slice(0..t.len()))
                    }
                    _ => {
                        let mut m = SpanMap::default();
                        m.push_replaced(t.len(), range.clone());
                        self.fallbacks.push(range.clone());
                        (t.to_string(), m)
                    }
                }
            };
            if segment.2 != range.start {
                let (done, done_map, _) = std::mem::take(&mut segment);
                self.detect(&done, || done_map);
            }
            segment.0.push_str(&piece);
            segment.1.extend(&piece_map);
            segment.2 = range.end;
        }
        let (done, done_map, _) = segment;
        self.detect(&done, || done_map);
    }

    /// The bare IRIs of `prepared`, whose map is only made when there is one (most text has
    /// none).
    fn detect(&mut self, prepared: &str, map: impl FnOnce() -> SpanMap) {
        let found = text::detect(prepared);
        if found.is_empty() {
            return;
        }
        let map = map();
        for r in found {
            self.occurrences.push(Occurrence {
                iri: prepared[r.clone()].into(),
                placeholders: super::text_placeholders::placeholders(&prepared[r.clone()]),
                map: map.slice(r),
                origin: "markdown:text".into(),
                label: None,
                reference_texts: Vec::new(),
            });
        }
    }

    fn flush_html(&mut self) {
        let events = &self.html;
        if events.is_empty() {
            return;
        }
        let (found, comments, fell_back) = embedded_html::extract_group(self.text, events);
        if fell_back {
            self.fallbacks
                .push(events[0].0.start..events[events.len() - 1].0.end);
        }
        // Emptied, not dropped: its buffer serves the next group.
        self.html.clear();
        self.occurrences.extend(found);
        self.comments.extend(comments);
    }
}

#[cfg(test)]
mod tests {
    use super::normalize_label;

    /// A destination placed by its address in the source ([`decode::locate_inline`],
    /// [`decode::locate_definition`]) is where scanning the source for it finds it: the two
    /// give the same extraction, fallbacks included, on the repository's Markdown and on
    /// documents made of every shape of destination (escapes, references, `&` that is none,
    /// `<...>`, nested parentheses, titles, tables, block quotes and list items, a destination
    /// on the next line, CRLF, non-ASCII, front matter and templates that mask the copy parsed).
    #[test]
    fn destinations_placed_by_address_are_where_scanning_finds_them() {
        use super::decode::tests::{PLACED_BY_ADDRESS, SCAN_ONLY};
        let pieces = [
            "[a](http://example.org/x)",
            "![i](https://example.org/i.png \"t\")",
            "[b](<http://example.org/a b>)",
            "[c](http://example.org/(x)y)",
            "[d](http://example.org/?a=1&b=2)",
            "[e](http://example.org/&amp;x)",
            "[f](http://example.org/\\(x)",
            "[g](http://ex&#97;mple.org/)",
            "[h](\n  http://example.org/next-line)",
            "[i][r1]",
            "[r1]: http://example.org/def",
            "[r2]:\n  <http://example.org/d e> 'title'",
            "[r3]: http://example.org/&x;y",
            "[r4]: https://b\u{fc}cher.example/\u{e9}",
            "| a | [t](http://example.org/a\\|b) |\n|---|---|\n| [u](http://example.org/u) | x |",
            "> [q](\n> http://example.org/q)",
            "> > [q2](\n> > >http://example.org/q2)",
            "- [l](http://example.org/l)\n  - [m](<http://example.org/m>)",
            "[](http://example.org/empty-text)",
            "[n]()",
            "[o](http://example.org/o)\r\n[p](http://example.org/p)\r\n",
            "[`code`](http://example.org/code) and [x\\](y)](http://example.org/z)",
            "[x]({{ site.baseurl }}/post)",
            "<https://example.org/auto>",
            "text https://example.org/bare text",
            "[crate](crate::X)",
            "[**bold** _em_](http://example.org/em \"title (x)\")",
            "![a ![b](http://example.org/b)](http://example.org/a)",
        ];
        let mut docs: Vec<String> = Vec::new();
        for (k, a) in pieces.iter().enumerate() {
            docs.push(a.to_string());
            for b in pieces.iter().skip(k % 5).step_by(3) {
                docs.push(format!("{a}\n\n{b}\n"));
                docs.push(format!("{a} {b}"));
                docs.push(format!("---\ntitle: x\n---\n{a}\n{b}"));
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("fixtures"), root.join("docs")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "md" || e == "mdx")
                    && let Ok(doc) = std::fs::read_to_string(&path)
                {
                    docs.push(doc);
                }
            }
        }
        let mut located = 0;
        for doc in &docs {
            for mdx in [false, true] {
                let fast = super::extract_as(doc, mdx);
                SCAN_ONLY.set(true);
                let scanned = super::extract_as(doc, mdx);
                SCAN_ONLY.set(false);
                assert_eq!(fast, scanned, "{doc:?}");
                located += fast
                    .0
                    .occurrences
                    .iter()
                    .filter(|o| {
                        o.origin.starts_with("markdown:link") || o.origin == "markdown:definition"
                    })
                    .count();
            }
        }
        assert!(located > 1000, "{located}");
        // The comparison is of two paths: most destinations were placed by their address.
        let placed = PLACED_BY_ADDRESS.get();
        assert!(placed * 2 > located, "{placed} of {located}");
    }

    /// Reference texts are found by their label as `UniCase` keyed them: the same label in
    /// any ASCII case, or with any case folding of other characters, and no other. A document
    /// shows it: each definition gets the texts of the links that use its label.
    #[test]
    fn label_keys_are_equal_when_their_unicase_labels_are() {
        use super::LabelKey;
        use std::hash::BuildHasher;
        let labels = [
            "docs",
            "Docs",
            "DOCS",
            "doc",
            "docs ",
            "crates.io",
            "Crates.IO",
            "a-b_c",
            "A-B_C",
            "stra\u{df}e",
            "STRASSE",
            "Stra\u{df}e",
            "\u{e9}t\u{e9}",
            "\u{c9}T\u{c9}",
            "\u{212a}",
            "k",
            "K",
            "\u{3a3}\u{391}",
            "\u{3c3}\u{3b1}",
            "",
        ];
        let hasher = std::collections::hash_map::RandomState::new();
        for a in labels {
            for b in labels {
                let (ka, kb) = (LabelKey::new(a.to_owned()), LabelKey::new(b.to_owned()));
                let (ua, ub) = (unicase::UniCase::new(a), unicase::UniCase::new(b));
                // (`UniCase` equates an ASCII label with another that folds to it, but hashes
                // them apart: a map keyed by it never found one by the other.)
                let same_kind = a.is_ascii() == b.is_ascii();
                assert_eq!(ka == kb, same_kind && ua == ub, "{a:?} {b:?}");
                if ka == kb {
                    assert_eq!(hasher.hash_one(&ka), hasher.hash_one(&kb));
                }
            }
        }
        let doc = "[a.org][Docs] [b.org][STRA\u{df}E] [c.org][\u{c9}t\u{c9}]\n\n\
                   [docs]: https://x.example/\n[stra\u{df}e]: https://y.example/\n\
                   [\u{e9}t\u{e9}]: https://z.example/\n";
        let found = super::extract(doc);
        let texts: Vec<Vec<&str>> = found
            .occurrences
            .iter()
            .map(|o| o.reference_texts.iter().map(|r| &doc[r.clone()]).collect())
            .collect();
        assert_eq!(texts, [vec!["a.org"], vec!["b.org"], vec!["c.org"]]);
    }

    #[test]
    fn labels_already_normal_are_copied_and_others_joined_as_commonmark_matches_them() {
        let joined = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
        for label in [
            "",
            "docs",
            "Build Status",
            " docs",
            "docs ",
            " ",
            "a  b",
            "a\tb",
            "a\nb",
            "a\u{b}b",
            "a\u{a0}b",
            "a\u{3000}b",
            "crates.io \u{e9}t\u{e9}",
        ] {
            assert_eq!(normalize_label(label), joined(label), "{label:?}");
        }
    }
}
