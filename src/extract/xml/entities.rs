//! Entity references, in content and in attribute values: whether a use may be expanded
//! (recursion, nesting depth and the expansion budget, from the precomputed height and cost of
//! the entity), its expansion, and the reports for references to external and undeclared
//! entities, which are left as written.

use std::ops::Range;

use super::decode::{Prepared, Via, char_ref, is_name, predefined, shorten};
use super::dtd::{Dtd, Kind};
use super::walker::{Action, Cx, Frame, Walker, reader};
use super::{ENTITY_LIMIT, EXTERNAL_ENTITY, MAX_DEPTH, MAX_NAMED_REPORTS, Stop, problem};
use crate::extract::Related;

impl<'a> Walker<'a> {
    /// `&body;` at `range` of the current text, in content.
    pub(super) fn reference(
        &mut self,
        cx: Cx<'_, 'a>,
        body: &'a str,
        range: Range<usize>,
    ) -> Result<Action<'a>, Stop> {
        let src = cx.src;
        if self.elements.is_empty() && !(cx.via.is_none() && self.may_be_fragment()) {
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
                    if self.admit(cx.via, k, range.clone(), iri)? {
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

    /// Whether a use of internal entity `k` at `range` of the text `via` may be expanded, into a
    /// value that is `held` (an attribute value, an IRI element's content) or not.
    fn admit(
        &mut self,
        via: Option<&Via>,
        k: usize,
        range: Range<usize>,
        held: bool,
    ) -> Result<bool, Stop> {
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
        } else if held && self.held.saturating_add(e.cost) > self.held_limit {
            format!(
                "the value it is in would hold more than {} bytes of entity text (max(1 MiB, \
                 the file's size))",
                self.held_limit
            )
        } else {
            self.used += e.cost;
            if held {
                self.held += e.cost;
            }
            return Ok(true);
        };
        if self.first_report(format!("limit:{}", e.name), ENTITY_LIMIT, range.clone()) {
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

    /// Whether the report `key` (`"external:name"`...) is made: once per key, and for at most
    /// [`MAX_NAMED_REPORTS`] keys in a document. The first key past them is reported, under
    /// `rule` at `range`, as the end of the reports: an IRI of 400,000 references to entities of
    /// an unread external subset, each named once, made 400,000 warnings (650 MB, 6.8 s).
    fn first_report(&mut self, key: String, rule: &'static str, range: Range<usize>) -> bool {
        if self.reported.len() > MAX_NAMED_REPORTS || self.reported.contains(&key) {
            return false;
        }
        if self.reported.len() == MAX_NAMED_REPORTS {
            self.reported.insert(String::new());
            self.out.problems.push(problem(
                rule,
                range,
                format!(
                    "this entity reference and the ones after it are left as written without a \
                     report of their own: irilint reports at most {MAX_NAMED_REPORTS} entities \
                     of a document by name"
                ),
                Vec::new(),
            ));
            return false;
        }
        self.reported.insert(key)
    }

    /// A reference to external entity `k` at `range` of the text `via`: reported once.
    fn external(&mut self, via: Option<&Via>, k: usize, range: Range<usize>, in_attribute: bool) {
        let e = self.dtd.get(k);
        let at = Self::locate(via, range.clone());
        if !self.first_report(format!("external:{}", e.name), EXTERNAL_ENTITY, at) {
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
        // With declarations dropped, the one report of the drop stands for every such use.
        if !iri
            || self.dtd.declarations_dropped
            || !self.first_report(
                format!("undeclared:{name}"),
                EXTERNAL_ENTITY,
                Self::locate(via, range.clone()),
            )
        {
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

    /// `&name;` at `range` of `src` inside an attribute value.
    pub(super) fn attribute_entity(
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
                    if self.admit(via, k, range.clone(), true)? {
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
