//! The string values of TOML front matter: `key = value` pairs (dotted and quoted keys), under
//! `[table]` and `[[array.of.tables]]` headers, with arrays (also over several lines) and
//! inline tables. Basic strings are decoded with TOML's escapes, each mapped to its whole
//! source; literal strings are as written. Multi-line strings (`"""`, `'''`) are passed over,
//! not read. A line that is none of these is skipped.

use std::borrow::Cow;
use std::ops::Range;

use super::{Value, push_key};
use crate::extract::{SpanMap, span_map};

/// How deep arrays and inline tables are read; deeper ones end the reading of their line.
const MAX_DEPTH: usize = 32;

/// The string values of the TOML in `text[body]`, each handed to `out` as it is read.
pub(super) fn values<'t>(text: &'t str, body: Range<usize>, out: &mut dyn FnMut(Value<'t>)) {
    let mut r = Reader {
        text,
        b: text.as_bytes(),
        end: body.end,
        out,
    };
    let mut table = String::new();
    let mut i = body.start;
    while i < r.end {
        i = r.blank(i);
        if i >= r.end {
            break;
        }
        if r.b[i] == b'[' {
            let double = r.b.get(i + 1) == Some(&b'[');
            let from = i + if double { 2 } else { 1 };
            if let Some((path, after)) = r.key(from, String::new())
                && r.b.get(after) == Some(&b']')
            {
                table = path;
            }
            i = r.next_line(i);
            continue;
        }
        let parsed = r.key(i, table.clone()).and_then(|(path, after)| {
            let at = r.spaces(after);
            (r.b.get(at) == Some(&b'=')).then(|| (path, r.spaces(at + 1)))
        });
        i = match parsed {
            Some((path, at)) => {
                let after = r.value(at, &path, 0).unwrap_or(at);
                r.next_line(after)
            }
            None => r.next_line(i),
        };
    }
}

struct Reader<'t, 'o> {
    text: &'t str,
    b: &'t [u8],
    end: usize,
    out: &'o mut dyn FnMut(Value<'t>),
}

impl<'t> Reader<'t, '_> {
    fn spaces(&self, mut i: usize) -> usize {
        while i < self.end && matches!(self.b[i], b' ' | b'\t') {
            i += 1;
        }
        i
    }

    /// Past whitespace, line ends and comments.
    fn blank(&self, mut i: usize) -> usize {
        loop {
            i = self.spaces(i);
            match self.b.get(i) {
                Some(b'\r' | b'\n') if i < self.end => i += 1,
                Some(b'#') if i < self.end => i = self.line_end(i),
                _ => return i,
            }
        }
    }

    fn line_end(&self, i: usize) -> usize {
        memchr::memchr(b'\n', &self.b[i..self.end]).map_or(self.end, |k| i + k)
    }

    /// The start of the line after the one `i` is on.
    fn next_line(&self, i: usize) -> usize {
        (self.line_end(i.min(self.end)) + 1).min(self.end)
    }

    /// A dotted key at `i`, appended to `path` (within [`super::MAX_KEY_PATH`]: the parts past
    /// it are read, not kept); and the position after it.
    fn key(&self, mut i: usize, mut path: String) -> Option<(String, usize)> {
        loop {
            i = self.spaces(i);
            match self.b.get(i).filter(|_| i < self.end)? {
                b'"' => {
                    let close = self.basic_close(i)?;
                    let (end, cut) = super::key_source_end(self.text, i + 1..close);
                    let (part, _) = basic_escapes(self.text, i + 1..end);
                    push_key(&mut path, &part, cut);
                    i = close + 1;
                }
                b'\'' => {
                    let close = self.literal_close(i)?;
                    push_key(&mut path, &self.text[i + 1..close], false);
                    i = close + 1;
                }
                _ => {
                    let s = i;
                    while i < self.end
                        && (self.b[i].is_ascii_alphanumeric() || matches!(self.b[i], b'_' | b'-'))
                    {
                        i += 1;
                    }
                    if i == s {
                        return None;
                    }
                    push_key(&mut path, &self.text[s..i], false);
                }
            }
            i = self.spaces(i);
            if self.b.get(i) != Some(&b'.') || i >= self.end {
                return Some((path, i));
            }
            i += 1;
        }
    }

    /// Where the basic string whose `"` is at `open` (on one line) closes. Looked for up to
    /// the quote, not the line's end first: a line of 4 million `"a".` keys read its rest
    /// from each of them.
    fn basic_close(&self, open: usize) -> Option<usize> {
        let mut i = open + 1;
        while i < self.end {
            match self.b[i] {
                b'\n' => return None,
                b'\\' if self.b.get(i + 1) == Some(&b'\n') => return None,
                b'\\' => i += 2,
                b'"' => return Some(i),
                _ => i += 1,
            }
        }
        None
    }

    /// Where the literal string whose `'` is at `open` (on one line) closes.
    fn literal_close(&self, open: usize) -> Option<usize> {
        let k = memchr::memchr2(b'\'', b'\n', &self.b[open + 1..self.end])? + open + 1;
        (self.b[k] == b'\'').then_some(k)
    }

    /// Reads the value at `i` under `path`, pushing its strings; the position after it, or
    /// `None` when it cannot be read (then the rest of its line is skipped).
    fn value(&mut self, i: usize, path: &str, depth: usize) -> Option<usize> {
        if depth > MAX_DEPTH || i >= self.end {
            return None;
        }
        let b = self.b;
        if b[i..self.end].starts_with(b"\"\"\"") || b[i..self.end].starts_with(b"'''") {
            let delim = &b[i..i + 3];
            let close = memchr::memmem::find(&b[i + 3..self.end], delim)? + i + 3;
            // A closing delimiter may be followed by up to two more quotes of its content.
            let mut after = close + 3;
            while after < self.end && b[after] == delim[0] && after < close + 5 {
                after += 1;
            }
            return Some(after);
        }
        match b[i] {
            b'"' => {
                let close = self.basic_close(i)?;
                let (text, map) = basic_escapes(self.text, i + 1..close);
                self.push(path, text, map);
                Some(close + 1)
            }
            b'\'' => {
                let close = self.literal_close(i)?;
                let r = i + 1..close;
                self.push(
                    path,
                    Cow::Borrowed(&self.text[r.clone()]),
                    SpanMap::identity(r),
                );
                Some(close + 1)
            }
            b'[' => {
                let mut at = i + 1;
                loop {
                    at = self.blank(at);
                    match b.get(at).filter(|_| at < self.end)? {
                        b']' => return Some(at + 1),
                        b',' => at += 1,
                        _ => at = self.value(at, path, depth + 1)?,
                    }
                }
            }
            b'{' => {
                let mut at = i + 1;
                loop {
                    at = self.spaces(at);
                    match b.get(at).filter(|_| at < self.end)? {
                        b'}' => return Some(at + 1),
                        b',' => at += 1,
                        _ => {
                            let (key, after) = self.key(at, path.to_string())?;
                            let eq = self.spaces(after);
                            if b.get(eq) != Some(&b'=') {
                                return None;
                            }
                            at = self.value(self.spaces(eq + 1), &key, depth + 1)?;
                        }
                    }
                }
            }
            _ => {
                // A number, boolean or date: up to a separator.
                let mut at = i;
                while at < self.end && !matches!(b[at], b',' | b']' | b'}' | b'#' | b'\n' | b'\r') {
                    at += 1;
                }
                (at > i).then_some(at)
            }
        }
    }

    fn push(&mut self, path: &str, text: Cow<'t, str>, map: SpanMap) {
        (self.out)(Value {
            path: path.to_string(),
            text,
            map,
        });
    }
}

/// A basic string's content with TOML's escapes (`\b \t \n \f \r \e \" \\ \xHH \uHHHH
/// \UHHHHHHHH`; 1.1's `\e` and `\x` included): the source itself when it has none.
fn basic_escapes(text: &str, inner: Range<usize>) -> (Cow<'_, str>, SpanMap) {
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
                b'b' => '\u{8}',
                b't' => '\t',
                b'n' => '\n',
                b'f' => '\u{C}',
                b'r' => '\r',
                b'e' => '\u{1B}',
                b'"' => '"',
                b'\\' => '\\',
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

    fn read(t: &str) -> Vec<(String, String, String)> {
        let mut found = Vec::new();
        values(t, 0..t.len(), &mut |v| found.push(v));
        found
            .into_iter()
            .map(|v| {
                let src = t[v.map.source_range()].to_string();
                (v.path, v.text.into_owned(), src)
            })
            .collect()
    }

    fn v(p: &str, t: &str, s: &str) -> (String, String, String) {
        (p.into(), t.into(), s.into())
    }

    #[test]
    fn tables_arrays_and_strings() {
        let t = "title = \"A\\u200Bb\" # c\ndate = 2024-01-01\nd = \"\"\"\nu = 'x'\n\"\"\"\naliases = [\n  'a', # one\n  \"b\",\n]\n[params]\nsite.home = 'h'\n\"q k\" = { u = \"v\", n = [1, 'w'] }\n[[menu.main]]\nurl = 'm'\n";
        assert_eq!(
            read(t),
            [
                v("title", "A\u{200B}b", "A\\u200Bb"),
                v("aliases", "a", "a"),
                v("aliases", "b", "b"),
                v("params.site.home", "h", "h"),
                v("params.q k.u", "v", "v"),
                v("params.q k.n", "w", "w"),
                v("menu.main.url", "m", "m"),
            ]
        );
    }

    #[test]
    fn a_long_key_path_is_cut_and_its_values_still_read() {
        let long = "é".repeat(300);
        let t = format!(
            "[{}]\nu = 'x'\n[\"{long}\".b]\nv = 'y'\n",
            "a.".repeat(1000) + "a"
        );
        let found = read(&t);
        assert_eq!(found.len(), 2, "{found:?}");
        let (ref path, ref text, _) = found[0];
        assert!(path.starts_with("a.a.a.") && path.ends_with('…'), "{path}");
        assert!(
            path.len() <= super::super::MAX_KEY_PATH + 3,
            "{}",
            path.len()
        );
        assert_eq!(text, "x");
        let (ref path, ref text, _) = found[1];
        assert!(path.starts_with("éé") && path.ends_with('…'), "{path}");
        assert!(
            path.len() <= super::super::MAX_KEY_PATH + 3,
            "{}",
            path.len()
        );
        assert_eq!(text, "y");
        // A path within the limit is whole.
        assert_eq!(read("[a.b]\nc = 'z'\n")[0].0, "a.b.c");
    }

    #[test]
    fn unreadable_lines_are_skipped() {
        let t = "= 'x'\na = \"open\nb = 'ok'\nc = [1, {\nd = 'y'\n";
        assert_eq!(read(t), [v("b", "ok", "ok"), v("d", "y", "y")]);
    }
}
