//! Start tags and end tags: a start tag's attributes split and decoded, its namespace
//! declarations bound, its element and attribute names resolved, the IRIs in its attributes
//! collected, and the element's content captured when it holds an IRI; and attribute values
//! decoded as XML 1.0 §3.3.3 prescribes.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;
use std::rc::Rc;

use super::decode::{
    Prepared, Reference, Via, is_name_char, name_is_qname, predefined, reference, split_prefix,
    trim,
};
use super::errors::AMPERSAND;
use super::walker::{Action, Capture, Cx, Open, Spare, Walker};
use super::{
    ElementName, MAX_ELEMENT_DEPTH, Stop, Value, XML_NAMESPACE, XMLNS_NAMESPACE, XSLT,
    attribute_slot, content_slot, each_iri_range, is_condition_attribute, namespace_slot, tags,
};
use crate::extract::{Occurrence, template};

impl<'a> Walker<'a> {
    /// A start tag whose content (between `<` and `>` or `/>`) is `len` bytes at `start` of
    /// the current text.
    pub(super) fn start_tag(
        &mut self,
        cx: Cx<'_, 'a>,
        start: usize,
        len: usize,
        empty: bool,
    ) -> Result<Action<'a>, Stop> {
        let src = cx.src;
        if self.captures.is_empty() {
            // The last tag's values are gone.
            self.held = 0;
        }
        let spare = std::mem::take(&mut self.spare);
        let raw = tags::parse(src, start..start + len, spare.attributes)
            .map_err(|e| self.fatal(cx.via, e.range, e.message))?;
        let qname = &src[raw.name.clone()];
        let tag_range = Self::locate(cx.via, start - 1..raw.name.end);
        // `tags::parse` checked that every name of the tag is a `Name`.
        if !name_is_qname(qname) {
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
            if self.root_closed && !self.may_be_fragment() {
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
        let mut values = spare.values;
        values.clear();
        values.resize(raw.attributes.len(), None);
        // Namespace declarations first: they apply to the element's own names.
        for (k, a) in raw.attributes.iter().enumerate() {
            let name = &src[a.name.clone()];
            let prefix = match name.strip_prefix("xmlns") {
                Some("") => "",
                Some(p) if p.starts_with(':') => &p[1..],
                _ => continue,
            };
            if !name_is_qname(name) {
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
        let (prefix, local) = split_prefix(qname).unwrap_or(("", qname));
        let namespace = match self.ns.resolve(prefix) {
            Some(uri) if uri.is_empty() && prefix.is_empty() => None,
            None if prefix.is_empty() => None,
            Some(uri) => Some(uri.clone()),
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
        let mut slots = spare.slots;
        slots.clear();
        slots.resize(raw.attributes.len(), None);
        let mut expanded = Expanded::default();
        for (k, a) in raw.attributes.iter().enumerate() {
            let name = &src[a.name.clone()];
            if values[k].is_some() {
                slots[k] = Some((namespace_slot(), Value::Iri, Cow::Owned(name.to_string())));
                continue;
            }
            if !name_is_qname(name) {
                return Err(self.fatal(
                    cx.via,
                    a.name.clone(),
                    format!("`{name}` is not a valid attribute name with namespaces"),
                ));
            }
            let (ns, attr_local) =
                match split_prefix(name) {
                    None => (None, name),
                    Some((p, l)) => match self.ns.resolve(p) {
                        Some(uri) if !uri.is_empty() => (Some(uri.clone()), l),
                        _ => {
                            let r = a.name.start..a.name.start + p.len();
                            return Err(self.fatal(cx.via, r, format!(
                                "namespace prefix `{p}` is not declared (Namespaces in XML 1.0 §5)"
                            )));
                        }
                    },
                };
            if let Some(uri) = &ns
                && !expanded.insert(uri, attr_local)
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
            // A value nobody reads (`d`, `style`, `fill`…) is only checked for what could make
            // the document not well-formed: without `<` and `&` there is nothing to check.
            let needed = slots[k].is_some() || (ns.is_none() && is_condition_attribute(name));
            if needed || memchr::memchr2(b'<', b'&', src[a.value.clone()].as_bytes()).is_some() {
                self.attribute_value(src, a.value.clone(), cx.via, slots[k].is_some(), &mut p)?;
            }
            values[k] = Some(p);
        }
        // The value of the first unprefixed attribute `name`, for the table's conditions.
        let plain = |name: &str| {
            raw.attributes
                .iter()
                .zip(&values)
                .find(|(a, _)| {
                    let n = &src[a.name.clone()];
                    n == name && split_prefix(n).is_none()
                })
                .map(|(_, v)| v.as_ref().map_or("", |p| p.text.as_str()))
        };
        // Asked only once an IRI is found: most elements have none.
        let mut literal_result = None;
        let content = content_slot(&element).filter(|s| s.condition.holds(plain));
        // The conditions read other values: all are asked before any value is taken (on the stack
        // for a tag of up to 16 attributes).
        let holds: smallvec::SmallVec<[bool; 16]> = slots
            .iter()
            .map(|s| {
                s.as_ref()
                    .is_some_and(|(slot, _, _)| slot.condition.holds(plain))
            })
            .collect();
        for ((slot, value), holds) in slots.iter().zip(values.iter_mut()).zip(holds) {
            if let (Some((_, kind, origin)), Some(p), true) = (slot, value, holds) {
                let literal_result = *literal_result
                    .get_or_insert_with(|| element.namespace != Some(XSLT) && self.ns.binds_xslt());
                let xslt_avts = literal_result && !origin.starts_with("xmlns");
                // In a stylesheet, a literal result element's attributes are attribute value
                // templates (XSLT 1.0 §7.6.2): `{$x}` is an XPath expression.
                let occurrence = |iri: String, map| {
                    let placeholders = if xslt_avts {
                        template::xslt_avt(&iri)
                    } else {
                        template::placeholders(&iri)
                    };
                    Occurrence {
                        iri: iri.into(),
                        map,
                        origin: origin.clone(),
                        placeholders,
                        label: None,
                        reference_texts: Vec::new(),
                    }
                };
                // Each IRI is handed on as it is found, the one before it once the next is (a
                // value that is one whole IRI becomes it without a copy).
                let sink = &mut *self.sink;
                let mut pending = None;
                each_iri_range(*kind, &p.text, &mut |r| {
                    if let Some(q) = pending.replace(r) {
                        sink(occurrence(p.text[q.clone()].to_string(), p.map.slice(q)));
                    }
                });
                if let Some(r) = pending {
                    let (iri, map) = p.take_slice(r);
                    sink(occurrence(iri, map));
                }
            }
        }
        self.spare = Spare {
            attributes: raw.attributes,
            values,
            slots,
        };
        if self.elements.len() >= MAX_ELEMENT_DEPTH {
            // Each level is kept until its end tag: a file of nothing but `<a>` would hold
            // thirteen times its size.
            return Err(self.fatal(
                cx.via,
                start - 1..raw.name.end,
                format!(
                    "elements nest more than {MAX_ELEMENT_DEPTH} levels deep here: irilint stops \
                     reading, as parsers do (libxml2 stops at 256 levels, 2048 with its huge \
                     option)"
                ),
            ));
        }
        self.elements.push(Open {
            name: qname,
            tag: tag_range,
            mark,
        });
        if content.is_some() {
            self.captures.push(Capture {
                depth: self.elements.len(),
                prepared: Prepared::default(),
                origin: local.to_string(),
            });
        }
        if empty {
            self.end_element(cx)?;
        }
        Ok(Action::Continue)
    }

    pub(super) fn end_element(&mut self, cx: Cx<'_, 'a>) -> Result<(), Stop> {
        let depth = self.elements.len();
        if self.captures.last().is_some_and(|c| c.depth == depth)
            && let Some(c) = self.captures.pop()
        {
            let mut c = c;
            let r = trim(&c.prepared.text, 0..c.prepared.text.len());
            if !r.is_empty() {
                let (iri, map) = c.prepared.take_slice(r);
                (self.sink)(
                    Occurrence {
                        iri: iri.into(),
                        map,
                        origin: c.origin.into(),
                        placeholders: Vec::new(),
                        label: None,
                        reference_texts: Vec::new(),
                    }
                    .with_templates(),
                );
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
    pub(super) fn attribute_value(
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
}

/// The expanded names (namespace, local name) of a tag's prefixed attributes, to find two that
/// are the same attribute. A tag has a few: they are compared one by one, and hashed only past
/// [`Expanded::LINEAR`], so that a hostile tag stays linear.
#[derive(Default)]
struct Expanded<'s> {
    few: Vec<(Rc<str>, &'s str)>,
    many: Option<HashSet<(Rc<str>, &'s str)>>,
}

impl<'s> Expanded<'s> {
    const LINEAR: usize = 16;

    /// Adds (`uri`, `local`); false when it was there already.
    fn insert(&mut self, uri: &Rc<str>, local: &'s str) -> bool {
        if let Some(set) = &mut self.many {
            return set.insert((uri.clone(), local));
        }
        if self.few.iter().any(|(u, l)| *l == local && **u == **uri) {
            return false;
        }
        self.few.push((uri.clone(), local));
        if self.few.len() >= Self::LINEAR {
            self.many = Some(self.few.drain(..).collect());
        }
        true
    }
}
