//! Rules on the encoding of documents (RFC 3987 §6.3: a document in a non-UTF-8 encoding must
//! not carry IRIs in UTF-8; characters its encoding cannot express are written as the format's
//! escapes).
//!
//! `encoding-declaration-mismatch` is a document rule: it compares the declarations, the BOM and
//! the bytes ([`crate::source::EncodingFacts`]). The two IRI rules look at the non-ASCII runs of
//! an IRI ([`reading`]): in a legacy document, runs written raw whose bytes are UTF-8
//! (`encoding-utf8-in-legacy-document`); elsewhere, and for runs written as escapes, runs that
//! are UTF-8 decoded as windows-1252 (`encoding-mojibake`). A character written as `&#xC3;` is
//! deliberate as far as the page's encoding goes, but the text it makes is as garbled as in a
//! UTF-8 page, so it is mojibake, not UTF-8 in the document.

mod declaration;
mod reading;

use std::ops::Range;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use super::{Check, InDocument, IriCheck, Part, PartCursor, Rule, Severity, Sink, parts};
use crate::iri::chars::{describe, escape_unsafe};
use crate::iri_fix::{Applicability, IriFix};
use crate::source::{Source, is_utf16};
use reading::{bytes_in, non_ascii_runs_from, utf8_reading, utf8_reading_of};

/// `encoding-declaration-mismatch`: the declared charset disagrees with the BOM, with another
/// declaration or with the bytes.
pub const DECLARATION_MISMATCH: Rule = Rule {
    id: "encoding-declaration-mismatch",
    group: "encoding",
    severity: Severity::Error,
    rfc: &["6.3"],
    doc: include_str!("../../rules/encoding-declaration-mismatch.md"),
    unicode_only: false,
    check: Check::Document(declaration::check),
};

/// `encoding-utf8-in-legacy-document`: UTF-8 bytes in an IRI of a non-UTF-8 document.
pub const UTF8_IN_LEGACY_DOCUMENT: Rule = Rule {
    id: "encoding-utf8-in-legacy-document",
    group: "encoding",
    severity: Severity::Error,
    rfc: &["6.3"],
    doc: include_str!("../../rules/encoding-utf8-in-legacy-document.md"),
    unicode_only: true,
    check: Check::Iri(check_utf8_in_legacy),
};

/// `encoding-mojibake`: UTF-8 decoded as windows-1252 in an IRI.
pub const MOJIBAKE: Rule = Rule {
    id: "encoding-mojibake",
    group: "encoding",
    severity: Severity::Warning,
    rfc: &["6.3", "3.2"],
    doc: include_str!("../../rules/encoding-mojibake.md"),
    unicode_only: true,
    check: Check::Iri(check_mojibake),
};

/// A legacy encoding: neither UTF-8 nor UTF-16, so a document in it must not hold UTF-8.
pub(super) fn is_legacy(encoding: &'static Encoding) -> bool {
    encoding != UTF_8 && !is_utf16(encoding)
}

/// The run of the prepared IRI was copied from the document as it stands (not produced by a
/// character reference or entity), so its bytes in the file are its bytes in the encoding.
pub(super) fn written_raw(origin: &InDocument<'_>, run: &Range<usize>) -> bool {
    let source = origin.occurrence.map.to_source(run.clone());
    origin.source.text.get(source) == origin.occurrence.iri.get(run.clone())
}

/// The bytes of the file where the raw run `source` of the text is: the run in `encoding`,
/// except that each U+FFFD that replaced undecodable bytes stands for those bytes. Pasted UTF-8
/// is rarely valid Shift_JIS or EUC-JP, so without them the UTF-8 could not be read back.
fn file_bytes(document: &Source, source: Range<usize>) -> Option<Vec<u8>> {
    let facts = &document.encoding;
    let text = document.text.get(source.clone())?;
    let mut out = Vec::new();
    let mut from = 0;
    for (at, _) in text.match_indices(char::REPLACEMENT_CHARACTER) {
        out.extend(bytes_in(&text[from..at], facts.used)?);
        let sequence = facts.invalid.at(source.start + at)?;
        out.extend_from_slice(sequence.found()?);
        from = at + char::REPLACEMENT_CHARACTER.len_utf8();
    }
    out.extend(bytes_in(&text[from..], facts.used)?);
    Some(out)
}

/// A run with the text it stands for.
struct Garbled {
    run: Range<usize>,
    meant: String,
}

/// What the author meant to write in each §4.2 component (segment, label, query part...) that
/// holds garbled runs: the component with every garbled run replaced by `write(meant)`, shown
/// at most 60 characters long. Each component is written once, however many runs it holds (a
/// component of 10,000 garbled runs was written 10,000 times), from the garbled runs `from(at)`
/// finds again from its start: the runs of an IRI are never all held at once.
struct AsMeant<'a, W, F> {
    input: &'a IriCheck<'a>,
    from: F,
    parts: PartCursor<Box<dyn Iterator<Item = Part> + 'a>>,
    write: W,
    /// The last component asked for, and its text.
    last: Option<(Range<usize>, String)>,
}

impl<'a, W, F, I> AsMeant<'a, W, F>
where
    W: Fn(&str) -> String,
    F: Fn(usize) -> I,
    I: Iterator<Item = Garbled>,
{
    fn new(input: &'a IriCheck<'a>, from: F, write: W) -> Self {
        let parts = PartCursor::new(
            Box::new(parts(input.text, input.iri)) as Box<dyn Iterator<Item = Part>>
        );
        AsMeant {
            input,
            from,
            parts,
            write,
            last: None,
        }
    }

    /// The component around `run`, as meant (runs come in order: one component at a time).
    fn around(&mut self, run: &Range<usize>) -> String {
        // Parts are in order and disjoint, and so are the runs: a cursor.
        let part = self
            .parts
            .at(run.start)
            .map(|p| p.range.clone())
            .filter(|r| run.end <= r.end)
            .unwrap_or_else(|| run.clone());
        if let Some((r, text)) = &self.last
            && *r == part
        {
            return text.clone();
        }
        let text = &self.input.text;
        let mut out = String::new();
        let mut at = part.start;
        for g in (self.from)(part.start).take_while(|g| g.run.end <= part.end) {
            out.push_str(&escape_unsafe(&text[at..g.run.start]));
            out.push_str(&(self.write)(&g.meant));
            at = g.run.end;
        }
        out.push_str(&escape_unsafe(&text[at..part.end]));
        let out = super::shorten(&out);
        self.last = Some((part, out.clone()));
        out
    }
}

/// `U+00E9 LATIN SMALL LETTER E WITH ACUTE` for one character, `` `日本` `` for more.
fn describe_meant(meant: &str) -> String {
    let mut chars = meant.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => describe(c),
        _ => format!("`{}`", escape_unsafe(meant)),
    }
}

/// ` in the path`, or nothing outside any component.
fn place(input: &IriCheck<'_>, run: &Range<usize>) -> String {
    input
        .iri
        .component_at(run.start)
        .map(|c| format!(" in the {}", c.name()))
        .unwrap_or_default()
}

/// `&#xE9;` for each character.
fn character_references(s: &str) -> String {
    s.chars().map(|c| format!("&#x{:X};", c as u32)).collect()
}

fn check_utf8_in_legacy(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let Some(origin) = input.origin else {
        return;
    };
    let encoding = origin.source.encoding.used;
    if input.text.is_ascii() || !is_legacy(encoding) {
        return;
    }
    let found = |from: usize| {
        non_ascii_runs_from(input.text, from)
            .filter(move |run| written_raw(&origin, run))
            .filter_map(move |run| {
                let source = origin.occurrence.map.to_source(run.clone());
                let bytes = file_bytes(origin.source, source)?;
                let meant = utf8_reading_of(&input.text[run.clone()], &bytes, encoding)?;
                Some(Garbled { run, meant })
            })
    };
    let mut as_meant = AsMeant::new(input, found, escape_unsafe);
    let mut as_references = AsMeant::new(input, found, character_references);
    for g in found(0) {
        let meant = as_meant.around(&g.run);
        let references = as_references.around(&g.run);
        sink.report(
            g.run.clone(),
            format!(
                "UTF-8 bytes in a {name} document: `{run}`{place} is {what} encoded as UTF-8, \
                 read as {name}",
                name = encoding.name(),
                place = place(input, &g.run),
                run = escape_unsafe(&input.text[g.run.clone()]),
                what = describe_meant(&g.meant),
            ),
            Some(format!(
                "it was meant to read `{meant}`: write `{references}` (numeric character \
                 references), or convert the document to UTF-8 and declare it; as written, \
                 the IRI names another resource"
            )),
        );
        // Unsafe: the characters the author meant name another resource than those written.
        // Rendering writes them in the page's encoding, or as references where it has none.
        sink.attach_fix(IriFix::replace(
            Applicability::Unsafe,
            format!("write `{}`, read as UTF-8", escape_unsafe(&g.meant)),
            g.run.clone(),
            g.meant.clone(),
        ));
    }
}

fn check_mojibake(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    // A garbled run starts with a UTF-8 lead byte read as windows-1252 (`Â`…`ô`, as
    // `utf8_reading` asks first): a text without one has none (Cyrillic, CJK, most accents), and
    // every IRI with a look-alike letter asks it twice (the rule, and `garbled_runs`).
    if input.text.is_ascii()
        || !input
            .text
            .chars()
            .any(|c| ('\u{C2}'..='\u{F4}').contains(&c))
    {
        return;
    }
    // In a legacy document, raw runs are `encoding-utf8-in-legacy-document`'s.
    let legacy = input.origin.filter(|o| is_legacy(o.source.encoding.used));
    let found = |from: usize| {
        non_ascii_runs_from(input.text, from)
            .filter(move |run| legacy.is_none_or(|o| !written_raw(&o, run)))
            .filter_map(move |run| {
                let meant = utf8_reading(&input.text[run.clone()], WINDOWS_1252)?;
                Some(Garbled { run, meant })
            })
    };
    let mut as_meant = AsMeant::new(input, found, escape_unsafe);
    for g in found(0) {
        let meant = as_meant.around(&g.run);
        sink.report(
            g.run.clone(),
            format!(
                "mojibake: `{run}`{place} is {what} encoded as UTF-8 and decoded as \
                 windows-1252",
                place = place(input, &g.run),
                run = escape_unsafe(&input.text[g.run.clone()]),
                what = describe_meant(&g.meant),
            ),
            Some(format!(
                "write `{meant}`: the text was decoded with the wrong encoding before it was \
                 written here, and as written the IRI names another resource"
            )),
        );
        sink.attach_fix(IriFix::replace(
            Applicability::Unsafe,
            format!("write `{}`, read as UTF-8", escape_unsafe(&g.meant)),
            g.run.clone(),
            g.meant.clone(),
        ));
    }
}
