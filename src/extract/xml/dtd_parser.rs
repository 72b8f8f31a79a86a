//! The parsing of the DOCTYPE's content: the document type name, the external identifier of
//! the external subset, and the markup declarations of the internal subset — general and
//! parameter entity declarations kept, other declarations skipped, internal parameter entities
//! included where they are referenced.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::decode::{Reference, char_end, is_name, is_name_char, is_space, reference, shorten};
use super::dtd::{Dtd, Entity, ExternalSubset, Kind};
use super::dtd_graph::analyze;
use super::{
    ENTITY_LIMIT, EXTERNAL_ENTITY, MAX_DECLARATIONS, MAX_DEPTH, NOT_WELL_FORMED, Stop, problem,
};
use crate::extract::{Problem, Related};

/// A parameter entity.
struct Param {
    decl: Range<usize>,
    /// `Ok(replacement text)` or `Err(system identifier)` for an external one.
    text: Result<String, String>,
}

/// Where the text being parsed is: the document, or a parameter entity's replacement text
/// (reached from the document at `use_range`).
#[derive(Debug, Clone)]
enum At {
    Document,
    Param {
        use_range: Range<usize>,
        name: String,
    },
}

struct Parser<'t> {
    text: &'t str,
    standalone: bool,
    limit: u64,
    used: u64,
    general: Vec<Entity>,
    index: HashMap<String, usize>,
    params: HashMap<String, Param>,
    param_stack: Vec<String>,
    /// A parameter entity was not read: later declarations are not processed.
    skip_declarations: bool,
    /// [`MAX_DECLARATIONS`] entities are declared: later declarations are not processed,
    /// `standalone` or not.
    too_many: bool,
    param_refs: bool,
    reported: HashSet<String>,
    problems: Vec<Problem>,
    external_subset: Option<ExternalSubset>,
}

/// Parses the DOCTYPE whose content (after `<!DOCTYPE` and its spaces, up to the final `>`) is
/// `text[content]`. `limit` is the entity expansion budget in bytes.
pub(super) fn parse(text: &str, content: Range<usize>, standalone: bool, limit: u64) -> Dtd {
    let mut p = Parser {
        text,
        standalone,
        limit,
        used: 0,
        general: Vec::new(),
        index: HashMap::new(),
        params: HashMap::new(),
        param_stack: Vec::new(),
        skip_declarations: false,
        too_many: false,
        param_refs: false,
        reported: HashSet::new(),
        problems: Vec::new(),
        external_subset: None,
    };
    let fatal = p.doctype(content).is_err();
    analyze(&mut p.general, &p.index);
    Dtd {
        entities_must_be_declared: !p.too_many
            && (standalone || (p.external_subset.is_none() && !p.param_refs)),
        declarations_dropped: p.too_many,
        general: p.general,
        index: p.index,
        external_subset: p.external_subset,
        problems: p.problems,
        fatal,
        budget_used: p.used,
    }
}

fn skip_space(b: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && is_space(b[i]) {
        i += 1;
    }
    i
}

/// The end of the name at `src[at..end]`.
fn name_end(src: &str, at: usize, end: usize) -> usize {
    src[at..end]
        .char_indices()
        .find(|&(_, c)| !is_name_char(c))
        .map_or(end, |(k, _)| at + k)
}

impl Parser<'_> {
    /// The document range for `range` of the text parsed at `at`.
    fn locate(&self, at: &At, range: Range<usize>) -> Range<usize> {
        match at {
            At::Document => range,
            At::Param { use_range, .. } => use_range.clone(),
        }
    }

    fn fail(&mut self, at: &At, range: Range<usize>, message: impl Into<String>) -> Stop {
        let mut message = message.into();
        let mut related = Vec::new();
        if let At::Param { name, .. } = at {
            message = format!("in the replacement text of parameter entity `%{name};`: {message}");
            if let Some(p) = self.params.get(name) {
                related.push(Related {
                    range: p.decl.clone(),
                    label: format!("parameter entity `{name}` is declared here"),
                });
            }
        }
        let range = self.locate(at, range);
        self.problems.push(problem(
            NOT_WELL_FORMED,
            range,
            format!("the DOCTYPE is not well-formed: {message}"),
            related,
        ));
        Stop
    }

    fn doctype(&mut self, content: Range<usize>) -> Result<(), Stop> {
        let (src, b, end) = (self.text, self.text.as_bytes(), content.end);
        let at = At::Document;
        let name = content.start..name_end(src, content.start, end);
        if !is_name(&src[name.clone()]) {
            let r = name.start..char_end(src, name.start, end);
            return Err(self.fail(&at, r, "a document type name must follow `<!DOCTYPE`"));
        }
        let mut i = skip_space(b, name.end, end);
        if src[i..end].starts_with("SYSTEM") || src[i..end].starts_with("PUBLIC") {
            if i == name.end {
                return Err(self.fail(&at, i..i + 6, "expected white space before the identifier"));
            }
            let (system, literal, after) = self.external_id(src, i, end, &at)?;
            self.external_subset = Some(ExternalSubset {
                system,
                range: literal,
            });
            i = skip_space(b, after, end);
        }
        if i < end && b[i] == b'[' {
            i = self.subset(src, i + 1, end, &at)?;
            i = skip_space(b, i, end);
        }
        if i < end {
            let r = i..name_end(src, i, end).max(char_end(src, i, end));
            let found = shorten(&src[r.clone()]);
            return Err(self.fail(&at, r, format!("unexpected `{found}` in the DOCTYPE")));
        }
        Ok(())
    }

    /// `SYSTEM "lit"` or `PUBLIC "pubid" "lit"` at `src[i..]`: the system identifier, the range
    /// of its literal (quotes included) and the offset after it.
    fn external_id(
        &mut self,
        src: &str,
        i: usize,
        end: usize,
        at: &At,
    ) -> Result<(String, Range<usize>, usize), Stop> {
        let b = src.as_bytes();
        let public = src[i..end].starts_with("PUBLIC");
        let mut j = i + 6;
        if public {
            let (_, r) = self.literal(src, j, end, at, "a public identifier")?;
            j = r.end;
        }
        let (system, r) = self.literal(src, j, end, at, "a system identifier")?;
        let _ = b;
        Ok((system, r.clone(), r.end))
    }

    /// A quoted literal after white space at `src[i..]`: its content and its range with quotes.
    fn literal(
        &mut self,
        src: &str,
        i: usize,
        end: usize,
        at: &At,
        what: &str,
    ) -> Result<(String, Range<usize>), Stop> {
        let b = src.as_bytes();
        let j = skip_space(b, i, end);
        let quote = match b.get(j) {
            Some(&q @ (b'"' | b'\'')) if j < end && j > i => q,
            _ => {
                let r = j.min(end)..char_end(src, j, end);
                return Err(self.fail(at, r, format!("expected {what} in quotes")));
            }
        };
        match b[j + 1..end].iter().position(|&c| c == quote) {
            Some(k) => Ok((src[j + 1..j + 1 + k].to_string(), j..j + k + 2)),
            None => Err(self.fail(at, j..j + 1, format!("{what} is not closed"))),
        }
    }

    /// The markup declarations of `src[start..end]` up to `]` (in the document) or to `end` (in
    /// a parameter entity's text); the offset after the `]`.
    fn subset(&mut self, src: &str, start: usize, end: usize, at: &At) -> Result<usize, Stop> {
        let b = src.as_bytes();
        let mut i = start;
        loop {
            i = skip_space(b, i, end);
            if i >= end {
                return match at {
                    At::Document => {
                        Err(self.fail(at, end..end, "the internal subset is not closed with `]`"))
                    }
                    At::Param { .. } => Ok(end),
                };
            }
            let rest = &src[i..end];
            if rest.starts_with(']') && matches!(at, At::Document) {
                return Ok(i + 1);
            } else if rest.starts_with('%') {
                i = self.param_reference(src, i, end, at)?;
            } else if let Some(comment) = rest.strip_prefix("<!--") {
                i = match comment.find("-->") {
                    Some(k) => i + 4 + k + 3,
                    None => return Err(self.fail(at, i..i + 4, "the comment is not closed")),
                };
            } else if let Some(pi) = rest.strip_prefix("<?") {
                i = match pi.find("?>") {
                    Some(k) => i + 2 + k + 2,
                    None => {
                        return Err(self.fail(
                            at,
                            i..i + 2,
                            "the processing instruction is not closed",
                        ));
                    }
                };
            } else if rest.starts_with("<!ENTITY") {
                i = self.entity_declaration(src, i, end, at)?;
            } else if rest.starts_with("<!ATTLIST")
                || rest.starts_with("<!ELEMENT")
                || rest.starts_with("<!NOTATION")
            {
                i = self.skip_declaration(src, i, end, at)?;
            } else {
                let r = if rest.starts_with("<!") {
                    i..name_end(src, i + 2, end)
                } else {
                    i..char_end(src, i, end)
                };
                let found = shorten(&src[r.clone()]);
                return Err(self.fail(
                    at,
                    r,
                    format!(
                        "unexpected `{found}` in the internal subset: expected a markup declaration"
                    ),
                ));
            }
        }
    }

    /// Skips an `<!ATTLIST`, `<!ELEMENT` or `<!NOTATION` declaration (quotes respected).
    fn skip_declaration(
        &mut self,
        src: &str,
        i: usize,
        end: usize,
        at: &At,
    ) -> Result<usize, Stop> {
        let b = src.as_bytes();
        let mut j = i + 2;
        while j < end {
            match b[j] {
                b'>' => return Ok(j + 1),
                q @ (b'"' | b'\'') => match b[j + 1..end].iter().position(|&c| c == q) {
                    Some(k) => j += k + 2,
                    None => break,
                },
                _ => j += 1,
            }
        }
        let r = i..name_end(src, i + 2, end);
        Err(self.fail(at, r, "the declaration is not closed with `>`"))
    }

    /// `%name;` at `src[i]`: includes an internal parameter entity, notes an unread one.
    fn param_reference(&mut self, src: &str, i: usize, end: usize, at: &At) -> Result<usize, Stop> {
        let name_range = i + 1..name_end(src, i + 1, end);
        let name = &src[name_range.clone()];
        if !is_name(name)
            || src.as_bytes().get(name_range.end) != Some(&b';')
            || name_range.end >= end
        {
            return Err(self.fail(
                at,
                i..name_range.end.max(i + 1),
                "`%` must start a parameter-entity reference `%name;`",
            ));
        }
        let reference = i..name_range.end + 1;
        let use_range = self.locate(at, reference.clone());
        self.param_refs = true;
        let name = name.to_string();
        let text = match self.params.get(&name) {
            None => {
                if self.standalone {
                    return Err(self.fail(
                        at,
                        reference,
                        format!("parameter entity `%{name};` is not declared"),
                    ));
                }
                self.skip_declarations = true;
                return Ok(reference.end);
            }
            Some(Param {
                text: Err(system),
                decl,
            }) => {
                let (system, decl) = (system.clone(), decl.clone());
                if self.reported.insert(name.clone()) {
                    let after = if self.standalone {
                        ""
                    } else {
                        "; declarations after it are not processed"
                    };
                    self.problems.push(problem(
                        EXTERNAL_ENTITY,
                        use_range,
                        format!(
                            "parameter entity `%{name};` is external (\"{}\"): irilint never reads \
                             it{after}",
                            shorten(&system)
                        ),
                        vec![Related {
                            range: decl,
                            label: format!("parameter entity `{name}` is declared here"),
                        }],
                    ));
                }
                self.skip_declarations |= !self.standalone;
                return Ok(reference.end);
            }
            Some(Param { text: Ok(text), .. }) => text.clone(),
        };
        let decl = self.params[&name].decl.clone();
        if self.param_stack.contains(&name) {
            return Err(self.fail(
                at,
                reference,
                format!(
                    "parameter entity `%{name};` refers to itself (XML 1.0 §4.1, No Recursion)"
                ),
            ));
        }
        let over_depth = self.param_stack.len() >= MAX_DEPTH as usize;
        let over_size = self.used.saturating_add(text.len() as u64) > self.limit;
        if over_depth || over_size {
            let why = if over_depth {
                format!("nests parameter entities more than {MAX_DEPTH} levels deep")
            } else {
                format!(
                    "would expand entities past the budget of {} bytes",
                    self.limit
                )
            };
            self.problems.push(problem(
                ENTITY_LIMIT,
                use_range,
                format!(
                    "parameter entity `%{name};` is not expanded: it {why}; declarations \
                     after it are not processed"
                ),
                vec![Related {
                    range: decl,
                    label: format!("parameter entity `{name}` is declared here"),
                }],
            ));
            self.skip_declarations = true;
            return Ok(reference.end);
        }
        self.used += text.len() as u64;
        self.param_stack.push(name.clone());
        let inner = At::Param {
            use_range,
            name: name.clone(),
        };
        self.subset(&text, 0, text.len(), &inner)?;
        self.param_stack.pop();
        Ok(reference.end)
    }

    /// `<!ENTITY ...>` at `src[i]`.
    fn entity_declaration(
        &mut self,
        src: &str,
        i: usize,
        end: usize,
        at: &At,
    ) -> Result<usize, Stop> {
        let b = src.as_bytes();
        let mut j = i + "<!ENTITY".len();
        let mut k = skip_space(b, j, end);
        let expected_space = |p: &mut Self, r: Range<usize>| {
            p.fail(at, r, "expected white space in the entity declaration")
        };
        if k == j {
            return Err(expected_space(self, i..j));
        }
        let parameter = b.get(k) == Some(&b'%') && k < end;
        if parameter {
            j = k + 1;
            k = skip_space(b, j, end);
            if k == j {
                return Err(expected_space(self, j - 1..j));
            }
        }
        let name_range = k..name_end(src, k, end);
        let name = src[name_range.clone()].to_string();
        if !is_name(&name) {
            return Err(self.fail(at, k..char_end(src, k, end), "expected an entity name"));
        }
        j = name_range.end;
        k = skip_space(b, j, end);
        if k == j {
            return Err(expected_space(self, name_range));
        }
        let kind;
        if matches!(b.get(k), Some(b'"' | b'\'')) && k < end {
            let (value, after) = self.entity_value(src, k, end, at)?;
            kind = Kind::Internal(value);
            j = after;
        } else if src[k..end].starts_with("SYSTEM") || src[k..end].starts_with("PUBLIC") {
            let (system, _, after) = self.external_id(src, k, end, at)?;
            j = after;
            let m = skip_space(b, j, end);
            let unparsed = src[m..end].starts_with("NDATA");
            if unparsed {
                if parameter || m == j {
                    return Err(self.fail(
                        at,
                        m..m + 5,
                        "`NDATA` is only allowed, after white space, in a general entity \
                         declaration",
                    ));
                }
                let n = skip_space(b, m + 5, end);
                let notation = n..name_end(src, n, end);
                if n == m + 5 || !is_name(&src[notation.clone()]) {
                    return Err(self.fail(at, m..m + 5, "expected a notation name after `NDATA`"));
                }
                j = notation.end;
            }
            kind = Kind::External { system, unparsed };
        } else {
            return Err(self.fail(
                at,
                k..char_end(src, k, end),
                format!("expected the value of entity `{name}` in quotes, or SYSTEM or PUBLIC"),
            ));
        }
        let close = skip_space(b, j, end);
        if close >= end || b[close] != b'>' {
            return Err(self.fail(
                at,
                i..name_range.end,
                format!("the declaration of entity `{name}` is not closed with `>`"),
            ));
        }
        let decl = self.locate(at, i..close + 1);
        let process = (!self.skip_declarations || self.standalone) && !self.too_many;
        if process && self.general.len() + self.params.len() >= MAX_DECLARATIONS {
            self.too_many = true;
            let mut p = problem(
                ENTITY_LIMIT,
                decl,
                format!(
                    "this entity declaration and those after it are not processed: the DOCTYPE \
                     declares more than {MAX_DECLARATIONS} entities, as many as irilint keeps; \
                     references to them are left unexpanded"
                ),
                Vec::new(),
            );
            p.help = Some(
                "a table of millions of entities is a way to exhaust a parser's memory; the text \
                 of the entities past the limit is not checked: declare fewer entities, or write \
                 the values out"
                    .to_string(),
            );
            self.problems.push(p);
        } else if process {
            if parameter {
                let text = match kind {
                    Kind::Internal(t) => Ok(t),
                    Kind::External { system, .. } => Err(system),
                };
                self.params.entry(name).or_insert(Param { decl, text });
            } else if !self.index.contains_key(&name) {
                self.index.insert(name.clone(), self.general.len());
                self.general.push(Entity {
                    name,
                    decl,
                    kind,
                    height: 0,
                    cost: 0,
                    recursive: false,
                });
            }
        }
        Ok(close + 1)
    }

    /// The replacement text of the entity value literal at `src[i]` (a quote), and the offset
    /// after the closing quote (XML 1.0 §4.5: character references replaced, entity references
    /// kept, line ends of the document normalized).
    fn entity_value(
        &mut self,
        src: &str,
        i: usize,
        end: usize,
        at: &At,
    ) -> Result<(String, usize), Stop> {
        let b = src.as_bytes();
        let quote = b[i];
        let mut out = String::new();
        let mut run = i + 1;
        let mut j = i + 1;
        while j < end {
            match b[j] {
                c if c == quote => {
                    out.push_str(&src[run..j]);
                    return Ok((out, j + 1));
                }
                b'%' => {
                    return Err(self.fail(
                        at,
                        j..j + 1,
                        "a parameter-entity reference may not appear inside a declaration in the \
                         internal subset (write `&#37;` for a literal `%`)",
                    ));
                }
                b'&' => {
                    out.push_str(&src[run..j]);
                    match reference(src, j) {
                        Ok((Reference::Char(c), after)) => {
                            out.push(c);
                            j = after;
                        }
                        Ok((Reference::Entity(_), after)) => {
                            out.push_str(&src[j..after]);
                            j = after;
                        }
                        Err(message) => {
                            let r = j..name_end(src, j + 1, end).max(j + 1);
                            return Err(self.fail(at, r, message));
                        }
                    }
                    run = j;
                }
                b'\r' if matches!(at, At::Document) => {
                    out.push_str(&src[run..j]);
                    out.push('\n');
                    j += if b.get(j + 1) == Some(&b'\n') { 2 } else { 1 };
                    run = j;
                }
                _ => j += 1,
            }
        }
        Err(self.fail(at, i..i + 1, "the entity value is not closed"))
    }
}
