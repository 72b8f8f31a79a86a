//! The string values of YAML front matter, read line by line: block mappings (`key: value`,
//! nested by indentation), block sequences (`- value`, `- key: value`), flow sequences and
//! mappings written on one line (`tags: [a, "b"]`, `{ url: x }`), and the three one-line scalar
//! styles — plain, single-quoted (`''` is a quote) and double-quoted (with YAML's escapes, each
//! mapped to its whole source). Block scalars (`|`, `>`) and quoted or flow values continued on
//! the next lines are skipped; aliases (`*a`) are no values; anchors and tags (`&a`, `!t`) before
//! a value are passed over.

use std::borrow::Cow;
use std::ops::Range;

use super::{Value, push_key};
use crate::extract::{SpanMap, span_map};

/// The string values of the YAML in `text[body]`, each handed to `out` as it is read.
pub(super) fn values<'t>(text: &'t str, body: Range<usize>, out: &mut dyn FnMut(Value<'t>)) {
    let b = text.as_bytes();
    // The keys whose values are nested below: (column of the key, key).
    let mut stack: Vec<(usize, String)> = Vec::new();
    // Inside a block scalar: lines indented more than this column belong to it.
    let mut block_scalar: Option<usize> = None;
    let mut at = body.start;
    while at < body.end {
        let (end, next) = super::line_at(b, at);
        let end = end.min(body.end);
        let line = at..end;
        at = next;
        let indent = b[line.clone()].iter().take_while(|&&c| c == b' ').count();
        let content = line.start + indent..line.end;
        let blank = b[content.clone()].iter().all(u8::is_ascii_whitespace);
        if let Some(col) = block_scalar {
            if blank || indent > col {
                continue;
            }
            block_scalar = None;
        }
        if blank || b[content.start] == b'#' {
            continue;
        }
        // `- ` items: each moves the column of what follows.
        let mut col = indent;
        let mut s = content.start;
        let mut item = false;
        while s < content.end && b[s] == b'-' && (s + 1 == content.end || b[s + 1] == b' ') {
            item = true;
            let spaces = b[s + 1..content.end]
                .iter()
                .take_while(|&&c| c == b' ')
                .count();
            col += 1 + spaces;
            s += 1 + spaces;
        }
        if item {
            // The sequence belongs to the key above it, which may be at the same column.
            while stack.last().is_some_and(|(c, _)| *c > indent) {
                stack.pop();
            }
        }
        if s >= content.end {
            continue;
        }
        let rest = s..content.end;
        match key(text, rest.clone()) {
            Some((name, value_start)) => {
                while stack.last().is_some_and(|(c, _)| *c >= col) {
                    stack.pop();
                }
                let path = join(&stack, &name);
                let value = skip_spaces(b, value_start, rest.end);
                if value >= rest.end || b[value] == b'#' {
                    stack.push((col, name));
                    continue;
                }
                if matches!(b[value], b'|' | b'>') {
                    block_scalar = Some(col);
                    continue;
                }
                if !node(text, value..rest.end, &path, out) {
                    block_scalar = Some(col);
                }
            }
            None => {
                if !item {
                    // A continuation line of a multi-line scalar: not read.
                    continue;
                }
                let path = join(&stack, "");
                if matches!(b[rest.start], b'|' | b'>') {
                    block_scalar = Some(indent);
                    continue;
                }
                if !node(text, rest, &path, out) {
                    block_scalar = Some(indent);
                }
            }
        }
    }
}

/// The dotted path of `name` under the keys of `stack` (`name` empty: the path of the stack),
/// within [`super::MAX_KEY_PATH`].
fn join(stack: &[(usize, String)], name: &str) -> String {
    let mut path = String::new();
    for part in stack.iter().map(|(_, k)| k.as_str()).chain([name]) {
        if !part.is_empty() {
            push_key(&mut path, part, false);
        }
    }
    path
}

fn skip_spaces(b: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

/// The key of a `key: value` at `text[r]` and where its value may start: a quoted key, or a
/// plain one up to the first `: ` (or `:` at the end). The name is cut as a path is
/// ([`super::MAX_KEY_PATH`]): a key is kept while the lines below it are read.
fn key(text: &str, r: Range<usize>) -> Option<(String, usize)> {
    let b = text.as_bytes();
    let (name, after) = match b[r.start] {
        q @ (b'"' | b'\'') => quoted_key(text, r.start, r.end, q)?,
        b'[' | b'{' => return None,
        _ => {
            let mut i = r.start;
            loop {
                let k = memchr::memchr(b':', &b[i..r.end])? + i;
                if k + 1 == r.end || matches!(b[k + 1], b' ' | b'\t') {
                    break (cut_key(text[r.start..k].trim_end()), k);
                }
                i = k + 1;
            }
        }
    };
    let colon = skip_spaces(b, after, r.end);
    (b.get(colon) == Some(&b':') && (colon + 1 == r.end || matches!(b[colon + 1], b' ' | b'\t')))
        .then_some((name, colon + 1))
}

/// The quoted scalar opened by the quote `q` at `open`, decoded, and the position after its
/// closing quote; `None` when it does not close before `end`.
fn quoted(text: &str, open: usize, end: usize, q: u8) -> Option<((Cow<'_, str>, SpanMap), usize)> {
    let close = quoted_close(text, open, end, q)?;
    Some((unquoted(text, open + 1..close, q), close + 1))
}

/// Where the quoted scalar opened by the quote `q` at `open` closes, before `end`.
fn quoted_close(text: &str, open: usize, end: usize, q: u8) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = open + 1;
    while i < end {
        match b[i] {
            b'\\' if q == b'"' => i += 2,
            b'\'' if q == b'\'' && b.get(i + 1) == Some(&b'\'') && i + 1 < end => i += 2,
            c if c == q => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The content `text[inner]` of a scalar quoted by `q`, decoded.
fn unquoted(text: &str, inner: Range<usize>, q: u8) -> (Cow<'_, str>, SpanMap) {
    if q == b'"' {
        double_quoted(text, inner)
    } else {
        single_quoted(text, inner)
    }
}

/// A quoted key as [`quoted`] reads it, only the start of which is decoded for its name
/// ([`cut_key`]).
fn quoted_key(text: &str, open: usize, end: usize, q: u8) -> Option<(String, usize)> {
    let close = quoted_close(text, open, end, q)?;
    let (to, cut) = super::key_source_end(text, open + 1..close);
    let (name, _) = unquoted(text, open + 1..to, q);
    let mut path = String::new();
    push_key(&mut path, &name, cut);
    Some((path, close + 1))
}

/// A key's name as a path keeps it: within [`super::MAX_KEY_PATH`].
fn cut_key(name: &str) -> String {
    let mut path = String::new();
    push_key(&mut path, name, false);
    path
}

/// A value node at `text[r]` (one line): a scalar or a flow collection, whose string values are
/// pushed to `out` under `path`. False when it goes on past the line (a quoted scalar or a flow
/// collection not closed there): the lines indented more than its key are then skipped.
fn node<'t>(text: &'t str, r: Range<usize>, path: &str, out: &mut dyn FnMut(Value<'t>)) -> bool {
    let b = text.as_bytes();
    let mut s = r.start;
    // Anchors and tags before the value.
    while s < r.end && matches!(b[s], b'&' | b'!') {
        while s < r.end && !matches!(b[s], b' ' | b'\t') {
            s += 1;
        }
        s = skip_spaces(b, s, r.end);
    }
    if s >= r.end {
        return true;
    }
    match b[s] {
        b'[' | b'{' => {
            let mut flow = Flow { text, end: r.end };
            return flow.collection(s, path, out).is_some();
        }
        b'*' | b'#' | b'|' | b'>' => {}
        q @ (b'"' | b'\'') => {
            let Some(((text, map), _)) = quoted(text, s, r.end, q) else {
                return false;
            };
            out(Value {
                path: path.to_string(),
                text,
                map,
            });
        }
        _ => {
            // A plain scalar ends at a ` #` comment.
            let mut e = r.end;
            let mut i = s;
            while let Some(k) = memchr::memchr(b'#', &b[i..r.end]) {
                if matches!(b[i + k - 1], b' ' | b'\t') {
                    e = i + k;
                    break;
                }
                i += k + 1;
            }
            let v = s..s + text[s..e].trim_end().len();
            out(Value {
                path: path.to_string(),
                text: Cow::Borrowed(&text[v.clone()]),
                map: SpanMap::identity(v),
            });
        }
    }
    true
}

/// A flow collection on one line.
struct Flow<'t> {
    text: &'t str,
    end: usize,
}

/// How deep flow collections are read; deeper ones are skipped.
const MAX_FLOW_DEPTH: usize = 32;

impl<'t> Flow<'t> {
    /// The collection opened at `open` (`[` or `{`); returns the position after it, or `None`
    /// when it is not closed on the line (then nothing of it is kept). It is read twice, to
    /// know first that it is closed, rather than its values held: a line may hold thousands.
    fn collection(
        &mut self,
        open: usize,
        path: &str,
        out: &mut dyn FnMut(Value<'t>),
    ) -> Option<usize> {
        self.read(open, path, &mut |_| {}, 0)?;
        self.read(open, path, out, 0)
    }

    fn read(
        &self,
        open: usize,
        path: &str,
        out: &mut dyn FnMut(Value<'t>),
        depth: usize,
    ) -> Option<usize> {
        if depth > MAX_FLOW_DEPTH {
            return None;
        }
        let b = self.text.as_bytes();
        let close = if b[open] == b'[' { b']' } else { b'}' };
        let mut i = open + 1;
        loop {
            i = skip_spaces(b, i, self.end);
            if i >= self.end {
                return None;
            }
            if b[i] == close {
                return Some(i + 1);
            }
            if b[i] == b',' {
                i += 1;
                continue;
            }
            // A key, in a mapping (or a single-pair mapping in a sequence).
            let mut item_path = path.to_string();
            if let Some((name, after)) = self.flow_key(i, close) {
                push_key(&mut item_path, &name, false);
                i = skip_spaces(b, after, self.end);
            }
            if i >= self.end {
                return None;
            }
            i = match b[i] {
                b'[' | b'{' => self.read(i, &item_path, out, depth + 1)?,
                q @ (b'"' | b'\'') => {
                    let ((text, map), after) = quoted(self.text, i, self.end, q)?;
                    out(Value {
                        path: item_path,
                        text,
                        map,
                    });
                    after
                }
                _ => {
                    // A plain scalar in flow context ends at `,` or the closer (`: ` was
                    // taken as a key above).
                    let s = i;
                    while i < self.end && b[i] != b',' && b[i] != close {
                        i += 1;
                    }
                    let v = s..s + self.text[s..i].trim_end().len();
                    if !matches!(b[s], b'*' | b'&' | b'!') {
                        out(Value {
                            path: item_path,
                            text: Cow::Borrowed(&self.text[v.clone()]),
                            map: SpanMap::identity(v),
                        });
                    }
                    i
                }
            };
        }
    }

    /// A `key:` at `i` inside a flow collection: its name and the position after the `:`.
    fn flow_key(&self, i: usize, close: u8) -> Option<(String, usize)> {
        let b = self.text.as_bytes();
        let (name, after) = match b[i] {
            q @ (b'"' | b'\'') => quoted_key(self.text, i, self.end, q)?,
            b'[' | b'{' => return None,
            _ => {
                let mut k = i;
                while k < self.end && b[k] != b',' && b[k] != close {
                    if b[k] == b':' && (k + 1 == self.end || matches!(b[k + 1], b' ' | b'\t')) {
                        return Some((cut_key(self.text[i..k].trim_end()), k + 1));
                    }
                    k += 1;
                }
                return None;
            }
        };
        let colon = skip_spaces(b, after, self.end);
        (b.get(colon) == Some(&b':')).then_some((name, colon + 1))
    }
}

/// A single-quoted scalar's content: `''` is one quote.
fn single_quoted(text: &str, inner: Range<usize>) -> (Cow<'_, str>, SpanMap) {
    let b = text.as_bytes();
    if memchr::memchr(b'\'', &b[inner.clone()]).is_none() {
        return (
            Cow::Borrowed(&text[inner.clone()]),
            SpanMap::identity(inner),
        );
    }
    let (decoded, map) = span_map::decode_escapes(
        text,
        inner,
        |rest| memchr::memchr(b'\'', rest),
        |i| (b.get(i + 1) == Some(&b'\'')).then(|| ("'".to_string(), 2)),
    );
    (Cow::Owned(decoded), map)
}

/// A double-quoted scalar's content, with YAML 1.2's escapes (§5.7).
fn double_quoted(text: &str, inner: Range<usize>) -> (Cow<'_, str>, SpanMap) {
    let b = text.as_bytes();
    let end = inner.end;
    if memchr::memchr(b'\\', &b[inner.clone()]).is_none() {
        return (
            Cow::Borrowed(&text[inner.clone()]),
            SpanMap::identity(inner),
        );
    }
    let (decoded, map) = span_map::decode_escapes(
        text,
        inner,
        |rest| memchr::memchr(b'\\', rest),
        |i| {
            let c = *b.get(i + 1).filter(|_| i + 1 < end)?;
            let simple = match c {
                b'0' => '\0',
                b'a' => '\u{7}',
                b'b' => '\u{8}',
                b't' | b'\t' => '\t',
                b'n' => '\n',
                b'v' => '\u{B}',
                b'f' => '\u{C}',
                b'r' => '\r',
                b'e' => '\u{1B}',
                b' ' => ' ',
                b'"' => '"',
                b'/' => '/',
                b'\\' => '\\',
                b'N' => '\u{85}',
                b'_' => '\u{A0}',
                b'L' => '\u{2028}',
                b'P' => '\u{2029}',
                b'x' | b'u' | b'U' => return super::hex_escape(text, i, end),
                _ => return None,
            };
            Some((simple.to_string(), 2))
        },
    );
    (Cow::Owned(decoded), map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(y: &str) -> Vec<(String, String, String)> {
        let mut found = Vec::new();
        values(y, 0..y.len(), &mut |v| found.push(v));
        found
            .into_iter()
            .map(|v| {
                let src = y[v.map.source_range()].to_string();
                (v.path, v.text.into_owned(), src)
            })
            .collect()
    }

    fn t(p: &str, v: &str, s: &str) -> (String, String, String) {
        (p.into(), v.into(), s.into())
    }

    #[test]
    fn mappings_sequences_and_scalars() {
        let y = "title: A: b # c\nlinks:\n  home: 'it''s'\n  list:\n  - x\n  - \"a\\u200Bb\"\n  -   - y\nz: [1, 'q', {u: v}]\nseq:\n- k: w\n  k2: w2\n\"q k\": a #b\n";
        assert_eq!(
            read(y),
            [
                t("title", "A: b", "A: b"),
                t("links.home", "it's", "it''s"),
                t("links.list", "x", "x"),
                t("links.list", "a\u{200B}b", "a\\u200Bb"),
                t("links.list", "y", "y"),
                t("z", "1", "1"),
                t("z", "q", "q"),
                t("z.u", "v", "v"),
                t("seq.k", "w", "w"),
                t("seq.k2", "w2", "w2"),
                t("q k", "a", "a"),
            ]
        );
    }

    #[test]
    fn block_scalars_and_unclosed_values_are_skipped() {
        let y = "a: |\n  https://x.example/\n  more\nb: \"open\n  c: d\ne: [1,\n  2]\nf: *alias\ng: &x !!str v\n";
        assert_eq!(read(y), [t("g", "v", "v")]);
    }

    #[test]
    fn double_quoted_escapes_map_to_their_source() {
        let y = r#"u: "a\x41\"\\\/\U0001F600\q""#;
        let mut found = Vec::new();
        values(y, 0..y.len(), &mut |v| found.push(v));
        let v = &found[0];
        assert_eq!(v.text, "aA\"\\/\u{1F600}\\q");
        assert_eq!(&y[v.map.to_source(1..2)], r"\x41");
    }
}
