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
    let mut path = path;
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.trim_start_matches('/');
    }
    let (a, b) = (format!("a/{path}"), format!("b/{path}"));
    let mut out = format!("--- {}\n+++ {}\n", quoted(&a), quoted(&b));
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

    #[test]
    fn a_path_that_would_bend_the_header_is_quoted_as_git_does() {
        assert_eq!(quoted("a/d/é.txt"), "a/d/é.txt");
        assert_eq!(quoted("a/x\"y\\z.txt"), "\"a/x\\\"y\\\\z.txt\"");
        assert_eq!(quoted("a/x\ny\u{1b}.txt"), "\"a/x\\ny\\033.txt\"");
    }
}
