//! `--diff`: what `--fix` would change, as a unified diff that is safe to print.
//!
//! The lines come from the documents, so hidden characters in them — the very bidi controls a
//! fix removes — are shown as visible `⟨U+202E⟩` escapes, never raw (so a hunk with such a line
//! does not apply as it is). Everything else is as `patch -p1` and `git apply` take it: paths
//! `a/PATH` and `b/PATH` without a leading `./`, and each line with its own line end (CRLF too).

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
    let path = escape_unsafe(path);
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        out.push_str(&format!("{}\n", hunk.header()));
        for change in hunk.iter_changes() {
            let sign = match change.tag() {
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
                ChangeTag::Equal => ' ',
            };
            let line = change.value();
            let (line, end) = match line.strip_suffix("\r\n") {
                Some(l) => (l, "\r\n"),
                None => line.strip_suffix('\n').map_or((line, ""), |l| (l, "\n")),
            };
            out.push(sign);
            out.push_str(&escape_unsafe(line));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_escaped_and_context_kept() {
        let old = "a\nhttp://x/\u{202E}y\r\nb\n";
        let new = "a\nhttp://x/y\r\nb\n";
        let d = unified("f.txt", old, new);
        assert_eq!(
            d,
            "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-http://x/⟨U+202E⟩y\r\n+http://x/y\r\n b\n"
        );
        assert!(unified("./d/f.txt", "x\n", "y\n").starts_with("--- a/d/f.txt\n+++ b/d/f.txt\n"));
        assert!(unified("f", "x", "x").is_empty());
    }
}
