//! Rustdoc intra-doc links: destinations that are Rust paths, not IRIs.
//!
//! A crate's README is often also its rustdoc front page, and there
//! `[`Provider`](hello_world::HelloWorldProvider)` links to an item: rustdoc resolves the path,
//! and no browser ever sees it as an IRI. A destination is taken for a Rust path when, after
//! optional backticks (`` `Vec` ``) and an optional disambiguator (`struct@`, `fn@`, `macro@`,
//! ...), it is a path of identifiers (with optional generic arguments) that says so by its
//! shape: it has a `::` separator (`a::b`, `crate::X`, `Self::f`, `::std::io`), it ends with `()`
//! (a function), with `!`, `!()`, `![]` or `!{}` (a macro), or it was written in backticks or
//! with a disambiguator. A bare word (`Foo`) stays a relative reference, which it also is, and a
//! fragment is allowed after the path (`Vec::push#examples`) as rustdoc allows it.

/// The rustdoc disambiguators (`struct@Foo`), as the rustdoc book lists them.
const DISAMBIGUATORS: &[&str] = &[
    "struct",
    "enum",
    "trait",
    "union",
    "mod",
    "module",
    "const",
    "constant",
    "fn",
    "function",
    "method",
    "derive",
    "type",
    "value",
    "macro",
    "prim",
    "primitive",
    "static",
    "field",
    "variant",
    "tyalias",
    "attr",
    "keyword",
];

/// True when the link destination `dest` is a rustdoc intra-doc link (a Rust path).
pub(super) fn is_intra_doc_link(dest: &str) -> bool {
    // No part of a Rust path has a `/` or a `.`, and only the fragment, after the first `#`,
    // may: most destinations (`https://…`, `guide.md`) are told apart by that byte alone.
    if let Some(k) = memchr::memchr3(b'#', b'/', b'.', dest.as_bytes())
        && dest.as_bytes()[k] != b'#'
    {
        return false;
    }
    let (mut path, mut marked) = (dest, false);
    if let Some(inner) = path.strip_prefix('`').and_then(|p| p.strip_suffix('`')) {
        (path, marked) = (inner, true);
    }
    if let Some((kind, rest)) = path.split_once('@')
        && DISAMBIGUATORS.contains(&kind)
    {
        (path, marked) = (rest, true);
    }
    let path = path.split_once('#').map_or(path, |(p, _)| p);
    let (path, called) = match ["!()", "![]", "!{}", "()", "!"]
        .iter()
        .find_map(|s| path.strip_suffix(s))
    {
        Some(p) => (p, true),
        None => (path, false),
    };
    let path = path.strip_prefix("::").unwrap_or(path);
    let segments: Vec<&str> = split_path(path);
    !segments.is_empty()
        && segments.iter().all(|s| is_segment(s))
        && (marked || called || segments.len() > 1)
}

/// The `::`-separated segments of `path`, generic arguments (which may hold `::`) kept with
/// their segment.
fn split_path(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 0, 0);
    let b = path.as_bytes();
    while i < b.len() {
        match b[i] {
            b'<' => depth += 1,
            b'>' => depth = depth.saturating_sub(1),
            b':' if depth == 0 && b.get(i + 1) == Some(&b':') => {
                out.push(&path[start..i]);
                i += 2;
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&path[start..]);
    out
}

/// An identifier, with optional generic arguments (`Vec<T>`, `HashMap<K, V>`).
fn is_segment(s: &str) -> bool {
    let (ident, generics) = match s.find('<') {
        Some(k) if s.ends_with('>') => (&s[..k], Some(&s[k + 1..s.len() - 1])),
        Some(_) => return false,
        None => (s, None),
    };
    let mut chars = ident.chars();
    let starts = chars.next().is_some_and(|c| c == '_' || c.is_alphabetic());
    starts
        && chars.all(|c| c == '_' || c.is_alphanumeric())
        && generics.is_none_or(|g| {
            g.chars()
                .all(|c| c.is_alphanumeric() || " _,:<>&'[];".contains(c))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_paths_are_intra_doc_links() {
        for dest in [
            "hello_world::HelloWorldProvider",
            "crate::X",
            "Self::f()",
            "self::module::Item",
            "super::Thing",
            "::std::io::Read",
            "std::vec::Vec<T>",
            "HashMap<K, V>::new",
            "mac!",
            "vec![]",
            "format!()",
            "`Type`",
            "`crate::Type`",
            "struct@Foo",
            "fn@foo",
            "Vec::push#examples",
            "Vec::push#a/b.c",
            "f()",
        ] {
            assert!(is_intra_doc_link(dest), "{dest}");
        }
    }

    #[test]
    fn iris_and_relative_references_are_not() {
        for dest in [
            "https://docs.rs/serde",
            "Foo",
            "docs/guide.md",
            "#usage",
            "mailto:a@example.org",
            "urn:isbn:0451450523",
            "user@host",
            "a::b/c",
            "a:::b",
            "::",
            "`a b`",
            "http://a::b",
            "a::b.c",
            "a.b::c#x",
            "",
        ] {
            assert!(!is_intra_doc_link(dest), "{dest}");
        }
    }
}
