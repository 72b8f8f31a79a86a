//! Where a report goes: standard output (also `--output-file -`), or a file written
//! atomically (`--output-file`), so that a CI step reading it never sees half a report; a
//! device or a FIFO is written as it is, never replaced by a file.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::progress::{AroundBar, Progress};
use crate::fsio::{Expect, write_atomically};
use crate::iri::chars::escape_unsafe;
use crate::walk::{Entry, Input};

/// Writes `text` to `file`, or to standard output without one (or for `-`); the error says
/// what failed. A regular file is replaced atomically, a device or FIFO written as it is.
pub(super) fn write_report(file: Option<&Path>, text: &str) -> Result<(), String> {
    stream_report(file, |out| out.write_all(text.as_bytes()))
}

/// [`write_report`] for a report written as it is produced (`write`), never held whole.
pub(super) fn stream_report(
    file: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), String> {
    stream_report_around(file, None, write)
}

/// [`stream_report`] while `progress`'s bar may be drawn: standard output is written around it
/// ([`AroundBar`]).
pub(super) fn stream_report_around(
    file: Option<&Path>,
    progress: Option<&Progress>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), String> {
    match file {
        Some(file) if file != Path::new("-") => write_atomically(file, Expect::Anything, write)
            .map_err(|e| {
                format!(
                    "cannot write the report to {}: {e}",
                    escape_unsafe(&file.display().to_string()),
                )
            }),
        _ => {
            let out = io::BufWriter::new(io::stdout().lock());
            let mut out: Box<dyn Write> = match progress {
                Some(p) => Box::new(AroundBar::new(p, out)),
                None => Box::new(out),
            };
            match write(&mut out).and_then(|()| out.flush()) {
                // A closed pipe (`irilint | head`) is not an error.
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    Err(format!("cannot write the report: {e}"))
                }
                _ => Ok(()),
            }
        }
    }
}

/// An error when writing `file` (given as `--option`) would replace a file this run reads: a
/// document (the same file, under any name or through any link), or one of `read`, each with
/// what it is (the baseline, a configuration file, the file `--stdin-filename` names).
pub(super) fn refuse_input(
    option: &str,
    file: &Path,
    inputs: &[Entry],
    read: &[(String, PathBuf)],
) -> Result<(), String> {
    if file == Path::new("-") {
        return Ok(());
    }
    let shown = escape_unsafe(&file.display().to_string());
    let Ok(out) = std::fs::metadata(file) else {
        return Ok(());
    };
    for e in inputs {
        if let Input::File { path, .. } = &e.input
            && std::fs::metadata(path).is_ok_and(|m| same_file(&m, &out))
        {
            return Err(format!(
                "{option} {shown} is one of the files being checked ({}): it would be replaced; \
                 write it elsewhere, or exclude it (`extend-exclude` in irilint.toml)",
                escape_unsafe(&path.display().to_string())
            ));
        }
    }
    for (what, path) in read {
        if std::fs::metadata(path).is_ok_and(|m| same_file(&m, &out)) {
            return Err(format!(
                "{option} {shown} is {what} ({}), which this run reads: it would be replaced; \
                 write it elsewhere",
                escape_unsafe(&path.display().to_string())
            ));
        }
    }
    Ok(())
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_replaced_whole_and_no_temporary_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("report.sarif");
        std::fs::write(&file, "old and longer than the new one").unwrap();
        write_report(Some(&file), "new").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["report.sarif"]);
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("missing/report.json");
        let e = write_report(Some(&file), "x").unwrap_err();
        assert!(e.contains("missing/report.json"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_not_replaced() {
        write_report(Some(Path::new("/dev/null")), "report").unwrap();
        let m = std::fs::metadata("/dev/null").unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(
            m.file_type().is_char_device(),
            "/dev/null is still a device"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_stays_a_link_to_the_new_report() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        std::fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_report(Some(&link), "new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        write_report(Some(&fifo), "through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), "through the pipe");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }
}
