//! Start tags with their attributes, decoded by html5ever and located in the source.
//!
//! html5ever's tokenizer (driven through a [`TokenSink`], no tree) is the authority on what is a
//! tag and what each attribute's value is, but it gives no byte offsets. Its tokens come in
//! source order, so a cursor walks the source alongside them: each comment, doctype, start tag
//! and end tag token is found at or after the cursor, and a start tag's attributes are scanned
//! with the tokenizer's attribute states to get each raw value's range. The raw value is then
//! decoded with [`super::charref`] into a prepared value and a [`SpanMap`]; when that decoding
//! equals html5ever's value (it always should), the map is exact, otherwise the whole raw value
//! is used as the span (never a wrong span).
//!
//! An HTML page is not tokenized: [`walk_page`] hands on the start tags irilint's own walk of
//! the page reads (with the tokenizer's states), each where it is, its attributes the first of
//! each name, decoded from the source as above; html5ever's reading is the oracle it is tested
//! against ([`page_readings_differ`]).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::ops::Range;

use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::{Attribute, LocalName, local_name};

use super::charref::{decode_attribute, decodes_to_itself};
use super::crowded;
/// A raw attribute: name range, and value range if it has a value.
use super::crowded::WrittenAttribute as RawAttribute;
use super::crowded::{
    Crowded, MAX_TOKENIZED_ATTRIBUTES, Markup, attribute_at, comment_end, crowded_tags,
};
use super::position::Feed;
use super::text_nodes::{PageTextLeft, max_deferred, prescan_keeping};
use crate::extract::{Comment, SpanMap};
use crate::work::{self, Work};

/// An attribute of a start tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedAttribute {
    /// The name, lowercased as the tokenizer does (`xlink:href`).
    pub name: String,
    /// The value html5ever decoded.
    pub value: String,
    /// The raw value's range in the source (inside the quotes); `None` without a value.
    pub raw: Option<Range<usize>>,
    /// The value decoded from `raw` by irilint when it differs from `value` (`exact` is false).
    pub decoded: Option<String>,
    /// From each byte of `value` to the source.
    pub map: SpanMap,
    /// True when `decoded == value`, so `map` is exact.
    pub exact: bool,
    /// The raw value has nothing to decode: `value` is left empty, the value being the source's
    /// `text[raw]` ([`LocatedAttribute::value_in`]), not copied (a page that is one long `href`
    /// held it three times at once).
    pub verbatim: bool,
}

impl LocatedAttribute {
    /// An attribute whose raw value `text[raw]` is its value ([`decodes_to_itself`]).
    fn verbatim(name: String, raw: Range<usize>) -> LocatedAttribute {
        LocatedAttribute {
            name,
            value: String::new(),
            raw: Some(raw.clone()),
            decoded: None,
            map: SpanMap::identity(raw),
            exact: true,
            verbatim: true,
        }
    }

    /// The value, in `text` (the document it was located in).
    pub fn value_in<'a>(&'a self, text: &'a str) -> &'a str {
        match &self.raw {
            Some(raw) if self.verbatim => &text[raw.clone()],
            _ => &self.value,
        }
    }
}

/// A start tag found in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedTag {
    /// The tag name, lowercased.
    pub name: String,
    /// Offset of its `<`.
    pub start: usize,
    /// Inside `<svg>` or `<math>` (foreign content).
    pub foreign: bool,
    /// Its attributes as the tokenizer kept them (duplicates dropped).
    pub attributes: Vec<LocatedAttribute>,
}

/// A start tag the tokenizer gave, or a page's walk read ([`walk_page`]). Its attributes are
/// located (and their raw values decoded) only when asked for: tags and attributes no rule
/// reads cost nothing beyond the reading itself.
pub struct FoundTag<'t> {
    /// The tag name, lowercased (interned by the tokenizer, or the source's own when the walk
    /// read it in lowercase: no allocation per tag).
    pub name: TagName<'t>,
    /// Inside `<svg>` or `<math>` (foreign content).
    pub foreign: bool,
    /// The attributes as the tokenizer kept them (duplicates dropped), not copied; none for a
    /// crowded tag or one the walk read.
    attrs: Vec<Attribute>,
    text: &'t str,
    /// The end of the HTML in `text`.
    end: usize,
    place: Place,
    /// The attributes the walk read ([`walk_page`]), the first of each name, when the tokenizer
    /// did not read the tag.
    written: Option<Vec<RawAttribute>>,
    /// A crowded tag's attributes, read from the source as they are asked for. (Boxed, as the
    /// index below: these rare parts would make every tag about 200 bytes.)
    crowded: Option<Box<Kept>>,
    /// The raw value of the first attribute of each name (lowercased), for a tag with many (made
    /// on the first lookup; names already in lowercase are not copied).
    index: Option<Box<RawValues<'t>>>,
}

/// The attributes of a crowded tag that the tokenizer would keep, the first of each name. Only
/// a set of them is kept, each as where its name starts (counted from the tag's `<`, four
/// bytes), which finds a duplicate as the tag is read and tells, as the tag is read again
/// attribute by attribute when they are asked for ([`super::crowded::attribute_at`]), whether
/// an attribute is the first of its name. (Each kept attribute's name, value and raw ranges took
/// about 150 bytes: a 2 MB tag of 400,000 distinct names, 54 MB.)
struct Kept {
    /// The kept attributes, by where their names start; hashed by their names as the tokenizer
    /// keeps them ([`normal_bytes`]). At most [`MAX_KEPT_NAMES`].
    set: hashbrown::HashTable<u32>,
    /// The attributes past the set's last name whose names are not in it: each kept (its
    /// duplicates too, which the tokenizer would drop).
    unset: usize,
    keys: std::collections::hash_map::RandomState,
    /// Where the first attribute's name starts.
    first: usize,
    /// Where the tag starts and ends (just after its `>`).
    start: usize,
    end: usize,
    /// The kept attribute read last: its index among the kept ones, and where its name starts.
    last: Cell<(usize, usize)>,
}

impl Kept {
    /// True when the attribute named `name`, starting at `at`, is the first of its name (which
    /// the set holds).
    fn is_first(&self, text: &str, name: &str, at: usize) -> bool {
        let name_at = |k: u32| name_at(text, self.start + k as usize, self.end);
        let same = |k: &u32| normal_bytes(name_at(*k)).eq(normal_bytes(name));
        // (A name the full set does not hold is kept wherever it is.)
        self.set
            .find(hash_name(&self.keys, name), same)
            .is_none_or(|&k| k as usize + self.start == at)
    }

    /// How many attributes are kept.
    fn len(&self) -> usize {
        self.set.len() + self.unset
    }

    /// The kept attribute `i`, read from the source: from the one read last when it is not
    /// after `i`, else from the first.
    fn get(&self, text: &str, i: usize) -> Option<RawAttribute> {
        if i >= self.len() {
            return None;
        }
        let (mut k, mut at) = self.last.get();
        if k > i {
            (k, at) = (0, self.first);
        }
        let (mut written, mut next) = attribute_at(text, at, self.end);
        while k < i {
            // The next attribute that is the first of its name.
            loop {
                at = next?;
                (written, next) = attribute_at(text, at, self.end);
                if self.is_first(text, &text[written.name.clone()], at) {
                    break;
                }
            }
            k += 1;
        }
        self.last.set((k, at));
        Some(written)
    }
}

/// A start tag's name, lowercased.
pub enum TagName<'t> {
    /// As html5ever's tokenizer interned it.
    Atom(LocalName),
    /// As the walk read it: the source's, or a lowercased copy of it.
    Written(Cow<'t, str>),
}

impl std::ops::Deref for TagName<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            TagName::Atom(name) => name,
            TagName::Written(name) => name,
        }
    }
}

/// The raw value (`None`: no `=`) of the first attribute of each name, lowercased.
type RawValues<'t> = std::collections::HashMap<Cow<'t, str>, Option<Range<usize>>>;

/// Where a start tag is in the source.
enum Place {
    /// Its `<`, where its attributes start (just after its name), and just after its `>`. The
    /// attributes are read from the source when one is located, up to it: a list of each tag's
    /// raw attributes cost an allocation per tag with a URL.
    Found {
        start: usize,
        name_end: usize,
        after: usize,
    },
    /// Not in the source as the tokenizer read it (a NUL in its name): nothing to locate.
    Missing,
    /// To be found at or after `from` (just after the token before it), ending just before
    /// `to` (after its `>`), where the tokenizer's input queue showed it ended.
    Between { from: usize, to: usize },
}

impl FoundTag<'_> {
    /// How many attributes it has (duplicates dropped).
    fn len(&self) -> usize {
        if let Some(written) = &self.written {
            return written.len();
        }
        self.crowded.as_ref().map_or(self.attrs.len(), |k| k.len())
    }

    /// Whether irilint read its attributes (a crowded tag, or a tag of a walked page).
    fn is_written(&self) -> bool {
        self.written.is_some() || self.crowded.is_some()
    }

    /// Attribute `i` of a tag irilint read, from the source.
    fn written(&self, i: usize) -> Option<RawAttribute> {
        if let Some(written) = &self.written {
            return written.get(i).cloned();
        }
        self.crowded.as_ref()?.get(self.text, i)
    }

    /// The name of attribute `i` (in the order of the tag), if it has that many.
    pub fn attribute_name(&self, i: usize) -> Option<Cow<'_, str>> {
        if self.is_written() {
            let written = self.written(i)?;
            return Some(lowercase_name(&self.text[written.name]));
        }
        self.attrs.get(i).map(|a| Cow::Borrowed(&*a.name.local))
    }

    /// The value of the attribute named `name`, as the tokenizer decoded it: a search through
    /// the tag's attributes, for a name asked once per tag ([`FoundTag::value_at`] gives an
    /// attribute's own value).
    pub fn value(&self, name: &str) -> Option<Cow<'_, str>> {
        let found = (0..self.len()).find(|&i| self.attribute_name(i).is_some_and(|n| n == name));
        work::add(
            Work::AttributeComparisons,
            found.map_or(self.len(), |i| i + 1),
        );
        self.value_at(found?)
    }

    /// The value of attribute `i`, as the tokenizer decoded it.
    pub fn value_at(&self, i: usize) -> Option<Cow<'_, str>> {
        if self.is_written() {
            let written = self.written(i)?;
            let text = self.text;
            return Some(match written.value {
                Some(r) if decodes_to_itself(text, r.clone()) => Cow::Borrowed(&text[r]),
                Some(r) => Cow::Owned(decode_attribute(text, r).0),
                None => Cow::Borrowed(""),
            });
        }
        self.attrs.get(i).map(|a| Cow::Borrowed(&*a.value))
    }

    /// Offset of its `<`; `None` when it is not in the source.
    fn found(&mut self) -> Option<usize> {
        if let Place::Between { from, to } = self.place {
            self.place = match find_start_tag(self.text, from, Some(to), self.end, &self.name) {
                Some((start, name_end, after)) => Place::Found {
                    start,
                    name_end,
                    after,
                },
                None => Place::Missing,
            };
        }
        match self.place {
            Place::Found { start, .. } => Some(start),
            _ => None,
        }
    }

    /// The offset just after its `>`; `None` when it is not in the source.
    pub fn after(&mut self) -> Option<usize> {
        self.found()?;
        match self.place {
            Place::Found { after, .. } => Some(after),
            _ => None,
        }
    }

    /// Locates attribute `i`, taking its value out of the tag: the tokenizer's copy of a long
    /// value is freed as soon as irilint's own decoding of the source has been compared with it.
    /// `None` when the tag is not in the source.
    pub fn locate(&mut self, i: usize) -> Option<LocatedAttribute> {
        let text = self.text;
        if self.is_written() {
            // A crowded or walked tag's values are irilint's own reading: one with nothing to decode is
            // the source's, as it is.
            let written = self.written(i)?;
            let name = lowercase_name(&text[written.name]).into_owned();
            return Some(match written.value {
                Some(r) if decodes_to_itself(text, r.clone()) => {
                    LocatedAttribute::verbatim(name, r)
                }
                found => {
                    let (value, map) = match &found {
                        Some(r) => decode_attribute(text, r.clone()),
                        None => (String::new(), SpanMap::default()),
                    };
                    LocatedAttribute {
                        name,
                        value,
                        raw: found,
                        decoded: None,
                        map,
                        exact: true,
                        verbatim: false,
                    }
                }
            });
        }
        let value = std::mem::take(&mut self.attrs[i].value);
        let name = self.attrs[i].name.local.to_string();
        self.found()?;
        let Place::Found { name_end, .. } = self.place else {
            return None;
        };
        let (end, many) = (self.end, self.attrs.len() > 32);
        // A search from the tag's start per located attribute: past 32 distinct names, a map
        // (a tag of over 256 written attributes is crowded and never reaches here, so without
        // the map a tag reads at most 32 × 256 attributes).
        if many && self.index.is_none() {
            let mut index = RawValues::new();
            scan_attributes_each(text, name_end, end, &mut |r| {
                let name = &text[r.name.clone()];
                let key = if name.bytes().any(|b| b.is_ascii_uppercase()) {
                    Cow::Owned(name.to_ascii_lowercase())
                } else {
                    Cow::Borrowed(name)
                };
                index.entry(key).or_insert(r.value);
                true
            });
            self.index = Some(Box::new(index));
        }
        let found = match &self.index {
            Some(index) => index
                .get(name.to_ascii_lowercase().as_str())
                .cloned()
                .flatten(),
            None => {
                // The first of its name, read up to it.
                let mut found = None;
                scan_attributes_each(text, name_end, end, &mut |r| {
                    if !text[r.name.clone()].eq_ignore_ascii_case(&name) {
                        return true;
                    }
                    found = r.value;
                    false
                });
                found
            }
        };
        Some(locate(text, found, name, &value))
    }

    /// The tag with every attribute located; `None` when it is not in the source.
    pub fn into_located(&mut self) -> Option<LocatedTag> {
        let start = self.found()?;
        let text = self.text;
        let attributes = (0..self.len())
            .map(|i| {
                let mut a = self.locate(i)?;
                if a.verbatim {
                    a.value = a.value_in(text).to_string();
                    a.verbatim = false;
                }
                Some(a)
            })
            .collect::<Option<_>>()?;
        Some(LocatedTag {
            name: self.name.to_string(),
            start,
            foreign: self.foreign,
            attributes,
        })
    }
}

/// Follows the tokens as they come, keeping a cursor just after the last one in the source: the
/// tokenizer's input queue tells where each tag, comment and doctype token ends
/// ([`Feed::taken_to`]); when it cannot, the token is found in the source at or after the
/// cursor. Nothing is collected but the directive comments; start tags go to `on_tag` at once
/// (a 100 MB page never holds its tokens in memory).
struct Locator<'t, 'f> {
    text: &'t str,
    end: usize,
    feed: Feed,
    cursor: Cell<usize>,
    foreign_depth: Cell<usize>,
    comments: RefCell<Vec<Comment>>,
    on_tag: RefCell<&'f mut dyn FnMut(&mut FoundTag<'t>)>,
    /// The tags the tokenizer is given without their attributes ([`super::crowded`]), in
    /// order, and the next one to come.
    crowded: RefCell<Vec<Crowded>>,
    next_crowded: Cell<usize>,
    /// How many tag tokens came before.
    tags: Cell<usize>,
    /// The most names the set of a crowded tag's kept attributes holds ([`MAX_KEPT_NAMES`]).
    most_names: usize,
}

impl Locator<'_, '_> {
    /// Counts a tag token; when it is a crowded tag, that tag.
    fn crowded_here(&self) -> Option<Crowded> {
        let ordinal = self.tags.get();
        self.tags.set(ordinal + 1);
        let crowded = self.crowded.borrow();
        let k = self.next_crowded.get();
        let found = crowded.get(k).filter(|c| c.ordinal == ordinal).cloned();
        self.next_crowded.set(k + usize::from(found.is_some()));
        found
    }

    /// Just after the token being emitted, when the input queue tells (a tag, comment or
    /// doctype token ends with a `>`, or at the end of the input).
    fn token_end(&self) -> Option<usize> {
        let to = self.feed.taken_to()?;
        let closed = to == self.end || self.text.as_bytes().get(to.wrapping_sub(1)) == Some(&b'>');
        (to > self.cursor.get() && to <= self.end && closed).then_some(to)
    }

    fn skip_comment(&self, keep: bool) {
        let (text, end) = (self.text, self.end);
        let token_end = self.token_end();
        if let Some(p) = find_comment(text, self.cursor.get(), end) {
            let after = comment_end(text, p, end);
            self.cursor.set(token_end.unwrap_or(after));
            if keep {
                let directive = comment_body(text, p, after)
                    .and_then(|body| Comment::directive(text, p..after, body));
                self.comments.borrow_mut().extend(directive);
            }
        } else if let Some(to) = token_end {
            self.cursor.set(to);
        }
    }
}

impl<'t> TokenSink for Locator<'t, '_> {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let (text, end) = (self.text, self.end);
        match token {
            Token::TagToken(Tag {
                kind,
                name,
                attrs,
                self_closing,
                ..
            }) => {
                // Interned names compare as integers.
                let is_foreign_root = name == local_name!("svg") || name == local_name!("math");
                let token_end = self.token_end();
                // What html5ever's duplicate check cost: each attribute against those before.
                work::add(
                    Work::AttributeComparisons,
                    attrs.len() * attrs.len().saturating_sub(1) / 2,
                );
                if kind == TagKind::EndTag {
                    if is_foreign_root {
                        self.foreign_depth
                            .set(self.foreign_depth.get().saturating_sub(1));
                    }
                    // A crowded end tag is where the pre-scan found it, not scanned again.
                    let crowded = self.crowded_here();
                    if let Some(to) = token_end {
                        self.cursor.set(to);
                    } else if let Some(c) = crowded {
                        self.cursor.set(c.end);
                    } else if let Some(p) = find_tag(text, self.cursor.get(), end, &name, true) {
                        self.cursor.set(scan_attributes_each(
                            text,
                            p + 2 + name.len(),
                            end,
                            &mut |_| true,
                        ));
                    }
                    return TokenSinkResult::Continue;
                }
                let depth = self.foreign_depth.get();
                let foreign = depth > 0 || is_foreign_root;
                if is_foreign_root && !self_closing {
                    self.foreign_depth.set(depth + 1);
                }
                // A tag given without its attributes: irilint reads them itself, and they are
                // where the pre-scan found the tag (never scanned again into a list of all its
                // attributes: 2.5 million of them, 10 MB, took 213 MB).
                // (Not when the tag is not in the source as the tokenizer read it, a NUL in its
                // name, which no tag is reported for.)
                let in_source = |start: usize| {
                    text.as_bytes()
                        .get(start + 1..start + 1 + name.len())
                        .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
                };
                let crowded = self.crowded_here().filter(|c| in_source(c.start));
                let place = match (&crowded, token_end) {
                    (Some(c), _) => {
                        self.cursor.set(c.end);
                        None
                    }
                    (None, Some(to)) => Some(Place::Between {
                        from: self.cursor.replace(to),
                        to,
                    }),
                    (None, None) => find_start_tag(text, self.cursor.get(), None, end, &name).map(
                        |(start, name_end, after)| {
                            self.cursor.set(after);
                            Place::Found {
                                start,
                                name_end,
                                after,
                            }
                        },
                    ),
                };
                // What the tree builder would tell the tokenizer (WHATWG §13.2.6.4.7).
                let switch = if depth > 0 {
                    TokenSinkResult::Continue
                } else {
                    switch_after(&name)
                };
                let (attrs, kept, place) = match crowded {
                    Some(tag) => {
                        let kept = Box::new(kept_attributes(text, &tag, self.most_names));
                        let place = Place::Found {
                            start: tag.start,
                            name_end: tag.blank.start,
                            after: tag.end,
                        };
                        (attrs, Some(kept), Some(place))
                    }
                    None => (attrs, None, place),
                };
                if let Some(place) = place {
                    let mut tag = FoundTag {
                        name: TagName::Atom(name),
                        foreign,
                        attrs,
                        text,
                        end,
                        place,
                        written: None,
                        crowded: kept,
                        index: None,
                    };
                    (self.on_tag.borrow_mut())(&mut tag);
                }
                switch
            }
            Token::CommentToken(_) => {
                self.skip_comment(true);
                TokenSinkResult::Continue
            }
            Token::DoctypeToken(_) => {
                self.skip_comment(false);
                TokenSinkResult::Continue
            }
            _ => TokenSinkResult::Continue,
        }
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.foreign_depth.get() > 0
    }
}

/// The most names the set of a crowded tag's kept attributes holds: 4 bytes each, and a
/// control byte, in a table of 2^20 places (5 MB). Each name of the shortest distinct names
/// there are, five or six bytes, took six to eleven bytes more in the set, 16 while it grew:
/// a tag of them, 2.6 bytes per byte of it.
pub const MAX_KEPT_NAMES: usize = 917_504;

/// The attributes of a crowded tag the tokenizer would keep: the first of each name (lowercased,
/// NUL as U+FFFD), read from the source as the tag is reached. A duplicate is dropped as it is
/// read: a set finds it, where the tokenizer compares each attribute with every one before it.
/// The set holds where each kept name is, compared with the source (no name is copied). A tag
/// of more than 4 GiB (possible only with `--max-file-size` raised past it) is read in its first
/// 4 GiB: the attributes whose names start past them are left out.
///
/// The set holds at most [`MAX_KEPT_NAMES`] names: past them, an attribute whose name is not in
/// it is kept wherever it is, duplicates included, so each is checked (a check the tokenizer
/// would not need, never one missed).
fn kept_attributes(text: &str, tag: &Crowded, most: usize) -> Kept {
    work::add(Work::AttributeComparisons, tag.attributes);
    // Keyed hashes: an attacker's names cannot be made to collide.
    let keys = std::collections::hash_map::RandomState::new();
    let name_at = |k: u32| name_at(text, tag.start + k as usize, tag.end);
    let mut set = hashbrown::HashTable::new();
    let mut unset = 0;
    let mut first = None;
    tag.each_attribute(text, |a| {
        let Ok(at) = u32::try_from(a.name.start - tag.start) else {
            return;
        };
        first.get_or_insert(a.name.start);
        let name = &text[a.name.clone()];
        let h = hash_name(&keys, name);
        let same = |k: &u32| normal_bytes(name_at(*k)).eq(normal_bytes(name));
        if set.find(h, same).is_none() {
            if set.len() < most {
                // (What the set holds is hashed again when it grows.)
                set.insert_unique(h, at, |k: &u32| hash_name(&keys, name_at(*k)));
            } else {
                unset += 1;
            }
        }
    });
    let first = first.unwrap_or(tag.end);
    Kept {
        set,
        unset,
        keys,
        first,
        start: tag.start,
        end: tag.end,
        last: Cell::new((0, first)),
    }
}

/// The name of the crowded tag's attribute whose name starts at `at` (the tag ending at `end`),
/// read again to be compared with another: its value is left unread (a value of 1 MB read
/// again for each duplicate of its name made a tag quadratic).
fn name_at(text: &str, at: usize, end: usize) -> &str {
    let name = crowded::name_at(text, at, end);
    work::add(Work::AttributeComparisons, name.len());
    &text[name]
}

/// A keyed hash of an attribute name as the tokenizer keeps it ([`normal_bytes`]).
fn hash_name(keys: &std::collections::hash_map::RandomState, name: &str) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = keys.build_hasher();
    normal_bytes(name).for_each(|b| h.write_u8(b));
    h.finish()
}

/// An attribute name as the tokenizer keeps it: ASCII-lowercased, NUL as U+FFFD (copied only
/// when it changes).
fn lowercase_name(written: &str) -> Cow<'_, str> {
    if written.bytes().any(|b| b.is_ascii_uppercase() || b == 0) {
        Cow::Owned(written.to_ascii_lowercase().replace('\0', "\u{FFFD}"))
    } else {
        Cow::Borrowed(written)
    }
}

/// The bytes of [`lowercase_name`]'s name, without making it.
fn normal_bytes(written: &str) -> impl Iterator<Item = u8> + '_ {
    written.bytes().flat_map(|b| {
        let (bytes, n) = match b {
            0 => ([0xEF, 0xBF, 0xBD], 3),
            _ => ([b.to_ascii_lowercase(), 0, 0], 1),
        };
        bytes.into_iter().take(n)
    })
}

/// The state the tokenizer goes on in after the HTML start tag `name`.
fn switch_after(name: &LocalName) -> TokenSinkResult<()> {
    let is = |names: &[LocalName]| names.contains(name);
    if *name == local_name!("script") {
        TokenSinkResult::RawData(RawKind::ScriptData)
    } else if is(&[
        local_name!("style"),
        local_name!("xmp"),
        local_name!("iframe"),
        local_name!("noembed"),
        local_name!("noframes"),
    ]) {
        TokenSinkResult::RawData(RawKind::Rawtext)
    } else if is(&[local_name!("title"), local_name!("textarea")]) {
        TokenSinkResult::RawData(RawKind::Rcdata)
    } else if *name == local_name!("plaintext") {
        TokenSinkResult::Plaintext
    } else {
        TokenSinkResult::Continue
    }
}

/// The start tag named `name` at or after `from`: its `<`, where its attributes start (just
/// after its name) and the offset just after its `>`. The first tag of that name is it, unless the tokenizer is known to have ended
/// the tag elsewhere (`to`): a look-alike in text the tokenizer does not read as markup (a
/// CDATA section in SVG) is then passed over for the one that ends there.
fn find_start_tag(
    text: &str,
    from: usize,
    to: Option<usize>,
    end: usize,
    name: &str,
) -> Option<(usize, usize, usize)> {
    let first = find_tag(text, from, end, name, false)?;
    let name_end = first + 1 + name.len();
    let after = scan_attributes_each(text, name_end, end, &mut |_| true);
    let Some(to) = to.filter(|&to| to != after) else {
        return Some((first, name_end, after));
    };
    let mut at = first + 1;
    while let Some(p) = find_tag(text, at, to, name, false) {
        let name_end = p + 1 + name.len();
        if scan_attributes_each(text, name_end, end, &mut |_| true) == to {
            return Some((p, name_end, to));
        }
        at = p + 1;
    }
    Some((first, name_end, after))
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

/// The `<` of the next tag named `name` (an end tag with `end_tag`) in `text[from..end]`.
fn find_tag(text: &str, from: usize, end: usize, name: &str, end_tag: bool) -> Option<usize> {
    let b = text.as_bytes();
    let prefix = if end_tag { 2 } else { 1 };
    let mut at = from;
    while let Some(k) = text.get(at..end)?.find('<') {
        let p = at + k;
        let name_start = p + prefix;
        let name_end = name_start + name.len();
        let is_match = (!end_tag || b.get(p + 1) == Some(&b'/'))
            && name_end <= end
            && b[name_start..name_end].eq_ignore_ascii_case(name.as_bytes())
            && (name_end == end || is_space(b[name_end]) || matches!(b[name_end], b'/' | b'>'));
        if is_match {
            return Some(p);
        }
        at = p + 1;
    }
    None
}

/// The start of the next comment-like construct (`<!--`, `<!...>`, `<?...>`, `</` + neither a
/// letter nor `>`).
fn find_comment(text: &str, from: usize, end: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut at = from;
    while let Some(k) = text.get(at..end)?.find('<') {
        let p = at + k;
        match b.get(p + 1) {
            Some(b'!' | b'?') => return Some(p),
            // (`</>` is nothing at all: no token, and no comment to take the next one for.)
            Some(b'/')
                if !b
                    .get(p + 2)
                    .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'>') =>
            {
                return Some(p);
            }
            _ => at = p + 1,
        }
    }
    None
}

/// Scans attributes from `from` (just after the tag name) with the tokenizer's attribute states;
/// returns them and the offset just after the tag's `>`: the list the tests locate attributes
/// in, to compare with locating each without it.
#[cfg(test)]
fn scan_attributes(text: &str, from: usize, end: usize) -> (Vec<RawAttribute>, usize) {
    let mut attrs = Vec::new();
    let after = scan_attributes_each(text, from, end, &mut |a| {
        attrs.push(a);
        true
    });
    (attrs, after)
}

/// Scans attributes from `from` (just after the tag name) with the tokenizer's attribute states,
/// handing each to `each` in order (no list of them is made) until it returns false; returns the
/// offset just after the tag's `>` (when `each` stopped it, where it stopped).
fn scan_attributes_each(
    text: &str,
    from: usize,
    end: usize,
    each: &mut impl FnMut(RawAttribute) -> bool,
) -> usize {
    let b = text.as_bytes();
    let mut i = from;
    loop {
        while i < end && (is_space(b[i]) || b[i] == b'/') {
            i += 1;
        }
        if i >= end {
            return end;
        }
        if b[i] == b'>' {
            return i + 1;
        }
        let name_start = i;
        if b[i] == b'=' {
            i += 1;
        }
        while i < end && !is_space(b[i]) && !matches!(b[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let name = name_start..i;
        let mut j = i;
        while j < end && is_space(b[j]) {
            j += 1;
        }
        if j < end && b[j] == b'=' {
            j += 1;
            while j < end && is_space(b[j]) {
                j += 1;
            }
            let value = if j < end && (b[j] == b'"' || b[j] == b'\'') {
                let q = b[j];
                let vs = j + 1;
                let ve = memchr::memchr(q, &b[vs..end]).map_or(end, |k| vs + k);
                i = (ve + 1).min(end);
                vs..ve
            } else {
                let vs = j;
                while j < end && !is_space(b[j]) && b[j] != b'>' {
                    j += 1;
                }
                i = j;
                vs..j
            };
            if !each(RawAttribute {
                name,
                value: Some(value),
            }) {
                return i;
            }
        } else {
            if !each(RawAttribute { name, value: None }) {
                return j;
            }
            i = j;
        }
    }
}

/// Every start tag of the HTML in `text[range]`, with located attributes (offsets in `text`).
pub fn start_tags(text: &str, range: Range<usize>) -> Vec<LocatedTag> {
    let mut tags = Vec::new();
    scan(text, range, &mut |t| tags.extend(t.into_located()));
    tags
}

/// The content range of the `<!--` comment at `p` that ends just before `end` (after its
/// `-->` or `--!>`, or at the end of input for an unclosed one).
fn comment_body(text: &str, p: usize, end: usize) -> Option<Range<usize>> {
    let whole = text.get(p..end)?;
    if !whole.starts_with("<!--") {
        return None;
    }
    let close = if whole.ends_with("--!>") {
        4
    } else if whole.ends_with("-->") {
        3
    } else {
        0
    };
    let body_end = end.checked_sub(close)?;
    (body_end >= p + 4).then_some(p + 4..body_end)
}

/// Hands every start tag of the HTML page `text[range]` to `on_tag` as irilint's one walk of
/// the page reads it ([`super::text_nodes::prescan_keeping`]), its attributes the first of each
/// name as the tokenizer keeps them, and returns the comments that may hold suppression
/// directives and the page's text, to read after. html5ever's tokenizer does not read the page:
/// it told only which start tags there are and which attributes, which the walk, reading the
/// page with the tokenizer's states for its text, knows already, and where each is.
pub fn walk_page<'t>(
    text: &'t str,
    range: Range<usize>,
    on_tag: &mut dyn FnMut(&mut FoundTag<'t>),
) -> (Vec<Comment>, PageTextLeft<'t>) {
    let keep = max_deferred(range.len());
    walk_page_with(text, range, MAX_TOKENIZED_ATTRIBUTES, keep, on_tag)
}

/// [`walk_page`], a tag of more than `limit` attributes read as crowded, at most `keep` bytes
/// of the text kept: the tests lower both, so that crowded tags and a paused keeping are met in
/// small pages.
fn walk_page_with<'t>(
    text: &'t str,
    range: Range<usize>,
    limit: usize,
    keep: usize,
    on_tag: &mut dyn FnMut(&mut FoundTag<'t>),
) -> (Vec<Comment>, PageTextLeft<'t>) {
    let end = range.end;
    let mut comments = Vec::new();
    // The kept attributes of each tag in turn, in one list.
    let mut kept: Vec<RawAttribute> = Vec::new();
    let left = prescan_keeping(
        text,
        range,
        keep,
        (
            &mut |markup| {
                let (start, name, after, foreign, attributes, crowded) = match markup {
                    Markup::Comment(r) => {
                        let body = comment_body(text, r.start, r.end);
                        comments.extend(body.and_then(|body| Comment::directive(text, r, body)));
                        return;
                    }
                    Markup::StartTag {
                        start,
                        name,
                        end,
                        foreign,
                        attributes,
                        crowded,
                    } => (start, name, end, foreign, attributes, crowded),
                };
                // A tag without attributes has nothing to locate; one with a NUL in its name is not
                // in the source as the tokenizer reads it (U+FFFD there), and nothing of it is located.
                let written_name = &text[name.clone()];
                if (attributes.is_empty() && crowded.is_none())
                    || written_name.as_bytes().contains(&0)
                {
                    return;
                }
                kept.clear();
                for a in attributes {
                    let a_name = &text[a.name.clone()];
                    if !kept
                        .iter()
                        .any(|k| same_name(&text[k.name.clone()], a_name))
                    {
                        kept.push(a.clone());
                    }
                }
                // What html5ever's duplicate check cost: each kept attribute against those before.
                work::add(
                    Work::AttributeComparisons,
                    kept.len() * kept.len().saturating_sub(1) / 2,
                );
                let crowded = crowded.map(|c| Box::new(kept_attributes(text, &c, MAX_KEPT_NAMES)));
                let mut tag = FoundTag {
                    name: TagName::Written(lowercase_name(written_name)),
                    foreign,
                    attrs: Vec::new(),
                    text,
                    end,
                    place: Place::Found {
                        start,
                        name_end: name.end,
                        after,
                    },
                    written: crowded.is_none().then(|| std::mem::take(&mut kept)),
                    crowded,
                    index: None,
                };
                on_tag(&mut tag);
                if let Some(list) = tag.written.take() {
                    kept = list;
                }
            },
            limit,
        ),
    );
    (comments, left)
}

/// The start tags of the HTML page `text` that have attributes, every attribute located, and
/// its directive comments, as the page is read ([`walk_page`]): what the tests compare with
/// html5ever's reading ([`tokenized_page_tags`]).
#[doc(hidden)]
pub fn walked_page_tags(text: &str) -> (Vec<LocatedTag>, Vec<Comment>) {
    let mut tags = Vec::new();
    let (comments, _) = walk_page(text, 0..text.len(), &mut |t| tags.extend(t.into_located()));
    (tags, comments)
}

/// [`walked_page_tags`] with [`walk_page_with`]'s `limit` and `keep`, and the text it left.
#[cfg(test)]
pub(super) fn walked_page_tags_with(
    text: &str,
    limit: usize,
    keep: usize,
) -> (Vec<LocatedTag>, Vec<Comment>, PageTextLeft<'_>) {
    let mut tags = Vec::new();
    let (comments, left) = walk_page_with(text, 0..text.len(), limit, keep, &mut |t| {
        tags.extend(t.into_located())
    });
    (tags, comments, left)
}

/// [`walked_page_tags`] as html5ever's tokenizer reads the page (through [`scan`], as
/// pages were read before the walk's reading replaced it): the oracle.
#[doc(hidden)]
pub fn tokenized_page_tags(text: &str) -> (Vec<LocatedTag>, Vec<Comment>) {
    let mut tags = Vec::new();
    let comments = scan(text, 0..text.len(), &mut |t| {
        if t.len() > 0 {
            tags.extend(t.into_located());
        }
    });
    (tags, comments)
}

/// Where the page's one reading ([`walked_page_tags`]) and html5ever's ([`tokenized_page_tags`])
/// of `text` differ, the first difference; `None` when they agree: the same tags (name, where,
/// foreign or not) with the same attributes, each located alike (value, raw range, map). Where
/// the tokenizer's locating could not place an attribute (`exact` false: the source it found
/// does not decode to html5ever's value, as for a name with a NUL, U+FFFD to the tokenizer,
/// whose search takes a name written with U+FFFD for it), only the name and the value are
/// compared: the tokenizer's raw range and map are wrong there, so the walk's are not checked.
#[doc(hidden)]
pub fn page_readings_differ(text: &str) -> Option<String> {
    let (walked, walked_comments) = walked_page_tags(text);
    let (tokenized, tokenized_comments) = tokenized_page_tags(text);
    readings_differ((walked, walked_comments), (tokenized, tokenized_comments))
}

/// [`page_readings_differ`], the walk reading a tag of more than `limit` attributes as crowded
/// ([`kept_attributes`]) and keeping at most `keep` bytes of the text, the tokenizer a tag of
/// more than `tokenized_limit`: with 256, each crowded tag of the walk is compared with
/// html5ever's own reading of it.
#[cfg(test)]
pub(super) fn page_readings_differ_with(
    text: &str,
    limit: usize,
    tokenized_limit: usize,
    keep: usize,
) -> Option<String> {
    let (walked, walked_comments, _) = walked_page_tags_with(text, limit, keep);
    let mut tokenized = Vec::new();
    let tokenized_comments = scan_with_limit(
        text,
        0..text.len(),
        tokenized_limit,
        MAX_KEPT_NAMES,
        &mut |t| {
            if t.len() > 0 {
                tokenized.extend(t.into_located());
            }
        },
    );
    readings_differ((walked, walked_comments), (tokenized, tokenized_comments))
}

/// The first difference between the walk's reading and the tokenizer's, as
/// [`page_readings_differ`] tells it.
fn readings_differ(
    (walked, walked_comments): (Vec<LocatedTag>, Vec<Comment>),
    (tokenized, tokenized_comments): (Vec<LocatedTag>, Vec<Comment>),
) -> Option<String> {
    if walked_comments != tokenized_comments {
        return Some(format!(
            "comments {walked_comments:?}, tokenized {tokenized_comments:?}"
        ));
    }
    if walked.len() != tokenized.len() {
        return Some(format!(
            "{} tags, tokenized {}: {walked:?}, tokenized {tokenized:?}",
            walked.len(),
            tokenized.len()
        ));
    }
    for (w, t) in walked.iter().zip(&tokenized) {
        let same_tag = (&w.name, w.start, w.foreign, w.attributes.len())
            == (&t.name, t.start, t.foreign, t.attributes.len());
        let same_attributes = w.attributes.iter().zip(&t.attributes).all(|(a, b)| {
            if b.exact {
                a == b
            } else {
                (&a.name, &a.value) == (&b.name, &b.value)
            }
        });
        if !(same_tag && same_attributes) {
            return Some(format!("{w:?}, tokenized {t:?}"));
        }
    }
    None
}

/// Whether two attribute names as written are one name as the tokenizer keeps them
/// ([`normal_bytes`]).
fn same_name(a: &str, b: &str) -> bool {
    if a.as_bytes().contains(&0) || b.as_bytes().contains(&0) {
        return normal_bytes(a).eq(normal_bytes(b));
    }
    a.eq_ignore_ascii_case(b)
}

/// How much of the input the tokenizer is given at a time: it never holds a copy of a whole
/// large page.
const CHUNK: usize = 64 * 1024;

/// Hands every start tag of the HTML in `text[range]` to `on_tag` as the tokenizer finds it
/// (offsets in `text`), and returns the comments that may hold suppression directives.
pub fn scan<'t>(
    text: &'t str,
    range: Range<usize>,
    on_tag: &mut dyn FnMut(&mut FoundTag<'t>),
) -> Vec<Comment> {
    scan_with_limit(
        text,
        range,
        MAX_TOKENIZED_ATTRIBUTES,
        MAX_KEPT_NAMES,
        on_tag,
    )
}

/// [`scan`], with tags of more than `limit` attributes read by irilint ([`super::crowded`]).
fn scan_with_limit<'t>(
    text: &'t str,
    range: Range<usize>,
    limit: usize,
    most_names: usize,
    on_tag: &mut dyn FnMut(&mut FoundTag<'t>),
) -> Vec<Comment> {
    let crowded = crowded_tags(text, range.clone(), limit);
    scan_given(text, range, crowded, most_names, on_tag)
}

fn scan_given<'t>(
    text: &'t str,
    range: Range<usize>,
    crowded: Vec<Crowded>,
    most_names: usize,
    on_tag: &mut dyn FnMut(&mut FoundTag<'t>),
) -> Vec<Comment> {
    let blanks: Vec<Range<usize>> = crowded.iter().map(|c| c.blank.clone()).collect();
    let locator = Locator {
        text,
        end: range.end,
        feed: Feed::default(),
        cursor: Cell::new(range.start),
        foreign_depth: Cell::new(0),
        comments: RefCell::new(Vec::new()),
        on_tag: RefCell::new(on_tag),
        crowded: RefCell::new(crowded),
        next_crowded: Cell::new(0),
        tags: Cell::new(0),
        most_names,
    };
    let tokenizer = Tokenizer::new(locator, TokenizerOpts::default());
    let mut at = range.start;
    while at < range.end {
        let mut next = (at + CHUNK).min(range.end);
        while !text.is_char_boundary(next) {
            next += 1;
        }
        let feed = &tokenizer.sink.feed;
        match blanked(text, at..next, &blanks) {
            Some(copy) => feed.push_copy(&copy, next),
            None => feed.push(text, at, next),
        }
        let _ = tokenizer.feed(feed.queue());
        at = next;
    }
    tokenizer.end();
    tokenizer.sink.comments.take()
}

/// `text[chunk]` with the parts of `blanks` (sorted, on character boundaries) in it as spaces,
/// when it has any.
fn blanked(text: &str, chunk: Range<usize>, blanks: &[Range<usize>]) -> Option<String> {
    let first = blanks.partition_point(|b| b.end <= chunk.start);
    let inside = blanks[first..]
        .iter()
        .take_while(|b| b.start < chunk.end)
        .map(|b| b.start.max(chunk.start)..b.end.min(chunk.end))
        .filter(|b| !b.is_empty());
    let mut out = String::new();
    let mut at = chunk.start;
    for b in inside {
        out.push_str(&text[at..b.start]);
        out.extend(std::iter::repeat_n(' ', b.len()));
        at = b.end;
    }
    if at == chunk.start {
        return None;
    }
    out.push_str(&text[at..chunk.end]);
    Some(out)
}

fn locate(text: &str, found: Option<Range<usize>>, name: String, value: &str) -> LocatedAttribute {
    // A raw value that decodes to itself is compared with the tokenizer's in place.
    if let Some(r) = &found
        && decodes_to_itself(text, r.clone())
        && text[r.clone()] == *value
    {
        return LocatedAttribute::verbatim(name, r.clone());
    }
    let (decoded, map) = match &found {
        Some(r) => decode_attribute(text, r.clone()),
        None => (String::new(), SpanMap::default()),
    };
    if decoded == value {
        // The usual case: one copy of the value, irilint's, whose map is exact.
        return LocatedAttribute {
            name,
            value: decoded,
            raw: found,
            decoded: None,
            map,
            exact: true,
            verbatim: false,
        };
    }
    let mut coarse = SpanMap::default();
    coarse.push_replaced(value.len(), found.clone().unwrap_or(0..0));
    LocatedAttribute {
        name,
        value: value.to_string(),
        raw: found,
        decoded: Some(decoded),
        map: coarse,
        exact: false,
        verbatim: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(html: &str) -> Vec<LocatedTag> {
        start_tags(html, 0..html.len())
    }

    fn attr<'a>(t: &'a LocatedTag, name: &str) -> &'a LocatedAttribute {
        t.attributes.iter().find(|a| a.name == name).unwrap()
    }

    #[test]
    fn attributes_are_located_in_every_quoting_style() {
        let html = "<A HREF=\"/x\" title='t'><img src=/y.png alt=a\n  srcset = 'a.png 1x'>";
        let t = tags(html);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].name, "a");
        let href = attr(&t[0], "href");
        assert_eq!(&html[href.raw.clone().unwrap()], "/x");
        assert!(href.exact);
        let src = attr(&t[1], "src");
        assert_eq!(&html[src.raw.clone().unwrap()], "/y.png");
        let srcset = attr(&t[1], "srcset");
        assert_eq!(&html[srcset.raw.clone().unwrap()], "a.png 1x");
    }

    #[test]
    fn comments_scripts_and_styles_hide_tags() {
        let html = "<!-- <a href=1> --><script>x='<a href=2>'</script><style>a{}</style>\
                    <textarea><a href=3></textarea><a href=4>";
        let t = tags(html);
        let hrefs: Vec<&str> = t
            .iter()
            .filter(|t| t.name == "a")
            .map(|t| attr(t, "href").value.as_str())
            .collect();
        assert_eq!(hrefs, ["4"]);
        let a = t.iter().find(|t| t.name == "a").unwrap();
        assert_eq!(a.start, html.rfind("<a").unwrap());
    }

    #[test]
    fn duplicates_keep_the_first_and_values_decode() {
        let html = "<a href='/r&eacute;sum&#xE9;' HREF=/other>";
        let a = &tags(html)[0];
        assert_eq!(a.attributes.len(), 1);
        let href = attr(a, "href");
        assert_eq!(href.value, "/résumé");
        assert!(href.exact);
        assert_eq!(&html[href.map.to_source(2..4)], "&eacute;");
    }

    #[test]
    fn foreign_content_and_cdata() {
        let html = "<svg><![CDATA[<a href=1>]]><a xlink:href='#i'/></svg><p>";
        let t = tags(html);
        let a = t.iter().find(|t| t.name == "a").unwrap();
        assert!(a.foreign);
        let href = attr(a, "xlink:href");
        assert_eq!(href.value, "#i");
        // The look-alike in the CDATA section ends elsewhere than the tokenizer's tag.
        assert!(href.exact);
        assert_eq!(a.start, html.find("<a xlink").unwrap());
        assert!(!t.iter().find(|t| t.name == "p").unwrap().foreign);
    }

    #[test]
    fn tags_across_chunks_are_located_exactly() {
        // Each tag, reference and comment opener straddles a chunk's end at some padding.
        let unit = "<p>t<a href='/r&eacute;s&notit;?a=1&copy=2' title=\"x\r\ny\">&amp;</a><!--c--><img src=/i.png>";
        for pad in 0..unit.len() {
            let mut html = "x".repeat(CHUNK - 2 * unit.len() + pad);
            while html.len() < CHUNK + 2 * unit.len() {
                html.push_str(unit);
            }
            let mut count = 0;
            for t in tags(&html) {
                assert_eq!(
                    &html[t.start..t.start + 1 + t.name.len()],
                    format!("<{}", t.name)
                );
                for a in &t.attributes {
                    assert!(a.exact, "pad {pad}: <{} {}>", t.name, a.name);
                    count += 1;
                }
            }
            assert!(count >= 3 * 3, "pad {pad}: {count}");
        }
    }

    /// The start tags of `html` with every tag of more than `limit` attributes read by irilint.
    fn tags_with_limit(html: &str, limit: usize) -> Vec<LocatedTag> {
        let mut tags = Vec::new();
        scan_with_limit(html, 0..html.len(), limit, MAX_KEPT_NAMES, &mut |t| {
            tags.extend(t.into_located())
        });
        tags
    }

    /// Pieces of HTML that change the tokenizer's state: the pre-scan of crowded tags must read
    /// them as it does.
    const PIECES: &[&str] = &[
        "<a href='/x' title=\"t\">",
        "<a b c d e>",
        "<a/b/c/d>",
        "<img src=/i.png alt=a\n srcset = 'a.png 1x' =x>",
        "<a x='>' y=\"<b c d e>\" z=f/>",
        "<p a b c/>",
        "</p a b c>",
        "</>",
        "</ x y>",
        "<!-- <a b c d> -->",
        "<!-->",
        "<!--->",
        "--!>",
        "-->",
        "<!DOCTYPE html \"<a b c>\">",
        "<!bogus <a b c>>",
        "<?php <a b c> ?>",
        "<script>",
        "</script>",
        "<!--",
        "<script a b c>",
        "<style>",
        "</style>",
        "<textarea>",
        "</textarea x y z>",
        "<title>",
        "</title>",
        "<svg>",
        "</svg>",
        "<svg/>",
        "<math>",
        "<![CDATA[",
        "]]>",
        "<plaintext>",
        "&amp;",
        "&#x202E;",
        "&bogus",
        "\r\n",
        "\0",
        "<",
        ">",
        "\"",
        "'",
        "=",
        "/",
        " ",
        "x",
        "<a href=\"&eacute;",
        "\u{202E}",
    ];

    /// A tag's name, whether it is foreign, and its attributes' names and values.
    type SeenTag = (String, bool, Vec<(String, String)>);

    /// Each tag's name, whether foreign, and its attributes' names and values: what two readings
    /// are compared by where one of them cannot place a tag.
    fn seen(tags: Vec<LocatedTag>) -> Vec<SeenTag> {
        tags.into_iter()
            .map(|t| {
                let attributes = t
                    .attributes
                    .into_iter()
                    .map(|a| (a.name, a.value))
                    .collect();
                (t.name, t.foreign, attributes)
            })
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        #[test]
        fn crowded_tags_are_read_as_the_tokenizer_reads_them(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..30),
        ) {
            // With a limit of 0, every tag with an attribute is read by irilint: what it finds
            // must be what the tokenizer finds, tag for tag and attribute for attribute, each
            // value decoded the same. (Where they are is not compared: the pre-scan knows where
            // it read each tag, where the locator, when the tokenizer's input queue does not
            // tell, can take a look-alike in a CDATA section for it.)
            let html = pieces.concat();
            proptest::prop_assert_eq!(
                seen(tags_with_limit(&html, 0)),
                seen(tags(&html)),
                "{:?}",
                html
            );
        }
    }

    /// More pieces for the page's one reading: duplicates in any case, NULs, references,
    /// line ends in values, comment and script oddities, odd end tags.
    const SOUP: &[&str] = &[
        "<a href=x href=y HREF=z>",
        "<A HREF='&amp;x' Title=t>",
        "<a\0b href=/n>",
        "<a h\0ref=1 h\u{FFFD}ref=2 href=3>",
        "<img src=\"a\r\nb\" srcset='c 1x,\rd 2x'>",
        "<a href='x\0y'>",
        "<a href=\"&#x0;&#128;&#xD800;&#1114112;&notin;&noti&amp\">",
        "<meta http-equiv=refresh content='0;url=/r'>",
        "<svg><a xlink:href=q href=h></a></svg>",
        "<math><mi href=m>",
        "<script><!--",
        "<script><!--<script>",
        "</script",
        "--><a href=s>",
        "<!--!>",
        "<!--->",
        "<!-- irilint-disable -->",
        "<!--irilint-enable--!>",
        "<!-- irilint-",
        "</ ",
        "</\0>",
        "</a b='>'>",
        "<?x <a href=p>>",
        "<!doctype html>",
        "<!DOCTYPE x '<a href=d>'>",
        "<tEXTarea>",
        "</TEXTAREA>",
        "<xmp>",
        "</xmp >",
        "<noscript><a href=ns>",
        "<iframe src=i>",
        "</iframe>",
        "<title>",
        "</title/>",
        "<a href=\u{202E}x =y/ z>",
        "<é href=e>",
        "<a-b href=ab>",
        "<a href=\"",
        "<a href='",
        "<a ",
        "<a/",
        "<a href=x/>",
        "<base href=b>",
        "<div itemtype='t u' itemid=v xmlns:x=w>",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]

        /// A page's one reading hands on what html5ever's tokenizer reads, tag for tag (where it
        /// starts, in foreign content or not) and attribute for attribute (name, value, where
        /// it is, from each byte of the value to the source), and the same directive comments.
        #[test]
        fn a_page_is_read_once_as_the_tokenizer_reads_it(
            pieces in proptest::collection::vec(
                proptest::sample::select(PIECES.iter().chain(SOUP).copied().collect::<Vec<_>>()),
                0..40,
            ),
        ) {
            let html = pieces.concat();
            if html.contains("<![CDATA[") {
                // The oracle's locator, which searches the source for each token html5ever
                // gives, can take a look-alike in a CDATA section of foreign content for a tag
                // (`<math><![CDATA[<a href=x]]><a href=y>`) or the section for a comment (and
                // lose the directive after it): as in the crowded tags' test, such pages are
                // compared tag for tag without places, and without comments.
                let walked = seen(walked_page_tags(&html).0);
                proptest::prop_assert_eq!(&walked, &seen(tokenized_page_tags(&html).0), "{:?}", html);
                let walked_3 = seen(walked_page_tags_with(&html, 3, usize::MAX).0);
                proptest::prop_assert_eq!(&walked_3, &walked, "limit 3: {:?}", html);
            } else {
                let differ = page_readings_differ(&html);
                proptest::prop_assert!(differ.is_none(), "{:?}: {:?}", html, differ);
                // Pieces never make 257 attributes: the walk's crowded tags at a limit of 3 are
                // compared with html5ever's reading.
                let differ =
                    page_readings_differ_with(&html, 3, MAX_TOKENIZED_ATTRIBUTES, usize::MAX);
                proptest::prop_assert!(differ.is_none(), "limit 3: {:?}: {:?}", html, differ);
            }
        }
    }

    #[test]
    fn a_page_is_read_once_as_the_tokenizer_reads_it_on_the_edges() {
        let filler: String = (0..300).map(|k| format!(" d{k}=v")).collect();
        let pages = [
            "<a href=/1><!-- irilint-disable --><img src=/2 SRC=/3>".to_string(),
            format!("<a{filler} href=/c HREF=/d>x</a><img src=/after>"),
            format!("<svg><![CDATA[<a href=1>]]><a{filler} href=/e></svg>"),
            "<script>x</script><a href=/s><style><a href=no></style><plaintext><a href=no>"
                .to_string(),
        ];
        for html in &pages {
            let (walked, comments) = walked_page_tags(html);
            assert!(!walked.is_empty(), "{html}");
            assert_eq!((walked, comments), tokenized_page_tags(html), "{html}");
        }
    }

    #[test]
    fn a_tag_of_many_attributes_is_read_whole_in_linear_work() {
        let page = |n: usize| {
            let attributes: Vec<String> = (0..n).map(|i| format!("a{i}=x")).collect();
            format!(
                "<p>before</p><a {} xmlns:z='http://z/' href=\"/&eacute;\" a0=dup>x</a><img src=/after>",
                attributes.join(" ")
            )
        };
        for n in [10, 300, 5000] {
            let html = page(n);
            let t = tags(&html);
            let a = t.iter().find(|t| t.name == "a").unwrap();
            assert_eq!(a.attributes.len(), n + 2, "{n}");
            let href = attr(a, "href");
            assert_eq!((href.value.as_str(), href.exact), ("/é", true));
            assert_eq!(attr(a, "a0").value, "x");
            assert_eq!(a.start, html.find("<a ").unwrap());
            assert!(t.iter().any(|t| t.name == "img"));
        }
    }

    /// Past the most names its set holds, a crowded tag keeps every attribute whose name is not
    /// in the set, duplicates included: each is read, none missed.
    #[test]
    fn past_the_most_kept_names_attributes_are_all_kept() {
        let attributes: Vec<String> = (0..400).map(|i| format!("a{i}=x")).collect();
        let html = format!(
            "<a {} href=\"/x\" HREF=\"/y\" a0=dup a399=dup>x</a>",
            attributes.join(" ")
        );
        let read = |most: usize| {
            let mut tags = Vec::new();
            scan_with_limit(&html, 0..html.len(), 256, most, &mut |t| {
                tags.extend(t.into_located())
            });
            let a = tags.into_iter().next().unwrap();
            let values = |name: &str| -> Vec<String> {
                let named = a.attributes.iter().filter(|a| a.name == name);
                named.map(|a| a.value.clone()).collect()
            };
            (a.attributes.len(), values("href"), values("a399"))
        };
        // As the tokenizer keeps them: the first of each name.
        assert_eq!(
            read(MAX_KEPT_NAMES),
            (401, vec!["/x".into()], vec!["x".into()])
        );
        // 300 names in the set; the 100 after them, the two `href` and the second `a399` kept
        // too (the second `a0`, whose name the set holds, is dropped).
        assert_eq!(
            read(300),
            (
                403,
                vec!["/x".into(), "/y".into()],
                vec!["x".into(), "dup".into()]
            )
        );
    }

    #[test]
    fn truncated_markup_does_not_panic() {
        for html in [
            "<a href=\"x",
            "<a href=",
            "<",
            "<!--",
            "<a",
            "</",
            "<a href='&#x",
            "<svg><![CDATA[",
        ] {
            let _ = tags(html);
        }
    }

    /// Pieces of start tags: duplicate names in any case, every quoting, `/` and `=` in odd
    /// places, values holding `>` and quotes, text between tags.
    const TAG_PIECES: &[&str] = &[
        "<a",
        "<IMG",
        "<link",
        "<a/",
        " href=x",
        " HREF='y'",
        " href",
        " src=\"s>t\"",
        " Src",
        " srcset = 'a 1x'",
        " title=\"<a href=z>\"",
        " =",
        "=",
        " ping=p",
        "/",
        " ",
        "\t",
        ">",
        "/>",
        "'",
        "\"",
        "text",
        "&amp;",
        " x=1",
        " X",
        "<",
        "</a>",
        "<!-- <a href=c> -->",
    ];

    /// Where each located attribute's value is, read from a full list of the tag's raw
    /// attributes (the first of its name): what locating it without making that list must give.
    fn located_as_by_list(html: &str) {
        for t in tags(html) {
            let (raw, _) = scan_attributes(html, t.start + 1 + t.name.len(), html.len());
            for a in &t.attributes {
                let first = raw
                    .iter()
                    .find(|r| html[r.name.clone()].eq_ignore_ascii_case(&a.name))
                    .and_then(|r| r.value.clone());
                assert_eq!(a.raw, first, "{html:?}: {}", a.name);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

        /// An attribute located by reading its tag up to it is the one the tag's full list
        /// gives, in tags of a few attributes and of more than the few dozen a map is made for.
        #[test]
        fn attributes_are_located_as_the_full_list_locates_them(
            parts in proptest::collection::vec(proptest::sample::select(TAG_PIECES), 0..60),
            many in 0usize..3,
        ) {
            let mut html = parts.concat();
            if many > 0 {
                let filler: String = (0..40 * many).map(|k| format!(" d{k}=v")).collect();
                html = format!("<a{filler}{html}");
            }
            located_as_by_list(&html);
        }
    }

    #[test]
    fn attributes_are_located_as_the_full_list_locates_them_on_the_edges() {
        let filler: String = (0..40).map(|k| format!(" d{k}=v")).collect();
        for html in [
            "<a title=x HREF='/1' href=/2>",
            "<a href>",
            "<a href = \"/q\" href='/r'>",
            "<img srcset='a 1x' src=/s src=/t>",
            &format!("<a{filler} HREF=/u href=/v>"),
            &format!("<img{filler} src>"),
        ] {
            located_as_by_list(html);
        }
    }
}
