//! The inside of a start tag: its name and its attributes, located.
//!
//! quick-xml finds where a tag starts and ends (a `>` inside a quoted value does not end it);
//! this splits what is between `<` and `>` into the name and `name="value"` pairs with exact
//! ranges, and checks the syntax XML 1.0 §3.1 requires: white space between attributes, `=`,
//! quotes, no attribute twice.

use std::collections::HashSet;
use std::ops::Range;

use super::decode::{char_end, is_name, is_space};

/// An attribute as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RawAttribute {
    /// Its name (`xlink:href`).
    pub name: Range<usize>,
    /// Its value, inside the quotes, before any decoding.
    pub value: Range<usize>,
}

/// A start tag as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RawTag {
    /// The element name.
    pub name: Range<usize>,
    /// The attributes in source order.
    pub attributes: Vec<RawAttribute>,
}

/// What is wrong with a tag, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TagError {
    /// The characters at fault.
    pub range: Range<usize>,
    /// The message.
    pub message: String,
}

fn error(range: Range<usize>, message: impl Into<String>) -> TagError {
    TagError {
        range,
        message: message.into(),
    }
}

/// The end of the name starting at `at`: up to white space, `=`, or `end`.
fn name_end(src: &str, at: usize, end: usize) -> usize {
    // By bytes: the stops are ASCII, which no byte of a multi-byte character can be.
    src.as_bytes()[at..end]
        .iter()
        .position(|&b| b == b'=' || is_space(b))
        .map_or(end, |k| at + k)
}

/// Splits `src[content]` (between `<` and `>`, or `/>` for an empty-element tag). The
/// attributes go into `attributes`, cleared first: a buffer the caller reuses from tag to tag.
pub(super) fn parse(
    src: &str,
    content: Range<usize>,
    mut attributes: Vec<RawAttribute>,
) -> Result<RawTag, TagError> {
    attributes.clear();
    let b = src.as_bytes();
    let end = content.end;
    let name = content.start..name_end(src, content.start, end);
    if !is_name(&src[name.clone()]) {
        let shown = if name.is_empty() {
            content.start..char_end(src, content.start, end)
        } else {
            name.clone()
        };
        return Err(error(
            shown,
            format!(
                "`<{}` does not start a tag: a name must follow `<` directly (write `&lt;` \
                 for a literal `<`)",
                &src[name.clone()]
            ),
        ));
    }
    // Names seen, hashed only once a tag has many attributes (most have a few: a linear scan
    // of those is cheaper than hashing, and the hash keeps hostile tags linear).
    let mut seen: Option<HashSet<&str>> = None;
    let mut i = name.end;
    loop {
        let before = i;
        while i < end && is_space(b[i]) {
            i += 1;
        }
        if i == end {
            break;
        }
        let n = i..name_end(src, i, end);
        let attr_name = &src[n.clone()];
        if i == before || n.is_empty() || !is_name(attr_name) {
            let at = i..n.end.max(char_end(src, i, end));
            let found = &src[at.clone()];
            return Err(error(
                at,
                if i == before {
                    format!(
                        "expected white space before `{found}`: attributes are separated by spaces"
                    )
                } else {
                    format!("`{found}` is not an attribute: expected `name=\"value\"`")
                },
            ));
        }
        i = n.end;
        while i < end && is_space(b[i]) {
            i += 1;
        }
        if i == end || b[i] != b'=' {
            return Err(error(
                n.clone(),
                format!("attribute `{attr_name}` has no value: XML requires `{attr_name}=\"...\"`"),
            ));
        }
        i += 1;
        while i < end && is_space(b[i]) {
            i += 1;
        }
        let quote = match b.get(i) {
            Some(&q @ (b'"' | b'\'')) if i < end => q,
            _ => {
                let at = i.min(end)..name_end(src, i.min(end), end).max(char_end(src, i, end));
                return Err(error(
                    at,
                    format!(
                        "the value of attribute `{attr_name}` must be in quotes: \
                         `{attr_name}=\"...\"`"
                    ),
                ));
            }
        };
        let Some(close) = memchr::memchr(quote, &b[i + 1..end]) else {
            return Err(error(
                i..i + 1,
                format!("the value of attribute `{attr_name}` is not closed"),
            ));
        };
        let value = i + 1..i + 1 + close;
        i = value.end + 1;
        let repeated = match &mut seen {
            None if attributes.len() < 16 => {
                attributes.iter().any(|a| &src[a.name.clone()] == attr_name)
            }
            None => {
                let set = seen.insert(attributes.iter().map(|a| &src[a.name.clone()]).collect());
                !set.insert(attr_name)
            }
            Some(set) => !set.insert(attr_name),
        };
        if repeated {
            return Err(error(
                n.clone(),
                format!("attribute `{attr_name}` appears twice in the same tag (XML 1.0 §3.1)"),
            ));
        }
        if attributes.len() == super::MAX_ATTRIBUTES {
            return Err(error(
                n.clone(),
                format!(
                    "this tag has more than {} attributes: irilint stops reading, as parsers do \
                     (Java's stop at 10,000 by default, GLib's at 1,000)",
                    super::MAX_ATTRIBUTES
                ),
            ));
        }
        attributes.push(RawAttribute { name: n, value });
    }
    Ok(RawTag { name, attributes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(tag: &str) -> Result<(String, Vec<(String, String)>), String> {
        parse(tag, 0..tag.len(), Vec::new())
            .map(|t| {
                (
                    tag[t.name].to_string(),
                    t.attributes
                        .into_iter()
                        .map(|a| (tag[a.name].to_string(), tag[a.value].to_string()))
                        .collect(),
                )
            })
            .map_err(|e| format!("{}: {}", &tag[e.range], e.message))
    }

    #[test]
    fn attributes_are_located() {
        let (name, attrs) = parts("a  href = 'x>y'\n\txlink:href=\"\" ").unwrap();
        assert_eq!(name, "a");
        assert_eq!(
            attrs,
            [
                ("href".to_string(), "x>y".to_string()),
                ("xlink:href".to_string(), String::new())
            ]
        );
    }

    #[test]
    fn syntax_errors() {
        for (tag, at) in [
            (" a", " "),
            ("a b", "b"),
            ("a b=c", "c"),
            ("a b=\"1\"c=\"2\"", "c"),
            ("a b=\"1\" b='2'", "b"),
            ("a =\"x\"", "="),
            ("1a", "1a"),
        ] {
            let e = parts(tag).unwrap_err();
            assert!(e.starts_with(&format!("{at}:")), "{tag}: {e}");
        }
    }

    #[test]
    fn a_repeated_attribute_is_found_among_few_or_many() {
        for count in [1, 2, 15, 16, 17, 40] {
            let names: Vec<String> = (0..count).map(|i| format!("a{i}")).collect();
            let tag = |extra: &str| {
                let attrs: String = names.iter().map(|n| format!(" {n}='v'")).collect();
                format!("e{attrs}{extra}")
            };
            assert!(parts(&tag(" z='v'")).is_ok(), "{count}");
            for repeated in [&names[0], &names[count - 1]] {
                let e = parts(&tag(&format!(" {repeated}='w'"))).unwrap_err();
                assert!(e.contains("appears twice"), "{count} {repeated}: {e}");
            }
        }
    }
}
