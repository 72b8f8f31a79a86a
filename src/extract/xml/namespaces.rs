//! Namespace scopes: which URI each prefix is bound to at the current element, pushed by the
//! `xmlns` attributes of a start tag and unwound at its end tag.

use std::collections::HashMap;
use std::rc::Rc;

use super::{XML_NAMESPACE, XSLT};

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
    /// How many prefixes (`""` too) are bound to XSLT's namespace in scope, their innermost
    /// binding counted: asked for every IRI, it must not look at every prefix (100,000 nested
    /// elements, each binding a prefix of its own, took 147 s).
    xslt: usize,
}

impl Namespaces {
    pub(super) fn new() -> Namespaces {
        Namespaces {
            default: Vec::new(),
            bound: HashMap::new(),
            log: Vec::new(),
            xml: Rc::from(XML_NAMESPACE),
            xslt: 0,
        }
    }

    pub(super) fn mark(&self) -> usize {
        self.log.len()
    }

    pub(super) fn bind(&mut self, prefix: &str, uri: &str) {
        let stack = if prefix.is_empty() {
            &mut self.default
        } else {
            self.bound.entry(prefix.to_string()).or_default()
        };
        let shadowed = stack.last().is_some_and(|u| &**u == XSLT);
        stack.push(Rc::from(uri));
        self.xslt = self.xslt + usize::from(uri == XSLT) - usize::from(shadowed);
        self.log.push(prefix.to_string());
    }

    pub(super) fn unwind(&mut self, mark: usize) {
        while self.log.len() > mark {
            let Some(p) = self.log.pop() else { break };
            let stack = if p.is_empty() {
                Some(&mut self.default)
            } else {
                self.bound.get_mut(&p)
            };
            if let Some(stack) = stack
                && let Some(gone) = stack.pop()
            {
                let shown = stack.last().is_some_and(|u| &**u == XSLT);
                self.xslt = self.xslt + usize::from(shown) - usize::from(&*gone == XSLT);
            }
        }
    }

    /// True when some prefix in scope is bound to XSLT's namespace (a literal result element
    /// of a stylesheet sits inside the element that binds it).
    pub(super) fn binds_xslt(&self) -> bool {
        crate::work::add(crate::work::Work::NamespaceLookups, 1);
        self.xslt > 0
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xslt_is_in_scope_while_a_prefix_shows_it() {
        let mut ns = Namespaces::new();
        assert!(!ns.binds_xslt());
        let outer = ns.mark();
        ns.bind("x", XSLT);
        ns.bind("", XSLT);
        assert!(ns.binds_xslt());
        let inner = ns.mark();
        // Both shadowed: no prefix shows it any more.
        ns.bind("x", "u:other");
        ns.bind("", "u:other");
        assert!(!ns.binds_xslt());
        ns.bind("y", XSLT);
        assert!(ns.binds_xslt());
        ns.unwind(inner);
        assert!(ns.binds_xslt());
        assert_eq!(ns.resolve("x").map(|u| &**u), Some(XSLT));
        ns.unwind(outer);
        assert!(!ns.binds_xslt());
        assert_eq!(ns.resolve("y"), None);
    }
}
