//! From a decoded document to the IRIs in it.
//!
//! Each format has one module that turns a [`Source`] into an [`Extraction`]: [`Occurrence`]s —
//! the IRI after the format's escapes are resolved (RFC 3987 §5.2 preparation) and a [`SpanMap`]
//! from every byte of it back to the source — and the document-level [`Problem`]s met on the way
//! (malformed XML, entity expansion limits). Rules only ever see occurrences, never markup.

pub mod asciidoc;
pub mod hashed;
pub mod html;
pub mod markdown;
pub mod masked;
pub mod odf;
pub mod ooxml;
pub mod package;
pub mod pdf;
pub mod rst;
pub mod span_map;
pub mod template;
pub mod text;
pub mod text_placeholders;
pub mod xml;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

pub use span_map::{Related, SpanMap};

use crate::source::{Format, Source};

/// One IRI found in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// The IRI after §5.2 preparation (escapes resolved); what rules check. Shared, not
    /// copied, by the diagnostics that quote it: a 100 MB IRI is held once.
    pub iri: Arc<str>,
    /// Where each byte of `iri` came from in [`Source::text`].
    pub map: SpanMap,
    /// Where in the document's structure it was found: `text`, `a@href`, `img@srcset`,
    /// `xmlns`, `xml:base`, `markdown:link`, ...
    pub origin: Cow<'static, str>,
    /// Byte ranges of `iri` that are template expressions (`{{ .Permalink }}`, an XSLT `{$x}`):
    /// placeholders whose characters are not checked ([`template`]). Empty for most IRIs.
    pub placeholders: Vec<Range<usize>>,
    /// The source range of the text a reader sees for the link, when the IRI is a link's target
    /// and the format gives it one: `<a href="…">text</a>`, `[text](…)`, `` `text <…>`_ ``,
    /// `https://…[text]` (what `link-text-mismatch` compares the target with).
    pub label: Option<Range<usize>>,
    /// The source ranges of the texts of Markdown reference-style links that use this
    /// definition (`[https://a.org/][ref]` for `[ref]: https://b.org/`) and may name a site (they
    /// hold a `.` or `&`), at most [`MAX_REFERENCE_TEXTS`]: compared with the target like
    /// [`Occurrence::label`]. Empty for every other occurrence.
    pub reference_texts: Vec<Range<usize>>,
}

/// The most reference-style link texts kept for one definition ([`Occurrence::reference_texts`]):
/// a page that links one definition thousands of times holds no list of thousands.
pub const MAX_REFERENCE_TEXTS: usize = 16;

impl Occurrence {
    /// The same occurrence found in a slice of the document that starts at `by`: its map and
    /// label moved by `by`.
    pub fn shift(&mut self, by: usize) {
        self.map.shift(by);
        self.label = self.label.take().map(|r| r.start + by..r.end + by);
        for r in &mut self.reference_texts {
            *r = r.start + by..r.end + by;
        }
    }

    /// An occurrence whose text was copied verbatim from `source[range]`.
    pub fn verbatim(text: &str, range: Range<usize>, origin: impl Into<Cow<'static, str>>) -> Self {
        Occurrence {
            iri: Arc::from(&text[range.clone()]),
            map: SpanMap::identity(range),
            origin: origin.into(),
            placeholders: Vec::new(),
            label: None,
            reference_texts: Vec::new(),
        }
    }

    /// Marks the template expressions of the IRI as placeholders ([`template::placeholders`]).
    pub fn with_templates(mut self) -> Self {
        self.placeholders = template::placeholders(&self.iri);
        self
    }

    /// The text the rules check: the IRI, with each placeholder replaced by a stand-in of the
    /// same length ([`template::stand_in`]) so that offsets and spans are unchanged.
    pub fn checked_text(&self) -> Cow<'_, str> {
        if self.placeholders.is_empty() {
            Cow::Borrowed(&self.iri)
        } else {
            Cow::Owned(template::stand_in(&self.iri, &self.placeholders))
        }
    }
}

/// A problem with the document itself, found while extracting (reported by an extractor rule
/// such as `xml-not-well-formed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The id of the rule that reports it (must be a rule of the registry).
    pub rule: &'static str,
    /// The source range at fault.
    pub range: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Other places that explain it (an entity's declaration).
    pub related: Vec<Related>,
    /// A milder case of its rule: reported as a warning where the rule is an error (bytes that
    /// are not UTF-8 in a file that declares nothing: only its IRIs holding them are harmed,
    /// and those are reported on their own).
    pub milder: bool,
    /// The edit of the markup that repairs it, when the extractor knows one (a full-width space
    /// where HTML needs an ASCII one).
    pub fix: Option<MarkupFix>,
}

/// A repair of a document's markup (not of an IRI): edits of [`Source::text`] that keep every
/// IRI of the document as it is. Applied by `--fix` as a safe fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkupFix {
    /// What it does (`write an ASCII space for U+3000 IDEOGRAPHIC SPACE`).
    pub message: String,
    /// Disjoint edits, sorted: the replaced range of the text and the new text.
    pub edits: Vec<(Range<usize>, String)>,
}

/// A comment of the document that may hold an inline suppression (its content starts with
/// `irilint-`); other comments are not kept. Plain text has no comments: its directives are
/// lines of their own ([`crate::suppressions`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// The whole comment, `<!--` to `-->`, in [`Source::text`].
    pub range: Range<usize>,
    /// Its content in the text (between `<!--` and `-->`).
    pub body: Range<usize>,
}

impl Comment {
    /// The comment whose content is `text[body]`, if it may be a directive.
    pub fn directive(text: &str, range: Range<usize>, body: Range<usize>) -> Option<Comment> {
        let content = text.get(body.clone())?;
        content
            .trim_start()
            .starts_with(DIRECTIVE_PREFIX)
            .then_some(Comment { range, body })
    }
}

/// What every inline suppression directive starts with.
pub const DIRECTIVE_PREFIX: &str = "irilint-";

/// Everything extracted from one document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extraction {
    /// The IRIs, in document order.
    pub occurrences: Vec<Occurrence>,
    /// Document-level problems, in document order.
    pub problems: Vec<Problem>,
    /// Comments that may hold suppression directives, in document order.
    pub comments: Vec<Comment>,
}

/// Hands every IRI occurrence of `source` to `on_occurrence`, in document order (XML: as its
/// walk reaches them), and returns the rest of the extraction (its `occurrences` empty). Each
/// is handed over as it is found: HTML as it is tokenized, XML as it is walked, plain text as
/// it is scanned, Markdown a chunk, reStructuredText and AsciiDoc a part at a time, so that a
/// document's IRIs are never all in memory at once.
pub fn extract_each(source: &Source, on_occurrence: &mut dyn FnMut(Occurrence)) -> Extraction {
    if is_docinfo(&source.path) && matches!(source.format, Format::Html | Format::Xml) {
        // Asciidoctor substitutes attribute references (`{revnumber}`, `{bootstrap-version}`)
        // in docinfo files before pasting them into the page: placeholders, as in AsciiDoc.
        return extract_each_unfiltered(source, &mut |mut occ: Occurrence| {
            let refs = asciidoc::attribute_references(&occ.iri);
            if !refs.is_empty() {
                occ.placeholders.extend(refs);
                occ.placeholders = template::disjoint(std::mem::take(&mut occ.placeholders));
            }
            on_occurrence(occ);
        });
    }
    extract_each_unfiltered(source, on_occurrence)
}

/// True for the name of an Asciidoctor docinfo file (`docinfo.html`, `docinfo-footer.xml`,
/// `<docname>-docinfo-header.html`): HTML or DocBook that Asciidoctor pastes into the
/// documents it converts, after substituting their attribute references.
fn is_docinfo(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    let stem = stem
        .strip_suffix("-header")
        .or_else(|| stem.strip_suffix("-footer"))
        .unwrap_or(stem);
    matches!(ext, "html" | "xml") && (stem == "docinfo" || stem.ends_with("-docinfo"))
}

fn extract_each_unfiltered(
    source: &Source,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> Extraction {
    let text = &source.text;
    match source.format {
        Format::Html => {
            // The IRIs a reader sees in the page's text, and those of URL attributes a false
            // separator hides from browsers, after those of its attributes.
            let (comments, problems) =
                html::for_each_page_occurrence(text, 0..text.len(), on_occurrence);
            Extraction {
                comments,
                problems,
                ..Extraction::default()
            }
        }
        Format::Text => {
            for range in text::Iris::new(text) {
                on_occurrence(text::occurrence(text, range));
            }
            Extraction::default()
        }
        Format::Markdown => {
            markdown::extract_each(text, markdown::is_mdx_path(&source.path), on_occurrence)
        }
        Format::Xml => {
            let all = xml::extract_each(text, on_occurrence);
            // An OpenDocument part's paragraphs: URLs written as text.
            if source.package == Some(Format::OpenDocument) {
                odf::extract_text(text, on_occurrence);
            }
            all
        }
        Format::Rst => rst::extract_each(text, on_occurrence),
        Format::Asciidoc => asciidoc::extract_each(text, on_occurrence),
        // An Office document part (as a package reads it: [`package`]).
        Format::Ooxml => ooxml::extract_each(text, on_occurrence),
        // A package's parts are documents of their own ([`package`]); the package as text
        // holds none.
        Format::Epub | Format::OpenDocument => Extraction::default(),
        // An action read from a PDF link ([`pdf`]).
        Format::Pdf => pdf::extract_each(source, on_occurrence),
    }
}

/// The first character boundary of `text` at or after `at`.
fn char_boundary_from(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Reads `text` a part at a time (reStructuredText, AsciiDoc): `next_end(pos)` says where the
/// part that starts at `pos` ends (past `pos`) and whether that is a forced cut, `read`
/// extracts the part, and its IRIs are handed to `on_occurrence` as the document's. Returns the
/// rest of the extraction, ranges the document's, and the number of forced cuts.
fn read_in_parts(
    text: &str,
    mut next_end: impl FnMut(usize) -> (usize, bool),
    read: impl Fn(&str) -> Extraction,
    on_occurrence: &mut dyn FnMut(Occurrence),
) -> (Extraction, usize) {
    let mut rest = Extraction::default();
    let (mut pos, mut forced) = (0, 0);
    while pos < text.len() {
        let (end, cut) = next_end(pos);
        forced += usize::from(cut);
        hand_over_part(read(&text[pos..end]), pos, on_occurrence, &mut rest);
        pos = end;
    }
    (rest, forced)
}

/// The extraction `found` of a part of a document that starts at `at`: its IRIs handed to
/// `on_occurrence`, the rest added to `rest`, every range moved to the document's.
fn hand_over_part(
    found: Extraction,
    at: usize,
    on_occurrence: &mut dyn FnMut(Occurrence),
    rest: &mut Extraction,
) {
    let moved = |r: Range<usize>| r.start + at..r.end + at;
    for mut occ in found.occurrences {
        occ.shift(at);
        on_occurrence(occ);
    }
    rest.comments
        .extend(found.comments.into_iter().map(|c| Comment {
            range: moved(c.range),
            body: moved(c.body),
        }));
    rest.problems
        .extend(found.problems.into_iter().map(|mut p| {
            p.range = moved(p.range);
            p
        }));
}

/// Every IRI occurrence and document problem in `source`.
pub fn extract(source: &Source) -> Extraction {
    let mut occurrences = Vec::new();
    let mut all = extract_each(source, &mut |o| occurrences.push(o));
    // (XML's walk reaches an element's text after the attributes inside it.)
    occurrences.sort_by_key(|o| o.map.source_range().start);
    all.occurrences = occurrences;
    all
}

/// Every string that is `start` followed by at most `most` of `pieces`, each once: the inputs
/// of tests that compare a scan with the plain search it replaced.
#[cfg(test)]
pub(crate) fn joinings(start: &str, pieces: &[&str], most: usize) -> Vec<String> {
    let mut all = vec![start.to_string()];
    let mut last = all.clone();
    for _ in 0..most {
        last = last
            .iter()
            .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
            .collect();
        all.extend(last.iter().cloned());
    }
    all.sort();
    all.dedup();
    all
}
