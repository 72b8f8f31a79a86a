//! A set of names that keeps a keyed 64-bit hash of each name, not the name: for the names a
//! reader gathers over a whole document (Markdown's reference labels across its chunks,
//! AsciiDoc's attributes set to a URL), which a document of nothing but them made a few bytes
//! per byte of it (a `String`, its bytes and a table slot each: about 80 bytes for a line of
//! 20). Each name now takes 10 to 20 bytes.
//!
//! The hashes are keyed (SipHash with random keys, std's `RandomState`), so an author cannot
//! make two names share one; two names of a document share one by chance with a probability of
//! about n² / 2⁶⁵ (one in 10¹⁰ for a million names), and then the second is taken for the
//! first.

use std::collections::HashSet;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash};

/// Names, as keyed hashes.
#[derive(Default)]
pub struct HashedSet {
    keys: RandomState,
    hashes: HashSet<u64>,
}

impl HashedSet {
    /// Adds `name`; false when it was there.
    pub fn insert(&mut self, name: impl Hash) -> bool {
        self.hashes.insert(self.keys.hash_one(name))
    }

    /// Whether `name` is there.
    pub fn contains(&self, name: impl Hash) -> bool {
        self.hashes.contains(&self.keys.hash_one(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_as_they_were_added() {
        let mut set = HashedSet::default();
        assert!(set.insert("a"));
        assert!(!set.insert("a"));
        assert!(set.insert("b"));
        assert!(set.contains("a") && set.contains("b") && !set.contains("c"));
        // A key hashes as its equality says: case-folded labels are one.
        assert!(set.insert(unicase::UniCase::new("Label")));
        assert!(!set.insert(unicase::UniCase::new("LABEL")));
        assert!(!set.insert(unicase::UniCase::new(String::from("label"))));
    }
}
