//! RFC 3987 §3.1: mapping an IRI (or IRI reference) to a URI.
//!
//! Step 2 replaces every `ucschar` and `iprivate` character by the `%HH` triplets of its UTF-8
//! octets, in uppercase hex (step 2.2's SHOULD). Where §3.1 leaves a choice:
//!
//! - **No normalization** (step 1c): the input is already Unicode, so an NFC and an NFD spelling
//!   of the same text map to different URIs. That is the reason non-NFC IRIs break links.
//! - **Printable ASCII that URIs do not allow** — space `<` `>` `"` `{` `}` `|` `\` `^` `` ` `` —
//!   is percent-encoded in step 2 too. §3.1 lets a system that accepts IRIs do this, and says
//!   the conversion SHOULD fail if it does not. People paste such text, and a URI is more useful
//!   than an error. `%`, `#`, `[` and `]` are never encoded (§3.1 MUST NOT). So a bare `%`, a
//!   second `#` or a bracket outside an IP literal still makes the input fail.
//! - **Anything else that is not an IRI reference fails** with the parser's first error
//!   (control characters, a private-use character outside the query, a bad port, …): mapping it
//!   would produce a string that is not a URI either.
//! - **Hosts as IDNA** ([`Hosts::ToAscii`]): §3.1 allows ToASCII (RFC 3490) in place of
//!   percent-encoding for a reg-name "for schemes known to use domain names in ireg-name", and
//!   its note says this works better with "legacy URI resolvers" and whenever mapping and
//!   resolution are separate (an HTTP proxy). Such resolvers look the host up in the DNS as
//!   written. So the schemes are [`DNS_SCHEMES`], whose servers are found through the DNS and whose
//!   specifications do not define percent-decoding of the host before lookup. A reference without
//!   a scheme (`//résumé.example/`) is not converted, because its scheme is not known. Only a
//!   host that has a non-ASCII character is converted. An ASCII host (uppercase or
//!   percent-encoded included) is left exactly as written, which keeps the mapping the identity
//!   on URIs. UTS #46 ToASCII (the `idna` crate) stands in for RFC 3490's: UseSTD3ASCIIRules is
//!   on as §3.1 asks, hyphens are checked first and last (as RFC 3490 does), and lengths are
//!   verified. AllowUnassigned cannot be set, because UTS #46 rejects unassigned code points.
//!   If ToASCII fails, §3.1 says the IRI cannot be resolved, so the conversion fails and does
//!   not silently fall back.
//!
//! The mapping is the identity on URIs and idempotent: its output is ASCII and has none of the
//! characters it encodes.

use std::fmt;
use std::ops::{ControlFlow, Range};

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

use super::chars::{self, escape_unsafe};
use super::percent;
use super::{HostKind, Iri, IssueKind, SyntaxError, analyze};

/// Schemes whose reg-name host is a DNS name, looked up as written: [`Hosts::ToAscii`] applies
/// to them, and scheme-based comparison treats their IDN and punycode hosts as equal.
pub const DNS_SCHEMES: [&str; 5] = ["http", "https", "ws", "wss", "ftp"];

/// Whether `scheme` (any case) is one of [`DNS_SCHEMES`].
pub fn uses_dns(scheme: &str) -> bool {
    DNS_SCHEMES.iter().any(|s| scheme.eq_ignore_ascii_case(s))
}

/// How [`to_uri`] maps a reg-name host that has non-ASCII characters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Hosts {
    /// Percent-encode it like every other component (§3.1 step 2).
    #[default]
    PercentEncode,
    /// Convert it with IDNA ToASCII (punycode) when the scheme is one of [`DNS_SCHEMES`];
    /// percent-encode it otherwise.
    ToAscii,
}

/// Why an IRI could not be mapped to a URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToUriError {
    /// The input is not an IRI reference, even after the ASCII characters §3.1 allows to
    /// encode are encoded.
    NotAnIri(SyntaxError),
    /// IDNA ToASCII rejects the host, so the IRI cannot be resolved (§3.1).
    InvalidIdn {
        /// Byte range of the host in the input.
        range: Range<usize>,
        /// The host as written.
        host: String,
    },
}

impl fmt::Display for ToUriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToUriError::NotAnIri(e) => write!(f, "not an IRI: {e}"),
            ToUriError::InvalidIdn { range, host } => write!(
                f,
                "the host \"{}\" (at byte {}) is not a valid internationalized domain name: \
                 IDNA ToASCII (UTS #46, STD3 rules) rejects it, so the IRI cannot be resolved \
                 (RFC 3987 §3.1)",
                escape_unsafe(host),
                range.start
            ),
        }
    }
}

impl std::error::Error for ToUriError {}

/// The UTS #46 implementation (its data is compiled in, so constructing it costs nothing).
const UTS46: Uts46 = Uts46::new();

/// Maps an IRI reference to a URI reference (RFC 3987 §3.1); see the module documentation for
/// the choices made.
pub fn to_uri(iri: &str, hosts: Hosts) -> Result<String, ToUriError> {
    let parsed = analyze(iri);
    let not_an_iri = parsed.each_issue(
        iri,
        |k| k != IssueKind::UnwiseAscii,
        |_| true,
        |i| {
            ControlFlow::Break(SyntaxError {
                offset: i.range.start,
                component: i.component,
                message: i.message.clone(),
            })
        },
    );
    if let ControlFlow::Break(e) = not_an_iri {
        return Err(ToUriError::NotAnIri(e));
    }
    if !iri.bytes().any(needs_encoding) {
        return Ok(iri.to_owned());
    }
    let mut out = String::with_capacity(iri.len() + iri.len() / 2);
    match idn_host(iri, &parsed, hosts)? {
        Some((range, ascii)) => {
            encode_into(&iri[..range.start], &mut out);
            out.push_str(&ascii);
            encode_into(&iri[range.end..], &mut out);
        }
        None => encode_into(iri, &mut out),
    }
    Ok(out)
}

/// True for a byte that starts or continues a character step 2 encodes (any non-ASCII, or one
/// of the printable ASCII characters URIs do not allow).
fn needs_encoding(b: u8) -> bool {
    !b.is_ascii() || chars::is_unwise_ascii(char::from(b))
}

/// Appends `s` with every non-ASCII and every not-allowed printable ASCII character
/// percent-encoded. The input was validated, so these are exactly the `ucschar`, the `iprivate`
/// (in the query) and the characters §3.1 lets us encode.
fn encode_into(s: &str, out: &mut String) {
    for c in s.chars() {
        if c.is_ascii() && !chars::is_unwise_ascii(c) {
            out.push(c);
        } else {
            percent::push_encoded(c, out);
        }
    }
}

/// The host's range and its ToASCII form, when `hosts` asks for IDNA and the host qualifies.
fn idn_host(
    iri: &str,
    parsed: &Iri,
    hosts: Hosts,
) -> Result<Option<(Range<usize>, String)>, ToUriError> {
    if hosts != Hosts::ToAscii {
        return Ok(None);
    }
    let dns = parsed
        .scheme
        .as_ref()
        .is_some_and(|r| uses_dns(&iri[r.clone()]));
    let Some(authority) = parsed.authority.as_ref().filter(|_| dns) else {
        return Ok(None);
    };
    let host = &authority.host;
    let text = &iri[host.range.clone()];
    if host.kind != Some(HostKind::RegName) || text.is_ascii() {
        return Ok(None);
    }
    // The whole host goes through ToASCII, not only its non-ASCII labels: RFC 3490 applies
    // ToASCII (and the STD3 checks) to every label, and the bidi rule looks at the whole name.
    UTS46
        .to_ascii(
            text.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::CheckFirstLast,
            DnsLength::VerifyAllowRootDot,
        )
        .map(|ascii| Some((host.range.clone(), ascii.into_owned())))
        .map_err(|_| ToUriError::InvalidIdn {
            range: host.range.clone(),
            host: text.to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(s: &str) -> String {
        to_uri(s, Hosts::PercentEncode).unwrap()
    }

    #[test]
    fn encodes_ucschar_iprivate_and_unwise_ascii_only() {
        assert_eq!(uri("http://a/é?\u{E000}"), "http://a/%C3%A9?%EE%80%80");
        assert_eq!(
            uri("/a b<c>\"{|}\\^`"),
            "/a%20b%3Cc%3E%22%7B%7C%7D%5C%5E%60"
        );
        // Existing triplets are kept as written, lowercase hex included.
        assert_eq!(uri("http://a/%7e%C3%a9é"), "http://a/%7e%C3%a9%C3%A9");
    }

    #[test]
    fn never_encodes_percent_hash_or_brackets() {
        assert_eq!(uri("http://[::1]/%41#f"), "http://[::1]/%41#f");
        for bad in ["http://a/%", "http://a/#a#b", "http://a/[x]"] {
            assert!(
                matches!(
                    to_uri(bad, Hosts::PercentEncode),
                    Err(ToUriError::NotAnIri(_))
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn idna_only_for_dns_schemes_and_non_ascii_hosts() {
        let idna = |s: &str| to_uri(s, Hosts::ToAscii);
        assert_eq!(
            idna("HTTPS://Bücher.Example/ü").unwrap(),
            "HTTPS://xn--bcher-kva.example/%C3%BC"
        );
        assert_eq!(idna("foo://bücher/").unwrap(), "foo://b%C3%BCcher/");
        assert_eq!(idna("//bücher/").unwrap(), "//b%C3%BCcher/");
        assert_eq!(idna("http://EXAMPLE.com/").unwrap(), "http://EXAMPLE.com/");
        assert_eq!(idna("http://b%C3%BCcher/").unwrap(), "http://b%C3%BCcher/");
        let err = idna("http://bü_cher/").unwrap_err();
        assert!(matches!(err, ToUriError::InvalidIdn { ref range, .. } if *range == (7..15)));
        assert!(
            err.to_string()
                .starts_with("the host \"bü_cher\" (at byte 7) is not a valid internationalized"),
            "{err}"
        );
    }

    #[test]
    fn errors_name_the_problem() {
        let err = to_uri("http://a/\u{1}", Hosts::PercentEncode).unwrap_err();
        assert!(err.to_string().starts_with("not an IRI: U+0001"), "{err}");
        assert!(matches!(
            to_uri("http://a/\u{E000}", Hosts::PercentEncode),
            Err(ToUriError::NotAnIri(e)) if e.message.contains("private-use")
        ));
    }
}
