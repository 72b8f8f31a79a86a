//! The RFC 3987 §2.2 `IRI-reference` parser.
//!
//! Parsing happens in two steps that together are exactly the grammar:
//!
//! 1. **Decomposition** at the generic delimiters, as RFC 3986 Appendix B does: an optional
//!    scheme before the first `:` that precedes any `/ ? #`, an authority after `//`, the path up
//!    to `?` or `#`, the query up to `#`, the fragment. Every valid IRI-reference decomposes this
//!    way and only this way, because no component may contain the delimiter that ends it.
//! 2. **Validation** of each component against its production (`iuserinfo`, `ihost`, `port`,
//!    `isegment`, `iquery`, `ifragment`, ...), including the first-segment rule of
//!    `ipath-noscheme` and "first match wins" for `IPv4address` versus `ireg-name`.
//!
//! Validation does not stop at the first problem: [`analyze`] returns the components together
//! with every [`Issue`] (the linter reports all of them), and [`parse`] is the strict view that
//! fails with the first one. Both are linear in the input and allocation-free on valid ASCII
//! input apart from the component vectors.

use std::fmt;
use std::ops::{ControlFlow, Range};

use super::chars::{self, describe};
use super::ip::{ipv6, ipvfuture, is_ipv4};

/// A top-level part of an IRI, as named in RFC 3987 §2.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    /// `scheme`
    Scheme,
    /// `iuserinfo`
    Userinfo,
    /// `ihost`
    Host,
    /// `port`
    Port,
    /// `ipath-*`
    Path,
    /// `iquery`
    Query,
    /// `ifragment`
    Fragment,
}

impl Component {
    /// The lowercase name used in messages and JSON (`"path"`).
    pub fn name(self) -> &'static str {
        match self {
            Component::Scheme => "scheme",
            Component::Userinfo => "userinfo",
            Component::Host => "host",
            Component::Port => "port",
            Component::Path => "path",
            Component::Query => "query",
            Component::Fragment => "fragment",
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether the reference has a scheme (`IRI`) or not (`irelative-ref`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `IRI`: starts with a scheme.
    Iri,
    /// `irelative-ref`: resolved against a base.
    Relative,
}

/// Which alternative of `ihost` matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostKind {
    /// `ireg-name` (including the empty host and dotted numbers that are not an `IPv4address`).
    RegName,
    /// `IPv4address`.
    Ipv4,
    /// `IP-literal` holding an `IPv6address`.
    Ipv6,
    /// `IP-literal` holding an `IPvFuture`.
    IpvFuture,
}

impl HostKind {
    /// The name used in `irilint inspect` JSON (`"reg-name"`, `"ipv4"`, `"ipv6"`, `"ipvfuture"`).
    pub fn name(self) -> &'static str {
        match self {
            HostKind::RegName => "reg-name",
            HostKind::Ipv4 => "ipv4",
            HostKind::Ipv6 => "ipv6",
            HostKind::IpvFuture => "ipvfuture",
        }
    }
}

/// The pieces of a component between its separators (a host's labels, a path's segments, a
/// query's parts), found in the text as they are asked for: an IRI is parsed without allocating
/// for its pieces, and one of a million `/` holds no million ranges.
#[derive(Debug, Clone)]
pub struct Pieces<'t> {
    b: &'t [u8],
    /// Where the next piece starts.
    next: usize,
    end: usize,
    seps: &'static [u8],
    done: bool,
}

impl<'t> Pieces<'t> {
    /// The pieces of `r` between bytes of `seps`: at least one piece, except that an empty path
    /// has no segments (and a leading `/` opens the first segment rather than ending an empty
    /// one).
    fn new(b: &'t [u8], r: Range<usize>, seps: &'static [u8]) -> Self {
        let path = seps == b"/";
        let next = if path && b.get(r.start) == Some(&b'/') && !r.is_empty() {
            r.start + 1
        } else {
            r.start
        };
        Pieces {
            b,
            next,
            end: r.end,
            seps,
            done: path && r.is_empty(),
        }
    }

    fn none() -> Self {
        Pieces {
            b: &[],
            next: 0,
            end: 0,
            seps: b"",
            done: true,
        }
    }
}

impl Iterator for Pieces<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        if self.done {
            return None;
        }
        let start = self.next;
        let seps = self.seps;
        match self.b[start..self.end]
            .iter()
            .position(|c| seps.contains(c))
        {
            Some(k) => {
                self.next = start + k + 1;
                Some(start..start + k)
            }
            None => {
                self.done = true;
                Some(start..self.end)
            }
        }
    }
}

impl std::iter::FusedIterator for Pieces<'_> {}

/// The `ihost` of an authority.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    /// The whole host, brackets included for an IP literal.
    pub range: Range<usize>,
    /// Which production matched; `None` when an IP literal is malformed.
    pub kind: Option<HostKind>,
}

impl Host {
    /// For a reg-name, its dot-separated labels in `text` (the IRI the host was parsed from):
    /// one empty label for an empty host; none for an IP address.
    pub fn labels<'t>(&self, text: &'t str) -> Pieces<'t> {
        if self.kind == Some(HostKind::RegName) {
            Pieces::new(text.as_bytes(), self.range.clone(), b".")
        } else {
            Pieces::none()
        }
    }
}

/// `iauthority = [ iuserinfo "@" ] ihost [ ":" port ]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authority {
    /// Everything between `//` and the path.
    pub range: Range<usize>,
    /// The userinfo, without its `@`.
    pub userinfo: Option<Range<usize>>,
    /// The host.
    pub host: Host,
    /// The port digits, without the `:` (present but empty for `http://a:/`).
    pub port: Option<Range<usize>>,
}

/// One `&`- or `;`-separated part of the query, split at its first `=`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryPart {
    /// The whole part.
    pub range: Range<usize>,
    /// The name (the whole part when there is no `=`).
    pub name: Range<usize>,
    /// The value after the first `=`, if there is one.
    pub value: Option<Range<usize>>,
}

/// What kind of syntax problem an [`Issue`] is; each kind is reported by its own rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssueKind {
    /// Not an IRI-reference for a structural reason or a character outside every class.
    Invalid,
    /// A C0 or C1 control character or DEL.
    Control,
    /// Space or one of `<` `>` `"` `{` `}` `|` `\` `^` `` ` ``.
    UnwiseAscii,
    /// `%` not followed by two hex digits.
    BadPercent,
    /// A private-use character outside the query.
    PrivateUse,
    /// `[` or `]` in the path, query or fragment, or a second `#`: a delimiter the grammar has
    /// no place for there, which every browser keeps as data (WHATWG URL).
    StrayDelimiter,
}

/// One place where the input departs from the grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Byte range of the offending characters in the input.
    pub range: Range<usize>,
    /// The component in which it was found.
    pub component: Component,
    /// What is wrong.
    pub kind: IssueKind,
    /// A sentence saying what is wrong, naming the character (never printing it raw).
    pub message: String,
}

/// The first syntax error of an input that is not an IRI-reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset of the first offending character.
    pub offset: usize,
    /// The component it belongs to.
    pub component: Component,
    /// A sentence saying what is wrong.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (in the {}, at byte {})",
            self.message, self.component, self.offset
        )
    }
}

impl std::error::Error for SyntaxError {}

/// A decomposed IRI-reference: byte ranges of every component into the input it was parsed from.
///
/// The ranges tile the input: scheme, `:`, `//`, authority, path, `?`, query, `#`, fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iri {
    /// IRI or relative reference.
    pub kind: Kind,
    /// The scheme, without its `:`.
    pub scheme: Option<Range<usize>>,
    /// The authority, when the reference has `//`.
    pub authority: Option<Authority>,
    /// The path (always present, possibly empty).
    pub path: Range<usize>,
    /// The query, without its `?`.
    pub query: Option<Range<usize>>,
    /// The fragment, without its `#`.
    pub fragment: Option<Range<usize>>,
    /// The departures from the grammar, in input order; empty for a valid IRI-reference. At
    /// most [`MAX_HELD_ISSUES`] are held: see [`Iri::issues_held_all`] and [`Iri::each_issue`].
    pub issues: Vec<Issue>,
    /// False when the input has more issues than [`Iri::issues`] holds. A consumer that needs
    /// every one visits them with [`Iri::each_issue`].
    pub issues_held_all: bool,
}

/// The most issues an [`Iri`] holds. An IRI with a forbidden character every byte (a megabyte
/// of `^`) would otherwise hold a hundred bytes per byte of it; past this many, the issues are
/// found again, one at a time and never all held, when a rule asks for them
/// ([`Iri::each_issue`]).
pub const MAX_HELD_ISSUES: usize = 1024;

impl Iri {
    /// The path's segments in `text` (the IRI this was parsed from): the text after each `/`,
    /// and before the first one for a rootless path.
    pub fn segments<'t>(&self, text: &'t str) -> Pieces<'t> {
        Pieces::new(text.as_bytes(), self.path.clone(), b"/")
    }

    /// The query's parts in `text` (the IRI this was parsed from), split at `&` and `;`, each
    /// at its first `=`; none without a query.
    pub fn query_parts<'t>(&self, text: &'t str) -> impl Iterator<Item = QueryPart> + Clone + 't {
        let b = text.as_bytes();
        let pieces = match &self.query {
            Some(q) => Pieces::new(b, q.clone(), b"&;"),
            None => Pieces::none(),
        };
        pieces.map(
            move |part| match find_any(&b[..part.end], part.start, b"=") {
                Some(eq) => QueryPart {
                    name: part.start..eq,
                    value: Some(eq + 1..part.end),
                    range: part,
                },
                None => QueryPart {
                    name: part.clone(),
                    value: None,
                    range: part,
                },
            },
        )
    }

    /// Calls `f` on every issue of the IRI parsed from `text`, in input order, until it returns
    /// [`ControlFlow::Break`]. The held issues when they are all held; otherwise `text` is
    /// parsed again and each issue is passed on as it is found, so that memory stays bounded
    /// whatever their number.
    ///
    /// Only the issues whose kind passes `kinds` are passed on, and when they are found again,
    /// the `message` of one starting at byte `at` is written only if `messages(at)` asks for it
    /// (it is empty otherwise): a rule that needs neither pays for neither, and one whose
    /// finding already has all the places it keeps builds no message for the millionth.
    pub fn each_issue<B>(
        &self,
        text: &str,
        kinds: impl Fn(IssueKind) -> bool,
        messages: impl Fn(usize) -> bool,
        mut f: impl FnMut(&Issue) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.issues_held_all {
            return self.issues.iter().filter(|i| kinds(i.kind)).try_for_each(f);
        }
        let mut stop = None;
        let mut visit = |issue: Issue| {
            if stop.is_none()
                && let ControlFlow::Break(b) = f(&issue)
            {
                stop = Some(b);
            }
        };
        let mut p = Parser {
            s: text,
            b: text.as_bytes(),
            issues: Vec::new(),
            held_all: true,
            visit: Some(Visit {
                kinds: &kinds,
                messages: &messages,
                f: &mut visit,
            }),
        };
        p.run();
        match stop {
            Some(b) => ControlFlow::Break(b),
            None => ControlFlow::Continue(()),
        }
    }

    /// True when the input is a valid IRI-reference.
    pub fn is_valid(&self) -> bool {
        self.issues.is_empty()
    }

    /// The first syntax error, if any.
    pub fn first_error(&self) -> Option<SyntaxError> {
        self.issues.first().map(|i| SyntaxError {
            offset: i.range.start,
            component: i.component,
            message: i.message.clone(),
        })
    }

    /// The component that contains byte `offset`; a delimiter belongs to the component it opens
    /// (`?` to the query, `#` to the fragment, `//` to the host, `@` to the userinfo).
    pub fn component_at(&self, offset: usize) -> Option<Component> {
        let opened_by = |r: &Range<usize>, delimiter_len: usize| offset + delimiter_len >= r.start;
        if self.fragment.as_ref().is_some_and(|f| opened_by(f, 1)) {
            return Some(Component::Fragment);
        }
        if self.query.as_ref().is_some_and(|q| opened_by(q, 1)) {
            return Some(Component::Query);
        }
        if offset >= self.path.start {
            return Some(Component::Path);
        }
        if let Some(a) = self.authority.as_ref().filter(|a| opened_by(&a.range, 2)) {
            if a.port.as_ref().is_some_and(|p| opened_by(p, 1)) {
                return Some(Component::Port);
            }
            if a.userinfo.as_ref().is_some_and(|u| offset <= u.end) {
                return Some(Component::Userinfo);
            }
            return Some(Component::Host);
        }
        self.scheme
            .as_ref()
            .filter(|s| offset <= s.end)
            .map(|_| Component::Scheme)
    }
}

/// Parses an `IRI-reference` strictly: the components, or the first syntax error.
pub fn parse(input: &str) -> Result<Iri, SyntaxError> {
    let iri = analyze(input);
    match iri.first_error() {
        Some(e) => Err(e),
        None => Ok(iri),
    }
}

/// Decomposes any string into IRI components and lists every departure from the grammar.
///
/// Never fails and never panics: an invalid input still gets the components a reader would see
/// (so rules can check them), with [`Iri::issues`] saying what is wrong.
pub fn analyze(input: &str) -> Iri {
    let mut p = Parser {
        s: input,
        b: input.as_bytes(),
        issues: Vec::new(),
        held_all: true,
        visit: None,
    };
    p.run()
}

struct Parser<'a, 'v> {
    s: &'a str,
    b: &'a [u8],
    /// The first [`MAX_HELD_ISSUES`] issues.
    issues: Vec<Issue>,
    /// False once an issue was found past those.
    held_all: bool,
    /// When set, every issue goes here instead, as it is found ([`Iri::each_issue`]).
    visit: Option<Visit<'v>>,
}

/// Where [`Iri::each_issue`] wants the issues: those of `kinds`, with their messages or not.
struct Visit<'v> {
    kinds: &'v dyn Fn(IssueKind) -> bool,
    messages: &'v dyn Fn(usize) -> bool,
    f: &'v mut dyn FnMut(Issue),
}

/// Which characters beyond `iunreserved / pct-encoded / sub-delims` a component allows.
#[derive(Clone, Copy)]
struct Allow {
    private: bool,
    /// The bits of [`PLAIN`] of the bytes the component takes as they are.
    plain: u8,
}

/// Bits of [`PLAIN`]: `unreserved / sub-delims`, then the four delimiters a component may allow.
const CORE: u8 = 1;
const COLON: u8 = 2;
const AT: u8 = 4;
const SLASH: u8 = 8;
const QUESTION: u8 = 16;

/// Per byte, which of `CORE`, `COLON`, `AT`, `SLASH`, `QUESTION` it is: a component's run of
/// bytes it takes as they are is read by one lookup a byte, with no other test.
static PLAIN: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 128 {
        if chars::is_unreserved_or_sub_delim(c as u8) {
            t[c] = CORE;
        }
        c += 1;
    }
    t[b':' as usize] = COLON;
    t[b'@' as usize] = AT;
    t[b'/' as usize] = SLASH;
    t[b'?' as usize] = QUESTION;
    t
};

const fn allow(colon: bool, at: bool, slash: bool, question: bool, private: bool) -> Allow {
    let mut plain = CORE;
    if colon {
        plain |= COLON;
    }
    if at {
        plain |= AT;
    }
    if slash {
        plain |= SLASH;
    }
    if question {
        plain |= QUESTION;
    }
    Allow { private, plain }
}

const USERINFO: Allow = allow(true, false, false, false, false);
const REG_NAME: Allow = allow(false, false, false, false, false);
/// A whole path: `isegment`'s characters and the `/` between segments.
const PATH: Allow = allow(true, true, true, false, false);
const SEGMENT_NC: Allow = allow(false, true, false, false, false);
const QUERY: Allow = allow(true, true, true, true, true);
const FRAGMENT: Allow = allow(true, true, true, true, false);

fn find_any(b: &[u8], from: usize, set: &[u8]) -> Option<usize> {
    b[from..]
        .iter()
        .position(|c| set.contains(c))
        .map(|i| i + from)
}

/// `'<'` for printable ASCII, `space` for U+0020.
fn ascii_repr(c: u8) -> String {
    if c == b' ' {
        "space".to_string()
    } else {
        format!("'{}'", c as char)
    }
}

impl Parser<'_, '_> {
    fn run(&mut self) -> Iri {
        let b = self.b;
        let len = b.len();

        let mut pos = 0;
        let mut scheme = None;
        if let Some(e) = find_any(b, 0, b":/?#")
            && b[e] == b':'
            && e > 0
        {
            self.scheme(0..e);
            scheme = Some(0..e);
            pos = e + 1;
        }
        let kind = if scheme.is_some() {
            Kind::Iri
        } else {
            Kind::Relative
        };

        let mut authority = None;
        if b[pos..].starts_with(b"//") {
            let start = pos + 2;
            // One search finds the authority's end and its first `@` (the userinfo's end).
            let (at, end) = match find_any(b, start, b"/?#@") {
                Some(at) if b[at] == b'@' => (Some(at), find_any(b, at + 1, b"/?#").unwrap_or(len)),
                Some(end) => (None, end),
                None => (None, len),
            };
            authority = Some(self.authority(start..end, at));
            pos = end;
        }

        // The path and the query are each validated by the pass that finds where they end.
        let path_end = self.path(pos..len, kind == Kind::Relative && authority.is_none());
        let path = pos..path_end;
        pos = path_end;

        let mut query = None;
        if pos < len && b[pos] == b'?' {
            let end = self.chars_until(pos + 1..len, Component::Query, QUERY, b"#");
            query = Some(pos + 1..end);
            pos = end;
        }

        let mut fragment = None;
        if pos < len && b[pos] == b'#' {
            let f = pos + 1..len;
            self.chars(f.clone(), Component::Fragment, FRAGMENT);
            fragment = Some(f);
        }

        Iri {
            kind,
            scheme,
            authority,
            path,
            query,
            fragment,
            issues: std::mem::take(&mut self.issues),
            issues_held_all: self.held_all,
        }
    }

    /// Records an issue; its message is written only when it is kept or asked for.
    fn push(
        &mut self,
        range: Range<usize>,
        component: Component,
        kind: IssueKind,
        message: impl FnOnce() -> String,
    ) {
        let start = range.start;
        let issue = |message| Issue {
            range,
            component,
            kind,
            message,
        };
        if let Some(visit) = &mut self.visit {
            if (visit.kinds)(kind) {
                let message = if (visit.messages)(start) {
                    crate::work::add(crate::work::Work::SyntaxMessages, 1);
                    message()
                } else {
                    String::new()
                };
                (visit.f)(issue(message));
            }
        } else if self.issues.len() < MAX_HELD_ISSUES {
            self.issues.push(issue(message()));
        } else {
            self.held_all = false;
        }
    }

    fn char_at(&self, i: usize) -> char {
        self.s[i..]
            .chars()
            .next()
            .expect("index on a char boundary")
    }

    /// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    fn scheme(&mut self, r: Range<usize>) {
        let b = self.b;
        let mut i = r.start;
        while i < r.end {
            // A scheme is ASCII but for a mistake: decode a character only past ASCII.
            let c = if b[i].is_ascii() {
                b[i] as char
            } else {
                self.char_at(i)
            };
            let n = c.len_utf8();
            let ok = if i == r.start {
                chars::is_alpha(b[i])
            } else {
                chars::is_scheme_char(b[i])
            };
            if !ok {
                let kind = if chars::is_control(c) {
                    IssueKind::Control
                } else {
                    IssueKind::Invalid
                };
                let first = i == r.start;
                let message = move || {
                    if chars::is_control(c) {
                        format!(
                            "{} is a control character and not allowed in a scheme",
                            describe(c)
                        )
                    } else if first {
                        "the scheme must start with an ASCII letter".to_string()
                    } else {
                        let what = if c.is_ascii() {
                            ascii_repr(c as u8)
                        } else {
                            describe(c)
                        };
                        format!(
                            "{what} is not allowed in a scheme (only ASCII letters, digits, '+', '-' and '.')"
                        )
                    }
                };
                self.push(i..i + n, Component::Scheme, kind, message);
                // One structural error per scheme is enough; controls are each reported.
                if kind == IssueKind::Invalid {
                    let rest = i + n..r.end;
                    self.controls_in(rest, Component::Scheme);
                    return;
                }
            }
            i += n;
        }
    }

    /// Reports each control character in `r` (after a structural error has ended the
    /// component's validation, controls still get their own issue: they are a security matter).
    fn controls_in(&mut self, r: Range<usize>, comp: Component) {
        for (k, c) in self.s[r.clone()].char_indices() {
            if chars::is_control(c) {
                let at = r.start + k;
                self.push(at..at + c.len_utf8(), comp, IssueKind::Control, || {
                    format!(
                        "{} is a control character and not allowed in the {comp}",
                        describe(c)
                    )
                });
            }
        }
    }

    /// `Control` for a control character, `Invalid` otherwise.
    fn kind_of(&self, at: usize) -> IssueKind {
        if at < self.s.len() && chars::is_control(self.char_at(at)) {
            IssueKind::Control
        } else {
            IssueKind::Invalid
        }
    }

    /// The authority `r`, whose first `@` is at `at`.
    fn authority(&mut self, r: Range<usize>, at: Option<usize>) -> Authority {
        let b = self.b;
        let (userinfo, host_start) = match at {
            Some(at) => (Some(r.start..at), at + 1),
            None => (None, r.start),
        };
        if let Some(u) = &userinfo {
            self.chars(u.clone(), Component::Userinfo, USERINFO);
        }

        let mut port = None;
        let host;
        if host_start < r.end && b[host_start] == b'[' {
            match find_any(&b[..r.end], host_start, b"]") {
                Some(close) => {
                    let mut kind = self.ip_literal(host_start + 1..close);
                    // Text between the `]` and a `:` (or the end) is not allowed, but it still
                    // belongs to the host so that the components tile the input.
                    let after = close + 1;
                    let host_end = find_any(&b[..r.end], after, b":").unwrap_or(r.end);
                    if host_end > after {
                        let n = self.char_at(after).len_utf8();
                        self.push(
                            after..after + n,
                            Component::Host,
                            self.kind_of(after),
                            || {
                                "an IP literal must be followed by ':' and a port, or end the authority"
                                    .to_string()
                            },
                        );
                        self.controls_in(after + n..host_end, Component::Host);
                        kind = None;
                    }
                    host = Host {
                        range: host_start..host_end,
                        kind,
                    };
                    if host_end < r.end {
                        port = Some(host_end + 1..r.end);
                    }
                }
                None => {
                    self.push(
                        host_start..host_start + 1,
                        Component::Host,
                        IssueKind::Invalid,
                        || "the IP literal is missing its closing ']'".to_string(),
                    );
                    self.controls_in(host_start + 1..r.end, Component::Host);
                    host = Host {
                        range: host_start..r.end,
                        kind: None,
                    };
                }
            }
        } else {
            // Validated as a reg-name while its end is found: an IPv4 address, digits and
            // dots, is a valid reg-name too, so it gets no issue either way.
            let host_end = self.chars_until(host_start..r.end, Component::Host, REG_NAME, b":");
            let hr = host_start..host_end;
            let kind = if is_ipv4(&b[hr.clone()]) {
                HostKind::Ipv4
            } else {
                HostKind::RegName
            };
            host = Host {
                range: hr,
                kind: Some(kind),
            };
            if host_end < r.end {
                port = Some(host_end + 1..r.end);
            }
        }

        if let Some(p) = &port
            && let Some(bad) = (p.start..p.end).find(|&i| !chars::is_digit(b[i]))
        {
            let c = self.char_at(bad);
            let hint = if b[p.clone()].contains(&b':') {
                " (an IPv6 address must be enclosed in '[' and ']')"
            } else {
                ""
            };
            self.push(
                bad..bad + c.len_utf8(),
                Component::Port,
                self.kind_of(bad),
                || format!("port must be digits{hint}"),
            );
            self.controls_in(bad + c.len_utf8()..p.end, Component::Port);
        }

        Authority {
            range: r,
            userinfo,
            host,
            port,
        }
    }

    /// Validates the inside of `[...]`; returns the host kind, or `None` after pushing an issue.
    fn ip_literal(&mut self, r: Range<usize>) -> Option<HostKind> {
        let inner = &self.b[r.clone()];
        let (kind, result) = if matches!(inner.first(), Some(b'v' | b'V')) {
            (HostKind::IpvFuture, ipvfuture(inner))
        } else {
            (HostKind::Ipv6, ipv6(inner))
        };
        match result {
            Ok(()) => Some(kind),
            Err((off, reason)) => {
                let at = (r.start + off).min(r.end);
                let n = if at < r.end {
                    self.char_at(at).len_utf8()
                } else {
                    1 // points at the closing ']'
                };
                let what = if kind == HostKind::Ipv6 {
                    "IPv6 address"
                } else {
                    "IPvFuture address"
                };
                self.push(at..at + n, Component::Host, self.kind_of(at), || {
                    format!("invalid {what} in IP literal: {reason}")
                });
                if at < r.end {
                    self.controls_in(at + n..r.end, Component::Host);
                }
                None
            }
        }
    }

    /// Validates the path that starts at `r.start` and ends at the first `?` or `#` of `r`,
    /// and returns its end: one pass for its end and all its segments (the first one of a
    /// relative reference without a scheme may not hold a `:`).
    fn path(&mut self, r: Range<usize>, noscheme: bool) -> usize {
        let mut from = r.start;
        if noscheme && !self.b[r.clone()].starts_with(b"/") {
            from = self.chars_until(from..r.end, Component::Path, SEGMENT_NC, b"/?#");
            if from == r.end || self.b[from] != b'/' {
                return from;
            }
        }
        self.chars_until(from..r.end, Component::Path, PATH, b"?#")
    }

    /// Checks every character of `r` against `iunreserved / pct-encoded / sub-delims` plus `allow`.
    fn chars(&mut self, r: Range<usize>, comp: Component, allow: Allow) {
        self.chars_until(r, comp, allow, b"");
    }

    /// [`Parser::chars`] of `r` up to its first byte of `stops` (bytes `allow` does not allow,
    /// which end the component), and where that is (`r.end` without one): the component's end
    /// is found by the pass that checks it, not by a search of its own before it.
    fn chars_until(
        &mut self,
        r: Range<usize>,
        comp: Component,
        allow: Allow,
        stops: &[u8],
    ) -> usize {
        let b = self.b;
        let mut i = r.start;
        while i < r.end {
            // The run of bytes the component takes as they are, one lookup a byte; what ends it
            // is looked at below.
            match b[i..r.end]
                .iter()
                .position(|&c| PLAIN[c as usize] & allow.plain == 0)
            {
                Some(k) => i += k,
                None => break,
            }
            let c = b[i];
            if c < 0x80 {
                if stops.contains(&c) {
                    return i;
                }
                // (A delimiter the component allows is in `allow.plain`: the run took it.)
                if c == b'%' {
                    if i + 2 < r.end && chars::is_hexdig(b[i + 1]) && chars::is_hexdig(b[i + 2]) {
                        i += 3;
                    } else {
                        // The message shows the (at most two) characters that follow within
                        // the piece: the segment in a path (a `/` ends it), the component
                        // otherwise. Only those two are looked at: a search for the piece's
                        // end made each of a long segment's bad escapes cost its length.
                        let mut shown_end = i + 1;
                        for _ in 0..2 {
                            match b.get(shown_end) {
                                Some(&d)
                                    if shown_end < r.end
                                        && !stops.contains(&d)
                                        && !(comp == Component::Path && d == b'/') =>
                                {
                                    shown_end += self.char_at(shown_end).len_utf8();
                                }
                                _ => break,
                            }
                        }
                        self.bad_percent(i, shown_end, comp);
                        i += 1;
                    }
                } else {
                    self.ascii_issue(i, c, comp, allow);
                    i += 1;
                }
                continue;
            }
            let ch = self.char_at(i);
            let n = ch.len_utf8();
            if !chars::is_ucschar(ch) {
                if chars::is_iprivate(ch) {
                    if !allow.private {
                        self.push(
                            i..i + n,
                            comp,
                            IssueKind::PrivateUse,
                            || {
                                format!(
                                    "private-use characters are allowed only in the query ({} in the {comp})",
                                    describe(ch)
                                )
                            },
                        );
                    }
                } else {
                    self.non_ascii_issue(i..i + n, ch, comp);
                }
            }
            i += n;
        }
        r.end
    }

    fn bad_percent(&mut self, i: usize, end: usize, comp: Component) {
        let s = self.s;
        let message = move || {
            let found: String = s[i + 1..end]
                .chars()
                .take(2)
                .map(|c| {
                    if c.is_ascii_graphic() {
                        c.to_string()
                    } else {
                        format!("U+{:04X}", c as u32)
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
            if found.is_empty() {
                format!("'%' at the end of the {comp} is not followed by two hexadecimal digits")
            } else {
                format!("'%' is not followed by two hexadecimal digits (found {found})")
            }
        };
        self.push(i..i + 1, comp, IssueKind::BadPercent, message);
    }

    fn ascii_issue(&mut self, i: usize, c: u8, comp: Component, allow: Allow) {
        let ch = c as char;
        let stray = matches!(
            (c, comp),
            (
                b'[' | b']',
                Component::Path | Component::Query | Component::Fragment
            ) | (b'#', Component::Fragment)
        );
        let kind = if chars::is_control(ch) {
            IssueKind::Control
        } else if chars::is_unwise_ascii(ch) {
            IssueKind::UnwiseAscii
        } else if stray {
            IssueKind::StrayDelimiter
        } else {
            IssueKind::Invalid
        };
        let message = move || {
            match kind {
            IssueKind::Control => format!(
                "{} is a control character and not allowed in an IRI",
                describe(ch)
            ),
            IssueKind::UnwiseAscii => format!("{} is not allowed in an IRI ({comp})", ascii_repr(c)),
            IssueKind::StrayDelimiter if c == b'#' => {
                "'#' is not allowed in the fragment; an IRI has at most one '#'".to_string()
            }
            IssueKind::StrayDelimiter => format!(
                "'{ch}' is not allowed in the {comp}; brackets only enclose an IP-literal host"
            ),
            _ => match (c, comp) {
                (b'[' | b']', _) => format!(
                    "'{ch}' is not allowed in the {comp}; brackets only enclose an IP-literal host"
                ),
                (b'@', Component::Host) => {
                    "'@' is not allowed in the host; the userinfo ends at the first '@'".to_string()
                }
                (b':', Component::Path) if allow.plain & COLON == 0 => {
                    "':' is not allowed in the first segment of a relative reference (it would be read as a scheme); write './' before it".to_string()
                }
                _ => format!("'{ch}' is not allowed in the {comp}"),
            },
        }
        };
        self.push(i..i + 1, comp, kind, message);
    }

    fn non_ascii_issue(&mut self, r: Range<usize>, ch: char, comp: Component) {
        let kind = if chars::is_control(ch) {
            IssueKind::Control
        } else {
            IssueKind::Invalid
        };
        let message = move || {
            if chars::is_control(ch) {
                format!(
                    "{} is a control character and not allowed in an IRI",
                    describe(ch)
                )
            } else if chars::is_noncharacter(ch) {
                format!(
                    "U+{:04X} is a noncharacter and not allowed in an IRI",
                    ch as u32
                )
            } else if (0xE0000..=0xE0FFF).contains(&(ch as u32)) {
                format!(
                    "{} is not allowed in an IRI (U+E0000–U+E0FFF is excluded from ucschar)",
                    describe(ch)
                )
            } else {
                format!(
                    "{} is not allowed in an IRI (it is not a ucschar)",
                    describe(ch)
                )
            }
        };
        self.push(r, comp, kind, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parse as it was written before the path, the query and a reg-name host were each
    /// checked by the pass that finds their end: each end searched for first, then the path
    /// checked segment by segment. The one-pass parse must give exactly its answer.
    impl Parser<'_, '_> {
        fn ref_run(&mut self) -> Iri {
            let b = self.b;
            let len = b.len();

            let mut pos = 0;
            let mut scheme = None;
            if let Some(e) = find_any(b, 0, b":/?#")
                && b[e] == b':'
                && e > 0
            {
                self.scheme(0..e);
                scheme = Some(0..e);
                pos = e + 1;
            }
            let kind = if scheme.is_some() {
                Kind::Iri
            } else {
                Kind::Relative
            };

            let mut authority = None;
            if b[pos..].starts_with(b"//") {
                let start = pos + 2;
                let end = find_any(b, start, b"/?#").unwrap_or(len);
                authority = Some(self.ref_authority(start..end));
                pos = end;
            }

            let path_end = find_any(b, pos, b"?#").unwrap_or(len);
            let path = pos..path_end;
            self.ref_path(path.clone(), kind == Kind::Relative && authority.is_none());
            pos = path_end;

            let mut query = None;
            if pos < len && b[pos] == b'?' {
                let end = find_any(b, pos + 1, b"#").unwrap_or(len);
                let q = pos + 1..end;
                self.ref_chars(q.clone(), Component::Query, QUERY);
                query = Some(q);
                pos = end;
            }

            let mut fragment = None;
            if pos < len && b[pos] == b'#' {
                let f = pos + 1..len;
                self.ref_chars(f.clone(), Component::Fragment, FRAGMENT);
                fragment = Some(f);
            }

            Iri {
                kind,
                scheme,
                authority,
                path,
                query,
                fragment,
                issues: std::mem::take(&mut self.issues),
                issues_held_all: self.held_all,
            }
        }

        fn ref_authority(&mut self, r: Range<usize>) -> Authority {
            let b = self.b;
            let (userinfo, host_start) = match find_any(&b[..r.end], r.start, b"@") {
                Some(at) => (Some(r.start..at), at + 1),
                None => (None, r.start),
            };
            if let Some(u) = &userinfo {
                self.ref_chars(u.clone(), Component::Userinfo, USERINFO);
            }

            let mut port = None;
            let host;
            if host_start < r.end && b[host_start] == b'[' {
                match find_any(&b[..r.end], host_start, b"]") {
                    Some(close) => {
                        let mut kind = self.ip_literal(host_start + 1..close);
                        // Text between the `]` and a `:` (or the end) is not allowed, but it still
                        // belongs to the host so that the components tile the input.
                        let after = close + 1;
                        let host_end = find_any(&b[..r.end], after, b":").unwrap_or(r.end);
                        if host_end > after {
                            let n = self.char_at(after).len_utf8();
                            self.push(
                                after..after + n,
                                Component::Host,
                                self.kind_of(after),
                                || {
                                    "an IP literal must be followed by ':' and a port, or end the authority"
                                        .to_string()
                                },
                            );
                            self.controls_in(after + n..host_end, Component::Host);
                            kind = None;
                        }
                        host = Host {
                            range: host_start..host_end,
                            kind,
                        };
                        if host_end < r.end {
                            port = Some(host_end + 1..r.end);
                        }
                    }
                    None => {
                        self.push(
                            host_start..host_start + 1,
                            Component::Host,
                            IssueKind::Invalid,
                            || "the IP literal is missing its closing ']'".to_string(),
                        );
                        self.controls_in(host_start + 1..r.end, Component::Host);
                        host = Host {
                            range: host_start..r.end,
                            kind: None,
                        };
                    }
                }
            } else {
                let host_end = find_any(&b[..r.end], host_start, b":").unwrap_or(r.end);
                let hr = host_start..host_end;
                let kind = if is_ipv4(&b[hr.clone()]) {
                    HostKind::Ipv4
                } else {
                    self.ref_chars(hr.clone(), Component::Host, REG_NAME);
                    HostKind::RegName
                };
                host = Host {
                    range: hr,
                    kind: Some(kind),
                };
                if host_end < r.end {
                    port = Some(host_end + 1..r.end);
                }
            }

            if let Some(p) = &port
                && let Some(bad) = (p.start..p.end).find(|&i| !chars::is_digit(b[i]))
            {
                let c = self.char_at(bad);
                let hint = if b[p.clone()].contains(&b':') {
                    " (an IPv6 address must be enclosed in '[' and ']')"
                } else {
                    ""
                };
                self.push(
                    bad..bad + c.len_utf8(),
                    Component::Port,
                    self.kind_of(bad),
                    || format!("port must be digits{hint}"),
                );
                self.controls_in(bad + c.len_utf8()..p.end, Component::Port);
            }

            Authority {
                range: r,
                userinfo,
                host,
                port,
            }
        }

        fn ref_path(&mut self, r: Range<usize>, noscheme: bool) {
            let first_is_nz_nc = noscheme && !self.b[r.clone()].starts_with(b"/");
            for (k, seg) in Pieces::new(self.b, r, b"/").enumerate() {
                if k == 0 && first_is_nz_nc {
                    self.ref_chars(seg, Component::Path, SEGMENT_NC);
                } else {
                    self.ref_chars(seg, Component::Path, PATH);
                }
            }
        }

        fn ref_chars(&mut self, r: Range<usize>, comp: Component, allow: Allow) {
            let b = self.b;
            let mut i = r.start;
            while i < r.end {
                let c = b[i];
                if chars::is_unreserved_or_sub_delim(c) {
                    i += 1;
                    continue;
                }
                if c < 0x80 {
                    let extra = match c {
                        b':' => allow.plain & COLON != 0,
                        b'@' => allow.plain & AT != 0,
                        b'/' => allow.plain & SLASH != 0,
                        b'?' => allow.plain & QUESTION != 0,
                        _ => false,
                    };
                    if extra {
                        i += 1;
                    } else if c == b'%' {
                        if i + 2 < r.end && chars::is_hexdig(b[i + 1]) && chars::is_hexdig(b[i + 2])
                        {
                            i += 3;
                        } else {
                            self.bad_percent(i, r.end, comp);
                            i += 1;
                        }
                    } else {
                        self.ascii_issue(i, c, comp, allow);
                        i += 1;
                    }
                    continue;
                }
                let ch = self.char_at(i);
                let n = ch.len_utf8();
                if !chars::is_ucschar(ch) {
                    if chars::is_iprivate(ch) {
                        if !allow.private {
                            self.push(
                                i..i + n,
                                comp,
                                IssueKind::PrivateUse,
                                || {
                                    format!(
                                        "private-use characters are allowed only in the query ({} in the {comp})",
                                        describe(ch)
                                    )
                                },
                            );
                        }
                    } else {
                        self.non_ascii_issue(i..i + n, ch, comp);
                    }
                }
                i += n;
            }
        }
    }

    fn by_separate_searches(input: &str) -> Iri {
        let mut p = Parser {
            s: input,
            b: input.as_bytes(),
            issues: Vec::new(),
            held_all: true,
            visit: None,
        };
        p.ref_run()
    }

    #[test]
    fn one_pass_parse_matches_the_separate_searches() {
        // Every delimiter, a valid and a broken escape, a character of each non-ASCII kind
        // (ucschar, private use, not allowed), a control and unwise ASCII.
        let alphabet = [
            "a", "1", ":", "/", "?", "#", "@", "%", "4", "[", "]", ".", " ", "é", "\u{E000}",
            "\u{FFFE}", "\u{7}", "^",
        ];
        let prefixes = [
            "",
            "http:",
            "http://",
            "//",
            "x/",
            "./",
            "mailto:",
            "http://u@",
            "http://[::1]",
            "http://a:8",
            "http://1.2.3.4",
        ];
        // Every word of up to four of them (up to three after the longer prefixes).
        let mut words = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for w in &last {
                for c in alphabet {
                    next.push(format!("{w}{c}"));
                }
            }
            words.extend(next.iter().cloned());
            last = next;
        }
        let mut compared = 0;
        for (k, prefix) in prefixes.into_iter().enumerate() {
            for w in words.iter().filter(|w| k < 3 || w.chars().count() < 4) {
                for input in [format!("{prefix}{w}"), format!("{prefix}{w}/b%2?q%#f")] {
                    assert_eq!(analyze(&input), by_separate_searches(&input), "{input:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 500_000);
    }
}
