//! Percent-encodings: what their octets decode to (RFC 3987 §3.2, §8) and how they are spelled
//! (§5.3.2.1, §5.3.2.3).
//!
//! The octets are decoded strictly by [`crate::iri::percent`], and the three decoding rules split
//! its pieces between them, so one sequence is reported for one reason: octets that are not
//! UTF-8 go to `percent-non-utf8`, overlong, surrogate and too-large forms to
//! `percent-overlong-utf8`, characters to `percent-encoded-forbidden`. Malformed triplets
//! (`%zz`) are `syntax-bad-percent-encoding`'s. Every check returns at once on an IRI without `%`.

mod forbidden;
mod legacy;

use std::ops::Range;

use super::{Check, IriCheck, Rule, Severity, Sink, describe_chars};
use crate::iri::Component;
use crate::iri::chars::{
    self, describe, escape_unsafe, is_control, is_unreserved, is_unsafe_to_display,
};
use crate::iri::percent::{self, Decoded, Piece};
use crate::iri_fix::{Applicability, IriFix};

/// `percent-non-utf8`: octets that are not strictly legal UTF-8.
pub const NON_UTF8: Rule = Rule {
    id: "percent-non-utf8",
    group: "percent",
    severity: Severity::Warning,
    rfc: &["3.2", "1.2"],
    doc: include_str!("../../rules/percent-non-utf8.md"),
    unicode_only: false,
    check: Check::Iri(check_non_utf8),
};

/// `percent-overlong-utf8`: overlong forms, encoded surrogates, values above U+10FFFF.
pub const OVERLONG_UTF8: Rule = Rule {
    id: "percent-overlong-utf8",
    group: "percent",
    severity: Severity::Error,
    rfc: &["8"],
    doc: include_str!("../../rules/percent-overlong-utf8.md"),
    unicode_only: false,
    check: Check::Iri(check_overlong),
};

/// `percent-encoded-forbidden`: encoded bidi formatting, invisible and control characters.
pub const ENCODED_FORBIDDEN: Rule = Rule {
    id: "percent-encoded-forbidden",
    group: "percent",
    severity: Severity::Error,
    rfc: &["3.2", "4.1"],
    doc: include_str!("../../rules/percent-encoded-forbidden.md"),
    unicode_only: false,
    check: Check::Iri(forbidden::check_forbidden),
};

/// `percent-lowercase-hex`: `%3a` instead of `%3A`.
pub const LOWERCASE_HEX: Rule = Rule {
    id: "percent-lowercase-hex",
    group: "style",
    severity: Severity::Info,
    rfc: &["3.1", "5.3.2.1"],
    doc: include_str!("../../rules/percent-lowercase-hex.md"),
    unicode_only: false,
    check: Check::Iri(check_lowercase_hex),
};

/// `percent-encoded-unreserved`: `%7E`, `%41`: unreserved characters encoded.
pub const ENCODED_UNRESERVED: Rule = Rule {
    id: "percent-encoded-unreserved",
    group: "style",
    severity: Severity::Info,
    rfc: &["5.3.2.3"],
    doc: include_str!("../../rules/percent-encoded-unreserved.md"),
    unicode_only: false,
    check: Check::Iri(check_unreserved),
};

/// A run of triplets whose octets name characters of the IRI, decoded, with its stretches of
/// legacy text ([`legacy::stretches`]).
pub(super) struct DecodedRun {
    range: Range<usize>,
    pieces: Vec<Piece>,
    stretches: Vec<Range<usize>>,
}

impl DecodedRun {
    /// The run `range` of `text`, decoded.
    fn new(text: &str, range: Range<usize>) -> DecodedRun {
        let pieces = percent::decode(text, range.clone());
        let stretches = legacy::stretches(&pieces);
        DecodedRun {
            range,
            pieces,
            stretches,
        }
    }
}

/// The runs of triplets whose octets name characters of the IRI, decoded once for the rules
/// that read them: all runs except those in the payload of a `data:` IRI, whose octets are
/// whatever its media type says (an image, text in a declared charset) — binary there is not a
/// legacy encoding nor an attack.
///
/// Decoded one at a time as the iterator is advanced, from `from` on: an IRI of a million runs
/// never holds them all decoded (each rule that reads them decodes them again, in linear work).
fn decoding_runs<'a>(
    input: &'a IriCheck<'_>,
    from: usize,
) -> impl Iterator<Item = DecodedRun> + 'a {
    let payload = if input.has_percent() {
        data_payload(input)
    } else {
        None
    };
    percent::runs_from(input.text, from)
        .filter(move |r| !payload.as_ref().is_some_and(|p| p.contains(&r.start)))
        .flat_map(|run| chunks(input.text, run))
        .map(|range| DecodedRun::new(input.text, range))
}

/// The most triplets a [`DecodedRun`] holds: a longer run (a megabyte of `%E2%80%AE`) is decoded
/// a chunk at a time, so that its pieces (a few dozen bytes each) are never all held.
const MAX_RUN_TRIPLETS: usize = 4096;

/// `run` cut into chunks of about [`MAX_RUN_TRIPLETS`] triplets, each cut before a triplet that
/// starts a character (ASCII, or a lead octet other than `ED`, whose surrogates come in pairs),
/// so that every character decodes as in the whole run; a run with no such octet for 16
/// triplets (a flood of continuation octets, which are not UTF-8 anyway) is cut where it is.
fn chunks(text: &str, run: Range<usize>) -> impl Iterator<Item = Range<usize>> + '_ {
    let starts_char = |at: usize| {
        percent::triplet_at(text, at)
            .is_some_and(|b| b < 0x80 || ((0xC0..0xF8).contains(&b) && b != 0xED))
    };
    let mut start = run.start;
    std::iter::from_fn(move || {
        if start >= run.end {
            return None;
        }
        let mut end = (start + 3 * MAX_RUN_TRIPLETS).min(run.end);
        let limit = (end + 3 * 16).min(run.end);
        while end < limit && !starts_char(end) {
            end += 3;
        }
        let chunk = start..end;
        start = end;
        Some(chunk)
    })
}

/// From the first `,` of a `data:` IRI's path to its fragment (RFC 2397).
fn data_payload(input: &IriCheck<'_>) -> Option<Range<usize>> {
    let scheme = input.iri.scheme.clone()?;
    if !input.text[scheme].eq_ignore_ascii_case("data") {
        return None;
    }
    let path = input.iri.path.clone();
    let comma = path.start + input.text[path].find(',')?;
    let end = input
        .iri
        .fragment
        .as_ref()
        .map_or(input.text.len(), |f| f.start - 1);
    Some(comma..end)
}

/// The text of some triplets for a message, at most 12 triplets of it.
fn triplets(s: &str) -> String {
    if s.len() <= 36 {
        s.to_string()
    } else {
        format!("{}...", &s[..27])
    }
}

/// `s` in backticks, hidden characters escaped, at most 24 characters.
fn code(s: &str) -> String {
    let shown = if s.chars().count() <= 24 {
        escape_unsafe(s)
    } else {
        format!(
            "{}...",
            escape_unsafe(&s.chars().take(21).collect::<String>())
        )
    };
    if shown.contains('`') {
        format!("`` {shown} ``")
    } else {
        format!("`{shown}`")
    }
}

// percent-non-utf8

fn check_non_utf8(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    // ASCII octets are always UTF-8.
    if !input.encodes_octet(|b| b >= 0x80) {
        return;
    }
    for DecodedRun {
        range: run,
        pieces,
        stretches,
    } in decoding_runs(input, 0)
    {
        for stretch in stretches {
            let part = &pieces[stretch.clone()];
            // `%E2%8Z`: the octets before a malformed triplet were cut short by it, and
            // `syntax-bad-percent-encoding` reports that triplet.
            if let [piece] = part
                && stretch.end == pieces.len()
                && utf8_prefix_of(&piece.octets).is_some()
                && bad_percent_at(input, run.end)
            {
                continue;
            }
            let range = part[0].range.start..part[part.len() - 1].range.end;
            let octets: Vec<u8> = part.iter().flat_map(|p| p.octets.iter().copied()).collect();
            report_non_utf8(input, sink, range, &octets);
        }
    }
}

/// True when a malformed `%` starts at `at`: one the parser reports (`syntax-bad-percent-
/// encoding`), read from the text so that no list of issues is searched once per run.
fn bad_percent_at(input: &IriCheck<'_>, at: usize) -> bool {
    let b = input.text.as_bytes();
    let hex = |k: usize| b.get(k).is_some_and(u8::is_ascii_hexdigit);
    if b.get(at) != Some(&b'%') || (hex(at + 1) && hex(at + 2)) {
        return false;
    }
    // The components whose characters the parser checks one by one (a `%` in the scheme or the
    // port, or inside an IP literal, is reported as invalid instead).
    match input.iri.component_at(at) {
        Some(Component::Userinfo | Component::Path | Component::Query | Component::Fragment) => {
            true
        }
        Some(Component::Host) => input
            .iri
            .authority
            .as_ref()
            .is_some_and(|a| !input.text[a.host.range.clone()].starts_with('[')),
        _ => false,
    }
}

/// When `octets` are the start of a strictly legal UTF-8 sequence cut short, the length of the
/// whole sequence.
fn utf8_prefix_of(octets: &[u8]) -> Option<usize> {
    // The standard library's strict decoder calls such a sequence incomplete, not invalid.
    let cut_short =
        std::str::from_utf8(octets).is_err_and(|e| e.valid_up_to() == 0 && e.error_len().is_none());
    match octets.first()? {
        0xC2..=0xDF if cut_short => Some(2),
        0xE0..=0xEF if cut_short => Some(3),
        0xF0..=0xF4 if cut_short => Some(4),
        _ => None,
    }
}

/// The octets read as windows-1252, when each is a character there (0x81, 0x8D, 0x8F, 0x90 and
/// 0x9D are not). For 0xA0–0xFF this is also ISO-8859-1.
fn windows_1252(octets: &[u8]) -> Option<String> {
    let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(octets);
    (!text.chars().any(is_control)).then(|| text.into_owned())
}

/// Reports the legacy octets `octets` at `range` as `percent-non-utf8`, with what they would be.
fn report_non_utf8(input: &IriCheck<'_>, sink: &mut Sink<'_>, range: Range<usize>, octets: &[u8]) {
    let shown = triplets(&input.text[range.clone()]);
    let mut message = format!("`{shown}` is not UTF-8");
    let cut = utf8_prefix_of(octets).filter(|_| octets.len() > 1);
    if let Some(len) = cut {
        message.push_str(&format!(
            ": the start of a {len}-octet UTF-8 sequence, cut short"
        ));
    }
    let latin = windows_1252(octets);
    match &latin {
        Some(text) => message.push_str(&format!(
            "; in windows-1252 it would be {} ({})",
            code(text),
            describe_chars(text)
        )),
        None => message.push_str(", nor text in windows-1252"),
    }
    // A multi-byte legacy encoding that reads the octets as words is the better hint, unless
    // windows-1252 reads them as words too.
    let multibyte = legacy::reading(octets)
        .filter(|_| cut.is_none() && !latin.as_deref().is_some_and(legacy::is_text));
    if let Some((names, text)) = &multibyte {
        message.push_str(&format!("; in {names} it would read {}", code(text)));
    }
    let hint = multibyte.map(|(_, text)| text).or(latin);
    let help = match (&hint, cut) {
        (_, Some(_)) => {
            "write all the octets of the character that was cut short, or the character itself"
                .to_string()
        }
        (Some(text), None) => {
            let itself = if text.chars().any(is_unsafe_to_display) {
                ""
            } else if text.chars().count() == 1 {
                " or the character itself"
            } else {
                " or the characters themselves"
            };
            format!(
                "if {} was meant, write its UTF-8, `{}`{}{itself}; check first that the server expects UTF-8, as this changes which resource the IRI names",
                code(text),
                triplets(&percent::encode(text)),
                if itself.is_empty() { "" } else { "," }
            )
        }
        (None, None) => {
            "write the UTF-8 of the characters that were meant, or remove the octets".to_string()
        }
    };
    sink.report(range, message, Some(help));
}

// percent-overlong-utf8

fn check_overlong(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    // Overlong forms, surrogates and values above U+10FFFF all start with a lead octet.
    if !input.encodes_octet(|b| b >= 0xC0) {
        return;
    }
    for DecodedRun {
        pieces, stretches, ..
    } in decoding_runs(input, 0)
    {
        let mut k = 0;
        while k < pieces.len() {
            let piece = &pieces[k];
            // Inside legacy text (`%c5%cc%c1%b3` in EUC-JP) an "overlong" letter or digit is
            // an accident of the legacy octets, reported as `percent-non-utf8`; an overlong
            // delimiter, dot or control ends a stretch (see `legacy::stretches`), so it stays
            // an error wherever it is.
            if legacy::in_stretch(&stretches, k) {
                k += 1;
                continue;
            }
            let shown = triplets(&input.text[piece.range.clone()]);
            let finding = match piece.decoded {
                Decoded::Overlong(v) => Some(overlong(&shown, v)),
                Decoded::Surrogate(high @ 0xD800..=0xDBFF) => match pieces.get(k + 1) {
                    Some(Piece {
                        decoded: Decoded::Surrogate(low @ 0xDC00..=0xDFFF),
                        range,
                        ..
                    }) => {
                        k += 1;
                        let pair = piece.range.start..range.end;
                        let shown = triplets(&input.text[pair.clone()]);
                        let (message, help) = surrogate_pair(&shown, high, *low);
                        sink.report(pair, message, Some(help));
                        None
                    }
                    _ => Some(lone_surrogate(&shown, high)),
                },
                Decoded::Surrogate(v) => Some(lone_surrogate(&shown, v)),
                Decoded::TooLarge(v) => Some((
                    format!(
                        "`{shown}` encodes 0x{v:X}, above U+10FFFF, the last Unicode code point: no character has this value, and decoders disagree on what to make of it"
                    ),
                    "remove it, or write the UTF-8 of the character that was meant".to_string(),
                )),
                _ => None,
            };
            if let Some((message, help)) = finding {
                sink.report(piece.range.clone(), message, Some(help));
            }
            k += 1;
        }
    }
}

/// What an overlong form of `v` is and what to write instead.
fn overlong(shown: &str, v: u32) -> (String, String) {
    let Some(c) = char::from_u32(v) else {
        return lone_surrogate(shown, v);
    };
    let lenient = if is_unsafe_to_display(c) {
        describe(c)
    } else {
        code(&c.to_string())
    };
    let mut message = format!(
        "`{shown}` is an overlong UTF-8 form of {}, which UTF-8 forbids: a strict decoder rejects it, a lenient one reads it as {lenient}",
        describe(c)
    );
    message.push_str(match c {
        '/' | '\\' => ": a path traversal in disguise, past filters that look for the delimiter",
        '.' => ": a dot segment in disguise, past filters that look for `..`",
        '\0' => ": the NUL of Java's modified UTF-8, which cuts names short in C",
        _ => ": a way to slip a character past filters that look for its real encoding",
    });
    let utf8 = percent::encode(&c.to_string());
    let help = if c.is_ascii() && is_unreserved(c as u8) {
        format!("write `{c}`")
    } else if chars::is_ucschar(c) && !is_unsafe_to_display(c) {
        format!(
            "if {} was meant, write its UTF-8, `{utf8}`, or the character itself",
            describe(c)
        )
    } else {
        format!(
            "if {} was meant, write its one legal UTF-8 form, `{utf8}`",
            describe(c)
        )
    };
    (message, help)
}

fn lone_surrogate(shown: &str, v: u32) -> (String, String) {
    (
        format!(
            "`{shown}` encodes U+{v:04X}, a UTF-16 surrogate, which UTF-8 forbids: decoders turn it into U+FFFD, drop it or pass an unpaired surrogate on"
        ),
        "remove it, or write the UTF-8 of the character that was meant".to_string(),
    )
}

fn surrogate_pair(shown: &str, high: u32, low: u32) -> (String, String) {
    let u = 0x1_0000 + ((high - 0xD800) << 10) + (low - 0xDC00);
    // A high and a low surrogate always combine to a character of the supplementary planes.
    let c = char::from_u32(u).unwrap_or(char::REPLACEMENT_CHARACTER);
    let itself = if chars::is_ucschar(c) && !is_unsafe_to_display(c) {
        ", or the character itself"
    } else {
        ""
    };
    (
        format!(
            "`{shown}` encodes the UTF-16 surrogate pair of {} one surrogate at a time (CESU-8), which UTF-8 forbids",
            describe(c)
        ),
        format!(
            "write its UTF-8, `{}`{itself}",
            percent::encode(&c.to_string())
        ),
    )
}

// percent-lowercase-hex

fn check_lowercase_hex(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let text = input.text;
    if !input.has_percent() {
        return;
    }
    let lower = |at: usize| {
        text.as_bytes()[at + 1..at + 3]
            .iter()
            .any(u8::is_ascii_lowercase)
    };
    for run in percent::runs(text) {
        let Some(first) = run.clone().step_by(3).find(|&at| lower(at)) else {
            continue;
        };
        let last = (first..run.end)
            .step_by(3)
            .rfind(|&at| lower(at))
            .unwrap_or(first);
        let range = first..last + 3;
        let spelled = &text[range.clone()];
        sink.report(
            range.clone(),
            format!(
                "lowercase hex digits in `{}`: RFC 3987 §3.1 says to write them in uppercase, and §5.3.2.1 normalizes them to uppercase",
                triplets(spelled)
            ),
            Some(format!("write `{}`", triplets(&spelled.to_ascii_uppercase()))),
        );
        // Safe: hex case is not significant (§5.3.2.1); the range is a run of triplets.
        sink.attach_fix(IriFix::replace(
            Applicability::Safe,
            "write the hex digits in uppercase",
            range,
            spelled.to_ascii_uppercase(),
        ));
    }
}

// percent-encoded-unreserved

fn check_unreserved(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let text = input.text;
    if !input.has_percent() {
        return;
    }
    // The runs of encoded unreserved characters, each reported as soon as it ends: an IRI of
    // a million `a%7e` holds one run at a time, not a million.
    let mut current: Option<(Range<usize>, String)> = None;
    for run in percent::runs(text) {
        for at in run.step_by(3) {
            let Some(b) = percent::triplet_at(text, at).filter(|&b| is_unreserved(b)) else {
                continue;
            };
            if b == b'.' && in_dot_segment(input, at) {
                continue;
            }
            match &mut current {
                Some((r, s)) if r.end == at => {
                    r.end = at + 3;
                    s.push(char::from(b));
                }
                _ => {
                    if let Some((range, decoded)) = current.take() {
                        report_unreserved(text, sink, range, decoded);
                    }
                    current = Some((at..at + 3, char::from(b).to_string()));
                }
            }
        }
    }
    if let Some((range, decoded)) = current {
        report_unreserved(text, sink, range, decoded);
    }
}

/// Reports the run `range` of encoded unreserved characters, `decoded`.
fn report_unreserved(text: &str, sink: &mut Sink<'_>, range: Range<usize>, decoded: String) {
    let one = decoded.len() == 1;
    // A message quotes at most 60 characters of the run, however long it is.
    let shown = super::shorten_escaped(&decoded);
    // Safe: an unreserved character and its encoding are equivalent (§5.3.2.3) — unless a
    // stray `%` before it would take decoded hex digits for a triplet (`%%34%31` → `%41`).
    let fix =
        (!stray_percent_before(text, range.start) && super::fix_fits(decoded.len())).then(|| {
            IriFix::replace(
                Applicability::Safe,
                format!("decode to `{shown}`"),
                range.clone(),
                decoded,
            )
        });
    sink.report(
        range.clone(),
        format!(
            "`{}` {} `{shown}`, {}: RFC 3987 §5.3.2.3 normalizes {} by decoding",
            triplets(&text[range]),
            if one { "encodes" } else { "encode" },
            if one {
                "an unreserved character, which never needs percent-encoding"
            } else {
                "unreserved characters, which never need percent-encoding"
            },
            if one { "it" } else { "them" }
        ),
        Some(format!("write `{shown}`")),
    );
    if let Some(fix) = fix {
        sink.attach_fix(fix);
    }
}

/// True when the text before `at` ends with a `%` that starts no triplet, alone or with one hex
/// digit: decoded characters after it could complete one.
fn stray_percent_before(text: &str, at: usize) -> bool {
    let b = &text.as_bytes()[..at];
    b.ends_with(b"%")
        || (b.len() >= 2 && b[b.len() - 2] == b'%' && b[b.len() - 1].is_ascii_hexdigit())
}

/// True when the triplet at `at` is in a path segment that decodes to `.` or `..`: decoding it
/// would turn a name into a dot segment (`dot-segment` has its say on those in absolute IRIs).
fn in_dot_segment(input: &IriCheck<'_>, at: usize) -> bool {
    let path = input.iri.path.clone();
    if !path.contains(&at) {
        return false;
    }
    // A dot segment is at most `%2E%2E` long: its bounds are looked for no further than that
    // on either side of the triplet (a search over every segment for each triplet was
    // quadratic).
    const LONGEST: usize = 6;
    let b = input.text.as_bytes();
    let lo = path.start.max(at.saturating_sub(LONGEST));
    let start = match (lo..at).rev().find(|&k| b[k] == b'/') {
        Some(k) => k + 1,
        None if lo == path.start => path.start,
        None => return false,
    };
    let hi = path.end.min(at + LONGEST + 1);
    let end = match (at..hi).find(|&k| b[k] == b'/') {
        Some(k) => k,
        None if hi == path.end => path.end,
        None => return false,
    };
    super::style::dot_segment(&input.text[start..end]).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_prefixes() {
        assert_eq!(utf8_prefix_of(&[0xE4, 0xB8]), Some(3));
        assert_eq!(utf8_prefix_of(&[0xE2]), Some(3));
        assert_eq!(utf8_prefix_of(&[0xF0, 0x9F, 0x98]), Some(4));
        // Overlong and surrogate starts are no prefix of legal UTF-8.
        assert_eq!(utf8_prefix_of(&[0xE0, 0x80]), None);
        assert_eq!(utf8_prefix_of(&[0xED, 0xA0]), None);
        assert_eq!(utf8_prefix_of(&[0xFC]), None);
        assert_eq!(utf8_prefix_of(&[0x80]), None);
        assert_eq!(utf8_prefix_of(&[0xE4, 0xB8, 0xAD]), None);
    }

    #[test]
    fn windows_1252_hints() {
        assert_eq!(windows_1252(&[0xFC]).as_deref(), Some("ü"));
        assert_eq!(windows_1252(&[0x80, 0x92]).as_deref(), Some("€’"));
        assert_eq!(windows_1252(&[0x81]), None);
    }

    #[test]
    fn code_never_shows_hidden_characters() {
        assert_eq!(code("\u{A0}x"), "`⟨U+00A0⟩x`");
        assert_eq!(code("`"), "`` ` ``");
    }
}
