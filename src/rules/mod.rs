//! The rule engine: the registry of rules, which of them run, and running them on an IRI.
//!
//! A rule is a small unit with an id, a group, a default severity, the RFC 3987 sections it rests
//! on, its documentation (`rules/<id>.md`, compiled in) and a check. IRI checks receive the
//! prepared IRI parsed once ([`IriCheck`], with the document it came from when there is one) and
//! push [`Finding`]s with byte ranges in the prepared IRI; mapping them to the source is the
//! caller's business. Document checks (the encoding declaration) run once per document on its
//! [`Source`] and report [`Problem`]s located in its text, as extractors do.

mod bidi;
mod delimiter;
pub mod docs;
mod encoding;
pub mod equivalence;
mod host_labels;
mod html;
mod idn;
mod idn_registrable;
mod invisible;
mod link_text;
mod lookalike;
mod lookalike_domain;
mod name_memo;
mod normalization;
mod pdf;
mod percent;
mod precedence;
mod restricted;
pub(crate) mod selection;
mod spoof_pattern;
mod spoof_tables;
mod style;
pub mod suppression;
mod syntax;
mod top_domains;
mod whole_script;
mod xml;

use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;

pub use lookalike_domain::imitated_domain;
pub use selection::{Selection, SelectionError};

use crate::extract::{Occurrence, Problem, Related, template};
use crate::iri::{self, Component, Iri};
use crate::source::Source;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Style or normalization advice; off by default.
    Info,
    /// A likely problem.
    Warning,
    /// Spoofing or breakage risk; makes the run exit with 1.
    Error,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One rule of the catalog.
#[derive(Debug)]
pub struct Rule {
    /// The public id (`bidi-formatting-character`): used in config, `--select`, JSON.
    pub id: &'static str,
    /// The group `--select` and `--ignore` also accept (`syntax`, `bidi`, ...).
    pub group: &'static str,
    /// Severity unless configured otherwise.
    pub severity: Severity,
    /// RFC 3987 sections, most specific first (`["4.1", "8"]`).
    pub rfc: &'static [&'static str],
    /// The rule's documentation, `rules/<id>.md`.
    pub doc: &'static str,
    /// True when the rule can only fire on non-ASCII IRIs (skipped on the ASCII fast path).
    pub unicode_only: bool,
    /// The check.
    pub check: Check,
}

/// How a rule finds its problems.
#[derive(Debug, Clone, Copy)]
pub enum Check {
    /// Runs on each prepared IRI.
    Iri(fn(&IriCheck<'_>, &mut Sink<'_>)),
    /// Runs once on each document: its text and how its bytes were decoded.
    Document(fn(&Source, &mut DocumentSink<'_>)),
    /// Reported by a format's extractor as an [`crate::extract::Problem`] with this rule's id.
    Extractor,
    /// Runs once over the whole project, after every file is checked ([`equivalence`]).
    Project,
    /// Reported by the inline suppressions ([`crate::suppressions`]) after the other
    /// rules ran on the document.
    Directives,
}

impl Rule {
    /// The one-line summary: the first `> ` line of the rule's doc.
    pub fn summary(&self) -> &'static str {
        docs::summary(self.doc)
    }

    /// `4.1, 8`: every section the rule rests on.
    pub fn rfc_sections(&self) -> String {
        self.rfc.join(", ")
    }
}

/// Every rule, in catalog order.
pub static RULES: &[Rule] = &[
    syntax::SYNTAX_INVALID,
    syntax::BAD_PERCENT_ENCODING,
    syntax::UNWISE_ASCII,
    syntax::PRIVATE_USE,
    syntax::CONTROL_CHARACTER,
    bidi::FORMATTING_CHARACTER,
    bidi::MIXED_DIRECTION,
    bidi::COMPONENT_EDGE,
    invisible::INVISIBLE_CHARACTER,
    normalization::NOT_NFC,
    normalization::NOT_NFKC,
    delimiter::CONFUSABLE_DELIMITER,
    lookalike::MIXED_SCRIPT,
    lookalike::CONFUSABLE,
    restricted::RESTRICTED_CHARACTER,
    spoof_pattern::SPOOF_PATTERN,
    lookalike_domain::LOOKALIKE_DOMAIN,
    link_text::LINK_TEXT_MISMATCH,
    idn::IDN_INVALID,
    idn_registrable::IDN_NOT_REGISTRABLE,
    encoding::DECLARATION_MISMATCH,
    encoding::UTF8_IN_LEGACY_DOCUMENT,
    encoding::MOJIBAKE,
    percent::NON_UTF8,
    percent::OVERLONG_UTF8,
    percent::ENCODED_FORBIDDEN,
    percent::LOWERCASE_HEX,
    percent::ENCODED_UNRESERVED,
    style::CASE_SCHEME_HOST,
    style::DOT_SEGMENT,
    xml::NOT_WELL_FORMED,
    xml::ENTITY_LIMIT,
    xml::EXTERNAL_ENTITY,
    html::UNLINKED_URL_ATTRIBUTE,
    pdf::UNSAFE_ACTION,
    equivalence::EQUIVALENT_VARIANTS,
    suppression::UNUSED_SUPPRESSION,
];

/// The rule with id `id`.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// A problem a rule found in a prepared IRI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule that fired.
    pub rule: &'static Rule,
    /// Severity after configuration.
    pub severity: Severity,
    /// Byte range of the characters at fault in the prepared IRI (the first, when there are
    /// more).
    pub range: Range<usize>,
    /// The other places in the same component where the rule found the same problem, in
    /// order: one finding per IRI, rule and component in a document ([`check_occurrence`]).
    /// At most [`MAX_PLACES`] are kept.
    pub also: Vec<Range<usize>>,
    /// How many more places there are beyond those kept (counted, not located).
    pub more: usize,
    /// The component they are in, if any.
    pub component: Option<Component>,
    /// What is wrong, naming characters by code point (never raw); empty in a withheld
    /// finding until it speaks ([`Finding::unspoken`]).
    pub message: String,
    /// What to write instead.
    pub help: Option<String>,
    /// The edit that makes the IRI right, when the rule knows one.
    pub fix: Option<crate::iri_fix::IriFix>,
    /// The findings of less specific look-alike rules on the same host labels that this one
    /// stands for: one finding per look-alike host ([`precedence`]). They are not reported
    /// unless this finding is suppressed by name.
    pub withheld: Vec<Finding>,
    /// True when the finding says the host imitates a name the document shows
    /// (`link-text-mismatch`'s look-alike case), which makes it the most specific look-alike
    /// finding.
    pub imitation: bool,
    /// The words of a finding withheld under another ([`Finding::withheld`]), not built yet:
    /// `message` is empty and `help` is `None` until [`Finding::speak`] builds them.
    pub unspoken: Option<Unspoken>,
}

impl Finding {
    /// Builds the message and help of a finding whose words were put off ([`Unspoken`]): a
    /// withheld finding that comes to speak (its speaker suppressed by name) is given them
    /// here. A finding with its words already is left as it is.
    pub fn speak(&mut self) {
        if let Some(words) = self.unspoken.take() {
            let (message, help) = words.build();
            self.message = message;
            self.help = help;
        }
    }
}

/// The message and help of a look-alike finding, put off until the finding is shown: most are
/// withheld under a more specific finding on the same host ([`precedence`]) and shown only if
/// that one is suppressed by name, and building their words (the names of the letters, what
/// the label reads as) was a sixth of what a look-alike host cost.
#[derive(Clone)]
pub struct Unspoken {
    words: Arc<dyn Fn() -> (String, Option<String>) + Send + Sync>,
    /// The finding's other places and where they are, for the message's count of them (set
    /// when the findings of an IRI are finished, as [`finish_merged`] does for the others).
    places: Option<(usize, Option<Component>)>,
}

impl Unspoken {
    /// Words that `words` builds when they are asked for.
    pub fn new(words: impl Fn() -> (String, Option<String>) + Send + Sync + 'static) -> Self {
        Unspoken {
            words: Arc::new(words),
            places: None,
        }
    }

    /// The message and help, as the finding would have had them from the start.
    pub fn build(&self) -> (String, Option<String>) {
        crate::work::add(crate::work::Work::SpokenWords, 1);
        let (message, help) = (self.words)();
        match self.places {
            Some((more, component)) => (merged_message(&message, more, component), help),
            None => (message, help),
        }
    }
}

impl std::fmt::Debug for Unspoken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (message, help) = self.build();
        f.debug_struct("Unspoken")
            .field("message", &message)
            .field("help", &help)
            .finish()
    }
}

/// Equal when they say the same.
impl PartialEq for Unspoken {
    fn eq(&self, other: &Self) -> bool {
        self.build() == other.build()
    }
}
impl Eq for Unspoken {}

impl PartialEq for Rule {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for Rule {}

/// What a check sees: the prepared IRI and its components, parsed once.
pub struct IriCheck<'a> {
    /// The prepared IRI.
    pub text: &'a str,
    /// Its decomposition and syntax issues.
    pub iri: &'a Iri,
    /// The document and occurrence it was found in; `None` for an IRI checked on its own.
    pub origin: Option<InDocument<'a>>,
    /// The labels of its DNS names that hold Unicode, found the first time a host look-alike
    /// rule asks (three rules share them).
    host_names: OnceCell<Vec<host_labels::NameFound>>,
    /// What a script rule found of the IRI's words that are not plainly of one script (script
    /// sets, the tally of their letters), by unit and word start, for the other one to use.
    script_words: RefCell<BTreeMap<(usize, usize), lookalike::WordFacts>>,
    /// Whether the text holds a `%`, found by one scan when the IRI is checked: most IRIs have
    /// none, and each rule that reads `%XX` escapes then returns without a search of its own.
    has_percent: bool,
}

impl IriCheck<'_> {
    /// Whether the IRI's text holds a `%` (one scan when the IRI is checked, for every rule).
    pub fn has_percent(&self) -> bool {
        self.has_percent
    }

    /// [`iri::percent::encodes_octet`] of the IRI's text, answered at once for an IRI without
    /// a `%` (three rules ask it of every IRI).
    pub fn encodes_octet(&self, wanted: impl Fn(u8) -> bool) -> bool {
        if !self.has_percent {
            return false;
        }
        crate::work::add(crate::work::Work::PercentSearches, 1);
        iri::percent::encodes_octet(self.text, wanted)
    }
}

/// Where a checked IRI was written: what the encoding rules need to tell characters written
/// in the document's own encoding from characters written as escapes.
#[derive(Debug, Clone, Copy)]
pub struct InDocument<'a> {
    /// The document.
    pub source: &'a Source,
    /// The occurrence, with the map from the prepared IRI back to the text.
    pub occurrence: &'a Occurrence,
}

/// Where a document check reports problems; it fills in the rule.
pub struct DocumentSink<'a> {
    rule: &'static Rule,
    out: &'a mut Vec<Problem>,
}

impl DocumentSink<'_> {
    /// Reports the characters at `range` of the document's text.
    pub fn report(
        &mut self,
        range: Range<usize>,
        message: String,
        help: Option<String>,
        related: Vec<Related>,
    ) {
        self.out.push(Problem {
            rule: self.rule.id,
            range,
            message,
            help,
            related,
            milder: false,
            fix: None,
        });
    }

    /// Reports a milder case of the rule: a warning where the rule is an error.
    pub fn report_milder(
        &mut self,
        range: Range<usize>,
        message: String,
        help: Option<String>,
        related: Vec<Related>,
    ) {
        self.report(range, message, help, related);
        if let Some(last) = self.out.last_mut() {
            last.milder = true;
        }
    }
}

/// Where a check reports findings; it fills in the rule, severity and component.
pub struct Sink<'a> {
    rule: &'static Rule,
    severity: Severity,
    iri: &'a Iri,
    input: &'a IriCheck<'a>,
    out: &'a mut Findings,
}

impl Sink<'_> {
    /// Reports the characters at `range` of the prepared IRI.
    pub fn report(&mut self, range: Range<usize>, message: String, help: Option<String>) {
        let severity = self.severity;
        self.report_as(severity, range, message, help);
    }

    /// [`Sink::report`], with the message and help that `words` builds only when the report
    /// does not join a finding that would drop them ([`Sink::joins`]).
    pub fn report_with(
        &mut self,
        range: Range<usize>,
        words: impl FnOnce() -> (String, Option<String>),
    ) {
        let severity = self.severity;
        let (message, help) = if self.joins(severity, range.start) {
            (String::new(), None)
        } else {
            crate::work::add(crate::work::Work::SyntaxMessages, 1);
            words()
        };
        self.report_as(severity, range, message, help);
    }

    /// Reports with a severity other than the rule's (a rule that is a warning in the path but
    /// only advice in the query). A rule configured below its default stays there.
    pub fn report_as(
        &mut self,
        severity: Severity,
        range: Range<usize>,
        message: String,
        help: Option<String>,
    ) {
        let severity = self.effective(severity);
        let component = self.iri.component_at(range.start);
        self.out.push(
            self.input,
            Finding {
                rule: self.rule,
                severity,
                range,
                also: Vec::new(),
                more: 0,
                component,
                message,
                help,
                fix: None,
                withheld: Vec::new(),
                imitation: false,
                unspoken: None,
            },
        );
    }

    /// [`Sink::report_as`] with words built only if the finding is shown ([`Unspoken`]): for
    /// the look-alike rules, whose findings are mostly withheld under a more specific one. A
    /// report that joins a finding already made drops them unbuilt, as it drops any.
    pub fn report_unspoken(
        &mut self,
        severity: Severity,
        range: Range<usize>,
        words: impl Fn() -> (String, Option<String>) + Send + Sync + 'static,
    ) {
        self.report_as(severity, range, String::new(), None);
        if let Some((i, false)) = self.out.last {
            self.out.list[i].unspoken = Some(Unspoken::new(words));
        }
    }

    /// Reports, as an error, that the host at `range` imitates a name the document shows: the
    /// most specific look-alike finding ([`Finding::imitation`]).
    pub fn report_imitation(&mut self, range: Range<usize>, message: String, help: Option<String>) {
        self.report_as(Severity::Error, range, message, help);
        if let Some((i, false)) = self.out.last {
            self.out.list[i].imitation = true;
        }
    }

    /// The severity a report asking for `severity` gets: a rule configured below its default
    /// stays there.
    fn effective(&self, severity: Severity) -> Severity {
        if self.severity < self.rule.severity {
            self.severity.min(severity)
        } else {
            severity
        }
    }

    /// True when a report with `severity` at `at` would join a finding already made (one per
    /// rule, severity and component) that has its fix or no room for more places: such a
    /// report's message, help and fix title are dropped, so a rule need not build them (an IRI
    /// of a million hidden characters built a million messages).
    pub fn joins(&self, severity: Severity, at: usize) -> bool {
        let key = (
            self.rule.id,
            self.effective(severity),
            self.iri.component_at(at),
        );
        let Some(i) = self.out.merged_index(&key) else {
            return false;
        };
        let first = &self.out.list[i];
        first.fix.is_some() || first.also.len() + 1 >= MAX_PLACES
    }

    /// True when a report with `severity` at `at` would be one more place of a finding already
    /// made (one per rule, severity and component), whose message and help are then dropped: a
    /// rule that attaches no fix need not build them (a look-alike host names each of its
    /// letters once per finding, not once per letter).
    pub fn merges(&self, severity: Severity, at: usize) -> bool {
        let key = (
            self.rule.id,
            self.effective(severity),
            self.iri.component_at(at),
        );
        self.out.merged.is_some() && self.out.merged_index(&key).is_some()
    }

    /// Attaches `fix` to the finding reported last (rules call it right after reporting).
    pub fn attach_fix(&mut self, fix: crate::iri_fix::IriFix) {
        self.out.attach_fix(fix);
    }

    /// The severity the rule runs with.
    pub fn severity(&self) -> Severity {
        self.severity
    }
}

/// What one finding per IRI stands for: its rule, severity and component.
type MergeKey = (&'static str, Severity, Option<Component>);

/// The hasher of maps whose keys no input can choose to collide: [`MergeKey`]s (a rule's id,
/// a severity, a component) and the skeleton index of popular domains (built from the bundled
/// list, never added to from a document). SipHash, the standard maps' hasher, resists chosen
/// keys at about 150 instructions for a short key; this one (FxHash's multiply, 8 bytes at a
/// time) takes a few dozen: 20,000 look-alike hosts hashed their findings' keys 100,000 times.
pub(super) type FastHash = std::hash::BuildHasherDefault<FastHasher>;

/// The hasher of [`FastHash`].
#[derive(Default)]
pub(super) struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        // The multiply leaves the low bits weakest, and the table indexes by them.
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn write_isize(&mut self, i: isize) {
        self.add(i as u64);
    }
}

impl FastHasher {
    fn add(&mut self, word: u64) {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

/// The most places a finding keeps (its first and [`Finding::also`]); more are counted in
/// [`Finding::more`] and named in its message, and its fix edits the first ones (`--fix` makes
/// as many passes as it needs).
pub const MAX_PLACES: usize = 1000;

/// The most replacement text a finding's fix holds, all its edits together: a fix that
/// percent-encodes a megabyte of spaces would hold three megabytes, and again as the document
/// spells it. Edits past it are not offered: `--fix` makes the first ones and can run again,
/// and a single edit longer than this is left to be made by hand. A rule that would build such
/// an edit asks [`fix_fits`] first.
pub const MAX_FIX_BYTES: usize = 64 * 1024;

/// True when an edit of `len` bytes of replacement fits in a fix ([`MAX_FIX_BYTES`]).
pub(crate) fn fix_fits(len: usize) -> bool {
    len <= MAX_FIX_BYTES
}

/// The findings of one IRI as the rules report them. In a document ([`check_occurrence`])
/// there is one finding per rule, severity and component: a report of the same problem in the
/// same component adds its place to the first finding's [`Finding::also`] and its fix to the
/// first one's, and its message is dropped at once, so that an IRI with a million hidden
/// characters holds one finding and a million ranges, not a million messages. Reports that
/// are not the IRI's own are dropped as they come: inside a template placeholder, or an
/// appearance finding inside a garbled run.
struct Findings {
    list: Vec<Finding>,
    /// Where each (rule, severity, component) is in `list`, when merging.
    merged: Option<HashMap<MergeKey, usize, FastHash>>,
    /// The key merged last and its place in `list`: a dense run of faulty characters reports
    /// under one key again and again, found here without hashing it.
    recent: Option<(MergeKey, usize)>,
    /// The finding the last report went to, and whether it was added to an earlier one; `None`
    /// when it was dropped.
    last: Option<(usize, bool)>,
    /// Template placeholders of the occurrence (not the IRI's characters).
    placeholders: Vec<Range<usize>>,
    /// The garbled runs, found the first time an appearance rule reports.
    garbled: OnceCell<Vec<Range<usize>>>,
}

impl Findings {
    fn new(merge: bool, placeholders: &[Range<usize>]) -> Self {
        Findings {
            list: Vec::new(),
            merged: merge.then(HashMap::default),
            recent: None,
            last: None,
            // Sorted and disjoint, as the placeholder searches need (they mostly are already).
            placeholders: template::disjoint(placeholders.to_vec()),
            garbled: OnceCell::new(),
        }
    }

    fn push(&mut self, input: &IriCheck<'_>, mut f: Finding) {
        self.last = None;
        if !self.placeholders.is_empty() {
            if template::covered(&self.placeholders, &f.range) {
                return;
            }
            // A finding on a word the placeholder is part of (`0000000mаchine` for
            // `[user@]mаchine`) underlines the IRI's own characters only.
            f.range = template::clip(&self.placeholders, f.range.clone());
        }
        if APPEARANCE_RULES.contains(&f.rule.id) {
            let garbled = self.garbled.get_or_init(|| garbled_runs(input));
            if garbled
                .iter()
                .any(|g| g.start <= f.range.start && f.range.end <= g.end)
            {
                return;
            }
        }
        let key = (f.rule.id, f.severity, f.component);
        let known = self.merged_index(&key);
        if let Some(merged) = &mut self.merged {
            if let Some(i) = known {
                self.recent = Some((key, i));
                let first = &mut self.list[i];
                if first.also.len() + 1 < MAX_PLACES {
                    first.also.push(f.range);
                    self.last = Some((i, true));
                } else {
                    // Counted, not kept: memory stays bounded per finding, whatever the IRI.
                    first.more += 1;
                }
                return;
            }
            merged.insert(key, self.list.len());
        }
        self.last = Some((self.list.len(), false));
        self.list.push(f);
    }

    /// Where the finding merged under `key` is in `list`, if there is one.
    fn merged_index(&self, key: &MergeKey) -> Option<usize> {
        match &self.recent {
            Some((k, i)) if k == key => Some(*i),
            _ => self.merged.as_ref()?.get(key).copied(),
        }
    }

    fn attach_fix(&mut self, mut fix: crate::iri_fix::IriFix) {
        let Some((i, joined)) = self.last else {
            return;
        };
        // A fix that would edit a template placeholder is not the IRI's to make.
        if fix
            .edits
            .iter()
            .any(|e| template::touches(&self.placeholders, &e.range))
        {
            return;
        }
        // With a placeholder, what the IRI will be is not known (an attribute reference may hold
        // the scheme and host, and `%5C` for a `\` is equivalent only where `\` is no `/`): no
        // fix of it keeps its meaning for certain.
        if !self.placeholders.is_empty() {
            fix.applicability = crate::iri_fix::Applicability::Unsafe;
        }
        let f = &mut self.list[i];
        let size = |fix: &crate::iri_fix::IriFix| {
            fix.edits.iter().map(|e| e.replacement.len()).sum::<usize>()
        };
        match (&mut f.fix, joined) {
            (Some(first), true) => {
                if !fix_fits(size(first) + size(&fix)) {
                    return;
                }
                first.applicability = first.applicability.max(fix.applicability);
                first.edits.extend(fix.edits);
            }
            (slot, _) => {
                if fix_fits(size(&fix)) {
                    *slot = Some(fix);
                }
            }
        }
    }

    /// The findings in order, each merged one's message saying how many places it has, with
    /// one finding per look-alike host ([`precedence`]).
    /// With `speak`, what speaks is given its words now; without, the caller gives them to the
    /// findings it shows ([`check_occurrence`]). What is withheld keeps them unbuilt.
    fn finish(self, input: &IriCheck<'_>, speak: bool) -> Vec<Finding> {
        let mut out = self.list;
        for f in &mut out {
            if !f.also.is_empty() || f.more > 0 {
                finish_merged(f);
            }
        }
        let mut out = precedence::one_per_host(input.text, input.iri, out);
        if speak {
            for f in &mut out {
                f.speak();
            }
        }
        sort_findings(&mut out);
        out
    }
}

/// Sorts findings by place and rule, and those each withholds likewise.
fn sort_findings(list: &mut [Finding]) {
    list.sort_by(|a, b| {
        (a.range.start, a.range.end, a.rule.id).cmp(&(b.range.start, b.range.end, b.rule.id))
    });
    for f in list.iter_mut().filter(|f| !f.withheld.is_empty()) {
        sort_findings(&mut f.withheld);
    }
}

/// The message of a finding with other places says how many, and its joined fix's edits are
/// sorted and disjoint (an edit overlapping the one before it is left for the next pass of
/// `--fix`).
fn finish_merged(f: &mut Finding) {
    let more = f.also.len() + f.more;
    match &mut f.unspoken {
        Some(words) => words.places = Some((more, f.component)),
        None => f.message = merged_message(&f.message, more, f.component),
    }
    if let Some(fix) = &mut f.fix
        && fix.edits.len() > 1
    {
        fix.edits.sort_by_key(|e| (e.range.start, e.range.end));
        let mut end = 0;
        fix.edits.retain(|e| {
            let keep = e.range.start >= end;
            if keep {
                end = e.range.end;
            }
            keep
        });
        let more = fix.edits.len() - 1;
        if more > 0 {
            fix.message = format!(
                "{}, and likewise at {more} more place{}",
                fix.message,
                if more == 1 { "" } else { "s" }
            )
            .into();
        }
    }
}

/// The message of a finding with `more` other places in `component`.
fn merged_message(message: &str, more: usize, component: Option<Component>) -> String {
    let place = component.map_or("IRI", Component::name);
    format!("{message} (and {more} more like it in the {place})")
}

/// One component in the sense of RFC 3987 §4.2 (bidi components) and of the script rules: each
/// host label, the userinfo, each path segment, each query name and each query value, the
/// fragment. Delimiters between them belong to none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Which IRI component it is in.
    pub component: Component,
    /// Its byte range in the prepared IRI (may be empty).
    pub range: Range<usize>,
}

/// The §4.2 components of the IRI parsed from `text`, in order, found as they are asked for
/// (an IRI with a million `/` holds no million parts).
pub fn parts<'t>(text: &'t str, iri: &'t Iri) -> impl Iterator<Item = Part> + Clone + 't {
    fn part(component: Component) -> impl Fn(Range<usize>) -> Part + Clone {
        move |range| Part { component, range }
    }
    let authority = iri.authority.as_ref();
    let userinfo = authority.and_then(|a| a.userinfo.clone());
    let labels = authority.map(|a| a.host.labels(text));
    let query = iri.query_parts(text).flat_map(|q| {
        std::iter::once(q.name)
            .chain(q.value)
            .map(part(Component::Query))
    });
    userinfo
        .into_iter()
        .map(part(Component::Userinfo))
        .chain(labels.into_iter().flatten().map(part(Component::Host)))
        .chain(iri.segments(text).map(part(Component::Path)))
        .chain(query)
        .chain(iri.fragment.clone().map(part(Component::Fragment)))
}

/// The part that holds each of a sequence of positions in increasing order: a cursor over
/// [`parts`], not a search for each.
pub struct PartCursor<I: Iterator<Item = Part>> {
    parts: std::iter::Peekable<I>,
}

impl<I: Iterator<Item = Part>> PartCursor<I> {
    /// A cursor at the first part.
    pub fn new(parts: I) -> Self {
        PartCursor {
            parts: parts.peekable(),
        }
    }

    /// The part that holds byte `i`, if any (the scheme, the port and IP literals are in none);
    /// `i` must not be before a position asked for earlier.
    pub fn at(&mut self, i: usize) -> Option<&Part> {
        while self.parts.peek().is_some_and(|p| p.range.end <= i) {
            self.parts.next();
        }
        self.parts.peek().filter(|p| p.range.contains(&i))
    }
}

/// True when the IRI is a `javascript:` reference: code that a browser runs, not an IRI it
/// resolves, so the syntax rules (spaces, quotes, brackets in code) do not apply; the rules on
/// hidden characters (bidi, invisible, control) still do, a reader being deceived the same way.
fn is_script(text: &str, iri: &Iri) -> bool {
    iri.scheme
        .as_ref()
        .is_some_and(|s| text[s.clone()].eq_ignore_ascii_case("javascript"))
}

/// True when the IRI has a host label in ACE form (`xn--`), which the Unicode rules decode.
fn has_ace_label(text: &str, iri: &Iri) -> bool {
    iri.authority.as_ref().is_some_and(|a| {
        a.host.labels(text).any(|l| {
            text.as_bytes()[l.clone()]
                .get(..4)
                .is_some_and(|p| p.eq_ignore_ascii_case(b"xn--"))
        })
    })
}

/// Runs the selected rules on one prepared IRI.
pub fn check(text: &str, selection: &Selection) -> Vec<Finding> {
    let parsed = iri::analyze(text);
    check_parsed(text, &parsed, selection)
}

/// Runs the selected rules on an IRI already parsed with [`iri::analyze`].
pub fn check_parsed(text: &str, parsed: &Iri, selection: &Selection) -> Vec<Finding> {
    run_iri_checks(text, parsed, None, selection, false, &[], true)
}

/// Runs the selected rules on an IRI found in a document, its
/// [`Occurrence::checked_text`] already parsed with [`iri::analyze`]: one finding per rule,
/// severity and component, with every place ([`Findings`]). Template placeholders are not the
/// IRI's: findings wholly inside one are dropped, and so are fixes that would edit one.
/// The findings' words may be put off: the caller calls [`Finding::speak`] on those it shows
/// (a file lists its first findings and only counts the rest, whose words no one reads).
pub fn check_occurrence(
    source: &Source,
    occurrence: &Occurrence,
    parsed: &Iri,
    selection: &Selection,
) -> Vec<Finding> {
    let origin = InDocument { source, occurrence };
    if occurrence.placeholders.is_empty() {
        return run_iri_checks(
            &occurrence.iri,
            parsed,
            Some(origin),
            selection,
            true,
            &[],
            false,
        );
    }
    let text = occurrence.checked_text();
    run_iri_checks(
        &text,
        parsed,
        Some(origin),
        selection,
        true,
        &occurrence.placeholders,
        false,
    )
}

/// The IRI of `occurrence` as it reads after RFC 3987 §3.1 step 1b, when that differs from the
/// prepared text: in a document in a legacy encoding, characters written raw are normalized to
/// NFC by the conversion to Unicode (windows-1258 writes `ế` as `ê` + U+0301).
pub fn legacy_nfc(source: &Source, occurrence: &Occurrence) -> Option<String> {
    normalization::legacy_nfc(InDocument { source, occurrence })
}

/// Runs the selected document rules on `source`; the problems carry their rule's id.
pub fn check_document(source: &Source, selection: &Selection) -> Vec<Problem> {
    let mut out = Vec::new();
    for (rule, _) in selection.enabled() {
        if let Check::Document(check) = rule.check {
            check(
                source,
                &mut DocumentSink {
                    rule,
                    out: &mut out,
                },
            );
        }
    }
    out
}

/// Runs the selected rules on an IRI; `merge`: one finding per rule, severity and component.
fn run_iri_checks(
    text: &str,
    parsed: &Iri,
    origin: Option<InDocument<'_>>,
    selection: &Selection,
    merge: bool,
    placeholders: &[Range<usize>],
    speak: bool,
) -> Vec<Finding> {
    // The ASCII fast path: most IRIs skip every Unicode rule. An `xn--` label is ASCII but
    // decodes to Unicode, so it takes the slow path.
    let ascii = text.is_ascii() && !has_ace_label(text, parsed);
    let input = IriCheck {
        text,
        iri: parsed,
        origin,
        host_names: OnceCell::new(),
        script_words: RefCell::default(),
        has_percent: memchr::memchr(b'%', text.as_bytes()).is_some(),
    };
    let mut out = Findings::new(merge, placeholders);
    let code = is_script(text, parsed);
    for (rule, severity) in selection.iri_rules(ascii) {
        if code && rule.group == "syntax" && rule.id != syntax::CONTROL_CHARACTER.id {
            continue;
        }
        let Check::Iri(check) = rule.check else {
            continue;
        };
        let mut sink = Sink {
            rule,
            severity,
            iri: parsed,
            input: &input,
            out: &mut out,
        };
        check(&input, &mut sink);
    }
    out.finish(&input, speak)
}

/// Rules that say a run of characters is text garbled by a wrong decoding.
const GARBLING_RULES: [&Rule; 2] = [&encoding::MOJIBAKE, &encoding::UTF8_IN_LEGACY_DOCUMENT];

/// Rules about how characters look, which a garbled run trips by accident: the `¼` of `Ã¼` is
/// not a compatibility character anyone chose, so a finding on it inside a garbled run only
/// repeats the garbling finding with a wrong explanation.
const APPEARANCE_RULES: [&str; 3] = [
    normalization::NOT_NFKC.id,
    lookalike::MIXED_SCRIPT.id,
    lookalike::CONFUSABLE.id,
];

/// The runs of `input` the garbling rules find, whether or not they are selected: an
/// appearance finding inside one is dropped, its explanation being wrong either way.
/// (Appearance findings on non-ASCII text are rare, so the garbling checks rarely run twice.)
fn garbled_runs(input: &IriCheck<'_>) -> Vec<Range<usize>> {
    let mut scratch = Findings::new(true, &[]);
    for rule in GARBLING_RULES {
        if let Check::Iri(check) = rule.check {
            let mut sink = Sink {
                rule,
                severity: rule.severity,
                iri: input.iri,
                input,
                out: &mut scratch,
            };
            check(input, &mut sink);
        }
    }
    scratch
        .list
        .into_iter()
        .flat_map(|f| std::iter::once(f.range).chain(f.also))
        .collect()
}

/// [`shorten`] of `escape_unsafe(s)`, in work bounded by the characters it shows, not by the
/// length of `s`: a rule quoting the component of each of its 10,000 places in one long
/// component escaped the whole component 10,000 times.
pub(crate) fn shorten_escaped(s: &str) -> String {
    shorten_written(s, crate::iri::chars::push_visible)
}

/// `map(run)` (its NFC or NFKC form) for a message, escaped and shortened as
/// [`shorten_escaped`] shortens, in work and memory bounded whatever the run's length: a long
/// run is mapped only at its first and last characters, which are all the message shows (a
/// mapping may make a run 18 times longer, and a megabyte run was mapped whole for one sentence).
pub(crate) fn shorten_mapped(run: &str, map: impl Fn(&str) -> String) -> String {
    // Enough characters at each end that their mapping still shows 29 (a mapping makes at most
    // three characters one: Hangul jamo composing into a syllable).
    const ENDS: usize = 120;
    let n = run.chars().count();
    if n <= 2 * ENDS {
        return shorten_escaped(&map(run));
    }
    let at = |k: usize| run.char_indices().nth(k).map_or(run.len(), |(i, _)| i);
    let (head, tail) = (&run[..at(ENDS)], &run[at(n - ENDS)..]);
    shorten_escaped(&(map(head) + &map(tail)))
}

/// The characters of `mapped` collected into a fix's replacement, `None` past
/// [`MAX_FIX_BYTES`] (the collection stops there: the mapping of a long run is never held).
pub(crate) fn collect_for_fix(mapped: impl Iterator<Item = char>) -> Option<String> {
    let mut out = String::new();
    for c in mapped {
        if out.len() + c.len_utf8() > MAX_FIX_BYTES {
            return None;
        }
        out.push(c);
    }
    Some(out)
}

/// `percent::encode(s)` for a message, shortened as [`shorten_escaped`] shortens: a help that
/// quoted the encoding of a megabyte-long run held three megabytes for one sentence.
pub(crate) fn shorten_encoded(s: &str) -> String {
    shorten_written(s, |out, c| {
        out.push_str(&iri::percent::encode(c.encode_utf8(&mut [0; 4])));
    })
}

/// [`shorten`] of `s` with each character written by `write` (escaped, percent-encoded), in
/// work bounded by the characters it shows.
fn shorten_written(s: &str, write: impl Fn(&mut String, char)) -> String {
    let mut head = String::new();
    let mut shown = 0;
    let mut long = false;
    for c in s.chars() {
        let before = head.len();
        write(&mut head, c);
        shown += head[before..].chars().count();
        if shown > 60 {
            long = true;
            break;
        }
    }
    if !long {
        return head;
    }
    let first: String = head.chars().take(28).collect();
    let mut tail: Vec<String> = Vec::new();
    let mut tail_chars = 0;
    for c in s.chars().rev() {
        let mut e = String::new();
        write(&mut e, c);
        tail_chars += e.chars().count();
        tail.push(e);
        if tail_chars >= 29 {
            break;
        }
    }
    let tail: String = tail.into_iter().rev().collect();
    let last: String = tail.chars().skip(tail_chars - 29).collect();
    format!("{first}...{last}")
}

/// At most 60 characters of `s` for a message, cut in the middle: the end of a host is what
/// tells whose it is, and the end of a path which file it is.
pub(crate) fn shorten(s: &str) -> String {
    let n = s.chars().count();
    if n <= 60 {
        s.to_string()
    } else {
        let head: String = s.chars().take(28).collect();
        let tail: String = s.chars().skip(n - 29).collect();
        format!("{head}...{tail}")
    }
}

/// The index of the range of a sorted, disjoint `(first, last, ..)` code point table that holds
/// `u` (the tables of generated Unicode data the rules carry).
pub(crate) fn range_index<T>(
    table: &[T],
    u: u32,
    bounds: impl Fn(&T) -> (u32, u32),
) -> Option<usize> {
    table
        .binary_search_by(|entry| {
            let (lo, hi) = bounds(entry);
            if hi < u {
                std::cmp::Ordering::Less
            } else if lo > u {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .ok()
}

/// `U+202E RIGHT-TO-LEFT OVERRIDE` for one character, a list for a few, a count for many.
pub(crate) fn describe_chars(s: &str) -> String {
    describe_chars_of(s.chars())
}

/// [`describe_chars`] of characters as they stream (a run's NFC form, never collected).
pub(crate) fn describe_chars_of(chars: impl Iterator<Item = char>) -> String {
    // A set, not a list searched for each character: a run may be megabytes of many characters.
    let mut distinct = iri::chars::CharSet::default();
    let mut first: Vec<char> = Vec::with_capacity(3);
    for c in chars {
        if distinct.insert(c) && first.len() < 3 {
            first.push(c);
        }
    }
    let names: Vec<String> = first.iter().map(|&c| iri::chars::describe(c)).collect();
    let more = distinct.len().saturating_sub(3);
    if more > 0 {
        format!("{} and {more} more", names.join(", "))
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_escaped_is_shorten_of_the_escaped_text() {
        let pieces = [
            "a",
            "é",
            "\u{202E}",
            "\u{200B}",
            "日",
            "\u{1B}",
            "/",
            "\u{10FFFD}",
        ];
        // Every length around the cut, of several mixes of safe and escaped characters.
        for n in 0..80 {
            for k in 0..pieces.len() {
                let s: String = (0..n)
                    .map(|i| pieces[(i * (k + 1) + k) % pieces.len()])
                    .collect();
                assert_eq!(
                    shorten_escaped(&s),
                    shorten(&crate::iri::chars::escape_unsafe(&s)),
                    "{s:?}"
                );
            }
        }
    }

    #[test]
    fn shorten_encoded_is_the_encoding_shortened() {
        for s in [
            "a b",
            "\u{200B}x",
            "^".repeat(20).as_str(),
            "é".repeat(6).as_str(),
        ] {
            assert_eq!(shorten_encoded(s), iri::percent::encode(s), "{s:?}");
        }
        for s in [
            "^".repeat(100),
            "\u{200B}".repeat(1000),
            format!("{}z", "é".repeat(50)),
        ] {
            let full = iri::percent::encode(&s);
            assert_eq!(shorten_encoded(&s), shorten(&full), "{s:?}");
        }
    }

    #[test]
    fn a_fix_holds_at_most_max_fix_bytes() {
        let selection = Selection::default();
        let fixed = |n: usize| {
            let text = format!("http://a.org/x{}y", "^".repeat(n));
            let f = check(&text, &selection);
            let unwise = f
                .iter()
                .find(|f| f.rule.id == "syntax-unwise-ascii")
                .unwrap();
            unwise.fix.as_ref().map(|f| f.edits[0].replacement.len())
        };
        // Each `^` is `%5E`: the fix fits up to a third of the cap.
        assert_eq!(fixed(1000), Some(3000));
        assert_eq!(fixed(MAX_FIX_BYTES / 3), Some(MAX_FIX_BYTES / 3 * 3));
        assert_eq!(fixed(MAX_FIX_BYTES / 3 + 1), None);
    }

    #[test]
    fn parts_are_the_bidi_components() {
        let text = "http://us:er@a.b/c/d?e=f&g;h=#i";
        let parsed = crate::iri::analyze(text);
        let got: Vec<(Component, &str)> = parts(text, &parsed)
            .map(|p| (p.component, &text[p.range]))
            .collect();
        assert_eq!(
            got,
            [
                (Component::Userinfo, "us:er"),
                (Component::Host, "a"),
                (Component::Host, "b"),
                (Component::Path, "c"),
                (Component::Path, "d"),
                (Component::Query, "e"),
                (Component::Query, "f"),
                (Component::Query, "g"),
                (Component::Query, "h"),
                (Component::Query, ""),
                (Component::Fragment, "i"),
            ]
        );
        assert!(has_ace_label(
            "http://xn--80ak6aa92e.com/",
            &crate::iri::analyze("http://xn--80ak6aa92e.com/")
        ));
    }

    #[test]
    fn a_garbled_run_is_one_finding_not_also_a_compatibility_character() {
        let all = Selection::all();
        let ids = |text: &str| -> Vec<&str> {
            check(text, &all).into_iter().map(|f| f.rule.id).collect()
        };
        // `¼` (U+00BC) is the second half of the garbled `ü`.
        assert_eq!(ids("http://example.org/Ã¼ber"), ["encoding-mojibake"]);
        // Outside a garbled run the compatibility character is still reported.
        assert_eq!(ids("http://example.org/¼-pfund"), ["not-nfkc"]);
        // With the garbling rule ignored, the run is still not called a compatibility character.
        let no_mojibake = Selection::from_selectors(&["ALL"], &[], &[encoding::MOJIBAKE.id])
            .expect("a selection");
        assert!(check("http://example.org/Ã¼ber", &no_mojibake).is_empty());
    }

    #[test]
    fn ids_are_unique_and_documented() {
        for (i, r) in RULES.iter().enumerate() {
            assert!(RULES[i + 1..].iter().all(|o| o.id != r.id), "{}", r.id);
            assert!(!r.summary().is_empty(), "{} has no summary", r.id);
        }
    }
}

#[cfg(test)]
mod script_tests {
    use super::{Selection, check};

    /// A `javascript:` reference is code: no syntax findings on its spaces, quotes and
    /// brackets, but its hidden characters are still reported.
    #[test]
    fn javascript_is_code_but_its_hidden_characters_are_reported() {
        let ids = |text: &str| -> Vec<&str> {
            check(text, &Selection::default())
                .into_iter()
                .map(|f| f.rule.id)
                .collect()
        };
        assert!(ids("javascript:alert('a b')").is_empty());
        assert!(ids("JavaScript:void(0)|x{y}[0]%zz").is_empty());
        assert_eq!(
            ids("javascript:a(\u{202E}1)"),
            ["bidi-formatting-character"]
        );
        assert_eq!(ids("javascript:a{b}\u{200B}"), ["invisible-character"]);
        assert_eq!(ids("javascript:a(\u{7}1)"), ["control-character"]);
        // Other schemes keep their syntax findings.
        assert_eq!(ids("https://example.org/a b"), ["syntax-unwise-ascii"]);
    }
}

#[cfg(test)]
mod unspoken_tests {
    use super::{Finding, Selection, check};

    /// A withheld look-alike finding, given its words, says what it says when the rule above
    /// it is not run and it speaks first.
    #[test]
    fn a_withheld_finding_speaks_as_it_would_have_spoken() {
        let no_domain = Selection::from_selectors(&["ALL"], &[], &["lookalike-domain"]).unwrap();
        for host in [
            "https://g\u{43E}\u{43E}gle.com/",
            "https://xn--ggle-55da.com/",
            "https://\u{430}pple.com/",
        ] {
            let mut under: Vec<Finding> = check(host, &Selection::all())
                .into_iter()
                .flat_map(|f| f.withheld)
                .collect();
            assert!(!under.is_empty(), "{host}");
            let spoken = check(host, &no_domain);
            for w in &mut under {
                assert!(w.message.is_empty() && w.unspoken.is_some(), "{host}");
                w.speak();
                let alone = spoken
                    .iter()
                    .find(|s| s.rule.id == w.rule.id && s.range == w.range)
                    .unwrap_or_else(|| panic!("{host}: {} speaks alone", w.rule.id));
                assert_eq!(
                    (&w.message, &w.help),
                    (&alone.message, &alone.help),
                    "{host}"
                );
                assert!(!w.message.is_empty() && w.unspoken.is_none());
            }
        }
    }
}
