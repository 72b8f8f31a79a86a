//! Rules on the RFC 3987 §2.2 grammar, reported from the parser's issues.

use super::{Check, IriCheck, Rule, Severity, Sink, describe_chars, fix_fits, shorten_encoded};
use crate::iri::percent;
use crate::iri::{Component, Issue, IssueKind, chars};
use crate::iri_fix::{Applicability, IriFix};
use std::ops::{ControlFlow, Range};

/// `syntax-invalid`: the text is not an IRI-reference.
pub const SYNTAX_INVALID: Rule = Rule {
    id: "syntax-invalid",
    group: "syntax",
    severity: Severity::Error,
    rfc: &["2.2"],
    doc: include_str!("../../rules/syntax-invalid.md"),
    unicode_only: false,
    check: Check::Iri(check_invalid),
};

/// `syntax-bad-percent-encoding`: `%` not followed by two hex digits.
pub const BAD_PERCENT_ENCODING: Rule = Rule {
    id: "syntax-bad-percent-encoding",
    group: "syntax",
    severity: Severity::Error,
    rfc: &["2.2"],
    doc: include_str!("../../rules/syntax-bad-percent-encoding.md"),
    unicode_only: false,
    check: Check::Iri(check_bad_percent),
};

/// `syntax-unwise-ascii`: space and `< > " { } | \ ^ ``, and the delimiters browsers keep as data
/// (`[` `]` outside the host, a second `#`).
pub const UNWISE_ASCII: Rule = Rule {
    id: "syntax-unwise-ascii",
    group: "syntax",
    severity: Severity::Warning,
    rfc: &["2.2", "3.1"],
    doc: include_str!("../../rules/syntax-unwise-ascii.md"),
    unicode_only: false,
    check: Check::Iri(check_unwise),
};

/// `syntax-private-use`: private-use characters outside the query.
pub const PRIVATE_USE: Rule = Rule {
    id: "syntax-private-use",
    group: "syntax",
    severity: Severity::Warning,
    rfc: &["2.2"],
    doc: include_str!("../../rules/syntax-private-use.md"),
    unicode_only: true,
    check: Check::Iri(check_private_use),
};

/// `control-character`: C0/C1 controls and DEL anywhere in the IRI.
pub const CONTROL_CHARACTER: Rule = Rule {
    id: "control-character",
    group: "syntax",
    severity: Severity::Error,
    rfc: &["2.2"],
    doc: include_str!("../../rules/control-character.md"),
    unicode_only: false,
    check: Check::Iri(check_control),
};

/// Characters outside `ucschar` that `invisible-character` reports with a better explanation
/// (tag characters, the variation selectors supplement, U+FFF0–U+FFFB): not reported twice.
fn left_to_invisible_character(input: &IriCheck<'_>, issue: &Issue) -> bool {
    input.text[issue.range.clone()]
        .chars()
        .next()
        .is_some_and(is_left_to_invisible_character)
}

/// A character outside `ucschar` that `invisible-character` reports, not `syntax-invalid`.
pub(super) fn is_left_to_invisible_character(c: char) -> bool {
    chars::is_default_ignorable(c) || ('\u{FFF9}'..='\u{FFFB}').contains(&c)
}

/// Calls `f` on each issue of `kind` with the sink; the parser writes an issue's message only
/// when the sink would keep it (a million invalid characters wrote a million messages).
fn each_issue_of(
    input: &IriCheck<'_>,
    sink: &mut Sink<'_>,
    kind: IssueKind,
    mut f: impl FnMut(&Issue, &mut Sink<'_>),
) {
    let severity = sink.severity();
    let sink = std::cell::RefCell::new(sink);
    let wanted = |at| !sink.borrow().joins(severity, at);
    let _ = input.iri.each_issue(
        input.text,
        |k| k == kind,
        wanted,
        |issue| {
            f(issue, &mut sink.borrow_mut());
            ControlFlow::<()>::Continue(())
        },
    );
}

fn check_invalid(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    each_issue_of(input, sink, IssueKind::Invalid, |issue, sink| {
        if !left_to_invisible_character(input, issue) {
            sink.report_with(issue.range.clone(), || {
                let help = invalid_help(input, issue).map(str::to_string);
                (issue.message.clone(), help)
            });
        }
    });
}

/// What to write instead, from where the issue is and which character it is.
fn invalid_help(input: &IriCheck<'_>, issue: &Issue) -> Option<&'static str> {
    let c = input.text[issue.range.clone()].chars().next()?;
    let in_ip_literal = input
        .iri
        .authority
        .as_ref()
        .is_some_and(|a| input.text[a.host.range.clone()].starts_with('['));
    Some(match (issue.component, c) {
        (Component::Scheme, _) => {
            "a scheme is an ASCII letter followed by letters, digits, '+', '-' or '.'"
        }
        (Component::Port, _) => "write the port as digits only, or drop the ':'",
        (Component::Host, _) if in_ip_literal => {
            "write an IPv6 address as eight groups of 1-4 hex digits, or fewer with one '::', inside '[' and ']'"
        }
        (_, '[' | ']') => "percent-encode brackets as `%5B` and `%5D`",
        (Component::Host, '@') => "percent-encode an '@' that belongs to the user name as `%40`",
        (Component::Path, ':') => "write `./` before a relative path whose first segment has a ':'",
        (_, c) if !c.is_ascii() => "remove the character, or percent-encode its UTF-8 bytes",
        _ => return None,
    })
}

fn check_bad_percent(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    each_issue_of(input, sink, IssueKind::BadPercent, |issue, sink| {
        sink.report_with(issue.range.clone(), || {
            let help = "write `%25` for a literal '%'".to_string();
            (issue.message.clone(), Some(help))
        });
        // Unsafe: an escape may have been meant and cut short (`%2` of `%2F`).
        let at = issue.range.start;
        if input.text[at..].starts_with('%') {
            sink.attach_fix(IriFix::replace(
                Applicability::Unsafe,
                "write `%25` for the '%'",
                at..at + 1,
                "%25",
            ));
        }
    });
}

/// Calls `f` on each run of adjacent issues of `kind` in the same component, in order.
fn issue_runs(input: &IriCheck<'_>, kind: IssueKind, f: impl FnMut(Range<usize>, Component)) {
    issue_runs_of(input, |k| k == kind, f);
}

/// Calls `f` on each run of adjacent issues whose kind passes `keep`, in the same component, in
/// order; one run at a time is held, whatever the number of issues.
fn issue_runs_of(
    input: &IriCheck<'_>,
    keep: impl Fn(IssueKind) -> bool,
    mut f: impl FnMut(Range<usize>, Component),
) {
    let mut run: Option<(Range<usize>, Component)> = None;
    let _ = input.iri.each_issue(
        input.text,
        keep,
        |_| false,
        |i| {
            match &mut run {
                Some((r, c)) if r.end == i.range.start && *c == i.component => {
                    r.end = i.range.end;
                }
                _ => {
                    if let Some((r, c)) = run.replace((i.range.clone(), i.component)) {
                        f(r, c);
                    }
                }
            }
            ControlFlow::<()>::Continue(())
        },
    );
    if let Some((r, c)) = run {
        f(r, c);
    }
}

/// The characters of `s`, each once, in order of appearance.
fn distinct(s: &str) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    for c in s.chars() {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

fn check_unwise(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let keep = |k| matches!(k, IssueKind::UnwiseAscii | IssueKind::StrayDelimiter);
    issue_runs_of(input, keep, |range, component| {
        sink.report_with(range.clone(), || {
            let chars = distinct(&input.text[range.clone()]);
            let names: Vec<String> = chars
                .iter()
                .map(|&c| {
                    if c == ' ' {
                        "space".to_string()
                    } else {
                        format!("'{c}'")
                    }
                })
                .collect();
            let verb = if names.len() == 1 { "is" } else { "are" };
            let encodings: Vec<String> = chars
                .iter()
                .zip(&names)
                .map(|(&c, name)| format!("`{}` for {name}", percent::encode(&c.to_string())))
                .collect();
            (
                format!(
                    "{} {verb} not allowed in an IRI ({component})",
                    names.join(", ")
                ),
                Some(format!("percent-encode it: write {}", encodings.join(", "))),
            )
        });
        // Safe: §3.1 lets a system percent-encode these when it maps the IRI to a URI, so the
        // encoded IRI names the same resource. Except a backslash in a URL browsers parse as
        // "special" (WHATWG URL): they read it as `/`, so `%5C` would break a link that works.
        let special = input.iri.scheme.as_ref().is_some_and(|s| {
            ["http", "https", "ws", "wss", "ftp", "file"]
                .iter()
                .any(|k| input.text[s.clone()].eq_ignore_ascii_case(k))
        });
        // `[`, `]` and `#` are reserved (RFC 3986 §2.2): `%5B` and `[` are not equivalent by the
        // RFC, and a script reading `location.hash` sees `%23` where it saw `#`; most servers and
        // every browser read both alike, so the fix is offered, as an unsafe one.
        let run = &input.text[range.clone()];
        let reserved = run.contains(['[', ']', '#']);
        let applicability = if reserved || (special && run.contains('\\')) {
            Applicability::Unsafe
        } else {
            Applicability::Safe
        };
        // (Each byte becomes at most three: a run too long to fix is not encoded at all.)
        if fix_fits(3 * range.len()) {
            sink.attach_fix(IriFix::replace(
                applicability,
                "percent-encode it",
                range.clone(),
                percent::encode(&input.text[range]),
            ));
        }
    });
}

fn check_private_use(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    issue_runs(input, IssueKind::PrivateUse, |range, component| {
        let run = &input.text[range.clone()];
        sink.report_with(range, || {
            (
                format!(
                    "private-use character {} in the {component}; RFC 3987 allows private-use characters only in the query",
                    describe_chars(run)
                ),
                Some(format!(
                    "percent-encode it (`{}`), or move it into the query if it really is private data",
                    shorten_encoded(run)
                )),
            )
        });
    });
}

fn check_control(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    issue_runs(input, IssueKind::Control, |range, component| {
        let run = &input.text[range.clone()];
        let what = if run.chars().count() == 1 {
            "a control character"
        } else {
            "control characters"
        };
        sink.report_with(range, || {
            (
                format!("{} in the {component}: {what}", describe_chars(run)),
                Some(format!(
                    "remove it; control characters are invisible and can hide or alter text on a terminal (if it is really part of the name, write `{}`)",
                    shorten_encoded(run)
                )),
            )
        });
    });
}
