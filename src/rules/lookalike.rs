//! Mixed scripts and look-alikes (RFC 3987 §6.1, §7.5, §8; UTS #39).
//!
//! Both rules look at one word at a time: each §4.2 component ([`parts`]) cut at ASCII characters
//! other than letters and digits (`-` `_` `.` `~` `:` `+` ...) and at `%XX` triplets. Host labels
//! in ACE form (`xn--`) are decoded first and checked as the Unicode label they stand for; a
//! finding then covers the whole ACE label and its message shows the decoded form.
//!
//! Script data: `unicode-script` (Script and Script_Extensions) and `unicode-security` (UTS #39
//! confusables and skeletons), both Unicode 18.0 (`unicode_security::UNICODE_VERSION`).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use smallvec::SmallVec;

use crate::iri::props;
use unicode_script::Script;
use unicode_security::confusable_detection::skeleton;
use unicode_security::mixed_script::AugmentedScriptSet;

use super::{
    Check, IriCheck, Rule, Severity, Sink, describe_chars, host_labels, parts, whole_script,
};
use crate::iri::Component;
use crate::iri::chars::{
    CharSet, Piece, describe, escape_unsafe, is_bidi_formatting, is_default_ignorable, pieces,
};
use crate::work::{self, Work};

/// `mixed-script`.
pub const MIXED_SCRIPT: Rule = Rule {
    id: "mixed-script",
    group: "lookalike",
    severity: Severity::Warning,
    rfc: &["7.5", "8"],
    doc: include_str!("../../rules/mixed-script.md"),
    unicode_only: true,
    check: Check::Iri(check_mixed_script),
};

/// `confusable`.
pub const CONFUSABLE: Rule = Rule {
    id: "confusable",
    group: "lookalike",
    severity: Severity::Warning,
    rfc: &["6.1", "7.5", "8"],
    doc: include_str!("../../rules/confusable.md"),
    unicode_only: true,
    check: Check::Iri(check_confusable),
};

// ---------------------------------------------------------------------------------------------
// Units and words
// ---------------------------------------------------------------------------------------------

/// A component as the script rules see it.
struct Unit<'a> {
    component: Component,
    /// Its range in the prepared IRI.
    range: Range<usize>,
    /// The text checked: the component itself, or the decoded form of an `xn--` label.
    text: Cow<'a, str>,
    /// The `xn--` label `text` was decoded from.
    ace: Option<&'a str>,
}

impl Unit<'_> {
    /// The range in the IRI to report for `word` (a range in `text`).
    fn span(&self, word: &Range<usize>) -> Range<usize> {
        if self.ace.is_some() {
            self.range.clone()
        } else {
            self.range.start + word.start..self.range.start + word.end
        }
    }

    /// Its place for a message ([`Place::describe`]), held for words built later
    /// ([`super::Unspoken`]).
    fn owned_place(&self) -> Place {
        Place {
            component: self.component,
            ace: self.ace.map(|ace| (ace.to_string(), self.text.to_string())),
        }
    }
}

/// A unit's place, owned: the component, and an `xn--` label with its decoded form.
#[derive(Clone)]
struct Place {
    component: Component,
    ace: Option<(String, String)>,
}

impl Place {
    /// `the host label`, `the path segment`, or the ACE label with its decoded form.
    fn describe(&self) -> String {
        match &self.ace {
            Some((ace, decoded)) => format!(
                "the host label `{ace}` (decoded: `{}`)",
                escape_unsafe(decoded)
            ),
            None => format!(
                "the {}",
                match self.component {
                    Component::Host => "host label",
                    Component::Path => "path segment",
                    c => c.name(),
                }
            ),
        }
    }
}

/// What both script rules need to know of a non-ASCII word that is not plainly of one script,
/// found once and shared (`mixed-script` and `confusable` asked the same questions of each
/// word, each reading its characters again).
#[derive(Clone)]
pub(super) struct WordFacts {
    /// UTS #39 highly restrictive ([`highly_restrictive`]).
    highly_restrictive: bool,
    /// Single-script ([`single_script`]).
    single_script: bool,
    /// The scripts of its letters ([`tally`]), for a word that is not single-script.
    tally: Option<Arc<Tally>>,
}

/// The most words whose facts an IRI keeps for the next rule: a host has a few, and an IRI of a
/// million mixed words holds no million tallies (past this many, each rule finds them itself).
const KEPT_WORDS: usize = 256;

/// The facts of the word `w` at `word` of `unit`: the cheap answer for a word plainly of one
/// script (most words), else what the other script rule found, or found now and kept for it.
fn facts(input: &IriCheck<'_>, unit: &Unit<'_>, word: &Range<usize>, w: &str) -> WordFacts {
    if plainly_one_script(w) {
        return WordFacts {
            highly_restrictive: true,
            single_script: true,
            tally: None,
        };
    }
    let at = (unit.range.start, word.start);
    if let Some(known) = input.script_words.borrow().get(&at) {
        return known.clone();
    }
    // Stopping where `highly_restrictive` stops: once the set is empty (and no CJK set is
    // left), single-script's answer is settled too.
    let (all, non_latin) = resolved_sets(w, |a, n| !restrictive(a, n));
    let single = !all.is_empty();
    let highly = single
        || restrictive(&all, &non_latin)
            && !w
                .chars()
                .any(|c| !c.is_ascii() && props::script(c) == Script::Latin);
    let found = WordFacts {
        highly_restrictive: highly,
        single_script: single,
        tally: (!single).then(|| Arc::new(tally(w))),
    };
    let mut kept = input.script_words.borrow_mut();
    if kept.len() < KEPT_WORDS {
        kept.insert(at, found.clone());
    }
    found
}

fn is_ace(label: &str) -> bool {
    label
        .as_bytes()
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"xn--"))
}

/// Decodes an `xn--` label to non-ASCII; `None` when it is not valid Punycode or too long for
/// DNS (`idn-invalid` reports both).
fn decode_ace(label: &str) -> Option<String> {
    super::idn::decode_ace(label).filter(|d| !d.is_ascii())
}

/// The non-ASCII components and decoded ACE labels of the IRI.
fn units<'a>(input: &IriCheck<'a>) -> impl Iterator<Item = Unit<'a>> {
    let text: &'a str = input.text;
    // Found as they are asked for: a host of a million labels holds no million units.
    parts(text, input.iri).filter_map(move |part| {
        let s = &text[part.range.clone()];
        if part.component == Component::Host && is_ace(s) {
            decode_ace(s).map(|decoded| Unit {
                component: part.component,
                range: part.range,
                text: Cow::Owned(decoded),
                ace: Some(s),
            })
        } else if !s.is_ascii() {
            Some(Unit {
                component: part.component,
                range: part.range,
                text: Cow::Borrowed(s),
                ace: None,
            })
        } else {
            None
        }
    })
}

/// The words of a component: maximal runs without ASCII punctuation, space or `%XX`.
fn words(s: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let b = s.as_bytes();
    // Length of the separator at `i` (0 when none).
    let sep = move |i: usize| -> usize {
        let c = b[i];
        if c == b'%'
            && b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            3
        } else if c.is_ascii() && !c.is_ascii_alphanumeric() {
            1
        } else {
            0
        }
    };
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            match sep(i) {
                0 => break,
                n => i += n,
            }
        }
        if i >= b.len() {
            return None;
        }
        let start = i;
        while i < b.len() && sep(i) == 0 {
            i += 1;
        }
        Some(start..i)
    })
}

/// Characters of no script in particular: Common, Inherited, Unknown (unassigned, private use).
fn is_neutral(s: Script) -> bool {
    matches!(s, Script::Common | Script::Inherited | Script::Unknown)
}

/// Invisible characters are not letters of a word: `invisible-character` and
/// `bidi-formatting-character` report them (U+061C ARABIC LETTER MARK is Arabic, U+3164 HANGUL
/// FILLER Hangul, U+180E MONGOLIAN VOWEL SEPARATOR Mongolian).
fn is_invisible(c: char) -> bool {
    is_default_ignorable(c) || is_bidi_formatting(c)
}

/// The script of `c` for these rules: Unknown for invisible characters.
fn script(c: char) -> Script {
    if is_invisible(c) {
        Script::Unknown
    } else {
        props::script(c)
    }
}

/// True when `run` (ASCII) has a letter.
fn has_ascii_letter(run: &str) -> bool {
    run.bytes().any(|b| b.is_ascii_alphabetic())
}

/// The fast path: every letter has the same Script value and there is no non-ASCII character of
/// Common or Inherited script (whose Script_Extensions could narrow the set). Such a word is
/// single-script. ASCII letters are Latin, and the rest of ASCII is of no script: runs of ASCII
/// are looked at only while they could change the answer.
fn plainly_one_script(word: &str) -> bool {
    let mut seen: Option<Script> = None;
    for piece in pieces(word) {
        let s = match piece {
            Piece::Ascii(_, run) => {
                if seen == Some(Script::Latin) || !has_ascii_letter(run) {
                    continue;
                }
                Script::Latin
            }
            Piece::Char(_, c) if is_latin1_letter(c) => Script::Latin,
            Piece::Char(_, c) => {
                work::add(Work::RuleChars, 1);
                let s = props::script(c);
                if is_neutral(s) {
                    return false;
                }
                s
            }
        };
        match seen {
            None => seen = Some(s),
            Some(t) if t != s => return false,
            Some(_) => {}
        }
    }
    true
}

/// The letters of Latin-1 Supplement (`ª`, `º`, `À`..`ÿ` but `×` and `÷`): all Latin script, so
/// a word of Western European letters needs no table lookup.
fn is_latin1_letter(c: char) -> bool {
    matches!(c, '\u{AA}' | '\u{BA}' | '\u{C0}'..='\u{FF}') && !matches!(c, '\u{D7}' | '\u{F7}')
}

/// The resolved script set of `word` (UTS #39 §5.1, augmented), and that of its characters that
/// are not Latin. Characters of script Unknown (unassigned, private use, invisible) are left
/// out. Every ASCII letter's set is Latin's, and every other ASCII character's is all scripts
/// (`ascii_sets_are_latin_or_all`): a run of ASCII counts once, by whether it has a letter.
/// The sets only shrink: the scan stops once `settled` says no character can change the answer.
fn resolved_sets(
    word: &str,
    settled: fn(&AugmentedScriptSet, &AugmentedScriptSet) -> bool,
) -> (AugmentedScriptSet, AugmentedScriptSet) {
    let mut all = AugmentedScriptSet::default();
    let mut non_latin = AugmentedScriptSet::default();
    let mut latin_seen = false;
    // Intersecting again with a set changes nothing: a character like the one before is skipped.
    let mut last = None;
    for piece in pieces(word) {
        match piece {
            Piece::Ascii(_, run) => {
                if !latin_seen && has_ascii_letter(run) {
                    latin_seen = true;
                    all.intersect_with(props::script_set('a'));
                }
            }
            Piece::Char(_, c) => {
                if last == Some(c) {
                    continue;
                }
                last = Some(c);
                work::add(Work::RuleChars, 1);
                if script(c) == Script::Unknown {
                    continue;
                }
                let set = props::script_set(c);
                all.intersect_with(set);
                if !set.base.contains_script(Script::Latin) {
                    non_latin.intersect_with(set);
                }
            }
        }
        if settled(&all, &non_latin) {
            break;
        }
    }
    (all, non_latin)
}

/// UTS #39 §5.2 highly restrictive: the resolved script set (with Script_Extensions and the
/// augmented Jpan, Kore, Hanb sets) is not empty, or it is once Latin letters are left out and
/// what remains is Japanese, Korean or Chinese. Unassigned and private-use characters (script
/// Unknown) are left out.
#[cfg(test)]
fn highly_restrictive(word: &str) -> bool {
    if plainly_one_script(word) {
        return true;
    }
    let (all, non_latin) = resolved_sets(word, |a, n| !restrictive(a, n));
    if !all.is_empty() {
        return true;
    }
    // Latin beside Japanese, Korean or Chinese: allowed with ASCII letters only, as Chrome
    // allows it ("HIGHLY_RESTRICTIVE with Latin limited to ASCII-Latin"): `café카페` and
    // `héllo中国` mix an accented Latin letter into a CJK name.
    restrictive(&all, &non_latin)
        && !word
            .chars()
            .any(|c| !c.is_ascii() && props::script(c) == Script::Latin)
}

/// True while a word whose resolved sets are these can still be highly restrictive.
fn restrictive(all: &AugmentedScriptSet, non_latin: &AugmentedScriptSet) -> bool {
    !all.is_empty() || non_latin.jpan || non_latin.kore || non_latin.hanb
}

/// True when the word's resolved script set is not empty (UTS #39 single-script, augmented:
/// Japanese, Korean and Chinese mixes of Han with kana, Hangul or Bopomofo count as one). The
/// encoding rules ask it too, of the text a run of bytes would be in another encoding.
pub(super) fn single_script(word: &str) -> bool {
    plainly_one_script(word) || !resolved_sets(word, |all, _| all.is_empty()).0.is_empty()
}

/// The letters of one script in a word.
#[derive(Debug, Default)]
struct Letters {
    /// How many (each occurrence counts).
    count: usize,
    /// How many distinct ones.
    distinct: usize,
    /// The first [`NAMED_LETTERS`] distinct ones, in order of first appearance: all a message
    /// names (held inline: a list of every distinct letter was an allocation or more a word).
    first: SmallVec<[char; NAMED_LETTERS]>,
}

/// How many of a script's letters a message names ([`Letters::describe`]).
const NAMED_LETTERS: usize = 3;

impl Letters {
    /// Counts `c`, a letter not met before in the word.
    fn add_distinct(&mut self, c: char) {
        self.distinct += 1;
        if self.first.len() < NAMED_LETTERS {
            self.first.push(c);
        }
    }

    /// `U+0430 CYRILLIC SMALL LETTER A`, a list for a few, a count for many (as
    /// [`describe_chars`] of all of them).
    fn describe(&self) -> String {
        let first: String = self.first.iter().collect();
        let names = describe_chars(&first);
        match self.distinct.saturating_sub(NAMED_LETTERS) {
            0 => names,
            more => format!("{names} and {more} more"),
        }
    }
}

/// The scripts of a word's letters with the letters of each ([`tally`]): a word has one or
/// two, held inline.
type Tally = SmallVec<[(Script, Letters); 2]>;

/// The entry of `script` in a tally, made if it is not there yet.
fn letters_of(out: &mut Tally, script: Script) -> &mut Letters {
    let k = match out.iter().position(|(t, _)| *t == script) {
        Some(k) => k,
        None => {
            out.push((script, Letters::default()));
            out.len() - 1
        }
    };
    &mut out[k].1
}

/// The scripts of a word's letters with the letters of each, most frequent first (ties: Latin
/// first, then order of appearance). In one pass: ASCII letters are Latin and ASCII digits of
/// no script, so a run of ASCII is counted in bulk.
fn tally(word: &str) -> Tally {
    let mut out = Tally::new();
    let mut seen = CharSet::default();
    // Characters looked up, and the entry each counted for (`None`: it counts for none). The
    // entries keep their places until the sort at the end.
    let mut recent: [Option<(char, Option<usize>)>; 64] = [None; 64];
    // The ASCII letters met, as bits (the same as in `seen`, asked without a call).
    let mut ascii_seen = 0u128;
    for piece in pieces(word) {
        let c = match piece {
            Piece::Ascii(_, run) if run.len() <= 64 => {
                let mut letters = run.bytes().filter(u8::is_ascii_alphabetic).peekable();
                if letters.peek().is_none() {
                    continue;
                }
                let latin = letters_of(&mut out, Script::Latin);
                for b in letters {
                    latin.count += 1;
                    let bit = 1u128 << b;
                    if ascii_seen & bit == 0 {
                        ascii_seen |= bit;
                        seen.insert(char::from(b));
                        latin.add_distinct(char::from(b));
                    }
                }
                continue;
            }
            Piece::Ascii(_, run) => {
                let count = run.bytes().filter(u8::is_ascii_alphabetic).count();
                if count == 0 {
                    continue;
                }
                let latin = letters_of(&mut out, Script::Latin);
                latin.count += count;
                // The letters not seen before, in order of first appearance: which ones, in a
                // pass without branches; where, in a pass that stops once all are found.
                let mut present = [false; 128];
                for b in run.bytes() {
                    present[usize::from(b)] = true;
                }
                let mut new = (0..128u8)
                    .filter(|&b| {
                        b.is_ascii_alphabetic()
                            && present[usize::from(b)]
                            && !seen.contains(char::from(b))
                    })
                    .count();
                for b in run.bytes() {
                    if new == 0 {
                        break;
                    }
                    if b.is_ascii_alphabetic() && seen.insert(char::from(b)) {
                        ascii_seen |= 1u128 << b;
                        latin.add_distinct(char::from(b));
                        new -= 1;
                    }
                }
                continue;
            }
            Piece::Char(_, c) => c,
        };
        // A character met before counts where it did, without a lookup (a small cache: a
        // word's letters come from a small alphabet).
        let slot = u32::from(c) as usize % recent.len();
        if let Some((prev, k)) = recent[slot]
            && prev == c
        {
            if let Some(k) = k {
                out[k].1.count += 1;
            }
            continue;
        }
        recent[slot] = Some((c, None));
        work::add(Work::RuleChars, 1);
        let mut s = script(c);
        if is_neutral(s) {
            // A character of no script of its own but used with only a few (`ー` is Hiragana and
            // Katakana, `।` several Indic scripts) counts for the first of them.
            let ext = props::script_extension(c);
            if is_invisible(c) || s == Script::Unknown || ext.is_common() || ext.is_inherited() {
                continue;
            }
            match ext.iter().next() {
                Some(first) => s = first,
                None => continue,
            }
        }
        let letters = letters_of(&mut out, s);
        letters.count += 1;
        if seen.insert(c) {
            letters.add_distinct(c);
        }
        recent[slot] = Some((c, out.iter().position(|(t, _)| *t == s)));
    }
    // Stable sort: order of appearance among equals, Latin ahead.
    out.sort_by_key(|(s, letters)| (std::cmp::Reverse(letters.count), *s != Script::Latin));
    out
}

/// `Latin and Cyrillic`, `Latin, Cyrillic and Greek`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn distinct_count(s: &str) -> usize {
    let mut seen = CharSet::default();
    for c in s.chars() {
        seen.insert(c);
    }
    seen.len()
}

// ---------------------------------------------------------------------------------------------
// mixed-script
// ---------------------------------------------------------------------------------------------

fn check_mixed_script(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    for unit in units(input) {
        for word in words(&unit.text) {
            let w = &unit.text[word.clone()];
            if w.is_ascii() {
                continue;
            }
            let facts = facts(input, &unit, &word, w);
            if facts.highly_restrictive {
                continue;
            }
            let Some(scripts) = &facts.tally else {
                continue;
            };
            if scripts.len() < 2 {
                continue;
            }
            let scripts = Arc::clone(scripts);
            let place = unit.owned_place();
            let severity = sink.severity();
            sink.report_unspoken(severity, unit.span(&word), move || {
                let names: Vec<&str> = scripts.iter().map(|(s, _)| s.full_name()).collect();
                let (dominant, _) = scripts[0];
                let others: Vec<String> = scripts[1..]
                    .iter()
                    .map(|(s, letters)| {
                        let verb = if letters.distinct == 1 {
                            "is"
                        } else {
                            "are"
                        };
                        format!("{} {verb} {}", letters.describe(), s.full_name())
                    })
                    .collect();
                (
                    format!(
                        "a word of {} mixes the {} scripts: {}, the rest is {}",
                        place.describe(),
                        and_list(&names),
                        others.join("; "),
                        dominant.full_name()
                    ),
                    Some(format!(
                        "write each word in one script: if the {} letters stand in for {} ones, retype them; a word mixing scripts (beyond UTS #39 highly restrictive) is how look-alike names are built",
                        and_list(&names[1..]),
                        dominant.full_name()
                    )),
                )
            });
            if unit.ace.is_some() {
                break; // one finding per ACE label: they would all cover the same span
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// confusable
// ---------------------------------------------------------------------------------------------

/// The skeleton of one character, held inline: most are a letter or two, and `confusable`
/// holds one for each minority letter of a word.
#[derive(Clone, Debug, PartialEq)]
struct CharSkeleton(SmallVec<[u8; 16]>);

impl CharSkeleton {
    fn as_str(&self) -> &str {
        // Made from a `str` only ([`lookalike_into`]).
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

/// The skeleton of `c` when it falls into `script`: made of letters of that script (and
/// neutral characters), and not `c` itself. `а` (Cyrillic) falls into Latin as `a`.
fn lookalike_into(c: char, script: Script) -> Option<CharSkeleton> {
    let judge = |sk: &str| {
        let mut hit = false;
        for k in sk.chars() {
            let s = props::script(k);
            if s == script {
                hit = true;
            } else if !matches!(s, Script::Common | Script::Inherited) {
                return None;
            }
        }
        (hit && !sk.chars().eq(std::iter::once(c)))
            .then(|| CharSkeleton(SmallVec::from_slice(sk.as_bytes())))
    };
    // Chromium's extra mapping first (`ь` is `b`, where UTS #39 says U+0185 TONE SIX).
    match whole_script::extra_skeletons(c) {
        Some(readings) => judge(&skeleton(readings[0]).collect::<String>()),
        None => whole_script::with_skeleton(c, judge),
    }
}

/// The ASCII name a word reads as: its ASCII characters as they are, every other character
/// replaced by its UTS #39 skeleton, invisible characters left out. `None` unless all of it is
/// ASCII letters and digits.
fn reads_as(word: &str) -> Option<String> {
    let s = reads_as_lossy(word);
    (!s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric())).then_some(s)
}

/// [`reads_as`], whatever the result.
fn reads_as_lossy(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if c.is_ascii() {
            out.push(c);
        } else if !is_invisible(c) {
            whole_script::with_skeleton(c, |sk| out.push_str(sk));
        }
    }
    out
}

/// `U+0061 LATIN SMALL LETTER A` for a one-character skeleton, `` `rn` `` otherwise.
fn describe_skeleton(sk: &str) -> String {
    let mut it = sk.chars();
    match (it.next(), it.next()) {
        (Some(c), None) => describe(c),
        _ => format!("`{}`", escape_unsafe(sk)),
    }
}

/// The host's TLD (last non-empty label), decoded and lowercased.
fn tld(input: &IriCheck<'_>) -> Option<String> {
    let authority = input.iri.authority.as_ref()?;
    let label = authority
        .host
        .labels(input.text)
        .map(|r| &input.text[r])
        .filter(|l| !l.is_empty())
        .last()?;
    let decoded = if is_ace(label) {
        decode_ace(label).unwrap_or_else(|| label.to_string())
    } else {
        label.to_string()
    };
    Some(decoded.to_lowercase())
}

/// What a host word that reads as ASCII is made of.
enum WholeLookalike {
    /// Latin letters with look-alikes from other scripts: a spoof whatever the TLD.
    Mixed,
    /// Only letters of one other script (and digits) that all look like Latin letters.
    Pure,
    /// Only digits and characters that look like digits.
    Digits,
}

/// Whether a host word reads as an ASCII name, and the name:
/// - `Mixed`: it has Latin letters and letters of another script, and its skeleton (ASCII kept,
///   every other character replaced by its UTS #39 skeleton) is ASCII letters and digits;
/// - `Digits`: it is made of ASCII digits and digit look-alikes ([`whole_script::digit_reading`]),
///   with at least one look-alike;
/// - `Pure`: every letter is a Latin look-alike of its script ([`whole_script::letter_reading`]),
///   all of one script, the TLD is not one where that script is at home and the word is not an
///   allowed common word.
fn whole_lookalike(word: &str, label: &str, tld: Option<&str>) -> Option<(WholeLookalike, String)> {
    let mut foreign = false;
    let mut latin = false;
    for c in word.chars() {
        match script(c) {
            Script::Latin => latin = true,
            s if is_neutral(s) => {}
            _ => foreign = true,
        }
    }
    if !foreign {
        return None;
    }
    if latin {
        return Some((WholeLookalike::Mixed, reads_as(word)?));
    }
    if let Some(digits) = digit_lookalike(word) {
        return Some((WholeLookalike::Digits, digits));
    }
    // The cheap tests first: most words of other scripts have a letter outside the set.
    let mut reads = String::with_capacity(word.len());
    let mut only: Option<Script> = None;
    for c in word.chars() {
        let s = script(c);
        if is_neutral(s) {
            if c.is_ascii_digit() {
                reads.push(c);
            } else if !is_invisible(c) {
                return None;
            }
            continue;
        }
        if only.is_some_and(|o| o != s) {
            return None;
        }
        only = Some(s);
        let entry = whole_script::entry(s)?;
        let r = whole_script::letter_reading(host_labels::folded(c), entry)?;
        reads.push_str(&r);
    }
    let s = only?;
    let entry = whole_script::entry(s)?;
    if let Some(tld) = tld
        && (entry.tlds.contains(&tld) || tld.chars().any(|t| props::script(t) == s))
    {
        return None;
    }
    let (w, l) = (word.to_lowercase(), label.to_lowercase());
    let allowed = whole_script::ALLOWED_WORDS;
    if allowed.contains(&w.as_str()) || allowed.contains(&l.as_str()) {
        return None;
    }
    Some((WholeLookalike::Pure, reads))
}

/// What a word of ASCII digits and digit look-alikes reads as, when it has a look-alike.
fn digit_lookalike(word: &str) -> Option<String> {
    let mut out = String::with_capacity(word.len());
    let mut lookalike = false;
    for c in word.chars() {
        if c.is_ascii_digit() {
            out.push(c);
        } else {
            out.push(whole_script::digit_reading(host_labels::folded(c))?);
            lookalike = true;
        }
    }
    lookalike.then_some(out)
}

/// Calls `f` with each letter of `w` (its offset, itself and what it looks like) that belongs
/// to a script other than `dominant` and looks like a letter of it, in order, until a letter of
/// another script that is no look-alike; returns false if there was one.
fn each_minority_letter(
    w: &str,
    dominant: Script,
    mut f: impl FnMut(usize, char, CharSkeleton),
) -> bool {
    let mut visit = |i: usize, c: char| {
        let s = script(c);
        if is_neutral(s) || s == dominant || props::script_extension(c).contains_script(dominant) {
            return true;
        }
        match lookalike_into(c, dominant) {
            Some(sk) => {
                f(i, c, sk);
                true
            }
            None => false,
        }
    };
    for piece in pieces(w) {
        let go_on = match piece {
            // ASCII letters are Latin and ASCII digits of no script: a run is looked at only in
            // a word of another script, letter by letter (the first one ends the loop: an ASCII
            // letter looks like no letter of another script).
            Piece::Ascii(at, run) if dominant != Script::Latin => run
                .bytes()
                .enumerate()
                .filter(|(_, b)| b.is_ascii_alphabetic())
                .all(|(k, b)| visit(at + k, char::from(b))),
            Piece::Ascii(..) => true,
            Piece::Char(i, c) => {
                work::add(Work::RuleChars, 1);
                visit(i, c)
            }
        };
        if !go_on {
            return false;
        }
    }
    true
}

/// How many minority letters of a word `confusable` keeps from the pass that counts them, for
/// the pass that reports them: enough for any host label, few enough to hold.
const HELD_LETTERS: usize = 64;

fn check_confusable(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    // Found when a host word is first asked whether it reads as an ASCII name: most IRIs with
    // a look-alike letter never ask (a word with minority letters is reported as such).
    let host_tld = std::cell::OnceCell::new();
    for unit in units(input) {
        let host = unit.component == Component::Host;
        let severity = if host {
            Severity::Error
        } else {
            sink.severity()
        };
        let mut ace_reported = false;
        for word in words(&unit.text) {
            if unit.ace.is_some() && ace_reported {
                break;
            }
            let w = &unit.text[word.clone()];
            if w.is_ascii() {
                continue;
            }
            let facts = facts(input, &unit, &word, w);
            // (a) Letters of a minority script that look like letters of the word's script:
            // found once to see that every one is a look-alike, then reported: a host word's
            // few are held between the two, more are found again (a word of a million of them
            // would hold a skeleton for each).
            let mut minority = 0usize;
            if !facts.single_script {
                let Some(&(dominant, _)) = facts.tally.as_ref().and_then(|t| t.first()) else {
                    continue;
                };
                // Only when every minority letter imitates the word's script: `iPhoneчехол` is
                // two words run together (mixed-script says so), not a disguise.
                // The first few are kept from the first pass for the report (a word's letters,
                // each with its skeleton); past that many, the second pass finds them again.
                let mut held: SmallVec<[(usize, char, CharSkeleton); 8]> = SmallVec::new();
                let all = each_minority_letter(w, dominant, |i, c, sk| {
                    minority += 1;
                    if held.len() < HELD_LETTERS {
                        held.push((i, c, sk));
                    }
                });
                if !all {
                    minority = 0;
                }
                let name = dominant.full_name();
                if unit.ace.is_some() && minority > 0 {
                    let mut chars = String::new();
                    each_minority_letter(w, dominant, |_, c, _| chars.push(c));
                    let (word_text, place) = (w.to_string(), unit.owned_place());
                    sink.report_unspoken(severity, unit.span(&word), move || {
                        let reads = reads_as_lossy(&word_text).to_lowercase();
                        let like = if distinct_count(&chars) == 1 {
                            format!("looks like a {name} letter")
                        } else {
                            format!("look like {name} letters")
                        };
                        (
                            format!(
                                "{}: {} in a {name} word {like}, so it reads as `{}`",
                                place.describe(),
                                describe_chars(&chars),
                                escape_unsafe(&reads)
                            ),
                            Some(format!(
                                "type `{}` in {name} letters if that name is meant; otherwise this is a different domain that displays like it",
                                escape_unsafe(&reads)
                            )),
                        )
                    });
                    ace_reported = true;
                    continue;
                }
                if minority > 0 {
                    let mut report = |i: usize, c: char, sk: CharSkeleton| {
                        let at = word.start + i;
                        let span = unit.span(&(at..at + c.len_utf8()));
                        // This rule attaches no fix: a place added to the word's finding needs
                        // no words of its own.
                        if sink.merges(severity, span.start) {
                            sink.report_as(severity, span, String::new(), None);
                            return;
                        }
                        let place = unit.owned_place();
                        sink.report_unspoken(severity, span, move || {
                            (
                                format!(
                                    "{} in a {name} word of {} looks like {} (UTS #39 confusable)",
                                    describe(c),
                                    place.describe(),
                                    describe_skeleton(sk.as_str())
                                ),
                                Some(format!(
                                    "type `{}` if the {name} letter is meant: a letter from another script that looks the same makes a different name that reads the same",
                                    escape_unsafe(sk.as_str())
                                )),
                            )
                        });
                    };
                    if minority <= HELD_LETTERS {
                        for (i, c, sk) in held {
                            report(i, c, sk);
                        }
                    } else {
                        each_minority_letter(w, dominant, report);
                    }
                }
            }
            if minority > 0 || !host {
                continue;
            }
            // (b) A host word that reads as an ASCII name.
            let label = unit.text.as_ref();
            let tld: &Option<String> = host_tld.get_or_init(|| tld(input));
            let Some((kind, reads)) = whole_lookalike(w, label, tld.as_deref()) else {
                continue;
            };
            let (word_text, label, tld) = (w.to_string(), label.to_string(), tld.clone());
            let (ace, place) = (unit.ace.map(str::to_string), unit.owned_place());
            sink.report_unspoken(severity, unit.span(&word), move || {
                let foreign: String = word_text
                    .chars()
                    .filter(|&c| !is_neutral(script(c)) && script(c) != Script::Latin)
                    .collect();
                let scripts: Vec<&str> =
                    tally(&foreign).iter().map(|(s, _)| s.full_name()).collect();
                let scripts = and_list(&scripts);
                let reads = escape_unsafe(&reads.to_lowercase());
                let message = match kind {
                    WholeLookalike::Mixed => format!(
                        "{} mixes Latin letters with {scripts} look-alikes ({}): it reads as `{reads}`",
                        place.describe(),
                        describe_chars(&foreign)
                    ),
                    WholeLookalike::Digits => format!(
                        "{} reads as the number `{reads}`: {} look like digits",
                        place.describe(),
                        describe_chars(&foreign)
                    ),
                    WholeLookalike::Pure => format!(
                        "{} is a whole-script look-alike: its {scripts} letters ({}) all look like Latin ones, so it reads as `{reads}`{}",
                        place.describe(),
                        describe_chars(&foreign),
                        tld.as_deref()
                            .map(|t| format!(" under `.{}`", escape_unsafe(t)))
                            .unwrap_or_default()
                    ),
                };
                let ace = match &ace {
                    Some(ace) => ace.clone(),
                    None => idna::domain_to_ascii(&label).unwrap_or_default(),
                };
                let shown_as = if ace.is_empty() {
                    String::new()
                } else {
                    format!(" (its real name is `{ace}`)")
                };
                (
                    message,
                    Some(format!(
                        "type `{reads}` in Latin letters if that name is meant; otherwise this is a different domain that displays like `{reads}`{shown_as}"
                    )),
                )
            });
            ace_reported = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_of(s: &str) -> Vec<&str> {
        words(s).map(|r| &s[r]).collect()
    }

    #[test]
    fn words_split_at_ascii_punctuation_and_escapes() {
        assert_eq!(
            words_of("File:Пример_2.jpg"),
            ["File", "Пример", "2", "jpg"]
        );
        assert_eq!(words_of("%D0%BFример-x"), ["ример", "x"]);
        assert_eq!(words_of("a%2"), ["a", "2"]);
        assert!(words_of("--").is_empty());
    }

    #[test]
    fn ascii_sets_are_latin_or_all() {
        // What lets the rules count a run of ASCII at once.
        use unicode_script::UnicodeScript;
        let latin = AugmentedScriptSet::for_char('a');
        for c in (0..128u8).map(char::from) {
            let set = AugmentedScriptSet::for_char(c);
            if c.is_ascii_alphabetic() {
                assert!(set == latin && script(c) == Script::Latin, "{c:?}");
            } else {
                assert!(set.is_all() && is_neutral(script(c)), "{c:?}");
                assert!(c.script_extension().is_common(), "{c:?}");
            }
        }
    }

    #[test]
    fn latin1_letters_are_latin_script() {
        for c in '\u{80}'..'\u{100}' {
            assert_eq!(
                is_latin1_letter(c),
                props::script(c) == Script::Latin,
                "{c:?}"
            );
        }
    }

    #[test]
    fn highly_restrictive_allows_cjk_with_latin() {
        for ok in [
            "日本語のページ",
            "iPhoneケース",
            "2024年版",
            "한국어",
            "中文",
            "Hello世界",
            "русский",
            "paypal",
        ] {
            assert!(highly_restrictive(ok), "{ok}");
        }
        for bad in [
            "p\u{430}ypal",
            "\u{3B1}\u{430}",
            "日本\u{430}",
            "caf\u{E9}\u{CE74}\u{D398}",
            "h\u{E9}llo\u{4E2D}\u{56FD}",
        ] {
            assert!(!highly_restrictive(bad), "{bad}");
        }
    }

    #[test]
    fn lookalikes_fall_into_the_dominant_script() {
        assert_eq!(
            lookalike_into('\u{430}', Script::Latin)
                .as_ref()
                .map(CharSkeleton::as_str),
            Some("a")
        );
        assert_eq!(
            lookalike_into('\u{3BF}', Script::Latin)
                .as_ref()
                .map(CharSkeleton::as_str),
            Some("o")
        );
        assert_eq!(lookalike_into('\u{447}', Script::Latin), None);
        // Chromium's extra mapping before the UTS #39 skeleton (U+0185 for `ь`).
        assert_eq!(
            lookalike_into('\u{44C}', Script::Latin)
                .as_ref()
                .map(CharSkeleton::as_str),
            Some("b")
        );
        assert_eq!(lookalike_into('a', Script::Latin), None);
        assert_eq!(lookalike_into('l', Script::Cyrillic), None);
    }

    #[test]
    fn whole_script_lookalikes_respect_the_tld() {
        let apple = "\u{430}\u{440}\u{440}\u{4CF}\u{435}";
        assert!(matches!(
            whole_lookalike(apple, apple, Some("com")),
            Some((WholeLookalike::Pure, ref s)) if s == "apple"
        ));
        assert!(whole_lookalike(apple, apple, Some("ru")).is_none());
        assert!(whole_lookalike(apple, apple, Some("\u{440}\u{444}")).is_none());
        assert!(whole_lookalike("курс", "курс", Some("com")).is_none());
        assert!(whole_lookalike("пример", "пример", Some("com")).is_none());
        let paypal = "\u{440}\u{430}\u{443}\u{440}\u{430}l";
        assert!(matches!(
            whole_lookalike(paypal, paypal, Some("ru")),
            Some((WholeLookalike::Mixed, ref s)) if s == "paypal"
        ));
    }
}
