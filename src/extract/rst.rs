//! IRIs in reStructuredText (docutils, Sphinx).
//!
//! What is extracted, with its origin:
//! - `rst:reference`: the embedded IRI of a hyperlink reference, `` `text <IRI>`_ `` (or `__`);
//! - `rst:target`: the IRI of a hyperlink target, `.. _name: IRI`, `.. __: IRI`, `__ IRI`;
//! - `rst:image`: the argument of an `image` or `figure` directive (also in a substitution
//!   definition, `.. |name| image:: IRI`), and `rst:image-target` its `:target:` option;
//! - `rst:text`: standalone IRIs in running text, found by the plain-text detector
//!   ([`super::text`], with its placeholders), also in the text of a reference with an
//!   embedded IRI, which is what readers see (as in Markdown);
//! - the content of a `.. raw:: html` directive goes to the HTML extractor (`a@href`, ...).
//!
//! Not IRIs, and skipped: inline literals (` ``code`` `), interpreted text with a role
//! (`:pep:`8``, `:rfc:`, `:ref:`, `:doc:`, `` `x`:role: ``) or without one (`` `title` ``),
//! reference names (`` `text`_ ``, `` `text <alias_>`_ ``, a target `.. _a: b_` that points to
//! another target), literal blocks (the indented block after a paragraph ending with `::`), the
//! content of code directives (`code`, `code-block`, `sourcecode`, `literalinclude`, `math`,
//! `raw` other than HTML, `kernel-doc`, ...), comments and `include` paths.
//!
//! §5.2 preparation, as docutils reads an IRI in a reference or target: whitespace (a line break
//! and the indentation of the next line) is removed, and backslash escapes are resolved (`\_`
//! is `_`, `\ ` is nothing); the [`super::SpanMap`] maps each escape to its two source
//! characters. Template expressions in them (a Sphinx theme's Jinja) are placeholders
//! ([`super::template`]), and so are URI Template expressions (`{IDF_TARGET_PATH_NAME}`, which
//! ESP-IDF's Sphinx extension substitutes; [`super::text_placeholders`]).
//!
//! A construct that is not closed (a backquote without its partner in the paragraph, a target
//! without a name's colon) is read as plain text, whose IRIs are found as such.
//!
//! Explicit markup (`..`) starts a block: a `..` line that goes on with a paragraph or a list
//! item's text (no blank line before it, the same indentation) is that text, as docutils reads
//! it, so a target there is running text and a comment there is no directive.
//!
//! Suppression directives are comments: `.. irilint-disable-next-line RULE`.
//!
//! No reStructuredText parser on crates.io gives the source offsets of link targets, so this is
//! a focused scanner over lines (explicit markup blocks, literal blocks) and inline markup
//! (backquoted constructs); the fixtures in `fixtures/rst/` come from the Linux kernel's and
//! Python's documentation.

use std::ops::Range;

use super::masked::{self, Masked, indent, is_blank};
use super::{Comment, DIRECTIVE_PREFIX, Extraction, Occurrence, SpanMap, html};

/// Directives whose content (and argument) is code or data, not running text.
const CODE_DIRECTIVES: &[&str] = &[
    "code",
    "code-block",
    "sourcecode",
    "literalinclude",
    "include",
    "math",
    "raw",
    "highlight",
    "graphviz",
    "digraph",
    "productionlist",
    "doctest",
    "testcode",
    "testoutput",
    "testsetup",
    "testcleanup",
    "ipython",
    "jupyter-execute",
    "prompt",
    "uml",
    "mermaid",
    "kernel-doc",
    "kernel-feat",
    "kernel-abi",
    "kernel-include",
];

/// The IRIs of a reStructuredText document.
pub fn extract(text: &str) -> Extraction {
    let mut s = Scan {
        text,
        masked: Masked::new(text),
        occurrences: Vec::new(),
        comments: Vec::new(),
    };
    s.blocks();
    s.inline();
    s.hide_escaped_whitespace();
    let masked = s.masked.text();
    let mut occurrences = s.occurrences;
    for bare in masked::bare_iris(text, &masked, "rst:text", |_| Vec::new()) {
        occurrences.push(unescaped(text, bare));
    }
    occurrences.sort_by_key(|o| o.map.source_range().start);
    Extraction {
        occurrences,
        comments: s.comments,
        ..Extraction::default()
    }
}

struct Scan<'a> {
    text: &'a str,
    /// What is left for the bare-IRI detector.
    masked: Masked,
    occurrences: Vec<Occurrence>,
    comments: Vec<Comment>,
}

/// The index after the last non-blank line from `from` on that is indented more than `parent`
/// (blank lines may come between); `from` when there is none.
fn block_end(text: &str, lines: &[Range<usize>], from: usize, parent: usize) -> usize {
    let mut end = from;
    for (j, r) in lines.iter().enumerate().skip(from) {
        let line = &text[r.clone()];
        if is_blank(line) {
            continue;
        }
        if indent(line) <= parent {
            break;
        }
        end = j + 1;
    }
    end
}

/// The first blank line from `from` on, or `end`.
/// Whether a line that no rule above took is a paragraph's text (in a list item or not), which
/// a `..` line right below continues (as it does a doctest block). Section adornments, tables,
/// line blocks, field lists and option lists are not: docutils ends them at a `..` line, a
/// comment.
fn is_paragraph_text(body: &str) -> bool {
    let body = body.trim_end();
    let b = body.as_bytes();
    let adornment =
        b.len() >= 2 && b[0].is_ascii_punctuation() && b.iter().all(|&c| c == b[0] || c == b' ');
    let option = b.first() == Some(&b'-') && b.get(1).is_some_and(|&c| c != b' ');
    !(adornment
        || option
        || body.starts_with(['|', ':'])
        || body.starts_with("+-")
        || body.starts_with("+="))
}

/// The width of the list item marker that starts `body` with the space after it (`- `, `* `,
/// `+ `, `1. `, `#. `, `(a) `, `ii) `), or 0: the item's text starts that much further right.
fn list_marker_len(body: &str) -> usize {
    let b = body.as_bytes();
    let spaced = |k: usize| (b.get(k) == Some(&b' ')).then_some(k + 1);
    if matches!(b.first(), Some(b'-' | b'*' | b'+')) {
        return spaced(1).unwrap_or(0);
    }
    let open = usize::from(b.first() == Some(&b'('));
    let enumerator = b[open..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'#')
        .count();
    if enumerator == 0 {
        return 0;
    }
    match b.get(open + enumerator) {
        Some(b'.') if open == 0 => spaced(open + enumerator + 1).unwrap_or(0),
        Some(b')') => spaced(open + enumerator + 1).unwrap_or(0),
        _ => 0,
    }
}

fn paragraph_end(text: &str, lines: &[Range<usize>], from: usize, end: usize) -> usize {
    (from..end)
        .find(|&j| is_blank(&text[lines[j].clone()]))
        .unwrap_or(end)
}

impl Scan<'_> {
    fn hide_lines(&mut self, lines: &[Range<usize>], from: usize, to: usize) {
        if from < to {
            self.masked
                .hide(self.text, lines[from].start..lines[to - 1].end);
        }
    }

    /// Explicit markup, literal blocks and anonymous targets, line by line.
    fn blocks(&mut self) {
        let text = self.text;
        let lines = masked::lines(text);
        let mut i = 0;
        // The indentation of a paragraph that ended with `::`: a literal block may follow.
        let mut literal_after: Option<usize> = None;
        // The line before was running text, with the columns where its text and (for a list
        // item) its marker start: a line there goes on with the paragraph.
        let mut in_paragraph: Option<(usize, usize)> = None;
        while i < lines.len() {
            let line = &text[lines[i].clone()];
            if is_blank(line) {
                in_paragraph = None;
                i += 1;
                continue;
            }
            let ind = indent(line);
            let continues = in_paragraph
                .take()
                .is_some_and(|(a, b)| ind == a || ind == b);
            if let Some(parent) = literal_after.take()
                && ind > parent
            {
                let end = block_end(text, &lines, i, parent);
                self.hide_lines(&lines, i, end);
                i = end;
                continue;
            }
            let body = line.trim_start();
            let at = lines[i].end - body.len();
            // Explicit markup starts a block; inside a paragraph `..` is the paragraph's text,
            // as docutils reads it.
            if !continues && (body == ".." || body.starts_with(".. ") || body.starts_with("..\t")) {
                let end = block_end(text, &lines, i + 1, ind);
                i = self.explicit(&lines, i, end, at);
                continue;
            }
            if let Some(rest) = body.strip_prefix("__ ").filter(|_| !continues) {
                let end = block_end(text, &lines, i + 1, ind);
                let end = paragraph_end(text, &lines, i + 1, end);
                let mut pieces: Vec<Range<usize>> =
                    std::iter::once(lines[i].end - rest.len()..lines[i].end).collect();
                pieces.extend(lines[i + 1..end].iter().cloned());
                self.push_target(&pieces, "rst:target");
                self.hide_lines(&lines, i, end);
                i = end;
                continue;
            }
            let paragraph_ends = lines.get(i + 1).is_none_or(|r| is_blank(&text[r.clone()]));
            if body.trim_end().ends_with("::") && paragraph_ends {
                literal_after = Some(ind);
            }
            if is_paragraph_text(body) {
                in_paragraph = Some((ind, ind + list_marker_len(body)));
            }
            i += 1;
        }
    }

    /// The explicit markup block starting at line `i` (`..` at byte `at`), whose indented body
    /// ends before line `end`: returns the line to go on from.
    fn explicit(&mut self, lines: &[Range<usize>], i: usize, end: usize, at: usize) -> usize {
        let text = self.text;
        let first_end = lines[i].end;
        let after_dots = &text[at + 2..first_end];
        let content = after_dots.trim_start();
        let content_at = first_end - content.len();
        if let Some(name_end) = target_name_end(content) {
            // A target's IRI goes on over the indented lines right after it, up to a blank
            // line: what follows a blank line is a block quote (`.. _label:` over a list).
            let end = paragraph_end(text, lines, i + 1, end);
            let iri_at = content_at + name_end + 1;
            let mut pieces: Vec<Range<usize>> = std::iter::once(iri_at..first_end).collect();
            pieces.extend(lines[i + 1..end].iter().cloned());
            self.push_target(&pieces, "rst:target");
            self.hide_lines(lines, i, end);
            return end;
        }
        if content.starts_with('[') {
            // A footnote or citation: its text is running text.
            return i + 1;
        }
        let (directive, args_at) = match substitution_end(content) {
            Some(k) => {
                let rest = &content[k..];
                let trimmed = rest.trim_start();
                (
                    directive_name(trimmed),
                    content_at + k + rest.len() - trimmed.len(),
                )
            }
            None => (directive_name(content), content_at),
        };
        let Some((name, name_len)) = directive else {
            // A comment: not rendered, not read — unless it is a directive of irilint's.
            if content.starts_with(DIRECTIVE_PREFIX) {
                let body = content_at..first_end - (content.len() - content.trim_end().len());
                self.comments.push(Comment {
                    range: at..body.end,
                    body,
                });
            }
            self.hide_lines(lines, i, end);
            return end;
        };
        let args = args_at + name_len + 2..first_end;
        let name = name.to_ascii_lowercase();
        if name == "image" || name == "figure" {
            self.image(lines, i, end, args);
            return i + 1;
        }
        if name == "raw" && text[args.clone()].trim().eq_ignore_ascii_case("html") && end > i + 1 {
            let (found, comments) =
                html::extract_fragment(text, lines[i + 1].start..lines[end - 1].end);
            self.occurrences.extend(found);
            self.comments.extend(comments);
        }
        if CODE_DIRECTIVES.contains(&name.as_str()) {
            self.hide_lines(lines, i, end);
            return end;
        }
        // Other directives (`note`, `toctree`, ...): argument, options and content are text.
        self.masked.hide(text, at..args.start);
        i + 1
    }

    /// An `image` or `figure` directive at line `i` (body up to `end`, argument at `args`).
    fn image(&mut self, lines: &[Range<usize>], i: usize, end: usize, args: Range<usize>) {
        let text = self.text;
        let mut pieces = vec![args];
        let mut j = i + 1;
        // The argument goes on until a blank line or the first option.
        while j < end {
            let l = &text[lines[j].clone()];
            if is_blank(l) || l.trim_start().starts_with(':') {
                break;
            }
            pieces.push(lines[j].clone());
            j += 1;
        }
        if let Some((iri, map, _)) = joined(text, &pieces) {
            self.push(iri, map, "rst:image");
        }
        // The options: a field list right after the argument.
        while j < end {
            let l = &text[lines[j].clone()];
            let body = l.trim_start();
            if is_blank(l) || !body.starts_with(':') {
                break;
            }
            if let Some(value) = body.strip_prefix(":target:") {
                let value_at = lines[j].end - value.len();
                self.push_target(
                    std::slice::from_ref(&(value_at..lines[j].end)),
                    "rst:image-target",
                );
            }
            j += 1;
        }
        self.hide_lines(lines, i, j);
    }

    /// The IRI made of `pieces`, unless it is a reference name (`name_`).
    fn push_target(&mut self, pieces: &[Range<usize>], origin: &'static str) {
        if let Some((iri, map, last_escaped)) = joined(self.text, pieces)
            && (last_escaped || !iri.ends_with('_'))
        {
            self.push(iri, map, origin);
        }
    }

    fn push(&mut self, iri: String, map: SpanMap, origin: &'static str) {
        let mut occ = Occurrence {
            iri: iri.into(),
            map,
            origin: origin.into(),
            placeholders: Vec::new(),
            label: None,
        }
        .with_templates();
        // `{IDF_TARGET_PATH_NAME}`: a substitution that a Sphinx extension fills in (ESP-IDF's
        // esp-docs), shaped as a URI Template expression, as in plain text.
        let substitutions = super::text_placeholders::uri_template(&occ.iri);
        if !substitutions.is_empty() {
            occ.placeholders.extend(substitutions);
            occ.placeholders = super::template::disjoint(std::mem::take(&mut occ.placeholders));
        }
        self.occurrences.push(occ);
    }

    /// Escaped whitespace (`\\ `, a backslash at the end of a line) is nothing in the rendered
    /// text: it ends no IRI there, but it is not part of one either.
    fn hide_escaped_whitespace(&mut self) {
        let b = self.text.as_bytes();
        let mut i = 0;
        while let Some(k) = b.get(i..).and_then(|rest| memchr::memchr(b'\\', rest)) {
            i += k;
            match b.get(i + 1) {
                Some(c) if c.is_ascii_whitespace() => self.masked.hide(self.text, i..i + 1),
                None => self.masked.hide(self.text, i..i + 1),
                _ => {}
            }
            i += 2;
        }
    }

    /// Backquoted inline markup: literals and interpreted text are hidden, the embedded IRIs of
    /// hyperlink references extracted.
    fn inline(&mut self) {
        let text = self.text;
        let m = self.masked.text();
        let b = m.as_bytes();
        let mut hides = Vec::new();
        // Per closer (`` ` `` and ``` `` ```): a search that found none stopped here; an opener
        // before it, in the same paragraph, finds none either (linear on unclosed markup).
        let mut failed: [Option<(usize, usize)>; 2] = [None, None];
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\\' => {
                    i += 2;
                    continue;
                }
                b'`' if can_open(b, i) => {}
                _ => {
                    i += 1;
                    continue;
                }
            }
            let literal = b[i..].starts_with(b"``");
            let delim: &[u8] = if literal { b"``" } else { b"`" };
            let k = usize::from(literal);
            let from = i + delim.len();
            if failed[k].is_some_and(|(start, stop)| start < from && from < stop) {
                i = from;
                continue;
            }
            let close = match masked::find_in_paragraph(b, from, |k| {
                k > from && b[k..].starts_with(delim) && !b[k - 1].is_ascii_whitespace()
            }) {
                Ok(close) => close,
                Err(stop) => {
                    failed[k] = Some((i, stop));
                    i = from;
                    continue;
                }
            };
            let after = close + delim.len();
            if literal {
                hides.push(i..after);
                i = after;
                continue;
            }
            let role_before = role_before(b, i);
            let inline_target = i > 0 && b[i - 1] == b'_';
            let mut end = after;
            let mut reference = false;
            if b[after..].starts_with(b"__") {
                end += 2;
                reference = true;
            } else if b[after..].starts_with(b"_") {
                end += 1;
                reference = true;
            } else if let Some(role_end) = role_after(b, after) {
                end = role_end;
            }
            let start = role_before.unwrap_or(if inline_target { i - 1 } else { i });
            match (reference && role_before.is_none())
                .then(|| self.embedded(from..close))
                .flatten()
            {
                // The text of a link with an embedded IRI is what readers see, and checked as
                // text (as in Markdown); the rest of the markup is not.
                Some(open) if open > from => {
                    hides.push(start..from);
                    hides.push(open..end);
                }
                _ => hides.push(start..end),
            }
            i = end;
        }
        for r in hides {
            self.masked.hide(text, r);
        }
    }

    /// The embedded IRI of a hyperlink reference whose text is `self.text[content]`.
    /// Returns where the `<` of the embedded IRI (or alias) is.
    fn embedded(&mut self, content: Range<usize>) -> Option<usize> {
        let text = self.text;
        let c = &text[content.clone()];
        if !c.ends_with('>') {
            return None;
        }
        // The last `<` that starts a word (or the content) opens the IRI.
        let open = c[..c.len() - 1].rfind('<').filter(|&k| {
            let before = &c[..k];
            (before.is_empty() || before.ends_with(char::is_whitespace)) && !before.ends_with('\\')
        });
        let open = content.start + open?;
        let inner = open + 1..content.end - 1;
        let pushed = self.occurrences.len();
        self.push_target(&cell_pieces(text, inner), "rst:reference");
        // What a reader sees of the link: its text before the `<`.
        let label = content.start..open;
        if !text[label.clone()].trim().is_empty() {
            for o in &mut self.occurrences[pushed..] {
                o.label = Some(label.clone());
            }
        }
        Some(open)
    }
}

/// `range` cut into its lines, without the borders of a grid table's cells (`|` first or last
/// on a line that starts with `|`): a reference written across the rows of a one-column cell
/// is the text inside them.
fn cell_pieces(text: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = range.start;
    for part in text[range.clone()].split_inclusive('\n') {
        let mut piece = start..start + part.len();
        start += part.len();
        let line_start = text[..piece.start].rfind('\n').map_or(0, |k| k + 1);
        let line_end = text[piece.start..]
            .find('\n')
            .map_or(text.len(), |k| piece.start + k);
        let line = text[line_start..line_end].trim();
        if line.starts_with('|') && line.len() > 1 && line.ends_with('|') {
            let s = &text[piece.clone()];
            let lead = s.len() - s.trim_start().len();
            if s.trim_start().starts_with('|') && text[line_start..piece.start].trim().is_empty() {
                piece.start += lead + 1;
            }
            let s = &text[piece.clone()];
            let body = s.trim_end();
            if body.ends_with('|') && text[piece.start + body.len()..line_end].trim().is_empty() {
                piece.end = piece.start + body.len() - 1;
            }
        }
        out.push(piece);
    }
    out
}

/// Where the name of a hyperlink target (`_name:` or `` _`name`: `` or `__:`) ends in
/// `content` (the text after `.. `): the offset of its colon.
fn target_name_end(content: &str) -> Option<usize> {
    let rest = content.strip_prefix('_')?;
    let b = rest.as_bytes();
    let colon_ok =
        |k: usize| b.get(k) == Some(&b':') && b.get(k + 1).is_none_or(|c| c.is_ascii_whitespace());
    if let Some(quoted) = rest.strip_prefix('`') {
        let close = quoted.find("`:")? + 1;
        return colon_ok(close + 1).then_some(close + 2);
    }
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 2,
            b':' if colon_ok(k) => return Some(k + 1),
            _ => k += 1,
        }
    }
    None
}

/// A standalone IRI with its backslash escapes resolved, as docutils renders it
/// (`http://web.archive.org/web/\*/http://example.org`).
fn unescaped(text: &str, bare: Occurrence) -> Occurrence {
    if !bare.iri.contains('\\') {
        return bare;
    }
    match joined(text, &[bare.map.source_range()]) {
        Some((iri, map, _)) => Occurrence {
            placeholders: super::text_placeholders::placeholders(&iri),
            iri: iri.into(),
            map,
            origin: bare.origin,
            label: bare.label,
        },
        None => bare,
    }
}

/// The end of a substitution definition's `|name|` at the start of `content`.
fn substitution_end(content: &str) -> Option<usize> {
    let rest = content.strip_prefix('|')?;
    let close = rest.find('|')?;
    (close > 0).then_some(close + 2)
}

/// The name of the directive `name::` at the start of `s`, and its length.
fn directive_name(s: &str) -> Option<(&str, usize)> {
    let k = s.find("::")?;
    let name = &s[..k];
    let valid = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:+".contains(c));
    let followed = s[k + 2..].chars().next().is_none_or(char::is_whitespace);
    (valid && followed).then_some((name, k))
}

/// The prepared IRI of `pieces` of `text` (whitespace removed, backslash escapes resolved),
/// its map, and whether its last character was escaped; `None` when it is empty.
fn joined(text: &str, pieces: &[Range<usize>]) -> Option<(String, SpanMap, bool)> {
    let mut iri = String::new();
    let mut map = SpanMap::default();
    let mut last_escaped = false;
    for piece in pieces {
        let s = &text[piece.clone()];
        let mut chars = s.char_indices().peekable();
        while let Some((k, c)) = chars.next() {
            let at = piece.start + k;
            if c.is_whitespace() {
                continue;
            }
            if c == '\\' {
                match chars.next() {
                    Some((_, e)) if !e.is_whitespace() => {
                        iri.push(e);
                        map.push_replaced(e.len_utf8(), at..at + 1 + e.len_utf8());
                        last_escaped = true;
                    }
                    _ => {}
                }
                continue;
            }
            iri.push(c);
            map.push_copied(at..at + c.len_utf8());
            last_escaped = false;
        }
    }
    (!iri.is_empty()).then_some((iri, map, last_escaped))
}

/// Whether the backquote at `i` can open inline markup: at the start, after whitespace, an
/// opening punctuation mark, a role's colon or an inline target's `_`, and not before
/// whitespace.
fn can_open(b: &[u8], i: usize) -> bool {
    let before_ok = i == 0
        || b[i - 1].is_ascii_whitespace()
        || b"'\"([{<-/:_".contains(&b[i - 1])
        || b[i - 1] >= 0x80;
    let mut k = i;
    while k < b.len() && b[k] == b'`' {
        k += 1;
    }
    before_ok && b.get(k).is_some_and(|c| !c.is_ascii_whitespace())
}

fn is_role_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-_.+:".contains(&c)
}

/// The start of a role `:name:` ending right before the backquote at `i`.
fn role_before(b: &[u8], i: usize) -> Option<usize> {
    if i < 3 || b[i - 1] != b':' {
        return None;
    }
    let mut k = i - 1;
    while k > 0 && is_role_char(b[k - 1]) {
        k -= 1;
    }
    // `k` is the start of the run; the role starts at its first colon.
    let start = k + b[k..i].iter().position(|&c| c == b':')?;
    (i - start >= 3).then_some(start)
}

/// The end of a role `:name:` starting at `at` (right after a closing backquote).
fn role_after(b: &[u8], at: usize) -> Option<usize> {
    if b.get(at) != Some(&b':') {
        return None;
    }
    let mut k = at + 1;
    while b
        .get(k)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || b"-_.+".contains(&c))
    {
        k += 1;
    }
    (k > at + 1 && b.get(k) == Some(&b':')).then_some(k + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::extract::masked::pairs;

    fn found(text: &str) -> Vec<(String, String)> {
        masked::found(extract(text))
    }

    /// Where a `..` line is explicit markup and where it is a paragraph's text, as docutils 0.19
    /// reads each of these (checked by hand with `publish_string(..., 'pseudoxml')`).
    #[test]
    fn explicit_markup_inside_a_paragraph_is_its_text() {
        let comments = |t: &str| {
            extract(t)
                .comments
                .iter()
                .map(|c| t[c.body.clone()].to_string())
                .collect::<Vec<_>>()
        };
        let directive = "irilint-disable-next-line x";
        for (text, is_comment) in [
            (
                "Intro\nmore text\n.. irilint-disable-next-line x\nSee it.\n",
                false,
            ),
            ("- item\n  .. irilint-disable-next-line x\n", false),
            ("1. one\n   .. irilint-disable-next-line x\n", false),
            ("Para::\n.. irilint-disable-next-line x\n", false),
            ("Intro\n\n.. irilint-disable-next-line x\nSee it.\n", true),
            (
                "Title\n=====\n.. irilint-disable-next-line x\n\nPara\n",
                true,
            ),
            ("Term\n  .. irilint-disable-next-line x\n", true),
            ("| line\n.. irilint-disable-next-line x\n", true),
            (":field: value\n.. irilint-disable-next-line x\n", true),
            ("-a  option\n.. irilint-disable-next-line x\n", true),
            (
                "+---+\n| a |\n+---+\n.. irilint-disable-next-line x\n",
                true,
            ),
            (">>> x\n.. irilint-disable-next-line x\n", false),
        ] {
            let expected: Vec<String> = if is_comment {
                vec![directive.into()]
            } else {
                vec![]
            };
            assert_eq!(comments(text), expected, "{text:?}");
        }
        // A target inside a paragraph is text: its IRI is found there.
        assert_eq!(
            found("Para\n.. _t: http://x.example/\n"),
            pairs(&[("rst:text", "http://x.example/")])
        );
        assert_eq!(
            found(".. _a: http://a.example/\n.. _b: http://b.example/\n"),
            pairs(&[
                ("rst:target", "http://a.example/"),
                ("rst:target", "http://b.example/")
            ])
        );
    }

    #[test]
    fn references_targets_images_and_text() {
        let text = "See `Python <https://www.python.org/>`_ and `anon <https://a.example/x>`__.\n\
                    \n\
                    .. _docs: https://docs.example.org/\n\
                    .. __: https://b.example/\n\
                    \n\
                    __ https://c.example/\n\
                    \n\
                    .. image:: https://img.example/a.png\n   :alt: A\n   :target: https://d.example/\n\
                    \n\
                    .. |logo| image:: /static/logo.svg\n\
                    \n\
                    Bare https://e.example/page here.\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("rst:reference", "https://www.python.org/"),
                ("rst:reference", "https://a.example/x"),
                ("rst:target", "https://docs.example.org/"),
                ("rst:target", "https://b.example/"),
                ("rst:target", "https://c.example/"),
                ("rst:image", "https://img.example/a.png"),
                ("rst:image-target", "https://d.example/"),
                ("rst:image", "/static/logo.svg"),
                ("rst:text", "https://e.example/page"),
            ])
        );
    }

    #[test]
    fn whitespace_is_removed_and_escapes_resolved_with_exact_spans() {
        let text = ".. _long: https://example.org/a/\n   b\\_c\\ d\n";
        let occ = &extract(text).occurrences[0];
        assert_eq!(&*occ.iri, "https://example.org/a/b_cd");
        let underscore = occ.iri.find('_').unwrap();
        let src = occ.map.to_source(underscore..underscore + 1);
        assert_eq!(&text[src], "\\_");
        let b = occ.iri.find("/b").unwrap() + 1;
        assert_eq!(&text[occ.map.to_source(b..b + 1)], "b");
    }

    #[test]
    fn names_roles_and_code_are_not_iris() {
        let text = "A `title`_ and `alias <other_>`_ and :pep:`8` and :rfc:`3987#section-3.1`\n\
                    and :ref:`label <https-target>` and `x`:doc: and ``https://code.example/``.\n\
                    \n\
                    .. _indirect: other_\n\
                    .. _internal:\n\
                    \n\
                    Example::\n\
                    \n    curl https://literal.example/\n\
                    \n\
                    .. code-block:: sh\n\
                    \n   wget https://code-block.example/\n\
                    \n\
                    .. a comment with https://comment.example/\n\
                    \n\
                    After.\n";
        assert_eq!(found(text), Vec::<(String, String)>::new());
    }

    #[test]
    fn a_paragraph_ending_with_two_colons_inside_text_is_not_a_literal_marker() {
        let text = "Read this::\nstill the paragraph https://a.example/\n\n  https://b.example/\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("rst:text", "https://a.example/"),
                ("rst:text", "https://b.example/")
            ])
        );
    }

    #[test]
    fn raw_html_goes_to_the_html_extractor_and_directives_are_comments() {
        let text = ".. raw:: html\n\n   <a href=\"https://raw.example/\">x</a>\n\n\
                    .. irilint-disable-next-line bidi-formatting-character\n";
        let e = extract(text);
        assert_eq!(&*e.occurrences[0].iri, "https://raw.example/");
        assert_eq!(e.occurrences[0].origin, "a@href");
        assert_eq!(
            &text[e.comments[0].body.clone()],
            "irilint-disable-next-line bidi-formatting-character"
        );
    }

    #[test]
    fn table_borders_escapes_and_blank_lines_end_what_they_end() {
        let text = "+------------------+\n\
                    | See `deferring <h |\n\
                    | ttp://a.example/x |\n\
                    | >`__.             |\n\
                    +------------------+\n\
                    \n\
                    (https://www.imagemagick.org).\\ [#ink]_ and\n\
                    http://web.archive.org/web/\\*/http://reality.example\n\
                    \n\
                    .. _label:\n\
                    \n\
                    \x20   * Title: **Book** https://book.example/\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("rst:reference", "http://a.example/x"),
                ("rst:text", "https://www.imagemagick.org"),
                (
                    "rst:text",
                    "http://web.archive.org/web/*/http://reality.example"
                ),
                ("rst:text", "https://book.example/"),
            ])
        );
        let e = extract(text);
        let star = &e.occurrences[2];
        let k = star.iri.find('*').unwrap();
        assert_eq!(&text[star.map.to_source(k..k + 1)], "\\*");
    }

    #[test]
    fn the_text_of_a_link_is_text() {
        let text = "`www.nuget.org/packages/python <https://www.nuget.org/packages/python>`_\n\
                    `see https://p\u{430}ypal.com <https://example.org/>`__ and `name`_\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("rst:text", "www.nuget.org/packages/python"),
                ("rst:reference", "https://www.nuget.org/packages/python"),
                ("rst:text", "https://p\u{430}ypal.com"),
                ("rst:reference", "https://example.org/"),
            ])
        );
    }

    #[test]
    fn unclosed_markup_is_plain_text() {
        assert_eq!(
            found("`unclosed <https://a.example/>\n\n.. _broken https://b.example/"),
            pairs(&[("rst:text", "https://a.example/")])
        );
        // The comment hides the second: `.. _broken` without a colon is a comment.
        let many = "`".repeat(10_000) + " https://c.example/";
        assert_eq!(found(&many), pairs(&[("rst:text", "https://c.example/")]));
    }
}
