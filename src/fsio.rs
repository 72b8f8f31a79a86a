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
//!   directly: replacing it with a file would break it for every later process.
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
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
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
    if let Some(m) = original {
        keep_owner(&file, m).map_err(|e| {
            format!(
                "cannot give the new file the owner and group of the old one ({}); not written",
                describe_io_error(&e)
            )
        })?;
        file.set_permissions(m.permissions()).map_err(|e| {
            format!(
                "cannot give the new file the old one's mode ({}); not written",
                describe_io_error(&e)
            )
        })?;
    }
    let failed = |e: &io::Error| format!("cannot write the new contents: {}", describe_io_error(e));
    let mut out = io::BufWriter::new(file);
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| failed(&e))?;
    let file = out.into_inner().map_err(|e| failed(e.error()))?;
    file.sync_all().map_err(|e| failed(&e))
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
