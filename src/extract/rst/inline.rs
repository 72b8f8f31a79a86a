//! reStructuredText's inline markup: backquoted literals, interpreted text and roles (hidden),
//! hyperlink references with an embedded IRI (extracted), and escaped whitespace.

use std::ops::Range;

use super::Scan;
use crate::extract::masked;

impl Scan<'_> {
    /// Escaped whitespace (`\\ `, a backslash at the end of a line) is nothing in the rendered
    /// text: it ends no IRI there, but it is not part of one either.
    pub(super) fn hide_escaped_whitespace(&mut self) {
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
    pub(super) fn inline(&mut self) {
        let text = self.text;
        // Read while the hides are gathered, then hidden: taken, not copied.
        let m = std::mem::take(&mut self.masked);
        let b = m.bytes();
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
        self.masked = m;
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
        let pieces = cell_pieces(text, inner, &mut self.line);
        self.push_target(&pieces, "rst:reference");
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
///
/// `line` is the line found last, kept by the caller: the references of one long line find it
/// once, not each with a search of the whole line both ways (80,000 on one line took 12.6 s).
fn cell_pieces(text: &str, range: Range<usize>, line: &mut Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = range.start;
    for part in text[range.clone()].split_inclusive('\n') {
        let mut piece = start..start + part.len();
        start += part.len();
        if !(line.start < line.end && line.start <= piece.start && piece.start <= line.end) {
            let line_start = text[..piece.start].rfind('\n').map_or(0, |k| k + 1);
            let line_end = text[piece.start..]
                .find('\n')
                .map_or(text.len(), |k| piece.start + k);
            *line = line_start..line_end;
            crate::work::add(crate::work::Work::LineSearches, line_end - line_start);
        }
        let (line_start, line_end) = (line.start, line.end);
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

/// Whether the backquote at `i` can open inline markup: at the start, after whitespace, an
/// opening punctuation mark, a role's colon or an inline target's `_`, and not before
/// whitespace.
///
/// The run of backquotes it starts is walked only when what is before it can open: a backquote
/// inside a run cannot, so a run is walked once (walked from each of its backquotes, a paragraph
/// of 80,000 took 0.8 s, one of 1 MB minutes).
fn can_open(b: &[u8], i: usize) -> bool {
    let before_ok = i == 0
        || b[i - 1].is_ascii_whitespace()
        || b"'\"([{<-/:_".contains(&b[i - 1])
        || b[i - 1] >= 0x80;
    if !before_ok {
        return false;
    }
    let run = b[i..].iter().take_while(|&&c| c == b'`').count();
    crate::work::add(crate::work::Work::MarkupRuns, run);
    b.get(i + run).is_some_and(|c| !c.is_ascii_whitespace())
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
