//! `irilint to-uri`, `to-iri`, `normalize` and `compare`: the library's RFC 3987 conversions
//! (§3.1, §3.2) and comparison ladder (§5.3) for one or two strings on the command line.
//!
//! Each command either builds its result or fails with a message that says what is wrong and
//! what to do next. The human output is the result alone, one line, so that it can be used in
//! scripts. JSON follows the shapes documented in the book. Neither ever writes a character
//! that is unsafe to display raw.

use serde::Serialize;

use crate::escaped_json;
use crate::iri::chars::escape_unsafe;
use crate::iri::compare::normalize_parsed;
use crate::iri::{self, Hosts, Level, ToUriError};

/// A message for a run that failed because its input is not what the command converts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

/// The result of `to-uri` or `to-iri`.
#[derive(Serialize)]
pub struct Conversion {
    input: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    iri: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    idna: Option<bool>,
}

/// Where to find every problem of an input at once.
const INSPECT_HINT: &str = "`irilint inspect` lists every problem";

impl Conversion {
    /// `irilint to-uri`: RFC 3987 §3.1, with IDNA ToASCII for DNS hosts when `hosts` asks.
    pub fn to_uri(input: &str, hosts: Hosts) -> Result<Conversion, InputError> {
        let uri = iri::to_uri(input, hosts).map_err(|e| match e {
            ToUriError::NotAnIri(_) => InputError(format!("{e}; {INSPECT_HINT}")),
            ToUriError::InvalidIdn { .. } => InputError(format!(
                "{e}; without --idna the host is percent-encoded instead"
            )),
        })?;
        Ok(Conversion {
            input: input.to_owned(),
            uri: Some(uri),
            iri: None,
            idna: Some(hosts == Hosts::ToAscii),
        })
    }

    /// `irilint to-iri`: RFC 3987 §3.2.
    pub fn to_iri(input: &str) -> Result<Conversion, InputError> {
        let iri = iri::to_iri(input).map_err(|e| {
            let hint = if input.is_ascii() {
                INSPECT_HINT
            } else {
                "it is already an IRI, and `irilint to-uri` gives its URI"
            };
            InputError(format!("not a URI: {e}; {hint}"))
        })?;
        Ok(Conversion {
            input: input.to_owned(),
            uri: None,
            iri: Some(iri),
            idna: None,
        })
    }

    /// The converted string.
    pub fn output(&self) -> &str {
        self.uri.as_deref().or(self.iri.as_deref()).unwrap_or("")
    }

    /// The converted string on one line.
    pub fn to_human(&self) -> String {
        format!("{}\n", escape_unsafe(self.output()))
    }

    /// `{"input", "uri", "idna"}` or `{"input", "iri"}`.
    pub fn to_json(&self) -> String {
        escaped_json::to_string(self)
    }
}

/// The result of `normalize`.
#[derive(Serialize)]
pub struct Normalization {
    input: String,
    level: &'static str,
    rfc: &'static str,
    normalized: String,
}

/// Fails unless `input` is an IRI reference; `name` says which argument it is (`"A"`).
/// The normal form of `input` at `level`, or why it is not an IRI.
fn normal_form(input: &str, level: Level, name: Option<&str>) -> Result<String, InputError> {
    let parsed = iri::parse(input).map_err(|e| {
        let lead = match name {
            Some(n) => format!("{n} is not an IRI"),
            None => "not an IRI".to_owned(),
        };
        InputError(format!("{lead}: {e}; {INSPECT_HINT}"))
    })?;
    Ok(normalize_parsed(input, &parsed, level))
}

impl Normalization {
    /// `irilint normalize`: the normal form of `input` at `level` (RFC 3987 §5.3).
    pub fn new(input: &str, level: Level) -> Result<Normalization, InputError> {
        Ok(Normalization {
            input: input.to_owned(),
            level: level.name(),
            rfc: level.section(),
            normalized: normal_form(input, level, None)?,
        })
    }

    /// The normal form on one line.
    pub fn to_human(&self) -> String {
        format!("{}\n", escape_unsafe(&self.normalized))
    }

    /// `{"input", "level", "rfc", "normalized"}`.
    pub fn to_json(&self) -> String {
        escaped_json::to_string(self)
    }
}

/// The result of `compare`.
#[derive(Serialize)]
pub struct Comparison {
    #[serde(serialize_with = "level_name")]
    level: Level,
    rfc: &'static str,
    equivalent: bool,
    a: Side,
    b: Side,
}

/// A level as JSON: its command-line name.
fn level_name<S: serde::Serializer>(level: &Level, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(level.name())
}

/// One of the two IRIs compared.
#[derive(Serialize)]
struct Side {
    input: String,
    normalized: String,
}

impl Comparison {
    /// `irilint compare`: whether `a` and `b` are equivalent at `level` (RFC 3987 §5.3).
    pub fn new(a: &str, b: &str, level: Level) -> Result<Comparison, InputError> {
        let side = |s: &str, name| -> Result<Side, InputError> {
            Ok(Side {
                input: s.to_owned(),
                normalized: normal_form(s, level, Some(name))?,
            })
        };
        let (a, b) = (side(a, "A")?, side(b, "B")?);
        Ok(Comparison {
            level,
            rfc: level.section(),
            equivalent: a.normalized == b.normalized,
            a,
            b,
        })
    }

    /// Whether the two are equivalent.
    pub fn is_equivalent(&self) -> bool {
        self.equivalent
    }

    /// Both normal forms, then the verdict.
    pub fn to_human(&self) -> String {
        let verdict = if self.equivalent {
            "equivalent"
        } else {
            "not equivalent"
        };
        format!(
            "A  {}\nB  {}\n{verdict} ({}, RFC 3987 §{})\n",
            escape_unsafe(&self.a.normalized),
            escape_unsafe(&self.b.normalized),
            self.level.description(),
            self.rfc
        )
    }

    /// `{"level", "rfc", "equivalent", "a": {"input", "normalized"}, "b": {…}}`.
    pub fn to_json(&self) -> String {
        escaped_json::to_string(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_what_is_wrong_and_what_next() {
        let e = Conversion::to_iri("http://a/é").err().unwrap().0;
        assert!(
            e.starts_with("not a URI: U+00E9 LATIN SMALL LETTER E WITH ACUTE"),
            "{e}"
        );
        assert!(e.ends_with("`irilint to-uri` gives its URI"), "{e}");
        let e = Conversion::to_uri("http://bü_cher/", Hosts::ToAscii)
            .err()
            .unwrap()
            .0;
        assert!(
            e.ends_with("without --idna the host is percent-encoded instead"),
            "{e}"
        );
        let e = Normalization::new("http://a/%", Level::Scheme)
            .err()
            .unwrap()
            .0;
        assert!(e.starts_with("not an IRI: '%' at the end"), "{e}");
        let e = Comparison::new("http://a/", "http://a b/", Level::Syntax)
            .err()
            .unwrap()
            .0;
        assert!(
            e.starts_with("B is not an IRI: space is not allowed"),
            "{e}"
        );
    }

    #[test]
    fn human_output_escapes_what_it_cannot_show() {
        let c = Comparison::new("http://a/\u{202E}", "http://a/%E2%80%AE", Level::Simple).unwrap();
        assert!(!c.is_equivalent());
        assert_eq!(
            c.to_human(),
            "A  http://a/⟨U+202E⟩\nB  http://a/%E2%80%AE\nnot equivalent (simple string comparison, RFC 3987 §5.3.1)\n"
        );
    }
}
