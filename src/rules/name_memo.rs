//! What the IDN and look-alike rules compute of a whole DNS name, remembered per thread by the
//! name: a document links the same hosts again and again (a look-alike host once per link to
//! it), and the answers asked of a name are pure functions of its text (UTS #46 ToASCII's
//! verdict, IDNA2008's, the popular domain its skeleton names), each several thousand
//! instructions for a name of ten letters.
//!
//! Every rule still asks its question of every name: a name met before is answered from here,
//! with the answer computed for it the first time. The memory is a small direct-mapped table (a
//! slot per hash of the name, the last name of each slot kept), so it stays small whatever the
//! input, and a name seen once costs a hash and a copy.

use std::cell::RefCell;
use std::hash::Hasher;
use std::thread::LocalKey;

use super::FastHasher;
use crate::work::{self, Work};

/// Names remembered per question, per thread: enough that the hosts of a page or a file of
/// notes (a few hundred, mostly) each keep a slot of their own.
const SLOTS: usize = 1024;

/// The longest key remembered: a DNS name in its ASCII form is at most 253 octets, so a longer
/// key is rare and is answered without being kept (a thread holds at most half a megabyte of
/// names per question).
const MAX_KEY_BYTES: usize = 512;

/// The last names asked about, one per slot, with their answers.
pub(super) struct Memo<V> {
    slots: Vec<Option<(u64, Vec<u8>, V)>>,
}

impl<V> Memo<V> {
    /// An empty table.
    pub(super) fn new() -> Self {
        Memo {
            slots: (0..SLOTS).map(|_| None).collect(),
        }
    }
}

/// The answer for `key` from `memo`, or `compute`'s, kept for the next time (`compute` must
/// depend on nothing but the text `key` stands for). Counted as [`Work::NameAnswers`] when
/// computed.
pub(super) fn remembered<V: Clone + 'static>(
    memo: &'static LocalKey<RefCell<Memo<V>>>,
    key: &[u8],
    compute: impl FnOnce() -> V,
) -> V {
    if key.len() > MAX_KEY_BYTES {
        work::add(Work::NameAnswers, 1);
        return compute();
    }
    let mut h = FastHasher::default();
    h.write(key);
    let hash = h.finish();
    let slot = (hash % SLOTS as u64) as usize;
    let known = memo.with(|m| match &m.borrow().slots[slot] {
        Some((kh, k, v)) if *kh == hash && k == key => Some(v.clone()),
        _ => None,
    });
    if let Some(v) = known {
        return v;
    }
    work::add(Work::NameAnswers, 1);
    // Computed outside the borrow: the computation may ask another memo.
    let v = compute();
    memo.with(|m| {
        let mut m = m.borrow_mut();
        match &mut m.slots[slot] {
            // The slot's buffer is reused: a name seen once allocates nothing here.
            Some((kh, k, kv)) => {
                *kh = hash;
                k.clear();
                k.extend_from_slice(key);
                *kv = v.clone();
            }
            empty => *empty = Some((hash, key.to_vec(), v.clone())),
        }
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static SQUARES: RefCell<Memo<usize>> = RefCell::new(Memo::new());
    }

    #[test]
    fn a_name_is_answered_once_and_then_remembered() {
        let ask = |k: &str| {
            work::measure(Work::NameAnswers, || {
                remembered(&SQUARES, k.as_bytes(), || k.len() * k.len())
            })
        };
        assert_eq!(ask("example.com"), (121, 1));
        assert_eq!(ask("example.com"), (121, 0));
        // Many names that share slots: each answer is its own, never another's.
        for round in 0..2 {
            for n in 0..(MAX_KEY_BYTES + 100) {
                let k = "x".repeat(n);
                assert_eq!(ask(&k).0, n * n, "round {round}, {n}");
            }
        }
        // A key too long to keep is answered each time.
        let long = "y".repeat(MAX_KEY_BYTES + 1);
        assert_eq!(ask(&long).1, 1);
        assert_eq!(ask(&long).1, 1);
    }
}
