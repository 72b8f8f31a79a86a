//! Where a document declares its own encoding: the HTML prescan of `<meta charset>` /
//! `<meta http-equiv="Content-Type">` (WHATWG HTML §13.2.3.2, first 1024 bytes), the same
//! declarations anywhere in the document (which the prescan never sees, but the encoding rules
//! report), and the XML declaration's `encoding=` pseudo-attribute. All work on bytes of an
//! ASCII-compatible document, before decoding (or on the UTF-8 text of a UTF-16 one).

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem::Finder;

/// Which construct declares a charset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclarationKind {
    /// `<?xml version="1.0" encoding="ISO-8859-1"?>`.
    XmlDeclaration,
    /// `<meta charset="ISO-8859-1">`.
    MetaCharset,
    /// `<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">`.
    MetaHttpEquiv,
}

impl DeclarationKind {
    /// How messages name the construct.
    pub fn describe(self) -> &'static str {
        match self {
            DeclarationKind::XmlDeclaration => "the XML declaration",
            DeclarationKind::MetaCharset => "`<meta charset>`",
            DeclarationKind::MetaHttpEquiv => "`<meta http-equiv=\"Content-Type\">`",
        }
    }
}

/// A charset label found in the bytes of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundLabel {
    /// The label as written (`ISO-8859-1`), lossily decoded as ASCII.
    pub label: String,
    /// Where the label is, in bytes of the file.
    pub bytes: Range<usize>,
    /// What declares it.
    pub kind: DeclarationKind,
}

/// How many bytes the HTML prescan looks at.
pub const HTML_PRESCAN_LEN: usize = 1024;

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

fn starts_with_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.len() >= needle.len() && haystack[..needle.len()].eq_ignore_ascii_case(needle)
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack.get(from..)?, needle).map(|i| i + from)
}

/// The first `needle` at or after `from`, in any ASCII case; `needle` starts with `<`, so only
/// the `<`s are tried (found many bytes at a time).
fn find_ignore_case(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    debug_assert_eq!(needle.first(), Some(&b'<'));
    let mut at = from;
    while let Some(k) = memchr::memchr(b'<', haystack.get(at..)?) {
        let p = at + k;
        if starts_with_ignore_case(&haystack[p..], needle) {
            return Some(p);
        }
        at = p + 1;
    }
    None
}

/// The HTML elements whose text is not markup, as the tree builder tells the tokenizer
/// (WHATWG §13.2.6.4.7; the HTML extractor's `Collector` does the same): a `<meta>` written
/// inside them declares nothing. `plaintext` never ends.
const RAW_TEXT_ELEMENTS: [&[u8]; 9] = [
    b"script",
    b"style",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
    b"title",
    b"textarea",
    b"plaintext",
];

/// The markup language of a document scanned for `<meta>` elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Markup {
    /// HTML: raw-text elements hold text, whatever it looks like.
    Html,
    /// XML (XHTML): no raw-text elements (`<script/>` is empty), CDATA sections hold text.
    Xml,
}

/// One attribute read by the prescan's "get an attribute" algorithm: the byte ranges of its
/// name (compare it ignoring ASCII case: the algorithm lowercases it) and of its value.
struct PrescanAttr {
    name: Range<usize>,
    value: Range<usize>,
}

/// WHATWG "get an attribute", from `*pos`; `None` at `>` or the end.
fn get_attribute(b: &[u8], pos: &mut usize) -> Option<PrescanAttr> {
    while *pos < b.len() && (is_space(b[*pos]) || b[*pos] == b'/') {
        *pos += 1;
    }
    if *pos >= b.len() || b[*pos] == b'>' {
        return None;
    }
    let name_start = *pos;
    loop {
        let c = *b.get(*pos)?;
        if c == b'=' && *pos > name_start {
            break;
        }
        if is_space(c) {
            let name_end = *pos;
            while *pos < b.len() && is_space(b[*pos]) {
                *pos += 1;
            }
            if b.get(*pos) != Some(&b'=') {
                let at = *pos;
                return Some(PrescanAttr {
                    name: name_start..name_end,
                    value: at..at,
                });
            }
            return value_of(b, pos, name_start..name_end);
        }
        if c == b'/' || c == b'>' {
            let at = *pos;
            return Some(PrescanAttr {
                name: name_start..at,
                value: at..at,
            });
        }
        *pos += 1;
    }
    let name = name_start..*pos;
    value_of(b, pos, name)
}

/// The value part of "get an attribute", with `*pos` on the `=` after `name`.
fn value_of(b: &[u8], pos: &mut usize, name: Range<usize>) -> Option<PrescanAttr> {
    *pos += 1; // '='
    while *pos < b.len() && is_space(b[*pos]) {
        *pos += 1;
    }
    let c = *b.get(*pos)?;
    if c == b'"' || c == b'\'' {
        let start = *pos + 1;
        let end = start + memchr::memchr(c, &b[start..])?;
        *pos = end + 1;
        return Some(PrescanAttr {
            name,
            value: start..end,
        });
    }
    let start = *pos;
    while *pos < b.len() && !is_space(b[*pos]) && b[*pos] != b'>' {
        *pos += 1;
    }
    Some(PrescanAttr {
        name,
        value: start..*pos,
    })
}

/// WHATWG "extract a character encoding from a meta element" on `content`.
fn charset_in_content(b: &[u8], content: Range<usize>) -> Option<Range<usize>> {
    let s = &b[content.clone()];
    let mut i = 0;
    loop {
        let at = (i..s.len()).find(|&k| starts_with_ignore_case(&s[k..], b"charset"))?;
        i = at + 7;
        while i < s.len() && is_space(s[i]) {
            i += 1;
        }
        if i >= s.len() || s[i] != b'=' {
            continue;
        }
        i += 1;
        while i < s.len() && is_space(s[i]) {
            i += 1;
        }
        let (start, end) = match s.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                let end = i + 1 + s[i + 1..].iter().position(|&x| x == q)?;
                (i + 1, end)
            }
            Some(_) => {
                let end = (i..s.len())
                    .find(|&k| is_space(s[k]) || s[k] == b';')
                    .unwrap_or(s.len());
                (i, end)
            }
            None => return None,
        };
        return (end > start).then_some(content.start + start..content.start + end);
    }
}

/// The charset a `<meta>` element declares, from its attributes.
fn meta_charset(b: &[u8], pos: &mut usize) -> Option<(Range<usize>, DeclarationKind)> {
    let (mut charset, mut content, mut http_equiv_content_type) = (None, None, false);
    let mut seen: Vec<Range<usize>> = Vec::new();
    while let Some(attr) = get_attribute(b, pos) {
        let name = &b[attr.name.clone()];
        if seen.iter().any(|r| b[r.clone()].eq_ignore_ascii_case(name)) {
            continue;
        }
        if name.eq_ignore_ascii_case(b"charset") {
            charset = Some(attr.value.clone());
        } else if name.eq_ignore_ascii_case(b"content") {
            content = Some(attr.value.clone());
        } else if name.eq_ignore_ascii_case(b"http-equiv") {
            http_equiv_content_type = b[attr.value.clone()].eq_ignore_ascii_case(b"content-type");
        }
        seen.push(attr.name);
    }
    match (charset, content) {
        (Some(c), _) if !c.is_empty() => Some((c, DeclarationKind::MetaCharset)),
        (_, Some(c)) if http_equiv_content_type => {
            charset_in_content(b, c).map(|r| (r, DeclarationKind::MetaHttpEquiv))
        }
        _ => None,
    }
}

/// The HTML prescan: every charset a `<meta>` declares in the first 1024 bytes, in order. The
/// prescan itself stops at the first whose label names an encoding; the rest are kept for the
/// encoding rules.
pub fn html_prescan(bytes: &[u8]) -> Vec<FoundLabel> {
    let head = &bytes[..bytes.len().min(HTML_PRESCAN_LEN)];
    match last_meta(head) {
        Some(last) => scan_meta(head, None, last),
        None => Vec::new(),
    }
}

/// Every charset a `<meta>` declares anywhere in `bytes`, in order. Unlike the prescan, text is
/// skipped where a `<meta>` is text, not an element: in HTML the raw-text elements (`<script>`,
/// `<style>`...), in XML CDATA sections.
pub fn meta_declarations(bytes: &[u8], markup: Markup) -> Vec<FoundLabel> {
    // Nothing after the last `<meta` can hold one: the scan stops a generous tag's length past
    // it instead of parsing every tag of a long document.
    let Some(last) = last_meta(bytes) else {
        return Vec::new();
    };
    let end = bytes.len().min(last + MAX_META_TAG_LEN);
    scan_meta(&bytes[..end], Some(markup), last)
}

/// How long a `<meta>` tag may be for [`meta_declarations`] to see its attributes: far beyond
/// any real one.
const MAX_META_TAG_LEN: usize = 4096;

/// Where the last `<meta` (any case) starts.
fn last_meta(b: &[u8]) -> Option<usize> {
    // A page has thousands of `<` and few `<m`: the two cases of `<m` are searched for many
    // bytes at a time, where stopping at every `<` would cost more than the scan it saves.
    static OPENERS: LazyLock<[Finder<'static>; 2]> =
        LazyLock::new(|| [Finder::new("<m"), Finder::new("<M")]);
    OPENERS
        .iter()
        .filter_map(|f| {
            f.find_iter(b)
                .filter(|&p| {
                    b[p + 1..]
                        .get(..4)
                        .is_some_and(|n| n.eq_ignore_ascii_case(b"meta"))
                })
                .last()
        })
        .max()
}

/// The prescan's tokenizer over `b`; with a `markup`, the text that is not markup in it is
/// skipped too. No `<meta` starts after `last`, so the scan ends once it is past it. Only a
/// `<meta>`'s attributes are read; any other tag is skipped to where reading its attributes
/// would end (`skip_attributes`), which is all the algorithm keeps of them.
fn scan_meta(b: &[u8], markup: Option<Markup>, last: usize) -> Vec<FoundLabel> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < b.len() && pos <= last {
        if b[pos] != b'<' {
            pos += memchr::memchr(b'<', &b[pos..]).unwrap_or(b.len() - pos);
            continue;
        }
        let next = b.get(pos + 1).copied().unwrap_or(0);
        if next == b'!' && b[pos..].starts_with(b"<!--") {
            pos = find(b, pos + 2, b"-->").map_or(b.len(), |e| e + 3);
        } else if next == b'!' && markup == Some(Markup::Xml) && b[pos..].starts_with(b"<![CDATA[")
        {
            pos = find(b, pos + 9, b"]]>").map_or(b.len(), |e| e + 3);
        } else if next | 0x20 == b'm'
            && starts_with_ignore_case(&b[pos..], b"<meta")
            && b.get(pos + 5).is_some_and(|&c| is_space(c) || c == b'/')
        {
            pos += 5;
            if let Some((r, kind)) = meta_charset(b, &mut pos) {
                out.push(FoundLabel {
                    label: String::from_utf8_lossy(&b[r.clone()]).trim().to_string(),
                    bytes: r,
                    kind,
                });
            }
        } else if next.is_ascii_alphabetic()
            || (next == b'/' && b.get(pos + 2).is_some_and(u8::is_ascii_alphabetic))
        {
            pos += 1;
            let name_start = pos;
            pos += b[pos..]
                .iter()
                .position(|&c| ENDS[usize::from(c)] & ENDS_TAG_NAME != 0)
                .unwrap_or(b.len() - pos);
            let name = &b[name_start..pos];
            pos = skip_attributes(b, pos) + 1;
            if markup == Some(Markup::Html)
                && let Some(raw) = raw_text_element(name)
            {
                let mut close = b"</".to_vec();
                close.extend_from_slice(raw);
                pos = match raw {
                    b"plaintext" => b.len(),
                    _ => find_ignore_case(b, pos, &close).unwrap_or(b.len()),
                };
            }
        } else if matches!(next, b'!' | b'/' | b'?') {
            pos = find(b, pos, b">").map_or(b.len(), |e| e + 1);
        } else {
            // Nothing but a `<` starts anything above.
            pos += 1 + memchr::memchr(b'<', &b[pos + 1..]).unwrap_or(b.len() - pos - 1);
        }
    }
    out
}

/// The raw-text element a start tag's name (with the `/` of `<script/>`) opens, if any.
fn raw_text_element(name: &[u8]) -> Option<&'static [u8]> {
    let name = name.strip_suffix(b"/").unwrap_or(name);
    // Most names are shorter or longer than every raw-text element's, or start otherwise.
    if !(3..=9).contains(&name.len())
        || !matches!(name[0] | 0x20, b's' | b'x' | b'i' | b'n' | b't' | b'p')
    {
        return None;
    }
    RAW_TEXT_ELEMENTS
        .iter()
        .copied()
        .find(|r| name.eq_ignore_ascii_case(r))
}

/// Bit of [`ENDS`]: the byte ends a tag's name in the prescan (space or `>`).
const ENDS_TAG_NAME: u8 = 1;
/// Bit of [`ENDS`]: the byte ends an attribute's name after its first byte (space, `/`, `>`, `=`).
const ENDS_ATTR_NAME: u8 = 2;
/// Bit of [`ENDS`]: the byte ends an unquoted attribute value (space or `>`).
const ENDS_UNQUOTED: u8 = 4;

/// Which runs of a tag each byte ends, so that names and values are read in one tight loop each.
static ENDS: [u8; 256] = {
    let mut t = [0u8; 256];
    let spaces = [b'\t', b'\n', 0x0C, b'\r', b' '];
    let mut i = 0;
    while i < spaces.len() {
        t[spaces[i] as usize] = ENDS_TAG_NAME | ENDS_ATTR_NAME | ENDS_UNQUOTED;
        i += 1;
    }
    t[b'>' as usize] = ENDS_TAG_NAME | ENDS_ATTR_NAME | ENDS_UNQUOTED;
    t[b'/' as usize] = ENDS_ATTR_NAME;
    t[b'=' as usize] = ENDS_ATTR_NAME;
    t
};

/// Where `while get_attribute(b, &mut pos).is_some() {}` leaves `pos` (at the tag's `>`, at the
/// end, or on a quote that never closes), without building the attributes: a tag other than
/// `<meta>` is read only to find where it ends.
fn skip_attributes(b: &[u8], mut i: usize) -> usize {
    let n = b.len();
    let run = |i: usize, bit: u8| {
        i + b[i..]
            .iter()
            .position(|&c| ENDS[usize::from(c)] & bit != 0)
            .unwrap_or(n - i)
    };
    'attribute: loop {
        while i < n && (is_space(b[i]) || b[i] == b'/') {
            i += 1;
        }
        if i >= n || b[i] == b'>' {
            return i;
        }
        // The name's first byte, even a `=`.
        i = run(i + 1, ENDS_ATTR_NAME);
        if i >= n {
            return n;
        }
        match b[i] {
            b'=' => {}
            b'/' | b'>' => continue 'attribute,
            _ => {
                while i < n && is_space(b[i]) {
                    i += 1;
                }
                if i >= n || b[i] != b'=' {
                    continue 'attribute;
                }
            }
        }
        // The value, after the `=`.
        i += 1;
        while i < n && is_space(b[i]) {
            i += 1;
        }
        if i >= n {
            return n;
        }
        let q = b[i];
        if q == b'"' || q == b'\'' {
            match memchr::memchr(q, &b[i + 1..]) {
                Some(k) => i += k + 2,
                None => return i,
            }
        } else {
            i = run(i, ENDS_UNQUOTED);
        }
    }
}

/// The `encoding` of an XML declaration (`<?xml version="1.0" encoding="ISO-8859-1"?>`) at the
/// start of `bytes` (after any BOM), for ASCII-compatible bytes.
pub fn xml_declared_encoding(bytes: &[u8]) -> Option<FoundLabel> {
    if !bytes.starts_with(b"<?xml") || !bytes.get(5).is_some_and(|&c| is_space(c)) {
        return None;
    }
    let end = find(bytes, 5, b"?>")?;
    let decl = &bytes[..end];
    let mut i = 5;
    while i < decl.len() {
        if decl[i..].starts_with(b"encoding") {
            let mut k = i + 8;
            while k < decl.len() && is_space(decl[k]) {
                k += 1;
            }
            if decl.get(k) != Some(&b'=') {
                return None;
            }
            k += 1;
            while k < decl.len() && is_space(decl[k]) {
                k += 1;
            }
            let q = *decl.get(k).filter(|&&q| q == b'"' || q == b'\'')?;
            let start = k + 1;
            let close = start + decl[start..].iter().position(|&x| x == q)?;
            return Some(FoundLabel {
                label: String::from_utf8_lossy(&decl[start..close]).to_string(),
                bytes: start..close,
                kind: DeclarationKind::XmlDeclaration,
            });
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan as it was before tags other than `<meta>` were skipped without reading their
    /// attributes: the oracle the fast scan must agree with.
    fn scan_meta_oracle(b: &[u8], markup: Option<Markup>, last: usize) -> Vec<FoundLabel> {
        let mut out = Vec::new();
        let mut pos = 0;
        while pos < b.len() && pos <= last {
            let rest = &b[pos..];
            if rest.starts_with(b"<!--") {
                pos = find(b, pos + 2, b"-->").map_or(b.len(), |e| e + 3);
            } else if markup == Some(Markup::Xml) && rest.starts_with(b"<![CDATA[") {
                pos = find(b, pos + 9, b"]]>").map_or(b.len(), |e| e + 3);
            } else if starts_with_ignore_case(rest, b"<meta")
                && rest.get(5).is_some_and(|&c| is_space(c) || c == b'/')
            {
                pos += 5;
                if let Some((r, kind)) = meta_charset(b, &mut pos) {
                    out.push(FoundLabel {
                        label: String::from_utf8_lossy(&b[r.clone()]).trim().to_string(),
                        bytes: r,
                        kind,
                    });
                }
            } else if rest.len() > 1
                && rest[0] == b'<'
                && (rest[1].is_ascii_alphabetic()
                    || (rest[1] == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
            {
                pos += 1;
                let name_start = pos;
                while pos < b.len() && !is_space(b[pos]) && b[pos] != b'>' {
                    pos += 1;
                }
                let name = &b[name_start..pos];
                while get_attribute(b, &mut pos).is_some() {}
                pos += 1;
                if markup == Some(Markup::Html)
                    && let Some(raw) = RAW_TEXT_ELEMENTS.iter().find(|r| {
                        name.strip_suffix(b"/")
                            .unwrap_or(name)
                            .eq_ignore_ascii_case(r)
                    })
                {
                    let mut close = b"</".to_vec();
                    close.extend_from_slice(raw);
                    pos = match *raw {
                        b"plaintext" => b.len(),
                        _ => find_ignore_case(b, pos, &close).unwrap_or(b.len()),
                    };
                }
            } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?")
            {
                pos = find(b, pos, b">").map_or(b.len(), |e| e + 1);
            } else {
                // Nothing but a `<` starts anything above.
                pos += 1 + memchr::memchr(b'<', &b[pos + 1..]).unwrap_or(b.len() - pos - 1);
            }
        }
        out
    }

    fn meta(s: &str) -> Option<String> {
        html_prescan(s.as_bytes()).into_iter().next().map(|f| {
            assert_eq!(&s[f.bytes.clone()].trim(), &f.label);
            f.label
        })
    }

    #[test]
    fn the_scan_stops_after_the_last_meta_with_the_same_result() {
        let head = "<html><head><script>var s = '<meta charset=koi8-r>';</script>";
        let tail = "<p title=\"a > b\">x</p>".repeat(2000);
        let doc =
            format!("{head}<META http-equiv=content-type content='text/html; charset=big5'>{tail}");
        let found = meta_declarations(doc.as_bytes(), Markup::Html);
        let labels: Vec<&str> = found.iter().map(|f| f.label.as_str()).collect();
        assert_eq!(labels, ["big5"]);
        assert_eq!(
            found,
            scan_meta(doc.as_bytes(), Some(Markup::Html), usize::MAX)
        );
        assert_eq!(last_meta(b"<p><Meta x><a>"), Some(3));
        assert!(meta_declarations(tail.as_bytes(), Markup::Html).is_empty());
    }

    /// Pieces of documents where a `<meta` is an element, text, an attribute value or a
    /// comment, in mixed case.
    const PIECES: &[&str] = &[
        "<meta charset=koi8-r>",
        "<mEtA charset='big5'>",
        "<META http-equiv=Content-Type content=\"text/html; charset=euc-jp\">",
        "<meta name=x>",
        "<m",
        "<M",
        "<script>",
        "</script>",
        "<title>",
        "</TITLE>",
        "<!--",
        "-->",
        "<p title=\"<meta charset=x>\">",
        "<![CDATA[",
        "]]>",
        "<",
        ">",
        "text ",
        "\n",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Stopping at the last `<meta` (found by its `<m`) finds what scanning everything finds.
        #[test]
        fn stopping_after_the_last_meta_changes_nothing(
            parts in proptest::collection::vec(proptest::sample::select(PIECES), 0..60),
        ) {
            let doc = parts.concat();
            let b = doc.as_bytes();
            let naive = (0..b.len()).rev().find(|&p| {
                b[p] == b'<' && b.get(p + 1..p + 5).is_some_and(|n| n.eq_ignore_ascii_case(b"meta"))
            });
            proptest::prop_assert_eq!(last_meta(b), naive);
            for markup in [Markup::Html, Markup::Xml] {
                proptest::prop_assert_eq!(
                    meta_declarations(b, markup),
                    scan_meta(b, Some(markup), usize::MAX)
                );
            }
            let head = &b[..b.len().min(HTML_PRESCAN_LEN)];
            proptest::prop_assert_eq!(html_prescan(b), scan_meta(head, None, usize::MAX));
        }
    }

    /// Pieces of tags for the fast scan: quotes (closed or not) around `>`, `=` in odd places,
    /// `/`, raw-text elements in any case, a BOM, and padding that puts a `<meta` across the
    /// prescan's 1,024-byte boundary.
    const TAG_PIECES: &[&str] = &[
        "<meta charset=koi8-r>",
        "<META http-equiv=content-type content='text/html; charset=big5'>",
        "<meta",
        "<p",
        "<P title=\"a > b\"",
        "</p",
        "</",
        "<?x",
        "<!x",
        "<!--",
        "-->",
        "<![CDATA[",
        "]]>",
        "<SCRIPT",
        "<script/",
        "</script>",
        "<Style>",
        "</STYLE>",
        "<xmp>",
        "<plaintext>",
        "<textarea>",
        "<title>",
        "</title>",
        "<iframe ",
        "<noframes>",
        "<nav>",
        " a",
        " charset",
        "=",
        " = ",
        "=\"",
        "='",
        "\"",
        "'",
        ">",
        "/",
        "<",
        " ",
        "\t",
        "x",
        "\u{FEFF}",
        "\u{E9}",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]

        /// The scan that skips other tags without reading their attributes finds exactly what
        /// the scan that read them found, in the three modes and through both entry points.
        #[test]
        fn skipping_tags_finds_what_reading_them_found(
            parts in proptest::collection::vec(proptest::sample::select(TAG_PIECES), 0..80),
            pad in 0usize..1100,
        ) {
            let doc = format!("{}{}", " ".repeat(pad), parts.concat());
            let b = doc.as_bytes();
            for markup in [None, Some(Markup::Html), Some(Markup::Xml)] {
                proptest::prop_assert_eq!(
                    scan_meta(b, markup, usize::MAX),
                    scan_meta_oracle(b, markup, usize::MAX)
                );
            }
            let head = &b[..b.len().min(HTML_PRESCAN_LEN)];
            proptest::prop_assert_eq!(html_prescan(b), scan_meta_oracle(head, None, usize::MAX));
            for markup in [Markup::Html, Markup::Xml] {
                proptest::prop_assert_eq!(
                    meta_declarations(b, markup),
                    scan_meta_oracle(b, Some(markup), usize::MAX)
                );
            }
        }

        /// Any bytes at all: the tag skip ends where reading the attributes ended.
        #[test]
        fn skipping_attributes_ends_where_reading_them_ended(
            b in proptest::collection::vec(proptest::sample::select(
                b"ab =/>\"'\t\n<m".to_vec()), 0..40),
            from in 0usize..40,
        ) {
            let from = from.min(b.len());
            let mut pos = from;
            while get_attribute(&b, &mut pos).is_some() {}
            proptest::prop_assert_eq!(skip_attributes(&b, from), pos);
        }
    }

    #[test]
    fn the_fast_scan_agrees_on_the_edges() {
        let cases = [
            // `>` inside a quoted value does not end the tag; a quote after a name's `=` as its
            // first byte, or inside an unquoted value, opens nothing.
            "<p title='<meta charset=a>'><meta charset=b>",
            "<p =\"x><meta charset=a>\"><meta charset=b>",
            "<p a=b=\"x><meta charset=a>\"><meta charset=b>",
            "<p a/=\"x><meta charset=a>\">",
            // A quote that never closes ends the tag on it.
            "<p a=\"<meta charset=a>",
            "<p a='x><meta charset=b>",
            // Comments, uppercase, raw text, and a BOM before the first tag.
            "\u{FEFF}<!-- <meta charset=a> --><META CHARSET=b>",
            "<SCRIPT>'<meta charset=a>'</Script><meta charset=b>",
            "<script/><meta charset=a></script><meta charset=b>",
            "<plaintext><meta charset=a>",
            "</script><meta charset=a>",
        ];
        for doc in cases {
            let b = doc.as_bytes();
            for markup in [None, Some(Markup::Html), Some(Markup::Xml)] {
                assert_eq!(
                    scan_meta(b, markup, usize::MAX),
                    scan_meta_oracle(b, markup, usize::MAX),
                    "{doc:?} {markup:?}"
                );
            }
        }
        // The `<meta` split at the prescan's boundary: only the whole-document scan sees it.
        let split = format!("{}<meta charset=latin1>", " ".repeat(HTML_PRESCAN_LEN - 3));
        assert!(html_prescan(split.as_bytes()).is_empty());
        assert_eq!(
            meta_declarations(split.as_bytes(), Markup::Html)[0].label,
            "latin1"
        );
        // What the standard's prescan finds, written out (not only the old scan's answer).
        let labels = |doc: &str| -> Vec<String> {
            scan_meta(doc.as_bytes(), Some(Markup::Html), usize::MAX)
                .into_iter()
                .map(|f| f.label)
                .collect()
        };
        assert_eq!(
            labels("<p title='<meta charset=a>'><meta charset=b>"),
            ["b"]
        );
        assert_eq!(labels("<!-- <meta charset=a> --><META CHARSET=b>"), ["b"]);
        // Every raw-text element passes the look at a name's length and first letter.
        for name in RAW_TEXT_ELEMENTS {
            assert_eq!(raw_text_element(name), Some(name));
            assert_eq!(raw_text_element(&name.to_ascii_uppercase()), Some(name));
        }
        assert_eq!(skip_attributes(b"a='x>", 0), 2);
        assert_eq!(skip_attributes(b"=\"x>\">", 0), 3);
        assert_eq!(skip_attributes(b" a = \"x>\" b>", 0), 11);
    }

    #[test]
    fn meta_charset_forms() {
        assert_eq!(
            meta("<html><head><meta charset=\"ISO-8859-1\">"),
            Some("ISO-8859-1".into())
        );
        assert_eq!(meta("<META CHARSET=shift_jis>"), Some("shift_jis".into()));
        assert_eq!(
            meta("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\">"),
            Some("windows-1252".into())
        );
        assert_eq!(
            meta("<meta content='text/html;charset=\"utf-8\"' http-equiv=content-type>"),
            Some("utf-8".into())
        );
        assert_eq!(meta("<meta content=\"text/html; charset=utf-8\">"), None);
        assert_eq!(meta("<!-- <meta charset=latin1> --><p>"), None);
        assert_eq!(meta("<p title='<meta charset=x>'>"), None);
        let late = format!("{}<meta charset=latin1>", " ".repeat(1020));
        assert_eq!(meta(&late), None, "beyond 1024 bytes");
    }

    #[test]
    fn every_declaration_is_kept_with_its_kind() {
        let html = "<meta charset=klingon><meta http-equiv=content-type content='text/html; charset=latin1'><meta charset=utf-8>";
        let found: Vec<(String, DeclarationKind)> = html_prescan(html.as_bytes())
            .into_iter()
            .map(|f| (f.label, f.kind))
            .collect();
        assert_eq!(
            found,
            [
                ("klingon".to_string(), DeclarationKind::MetaCharset),
                ("latin1".to_string(), DeclarationKind::MetaHttpEquiv),
                ("utf-8".to_string(), DeclarationKind::MetaCharset),
            ]
        );
    }

    #[test]
    fn a_meta_in_raw_text_or_cdata_is_text() {
        let doc = "<script>x='<meta charset=a>'</SCRIPT><style>/*<meta charset=b>*/</style>\
                   <textarea><meta charset=c></textarea><![CDATA[<meta charset=d>]]>\
                   <meta charset=e>";
        let labels = |doc: &str, markup| -> Vec<String> {
            meta_declarations(doc.as_bytes(), markup)
                .into_iter()
                .map(|f| f.label)
                .collect()
        };
        assert_eq!(labels(doc, Markup::Html), ["e"]);
        // In HTML `<plaintext>` never ends; `<script/>` opens raw text (the slash is ignored).
        assert!(labels("<plaintext><meta charset=a>", Markup::Html).is_empty());
        assert!(labels("<script/><meta charset=a>", Markup::Html).is_empty());
        // In XML an empty `<script/>` holds nothing, and only CDATA sections are text.
        let xhtml = "<head><script src='a.js'/><meta charset='a'/>\
                     <script>//<![CDATA[\n'<meta charset=b>'//]]></script></head>";
        assert_eq!(labels(xhtml, Markup::Xml), ["a"]);
        // The prescan itself does not know raw text (WHATWG): it sees the first.
        assert_eq!(html_prescan(doc.as_bytes())[0].label, "a");
        // Beyond the first 1024 bytes, only the whole-document scan sees a `<meta>`.
        let late = format!("{}<meta charset=latin1>", " ".repeat(1100));
        assert!(html_prescan(late.as_bytes()).is_empty());
        assert_eq!(
            meta_declarations(late.as_bytes(), Markup::Html)[0].bytes,
            1114..1120
        );
    }

    #[test]
    fn attribute_names_follow_get_an_attribute() {
        // The first of two attributes of the same name (ignoring case) counts.
        assert_eq!(
            meta("<meta CHARSET=koi8-r charset=utf-8>"),
            Some("koi8-r".into())
        );
        // Spaces around `=`, a name starting with `=`, valueless attributes before the charset.
        assert_eq!(
            meta("<meta =x hidden charset = 'big5'>"),
            Some("big5".into())
        );
        // A `>` inside a quoted value of another tag does not end it; text between tags and a
        // lone `<` are skipped.
        assert_eq!(
            meta("a < b <p title='<meta charset=x>' class=y>text <meta charset=euc-kr>"),
            Some("euc-kr".into())
        );
        // `charseta` is not `charset`.
        assert_eq!(meta("<meta charseta=big5 charset=gbk>"), Some("gbk".into()));
    }

    #[test]
    fn xml_declaration() {
        let f =
            xml_declared_encoding(b"<?xml version=\"1.0\" encoding='ISO-8859-1'?><a/>").unwrap();
        assert_eq!(f.label, "ISO-8859-1");
        assert_eq!(f.bytes, 30..40);
        assert_eq!(xml_declared_encoding(b"<?xml version=\"1.0\"?><a/>"), None);
        assert_eq!(xml_declared_encoding(b"<a/>"), None);
    }
}
