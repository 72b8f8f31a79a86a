//! What a reader of plain text sees around and inside an IRI that is not part of it: an
//! AsciiDoc macro's `[…]`, the `[optional]` parts of a usage synopsis, printf conversions and
//! URI Template expressions.
//!
//! Decided here (see the module doc of [`super::text`] for the whole of plain-text detection):
//! - A `[…]` after the scheme that is not an IP literal (`http://[2001:db8::1]/`) and reads like
//!   an optional piece of an IRI — it starts with `/ : ? # . & ;` or ends with `@ : /`
//!   (`http://[user@]machine/path`, `http://host[:port]/x`, `http://host[/path]`) — is an
//!   optional part of a synopsis: a placeholder. Any other `[` that is not closed, or whose `]`
//!   ends the IRI, ends the IRI before it: `https://github.com/newren/git-filter-repo[`filter-repo`]`
//!   is an AsciiDoc URL macro whose IRI ends at `[`, and so is `https://example.org[Example site]`.
//!   Other brackets inside an IRI (`/a[1]/b`) stay its characters and are reported.
//! - A printf conversion (`%s`, `%d`, `%04d`, `%1$s`, `%(name)s`, `%.2f`) is a placeholder — only
//!   the conversions links are built with, `d i o u x s f` and Go's `q v`, so that `%GG` or `%E9` stays a broken
//!   or real percent-encoding — unless
//!   its first two characters after `%` are a percent-encoding of a printable byte (`%2d` is a
//!   `-`, `%20d` a space and a `d`); `%04d` would encode U+0004, which no one writes in a link.
//! - A URI Template expression (RFC 6570: `{id}`, `{?q,lang}`, `{/path*}`) is a placeholder.
//! - A word in the port's place (`ssh://host:port/path/to/repo`, git's release notes) is the
//!   name of a port left to the reader: a placeholder.
//!
//! Placeholder contents are ASCII by construction, so a hidden character is never inside one.

use super::template::MAX_PLACEHOLDERS;
use std::ops::Range;

/// Where the IRI `iri` found in text really ends (an offset in it): before the first `[` that
/// is neither an IP literal nor an optional part; `None` when it ends where it was found to.
pub fn macro_cut(iri: &str) -> Option<usize> {
    brackets(iri).0
}

/// The placeholders of an IRI found in plain text (its end already cut by [`macro_cut`]):
/// optional synopsis parts, printf conversions, URI Template expressions, in order.
pub fn placeholders(iri: &str) -> Vec<Range<usize>> {
    let mut out = brackets(iri).1;
    out.extend(printf(iri));
    out.extend(uri_template(iri));
    out.extend(port_word(iri));
    out.sort_by_key(|r| r.start);
    // Disjoint, the earlier one winning (`[%s]` is one optional part).
    let mut kept: Vec<Range<usize>> = Vec::new();
    for r in out {
        if kept.last().is_none_or(|k| k.end <= r.start) {
            kept.push(r);
        }
    }
    kept
}

/// The cut at an AsciiDoc macro (if any) and the optional parts, over the brackets of `iri`.
fn brackets(iri: &str) -> (Option<usize>, Vec<Range<usize>>) {
    let b = iri.as_bytes();
    let mut parts = Vec::new();
    let mut i = iri.find(':').map_or(0, |c| c + 1);
    // Which `[` nothing closes, found for all at once when the first such is met: a search for
    // the `]` from each went to the IRI's end (`[a](http://a.org/x[` repeated, in Markdown).
    let mut unclosed: Option<Vec<u64>> = None;
    // Found when the first `[` is: most IRIs have none (a search for `://` is the most of
    // this function's cost on an IRI without brackets).
    let mut authority: Option<Authority> = None;
    // The bytes between are passed over many at a time (an IRI may be megabytes long).
    while let Some(k) = memchr::memchr(b'[', &b[i..]) {
        i += k;
        let first = iri[i..].find(']').map(|k| i + k);
        crate::work::add(
            crate::work::Work::OpenerScans,
            first.map_or(b.len(), |f| f + 1) - i,
        );
        let Some(first) = first else {
            return (Some(i), parts);
        };
        // Synopses nest optional parts (`ftp://[user@]machine[[:#]port]/path`).
        let close = match &unclosed {
            Some(bits) if bits[i / 64] >> (i % 64) & 1 == 1 => first,
            Some(_) => matching_close(iri, i).unwrap_or(first),
            None => matching_close(iri, i).unwrap_or_else(|| {
                unclosed = Some(never_closed(b));
                first
            }),
        };
        let content = &iri[i + 1..close];
        let at_host_start = authority
            .get_or_insert_with(|| Authority::of(iri))
            .host_may_start(iri, i);
        if at_host_start && is_ip_literal(content) {
            i = close + 1;
            continue;
        }
        let continues = close + 1 < b.len();
        // `ftp://[user]@host/`: a bracketed word standing for the user name.
        let user = at_host_start
            && b.get(close + 1) == Some(&b'@')
            && !content.is_empty()
            && content
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-');
        if content.is_ascii() && (reads_optional(content) || user) {
            if parts.len() < MAX_PLACEHOLDERS {
                parts.push(i..close + 1);
            }
        } else if !continues {
            return (Some(i), parts);
        }
        // Otherwise (`/a[1]/b`) the brackets stay characters of the IRI, reported as such.
        i = close + 1;
    }
    (None, parts)
}

/// Whether the `[` at `open` of `iri`, closed by the `]` that ends `iri` with no `]` between
/// (so `[[…` reads as no optional part), stays in it: an IP literal, or (`ascii` when its content
/// is) an optional part of a synopsis; if not, [`macro_cut`] cuts `iri` at `open` when it is
/// the first `[` weighed. Decided without reading the content through: the IRIs of a line are
/// each cut at such a `[` before one `]` far after them.
///
/// `future` says whether content that starts with `v` is an IPvFuture literal (as
/// [`is_ip_literal`] would): its caller knows without reading it through.
pub(crate) fn kept_at_end(
    iri: &str,
    open: usize,
    ascii: bool,
    future: impl FnOnce() -> bool,
) -> bool {
    let content = &iri[open + 1..iri.len() - 1];
    let ip = at_host_start(iri, open)
        && if content.starts_with(['v', 'V']) {
            future()
        } else {
            is_ip_literal(content)
        };
    ip || (ascii && !content.starts_with('[') && reads_optional(content))
}

/// Bit `k` set for each `[` at `k` of `b` that no `]` after it closes (its depth never falls
/// back): one pass from the end, keeping the lowest depth after each byte.
fn never_closed(b: &[u8]) -> Vec<u64> {
    let step = |c: u8| match c {
        b'[' => 1,
        b']' => -1,
        _ => 0,
    };
    let mut bits = vec![0u64; b.len().div_ceil(64)];
    let mut depth: isize = b.iter().map(|&c| step(c)).sum();
    let mut lowest = depth;
    for k in (0..b.len()).rev() {
        lowest = lowest.min(depth);
        depth -= step(b[k]);
        if b[k] == b'[' && lowest > depth {
            bits[k / 64] |= 1 << (k % 64);
        }
    }
    crate::work::add(crate::work::Work::OpenerScans, 2 * b.len());
    bits
}

/// Where an IRI's authority may hold an IP literal after its userinfo: after its first `://`,
/// up to the first `/` after that.
struct Authority(Option<(usize, usize)>);

impl Authority {
    fn of(iri: &str) -> Authority {
        let slashes = iri.find("://");
        crate::work::add(
            crate::work::Work::AuthoritySearch,
            slashes.map_or(iri.len(), |k| k + 3),
        );
        Authority(slashes.map(|k| {
            let end = iri[k + 3..].find('/').map_or(iri.len(), |e| k + 3 + e);
            (k + 3, end)
        }))
    }

    /// [`at_host_start`], from what [`Authority::of`] found once for the IRI.
    fn host_may_start(&self, iri: &str, i: usize) -> bool {
        let before = &iri[..i];
        before.ends_with("://")
            || (before.ends_with('@')
                && self
                    .0
                    .is_some_and(|(start, slash)| start <= i && slash >= i))
    }
}

/// Whether bracketed `content` reads as an optional part of a synopsis: it starts with a
/// delimiter (`[:port]`, `[/path]`) or ends as a user name does (`[user@]`); one that starts
/// with a nested group reads as that group does (`[[:#]port]`).
///
/// The innermost of `r` leading groups is the text from the first byte that is no `[` up to
/// where the depth first falls back to `r - 1`, and each group is closed if the outermost is:
/// one pass, not one search per group (`[` 20,000 times then `]` as many took 0.6 s, ten times
/// as many 50 s).
fn reads_optional(content: &str) -> bool {
    let b = content.as_bytes();
    let r = b.iter().take_while(|&&c| c == b'[').count();
    let mut end = content.len();
    if r > 0 {
        let mut depth = r;
        let mut innermost = None;
        let mut scanned = b.len();
        for (k, &c) in b.iter().enumerate().skip(r) {
            match c {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == r - 1 && innermost.is_none() {
                        innermost = Some(k);
                    }
                    if depth == 0 {
                        scanned = k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        crate::work::add(crate::work::Work::OpenerScans, scanned);
        if depth > 0 {
            return false;
        }
        end = innermost.unwrap_or(r);
    }
    let inner = &content[r..end.max(r)];
    inner.starts_with(['/', ':', '?', '#', '.', '&', ';']) || inner.ends_with(['@', ':', '/'])
}

/// The `]` that closes the `[` at `open`, counting nested pairs.
fn matching_close(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &c) in s.as_bytes()[open..].iter().enumerate() {
        match c {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    crate::work::add(crate::work::Work::OpenerScans, k + 1);
                    return Some(open + k);
                }
            }
            _ => {}
        }
    }
    crate::work::add(crate::work::Work::OpenerScans, s.len() - open);
    None
}

/// True when the `[` at `i` is where an IP literal may stand: right after `://` or after the
/// userinfo's `@` in the authority.
fn at_host_start(iri: &str, i: usize) -> bool {
    let before = &iri[..i];
    if before.ends_with("://") {
        return true;
    }
    before.ends_with('@')
        && before
            .find("://")
            .is_some_and(|k| !before[k + 3..].contains('/'))
}

/// An IPv6 address (with an optional `%25` zone) or an IPvFuture, by its characters.
fn is_ip_literal(s: &str) -> bool {
    // An IPv6 address's bytes first, which stops at the first that none may be (the `/` of the
    // text after it): an IPvFuture's address may hold any.
    if !s.starts_with(['v', 'V'])
        && !s
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b":.-_~%".contains(&c))
    {
        return false;
    }
    let (addr, zone) = s.split_once("%25").unwrap_or((s, ""));
    let v6 = addr.contains(':')
        && addr
            .bytes()
            .all(|c| c.is_ascii_hexdigit() || c == b':' || c == b'.');
    let future = addr.len() > 2 && addr.starts_with(['v', 'V']) && addr.contains('.');
    (v6 || future)
        && zone
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-._~%".contains(&c))
}

/// printf conversions: `%` [argument `N$` or `(name)`] [flags] [width] [`.precision`] [length]
/// conversion, unless the `%` starts a percent-encoding of a printable byte.
pub fn printf(iri: &str) -> Vec<Range<usize>> {
    let b = iri.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // The bytes between are passed over many at a time (an IRI may be megabytes long).
    while let Some(k) = memchr::memchr(b'%', &b[i..]) {
        if out.len() >= MAX_PLACEHOLDERS {
            break;
        }
        i += k;
        let encodes_printable = b.len() > i + 2
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
            && u8::from_str_radix(&iri[i + 1..i + 3], 16).is_ok_and(|v| v >= 0x20);
        match (!encodes_printable)
            .then(|| conversion_end(b, i + 1))
            .flatten()
        {
            Some(end) => {
                out.push(i..end);
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

/// A word where the port goes (`ssh://host:port/path/to/repo`, `http://localhost:PORT/`): a
/// synopsis names the port it leaves to the reader. Letters, `_` and `-` only, at least one
/// letter; a port of digits (or anything else) is the IRI's own.
fn port_word(iri: &str) -> Option<Range<usize>> {
    let start = iri.find("://")? + 3;
    let end = iri[start..]
        .find(['/', '?', '#'])
        .map_or(iri.len(), |k| start + k);
    let authority = &iri[start..end];
    // After an IP literal's `]` and any userinfo's `@`.
    let from = authority.rfind([']', '@']).map_or(0, |k| k + 1);
    let colon = start + from + authority[from..].rfind(':')?;
    let word = &iri[colon + 1..end];
    (word.bytes().any(|c| c.is_ascii_alphabetic())
        && word
            .bytes()
            .all(|c| c.is_ascii_alphabetic() || c == b'_' || c == b'-'))
    .then_some(colon + 1..end)
}

/// The end of a printf conversion whose text after `%` starts at `at`.
fn conversion_end(b: &[u8], mut at: usize) -> Option<usize> {
    let digits = |b: &[u8], mut k: usize| {
        while k < b.len() && b[k].is_ascii_digit() {
            k += 1;
        }
        k
    };
    // Argument: `1$` or `(name)`.
    let n = digits(b, at);
    if n > at && b.get(n) == Some(&b'$') {
        at = n + 1;
    } else if b.get(at) == Some(&b'(') {
        let close = at + b[at..].iter().position(|&c| c == b')')?;
        if !b[at + 1..close]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            return None;
        }
        at = close + 1;
    }
    while at < b.len() && b"-+ #0'".contains(&b[at]) {
        at += 1;
    }
    at = digits(b, at);
    if b.get(at) == Some(&b'.') {
        at = digits(b, at + 1);
    }
    let conversion = |at: usize| {
        b.get(at)
            .filter(|c| b"diouxsfqv".contains(c))
            .map(|_| at + 1)
    };
    let length = [&b"hh"[..], b"ll", b"h", b"l", b"L", b"q", b"j", b"z", b"t"]
        .into_iter()
        .find(|length| b[at..].starts_with(length));
    // `%qd` is C's length `q`; `%q` alone is Go's quoted-string verb.
    length
        .and_then(|length| conversion(at + length.len()))
        .or_else(|| conversion(at))
}

/// RFC 6570 expressions: `{` [operator] varspec (`,` varspec)* `}`.
pub fn uri_template(iri: &str) -> Vec<Range<usize>> {
    let b = iri.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // The bytes between are passed over many at a time (an IRI may be megabytes long).
    while let Some(k) = memchr::memchr(b'{', &b[i..]) {
        if out.len() >= MAX_PLACEHOLDERS {
            break;
        }
        i += k;
        // The `}` that closes it, unless another `{` comes first: that one is looked at next
        // (a search for the `}` from each `{` of `{a{a{a…}` was quadratic: 80,000 took 0.3 s).
        let next = memchr::memchr2(b'{', b'}', &b[i + 1..]);
        crate::work::add(
            crate::work::Work::TemplateLookups,
            next.map_or(b.len() - i, |k| k + 1),
        );
        let Some(close) = next.map(|k| i + 1 + k) else {
            break;
        };
        if b[close] == b'{' {
            i = close;
            continue;
        }
        let mut body = &b[i + 1..close];
        if let Some((first, rest)) = body.split_first()
            && b"+#./;?&=,!@|".contains(first)
        {
            body = rest;
        }
        let varspecs = !body.is_empty()
            && body
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || b"_.,%*:".contains(c));
        if varspecs {
            out.push(i..close + 1);
            i = close + 1;
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`brackets`] as it was, a search from each `[` for what closes it (and a search per
    /// nested group): the oracle the one-pass reading must agree with.
    fn brackets_by_search(iri: &str) -> (Option<usize>, Vec<Range<usize>>) {
        fn optional(content: &str) -> bool {
            if content.starts_with('[') {
                return matching_close(content, 0).is_some_and(|k| optional(&content[1..k]));
            }
            content.starts_with(['/', ':', '?', '#', '.', '&', ';'])
                || content.ends_with(['@', ':', '/'])
        }
        let b = iri.as_bytes();
        let mut parts = Vec::new();
        let mut i = iri.find(':').map_or(0, |c| c + 1);
        while let Some(k) = memchr::memchr(b'[', &b[i..]) {
            i += k;
            let Some(first) = iri[i..].find(']').map(|k| i + k) else {
                return (Some(i), parts);
            };
            let close = matching_close(iri, i).unwrap_or(first);
            let content = &iri[i + 1..close];
            if at_host_start(iri, i) && is_ip_literal(content) {
                i = close + 1;
                continue;
            }
            let continues = close + 1 < b.len();
            let user = at_host_start(iri, i)
                && b.get(close + 1) == Some(&b'@')
                && !content.is_empty()
                && content
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-');
            if content.is_ascii() && (optional(content) || user) {
                if parts.len() < MAX_PLACEHOLDERS {
                    parts.push(i..close + 1);
                }
            } else if !continues {
                return (Some(i), parts);
            }
            i = close + 1;
        }
        (None, parts)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn brackets_agree_with_a_search_from_each(
            parts in proptest::collection::vec(proptest::sample::select(&[
                "[", "]", "[[", "]]", "http://", "://", "@", "/", ":", "a", "v1.", "%25", "::1",
                "x", "\u{e9}", "?", "_",
            ][..]), 0..30),
        ) {
            let iri = parts.concat();
            prop_assert_eq!(brackets(&iri), brackets_by_search(&iri), "{:?}", iri);
        }
    }

    #[test]
    fn an_iri_without_brackets_is_not_searched_for_its_authority() {
        use crate::work::{Work, measure};
        let iri = "https://example.org/a/b?c=d#e";
        assert_eq!(measure(Work::AuthoritySearch, || placeholders(iri)).1, 0);
        assert_eq!(measure(Work::AuthoritySearch, || macro_cut(iri)).1, 0);
        // One with a `[` is: its authority may hold an IP literal.
        let (found, work) = measure(Work::AuthoritySearch, || placeholders("http://[::1]/x"));
        assert!(found.is_empty() && work > 0);
    }

    #[test]
    fn nested_and_unclosed_brackets_are_read_in_one_pass() {
        for iri in [
            format!("http://a/x{}{}", "[".repeat(20_000), "]".repeat(20_000)),
            format!("http://a/x{}", "[[a]".repeat(10_000)),
            format!("http://a@{}", "[x]@".repeat(10_000)),
        ] {
            let (_, work) = crate::work::measure(crate::work::Work::OpenerScans, || brackets(&iri));
            assert!(work < 10 * iri.len() as u64, "{work} for {}", iri.len());
        }
    }

    fn found(iri: &str) -> Vec<&str> {
        placeholders(iri).into_iter().map(|r| &iri[r]).collect()
    }

    #[test]
    fn asciidoc_macros_end_the_iri() {
        let iri = "https://github.com/newren/git-filter-repo[`filter-repo`]";
        assert_eq!(macro_cut(iri), Some(iri.find('[').unwrap()));
        assert_eq!(macro_cut("https://example.org[Example"), Some(19));
        assert_eq!(macro_cut("https://example.org[]"), Some(19));
        assert_eq!(macro_cut("https://example.org/a"), None);
    }

    #[test]
    fn ip_literals_stay() {
        for iri in [
            "http://[2001:db8::1]/x",
            "http://user@[::1]:80/",
            "http://[v1.fe]/",
            "http://[fe80::1%25eth0]/",
        ] {
            assert_eq!(macro_cut(iri), None, "{iri}");
            assert!(placeholders(iri).is_empty(), "{iri}");
        }
    }

    #[test]
    fn optional_parts_of_a_synopsis_are_placeholders() {
        assert_eq!(found("http://[user@]machine/path"), ["[user@]"]);
        assert_eq!(found("http://host[:port]/x"), ["[:port]"]);
        assert_eq!(found("http://host[/path]"), ["[/path]"]);
        // Nested optional parts (vim's netrw manual) and a bracketed user name.
        assert_eq!(found("http://[user[:pass]@]host/"), ["[user[:pass]@]"]);
        assert_eq!(
            found("ftp://[user@]machine[[:#]port]/path"),
            ["[user@]", "[[:#]port]"]
        );
        assert_eq!(found("ftp://[user]@hostname/path/"), ["[user]"]);
        // Brackets that are not a synopsis stay characters of the IRI, reported as such.
        assert!(found("https://example.com/a[1]/b").is_empty());
        assert!(found("https://example.com/a[[1]x]/b").is_empty());
        assert!(found("ftp://h/[user]@x").is_empty());
        assert_eq!(macro_cut("https://example.com/a[1]/b"), None);
        assert_eq!(macro_cut("http://[user[:pass]@]host/"), None);
    }

    #[test]
    fn printf_conversions_are_placeholders() {
        assert_eq!(found("https://peps.python.org/pep-%04d/"), ["%04d"]);
        assert_eq!(found("https://example.org/query?%s"), ["%s"]);
        assert_eq!(
            found("https://x/%1$s/%(name)s/%.2f/%lu"),
            ["%1$s", "%(name)s", "%.2f", "%lu"]
        );
        // Percent-encodings of printable bytes stay what they are.
        assert!(found("https://x/a%20document/%2d/%41").is_empty());
        assert!(found("https://x/100%").is_empty());
        assert!(found("https://x/%GG/%Eh/%c").is_empty());
    }

    #[test]
    fn uri_templates_are_placeholders() {
        assert_eq!(
            found("https://api.github.com/users/{user}/repos{?type,page}"),
            ["{user}", "{?type,page}"]
        );
        assert!(found("https://x/{}/{a b}").is_empty());
    }
}
