//! Files cut from real documentation repositories (their origin is in a comment inside each,
//! under `tests/data/real-repos/`), on which irilint with its default settings used to report
//! what is not a problem (issue W: templates and fragments, severities), or to miss a link.
//! Each is checked as `irilint check` checks it, by its file name (a docinfo file is known by
//! its name), and what it should report is spelled out.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

const DIR: &str = "tests/data/real-repos";

/// `check --isolated --format json` on `files` (names under [`DIR`], or a path in a temporary
/// directory): the exit code and the diagnostics as (file name, line, rule, severity).
fn check(files: &[&str]) -> (i32, Vec<(String, u64, String, String)>) {
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(DIR)
        .args(["check", "--isolated", "--format", "json"])
        .args(files)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let found = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let path = d["path"].as_str().unwrap();
            let name = Path::new(path).file_name().unwrap().to_str().unwrap();
            (
                name.to_string(),
                d["span"]["start"]["line"].as_u64().unwrap(),
                d["rule"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (out.status.code().unwrap(), found)
}

/// The IRIs `irilint list` finds in `file`, as written.
fn listed(file: &str) -> Vec<String> {
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .current_dir(DIR)
        .args(["list", "--isolated", "--format", "json", file])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = report
        .as_array()
        .or_else(|| report["occurrences"].as_array())
        .unwrap_or_else(|| panic!("{report}"));
    items
        .iter()
        .map(|i| i["iri"].as_str().unwrap().to_string())
        .collect()
}

fn row(name: &str, line: u64, rule: &str, severity: &str) -> (String, u64, String, String) {
    (name.into(), line, rule.into(), severity.into())
}

/// Asciidoctor's `docinfo.xml` and che-docs' `pom_snippet.xml` are fragments meant for
/// inclusion: several top-level elements, no XML declaration or DOCTYPE. A document (with an
/// XML declaration) still holds one root element.
#[test]
fn an_xml_fragment_for_inclusion_is_read_without_an_error() {
    assert_eq!(check(&["docinfo.xml", "pom_snippet.xml"]), (0, vec![]));
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("two-roots.xml");
    std::fs::write(&doc, "<?xml version=\"1.0\"?>\n<a/>\n<b/>\n").unwrap();
    let (code, found) = check(&[doc.to_str().unwrap()]);
    assert_eq!(
        (code, found),
        (
            1,
            vec![row("two-roots.xml", 3, "xml-not-well-formed", "error")]
        )
    );
}

/// Hugo's `list.rss.xml` starts with `{{ printf "<?xml …?>" | safeHTML }}` and holds `{{ printf
/// "<atom:link href=%q …/>" }}`; Jekyll's `sitemap.xml` starts with front matter. The XML after
/// them is read, its IRIs checked.
#[test]
fn xml_after_front_matter_or_a_template_prologue_is_read() {
    assert_eq!(check(&["list.rss.xml", "sitemap.xml"]), (0, vec![]));
    let sitemap = listed("sitemap.xml");
    assert!(
        sitemap.contains(&"http://example.com".to_string())
            && sitemap.contains(&"http://www.sitemaps.org/schemas/sitemap/0.9".to_string()),
        "{sitemap:?}"
    );
    assert!(
        listed("list.rss.xml").contains(&"http://www.w3.org/2005/Atom".to_string()),
        "the namespace of the element after the prologue"
    );
}

/// Hugo's `feature-state.html` writes `{{ printf "<span class=%q><a … href=%q …>" … }}`: the
/// action is not a tag (no `%q` link), while the links in the strings of a Jinja `{% trans %}`
/// (MkDocs' footer) are still read where they are written.
#[test]
fn template_actions_holding_markup_are_not_tags() {
    assert_eq!(
        check(&["feature-state.html", "mkdocs-footer.html"]),
        (0, vec![])
    );
    assert_eq!(
        listed("mkdocs-footer.html"),
        [
            "https://www.mkdocs.org/",
            "https://github.com/readthedocs/sphinx_rtd_theme",
            "https://readthedocs.org"
        ]
    );
}

/// `{bootstrap-version}` in an Asciidoctor docinfo file is an attribute reference, replaced
/// before the page is built; in another HTML file, braces are characters of the IRI.
#[test]
fn attribute_references_in_docinfo_files_are_placeholders() {
    assert_eq!(check(&["subs-docinfo.html"]), (0, vec![]));
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("page.html");
    std::fs::copy(Path::new(DIR).join("subs-docinfo.html"), &other).unwrap();
    assert_eq!(
        check(&[other.to_str().unwrap()]),
        (
            0,
            vec![row("page.html", 3, "syntax-unwise-ascii", "warning")]
        )
    );
}

/// A Latin-1 text file without a link (Asciidoctor's test fixture) declares nothing: a warning,
/// not an error; a link holding the undecodable byte is an error of its own.
#[test]
fn undecodable_bytes_in_undeclared_text_are_a_warning() {
    assert_eq!(
        check(&["iso-8859-1.txt"]),
        (
            0,
            vec![row(
                "iso-8859-1.txt",
                1,
                "encoding-declaration-mismatch",
                "warning"
            )]
        )
    );
    let dir = tempfile::tempdir().unwrap();
    let linked = dir.path().join("linked.txt");
    std::fs::write(&linked, b"See http://example.org/caf\xE9 now.\n").unwrap();
    assert_eq!(
        check(&[linked.to_str().unwrap()]),
        (
            1,
            vec![
                row("linked.txt", 1, "encoding-declaration-mismatch", "warning"),
                row("linked.txt", 1, "syntax-invalid", "error"),
            ]
        )
    );
}

/// Sphinx's basic layout declares `charset={{ encoding }}` after 1024 bytes of Jinja: the engine
/// writes the label, and where the `<meta>` ends up in the page is not where it is in the source.
#[test]
fn a_layout_is_not_held_to_the_prescan_or_to_a_label_it_leaves_to_the_engine() {
    assert_eq!(check(&["sphinx-basic-layout.html"]), (0, vec![]));
    // The same layout with a literal label: its place in the source says nothing either.
    let dir = tempfile::tempdir().unwrap();
    let literal = dir.path().join("layout.html");
    let text = std::fs::read_to_string(Path::new(DIR).join("sphinx-basic-layout.html")).unwrap();
    std::fs::write(&literal, text.replace("{{ encoding }}", "utf-8")).unwrap();
    assert_eq!(check(&[literal.to_str().unwrap()]), (0, vec![]));
    // Without the template, the late `<meta>` is reported: a warning on this page of ASCII,
    // which browsers read the same whatever encoding they guess (issue 44 item 4).
    let page = dir.path().join("page.html");
    let padding = "<!-- padding -->\n".repeat(70);
    std::fs::write(
        &page,
        format!("<!DOCTYPE html>\n<html><head>{padding}<meta charset=\"utf-8\"></head></html>\n"),
    )
    .unwrap();
    assert_eq!(
        check(&[page.to_str().unwrap()]).1,
        [row(
            "page.html",
            72,
            "encoding-declaration-mismatch",
            "warning"
        )]
    );
}

/// git's release notes: `ssh://host:port/path/to/repo` names a port left to the reader.
#[test]
fn a_word_for_the_port_is_a_placeholder() {
    assert_eq!(check(&["git-relnotes-1.5.3.adoc"]), (0, vec![]));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.adoc");
    std::fs::write(
        &bad,
        "See ssh://host:80x/path and ssh://host:po\u{200B}rt/path.\n",
    )
    .unwrap();
    assert_eq!(
        check(&[bad.to_str().unwrap()]),
        (
            1,
            vec![
                row("bad.adoc", 1, "syntax-invalid", "error"),
                // Not a word: the port holds a U+200B, and is no port either.
                row("bad.adoc", 1, "syntax-invalid", "error"),
                row("bad.adoc", 1, "invisible-character", "error"),
            ]
        )
    );
}

/// che-docs: a listing block (`----`) right inside an example block (`====`) is a listing, not
/// a section title underlined by `----`.
#[test]
fn a_listing_inside_an_example_block_is_code() {
    assert_eq!(check(&["che-contributing.adoc"]), (0, vec![]));
}

/// ESP-IDF's Chinese docs: `{IDF_TARGET_PATH_NAME}` in a link target is a substitution its
/// Sphinx extension fills in.
#[test]
fn substitutions_in_rst_link_targets_are_placeholders() {
    assert_eq!(check(&["esp-idf-dfu.rst"]), (0, vec![]));
}

/// GNOME's help: `https://matrix.to/#/#gnome:gnome.org` works in every browser; a warning.
#[test]
fn a_matrix_room_link_is_a_warning() {
    assert_eq!(
        check(&["help-matrix.page"]),
        (
            0,
            vec![row("help-matrix.page", 5, "syntax-unwise-ascii", "warning")]
        )
    );
}

/// Links readers follow that irilint did not read (found by `real-repos/recall.py`): a U+200B
/// put into each is reported. `(file, the link as written, where the character goes)`.
#[test]
fn hidden_characters_in_these_links_are_found() {
    let cases = [
        // che-docs: the text of an AsciiDoc URL macro is what readers see.
        (
            "che-code-of-conduct.adoc",
            "[http://contributor-covenant.org/version/1/4]",
            "version/",
        ),
        // VitePress: a component prop holding a link (`action-link`), over several lines.
        (
            "vitepress-home-body.md",
            "action-link=\"https://example.com\"",
            "https://",
        ),
        // React's Korean docs: Markdown right after a `<Note>` line (MDX).
        (
            "ko-react-act.md",
            "(https://testing-library.com/docs/react-testing-library/intro)",
            "docs/",
        ),
        // React's Korean docs (MDX): Markdown indented inside a component is no code block.
        ("ko-react-team.md", "(https://www.sethwebster.com)", "www."),
        // React's Persian docs (MDX): Markdown inside an HTML element, `<p dir="rtl">`.
        (
            "fa-react-thinking-in-react.md",
            "(https://en.wikipedia.org/wiki/Don%27t_repeat_yourself)",
            "wiki/",
        ),
        // The Rust book in Japanese (HTML): a URL shown as the text of its own link, which a
        // reader copies (issue 44 item 3: the text of an HTML page was never read).
        (
            "book-ja-text-urls.html",
            ">https://www.rust-lang.org/tools/install<",
            "tools/",
        ),
        // ... and one in an `<em>` of running Japanese text.
        (
            "book-ja-text-urls.html",
            "<em>http://localhost:7878/sleep</em>",
            "7878/",
        ),
        // W3C's i18n articles: a URL written as a list item, and as the text of a link.
        (
            "i18n-idn-and-iri.html",
            "<li>http://ヒキワリ.ナットウ.ニホン",
            "ニホン",
        ),
        (
            "i18n-idn-and-iri.html",
            ">https://www.w3.org/International/<",
            "International/",
        ),
        // A full-width space between `a` and `href` (issue 44 item 5): the lost `href` is
        // still checked as an IRI.
        (
            "fullwidth-space-in-tag.html",
            "href=\"https://www.irasutoya.com/\"",
            "www.",
        ),
        // GNOME help: Mallard's `license@href`.
        (
            "legal.xml",
            "href=\"https://creativecommons.org/licenses/by-sa/3.0/\">\n",
            "licenses/",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (file, link, after) in cases {
        let text = std::fs::read_to_string(Path::new(DIR).join(file)).unwrap();
        let at = text.find(link).unwrap_or_else(|| panic!("{file}: {link}"));
        let k = at + link.find(after).unwrap() + after.len();
        let injected = format!("{}\u{200B}{}", &text[..k], &text[k..]);
        let path = dir.path().join(file);
        std::fs::write(&path, injected).unwrap();
        let (code, found) = check(&[path.to_str().unwrap()]);
        let line = text[..k].matches('\n').count() as u64 + 1;
        assert!(
            code == 1 && found.contains(&row(file, line, "invisible-character", "error")),
            "{file}: {found:?}"
        );
    }
}

/// The URLs of an HTML page's text are read as plain text's are, outside code and comments
/// (issue 44 item 3), each where it is written: a link whose text is its `href` gives both.
#[test]
fn urls_in_html_text_are_read_outside_code() {
    assert_eq!(
        listed("i18n-idn-and-iri.html"),
        [
            "http://ヒキワリ.ナットウ.ニホン",
            "/TR/",
            "https://www.w3.org/TR/",
            "https://www.w3.org/Consortium/Translation/Overview.html",
            "#i18n",
            "https://www.w3.org/International",
            "https://www.w3.org/International/",
            "https://www.w3.org/International/",
        ]
    );
    assert_eq!(check(&["book-ja-text-urls.html"]), (0, Vec::new()));
    // Persian prose: the Arabic comma after a URL ends the sentence, not the path (it was a
    // `mixed-script` warning once the page's text was read).
    assert_eq!(
        listed("chromium-terms-fa.html"),
        [
            "https://policies.google.com/terms",
            "https://code.google.com/chromium/terms.html"
        ]
    );
    assert_eq!(check(&["chromium-terms-fa.html"]), (0, Vec::new()));
}

/// A full-width space (U+3000) between `a` and `href` makes the tag an element named
/// `a\u{3000}href="…"`: each such link is reported as lost (issue 44 item 5), and `--fix` writes an
/// ASCII space, after which the links are read as any other.
#[test]
fn a_full_width_space_in_a_tag_unlinks_it_and_is_fixed() {
    let file = "fullwidth-space-in-tag.html";
    let lost = |line| row(file, line, "unlinked-url-attribute", "error");
    assert_eq!(check(&[file]), (1, vec![lost(4), lost(7), lost(11)]));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file);
    std::fs::copy(Path::new(DIR).join(file), &path).unwrap();
    let out = Command::cargo_bin("irilint")
        .unwrap()
        .args(["check", "--isolated", "--fix"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let fixed = std::fs::read_to_string(&path).unwrap();
    let original = std::fs::read_to_string(Path::new(DIR).join(file)).unwrap();
    // Only the separators of the tags changed (the comment names the character in words).
    assert_eq!(fixed.matches("<a href=").count(), 3);
    assert_eq!(fixed.replace("<a href=", "<a\u{3000}href="), original);
    assert_eq!(
        listed(path.to_str().unwrap()),
        ["#", "javascript:void(0)", "https://www.irasutoya.com/"]
    );
}

/// MDX's `import`/`export` blocks and `{/* … */}` comments are code, not prose: the URLs of the
/// `export const info = {…}` of MDX's own home page are not bare IRIs in text, and what follows
/// them is read. A fence indented inside components stays code.
#[test]
fn mdx_module_blocks_and_comments_are_code() {
    assert_eq!(listed("mdx-index.mdx"), ["/blog/v3/", "/docs/what-is-mdx/"]);
    assert_eq!(listed("mdx-table-of-components.mdx"), Vec::<String>::new());
}

/// A `.md` file with nothing of MDX's own syntax is CommonMark: Markdown inside an HTML block is
/// raw HTML, an indented block code. As a `.mdx` file, or with an MDX comment or a module line,
/// the same text is MDX, and the module line is code.
#[test]
fn a_markdown_file_is_mdx_by_its_name_or_its_syntax() {
    let body = "<p>\nSee [a](https://example.org/a).\n</p>\n\n<Note>\n    Indented \
                [b](https://example.org/b).\n</Note>\n\n    https://example.org/c\n";
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        listed(path.to_str().unwrap())
    };
    assert_eq!(run("plain.md", body), Vec::<String>::new());
    let mdx = [
        "https://example.org/a",
        "https://example.org/b",
        "https://example.org/c",
    ];
    assert_eq!(run("page.mdx", body), mdx);
    assert_eq!(run("comment.md", &format!("## A {{/*a*/}}\n\n{body}")), mdx);
    let module = format!("import X from 'https://example.org/x'\n\n{body}");
    assert_eq!(run("module.md", &module), mdx);
}
