//! JSX attribute expressions in Markdown (MDX pages, React-flavoured docs): `src={"https://…"}`,
//! `href={base + "/a"}`, `style={{ width: 1 }}`.
//!
//! To CommonMark a tag whose unquoted attribute value holds a quote or a space is no HTML tag,
//! so the whole component would be text, its URL attributes lost and the strings in its
//! expressions taken for bare IRIs. The inside of each expression is masked before parsing (as
//! template expressions are, [`super::template`]): the tag is then HTML, the value `{xxx}` an
//! expression the HTML extractor skips, and the code in it no text.

use std::ops::Range;

use crate::extract::template::MAX_MASKS;

/// The longest expression masked, in bytes.
const MAX_EXPRESSION: usize = 4096;

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'.' | b'-')
}

/// The insides of the attribute expressions of `text`: after `name={`, up to the `}` that
/// balances it on the same line (braces in strings not counted), when the attribute name
/// follows whitespace.
pub fn expression_masks(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut out: Vec<Range<usize>> = Vec::new();
    for i in memchr::memmem::find_iter(b, b"={") {
        if out.len() >= MAX_MASKS {
            break;
        }
        if out.last().is_some_and(|m| i < m.end) {
            continue;
        }
        let mut k = i;
        while k > 0 && is_name_byte(b[k - 1]) {
            k -= 1;
        }
        if k == i || k == 0 || !matches!(b[k - 1], b' ' | b'\t' | b'\n' | b'\r') {
            continue;
        }
        if let Some(close) = closing_brace(b, i + 1)
            && close > i + 2
        {
            out.push(i + 2..close);
        }
    }
    out
}

/// The `}` that closes the `{` at `open`, on its line.
fn closing_brace(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let end = b.len().min(open + MAX_EXPRESSION);
    let mut i = open;
    while i < end {
        let c = b[i];
        match (quote, c) {
            (_, b'\n' | b'\r') => return None,
            (Some(_), b'\\') => i += 1,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'' | b'`') => quote = Some(c),
            (None, b'{') => depth += 1,
            (None, b'}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The lines that hold nothing but the opening or closing tag of a component (`<Note>`,
/// `</Pitfall>`, `<TeamMember name="…" photo="…">`; a name starting with an uppercase letter),
/// as React's docs write them around Markdown. To MDX the lines between are Markdown; to
/// CommonMark the opening line starts an HTML block that runs to the next blank line, and a
/// link on the line after it (`<Note>` then `See [the guide](https://…)`) would be raw HTML.
/// Blanked before parsing, these lines become blank lines: the Markdown between is read as
/// such, at its own offsets. In MDX (`html_too`) an HTML element is a component like any other
/// (`<p dir="rtl">`), but for those whose content is raw text or preformatted (`<pre>`,
/// `<script>`, `<style>`, `<textarea>`).
pub fn component_tag_lines(text: &str, html_too: bool) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut next = 0;
    // From one `<` to the next (most lines have none): a `<` followed by an uppercase letter,
    // or `/` and one, with only blanks before it on its line.
    let starts_name = |k: usize| {
        b.get(k).is_some_and(|c| {
            c.is_ascii_uppercase()
                || (html_too && c.is_ascii_lowercase() && !is_raw_element(&b[k..]))
        })
    };
    for i in memchr::memchr_iter(b'<', b) {
        if out.len() >= MAX_MASKS {
            break;
        }
        if i < next || !(starts_name(i + 1) || (b.get(i + 1) == Some(&b'/') && starts_name(i + 2)))
        {
            continue;
        }
        let indent = b[..i]
            .iter()
            .rev()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count();
        let start = i - indent;
        if start > 0 && b[start - 1] != b'\n' {
            continue;
        }
        let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
        next = end;
        let t = text[i..end].trim_end();
        if let Some(inner) = t.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
            let inner = inner.strip_prefix('/').unwrap_or(inner);
            let name_end = inner
                .bytes()
                .position(|c| !(c.is_ascii_alphanumeric() || c == b'_' || c == b'.'))
                .unwrap_or(inner.len());
            // One tag: its name, then attributes (after a blank) or nothing.
            let one_tag = !inner.contains('<')
                && (name_end == inner.len() || inner.as_bytes()[name_end].is_ascii_whitespace());
            if one_tag {
                out.push(start..end - usize::from(text[..end].ends_with('\r')));
            }
        }
    }
    out
}

/// True when `name` (the text after `<` or `</`) starts with the name of an element whose content
/// is not Markdown in MDX either.
fn is_raw_element(name: &[u8]) -> bool {
    let end = name
        .iter()
        .position(|c| !c.is_ascii_alphanumeric())
        .unwrap_or(name.len());
    let name = &name[..end];
    [&b"pre"[..], b"script", b"style", b"textarea"]
        .iter()
        .any(|raw| name.eq_ignore_ascii_case(raw))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn component_tag_lines_are_whole_lines_of_one_capitalized_tag() {
        let t = "<Note>\r\nText <Inline> here.\n  <TeamMember name=\"a\" photo=\"/b.jpg\">\n\
                 </Note>\n<div>\n<Vec<T>>\n<a href=\"x\">\n  </TeamMember>";
        let lines: Vec<&str> = component_tag_lines(t, false)
            .into_iter()
            .map(|r| &t[r])
            .collect();
        assert_eq!(
            lines,
            [
                "<Note>",
                "  <TeamMember name=\"a\" photo=\"/b.jpg\">",
                "</Note>",
                "  </TeamMember>"
            ]
        );
        // In MDX, HTML elements too, but those whose content is no Markdown.
        let t = "<p dir=\"rtl\">\ntext\n</p>\n<pre>\n</pre>\n<Note>\n";
        let lines: Vec<&str> = component_tag_lines(t, true)
            .into_iter()
            .map(|r| &t[r])
            .collect();
        assert_eq!(lines, ["<p dir=\"rtl\">", "</p>", "<Note>"]);
    }

    fn masked(t: &str) -> Vec<&str> {
        expression_masks(t).into_iter().map(|r| &t[r]).collect()
    }

    #[test]
    fn attribute_expressions() {
        assert_eq!(
            masked("<A href={url} src={\"a}b\"} style={{ w: 1 }} />"),
            ["url", "\"a}b\"", "{ w: 1 }"]
        );
        assert_eq!(masked("<A\n  src={`x ${y}`}\n/>"), ["`x ${y}`"]);
        // Not after an attribute name, not closed on the line, empty: not expressions.
        assert!(masked("a={b} x={c\n} y={} ={d}").is_empty());
    }
}
