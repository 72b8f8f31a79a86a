//! The Markdown extractor through its public API: origins, prepared values and exact source
//! spans; that no fixture needs the coarse fallback span; that every prepared character maps
//! to source text that decodes to it; and bad input (deep nesting, huge lines, truncated
//! constructs, NUL bytes) that must give a report, never a panic or a hang.

use std::fs;
use std::ops::Range;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use irilint::extract::Occurrence;
use irilint::extract::markdown::{extract, extract_with_fallbacks};
use irilint::source::{Format, Source};
use proptest::prelude::*;

/// `(origin, prepared IRI, source text of the whole IRI)` of every occurrence.
fn found(text: &str) -> Vec<(String, String, String)> {
    extract(text)
        .occurrences
        .iter()
        .map(|o| {
            let r = o.map.source_range();
            (o.origin.to_string(), o.iri.to_string(), text[r].to_string())
        })
        .collect()
}

fn triple(origin: &str, iri: &str, source: &str) -> (String, String, String) {
    (origin.into(), iri.into(), source.into())
}

/// The source text under the prepared bytes of `needle` (its first occurrence in the IRI).
fn source_of<'t>(text: &'t str, o: &Occurrence, needle: &str) -> &'t str {
    let at = o.iri.find(needle).expect("needle in the IRI");
    &text[o.map.to_source(at..at + needle.len())]
}

fn fixtures() -> Vec<(PathBuf, String)> {
    let mut out: Vec<_> = fs::read_dir("fixtures/markdown")
        .expect("fixtures/markdown")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            !name.ends_with(".expected.json") && !name.ends_with(".args")
        })
        .map(|p| {
            // Decoded as irilint decodes them: one fixture is deliberately not UTF-8.
            let bytes = fs::read(&p).unwrap();
            let text = Source::decode(p.display().to_string(), Format::Markdown, &bytes)
                .unwrap()
                .text;
            (p, text)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn inline_links_images_and_titles() {
    let text = "A [link](https://example.com/a \"title http://t.example/\") and ![alt](<https://example.com/b c>).\n";
    assert_eq!(
        found(text),
        [
            triple(
                "markdown:link",
                "https://example.com/a",
                "https://example.com/a"
            ),
            triple(
                "markdown:image",
                "https://example.com/b c",
                "https://example.com/b c"
            ),
        ]
    );
}

#[test]
fn reference_definitions_are_reported_once_not_at_each_use() {
    let text =
        "[a][x], [x] and [x][] again.\n\n[x]:\n  <https://example.com/with space>\n  \"title\"\n";
    assert_eq!(
        found(text),
        [triple(
            "markdown:definition",
            "https://example.com/with space",
            "https://example.com/with space"
        )]
    );
}

#[test]
fn definitions_in_block_quotes_skip_the_prefix_of_the_next_line() {
    let text = "> [q]:\n> https://example.com/q\n>\n> [q]\n";
    let e = extract(text);
    assert_eq!(e.occurrences.len(), 1);
    let o = &e.occurrences[0];
    assert_eq!(&*o.iri, "https://example.com/q");
    assert_eq!(o.map.source_range(), 9..30);
}

#[test]
fn inline_destination_on_the_next_line_of_a_quote() {
    let text = "> [a\n> b](\n> https://example.com/d\n> \"t\")\n";
    let e = extract(text);
    assert_eq!(e.occurrences.len(), 1);
    assert_eq!(
        &text[e.occurrences[0].map.source_range()],
        "https://example.com/d"
    );
}

#[test]
fn autolinks_and_email() {
    let text = "<https://example.com/a\\b&amp;> <mailto:me@example.com> <me@example.com>\n";
    assert_eq!(
        found(text),
        [
            triple(
                "markdown:autolink",
                "https://example.com/a\\b&amp;",
                "https://example.com/a\\b&amp;"
            ),
            triple(
                "markdown:autolink",
                "mailto:me@example.com",
                "mailto:me@example.com"
            ),
        ]
    );
}

#[test]
fn escapes_and_references_map_to_their_whole_source() {
    let text = "[x](https://example.com/a\\(b\\)&#x202E;&amp;%zz)\n";
    let e = extract(text);
    let o = &e.occurrences[0];
    assert_eq!(&*o.iri, "https://example.com/a(b)\u{202E}&%zz");
    assert_eq!(source_of(text, o, "("), "\\(");
    assert_eq!(source_of(text, o, "b"), "b");
    assert_eq!(source_of(text, o, "\u{202E}"), "&#x202E;");
    assert_eq!(source_of(text, o, "&"), "&amp;");
    assert_eq!(source_of(text, o, "%zz"), "%zz");
    assert_eq!(o.map.to_source(0..o.iri.len()), 4..46);
}

#[test]
fn bare_urls_in_text_across_split_events() {
    // pulldown-cmark splits text at `&amp;`, `\_` and `[`; the IRI is still whole.
    let text = "See https://example.com/q?a=1&amp;b=\\_x[y]&#x202E;z, then stop.\n";
    let e = extract(text);
    assert_eq!(e.occurrences.len(), 1);
    let o = &e.occurrences[0];
    assert_eq!(o.origin, "markdown:text");
    assert_eq!(&*o.iri, "https://example.com/q?a=1&b=_x[y]\u{202E}z");
    assert_eq!(source_of(text, o, "&"), "&amp;");
    assert_eq!(source_of(text, o, "_"), "\\_");
    assert_eq!(source_of(text, o, "\u{202E}"), "&#x202E;");
    assert_eq!(
        &text[o.map.source_range()],
        "https://example.com/q?a=1&amp;b=\\_x[y]&#x202E;z"
    );
}

#[test]
fn link_text_is_text_but_code_is_not() {
    let text = "---\nu: https://yaml.example/\n---\n\n[https://shown.example/](https://target.example/) `https://code.example/`\n\n```\nhttps://fence.example/\n```\n";
    assert_eq!(
        found(text),
        [
            triple(
                "front-matter:u",
                "https://yaml.example/",
                "https://yaml.example/"
            ),
            triple(
                "markdown:text",
                "https://shown.example/",
                "https://shown.example/"
            ),
            triple(
                "markdown:link",
                "https://target.example/",
                "https://target.example/"
            ),
        ]
    );
    let toml = "+++\nu = \"https://toml.example/\"\n+++\ntext\n";
    assert_eq!(
        found(toml),
        [triple(
            "front-matter:u",
            "https://toml.example/",
            "https://toml.example/"
        )]
    );
}

/// Only a block at the very start is front matter: a `---` block further down is a thematic
/// break (or a setext underline) and Markdown, links and all.
#[test]
fn a_thematic_break_block_in_the_middle_is_markdown() {
    let text = "Intro.\n\n---\n## Heading\n\nSee [a](https://example.org/a\u{200B}b).\n\n---\n";
    assert_eq!(
        found(text),
        [triple(
            "markdown:link",
            "https://example.org/a\u{200B}b",
            "https://example.org/a\u{200B}b"
        )]
    );
    let plus = "x\n\n+++\nSee https://example.org/p\n+++\n";
    assert_eq!(
        found(plus),
        [triple(
            "markdown:text",
            "https://example.org/p",
            "https://example.org/p"
        )]
    );
    // A leading block is front matter, the same block after it is Markdown.
    let both = "---\nt: x\n---\n\n---\nhttps://example.org/q\n---\n";
    assert_eq!(
        found(both),
        [triple(
            "markdown:text",
            "https://example.org/q",
            "https://example.org/q"
        )]
    );
}

#[test]
fn front_matter_iris_with_key_paths_and_exact_spans() {
    let text = "\u{FEFF}---\ntitle: \"Go: a tour\"\ndate: 2024-01-02T10:00:00Z\nimage: /img/a.png\nhome: \"https://example.org/a\\u200Bb\"\nlinks:\n  docs: 'https://example.org/it''s'\n  list:\n    - https://example.org/\u{202E}x # note\n    - url: <https://example.org/c>\ntags: [rust, \"mailto:a@example.org\"]\n---\n\nhttps://example.org/body\n";
    let got = extract(text).occurrences;
    let summary: Vec<_> = got
        .iter()
        .map(|o| (o.origin.to_string(), o.iri.to_string()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "front-matter:home".into(),
                "https://example.org/a\u{200B}b".into()
            ),
            (
                "front-matter:links.docs".into(),
                "https://example.org/it's".into()
            ),
            (
                "front-matter:links.list".into(),
                "https://example.org/\u{202E}x".into()
            ),
            ("front-matter:tags".into(), "mailto:a@example.org".into()),
            ("markdown:text".into(), "https://example.org/body".into()),
        ] as [(String, String); 5]
    );
    assert_eq!(source_of(text, &got[0], "\u{200B}"), "\\u200B");
    assert_eq!(source_of(text, &got[1], "'"), "''");
    assert_eq!(source_of(text, &got[2], "\u{202E}"), "\u{202E}");
    assert_eq!(&text[got[3].map.source_range()], "mailto:a@example.org");

    let toml = "+++\ntitle = \"https://leading.example/ is the site\"\n[params]\nhome = \"https://example.org/\\u200B\"\nraw = 'https://example.org/\\u200B'\naliases = [\n  \"/old\",\n  'https://example.org/\u{200B}x',\n]\n+++\n";
    let got = extract(toml).occurrences;
    let summary: Vec<_> = got
        .iter()
        .map(|o| (o.origin.to_string(), o.iri.to_string()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "front-matter:title".into(),
                "https://leading.example/".into()
            ),
            (
                "front-matter:params.home".into(),
                "https://example.org/\u{200B}".into()
            ),
            (
                "front-matter:params.raw".into(),
                "https://example.org/\\u200B".into()
            ),
            (
                "front-matter:params.aliases".into(),
                "https://example.org/\u{200B}x".into()
            ),
        ] as [(String, String); 4]
    );
    assert_eq!(source_of(toml, &got[1], "\u{200B}"), "\\u200B");
    assert_eq!(source_of(toml, &got[3], "\u{200B}"), "\u{200B}");
}

#[test]
fn link_text_with_brackets_code_spans_and_images() {
    let text =
        "[a [b] `](http://fake.example/)` ![i](https://img.example/) c](https://out.example/)\n";
    assert_eq!(
        found(text),
        [
            triple(
                "markdown:image",
                "https://img.example/",
                "https://img.example/"
            ),
            triple(
                "markdown:link",
                "https://out.example/",
                "https://out.example/"
            ),
        ]
    );
}

#[test]
fn html_blocks_and_inline_html_in_containers() {
    let text = "> <div><a\n> href=\"https://q.example/&#x202E;x\">q</a></div>\n\n- x <a\n  href=\"https://l.example/\">l</a>\n";
    let e = extract(text);
    let got: Vec<_> = e
        .occurrences
        .iter()
        .map(|o| (o.origin.as_ref(), &*o.iri))
        .collect();
    assert_eq!(
        got,
        [
            ("a@href", "https://q.example/\u{202E}x"),
            ("a@href", "https://l.example/")
        ]
    );
    let q = &e.occurrences[0];
    assert_eq!(source_of(text, q, "\u{202E}"), "&#x202E;");
    assert_eq!(&text[q.map.source_range()], "https://q.example/&#x202E;x");
    assert_eq!(
        &text[e.occurrences[1].map.source_range()],
        "https://l.example/"
    );
}

#[test]
fn html_block_with_crlf_line_endings() {
    let text = "<div>\r\n<a\r\nhref=\"https://c.example/a\r\nb\">x</a>\r\n</div>\r\n";
    let e = extract(text);
    assert_eq!(e.occurrences.len(), 1);
    let o = &e.occurrences[0];
    assert_eq!(&*o.iri, "https://c.example/a\nb");
    // pulldown-cmark drops the `\r` of a CRLF from HTML blocks: the `\n` is copied.
    assert_eq!(source_of(text, o, "\n"), "\n");
    assert_eq!(&text[o.map.source_range()], "https://c.example/a\r\nb");
}

#[test]
fn template_expressions_wrapped_over_lines_open_a_destination() {
    let text = "See [the post]({{ \"/2024/a\" |\n   relative_url }}/x\u{200B}y) and\n\
                [old](<% url_for(\n  :post) %>/z).\n\n\
                Not a template: [a]({{ b\n\nhttps://c.example/d }}).\n";
    let e = extract(text);
    let o = &e.occurrences[0];
    assert_eq!(o.origin, "markdown:link");
    assert_eq!(&*o.iri, "{{ \"/2024/a\" |\n   relative_url }}/x\u{200B}y");
    assert_eq!(o.placeholders.first(), Some(&(0..33)));
    assert_eq!(o.placeholders.len(), 1);
    assert_eq!(source_of(text, o, "\u{200B}"), "\u{200B}");
    assert_eq!(&*e.occurrences[1].iri, "<% url_for(\n  :post) %>/z");
    // Across a blank line it is no expression: the IRI of the next paragraph is found.
    assert!(
        e.occurrences
            .iter()
            .any(|o| &*o.iri == "https://c.example/d")
    );
}

#[test]
fn occurrences_are_in_document_order() {
    let text = "[![i](https://1.example/)](https://2.example/) https://3.example/\n\n[d]: https://0.example/\n";
    let iris: Vec<_> = extract(text)
        .occurrences
        .into_iter()
        .map(|o| o.iri.to_string())
        .collect();
    assert_eq!(
        iris,
        [
            "https://1.example/",
            "https://2.example/",
            "https://3.example/",
            "https://0.example/"
        ]
    );
}

#[test]
fn no_fixture_needs_the_fallback_span() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 15, "{} Markdown fixtures", fixtures.len());
    for (path, text) in &fixtures {
        let (_, fallbacks) = extract_with_fallbacks(text);
        assert!(
            fallbacks.is_empty(),
            "{}: fallback at {fallbacks:?}",
            path.display()
        );
    }
}

/// What the source text `src` (one escape, reference or character) can decode to.
fn decodings(src: &str, html: bool) -> Vec<String> {
    let mut out = vec![src.to_string()];
    if let Some(rest) = src.strip_prefix('\\') {
        out.push(rest.to_string());
    }
    if src == "\\\\|" {
        out.push("|".into());
    }
    // YAML and TOML front matter: `''` in single quotes, hex escapes in double quotes.
    if src == "''" {
        out.push("'".into());
    }
    if let Some(hex) = ["\\x", "\\u", "\\U"]
        .iter()
        .find_map(|p| src.strip_prefix(p))
        .and_then(|h| u32::from_str_radix(h, 16).ok())
    {
        out.extend(char::from_u32(hex).map(String::from));
    }
    if html {
        out.push(
            src.replace("\r\n", "\n")
                .replace('\r', "\n")
                .replace('\0', "\u{FFFD}"),
        );
    }
    if let Some(body) = src.strip_prefix('&') {
        let body = body.strip_suffix(';').unwrap_or(body);
        let numeric = if let Some(hex) = body.strip_prefix("#x").or(body.strip_prefix("#X")) {
            u32::from_str_radix(hex, 16).ok()
        } else if let Some(dec) = body.strip_prefix('#') {
            dec.parse().ok()
        } else {
            None
        };
        if let Some(v) = numeric {
            let mut c = char::from_u32(v).filter(|_| v != 0).unwrap_or('\u{FFFD}');
            if html && (0x80..=0x9F).contains(&v) {
                c = C1_REPLACEMENTS[(v - 0x80) as usize].unwrap_or(c);
            }
            out.push(c.to_string());
        }
        for key in [format!("{body};"), body.to_string()] {
            if let Some(&(a, b)) = NAMED_ENTITIES.get(key.as_str()) {
                out.extend(char::from_u32(a).map(String::from));
                out.extend(char::from_u32(b).filter(|_| b != 0).map(String::from));
            }
        }
    }
    out
}

#[test]
fn every_prepared_character_maps_to_source_that_decodes_to_it() {
    let mut checked = 0;
    for (path, text) in fixtures() {
        for o in extract(&text).occurrences {
            assert_eq!(
                o.map.prepared_len(),
                o.iri.len(),
                "{}: {o:?}",
                path.display()
            );
            let html = !o.origin.starts_with("markdown:");
            for (k, c) in o.iri.char_indices() {
                let src = &text[o.map.to_source(k..k + c.len_utf8())];
                assert!(
                    decodings(src, html).contains(&c.to_string()),
                    "{}: {:?} at {k} of {:?} maps to {src:?}",
                    path.display(),
                    c,
                    o.iri
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 2500, "only {checked} characters checked");
}

/// Runs `f` and fails if it takes longer than `limit` (a hang shows as a slow test, a panic
/// as a failure).
fn within<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    assert!(start.elapsed() < limit, "took {:?}", start.elapsed());
    out
}

fn assert_sane(text: &str) -> usize {
    let e = extract(text);
    for o in &e.occurrences {
        let r: Range<usize> = o.map.source_range();
        assert!(
            r.end <= text.len() && text.is_char_boundary(r.start) && text.is_char_boundary(r.end)
        );
        assert_eq!(o.map.prepared_len(), o.iri.len());
    }
    e.occurrences.len()
}

#[test]
fn deep_nesting_of_quotes_and_lists() {
    let limit = Duration::from_secs(60);
    let quotes = format!("{}[x](https://example.com/deep)\n", ">".repeat(100_000));
    within(limit, || assert_sane(&quotes));
    let mut lists = String::new();
    for depth in 0..2_000 {
        lists.push_str(&" ".repeat(depth * 2));
        lists.push_str("- [x](https://example.com/list)\n");
    }
    assert_eq!(within(limit, || assert_sane(&lists)), 2_000);
    let brackets = format!(
        "{}https://example.com/{}",
        "[".repeat(50_000),
        "](x)".repeat(50_000)
    );
    within(limit, || assert_sane(&brackets));
    let emphasis = format!(
        "{}https://example.com/{}",
        "*_".repeat(50_000),
        "_*".repeat(50_000)
    );
    within(limit, || assert_sane(&emphasis));
    let images = "![".repeat(30_000) + &"](https://example.com/i)".repeat(30_000);
    within(limit, || assert_sane(&images));
}

#[test]
fn ten_megabyte_lines() {
    let limit = Duration::from_secs(60);
    let n = 10 << 20;
    let url = format!("https://example.com/{}", "a".repeat(n));
    assert_eq!(within(limit, || assert_sane(&url)), 1);
    let link = format!("[x]({url})");
    assert_eq!(within(limit, || assert_sane(&link)), 1);
    let def = format!("[x]: <{}>\n", "a b".repeat(n / 3));
    assert_eq!(within(limit, || assert_sane(&def)), 1);
    // Lines of one repeated construct: 10 MB of those that make the most events, 2 MB of the
    // others (the debug build of pulldown-cmark alone takes seconds per 10 MB).
    for (unit, size) in [
        ("[", n),
        ("<http://", n),
        ("(", n / 5),
        ("<", n / 5),
        ("\\", n / 5),
    ]
    .into_iter()
    .chain(["&", "&#", "`", "](", "<a ", "http:", "> "].map(|u| (u, n / 5)))
    {
        let line = unit.repeat(size / unit.len());
        within(limit, || assert_sane(&line));
    }
    let entities = "[x](https://example.com/".to_string() + &"&amp;".repeat(n / 5) + ")";
    assert_eq!(within(limit, || assert_sane(&entities)), 1);
}

#[test]
fn truncated_constructs_and_nul_bytes() {
    for text in [
        "[",
        "[x](",
        "[x](<",
        "[x](<https://a.example/",
        "[x](https://a.example/ \"",
        "![",
        "![x](",
        "[x]:",
        "[x]: <",
        "[x]:\n",
        "<",
        "<https://a.example/",
        "<a href=\"https://a.example/",
        "<a\nhref=",
        "&#x202E",
        "\\",
        "```\nhttps://a.example/",
        "---\nx: https://a.example/",
        "+++",
        "| a |\n|---|\n| [x](https://a.example/\\",
        "[^1]: https://a.example/",
        "https://a.example/\0b [x](https://b.example/\0) <https://c.example/\0>",
        "\0\0\0[\0](\0)\0<\0>\0&\0;",
        "> [x]:\n> \n",
        "[x](\n)",
    ] {
        assert_sane(text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn markdown_soup_never_panics(s in "([\\[\\]()<>!`*_\\\\&#;:|>\\- \n\r\t\"'x0-9a-f/.]|https://|&amp;|&#x202E;|<a href=\"|\u{202E}|é|\0){0,80}") {
        assert_sane(&s);
        let (e, _) = extract_with_fallbacks(&s);
        for o in e.occurrences {
            prop_assert!(o.map.source_range().end <= s.len());
        }
    }
}

/// MDX, JSX and Vue components are elements too: their URL attributes are read as HTML's are,
/// JSX expressions in braces and other attributes are not.
#[test]
fn component_url_attributes_but_not_expressions() {
    let text = "<YouTubeIframe\n  src=\"https://www.youtube.com/embed/\u{200B}y\"\n  title=\"V | W\"\n/>\n\nSee <ScrimbaLink href=\"https://scrimba.com/\u{200B}s\" type=\"scrimba\">a</ScrimbaLink>.\n\n<VueSchoolLink href=\"https://vueschool.io/&#x202E;l\" title=\"Free\"/>\n\n<Card href={url} src={\"https://example.org/a|b\"} poster=\"/p.png\" :href=\"x | y\" />\n\n<Chart data=\"q1 | q2\" cite=\"https://example.org/c\" action=\"submit\" />\n";
    let got = extract(text).occurrences;
    let summary: Vec<_> = got
        .iter()
        .map(|o| (o.origin.to_string(), o.iri.to_string()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "youtubeiframe@src".into(),
                "https://www.youtube.com/embed/\u{200B}y".into()
            ),
            (
                "scrimbalink@href".into(),
                "https://scrimba.com/\u{200B}s".into()
            ),
            (
                "vueschoollink@href".into(),
                "https://vueschool.io/\u{202E}l".into()
            ),
            ("card@poster".into(), "/p.png".into()),
            ("chart@cite".into(), "https://example.org/c".into()),
        ] as [(String, String); 5]
    );
    assert_eq!(source_of(text, &got[0], "\u{200B}"), "\u{200B}");
    assert_eq!(source_of(text, &got[2], "\u{202E}"), "&#x202E;");
    // An HTML page is read as before: an unknown element's attributes are not URLs there.
    let html = irilint::extract::html::extract("<ScrimbaLink href=\"https://a.example/\">");
    assert!(html.occurrences.is_empty());
}
