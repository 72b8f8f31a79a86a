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

/// The TLDs of the popular domains.
static TLDS: LazyLock<std::collections::HashSet<&'static str>> = LazyLock::new(|| {
    TOP_DOMAINS
        .iter()
        .filter_map(|d| d.rsplit('.').next())
        .collect()
});

/// The skeleton of each ASCII character (`m` is `rn`, `1` is `l`).
static ASCII_SKELETONS: LazyLock<Vec<String>> = LazyLock::new(|| {
    (0..128u8)
        .map(|b| skeleton(&char::from(b).to_string()).collect())
        .collect()
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

/// A label as a browser displays it: letters case-folded, and compatibility characters
/// (full-width letters) mapped as UTS #46 maps them.
fn displayed(label: &str) -> String {
    let folded: String = label.chars().map(host_labels::folded).collect();
    if unicode_normalization::is_nfkc_quick(folded.chars())
        == unicode_normalization::IsNormalized::Yes
    {
        folded
    } else {
        folded.nfkc().flat_map(char::to_lowercase).collect()
    }
}

/// The skeleton a label is compared by: its UTS #39 skeleton, or that of the label without
/// diacritics, whichever is ASCII (a popular domain's skeleton is ASCII); `None` when neither
/// is, so that no name with this label can match. Stops at the first non-ASCII character.
fn comparable_skeleton(label: &str) -> Option<String> {
    /// The skeleton if it is ASCII, else the first character of it that is not.
    fn ascii_skeleton(s: &str) -> Result<String, char> {
        let mut out = String::with_capacity(s.len());
        for c in skeleton(s) {
            if !c.is_ascii() {
                return Err(c);
            }
            out.push(c);
        }
        Ok(out)
    }
    if label.is_ascii() {
        // Concatenated from a table, no NFD needed (no ASCII character's prototype has a
        // combining mark). Only `%` has a skeleton that is not ASCII (`°/₀`).
        let mut out = String::with_capacity(label.len());
        for b in label.bytes() {
            out.push_str(&ASCII_SKELETONS[usize::from(b)]);
        }
        return out.is_ascii().then_some(out);
    }
    match ascii_skeleton(label) {
        Ok(sk) => Some(sk),
        // Removing diacritics can only help when what stopped the skeleton is one (a combining
        // mark of a decomposed letter) or a letter with a stroke.
        Err(c)
            if unicode_normalization::char::canonical_combining_class(c) != 0
                || strip_stroke(c) != c =>
        {
            ascii_skeleton(&without_diacritics(label)).ok()
        }
        Err(_) => None,
    }
}

/// The popular domain a name displays like, given its labels as displayed and their
/// comparable skeletons (in order), unless the name is ASCII (then it is what it is: a
/// typo-squat is not a look-alike).
fn imitated(shown: &[String], skeletons: &[String]) -> Option<&'static str> {
    if shown.iter().all(|l| l.is_ascii()) {
        return None;
    }
    BY_SKELETON.get(&skeletons.join(".")).copied()
}

fn check_lookalike_domain(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    host_labels::for_each_name(input, |labels| {
        // From the TLD back: `gооgle.com` before `www.gооgle.com`.
        let labels: Vec<&HostLabel<'_>> = labels
            .iter()
            .rev()
            .skip_while(|l| l.text.is_empty())
            .take(MAX_LABELS)
            .collect();
        // Every popular domain's TLD is ASCII and one of a few: a host under another TLD
        // cannot be a look-alike of one (the common case for IDNs under their own TLDs).
        if !labels
            .first()
            .is_some_and(|tld| TLDS.contains(tld.text.to_ascii_lowercase().as_str()))
        {
            return;
        }
        let mut shown: Vec<String> = Vec::with_capacity(labels.len());
        let mut skeletons: Vec<String> = Vec::with_capacity(labels.len());
        for (n, label) in labels.iter().enumerate() {
            let d = displayed(&label.text);
            // A label no popular domain's skeleton can hold ends the search (the TLD first).
            let Some(sk) = comparable_skeleton(&d) else {
                return;
            };
            shown.insert(0, d);
            skeletons.insert(0, sk);
            if n == 0 {
                continue;
            }
            let Some(domain) = imitated(&shown, &skeletons) else {
                continue;
            };
            let name = shown.join(".");
            let range: Range<usize> = label.range.start..labels[0].range.end;
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

    fn imitated(name: &str) -> Option<&'static str> {
        let shown: Vec<String> = name.split('.').map(displayed).collect();
        let skeletons: Option<Vec<String>> = shown.iter().map(|l| comparable_skeleton(l)).collect();
        super::imitated(&shown, &skeletons?)
    }

    #[test]
    fn ascii_skeletons_are_as_computed() {
        let all: String = (0..128u8).map(char::from).collect();
        let table: String = all
            .bytes()
            .map(|b| ASCII_SKELETONS[usize::from(b)].as_str())
            .collect();
        assert_eq!(table, skeleton(&all).collect::<String>());
        assert_eq!(comparable_skeleton(&all), None); // `%` has a non-ASCII skeleton
        let name: String = all
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        assert_eq!(
            comparable_skeleton(&name),
            Some(skeleton(&name).collect::<String>())
        );
    }

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
