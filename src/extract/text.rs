//! IRIs in plain text.
//!
//! An IRI starts at a known scheme followed by `:` ([`SCHEMES`], case-insensitive) or at `www.`,
//! where the character before it is not an ASCII letter, digit or `+ - . _` (so `xhttp:` and
//! `user@www.example` do not start one; CJK text directly before `https:` does).
//!
//! The character after `scheme:` must be able to start an IRI: a letter, digit, non-ASCII
//! character or one of `/ % + - . _ ~ , ? # @ ! $ & * = ;` (so the reStructuredText roles
//! ``:file:`x` `` and ``:data:`y` `` are not IRIs).
//!
//! It continues through every character that is not whitespace (RFC 3987 §7.3: a non-ASCII
//! letter does not end an IRI, and a hidden U+202E or U+200B must stay inside so that the rules
//! see it). It ends at:
//! - whitespace of any kind (Unicode `White_Space`: U+3000, U+00A0 and the other `Zs`, line ends);
//! - `<`, `>` and `"`;
//! - the closing quote matching a quote right before the IRI (`'…'`, `` `…` ``, `‘…’`, `“…”`,
//!   `«…»`, `‹…›`), so `'www.example.org'.split()` ends at the quote;
//! - the CJK sentence marks `。` and `、`, which never belong to an IRI written in running text,
//!   and the full-width `， ； ： ！ ？ ．` unless an ASCII letter or digit follows (then they
//!   stay, as the look-alike delimiters the rules report);
//! - running CJK text (Han, kana, Hangul, Bopomofo) right after an ASCII letter or digit, while
//!   the IRI so far is all ASCII: `https://example.org/damo找到了` is `https://example.org/damo`,
//!   but `https://ja.wikipedia.org/wiki/東京` and `https://例え.jp/東京タワー` keep their CJK
//!   characters (written after a delimiter, or in an IRI that already has non-ASCII ones), and
//!   so does a host (`https://bank.example一login.com/`: `一` looks like `-`, the rules must
//!   see it);
//! - the brackets and bar of CJK text, full-width and white (`（ ） ［ ］ ｛ ｝ 〈 〉 《 》 「 」
//!   『 』 【 】 〔 〕 〖 〗 〘 〙 〚 〛 ｟ ｠ ｢ ｣ ｜ ￤`), which delimit an IRI written in it;
//! - a closing `]` or `}` that closes nothing opened inside the IRI
//!   (`{http://example.org/ns}tag`); a `)` does not end it, as in GFM, unless the IRI starts
//!   right after a `(`: then it is a Markdown link's destination, and the `)` closing it ends
//!   it (`[IBM](https://www.ibm.com)[mail](mailto:someone@ibm.com)` in a text file).
//!
//! - a `[` after the scheme that is not an IP literal (`http://[::1]/`) and not an optional part
//!   of a synopsis: `https://github.com/newren/git-filter-repo[`filter-repo`]` is an AsciiDoc
//!   URL macro, and its IRI ends before the `[` ([`super::text_placeholders`]).
//!
//! Placeholders ([`super::template`]: not checked, the characters around them are): the
//! `[optional]` parts of a usage synopsis (`http://[user@]machine/path`, `http://host[:port]/`),
//! printf conversions (`pep-%04d`, `query?%s`, not `%20`) and URI Template expressions
//! (`https://api.github.com/users/{user}`), as a reader sees them; the exact rules are in
//! [`super::text_placeholders`].
//!
//! Then trailing punctuation is dropped: `. , : ; ! ? ' ) ] * `` ` ``, the CJK
//! `。 、 ， ． ： ； ！ ？` and the Arabic `، ؛ ؟ ۔` — a closing bracket or `'` only when it is unbalanced, so
//! `https://en.wikipedia.org/wiki/Rust_(programming_language)` keeps its `)` and
//! `http://foo.com/blah_blah_'singlequoted'` its second `'`.

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use super::{Occurrence, text_placeholders};

/// Schemes that start an IRI in plain text (compared case-insensitively).
pub const SCHEMES: &[&str] = &[
    "data", "feed", "file", "ftp", "ftps", "geo", "git", "gopher", "http", "https", "imap", "ipfs",
    "ipns", "irc", "ircs", "ldap", "ldaps", "magnet", "mailto", "news", "nntp", "rtsp", "sftp",
    "sip", "sips", "ssh", "svn", "tel", "telnet", "urn", "webcal", "ws", "wss", "xmpp",
];

/// Bracket pairs whose closer is kept at the end of an IRI only when balanced. All but the
/// first also end an IRI when unbalanced in the middle of one; the first does when the IRI
/// starts right after its opener (`[text](https://example.org)` in a text file).
const PAIRS: [(char, char); 3] = [('(', ')'), ('[', ']'), ('{', '}')];
/// Pairs from this index on end an IRI at an unbalanced closer.
const FIRST_ENDING_PAIR: usize = 1;

/// The brackets and bar of CJK text, full-width and white: they delimit an IRI written in it
/// (`（https://example.org/）`, `https://a.example/｜https://b.example/`), and a link that
/// really holds one is written percent-encoded.
fn is_cjk_delimiter(c: char) -> bool {
    matches!(
        c,
        '（' | '）'
            | '［'
            | '］'
            | '｛'
            | '｝'
            | '｟'
            | '｠'
            | '｢'
            | '｣'
            | '〈'
            | '〉'
            | '《'
            | '》'
            | '「'
            | '」'
            | '『'
            | '』'
            | '【'
            | '】'
            | '〔'
            | '〕'
            | '〖'
            | '〗'
            | '〘'
            | '〙'
            | '〚'
            | '〛'
            | '｜'
            | '￤'
    )
}

/// Quotes that, right before an IRI, end it at their closing partner.
const QUOTES: [(char, char); 6] = [
    ('\'', '\''),
    ('`', '`'),
    ('‘', '’'),
    ('“', '”'),
    ('«', '»'),
    ('‹', '›'),
];

/// Punctuation dropped from the end of an IRI (closers only when unbalanced).
fn is_trailing_punctuation(c: char) -> bool {
    matches!(
        c,
        '.' | ','
            | ':'
            | ';'
            | '!'
            | '?'
            | '\''
            | '"'
            | '*'
            | '`'
            | '。'
            | '、'
            | '，'
            | '．'
            | '：'
            | '；'
            | '！'
            | '？'
            // The comma, semicolon, question mark and full stop of Arabic-script text
            // (U+060C, U+061B, U+061F, U+06D4): `https://example.org/terms.html، و…`.
            | '\u{060C}'
            | '\u{061B}'
            | '\u{061F}'
            | '\u{06D4}'
    ) || PAIRS.iter().any(|&(_, close)| close == c)
}

/// Characters that end an IRI wherever they appear.
fn ends_iri(c: char) -> bool {
    c.is_whitespace() || matches!(c, '<' | '>' | '"' | '。' | '、') || is_cjk_delimiter(c)
}

/// Full-width sentence punctuation of CJK text: ends an IRI unless an ASCII letter or digit
/// follows (inside an IRI it is a look-alike of `, ; : ! ? .` that the rules must see).
fn is_fullwidth_sentence_mark(c: char) -> bool {
    matches!(c, '，' | '；' | '：' | '！' | '？' | '．')
}

/// True when the full-width sentence mark `c` ends an IRI, `after` being the text after it: when
/// no ASCII letter or digit follows, or (but for `．`, a look-alike of the dot wherever it is)
/// when the ASCII word that follows (within 64 characters) is followed by running text that is
/// not ASCII, directly or after spaces. `https://bank.example，evil.com/`,
/// `https://git.kernel.org/？p=linux` and `https://example.com/a：b` at a line's end keep theirs
/// for the rules to report; `http://myserver.com，HTML 文档` is the sentence's comma.
fn mark_ends_iri(c: char, after: &str) -> bool {
    if !is_fullwidth_sentence_mark(c) {
        return false;
    }
    if !after.starts_with(|n: char| n.is_ascii_alphanumeric()) {
        return true;
    }
    if c == '．' {
        return false;
    }
    let mut rest = after.char_indices().take(64);
    for (k, n) in rest.by_ref() {
        if n.is_ascii_alphanumeric() || n == '-' {
            continue;
        }
        if !n.is_ascii() {
            return true;
        }
        if n != ' ' && n != '\t' {
            return false;
        }
        // The sentence goes on in CJK after a space: `，HTML 文档`.
        return after[k..]
            .trim_start_matches([' ', '\t'])
            .starts_with(|c: char| !c.is_ascii() && !c.is_whitespace());
    }
    false
}

/// A visible character of running CJK text: Han, kana, Hangul, Bopomofo (not a Hangul filler,
/// which is invisible and must stay inside for `invisible-character`).
fn is_cjk(c: char) -> bool {
    use crate::iri::props::script;
    use unicode_script::Script;
    !c.is_ascii()
        && !crate::iri::chars::is_unsafe_to_display(c)
        && matches!(
            script(c),
            Script::Han | Script::Hiragana | Script::Katakana | Script::Hangul | Script::Bopomofo
        )
}

fn pair_of_closer(c: char) -> Option<usize> {
    PAIRS.iter().position(|&(_, close)| close == c)
}

fn pair_of_opener(c: char) -> Option<usize> {
    PAIRS.iter().position(|&(open, _)| open == c)
}

/// Whether the text before position `i` continues an ASCII word into the candidate, so that it
/// cannot start an IRI: `xhttp:`, `svn+https:`, `x-http:`. A `+ - . _` run not preceded by an
/// ASCII letter or digit does not join (`ב-https:` in Hebrew, `...https:`).
fn joins_previous_word(b: &[u8], i: usize) -> bool {
    let mut k = i;
    while k > 0 && matches!(b[k - 1], b'+' | b'-' | b'.' | b'_') {
        k -= 1;
    }
    k > 0 && b[k - 1].is_ascii_alphanumeric()
}

fn is_scheme_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
}

/// The length of the longest of [`SCHEMES`].
const LONGEST_SCHEME: usize = 6;

fn is_known_scheme(s: &str) -> bool {
    // Every word before a `:` is asked: most are longer than any scheme, and the others are
    // lowercased once and found by binary search ([`SCHEMES`] is sorted).
    let b = s.as_bytes();
    if b.len() > LONGEST_SCHEME {
        return false;
    }
    let mut lower = [0u8; LONGEST_SCHEME];
    lower[..b.len()].copy_from_slice(b);
    lower.make_ascii_lowercase();
    SCHEMES
        .binary_search_by(|k| k.as_bytes().cmp(&lower[..b.len()]))
        .is_ok()
}

/// Whether a known scheme may end right before the `:` at `p` of a text, in some slice of it:
/// the word [`detect`] weighs there starts at an ASCII letter at or after the slice's start and
/// is a scheme only if it is all letters (every one of [`SCHEMES`] is), so it is one of the
/// letters-only suffixes of the text before `p`, of at most [`LONGEST_SCHEME`] bytes. (Prose
/// has many `:` after words that are no scheme: `Note:`, `e.g.:`, `10:30`.)
fn scheme_may_end_at(text: &str, p: usize) -> bool {
    // The pairs of letters a scheme ends with, one bit per second letter: most `:`s are ruled
    // out by their last two letters.
    static ENDINGS: [u32; 26] = {
        let mut endings = [0u32; 26];
        let mut k = 0;
        while k < SCHEMES.len() {
            let s = SCHEMES[k].as_bytes();
            endings[(s[s.len() - 2] - b'a') as usize] |= 1 << (s[s.len() - 1] - b'a');
            k += 1;
        }
        endings
    };
    let b = text.as_bytes();
    if p < 2 || !b[p - 2].is_ascii_alphabetic() || !b[p - 1].is_ascii_alphabetic() {
        return false;
    }
    let (x, y) = (b[p - 2] | 0x20, b[p - 1] | 0x20);
    if ENDINGS[usize::from(x - b'a')] >> (y - b'a') & 1 == 0 {
        return false;
    }
    let letters = (1..=LONGEST_SCHEME.min(p))
        .take_while(|&n| b[p - n].is_ascii_alphabetic())
        .last()
        .unwrap_or(0);
    // (Letters are ASCII: every suffix starts on a character boundary.)
    (2..=letters).any(|n| is_known_scheme(&text[p - n..p]))
}

/// Whether the three bytes before `p` are `www`, in any case.
fn www_before(b: &[u8], p: usize) -> bool {
    // `| 0x20` lowercases `W` and leaves `w`; no other byte becomes `w`.
    p >= 3 && b[p - 3..p].iter().all(|&c| c | 0x20 == b'w')
}

/// Whether `c`, right after `scheme:`, can start the rest of an IRI.
fn can_follow_scheme(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || (!c.is_ascii() && !c.is_whitespace())
        || "/%+-._~,?#@!$&*=;".contains(c)
}

/// The closing quote an IRI starting at `start` must end at, if a quote opens it.
fn closing_quote(text: &str, start: usize) -> Option<char> {
    let before = text[..start].chars().next_back()?;
    QUOTES
        .iter()
        .find(|&&(open, _)| open == before)
        .map(|&(_, close)| close)
}

/// The range of `value` (a whole value: a front matter string, an attribute) that is an
/// absolute IRI, when the value is one: after surrounding whitespace, a known scheme and `:`
/// start it, and the plain-text detector finds an IRI there.
/// The IRI is the whole value (a value is delimited: its last `)` or `.` is its own) unless it
/// holds whitespace, where the detector ends it.
pub fn absolute_iri(value: &str) -> Option<Range<usize>> {
    let start = value.len() - value.trim_start().len();
    let end = value.trim_end().len();
    if start >= end {
        return None;
    }
    // The spaces of a template expression (`{{ .Dir }}`) end nothing: it is looked at as the
    // rules see it, stood in for.
    let written = &value[start..end];
    let placeholders = super::template::placeholders(written);
    let stood_in;
    let trimmed = if placeholders.is_empty() {
        written
    } else {
        stood_in = super::template::stand_in(written, &placeholders);
        stood_in.as_str()
    };
    let colon = trimmed.find(':')?;
    let scheme = &trimmed[..colon];
    if !SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme)) {
        return None;
    }
    let found = detect(trimmed).into_iter().next()?;
    if found.start != 0 || found.end <= colon + 1 {
        return None;
    }
    if trimmed.contains(char::is_whitespace) {
        Some(start..start + found.end)
    } else {
        Some(start..end)
    }
}

/// Where [`detect`] could find an IRI in slices of one text: the positions of every `:` and of
/// every `.` after `www` — the only bytes it weighs — a `:` counting only where a known scheme
/// may end at it ([`scheme_may_end_at`], asked only of the `:`s in the ranges asked about).
/// [`Triggers::any_in`] false for a range means `detect` on that slice of the text finds
/// nothing, so a caller with many short slices of one text (Markdown's text events) scans the
/// text once instead of calling `detect` on each.
pub struct Triggers<'t> {
    text: &'t str,
    at: Vec<usize>,
    /// The first position not below the last range asked about: ranges come in order.
    cursor: usize,
}

impl<'t> Triggers<'t> {
    /// The trigger positions of `text`.
    pub fn new(text: &'t str) -> Triggers<'t> {
        // Prose has many `.` and few `www.`: the `.`s are found as the rare `w.` and `W.` (each
        // many bytes at a time), not one by one.
        static W_DOT: LazyLock<[Finder<'static>; 2]> =
            LazyLock::new(|| [Finder::new("w."), Finder::new("W.")]);
        let b = text.as_bytes();
        let mut www: Vec<usize> = W_DOT
            .iter()
            .flat_map(|f| f.find_iter(b).map(|k| k + 1))
            .filter(|&p| www_before(b, p))
            .collect();
        let mut at: Vec<usize> = memchr::memchr_iter(b':', b).collect();
        if !www.is_empty() {
            at.append(&mut www);
            at.sort_unstable();
        }
        Triggers {
            text,
            at,
            cursor: 0,
        }
    }

    /// Whether some trigger lies in `range` (a superset of the slice's own: a `www` just before
    /// the slice's start counts here, not in the slice).
    #[inline(always)]
    pub fn any_in(&mut self, range: Range<usize>) -> bool {
        let at = &self.at;
        if self.cursor > 0 && at[self.cursor - 1] >= range.start {
            self.cursor = at.partition_point(|&p| p < range.start);
        }
        while self.cursor < at.len() && at[self.cursor] < range.start {
            self.cursor += 1;
        }
        let text = self.text;
        at[self.cursor..]
            .iter()
            .take_while(|&&p| p < range.end)
            .any(|&p| text.as_bytes()[p] == b'.' || scheme_may_end_at(text, p))
    }
}

/// Byte ranges of the IRIs in `text`, in order ([`Iris`], gathered).
pub fn detect(text: &str) -> Vec<Range<usize>> {
    Iris::new(text).collect()
}

/// The byte ranges of the IRIs in `text`, in order, found as they are asked for (a text of
/// millions of IRIs never holds a list of them).
///
/// An IRI starts at a word (an ASCII letter, then letters, digits, `+`, `-` and `.`) that is a
/// known scheme followed by `:`, or that begins with `www.`. Only the words around a `:` or a
/// `.` can be either, so those bytes are looked for (memchr, many bytes at a time) and the word
/// is found backwards from them; the text between is not read byte by byte.
pub struct Iris<'t> {
    text: &'t str,
    /// Nothing before `pos` starts an IRI (it is inside the last one found).
    pos: usize,
    search: usize,
    /// The run of scheme bytes that reaches the last trigger weighed (a `:`, or the `.` of a
    /// `www.`): (start, its first ASCII letter, that byte). A run of `www.www.…` is walked once,
    /// not once per dot.
    run: Option<(usize, Option<usize>, usize)>,
    /// The last word weighed, so a word with both a `.` and a `:` is weighed once.
    weighed: Option<usize>,
    /// What searches for closers and ends found, kept for the next IRI.
    reach: Reach,
}

impl<'t> Iris<'t> {
    /// The IRIs of `text`, none found yet.
    pub fn new(text: &'t str) -> Iris<'t> {
        Iris {
            text,
            pos: 0,
            search: 0,
            run: None,
            weighed: None,
            reach: Reach::default(),
        }
    }
}

impl Iterator for Iris<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        let text = self.text;
        let b = text.as_bytes();
        let first_letter = |r: Range<usize>| r.into_iter().find(|&k| b[k].is_ascii_alphabetic());
        while let Some(k) = memchr::memchr2(b':', b'.', &b[self.search..]) {
            let p = self.search + k;
            self.search = p + 1;
            // A `.` starts an IRI only as the end of `www.`; any other `.` is not weighed, and
            // the run it is in is walked from the next trigger instead (the floor below is the
            // last trigger weighed, so each byte is still walked at most once).
            if b[p] == b'.' && !www_before(b, p) {
                continue;
            }
            // Back from `p` over scheme bytes, down to the last trigger at most.
            let floor = self.run.map_or(self.pos, |(_, _, q)| (q + 1).max(self.pos));
            let mut rs = p;
            while rs > floor && is_scheme_byte(b[rs - 1]) {
                rs -= 1;
            }
            let (start, letter) = match self.run {
                // The run goes on through the last `.` (a scheme byte); `:` ends one.
                Some((start, letter, q)) if rs == q + 1 && b[q] == b'.' => {
                    (start, letter.or_else(|| first_letter(q + 1..p)))
                }
                _ => (rs, first_letter(rs..p)),
            };
            self.run = Some((start, letter, p));
            // The word starts at the run's first letter (the bytes before it are skipped).
            let Some(ws) = letter else {
                continue;
            };
            if b[p] == b'.' && (p != ws + 3 || !b[ws..p].eq_ignore_ascii_case(b"www")) {
                continue;
            }
            if self.weighed == Some(ws) {
                continue;
            }
            self.weighed = Some(ws);
            if let Some(end) = iri_at(text, ws, Some(&mut self.reach)) {
                self.pos = end;
                self.search = self.search.max(end);
                self.run = None;
                return Some(ws..end);
            }
        }
        self.search = b.len();
        None
    }
}

/// The end of the IRI whose first word starts at `i`, if one does there; `reach` keeps what
/// the searches for closers found, for the IRIs after it (without it, the IRI is walked to its
/// end: what the tests compare the searches with).
fn iri_at(text: &str, i: usize, reach: Option<&mut Reach>) -> Option<usize> {
    let b = text.as_bytes();
    let mut word_end = i;
    while word_end < b.len() && is_scheme_byte(b[word_end]) {
        word_end += 1;
    }
    if joins_previous_word(b, i) {
        return None;
    }
    let prefix_end = if word_end < b.len()
        && b[word_end] == b':'
        && is_known_scheme(&text[i..word_end])
        && text[word_end + 1..]
            .chars()
            .next()
            .is_some_and(can_follow_scheme)
    {
        word_end + 1
    } else if b.len() - i >= 4
        && b[i..i + 4].eq_ignore_ascii_case(b"www.")
        && (i == 0 || !matches!(b[i - 1], b'@' | b'/' | b':'))
    {
        i + 4
    } else {
        return None;
    };
    let (mut end, cut) = match reach {
        Some(reach) => cut_end(text, i, b[prefix_end - 1] == b':', reach),
        None => walked_end(text, i),
    };
    if cut {
        // What the cut leaves at the end (`…/a.[x]`) is punctuation again.
        while text[i..end].ends_with(['.', ',', ':', ';', '!', '?', '\'', '*']) {
            end -= 1;
        }
    }
    (end > prefix_end).then_some(end)
}

/// Where the IRI starting at `i` ends ([`iri_end`]), or is cut by
/// [`text_placeholders::macro_cut`] (then with `true`, and its punctuation left on); `scheme`
/// when it starts with one, whose `:` is its first. `reach` keeps what the searches found, for
/// the IRIs after `i` in `text`.
///
/// The first `[` the cut weighs decides it without a walk to the IRI's end when nothing closes
/// it before the walk must stop, or one `]` closes it at the IRI's end ([`bracket_at_end`]):
/// each IRI of `http://a.org/x[` repeated on one line was walked to the line's end (480 KB:
/// 45 s), or to the one `]` after them all.
pub(crate) fn cut_end(text: &str, i: usize, scheme: bool, reach: &mut Reach) -> (usize, bool) {
    bracket_at_end(text, i, scheme, reach).unwrap_or_else(|| walked_end(text, i))
}

/// [`cut_end`] by a walk to the IRI's end.
fn walked_end(text: &str, i: usize) -> (usize, bool) {
    let end = iri_end(text, i);
    match text_placeholders::macro_cut(&text[i..end]) {
        Some(k) => (i + k, true),
        None => (end, false),
    }
}

/// [`cut_end`] for an IRI whose first weighed `[` is closed by nothing before the walk from
/// `i` stops, or by a `]` that only punctuation follows before it stops (then that `]` ends
/// the IRI), known from the searches `reach` keeps and a walk as far as the `[`; `None` when
/// it is not so (the IRI is then walked to its end).
fn bracket_at_end(text: &str, i: usize, scheme: bool, reach: &mut Reach) -> Option<(usize, bool)> {
    let b = text.as_bytes();
    let len = b.len();
    // The cut weighs the `[`s after the IRI's first `:`, or all of them if it has none: the
    // `:` the walk comes to before it stops, if the walk passes the `[` after it (checked next).
    let from = if scheme {
        i + memchr::memchr(b':', &b[i..])? + 1
    } else {
        match reach.next(Reach::COLON, b, i) {
            Some(c) if c < reach.next_stop(0, text, i) => c + 1,
            _ => i,
        }
    };
    let q = reach.next(Reach::OPEN, b, from)?;
    // The walk reaches past the `[`, or the IRI does not hold it. (Each kind of search is made
    // from one kind of position, IRI after IRI in order, so that each goes over a stretch of
    // the text once.)
    if reach.next_stop(0, text, i) < q || walk_to_end(&text[..q + 1], i, true) != q + 1 {
        return None;
    }
    // Where the walk stops at the latest past the `[`: at a character that ends every IRI, at
    // its closing quote, or where running CJK text starts.
    let mut limit = reach.next_stop(1, text, q);
    if let Some(quote) = closing_quote(text, i) {
        let slot = Reach::QUOTES.iter().position(|&c| c == quote)?;
        limit = limit.min(reach.next(Reach::QUOTE + slot, b, q).unwrap_or(len));
    }
    let non_ascii = reach.next(Reach::NON_ASCII, b, i).unwrap_or(len);
    if non_ascii > q
        && non_ascii < limit
        && text[non_ascii..].chars().next().is_some_and(is_cjk)
        && b[non_ascii - 1].is_ascii_alphanumeric()
    {
        // Its authority ends at its first `/`, `?` or `#` (no blank comes before the limit).
        let host = if b[i..].len() >= 4 && b[i..i + 4].eq_ignore_ascii_case(b"www.") {
            Some(i)
        } else {
            let k = i + b[i..]
                .iter()
                .position(|&c| !is_scheme_byte(c))
                .unwrap_or(len - i);
            b[k..].starts_with(b"://").then_some(k + 3)
        };
        let authority_end = host.map_or(i, |h| {
            [Reach::SLASH, Reach::QUERY, Reach::FRAGMENT]
                .into_iter()
                .filter_map(|slot| reach.next(slot, b, h))
                .min()
                .unwrap_or(len)
        });
        if non_ascii > authority_end {
            limit = limit.min(non_ascii);
        }
    }
    let Some(close) = reach.next(Reach::CLOSE, b, q).filter(|&k| k < limit) else {
        // Nothing closes it in the IRI: the cut is there.
        return Some((q, true));
    };
    // One `]` that ends the IRI: no other `]`, no `}`, no `)` that could end the walk or be
    // trimmed, and only punctuation dropped from the end between it and the limit.
    let before = |slot: usize, reach: &mut Reach, from: usize| {
        reach.next(slot, b, from).is_some_and(|k| k < limit)
    };
    let (paren, paren_from) = match text[..i].ends_with('(') {
        true => (Reach::PAREN, i),
        false => (Reach::PAREN_AFTER, close + 1),
    };
    if before(Reach::CLOSE_AFTER, reach, close + 1)
        || before(Reach::BRACE, reach, i)
        || before(paren, reach, paren_from)
        || reach.next(Reach::UNTRIMMED, b, close + 1).unwrap_or(len) < limit
    {
        return None;
    }
    // The content has no `]`; it is ASCII if no byte past ASCII comes before the `]`.
    let ascii = reach.next(Reach::NON_ASCII_IN, b, q).unwrap_or(len) > close;
    // An IPvFuture literal (`v`, an address with a `.`, then perhaps `%25` and a zone of
    // unreserved bytes), read from where the searches found those.
    let future = || {
        let pct = reach
            .next(Reach::PCT25, b, q + 1)
            .filter(|&p| p + 3 <= close);
        let address_end = pct.unwrap_or(close);
        address_end - (q + 1) > 2
            && reach
                .next(Reach::DOT, b, q + 1)
                .is_some_and(|d| d < address_end)
            && pct.is_none_or(|p| {
                reach
                    .next(Reach::NOT_ZONE, b, p + 3)
                    .is_none_or(|k| k >= close)
            })
    };
    if text_placeholders::kept_at_end(&text[i..close + 1], q - i, ascii, future) {
        Some((close + 1, false))
    } else {
        Some((q, true))
    }
}

/// What searches for closers and for the ends of IRIs found, kept from one IRI of a text to the
/// next: a search that found nothing up to a point is not made again before that point, so
/// that a text of IRIs each before an unclosed `[` is searched once, not once per IRI.
#[derive(Default)]
pub(crate) struct Reach {
    /// Per kind of byte ([`Reach::OPEN`] and after): searched from this position, found there.
    next: [Option<(usize, Option<usize>)>; Reach::KINDS],
    /// Searched from this position, the next character that ends every IRI found there: from
    /// an IRI's start, and from its `[`.
    stop: [Option<(usize, usize)>; 2],
}

impl Reach {
    // The kinds of bytes searched for: the first nine by their byte (`BYTES`).
    const OPEN: usize = 0;
    const CLOSE: usize = 1;
    const COLON: usize = 2;
    const BRACE: usize = 3;
    const PAREN: usize = 4;
    const SLASH: usize = 5;
    const QUERY: usize = 6;
    const FRAGMENT: usize = 7;
    const DOT: usize = 8;
    const BYTES: &[u8; 9] = b"[]:})/?#.";
    /// `]` and `)` again, searched for from other positions.
    const CLOSE_AFTER: usize = 9;
    const PAREN_AFTER: usize = 10;
    /// A byte past ASCII, from an IRI's start and from its `[`.
    const NON_ASCII: usize = 11;
    const NON_ASCII_IN: usize = 12;
    /// A byte that is not punctuation dropped from an IRI's end whatever comes before it.
    const UNTRIMMED: usize = 13;
    /// `%25`, which starts the zone of an IP literal.
    const PCT25: usize = 14;
    /// A byte a zone cannot hold.
    const NOT_ZONE: usize = 15;
    /// The closing quotes of [`QUOTES`], from this kind on, in their order.
    const QUOTE: usize = 16;
    const KINDS: usize = Self::QUOTE + QUOTES.len();
    /// The closing quotes, by kind from [`Reach::QUOTE`].
    const QUOTES: [char; QUOTES.len()] = {
        let mut out = ['\0'; QUOTES.len()];
        let mut k = 0;
        while k < QUOTES.len() {
            out[k] = QUOTES[k].1;
            k += 1;
        }
        out
    };

    /// The first byte of kind `slot` of `b` at or after `from` (for a quote, its first byte).
    fn next(&mut self, slot: usize, b: &[u8], from: usize) -> Option<usize> {
        if let Some((searched, found)) = self.next[slot]
            && searched <= from
            && found.is_none_or(|f| f >= from)
        {
            return found;
        }
        let rest = &b[from..];
        let found = match slot {
            Self::CLOSE_AFTER => memchr::memchr(b']', rest),
            Self::PAREN_AFTER => memchr::memchr(b')', rest),
            Self::NON_ASCII | Self::NON_ASCII_IN => rest.iter().position(|c| !c.is_ascii()),
            Self::UNTRIMMED => rest
                .iter()
                .position(|c| !matches!(c, b'.' | b',' | b':' | b';' | b'!' | b'?' | b'*' | b'`')),
            Self::PCT25 => memchr::memmem::find(rest, b"%25"),
            Self::NOT_ZONE => rest
                .iter()
                .position(|c| !(c.is_ascii_alphanumeric() || b"-._~%".contains(c))),
            Self::QUOTE.. => {
                let mut utf8 = [0; 4];
                let quote = Self::QUOTES[slot - Self::QUOTE].encode_utf8(&mut utf8);
                memchr::memmem::find(rest, quote.as_bytes())
            }
            _ => memchr::memchr(Self::BYTES[slot], rest),
        }
        .map(|k| from + k);
        crate::work::add(
            crate::work::Work::OpenerScans,
            found.map_or(b.len(), |f| f + 1) - from,
        );
        self.next[slot] = Some((from, found));
        found
    }

    /// The first character at or after `from` (a character boundary) where every walk to an
    /// IRI's end stops ([`walk_to_end`]): one that ends any IRI, or a full-width sentence mark
    /// that no ASCII letter or digit follows; the text's end if none does. `slot` 0 is searched
    /// from IRIs' starts, 1 from their `[`.
    fn next_stop(&mut self, slot: usize, text: &str, from: usize) -> usize {
        if let Some((searched, found)) = self.stop[slot]
            && searched <= from
            && found >= from
        {
            return found;
        }
        let mut found = text.len();
        for (k, c) in text[from..].char_indices() {
            let plain = c.is_ascii_alphanumeric()
                || (!c.is_ascii() && (c as u32) < 0x1680 && !matches!(c, '\u{85}' | '\u{A0}'));
            if !plain && (ends_iri(c) || mark_ends_iri(c, &text[from + k + c.len_utf8()..])) {
                found = from + k;
                break;
            }
        }
        crate::work::add(crate::work::Work::OpenerScans, found - from + 1);
        self.stop[slot] = Some((from, found));
        found
    }
}

/// Where the IRI starting at `start` ends, trailing punctuation dropped.
pub(crate) fn iri_end(text: &str, start: usize) -> usize {
    walk_to_end(text, start, true)
}

/// [`iri_end`]; without the `shortcut` every character is weighed by every test, which the
/// tests compare the shortcut with.
fn walk_to_end(text: &str, start: usize, shortcut: bool) -> usize {
    // opens minus closes, per pair
    let mut balance = [0isize; PAIRS.len()];
    let mut end = text.len();
    let quote = closing_quote(text, start);
    // Right after `(`, as a Markdown link's destination, the IRI ends at the `)` closing it.
    let in_parens = text[..start].ends_with('(');
    let mut prev = '\0';
    let mut ascii_so_far = true;
    // In the host a CJK character right after ASCII may be a look-alike (`一` for `-`) that
    // the rules must see: the run-on rule starts after the authority.
    let after_authority = after_authority(text, start);
    let rest = &text[start..];
    let rb = rest.as_bytes();
    let mut k = 0;
    while let Some(c) = rest[k..].chars().next() {
        if shortcut && c.is_ascii_alphanumeric() {
            // A run of ASCII letters and digits (most of an IRI) ends nothing, opens nothing,
            // and starts no CJK run: passed over a byte at a time, not decoded as characters.
            let run = rb[k..].iter().position(|b| !b.is_ascii_alphanumeric());
            k = run.map_or(rb.len(), |n| k + n);
            prev = char::from(rb[k - 1]);
            continue;
        }
        // A link written in ASCII ends where running CJK text starts right after a letter or
        // digit (`https://example.org/damo找到了`); CJK after a delimiter (`/wiki/東京`), or in an
        // IRI that already has non-ASCII characters, is part of it.
        let cjk_run_on = start + k > after_authority
            && ascii_so_far
            && prev.is_ascii_alphanumeric()
            && is_cjk(c);
        // ASCII letters and digits, and the characters below U+1680 but the Latin-1 spaces, end
        // nothing and open or close no pair (those are ASCII or far above): most of an IRI is
        // decided at once, however long it is.
        let plain = shortcut
            && if c.is_ascii() {
                c.is_ascii_alphanumeric()
            } else {
                (c as u32) < 0x1680 && !matches!(c, '\u{85}' | '\u{A0}')
            };
        if cjk_run_on
            || Some(c) == quote
            || (!plain && (ends_iri(c) || mark_ends_iri(c, &text[start + k + c.len_utf8()..])))
        {
            end = start + k;
            break;
        }
        ascii_so_far &= c.is_ascii();
        prev = c;
        if !plain {
            if let Some(p) = pair_of_opener(c) {
                balance[p] += 1;
            } else if let Some(p) = pair_of_closer(c) {
                if (p >= FIRST_ENDING_PAIR || in_parens) && balance[p] <= 0 {
                    end = start + k;
                    break;
                }
                balance[p] -= 1;
            }
        }
        k += c.len_utf8();
    }
    crate::work::add(crate::work::Work::OpenerScans, end - start + 1);
    let mut quote_count: Option<usize> = None;
    while let Some(c) = text[start..end].chars().next_back() {
        if !is_trailing_punctuation(c) {
            break;
        }
        if let Some(p) = pair_of_closer(c) {
            if balance[p] >= 0 {
                break; // balanced: part of the IRI
            }
            balance[p] += 1;
        }
        // A quote closing one inside the IRI stays (`/blah_'singlequoted'`); an unbalanced one
        // is the sentence's. An apostrophe (`it's`) opens nothing.
        // (Counted once: what is trimmed is never a letter or digit, so no quote becomes an
        // apostrophe or stops being one.)
        if c == '\'' {
            let q = quote_count.get_or_insert_with(|| quotes(&text.as_bytes()[start..end]));
            if q.is_multiple_of(2) {
                break;
            }
            *q -= 1;
        }
        end -= c.len_utf8();
    }
    end
}

/// The `'` of `b` that are quotes, not apostrophes between two letters or digits.
fn quotes(b: &[u8]) -> usize {
    let alnum = |k: Option<&u8>| k.is_some_and(u8::is_ascii_alphanumeric);
    (0..b.len())
        .filter(|&k| b[k] == b'\'' && !(k > 0 && alnum(b.get(k - 1)) && alnum(b.get(k + 1))))
        .count()
}

/// Where the authority of the IRI starting at `start` ends (its first `/`, `?` or `#` after
/// `scheme://`, or after `www.`); `start` for an IRI without one.
fn after_authority(text: &str, start: usize) -> usize {
    let rest = &text[start..];
    // (Bytes: the fifth byte may be inside a character, as in `ws:é`.)
    let host = if rest.len() >= 4 && rest.as_bytes()[..4].eq_ignore_ascii_case(b"www.") {
        0
    } else {
        // The scheme's end, where `://` must be: not a search through the rest of the document
        // for one (each IRI without it searched to the next, or to the end).
        let k = rest
            .bytes()
            .position(|b| !is_scheme_byte(b))
            .unwrap_or(rest.len());
        crate::work::add(crate::work::Work::AuthoritySearch, k + 1);
        match rest[k..].starts_with("://") {
            true => k + 3,
            false => return start,
        }
    };
    let end = rest[host..]
        .find(|c: char| matches!(c, '/' | '?' | '#') || c.is_whitespace())
        .map_or(rest.len(), |k| host + k);
    start + end
}

/// The IRIs of a plain-text document, each mapped one to one to its source bytes.
pub fn extract(text: &str) -> Vec<Occurrence> {
    detect(text)
        .into_iter()
        .map(|r| occurrence(text, r))
        .collect()
}

/// The IRI at `range` of the plain text `text`, with its placeholders
/// ([`text_placeholders::placeholders`]).
pub fn occurrence(text: &str, range: Range<usize>) -> Occurrence {
    let mut occ = Occurrence::verbatim(text, range, "text");
    occ.placeholders = text_placeholders::placeholders(&occ.iri);
    occ
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::select;

    #[test]
    fn the_authority_starts_where_a_search_for_its_slashes_finds_it() {
        // What a search for `://` through the rest of the text found.
        let by_search = |text: &str, start: usize| -> usize {
            let rest = &text[start..];
            let host = if rest.len() >= 4 && rest.as_bytes()[..4].eq_ignore_ascii_case(b"www.") {
                0
            } else {
                match rest.find("://") {
                    Some(k) if rest[..k].bytes().all(is_scheme_byte) => k + 3,
                    _ => return start,
                }
            };
            let end = rest[host..]
                .find(|c: char| matches!(c, '/' | '?' | '#') || c.is_whitespace())
                .map_or(rest.len(), |k| host + k);
            start + end
        };
        let pieces = ["http", "://", "a", ":", "/", " ", "www.", "+", "é", "?"];
        for text in &crate::extract::joinings("", &pieces, 4) {
            for (start, _) in text.char_indices() {
                assert_eq!(
                    after_authority(text, start),
                    by_search(text, start),
                    "{text:?} from {start}"
                );
            }
        }
    }

    #[test]
    fn absolute_iris_only() {
        assert_eq!(absolute_iri("https://a.example/x."), Some(0..20));
        assert_eq!(absolute_iri(" https://a.example/ b"), Some(1..19));
        assert_eq!(absolute_iri("mailto:a@b.example"), Some(0..18));
        assert_eq!(absolute_iri("https://a.example/{{ .Dir }} x"), Some(0..28));
        for quiet in [
            "Title: subtitle",
            "2024-01-02T10:00:00Z",
            "/docs/intro",
            "../a.png",
            "www.example.org",
            "tel: 555",
            "https:",
            "",
            "x https://a.example/",
            "{{ .Site.BaseURL }}/x",
        ] {
            assert_eq!(absolute_iri(quiet), None, "{quiet:?}");
        }
    }

    /// The byte-by-byte scan `detect` replaced: the oracle it must agree with. It tries every
    /// word start, where `detect` only tries the words before a trigger; what an IRI is at a
    /// given start is [`iri_at`]'s for both.
    fn detect_byte_by_byte(text: &str) -> Vec<Range<usize>> {
        let b = text.as_bytes();
        let mut found = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if !b[i].is_ascii_alphabetic() {
                i += 1;
                continue;
            }
            match iri_at(text, i, None) {
                Some(end) => {
                    found.push(i..end);
                    i = end;
                }
                None => {
                    i = (i..b.len())
                        .find(|&k| !is_scheme_byte(b[k]))
                        .unwrap_or(b.len());
                }
            }
        }
        found
    }

    /// Characters around every shortcut of [`iri_end`]: the spaces below U+1680 and above, the
    /// quotes and their closers, pairs, CJK marks and letters (Hangul Jamo below U+1680), and
    /// letters that end nothing.
    const END_PIECES: &[&str] = &[
        "https://", "www.", "a", "Z", "9", "\u{e9}", "\u{85}", "\u{a0}", "\u{1680}", "\u{2003}",
        "\u{3000}", " ", "\n", "'", "`", "\u{2018}", "\u{2019}", "\u{201c}", "\u{201d}", "\u{ab}",
        "\u{bb}", "\u{2039}", "\u{203a}", "(", ")", "[", "]", "{", "}", "\u{ff08}", "\u{ff09}",
        "\u{300c}", "\u{300d}", "\u{3010}", "\u{3011}", "\u{3008}", "\u{3009}", "\u{300a}",
        "\u{300b}", "\u{3002}", "\u{3001}", "\u{ff0c}", "\u{ff1a}", "\u{ff0e}", "\u{4e00}",
        "\u{1100}", "\u{3042}", "\u{5d0}", "\u{416}", ".", ",", ":", "/", "?", "#", "<", ">", "\"",
        "*", "!", ";", "\u{202e}", "\u{200b}",
    ];

    const PIECES: &[&str] = &[
        "ttp:",
        "tps",
        "s:",
        "Note:",
        "x",
        "ws",
        "http",
        "https",
        "HTTP",
        "ftp",
        "mailto",
        "urn",
        "www",
        "WWW",
        "xn--",
        ":",
        "://",
        "//",
        ".",
        "..",
        "www.",
        "a",
        "b1",
        "3",
        "0.",
        "-",
        "+",
        "_",
        " ",
        "\n",
        "é",
        "日本",
        "。",
        "(",
        ")",
        "[",
        "]",
        "<",
        ">",
        "\"",
        "'",
        "@",
        "/",
        "?",
        "#",
        "%20",
        "{x}",
        "[x]",
        ",",
        ";",
        "!",
        "*",
        "\u{202E}",
        "example.org",
        "a.b.c",
        "www.example.com",
        "http:",
        "https:",
        "wWw",
        "w",
        "1",
        "{",
        "}",
        "`",
        "v1.",
        "%25",
        "\u{201C}",
        "\u{201D}",
        "[v",
        "[/",
        "[:",
        "@]",
        "[[",
        "www.a[",
        "http://[",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn detect_agrees_with_the_byte_by_byte_scan(parts in proptest::collection::vec(select(PIECES), 0..40)) {
            let text = parts.concat();
            prop_assert_eq!(detect(&text), detect_byte_by_byte(&text), "{:?}", text);
        }

        /// Wherever an IRI starts, the searches kept from IRI to IRI end it where a walk to its
        /// end and the cut there do, with the same searches kept for every start in order.
        #[test]
        fn cut_end_agrees_with_the_walk(parts in proptest::collection::vec(select(PIECES), 0..40)) {
            let text = parts.concat();
            let mut reach = Reach::default();
            for (start, _) in text.char_indices() {
                // As the detector says: a word that a `:` follows is a scheme.
                let word = text[start..].bytes().take_while(|&c| is_scheme_byte(c)).count();
                let scheme = word > 0 && text[start + word..].starts_with(':');
                let walked = walked_end(&text, start);
                prop_assert_eq!(cut_end(&text, start, scheme, &mut reach), walked, "{:?} from {}", text, start);
                prop_assert_eq!(cut_end(&text, start, scheme, &mut Reach::default()), walked);
            }
        }

        /// Wherever an IRI starts, it ends where the character-by-character walk says.
        #[test]
        fn iri_end_agrees_with_the_char_by_char_walk(
            parts in proptest::collection::vec(select(END_PIECES), 0..40),
        ) {
            let text = parts.concat();
            for (start, _) in text.char_indices() {
                prop_assert_eq!(iri_end(&text, start), walk_to_end(&text, start, false), "{:?} from {}", text, start);
            }
        }

        /// Where the triggers say no, `detect` on that slice finds nothing; asked about ranges
        /// in order and out of order (the cursor goes back), they answer as a fresh index does.
        #[test]
        fn no_trigger_in_a_range_means_no_iri_in_its_slice(
            parts in proptest::collection::vec(select(PIECES), 0..30),
            cuts in proptest::collection::vec((0usize..400, 0usize..40), 1..12),
        ) {
            let text = parts.concat();
            let mut triggers = Triggers::new(&text);
            for (start, len) in cuts {
                let start = start.min(text.len());
                let end = (start + len).min(text.len());
                if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
                    continue;
                }
                let any = triggers.any_in(start..end);
                prop_assert_eq!(any, Triggers::new(&text).any_in(start..end));
                if !any {
                    prop_assert!(detect(&text[start..end]).is_empty(), "{:?} in {:?}", start..end, text);
                }
            }
        }
    }

    #[test]
    fn triggers_are_colons_and_the_dots_of_www() {
        let text = "See WwW.a, w.x and a:b; www. wwww. Note: xhttp://a ws:";
        let mut t = Triggers::new(text);
        let expect: Vec<usize> = [7, 20, 27, 33, 39, 46, 53].to_vec();
        assert_eq!(
            t.at,
            expect,
            "{:?}",
            expect.iter().map(|&p| &text[p..p + 1]).collect::<Vec<_>>()
        );
        // The `:` of `a:` and `Note:` end no scheme; that of `xhttp:` does in a slice from its
        // `h`, where `detect` reads `http:`.
        let said: Vec<bool> = [0..10, 15..23, 35..41, 41..50, 51..54, 42..50]
            .into_iter()
            .map(|r| t.any_in(r))
            .collect();
        assert_eq!(said, [true, false, false, true, true, true]);
        assert!(detect(&text[41..50]).is_empty());
        assert_eq!(detect(&text[42..50]), [Range { start: 0, end: 8 }]);
    }

    /// A two-letter scheme and a character of two bytes after it: the test for `www.` must not
    /// cut that character (it did, and the run panicked).
    #[test]
    fn a_short_iri_ending_inside_a_character_is_found() {
        assert_eq!(detect("see ws:\u{e9} here"), [Range { start: 4, end: 9 }]);
        assert_eq!(detect("ws:\u{e9}"), [Range { start: 0, end: 5 }]);
    }

    #[test]
    fn a_colon_is_a_trigger_when_a_scheme_may_end_there() {
        for k in SCHEMES {
            for prefix in ["", " ", "x", "Note", "\u{e9}", "1"] {
                for word in [k.to_string(), k.to_ascii_uppercase()] {
                    let text = format!("{prefix}{word}:");
                    assert!(scheme_may_end_at(&text, text.len() - 1), "{text}");
                }
            }
        }
        for text in [
            "Note:", "a:", "10:30", "e.g.:", ":", "http-:", "svn+:", "\u{e9}:", "ttpx:",
        ] {
            let p = text.rfind(':').unwrap();
            assert!(!scheme_may_end_at(text, p), "{text}");
        }
    }

    #[test]
    fn schemes_are_sorted_lowercase_and_found_in_any_case() {
        assert!(SCHEMES.windows(2).all(|w| w[0] < w[1]));
        for k in SCHEMES {
            // Lowercase letters only, two to six (what `scheme_may_end_at` relies on).
            assert!((2..=LONGEST_SCHEME).contains(&k.len()));
            assert!(k.bytes().all(|c| c.is_ascii_lowercase()));
            assert!(is_known_scheme(k) && is_known_scheme(&k.to_ascii_uppercase()));
        }
        for word in ["", "h", "htt", "httpss", "mailtox", "Note", "ex\u{e9}"] {
            assert!(!is_known_scheme(word), "{word}");
        }
        assert!(www_before(b"WwW.", 3) && !www_before(b"ww.", 2) && !www_before(b"wWv.", 3));
    }

    #[test]
    fn detect_agrees_on_long_runs_of_dots_and_colons() {
        // Runs that a word search backwards from every `.` would walk again and again.
        for unit in [
            "0.",
            "a.",
            "www.",
            "a:",
            "http:",
            ":.",
            "-.",
            "https://a.b ",
            "a.www.",
            "0.wWw.x:",
        ] {
            let text = unit.repeat(50_000);
            assert_eq!(detect(&text), detect_byte_by_byte(&text), "{unit}");
        }
    }

    fn iris(text: &str) -> Vec<&str> {
        detect(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn an_asciidoc_macro_ends_the_iri_and_synopses_keep_their_placeholders() {
        assert_eq!(
            iris(
                "link:https://github.com/newren/git-filter-repo[`filter-repo`] and https://example.org/a.[x]"
            ),
            [
                "https://github.com/newren/git-filter-repo",
                "https://example.org/a"
            ]
        );
        let text = "git clone http://[user@]machine/path and https://peps.python.org/pep-%04d/";
        let found = extract(text);
        assert_eq!(&*found[0].iri, "http://[user@]machine/path");
        assert_eq!(found[0].placeholders.first(), Some(&(7..14)));
        assert_eq!(found[1].placeholders.first(), Some(&(28..32)));
        assert_eq!(
            iris("http://[2001:db8::1]:8080/x"),
            ["http://[2001:db8::1]:8080/x"]
        );
    }

    #[test]
    fn iris_before_one_far_bracket_end_at_their_own() {
        // Each `[` is closed by the last `]` at the end of its IRI: an AsciiDoc macro's, cut.
        let text = "http://a.org/x[http://b.org/y[[http://c.org/z[/w].";
        assert_eq!(
            iris(text),
            ["http://a.org/x", "http://b.org/y", "http://c.org/z[/w]"]
        );
        // An IP literal or an optional part closed there stays.
        assert_eq!(
            iris("http://[v1.x http://[v7.a%25b]"),
            ["http://", "http://[v7.a%25b]"]
        );
        assert_eq!(
            iris("'http://[::1]' http://h[:port]"),
            ["http://[::1]", "http://h[:port]"]
        );
    }

    /// Chromium's Persian terms of service (components/resources/terms/terms_fa.html): an
    /// Arabic comma after a URL is the sentence's, not the path's.
    #[test]
    fn arabic_sentence_punctuation_after_an_iri_is_dropped() {
        assert_eq!(
            iris(
                "در https://code.example.org/chromium/terms.html\u{060C} یافت و https://a.example/b\u{061F} https://a.example/c\u{06D4}"
            ),
            [
                "https://code.example.org/chromium/terms.html",
                "https://a.example/b",
                "https://a.example/c"
            ]
        );
        // Inside an IRI it stays, for the rules to see.
        assert_eq!(
            iris("https://a.example/x\u{060C}y"),
            ["https://a.example/x\u{060C}y"]
        );
    }

    #[test]
    fn english_prose_and_trailing_punctuation() {
        assert_eq!(
            iris(
                "See https://example.com/docs. Or (https://example.org/a), then mailto:ops@example.net!"
            ),
            [
                "https://example.com/docs",
                "https://example.org/a",
                "mailto:ops@example.net"
            ]
        );
        assert_eq!(
            iris("Read https://en.wikipedia.org/wiki/Rust_(programming_language)."),
            ["https://en.wikipedia.org/wiki/Rust_(programming_language)"]
        );
        assert_eq!(
            iris("'https://a.example/x', \"https://b.example/y\" and `https://c.example/z`"),
            [
                "https://a.example/x",
                "https://b.example/y",
                "https://c.example/z"
            ]
        );
        assert_eq!(
            iris("Visit www.example.com/path?q=1;"),
            ["www.example.com/path?q=1"]
        );
    }

    #[test]
    fn not_an_iri() {
        assert!(iris("the http: scheme, xhttp://a, user@www.example.com, www. alone").is_empty());
        assert!(iris("svn+https://a x-http://b a.www.example.com").is_empty());
        assert!(iris("https:").is_empty());
        assert!(iris("ratio 3:4 and note: done").is_empty());
    }

    #[test]
    fn restructuredtext_roles_and_code_are_not_iris() {
        assert!(iris(":data:`Py_Version` and :file:`{prefix}/include` and file:`x`").is_empty());
        assert_eq!(
            iris("host = 'www.python.org'.rpartition(':') and `https://a.example/x`_"),
            ["www.python.org", "https://a.example/x"]
        );
        assert_eq!(
            iris("tag = '{http://people.example.com}actor' [see http://b.example/y][ref]"),
            ["http://people.example.com", "http://b.example/y"]
        );
        assert_eq!(
            iris("“https://c.example/z”, «https://d.example/»"),
            ["https://c.example/z", "https://d.example/"]
        );
        // Quotes inside an IRI not opened by a quote stay part of it.
        assert_eq!(
            iris("https://e.example/it's-fine"),
            ["https://e.example/it's-fine"]
        );
        assert_eq!(
            iris("data:,Hello tel:+1-555 urn:isbn:1"),
            ["data:,Hello", "tel:+1-555", "urn:isbn:1"]
        );
        assert_eq!(iris("http://[::1]:80/ok"), ["http://[::1]:80/ok"]);
    }

    #[test]
    fn uppercase_schemes() {
        assert_eq!(iris("HTTPS://EXAMPLE.COM/"), ["HTTPS://EXAMPLE.COM/"]);
    }

    #[test]
    fn japanese_and_chinese() {
        assert_eq!(
            iris("詳しくはhttps://例え.テスト/ページ。次の文です"),
            ["https://例え.テスト/ページ"]
        );
        assert_eq!(
            iris("「https://example.jp/資料」を参照してください、https://example.jp/b？"),
            ["https://example.jp/資料", "https://example.jp/b"]
        );
        assert_eq!(
            iris("请访问（https://例子.中国/首页）获取更多信息，谢谢"),
            ["https://例子.中国/首页"]
        );
        // An ideographic space ends an IRI.
        assert_eq!(
            iris("https://example.cn/a\u{3000}下一个"),
            ["https://example.cn/a"]
        );
        // Full-width sentence punctuation and running CJK text end an ASCII link.
        assert_eq!(
            iris("请参考https://pci-ids.ucw.cz/pciids，有一个数据库"),
            ["https://pci-ids.ucw.cz/pciids"]
        );
        assert_eq!(
            iris("在https://example.org/damo找到了；然后"),
            ["https://example.org/damo"]
        );
        assert_eq!(
            iris("https://example.jp/a．次に https://example.jp/b：説明"),
            ["https://example.jp/a", "https://example.jp/b"]
        );
        assert_eq!(
            iris("見てhttps://ja.wikipedia.org/wiki/東京タワー、https://例え.jp/東京タワーです"),
            [
                "https://ja.wikipedia.org/wiki/東京タワー",
                "https://例え.jp/東京タワーです"
            ]
        );
        // In the host, CJK after ASCII stays for the rules (`一` looks like `-`).
        assert_eq!(
            iris("https://bank.example一login.com/ x"),
            ["https://bank.example一login.com/"]
        );
        assert_eq!(
            iris("访问https://example.com获取，或https://example.com/a获取"),
            ["https://example.com获取", "https://example.com/a"]
        );
        // A full-width comma before an ASCII word of the sentence is the sentence's (from
        // LibreOffice's Chinese help: `URL 为 http://myserver.com，HTML 文档的输出目录`).
        assert_eq!(
            iris("URL 为 http://myserver.com，HTML 文档的输出目录是 http://a.org/b；Perl 脚本"),
            ["http://myserver.com", "http://a.org/b"]
        );
        assert_eq!(
            iris("https://bank.example，evil.com/ x"),
            ["https://bank.example，evil.com/"]
        );
        // A translation's `？` for `?` (Linux's zh_TW howto.rst): the link is broken, reported.
        assert_eq!(
            iris("        https://git.kernel.org/？p=linux/kernel/git/next/linux-next.git\n"),
            ["https://git.kernel.org/？p=linux/kernel/git/next/linux-next.git"]
        );
        // Followed by an ASCII letter, a full-width mark is inside: a look-alike for the rules.
        assert_eq!(
            iris("https://bank.example．evil.com/ x"),
            ["https://bank.example．evil.com/"]
        );
        // The brackets and bar of CJK text delimit it, balanced or not (a link that holds one
        // is written percent-encoded).
        assert_eq!(iris("https://example.jp/【重要】"), ["https://example.jp/"]);
    }

    #[test]
    fn full_width_brackets_and_bars_end_an_iri() {
        assert_eq!(
            iris("全角 https://example.org/a｜https://example.org/b"),
            ["https://example.org/a", "https://example.org/b"]
        );
        assert_eq!(
            iris(
                "（https://example.org/c）［https://example.org/d］｛https://example.org/e｝〔https://example.org/f〕"
            ),
            [
                "https://example.org/c",
                "https://example.org/d",
                "https://example.org/e",
                "https://example.org/f"
            ]
        );
        assert_eq!(
            iris(
                "〈https://a.example/〉《https://b.example/》「https://c.example/」『https://d.example/』【https://e.example/x】"
            ),
            [
                "https://a.example/",
                "https://b.example/",
                "https://c.example/",
                "https://d.example/",
                "https://e.example/x"
            ]
        );
    }

    #[test]
    fn a_markdown_link_in_text_ends_at_its_parenthesis() {
        assert_eq!(
            iris("[https](https://www.ibm.com)[mailto](mailto:someone@ibm.com)"),
            ["https://www.ibm.com", "mailto:someone@ibm.com"]
        );
        // Balanced parentheses inside stay; without the `(` before, a `)` is GFM's.
        assert_eq!(
            iris("[Rust](https://en.wikipedia.org/wiki/Rust_(language)) and https://a.example/b)c"),
            [
                "https://en.wikipedia.org/wiki/Rust_(language)",
                "https://a.example/b)c"
            ]
        );
    }

    #[test]
    fn a_balanced_trailing_quote_stays() {
        assert_eq!(
            iris(
                "http://foo.com/blah_blah_'singlequoted' and http://foo.com/blah_blah_'unbalanced"
            ),
            [
                "http://foo.com/blah_blah_'singlequoted'",
                "http://foo.com/blah_blah_'unbalanced"
            ]
        );
        assert_eq!(
            iris("see http://foo.com/it's' now"),
            ["http://foo.com/it's"]
        );
    }

    #[test]
    fn arabic_and_hebrew() {
        assert_eq!(
            iris("زوروا https://مثال.إختبار/صفحة للمزيد."),
            ["https://مثال.إختبار/صفحة"]
        );
        assert_eq!(
            iris("ראו https://דוגמה.טעסט/עמוד, תודה"),
            ["https://דוגמה.טעסט/עמוד"]
        );
        // A Hebrew prefix letter joined with a hyphen (maqaf) does not hide the IRI.
        assert_eq!(
            iris("חפשו ב-https://example.co.il/חיפוש?מילה=שלום."),
            ["https://example.co.il/חיפוש?מילה=שלום"]
        );
    }

    #[test]
    fn russian_and_german() {
        assert_eq!(
            iris("Подробнее: https://пример.рф/страница; спасибо"),
            ["https://пример.рф/страница"]
        );
        assert_eq!(
            iris("Siehe https://beispiel.de/Straße/Übersicht!"),
            ["https://beispiel.de/Straße/Übersicht"]
        );
    }

    #[test]
    fn hidden_characters_stay_inside() {
        assert_eq!(
            iris("get https://example.org/\u{202E}gnp.exe now"),
            ["https://example.org/\u{202E}gnp.exe"]
        );
        assert_eq!(
            iris("https://exa\u{200B}mple.com/"),
            ["https://exa\u{200B}mple.com/"]
        );
        // A no-break space is whitespace and ends the IRI.
        assert_eq!(iris("https://a.example/x\u{A0}y"), ["https://a.example/x"]);
    }

    #[test]
    fn markup_delimiters_end_an_iri() {
        assert_eq!(
            iris("<https://a.example/x> and \"https://b.example/y\""),
            ["https://a.example/x", "https://b.example/y"]
        );
    }

    #[test]
    fn long_runs_of_closers_are_linear() {
        let text = format!("http://a/{}", ")".repeat(200_000));
        assert_eq!(iris(&text), ["http://a/"]);
    }
}
