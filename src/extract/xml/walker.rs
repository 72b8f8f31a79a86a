//! The event loop: quick-xml events from the document and from the replacement texts of the
//! entities it references, turned into occurrences and problems.
//!
//! Entity references in content are expanded by reading the replacement text with a reader of
//! its own, pushed on a stack of frames (at most [`MAX_DEPTH`](super::MAX_DEPTH) deep: uses are
//! admitted against the precomputed height and cost of the entity, see [`super::dtd`]). The
//! element stack, the namespace bindings and the IRI being collected from element content are
//! shared by all frames; nothing recurses with the depth of the document.
//!
//! This file holds the walker's state and the loop that dispatches events; the handlers of the
//! larger events are in sibling files: start and end tags and attribute values in
//! [`super::elements`], entity references in [`super::entities`], namespace scopes in
//! [`super::namespaces`], and the wording of well-formedness errors in [`super::errors`].

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;

use quick_xml::Reader;
use quick_xml::errors::Error;
use quick_xml::events::Event;

use super::decode::{Prepared, Via, first_illegal_char, offset_in, trim};
use super::dtd::Dtd;
use super::dtd_parser;
use super::errors::{describe, token_at};
use super::namespaces::Namespaces;
use super::tags::RawAttribute;
use super::{NOT_WELL_FORMED, Slot, Stop, Value, problem};
use crate::extract::html;
use crate::extract::markdown::front_matter::{self, FrontMatter};
use crate::extract::{Comment, Extraction, Occurrence, template};

/// Extracts from a whole document, each IRI handed to `on_occurrence` as the walk reaches it:
/// an element's attribute values at its start tag, its text content at its end tag. Returns the
/// rest (no occurrences), problems in source order.
pub(super) fn run(original: &str, on_occurrence: &mut dyn FnMut(Occurrence)) -> Extraction {
    // What a template engine reads before the XML: front matter and leading actions, and the
    // actions whose strings hold markup, are blanked (offsets kept); front matter values that
    // are IRIs are checked as in Markdown.
    let (prologue, front) = prologue(original);
    let mut blanked_ranges = template::markup_actions(original);
    // A template saved as `.svg` or `.xml`: its actions between a tag's attributes too.
    if template::is_template_source(original) {
        blanked_ranges.extend(template::tag_actions(original));
        blanked_ranges = template::disjoint(blanked_ranges);
    }
    if prologue > 0 {
        blanked_ranges.retain(|r| r.start >= prologue);
        blanked_ranges.insert(0, 0..prologue);
    }
    let blanked = template::blank(original, &blanked_ranges);
    let text: &str = &blanked;
    let limit = (1u64 << 20).max(10 * text.len() as u64);
    let (doctype, standalone) = prolog(text);
    let dtd = match doctype {
        Some(content) => dtd_parser::parse(text, content, standalone, limit),
        None => Dtd::none(),
    };
    if let Some(front) = &front {
        // At the start of the document: first in order too.
        front_matter::occurrences(original, front, &mut *on_occurrence);
    }
    let mut walker = Walker {
        text,
        sink: on_occurrence,
        dtd: &dtd,
        limit,
        used: dtd.budget_used,
        held_limit: (1u64 << 20).max(text.len() as u64),
        held: 0,
        out: Extraction::default(),
        elements: Vec::new(),
        ns: Namespaces::new(),
        captures: Vec::new(),
        root_seen: false,
        root_closed: false,
        rss: false,
        doctype_seen: false,
        declaration_seen: false,
        prologue,
        illegal: first_illegal_char(text),
        reported: HashSet::new(),
        spare: Spare::default(),
    };
    let mut frames = vec![Frame {
        reader: reader(text),
        src: text,
        via: None,
        elements_at_entry: 0,
    }];
    walker.drive(&mut frames);
    let mut out = walker.out;
    // A linter is not a parser that gives up: past the first well-formedness error (reported
    // once), the rest is read from the next tag on as HTML reads markup, so that one slip does
    // not hide every IRI after it.
    let stopped = out
        .problems
        .iter()
        .filter(|p| p.rule == NOT_WELL_FORMED)
        .map(|p| p.range.end)
        .min();
    if let Some(at) = stopped
        && let Some(next) = memchr::memchr(b'<', &text.as_bytes()[at.min(text.len())..])
    {
        let from = at + next;
        out.comments.extend(html::for_each_occurrence(
            text,
            from..text.len(),
            &mut *on_occurrence,
        ));
    }
    out.problems.sort_by_key(|p| p.range.start);
    out
}

/// Where the XML of a template source starts: after front matter (`---` … `---` or `+++` …
/// `+++` at the very start, as Jekyll and Hugo read it; an empty `---` `---` block too) and the
/// template actions before the first tag (`{{ printf "<?xml …?>" | safeHTML }}`, `{%- … -%}`).
/// 0 and `None` for a plain XML document.
fn prologue(text: &str) -> (usize, Option<FrontMatter>) {
    let b = text.as_bytes();
    let bom = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let front = front_matter::find(text);
    let mut at = match &front {
        Some(f) => f.block.end,
        None => ["---\n---\n", "---\r\n---\r\n"]
            .iter()
            .find(|e| text[bom..].starts_with(*e))
            .map_or(0, |e| bom + e.len()),
    };
    loop {
        let ws = b[at..]
            .iter()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
        let from = at + ws;
        match template::leading_action_end(text, from) {
            Some(end) => at = end,
            None => break,
        }
    }
    (at, front)
}

pub(super) fn reader(src: &str) -> Reader<&[u8]> {
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
pub(super) struct Frame<'a> {
    pub(super) reader: Reader<&'a [u8]>,
    pub(super) src: &'a str,
    /// `None` for the document.
    pub(super) via: Option<Via>,
    /// How many elements were open when the entity's text started.
    pub(super) elements_at_entry: usize,
}

/// What to do after an event.
pub(super) enum Action<'a> {
    Continue,
    Push(Box<Frame<'a>>),
    Pop,
    Stop,
}

/// An open element.
pub(super) struct Open<'a> {
    /// Its name as written, for messages (borrowed: most elements never need it).
    pub(super) name: &'a str,
    /// Where its start tag's `<name` is in the document (or the entity use it came from).
    pub(super) tag: Range<usize>,
    /// The namespace bindings before it.
    pub(super) mark: usize,
}

/// Element content being collected as an IRI.
pub(super) struct Capture {
    /// `elements.len()` while inside the element (its own character data only).
    pub(super) depth: usize,
    pub(super) prepared: Prepared,
    pub(super) origin: String,
}

pub(super) struct Walker<'a> {
    text: &'a str,
    pub(super) dtd: &'a Dtd,
    pub(super) limit: u64,
    pub(super) used: u64,
    /// The most bytes of entity text the values held at once (a start tag's attribute values,
    /// an element's captured content) may take: max(1 MiB, the file's size). The expansion
    /// budget alone (10 × the file) would let one IRI outgrow the memory bound.
    pub(super) held_limit: u64,
    /// Bytes of entity text in the values held now (an upper estimate: each use's full cost).
    pub(super) held: u64,
    pub(super) out: Extraction,
    /// Where each IRI goes as it is found.
    pub(super) sink: &'a mut dyn FnMut(Occurrence),
    pub(super) elements: Vec<Open<'a>>,
    pub(super) ns: Namespaces,
    pub(super) captures: Vec<Capture>,
    pub(super) root_seen: bool,
    pub(super) root_closed: bool,
    pub(super) rss: bool,
    doctype_seen: bool,
    /// Whether the document starts with an XML declaration.
    declaration_seen: bool,
    /// Where the XML starts after what a template engine reads first ([`prologue`]), 0 if
    /// nothing comes before it.
    prologue: usize,
    /// The first character XML does not allow, if any.
    illegal: Option<(usize, char)>,
    /// Warnings and limits already reported (`"external:name"`, ...).
    pub(super) reported: HashSet<String>,
    /// Buffers a start tag reuses.
    pub(super) spare: Spare,
}

/// A start tag's buffers, kept from one tag to the next so that a tag costs no allocation.
#[derive(Default)]
pub(super) struct Spare {
    pub(super) attributes: Vec<RawAttribute>,
    pub(super) values: Vec<Option<Prepared>>,
    pub(super) slots: Vec<Option<AttributeSlot>>,
}

/// How an attribute holds IRIs, and its origin ([`super::attribute_slot`]).
pub(super) type AttributeSlot = (&'static Slot, Value, Cow<'static, str>);

/// Where an event is: its text, and how that text maps to the document.
#[derive(Clone, Copy)]
pub(super) struct Cx<'f, 'a> {
    pub(super) src: &'a str,
    pub(super) via: Option<&'f Via>,
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
                let at_start = before == 0
                    || src.get(..before) == Some("\u{FEFF}")
                    || (self.prologue > 0
                        && before >= self.prologue
                        && src[..before]
                            .trim_start_matches('\u{FEFF}')
                            .trim()
                            .is_empty());
                if cx.via.is_some() || !at_start {
                    Err(self.fatal(
                        cx.via,
                        token_at(src, before),
                        "an XML declaration is only allowed at the very start of the document",
                    ))
                } else if let Err(e) = d.version() {
                    Err(self.fatal(None, token_at(src, before), describe(&e)))
                } else {
                    self.declaration_seen = true;
                    Ok(Action::Continue)
                }
            }
            Event::PI(_) => Ok(Action::Continue),
            Event::Comment(c) => {
                if cx.via.is_none() {
                    let start = offset_in(src, &c);
                    let body = start..start + c.len();
                    let whole = start.saturating_sub(4)..(body.end + 3).min(src.len());
                    self.out
                        .comments
                        .extend(Comment::directive(src, whole, body));
                }
                Ok(Action::Continue)
            }
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
    pub(super) fn fatal(
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
    pub(super) fn locate(via: Option<&Via>, range: Range<usize>) -> Range<usize> {
        via.map_or(range, |v| v.use_range.clone())
    }

    fn end_of_text(&mut self, cx: Cx<'_, 'a>) -> Action<'a> {
        if let Some(via) = cx.via {
            if self.elements.len() > cx.entry {
                let name = self.elements.last().map_or("", |o| o.name);
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
            let (tag, name) = (open.tag.clone(), open.name);
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

    /// Whether the file may be a fragment meant for inclusion rather than a document: an
    /// external parsed entity (XML 1.0 §4.3.2), such as a DocBook `docinfo.xml` that
    /// Asciidoctor pastes into the `<info>` of the document it builds. Such a file has neither an
    /// XML declaration nor a DOCTYPE, and may hold several top-level elements and text between
    /// them; a file with either is a document and holds one root element.
    pub(super) fn may_be_fragment(&self) -> bool {
        !self.declaration_seen && !self.doctype_seen
    }

    /// The capture collecting the character data at the current depth, if any.
    pub(super) fn capture(&mut self) -> Option<&mut Prepared> {
        let depth = self.elements.len();
        self.captures
            .last_mut()
            .filter(|c| c.depth == depth)
            .map(|c| &mut c.prepared)
    }

    fn text(&mut self, cx: Cx<'_, 'a>, range: Range<usize>) -> Result<Action<'a>, Stop> {
        if self.elements.is_empty() {
            let t = trim(cx.src, range.clone());
            let fragment_text = cx.via.is_none() && self.may_be_fragment();
            if !t.is_empty() && !fragment_text {
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
        if self.elements.is_empty() && !(cx.via.is_none() && self.may_be_fragment()) {
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
}
