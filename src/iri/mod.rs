//! RFC 3987 IRIs as a library: parsing into components ([`parse`], [`analyze`]) and the character
//! classes of §2.2 ([`chars`]), percent-encodings and their UTF-8 ([`percent`]). No I/O and no knowledge of document formats, so it can be used on
//! its own.

pub mod chars;
mod ip;
mod parse;
pub mod percent;

pub use parse::{
    Authority, Component, Host, HostKind, Iri, Issue, IssueKind, Kind, QueryPart, SyntaxError,
    analyze, parse,
};
