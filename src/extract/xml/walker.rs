//! The event loop: quick-xml events from the document and from the replacement texts of the
//! entities it references, turned into occurrences and problems.
//!
//! Entity references in content are expanded by reading the replacement text with a reader of
//! its own, pushed on a stack of frames (at most [`MAX_DEPTH`] deep: uses are admitted against
//! the precomputed height and cost of the entity, see [`super::dtd`]). The element stack, the
//! namespace bindings and the IRI being collected from element content are shared by all
//! frames; nothing recurses with the depth of the document.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use quick_xml::Reader;
use quick_xml::errors::{Error, IllFormedError, SyntaxError};
use quick_xml::events::Event;

use super::decode::{
    Prepared, Reference, Via, char_ref, first_illegal_char, is_name, is_name_char, is_qname,
    offset_in, predefined, reference, shorten, trim,
};
use super::dtd::{self, Dtd, Kind};
use super::{
    ENTITY_LIMIT, EXTERNAL_ENTITY, ElementName, MAX_DEPTH, NOT_WELL_FORMED, Slot, Stop, Value,
    XML_NAMESPACE, XMLNS_NAMESPACE, attribute_slot, content_slot, iri_ranges, namespace_slot,
    problem, tags,
};
use crate::extract::{Extraction, Occurrence, Related};

const AMPERSAND: &str =
    "`&` does not start a reference here: write `&amp;` for a literal ampersand";

/// Extracts from a whole document.
pub(super) fn run(text: &str) -> Extraction {
    let limit = (1u64 << 20).max(10 * text.len() as u64);
    let (doctype, standalone) = prolog(text);
    let dtd = match doctype {
        Some(content) => dtd::parse(text, content, standalone, limit),
        None => Dtd::none(),
    };
    let mut walker = Walker {
        text,
        dtd: &dtd,
        limit,
        used: dtd.budget_used,
        out: Extraction::default(),
        elements: Vec::new(),
        ns: Namespaces::new(),
        captures: Vec::new(),
        root_seen: false,
        root_closed: false,
        rss: false,
        doctype_seen: false,
        illegal: first_illegal_char(text),
        reported: HashSet::new(),
    };
    let mut frames = vec![Frame {
        reader: reader(text),
        src: text,
        via: None,
        elements_at_entry: 0,
    }];
    walker.drive(&mut frames);
    let mut out = walker.out;
    out.occurrences.sort_by_key(|o| o.map.source_range().start);
    out.problems.sort_by_key(|p| p.range.start);
    out
}

fn reader(src: &str) -> Reader<&[u8]> {
    let mut r = Reader::from_str(src);
    r.config_mut().check_comments = true;
    r
}

/// The DOCTYPE's content range (name to before `>`) and whether the document is
/// `standalone="yes"`, from the events before the root element.
fn prolog(text: &str) -> (Option<Range<usize>>, bool) {
    let mut r = reader(text);
    let mut standalone = false;
    loop {
        match r.read_event() {
            Ok(Event::Decl(d)) => {
                standalone = matches!(d.standalone(), Some(Ok(v)) if v == "yes");
            }
            Ok(Event::DocType(d)) => {
                let start = offset_in(text, &d);
                return (Some(start..start + d.len()), standalone);
            }
            Ok(Event::Start(_) | Event::Empty(_) | Event::Eof) | Err(_) => {
                return (None, standalone);
            }
            Ok(_) => {}
        }
    }
}

/// A text being read: the document, or an entity's replacement text.
struct Frame<'a> {
    reader: Reader<&'a [u8]>,
    src: &'a str,
    /// `None` for the document.
    via: Option<Via>,
    /// How many elements were open when the entity's text started.
    elements_at_entry: usize,
}

/// What to do after an event.
enum Action<'a> {
    Continue,
    Push(Box<Frame<'a>>),
    Pop,
    Stop,
}

/// An open element.
struct Open {
    /// Its name as written, for messages.
    name: String,
    /// Where its start tag's `<name` is in the document (or the entity use it came from).
    tag: Range<usize>,
    /// The namespace bindings before it.
    mark: usize,
}

/// Element content being collected as an IRI.
struct Capture {
    /// `elements.len()` while inside the element (its own character data only).
    depth: usize,
    prepared: Prepared,
    origin: String,
}

/// Namespace bindings in scope: prefix (`""` for the default namespace) → URIs, innermost last.
struct Namespaces {
    bound: HashMap<String, Vec<String>>,
    log: Vec<String>,
}

impl Namespaces {
    fn new() -> Namespaces {
        let mut bound = HashMap::new();
        bound.insert("xml".to_string(), vec![XML_NAMESPACE.to_string()]);
        Namespaces {
            bound,
            log: Vec::new(),
        }
    }

    fn mark(&self) -> usize {
        self.log.len()
    }

    fn bind(&mut self, prefix: &str, uri: &str) {
        self.bound
            .entry(prefix.to_string())
            .or_default()
            .push(uri.to_string());
        self.log.push(prefix.to_string());
    }

    fn unwind(&mut self, mark: usize) {
        while self.log.len() > mark {
            if let Some(p) = self.log.pop()
                && let Some(stack) = self.bound.get_mut(&p)
            {
                stack.pop();
            }
        }
    }

    /// The namespace of `prefix`; `Some("")` when the default namespace is undeclared.
    fn resolve(&self, prefix: &str) -> Option<&str> {
        self.bound
            .get(prefix)
            .and_then(|v| v.last())
            .map(String::as_str)
    }
}

struct Walker<'a> {
    text: &'a str,
    dtd: &'a Dtd,
    limit: u64,
    used: u64,
    out: Extraction,
    elements: Vec<Open>,
    ns: Namespaces,
    captures: Vec<Capture>,
    root_seen: bool,
    root_closed: bool,
    rss: bool,
    doctype_seen: bool,
    /// The first character XML does not allow, if any.
    illegal: Option<(usize, char)>,
    /// Warnings and limits already reported (`"external:name"`, ...).
    reported: HashSet<String>,
}

/// Where an event is: its text, and how that text maps to the document.
#[derive(Clone, Copy)]
struct Cx<'f, 'a> {
    src: &'a str,
    via: Option<&'f Via>,
    entry: usize,
}

impl<'a> Walker<'a> {
    fn drive(&mut self, frames: &mut Vec<Frame<'a>>) {
        loop {
            let Some(frame) = frames.last_mut() else {
                return;
            };
            let before = frame.reader.buffer_position() as usize;
            let event = frame.reader.read_event();
            let after = frame.reader.buffer_position() as usize;
            let error_at = frame.reader.error_position() as usize;
            let frame = &*frame;
            let cx = Cx {
                src: frame.src,
                via: frame.via.as_ref(),
                entry: frame.elements_at_entry,
            };
            let illegal = match (cx.via, self.illegal, &event) {
                (None, Some((at, c)), Ok(_)) if at < after => Some((at, c)),
                (None, Some((at, c)), Err(_)) if at < error_at => Some((at, c)),
                _ => None,
            };
            let action = match illegal {
                Some((at, c)) => {
                    self.fatal(
                        None,
                        at..at + c.len_utf8(),
                        format!(
                            "U+{:04X} is not allowed anywhere in an XML document (XML 1.0 §2.2)",
                            c as u32
                        ),
                    );
                    Action::Stop
                }
                None => self.handle(event, cx, before, error_at),
            };
            match action {
                Action::Continue => {}
                Action::Push(f) => frames.push(*f),
                Action::Pop => {
                    frames.pop();
                }
                Action::Stop => return,
            }
        }
    }

    fn handle(
        &mut self,
        event: Result<Event<'a>, Error>,
        cx: Cx<'_, 'a>,
        before: usize,
        error_at: usize,
    ) -> Action<'a> {
        let src = cx.src;
        let event = match event {
            Ok(e) => e,
            Err(e) => {
                let at = error_at.min(src.len());
                self.fatal(cx.via, token_at(src, at), describe(&e));
                return Action::Stop;
            }
        };
        let result = match event {
            Event::Eof => return self.end_of_text(cx),
            Event::Decl(d) => {
                if cx.via.is_some() || (before != 0 && src.get(..before) != Some("\u{FEFF}")) {
                    Err(self.fatal(
                        cx.via,
                        token_at(src, before),
                        "an XML declaration is only allowed at the very start of the document",
                    ))
                } else if let Err(e) = d.version() {
                    Err(self.fatal(None, token_at(src, before), describe(&e)))
                } else {
                    Ok(Action::Continue)
                }
            }
            Event::PI(_) | Event::Comment(_) => Ok(Action::Continue),
            Event::DocType(_) => self.doctype(cx, before),
            Event::Start(s) => self.start_tag(cx, offset_in(src, &s), s.len(), false),
            Event::Empty(s) => self.start_tag(cx, offset_in(src, &s), s.len(), true),
            Event::End(_) => self.end_element(cx).map(|()| Action::Continue),
            Event::Text(t) => {
                let start = offset_in(src, &t);
                self.text(cx, start..start + t.len())
            }
            Event::CData(c) => {
                let start = offset_in(src, &c);
                self.cdata(cx, start..start + c.len(), before)
            }
            Event::GeneralRef(r) => {
                let start = offset_in(src, &r);
                let body = &src[start..start + r.len()];
                self.reference(cx, body, start - 1..start + r.len() + 1)
            }
        };
        result.unwrap_or(Action::Stop)
    }

    /// Reports a well-formedness error at `range` of the text `via` (the document if `None`).
    fn fatal(
        &mut self,
        via: Option<&Via>,
        range: Range<usize>,
        message: impl Into<String>,
    ) -> Stop {
        let message = message.into();
        let (range, message, related) = match via {
            None => (range, message, Vec::new()),
            Some(v) => (
                v.use_range.clone(),
                format!("in the replacement text of entity `{}`: {message}", v.name),
                vec![v.related.clone()],
            ),
        };
        self.out
            .problems
            .push(problem(NOT_WELL_FORMED, range, message, related));
        Stop
    }

    /// `range` of the text `via` as a document range.
    fn locate(via: Option<&Via>, range: Range<usize>) -> Range<usize> {
        via.map_or(range, |v| v.use_range.clone())
    }

    fn end_of_text(&mut self, cx: Cx<'_, 'a>) -> Action<'a> {
        if let Some(via) = cx.via {
            if self.elements.len() > cx.entry {
                let name = self
                    .elements
                    .last()
                    .map(|o| o.name.clone())
                    .unwrap_or_default();
                self.fatal(
                    Some(via),
                    0..0,
                    format!(
                        "`<{name}>` is opened and not closed (an entity's text must be \
                         balanced, XML 1.0 §4.3.2)"
                    ),
                );
                return Action::Stop;
            }
            return Action::Pop;
        }
        if let Some(open) = self.elements.last() {
            let (tag, name) = (open.tag.clone(), open.name.clone());
            self.fatal(
                None,
                tag,
                format!("`<{name}>` is not closed: the document ends before `</{name}>`"),
            );
        } else if !self.root_seen {
            let end = self.text.len();
            self.fatal(None, end..end, "the document has no root element");
        }
        Action::Stop
    }

    fn doctype(&mut self, cx: Cx<'_, 'a>, before: usize) -> Result<Action<'a>, Stop> {
        if cx.via.is_some() || self.doctype_seen || self.root_seen {
            return Err(self.fatal(
                cx.via,
                token_at(cx.src, before),
                "a DOCTYPE is only allowed once, before the root element",
            ));
        }
        self.doctype_seen = true;
        self.out.problems.extend(self.dtd.problems.iter().cloned());
        if self.dtd.fatal {
            return Err(Stop);
        }
        Ok(Action::Continue)
    }

    /// The capture collecting the character data at the current depth, if any.
    fn capture(&mut self) -> Option<&mut Prepared> {
        let depth = self.elements.len();
        self.captures
            .last_mut()
            .filter(|c| c.depth == depth)
            .map(|c| &mut c.prepared)
    }

    fn text(&mut self, cx: Cx<'_, 'a>, range: Range<usize>) -> Result<Action<'a>, Stop> {
        if self.elements.is_empty() {
            let t = trim(cx.src, range.clone());
            if !t.is_empty() {
                let r =
                    t.start..t.start + cx.src[t.start..].chars().next().map_or(0, char::len_utf8);
                return Err(self.fatal(cx.via, r, "text is not allowed outside the root element"));
            }
            return Ok(Action::Continue);
        }
        if let Some(p) = self.capture() {
            p.chars(cx.src, range, cx.via);
        }
        Ok(Action::Continue)
    }

    fn cdata(
        &mut self,
        cx: Cx<'_, 'a>,
        range: Range<usize>,
        before: usize,
    ) -> Result<Action<'a>, Stop> {
        if self.elements.is_empty() {
            return Err(self.fatal(
                cx.via,
                before..before + "<![CDATA[".len(),
                "a CDATA section is not allowed outside the root element",
            ));
        }
        if let Some(p) = self.capture() {
            p.chars(cx.src, range, cx.via);
        }
        Ok(Action::Continue)
    }

    /// `&body;` at `range` of the current text, in content.
    fn reference(
        &mut self,
        cx: Cx<'_, 'a>,
        body: &'a str,
        range: Range<usize>,
    ) -> Result<Action<'a>, Stop> {
        let src = cx.src;
        if self.elements.is_empty() {
            return Err(self.fatal(
                cx.via,
                range,
                "a reference is not allowed outside the root element",
            ));
        }
        if body.starts_with('#') {
            let c = char_ref(body).map_err(|m| self.fatal(cx.via, range.clone(), m))?;
            if let Some(p) = self.capture() {
                p.produce(c.encode_utf8(&mut [0; 4]), range, cx.via);
            }
            return Ok(Action::Continue);
        }
        if !is_name(body) {
            return Err(self.fatal(
                cx.via,
                range,
                format!("`&{body};` is not a valid reference: an entity name must follow `&`"),
            ));
        }
        if let Some(s) = predefined(body) {
            if let Some(p) = self.capture() {
                p.produce(s, range, cx.via);
            }
            return Ok(Action::Continue);
        }
        let dtd: &'a Dtd = self.dtd;
        let iri = self.capture().is_some();
        match dtd.entity(body) {
            Some((k, e)) => match &e.kind {
                Kind::Internal(text) => {
                    if self.admit(cx.via, k, range.clone())? {
                        let via = Via {
                            use_range: Self::locate(cx.via, range),
                            related: e.declared_here(cx.via.map(|v| v.outer.as_str())),
                            name: e.name.clone(),
                            outer: cx.via.map_or_else(|| e.name.clone(), |v| v.outer.clone()),
                        };
                        if text.starts_with('\u{FEFF}')
                            && let Some(p) = self.capture()
                        {
                            // quick-xml would drop it as a byte order mark.
                            p.copy(text, 0..3, Some(&via));
                        }
                        return Ok(Action::Push(Box::new(Frame {
                            reader: reader(text),
                            src: text,
                            via: Some(via),
                            elements_at_entry: self.elements.len(),
                        })));
                    }
                }
                Kind::External { .. } => self.external(cx.via, k, range.clone(), false),
            },
            None => self.undeclared(cx.via, body, range.clone(), iri)?,
        }
        if let Some(p) = self.capture() {
            p.copy(src, range, cx.via);
        }
        Ok(Action::Continue)
    }

    /// Whether a use of internal entity `k` at `range` of the text `via` may be expanded.
    fn admit(&mut self, via: Option<&Via>, k: usize, range: Range<usize>) -> Result<bool, Stop> {
        let e = self.dtd.get(k);
        if e.recursive {
            let message = format!(
                "entity `&{};` refers to itself, directly or through other entities \
                 (XML 1.0 §4.1, No Recursion)",
                e.name
            );
            let stop = self.fatal(via, range, message);
            if via.is_none()
                && let Some(p) = self.out.problems.last_mut()
            {
                p.related = vec![e.declared_here(None)];
            }
            return Err(stop);
        }
        if via.is_some() {
            return Ok(true);
        }
        let why = if e.height > MAX_DEPTH {
            format!(
                "its references nest {} levels deep, more than the limit of {MAX_DEPTH}",
                e.height
            )
        } else if self.used.saturating_add(e.cost) > self.limit {
            format!(
                "a full expansion scans {} bytes, more than the {} bytes left of the \
                 document's expansion budget (max(1 MiB, 10 × its size) = {} bytes)",
                if e.cost == u64::MAX {
                    format!("at least {}", u64::MAX)
                } else {
                    e.cost.to_string()
                },
                self.limit - self.used.min(self.limit),
                self.limit
            )
        } else {
            self.used += e.cost;
            return Ok(true);
        };
        if self.reported.insert(format!("limit:{}", e.name)) {
            let message = format!("entity `&{};` is not expanded: {why}", e.name);
            self.out.problems.push(problem(
                ENTITY_LIMIT,
                range,
                message,
                vec![e.declared_here(None)],
            ));
        }
        Ok(false)
    }

    /// A reference to external entity `k` at `range` of the text `via`: reported once.
    fn external(&mut self, via: Option<&Via>, k: usize, range: Range<usize>, in_attribute: bool) {
        let e = self.dtd.get(k);
        if !self.reported.insert(format!("external:{}", e.name)) {
            return;
        }
        let Kind::External { system, unparsed } = &e.kind else {
            return;
        };
        let mut message = format!(
            "entity `&{};` is external (\"{}\"): irilint never reads it, so it is left unexpanded",
            e.name,
            shorten(system)
        );
        if *unparsed {
            message
                .push_str(" (it is an unparsed NDATA entity, which may not be referenced at all)");
        } else if in_attribute {
            message
                .push_str(" (XML 1.0 §3.1 does not allow external entities in attribute values)");
        }
        let mut related = vec![e.declared_here(None)];
        if let Some(v) = via {
            related.insert(0, v.related.clone());
        }
        self.out.problems.push(problem(
            EXTERNAL_ENTITY,
            Self::locate(via, range),
            message,
            related,
        ));
    }

    /// A reference to entity `name`, declared nowhere the document says, at `range` of `via`.
    fn undeclared(
        &mut self,
        via: Option<&Via>,
        name: &str,
        range: Range<usize>,
        iri: bool,
    ) -> Result<(), Stop> {
        if self.dtd.entities_must_be_declared {
            return Err(self.fatal(
                via,
                range,
                format!(
                    "entity `&{name};` is not declared (XML 1.0 §4.1, Entity Declared): declare \
                     it in the DOCTYPE, or write the character or a character reference"
                ),
            ));
        }
        if !iri || !self.reported.insert(format!("undeclared:{name}")) {
            return Ok(());
        }
        let (message, related) = match &self.dtd.external_subset {
            Some(ext) => (
                format!(
                    "entity `&{name};` is not declared in the document; it may be declared in the \
                     external DTD subset \"{}\", which irilint never reads, so it is left \
                     unexpanded in this IRI",
                    shorten(&ext.system)
                ),
                vec![Related {
                    range: ext.range.clone(),
                    label: "the external DTD subset is named here".to_string(),
                }],
            ),
            None => (
                format!(
                    "entity `&{name};` is not declared; it may be declared in a parameter \
                     entity irilint did not read, so it is left unexpanded in this IRI"
                ),
                Vec::new(),
            ),
        };
        self.out.problems.push(problem(
            EXTERNAL_ENTITY,
            Self::locate(via, range),
            message,
            related,
        ));
        Ok(())
    }

    /// A start tag whose content (between `<` and `>` or `/>`) is `len` bytes at `start` of
    /// the current text.
    fn start_tag(
        &mut self,
        cx: Cx<'_, 'a>,
        start: usize,
        len: usize,
        empty: bool,
    ) -> Result<Action<'a>, Stop> {
        let src = cx.src;
        let raw = tags::parse(src, start..start + len)
            .map_err(|e| self.fatal(cx.via, e.range, e.message))?;
        let qname = &src[raw.name.clone()];
        let tag_range = Self::locate(cx.via, start - 1..raw.name.end);
        if !is_qname(qname) {
            return Err(self.fatal(
                cx.via,
                raw.name,
                format!(
                    "`{qname}` is not a valid element name with namespaces (one `:` at most, \
                     between two names)"
                ),
            ));
        }
        if self.elements.is_empty() && cx.via.is_none() {
            if self.root_closed {
                return Err(self.fatal(
                    None,
                    start - 1..raw.name.end,
                    format!(
                        "a second root element `<{qname}>`: an XML document has exactly one \
                         root element"
                    ),
                ));
            }
            self.root_seen = true;
        }
        let mark = self.ns.mark();
        let mut values: Vec<Option<Prepared>> = vec![None; raw.attributes.len()];
        // Namespace declarations first: they apply to the element's own names.
        for (k, a) in raw.attributes.iter().enumerate() {
            let name = &src[a.name.clone()];
            let prefix = match name.strip_prefix("xmlns") {
                Some("") => "",
                Some(p) if p.starts_with(':') => &p[1..],
                _ => continue,
            };
            if !is_qname(name) {
                return Err(self.fatal(
                    cx.via,
                    a.name.clone(),
                    format!("`{name}` is not a valid attribute name with namespaces"),
                ));
            }
            let mut p = Prepared::default();
            self.attribute_value(src, a.value.clone(), cx.via, true, &mut p)?;
            let uri = p.text.as_str();
            let wrong = if prefix == "xmlns" {
                Some("the prefix `xmlns` cannot be declared".to_string())
            } else if prefix == "xml" && uri != XML_NAMESPACE {
                Some(format!(
                    "the prefix `xml` can only be bound to {XML_NAMESPACE}"
                ))
            } else if prefix != "xml" && uri == XML_NAMESPACE {
                Some(format!(
                    "only the prefix `xml` can be bound to {XML_NAMESPACE}"
                ))
            } else if uri == XMLNS_NAMESPACE {
                Some(format!("no prefix can be bound to {XMLNS_NAMESPACE}"))
            } else if !prefix.is_empty() && uri.is_empty() {
                Some(format!(
                    "`xmlns:{prefix}=\"\"` cannot undeclare a prefix (Namespaces in XML 1.0 §3)"
                ))
            } else {
                None
            };
            if let Some(w) = wrong {
                return Err(self.fatal(cx.via, a.name.clone(), w));
            }
            self.ns.bind(prefix, uri);
            values[k] = Some(p);
        }
        let (prefix, local) = qname.split_once(':').unwrap_or(("", qname));
        let namespace = match self.ns.resolve(prefix) {
            Some("") | None if prefix.is_empty() => None,
            Some(uri) => Some(uri.to_string()),
            None => {
                self.ns.unwind(mark);
                return Err(self.fatal(
                    cx.via,
                    raw.name.start..raw.name.start + prefix.len(),
                    format!(
                        "namespace prefix `{prefix}` is not declared (Namespaces in XML 1.0 §5)"
                    ),
                ));
            }
        };
        if self.elements.is_empty() && cx.via.is_none() && local == "rss" && namespace.is_none() {
            self.rss = true;
        }
        let element = ElementName {
            namespace: namespace.as_deref(),
            local,
            rss: self.rss,
        };
        // The other attributes: names resolved, values decoded, IRI places found.
        let mut slots: Vec<Option<(&'static Slot, Value, Cow<'static, str>)>> =
            vec![None; raw.attributes.len()];
        let mut expanded: HashSet<(String, &str)> = HashSet::new();
        for (k, a) in raw.attributes.iter().enumerate() {
            let name = &src[a.name.clone()];
            if values[k].is_some() {
                slots[k] = Some((namespace_slot(), Value::Iri, Cow::Owned(name.to_string())));
                continue;
            }
            if !is_qname(name) {
                return Err(self.fatal(
                    cx.via,
                    a.name.clone(),
                    format!("`{name}` is not a valid attribute name with namespaces"),
                ));
            }
            let (ns, attr_local) =
                match name.split_once(':') {
                    None => (None, name),
                    Some((p, l)) => match self.ns.resolve(p) {
                        Some(uri) if !uri.is_empty() => (Some(uri.to_string()), l),
                        _ => {
                            let r = a.name.start..a.name.start + p.len();
                            return Err(self.fatal(cx.via, r, format!(
                                "namespace prefix `{p}` is not declared (Namespaces in XML 1.0 §5)"
                            )));
                        }
                    },
                };
            if let Some(uri) = &ns
                && !expanded.insert((uri.clone(), attr_local))
            {
                return Err(self.fatal(
                    cx.via,
                    a.name.clone(),
                    format!(
                        "attribute `{name}` repeats another attribute of the tag: their \
                         prefixes name the same namespace {uri}"
                    ),
                ));
            }
            slots[k] = attribute_slot(&element, ns.as_deref(), attr_local);
            let mut p = Prepared::default();
            self.attribute_value(src, a.value.clone(), cx.via, slots[k].is_some(), &mut p)?;
            values[k] = Some(p);
        }
        let plain: Vec<(&str, &str)> = raw
            .attributes
            .iter()
            .zip(&values)
            .filter(|(a, _)| !src[a.name.clone()].contains(':'))
            .map(|(a, v)| {
                (
                    &src[a.name.clone()],
                    v.as_ref().map_or("", |p| p.text.as_str()),
                )
            })
            .collect();
        let mut found = Vec::new();
        for (slot, value) in slots.iter().zip(&values) {
            if let (Some((slot, kind, origin)), Some(p)) = (slot, value)
                && slot.condition.holds(&plain)
            {
                for r in iri_ranges(*kind, &p.text) {
                    let (iri, map) = p.slice(r);
                    found.push(Occurrence {
                        iri,
                        map,
                        origin: origin.clone(),
                    });
                }
            }
        }
        let content = content_slot(&element).filter(|s| s.condition.holds(&plain));
        let origin = local.to_string();
        drop(plain);
        self.out.occurrences.extend(found);
        self.elements.push(Open {
            name: qname.to_string(),
            tag: tag_range,
            mark,
        });
        if content.is_some() {
            self.captures.push(Capture {
                depth: self.elements.len(),
                prepared: Prepared::default(),
                origin,
            });
        }
        if empty {
            self.end_element(cx)?;
        }
        Ok(Action::Continue)
    }

    fn end_element(&mut self, cx: Cx<'_, 'a>) -> Result<(), Stop> {
        let depth = self.elements.len();
        if self.captures.last().is_some_and(|c| c.depth == depth)
            && let Some(c) = self.captures.pop()
        {
            let r = trim(&c.prepared.text, 0..c.prepared.text.len());
            if !r.is_empty() {
                let (iri, map) = c.prepared.slice(r);
                self.out.occurrences.push(Occurrence {
                    iri,
                    map,
                    origin: c.origin.into(),
                });
            }
        }
        if let Some(open) = self.elements.pop() {
            self.ns.unwind(open.mark);
        }
        if self.elements.is_empty() && cx.via.is_none() {
            self.root_closed = true;
        }
        Ok(())
    }

    /// Decodes the attribute value `src[range]` (of the text `via`) into `out`: XML 1.0 §3.3.3
    /// attribute-value normalization, references resolved, entities expanded recursively.
    fn attribute_value(
        &mut self,
        src: &'a str,
        range: Range<usize>,
        via: Option<&Via>,
        iri: bool,
        out: &mut Prepared,
    ) -> Result<(), Stop> {
        let b = src.as_bytes();
        let (mut run, mut i) = (range.start, range.start);
        while i < range.end {
            match b[i] {
                b'<' => {
                    return Err(self.fatal(
                        via,
                        i..i + 1,
                        "`<` is not allowed in an attribute value: write `&lt;`",
                    ));
                }
                b'\t' | b'\n' | b'\r' => {
                    out.copy(src, run..i, via);
                    let pair =
                        via.is_none() && b[i] == b'\r' && i + 1 < range.end && b[i + 1] == b'\n';
                    let end = i + 1 + usize::from(pair);
                    out.produce(" ", i..end, via);
                    i = end;
                    run = i;
                }
                b'&' => {
                    out.copy(src, run..i, via);
                    let (r, end) = match reference(src, i) {
                        Ok((r, end)) if end <= range.end => (r, end),
                        Ok(_) | Err(_) => {
                            let message =
                                reference(src, i).err().unwrap_or_else(|| AMPERSAND.into());
                            let r = i..src[i + 1..range.end]
                                .char_indices()
                                .find(|&(_, c)| !is_name_char(c) && c != '#')
                                .map_or(range.end, |(k, c)| {
                                    i + 1 + k + if c == ';' { 1 } else { 0 }
                                });
                            return Err(self.fatal(via, r, message));
                        }
                    };
                    match r {
                        Reference::Char(c) => out.produce(c.encode_utf8(&mut [0; 4]), i..end, via),
                        Reference::Entity(name) => match predefined(name) {
                            Some(s) => out.produce(s, i..end, via),
                            None => self.attribute_entity(src, name, i..end, via, iri, out)?,
                        },
                    }
                    i = end;
                    run = i;
                }
                _ => i += 1,
            }
        }
        out.copy(src, run..range.end, via);
        Ok(())
    }

    /// `&name;` at `range` of `src` inside an attribute value.
    fn attribute_entity(
        &mut self,
        src: &'a str,
        name: &str,
        range: Range<usize>,
        via: Option<&Via>,
        iri: bool,
        out: &mut Prepared,
    ) -> Result<(), Stop> {
        let dtd: &'a Dtd = self.dtd;
        match dtd.entity(name) {
            Some((k, e)) => match &e.kind {
                Kind::Internal(text) => {
                    if self.admit(via, k, range.clone())? {
                        let inner = Via {
                            use_range: Self::locate(via, range),
                            related: e.declared_here(via.map(|v| v.outer.as_str())),
                            name: e.name.clone(),
                            outer: via.map_or_else(|| e.name.clone(), |v| v.outer.clone()),
                        };
                        return self.attribute_value(text, 0..text.len(), Some(&inner), iri, out);
                    }
                }
                Kind::External { .. } => self.external(via, k, range.clone(), true),
            },
            None => self.undeclared(via, name, range.clone(), iri)?,
        }
        out.copy(src, range, via);
        Ok(())
    }
}

/// The token at `src[at..]` an error is about: `<!--`, `<![CDATA[`, `<name`, `</name>`,
/// `&name`, or one character.
fn token_at(src: &str, at: usize) -> Range<usize> {
    let mut at = at.min(src.len());
    while !src.is_char_boundary(at) {
        at -= 1;
    }
    let rest = &src[at..];
    let name_len = |from: usize| {
        rest[from..]
            .char_indices()
            .find(|&(_, c)| !is_name_char(c))
            .map_or(rest.len() - from, |(k, _)| k)
    };
    let len = if rest.starts_with("<!--") {
        4
    } else if rest.starts_with("--") {
        2
    } else if rest.starts_with("<![CDATA[") || rest.starts_with("<!DOCTYPE") {
        9
    } else if rest.starts_with("</") {
        let n = 2 + name_len(2);
        if rest[n..].starts_with('>') { n + 1 } else { n }
    } else if rest.starts_with("<?") || rest.starts_with("<!") {
        2 + name_len(2)
    } else if rest.starts_with('<') || rest.starts_with('&') {
        1 + name_len(1)
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    };
    let mut end = at + len.min(200);
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    at..end
}

/// A quick-xml error in words.
fn describe(e: &Error) -> String {
    const EOF: &str = "before the end of the document";
    match e {
        Error::Syntax(s) => match s {
            SyntaxError::UnclosedTag => format!("the tag is not closed: `>` is missing {EOF}"),
            SyntaxError::UnclosedComment => {
                format!("the comment is not closed: `-->` is missing {EOF}")
            }
            SyntaxError::UnclosedCData => {
                format!("the CDATA section is not closed: `]]>` is missing {EOF}")
            }
            SyntaxError::UnclosedDoctype => {
                format!("the DOCTYPE is not closed: `>` is missing {EOF}")
            }
            SyntaxError::UnclosedPI => {
                format!("the processing instruction is not closed: `?>` is missing {EOF}")
            }
            SyntaxError::UnclosedXmlDecl => {
                format!("the XML declaration is not closed: `?>` is missing {EOF}")
            }
            SyntaxError::InvalidBangMarkup => {
                "`<!` must start a comment `<!--`, a CDATA section `<![CDATA[` or a DOCTYPE"
                    .to_string()
            }
            SyntaxError::UnclosedSingleQuotedAttributeValue => {
                format!("an attribute value in the tag is not closed: `'` is missing {EOF}")
            }
            SyntaxError::UnclosedDoubleQuotedAttributeValue => {
                format!("an attribute value in the tag is not closed: `\"` is missing {EOF}")
            }
        },
        Error::IllFormed(i) => match i {
            IllFormedError::MismatchedEndTag { expected, found } => {
                format!("end tag `</{found}>` does not match the open element `<{expected}>`")
            }
            IllFormedError::UnmatchedEndTag(name) => {
                format!("end tag `</{name}>` has no matching start tag")
            }
            IllFormedError::MissingEndTag(name) => format!("`<{name}>` is not closed {EOF}"),
            IllFormedError::MissingDoctypeName => "the DOCTYPE has no name".to_string(),
            IllFormedError::UnclosedReference => AMPERSAND.to_string(),
            IllFormedError::DoubleHyphenInComment => {
                "`--` is not allowed inside a comment".to_string()
            }
            IllFormedError::MissingDeclVersion(_) => {
                "the XML declaration must start with `version=\"1.0\"`".to_string()
            }
            IllFormedError::UnknownVersion => {
                "unknown XML version: 1.0 or 1.1 expected".to_string()
            }
        },
        other => other.to_string(),
    }
}
