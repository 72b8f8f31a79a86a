//! Work in proportion to the input, asserted as counts rather than times: each test does the
//! same thing at a size N and at 4N and requires about 4 times the work (at most 5), where a
//! quadratic cost would show as 16. The counts are [`irilint::work`]'s, each a model of one cost
//! named there. The book's "Limits and guarantees" (docs/src/limits.md) names each test.

use irilint::check::FileOutcome;
use irilint::rules::{self, Selection};
use irilint::source::{Format, Source};
use irilint::work::{Work, measure};

/// `work(4n) <= 5 * work(n)`, with both counts in the message.
fn assert_linear(what: &str, at_n: u64, at_4n: u64) {
    assert!(
        at_4n <= 5 * at_n.max(1),
        "{what}: {at_n} at N, {at_4n} at 4N (linear would be about {})",
        4 * at_n
    );
}

/// The outcome of checking `doc` as file `name` with the default rules, and the `work` it did.
fn checked(name: &str, format: Format, doc: &str, work: Work) -> (FileOutcome, u64) {
    let source = Source::decode(name.into(), format, doc.as_bytes()).unwrap();
    let selection = Selection::default();
    let options = irilint::check::CheckOptions::new(&selection);
    measure(work, || irilint::check::check_source(&source, &options))
}

/// French and German prose in Latin-1, as a file saved in a legacy editor: an accented letter
/// every few bytes, each one a malformed sequence in UTF-8. The paragraph, `times` times.
fn latin1_prose(times: usize) -> Vec<u8> {
    let prose = "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au delà \
                 des îles, près du mälström où brûlent les novæ. Zwölf Boxkämpfer jagen Viktor \
                 quer über den großen Sylter Deich; falsches Üben von Xylophonmusik quält.\n";
    let bytes: Vec<u8> = prose
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect();
    bytes.repeat(times)
}

#[test]
fn decoding_is_one_pass_however_many_malformed_sequences() {
    const N: usize = 1000;
    for format in [Format::Text, Format::Markdown, Format::Xml] {
        let decode = |times: usize| {
            let bytes = latin1_prose(times);
            measure(Work::DecodeBuffer, || {
                Source::decode("prose".into(), format, &bytes).expect("text")
            })
        };
        let (small, at_n) = decode(N);
        let (large, at_4n) = decode(4 * N);
        // Thousands of malformed sequences, four times as many in the larger file.
        assert!(small.encoding.invalid.len() >= 20 * N, "{format:?}");
        assert_eq!(
            large.encoding.invalid.len(),
            4 * small.encoding.invalid.len(),
            "{format:?}"
        );
        assert_linear(&format!("decoding {format:?}"), at_n, at_4n);
        // And the buffer is not the text's size over again for each sequence.
        assert!(at_4n <= large.text.len() as u64, "{format:?}: {at_4n}");
    }
}

/// `http://a.org/` and a path of `n` ASCII letters with `tail` after them, and the findings of
/// every rule on it with the per-character work they did.
fn check_long(n: usize, tail: &str) -> (Vec<&'static str>, u64) {
    let iri = format!("http://a.org/{}{tail}", "a".repeat(n));
    let all = Selection::all();
    let (findings, work) = measure(Work::RuleChars, || rules::check(&iri, &all));
    let mut ids: Vec<&str> = findings.iter().map(|f| f.rule.id).collect();
    ids.dedup();
    (ids, work)
}

#[test]
fn a_finding_in_a_long_iri_costs_its_non_ascii_characters_not_its_length() {
    const N: usize = 250_000;
    // A bidi control, an invisible character, a Cyrillic letter among Latin ones, and all three.
    for (tail, expected) in [
        ("\u{202E}", &["bidi-formatting-character"][..]),
        ("\u{200B}", &["invisible-character"]),
        ("\u{430}", &["mixed-script", "confusable"]),
        (
            "\u{202E}b\u{200B}c\u{430}",
            &[
                "bidi-formatting-character",
                "invisible-character",
                "mixed-script",
                "confusable",
            ],
        ),
    ] {
        let (at_n, work_n) = check_long(N, tail);
        let (at_4n, work_4n) = check_long(4 * N, tail);
        let mut found = at_4n.clone();
        found.sort_unstable();
        let mut wanted = expected.to_vec();
        wanted.sort_unstable();
        assert_eq!((at_n, &found), (at_4n.clone(), &wanted), "{tail:?}");
        // The rules still look at the IRI (the few characters past ASCII), and the ASCII before
        // them costs nothing per character: the same work at N and 4N.
        assert!(work_n > 0, "{tail:?}");
        assert_eq!(work_n, work_4n, "{tail:?}: {work_n} at N, {work_4n} at 4N");
    }
}

#[test]
fn mixed_scripts_through_a_long_path_cost_linear_work() {
    // Latin and Cyrillic letters alternating through one long word, and through many words.
    const N: usize = 50_000;
    for (unit, sep) in [
        ("a\u{431}", ""),
        ("ab\u{431}", "/"),
        ("\u{5D0}(\u{5D1})1", ""),
    ] {
        let work = |n: usize| {
            let path: Vec<&str> = std::iter::repeat_n(unit, n).collect();
            let iri = format!("http://a.org/{}", path.join(sep));
            measure(Work::RuleChars, || rules::check(&iri, &Selection::all())).1
        };
        assert_linear(&format!("{unit:?}{sep:?}"), work(N), work(4 * N));
    }
}

#[test]
fn bracket_pairs_are_resolved_in_one_pass() {
    // A right-to-left path segment ending in many bracket pairs: `bidi-component-edge` asks of
    // each pair what is before and inside it, which used to be a scan per pair.
    let work = |pairs: usize| {
        let iri = format!("http://a.org/\u{5D0}{}", "()".repeat(pairs));
        let (findings, work) = measure(Work::BracketScan, || rules::check(&iri, &Selection::all()));
        assert!(
            findings.iter().any(|f| f.rule.id == "bidi-component-edge"),
            "{findings:?}"
        );
        work
    };
    assert_linear("bracket pairs", work(20_000), work(80_000));
}

#[test]
fn a_tag_of_many_attributes_costs_linear_work() {
    // One tag of n attributes with the IRI last: html5ever compares each attribute with every
    // one before it in the tag, so such a tag is read by irilint, and the IRI is still found.
    // In Markdown any element may be a component, whose every attribute is a link when its
    // value is an absolute IRI: each value is taken where the attribute is, not searched for
    // by its name through the tag (80,000 attributes: 8 s).
    let page = |n: usize, element: &str| {
        let attributes: Vec<String> = (0..n).map(|i| format!("a{i}=x")).collect();
        format!(
            "<p><{element} {} href=\"http://a.example/\u{202E}\">x</{element}></p>\n",
            attributes.join(" ")
        )
    };
    const N: usize = 5_000;
    for (format, element) in [
        (Format::Html, "a"),
        (Format::Markdown, "a"),
        (Format::Markdown, "MyCard"),
    ] {
        let work = |n: usize| {
            let page = page(n, element);
            let source = Source::decode("page".into(), format, page.as_bytes()).expect("text");
            let (extraction, work) = measure(Work::AttributeComparisons, || {
                irilint::extract::extract(&source)
            });
            let iris: Vec<&str> = extraction.occurrences.iter().map(|o| &*o.iri).collect();
            assert_eq!(iris, ["http://a.example/\u{202E}"], "{format:?} {n}");
            work
        };
        assert_linear(
            &format!("{format:?} {element} attributes"),
            work(N),
            work(4 * N),
        );
    }
}

#[test]
fn duplicates_of_an_attribute_with_a_long_value_cost_linear_work() {
    // A tag read by irilint keeps where each distinct name is, and compares a name with it by
    // reading the name again from the source: the value after it is left unread (read again for
    // each duplicate of its name, a value of 125 KB and 5,000 duplicates would make 625 MB).
    let page = |n: usize| {
        format!(
            "<p><a href=\"http://a.example/{}\u{202E}\"{}>x</a></p>\n",
            "x".repeat(25 * n),
            " href=y".repeat(n)
        )
    };
    const N: usize = 5_000;
    let work = |n: usize| {
        let source = Source::decode("page".into(), Format::Html, page(n).as_bytes()).unwrap();
        let (extraction, work) = measure(Work::AttributeComparisons, || {
            irilint::extract::extract(&source)
        });
        // The first `href` only.
        assert_eq!(extraction.occurrences.len(), 1, "{n}");
        assert!(extraction.occurrences[0].iri.ends_with('\u{202E}'), "{n}");
        work
    };
    assert_linear(
        "duplicates of a long-valued attribute",
        work(N),
        work(4 * N),
    );
}

#[test]
fn a_page_of_comments_costs_linear_work() {
    // Each comment's end is searched for once, up to it: a search for each closing form
    // (`-->`, `--!>`) through the rest of the page made a page of 20,000 suppression comments
    // take 4 s, of 80,000 more than a minute.
    for close in ["-->", "--!>"] {
        let work = |n: usize| {
            let page = format!(
                "<!-- irilint-disable-next-line bidi-formatting-character {close}\n\
                 <a href=\"http://a.example/\u{202E}\">x</a>\n"
            )
            .repeat(n);
            let (outcome, work) = checked("page.html", Format::Html, &page, Work::CommentScan);
            assert_eq!(outcome.iris, n, "{close} {n}");
            // Every comment read, and each suppresses the finding on the line after it.
            assert!(outcome.diagnostics.is_empty(), "{close} {n}");
            work
        };
        assert_linear(
            &format!("comments closed by {close}"),
            work(1_000),
            work(4_000),
        );
    }
}

#[test]
fn a_long_punycode_label_costs_linear_work() {
    // Punycode decoding is quadratic in a label's length: a label longer than any DNS label
    // can be is reported as too long (`idn-invalid`) and not decoded by any rule (a label of
    // 80,000 bytes took 1.5 s, of 800,000 minutes).
    let all = Selection::all();
    let work = |n: usize| {
        let iri = format!("http://xn--{}.org/", "a".repeat(n));
        let (findings, work) = measure(Work::PunycodeDecoding, || rules::check(&iri, &all));
        assert!(
            findings.iter().any(|f| f.rule.id == "idn-invalid"),
            "{n}: {:?}",
            findings.iter().map(|f| f.rule.id).collect::<Vec<_>>()
        );
        work
    };
    assert_linear("a long Punycode label", work(20_000), work(80_000));
    // A label DNS allows is decoded: a look-alike in it is still found.
    let (findings, _) = measure(Work::PunycodeDecoding, || {
        rules::check("http://xn--pypal-4ve.com/", &all)
    });
    assert!(
        findings.iter().any(|f| f.rule.id == "lookalike-domain"),
        "{:?}",
        findings.iter().map(|f| f.rule.id).collect::<Vec<_>>()
    );
}

#[test]
fn iris_without_an_authority_cost_linear_work() {
    // Where an IRI's authority starts is looked for where its scheme ends, not by a search for
    // `://` through the rest of the document: each `mailto:` searched to the next `://` (160,000
    // of them: 17.9 s), and AsciiDoc's attribute references the same.
    // A file, its format, its text for n IRIs and how many more IRIs it has.
    type Case = (&'static str, Format, fn(usize) -> String, usize);
    let cases: [Case; 2] = [
        (
            "mail.txt",
            Format::Text,
            |n| "mailto:a@b.org ".repeat(n) + " http://a.org/",
            1,
        ),
        (
            "attrs.adoc",
            Format::Asciidoc,
            |n| {
                let set: String = (0..n)
                    .map(|i| format!(":a{i}: http://a.org/{i}\n"))
                    .collect();
                let used: Vec<String> = (0..n).map(|i| format!("{{a{i}}}")).collect();
                format!("{set}\n{}\n", used.join(" "))
            },
            0,
        ),
    ];
    for (name, format, doc, extra) in cases {
        let work = |n: usize| {
            let (outcome, work) = checked(name, format, &doc(n), Work::AuthoritySearch);
            assert!(
                outcome.iris >= n + extra,
                "{name} {n}: {} IRIs",
                outcome.iris
            );
            work
        };
        assert_linear(name, work(5_000), work(20_000));
    }
}

#[test]
fn escaped_marks_in_many_asciidoc_links_cost_linear_work() {
    // One paragraph of n links, each holding an escaped backquote (`\``) whose partner is
    // followed by a letter, so that it closes nothing: Asciidoctor keeps the backslash. Whether
    // a mark closes is searched for in the rest of the paragraph; once per paragraph, not once
    // per link.
    let work = |n: usize| {
        let text = "https://a.example/x\\`b`c ".repeat(n);
        let source = Source::decode("a.adoc".into(), Format::Asciidoc, text.as_bytes()).unwrap();
        let (extraction, work) =
            measure(Work::ClosingMarkScan, || irilint::extract::extract(&source));
        assert_eq!(extraction.occurrences.len(), n);
        assert_eq!(&*extraction.occurrences[0].iri, "https://a.example/x\\`b`c");
        work
    };
    assert_linear("escaped marks", work(2_000), work(8_000));
}

#[test]
fn a_resource_written_many_ways_costs_linear_work() {
    // n spellings of one resource (the host's letters in every case), each written once:
    // `equivalent-variants` counts the places of each spelling through a map, not by a search
    // of the spellings met so far per place (quadratic: 100,000 spellings, 5 billion
    // comparisons).
    use irilint::check::{CheckOptions, check_project, check_source};
    let work = |n: usize| {
        let text: String = (0..n)
            .map(|i| {
                let host: String = "abcdefghijklmnop"
                    .chars()
                    .enumerate()
                    .map(|(k, c)| {
                        if i >> k & 1 == 1 {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        }
                    })
                    .collect();
                format!("http://{host}.example/\n")
            })
            .collect();
        let source = Source::decode("a.txt".into(), Format::Text, text.as_bytes()).unwrap();
        let selection = Selection::from_selectors(&["equivalent-variants"], &[], &[]).unwrap();
        let options = CheckOptions::new(&selection);
        let mut files = vec![check_source(&source, &options)];
        let ((), work) = measure(Work::SpellingLookups, || {
            check_project(&mut files, &options)
        });
        let message = &files[0].diagnostics[0].message;
        assert!(message.contains(&format!("written {n} ways")), "{message}");
        work
    };
    assert_linear("spellings", work(1_000), work(4_000));
}

#[test]
fn dense_syntax_issues_write_a_bounded_number_of_messages() {
    // An IRI of n characters the grammar forbids, of every kind the syntax rules report: each
    // report past a finding's kept places joins it without words, so the messages written do
    // not grow with n (a million invalid characters wrote a million messages, twice).
    let messages = |n: usize| {
        let iri = format!(
            "http://a.example/{}?{}",
            "^\u{1}\u{FFFD}%zz\u{E000}".repeat(n),
            "\u{FFFD}".repeat(n)
        );
        let source =
            Source::decode("a.txt".into(), Format::Text, format!("{iri}\n").as_bytes()).unwrap();
        let selection = Selection::from_selectors(&["ALL"], &[], &[]).unwrap();
        let options = irilint::check::CheckOptions::new(&selection);
        let (file, work) = measure(Work::SyntaxMessages, || {
            irilint::check::check_source(&source, &options)
        });
        let rules: Vec<&str> = file.diagnostics.iter().map(|d| d.rule).collect();
        for rule in [
            "syntax-invalid",
            "syntax-unwise-ascii",
            "control-character",
            "syntax-bad-percent-encoding",
            "syntax-private-use",
        ] {
            assert!(rules.contains(&rule), "{rule} in {rules:?}");
        }
        work
    };
    let (small, large) = (messages(5_000), messages(20_000));
    assert!(
        large <= small + 100 && large < 20_000,
        "{small} messages at N, {large} at 4N"
    );
}

#[test]
fn template_expressions_cost_linear_work() {
    // Links each with a template expression (masked before the Markdown is parsed, put back
    // after: every mask was looked at for every link), and one IRI with a placeholder before
    // each of its hidden characters (every placeholder was looked at for every report).
    let work = |n: usize| {
        let links: String = (0..n)
            .map(|i| format!("See [x](http://a.org/{{{{ .Site.X }}}}/p{i}) now.\n\n"))
            .collect();
        let one_iri = format!("[x](http://a.org/{})\n", "{{ a }}\u{202E}".repeat(n));
        let mut total = 0;
        for doc in [links, one_iri] {
            let (file, work) = checked("a.md", Format::Markdown, &doc, Work::TemplateLookups);
            assert!(file.iris >= 1);
            total += work;
        }
        total
    };
    assert_linear("template lookups", work(2_000), work(8_000));
}

#[test]
fn values_cut_inside_template_expressions_cost_linear_work() {
    // `href="http://a.org/{{ x "` is cut by the tokenizer at the quote inside the expression:
    // the rest is looked for on the line after it, at most 4 KB of it, not to the line's end
    // for each value (80,000 on one line: 41 s).
    let work = |n: usize| {
        let page = format!(
            "<p>{}</p>\n",
            "<a href=\"http://a.org/{{ x \">y</a> ".repeat(n)
        );
        let (file, work) = checked("a.html", Format::Html, &page, Work::RejoinScan);
        assert_eq!(file.iris, n);
        work
    };
    assert_linear("rejoined values", work(2_000), work(8_000));
}

#[test]
fn an_iri_of_many_entities_costs_linear_work() {
    // An Atom link made of n entity references, each to its own declaration: the declaration
    // each character came through was searched for among all those met so far.
    let work = |n: usize| {
        let declarations: String = (0..n).map(|i| format!("<!ENTITY e{i} \"x{i}\">")).collect();
        let uses: String = (0..n).map(|i| format!("&e{i};")).collect();
        let doc = format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE feed [{declarations}]>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><link href=\"http://a.org/{uses}\"/></feed>\n"
        );
        let (file, work) = checked("a.xml", Format::Xml, &doc, Work::RelatedLookups);
        assert!(file.iris >= 1);
        work
    };
    assert_linear("entity declarations looked at", work(2_000), work(8_000));
}

#[test]
fn nested_namespace_bindings_cost_linear_work() {
    // n nested elements, each binding a prefix of its own (an IRI each): whether XSLT's
    // namespace was in scope was asked of every prefix bound (100,000 of them took 147 s).
    let work = |n: usize| {
        let open: String = (0..n)
            .map(|i| format!("<a xmlns:p{i}=\"u:{i}\">"))
            .collect();
        let doc = format!("<r>{open}{}</r>", "</a>".repeat(n));
        let (file, work) = checked("a.xml", Format::Xml, &doc, Work::NamespaceLookups);
        assert_eq!(file.iris, n);
        work
    };
    assert_linear("namespace bindings looked at", work(2_000), work(8_000));
}

#[test]
fn references_on_one_long_rst_line_cost_linear_work() {
    // n hyperlink references with embedded IRIs on one line: each searched the whole line both
    // ways for its ends (80,000 of them took 12.6 s).
    let work = |n: usize| {
        let doc: String = (0..n)
            .map(|i| format!("`l{i} <http://a.org/{i}>`_ "))
            .chain(["\n".to_string()])
            .collect();
        let (file, work) = checked("a.rst", Format::Rst, &doc, Work::LineSearches);
        assert_eq!(file.iris, n);
        work
    };
    assert_linear("line bytes searched", work(1_000), work(4_000));
}

#[test]
fn runs_of_backquotes_in_rst_cost_linear_work() {
    // Whether a backquote opens inline markup depends on what follows its run of backquotes:
    // the run was walked from each backquote in it (a paragraph of 80,000 backquotes took
    // 0.8 s, one of 1 MB minutes). And runs that open nothing, each before an IRI still found.
    for (unit, tail) in [("`", ""), (" ``a", ""), (" `", "")] {
        let work = |n: usize| {
            let doc = format!("{}\n\nhttp://a.org/\u{202E}\n", unit.repeat(n)) + tail;
            let (file, work) = checked("a.rst", Format::Rst, &doc, Work::MarkupRuns);
            assert_eq!(file.iris, 1, "{unit:?} {n}");
            work
        };
        assert_linear(&format!("runs of {unit:?}"), work(5_000), work(20_000));
    }
}

#[test]
fn parts_of_one_long_rst_line_cost_linear_work() {
    // A document of one line is read in parts, each cut past four parts of 64 KB: where the
    // part ends was looked for by a search for the line's end through the rest of the document,
    // once per part (a line of 128 MB took 8.9 times the time of 32 MB).
    let work = |n: usize| {
        let doc = "x ".repeat(n);
        let source = Source::decode("a.rst".into(), Format::Rst, doc.as_bytes()).unwrap();
        measure(Work::PartEnds, || irilint::extract::extract(&source)).1
    };
    assert_linear(
        "bytes searched for parts' ends",
        work(1 << 20),
        work(4 << 20),
    );
}

#[test]
fn unclosed_braces_in_a_plain_text_iri_cost_linear_work() {
    // A URI Template expression (`{var}`) in an IRI of plain text is a placeholder: the `}`
    // that closes a `{` was searched for from each `{` of `{a{a{a…}`, through the rest of the
    // IRI (80,000 took 0.3 s, a million minutes).
    let work = |n: usize| {
        let doc = format!("See http://a.example/{}}}\u{202E} now.\n", "{a".repeat(n));
        let (file, work) = checked("a.txt", Format::Text, &doc, Work::TemplateLookups);
        assert_eq!(file.iris, 1, "{n}");
        work
    };
    assert_linear(
        "bytes searched for closing braces",
        work(5_000),
        work(20_000),
    );
}

#[test]
fn unknown_rule_names_are_matched_without_a_suggestion_until_reported() {
    // Each directive's unknown rule name was matched with a suggestion looked for (an edit
    // distance to every rule id and group), reported or not: 80,000 took 5.2 s. A suggestion
    // is looked for when its report is made, and a file makes at most as many as it lists.
    let page = |n: usize| -> String {
        (0..n)
            .map(|i| format!("<!-- irilint-disable-next-line no-such-rule{i} -->\nx\n\n"))
            .collect()
    };
    let limit = irilint::check::MAX_LISTED;
    // Both more than a file lists, and no more than the directives read.
    let most = irilint::suppressions::MAX_DIRECTIVES;
    assert!(most > limit + 1000);
    let work: Vec<u64> = [limit + 1000, most]
        .into_iter()
        .map(|n| {
            let (file, work) = checked("a.md", Format::Markdown, &page(n), Work::EditDistance);
            assert_eq!(file.diagnostics.len(), limit);
            work
        })
        .collect();
    assert!(work[0] > 0);
    assert_eq!(
        work[0], work[1],
        "suggestions looked for past the reports made"
    );
}

/// The formats whose prose is searched for IRIs as plain text is, with a file name of each.
const PROSE: [(&str, Format); 4] = [
    ("a.txt", Format::Text),
    ("a.md", Format::Markdown),
    ("a.rst", Format::Rst),
    ("a.adoc", Format::Asciidoc),
];

#[test]
fn iris_each_before_an_unclosed_bracket_cost_linear_work() {
    // `http://a.org/x[` over and over on one line: each IRI ends at its `[` (nothing closes it:
    // an AsciiDoc macro's), which was known only once its walk had reached the end of the line,
    // and the next IRI walked there again (480 KB took 45 s). The same with one `]` at the end,
    // which closes each `[` at the end of its IRI.
    for (name, format) in PROSE {
        for opener in ["[", "[[", "[-", "[`"] {
            for tail in ["", "\n", "]", "]. x"] {
                let work = |n: usize| {
                    let doc = format!("http://a.org/x{opener}").repeat(n) + tail;
                    let (file, work) = checked(name, format, &doc, Work::OpenerScans);
                    // (Backquotes make code spans of some: `[` and a backquote open an
                    // AsciiDoc macro's attributes, taken whole.)
                    assert!(file.iris >= 1, "{name} {opener:?} {n}");
                    work
                };
                assert_linear(
                    &format!("{name}: IRIs before {opener:?}, then {tail:?}"),
                    work(2_000),
                    work(8_000),
                );
            }
        }
    }
}

#[test]
fn macro_targets_on_one_long_asciidoc_line_cost_linear_work() {
    // Each word that may start a macro looks for where its target ends (a blank, a `[`): from
    // each of `http://a.org/x/http://a.org/x/…` to the line's end. And an IRI after an
    // attribute reference, cut at an unclosed `[`, was walked to the line's end from each; the
    // `{endsb}` closing each `{startsb}` of an IRI was searched for to its end.
    // What, the document for n, whether it has IRIs (`link:` without its `[…]` is no link).
    type Case = (&'static str, fn(usize) -> String, bool);
    let cases: [Case; 4] = [
        ("URLs", |n| "http://a.org/x/".repeat(n), true),
        ("links", |n| "link:a/".repeat(n), false),
        (
            "references",
            |n| ":url-a: http://a.org/\n\n".to_string() + &"{url-a}/x[".repeat(n),
            true,
        ),
        (
            "synopses",
            |n| format!("http://a.org/{}", "{startsb}x".repeat(n)),
            true,
        ),
    ];
    for (what, doc, iris) in cases {
        let work = |n: usize| {
            let (file, work) = checked("a.adoc", Format::Asciidoc, &doc(n), Work::OpenerScans);
            assert_eq!(file.iris >= 1, iris, "{what} {n}");
            work
        };
        assert_linear(what, work(2_000), work(8_000));
    }
}
