//! RFC 3987 IRIs as a library: parsing into components ([`parse`], [`analyze`]) and the character
//! classes of §2.2 ([`chars`]), percent-encodings and their UTF-8 ([`percent`]), IRI→URI
//! ([`to_uri()`], §3.1), URI→IRI ([`to_iri()`], §3.2), the comparison ladder ([`compare`], §5.3)
//! and IDNA2008 registrability of host labels ([`idna2008`], RFC 5890–5893).
//! No I/O and no knowledge of document formats, so it can be used on its own.

pub mod chars;
pub mod compare;
pub mod idna2008;
mod ip;
mod parse;
pub mod percent;
pub mod props;
pub mod to_iri;
pub mod to_uri;

pub use compare::{Level, equivalent, normalize};
pub use parse::{
    Authority, Component, Host, HostKind, Iri, Issue, IssueKind, Kind, MAX_HELD_ISSUES, Pieces,
    QueryPart, SyntaxError, analyze, parse,
};
pub use to_iri::to_iri;
pub use to_uri::{Hosts, ToUriError, to_uri};
