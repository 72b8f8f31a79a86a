//! URL attributes lost to a separator HTML does not read as one (`unlinked-url-attribute`).
//!
//! HTML separates a tag's name and attributes with ASCII whitespace only. A full-width space
//! (U+3000, typed by a CJK input method), a no-break space or another Unicode space, or an
//! invisible character (U+200B, U+FEFF, a bidi control) where a space belongs glues what
//! follows to the name before it: `<a\u{3000}href="…">` is an element named `a\u{3000}href="…"`, and
//! `<a title="x"\u{3000}href="…">` an `a` with an attribute named `\u{3000}href`. Either way the link is
//! gone, without a word from any browser.
//!
//! A start tag holding such a character is read twice: as the tokenizer reads it, and as if
//! each such character between its name and attributes (never inside a quoted value) were a
//! space. When the second reading has a URL attribute ([`super::listed_kind`]) that the first has
//! not, its element's or its own name having swallowed the character, the tag is reported, with
//! a fix writing an ASCII space for each run of them, and the lost attribute's URLs are checked
//! as the tag's would have been.

use std::ops::Range;

use crate::iri::chars::{is_bidi_formatting, is_default_ignorable};

/// A character that stands where a tag's separator belongs but is none: a non-ASCII space, or a
/// character that displays as nothing.
pub fn is_false_separator(c: char) -> bool {
    !c.is_ascii() && (c.is_whitespace() || is_default_ignorable(c) || is_bidi_formatting(c))
}

/// An attribute as read: its name (lowercased), where the name is, and its raw value.
type ReadAttribute = (String, Range<usize>, Option<Range<usize>>);

/// A start tag's name and attributes, as read.
#[derive(Debug, Default, PartialEq, Eq)]
struct Read {
    /// The element's name, lowercased (ASCII).
    name: String,
    /// Where the element's name ends.
    name_end: usize,
    /// Each attribute's name (lowercased), where it is, and its raw value (inside its quotes),
    /// the first of each name.
    attributes: Vec<ReadAttribute>,
    /// Just after its `>`.
    end: usize,
    /// The runs of false separators read as spaces.
    runs: Vec<Range<usize>>,
}

/// A tag whose URL attributes are lost: where the false separators are, and each lost
/// attribute's element, name and raw value.
#[derive(Debug, PartialEq, Eq)]
pub struct Lost {
    /// The runs of false separators that lose a URL attribute, in order, each with the name of
    /// the (first) attribute it loses.
    pub runs: Vec<(Range<usize>, String)>,
    /// The element's name as it was meant.
    pub element: String,
    /// The lost URL attributes: name and raw value range.
    pub attributes: Vec<(String, Range<usize>)>,
}

/// Reads the start tag whose `<` is at `start` (in `text[..end]`), its separators being ASCII
/// whitespace and, when `lenient`, the false ones too. `None` when the input ends first.
fn read(text: &str, start: usize, end: usize, lenient: bool) -> Option<Read> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum S {
        TagName,
        BeforeName,
        Name,
        AfterName,
        BeforeValue,
        Quoted(char),
        Unquoted,
        AfterQuoted,
        SelfClosing,
    }
    let s = &text[..end];
    let mut out = Read::default();
    let mut state = S::TagName;
    let mut i = start + 1;
    let (mut name_start, mut value_start) = (i, 0);
    let mut pending: Option<(String, Range<usize>)> = None;
    type Pending = Option<(String, Range<usize>)>;
    let push_name = |out: &mut Read, r: Range<usize>, pending: &mut Pending| {
        if let Some((done, at)) = pending.take()
            && !out.attributes.iter().any(|(n, _, _)| *n == done)
        {
            out.attributes.push((done, at, None));
        }
        *pending = Some((s[r.clone()].to_ascii_lowercase(), r));
    };
    let set_value = |out: &mut Read, r: Range<usize>, pending: &mut Pending| {
        if let Some((done, at)) = pending.take()
            && !out.attributes.iter().any(|(n, _, _)| *n == done)
        {
            out.attributes.push((done, at, Some(r)));
        }
    };
    while let Some(c) = s[i..].chars().next() {
        let len = c.len_utf8();
        let false_sep = lenient && is_false_separator(c);
        let space = matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ') || false_sep;
        let record = |out: &mut Read| {
            if false_sep {
                match out.runs.last_mut() {
                    Some(r) if r.end == i => r.end = i + len,
                    _ => out.runs.push(i..i + len),
                }
            }
        };
        let mut reconsume = false;
        match state {
            S::TagName => {
                if space || c == '/' || c == '>' {
                    out.name = s[start + 1..i].to_ascii_lowercase();
                    out.name_end = i;
                    reconsume = true;
                    state = S::BeforeName;
                }
            }
            S::BeforeName => match c {
                _ if space => record(&mut out),
                '/' => state = S::SelfClosing,
                '>' => {
                    out.end = i + 1;
                    break;
                }
                _ => {
                    name_start = i;
                    state = S::Name;
                }
            },
            S::Name => {
                if space || c == '/' || c == '=' || c == '>' {
                    push_name(&mut out, name_start..i, &mut pending);
                    reconsume = true;
                    state = S::AfterName;
                }
            }
            S::AfterName => match c {
                _ if space => record(&mut out),
                '/' => state = S::SelfClosing,
                '=' => state = S::BeforeValue,
                '>' => {
                    out.end = i + 1;
                    break;
                }
                _ => {
                    name_start = i;
                    state = S::Name;
                }
            },
            S::BeforeValue => match c {
                _ if space => record(&mut out),
                '"' | '\'' => {
                    value_start = i + 1;
                    state = S::Quoted(c);
                }
                '>' => {
                    set_value(&mut out, i..i, &mut pending);
                    out.end = i + 1;
                    break;
                }
                _ => {
                    value_start = i;
                    state = S::Unquoted;
                }
            },
            S::Quoted(q) => {
                let close = s[i..].find(q)? + i;
                set_value(&mut out, value_start..close, &mut pending);
                i = close + 1;
                state = S::AfterQuoted;
                continue;
            }
            S::Unquoted => {
                if space || c == '>' {
                    set_value(&mut out, value_start..i, &mut pending);
                    reconsume = true;
                    state = S::BeforeName;
                }
            }
            S::AfterQuoted => {
                if space {
                    record(&mut out);
                    state = S::BeforeName;
                } else {
                    reconsume = true;
                    state = S::BeforeName;
                }
            }
            S::SelfClosing => {
                if c == '>' {
                    out.end = i + 1;
                    break;
                }
                reconsume = true;
                state = S::BeforeName;
            }
        }
        if !reconsume {
            i += len;
        }
    }
    if out.end == 0 {
        return None;
    }
    if let Some((done, at)) = pending.take()
        && !out.attributes.iter().any(|(n, _, _)| *n == done)
    {
        out.attributes.push((done, at, None));
    }
    Some(out)
}

/// The URL attributes of the start tag whose `<` is at `start` that a false separator in it
/// makes browsers lose; `None` when none is lost. `foreign`: inside `<svg>` or `<math>`, where
/// `href` and `xlink:href` are links on any element.
pub fn lost(text: &str, start: usize, end: usize, foreign: bool) -> Option<Lost> {
    let meant = read(text, start, end, true)?;
    if meant.runs.is_empty() {
        return None;
    }
    let is_url = |element: &str, name: &str| {
        super::listed_kind(element, name).is_some()
            || name.starts_with("xmlns:")
            || (foreign && matches!(name, "href" | "xlink:href"))
    };
    let read_as = read(text, start, end, false);
    let kept = |name: &str| {
        read_as
            .as_ref()
            .is_some_and(|r| r.name == meant.name && r.attributes.iter().any(|(n, _, _)| n == name))
    };
    // (An attribute without a value holds no URL, but its loss is still a lost link: `<a\u{3000}href>`
    // is reported too.)
    let lost: Vec<&ReadAttribute> = meant
        .attributes
        .iter()
        .filter(|(name, _, _)| is_url(&meant.name, name) && !kept(name))
        .collect();
    let first = lost.first()?;
    // The runs that lose them: right after the element's name (then every attribute is lost),
    // or right before or after a lost attribute's name. Others lose no link.
    let runs = meant
        .runs
        .iter()
        .filter_map(|run| {
            if run.start == meant.name_end {
                return Some((run.clone(), first.0.clone()));
            }
            lost.iter()
                .find(|(_, at, _)| run.end == at.start || run.start == at.end)
                .map(|(name, _, _)| (run.clone(), name.clone()))
        })
        .collect::<Vec<_>>();
    if runs.is_empty() {
        return None;
    }
    Some(Lost {
        runs,
        attributes: lost
            .iter()
            .filter_map(|(name, _, value)| Some((name.clone(), value.clone()?)))
            .collect(),
        element: meant.name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs, the element and the lost attributes' names and values, as text.
    type Seen = (Vec<String>, String, Vec<(String, String)>);

    fn lost_in(html: &str) -> Option<Seen> {
        let l = lost(html, html.find('<').unwrap(), html.len(), false)?;
        Some((
            l.runs
                .iter()
                .map(|(r, _)| html[r.clone()].to_string())
                .collect(),
            l.element,
            l.attributes
                .into_iter()
                .map(|(n, v)| (n, html[v].to_string()))
                .collect(),
        ))
    }

    fn row(runs: &[&str], element: &str, attrs: &[(&str, &str)]) -> Option<Seen> {
        Some((
            runs.iter().map(|s| s.to_string()).collect(),
            element.to_string(),
            attrs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
        ))
    }

    #[test]
    fn a_false_separator_before_a_url_attribute_loses_it() {
        // In the tag name: the element is no `a`.
        assert_eq!(
            lost_in("<a\u{3000}href=\"https://x.org/a b\">x</a>"),
            row(&["\u{3000}"], "a", &[("href", "https://x.org/a b")])
        );
        // Glued to the attribute's name.
        assert_eq!(
            lost_in("<a title='t'\u{200B}href=/x>"),
            row(&["\u{200B}"], "a", &[("href", "/x")])
        );
        assert_eq!(
            lost_in("<img \u{A0}\u{FEFF}src=i.png alt=x>"),
            row(&["\u{A0}\u{FEFF}"], "img", &[("src", "i.png")])
        );
        // Between the name and its `=`.
        assert_eq!(
            lost_in("<a href\u{3000}=\"/y\">"),
            row(&["\u{3000}"], "a", &[("href", "/y")])
        );
        assert_eq!(lost_in("<a\u{3000}href>"), row(&["\u{3000}"], "a", &[]));
        // Only the runs that lose a link.
        assert_eq!(
            lost_in("<a\u{3000}href='/z'\u{3000}title=t\u{200B}data-x>"),
            row(&["\u{3000}"], "a", &[("href", "/z")])
        );
        assert_eq!(
            lost_in("<a class=c\u{3000}title=t\u{3000}href='/z'>"),
            row(&["\u{3000}"], "a", &[("href", "/z")])
        );
    }

    #[test]
    fn what_loses_no_link_is_not_reported() {
        // After the URL attribute, before another.
        assert_eq!(lost_in("<a href='/x'\u{3000}title='t'>"), None);
        // Inside a quoted value (the IRI rules report it there).
        assert_eq!(lost_in("<a href='/x\u{200B}y' title='\u{3000}'>"), None);
        // Not a URL attribute, or no element with one.
        assert_eq!(lost_in("<p\u{3000}class=x>"), None);
        assert_eq!(lost_in("<a\u{3000}class=x>"), None);
        // Next to an ASCII space: the tokenizer already separates them.
        assert_eq!(lost_in("<a \u{3000} href=/x>"), None);
        // Unclosed.
        assert_eq!(lost_in("<a\u{3000}href=/x"), None);
    }
}
