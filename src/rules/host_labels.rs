//! The labels of an IRI's DNS names as the browsers' IDN display policies see them: one at a
//! time, `xn--` labels decoded, letters case-folded. Shared by the rules that follow those
//! policies (`restricted-character`, `spoof-pattern`, `lookalike-domain`).

use std::borrow::Cow;
use std::ops::Range;

use super::IriCheck;
use super::idn;
use crate::iri::chars::escape_unsafe;

/// One label of a DNS name.
pub(super) struct HostLabel<'a> {
    /// Its range in the IRI.
    pub range: Range<usize>,
    /// The label as displayed: the written label, or the Unicode form of an `xn--` label.
    pub text: Cow<'a, str>,
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
                escape_unsafe(&self.text)
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
/// network-path references, `mailto:` domains) that holds a non-ASCII or `xn--` label. Labels
/// with `%XX` escapes are left out (`idn-invalid` and `idn-not-registrable` decode them), and
/// so are `xn--` labels that are not valid Punycode (`idn-invalid` reports them). The labels
/// are found once per IRI.
pub(super) fn for_each_name<'a>(input: &IriCheck<'a>, mut f: impl FnMut(&[HostLabel<'a>])) {
    let text: &'a str = input.text;
    for name in input.host_names.get_or_init(|| names(input)) {
        let labels: Vec<HostLabel<'a>> = name
            .iter()
            .map(|l| {
                let written = &text[l.range.clone()];
                HostLabel {
                    range: l.range.clone(),
                    text: match &l.decoded {
                        Some(d) => Cow::Owned(d.clone()),
                        None => Cow::Borrowed(written),
                    },
                    ace: l.decoded.is_some(),
                    written,
                }
            })
            .collect();
        f(&labels);
    }
}

/// The TLD of a name (its last non-empty label) as displayed: case-folded.
pub(super) fn tld(labels: &[HostLabel<'_>]) -> Option<String> {
    let last = labels.iter().rev().find(|l| !l.text.is_empty())?;
    Some(last.text.chars().map(folded).collect())
}

/// A label as found once per IRI (without borrowing it, so that [`IriCheck`] keeps no
/// lifetime of its own in the cache).
pub(super) struct LabelFound {
    range: Range<usize>,
    /// The Unicode form of an `xn--` label.
    decoded: Option<String>,
}

fn names(input: &IriCheck<'_>) -> Vec<Vec<LabelFound>> {
    let text = input.text;
    let mut out = Vec::new();
    idn::for_each_dns_name(input, |name| {
        let raw = &text[name.range.clone()];
        let has_ace = name.labels.clone().any(|l| idn::is_ace(&text[l]));
        // A name of more labels than DNS allows imitates no domain (`idn-invalid` reports it).
        if raw.is_ascii() && !has_ace || name.labels.beyond_dns() {
            return;
        }
        let mut labels = Vec::new();
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
        out.push(labels);
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
