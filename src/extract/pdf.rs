//! PDF: the actions behind link annotations, read in memory from the bytes given.
//!
//! A small reader, not a PDF library: it reads the cross-reference data (tables, streams,
//! incremental updates through `/Prev`, hybrid files' `/XRefStm`), falling back on a scan for
//! `N G obj` when they are broken, walks the page tree, and reads the `/A` action of each
//! `/Subtype /Link` annotation of each page's `/Annots`, following `/Next`: a `/URI` action's
//! IRI, and `/Launch` and `/JavaScript` actions, which run something when the link is clicked.
//! Objects are parsed only when the walk reaches them, each indirect object at most once per
//! role (page tree node, annotation array, annotation, action), so that shared or looping
//! references (`/Kids` cycles, a `/Prev` chain that loops) end.
//!
//! lopdf was not used: it parses every object and decodes every object stream when it loads
//! a document, holding all of them, so its memory is bounded per stream but not in all: a
//! 415 KB file of 50 object streams, each decoding to a string of 8 MB, took lopdf 0.47 (with
//! a 16 MB bound per stream) to 425 MB, where irilint's bound is 51 MB; it also brings about 60
//! crates.
//!
//! Bounds (the run's memory bound is 2 × the file + 50 MB, the file itself held): the rest,
//! `file + 50 MB`, is split in four: one stream decoded at a time, the object streams kept
//! decoded, the objects parsed at a time (counted in nodes), and the cross-reference entries.
//! The work done (bytes parsed, decoded and searched) is bounded by 100 × the file + 50 MB, so
//! that the time stays linear in the file's size; past any bound the file is refused, with
//! the links read before kept. Nesting is at most [`MAX_DEPTH`] arrays or dictionaries deep.

use std::collections::{HashMap, HashSet};
use std::io::Read as _;
use std::ops::Range;

use super::package::{Refused, SLACK};
use super::{Extraction, Occurrence, Problem};
use crate::source::{PdfAction as Action, Source};

/// What a PDF file starts with: what a file is known by when no format is asked for.
pub const MAGIC: &[u8] = b"%PDF-";

/// How deep arrays and dictionaries may nest in one object.
pub const MAX_DEPTH: usize = 64;

/// The work allowed per byte of the file (and [`SLACK`]): bytes parsed, decoded and searched.
pub const WORK_RATIO: u64 = 100;

/// The most actions followed through `/Next` from one link.
pub const MAX_CHAIN: usize = 64;

/// Bytes of the file and the slack allowed per action handed over ([`Limits::links`]).
pub const LINK_BYTES: u64 = 2048;

/// Bytes of memory counted for one parsed node (an [`Obj`]) or one cross-reference entry.
const NODE_BYTES: u64 = 48;

/// How far reading a PDF may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes one stream may decode to.
    pub stream: u64,
    /// The most decoded bytes of object streams kept at once.
    pub cache: u64,
    /// The most nodes one object may parse to.
    pub nodes: usize,
    /// The most cross-reference entries.
    pub objects: usize,
    /// The most work (bytes parsed, decoded, searched) in all.
    pub work: u64,
    /// The most actions handed over: each is checked as a document of its own, whose outcome
    /// a run holds (about 1 KB with its path, measured by `tests/memory_pdf.rs`).
    pub links: usize,
}

impl Limits {
    /// The bounds for a file of `len` bytes: each of the four quarters of `len + 50 MB`.
    pub fn for_len(len: usize) -> Limits {
        let len = len as u64;
        let quarter = (len + SLACK) / 4;
        Limits {
            stream: quarter,
            cache: quarter,
            nodes: usize::try_from(quarter / 2 / NODE_BYTES).unwrap_or(usize::MAX),
            objects: usize::try_from(quarter / NODE_BYTES).unwrap_or(usize::MAX),
            work: len.saturating_mul(WORK_RATIO) + SLACK,
            links: usize::try_from((len + SLACK) / LINK_BYTES).unwrap_or(usize::MAX),
        }
    }
}

/// One action behind a link annotation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The page it is on, from 1.
    pub page: usize,
    /// The indirect object that holds the annotation: the annotation itself, or, for an
    /// annotation written inside its page's `/Annots`, that array's or the page's object.
    pub object: u32,
    /// For an annotation written inside `/Annots`, its place there, from 1.
    pub index: Option<usize>,
    /// Its place in the chain of actions (`/Next`), from 0.
    pub step: usize,
    /// What it does.
    pub action: Action,
    /// The IRI, file specification or script, decoded ([`decode_text`]).
    pub text: String,
}

impl Link {
    /// Its label in reports: `page 3 obj 12`, `page 3 obj 5 annot 2` for an annotation written
    /// inside `/Annots`, and `next N` for the Nth action after the first.
    pub fn label(&self) -> String {
        let mut label = format!("page {} obj {}", self.page, self.object);
        if let Some(i) = self.index {
            label.push_str(&format!(" annot {i}"));
        }
        if self.step > 0 {
            label.push_str(&format!(" next {}", self.step));
        }
        label
    }
}

/// A PDF object.
#[derive(Debug, Clone, PartialEq)]
enum Obj {
    Null,
    Bool,
    Int(i64),
    Real,
    Str(Vec<u8>),
    Name(Vec<u8>),
    Array(Vec<Obj>),
    Dict(Dict),
    Ref(u32),
    /// A stream: its dictionary and its data's range in the file.
    Stream(Box<(Dict, Range<usize>)>),
}

type Dict = Vec<(Vec<u8>, Obj)>;

fn get<'d>(dict: &'d Dict, key: &[u8]) -> Option<&'d Obj> {
    dict.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn is_name(obj: Option<&Obj>, name: &[u8]) -> bool {
    matches!(obj, Some(Obj::Name(n)) if n == name)
}

fn as_int(obj: Option<&Obj>) -> Option<i64> {
    match obj {
        Some(Obj::Int(n)) => Some(*n),
        _ => None,
    }
}

fn is_white(c: u8) -> bool {
    matches!(c, 0 | b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

fn is_delim(c: u8) -> bool {
    matches!(
        c,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(c: u8) -> bool {
    !is_white(c) && !is_delim(c)
}

/// A parser over one buffer (the file, or a decoded object stream).
struct Parser<'b> {
    b: &'b [u8],
    at: usize,
    /// Nodes left to this parse ([`Limits::nodes`]).
    nodes: usize,
}

impl<'b> Parser<'b> {
    fn new(b: &'b [u8], at: usize, nodes: usize) -> Self {
        Parser { b, at, nodes }
    }

    fn skip_white(&mut self) {
        while let Some(&c) = self.b.get(self.at) {
            if is_white(c) {
                self.at += 1;
            } else if c == b'%' {
                while let Some(&c) = self.b.get(self.at) {
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                    self.at += 1;
                }
            } else {
                break;
            }
        }
    }

    /// The regular characters at the position (a number, keyword), not consumed.
    fn word(&self) -> &'b [u8] {
        let rest = self.b.get(self.at..).unwrap_or(&[]);
        let n = rest
            .iter()
            .position(|&c| !is_regular(c))
            .unwrap_or(rest.len());
        &rest[..n]
    }

    fn keyword(&mut self, k: &[u8]) -> bool {
        self.skip_white();
        if self.word() == k {
            self.at += k.len();
            true
        } else {
            false
        }
    }

    fn unsigned(&mut self) -> Option<u64> {
        self.skip_white();
        let w = self.word();
        if w.is_empty() || w.len() > 19 || !w.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.at += w.len();
        std::str::from_utf8(w).ok()?.parse().ok()
    }

    fn node(&mut self) -> Option<()> {
        self.nodes = self.nodes.checked_sub(1)?;
        Some(())
    }

    /// One object; `None` at a token that begins none, past [`MAX_DEPTH`] or past the nodes
    /// allowed.
    fn object(&mut self, depth: usize) -> Option<Obj> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.node()?;
        self.skip_white();
        let c = *self.b.get(self.at)?;
        match c {
            b'/' => {
                self.at += 1;
                Some(Obj::Name(self.name()))
            }
            b'(' => {
                self.at += 1;
                Some(Obj::Str(self.literal()))
            }
            b'<' if self.b.get(self.at + 1) == Some(&b'<') => {
                self.at += 2;
                let mut dict = Dict::new();
                loop {
                    self.skip_white();
                    match self.b.get(self.at) {
                        Some(b'>') => {
                            self.at += if self.b.get(self.at + 1) == Some(&b'>') {
                                2
                            } else {
                                1
                            };
                            break;
                        }
                        Some(b'/') => {
                            self.at += 1;
                            let key = self.name();
                            let value = self.object(depth + 1)?;
                            dict.push((key, value));
                        }
                        // A key that is not a name: what a broken file has; the rest is not
                        // this dictionary.
                        _ => return Some(Obj::Dict(dict)),
                    }
                }
                Some(Obj::Dict(dict))
            }
            b'<' => {
                self.at += 1;
                Some(Obj::Str(self.hex()))
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_white();
                    match self.b.get(self.at) {
                        Some(b']') => {
                            self.at += 1;
                            break;
                        }
                        None => break,
                        Some(_) => {
                            let before = self.at;
                            match self.object(depth + 1) {
                                Some(o) => items.push(o),
                                // A token that is no object (`)`, `}`): skipped.
                                None if self.at == before
                                    && self.nodes > 0
                                    && depth < MAX_DEPTH =>
                                {
                                    self.at += 1
                                }
                                None => return None,
                            }
                        }
                    }
                }
                Some(Obj::Array(items))
            }
            _ if c.is_ascii_digit() || c == b'+' || c == b'-' || c == b'.' => Some(self.number()),
            _ => {
                let w = self.word();
                if w.is_empty() {
                    return None;
                }
                self.at += w.len();
                Some(match w {
                    b"true" | b"false" => Obj::Bool,
                    _ => Obj::Null,
                })
            }
        }
    }

    /// A number, or a reference `N G R`.
    fn number(&mut self) -> Obj {
        let w = self.word();
        self.at += w.len().max(1);
        let Some(n) = std::str::from_utf8(w)
            .ok()
            .and_then(|s| s.parse::<i64>().ok())
        else {
            return Obj::Real;
        };
        // `N G R`: looked ahead without consuming when it is not one.
        let save = self.at;
        if let Ok(num) = u32::try_from(n)
            && let Some(_gen) = self.unsigned()
            && self.keyword(b"R")
        {
            return Obj::Ref(num);
        }
        self.at = save;
        Obj::Int(n)
    }

    fn name(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        while let Some(&c) = self.b.get(self.at) {
            if !is_regular(c) {
                break;
            }
            self.at += 1;
            if c == b'#'
                && let Some(v) = self.b.get(self.at..self.at + 2).and_then(hex_pair)
            {
                self.at += 2;
                out.push(v);
                continue;
            }
            out.push(c);
        }
        out
    }

    /// A literal string after its `(`: nested parentheses balanced, escapes resolved, an end
    /// of line written as `\n` (PDF 32000-1 7.3.4.2).
    fn literal(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut open = 0usize;
        while let Some(&c) = self.b.get(self.at) {
            self.at += 1;
            match c {
                b'(' => {
                    open += 1;
                    out.push(c);
                }
                b')' => {
                    if open == 0 {
                        break;
                    }
                    open -= 1;
                    out.push(c);
                }
                b'\r' => {
                    if self.b.get(self.at) == Some(&b'\n') {
                        self.at += 1;
                    }
                    out.push(b'\n');
                }
                b'\\' => {
                    let Some(&e) = self.b.get(self.at) else { break };
                    self.at += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(8),
                        b'f' => out.push(0x0C),
                        b'0'..=b'7' => {
                            let mut v = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.b.get(self.at) {
                                    Some(&d @ b'0'..=b'7') => {
                                        v = v * 8 + u32::from(d - b'0');
                                        self.at += 1;
                                    }
                                    _ => break,
                                }
                            }
                            // High-order overflow is ignored (7.3.4.2).
                            out.push((v & 0xFF) as u8);
                        }
                        // A backslash before an end of line continues the string.
                        b'\r' => {
                            if self.b.get(self.at) == Some(&b'\n') {
                                self.at += 1;
                            }
                        }
                        b'\n' => {}
                        other => out.push(other),
                    }
                }
                _ => out.push(c),
            }
        }
        out
    }

    /// A hexadecimal string after its `<`: white space ignored, an odd last digit followed by
    /// 0.
    fn hex(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut high: Option<u8> = None;
        while let Some(&c) = self.b.get(self.at) {
            self.at += 1;
            if c == b'>' {
                break;
            }
            let Some(v) = hex_digit(c) else { continue };
            match high.take() {
                Some(h) => out.push(h << 4 | v),
                None => high = Some(v),
            }
        }
        if let Some(h) = high {
            out.push(h << 4);
        }
        out
    }
}

fn hex_digit(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

fn hex_pair(p: &[u8]) -> Option<u8> {
    Some(hex_digit(p[0])? << 4 | hex_digit(p[1])?)
}

/// The 0x18–0x1F and 0x80–0xA0 rows of PDFDocEncoding (PDF 32000-1, Annex D); `None` where
/// it has no character. The other bytes are Latin-1's (0x7F and 0xAD undefined).
const PDF_DOC_LOW: [char; 8] = ['˘', 'ˇ', 'ˆ', '˙', '˝', '˛', '˚', '˜'];
const PDF_DOC_HIGH: [char; 33] = [
    '•', '†', '‡', '…', '—', '–', 'ƒ', '⁄', '‹', '›', '−', '‰', '„', '“', '”', '‘', '’', '‚', '™',
    'ﬁ', 'ﬂ', 'Ł', 'Œ', 'Š', 'Ÿ', 'Ž', 'ı', 'ł', 'œ', 'š', 'ž', '\u{FFFD}', '€',
];

/// A PDF string's text: UTF-16BE after its byte order mark, UTF-8 after its (PDF 2.0) or when
/// the bytes are UTF-8 (what most writers put in a `/URI`, which PDF says is ASCII), else
/// PDFDocEncoding. An unpaired surrogate or an undefined byte becomes U+FFFD.
pub fn decode_text(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        let units = rest
            .chunks(2)
            .map(|p| u16::from_be_bytes([p[0], *p.get(1).unwrap_or(&0)]));
        return char::decode_utf16(units)
            .map(|c| c.unwrap_or('\u{FFFD}'))
            .collect();
    }
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8_lossy(rest).into_owned();
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.to_string();
    }
    bytes
        .iter()
        .map(|&b| match b {
            0x18..=0x1F => PDF_DOC_LOW[usize::from(b - 0x18)],
            0x7F | 0xAD => '\u{FFFD}',
            0x80..=0xA0 => PDF_DOC_HIGH[usize::from(b - 0x80)],
            _ => char::from(b),
        })
        .collect()
}

/// Where an object is: at an offset of the file, or the `index`th of an object stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Loc {
    At(usize),
    In(u32, u32),
}

/// A decoded object stream: its bytes and where each of its objects starts.
struct ObjStm {
    data: Vec<u8>,
    offsets: Vec<(u32, usize)>,
}

/// An open PDF file.
pub struct Pdf<'a> {
    b: &'a [u8],
    limits: Limits,
    xref: HashMap<u32, Loc>,
    trailer: Dict,
    /// Whether the objects were found by scanning the file, the cross-reference data being
    /// unreadable.
    pub scanned: bool,
    cache: HashMap<u32, std::rc::Rc<ObjStm>>,
    cached: u64,
    work: u64,
    /// Where a scan found each object, once an offset was found wrong.
    rescue: Option<HashMap<u32, usize>>,
}

fn refused_work(limits: &Limits) -> Refused {
    Refused(format!(
        "refused: reading its links takes more than {} bytes of work ({WORK_RATIO} times the file + 50 MB); a hostile PDF?",
        limits.work
    ))
}

fn too_many(limits: &Limits) -> Refused {
    Refused(format!(
        "refused: it has more than {} objects (a quarter of the memory bound, twice the file + 50 MB)",
        limits.objects
    ))
}

impl<'a> Pdf<'a> {
    /// Opens `bytes` as a PDF: its cross-reference data read (or its objects found by a scan),
    /// an encrypted file refused (its strings are encrypted, and irilint decrypts nothing).
    pub fn open(b: &'a [u8], limits: Limits) -> Result<Pdf<'a>, Refused> {
        let mut pdf = Pdf {
            b,
            limits,
            xref: HashMap::new(),
            trailer: Dict::new(),
            scanned: false,
            cache: HashMap::new(),
            cached: 0,
            work: 0,
            rescue: None,
        };
        let read = pdf.read_xref()?;
        let catalog = match pdf.root() {
            Some(root) if read => pdf.object(root)?,
            _ => None,
        };
        if !matches!(catalog, Some(Obj::Dict(_))) {
            pdf.xref.clear();
            pdf.trailer.clear();
            pdf.scanned = true;
            pdf.scan()?;
        }
        Ok(pdf)
    }

    /// Whether the file is encrypted (its trailer has `/Encrypt`): its strings are, and
    /// irilint decrypts nothing.
    pub fn encrypted(&self) -> bool {
        get(&self.trailer, b"Encrypt").is_some()
    }

    fn spend(&mut self, n: usize) -> Result<(), Refused> {
        self.work = self.work.saturating_add(n as u64);
        if self.work > self.limits.work {
            return Err(refused_work(&self.limits));
        }
        Ok(())
    }

    fn add_entry(&mut self, num: u32, loc: Loc) -> Result<(), Refused> {
        // The newest definition is read first: an older one does not replace it.
        if self.xref.len() >= self.limits.objects && !self.xref.contains_key(&num) {
            return Err(too_many(&self.limits));
        }
        self.xref.entry(num).or_insert(loc);
        Ok(())
    }

    /// Reads the cross-reference sections from the last `startxref` back through `/Prev`;
    /// false when there is none to read.
    fn read_xref(&mut self) -> Result<bool, Refused> {
        let tail = self.b.len().saturating_sub(4096);
        let Some(k) = memchr::memmem::rfind(&self.b[tail..], b"startxref") else {
            return Ok(false);
        };
        let mut p = Parser::new(self.b, tail + k + 9, 1);
        let Some(mut offset) = p.unsigned().and_then(|o| usize::try_from(o).ok()) else {
            return Ok(false);
        };
        let mut seen = HashSet::new();
        let mut first = true;
        // Each section read once: a `/Prev` loop ends.
        while seen.insert(offset) {
            let Some(trailer) = self.read_section(offset)? else {
                return Ok(!first);
            };
            if let Some(Obj::Int(stm)) = get(&trailer, b"XRefStm")
                && let Ok(stm) = usize::try_from(*stm)
                && seen.insert(stm)
            {
                self.read_section(stm)?;
            }
            let prev = as_int(get(&trailer, b"Prev"));
            if first {
                self.trailer = trailer;
                first = false;
            }
            match prev.and_then(|p| usize::try_from(p).ok()) {
                Some(p) => offset = p,
                None => break,
            }
        }
        Ok(true)
    }

    /// Reads the cross-reference section at `offset` (a table and its trailer, or a stream),
    /// returning its trailer dictionary.
    fn read_section(&mut self, offset: usize) -> Result<Option<Dict>, Refused> {
        if offset >= self.b.len() {
            return Ok(None);
        }
        let mut p = Parser::new(self.b, offset, self.limits.nodes);
        if p.keyword(b"xref") {
            loop {
                let save = p.at;
                let (Some(start), Some(count)) = (p.unsigned(), p.unsigned()) else {
                    p.at = save;
                    break;
                };
                for i in 0..count {
                    let (Some(off), Some(_gen)) = (p.unsigned(), p.unsigned()) else {
                        return Ok(None);
                    };
                    p.skip_white();
                    let kind = p.word();
                    p.at += kind.len();
                    self.spend(20)?;
                    let num = start.checked_add(i).and_then(|n| u32::try_from(n).ok());
                    if kind == b"n"
                        && let (Some(num), Ok(off)) = (num, usize::try_from(off))
                    {
                        self.add_entry(num, Loc::At(off))?;
                    } else if kind != b"f" {
                        return Ok(None);
                    }
                }
            }
            if !p.keyword(b"trailer") {
                return Ok(None);
            }
            let before = p.at;
            let trailer = p.object(0);
            self.spend(p.at - before)?;
            return Ok(match trailer {
                Some(Obj::Dict(d)) => Some(d),
                _ => None,
            });
        }
        // A cross-reference stream.
        let Some((_, Obj::Stream(stream))) = self.parse_at(offset)? else {
            return Ok(None);
        };
        let (dict, range) = *stream;
        if !is_name(get(&dict, b"Type"), b"XRef") {
            return Ok(None);
        }
        let Some(data) = self.decode(&dict, range)? else {
            return Ok(None);
        };
        let widths: Vec<usize> = match get(&dict, b"W") {
            Some(Obj::Array(w)) if w.len() == 3 => w
                .iter()
                .map(|o| {
                    as_int(Some(o))
                        .and_then(|n| usize::try_from(n).ok())
                        .filter(|&n| n <= 8)
                })
                .collect::<Option<_>>()
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let row: usize = widths.iter().sum();
        if widths.len() != 3 || row == 0 {
            return Ok(None);
        }
        let size = as_int(get(&dict, b"Size")).unwrap_or(0);
        let index: Vec<i64> = match get(&dict, b"Index") {
            Some(Obj::Array(a)) => a.iter().filter_map(|o| as_int(Some(o))).collect(),
            _ => vec![0, size],
        };
        let mut rows = data.chunks_exact(row);
        for pair in index.chunks_exact(2) {
            let (Ok(start), Ok(count)) = (u32::try_from(pair[0]), u64::try_from(pair[1])) else {
                continue;
            };
            for i in 0..count {
                let Some(r) = rows.next() else { break };
                let field = |k: usize| -> u64 {
                    let from: usize = widths[..k].iter().sum();
                    r[from..from + widths[k]]
                        .iter()
                        .fold(0u64, |v, &b| v << 8 | u64::from(b))
                };
                let kind = if widths[0] == 0 { 1 } else { field(0) };
                let Some(num) = u32::try_from(i).ok().and_then(|i| start.checked_add(i)) else {
                    break;
                };
                match kind {
                    1 => {
                        if let Ok(off) = usize::try_from(field(1)) {
                            self.add_entry(num, Loc::At(off))?;
                        }
                    }
                    2 => {
                        if let (Ok(stm), Ok(idx)) =
                            (u32::try_from(field(1)), u32::try_from(field(2)))
                        {
                            self.add_entry(num, Loc::In(stm, idx))?;
                        }
                    }
                    _ => {}
                }
            }
        }
        Ok(Some(dict))
    }

    /// Finds the objects by scanning the file for `N G obj` (the last definition of a number
    /// wins, as an incremental update's would) and the trailer's keys, for a file whose
    /// cross-reference data cannot be read (truncated, offsets wrong).
    fn scan(&mut self) -> Result<(), Refused> {
        let (found, streams) = self.scan_objects()?;
        for (&num, &off) in &found {
            self.xref.insert(num, Loc::At(off));
        }
        self.scan_trailer(streams)
    }

    /// The offset of each object `N G obj` of the file (the last one of a number), and the
    /// numbers of those that look like object or cross-reference streams.
    #[allow(clippy::type_complexity)]
    fn scan_objects(&mut self) -> Result<(HashMap<u32, usize>, Vec<u32>), Refused> {
        let b = self.b;
        self.spend(b.len())?;
        let mut found: HashMap<u32, usize> = HashMap::new();
        let mut streams = Vec::new();
        for k in memchr::memmem::find_iter(b, b"obj") {
            if b.get(k + 3).is_some_and(|&c| is_regular(c)) {
                continue;
            }
            // Back over `N G `: the start of the object's number.
            let mut s = k;
            let mut words = 0;
            while words < 2 {
                while s > 0 && is_white(b[s - 1]) {
                    s -= 1;
                }
                let end = s;
                while s > 0 && b[s - 1].is_ascii_digit() {
                    s -= 1;
                }
                if s == end {
                    break;
                }
                words += 1;
            }
            if words < 2 || (s > 0 && is_regular(b[s - 1])) {
                continue;
            }
            let mut p = Parser::new(b, s, 1);
            let Some(num) = p.unsigned().and_then(|n| u32::try_from(n).ok()) else {
                continue;
            };
            if found.len() >= self.limits.objects && !found.contains_key(&num) {
                return Err(too_many(&self.limits));
            }
            found.insert(num, s);
            // An object stream's objects, and the trailer of a cross-reference stream.
            let head = &b[k..b.len().min(k + 1024)];
            let head = &head[..memchr::memmem::find(head, b"stream").unwrap_or(head.len())];
            if memchr::memmem::find(head, b"/ObjStm").is_some()
                || memchr::memmem::find(head, b"/XRef").is_some()
            {
                streams.push(num);
            }
        }
        Ok((found, streams))
    }

    /// The trailer of a file found by a scan: the last `trailer` dictionary or cross-reference
    /// stream with a `/Root`; and the objects of the object streams found.
    fn scan_trailer(&mut self, streams: Vec<u32>) -> Result<(), Refused> {
        let b = self.b;
        for k in memchr::memmem::find_iter(b, b"trailer") {
            let mut p = Parser::new(b, k + 7, self.limits.nodes);
            let before = p.at;
            let obj = p.object(0);
            self.spend(p.at - before)?;
            if let Some(Obj::Dict(d)) = obj
                && get(&d, b"Root").is_some()
            {
                self.trailer = d;
            }
        }
        for num in streams {
            let Some(Obj::Stream(stream)) = self.object(num)? else {
                continue;
            };
            let dict = &stream.0;
            if is_name(get(dict, b"Type"), b"XRef") {
                if get(dict, b"Root").is_some() {
                    self.trailer = dict.clone();
                }
                continue;
            }
            if let Some(stm) = self.objstm(num)? {
                for (idx, &(n, _)) in stm.offsets.iter().enumerate() {
                    if !self.xref.contains_key(&n) {
                        if self.xref.len() >= self.limits.objects {
                            return Err(too_many(&self.limits));
                        }
                        self.xref.insert(n, Loc::In(num, idx as u32));
                    }
                }
            }
        }
        Ok(())
    }

    /// Parses the indirect object at `offset`: its number and its value (a stream with its
    /// data's range).
    fn parse_at(&mut self, offset: usize) -> Result<Option<(u32, Obj)>, Refused> {
        let mut p = Parser::new(self.b, offset, self.limits.nodes);
        let (Some(num), Some(_gen)) = (p.unsigned(), p.unsigned()) else {
            return Ok(None);
        };
        if !p.keyword(b"obj") {
            return Ok(None);
        }
        let obj = p.object(0);
        self.spend(p.at - offset)?;
        let (Some(obj), Ok(num)) = (obj, u32::try_from(num)) else {
            return Ok(None);
        };
        let Obj::Dict(dict) = obj else {
            return Ok(Some((num, obj)));
        };
        p.skip_white();
        if !p.b[p.at..].starts_with(b"stream") {
            return Ok(Some((num, Obj::Dict(dict))));
        }
        let mut start = p.at + 6;
        if p.b.get(start) == Some(&b'\r') {
            start += 1;
        }
        if p.b.get(start) == Some(&b'\n') {
            start += 1;
        }
        let declared = match get(&dict, b"Length") {
            Some(Obj::Int(n)) => usize::try_from(*n).ok(),
            Some(Obj::Ref(r)) => self.length_object(*r)?,
            _ => None,
        };
        let ends_there = |end: usize| {
            let mut q = Parser::new(self.b, end, 1);
            q.keyword(b"endstream")
        };
        let end = match declared.and_then(|n| start.checked_add(n)) {
            Some(end) if end <= self.b.len() && ends_there(end) => end,
            _ => {
                let found = memchr::memmem::find(&self.b[start.min(self.b.len())..], b"endstream");
                self.spend(found.unwrap_or(self.b.len() - start.min(self.b.len())))?;
                let mut end = start + found.unwrap_or(self.b.len().saturating_sub(start));
                end = end.min(self.b.len());
                if end > start && self.b[end - 1] == b'\n' {
                    end -= 1;
                }
                if end > start && self.b[end - 1] == b'\r' {
                    end -= 1;
                }
                end
            }
        };
        Ok(Some((num, Obj::Stream(Box::new((dict, start..end))))))
    }

    /// A stream's `/Length` written as an indirect object: an integer, never another stream.
    fn length_object(&mut self, num: u32) -> Result<Option<usize>, Refused> {
        let Some(Loc::At(off)) = self.xref.get(&num).copied() else {
            return Ok(None);
        };
        let mut p = Parser::new(self.b, off, 4);
        let ok = p.unsigned().is_some() && p.unsigned().is_some() && p.keyword(b"obj");
        let n = if ok { p.unsigned() } else { None };
        self.spend(p.at.saturating_sub(off))?;
        Ok(n.and_then(|n| usize::try_from(n).ok()))
    }

    /// Decodes a stream's data: FlateDecode (with a PNG predictor, as cross-reference streams
    /// use), or none; `None` for another filter. At most [`Limits::stream`] bytes: past them
    /// the file is refused.
    fn decode(&mut self, dict: &Dict, range: Range<usize>) -> Result<Option<Vec<u8>>, Refused> {
        let b = self.b;
        let raw = &b[range];
        let filter = match get(dict, b"Filter") {
            None => None,
            Some(Obj::Name(n)) => Some(n.as_slice()),
            Some(Obj::Array(a)) if a.is_empty() => None,
            Some(Obj::Array(a)) if a.len() == 1 => match &a[0] {
                Obj::Name(n) => Some(n.as_slice()),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        let data = match filter {
            None => {
                self.spend(raw.len())?;
                raw.to_vec()
            }
            Some(b"FlateDecode" | b"Fl") => {
                let allowed = self
                    .limits
                    .stream
                    .min(self.limits.work.saturating_sub(self.work));
                let mut out = Vec::new();
                let mut z = flate2::read::ZlibDecoder::new(raw);
                // A stream cut short, or whose checksum is wrong, keeps what was decoded.
                let _ = (&mut z)
                    .take(allowed.saturating_add(1))
                    .read_to_end(&mut out);
                if out.len() as u64 > allowed {
                    return Err(if out.len() as u64 > self.limits.stream {
                        Refused(format!(
                            "refused: a stream decodes to more than {} bytes (a quarter of the memory bound, twice the file + 50 MB); a flate bomb?",
                            self.limits.stream
                        ))
                    } else {
                        refused_work(&self.limits)
                    });
                }
                self.spend(out.len().max(raw.len()))?;
                out
            }
            Some(_) => return Ok(None),
        };
        let params = match get(dict, b"DecodeParms") {
            Some(Obj::Dict(d)) => Some(d),
            Some(Obj::Array(a)) => match a.first() {
                Some(Obj::Dict(d)) => Some(d),
                _ => None,
            },
            _ => None,
        };
        let predictor = params
            .and_then(|d| as_int(get(d, b"Predictor")))
            .unwrap_or(1);
        if predictor < 10 {
            return Ok(Some(data));
        }
        let columns = params
            .and_then(|d| as_int(get(d, b"Columns")))
            .and_then(|c| usize::try_from(c).ok())
            .filter(|&c| c > 0 && c <= 1 << 20)
            .unwrap_or(1);
        Ok(Some(unpredict_png(&data, columns)))
    }

    /// The decoded object stream `num`, kept while [`Limits::cache`] allows.
    fn objstm(&mut self, num: u32) -> Result<Option<std::rc::Rc<ObjStm>>, Refused> {
        if let Some(s) = self.cache.get(&num) {
            return Ok(Some(s.clone()));
        }
        let Some(Loc::At(off)) = self.xref.get(&num).copied() else {
            return Ok(None);
        };
        let Some((_, Obj::Stream(stream))) = self.parse_at(off)? else {
            return Ok(None);
        };
        let (dict, range) = *stream;
        if !is_name(get(&dict, b"Type"), b"ObjStm") {
            return Ok(None);
        }
        let Some(data) = self.decode(&dict, range)? else {
            return Ok(None);
        };
        let n = as_int(get(&dict, b"N")).unwrap_or(0);
        let first = as_int(get(&dict, b"First"))
            .and_then(|f| usize::try_from(f).ok())
            .unwrap_or(0);
        let mut offsets = Vec::new();
        let mut p = Parser::new(&data, 0, 1);
        for _ in 0..n.max(0) {
            let (Some(obj), Some(rel)) = (p.unsigned(), p.unsigned()) else {
                break;
            };
            let (Ok(obj), Some(at)) = (
                u32::try_from(obj),
                usize::try_from(rel).ok().and_then(|r| r.checked_add(first)),
            ) else {
                break;
            };
            offsets.push((obj, at));
        }
        self.spend(p.at)?;
        let size = data.len() as u64 + offsets.len() as u64 * 16;
        if self.cached + size > self.limits.cache {
            // Dropped all at once: what is dropped is read again if asked for, within the work
            // bound.
            self.cache.clear();
            self.cached = 0;
        }
        let stm = std::rc::Rc::new(ObjStm { data, offsets });
        if size <= self.limits.cache {
            self.cache.insert(num, stm.clone());
            self.cached += size;
        }
        Ok(Some(stm))
    }

    /// The object `num`, parsed; `None` when it is not defined or cannot be read.
    fn object(&mut self, num: u32) -> Result<Option<Obj>, Refused> {
        match self.xref.get(&num).copied() {
            Some(Loc::At(off)) => {
                if let Some((n, obj)) = self.parse_at(off)?
                    && n == num
                {
                    return Ok(Some(obj));
                }
                // An offset that is wrong (a file edited by hand, or cut and joined): the
                // object where a scan of the file finds it.
                match self.rescued(num)? {
                    Some(at) if at != off => Ok(self
                        .parse_at(at)?
                        .filter(|(n, _)| *n == num)
                        .map(|(_, o)| o)),
                    _ => Ok(None),
                }
            }
            Some(Loc::In(stm, idx)) => {
                let Some(s) = self.objstm(stm)? else {
                    return Ok(None);
                };
                // The index given, or the object's number looked up in the stream's header.
                let at = match s.offsets.get(idx as usize) {
                    Some(&(n, at)) if n == num => Some(at),
                    _ => s.offsets.iter().find(|(n, _)| *n == num).map(|&(_, at)| at),
                };
                let Some(at) = at.filter(|&at| at <= s.data.len()) else {
                    return Ok(None);
                };
                let mut p = Parser::new(&s.data, at, self.limits.nodes);
                let obj = p.object(0);
                self.spend(p.at - at)?;
                // A stream cannot be inside an object stream.
                Ok(obj.filter(|o| !matches!(o, Obj::Stream(_))))
            }
            None => Ok(None),
        }
    }

    /// Where a scan of the file finds object `num` (the scan made once, when an offset of the
    /// cross-reference data is first found wrong).
    fn rescued(&mut self, num: u32) -> Result<Option<usize>, Refused> {
        if self.scanned {
            return Ok(None);
        }
        if self.rescue.is_none() {
            let found = self.scan_objects()?.0;
            self.rescue = Some(found);
        }
        Ok(self.rescue.as_ref().and_then(|r| r.get(&num).copied()))
    }

    /// `obj`, or the object it refers to.
    fn resolve(&mut self, obj: Obj) -> Result<Option<Obj>, Refused> {
        match obj {
            Obj::Ref(n) => self.object(n),
            other => Ok(Some(other)),
        }
    }

    fn root(&mut self) -> Option<u32> {
        match get(&self.trailer, b"Root") {
            Some(Obj::Ref(n)) => Some(*n),
            _ => None,
        }
    }

    /// Hands each action behind a link annotation to `on_link`, page by page, in the order of
    /// each page's `/Annots`. A page, annotation array, annotation or action reached again
    /// (shared, or a loop) is not read again.
    pub fn links(&mut self, on_link: &mut dyn FnMut(Link)) -> Result<(), Refused> {
        let unreadable = || {
            Refused(
                "not a readable PDF: no document catalog (the trailer's /Root) was found".into(),
            )
        };
        let root = self.root().ok_or_else(unreadable)?;
        let Some(Obj::Dict(catalog)) = self.object(root)? else {
            return Err(unreadable());
        };
        let Some(pages) = get(&catalog, b"Pages").cloned() else {
            return Ok(());
        };
        let mut seen_nodes = HashSet::new();
        let mut seen_annots = HashSet::new();
        let mut seen_actions = HashSet::new();
        let mut page = 0usize;
        let mut handed = 0usize;
        let most = self.limits.links;
        let mut on_link = |link: Link| {
            handed += 1;
            if handed > most {
                return Err(Refused(format!(
                    "refused: it has more than {most} link actions (one per 2 KB of the file + 50 MB, each checked as a document of its own)"
                )));
            }
            on_link(link);
            Ok(())
        };
        // (node, the indirect object it is or is inside); walked depth first, in order.
        let mut stack = vec![(pages, root)];
        while let Some((node, holder)) = stack.pop() {
            let holder = match &node {
                Obj::Ref(n) => {
                    if !seen_nodes.insert(*n) {
                        continue;
                    }
                    *n
                }
                _ => holder,
            };
            let Some(Obj::Dict(dict)) = self.resolve(node)? else {
                continue;
            };
            let is_tree = is_name(get(&dict, b"Type"), b"Pages")
                || (!is_name(get(&dict, b"Type"), b"Page") && get(&dict, b"Kids").is_some());
            if is_tree {
                let kids = match get(&dict, b"Kids").cloned() {
                    Some(Obj::Ref(n)) if seen_nodes.insert(n) => self.object(n)?,
                    other => other,
                };
                if let Some(Obj::Array(kids)) = kids {
                    for kid in kids.into_iter().rev() {
                        // A direct kid is not allowed, but read; its depth is the parse's.
                        stack.push((kid, holder));
                    }
                }
                continue;
            }
            page += 1;
            let (annots, holder) = match get(&dict, b"Annots").cloned() {
                Some(Obj::Ref(n)) => {
                    if !seen_annots.insert(n) {
                        continue;
                    }
                    (self.object(n)?, n)
                }
                other => (other, holder),
            };
            drop(dict);
            let Some(Obj::Array(annots)) = annots else {
                continue;
            };
            for (i, annot) in annots.into_iter().enumerate() {
                let (object, index) = match annot {
                    Obj::Ref(n) => {
                        if !seen_annots.insert(n) {
                            continue;
                        }
                        (n, None)
                    }
                    _ => (holder, Some(i + 1)),
                };
                let Some(Obj::Dict(annot)) = self.resolve(annot)? else {
                    continue;
                };
                if !is_name(get(&annot, b"Subtype"), b"Link") {
                    continue;
                }
                let Some(action) = get(&annot, b"A").cloned() else {
                    continue;
                };
                drop(annot);
                let mut at = Link {
                    page,
                    object,
                    index,
                    step: 0,
                    action: Action::Uri,
                    text: String::new(),
                };
                self.actions(action, &mut at, &mut seen_actions, &mut on_link)?;
            }
        }
        Ok(())
    }

    /// Reads the chain of actions from `first` (`/Next`, a dictionary or an array of them),
    /// handing each URI, Launch and JavaScript action to `on_link`.
    fn actions(
        &mut self,
        first: Obj,
        at: &mut Link,
        seen: &mut HashSet<u32>,
        on_link: &mut dyn FnMut(Link) -> Result<(), Refused>,
    ) -> Result<(), Refused> {
        let mut queue = std::collections::VecDeque::from([first]);
        let mut step = 0;
        while let Some(action) = queue.pop_front() {
            if step >= MAX_CHAIN {
                break;
            }
            if let Obj::Ref(n) = action
                && !seen.insert(n)
            {
                continue;
            }
            let Some(Obj::Dict(dict)) = self.resolve(action)? else {
                continue;
            };
            let kind = match get(&dict, b"S") {
                Some(Obj::Name(n)) if n == b"URI" => Some(Action::Uri),
                Some(Obj::Name(n)) if n == b"Launch" => Some(Action::Launch),
                Some(Obj::Name(n)) if n == b"JavaScript" => Some(Action::JavaScript),
                _ => None,
            };
            if let Some(kind) = kind {
                let text = match kind {
                    Action::Uri => self.string(get(&dict, b"URI").cloned())?,
                    Action::Launch => self.file_spec(&dict)?,
                    Action::JavaScript => self.script(get(&dict, b"JS").cloned())?,
                };
                // A URI action without a string has nothing to check.
                if kind != Action::Uri || text.is_some() {
                    on_link(Link {
                        step,
                        action: kind,
                        text: text.unwrap_or_default(),
                        ..at.clone()
                    })?;
                }
            }
            step += 1;
            match get(&dict, b"Next").cloned() {
                Some(Obj::Array(next)) => queue.extend(next),
                Some(next) => queue.push_back(next),
                None => {}
            }
        }
        Ok(())
    }

    /// A string (direct or indirect), decoded.
    fn string(&mut self, obj: Option<Obj>) -> Result<Option<String>, Refused> {
        let Some(obj) = obj else { return Ok(None) };
        Ok(match self.resolve(obj)? {
            Some(Obj::Str(s)) => Some(decode_text(&s)),
            _ => None,
        })
    }

    /// What a Launch action opens: its `/F` (a string, or a file specification's `/UF` or
    /// `/F`), or the `/F` of its `/Win` (the program and its parameters on Windows).
    fn file_spec(&mut self, dict: &Dict) -> Result<Option<String>, Refused> {
        for key in [b"F".as_slice(), b"Win"] {
            let Some(obj) = get(dict, key).cloned() else {
                continue;
            };
            match self.resolve(obj)? {
                Some(Obj::Str(s)) => return Ok(Some(decode_text(&s))),
                Some(Obj::Dict(spec)) => {
                    for k in [b"UF".as_slice(), b"F", b"Unix", b"DOS"] {
                        if let Some(s) = self.string(get(&spec, k).cloned())? {
                            return Ok(Some(s));
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(None)
    }

    /// A JavaScript action's script: a string, or a stream decoded.
    fn script(&mut self, obj: Option<Obj>) -> Result<Option<String>, Refused> {
        let Some(obj) = obj else { return Ok(None) };
        Ok(match self.resolve(obj)? {
            Some(Obj::Str(s)) => Some(decode_text(&s)),
            Some(Obj::Stream(stream)) => {
                let (dict, range) = *stream;
                self.decode(&dict, range)?.map(|d| decode_text(&d))
            }
            _ => None,
        })
    }
}

/// Undoes the PNG predictors (PDF 32000-1 7.4.4.4) of rows `columns` bytes wide, each after
/// its filter-type byte; a row cut short is left out.
fn unpredict_png(data: &[u8], columns: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut prev = vec![0u8; columns];
    for chunk in data.chunks_exact(columns + 1) {
        let (kind, row) = (chunk[0], &chunk[1..]);
        let mut cur = vec![0u8; columns];
        for i in 0..columns {
            let left = if i > 0 { cur[i - 1] } else { 0 };
            let up = prev[i];
            let up_left = if i > 0 { prev[i - 1] } else { 0 };
            cur[i] = match kind {
                1 => row[i].wrapping_add(left),
                2 => row[i].wrapping_add(up),
                3 => row[i].wrapping_add(((u16::from(left) + u16::from(up)) / 2) as u8),
                4 => {
                    let p = i16::from(left) + i16::from(up) - i16::from(up_left);
                    let (pa, pb, pc) = (
                        (p - i16::from(left)).abs(),
                        (p - i16::from(up)).abs(),
                        (p - i16::from(up_left)).abs(),
                    );
                    let pred = if pa <= pb && pa <= pc {
                        left
                    } else if pb <= pc {
                        up
                    } else {
                        up_left
                    };
                    row[i].wrapping_add(pred)
                }
                _ => row[i],
            };
        }
        out.extend_from_slice(&cur);
        prev = cur;
    }
    out
}

/// Why a PDF's links are not read (or not read further).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotRead {
    /// The file is encrypted: its strings are, and irilint decrypts nothing.
    Encrypted,
    /// Past a bound ([`Limits`]): the links handed over before it stand.
    Refused(Refused),
}

impl From<Refused> for NotRead {
    fn from(r: Refused) -> NotRead {
        NotRead::Refused(r)
    }
}

/// What is said of an encrypted PDF, which is skipped.
pub const ENCRYPTED: &str =
    "skipped: the PDF is encrypted, and irilint decrypts nothing (its links are encrypted strings)";

/// Reads the PDF `bytes` (shown as `path`) and hands each action behind a link to `on_source`
/// as a document of its own: shown as `path!page 3 obj 12` ([`Link::label`]), its text the
/// IRI, file or script, its [`Source::pdf_action`] what the action does.
pub fn each_link_source(
    path: &str,
    bytes: &[u8],
    on_source: &mut dyn FnMut(Source),
) -> Result<(), NotRead> {
    let mut pdf = Pdf::open(bytes, Limits::for_len(bytes.len()))?;
    if pdf.encrypted() {
        return Err(NotRead::Encrypted);
    }
    pdf.links(&mut |link| {
        let mut source = Source::from_text(
            format!("{path}!{}", link.label()),
            crate::source::Format::Pdf,
            link.text,
        );
        source.pdf_action = Some(link.action);
        on_source(source);
    })?;
    Ok(())
}

/// The rule that reports a link that runs something.
pub const UNSAFE_ACTION: &str = "pdf-unsafe-action";

/// The IRI of an action read from a PDF link (its whole text), and a `pdf-unsafe-action`
/// problem for a Launch or JavaScript action or a `javascript:` IRI, spanning the text.
pub fn extract_each(source: &Source, on_occurrence: &mut dyn FnMut(Occurrence)) -> Extraction {
    let text = &source.text;
    let whole = 0..text.len();
    let mut problems = Vec::new();
    let mut problem = |message: String, help: &str| {
        problems.push(Problem {
            rule: UNSAFE_ACTION,
            range: whole.clone(),
            message,
            help: Some(help.to_string()),
            related: Vec::new(),
            milder: false,
            fix: None,
        })
    };
    match source.pdf_action {
        Some(Action::Uri) => {
            // As a browser reads a URL: leading spaces and controls are not part of it.
            let scheme = text.trim_start_matches(|c: char| c <= ' ');
            if scheme
                .get(..11)
                .is_some_and(|s| s.eq_ignore_ascii_case("javascript:"))
            {
                problem(
                    "the link runs JavaScript when it is clicked (a `javascript:` URI)".into(),
                    "link to a page instead; a PDF reader that runs it runs the script with the document's rights",
                );
            }
            on_occurrence(Occurrence::verbatim(text, whole.clone(), "pdf:URI"));
        }
        Some(Action::Launch) => problem(
            "the link opens a file or runs a program when it is clicked (a Launch action)".into(),
            "link to a page (a URI action) instead; a Launch action can run any program on the reader's machine",
        ),
        Some(Action::JavaScript) => problem(
            "the link runs JavaScript when it is clicked (a JavaScript action)".into(),
            "link to a page (a URI action) instead; a PDF reader that runs it runs the script with the document's rights",
        ),
        // A whole PDF given as text (standard input read as text): no link is read from it.
        None => {}
    }
    Extraction {
        problems,
        ..Extraction::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &[u8]) -> Option<Obj> {
        Parser::new(s, 0, 1000).object(0)
    }

    #[test]
    fn strings_resolve_their_escapes() {
        assert_eq!(parse(b"(a\\(b\\)c)"), Some(Obj::Str(b"a(b)c".to_vec())));
        assert_eq!(parse(b"(a(b)c)"), Some(Obj::Str(b"a(b)c".to_vec())));
        assert_eq!(
            parse(b"(\\101\\0401\\7)"),
            Some(Obj::Str(b"A 1\x07".to_vec()))
        );
        assert_eq!(parse(b"(a\\\nb\r\nc)"), Some(Obj::Str(b"ab\nc".to_vec())));
        assert_eq!(parse(b"<68 74 7>"), Some(Obj::Str(b"ht\x70".to_vec())));
        assert_eq!(parse(b"/A#20B"), Some(Obj::Name(b"A B".to_vec())));
        assert_eq!(parse(b"12 0 R"), Some(Obj::Ref(12)));
        assert_eq!(parse(b"12 0 obj"), Some(Obj::Int(12)));
    }

    #[test]
    fn texts_decode_by_their_byte_order_mark_or_pdfdocencoding() {
        assert_eq!(decode_text(b"\xFE\xFF\x00h\x04\x30"), "h\u{430}");
        assert_eq!(decode_text(b"\xFE\xFF\xD8\x00"), "\u{FFFD}");
        assert_eq!(decode_text("caf\u{e9}".as_bytes()), "caf\u{e9}");
        // Not UTF-8 (0xE9 before `!`): PDFDocEncoding, 0x80 a bullet, 0xA0 the euro sign.
        assert_eq!(
            decode_text(b"caf\xE9!\x80\xA0"),
            "caf\u{e9}!\u{2022}\u{20AC}"
        );
    }

    #[test]
    fn nesting_past_the_depth_limit_is_no_object() {
        let deep = "[".repeat(MAX_DEPTH + 2);
        assert_eq!(parse(deep.as_bytes()), None);
        let ok = format!("{}{}", "[".repeat(10), "]".repeat(10));
        assert!(parse(ok.as_bytes()).is_some());
    }

    #[test]
    fn png_predictors_are_undone() {
        // Two rows of two columns: `Up` adds the row above.
        assert_eq!(unpredict_png(&[2, 1, 2, 2, 1, 1], 2), vec![1, 2, 2, 3]);
        assert_eq!(unpredict_png(&[1, 1, 2], 2), vec![1, 3]);
    }
}
