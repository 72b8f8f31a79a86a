//! The document type declaration: the external subset it names (never read) and the internal
//! subset it contains, parsed for entity declarations.
//!
//! General entities (`<!ENTITY name "value">`) get their replacement text as XML 1.0 §4.5
//! builds it: character references in the literal are replaced at once, entity references are
//! kept for later. Parameter entities declared in the internal subset are included where they
//! are referenced between declarations (XML 1.0 §4.4.8), within the same budget as general
//! entities; external ones (`<!ENTITY % p SYSTEM "...">`, and the external subset) are never
//! read — irilint does no I/O for a document — and declarations after a reference to one are
//! not processed (XML 1.0 §5.1), unless the document is `standalone="yes"`.
//!
//! Once parsed, the references between internal general entities form a graph; each entity's
//! nesting depth and expansion cost (the bytes a full expansion scans) are computed over it
//! without expanding anything, so that a use can be refused before any work is done.
//!
//! This file holds what the parse gives the walker: the entities, the external subset and the
//! problems found. The declarations are parsed by [`super::dtd_parser::parse`], and the
//! nesting depth, cost and recursion of each entity are computed in [`super::dtd_graph`].

use std::collections::HashMap;
use std::ops::Range;

use crate::extract::{Problem, Related};

/// What an entity stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    /// An internal entity: its replacement text.
    Internal(String),
    /// An external entity (never read).
    External {
        /// The system identifier.
        system: String,
        /// An unparsed entity (`NDATA`), which may not be referenced at all.
        unparsed: bool,
    },
}

/// A general entity declared in the internal subset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entity {
    /// Its name.
    pub name: String,
    /// The `<!ENTITY ...>` declaration in the document (or, for a declaration that came from a
    /// parameter entity, the reference to that parameter entity).
    pub decl: Range<usize>,
    /// Internal or external.
    pub kind: Kind,
    /// Levels of entities a full expansion goes through (1: its text refers to no entity).
    pub height: u32,
    /// Bytes a full expansion scans, every nested replacement text counted each time.
    pub cost: u64,
    /// It refers to itself, directly or through others (or to such an entity).
    pub recursive: bool,
}

impl Entity {
    /// The related location pointing at the declaration.
    pub(super) fn declared_here(&self, through: Option<&str>) -> Related {
        let label = match through {
            Some(outer) if outer != self.name => format!(
                "entity `{}` is declared here (reached through `&{outer};`)",
                self.name
            ),
            _ => format!("entity `{}` is declared here", self.name),
        };
        Related {
            range: self.decl.clone(),
            label,
        }
    }
}

/// The external subset a DOCTYPE names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ExternalSubset {
    /// Its system identifier.
    pub system: String,
    /// The system literal in the document, quotes included.
    pub range: Range<usize>,
}

/// What the DOCTYPE declares.
#[derive(Debug, Clone, Default)]
pub(super) struct Dtd {
    pub(super) general: Vec<Entity>,
    pub(super) index: HashMap<String, usize>,
    /// The external subset, if the DOCTYPE names one.
    pub external_subset: Option<ExternalSubset>,
    /// XML 1.0 §4.1 WFC: Entity Declared applies: a reference to an undeclared entity is a
    /// well-formedness error (no external subset and no parameter-entity reference, or
    /// `standalone="yes"`). Otherwise the declaration may be in what was not read.
    pub entities_must_be_declared: bool,
    /// Declarations past [`super::MAX_DECLARATIONS`] were not processed.
    pub declarations_dropped: bool,
    /// Problems found in the DOCTYPE, in order; the last is fatal when `fatal` is set.
    pub problems: Vec<Problem>,
    /// The DOCTYPE is not well-formed: the document cannot be read past it.
    pub fatal: bool,
    /// Budget spent on parameter entities.
    pub budget_used: u64,
}

impl Dtd {
    /// No DOCTYPE: every entity reference must be to a predefined entity.
    pub(super) fn none() -> Dtd {
        Dtd {
            entities_must_be_declared: true,
            ..Dtd::default()
        }
    }

    /// The general entity `name`, with its index.
    pub(super) fn entity(&self, name: &str) -> Option<(usize, &Entity)> {
        self.index.get(name).map(|&k| (k, &self.general[k]))
    }

    /// The general entity number `k`.
    pub(super) fn get(&self, k: usize) -> &Entity {
        &self.general[k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::xml::EXTERNAL_ENTITY;
    use crate::extract::xml::dtd_parser::parse;

    fn dtd(doc: &str) -> Dtd {
        let start = doc.find("<!DOCTYPE").unwrap() + "<!DOCTYPE ".len();
        let end = doc.rfind('>').unwrap();
        parse(doc, start..end, false, 1 << 20)
    }

    fn text(d: &Dtd, name: &str) -> String {
        match &d.entity(name).unwrap().1.kind {
            Kind::Internal(t) => t.clone(),
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn replacement_texts() {
        let doc = "<!DOCTYPE a [\n<!ENTITY e \"a&#38;#60;&#x202E;&f;\r\nb\">\n<!ENTITY f 'x'>\n<!ENTITY e 'ignored'>]>";
        let d = dtd(doc);
        assert!(!d.fatal, "{:?}", d.problems);
        assert_eq!(text(&d, "e"), "a&#60;\u{202E}&f;\nb");
        let (_, e) = d.entity("e").unwrap();
        assert_eq!(
            &doc[e.decl.clone()],
            "<!ENTITY e \"a&#38;#60;&#x202E;&f;\r\nb\">"
        );
        assert_eq!((e.height, d.entity("f").unwrap().1.height), (2, 1));
        assert!(d.entities_must_be_declared);
    }

    #[test]
    fn billion_laughs_costs_are_computed_without_expanding() {
        let mut doc = String::from("<!DOCTYPE lolz [<!ENTITY lol \"lol\">");
        let mut prev = "lol".to_string();
        for k in 1..=9 {
            let name = format!("lol{k}");
            doc.push_str(&format!(
                "<!ENTITY {name} \"{}\">",
                format!("&{prev};").repeat(10)
            ));
            prev = name;
        }
        doc.push_str("]>");
        let d = dtd(&doc);
        let (_, e) = d.entity("lol9").unwrap();
        assert_eq!(e.height, 10);
        assert!(e.cost > 3_000_000_000, "{}", e.cost);
    }

    #[test]
    fn recursion_is_found() {
        let d = dtd(
            "<!DOCTYPE a [<!ENTITY a \"&b;\"><!ENTITY b \"x&a;\"><!ENTITY c \"&a;\"><!ENTITY d \"ok\">]>",
        );
        let rec = |n: &str| d.entity(n).unwrap().1.recursive;
        assert!(rec("a") && rec("b") && rec("c") && !rec("d"));
    }

    #[test]
    fn external_things_are_recorded_not_read() {
        let d = dtd(
            "<!DOCTYPE a SYSTEM \"a.dtd\" [<!ENTITY x SYSTEM \"/etc/passwd\"><!ENTITY % p SYSTEM \"p.dtd\"> %p; <!ENTITY late \"no\">]>",
        );
        assert_eq!(d.external_subset.as_ref().unwrap().system, "a.dtd");
        assert!(matches!(
            d.entity("x").unwrap().1.kind,
            Kind::External { .. }
        ));
        assert!(
            d.entity("late").is_none(),
            "declarations after an unread %p; are skipped"
        );
        assert!(!d.entities_must_be_declared);
        assert_eq!(d.problems.len(), 1);
        assert_eq!(d.problems[0].rule, EXTERNAL_ENTITY);
    }

    #[test]
    fn internal_parameter_entities_are_included() {
        let d = dtd(
            "<!DOCTYPE a [<!ENTITY % p \"<!ENTITY x 'from p'>\"> %p; <!ATTLIST a b CDATA '>'>]>",
        );
        assert!(!d.fatal, "{:?}", d.problems);
        assert_eq!(text(&d, "x"), "from p");
    }

    #[test]
    fn malformed_subsets_are_fatal() {
        for doc in [
            "<!DOCTYPE a [<!ENTITY x \"%y;\">]>",
            "<!DOCTYPE a [<!ENTITY x \"a & b\">]>",
            "<!DOCTYPE a [<!ENTITY x \"unclosed>]>",
            "<!DOCTYPE a [<!BOGUS>]>",
            "<!DOCTYPE a [<!ENTITY % p \"%p;\"> %p;]>",
            "<!DOCTYPE a [<!ENTITY % p \"&#37;p;\"> %p;]>",
            "<!DOCTYPE a [<!ENTITY x \"&#1;\">]>",
            "<!DOCTYPE a [",
            "<!DOCTYPE [",
        ] {
            let start = doc.find("<!DOCTYPE").unwrap() + "<!DOCTYPE ".len();
            let end = if doc.ends_with('>') {
                doc.len() - 1
            } else {
                doc.len()
            };
            let d = parse(doc, start.min(end)..end, false, 1 << 20);
            assert!(d.fatal, "{doc}: {:?}", d.problems);
        }
    }
}
