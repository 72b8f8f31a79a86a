//! `lookalike-domain`: a host that is not a popular domain but displays like one: the UTS #39
//! skeleton of its last labels (with diacritics removed, or as they are) is the skeleton of a
//! domain in the bundled list of popular domains ([`super::top_domains`]). Chrome's IDN policy
//! does the same with its own top-domain list ("IDN in Google Chrome": a label whose skeleton
//! matches a top domain's is shown as Punycode).

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::LazyLock;

use smallvec::SmallVec;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_security::confusable_detection::skeleton;

use super::host_labels::{self, HostLabel};
use super::top_domains::TOP_DOMAINS;
use super::{Check, FastHash, IriCheck, Rule, Severity, Sink, name_memo, whole_script};
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

/// The most skeletons a label or a name is compared by: a letter with several readings (`þ`
/// is `b` or `p`) multiplies them, and a label of many such letters would otherwise hold
/// exponentially many (Chromium caps its variants the same way).
const MAX_VARIANTS: usize = 32;

/// The longest label compared, in bytes: a DNS label has at most 63 octets in its ACE form, and a
/// character takes at least one of them and at most four bytes of UTF-8. A longer label can be
/// no domain's, and its variants are not built (a label of a megabyte would hold 64 of them).
const MAX_LABEL_BYTES: usize = 4 * 63;

/// A list of popular domains indexed by skeleton.
struct Index<'d> {
    /// Skeleton of the whole name → the domain (the first in list order wins a shared one).
    /// Hashed fast: built from the list, only looked up in with a document's names.
    by_skeleton: HashMap<String, &'d str, FastHash>,
    /// The skeletons of the domains' TLDs.
    tlds: HashSet<String, FastHash>,
}

impl<'d> Index<'d> {
    fn new(domains: &[&'d str]) -> Index<'d> {
        let mut by_skeleton = HashMap::with_capacity_and_hasher(domains.len(), FastHash::default());
        let mut tlds = HashSet::default();
        let mut add = |key: String, d: &'d str| {
            if let Some(tld) = key.rsplit('.').next()
                && !tlds.contains(tld)
            {
                tlds.insert(tld.to_string());
            }
            by_skeleton.entry(key).or_insert(d);
        };
        for &d in domains {
            // The bundled names are ASCII and lowercase: their skeleton is a concatenation from
            // a table (the index is built on the first IDN host, in a few milliseconds).
            if d.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
                let mut key = String::with_capacity(d.len() + 4);
                for b in d.bytes() {
                    key.push_str(&ASCII_SKELETONS[usize::from(b)]);
                }
                add(key, d);
                continue;
            }
            let labels: Vec<String> = d.split('.').map(displayed).collect();
            for key in name_skeletons(&labels).unwrap_or_default() {
                add(key, d);
            }
        }
        Index { by_skeleton, tlds }
    }
}

/// The bundled list's index, built on first use: only a host with a non-ASCII label under one
/// of the list's TLDs asks for it, so a document without one never pays for it.
static BUILT_IN: LazyLock<Index<'static>> = LazyLock::new(|| Index::new(TOP_DOMAINS));

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
    // Character by character: NFD of the whole string differs from the decompositions of its
    // characters only in the order of combining marks (canonical ordering), and all of them go.
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        unicode_normalization::char::decompose_canonical(c, |d| {
            if unicode_normalization::char::canonical_combining_class(d) == 0 {
                out.push(strip_stroke(d));
            }
        });
    }
    out
}

/// A label as a browser displays it: letters case-folded, and compatibility characters
/// (full-width letters) mapped as UTS #46 maps them.
fn displayed(label: &str) -> String {
    // An ASCII label folds to its ASCII lowercase and is NFKC already (the TLD of most hosts).
    if label.is_ascii() {
        return label.to_ascii_lowercase();
    }
    // Most labels are letters that NFKC leaves as they are: folded a character at a time from
    // what is remembered of each (a case mapping and two normalization tables were about 300
    // instructions a character).
    let mut quick = String::with_capacity(label.len());
    for c in label.chars() {
        match folded_stable(c) {
            (f, true) => quick.push(f),
            (_, false) => return displayed_slowly(label),
        }
    }
    quick
}

/// [`displayed`] of a label with a character NFKC may change (or of combining class other
/// than 0, which NFKC may reorder).
fn displayed_slowly(label: &str) -> String {
    let folded: String = label.chars().map(host_labels::folded).collect();
    if unicode_normalization::is_nfkc_quick(folded.chars())
        == unicode_normalization::IsNormalized::Yes
    {
        folded
    } else {
        folded.nfkc().flat_map(char::to_lowercase).collect()
    }
}

/// `c` as a host displays it ([`host_labels::folded`]), and whether NFKC leaves any run of
/// such characters as it is (combining class 0 and NFKC_QC Yes: `is_nfkc_quick` then says
/// Yes), remembered per thread in 256 slots by the code point's low bits.
fn folded_stable(c: char) -> (char, bool) {
    use std::cell::Cell;
    const SLOTS: usize = 256;
    type Slot = Cell<Option<(char, char, bool)>>;
    thread_local! {
        static RECENT: [Slot; SLOTS] = const { [const { Cell::new(None) }; SLOTS] };
    }
    RECENT.with(|recent| {
        let slot = &recent[c as usize % SLOTS];
        if let Some((k, f, stable)) = slot.get()
            && k == c
        {
            return (f, stable);
        }
        let f = host_labels::folded(c);
        let stable = unicode_normalization::char::canonical_combining_class(f) == 0
            && unicode_normalization::is_nfkc_quick(std::iter::once(f))
                == unicode_normalization::IsNormalized::Yes;
        slot.set(Some((c, f, stable)));
        (f, stable)
    })
}

/// The spellings of `s` with each letter of [`whole_script::extra_skeletons`] replaced by what
/// it passes for (every reading of a letter that has several), at most [`MAX_VARIANTS`].
fn extra_variants(s: &str) -> Vec<String> {
    if !s
        .chars()
        .any(|c| whole_script::extra_skeletons(c).is_some())
    {
        return vec![s.to_string()];
    }
    let mut out = vec![String::with_capacity(s.len())];
    for c in s.chars() {
        match whole_script::extra_skeletons(c) {
            None => out.iter_mut().for_each(|v| v.push(c)),
            Some(readings) => {
                let mut next = Vec::with_capacity(out.len() * readings.len());
                for v in &out {
                    for r in readings {
                        if next.len() < MAX_VARIANTS {
                            next.push(format!("{v}{r}"));
                        }
                    }
                }
                out = next;
            }
        }
    }
    out
}

/// The skeletons a label is compared by: the UTS #39 skeletons of the label and of the label
/// without diacritics, each taken after Chromium's extra mappings (`ь` is `b`, `ŋ` is `n`),
/// that are ASCII (a popular domain's skeleton is ASCII). Empty when none is, so that no name
/// with this label can match.
fn label_skeletons(label: &str) -> Vec<String> {
    if label.len() > MAX_LABEL_BYTES {
        return Vec::new();
    }
    if label.is_ascii() {
        return ascii_skeleton(label).into_iter().collect();
    }
    let mut out: Vec<String> = Vec::new();
    let lowered = capitals_lowered(label);
    let label = lowered.as_ref();
    let bare = without_diacritics(label);
    let forms: &[&str] = if bare == label {
        &[label]
    } else {
        &[label, &bare]
    };
    for form in forms {
        // Most labels have no letter of Chromium's extra mappings: the form is its one variant.
        if !form
            .chars()
            .any(|c| whole_script::extra_skeletons(c).is_some())
        {
            if let Some(sk) = ascii_skeleton(form)
                && !out.contains(&sk)
                && out.len() < MAX_VARIANTS
            {
                out.push(sk);
            }
            continue;
        }
        for v in extra_variants(form) {
            if let Some(sk) = ascii_skeleton(&v)
                && !out.contains(&sk)
                && out.len() < MAX_VARIANTS
            {
                out.push(sk);
            }
        }
    }
    out
}

/// Scripts without case whose letters look like Latin capitals (Lisu `ꓮꓑꓑꓡꓰ` reads
/// `APPLE`), and Cherokee, whose case folding keeps the capitals (`Ꭺ`).
const CAPITAL_SCRIPTS: [unicode_script::Script; 5] = [
    unicode_script::Script::Lisu,
    unicode_script::Script::Cherokee,
    unicode_script::Script::Canadian_Aboriginal,
    unicode_script::Script::Vai,
    unicode_script::Script::Tifinagh,
];

/// `label` with each letter of [`CAPITAL_SCRIPTS`] whose UTS #39 skeleton is Latin capitals
/// written as those letters in lowercase: `ꓮꓑꓑꓡꓰ.com` is read as `APPLE.COM`, which names
/// `apple.com` (a host's ASCII letters are lowercase, so the capitals alone never meet a name).
fn capitals_lowered(label: &str) -> std::borrow::Cow<'_, str> {
    let reading = |c: char| {
        if c.is_ascii() || !CAPITAL_SCRIPTS.contains(&crate::iri::props::script(c)) {
            return None;
        }
        let sk = whole_script::skeleton_of(c);
        (!sk.is_empty() && sk.bytes().all(|b| b.is_ascii_uppercase()))
            .then(|| sk.to_ascii_lowercase())
    };
    if !label.chars().any(|c| reading(c).is_some()) {
        return std::borrow::Cow::Borrowed(label);
    }
    let mut out = String::with_capacity(label.len());
    for c in label.chars() {
        match reading(c) {
            Some(r) => out.push_str(&r),
            None => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The UTS #39 skeleton of `s` when it is ASCII (a popular domain's is), `None` otherwise. An
/// ASCII `s` (an accented label without its diacritics, most often) is concatenated from a
/// table, no NFD needed (no ASCII character's prototype has a combining mark; only `%` has a
/// skeleton that is not ASCII, `°/₀`); the skeleton of any other is given up at its first
/// character that is not ASCII (a label with its accents stops at the first mark).
fn ascii_skeleton(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    if s.is_ascii() {
        for b in s.bytes() {
            out.push_str(&ASCII_SKELETONS[usize::from(b)]);
        }
        return out.is_ascii().then_some(out);
    }
    // Character by character, each skeleton remembered per thread (a skeleton is two
    // normalizations and a search, about 3,000 instructions for a label): the same result when
    // no character is a combining mark, as NFD then reorders nothing across characters, and an
    // ASCII skeleton holds no mark for the second NFD to reorder.
    if !s.chars().any(is_combining_mark) {
        for c in s.chars() {
            let ascii = if c.is_ascii() {
                let sk = &ASCII_SKELETONS[usize::from(c as u8)];
                out.push_str(sk);
                sk.is_ascii()
            } else {
                whole_script::with_skeleton(c, |sk| {
                    out.push_str(sk);
                    sk.is_ascii()
                })
            };
            if !ascii {
                return None;
            }
        }
        return Some(out);
    }
    for c in skeleton(s) {
        if !c.is_ascii() {
            return None;
        }
        out.push(c);
    }
    Some(out)
}

/// The skeletons of a name given as labels (displayed), joined with dots; `None` when a label
/// has none.
fn name_skeletons(labels: &[String]) -> Option<Vec<String>> {
    let mut each = Vec::with_capacity(labels.len());
    for label in labels {
        let sks = label_skeletons(label);
        if sks.is_empty() {
            return None;
        }
        each.push(sks);
    }
    Some(joined(each.iter()))
}

/// Every name made of one skeleton per label (`labels` in the name's order), joined with dots;
/// at most [`MAX_VARIANTS`].
fn joined<'a>(labels: impl Iterator<Item = &'a Vec<String>>) -> Vec<String> {
    let mut names = vec![String::new()];
    for (i, sks) in labels.enumerate() {
        let mut next = Vec::new();
        for n in &names {
            for sk in sks {
                if next.len() < MAX_VARIANTS {
                    next.push(if i == 0 {
                        sk.clone()
                    } else {
                        format!("{n}.{sk}")
                    });
                }
            }
        }
        names = next;
    }
    names
}

/// The popular domain of `index` that a host displays like, and how many of its last labels
/// make the look-alike name, given its labels as displayed (TLD last). The shortest such name
/// wins (`gооgle.com` before `www.gооgle.com`). An ASCII name is never a look-alike (it is
/// what it is: a typo-squat is not a look-alike), nor the domain itself.
fn imitated_in<'d>(index: &Index<'d>, shown: &[String]) -> Option<(&'d str, usize)> {
    // Held inline, not allocated: a host is compared by at most MAX_LABELS labels.
    let last: SmallVec<[&String; MAX_LABELS]> = shown
        .iter()
        .rev()
        .skip_while(|l| l.is_empty())
        .take(MAX_LABELS)
        .collect();
    // Every popular domain's TLD skeleton is one of a few: a host under another TLD cannot be
    // a look-alike of one (the common case for IDNs under their own TLDs).
    let tld = last.first()?;
    let tld_skeletons = label_skeletons(tld);
    if !tld_skeletons.iter().any(|t| index.tlds.contains(t)) {
        return None;
    }
    let mut skeletons: SmallVec<[Vec<String>; MAX_LABELS]> = SmallVec::new();
    skeletons.push(tld_skeletons);
    for n in 1..last.len() {
        // A label no popular domain's skeleton can hold ends the search.
        let sks = label_skeletons(last[n]);
        if sks.is_empty() {
            return None;
        }
        skeletons.push(sks);
        // The name's labels, TLD first.
        let name = &last[..=n];
        if name.iter().all(|l| l.is_ascii()) {
            continue;
        }
        let found = if skeletons.iter().all(|sks| sks.len() == 1) {
            // The common case, one skeleton a label: one key, made without the list of them.
            let mut key = String::with_capacity(skeletons.iter().map(|s| s[0].len() + 1).sum());
            for (i, sks) in skeletons.iter().rev().enumerate() {
                if i > 0 {
                    key.push('.');
                }
                key.push_str(&sks[0]);
            }
            index.by_skeleton.get(&key).copied()
        } else {
            // The skeletons are held TLD first: the name's order is the reverse.
            joined(skeletons.iter().rev())
                .iter()
                .find_map(|k| index.by_skeleton.get(k))
                .copied()
        };
        if let Some(d) = found
            && !is_name(
                d,
                &name
                    .iter()
                    .map(|l| l.as_str())
                    .collect::<SmallVec<[&str; MAX_LABELS]>>(),
            )
        {
            return Some((d, n + 1));
        }
    }
    None
}

/// True when `d` is the name whose labels are `labels` (TLD first) joined with dots, ASCII
/// case ignored (compared in place, not joined).
fn is_name(d: &str, labels: &[&str]) -> bool {
    let mut rest = d.as_bytes();
    for (i, label) in labels.iter().rev().enumerate() {
        if i > 0 {
            match rest.split_first() {
                Some((b'.', r)) => rest = r,
                _ => return false,
            }
        }
        let label = label.as_bytes();
        match rest.split_at_checked(label.len()) {
            Some((head, r)) if head.eq_ignore_ascii_case(label) => rest = r,
            _ => return false,
        }
    }
    rest.is_empty()
}

/// The domain of `domains` that `host` displays like, by the comparison `lookalike-domain` makes
/// with its bundled list: for checking a host against another list, as Chromium's spoof-checker
/// tests do with their own.
pub fn imitated_domain(host: &str, domains: &[&str]) -> Option<String> {
    let index = Index::new(domains);
    let shown: Vec<String> = host
        .split('.')
        .map(|l| {
            let ace = l
                .as_bytes()
                .get(..4)
                .is_some_and(|p| p.eq_ignore_ascii_case(b"xn--"));
            let decoded = if ace {
                super::idn::decode_ace(l).unwrap_or_else(|| l.to_string())
            } else {
                l.to_string()
            };
            displayed(&decoded)
        })
        .collect();
    imitated_in(&index, &shown).map(|(d, _)| d.to_string())
}

/// What a name displays like, by its labels' texts ([`imitated_in`] with [`BUILT_IN`]): how
/// many of its last labels make the look-alike name, and the finding's message and help (the
/// popular domain, the name as displayed, escaped), built once per name.
type Imitation = Option<std::rc::Rc<Imitated>>;

/// A name found to display like a popular domain.
struct Imitated {
    /// How many of the name's last non-empty labels make the look-alike name.
    labels: usize,
    message: String,
    help: String,
}

impl Imitated {
    /// The finding of the name whose last `labels` labels, displayed, are `name` (escaped),
    /// which looks like `domain`.
    fn new(domain: &str, labels: usize, name: &str) -> Imitated {
        // Pieces joined, not `format!`: a look-alike met once builds these once.
        Imitated {
            labels,
            message: [
                "the host name `",
                name,
                "` looks like `",
                domain,
                "`, one of the most visited domains, but is a different domain (their UTS #39 skeletons are the same)",
            ]
            .concat(),
            help: ["link to `", domain, "` if that site is meant; otherwise this name only imitates it"]
                .concat(),
        }
    }
}

thread_local! {
    /// [`Imitation`] of the names met last ([`name_memo`]): the same look-alike host is linked
    /// again and again, and its labels' skeletons are most of what the rule costs.
    static IMITATIONS: std::cell::RefCell<name_memo::Memo<Imitation>> =
        std::cell::RefCell::new(name_memo::Memo::new());
}

/// [`Imitation`] of a name given as its labels, computed: by [`quick_imitation`] when every
/// label it reads has one skeleton found character by character (most names), else by the
/// general comparison.
fn imitation(labels: &[HostLabel<'_>]) -> Imitation {
    if let Some(answer) = quick_imitation(&BUILT_IN, labels) {
        return answer;
    }
    slow_imitation(labels)
}

/// [`Imitation`] by the general comparison: every label displayed, its skeletons listed.
fn slow_imitation(labels: &[HostLabel<'_>]) -> Imitation {
    let shown: Vec<String> = labels.iter().map(|l| displayed(l.text)).collect();
    let (domain, n) = imitated_in(&BUILT_IN, &shown)?;
    // The labels of the name, TLD first, with their displayed forms.
    let named: Vec<&String> = labels
        .iter()
        .zip(&shown)
        .rev()
        .skip_while(|(l, _)| l.text.is_empty())
        .take(n)
        .map(|(_, d)| d)
        .collect();
    let name = named
        .iter()
        .rev()
        .map(|d| d.as_str())
        .collect::<Vec<_>>()
        .join(".");
    Some(std::rc::Rc::new(Imitated::new(
        domain,
        n,
        &escape_unsafe(&name),
    )))
}

/// What [`quick_imitation`] knows of one character of a label as written.
#[derive(Clone, Copy, PartialEq, Debug)]
enum CharReading {
    /// The character as displayed, which has one reading that keeps it as it is (NFKC-stable,
    /// no diacritic to remove, no capital-script reading, no extra mapping, no combining mark),
    /// and its UTS #39 skeleton, ASCII (`len` bytes of `skeleton`); `visible` when a message
    /// may show it as it is.
    Plain {
        shown: char,
        skeleton: [u8; 7],
        len: u8,
        visible: bool,
    },
    /// Such a character whose skeleton is not ASCII: a label holding it names no popular
    /// domain.
    Foreign { shown: char, visible: bool },
    /// Anything else: the label goes the general way.
    Other,
}

/// [`CharReading`] of `c`: what [`displayed`] and [`label_skeletons`] would make of it alone,
/// when that is all there is to it.
fn char_reading(c: char) -> CharReading {
    if c.is_ascii() {
        let shown = char::from(c.to_ascii_lowercase() as u8);
        return ascii_reading(shown, &ASCII_SKELETONS[usize::from(shown as u8)]);
    }
    let (shown, stable) = folded_stable(c);
    if !stable
        || is_combining_mark(shown)
        || whole_script::extra_skeletons(shown).is_some()
        || CAPITAL_SCRIPTS.contains(&crate::iri::props::script(shown))
        || strip_stroke(shown) != shown
    {
        return CharReading::Other;
    }
    let mut kept = true;
    unicode_normalization::char::decompose_canonical(shown, |d| kept &= d == shown);
    if !kept {
        return CharReading::Other;
    }
    whole_script::with_skeleton(shown, |sk| ascii_reading(shown, sk))
}

/// [`CharReading`] of a character shown as `shown` whose skeleton is `sk`; `visible` is
/// whether a message may show it as it is (not [`crate::iri::chars::is_unsafe_to_display`]).
fn ascii_reading(shown: char, sk: &str) -> CharReading {
    let visible = !crate::iri::chars::is_unsafe_to_display(shown);
    if !sk.is_ascii() {
        return CharReading::Foreign { shown, visible };
    }
    let mut skeleton = [0u8; 7];
    match skeleton.get_mut(..sk.len()) {
        Some(room) => {
            room.copy_from_slice(sk.as_bytes());
            CharReading::Plain {
                shown,
                skeleton,
                len: sk.len() as u8,
                visible,
            }
        }
        None => CharReading::Other,
    }
}

/// [`char_reading`], remembered per thread in 256 slots by the code point's low bits (a pure
/// function of the character: a host's letters come from a small alphabet).
fn remembered_reading(c: char) -> CharReading {
    use std::cell::Cell;
    const SLOTS: usize = 256;
    thread_local! {
        static RECENT: [Cell<Option<(char, CharReading)>>; SLOTS] =
            const { [const { Cell::new(None) }; SLOTS] };
    }
    RECENT.with(|recent| {
        let slot = &recent[c as usize % SLOTS];
        if let Some((k, r)) = slot.get()
            && k == c
        {
            return r;
        }
        let r = char_reading(c);
        slot.set(Some((c, r)));
        r
    })
}

/// One label as [`quick_imitation`] read it: its displayed form and its skeleton as ranges of
/// the two buffers, `None` for a label without an ASCII skeleton.
struct QuickLabel {
    shown: Range<usize>,
    skeleton: Option<Range<usize>>,
    /// Whether a message may show every character as it is.
    visible: bool,
}

/// Reads `label` into `shown` (displayed) and `skeletons` (its one skeleton); `None` when a
/// character needs the general way.
fn quick_label(label: &str, shown: &mut String, skeletons: &mut String) -> Option<QuickLabel> {
    let (s0, k0) = (shown.len(), skeletons.len());
    let mut ascii_skeleton = true;
    let mut all_visible = true;
    for c in label.chars() {
        match remembered_reading(c) {
            CharReading::Plain {
                shown: d,
                skeleton,
                len,
                visible,
            } => {
                shown.push(d);
                all_visible &= visible;
                if ascii_skeleton {
                    // ASCII bytes, each a character.
                    skeleton[..usize::from(len)]
                        .iter()
                        .for_each(|&b| skeletons.push(char::from(b)));
                }
            }
            CharReading::Foreign { shown: d, visible } => {
                shown.push(d);
                all_visible &= visible;
                ascii_skeleton = false;
            }
            CharReading::Other => return None,
        }
    }
    // A label longer than any DNS label has no skeletons ([`label_skeletons`]).
    let skeleton =
        (ascii_skeleton && shown.len() - s0 <= MAX_LABEL_BYTES).then_some(k0..skeletons.len());
    Some(QuickLabel {
        shown: s0..shown.len(),
        skeleton,
        visible: all_visible,
    })
}

/// The buffers [`quick_imitation`] reads a name into, kept per thread: a name's displayed
/// labels, their skeletons, and the key of the name looked up.
#[derive(Default)]
struct Scratch {
    shown: String,
    skeletons: String,
    key: String,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// [`Imitation`] of a name whose last labels each have one skeleton found character by
/// character ([`CharReading::Plain`] and [`CharReading::Foreign`] characters only): the
/// comparison [`imitated_in`] makes, read into two buffers instead of a string per label, a
/// list of skeletons per label and a key per name. `None` when a label it reads needs the
/// general way (its answer is then found by [`slow_imitation`]).
fn quick_imitation(index: &Index<'_>, labels: &[HostLabel<'_>]) -> Option<Imitation> {
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let Scratch {
            shown,
            skeletons,
            key,
        } = &mut *scratch;
        shown.clear();
        skeletons.clear();
        key.clear();
        quick_imitation_in(index, labels, shown, skeletons, key)
    })
}

/// [`quick_imitation`] with its buffers.
fn quick_imitation_in(
    index: &Index<'_>,
    labels: &[HostLabel<'_>],
    shown: &mut String,
    skeletons: &mut String,
    key: &mut String,
) -> Option<Imitation> {
    let mut read: SmallVec<[QuickLabel; MAX_LABELS]> = SmallVec::new();
    let last = labels
        .iter()
        .rev()
        .skip_while(|l| l.text.is_empty())
        .take(MAX_LABELS);
    for (n, label) in last.enumerate() {
        let q = quick_label(label.text, shown, skeletons)?;
        // A label no popular domain's skeleton can hold ends the search.
        let Some(sk) = q.skeleton.clone() else {
            return Some(None);
        };
        read.push(q);
        if n == 0 {
            // Every popular domain's TLD skeleton is one of a few.
            if !index.tlds.contains(&skeletons[sk.clone()]) {
                return Some(None);
            }
            key.push_str(&skeletons[sk]);
            continue;
        }
        // The key of the name from this label to the TLD.
        key.insert(0, '.');
        key.insert_str(0, &skeletons[sk]);
        if read.iter().all(|l| shown[l.shown.clone()].is_ascii()) {
            continue;
        }
        let Some(&d) = index.by_skeleton.get(key.as_str()) else {
            continue;
        };
        let name: SmallVec<[&str; MAX_LABELS]> =
            read.iter().map(|l| &shown[l.shown.clone()]).collect();
        if is_name(d, &name) {
            continue;
        }
        // The name as displayed, in its order, escaped where a character is not visible.
        let mut written = String::with_capacity(shown.len() + n);
        for (i, (l, q)) in name.iter().zip(&read).rev().enumerate() {
            if i > 0 {
                written.push('.');
            }
            if q.visible {
                written.push_str(l);
            } else {
                l.chars()
                    .for_each(|c| crate::iri::chars::push_visible(&mut written, c));
            }
        }
        return Some(Some(std::rc::Rc::new(Imitated::new(d, n + 1, &written))));
    }
    Some(None)
}

fn check_lookalike_domain(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    host_labels::for_each_name(input, |labels, _| {
        let (Some(first), Some(last)) = (labels.first(), labels.last()) else {
            return;
        };
        // The key: the name as written from its first label to its last, which the labels are
        // found in again the same way (split at its dots, `xn--` labels decoded).
        let key = &input.text.as_bytes()[first.range.start..last.range.end];
        let Some(found) = name_memo::remembered(&IMITATIONS, key, || imitation(labels)) else {
            return;
        };
        let mut named = labels
            .iter()
            .rev()
            .skip_while(|l| l.text.is_empty())
            .take(found.labels);
        let Some(tld) = named.next() else {
            return;
        };
        let first = named.last().unwrap_or(tld);
        let range: Range<usize> = first.range.start..tld.range.end;
        sink.report(range, found.message.clone(), Some(found.help.clone()));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imitated(name: &str) -> Option<&'static str> {
        let shown: Vec<String> = name.split('.').map(displayed).collect();
        imitated_in(&BUILT_IN, &shown).map(|(d, _)| d)
    }

    #[test]
    fn ascii_skeletons_are_as_computed() {
        let all: String = (0..128u8).map(char::from).collect();
        let table: String = all
            .bytes()
            .map(|b| ASCII_SKELETONS[usize::from(b)].as_str())
            .collect();
        assert_eq!(table, skeleton(&all).collect::<String>());
        assert!(label_skeletons(&all).is_empty()); // `%` has a non-ASCII skeleton
        let name: String = all
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        assert_eq!(
            label_skeletons(&name),
            vec![skeleton(&name).collect::<String>()]
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

    #[test]
    fn letters_with_hooks_bars_and_extra_mappings() {
        // Chromium's extra mappings and letters with a hook, bar or stroke (issue 41).
        assert_eq!(imitated("\u{14B}etflix.com"), Some("netflix.com"));
        assert_eq!(imitated("wikiped\u{268}a.org"), Some("wikipedia.org"));
        assert_eq!(imitated("spot\u{268}fy.com"), Some("spotify.com"));
        assert_eq!(imitated("\u{44C}ing.com"), Some("bing.com"));
        assert_eq!(imitated("youtub\u{435}.com"), Some("youtube.com"));
        assert_eq!(imitated("www.\u{44C}ing.com"), Some("bing.com"));
        // Several readings: `þ` is `b` or `p`.
        assert_eq!(imitated("\u{FE}aypal.com"), Some("paypal.com"));
    }

    #[test]
    fn another_list() {
        let list = ["f\u{F3}\u{F3}.com", "test.net", "digklmo68.co.uk"];
        assert_eq!(
            imitated_domain("f\u{F3}o.com", &list).as_deref(),
            Some("f\u{F3}\u{F3}.com")
        );
        assert_eq!(imitated_domain("f\u{F3}\u{F3}.com", &list), None);
        assert_eq!(
            imitated_domain("xn--tst-bma.net", &list).as_deref(),
            Some("test.net")
        );
        assert_eq!(
            imitated_domain("\u{E9}xample.test.n\u{E9}t", &list).as_deref(),
            Some("test.net")
        );
        assert_eq!(
            imitated_domain("mail.\u{111}igklmo68.co.uk", &list).as_deref(),
            Some("digklmo68.co.uk")
        );
        assert_eq!(imitated_domain("at\u{E9}st.net", &list), None);
        // A label longer than DNS allows is no domain's.
        let long = format!("{}.com", "\u{FE}".repeat(200));
        assert_eq!(imitated_domain(&long, &list), None);
        assert!(label_skeletons(&"\u{FE}".repeat(200)).is_empty());
        // Any text: no panic on a label that starts inside a multi-byte character.
        assert_eq!(imitated_domain("\u{5317}\u{4EAC}.x", &list), None);
        assert_eq!(imitated_domain("", &list), None);
    }

    /// Labels of the kinds the quick paths take and leave: Cyrillic and Greek look-alikes,
    /// accents written whole and as combining marks (in both orders), capitals, full-width,
    /// Cherokee, default-ignorables, a mark whose prototype is ASCII, `%`.
    const LABELS: &[&str] = &[
        "g\u{43E}\u{43E}gl\u{435}",
        "\u{441}\u{43E}\u{440}\u{440}\u{435}r\u{441}\u{43E}\u{456}n",
        "\u{3B1}\u{3C1}\u{3C1}l\u{3B5}",
        "\u{E9}\u{E8}\u{E0}b\u{FC}\u{E7}n",
        "e\u{301}x\u{300}ample",
        "a\u{301}\u{338}b",
        "a\u{338}\u{301}b",
        "\u{338}pple",
        "G\u{41E}OGLE",
        "\u{FF27}oogle",
        "\u{13A0}\u{AB70}\u{13F8}",
        "pay\u{AD}pal",
        "mi\u{200D}crosoft",
        "\u{1E9E}tra\u{DF}e",
        "\u{130}stanbul",
        "ex%ample",
        "",
    ];

    #[test]
    fn skeletons_by_character_are_the_skeletons() {
        for label in LABELS {
            let whole: String = skeleton(label).collect();
            assert_eq!(
                ascii_skeleton(label),
                whole.is_ascii().then_some(whole),
                "{label:?}"
            );
        }
    }

    #[test]
    fn labels_displayed_quickly_are_displayed_as_before() {
        for label in LABELS {
            assert_eq!(displayed(label), displayed_slowly(label), "{label:?}");
        }
    }

    #[test]
    fn names_are_compared_as_if_joined() {
        let labels = |s: &str| -> Vec<String> { s.split('.').rev().map(str::to_string).collect() };
        for (d, name) in [
            ("google.com", "google.com"),
            ("google.com", "GOOGLE.Com"),
            ("google.com", "google.co"),
            ("google.com", "google.comm"),
            ("google.com", "googlecom"),
            ("google.com", "www.google.com"),
            ("google.co.uk", "google.co.uk"),
            ("google.co.uk", "google.couk"),
            ("", ""),
        ] {
            let owned = labels(name);
            let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
            assert_eq!(
                is_name(d, &refs),
                d.eq_ignore_ascii_case(name),
                "{d} {name}"
            );
        }
    }

    /// The labels of `name` as [`host_labels::for_each_name`] hands them over (not `xn--`).
    fn host_labels_of(name: &str) -> Vec<HostLabel<'_>> {
        let mut at = 0;
        name.split('.')
            .map(|l| {
                let label = HostLabel {
                    range: at..at + l.len(),
                    text: l,
                    ace: false,
                    written: l,
                };
                at += l.len() + 1;
                label
            })
            .collect()
    }

    /// What a finding of [`Imitation`] says, for comparing two of them.
    fn said(i: &Imitation) -> Option<(usize, String, String)> {
        i.as_ref()
            .map(|f| (f.labels, f.message.clone(), f.help.clone()))
    }

    #[test]
    fn the_quick_comparison_answers_as_the_general_one() {
        // Popular domains and their look-alikes of every kind the quick path takes or leaves:
        // Cyrillic and Greek letters for Latin ones, capitals, accents written whole and as
        // marks, letters with strokes, extra mappings, full-width letters, capital-script
        // letters, `%`, empty and overlong labels, more labels than are compared.
        let swaps: &[(char, &str)] = &[
            ('o', "\u{43E}"),
            ('a', "\u{430}"),
            ('e', "\u{435}"),
            ('p', "\u{440}"),
            ('c', "\u{441}"),
            ('i', "\u{456}"),
            ('o', "\u{3BF}"),
            ('o', "\u{F8}"),
            ('e', "\u{E9}"),
            ('e', "e\u{301}"),
            ('b', "\u{44C}"),
            ('l', "\u{142}"),
            ('j', "\u{237}"),
            ('c', "\u{107}"),
            ('u', "\u{1B0}"),
            ('n', "\u{14B}"),
            ('g', "G"),
            ('o', "O"),
            ('a', "\u{FF41}"),
            ('m', "rn"),
            ('s', "\u{DF}"),
            ('i', "\u{131}"),
            ('a', "\u{A4EE}"),
            ('o', "%"),
            ('e', "\u{AD}"),
        ];
        let mut names: Vec<String> = Vec::new();
        for d in TOP_DOMAINS.iter().step_by(7).take(1500) {
            for (k, (from, to)) in swaps.iter().enumerate() {
                if !d.contains(*from) {
                    continue;
                }
                names.push(d.replacen(*from, to, 1));
                if k % 3 == 0 {
                    names.push(d.replace(*from, to));
                    names.push(format!("www.{}", d.replacen(*from, to, 1)));
                }
            }
            names.push(d.to_string());
            names.push(d.to_uppercase());
        }
        for extra in [
            "g\u{43E}\u{43E}gle.com.",
            "g\u{43E}\u{43E}gle..com",
            ".g\u{43E}\u{43E}gle.com",
            "a.b.c.g\u{43E}\u{43E}gle.co.uk",
            "mail.g\u{43E}\u{43E}gle.co.uk",
            "g\u{43E}\u{43E}gle.\u{441}\u{43E}m",
            "\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}.\u{440}\u{444}",
            "\u{13A0}\u{AB70}\u{13F8}.com",
            "",
            ".",
            "..",
        ] {
            names.push(extra.to_string());
        }
        names.push(format!("{}.com", "\u{43E}".repeat(126)));
        names.push(format!("{}.com", "\u{43E}".repeat(127)));
        names.push(format!("{}.com", "o".repeat(260)));
        names.extend(LABELS.iter().map(|l| format!("{l}.com")));
        let mut quick = 0;
        let mut found = 0;
        for name in &names {
            let labels = host_labels_of(name);
            let slow = slow_imitation(&labels);
            found += usize::from(slow.is_some());
            if let Some(answer) = quick_imitation(&BUILT_IN, &labels) {
                quick += 1;
                assert_eq!(said(&answer), said(&slow), "{name:?}");
            }
            assert_eq!(said(&imitation(&labels)), said(&slow), "{name:?}");
        }
        // Most names are answered quickly, and the look-alikes among them are found.
        assert!(quick * 2 > names.len(), "{quick} of {}", names.len());
        assert!(found * 4 > names.len(), "{found} of {}", names.len());
    }
}
