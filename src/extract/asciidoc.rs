//! IRIs in AsciiDoc (Asciidoctor, and the AsciiDoc.py of git's documentation).
//!
//! What is extracted, with its origin:
//! - `asciidoc:link`: the target of a `link:` macro, `link:target[text]`, and the `link=`
//!   attribute of an inline or block image (`image::logo.png[Logo,link=https://example.org]`);
//! - `asciidoc:image`: the target of an inline or block image macro (`image:x.png[]`,
//!   `image::x.png[]`), and `asciidoc:media` that of `video::` and `audio::`;
//! - `asciidoc:url`: URL macros, read as Asciidoctor's `InlineLinkRx` reads them — an `http`,
//!   `https`, `file`, `ftp` or `irc` URL up to the first blank, `[` or `]`, then `[…]` closed by
//!   the first unescaped `]` in the paragraph, where the macro ends whatever follows
//!   (`https://brew.sh[Homebrew]-supported`) — and `mailto:` macros (`mailto:a@example.org[]`);
//!   the text of URL, `link:` and `mailto:` macros is what readers see, and the IRIs in it are
//!   found as bare IRIs (`link:https://open-vsx.org[https://open-vsx.org]`);
//!   bare IRIs (`https://example.org`, `<https://example.org>`), found by the plain-text
//!   detector ([`super::text`]); and IRIs that start with an attribute reference naming a URL —
//!   one the document sets to an IRI (`:url-repo: https://…`) or, by Asciidoctor's convention,
//!   one named `url-…` or `uri-…`: `{url-repo}/blob/main[code]`, `{issue}466[#466]` (a URL
//!   macro once the reference is replaced, as Asciidoctor replaces it before reading macros).
//!
//! Attribute references (`{url-repo}`, `{litdd}`) inside an IRI are placeholders
//! ([`super::template`]): not checked, the characters around them are — a zero-width space next
//! to one is still found. So are template expressions (`{{ }}`) in macro targets. A
//! `{startsb}…{endsb}` (`[…]` written with the built-in attributes, as git's documentation
//! writes the optional parts of its URL synopses: `ssh://{startsb}user@{endsb}host.xz/`) is one
//! placeholder, as `[user@]` is in plain text.
//!
//! Not IRIs, and skipped: listing (`----`), literal (`....`), passthrough (`++++`) and comment
//! (`////`) blocks and fenced code; literal paragraphs (indented, after a blank line — but an
//! indented list item, `  * https://…`, `\t- …`, `  term:: …`, is a list item, which Asciidoctor
//! looks for first, and so is the indented text after a description list term); comment
//! lines (`// …`); inline passthroughs (`+text+`, `++text++`, `+++text+++`, `pass:[…]`) and
//! backquoted code (`` `code` ``; Asciidoctor would still apply macros inside monospace, but
//! git's AsciiDoc.py does not, and in documentation a URL in code is an example);
//! escaped macros and IRIs (`\https://…`); `include::`, `ifdef::`-style preprocessor lines;
//! `xref:` and `<<id>>` cross references. A two-line section title's underline (`NAME` over
//! `----`, within two characters of its length) is not a listing delimiter.
//!
//! §5.2 preparation: a passthrough target, `link:++https://example.org/a b++[]`, is the IRI as
//! written. In other targets and URLs, the character references Asciidoctor keeps in the link
//! it writes (`&#8203;`, `&amp;`, `&copy;`) are resolved, as the browser resolves them in the
//! `href`; each maps to its whole source. And the backslash of an escape Asciidoctor resolves
//! before it reads macros is dropped (`compare/v1.0\...v1.1` links to `compare/v1.0...v1.1`):
//! `\...`, `\--` between words, `\'` in a word, `\(C)`, and `\*`, `\_`, `\#`, `` \` ``,
//! `\^`, `\~` when a closing mark follows in the paragraph (see `escape_at`); any other
//! backslash stays, as it does in the link. A macro without its closing `]`, an unclosed passthrough or backquote is read
//! as plain text, whose IRIs are found as such.
//!
//! Suppression directives are comment lines: `// irilint-disable-next-line RULE`.
//!
//! No AsciiDoc parser on crates.io gives the source offsets of macro targets, so this is a
//! focused scanner; the fixtures in `fixtures/asciidoc/` come from git's documentation and
//! from real READMEs and changelogs, each named in its first lines.

use std::collections::HashSet;
use std::ops::Range;

use super::hashed::HashedSet;
use super::masked::{self, Masked, is_blank};
use super::{
    Comment, DIRECTIVE_PREFIX, Extraction, Occurrence, SpanMap, template, text, text_placeholders,
};

/// How long a part of a document [`extract_each`] reads at a time, at least.
const PART: usize = 64 * 1024;

/// Hands each IRI of an AsciiDoc document to `on_occurrence`, in order, and returns the rest of
/// the extraction. A document longer than [`PART`] is read in parts, each ended before a line
/// that starts with a letter after a blank line, outside the delimited blocks whose content is
/// not text (where the line-by-line scan holds nothing open: literal paragraphs end at a blank
/// line, inline markup with its paragraph), so that only one part's IRIs are held at a time.
/// The attributes the document sets to a URL are gathered first, from the whole document, as
/// its whole reading gathers them. A stretch of more than four parts with no such line is cut
/// at another line the scan reads, else (one long line) at a space.
pub fn extract_each(text: &str, on_occurrence: &mut dyn FnMut(Occurrence)) -> Extraction {
    extract_in_parts(text, PART, on_occurrence).0
}

/// [`extract_each`] with parts of at least `part` bytes, and how many parts were cut elsewhere
/// than before a letter line after a blank line; for tests.
#[doc(hidden)]
pub fn extract_in_parts(
    text: &str,
    part: usize,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> (Extraction, usize) {
    let part = part.max(1);
    if text.len() <= part {
        let mut found = extract(text);
        std::mem::take(&mut found.occurrences)
            .into_iter()
            .for_each(on_occurrence);
        return (found, 0);
    }
    // Kept as hashes ([`super::hashed`]): a document of nothing but such attributes held four
    // bytes per byte in their names.
    let mut urls = HashedSet::default();
    for line in TopLines::new(text) {
        if let Some((name, value)) = attribute_entry(&text[line.range])
            && text::Iris::new(value).next().is_some_and(|r| r.start == 0)
        {
            urls.insert(name);
        }
    }
    let mut tops = TopLines::new(text).peekable();
    let b = text.as_bytes();
    // The end of a line cut at a space, while the parts are still in it.
    let mut long_line = 0;
    // The last space in `b[from..to]`, past it.
    let space_in =
        |from: usize, to: usize| memchr::memrchr2(b' ', b'\t', &b[from..to]).map(|k| from + k + 1);
    let next_end = |pos: usize| {
        let (target, limit) = (pos + part, pos.saturating_add(4 * part).min(text.len()));
        let mut end = None;
        if long_line > limit {
            let at = super::char_boundary_from(text, limit);
            end = Some(space_in(target.min(limit), limit).unwrap_or(at));
        }
        let mut last_visited = None;
        while end.is_none()
            && let Some(line) = tops.next_if(|l| l.range.start < limit)
        {
            let start = line.range.start;
            if start >= target && line.after_blank && line.starts_with_letter {
                end = Some(start);
                break;
            }
            last_visited = Some(start);
            if line.range.end > limit {
                // One long line: cut at a space in it, else before it, else where the four
                // parts end (a line of one run of markup read whole as one part was held a
                // few times over: 16 MB of `+++` took 100 MB).
                long_line = line.range.end;
                last_visited = space_in(start.max(target).min(limit), limit)
                    .or(last_visited.filter(|&c| c > pos))
                    .or_else(|| Some(super::char_boundary_from(text, limit)));
                break;
            }
        }
        match end {
            Some(end) => (end, long_line > pos && end < long_line),
            None if text.len() <= limit => (text.len(), false),
            None => {
                // No such line within four parts: at another line the scan reads, else past
                // a block whose content is no text (it holds no IRI).
                let end = last_visited
                    .filter(|&c| c > pos)
                    .or_else(|| tops.peek().map(|l| l.range.start))
                    .filter(|&c| c > pos)
                    .unwrap_or(text.len());
                (end, true)
            }
        }
    };
    super::read_in_parts(
        text,
        next_end,
        |part| extract_with(part, Some(&urls)),
        on_occurrence,
    )
}

/// A line [`Scan::blocks`] reads at its loop's top (not inside a delimited block whose content
/// is not text, nor a literal paragraph after its first line).
struct TopLine {
    /// Without its line end.
    range: Range<usize>,
    /// The line before it is blank.
    after_blank: bool,
    /// It starts with a letter (ASCII or not).
    starts_with_letter: bool,
}

/// The lines [`Scan::blocks`] reads at its loop's top, found as it finds them, one at a time.
struct TopLines<'t> {
    text: &'t str,
    /// The start of the next line.
    at: usize,
    /// The line before the next one, and the last non-blank line before it.
    prev: Option<Range<usize>>,
    last_non_blank: Option<Range<usize>>,
}

impl<'t> TopLines<'t> {
    fn new(text: &'t str) -> Self {
        TopLines {
            text,
            at: 0,
            prev: None,
            last_non_blank: None,
        }
    }

    /// The line at `at` (without its line end, as [`masked::lines`] gives it) and the start of
    /// the next.
    fn line_at(&self, at: usize) -> Option<(Range<usize>, usize)> {
        let b = self.text.as_bytes();
        if at >= b.len() {
            return None;
        }
        let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |k| at + k);
        let mut body = end;
        while body > at && matches!(b[body - 1], b'\n' | b'\r') {
            body -= 1;
        }
        Some((at..body, (end + 1).min(b.len().max(end + 1))))
    }

    /// Moves past the line at `at`.
    fn pass(&mut self, line: Range<usize>, next: usize) {
        if !is_blank(&self.text[line.clone()]) {
            self.last_non_blank = Some(line.clone());
        }
        self.prev = Some(line);
        self.at = next;
    }
}

impl Iterator for TopLines<'_> {
    type Item = TopLine;

    fn next(&mut self) -> Option<TopLine> {
        self.next_hiding(&mut |_| {})
    }
}

impl TopLines<'_> {
    /// The next top line; each delimited block and literal paragraph passed on the way is
    /// handed to `hidden` whole.
    fn next_hiding(&mut self, hidden: &mut dyn FnMut(Range<usize>)) -> Option<TopLine> {
        let text = self.text;
        loop {
            let (range, next) = self.line_at(self.at)?;
            let line = &text[range.clone()];
            let prev = self.prev.clone().map(|p| &text[p]);
            if let Some((c, len)) = verbatim_delimiter(line)
                && !is_title_underline(prev, c, len)
            {
                // Its closing line, if any: the block is skipped.
                let mut at = next;
                let mut close = None;
                while let Some((r, n)) = self.line_at(at) {
                    if verbatim_delimiter(&text[r.clone()]).is_some_and(|(d, _)| d == c) {
                        close = Some((r, n));
                        break;
                    }
                    at = n;
                }
                if let Some((r, n)) = close {
                    // (The lines in it are not blank for what follows only if the last is not.)
                    hidden(range.start..r.end);
                    self.pass(range, next);
                    self.pass(r, n);
                    continue;
                }
            }
            let after_blank = prev.is_some_and(is_blank);
            let literal = line.starts_with([' ', '\t'])
                && !is_blank(line)
                && prev.is_none_or(is_blank)
                && !is_list_item(line)
                && !self
                    .last_non_blank
                    .clone()
                    .is_some_and(|l| is_list_term(&text[l]));
            if literal && !line.starts_with("//") {
                // The paragraph to its first blank line.
                let mut end = range.end;
                self.pass(range.clone(), next);
                while let Some((r, n)) = self.line_at(self.at) {
                    if is_blank(&text[r.clone()]) {
                        break;
                    }
                    end = r.end;
                    self.pass(r, n);
                }
                hidden(range.start..end);
                continue;
            }
            let first = line.as_bytes().first().copied();
            let starts_with_letter = first.is_some_and(|c| c.is_ascii_alphabetic() || c >= 0x80);
            self.pass(range.clone(), next);
            return Some(TopLine {
                range,
                after_blank,
                starts_with_letter,
            });
        }
    }
}

/// The IRIs of an AsciiDoc document.
pub fn extract(text: &str) -> Extraction {
    extract_with(text, None)
}

/// [`extract`], with the attributes set to a URL in the whole document (`urls`) when `text` is
/// a part of it.
fn extract_with(text: &str, urls: Option<&HashedSet>) -> Extraction {
    let mut s = Scan {
        text,
        masked: Masked::new(text),
        occurrences: Vec::new(),
        comments: Vec::new(),
        url_attributes: HashSet::new(),
        document_urls: urls,
        closers: Closers::default(),
        targets: TargetEnds::default(),
        iri_reach: text::Reach::default(),
    };
    s.blocks();
    s.inline();
    let masked = s.masked.into_text();
    let mut occurrences = s.occurrences;
    // One for all the bare URLs, in document order: a paragraph is searched for closing marks
    // once, however many URLs it holds.
    let mut closers = s.closers;
    occurrences.extend(
        masked::bare_iris(text, &masked, "asciidoc:url", attribute_references)
            .into_iter()
            .map(|occ| {
                let range = url_end(text, occ.map.source_range(), &mut closers);
                let (iri, map) = resolve_references(text, range, &mut closers);
                if *iri == *occ.iri {
                    return occ;
                }
                let mut placeholders = text_placeholders::placeholders(&iri);
                placeholders.extend(attribute_references(&iri));
                Occurrence {
                    placeholders: template::disjoint(placeholders),
                    iri: iri.into(),
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
///
/// The backslash of an escape Asciidoctor resolves before it reads macros is not in the link
/// either ([`escape_at`]): `compare/v1.0\...v1.1` links to `compare/v1.0...v1.1`.
///
/// `closers` remembers the searches for closing marks (kept for the whole document, whose
/// IRIs come in order: each paragraph is searched once).
fn resolve_references(text: &str, range: Range<usize>, closers: &mut Closers) -> (String, SpanMap) {
    let end = range.end;
    super::span_map::decode_escapes(
        text,
        range,
        |rest| memchr::memchr2(b'&', b'\\', rest),
        |i| {
            if text.as_bytes()[i] == b'\\' {
                return escape_at(text, i, end, closers);
            }
            let n = kept_reference_len(&text.as_bytes()[i..end])?;
            super::html::charref::reference(text, i, i + n).filter(|(_, len)| *len == n)
        },
    )
}

/// The escape at `i` (a `\`) that Asciidoctor resolves in its replacements and quotes
/// substitutions, which run before its macros: what is left of it, and its length. Its
/// `REPLACEMENTS` drop the backslash of `\...`, `\(C)`, `\(R)`, `\(TM)`, `` \`' ``, of `\--`
/// between word characters and of `\'` between a letter or digit and a letter; its quotes
/// substitution that of a formatting mark (`\*`, `\_`, `\#`, `` \` ``, `\^`, `\~`) that
/// pairs with a closing one later in the paragraph (`^` and `~` within the same word). Any
/// other backslash stays (and the browser reads it as `/` in an `http` link).
fn escape_at(text: &str, i: usize, end: usize, closers: &mut Closers) -> Option<(String, usize)> {
    let b = &text.as_bytes()[..end];
    let rest = &b[i + 1..];
    let word = |k: Option<&u8>| k.is_some_and(|&c| is_word(c));
    let before = i.checked_sub(1).map(|k| &b[k]);
    let kept = if rest.starts_with(b"...") {
        3
    } else if let Some(n) = [&b"(C)"[..], b"(R)", b"(TM)", b"`'"]
        .iter()
        .find(|p| rest.starts_with(p))
        .map(|p| p.len())
    {
        n
    } else if rest.starts_with(b"--") && word(before) && word(rest.get(2)) {
        2
    } else if rest.starts_with(b"'")
        && before.is_some_and(u8::is_ascii_alphanumeric)
        && rest.get(1).is_some_and(u8::is_ascii_alphabetic)
    {
        1
    } else {
        let mark = *rest.first()?;
        let kind = MARKS.iter().position(|&m| m == mark)?;
        closers.closes(text.as_bytes(), kind, i + 2).then_some(1)?
    };
    Some((text[i + 1..i + 1 + kept].to_string(), 1 + kept))
}

/// `range`, a bare URL as the plain-text detector ends it, as Asciidoctor ends it: its
/// `InlineLinkRx` runs after the quotes substitution, on the text that substitution left, and
/// keeps a `*`, `_`, `#`, `` ` ``, `^` or `~` at a URL's end. So a mark right after a backslash
/// (`https://a.example/q\*`, an escape that resolves or not) is in the URL, and so is the mark
/// that closes an escaped one (`https://a.example/a\*b*` links to `a*b*`: the quotes
/// substitution drops the backslash and leaves both marks as they are).
fn url_end(text: &str, range: Range<usize>, closers: &mut Closers) -> Range<usize> {
    let b = text.as_bytes();
    let Some(&next) = b.get(range.end).filter(|c| MARKS.contains(c)) else {
        return range;
    };
    if b[range.clone()].last() == Some(&b'\\') {
        return range.start..range.end + 1;
    }
    let kind = MARKS.iter().position(|&m| m == next).unwrap_or(0);
    let closes_here = memchr::memchr_iter(b'\\', &b[range.clone()])
        .map(|k| range.start + k)
        .filter(|&i| b.get(i + 1) == Some(&next))
        .any(|i| closers.closer(b, kind, i + 2) == Some(range.end));
    if closes_here {
        range.start..range.end + 1
    } else {
        range
    }
}

/// The first `mark` from `from` on within the paragraph (an escaped one counts: the quotes
/// substitution's closing mark is any); `Err` holds where the paragraph ends.
fn find_mark(b: &[u8], from: usize, mark: u8) -> Result<usize, usize> {
    let found = find_mark_uncounted(b, from, mark);
    let end = match found {
        Ok(k) | Err(k) => k,
    };
    crate::work::add(crate::work::Work::ClosingMarkScan, end.saturating_sub(from));
    found
}

fn find_mark_uncounted(b: &[u8], from: usize, mark: u8) -> Result<usize, usize> {
    let mut line_blank = false;
    for (k, &c) in b.iter().enumerate().skip(from) {
        if c == mark {
            return Ok(k);
        }
        if c == b'\n' {
            if line_blank {
                return Err(k);
            }
            line_blank = true;
        } else if !c.is_ascii_whitespace() {
            line_blank = false;
        }
    }
    Err(b.len())
}

/// The formatting marks whose escape Asciidoctor resolves when they pair.
const MARKS: [u8; 6] = [b'*', b'_', b'#', b'`', b'^', b'~'];

/// Where the last search for each mark's closer went, so that many escapes in one paragraph
/// do not search it again and again.
#[derive(Default)]
struct Closers {
    /// Per mark: the search started at, and the closer found or where it stopped.
    last: [Option<(usize, Result<usize, usize>)>; MARKS.len()],
}

impl Closers {
    /// Whether the mark `MARKS[kind]` escaped just before `from` pairs with a closing one.
    fn closes(&mut self, b: &[u8], kind: usize, from: usize) -> bool {
        self.closer(b, kind, from).is_some()
    }

    /// The mark `MARKS[kind]` that closes the one escaped just before `from`, as Asciidoctor's
    /// quotes substitution pairs them. `^` and `~` (unconstrained, `\^(\S+?)\^`): the next one
    /// within the word. A doubled mark (`\**b**`, unconstrained): the next one in the paragraph.
    /// The others (constrained, `\*(\S|\S.*?\S)\*(?!\p{Word})`): text that starts with no
    /// blank, then the first mark in the paragraph after a character that is no blank and before
    /// one that is not part of a word (`a\*b*c` has none: the backslash stays).
    fn closer(&mut self, b: &[u8], kind: usize, from: usize) -> Option<usize> {
        let mark = MARKS[kind];
        if mark == b'^' || mark == b'~' {
            return b[from.min(b.len())..]
                .iter()
                .take_while(|c| !c.is_ascii_whitespace())
                .position(|&c| c == mark)
                .map(|k| from + k);
        }
        if b.get(from) == Some(&mark) {
            return find_mark(b, from + 1, mark).ok();
        }
        if b.get(from).is_none_or(u8::is_ascii_whitespace) {
            return None;
        }
        let found = match self.last[kind] {
            Some((start, Ok(k))) if start <= from && from < k => Ok(k),
            Some((start, Err(stop))) if start <= from && from < stop => Err(stop),
            _ => find_constrained_closer(b, from, mark),
        };
        self.last[kind] = Some((from, found));
        found.ok()
    }
}

/// The first `mark` after `from` within the paragraph that closes constrained quoted text: after
/// a character that is no blank, before one that is not part of a word (for `` ` ``, nor a quote
/// or backquote); `Err` holds where the search stopped.
fn find_constrained_closer(b: &[u8], from: usize, mark: u8) -> Result<usize, usize> {
    let mut at = from + 1;
    loop {
        let k = find_mark(b, at, mark)?;
        let after = std::str::from_utf8(&b[k + 1..(k + 5).min(b.len())])
            .or_else(|e| std::str::from_utf8(&b[k + 1..k + 1 + e.valid_up_to()]))
            .ok()
            .and_then(|s| s.chars().next());
        let joins = after.is_some_and(|c| {
            c.is_alphanumeric() || c == '_' || (mark == b'`' && matches!(c, '"' | '\'' | '`'))
        });
        if !b[k - 1].is_ascii_whitespace() && !joins {
            return Ok(k);
        }
        at = k + 1;
    }
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
    // Where the last search for `{endsb}` went and what it found: each `{startsb}` before it
    // finds the same (one search from each of many unclosed ones went to the IRI's end).
    let mut endsb: Option<(usize, Option<usize>)> = None;
    while let Some(k) = memchr::memchr(b'{', &b[i..]) {
        i += k;
        match attribute_name_end(b, i + 1) {
            Some(close) => {
                // `{startsb}…{endsb}` is `[…]`: an optional part of a synopsis
                // (`git://host.xz{startsb}:port{endsb}/`), one placeholder as in plain text.
                let end = match &iri[i + 1..close] {
                    "startsb" => {
                        let found = match endsb {
                            Some((from, found))
                                if from <= close && found.is_none_or(|f| f >= close) =>
                            {
                                found
                            }
                            _ => {
                                let found = iri[close..].find("{endsb}").map(|k| close + k);
                                crate::work::add(
                                    crate::work::Work::OpenerScans,
                                    found.map_or(iri.len(), |f| f + 1) - close,
                                );
                                endsb = Some((close, found));
                                found
                            }
                        };
                        found.map_or(close + 1, |k| k + "{endsb}".len())
                    }
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
    /// Those of the whole document, when the text is a part of it.
    document_urls: Option<&'a HashedSet>,
    /// The searches for the marks that close escaped ones ([`resolve_references`]).
    closers: Closers,
    /// The searches for where macro targets end, in the text being read inline.
    targets: TargetEnds,
    /// The searches for where IRIs after attribute references end, in `text`.
    iri_reach: text::Reach,
}

/// Where a macro's target ends, searched for once per stretch of text: the target of each URL
/// in `http://a/x/http://a/x/…` (one line) was searched for to the line's end, from each.
#[derive(Default)]
struct TargetEnds {
    /// Per kind (0: blank, `[` or `]`, a URL macro's, `InlineLinkRx`'s `[^\s\[\]]+`; 1: blank
    /// or `[`, a named macro's):
    /// searched from this position, found there (the text's end if none).
    next: [Option<(usize, usize)>; 2],
}

impl TargetEnds {
    /// The first byte of `b` at or after `from` that ends a target of `kind`.
    fn find(&mut self, b: &[u8], kind: usize, from: usize) -> usize {
        if let Some((searched, found)) = self.next[kind]
            && searched <= from
            && from <= found
        {
            return found;
        }
        let ends = |c: &u8| c.is_ascii_whitespace() || *c == b'[' || (kind == 0 && *c == b']');
        let found = b[from..]
            .iter()
            .position(ends)
            .map_or(b.len(), |k| from + k);
        crate::work::add(crate::work::Work::OpenerScans, found - from + 1);
        self.next[kind] = Some((from, found));
        found
    }
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

/// True when `line` starts a list item, indented or not, which Asciidoctor reads before it
/// looks for a literal paragraph: its `UnorderedListRx` (`- `, `* `, `** `, `• `),
/// `OrderedListRx` (`. `, `1. `, `a. `, `iv) `) and `DescriptionListRx` (`term:: text`,
/// `term;; text`, with `:::` and `::::`).
fn is_list_item(line: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t']).trim_end();
    let b = t.as_bytes();
    let marker = match b.first() {
        Some(b'-') => 1,
        Some(b'*') => b.iter().take_while(|&&c| c == b'*').count(),
        Some(b'.') => b.iter().take_while(|&&c| c == b'.').count(),
        Some(c) if c.is_ascii_digit() => {
            let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if b.get(n) == Some(&b'.') { n + 1 } else { 0 }
        }
        Some(c) if c.is_ascii_alphabetic() && b.get(1) == Some(&b'.') => 2,
        _ => 0,
    };
    let marker = if marker == 0 && t.starts_with('\u{2022}') {
        '\u{2022}'.len_utf8()
    } else if marker == 0 {
        // Roman numerals: `iv)`, `IX)`.
        let n = b.iter().take_while(|c| b"IVXivx".contains(c)).count();
        if n > 0 && b.get(n) == Some(&b')') {
            n + 1
        } else {
            0
        }
    } else {
        marker
    };
    let item = marker > 0
        && b.get(marker).is_some_and(|&c| c == b' ' || c == b'\t')
        && marker + 1 < b.len();
    item || is_description_item(t)
}

/// True when `t` (trimmed) is a description list item: a term, then `::`, `:::`, `::::` or
/// `;;`, then the end of the line or a blank (not a line comment).
fn is_description_item(t: &str) -> bool {
    if t.starts_with("//") && !t.starts_with("///") {
        return false;
    }
    let b = t.as_bytes();
    (1..b.len()).any(|k| {
        let ends = |n: usize| b.get(k + n).is_none_or(|&c| c == b' ' || c == b'\t');
        if b[k..].starts_with(b";;") {
            return ends(2);
        }
        b[k..].starts_with(b"::")
            && (2..=4)
                .rev()
                .any(|n| b.len() >= k + n && b[k..k + n].iter().all(|&c| c == b':') && ends(n))
    })
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
        // Line by line as they are found, never a list of them (a listing block is one part,
        // whose empty lines took 16 bytes each in such a list: 32 MB of them, 597 MB).
        let mut tops = TopLines::new(text);
        let masked = &mut self.masked;
        while let Some(top) = tops.next_hiding(&mut |r| masked.hide(text, r)) {
            let line = &text[top.range.clone()];
            if let Some(comment) = line.strip_prefix("//") {
                if !comment.starts_with('/') {
                    let body = comment.trim();
                    if body.starts_with(DIRECTIVE_PREFIX) {
                        let start =
                            top.range.start + 2 + (comment.len() - comment.trim_start().len());
                        self.comments.push(Comment {
                            range: top.range.start..start + body.len(),
                            body: start..start + body.len(),
                        });
                    }
                    masked.hide(text, top.range.clone());
                }
                continue;
            }
            if ["include::", "ifdef::", "ifndef::", "ifeval::", "endif::"]
                .iter()
                .any(|p| line.starts_with(p))
            {
                masked.hide(text, top.range.clone());
            } else if let Some((name, value)) = attribute_entry(line)
                && text::Iris::new(value).next().is_some_and(|r| r.start == 0)
            {
                self.url_attributes.insert(name.to_string());
            }
        }
    }

    /// Inline passthroughs, code and macros: hidden, macro targets extracted.
    fn inline(&mut self) {
        let text = self.text;
        // Read while the hides are gathered, then hidden: taken, not copied (a copy beside the
        // text and the masked text: a listing block of 128 MB, one part, peaked at 400 MB).
        let m = std::mem::take(&mut self.masked);
        let b = m.bytes();
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
                // Closed in its paragraph: Asciidoctor substitutes each block's text on its own.
                b'+' if b[i..].starts_with(b"+++") => {
                    match masked::find_in_paragraph(b, i + 3, |k| b[k..].starts_with(b"+++")) {
                        Ok(k) => {
                            hides.push(i..k + 3);
                            k + 3
                        }
                        Err(_) => i + 3,
                    }
                }
                b'+' if b[i..].starts_with(b"++") => {
                    self.closed(b, i, 2, b"++", 2, &mut failed, &mut hides, false)
                }
                b'+' if word_start => self.closed(b, i, 1, b"+", 1, &mut failed, &mut hides, true),
                b'`' if b[i..].starts_with(b"``") => {
                    self.closed(b, i, 2, b"``", 4, &mut failed, &mut hides, false)
                }
                b'`' if word_start => self.closed(b, i, 1, b"`", 0, &mut failed, &mut hides, true),
                b'{' if word_start => self
                    .attribute_url(b, i, &mut failed, &mut hides)
                    .unwrap_or(i + 1),
                c if word_start && c.is_ascii_alphabetic() => self
                    .url_macro_at(b, i, &mut failed, &mut hides)
                    .or_else(|| self.macro_at(b, i, &mut failed, &mut hides))
                    .unwrap_or(i + 1),
                _ => i + 1,
            };
            i = next.max(i + 1);
        }
        self.masked = m;
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

    /// The `]` closing the attribute list opened at `open` (a `[`), in its paragraph and not
    /// escaped (`\]`); a search that found none is remembered in `failed`.
    fn attrlist_close(
        b: &[u8],
        open: usize,
        failed: &mut [Option<(usize, usize)>; 5],
    ) -> Option<usize> {
        if failed[3].is_some_and(|(start, stop)| start < open && open < stop) {
            return None;
        }
        match find_close(b, open + 1, b"]", false) {
            Ok(k) => Some(k),
            Err(stop) => {
                failed[3] = Some((open, stop));
                None
            }
        }
    }

    /// A URL macro at `i`, `https://brew.sh[Homebrew]`, extracted and hidden; returns where it
    /// ends. As Asciidoctor's `InlineLinkRx` reads it: an `http`, `https`, `file`, `ftp` or
    /// `irc` URL, the target running to the first blank, `[` or `]`, then an attribute list
    /// closed by the first unescaped `]` in the paragraph — the macro ends there, whatever
    /// follows (`https://brew.sh[Homebrew]-supported`). Without its `[…]` it is a bare URL,
    /// left to the plain-text detector.
    fn url_macro_at(
        &mut self,
        b: &[u8],
        i: usize,
        failed: &mut [Option<(usize, usize)>; 5],
        hides: &mut Vec<Range<usize>>,
    ) -> Option<usize> {
        const SCHEMES: [&[u8]; 5] = [b"https://", b"http://", b"file://", b"ftp://", b"irc://"];
        let scheme = SCHEMES.iter().find(|p| b[i..].starts_with(p))?;
        let open = self.targets.find(b, 0, i);
        let len = open - i;
        if len == scheme.len() || b.get(open) != Some(&b'[') {
            return None;
        }
        let close = Self::attrlist_close(b, open, failed)?;
        self.push(i..open, "asciidoc:url");
        self.label_last(open + 1..close);
        // The link text is what readers see: an IRI there (`https://x.org[https://x.org]`) is
        // found by the plain-text detector, as in Markdown.
        hides.push(i..open + 1);
        hides.push(close..close + 1);
        Some(close + 1)
    }

    /// Gives the occurrence pushed last the text a reader sees of its link, the macro's
    /// attribute list `text[inner]` (none when it is empty: the URL itself is shown).
    fn label_last(&mut self, inner: Range<usize>) {
        // `[text,window=_blank]` is an attribute list whose first entry is the text.
        let list = &self.text[inner.clone()];
        let inner = match list.find(',') {
            Some(k) if list.contains('=') => inner.start..inner.start + k,
            _ => inner,
        };
        if !self.text[inner.clone()].trim().is_empty()
            && let Some(o) = self.occurrences.last_mut()
        {
            o.label = Some(inner);
        }
    }

    /// A `link:`, `mailto:`, `image:`, `image::`, `video::` or `audio::` macro at `i`,
    /// extracted and hidden; returns where it ends. An image's `link=` attribute is extracted
    /// too: `image:logo.png[Logo,link=https://example.org]`.
    fn macro_at(
        &mut self,
        b: &[u8],
        i: usize,
        failed: &mut [Option<(usize, usize)>; 5],
        hides: &mut Vec<Range<usize>>,
    ) -> Option<usize> {
        const MACROS: [(&[u8], &str); 7] = [
            (b"link:", "asciidoc:link"),
            (b"mailto:", "asciidoc:url"),
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
            let close =
                masked::find_in_paragraph(b, target_at + 2, |k| b[k..].starts_with(b"++")).ok()?;
            (target_at + 2..close, close + 2)
        } else {
            let len = self.targets.find(b, 1, target_at) - target_at;
            if len == 0 || b[target_at] == b':' {
                return None;
            }
            (target_at..target_at + len, target_at + len)
        };
        if b.get(open) != Some(&b'[') {
            return None;
        }
        let close = Self::attrlist_close(b, open, failed)?;
        // `mailto:a@example.org[]` links to the whole of it.
        let target = if *name == b"mailto:" {
            i..target.end
        } else {
            target
        };
        if !origin.is_empty() && !target.is_empty() {
            // A passthrough's content is written out as it is (`&` escaped): no references.
            if b[target_at..].starts_with(b"++") {
                self.push_verbatim(target, origin);
            } else {
                self.push(target, origin);
            }
            if *origin != "asciidoc:image" && *origin != "asciidoc:media" {
                self.label_last(open + 1..close);
            }
        }
        if *origin == "asciidoc:image"
            && let Some(link) = named_attribute(b, open + 1..close, b"link")
        {
            self.push(link, "asciidoc:link");
        }
        if matches!(*name, b"link:" | b"mailto:") {
            // The link text is what readers see, read as text (see `url_macro_at`).
            hides.push(i..open + 1);
            hides.push(close..close + 1);
        } else {
            hides.push(i..close + 1);
        }
        Some(close + 1)
    }

    /// An IRI starting with a reference to an attribute that names a URL, at `i` (its `{`).
    fn attribute_url(
        &mut self,
        b: &[u8],
        i: usize,
        failed: &mut [Option<(usize, usize)>; 5],
        hides: &mut Vec<Range<usize>>,
    ) -> Option<usize> {
        let close = attribute_name_end(b, i + 1)?;
        let name = &self.text[i + 1..close];
        let lower = name.to_ascii_lowercase();
        let names_url = self.url_attributes.contains(name)
            || self.document_urls.is_some_and(|d| d.contains(name))
            || ["url-", "uri-", "url_"]
                .iter()
                .any(|p| lower.starts_with(p));
        if !names_url {
            return None;
        }
        // Asciidoctor replaces the reference before it reads macros: `{issue}466[#466]` is the
        // URL macro `https://…/issues/466[#466]`, which ends at its `[`.
        let open = self.targets.find(b, 0, i);
        if b.get(open) == Some(&b'[')
            && let Some(close) = Self::attrlist_close(b, open, failed)
        {
            self.push(i..open, "asciidoc:url");
            self.label_last(open + 1..close);
            hides.push(i..close + 1);
            return Some(close + 1);
        }
        let (end, _) = text::cut_end(self.text, i, false, &mut self.iri_reach);
        let end = end.max(close + 1);
        self.push(i..end, "asciidoc:url");
        hides.push(i..end);
        Some(end)
    }

    /// A target or URL at `range`, its character references resolved.
    fn push(&mut self, range: Range<usize>, origin: &'static str) {
        let (iri, map) = resolve_references(self.text, range, &mut self.closers);
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
            placeholders: template::disjoint(placeholders),
            iri: iri.into(),
            map,
            origin: origin.into(),
            label: None,
            reference_texts: Vec::new(),
        });
    }
}

/// The value of the attribute `name=` in the attribute list at `range` of `b`, as
/// Asciidoctor's `AttributeList` parses it: entries separated by commas, a value in double or
/// single quotes (a backslash escaping its quote) or running to the next comma, trimmed.
fn named_attribute(b: &[u8], range: Range<usize>, name: &[u8]) -> Option<Range<usize>> {
    let end = range.end;
    let mut k = range.start;
    let blank = |c: &u8| *c == b' ' || *c == b'\t';
    while k < end {
        while k < end && blank(&b[k]) {
            k += 1;
        }
        // A quoted positional value, skipped whole.
        let (key, value) = if k < end && matches!(b[k], b'"' | b'\'') {
            (k..k, quoted_end(b, k, end).map_or(end, |q| q + 1)..end)
        } else {
            let stop = (k..end)
                .find(|&j| matches!(b[j], b',' | b'='))
                .unwrap_or(end);
            if b.get(stop) == Some(&b'=') && stop < end {
                (k..stop, stop + 1..end)
            } else {
                (k..k, stop..end)
            }
        };
        let mut v = value.start;
        if !key.is_empty() {
            while v < end && blank(&b[v]) {
                v += 1;
            }
            let val = if v < end && matches!(b[v], b'"' | b'\'') {
                let q = quoted_end(b, v, end).unwrap_or(end);
                let r = v + 1..q;
                v = (q + 1).min(end);
                r
            } else {
                let stop = (v..end).find(|&j| b[j] == b',').unwrap_or(end);
                let mut e = stop;
                while e > v && blank(&b[e - 1]) {
                    e -= 1;
                }
                let r = v..e;
                v = stop;
                r
            };
            let key_text = b[key].trim_ascii();
            if key_text == name {
                return (!val.is_empty()).then_some(val);
            }
        }
        k = (v..end).find(|&j| b[j] == b',').map_or(end, |j| j + 1);
    }
    None
}

/// The position of the quote closing the one at `open`, not escaped by a backslash.
fn quoted_end(b: &[u8], open: usize, end: usize) -> Option<usize> {
    let q = b[open];
    let mut k = open + 1;
    while k < end {
        match b[k] {
            b'\\' => k += 2,
            c if c == q => return Some(k),
            _ => k += 1,
        }
    }
    None
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
    // A delimiter line before it (`====` of an example block holding a listing) is no title.
    let title = prev.chars().any(char::is_alphanumeric)
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

    /// Asciidoctor's `InlineLinkRx`: a URL macro ends at the `]` of its attribute list,
    /// whatever follows it.
    #[test]
    fn a_url_macro_ends_at_its_bracket() {
        let text = "Install via https://brew.sh[Homebrew]-supported platforms.\n\n\
                    参见 https://example.org/a[示例]支持，https://example.org/b[例]（注）。\n\n\
                    Write to mailto:git@vger.kernel.org[the list]-now or https://a.example/x[a\\]b]c.\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("asciidoc:url", "https://brew.sh"),
                ("asciidoc:url", "https://example.org/a"),
                ("asciidoc:url", "https://example.org/b"),
                ("asciidoc:url", "mailto:git@vger.kernel.org"),
                ("asciidoc:url", "https://a.example/x"),
            ])
        );
        // An attribute naming a URL, used as a macro's target (rewrite-clj's CHANGELOG).
        let text = ":issue: https://github.com/clj-commons/rewrite-clj/issues/\n\n\
                    {issue}466[#466] and {issue}467[#467]-later\n";
        assert_eq!(
            found(text),
            pairs(&[
                (
                    "asciidoc:url",
                    "https://github.com/clj-commons/rewrite-clj/issues/"
                ),
                ("asciidoc:url", "{issue}466"),
                ("asciidoc:url", "{issue}467"),
            ])
        );
    }

    /// The escapes Asciidoctor resolves before it reads macros are not in the link; the
    /// backslash maps to nothing, the character after it to itself.
    #[test]
    fn backslash_escapes_are_not_part_of_the_iri() {
        let text = "{url-repo}/compare/v2.0.25\\...v2.0.26[full diff]\n\n\
                    https://github.com/x/y/compare/v1\\...v2[log] and \
                    https://x.example/a\\*b* and http://e.example/a\\--b and \
                    http://f.example/it\\'s and http://g.example/a\\(C)\n\n\
                    https://h.example/a\\*b and https://i.example/c\\d\n\n\
                    https://j.example/a\\*b*c and https://l.example/a\\_b c_d\n\n\
                    https://k.example/q\\* and https://m.example/a\\#b #c#\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("asciidoc:url", "{url-repo}/compare/v2.0.25...v2.0.26"),
                ("asciidoc:url", "https://github.com/x/y/compare/v1...v2"),
                // The closing mark is in the link too (Asciidoctor's `InlineLinkRx` keeps it).
                ("asciidoc:url", "https://x.example/a*b*"),
                ("asciidoc:url", "http://e.example/a--b"),
                ("asciidoc:url", "http://f.example/it's"),
                ("asciidoc:url", "http://g.example/a(C)"),
                // No closing `*` in the paragraph: the backslash stays, as in the link.
                ("asciidoc:url", "https://h.example/a\\*b"),
                ("asciidoc:url", "https://i.example/c\\d"),
                // Constrained marks pair as Asciidoctor pairs them (checked with
                // Asciidoctor.js 3.0): not before a word character, not after a blank.
                // Unpaired, the backslash stays; a mark after a backslash is in the URL either
                // way.
                ("asciidoc:url", "https://j.example/a\\*b*c"),
                ("asciidoc:url", "https://l.example/a\\_b"),
                // `\*` pairs with a later `*` in the paragraph, `q\*` with none.
                ("asciidoc:url", "https://k.example/q\\*"),
                ("asciidoc:url", "https://m.example/a#b"),
            ])
        );
        let e = extract(text);
        let o = &e.occurrences[0];
        assert!(o.placeholders.contains(&(0..10)), "{:?}", o.placeholders);
        let dots = o.iri.find("...").unwrap();
        assert_eq!(&text[o.map.to_source(dots..dots + 3)], "\\...");
    }

    /// Asciidoctor reads a list item before it looks for a literal paragraph: an indented
    /// item is a list item, not code.
    #[test]
    fn indented_list_items_are_read() {
        let text = "Text.\n\n  * https://list.example/a[x]\n\n\t- https://list.example/b[x]\n\n\
                    \x20 . https://list.example/c\n\n  term:: https://list.example/d\n\n\
                    \x20 $ wget https://literal.example/\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("asciidoc:url", "https://list.example/a"),
                ("asciidoc:url", "https://list.example/b"),
                ("asciidoc:url", "https://list.example/c"),
                ("asciidoc:url", "https://list.example/d"),
            ])
        );
    }

    #[test]
    fn image_link_attributes_are_read() {
        let text = "image:logo.png[alt,link=https://a.example/]\n\n\
                    image::file.png[alt,link=https://b.example/]\n\n\
                    image:x.png[\"A, b\",width=10, link = \"https://c.example/a,b\" ]\n\n\
                    image:y.png[link='https://d.example/',alt=z]\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("asciidoc:image", "logo.png"),
                ("asciidoc:link", "https://a.example/"),
                ("asciidoc:image", "file.png"),
                ("asciidoc:link", "https://b.example/"),
                ("asciidoc:image", "x.png"),
                ("asciidoc:link", "https://c.example/a,b"),
                ("asciidoc:image", "y.png"),
                ("asciidoc:link", "https://d.example/"),
            ])
        );
    }
}
