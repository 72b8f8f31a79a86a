//! The file system as irilint touches it outside the documents it lints: configuration,
//! baselines and reports are read and written here, and only here, with the same guards.
//!
//! - **Reading** ([`read_capped`]): only a regular file (never a FIFO, a device or `/proc`'s
//!   endless files), opened without blocking, and never more than a cap: a pull request can
//!   name any path in a configuration, and a FIFO would hang the run, `/dev/zero` fill memory.
//! - **Writing** ([`write_atomically`]): a regular file (or a symbolic link to one, which
//!   stays a link) is replaced through a temporary file in its directory, created `0600` and
//!   given the old file's mode and owner *before* anything is written into it, then renamed,
//!   so that it is at every moment the old or the new file and no other user can read the new
//!   contents early. A device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is written
//!   directly: replacing it with a file would break it for every later process. A fixed
//!   document is written the same way through a [`Replacement`], whose temporary file a fix
//!   writes pass by pass, renamed over the file only if the file still has the
//!   [`Fingerprint`] of what was read.
//! - **Errors** ([`describe_io_error`]): one wording for every I/O error shown.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The largest configuration file read (`irilint.toml`, `pyproject.toml`, `extend`).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The largest baseline read.
pub const MAX_BASELINE_BYTES: u64 = 64 << 20;

/// A short description of an I/O error, for messages that already name the path.
pub fn describe_io_error(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    }
}

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// It could not be opened or read.
    Io(io::Error),
    /// It is not a regular file (a directory, a FIFO, a device, a socket).
    NotRegular(&'static str),
    /// It is larger than the cap.
    TooLarge(u64),
    /// It is not UTF-8.
    NotUtf8,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => f.write_str(&describe_io_error(e)),
            ReadError::NotRegular(kind) => write!(f, "it is {kind}, not a regular file"),
            ReadError::TooLarge(cap) => write!(f, "it is larger than {cap} bytes"),
            ReadError::NotUtf8 => f.write_str("it is not UTF-8 text"),
        }
    }
}

/// What kind of file `t` is, in words, when it is not a regular file.
fn kind_of(t: fs::FileType) -> Option<&'static str> {
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO");
        }
        if t.is_char_device() || t.is_block_device() {
            return Some("a device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Opens `path` for reading without blocking on a FIFO (whose `open` waits for a writer).
fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// The regular file `path` (symbolic links followed), opened if it is at most `cap` bytes, and
/// its size.
fn open_regular(path: &Path, cap: u64) -> Result<(File, u64), ReadError> {
    // Checked before opening, so that a FIFO is never opened, and again on the open file, in
    // case the path was swapped in between.
    let before = fs::metadata(path).map_err(ReadError::Io)?;
    if let Some(kind) = kind_of(before.file_type()) {
        return Err(ReadError::NotRegular(kind));
    }
    let file = open_nonblocking(path).map_err(ReadError::Io)?;
    let metadata = file.metadata().map_err(ReadError::Io)?;
    if let Some(kind) = kind_of(metadata.file_type()) {
        return Err(ReadError::NotRegular(kind));
    }
    if metadata.len() > cap {
        return Err(ReadError::TooLarge(cap));
    }
    Ok((file, metadata.len()))
}

/// The bytes of the regular file `path` (symbolic links followed), at most `cap` of them.
fn read_capped_bytes(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let (file, len) = open_regular(path, cap)?;
    let mut bytes = Vec::with_capacity(len as usize);
    // One byte more than the cap tells a file that grew since its size was read.
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge(cap));
    }
    Ok(bytes)
}

/// A buffered reader of the regular file `path` (symbolic links followed), for what is read as
/// it comes rather than held whole; at most `cap` bytes are read, however the file grows.
pub fn open_capped(path: &Path, cap: u64) -> Result<impl io::BufRead, ReadError> {
    let (file, _) = open_regular(path, cap)?;
    Ok(io::BufReader::new(file.take(cap)))
}

/// The text of the regular file `path`, at most `cap` bytes of UTF-8.
pub fn read_capped(path: &Path, cap: u64) -> Result<String, ReadError> {
    String::from_utf8(read_capped_bytes(path, cap)?).map_err(|_| ReadError::NotUtf8)
}

/// Makes temporary names unique within the process (files are fixed in parallel).
static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// What must still hold of the file being replaced when the new contents take its place.
pub enum Expect<'a> {
    /// Nothing: a report or a baseline, which may or may not exist.
    Anything,
    /// It exists and still holds these bytes (a fix, computed from them).
    Holds(&'a [u8]),
}

/// Writes what `write` produces to `path`: atomically for a regular file or a new one (a
/// symbolic link is followed and its target replaced), directly for a device or a FIFO. The
/// error says what failed, without the path (the caller names it).
pub fn write_atomically(
    path: &Path,
    expect: Expect<'_>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), String> {
    let existing = match fs::metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(format!(
                "cannot read its metadata: {}",
                describe_io_error(&e)
            ));
        }
    };
    let Some(metadata) = existing else {
        if let Expect::Holds(_) = expect {
            return Err("it no longer exists; not written".to_string());
        }
        // A new file; a dangling symbolic link is written through, to its target.
        let target = resolve_link(path)?;
        return replace(&target, None, None, write);
    };
    if metadata.is_dir() {
        return Err("it is a directory".to_string());
    }
    if !metadata.is_file() {
        if let Expect::Holds(_) = expect {
            return Err("it is not a regular file; not written".to_string());
        }
        return write_directly(path, write);
    }
    let target = fs::canonicalize(path)
        .map_err(|e| format!("cannot resolve the path: {}", describe_io_error(&e)))?;
    // Renaming over a file needs only the directory's permission; the file's own must be
    // respected, so it is opened for writing (without truncating) first.
    OpenOptions::new()
        .write(true)
        .open(&target)
        .map_err(|e| format!("cannot write it: {}", describe_io_error(&e)))?;
    let read = match expect {
        Expect::Holds(read) => {
            unchanged(&target, read)?;
            Some(read)
        }
        Expect::Anything => None,
    };
    replace(&target, Some(&metadata), read, write)
}

/// Where a path that may be a symbolic link leads (the path itself when it is none).
fn resolve_link(path: &Path) -> Result<PathBuf, String> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&path)
                    .map_err(|e| format!("cannot read the link: {}", describe_io_error(&e)))?;
                path = match path.parent() {
                    Some(dir) => dir.join(to),
                    None => to,
                };
            }
            _ => return Ok(path),
        }
    }
    Err("too many levels of symbolic links".to_string())
}

/// Writes a device or a FIFO as it is: what `/dev/null` or a pipe expects.
fn write_directly(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), String> {
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot open it for writing: {}", describe_io_error(&e)))?;
    let mut out = io::BufWriter::new(file);
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write it: {}", describe_io_error(&e)))
}

/// Replaces `target` (a regular file, or none yet, then `original` is `None`) through a
/// temporary file; `read`, for a fix, is what it must still hold.
fn replace(
    target: &Path,
    original: Option<&fs::Metadata>,
    read: Option<&[u8]>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), String> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let temp = temp_path(dir, target);
    let result = write_temp(&temp, original, write)
        // Checked again as late as possible: an editor may have saved meanwhile.
        .and_then(|()| read.map_or(Ok(()), |read| unchanged(target, read)))
        .and_then(|()| {
            fs::rename(&temp, target)
                .map_err(|e| format!("cannot replace it: {}", describe_io_error(&e)))
        });
    if result.is_err() {
        let _ = fs::remove_file(&temp);
        return result;
    }
    // Makes the rename durable; not every platform can open a directory, hence no error.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// What a file held when it was read, without its bytes: their length and a digest keyed anew
/// for each run (no file can be made to collide with another), so that `--fix` can tell a
/// file changed meanwhile without holding a copy of what it read.
#[derive(Debug, Clone)]
pub struct Fingerprint {
    len: u64,
    digest: u64,
    key: std::hash::RandomState,
}

/// Feeds `bytes` to a digest. `Hasher::write` is a stream: the pieces of a text give the digest
/// of the whole, however it is cut.
pub struct Digest(std::hash::DefaultHasher, u64);

impl Digest {
    /// Adds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        use std::hash::Hasher;
        self.0.write(bytes);
        self.1 += bytes.len() as u64;
    }

    /// The fingerprint of everything written.
    pub fn finish(self, key: std::hash::RandomState) -> Fingerprint {
        use std::hash::Hasher;
        Fingerprint {
            len: self.1,
            digest: self.0.finish(),
            key,
        }
    }
}

impl Fingerprint {
    /// A digest to feed, keyed as `key`.
    pub fn digest(key: &std::hash::RandomState) -> Digest {
        use std::hash::BuildHasher;
        Digest(key.build_hasher(), 0)
    }

    /// The fingerprint of `bytes`, with a new key.
    pub fn of(bytes: &[u8]) -> Fingerprint {
        Fingerprint::with_key(bytes, std::hash::RandomState::new())
    }

    /// The fingerprint of `bytes` with `key`.
    pub fn with_key(bytes: &[u8], key: std::hash::RandomState) -> Fingerprint {
        let mut d = Fingerprint::digest(&key);
        d.write(bytes);
        d.finish(key)
    }

    /// The fingerprint of what `read` gives, with the same key as this one, read 64 KiB at a
    /// time (the file is not read into memory a second time).
    pub fn of_reader(&self, read: &mut dyn Read) -> io::Result<Fingerprint> {
        let mut d = Fingerprint::digest(&self.key);
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            let n = match read.read(&mut chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                return Ok(d.finish(self.key.clone()));
            }
            d.write(&chunk[..n]);
        }
    }

    /// Its key, for the fingerprints to compare with it.
    pub fn key(&self) -> &std::hash::RandomState {
        &self.key
    }

    /// How many bytes it was taken of.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when it was taken of no byte.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when both were taken of the same bytes (with the same key).
    pub fn same(&self, other: &Fingerprint) -> bool {
        self.len == other.len && self.digest == other.digest
    }
}

/// An error unless `path` still holds what `read` was taken of.
fn unchanged_as(path: &Path, read: &Fingerprint) -> Result<(), String> {
    let cannot = |e: io::Error| format!("cannot read it again: {}", describe_io_error(&e));
    let mut file = fs::File::open(path).map_err(cannot)?;
    if read.same(&read.of_reader(&mut file).map_err(cannot)?) {
        Ok(())
    } else {
        Err("it changed on disk after it was read; not written".to_string())
    }
}

/// A regular file being replaced (`--fix`): its new contents are written into a temporary file
/// next to it, made `0600` and given the file's owner, group and mode before anything goes in,
/// and renamed over it by [`Replacement::commit`] if the file still holds what was read; the
/// temporary file is removed when the replacement is dropped uncommitted.
#[derive(Debug)]
pub struct Replacement {
    target: PathBuf,
    temp: PathBuf,
    file: Option<File>,
}

impl Replacement {
    /// Starts replacing `path` (a symbolic link is followed); the error says why it cannot be,
    /// as [`write_atomically`]'s do. (Whether it still holds what was read is asked by
    /// [`Replacement::commit`]: a fix makes a temporary file per pass.)
    pub fn begin(path: &Path) -> Result<Replacement, String> {
        let metadata = match fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err("it no longer exists; not written".to_string());
            }
            Err(e) => {
                return Err(format!(
                    "cannot read its metadata: {}",
                    describe_io_error(&e)
                ));
            }
        };
        if metadata.is_dir() {
            return Err("it is a directory".to_string());
        }
        if !metadata.is_file() {
            return Err("it is not a regular file; not written".to_string());
        }
        let target = fs::canonicalize(path)
            .map_err(|e| format!("cannot resolve the path: {}", describe_io_error(&e)))?;
        OpenOptions::new()
            .write(true)
            .open(&target)
            .map_err(|e| format!("cannot write it: {}", describe_io_error(&e)))?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let temp = temp_path(&dir, &target);
        let file = create_temp(&temp, Some(&metadata), true)?;
        Ok(Replacement {
            target,
            temp,
            file: Some(file),
        })
    }

    /// The temporary file, open for reading and writing.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("open until committed")
    }

    /// The temporary file, to be read (`&File` reads and seeks).
    pub fn file_ref(&self) -> &File {
        self.file.as_ref().expect("open until committed")
    }

    /// Renames the temporary file over the file, if it still holds what `read` was taken of
    /// (checked as late as possible: an editor may have saved meanwhile).
    pub fn commit(mut self, read: &Fingerprint) -> Result<(), String> {
        let failed =
            |e: &io::Error| format!("cannot write the new contents: {}", describe_io_error(e));
        if let Some(file) = self.file.take() {
            file.sync_all().map_err(|e| failed(&e))?;
        }
        unchanged_as(&self.target, read)?;
        fs::rename(&self.temp, &self.target)
            .map_err(|e| format!("cannot replace it: {}", describe_io_error(&e)))?;
        self.temp = PathBuf::new();
        if let Some(dir) = self.target.parent()
            && let Ok(d) = File::open(if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            })
        {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if !self.temp.as_os_str().is_empty() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// An error unless `path` still holds `read`.
fn unchanged(path: &Path, read: &[u8]) -> Result<(), String> {
    let cannot = |e: io::Error| format!("cannot read it again: {}", describe_io_error(&e));
    let changed = || Err("it changed on disk after it was read; not written".to_string());
    // Compared 64 KiB at a time: the file is not read into memory a second time.
    let mut file = fs::File::open(path).map_err(cannot)?;
    let mut chunk = vec![0u8; 64 * 1024];
    let mut at = 0;
    loop {
        let n = match file.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(cannot(e)),
        };
        if n == 0 {
            return if at == read.len() { Ok(()) } else { changed() };
        }
        if read.get(at..at + n) != Some(&chunk[..n]) {
            return changed();
        }
        at += n;
    }
}

/// A hidden name next to `target` that no other process and no other thread uses.
fn temp_path(dir: &Path, target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{name}.irilint-{}-{n}.tmp", std::process::id()))
}

/// Creates the temporary file readable by its owner only, gives it the replaced file's owner,
/// group and mode while it is still empty, then writes it.
fn write_temp(
    temp: &Path,
    original: Option<&fs::Metadata>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), String> {
    let file = create_temp(temp, original, false)?;
    let failed = |e: &io::Error| format!("cannot write the new contents: {}", describe_io_error(e));
    let mut out = io::BufWriter::new(file);
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| failed(&e))?;
    let file = out.into_inner().map_err(|e| failed(e.error()))?;
    file.sync_all().map_err(|e| failed(&e))
}

/// Creates the temporary file `temp` (readable too with `read`, for a fix checked from it) with
/// the mode, owner and group of the `original` it will replace.
fn create_temp(temp: &Path, original: Option<&fs::Metadata>, read: bool) -> Result<File, String> {
    let mut options = OpenOptions::new();
    options.write(true).read(read).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Owner-only until it has the replaced file's owner and mode; a new file gets what
        // `File::create` gives (0666 less the umask), which it will have once renamed anyway.
        options.mode(if original.is_some() { 0o600 } else { 0o666 });
    }
    let file = options.open(temp).map_err(|e| match e.kind() {
        // Its directory is missing.
        io::ErrorKind::NotFound => describe_io_error(&e),
        _ => format!(
            "cannot create a temporary file next to it: {}",
            describe_io_error(&e)
        ),
    })?;
    let Some(m) = original else {
        return Ok(file);
    };
    let given = keep_owner(&file, m)
        .map_err(|e| {
            format!(
                "cannot give the new file the owner and group of the old one ({}); not written",
                describe_io_error(&e)
            )
        })
        .and_then(|()| {
            file.set_permissions(m.permissions()).map_err(|e| {
                format!(
                    "cannot give the new file the old one's mode ({}); not written",
                    describe_io_error(&e)
                )
            })
        });
    if given.is_err() {
        // Created here: no copy of the new contents is left behind.
        let _ = fs::remove_file(temp);
    }
    given.map(|()| file)
}

/// Gives the new file the old one's owner and group; an error when that is not allowed (the
/// file would change hands: better not written).
#[cfg(unix)]
fn keep_owner(file: &File, original: &fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let now = file.metadata()?;
    if (now.uid(), now.gid()) == (original.uid(), original.gid()) {
        return Ok(());
    }
    std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid()))
}

#[cfg(not(unix))]
fn keep_owner(_: &File, _: &fs::Metadata) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_changed_after_reading_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        fs::write(&p, "before").unwrap();
        let read = Fingerprint::of(b"before");
        let mut r = Replacement::begin(&p).unwrap();
        r.file().write_all(b"after").unwrap();
        fs::write(&p, "now!!!").unwrap();
        let err = r.commit(&read).unwrap_err();
        assert!(err.contains("changed on disk"), "{err}");
        assert_eq!(fs::read(&p).unwrap(), b"now!!!");
        let now = Fingerprint::of(b"now!!!");
        let mut r = Replacement::begin(&p).unwrap();
        r.file().write_all(b"after").unwrap();
        r.commit(&now).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"after");
        // No temporary file is left behind, committed or dropped.
        drop(Replacement::begin(&p).unwrap());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_private_file_is_never_readable_by_others_while_it_is_replaced() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("secret.md");
        fs::write(&p, "old").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        let read = Fingerprint::of(b"old");
        let mut r = Replacement::begin(&p).unwrap();
        // The temporary file is already 0600 before anything is written into it.
        let modes: Vec<u32> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().permissions().mode() & 0o777)
            .collect();
        assert_eq!(modes, [0o600, 0o600], "the file and its temporary copy");
        r.file().write_all(b"new").unwrap();
        r.commit(&read).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new");
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    #[test]
    fn a_fingerprint_is_of_the_bytes_however_they_are_cut() {
        let whole = Fingerprint::of(b"abcdef");
        let mut d = Fingerprint::digest(whole.key());
        d.write(b"ab");
        d.write(b"");
        d.write(b"cdef");
        assert!(d.finish(whole.key().clone()).same(&whole));
        let other = Fingerprint::with_key(b"abcdeg", whole.key().clone());
        assert!(!other.same(&whole));
        let read = whole.of_reader(&mut &b"abcdef"[..]).unwrap();
        assert!(read.same(&whole));
    }
}
