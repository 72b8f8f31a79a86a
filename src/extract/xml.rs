//! IRIs in XML and its dialects (SVG, Atom, RSS, RDF/XML, XHTML, sitemaps, XML Schema, XSLT,
//! OPF, DocBook, Mallard, ...), found by namespace URI — never by prefix — and mapped back to
//! the exact source characters.
//!
//! quick-xml finds the markup (tags, text, references, CDATA, comments, the DOCTYPE) and checks
//! that end tags match; irilint splits start tags into located attributes, resolves namespaces,
//! decodes every value as XML 1.0 prescribes, parses the internal DTD subset for entities, and
//! checks the rest of well-formedness that matters here.
//!
//! # What is extracted
//!
//! One table, [`SLOTS`]:
//!
//! | namespace | elements | IRI in | value | origin |
//! |---|---|---|---|---|
//! | any | any | `xmlns`, `xmlns:*` attributes | IRI | `xmlns`, `xmlns:p` |
//! | any | any | `xml:base` attribute | IRI | `xml:base` |
//! | any | any | `xlink:href` attribute (`http://www.w3.org/1999/xlink`, any prefix) | IRI | `xlink:href` |
//! | any | any | `xlink:role` attribute (`http://www.w3.org/1999/xlink`, any prefix) | IRI | `xlink:role` |
//! | any | any | `xlink:arcrole` attribute (`http://www.w3.org/1999/xlink`, any prefix) | IRI | `xlink:arcrole` |
//! | any | any | `rdf:about` attribute (`http://www.w3.org/1999/02/22-rdf-syntax-ns#`, any prefix) | IRI | `rdf:about` |
//! | any | any | `rdf:resource` attribute (`http://www.w3.org/1999/02/22-rdf-syntax-ns#`, any prefix) | IRI | `rdf:resource` |
//! | any | any | `rdf:datatype` attribute (`http://www.w3.org/1999/02/22-rdf-syntax-ns#`, any prefix) | IRI | `rdf:datatype` |
//! | any | any | `xsi:schemaLocation` attribute (`http://www.w3.org/2001/XMLSchema-instance`, any prefix) | white-space-separated IRIs | `xsi:schemaLocation` |
//! | any | any | `xsi:noNamespaceSchemaLocation` attribute (`http://www.w3.org/2001/XMLSchema-instance`, any prefix) | IRI | `xsi:noNamespaceSchemaLocation` |
//! | `http://www.w3.org/1999/xhtml` | any | every URL attribute HTML defines for the element (`a@href`, `img@src`, `img@srcset`, `a@ping`, `itemtype`, ...: [`super::html::URL_ATTRIBUTES`]) | as in HTML | `element@attribute` |
//! | `http://www.w3.org/1999/xhtml` | `meta` | `content` attribute, when `http-equiv="refresh"` | as in HTML (the URL after `url=`) | `meta@content` |
//! | `http://www.w3.org/2000/svg` | any | `href` attribute | IRI | `element@href` |
//! | `http://www.w3.org/1998/Math/MathML` | any | `href` attribute | IRI | `element@href` |
//! | `http://www.w3.org/1998/Math/MathML` | any | `definitionURL` attribute | IRI | `element@definitionURL` |
//! | `http://www.w3.org/1998/Math/MathML` | `mglyph` | `src` attribute | IRI | `mglyph@src` |
//! | `http://www.w3.org/1998/Math/MathML` | `math` | `altimg` attribute | IRI | `math@altimg` |
//! | `http://www.w3.org/2005/Atom` | `link` | `href` attribute | IRI | `link@href` |
//! | `http://www.w3.org/2005/Atom` | `content` | `src` attribute | IRI | `content@src` |
//! | `http://www.w3.org/2005/Atom` | `category` | `scheme` attribute | IRI | `category@scheme` |
//! | `http://www.w3.org/2005/Atom` | `generator` | `uri` attribute | IRI | `generator@uri` |
//! | `http://www.w3.org/2005/Atom` | `id` `icon` `logo` `uri` | text content | IRI | `id`, `icon`, `logo`, `uri` |
//! | none, inside `<rss>` | `link` `comments` `docs` `url` | text content | IRI | `link`, `comments`, `docs`, `url` |
//! | none, inside `<rss>` | `guid` | text content, unless `isPermaLink="false"` | IRI | `guid` |
//! | none, inside `<rss>` | `enclosure` `source` | `url` attribute | IRI | `enclosure@url`, `source@url` |
//! | `http://purl.org/rss/1.0/` | `link` `url` | text content | IRI | `link`, `url` |
//! | `http://www.sitemaps.org/schemas/sitemap/0.9` | `loc` | text content | IRI | `loc` |
//! | `http://www.google.com/schemas/sitemap-image/1.1` | `loc` | text content | IRI | `loc` |
//! | `http://www.w3.org/2001/XMLSchema` | `schema` | `targetNamespace` attribute | IRI | `schema@targetNamespace` |
//! | `http://www.w3.org/2001/XMLSchema` | `import` | `namespace` attribute | IRI | `import@namespace` |
//! | `http://www.w3.org/2001/XMLSchema` | `import` `include` `redefine` `override` | `schemaLocation` attribute | IRI | `import@schemaLocation`, `include@schemaLocation`, `redefine@schemaLocation`, `override@schemaLocation` |
//! | `http://www.w3.org/1999/XSL/Transform` | `import` `include` | `href` attribute | IRI | `import@href`, `include@href` |
//! | `http://www.idpf.org/2007/opf` | `item` `reference` | `href` attribute | IRI | `item@href`, `reference@href` |
//! | `http://projectmallard.org/1.0/` | `link` `license` | `href` attribute | IRI | `link@href`, `license@href` |
//! | `http://projectmallard.org/1.0/` | `media` | `src` attribute | IRI | `media@src` |
//! | `http://docbook.org/ns/docbook` | `imagedata` `videodata` `audiodata` `textdata` | `fileref` attribute | IRI | `imagedata@fileref`, `videodata@fileref`, `audiodata@fileref`, `textdata@fileref` |
//! | `http://schemas.openxmlformats.org/package/2006/relationships` | `Relationship` | `Target` attribute, when `TargetMode="External"` | IRI | `Relationship@Target` |
//!
//! Namespaces are compared by URI: `<zz:a xmlns:zz="http://www.w3.org/1999/xlink" zz:href=...>`
//! is an XLink `href`. RSS 2.0 has no namespace: its rows apply to elements in no namespace in
//! a document whose root is `<rss>`. Elements and attributes of other vocabularies are not read.
//!
//! # Origins
//!
//! [`super::Occurrence::origin`] names what held the IRI: a namespace declaration as written
//! (`xmlns`, `xmlns:dc`); an attribute in a namespace by the namespace's usual prefix, whatever
//! the document's prefix (`xml:base`, `xlink:href`, `rdf:about`, `xsi:schemaLocation`); an
//! attribute without prefix as `element@attribute` with the element's local name (`a@href`,
//! `link@href`, `content@src`, `category@scheme`); element content by the element's local name
//! (`loc`, `id`, `guid`).
//!
//! # Prepared values
//!
//! An attribute value is what XML 1.0 §3.3.3 gives the application: character references
//! (`&#x202E;`) and the five predefined entities resolved, references to internal entities
//! replaced by their (recursively decoded) replacement text, and each literal tab, line feed and
//! carriage return — a CR LF pair counts as one — replaced by a space, while a tab written as
//! `&#x9;` stays a tab. It is not trimmed (a space in a namespace name makes it another
//! namespace), except where HTML rules apply (XHTML rows). Element content is the element's own
//! character data (text, references resolved, CDATA sections verbatim; child elements' text
//! excluded) with line ends normalized to LF and surrounding XML white space trimmed. Empty
//! values are skipped. Each prepared byte maps to the exact source: a reference is covered
//! whole, and text that came through an entity maps to the `&name;` use in the document (the
//! outermost one when entities nest) with the entity's declaration as related location.
//!
//! # The DTD, entities, and limits
//!
//! The internal subset is parsed for `<!ENTITY>` declarations (`src/extract/xml/dtd.rs`);
//! external entities, the external subset and any SYSTEM or PUBLIC identifier are never fetched
//! or read. A reference to an external entity is reported once per entity
//! (`xml-external-entity`, warning) and left as written; so is a reference, inside an IRI, to an
//! entity the document does not declare when its declaration may be in the unread external
//! subset. Expansion is
//! bounded: references nest at most [`MAX_DEPTH`] levels, and all expansions of a document
//! together scan at most max(1 MiB, 10 × its size) bytes; the values held at once (a start
//! tag's attribute values, an IRI element's content) take at most max(1 MiB, its size) bytes of
//! entity text, and a DOCTYPE keeps [`MAX_DECLARATIONS`] entities. All are computed from the
//! declarations before anything is expanded, so a "billion laughs" or quadratic-blowup document
//! costs nothing: the refused use is reported (`xml-entity-limit`, on the `&name;`, the
//! declaration related), left as written, and the rest of the document is still checked.
//!
//! # Errors
//!
//! The first well-formedness error (XML 1.0, and Namespaces in XML: undeclared prefixes,
//! reserved prefixes) is reported as `xml-not-well-formed` at its position, where an XML parser
//! stops; irilint reads on from the next tag as HTML reads markup (its tokenizer recovers from
//! anything), so that the IRIs after the error are checked too. A template source (front
//! matter, `{{ }}`, `{% %}`) has its actions between a tag's attributes blanked first
//! (`<svg {{ with .width }}width="{{ . }}"{{ end }}>`), as those between tags whose strings hold
//! markup are. Nothing recurses with the
//! depth of the document, and nothing is proportional to more than the input and the
//! expansion budget, so deep nesting, huge attributes and truncated input end in a report.
//! Not done: attribute defaults and types from `<!ATTLIST>` (defaults are not supplied, values
//! are normalized as CDATA), XML 1.1 line ends (NEL, LS), the `xml-stylesheet` processing
//! instruction.

mod decode;
mod dtd;
mod dtd_graph;
mod dtd_parser;
mod elements;
mod entities;
mod errors;
mod namespaces;
mod tags;
mod walker;

use std::borrow::Cow;
use std::ops::Range;

use super::html::{self, ValueKind};
use super::{Extraction, Occurrence, Problem, Related};

/// The XML namespace, bound to the prefix `xml` in every document.
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace of `xmlns` attributes, which no prefix may be bound to.
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";
/// XLink.
pub const XLINK: &str = "http://www.w3.org/1999/xlink";
/// RDF/XML.
pub const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
/// XML Schema instance attributes.
pub const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";
/// XHTML.
pub const XHTML: &str = "http://www.w3.org/1999/xhtml";
/// SVG.
pub const SVG: &str = "http://www.w3.org/2000/svg";
/// MathML.
pub const MATHML: &str = "http://www.w3.org/1998/Math/MathML";
/// Atom (RFC 4287).
pub const ATOM: &str = "http://www.w3.org/2005/Atom";
/// RSS 1.0.
pub const RSS1: &str = "http://purl.org/rss/1.0/";
/// Sitemaps.
pub const SITEMAP: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
/// Image sitemaps.
pub const SITEMAP_IMAGE: &str = "http://www.google.com/schemas/sitemap-image/1.1";
/// XML Schema.
pub const XSD: &str = "http://www.w3.org/2001/XMLSchema";
/// XSLT.
pub const XSLT: &str = "http://www.w3.org/1999/XSL/Transform";
/// OPF (EPUB package documents).
pub const OPF: &str = "http://www.idpf.org/2007/opf";
/// Mallard (`.page`).
pub const MALLARD: &str = "http://projectmallard.org/1.0/";
/// DocBook 5.
pub const DOCBOOK: &str = "http://docbook.org/ns/docbook";
/// Open Packaging Conventions relationships (`*.rels` of Office Open XML documents).
pub const OPC_RELATIONSHIPS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";

/// How deep entity references may nest.
pub const MAX_DEPTH: u32 = 16;

/// How many entities (general and parameter) a DOCTYPE may declare: the declarations after
/// are not processed, and references to them are left unexpanded. A table of entities costs
/// ten times the declarations' text (about 250 bytes for `<!ENTITY e1 "x1">`), so a DOCTYPE of
/// millions of them would outgrow the memory bound; this caps the table at about 13 MB. HTML's
/// and MathML's sets have about 2,200 each, and irilint reads only the internal subset.
pub const MAX_DECLARATIONS: usize = 50_000;

/// How deep elements may nest: deeper, reading stops with `xml-not-well-formed`.
pub const MAX_ELEMENT_DEPTH: usize = 10_000;

/// How many attributes a start tag may have: with more, reading stops with
/// `xml-not-well-formed`, as Java's parsers stop by default (`jdk.xml.elementAttributeLimit`)
/// and GLib's at 1,000. A tag's attributes are held together while it is read (each name
/// resolved and checked against the others, each namespace declaration bound), at hundreds of
/// bytes each against a few in the file: a tag of 160,000 namespace declarations took 173 MB
/// for 5.5 MB.
pub const MAX_ATTRIBUTES: usize = 10_000;

/// How many entities a document's reports name one by one (refused, external, undeclared): past
/// them, one report says so and the references are left as written without one each.
pub const MAX_NAMED_REPORTS: usize = 100;

/// Which elements a row of [`SLOTS`] applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elements {
    /// Every element, whatever its namespace.
    Any,
    /// Elements in this namespace with one of these local names (empty: every one).
    In(&'static str, &'static [&'static str]),
    /// RSS 2.0: elements in no namespace with one of these names, in a document whose root
    /// element is `<rss>` (in no namespace).
    Rss(&'static [&'static str]),
}

/// Where in the element the IRI is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// The namespace declarations `xmlns` and `xmlns:*`.
    NamespaceDeclaration,
    /// An attribute in a namespace, whatever prefix the document uses; `origin` names it.
    QualifiedAttribute {
        /// The attribute's namespace.
        namespace: &'static str,
        /// Its local name.
        local: &'static str,
        /// Its origin: the local name with the namespace's usual prefix (`xlink:href`).
        origin: &'static str,
    },
    /// An attribute without prefix.
    Attribute(&'static str),
    /// Every attribute HTML's [`html::URL_ATTRIBUTES`] lists for the element.
    HtmlAttributes,
    /// The element's text content.
    Content,
}

/// How a value holds IRIs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// One IRI: the whole prepared value.
    Iri,
    /// IRIs separated by XML white space.
    IriList,
    /// As HTML reads the attribute ([`html::each_url_range`]); `None`: the kind HTML's table gives.
    Html(Option<ValueKind>),
}

/// When a row applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// Always.
    Always,
    /// Unless the element's attribute has this value (ASCII case-insensitive).
    Unless(&'static str, &'static str),
    /// Only when the element's attribute has this value (ASCII case-insensitive).
    When(&'static str, &'static str),
}

/// One row of the table of IRI-valued places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// The elements.
    pub elements: Elements,
    /// Where in them.
    pub node: Node,
    /// How the value holds IRIs.
    pub value: Value,
    /// When.
    pub condition: Condition,
}

const fn row(elements: Elements, node: Node, value: Value) -> Slot {
    Slot {
        elements,
        node,
        value,
        condition: Condition::Always,
    }
}

const fn qualified(namespace: &'static str, local: &'static str, origin: &'static str) -> Node {
    Node::QualifiedAttribute {
        namespace,
        local,
        origin,
    }
}

/// Every place irilint reads IRIs from in XML (rendered in the module documentation).
pub const SLOTS: &[Slot] = &[
    row(Elements::Any, Node::NamespaceDeclaration, Value::Iri),
    row(
        Elements::Any,
        qualified(XML_NAMESPACE, "base", "xml:base"),
        Value::Iri,
    ),
    row(
        Elements::Any,
        qualified(XLINK, "href", "xlink:href"),
        Value::Iri,
    ),
    row(
        Elements::Any,
        qualified(XLINK, "role", "xlink:role"),
        Value::Iri,
    ),
    row(
        Elements::Any,
        qualified(XLINK, "arcrole", "xlink:arcrole"),
        Value::Iri,
    ),
    row(
        Elements::Any,
        qualified(RDF, "about", "rdf:about"),
        Value::Iri,
    ),
    row(
        Elements::Any,
        qualified(RDF, "resource", "rdf:resource"),
        Value::Iri,
    ),
    row(
        Elements::Any,
        qualified(RDF, "datatype", "rdf:datatype"),
        Value::Iri,
    ),
    row(
        Elements::Any,
        qualified(XSI, "schemaLocation", "xsi:schemaLocation"),
        Value::IriList,
    ),
    row(
        Elements::Any,
        qualified(
            XSI,
            "noNamespaceSchemaLocation",
            "xsi:noNamespaceSchemaLocation",
        ),
        Value::Iri,
    ),
    row(
        Elements::In(XHTML, &[]),
        Node::HtmlAttributes,
        Value::Html(None),
    ),
    Slot {
        elements: Elements::In(XHTML, &["meta"]),
        node: Node::Attribute("content"),
        value: Value::Html(Some(ValueKind::Refresh)),
        condition: Condition::When("http-equiv", "refresh"),
    },
    row(Elements::In(SVG, &[]), Node::Attribute("href"), Value::Iri),
    row(
        Elements::In(MATHML, &[]),
        Node::Attribute("href"),
        Value::Iri,
    ),
    row(
        Elements::In(MATHML, &[]),
        Node::Attribute("definitionURL"),
        Value::Iri,
    ),
    row(
        Elements::In(MATHML, &["mglyph"]),
        Node::Attribute("src"),
        Value::Iri,
    ),
    row(
        Elements::In(MATHML, &["math"]),
        Node::Attribute("altimg"),
        Value::Iri,
    ),
    row(
        Elements::In(ATOM, &["link"]),
        Node::Attribute("href"),
        Value::Iri,
    ),
    row(
        Elements::In(ATOM, &["content"]),
        Node::Attribute("src"),
        Value::Iri,
    ),
    row(
        Elements::In(ATOM, &["category"]),
        Node::Attribute("scheme"),
        Value::Iri,
    ),
    row(
        Elements::In(ATOM, &["generator"]),
        Node::Attribute("uri"),
        Value::Iri,
    ),
    row(
        Elements::In(ATOM, &["id", "icon", "logo", "uri"]),
        Node::Content,
        Value::Iri,
    ),
    row(
        Elements::Rss(&["link", "comments", "docs", "url"]),
        Node::Content,
        Value::Iri,
    ),
    Slot {
        elements: Elements::Rss(&["guid"]),
        node: Node::Content,
        value: Value::Iri,
        condition: Condition::Unless("isPermaLink", "false"),
    },
    row(
        Elements::Rss(&["enclosure", "source"]),
        Node::Attribute("url"),
        Value::Iri,
    ),
    row(
        Elements::In(RSS1, &["link", "url"]),
        Node::Content,
        Value::Iri,
    ),
    row(Elements::In(SITEMAP, &["loc"]), Node::Content, Value::Iri),
    row(
        Elements::In(SITEMAP_IMAGE, &["loc"]),
        Node::Content,
        Value::Iri,
    ),
    row(
        Elements::In(XSD, &["schema"]),
        Node::Attribute("targetNamespace"),
        Value::Iri,
    ),
    row(
        Elements::In(XSD, &["import"]),
        Node::Attribute("namespace"),
        Value::Iri,
    ),
    row(
        Elements::In(XSD, &["import", "include", "redefine", "override"]),
        Node::Attribute("schemaLocation"),
        Value::Iri,
    ),
    row(
        Elements::In(XSLT, &["import", "include"]),
        Node::Attribute("href"),
        Value::Iri,
    ),
    row(
        Elements::In(OPF, &["item", "reference"]),
        Node::Attribute("href"),
        Value::Iri,
    ),
    row(
        Elements::In(MALLARD, &["link", "license"]),
        Node::Attribute("href"),
        Value::Iri,
    ),
    row(
        Elements::In(MALLARD, &["media"]),
        Node::Attribute("src"),
        Value::Iri,
    ),
    row(
        Elements::In(
            DOCBOOK,
            &["imagedata", "videodata", "audiodata", "textdata"],
        ),
        Node::Attribute("fileref"),
        Value::Iri,
    ),
    // An external relationship's target: where an Office document's hyperlink (or linked
    // picture) leads. An internal one names a part of the package.
    Slot {
        elements: Elements::In(OPC_RELATIONSHIPS, &["Relationship"]),
        node: Node::Attribute("Target"),
        value: Value::Iri,
        condition: Condition::When("TargetMode", "External"),
    },
];

/// An element as resolved: its namespace (`None`: no namespace) and local name.
#[derive(Debug, Clone, Copy)]
struct ElementName<'n> {
    namespace: Option<&'n str>,
    local: &'n str,
    /// In a document whose root is `<rss>`.
    rss: bool,
}

impl Elements {
    fn matches(&self, e: &ElementName<'_>) -> bool {
        match *self {
            Elements::Any => true,
            Elements::In(ns, names) => {
                e.namespace == Some(ns) && (names.is_empty() || names.contains(&e.local))
            }
            Elements::Rss(names) => e.rss && e.namespace.is_none() && names.contains(&e.local),
        }
    }
}

impl Condition {
    /// Whether the row applies, given the value of the element's first unprefixed attribute of
    /// each name.
    fn holds<'v>(&self, attribute: impl Fn(&str) -> Option<&'v str>) -> bool {
        let value = |name: &str| {
            attribute(name)
                .map(|v| v.trim_matches(|c: char| c.is_ascii() && decode::is_space(c as u8)))
        };
        match *self {
            Condition::Always => true,
            Condition::Unless(name, v) => !value(name).is_some_and(|x| x.eq_ignore_ascii_case(v)),
            Condition::When(name, v) => value(name).is_some_and(|x| x.eq_ignore_ascii_case(v)),
        }
    }
}

/// Whether a condition of the table looks at the unprefixed attribute `name` (`rel`, `type`…):
/// only those attributes and the IRI-valued ones need their value decoded.
fn is_condition_attribute(name: &str) -> bool {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            let mut names: Vec<&'static str> = SLOTS
                .iter()
                .filter_map(|slot| match slot.condition {
                    Condition::Always => None,
                    Condition::Unless(n, _) | Condition::When(n, _) => Some(n),
                })
                .collect();
            names.sort_unstable();
            names.dedup();
            names
        })
        .contains(&name)
}

/// Whether a row can read an attribute by this local name (its own, or one of HTML's URL
/// attributes): an attribute by any other name holds no IRI, whatever its element. The names
/// are kept by length, so that most attributes are ruled out without comparing any text.
fn may_hold_iri(local: &str) -> bool {
    static BY_LENGTH: std::sync::OnceLock<Vec<Vec<&'static str>>> = std::sync::OnceLock::new();
    let by_length = BY_LENGTH.get_or_init(|| {
        let mut by_length: Vec<Vec<&'static str>> = Vec::new();
        let names = SLOTS
            .iter()
            .filter_map(|slot| match slot.node {
                Node::QualifiedAttribute { local, .. } => Some(local),
                Node::Attribute(a) => Some(a),
                _ => None,
            })
            .chain(html::URL_ATTRIBUTES.iter().map(|&(_, name, _)| name));
        for name in names {
            if by_length.len() <= name.len() {
                by_length.resize(name.len() + 1, Vec::new());
            }
            if !by_length[name.len()].contains(&name) {
                by_length[name.len()].push(name);
            }
        }
        by_length
    });
    by_length
        .get(local.len())
        .is_some_and(|names| names.contains(&local))
}

/// How attribute (`namespace`, `local`) of `element` holds IRIs, and its origin.
fn attribute_slot(
    element: &ElementName<'_>,
    namespace: Option<&str>,
    local: &str,
) -> Option<(&'static Slot, Value, Cow<'static, str>)> {
    // Most attributes (`d`, `fill`, `style`…) are ruled out at once instead of by a pass over
    // every row.
    if !may_hold_iri(local) {
        return None;
    }
    SLOTS.iter().find_map(|slot| {
        // The attribute's own name first: short strings that rule out most rows before the
        // element's namespace URI is compared.
        let named = match slot.node {
            Node::QualifiedAttribute {
                namespace: ns,
                local: l,
                ..
            } => local == l && namespace == Some(ns),
            Node::Attribute(a) => namespace.is_none() && local == a,
            Node::HtmlAttributes => namespace.is_none() && local != "xmlns",
            _ => false,
        };
        if !named || !slot.elements.matches(element) {
            return None;
        }
        let origin = || Cow::Owned(format!("{}@{local}", element.local));
        match slot.node {
            Node::QualifiedAttribute {
                namespace: ns,
                local: l,
                origin,
            } if namespace == Some(ns) && local == l => {
                Some((slot, slot.value, Cow::Borrowed(origin)))
            }
            Node::Attribute(a) if namespace.is_none() && local == a => {
                Some((slot, slot.value, origin()))
            }
            Node::HtmlAttributes if namespace.is_none() && local != "xmlns" => html::URL_ATTRIBUTES
                .iter()
                .find(|(elements, name, _)| {
                    *name == local && (elements.is_empty() || elements.contains(&element.local))
                })
                .map(|&(_, _, kind)| (slot, Value::Html(Some(kind)), origin())),
            _ => None,
        }
    })
}

/// The row of namespace declarations (found once, at compile time: every `xmlns` asks).
fn namespace_slot() -> &'static Slot {
    const ROW: usize = {
        let mut k = 0;
        while k < SLOTS.len() && !matches!(SLOTS[k].node, Node::NamespaceDeclaration) {
            k += 1;
        }
        k
    };
    &SLOTS[ROW]
}

/// The row that makes `element`'s content an IRI, if any.
fn content_slot(element: &ElementName<'_>) -> Option<&'static Slot> {
    // Every element asks: only the few content rows are looked at.
    static CONTENT: std::sync::OnceLock<Vec<&'static Slot>> = std::sync::OnceLock::new();
    CONTENT
        .get_or_init(|| {
            SLOTS
                .iter()
                .filter(|slot| slot.node == Node::Content)
                .collect()
        })
        .iter()
        .copied()
        .find(|slot| slot.elements.matches(element))
}

/// Hands each range of an IRI in a prepared value to `each`, in order, none empty: a list of
/// millions of IRIs is never held.
fn each_iri_range(value: Value, text: &str, each: &mut dyn FnMut(Range<usize>)) {
    match value {
        Value::Iri if !text.is_empty() => each(0..text.len()),
        Value::Iri => {}
        Value::IriList => decode::each_token(text, each),
        Value::Html(kind) => html::each_url_range(text, kind.unwrap_or(ValueKind::Url), each),
    }
}

/// Rule ids of the problems this extractor reports.
const NOT_WELL_FORMED: &str = "xml-not-well-formed";
const ENTITY_LIMIT: &str = "xml-entity-limit";
const EXTERNAL_ENTITY: &str = "xml-external-entity";

/// A fatal error was reported: parsing ends.
#[derive(Debug)]
struct Stop;

/// A problem with the help its rule gives.
fn problem(
    rule: &'static str,
    range: Range<usize>,
    message: String,
    related: Vec<Related>,
) -> Problem {
    let help = match rule {
        NOT_WELL_FORMED => {
            "XML parsers stop at the first well-formedness error and give the application nothing \
             after it; fix the markup (irilint read on past it as HTML would, so the IRIs after \
             it are checked too)"
        }
        ENTITY_LIMIT => {
            "expansion this large is how \"billion laughs\" documents exhaust parsers, which \
             refuse it; the text it stands for is not checked: write the value out, or nest \
             fewer entities"
        }
        _ => {
            "parsers that fetch external entities can be made to read local files or send \
             requests (XXE); irilint never fetches them, so the text they stand for is not \
             checked: put the value in the document"
        }
    };
    Problem {
        rule,
        range,
        message,
        help: Some(help.to_string()),
        related,
        milder: false,
        fix: None,
    }
}

/// The IRIs of an XML document, and its problems as a document.
pub fn extract(text: &str) -> Extraction {
    let mut occurrences = Vec::new();
    let mut all = walker::run(text, &mut |o| occurrences.push(o));
    // In document order (an element's text is reached at its end tag, after the attributes of
    // the elements inside it).
    occurrences.sort_by_key(|o| o.map.source_range().start);
    all.occurrences = occurrences;
    all
}

/// Hands each IRI of an XML document to `on_occurrence` as the walk reaches it (attribute values
/// at their start tag, element text at its end tag), and returns the rest of the extraction.
pub fn extract_each(text: &str, on_occurrence: &mut dyn FnMut(Occurrence)) -> Extraction {
    walker::run(text, on_occurrence)
}

/// The table of [`SLOTS`] as Markdown, one line per row (what the module documentation shows).
pub fn markdown_table() -> String {
    let code = |s: &str| format!("`{s}`");
    let list = |names: &[&str]| names.iter().map(|n| code(n)).collect::<Vec<_>>().join(" ");
    let mut out =
        String::from("| namespace | elements | IRI in | value | origin |\n|---|---|---|---|---|\n");
    for slot in SLOTS {
        let (namespace, names): (String, &[&str]) = match slot.elements {
            Elements::Any => ("any".into(), &[]),
            Elements::In(ns, names) => (code(ns), names),
            Elements::Rss(names) => ("none, inside `<rss>`".into(), names),
        };
        let elements = if names.is_empty() {
            "any".to_string()
        } else {
            list(names)
        };
        let condition = match slot.condition {
            Condition::Always => String::new(),
            Condition::Unless(a, v) => format!(", unless `{a}=\"{v}\"`"),
            Condition::When(a, v) => format!(", when `{a}=\"{v}\"`"),
        };
        let per_element = |suffix: &str| {
            if names.is_empty() {
                code(&format!("element{suffix}"))
            } else {
                names
                    .iter()
                    .map(|n| code(&format!("{n}{suffix}")))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let (place, origin) = match slot.node {
            Node::NamespaceDeclaration => (
                "`xmlns`, `xmlns:*` attributes".to_string(),
                "`xmlns`, `xmlns:p`".to_string(),
            ),
            Node::QualifiedAttribute {
                namespace, origin, ..
            } if namespace == XML_NAMESPACE => {
                (format!("{} attribute", code(origin)), code(origin))
            }
            Node::QualifiedAttribute {
                namespace, origin, ..
            } => (
                format!(
                    "{} attribute ({}, any prefix)",
                    code(origin),
                    code(namespace)
                ),
                code(origin),
            ),
            Node::Attribute(a) => (
                format!("{} attribute", code(a)),
                per_element(&format!("@{a}")),
            ),
            Node::HtmlAttributes => (
                "every URL attribute HTML defines for the element (`a@href`, `img@src`, \
                 `img@srcset`, `a@ping`, `itemtype`, ...: [`super::html::URL_ATTRIBUTES`])"
                    .to_string(),
                "`element@attribute`".to_string(),
            ),
            Node::Content => ("text content".to_string(), per_element("")),
        };
        let value = match slot.value {
            Value::Iri => "IRI",
            Value::IriList => "white-space-separated IRIs",
            Value::Html(Some(ValueKind::Refresh)) => "as in HTML (the URL after `url=`)",
            Value::Html(_) => "as in HTML",
        };
        out.push_str(&format!(
            "| {namespace} | {elements} | {place}{condition} | {value} | {origin} |\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_documentation_shows_the_table() {
        let source = include_str!("xml.rs");
        for line in markdown_table().lines() {
            assert!(
                source.contains(&format!("//! {line}\n")),
                "the module documentation lacks the row\n{line}\nwhole table:\n{}",
                markdown_table()
            );
        }
    }
}
