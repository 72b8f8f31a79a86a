//! Invisible characters (RFC 3987 §6.1, §8; UTS #39 §3.1).
//!
//! The characters are Default_Ignorable_Code_Point ([`is_default_ignorable`], which also covers
//! the Hangul fillers) without the bidi controls (`bidi-formatting-character` reports those),
//! plus the interlinear annotation characters U+FFF9–U+FFFB. A joiner or variation selector is
//! not reported where it changes what is displayed:
//!
//! - ZWNJ and ZWJ where IDNA2008 ContextJ allows them (RFC 5892 Appendix A.1, A.2): after a
//!   virama, and ZWNJ between a left- or dual-joining and a right- or dual-joining letter
//!   (transparent marks skipped), the Persian `می\u{200C}خواهم`;
//! - outside the host only: ZWJ inside an emoji ZWJ sequence (`👨\u{200D}👩\u{200D}👧`), ZWJ
//!   between a letter and a virama (the Bengali ya-phala after ra, `র\u{200D}্য`), ZWJ that
//!   gives an Arabic-script letter a joining form on a side without partner, the Mongolian free
//!   variation selectors after a Mongolian letter and the vowel separator before a final A or E;
//! - VS15/VS16 (U+FE0E, U+FE0F) after an emoji (`❤\u{FE0F}`) or in a keycap
//!   (`1\u{FE0F}\u{20E3}`).
//!
//! Outside the host, two invisible but typed (not attack) patterns are warnings: a joiner after
//! an Arabic-script letter where it changes no shape (Persian keyboards), and a ZWSP between
//! two letters of Thai, Lao, Khmer or Myanmar (a word-break hint).

use std::ops::Range;

use crate::iri::props::script;
use icu_properties::props::{ExtendedPictographic, JoiningType};
use icu_properties::{CodePointMapData, CodePointSetData};
use unicode_normalization::char::canonical_combining_class;
use unicode_script::Script;

use super::{
    Check, IriCheck, PartCursor, Rule, Severity, Sink, describe_chars, fix_fits, parts,
    shorten_encoded, shorten_escaped,
};
use crate::iri::Component;
use crate::iri::chars::{is_bidi_formatting, is_default_ignorable, is_ucschar};
use crate::iri::percent;
use crate::iri_fix::{Applicability, IriFix};

/// `invisible-character`.
pub const INVISIBLE_CHARACTER: Rule = Rule {
    id: "invisible-character",
    group: "invisible",
    severity: Severity::Error,
    rfc: &["6.1", "8", "4.1"],
    doc: include_str!("../../rules/invisible-character.md"),
    unicode_only: true,
    check: Check::Iri(check_invisible),
};

const ZWNJ: char = '\u{200C}';
const ZWJ: char = '\u{200D}';
/// The emoji keycap: `1\u{FE0F}\u{20E3}` is U+0031 U+FE0F U+20E3.
const KEYCAP: char = '\u{20E3}';
/// U+E007F CANCEL TAG, which ends an emoji tag sequence (`🏴` + tag letters + U+E007F is a
/// subdivision flag).
pub(super) const TAG_CANCEL: char = '\u{E007F}';

/// Whether `run`, tag characters between `before` and `after`, is in an emoji tag sequence (a
/// subdivision flag: `🏴` + tag letters + U+E007F CANCEL TAG). The tags are not allowed in IRIs,
/// but percent-encoding them keeps the flag: this rule advises it, and `percent-encoded-forbidden`
/// accepts the encoded tags.
pub(super) fn in_emoji_tag_sequence(before: &str, run: &str, after: &str) -> bool {
    let tag = |c: &char| ('\u{E0020}'..='\u{E007E}').contains(c);
    if run.is_empty() || !run.chars().all(|c| tag(&c) || c == TAG_CANCEL) {
        return false;
    }
    let base = before.chars().rev().find(|c| !tag(c));
    let end = run.chars().chain(after.chars()).find(|c| !tag(c));
    base.is_some_and(is_extended_pictographic) && end == Some(TAG_CANCEL)
}

/// The characters this rule is about: Default_Ignorable_Code_Point minus the bidi formatting
/// characters, plus the interlinear annotation characters U+FFF9–U+FFFB.
pub(super) fn is_invisible(c: char) -> bool {
    (is_default_ignorable(c) && !is_bidi_formatting(c)) || ('\u{FFF9}'..='\u{FFFB}').contains(&c)
}

/// [`is_invisible`] with most of the BMP rejected by one bit test first.
fn is_invisible_fast(c: char) -> bool {
    let u = c as u32;
    // Latin-1 (a long `é…` IRI) has one: U+00AD SOFT HYPHEN.
    if u < 0x100 {
        return u == 0xAD;
    }
    if u < 0x10000 && INVISIBLE_BLOCKS[(u >> 14) as usize] >> ((u >> 8) & 63) & 1 == 0 {
        return false;
    }
    is_invisible(c)
}

/// The 256-code-point blocks of the BMP that hold an invisible character (U+00AD, U+034F,
/// U+115F, U+17B4, U+180B, U+200B, U+3164, U+FE00, U+FFA0), and the bytes that start
/// one in UTF-8 (all past ASCII, and few). Written out, not computed at first use: a scan of
/// every code point cost each process about 50 million instructions, more than the rules spend
/// on a typical file. A test checks both lists against that scan.
const INVISIBLE_BLOCK_LIST: [u8; 9] = [0x00, 0x03, 0x11, 0x17, 0x18, 0x20, 0x31, 0xFE, 0xFF];
const INVISIBLE_LEAD_LIST: [u8; 8] = [0xC2, 0xCD, 0xE1, 0xE2, 0xE3, 0xEF, 0xF0, 0xF3];

/// One bit per 256-code-point block of the BMP: set when the block holds an invisible
/// character ([`INVISIBLE_BLOCK_LIST`]).
static INVISIBLE_BLOCKS: [u64; 4] = {
    let mut bits = [0u64; 4];
    let mut i = 0;
    while i < INVISIBLE_BLOCK_LIST.len() {
        let b = INVISIBLE_BLOCK_LIST[i] as usize;
        bits[b >> 6] |= 1 << (b & 63);
        i += 1;
    }
    bits
};

/// Whether a byte starts an invisible character in UTF-8 ([`INVISIBLE_LEAD_LIST`]).
static INVISIBLE_LEADS: [bool; 256] = {
    let mut leads = [false; 256];
    let mut i = 0;
    while i < INVISIBLE_LEAD_LIST.len() {
        leads[INVISIBLE_LEAD_LIST[i] as usize] = true;
        i += 1;
    }
    leads
};

fn check_invisible(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let text = input.text;
    // Only characters that start with the lead byte of an invisible one are looked at.
    let leads = &INVISIBLE_LEADS;
    let b = text.as_bytes();
    let mut at = 0;
    let mut invisible = std::iter::from_fn(|| {
        loop {
            let i = at + b.get(at..)?.iter().position(|&x| leads[usize::from(x)])?;
            let c = text[i..].chars().next()?;
            at = i + c.len_utf8();
            if is_invisible_fast(c) {
                return Some((i, c));
            }
        }
    });
    // The common path: no invisible character, no allocation.
    let Some(first) = invisible.next() else {
        return;
    };
    // The parts are in order, and so are the characters: a cursor, not a search for each.
    let mut parts = PartCursor::new(parts(text, input.iri));
    // The run being gathered, reported once the next character is not next to it: a
    // component of a million runs holds one at a time.
    let mut run: Option<(Range<usize>, Severity, Note)> = None;
    for (i, c) in std::iter::once(first).chain(invisible) {
        let end = i + c.len_utf8();
        // The component around it: context for the exceptions never crosses a delimiter. The
        // scheme, the port and IP literals are in no part: no exception applies there.
        let (context, host) = parts.at(i).map_or((i..end, false), |p| {
            (p.range.clone(), p.component == Component::Host)
        });
        let Some((severity, note)) =
            verdict(&text[context.start..i], c, &text[end..context.end], host)
        else {
            continue;
        };
        match &mut run {
            Some((r, s, n)) if r.end == i && *s == severity && *n == note => r.end = end,
            _ => {
                if let Some((range, severity, note)) = run.replace((i..end, severity, note)) {
                    report(input, sink, range, severity, note);
                }
            }
        }
    }
    if let Some((range, severity, note)) = run {
        report(input, sink, range, severity, note);
    }
}

/// Why a character is reported, when it is not simply an invisible character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Note {
    /// An invisible character with no context that excuses it (an error).
    Plain,
    /// A ZWNJ or ZWJ next to Arabic-script letters that changes nothing displayed (a warning).
    IdleJoiner,
    /// A ZWSP between letters of a script written without spaces (a warning).
    WordBreak,
}

/// Whether `c`, between `before` and `after` in its component, is reported, and how
/// (`percent-encoded-forbidden` asks the same of the characters it decodes).
pub(super) fn verdict(before: &str, c: char, after: &str, host: bool) -> Option<(Severity, Note)> {
    let prev = before.chars().next_back();
    let next = after.chars().next();
    let error = Some((Severity::Error, Note::Plain));
    match c {
        ZWNJ | ZWJ => {
            let left = joining_neighbour(before.chars().rev());
            let right = joining_neighbour(after.chars());
            let joins_left = matches!(left, Some(L | D));
            let joins_right = matches!(right, Some(R | D));
            // RFC 5892 Appendix A.1 and A.2 (ContextJ).
            if prev.is_some_and(is_virama) || (c == ZWNJ && joins_left && joins_right) {
                return None;
            }
            if host {
                return error;
            }
            if c == ZWJ {
                // Before a virama: keeps a consonant from becoming a reph
                // (Bengali `র\u{200D}্য`).
                if next.is_some_and(is_virama) && prev.is_some_and(char::is_alphabetic) {
                    return None;
                }
                if prev.is_some_and(is_emoji_zwj_left) && next.is_some_and(is_extended_pictographic)
                {
                    return None;
                }
                // Forces a joining form on the one side that has no partner (`ه\u{200D}`).
                if joins_left != joins_right {
                    return None;
                }
            }
            // After an Arabic-script letter, before another or at the end of a word: what a
            // Persian keyboard types, invisible here but not an attack pattern.
            if left.is_some() && (right.is_some() || !next.is_some_and(char::is_alphabetic)) {
                return Some((Severity::Warning, Note::IdleJoiner));
            }
            error
        }
        // Thai, Lao, Khmer and Myanmar text marks word boundaries with ZWSP.
        '\u{200B}'
            if !host && without_spaces(prev).is_some_and(|s| Some(s) == without_spaces(next)) =>
        {
            Some((Severity::Warning, Note::WordBreak))
        }
        // VS15, VS16: text or emoji presentation of an emoji, and the keycap sequences.
        '\u{FE0E}' | '\u{FE0F}' => match prev {
            Some(p) if is_extended_pictographic(p) => None,
            Some('#' | '*' | '0'..='9') if next == Some(KEYCAP) => None,
            _ => error,
        },
        // Mongolian free variation selectors choose a letter's glyph.
        '\u{180B}'..='\u{180D}' | '\u{180F}' if !host && prev.is_some_and(is_mongolian_letter) => {
            None
        }
        // The Mongolian vowel separator shapes a final A or E.
        '\u{180E}'
            if !host
                && prev.is_some_and(is_mongolian_letter)
                && matches!(next, Some('\u{1820}' | '\u{1821}')) =>
        {
            None
        }
        _ => error,
    }
}

/// The script of `c` when it is one written without spaces between words, where ZWSP marks
/// word boundaries (Unicode Standard §23.2).
fn without_spaces(c: Option<char>) -> Option<Script> {
    let s = script(c?);
    matches!(
        s,
        Script::Thai | Script::Lao | Script::Khmer | Script::Myanmar
    )
    .then_some(s)
}

fn report(
    input: &IriCheck<'_>,
    sink: &mut Sink<'_>,
    range: Range<usize>,
    severity: Severity,
    note: Note,
) {
    let text = input.text;
    let run = &text[range.clone()];
    let emoji_tags = in_emoji_tag_sequence(&text[..range.start], run, &text[range.end..]);
    if sink.joins(severity, range.start) {
        // Its place and its fix's edit join the first finding's; its words would be dropped.
        let edit = if emoji_tags {
            fix_fits(3 * run.len()).then(|| percent::encode(run))
        } else {
            Some(String::new())
        };
        sink.report_as(severity, range.clone(), String::new(), None);
        if let Some(edit) = edit {
            sink.attach_fix(IriFix::replace(Applicability::Unsafe, "", range, edit));
        }
        return;
    }
    let count = run.chars().count();
    let in_component = input.iri.component_at(range.start);
    let component = in_component.map_or("IRI", |c| c.name());
    let noun = if count == 1 {
        "invisible character".to_string()
    } else {
        format!("{count} invisible characters")
    };
    let mut message = format!("{noun} {} in the {component}", describe_chars(run));
    let all = |f: fn(char) -> bool| run.chars().all(f);
    let outside_ucschar = run.chars().any(|c| !is_ucschar(c));
    let help;
    if emoji_tags {
        message.push_str(
            ": an emoji tag sequence (a subdivision flag), but tag characters are not allowed in IRIs (RFC 3987 §2.2)",
        );
        help = format!(
            "to keep the flag, percent-encode the tag characters as `{}`; removing them leaves a plain flag and changes which resource the IRI names",
            shorten_encoded(run)
        );
    } else if all(|c| ('\u{E0000}'..=TAG_CANCEL).contains(&c)) {
        let spelled: String = run
            .chars()
            .filter_map(|c| {
                let a = c as u32 - 0xE0000;
                (0x20..0x7F).contains(&a).then_some(a as u8 as char)
            })
            .collect();
        if spelled.is_empty() {
            message.push_str(": tag characters are not allowed in IRIs (RFC 3987 §2.2)");
        } else {
            message.push_str(&format!(
                ": tag characters, which spell `{}` in hidden text and are not allowed in IRIs (RFC 3987 §2.2)",
                shorten_escaped(&spelled)
            ));
        }
        help = "remove them: tag characters display as nothing and are used to smuggle hidden text; this changes which resource the IRI names, so check which one was meant".to_string();
    } else if note == Note::WordBreak {
        message.push_str(
            ": a word-break hint of text written without spaces, but invisible in an IRI",
        );
        help = "remove it: the IRI looks the same without it but names a different resource; removing it changes which resource the IRI names, so check which one was meant".to_string();
    } else if all(|c| c == ZWNJ || c == ZWJ) {
        if note == Note::IdleJoiner {
            message.push_str(": next to these letters it changes no shape, so it is invisible");
        } else if in_component == Some(Component::Host) {
            message.push_str(
                ": IDNA2008 allows a joiner in a host name only after a virama, or a ZWNJ between letters it keeps from joining (RFC 5892 Appendix A)",
            );
        } else {
            message.push_str(
                ": a joiner is visible only after a virama, between letters it keeps from joining, or inside an emoji sequence",
            );
        }
        help = "remove it: the IRI looks the same without it but names a different resource; removing it changes which resource the IRI names, so check which one was meant".to_string();
    } else {
        if all(|c| matches!(c, '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}')) {
            message.push_str(": a Hangul filler, which displays as blank space or nothing");
        } else if all(|c| matches!(c, '\u{FE00}'..='\u{FE0F}')) {
            message.push_str(": a variation selector that does not belong to an emoji");
        } else if all(|c| matches!(c, '\u{E0100}'..='\u{E01EF}')) {
            message.push_str(
                ": an ideographic variation selector, which picks a glyph variant of the character before it",
            );
        }
        if outside_ucschar {
            message.push_str(if count == 1 {
                "; it is not allowed in IRIs (RFC 3987 §2.2)"
            } else {
                "; they are not allowed in IRIs (RFC 3987 §2.2)"
            });
            help = format!(
                "remove it: it displays as nothing, and removing it changes which resource the IRI names, so check which one was meant (if the name really contains it, percent-encode it as `{}`)",
                shorten_encoded(run)
            );
        } else {
            help = "remove it: it displays as nothing, so the IRI looks the same without it but names a different resource; removing it changes which resource the IRI names, so check which one was meant".to_string();
        }
    }
    let fix = if emoji_tags {
        // Keeps the flag (and the resource); still unsafe: the IRI's text changes. (Each
        // byte becomes three: a run too long to fix is not encoded at all.)
        fix_fits(3 * run.len()).then(|| {
            IriFix::replace(
                Applicability::Unsafe,
                "percent-encode the tag characters",
                range.clone(),
                percent::encode(run),
            )
        })
    } else {
        Some(IriFix::replace(
            Applicability::Unsafe,
            format!("remove {}", describe_chars(run)),
            range.clone(),
            "",
        ))
    };
    sink.report_as(severity, range, message, Some(help));
    if let Some(fix) = fix {
        sink.attach_fix(fix);
    }
}

/// Canonical_Combining_Class = Virama (9), the test of RFC 5892 Appendix A.1 and A.2.
fn is_virama(c: char) -> bool {
    canonical_combining_class(c) == 9
}

fn is_mongolian_letter(c: char) -> bool {
    matches!(c, '\u{1820}'..='\u{1878}' | '\u{1880}'..='\u{18AA}')
}

/// Joining_Type (ArabicShaping.txt, from ICU4X's data as `idna` uses it): D dual-joining, R
/// right-joining, L left-joining, C join-causing; `None` for T (transparent, see
/// [`is_transparent`]) and U (non-joining).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Jt {
    D,
    R,
    L,
    C,
}
use Jt::{C, D, L, R};

fn joining_type(c: char) -> Option<Jt> {
    match CodePointMapData::<JoiningType>::new().get(c) {
        JoiningType::DualJoining => Some(D),
        JoiningType::RightJoining => Some(R),
        JoiningType::LeftJoining => Some(L),
        JoiningType::JoinCausing => Some(C),
        _ => None,
    }
}

/// Joining_Type T (transparent), approximated: every character with a non-zero canonical
/// combining class, and the marks with class 0 inside the joining scripts' blocks. (The exact
/// property is General_Category Mn, Me or Cf unless listed in ArabicShaping.txt; the
/// approximation misses only class-0 marks of other scripts, which do not occur between
/// Arabic-script letters.)
fn is_transparent(c: char) -> bool {
    canonical_combining_class(c) != 0
        || matches!(
            c as u32,
            0x061C
                | 0x070F
                | 0x07A6..=0x07B0
                | 0x180B..=0x180D
                | 0x180F
                | 0x1885..=0x1886
                | 0x10EFC
                | 0x1E94B
        )
}

/// The joining type of the first non-transparent character of `chars`.
fn joining_neighbour(mut chars: impl Iterator<Item = char>) -> Option<Jt> {
    chars.find(|&c| !is_transparent(c)).and_then(joining_type)
}

/// Extended_Pictographic (UTS #51): emoji and the pictographs reserved for them.
pub(super) fn is_extended_pictographic(c: char) -> bool {
    CodePointSetData::new::<ExtendedPictographic>().contains(c)
}

/// What may precede the ZWJ of an emoji ZWJ sequence (UTS #51 §1.4.9): an emoji, its VS16, an
/// emoji modifier (skin tone) or the end of a tag sequence.
fn is_emoji_zwj_left(c: char) -> bool {
    is_extended_pictographic(c) || matches!(c, '\u{FE0F}' | '\u{1F3FB}'..='\u{1F3FF}' | TAG_CANCEL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_test_is_the_property() {
        for c in ('\0'..='\u{FFFF}').chain('\u{E0000}'..='\u{E0FFF}') {
            assert_eq!(is_invisible_fast(c), is_invisible(c), "{c:?}");
        }
    }

    /// The written-out tables are those a scan of every code point gives.
    #[test]
    fn the_tables_are_those_of_a_scan() {
        let mut leads = [false; 256];
        let mut blocks = [0u64; 4];
        for c in ('\0'..=char::MAX).filter(|&c| is_invisible(c)) {
            leads[usize::from(c.encode_utf8(&mut [0; 4]).as_bytes()[0])] = true;
            if let b @ 0..=0xFF = c as u32 >> 8 {
                blocks[(b >> 6) as usize] |= 1 << (b & 63);
            }
        }
        let lead_list: Vec<u8> = (0..=255).filter(|&b| leads[usize::from(b)]).collect();
        assert_eq!(lead_list, INVISIBLE_LEAD_LIST);
        assert_eq!(leads, INVISIBLE_LEADS);
        assert_eq!(blocks, INVISIBLE_BLOCKS);
    }

    #[test]
    fn lookups() {
        assert_eq!(joining_type('\u{0628}'), Some(D));
        assert_eq!(joining_type('\u{0627}'), Some(R));
        assert_eq!(joining_type('\u{06CC}'), Some(D));
        assert_eq!(joining_type('\u{A872}'), Some(L));
        assert_eq!(joining_type('\u{0640}'), Some(C));
        assert_eq!(joining_type('a'), None);
        assert!(is_transparent('\u{064E}'));
        assert!(is_extended_pictographic('\u{2764}'));
        assert!(is_extended_pictographic('\u{1F468}'));
        assert!(!is_extended_pictographic('a'));
        assert!(!is_extended_pictographic('\u{1F3FB}'));
    }

    #[test]
    fn the_block_filter_hides_nothing() {
        for c in '\0'..=char::MAX {
            assert_eq!(is_invisible_fast(c), is_invisible(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn the_character_set() {
        for c in [
            '\u{200B}',
            '\u{AD}',
            '\u{FEFF}',
            '\u{3164}',
            '\u{E0041}',
            '\u{FFF9}',
        ] {
            assert!(is_invisible(c), "{c:?}");
        }
        for c in [
            '\u{200E}', '\u{202E}', '\u{2066}', '\u{061C}', 'a', '\u{A0}',
        ] {
            assert!(!is_invisible(c), "{c:?}");
        }
    }
}
