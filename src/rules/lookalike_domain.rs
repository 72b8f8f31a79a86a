//! `lookalike-domain`: a host that is not a popular domain but displays like one: the UTS #39
//! skeleton of its last labels (with diacritics removed, or as they are) is the skeleton of a
//! domain in the bundled list of popular domains ([`super::top_domains`]). Chrome's IDN policy
//! does the same with its own top-domain list ("IDN in Google Chrome": a label whose skeleton
//! matches a top domain's is shown as Punycode).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use unicode_normalization::UnicodeNormalization;
use unicode_security::confusable_detection::skeleton;

use super::host_labels::{self, HostLabel};
use super::top_domains::TOP_DOMAINS;
use super::{Check, IriCheck, Rule, Severity, Sink};
use crate::iri::chars::escape_unsafe;

/// `lookalike-domain`.
pub const LOOKALIKE_DOMAIN: Rule = Rule {
    id: "lookalike-domain",
    group: "lookalike",
    severity: Severity::Error,
    rfc: &["7.5", "8"],
    doc: include_str!("../../rules/lookalike-domain.md"),
    unicode_only: true,
    check: Check::Iri(check_lookalike_domain),
};

/// The most labels of a host compared (`a.b.co.uk`): popular domains have two or three.
const MAX_LABELS: usize = 4;

/// Skeleton → popular domain, built on first use (the most popular wins a shared skeleton).
static BY_SKELETON: LazyLock<HashMap<String, &'static str>> = LazyLock::new(|| {
    let mut map = HashMap::with_capacity(TOP_DOMAINS.len());
    for d in TOP_DOMAINS.iter().rev() {
        map.insert(skeleton(d).collect::<String>(), *d);
    }
    map
});

/// Latin letters whose stroke or bar no decomposition removes, mapped to the letter under it
/// (Chrome's diacritic removal does the same for these): `ł` `ø` `đ` `ħ` `ŧ` `ƀ` `ı` `ȷ`.
fn strip_stroke(c: char) -> char {
    match c {
        '\u{0142}' => 'l',
        '\u{00F8}' => 'o',
        '\u{0111}' => 'd',
        '\u{0127}' => 'h',
        '\u{0167}' => 't',
        '\u{0180}' => 'b',
        '\u{0131}' => 'i',
        '\u{0237}' => 'j',
        c => c,
    }
}

/// `s` without its combining marks (canonical decomposition, marks dropped) and strokes.
fn without_diacritics(s: &str) -> String {
    s.nfd()
        .filter(|&c| unicode_normalization::char::canonical_combining_class(c) == 0)
        .map(strip_stroke)
        .collect()
}

/// The popular domain `name` (a host's last labels, folded) displays like, if it is not that
/// domain itself.
pub(super) fn imitated(name: &str) -> Option<&'static str> {
    // As UTS #46 maps it for display (full-width letters, compatibility forms): a name that maps
    // to ASCII is that ASCII name.
    let mapped: String = name.nfkc().flat_map(char::to_lowercase).collect();
    let name = mapped.as_str();
    if name.is_ascii() {
        return None; // ASCII is what it is: a typo-squat is not a look-alike
    }
    let map = &*BY_SKELETON;
    let found = map
        .get(&skeleton(name).collect::<String>())
        .or_else(|| map.get(&skeleton(&without_diacritics(name)).collect::<String>()))?;
    (*found != name).then_some(*found)
}

fn check_lookalike_domain(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    host_labels::for_each_name(input, |labels| {
        let labels: Vec<&HostLabel<'_>> = labels
            .iter()
            .rev()
            .skip_while(|l| l.text.is_empty())
            .take(MAX_LABELS)
            .collect();
        // Shortest suffix first: `gооgle.com` before `www.gооgle.com`.
        for n in 2..=labels.len() {
            let suffix = &labels[..n];
            let name: String = suffix
                .iter()
                .rev()
                .map(|l| l.text.chars().map(host_labels::folded).collect::<String>())
                .collect::<Vec<_>>()
                .join(".");
            let Some(domain) = imitated(&name) else {
                continue;
            };
            let range: Range<usize> = suffix[n - 1].range.start..suffix[0].range.end;
            sink.report(
                range,
                format!(
                    "the host name `{}` looks like `{domain}`, one of the most visited domains, but is a different domain (their UTS #39 skeletons are the same)",
                    escape_unsafe(&name)
                ),
                Some(format!(
                    "link to `{domain}` if that site is meant; otherwise this name only imitates it"
                )),
            );
            return;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_of_popular_domains() {
        assert_eq!(imitated("g\u{43E}\u{43E}gle.com"), Some("google.com"));
        assert_eq!(imitated("goo\u{123}le.com"), Some("google.com"));
        assert_eq!(imitated("\u{430}pple.com"), Some("apple.com"));
        assert_eq!(imitated("pay\u{1E57}al.com"), Some("paypal.com"));
        assert_eq!(imitated("google.com"), None);
        assert_eq!(imitated("\u{FF27}oogle.com"), None);
        assert_eq!(imitated("b\u{FC}cher.de"), None);
        assert_eq!(
            imitated("\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}.com"),
            None
        );
    }
}
