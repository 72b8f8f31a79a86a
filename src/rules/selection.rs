//! Which rules run: `--select`, `--extend-select` and `--ignore`, by rule id, group or `ALL`.
//!
//! As in ruff: without `--select` every rule whose default severity is not `info` runs;
//! `--select` replaces that set, `--extend-select` adds to it, `--ignore` removes from it.

use std::fmt;

use super::{Check, RULES, Rule, Severity};

/// The rules that run, with their severities.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// Parallel to [`RULES`]: `Some(severity)` when the rule runs.
    severities: Vec<Option<Severity>>,
    /// The places in [`RULES`] of the selected rules that check IRIs, in catalog order, with
    /// their severities: found once per selection, not by walking the whole catalog for every
    /// IRI (most of its rules check documents, or only non-ASCII IRIs).
    iri_rules: Vec<(usize, Severity)>,
    /// Those of `iri_rules` that run on an ASCII IRI (not [`Rule::unicode_only`]).
    ascii_iri_rules: Vec<(usize, Severity)>,
}

/// A selector that names no rule and no group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectionError {
    /// The selector as given.
    pub selector: String,
    /// The closest rule id or group, if one is close.
    pub suggestion: Option<&'static str>,
}

impl fmt::Display for SelectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule or group `{}`", self.selector)?;
        if let Some(s) = self.suggestion {
            write!(f, "; did you mean `{s}`?")?;
        }
        write!(f, " (`irilint rules` lists them)")
    }
}

impl std::error::Error for SelectionError {}

impl Default for Selection {
    /// Every rule that is not `info` by default.
    fn default() -> Selection {
        Selection::new(
            RULES
                .iter()
                .map(|r| (r.severity != Severity::Info).then_some(r.severity))
                .collect(),
        )
    }
}

/// The group names, in catalog order.
pub fn groups() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in RULES {
        if !out.contains(&r.group) {
            out.push(r.group);
        }
    }
    out
}

/// The indices in [`RULES`] of the rules `selector` names (a rule id, a group or `ALL`).
pub(crate) fn matching(selector: &str) -> Result<Vec<usize>, SelectionError> {
    let hits: Vec<usize> = selected(selector).collect();
    if hits.is_empty() {
        return Err(SelectionError {
            selector: selector.to_string(),
            suggestion: suggest(selector),
        });
    }
    Ok(hits)
}

/// The indices in [`RULES`] of the rules `selector` names (none for an unknown one, whose
/// suggestion is not looked for).
pub(crate) fn selected(selector: &str) -> impl Iterator<Item = usize> + '_ {
    RULES
        .iter()
        .enumerate()
        .filter(move |(_, r)| selector == "ALL" || r.id == selector || r.group == selector)
        .map(|(i, _)| i)
}

/// The rule id or group closest to `selector`, if one is close.
pub(crate) fn suggest(selector: &str) -> Option<&'static str> {
    let length = selector.chars().count();
    let near = RULES
        .iter()
        .map(|r| r.id)
        .chain(groups())
        .filter_map(|name| {
            let most = 3.max(name.len() / 4);
            // The distance is at least the difference in length: a long word (a fuzzer's, or
            // a paragraph after `irilint-disable`) is not compared character by character.
            if length.abs_diff(name.len()) > most {
                return None;
            }
            let d = edit_distance(selector, name);
            (d <= most).then_some((d, name))
        })
        .min()
        .map(|(_, name)| name);
    // A name cut short (`bidi-formatting`): the shortest that it begins, of four letters or more.
    near.or_else(|| {
        (length >= 4).then_some(())?;
        RULES
            .iter()
            .map(|r| r.id)
            .chain(groups())
            .filter(|name| name.starts_with(selector))
            .min_by_key(|name| (name.len(), *name))
    })
}

pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    crate::work::add(crate::work::Work::EditDistance, a.len() * b.len());
    // Two rows, made once (a row per character of `a` was an allocation each).
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

impl Selection {
    /// Every rule, `info` ones included (what `irilint inspect` runs).
    pub fn all() -> Selection {
        Selection::new(RULES.iter().map(|r| Some(r.severity)).collect())
    }

    /// The selection of one optional severity per rule of [`RULES`], with its lists of IRI
    /// rules.
    fn new(severities: Vec<Option<Severity>>) -> Selection {
        let iri_rules: Vec<(usize, Severity)> = severities
            .iter()
            .enumerate()
            .filter_map(|(k, s)| s.map(|s| (k, s)))
            .filter(|&(k, _)| matches!(RULES[k].check, Check::Iri(_)))
            .collect();
        let ascii_iri_rules = iri_rules
            .iter()
            .copied()
            .filter(|&(k, _)| !RULES[k].unicode_only)
            .collect();
        Selection {
            severities,
            iri_rules,
            ascii_iri_rules,
        }
    }

    /// A selection from one optional severity per rule of [`RULES`] (`None`: the rule does not
    /// run).
    pub(crate) fn from_severities(severities: Vec<Option<Severity>>) -> Selection {
        assert_eq!(severities.len(), RULES.len());
        Selection::new(severities)
    }

    /// The selection the command line describes.
    pub fn from_selectors<S: AsRef<str>>(
        select: &[S],
        extend_select: &[S],
        ignore: &[S],
    ) -> Result<Selection, SelectionError> {
        let mut severities = if select.is_empty() {
            Selection::default().severities
        } else {
            let mut s = vec![None; RULES.len()];
            for selector in select {
                for i in matching(selector.as_ref())? {
                    s[i] = Some(RULES[i].severity);
                }
            }
            s
        };
        for selector in extend_select {
            for i in matching(selector.as_ref())? {
                severities[i] = Some(RULES[i].severity);
            }
        }
        for selector in ignore {
            for i in matching(selector.as_ref())? {
                severities[i] = None;
            }
        }
        Ok(Selection::new(severities))
    }

    /// The selected rules that check IRIs ([`Check::Iri`]), with their severities, in catalog
    /// order; with `ascii`, only those that run on an ASCII IRI (not [`Rule::unicode_only`]).
    pub(crate) fn iri_rules(
        &self,
        ascii: bool,
    ) -> impl Iterator<Item = (&'static Rule, Severity)> + '_ {
        let list = if ascii {
            &self.ascii_iri_rules
        } else {
            &self.iri_rules
        };
        list.iter().map(|&(k, s)| (&RULES[k], s))
    }

    /// The rules that run, with their severities, in catalog order.
    pub fn enabled(&self) -> impl Iterator<Item = (&'static Rule, Severity)> + '_ {
        RULES
            .iter()
            .zip(&self.severities)
            .filter_map(|(r, s)| s.map(|s| (r, s)))
    }

    /// The severity of the rule with `id`, if it runs.
    pub fn severity_of(&self, id: &str) -> Option<Severity> {
        self.enabled().find(|(r, _)| r.id == id).map(|(_, s)| s)
    }

    /// Whether the rule with `id` runs.
    pub fn is_enabled(&self, id: &str) -> bool {
        self.enabled().any(|(r, _)| r.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_iri_rule_lists_are_the_catalog_walk() {
        // Each selection's lists against the walk of the whole catalog they replace: every
        // rule alone, every rule ignored, every group, and the default and full selections.
        let mut selections = vec![Selection::default(), Selection::all()];
        for r in RULES {
            let none: [&str; 0] = [];
            selections.push(Selection::from_selectors(&[r.id], &none, &none).unwrap());
            selections.push(Selection::from_selectors(&["ALL"], &none, &[r.id]).unwrap());
            selections.push(Selection::from_selectors(&none, &[r.group], &[]).unwrap());
        }
        let mut severities: Vec<_> = RULES.iter().map(|r| Some(r.severity)).collect();
        severities[0] = Some(Severity::Info);
        selections.push(Selection::from_severities(severities));
        for sel in &selections {
            for ascii in [false, true] {
                let walked: Vec<(&str, Severity)> = sel
                    .enabled()
                    .filter(|(r, _)| matches!(r.check, Check::Iri(_)))
                    .filter(|(r, _)| !(ascii && r.unicode_only))
                    .map(|(r, s)| (r.id, s))
                    .collect();
                let listed: Vec<(&str, Severity)> =
                    sel.iri_rules(ascii).map(|(r, s)| (r.id, s)).collect();
                assert_eq!(listed, walked, "ascii {ascii}");
            }
        }
        // The lists are not empty by accident: the full selection's ASCII list leaves out the
        // Unicode-only rules and keeps the rest.
        let all = Selection::all();
        assert!(all.iri_rules(true).count() < all.iri_rules(false).count());
        assert!(all.iri_rules(true).count() > 5);
    }

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        for (a, b, d) in [
            ("kitten", "sitting", 3),
            ("flaw", "lawn", 2),
            ("", "abc", 3),
            ("abc", "", 3),
            ("bidi", "bidi", 0),
            ("é", "e", 1),
        ] {
            assert_eq!(edit_distance(a, b), d, "{a} {b}");
            assert_eq!(edit_distance(b, a), d, "{b} {a}");
        }
    }

    #[test]
    fn default_excludes_info_rules() {
        let s = Selection::default();
        for r in RULES {
            assert_eq!(s.is_enabled(r.id), r.severity != Severity::Info, "{}", r.id);
        }
    }

    #[test]
    fn select_replaces_extend_adds_ignore_removes() {
        let s = Selection::from_selectors(&["bidi"], &["not-nfc"], &[]).unwrap();
        let ids: Vec<_> = s.enabled().map(|(r, _)| r.id).collect();
        assert_eq!(
            ids,
            [
                "bidi-formatting-character",
                "bidi-mixed-direction",
                "bidi-component-edge",
                "not-nfc"
            ]
        );
        let s = Selection::from_selectors(&["ALL"], &[], &["syntax"]).unwrap();
        assert!(!s.is_enabled("syntax-invalid"));
        assert!(s.is_enabled("not-nfc"));
    }

    #[test]
    fn unknown_selectors_get_a_suggestion() {
        let e = Selection::from_selectors(&["not-nfd"], &[], &[]).unwrap_err();
        assert_eq!(e.suggestion, Some("not-nfc"));
        let e = Selection::from_selectors::<&str>(&[], &[], &["qqqqqqqqqqqq"]).unwrap_err();
        assert_eq!(e.suggestion, None);
        assert!(e.to_string().contains("irilint rules"));
    }
}
