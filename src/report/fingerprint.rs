//! Fingerprints for CI reports (SARIF `partialFingerprints`, GitLab `fingerprint`): the baseline's
//! key of a finding, hashed, so that a finding keeps its fingerprint when lines are inserted or
//! removed above it, and a second copy of the same bad link gets a new one.

use sha2::{Digest, Sha256};

use crate::baseline::{Baseline, Key};
use crate::diagnostic::Diagnostic;

/// The fingerprint of each of one file's diagnostics (in source order), in order.
///
/// Paths are keyed relative to the current directory (where CI runs, the repository root).
/// SHA-256 rather than a fast hash: the IRI is attacker-chosen text, and a collision would let
/// a new finding pass for one already dismissed.
pub fn fingerprints(keyer: &Baseline, path: &str, diagnostics: &[Diagnostic]) -> Vec<String> {
    keyer
        .keys(path, diagnostics)
        .iter()
        .map(fingerprint)
        .collect()
}

/// The hex SHA-256 of a key's fields, each length-prefixed so that no two keys share an input.
pub fn fingerprint(key: &Key) -> String {
    let mut hash = Sha256::new();
    hash.update(b"irilint-finding/v1");
    let iri = key.iri.as_deref();
    for field in [
        Some(key.path.as_str()),
        Some(key.rule.as_str()),
        iri,
        Some(&key.occurrence.to_string()),
    ] {
        match field {
            Some(s) => {
                hash.update([1]);
                hash.update((s.len() as u64).to_le_bytes());
                hash.update(s.as_bytes());
            }
            None => hash.update([0]),
        }
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(path: &str, iri: Option<&str>, occurrence: usize) -> Key {
        Key {
            path: path.into(),
            rule: "bidi-formatting-character".into(),
            iri: iri.map(Into::into),
            occurrence,
        }
    }

    #[test]
    fn every_field_counts_and_fields_do_not_run_into_each_other() {
        let base = fingerprint(&key("a.html", Some("http://x/"), 1));
        assert_eq!(base.len(), 64);
        assert_eq!(base, fingerprint(&key("a.html", Some("http://x/"), 1)));
        for other in [
            key("b.html", Some("http://x/"), 1),
            key("a.html", Some("http://y/"), 1),
            key("a.html", Some("http://x/"), 2),
            key("a.html", None, 1),
            key("a.html", Some(""), 1),
            key("a.htmlhttp://x/", Some(""), 1),
        ] {
            assert_ne!(base, fingerprint(&other), "{other:?}");
        }
        assert_ne!(
            fingerprint(&key("a.html", None, 1)),
            fingerprint(&key("a.html", Some(""), 1))
        );
    }
}
