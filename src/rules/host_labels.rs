//! The labels of an IRI's DNS names as the browsers' IDN display policies see them: one at a
//! time, `xn--` labels decoded, letters case-folded. Shared by the rules that follow those
//! policies (`restricted-character`, `spoof-pattern`, `lookalike-domain`).

use std::ops::Range;

use smallvec::SmallVec;

use super::IriCheck;
use super::idn;
use crate::iri::chars::escape_unsafe;

/// One label of a DNS name.
pub(super) struct HostLabel<'a> {
    /// Its range in the IRI.
    pub range: Range<usize>,
    /// The label as displayed: the written label, or the Unicode form of an `xn--` label.
    pub text: &'a str,
    /// True for an `xn--` label: its characters are not written, so a finding covers the label.
    pub ace: bool,
    /// The label as written.
    pub written: &'a str,
}

impl HostLabel<'_> {
    /// `the host label` or, for an `xn--` label, that label with its decoded form.
    pub fn place(&self) -> String {
        if self.ace {
            format!(
                "the host label `{}` (decoded: `{}`)",
                escape_unsafe(self.written),
                escape_unsafe(self.text)
            )
        } else {
            format!("the host label `{}`", escape_unsafe(self.written))
        }
    }

    /// The range in the IRI of the character at byte `i` of `text` (`len` bytes long).
    pub fn span(&self, i: usize, len: usize) -> Range<usize> {
        if self.ace {
            self.range.clone()
        } else {
            self.range.start + i..self.range.start + i + len
        }
    }
}

/// Calls `f` with the labels of each DNS name of the IRI (hosts of `http`-like schemes and
/// network-path references, `mailto:` domains) that holds a non-ASCII or `xn--` label, and with
/// the name's TLD (its last label, displayed and case-folded). Labels with `%XX` escapes are
/// left out (`idn-invalid` and `idn-not-registrable` decode them), and so are `xn--` labels that
/// are not valid Punycode (`idn-invalid` reports them). The labels, their decoded forms and the
/// TLD are found once per IRI for the three rules that ask; each asks without allocating for a
/// name of up to four labels (handed over from the stack).
pub(super) fn for_each_name(
    input: &IriCheck<'_>,
    mut f: impl FnMut(&[HostLabel<'_>], Option<&str>),
) {
    let text = input.text;
    for name in input.host_names.get_or_init(|| names(input)) {
        let labels: SmallVec<[HostLabel<'_>; 4]> = name
            .labels
            .iter()
            .map(|l| {
                let written = &text[l.range.clone()];
                HostLabel {
                    range: l.range.clone(),
                    text: l.decoded.as_deref().unwrap_or(written),
                    ace: l.decoded.is_some(),
                    written,
                }
            })
            .collect();
        let tld = match name.tld_as_found {
            Some(k) => labels.get(k).map(|l| l.text),
            None => name.tld.as_deref(),
        };
        f(&labels, tld);
    }
}

/// The labels of a DNS name as found once per IRI (without borrowing them, so that
/// [`IriCheck`] keeps no lifetime of its own in the cache), with its TLD.
pub(super) struct NameFound {
    /// Held inline for up to four labels (a host has two or three).
    labels: SmallVec<[LabelFound; 4]>,
    /// The TLD (the last non-empty label) as displayed, case-folded, when folding changes it.
    tld: Option<String>,
    /// Which of `labels` is the TLD, when it is displayed as it is found (most are: `com`).
    tld_as_found: Option<usize>,
}

/// A label as found once per IRI.
struct LabelFound {
    range: Range<usize>,
    /// The Unicode form of an `xn--` label.
    decoded: Option<String>,
}

fn names(input: &IriCheck<'_>) -> Vec<NameFound> {
    let text = input.text;
    let mut out = Vec::new();
    idn::for_each_dns_name(input, |name| {
        let raw = &text[name.range.clone()];
        let has_ace = name.labels.clone().any(|l| idn::is_ace(&text[l]));
        // A name of more labels than DNS allows imitates no domain (`idn-invalid` reports it).
        if raw.is_ascii() && !has_ace || name.labels.beyond_dns() {
            return;
        }
        let mut labels: SmallVec<[LabelFound; 4]> = SmallVec::new();
        for r in name.labels {
            let s = &text[r.clone()];
            if s.contains('%') {
                continue;
            }
            if idn::is_ace(s) {
                if let Some(d) = idn::decode_ace(s) {
                    labels.push(LabelFound {
                        range: r.clone(),
                        decoded: Some(d),
                    });
                }
            } else {
                labels.push(LabelFound {
                    range: r.clone(),
                    decoded: None,
                });
            }
        }
        let tld_at = labels.iter().rposition(|l| {
            !l.decoded
                .as_deref()
                .unwrap_or(&text[l.range.clone()])
                .is_empty()
        });
        let tld_text = tld_at.map(|k| {
            let l = &labels[k];
            l.decoded.as_deref().unwrap_or(&text[l.range.clone()])
        });
        // Folded only when folding changes it (not a lowercase ASCII TLD).
        let (tld, tld_as_found) = match tld_text {
            Some(t) if t.chars().all(|c| folded(c) == c) => (None, tld_at),
            Some(t) => (Some(t.chars().map(folded).collect()), None),
            None => (None, None),
        };
        out.push(NameFound {
            labels,
            tld,
            tld_as_found,
        });
    });
    out
}

/// `c` as UTS #46 maps a letter of a host: its simple lowercase (Cherokee small letters go to
/// the capitals, as case folding does).
pub(super) fn folded(c: char) -> char {
    if ('\u{AB70}'..='\u{ABBF}').contains(&c) || ('\u{13F8}'..='\u{13FD}').contains(&c) {
        let mut u = c.to_uppercase();
        return match (u.next(), u.next()) {
            (Some(x), None) => x,
            _ => c,
        };
    }
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}
