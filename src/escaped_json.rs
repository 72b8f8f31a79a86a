//! JSON output that never carries a hidden character raw: the one JSON writer of the reports,
//! the baseline and the other commands' JSON.

use std::io;

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

use crate::iri::chars::is_unsafe_to_display;

/// Pretty JSON in which every character unsafe to display is written as a `\u` escape.
pub fn to_string<T: Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    to_writer(value, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// [`to_string`], written to `out` as it is serialized.
pub fn to_writer<T: Serialize>(value: &T, out: &mut dyn io::Write) -> io::Result<()> {
    // serde_json writes each token (a quote, a key, a colon, an indentation) on its own: into a
    // buffer of its own type each is a copy, where `out` took two dynamic calls for each (about
    // a third of a JSON report's instructions). The buffer is bounded; the report still streams.
    use io::Write as _;
    let mut buffered = io::BufWriter::with_capacity(JSON_BUFFER, out);
    let mut ser = serde_json::Serializer::with_formatter(&mut buffered, SafeFormatter::default());
    value.serialize(&mut ser).map_err(io::Error::from)?;
    buffered.write_all(b"\n")?;
    buffered
        .into_inner()
        .map_err(io::IntoInnerError::into_error)?;
    Ok(())
}

/// The bytes of JSON [`to_writer`] gathers before it writes them on.
const JSON_BUFFER: usize = 32 * 1024;

/// serde_json's pretty formatter, except that string contents escape hidden characters.
#[derive(Default)]
struct SafeFormatter {
    pretty: PrettyFormatter<'static>,
}

impl Formatter for SafeFormatter {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let bytes = fragment.as_bytes();
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() {
            // Printable ASCII (most of a report) is safe: only the rest is decoded and asked.
            if matches!(bytes[i], 0x20..=0x7E) {
                i += 1;
                continue;
            }
            let Some(c) = fragment[i..].chars().next() else {
                break;
            };
            if is_unsafe_to_display(c) {
                writer.write_all(&bytes[start..i])?;
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
                start = i + c.len_utf8();
            }
            i += c.len_utf8();
        }
        writer.write_all(&bytes[start..])
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.pretty.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.pretty.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_escaped_and_round_trip() {
        let s = "a\u{202E}b\u{1B}c\u{E0041}d\u{85}é";
        let json = to_string(&s);
        assert_eq!(json.trim(), r#""a\u202eb\u001bc\udb40\udc41d\u0085é""#);
        let back: String = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn every_ascii_character_is_written_or_escaped_as_before() {
        // The fast path takes printable ASCII as it is; DEL and the C0 controls are escaped,
        // beside and between other characters.
        let all: String = (0..128u8).map(char::from).collect();
        let s = format!("{all}\u{202E}{all}é");
        let json = to_string(&s);
        assert!(json.contains(r"\u007f\u202e"), "{json}");
        assert!(
            json.contains(r##"\u001f !\"#$%&'()*+,-./0123456789"##),
            "{json}"
        );
        assert!(!json.bytes().any(|b| b < 0x20 && b != b'\n' || b == 0x7F));
        let back: String = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn structure_is_pretty() {
        let json = to_string(&serde_json::json!({"a": [1, 2], "b": {}}));
        assert_eq!(json, "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}\n");
    }
}
