//! Namespace scopes: which URI each prefix is bound to at the current element, pushed by the
//! `xmlns` attributes of a start tag and unwound at its end tag.

use std::collections::HashMap;
use std::rc::Rc;

use super::XML_NAMESPACE;

/// Namespace bindings in scope: prefix (`""` for the default namespace) → URIs, innermost last.
/// A URI is shared, so that resolving a name does not copy it.
pub(super) struct Namespaces {
    bound: HashMap<String, Vec<Rc<str>>>,
    log: Vec<String>,
}

impl Namespaces {
    pub(super) fn new() -> Namespaces {
        let mut bound = HashMap::new();
        bound.insert("xml".to_string(), vec![Rc::from(XML_NAMESPACE)]);
        Namespaces {
            bound,
            log: Vec::new(),
        }
    }

    pub(super) fn mark(&self) -> usize {
        self.log.len()
    }

    pub(super) fn bind(&mut self, prefix: &str, uri: &str) {
        self.bound
            .entry(prefix.to_string())
            .or_default()
            .push(Rc::from(uri));
        self.log.push(prefix.to_string());
    }

    pub(super) fn unwind(&mut self, mark: usize) {
        while self.log.len() > mark {
            if let Some(p) = self.log.pop()
                && let Some(stack) = self.bound.get_mut(&p)
            {
                stack.pop();
            }
        }
    }

    /// True when some prefix in scope is bound to `uri` (a literal result element of a
    /// stylesheet sits inside the element that binds the XSLT namespace).
    pub(super) fn binds(&self, uri: &str) -> bool {
        self.bound
            .values()
            .any(|stack| stack.last().is_some_and(|u| &**u == uri))
    }

    /// The namespace of `prefix`; `Some("")` when the default namespace is undeclared.
    pub(super) fn resolve(&self, prefix: &str) -> Option<&Rc<str>> {
        self.bound.get(prefix).and_then(|v| v.last())
    }
}
