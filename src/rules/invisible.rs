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
use std::sync::LazyLock;

use unicode_normalization::char::canonical_combining_class;
use unicode_script::{Script, UnicodeScript};

use super::{Check, IriCheck, Rule, Severity, Sink, describe_chars, parts, shorten};
use crate::iri::Component;
use crate::iri::chars::{escape_unsafe, is_bidi_formatting, is_default_ignorable, is_ucschar};
use crate::iri::percent;

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
    if u < 0xAD || (u < 0x10000 && INVISIBLE_BLOCKS[(u >> 14) as usize] >> ((u >> 8) & 63) & 1 == 0)
    {
        return false;
    }
    is_invisible(c)
}

/// One bit per 256-code-point block of the BMP: set when the block holds an invisible
/// character (U+00AD, U+034F, U+115F, U+17B4, U+180B, U+200B, U+3164, U+FE00, U+FFA0, ...).
static INVISIBLE_BLOCKS: LazyLock<[u64; 4]> = LazyLock::new(|| {
    let mut bits = [0u64; 4];
    for c in ('\0'..='\u{FFFF}').filter(|&c| is_invisible(c)) {
        let b = c as u32 >> 8;
        bits[(b >> 6) as usize] |= 1 << (b & 63);
    }
    bits
});

fn check_invisible(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let text = input.text;
    // The common path: no invisible character, no allocation.
    let Some(first) = text.char_indices().find(|&(_, c)| is_invisible_fast(c)) else {
        return;
    };
    let parts = parts(input.iri);
    let mut runs: Vec<(Range<usize>, Severity, Note)> = Vec::new();
    for (i, c) in text[first.0..].char_indices() {
        let i = first.0 + i;
        if !is_invisible_fast(c) {
            continue;
        }
        let end = i + c.len_utf8();
        // The component around it: context for the exceptions never crosses a delimiter. The
        // scheme, the port and IP literals are in no part: no exception applies there.
        let (context, host) = parts
            .iter()
            .find(|p| p.range.contains(&i))
            .map_or((i..end, false), |p| {
                (p.range.clone(), p.component == Component::Host)
            });
        let Some((severity, note)) =
            verdict(&text[context.start..i], c, &text[end..context.end], host)
        else {
            continue;
        };
        match runs.last_mut() {
            Some((r, s, n)) if r.end == i && *s == severity && *n == note => r.end = end,
            _ => runs.push((i..end, severity, note)),
        }
    }
    for (range, severity, note) in runs {
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
    let s = c?.script();
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
    let emoji_tags = in_emoji_tag_sequence(&text[..range.start], run, &text[range.end..]);
    let help;
    if emoji_tags {
        message.push_str(
            ": an emoji tag sequence (a subdivision flag), but tag characters are not allowed in IRIs (RFC 3987 §2.2)",
        );
        help = format!(
            "to keep the flag, percent-encode the tag characters as `{}`; removing them leaves a plain flag and changes which resource the IRI names",
            percent::encode(run)
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
                shorten(&escape_unsafe(&spelled))
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
                percent::encode(run)
            );
        } else {
            help = "remove it: it displays as nothing, so the IRI looks the same without it but names a different resource; removing it changes which resource the IRI names, so check which one was meant".to_string();
        }
    }
    sink.report_as(severity, range, message, Some(help));
}

/// Canonical_Combining_Class = Virama (9), the test of RFC 5892 Appendix A.1 and A.2.
fn is_virama(c: char) -> bool {
    canonical_combining_class(c) == 9
}

fn is_mongolian_letter(c: char) -> bool {
    matches!(c, '\u{1820}'..='\u{1878}' | '\u{1880}'..='\u{18AA}')
}

/// Joining_Type (ArabicShaping.txt): D dual-joining, R right-joining, L left-joining,
/// C join-causing. Characters not in [`JOINING_TYPES`] are T (transparent) or U (non-joining).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Jt {
    D,
    R,
    L,
    C,
}
use Jt::{C, D, L, R};

fn joining_type(c: char) -> Option<Jt> {
    let u = c as u32;
    super::range_index(JOINING_TYPES, u, |&(lo, hi, _)| (lo, hi)).map(|k| JOINING_TYPES[k].2)
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

/// Extended_Pictographic: emoji and the pictographs reserved for them.
pub(super) fn is_extended_pictographic(c: char) -> bool {
    let u = c as u32;
    super::range_index(EXTENDED_PICTOGRAPHIC, u, |&r| r).is_some()
}

/// What may precede the ZWJ of an emoji ZWJ sequence (UTS #51 §1.4.9): an emoji, its VS16, an
/// emoji modifier (skin tone) or the end of a tag sequence.
fn is_emoji_zwj_left(c: char) -> bool {
    is_extended_pictographic(c) || matches!(c, '\u{FE0F}' | '\u{1F3FB}'..='\u{1F3FF}' | TAG_CANCEL)
}

/// Extended_Pictographic (emoji-data.txt, Unicode 18.0, read from ICU4X `icu_properties_data`
/// 2.4): the characters emoji ZWJ sequences are made of.
#[rustfmt::skip]
static EXTENDED_PICTOGRAPHIC: &[(u32, u32)] = &[
    (0xA9, 0xA9), (0xAE, 0xAE), (0x203C, 0x203C), (0x2049, 0x2049), (0x2122, 0x2122),
    (0x2139, 0x2139), (0x2194, 0x2199), (0x21A9, 0x21AA), (0x231A, 0x231B), (0x2328, 0x2328),
    (0x23CF, 0x23CF), (0x23E9, 0x23F3), (0x23F8, 0x23FA), (0x24C2, 0x24C2), (0x25AA, 0x25AB),
    (0x25B6, 0x25B6), (0x25C0, 0x25C0), (0x25FB, 0x25FE), (0x2600, 0x2604), (0x260E, 0x260E),
    (0x2611, 0x2611), (0x2614, 0x2615), (0x2618, 0x2618), (0x261D, 0x261D), (0x2620, 0x2620),
    (0x2622, 0x2623), (0x2626, 0x2626), (0x262A, 0x262A), (0x262E, 0x262F), (0x2638, 0x263A),
    (0x2640, 0x2640), (0x2642, 0x2642), (0x2648, 0x2653), (0x265F, 0x2660), (0x2663, 0x2663),
    (0x2665, 0x2666), (0x2668, 0x2668), (0x267B, 0x267B), (0x267E, 0x267F), (0x2692, 0x2697),
    (0x2699, 0x2699), (0x269B, 0x269C), (0x26A0, 0x26A1), (0x26A7, 0x26A7), (0x26AA, 0x26AB),
    (0x26B0, 0x26B1), (0x26BD, 0x26BE), (0x26C4, 0x26C5), (0x26C8, 0x26C8), (0x26CE, 0x26CF),
    (0x26D1, 0x26D1), (0x26D3, 0x26D4), (0x26E9, 0x26EA), (0x26F0, 0x26F5), (0x26F7, 0x26FA),
    (0x26FD, 0x26FD), (0x2702, 0x2702), (0x2705, 0x2705), (0x2708, 0x270D), (0x270F, 0x270F),
    (0x2712, 0x2712), (0x2714, 0x2714), (0x2716, 0x2716), (0x271D, 0x271D), (0x2721, 0x2721),
    (0x2728, 0x2728), (0x2733, 0x2734), (0x2744, 0x2744), (0x2747, 0x2747), (0x274C, 0x274C),
    (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2763, 0x2764), (0x2795, 0x2797),
    (0x27A1, 0x27A1), (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2934, 0x2935), (0x2B05, 0x2B07),
    (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55), (0x3030, 0x3030), (0x303D, 0x303D),
    (0x3297, 0x3297), (0x3299, 0x3299), (0x1F004, 0x1F004), (0x1F02C, 0x1F02F), (0x1F094, 0x1F09F),
    (0x1F0AF, 0x1F0B0), (0x1F0C0, 0x1F0C0), (0x1F0CF, 0x1F0D0), (0x1F0F6, 0x1F0FF),
    (0x1F170, 0x1F171), (0x1F17E, 0x1F17F), (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A),
    (0x1F1AF, 0x1F1E5), (0x1F201, 0x1F20F), (0x1F21A, 0x1F21A), (0x1F22F, 0x1F22F),
    (0x1F232, 0x1F23A), (0x1F23C, 0x1F23F), (0x1F249, 0x1F25F), (0x1F266, 0x1F321),
    (0x1F324, 0x1F393), (0x1F396, 0x1F397), (0x1F399, 0x1F39B), (0x1F39E, 0x1F3F0),
    (0x1F3F3, 0x1F3F5), (0x1F3F7, 0x1F3FA), (0x1F400, 0x1F4FD), (0x1F4FF, 0x1F53D),
    (0x1F549, 0x1F54E), (0x1F550, 0x1F567), (0x1F56F, 0x1F570), (0x1F573, 0x1F57A),
    (0x1F587, 0x1F587), (0x1F58A, 0x1F58D), (0x1F590, 0x1F590), (0x1F595, 0x1F596),
    (0x1F5A4, 0x1F5A5), (0x1F5A8, 0x1F5A8), (0x1F5B1, 0x1F5B2), (0x1F5BC, 0x1F5BC),
    (0x1F5C2, 0x1F5C4), (0x1F5D1, 0x1F5D3), (0x1F5DC, 0x1F5DE), (0x1F5E1, 0x1F5E1),
    (0x1F5E3, 0x1F5E3), (0x1F5E8, 0x1F5E8), (0x1F5EF, 0x1F5EF), (0x1F5F3, 0x1F5F3),
    (0x1F5FA, 0x1F64F), (0x1F680, 0x1F6C5), (0x1F6CB, 0x1F6D2), (0x1F6D5, 0x1F6E5),
    (0x1F6E9, 0x1F6E9), (0x1F6EB, 0x1F6F0), (0x1F6F3, 0x1F6FF), (0x1F7DC, 0x1F7F0),
    (0x1F80C, 0x1F80F), (0x1F848, 0x1F84F), (0x1F85A, 0x1F85F), (0x1F888, 0x1F88F),
    (0x1F8AE, 0x1F8AF), (0x1F8BC, 0x1F8BF), (0x1F8C2, 0x1F8CF), (0x1F8D9, 0x1F8FF),
    (0x1F90C, 0x1F93A), (0x1F93C, 0x1F945), (0x1F947, 0x1F9FF), (0x1FA58, 0x1FA5F),
    (0x1FA6E, 0x1FAFF), (0x1FC00, 0x1FFFD),
];

/// Joining_Type D, R, L and C (ArabicShaping.txt, Unicode 18.0, read from ICU4X
/// `icu_properties_data` 2.4), sorted ranges. `tests/char_rules.rs` checks ContextJ built on
/// them against the `idna` crate's.
#[rustfmt::skip]
static JOINING_TYPES: &[(u32, u32, Jt)] = &[
    (0x620, 0x620, D), (0x622, 0x625, R), (0x626, 0x626, D), (0x627, 0x627, R), (0x628, 0x628, D),
    (0x629, 0x629, R), (0x62A, 0x62E, D), (0x62F, 0x632, R), (0x633, 0x63F, D), (0x640, 0x640, C),
    (0x641, 0x647, D), (0x648, 0x648, R), (0x649, 0x64A, D), (0x66E, 0x66F, D), (0x671, 0x673, R),
    (0x675, 0x677, R), (0x678, 0x687, D), (0x688, 0x699, R), (0x69A, 0x6BF, D), (0x6C0, 0x6C0, R),
    (0x6C1, 0x6C2, D), (0x6C3, 0x6CB, R), (0x6CC, 0x6CC, D), (0x6CD, 0x6CD, R), (0x6CE, 0x6CE, D),
    (0x6CF, 0x6CF, R), (0x6D0, 0x6D1, D), (0x6D2, 0x6D3, R), (0x6D5, 0x6D5, R), (0x6EE, 0x6EF, R),
    (0x6FA, 0x6FC, D), (0x6FF, 0x6FF, D), (0x710, 0x710, R), (0x712, 0x714, D), (0x715, 0x719, R),
    (0x71A, 0x71D, D), (0x71E, 0x71E, R), (0x71F, 0x727, D), (0x728, 0x728, R), (0x729, 0x729, D),
    (0x72A, 0x72A, R), (0x72B, 0x72B, D), (0x72C, 0x72C, R), (0x72D, 0x72E, D), (0x72F, 0x72F, R),
    (0x74D, 0x74D, R), (0x74E, 0x758, D), (0x759, 0x75B, R), (0x75C, 0x76A, D), (0x76B, 0x76C, R),
    (0x76D, 0x770, D), (0x771, 0x771, R), (0x772, 0x772, D), (0x773, 0x774, R), (0x775, 0x777, D),
    (0x778, 0x779, R), (0x77A, 0x77F, D), (0x7CA, 0x7EA, D), (0x7FA, 0x7FA, C), (0x840, 0x840, R),
    (0x841, 0x845, D), (0x846, 0x847, R), (0x848, 0x848, D), (0x849, 0x849, R), (0x84A, 0x853, D),
    (0x854, 0x854, R), (0x855, 0x855, D), (0x856, 0x858, R), (0x860, 0x860, D), (0x862, 0x865, D),
    (0x867, 0x867, R), (0x868, 0x868, D), (0x869, 0x86A, R), (0x870, 0x882, R), (0x883, 0x885, C),
    (0x886, 0x886, D), (0x889, 0x88D, D), (0x88E, 0x88E, R), (0x88F, 0x88F, D), (0x8A0, 0x8A9, D),
    (0x8AA, 0x8AC, R), (0x8AE, 0x8AE, R), (0x8AF, 0x8B0, D), (0x8B1, 0x8B2, R), (0x8B3, 0x8B8, D),
    (0x8B9, 0x8B9, R), (0x8BA, 0x8C8, D), (0x1807, 0x1807, D), (0x180A, 0x180A, C),
    (0x1820, 0x1878, D), (0x1887, 0x18A8, D), (0x18AA, 0x18AA, D), (0x200D, 0x200D, C),
    (0xA840, 0xA871, D), (0xA872, 0xA872, L), (0x10AC0, 0x10AC4, D), (0x10AC5, 0x10AC5, R),
    (0x10AC7, 0x10AC7, R), (0x10AC9, 0x10ACA, R), (0x10ACD, 0x10ACD, L), (0x10ACE, 0x10AD2, R),
    (0x10AD3, 0x10AD6, D), (0x10AD7, 0x10AD7, L), (0x10AD8, 0x10ADC, D), (0x10ADD, 0x10ADD, R),
    (0x10ADE, 0x10AE0, D), (0x10AE1, 0x10AE1, R), (0x10AE4, 0x10AE4, R), (0x10AEB, 0x10AEE, D),
    (0x10AEF, 0x10AEF, R), (0x10B80, 0x10B80, D), (0x10B81, 0x10B81, R), (0x10B82, 0x10B82, D),
    (0x10B83, 0x10B85, R), (0x10B86, 0x10B88, D), (0x10B89, 0x10B89, R), (0x10B8A, 0x10B8B, D),
    (0x10B8C, 0x10B8C, R), (0x10B8D, 0x10B8D, D), (0x10B8E, 0x10B8F, R), (0x10B90, 0x10B90, D),
    (0x10B91, 0x10B91, R), (0x10BA9, 0x10BAC, R), (0x10BAD, 0x10BAE, D), (0x10D00, 0x10D00, L),
    (0x10D01, 0x10D21, D), (0x10D22, 0x10D22, R), (0x10D23, 0x10D23, D), (0x10EC2, 0x10EC2, R),
    (0x10EC3, 0x10EC4, D), (0x10EC6, 0x10EC7, D), (0x10ED9, 0x10EEE, L), (0x10F30, 0x10F32, D),
    (0x10F33, 0x10F33, R), (0x10F34, 0x10F44, D), (0x10F51, 0x10F53, D), (0x10F54, 0x10F54, R),
    (0x10F70, 0x10F73, D), (0x10F74, 0x10F75, R), (0x10F76, 0x10F81, D), (0x10FB0, 0x10FB0, D),
    (0x10FB2, 0x10FB3, D), (0x10FB4, 0x10FB6, R), (0x10FB8, 0x10FB8, D), (0x10FB9, 0x10FBA, R),
    (0x10FBB, 0x10FBC, D), (0x10FBD, 0x10FBD, R), (0x10FBE, 0x10FBF, D), (0x10FC1, 0x10FC1, D),
    (0x10FC2, 0x10FC3, R), (0x10FC4, 0x10FC4, D), (0x10FC9, 0x10FC9, R), (0x10FCA, 0x10FCA, D),
    (0x10FCB, 0x10FCB, L), (0x1E900, 0x1E943, D),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted() {
        for w in EXTENDED_PICTOGRAPHIC.windows(2) {
            assert!(w[0].0 <= w[0].1 && w[0].1 < w[1].0, "{w:X?}");
        }
        for w in JOINING_TYPES.windows(2) {
            assert!(
                w[0].0 <= w[0].1 && w[0].1 < w[1].0,
                "{:X?}",
                (w[0].0, w[1].0)
            );
        }
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
