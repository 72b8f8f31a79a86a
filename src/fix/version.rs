//! The versions of a document while it is fixed, each held in memory only while it is worked
//! on: a pass writes its fixed text into a temporary file as its edits are walked, drops the
//! text it was made from, and reads the new one back to check it. At no moment are two texts of
//! the document held, nor its bytes beside its text when they differ (another encoding, a BOM,
//! an undecodable sequence: they are streamed again from the file or the temporary file when a
//! pass writes into them), so that `--fix` of a file stays within twice its size (and the 50 MB
//! the memory bound allows besides): checking a text alone takes about 1.76 bytes per byte of it.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use crate::check::AsRead;
use crate::fsio::{Fingerprint, Replacement, describe_io_error};
use crate::source::{Format, Source};

/// A decoded version. Its bytes, when they are not its text (another encoding, a BOM, an
/// undecodable sequence), are not held beside it: they are read again as a stream from where
/// the version is kept ([`Version::stream`]).
#[derive(Debug)]
pub struct Held {
    /// Decoded.
    pub source: Source,
}

/// A temporary file a version's bytes were written to.
#[derive(Debug)]
pub enum Temp {
    /// Next to the file it will replace (`--fix`), with its owner and mode: the last version's
    /// is renamed over it.
    Replacing(Replacement),
    /// Anonymous (`--diff`, standard input): gone with its handle.
    Anonymous(File),
}

impl Temp {
    /// A new anonymous temporary file, readable by its owner only.
    pub fn anonymous() -> Result<Temp, String> {
        tempfile::tempfile().map(Temp::Anonymous).map_err(|e| {
            format!(
                "cannot create a temporary file for the fixed document: {}",
                describe_io_error(&e)
            )
        })
    }

    /// The file, open for reading and writing.
    pub fn file(&mut self) -> &mut File {
        match self {
            Temp::Replacing(r) => r.file(),
            Temp::Anonymous(f) => f,
        }
    }

    /// The file, to be read (`&File` reads and seeks).
    fn file_ref(&self) -> &File {
        match self {
            Temp::Replacing(r) => r.file_ref(),
            Temp::Anonymous(f) => f,
        }
    }

    /// Its whole contents, `len` bytes long.
    pub fn read_all(&mut self, len: u64) -> std::io::Result<Vec<u8>> {
        let file = self.file();
        file.seek(SeekFrom::Start(0))?;
        let mut bytes = Vec::with_capacity(with_room(len));
        file.take(len).read_to_end(&mut bytes)?;
        Ok(bytes)
    }
}

/// The capacity to read `len` bytes into that are decoded in place: room for the text to grow
/// (a U+FFFD for each undecodable byte, two bytes of UTF-8 for one of Latin-1) without moving
/// the buffer, which would hold it twice for a moment (a page not written to is never
/// resident, so room not taken costs nothing).
fn with_room(len: u64) -> usize {
    let len = usize::try_from(len).unwrap_or(0);
    len.saturating_add(len / 2).saturating_add(64)
}

/// Where a version's bytes are while it is not held.
#[derive(Debug)]
enum Store {
    /// The file it was read from, which must still hold them.
    Original(PathBuf),
    /// Only in memory (standard input's document): put in a temporary file before it is let go.
    Memory,
    /// A temporary file this run wrote.
    Temp(Temp),
}

/// One version of a document being fixed.
#[derive(Debug)]
pub struct Version {
    /// The path shown, and the format it is read in.
    path: String,
    format: Format,
    held: Option<Held>,
    store: Store,
    /// Its bytes are not its text: they are read from `store` when they are written into.
    elsewhere: bool,
    /// Of its bytes, keyed as every version of the document: taken when it is first needed
    /// (a file no fix changes is not read through once more).
    fingerprint: std::sync::OnceLock<Fingerprint>,
}

/// Why a version could not be put aside or read again (a message without the path).
pub type Lost = String;

impl Version {
    /// The document as read, from the file at `path` (`None`: standard input), with where its
    /// bytes are when they are not its text.
    pub fn read(source: Source, as_read: Option<AsRead>, path: Option<PathBuf>) -> Version {
        let held = Held { source };
        let (store, fingerprint, elsewhere) = match as_read {
            None => (
                path.map_or(Store::Memory, Store::Original),
                std::sync::OnceLock::new(),
                false,
            ),
            Some(AsRead {
                fingerprint,
                spooled,
            }) => {
                let store = match (spooled, path) {
                    (Some(file), _) => Store::Temp(Temp::Anonymous(file)),
                    (None, Some(path)) => Store::Original(path),
                    // Standard input's are always spooled: reading them fails, nothing is written.
                    (None, None) => Store::Memory,
                };
                (store, fingerprint.into(), true)
            }
        };
        Version {
            path: held.source.path.clone(),
            format: held.source.format,
            store,
            held: Some(held),
            elsewhere,
            fingerprint,
        }
    }

    /// A version written to `temp` (its bytes' `fingerprint`), decoded as `held`; `elsewhere`
    /// when its bytes are not its text.
    pub fn written(held: Held, temp: Temp, fingerprint: Fingerprint, elsewhere: bool) -> Version {
        Version {
            path: held.source.path.clone(),
            format: held.source.format,
            held: Some(held),
            store: Store::Temp(temp),
            elsewhere,
            fingerprint: fingerprint.into(),
        }
    }

    /// True when its bytes are not its text: they are read with [`Version::stream`].
    pub fn elsewhere(&self) -> bool {
        self.elsewhere
    }

    /// Its bytes, as a stream: the text's own when they are that and it is held, else read
    /// again from where they are kept ([`Version::stored`]).
    pub fn stream(&self) -> Result<Box<dyn Read + '_>, Lost> {
        if !self.elsewhere
            && let Some(held) = &self.held
        {
            return Ok(Box::new(held.source.text.as_bytes()));
        }
        self.stored()
    }

    /// Its bytes read again from where they are kept, the one way every reading of them goes:
    /// reading to the end fails ([`ReadAgain`]) unless they are still the bytes of its
    /// fingerprint.
    fn stored(&self) -> Result<Box<dyn Read + '_>, Lost> {
        let fingerprint = self.fingerprint();
        let len = fingerprint.len();
        let cannot = |e: std::io::Error| format!("cannot read it again: {}", describe_io_error(&e));
        let inner: Box<dyn Read + '_> = match &self.store {
            Store::Memory => return Err("the document is no longer held".to_string()),
            // One byte more than what was read: a file that grew is seen.
            Store::Original(path) => Box::new(
                File::open(path)
                    .map_err(cannot)?
                    .take(len.saturating_add(1)),
            ),
            Store::Temp(temp) => {
                let mut file = temp.file_ref();
                file.seek(SeekFrom::Start(0)).map_err(|e| {
                    format!(
                        "cannot read a temporary file again: {}",
                        describe_io_error(&e)
                    )
                })?;
                Box::new(file.take(len))
            }
        };
        Ok(Box::new(Checked {
            inner,
            digest: Some(Fingerprint::digest(fingerprint.key())),
            expected: fingerprint,
        }))
    }

    /// Its bytes, read again when they are not its text.
    pub fn bytes(&mut self) -> Result<Vec<u8>, Lost> {
        match &self.held {
            Some(held) if !self.elsewhere => Ok(held.source.text.as_bytes().to_vec()),
            _ => self.read_again(),
        }
    }

    /// Of its bytes.
    pub fn fingerprint(&self) -> &Fingerprint {
        self.fingerprint.get_or_init(|| match &self.held {
            // (Set when it is made for one whose bytes are not its text.)
            Some(held) => Fingerprint::of(held.source.text.as_bytes()),
            // Taken before a version is let go: never reached.
            None => Fingerprint::of(&[]),
        })
    }

    /// Its temporary file, when it was written to one, taken (to be renamed over the file it
    /// replaces): the version is then only where it is held.
    pub fn take_temp(&mut self) -> Option<Temp> {
        match std::mem::replace(&mut self.store, Store::Memory) {
            Store::Temp(t) => Some(t),
            other => {
                self.store = other;
                None
            }
        }
    }

    /// The path shown and the format it is read in.
    pub fn named(&self) -> (&str, Format) {
        (&self.path, self.format)
    }

    /// The decoded version, read again if it was let go.
    pub fn hold(&mut self) -> Result<&Held, Lost> {
        if self.held.is_none() {
            let bytes = self.read_again()?;
            self.held = Some(decode(&self.path, self.format, bytes)?.0);
        }
        Ok(self.held.as_ref().expect("held"))
    }

    /// The decoded version, if it is held.
    pub fn into_held(self) -> Option<Held> {
        self.held
    }

    /// The version if it is held.
    pub fn held(&self) -> Option<&Held> {
        self.held.as_ref()
    }

    /// Lets the decoded version go, putting it in a temporary file first when it is nowhere
    /// else.
    pub fn let_go(&mut self) -> Result<(), Lost> {
        self.fingerprint();
        if let (Store::Memory, Some(held), false) = (&self.store, &self.held, self.elsewhere) {
            let mut temp = Temp::anonymous()?;
            temp.file()
                .write_all(held.source.text.as_bytes())
                .map_err(|e| format!("cannot write a temporary file: {}", describe_io_error(&e)))?;
            self.store = Store::Temp(temp);
        }
        self.held = None;
        Ok(())
    }

    /// Its bytes read again from where they are ([`Version::stored`]), whole, with room to be
    /// decoded in place.
    fn read_again(&mut self) -> Result<Vec<u8>, Lost> {
        let mut bytes = Vec::with_capacity(with_room(self.fingerprint().len()));
        let failed = |e: std::io::Error| {
            read_again_error(&e)
                .unwrap_or_else(|| format!("cannot read it again: {}", describe_io_error(&e)))
        };
        // Through a buffer of its own, not `read_to_end`: that zeroes the room it reads into
        // before each read of a reader without a `read_buf` of its own (as this stream is), in
        // ever larger pieces, and a zeroed page is resident: up to half the document's size
        // more at the peak of `--diff`.
        let mut stream = self.stored()?;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => return Ok(bytes),
                Ok(n) => bytes.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(failed(e)),
            }
        }
    }
}

/// `bytes` decoded as the document `path` in `format`, in place (a UTF-8 file becomes its
/// text without a copy), and whether they are not its text.
pub fn decode(path: &str, format: Format, bytes: Vec<u8>) -> Result<(Held, bool), Lost> {
    let mut elsewhere = false;
    Source::decode_aside(path.to_string(), format, bytes, &mut |_| elsewhere = true)
        .map(|source| (Held { source }, elsewhere))
        .map_err(|_| "the fixed document reads as binary".to_string())
}

/// Why bytes read again were not those read first: the message of a [`Lost`], carried by an
/// I/O error.
#[derive(Debug)]
pub struct ReadAgain(pub Lost);

impl std::fmt::Display for ReadAgain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReadAgain {}

/// The [`Lost`] an I/O error of [`Version::stream`] carries, or `None` for another error.
pub fn read_again_error(e: &std::io::Error) -> Option<Lost> {
    e.get_ref()
        .and_then(|e| e.downcast_ref::<ReadAgain>())
        .map(|r| r.0.clone())
}

/// A stream of a version's bytes that, at its end, fails unless they had its fingerprint.
struct Checked<'a> {
    inner: Box<dyn Read + 'a>,
    /// Fed with what was read; `None` once compared.
    digest: Option<crate::fsio::Digest>,
    expected: &'a Fingerprint,
}

impl Read for Checked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf).map_err(|e| {
            std::io::Error::other(ReadAgain(format!(
                "cannot read it again: {}",
                describe_io_error(&e)
            )))
        })?;
        if n > 0 {
            if let Some(d) = &mut self.digest {
                d.write(&buf[..n]);
            }
        } else if let Some(d) = self.digest.take() {
            let read = d.finish(self.expected.key().clone());
            if !read.same(self.expected) {
                return Err(std::io::Error::other(ReadAgain(
                    "it changed on disk after it was read; not written".to_string(),
                )));
            }
        }
        Ok(n)
    }
}

/// A writer that feeds a digest with what it writes.
pub struct Digesting<'a, W: Write> {
    /// Where the bytes go.
    pub out: W,
    /// What they were.
    pub digest: &'a mut crate::fsio::Digest,
}

impl<W: Write> Write for Digesting<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.digest.write(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
