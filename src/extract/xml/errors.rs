//! Well-formedness errors in words: the token an error is about, and quick-xml's errors
//! described.

use std::ops::Range;

use quick_xml::errors::{Error, IllFormedError, SyntaxError};

use super::decode::is_name_char;

pub(super) const AMPERSAND: &str =
    "`&` does not start a reference here: write `&amp;` for a literal ampersand";

/// The token at `src[at..]` an error is about: `<!--`, `<![CDATA[`, `<name`, `</name>`,
/// `&name`, or one character.
pub(super) fn token_at(src: &str, at: usize) -> Range<usize> {
    let mut at = at.min(src.len());
    while !src.is_char_boundary(at) {
        at -= 1;
    }
    let rest = &src[at..];
    let name_len = |from: usize| {
        rest[from..]
            .char_indices()
            .find(|&(_, c)| !is_name_char(c))
            .map_or(rest.len() - from, |(k, _)| k)
    };
    let len = if rest.starts_with("<!--") {
        4
    } else if rest.starts_with("--") {
        2
    } else if rest.starts_with("<![CDATA[") || rest.starts_with("<!DOCTYPE") {
        9
    } else if rest.starts_with("</") {
        let n = 2 + name_len(2);
        if rest[n..].starts_with('>') { n + 1 } else { n }
    } else if rest.starts_with("<?") || rest.starts_with("<!") {
        2 + name_len(2)
    } else if rest.starts_with('<') || rest.starts_with('&') {
        1 + name_len(1)
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    };
    let mut end = at + len.min(200);
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    at..end
}

/// A quick-xml error in words.
pub(super) fn describe(e: &Error) -> String {
    const EOF: &str = "before the end of the document";
    match e {
        Error::Syntax(s) => match s {
            SyntaxError::UnclosedTag => format!("the tag is not closed: `>` is missing {EOF}"),
            SyntaxError::UnclosedComment => {
                format!("the comment is not closed: `-->` is missing {EOF}")
            }
            SyntaxError::UnclosedCData => {
                format!("the CDATA section is not closed: `]]>` is missing {EOF}")
            }
            SyntaxError::UnclosedDoctype => {
                format!("the DOCTYPE is not closed: `>` is missing {EOF}")
            }
            SyntaxError::UnclosedPI => {
                format!("the processing instruction is not closed: `?>` is missing {EOF}")
            }
            SyntaxError::UnclosedXmlDecl => {
                format!("the XML declaration is not closed: `?>` is missing {EOF}")
            }
            SyntaxError::InvalidBangMarkup => {
                "`<!` must start a comment `<!--`, a CDATA section `<![CDATA[` or a DOCTYPE"
                    .to_string()
            }
            SyntaxError::UnclosedSingleQuotedAttributeValue => {
                format!("an attribute value in the tag is not closed: `'` is missing {EOF}")
            }
            SyntaxError::UnclosedDoubleQuotedAttributeValue => {
                format!("an attribute value in the tag is not closed: `\"` is missing {EOF}")
            }
        },
        Error::IllFormed(i) => match i {
            IllFormedError::MismatchedEndTag { expected, found } => {
                format!("end tag `</{found}>` does not match the open element `<{expected}>`")
            }
            IllFormedError::UnmatchedEndTag(name) => {
                format!("end tag `</{name}>` has no matching start tag")
            }
            IllFormedError::MissingEndTag(name) => format!("`<{name}>` is not closed {EOF}"),
            IllFormedError::MissingDoctypeName => "the DOCTYPE has no name".to_string(),
            IllFormedError::UnclosedReference => AMPERSAND.to_string(),
            IllFormedError::DoubleHyphenInComment => {
                "`--` is not allowed inside a comment".to_string()
            }
            IllFormedError::MissingDeclVersion(_) => {
                "the XML declaration must start with `version=\"1.0\"`".to_string()
            }
            IllFormedError::UnknownVersion => {
                "unknown XML version: 1.0 or 1.1 expected".to_string()
            }
        },
        other => other.to_string(),
    }
}
