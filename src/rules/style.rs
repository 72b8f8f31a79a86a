//! Style: the spellings the syntax-based normalization of RFC 3987 §5.3.2 would change, for the
//! scheme, the host and the path (the percent-encoding ones are in `percent.rs`). Off by default.

use std::ops::Range;

use super::{Check, IriCheck, Rule, Severity, Sink, shorten_escaped};
use crate::iri::chars::escape_unsafe;
use crate::iri::compare::remove_dot_segments;
use crate::iri::{HostKind, Kind, percent};
use crate::iri_fix::{Applicability, IriFix};

/// `case-scheme-host`: uppercase letters in the scheme or an ASCII host.
pub const CASE_SCHEME_HOST: Rule = Rule {
    id: "case-scheme-host",
    group: "style",
    severity: Severity::Info,
    rfc: &["5.3.2.1"],
    doc: include_str!("../../rules/case-scheme-host.md"),
    unicode_only: false,
    check: Check::Iri(check_case),
};

/// `dot-segment`: `.` or `..` segments in an absolute IRI's path.
pub const DOT_SEGMENT: Rule = Rule {
    id: "dot-segment",
    group: "style",
    severity: Severity::Info,
    rfc: &["5.3.2.4"],
    doc: include_str!("../../rules/dot-segment.md"),
    unicode_only: false,
    check: Check::Iri(check_dot_segments),
};

// case-scheme-host

fn check_case(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let text = input.text;
    if let Some(scheme) = input.iri.scheme.clone()
        && let Some(range) = uppercase_span(text, scheme.clone())
    {
        sink.report(
            range.clone(),
            format!(
                "uppercase letters in the scheme `{}`: schemes are case-insensitive, and RFC 3987 §5.3.2.1 normalizes them to lowercase",
                escape_unsafe(&text[scheme.clone()])
            ),
            Some(format!(
                "write `{}`",
                escape_unsafe(&text[scheme].to_ascii_lowercase())
            )),
        );
        // Safe: a scheme is case-insensitive (§5.3.2.1).
        sink.attach_fix(IriFix::replace(
            Applicability::Safe,
            "write the scheme in lowercase",
            range.clone(),
            text[range].to_ascii_lowercase(),
        ));
    }
    let Some(host) = input.iri.authority.as_ref().map(|a| &a.host) else {
        return;
    };
    let name = &text[host.range.clone()];
    let Some(span) = uppercase_span(text, host.range.clone()) else {
        return;
    };
    // Only a US-ASCII host is case-insensitive as written (§5.3.2.1); a non-ASCII one, or one
    // with non-ASCII percent-encoded, is an IDN, folded by its own mapping (§5.3.3). An
    // IPvFuture's syntax is its own, and a malformed IP literal is `syntax-invalid`'s.
    let ascii = name.is_ascii() && !percent::encodes_octet(name, |b| !b.is_ascii());
    if !ascii || name.starts_with('[') && host.kind != Some(HostKind::Ipv6) {
        return;
    }
    let mut lowered = text[span.clone()].to_owned();
    percent::lowercase_outside_triplets(&mut lowered);
    // Safe: an ASCII host is case-insensitive (§5.3.2.1); percent-encoded octets keep their case.
    let fix = IriFix::replace(
        Applicability::Safe,
        "write the host in lowercase",
        span.clone(),
        lowered,
    );
    sink.report(
        span,
        format!(
            "uppercase letters in the host `{}`: an ASCII host is case-insensitive, and RFC 3987 §5.3.2.1 normalizes it to lowercase",
            escape_unsafe(name)
        ),
        Some(format!(
            "write `{}`",
            escape_unsafe(&{
                let mut lower = name.to_owned();
                percent::lowercase_outside_triplets(&mut lower);
                lower
            })
        )),
    );
    sink.attach_fix(fix);
}

/// From the first to the last uppercase letter of `range`, leaving out the hex digits of
/// triplets (uppercase is their preferred spelling).
fn uppercase_span(text: &str, range: Range<usize>) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let mut first = None;
    let mut last = 0;
    let mut i = range.start;
    while i < range.end {
        if percent::triplet_at(text, i).is_some() {
            i += 3;
            continue;
        }
        if b[i].is_ascii_uppercase() {
            first.get_or_insert(i);
            last = i + 1;
        }
        i += 1;
    }
    first.map(|f| f..last)
}

// dot-segment

/// Whether a path segment is a dot segment: 1 for `.`, 2 for `..`, with `%2E` counted as a dot
/// the way RFC 3986 §6.2.2.2 decodes it and browsers (the WHATWG URL Standard) resolve it.
pub(super) fn dot_segment(segment: &str) -> Option<usize> {
    let mut dots = 0;
    let mut rest = segment;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            rest = r;
        } else if rest
            .as_bytes()
            .get(..3)
            .is_some_and(|t| t.eq_ignore_ascii_case(b"%2E"))
        {
            rest = &rest[3..];
        } else {
            return None;
        }
        dots += 1;
    }
    matches!(dots, 1 | 2).then_some(dots)
}

fn check_dot_segments(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let iri = input.iri;
    let text = input.text;
    let path = &text[iri.path.clone()];
    // Relative references are where dot segments belong. A rootless path (`urn:`, `data:`,
    // `javascript:`) is scheme-specific data that browsers never resolve dot segments in.
    if iri.kind != Kind::Iri || !path.starts_with('/') || !path.contains(['.', '%']) {
        return;
    }
    // The dot segments, found again on each pass rather than held.
    let dots = || {
        iri.segments(text)
            .filter_map(|s| dot_segment(&text[s.clone()]).map(|n| (s, n)))
    };
    if dots().next().is_none() {
        return;
    }
    // The path with encoded dot segments spelled with dots, then resolved.
    let mut spelled = String::with_capacity(path.len());
    let mut at = iri.path.start;
    for (s, n) in dots() {
        spelled.push_str(&text[at..s.start]);
        spelled.push_str(&"..."[..n]);
        at = s.end;
    }
    spelled.push_str(&text[at..iri.path.end]);
    let resolved_path = remove_dot_segments(&spelled);
    drop(spelled);
    // Quoted at most 60 characters long: the help is written once per run of dot segments.
    let resolved = shorten_escaped(&resolved_path);
    let path_fix = whole_path_fix(text, iri.path.clone(), &resolved_path);
    drop(resolved_path);
    // Adjacent dot segments make one run.
    let mut dots = dots().map(|(s, _)| s).peekable();
    let runs = std::iter::from_fn(|| {
        let mut run = dots.next()?;
        while let Some(next) = dots.next_if(|s| run.end + 1 == s.start) {
            run.end = next.end;
        }
        Some(run)
    });
    for (k, range) in runs.enumerate() {
        let written = &text[range.clone()];
        let mut message = format!(
            "dot segment{} `{written}` in the path of an absolute IRI: dot segments are for relative references, and RFC 3987 §5.3.2.4 removes them",
            if written.contains('/') { "s" } else { "" }
        );
        if written.contains('%') {
            message.push_str(
                "; `%2E` is a percent-encoded dot, which browsers resolve like `.` and servers may not (a path traversal in disguise)",
            );
        }
        // The first finding of the path carries the fix of the whole path, and underlines
        // what it rewrites (`b/../` of `/a/b/../c`): a fix never edits outside its span.
        let fix = path_fix.clone().filter(|_| k == 0);
        let range = match &fix {
            Some(f) => {
                let r = &f.edits[0].range;
                range.start.min(r.start)..range.end.max(r.end)
            }
            None => range,
        };
        sink.report(
            range,
            message,
            Some(format!(
                "write the path as `{resolved}` (remove_dot_segments, RFC 3986 §5.2.4)"
            )),
        );
        if let Some(fix) = fix {
            sink.attach_fix(fix);
        }
    }
}

/// The edit that turns the path at `path` into `resolved`, trimmed to the part that changes.
/// Safe when every dot is written as a dot (§5.3.2.4 removes them); unsafe when one is `%2E`,
/// which a server may not resolve: removing it then changes what the server is asked for.
fn whole_path_fix(text: &str, path: Range<usize>, resolved: &str) -> Option<IriFix> {
    let written = &text[path.clone()];
    let prefix: usize = written
        .chars()
        .zip(resolved.chars())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let suffix: usize = written[prefix..]
        .chars()
        .rev()
        .zip(resolved[prefix..].chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let region = path.start + prefix..path.end - suffix;
    let applicability = if text[region.clone()].contains('%') {
        Applicability::Unsafe
    } else {
        Applicability::Safe
    };
    Some(IriFix::replace(
        applicability,
        format!("remove the dot segments: `{}`", escape_unsafe(resolved)),
        region,
        &resolved[prefix..resolved.len() - suffix],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_with_encoded_dots() {
        assert_eq!(dot_segment("."), Some(1));
        assert_eq!(dot_segment(".."), Some(2));
        assert_eq!(dot_segment("%2e"), Some(1));
        assert_eq!(dot_segment("%2E%2e"), Some(2));
        assert_eq!(dot_segment(".%2E"), Some(2));
        assert_eq!(dot_segment("..."), None);
        assert_eq!(dot_segment(""), None);
        assert_eq!(dot_segment(".a"), None);
        assert_eq!(dot_segment("%2F"), None);
    }
}
