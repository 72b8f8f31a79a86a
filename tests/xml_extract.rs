//! The XML extractor: origins, prepared values and exact spans; entities within their budget;
//! external entities never read; bad input that must end in a report, never a panic or a hang.

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use irilint::extract::Extraction;
use irilint::extract::xml::extract;
use irilint::source::{Format, Source};

/// (origin, prepared IRI, source text its map covers) of every occurrence.
fn found(xml: &str) -> Vec<(String, String, String)> {
    extract(xml)
        .occurrences
        .into_iter()
        .map(|o| {
            let src = xml[o.map.source_range()].to_string();
            (o.origin.into_owned(), o.iri.to_string(), src)
        })
        .collect()
}

fn row(origin: &str, iri: &str, src: &str) -> (String, String, String) {
    (origin.into(), iri.into(), src.into())
}

/// (rule, source text) of every problem.
fn problems(xml: &str) -> Vec<(&'static str, String)> {
    extract(xml)
        .problems
        .into_iter()
        .map(|p| (p.rule, xml[p.range].to_string()))
        .collect()
}

/// The `xml-entity-limit` problems of an extraction.
fn entity_limits(ex: &Extraction) -> Vec<&irilint::extract::Problem> {
    ex.problems
        .iter()
        .filter(|p| p.rule == "xml-entity-limit")
        .collect()
}

fn within<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    let took = t.elapsed();
    assert!(took < limit, "took {took:?}");
    out
}

#[test]
fn origins_follow_namespaces_not_prefixes() {
    let xml = r##"<root xmlns="urn:example:root" xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:zz="http://www.w3.org/1999/xlink" xmlns:xlink="http://example.org/not-xlink"
  xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xml:base="http://example.org/base/">
  <a zz:href="/x" xlink:href="/not-extracted" zz:role="http://example.org/role"/>
  <r:Description r:about="http://example.org/s">
    <dc:creator r:resource="http://example.org/o"/>
    <dc:date r:datatype="http://www.w3.org/2001/XMLSchema#date">2024</dc:date>
  </r:Description>
  <h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:a href=" /page " title="/no"/><h:img srcset="a.png 1x, b.png 2x"/></h:html>
  <feed xmlns="http://www.w3.org/2005/Atom"><id> urn:uuid:1 </id><link href="/l"/><content src="/c"/><category scheme="/s" term="t"/><title>/no</title></feed>
  <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/loc</loc></url></urlset>
  <svg xmlns="http://www.w3.org/2000/svg"><use href="#i"/></svg>
  <link>/not-rss</link>
</root>"##;
    assert_eq!(
        found(xml),
        [
            row("xmlns", "urn:example:root", "urn:example:root"),
            row(
                "xmlns:dc",
                "http://purl.org/dc/elements/1.1/",
                "http://purl.org/dc/elements/1.1/"
            ),
            row(
                "xmlns:zz",
                "http://www.w3.org/1999/xlink",
                "http://www.w3.org/1999/xlink"
            ),
            row(
                "xmlns:xlink",
                "http://example.org/not-xlink",
                "http://example.org/not-xlink"
            ),
            row(
                "xmlns:r",
                "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
                "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
            ),
            row(
                "xml:base",
                "http://example.org/base/",
                "http://example.org/base/"
            ),
            row("xlink:href", "/x", "/x"),
            row(
                "xlink:role",
                "http://example.org/role",
                "http://example.org/role"
            ),
            row("rdf:about", "http://example.org/s", "http://example.org/s"),
            row(
                "rdf:resource",
                "http://example.org/o",
                "http://example.org/o"
            ),
            row(
                "rdf:datatype",
                "http://www.w3.org/2001/XMLSchema#date",
                "http://www.w3.org/2001/XMLSchema#date"
            ),
            row(
                "xmlns:h",
                "http://www.w3.org/1999/xhtml",
                "http://www.w3.org/1999/xhtml"
            ),
            row("a@href", "/page", "/page"),
            row("img@srcset", "a.png", "a.png"),
            row("img@srcset", "b.png", "b.png"),
            row(
                "xmlns",
                "http://www.w3.org/2005/Atom",
                "http://www.w3.org/2005/Atom"
            ),
            row("id", "urn:uuid:1", "urn:uuid:1"),
            row("link@href", "/l", "/l"),
            row("content@src", "/c", "/c"),
            row("category@scheme", "/s", "/s"),
            row(
                "xmlns",
                "http://www.sitemaps.org/schemas/sitemap/0.9",
                "http://www.sitemaps.org/schemas/sitemap/0.9"
            ),
            row("loc", "/loc", "/loc"),
            row(
                "xmlns",
                "http://www.w3.org/2000/svg",
                "http://www.w3.org/2000/svg"
            ),
            row("use@href", "#i", "#i"),
        ]
    );
    assert!(extract(xml).problems.is_empty());
}

#[test]
fn rss_elements_only_inside_rss() {
    let xml = r#"<rss version="2.0"><channel><link>https://example.org/</link>
<item><guid isPermaLink="false">not a link</guid><guid>https://example.org/p/1</guid>
<comments>https://example.org/p/1#c</comments><enclosure url="https://example.org/a.mp3"/>
<source url="https://example.org/s.rss">s</source></item>
<docs><![CDATA[https://example.org/docs?a=1&b=2]]></docs></channel></rss>"#;
    assert_eq!(
        found(xml),
        [
            row("link", "https://example.org/", "https://example.org/"),
            row("guid", "https://example.org/p/1", "https://example.org/p/1"),
            row(
                "comments",
                "https://example.org/p/1#c",
                "https://example.org/p/1#c"
            ),
            row(
                "enclosure@url",
                "https://example.org/a.mp3",
                "https://example.org/a.mp3"
            ),
            row(
                "source@url",
                "https://example.org/s.rss",
                "https://example.org/s.rss"
            ),
            row(
                "docs",
                "https://example.org/docs?a=1&b=2",
                "https://example.org/docs?a=1&b=2"
            ),
        ]
    );
    assert!(found("<feed><link>https://example.org/</link></feed>").is_empty());
}

#[test]
fn references_are_covered_whole() {
    let xml = "<svg xmlns='http://www.w3.org/2000/svg'><a href='http://e.org/&#x202E;x&amp;y&#233;'/></svg>";
    let ex = extract(xml);
    let o = &ex.occurrences[1];
    assert_eq!(&*o.iri, "http://e.org/\u{202E}x&yé");
    let at = o.iri.find('\u{202E}').unwrap();
    assert_eq!(&xml[o.map.to_source(at..at + 3)], "&#x202E;");
    let amp = o.iri.find('&').unwrap();
    assert_eq!(&xml[o.map.to_source(amp..amp + 1)], "&amp;");
    let e = o.iri.find('é').unwrap();
    assert_eq!(&xml[o.map.to_source(e..e + 2)], "&#233;");
    assert_eq!(
        &xml[o.map.to_source(0..o.iri.len())],
        "http://e.org/&#x202E;x&amp;y&#233;"
    );
}

#[test]
fn attribute_values_are_normalized_as_xml_prescribes() {
    let xml = "<r xmlns:x='http://www.w3.org/1999/xlink'><a x:href='a\tb\nc\r\nd&#x9;e&#xA;f&#13;g'/></r>";
    let ex = extract(xml);
    let o = &ex.occurrences[1];
    assert_eq!(&*o.iri, "a b c d\te\nf\rg");
    // The CR LF pair is one space, mapped to both bytes.
    assert_eq!(&xml[o.map.to_source(5..6)], "\r\n");
    assert_eq!(&xml[o.map.to_source(7..8)], "&#x9;");
    assert_eq!(&xml[o.map.to_source(1..2)], "\t");
}

#[test]
fn element_content_is_trimmed_and_line_ends_normalized() {
    let xml = "<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'><loc>\r\n  http://e.org/a\r\nb<![CDATA[<c>]]>&#x20;\n</loc></urlset>";
    let ex = extract(xml);
    let o = &ex.occurrences[1];
    assert_eq!(&*o.iri, "http://e.org/a\nb<c>");
    let nl = o.iri.find('\n').unwrap();
    assert_eq!(&xml[o.map.to_source(nl..nl + 1)], "\r\n");
    assert_eq!(
        &xml[o.map.source_range()],
        "http://e.org/a\r\nb<![CDATA[<c>"
    );
}

#[test]
fn entities_map_to_their_use_and_their_declaration() {
    let xml = "<!DOCTYPE r [\n<!ENTITY host \"example.org\">\n<!ENTITY rlo \"&#x202E;\">\n<!ENTITY path \"/p/&rlo;x\">\n]>\n<r xmlns:x='http://www.w3.org/1999/xlink'><a x:href='http://&host;&path;'/><id xmlns='http://www.w3.org/2005/Atom'>http://&host;/&path;</id></r>";
    let ex = extract(xml);
    assert!(ex.problems.is_empty(), "{:?}", ex.problems);
    let o = &ex.occurrences[1];
    assert_eq!(&*o.iri, "http://example.org/p/\u{202E}x");
    let at = o.iri.find('\u{202E}').unwrap();
    assert_eq!(&xml[o.map.to_source(at..at + 3)], "&path;");
    let related = o.map.related_for(at..at + 3);
    assert_eq!(related.len(), 1);
    assert_eq!(&xml[related[0].range.clone()], "<!ENTITY rlo \"&#x202E;\">");
    assert_eq!(
        related[0].label,
        "entity `rlo` is declared here (reached through `&path;`)"
    );
    let host = &o.map.related_for(8..9)[0];
    assert_eq!(&xml[host.range.clone()], "<!ENTITY host \"example.org\">");
    assert_eq!(&xml[o.map.to_source(8..9)], "&host;");
    let content = &ex.occurrences[3];
    assert_eq!(
        (content.origin.as_ref(), &*content.iri),
        ("id", "http://example.org//p/\u{202E}x")
    );
}

#[test]
fn entity_markup_in_content_is_parsed() {
    let xml = "<!DOCTYPE r [<!ENTITY link \"<link xmlns='http://www.w3.org/2005/Atom' href='http://e.org/&#38;#x202E;'/>\">]><r>&link;</r>";
    let ex = extract(xml);
    assert!(ex.problems.is_empty(), "{:?}", ex.problems);
    let o = ex
        .occurrences
        .iter()
        .find(|o| o.origin == "link@href")
        .unwrap();
    assert_eq!(&*o.iri, "http://e.org/\u{202E}");
    assert_eq!(&xml[o.map.source_range()], "&link;");
    // Replacement text must be balanced.
    let bad = "<!DOCTYPE r [<!ENTITY open \"<a>\">]><r>&open;</a></r>";
    assert_eq!(problems(bad)[0].0, "xml-not-well-formed");
    assert_eq!(problems(bad)[0].1, "&open;");
}

fn billion_laughs(tail: &str) -> String {
    let mut xml =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
    let mut prev = "lol".to_string();
    for k in 1..=9 {
        let name = format!("lol{k}");
        xml.push_str(&format!(
            "<!ENTITY {name} \"{}\">\n",
            format!("&{prev};").repeat(10)
        ));
        prev = name;
    }
    xml.push_str("]>\n<lolz xmlns:x='http://www.w3.org/1999/xlink'>");
    xml.push_str(tail);
    xml.push_str("</lolz>");
    xml
}

#[test]
fn billion_laughs_is_refused_at_once() {
    let xml = billion_laughs(
        "<p>&lol9;</p><a x:href='http://e.org/&lol9;'/><a x:href='http://e.org/&#x202E;'/>",
    );
    let ex = within(Duration::from_secs(5), || extract(&xml));
    let limits = entity_limits(&ex);
    assert_eq!(limits.len(), 1, "{:?}", ex.problems);
    assert_eq!(&xml[limits[0].range.clone()], "&lol9;");
    assert!(xml[limits[0].related[0].range.clone()].starts_with("<!ENTITY lol9 "));
    assert_eq!(ex.problems.len(), 1);
    // Left as written, and the rest of the document is still read.
    let iris: Vec<&str> = ex.occurrences.iter().map(|o| &*o.iri).collect();
    assert!(iris.contains(&"http://e.org/&lol9;"));
    assert!(iris.contains(&"http://e.org/\u{202E}"));
}

#[test]
fn quadratic_blowup_is_refused_within_the_budget() {
    let value = "a".repeat(100_000);
    let mut xml = format!(
        "<!DOCTYPE r [<!ENTITY a \"{value}\">]><r xmlns:x='http://www.w3.org/1999/xlink'><p>"
    );
    xml.push_str(&"&a;".repeat(50_000));
    xml.push_str("</p><b x:href='http://e.org/&#x202E;'/></r>");
    let ex = within(Duration::from_secs(10), || extract(&xml));
    let limits = entity_limits(&ex);
    assert_eq!(limits.len(), 1, "reported once per entity");
    assert_eq!(&xml[limits[0].range.clone()], "&a;");
    // The budget is 10 × the size here (about 250 KB → 2.5 MB): each use scans the 100,000
    // bytes of the entity, so the first uses fit and the next one is refused.
    let first_refused = limits[0].range.start;
    let expanded = (first_refused - xml.find("<p>").unwrap() - 3) / 3;
    assert_eq!(expanded, 10 * xml.len() / value.len());
    assert_eq!(
        &*ex.occurrences.last().unwrap().iri,
        "http://e.org/\u{202E}"
    );
}

#[test]
fn nesting_deeper_than_sixteen_is_refused() {
    let mut xml = String::from("<!DOCTYPE r [<!ENTITY e0 \"x\">");
    for k in 1..=16 {
        xml.push_str(&format!("<!ENTITY e{k} \"&e{};\">", k - 1));
    }
    xml.push_str(
        "]><r xmlns:x='http://www.w3.org/1999/xlink'><a x:href='/&e15;'/><a x:href='/&e16;'/></r>",
    );
    let ex = extract(&xml);
    let iris: Vec<&str> = ex.occurrences.iter().map(|o| &*o.iri).collect();
    assert_eq!(iris[1..], ["/x", "/&e16;"]);
    assert_eq!(ex.problems.len(), 1);
    assert_eq!(ex.problems[0].rule, "xml-entity-limit");
    assert!(
        ex.problems[0].message.contains("17 levels"),
        "{}",
        ex.problems[0].message
    );
}

#[test]
fn recursive_entities_are_not_well_formed() {
    let xml = "<!DOCTYPE r [<!ENTITY a \"x&b;\"><!ENTITY b \"&a;\">]><r>&a;</r>";
    let p = within(Duration::from_secs(1), || problems(xml));
    assert_eq!(p, [("xml-not-well-formed", "&a;".to_string())]);
}

#[test]
fn external_entities_are_never_read() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.txt");
    let content = "TOP-SECRET-9f3a2c";
    fs::write(&secret, content).unwrap();
    let url = format!("file://{}", secret.display());
    let xml = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE feed [\n<!ENTITY s SYSTEM \"{url}\">\n<!ENTITY % p SYSTEM \"{url}\">\n%p;\n]>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><id>&s;</id><link href=\"http://e.org/&s;\"/><id>x&s;</id></feed>"
    );
    let ex = extract(&xml);
    for o in &ex.occurrences {
        assert!(!o.iri.contains(content), "{}", o.iri);
    }
    let external: Vec<_> = ex
        .problems
        .iter()
        .filter(|p| p.rule == "xml-external-entity")
        .collect();
    assert_eq!(
        external.len(),
        2,
        "the parameter entity, and &s; once: {:?}",
        ex.problems
    );
    assert_eq!(&xml[external[0].range.clone()], "%p;");
    assert_eq!(&xml[external[1].range.clone()], "&s;");
    let iris: Vec<&str> = ex.occurrences.iter().map(|o| &*o.iri).collect();
    assert_eq!(iris[1..], ["&s;", "http://e.org/&s;", "x&s;"]);
    // Through the binary too: nothing of the file in any output.
    let path = dir.path().join("xxe.xml");
    fs::write(&path, &xml).unwrap();
    for format in ["json", "human", "concise"] {
        let out = Command::cargo_bin("irilint")
            .unwrap()
            .args(["check", "--format", format, path.to_str().unwrap()])
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(all.contains("xml-external-entity"), "{all}");
        assert!(!all.contains(content), "{all}");
    }
}

#[test]
fn undeclared_entities() {
    // No DTD: a well-formedness error.
    assert_eq!(
        problems("<r><a>&eacute;</a></r>"),
        [("xml-not-well-formed", "&eacute;".to_string())]
    );
    // An external subset might declare it: left as written; reported inside an IRI only.
    let xml = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\"><html xmlns=\"http://www.w3.org/1999/xhtml\"><p>&nbsp;</p><a href=\"/caf&eacute;\">&eacute;</a><a href=\"/&eacute;\"/></html>";
    let ex = extract(xml);
    assert_eq!(&*ex.occurrences[1].iri, "/caf&eacute;");
    assert_eq!(ex.problems.len(), 1, "{:?}", ex.problems);
    assert_eq!(ex.problems[0].rule, "xml-external-entity");
    assert_eq!(&xml[ex.problems[0].range.clone()], "&eacute;");
    assert_eq!(
        &xml[ex.problems[0].related[0].range.clone()],
        "\"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\""
    );
}

#[test]
fn malformed_documents_keep_the_iris_before_the_error() {
    let xml = "<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'><url><loc>/a</loc></url><url><loc>/b</loc></uri><url><loc>/c</loc></url></urlset>";
    let iris: Vec<String> = extract(xml)
        .occurrences
        .into_iter()
        .map(|o| o.iri.to_string())
        .collect();
    assert_eq!(iris[1..], ["/a", "/b"]);
    assert_eq!(
        problems(xml),
        [("xml-not-well-formed", "</uri>".to_string())]
    );
    for (xml, at) in [
        ("<a>", "<a"),
        ("<a><b></a>", "</a>"),
        ("</a>", "</a>"),
        ("<a x=1/>", "1"),
        ("<a x='1' x='2'/>", "x"),
        ("<a x='<'/>", "<"),
        ("<a>&</a>", "&"),
        ("<a>&b c;</a>", "&b c;"),
        ("<a>&#0;</a>", "&#0;"),
        ("<a x='&#xFFFE;'/>", "&#xFFFE;"),
        // A document (it has an XML declaration) has one root; without one, a file may be a
        // fragment for inclusion (tests/real_repo_fixtures.rs).
        ("<?xml version='1.0'?><a/><b/>", "<b"),
        ("<?xml version='1.0'?>text<a/>", "t"),
        ("<?xml version='1.0'?><a/>text", "t"),
        ("<!DOCTYPE a><a/><b/>", "<b"),
        ("", ""),
        ("<p:a/>", "p"),
        ("<a p:x='1'/>", "p"),
        ("<a xmlns:p=''/>", "xmlns:p"),
        ("<a xmlns:xml='urn:x'/>", "xmlns:xml"),
        ("<a:b:c/>", "a:b:c"),
        ("<a><!-- x -- y --></a>", "--"),
        ("<a><!-- x", "<!--"),
        ("<a><![CDATA[x", "<![CDATA["),
        ("<!DOCTYPE a [<!ENTITY x 'y'", "<!DOCTYPE"),
        ("<a>\u{0}</a>", "\u{0}"),
        ("<a x='\u{1B}'/>", "\u{1B}"),
        ("<a/><?xml version='1.0'?>", "<?xml"),
        ("<a/><!DOCTYPE a>", "<!DOCTYPE"),
        (
            "<a><b xmlns:x='http://www.w3.org/1999/xlink' x:href='1' xmlns:y='http://www.w3.org/1999/xlink' y:href='2'/></a>",
            "y:href",
        ),
    ] {
        let p = problems(xml);
        assert_eq!(p.len(), 1, "{xml:?}: {p:?}");
        assert_eq!(p[0], ("xml-not-well-formed", at.to_string()), "{xml:?}");
    }
}

#[test]
fn deep_nesting_does_not_overflow_and_stops_at_the_depth_limit() {
    use irilint::extract::xml::MAX_ELEMENT_DEPTH;
    // `<r>`, the `<d>`s and `<a>`: as deep as is read.
    let d = MAX_ELEMENT_DEPTH - 2;
    let mut xml = String::from("<r xmlns:x='http://www.w3.org/1999/xlink'>");
    xml.push_str(&"<d>".repeat(d));
    xml.push_str("<a x:href='http://e.org/&#x202E;'/>");
    xml.push_str(&"</d>".repeat(d));
    xml.push_str("</r>");
    let ex = within(Duration::from_secs(30), || extract(&xml));
    assert!(ex.problems.is_empty());
    assert_eq!(&*ex.occurrences[1].iri, "http://e.org/\u{202E}");
    // Unclosed: reported at the innermost open element, no recursion either way.
    let open = format!("<r>{}", "<d>".repeat(d + 1));
    let p = within(Duration::from_secs(30), || extract(&open)).problems;
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].range, open.len() - 3..open.len() - 1);
    // Deeper: reading stops at the first element past the limit, as a parser's does.
    let deep = format!("<r>{}<a href='http://e.org/'/>", "<d>".repeat(200_000));
    let p = within(Duration::from_secs(30), || extract(&deep)).problems;
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].rule, "xml-not-well-formed");
    let at = 3 + 3 * (MAX_ELEMENT_DEPTH - 1);
    assert_eq!(p[0].range, at..at + 2);
    assert!(
        p[0].message.contains("more than 10000 levels"),
        "{}",
        p[0].message
    );
}

#[test]
fn a_tag_of_too_many_attributes_stops_reading() {
    use irilint::extract::xml::MAX_ATTRIBUTES;
    // As many as are read: every namespace declaration an IRI of its own, the last one too.
    let tag = |n: usize| {
        let declarations: Vec<String> = (0..n)
            .map(|i| format!("xmlns:p{i}='http://e.org/{i}'"))
            .collect();
        format!("<r {}><p0:a/></r>", declarations.join(" "))
    };
    let ex = extract(&tag(MAX_ATTRIBUTES));
    assert!(ex.problems.is_empty(), "{:?}", ex.problems);
    assert_eq!(ex.occurrences.len(), MAX_ATTRIBUTES);
    let last = format!("http://e.org/{}", MAX_ATTRIBUTES - 1);
    assert_eq!(&*ex.occurrences[MAX_ATTRIBUTES - 1].iri, last);
    // One more: reading stops there, at its name, and nothing of the tag is read.
    let xml = tag(MAX_ATTRIBUTES + 1);
    let ex = extract(&xml);
    assert!(ex.occurrences.is_empty());
    assert_eq!(ex.problems.len(), 1);
    assert_eq!(ex.problems[0].rule, "xml-not-well-formed");
    let at = xml.find(&format!("xmlns:p{MAX_ATTRIBUTES}=")).unwrap();
    let name = format!("xmlns:p{MAX_ATTRIBUTES}");
    assert_eq!(&xml[ex.problems[0].range.clone()], name);
    assert_eq!(ex.problems[0].range.start, at);
    assert!(
        ex.problems[0]
            .message
            .contains("more than 10000 attributes"),
        "{}",
        ex.problems[0].message
    );
}

#[test]
fn a_fifty_megabyte_attribute() {
    let mut xml =
        String::from("<r xmlns:x='http://www.w3.org/1999/xlink'><a x:href=\"http://e.org/");
    xml.push_str(&"a".repeat(50 * 1024 * 1024));
    xml.push_str("&#x202E;\"/></r>");
    let ex = within(Duration::from_secs(60), || extract(&xml));
    assert!(ex.problems.is_empty());
    let o = &ex.occurrences[1];
    let at = o.iri.find('\u{202E}').unwrap();
    assert_eq!(&xml[o.map.to_source(at..at + 3)], "&#x202E;");
}

#[test]
fn truncated_input_never_panics() {
    let doc = fs::read_to_string("fixtures/xml/entities-nested.xml").unwrap();
    let doc = doc + "<!-- tail --><?pi x?>";
    for (end, _) in doc.char_indices() {
        let prefix = &doc[..end];
        let ex = extract(prefix);
        for p in &ex.problems {
            assert!(p.range.end <= prefix.len() && prefix.is_char_boundary(p.range.start));
        }
        if end < doc.find("</catalog>").unwrap() + "</catalog>".len() {
            assert!(
                ex.problems.iter().any(|p| p.rule == "xml-not-well-formed"),
                "{prefix:?}"
            );
        }
    }
    for xml in [
        "<",
        "<a",
        "<a ",
        "<a x",
        "<a x=",
        "<a x='",
        "<a x='&",
        "<a x='&#x",
        "<a x='&#x202E",
        "<a>&",
        "<a>&#",
        "<a>&am",
        "<!",
        "<!-",
        "<!--",
        "<![CDATA[",
        "<!DOCTYPE",
        "<!DOCTYPE a [",
        "<!DOCTYPE a [<!ENTITY",
        "<!DOCTYPE a [<!ENTITY x \"",
        "<?",
        "<?xml",
        "</",
        "</a",
        "&",
        "\u{FEFF}<a/>",
        "<a>]]></a>",
        "<!DOCTYPE a [\u{202E}]]>",
        "<a \u{202E}/>",
        "<a x=\u{202E}/>",
        "<a\u{0}/>",
        "<\u{202E}a/>",
    ] {
        let _ = extract(xml);
    }
}

#[test]
fn mixed_encodings_are_decoded_with_replacement() {
    // Declared UTF-8, bytes in Latin-1: each bad byte becomes U+FFFD, which stays in the IRI.
    let bytes = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><loc>http://e.org/caf\xE9</loc></urlset>";
    let source = Source::decode("t.xml".into(), Format::Xml, bytes).unwrap();
    let ex = extract(&source.text);
    assert_eq!(&*ex.occurrences[1].iri, "http://e.org/caf\u{FFFD}");
    assert!(ex.problems.is_empty());
}

// ---- Every prepared character of every fixture decodes back from its source span. ----

fn xml_fixtures() -> Vec<(PathBuf, Source)> {
    let mut out = Vec::new();
    for entry in fs::read_dir("fixtures/xml").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        if !name.ends_with(".json") && !name.ends_with(".args") {
            let bytes = fs::read(&path).unwrap();
            let source = Source::decode(path.display().to_string(), Format::Xml, &bytes).unwrap();
            out.push((path, source));
        }
    }
    assert!(out.len() >= 15, "at least 15 XML fixtures");
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The internal general entities of a document, as `<!ENTITY name "literal">` declares them,
/// with the literal's character references replaced (an independent, simple reading).
fn entities(text: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut rest = text;
    while let Some(k) = rest.find("<!ENTITY") {
        rest = rest[k + 8..].trim_start();
        if rest.starts_with('%') {
            continue;
        }
        let name_end = rest.find(char::is_whitespace).unwrap();
        let name = rest[..name_end].to_string();
        let after = rest[name_end..].trim_start();
        let Some(q) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let literal = &after[1..1 + after[1..].find(q).unwrap()];
        let mut value = String::new();
        let mut s = literal;
        while let Some(i) = s.find("&#") {
            value.push_str(&s[..i]);
            let semi = s[i..].find(';').unwrap();
            value.push(char_ref(&s[i + 1..i + semi]));
            s = &s[i + semi + 1..];
        }
        value.push_str(s);
        out.entry(name).or_insert(value);
    }
    out
}

fn char_ref(body: &str) -> char {
    let n = match body.strip_prefix("#x") {
        Some(hex) => u32::from_str_radix(hex, 16).unwrap(),
        None => body[1..].parse().unwrap(),
    };
    char::from_u32(n).unwrap()
}

/// What `raw` (source text) decodes to in XML: references and entities expanded, white space
/// normalized as in an attribute value or as in content, line ends normalized when `raw` comes
/// from the document (`eol`) rather than from an entity's replacement text.
fn decode(
    raw: &str,
    entities: &HashMap<String, String>,
    attribute: bool,
    eol: bool,
    depth: u32,
) -> String {
    assert!(depth < 20, "runaway expansion");
    let mut out = String::new();
    let mut rest = raw;
    while let Some(c) = rest.chars().next() {
        if let (true, Some(semi)) = (c == '&', rest.find(';')) {
            let body = &rest[1..semi];
            if body.starts_with('#') {
                out.push(char_ref(body));
            } else {
                match body {
                    "amp" => out.push('&'),
                    "lt" => out.push('<'),
                    "gt" => out.push('>'),
                    "apos" => out.push('\''),
                    "quot" => out.push('"'),
                    name => match entities.get(name) {
                        Some(text) => {
                            out.push_str(&decode(text, entities, attribute, false, depth + 1))
                        }
                        None => out.push_str(&rest[..=semi]),
                    },
                }
            }
            rest = &rest[semi + 1..];
        } else if eol && rest.starts_with("\r\n") {
            out.push(if attribute { ' ' } else { '\n' });
            rest = &rest[2..];
        } else if rest.starts_with("<![CDATA[") {
            let end = rest.find("]]>").unwrap_or(rest.len());
            out.push_str(&rest[9..end]);
            rest = &rest[(end + 3).min(rest.len())..];
        } else {
            out.push(match c {
                '\t' | '\n' | '\r' if attribute => ' ',
                '\r' if eol => '\n',
                c => c,
            });
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

fn is_content(origin: &str) -> bool {
    !origin.contains('@') && !origin.contains(':') && origin != "xmlns"
}

#[test]
fn every_prepared_character_maps_to_source_that_decodes_to_it() {
    let mut checked = 0;
    for (path, source) in xml_fixtures() {
        let text = &source.text;
        let entities = entities(text);
        let Extraction { occurrences, .. } = extract(text);
        for occ in occurrences {
            let attribute = !is_content(&occ.origin);
            for (i, c) in occ.iri.char_indices() {
                let span = occ.map.to_source(i..i + c.len_utf8());
                let raw = &text[span];
                let decoded = decode(raw, &entities, attribute, true, 0);
                let exact = decoded == c.to_string();
                let from_entity = raw.starts_with('&')
                    && !raw.starts_with("&#")
                    && decoded.chars().count() > 1
                    && decoded.contains(c);
                assert!(
                    exact || from_entity,
                    "{}: {} {:?}[{i}] = {c:?} maps to {raw:?}, which decodes to {decoded:?}",
                    path.display(),
                    occ.origin,
                    occ.iri
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 2000, "only {checked} characters checked");
}

#[test]
fn fixture_problems_are_inside_their_documents() {
    for (path, source) in xml_fixtures() {
        let ex = extract(&source.text);
        for p in ex.problems.iter() {
            assert!(
                p.range.start <= p.range.end
                    && p.range.end <= source.text.len()
                    && source.text.is_char_boundary(p.range.start)
                    && source.text.is_char_boundary(p.range.end),
                "{}: {p:?}",
                path.display()
            );
            assert!(irilint::rules::rule(p.rule).is_some(), "{}", p.rule);
        }
        let starts: Vec<usize> = ex
            .occurrences
            .iter()
            .map(|o| o.map.source_range().start)
            .collect();
        assert!(
            starts.windows(2).all(|w| w[0] <= w[1]),
            "{}: document order",
            path.display()
        );
    }
}

// ---- Any input: a report, never a panic; spans and occurrences stay consistent. ----

mod fuzz {
    use irilint::extract::xml::extract;
    use proptest::prelude::*;
    use proptest::sample::select;

    /// Pieces of XML that make parsers take every branch, glued at random.
    const PIECES: &[&str] = &[
        "<",
        ">",
        "/>",
        "</",
        "<a",
        "</a>",
        "<a>",
        "<b x='1'>",
        "</b>",
        " ",
        "\n",
        "\r\n",
        "\t",
        "'",
        "\"",
        "=",
        "&",
        ";",
        "&amp;",
        "&#x202E;",
        "&#0;",
        "&e;",
        "&f;",
        "&x;",
        "&lol;",
        "<!--",
        "-->",
        "<![CDATA[",
        "]]>",
        "<?xml version='1.0'?>",
        "<?pi x?>",
        "<!DOCTYPE a [",
        "]>",
        "<!ENTITY e 'v&f;'>",
        "<!ENTITY f \"&e;\">",
        "<!ENTITY x SYSTEM 'x'>",
        "<!ENTITY lol 'lol'>",
        "<!ENTITY % p '<!ENTITY e \"p\">'>",
        "%p;",
        "xmlns='urn:x'",
        "xmlns:x='http://www.w3.org/1999/xlink'",
        "x:href='",
        "href=",
        "http://e.org/",
        "é",
        "\u{202E}",
        "\u{0}",
        "<loc>",
        "</loc>",
        "<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>",
        "<rss>",
        "<guid>",
        ":",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn never_panics_and_spans_stay_in_bounds(parts in prop::collection::vec(select(PIECES), 0..40)) {
            let xml: String = parts.concat();
            let ex = extract(&xml);
            for p in &ex.problems {
                prop_assert!(p.range.start <= p.range.end && p.range.end <= xml.len());
                prop_assert!(xml.is_char_boundary(p.range.start) && xml.is_char_boundary(p.range.end));
            }
            prop_assert!(ex.problems.iter().filter(|p| p.rule == "xml-not-well-formed").count() <= 1);
            for o in &ex.occurrences {
                prop_assert_eq!(o.map.prepared_len(), o.iri.len());
                let r = o.map.source_range();
                prop_assert!(r.end <= xml.len() && xml.is_char_boundary(r.start) && xml.is_char_boundary(r.end));
            }
        }

        #[test]
        fn arbitrary_text_never_panics(xml in any::<String>()) {
            let _ = extract(&xml);
        }
    }
}

#[test]
fn a_doctype_of_too_many_entities_is_read_up_to_the_limit() {
    use irilint::extract::xml::MAX_DECLARATIONS;
    let n = MAX_DECLARATIONS + 2;
    for standalone in ["", " standalone=\"yes\""] {
        let decls: String = (0..n).map(|k| format!("<!ENTITY e{k} \"x{k}\">")).collect();
        let xml = format!(
            "<?xml version=\"1.0\"{standalone}?>\n<!DOCTYPE r [{decls}]>\n<r xmlns:x='http://www.w3.org/1999/xlink'>\
             <a x:href='http://e.org/&e0;/&e{last};/&e{over};'/><a x:href='http://e.org/&nope;'/></r>",
            last = MAX_DECLARATIONS - 1,
            over = MAX_DECLARATIONS + 1,
        );
        let ex = extract(&xml);
        // One report, at the first declaration not kept; the uses of it and of later ones
        // and of undeclared names are left as written, not reported one by one, not fatal.
        let found: Vec<_> = ex
            .problems
            .iter()
            .map(|p| (p.rule, &xml[p.range.clone()]))
            .collect();
        let first_dropped = format!("<!ENTITY e{MAX_DECLARATIONS} \"x{MAX_DECLARATIONS}\">");
        assert_eq!(found, [("xml-entity-limit", first_dropped.as_str())]);
        let iris: Vec<&str> = ex
            .occurrences
            .iter()
            .map(|o| &*o.iri)
            .filter(|i| i.starts_with("http://e.org/"))
            .collect();
        let expanded = format!(
            "http://e.org/x0/x{}/&e{};",
            MAX_DECLARATIONS - 1,
            MAX_DECLARATIONS + 1
        );
        assert_eq!(iris, [expanded.as_str(), "http://e.org/&nope;"]);
    }
}

#[test]
fn the_entity_text_of_the_values_held_at_once_is_capped_at_the_file_size() {
    let value = "a".repeat(600_000);
    let doctype = format!("<!DOCTYPE r [<!ENTITY a \"{value}\">]>");
    for (name, xml) in [
        (
            "attribute",
            format!(
                "{doctype}<r xmlns:x='http://www.w3.org/1999/xlink'><a x:href='http://e.org/&a;&a;'/>\
                 <a x:href='http://e.org/&a;'/></r>"
            ),
        ),
        (
            "content",
            format!(
                "{doctype}<rss version='2.0'><channel><item><link>http://e.org/&a;&a;</link>\
                 </item><item><link>http://e.org/&a;</link></item></channel></rss>"
            ),
        ),
    ] {
        assert!(xml.len() < 1 << 20);
        let ex = extract(&xml);
        // The held limit is max(1 MiB, the file's size): one use fits, two in one value do
        // not; the next value starts afresh.
        let limits = entity_limits(&ex);
        assert_eq!(limits.len(), 1, "{name}: {:?}", ex.problems);
        assert!(
            limits[0]
                .message
                .contains("would hold more than 1048576 bytes"),
            "{name}: {}",
            limits[0].message
        );
        assert_eq!(&xml[limits[0].range.clone()], "&a;");
        let iris: Vec<String> = ex.occurrences.iter().map(|o| o.iri.to_string()).collect();
        let once = format!("http://e.org/{value}");
        let refused = format!("http://e.org/{value}&a;");
        assert!(iris.contains(&refused), "{name}");
        assert!(iris.contains(&once), "{name}");
    }
}

#[test]
fn an_iri_of_thousands_of_entities_keeps_the_first_declarations_as_related_locations() {
    use irilint::extract::span_map::EXACT_PIECES;
    let n = 2 * EXACT_PIECES;
    let decls: String = (0..n)
        .map(|k| match k {
            3 | 7000 => format!("<!ENTITY e{k} \"&#x202E;\">"),
            _ => format!("<!ENTITY e{k} \"x\">"),
        })
        .collect();
    let uses: String = (0..n).map(|k| format!("&e{k};")).collect();
    let xml = format!(
        "<!DOCTYPE r [{decls}]><r xmlns:x='http://www.w3.org/1999/xlink'><a x:href='http://e.org/{uses}'/></r>"
    );
    let ex = extract(&xml);
    let o = ex
        .occurrences
        .iter()
        .find(|o| o.iri.starts_with("http://e.org/"))
        .unwrap();
    let at = |k: usize| {
        let before: usize = "http://e.org/".len() + k;
        before..before + "\u{202E}".len()
    };
    // Among the first pieces: the use exactly, and the declaration.
    assert_eq!(&xml[o.map.to_source(at(3))], "&e3;");
    let related = o.map.related_for(at(3));
    assert_eq!(related.len(), 1);
    assert_eq!(&xml[related[0].range.clone()], "<!ENTITY e3 \"&#x202E;\">");
    // Past them: the use is still underlined (with up to a few hundred bytes around it), its
    // declaration is not kept.
    let span = &xml[o.map.to_source(at(7000))];
    assert!(span.contains("&e7000;") && span.len() < 600, "{span}");
    assert!(o.map.related_for(at(7000)).is_empty());
}

#[test]
fn entities_are_reported_by_name_a_hundred_times_at_most() {
    use irilint::extract::xml::MAX_NAMED_REPORTS;
    let n = 3 * MAX_NAMED_REPORTS;
    let uses: String = (0..n).map(|k| format!("&u{k};")).collect();
    let externals: String = (0..n)
        .map(|k| format!("<!ENTITY x{k} SYSTEM \"s{k}\">"))
        .collect();
    let x_uses: String = (0..n).map(|k| format!("&x{k};")).collect();
    for xml in [
        // Undeclared, perhaps in the external subset.
        format!(
            "<!DOCTYPE r SYSTEM \"r.dtd\"><r xmlns:x='http://www.w3.org/1999/xlink'>\
             <a x:href='http://e.org/{uses}'/></r>"
        ),
        // External, never read.
        format!(
            "<!DOCTYPE r [{externals}]><r xmlns:x='http://www.w3.org/1999/xlink'>\
             <a x:href='http://e.org/{x_uses}'/><p>{x_uses}</p></r>"
        ),
    ] {
        let ex = extract(&xml);
        assert_eq!(ex.problems.len(), MAX_NAMED_REPORTS + 1);
        assert!(ex.problems.iter().all(|p| p.rule == "xml-external-entity"));
        // The first hundred by name, then one that says the rest are not reported.
        let named = &ex.problems[MAX_NAMED_REPORTS - 1];
        assert!(
            named
                .message
                .contains(&format!("{};", MAX_NAMED_REPORTS - 1))
        );
        let last = ex.problems.last().unwrap();
        assert!(
            last.message.contains("at most 100 entities"),
            "{}",
            last.message
        );
        assert!(xml[last.range.clone()].ends_with(&format!("{MAX_NAMED_REPORTS};")));
        // Every reference is still left as written in the IRI.
        let iri = ex
            .occurrences
            .iter()
            .find(|o| o.iri.starts_with("http://e.org/"))
            .unwrap();
        assert_eq!(iri.iri.matches(';').count(), n);
    }
}

#[test]
fn a_template_saved_as_svg_is_read_through_its_actions_between_attributes() {
    // A Hugo partial `icons/logo.svg`: conditional attributes written with actions in the tag.
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"{{ with .width }} width=\"{{ . }}\"{{ end }}\
               {{- if .title }} aria-label=\"{{ .title }}\"{{ end }}>\
               <a href=\"https://example.com/a\u{200B}b\">x</a></svg>\n";
    let out = irilint::extract::xml::extract(svg);
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    let iris: Vec<&str> = out.occurrences.iter().map(|o| &*o.iri).collect();
    assert_eq!(
        iris,
        [
            "http://www.w3.org/2000/svg",
            "https://example.com/a\u{200B}b"
        ]
    );
    // Its span is exact: the U+200B where it is in the file.
    let o = &out.occurrences[1];
    let at = o.iri.find('\u{200B}').unwrap();
    let src = o.map.to_source(at..at + 3);
    assert_eq!(&svg[src], "\u{200B}");
    // Not a template: the same tag is an error, reported once.
    let plain = svg.replace("{{ with .width }}", "{ with .width }");
    let out = irilint::extract::xml::extract(&plain);
    assert_eq!(out.problems.len(), 1, "{:?}", out.problems);
}

#[test]
fn the_iris_after_a_well_formedness_error_are_read_on() {
    let xml = "<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n\
               <link href=\"https://a.org/?a=1&b=2\"/>\n\
               <entry><link rel=\"alternate\" href=\"https://example.com/c\u{200B}d\"/>\
               <a href=\"https://example.com/e\u{202E}f\">x</a></entry></feed>\n";
    let out = irilint::extract::xml::extract(xml);
    let errors: Vec<&str> = out.problems.iter().map(|p| p.rule).collect();
    assert_eq!(errors, ["xml-not-well-formed"]);
    let iris: Vec<&str> = out.occurrences.iter().map(|o| &*o.iri).collect();
    assert_eq!(
        iris,
        [
            "http://www.w3.org/2005/Atom",
            "https://example.com/c\u{200B}d",
            "https://example.com/e\u{202E}f"
        ]
    );
    for o in &out.occurrences[1..] {
        let r = o.map.source_range();
        assert_eq!(&xml[r], &*o.iri);
    }
}

#[test]
fn a_page_about_templates_is_no_template_action_across_its_tags() {
    // Cut from this project's book as pandoc writes it into an EPUB (formats/templates.md): a
    // `{{` shown in code, and the `}}` of an example two paragraphs on. Read as one action whose
    // strings hold markup, the text between them was blanked, `</p>` and `<ul>` with it, and the
    // page was reported not well-formed at the next `</li>`.
    let xhtml = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>\n\
                 <p>Only <code>{{</code> is plain. What is inside is the template language's, \
                 not read (<a href=\"plain-text.md\">Plain text</a>).</p>\n\
                 <p>A layout is read as the template it is:</p>\n<ul>\n\
                 <li>an action (<code>{{ printf \"&lt;atom:link href=%q …/&gt;\" .Permalink }}</code>, \
                 <code>{% trans link='&lt;a href=\"https://www.mkdocs.org/\"&gt;MkDocs&lt;/a&gt;' %}</code>) \
                 is not a tag;</li>\n</ul><p><a href=\"https://example.com/a\u{200B}b\">x</a></p></body></html>\n";
    let out = irilint::extract::xml::extract(xhtml);
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    let iris: Vec<&str> = out.occurrences.iter().map(|o| &*o.iri).collect();
    assert_eq!(
        iris,
        [
            "http://www.w3.org/1999/xhtml",
            "plain-text.md",
            "https://example.com/a\u{200B}b"
        ]
    );
}
