//! `link-text-mismatch`: a link whose visible text is itself a URL or host name of another
//! site than the one the link opens (`<a href="https://evil.example/">https://paypal.com/</a>`),
//! the pattern mail clients' phishing detectors flag. Browsers show the target only on hover;
//! irilint sees both, in the document.
//!
//! The text is taken from the extractor ([`crate::extract::Occurrence::label`]): HTML `<a>`,
//! Markdown inline links, reStructuredText embedded references and AsciiDoc URL and `link:`
//! macros. Sites are compared by registrable domain (the Public Suffix List, `psl`): the same
//! domain is the same site (`docs.rs` and `https://docs.rs/foo/latest`, `www.` and scheme
//! differences), a different one a warning, and a target that only imitates the text's domain
//! (their UTS #39 skeletons are equal) an error.

use unicode_security::confusable_detection::skeleton;

use super::{Check, IriCheck, Rule, Severity, Sink};
use crate::iri::HostKind;
use crate::iri::chars::escape_unsafe;

/// `link-text-mismatch`.
pub const LINK_TEXT_MISMATCH: Rule = Rule {
    id: "link-text-mismatch",
    group: "lookalike",
    severity: Severity::Warning,
    rfc: &["8"],
    doc: include_str!("../../rules/link-text-mismatch.md"),
    unicode_only: false,
    check: Check::Iri(check_link_text),
};

/// Bare names (no scheme, no `www.`, no path) that end in one of these country codes are far
/// more often file names (`README.md`, `setup.py`, `build.sh`) than host names: not taken as a
/// site.
const FILE_LIKE_SUFFIXES: [&str; 20] = [
    "ac", "ai", "am", "cc", "do", "gd", "in", "la", "ly", "md", "mk", "ml", "pl", "pm", "ps", "py",
    "rs", "sh", "so", "tf",
];

/// The longest link text taken as a URL or host name.
const MAX_SHOWN: usize = 300;

/// Web archives whose address holds the address of the page they keep
/// (`https://web.archive.org/web/2013/http://ontosys.com/…`): a link to the copy shown as the
/// original URL is the same page, not another site. Matched on the whole host, lowercase.
/// A redirector or mirror on any other host is what a phishing link is made of, and is reported.
const ARCHIVES: [&str; 13] = [
    // The Internet Archive's Wayback Machine.
    "web.archive.org",
    "wayback.archive.org",
    // archive.today and the names it answers to.
    "archive.today",
    "archive.ph",
    "archive.is",
    "archive.li",
    "archive.vn",
    "archive.fo",
    "archive.md",
    // WebCite, the UK Government Web Archive, the Portuguese web archive.
    "webcitation.org",
    "www.webcitation.org",
    "webarchive.nationalarchives.gov.uk",
    "arquivo.pt",
];

/// Schemes whose IRI is code or inline content, not a site to open: a link showing an address
/// that runs `javascript:` (or `vbscript:`, or opens a `data:` page) deceives by itself.
const CODE_SCHEMES: [&str; 3] = ["javascript", "vbscript", "data"];

fn check_link_text(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    let Some(origin) = input.origin else {
        return;
    };
    let occurrence = origin.occurrence;
    let labels = occurrence.label.iter().chain(&occurrence.reference_texts);
    for label in labels {
        if let Some(raw) = origin.source.text.get(label.clone()) {
            // One finding per link: the first text that names another site.
            if check_one_text(input, raw, sink) {
                return;
            }
        }
    }
    // An Office hyperlink: its target is here, in a relationship part, and the text shown for
    // it in the part whose runs reference it; an OpenDocument link: the text of its element.
    // Every text the target is shown with, until one names another site.
    if let Some(shown) = origin
        .source
        .shown_texts
        .as_ref()
        .and_then(|texts| texts.get(&*occurrence.iri))
    {
        for text in shown {
            if check_one_text(input, text, sink) {
                return;
            }
        }
    }
}

/// Compares one text a reader sees for the link with its target; true when it reported.
fn check_one_text(input: &IriCheck<'_>, raw: &str, sink: &mut Sink<'_>) -> bool {
    // A host name has a dot (or a character reference that may be one): most link texts
    // ("the docs") are left at once.
    if memchr::memchr2(b'.', b'&', raw.as_bytes()).is_none() {
        return false;
    }
    if let Some(scheme) = &input.iri.scheme {
        let name = &input.text[scheme.clone()];
        if CODE_SCHEMES.iter().any(|s| name.eq_ignore_ascii_case(s)) {
            let Some((shown, _)) = shown_host(raw, input.text) else {
                return false;
            };
            let shown_name = escape_unsafe(&shown.unicode);
            let scheme_name = name.to_ascii_lowercase();
            sink.report_imitation(
                scheme.clone(),
                format!(
                    "the link's text shows `{shown_name}`, but the link is a `{scheme_name}:` IRI: following it runs code or opens content made for the link, not that site"
                ),
                Some(format!(
                    "link to the site the text names, or make the text say what the link does; a `{scheme_name}:` link behind an address is how script is slipped past a reader"
                )),
            );
            return true;
        }
    }
    let Some(authority) = &input.iri.authority else {
        return false;
    };
    let host = &authority.host;
    if host.range.is_empty() || host.kind.is_none() {
        return false;
    }
    let Some((shown, written_as_url)) = shown_host(raw, input.text) else {
        return false;
    };
    let target_text = &input.text[host.range.clone()];
    // The text shows the target's own host (`[https://github.com/x](https://github.com/x)`, the
    // most common case): the same site, without a lookup.
    if target_text.eq_ignore_ascii_case(&shown.unicode) {
        return false;
    }
    let Some(target) = Site::of(target_text, host.kind == Some(HostKind::RegName)) else {
        return false;
    };
    if shown.domain == target.domain {
        return false;
    }
    // Everything after the host up to the fragment: where an archive or a redirector names the
    // site it leads to.
    let end = input.iri.fragment.as_ref().map_or(input.text.len(), |f| {
        f.start.saturating_sub(1).max(host.range.end)
    });
    let after_host = &input.text[host.range.end..end];
    let names_shown = names_site(after_host, &shown);
    // A web archive keeps a copy of the page its address names: the same page. A redirector or
    // mirror on any other host is the trick itself (`r.example.net/go?to=https://docs.python.org/`),
    // and so is the text's host inside the target's (`docs.python.org.evil.example`).
    if names_shown && ARCHIVES.contains(&target.unicode.trim_end_matches('.')) {
        return false;
    }
    // A bare name (`put.io`, `gcr.io`, a Go import path `k8s.io/kubernetes`) is as often a
    // product's name as an address: only a look-alike of it is reported.
    if !written_as_url && !shown.looks_like(&target) {
        return false;
    }
    let shown_name = escape_unsafe(&shown.unicode);
    let target_name = escape_unsafe(&target.unicode);
    let range = host.range.clone();
    if shown.looks_like(&target) {
        sink.report_imitation(
            range,
            format!(
                "the link's text shows `{shown_name}`, but the link opens `{target_name}`, a look-alike of it"
            ),
            Some(format!(
                "`{target_name}` is made to be read as `{shown_name}`: link to the site the text names, or remove the link"
            )),
        );
        return true;
    }
    let through = if names_shown {
        format!(
            ", which names `{shown_name}` in its address but is not an archive irilint knows: a redirector or mirror, which may send readers anywhere"
        )
    } else {
        String::new()
    };
    sink.report(
        range,
        format!("the link's text shows `{shown_name}`, but the link opens `{target_name}`{through}"),
        Some(format!(
            "readers trust the text and click through to `{}`: make the text name the site the link opens, or link to `{}`",
            escape_unsafe(&target.domain_unicode()),
            escape_unsafe(&shown.domain_unicode())
        )),
    );
    true
}

/// Whether `address` (a target's path and query) names the site `shown` as an address does:
/// its host or registrable domain right after a `/` (`/web/2013/http://ontosys.com/x`,
/// `?to=https://docs.python.org/`, `/developer.mozilla.org/en-US/`) or the domain after a `.`,
/// and followed by the end of a host (`/`, `:`, `?`, `#`, `&`, or the end), so that
/// `docs.python.org.evil.example` does not name `docs.python.org`. ASCII case is ignored;
/// percent-encoded `/` and `:` (`?to=https%3A%2F%2Fdocs.python.org%2F`) are read as they are.
fn names_site(address: &str, shown: &Site) -> bool {
    let lower = address.to_ascii_lowercase();
    let lower = lower.replace("%2f", "/").replace("%3a", ":");
    let found = |needle: &str, before: &[u8]| {
        !needle.is_empty()
            && memchr::memmem::find_iter(lower.as_bytes(), needle.as_bytes()).any(|k| {
                let ok_before = k > 0 && before.contains(&lower.as_bytes()[k - 1]);
                let after = lower.as_bytes().get(k + needle.len());
                ok_before && after.is_none_or(|b| b"/:?#&".contains(b))
            })
    };
    found(&shown.unicode, b"/=") || found(&shown.domain, b"/=.")
}

/// A site as compared: its registrable domain (ASCII, lowercase), and the host as a reader
/// sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Site {
    /// The registrable domain in ASCII (`paypal.com`, `xn--80ak6aa92e.com`), or the whole host
    /// when it has no known public suffix (`localhost`, an IP address).
    domain: String,
    /// The host, Unicode labels decoded, lowercase.
    unicode: String,
}

impl Site {
    /// The site of a host name (`reg_name`), or of an IP address written as a host.
    fn of(host: &str, reg_name: bool) -> Option<Site> {
        if !reg_name {
            let lower = host.to_ascii_lowercase();
            return Some(Site {
                domain: lower.clone(),
                unicode: lower,
            });
        }
        let host = host.trim_end_matches('.');
        // Most names are plain ASCII letters, digits, `-` and `.`: UTS #46 only lowercases them.
        let plain = host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
            && !host
                .split('.')
                .any(|l| l.len() >= 4 && l[..4].eq_ignore_ascii_case("xn--"));
        let (ascii, unicode) = if plain {
            let lower = host.to_ascii_lowercase();
            (lower.clone(), lower)
        } else {
            let ascii = idna::domain_to_ascii(host).ok()?;
            let (unicode, _) = idna::domain_to_unicode(&ascii);
            (ascii, unicode)
        };
        if ascii.is_empty() {
            return None;
        }
        let domain = match psl::domain(ascii.as_bytes()) {
            Some(d) if d.suffix().is_known() => String::from_utf8_lossy(d.as_bytes()).into_owned(),
            _ => ascii.clone(),
        };
        Some(Site { domain, unicode })
    }

    /// The registrable domain as a reader sees it.
    fn domain_unicode(&self) -> String {
        idna::domain_to_unicode(&self.domain).0
    }

    /// Whether `other` is drawn like this site: the UTS #39 skeletons of their registrable
    /// domains (or whole hosts) are equal while the names are not.
    fn looks_like(&self, other: &Site) -> bool {
        let sk = |s: &str| skeleton(s).collect::<String>();
        let (a, b) = (self.domain_unicode(), other.domain_unicode());
        a != b && (sk(&a) == sk(&b) || sk(&self.unicode) == sk(&other.unicode))
    }
}

/// The site a link's visible text names, when the whole text is a URL (`https://paypal.com/`,
/// `www.paypal.com`) or a host name with a known public suffix (`paypal.com`,
/// `docs.rs/foo`), and whether it is written as a URL (with a scheme or `www.`); `None` for any
/// other text (words, a file name, an image).
fn shown_host(raw: &str, target: &str) -> Option<(Site, bool)> {
    let text = visible_text(raw);
    let text =
        text.trim_matches(|c: char| c.is_whitespace() || "*_~`\"'“”‘’«»()[]{}<>".contains(c));
    let text = text.trim_end_matches(['.', ',', ';', ':', '!', '?']);
    if text.is_empty() || text.len() > MAX_SHOWN || text.contains(char::is_whitespace) {
        return None;
    }
    let (rest, explicit) = match text.find("://") {
        Some(k) => {
            let scheme = &text[..k];
            if scheme.is_empty()
                || !scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            {
                return None;
            }
            (&text[k + 3..], true)
        }
        None => (text, false),
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let has_path = end < rest.len();
    // `user@host:port`: the host.
    let host = authority.rsplit('@').next().unwrap_or(authority);
    let host = match host.rfind(':') {
        Some(k) if host[k + 1..].bytes().all(|b| b.is_ascii_digit()) => &host[..k],
        _ => host,
    };
    let www = host
        .get(..4)
        .is_some_and(|w| w.eq_ignore_ascii_case("www."))
        && host.len() > 4;
    if host.is_empty()
        || host.starts_with('.')
        || !host.contains('.')
        || !host
            .chars()
            .all(|c| c == '.' || c == '-' || c.is_alphanumeric())
    {
        return None;
    }
    let site = Site::of(host, true)?;
    let known = psl::domain(site.domain.as_bytes()).is_some_and(|d| d.suffix().is_known());
    if !known {
        return None;
    }
    if !explicit && !www {
        // A bare name: a file name (`setup.py`) unless it reads as a site.
        let tld = site.domain.rsplit('.').next().unwrap_or("");
        if !has_path && FILE_LIKE_SUFFIXES.contains(&tld) {
            return None;
        }
        // A product name (`Python.NET`, `ASP.NET`, `Socket.IO`): host names are not written
        // with a capitalized suffix.
        if host
            .rsplit('.')
            .next()
            .is_some_and(|t| t.bytes().any(|b| b.is_ascii_uppercase()))
        {
            return None;
        }
        // `[setup.py](https://github.com/…/setup.py)`: the text is the target's last segment.
        let path = target.split(['?', '#']).next().unwrap_or(target);
        if path.trim_end_matches('/').ends_with(text) {
            return None;
        }
    }
    Some((site, explicit || www))
}

/// The text of a link as a reader sees it, near enough to find a URL or host name in it: markup
/// tags left out (`<code>`, `<b>`), the most common character references resolved.
fn visible_text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(k) = rest.find(['<', '&']) {
        out.push_str(&rest[..k]);
        rest = &rest[k..];
        if rest.starts_with('<') {
            match rest.find('>') {
                Some(e) => rest = &rest[e + 1..],
                None => {
                    out.push_str(rest);
                    rest = "";
                }
            }
            continue;
        }
        let known = [
            ("&amp;", '&'),
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&quot;", '"'),
            ("&#46;", '.'),
            ("&period;", '.'),
            ("&sol;", '/'),
            ("&#47;", '/'),
            ("&colon;", ':'),
            ("&#58;", ':'),
        ];
        match known.iter().find(|(name, _)| rest.starts_with(name)) {
            Some((name, c)) => {
                out.push(*c);
                rest = &rest[name.len()..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(raw: &str) -> Option<String> {
        shown_host(raw, "https://target.example/x").map(|(s, _)| s.domain)
    }

    #[test]
    fn urls_and_host_names_are_read_from_the_text() {
        assert_eq!(shown("https://paypal.com/"), Some("paypal.com".into()));
        assert_eq!(
            shown("<code>https://www.paypal.com</code>"),
            Some("paypal.com".into())
        );
        assert_eq!(shown("**docs.python.org**"), Some("python.org".into()));
        assert_eq!(shown("docs.rs/foo"), Some("docs.rs".into()));
        assert_eq!(shown("GitHub.com"), Some("github.com".into()));
        assert_eq!(shown("www.example.co.uk."), Some("example.co.uk".into()));
        assert_eq!(
            shown("https://user@host.invalid:8080/x"),
            None,
            "no known suffix"
        );
        assert_eq!(
            shown("https://user@github.com:8080/x"),
            Some("github.com".into())
        );
    }

    #[test]
    fn words_file_names_and_unknown_suffixes_are_not_sites() {
        for text in [
            "Homebrew",
            "the docs",
            "visit paypal.com now",
            "README.md",
            "setup.py",
            "build.sh",
            "localhost:8080",
            "example.invalid",
            "v1.2.3",
            "Python.NET",
            "Socket.IO",
            "",
        ] {
            assert_eq!(shown(text), None, "{text:?}");
        }
        // The target's own last segment is a file name, whatever its suffix.
        assert_eq!(shown_host("notes.tv", "https://example.org/notes.tv"), None);
    }

    #[test]
    fn skeletons_tell_a_look_alike_from_another_site() {
        let a = Site::of("paypal.com", true).unwrap();
        let b = Site::of("p\u{430}ypal.com", true).unwrap();
        let c = Site::of("evil.example", true).unwrap();
        assert!(a.looks_like(&b));
        assert!(!a.looks_like(&c));
        assert!(!a.looks_like(&a));
    }
}
