//! Front matter: a YAML (`---` … `---` or `...`) or TOML (`+++` … `+++`) block at the very start
//! of a Markdown document (line 1, after a BOM if there is one), as Jekyll, Hugo, Docusaurus and
//! VitePress read it. Anywhere else a `---` line is a thematic break (or a setext underline) and
//! what follows it is Markdown.
//!
//! Its string values that are absolute IRIs — a known scheme ([`text::SCHEMES`]), `:`, and what
//! the plain-text detector accepts from there — are reported with the origin
//! `front-matter:<key>`, the dotted path of the key (`front-matter:links.home`; list items add
//! nothing to the path). Other values (titles, dates, relative paths) are not IRIs to check.
//! The readers are small and forgiving ([`yaml`], [`toml`]): they know the common forms of front
//! matter, and what they do not read is skipped, never misread as a value.

mod toml;
mod yaml;

use std::borrow::Cow;
use std::ops::Range;

use crate::extract::{Occurrence, SpanMap, text};

/// The most bytes of a key's dotted path that its values' origin (`front-matter:<path>`)
/// keeps; a longer one is cut there and ends with `…`. The keys past it are still read, and
/// their values checked: a TOML header of 8 million dotted keys (`[a.a.a…]`, 16 MB) made a
/// path of the whole header, copied for each value and into its origin, six bytes per byte.
pub const MAX_KEY_PATH: usize = 256;

/// What ends a dotted path cut at [`MAX_KEY_PATH`].
const CUT: &str = "…";

/// Appends the key `part` to the dotted `path`, keeping the path within [`MAX_KEY_PATH`] bytes
/// (and its mark): a path that is full takes nothing more. `cut` says that `part` is only the
/// start of its key, so that the path is marked as cut even when it fits.
fn push_key(path: &mut String, part: &str, cut: bool) {
    if path.len() >= MAX_KEY_PATH {
        // Full, and marked so when it was cut: the keys below it add nothing.
        return;
    }
    if !path.is_empty() {
        path.push('.');
    }
    let room = MAX_KEY_PATH - path.len();
    if part.len() < room && !cut {
        path.push_str(part);
        return;
    }
    let mut end = part.len().min(room);
    while !part.is_char_boundary(end) {
        end -= 1;
    }
    // At most three bytes short of the limit, then its mark: full.
    path.push_str(&part[..end]);
    path.push_str(CUT);
}

/// Where the decoding of a quoted key whose content is `text[inner]` stops (the rest of the key
/// is only passed over), and whether that cuts it: enough source for [`MAX_KEY_PATH`] bytes of
/// key however its escapes shorten it (the longest, `\UHHHHHHHH`, is ten bytes for one).
fn key_source_end(text: &str, inner: Range<usize>) -> (usize, bool) {
    let most = inner.start + 10 * MAX_KEY_PATH + 16;
    if inner.end <= most {
        return (inner.end, false);
    }
    let mut end = most;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (end, true)
}

/// The leading metadata block of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontMatter {
    /// The whole block, from its opening fence to the end of its closing fence's line.
    pub block: Range<usize>,
    /// The lines between the fences.
    pub body: Range<usize>,
    /// TOML (`+++`) rather than YAML (`---`).
    pub toml: bool,
}

/// The end of the line starting at `at`, and the start of the next one.
fn line_at(b: &[u8], at: usize) -> (usize, usize) {
    match memchr::memchr(b'\n', &b[at..]) {
        Some(k) => {
            let end = if k > 0 && b[at + k - 1] == b'\r' {
                at + k - 1
            } else {
                at + k
            };
            (end, at + k + 1)
        }
        None => (b.len(), b.len()),
    }
}

/// Whether `line` is `fence` followed by nothing but spaces and tabs.
fn is_fence(line: &[u8], fence: &[u8]) -> bool {
    line.starts_with(fence)
        && line[fence.len()..]
            .iter()
            .all(|c| matches!(c, b' ' | b'\t'))
}

/// The front matter at the start of `text`, if any. As pulldown-cmark's metadata blocks (which
/// irilint does not enable: it takes them anywhere in a document), its first line is neither
/// The `\xHH`, `\uHHHH` or `\UHHHHHHHH` escape at byte `i` of `text` (both YAML's and TOML's
/// double-quoted strings have them), ending before `end`: the character and the escape's
/// length.
fn hex_escape(text: &str, i: usize, end: usize) -> Option<(String, usize)> {
    let n = match text.as_bytes().get(i + 1)? {
        b'x' => 2,
        b'u' => 4,
        _ => 8,
    };
    let digits = text.get(i + 2..i + 2 + n).filter(|_| i + 2 + n <= end)?;
    if !digits.bytes().all(|d| d.is_ascii_hexdigit()) {
        return None;
    }
    let v = u32::from_str_radix(digits, 16).ok()?;
    Some((char::from_u32(v)?.to_string(), 2 + n))
}

/// blank nor a closing fence, and it must be closed.
pub fn find(text: &str) -> Option<FrontMatter> {
    let b = text.as_bytes();
    let start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let (end, next) = line_at(b, start);
    let first = &b[start..end];
    let toml = is_fence(first, b"+++");
    if !toml && !is_fence(first, b"---") {
        return None;
    }
    let body_start = next;
    let mut at = next;
    while at < b.len() {
        let (end, next) = line_at(b, at);
        let line = &b[at..end];
        let closes = if toml {
            is_fence(line, b"+++")
        } else {
            is_fence(line, b"---") || is_fence(line, b"...")
        };
        if at == body_start && (closes || line.iter().all(u8::is_ascii_whitespace)) {
            return None;
        }
        if closes {
            return Some(FrontMatter {
                block: start..next,
                body: body_start..at,
                toml,
            });
        }
        at = next;
    }
    None
}

/// A string value read from front matter: the dotted path of its key, and its decoded text with
/// the map back to the source (the source itself when it has no escape: a long value that is no
/// IRI is not copied to be looked at).
#[derive(Debug)]
struct Value<'t> {
    path: String,
    text: Cow<'t, str>,
    map: SpanMap,
}

/// The IRIs among the string values of `front`, each handed to `on` as it is read (not
/// gathered: 160,000 keys of 2.5 MB took 83 MB).
pub fn occurrences(text: &str, front: &FrontMatter, on: &mut dyn FnMut(Occurrence)) {
    let mut each = |value| {
        if let Some(o) = occurrence(value) {
            on(o);
        }
    };
    if front.toml {
        toml::values(text, front.body.clone(), &mut each);
    } else {
        yaml::values(text, front.body.clone(), &mut each);
    }
}

/// The value as an occurrence, when it is an absolute IRI.
fn occurrence(value: Value<'_>) -> Option<Occurrence> {
    let r = text::absolute_iri(&value.text)?;
    let origin = if value.path.is_empty() {
        "front-matter".to_string()
    } else {
        format!("front-matter:{}", value.path)
    };
    Some(
        Occurrence {
            iri: value.text[r.clone()].into(),
            map: value.map.slice(r),
            origin: origin.into(),
            placeholders: Vec::new(),
            label: None,
            reference_texts: Vec::new(),
        }
        .with_templates(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_leading_closed_block_is_front_matter() {
        assert_eq!(
            find("---\na: b\n---\nx"),
            Some(FrontMatter {
                block: 0..13,
                body: 4..9,
                toml: false
            })
        );
        assert_eq!(find("\u{FEFF}+++\r\na = 1\r\n+++").unwrap().body, 8..15);
        assert!(find("---\na: b\n...\n").is_some());
        assert!(find("+++\na = 1\n...\n").is_none());
        assert!(find("x\n---\na: b\n---\n").is_none());
        assert!(find("---\n\na: b\n---\n").is_none());
        assert!(find("---\n---\n").is_none());
        assert!(find("---\na: b\n").is_none());
        assert!(find(" ---\na: b\n---\n").is_none());
        assert!(find("----\na: b\n----\n").is_none());
    }
}
