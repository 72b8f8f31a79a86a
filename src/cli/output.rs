//! Where a report goes: standard output, or a file written atomically (`--output-file`), so
//! that a CI step reading it never sees half a report.

use std::io::Write;
use std::path::Path;

use crate::iri::chars::escape_unsafe;
use crate::walk::describe_io_error;

/// Writes `text` to `file`, or to standard output without one; the error says what failed.
pub(super) fn write_report(file: Option<&Path>, text: &str) -> Result<(), String> {
    match file {
        None => {
            super::emit(text);
            Ok(())
        }
        Some(file) => write_atomically(file, text.as_bytes()).map_err(|e| {
            format!(
                "cannot write the report to {}: {}",
                escape_unsafe(&file.display().to_string()),
                describe_io_error(&e)
            )
        }),
    }
}

/// A temporary file in `file`'s directory (so that the rename cannot cross file systems),
/// written, synced and renamed over `file`.
fn write_atomically(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".irilint-report-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // What `File::create` gives (before the umask), not the temporary file's 0600.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(file).map_err(|e| e.error)?;
    Ok(())
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
}
