//! Namespace scopes: which URI each prefix is bound to at the current element, pushed by the
//! `xmlns` attributes of a start tag and unwound at its end tag.

use std::collections::HashMap;
use std::rc::Rc;

use super::XML_NAMESPACE;

/// Namespace bindings in scope: prefix → URIs, innermost last. A URI is shared, so that
/// resolving a name does not copy it.
pub(super) struct Namespaces {
    /// The default namespace's (prefix `""`): every element without a prefix asks for it, and
    /// finds it without hashing.
    default: Vec<Rc<str>>,
    /// The prefixed ones the document declares: empty, and so not allocated, in a document
    /// that declares none.
    bound: HashMap<String, Vec<Rc<str>>>,
    /// The prefixes bound, in order (`""` for the default namespace), for unwinding.
    log: Vec<String>,
    /// What `xml` is bound to in every document (a document may only bind it to this).
    xml: Rc<str>,
}

impl Namespaces {
    pub(super) fn new() -> Namespaces {
        Namespaces {
            default: Vec::new(),
            bound: HashMap::new(),
            log: Vec::new(),
            xml: Rc::from(XML_NAMESPACE),
        }
    }

    pub(super) fn mark(&self) -> usize {
        self.log.len()
    }

    pub(super) fn bind(&mut self, prefix: &str, uri: &str) {
        if prefix.is_empty() {
            self.default.push(Rc::from(uri));
        } else {
            self.bound
                .entry(prefix.to_string())
                .or_default()
                .push(Rc::from(uri));
        }
        self.log.push(prefix.to_string());
    }

    pub(super) fn unwind(&mut self, mark: usize) {
        while self.log.len() > mark {
            match self.log.pop() {
                Some(p) if p.is_empty() => {
                    self.default.pop();
                }
                Some(p) => {
                    if let Some(stack) = self.bound.get_mut(&p) {
                        stack.pop();
                    }
                }
                None => {}
            }
        }
    }

    /// True when some prefix in scope is bound to `uri` (a literal result element of a
    /// stylesheet sits inside the element that binds the XSLT namespace).
    pub(super) fn binds(&self, uri: &str) -> bool {
        uri == XML_NAMESPACE
            || std::iter::once(&self.default)
                .chain(self.bound.values())
                .any(|stack| stack.last().is_some_and(|u| &**u == uri))
    }

    /// The namespace of `prefix`; `Some("")` when the default namespace is undeclared.
    pub(super) fn resolve(&self, prefix: &str) -> Option<&Rc<str>> {
        if prefix.is_empty() {
            return self.default.last();
        }
        match self.bound.get(prefix).and_then(|v| v.last()) {
            None if prefix == "xml" => Some(&self.xml),
            found => found,
        }
    }
}
