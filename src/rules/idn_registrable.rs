//! `idn-not-registrable`: a host that UTS #46 accepts (browsers resolve it) but IDNA2008
//! (RFC 5890–5893), which domain registries enforce, forbids. Such a name cannot have been
//! registered: in a document it is a typo, a copy of a spoof, or a look-alike that only lenient
//! software resolves.
//!
//! IDNA2008 is applied to the name as UTS #46 maps it (case folded, width folded, NFC, `xn--`
//! labels decoded), because that mapped form is what a browser looks up and what would have
//! been registered: a full-width `Ａ` is a mapping, not a registration problem.

use std::borrow::Cow;
use std::ops::Range;

use idna::uts46::{AsciiDenyList, Hyphens};

use super::delimiter;
use super::idn::{self, DnsName, UTS46};
use super::{Check, IriCheck, Rule, Severity, Sink};
use crate::iri::chars::{describe, escape_unsafe};
use crate::iri::idna2008::{self, Problem, Violation};

/// `idn-not-registrable`.
pub const IDN_NOT_REGISTRABLE: Rule = Rule {
    id: "idn-not-registrable",
    group: "idn",
    severity: Severity::Warning,
    rfc: &["3.1"],
    doc: include_str!("../../rules/idn-not-registrable.md"),
    // An `xn--` mail domain is ASCII; the check has its own fast path.
    unicode_only: false,
    check: Check::Iri(check_registrable),
};

const HELP: &str = "no registry can register this name (IDNA2008 registration, RFC 5891 §4), so the link is a typo, a copy of a spoof, or a look-alike only lenient software resolves: use the name as its owner registered it";

fn check_registrable(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let text = input.text;
    // Most IRIs: ASCII without an `xn--` label or a `%XX` escape cannot hold a name in the gap.
    if text.is_ascii() && !input.has_percent() && !has_ace_prefix(text) {
        return;
    }
    idn::for_each_dns_name(input, |name| check_name(text, &name, sink));
}

/// True when `xn--` (any case) occurs in `text`.
fn has_ace_prefix(text: &str) -> bool {
    // From each `-` (found by memchr) that starts a `--` back to an `xn`: every IRI pays for
    // this, and most have no `-` at all.
    let b = text.as_bytes();
    memchr::memchr_iter(b'-', b)
        .any(|p| p >= 2 && b.get(p + 1) == Some(&b'-') && b[p - 2..p].eq_ignore_ascii_case(b"xn"))
}

/// One label as IDNA2008 sees it: its U-label and where its characters are in the IRI.
struct MappedLabel<'t> {
    text: Cow<'t, str>,
    /// The range each character came from; `None` when the label is written as it is checked,
    /// so that its characters are where they are (the common case: nothing to allocate).
    origins: Option<Vec<Range<usize>>>,
    /// An `xn--` label: its characters are not written, only the label is.
    ace: bool,
    /// The written label it comes from (messages show it when it differs).
    written: Range<usize>,
}

impl MappedLabel<'_> {
    /// The range of the whole label in the IRI.
    fn range(&self) -> Range<usize> {
        match &self.origins {
            Some(o) if !self.ace => match (o.first(), o.last()) {
                (Some(first), Some(last)) => first.start..last.end,
                _ => 0..0,
            },
            _ => self.written.clone(),
        }
    }

    /// The range of character `i` of the label in the IRI.
    fn origin(&self, i: usize, text: &str) -> Range<usize> {
        if self.ace {
            return self.written.clone();
        }
        match &self.origins {
            Some(o) => o[i].clone(),
            None => char_ranges(&text[self.written.clone()], self.written.start)
                .nth(i)
                .unwrap_or_else(|| self.written.clone()),
        }
    }
}

fn check_name(text: &str, name: &DnsName<'_>, sink: &mut Sink<'_>) {
    let raw = &text[name.range.clone()];
    // ASCII letters, digits and hyphens are PVALID; anything else in ASCII fails UTS #46 and is
    // `idn-invalid`'s. Only Unicode, `%XX` and `xn--` labels can be in the gap.
    let plain = !raw.contains('%') && !name.labels.clone().any(|l| idn::is_ace(&text[l]));
    // A name of more labels than DNS allows is no name to register (`idn-invalid` reports it).
    if raw.is_ascii() && plain || name.labels.beyond_dns() {
        return;
    }
    // A name written without escapes or `xn--` labels that IDNA2008 accepts as written is left
    // as it is by the UTS #46 mapping (PVALID and CONTEXTO code points are UTS #46 valid, and the
    // name is NFC): nothing to report, and UTS #46 need not run (the common case).
    // The verdict is remembered by the name ([`idn::accepted_as_written`]): a document
    // repeats its hosts, and `idn-invalid` asks it of the same name.
    if plain && idn::accepted_as_written(text, name.range.clone(), name.labels.clone()) {
        return;
    }
    let Some(whole) = idn::percent_decode(raw) else {
        return;
    };
    // UTS #46 without the length checks: the mapped form, and whether UTS #46 rejects the name.
    let (mapped, uts46) = UTS46.to_unicode(whole.as_bytes(), AsciiDenyList::STD3, Hyphens::Check);
    if uts46.is_err() {
        return; // `idn-invalid` reports it
    }
    if !name.root_dot && mapped.ends_with('.') {
        return; // a mail domain with a root dot: `idn-invalid` (RFC 5321 §4.1.2)
    }
    let mut labels = Vec::new();
    for r in name.labels.clone() {
        if mapped == raw {
            // The common case: written as UTS #46 maps it.
            labels.push(MappedLabel {
                text: Cow::Borrowed(&text[r.clone()]),
                origins: None,
                ace: false,
                written: r.clone(),
            });
        } else {
            map_label(text, r.clone(), &mut labels);
        }
    }
    let texts: Vec<&str> = labels.iter().map(|l| l.text.as_ref()).collect();
    let violations = idna2008::check_domain(&texts);
    // A name too long for DNS is `idn-invalid`'s too: UTS #46 accepted it (above), so
    // ToASCII would fail only on the lengths of its ASCII form, counted without writing it.
    if violations.is_empty() || !idn::fits_dns(&mapped, name.root_dot) {
        return;
    }
    for v in violations {
        report(text, name.what, &labels[v.label], &v, sink);
    }
}

/// The range of each character of `s`, which starts at `start`.
fn char_ranges(s: &str, start: usize) -> impl Iterator<Item = Range<usize>> + '_ {
    s.char_indices()
        .map(move |(i, c)| start + i..start + i + c.len_utf8())
}

/// Maps one written label with UTS #46 (it may become several labels: `a。b`) and pushes them.
fn map_label(text: &str, range: Range<usize>, out: &mut Vec<MappedLabel<'_>>) {
    let written = &text[range.clone()];
    let Some(decoded) = idn::percent_decode(written) else {
        return;
    };
    let ace = idn::is_ace(written);
    let (mapped, _) = UTS46.to_unicode(decoded.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow);
    let n = mapped.chars().count();
    let mut origins: Vec<Range<usize>> = Vec::with_capacity(n);
    if !ace && !written.contains('%') {
        // Each character mapped alone; when that is the whole mapping (no composition across
        // characters), each mapped character points at the character it came from.
        let mut alone = String::with_capacity(mapped.len());
        for (from, c) in char_ranges(written, range.start).zip(written.chars()) {
            let mut buf = [0u8; 4];
            let (m, _) = UTS46.to_unicode(
                c.encode_utf8(&mut buf).as_bytes(),
                AsciiDenyList::EMPTY,
                Hyphens::Allow,
            );
            origins.extend(m.chars().map(|_| from.clone()));
            alone.push_str(&m);
        }
        if alone != mapped {
            origins.clear();
        }
    }
    if origins.len() != n {
        origins = vec![range.clone(); n];
    }
    let mut at = 0;
    for part in mapped.split('.') {
        let len = part.chars().count();
        out.push(MappedLabel {
            text: Cow::Owned(part.to_string()),
            origins: Some(origins[at..at + len].to_vec()),
            ace,
            written: range.clone(),
        });
        at += len + 1;
    }
}

/// The character `s` is made of, when it is one.
fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

fn report(text: &str, what: &str, label: &MappedLabel, v: &Violation, sink: &mut Sink<'_>) {
    let range = match v.at {
        Some(i) => label.origin(i, text),
        None => label.range(),
    };
    if range.is_empty() {
        return;
    }
    // A symbol that looks like a delimiter (`example.com∕login`): `confusable-delimiter` says
    // what it pretends to be, which is the better explanation; one report per character.
    if let Problem::Property(..) = v.problem
        && let Some(c) = single_char(&text[range.clone()])
        && delimiter::reports("", c, "", what == "host")
    {
        return;
    }
    // The U-label checked, and the label as written when that differs (`xn--`, full width).
    let written = &text[label.written.clone()];
    let shown = if written == label.text {
        format!("`{}`", escape_unsafe(written))
    } else {
        format!(
            "`{}` (`{}`)",
            escape_unsafe(written),
            escape_unsafe(&label.text)
        )
    };
    let problem = &v.problem;
    let section = problem.section();
    let why = match problem {
        Problem::Property(c, d) => format!(
            "contains {}, which IDNA2008 derives as {}: {} ({section})",
            describe(*c),
            d.property.name(),
            d.category.reason()
        ),
        Problem::Context(c, rule) => format!(
            "contains {}, which IDNA2008 allows ({}) only {} ({section})",
            describe(*c),
            idna2008::derived_property(*c).name(),
            rule.requirement()
        ),
        Problem::NoRule(c) => format!(
            "contains {}, a contextual code point without a rule ({section})",
            describe(*c)
        ),
        Problem::LeadingHyphen => format!("starts with a hyphen ({section})"),
        Problem::TrailingHyphen => format!("ends with a hyphen ({section})"),
        Problem::HyphensAt3And4 => {
            format!("has `--` in the third and fourth positions ({section})")
        }
        Problem::LeadingCombiningMark(c) => {
            format!(
                "starts with the combining mark {} ({section})",
                describe(*c)
            )
        }
        Problem::NotNfc => format!("is not in NFC ({section})"),
        Problem::Bidi(why) => format!("breaks the bidi rule: {why} ({section})"),
    };
    sink.report(
        range,
        format!(
            "the {what} label {shown} {why}; browsers accept it (UTS #46) but no registry may register it"
        ),
        Some(HELP.to_string()),
    );
}

#[cfg(test)]
mod ace_prefix_tests {
    use super::has_ace_prefix;

    #[test]
    fn ace_prefix_is_found_in_any_case() {
        let windows = |t: &str| {
            t.as_bytes()
                .windows(4)
                .any(|w| w.eq_ignore_ascii_case(b"xn--"))
        };
        for t in [
            "",
            "xn--",
            "XN--a",
            "a.Xn--b",
            "x-n--",
            "xn-",
            "---",
            "xxn---",
            "n--",
            "-xn--",
            "xn-x--",
            "http://a.b/xN--",
            "--xn",
            "xnxn--",
        ] {
            assert_eq!(has_ace_prefix(t), windows(t), "{t:?}");
        }
    }
}
