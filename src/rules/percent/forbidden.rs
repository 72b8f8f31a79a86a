//! `percent-encoded-forbidden`: percent-encoded characters that must not appear decoded (RFC 3987
//! §3.2 step 4, §4.1), judged with the exceptions of `invisible-character` in their decoded
//! context.

use std::ops::Range;

use crate::iri::props::script;
use unicode_script::Script;

use super::{DecodedRun, decoding_runs, triplets, windows_1252};
use crate::iri::Component;
use crate::iri::chars::{is_bidi_formatting, is_control};
use crate::iri::percent::{self, Decoded};
use crate::rules::invisible::{self, Note};
use crate::rules::{IriCheck, PartCursor, Severity, Sink, describe_chars, parts};

/// Why a decoded character is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Forbidden {
    Bidi,
    Invisible(Note),
    Control,
}

/// One character of a component with percent-encodings decoded: the character and the source
/// range it came from (its triplets when `encoded`).
struct DecodedChar {
    c: char,
    range: Range<usize>,
    encoded: bool,
}

/// The component `context` of the IRI with the characters of `runs` decoded, one at a time;
/// octets that are not a character stand as U+FFFD, which joins nothing and is no emoji.
fn decode_context<'a>(
    text: &'a str,
    context: Range<usize>,
    runs: impl Iterator<Item = DecodedRun> + 'a,
) -> impl Iterator<Item = DecodedChar> + 'a {
    let (mut at, end) = (context.start, context.end);
    let mut runs = runs
        .filter(move |r| context.contains(&r.range.start))
        .peekable();
    let mut pieces = Vec::new().into_iter();
    std::iter::from_fn(move || {
        loop {
            if let Some(piece) = pieces.next() {
                let piece: percent::Piece = piece;
                let c = match piece.decoded {
                    Decoded::Char(c) => c,
                    _ => char::REPLACEMENT_CHARACTER,
                };
                return Some(DecodedChar {
                    c,
                    range: piece.range,
                    encoded: true,
                });
            }
            let until = runs.peek().map_or(end, |r| r.range.start);
            if at < until {
                let c = text[at..].chars().next()?;
                let range = at..at + c.len_utf8();
                at = range.end;
                return Some(DecodedChar {
                    c,
                    range,
                    encoded: false,
                });
            }
            let run = runs.next()?;
            at = run.range.end;
            pieces = run.pieces.into_iter();
        }
    })
}

/// How many decoded characters on each side of a suspect character its judgment sees: more
/// than any exception looks at (an emoji tag sequence has at most a few dozen tags, a joiner's
/// neighbour a few combining marks), and a bound on the work per character.
const CONTEXT_CHARS: usize = 64;

/// How many decoded characters are judged at once: a component is decoded into windows of this
/// many and [`CONTEXT_CHARS`] on each side, never whole (a megabyte component held 32 bytes
/// per character).
const BLOCK_CHARS: usize = 4096;

/// Judges each encoded suspect character of the decoded component `chars`, calling `hit` for
/// those reported, in order.
fn judge_component(
    chars: impl Iterator<Item = DecodedChar>,
    component: Option<Component>,
    mut hit: impl FnMut(&DecodedChar, Severity, Forbidden),
) {
    let mut window: Vec<DecodedChar> = Vec::new();
    // The first character of `window` not yet judged.
    let mut from = 0;
    for d in chars {
        window.push(d);
        if window.len() >= from + BLOCK_CHARS + CONTEXT_CHARS {
            let upto = window.len() - CONTEXT_CHARS;
            judge_block(&window, from..upto, component, &mut hit);
            let keep = upto - CONTEXT_CHARS;
            window.drain(..keep);
            from = upto - keep;
        }
    }
    judge_block(&window, from..window.len(), component, &mut hit);
}

/// Judges the characters `block` of `window`, each between the [`CONTEXT_CHARS`] characters on
/// either side of it.
fn judge_block(
    window: &[DecodedChar],
    block: Range<usize>,
    component: Option<Component>,
    hit: &mut impl FnMut(&DecodedChar, Severity, Forbidden),
) {
    if !window[block.clone()]
        .iter()
        .any(|d| d.encoded && suspect(d.c))
    {
        return;
    }
    let string: String = window.iter().map(|d| d.c).collect();
    // The offset in `string` of each character, and of the end.
    let mut offsets = Vec::with_capacity(window.len() + 1);
    let mut offset = 0;
    for d in window {
        offsets.push(offset);
        offset += d.c.len_utf8();
    }
    offsets.push(offset);
    for i in block {
        let d = &window[i];
        if !(d.encoded && suspect(d.c)) {
            continue;
        }
        let before = &string[offsets[i.saturating_sub(CONTEXT_CHARS)]..offsets[i]];
        let after = &string[offsets[i + 1]..offsets[(i + 1 + CONTEXT_CHARS).min(window.len())]];
        if let Some((severity, why)) = judge(before, d.c, after, component) {
            hit(d, severity, why);
        }
    }
}

/// A stretch of adjacent encoded characters reported for the same reason.
type Hit = (Range<usize>, String, Severity, Forbidden);

/// A character worth a closer look: what the rule is about, before exceptions.
fn suspect(c: char) -> bool {
    is_control(c) || is_bidi_formatting(c) || invisible::is_invisible(c)
}

pub(super) fn check_forbidden(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let text = input.text;
    // Controls are below 0x20 or 0x7F; everything else forbidden is non-ASCII.
    if !input.encodes_octet(|b| !(0x20..0x7F).contains(&b)) {
        return;
    }
    // Runs with a suspect character, found as they are decoded (never gathered).
    let suspects = decoding_runs(input, 0)
        .filter(|r| {
            r.pieces
                .iter()
                .any(|p| matches!(p.decoded, Decoded::Char(c) if suspect(c)))
        })
        .map(|r| r.range);
    // The runs come in order: a cursor over the parts, not a search for each.
    let mut parts = PartCursor::new(parts(text, input.iri));
    // The stretch being gathered: reported once the next hit is not next to it.
    let mut current: Option<Hit> = None;
    let mut done = 0;
    for run in suspects {
        if run.start < done {
            continue;
        }
        // The exceptions look at neighbours in the same component, decoded: `to-uri` encodes a
        // whole emoji ZWJ sequence, not only its joiners.
        let (context, component) = parts
            .at(run.start)
            .map_or((run.clone(), input.iri.component_at(run.start)), |p| {
                (p.range.clone(), Some(p.component))
            });
        done = context.end;
        let end = context.end;
        let runs = decoding_runs(input, context.start).take_while(move |r| r.range.start < end);
        judge_component(
            decode_context(text, context, runs),
            component,
            |d, severity, why| match &mut current {
                Some((r, s, sev, w)) if r.end == d.range.start && *sev == severity && *w == why => {
                    r.end = d.range.end;
                    s.push(d.c);
                }
                _ => {
                    let next = (d.range.clone(), d.c.to_string(), severity, why);
                    if let Some(hit) = current.replace(next) {
                        report_hit(input, sink, hit);
                    }
                }
            },
        );
    }
    if let Some(hit) = current {
        report_hit(input, sink, hit);
    }
}

fn report_hit(input: &IriCheck<'_>, sink: &mut Sink<'_>, (range, decoded, severity, why): Hit) {
    let (message, help) = forbidden_message(input, &range, &decoded, why);
    sink.report_as(severity, range, message, Some(help));
}

/// Whether the decoded `c`, between `before` and `after` in its component, is reported.
fn judge(
    before: &str,
    c: char,
    after: &str,
    component: Option<Component>,
) -> Option<(Severity, Forbidden)> {
    if is_bidi_formatting(c) {
        return Some((Severity::Error, Forbidden::Bidi));
    }
    if is_control(c) {
        if c > '\u{1F}' {
            return Some((Severity::Error, Forbidden::Control));
        }
        // Line breaks and tabs are text in a query (a form's text area, a `mailto:` body) and in
        // a fragment; anywhere else, and any other C0 control anywhere, they are suspect.
        let text_like = matches!(component, Some(Component::Query | Component::Fragment));
        if text_like && matches!(c, '\t' | '\n' | '\r') {
            return None;
        }
        return Some((Severity::Warning, Forbidden::Control));
    }
    let mut buf = [0; 4];
    if invisible::in_emoji_tag_sequence(before, c.encode_utf8(&mut buf), after)
        || is_ideographic_variation(before, c)
    {
        return None;
    }
    let host = component == Some(Component::Host);
    invisible::verdict(before, c, after, host).map(|(s, note)| (s, Forbidden::Invisible(note)))
}

/// An ideographic variation selector after a Han character (a registered glyph variant, `葛` +
/// U+E0100 in Japanese place names): `invisible-character` tells people to percent-encode it.
fn is_ideographic_variation(before: &str, c: char) -> bool {
    ('\u{E0100}'..='\u{E01EF}').contains(&c)
        && before
            .chars()
            .next_back()
            .is_some_and(|p| script(p) == Script::Han)
}

fn forbidden_message(
    input: &IriCheck<'_>,
    range: &Range<usize>,
    decoded: &str,
    why: Forbidden,
) -> (String, String) {
    let shown = triplets(&input.text[range.clone()]);
    let component = input
        .iri
        .component_at(range.start)
        .map_or("IRI", |c| c.name());
    let one = decoded.chars().count() == 1;
    let (verb, a) = if one {
        ("decodes", "a ")
    } else {
        ("decode", "")
    };
    let s = if one { "" } else { "s" };
    let names = describe_chars(decoded);
    let head = format!("`{shown}` in the {component} {verb} to {names}");
    let changes = "removing it changes which resource the IRI names, so check which one was meant";
    match why {
        Forbidden::Bidi => (
            format!(
                "{head}, {a}bidi formatting character{s}: RFC 3987 §4.1 forbids these in IRIs (§3.2 step 4 keeps them encoded), and wherever the IRI is shown decoded they reorder the text around them"
            ),
            format!("remove it: a name has no use for a bidi control; {changes}"),
        ),
        Forbidden::Invisible(note) => {
            let what = match note {
                Note::IdleJoiner => format!(
                    "{a}joiner{s} that change{} no shape next to these letters",
                    if one { "s" } else { "" }
                ),
                Note::WordBreak => {
                    format!("{a}word-break hint{s} of text written without spaces")
                }
                Note::Plain if one => "an invisible character".to_string(),
                Note::Plain => "invisible characters".to_string(),
            };
            (
                format!(
                    "{head}, {what}: wherever the IRI is shown decoded it looks the same without {}",
                    if one { "it" } else { "them" }
                ),
                format!("remove it; {changes}"),
            )
        }
        Forbidden::Control => {
            let mut message = format!("{head}, {a}control character{s}");
            if decoded.contains('\0') {
                message.push_str(
                    ": a NUL cuts the name short in software written in C (null-byte injection)",
                );
            } else if decoded.contains(['\r', '\n']) {
                message.push_str(": a line break in a request line or header splits it (HTTP response splitting, log injection)");
            } else if decoded.contains('\u{1B}') {
                message.push_str(
                    ": ESC starts a terminal escape sequence wherever the IRI is logged decoded",
                );
            }
            // C1 controls in UTF-8 are what windows-1252 text read as ISO-8859-1 becomes.
            let c1: Option<Vec<u8>> = decoded
                .chars()
                .map(|c| ('\u{80}'..='\u{9F}').contains(&c).then_some(c as u8))
                .collect();
            let help = match c1.as_deref().and_then(windows_1252) {
                Some(text) => format!(
                    "if this came from windows-1252 text read as ISO-8859-1, {} was meant: write `{}`; otherwise remove it",
                    describe_chars(&text),
                    triplets(&percent::encode(&text))
                ),
                _ => format!("remove it; {changes}"),
            };
            (message, help)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: Option<Component> = Some(Component::Path);
    const QUERY: Option<Component> = Some(Component::Query);

    #[test]
    fn c0_line_breaks_and_tabs_are_text_only_in_query_and_fragment() {
        for c in ['\t', '\n', '\r'] {
            assert_eq!(judge("a", c, "b", QUERY), None);
            assert_eq!(judge("a", c, "b", Some(Component::Fragment)), None);
            assert_eq!(
                judge("a", c, "b", PATH),
                Some((Severity::Warning, Forbidden::Control))
            );
        }
        assert_eq!(
            judge("a", '\0', "", QUERY),
            Some((Severity::Warning, Forbidden::Control))
        );
        assert_eq!(
            judge("a", '\u{7F}', "", QUERY),
            Some((Severity::Error, Forbidden::Control))
        );
        assert_eq!(
            judge("a", '\u{85}', "", QUERY),
            Some((Severity::Error, Forbidden::Control))
        );
    }

    #[test]
    fn context_decides_for_joiners_and_selectors() {
        assert_eq!(judge("\u{1F468}", '\u{200D}', "\u{1F469}", PATH), None);
        assert_eq!(
            judge("\u{1F468}", '\u{200D}', "\u{1F469}", Some(Component::Host)),
            Some((Severity::Error, Forbidden::Invisible(Note::Plain)))
        );
        assert_eq!(judge("\u{2764}", '\u{FE0F}', "", PATH), None);
        assert_eq!(
            judge("a", '\u{FE0F}', "", PATH),
            Some((Severity::Error, Forbidden::Invisible(Note::Plain)))
        );
        assert_eq!(
            judge("a", '\u{202E}', "", QUERY),
            Some((Severity::Error, Forbidden::Bidi))
        );
    }

    #[test]
    fn emoji_tag_sequences_and_ideographic_variations() {
        use crate::rules::invisible::{TAG_CANCEL, in_emoji_tag_sequence};
        let flag = "\u{1F3F4}\u{E0067}\u{E0062}";
        assert!(in_emoji_tag_sequence(
            flag,
            "\u{E0065}",
            "\u{E006E}\u{E0067}\u{E007F}"
        ));
        assert!(in_emoji_tag_sequence(flag, &TAG_CANCEL.to_string(), ""));
        assert!(!in_emoji_tag_sequence(flag, "\u{E0065}", "x"));
        assert!(!in_emoji_tag_sequence(
            "a\u{E0067}",
            "\u{E0065}",
            "\u{E007F}"
        ));
        assert!(!in_emoji_tag_sequence("\u{1F3F4}", "a", "\u{E007F}"));
        assert!(is_ideographic_variation("\u{845B}", '\u{E0100}'));
        assert!(!is_ideographic_variation("a", '\u{E0100}'));
        assert!(!is_ideographic_variation("\u{845B}", '\u{FE00}'));
    }

    #[test]
    fn decoding_keeps_the_source_ranges() {
        let text = "/a%E2%80%8Db%FF";
        let runs: Vec<DecodedRun> = percent::runs(text)
            .map(|r| DecodedRun::new(text, r))
            .collect();
        let got: Vec<(char, &str, bool)> = decode_context(text, 1..text.len(), runs.into_iter())
            .map(|d| (d.c, &text[d.range], d.encoded))
            .collect();
        assert_eq!(
            got,
            [
                ('a', "a", false),
                ('\u{200D}', "%E2%80%8D", true),
                ('b', "b", false),
                (char::REPLACEMENT_CHARACTER, "%FF", true),
            ]
        );
    }
}
