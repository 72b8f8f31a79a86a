//! Documents built from the pieces hostile markup is made of (entity and character references,
//! DTDs, CDATA ends, percent-encoded bidi controls, punycode, BOMs, templates, suppression
//! directives, invalid UTF-8) and random bytes: shared by the property tests that check any
//! document in any format.

use proptest::prelude::*;
use proptest::sample::select;

pub const PIECES: &[&str] = &[
    "<a href=\"",
    "\">",
    "<img srcset=\"",
    " 2x, ",
    "http://",
    "https://ex\u{430}mple.com/",
    "xn--80ak6aa92e.com",
    "&#x202E;",
    "&#8238;",
    "&amp;",
    "&bogus",
    "%E2%80%AE",
    "%C0%AF",
    "%",
    "\u{202E}",
    "\u{200B}",
    "\u{FEFF}",
    "<!DOCTYPE r [<!ENTITY e \"&#x202E;\"><!ENTITY f \"&e;&e;\">]>",
    "&e;",
    "<![CDATA[",
    "]]>",
    "<svg xmlns=\"http://www.w3.org/2000/svg\"><a href=\"",
    "</svg>",
    "<xsl:stylesheet xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\">",
    "{{ .Permalink }}",
    "{",
    "}}",
    "<%= url %>",
    "${x",
    "<!-- irilint-disable-next-line -->\n",
    "<!-- irilint-disable bidi -- x -->",
    "<!-- irilint-enable",
    "# irilint-disable-file\n",
    "[x](<http://a/ b>)",
    "](",
    "`",
    "```\n",
    "> ",
    "\r\n",
    "\n",
    "\r",
    "<meta charset=\"windows-1252\">",
    "<?xml version=\"1.0\" encoding=\"shift_jis\"?>",
    "\u{1D4B3}",
    "ש",
    "(שפה)",
    "。",
    "，",
    "[",
    "]",
];

pub fn document() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => select(PIECES).prop_map(|s| s.as_bytes().to_vec()),
        1 => proptest::collection::vec(any::<u8>(), 1..8),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|parts| parts.concat())
}
