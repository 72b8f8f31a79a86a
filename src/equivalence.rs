//! `equivalent-variants`: across every checked file, one resource written as IRIs that differ but
//! that the comparison ladder of RFC 3987 §5.3 (syntax- and scheme-based) proves equivalent.
//!
//! It is the one project-level rule ([`EQUIVALENT_VARIANTS`] in the catalog). While each file is
//! checked, [`variant`] keeps, for every absolute IRI, only its normal form, its spelling when
//! that differs, and where it is — never the document. After the run, [`group`] reports each
//! resource written more than one way once, at its first differing spelling, with every other
//! place as a related location.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::Arc;

mod aside;
mod findings;
mod records;

pub use findings::{FileReading, Findings, Planned, Reading, Start};
pub use records::{Hashes, Place, Plan, Record, Records};

use crate::diagnostic::{Diagnostic, Location, RelatedLocation};
use crate::iri::Iri;
use crate::iri::chars::escape_unsafe;
use crate::iri::compare::{Level, normalize_parsed};
use crate::rules::Severity;
use crate::rules::equivalence::EQUIVALENT_VARIANTS;

/// One absolute IRI as the project-level pass keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    /// Its scheme-based normal form (§5.3.3), the grouping key: the occurrence's own IRI,
    /// shared, when it is its own normal form (most IRIs are), so that the run holds no copy
    /// of it.
    pub key: Arc<str>,
    /// The IRI as written (after §5.2 preparation), or `None` when it is its own normal form.
    pub spelling: Option<Arc<str>>,
    /// Start of the IRI in its document.
    pub start: Location,
    /// End (exclusive).
    pub end: Location,
}

impl Variant {
    /// The IRI as written.
    pub fn spelling(&self) -> &str {
        self.spelling.as_deref().unwrap_or(&self.key)
    }
}

/// Whether an IRI takes part in the comparison: not a relative reference (what it names depends
/// on a base the linter does not know), nor text that is not an IRI at all (other rules report
/// it).
pub fn takes_part(parsed: &Iri) -> bool {
    parsed.scheme.is_some() && parsed.is_valid()
}

/// The variant record of the prepared IRI `text` (parsed as `parsed`, which [`takes_part`]),
/// located at `start..end`. Its spelling is `text`, or `as_read` when the document's encoding
/// gives the characters another form (RFC 3987 §3.1 step 1b); the normal form is the same.
pub fn variant(
    text: &Arc<str>,
    parsed: &Iri,
    as_read: Option<String>,
    start: Location,
    end: Location,
) -> Variant {
    let normal = normalize_parsed(text, parsed, Level::Scheme);
    let key: Arc<str> = if *normal == **text {
        text.clone()
    } else {
        normal.into()
    };
    let spelling = match as_read {
        Some(spelling) => (*key != *spelling).then(|| spelling.into()),
        None => (key != *text).then(|| text.clone()),
    };
    Variant {
        key,
        spelling,
        start,
        end,
    }
}

/// The diagnostics of a whole run: for each normal form written in more than one way, one
/// diagnostic (with `severity`) and the index, in `files`, of the file it belongs to. `files`
/// holds each file's path and variants, in report order; the result is in that order too.
pub fn group(files: &[(&str, &[Variant])], severity: Severity) -> Vec<(usize, Diagnostic)> {
    // For each key: every (file, variant) written with it, in report order.
    let mut groups: HashMap<&str, Vec<(usize, &Variant)>> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (f, (_, variants)) in files.iter().enumerate() {
        for v in variants.iter() {
            let entry = groups.entry(&v.key).or_default();
            if entry.is_empty() {
                order.push(&v.key);
            }
            entry.push((f, v));
        }
    }
    let mut out = Vec::new();
    for key in order {
        let members = &groups[key];
        // Each spelling once, in order of appearance, with its count: found through a map, not
        // by a search of the list per place (a resource written 100,000 ways, `HtTp://` and
        // so on, made that quadratic).
        let mut spellings: Vec<(&str, usize)> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        for (_, v) in members {
            crate::work::add(crate::work::Work::SpellingLookups, 1);
            let k = *index.entry(v.spelling()).or_insert_with(|| {
                spellings.push((v.spelling(), 0));
                spellings.len() - 1
            });
            spellings[k].1 += 1;
        }
        if spellings.len() < 2 {
            continue;
        }
        let preferred = preferred(key, &spellings);
        out.push(report(files, members, &spellings, preferred, severity));
    }
    out
}

/// The spelling to recommend: the normal form itself when the project already uses it, else
/// the most frequent spelling (the least churn), and on a tie the normal form, which no choice
/// between the project's own spellings would justify better.
fn preferred<'a>(key: &'a str, spellings: &[(&'a str, usize)]) -> &'a str {
    if spellings.iter().any(|(s, _)| *s == key) {
        return key;
    }
    let most = spellings.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let mut top = spellings.iter().filter(|(_, n)| *n == most);
    match (top.next(), top.next()) {
        (Some((s, _)), None) => s,
        _ => key,
    }
}

fn report(
    files: &[(&str, &[Variant])],
    members: &[(usize, &Variant)],
    spellings: &[(&str, usize)],
    preferred: &str,
    severity: Severity,
) -> (usize, Diagnostic) {
    // The diagnostic sits on the first place that does not use the preferred spelling.
    let primary = members
        .iter()
        .position(|(_, v)| v.spelling() != preferred)
        .unwrap_or(0);
    let (file, first) = members[primary];
    let related = members
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != primary)
        .take(MAX_RELATED)
        .map(|(_, (f, v))| Shown {
            path: (*f != file).then(|| files[*f].0),
            spelling: v.spelling(),
            start: v.start,
            end: v.end,
        });
    let already = spellings
        .iter()
        .find(|(s, _)| *s == preferred)
        .map_or(0, |(_, n)| *n);
    let named = spellings.iter().take(4).map(|(s, _)| *s);
    let first = Shown {
        path: None,
        spelling: first.spelling(),
        start: first.start,
        end: first.end,
    };
    let parts = Parts {
        ways: spellings.len(),
        places: members.len(),
        preferred,
        already,
    };
    (file, diagnostic(&parts, named, first, related, severity))
}

/// The keys of the hashes a run's [`Record`]s are made with: random for each process, so that
/// no input can be written to make two resources' hashes meet.
#[derive(Debug, Clone, Default)]
pub struct Keys {
    high: std::collections::hash_map::RandomState,
    low: std::collections::hash_map::RandomState,
}

impl Keys {
    /// New random keys.
    pub fn new() -> Keys {
        Keys::default()
    }

    /// The keys of this process's runs: the first pass's workers hash with them, the reading
    /// again checks with them (made once, at random).
    pub fn of_process() -> &'static Keys {
        static KEYS: std::sync::OnceLock<Keys> = std::sync::OnceLock::new();
        KEYS.get_or_init(Keys::new)
    }

    /// The record of `variant`, the `index`-th of the `file`-th file in report order.
    pub fn record(&self, variant: &Variant, file: u32, index: u32) -> Record {
        let (key, spelling) = self.hashes(variant);
        Record {
            key,
            spelling,
            file,
            index,
        }
    }

    /// The hashes of `variant`'s normal form and of its spelling (0 when it is the normal form
    /// itself): what a [`Record`] keeps of it.
    pub fn hashes(&self, variant: &Variant) -> (u128, u64) {
        let key = &*variant.key;
        let high = u128::from(self.high.hash_one(key)) << 64;
        let spelling = variant
            .spelling
            .as_deref()
            .map_or(0, |s| self.high.hash_one((1u8, s)).max(1));
        (high | u128::from(self.low.hash_one(key)), spelling)
    }
}

/// The most other places a report of [`EQUIVALENT_VARIANTS`] lists as related locations (the
/// first ones, in report order), as a finding of another rule keeps at most
/// [`crate::rules::MAX_PLACES`]: its message counts them all.
pub const MAX_RELATED: usize = crate::rules::MAX_PLACES;

/// One place of a resource as a report shows it.
struct Shown<'a> {
    /// Its document, when it is not the report's own.
    path: Option<&'a str>,
    spelling: &'a str,
    start: Location,
    end: Location,
}

/// What a report says of its resource besides its places.
struct Parts<'a> {
    /// How many spellings.
    ways: usize,
    /// How many places.
    places: usize,
    /// The spelling recommended.
    preferred: &'a str,
    /// How many places already write it.
    already: usize,
}

/// The report of one resource: at `first`, naming the spellings `named` (the first four, in
/// order of appearance), with `related` as its other places.
fn diagnostic<'a>(
    parts: &Parts<'_>,
    named: impl Iterator<Item = &'a str>,
    first: Shown<'_>,
    related: impl Iterator<Item = Shown<'a>>,
    severity: Severity,
) -> Diagnostic {
    let related = related
        .map(|p| RelatedLocation {
            path: p.path.map(str::to_string),
            start: p.start,
            end: p.end,
            label: format!("written `{}`", escape_unsafe(p.spelling)),
        })
        .collect();
    let written: Vec<String> = named.map(|s| format!("`{}`", escape_unsafe(s))).collect();
    let more = parts.ways.saturating_sub(4);
    let ways = if more > 0 {
        format!("{} and {more} more", written.join(", "))
    } else {
        written.join(", ")
    };
    let message = format!(
        "the same resource is written {} ways in {} places: {ways}",
        parts.ways, parts.places
    );
    let (preferred, already) = (parts.preferred, parts.already);
    let help = if already > 0 {
        format!(
            "write it one way everywhere, e.g. `{}` ({already} of {} places already do); \
             the spellings are equivalent, so the change is safe",
            escape_unsafe(preferred),
            parts.places
        )
    } else {
        format!(
            "write it one way everywhere, e.g. `{}`, its normal form; \
             the spellings are equivalent, so the change is safe",
            escape_unsafe(preferred),
        )
    };
    Diagnostic {
        rule: EQUIVALENT_VARIANTS.id,
        severity,
        message: message.into(),
        help: Some(help.into()),
        start: first.start,
        end: first.end,
        also: Vec::new(),
        iri: Some(first.spelling.into()),
        iri_range: Some(0..first.spelling.len()),
        component: None,
        rfc: EQUIVALENT_VARIANTS.rfc.first().copied(),
        related,
        fix: None,
        withheld: Vec::new(),
        unspoken: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize) -> Location {
        Location {
            line,
            column: 1,
            column_utf16: 1,
            offset: line * 100,
            text_offset: line * 100,
        }
    }

    fn v(key: &str, spelling: &str, line: usize) -> Variant {
        Variant {
            key: key.into(),
            spelling: (key != spelling).then(|| spelling.into()),
            start: at(line),
            end: at(line),
        }
    }

    #[test]
    fn one_report_per_group_on_the_first_other_spelling_with_every_other_place_related() {
        let a = [
            v("http://e/~u", "http://e/~u", 1),
            v("http://e/~u", "http://e/%7Eu", 2),
            v("http://f/", "http://f/", 3),
        ];
        let b = [
            v("http://e/~u", "HTTP://e/~u", 4),
            v("http://f/", "http://f/", 5),
        ];
        let files: [(&str, &[Variant]); 2] = [("a.md", &a), ("b.md", &b)];
        let found = group(&files, Severity::Info);
        assert_eq!(found.len(), 1, "{found:?}");
        let (file, d) = &found[0];
        assert_eq!(*file, 0);
        assert_eq!(
            d.start.line, 2,
            "the first place not written the preferred way"
        );
        assert_eq!(d.iri.as_deref(), Some("http://e/%7Eu"));
        assert!(d.message.contains("3 ways in 3 places"), "{}", d.message);
        assert!(d.help.as_deref().unwrap().contains("`http://e/~u` (1 of 3"));
        let related: Vec<(Option<&str>, usize, &str)> = d
            .related
            .iter()
            .map(|r| (r.path.as_deref(), r.start.line, r.label.as_str()))
            .collect();
        assert_eq!(
            related,
            [
                (None, 1, "written `http://e/~u`"),
                (Some("b.md"), 4, "written `HTTP://e/~u`"),
            ]
        );
    }

    #[test]
    fn without_the_normal_form_the_most_frequent_spelling_is_preferred() {
        let key = "http://e/~u";
        let a = [
            v(key, "http://e/%7Eu", 1),
            v(key, "http://e/%7eu", 2),
            v(key, "http://e/%7eu", 3),
        ];
        let files: [(&str, &[Variant]); 1] = [("a.md", &a)];
        let found = group(&files, Severity::Warning);
        let (_, d) = &found[0];
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(d.start.line, 1);
        assert!(
            d.help
                .as_deref()
                .unwrap()
                .contains("`http://e/%7eu` (2 of 3"),
            "{:?}",
            d.help
        );
    }

    #[test]
    fn on_a_tie_the_normal_form_is_preferred() {
        let key = "ftp://ftp.example.net/pub/";
        let a = [
            v(key, "ftp://ftp.example.net:21/pub/", 1),
            v(key, "ftp://FTP.example.net/pub/", 2),
        ];
        let files: [(&str, &[Variant]); 1] = [("a.txt", &a)];
        let (_, d) = &group(&files, Severity::Info)[0];
        assert_eq!(d.start.line, 1, "no spelling is preferred: the first place");
        assert_eq!(
            d.help.as_deref().unwrap(),
            "write it one way everywhere, e.g. `ftp://ftp.example.net/pub/`, its normal form; \
             the spellings are equivalent, so the change is safe"
        );
    }

    #[test]
    fn one_spelling_in_many_places_is_not_a_variant() {
        let a = [
            v("http://e/", "http://e/", 1),
            v("http://e/", "http://e/", 2),
        ];
        let files: [(&str, &[Variant]); 1] = [("a.md", &a)];
        assert!(group(&files, Severity::Info).is_empty());
    }

    #[test]
    fn hidden_characters_never_reach_messages_raw() {
        let a = [
            v("http://e/\u{202E}", "http://e/\u{202E}", 1),
            v("http://e/\u{202E}", "HTTP://e/\u{202E}", 2),
        ];
        let files: [(&str, &[Variant]); 1] = [("a.md", &a)];
        let (_, d) = &group(&files, Severity::Info)[0];
        let help = d.help.as_deref().expect("a help");
        for text in [&d.message, help, &d.related[0].label] {
            assert!(!text.contains('\u{202E}'), "{text:?}");
        }
        assert!(help.contains("U+202E"), "{help:?}");
    }
}
