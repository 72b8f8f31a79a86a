//! Internationalized domain names (RFC 3987 §3.1, §5.3.3; UTS #46).
//!
//! `idn-invalid` runs UTS #46 ToASCII (nontransitional, that is IDNA2008 with the UTS #46
//! mapping) on every host that is a DNS name, with CheckHyphens, CheckBidi, CheckJoiners,
//! UseSTD3ASCIIRules and VerifyDnsLength, as the `idna` crate implements them. The crate only says
//! *that* a name fails; when it does, each label is checked again on its own to say which label
//! and which check.

use std::borrow::Cow;
use std::ops::{ControlFlow, Range};

use smallvec::SmallVec;

use crate::iri::props::bidi_class;
use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
use unicode_bidi::BidiClass;
use unicode_normalization::char::is_combining_mark;

use super::{Check, IriCheck, Rule, Severity, Sink, name_memo, shorten_escaped};
use crate::iri::chars::{describe, escape_unsafe};
use crate::iri::idna2008;
use crate::iri::idna2008::bidi::{bidi_rule, is_rtl_label};
use crate::iri::percent::{self, Decoded};
use crate::iri::to_uri::uses_dns;
use crate::iri::{HostKind, Iri, IssueKind};

/// `idn-invalid`.
pub const IDN_INVALID: Rule = Rule {
    id: "idn-invalid",
    group: "idn",
    severity: Severity::Error,
    rfc: &["3.1", "5.3.3"],
    doc: include_str!("../../rules/idn-invalid.md"),
    unicode_only: false,
    check: Check::Iri(check_idn),
};

/// The UTS #46 implementation (data compiled in; constructing it is free).
pub(super) const UTS46: Uts46 = Uts46::new();

/// ToASCII with every check on; `root_dot` allows a trailing root dot (`example.com.`, a fully
/// qualified name: see [`DnsName::root_dot`]).
pub(super) fn to_ascii(domain: &str, root_dot: bool) -> Result<Cow<'_, str>, idna::Errors> {
    crate::work::add(crate::work::Work::Uts46Names, 1);
    let length = if root_dot {
        DnsLength::VerifyAllowRootDot
    } else {
        DnsLength::Verify
    };
    UTS46.to_ascii(
        domain.as_bytes(),
        AsciiDenyList::STD3,
        Hyphens::Check,
        length,
    )
}

/// ToASCII on one label, without the length checks (they are done on the result).
fn label_to_ascii(label: &str) -> Result<Cow<'_, str>, idna::Errors> {
    UTS46.to_ascii(
        label.as_bytes(),
        AsciiDenyList::STD3,
        Hyphens::Check,
        DnsLength::Ignore,
    )
}

fn check_idn(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    check_empty_names(input, sink);
    for_each_dns_name(input, |name| {
        check_domain(
            input.text,
            name.range,
            name.labels,
            name.what,
            name.root_dot,
            sink,
        )
    });
}

/// An `http`, `https`, `ftp`, `ws` or `wss` IRI with an authority but no host, and a `mailto:`
/// address with nothing after its `@`: there is no name to look up. RFC 9110 §4.2.1 says a
/// sender must not generate an `http` URI with an empty host, and browsers reject one; RFC 6455
/// §3 and RFC 1738 §3.1 require the host of `ws`/`wss` and `ftp`; RFC 5321 §4.1.2 a mail
/// domain. A network-path reference (`///path`) is left alone: its scheme is not known.
fn check_empty_names(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let iri = input.iri;
    let text = input.text;
    let Some(scheme) = iri.scheme.as_ref().map(|r| &text[r.clone()]) else {
        return;
    };
    if uses_dns(scheme) {
        let Some(authority) = &iri.authority else {
            return;
        };
        let host = &authority.host;
        if !host.range.is_empty() || reported_by_syntax_rules(text, iri, &authority.range) {
            return;
        }
        // `http://` alone names the scheme in prose ("URLs starting with `https://`"), or is all
        // of a placeholder the extractor stopped at (`http://<host>/`): not a link.
        let nothing_after = authority.range.is_empty()
            && iri.path.is_empty()
            && iri.query.is_none()
            && iri.fragment.is_none();
        if nothing_after {
            return;
        }
        // Point at what stands where the host should be: `//`, or the `@` before it.
        let at = host.range.start;
        let span = match &authority.userinfo {
            Some(u) => u.end..u.end + 1,
            None => at.saturating_sub(2)..at,
        };
        let scheme = scheme.to_ascii_lowercase();
        sink.report(
            span,
            format!("the {scheme} IRI has an empty host: there is no server to connect to"),
            Some(format!(
                "write the host name after `//`; an `{scheme}` URI must have one (RFC 9110 §4.2.1, RFC 6455 §3, RFC 1738 §3.1); for a path on the same server, drop the `{scheme}://`"
            )),
        );
    } else if scheme.eq_ignore_ascii_case("mailto") {
        for_each_mail_domain(input, |addr, domain| {
            if domain.is_empty() {
                let addr = &text[addr];
                sink.report(
                    domain.start - 1..domain.start,
                    format!(
                        "the mail address `{}` has no domain after its `@`",
                        escape_unsafe(addr)
                    ),
                    Some("write the domain after the `@` (RFC 5321 §4.1.2)".to_string()),
                );
            }
        });
    }
}

/// A DNS name in an IRI, as `idn-invalid` and `idn-not-registrable` check it.
pub(super) struct DnsName<'a> {
    /// Its range in the IRI.
    pub range: Range<usize>,
    /// The range of each label (the last is empty after a root dot), found as they are asked
    /// for: a name of a million labels holds no million ranges.
    pub labels: DnsLabels<'a>,
    /// How messages name it: `host` or `mail domain`.
    pub what: &'static str,
    /// Whether a trailing root dot is allowed: in a URL host it makes a fully qualified name
    /// (RFC 3986 §3.2.2); a mail domain is written without it (RFC 5321 §4.1.2).
    pub root_dot: bool,
}

/// The most labels a DNS name can have: each label takes at least one octet and a dot, and a
/// name at most 253 octets (RFC 1035 §2.3.4). A name of more is `idn-invalid` for its length
/// whatever its labels hold; the rules that compare labels with domains that exist
/// (`idn-not-registrable` and the look-alike rules) leave it alone, so that what they hold per
/// label stays bounded.
pub(super) const MAX_DNS_LABELS: usize = 127;

/// The most bytes a DNS name can be written with, far more than any name of 253 octets in its
/// ASCII form takes (each of its characters written as four `%XX` octets, with every character
/// UTS #46 removes besides): a longer name is handled as one of too many labels is.
pub(super) const MAX_DNS_NAME_BYTES: usize = 64 * 1024;

/// The most bytes a label, its `%XX` and invisible characters taken out, can hold and still
/// become at most 63 octets: at most 63 characters in its ASCII form, from at most three
/// characters each that compose into one (Hangul jamo), of at most four bytes each. A longer
/// label is too long without being mapped (a label of megabytes was mapped whole, several times).
const MAX_LABEL_BYTES: usize = 1024;

/// The labels of a DNS name, split at every dot UTS #46 maps to `.` (U+002E, U+3002, U+FF0E,
/// U+FF61; UTS #46 §2.3): RFC 3986 splits a host at `.` only, browsers also at the wide dots.
#[derive(Debug, Clone)]
pub(super) struct DnsLabels<'a> {
    text: &'a str,
    /// Where the next label starts.
    next: usize,
    end: usize,
    done: bool,
}

impl<'a> DnsLabels<'a> {
    fn new(text: &'a str, range: Range<usize>) -> Self {
        DnsLabels {
            text,
            next: range.start,
            end: range.end,
            done: false,
        }
    }

    /// True when there are more than [`MAX_DNS_LABELS`] labels, or more than
    /// [`MAX_DNS_NAME_BYTES`] bytes: no DNS name is written so.
    pub(super) fn beyond_dns(&self) -> bool {
        // More than MAX_DNS_LABELS labels take at least as many bytes of dots: a shorter name
        // (every name of a document, nearly) is not walked for them, by each of three rules.
        let len = self.end - self.next;
        len > MAX_DNS_NAME_BYTES
            || len >= MAX_DNS_LABELS && self.clone().nth(MAX_DNS_LABELS).is_some()
    }
}

impl Iterator for DnsLabels<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        if self.done {
            return None;
        }
        let start = self.next;
        let b = &self.text.as_bytes()[start..self.end];
        // The wide dots are the only characters that start with these bytes and are dots.
        let mut from = 0;
        while let Some(k) = b[from..]
            .iter()
            .position(|&c| matches!(c, b'.' | 0xE3 | 0xEF))
            .map(|k| from + k)
        {
            let dot_len = match &b[k..] {
                [b'.', ..] => 1,
                [0xE3, 0x80, 0x82, ..] | [0xEF, 0xBC, 0x8E, ..] | [0xEF, 0xBD, 0xA1, ..] => 3,
                _ => {
                    from = k + 1;
                    continue;
                }
            };
            self.next = start + k + dot_len;
            return Some(start..start + k);
        }
        self.done = true;
        Some(start..self.end)
    }
}

/// The DNS names of an IRI: the host of a scheme whose host is a DNS name (`http`, `https`,
/// `ftp`, `ws`, `wss`, a network-path reference) or the domain of each `mailto:` address. Names
/// a syntax rule already reports are left out (one report per character). Runs on every IRI,
/// so nothing is allocated for a host.
pub(super) fn for_each_dns_name(input: &IriCheck<'_>, mut f: impl FnMut(DnsName<'_>)) {
    let iri = input.iri;
    let text = input.text;
    let scheme = iri.scheme.as_ref().map(|r| &text[r.clone()]);
    let dns = match scheme {
        Some(s) => uses_dns(s),
        // A network-path reference (`//host/path`) takes the scheme of its base, which on the
        // web is http or https.
        None => true,
    };
    if dns {
        if let Some(authority) = &iri.authority {
            let host = &authority.host;
            if host.kind == Some(HostKind::RegName)
                && !host.range.is_empty()
                && !reported_by_syntax_rules(text, iri, &host.range)
            {
                f(DnsName {
                    range: host.range.clone(),
                    labels: DnsLabels::new(text, host.range.clone()),
                    what: "host",
                    root_dot: true,
                });
            }
        }
    } else if scheme.is_some_and(|s| s.eq_ignore_ascii_case("mailto")) {
        mail_domains(input, f);
    }
}

/// True when a syntax rule already reports a character in `range`: the name is then left alone,
/// so that one character gets one report.
/// An invalid character that `invisible-character` reports instead (a tag character, a
/// variation selector of U+E0100–U+E01EF) does not count: `syntax-invalid` is silent on it, and
/// the rest of the name is checked without it ([`without_invisible_invalid`]).
fn reported_by_syntax_rules(text: &str, iri: &Iri, range: &Range<usize>) -> bool {
    let syntax = |k| k != IssueKind::PrivateUse;
    iri.each_issue(
        text,
        syntax,
        |_| false,
        |i| {
            let kind = i.kind != IssueKind::Invalid
                || !text[i.range.clone()]
                    .chars()
                    .next()
                    .is_some_and(super::syntax::is_left_to_invisible_character);
            if i.range.start >= range.end {
                // Issues come in input order: none further on is in the name.
                ControlFlow::Break(false)
            } else if kind && range.start < i.range.end {
                ControlFlow::Break(true)
            } else {
                ControlFlow::Continue(())
            }
        },
    ) == ControlFlow::Break(true)
}

/// `s` without the characters outside `ucschar` that `invisible-character` reports (U+E0000–
/// U+E0FFF, U+FFF0–U+FFFB): one report per character, and the name around it still checked.
fn without_invisible_invalid(s: Cow<'_, str>) -> Cow<'_, str> {
    let drop = |c: char| {
        (('\u{E0000}'..='\u{E0FFF}').contains(&c) || ('\u{FFF0}'..='\u{FFFB}').contains(&c))
            && super::syntax::is_left_to_invisible_character(c)
    };
    if !s.chars().any(drop) {
        return s;
    }
    Cow::Owned(s.chars().filter(|&c| !drop(c)).collect())
}

/// The domain of each address in a `mailto:` path, as a [`DnsName`] (IP literals left out).
fn mail_domains(input: &IriCheck<'_>, mut f: impl FnMut(DnsName<'_>)) {
    for_each_mail_domain(input, |_, domain| {
        let d = &input.text[domain.clone()];
        if !d.is_empty() && !d.starts_with('[') {
            f(DnsName {
                labels: DnsLabels::new(input.text, domain.clone()),
                range: domain,
                what: "mail domain",
                root_dot: false,
            });
        }
    });
}

/// Each address of a `mailto:` path that has an `@` (RFC 6068: `addr-spec *("," addr-spec)`),
/// with the range after its last `@` (empty when nothing follows); nothing when a syntax rule
/// reports the path.
pub(super) fn for_each_mail_domain(
    input: &IriCheck<'_>,
    mut f: impl FnMut(Range<usize>, Range<usize>),
) {
    let path = input.iri.path.clone();
    if reported_by_syntax_rules(input.text, input.iri, &path) {
        return;
    }
    let mut start = path.start;
    for addr in input.text[path].split(',') {
        let end = start + addr.len();
        if let Some(at) = addr.rfind('@') {
            f(start..end, start + at + 1..end);
        }
        start = end + 1;
    }
}

/// Decodes `%XX` escapes with the shared strict decoder; `None` when the octets are not UTF-8
/// (`percent-non-utf8` says so).
pub(super) fn percent_decode(s: &str) -> Option<Cow<'_, str>> {
    if !s.contains('%') {
        return Some(Cow::Borrowed(s));
    }
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    for run in percent::runs(s) {
        out.push_str(&s[at..run.start]);
        for piece in percent::decode(s, run.clone()) {
            match piece.decoded {
                Decoded::Char(c) => out.push(c),
                _ => return None,
            }
        }
        at = run.end;
    }
    out.push_str(&s[at..]);
    Some(Cow::Owned(out))
}

/// True when `name` is letters, digits, hyphens and dots that UTS #46 ToASCII (with the checks
/// [`to_ascii`] asks for) certainly accepts: every label of 1 to 63 of them, not starting or
/// ending with a hyphen, without `-` in both its third and fourth positions (an `xn--` label
/// needs its Punycode decoded), the name at most 253 octets, a root dot only where `root_dot`
/// allows it. Such a name maps to itself lowercased, has no right-to-left label and no joiner,
/// so the full computation would only confirm it: on every host of an ordinary link it cost
/// several hundred instructions (the UTS #46 walk and the scan for invisible characters).
/// False means "not decided here", never "invalid": the caller then runs ToASCII.
fn plainly_valid(name: &[u8], root_dot: bool) -> bool {
    let name = match name {
        [rest @ .., b'.'] if root_dot => rest,
        _ => name,
    };
    if name.len() > 253 {
        return false;
    }
    // One pass with a byte table, each label checked at its dot: split and a test per
    // character cost twice as much on the hosts of a document.
    let mut start = 0;
    for (i, &b) in name.iter().enumerate() {
        match LDH[usize::from(b)] {
            Ldh::Char => {}
            Ldh::Dot if plain_label(&name[start..i]) => start = i + 1,
            _ => return false,
        }
    }
    plain_label(&name[start..])
}

/// What a byte is to [`plainly_valid`].
#[derive(Clone, Copy, PartialEq)]
enum Ldh {
    Char,
    Dot,
    Other,
}

/// [`Ldh`] of each byte.
const LDH: [Ldh; 256] = {
    let mut t = [Ldh::Other; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || c == b'-' {
            t[b] = Ldh::Char;
        }
        b += 1;
    }
    t[b'.' as usize] = Ldh::Dot;
    t
};

/// A label of letters, digits and hyphens that ToASCII accepts as it is (see [`plainly_valid`]).
fn plain_label(label: &[u8]) -> bool {
    matches!(label.len(), 1..=63)
        && label[0] != b'-'
        && label[label.len() - 1] != b'-'
        && !matches!(label, [_, _, b'-', b'-', ..])
}

thread_local! {
    /// Whether IDNA2008 accepts a name written without escapes as it is, by its text (its
    /// labels are split from it): `idn-not-registrable` asks it of every Unicode name, and
    /// `idn-invalid` asks it first ([`valid_as_written`]), so the name is read once for both.
    static ACCEPTED_AS_WRITTEN: std::cell::RefCell<name_memo::Memo<bool>> =
        std::cell::RefCell::new(name_memo::Memo::new());
}

/// Whether IDNA2008 (RFC 5891 §5.4, RFC 5892, RFC 5893; [`idna2008::check_domain`]) accepts
/// the name at `range` of `text`, split into `labels`, as it is written (empty labels and
/// lengths are not its business), remembered by the name's text ([`name_memo`]).
pub(super) fn accepted_as_written(
    text: &str,
    range: Range<usize>,
    labels: impl Iterator<Item = Range<usize>>,
) -> bool {
    name_memo::remembered(&ACCEPTED_AS_WRITTEN, text[range].as_bytes(), || {
        let written: Vec<&str> = labels.map(|l| &text[l]).collect();
        idna2008::check_domain(&written).is_empty()
    })
}

/// True when UTS #46 ToASCII (with the checks [`to_ascii`] asks for) certainly accepts the
/// name at `range`, written without `%XX` escapes, because IDNA2008 accepts it as written
/// ([`accepted_as_written`], which `idn-not-registrable` asks of the same name): its code
/// points are then PVALID or CONTEXTO/CONTEXTJ with their rules holding, which UTS #46 leaves
/// as they are and finds valid; it is NFC, has no leading combining mark and keeps the bidi
/// rule, as CheckBidi and CheckJoiners ask. What IDNA2008 leaves to the caller is checked
/// here: no empty label (but a root dot where allowed), each label at most 63 octets in its
/// ASCII form and the name at most 253. (The hyphens are IDNA2008's to check, by character as
/// CheckHyphens does; an `xn--` label, with its `--` third and fourth, fails there and goes to
/// ToASCII.) Only a name of Unicode labels
/// that passes all of that is decided here, without running UTS #46 on it a second time (about
/// 3,900 instructions for ten Cyrillic letters); false means "not decided", never "invalid".
fn valid_as_written(
    text: &str,
    range: Range<usize>,
    labels: &DnsLabels<'_>,
    root_dot: bool,
) -> bool {
    // The labels found once for the three passes below (a name within DNS's limits, as every
    // name asked about here is, has at most 127).
    let ranges: SmallVec<[Range<usize>; 8]> = labels.clone().collect();
    let last = ranges.len().saturating_sub(1);
    for (i, r) in ranges.iter().enumerate() {
        if r.is_empty() {
            if i == last && i > 0 && root_dot {
                continue;
            }
            return false;
        }
    }
    if !accepted_as_written(text, range, ranges.iter().cloned()) {
        return false;
    }
    let mut total = 0usize;
    for r in &ranges {
        let label = &text[r.clone()];
        if label.is_empty() {
            continue; // the root label of a trailing dot: no octets, and its dot is not counted
        }
        match label_octets(label) {
            Some(octets) if octets <= 63 => total += octets + 1,
            _ => return false,
        }
    }
    total.saturating_sub(1) <= 253
}

/// The octets of `label`'s ASCII form in DNS: itself when ASCII, else `xn--` and its Punycode
/// ([`punycode_len`]; `None` when that overflows).
fn label_octets(label: &str) -> Option<usize> {
    if label.is_ascii() {
        Some(label.len())
    } else {
        punycode_len(label).map(|n| 4 + n)
    }
}

/// Whether a name as UTS #46 maps it (its dots all `.`, `xn--` labels decoded) keeps DNS's
/// lengths in its ASCII form, as ToASCII's VerifyDnsLength checks them: no empty label but a
/// root dot where `root_dot` allows one, each label at most 63 octets, the name at most 253.
/// Counted without writing the ASCII form ([`punycode_len`]): `idn-not-registrable` asks it
/// of a name UTS #46 accepts, where it is all ToASCII would still check.
pub(super) fn fits_dns(mapped: &str, root_dot: bool) -> bool {
    let name = match mapped.strip_suffix('.') {
        Some(rest) if root_dot => rest,
        Some(_) => return false,
        None => mapped,
    };
    let mut total = 0usize;
    for label in name.split('.') {
        match label_octets(label) {
            Some(octets) if (1..=63).contains(&octets) => total += octets + 1,
            _ => return false,
        }
    }
    total - 1 <= 253
}

/// The length of the Punycode form of `label` (RFC 3492 §6.3, as `idna::punycode::encode_str`
/// computes it, overflow included), counted without writing it: only its length is asked, for
/// each Unicode label of every name `idn-invalid` decides without ToASCII.
fn punycode_len(label: &str) -> Option<usize> {
    const BASE: u32 = 36;
    const T_MIN: u32 = 1;
    const T_MAX: u32 = 26;
    let (mut input_length, mut basic_length) = (0u32, 0u32);
    for c in label.chars() {
        input_length = input_length.checked_add(1)?;
        basic_length += u32::from(c.is_ascii());
    }
    let mut out = basic_length as usize + usize::from(basic_length > 0);
    let mut code_point = 0x80u32;
    let mut delta = 0u32;
    let mut bias = 72u32;
    let mut processed = basic_length;
    while processed < input_length {
        let min_code_point = label
            .chars()
            .map(|c| c as u32)
            .filter(|&c| c >= code_point)
            .min()?;
        delta = delta.checked_add((min_code_point - code_point).checked_mul(processed + 1)?)?;
        code_point = min_code_point;
        for c in label.chars().map(|c| c as u32) {
            if c < code_point {
                delta = delta.checked_add(1)?;
            }
            if c == code_point {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = if k <= bias {
                        T_MIN
                    } else if k >= bias + T_MAX {
                        T_MAX
                    } else {
                        k - bias
                    };
                    if q < t {
                        break;
                    }
                    out += 1;
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out += 1;
                bias = punycode_adapt(delta, processed + 1, processed == basic_length);
                delta = 0;
                processed += 1;
            }
        }
        delta += 1;
        code_point += 1;
    }
    Some(out)
}

/// RFC 3492 §6.1's bias adaptation.
fn punycode_adapt(mut delta: u32, num_points: u32, first_time: bool) -> u32 {
    const BASE: u32 = 36;
    delta /= if first_time { 700 } else { 2 };
    delta += delta / num_points;
    let mut k = 0;
    while delta > ((BASE - 1) * 26) / 2 {
        delta /= BASE - 1;
        k += BASE;
    }
    k + (BASE * delta) / (delta + 38)
}

/// One label as checked: its range in the IRI and its text, `%XX` decoded.
struct Label<'a> {
    range: Range<usize>,
    text: Cow<'a, str>,
}

thread_local! {
    /// Whether UTS #46 ToASCII accepts a Unicode host (a root dot allowed), by its text.
    static VALID_HOSTS: std::cell::RefCell<name_memo::Memo<bool>> =
        std::cell::RefCell::new(name_memo::Memo::new());
    /// Whether UTS #46 ToASCII accepts a Unicode mail domain (no root dot), by its text.
    static VALID_MAIL_DOMAINS: std::cell::RefCell<name_memo::Memo<bool>> =
        std::cell::RefCell::new(name_memo::Memo::new());
}

/// Checks one domain name; `what` names it in messages (`host`, `mail domain`).
fn check_domain(
    text: &str,
    range: Range<usize>,
    label_ranges: DnsLabels<'_>,
    what: &str,
    root_dot: bool,
    sink: &mut Sink<'_>,
) {
    let raw = &text[range.clone()];
    // The common case: a valid name, checked without allocating when it is ASCII. A name of
    // more labels than DNS allows cannot be one: it goes straight to its labels, never held
    // whole in its ASCII form.
    if !label_ranges.beyond_dns() {
        let whole: Cow<'_, str> = if raw.contains('%') {
            match percent_decode(raw) {
                Some(d) => d,
                None => return,
            }
        } else {
            Cow::Borrowed(raw)
        };
        let valid = match whole {
            // An LDH name (the common case) is decided by one scan of its bytes.
            ref w if plainly_valid(w.as_bytes(), root_dot) => true,
            // A Unicode name written without escapes is remembered by its text
            // ([`name_memo`]): ToASCII is several thousand instructions for it, and a document
            // repeats its hosts.
            Cow::Borrowed(w) if !w.is_ascii() => {
                let memo = if root_dot {
                    &VALID_HOSTS
                } else {
                    &VALID_MAIL_DOMAINS
                };
                name_memo::remembered(memo, w.as_bytes(), || {
                    valid_as_written(text, range.clone(), &label_ranges, root_dot)
                        || to_ascii(&without_invisible_invalid(Cow::Borrowed(w)), root_dot).is_ok()
                })
            }
            whole => to_ascii(&without_invisible_invalid(whole), root_dot).is_ok(),
        };
        if valid {
            return;
        }
    }
    // Something fails: find which label and which check. The labels are decoded one at a time
    // as they are checked, and again for the bidi rule, never all held.
    let label = |r: Range<usize>| {
        percent_decode(&text[r.clone()]).map(|t| Label {
            range: r,
            text: without_invisible_invalid(t),
        })
    };
    if label_ranges
        .clone()
        .any(|r| percent_decode(&text[r]).is_none())
    {
        return;
    }
    let labels = || label_ranges.clone().filter_map(label);
    let mut reported = 0usize;
    let mut ace_len = 0usize;
    let last = label_ranges.clone().count().saturating_sub(1);
    let mut previous_end = None;
    for (i, label) in labels().enumerate() {
        let before = previous_end.replace(label.range.end);
        if label.text.is_empty() {
            if i == last && i > 0 && root_dot {
                continue; // the root dot of a fully qualified name
            }
            // The dot (of any width) before the label, or after it for the first.
            let dot = if let Some(end) = before {
                end..label.range.start
            } else if let Some(next) = label_ranges.clone().nth(1) {
                label.range.end..next.start
            } else {
                label.range.clone()
            };
            let (where_, message) = if i == 0 {
                (
                    "starts with a dot",
                    "an empty label is not a valid DNS name",
                )
            } else if i == last {
                (
                    "ends with a dot",
                    "a mail domain is written without the root dot (RFC 5321 §4.1.2)",
                )
            } else {
                (
                    "has two dots in a row",
                    "an empty label is not a valid DNS name",
                )
            };
            reported += 1;
            sink.report(
                dot,
                format!("the {what} {where_}: {message}"),
                Some("remove the extra dot".to_string()),
            );
            continue;
        }
        if label.text.len() > MAX_LABEL_BYTES {
            reported += 1;
            sink.report(
                label.range.clone(),
                format!(
                    "the {what} label {}is {} bytes long; DNS allows at most 63 octets",
                    shown(&label.text),
                    label.text.len()
                ),
                Some("shorten the label".to_string()),
            );
            continue;
        }
        match label_to_ascii(&label.text) {
            Err(_) => {
                reported += 1;
                let message = diagnose_label(&label.text)
                    .unwrap_or_else(|| "fails UTS #46 ToASCII (IDNA2008) processing".to_string());
                sink.report(
                    label.range.clone(),
                    format!("the {what} label `{}` {message}", quoted(&label.text)),
                    Some(LABEL_HELP.to_string()),
                );
            }
            Ok(ace) => {
                ace_len += ace.len() + 1;
                if ace.len() > 63 {
                    reported += 1;
                    let form = if ace.as_ref() == label.text.as_ref() {
                        String::new()
                    } else {
                        format!(" (as `{}`)", ace)
                    };
                    sink.report(
                        label.range.clone(),
                        format!(
                            "the {what} label {}is {} octets long{form}; DNS allows at most 63",
                            shown(&label.text),
                            ace.len()
                        ),
                        Some("shorten the label".to_string()),
                    );
                }
            }
        }
    }
    if reported == 0 {
        // Every label is fine on its own: the bidi rule across labels, or the total length.
        // (Every label passed ToASCII, or is the empty root label.)
        let unicode = |label: &Label<'_>| {
            (!label.text.is_empty()).then(|| {
                UTS46
                    .to_unicode(label.text.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow)
                    .0
                    .into_owned()
            })
        };
        let is_bidi = labels().any(|l| unicode(&l).is_some_and(|u| is_rtl_label(&u)));
        if is_bidi {
            for label in labels() {
                if let Some(uni) = unicode(&label)
                    && let Some(problem) = bidi_rule(&uni)
                {
                    reported += 1;
                    sink.report(
                        label.range.clone(),
                        format!(
                            "the {what} label {}breaks the bidi rule of RFC 5893 (UTS #46 CheckBidi) in a domain name with right-to-left labels: {problem}",
                            shown(&label.text)
                        ),
                        Some(BIDI_HELP.to_string()),
                    );
                }
            }
        }
        // The root label of a trailing dot adds nothing.
        let total = ace_len.saturating_sub(1);
        if total > 253 {
            reported += 1;
            sink.report(
                range.clone(),
                format!(
                    "the {what} is {total} octets long in its ASCII form; DNS allows at most 253"
                ),
                Some("use a shorter name".to_string()),
            );
        }
    }
    if reported == 0 {
        sink.report(
            range,
            format!("the {what} fails UTS #46 ToASCII (IDNA2008) processing"),
            Some(LABEL_HELP.to_string()),
        );
    }
}

const LABEL_HELP: &str = "a DNS name must pass IDNA2008 (UTS #46 ToASCII): letters, digits and inner hyphens, no `--` in the third and fourth position unless it is a valid `xn--` label, at most 63 octets per label";

const BIDI_HELP: &str = "in a domain name with right-to-left labels, every label must start with a letter and a right-to-left label must not mix in left-to-right letters (RFC 5893); split the words into separate labels or change the name";

/// How a label is named in a message: `` `label` `` (escaped), with its decoded form for `xn--`.
pub(super) fn shown(label: &str) -> String {
    let mut s = format!("`{}` ", quoted(label));
    if let Some(d) = decode_ace(label) {
        s = format!("`{}` (`{}`) ", quoted(label), quoted(&d));
    }
    s
}

/// A label escaped for a message: whole when it is no longer than a DNS name can be, else
/// shortened (a hostile label may be megabytes long).
fn quoted(label: &str) -> String {
    if label.len() <= 253 {
        escape_unsafe(label)
    } else {
        shorten_escaped(label)
    }
}

/// Decodes the Punycode of an `xn--` label; `None` when it is not one, is not valid Punycode,
/// or is longer than [`MAX_LABEL_BYTES`]: too long for DNS whatever it decodes to (`idn-invalid`
/// says so without decoding it), and Punycode decoding inserts each character into what is
/// decoded so far, quadratic in the label's length (a label of 80,000 bytes took 1.5 s).
pub(super) fn decode_ace(label: &str) -> Option<String> {
    if !is_ace(label) || label.len() > MAX_LABEL_BYTES {
        return None;
    }
    let rest = &label[4..];
    if rest.is_empty() {
        return None;
    }
    // The cost modelled: a character inserted among those before it.
    crate::work::add(crate::work::Work::PunycodeDecoding, rest.len() * rest.len());
    idna::punycode::decode_to_string(rest)
}

pub(super) fn is_ace(label: &str) -> bool {
    label
        .as_bytes()
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"xn--"))
}

/// Why a label fails ToASCII on its own, as the end of a sentence starting with the label.
fn diagnose_label(label: &str) -> Option<String> {
    if is_ace(label) {
        let rest = &label[4..];
        let Some(decoded) = decode_ace(label) else {
            return Some("is not valid Punycode after its `xn--` prefix".to_string());
        };
        if rest.ends_with('-') || decoded.is_ascii() {
            return Some(format!(
                "decodes to the ASCII-only `{}`, which is not a valid `xn--` label",
                escape_unsafe(&decoded)
            ));
        }
        if let Some(why) = diagnose_unicode(&decoded) {
            return Some(format!(
                "decodes to `{}`, which {why}",
                escape_unsafe(&decoded)
            ));
        }
        // The decoded label is valid once mapped: it was not in its mapped, normalized form.
        if let Ok(canonical) = label_to_ascii(&decoded) {
            return Some(format!(
                "decodes to `{}`, which is not in the form IDNA maps it to (uppercase, compatibility or non-NFC characters); its valid form is `{canonical}`",
                escape_unsafe(&decoded)
            ));
        }
        return None;
    }
    diagnose_unicode(label)
}

/// Why a label that is not an `xn--` label fails ToASCII, as a verb phrase (`starts with ...`).
fn diagnose_unicode(label: &str) -> Option<String> {
    let chars: Vec<char> = label.chars().collect();
    if chars.first() == Some(&'-') {
        return Some("starts with a hyphen (CheckHyphens)".to_string());
    }
    if chars.last() == Some(&'-') {
        return Some("ends with a hyphen (CheckHyphens)".to_string());
    }
    if chars.get(2) == Some(&'-') && chars.get(3) == Some(&'-') {
        return Some(
            "has `--` in the third and fourth positions, which only a valid `xn--` label may have (CheckHyphens; RFC 5891 §4.2.3.1)"
                .to_string(),
        );
    }
    for &c in &chars {
        if c.is_ascii() && !c.is_ascii_alphanumeric() && c != '-' {
            return Some(format!(
                "contains {}: a DNS name has only letters, digits and hyphens (UseSTD3ASCIIRules)",
                describe(c)
            ));
        }
    }
    for &c in &chars {
        if c.is_ascii() || c == '\u{200C}' || c == '\u{200D}' {
            continue;
        }
        // Each character alone, in a context where it can be valid: a combining mark after a
        // letter, an Arabic digit after an Arabic letter.
        let probe = if is_combining_mark(c) {
            format!("a{c}")
        } else if bidi_class(c) == BidiClass::AN {
            format!("\u{0628}{c}")
        } else {
            c.to_string()
        };
        if label_to_ascii(&probe).is_err() {
            return Some(format!(
                "contains {}, a character IDNA does not allow in domain names (UTS #46 status disallowed)",
                describe(c)
            ));
        }
    }
    if let Some(&first) = chars.first()
        && is_combining_mark(first)
    {
        return Some(format!(
            "starts with the combining mark {} (UTS #46 validity criteria)",
            describe(first)
        ));
    }
    if let Some(&j) = chars.iter().find(|&&c| c == '\u{200C}' || c == '\u{200D}') {
        let without: String = chars
            .iter()
            .filter(|&&c| c != '\u{200C}' && c != '\u{200D}')
            .collect();
        if label_to_ascii(&without).is_ok() {
            return Some(format!(
                "contains {} where IDNA does not allow it: a joiner must follow a virama, and U+200C may also sit between joining Arabic-script letters (CheckJoiners; RFC 5892 Appendix A.1, A.2)",
                describe(j)
            ));
        }
    }
    if is_rtl_label(label)
        && let Some(problem) = bidi_rule(label)
    {
        return Some(format!(
            "breaks the bidi rule of RFC 5893 (UTS #46 CheckBidi): {problem}"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_diagnosed() {
        assert!(
            diagnose_label("-a")
                .unwrap()
                .contains("starts with a hyphen")
        );
        assert!(
            diagnose_label("ab--c")
                .unwrap()
                .contains("third and fourth")
        );
        assert!(diagnose_label("a_b").unwrap().contains("U+005F LOW LINE"));
        assert!(diagnose_label("xn--zz").unwrap().contains("Punycode"));
        assert!(diagnose_label("xn--abc-").unwrap().contains("ASCII-only"));
        assert!(diagnose_label("a\u{5D0}").unwrap().contains("rule 5"));
        assert!(
            diagnose_label("\u{301}a")
                .unwrap()
                .contains("combining mark")
        );
        assert!(diagnose_label("a\u{200D}b").unwrap().contains("U+200D"));
        assert!(diagnose_label("xn--a").unwrap().contains("U+0080"));
        assert_eq!(diagnose_label("b\u{FC}cher"), None);
    }

    /// The one-scan answer for LDH names is ToASCII's: equal on every name it can decide (no
    /// label with `--` in its third and fourth positions), and never "valid" where ToASCII says
    /// no.
    #[test]
    fn plainly_valid_agrees_with_to_ascii() {
        let mut names: Vec<String> = vec![String::new()];
        // Every name of up to five characters over letters of both cases, a digit, `-`, `.`
        // and `_`.
        let alphabet = ['a', 'Z', '0', '-', '.', '_'];
        let mut shorter = vec![String::new()];
        for _ in 0..5 {
            shorter = shorter
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            names.extend(shorter.iter().cloned());
        }
        let label = |n: usize| "a".repeat(n);
        let name_of = |n: usize| {
            // Labels of 63 and a last one to make `n` octets.
            let mut s = String::new();
            while n - s.len() > 64 {
                s.push_str(&label(63));
                s.push('.');
            }
            s.push_str(&label(n - s.len()));
            s
        };
        for n in [62, 63, 64, 65, 200] {
            names.push(label(n));
            names.push(format!("www.{}.com", label(n)));
            names.push(format!("{}.", label(n)));
        }
        for n in [250, 252, 253, 254, 255, 300] {
            names.push(name_of(n));
            names.push(format!("{}.", name_of(n)));
            names.push(format!("{}..", name_of(n)));
        }
        for n in [
            "example.org",
            "Example.ORG",
            "www.example.com.",
            "a-b.c-d.e",
            "-ab.com",
            "ab-.com",
            "ab--cd.com",
            "a--b.com",
            "abc--d.com",
            "xn--.com",
            "xn--bcher-kva.example",
            "XN--BCHER-KVA.example",
            "xn--abc-.com",
            "xn--a.com",
            "xn--zz.com",
            "xn--ls8h.la",
            "xn--mgbh0fb.xn--kgbechtv",
            "1.2.3.4",
            "1.2.3.4.",
            "256.256.256.256",
            "0x7f.1",
            "123",
            "localhost",
            "a..b",
            ".a",
            "..",
            ".",
            "a.b..",
            "under_score.com",
            "a b.com",
            "a+b.com",
            "a!b.com",
            "a$b.com",
            "a*b.com",
            "a,b.com",
            "a;b.com",
            "a=b.com",
            "a~b.com",
            "a'b.com",
            "a(b).com",
            "a&b.com",
            "a%41.com",
            "a:b.com",
            "a@b.com",
            "a/b.com",
            "a\\b.com",
            "a\u{7F}b.com",
            "a\u{0}b.com",
            "a\tb.com",
        ] {
            names.push(n.to_string());
        }
        let mut decided = 0;
        for name in &names {
            let dashes = name
                .split('.')
                .any(|l| l.len() >= 4 && &l.as_bytes()[2..4] == b"--");
            for root_dot in [true, false] {
                let fast = plainly_valid(name.as_bytes(), root_dot);
                let full = to_ascii(name, root_dot).is_ok();
                assert!(
                    !fast || full,
                    "{name:?} (root dot {root_dot}): valid only by the fast path"
                );
                if !dashes {
                    assert_eq!(fast, full, "{name:?} (root dot {root_dot})");
                }
                decided += usize::from(fast);
            }
        }
        // The fast path decides the ordinary names, not only the invalid ones.
        assert!(decided > 1000, "{decided}");
        assert!(plainly_valid(b"Example.ORG", false));
        assert!(plainly_valid(b"www.example.com.", true));
        assert!(!plainly_valid(b"www.example.com.", false));
    }

    /// [`valid_as_written`] for the name `name` (all of a text).
    fn valid_by_idna2008(name: &str, root_dot: bool) -> bool {
        let labels = DnsLabels::new(name, 0..name.len());
        valid_as_written(name, 0..name.len(), &labels, root_dot)
    }

    /// What `idn-not-registrable` asks of a name UTS #46 accepts instead of ToASCII: the same
    /// answer, on names around every length limit, with root dots, empty labels, wide dots,
    /// capitals, `xn--` labels and labels whose Punycode overflows.
    #[test]
    fn fits_dns_answers_as_to_ascii_on_names_uts46_accepts() {
        let mut labels: Vec<String> = vec![
            String::new(),
            "A".into(),
            "xn--e1afmkfd".into(),
            "\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}".into(),
            "b\u{FC}cher".into(),
            "\u{10FFFF}\u{80}".repeat(40),
        ];
        for n in [1, 55, 56, 57, 58, 59, 62, 63, 64] {
            labels.push("a".repeat(n));
            labels.push("\u{E9}".repeat(n));
            labels.push(format!("{}\u{E9}", "a".repeat(n)));
            labels.push(format!("{}\u{4E2D}", "B".repeat(n.saturating_sub(4))));
        }
        let mut tested = 0;
        let mut fit = 0;
        for (i, first) in labels.iter().enumerate() {
            for (j, second) in labels.iter().enumerate() {
                for (k, dot) in [".", "\u{3002}", ".", "\u{FF0E}"].iter().enumerate() {
                    // One to five labels, up to a few past 253 octets in all.
                    let mut name = format!("{first}{dot}{second}");
                    for _ in 0..(i + j + k) % 4 {
                        name = format!("{name}.{}", labels[(i * 7 + j) % labels.len()]);
                    }
                    for tail in ["", ".", "..", ".com", ".com."] {
                        let name = format!("{name}{tail}");
                        let (mapped, result) =
                            UTS46.to_unicode(name.as_bytes(), AsciiDenyList::STD3, Hyphens::Check);
                        if result.is_err() {
                            continue;
                        }
                        for root_dot in [false, true] {
                            let fits = fits_dns(&mapped, root_dot);
                            assert_eq!(
                                fits,
                                to_ascii(&name, root_dot).is_ok(),
                                "{name:?} root dot {root_dot}"
                            );
                            tested += 1;
                            fit += usize::from(fits);
                        }
                    }
                }
            }
        }
        // Both answers are met many times.
        assert!(fit > 1000 && tested - fit > 1000, "{fit} of {tested}");
    }

    /// The length counted is the length of the Punycode written, on labels of every kind of
    /// code point, long labels, and labels that overflow.
    #[test]
    fn punycode_len_is_the_length_written() {
        let mut labels: Vec<String> = Vec::new();
        for c in ('\u{80}'..='\u{10FFFF}').step_by(97) {
            labels.push(format!("{c}"));
            labels.push(format!("ab{c}c{c}\u{E9}"));
        }
        for n in [1, 2, 5, 10, 20, 40, 63, 100, 1000] {
            labels.push("\u{436}".repeat(n));
            labels.push("\u{10FFFF}\u{80}".repeat(n));
            labels.push(format!("{}x\u{4E2D}", "a".repeat(n)));
            labels.push(
                (0..n)
                    .map(|k| char::from_u32(0x400 + (k as u32 * 7919) % 0x7000).unwrap_or('x'))
                    .collect(),
            );
        }
        for l in [
            "g\u{43E}\u{43E}gle",
            "b\u{FC}cher",
            "\u{5D0}\u{5D1}",
            "\u{1F600}",
            "a",
        ] {
            labels.push(l.to_string());
        }
        for l in &labels {
            assert_eq!(
                punycode_len(l),
                idna::punycode::encode_str(l).map(|p| p.len()),
                "{l:?}"
            );
        }
    }

    /// The answer IDNA2008's check gives `idn-invalid` is ToASCII's wherever it gives one: on a
    /// label of each code point IDNA2008 allows, alone, after a Latin letter and before a label,
    /// and on names of the kinds the check leaves to ToASCII or decides by their lengths.
    #[test]
    fn valid_as_written_is_never_valid_where_to_ascii_says_no() {
        use crate::iri::idna2008::property::{DerivedProperty, derived_property};
        let mut decided = 0usize;
        let check = |name: &str| {
            let mut decided = 0usize;
            for root_dot in [true, false] {
                if valid_by_idna2008(name, root_dot) {
                    decided += 1;
                    assert!(
                        to_ascii(name, root_dot).is_ok(),
                        "{name:?} (root dot {root_dot}): valid only by IDNA2008's answer"
                    );
                }
            }
            decided
        };
        for c in ('\u{80}'..='\u{10FFFF}').filter(|&c| {
            matches!(
                derived_property(c),
                DerivedProperty::Pvalid | DerivedProperty::ContextO | DerivedProperty::ContextJ
            )
        }) {
            decided += check(&format!("{c}"));
            decided += check(&format!("a{c}"));
            decided += check(&format!("{c}b.com"));
        }
        let all_of_them = decided;
        assert!(all_of_them > 100_000, "{all_of_them}");
        let cyr = "\u{441}\u{43B}\u{43E}\u{432}\u{43E}";
        let label = |n: usize| "\u{436}".repeat(n);
        let mut names: Vec<String> = Vec::new();
        for n in [1, 5, 9, 10, 11, 12, 20, 30, 31, 60, 62, 63, 64, 200] {
            names.push(label(n));
            names.push(format!("{}.", label(n)));
            names.push(format!("www.{}.com", label(n)));
            names.push(format!("a{}", label(n)));
            names.push(format!("{}{}", "a".repeat(n), "\u{436}"));
        }
        for labels in [3, 20, 21, 22, 23, 24, 25, 26, 30] {
            // Names of about 253 octets: labels of ten Cyrillic letters (`xn--` and 11 octets).
            let many = vec![label(10); labels].join(".");
            names.push(many.clone());
            names.push(format!("{many}."));
            names.push(format!("{many}.a"));
            names.push(format!("{many}.abcdefgh"));
        }
        for n in [
            cyr,
            "\u{441}\u{43B}\u{43E}\u{432}\u{43E}.com.",
            "\u{441}\u{43B}\u{43E}\u{432}\u{43E}..com",
            ".\u{441}\u{43B}\u{43E}",
            "\u{441}\u{3002}com",
            "\u{441}\u{FF0E}com",
            "\u{441}\u{FF61}com",
            "\u{441}\u{3002}",
            "g\u{43E}\u{43E}gle.com",
            "G\u{43E}\u{43E}gle.com",
            "b\u{FC}cher.de",
            "bu\u{308}cher.de",
            "\u{308}bc.de",
            "a\u{E9}--b.com",
            "\u{E9}--b.com",
            "ab--\u{E9}.com",
            "\u{E9}-.com",
            "-\u{E9}.com",
            "xn--bcher-kva.\u{E9}",
            "xn--.\u{E9}",
            "stra\u{DF}e.de",
            "\u{3C2}\u{3B1}.gr",
            "\u{FB01}x.com",
            "\u{FF41}b.com",
            "\u{5D0}\u{5D1}.com",
            "\u{5D0}\u{5D1}.a1",
            "\u{5D0}1\u{5D1}.com",
            "1\u{5D0}.com",
            "\u{5D0}a.com",
            "\u{627}\u{661}\u{6F1}.com",
            "\u{915}\u{94D}\u{200D}\u{937}.in",
            "\u{915}\u{200D}\u{937}.in",
            "\u{628}\u{200C}\u{628}.ir",
            "a\u{200C}b.com",
            "l\u{B7}l.cat",
            "a\u{B7}b.cat",
            "\u{375}\u{3B1}.gr",
            "\u{3B1}\u{375}.gr",
            "\u{5D0}\u{5F4}.il",
            "\u{30FB}\u{30A2}.jp",
            "a\u{30FB}b.jp",
            "\u{660}\u{6F0}.com",
            "\u{1100}\u{1161}.kr",
            "\u{AC00}.kr",
            "\u{E0001}a.com",
            "a\u{FFF0}b.com",
            "\u{1F600}.com",
            "a\u{2764}.com",
            "\u{430}_b.com",
            "\u{430} b.com",
        ] {
            names.push(n.to_string());
        }
        for name in &names {
            decided += check(name);
        }
        // Ordinary Unicode names are decided here, not left to ToASCII.
        assert!(decided - all_of_them > 60, "{}", decided - all_of_them);
        assert!(valid_by_idna2008(cyr, false));
        assert!(valid_by_idna2008(&format!("{cyr}.com."), true));
        assert!(!valid_by_idna2008(&format!("{cyr}.com."), false));
    }
}

#[cfg(test)]
mod invisible_tests {
    use crate::rules::{Selection, check};

    fn rules_of(iri: &str) -> Vec<&'static str> {
        check(iri, &Selection::default())
            .iter()
            .map(|f| f.rule.id)
            .collect()
    }

    /// A character `invisible-character` reports (a variation selector or tag character,
    /// outside `ucschar`) does not hide the rest of the host from `idn-invalid`.
    #[test]
    fn an_invisible_invalid_character_does_not_silence_the_host() {
        let rules = rules_of("http://a\u{93926}.b\u{E012F}.com/");
        assert!(rules.contains(&"idn-invalid"), "{rules:?}");
        assert!(rules.contains(&"invisible-character"), "{rules:?}");
        // Alone, it is reported once, by `invisible-character`.
        assert_eq!(
            rules_of("http://ab.b\u{E0041}.com/"),
            ["invisible-character"]
        );
        assert_eq!(
            rules_of("http://ab.b\u{E012F}.com/"),
            ["invisible-character"]
        );
    }
}
