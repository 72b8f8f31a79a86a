//! Rules on bidirectional text (RFC 3987 §4).

use std::ops::Range;

use crate::iri::props::bidi_class;
use unicode_bidi::{BidiClass, BidiDataSource, HardcodedBidiData};

use super::{Check, IriCheck, Rule, Severity, Sink, describe_chars};
use crate::iri::Iri;
use crate::iri::chars::{ascii_run_end, describe, escape_unsafe, is_bidi_formatting, is_hexdig};
use crate::iri::to_uri::uses_dns;
use crate::iri_fix::{Applicability, IriFix};
use crate::work::{self, Work};

/// `bidi-formatting-character`: LRM, RLM, ALM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
pub const FORMATTING_CHARACTER: Rule = Rule {
    id: "bidi-formatting-character",
    group: "bidi",
    severity: Severity::Error,
    rfc: &["4.1", "8"],
    doc: include_str!("../../rules/bidi-formatting-character.md"),
    unicode_only: true,
    check: Check::Iri(check_formatting),
};

/// `bidi-mixed-direction`.
pub const MIXED_DIRECTION: Rule = Rule {
    id: "bidi-mixed-direction",
    group: "bidi",
    severity: Severity::Warning,
    rfc: &["4.2"],
    doc: include_str!("../../rules/bidi-mixed-direction.md"),
    unicode_only: true,
    check: Check::Iri(check_mixed_direction),
};

/// `bidi-component-edge`.
pub const COMPONENT_EDGE: Rule = Rule {
    id: "bidi-component-edge",
    group: "bidi",
    severity: Severity::Warning,
    rfc: &["4.2"],
    doc: include_str!("../../rules/bidi-component-edge.md"),
    unicode_only: true,
    check: Check::Iri(check_component_edge),
};

fn check_formatting(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    // Every formatting character starts with byte 0xD8 (U+061C) or 0xE2 (U+200E..U+2069) in
    // UTF-8, lead bytes that start a character: only those are looked at.
    let text = input.text;
    for i in memchr::memchr2_iter(0xD8, 0xE2, text.as_bytes()) {
        let Some(c) = text[i..].chars().next() else {
            continue;
        };
        if !is_bidi_formatting(c) {
            continue;
        }
        if sink.joins(sink.severity(), i) {
            // Its place and its edit join the first finding's; its words would be dropped.
            sink.report(i..i + c.len_utf8(), String::new(), None);
            sink.attach_fix(IriFix::replace(
                Applicability::Unsafe,
                "",
                i..i + c.len_utf8(),
                "",
            ));
        } else {
            sink.report(
                i..i + c.len_utf8(),
                format!("IRI contains {}", describe(c)),
                Some(
                    "remove it: bidi formatting characters are invisible, change the order in which the IRI is displayed, and must not appear in IRIs"
                        .to_string(),
                ),
            );
            // Unsafe: the IRI without it is another string, so possibly another resource.
            sink.attach_fix(IriFix::replace(
                Applicability::Unsafe,
                format!("remove {}", describe(c)),
                i..i + c.len_utf8(),
                "",
            ));
        }
    }
}

// RFC 3987 §4.2: the structure of bidi components.

/// Which §4.2 component a range is: decides the wording of messages and, for the ones that often
/// hold free text, the severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    HostLabel,
    Userinfo,
    MailtoLocalPart,
    PathSegment,
    QueryName,
    QueryValue,
    Fragment,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::HostLabel => "host label",
            Kind::Userinfo => "userinfo",
            Kind::MailtoLocalPart => "local part of the mail address",
            Kind::PathSegment => "path segment",
            Kind::QueryName => "query parameter name",
            Kind::QueryValue => "query parameter value",
            Kind::Fragment => "fragment",
        }
    }

    /// Query names and values and the fragment often hold free text, where both directions and
    /// numbers next to right-to-left words are normal; RFC 3987 §4.2 itself says the restrictions
    /// may be "very difficult to enforce" there. Findings in them are advice only.
    fn is_prose(self) -> bool {
        matches!(self, Kind::QueryName | Kind::QueryValue | Kind::Fragment)
    }
}

/// Reports with the rule's severity, or as `info` in a prose component.
fn report(sink: &mut Sink<'_>, kind: Kind, range: Range<usize>, message: String, help: String) {
    if kind.is_prose() {
        sink.report_as(Severity::Info, range, message, Some(help));
    } else {
        sink.report(range, message, Some(help));
    }
}

/// Calls `f` with each §4.2 component of `iri` these rules check, in order: the userinfo, the
/// host labels (not for DNS schemes, nor for scheme-relative references, which resolve against a
/// web page's base: DNS labels must pass the IDNA bidi rule of RFC 5893, which `idn-invalid`
/// checks, so these rules leave them alone rather than report twice), each path segment without
/// its file extensions, for `mailto:` each address's local part (its domain is a DNS name), each
/// query name and value, the fragment.
fn for_each_component(text: &str, iri: &Iri, mut f: impl FnMut(Kind, Range<usize>)) {
    let scheme = iri.scheme.as_ref().map(|r| &text[r.clone()]);
    let dns_host = scheme.is_none_or(uses_dns);
    if let Some(a) = &iri.authority {
        if let Some(u) = &a.userinfo {
            f(Kind::Userinfo, u.clone());
        }
        if !dns_host {
            for label in a.host.labels(text) {
                f(Kind::HostLabel, label.clone());
            }
        }
    }
    if iri.authority.is_none() && scheme.is_some_and(|s| s.eq_ignore_ascii_case("mailto")) {
        // RFC 6068: `mailto:` addr-spec *("," addr-spec); the domain after an address's last
        // `@` is a DNS name.
        let mut start = iri.path.start;
        for piece in text[iri.path.clone()].split(',') {
            let range = start..start + piece.len();
            start = range.end + 1;
            match piece.rfind('@') {
                Some(at) => f(Kind::MailtoLocalPart, range.start..range.start + at),
                None => f(Kind::PathSegment, range),
            }
        }
    } else {
        for seg in iri.segments(text) {
            f(Kind::PathSegment, without_extensions(text, &seg));
        }
    }
    for q in iri.query_parts(text) {
        f(Kind::QueryName, q.name.clone());
        if let Some(v) = &q.value {
            f(Kind::QueryValue, without_extensions(text, v));
        }
    }
    if let Some(fragment) = &iri.fragment {
        f(Kind::Fragment, fragment.clone());
    }
}

/// `range` without its trailing file extensions (`name.tar.gz` → `name`): RFC 3987 §4.2 lets
/// "the extensions in a resource name" be components of their own, and the draft's examples 4 and
/// 6 (`/KL.html`) rely on it. An extension is ASCII letters and digits starting with a letter, so
/// a dot before a letter, which keeps the two sides apart in display; `.2` is not one (the digit
/// joins the right-to-left run before it), and neither is a leading dot (`.htaccess`).
fn without_extensions(text: &str, range: &Range<usize>) -> Range<usize> {
    let s = &text.as_bytes()[range.clone()];
    let mut end = s.len();
    while let Some(dot) = memchr::memrchr(b'.', &s[..end]) {
        let ext = &s[dot + 1..end];
        let is_extension = dot > 0
            && ext.first().is_some_and(u8::is_ascii_alphabetic)
            && ext.iter().all(u8::is_ascii_alphanumeric);
        if !is_extension {
            break;
        }
        end = dot;
    }
    range.start..range.start + end
}

/// The direction a unit of a component counts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dir {
    /// Bidi class R or AL, or a non-spacing mark on such a character.
    Rtl,
    /// Bidi class L, or a non-spacing mark on such a character.
    Ltr,
    /// Everything else that is displayed: digits (EN, AN), separators and terminators (ES, CS,
    /// ET), other neutrals (ON, ...), and a `%HH` escape as a whole.
    Weak,
    /// Boundary-neutral (BN: ZWJ, ZWNJ, soft hyphen, ...) and bidi formatting characters: the bidi
    /// algorithm ignores them (UAX #9 X9) and other rules report them.
    Transparent,
}

/// What the two rules need to know about one component.
#[derive(Debug, Default, PartialEq, Eq)]
struct Directions {
    /// The first right-to-left character.
    first_rtl: Option<char>,
    /// The first left-to-right character.
    first_ltr: Option<char>,
    /// The non-right-to-left run before the first strong character, when that one is
    /// right-to-left (byte range in the component).
    leading: Option<Range<usize>>,
    /// The non-right-to-left run after the last strong character, when that one is
    /// right-to-left.
    trailing: Option<Range<usize>>,
}

/// Classifies `s` unit by unit, in one pass and without allocating. A `%HH` escape is one weak
/// unit: RFC 3987 §4.2 recommends percent-encoding to satisfy its restrictions, so its hex
/// letters do not count as left-to-right text. A non-spacing mark takes the direction of the
/// unit before it (UAX #9 W1); at the start it is weak.
fn directions(s: &str) -> Directions {
    let b = s.as_bytes();
    let mut out = Directions::default();
    let mut prev = Dir::Weak;
    let mut first_strong = None;
    let mut last_strong = None;
    let mut weak_run: Option<Range<usize>> = None;
    let mut i = 0;
    while let Some(c) = s[i..].chars().next() {
        let start = i;
        // A run of ASCII without `%` at once: its letters are left-to-right, its controls
        // other than whitespace boundary-neutral, the rest weak (`ascii_directions`).
        if c.is_ascii() && c != '%' {
            let end = ascii_run_end(b, i);
            let end = memchr::memchr(b'%', &b[i..end]).map_or(end, |k| i + k);
            let run = &b[i..end];
            let weak_at = |k: usize| ascii_dir(run[k]) == Dir::Weak;
            match run.iter().rposition(|&x| ascii_dir(x) == Dir::Ltr) {
                Some(last) => {
                    let first = run.iter().position(|&x| ascii_dir(x) == Dir::Ltr);
                    let first = first.unwrap_or(last);
                    out.first_ltr.get_or_insert(char::from(run[first]));
                    first_strong.get_or_insert(Dir::Ltr);
                    last_strong = Some(Dir::Ltr);
                    weak_run = None;
                    prev = Dir::Ltr;
                    let after = last + 1..run.len();
                    if let Some(w) = after.clone().find(|&k| weak_at(k)) {
                        let w_end = after.rev().find(|&k| weak_at(k)).unwrap_or(w) + 1;
                        weak_run = Some(i + w..i + w_end);
                        prev = Dir::Weak;
                    }
                }
                None => {
                    if let Some(w) = (0..run.len()).find(|&k| weak_at(k)) {
                        let w_end = (0..run.len()).rev().find(|&k| weak_at(k)).unwrap_or(w) + 1;
                        weak_run = Some(weak_run.map_or(i + w, |r| r.start)..i + w_end);
                        prev = Dir::Weak;
                    }
                }
            }
            i = end;
            continue;
        }
        work::add(Work::RuleChars, 1);
        let escape = c == '%' && b.len() > i + 2 && is_hexdig(b[i + 1]) && is_hexdig(b[i + 2]);
        i += if escape { 3 } else { c.len_utf8() };
        let dir = if escape {
            Dir::Weak
        } else if is_bidi_formatting(c) {
            Dir::Transparent
        } else {
            match bidi_class(c) {
                BidiClass::R | BidiClass::AL => Dir::Rtl,
                BidiClass::L => Dir::Ltr,
                BidiClass::NSM => prev,
                BidiClass::BN
                | BidiClass::LRE
                | BidiClass::RLE
                | BidiClass::LRO
                | BidiClass::RLO
                | BidiClass::PDF
                | BidiClass::LRI
                | BidiClass::RLI
                | BidiClass::FSI
                | BidiClass::PDI => Dir::Transparent,
                _ => Dir::Weak,
            }
        };
        match dir {
            Dir::Transparent => continue,
            Dir::Weak => {
                weak_run = Some(weak_run.map_or(start, |r| r.start)..i);
            }
            Dir::Rtl | Dir::Ltr => {
                let first = if dir == Dir::Rtl {
                    &mut out.first_rtl
                } else {
                    &mut out.first_ltr
                };
                first.get_or_insert(c);
                if first_strong.is_none() {
                    first_strong = Some(dir);
                    if dir == Dir::Rtl {
                        out.leading = weak_run.clone();
                    }
                }
                last_strong = Some(dir);
                weak_run = None;
            }
        }
        prev = dir;
    }
    if last_strong == Some(Dir::Rtl) {
        out.trailing = weak_run.and_then(|run| {
            // A bracket pair that closes here and resolves right-to-left is displayed with the
            // right-to-left run: only what follows its last closing bracket may drift.
            let start = after_rtl_brackets(s, &run).unwrap_or(run.start);
            (start < run.end).then_some(start..run.end)
        });
    }
    out
}

/// The direction of an ASCII character other than `%` (which may start an escape): letters are
/// L, the controls that are not whitespace BN, everything else weak (`ascii_directions` checks
/// this against the Bidi_Class of each).
fn ascii_dir(b: u8) -> Dir {
    match b {
        b'a'..=b'z' | b'A'..=b'Z' => Dir::Ltr,
        0x00..=0x08 | 0x0E..=0x1B | 0x7F => Dir::Transparent,
        _ => Dir::Weak,
    }
}

/// False when `s` cannot hold a right-to-left character: every character is below U+0580 (no
/// UTF-8 byte of 0xD6 or more), where no character has bidi class R or AL. Both §4.2 rules
/// report only around right-to-left characters, so an IRI without any has nothing to report and
/// is answered by one byte scan instead of a lookup per character (a long `é…` IRI).
fn may_hold_rtl(s: &str) -> bool {
    s.bytes().any(|b| b >= 0xD6)
}

/// Which way a character counts for the paired-bracket rule (UAX #9 N0, where European and
/// Arabic digits count as right-to-left).
fn bracket_strength(c: char) -> Option<Dir> {
    match bidi_class(c) {
        BidiClass::L => Some(Dir::Ltr),
        BidiClass::R | BidiClass::AL | BidiClass::EN | BidiClass::AN => Some(Dir::Rtl),
        _ => None,
    }
}

/// The end of the last bracket pair (UAX #9 BD16) whose closing bracket is in `run` (the weak
/// run that ends the component `s`) and which N0 resolves to right-to-left in a left-to-right
/// paragraph: no left-to-right character inside, a right-to-left one (or a digit) inside, and
/// right-to-left the last strong character before its opening bracket. Wikipedia titles such
/// as `עברית_(שפה)` end this way and display in order.
fn after_rtl_brackets(s: &str, run: &Range<usize>) -> Option<usize> {
    if !s[run.clone()].chars().any(|c| {
        HardcodedBidiData
            .bidi_matched_opening_bracket(c)
            .is_some_and(|b| !b.is_open)
    }) {
        return None;
    }
    // BD16: a stack of opening brackets (63 deep at most), pairs as closers meet them. In the
    // same pass, what N0 asks of each pair: the last strong character before its opening
    // bracket (kept with it on the stack), and whether there are left-to-right and right-to-left
    // ones inside (counts since the opening bracket): linear, not a scan per pair.
    struct Open {
        bracket: char,
        before: Option<Dir>,
        ltr: usize,
        rtl: usize,
    }
    work::add(Work::BracketScan, s.len());
    let mut stack: Vec<Open> = Vec::new();
    let (mut last, mut ltr, mut rtl) = (None, 0, 0);
    let mut best = None;
    for (i, c) in s.char_indices() {
        if let Some(b) = HardcodedBidiData.bidi_matched_opening_bracket(c) {
            if b.is_open {
                if stack.len() == 63 {
                    break;
                }
                stack.push(Open {
                    bracket: b.opening,
                    before: last,
                    ltr,
                    rtl,
                });
            } else if let Some(k) = stack.iter().rposition(|o| o.bracket == b.opening) {
                let open = &stack[k];
                let resolves_rtl =
                    ltr == open.ltr && rtl > open.rtl && open.before == Some(Dir::Rtl);
                if run.contains(&i) && resolves_rtl {
                    best = Some(i + c.len_utf8());
                }
                stack.truncate(k);
            }
        }
        match bracket_strength(c) {
            Some(Dir::Ltr) => ltr += 1,
            Some(_) => rtl += 1,
            None => continue,
        }
        last = bracket_strength(c);
    }
    best
}

/// `` `1` (U+0031 DIGIT ONE) `` for ASCII, the names alone otherwise (never raw right-to-left or
/// invisible text in a message).
fn describe_run(run: &str) -> String {
    if run.is_ascii() {
        format!("`{}` ({})", escape_unsafe(run), describe_chars(run))
    } else {
        describe_chars(run)
    }
}

fn check_mixed_direction(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    if !may_hold_rtl(input.text) {
        return;
    }
    for_each_component(input.text, input.iri, |kind, range| {
        let s = &input.text[range.clone()];
        if s.is_ascii() {
            return;
        }
        let d = directions(s);
        let (Some(rtl), Some(ltr)) = (d.first_rtl, d.first_ltr) else {
            return;
        };
        let name = kind.name();
        report(
            sink,
            kind,
            range,
            format!(
                "the {name} mixes right-to-left and left-to-right characters ({} is right-to-left, {} left-to-right), so it is not displayed in the order it is read",
                describe(rtl),
                describe(ltr)
            ),
            format!(
                "keep each component in one direction: put the right-to-left and the left-to-right text in separate components (path segments, labels or query parameters), or percent-encode the whole {name}"
            ),
        );
    });
}

fn check_component_edge(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    if !may_hold_rtl(input.text) {
        return;
    }
    for_each_component(input.text, input.iri, |kind, range| {
        let s = &input.text[range.clone()];
        if s.is_ascii() {
            return;
        }
        let d = directions(s);
        let name = kind.name();
        for (run, edge) in [(d.leading, "starts"), (d.trailing, "ends")] {
            let Some(run) = run else { continue };
            report(
                sink,
                kind,
                range.start + run.start..range.start + run.end,
                format!(
                    "the {name} uses right-to-left characters but {edge} with {}, which is not right-to-left, so it may be displayed on the far side of the delimiter next to it",
                    describe_run(&s[run])
                ),
                format!(
                    "{} the {name} with a right-to-left letter: move the digits or punctuation into a component of their own (a separate path segment or query parameter), or percent-encode the whole {name}",
                    if edge == "starts" { "start" } else { "end" }
                ),
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<'a>(s: &'a str, r: &Option<Range<usize>>) -> Option<&'a str> {
        r.clone().map(|r| &s[r])
    }

    #[test]
    fn no_character_below_u0580_is_right_to_left() {
        for c in ('\0'..'\u{580}').filter(|c| !may_hold_rtl(c.encode_utf8(&mut [0; 4]))) {
            assert!(directions(&c.to_string()).first_rtl.is_none(), "{c:?}");
            assert!(
                !matches!(bidi_class(c), BidiClass::R | BidiClass::AL),
                "{c:?}"
            );
        }
        assert!(may_hold_rtl("\u{5D0}") && may_hold_rtl("\u{200F}") && may_hold_rtl("a\u{10800}"));
        assert!(!may_hold_rtl("caf\u{E9}\u{57F}"));
    }

    #[test]
    fn formatting_characters_start_with_the_bytes_looked_for() {
        for c in (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_bidi_formatting(c))
        {
            let lead = c.encode_utf8(&mut [0; 4]).as_bytes()[0];
            assert!(lead == 0xD8 || lead == 0xE2, "{c:?}");
        }
    }

    #[test]
    fn ascii_directions() {
        for b in (0..128u8).filter(|&b| b != b'%') {
            let c = char::from(b);
            let expected = match bidi_class(c) {
                BidiClass::L => Dir::Ltr,
                BidiClass::BN => Dir::Transparent,
                BidiClass::R | BidiClass::AL | BidiClass::NSM => unreachable!("{c:?}"),
                _ => Dir::Weak,
            };
            assert_eq!(ascii_dir(b), expected, "{c:?}");
        }
    }

    #[test]
    fn directions_of_units() {
        let s = "%31\u{5E9}\u{5DC}\u{5D5}\u{5DD}1.";
        let d = directions(s);
        assert_eq!(d.first_rtl, Some('\u{5E9}'));
        assert_eq!(d.first_ltr, None);
        assert_eq!(run(s, &d.leading), Some("%31"));
        assert_eq!(run(s, &d.trailing), Some("1."));
        // Hex letters of an escape are not left-to-right text.
        assert_eq!(directions("\u{5E9}%2C\u{5DD}").first_ltr, None);
        // A mark on a right-to-left letter counts with it; one at the start is weak.
        let s = "\u{5D9}\u{5D9}\u{5B4}";
        assert_eq!(directions(s).trailing, None);
        let s = "\u{5B4}\u{5D9}";
        assert_eq!(run(s, &directions(s).leading), Some("\u{5B4}"));
        // ZWNJ and formatting characters are transparent.
        let s = "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}\u{200F}";
        assert_eq!(
            directions(s),
            Directions {
                first_rtl: Some('\u{645}'),
                ..Directions::default()
            }
        );
        // A component that starts left-to-right is the mixed rule's business, not an edge.
        let d = directions("1a\u{5D0}");
        assert_eq!((d.leading, d.first_ltr), (None, Some('a')));
    }

    #[test]
    fn a_closing_bracket_pair_that_resolves_right_to_left_does_not_trail() {
        // UAX #9 N0: a pair around right-to-left text after right-to-left text is displayed
        // with it.
        for ok in [
            "\u{5E2}\u{5D1}\u{5E8}\u{5D9}\u{5EA}_(\u{5E9}\u{5E4}\u{5D4})",
            "\u{627}\u{644}\u{639}\u{631}\u{628}\u{64A}\u{629}_(\u{644}\u{63A}\u{629})",
            "\u{5E9}\u{5D9}\u{5E8}_(\u{5E9}\u{5E0}\u{5EA}_1999)",
            "\u{5D0}[\u{5D1}(\u{5D2})]",
        ] {
            assert_eq!(directions(ok).trailing, None, "{ok}");
        }
        // What follows the pair still trails; a pair with left-to-right text inside, or after
        // left-to-right text, or unclosed, resolves left-to-right (or is no pair) and trails.
        let s = "\u{5E2}_(\u{5E9}).";
        assert_eq!(run(s, &directions(s).trailing), Some("."));
        let s = "\u{5E2}(x\u{5E9})";
        assert_eq!(run(s, &directions(s).trailing), Some(")"));
        let s = "a\u{5E2}(\u{5E9})";
        assert_eq!(run(s, &directions(s).trailing), None);
        let s = "\u{5E2}\u{5E9})";
        assert_eq!(run(s, &directions(s).trailing), Some(")"));
        let s = "(\u{5E9})";
        assert_eq!(run(s, &directions(s).trailing), Some(")"));
        // Brackets of more than one byte (the pair's inside was sliced one byte past the opening
        // bracket, which panicked).
        let s = "\u{5E9}\u{300C}\u{5B4}\u{627}\u{300D}";
        assert_eq!(directions(s).trailing, None);
    }

    #[test]
    fn extensions_are_components_of_their_own() {
        fn strip(s: &str) -> &str {
            &s[without_extensions(s, &(0..s.len()))]
        }
        assert_eq!(strip("\u{5D0}.tar.gz"), "\u{5D0}");
        assert_eq!(strip("\u{5D0}.mp4"), "\u{5D0}");
        assert_eq!(strip("\u{5D0}.2"), "\u{5D0}.2");
        assert_eq!(strip("\u{5D0}.2a"), "\u{5D0}.2a");
        assert_eq!(strip("\u{5D0}.\u{5D1}"), "\u{5D0}.\u{5D1}");
        assert_eq!(strip(".htaccess"), ".htaccess");
        assert_eq!(strip("\u{5D0}."), "\u{5D0}.");
    }
}
