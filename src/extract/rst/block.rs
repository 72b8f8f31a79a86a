//! reStructuredText's blocks: explicit markup (hyperlink targets, directives, substitution
//! definitions, comments), literal blocks and anonymous targets, line by line.

use std::ops::Range;

use super::{Scan, joined};
use crate::extract::masked::{self, indent, is_blank};
use crate::extract::{Comment, DIRECTIVE_PREFIX, html};

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
    pub(super) fn blocks(&mut self) {
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
