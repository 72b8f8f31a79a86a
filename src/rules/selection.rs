//! Which rules run: `--select`, `--extend-select` and `--ignore`, by rule id, group or `ALL`.
//!
//! As in ruff: without `--select` every rule whose default severity is not `info` runs;
//! `--select` replaces that set, `--extend-select` adds to it, `--ignore` removes from it.

use std::fmt;

use super::{RULES, Rule, Severity};

/// The rules that run, with their severities.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// Parallel to [`RULES`]: `Some(severity)` when the rule runs.
    severities: Vec<Option<Severity>>,
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
        Selection {
            severities: RULES
                .iter()
                .map(|r| (r.severity != Severity::Info).then_some(r.severity))
                .collect(),
        }
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
        Selection {
            severities: RULES.iter().map(|r| Some(r.severity)).collect(),
        }
    }

    /// A selection from one optional severity per rule of [`RULES`] (`None`: the rule does not
    /// run).
    pub(crate) fn from_severities(severities: Vec<Option<Severity>>) -> Selection {
        assert_eq!(severities.len(), RULES.len());
        Selection { severities }
    }

    /// The selection the command line describes.
    pub fn from_selectors<S: AsRef<str>>(
        select: &[S],
        extend_select: &[S],
        ignore: &[S],
    ) -> Result<Selection, SelectionError> {
        let mut sel = if select.is_empty() {
            Selection::default()
        } else {
            let mut s = Selection {
                severities: vec![None; RULES.len()],
            };
            for selector in select {
                for i in matching(selector.as_ref())? {
                    s.severities[i] = Some(RULES[i].severity);
                }
            }
            s
        };
        for selector in extend_select {
            for i in matching(selector.as_ref())? {
                sel.severities[i] = Some(RULES[i].severity);
            }
        }
        for selector in ignore {
            for i in matching(selector.as_ref())? {
                sel.severities[i] = None;
            }
        }
        Ok(sel)
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
