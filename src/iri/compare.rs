//! RFC 3987 §5.3: the comparison ladder, as a normal form per rung.
//!
//! Two IRIs are equivalent at a [`Level`] when their [`normalize`]d forms are identical
//! character by character. Each normal form is idempotent and is itself an IRI reference.
//!
//! - [`Level::Simple`] (§5.3.1) is the input itself. It is never mapped to a URI, which would
//!   create spurious equivalences.
//! - [`Level::Syntax`] (§5.3.2) applies, per component:
//!   - **case** (§5.3.2.1): the scheme in lowercase, the hex digits of percent-encodings in
//!     uppercase, the host's ASCII letters in lowercase. RFC 3986 §3.2.2 makes the host
//!     case-insensitive, and for an ASCII-only host this is §5.3.2.1's rule. Non-ASCII letters
//!     of a host are left to IDNA at the scheme level, as §5.3.2.1 says.
//!   - **percent-encoding** (§5.3.2.3): a percent-encoded `unreserved` character is decoded.
//!     What IRIs add is that their unreserved characters are `iunreserved`, so strictly legal
//!     UTF-8 for a `ucschar` is decoded too (`ros%C3%A9` = `rosé`). The one exception is a
//!     character unsafe to display (bidi formatting, invisible, control-like, private use),
//!     which is kept encoded, and encoded when written raw. Both spellings map to the same URI
//!     under §3.1, and this way a normal form never hides a character from whoever reads it.
//!     Reserved characters, `%25` and octets that are not UTF-8 stay encoded.
//!   - **character normalization** (§5.3.2.2): none. "Equivalence of IRIs MUST rely on the
//!     assumption that IRIs are appropriately pre-character-normalized rather than apply
//!     character normalization when comparing two IRIs": `e` + U+0301 and `é` (raw or
//!     percent-encoded) stay different at every rung, as their URIs are (§3.1 step 1c). The
//!     exception §5.3.2.2 names, conversion from a legacy encoding, belongs to whoever reads
//!     the legacy text (`equivalent-variants` spells such IRIs in NFC first), and `not-nfc`
//!     reports IRIs that are not in NFC.
//!   - **dot segments** (§5.3.2.4): `remove_dot_segments` (RFC 3986 §5.2.4) when the reference
//!     has a scheme or its path starts with `/`, which is exactly when reference resolution
//!     (RFC 3986 §5.2.2) applies it to the reference's own path. A relative-path reference
//!     (`../a`) keeps its dot segments: its meaning depends on the base, and §5.1 asks to
//!     resolve relative references before comparing them. If removal would start a path with
//!     `//` without an authority, the path gets a leading `/.` so that it is not read as one.
//! - [`Level::Scheme`] (§5.3.3) adds, for the schemes in
//!   [`DNS_SCHEMES`](super::to_uri::DNS_SCHEMES): the default port removed (http and ws 80,
//!   https and wss 443, ftp 21; leading zeros do not count), an empty path after an authority
//!   written `/`, and the host in its Unicode form. The host, with its percent-encoded UTF-8
//!   decoded, goes through UTS #46 ToUnicode, which decodes punycode, maps case, applies NFC and
//!   drops the characters IDNA ignores, as a resolver would. So `xn--rsum-bpad`, `RÉSUMÉ` and
//!   `r%C3%A9sum%C3%A9` all become `résumé`. §5.3.3 wants IDNs validated and nameprepped but,
//!   "for legibility purposes", not converted into ACE. A host that ToUnicode rejects keeps its
//!   syntax-based form, so it equals only its own spellings. For every scheme, an empty port
//!   (`http://a:/`) is removed (RFC 3986 §3.2.3). Delimiters of other empty components stay
//!   (`http://example.com/?` is not `http://example.com/`). The fragment gets no scheme-based
//!   normalization.
//!
//! A string that is not an IRI reference is returned unchanged at every level. The ladder's
//! equivalences are defined on the grammar's components, and guessing the components of a
//! malformed string could equate different strings, while §5.1 asks comparison to avoid false
//! positives strictly. [`normalize`] never fails and never panics. For an ASCII IRI without
//! percent-encodings and without punycode labels it does no Unicode work at all.

use idna::uts46::{AsciiDenyList, Hyphens, Uts46};

use super::chars;
use super::percent::push_encoded;
use super::percent::{self, Decoded};
use super::to_uri::uses_dns;
use super::{HostKind, Iri, analyze};

/// A rung of the comparison ladder (RFC 3987 §5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// §5.3.1 simple string comparison: character by character.
    Simple,
    /// §5.3.2 syntax-based normalization: case, percent-encoding, dot segments (no character
    /// normalization: §5.3.2.2).
    Syntax,
    /// §5.3.3 scheme-based normalization: syntax-based, plus default ports, empty paths and IDNs.
    Scheme,
}

impl Level {
    /// Every level, from the cheapest.
    pub const ALL: [Level; 3] = [Level::Simple, Level::Syntax, Level::Scheme];

    /// The lowercase name used on the command line and in JSON (`"syntax"`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Simple => "simple",
            Level::Syntax => "syntax",
            Level::Scheme => "scheme",
        }
    }

    /// What it compares by, in words (`"syntax-based normalization"`).
    pub fn description(self) -> &'static str {
        match self {
            Level::Simple => "simple string comparison",
            Level::Syntax => "syntax-based normalization",
            Level::Scheme => "scheme-based normalization",
        }
    }

    /// The RFC 3987 section that defines it (`"5.3.2"`).
    pub fn section(self) -> &'static str {
        match self {
            Level::Simple => "5.3.1",
            Level::Syntax => "5.3.2",
            Level::Scheme => "5.3.3",
        }
    }
}

/// Whether `a` and `b` are equivalent at `level`: their normal forms are identical.
pub fn equivalent(a: &str, b: &str, level: Level) -> bool {
    a == b || normalize(a, level) == normalize(b, level)
}

/// The normal form of `iri` at `level`; a string that is not an IRI reference is returned as it
/// is (see the module documentation).
pub fn normalize(iri: &str, level: Level) -> String {
    if level == Level::Simple {
        return iri.to_owned();
    }
    normalize_parsed(iri, &analyze(iri), level)
}

/// [`normalize`] for an IRI already parsed with [`analyze`], so that a caller that has parsed it
/// (the linter) does not parse it twice.
pub fn normalize_parsed(iri: &str, parsed: &Iri, level: Level) -> String {
    if level == Level::Simple || !parsed.is_valid() {
        return iri.to_owned();
    }
    let scheme_level = level == Level::Scheme;
    let scheme = parsed
        .scheme
        .as_ref()
        .map(|r| iri[r.clone()].to_ascii_lowercase());
    let dns = scheme_level && scheme.as_deref().is_some_and(uses_dns);

    let mut out = String::with_capacity(iri.len() + 8);
    if let Some(s) = &scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(authority) = &parsed.authority {
        out.push_str("//");
        if let Some(u) = &authority.userinfo {
            normalize_text(&iri[u.clone()], Text::Other, &mut out);
            out.push('@');
        }
        push_host(iri, parsed, dns, &mut out);
        if let Some(p) = &authority.port {
            let port = &iri[p.clone()];
            let kept = if scheme_level {
                scheme_port(scheme.as_deref(), port)
            } else {
                Some(port)
            };
            if let Some(kept) = kept {
                out.push(':');
                out.push_str(kept);
            }
        }
    }
    let path = &iri[parsed.path.clone()];
    if dns && parsed.authority.is_some() && path.is_empty() {
        out.push('/');
    } else {
        let mut text = String::with_capacity(path.len());
        normalize_text(path, Text::Other, &mut text);
        if parsed.scheme.is_some() || text.starts_with('/') {
            let removed = remove_dot_segments(&text);
            if parsed.authority.is_none() && removed.starts_with("//") {
                out.push_str("/.");
            }
            out.push_str(&removed);
        } else {
            out.push_str(&text);
        }
    }
    if let Some(q) = &parsed.query {
        out.push('?');
        normalize_text(&iri[q.clone()], Text::Other, &mut out);
    }
    if let Some(f) = &parsed.fragment {
        out.push('#');
        normalize_text(&iri[f.clone()], Text::Other, &mut out);
    }
    out
}

/// The port a scheme-normalized IRI keeps: `None` when it is empty or the scheme's default.
fn scheme_port<'a>(scheme: Option<&str>, port: &'a str) -> Option<&'a str> {
    if port.is_empty() {
        return None;
    }
    let Some(default) = scheme.and_then(default_port) else {
        return Some(port);
    };
    // For these schemes the port is a number, so `080` is `80`.
    let digits = port.trim_start_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    (digits != default).then_some(digits)
}

/// The default port of the schemes in [`DNS_SCHEMES`](super::to_uri::DNS_SCHEMES).
fn default_port(scheme: &str) -> Option<&'static str> {
    match scheme {
        "http" | "ws" => Some("80"),
        "https" | "wss" => Some("443"),
        "ftp" => Some("21"),
        _ => None,
    }
}

/// The UTS #46 implementation (its data is compiled in, so constructing it costs nothing).
const UTS46: Uts46 = Uts46::new();

/// Appends the normalized host: syntax-based for every host, and the ToUnicode form for a DNS
/// name at the scheme level.
fn push_host(iri: &str, parsed: &Iri, dns: bool, out: &mut String) {
    let Some(authority) = &parsed.authority else {
        return;
    };
    let host = &authority.host;
    let text = &iri[host.range.clone()];
    match host.kind {
        Some(HostKind::RegName) => {}
        // IP literals and IPv4 addresses are ASCII; RFC 3986 §3.2.2 makes them
        // case-insensitive too (hex digits, the `v` of IPvFuture).
        _ => {
            out.push_str(&text.to_ascii_lowercase());
            return;
        }
    }
    if dns && let Some(unicode) = dns_unicode(text) {
        out.push_str(&unicode);
    } else {
        normalize_text(text, Text::Host, out);
    }
}

/// The ToUnicode form of a DNS host, with the characters a normal form keeps encoded encoded;
/// `None` for an ASCII name without punycode (ToUnicode would only lowercase it) and for a name
/// that ToUnicode rejects.
///
/// ToUnicode sees the host with its percent-encoded UTF-8 decoded, invisible characters included:
/// UTS #46 ignores some of them (U+200B ZERO WIDTH SPACE), and the DNS then sees the same name as
/// without them, so the normal forms must agree with what a resolver does.
fn dns_unicode(host: &str) -> Option<String> {
    if host.is_ascii() && !host.contains('%') && !has_punycode_label(host) {
        return None;
    }
    let mut raw = String::with_capacity(host.len());
    let mut copied = 0;
    for run in percent::runs(host) {
        raw.push_str(&host[copied..run.start]);
        for piece in percent::decode(host, run.clone()) {
            match piece.decoded {
                Decoded::Char(c) if !c.is_ascii() || chars::is_unreserved(c as u8) => raw.push(c),
                _ => raw.push_str(&host[piece.range]),
            }
        }
        copied = run.end;
    }
    raw.push_str(&host[copied..]);
    if raw.is_empty() || (raw.is_ascii() && !has_punycode_label(&raw)) {
        return None;
    }
    let (unicode, result) =
        UTS46.to_unicode(raw.as_bytes(), AsciiDenyList::STD3, Hyphens::CheckFirstLast);
    result.ok()?;
    let mut canonical = String::with_capacity(unicode.len());
    push_raw(&unicode, &mut canonical);
    // ToUnicode can map a name to an IPv4 address (fullwidth digits), which is fine; anything
    // that is not a host keeps the syntax-based form.
    let reparsed = analyze(&format!("//{canonical}"));
    let is_host = reparsed.is_valid()
        && reparsed
            .authority
            .as_ref()
            .is_some_and(|a| a.host.range.len() == canonical.len() && a.port.is_none());
    is_host.then_some(canonical)
}

/// Whether a label of `host` starts with the ACE prefix `xn--` (any case).
fn has_punycode_label(host: &str) -> bool {
    host.split('.').any(|label| {
        label
            .get(..4)
            .is_some_and(|p| p.eq_ignore_ascii_case("xn--"))
    })
}

/// Which component a piece of text comes from: a host's ASCII letters are case-insensitive.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Text {
    Host,
    Other,
}

/// Syntax-based normalization of one component's text: percent-encodings (§5.3.2.3) with
/// uppercase hex (§5.3.2.1) and the host's ASCII letters lowercase; never NFC (§5.3.2.2).
fn normalize_text(s: &str, text: Text, out: &mut String) {
    if s.is_ascii() && !s.contains('%') {
        match text {
            Text::Host => out.extend(s.chars().map(|c| c.to_ascii_lowercase())),
            Text::Other => out.push_str(s),
        }
        return;
    }
    let mut t = String::with_capacity(s.len());
    canonical_encoding(s, &mut t);
    if text == Text::Host {
        percent::lowercase_outside_triplets(&mut t);
    }
    out.push_str(&t);
}

/// Whether a non-ASCII character appears raw in a normal form (otherwise it is percent-encoded).
fn raw_in_normal_form(c: char) -> bool {
    chars::is_ucschar(c) && !chars::is_unsafe_to_display(c)
}

/// Decodes the percent-encoded characters that a normal form writes raw and encodes the raw
/// characters it writes encoded; every other triplet gets uppercase hex.
fn canonical_encoding(s: &str, out: &mut String) {
    let mut copied = 0;
    for run in percent::runs(s) {
        push_raw(&s[copied..run.start], out);
        for piece in percent::decode(s, run.clone()) {
            match piece.decoded {
                Decoded::Char(c) if c.is_ascii() && chars::is_unreserved(c as u8) => out.push(c),
                Decoded::Char(c) if !c.is_ascii() && raw_in_normal_form(c) => out.push(c),
                _ => out.push_str(&s[piece.range].to_ascii_uppercase()),
            }
        }
        copied = run.end;
    }
    push_raw(&s[copied..], out);
}

/// Appends raw text, percent-encoding the non-ASCII characters a normal form keeps encoded.
fn push_raw(s: &str, out: &mut String) {
    for c in s.chars() {
        if c.is_ascii() || raw_in_normal_form(c) {
            out.push(c);
        } else {
            push_encoded(c, out);
        }
    }
}

/// RFC 3986 §5.2.4 `remove_dot_segments`, on a path whose dot segments are spelled with dots.
pub fn remove_dot_segments(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut input = path;
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            input = rest;
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest;
        } else if input.starts_with("/./") {
            input = &input[2..];
        } else if input == "/." {
            input = "/";
        } else if input.starts_with("/../") {
            input = &input[3..];
            pop_segment(&mut out);
        } else if input == "/.." {
            input = "/";
            pop_segment(&mut out);
        } else if input == "." || input == ".." {
            input = "";
        } else {
            let skip = usize::from(input.starts_with('/'));
            let end = input[skip..].find('/').map_or(input.len(), |k| k + skip);
            out.push_str(&input[..end]);
            input = &input[end..];
        }
    }
    out
}

/// Removes the last segment and its preceding `/` (if any) from the output buffer.
fn pop_segment(out: &mut String) {
    match out.rfind('/') {
        Some(k) => out.truncate(k),
        None => out.clear(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remove_dot_segments_follows_rfc_3986() {
        // RFC 3986 §5.2.4's two walk-throughs, and the edges.
        assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
        assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
        assert_eq!(remove_dot_segments("/.."), "/");
        assert_eq!(remove_dot_segments("/a/.."), "/");
        assert_eq!(remove_dot_segments("/a/."), "/a/");
        assert_eq!(remove_dot_segments("../../x"), "x");
        assert_eq!(remove_dot_segments("/a/..//b"), "//b");
        assert_eq!(remove_dot_segments("/..a/.b./"), "/..a/.b./");
        // The paths of RFC 3986 §5.4's examples.
        for (path, want) in [
            ("/b/c/./g", "/b/c/g"),
            ("/b/c/g/.", "/b/c/g/"),
            ("/b/c/..", "/b/"),
            ("/b/c/../..", "/"),
            ("/../g", "/g"),
            ("/./../..", "/"),
            ("/b/c/g..", "/b/c/g.."),
            ("/b/c/.g", "/b/c/.g"),
            ("/b/./g/.", "/b/g/"),
            ("/a//../b", "/a/b"),
        ] {
            assert_eq!(remove_dot_segments(path), want, "{path}");
        }
    }

    #[test]
    fn dot_segments_only_where_resolution_removes_them() {
        let syntax = |s: &str| normalize(s, Level::Syntax);
        assert_eq!(syntax("http://a/b/%2E%2E/c"), "http://a/c");
        assert_eq!(syntax("/a/./b/../c"), "/a/c");
        assert_eq!(syntax("//h/a/../b"), "//h/b");
        assert_eq!(syntax("../a/./b"), "../a/./b");
        assert_eq!(syntax("a/../b"), "a/../b");
        // A path that would turn into an authority keeps a `/.` in front.
        assert_eq!(syntax("http:/a/..//b"), "http:/.//b");
        assert_eq!(syntax("/a/..//b"), "/.//b");
        assert_eq!(syntax("http://h/a/..//b"), "http://h//b");
    }

    #[test]
    fn every_dns_scheme_has_a_default_port() {
        for scheme in crate::iri::to_uri::DNS_SCHEMES {
            assert!(default_port(scheme).is_some(), "{scheme}");
        }
    }

    #[test]
    fn ports() {
        let scheme = |s: &str| normalize(s, Level::Scheme);
        assert_eq!(scheme("HTTPS://a:0443/"), "https://a/");
        assert_eq!(scheme("http://a:8080"), "http://a:8080/");
        assert_eq!(scheme("http://a:0080/"), "http://a/");
        assert_eq!(scheme("http://a:000/"), "http://a:0/");
        assert_eq!(scheme("ftp://a:21"), "ftp://a/");
        assert_eq!(scheme("ws://a:443/"), "ws://a:443/");
        assert_eq!(scheme("foo://a:/x"), "foo://a/x");
        assert_eq!(scheme("foo://a:080/x"), "foo://a:080/x");
        assert_eq!(scheme("foo://a"), "foo://a");
        assert_eq!(normalize("http://a:80/", Level::Syntax), "http://a:80/");
    }

    #[test]
    fn character_normalization_is_never_applied() {
        // §5.3.2.2: "Equivalence of IRIs MUST rely on the assumption that IRIs are
        // appropriately pre-character-normalized rather than apply character normalization".
        let syntax = |s: &str| normalize(s, Level::Syntax);
        let scheme = |s: &str| normalize(s, Level::Scheme);
        assert_eq!(syntax("http://a/e\u{301}"), "http://a/e\u{301}");
        assert_eq!(syntax("http://a/e%CC%81"), "http://a/e\u{301}");
        assert_eq!(
            scheme("http://a/e%cc%81?x=\u{212B}"),
            "http://a/e\u{301}?x=\u{212B}"
        );
        assert_eq!(syntax("http://a/?x=\u{338}"), "http://a/?x=\u{338}");
        assert_eq!(syntax("foo://\u{212A}/\u{212A}"), "foo://\u{212A}/\u{212A}");
        assert!(!equivalent(
            "http://h/e%CC%81",
            "http://h/%C3%A9",
            Level::Scheme
        ));
    }

    #[test]
    fn unsafe_characters_are_encoded_in_normal_forms() {
        let syntax = |s: &str| normalize(s, Level::Syntax);
        assert_eq!(syntax("http://a/\u{202E}x"), "http://a/%E2%80%AEx");
        assert_eq!(syntax("http://a/%e2%80%aex"), "http://a/%E2%80%AEx");
        assert_eq!(syntax("http://a/?\u{E000}"), "http://a/?%EE%80%80");
        assert_eq!(syntax("http://a/%fc%2f%41"), "http://a/%FC%2FA");
    }

    #[test]
    fn hosts() {
        let scheme = |s: &str| normalize(s, Level::Scheme);
        assert_eq!(
            scheme("http://XN--RSUM-BPAD.Example.ORG"),
            "http://résumé.example.org/"
        );
        assert_eq!(
            scheme("http://RÉSUMÉ.example.org/"),
            "http://résumé.example.org/"
        );
        assert_eq!(
            scheme("http://r%C3%A9sum%C3%A9.example.org/"),
            "http://résumé.example.org/"
        );
        // Not a DNS scheme: only ASCII letters are case-folded.
        assert_eq!(scheme("foo://RÉSUMÉ.Example/"), "foo://rÉsumÉ.example/");
        // ToUnicode rejects it (STD3): the host stays as syntax normalization left it.
        assert_eq!(
            scheme("http://A_b.xn--rsum-bpad/"),
            "http://a_b.xn--rsum-bpad/"
        );
        assert_eq!(scheme("http://[::A]:80"), "http://[::a]/");
    }

    #[test]
    fn invalid_input_is_returned_as_it_is() {
        for level in Level::ALL {
            assert_eq!(normalize("HTTP://a b/%7e", level), "HTTP://a b/%7e");
            assert_eq!(normalize("", level), "");
        }
    }
}
