//! Replacing a file's contents so that it is, at every moment, either the old or the new file.
//!
//! The new bytes go to a temporary file in the same directory (a rename across file systems is
//! not atomic), get the old file's permissions, owner and group, are flushed to disk, and the temporary file is
//! renamed over the old one; then the directory is flushed so that the rename survives a crash.
//! A symbolic link is followed and its target replaced, so the link stays a link. A file that
//! changed since it was read, or that we may not write, is left alone.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::walk::describe_io_error;

/// Makes temporary names unique within the process (files are fixed in parallel).
static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Writes `new` to `path` if it still holds `read`; the error says why not.
pub fn replace(path: &Path, read: &[u8], new: &[u8]) -> Result<(), String> {
    let target = fs::canonicalize(path)
        .map_err(|e| format!("cannot resolve the path: {}", describe_io_error(&e)))?;
    let metadata = fs::metadata(&target)
        .map_err(|e| format!("cannot read its metadata: {}", describe_io_error(&e)))?;
    // Renaming over a file needs only the directory's permission; the file's own must be
    // respected, so it is opened for writing (without truncating) first.
    OpenOptions::new()
        .write(true)
        .open(&target)
        .map_err(|e| format!("cannot write it: {}", describe_io_error(&e)))?;
    unchanged(&target, read)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let temp = temp_path(dir, &target);
    let result = write_temp(&temp, new, &metadata)
        .map_err(|e| format!("cannot write a temporary file: {}", describe_io_error(&e)))
        // Checked again as late as possible: an editor may have saved meanwhile.
        .and_then(|()| unchanged(&target, read))
        .and_then(|()| {
            fs::rename(&temp, &target)
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
    match fs::read(path) {
        Ok(now) if now == read => Ok(()),
        Ok(_) => Err("it changed on disk after it was read; not fixed".to_string()),
        Err(e) => Err(format!("cannot read it again: {}", describe_io_error(&e))),
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

fn write_temp(temp: &Path, new: &[u8], original: &fs::Metadata) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(temp)?;
    file.write_all(new)?;
    file.set_permissions(original.permissions())?;
    keep_owner(&file, original)?;
    file.sync_all()
}

/// Gives the new file the old one's owner and group; an error when that is not allowed (the
/// file would change hands: better not fixed).
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
        fs::write(&p, "now").unwrap();
        let err = replace(&p, b"before", b"after").unwrap_err();
        assert!(err.contains("changed on disk"), "{err}");
        assert_eq!(fs::read(&p).unwrap(), b"now");
        replace(&p, b"now", b"after").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"after");
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
