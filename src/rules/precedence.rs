//! One finding per look-alike host: when several look-alike rules find the same host labels,
//! the most specific one speaks and the others are withheld under it ([`Finding::withheld`]).
//!
//! This is a layer over the findings of one IRI, after every rule ran: no rule's logic knows of
//! the others. A host that imitates a popular domain is found by `lookalike-domain` ("looks like
//! `google.com`"), by `confusable` (the letters that imitate Latin ones), by `mixed-script` (its
//! words mix scripts) and often by `restricted-character` or `spoof-pattern`: one problem,
//! which the most specific rule names best. The order, most specific first:
//!
//! 1. `link-text-mismatch` when the target imitates the link's own text (the document shows
//!    the name being imitated);
//! 2. `lookalike-domain` (names the popular domain);
//! 3. `confusable` (names what the label reads as, or the letter imitated);
//! 4. `spoof-pattern` (a pattern browsers refuse to display);
//! 5. `restricted-character` (a character not for identifiers);
//! 6. `mixed-script` (the word mixes scripts).
//!
//! A finding is withheld under a more specific one when every place of it is in a host label the
//! other finding covers (a finding with places elsewhere still speaks) and the other is at least
//! as severe (a configuration that lowers the speaker never lowers the host's finding). It
//! goes under the nearest such rule in the order, so that the withheld findings form a tree: a
//! speaker that is suppressed by name lets those under it speak ([`crate::suppressions`]). A rule
//! that is not selected is not run and withholds nothing.

use std::ops::Range;

use super::Finding;
use crate::iri::{Component, Iri};

/// The rule ids of the order, most specific first; `link-text-mismatch` only for a finding that
/// says the target imitates the text ([`Finding::imitation`]).
const ORDER: [&str; 6] = [
    super::link_text::LINK_TEXT_MISMATCH.id,
    super::lookalike_domain::LOOKALIKE_DOMAIN.id,
    super::lookalike::CONFUSABLE.id,
    super::spoof_pattern::SPOOF_PATTERN.id,
    super::restricted::RESTRICTED_CHARACTER.id,
    super::lookalike::MIXED_SCRIPT.id,
];

/// The most labels of a host whose findings are gathered: a DNS name's most (RFC 1035: 253
/// bytes, so 127 labels).
const MAX_LABELS: usize = 127;

/// The place of `f` in [`ORDER`], when it takes part.
fn rank(f: &Finding) -> Option<usize> {
    if f.component != Some(Component::Host) {
        return None;
    }
    let r = ORDER.iter().position(|id| *id == f.rule.id)?;
    (r > 0 || f.imitation).then_some(r)
}

/// The host labels a finding's places are in (indices into `labels`, sorted), and whether all of
/// them are in a label (none counted without a place).
fn labels_of(f: &Finding, labels: &[Range<usize>]) -> (Vec<usize>, bool) {
    let mut found = Vec::new();
    let mut all_in = f.more == 0;
    for place in std::iter::once(&f.range).chain(&f.also) {
        // The labels are in order: the first that ends after the place starts, and on while
        // they start before it ends (a finding on a host name touches several).
        let end = place.end.max(place.start + 1);
        let first = labels.partition_point(|l| l.end <= place.start);
        let touched = labels[first..].iter().take_while(|l| l.start < end).count();
        found.extend(first..first + touched);
        all_in &= touched > 0 && place.end <= labels.last().map_or(0, |l| l.end);
    }
    found.sort_unstable();
    found.dedup();
    (found, all_in)
}

/// `list` (the findings of the IRI `text`, parsed as `iri`) with each look-alike finding that a
/// more specific one stands for moved into that one's [`Finding::withheld`].
pub(super) fn one_per_host(text: &str, iri: &Iri, list: Vec<Finding>) -> Vec<Finding> {
    if list.iter().filter(|f| rank(f).is_some()).count() < 2 {
        return list;
    }
    let Some(authority) = &iri.authority else {
        return list;
    };
    // A DNS name has at most 127 labels: a longer host is no name a reader is shown, and its
    // findings all speak (its labels are never held in a list).
    let labels: Vec<Range<usize>> = authority.host.labels(text).take(MAX_LABELS + 1).collect();
    if labels.len() > MAX_LABELS {
        return list;
    }
    let facts: Vec<Option<(usize, Vec<usize>, bool)>> = list
        .iter()
        .map(|f| {
            rank(f).map(|r| {
                let (l, all_in) = labels_of(f, &labels);
                (r, l, all_in)
            })
        })
        .collect();
    // The finding each one is withheld under: the nearest more specific one that covers it.
    let mut parent: Vec<Option<usize>> = vec![None; list.len()];
    for (i, fact) in facts.iter().enumerate() {
        let Some((r, mine, true)) = fact else {
            continue;
        };
        let mut best: Option<(usize, usize)> = None;
        for (j, other) in facts.iter().enumerate() {
            let Some((q, theirs, _)) = other else {
                continue;
            };
            let covers = q < r
                && list[j].severity >= list[i].severity
                && mine.iter().all(|l| theirs.binary_search(l).is_ok());
            if covers && best.is_none_or(|(bq, _)| *q > bq) {
                best = Some((*q, j));
            }
        }
        parent[i] = best.map(|(_, j)| j);
    }
    if parent.iter().all(Option::is_none) {
        return list;
    }
    // Children before their parents (least specific first), so that a finding carries its own
    // withheld ones when it moves.
    let mut slots: Vec<Option<Finding>> = list.into_iter().map(Some).collect();
    let mut order: Vec<usize> = (0..slots.len()).filter(|&i| parent[i].is_some()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(facts[i].as_ref().map_or(0, |f| f.0)));
    for i in order {
        if let (Some(p), Some(f)) = (parent[i], slots[i].take())
            && let Some(speaker) = slots[p].as_mut()
        {
            speaker.withheld.push(f);
        }
    }
    slots.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use crate::rules::{Selection, check};

    /// The rules that speak on `iri`, each once, sorted.
    fn speaking(iri: &str) -> Vec<&'static str> {
        let mut ids: Vec<&str> = check(iri, &Selection::all())
            .into_iter()
            .map(|f| f.rule.id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    #[test]
    fn a_host_is_one_lookalike_finding_unless_it_is_no_dns_name() {
        assert_eq!(
            speaking("https://g\u{43E}\u{43E}gle.com/"),
            ["lookalike-domain"]
        );
        assert_eq!(speaking("https://p\u{430}ypal.example/"), ["confusable"]);
        // More labels than a DNS name has: every finding speaks.
        let long = format!("https://{}p\u{430}ypal.example/", "a.".repeat(200));
        assert_eq!(
            speaking(&long),
            ["confusable", "idn-invalid", "mixed-script"]
        );
    }

    #[test]
    fn findings_outside_the_host_are_never_withheld() {
        // A word mixing scripts in the path is another problem than the host's.
        assert_eq!(
            speaking("https://g\u{43E}\u{43E}gle.com/p\u{430}th"),
            ["confusable", "lookalike-domain", "mixed-script"]
        );
    }

    #[test]
    fn withheld_findings_keep_their_own() {
        let f = check("https://g\u{43E}\u{43E}gle.com/", &Selection::all());
        assert_eq!(f.len(), 1);
        // Under `lookalike-domain`: the `confusable` findings, with `mixed-script` under the
        // first of them (the nearest more specific rule that covers it).
        let under: Vec<&str> = f[0].withheld.iter().map(|w| w.rule.id).collect();
        assert_eq!(under, ["confusable", "confusable"], "{f:#?}");
        let deeper: Vec<&str> = f[0]
            .withheld
            .iter()
            .flat_map(|w| &w.withheld)
            .map(|w| w.rule.id)
            .collect();
        assert_eq!(deeper, ["mixed-script"]);
    }
}
