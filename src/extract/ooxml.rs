//! IRIs in the XML parts of Office Open XML documents (Word, PowerPoint, Excel) that hold the
//! document's text: field codes `HYPERLINK "…"` (in `w:instrText`, its runs joined, and
//! `w:fldSimple@w:instr`)
//! and the IRIs written as text in text elements (`w:t`, `a:t`, Excel's `t`), found as in plain
//! text. A hyperlink's target is not in these parts but in a relationship part (`*.rels`,
//! `TargetMode="External"`), which the XML extractor reads ([`super::xml`]).
//!
//! Each text element is read on its own, its references (`&amp;`, `&#x202E;`) resolved and
//! mapped back to the source. The runs of a paragraph are read as one text, as a reader sees
//! them: an editor cuts a URL into runs wherever formatting or revision marks change (a
//! finding then underlines from its first run to its last). The markup is scanned, not
//! checked: a part that is not well-formed is read as far as it goes.

use std::ops::Range;

use super::span_map::{SpanMap, decode_escapes};
use super::{Extraction, Occurrence, text};

/// What a piece of a part holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Piece {
    /// The text of a text element: IRIs as in plain text.
    Text,
    /// A field instruction: `HYPERLINK "…"`.
    Field,
}

/// Text gathered from the elements of one paragraph (or one field instruction), their
/// references resolved, with the map back to the part.
#[derive(Default)]
pub(super) struct Joined {
    text: String,
    map: SpanMap,
}

impl Joined {
    /// Appends the content of a text element at `range` of `part`.
    pub(super) fn push(&mut self, part: &str, range: Range<usize>) {
        let (decoded, map) = resolved(part, range);
        if self.text.is_empty() {
            self.text = decoded;
            self.map = map;
        } else {
            self.text.push_str(&decoded);
            self.map.extend(&map);
        }
    }

    /// Reads what was gathered as `piece`, and starts again.
    pub(super) fn flush(&mut self, piece: Piece, on: &mut dyn FnMut(Occurrence)) {
        if !self.text.is_empty() {
            read(&self.text, &self.map, piece, on);
        }
        *self = Joined::default();
    }
}

/// Elements that end the text before them as a reader sees it: paragraphs (Word's and
/// DrawingML's `p`, an Excel string item `si` and its phonetic runs `rPh`), tabs and breaks.
/// Between two of them, the runs (`w:r`, `a:r`, Excel's `r`) a text is cut into (an editor
/// starts a run wherever formatting, spelling marks or revision ids change, inside a URL too)
/// are read as one text.
fn ends_text(local: &str) -> bool {
    matches!(
        local,
        "p" | "si" | "rPh" | "tab" | "br" | "cr" | "tc" | "txBody"
    )
}

/// Hands each IRI of an Office XML part to `on_occurrence`: a paragraph's once it ends, a field
/// instruction's once it does (so not always in document order: [`super::extract`] sorts).
pub fn extract_each(text: &str, on_occurrence: &mut dyn FnMut(Occurrence)) -> Extraction {
    // The text element being read, by the end of its start tag.
    let mut open: Option<(Piece, usize, &str)> = None;
    // The paragraph's text so far, and the field instruction's (split across runs as well).
    let mut paragraph = Joined::default();
    let mut instruction = Joined::default();
    for tag in tags(text) {
        if let Some((piece, start, name)) = open {
            if tag.closing && tag.name == name {
                match piece {
                    Piece::Text => paragraph.push(text, start..tag.lt),
                    Piece::Field => instruction.push(text, start..tag.lt),
                }
                open = None;
            }
            continue;
        }
        if ends_text(tag.local) {
            paragraph.flush(Piece::Text, on_occurrence);
            if tag.local == "p" {
                instruction.flush(Piece::Field, on_occurrence);
            }
            continue;
        }
        if tag.closing {
            continue;
        }
        match tag.local {
            "t" if !tag.empty => open = Some((Piece::Text, tag.gt + 1, tag.name)),
            "instrText" if !tag.empty => open = Some((Piece::Field, tag.gt + 1, tag.name)),
            // A field's instruction runs from its `begin` to its `separate` (or `end`).
            "fldChar" => instruction.flush(Piece::Field, on_occurrence),
            "fldSimple" => {
                if let Some(value) = tag.attribute("instr") {
                    let mut field = Joined::default();
                    field.push(text, value);
                    field.flush(Piece::Field, on_occurrence);
                }
            }
            _ => {}
        }
    }
    paragraph.flush(Piece::Text, on_occurrence);
    instruction.flush(Piece::Field, on_occurrence);
    Extraction::default()
}

/// A tag met by [`tags`].
pub(super) struct Tag<'a> {
    /// Where the text before it starts (just past the tag before it).
    pub before: usize,
    /// Its `<`.
    pub lt: usize,
    /// Its `>`.
    pub gt: usize,
    /// What is between them.
    pub body: &'a str,
    /// Its name, with its prefix; empty for `<?…>` and `<!…>`.
    pub name: &'a str,
    /// Its name without its prefix.
    pub local: &'a str,
    /// An end tag (`</x>`).
    pub closing: bool,
    /// An empty-element tag (`<x/>`).
    pub empty: bool,
}

impl Tag<'_> {
    /// The range in the part of the value of the attribute whose local name is `local`.
    pub(super) fn attribute(&self, local: &str) -> Option<Range<usize>> {
        attribute(self.body, local).map(|r| self.lt + 1 + r.start..self.lt + 1 + r.end)
    }
}

/// The tags of the part `text`, in order, up to one that does not end: the markup is scanned,
/// not checked, and a part that is not well-formed is read as far as it goes.
pub(super) fn tags(text: &str) -> impl Iterator<Item = Tag<'_>> {
    let b = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        let lt = at + memchr::memchr(b'<', &b[at..])?;
        let gt = tag_end(b, lt)?;
        let before = at;
        at = gt + 1;
        let body = &text[lt + 1..gt];
        let trimmed = body.trim_start_matches('/');
        let name = match body.starts_with(['?', '!']) {
            true => "",
            false => {
                &trimmed[..trimmed
                    .find(|c: char| c.is_ascii_whitespace() || c == '/')
                    .unwrap_or(trimmed.len())]
            }
        };
        Some(Tag {
            before,
            lt,
            gt,
            body,
            name,
            local: name.rsplit(':').next().unwrap_or(name),
            closing: body.starts_with('/'),
            empty: body.ends_with('/'),
        })
    })
}

/// `text[range]` with its XML references resolved, and the map back to the part.
pub(super) fn resolved(text: &str, range: Range<usize>) -> (String, SpanMap) {
    decode_escapes(
        text,
        range,
        |s| memchr::memchr(b'&', s),
        |i| reference_at(text, i),
    )
}

/// Where the tag starting at `lt` ends (its `>`), quotes skipped.
fn tag_end(b: &[u8], lt: usize) -> Option<usize> {
    let mut quote = None;
    for (i, &c) in b.iter().enumerate().skip(lt + 1) {
        match (quote, c) {
            (None, b'"' | b'\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, b'>') => return Some(i),
            _ => {}
        }
    }
    None
}

/// The range of the value of the attribute whose local name is `local` in `tag` (the text
/// between `<` and `>`).
pub(super) fn attribute(tag: &str, local: &str) -> Option<Range<usize>> {
    let mut from = 0;
    while let Some(k) = tag[from..].find(local) {
        let at = from + k;
        from = at + local.len();
        let before = tag[..at].chars().last();
        if !matches!(
            before,
            Some(':') | Some(' ') | Some('\t') | Some('\n') | Some('\r')
        ) {
            continue;
        }
        let rest = tag[from..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else {
            continue;
        };
        let rest_trimmed = rest.trim_start();
        let q = rest_trimmed.chars().next()?;
        if q != '"' && q != '\'' {
            continue;
        }
        let start = tag.len() - rest_trimmed.len() + 1;
        let end = start + tag[start..].find(q)?;
        return Some(start..end);
    }
    None
}

/// What the XML reference at `at` of `text` stands for, and its length.
pub(super) fn reference_at(text: &str, at: usize) -> Option<(String, usize)> {
    let rest = &text[at..];
    // A reference is short and ASCII: looked for in bytes (a cut inside a character is fine).
    let end = rest.as_bytes()[..rest.len().min(12)]
        .iter()
        .position(|&c| c == b';')?;
    let body = &rest[1..end];
    let s = match body {
        "amp" => "&".to_string(),
        "lt" => "<".to_string(),
        "gt" => ">".to_string(),
        "quot" => "\"".to_string(),
        "apos" => "'".to_string(),
        _ => {
            let n = match body.strip_prefix("#x").or_else(|| body.strip_prefix("#X")) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => body.strip_prefix('#')?.parse().ok()?,
            };
            char::from_u32(n)?.to_string()
        }
    };
    Some((s, end + 1))
}

/// Reads the IRIs of a piece's text `decoded`, whose `map` leads back to the part.
fn read(decoded: &str, map: &SpanMap, piece: Piece, on: &mut dyn FnMut(Occurrence)) {
    match piece {
        Piece::Text => {
            for r in text::Iris::new(decoded) {
                on(located(text::occurrence(decoded, r.clone()), map, r));
            }
        }
        Piece::Field => {
            if let Some(r) = hyperlink_target(decoded) {
                let mut occ = Occurrence::verbatim(decoded, r.clone(), "HYPERLINK");
                occ.placeholders = Vec::new();
                on(located(occ, map, r));
            }
        }
    }
}

/// The target of a `HYPERLINK "…"` field instruction (not its `\l` bookmark form).
fn hyperlink_target(instr: &str) -> Option<Range<usize>> {
    let trimmed = instr.trim_start();
    let word = trimmed.get(..9)?;
    if !word.eq_ignore_ascii_case("HYPERLINK") {
        return None;
    }
    let after = instr.len() - trimmed.len() + 9;
    let rest = &instr[after..];
    let rest_trimmed = rest.trim_start();
    if rest_trimmed.starts_with("\\l") {
        return None;
    }
    let start = instr.len() - rest_trimmed.len();
    if let Some(quoted) = rest_trimmed.strip_prefix('"') {
        let end = start + 1 + quoted.find('"').unwrap_or(quoted.len());
        return (end > start + 1).then_some(start + 1..end);
    }
    let end = start
        + rest_trimmed
            .find(char::is_whitespace)
            .unwrap_or(rest_trimmed.len());
    (end > start).then_some(start..end)
}

/// `occ`, found at `r` of a decoded piece, mapped to the part through the piece's `map`.
fn located(mut occ: Occurrence, map: &SpanMap, r: Range<usize>) -> Occurrence {
    occ.map = map.slice(r);
    occ
}

/// The text shown for each hyperlink of a document part, by relationship id: the text of the
/// runs inside a `w:hyperlink r:id="…"` (Word), or of the run whose properties hold an
/// `a:hlinkClick r:id="…"` (DrawingML: PowerPoint, shapes). Each id's texts are joined.
pub fn hyperlink_texts(text: &str) -> std::collections::HashMap<String, String> {
    let mut out: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    // The hyperlink being read (Word's element, or DrawingML's run), and whether a text
    // element is open (its content's start).
    let mut current: Option<(String, bool)> = None;
    let mut open_text: Option<usize> = None;
    for tag in tags(text) {
        match (tag.local, tag.closing) {
            ("t", false) if !tag.empty => open_text = Some(tag.gt + 1),
            ("t", true) => {
                if let (Some(start), Some((id, _))) = (open_text.take(), &current) {
                    let (shown, _) = resolved(text, start..tag.lt);
                    out.entry(id.clone()).or_default().push_str(&shown);
                }
            }
            ("hyperlink", false) if !tag.empty => {
                current = tag.attribute("id").map(|r| (text[r].to_string(), true));
            }
            ("hyperlink", true) => current = None,
            ("hlinkClick", false) => {
                if let Some(r) = tag.attribute("id") {
                    current = Some((text[r].to_string(), false));
                }
            }
            // A DrawingML run ends its link; Word's runs are inside the hyperlink element.
            ("r", true) if current.as_ref().is_some_and(|(_, word)| !word) => current = None,
            _ => {}
        }
    }
    out
}

/// What an Excel cell shows, as far as its link's text goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellText {
    /// The item of the shared strings with this index (`t="s"`).
    Shared(usize),
    /// A string held in the cell itself (`t="inlineStr"`, `t="str"`).
    Inline(String),
}

/// The hyperlinks of an Excel worksheet: each relationship id with what the cells it is on
/// show (the cell its `ref` starts at, and its `display` string when it has one). Hyperlinks
/// follow the cells in a sheet, so the sheet is read twice: their cells first, then those
/// cells' values.
pub fn sheet_links(sheet: &str) -> Vec<(String, Vec<CellText>)> {
    let b = sheet.as_bytes();
    // Each hyperlink: its id, the cell its range starts at, its display string.
    let mut links: Vec<(String, String, Option<String>)> = Vec::new();
    let mut at = 0;
    while let Some(k) = memchr::memmem::find(&b[at..], b"<hyperlink ") {
        let Some(tag) = tags(&sheet[at + k..]).next() else {
            break;
        };
        let value = |name: &str| attribute(tag.body, name).map(|r| resolved(tag.body, r).0);
        if let (Some(id), Some(cells)) = (value("id"), value("ref")) {
            let first = cells.split(':').next().unwrap_or("").to_ascii_uppercase();
            links.push((id, first, value("display")));
        }
        at += k + tag.gt + 1;
    }
    if links.is_empty() {
        return Vec::new();
    }
    let wanted: std::collections::HashSet<&str> = links.iter().map(|l| l.1.as_str()).collect();
    let mut shown: std::collections::HashMap<String, CellText> = std::collections::HashMap::new();
    // The cell being read: its reference and its type; where its value or text starts.
    let mut cell: Option<(String, String)> = None;
    let mut open: Option<usize> = None;
    let mut inline = String::new();
    for tag in tags(sheet) {
        match (tag.local, tag.closing) {
            ("c", false) if !tag.empty => {
                cell = tag
                    .attribute("r")
                    .map(|r| sheet[r].to_ascii_uppercase())
                    .filter(|r| wanted.contains(r.as_str()))
                    .map(|r| {
                        let kind = tag.attribute("t").map_or("n", |t| &sheet[t]).to_string();
                        (r, kind)
                    });
                inline.clear();
            }
            ("c", true) => {
                if let Some((r, kind)) = cell.take()
                    && kind != "s"
                    && !inline.is_empty()
                {
                    shown.insert(r, CellText::Inline(std::mem::take(&mut inline)));
                }
            }
            ("v" | "t", false) if cell.is_some() && !tag.empty => open = Some(tag.gt + 1),
            ("v" | "t", true) => {
                if let (Some(start), Some((r, kind))) = (open.take(), &cell) {
                    let value = resolved(sheet, start..tag.lt).0;
                    match (tag.local, kind.as_str()) {
                        ("v", "s") => {
                            if let Ok(n) = value.trim().parse() {
                                shown.insert(r.clone(), CellText::Shared(n));
                            }
                        }
                        ("v", "str") | ("t", "inlineStr") => inline.push_str(&value),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    links
        .into_iter()
        .map(|(id, r, display)| {
            let mut texts: Vec<CellText> = shown.get(&r).cloned().into_iter().collect();
            texts.extend(display.map(CellText::Inline));
            (id, texts)
        })
        .collect()
}

/// The items of Excel's shared strings whose indexes are in `wanted`: each item's runs joined,
/// its phonetic runs (`rPh`) left out.
pub fn shared_strings(
    sst: &str,
    wanted: &std::collections::BTreeSet<usize>,
) -> std::collections::HashMap<usize, String> {
    let mut out = std::collections::HashMap::new();
    let Some(&last) = wanted.last() else {
        return out;
    };
    // The index of the item being read (the count of items started, less one).
    let mut item: Option<usize> = None;
    let mut text = String::new();
    let mut phonetic = false;
    let mut open: Option<usize> = None;
    for tag in tags(sst) {
        match (tag.local, tag.closing) {
            ("si", false) => {
                let n = item.map_or(0, |n| n + 1);
                if n > last {
                    break;
                }
                item = Some(n);
                text.clear();
                if tag.empty && wanted.contains(&n) {
                    out.insert(n, String::new());
                }
            }
            ("si", true) => {
                if let Some(n) = item.filter(|n| wanted.contains(n)) {
                    out.insert(n, std::mem::take(&mut text));
                }
            }
            ("rPh", false) => phonetic = !tag.empty,
            ("rPh", true) => phonetic = false,
            ("t", false) if !tag.empty => open = Some(tag.gt + 1),
            ("t", true) => {
                if let (Some(start), false, Some(n)) = (open.take(), phonetic, item)
                    && wanted.contains(&n)
                {
                    text.push_str(&resolved(sst, start..tag.lt).0);
                }
            }
            _ => {}
        }
    }
    out
}

/// The external relationships of a relationship part: each id with its target as prepared
/// (references resolved, as the XML extractor prepares it).
pub fn external_targets(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for tag in tags(text) {
        if tag.local != "Relationship" || tag.closing {
            continue;
        }
        let value = |name: &str| tag.attribute(name).map(|r| resolved(text, r).0);
        let external =
            value("TargetMode").is_some_and(|m| m.trim().eq_ignore_ascii_case("External"));
        if let (true, Some(id), Some(target)) = (external, value("Id"), value("Target")) {
            out.push((id, target));
        }
    }
    out
}

/// The part a relationship part describes: `word/_rels/document.xml.rels` is about
/// `word/document.xml`.
pub fn described_part(rels: &str) -> Option<String> {
    let (dir, file) = rels.rsplit_once("_rels/")?;
    Some(format!("{dir}{}", file.strip_suffix(".rels")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_texts_by_relationship() {
        let word = "<w:p><w:hyperlink r:id=\"rId5\"><w:r><w:t>https://bank.</w:t></w:r><w:r><w:t>example.com/</w:t></w:r></w:hyperlink><w:r><w:t>after</w:t></w:r></w:p>";
        let texts = hyperlink_texts(word);
        assert_eq!(
            texts.get("rId5").map(String::as_str),
            Some("https://bank.example.com/")
        );
        assert_eq!(texts.len(), 1);
        let slide = "<a:r><a:rPr><a:hlinkClick r:id=\"rId2\"/></a:rPr><a:t>a &amp; b.org</a:t></a:r><a:r><a:t>not</a:t></a:r>";
        assert_eq!(
            hyperlink_texts(slide).get("rId2").map(String::as_str),
            Some("a & b.org")
        );
        let rels = "<Relationships><Relationship Id=\"rId5\" Type=\"t\" Target=\"https://a.org/?x=1&amp;y\" TargetMode=\"External\"/><Relationship Id=\"rId6\" Target=\"styles.xml\"/></Relationships>";
        assert_eq!(
            external_targets(rels),
            [("rId5".to_string(), "https://a.org/?x=1&y".to_string())]
        );
        assert_eq!(
            described_part("word/_rels/document.xml.rels").as_deref(),
            Some("word/document.xml")
        );
        assert_eq!(described_part("_rels/.rels").as_deref(), Some(""));
    }

    /// The IRIs found, in document order (as [`super::super::extract`] sorts them).
    fn found(text: &str) -> Vec<(String, String, Range<usize>)> {
        let mut out = Vec::new();
        extract_each(text, &mut |o| {
            out.push((
                o.iri.to_string(),
                o.origin.to_string(),
                o.map.source_range(),
            ))
        });
        out.sort_by_key(|o| o.2.start);
        out
    }

    #[test]
    fn text_and_field_codes() {
        let doc = "<w:p><w:r><w:t xml:space=\"preserve\">see https://a.org/x?a=1&amp;b=2 now</w:t></w:r>\
                   <w:r><w:instrText> HYPERLINK \"https://b.org/&#x202E;\" \\o \"tip\"</w:instrText></w:r>\
                   <w:fldSimple w:instr=\" HYPERLINK &quot;https://c.org/&quot; \"><w:r><w:t>c</w:t></w:r></w:fldSimple>\
                   <w:instrText>HYPERLINK \\l \"_Toc1\"</w:instrText></w:p><a:p><a:t>www.d.org</a:t><w:t/></a:p>";
        let got = found(doc);
        let iris: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
        assert_eq!(
            iris,
            [
                "https://a.org/x?a=1&b=2",
                "https://b.org/\u{202e}",
                "https://c.org/",
                "www.d.org"
            ]
        );
        assert_eq!(&doc[got[0].2.clone()], "https://a.org/x?a=1&amp;b=2");
        assert_eq!(&doc[got[1].2.clone()], "https://b.org/&#x202E;");
        assert_eq!(got[1].1, "HYPERLINK");
        assert_eq!(&doc[got[2].2.clone()], "https://c.org/");
    }

    #[test]
    fn the_runs_of_a_paragraph_are_one_text() {
        // Word cuts a URL where a spelling mark or a revision id changes.
        let doc = "<w:p><w:r><w:t>see https://bank.</w:t></w:r><w:proofErr w:type=\"spellStart\"/>\
                   <w:r w:rsidR=\"00A1\"><w:t>exam&#x200B;ple</w:t></w:r><w:r><w:t>.com/login now</w:t></w:r></w:p>\
                   <w:p><w:r><w:t>https://a.org/</w:t></w:r></w:p><w:p><w:r><w:t>x</w:t></w:r></w:p>\
                   <w:p><w:r><w:t>https://b.org/</w:t></w:r><w:r><w:tab/><w:t>y</w:t></w:r></w:p>";
        let got = found(doc);
        let iris: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
        assert_eq!(
            iris,
            [
                "https://bank.exam\u{200b}ple.com/login",
                "https://a.org/",
                "https://b.org/"
            ]
        );
        // Underlined from its first run to its last.
        let first = &doc[got[0].2.clone()];
        assert!(first.starts_with("https://bank.</w:t>"), "{first}");
        assert!(first.ends_with(".com/login"), "{first}");
        // Excel's rich text: an item's runs are one string, its phonetic runs apart.
        let sst = "<sst><si><r><t>https://c.</t></r><r><rPr><b/></rPr><t>org/p</t></r><rPh><t>https://d.org/</t></rPh></si>\
                   <si><t>https://e.org/</t></si></sst>";
        let iris: Vec<String> = found(sst).into_iter().map(|g| g.0).collect();
        assert_eq!(
            iris,
            ["https://c.org/p", "https://d.org/", "https://e.org/"]
        );
        // A field instruction cut into runs, ended by its `separate`.
        let field = "<w:p><w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText> HYPERLINK \"https://f.</w:instrText></w:r>\
                     <w:r><w:instrText>org/&#x202E;\" </w:instrText></w:r><w:r><w:fldChar w:fldCharType=\"separate\"/></w:r>\
                     <w:r><w:t>text</w:t></w:r><w:r><w:fldChar w:fldCharType=\"end\"/></w:r></w:p>";
        let got = found(field);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0, "https://f.org/\u{202e}");
        assert_eq!(got[0].1, "HYPERLINK");
        // DrawingML: paragraphs and breaks end a text.
        let slide = "<a:p><a:r><a:t>https://g.org/</a:t></a:r><a:br/><a:r><a:t>next</a:t></a:r></a:p><a:p><a:r><a:t>line</a:t></a:r></a:p>";
        let iris: Vec<String> = found(slide).into_iter().map(|g| g.0).collect();
        assert_eq!(iris, ["https://g.org/"]);
    }

    #[test]
    fn a_paragraph_of_many_runs_is_read_in_linear_time() {
        // 200,000 runs of one letter after a URL: one text, read once (a rescan per run
        // would be quadratic).
        let mut doc = String::from("<w:p><w:r><w:t>https://a.org/</w:t></w:r>");
        for _ in 0..200_000 {
            doc.push_str("<w:r><w:t>a</w:t></w:r>");
        }
        doc.push_str("</w:p>");
        let started = std::time::Instant::now();
        let got = found(&doc);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0.len(), "https://a.org/".len() + 200_000);
        assert!(started.elapsed().as_secs() < 20);
    }

    #[test]
    fn excel_cells_show_their_links_text() {
        let sheet = "<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"s\"><v>1</v></c><c r=\"B1\" t=\"s\"><v>0</v></c>\
                     <c r=\"C1\" t=\"inlineStr\"><is><t>https://in&amp;line.example/</t></is></c><c r=\"D1\" t=\"str\"><f>X()</f><v>www.f.example</v></c>\
                     <c r=\"E1\"><v>42</v></c></row></sheetData>\
                     <hyperlinks><hyperlink ref=\"a1\" r:id=\"rId1\"/><hyperlink ref=\"C1:C4\" r:id=\"rId2\" display=\"shown\"/>\
                     <hyperlink ref=\"D1\" r:id=\"rId3\"/><hyperlink ref=\"E1\" r:id=\"rId4\"/><hyperlink ref=\"Z9\" location=\"Sheet2!A1\"/></hyperlinks></worksheet>";
        let links = sheet_links(sheet);
        assert_eq!(
            links,
            [
                ("rId1".to_string(), vec![CellText::Shared(1)]),
                (
                    "rId2".to_string(),
                    vec![
                        CellText::Inline("https://in&line.example/".to_string()),
                        CellText::Inline("shown".to_string())
                    ]
                ),
                (
                    "rId3".to_string(),
                    vec![CellText::Inline("www.f.example".to_string())]
                ),
                ("rId4".to_string(), vec![]),
            ]
        );
        let sst = "<sst><si><t>zero</t></si><si><r><t>https://bank.</t></r><r><t>example.com/</t></r><rPh><t>ph</t></rPh></si><si/><si><t>three</t></si></sst>";
        let wanted = [1, 2].into_iter().collect();
        let strings = shared_strings(sst, &wanted);
        assert_eq!(
            strings.get(&1).map(String::as_str),
            Some("https://bank.example.com/")
        );
        assert_eq!(strings.get(&2).map(String::as_str), Some(""));
        assert_eq!(strings.len(), 2);
    }

    #[test]
    fn broken_markup_is_read_as_far_as_it_goes() {
        for doc in [
            "<w:t>https://a.org/",
            "<w:t",
            "<",
            "<w:t>x</w:t><w:instrText>HYPERLINK \"",
            "<w:fldSimple w:instr=\"HYPERLINK",
            "<w:t>&\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}</w:t>",
            "<w:t>&#x110000;&#xD800;&bogus;</w:t>",
        ] {
            let _ = found(doc);
        }
    }
}
