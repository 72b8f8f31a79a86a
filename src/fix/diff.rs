//! `--diff`: what `--fix` would change, as a unified diff that `git apply` and `patch -p1`
//! take as it is: paths `a/PATH` and `b/PATH` without a leading `./`, each line with its own
//! line end (CRLF too), and the lines' bytes as they are in the file — hidden characters
//! included, since a hunk that removes a bidi control must name it to apply. A diff is for
//! programs: [`for_terminal`] makes the copy shown on a terminal, where hidden characters are
//! visible `⟨U+202E⟩` escapes instead (and that copy does not apply).

use std::borrow::Cow;

use similar::{ChangeTag, TextDiff};

use crate::iri::chars::escape_unsafe;

/// A unified diff (3 lines of context) of `old` and `new` text of the file `path`; empty when
/// they are equal.
pub fn unified(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let diff = TextDiff::from_lines(old, new);
    let mut out = header(path);
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        out.push_str(&format!("{}\n", hunk.header()));
        for change in hunk.iter_changes() {
            let sign = match change.tag() {
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
                ChangeTag::Equal => ' ',
            };
            let line = change.value();
            let (line, end) = split_end(line);
            out.push(sign);
            out.push_str(line);
            // The file's own line end, which the patch must match; none on a last line
            // without one (then marked below).
            out.push_str(if end.is_empty() { "\n" } else { end });
            if change.missing_newline() {
                out.push_str("\\ No newline at end of file\n");
            }
        }
    }
    out
}

/// The lines of `text` as [`unified`] cuts them (`similar`'s lines: each with its end, `\r\n`,
/// `\n` or a lone `\r`).
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        let start = at;
        let end = match memchr::memchr2(b'\r', b'\n', &bytes[at..]) {
            Some(k) if bytes[at + k] == b'\r' && bytes.get(at + k + 1) == Some(&b'\n') => {
                at + k + 2
            }
            Some(k) => at + k + 1,
            None => bytes.len(),
        };
        at = end;
        Some(&text[start..end])
    })
}

/// The digest of each line of `text` ([`lines`]), keyed by `key`: what [`unified_by_lines`]
/// compares instead of the lines.
pub fn line_digests(text: &str, key: &std::hash::RandomState) -> Vec<u64> {
    use std::hash::BuildHasher;
    lines(text).map(|l| key.hash_one(l)).collect()
}

/// [`line_digests`] of what `read` gives, read line by line (never held whole); `None` when it
/// is not UTF-8.
pub fn line_digests_utf8(
    read: &mut dyn std::io::BufRead,
    key: &std::hash::RandomState,
) -> std::io::Result<Option<Vec<u64>>> {
    use std::hash::BuildHasher;
    let mut lines = LineReader::new(read);
    let mut digests = Vec::new();
    loop {
        match lines.next_line() {
            Ok(Some(line)) => digests.push(key.hash_one(line)),
            Ok(None) => return Ok(Some(digests)),
            // (`read_line`'s error for bytes that are not UTF-8; a stream's own errors are
            // other kinds.)
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => return Ok(None),
            Err(e) => return Err(e),
        }
    }
}

/// [`unified`] of two texts that are not held: the digests of their lines (with the same key)
/// are compared, their lines read from `old` and `new` as the hunks need them. The same diff as
/// [`unified`] (whose comparison of lines is equality too), with neither text held whole.
pub fn unified_by_lines(
    path: &str,
    old: &mut dyn std::io::BufRead,
    old_digests: &[u64],
    new_digests: &[u64],
    new: &mut dyn std::io::BufRead,
) -> std::io::Result<String> {
    if old_digests == new_digests {
        return Ok(String::new());
    }
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, old_digests, new_digests);
    let mut out = header(path);
    let mut old_lines = LineReader::new(old);
    let mut old_at = 0;
    let mut new_lines = LineReader::new(new);
    let mut new_at = 0;
    for hunk in similar::group_diff_ops(ops, 3) {
        if hunk.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "{}\n",
            similar::udiff::UnifiedHunkHeader::new(&hunk)
        ));
        for op in &hunk {
            let (tag, old_range, new_range) = op.as_tag_tuple();
            let from_old = matches!(
                tag,
                similar::DiffTag::Equal | similar::DiffTag::Delete | similar::DiffTag::Replace
            );
            if from_old {
                let sign = if tag == similar::DiffTag::Equal {
                    ' '
                } else {
                    '-'
                };
                for _ in old_at..old_range.start {
                    old_lines.next()?;
                }
                for _ in old_range.clone() {
                    push_line(&mut out, sign, old_lines.next()?);
                }
                old_at = old_range.end;
            }
            // The new text's lines are read past, or shown when inserted.
            for _ in new_at..new_range.start {
                new_lines.next()?;
            }
            for _ in new_range.clone() {
                let line = new_lines.next()?;
                if tag == similar::DiffTag::Insert || tag == similar::DiffTag::Replace {
                    push_line(&mut out, '+', line);
                }
            }
            new_at = new_range.end;
        }
    }
    Ok(out)
}

/// The lines of a UTF-8 text read from a file, cut as [`lines`] cuts them.
struct LineReader<'a> {
    input: &'a mut dyn std::io::BufRead,
    /// What was read up to a `\n` (or the end) and not yet handed out, from `at`.
    chunk: String,
    at: usize,
}

impl<'a> LineReader<'a> {
    fn new(input: &'a mut dyn std::io::BufRead) -> LineReader<'a> {
        LineReader {
            input,
            chunk: String::new(),
            at: 0,
        }
    }

    /// The next line; an error past the end (the digests said there was one).
    fn next(&mut self) -> std::io::Result<&str> {
        self.next_line()?.ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the document ended early",
            )
        })
    }

    /// The next line, `None` at the end.
    fn next_line(&mut self) -> std::io::Result<Option<&str>> {
        if self.at >= self.chunk.len() {
            // A `\r` before a `\n` is always in the same chunk: one is read up to its `\n`.
            self.chunk.clear();
            self.at = 0;
            if self.input.read_line(&mut self.chunk)? == 0 {
                return Ok(None);
            }
        }
        let start = self.at;
        self.at += lines(&self.chunk[start..]).next().map_or(0, str::len);
        Ok(Some(&self.chunk[start..self.at]))
    }
}

/// A line of a hunk: its sign, its text and the file's own line end, which the patch must
/// match (none on a last line without one, then marked).
fn push_line(out: &mut String, sign: char, line: &str) {
    let (text, end) = split_end(line);
    out.push(sign);
    out.push_str(text);
    out.push_str(if end.is_empty() { "\n" } else { end });
    if !line.ends_with(['\r', '\n']) {
        out.push_str("\\ No newline at end of file\n");
    }
}

/// The two lines that name the file in a patch.
fn header(path: &str) -> String {
    let mut path = path;
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.trim_start_matches('/');
    }
    let (a, b) = (format!("a/{path}"), format!("b/{path}"));
    format!("--- {}\n+++ {}\n", quoted(&a), quoted(&b))
}

/// `line` and its end (`\r\n`, `\n` or none).
fn split_end(line: &str) -> (&str, &str) {
    match line.strip_suffix("\r\n") {
        Some(l) => (l, "\r\n"),
        None => line.strip_suffix('\n').map_or((line, ""), |l| (l, "\n")),
    }
}

/// A path as git writes it in a patch header: as it is, or in double quotes with C escapes when
/// it holds a quote, a backslash or a control character (which would end or bend the line).
fn quoted(path: &str) -> Cow<'_, str> {
    if !path
        .chars()
        .any(|c| c == '"' || c == '\\' || c.is_control())
    {
        return Cow::Borrowed(path);
    }
    let mut out = String::from("\"");
    for c in path.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\{b:03o}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    Cow::Owned(out)
}

/// The diff to show on a terminal: each line's hidden characters, controls and escapes as
/// visible `⟨U+…⟩` escapes ([`escape_unsafe`]), its line end kept; borrowed when nothing
/// needed escaping.
pub fn for_terminal(diff: &str) -> Cow<'_, str> {
    let mut out = String::new();
    let mut changed = false;
    for line in diff.split_inclusive('\n') {
        let (text, end) = split_end(line);
        let shown = escape_unsafe(text);
        changed |= shown != text;
        out.push_str(&shown);
        out.push_str(end);
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(diff)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_are_the_files_bytes_and_context_is_kept() {
        let old = "a\nhttp://x/\u{202E}y\r\nb\n";
        let new = "a\nhttp://x/y\r\nb\n";
        let d = unified("f.txt", old, new);
        assert_eq!(
            d,
            "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-http://x/\u{202E}y\r\n+http://x/y\r\n b\n"
        );
        assert!(unified("./d/f.txt", "x\n", "y\n").starts_with("--- a/d/f.txt\n+++ b/d/f.txt\n"));
        assert!(unified("f", "x", "x").is_empty());
        // On a terminal: escaped, line ends kept.
        assert_eq!(
            for_terminal(&d),
            "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-http://x/⟨U+202E⟩y\r\n+http://x/y\r\n b\n"
        );
        let plain = unified("f", "x\n", "y\n");
        assert!(matches!(for_terminal(&plain), Cow::Borrowed(_)));
    }

    /// [`unified_by_lines`], its new text read as from a file.
    fn by_lines(path: &str, old: &str, new: &str) -> String {
        let key = std::hash::RandomState::new();
        let (a, b) = (line_digests(old, &key), line_digests(new, &key));
        assert_eq!(lines(old).collect::<String>(), old);
        unified_by_lines(
            path,
            &mut old.as_bytes(),
            &a,
            &b,
            &mut std::io::BufReader::new(new.as_bytes()),
        )
        .unwrap()
    }

    #[test]
    fn the_diff_by_lines_is_the_diff_of_the_texts() {
        let many: String = (0..300).map(|i| format!("line {}\n", i % 7)).collect();
        let mut moved = many.replace("line 3\n", "line 3 fixed\n");
        moved.insert_str(40, "new\r\n");
        let cases = [
            ("a\nhttp://x/\u{202E}y\r\nb\n", "a\nhttp://x/y\r\nb\n"),
            ("x", "y"),
            ("x\n", "x"),
            ("lone\rcr\rhere\n", "lone\rCR\rhere"),
            ("", "a\n"),
            ("a\n", ""),
            ("same\n", "same\n"),
            ("a\r\nb\r\n\r\n", "a\r\nB\r\n\r"),
            (many.as_str(), moved.as_str()),
        ];
        for (old, new) in cases {
            assert_eq!(
                by_lines("./d/f.txt", old, new),
                unified("./d/f.txt", old, new),
                "{old:?} -> {new:?}"
            );
        }
        assert!(lines("").next().is_none());
        assert_eq!(
            lines("a\r\rb\r\n\nc").collect::<Vec<_>>(),
            ["a\r", "\r", "b\r\n", "\n", "c"]
        );
    }

    #[test]
    fn digests_read_are_the_texts_and_none_for_bytes_that_are_not_utf8() {
        let key = std::hash::RandomState::new();
        // A buffer of 4 bytes cuts the 4-byte character and the CR LF between reads.
        let read = |bytes: &[u8]| {
            line_digests_utf8(&mut std::io::BufReader::with_capacity(4, bytes), &key).unwrap()
        };
        for text in [
            "",
            "a",
            "a\r\nb\r\rc\n",
            "caf\u{e9} \u{1F600}\n\u{1F600}x\r\n\n",
        ] {
            assert_eq!(
                read(text.as_bytes()),
                Some(line_digests(text, &key)),
                "{text:?}"
            );
        }
        for bytes in [
            &b"caf\xe9\n"[..],
            b"ok\nok\n\xff",
            b"\xf0\x9f\x98\n",
            b"a\n\xed\xa0\x80\n",
        ] {
            assert_eq!(read(bytes), None, "{bytes:?}");
        }
    }

    #[test]
    fn a_path_that_would_bend_the_header_is_quoted_as_git_does() {
        assert_eq!(quoted("a/d/é.txt"), "a/d/é.txt");
        assert_eq!(quoted("a/x\"y\\z.txt"), "\"a/x\\\"y\\\\z.txt\"");
        assert_eq!(quoted("a/x\ny\u{1b}.txt"), "\"a/x\\ny\\033.txt\"");
    }
}
