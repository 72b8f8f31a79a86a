//! Replacing a fixed file's contents so that it is, at every moment, either the old or the new
//! file ([`crate::fsio::write_atomically`]): the temporary file gets the old file's mode, owner
//! and group before the new text goes in. A symbolic link is followed and its target replaced,
//! so the link stays a link. A file that changed since it was read, or that we may not write,
//! is left alone.

use std::path::Path;

use crate::fsio::{Expect, write_atomically};

/// Writes `new` to `path` if it still holds `read`; the error says why not.
pub fn replace(path: &Path, read: &[u8], new: &[u8]) -> Result<(), String> {
    write_atomically(path, Expect::Holds(read), |out| out.write_all(new))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

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

    #[cfg(unix)]
    #[test]
    fn a_private_file_is_never_readable_by_others_while_it_is_replaced() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("secret.md");
        fs::write(&p, "old").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        // The writer sees the temporary file while it writes: it must already be 0600.
        let mut modes = Vec::new();
        write_atomically(&p, Expect::Holds(b"old"), |out| {
            for e in fs::read_dir(dir.path()).unwrap() {
                let e = e.unwrap();
                modes.push(e.metadata().unwrap().permissions().mode() & 0o777);
            }
            out.write_all(b"new")
        })
        .unwrap();
        assert_eq!(modes, [0o600, 0o600], "the file and its temporary copy");
        assert_eq!(fs::read(&p).unwrap(), b"new");
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
}
