//! Tags with more attributes than html5ever is given.
//!
//! html5ever's tokenizer drops a tag's duplicate attributes by comparing each attribute it reads
//! with every one it kept before it in the tag: quadratic in the attributes of one tag (a tag of
//! 160,000 attributes took 23 s). So where the tokenizer still reads HTML (a page with template
//! markup actions, HTML inside other formats), it is first read once more with the tokenizer's
//! own states — data, tags and attributes, comments, doctypes, CDATA in foreign
//! content, RAWTEXT, RCDATA, script data with its escapes — and each tag with more than
//! [`MAX_TOKENIZED_ATTRIBUTES`] attributes, or with a value longer than [`MAX_TOKENIZED_VALUE`]
//! (whose copy in the tokenizer would sit beside the page), is found. The tokenizer is given such a tag with its
//! attributes blanked out (spaces of the same length, so that offsets stay those of the source):
//! it still opens or closes the element, and irilint reads the attributes itself, with the same
//! states, dropping duplicates with a set and decoding each value as it decodes every value
//! ([`super::charref::decode_attribute`]). Nothing is skipped: only who reads them changes.
//!
//! An HTML page is not tokenized at all: the same walk, which reads its text
//! ([`super::text_nodes`]), hands on each start tag with its attributes and each comment as it
//! reads them ([`Markup`]), the tags of many attributes as crowded tags, whose attributes are
//! read as above.

use std::ops::Range;

/// The most attributes a tag is tokenized with (real tags have a few dozen at most). Past it
/// the tokenizer's duplicate check would cost more than 256 × 256 / 2 comparisons for the tag.
pub const MAX_TOKENIZED_ATTRIBUTES: usize = 256;

/// The longest attribute value a tag is tokenized with. Past it the tokenizer's copy of the
/// value (grown by doubling, up to twice its size) would sit beside the page: irilint reads the
/// tag itself, and a value with nothing to decode is never copied but into its IRI.
pub const MAX_TOKENIZED_VALUE: usize = 1 << 20;

/// An attribute as written: its name and, when it has one, its raw value (inside the quotes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenAttribute {
    /// The name's range in the source.
    pub name: Range<usize>,
    /// The raw value's range, `None` without `=`.
    pub value: Option<Range<usize>>,
}

/// Where [`read_tag`] puts the attributes it reads, in order: a name, then maybe its value.
pub(super) trait Attributes {
    /// A name; false to stop reading before it (the tag is then left unread).
    fn push(&mut self, name: Range<usize>) -> bool;
    /// The value of the attribute pushed last.
    fn set_value(&mut self, value: Range<usize>);
}

/// How many attributes a tag has, and its longest value: all the pre-scan keeps of a tag; and,
/// when a start tag's attributes are handed on ([`Markup::StartTag`]), the first `keep` of them
/// as written (a list kept from tag to tag: no allocation per tag).
#[derive(Default)]
pub(super) struct Counted {
    attributes: usize,
    longest_value: usize,
    keep: usize,
    list: Vec<WrittenAttribute>,
}

impl Counted {
    /// Ready for the next tag, listing its first `keep` attributes.
    fn reset(&mut self, keep: usize) {
        self.attributes = 0;
        self.longest_value = 0;
        self.keep = keep;
        self.list.clear();
    }
}

impl Attributes for Counted {
    fn push(&mut self, name: Range<usize>) -> bool {
        self.attributes += 1;
        if self.attributes <= self.keep {
            self.list.push(WrittenAttribute { name, value: None });
        }
        true
    }

    fn set_value(&mut self, value: Range<usize>) {
        self.longest_value = self.longest_value.max(value.len());
        if self.attributes <= self.keep
            && let Some(last) = self.list.last_mut()
        {
            last.value = Some(value);
        }
    }
}

/// Where a [`walk`] hands on the page's markup ([`Markup`]), and the most attributes of a tag
/// it lists (a tag of more is handed on as crowded).
pub(super) type MarkupSink<'s> = (&'s mut dyn FnMut(Markup<'_>), usize);

/// What a [`walk`] hands on of a page's markup when asked to: what html5ever's tokenizer would
/// give a sink of, read once by the walk (the page is not tokenized again).
pub(super) enum Markup<'a> {
    /// A start tag.
    StartTag {
        /// Its `<`.
        start: usize,
        /// Its name as written (compared in place, not copied).
        name: Range<usize>,
        /// Just after its `>`.
        end: usize,
        /// Inside `<svg>` or `<math>`, or one of them.
        foreign: bool,
        /// Its attributes as written, duplicates included; empty for a crowded tag.
        attributes: &'a [WrittenAttribute],
        /// A tag of more attributes than listed: they are read again when asked for.
        crowded: Option<Crowded>,
    },
    /// A `<!--` comment, from its `<!--` to just after its end.
    Comment(Range<usize>),
}

/// Hands each attribute over once its value is known (when the next one starts, or the tag
/// ends): a tag's attributes are never held together.
struct Each<F: FnMut(WrittenAttribute)> {
    pending: Option<WrittenAttribute>,
    each: F,
}

impl<F: FnMut(WrittenAttribute)> Attributes for Each<F> {
    fn push(&mut self, name: Range<usize>) -> bool {
        if let Some(done) = self.pending.replace(WrittenAttribute { name, value: None }) {
            (self.each)(done);
        }
        true
    }

    fn set_value(&mut self, value: Range<usize>) {
        if let Some(last) = &mut self.pending {
            last.value = Some(value);
        }
    }
}

/// A tag with more than the limit of attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crowded {
    /// Offset of its `<`.
    pub start: usize,
    /// Just after its `>`.
    pub end: usize,
    /// What the tokenizer is given as spaces: from just after the tag name to its `>` (or to
    /// the `/` of its `/>`).
    pub blank: Range<usize>,
    /// Where its name starts (after `<` or `</`).
    pub name_at: usize,
    /// How many attributes it has, duplicates included (an end tag's are ignored, as the
    /// tokenizer ignores them). They are read again when the tag is reached
    /// ([`Crowded::each_attribute`]), not kept: 2.5 million of them, 10 MB, took 213 MB.
    pub attributes: usize,
    /// An end tag.
    pub end_tag: bool,
    /// How many tags (start and end) come before it: the tokenizer emits one token per tag
    /// read here, so this says which of its tag tokens this one is.
    pub ordinal: usize,
}

impl Crowded {
    /// Hands each of its attributes to `each`, in order, duplicates included.
    pub fn each_attribute(&self, text: &str, each: impl FnMut(WrittenAttribute)) {
        let mut sink = Each {
            pending: None,
            each,
        };
        read_tag(text.as_bytes(), self.name_at, self.end, &mut sink);
        if let Some(last) = sink.pending.take() {
            (sink.each)(last);
        }
    }
}

/// Keeps the first attribute pushed, and stops at the next, keeping where its name starts.
#[derive(Default)]
struct First {
    first: Option<WrittenAttribute>,
    next: Option<usize>,
}

impl Attributes for First {
    fn push(&mut self, name: Range<usize>) -> bool {
        if self.first.is_some() {
            self.next = Some(name.start);
            return false;
        }
        self.first = Some(WrittenAttribute { name, value: None });
        true
    }

    fn set_value(&mut self, value: Range<usize>) {
        if let Some(first) = &mut self.first {
            first.value = Some(value);
        }
    }
}

/// The attribute of a crowded tag whose name starts at `name` (as [`Crowded::each_attribute`]
/// gave it), read again from the source up to the next attribute or the tag's end `end`, and
/// where the next attribute's name starts: a crowded tag's attributes are not kept, each is read
/// when it is asked for.
pub fn attribute_at(text: &str, name: usize, end: usize) -> (WrittenAttribute, Option<usize>) {
    let mut first = First::default();
    read_attributes(text.as_bytes(), name, end, &mut first);
    let attribute = first.first.unwrap_or(WrittenAttribute {
        name: name..name,
        value: None,
    });
    (attribute, first.next)
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

/// A table of the bytes ending a run of a name or of an unquoted value: ASCII whitespace, `>`
/// and `also`. The loops over such runs look each byte up, not compare it with each.
const fn ends_run(also: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = matches!(c as u8, b'\t' | b'\n' | 0x0C | b'\r' | b' ' | b'>');
        c += 1;
    }
    let mut k = 0;
    while k < also.len() {
        t[also[k] as usize] = true;
        k += 1;
    }
    t
}

/// The bytes that end a tag's name.
const ENDS_TAG_NAME: [bool; 256] = ends_run(b"/");

/// The bytes that end an attribute's name.
const ENDS_NAME: [bool; 256] = ends_run(b"/=");

/// The bytes that end an unquoted attribute value.
const ENDS_UNQUOTED: [bool; 256] = ends_run(b"");

/// How many bytes [`find_byte`] looks at one by one before it calls `memchr`.
const NEAR: usize = 16;

/// The first `needle` in `haystack`. The text between two tags is most often a few bytes (a
/// line end, a word): they are looked at one by one first, where a call of `memchr` costs
/// about 40 instructions to set itself up, once per tag of a page. (Quoted values are longer:
/// looked at so, they cost more than with `memchr` at once.)
fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    let near = haystack.len().min(NEAR);
    match haystack[..near].iter().position(|&c| c == needle) {
        Some(k) => Some(k),
        None => memchr::memchr(needle, &haystack[near..]).map(|k| near + k),
    }
}

/// A tag as read from its name on (its attributes handed to an [`Attributes`]).
pub(super) struct ReadTag {
    /// Where the name starts (it is compared in place, ignoring ASCII case: a copy of each
    /// tag's name cost about 5 instructions per byte of a page).
    pub name_at: usize,
    /// Just after the name.
    pub name_end: usize,
    /// Just after the `>`.
    pub end: usize,
    /// Written `/>`.
    pub self_closing: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum AttributeState {
    BeforeName,
    Name,
    AfterName,
    BeforeValue,
    Quoted(u8),
    Unquoted,
    AfterQuoted,
    SelfClosing,
}

/// The name of a crowded tag's attribute that starts at `at` (as [`Crowded::each_attribute`]
/// gave it), its value left unread: its first byte, then up to a space, `/`, `=` or `>`, or the
/// tag's end `end`.
pub fn name_at(text: &str, at: usize, end: usize) -> Range<usize> {
    let b = text.as_bytes();
    let mut i = (at + 1).min(end);
    while i < end && !is_space(b[i]) && !matches!(b[i], b'/' | b'=' | b'>') {
        i += 1;
    }
    at..i
}

/// Reads the tag whose name starts at `from` (after `<` or `</`) as the tokenizer does, to
/// just after its `>`; `None` when the input ends first (the tokenizer then emits no tag).
pub(super) fn read_tag(
    b: &[u8],
    from: usize,
    end: usize,
    attributes: &mut impl Attributes,
) -> Option<ReadTag> {
    let mut i = from;
    while i < end && !ENDS_TAG_NAME[usize::from(b[i])] {
        i += 1;
    }
    let name_end = i;
    // Most tags end with their name (`</p>`, `<li>`): what the attribute states would say at
    // once, without entering them.
    let (end, self_closing) = if i < end && b[i] == b'>' {
        (i + 1, false)
    } else {
        read_attributes(b, name_end, end, attributes)?
    };
    Some(ReadTag {
        name_at: from,
        name_end,
        end,
        self_closing,
    })
}

/// Reads a tag's attributes from `from` (after its name, or where one of its attribute names
/// starts) as the tokenizer does, to just after its `>`: that offset, and whether the tag is
/// self-closing. `None` when the input ends first, or `attributes` stops the reading.
fn read_attributes(
    b: &[u8],
    from: usize,
    end: usize,
    attributes: &mut impl Attributes,
) -> Option<(usize, bool)> {
    let mut i = from;
    let mut state = AttributeState::BeforeName;
    let mut name_start = 0;
    let mut value_start = 0;
    let done = |i: usize, self_closing: bool| Some((i + 1, self_closing));
    use AttributeState as S;
    while i < end {
        let c = b[i];
        match state {
            S::BeforeName => match c {
                _ if is_space(c) => {}
                b'/' => state = S::SelfClosing,
                b'>' => return done(i, false),
                _ => {
                    name_start = i;
                    state = S::Name;
                }
            },
            S::Name => {
                let next = match c {
                    _ if is_space(c) => Some(S::AfterName),
                    b'/' => Some(S::SelfClosing),
                    b'=' => Some(S::BeforeValue),
                    b'>' => {
                        if !attributes.push(name_start..i) {
                            return None;
                        }
                        return done(i, false);
                    }
                    _ => None,
                };
                if let Some(next) = next {
                    if !attributes.push(name_start..i) {
                        return None;
                    }
                    state = next;
                } else {
                    // The rest of the name in one tight loop, not a state dispatch per byte.
                    i += 1;
                    while i < end && !ENDS_NAME[usize::from(b[i])] {
                        i += 1;
                    }
                    continue;
                }
            }
            S::AfterName => match c {
                _ if is_space(c) => {}
                b'/' => state = S::SelfClosing,
                b'=' => state = S::BeforeValue,
                b'>' => return done(i, false),
                _ => {
                    name_start = i;
                    state = S::Name;
                }
            },
            S::BeforeValue => match c {
                _ if is_space(c) => {}
                b'"' | b'\'' => {
                    value_start = i + 1;
                    state = S::Quoted(c);
                }
                b'>' => {
                    attributes.set_value(i..i);
                    return done(i, false);
                }
                _ => {
                    value_start = i;
                    state = S::Unquoted;
                    continue;
                }
            },
            S::Quoted(q) => {
                let close = memchr::memchr(q, &b[i..end])? + i;
                attributes.set_value(value_start..close);
                i = close + 1;
                state = S::AfterQuoted;
                continue;
            }
            S::Unquoted => {
                if is_space(c) || c == b'>' {
                    attributes.set_value(value_start..i);
                    if c == b'>' {
                        return done(i, false);
                    }
                    state = S::BeforeName;
                } else {
                    i += 1;
                    while i < end && !ENDS_UNQUOTED[usize::from(b[i])] {
                        i += 1;
                    }
                    continue;
                }
            }
            S::AfterQuoted => match c {
                _ if is_space(c) => state = S::BeforeName,
                b'/' => state = S::SelfClosing,
                b'>' => return done(i, false),
                _ => {
                    state = S::BeforeName;
                    continue;
                }
            },
            S::SelfClosing => {
                if c == b'>' {
                    return done(i, true);
                }
                state = S::BeforeName;
                continue;
            }
        }
        i += 1;
    }
    None
}

/// What the tokenizer reads after a start tag (the switches of [`super::tags`]'s sink).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Text {
    Data,
    /// RAWTEXT or RCDATA: text up to the appropriate end tag.
    Raw,
    Script,
    Plaintext,
}

/// At `i` (just after `</`), an end tag named `name` (an appropriate end tag): the name, then
/// whitespace, `/` or `>`.
pub(super) fn is_end_tag_of(b: &[u8], i: usize, end: usize, name: &[u8]) -> bool {
    let n = name.len();
    i + n < end && b[i..i + n].eq_ignore_ascii_case(name) && {
        let c = b[i + n];
        is_space(c) || c == b'/' || c == b'>'
    }
}

/// The `<` of the end tag of the script that starts at `from` (script data, with its escaped
/// and double-escaped states), or `None` when the input ends first.
pub(super) fn script_end(b: &[u8], from: usize, end: usize) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum S {
        Data,
        Escaped,
        EscapedDash,
        EscapedDashDash,
        Double,
        DoubleDash,
        DoubleDashDash,
    }
    let letters_end = |i: usize| {
        let mut k = i;
        while k < end && b[k].is_ascii_alphabetic() {
            k += 1;
        }
        k
    };
    let mut state = S::Data;
    let mut i = from;
    while i < end {
        let c = b[i];
        match state {
            S::Data => {
                let k = memchr::memchr(b'<', &b[i..end])? + i;
                if b.get(k + 1) == Some(&b'/') && is_end_tag_of(b, k + 2, end, b"script") {
                    return Some(k);
                }
                // `<!--` enters the escaped state (the `<!` then `-` `-`).
                if b.get(k + 1..k + 4) == Some(b"!--") && k + 4 <= end {
                    i = k + 4;
                    state = S::EscapedDashDash;
                    continue;
                }
                i = k + 1;
                continue;
            }
            S::Escaped | S::EscapedDash | S::EscapedDashDash => match c {
                b'-' => {
                    state = match state {
                        S::Escaped => S::EscapedDash,
                        _ => S::EscapedDashDash,
                    }
                }
                b'<' => {
                    if b.get(i + 1) == Some(&b'/') && is_end_tag_of(b, i + 2, end, b"script") {
                        return Some(i);
                    }
                    let k = letters_end(i + 1);
                    let starts_double = k > i + 1
                        && b[i + 1..k].eq_ignore_ascii_case(b"script")
                        && k < end
                        && (is_space(b[k]) || b[k] == b'/' || b[k] == b'>');
                    state = S::Escaped;
                    if starts_double {
                        i = k + 1;
                        state = S::Double;
                        continue;
                    }
                }
                b'>' if state == S::EscapedDashDash => state = S::Data,
                _ => state = S::Escaped,
            },
            S::Double | S::DoubleDash | S::DoubleDashDash => match c {
                b'-' => {
                    state = match state {
                        S::Double => S::DoubleDash,
                        _ => S::DoubleDashDash,
                    }
                }
                b'<' => {
                    state = S::Double;
                    if b.get(i + 1) == Some(&b'/') {
                        let k = letters_end(i + 2);
                        let ends_double = b[i + 2..k].eq_ignore_ascii_case(b"script")
                            && k < end
                            && (is_space(b[k]) || b[k] == b'/' || b[k] == b'>');
                        if ends_double {
                            i = k + 1;
                            state = S::Escaped;
                            continue;
                        }
                    }
                }
                b'>' if state == S::DoubleDashDash => state = S::Data,
                _ => state = S::Double,
            },
        }
        i += 1;
    }
    None
}

/// Every tag of `text[range]` with more than `limit` attributes, in order, read as the
/// tokenizer of [`super::tags::scan`] reads the HTML (with the same switches to RAWTEXT, RCDATA,
/// script data and plain text, and the same approximation of foreign content: inside `<svg>`
/// or `<math>` until its end tag).
pub fn crowded_tags(text: &str, range: Range<usize>, limit: usize) -> Vec<Crowded> {
    let mut out = Vec::new();
    walk(
        text,
        range.end,
        Walk::new(range.start),
        &mut NoText,
        Some((&mut out, limit)),
        None,
    );
    out
}

/// What a [`walk`] of a page hands on of its text (the HTML text reader,
/// [`super::text_nodes`]): the data text shown as text, where it is cut, and the start tags
/// past ASCII (which may hold a false separator, [`super::unlinked`]).
pub(super) trait PageText {
    /// Whether the text is still wanted; once false, the walk only hands on markup (or finds
    /// crowded tags), and is resumed from [`walk`]'s answer, for the text, by a second walk.
    fn reading(&mut self) -> bool;
    /// Data text shown to a reader (not code, not foreign content).
    fn push(&mut self, part: Range<usize>);
    /// Markup that is no inline element ends the text read so far.
    fn flush(&mut self);
    /// The start tag `text[start..tag_end]` has a byte past ASCII; `foreign`: inside `<svg>`
    /// or `<math>` (or one of them).
    fn non_ascii_tag(&mut self, start: usize, tag_end: usize, foreign: bool);
}

/// A walk that wants no text: [`crowded_tags`] alone.
struct NoText;

impl PageText for NoText {
    fn reading(&mut self) -> bool {
        false
    }
    fn push(&mut self, _: Range<usize>) {}
    fn flush(&mut self) {}
    fn non_ascii_tag(&mut self, _: usize, _: usize, _: bool) {}
}

/// Where a [`walk`] is between two constructs: all it needs to go on from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Walk {
    /// Where the search for the next `<` starts.
    i: usize,
    /// Where the text not yet pushed starts.
    data: usize,
    foreign_depth: usize,
    /// Open code elements ([`Name::code`]) outside foreign content.
    code_depth: usize,
}

impl Walk {
    /// A walk from `start`, in data.
    pub(super) fn new(start: usize) -> Walk {
        Walk {
            i: start,
            data: start,
            foreign_depth: 0,
            code_depth: 0,
        }
    }
}

/// What the walk asks of a tag's name, answered from one lowercased copy of it on the stack:
/// each question lowercased the name again (three or four times per tag, about 35 M
/// instructions on 31 MB of the corpus's pages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Name {
    /// An inline element whose tags a reader's selection goes through: the text before and
    /// after is one text.
    joins_text: bool,
    /// An element whose text is code or not shown as text (its end tag ends it).
    code: bool,
    /// `svg` or `math`: foreign content starts.
    foreign_root: bool,
    /// What the tokenizer reads after it as a start tag.
    text: Text,
}

impl Name {
    /// The longest name any answer depends on (`plaintext`).
    const LONGEST: usize = 9;

    fn of(name: &[u8]) -> Name {
        const DATA: Name = Name {
            joins_text: false,
            code: false,
            foreign_root: false,
            text: Text::Data,
        };
        let mut buf = [0u8; Name::LONGEST];
        let Some(low) = buf.get_mut(..name.len()) else {
            return DATA;
        };
        for (l, c) in low.iter_mut().zip(name) {
            *l = c.to_ascii_lowercase();
        }
        // One `match` on the name gives all four answers: four questions asked one after the
        // other compared the name with their lists four times (about 64 instructions a tag).
        const JOINS: Name = Name {
            joins_text: true,
            ..DATA
        };
        const CODE: Name = Name { code: true, ..DATA };
        const FOREIGN: Name = Name {
            foreign_root: true,
            ..DATA
        };
        const RAW: Name = Name {
            text: Text::Raw,
            ..DATA
        };
        match &*low {
            b"a" | b"abbr" | b"b" | b"big" | b"cite" | b"data" | b"del" | b"dfn" | b"em"
            | b"font" | b"i" | b"ins" | b"mark" | b"nobr" | b"q" | b"s" | b"small" | b"span"
            | b"strike" | b"strong" | b"sub" | b"sup" | b"time" | b"u" | b"wbr" => JOINS,
            b"pre" | b"code" | b"kbd" | b"samp" | b"tt" | b"var" | b"listing" | b"template" => CODE,
            b"svg" | b"math" => FOREIGN,
            b"script" => Name {
                text: Text::Script,
                ..DATA
            },
            b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" | b"title" | b"textarea" => {
                RAW
            }
            b"plaintext" => Name {
                text: Text::Plaintext,
                ..DATA
            },
            _ => DATA,
        }
    }
}

/// Walks the HTML of `text[..end]` from `state` with the tokenizer's states (tags and their
/// attributes, comments, doctypes and bogus comments, CDATA in foreign content, RAWTEXT,
/// RCDATA, script data, plain text), handing its text to `page` while `page` is
/// [`PageText::reading`], and each tag of more than `crowded.1` attributes (or with a value
/// longer than [`MAX_TOKENIZED_VALUE`]) to `crowded.0` (for the tokenizer, [`crowded_tags`]).
/// A page's one walk reads its text and hands on its markup; when `page` stops reading, the
/// walk returns where it stopped, for a walk of the text alone from there.
///
/// With `markup`, each start tag (with its attributes, listed up to `markup.1` of them, else
/// handed on as crowded) and each `<!--` comment is handed to `markup.0` as it is read.
pub(super) fn walk(
    text: &str,
    end: usize,
    state: Walk,
    page: &mut impl PageText,
    mut crowded: Option<(&mut Vec<Crowded>, usize)>,
    mut markup: Option<MarkupSink<'_>>,
) -> Option<Walk> {
    let b = text.as_bytes();
    crate::work::add(crate::work::Work::MarkupWalk, end.saturating_sub(state.i));
    let mut paused = None;
    let mut reading = page.reading();
    let mut tags = 0;
    let mut counted = Counted::default();
    let Walk {
        mut i,
        mut data,
        mut foreign_depth,
        mut code_depth,
    } = state;
    let gt_after = |from: usize| memchr::memchr(b'>', &b[from.min(end)..end]).map(|k| from + k + 1);
    let shown = |reading: bool, foreign: usize, code: usize| reading && foreign == 0 && code == 0;
    while let Some(k) = find_byte(b'<', &b[i.min(end)..end]) {
        if reading && !page.reading() {
            paused = Some(Walk {
                i,
                data,
                foreign_depth,
                code_depth,
            });
            reading = false;
        }
        let p = i + k;
        i = p + 1;
        let next = b.get(p + 1).copied().filter(|_| p + 1 < end);
        let (name_at, end_tag) = match next {
            Some(c) if c.is_ascii_alphabetic() => (p + 1, false),
            Some(b'/') => match b.get(p + 2).copied().filter(|_| p + 2 < end) {
                Some(c) if c.is_ascii_alphabetic() => (p + 2, true),
                Some(b'>') => {
                    // `</>` is nothing at all.
                    if shown(reading, foreign_depth, code_depth) {
                        page.push(data..p);
                    }
                    i = p + 3;
                    data = i;
                    continue;
                }
                Some(_) => {
                    // A bogus comment, to the next `>`.
                    if shown(reading, foreign_depth, code_depth) {
                        page.push(data..p);
                    }
                    if reading {
                        page.flush();
                    }
                    let Some(after) = gt_after(p + 2) else {
                        data = end;
                        break;
                    };
                    i = after;
                    data = i;
                    continue;
                }
                None => break,
            },
            Some(b'!') | Some(b'?') => {
                if shown(reading, foreign_depth, code_depth) {
                    page.push(data..p);
                }
                if reading {
                    page.flush();
                }
                let rest = &b[p..end];
                let after = if rest.starts_with(b"<!--") {
                    let after = comment_end(text, p, end);
                    if let Some((on, _)) = markup.as_mut() {
                        on(Markup::Comment(p..after));
                    }
                    Some(after)
                } else if foreign_depth > 0 && rest.starts_with(b"<![CDATA[") {
                    Some(
                        memchr::memmem::find(&b[p + 9..end], b"]]>").map_or(end, |k| p + 9 + k + 3),
                    )
                } else {
                    // A doctype, a processing instruction or a bogus comment: to the next `>`
                    // (even in quotes).
                    gt_after(p + 1)
                };
                let Some(after) = after else {
                    data = end;
                    break;
                };
                i = after;
                data = i;
                continue;
            }
            // A `<` that starts no markup is text.
            _ => continue,
        };
        let keep = match &markup {
            Some((_, limit)) if !end_tag => *limit,
            _ => 0,
        };
        counted.reset(keep);
        let Some(tag) = read_tag(b, name_at, end, &mut counted) else {
            // An unclosed tag at the end: the tokenizer emits nothing from here.
            if shown(reading, foreign_depth, code_depth) {
                page.push(data..p);
            }
            data = end;
            break;
        };
        if let Some((out, limit)) = crowded.as_mut() {
            if counted.attributes > *limit || counted.longest_value > MAX_TOKENIZED_VALUE {
                let before_gt = tag.end - 1;
                let blank_end = if tag.self_closing {
                    before_gt - 1
                } else {
                    before_gt
                };
                out.push(Crowded {
                    start: p,
                    end: tag.end,
                    blank: tag.name_end..blank_end.max(tag.name_end),
                    name_at,
                    attributes: counted.attributes,
                    end_tag,
                    ordinal: tags,
                });
            }
            tags += 1;
        }
        if shown(reading, foreign_depth, code_depth) {
            page.push(data..p);
        }
        i = tag.end;
        data = i;
        let name = Name::of(&b[tag.name_at..tag.name_end]);
        if reading && !name.joins_text {
            page.flush();
        }
        let is_foreign_root = name.foreign_root;
        if reading && !end_tag && !b[p..tag.end].is_ascii() {
            page.non_ascii_tag(p, tag.end, foreign_depth > 0 || is_foreign_root);
        }
        if end_tag {
            if is_foreign_root {
                foreign_depth = foreign_depth.saturating_sub(1);
            } else if reading && foreign_depth == 0 && name.code {
                code_depth = code_depth.saturating_sub(1);
            }
            continue;
        }
        let depth = foreign_depth;
        if is_foreign_root && !tag.self_closing {
            foreign_depth += 1;
        }
        if let Some((on, limit)) = markup.as_mut() {
            // As the tokenizer would be given it: past the limit (or with a value too long to
            // be copied), a crowded tag whose attributes are read again when asked for.
            let is_crowded =
                counted.attributes > *limit || counted.longest_value > MAX_TOKENIZED_VALUE;
            // (No blank and no ordinal: no tokenizer is given this page.)
            let crowded = is_crowded.then_some(Crowded {
                start: p,
                end: tag.end,
                blank: tag.name_end..tag.name_end,
                name_at,
                attributes: counted.attributes,
                end_tag: false,
                ordinal: 0,
            });
            on(Markup::StartTag {
                start: p,
                name: tag.name_at..tag.name_end,
                end: tag.end,
                foreign: depth > 0 || is_foreign_root,
                attributes: if is_crowded { &[] } else { &counted.list },
                crowded,
            });
        }
        if depth > 0 {
            continue;
        }
        if reading && name.code {
            code_depth += 1;
        }
        // The text that follows, up to the end tag (which is read as a tag, next round), is
        // never read.
        match name.text {
            Text::Data => {}
            Text::Plaintext => {
                data = end;
                break;
            }
            Text::Raw => {
                let mut at = i;
                loop {
                    let Some(k) = memchr::memmem::find(&b[at.min(end)..end], b"</") else {
                        return paused;
                    };
                    if is_end_tag_of(b, at + k + 2, end, &b[tag.name_at..tag.name_end]) {
                        i = at + k;
                        break;
                    }
                    at += k + 1;
                }
                data = i;
            }
            Text::Script => match script_end(b, i, end) {
                Some(k) => {
                    i = k;
                    data = i;
                }
                None => return paused,
            },
        }
    }
    if reading {
        if data < end && shown(reading, foreign_depth, code_depth) {
            page.push(data..end);
        }
        page.flush();
    }
    paused
}

/// Just after the comment or bogus comment starting at `p`.
pub(super) fn comment_end(text: &str, p: usize, end: usize) -> usize {
    let rest = &text[p..end];
    if let Some(body) = rest.strip_prefix("<!--") {
        if body.starts_with('>') {
            return p + 5;
        }
        if body.starts_with("->") {
            return p + 6;
        }
        // The first `>` after `--` or `--!`: one scan to the close (a search for each form
        // through the rest of the page made a page of comments closed by one form quadratic).
        let b = body.as_bytes();
        let close = memchr::memchr_iter(b'>', b)
            .find(|&j| b[..j].ends_with(b"--") || b[..j].ends_with(b"--!"));
        crate::work::add(
            crate::work::Work::CommentScan,
            close.map_or(b.len(), |j| j + 1),
        );
        return close.map_or(end, |j| p + 4 + j + 1);
    }
    rest.find('>').map_or(end, |k| p + k + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_ends_at_its_first_closing_form() {
        // What searching for each form gives, and the earliest of the two.
        let by_search = |text: &str| -> usize {
            let body = &text[4..];
            if body.starts_with('>') {
                return 5;
            }
            if body.starts_with("->") {
                return 6;
            }
            let ends = [
                body.find("-->").map(|k| k + 3),
                body.find("--!>").map(|k| k + 4),
            ];
            ends.into_iter()
                .flatten()
                .min()
                .map_or(text.len(), |k| 4 + k)
        };
        let pieces = ["-", "!", ">", "a", "--", "->", "<!--"];
        for text in &crate::extract::joinings("<!--", &pieces, 5) {
            assert_eq!(
                comment_end(text, 0, text.len()),
                by_search(text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn find_byte_finds_what_memchr_finds() {
        for len in 0..3 * NEAR {
            for at in 0..=len {
                let mut hay = vec![b'x'; len];
                if let Some(c) = hay.get_mut(at) {
                    *c = b'<';
                }
                // A second one after the first: the first is found.
                if let Some(c) = hay.get_mut(at + 3) {
                    *c = b'<';
                }
                assert_eq!(
                    find_byte(b'<', &hay),
                    memchr::memchr(b'<', &hay),
                    "{len} {at}"
                );
            }
        }
    }

    /// The one `match` of [`Name::of`] answers what the four questions it replaced answered.
    #[test]
    fn a_name_answers_as_its_four_questions_did() {
        let asked = |name: &str| {
            let low = name.to_ascii_lowercase();
            let low = low.as_bytes();
            Name {
                joins_text: name.len() <= Name::LONGEST
                    && matches!(
                        low,
                        b"a" | b"abbr"
                            | b"b"
                            | b"big"
                            | b"cite"
                            | b"data"
                            | b"del"
                            | b"dfn"
                            | b"em"
                            | b"font"
                            | b"i"
                            | b"ins"
                            | b"mark"
                            | b"nobr"
                            | b"q"
                            | b"s"
                            | b"small"
                            | b"span"
                            | b"strike"
                            | b"strong"
                            | b"sub"
                            | b"sup"
                            | b"time"
                            | b"u"
                            | b"wbr"
                    ),
                code: matches!(
                    low,
                    b"pre" | b"code" | b"kbd" | b"samp" | b"tt" | b"var" | b"listing" | b"template"
                ),
                foreign_root: matches!(low, b"svg" | b"math"),
                text: match low {
                    b"script" => Text::Script,
                    b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" | b"title"
                    | b"textarea" => Text::Raw,
                    b"plaintext" => Text::Plaintext,
                    _ => Text::Data,
                },
            }
        };
        let names = [
            "a",
            "A",
            "abbr",
            "b",
            "big",
            "cite",
            "data",
            "del",
            "dfn",
            "em",
            "font",
            "i",
            "ins",
            "mark",
            "nobr",
            "q",
            "s",
            "small",
            "span",
            "SPAN",
            "strike",
            "strong",
            "sub",
            "sup",
            "time",
            "u",
            "wbr",
            "pre",
            "Pre",
            "code",
            "kbd",
            "samp",
            "tt",
            "var",
            "listing",
            "template",
            "svg",
            "SVG",
            "math",
            "script",
            "Script",
            "style",
            "xmp",
            "iframe",
            "noembed",
            "noframes",
            "title",
            "textarea",
            "plaintext",
            "PLAINTEXT",
            "p",
            "div",
            "td",
            "li",
            "table",
            "plaintexts",
            "spa",
            "spans",
            "x-span",
            "h1",
            "",
            "\u{e9}",
        ];
        for name in names {
            assert_eq!(Name::of(name.as_bytes()), asked(name), "{name}");
        }
    }

    fn crowded(html: &str, limit: usize) -> Vec<(usize, usize, bool, usize)> {
        crowded_tags(html, 0..html.len(), limit)
            .into_iter()
            .map(|c| (c.start, c.end, c.end_tag, c.attributes))
            .collect()
    }

    #[test]
    fn attributes_are_counted_as_the_tokenizer_reads_them() {
        // Quoted `>`, `=` starting a name, `/` between attributes, a value right after quotes.
        let html = "<a x='>' =y a/b c=\"1\"d=2 e=f/>t</a>";
        let tags = crowded_tags(html, 0..html.len(), 0);
        assert_eq!(tags.len(), 1);
        let mut attributes = Vec::new();
        tags[0].each_attribute(html, |a| attributes.push(a));
        assert_eq!(attributes.len(), tags[0].attributes);
        let names: Vec<&str> = attributes.iter().map(|a| &html[a.name.clone()]).collect();
        assert_eq!(names, ["x", "=y", "a", "b", "c", "d", "e"]);
        let values: Vec<Option<&str>> = attributes
            .iter()
            .map(|a| a.value.clone().map(|v| &html[v]))
            .collect();
        assert_eq!(
            values,
            [
                Some(">"),
                None,
                None,
                None,
                Some("1"),
                Some("2"),
                Some("f/")
            ]
        );
        assert_eq!(
            &html[tags[0].start..tags[0].end],
            "<a x='>' =y a/b c=\"1\"d=2 e=f/>"
        );
        assert_eq!(
            &html[tags[0].blank.clone()],
            " x='>' =y a/b c=\"1\"d=2 e=f/"
        );
        // A self-closing tag keeps its `/`.
        let html = "<br a b />";
        let tags = crowded_tags(html, 0..html.len(), 1);
        assert_eq!(&html[tags[0].blank.clone()], " a b ");
    }

    #[test]
    fn text_that_is_not_markup_hides_tags() {
        let many = |name: &str| format!("<{name} a b c>");
        for (html, found) in [
            (format!("<!-- {} -->{}", many("x"), many("y")), 1),
            (format!("<script>{}</script>{}", many("x"), many("y")), 1),
            (
                format!(
                    "<script><!--<script>{}</script>{}</script>",
                    many("x"),
                    many("z")
                ),
                0,
            ),
            (format!("<textarea>{}</textarea>", many("x")), 0),
            (
                format!("<svg><![CDATA[{}]]></svg>{}", many("x"), many("y")),
                1,
            ),
            (format!("<p><![CDATA[{}]]>", many("x")), 0),
            (format!("<plaintext>{}", many("x")), 0),
            (format!("<svg><style>{}</style></svg>", many("x")), 1),
            (format!("<!DOCTYPE html \"{}\">{}", many("x"), many("y")), 1),
            (format!("{}</p a b c d>", many("x")), 2),
        ] {
            assert_eq!(crowded(&html, 2).len(), found, "{html}");
        }
    }
}
