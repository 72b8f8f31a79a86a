//! `link-text-mismatch` through the whole pipeline: the text a reader sees of a link, as each
//! format's extractor gives it, compared with the link's target.

use irilint::check::{CheckOptions, check_source};
use irilint::rules::{Selection, Severity};
use irilint::source::{Format, Source};

/// The severities and lines of the `link-text-mismatch` findings of `text` read as `format`.
fn mismatches(format: Format, text: &str) -> Vec<(Severity, usize)> {
    let source = Source::decode("doc".into(), format, text.as_bytes()).unwrap();
    let selection = Selection::all();
    let outcome = check_source(&source, &CheckOptions::new(&selection));
    outcome
        .diagnostics
        .iter()
        .filter(|d| d.rule == "link-text-mismatch")
        .map(|d| (d.severity, d.start.line))
        .collect()
}

const W: Severity = Severity::Warning;
const E: Severity = Severity::Error;

#[test]
fn html_link_text_is_read_up_to_the_end_tag() {
    let doc = [
        r#"<a href="https://evil.example/">https://paypal.com/</a>"#,
        r#"<A HREF="https://evil.example/"><b>http://paypal.com</b></A>"#,
        r#"<a href="https://evil.example/"><abbr>www.paypal.com</abbr></a>"#,
        r#"<a href="https://p&#x430;ypal.com/">paypal.com</a>"#,
        r#"<a href="https://www.paypal.com/x">paypal.com</a>"#,
        r#"<a href="https://evil.example/">x</a> paypal.com </a>"#,
        r#"<a href="https://evil.example/">the docs</a>"#,
        r#"<a href="https://evil.example/">paypal.com"#,
    ]
    .join("\n");
    assert_eq!(
        mismatches(Format::Html, &doc),
        [(W, 1), (W, 2), (W, 3), (E, 4)]
    );
}

#[test]
fn an_unclosed_or_long_html_link_has_no_text() {
    // The text runs to the next `<a` tag: not this link's.
    let doc =
        "<a href=\"https://evil.example/\">https://paypal.com <a href=\"https://b.example/\">b</a>";
    assert_eq!(mismatches(Format::Html, doc), []);
    let long = format!(
        "<a href=\"https://evil.example/\">{}https://paypal.com</a>",
        "<i></i>".repeat(200)
    );
    assert_eq!(mismatches(Format::Html, &long), []);
}

#[test]
fn markdown_inline_links_but_not_images() {
    let doc = "[**https://paypal.com**](https://evil.example/)\n\n\
               ![paypal.com](https://evil.example/x.png)\n\n\
               [docs.rs/foo](https://docs.rs/foo/latest)\n\n\
               [README.md](https://example.org/readme)\n\n\
               <a href=\"https://evil.example/\">www.paypal.com</a>\n";
    assert_eq!(mismatches(Format::Markdown, doc), [(W, 1), (W, 9)]);
}

#[test]
fn rst_embedded_references() {
    let doc = "See `www.paypal.com <https://evil.example/>`_ and `the docs <https://evil.example/>`_.\n\
               Also `Python.NET <https://github.com/pythonnet/pythonnet>`__.\n";
    assert_eq!(mismatches(Format::Rst, doc), [(W, 1)]);
}

#[test]
fn asciidoc_macros_and_their_attribute_lists() {
    let doc = "See https://evil.example/[https://paypal.com].\n\n\
               See link:https://evil.example/x[https://paypal.com,window=_blank].\n\n\
               See https://paypal.com/[].\n\n\
               See https://evil.example/[Homebrew].\n";
    assert_eq!(mismatches(Format::Asciidoc, doc), [(W, 1), (W, 3)]);
}

#[test]
fn plain_text_has_no_link_text() {
    assert_eq!(
        mismatches(
            Format::Text,
            "[https://paypal.com](https://evil.example/)\n"
        ),
        []
    );
}

#[test]
fn html_in_markdown_keeps_its_link_text_in_place() {
    // An HTML block with CRLF line ends is given to the HTML extractor without its `\r`s: the
    // link's text is mapped back to the source like its IRI.
    let doc = "A [link](https://example.com/x) and a\r\n\r\n<div>\r\n<a\r\nhref=\"https://example.com/html/a\">html</a>\r\n\
               <a\r\nhref=\"https://evil.example/\">https://paypal.com</a>\r\n</div>\r\n";
    assert_eq!(mismatches(Format::Markdown, doc), [(W, 7)]);
}

#[test]
fn bare_names_only_when_the_target_imitates_them_and_archives_are_quiet() {
    // Product names that are domains, and a Go import path, linked to another site: quiet.
    let doc = "* [put.io](https://rclone.org/putio/)\n\
               * [k8s.io/kubernetes/test](https://github.com/kubernetes/kubernetes/blob/x/test)\n\
               * [paypal.com](https://p\u{430}ypal.com/)\n\
               * [http://ontosys.com/x](https://web.archive.org/web/2013/http://ontosys.com/x)\n\
               * [https://docs.python.org](https://docs.python.org.evil.example/)\n";
    // An archive names the site in its path; the host is the trick itself.
    assert_eq!(mismatches(Format::Markdown, doc), [(E, 3), (W, 5)]);
}
