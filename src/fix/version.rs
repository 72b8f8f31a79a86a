//! The versions of a document while it is fixed, each held in memory only while it is worked
//! on: a pass writes its fixed text into a temporary file as its edits are walked, drops the
//! text it was made from, and reads the new one back to check it. At no moment are two texts of
//! the document held, so that `--fix` of a file stays within twice its size (and the 50 MB the
//! memory bound allows besides): checking a text alone takes about 1.76 bytes per byte of it.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use crate::fsio::{Fingerprint, Replacement, describe_io_error};
use crate::source::{Format, Source, as_read};

/// A decoded version and the bytes it was read from when they are not its text
/// ([`as_read`]).
#[derive(Debug)]
pub struct Held {
    /// Decoded.
    pub source: Source,
    /// Its bytes, empty when they are the text's own.
    pub bytes: Vec<u8>,
}

impl Held {
    /// Its bytes, whichever way they are held.
    pub fn bytes(&self) -> &[u8] {
        as_read(&self.bytes, &self.source)
    }
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

    /// Its whole contents, `len` bytes long.
    pub fn read_all(&mut self, len: u64) -> std::io::Result<Vec<u8>> {
        let file = self.file();
        file.seek(SeekFrom::Start(0))?;
        let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        file.take(len).read_to_end(&mut bytes)?;
        Ok(bytes)
    }
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
    /// Of its bytes, keyed as every version of the document: taken when it is first needed
    /// (a file no fix changes is not read through once more).
    fingerprint: std::sync::OnceLock<Fingerprint>,
}

/// Why a version could not be put aside or read again (a message without the path).
pub type Lost = String;

impl Version {
    /// The document as read, from the file at `path` (`None`: standard input).
    pub fn read(source: Source, bytes: Vec<u8>, path: Option<PathBuf>) -> Version {
        let held = Held { source, bytes };
        Version {
            path: held.source.path.clone(),
            format: held.source.format,
            store: path.map_or(Store::Memory, Store::Original),
            held: Some(held),
            fingerprint: std::sync::OnceLock::new(),
        }
    }

    /// A version written to `temp` (its bytes' `fingerprint`), decoded as `held`.
    pub fn written(held: Held, temp: Temp, fingerprint: Fingerprint) -> Version {
        Version {
            path: held.source.path.clone(),
            format: held.source.format,
            held: Some(held),
            store: Store::Temp(temp),
            fingerprint: fingerprint.into(),
        }
    }

    /// Of its bytes.
    pub fn fingerprint(&self) -> &Fingerprint {
        self.fingerprint.get_or_init(|| match &self.held {
            Some(held) => Fingerprint::of(held.bytes()),
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
            self.held = Some(decode(&self.path, self.format, bytes)?);
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

    /// Its bytes as they are read from its temporary file (after [`Version::let_go`]).
    pub fn reader(&mut self) -> Result<std::io::BufReader<std::io::Take<&mut File>>, Lost> {
        let len = self.fingerprint().len();
        let Store::Temp(temp) = &mut self.store else {
            return Err("the fixed document is in no temporary file".to_string());
        };
        let file = temp.file();
        file.seek(SeekFrom::Start(0)).map_err(|e| {
            format!(
                "cannot read a temporary file again: {}",
                describe_io_error(&e)
            )
        })?;
        Ok(std::io::BufReader::new(file.take(len)))
    }

    /// Lets the decoded version go, putting it in a temporary file first when it is nowhere
    /// else.
    pub fn let_go(&mut self) -> Result<(), Lost> {
        self.fingerprint();
        if let (Store::Memory, Some(held)) = (&self.store, &self.held) {
            let mut temp = Temp::anonymous()?;
            temp.file()
                .write_all(held.bytes())
                .map_err(|e| format!("cannot write a temporary file: {}", describe_io_error(&e)))?;
            self.store = Store::Temp(temp);
        }
        self.held = None;
        Ok(())
    }

    /// Its bytes read again from where they are, checked against its fingerprint.
    fn read_again(&mut self) -> Result<Vec<u8>, Lost> {
        let len = self.fingerprint().len();
        let bytes = match &mut self.store {
            Store::Memory => return Err("the document is no longer held".to_string()),
            Store::Original(path) => {
                let cannot =
                    |e: std::io::Error| format!("cannot read it again: {}", describe_io_error(&e));
                let file = File::open(&*path).map_err(cannot)?;
                let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
                // One byte more than what was read: a file that grew is seen.
                file.take(len.saturating_add(1))
                    .read_to_end(&mut bytes)
                    .map_err(cannot)?;
                bytes
            }
            Store::Temp(temp) => temp.read_all(len).map_err(|e| {
                format!(
                    "cannot read a temporary file again: {}",
                    describe_io_error(&e)
                )
            })?,
        };
        let read = Fingerprint::with_key(&bytes, self.fingerprint().key().clone());
        if !read.same(self.fingerprint()) {
            return Err("it changed on disk after it was read; not written".to_string());
        }
        Ok(bytes)
    }
}

/// `bytes` decoded as the document `path` in `format`, holding a UTF-8 file once.
pub fn decode(path: &str, format: Format, bytes: Vec<u8>) -> Result<Held, Lost> {
    Source::decode_keeping(path.to_string(), format, bytes)
        .map(|(source, bytes)| Held { source, bytes })
        .map_err(|_| "the fixed document reads as binary".to_string())
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
