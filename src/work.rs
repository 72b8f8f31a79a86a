//! Counts of the work a few loops do, kept per thread, so that tests can assert that the work
//! grows in proportion to the input (4 times the input, about 4 times the work, not 16) without
//! timing anything. Each count is added once per call or per pass, never per byte: counting
//! costs nothing measurable.
//!
//! A count is a model of the cost it stands for, named by [`Work`]; `tests/linear_work.rs`
//! compares each at two sizes.

use std::cell::Cell;

/// What is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// Bytes of output buffer made ready for the decoder of a non-UTF-8 (or malformed) document:
    /// `encoding_rs` touches every page of the spare capacity it is handed, on every call, and
    /// there is one call per malformed sequence.
    DecodeBuffer,
    /// Characters of a non-ASCII IRI the look-alike and bidi rules look at one by one (a
    /// property lookup or more each); runs of ASCII they pass over in bulk are not counted.
    RuleChars,
    /// Bytes of a component scanned again to resolve bracket pairs (`bidi-component-edge`).
    BracketScan,
    /// Attribute name comparisons made to drop a tag's duplicate attributes: html5ever compares
    /// each attribute it reads with every one it kept before it in the tag.
    AttributeComparisons,
    /// Bytes of an AsciiDoc paragraph searched for the formatting mark that closes an escaped
    /// one (`\*` … `*`), which decides whether the backslash is in a link.
    ClosingMarkScan,
    /// Spellings of one resource looked at to count a place of `equivalent-variants` under its
    /// spelling.
    SpellingLookups,
    /// Messages written for the syntax rules' reports (by the parser found again, or by the
    /// rule): a report that joins a finding which keeps no more words needs none.
    SyntaxMessages,
    /// Template masks and placeholders looked at: to put a Markdown link's masked template
    /// expressions back, and to judge a report against an IRI's placeholders.
    TemplateLookups,
    /// Entity declarations looked at to find the one an IRI's character came through (XML).
    RelatedLookups,
    /// Bytes of a line searched for its ends, to read a reStructuredText reference on it.
    LineSearches,
    /// Namespace bindings looked at to tell whether XSLT's namespace is in scope, asked for
    /// each IRI of an XML element.
    NamespaceLookups,
    /// Bytes of an HTML page searched for the end of a comment.
    CommentScan,
    /// Punycode decoding, counted as the square of each label's length: each character decoded
    /// is inserted among those before it.
    PunycodeDecoding,
    /// Bytes of a plain-text IRI looked at to find where its authority starts (after `://`).
    AuthoritySearch,
    /// Bytes of a line looked at to rejoin an HTML attribute value cut at a quote inside a
    /// template expression.
    RejoinScan,
    /// Cells of the edit-distance tables computed to suggest a rule id or directive for an
    /// unknown one.
    EditDistance,
    /// Bytes of a run of backquotes (reStructuredText) walked to tell whether it opens inline
    /// markup.
    MarkupRuns,
    /// Bytes searched for where a part of a reStructuredText document ends.
    PartEnds,
    /// Bytes looked at from an opener for what closes it or where it stops: the walk from a
    /// plain-text IRI's start to its end, the search for the `]` of a `[` in it, and the
    /// searches of each extractor for the closer of a bracket, quote, backtick or template
    /// expression.
    OpenerScans,
    /// Bytes of an HTML page walked with the tokenizer's states by irilint (for the tags the
    /// tokenizer is not given whole, and for the text read for IRIs), per walk.
    MarkupWalk,
    /// Bytes of the runs of an HTML page's text searched for IRIs (decoded first), per run.
    TextRuns,
    /// Look-alike findings given their put-off words (the names of the letters, what the name
    /// reads as): those a report shows, not those withheld or only counted.
    SpokenWords,
    /// Answers about a whole DNS name computed by the IDN and look-alike rules (UTS #46's and
    /// IDNA2008's verdicts, the popular domain a name's skeleton names), not found remembered
    /// for the same name met before.
    NameAnswers,
    /// Searches of an IRI's `%HH` triplets by the percent rules: none for an IRI without a
    /// `%`, which one scan per IRI finds ([`crate::rules::IriCheck::encodes_octet`]).
    PercentSearches,
    /// Whole DNS names given to UTS #46 ToASCII (not ToUnicode) by `idn-invalid` and
    /// `idn-not-registrable`: a Unicode name IDNA2008 accepts as written (which
    /// `idn-not-registrable` asks anyway) needs only its lengths checked, not a second reading
    /// by UTS #46.
    Uts46Names,
    /// Paths whose settings are worked out from the configuration (its file found by the
    /// directory, its patterns matched, its settings looked up): a walked file takes those of
    /// the first file of its directory when every file there resolves alike
    /// ([`crate::config::Resolved::same_in_directory`]).
    SettingsResolved,
}

const KINDS: usize = 26;

/// Every kind of work, in the order of [`all`]'s counts.
pub const ALL: [Work; KINDS] = [
    Work::DecodeBuffer,
    Work::RuleChars,
    Work::BracketScan,
    Work::AttributeComparisons,
    Work::ClosingMarkScan,
    Work::SpellingLookups,
    Work::SyntaxMessages,
    Work::TemplateLookups,
    Work::RelatedLookups,
    Work::LineSearches,
    Work::NamespaceLookups,
    Work::CommentScan,
    Work::PunycodeDecoding,
    Work::AuthoritySearch,
    Work::RejoinScan,
    Work::EditDistance,
    Work::MarkupRuns,
    Work::PartEnds,
    Work::OpenerScans,
    Work::MarkupWalk,
    Work::TextRuns,
    Work::SpokenWords,
    Work::NameAnswers,
    Work::PercentSearches,
    Work::Uts46Names,
    Work::SettingsResolved,
];

thread_local! {
    static COUNTS: [Cell<u64>; KINDS] = const { [const { Cell::new(0) }; KINDS] };
}

/// Adds `n` to the count of `work` on this thread.
#[inline]
pub(crate) fn add(work: Work, n: usize) {
    COUNTS.with(|c| {
        let c = &c[work as usize];
        c.set(c.get().wrapping_add(n as u64));
    });
}

/// Runs `f` and returns its result with how much `work` it did on this thread.
pub fn measure<R>(work: Work, f: impl FnOnce() -> R) -> (R, u64) {
    let before = COUNTS.with(|c| c[work as usize].get());
    let r = f();
    let after = COUNTS.with(|c| c[work as usize].get());
    (r, after.wrapping_sub(before))
}

/// Runs `f` and returns its result with every kind of work it did on this thread, in the order
/// of [`ALL`]: for a test that looks at all of them at once.
pub fn measure_all<R>(f: impl FnOnce() -> R) -> (R, [u64; KINDS]) {
    let counts = || COUNTS.with(|c| std::array::from_fn::<u64, KINDS, _>(|i| c[i].get()));
    let before = counts();
    let r = f();
    let after = counts();
    (r, std::array::from_fn(|i| after[i].wrapping_sub(before[i])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_each_kind_at_its_index() {
        for (i, w) in ALL.iter().enumerate() {
            assert_eq!(*w as usize, i, "{w:?}");
        }
    }
}
