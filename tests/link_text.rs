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

#[test]
fn a_redirector_or_mirror_that_names_the_text_is_reported_only_an_archive_is_not() {
    let doc = [
        // A redirector on another site, with the text's URL in its query: the phishing trick.
        r#"<a href="https://r.example.net/go?to=https://docs.python.org/3/">https://docs.python.org/3/</a>"#,
        r#"<a href="https://r.example.net/go?u=https%3A%2F%2Fdocs.python.org%2F3%2F">https://docs.python.org/3/</a>"#,
        // A mirror that holds the text's host in its path.
        r#"<a href="https://mirror.example.org/developer.mozilla.org/en-US/">https://developer.mozilla.org/en-US/</a>"#,
        // Known web archives whose path holds the text's URL: the same page, kept.
        r#"<a href="https://web.archive.org/web/2013/http://ontosys.com/xml-rpc/">http://ontosys.com/xml-rpc/</a>"#,
        r#"<a href="https://archive.ph/2020.01.01-000000/https://docs.python.org/3/">https://docs.python.org/3/</a>"#,
        r#"<a href="https://WEB.ARCHIVE.ORG/web/2013/https://www.w3.org/TR/">https://www.w3.org/TR/</a>"#,
        // An archive whose path holds another host that only starts with the text's.
        r#"<a href="https://web.archive.org/web/2013/https://docs.python.org.evil.example/">https://docs.python.org/</a>"#,
        // An archive that does not hold the text's URL (a short id): another page.
        r#"<a href="https://archive.ph/AbCd1">https://docs.python.org/3/</a>"#,
        // A look-alike of an archive is no archive.
        r#"<a href="https://web.archive.org.evil.example/web/2013/https://docs.python.org/">https://docs.python.org/</a>"#,
    ]
    .join("\n");
    assert_eq!(
        mismatches(Format::Html, &doc),
        [(W, 1), (W, 2), (W, 3), (W, 7), (W, 8), (W, 9)]
    );
    let md = "[https://developer.mozilla.org/en-US/](https://mirror.example.org/developer.mozilla.org/en-US/)\n";
    assert_eq!(mismatches(Format::Markdown, md), [(W, 1)]);
    // The message says why the target's address naming the site does not make it that site.
    let source = Source::decode("doc".into(), Format::Html, doc.as_bytes()).unwrap();
    let selection = Selection::all();
    let outcome = check_source(&source, &CheckOptions::new(&selection));
    let first = &outcome.diagnostics[0];
    assert!(
        first.message.contains("`r.example.net`") && first.message.contains("redirector"),
        "{}",
        first.message
    );
}

#[test]
fn a_script_or_data_target_under_an_address_is_an_error() {
    let doc = [
        r#"<a href="vbscript:x">https://www.w3.org/</a>"#,
        r#"<a href="JavaScript:alert(1)">www.paypal.com</a>"#,
        r#"<a href="data:text/html;base64,PHNjcmlwdD4=">https://docs.python.org/3/</a>"#,
        // A text that names no site: not this rule's.
        r#"<a href="javascript:void(0)">Show more</a>"#,
        r#"<a href="javascript:void(0)">setup.py</a>"#,
    ]
    .join("\n");
    assert_eq!(mismatches(Format::Html, &doc), [(E, 1), (E, 2), (E, 3)]);
    let md = "[https://www.w3.org/](javascript:alert(1))\n";
    assert_eq!(mismatches(Format::Markdown, md), [(E, 1)]);
    // The finding covers the scheme, the part that makes it code.
    let source = Source::decode("doc".into(), Format::Html, doc.as_bytes()).unwrap();
    let selection = Selection::all();
    let outcome = check_source(&source, &CheckOptions::new(&selection));
    let d = &outcome.diagnostics[0];
    assert_eq!((d.start.column, d.end.column), (10, 18), "{d:?}");
}

#[test]
fn markdown_reference_style_links_are_compared_with_their_definition() {
    let doc = "See [https://a.org/][ref], [paypal.com][pp], [the docs][ref] and\n\
               [https://ok.org/x][ok] and [https://paypal.com].\n\
               \n\
               [ref]: https://b.org/\n\
               [pp]: https://p\u{430}ypal.com/\n\
               [ok]: https://ok.org/x/\n\
               [https://paypal.com]: https://evil.example/\n\
               [unused.org]: https://evil.example/\n";
    // Reported at the definition, the IRI that is checked: `ref` used with a URL text, `pp`
    // imitating its text, the shortcut `[https://paypal.com]`; `ok` is the same site.
    assert_eq!(mismatches(Format::Markdown, doc), [(W, 4), (E, 5), (W, 7)]);
    // Labels match as CommonMark matches them: case and inner whitespace aside.
    let doc = "[https://a.org/][My  Ref]\n\n[my ref]: https://b.org/\n";
    assert_eq!(mismatches(Format::Markdown, doc), [(W, 3)]);
}

#[test]
fn the_same_resource_written_another_way_is_quiet() {
    // Trailing slash, scheme, `www.`, a port, case, a percent-encoded path, an IDN written in
    // ACE form, a relative target, an autolink (its text is its target).
    let doc = "* [https://docs.python.org/3/](http://docs.python.org/3)\n\
               * [http://w3.org/TR](https://www.w3.org/TR/)\n\
               * [https://Example.ORG:443/a%20b](https://example.org/a b)\n\
               * [https://b\u{fc}cher.de/](https://xn--bcher-kva.de/)\n\
               * [https://example.org/relative/x](/relative/x)\n\
               * [https://docs.rs/](https://docs.rs/foo/latest#section)\n\
               * <https://paypal.com/>\n";
    assert_eq!(mismatches(Format::Markdown, doc), []);
}
