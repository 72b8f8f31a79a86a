//! The wire: LSP's base protocol (`Content-Length` headers, a blank line, a JSON body) read
//! from stdin and written to stdout, on a thread each. lsp-server's [`Connection`] and
//! [`Message`] types are kept; its stdio reader is not (it allocated whatever length it was
//! told, and ended the session at the first message it could not read).
//!
//! Every byte read may come from an attacker (an editor forwards what it is given), so:
//!
//! - A message longer than [`MAX_MESSAGE`] is answered with an Invalid Request error (-32600, id
//!   null) as soon as its header is read, then read past in the reader's buffer-sized chunks,
//!   never held. A `didOpen` or `didChange` read past this way is handed to the server as an
//!   [`OVERSIZED`] notification, so the editor is told the file was not checked.
//! - A body is held only as far as it has arrived (a header cannot make the server reserve
//!   memory), and a header line only up to [`MAX_HEADER_LINE`] bytes.
//! - A body that is not UTF-8 or not JSON is answered with a Parse error (-32700, id null); JSON
//!   that is no request, notification or response (a batch, no `method`, one that is not a
//!   string, an `id` that is neither a string nor a 32-bit integer) with an Invalid Request
//!   error (-32600) carrying the message's `id` when it is a number or a string. A malformed
//!   *response* gets no answer (JSON-RPC never answers a response). Each is logged on stderr,
//!   and the next message is read.
//! - A body of tiny values (`[0,0,0,…]`) would take some 17 times its size as a tree (a 60 MiB
//!   one: about 1 GB): a message of more than [`MAX_VALUES`] values is refused (-32600) after
//!   one counting pass, before it is parsed.
//! - Framing that is lost cannot be recovered with certainty, since the body's length is
//!   unknown: no `Content-Length`, one that is not a number, two that differ, a header line that
//!   is not `Name: value` or is too long. The reader answers with a Parse error (-32700, id
//!   null) and skips to the next `Content-Length:` in the stream, searched from the bad line's
//!   second byte on (so that the header stuck to the end of a body whose announced length was
//!   wrong is found), and reads on from there. The message that lost its framing is dropped;
//!   skipped bytes that themselves contain `Content-Length:` can cost another error, and only
//!   bytes that imitate a whole header could be taken for a message.
//!
//! End of input ends the session, as does `exit` (after which nothing more is read).

use std::io::{self, BufRead, Write};
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, bounded, never, select};
use lsp_server::{
    Connection, ErrorCode, Message, Notification, Request, RequestId, Response, ResponseError,
};
use serde_json::{Value, json};

use super::is_exit;
use super::oversized::{OVERSIZED, Oversized, Sniffer};

/// The largest message read, in bytes (64 MiB: a document of tens of megabytes, as JSON).
pub const MAX_MESSAGE: u64 = 64 << 20;

/// The longest header line kept, in bytes, line end included (LSP's are some 30 bytes).
pub const MAX_HEADER_LINE: usize = 4096;

const CONTENT_LENGTH: &[u8] = b"content-length:";

/// One message's worth of input, as framed.
#[derive(Debug, PartialEq)]
pub enum Frame {
    /// A body of the length its header gave.
    Body(Vec<u8>),
    /// A `Content-Length` over [`MAX_MESSAGE`]: the next read first skips that many bytes.
    TooLarge(u64),
    /// Headers that could not be read, and why: the next read first skips to the next
    /// `Content-Length:`.
    Lost(&'static str),
    /// A message over [`MAX_MESSAGE`], read past, that opened or changed this document.
    Oversized(Oversized),
}

/// What the next read must first pass over.
enum Pending {
    Nothing,
    Skip(u64),
    Resync,
}

/// Reads frames from `input`, holding at most one header line and one body of at most
/// [`MAX_MESSAGE`] bytes.
pub struct Reader<R> {
    input: R,
    /// The header line being read (a resynchronisation may have begun it).
    line: Vec<u8>,
    /// Whether `line` was begun by a resynchronisation, to be completed rather than replaced.
    keep: bool,
    pending: Pending,
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            // Never grown: a line is kept only while it fits.
            line: Vec::with_capacity(MAX_HEADER_LINE),
            keep: false,
            pending: Pending::Nothing,
        }
    }

    /// The next frame; `None` at the end of input (also in the middle of a message).
    pub fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        let ready = match std::mem::replace(&mut self.pending, Pending::Nothing) {
            Pending::Nothing => true,
            Pending::Skip(n) => {
                let mut sniffer = Sniffer::default();
                let ready = self.skip(n, &mut sniffer)?;
                if let Some(document) = sniffer.document(n).filter(|_| ready) {
                    return Ok(Some(Frame::Oversized(document)));
                }
                ready
            }
            Pending::Resync => self.resync()?,
        };
        if !ready {
            return Ok(None);
        }
        let mut length = None;
        let mut started = false;
        loop {
            let Some(fits) = self.read_line()? else {
                return Ok(None);
            };
            if !fits {
                return Ok(Some(self.lost("a header line too long")));
            }
            let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() {
                if started {
                    break;
                }
                // Blank lines between messages are let pass.
                continue;
            }
            started = true;
            let Some(colon) = memchr::memchr(b':', line) else {
                return Ok(Some(self.lost("a header line that is not `Name: value`")));
            };
            let name = &line[..colon];
            if name.is_empty() || !name.iter().copied().all(is_token) {
                return Ok(Some(self.lost("a header line that is not `Name: value`")));
            }
            if name.eq_ignore_ascii_case(&CONTENT_LENGTH[..CONTENT_LENGTH.len() - 1]) {
                let Some(n) = parse_length(line[colon + 1..].trim_ascii()) else {
                    return Ok(Some(self.lost("a Content-Length that is not a number")));
                };
                if length.is_some_and(|l| l != n) {
                    return Ok(Some(self.lost("two different Content-Length headers")));
                }
                length = Some(n);
            }
        }
        self.line.clear();
        let Some(length) = length else {
            return Ok(Some(self.lost("a message without a Content-Length header")));
        };
        if length > MAX_MESSAGE {
            self.pending = Pending::Skip(length);
            return Ok(Some(Frame::TooLarge(length)));
        }
        let mut body = Vec::new();
        Ok(self
            .read_body(length as usize, &mut body)?
            .then_some(Frame::Body(body)))
    }

    fn lost(&mut self, why: &'static str) -> Frame {
        self.pending = Pending::Resync;
        Frame::Lost(why)
    }

    /// Reads a line, its `\n` included, into `line` (after what a resynchronisation put there):
    /// whether it fits in [`MAX_HEADER_LINE`] (the part that does not is read and dropped);
    /// `None` at the end of input.
    fn read_line(&mut self) -> io::Result<Option<bool>> {
        if !std::mem::take(&mut self.keep) {
            self.line.clear();
        }
        if self.line.ends_with(b"\n") {
            return Ok(Some(true));
        }
        let mut fits = true;
        loop {
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(None);
            }
            let (used, done) = match memchr::memchr(b'\n', buf) {
                Some(k) => (k + 1, true),
                None => (buf.len(), false),
            };
            if fits && self.line.len() + used <= MAX_HEADER_LINE {
                self.line.extend_from_slice(&buf[..used]);
            } else {
                fits = false;
                self.line.clear();
            }
            self.input.consume(used);
            if done {
                return Ok(Some(fits));
            }
        }
    }

    /// Reads `length` bytes into `body`, growing it only as they arrive (never past `length`);
    /// whether there were so many.
    fn read_body(&mut self, length: usize, body: &mut Vec<u8>) -> io::Result<bool> {
        while body.len() < length {
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(false);
            }
            let used = buf.len().min(length - body.len());
            if body.capacity() - body.len() < used {
                // Doubling, capped at what is still to come.
                let more = body.capacity().max(used).min(length - body.len());
                body.reserve_exact(more);
            }
            body.extend_from_slice(&buf[..used]);
            self.input.consume(used);
        }
        Ok(true)
    }

    /// Reads and drops `n` bytes, shown to `sniffer` until it is done; whether there were so
    /// many.
    fn skip(&mut self, mut n: u64, sniffer: &mut Sniffer) -> io::Result<bool> {
        while n > 0 {
            let buf = fill(&mut self.input)?;
            let available = buf.len();
            if available == 0 {
                return Ok(false);
            }
            let used = available.min(usize::try_from(n).unwrap_or(usize::MAX));
            if !sniffer.done() {
                sniffer.feed(&buf[..used]);
            }
            self.input.consume(used);
            n -= used as u64;
        }
        Ok(true)
    }

    /// Finds the next `Content-Length:` (in any case), from the second byte of the line that
    /// lost the framing on, and leaves `line` begun with it; whether there is one.
    fn resync(&mut self) -> io::Result<bool> {
        let found = self.line.get(1..).and_then(|rest| {
            rest.windows(CONTENT_LENGTH.len())
                .position(|w| w.eq_ignore_ascii_case(CONTENT_LENGTH))
        });
        if let Some(at) = found {
            self.line.drain(..1 + at);
            self.keep = true;
            return Ok(true);
        }
        self.line.clear();
        let mut matched = 0;
        loop {
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(false);
            }
            let mut used = buf.len();
            for (k, b) in buf.iter().map(u8::to_ascii_lowercase).enumerate() {
                // No proper prefix of the needle recurs in it: a mismatch restarts the match.
                matched = if b == CONTENT_LENGTH[matched] {
                    matched + 1
                } else {
                    usize::from(b == CONTENT_LENGTH[0])
                };
                if matched == CONTENT_LENGTH.len() {
                    used = k + 1;
                    break;
                }
            }
            self.input.consume(used);
            if matched == CONTENT_LENGTH.len() {
                self.line.extend_from_slice(b"Content-Length:");
                self.keep = true;
                return Ok(true);
            }
        }
    }
}

/// `input`'s buffered bytes, reading more if there are none; empty at the end.
fn fill(input: &mut impl BufRead) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(_) => break,
        }
    }
    input.fill_buf()
}

/// Whether `b` may be in a header name (an HTTP token character).
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// A length of decimal digits; one too large for 64 bits is taken as the largest (it is over
/// the limit either way, and the input ends before it).
fn parse_length(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |n, &d| {
        d.is_ascii_digit()
            .then(|| n.saturating_mul(10).saturating_add(u64::from(d - b'0')))
    })
}

/// An error response the reader sends for a message it could not take.
#[derive(Debug, PartialEq)]
pub struct Rejection {
    /// The message's id when it could be read, else null.
    pub id: Value,
    pub code: i32,
    pub message: String,
}

impl Rejection {
    fn new(id: Value, code: ErrorCode, message: impl Into<String>) -> Rejection {
        Rejection {
            id,
            code: code as i32,
            message: message.into(),
        }
    }

    fn to_json(&self) -> Value {
        json!({
            "jsonrpc": "2.0",
            "id": self.id,
            "error": {"code": self.code, "message": self.message},
        })
    }
}

/// What a body holds.
#[derive(Debug)]
pub enum Parsed {
    Message(Message),
    /// Not a message the server can take: the error to answer with.
    Rejected(Rejection),
    /// A malformed response to one of the server's requests (not to be answered), and why.
    Dropped(&'static str),
}

/// The most JSON values (scalars, arrays, objects) a message may hold: what an editor sends (a
/// whole document is one string) is far below, and the parsed tree of this many stays within
/// some 100 MB.
pub const MAX_VALUES: usize = 1 << 20;

/// Whether `body` holds at least `limit` JSON values, counted as the commas, colons and
/// opening brackets outside strings (an upper bound that is exact up to one per container).
fn json_values_at_least(body: &[u8], limit: usize) -> bool {
    let mut count = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in body {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b',' | b'[' | b'{' => {
                count += 1;
                if count >= limit {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// Reads a body as a JSON-RPC message.
pub fn parse(body: &[u8]) -> Parsed {
    let rejected = |id, code, message: String| Parsed::Rejected(Rejection::new(id, code, message));
    let Ok(text) = std::str::from_utf8(body) else {
        return rejected(
            Value::Null,
            ErrorCode::ParseError,
            "the message is not UTF-8".into(),
        );
    };
    // A parsed value takes some 17 times the bytes of a body of tiny values (`[0,0,…]`): their
    // number is counted first, in one pass, and too many is refused before parsing.
    if json_values_at_least(body, MAX_VALUES) {
        return rejected(
            Value::Null,
            ErrorCode::InvalidRequest,
            format!("the message holds more than {MAX_VALUES} JSON values: not parsed"),
        );
    }
    // serde_json refuses nesting deeper than 128 (a parse error here), so nothing below recurses
    // without bound.
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            return rejected(
                Value::Null,
                ErrorCode::ParseError,
                format!("the message is not JSON: {e}"),
            );
        }
    };
    let batch = value.is_array();
    let Value::Object(mut fields) = value else {
        let what = if batch {
            "the message is a batch, which LSP does not have"
        } else {
            "the message is not a JSON object"
        };
        return rejected(Value::Null, ErrorCode::InvalidRequest, what.into());
    };
    // Read by hand rather than as lsp-server's untagged `Message`, so that each field means one
    // thing (and the parameters are moved, not copied through serde's buffer).
    let id = fields.remove("id").unwrap_or(Value::Null);
    let request_id = match &id {
        Value::Number(n) => n
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(RequestId::from),
        Value::String(s) => Some(RequestId::from(s.clone())),
        _ => None,
    };
    // JSON-RPC ids are strings or numbers: another is answered as null.
    let echo = if id.is_string() || id.is_number() {
        id.clone()
    } else {
        Value::Null
    };
    let invalid = |why: &str| rejected(echo, ErrorCode::InvalidRequest, why.into());
    let message = match fields.remove("method") {
        Some(Value::String(method)) => {
            let params = fields.remove("params").unwrap_or(Value::Null);
            match request_id {
                _ if id.is_null() => Message::Notification(Notification { method, params }),
                Some(id) => Message::Request(Request { id, method, params }),
                // lsp-server's ids are strings and 32-bit integers (as LSP's are).
                None => {
                    return invalid("the request's id is neither a string nor a 32-bit integer");
                }
            }
        }
        Some(_) => return invalid("the message's method is not a string"),
        None => {
            let result = match (fields.remove("result"), fields.remove("error")) {
                (Some(result), None) => Ok(result),
                (None, Some(error)) => match serde_json::from_value::<ResponseError>(error) {
                    Ok(error) => Err(error),
                    Err(_) => return Parsed::Dropped("a response whose error is malformed"),
                },
                (None, None) => {
                    return invalid("the message has no method, result or error");
                }
                (Some(_), Some(_)) => {
                    return Parsed::Dropped("a response with both a result and an error");
                }
            };
            let Some(id) = request_id else {
                return Parsed::Dropped("a response whose id is not one the server gave");
            };
            Message::Response(Response {
                id,
                response_result: result,
            })
        }
    };
    Parsed::Message(message)
}

/// The reader's and the writer's threads.
pub struct Threads {
    reader: JoinHandle<()>,
    writer: JoinHandle<io::Result<()>>,
}

impl Threads {
    /// Waits for both to end (the writer once every sender of the connection is dropped).
    pub fn join(self) {
        let _ = self.reader.join();
        // A client that went away leaves a broken pipe behind: nothing more to say to it.
        let _ = self.writer.join();
    }
}

/// A connection over stdin and stdout.
pub fn stdio() -> (Connection, Threads) {
    // Rendezvous channels, as lsp-server's: the reader reads no further than the server has
    // taken, so a client cannot queue messages in memory faster than they are handled.
    let (to_server, from_client) = bounded(0);
    let (to_client, from_server) = bounded(0);
    let (rejections, rejected) = bounded(0);
    let reader = thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let input = io::BufReader::with_capacity(64 << 10, io::stdin());
            // A read error ends the session as the end of input does.
            let _ = read_loop(input, &to_server, &rejections);
        })
        .expect("a thread can be started");
    let writer = thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || write_loop(io::stdout().lock(), &from_server, rejected))
        .expect("a thread can be started");
    let connection = Connection {
        sender: to_client,
        receiver: from_client,
    };
    (connection, Threads { reader, writer })
}

/// Hands the messages read from `input` to the server and what cannot be taken to the writer,
/// until the end of input, `exit`, or a side that went away.
fn read_loop(
    input: impl BufRead,
    messages: &Sender<Message>,
    rejections: &Sender<Rejection>,
) -> io::Result<()> {
    let mut reader = Reader::new(input);
    while let Some(frame) = reader.next_frame()? {
        let rejection = match frame {
            Frame::Body(body) => match parse(&body) {
                Parsed::Message(message) => {
                    let exit = is_exit(&message);
                    if messages.send(message).is_err() || exit {
                        return Ok(());
                    }
                    continue;
                }
                Parsed::Rejected(rejection) => rejection,
                Parsed::Dropped(why) => {
                    log(why);
                    continue;
                }
            },
            Frame::TooLarge(length) => Rejection::new(
                Value::Null,
                ErrorCode::InvalidRequest,
                format!(
                    "a message of {length} bytes is over the limit of {MAX_MESSAGE} bytes: skipped unread"
                ),
            ),
            Frame::Oversized(document) => {
                // The server publishes that the document was not checked.
                log(&format!(
                    "{} was sent in a message over the limit: reported as not checked",
                    document.uri
                ));
                let note = Notification::new(OVERSIZED.into(), document);
                if messages.send(Message::Notification(note)).is_err() {
                    return Ok(());
                }
                continue;
            }
            Frame::Lost(why) => Rejection::new(
                Value::Null,
                ErrorCode::ParseError,
                format!("{why}: skipped to the next Content-Length header"),
            ),
        };
        log(&rejection.message);
        if rejections.send(rejection).is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// Writes what the server and the reader send, until the server's side is dropped.
fn write_loop(
    mut out: impl Write,
    messages: &Receiver<Message>,
    mut rejections: Receiver<Rejection>,
) -> io::Result<()> {
    loop {
        select! {
            recv(messages) -> message => match message {
                Ok(message) => message.write(&mut out)?,
                Err(_) => return Ok(()),
            },
            recv(rejections) -> rejection => match rejection {
                Ok(rejection) => {
                    let body = rejection.to_json().to_string();
                    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
                    out.flush()?;
                }
                // The reader ended; the server may still have something to say.
                Err(_) => rejections = never(),
            },
        }
    }
}

/// A line for the editor's log of the server (its stderr), if anyone reads it.
fn log(message: &str) {
    let _ = writeln!(io::stderr(), "irilint lsp: {message}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream of parts, some of them a byte repeated many times, served without being held.
    struct Script {
        parts: std::collections::VecDeque<Part>,
        /// A buffer of one repeated byte, served again and again.
        run: Vec<u8>,
        /// Bytes served in all.
        served: u64,
    }

    enum Part {
        Bytes(Vec<u8>, usize),
        Repeat(u8, u64),
    }

    impl Script {
        fn new() -> Script {
            Script {
                parts: Default::default(),
                run: Vec::new(),
                served: 0,
            }
        }
        fn bytes(mut self, bytes: &[u8]) -> Script {
            self.parts.push_back(Part::Bytes(bytes.to_vec(), 0));
            self
        }
        fn repeat(mut self, byte: u8, count: u64) -> Script {
            self.parts.push_back(Part::Repeat(byte, count));
            self
        }
    }

    impl io::Read for Script {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = {
                let buf = self.fill_buf()?;
                let n = buf.len().min(out.len());
                out[..n].copy_from_slice(&buf[..n]);
                n
            };
            self.consume(n);
            Ok(n)
        }
    }

    impl BufRead for Script {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            while let Some(part) = self.parts.front() {
                match part {
                    Part::Bytes(b, at) if *at == b.len() => {}
                    Part::Repeat(_, 0) => {}
                    _ => break,
                }
                self.parts.pop_front();
            }
            Ok(match self.parts.front() {
                None => &[],
                Some(Part::Bytes(b, at)) => &b[*at..],
                Some(&Part::Repeat(byte, left)) => {
                    if self.run.first() != Some(&byte) {
                        self.run = vec![byte; 1 << 20];
                    }
                    &self.run[..self
                        .run
                        .len()
                        .min(usize::try_from(left).unwrap_or(usize::MAX))]
                }
            })
        }
        fn consume(&mut self, n: usize) {
            self.served += n as u64;
            match self.parts.front_mut() {
                Some(Part::Bytes(_, at)) => *at += n,
                Some(Part::Repeat(_, left)) => *left -= n as u64,
                None => assert_eq!(n, 0),
            }
        }
    }

    fn framed(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    fn body(text: &str) -> Frame {
        Frame::Body(text.as_bytes().to_vec())
    }

    /// Every frame of `input`, to its end.
    fn frames(input: impl BufRead) -> Vec<Frame> {
        let mut reader = Reader::new(input);
        let mut out = Vec::new();
        while let Some(frame) = reader.next_frame().unwrap() {
            out.push(frame);
        }
        out
    }

    const INIT: &str =
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
    const NOTE: &str = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;

    #[test]
    fn well_formed_headers_in_their_variants_frame_their_bodies() {
        let mut input = framed(INIT);
        // Other headers, any case, no space, LF line ends, blank lines between messages.
        input.extend_from_slice(b"\r\n\ncontent-type: application/vscode-jsonrpc; charset=utf-8\n");
        input.extend_from_slice(format!("CONTENT-LENGTH:{}\n\n{NOTE}", NOTE.len()).as_bytes());
        input.extend_from_slice(b"Content-Length: 2\r\nContent-Length:  2 \r\n\r\n{}");
        assert_eq!(frames(&input[..]), [body(INIT), body(NOTE), body("{}")]);
    }

    #[test]
    fn a_huge_content_length_is_answered_before_its_body_then_skipped_unheld() {
        const HUGE: u64 = 1_000_000_000_000;
        // The refusal comes from the header alone: nothing after it is read.
        let header = format!("Content-Length: {HUGE}\r\n\r\n");
        let mut reader = Reader::new(Script::new().bytes(header.as_bytes()));
        assert_eq!(reader.next_frame().unwrap(), Some(Frame::TooLarge(HUGE)));
        assert_eq!(reader.input.served, header.len() as u64);
        // Then the terabyte is read past, in the input's chunks, and the next message is read.
        let input = Script::new()
            .bytes(header.as_bytes())
            .repeat(b'x', HUGE)
            .bytes(&framed(INIT));
        let mut reader = Reader::new(input);
        assert_eq!(reader.next_frame().unwrap(), Some(Frame::TooLarge(HUGE)));
        assert_eq!(reader.next_frame().unwrap(), Some(body(INIT)));
        assert_eq!(reader.next_frame().unwrap(), None);
        assert!(reader.line.capacity() <= MAX_HEADER_LINE);
        // Just over the limit is over; at the limit is read. Past 64 bits counts as the most.
        let over = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE + 1);
        let input = Script::new()
            .bytes(over.as_bytes())
            .repeat(b' ', MAX_MESSAGE + 1)
            .bytes(&framed(NOTE));
        assert_eq!(
            frames(input),
            [Frame::TooLarge(MAX_MESSAGE + 1), body(NOTE)]
        );
        let input = format!("Content-Length: 99999999999999999999999\r\n\r\n{NOTE}");
        assert_eq!(frames(input.as_bytes()), [Frame::TooLarge(u64::MAX)]);
    }

    #[test]
    fn a_did_open_read_past_is_told_by_its_uri_after_the_refusal() {
        let head = br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///big.md","languageId":"markdown","version":1,"text":""#;
        let tail = br#""}}}"#;
        let length = MAX_MESSAGE + 10;
        let text = length - (head.len() + tail.len()) as u64;
        let input = Script::new()
            .bytes(format!("Content-Length: {length}\r\n\r\n").as_bytes())
            .bytes(head)
            .repeat(b'x', text)
            .bytes(tail)
            .bytes(&framed(NOTE));
        let oversized = Frame::Oversized(Oversized {
            uri: "file:///big.md".into(),
            length,
            language_id: Some("markdown".into()),
        });
        assert_eq!(
            frames(input),
            [Frame::TooLarge(length), oversized, body(NOTE)]
        );
        // Cut short: nothing to tell, the input ended.
        let input = Script::new()
            .bytes(format!("Content-Length: {length}\r\n\r\n").as_bytes())
            .bytes(head)
            .repeat(b'x', 1000);
        assert_eq!(frames(input), [Frame::TooLarge(length)]);
    }

    #[test]
    fn a_body_is_held_as_it_arrives_not_as_announced() {
        // 64 MiB announced, 10 bytes or 3 MiB sent, then the end of input: the buffer is at most
        // twice what arrived.
        for sent in [10, 3 << 20] {
            let mut reader = Reader::new(Script::new().repeat(b'x', sent));
            let mut body = Vec::new();
            assert!(!reader.read_body(MAX_MESSAGE as usize, &mut body).unwrap());
            assert_eq!(body.len() as u64, sent);
            assert!(body.capacity() as u64 <= 2 * sent, "{}", body.capacity());
        }
        // All of it: exactly its size.
        for length in [10, (3 << 20) + 5] {
            let mut reader = Reader::new(Script::new().repeat(b'x', length as u64 + 10));
            let mut body = Vec::new();
            assert!(reader.read_body(length, &mut body).unwrap());
            assert_eq!((body.len(), body.capacity()), (length, length));
        }
    }

    #[test]
    fn a_missing_or_unreadable_content_length_skips_to_the_next_header() {
        let mut input = b"Content-Type: application/json\r\n\r\n".to_vec();
        input.extend_from_slice(INIT.as_bytes());
        input.extend_from_slice(&framed(NOTE));
        assert_eq!(
            frames(&input[..]),
            [
                Frame::Lost("a message without a Content-Length header"),
                body(NOTE)
            ]
        );
        for bad in ["twelve", "12a", "-5", "", "0x10", "1 2"] {
            let mut input = format!("Content-Length: {bad}\r\n\r\n{INIT}").into_bytes();
            input.extend_from_slice(&framed(NOTE));
            assert_eq!(
                frames(&input[..]),
                [
                    Frame::Lost("a Content-Length that is not a number"),
                    body(NOTE)
                ],
                "{bad}"
            );
        }
        let mut input =
            format!("Content-Length: 5\r\nContent-Length: 6\r\n\r\n{INIT}").into_bytes();
        input.extend_from_slice(&framed(NOTE));
        assert_eq!(
            frames(&input[..]),
            [
                Frame::Lost("two different Content-Length headers"),
                body(NOTE)
            ]
        );
        // Garbage with no header at all: one error, then the end.
        assert_eq!(
            frames(&b"\x00\xFFgarbage\r\n\r\n{}"[..]),
            [Frame::Lost("a header line that is not `Name: value`")]
        );
        // A needle split across the input's chunks is still found.
        let input = Script::new()
            .bytes(b"junk\r\nxxContent-Len")
            .bytes(format!("gth: {}\r\n\r\n{NOTE}", NOTE.len()).as_bytes());
        assert_eq!(
            frames(input),
            [
                Frame::Lost("a header line that is not `Name: value`"),
                body(NOTE)
            ]
        );
    }

    #[test]
    fn a_wrong_content_length_costs_at_most_the_messages_it_overlaps() {
        // One byte short: the body is cut, its last byte runs into the next header, which is
        // found in that same line.
        let mut input = format!("Content-Length: {}\r\n\r\n{INIT}", INIT.len() - 1).into_bytes();
        input.extend_from_slice(&framed(NOTE));
        assert_eq!(
            frames(&input[..]),
            [
                body(&INIT[..INIT.len() - 1]),
                Frame::Lost("a header line that is not `Name: value`"),
                body(NOTE)
            ]
        );
        // Three bytes long: the body takes the next header's first bytes, that message is lost,
        // the one after is read.
        let mut input = format!("Content-Length: {}\r\n\r\n{INIT}", INIT.len() + 3).into_bytes();
        input.extend_from_slice(&framed(NOTE));
        input.extend_from_slice(&framed(INIT));
        assert_eq!(
            frames(&input[..]),
            [
                body(&format!("{INIT}Con")),
                Frame::Lost("a message without a Content-Length header"),
                body(INIT)
            ]
        );
    }

    #[test]
    fn header_lines_are_held_only_up_to_their_limit() {
        // A gigabyte header line: refused, never held, and the next message is read.
        let input = Script::new()
            .bytes(b"X-Junk: ")
            .repeat(b'a', 1 << 30)
            .bytes(b"\r\n\r\n{}")
            .bytes(&framed(NOTE));
        let mut reader = Reader::new(input);
        assert_eq!(
            reader.next_frame().unwrap(),
            Some(Frame::Lost("a header line too long"))
        );
        assert!(reader.line.capacity() <= MAX_HEADER_LINE);
        assert_eq!(reader.next_frame().unwrap(), Some(body(NOTE)));
        assert!(reader.line.capacity() <= MAX_HEADER_LINE);
        // A line of exactly the limit is read.
        let name = format!("X-{}: 1\r\n", "a".repeat(MAX_HEADER_LINE - 7));
        assert_eq!(name.len(), MAX_HEADER_LINE);
        let input = [name.into_bytes(), framed(NOTE)].concat();
        assert_eq!(frames(&input[..]), [body(NOTE)]);
    }

    #[test]
    fn the_input_ending_anywhere_ends_the_frames() {
        let whole = framed(INIT);
        for cut in 0..whole.len() {
            assert_eq!(frames(&whole[..cut]), [], "{cut}");
        }
        // Also while skipping.
        let input = Script::new()
            .bytes(b"Content-Length: 100000000\r\n\r\n")
            .repeat(b'x', 1000);
        assert_eq!(frames(input), [Frame::TooLarge(100_000_000)]);
    }

    fn rejected(body: &[u8]) -> (i32, Value) {
        match parse(body) {
            Parsed::Rejected(r) => (r.code, r.id),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bodies_that_are_no_message_get_the_json_rpc_error_for_them() {
        const PARSE: i32 = -32700;
        const INVALID: i32 = -32600;
        let null = Value::Null;
        assert_eq!(
            rejected(br#"{"jsonrpc": "2.0", "id": 1, "#),
            (PARSE, null.clone())
        );
        assert_eq!(rejected(b""), (PARSE, null.clone()));
        assert_eq!(
            rejected(b"{\"jsonrpc\": \"2.0\", \"method\": \"a\xFF\"}"),
            (PARSE, null.clone())
        );
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(rejected(deep.as_bytes()), (PARSE, null.clone()));
        assert_eq!(
            rejected(format!("[{INIT}]").as_bytes()),
            (INVALID, null.clone())
        );
        assert_eq!(rejected(b"[]"), (INVALID, null.clone()));
        assert_eq!(rejected(b"null"), (INVALID, null.clone()));
        assert_eq!(rejected(br#""initialize""#), (INVALID, null.clone()));
        assert_eq!(rejected(br#"{"id": 7}"#), (INVALID, json!(7)));
        assert_eq!(
            rejected(br#"{"id": "x", "method": 5}"#),
            (INVALID, json!("x"))
        );
        assert_eq!(
            rejected(br#"{"method": ["exit"]}"#),
            (INVALID, null.clone())
        );
        assert_eq!(
            rejected(br#"{"id": {"a": 1}, "method": "initialize"}"#),
            (INVALID, null.clone())
        );
        // Ids lsp-server cannot hold: the request is refused with its id, not run as a
        // notification that is never answered.
        assert_eq!(
            rejected(br#"{"id": 1.5, "method": "shutdown"}"#),
            (INVALID, json!(1.5))
        );
        assert_eq!(
            rejected(br#"{"id": 4294967296, "method": "shutdown"}"#),
            (INVALID, json!(4_294_967_296_u64))
        );
        // A malformed response is not answered.
        for response in [
            r#"{"id": null, "error": {"code": -32700, "message": "?"}}"#,
            r#"{"id": 4294967296, "result": 1}"#,
            r#"{"id": 1, "result": 1, "error": {"code": 1, "message": "?"}}"#,
            r#"{"id": 1, "error": "?"}"#,
        ] {
            assert!(
                matches!(parse(response.as_bytes()), Parsed::Dropped(_)),
                "{response}"
            );
        }
        // Messages.
        assert!(
            matches!(parse(INIT.as_bytes()), Parsed::Message(Message::Request(r)) if r.method == "initialize")
        );
        assert!(matches!(
            parse(NOTE.as_bytes()),
            Parsed::Message(Message::Notification(_))
        ));
        assert!(matches!(
            parse(br#"{"jsonrpc": "2.0", "id": "irilint-1", "result": null}"#),
            Parsed::Message(Message::Response(_))
        ));
        assert!(matches!(
            parse(br#"{"jsonrpc": "2.0", "id": "irilint-2", "error": {"code": -32601, "message": "?"}}"#),
            Parsed::Message(Message::Response(Response { response_result: Err(e), .. })) if e.code == -32601
        ));
        assert!(matches!(
            parse(br#"{"jsonrpc": "2.0", "id": null, "method": "exit"}"#),
            Parsed::Message(Message::Notification(_))
        ));
        assert!(matches!(
            parse(br#"{"id": -3, "method": "m", "params": [1], "result": 1}"#),
            Parsed::Message(Message::Request(r)) if r.id == RequestId::from(-3) && r.params == json!([1])
        ));
    }

    #[test]
    fn the_reader_answers_bad_messages_and_goes_on_until_exit() {
        let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let input = [
            framed("{oops"),
            framed("[]"),
            b"Content-Length: 1000000000000\r\n\r\n".to_vec(),
            vec![b'x'; 10],
        ]
        .concat();
        let (messages, received) = bounded(16);
        let (rejections, rejected) = bounded(16);
        read_loop(&input[..], &messages, &rejections).unwrap();
        let codes: Vec<(i32, Value)> = rejected.try_iter().map(|r| (r.code, r.id)).collect();
        assert_eq!(
            codes,
            [
                (-32700, Value::Null),
                (-32600, Value::Null),
                (-32600, Value::Null)
            ]
        );
        assert_eq!(received.try_iter().count(), 0);
        // Nothing is read after `exit`.
        let input = [framed(INIT), framed(exit), framed("{oops")].concat();
        read_loop(&input[..], &messages, &rejections).unwrap();
        assert_eq!(received.try_iter().count(), 2);
        assert_eq!(rejected.try_iter().count(), 0);
    }

    #[test]
    fn a_body_of_too_many_tiny_values_is_refused_before_it_is_parsed() {
        let many = format!("[{}0]", "0,".repeat(MAX_VALUES));
        match parse(many.as_bytes()) {
            Parsed::Rejected(r) => assert!(
                r.to_json().to_string().contains("-32600"),
                "{:?}",
                r.to_json()
            ),
            _ => panic!("parsed"),
        }
        // Strings are one value however many commas they hold.
        let text = format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{{\"t\":\"{}\\\"\"}}}}",
            ",".repeat(2 * MAX_VALUES)
        );
        assert!(!json_values_at_least(text.as_bytes(), MAX_VALUES));
        assert!(matches!(parse(text.as_bytes()), Parsed::Message(_)));
    }
}
