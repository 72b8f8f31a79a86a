//! IRIs in reStructuredText (docutils, Sphinx).
//!
//! What is extracted, with its origin:
//! - `rst:reference`: the embedded IRI of a hyperlink reference, `` `text <IRI>`_ `` (or `__`);
//! - `rst:target`: the IRI of a hyperlink target, `.. _name: IRI`, `.. __: IRI`, `__ IRI`;
//! - `rst:image`: the argument of an `image` or `figure` directive (also in a substitution
//!   definition, `.. |name| image:: IRI`), and `rst:image-target` its `:target:` option;
//! - `rst:text`: standalone IRIs in running text, found by the plain-text detector
//!   ([`super::text`], with its placeholders), also in the text of a reference with an
//!   embedded IRI, which is what readers see (as in Markdown);
//! - the content of a `.. raw:: html` directive goes to the HTML extractor (`a@href`, ...).
//!
//! Not IRIs, and skipped: inline literals (` ``code`` `), interpreted text with a role
//! (`:pep:`8``, `:rfc:`, `:ref:`, `:doc:`, `` `x`:role: ``) or without one (`` `title` ``),
//! reference names (`` `text`_ ``, `` `text <alias_>`_ ``, a target `.. _a: b_` that points to
//! another target), literal blocks (the indented block after a paragraph ending with `::`), the
//! content of code directives (`code`, `code-block`, `sourcecode`, `literalinclude`, `math`,
//! `raw` other than HTML, `kernel-doc`, ...), comments and `include` paths.
//!
//! §5.2 preparation, as docutils reads an IRI in a reference or target: whitespace (a line break
//! and the indentation of the next line) is removed, and backslash escapes are resolved (`\_`
//! is `_`, `\ ` is nothing); the [`super::SpanMap`] maps each escape to its two source
//! characters. Template expressions in them (a Sphinx theme's Jinja) are placeholders
//! ([`super::template`]), and so are URI Template expressions (`{IDF_TARGET_PATH_NAME}`, which
//! ESP-IDF's Sphinx extension substitutes; [`super::text_placeholders`]).
//!
//! A construct that is not closed (a backquote without its partner in the paragraph, a target
//! without a name's colon) is read as plain text, whose IRIs are found as such.
//!
//! Explicit markup (`..`) starts a block: a `..` line that goes on with a paragraph or a list
//! item's text (no blank line before it, the same indentation) is that text, as docutils reads
//! it, so a target there is running text and a comment there is no directive.
//!
//! Suppression directives are comments: `.. irilint-disable-next-line RULE`.
//!
//! No reStructuredText parser on crates.io gives the source offsets of link targets, so this is
//! a focused scanner over lines (explicit markup blocks, literal blocks) and inline markup
//! (backquoted constructs); the fixtures in `fixtures/rst/` come from the Linux kernel's and
//! Python's documentation.

mod block;
mod inline;

use std::ops::Range;

use super::masked::{self, Masked};
use super::{Comment, Extraction, Occurrence, SpanMap};

/// How long a part of a document [`extract_each`] reads at a time, at least.
const PART: usize = 64 * 1024;

/// Hands each IRI of a reStructuredText document to `on_occurrence`, in order, and returns the
/// rest of the extraction. A document longer than [`PART`] is read in parts, each ended before
/// an unindented line after a blank line: there the scanner holds nothing open (no paragraph, no
/// indented block: explicit markup, literal blocks and directive content end at an unindented
/// line), so a part reads as the whole document would there, and only its IRIs are held at a
/// time. A paragraph of more than four parts (no such line) is cut at a line end, else at a
/// space, else where the four parts end.
pub fn extract_each(text: &str, on_occurrence: &mut dyn FnMut(Occurrence)) -> Extraction {
    extract_in_parts(text, PART, on_occurrence).0
}

/// [`extract_each`] with parts of at least `part` bytes, and how many parts were cut within a
/// paragraph; for tests.
#[doc(hidden)]
pub fn extract_in_parts(
    text: &str,
    part: usize,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> (Extraction, usize) {
    super::read_in_parts(
        text,
        |pos| part_end(text, pos, part.max(1)),
        extract,
        on_occurrence,
    )
}

/// Where the part that starts at `from` ends: at the first unindented line after a blank line
/// past `from + part`, else (past four parts) at a line end, else at a space, else where the
/// four parts end; and whether it was cut within a paragraph.
fn part_end(text: &str, from: usize, part: usize) -> (usize, bool) {
    let b = text.as_bytes();
    if b.len() - from <= part {
        return (b.len(), false);
    }
    let at = from + part;
    let limit = from.saturating_add(part.saturating_mul(4)).min(b.len());
    // Line starts from `at` on, up to the limit: a line end is never searched for past it
    // (searched to the end of the document for each part, a paragraph of one line of 128 MB
    // was read in 8.9 times the time of 32 MB).
    let mut k = memchr::memchr(b'\n', &b[at..limit]).map_or(limit + 1, |n| at + n + 1);
    crate::work::add(crate::work::Work::PartEnds, k.min(limit) - at);
    let mut blank_before = false;
    loop {
        if k >= b.len() && b.len() <= limit {
            return (b.len(), false);
        }
        if k > limit {
            // No such line within four parts: the last line end before the limit, else a space,
            // else the limit itself (a paragraph of one run of markup read whole as one part
            // was held a few times over: 16 MB of `` ` `` took 57 MB).
            let cut = memchr::memrchr(b'\n', &b[at..limit]).map(|n| at + n + 1);
            let cut =
                cut.or_else(|| memchr::memrchr2(b' ', b'\t', &b[at..limit]).map(|n| at + n + 1));
            return (
                cut.unwrap_or_else(|| super::char_boundary_from(text, limit)),
                true,
            );
        }
        if k >= b.len() {
            return (b.len(), false);
        }
        // (A line past the limit is read to its first byte: a cut before it is still seen.)
        let bound = (limit + 1).min(b.len());
        let line_end = memchr::memchr(b'\n', &b[k..bound]).map_or(bound, |n| k + n);
        crate::work::add(crate::work::Work::PartEnds, line_end - k);
        let line = &b[k..line_end];
        if blank_before && !line.is_empty() && !line[0].is_ascii_whitespace() {
            return (k, false);
        }
        blank_before = line.iter().all(|c| c.is_ascii_whitespace());
        k = line_end + 1;
    }
}

/// The IRIs of a reStructuredText document.
pub fn extract(text: &str) -> Extraction {
    let mut s = Scan {
        text,
        masked: Masked::new(text),
        occurrences: Vec::new(),
        comments: Vec::new(),
        line: 0..0,
    };
    s.blocks();
    s.inline();
    s.hide_escaped_whitespace();
    let masked = s.masked.into_text();
    let mut occurrences = s.occurrences;
    for bare in masked::bare_iris(text, &masked, "rst:text", |_| Vec::new()) {
        occurrences.push(unescaped(text, bare));
    }
    occurrences.sort_by_key(|o| o.map.source_range().start);
    Extraction {
        occurrences,
        comments: s.comments,
        ..Extraction::default()
    }
}

/// Whether `s` is a reStructuredText simple reference name (docutils' `simplename`: words of
/// letters and digits joined by single `-`, `.`, `_`, `+` or `:`), so that `s_` names a target
/// rather than being a URI that ends in `_` (`https://example.com/x#fields_`, which docutils
/// links as it is: a URI is never a simple name, its `/` or `@` is in no word).
fn is_simple_name(s: &str) -> bool {
    let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric());
    !s.is_empty() && s.split(['-', '.', '_', '+', ':']).all(word)
}

struct Scan<'a> {
    text: &'a str,
    /// What is left for the bare-IRI detector.
    masked: Masked,
    occurrences: Vec<Occurrence>,
    comments: Vec<Comment>,
    /// The line found last (without its `\n`), for the references of a line that follow.
    line: Range<usize>,
}

impl Scan<'_> {
    /// The IRI made of `pieces`, unless it is a reference name (`name_`).
    fn push_target(&mut self, pieces: &[Range<usize>], origin: &'static str) {
        if let Some((iri, map, last_escaped)) = joined(self.text, pieces)
            && (last_escaped || !iri.strip_suffix('_').is_some_and(is_simple_name))
        {
            self.push(iri, map, origin);
        }
    }

    fn push(&mut self, iri: String, map: SpanMap, origin: &'static str) {
        let mut occ = Occurrence {
            iri: iri.into(),
            map,
            origin: origin.into(),
            placeholders: Vec::new(),
            label: None,
            reference_texts: Vec::new(),
        }
        .with_templates();
        // `{IDF_TARGET_PATH_NAME}`: a substitution that a Sphinx extension fills in (ESP-IDF's
        // esp-docs), shaped as a URI Template expression, as in plain text.
        let substitutions = super::text_placeholders::uri_template(&occ.iri);
        if !substitutions.is_empty() {
            occ.placeholders.extend(substitutions);
            occ.placeholders = super::template::disjoint(std::mem::take(&mut occ.placeholders));
        }
        self.occurrences.push(occ);
    }
}

/// A standalone IRI with its backslash escapes resolved, as docutils renders it
/// (`http://web.archive.org/web/\*/http://example.org`).
fn unescaped(text: &str, bare: Occurrence) -> Occurrence {
    if !bare.iri.contains('\\') {
        return bare;
    }
    match joined(text, &[bare.map.source_range()]) {
        Some((iri, map, _)) => Occurrence {
            placeholders: super::text_placeholders::placeholders(&iri),
            iri: iri.into(),
            map,
            origin: bare.origin,
            label: bare.label,
            reference_texts: bare.reference_texts,
        },
        None => bare,
    }
}

/// The prepared IRI of `pieces` of `text` (whitespace removed, backslash escapes resolved),
/// its map, and whether its last character was escaped; `None` when it is empty.
fn joined(text: &str, pieces: &[Range<usize>]) -> Option<(String, SpanMap, bool)> {
    let mut iri = String::new();
    let mut map = SpanMap::default();
    let mut last_escaped = false;
    for piece in pieces {
        let s = &text[piece.clone()];
        let mut chars = s.char_indices().peekable();
        while let Some((k, c)) = chars.next() {
            let at = piece.start + k;
            if c.is_whitespace() {
                continue;
            }
            if c == '\\' {
                match chars.next() {
                    Some((_, e)) if !e.is_whitespace() => {
                        iri.push(e);
                        map.push_replaced(e.len_utf8(), at..at + 1 + e.len_utf8());
                        last_escaped = true;
                    }
                    _ => {}
                }
                continue;
            }
            iri.push(c);
            map.push_copied(at..at + c.len_utf8());
            last_escaped = false;
        }
    }
    (!iri.is_empty()).then_some((iri, map, last_escaped))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::extract::masked::pairs;

    fn found(text: &str) -> Vec<(String, String)> {
        masked::found(extract(text))
    }

    /// Where a `..` line is explicit markup and where it is a paragraph's text, as docutils 0.19
    /// reads each of these (checked by hand with `publish_string(..., 'pseudoxml')`).
    #[test]
    fn explicit_markup_inside_a_paragraph_is_its_text() {
        let comments = |t: &str| {
            extract(t)
                .comments
                .iter()
                .map(|c| t[c.body.clone()].to_string())
                .collect::<Vec<_>>()
        };
        let directive = "irilint-disable-next-line x";
        for (text, is_comment) in [
            (
                "Intro\nmore text\n.. irilint-disable-next-line x\nSee it.\n",
                false,
            ),
            ("- item\n  .. irilint-disable-next-line x\n", false),
            ("1. one\n   .. irilint-disable-next-line x\n", false),
            ("Para::\n.. irilint-disable-next-line x\n", false),
            ("Intro\n\n.. irilint-disable-next-line x\nSee it.\n", true),
            (
                "Title\n=====\n.. irilint-disable-next-line x\n\nPara\n",
                true,
            ),
            ("Term\n  .. irilint-disable-next-line x\n", true),
            ("| line\n.. irilint-disable-next-line x\n", true),
            (":field: value\n.. irilint-disable-next-line x\n", true),
            ("-a  option\n.. irilint-disable-next-line x\n", true),
            (
                "+---+\n| a |\n+---+\n.. irilint-disable-next-line x\n",
                true,
            ),
            (">>> x\n.. irilint-disable-next-line x\n", false),
        ] {
            let expected: Vec<String> = if is_comment {
                vec![directive.into()]
            } else {
                vec![]
            };
            assert_eq!(comments(text), expected, "{text:?}");
        }
        // A target inside a paragraph is text: its IRI is found there.
        assert_eq!(
            found("Para\n.. _t: http://x.example/\n"),
            pairs(&[("rst:text", "http://x.example/")])
        );
        assert_eq!(
            found(".. _a: http://a.example/\n.. _b: http://b.example/\n"),
            pairs(&[
                ("rst:target", "http://a.example/"),
                ("rst:target", "http://b.example/")
            ])
        );
    }

    #[test]
    fn references_targets_images_and_text() {
        let text = "See `Python <https://www.python.org/>`_ and `anon <https://a.example/x>`__.\n\
                    \n\
                    .. _docs: https://docs.example.org/\n\
                    .. __: https://b.example/\n\
                    \n\
                    __ https://c.example/\n\
                    \n\
                    .. image:: https://img.example/a.png\n   :alt: A\n   :target: https://d.example/\n\
                    \n\
                    .. |logo| image:: /static/logo.svg\n\
                    \n\
                    Bare https://e.example/page here.\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("rst:reference", "https://www.python.org/"),
                ("rst:reference", "https://a.example/x"),
                ("rst:target", "https://docs.example.org/"),
                ("rst:target", "https://b.example/"),
                ("rst:target", "https://c.example/"),
                ("rst:image", "https://img.example/a.png"),
                ("rst:image-target", "https://d.example/"),
                ("rst:image", "/static/logo.svg"),
                ("rst:text", "https://e.example/page"),
            ])
        );
    }

    #[test]
    fn whitespace_is_removed_and_escapes_resolved_with_exact_spans() {
        let text = ".. _long: https://example.org/a/\n   b\\_c\\ d\n";
        let occ = &extract(text).occurrences[0];
        assert_eq!(&*occ.iri, "https://example.org/a/b_cd");
        let underscore = occ.iri.find('_').unwrap();
        let src = occ.map.to_source(underscore..underscore + 1);
        assert_eq!(&text[src], "\\_");
        let b = occ.iri.find("/b").unwrap() + 1;
        assert_eq!(&text[occ.map.to_source(b..b + 1)], "b");
    }

    /// As docutils 0.19 links them (`publish_string(..., 'pseudoxml')`): a URI that ends in `_`
    /// is a `refuri`, a simple name before `_` a `refname`.
    #[test]
    fn a_uri_ending_in_an_underscore_is_a_uri_and_a_name_is_a_name() {
        let text = "Read `vis <https://example.com/sv\u{200B}n/x.xml#fields_>`_ part,\n\
                    `mail <mailto:a_b@example.org_>`_, `alias <other-name.v2_>`_,\n\
                    `dotted <a.b:c+d_>`_.\n\
                    \n\
                    .. _target: https://example.org/path_\n\
                    .. _indirect: another_name_\n";
        let iris: Vec<String> = found(text).into_iter().map(|(_, iri)| iri).collect();
        assert_eq!(
            iris,
            [
                "https://example.com/sv\u{200B}n/x.xml#fields_",
                "mailto:a_b@example.org_",
                "https://example.org/path_",
            ]
        );
        assert!(is_simple_name("other-name.v2"));
        assert!(is_simple_name("a.b:c+d"));
        assert!(!is_simple_name("https://example.org/path"));
        assert!(!is_simple_name(""));
        assert!(!is_simple_name("a--b"));
    }

    #[test]
    fn names_roles_and_code_are_not_iris() {
        let text = "A `title`_ and `alias <other_>`_ and :pep:`8` and :rfc:`3987#section-3.1`\n\
                    and :ref:`label <https-target>` and `x`:doc: and ``https://code.example/``.\n\
                    \n\
                    .. _indirect: other_\n\
                    .. _internal:\n\
                    \n\
                    Example::\n\
                    \n    curl https://literal.example/\n\
                    \n\
                    .. code-block:: sh\n\
                    \n   wget https://code-block.example/\n\
                    \n\
                    .. a comment with https://comment.example/\n\
                    \n\
                    After.\n";
        assert_eq!(found(text), Vec::<(String, String)>::new());
    }

    #[test]
    fn a_paragraph_ending_with_two_colons_inside_text_is_not_a_literal_marker() {
        let text = "Read this::\nstill the paragraph https://a.example/\n\n  https://b.example/\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("rst:text", "https://a.example/"),
                ("rst:text", "https://b.example/")
            ])
        );
    }

    #[test]
    fn raw_html_goes_to_the_html_extractor_and_directives_are_comments() {
        let text = ".. raw:: html\n\n   <a href=\"https://raw.example/\">x</a>\n\n\
                    .. irilint-disable-next-line bidi-formatting-character\n";
        let e = extract(text);
        assert_eq!(&*e.occurrences[0].iri, "https://raw.example/");
        assert_eq!(e.occurrences[0].origin, "a@href");
        assert_eq!(
            &text[e.comments[0].body.clone()],
            "irilint-disable-next-line bidi-formatting-character"
        );
    }

    #[test]
    fn table_borders_escapes_and_blank_lines_end_what_they_end() {
        let text = "+------------------+\n\
                    | See `deferring <h |\n\
                    | ttp://a.example/x |\n\
                    | >`__.             |\n\
                    +------------------+\n\
                    \n\
                    (https://www.imagemagick.org).\\ [#ink]_ and\n\
                    http://web.archive.org/web/\\*/http://reality.example\n\
                    \n\
                    .. _label:\n\
                    \n\
                    \x20   * Title: **Book** https://book.example/\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("rst:reference", "http://a.example/x"),
                ("rst:text", "https://www.imagemagick.org"),
                (
                    "rst:text",
                    "http://web.archive.org/web/*/http://reality.example"
                ),
                ("rst:text", "https://book.example/"),
            ])
        );
        let e = extract(text);
        let star = &e.occurrences[2];
        let k = star.iri.find('*').unwrap();
        assert_eq!(&text[star.map.to_source(k..k + 1)], "\\*");
    }

    #[test]
    fn the_text_of_a_link_is_text() {
        let text = "`www.nuget.org/packages/python <https://www.nuget.org/packages/python>`_\n\
                    `see https://p\u{430}ypal.com <https://example.org/>`__ and `name`_\n";
        assert_eq!(
            found(text),
            pairs(&[
                ("rst:text", "www.nuget.org/packages/python"),
                ("rst:reference", "https://www.nuget.org/packages/python"),
                ("rst:text", "https://p\u{430}ypal.com"),
                ("rst:reference", "https://example.org/"),
            ])
        );
    }

    #[test]
    fn unclosed_markup_is_plain_text() {
        assert_eq!(
            found("`unclosed <https://a.example/>\n\n.. _broken https://b.example/"),
            pairs(&[("rst:text", "https://a.example/")])
        );
        // The comment hides the second: `.. _broken` without a colon is a comment.
        let many = "`".repeat(10_000) + " https://c.example/";
        assert_eq!(found(&many), pairs(&[("rst:text", "https://c.example/")]));
    }
}
