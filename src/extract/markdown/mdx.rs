//! MDX: Markdown with JSX, JavaScript expressions and ES modules, as React's docs, Docusaurus
//! and Next.js sites write it. irilint reads a `.mdx` file as MDX, and a `.md` file as MDX when
//! it shows MDX's own syntax outside fenced code ([`detect`]): an MDX comment `{/* … */}`
//! (React's docs end their headings with one) or a line of ES module code (`import … from '…'`,
//! `export const …`). What then differs from CommonMark, as MDX reads it:
//!
//! - `import` and `export` blocks at the top level are JavaScript, not prose ([`esm_blocks`]):
//!   from the line that starts with the word to the next blank line;
//! - `{/* … */}` comments are comments ([`comments`]);
//! - HTML elements are JSX components like any other: a tag alone on its line (`<p dir="rtl">`,
//!   `<div>`) holds Markdown up to its closing tag ([`super::jsx::component_tag_lines`]);
//! - there is no indented code: text indented by four spaces (inside a component, as React's team
//!   page writes it) is a paragraph ([`fill_indented`]).

use std::ops::Range;

use crate::extract::template::MAX_MASKS;

use memchr::memmem;

/// The longest line searched for a comment's end, in bytes.
const MAX_COMMENT: usize = 4096;

/// True when the paragraph at `range` of `text` (a `.md` file read as CommonMark) shows MDX:
/// it starts a line with an ES module line (`import X from '…'`) or an MDX comment. Asked of
/// each paragraph as it is parsed: code blocks and HTML blocks hold none, and nothing else is
/// searched.
#[inline]
pub fn paragraph_shows_mdx(text: &str, range: std::ops::Range<usize>) -> bool {
    // Most paragraphs start with another character: one comparison.
    let b = text.as_bytes();
    matches!(b.get(range.start), Some(b'i' | b'e' | b'{'))
        && (range.start == 0 || b[range.start - 1] == b'\n')
        && first_line_shows_mdx(text, range.start)
}

#[inline(never)]
fn first_line_shows_mdx(text: &str, start: usize) -> bool {
    let rest = &text[start..];
    let line = &rest[..memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len())];
    is_esm_start(line) || (line.starts_with("{/*") && has_comment(line))
}

/// False when no paragraph or heading of `text` can show MDX ([`paragraph_shows_mdx`],
/// [`heading_shows_mdx`]): no line starts an ES module block or an MDX comment, and no `*/}`
/// ends a comment. (So that a document read in chunks is not read once more to ask.)
pub fn may_show_mdx(text: &str) -> bool {
    let b = text.as_bytes();
    memmem::find(b, b"*/}").is_some()
        || [&b"import"[..], b"export", b"{/*"]
            .iter()
            .any(|word| line_starts(b, word).any(|at| first_line_shows_mdx(text, at)))
}

/// False when `text` has no line indented by four columns or more, which an indented code
/// block starts with.
pub fn may_have_indented_code(text: &str) -> bool {
    let b = text.as_bytes();
    b.starts_with(b"    ")
        || b.starts_with(b"\t")
        || memmem::find(b, b"\n    ").is_some()
        || memchr::memchr(b'\t', b).is_some()
}

/// True when the heading at `range` of `text` ends with an MDX comment, as React's docs end
/// theirs (`## Step 1 {/*step-1*/}`).
#[inline]
pub fn heading_shows_mdx(text: &str, range: std::ops::Range<usize>) -> bool {
    let line = text.get(range).unwrap_or("").trim_end();
    line.ends_with("*/}") && has_comment(line)
}

/// The offsets of the lines of `b` that start with `word`.
fn line_starts<'b>(b: &'b [u8], word: &'b [u8]) -> impl Iterator<Item = usize> + 'b {
    memmem::find_iter(b, word).filter(move |&i| i == 0 || b[i - 1] == b'\n')
}

/// True for the first line of an ES module block: `import` or `export` then whitespace, then
/// what JavaScript writes there (`import x from 'y'`, `import 'y'`, `export const`, ...), not a
/// sentence or a shell command (`export PATH=…`).
fn is_esm_start(line: &str) -> bool {
    let line = line.trim_end();
    let Some(rest) = line
        .strip_prefix("import")
        .or_else(|| line.strip_prefix("export"))
    else {
        return false;
    };
    if !rest.starts_with([' ', '\t']) {
        return false;
    }
    let rest = rest.trim_start();
    if line.starts_with("import") {
        return rest.starts_with(['\'', '"'])
            || (rest.contains(" from ") && rest.ends_with(['\'', '"', ';']));
    }
    let word = rest
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    matches!(
        word,
        "const" | "let" | "var" | "function" | "default" | "async" | "class"
    ) || rest.starts_with(['{', '*'])
}

/// True when `line` holds an MDX comment, `{/*` then `*/}`.
fn has_comment(line: &str) -> bool {
    line.find("{/*")
        .is_some_and(|k| line[k + 3..].contains("*/}"))
}

/// The lines of `text` (without their line end) that are not inside a fenced code block, nor its
/// fences, nor in a `<script>`, `<style>`, `<pre>` or `<textarea>` block (VitePress's
/// `<script setup>` imports are Vue's, not MDX's), with their offsets.
fn lines_outside_fences_at(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fence: Option<(u8, usize)> = None;
    let mut raw_block = false;
    let mut at = 0;
    text.split_inclusive('\n').filter_map(move |raw| {
        let start = at;
        at += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let indent = line.len() - line.trim_start_matches(' ').len();
        let marks = |c: u8| line.bytes().skip(indent).take_while(|&b| b == c).count();
        if raw_block {
            raw_block = !closes_raw_block(line);
            return None;
        }
        match fence {
            Some((c, n)) => {
                if indent < 4 && marks(c) >= n && line[indent + marks(c)..].trim().is_empty() {
                    fence = None;
                }
                None
            }
            None if indent < 4 => {
                for c in [b'`', b'~'] {
                    let n = marks(c);
                    let info = &line[indent + n..];
                    if n >= 3 && !(c == b'`' && info.contains('`')) {
                        fence = Some((c, n));
                        return None;
                    }
                }
                if opens_raw_block(&line[indent..]) {
                    raw_block = !closes_raw_block(line);
                    return None;
                }
                Some((start, line))
            }
            None => Some((start, line)),
        }
    })
}

const RAW_ELEMENTS: [&str; 4] = ["script", "style", "pre", "textarea"];

/// True when `line` starts a CommonMark HTML block of the first kind: `<script`, `<style`,
/// `<pre` or `<textarea`, then a blank, `>` or the line's end.
fn opens_raw_block(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('<') else {
        return false;
    };
    RAW_ELEMENTS.iter().any(|name| {
        rest.get(..name.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && rest[name.len()..]
                .bytes()
                .next()
                .is_none_or(|c| c == b'>' || c.is_ascii_whitespace())
    })
}

/// True when `line` holds the end tag of such a block.
fn closes_raw_block(line: &str) -> bool {
    let b = line.as_bytes();
    memchr::memchr_iter(b'<', b).any(|k| {
        b.get(k + 1) == Some(&b'/')
            && RAW_ELEMENTS.iter().any(|name| {
                b.get(k + 2..k + 2 + name.len())
                    .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
                    && b.get(k + 2 + name.len()) == Some(&b'>')
            })
    })
}

/// The top-level `import`/`export` blocks of `text`, outside fenced code: each from its first
/// line to the end of the last line before a blank line (as micromark's MDX reads them).
pub fn esm_blocks(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    if line_starts(b, b"import").next().is_none() && line_starts(b, b"export").next().is_none() {
        return Vec::new();
    }
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut open: Option<Range<usize>> = None;
    for (start, line) in lines_outside_fences_at(text) {
        if out.len() >= MAX_MASKS {
            break;
        }
        let end = start + line.len();
        match &mut open {
            Some(block) if !line.trim().is_empty() && block.end + 2 >= start => block.end = end,
            _ => {
                out.extend(open.take());
                if is_esm_start(line) {
                    open = Some(start..end);
                }
            }
        }
    }
    out.extend(open);
    out
}

/// The MDX comments of `text`, `{/*` to `*/}` on one line.
pub fn comments(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut out: Vec<Range<usize>> = Vec::new();
    for i in memmem::find_iter(b, b"{/*") {
        if out.len() >= MAX_MASKS {
            break;
        }
        if out.last().is_some_and(|c| i < c.end) {
            continue;
        }
        let end = b.len().min(i + MAX_COMMENT);
        let line_end = memchr::memchr2(b'\n', b'\r', &b[i..end]).map_or(end, |k| i + k);
        if let Some(k) = memmem::find(&b[i + 3..line_end], b"*/}") {
            out.push(i..i + 3 + k + 3);
        }
    }
    out
}

/// Makes the indented code blocks that pulldown-cmark found in `bytes` paragraphs, as MDX reads
/// them: `blocks` holds where their lines' text starts (after four columns of indentation). The
/// first blank of each line's indentation becomes a `.`, so that the line is no longer indented
/// code and its text keeps its offsets. A code fence in such a block (`<div>`, then an indented
/// fence) stays code, and so does what follows it in the block; the lines before it are text
/// when a blank line separates them from it (else the fence would continue their paragraph).
/// Returns whether anything changed.
pub fn fill_indented(bytes: &mut [u8], blocks: &[Vec<usize>]) -> bool {
    let is_blank = |c: &u8| *c == b' ' || *c == b'\t';
    let mut changed = false;
    for lines in blocks {
        // Each line: where its blanks start, and whether text follows them.
        let shape: Vec<(usize, usize, bool)> = lines
            .iter()
            .map(|&s| {
                let before = bytes[..s].iter().rev().take_while(|c| is_blank(c)).count();
                let after = bytes[s..].iter().take_while(|c| is_blank(c)).count();
                let rest = &bytes[s + after..];
                let has_text = rest.first().is_some_and(|&c| !matches!(c, b'\n' | b'\r'));
                (s - before, before + after, has_text)
            })
            .collect();
        let fence = lines
            .iter()
            .zip(&shape)
            .position(|(_, &(start, blanks, _))| {
                let rest = &bytes[start + blanks..];
                rest.starts_with(b"```") || rest.starts_with(b"~~~")
            });
        let upto = match fence {
            Some(0) => continue,
            Some(f) if shape[f - 1].2 => continue,
            Some(f) => f,
            None => lines.len(),
        };
        for &(start, blanks, has_text) in &shape[..upto] {
            // A single tab would leave the `.` against the text: that line stays as it is.
            if blanks >= 2 && has_text {
                bytes[start] = b'.';
                changed = true;
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_and_headings_that_show_mdx() {
        let shows = |t: &str| paragraph_shows_mdx(t, 0..t.len());
        assert!(shows("import Tabs from '@theme/Tabs';\nimport X from 'y'"));
        assert!(shows("export const meta = {}"));
        assert!(shows("{/* lint disable heading-style */}"));
        assert!(!shows("export PATH=/usr/bin"));
        assert!(!shows("import this"));
        assert!(!shows("important: {/* x */}"));
        assert!(!paragraph_shows_mdx("- import x from 'y'", 2..19));
        let heading = "## Step 1 {/*step-1*/}\n";
        assert!(heading_shows_mdx(heading, 0..heading.len()));
        assert!(!heading_shows_mdx("## A */}\n", 0..9));
    }

    #[test]
    fn module_blocks_run_to_a_blank_line_outside_fences() {
        let t = "import a from 'b'\nimport {c,\n  d} from 'e'\n\nText.\n```js\nimport x from 'y'\n```\nexport default X\n";
        let blocks: Vec<&str> = esm_blocks(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(
            blocks,
            [
                "import a from 'b'\nimport {c,\n  d} from 'e'",
                "export default X"
            ]
        );
    }

    #[test]
    fn comments_on_one_line() {
        let t = "## A {/*a-b*/}\n{/* x\n*/}\n{/*c*/}";
        let found: Vec<&str> = comments(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(found, ["{/*a-b*/}", "{/*c*/}"]);
    }

    #[test]
    fn indented_code_lines_become_paragraph_lines() {
        let mut b = b"x\n\n    See [a](u).\n\t\tb\n\tc\n\n    ```\n    code\n".to_vec();
        let blocks = vec![vec![7, 20, 24], vec![31, 39]];
        assert!(fill_indented(&mut b, &blocks));
        assert_eq!(
            String::from_utf8(b).unwrap(),
            "x\n\n.   See [a](u).\n.\tb\n\tc\n\n    ```\n    code\n"
        );
        // Text, a blank line, a fence: the text is read, the fence stays code. Without the blank
        // line the fence would continue the text's paragraph: all of it stays code.
        let t = "    Text:\n\n    ```\n    code\n    ```\n    More.\n";
        let mut b = t.as_bytes().to_vec();
        assert!(fill_indented(&mut b, &[vec![4, 10, 15, 23, 32, 40]]));
        assert_eq!(
            String::from_utf8(b).unwrap(),
            ".   Text:\n\n    ```\n    code\n    ```\n    More.\n"
        );
        let mut b = b"    Text:\n    ```\n    code\n".to_vec();
        assert!(!fill_indented(&mut b, &[vec![4, 14, 22]]));
    }
}
