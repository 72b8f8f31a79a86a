//! The text of an OpenDocument part (`content.xml`, `styles.xml`) as a reader sees it: the
//! IRIs written as text in its paragraphs (`text:p`, `text:h`), and the text each link
//! (`text:a`, `draw:a`) shows, which `link-text-mismatch` compares with its `xlink:href`. The
//! links' targets themselves are read by the XML extractor ([`super::xml`]), as in any XML.
//!
//! A paragraph's text is read whole across the elements that only format it (`text:span`,
//! `text:a`, bookmarks): an editor starts a span wherever formatting changes, inside a URL
//! too. Spaces written as elements (`text:s`), tabs, line breaks, notes, frames and comments
//! end a text. The markup is scanned, not checked: a part that is not well-formed is read as
//! far as it goes.

use std::collections::HashMap;

use super::Occurrence;
use super::ooxml::{Joined, Piece, resolved, tags};

/// Whether the element named `local` ends the text before it, in a paragraph (it is shown as
/// a space or a break, or holds text of its own that is not the paragraph's).
fn ends_text(local: &str) -> bool {
    matches!(
        local,
        "p" | "h"
            | "s"
            | "tab"
            | "line-break"
            | "note"
            | "note-citation"
            | "note-body"
            | "annotation"
            | "annotation-end"
            | "creator"
            | "date"
            | "frame"
            | "list-item"
            | "table-cell"
    )
}

/// Hands each IRI written as text in the paragraphs of the OpenDocument part `text` to
/// `on_occurrence` (origin `text`), located in the part.
pub fn extract_text(text: &str, on_occurrence: &mut dyn FnMut(Occurrence)) {
    // Paragraphs open (a note or a frame holds paragraphs inside a paragraph).
    let mut depth = 0usize;
    let mut paragraph = Joined::default();
    for tag in tags(text) {
        if depth > 0 && tag.lt > tag.before {
            paragraph.push(text, tag.before..tag.lt);
        }
        if !ends_text(tag.local) {
            continue;
        }
        paragraph.flush(Piece::Text, on_occurrence);
        if matches!(tag.local, "p" | "h") && !tag.empty {
            depth = match tag.closing {
                true => depth.saturating_sub(1),
                false => depth + 1,
            };
        }
    }
    paragraph.flush(Piece::Text, on_occurrence);
}

/// The text each link of the part shows, by its target as prepared (references resolved):
/// every text a target is shown with, in document order (a second link to the same target
/// may show another site).
pub fn link_texts(text: &str) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    // The link being read: its target and the text so far.
    let mut current: Option<(String, String)> = None;
    for tag in tags(text) {
        if let Some((_, shown)) = current.as_mut()
            && tag.lt > tag.before
        {
            shown.push_str(&resolved(text, tag.before..tag.lt).0);
        }
        if tag.local != "a" {
            continue;
        }
        if let Some((target, shown)) = current.take() {
            out.entry(target).or_default().push(shown);
        }
        if !tag.closing
            && !tag.empty
            && let Some(href) = tag.attribute("href")
        {
            current = Some((resolved(text, href).0, String::new()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::Range;

    fn found(text: &str) -> Vec<(String, Range<usize>)> {
        let mut out = Vec::new();
        extract_text(text, &mut |o| {
            out.push((o.iri.to_string(), o.map.source_range()))
        });
        out
    }

    #[test]
    fn paragraphs_are_read_across_spans_and_links() {
        let doc = "<office:text><text:p>see https://bank.<text:span text:style-name=\"T1\">exam&#x200B;ple</text:span>.com/login<text:s/>now</text:p>\
                   <text:h>www.a.org</text:h><text:p>https://b.org/<text:tab/>x<text:line-break/>y</text:p>\
                   <text:sequence-decls>https://not-in-a-paragraph.org/</text:sequence-decls>\
                   <text:p><text:a xlink:href=\"https://c.org/\">https://c.org/</text:a></text:p></office:text>";
        let got = found(doc);
        let iris: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
        assert_eq!(
            iris,
            [
                "https://bank.exam\u{200b}ple.com/login",
                "www.a.org",
                "https://b.org/",
                "https://c.org/"
            ]
        );
        let first = &doc[got[0].1.clone()];
        assert!(first.starts_with("https://bank.<text:span"), "{first}");
        assert!(first.ends_with("</text:span>.com/login"), "{first}");
        // A note inside a paragraph is a text of its own.
        let note = "<text:p>https://d.org/<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>e</text:p></text:note-body></text:note>f</text:p>";
        let iris: Vec<String> = found(note).into_iter().map(|g| g.0).collect();
        assert_eq!(iris, ["https://d.org/"]);
    }

    #[test]
    fn each_link_shows_its_texts() {
        let doc = "<text:p><text:a xlink:type=\"simple\" xlink:href=\"https://evil.example/?a=1&amp;b\">https://<text:span>bank.example.com</text:span></text:a>\
                   <text:a xlink:href=\"https://evil.example/?a=1&amp;b\">click</text:a>\
                   <draw:a xlink:href=\"https://img.example/\"><draw:frame/></draw:a><text:a>no target</text:a>";
        let texts = link_texts(doc);
        assert_eq!(
            texts.get("https://evil.example/?a=1&b").cloned(),
            Some(vec![
                "https://bank.example.com".to_string(),
                "click".to_string()
            ])
        );
        assert_eq!(
            texts.get("https://img.example/").cloned(),
            Some(vec![String::new()])
        );
        assert_eq!(texts.len(), 2);
    }

    #[test]
    fn broken_markup_is_read_as_far_as_it_goes() {
        for doc in [
            "<text:p>https://a.org/",
            "<text:p",
            "<",
            "<text:a xlink:href=\"https://a.org/",
            "<text:a xlink:href=\"x\">y",
            "<text:p>&\u{e9}\u{e9}\u{e9}&#x110000;</text:p>",
        ] {
            let _ = found(doc);
            let _ = link_texts(doc);
        }
    }

    #[test]
    fn a_paragraph_of_many_spans_is_read_in_linear_time() {
        let mut doc = String::from("<text:p>https://a.org/");
        for _ in 0..200_000 {
            doc.push_str("<text:span>a</text:span>");
        }
        doc.push_str("</text:p>");
        let started = std::time::Instant::now();
        let got = found(&doc);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0.len(), "https://a.org/".len() + 200_000);
        assert!(started.elapsed().as_secs() < 20);
    }
}
